/* The day store: delivery dedup, records in, rotation, gap detection. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "count_cmp.h"
#include "store.h"
#include "xmalloc.h"

static void
test_store_seen(void **state)
{
	struct store	*s = store_new();
	char		*a = store_key("1", "guid-a"), *b = store_key("2", "guid-a");
	char		 key[64];
	int		 i;

	assert_false(store_seen(s, a));
	store_mark(s, a, 100);
	assert_true(store_seen(s, a));
	/* the same GUID from another hook is another delivery */
	assert_false(store_seen(s, b));
	/* growth keeps every key */
	for (i = 0; i < 5000; i++) {
		snprintf(key, sizeof(key), "1:g%d", i);
		store_mark(s, key, i < 2500 ? 10 : 1000);
	}
	assert_int_equal(store_nseen(s), 5001);
	assert_true(store_seen(s, "1:g4999"));
	/* pruning forgets the old ones only */
	store_prune_seen(s, 500);
	assert_false(store_seen(s, "1:g0"));
	assert_false(store_seen(s, a));
	assert_true(store_seen(s, "1:g2500"));
	assert_int_equal(store_nseen(s), 2500);
	free(a);
	free(b);
	store_free(s);
}

struct gap_step {
	const char	*branch, *before, *after;
	int		 created, forced;
	int		 gap;		/* expected */
};

static void
test_store_gaps(void **state)
{
	static const struct gap_step steps[] = {
		{ "main", "a0", "a1", 0, 0, 0 },	/* first push: no head yet */
		{ "main", "a1", "a2", 0, 0, 0 },	/* continues */
		{ "main", "a1", "a2", 0, 0, 0 },	/* the same push again */
		{ "main", "a3", "a4", 0, 0, 1 },	/* a2..a3 never came */
		{ "main", "a2", "a3", 0, 0, 0 },	/* ...now it does: filled */
		{ "main", "a4", "a5", 0, 0, 0 },	/* head stayed a4 */
		{ "main", "zz", "b1", 0, 1, 0 },	/* forced: no gap */
		{ "dev", "00", "d1", 1, 0, 0 },		/* created branch */
		{ "dev", "d1", "d2", 0, 0, 0 },		/* branches apart */
		{ "main", "b1", "b2", 0, 0, 0 },
		{ "main", "x9", "b3", 0, 0, 1 },
	};
	struct store		*s = store_new();
	struct store_repo	*r = store_repo(s, "o/r", 1, 0);
	struct push		 p;
	size_t			 i;

	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		memset(&p, 0, sizeof(p));
		p.branch = (char *)steps[i].branch;
		p.before = (char *)steps[i].before;
		p.after = (char *)steps[i].after;
		p.created = steps[i].created;
		p.forced = steps[i].forced;
		if (store_note_push(r, &p) != steps[i].gap)
			fail_msg("step %zu (%s %s..%s): gap %d expected", i,
			    steps[i].branch, steps[i].before, steps[i].after,
			    steps[i].gap);
	}
	store_free(s);
}

static void
test_store_add_and_rotate(void **state)
{
	struct store		*s = store_new();
	struct handler_result	 res;
	struct store_repo	*r;
	struct day		*old;
	size_t			 added = 9;

	memset(&res, 0, sizeof(res));
	res.repo = xstrdup("Owner/Repo");
	res.default_branch = xstrdup("main");
	res.ncommits = 2;
	res.commits = xcalloc(2, sizeof(*res.commits));
	res.commits[0].sha = xstrdup("1111111111111111111111111111111111111111");
	res.commits[0].subject = xstrdup("one");
	res.commits[1].sha = xstrdup("1111111111111111111111111111111111111111");
	res.commits[1].subject = xstrdup("one again");
	assert_int_equal(store_add(s, &res, 50, &added), 0);
	assert_int_equal(added, 1);
	handler_result_clear(&res);
	/* names are matched without regard to case, as GitHub does */
	r = store_repo(s, "owner/repo", 0, 0);
	assert_non_null(r);
	assert_int_equal(r->day->ncommits, 1);
	assert_int_equal(r->day->start, 50);
	assert_string_equal(r->day->default_branch, "main");
	old = store_rotate(s, r, 80);
	assert_int_equal(old->ncommits, 1);
	assert_int_equal(r->day->ncommits, 0);
	assert_int_equal(r->day->start, 80);
	assert_string_equal(r->day->default_branch, "main");
	day_free(old);
	assert_null(store_repo(s, "other/repo", 0, 0));
	assert_int_equal(store_nrepos(s), 1);
	store_free(s);
}

/* Repositories are found by a hash: many of them stay cheap and stable. */
static void
test_store_repo_index(void **state)
{
	struct store		*s = store_new();
	struct store_repo	*first, *r;
	char			 name[64];
	int			 i;

	count_cmp_n = 0;
	first = store_repo(s, "Owner/r0", 1, 5);
	for (i = 1; i < 50000; i++) {
		snprintf(name, sizeof(name), "owner/r%d", i);
		assert_null(store_repo(s, name, 0, 0));
		assert_non_null(store_repo(s, name, 1, 5));
	}
	for (i = 0; i < 50000; i++) {
		snprintf(name, sizeof(name), "OWNER/R%d", i);
		r = store_repo(s, name, 0, 0);
		assert_non_null(r);
		assert_ptr_equal(r, store_repo_at(s, (size_t)i));
	}
	/*
	 * 150,000 lookups: a hash compares a few names each; a linear scan
	 * compared about 2.5e9 (counted, not timed: count_cmp.h)
	 */
	if (count_cmp_n > 150000ULL * 8)
		fail_msg("50,000 repositories took %llu name comparisons",
		    count_cmp_n);
	/* entries stay where they are as the store grows */
	assert_ptr_equal(store_repo(s, "owner/R0", 0, 0), first);
	assert_string_equal(first->name, "Owner/r0");
	assert_int_equal(store_nrepos(s), 50000);
	assert_null(store_repo_at(s, 50000));
	store_free(s);
}

/* The seen set stops at max_seen, forgetting the oldest first. */
static void
test_store_seen_bound(void **state)
{
	static const struct store_limits limits = { .max_seen = 1000 };
	struct store	*s = store_new();
	char		 key[64];
	int		 i;

	store_set_limits(s, &limits);
	for (i = 0; i < 5000; i++) {
		snprintf(key, sizeof(key), "1:g%d", i);
		/* times out of order by a little: the oldest go first */
		store_mark(s, key, 1000 + i - (i % 3));
		if (store_nseen(s) > 1000)
			fail_msg("%zu keys after %d marks", store_nseen(s), i + 1);
	}
	assert_true(store_nseen(s) >= 1000 - 1000 / 8);
	assert_true(store_seen(s, "1:g4999"));
	assert_true(store_seen(s, "1:g4200"));
	assert_false(store_seen(s, "1:g0"));
	assert_false(store_seen(s, "1:g3500"));
	store_free(s);
}

struct admit_step {
	const char		*repo;
	int			 allowed;
	size_t			 ncommits;
	enum store_quota	 want;
};

/* The repository cap and the day's caps, step by step. */
static void
test_store_admit(void **state)
{
	static const struct store_limits limits = {
		.max_repositories = 2, .max_commits_per_day = 10,
		.max_deliveries_per_day = 3,
	};
	static const struct admit_step steps[] = {
		{ "a/one", 1, 5, STORE_QUOTA_OK },
		{ "a/two", 1, 0, STORE_QUOTA_OK },
		{ "a/three", 1, 0, STORE_QUOTA_REPOSITORIES },
		{ "A/ONE", 1, 5, STORE_QUOTA_OK },	/* 10 commits: at the cap */
		{ "a/one", 1, 1, STORE_QUOTA_COMMITS },
		{ "a/two", 1, 11, STORE_QUOTA_COMMITS },
		{ "a/two", 1, 0, STORE_QUOTA_OK },
		{ "a/two", 1, 0, STORE_QUOTA_OK },	/* 3 deliveries */
		{ "a/two", 1, 0, STORE_QUOTA_DELIVERIES },
		{ "b/x", 0, 0, STORE_QUOTA_NOT_ALLOWED },
		{ "a/three", 1, 0, STORE_QUOTA_REPOSITORIES },
	};
	struct store		*s = store_new();
	struct store_repo	*r;
	size_t			 i;
	enum store_quota	 got;

	store_set_limits(s, &limits);
	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		got = store_admit(s, steps[i].repo, steps[i].allowed,
		    steps[i].ncommits, 7);
		if (got != steps[i].want)
			fail_msg("step %zu (%s, %zu commits): %s, not %s", i,
			    steps[i].repo, steps[i].ncommits,
			    store_quota_name(got),
			    store_quota_name(steps[i].want));
	}
	assert_int_equal(store_refusals(s, STORE_QUOTA_REPOSITORIES), 2);
	assert_int_equal(store_refusals(s, STORE_QUOTA_COMMITS), 2);
	assert_int_equal(store_refusals(s, STORE_QUOTA_DELIVERIES), 1);
	assert_int_equal(store_refusals(s, STORE_QUOTA_NOT_ALLOWED), 1);
	assert_int_equal(store_nrepos(s), 2);

	/* a new day takes commits again */
	r = store_repo(s, "a/one", 0, 0);
	day_free(store_rotate(s, r, 9));
	assert_int_equal(store_admit(s, "a/one", 1, 10, 9), STORE_QUOTA_OK);

	/* idle a whole day (empty, no delivery since the last call): gone */
	assert_int_equal(store_drop_idle(s), 0);
	assert_int_equal(store_drop_idle(s), 2);
	assert_int_equal(store_nrepos(s), 0);
	assert_null(store_repo(s, "a/one", 0, 0));
	assert_int_equal(store_admit(s, "a/three", 1, 0, 9), STORE_QUOTA_OK);
	assert_non_null(store_repo(s, "A/Three", 0, 0));
	store_free(s);
}

#define SHA(c)	c c c c c c c c c c	/* 4 chars x 10 = 40 */

/*
 * A delivery as the daemon takes it: admitted, then added. A push of
 * commits named by 40-hex shas (their subject is the sha's first 4
 * characters), or with pr other than 0 a merged pull request.
 */
static void
deliver(struct store *s, const char *repo, const char *db,
    const char *const *shas, size_t n, long pr, time_t start)
{
	struct handler_result	 res;
	size_t			 i, added;

	memset(&res, 0, sizeof(res));
	res.repo = xstrdup(repo);
	res.default_branch = db != NULL ? xstrdup(db) : NULL;
	res.ncommits = n;
	res.commits = xcalloc(n + 1, sizeof(*res.commits));
	for (i = 0; i < n; i++) {
		res.commits[i].sha = xstrdup(shas[i]);
		xasprintf(&res.commits[i].subject, "%.4s", shas[i]);
	}
	if (pr != 0) {
		res.pr = xcalloc(1, sizeof(*res.pr));
		res.pr->number = pr;
		res.pr->title = xstrdup("title");
	} else {
		res.push = xcalloc(1, sizeof(*res.push));
		res.push->branch = xstrdup("main");
	}
	assert_int_equal(store_admit(s, repo, 1, n, start), STORE_QUOTA_OK);
	assert_int_equal(store_add(s, &res, start, &added), 0);
	handler_result_clear(&res);
}

/* The subjects of a day's commits, in order, as "aaaa bbbb ...". */
static void
assert_subjects(const struct day *d, const char *want)
{
	char	got[256] = "";
	size_t	i, len = 0;

	for (i = 0; i < d->ncommits && len < sizeof(got); i++)
		len += (size_t)snprintf(got + len, sizeof(got) - len, "%s%s",
		    i > 0 ? " " : "", d->commits[i].subject);
	assert_string_equal(got, want);
}

/*
 * A day handed to the drafter, a second handoff refused, the draft
 * failed and the days joined, handed off again and drafted.
 */
static void
test_store_handoff(void **state)
{
	static const char *const first[] = { SHA("aaaa"), SHA("bbbb") };
	static const char *const during[] = { SHA("bbbb"), SHA("cccc") };
	static const char *const later[] = { SHA("dddd") };
	struct store		*s = store_new();
	struct store_repo	*r;
	struct day		*handed, *open, *d;

	deliver(s, "o/r", "main", first, 2, 0, 50);
	deliver(s, "o/r", "main", NULL, 0, 1, 50);
	r = store_repo(s, "o/r", 0, 0);
	assert_non_null(r);
	assert_null(r->drafting);
	assert_int_equal(r->taken_commits, 2);
	assert_int_equal(r->taken_deliveries, 2);
	handed = r->day;

	/* the open day goes to the drafter, ending where the new one opens */
	assert_int_equal(store_handoff(s, r, 80), 0);
	assert_ptr_equal(r->drafting, handed);
	assert_int_equal(handed->start, 50);
	assert_int_equal(handed->end, 80);
	assert_subjects(handed, "aaaa bbbb");
	assert_int_equal(handed->nprs, 1);
	assert_int_equal(handed->npushes, 1);
	open = r->day;
	assert_non_null(open);
	assert_ptr_not_equal(open, handed);
	assert_int_equal(open->start, 80);
	assert_int_equal(open->end, 0);
	assert_int_equal(open->ncommits, 0);
	assert_int_equal(open->nprs, 0);
	assert_int_equal(open->npushes, 0);
	assert_string_equal(open->repo, "o/r");
	assert_non_null(open->default_branch);
	assert_string_equal(open->default_branch, "main");
	assert_ptr_not_equal(open->default_branch, handed->default_branch);
	assert_int_equal(r->taken_commits, 0);
	assert_int_equal(r->taken_deliveries, 0);

	/* deliveries while it is drafted go to the new day */
	deliver(s, "o/r", NULL, during, 2, 0, 80);
	deliver(s, "o/r", NULL, NULL, 0, 1, 80);	/* PR 1 again */
	deliver(s, "o/r", NULL, later, 1, 0, 80);
	deliver(s, "o/r", NULL, NULL, 0, 2, 80);
	assert_ptr_equal(r->day, open);
	assert_subjects(open, "bbbb cccc dddd");
	assert_int_equal(open->nprs, 2);
	assert_int_equal(r->taken_commits, 3);
	assert_int_equal(r->taken_deliveries, 4);

	/* a second handoff while one is drafted changes nothing */
	assert_int_equal(store_handoff(s, r, 90), -1);
	assert_ptr_equal(r->drafting, handed);
	assert_ptr_equal(r->day, open);
	assert_int_equal(handed->start, 50);
	assert_int_equal(handed->end, 80);
	assert_subjects(handed, "aaaa bbbb");
	assert_int_equal(open->start, 80);
	assert_int_equal(open->end, 0);
	assert_subjects(open, "bbbb cccc dddd");
	assert_int_equal(r->taken_commits, 3);
	assert_int_equal(r->taken_deliveries, 4);

	/* the draft failed: the open day joins the drafted one, open again */
	store_merge_back(r);
	assert_null(r->drafting);
	assert_ptr_equal(r->day, handed);
	assert_int_equal(r->day->start, 50);
	assert_int_equal(r->day->end, 0);
	assert_subjects(r->day, "aaaa bbbb cccc dddd");
	assert_int_equal(r->day->nprs, 2);
	assert_int_equal(r->day->npushes, 3);
	assert_int_equal(r->taken_commits, r->day->ncommits);
	assert_int_equal(day_find_commit(r->day, SHA("cccc")), 2);
	assert_int_equal(day_find_commit(r->day, "dddddddd"), 3);
	assert_string_equal(r->day->default_branch, "main");
	/* with nothing being drafted it does nothing */
	store_merge_back(r);
	assert_ptr_equal(r->day, handed);
	assert_int_equal(r->day->ncommits, 4);
	assert_null(r->drafting);

	/* handed off again and drafted: the day is the caller's */
	assert_int_equal(store_handoff(s, r, 100), 0);
	open = r->day;
	d = store_drafted(r);
	assert_ptr_equal(d, handed);
	assert_int_equal(d->end, 100);
	assert_null(r->drafting);
	assert_ptr_equal(r->day, open);
	assert_int_equal(r->day->start, 100);
	assert_null(store_drafted(r));
	while (day_free_some(d, 3) == 0)
		continue;
	/* the slot is free for the next one */
	assert_int_equal(store_handoff(s, r, 110), 0);
	assert_ptr_equal(r->drafting, open);
	store_free(s);
}

/*
 * A day handed off without a default branch takes the one the open day
 * learnt when they join.
 */
static void
test_store_merge_back_default_branch(void **state)
{
	static const char *const first[] = { SHA("aaaa") };
	static const char *const during[] = { SHA("bbbb") };
	struct store		*s = store_new();
	struct store_repo	*r;

	deliver(s, "o/r", NULL, first, 1, 0, 50);
	r = store_repo(s, "o/r", 0, 0);
	assert_int_equal(store_handoff(s, r, 80), 0);
	assert_null(r->day->default_branch);
	deliver(s, "o/r", "trunk", during, 1, 0, 80);
	store_merge_back(r);
	assert_int_equal(r->day->start, 50);
	assert_subjects(r->day, "aaaa bbbb");
	assert_string_equal(r->day->default_branch, "trunk");
	store_free(s);
}

/* A repository whose day is being drafted is never dropped as idle. */
static void
test_store_drop_idle_drafting(void **state)
{
	struct store		*s = store_new();
	struct store_repo	*busy;
	struct day		*handed;

	busy = store_repo(s, "a/busy", 1, 10);
	assert_non_null(store_repo(s, "a/idle", 1, 10));
	/* an empty day, handed off: the repository is idle and empty */
	assert_int_equal(store_handoff(s, busy, 20), 0);
	handed = busy->drafting;
	assert_int_equal(store_drop_idle(s), 0);	/* both were new */
	assert_int_equal(store_drop_idle(s), 1);	/* a/idle */
	assert_null(store_repo(s, "a/idle", 0, 0));
	assert_ptr_equal(store_repo(s, "a/busy", 0, 0), busy);
	assert_int_equal(store_drop_idle(s), 0);
	assert_ptr_equal(busy->drafting, handed);
	assert_int_equal(store_nrepos(s), 1);

	/* drafted: now it is idle like any other */
	day_free(store_drafted(busy));
	assert_int_equal(store_drop_idle(s), 1);
	assert_int_equal(store_nrepos(s), 0);
	assert_null(store_repo(s, "a/busy", 0, 0));
	store_free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_store_seen),
		cmocka_unit_test(test_store_gaps),
		cmocka_unit_test(test_store_add_and_rotate),
		cmocka_unit_test(test_store_repo_index),
		cmocka_unit_test(test_store_seen_bound),
		cmocka_unit_test(test_store_admit),
		cmocka_unit_test(test_store_handoff),
		cmocka_unit_test(test_store_merge_back_default_branch),
		cmocka_unit_test(test_store_drop_idle_drafting),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
