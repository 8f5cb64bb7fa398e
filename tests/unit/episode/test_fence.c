/*
 * Unit tests for episode/fence.c: the checks a model's reply must pass.
 * One draft of made-up facts and a row per reply: faithful retellings
 * pass, and each kind of invention or loss is refused with its reason.
 * Then drafted days: a draft always passes its own fence, and the sheet
 * holds the day's people, reverts and focus, never a bot.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "buf.h"
#include "day.h"
#include "episode.h"
#include "fence.h"
#include "llm.h"
#include "metrics.h"
#include "record.h"
#include "xmalloc.h"

#include "day_msg.h"

#define REVERTED_SHA "00000000000000000000000000000000000000aa"

#define DRAFT \
	"Hello and welcome to widget, this June 30th, 2026. Eleven commits " \
	"landed from three people today.\n\n" \
	"Ada Lovelace made the parser 1.7x faster on large files, so big " \
	"inputs load sooner.\n\n" \
	"Grace Hopper's change to the cache was rolled back. The reason " \
	"given: \"It broke the nightly build.\" Alan Turing's docs rewrite " \
	"was reverted too. No reason was given.\n\n" \
	"Today's Focus: set WIDGET_CACHE=off to try the new path.\n\n" \
	"That's all for today. I'll catch you tomorrow."

/* The same facts retold in other words, as a faithful model would. */
#define FAITHFUL \
	"Hey there, and welcome back to widget on this June 30th, 2026. We " \
	"had eleven commits from three people today, so let's get into it.\n\n" \
	"First up, Ada Lovelace made the parser 1.7x faster on large files, " \
	"which means your big inputs load sooner.\n\n" \
	"Now the rollbacks. Grace Hopper's change to the cache was rolled " \
	"back, and the reason given was that it broke the nightly build. " \
	"Alan Turing's docs rewrite was reverted as well, and no reason was " \
	"given for that one.\n\n" \
	"Today's Focus: set WIDGET_CACHE=off to try the new path.\n\n" \
	"That's the day. I'll catch you tomorrow."

static const char *const people[] = {
	"Ada Lovelace", "ada", "Grace Hopper", "ghopper", "Alan Turing",
};
static const char *const bots[] = { "dependabot[bot]", "Dependabot" };
static const struct fence_revert reverts[] = {
	{ "change to the cache", "It broke the nightly build", 0 },
	{ "docs rewrite", NULL, 0 },
};

struct fence_case {
	const char	*rule;
	const char	*from, *to;	/* FAITHFUL with from replaced by to */
	const char	*reason;	/* NULL: accepted */
};

static const struct fence_case cases[] = {
	{ "a faithful retelling", NULL, NULL, NULL },
	{ "a count in digits", "eleven commits", "11 commits", NULL },
	{ "a count in other words", "from three people", "from 3 people",
	    NULL },
	{ "an added person", "First up, Ada", "First up, with help from "
	    "Zebulon Quartermaine, Ada", "person" },
	{ "an added person opening a sentence", "First up, Ada",
	    "Zebulon's review helped. Ada", "person" },
	{ "an added person doing something", "First up, Ada",
	    "Zebulon fixed the docs. Ada", "person" },
	{ "a pronoun doing something", "First up, Ada",
	    "Someone asked for speed. Everyone fixed nothing. Ada", NULL },
	{ "a common word opening a sentence", "First up, Ada",
	    "Speaking of speed: Ada", NULL },
	{ "an adverb opening a sentence", "First up, Ada",
	    "Happily landed today: Ada", NULL },
	{ "a changed figure", "1.7x", "2.7x", "number" },
	{ "a changed count", "eleven commits", "twelve commits", "number" },
	{ "a count in digits that is wrong", "eleven commits", "12 commits",
	    "number" },
	{ "a dropped revert", "Grace Hopper's change to the cache was rolled "
	    "back, and the reason given was that it broke the nightly build. ",
	    "", "revert" },
	{ "a revert's reason dropped", "and the reason given was that it "
	    "broke the nightly build", "and that was that", "revert" },
	{ "no reason said to be missing", "and no reason was given for that "
	    "one", "too", "revert" },
	{ "an altered focus setting", "WIDGET_CACHE=off", "WIDGET_CACHE=0",
	    "focus" },
	{ "an added URL", "load sooner.", "load sooner, see "
	    "https://example.com/widget for more.", "url" },
	{ "a bare host", "load sooner.", "load sooner, see www.example.com "
	    "today.", "url" },
	{ "an e-mail address", "load sooner.", "load sooner, write to "
	    "ada@example.com today.", "email" },
	{ "a hash", "was rolled back,", "was rolled back in 3f2a9c1d,",
	    "hash" },
	{ "Markdown emphasis", "Ada Lovelace made", "**Ada Lovelace** made",
	    "markdown" },
	{ "a Markdown heading", "Now the rollbacks.", "\n## Rollbacks\n",
	    "markdown" },
	{ "a Markdown list", "Now the rollbacks. ", "\n- ", "markdown" },
	{ "code spans", "the parser", "the `parser`", "markdown" },
	{ "a bot named", "load sooner.", "load sooner, and Dependabot was "
	    "busy as well.", "bot" },
	{ "an added identifier", "load sooner.", "load sooner via "
	    "fast_path.", "identifier" },
	{ "an added camelCase name", "load sooner.", "load sooner via "
	    "fastPath.", "identifier" },
	{ "a comparison with yesterday", "from three people today",
	    "from three people today, more than yesterday", "comparison" },
	{ "an added version", "load sooner.", "load sooner in 2.4.1.",
	    "version" },
	/* issue 25: links without a scheme, tags, a voice's markup */
	{ "a host and a path", "load sooner.", "load sooner, see "
	    "evil-login.com/reset today.", "url" },
	{ "a shortener", "load sooner.", "load sooner: bit.ly/x has it.",
	    "url" },
	{ "a host and a port", "load sooner.", "load sooner on host:8080.",
	    "url" },
	{ "two slashes and a host", "load sooner.", "load sooner, see "
	    "//host/x today.", "url" },
	{ "file:", "load sooner.", "load sooner, see file:///etc/passwd.",
	    "url" },
	{ "a bare domain", "load sooner.", "load sooner, see "
	    "evil-login.com today.", "url" },
	{ "\"e.g.\" is no link", "on large files,", "on large files, e.g. "
	    "logs,", NULL },
	{ "a script tag", "load sooner.", "load sooner. "
	    "<script>alert(1)</script>", "tag" },
	{ "a bold tag", "Ada Lovelace made", "<b>Ada Lovelace</b> made",
	    "tag" },
	{ "an SSML tag", "load sooner.", "load sooner.<break time='3s'/>",
	    "tag" },
	{ "espeak's phonemes", "load sooner.", "load sooner [[h@'loU]].",
	    "tag" },
	{ "an entity", "load sooner.", "load sooner &amp; faster.", "tag" },
	{ "a less-than stays", "load sooner.", "load sooner, in a < b time.",
	    NULL },
	/* item 5: look-alike letters and digits the number check can't read */
	{ "a Cyrillic A in a name", "First up, Ada", "First up, "
	    "\xd0\x90" "da", "script" },
	{ "a Greek Alpha in a name", "First up, Ada", "First up, "
	    "\xce\x91" "da", "script" },
	{ "a Cyrillic o inside a word", "load sooner.", "l\xd0\xbe" "ad "
	    "sooner.", "script" },
	{ "a unit with a Greek mu", "on large files,", "on large files, "
	    "in \xce\xbc" "s,", NULL },
	{ "Arabic-Indic digits", "eleven commits", "\xd9\xa1\xd9\xa1 "
	    "commits", "digits" },
	{ "Devanagari digits", "1.7x faster", "\xe0\xa5\xa7.7x faster",
	    "digits" },
	{ "a fullwidth letter, not NFKC", "First up, Ada", "First up, "
	    "\xef\xbc\xa1" "da", "script" },
	{ "an invented name in another script", "First up, Ada",
	    "First up, with thanks to \xd0\x97\xd0\xb5\xd0\xb1, Ada",
	    "person" },
	{ "too short", NULL, "Hello there, I'll catch you tomorrow.",
	    "too_short" },
	{ "empty", NULL, "", "empty" },
	{ "blanks only", NULL, " \n\n ", "empty" },
};

/* FAITHFUL with from replaced by to (new); to alone when from is NULL. */
static char *
fence_reply(const struct fence_case *c)
{
	const char	*at;
	char		*s;

	if (c->to == NULL)
		return xstrdup(FAITHFUL);
	if (c->from == NULL)
		return xstrdup(c->to);
	if ((at = strstr(FAITHFUL, c->from)) == NULL)
		fail_msg("%s: \"%s\" is not in the faithful reply", c->rule,
		    c->from);
	xasprintf(&s, "%.*s%s%s", (int)(at - FAITHFUL), FAITHFUL, c->to,
	    at + strlen(c->from));
	return s;
}

static struct fence *
fence_base(void)
{
	struct fence_facts	facts;

	memset(&facts, 0, sizeof facts);
	facts.draft = DRAFT;
	facts.focus = "WIDGET_CACHE=off";
	facts.people = people;
	facts.npeople = sizeof people / sizeof people[0];
	facts.bots = bots;
	facts.nbots = sizeof bots / sizeof bots[0];
	facts.reverts = reverts;
	facts.nreverts = sizeof reverts / sizeof reverts[0];
	return fence_new(&facts);
}

static void
test_fence_rows(void **state)
{
	struct fence	*f = fence_base();
	const char	*got;
	char		*reply, *detail;
	size_t		 i, bad = 0;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		reply = fence_reply(&cases[i]);
		got = fence_check(f, reply, &detail);
		if ((got == NULL) != (cases[i].reason == NULL) ||
		    (got != NULL && strcmp(got, cases[i].reason) != 0)) {
			print_message("%s: got %s (%s), want %s\n",
			    cases[i].rule, got != NULL ? got : "accepted",
			    detail != NULL ? detail : "", cases[i].reason !=
			    NULL ? cases[i].reason : "accepted");
			bad++;
		}
		if ((got == NULL) != (detail == NULL))
			fail_msg("%s: a detail only with a reason",
			    cases[i].rule);
		free(detail);
		free(reply);
	}
	assert_int_equal(bad, 0);
	/* the draft passes its own fence */
	assert_null(fence_check(f, DRAFT, NULL));
	fence_free(f);
	fence_free(NULL);
}

static void
test_fence_length(void **state)
{
	struct fence	*f = fence_base();
	struct buf	 b;

	/* twice the draft's words is the most */
	buf_init(&b);
	buf_puts(&b, DRAFT);
	buf_puts(&b, "\n\n");
	buf_puts(&b, DRAFT);
	assert_null(fence_check(f, buf_str(&b), NULL));
	buf_puts(&b, " Bye.");
	assert_string_equal(fence_check(f, buf_str(&b), NULL), "too_long");
	buf_free(&b);
	fence_free(f);
}

/* A revert or focus the draft does not tell is not asked of a reply. */
static void
test_fence_untold(void **state)
{
	static const struct fence_revert more[] = {
		{ "change to the cache", "It broke the nightly build", 0 },
		{ "docs rewrite", NULL, 0 },
		{ "frobnicate the splines", "Flaky on arm64", 0 },
	};
	struct fence_facts	 facts;
	struct fence		*f;

	memset(&facts, 0, sizeof facts);
	facts.draft = DRAFT;
	facts.focus = "WIDGET_SPLINES=1";
	facts.reverts = more;
	facts.nreverts = 3;
	f = fence_new(&facts);
	assert_null(fence_check(f, DRAFT, NULL));
	assert_null(fence_check(f, FAITHFUL, NULL));
	fence_free(f);
}

static void
test_fence_reasons(void **state)
{
	size_t	i, j;

	/* every row's reason is one the metrics know */
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		if (cases[i].reason == NULL)
			continue;
		for (j = 0; fence_reasons[j] != NULL; j++)
			if (strcmp(fence_reasons[j], cases[i].reason) == 0)
				break;
		if (fence_reasons[j] == NULL)
			fail_msg("%s: %s is not in fence_reasons",
			    cases[i].rule, cases[i].reason);
	}
	/* and every reason of the fence is one /metrics counts */
	for (i = 0; fence_reasons[i] != NULL; i++) {
		for (j = 0; llm_reasons[j] != NULL; j++)
			if (strcmp(llm_reasons[j], fence_reasons[i]) == 0)
				break;
		if (llm_reasons[j] == NULL)
			fail_msg("%s is not in llm_reasons", fence_reasons[i]);
	}
	/* each has a counter of its own */
	for (j = 0; llm_reasons[j] != NULL; j++)
		;
	assert_true(j <= METRICS_LLM_REASONS);
}

/*
 * A reply as the daemon fences it: NFKC first (fence_normalize), so a
 * fullwidth letter or digit is the ASCII one; a name of the facts in a
 * script of its own passes written as the facts write it, and one the
 * facts don't hold does not.
 */
static void
test_fence_unicode(void **state)
{
	static const char *const cjk_people[] = {
	    "\xe5\xb1\xb1\xe7\x94\xb0\xe5\xa4\xaa\xe9\x83\x8e",
	    "yamada" };
	static const struct {
		const char	*rule, *from, *to, *reason, *kept;
	} rows[] = {
		{ "a fullwidth name", "First up, Ada", "First up, "
		    "\xef\xbc\xa1" "da", NULL, "First up, Ada" },
		{ "fullwidth digits", "eleven commits", "\xef\xbc\x91"
		    "\xef\xbc\x91 commits", NULL, "11 commits" },
		{ "fullwidth digits that are wrong", "eleven commits",
		    "\xef\xbc\x91\xef\xbc\x92 commits", "number", NULL },
		{ "a CJK name as the facts write it", "First up, Ada",
		    "First up, with help from \xe5\xb1\xb1\xe7\x94\xb0"
		    "\xe5\xa4\xaa\xe9\x83\x8e, Ada", NULL, "\xe5\xb1\xb1" },
		{ "a CJK name the facts don't hold", "First up, Ada",
		    "First up, with help from \xe7\x94\xb0\xe4\xb8\xad"
		    "\xe8\x8a\xb1\xe5\xad\x90, Ada", "person", NULL },
		{ "a CJK name with a Latin letter in it", "First up, Ada",
		    "First up, with help from \xe5\xb1\xb1\xe7\x94\xb0"
		    "\xe5\xa4\xaa\xe9\x83\x8e, \xd0\x90" "da", "script", NULL },
	};
	struct fence_facts	 facts;
	struct fence		*f;
	const char		*at, *got;
	char			*raw, *reply, *detail, *draft;
	size_t			 i;

	(void)state;
	xasprintf(&draft, "%s\n\n\xe5\xb1\xb1\xe7\x94\xb0\xe5\xa4\xaa"
	    "\xe9\x83\x8e reviewed the parser change.", DRAFT);
	memset(&facts, 0, sizeof facts);
	facts.draft = draft;
	facts.focus = "WIDGET_CACHE=off";
	facts.people = cjk_people;
	facts.npeople = 2;
	facts.reverts = reverts;
	facts.nreverts = sizeof reverts / sizeof reverts[0];
	f = fence_new(&facts);
	assert_null(fence_check(f, draft, NULL));
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		at = strstr(FAITHFUL, rows[i].from);
		assert_non_null(at);
		xasprintf(&raw, "%.*s%s%s", (int)(at - FAITHFUL), FAITHFUL,
		    rows[i].to, at + strlen(rows[i].from));
		reply = fence_normalize(raw);
		assert_non_null(reply);
		got = fence_check(f, reply, &detail);
		if ((got == NULL) != (rows[i].reason == NULL) ||
		    (got != NULL && strcmp(got, rows[i].reason) != 0))
			fail_msg("%s: got %s (%s), want %s", rows[i].rule,
			    got != NULL ? got : "accepted",
			    detail != NULL ? detail : "", rows[i].reason !=
			    NULL ? rows[i].reason : "accepted");
		if (rows[i].kept != NULL && strstr(reply, rows[i].kept) == NULL)
			fail_msg("%s: \"%s\" not in \"%s\"", rows[i].rule,
			    rows[i].kept, reply);
		free(detail);
		free(reply);
		free(raw);
	}
	/* not UTF-8: no normal form */
	assert_null(fence_normalize("caf\xe9"));
	fence_free(f);
	free(draft);
}

/* A drafted day: its sheet, and its draft inside its own fence. */
static void
test_fence_episode(void **state)
{
	struct day	*d = day_msg_new("acme/widget");
	struct episode	*ep;
	struct fence	*f;
	const char	*sheet;
	char		*reply;

	day_msg_add(d, "[cache] Add a write-back cache\n\nIt keeps hot "
	    "pages in memory, so reads are 35% faster.\n", REVERTED_SHA, 1,
	    60, "Grace Hopper", "ghopper", "src/cache.c");
	day_msg_add(d, "Revert \"[cache] Add a write-back cache\"\n\nThis "
	    "reverts commit " REVERTED_SHA ".\n\nIt broke the nightly "
	    "build on big-endian hosts.\n", NULL, 2, 120, "Alan Turing",
	    "aturing", "src/cache.c");
	day_msg_add(d, "Add WIDGET_FAST=1 to opt into the new parser\n\n"
	    "Setting WIDGET_FAST=1 makes the parser 1.7x faster on large "
	    "files.\n", NULL, 3, 180, "Ada Lovelace", "ada", "src/parse.c");
	day_msg_add(d, "Bump libfoo from 1.2.0 to 1.3.0\n", NULL, 4, 240,
	    "dependabot[bot]", "dependabot[bot]", "go.mod");
	day_pair_reverts(d);
	ep = day_msg_draft(d);
	f = fence_of_episode(d, ep);
	sheet = fence_sheet(f);
	assert_non_null(strstr(sheet, "Grace Hopper"));
	assert_non_null(strstr(sheet, "Ada Lovelace"));
	assert_non_null(strstr(sheet, "\"revert\""));
	assert_null(strstr(sheet, "dependabot"));
	assert_null(strstr(sheet, REVERTED_SHA));
	assert_null(fence_check(f, ep->transcript, NULL));
	/* the bot named where the draft did not */
	xasprintf(&reply, "%s Thanks, Dependabot.", ep->transcript);
	assert_string_equal(fence_check(f, reply, NULL), "bot");
	free(reply);
	fence_free(f);
	episode_free(ep);
	day_free(d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fence_rows),
		cmocka_unit_test(test_fence_length),
		cmocka_unit_test(test_fence_untold),
		cmocka_unit_test(test_fence_unicode),
		cmocka_unit_test(test_fence_reasons),
		cmocka_unit_test(test_fence_episode),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
