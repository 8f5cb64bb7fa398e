/*
 * The podcast feed: a repository's episodes as RSS 2.0 with the iTunes and
 * Podcasting 2.0 namespaces. Plain structs in, a string out.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "date.h"
#include "episode.h"
#include "xmalloc.h"

#define FEED_NS_ITUNES	"http://www.itunes.com/dtds/podcast-1.0.dtd"
#define FEED_NS_PODCAST	"https://podcastindex.org/namespace/1.0"
#define FEED_NS_ATOM	"http://www.w3.org/2005/Atom"

/*
 * The length of the valid UTF-8 sequence at p (1 to 4) with its code point
 * in *cp, or 0 when p starts no valid sequence (overlong forms and UTF-16
 * surrogates are invalid).
 */
static size_t
feed_utf8(const unsigned char *p, uint32_t *cp)
{
	unsigned char	lo = 0x80, hi = 0xbf;
	size_t		n, i;

	if (p[0] < 0x80) {
		*cp = p[0];
		return 1;
	}
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		n = 2;
		*cp = p[0] & 0x1f;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		n = 3;
		*cp = p[0] & 0x0f;
		if (p[0] == 0xe0)
			lo = 0xa0;
		else if (p[0] == 0xed)
			hi = 0x9f;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		n = 4;
		*cp = p[0] & 0x07;
		if (p[0] == 0xf0)
			lo = 0x90;
		else if (p[0] == 0xf4)
			hi = 0x8f;
	} else
		return 0;
	for (i = 1; i < n; i++) {
		if (p[i] < lo || p[i] > hi)
			return 0;
		lo = 0x80;
		hi = 0xbf;
		*cp = (*cp << 6) | (p[i] & 0x3f);
	}
	return n;
}

/* May code point cp appear in an XML 1.0 document? */
static int
feed_xml_char(uint32_t cp)
{
	if (cp < 0x20)
		return cp == 0x09 || cp == 0x0a || cp == 0x0d;
	return cp != 0xfffe && cp != 0xffff;
}

/*
 * Append s escaped for XML text or a quoted attribute: the five special
 * characters as entities; invalid UTF-8 and characters XML 1.0 forbids
 * are dropped.
 */
void
feed_escape(struct buf *b, const char *s)
{
	const unsigned char	*p = (const unsigned char *)s;
	uint32_t		 cp;
	size_t			 n;

	if (s == NULL)
		return;
	while (*p != '\0') {
		if ((n = feed_utf8(p, &cp)) == 0) {
			p++;
			continue;
		}
		if (!feed_xml_char(cp)) {
			p += n;
			continue;
		}
		switch (*p) {
		case '&':
			buf_puts(b, "&amp;");
			break;
		case '<':
			buf_puts(b, "&lt;");
			break;
		case '>':
			buf_puts(b, "&gt;");
			break;
		case '"':
			buf_puts(b, "&quot;");
			break;
		case '\'':
			buf_puts(b, "&apos;");
			break;
		default:
			buf_append(b, (const char *)p, n);
			break;
		}
		p += n;
	}
}

/* An RFC 822 date in UTC, "Wed, 06 May 2026 10:00:44 +0000". */
void
feed_rfc822(struct buf *b, time_t t)
{
	char	s[DATE_LEN];

	date_format(t, "+0000", s, sizeof(s));
	buf_puts(b, s);
}

/* <tag>text</tag> on a line of its own, indented; nothing for NULL. */
static void
feed_element(struct buf *b, const char *indent, const char *tag,
    const char *text)
{
	if (text == NULL)
		return;
	buf_printf(b, "%s<%s>", indent, tag);
	feed_escape(b, text);
	buf_printf(b, "</%s>\n", tag);
}

/* Newest first: published descending; of equal times, the later given. */
static int
feed_cmp(const void *a, const void *b)
{
	const struct feed_item	*x = *(const struct feed_item *const *)a;
	const struct feed_item	*y = *(const struct feed_item *const *)b;

	if (x->published != y->published)
		return x->published < y->published ? 1 : -1;
	return x < y ? 1 : x > y ? -1 : 0;
}

static void
feed_render_item(struct buf *b, const struct feed_item *it)
{
	size_t	i;

	buf_puts(b, "    <item>\n");
	feed_element(b, "      ", "title", it->title != NULL ? it->title : "");
	feed_element(b, "      ", "description",
	    it->description != NULL ? it->description : "");
	feed_element(b, "      ", "link", it->link);
	if (it->guid != NULL) {
		buf_puts(b, "      <guid isPermaLink=\"false\">");
		feed_escape(b, it->guid);
		buf_puts(b, "</guid>\n");
	}
	if (it->published != 0) {
		buf_puts(b, "      <pubDate>");
		feed_rfc822(b, it->published);
		buf_puts(b, "</pubDate>\n");
	}
	if (it->duration > 0)
		buf_printf(b, "      <itunes:duration>%ld</itunes:duration>\n",
		    it->duration);
	if (it->enclosure_url != NULL) {
		buf_puts(b, "      <enclosure url=\"");
		feed_escape(b, it->enclosure_url);
		buf_printf(b, "\" length=\"%lld\" type=\"",
		    it->enclosure_length > 0 ? it->enclosure_length : 0);
		feed_escape(b, it->enclosure_type != NULL ?
		    it->enclosure_type : "audio/mpeg");
		buf_puts(b, "\"/>\n");
	}
	for (i = 0; i < it->ntranscripts && i < FEED_MAX_TRANSCRIPTS; i++) {
		buf_puts(b, "      <podcast:transcript url=\"");
		feed_escape(b, it->transcripts[i].url);
		buf_puts(b, "\" type=\"");
		feed_escape(b, it->transcripts[i].type);
		buf_puts(b, "\"/>\n");
	}
	buf_puts(b, "    </item>\n");
}

/* Render the feed (new string): items newest first, at most max_items. */
char *
feed_render(const struct feed_channel *ch, const struct feed_item *items,
    size_t n)
{
	const struct feed_item	**v;
	struct buf		  b;
	size_t			  i, keep;

	v = xcalloc(n + 1, sizeof(*v));
	for (i = 0; i < n; i++)
		v[i] = &items[i];
	qsort(v, n, sizeof(*v), feed_cmp);
	keep = ch->max_items > 0 && ch->max_items < n ? ch->max_items : n;

	buf_init(&b);
	buf_puts(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<rss version=\"2.0\" xmlns:itunes=\"" FEED_NS_ITUNES "\"\n"
	    "    xmlns:podcast=\"" FEED_NS_PODCAST "\"\n"
	    "    xmlns:atom=\"" FEED_NS_ATOM "\">\n"
	    "  <channel>\n");
	feed_element(&b, "    ", "title", ch->title != NULL ? ch->title : "");
	feed_element(&b, "    ", "link", ch->link != NULL ? ch->link : "");
	feed_element(&b, "    ", "description",
	    ch->description != NULL ? ch->description : "");
	feed_element(&b, "    ", "language",
	    ch->language != NULL ? ch->language : "en");
	feed_element(&b, "    ", "generator", "hookcast");
	if (keep > 0 && v[0]->published != 0) {
		buf_puts(&b, "    <lastBuildDate>");
		feed_rfc822(&b, v[0]->published);
		buf_puts(&b, "</lastBuildDate>\n");
	}
	if (ch->self_url != NULL) {
		buf_puts(&b, "    <atom:link href=\"");
		feed_escape(&b, ch->self_url);
		buf_puts(&b, "\" rel=\"self\" type=\"application/rss+xml\"/>\n");
	}
	feed_element(&b, "    ", "itunes:author", ch->author);
	feed_element(&b, "    ", "itunes:summary", ch->description);
	if (ch->image_url != NULL) {
		buf_puts(&b, "    <itunes:image href=\"");
		feed_escape(&b, ch->image_url);
		buf_puts(&b, "\"/>\n");
	}
	if (ch->owner_name != NULL || ch->owner_email != NULL) {
		buf_puts(&b, "    <itunes:owner>\n");
		feed_element(&b, "      ", "itunes:name", ch->owner_name);
		feed_element(&b, "      ", "itunes:email", ch->owner_email);
		buf_puts(&b, "    </itunes:owner>\n");
	}
	buf_puts(&b, "    <itunes:category text=\"");
	feed_escape(&b, ch->category != NULL ? ch->category : "Technology");
	buf_puts(&b, "\"/>\n"
	    "    <itunes:explicit>false</itunes:explicit>\n");
	feed_element(&b, "    ", "podcast:guid", ch->podcast_guid);
	/* the owner attribute names who may unlock it */
	buf_puts(&b, "    <podcast:locked");
	if (ch->owner_email != NULL) {
		buf_puts(&b, " owner=\"");
		feed_escape(&b, ch->owner_email);
		buf_putc(&b, '"');
	}
	buf_printf(&b, ">%s</podcast:locked>\n", ch->locked ? "yes" : "no");
	for (i = 0; i < keep; i++)
		feed_render_item(&b, v[i]);
	buf_puts(&b, "  </channel>\n</rss>\n");
	free(v);
	return buf_steal(&b);
}
