/*
 * Unit tests for episode/series.c: which commits of a day are one story
 * (a series by its markers, a ghstack stack), how a story's size is said,
 * and a drafted day telling a series once. One row per rule.
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
#include "classify.h"
#include "day.h"
#include "draft_int.h"
#include "episode.h"
#include "record.h"
#include "xmalloc.h"

#include "day_msg.h"

#define GH(pr) "\n\nghstack-source-id: 0123abcd\nPull Request resolved: " \
	"https://github.com/o/r/pull/" #pr "\n"

/* series_stem: the subject around the marker, read as what. */
static void
test_stem(void **state)
{
	static const struct {
		const char	*subject, *want;
	} cases[] = {
		{ "[mypyc] Add librt.vecs (part 1/2) (#20653)",
		    "Add librt.vecs" },
		{ "Crossreferences in mypy docs, part 7 (#7699)",
		    "Crossreferences in mypy docs" },
		{ "[pat] (3/5) Add KElementGrouper (#4379)",
		    "Add KElementGrouper" },
		{ "[inductor][3/15] XPU GEMM step", "XPU GEMM step" },
		{ "Step 2: use the parser", "use the parser" },
		{ "Namespaces refactor part 2", "Namespaces refactor" },
		{ "Refactor loader - part 2 of 5", "Refactor loader" },
	};
	size_t	 i, at, len;
	int	 part, total;
	char	*s;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		assert_int_equal(classify_series_at(cases[i].subject, &part,
		    &total, &at, &len), 1);
		s = series_stem(cases[i].subject, at, len);
		if (strcmp(s, cases[i].want) != 0)
			fail_msg("%s: got \"%s\", want \"%s\"",
			    cases[i].subject, s, cases[i].want);
		free(s);
	}
}

struct group_case {
	const char	*rule;
	const char	*msgs[6];	/* NULL-ended */
	const char	*who;		/* an author letter per commit */
	const int	 at[6];		/* minutes into the day */
	const char	*want;		/* a story letter per commit; '.' alone */
};

static const struct group_case group_cases[] = {
	{ "one marker form and total", {
	    "[1/3] Add the parser\n", "[2/3] Use the parser\n",
	    "[3/3] Drop the old parser\n", NULL }, "AAA", { 0, 1, 2 },
	    "aaa" },
	{ "another author's part is another story", {
	    "[1/3] Add the parser\n", "[2/3] Use the parser\n", NULL },
	    "AB", { 0, 1 }, ".." },
	{ "another total is another series", {
	    "[1/3] Add the parser\n", "[2/5] Use the parser\n", NULL },
	    "AA", { 0, 1 }, ".." },
	{ "another marker form is another series", {
	    "[1/3] Add the parser\n", "(2/3) Use the parser\n", NULL },
	    "AA", { 0, 1 }, ".." },
	{ "the same subject around word markers", {
	    "Crossreferences in the docs, part 5 (#7689)\n",
	    "Fix the build\n",
	    "Crossreferences in the docs, part 6 (#7697)\n", NULL },
	    "AAA", { 0, 1, 2 }, "a.a" },
	{ "the same subject, totals differing", {
	    "Add librt.vecs (part 1/2)\n", "Add librt.vecs (part 1/3)\n",
	    NULL }, "AA", { 0, 1 }, ".." },
	{ "the same subject, one total", {
	    "Add librt.vecs (part 1/2)\n", "Add librt.vecs (part 2)\n",
	    NULL }, "AA", { 0, 1 }, "aa" },
	{ "'part' as a word is no marker", {
	    "Make the allocator part of the API\n",
	    "Split part 2 into its own module\n",
	    "Document which part of the config is read\n", NULL },
	    "AAA", { 0, 1, 2 }, "..." },
	{ "a run of numbered steps", {
	    "Step 1: add the parser\n", "Step 2: use the parser\n",
	    "Step 3: drop the old one\n", NULL }, "AAA", { 0, 1, 2 },
	    "aaa" },
	{ "steps not in a row", {
	    "Step 1: add the parser\n", "Step 3: drop the old one\n",
	    NULL }, "AA", { 0, 1 }, ".." },
	{ "two series of one author", {
	    "[1/2] Add the parser\n", "(1/3) Move the cache\n",
	    "[2/2] Use the parser\n", "(2/3) Split the cache\n", NULL },
	    "AAAA", { 0, 1, 2, 3 }, "abab" },
	{ "a ghstack stack landing together", {
	    "Make freqs_cis a persistent buffer" GH(201),
	    "Delete grad scaler" GH(202),
	    "Factor out loss_fn" GH(203), NULL }, "AAA", { 0, 1, 2 },
	    "aaa" },
	{ "ghstack commits hours apart", {
	    "Make freqs_cis a persistent buffer" GH(201),
	    "Delete grad scaler" GH(202), NULL }, "AA", { 0, 180 }, ".." },
	{ "ghstack commits of two people", {
	    "Make freqs_cis a persistent buffer" GH(201),
	    "Delete grad scaler" GH(202), NULL }, "AB", { 0, 1 }, ".." },
	{ "a Stack from ghstack list naming the other", {
	    "Add the fused kernel (#124)\n\nStack from [ghstack]"
	    "(https://github.com/ezyang/ghstack):\n* #125\n* __->__ #124\n",
	    "Use the fused kernel (#125)\n\nStack from [ghstack]"
	    "(https://github.com/ezyang/ghstack):\n* __->__ #125\n* #124\n",
	    NULL }, "AA", { 0, 300 }, "aa" },
	{ "a revert and its part stand alone", {
	    "[1/3] Add the parser\n", "[2/3] Use the parser\n",
	    "Revert \"[2/3] Use the parser\"\n\nThis reverts commit "
	    "0000000000000000000000000000000000c0de1.\n", NULL },
	    "AAA", { 0, 1, 2 }, "..." },
};

/* A draft of a day's commits, classified and named as episode_draft does. */
static void
group_draft(struct draft *d, struct day *day)
{
	size_t	i;

	memset(d, 0, sizeof *d);
	d->day = day;
	d->nitems = day->ncommits;
	d->items = xcalloc(d->nitems + 1, sizeof *d->items);
	for (i = 0; i < d->nitems; i++) {
		d->items[i].c = &day->commits[i];
		d->items[i].idx = (long)i;
		classify_commit(d->items[i].c, day->repo, &d->items[i].cl);
		d->items[i].name = classify_name(d->items[i].c,
		    d->items[i].cl.bot);
	}
}

static void
group_draft_free(struct draft *d)
{
	size_t	i;

	series_free(d);
	for (i = 0; i < d->nitems; i++) {
		classify_clear(&d->items[i].cl);
		free(d->items[i].name);
	}
	free(d->items);
}

/* The story of item i: its lead, itself when it leads, NULL alone. */
static const struct draft_item *
group_story(const struct draft *d, size_t i)
{
	if (d->items[i].lead != NULL)
		return d->items[i].lead;
	if (d->items[i].nparts > 0)
		return &d->items[i];
	return NULL;
}

static void
test_group(void **state)
{
	static const char *const names[] = { "Ada Lovelace", "Grace Hopper" };
	static const char *const logins[] = { "ada", "grace" };
	const struct group_case	*gc;
	struct draft		 d;
	struct day		*day;
	size_t			 i, j, n;

	(void)state;
	for (i = 0; i < sizeof group_cases / sizeof group_cases[0]; i++) {
		gc = &group_cases[i];
		day = day_new("o/r", 1775260800);
		day->end = day->start + 86400;
		for (n = 0; gc->msgs[n] != NULL; n++)
			day_msg_add(day, gc->msgs[n], NULL, 0xc0de0 + n,
			    (size_t)gc->at[n] * 60, names[gc->who[n] - 'A'],
			    logins[gc->who[n] - 'A'], "src/parser.c");
		day_pair_reverts(day);
		group_draft(&d, day);
		series_group(&d);
		for (j = 0; j < n; j++) {
			const struct draft_item *s = group_story(&d, j);
			size_t k, same = 0;

			if (gc->want[j] == '.') {
				if (s != NULL)
					fail_msg("%s: commit %zu is in a story",
					    gc->rule, j);
				continue;
			}
			if (s == NULL)
				fail_msg("%s: commit %zu is alone", gc->rule,
				    j);
			/* those of its letter, and only those, share it */
			for (k = 0; k < n; k++) {
				if (gc->want[k] == gc->want[j]) {
					same++;
					if (group_story(&d, k) != s)
						fail_msg("%s: %zu and %zu apart",
						    gc->rule, j, k);
				} else if (group_story(&d, k) == s)
					fail_msg("%s: %zu and %zu together",
					    gc->rule, j, k);
			}
			assert_int_equal(s->nparts + 1, same);
			/* the parts are told with their story */
			assert_int_equal(d.items[j].told, s != &d.items[j]);
		}
		group_draft_free(&d);
		day_free(day);
	}
}

/* series_count: how much of a story landed, said. */
static void
test_count(void **state)
{
	static const struct {
		size_t		 nparts;	/* besides the lead */
		int		 total, from, to, stack, last;
		const char	*want;
	} cases[] = {
		{ 4, 5, 1, 5, 0, 1, "all five parts of a five-part series" },
		{ 1, 2, 1, 2, 0, 1, "both parts of a two-part series" },
		{ 2, 15, 4, 6, 0, 0, "three parts of a fifteen-part series" },
		{ 2, 8, 6, 8, 0, 1, "the last three parts of an eight-part "
		    "series" },
		{ 1, 8, 0, 0, 0, 1, "two parts of an eight-part series, the "
		    "last one among them" },
		{ 2, 0, 4, 6, 0, 0, "parts four to six of a series" },
		{ 1, 0, 5, 6, 0, 0, "parts five and six of a series" },
		{ 2, 0, 0, 0, 0, 0, "three parts of a series" },
		{ 2, 0, 0, 0, 1, 0, "a stack of three changes" },
	};
	struct draft_item	it;
	struct buf		b;
	size_t			i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		memset(&it, 0, sizeof it);
		it.nparts = cases[i].nparts;
		it.series_total = cases[i].total;
		it.series_from = cases[i].from;
		it.series_to = cases[i].to;
		it.series_stack = cases[i].stack;
		it.series_last = cases[i].last;
		buf_init(&b);
		series_count(&b, &it);
		if (strcmp(buf_str(&b), cases[i].want) != 0)
			fail_msg("row %zu: got \"%s\", want \"%s\"", i,
			    buf_str(&b), cases[i].want);
		buf_free(&b);
	}
}

/* A drafted day: each series told once, with all its parts' shas. */
static void
test_told_once(void **state)
{
	static const struct {
		const char	*rule;
		const char	*msgs[6];
		const char	*has, *hasnt;
		size_t		 shas;	/* in the segment that has it */
	} cases[] = {
		{ "parts sharing no subject: the main one and the others", {
		    "[pat] (1/3) Speed up the low-rank proxmap\n\nThis makes "
		    "the proxmap 1.7x faster on large models.\n",
		    "[pat] (2/3) Add the KElementGrouper\n",
		    "[pat] (3/3) Add the NMSparseConstraint\n", NULL },
		    "Ada Lovelace landed all three parts of a three-part "
		    "series in PAT. The main one sped up the low-rank "
		    "proxmap.", "That's step", 3 },
		{ "parts sharing a subject: said once", {
		    "Add experimental vecs (part 1/2)\n\nThis adds the vecs "
		    "module.\n",
		    "Add experimental vecs (part 2/2)\n", NULL },
		    "Ada Lovelace added experimental vecs. That's both "
		    "parts of a two-part series.", "part 1/2", 2 },
		{ "a stack", {
		    "Make freqs_cis a persistent buffer" GH(201),
		    "Add a faster loss" GH(202), NULL },
		    "landed a stack of two changes", "Also worth", 2 },
		{ "a stack in the chores", {
		    "Make freqs_cis a persistent buffer" GH(201),
		    "Delete the grad scaler" GH(202), NULL },
		    "deleted the grad scaler, with one more change from the "
		    "same stack", "Delete", 2 },
		{ "a part landed alone says which it is", {
		    "[3/x] docs update\n", NULL },
		    ", part three of a series.",
		    "3/x", 1 },
		{ "the first part of a series of a size given", {
		    "[1/4] docs: update the API reference\n", NULL },
		    "the first part of a four-part series.", "1/4", 1 },
		{ "near miss: 'part' as a word is no marker", {
		    "docs: split part 2 into its own page\n", NULL },
		    "into its own page", "of a series", 1 },
		{ "a series in the chores", {
		    "docs: crossreferences in the docs, part 5\n",
		    "docs: crossreferences in the docs, part 6\n", NULL },
		    "in two parts", "part 5", 2 },
	};
	struct episode_opts	 o;
	struct episode		*ep;
	struct day		*day;
	size_t			 i, j, n;

	(void)state;
	memset(&o, 0, sizeof o);
	o.show = "Daily";
	o.year = 2026;
	o.month = 4;
	o.mday = 4;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		day = day_new("o/r", 1775260800);
		day->end = day->start + 86400;
		for (n = 0; cases[i].msgs[n] != NULL; n++)
			day_msg_add(day, cases[i].msgs[n], NULL, 0xc0de0 + n,
			    n * 60, "Ada Lovelace", "ada", "src/pat.py");
		/* another change, so the day is no quiet one */
		day_msg_add(day, "Fix a crash on empty input\n", NULL, 0xbeef,
		    3600, "Grace Hopper", "grace", "src/io.c");
		day_pair_reverts(day);
		ep = episode_draft(day, &o);
		for (j = 0; j < ep->nsegments; j++)
			if (strstr(ep->segments[j].text, cases[i].has) != NULL)
				break;
		if (j == ep->nsegments)
			fail_msg("%s: no \"%s\" in: %s", cases[i].rule,
			    cases[i].has, ep->transcript);
		assert_int_equal(ep->segments[j].ncommits, cases[i].shas);
		if (strstr(ep->transcript, cases[i].hasnt) != NULL)
			fail_msg("%s: \"%s\" in: %s", cases[i].rule,
			    cases[i].hasnt, ep->transcript);
		episode_free(ep);
		day_free(day);
	}
}

/* A commit of a day with a follow-up: message, author, minutes, file. */
struct follow_commit {
	const char	*msg, *name;
	size_t		 at;
	const char	*file;
};

/*
 * A change naming another of the same day as what it fixes or follows
 * ("broken by .../pull/4200", "Followup to #21243") is told with it, in
 * one segment with both shas; one naming no change of the day, or a
 * later one, or itself, is told apart.
 */
static void
test_follow(void **state)
{
	/* python/mypy, April 16th, 2026 */
	static const char mypy_drop[] = "Drop support for "
	    "`--python-version 3.9` (#21243)\n\nIt's getting close to time. "
	    "Typeshed will drop support in a few days.\n";
	static const char mypy_follow[] = "Cleanup some more tests after "
	    "dropping 3.9 support (#21256)\n\nFollowup to #21243\n\n"
	    "Remove some more leftover checks.\n";
	/* pytorch/ao, March 31st, 2026 */
	static const char ao_recipe[] = "Create recipe for flux2pro running "
	    "on AMD (#4200)\n";
	static const char ao_fix[] = "fix ruff on main branch (#4207)\n\n"
	    "Summary:\n\nbroken by https://github.com/pytorch/ao/pull/4200, "
	    "fixing\n\nTest Plan: CI\n";
	static const struct {
		const char		*rule;
		struct follow_commit	 c[3];
		const char		*has, *hasnt;
		size_t			 shas;	/* in the segment that has it
					   (Grace Hopper's fix is a fixes') */
	} cases[] = {
		{ "a follow-up told after the change it follows", {
		    { mypy_drop, "Shantanu", 0, "mypy/options.py" },
		    { mypy_follow, "Marc Mueller", 60, "mypy/test/x.py" } },
		    "support in a few days. As a follow-up, Marc Mueller "
		    "cleaned up some more tests", "On the cleanup side", 2 },
		{ "a fix told after the change it fixes", {
		    { ao_recipe, "hualazimi0425", 0, "torchao/flux.py" },
		    { ao_fix, "Vasiliy Kuznetsov", 60, "torchao/flux.py" } },
		    "It needed a fix the same day: Vasiliy Kuznetsov fixed",
		    "Now for the fixes", 2 },
		{ "a fix among the chores, said in the same line", {
		    { "docs: add llms.txt to the docs site (#10)\n", "supriyar",
		      0, "docs/llms.txt" },
		    { "Fix the docs build\n\nBroken by #10.\n",
		      "Vasiliy Kuznetsov", 60, "docs/conf.py" } },
		    "supriyar added llms.txt to the docs site, which Vasiliy "
		    "Kuznetsov fixed later the same day.", "docs build", 2 },
		{ "a fix told first says what it fixes", {
		    { "refactor: split the cache module (#10)\n", "Ada Lovelace",
		      0, "src/cache.c" },
		    { "Fix a crash in the cache lookup\n\nIntroduced in #10.\n",
		      "Vasiliy Kuznetsov", 60, "src/cache.c" } },
		    "It fixes Ada Lovelace's change to split the cache module "
		    "from earlier the same day.", "the cache module.", 3 },
		{ "near miss: an issue number, no change of the day", {
		    { ao_recipe, "hualazimi0425", 0, "torchao/flux.py" },
		    { "fix ruff on main branch (#4207)\n\nFixes #4199\n",
		      "Vasiliy Kuznetsov", 60, "torchao/flux.py" } },
		    "created a recipe for flux2pro running on AMD.",
		    "the same day", 1 },
		{ "near miss: the change named landed later", {
		    { ao_fix, "Vasiliy Kuznetsov", 0, "torchao/flux.py" },
		    { ao_recipe, "hualazimi0425", 60, "torchao/flux.py" } },
		    "created a recipe for flux2pro running on AMD.",
		    "the same day", 1 },
		{ "near miss: naming itself", {
		    { "Add the cache (#12)\n\nFollow-up to #12's review.\n",
		      "Ada Lovelace", 0, "src/cache.c" },
		    { NULL, NULL, 0, NULL } },
		    "Ada Lovelace added the cache.", "follow-up", 1 },
	};
	struct episode_opts	 o;
	struct episode		*ep;
	struct day		*day;
	size_t			 i, j, n;

	(void)state;
	memset(&o, 0, sizeof o);
	o.show = "Daily";
	o.year = 2026;
	o.month = 4;
	o.mday = 4;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		day = day_new("o/r", 1775260800);
		day->end = day->start + 86400;
		for (n = 0; n < 3 && cases[i].c[n].msg != NULL; n++)
			day_msg_add(day, cases[i].c[n].msg, NULL, 0xf00 + n,
			    cases[i].c[n].at * 60, cases[i].c[n].name,
			    cases[i].c[n].name, cases[i].c[n].file);
		/* another change, so the day is no quiet one */
		day_msg_add(day, "Fix a crash on empty input\n", NULL, 0xbeef,
		    7200, "Grace Hopper", "grace", "src/io.c");
		day_pair_reverts(day);
		ep = episode_draft(day, &o);
		for (j = 0; j < ep->nsegments; j++)
			if (strstr(ep->segments[j].text, cases[i].has) != NULL)
				break;
		if (j == ep->nsegments)
			fail_msg("%s: no \"%s\" in: %s", cases[i].rule,
			    cases[i].has, ep->transcript);
		if (ep->segments[j].ncommits != cases[i].shas)
			fail_msg("%s: %zu shas, want %zu", cases[i].rule,
			    ep->segments[j].ncommits, cases[i].shas);
		if (strstr(ep->transcript, cases[i].hasnt) != NULL)
			fail_msg("%s: \"%s\" in: %s", cases[i].rule,
			    cases[i].hasnt, ep->transcript);
		episode_free(ep);
		day_free(day);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stem),
		cmocka_unit_test(test_group),
		cmocka_unit_test(test_count),
		cmocka_unit_test(test_told_once),
		cmocka_unit_test(test_follow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
