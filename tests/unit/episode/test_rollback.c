/*
 * Unit tests for episode/rollback.c: the work a revert wrapper names, and
 * reverts and re-lands of work an earlier episode told, named from the
 * archive's work (episode/earlier.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "day.h"
#include "draft_int.h"
#include "episode.h"
#include "record.h"
#include "xmalloc.h"

#include "day_msg.h"

/* rollback_peel: what the reverted change did, never the wrapper. */
static void
test_peel(void **state)
{
	static const struct {
		const char	*rule, *subject, *want; /* want NULL: none */
	} cases[] = {
		{ "conventional wrapper", "fix: revert, \"fix: resolve the "
		    "root instead of cwd (#22757)\"",
		    "resolve the root instead of cwd" },
		{ "git revert", "Revert \"tool: add a retry delay\"",
		    "add a retry delay" },
		{ "with a PR suffix", "Revert \"LowBitPacking kernels on x86 "
		    "(#3807)\" (#3875)", "LowBitPacking kernels on x86" },
		{ "revert of a revert", "Revert \"Revert \"add the cache\"\"",
		    "add the cache" },
		{ "reapply", "Reapply \"[x] add the cache\"", "add the cache" },
		{ "no wrapper", "fix: escape ids", NULL },
		{ "revert in a sentence", "docs: explain how to revert a "
		    "release", NULL },
		{ "unclosed quote", "Revert \"add the cache",
		    "add the cache" },
	};
	size_t	 i;
	char	*s;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		s = rollback_peel(cases[i].subject);
		if (cases[i].want == NULL) {
			if (s != NULL)
				fail_msg("%s: got \"%s\"", cases[i].rule, s);
		} else if (s == NULL || strcmp(s, cases[i].want) != 0)
			fail_msg("%s: got \"%s\", want \"%s\"", cases[i].rule,
			    s != NULL ? s : "(null)", cases[i].want);
		free(s);
	}
}

#define ALICE_SHA	"a11ce0000000000000000000000000000000cafe"
#define REVERT_SHA	"2e7e270000000000000000000000000000000bad"

/* A day of one commit by Bob Ross (March 4th, 2026), drafted with opts. */
static struct episode *
rollback_draft(const char *msg, const struct episode_work *earlier,
    size_t nearlier, int year, int month, int mday)
{
	struct episode_opts	 o;
	struct episode		*ep;
	struct day		*d = day_new("o/r", 1772582400);

	d->end = d->start + 86400;
	day_msg_add(d, msg, NULL, 0xb0b, 60, "Bob Ross", "bross", "src/x.c");
	day_pair_reverts(d);
	memset(&o, 0, sizeof o);
	o.year = year;
	o.month = month;
	o.mday = mday;
	o.earlier = earlier;
	o.nearlier = nearlier;
	ep = episode_draft(d, &o);
	day_free(d);
	return ep;
}

/* The text of an episode's rollbacks segment, or "". */
static const char *
rollback_text(const struct episode *ep)
{
	size_t	i;

	for (i = 0; i < ep->nsegments; i++)
		if (strcmp(ep->segments[i].kind, "rollbacks") == 0)
			return ep->segments[i].text;
	return "";
}

/* A revert or re-land of earlier work: named from the archive, or not. */
static void
test_earlier_work(void **state)
{
	static const char revert[] = "Revert \"Add the cache\"\n\n"
	    "This reverts commit " ALICE_SHA ".\n";
	static const char reland[] = "Reapply \"Add the cache\"\n\n"
	    "This reverts commit " REVERT_SHA ".\n";
	static const struct {
		const char	*rule, *msg;
		const char	*date;	/* of the archived work; NULL: none */
		const char	*sha;	/* archived under; NULL: ALICE_SHA */
		int		 bot, mday;	/* the day told, in March 2026 */
		const char	*has, *hasnt;
	} cases[] = {
		{ "yesterday's work", revert, "2026-03-03", NULL, 0, 4,
		    "Alice Liddell's change from yesterday, which added the "
		    "cache, was rolled back. Bob Ross reverted it.",
		    "An earlier change" },
		{ "within the week: the weekday", revert, "2026-03-02", NULL,
		    0, 4, "Alice Liddell's change from Monday, which added "
		    "the cache, was rolled back.", "yesterday" },
		{ "older: the date", revert, "2026-02-20", NULL, 0, 4,
		    "Alice Liddell's change from February 20th, which added "
		    "the cache,", NULL },
		{ "an earlier episode of the same date", revert,
		    "2026-03-04", NULL, 0, 4, "Alice Liddell's change from "
		    "earlier today", NULL },
		{ "a bot's work is not named", revert, "2026-03-03", NULL, 1,
		    4, "An automated change from yesterday, which added the "
		    "cache, was rolled back.", "Alice" },
		{ "the revert's title is no reason", revert, "2026-03-03",
		    NULL, 0, 4, "No reason was given.", "The reason given" },
		{ "not in the archive: as before", revert, NULL, NULL, 0, 4,
		    "An earlier change, which added the cache, was rolled "
		    "back.", "Alice" },
		{ "archived after the day told: not named", revert,
		    "2026-03-05", NULL, 0, 4, "An earlier change", "Alice" },
		{ "a re-land says when its revert was", reland, "2026-03-02",
		    REVERT_SHA, 0, 4, "Bob Ross re-landed the work to add "
		    "the cache, which had been rolled back on Monday.",
		    "before today" },
		{ "a re-land of a revert not archived", reland, NULL, NULL, 0,
		    4, "which had been rolled back before today.", NULL },
	};
	struct episode_work	 w;
	struct episode		*ep;
	const char		*text;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		memset(&w, 0, sizeof w);
		w.sha = (char *)(cases[i].sha != NULL ? cases[i].sha :
		    ALICE_SHA);
		w.date = (char *)cases[i].date;
		w.name = (char *)"Alice Liddell";
		w.what = (char *)"Add the cache";
		w.bot = cases[i].bot;
		if (cases[i].sha != NULL)
			w.reverts = (char *)ALICE_SHA;
		ep = rollback_draft(cases[i].msg, &w,
		    cases[i].date != NULL ? 1 : 0, 2026, 3, cases[i].mday);
		text = rollback_text(ep);
		if (strstr(text, cases[i].has) == NULL)
			fail_msg("%s: \"%s\" not in \"%s\"", cases[i].rule,
			    cases[i].has, text);
		if (cases[i].hasnt != NULL &&
		    strstr(text, cases[i].hasnt) != NULL)
			fail_msg("%s: \"%s\" in \"%s\"", cases[i].rule,
			    cases[i].hasnt, text);
		episode_free(ep);
	}
}

/*
 * A revert whose own subject says what it did is the reverter's act of
 * the day ("Eliza Weisman reverted #7757 to fix regression in
 * spawn_blocking"), never "An earlier change, which reverted #7757 ...,
 * was rolled back"; a wrapper around the reverted work's title, or work
 * the archive or the day names, is still told as that work rolled back.
 */
static void
test_own_sentence(void **state)
{
	/* tokio-rs/tokio 56aaa43e91, April 16th, 2026 */
	static const char tokio[] = "rt: revert #7757 to fix regression in "
	    "`spawn_blocking` (#8057)\n\nThis reverts commit "
	    ALICE_SHA ".\n\nUnfortunately, this commit introduced a "
	    "regression that causes programs\nusing `spawn_blocking` to hang "
	    "(see #8056).\n\nFixes #8056\n";
	static const char conv[] = "revert: add the cache\n\n"
	    "This reverts commit " ALICE_SHA ".\n";
	static const char git[] = "Revert \"Add the cache\"\n\n"
	    "This reverts commit " ALICE_SHA ".\n";
	static const char why[] = "Revert \"Add the cache\"\n\n"
	    "This reverts commit " ALICE_SHA ".\n\nIt broke the build.\n";
	static const struct {
		const char	*rule, *msg;
		int		 archived, sameday;
		const char	*has, *hasnt;
	} cases[] = {
		{ "revert to fix: the reverter's act", tokio, 0, 0,
		    "Bob Ross reverted number 7757 to fix regression in",
		    "An earlier change" },
		{ "revert to fix: said once who did it", tokio, 0, 0,
		    "The reason given: \"Unfortunately, this commit "
		    "introduced a regression", "reverted it." },
		{ "revert to fix of archived work: that work rolled back",
		    tokio, 1, 0, "Alice Liddell's change from yesterday, "
		    "which added the cache, was rolled back. Bob Ross "
		    "reverted it.", "reverted number 7757" },
		{ "revert to fix of the day's work: that work rolled back",
		    tokio, 0, 1, "Alice Liddell's change to add the cache "
		    "landed and was rolled back the same day.",
		    "reverted number 7757" },
		{ "near miss: a conventional revert is the work's title",
		    conv, 0, 0, "An earlier change, which added the cache, "
		    "was rolled back. Bob Ross reverted it.", "Bob Ross "
		    "reverted add" },
		{ "near miss: git's wrapper", git, 0, 0, "An earlier change, "
		    "which added the cache, was rolled back. Bob Ross "
		    "reverted it.", NULL },
		{ "near miss: git's wrapper with a reason", why, 0, 0,
		    "was rolled back. Bob Ross reverted it. The reason "
		    "given: \"It broke the build.\"", NULL },
	};
	struct episode_opts	 o;
	struct episode_work	 w;
	struct episode		*ep;
	struct day		*d;
	const char		*text;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		d = day_new("o/r", 1772582400);
		d->end = d->start + 86400;
		if (cases[i].sameday)
			day_msg_add(d, "Add the cache", ALICE_SHA, 0, 30,
			    "Alice Liddell", "alice", "src/x.c");
		day_msg_add(d, cases[i].msg, NULL, 0xb0b, 60, "Bob Ross",
		    "bross", "src/x.c");
		day_pair_reverts(d);
		memset(&w, 0, sizeof w);
		w.sha = (char *)ALICE_SHA;
		w.date = (char *)"2026-03-03";
		w.name = (char *)"Alice Liddell";
		w.what = (char *)"Add the cache";
		memset(&o, 0, sizeof o);
		o.year = 2026;
		o.month = 3;
		o.mday = 4;
		o.earlier = &w;
		o.nearlier = cases[i].archived ? 1 : 0;
		ep = episode_draft(d, &o);
		day_free(d);
		text = rollback_text(ep);
		if (strstr(text, cases[i].has) == NULL)
			fail_msg("%s: \"%s\" not in \"%s\"", cases[i].rule,
			    cases[i].has, text);
		if (cases[i].hasnt != NULL &&
		    strstr(text, cases[i].hasnt) != NULL)
			fail_msg("%s: \"%s\" in \"%s\"", cases[i].rule,
			    cases[i].hasnt, text);
		episode_free(ep);
	}
}

#define ROCM_SHA	"d96c6a79adcf1f4fa127b0cd7f762921bb951c8a"
#define SKIP_SHA	"a1c67b98905e81e51d56c1558742ca7e0fff49c1"

/* A commit of a sitting's day: its message, sha, when, by whom. */
struct sit_commit {
	const char	*msg, *sha;
	size_t		 at;
	const char	*name;
};

/*
 * The reverts one person made minutes apart of one author's work or of
 * one thing are one story (pytorch/ao, January 17th, 2025: andrewor14
 * reverted "Enable ROCM in CI" and "Skip Unit Tests for ROCm CI" 38
 * seconds apart), never "And a second story of the same kind."; reverts
 * hours apart, of different things or by different people stay apart.
 */
static void
test_sitting(void **state)
{
	static const char rev_skip[] = "Revert \"Skip Unit Tests for ROCm "
	    "CI\" (#1580)\n\nRevert \"Skip Unit Tests for ROCm CI "
	    "(#1563)\"\n\nThis reverts commit " SKIP_SHA ".\n";
	static const char rev_rocm[] = "Revert \"Enable ROCM in CI\" "
	    "(#1583)\n\nRevert \"Enable ROCM in CI (#999)\"\n\nThis "
	    "reverts commit " ROCM_SHA ".\n";
	/* vitejs/vite, June 30th, 2026 */
	static const char rev_ids[] = "fix: revert, \"fix: escape ids with "
	    "multiple null bytes (#22687)\"\n\nThis reverts commit "
	    SKIP_SHA ".\n";
	static const char rev_pnpm[] = "fix: revert, \"fix: resolve pnpm "
	    ".modules.yaml from workspace root instead of cwd (#22757)\"\n\n"
	    "This reverts commit " ROCM_SHA ".\n";
	/* the shape of pytorch/pytorch's reverts (April 4th, 2026) */
	static const char auto_b[] = "Revert \"[dynamo] Route len() through "
	    "len_impl (#170002)\"\n\nThis reverts commit " SKIP_SHA ".\n\n"
	    "Reverted https://github.com/pytorch/pytorch/pull/170002 on "
	    "behalf of https://github.com/pytorch-auto-revert due to Reverted "
	    "automatically by pytorch's autorevert, to avoid this behaviour "
	    "add the tag autorevert: disable ([comment](https://x/1))\n";
	static const char auto_a[] = "Revert \"[dynamo] Add a len_impl slot "
	    "to VariableTracker (#170001)\"\n\nThis reverts commit " ROCM_SHA
	    ".\n\nReverted https://github.com/pytorch/pytorch/pull/170001 on "
	    "behalf of https://github.com/pytorch-auto-revert due to Reverted "
	    "automatically by pytorch's autorevert, to avoid this behaviour "
	    "add the tag autorevert: disable ([comment](https://x/2))\n";
	static const struct {
		const char		*rule;
		struct sit_commit	 c[4];
		const char		*has, *hasnt;
		int			 reasons;	/* "No reason" said */
	} cases[] = {
		{ "one reverter, one thing, seconds apart: one story", {
		    { "Enable ROCM in CI (#999)", ROCM_SHA, 100,
		      "Mark Saroufim" },
		    { "Skip Unit Tests for ROCm CI (#1563)", SKIP_SHA, 400,
		      "Peter Yeh" },
		    { rev_skip, NULL, 12665, "andrewor14" },
		    { rev_rocm, NULL, 12703, "andrewor14" } },
		    "andrewor14 reverted two related changes within a minute "
		    "of each other. Peter Yeh's change to skip Unit Tests for "
		    "ROCm CI landed and was rolled back the same day. Mark "
		    "Saroufim's change to enable ROCM in CI went the same "
		    "way. No reason was given.", "second story", 1 },
		{ "one author's work, minutes apart: one story", {
		    { "Add the cache", ROCM_SHA, 100, "Alice Liddell" },
		    { "Drop the old loader", SKIP_SHA, 400, "Alice Liddell" },
		    { rev_skip, NULL, 9000, "Bob Ross" },
		    { rev_rocm, NULL, 9400, "Bob Ross" } },
		    "Bob Ross reverted two related changes within seven "
		    "minutes.", "There was another", 1 },
		{ "one author's series reverted automatically: one story", {
		    { "[dynamo] Add a len_impl slot to VariableTracker "
		      "(#170001)", ROCM_SHA, 100, "Guilherme Leobas" },
		    { "[dynamo] Route len() through len_impl (#170002)",
		      SKIP_SHA, 200, "Guilherme Leobas" },
		    { auto_b, NULL, 9000, "pytorchmergebot" },
		    { auto_a, NULL, 9060, "pytorchmergebot" } },
		    "Two related changes were reverted automatically, within "
		    "a minute of each other. Guilherme Leobas's change to "
		    "route len through len impl landed and was rolled back "
		    "the same day. The change to add a len impl slot to "
		    "Variable Tracker went the same way.",
		    "It was an automatic revert", 0 },
		{ "near miss: different things an hour apart", {
		    { "fix: escape ids with multiple null bytes (#22687)",
		      SKIP_SHA, 100, "Sujal Shah" },
		    { rev_ids, NULL, 7000, "sapphi-red" },
		    { rev_pnpm, NULL, 10506, "sapphi-red" },
		    { NULL, NULL, 0, NULL } },
		    "Sujal Shah's change to escape ids with multiple null "
		    "bytes landed and was rolled back the same day. "
		    "sapphi-red reverted it.", "related", 2 },
		{ "near miss: different things minutes apart", {
		    { rev_ids, NULL, 7000, "sapphi-red" },
		    { rev_pnpm, NULL, 7100, "sapphi-red" },
		    { NULL, NULL, 0, NULL }, { NULL, NULL, 0, NULL } },
		    "sapphi-red reverted it.", "related", 2 },
		{ "near miss: one thing, two reverters", {
		    { "Enable ROCM in CI (#999)", ROCM_SHA, 100,
		      "Mark Saroufim" },
		    { "Skip Unit Tests for ROCm CI (#1563)", SKIP_SHA, 400,
		      "Peter Yeh" },
		    { rev_skip, NULL, 12665, "andrewor14" },
		    { rev_rocm, NULL, 12703, "Jerry Zhang" } },
		    "Jerry Zhang reverted it.", "related", 2 },
		{ "near miss: one thing, hours apart", {
		    { "Enable ROCM in CI (#999)", ROCM_SHA, 100,
		      "Mark Saroufim" },
		    { "Skip Unit Tests for ROCm CI (#1563)", SKIP_SHA, 400,
		      "Peter Yeh" },
		    { rev_skip, NULL, 12665, "andrewor14" },
		    { rev_rocm, NULL, 30000, "andrewor14" } },
		    "andrewor14 reverted it.", "related", 2 },
	};
	struct episode_opts	 o;
	struct episode		*ep;
	struct day		*d;
	const char		*text, *p;
	size_t			 i, j;
	int			 n;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		d = day_new("o/r", 1772582400);
		d->end = d->start + 86400;
		for (j = 0; j < 4 && cases[i].c[j].msg != NULL; j++)
			day_msg_add(d, cases[i].c[j].msg, cases[i].c[j].sha,
			    0xb00 + j, cases[i].c[j].at, cases[i].c[j].name,
			    cases[i].c[j].name, "src/x.c");
		day_pair_reverts(d);
		memset(&o, 0, sizeof o);
		o.year = 2026;
		o.month = 3;
		o.mday = 4;
		ep = episode_draft(d, &o);
		day_free(d);
		text = rollback_text(ep);
		if (strstr(text, cases[i].has) == NULL)
			fail_msg("%s: \"%s\" not in \"%s\"", cases[i].rule,
			    cases[i].has, text);
		if (strstr(text, cases[i].hasnt) != NULL)
			fail_msg("%s: \"%s\" in \"%s\"", cases[i].rule,
			    cases[i].hasnt, text);
		for (n = 0, p = text; (p = strstr(p, "No reason")) != NULL;
		    p++)
			n++;
		if (n != cases[i].reasons)
			fail_msg("%s: \"No reason\" %d times in \"%s\"",
			    cases[i].rule, n, text);
		episode_free(ep);
	}
}

/* The episode's own work: what a later one names, the revert's target. */
static void
test_work_listed(void **state)
{
	static const char revert[] = "Revert \"Add the cache\"\n\n"
	    "This reverts commit " ALICE_SHA ".\n";
	struct episode	*ep;

	(void)state;
	ep = rollback_draft(revert, NULL, 0, 2026, 3, 4);
	assert_int_equal(ep->nwork, 1);
	assert_string_equal(ep->work[0].sha,
	    "0000000000000000000000000000000000000b0b");
	assert_string_equal(ep->work[0].name, "Bob Ross");
	assert_string_equal(ep->work[0].what, "Add the cache");
	assert_string_equal(ep->work[0].reverts, ALICE_SHA);
	assert_null(ep->work[0].date);
	episode_free(ep);
}

/* earlier_find: the full sha or a prefix of 7 or more only one has. */
static void
test_find(void **state)
{
	static const char *const shas[] = {
		"abcdef0123456789abcdef0123456789abcdef01",
		"abcdef0999999999999999999999999999999999",
		"1234567000000000000000000000000000000000",
		"abcdef0123456789abcdef0123456789abcdef01",	/* again */
	};
	static const struct {
		const char	*rule, *sha;
		int		 want;	/* index in shas, -1 for none */
	} cases[] = {
		{ "full", "1234567000000000000000000000000000000000", 2 },
		{ "upper case", "ABCDEF0123456789ABCDEF0123456789ABCDEF01", 0 },
		{ "seven digits", "1234567", 2 },
		{ "a prefix of two", "abcdef0", -1 },
		{ "long enough to tell them apart", "abcdef01", 0 },
		{ "six digits", "123456", -1 },
		{ "not hex", "1234567z", -1 },
		{ "none", "fedcba9876543", -1 },
		{ "NULL", NULL, -1 },
	};
	struct episode_work		*v;
	const struct episode_work	*w;
	size_t				 i, n = 4;

	(void)state;
	v = xcalloc(n, sizeof *v);
	for (i = 0; i < n; i++) {
		v[i].sha = xstrdup(shas[i]);
		xasprintf(&v[i].date, "2026-03-0%zu", 4 - i);
	}
	n = earlier_sort(v, n);
	assert_int_equal(n, 3);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		w = earlier_find(v, n, cases[i].sha);
		if (cases[i].want < 0) {
			if (w != NULL)
				fail_msg("%s: found %s", cases[i].rule, w->sha);
			continue;
		}
		if (w == NULL || strcmp(w->sha, shas[cases[i].want]) != 0)
			fail_msg("%s: got %s", cases[i].rule,
			    w != NULL ? w->sha : "(none)");
	}
	/* of a sha given twice, the first (the newest) is kept */
	w = earlier_find(v, n, shas[0]);
	assert_non_null(w);
	assert_string_equal(w->date, "2026-03-04");
	earlier_free(v, n);
	earlier_free(NULL, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_peel),
		cmocka_unit_test(test_earlier_work),
		cmocka_unit_test(test_own_sentence),
		cmocka_unit_test(test_sitting),
		cmocka_unit_test(test_work_listed),
		cmocka_unit_test(test_find),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
