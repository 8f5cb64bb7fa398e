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
	items[0].transcript_url = "2026-05-05.md";
	items[0].published = 1777975200;	/* 2026-05-05T10:00:00Z */
	items[0].duration = 261;
	items[1].title = "Wednesday";
	items[1].description = "three";
	items[1].guid = "hookcast:o/r:2026-05-06";
	items[1].transcript_url = "https://casts.example/o/r/2026-05-06.md";
	items[1].link = "https://casts.example/o/r/2026-05-06.md";
	items[1].published = 1778061600;
	items[1].duration = 90;
	items[2].title = "Monday\x01\xff";
	items[2].description = "one";
	items[2].guid = "hookcast:o/r:2026-05-04";
	items[2].transcript_url = "2026-05-04.md";
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
	assert_non_null(strstr(xml, "<podcast:transcript url=\"2026-05-05.md\" "
	    "type=\"text/markdown\"/>"));
	assert_non_null(strstr(xml, "<podcast:transcript url=\"https://casts."
	    "example/o/r/2026-05-06.md\" type=\"text/markdown\"/>"));
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

	/* no items at all is still a feed */
	ch.self_url = "https://casts.example/o/r/feed.xml";
	xml = feed_render(&ch, NULL, 0);
	assert_int_equal(count(xml, "<item>"), 0);
	assert_non_null(strstr(xml, "rel=\"self\""));
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
};

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

	assert_int_equal(emit_feed(&t->conf, "o/r", &cause), 0);
	xasprintf(&path, "%s/feed.xml", dir);
	xml = slurp(path);
	assert_non_null(xml);
	assert_int_equal(count(xml, "<item>"), 4);
	assert_null(strstr(xml, "Not one"));
	assert_non_null(strstr(xml, "<title>Tuesday &amp; co</title>"));
	assert_non_null(strstr(xml, "url=\"2026-05-05-2.md\""));
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
	assert_int_equal(emit_feed(&t->conf, "o/r", &cause), 0);
	xml = slurp(path);
	assert_int_equal(count(xml, "<item>"), 2);
	assert_non_null(strstr(xml, "<podcast:transcript url=\"https://casts."
	    "example/eps/o/r/2026-05-06-recap.md\" type=\"text/markdown\"/>"));
	assert_non_null(strstr(xml, "url=\"https://casts.example/eps/o/r/"
	    "2026-05-05-2.md\""));
	assert_null(strstr(xml, "2026-05-04"));
	assert_non_null(strstr(xml, "href=\"https://casts.example/eps/o/r/"
	    "feed.xml\""));
	assert_true(xml_check(xml) > 0);
	free(xml);
	t->conf.public_url = NULL;
	t->conf.feed_items = 30;

	/* a name that can't be a path */
	assert_int_equal(emit_feed(&t->conf, "../etc", &cause), -1);
	assert_non_null(cause);
	free(cause);
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
		assert_int_equal(emit_day(&t->conf, d, d->end, 1, &res,
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
	json_decref(j);

	/* emitted again: same name, the later episodes listed */
	d = empty_day("p/q", t0);
	d->end = t0 + 86400;
	assert_int_equal(emit_day(&t->conf, d, d->end, 1, &res, &cause), 0);
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
	assert_int_equal(emit_day(&t->conf, d, d->end, 1, &res, &cause), 0);
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
