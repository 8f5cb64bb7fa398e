/* Rendering an episode as Markdown and as JSON. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "buf.h"
#include "episode.h"
#include "log.h"
#include "repo.h"
#include "spoken.h"
#include "xmalloc.h"

/* ISO 8601 UTC, "2026-05-06T10:00:44Z", into out. */
static void
render_iso_time(char *out, size_t outsz, time_t t)
{
	struct tm	tm;

	gmtime_r(&t, &tm);
	strftime(out, outsz, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/*
 * Markdown. What an episode says is spoken text already (spoken_clean: no
 * tags, no controls), but Markdown reads some of its characters as markup,
 * so every text run goes through render_md_text and the file's only markup
 * is the renderer's own: the headings, the list of facts, the code span
 * around the focus. Escaped:
 *  - '<' as "&lt;" (raw HTML, autolinks), '>' as "&gt;" where it starts
 *    a line (a quote; elsewhere it is text: "st->value" reads as written
 *    in the file, issue #27), and
 *    '&' only where it would start a character reference ("R&D" stays,
 *    "&lt;" is written "&amp;lt;");
 *  - '\\', '`', '[' and ']' with a backslash: no code span, link or image
 *    can open, and no escape of ours can be undone by the text;
 *  - at a line's start, what would open a block: '#', '+', '-', '*', '=',
 *    '_', '~', '|', ':' and a number's '.' or ')' ("1. " is a list item);
 *    blanks there go, so no line becomes indented code.
 * '*' and '_' within a line are left alone: emphasis hides and runs
 * nothing, and identifiers such as per_tensor_scale read as written.
 * Control characters are dropped: only a text that skipped spoken_clean
 * could hold one.
 */

/* A newline in the text is a space: it sits inside a line of ours. */
#define RENDER_MD_INLINE	0x1

/* Whether the '&' at s starts a character reference ("&amp;", "&#39;"). */
static int
render_md_reference(const char *s, size_t n)
{
	size_t	i = 1;

	if (i < n && s[i] == '#')
		return 1;
	while (i < n && i <= 32 && isalnum((unsigned char)s[i]))
		i++;
	return i > 1 && i < n && s[i] == ';';
}

/*
 * Append n bytes of text at s escaped for Markdown. *bol says a line of
 * the output starts here, and is updated.
 */
static void
render_md_text(struct buf *b, const char *s, size_t n, int flags, int *bol)
{
	struct buf	 t;
	const char	*p;
	size_t		 i, j;
	int		 c, first;

	/* controls out first, so none hides what follows from the rules */
	buf_init(&t);
	for (i = 0; i < n; i++) {
		c = (unsigned char)s[i];
		if (c == '\n' && (flags & RENDER_MD_INLINE))
			c = ' ';
		if ((c < 0x20 && c != '\n') || c == 0x7f)
			continue;
		buf_putc(&t, (char)c);
	}
	p = buf_str(&t);
	n = t.len;

	for (i = 0; i < n; i++) {
		c = (unsigned char)p[i];
		if (c == '\n') {
			buf_putc(b, '\n');
			*bol = 1;
			continue;
		}
		first = *bol;
		if (*bol) {
			if (c == ' ')
				continue;
			*bol = 0;
			if (strchr("#+-*=_~|:", c) != NULL)
				buf_putc(b, '\\');
			else if (isdigit(c)) {
				for (j = i; j < n &&
				    isdigit((unsigned char)p[j]); j++)
					/* nothing */;
				buf_append(b, p + i, j - i);
				if (j < n && (p[j] == '.' || p[j] == ')'))
					buf_putc(b, '\\');
				i = j - 1;
				continue;
			}
		}
		switch (c) {
		case '<':
			buf_puts(b, "&lt;");
			break;
		case '>':
			/* only a line's first opens a quote: "st->value" stays */
			buf_puts(b, first ? "&gt;" : ">");
			break;
		case '&':
			buf_puts(b, render_md_reference(p + i, n - i) ?
			    "&amp;" : "&");
			break;
		case '\\':
		case '`':
		case '[':
		case ']':
			buf_putc(b, '\\');
			/* FALLTHROUGH */
		default:
			buf_putc(b, (char)c);
		}
	}
	buf_free(&t);
}

/* A whole string as render_md_text (NULL as ""). */
static void
render_md_str(struct buf *b, const char *s, int flags, int *bol)
{
	if (s != NULL)
		render_md_text(b, s, strlen(s), flags, bol);
}

/*
 * Whether word can go in a code span as it is: inside one nothing is
 * escaped, so only plain identifier characters qualify (no backtick can
 * close it early, nothing else can look like markup).
 */
static int
render_md_codeable(const char *word)
{
	const unsigned char	*p = (const unsigned char *)word;

	if (*p == '\0')
		return 0;
	for (; *p != '\0'; p++) {
		if (!isalnum(*p) && *p < 0x80 &&
		    strchr("_-.=:/+,@%", *p) == NULL)
			return 0;
	}
	return 1;
}

/* Append text escaped, with each occurrence of word in a code span. */
static void
render_quote_word(struct buf *b, const char *text, const char *word, int *bol)
{
	const char	*p = text, *q;
	size_t		 n;

	if (word == NULL || !render_md_codeable(word)) {
		render_md_str(b, text, 0, bol);
		return;
	}
	n = strlen(word);
	while ((q = strstr(p, word)) != NULL) {
		render_md_text(b, p, (size_t)(q - p), 0, bol);
		buf_putc(b, '`');
		buf_append(b, q, n);
		buf_putc(b, '`');
		*bol = 0;
		p = q + n;
	}
	render_md_str(b, p, 0, bol);
}

/* Render as Markdown (new string). */
/* A text of paragraphs ("\n\n" between them), each on a line of its own. */
static void
render_md_paragraphs(struct buf *b, const char *s)
{
	const char	*e;
	int		 bol;

	while (s != NULL && *s != '\0') {
		while (*s == '\n')
			s++;
		if ((e = strstr(s, "\n\n")) == NULL)
			e = s + strlen(s);
		if (e > s) {
			bol = 1;
			render_md_text(b, s, (size_t)(e - s), 0, &bol);
			buf_puts(b, "\n\n");
		}
		s = e;
	}
}

/* A segment's heading in the links: its kind as a title. */
static void
render_md_kind(struct buf *b, const char *kind)
{
	int	bol = 0;

	if (strcmp(kind, "focus") == 0) {
		buf_puts(b, "Today's Focus");
		return;
	}
	if (*kind >= 'a' && *kind <= 'z') {
		buf_putc(b, (char)(*kind - 'a' + 'A'));
		kind++;
	}
	render_md_str(b, kind, RENDER_MD_INLINE, &bol);
}

/*
 * "## Links": under each segment's heading, its sources as links, the
 * label escaped as any text of ours ('[' and ']' included, so it cannot
 * close the link) and the URL as links_url builds it (repo_url_ok: no
 * blank, parenthesis or angle bracket to end the link early). Nothing
 * without a repository URL.
 */
static void
render_md_links(struct buf *b, const struct episode *ep)
{
	const struct episode_segment	*seg;
	const struct episode_source	*src;
	struct buf			 url;
	size_t				 i, j, n, mark;
	int				 bol, any = 0;

	/* (a show's sources have their repositories' pages) */
	if (ep->repository_url == NULL && ep->nmembers == 0)
		return;
	buf_init(&url);
	for (i = 0; i < ep->nsegments; i++) {
		seg = &ep->segments[i];
		mark = b->len;
		if (!any)
			buf_puts(b, "## Links\n\n");
		buf_puts(b, "### ");
		render_md_kind(b, seg->kind);
		/* a show's: whose segment it is ("Highlights, pytorch/ao") */
		if (seg->nsources > 0 && seg->sources[0].repository != NULL) {
			buf_puts(b, ", ");
			bol = 0;
			render_md_str(b, seg->sources[0].repository,
			    RENDER_MD_INLINE, &bol);
		}
		buf_puts(b, "\n\n");
		for (j = n = 0; j < seg->nsources; j++) {
			src = &seg->sources[j];
			buf_truncate(&url, 0);
			if (links_url(&url, ep, src) == -1)
				continue;
			bol = 0;
			if (src->sha != NULL)
				buf_printf(b, "- [%.7s", src->sha);
			else
				buf_printf(b, "- [#%ld", src->pr);
			if (src->title != NULL && *src->title != '\0') {
				buf_putc(b, ' ');
				render_md_str(b, src->title, RENDER_MD_INLINE,
				    &bol);
			}
			buf_printf(b, "](%s)\n", buf_str(&url));
			n++;
		}
		if (n == 0) {
			/* no heading without a link under it */
			buf_truncate(b, mark);
			continue;
		}
		buf_putc(b, '\n');
		any = 1;
	}
	buf_free(&url);
}

/*
 * A show's repositories in the header list: "- acme/app: 2 commits, 1
 * pull request merged, 1 revert (2 stories told, 0 left out)".
 */
static void
render_md_members(struct buf *b, const struct episode *ep)
{
	const struct episode_member	*m;
	size_t				 i;
	int				 bol = 0;

	for (i = 0; i < ep->nmembers; i++) {
		m = &ep->members[i];
		buf_puts(b, "- ");
		render_md_str(b, m->repository, RENDER_MD_INLINE, &bol);
		buf_printf(b, ": %zu commit%s, %zu pull request%s merged, "
		    "%zu revert%s", m->stats.commits, m->stats.commits == 1 ?
		    "" : "s", m->stats.merged_prs, m->stats.merged_prs == 1 ?
		    "" : "s", m->stats.reverts, m->stats.reverts == 1 ? "" :
		    "s");
		if (m->quiet)
			buf_puts(b, " (quiet)");
		else
			buf_printf(b, " (%zu stor%s told, %zu left out)",
			    m->stories, m->stories == 1 ? "y" : "ies",
			    m->untold);
		buf_putc(b, '\n');
	}
}

char *
episode_render_md(const struct episode *ep)
{
	struct buf	 b, dur;
	char		 when[32];
	size_t		 i;
	int		 bol;

	buf_init(&b);
	buf_init(&dur);
	iso_duration(&dur, ep->duration);
	render_iso_time(when, sizeof when, ep->published);

	bol = 0;
	buf_puts(&b, "# ");
	render_md_str(&b, ep->show, RENDER_MD_INLINE, &bol);
	buf_puts(&b, ": ");
	render_md_str(&b, ep->title, RENDER_MD_INLINE, &bol);
	buf_puts(&b, "\n\n");
	if (ep->description != NULL && *ep->description != '\0') {
		bol = 1;
		render_md_str(&b, ep->description, 0, &bol);
		buf_puts(&b, "\n\n");
	}
	bol = 0;
	buf_puts(&b, "- Show: ");
	render_md_str(&b, ep->show, RENDER_MD_INLINE, &bol);
	buf_printf(&b, "\n- Published: %s\n", when);
	buf_printf(&b, "- Duration: %s\n", buf_str(&dur));
	render_md_members(&b, ep);
	buf_putc(&b, '\n');
	buf_puts(&b, "## Transcript\n\n");
	if (ep->rewritten)
		render_md_paragraphs(&b, ep->transcript);
	for (i = 0; !ep->rewritten && i < ep->nsegments; i++) {
		const struct episode_segment *seg = &ep->segments[i];

		bol = 1;
		if (strcmp(seg->kind, "focus") == 0)
			render_quote_word(&b, seg->text, ep->focus, &bol);
		else
			render_md_str(&b, seg->text, 0, &bol);
		buf_puts(&b, "\n\n");
	}
	if (ep->nnearby > 0) {
		buf_puts(&b, "## Nearby episodes\n\n");
		for (i = 0; i < ep->nnearby; i++) {
			bol = 0;
			buf_puts(&b, "- ");
			render_md_str(&b, ep->nearby[i].date, RENDER_MD_INLINE,
			    &bol);
			buf_puts(&b, " — ");
			render_md_str(&b, ep->nearby[i].title,
			    RENDER_MD_INLINE, &bol);
			buf_putc(&b, '\n');
		}
		buf_putc(&b, '\n');
	}
	render_md_links(&b, ep);
	/* one newline at the end */
	while (b.len > 1 && b.data[b.len - 1] == '\n' &&
	    b.data[b.len - 2] == '\n')
		b.data[--b.len] = '\0';
	buf_free(&dur);
	return buf_steal(&b);
}

/* A JSON string, or null for NULL; bytes that aren't UTF-8 become '?'. */
static json_t *
render_str(const char *s)
{
	json_t	*j;
	char	*copy, *p;

	if (s == NULL)
		return json_null();
	if ((j = json_string(s)) != NULL)
		return j;
	copy = xstrdup(s);
	for (p = copy; *p != '\0'; p++) {
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	}
	j = json_string(copy);
	free(copy);
	return j != NULL ? j : json_string("");
}

/* An ISO time, or null for 0. */
static json_t *
render_time(time_t t)
{
	char	when[32];

	if (t == 0)
		return json_null();
	render_iso_time(when, sizeof when, t);
	return json_string(when);
}

/*
 * A segment's sources: {"commit": sha, "title", "url"} or
 * {"pull_request": n, "title", "url"}, url null when there is no link.
 */
static json_t *
render_sources(const struct episode *ep, const struct episode_segment *seg)
{
	const struct episode_source	*src;
	struct buf			 url;
	json_t				*v = json_array(), *o;
	size_t				 i;

	buf_init(&url);
	for (i = 0; i < seg->nsources; i++) {
		src = &seg->sources[i];
		o = json_object();
		if (src->sha != NULL)
			json_object_set_new(o, "commit", render_str(src->sha));
		else
			json_object_set_new(o, "pull_request",
			    json_integer((json_int_t)src->pr));
		json_object_set_new(o, "title", render_str(src->title));
		buf_truncate(&url, 0);
		json_object_set_new(o, "url", links_url(&url, ep, src) == 0 ?
		    render_str(buf_str(&url)) : json_null());
		json_array_append_new(v, o);
	}
	buf_free(&url);
	return v;
}

/* A show's repositories and their counts (episode.members). */
static json_t *
render_members(const struct episode *ep)
{
	const struct episode_member	*m;
	json_t				*v = json_array();
	size_t				 i;

	for (i = 0; i < ep->nmembers; i++) {
		m = &ep->members[i];
		json_array_append_new(v, json_pack("{s:o, s:{s:I, s:I, s:I, "
		    "s:I, s:I}, s:I, s:I, s:b}",
		    "repository", render_str(m->repository),
		    "stats",
		    "commits", (json_int_t)m->stats.commits,
		    "merged_prs", (json_int_t)m->stats.merged_prs,
		    "reverts", (json_int_t)m->stats.reverts,
		    "relands", (json_int_t)m->stats.relands,
		    "authors", (json_int_t)m->stats.authors,
		    "stories", (json_int_t)m->stories,
		    "untold", (json_int_t)m->untold,
		    "quiet", m->quiet));
	}
	return v;
}

/* Render as JSON (new string), the keys of the design. */
char *
episode_render_json(const struct episode *ep)
{
	json_t		*root, *window, *stats, *segs, *seg, *shas, *nearby;
	json_t		*work, *w;
	struct buf	 dur;
	char		*out, *copy;
	size_t		 i, j;

	buf_init(&dur);
	iso_duration(&dur, ep->duration);

	window = json_pack("{s:o, s:o}", "start", render_time(ep->window_start),
	    "end", render_time(ep->window_end));
	stats = json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
	    "commits", (json_int_t)ep->stats.commits,
	    "merged_prs", (json_int_t)ep->stats.merged_prs,
	    "reverts", (json_int_t)ep->stats.reverts,
	    "relands", (json_int_t)ep->stats.relands,
	    "authors", (json_int_t)ep->stats.authors,
	    "pushes", (json_int_t)ep->stats.pushes,
	    "force_pushes", (json_int_t)ep->stats.force_pushes);
	segs = json_array();
	for (i = 0; i < ep->nsegments; i++) {
		shas = json_array();
		for (j = 0; j < ep->segments[i].ncommits; j++)
			json_array_append_new(shas,
			    render_str(ep->segments[i].commits[j]));
		seg = json_pack("{s:o, s:o, s:o, s:o}",
		    "kind", render_str(ep->segments[i].kind),
		    "text", render_str(ep->segments[i].text), "commits", shas,
		    "sources", render_sources(ep, &ep->segments[i]));
		json_array_append_new(segs, seg);
	}
	nearby = json_array();
	for (i = 0; i < ep->nnearby; i++) {
		json_array_append_new(nearby, json_pack("{s:o, s:o}",
		    "date", render_str(ep->nearby[i].date),
		    "title", render_str(ep->nearby[i].title)));
	}
	work = json_array();
	for (i = 0; i < ep->nwork; i++) {
		w = json_pack("{s:o, s:o, s:o, s:b}",
		    "sha", render_str(ep->work[i].sha),
		    "name", render_str(ep->work[i].name),
		    "what", render_str(ep->work[i].what),
		    "bot", ep->work[i].bot);
		if (w != NULL && ep->work[i].reverts != NULL)
			json_object_set_new(w, "reverts",
			    render_str(ep->work[i].reverts));
		if (w != NULL)
			json_array_append_new(work, w);
	}
	root = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o,"
	    " s:o, s:o, s:o, s:I, s:I, s:o}",
	    "show", render_str(ep->show),
	    "title", render_str(ep->title),
	    "description", render_str(ep->description),
	    "published", render_time(ep->published),
	    "duration", json_string(buf_str(&dur)),
	    "repository", render_str(ep->repository),
	    "window", window,
	    "stats", stats,
	    "segments", segs,
	    "transcript", render_str(ep->transcript),
	    "nearby", nearby,
	    "date", render_str(ep->date),
	    "focus", render_str(ep->focus),
	    "words", (json_int_t)ep->words,
	    "duration_seconds", (json_int_t)ep->duration,
	    "relands", json_integer((json_int_t)ep->stats.relands));
	if (root != NULL) {
		json_object_set_new(root, "repository_url",
		    repo_url_ok(ep->repository_url, ep->repository) ?
		    render_str(ep->repository_url) : json_null());
		json_object_set_new(root, "words_per_minute",
		    json_real(ep->words_per_minute));
		json_object_set_new(root, "work", work);
		if (ep->nmembers > 0)
			json_object_set_new(root, "repositories",
			    render_members(ep));
	} else
		json_decref(work);
	buf_free(&dur);
	if (root == NULL) {
		/* out of memory: every string above is valid UTF-8 */
		log_warnx("%s: cannot build the JSON of %s", __func__,
		    ep->date != NULL ? ep->date : "an episode");
		return xstrdup("{}");
	}
	out = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(root);
	if (out == NULL)
		return xstrdup("{}");
	copy = xstrdup(out);
	free(out);
	return copy;
}
