/*
 * Unit tests for the podcast feed: escaping, dates, rendering (namespaces,
 * order, cap, balanced tags), and the feed and nearby list as emission
 * writes them from an archive in a temporary folder.
 */
#include <sys/stat.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "buf.h"
#include "config.h"
#include "day.h"
#include "emit.h"
#include "episode.h"
#include "fileio.h"
#include "pubconf.h"
#include "xmalloc.h"

#define NS_ITUNES	"xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\""
#define NS_PODCAST	"xmlns:podcast=\"https://podcastindex.org/namespace/1.0\""

static char *
escaped(const char *s)
{
	struct buf	b;

	buf_init(&b);
	feed_escape(&b, s);
	buf_putc(&b, '\0');	/* so an empty result is still a string */
	return buf_steal(&b);
}

static void
test_escape(void **state)
{
	static const struct {
		const char	*in, *out;
	} cases[] = {
		{ "plain text", "plain text" },
		{ "a&b<c>d\"e'f", "a&amp;b&lt;c&gt;d&quot;e&apos;f" },
		{ "&amp; stays text", "&amp;amp; stays text" },
		{ "tab\tnl\ncr\r", "tab\tnl\ncr\r" },
		{ "ctl\x01\x08\x0b\x0c\x1f!", "ctl!" },
		{ "caf\xc3\xa9", "caf\xc3\xa9" },			/* é */
		{ "bad\xff\xfe byte", "bad byte" },
		{ "cut\xc3", "cut" },					/* truncated */
		{ "over\xc0\xaflong", "overlong" },			/* overlong / */
		{ "sur\xed\xa0\x80rogate", "surrogate" },		/* U+D800 */
		{ "non\xef\xbf\xbe\xef\xbf\xbf-char", "non-char" },	/* U+FFFE/F */
		{ "emoji \xf0\x9f\x8e\x99", "emoji \xf0\x9f\x8e\x99" },
		{ "big\xf4\x90\x80\x80", "big" },			/* > U+10FFFF */
		{ "", "" },
	};
	size_t	i;
	char	*s;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		s = escaped(cases[i].in);
		if (strcmp(s, cases[i].out) != 0)
			fail_msg("case %zu: '%s' -> '%s', want '%s'", i,
			    cases[i].in, s, cases[i].out);
		free(s);
	}
	s = escaped(NULL);
	assert_string_equal(s, "");
	free(s);
}

static void
test_rfc822(void **state)
{
	static const struct {
		time_t		 t;
		const char	*want;
	} cases[] = {
		{ 1778061644, "Wed, 06 May 2026 10:00:44 +0000" },
		{ 0, "Thu, 01 Jan 1970 00:00:00 +0000" },
		{ 1798761599, "Thu, 31 Dec 2026 23:59:59 +0000" },
	};
	struct buf	b;
	size_t		i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		buf_init(&b);
		feed_rfc822(&b, cases[i].t);
		assert_string_equal(buf_str(&b), cases[i].want);
		buf_free(&b);
	}
}

/*
 * A tiny well-formedness check: tags balance, attribute values are quoted,
 * and every '&' starts one of the five entities. Returns the number of
 * elements seen, or -1.
 */
static int
xml_check(const char *s)
{
	const char	*stack[64], *p = s, *q, *name;
	size_t		 len[64], depth = 0, n;
	int		 elements = 0;

	while ((p = strpbrk(p, "<&")) != NULL) {
		if (*p == '&') {
			if (strncmp(p, "&amp;", 5) != 0 &&
			    strncmp(p, "&lt;", 4) != 0 &&
			    strncmp(p, "&gt;", 4) != 0 &&
			    strncmp(p, "&quot;", 6) != 0 &&
			    strncmp(p, "&apos;", 6) != 0)
				return -1;
			p++;
			continue;
		}
		if (p[1] == '?') {
			if ((p = strstr(p, "?>")) == NULL)
				return -1;
			continue;
		}
		if ((q = strchr(p, '>')) == NULL)
			return -1;
		if (memchr(p + 1, '<', (size_t)(q - p - 1)) != NULL)
			return -1;
		if (p[1] == '/') {
			name = p + 2;
			n = strcspn(name, " >");
			if (depth == 0 || len[depth - 1] != n ||
			    strncmp(stack[depth - 1], name, n) != 0)
				return -1;
			depth--;
		} else {
			name = p + 1;
			n = strcspn(name, " \n/>");
			elements++;
			if (q[-1] != '/') {
				if (depth == 64)
					return -1;
				stack[depth] = name;
				len[depth++] = n;
			}
		}
		p = q + 1;
	}
	return depth == 0 ? elements : -1;
}

static size_t
count(const char *s, const char *needle)
{
	size_t	n = 0;

	while ((s = strstr(s, needle)) != NULL) {
		n++;
		s += strlen(needle);
	}
	return n;
}

static void
test_render(void **state)
{
	struct feed_item	 items[3];
	struct feed_channel	 ch;
	char			*xml;
	const char		*a, *b, *c;

	memset(items, 0, sizeof(items));
	/* given out of order: the feed is newest first */
	items[0].title = "Tuesday <b>& \"friends\"";
	items[0].description = "It's <two>";
	items[0].guid = "hookcast:o/r:2026-05-05";
	items[0].transcripts[0].url = "2026-05-05.vtt";
	items[0].transcripts[0].type = "text/vtt";
	items[0].transcripts[1].url = "2026-05-05.txt";
	items[0].transcripts[1].type = "text/plain";
	items[0].ntranscripts = 2;
	items[0].enclosure_url = "2026-05-05.mp3";
	items[0].enclosure_type = "audio/mpeg";
	items[0].enclosure_length = 48213;
	items[0].published = 1777975200;	/* 2026-05-05T10:00:00Z */
	items[0].duration = 261;
	items[1].title = "Wednesday";
	items[1].description = "three";
	items[1].guid = "hookcast:o/r:2026-05-06";
	items[1].transcripts[0].url = "https://casts.example/o/r/2026-05-06.txt?a=1&b=2";
	items[1].transcripts[0].type = "text/plain";
	items[1].ntranscripts = 1;
	items[1].link = "https://casts.example/o/r/2026-05-06.md";
	items[1].published = 1778061600;
	items[1].duration = 90;
	items[2].title = "Monday\x01\xff";
	items[2].description = "one";
	items[2].guid = "hookcast:o/r:2026-05-04";
	items[2].published = 1777888800;

	memset(&ch, 0, sizeof(ch));
	ch.title = "Show & Tell";
	ch.link = "https://github.com/o/r";
	ch.description = "Daily <news>";
	ch.author = "hookcast";
	xml = feed_render(&ch, items, 3);

	assert_non_null(strstr(xml, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"));
	assert_non_null(strstr(xml, "<rss version=\"2.0\""));
	assert_non_null(strstr(xml, NS_ITUNES));
	assert_non_null(strstr(xml, NS_PODCAST));
	assert_non_null(strstr(xml, "<title>Show &amp; Tell</title>"));
	assert_non_null(strstr(xml, "<description>Daily &lt;news&gt;"));
	assert_non_null(strstr(xml, "<language>en</language>"));
	assert_non_null(strstr(xml, "<itunes:author>hookcast</itunes:author>"));
	assert_int_equal(count(xml, "<item>"), 3);
	assert_int_equal(count(xml, "<guid isPermaLink=\"false\">"), 3);
	assert_non_null(strstr(xml, "<title>Tuesday &lt;b&gt;&amp; "
	    "&quot;friends&quot;</title>"));
	assert_non_null(strstr(xml, "<description>It&apos;s &lt;two&gt;"));
	assert_non_null(strstr(xml, "<title>Monday</title>"));
	assert_non_null(strstr(xml, "<pubDate>Wed, 06 May 2026 10:00:00 "
	    "+0000</pubDate>"));
	assert_non_null(strstr(xml, "<itunes:duration>261</itunes:duration>"));
	assert_non_null(strstr(xml, "<podcast:transcript url=\"2026-05-05.vtt\" "
	    "type=\"text/vtt\"/>"));
	assert_non_null(strstr(xml, "<podcast:transcript url=\"2026-05-05.txt\" "
	    "type=\"text/plain\"/>"));
	/* a URL's '&' is escaped in the attribute */
	assert_non_null(strstr(xml, "<podcast:transcript url=\"https://casts."
	    "example/o/r/2026-05-06.txt?a=1&amp;b=2\" type=\"text/plain\"/>"));
	assert_null(strstr(xml, "text/markdown"));
	/* one enclosure: the item with audio; the others have none */
	assert_int_equal(count(xml, "<enclosure "), 1);
	assert_non_null(strstr(xml, "<enclosure url=\"2026-05-05.mp3\" "
	    "length=\"48213\" type=\"audio/mpeg\"/>"));
	/* the channel's defaults: no owner, image or guid; not locked */
	assert_non_null(strstr(xml, "<itunes:category text=\"Technology\"/>"));
	assert_non_null(strstr(xml, "<itunes:explicit>false</itunes:explicit>"));
	assert_non_null(strstr(xml, "<podcast:locked>no</podcast:locked>"));
	assert_null(strstr(xml, "itunes:owner"));
	assert_null(strstr(xml, "itunes:image"));
	assert_null(strstr(xml, "podcast:guid"));
	/* newest first */
	a = strstr(xml, "2026-05-06</guid>");
	b = strstr(xml, "2026-05-05</guid>");
	c = strstr(xml, "2026-05-04</guid>");
	assert_true(a != NULL && b != NULL && c != NULL);
	assert_true(a < b && b < c);
	assert_true(xml_check(xml) > 20);
	free(xml);

	/* the cap keeps the newest */
	ch.max_items = 2;
	xml = feed_render(&ch, items, 3);
	assert_int_equal(count(xml, "<item>"), 2);
	assert_null(strstr(xml, "2026-05-04</guid>"));
	assert_non_null(strstr(xml, "2026-05-06</guid>"));
	assert_true(xml_check(xml) > 0);
	free(xml);

	/* equal times: the later in the array is the newer */
	items[0].published = items[1].published = items[2].published = 5;
	ch.max_items = 1;
	xml = feed_render(&ch, items, 3);
	assert_non_null(strstr(xml, "2026-05-04</guid>"));
	assert_int_equal(count(xml, "<item>"), 1);
	free(xml);

	/* no items at all is still a feed; the channel's optional tags */
	ch.self_url = "https://casts.example/o/r/feed.xml";
	ch.image_url = "https://casts.example/art.png?s=1&t=2";
	ch.owner_name = "Ada <Ops>";
	ch.owner_email = "ops@example.org";
	ch.category = "News & Politics";
	ch.podcast_guid = "c1a2e3f4-0000-5000-8000-000000000000";
	ch.locked = 1;
	xml = feed_render(&ch, NULL, 0);
	assert_int_equal(count(xml, "<item>"), 0);
	assert_non_null(strstr(xml, "rel=\"self\""));
	assert_non_null(strstr(xml, "<itunes:image href=\"https://casts.example/"
	    "art.png?s=1&amp;t=2\"/>"));
	assert_non_null(strstr(xml, "<itunes:owner>\n      <itunes:name>Ada "
	    "&lt;Ops&gt;</itunes:name>\n      <itunes:email>ops@example.org"
	    "</itunes:email>\n    </itunes:owner>"));
	assert_non_null(strstr(xml, "<itunes:category text=\"News &amp; "
	    "Politics\"/>"));
	assert_non_null(strstr(xml, "<podcast:guid>c1a2e3f4-0000-5000-8000-"
	    "000000000000</podcast:guid>"));
	assert_non_null(strstr(xml, "<podcast:locked owner=\"ops@example.org\">"
	    "yes</podcast:locked>"));
	assert_true(xml_check(xml) > 0);
	free(xml);
}

static void
test_xml_check_itself(void **state)
{
	assert_int_equal(xml_check("<a><b/></a>"), 2);
	assert_int_equal(xml_check("<a><b></a>"), -1);
	assert_int_equal(xml_check("<a>&</a>"), -1);
	assert_int_equal(xml_check("<a></b>"), -1);
}

/* -- the feed and nearby list as emission writes them -------------------- */

struct tmp {
	char		 dir[64];
	struct config	 conf;
	struct emit_conf ec;
};

/* Emission's settings of t->conf as the daemon fills them. */
static const struct emit_conf *
tmp_emit(struct tmp *t)
{
	pubconf_emit(&t->conf, &t->ec);
	return &t->ec;
}

static int
setup_tmp(void **state)
{
	struct tmp	*t = xcalloc(1, sizeof(*t));

	setenv("TZ", "UTC", 1);
	tzset();
	strcpy(t->dir, "/tmp/hookcast-feed-XXXXXX");
	if (mkdtemp(t->dir) == NULL)
		return -1;
	t->conf.output_dir = t->dir;
	t->conf.feed_items = 30;
	t->conf.words_per_minute = 150;
	*state = t;
	return 0;
}

static int
teardown_tmp(void **state)
{
	struct tmp	*t = *state;
	char		*cmd;

	xasprintf(&cmd, "rm -rf '%s'", t->dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", t->dir);
	free(cmd);
	free(t);
	return 0;
}

static char *
slurp(const char *path)
{
	FILE	*f = fopen(path, "rb");
	char	*s;
	long	 n;

	if (f == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	s = xcalloc(1, (size_t)n + 1);
	if (fread(s, 1, (size_t)n, f) != (size_t)n) {
		free(s);
		s = NULL;
	}
	fclose(f);
	return s;
}

/* Write an archived episode by hand: dir/name.json. */
static void
put_episode(const char *dir, const char *name, const char *title,
    const char *published, long seconds)
{
	json_t	*j;
	char	*path;

	j = json_pack("{s:s, s:s, s:s, s:s, s:I}", "title", title,
	    "description", "what happened", "published", published,
	    "duration", "PT1M", "duration_seconds", (json_int_t)seconds);
	xasprintf(&path, "%s/%s.json", dir, name);
	assert_int_equal(json_dump_file(j, path, 0), 0);
	free(path);
	json_decref(j);
}

static void
test_emit_feed(void **state)
{
	struct tmp	*t = *state;
	char		*dir, *path, *xml, *cause = NULL;
	const char	*a, *b, *c;

	xasprintf(&dir, "%s/o/r", t->dir);
	assert_int_equal(file_mkdirs(dir, 0755), 0);
	put_episode(dir, "2026-05-04", "Monday", "2026-05-05T10:00:00Z", 60);
	put_episode(dir, "2026-05-05", "Tuesday & co", "2026-05-06T10:00:00Z",
	    3725);
	put_episode(dir, "2026-05-05-2", "Tuesday again",
	    "2026-05-06T10:00:00Z", 30);
	put_episode(dir, "2026-05-06-recap", "Weekly Recap - Things",
	    "2026-05-06T10:00:00Z", 200);
	/* not episodes: ignored */
	put_episode(dir, "notes", "Not one", "2026-05-07T10:00:00Z", 1);
	put_episode(dir, "2026-05-07-0", "Not one", "2026-05-07T10:00:00Z", 1);

	assert_int_equal(emit_feed(tmp_emit(t), "o/r", &cause), 0);
	xasprintf(&path, "%s/feed.xml", dir);
	xml = slurp(path);
	assert_non_null(xml);
	assert_int_equal(count(xml, "<item>"), 4);
	assert_null(strstr(xml, "Not one"));
	assert_non_null(strstr(xml, "<title>Tuesday &amp; co</title>"));
	/* no audio, no .txt: no enclosure, no transcript, no link */
	assert_null(strstr(xml, "<enclosure"));
	assert_null(strstr(xml, "podcast:transcript"));
	assert_null(strstr(xml, "<link>2026"));
	assert_non_null(strstr(xml, "<guid isPermaLink=\"false\">hookcast:o/r:"
	    "2026-05-06-recap</guid>"));
	assert_non_null(strstr(xml, "<itunes:duration>3725</itunes:duration>"));
	assert_non_null(strstr(xml, "<link>https://github.com/o/r</link>"));
	/* newest first; of equal times, the later file */
	a = strstr(xml, "2026-05-06-recap</guid>");
	b = strstr(xml, "2026-05-05-2</guid>");
	c = strstr(xml, "2026-05-05</guid>");
	assert_true(a != NULL && b != NULL && c != NULL && a < b && b < c);
	assert_true(xml_check(xml) > 0);
	free(xml);

	/* absolute with public_url; the cap keeps the newest */
	t->conf.public_url = "https://casts.example/eps/";
	t->conf.feed_items = 2;
	assert_int_equal(emit_feed(tmp_emit(t), "o/r", &cause), 0);
	xml = slurp(path);
	assert_int_equal(count(xml, "<item>"), 2);
	assert_non_null(strstr(xml, "<link>https://casts.example/eps/o/r/"
	    "2026-05-06-recap.md</link>"));
	assert_non_null(strstr(xml, "<link>https://casts.example/eps/o/r/"
	    "2026-05-05-2.md</link>"));
	assert_null(strstr(xml, "2026-05-04"));
	assert_non_null(strstr(xml, "href=\"https://casts.example/eps/o/r/"
	    "feed.xml\""));
	assert_true(xml_check(xml) > 0);
	free(xml);
	t->conf.public_url = NULL;
	t->conf.feed_items = 30;

	/* a name that can't be a path */
	assert_int_equal(emit_feed(tmp_emit(t), "../etc", &cause), -1);
	assert_non_null(cause);
	free(cause);
	free(path);
	free(dir);
}

/* The podcast:guid of a feed URL: the Podcast namespace's own examples. */
static void
test_podcast_guid(void **state)
{
	static const struct {
		const char	*url, *want;
	} cases[] = {
		{ "https://mp3s.nashownotes.com/pc20rss.xml",
		    "917393e3-1b1e-5cef-ace4-edaa54e1f810" },
		{ "http://mp3s.nashownotes.com/pc20rss.xml",
		    "917393e3-1b1e-5cef-ace4-edaa54e1f810" },
		{ "https://podnews.net/rss", "9b024349-ccf0-5f69-a609-6b82873eab3c" },
		{ "podnews.net/rss//", "9b024349-ccf0-5f69-a609-6b82873eab3c" },
		{ "https://casts.example/eps/o/r/feed.xml",
		    "afa61b8b-a1c7-51de-a6a5-dbb2031d299f" },
	};
	char	out[40];
	size_t	i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(emit_podcast_guid(cases[i].url, out,
		    sizeof(out)), 0);
		assert_string_equal(out, cases[i].want);
	}
	assert_int_equal(emit_podcast_guid("https://", out, sizeof(out)), -1);
	assert_int_equal(emit_podcast_guid(NULL, out, sizeof(out)), -1);
	assert_int_equal(emit_podcast_guid("https://a/b", out, 36), -1);
}

/* Write name's JSON with an "audio" object, and the files given. */
static void
put_audio_episode(const char *dir, const char *name, const char *audio_file,
    long long bytes, const char *vtt, const char *duration)
{
	json_t	*j;
	char	*path;

	j = json_pack("{s:s, s:s, s:s, s:s, s:I, s:{s:s, s:s, s:I, s:f, s:s?}}",
	    "title", name, "description", "d", "published",
	    "2026-06-01T10:00:00Z", "duration", duration,
	    "duration_seconds", (json_int_t)999,
	    "audio", "file", audio_file, "type", "audio/mpeg",
	    "bytes", (json_int_t)bytes, "seconds", 183.4, "vtt", vtt);
	assert_non_null(j);
	xasprintf(&path, "%s/%s.json", dir, name);
	assert_int_equal(json_dump_file(j, path, 0), 0);
	free(path);
	json_decref(j);
}

static void
put_file(const char *dir, const char *name, size_t size)
{
	char	*path, *data;

	xasprintf(&path, "%s/%s", dir, name);
	data = xcalloc(1, size + 1);
	memset(data, 'x', size);
	assert_int_equal(file_write_atomic(path, data, size, 0644), 0);
	free(data);
	free(path);
}

/*
 * The enclosure: the audio file's real size (not the JSON's bytes) when
 * the file is there, the JSON's bytes while it isn't, none without an
 * "audio" object or with a name that isn't a file of the folder; the
 * transcripts only for files that exist; the guid the same across
 * rewrites and public_url changes.
 */
static void
test_emit_feed_audio(void **state)
{
	struct tmp	*t = *state;
	char		*dir, *path, *xml, *xml2, *cause = NULL;

	xasprintf(&dir, "%s/o/a", t->dir);
	assert_int_equal(file_mkdirs(dir, 0755), 0);
	put_audio_episode(dir, "2026-06-01", "2026-06-01.mp3", 5,
	    "2026-06-01.vtt", "PT3M3S");
	put_file(dir, "2026-06-01.mp3", 4321);
	put_file(dir, "2026-06-01.vtt", 10);
	put_file(dir, "2026-06-01.txt", 10);
	put_file(dir, "2026-06-01.md", 10);
	put_audio_episode(dir, "2026-06-02", "2026-06-02.mp3", 777,
	    "2026-06-02.vtt", "PT2M");		/* neither file yet */
	put_audio_episode(dir, "2026-06-03", "../../etc/passwd", 777,
	    "../x.vtt", "PT1M");
	put_episode(dir, "2026-06-04", "No audio", "2026-06-04T10:00:00Z", 42);

	assert_int_equal(emit_feed(tmp_emit(t), "o/a", &cause), 0);
	xasprintf(&path, "%s/feed.xml", dir);
	xml = slurp(path);
	assert_non_null(xml);
	assert_int_equal(count(xml, "<item>"), 4);
	assert_int_equal(count(xml, "<enclosure "), 2);
	assert_non_null(strstr(xml, "<enclosure url=\"2026-06-01.mp3\" "
	    "length=\"4321\" type=\"audio/mpeg\"/>"));
	assert_non_null(strstr(xml, "<enclosure url=\"2026-06-02.mp3\" "
	    "length=\"777\" type=\"audio/mpeg\"/>"));
	assert_null(strstr(xml, "passwd"));
	assert_null(strstr(xml, "x.vtt"));
	/* with audio, the duration is the JSON's "duration", not the estimate */
	assert_non_null(strstr(xml, "<itunes:duration>183</itunes:duration>"));
	assert_non_null(strstr(xml, "<itunes:duration>120</itunes:duration>"));
	assert_non_null(strstr(xml, "<itunes:duration>42</itunes:duration>"));
	assert_null(strstr(xml, "<itunes:duration>999</itunes:duration>"));
	assert_int_equal(count(xml, "<podcast:transcript "), 2);
	assert_non_null(strstr(xml, "<podcast:transcript url=\"2026-06-01.vtt\" "
	    "type=\"text/vtt\"/>"));
	assert_non_null(strstr(xml, "<podcast:transcript url=\"2026-06-01.txt\" "
	    "type=\"text/plain\"/>"));
	assert_null(strstr(xml, "podcast:guid"));
	assert_true(xml_check(xml) > 0);

	/* rewritten: the same bytes; the guids also with public_url */
	assert_int_equal(emit_feed(tmp_emit(t), "o/a", &cause), 0);
	xml2 = slurp(path);
	assert_string_equal(xml, xml2);
	free(xml2);
	t->conf.public_url = "https://casts.example/eps";
	t->conf.feed_owner_email = "ops@example.org";
	t->conf.feed_locked = FEED_LOCKED_AUTO;
	assert_int_equal(emit_feed(tmp_emit(t), "o/a", &cause), 0);
	xml2 = slurp(path);
	assert_non_null(strstr(xml2, "<guid isPermaLink=\"false\">hookcast:o/a:"
	    "2026-06-01</guid>"));
	assert_non_null(strstr(xml, "<guid isPermaLink=\"false\">hookcast:o/a:"
	    "2026-06-01</guid>"));
	assert_non_null(strstr(xml2, "<enclosure url=\"https://casts.example/"
	    "eps/o/a/2026-06-01.mp3\" length=\"4321\""));
	assert_non_null(strstr(xml2, "<podcast:transcript url=\"https://casts."
	    "example/eps/o/a/2026-06-01.vtt\" type=\"text/vtt\"/>"));
	assert_non_null(strstr(xml2, "<podcast:transcript url=\"https://casts."
	    "example/eps/o/a/2026-06-01.txt\" type=\"text/plain\"/>"));
	assert_non_null(strstr(xml2, "<podcast:guid>"));
	assert_non_null(strstr(xml2, "<podcast:locked owner=\"ops@example.org\">"
	    "yes</podcast:locked>"));
	assert_true(xml_check(xml2) > 0);
	t->conf.public_url = NULL;
	t->conf.feed_owner_email = NULL;
	free(xml2);
	free(xml);
	free(path);
	free(dir);
}

/* An empty day of repo from start. */
static struct day *
empty_day(const char *repo, time_t start)
{
	struct day	*d = day_new(repo, start);

	assert_non_null(d);
	return d;
}

static json_t *
load(const char *dir, const char *name)
{
	char	*path;
	json_t	*j;

	xasprintf(&path, "%s/%s.json", dir, name);
	j = json_load_file(path, 0, NULL);
	free(path);
	assert_non_null(j);
	return j;
}

/*
 * Days emitted in order, then the first emitted again (as after a crash
 * before the journal's rotation): it keeps its name and lists the
 * episodes after it; the recap is listed like any other.
 */
static void
test_emit_nearby(void **state)
{
	struct tmp		*t = *state;
	struct emit_result	 res;
	struct day		*d;
	time_t			 t0 = 1777975200; /* 2026-05-05T10:00:00Z */
	char			*dir, *cause = NULL, *xml, *path;
	json_t			*j, *nearby;
	int			 i;

	xasprintf(&dir, "%s/p/q", t->dir);
	for (i = 0; i < 3; i++) {
		d = empty_day("p/q", t0 + i * 86400);
		d->end = t0 + (i + 1) * 86400;
		assert_int_equal(emit_day(tmp_emit(t), d, d->end, 1, &res,
		    &cause), 0);
		emit_result_clear(&res);
		day_free(d);
	}
	put_episode(dir, "2026-05-08-recap", "Weekly Recap - Quiet",
	    "2026-05-08T10:00:00Z", 100);

	j = load(dir, "2026-05-06");
	nearby = json_object_get(j, "nearby");
	assert_int_equal(json_array_size(nearby), 1);
	assert_string_equal(json_string_value(json_object_get(
	    json_array_get(nearby, 0), "date")), "2026-05-05");
	json_decref(j);
	/* the day's people are listed for the recap (none here) */
	j = load(dir, "2026-05-05");
	assert_true(json_is_array(json_object_get(j, "people")));
	/* the .txt beside it: the spoken transcript, plain */
	xasprintf(&path, "%s/2026-05-05.txt", dir);
	xml = slurp(path);
	assert_non_null(xml);
	assert_true(strlen(xml) > 20);
	assert_true(strncmp(xml, json_string_value(json_object_get(j,
	    "transcript")), strlen(xml) - 1) == 0);
	assert_null(strchr(xml, '#'));
	assert_null(strstr(xml, "**"));
	free(xml);
	free(path);
	json_decref(j);

	/* emitted again: same name, the later episodes listed */
	d = empty_day("p/q", t0);
	d->end = t0 + 86400;
	assert_int_equal(emit_day(tmp_emit(t), d, d->end, 1, &res, &cause), 0);
	assert_non_null(strstr(res.json_path, "/2026-05-05.json"));
	emit_result_clear(&res);
	day_free(d);
	j = load(dir, "2026-05-05");
	nearby = json_object_get(j, "nearby");
	assert_int_equal(json_array_size(nearby), 3);
	assert_string_equal(json_string_value(json_object_get(
	    json_array_get(nearby, 0), "date")), "2026-05-06");
	assert_string_equal(json_string_value(json_object_get(
	    json_array_get(nearby, 2), "title")), "Weekly Recap - Quiet");
	json_decref(j);

	/* another day of the same date is a second episode, listing the first */
	d = empty_day("p/q", t0 + 3600);
	d->end = t0 + 7200;
	assert_int_equal(emit_day(tmp_emit(t), d, d->end, 1, &res, &cause), 0);
	assert_non_null(strstr(res.json_path, "/2026-05-05-2.json"));
	emit_result_clear(&res);
	day_free(d);
	j = load(dir, "2026-05-05-2");
	nearby = json_object_get(j, "nearby");
	assert_string_equal(json_string_value(json_object_get(
	    json_array_get(nearby, 0), "date")), "2026-05-05");
	json_decref(j);

	/* every write rewrote the feed: five episodes, the recap first */
	xasprintf(&path, "%s/feed.xml", dir);
	xml = slurp(path);
	assert_non_null(xml);
	assert_int_equal(count(xml, "<item>"), 5);
	assert_true(strstr(xml, "2026-05-08-recap</guid>") <
	    strstr(xml, "2026-05-07</guid>"));
	assert_true(xml_check(xml) > 0);
	free(xml);
	free(path);
	free(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_rfc822),
		cmocka_unit_test(test_xml_check_itself),
		cmocka_unit_test(test_render),
		cmocka_unit_test_setup_teardown(test_emit_feed, setup_tmp,
		    teardown_tmp),
		cmocka_unit_test_setup_teardown(test_emit_nearby, setup_tmp,
		    teardown_tmp),
		cmocka_unit_test(test_podcast_guid),
		cmocka_unit_test_setup_teardown(test_emit_feed_audio,
		    setup_tmp, teardown_tmp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
