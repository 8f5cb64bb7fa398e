/*
 * Unit tests for episode/bookend.c: the opening and the closing of drafted
 * days, one row per kind of day: what each must say (the show, the date,
 * the day's top story or release) and what it must never claim (a feature
 * that was reverted, a steadier codebase after one fix, a count
 * inventory). And over a week of any of these days, no opening or closing
 * twice.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "buf.h"
#include "day.h"
#include "episode.h"
#include "record.h"
#include "spoken.h"
#include "xmalloc.h"

#include "day_msg.h"

#define REVERTED "0000000000000000000000000000000000000000"

/* A day of commit messages and what its bookends say. */
struct bookend_case {
	const char	*rule;
	const char	*msgs[7];	/* NULL-ended; the first is REVERTED */
	const char	*open[2];	/* in the opening */
	const char	*close[2];	/* in the closing */
	const char	*never[4];	/* in neither */
};

static const struct bookend_case days[] = {
	{ "a release day names the release", { "release: v8.1.1\n",
	    "fix(css): resolve tsconfig paths in CSS imports (#1)\n",
	    "test: update the watcher test (#2)\n",
	    "test: enable the manual chunk test (#3)\n", NULL },
	    { "Vite 8.1.1", "tsconfig paths resolved" }, { "Vite 8.1.1",
	    NULL }, { "steadier codebase", "new pieces", "merged pull",
	    "Among them" } },
	{ "a feature reverted the same day is no new piece", {
	    "tool: add a retry delay for transfers on 429 (#1)\n",
	    "docs: fix a typo in the FAQ (#2)\n",
	    "Revert \"tool: add a retry delay for transfers on 429 (#1)\"\n\n"
	    "This reverts commit " REVERTED ".\n", NULL },
	    { "rolled back", NULL }, { NULL, NULL },
	    { "New pieces landed", "kick the tires", "retry delay added",
	    "steadier codebase" } },
	{ "one typo fix is no day of fixes", {
	    "docs: fix a typo in the FAQ (#1)\n",
	    "Update the maintainers list (#2)\n", NULL },
	    { NULL, NULL }, { NULL, NULL },
	    { "steadier codebase", "A day of fixes", "kick the tires",
	    "Bugs found and fixed" } },
	{ "a day of one big feature", {
	    "runtime: add an opt-in sharded queue for blocking tasks (#1)\n",
	    "tests: fix a flaky timer test (#2)\n",
	    "docs: fix a typo in the FAQ (#3)\n", NULL },
	    { "sharded queue added", "Ada Lovelace" },
	    { "One new feature today.", NULL }, { "steadier codebase",
	    "New pieces landed", "kick the tires", NULL } },
	/* tokio 2026-08-09 closed "New pieces landed today, so go kick
	   the tires.": a stock line, no takeaway */
	{ "with no Focus, the closing's takeaway is the top story's", {
	    "runtime: add an opt-in sharded spawn_blocking queue (#8337)\n",
	    "docs: fix a typo in the FAQ (#2)\n", NULL },
	    { NULL, NULL }, { "the one to try is Ada Lovelace's change, "
	    "\"add an opt-in sharded spawn blocking queue\".", "runtime" },
	    { "kick the tires", "New pieces landed", "something new",
	    NULL } },
	{ "a fixes day", { "fix a crash when the config file is empty (#1)\n",
	    "fix a hang on shutdown with open sockets (#2)\n",
	    "fix wrong results from the median of an empty list (#3)\n",
	    "fix a leak in the retry path (#4)\n", NULL },
	    { "wrong results fixed", NULL }, { "fix", NULL },
	    { "kick the tires", "New pieces", "faster", NULL } },
	{ "a rollback-heavy day", {
	    "codec: speed up frame encoding for long frames (#1)\n",
	    "Revert \"codec: speed up frame encoding for long frames (#1)\""
	    "\n\nThis reverts commit " REVERTED ".\n",
	    "Revert \"Drop the legacy parser\"\n\nIt broke the nightly "
	    "build.\n",
	    "Revert \"Switch the default allocator\"\n\nThis reverts commit "
	    "1111111111111111111111111111111111111111.\n", NULL },
	    { "back and forth", "three changes were rolled back" },
	    { "second thoughts", NULL }, { "faster", "speed", "kick the tires",
	    "steady" } },
	{ "support dropped is a heads-up", { "Fix CI and build failures "
	    "(#7)\n\n* Run ruff\n* Drop support for pypy-3.10\n",
	    "Update the maintainers list (#8)\n", NULL },
	    { "support for pypy-3.10 was dropped", NULL },
	    { NULL, NULL }, { "steadier codebase", "that breaking change",
	    NULL } },
	{ "the breaking change said once, then other stories", {
	    "Drop PyTorch 2.7 and older support from the code (#9)\n",
	    "codec: add a frame checksum option (#10)\n",
	    "docs: fix a typo in the FAQ (#11)\n", NULL },
	    { "support for PyTorch 2.7 and older was dropped",
	    "frame checksum option added" }, { "One new feature", NULL },
	    { "support dropped from the code", "older support dropped",
	    "that breaking change", NULL } },
	{ "an imperative left as it was is no headline", {
	    "Let inline sections take precedence over --header-first\n",
	    "codec: add a frame checksum option (#10)\n", NULL },
	    { "frame checksum option added", NULL }, { NULL, NULL },
	    { "Let inline", NULL } },
	/* issue #27: the top-ranked story leads, said or reported */
	{ "a hang fix hard to phrase leads over a feature", {
	    "win: remap ERROR_NO_DATA to EAGAIN\n\nA read of a closed pipe "
	    "could hang forever.\n",
	    "codec: add a frame checksum option (#10)\n", NULL },
	    { "EAGAIN", "frame checksum option added" }, { NULL, NULL },
	    { "a change from", NULL } },
	{ "a rollback of earlier work leads the opening", {
	    "codec: add a frame checksum option (#10)\n",
	    "Revert \"Switch the default allocator\"\n\nThis reverts "
	    "commit 1111111111111111111111111111111111111111.\n",
	    "docs: fix a typo in the FAQ (#11)\n",
	    "tests: fix a flaky timer test (#12)\n", NULL },
	    { "a rollback from Grace Hopper", "default allocator" },
	    { NULL, NULL }, { "back and forth", NULL } },
	/* curl 2026-06-01: "One change was rolled back along the way. In
	   all, nineteen commits landed." lost its people, and no opening
	   said how many pull requests were merged, or that none was */
	{ "a day with a rollback keeps its people and its pull requests", {
	    "tool: add a retry delay for transfers on 429 (#1)\n",
	    "docs: fix a typo in the FAQ (#2)\n",
	    "setopt: make MAXCONNECTS 0 restore the default (#3)\n",
	    "Revert \"tool: add a retry delay for transfers on 429 (#1)\"\n\n"
	    "This reverts commit " REVERTED ".\n", NULL },
	    { "rolled back", "landed from " }, { NULL, NULL },
	    { "commits landed.", NULL } },
	{ "a quiet day of no merged pull request says so", {
	    "codec: add a frame checksum option\n", NULL },
	    { "a single commit", "no pull request was merged" },
	    { NULL, NULL }, { NULL, NULL } },
	{ "a day of no merged pull request says so", {
	    "codec: add a frame checksum option\n",
	    "docs: fix a typo in the FAQ\n", NULL },
	    { "no pull request was merged", NULL }, { NULL, NULL },
	    { NULL, NULL } },
	/* ao 2026-03-24: "In all, fifteen commits landed." lost its six
	   people once a re-land led */
	{ "a re-land that leads keeps the day's people", {
	    "[reland][xpu] INT8 quantization on Intel XPU (#3782)\n",
	    "docs: fix a typo in the FAQ (#11)\n",
	    "codec: add a frame checksum option (#10)\n", NULL },
	    { "came back", "from two people" }, { NULL, NULL },
	    { NULL, NULL } },
	/* ao 2026-03-24 said its minimum three times: "Heads up first: the
	   project now needs torch 2.11", the Focus, then "If that breaking
	   change touches your setup, now's the time to plan for it." */
	{ "a breaking change the Focus told is not said again", {
	    "Remove version compatibility table (#4154)\n\n**Summary:** As "
	    "of https://github.com/pytorch/ao/issues/3516,\ntorchao is now "
	    "ABI stable, so we no longer need this version\ncompatibility "
	    "table. We do require torch 2.11+ because the\nmxfp8 kernels "
	    "rely on stable ABI features added in torch 2.11.\n",
	    "[X86] Re-enable DA8W4 path on X86 CPU (#4033)\n",
	    "docs: fix a typo in the FAQ (#11)\n", NULL },
	    { "needs torch 2.11 or newer", NULL }, { NULL, NULL },
	    { "that breaking change", "plan for it", NULL } },
	/* fzf 2026-04-19: "Leading today: a new feature from Junegunn
	   Choi", a category for a subject too hard to quote */
	{ "a story hard to quote is told, not its category", {
	    "Add --{header,header-lines,footer}-border=inline\n\nNew "
	    "BorderShape that embeds the section inside the --list-border\n"
	    "frame, joined to the list content by a horizontal separator "
	    "with\nT-junctions where the list shape has side borders.\n",
	    "Fix inline header/footer border color when falling back to "
	    "line\n", "Clean up non-ascii characters\n", NULL },
	    { "Ada Lovelace added --header-border=inline, "
	    "--header-lines-border=inline and --footer-border=inline", NULL },
	    { NULL, NULL }, { "a new feature from", NULL } },
	{ "a quiet day", { "docs: fix a typo in the FAQ\n", NULL },
	    { "a single commit", "Ada Lovelace" }, { NULL, NULL },
	    { "steadier codebase", "New pieces", "A day of fixes", NULL } },
};

static struct day *
bookend_day(const struct bookend_case *tc)
{
	struct day	*d = day_new("vitejs/vite", 1775260800);
	size_t		 i;

	d->end = d->start + 86400;
	for (i = 0; i < 7 && tc->msgs[i] != NULL; i++)
		day_msg_add(d, tc->msgs[i], i == 0 ? REVERTED : NULL,
		    i + 0xabc0, i, i % 2 ? "Grace Hopper" : "Ada Lovelace",
		    i % 2 ? "grace" : "ada", "src/a.c");
	day_pair_reverts(d);
	return d;
}

/* Whether s holds what, ignoring case. */
static int
has(const char *s, const char *what)
{
	return strcasestr(s, what) != NULL;
}

static void
test_days(void **state)
{
	struct episode_opts	 o;
	struct episode		*ep;
	struct day		*d;
	const char		*open, *close;
	size_t			 i, k;

	(void)state;
	memset(&o, 0, sizeof o);
	o.show = "The Daily";
	o.year = 2026;
	o.month = 6;
	o.mday = 30;
	for (i = 0; i < sizeof days / sizeof days[0]; i++) {
		d = bookend_day(&days[i]);
		ep = episode_draft(d, &o);
		assert_string_equal(ep->segments[0].kind, "opening");
		assert_string_equal(ep->segments[ep->nsegments - 1].kind,
		    "closing");
		open = ep->segments[0].text;
		close = ep->segments[ep->nsegments - 1].text;
		/* the show and the date said at both ends */
		if (!has(open, "The Daily") || !has(open, "June 30th, 2026") ||
		    !has(close, "The Daily") || !has(close, "June 30th, 2026"))
			fail_msg("%s: show or date missing: %s / %s",
			    days[i].rule, open, close);
		for (k = 0; k < 2; k++) {
			if (days[i].open[k] != NULL &&
			    !has(open, days[i].open[k]))
				fail_msg("%s: no \"%s\" in the opening: %s",
				    days[i].rule, days[i].open[k], open);
			if (days[i].close[k] != NULL &&
			    !has(close, days[i].close[k]))
				fail_msg("%s: no \"%s\" in the closing: %s",
				    days[i].rule, days[i].close[k], close);
		}
		for (k = 0; k < 4 && days[i].never[k] != NULL; k++) {
			if (has(open, days[i].never[k]) ||
			    has(close, days[i].never[k]))
				fail_msg("%s: \"%s\" in %s / %s", days[i].rule,
				    days[i].never[k], open, close);
		}
		/* the counts in one sentence (issue #27: the pull requests
		   merged, or that none was, are among them), no inventory */
		if (d->ncommits > 1 && (!has(open, "In all, ") ||
		    (strstr(open, "pull request") != NULL &&
		    strstr(strstr(open, "pull request") + 1,
		    "pull request") != NULL)))
			fail_msg("%s: an inventory: %s", days[i].rule, open);
		episode_free(ep);
		day_free(d);
	}
}

/*
 * Whatever the day, a week of it never opens (the greeting) or closes
 * alike: the first sentence and the whole closing, date blanked out.
 */
static void
test_week(void **state)
{
	enum { NDAYS = 14, WEEK = 7 };
	struct episode_opts	 o;
	struct episode		*ep;
	struct day		*d;
	struct buf		 b;
	char			*open[NDAYS], *close[NDAYS], *p;
	const char		*t;
	size_t			 i;
	int			 day, j, k;

	(void)state;
	memset(&o, 0, sizeof o);
	o.show = "The Daily";
	for (i = 0; i < sizeof days / sizeof days[0]; i++) {
		d = bookend_day(&days[i]);
		for (day = 0; day < NDAYS; day++) {
			o.year = 2026;
			o.month = 7;
			o.mday = 1 + day;
			ep = episode_draft(d, &o);
			buf_init(&b);
			spoken_date(&b, o.year, o.month, o.mday);
			t = ep->segments[0].text;
			open[day] = xstrndup(t, strcspn(t, ".!") + 1);
			close[day] = xstrdup(ep->segments[ep->nsegments -
			    1].text);
			if ((p = strstr(open[day], buf_str(&b))) != NULL)
				memset(p, '#', b.len);
			if ((p = strstr(close[day], buf_str(&b))) != NULL)
				memset(p, '#', b.len);
			buf_free(&b);
			episode_free(ep);
		}
		for (j = 0; j < NDAYS; j++)
			for (k = j + 1; k < j + WEEK && k < NDAYS; k++) {
				if (strcmp(open[j], open[k]) == 0 ||
				    strcmp(close[j], close[k]) == 0)
					fail_msg("%s: days %d and %d alike",
					    days[i].rule, j, k);
			}
		for (day = 0; day < NDAYS; day++) {
			free(open[day]);
			free(close[day]);
		}
		day_free(d);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_days),
		cmocka_unit_test(test_week),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
