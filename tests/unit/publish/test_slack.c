/* Unit tests: publish/sink_slack.c */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "buf.h"
#include "sink.h"

static void
test_slack_escape(void **state)
{
	static const struct {
		const char	*in, *out;
	} cases[] = {
		{ "", "" },
		{ "plain", "plain" },
		{ "a & b", "a &amp; b" },
		{ "<@U123>", "&lt;@U123&gt;" },
		{ "<!channel> & <http://x|y>", "&lt;!channel&gt; &amp; "
		    "&lt;http://x|y&gt;" },
		{ "&amp;", "&amp;amp;" },
		{ "*bold* _it_ `code`", "*bold* _it_ `code`" },
		{ "caf\xc3\xa9 > tea", "caf\xc3\xa9 &gt; tea" },
	};
	size_t	 i;
	char	*s;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		s = slack_escape(cases[i].in, strlen(cases[i].in));
		assert_string_equal(s, cases[i].out);
		free(s);
	}
}

/* Text made of n copies of unit. */
static char *
repeat(const char *unit, size_t n)
{
	struct buf	b;

	buf_init(&b);
	while (n-- > 0)
		buf_puts(&b, unit);
	if (b.data == NULL)
		buf_puts(&b, "");
	return buf_steal(&b);
}

/* Every & of s starts one of our three escapes. */
static int
entities_whole(const char *s)
{
	for (; (s = strchr(s, '&')) != NULL; s++)
		if (strncmp(s, "&amp;", 5) != 0 && strncmp(s, "&lt;", 4) != 0 &&
		    strncmp(s, "&gt;", 4) != 0)
			return 0;
	return 1;
}

/* Check a message against Slack's limits; its number of sections. */
static size_t
check_limits(const char *msg, int *truncated, const char **last)
{
	json_t		*j, *blocks, *b;
	json_error_t	 err;
	const char	*type, *text;
	size_t		 i, sections = 0, total = 0;

	if ((j = json_loads(msg, 0, &err)) == NULL)
		fail_msg("not JSON: %s", err.text);
	text = json_string_value(json_object_get(j, "text"));
	assert_non_null(text);
	assert_true(strlen(text) <= SLACK_MAX_TEXT);
	assert_true(entities_whole(text));
	blocks = json_object_get(j, "blocks");
	assert_true(json_array_size(blocks) <= SLACK_MAX_BLOCKS);
	b = json_array_get(blocks, 0);
	assert_string_equal(json_string_value(json_object_get(b, "type")),
	    "header");
	text = json_string_value(json_object_get(json_object_get(b, "text"),
	    "text"));
	assert_true(strlen(text) <= SLACK_MAX_HEADER);
	*truncated = 0;
	*last = NULL;
	json_array_foreach(blocks, i, b) {
		type = json_string_value(json_object_get(b, "type"));
		if (strcmp(type, "context") == 0)
			*truncated = 1;
		if (strcmp(type, "section") != 0)
			continue;
		text = json_string_value(json_object_get(json_object_get(b,
		    "text"), "text"));
		assert_non_null(text);
		assert_true(strlen(text) > 0);
		assert_true(strlen(text) <= SLACK_MAX_SECTION);
		assert_true(entities_whole(text));
		if (text[0] != '<') {
			assert_null(strchr(text, '<'));
			assert_null(strchr(text, '>'));
		}
		sections++;
		total += strlen(text);
	}
	/* the description and the link are outside the budget */
	assert_true(total <= SLACK_MAX_TRANSCRIPT + 2 * SLACK_MAX_SECTION);
	*last = NULL;
	b = json_array_get(blocks, json_array_size(blocks) - 1);
	if (strcmp(json_string_value(json_object_get(b, "type")),
	    "section") == 0)
		*last = strdup(json_string_value(json_object_get(
		    json_object_get(b, "text"), "text")));
	json_decref(j);
	return sections;
}

static void
test_slack_message(void **state)
{
	char		*sent = repeat("The gears turn faster & <smoother>. ",
			    4000);
	char		*paras = repeat("Gears turned today.\n\n", 3000);
	char		*word = repeat("\xc3\xa9&", 20000);
	char		*longtitle = repeat("\xc3\xa9t\xc3\xa9 ", 60);
	const struct {
		const char	*title, *desc, *transcript, *link;
		int		 audio, truncated;
		size_t		 sections;	/* 0: any */
		const char	*last;		/* the last section, or NULL */
	} cases[] = {
		{ "Gears Day", "A day of gears.", "Hello there. Bye.", NULL, 0,
		    0, 2, "Hello there. Bye." },
		{ "Gears Day", "A day of gears.", "Hello there.",
		    "https://p.example/a/b/2026-03-02.mp3", 1, 0, 3,
		    "<https://p.example/a/b/2026-03-02.mp3|Listen to the "
		    "episode>" },
		{ "Gears Day", NULL, "Hi.", "https://p.example/x?a=1&b=2", 0,
		    0, 2, "<https://p.example/x?a=1&amp;b=2|Read the "
		    "episode>" },
		{ "Gears Day", "d", sent, NULL, 0, 1, 0, NULL },
		{ "Gears Day", "d", paras, "https://p.example/e.md", 0, 1, 0,
		    NULL },
		{ "Gears Day", "d", word, NULL, 0, 1, 0, NULL },
		{ longtitle, "d", "Hi.", NULL, 0, 0, 2, "Hi." },
		{ "Gears Day", "d", "", NULL, 0, 0, 1, "d" },
	};
	json_t		*ep;
	char		*msg, *cause = NULL;
	const char	*last;
	size_t		 i, n;
	int		 truncated;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ep = json_pack("{s:s, s:s}", "title", cases[i].title,
		    "transcript", cases[i].transcript);
		if (cases[i].desc != NULL)
			json_object_set_new(ep, "description",
			    json_string(cases[i].desc));
		if (slack_message(ep, cases[i].link, cases[i].audio, &msg,
		    &cause) != 0)
			fail_msg("case %zu: %s", i, cause);
		n = check_limits(msg, &truncated, &last);
		if (truncated != cases[i].truncated)
			fail_msg("case %zu: truncated %d", i, truncated);
		if (cases[i].sections != 0 && n != cases[i].sections)
			fail_msg("case %zu: %zu sections", i, n);
		if (cases[i].last != NULL && (last == NULL ||
		    strcmp(last, cases[i].last) != 0))
			fail_msg("case %zu: last section '%s'", i,
			    last != NULL ? last : "(none)");
		free((char *)last);
		free(msg);
		json_decref(ep);
	}

	/* no title: refused, with a cause */
	ep = json_pack("{s:s}", "transcript", "Hi.");
	msg = NULL;
	assert_int_equal(slack_message(ep, NULL, 0, &msg, &cause), -1);
	assert_null(msg);
	assert_non_null(cause);
	free(cause);
	json_decref(ep);
	free(sent);
	free(paras);
	free(word);
	free(longtitle);
}

/* A transcript cut at sentences keeps each section's sentences whole. */
static void
test_slack_cuts_at_sentences(void **state)
{
	char		*t = repeat("One two three four five six. ", 300);
	json_t		*ep, *j, *b;
	char		*msg, *cause = NULL;
	const char	*text;
	size_t		 i, len;

	ep = json_pack("{s:s, s:s}", "title", "T", "transcript", t);
	assert_int_equal(slack_message(ep, NULL, 0, &msg, &cause), 0);
	j = json_loads(msg, 0, NULL);
	json_array_foreach(json_object_get(j, "blocks"), i, b) {
		if (i == 0)
			continue;
		text = json_string_value(json_object_get(json_object_get(b,
		    "text"), "text"));
		len = strlen(text);
		assert_true(len > 0 && len <= SLACK_MAX_SECTION);
		assert_true(strncmp(text, "One ", 4) == 0);
		assert_int_equal(text[len - 1], '.');
	}
	assert_true(json_array_size(json_object_get(j, "blocks")) >= 4);
	json_decref(j);
	json_decref(ep);
	free(msg);
	free(t);
}

/*
 * Every mrkdwn text object, wherever it sits, in *n; how many lack
 * "verbatim": true (without it Slack turns a URL, #channel or @name of
 * the text into a link or a mention).
 */
static size_t
not_verbatim(const json_t *v, size_t *n)
{
	const char	*key;
	const json_t	*x;
	size_t		 i, bad = 0;

	if (json_is_array(v))
		json_array_foreach(v, i, x)
			bad += not_verbatim(x, n);
	if (!json_is_object(v))
		return bad;
	x = json_object_get(v, "type");
	if (json_is_string(x) && strcmp(json_string_value(x), "mrkdwn") == 0) {
		(*n)++;
		if (!json_is_true(json_object_get(v, "verbatim")))
			bad++;
	}
	json_object_foreach((json_t *)v, key, x)
		bad += not_verbatim(x, n);
	return bad;
}

static void
test_slack_verbatim(void **state)
{
	char		*t = repeat("See https://x.example/a #general @here. ",
			    1000);
	const char	*links[] = { NULL, "https://p.example/e.md" };
	json_t		*ep, *j;
	char		*msg, *cause = NULL;
	size_t		 i, n;

	for (i = 0; i < 2; i++) {
		ep = json_pack("{s:s, s:s, s:s}", "title", "T", "description",
		    "Visit https://x.example #general", "transcript", t);
		assert_int_equal(slack_message(ep, links[i], 0, &msg, &cause),
		    0);
		j = json_loads(msg, 0, NULL);
		assert_non_null(j);
		n = 0;
		assert_int_equal(not_verbatim(j, &n), 0);
		/* the description, sections of transcript, the note, the link */
		assert_true(n >= 4 + i);
		json_decref(j);
		json_decref(ep);
		free(msg);
	}
	free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slack_escape),
		cmocka_unit_test(test_slack_message),
		cmocka_unit_test(test_slack_cuts_at_sentences),
		cmocka_unit_test(test_slack_verbatim),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
