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

/*
 * Keys as GitHub's headers make them are kept in 16 bytes and a hook id,
 * others as their strings: each comes back from store_seen_list as it
 * went in, and a key that differs in a byte, or only by a prefix, is
 * another delivery.
 */
static void
test_store_seen_keys(void **state)
{
	static const char *const keys[] = {
		/* the compact form */
		"12345:72d3162e-cc78-11e3-81ab-4c9367dc0958",
		":72d3162e-cc78-11e3-81ab-4c9367dc0958",	/* no hook id */
		"0:72d3162e-cc78-11e3-81ab-4c9367dc0958",
		"4294967293:72d3162e-cc78-11e3-81ab-4c9367dc0958",
		"1:00000000-0000-0000-0000-000000000000",
		"1:ffffffff-ffff-ffff-ffff-ffffffffffff",
		/* strings: each would lose something in the compact form */
		"4294967294:72d3162e-cc78-11e3-81ab-4c9367dc0958",
		"99999999999:72d3162e-cc78-11e3-81ab-4c9367dc0958",
		"012:72d3162e-cc78-11e3-81ab-4c9367dc0958",
		"1:72D3162E-CC78-11E3-81AB-4C9367DC0958",
		"1:72d3162e-cc78-11e3-81ab-4c9367dc095",
		"1:72d3162e-cc78-11e3-81ab-4c9367dc09580",
		"1:72d3162ecc78-11e3-81ab-4c9367dc09580",
		"1:72d3162e-cc78-11e3-81ab-4c9367dc095g",
		"x:72d3162e-cc78-11e3-81ab-4c9367dc0958",
		"1:2:72d3162e-cc78-11e3-81ab-4c9367dc0958",
		"72d3162e-cc78-11e3-81ab-4c9367dc0958",
		"1:g1",
		"1:g10",
		"1:g1-a-long-key-that-shares-its-start-with-the-next-one",
		"1:g1-a-long-key-that-shares-its-start-with-the-next-one!",
		":",
		"",
	};
	/* near misses of the keys above: none was marked */
	static const char *const others[] = {
		"12346:72d3162e-cc78-11e3-81ab-4c9367dc0958",
		"1234:72d3162e-cc78-11e3-81ab-4c9367dc0958",
		"12345:72d3162e-cc78-11e3-81ab-4c9367dc0959",
		"12345:82d3162e-cc78-11e3-81ab-4c9367dc0958",
		"00:72d3162e-cc78-11e3-81ab-4c9367dc0958",
		"1:72d3162e-cc78-11e3-81ab-4c9367dc0958",
		"1:00000000-0000-0000-0000-000000000001",
		"1:72D3162E-CC78-11E3-81AB-4C9367DC0959",
		"1:g",
		"1:g100",
		"1:g1-a-long-key-that-shares-its-start-with-the-next-on",
		"1:g1-a-long-key-that-shares-its-start-with-the-next-one?",
		"::",
	};
	struct store	*s = store_new();
	char		**list;
	time_t		*at;
	size_t		 n, i;

	(void)state;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		assert_false(store_seen(s, keys[i]));
		store_mark(s, keys[i], (time_t)(100 + i));
		store_mark(s, keys[i], 5);	/* again: nothing changes */
	}
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!store_seen(s, keys[i]))
			fail_msg("\"%s\" marked but not seen", keys[i]);
	for (i = 0; i < sizeof(others) / sizeof(others[0]); i++)
		if (store_seen(s, others[i]))
			fail_msg("\"%s\" seen but never marked", others[i]);
	n = store_seen_list(s, &list, &at);
	assert_int_equal(n, sizeof(keys) / sizeof(keys[0]));
	for (i = 0; i < n; i++) {
		assert_string_equal(list[i], keys[i]);
		assert_int_equal(at[i], 100 + i);
		free(list[i]);
	}
	free(list);
	free(at);

	/* times past what an entry holds stay in order, at the ends */
	store_prune_seen(s, 1000);
	assert_int_equal(store_nseen(s), 0);
	store_mark(s, keys[0], -5);
	store_mark(s, keys[6], (time_t)1 << 40);
	n = store_seen_list(s, &list, &at);
	assert_int_equal(n, 2);
	assert_int_equal(at[0], 0);
	assert_int_equal(at[1], UINT32_MAX);
	for (i = 0; i < n; i++)
		free(list[i]);
	free(list);
	free(at);
	store_free(s);
}

struct gap_step {
	const char	*branch;
	const char	*before, *after;	/* ids: 2 hex digits 20 times */
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
		{ "main", "ff", "b1", 0, 1, 0 },	/* forced: no gap */
		{ "dev", "00", "d1", 1, 0, 0 },		/* created branch */
		{ "dev", "d1", "d2", 0, 0, 0 },		/* branches apart */
		{ "main", "b1", "b2", 0, 0, 0 },
		{ "main", "e9", "b3", 0, 0, 1 },
		/* from none (an odd payload's before): no gap */
		{ "main", "00", "b4", 0, 0, 0 },
		{ "main", "b4", "b5", 0, 0, 0 },
		/* to none (deleted): no head left, so nothing can be missed */
		{ "dev", "d2", "00", 0, 0, 0 },
		{ "dev", "c7", "c8", 0, 0, 0 },
		{ "dev", "c9", "ca", 0, 0, 1 },
	};
	struct store		*s = store_new();
	struct store_repo	*r = store_repo(s, "o/r", 1, 0);
	struct push		 p;
	char			 before[PUSH_HEX_LEN + 1];
	char			 after[PUSH_HEX_LEN + 1];
	size_t			 i, k;

	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		memset(&p, 0, sizeof(p));
		for (k = 0; k < PUSH_HEX_LEN; k += 2) {
			memcpy(before + k, steps[i].before, 2);
			memcpy(after + k, steps[i].after, 2);
		}
		before[PUSH_HEX_LEN] = after[PUSH_HEX_LEN] = '\0';
		p.branch = (char *)steps[i].branch;
		assert_int_equal(push_id_set(p.before, before), 0);
		assert_int_equal(push_id_set(p.after, after), 0);
		p.created = (uint8_t)steps[i].created;
		p.forced = (uint8_t)steps[i].forced;
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

/* A push result for repo with one commit per sha, in order. */
static void
shas_result(struct handler_result *res, const char *repo,
    const char *const *shas, size_t n)
{
	size_t	i;

	memset(res, 0, sizeof(*res));
	res->repo = xstrdup(repo);
	res->ncommits = n;
	res->commits = xcalloc(n, sizeof(*res->commits));
	for (i = 0; i < n; i++) {
		res->commits[i].sha = xstrdup(shas[i]);
		xasprintf(&res->commits[i].subject, "change %zu", i);
	}
}

/*
 * The commits the open day holds are dropped before the journal sees
 * them, in place and in order; the others are kept whole, and a sha is
 * matched without regard to case. Nothing is dropped for a repository
 * with no day yet, nor against the day handed to the drafter.
 */
static void
test_store_drop_known(void **state)
{
	static const char *const first[] = {
		"1111111111111111111111111111111111111111",
		"2222222222222222222222222222222222222222",
	};
	static const char *const again[] = {
		"3333333333333333333333333333333333333333",
		"1111111111111111111111111111111111111111",
		"4444444444444444444444444444444444444444",
		"2222222222222222222222222222222222222222",
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	};
	struct store		*s = store_new();
	struct handler_result	 res;
	struct store_repo	*r;
	size_t			 added;

	(void)state;
	shas_result(&res, "o/r", first, 2);
	assert_int_equal(store_drop_known(s, &res), 0);	/* no day yet */
	assert_int_equal(res.ncommits, 2);
	assert_int_equal(store_add(s, &res, 10, &added), 0);
	handler_result_clear(&res);

	shas_result(&res, "O/R", again, 5);
	free(res.commits[4].sha);
	res.commits[4].sha = xstrdup(
	    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
	assert_int_equal(store_drop_known(s, &res), 2);
	assert_int_equal(res.ncommits, 3);
	assert_string_equal(res.commits[0].sha, again[0]);
	assert_string_equal(res.commits[0].subject, "change 0");
	assert_string_equal(res.commits[1].sha, again[2]);
	assert_string_equal(res.commits[1].subject, "change 2");
	assert_string_equal(res.commits[2].subject, "change 4");
	/* the places left behind own nothing */
	assert_null(res.commits[3].sha);
	assert_null(res.commits[4].sha);
	assert_int_equal(store_add(s, &res, 10, &added), 0);
	assert_int_equal(added, 3);
	handler_result_clear(&res);

	/* all known now, the upper-case one too: nothing left to journal */
	shas_result(&res, "o/r", again, 5);
	assert_int_equal(store_drop_known(s, &res), 5);
	assert_int_equal(res.ncommits, 0);
	handler_result_clear(&res);

	/* handed off: the new open day knows none of them */
	r = store_repo(s, "o/r", 0, 0);
	assert_int_equal(store_handoff(s, r, 20), 0);
	shas_result(&res, "o/r", first, 2);
	assert_int_equal(store_drop_known(s, &res), 0);
	assert_int_equal(res.ncommits, 2);
	handler_result_clear(&res);
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

/*
 * The seen set against a model of it (its keys in the order marked, the
 * oldest forgotten past the bound, pruning by time): random marks from a
 * small pool of keys (so many repeat, and probe chains cross), bounds
 * changed on the way and prunes between. After every step each key of the
 * pool is seen exactly when the model has it, the counts agree, and the
 * list comes out in the model's order.
 */
#define SEEN_POOL	700

static void
test_store_seen_model(void **state)
{
	static const size_t	 bounds[] = { 1000, 50, 300, 1000, 7 };
	struct store_limits	 l = { .max_seen = 0 };
	struct store		*s = store_new();
	char			 keys[SEEN_POOL][48];
	int			 model[SEEN_POOL];	/* order, or -1 */
	time_t			 at[SEEN_POOL];
	size_t			 n = 0, b, i, k, got, cut;
	char			**list;
	time_t			*lat;
	int			 order = 0, step, min, last;
	unsigned		 rnd = 12345;

	(void)state;
	/* GUID keys (kept compact) and others (kept as strings), mixed */
	for (i = 0; i < SEEN_POOL; i++) {
		if (i % 2 == 0)
			snprintf(keys[i], sizeof(keys[i]), "%zu:g%zu", i % 3,
			    i);
		else
			snprintf(keys[i], sizeof(keys[i]),
			    "%.0zu:%08zx-0000-4000-8000-%012zx", i % 3, i, i);
		model[i] = -1;
	}
	for (b = 0; b < sizeof(bounds) / sizeof(bounds[0]); b++) {
		l.max_seen = bounds[b];
		store_set_limits(s, &l);
		for (step = 0; step < 3000; step++) {
			rnd = rnd * 1103515245u + 12345u;
			k = (rnd >> 8) % SEEN_POOL;
			if (step % 997 == 996) {
				/* prune everything marked before a time */
				cut = (size_t)order - n / 2;
				store_prune_seen(s, (time_t)cut);
				for (i = 0; i < SEEN_POOL; i++)
					if (model[i] >= 0 &&
					    (size_t)at[i] < cut) {
						model[i] = -1;
						n--;
					}
				continue;
			}
			store_mark(s, keys[k], (time_t)order);
			if (model[k] >= 0)
				continue;	/* a repeat changes nothing */
			model[k] = order;
			at[k] = (time_t)order;
			order++;
			n++;
			/* the bound, at a new mark: the oldest marked go */
			while (n > bounds[b]) {
				min = -1;
				for (i = 0; i < SEEN_POOL; i++)
					if (model[i] >= 0 && (min < 0 ||
					    model[i] < model[min]))
						min = (int)i;
				model[min] = -1;
				n--;
			}
			assert_int_equal(store_nseen(s), n);
			for (i = 0; i < SEEN_POOL; i++)
				if (store_seen(s, keys[i]) != (model[i] >= 0))
					fail_msg("bound %zu step %d: %s is %s",
					    bounds[b], step, keys[i],
					    model[i] >= 0 ? "forgotten" :
					    "still seen");
		}
		/* the model's keys, in the model's order, as marked */
		got = store_seen_list(s, &list, &lat);
		assert_int_equal(got, n);
		last = -1;
		for (i = 0; i < got; i++) {
			for (k = 0; k < SEEN_POOL; k++)
				if (strcmp(list[i], keys[k]) == 0)
					break;
			if (k == SEEN_POOL || model[k] <= last ||
			    lat[i] != at[k])
				fail_msg("bound %zu: listed %s out of the "
				    "model's order", bounds[b], list[i]);
			last = model[k];
			free(list[i]);
		}
		free(list);
		free(lat);
	}
	store_free(s);
}

/*
 * The ring's blocks (256 entries) against a model, with many more keys
 * than the model test's pool: the ring grows over many blocks, forgets
 * past bounds that are no multiple of a block (so the head leaves each
 * block part way through the marks), is pruned to nothing and to a part,
 * and grows again from a head in the middle of a block. At each check
 * every key marked is seen exactly when the model (a window of the marks,
 * [lo, hi)) has it, and the list is the window in order.
 */
static void
check_window(struct store *s, size_t lo, size_t hi, size_t marked)
{
	char		 key[64], **list;
	time_t		*at;
	size_t		 i, n;

	assert_int_equal(store_nseen(s), hi - lo);
	for (i = 0; i < marked; i++) {
		snprintf(key, sizeof(key), "7:%08zx-0000-4000-8000-%012zx",
		    i, i);
		if (store_seen(s, key) != (i >= lo && i < hi))
			fail_msg("key %zu of [%zu, %zu): %s", i, lo, hi,
			    store_seen(s, key) ? "still seen" : "forgotten");
	}
	n = store_seen_list(s, &list, &at);
	assert_int_equal(n, hi - lo);
	for (i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "7:%08zx-0000-4000-8000-%012zx",
		    lo + i, lo + i);
		assert_string_equal(list[i], key);
		assert_int_equal(at[i], (time_t)(lo + i));
		free(list[i]);
	}
	free(list);
	free(at);
}

static void
test_store_seen_blocks(void **state)
{
	static const size_t	 bounds[] = { 0, 1000, 257, 255, 1, 3000 };
	struct store_limits	 l = { .max_seen = 0 };
	struct store		*s = store_new();
	char			 key[64];
	size_t			 lo = 0, hi = 0, b, i;

	(void)state;
	for (b = 0; b < sizeof(bounds) / sizeof(bounds[0]); b++) {
		l.max_seen = bounds[b];
		store_set_limits(s, &l);
		for (i = 0; i < 2000 + 37 * b; i++) {
			snprintf(key, sizeof(key),
			    "7:%08zx-0000-4000-8000-%012zx", hi, hi);
			store_mark(s, key, (time_t)hi);
			hi++;
			if (bounds[b] > 0 && hi - lo > bounds[b])
				lo = hi - bounds[b];
		}
		check_window(s, lo, hi, hi);
		if (b == 2) {
			/* all of them: the ring empties, its head mid-block */
			store_prune_seen(s, (time_t)hi);
			lo = hi;
			check_window(s, lo, hi, hi);
		} else if (b == 3) {
			store_prune_seen(s, (time_t)(lo + 100));
			lo += 100;
			check_window(s, lo, hi, hi);
		}
	}
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
		    steps[i].ncommits, 0, 7);
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
	assert_int_equal(store_admit(s, "a/one", 1, 10, 0, 9), STORE_QUOTA_OK);

	/* idle a whole day (empty, no delivery since the last call): gone */
	assert_int_equal(store_drop_idle(s), 0);
	assert_int_equal(store_drop_idle(s), 2);
	assert_int_equal(store_nrepos(s), 0);
	assert_null(store_repo(s, "a/one", 0, 0));
	assert_int_equal(store_admit(s, "a/three", 1, 0, 0, 9), STORE_QUOTA_OK);
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
	assert_int_equal(store_admit_result(s, &res, 1, start),
	    STORE_QUOTA_OK);
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
	store_merge_back(s, r);
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
	store_merge_back(s, r);
	assert_ptr_equal(r->day, handed);
	assert_int_equal(r->day->ncommits, 4);
	assert_null(r->drafting);

	/* handed off again and drafted: the day is the caller's */
	assert_int_equal(store_handoff(s, r, 100), 0);
	open = r->day;
	d = store_drafted(s, r);
	assert_ptr_equal(d, handed);
	assert_int_equal(d->end, 100);
	assert_null(r->drafting);
	assert_ptr_equal(r->day, open);
	assert_int_equal(r->day->start, 100);
	assert_null(store_drafted(s, r));
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
	store_merge_back(s, r);
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
	day_free(store_drafted(s, busy));
	assert_int_equal(store_drop_idle(s), 1);
	assert_int_equal(store_nrepos(s), 0);
	assert_null(store_repo(s, "a/busy", 0, 0));
	store_free(s);
}

/* The store's count is the sum of its repositories' days, counted afresh. */
static void
assert_open_bytes(struct store *s)
{
	struct store_repo	*r;
	size_t			 i, want = 0, held;

	for (i = 0; i < store_nrepos(s); i++) {
		r = store_repo_at(s, i);
		want += day_bytes(r->day);
		if (r->drafting != NULL)
			want += day_bytes(r->drafting);
	}
	assert_int_equal(store_open_bytes(s, &held), want);
	assert_int_equal(held, 0);
}

/*
 * What the days hold, counted on add and given back at rotation, at
 * store_drafted (not at the hand-off: the drafted day still counts), at
 * merge_back (what joined as duplicates) and when a repository is dropped.
 */
static void
test_store_bytes(void **state)
{
	static const char *const first[] = { SHA("aaaa"), SHA("bbbb") };
	static const char *const during[] = { SHA("bbbb"), SHA("cccc") };
	static const char *const other[] = { SHA("eeee") };
	struct store		*s = store_new();
	struct store_repo	*r, *o;
	struct handler_result	 res;
	struct commit		 c;
	struct day		*d;
	size_t			 before, held, handed;

	assert_int_equal(store_open_bytes(s, &held), 0);
	deliver(s, "o/r", "main", first, 2, 0, 50);
	r = store_repo(s, "o/r", 0, 0);
	assert_true(r->day->bytes > 2 * (sizeof(struct commit) + 41));
	assert_int_equal(r->bytes, r->day->bytes);
	assert_open_bytes(s);
	deliver(s, "o/other", NULL, other, 1, 0, 50);
	o = store_repo(s, "o/other", 0, 0);
	assert_open_bytes(s);
	assert_int_equal(store_open_bytes(s, NULL), r->bytes + o->bytes);

	/* handed off, the day still counts; the new day's add to it */
	before = store_open_bytes(s, NULL);
	assert_int_equal(store_handoff(s, r, 80), 0);
	assert_int_equal(store_open_bytes(s, NULL), before);
	deliver(s, "o/r", NULL, during, 2, 0, 80);
	assert_open_bytes(s);
	assert_int_equal(r->bytes, r->day->bytes + r->drafting->bytes);

	/* joined back: bbbb, in both, is counted once */
	before = store_open_bytes(s, NULL);
	store_merge_back(s, r);
	assert_true(store_open_bytes(s, NULL) < before);
	assert_open_bytes(s);
	assert_int_equal(r->bytes, r->day->bytes);

	/* drafted: given back */
	assert_int_equal(store_handoff(s, r, 100), 0);
	handed = r->drafting->bytes;
	before = store_open_bytes(s, NULL);
	d = store_drafted(s, r);
	assert_int_equal(store_open_bytes(s, NULL), before - handed);
	assert_open_bytes(s);
	day_free(d);

	/* rotated: given back */
	day_free(store_rotate(s, o, 100));
	assert_int_equal(o->bytes, 0);
	assert_open_bytes(s);
	assert_int_equal(store_open_bytes(s, NULL), r->day->bytes);

	/* a record the replay put straight into the day, then recounted */
	memset(&c, 0, sizeof(c));
	c.sha = xstrdup(SHA("ffff"));
	c.subject = xstrdup("replayed");
	assert_int_equal(day_add_commit(o->day, &c), 1);
	store_recount(s, o);
	assert_open_bytes(s);

	/* admitted, its bytes held back until added or released */
	memset(&res, 0, sizeof(res));
	res.repo = xstrdup("o/r");
	res.push = xcalloc(1, sizeof(*res.push));
	res.push->branch = xstrdup("main");
	assert_int_equal(store_admit_result(s, &res, 1, 100), STORE_QUOTA_OK);
	assert_int_equal(res.held, store_result_bytes(&res));
	before = store_open_bytes(s, &held);
	assert_int_equal(held, store_result_bytes(&res));
	store_release(s, &res);
	assert_int_equal(store_open_bytes(s, &held), before);
	assert_int_equal(held, 0);
	handler_result_clear(&res);

	/* idle, empty repositories dropped take their count (0) with them */
	day_free(store_rotate(s, o, 110));
	assert_int_equal(store_drop_idle(s), 0);
	assert_int_equal(store_drop_idle(s), 2);
	assert_null(store_repo(s, "o/other", 0, 0));
	assert_int_equal(store_open_bytes(s, NULL), 0);
	store_free(s);
}

/* A push of one commit with nfiles file names of 200 bytes. */
static void
files_result(struct handler_result *res, const char *repo, int n,
    size_t nfiles)
{
	size_t	 i;
	char	*d;

	memset(res, 0, sizeof(*res));
	res->repo = xstrdup(repo);
	res->ncommits = 1;
	res->commits = xcalloc(1, sizeof(*res->commits));
	xasprintf(&res->commits[0].sha, "%040x", n);
	res->commits[0].subject = xstrdup("Add files");
	res->commits[0].added = record_list_new(nfiles, nfiles * 201, &d);
	res->commits[0].nadded = nfiles;
	for (i = 0; i < nfiles; i++) {
		res->commits[0].added[i] = d;
		d += snprintf(d, 201, "%0200zu", i) + 1;
	}
	res->push = xcalloc(1, sizeof(*res->push));
	res->push->branch = xstrdup("main");
}

/* Admit (and on OK add) push n of nfiles to repo; the admission's answer. */
static enum store_quota
deliver_files(struct store *s, const char *repo, int n, size_t nfiles)
{
	struct handler_result	res;
	enum store_quota	q;
	size_t			added;

	files_result(&res, repo, n, nfiles);
	q = store_admit_result(s, &res, 1, 10);
	if (q == STORE_QUOTA_OK)
		assert_int_equal(store_add(s, &res, 10, &added), 0);
	handler_result_clear(&res);
	return q;
}

/*
 * max_open_bytes over all repositories: refused past it (deliveries
 * admitted and not yet added count), taken again once a rotation gives
 * bytes back; a reload that lowers it refuses from the next delivery and
 * drops nothing.
 */
static void
test_store_open_bytes_bound(void **state)
{
	struct store_limits	 l = { .max_open_bytes = 0 };
	struct store		*s = store_new();
	struct handler_result	 res, waiting;
	size_t			 per, held, before, main;

	files_result(&res, "a/one", 0, 1000);
	per = store_result_bytes(&res);
	handler_result_clear(&res);
	assert_true(per > 1000 * 200);
	l.max_open_bytes = 3 * per;
	store_set_limits(s, &l);
	/* a day keeps its pushes' branch once: a second costs that less */
	main = intern_str_bytes("main");

	assert_int_equal(deliver_files(s, "a/one", 1, 1000), STORE_QUOTA_OK);
	assert_int_equal(deliver_files(s, "a/two", 2, 1000), STORE_QUOTA_OK);
	assert_int_equal(store_open_bytes(s, NULL), 2 * per);
	/* the third is admitted and waits for its sync: it counts */
	files_result(&waiting, "a/two", 3, 1000);
	assert_int_equal(store_admit_result(s, &waiting, 1, 10),
	    STORE_QUOTA_OK);
	assert_int_equal(deliver_files(s, "a/one", 4, 1000),
	    STORE_QUOTA_BYTES);
	assert_int_equal(deliver_files(s, "a/three", 5, 10),
	    STORE_QUOTA_BYTES);
	assert_int_equal(store_refusals(s, STORE_QUOTA_BYTES), 2);
	assert_string_equal(store_quota_name(STORE_QUOTA_BYTES),
	    "open_bytes");
	/* its journal write failed: given back, another fits */
	store_release(s, &waiting);
	handler_result_clear(&waiting);
	assert_int_equal(deliver_files(s, "a/one", 4, 1000), STORE_QUOTA_OK);
	assert_int_equal(store_open_bytes(s, &held), 3 * per - main);
	assert_int_equal(held, 0);
	assert_int_equal(deliver_files(s, "a/two", 6, 1), STORE_QUOTA_BYTES);
	/* nothing refused was added */
	assert_int_equal(store_repo(s, "a/one", 0, 0)->day->ncommits, 2);
	assert_int_equal(store_repo(s, "a/two", 0, 0)->day->ncommits, 1);

	/* a/one's emission gives its two pushes back to everyone */
	day_free(store_rotate(s, store_repo(s, "a/one", 0, 0), 20));
	assert_int_equal(store_open_bytes(s, NULL), per);
	assert_int_equal(deliver_files(s, "a/two", 6, 1000), STORE_QUOTA_OK);
	assert_int_equal(deliver_files(s, "a/three", 7, 1000),
	    STORE_QUOTA_OK);
	assert_int_equal(deliver_files(s, "a/one", 8, 1000),
	    STORE_QUOTA_BYTES);

	/* a reload lowers the bound: refused from now, nothing dropped */
	day_free(store_rotate(s, store_repo(s, "a/three", 0, 0), 30));
	before = store_open_bytes(s, NULL);
	assert_int_equal(before, 2 * per - main);
	l.max_open_bytes = per;
	store_set_limits(s, &l);
	assert_int_equal(deliver_files(s, "a/three", 9, 1), STORE_QUOTA_BYTES);
	assert_int_equal(store_open_bytes(s, NULL), before);
	assert_int_equal(store_repo(s, "a/two", 0, 0)->day->ncommits, 2);
	/* 0 is no bound */
	l.max_open_bytes = 0;
	store_set_limits(s, &l);
	assert_int_equal(deliver_files(s, "a/three", 9, 1000), STORE_QUOTA_OK);
	store_free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_store_seen),
		cmocka_unit_test(test_store_seen_keys),
		cmocka_unit_test(test_store_gaps),
		cmocka_unit_test(test_store_add_and_rotate),
		cmocka_unit_test(test_store_drop_known),
		cmocka_unit_test(test_store_repo_index),
		cmocka_unit_test(test_store_seen_bound),
		cmocka_unit_test(test_store_seen_model),
		cmocka_unit_test(test_store_seen_blocks),
		cmocka_unit_test(test_store_admit),
		cmocka_unit_test(test_store_handoff),
		cmocka_unit_test(test_store_merge_back_default_branch),
		cmocka_unit_test(test_store_drop_idle_drafting),
		cmocka_unit_test(test_store_bytes),
		cmocka_unit_test(test_store_open_bytes_bound),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
