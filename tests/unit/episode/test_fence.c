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

#define NELEM(v)	(sizeof(v) / sizeof((v)[0]))

/*
 * The fence of a sheet (fence_of_sheet), judged sentence by sentence
 * (fence_judge). A small day made by hand: Ada Lovelace's parser speedup
 * (the lead) and her crash fix; Grace Hopper's write-back cache, reverted
 * by Alan Turing at Ada's request with a reason; Linus Torvalds' release
 * 2.4.0 (pull request 7757), merged by Ada; a bot's bump; nine commits
 * from four people; the Focus WIDGET_CACHE=off. A row is the draft with
 * one sentence changed or added, and what the fence must make of it:
 * "used", "dropped:REASON" (the reply told without that sentence) or
 * "refused:REASON".
 */
#define STORY_DRAFT \
	"Hello and welcome to widget, this June 30th, 2026. Nine commits " \
	"landed from four people today.\n\n" \
	"Ada Lovelace made the parser 1.7x faster on large files, in pull " \
	"request 7741, so big inputs load sooner. She also fixed a crash in " \
	"Node.__dict__ when the parser reads an empty file.\n\n" \
	"Grace Hopper added a write-back cache, but it was reverted by Alan " \
	"Turing at Ada Lovelace's request. The reason given: \"It broke the " \
	"nightly build on big-endian hosts.\"\n\n" \
	"Linus Torvalds released Widget 2.4.0 in pull request 7757, merged " \
	"by Ada Lovelace.\n\n" \
	"A bot bumped libfoo from 1.2.0 to 1.3.0.\n\n" \
	"Today's Focus: to keep the old write path, set WIDGET_CACHE=off." \
	"\n\n" \
	"That's all for today. I'll catch you tomorrow."

static struct sheet_person story_ada[] = {
	{ "Ada Lovelace", "ada", SHEET_AUTHOR },
};
static struct sheet_person story_grace[] = {
	{ "Grace Hopper", "ghopper", SHEET_AUTHOR },
};
/* Ada asked for the revert; Alan carried it out */
static struct sheet_person story_alan[] = {
	{ "Alan Turing", "aturing", SHEET_REVERTER },
	{ "Ada Lovelace", "ada", SHEET_REQUESTER },
};
static struct sheet_person story_linus[] = {
	{ "Linus Torvalds", "torvalds", SHEET_AUTHOR },
	{ "Ada Lovelace", "ada", SHEET_MERGER },
};
static struct sheet_figure story_speedup[] = {
	{ "1.7x", "parser faster on large files" },
};
static char *story_release[] = { "2.4.0" };
static char *story_bump[] = { "1.2.0", "1.3.0" };
static char *story_setting[] = { "WIDGET_CACHE=off" };
static char *story_people[] = {
	"Ada Lovelace", "ada", "Grace Hopper", "ghopper", "Alan Turing",
	"aturing", "Linus Torvalds", "torvalds",
};
static char *story_bots[] = { "dependabot[bot]", "Dependabot" };

#define SHA(c)	c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c \
	c c c c c c c c c c

static struct sheet_story story_stories[] = {
	{ .id = "s1", .kind = "performance", .sha = SHA("1"), .pr = 7741,
	    .what = "make the parser 1.7x faster on large files",
	    .area = "parser", .people = story_ada, .npeople = 1,
	    .figures = story_speedup, .nfigures = 1, .required = 1,
	    .lead = 1 },
	{ .id = "s2", .kind = "fix", .sha = SHA("2"), .pr = 7745,
	    .what = "fix a crash in Node.__dict__ when the parser reads an "
	    "empty file", .area = "parser", .people = story_ada,
	    .npeople = 1 },
	{ .id = "s3", .kind = "feature", .sha = SHA("3"), .pr = 7750,
	    .what = "add a write-back cache", .area = "cache",
	    .people = story_grace, .npeople = 1, .reverted = 1 },
	{ .id = "s4", .kind = "revert", .sha = SHA("4"), .pr = 7752,
	    .what = "revert the write-back cache", .area = "cache",
	    .people = story_alan, .npeople = 2, .settings = story_setting,
	    .nsettings = 1, .is_revert = 1,
	    .revert_of = "add a write-back cache",
	    .revert_reason = "It broke the nightly build on big-endian hosts",
	    .required = 1 },
	{ .id = "s5", .kind = "change", .sha = SHA("5"), .pr = 7757,
	    .what = "Widget 2.4.0", .people = story_linus, .npeople = 2,
	    .versions = story_release, .nversions = 1 },
	{ .id = "s6", .kind = "dependencies", .sha = SHA("6"),
	    .what = "bump libfoo from 1.2.0 to 1.3.0", .bot = 1,
	    .versions = story_bump, .nversions = 2 },
};

static struct sheet story_sheet = {
	.show = "widget", .repository = "acme/widget", .date = "2026-06-30",
	.counts = { .commits = 9, .merged_prs = 5, .reverts = 1,
	    .authors = 4, .pushes = 12 },
	.focus = "WIDGET_CACHE=off", .draft = STORY_DRAFT,
	.stories = story_stories, .nstories = NELEM(story_stories),
	.people = story_people, .npeople = NELEM(story_people),
	.bots = story_bots, .nbots = NELEM(story_bots),
};

struct story_case {
	const char	*rule;
	const char	*name;
	const char	*from, *to;	/* STORY_DRAFT with from made to */
	const char	*want;		/* used, dropped:R, refused:R */
	const char	*gone;		/* dropped: not in the text (to);
					   refused: in the detail */
};

#define LEAD	"Ada Lovelace made the parser 1.7x faster on large files, " \
	"in pull request 7741, so big inputs load sooner."
#define REVERT	"Grace Hopper added a write-back cache, but it was " \
	"reverted by Alan Turing at Ada Lovelace's request."
#define REASON	"The reason given: \"It broke the nightly build on " \
	"big-endian hosts.\""
#define RELEASE	"Linus Torvalds released Widget 2.4.0 in pull request " \
	"7757, merged by Ada Lovelace."
#define BYE	"That's all for today."

static const struct story_case story_cases[] = {
	{ "draft", "the draft itself", NULL, NULL, "used", NULL },
	/* owner: a person named owns a story the sentence tells */
	{ "owner", "the release credited to Grace", RELEASE,
	    "Grace Hopper released Widget 2.4.0 in pull request 7757.",
	    "dropped:owner", NULL },
	{ "owner", "the lead credited to Linus", LEAD,
	    "Linus Torvalds made the parser 1.7x faster on large files.",
	    "refused:owner", NULL },
	{ "owner", "a fix from Ada, who wrote one (near miss)", RELEASE,
	    RELEASE " And there was a fix from Ada Lovelace for the parser.",
	    "used", NULL },
	{ "owner", "the release's merger named (near miss)", RELEASE,
	    "Ada Lovelace merged Linus Torvalds' release of Widget 2.4.0 in "
	    "pull request 7757.", "used", NULL },
	{ "owner", "the crash fix credited to Ada's login (near miss)",
	    BYE, "That fix was ada's too. " BYE, "used", NULL },
	/* who asked for the revert */
	{ "asker", "the revert asked for by Linus", BYE,
	    "Linus Torvalds asked for the cache's revert. " BYE,
	    "dropped:owner", "Linus Torvalds asked" },
	{ "asker", "the revert asked for by Grace", BYE,
	    "Grace Hopper requested that the write-back cache be reverted. "
	    BYE, "dropped:owner", "Grace Hopper requested" },
	{ "asker", "at Ada's request (near miss)", BYE,
	    "Alan Turing reverted the write-back cache at Ada's request. "
	    BYE, "used", NULL },
	/* version: the story's own, however written */
	{ "version", "the bot's version on the release", RELEASE,
	    "Linus Torvalds released Widget 1.3.0 in pull request 7757.",
	    "dropped:owner", NULL },	/* read as the bot's story: not his */
	{ "version", "the bot's version, no person", RELEASE,
	    "The Widget release is version 1.3.0.", "dropped:figure", NULL },
	{ "version", "a version of no story", RELEASE,
	    "Linus Torvalds released Widget 2.5.0 in pull request 7757.",
	    "dropped:version", NULL },
	{ "version", "v2.4.0 (near miss)", "Widget 2.4.0", "Widget v2.4.0",
	    "used", NULL },
	{ "version", "2.4 (near miss)", "Widget 2.4.0", "Widget 2.4", "used",
	    NULL },
	{ "version", "version 2.4.0 (near miss)", "Widget 2.4.0",
	    "Widget version 2.4.0", "used", NULL },
	/* figure: its story's, with a word of what it measures */
	{ "figure", "the speedup on the cache", RELEASE,
	    RELEASE " The write-back cache was 1.7x larger.",
	    "dropped:figure", "1.7x larger" },
	{ "figure", "the figure alone", "load sooner.",
	    "load sooner. That is 1.7x.", "dropped:figure", "That is 1.7x." },
	{ "figure", "the figure with what it measures (near miss)",
	    "load sooner.", "load sooner. The parser is 1.7x faster now.",
	    "used", NULL },
	/* count: every count said is the day's */
	{ "count", "twelve commits", "Nine commits", "Twelve commits",
	    "dropped:count", "Twelve commits" },
	{ "count", "five commits (the merged pull requests)", "Nine commits",
	    "Five commits", "dropped:count", "Five commits" },
	{ "count", "five people", "from four people", "from five people",
	    "dropped:count", "five people" },
	{ "count", "9 commits (near miss)", "Nine commits", "9 commits",
	    "used", NULL },
	{ "count", "a per-person count (near miss)", "load sooner.",
	    "load sooner. Two of the day's changes came from Ada.", "used",
	    NULL },
	/* revert: said only of work that was */
	{ "revert", "Ada's faster parser rolled back", BYE,
	    "Ada's change that made the parser faster on large files was "
	    "rolled back. " BYE, "dropped:revert", "was rolled back" },
	{ "revert", "the revert itself rolled back", BYE,
	    "The revert was rolled back later that day. " BYE,
	    "dropped:revert", "The revert was rolled back" },
	/* a sentence that names a story by one word of it */
	{ "revert", "the parser speedup rolled back", BYE,
	    "The parser speedup was rolled back later. " BYE,
	    "dropped:revert", "parser speedup" },
	{ "revert", "Ada's parser speedup reverted", BYE,
	    "Ada Lovelace's parser speedup was reverted. " BYE,
	    "dropped:revert", "parser speedup" },
	/* the revert said to be taken out, told by no word of it */
	{ "revert", "then the revert itself rolled back", BYE,
	    "Then the revert was itself rolled back. " BYE,
	    "dropped:revert", "itself rolled back" },
	{ "revert", "the revert of the cache then reverted", BYE,
	    "The revert of the cache was then reverted. " BYE,
	    "dropped:revert", "then reverted" },
	/* what was taken out is told where it is said to be */
	{ "revert", "the revert told by its reason alone", REVERT " ",
	    "", "refused:revert", NULL },
	{ "revert", "one change rolled back, named by none (near miss)",
	    "load sooner.", "load sooner, and one change was rolled back "
	    "along the way.", "used", NULL },
	{ "revert", "the cache rolled back (near miss)", BYE,
	    "So the write-back cache is out for now. " BYE, "used", NULL },
	/* reason: a revert's reason is the story's */
	{ "reason", "an invented reason added", REASON,
	    REASON " It was reverted because the tests were flaky on "
	    "windows.", "dropped:reason", "flaky" },
	{ "reason", "an invented reason for the cache", BYE,
	    "The cache was pulled because it doubled memory use. " BYE,
	    "dropped:reason", "doubled memory" },
	{ "reason", "the reason replaced by an invented one", REASON,
	    "The reason given: it made the tests flaky on windows.",
	    "refused:revert", NULL },	/* the true reason is lost */
	{ "reason", "the true reason in other words (near miss)", REASON,
	    "It was pulled because the nightly build broke on big-endian "
	    "hosts.", "used", NULL },
	{ "reason", "a leaning sentence carries it (near miss)", REASON,
	    "It broke the nightly build on big-endian hosts.", "used", NULL },
	{ "reason", "a shorter leaning sentence (near miss)", REASON,
	    "It broke the nightly build.", "used", NULL },
	{ "reason", "a leaning sentence too vague to be the reason", REASON,
	    "It broke the build.", "refused:revert", NULL },
	/* claim: a warning a story's facts hold */
	{ "claim", "a security hole", BYE,
	    "The new release also closes a security hole. " BYE,
	    "dropped:claim", "security hole" },
	{ "claim", "advice to uninstall", BYE,
	    "If you use the cache, uninstall widget for now. " BYE,
	    "dropped:claim", "uninstall" },
	{ "claim", "a crash the cache never had", REASON,
	    REASON " The write-back cache made the daemon crash.",
	    "dropped:claim", "made the daemon crash" },
	{ "claim", "the crash fix's crash (near miss)", BYE,
	    "That crash fix means empty files no longer take the parser "
	    "down. " BYE, "used", NULL },
	/* focus: quoted exactly, never contradicted */
	{ "focus", "the setting changed", "WIDGET_CACHE=off.",
	    "WIDGET_CACHE=on.", "refused:focus", NULL },
	{ "focus", "the setting negated in another sentence", BYE,
	    "But don't set WIDGET_CACHE=off. " BYE, "dropped:focus",
	    "don't set" },
	/* words: no link, name, script or digit the facts don't hold */
	{ "url", "a spelled url", BYE,
	    "Read more at example dot com slash login. " BYE,
	    "dropped:url", "example dot com" },
	{ "person", "an unknown name", BYE,
	    "Zebulon Quartermaine reviewed the release. " BYE,
	    "dropped:person", "Zebulon" },
	{ "person", "an unknown name in lower case", BYE,
	    "zebulon fixed the docs as well. " BYE, "dropped:person",
	    "zebulon" },
	{ "person", "an unknown name mid-sentence", BYE,
	    "The docs were fixed by zebulon as well. " BYE, "dropped:person",
	    "zebulon" },
	{ "script", "a Cyrillic A in Ada", LEAD,
	    LEAD " \xd0\x90" "da Lovelace also tuned the lexer.",
	    "dropped:script", "tuned the lexer" },
	{ "digits", "Arabic-Indic digits", BYE,
	    "The build took \xd9\xa9\xd9\xa9 seconds. " BYE,
	    "dropped:digits", "seconds" },
	{ "number", "#7757 (near miss)", "pull request 7757", "#7757",
	    "used", NULL },
	{ "number", "pull request #7757 (near miss)", "pull request 7757",
	    "pull request #7757", "used", NULL },
	{ "number", "pull request 7758", RELEASE,
	    "Linus Torvalds released Widget 2.4.0 in pull request 7758.",
	    "dropped:number", NULL },
	{ "markdown", "__dict__ of the facts (near miss)", BYE,
	    "The fix was in __dict__ on empty files. " BYE, "used", NULL },
	/* repair: a bad sentence in a transition is dropped */
	{ "repair", "a bad transition dropped", BYE,
	    "Now, as Zebulon likes to say, on to the rest. " BYE,
	    "dropped:person", "Zebulon" },
	{ "repair", "the only telling of the revert is bad", REVERT " " REASON,
	    "Grace Hopper's write-back cache was reverted at Zebulon's "
	    "request, because it broke the nightly build on big-endian "
	    "hosts.", "refused:person", NULL },
	{ "repair", "the revert and its reason left out", REVERT " " REASON,
	    "", "refused:revert", NULL },
	{ "repair", "the lead left out", LEAD " ", "", "refused:lead",
	    NULL },
	{ "repair", "too short after dropping", NULL,
	    REVERT " " REASON " Today's Focus: set WIDGET_CACHE=off. Zebulon "
	    "says hi, and so do Zebulon's friends and all of Zebulon's "
	    "colleagues at the big Zebulon company in the Zebulon valley, "
	    "from the Zebulon river and the hills of Zebulon to the sea.",
	    "refused:too_short", NULL },
	{ "repair", "too short only without the bad sentence", NULL,
	    LEAD " " REVERT " " REASON " Today's Focus: set WIDGET_CACHE=off. "
	    "Zebulon says hi, and so do Zebulon's friends and all of "
	    "Zebulon's colleagues at the big Zebulon company in the Zebulon "
	    "valley.", "refused:person", "under half the draft's words" },
};

/* STORY_DRAFT with from made to (new); to alone when from is NULL. */
static char *
story_reply(const struct story_case *c)
{
	const char	*at;
	char		*s;

	if (c->to == NULL)
		return xstrdup(STORY_DRAFT);
	if (c->from == NULL)
		return xstrdup(c->to);
	if ((at = strstr(STORY_DRAFT, c->from)) == NULL)
		fail_msg("%s: \"%s\" is not in the draft", c->name, c->from);
	xasprintf(&s, "%.*s%s%s", (int)(at - STORY_DRAFT), STORY_DRAFT,
	    c->to, at + strlen(c->from));
	return s;
}

/* What the verdict says, as a row wants it (new). */
static char *
story_got(const struct fence_verdict *v)
{
	char	*s;

	if (v->refused != NULL)
		xasprintf(&s, "refused:%s", v->refused);
	else if (v->ndropped > 0)
		xasprintf(&s, "dropped:%s", v->dropped[0].reason);
	else
		s = xstrdup("used");
	return s;
}

static void
test_fence_story_rows(void **state)
{
	struct fence		*f = fence_of_sheet(&story_sheet);
	struct fence_verdict	 v;
	const struct story_case	*c;
	const char		*gone;
	char			*reply, *got;
	size_t			 i, k, bad = 0;
	int			 ok;

	for (i = 0; i < NELEM(story_cases); i++) {
		c = &story_cases[i];
		reply = story_reply(c);
		fence_judge(f, reply, &v);
		got = story_got(&v);
		ok = strcmp(got, c->want) == 0;
		/* what is told: all of it, or all but the one dropped */
		if (ok && v.refused == NULL) {
			ok = v.text != NULL && v.detail == NULL;
			if (ok && v.ndropped == 0)
				ok = strcmp(v.text, reply) == 0;
			else if (ok) {
				gone = c->gone != NULL ? c->gone : c->to;
				ok = v.ndropped == 1 &&
				    strstr(v.text, gone) == NULL &&
				    strstr(v.dropped[0].sentence, gone) != NULL;
			}
		} else if (ok)
			ok = v.text == NULL && v.detail != NULL &&
			    (c->gone == NULL || strstr(v.detail, c->gone) !=
			    NULL);
		if (!ok) {
			print_message("[%s] %s: got %s (%s), want %s\n",
			    c->rule, c->name, got, v.detail != NULL ? v.detail :
			    v.ndropped > 0 && v.dropped[0].detail != NULL ?
			    v.dropped[0].detail : "", c->want);
			for (k = 0; k < v.ndropped; k++)
				print_message("\tdropped (%s): %s\n",
				    v.dropped[k].reason, v.dropped[k].sentence);
			bad++;
		}
		free(got);
		fence_verdict_clear(&v);
		free(reply);
	}
	print_message("%zu of %zu story rows as wanted\n",
	    NELEM(story_cases) - bad, NELEM(story_cases));
	assert_int_equal(bad, 0);
	fence_free(f);
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
		cmocka_unit_test(test_fence_story_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
