/*
 * Unit tests for text from payloads on its way to the outputs: cleaning at
 * intake (record_clean), spoken text (spoken_clean), Markdown escaping
 * (episode_render_md), and a hostile day drafted and rendered end to end.
 */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cmocka.h>
#include <jansson.h>

#include "buf.h"
#include "day.h"
#include "episode.h"
#include "record.h"
#include "spoken.h"
#include "xmalloc.h"

#define SCRIPT	"</title><script>alert(1)</script>"
#define ANSI	"\x1b[31mred\x1b[0m"
#define LINK	"[link](javascript:alert(1))"

struct clean_case {
	const char	*in;
	int		 flags;
	const char	*want;
};

static const struct clean_case clean_cases[] = {
	{ "plain text", 0, "plain text" },
	{ "caf\xc3\xa9 \xe2\x80\x94 \xf0\x9f\x8e\x89", 0,
	    "caf\xc3\xa9 \xe2\x80\x94 \xf0\x9f\x8e\x89" },
	{ "bell\x07 here", 0, "bell here" },
	{ "a\x7f" "b\x01" "c", 0, "abc" },
	{ ANSI " text", 0, "red text" },
	{ "\x1b[1;38;5;196mbold\x1b[m", 0, "bold" },
	{ "title\x1b]0;owned\x07 after", 0, "title after" },
	{ "link\x1b]8;;http://x\x1b\\text\x1b]8;;\x1b\\", 0, "linktext" },
	{ "esc\x1b" "7saved", 0, "escsaved" },
	{ "esc at end\x1b", 0, "esc at end" },
	{ "c1 csi \xc2\x9b" "31mred", 0, "c1 csi red" },
	{ "c1 \xc2\x85next", 0, "c1 next" },
	{ "bad \xff byte", 0, "bad byte" },
	{ "lone \xc3 lead", 0, "lone lead" },
	{ "overlong \xc0\xaf slash", 0, "overlong slash" },
	{ "surrogate \xed\xa0\x80 gone", 0, "surrogate gone" },
	{ "too big \xf4\x90\x80\x80 gone", 0, "too big gone" },
	{ "cut \xe2\x82", 0, "cut" },
	{ "bidi \xe2\x80\xae" "evil\xe2\x80\xac ok", 0, "bidi evil ok" },
	{ "\xef\xbb\xbf" "bom", 0, "bom" },
	{ "  tabs\tand\r\nlines\n  ", 0, "tabs and lines" },
	{ "a\xe2\x80\xa8" "b", 0, "a b" },
	{ "keeps <b> and `ticks` [x](y)", 0, "keeps <b> and `ticks` [x](y)" },
	{ "line one\r\nline two\rthree\n\n    code\tx", RECORD_CLEAN_LINES,
	    "line one\nline two\nthree\n\n    code x" },
	{ "para\x07\n" ANSI "\n", RECORD_CLEAN_LINES, "para\nred\n" },
	{ "osc to eol\x1b]0;x\nnext", RECORD_CLEAN_LINES, "osc to eol\nnext" },
	{ "", 0, "" },
	{ "\x07\x1b[0m ", 0, "" },
};

static void
test_record_clean(void **state)
{
	size_t	i, n;
	char	*s;

	(void)state;
	for (i = 0; i < sizeof clean_cases / sizeof clean_cases[0]; i++) {
		s = xstrdup(clean_cases[i].in);
		n = record_clean(s, clean_cases[i].flags);
		if (strcmp(s, clean_cases[i].want) != 0)
			fail_msg("case %zu: got \"%s\", want \"%s\"", i, s,
			    clean_cases[i].want);
		assert_int_equal(n, strlen(s));
		/* a second pass changes nothing */
		record_clean(s, clean_cases[i].flags);
		assert_string_equal(s, clean_cases[i].want);
		free(s);
	}
	assert_int_equal(record_clean(NULL, 0), 0);
}

static const struct clean_case spoken_cases[] = {
	{ "Use <details> for long logs", 0, "Use details for long logs" },
	{ "Option<T> and Vec<u8>.", 0, "Option T and Vec u8." },
	{ "Fix " SCRIPT " now", 0, "Fix title script alert(1) script now" },
	{ "Add <a href=\"javascript:x\">here</a>.", 0, "Add a here a." },
	{ "see <https://example.com/x>", 0, "see" },
	{ "keep a < b and x <= y, <3", 0, "keep a < b and x <= y, <3" },
	{ "no <!-- hidden --> comment", 0, "no comment" },
	{ "<!doctype html><?xml x?>text", 0, "text" },
	{ "open <b never closed", 0, "open b never closed" },
	{ "open </ x", 0, "open / x" },
	{ "<<script>>", 0, "< script >" },
	{ "`foo` fails on a lone ` tick", 0, "foo fails on a lone tick" },
	{ "read " LINK " first", 0, "read link first" },
	{ "an ![image](a.png) here", 0, "an image here" },
	{ "[[a](b)](c)", 0, "a" },
	{ "[Reland] keep [brackets] (and parens)", 0,
	    "[Reland] keep [brackets] (and parens)" },
	{ "x](y) no opener", 0, "x](y) no opener" },
	{ "<`script>x", 0, "script x" },
	{ "[a]<?x>(u) z", 0, "a z" },
	{ "<[b](u) <<!x", 0, "b !x" },
	{ "bell\x07 and " ANSI "!", 0, "bell and red!" },
	{ "one\n\ntwo  words \n", 0, "one\n\ntwo words" },
	/* pictographs go, letters of any script stay */
	{ "\xf0\x9f\x94\xa7 update CI \xe2\x9c\xa8\xef\xb8\x8f now", 0,
	    "update CI now" },
	{ "\xe7\xbf\xa0 and Jos\xc3\xa9", 0, "\xe7\xbf\xa0 and Jos\xc3\xa9" },
	{ "", 0, "" },
};

static void
test_spoken_clean(void **state)
{
	size_t	i;
	char	*s;

	(void)state;
	for (i = 0; i < sizeof spoken_cases / sizeof spoken_cases[0]; i++) {
		s = xstrdup(spoken_cases[i].in);
		spoken_clean(s);
		if (strcmp(s, spoken_cases[i].want) != 0)
			fail_msg("case %zu: got \"%s\", want \"%s\"", i, s,
			    spoken_cases[i].want);
		spoken_clean(s);
		assert_string_equal(s, spoken_cases[i].want);
		free(s);
	}
	spoken_clean(NULL);
}

/* An episode by hand: texts as given, not cleaned. */
static struct episode *
hand_episode(const char *title, const char *text, const char *focus)
{
	struct episode	*ep = xcalloc(1, sizeof *ep);

	ep->show = xstrdup("Show");
	ep->title = xstrdup(title);
	ep->date = xstrdup("2026-06-01");
	ep->published = 1780308044;
	ep->segments = xcalloc(1, sizeof *ep->segments);
	ep->nsegments = 1;
	ep->segments[0].kind = xstrdup(focus != NULL ? "focus" : "opening");
	ep->segments[0].text = xstrdup(text);
	ep->focus = xstrdup_null(focus);
	return ep;
}

struct md_case {
	const char	*text;
	const char	*focus;
	const char	*want;		/* the transcript's paragraph */
};

static const struct md_case md_cases[] = {
	{ "Plain words with per_tensor_scale and R&D stay.", NULL,
	    "Plain words with per_tensor_scale and R&D stay." },
	{ "a <b> & &amp; &#39; > c", NULL,
	    "a &lt;b> & &amp;amp; &amp;#39; > c" },
	/* nginx 2024-05-28: a '>' inside a line is no markup */
	{ "Previously, st->value was passed with NULL data pointer to "
	    "header handlers.", NULL,
	    "Previously, st->value was passed with NULL data pointer to "
	    "header handlers." },
	{ "one\n> two ->\n>> three", NULL,
	    "one\n&gt; two ->\n&gt;> three" },
	{ "tick ` back\\slash [x](y) ![i](j)", NULL,
	    "tick \\` back\\\\slash \\[x\\](y) !\\[i\\](j)" },
	{ "# not a heading", NULL, "\\# not a heading" },
	{ "- not a list\n+ nor\n* this\n1. nor this\n12) nor this", NULL,
	    "\\- not a list\n\\+ nor\n\\* this\n1\\. nor this\n"
	    "12\\) nor this" },
	{ "    not code\n> not a quote\n=== nor ~~~ | x", NULL,
	    "not code\n&gt; not a quote\n\\=== nor ~~~ | x" },
	{ "2026 was a year. 3. not at the start", NULL,
	    "2026 was a year. 3. not at the start" },
	{ "ctl\x07 and \x1b[0m and del\x7f", NULL, "ctl and \\[0m and del" },
	{ "1\x07) x &\x07#39;", NULL, "1\\) x &amp;#39;" },
	{ "Today's Focus: CURLOPT_X. Read CURLOPT_X.", "CURLOPT_X",
	    "Today's Focus: `CURLOPT_X`. Read `CURLOPT_X`." },
	{ "Focus: a`b <i> then a`b.", "a`b",
	    "Focus: a\\`b &lt;i> then a\\`b." },
	{ "CURLOPT_X leads.", "CURLOPT_X", "`CURLOPT_X` leads." },
};

static void
test_markdown_escapes(void **state)
{
	struct episode	*ep;
	struct buf	 want;
	char		*md;
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof md_cases / sizeof md_cases[0]; i++) {
		ep = hand_episode("A <b>title</b> & [more]\nhere",
		    md_cases[i].text, md_cases[i].focus);
		md = episode_render_md(ep);
		buf_init(&want);
		buf_printf(&want, "## Transcript\n\n%s\n", md_cases[i].want);
		if (strstr(md, buf_str(&want)) == NULL)
			fail_msg("case %zu: got\n%s\nwant\n%s", i, md,
			    buf_str(&want));
		assert_non_null(strstr(md, "# Show: A &lt;b>title&lt;/b> "
		    "& \\[more\\] here\n"));
		buf_free(&want);
		free(md);
		episode_free(ep);
	}
}

/* Whether s is well-formed UTF-8: no overlong form, surrogate or > 10FFFF. */
static int
valid_utf8(const char *s)
{
	const unsigned char	*p = (const unsigned char *)s;
	unsigned long		 cp;
	size_t			 n, i;

	while (*p != '\0') {
		if (*p < 0x80) {
			p++;
			continue;
		}
		if ((*p & 0xe0) == 0xc0) {
			n = 2;
			cp = *p & 0x1f;
		} else if ((*p & 0xf0) == 0xe0) {
			n = 3;
			cp = *p & 0x0f;
		} else if ((*p & 0xf8) == 0xf0) {
			n = 4;
			cp = *p & 0x07;
		} else
			return 0;
		for (i = 1; i < n; i++) {
			if ((p[i] & 0xc0) != 0x80)
				return 0;
			cp = (cp << 6) | (p[i] & 0x3f);
		}
		if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) ||
		    (n == 4 && cp < 0x10000) || cp > 0x10ffff ||
		    (cp >= 0xd800 && cp <= 0xdfff))
			return 0;
		p += n;
	}
	return 1;
}

/* No C0 control but the newline, no DEL, no C1 control, valid UTF-8. */
static void
assert_no_controls(const char *what, const char *s)
{
	const unsigned char	*p;

	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if ((*p < 0x20 && *p != '\n') || *p == 0x7f)
			fail_msg("%s holds byte 0x%02x: %s", what, *p, s);
		if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
			fail_msg("%s holds a C1 control: %s", what, s);
	}
	if (!valid_utf8(s))
		fail_msg("%s is not UTF-8: %s", what, s);
}

/* Spoken text: no controls and no markup. */
static void
assert_spoken(const char *what, const char *s)
{
	const char	*p;

	assert_no_controls(what, s);
	for (p = strchr(s, '<'); p != NULL; p = strchr(p + 1, '<')) {
		if (isalpha((unsigned char)p[1]) || p[1] == '/' ||
		    p[1] == '!' || p[1] == '?')
			fail_msg("%s holds a tag: %s", what, s);
	}
	if (strchr(s, '`') != NULL || strstr(s, "](") != NULL)
		fail_msg("%s holds markup: %s", what, s);
}

/* Whether md[i] is escaped by an odd run of backslashes before it. */
static int
escaped(const char *md, size_t i)
{
	size_t	n = 0;

	while (n < i && md[i - n - 1] == '\\')
		n++;
	return n % 2 == 1;
}

/* The Markdown of a hostile episode: nothing a renderer runs or obeys. */
static void
assert_markdown(const char *md)
{
	size_t	i, open = 0;
	int	in_code = 0;

	assert_no_controls("markdown", md);
	assert_null(strcasestr(md, "<script"));
	assert_null(strchr(md, '<'));
	assert_null(strchr(md, '>'));
	for (i = 0; md[i] != '\0'; i++) {
		if ((md[i] == '[' || md[i] == ']') && !in_code &&
		    !escaped(md, i))
			fail_msg("unescaped '%c' at %zu: %s", md[i], i, md);
		if (md[i] != '`' || (!in_code && escaped(md, i)))
			continue;
		/* the renderer's code spans hold an identifier only */
		if (in_code) {
			for (; open < i; open++) {
				if (!isalnum((unsigned char)md[open]) &&
				    strchr("_-.=:/+,@%", md[open]) == NULL)
					fail_msg("code span at %zu: %s", i, md);
			}
		}
		in_code = !in_code;
		open = i + 1;
	}
	assert_false(in_code);
}

static void
add_commit(struct day *d, const char *sha, const char *name,
    const char *message, time_t when)
{
	struct commit	c;

	memset(&c, 0, sizeof c);
	c.sha = xstrdup(sha);
	c.author_name = xstrdup(name);
	c.author_email = xstrdup("eve@example.com");
	c.timestamp = when;
	c.branch = xstrdup("main");
	c.modified = record_list_pack("src/gears.c", sizeof("src/gears.c"),
	    1);
	c.nmodified = 1;
	c.reverts_idx = c.reverted_by_idx = -1;
	assert_int_equal(commit_set_message(&c, message), 0);
	assert_int_equal(revert_parse(c.subject, c.body, &c.revert), 0);
	assert_int_equal(day_add_commit(d, &c), 1);
}

/*
 * A day whose commits, author names and PR title hold a tag pair with a
 * script, a BEL, colour sequences, bytes that are not UTF-8, a lone
 * backtick and a javascript: link, entered as the daemon enters them
 * (day_add_*), drafted and rendered: Markdown, JSON and feed.
 */
static void
test_hostile_day(void **state)
{
	static const char *subjects[] = {
		"gears: add " SCRIPT " support\x07 " ANSI " `x " LINK,
		"Fix the \xff\xc3 crash in " SCRIPT " when ` is " LINK,
		"Revert \"gears: add " SCRIPT " support\x07 " ANSI " `x " LINK
		    "\"",
	};
	static const char *bodies[] = {
		"It makes " SCRIPT " turn 2x faster\x07 in " ANSI " with a ` "
		    "and " LINK ". The gears \xfe spin.\x7f",
		"The gears crashed on " SCRIPT " and `\x1b[2J` cleared the "
		    "screen.\n\nFixes #12",
		"This reverts commit 1111111111111111111111111111111111111111."
		    "\n\nIt broke " SCRIPT "\x07 " ANSI ".",
	};
	static const char *shas[] = {
		"1111111111111111111111111111111111111111",
		"2222222222222222222222222222222222222222",
		"3333333333333333333333333333333333333333",
	};
	struct episode_opts	 o;
	struct merged_pr	 pr;
	struct feed_channel	 ch;
	struct feed_item	 item;
	struct episode		*ep;
	struct day		*d;
	json_t			*j, *segs, *v;
	json_error_t		 err;
	char			*md, *js, *xml, *msg;
	size_t			 i;

	(void)state;
	d = day_new("hookcast-test/widget", 1780264800);
	d->end = 1780351200;
	for (i = 0; i < 3; i++) {
		xasprintf(&msg, "%s\n\n%s", subjects[i], bodies[i]);
		add_commit(d, shas[i], i == 1 ? "Eve " ANSI "Mallory\x07 "
		    SCRIPT : "Ada \xff" "Lovelace `",
		    msg, d->start + 3600 * (time_t)(i + 1));
		free(msg);
	}
	memset(&pr, 0, sizeof pr);
	pr.number = 7;
	pr.title = xstrdup("Gears: " SCRIPT "\x07 " ANSI " " LINK);
	pr.author_login = xstrdup("eve\x1b[0m");
	pr.body = xstrdup("Body " SCRIPT "\r\nline\x07");
	pr.merge_sha = xstrdup(shas[0]);
	pr.branch = xstrdup("main");
	assert_int_equal(day_add_pr(d, &pr), 1);
	day_pair_reverts(d);

	/* nothing in the day holds a control byte any more */
	for (i = 0; i < d->ncommits; i++) {
		assert_no_controls("subject", d->commits[i].subject);
		assert_no_controls("body", d->commits[i].body);
		assert_no_controls("author", d->commits[i].author_name);
		if (d->commits[i].revert.reverted_subject != NULL)
			assert_no_controls("reverted subject",
			    d->commits[i].revert.reverted_subject);
	}
	assert_no_controls("PR title", d->prs[0].title);
	assert_no_controls("PR body", d->prs[0].body);
	assert_no_controls("PR author", d->prs[0].author_login);

	memset(&o, 0, sizeof o);
	o.show = "Widget \x07<b>Daily</b>";
	o.year = 2026;
	o.month = 6;
	o.mday = 1;
	o.published = 1780308044;
	ep = episode_draft(d, &o);

	md = episode_render_md(ep);
	assert_markdown(md);
	/* the hostile commits were told, not dropped */
	assert_non_null(strstr(md, "alert(1)"));
	assert_non_null(strstr(md, "Mallory"));

	js = episode_render_json(ep);
	j = json_loads(js, 0, &err);
	if (j == NULL)
		fail_msg("JSON: %s", err.text);
	segs = json_object_get(j, "segments");
	assert_true(json_array_size(segs) > 0);
	json_array_foreach(segs, i, v)
		assert_spoken("segment", json_string_value(json_object_get(v,
		    "text")));
	assert_spoken("title", json_string_value(json_object_get(j, "title")));
	assert_spoken("description", json_string_value(json_object_get(j,
	    "description")));
	assert_spoken("transcript", json_string_value(json_object_get(j,
	    "transcript")));
	assert_spoken("show", json_string_value(json_object_get(j, "show")));
	assert_non_null(strstr(json_string_value(json_object_get(j,
	    "transcript")), "alert(1)"));
	json_decref(j);

	/* the feed escapes what it is given, spoken or not */
	memset(&ch, 0, sizeof ch);
	ch.title = ep->show;
	ch.link = "https://github.com/hookcast-test/widget";
	ch.description = "Daily " SCRIPT;
	memset(&item, 0, sizeof item);
	item.title = ep->title;
	item.description = "raw " SCRIPT "\x07 " ANSI;
	item.guid = "hookcast:hookcast-test/widget:2026-06-01";
	item.published = ep->published;
	xml = feed_render(&ch, &item, 1);
	assert_null(strcasestr(xml, "<script"));
	assert_null(strstr(xml, "</title><"));
	assert_non_null(strstr(xml, "&lt;script&gt;"));
	assert_no_controls("feed", xml);

	free(xml);
	free(js);
	free(md);
	episode_free(ep);
	day_free(d);
}

#define LINKS_REPO	"https://github.com/hookcast-test/widget/"
#define LINKS_COMMIT	LINKS_REPO "commit/"

/* The hostile day of test_hostile_day, with a repository URL of url. */
static struct day *
links_day(const char *url)
{
	struct merged_pr	 pr;
	struct day		*d;

	d = day_new("hookcast-test/widget", 1780264800);
	d->end = 1780351200;
	add_commit(d, "1111111111111111111111111111111111111111", "Ada",
	    "gears: add " SCRIPT " support " LINK " [x]\\\n\nIt makes "
	    "gears 2x faster.", d->start + 3600);
	add_commit(d, "2222222222222222222222222222222222222222", "Eve",
	    "Fix the crash in " SCRIPT " when ` is " LINK "\n\nThe gears "
	    "crashed.\n\nFixes #12", d->start + 7200);
	memset(&pr, 0, sizeof pr);
	pr.number = 7;
	pr.title = xstrdup("Gears: " SCRIPT " " LINK " ](x)");
	pr.author_login = xstrdup("eve");
	pr.merge_sha = xstrdup("1111111111111111111111111111111111111111");
	pr.branch = xstrdup("main");
	assert_int_equal(day_add_pr(d, &pr), 1);
	day_pair_reverts(d);
	d->html_url = url != NULL ? xstrdup(url) : NULL;
	return d;
}

static struct episode *
links_draft(const struct day *d)
{
	struct episode_opts	o;

	memset(&o, 0, sizeof o);
	o.year = 2026;
	o.month = 6;
	o.mday = 1;
	o.published = 1780308044;
	return episode_draft(d, &o);
}

/*
 * One line of the Links list: "- [LABEL](URL)" where LABEL holds no
 * unescaped bracket and URL is one of the day's pages. Returns the URL's
 * length, or fails.
 */
static size_t
assert_link_line(const char *line, size_t n)
{
	const char	*base = LINKS_REPO;
	size_t		 i, u;

	if (n < 4 || strncmp(line, "- [", 3) != 0)
		fail_msg("not a link: %.*s", (int)n, line);
	for (i = 3; i < n && !(line[i] == ']' && !escaped(line, i)); i++) {
		if (line[i] == '[' && !escaped(line, i))
			fail_msg("unescaped '[' in a label: %.*s", (int)n,
			    line);
		/* ('>' is text inside a line: no tag opens without '<') */
		if (line[i] == '<')
			fail_msg("'<' in a label: %.*s", (int)n, line);
	}
	if (i + 2 >= n || line[i + 1] != '(' || line[n - 1] != ')')
		fail_msg("not a link: %.*s", (int)n, line);
	u = i + 2;
	if (strncmp(line + u, base, strlen(base)) != 0)
		fail_msg("a link elsewhere: %.*s", (int)n, line);
	u += strlen(base);
	if (strncmp(line + u, "commit/", 7) == 0) {
		assert_int_equal(n - 1 - u, 7 + 40);
		for (i = u + 7; i < n - 1; i++)
			assert_true(line[i] == '1' || line[i] == '2');
	} else if (strncmp(line + u, "pull/7)", 7) != 0)
		fail_msg("a link elsewhere: %.*s", (int)n, line);
	return n;
}

/*
 * Links: the JSON's sources carry the commit and pull request pages, the
 * Markdown ends with them under "## Links" and says none before, labels
 * escaped so that a title's brackets cannot end or make a link.
 */
static void
test_links(void **state)
{
	struct episode	*ep;
	struct day	*d;
	json_t		*j, *segs, *seg, *src;
	json_error_t	 err;
	const char	*url, *links, *p, *e;
	char		*md, *js, *head;
	size_t		 i, k, ncommit = 0, npr = 0, nlines = 0;

	(void)state;
	d = links_day("https://github.com/hookcast-test/widget");
	ep = links_draft(d);
	md = episode_render_md(ep);
	links = strstr(md, "\n## Links\n\n");
	assert_non_null(links);
	/* what comes before holds no link, and is escaped as before */
	head = xstrndup(md, (size_t)(links - md));
	assert_null(strstr(head, "http"));
	assert_markdown(head);
	free(head);
	/* then only headings and links, to the end */
	for (p = links + strlen("\n## Links\n\n"); *p != '\0'; p = e + 1) {
		if ((e = strchr(p, '\n')) == NULL)
			fail_msg("no newline at the end: %s", p);
		if (e == p || strncmp(p, "### ", 4) == 0)
			continue;
		assert_link_line(p, (size_t)(e - p));
		nlines++;
	}
	assert_true(nlines >= 3);	/* two commits and the PR */
	assert_non_null(strstr(md, "- [#7 Gears: "));
	assert_non_null(strstr(md, "(https://github.com/hookcast-test/widget/"
	    "pull/7)\n"));

	js = episode_render_json(ep);
	j = json_loads(js, 0, &err);
	if (j == NULL)
		fail_msg("JSON: %s", err.text);
	assert_string_equal(json_string_value(json_object_get(j,
	    "repository_url")), "https://github.com/hookcast-test/widget");
	assert_null(strstr(json_string_value(json_object_get(j,
	    "transcript")), "http"));
	segs = json_object_get(j, "segments");
	json_array_foreach(segs, i, seg) {
		assert_null(strstr(json_string_value(json_object_get(seg,
		    "text")), "http"));
		json_array_foreach(json_object_get(seg, "sources"), k, src) {
			url = json_string_value(json_object_get(src, "url"));
			assert_non_null(url);
			if (json_object_get(src, "commit") != NULL) {
				p = json_string_value(json_object_get(src,
				    "commit"));
				assert_true(strncmp(url, LINKS_COMMIT,
				    strlen(LINKS_COMMIT)) == 0);
				assert_string_equal(url + strlen(LINKS_COMMIT),
				    p);
				ncommit++;
			} else {
				assert_int_equal(json_integer_value(
				    json_object_get(src, "pull_request")), 7);
				assert_string_equal(url, "https://github.com/"
				    "hookcast-test/widget/pull/7");
				/* right after its merge commit */
				assert_true(k > 0);
				assert_string_equal(json_string_value(
				    json_object_get(json_array_get(
				    json_object_get(seg, "sources"), k - 1),
				    "commit")),
				    "1111111111111111111111111111111111111111");
				npr++;
			}
		}
	}
	assert_true(ncommit >= 2);
	assert_true(npr >= 1);
	json_decref(j);
	free(js);
	free(md);
	episode_free(ep);
	day_free(d);
}

/*
 * A repository URL that is not the repository's page over http(s), or
 * would break out of a link, gives an episode without links: no "##
 * Links", no URL anywhere, every source's url null.
 */
static void
test_links_hostile_url(void **state)
{
	static const char *urls[] = {
		NULL,
		"javascript:alert(1)",
		"javascript://github.com/hookcast-test/widget",
		"https://github.com/x)[y](javascript:alert(1)/hookcast-test/"
		    "widget",
		"https://github.com/hookcast-test/widget)",
		"https://github.com/x\n/hookcast-test/widget",
		"https://github.com/x\n## Links/hookcast-test/widget",
		"https://github.com/x\"onclick=\"/hookcast-test/widget",
		"https://github.com/x>/hookcast-test/widget",
		"https://github.com/x y/hookcast-test/widget",
		"https://github.com/other/widget",
		"ftp://github.com/hookcast-test/widget",
		"",
		NULL,	/* over REPO_URL_MAX: below */
	};
	struct episode	*ep;
	struct day	*d;
	struct buf	 b;
	json_t		*j, *seg, *src;
	char		*md, *js;
	size_t		 i, k, m, n, nsrc;

	(void)state;
	n = sizeof(urls) / sizeof(urls[0]);
	for (i = 0; i < n; i++) {
		buf_init(&b);
		if (i == n - 1) {
			buf_puts(&b, "https://github.com/");
			for (k = 0; k < 512; k++)
				buf_putc(&b, 'x');
			buf_puts(&b, "/hookcast-test/widget");
		} else if (urls[i] != NULL)
			buf_puts(&b, urls[i]);
		d = links_day(i == n - 1 || urls[i] != NULL ? buf_str(&b) :
		    NULL);
		ep = links_draft(d);
		md = episode_render_md(ep);
		if (strstr(md, "## Links") != NULL || strstr(md, "](") != NULL
		    || strstr(md, "http") != NULL)
			fail_msg("url %zu: links in %s", i, md);
		assert_markdown(md);
		js = episode_render_json(ep);
		assert_non_null(j = json_loads(js, 0, NULL));
		assert_true(json_is_null(json_object_get(j,
		    "repository_url")));
		nsrc = 0;
		json_array_foreach(json_object_get(j, "segments"), k, seg)
			json_array_foreach(json_object_get(seg, "sources"), m,
			    src) {
				assert_true(json_is_null(json_object_get(src,
				    "url")));
				nsrc++;
			}
		/* the sources are listed, without links */
		assert_true(nsrc >= 3);
		json_decref(j);
		free(js);
		free(md);
		episode_free(ep);
		day_free(d);
		buf_free(&b);
	}
}

/*
 * A day of merged pull requests and no commits: the opening names the
 * first of them, and those it names are its sources, linked.
 */
static void
test_links_no_commits(void **state)
{
	struct merged_pr	 pr;
	struct episode		*ep;
	struct day		*d;
	const struct episode_segment *seg = NULL;
	char			*md, want[128];
	size_t			 i;

	(void)state;
	d = day_new("hookcast-test/widget", 1780264800);
	d->end = 1780351200;
	d->html_url = xstrdup("https://github.com/hookcast-test/widget");
	for (i = 0; i < 5; i++) {
		memset(&pr, 0, sizeof pr);
		pr.number = 10 + (long)i;
		xasprintf(&pr.title, "Add gear number %zu", i);
		pr.author_login = xstrdup("ada");
		pr.branch = xstrdup("main");
		pr.merged_at = d->start + 60 * (time_t)i;
		assert_int_equal(day_add_pr(d, &pr), 1);
	}
	ep = links_draft(d);
	for (i = 0; i < ep->nsegments; i++)
		if (strcmp(ep->segments[i].kind, "opening") == 0)
			seg = &ep->segments[i];
	assert_non_null(seg);
	/* the three it names (DRAFT_MAX_OPENING_PRS), not all five */
	assert_int_equal(seg->nsources, 3);
	md = episode_render_md(ep);
	for (i = 0; i < seg->nsources; i++) {
		assert_null(seg->sources[i].sha);
		assert_int_equal(seg->sources[i].pr, 10 + (long)i);
		snprintf(want, sizeof want, "- [#%zu Add gear number %zu](%s"
		    "pull/%zu)\n", 10 + i, i, LINKS_REPO, 10 + i);
		if (strstr(md, want) == NULL)
			fail_msg("no \"%s\" in %s", want, md);
	}
	free(md);
	episode_free(ep);
	day_free(d);
}

/*
 * The recap quotes archived episodes, which an older daemon may have
 * written raw: what it says is spoken text all the same.
 */
static void
test_hostile_recap(void **state)
{
	static const char *const ids[] = {
	    "1111111111111111111111111111111111111111" };
	static const struct recap_segment segs[] = {
		{ "highlights", ids, 1 },
	};
	static const struct recap_person people[] = {
		{ "Eve " ANSI "Mallory\x07 " SCRIPT, 3, 0, NULL },
		{ "Ada `Lovelace", 2, 0, NULL },
	};
	static const struct episode_nearby nearby[] = {
		{ "2026-05-03", "Last <b>week</b>\x07 " ANSI },
	};
	static const struct recap_source src[] = {
		{ "2026-05-04", "Gears " SCRIPT "\x07 " ANSI " " LINK,
		    "Show for May 4th. The top story: Eve added " SCRIPT
		    "\x1b[2J support.", "GEARS_" "FAST=1", 1777888800,
		    1777975200, { 5, 1, 0, 0, 2, 2, 0 }, segs, 1, people, 2,
		    1 },
		{ "2026-05-05", "More " SCRIPT " gears \xff" "`", NULL, NULL,
		    1777975200, 1778061600, { 1, 0, 0, 0, 1, 1, 0 }, segs, 1,
		    people, 1, 1 },
	};
	struct episode_opts	 o;
	struct episode		*ep;
	size_t			 i;
	char			*md;

	(void)state;
	memset(&o, 0, sizeof o);
	o.show = "Show";
	o.year = 2026;
	o.month = 5;
	o.mday = 10;
	o.published = 1778407200;
	o.nearby = nearby;
	o.nnearby = 1;
	ep = recap_draft("o/r", src, 2, &o);
	for (i = 0; i < ep->nsegments; i++)
		assert_spoken("recap segment", ep->segments[i].text);
	assert_spoken("recap title", ep->title);
	assert_spoken("recap description", ep->description);
	assert_spoken("recap transcript", ep->transcript);
	assert_spoken("nearby title", ep->nearby[0].title);
	assert_non_null(strstr(ep->transcript, "Mallory"));
	md = episode_render_md(ep);
	assert_markdown(md);
	free(md);
	episode_free(ep);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_clean),
		cmocka_unit_test(test_spoken_clean),
		cmocka_unit_test(test_markdown_escapes),
		cmocka_unit_test(test_hostile_day),
		cmocka_unit_test(test_hostile_recap),
		cmocka_unit_test(test_links),
		cmocka_unit_test(test_links_hostile_url),
		cmocka_unit_test(test_links_no_commits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
