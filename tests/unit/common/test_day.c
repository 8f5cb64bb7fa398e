/* Unit tests: common/day.c */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "day.h"

#include "count_cmp.h"
#include "gen_day.h"
#include "gen_flood.h"

#define SHA(c)	c c c c c c c c c c	/* 4 chars x 10 = 40 */

/* A commit as a handler would build it. */
static void
make_commit(struct commit *c, const char *sha, const char *message,
    const char *login, const char *name)
{
	memset(c, 0, sizeof(*c));
	c->sha = strdup(sha);
	c->author_login = login != NULL ? strdup(login) : NULL;
	c->author_name = name != NULL ? strdup(name) : NULL;
	assert_int_equal(commit_set_message(c, message), 0);
	assert_int_equal(revert_parse(c->subject, c->body, &c->revert), 0);
}

static void
test_day_new_free(void **state)
{
	struct day	*d;

	day_free(NULL);
	assert_null(day_new(NULL, 0));
	assert_non_null(d = day_new("o/r", 1000));
	assert_string_equal(d->repo, "o/r");
	assert_int_equal(d->start, 1000);
	assert_int_equal(d->end, 0);
	assert_int_equal(d->ncommits, 0);
	assert_int_equal(day_find_commit(d, SHA("abcd")), -1);
	day_free(d);
}

static void
test_day_dedup_by_sha(void **state)
{
	struct day	*d = day_new("o/r", 0);
	struct commit	 c;

	make_commit(&c, SHA("aaaa"), "First", "alice", "Alice");
	assert_int_equal(day_add_commit(d, &c), 1);
	assert_null(c.sha);		/* stolen */
	make_commit(&c, SHA("aaaa"), "First again", "alice", "Alice");
	assert_int_equal(day_add_commit(d, &c), 0);
	assert_null(c.sha);		/* cleared */
	assert_null(c.subject);
	/* the same sha in upper case is the same commit */
	make_commit(&c, SHA("AAAA"), "Shouting", NULL, "X");
	assert_int_equal(day_add_commit(d, &c), 0);
	make_commit(&c, SHA("bbbb"), "Second", "bob", "Bob");
	assert_int_equal(day_add_commit(d, &c), 1);

	assert_int_equal(d->ncommits, 2);
	assert_string_equal(d->commits[0].subject, "First");
	assert_int_equal(d->commits[0].reverts_idx, -1);
	assert_int_equal(d->commits[0].reverted_by_idx, -1);
	assert_int_equal(day_find_commit(d, SHA("bbbb")), 1);

	/* no sha: refused, left as it was */
	memset(&c, 0, sizeof(c));
	c.subject = strdup("no sha");
	assert_int_equal(day_add_commit(d, &c), -1);
	assert_string_equal(c.subject, "no sha");
	commit_clear(&c);
	day_free(d);
}

/* Many commits: the arrays and the index grow, and every sha is found. */
static void
test_day_growth_and_find(void **state)
{
	struct day	*d = day_new("o/r", 0);
	struct commit	 c;
	char		 sha[41], prefix[12];
	size_t		 i, n = 5000;

	for (i = 0; i < n; i++) {
		snprintf(sha, sizeof(sha), "%08zx%032zx", i * 2654435761u % n,
		    i);
		make_commit(&c, sha, "x", NULL, "N");
		assert_int_equal(day_add_commit(d, &c), 1);
	}
	/* re-adding every one is a duplicate */
	for (i = 0; i < n; i++) {
		snprintf(sha, sizeof(sha), "%08zx%032zx", i * 2654435761u % n,
		    i);
		make_commit(&c, sha, "x", NULL, "N");
		assert_int_equal(day_add_commit(d, &c), 0);
	}
	assert_int_equal(d->ncommits, n);
	assert_true(d->commits_cap >= n);
	assert_true(d->sha_index_cap >= 2 * n);
	for (i = 0; i < n; i++) {
		snprintf(sha, sizeof(sha), "%08zx%032zx", i * 2654435761u % n,
		    i);
		if (day_find_commit(d, sha) != (long)i)
			fail_msg("commit %zu not found", i);
	}
	/* a unique 10-hex prefix */
	snprintf(prefix, sizeof(prefix), "%.10s", d->commits[17].sha);
	assert_int_equal(day_find_commit(d, prefix), 17);
	day_free(d);
}

static const struct {
	const char	*query;
	long		 want;
} find_cases[] = {
	{ "1234567aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 0 },
	{ "1234567AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", 0 },
	{ "1234567bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", 1 },
	{ "1234567cbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", -1 },
	{ "1234567", -1 },			/* ambiguous */
	{ "1234567a", 0 },
	{ "1234567b", 1 },
	{ "fedcba9", 2 },
	{ "FEDCBA98", 2 },
	{ "fedcba", -1 },			/* too short */
	{ "fedcbaz", -1 },			/* not hex */
	{ "", -1 },
	{ "1234567aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", -1 },	/* 41 */
	{ NULL, -1 },
};

static void
test_day_find_prefix(void **state)
{
	static const char *const shas[] = {
		"1234567aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		"1234567bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
		"fedcba9876543210fedcba9876543210fedcba98",
	};
	struct day	*d = day_new("o/r", 0);
	struct commit	 c;
	size_t		 i;

	for (i = 0; i < 3; i++) {
		make_commit(&c, shas[i], "x", NULL, "N");
		assert_int_equal(day_add_commit(d, &c), 1);
	}
	for (i = 0; i < sizeof(find_cases) / sizeof(find_cases[0]); i++)
		if (day_find_commit(d, find_cases[i].query) !=
		    find_cases[i].want)
			fail_msg("\"%s\": got %ld, want %ld",
			    find_cases[i].query ? find_cases[i].query : "(null)",
			    day_find_commit(d, find_cases[i].query),
			    find_cases[i].want);
	day_free(d);
}

static void
test_day_prs_and_pushes(void **state)
{
	struct day		*d = day_new("o/r", 0);
	struct merged_pr	 pr;
	struct push		 p;
	struct day_stats	 st;

	memset(&pr, 0, sizeof(pr));
	pr.number = 3875;
	pr.title = strdup("Revert \"LowBitPacking\"");
	assert_int_equal(day_add_pr(d, &pr), 1);
	assert_null(pr.title);
	pr.number = 3875;
	pr.title = strdup("again");
	assert_int_equal(day_add_pr(d, &pr), 0);
	assert_null(pr.title);
	pr.number = 3876;
	pr.title = strdup("other");
	assert_int_equal(day_add_pr(d, &pr), 1);
	assert_int_equal(d->nprs, 2);
	assert_string_equal(d->prs[0].title, "Revert \"LowBitPacking\"");

	memset(&p, 0, sizeof(p));
	p.branch = strdup("main");
	assert_int_equal(day_add_push(d, &p), 0);
	assert_null(p.branch);
	p.branch = strdup("main");
	p.forced = 1;
	assert_int_equal(day_add_push(d, &p), 0);
	p.branch = strdup("dev");
	p.forced = 1;
	assert_int_equal(day_add_push(d, &p), 0);

	day_stats(d, &st);
	assert_int_equal(st.merged_prs, 2);
	assert_int_equal(st.pushes, 3);
	assert_int_equal(st.force_pushes, 2);
	assert_int_equal(st.commits, 0);
	assert_int_equal(st.authors, 0);
	day_free(d);
}

/*
 * Merged PRs dedup by number through the day's index, as a scan of all
 * of them did: numbers repeated, negative, huge, across index growth.
 */
static void
test_day_pr_index(void **state)
{
	struct day		*d = day_new("o/r", 0);
	struct merged_pr	 pr;
	size_t			 i, j, added = 0;
	long			 n;
	int			 want, rc;

	for (i = 0; i < 5000; i++) {
		n = (long)((i * 7919) % 3001) - 1500;
		if (i % 11 == 0)
			n = i % 2 ? 0x7fffffffL * 3 : -0x7fffffffL * 5;
		want = 1;
		for (j = 0; j < d->nprs && want; j++)
			if (d->prs[j].number == n)
				want = 0;
		memset(&pr, 0, sizeof(pr));
		pr.number = n;
		pr.title = strdup("t");
		rc = day_add_pr(d, &pr);
		assert_int_equal(rc, want);
		assert_null(pr.title);
		added += rc == 1;
	}
	assert_int_equal(d->nprs, added);
	for (i = 0; i < d->nprs; i++)
		for (j = i + 1; j < d->nprs; j++)
			assert_true(d->prs[i].number != d->prs[j].number);
	day_free(d);
}

/*
 * Pairing scenarios: commits in arrival order, then the expected
 * reverts_idx and reverted_by_idx of each.
 */
#define MAXC	5
static const struct {
	const char	*name;
	struct {
		const char	*sha;
		const char	*message;
	} commits[MAXC];
	long		 reverts[MAXC];
	long		 reverted_by[MAXC];
} pair_cases[] = {
	{ "by sha",
	    { { SHA("a1a1"), "Add foo" },
	      { SHA("b2b2"), "Revert \"Something else entirely\"\n\n"
		"This reverts commit " SHA("a1a1") "." } },
	    { -1, 0 }, { 1, -1 } },
	{ "by sha, out of order",
	    { { SHA("b2b2"), "Revert \"Add foo\"\n\n"
		"This reverts commit " SHA("a1a1") "." },
	      { SHA("a1a1"), "Add foo" } },
	    { 1, -1 }, { -1, 0 } },
	{ "by subject, the latest earlier one",
	    { { SHA("a1a1"), "Add foo (#1)" },
	      { SHA("c3c3"), "Add foo (#1)" },
	      { SHA("b2b2"), "Revert \"Add foo (#1)\" (#2)" },
	      { SHA("d4d4"), "Add foo (#1)" } },
	    { -1, -1, 1, -1 }, { -1, 2, -1, -1 } },
	{ "by subject, not a later one",
	    { { SHA("b2b2"), "Revert \"Add foo\"" },
	      { SHA("a1a1"), "Add foo" } },
	    { -1, -1 }, { -1, -1 } },
	{ "sha not in the day falls back to subject",
	    { { SHA("a1a1"), "Add foo" },
	      { SHA("b2b2"), "Revert \"Add foo\"\n\n"
		"This reverts commit " SHA("9999") "." } },
	    { -1, 0 }, { 1, -1 } },
	{ "reverted work not in the day",
	    { { SHA("a1a1"), "Add bar" },
	      { SHA("b2b2"), "Revert \"Add foo\"" } },
	    { -1, -1 }, { -1, -1 } },
	{ "curl (revert)",
	    { { SHA("a1a1"), "cookie: parse max-age" },
	      { SHA("b2b2"), "cookie: parse max-age (revert)" } },
	    { -1, 0 }, { 1, -1 } },
	{ "re-land by sha (Reapply)",
	    { { SHA("a1a1"), "Add foo (#1)" },
	      { SHA("b2b2"), "Revert \"Add foo (#1)\" (#2)\n\n"
		"This reverts commit " SHA("a1a1") "." },
	      { SHA("c3c3"), "Reapply \"Add foo (#1)\"\n\n"
		"This reverts commit " SHA("b2b2") "." } },
	    { -1, 0, 1 }, { 1, 2, -1 } },
	{ "re-land by subject (Revert \"Revert\")",
	    { { SHA("a1a1"), "Add foo (#1)" },
	      { SHA("b2b2"), "Revert \"Add foo (#1)\" (#2)" },
	      { SHA("e5e5"), "Unrelated" },
	      { SHA("c3c3"), "Revert \"Revert \"Add foo (#1)\"\" (#3)" } },
	    { -1, 0, -1, 1 }, { 1, 3, -1, -1 } },
	{ "re-land by [Reland] tag, PR numbers differ",
	    { { SHA("a1a1"), "Add foo (#1)" },
	      { SHA("b2b2"), "Revert \"Add foo (#1)\" (#2)" },
	      { SHA("c3c3"), "[Reland] Add foo (#3)" } },
	    { -1, 0, 1 }, { 1, 2, -1 } },
	{ "re-land pairs with the revert, not the original",
	    { { SHA("a1a1"), "Add foo" },
	      { SHA("c3c3"), "Reland: Add foo" } },
	    { -1, -1 }, { -1, -1 } },
	{ "an exact subject wins over a later loose one",
	    { { SHA("a1a1"), "Add foo (#1)" },
	      { SHA("b2b2"), "Add foo (#2)" },
	      { SHA("c3c3"), "Revert \"Add foo (#1)\"" } },
	    { -1, -1, 0 }, { 2, -1, -1 } },
	{ "loose: the latest earlier one, whatever its number",
	    { { SHA("a1a1"), "Add foo (#1)" },
	      { SHA("b2b2"), "Add foo" },
	      { SHA("d4d4"), "Add foo (#2)" },
	      { SHA("c3c3"), "Revert \"Add foo (#9)\"" },
	      { SHA("e5e5"), "Add foo (#3)" } },
	    { -1, -1, -1, 2, -1 }, { -1, -1, 3, -1, -1 } },
	{ "two reverts of one commit: the first is its reverter",
	    { { SHA("a1a1"), "Add foo" },
	      { SHA("b2b2"), "Revert \"Add foo\"" },
	      { SHA("c3c3"), "Revert \"Add foo\" (#5)" } },
	    { -1, 0, 0 }, { 1, -1, -1 } },
	{ "a re-land of the later of two reverts",
	    { { SHA("a1a1"), "Revert \"Add foo (#1)\"" },
	      { SHA("b2b2"), "Revert \"Add foo (#2)\"" },
	      { SHA("e5e5"), "Add bar" },
	      { SHA("c3c3"), "Reapply \"Add foo\"" } },
	    { -1, -1, -1, 1 }, { -1, 3, -1, -1 } },
	{ "a suffix alone names nothing",
	    { { SHA("a1a1"), "(#1)" },
	      { SHA("b2b2"), "Revert \" (#2)\"" } },
	    { -1, -1 }, { -1, -1 } },
};

static void
test_day_pair_reverts(void **state)
{
	struct day	*d;
	struct commit	 c;
	size_t		 i, j, n;

	for (i = 0; i < sizeof(pair_cases) / sizeof(pair_cases[0]); i++) {
		d = day_new("o/r", 0);
		for (n = 0; n < MAXC && pair_cases[i].commits[n].sha; n++) {
			make_commit(&c, pair_cases[i].commits[n].sha,
			    pair_cases[i].commits[n].message, "a", "A");
			assert_int_equal(day_add_commit(d, &c), 1);
		}
		/* twice: pairing is recomputed, not accumulated */
		day_pair_reverts(d);
		day_pair_reverts(d);
		for (j = 0; j < n; j++) {
			if (d->commits[j].reverts_idx !=
			    pair_cases[i].reverts[j])
				fail_msg("%s: commit %zu reverts %ld, want %ld",
				    pair_cases[i].name, j,
				    d->commits[j].reverts_idx,
				    pair_cases[i].reverts[j]);
			if (d->commits[j].reverted_by_idx !=
			    pair_cases[i].reverted_by[j])
				fail_msg("%s: commit %zu reverted by %ld, "
				    "want %ld", pair_cases[i].name, j,
				    d->commits[j].reverted_by_idx,
				    pair_cases[i].reverted_by[j]);
		}
		day_free(d);
	}
}

/*
 * Pairing as day_pair_reverts defines it, the plain way: for each revert,
 * the commit its sha names, else the latest earlier commit whose subject
 * (for a re-land: whose reverted subject) is the one named, whole first,
 * then without a trailing " (#N)". The reference for the fast pairing.
 */
static size_t
ref_subject_len(const char *s)
{
	size_t	n = strlen(s), i;

	if (n < 5 || s[n - 1] != ')')
		return n;
	for (i = n - 2; i > 0 && s[i] >= '0' && s[i] <= '9'; i--)
		continue;
	if (i == n - 2 || i < 3 || s[i] != '#' || s[i - 1] != '(' ||
	    s[i - 2] != ' ')
		return n;
	return i - 2;
}

static int
ref_same(const char *a, const char *b, int exact)
{
	size_t	alen, blen;

	if (a == NULL || b == NULL)
		return 0;
	if (exact)
		return strcmp(a, b) == 0;
	alen = ref_subject_len(a);
	blen = ref_subject_len(b);
	return alen == blen && alen > 0 && strncmp(a, b, alen) == 0;
}

static void
ref_pair(const struct day *d, long *reverts, long *reverted_by)
{
	const struct commit	*c, *t;
	size_t			 i, k;
	long			 j;
	int			 exact;

	for (i = 0; i < d->ncommits; i++)
		reverts[i] = reverted_by[i] = -1;
	for (i = 0; i < d->ncommits; i++) {
		c = &d->commits[i];
		if (!c->revert.is_revert && !c->revert.is_reland)
			continue;
		j = -1;
		for (k = 0; c->revert.reverted_sha != NULL &&
		    k < d->ncommits; k++) {
			if (k != i && strcasecmp(d->commits[k].sha,
			    c->revert.reverted_sha) == 0)
				j = (long)k;
		}
		for (exact = 1; j < 0 && exact >= 0 &&
		    c->revert.reverted_subject != NULL; exact--) {
			for (k = i; j < 0 && k-- > 0;) {
				t = &d->commits[k];
				if (c->revert.is_reland ? (t->revert.is_revert &&
				    ref_same(t->revert.reverted_subject,
				    c->revert.reverted_subject, exact)) :
				    ref_same(t->subject,
				    c->revert.reverted_subject, exact))
					j = (long)k;
			}
		}
		if (j < 0)
			continue;
		reverts[i] = j;
		if (reverted_by[j] < 0)
			reverted_by[j] = (long)i;
	}
}

/*
 * Generated days, ordinary and nearly all reverts, pair as the reference
 * does: the same links, so the episodes drafted from them are unchanged.
 */
static void
test_day_pair_generated(void **state)
{
	static const size_t	 sizes[] = { 0, 1, 2, 7, 50, 400, 1500 };
	struct day		*d;
	long			*rv, *rb;
	size_t			 si, i, links;
	uint64_t		 seed;
	int			 flood;

	for (flood = 0; flood <= 1; flood++) {
		links = 0;
		for (si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
			for (seed = 1; seed <= 6; seed++) {
				d = flood ? gen_day_reverts(seed, sizes[si]) :
				    gen_day(seed, sizes[si]);
				rv = calloc(d->ncommits + 1, sizeof(*rv));
				rb = calloc(d->ncommits + 1, sizeof(*rb));
				ref_pair(d, rv, rb);
				day_pair_reverts(d);
				for (i = 0; i < d->ncommits; i++) {
					if (d->commits[i].reverts_idx != rv[i] ||
					    d->commits[i].reverted_by_idx !=
					    rb[i])
						fail_msg("%s day %zu seed %d: "
						    "commit %zu pairs %ld/%ld, "
						    "want %ld/%ld", flood ?
						    "reverts" : "mixed",
						    sizes[si], (int)seed, i,
						    d->commits[i].reverts_idx,
						    d->commits[i].
						    reverted_by_idx, rv[i],
						    rb[i]);
					links += rv[i] >= 0;
				}
				free(rv);
				free(rb);
				day_free(d);
			}
		}
		/* the days do exercise pairing */
		print_message("%s days: %zu links\n", flood ? "reverts" :
		    "mixed", links);
		assert_true(links > 100);
	}
}

/* Comparisons day_pair_reverts and day_stats make on a day of n reverts. */
static unsigned long long
pair_work(size_t n)
{
	struct day		*d = gen_day_reverts(n, n);
	struct day_stats	 st;
	unsigned long long	 before;

	before = count_cmp();
	day_pair_reverts(d);
	day_stats(d, &st);
	before = count_cmp() - before;
	day_free(d);
	return before;
}

/*
 * Pairing is near-linear (issue #9, finding 4): twice the reverts take
 * about twice the comparisons (n log n: a little over 2), not four times
 * as scanning back for each revert did.
 */
static void
test_day_pair_scales(void **state)
{
	unsigned long long	w1, w2;

	w1 = pair_work(3000);
	w2 = pair_work(6000);
	print_message("pairing 3000 reverts: %llu comparisons, 6000: %llu "
	    "(x%.2f)\n", w1, w2, (double)w2 / (double)w1);
	assert_true(w1 > 0);
	assert_true(w2 * 10 < w1 * 26);
}

/* The 40-hex sha of a 4-character tag, as SHA() spells a literal. */
static void
tag_sha(char sha[41], const char *tag)
{
	size_t	i;

	for (i = 0; i < 10; i++)
		memcpy(sha + 4 * i, tag, 4);
	sha[40] = '\0';
}

/*
 * Merges: what each day holds before (commits as tag and message, PR
 * numbers, how many pushes, the default branch), then what dst holds
 * after, in order. A commit's subject and a PR's title say which day it
 * came from, so the copy that stayed on a duplicate shows; a want of
 * reverted names the commit whose sha the revert info carries.
 */
#define MAXM	5
struct merge_commit {
	const char	*tag;
	const char	*message;
};
struct merge_want {
	const char	*subject;
	const char	*reverted;	/* tag of reverted_sha, or NULL */
	long		 reverts_idx;	/* after day_pair_reverts */
};
static const struct {
	const char		*name;
	struct merge_commit	 dst[MAXM], src[MAXM];
	long			 dst_prs[MAXM], src_prs[MAXM];	/* 0 ends */
	size_t			 dst_pushes, src_pushes;
	const char		*dst_db, *src_db;
	struct merge_want	 want[2 * MAXM];
	long			 want_prs[2 * MAXM];
	const char		*want_db;
} merge_cases[] = {
	{ "into an empty dst",
	    { { NULL } },
	    { { "a1a1", "a1a1 src" },
	      { "b2b2", "Revert \"a1a1 src\"\n\nThis reverts commit "
		SHA("a1a1") "." } },
	    { 0 }, { 7, 8 }, 0, 2, NULL, "main",
	    { { "a1a1 src", NULL, -1 }, { "Revert \"a1a1 src\"", "a1a1", 0 } },
	    { 7, 8 }, "main" },
	{ "from an empty src",
	    { { "a1a1", "a1a1 dst" }, { "b2b2", "b2b2 dst" } },
	    { { NULL } },
	    { 7 }, { 0 }, 1, 0, "main", NULL,
	    { { "a1a1 dst", NULL, -1 }, { "b2b2 dst", NULL, -1 } },
	    { 7 }, "main" },
	{ "both empty",
	    { { NULL } }, { { NULL } }, { 0 }, { 0 }, 0, 0, NULL, NULL,
	    { { NULL } }, { 0 }, NULL },
	{ "overlap: dst's copies stay, src's new ones follow in order",
	    { { "a1a1", "a1a1 dst" }, { "b2b2", "b2b2 dst" } },
	    { { "b2b2", "b2b2 src" }, { "c3c3", "c3c3 src" },
	      { "A1A1", "A1A1 src" },
	      { "d4d4", "Revert \"b2b2 dst\"\n\nThis reverts commit "
		SHA("b2b2") "." } },
	    { 1, 2 }, { 2, 3, 1, 4 }, 1, 2, "main", "trunk",
	    { { "a1a1 dst", NULL, -1 }, { "b2b2 dst", NULL, -1 },
	      { "c3c3 src", NULL, -1 },
	      { "Revert \"b2b2 dst\"", "b2b2", 1 } },
	    { 1, 2, 3, 4 }, "main" },
	{ "dst without a default branch takes src's",
	    { { "a1a1", "a1a1 dst" } }, { { "a1a1", "a1a1 src" } },
	    { 0 }, { 0 }, 0, 0, NULL, "trunk",
	    { { "a1a1 dst", NULL, -1 } }, { 0 }, "trunk" },
};

/* A day at [start, end) holding what a merge case gives it. */
static struct day *
merge_day(time_t start, time_t end, const struct merge_commit *commits,
    const long *prs, size_t npushes, const char *db, const char *side)
{
	struct day		*d = day_new("o/r", start);
	struct commit		 c;
	struct merged_pr	 pr;
	struct push		 p;
	char			 sha[41], text[64];
	size_t			 i;

	d->end = end;
	d->default_branch = db != NULL ? strdup(db) : NULL;
	for (i = 0; i < MAXM && commits[i].tag != NULL; i++) {
		tag_sha(sha, commits[i].tag);
		make_commit(&c, sha, commits[i].message, "a", "A");
		assert_int_equal(day_add_commit(d, &c), 1);
	}
	for (i = 0; i < MAXM && prs[i] != 0; i++) {
		memset(&pr, 0, sizeof(pr));
		pr.number = prs[i];
		snprintf(text, sizeof(text), "#%ld %s", prs[i], side);
		pr.title = strdup(text);
		assert_int_equal(day_add_pr(d, &pr), 1);
	}
	for (i = 0; i < npushes; i++) {
		memset(&p, 0, sizeof(p));
		snprintf(text, sizeof(text), "%s%zu", side, i);
		p.branch = strdup(text);
		assert_int_equal(day_add_push(d, &p), 0);
	}
	return d;
}

static void
test_day_merge(void **state)
{
	struct day		*dst, *src;
	struct commit		 c;
	struct merged_pr	 pr;
	struct push		 p;
	const char		*name;
	char			 sha[41], prefix[8], text[64];
	size_t			 i, j, n, npushes;

	for (i = 0; i < sizeof(merge_cases) / sizeof(merge_cases[0]); i++) {
		name = merge_cases[i].name;
		dst = merge_day(100, 0, merge_cases[i].dst,
		    merge_cases[i].dst_prs, merge_cases[i].dst_pushes,
		    merge_cases[i].dst_db, "dst");
		src = merge_day(200, 300, merge_cases[i].src,
		    merge_cases[i].src_prs, merge_cases[i].src_pushes,
		    merge_cases[i].src_db, "src");
		assert_int_equal(day_merge(dst, src), 0);

		/* dst keeps its window */
		if (dst->start != 100 || dst->end != 0)
			fail_msg("%s: dst window %lld..%lld", name,
			    (long long)dst->start, (long long)dst->end);
		if ((dst->default_branch == NULL) !=
		    (merge_cases[i].want_db == NULL) ||
		    (dst->default_branch != NULL &&
		    strcmp(dst->default_branch, merge_cases[i].want_db) != 0))
			fail_msg("%s: default branch %s, want %s", name,
			    dst->default_branch ? dst->default_branch : "none",
			    merge_cases[i].want_db ? merge_cases[i].want_db :
			    "none");

		/* the commits, deduplicated, in order, revert info kept */
		for (n = 0; n < 2 * MAXM && merge_cases[i].want[n].subject;
		    n++)
			continue;
		if (dst->ncommits != n)
			fail_msg("%s: %zu commits, want %zu", name,
			    dst->ncommits, n);
		day_pair_reverts(dst);
		for (j = 0; j < n; j++) {
			const struct merge_want	*w = &merge_cases[i].want[j];
			const struct commit	*got = &dst->commits[j];

			if (strcmp(got->subject, w->subject) != 0)
				fail_msg("%s: commit %zu is \"%s\", want "
				    "\"%s\"", name, j, got->subject,
				    w->subject);
			if (w->reverted != NULL) {
				tag_sha(sha, w->reverted);
				if (!got->revert.is_revert ||
				    got->revert.reverted_sha == NULL ||
				    strcmp(got->revert.reverted_sha, sha) != 0 ||
				    got->revert.reverted_subject == NULL)
					fail_msg("%s: commit %zu lost its "
					    "revert info", name, j);
			} else if (got->revert.is_revert)
				fail_msg("%s: commit %zu is a revert", name, j);
			if (got->reverts_idx != w->reverts_idx)
				fail_msg("%s: commit %zu reverts %ld, want %ld",
				    name, j, got->reverts_idx, w->reverts_idx);

			/* dst's index finds it, whole and by its prefix */
			if (day_find_commit(dst, got->sha) != (long)j)
				fail_msg("%s: commit %zu not found", name, j);
			snprintf(prefix, sizeof(prefix), "%.7s", got->sha);
			if (day_find_commit(dst, prefix) != (long)j)
				fail_msg("%s: commit %zu not found by %s", name,
				    j, prefix);
		}
		/* every commit src held is a duplicate in dst now */
		for (j = 0; j < MAXM && merge_cases[i].src[j].tag; j++) {
			tag_sha(sha, merge_cases[i].src[j].tag);
			make_commit(&c, sha, "again", "a", "A");
			if (day_add_commit(dst, &c) != 0)
				fail_msg("%s: %s added twice", name, sha);
		}
		assert_int_equal(dst->ncommits, n);

		/* PRs by number, dst's first; pushes all, dst's first */
		for (n = 0; n < 2 * MAXM && merge_cases[i].want_prs[n]; n++)
			continue;
		if (dst->nprs != n)
			fail_msg("%s: %zu PRs, want %zu", name, dst->nprs, n);
		for (j = 0; j < n; j++) {
			if (dst->prs[j].number != merge_cases[i].want_prs[j])
				fail_msg("%s: PR %zu is #%ld, want #%ld", name,
				    j, dst->prs[j].number,
				    merge_cases[i].want_prs[j]);
		}
		for (j = 0; j < MAXM && merge_cases[i].dst_prs[j]; j++)
			if (strstr(dst->prs[j].title, " dst") == NULL)
				fail_msg("%s: PR #%ld is src's copy", name,
				    dst->prs[j].number);
		npushes = merge_cases[i].dst_pushes + merge_cases[i].src_pushes;
		assert_int_equal(dst->npushes, npushes);
		for (j = 0; j < npushes; j++) {
			snprintf(text, sizeof(text), "%s%zu",
			    j < merge_cases[i].dst_pushes ? "dst" : "src",
			    j < merge_cases[i].dst_pushes ? j :
			    j - merge_cases[i].dst_pushes);
			if (strcmp(day_push(dst, j)->branch, text) != 0)
				fail_msg("%s: push %zu on %s, want %s", name, j,
				    day_push(dst, j)->branch, text);
		}

		/* src is left empty, its own, and still usable */
		assert_int_equal(src->ncommits, 0);
		assert_int_equal(src->nprs, 0);
		assert_int_equal(src->npushes, 0);
		assert_int_equal(src->start, 200);
		/* a default branch moved to dst is src's no more */
		if (merge_cases[i].dst_db == NULL &&
		    merge_cases[i].src_db != NULL ? src->default_branch != NULL :
		    dst->default_branch != NULL &&
		    dst->default_branch == src->default_branch)
			fail_msg("%s: default branch shared", name);
		assert_int_equal(day_find_commit(src, SHA("a1a1")), -1);
		for (j = 0; j < MAXM && merge_cases[i].src[j].tag; j++) {
			tag_sha(sha, merge_cases[i].src[j].tag);
			make_commit(&c, sha, "anew", "a", "A");
			if (day_add_commit(src, &c) != 1)
				fail_msg("%s: src still holds %s", name, sha);
			if (day_find_commit(src, sha) != (long)j)
				fail_msg("%s: src lost %s", name, sha);
		}
		for (j = 0; j < MAXM && merge_cases[i].src_prs[j]; j++) {
			memset(&pr, 0, sizeof(pr));
			pr.number = merge_cases[i].src_prs[j];
			pr.title = strdup("anew");
			if (day_add_pr(src, &pr) != 1)
				fail_msg("%s: src still holds PR #%ld", name,
				    merge_cases[i].src_prs[j]);
		}
		memset(&p, 0, sizeof(p));
		p.branch = strdup("anew");
		assert_int_equal(day_add_push(src, &p), 0);
		day_free(src);
		day_free(dst);
	}
}

/*
 * A merge past the tables' growth: dst's index, rebuilt as it grows,
 * finds every commit from either day, and src's overlap is dropped.
 */
/*
 * day_take_window: records at these times, a window, what moves. Commits
 * by timestamp, PRs by merged_at, pushes by at; the window is [start, end).
 */
static const struct take_case {
	const char	*name;
	time_t		 commits[5];	/* 0 ends */
	time_t		 prs[3];
	time_t		 pushes[3];
	time_t		 start, end;
	size_t		 kept, left, kept_prs, kept_pushes;
} take_cases[] = {
	{ "all in", { 100, 150, 199 }, { 120 }, { 130 }, 100, 200,
	    3, 0, 1, 1 },
	{ "ends are [start, end)", { 99, 100, 199, 200 }, { 99, 200 },
	    { 100, 200 }, 100, 200, 2, 2, 0, 1 },
	{ "none in", { 10, 20 }, { 30 }, { 40 }, 100, 200, 0, 2, 0, 0 },
	{ "empty day", { 0 }, { 0 }, { 0 }, 100, 200, 0, 0, 0, 0 },
	{ "a sha twice is one commit", { 150, 150 }, { 0 }, { 0 }, 100, 200,
	    1, 0, 0, 0 },
};

static void
test_day_take_window(void **state)
{
	const struct take_case	*t;
	struct day		*dst, *src;
	struct commit		 c;
	struct merged_pr	 pr;
	struct push		 p;
	char			 sha[41];
	size_t			 i, j, left;

	for (i = 0; i < sizeof(take_cases) / sizeof(take_cases[0]); i++) {
		t = &take_cases[i];
		src = day_new("o/r", 0);
		src->default_branch = strdup("main");
		for (j = 0; j < 5 && t->commits[j] != 0; j++) {
			/* a duplicate time is a duplicate sha */
			snprintf(sha, sizeof(sha), "%040lld",
			    (long long)t->commits[j]);
			make_commit(&c, sha, "A change", "alice", "Alice");
			c.timestamp = t->commits[j];
			assert_int_not_equal(day_add_commit(src, &c), -1);
		}
		for (j = 0; j < 3 && t->prs[j] != 0; j++) {
			memset(&pr, 0, sizeof(pr));
			pr.number = (long)j + 1;
			pr.title = strdup("A pull request");
			pr.merged_at = t->prs[j];
			assert_int_equal(day_add_pr(src, &pr), 1);
		}
		for (j = 0; j < 3 && t->pushes[j] != 0; j++) {
			memset(&p, 0, sizeof(p));
			p.branch = strdup("main");
			p.at = t->pushes[j];
			assert_int_equal(day_add_push(src, &p), 0);
		}
		dst = day_new("o/r", t->start);
		left = 99;
		assert_int_equal(day_take_window(dst, src, t->start, t->end,
		    &left), 0);
		if (dst->ncommits != t->kept || left != t->left ||
		    dst->nprs != t->kept_prs || dst->npushes != t->kept_pushes)
			fail_msg("%s: kept %zu commits (want %zu), left %zu "
			    "(%zu), %zu PRs (%zu), %zu pushes (%zu)", t->name,
			    dst->ncommits, t->kept, left, t->left, dst->nprs,
			    t->kept_prs, dst->npushes, t->kept_pushes);
		for (j = 0; j < dst->ncommits; j++)
			if (dst->commits[j].timestamp < t->start ||
			    dst->commits[j].timestamp >= t->end)
				fail_msg("%s: commit %zu of %lld kept", t->name,
				    j, (long long)dst->commits[j].timestamp);
		/* the moved day is whole: its commits found, its bytes right */
		for (j = 0; j < dst->ncommits; j++)
			assert_int_equal(day_find_commit(dst,
			    dst->commits[j].sha), (long)j);
		assert_int_equal(dst->bytes, day_bytes(dst));
		assert_string_equal(dst->default_branch, "main");
		assert_int_equal(dst->start, t->start);
		/* src is left empty */
		assert_int_equal(src->ncommits + src->nprs + src->npushes, 0);
		assert_int_equal(src->bytes, 0);
		day_free(src);
		day_free(dst);
	}
}

static void
test_day_merge_large(void **state)
{
	struct day	*dst = day_new("o/r", 0), *src = day_new("o/r", 0);
	struct commit	 c;
	char		 sha[41], prefix[11];
	size_t		 i, nd = 1000, ns = 1500, overlap = 500;

	for (i = 0; i < nd; i++) {
		snprintf(sha, sizeof(sha), "%010zx%030zx", i * 2654435761u %
		    100000, i);
		make_commit(&c, sha, "dst", NULL, "N");
		assert_int_equal(day_add_commit(dst, &c), 1);
	}
	/* src's first 500 are dst's last 500 */
	for (i = nd - overlap; i < nd - overlap + ns; i++) {
		snprintf(sha, sizeof(sha), "%010zx%030zx", i * 2654435761u %
		    100000, i);
		make_commit(&c, sha, "src", NULL, "N");
		assert_int_equal(day_add_commit(src, &c), 1);
	}
	assert_int_equal(day_merge(dst, src), 0);
	assert_int_equal(dst->ncommits, nd - overlap + ns);
	assert_int_equal(src->ncommits, 0);
	for (i = 0; i < dst->ncommits; i++) {
		snprintf(sha, sizeof(sha), "%010zx%030zx", i * 2654435761u %
		    100000, i);
		if (day_find_commit(dst, sha) != (long)i)
			fail_msg("commit %zu not found", i);
		snprintf(prefix, sizeof(prefix), "%.10s", sha);
		if (day_find_commit(dst, prefix) != (long)i)
			fail_msg("commit %zu not found by %s", i, prefix);
		if (strcmp(dst->commits[i].subject, i < nd ? "dst" : "src") !=
		    0)
			fail_msg("commit %zu is %s's", i,
			    dst->commits[i].subject);
		make_commit(&c, sha, "again", NULL, "N");
		if (day_add_commit(dst, &c) != 0)
			fail_msg("commit %zu added twice", i);
	}
	day_free(src);
	day_free(dst);
}

static const struct {
	const char	*login;
	const char	*name;
	const char	*message;
} stats_commits[] = {
	{ "alice", "Alice A", "Add foo" },
	{ "ALICE", "Alice on another box", "Add bar" },
	{ NULL, "Carol Doe", "Revert \"Add foo\"" },
	{ NULL, "carol doe", "Reapply \"Add foo\"" },
	{ "", "Dave", "Fix baz (revert)" },
	{ "erin", NULL, "[Reland] Add qux" },
	{ NULL, NULL, "Nobody" },
};

static void
test_day_stats(void **state)
{
	struct day		*d = day_new("o/r", 0);
	struct commit		 c;
	struct push		 p;
	struct day_stats	 st;
	char			 sha[41];
	size_t			 i;

	for (i = 0; i < sizeof(stats_commits) / sizeof(stats_commits[0]);
	    i++) {
		snprintf(sha, sizeof(sha), "%040zx", i + 1);
		make_commit(&c, sha, stats_commits[i].message,
		    stats_commits[i].login, stats_commits[i].name);
		assert_int_equal(day_add_commit(d, &c), 1);
	}
	memset(&p, 0, sizeof(p));
	p.forced = 1;
	assert_int_equal(day_add_push(d, &p), 0);

	day_stats(d, &st);
	assert_int_equal(st.commits, 7);
	/* alice, carol doe, Dave (empty login), erin */
	assert_int_equal(st.authors, 4);
	assert_int_equal(st.reverts, 2);
	assert_int_equal(st.relands, 2);
	assert_int_equal(st.pushes, 1);
	assert_int_equal(st.force_pushes, 1);
	assert_int_equal(st.merged_prs, 0);
	day_free(d);
}

/*
 * Freeing a part at a time: a day of N commits, P PRs and Q pushes takes
 * ceil((N + P + Q) / budget) calls, one for an empty day, each freeing
 * budget items (commits first, then PRs, then pushes) until the last.
 */
static const struct {
	size_t	commits, prs, pushes, budget;
	size_t	calls;
} free_some_cases[] = {
	{ 0, 0, 0, 1, 1 },
	{ 0, 0, 0, 64, 1 },
	{ 1, 0, 0, 1, 1 },
	{ 10, 0, 0, 3, 4 },
	{ 0, 3, 0, 1, 3 },
	{ 0, 0, 7, 2, 4 },
	{ 3, 3, 3, 4, 3 },	/* a call spans commits and PRs, PRs and pushes */
	{ 4, 4, 4, 4, 3 },	/* budget ends exactly at each kind's end */
	{ 10, 5, 2, 4, 5 },
	{ 5, 5, 5, 100, 1 },
	{ 1000, 300, 200, 256, 6 },
	{ 1000, 300, 200, 1500, 1 },
	{ 1000, 300, 200, 1499, 2 },
};

/* A day of the given counts, every record owning some text. */
static struct day *
free_some_day(size_t ncommits, size_t nprs, size_t npushes)
{
	struct day		*d = day_new("o/r", 0);
	struct commit		 c;
	struct merged_pr	 pr;
	struct push		 p;
	char			 sha[41];
	size_t			 i;

	d->default_branch = strdup("main");
	for (i = 0; i < ncommits; i++) {
		snprintf(sha, sizeof(sha), "%040zx", i + 1);
		make_commit(&c, sha, "Revert \"Add foo\"\n\nThis reverts "
		    "commit " SHA("a1a1") ".", "alice", "Alice");
		c.branch = strdup("main");
		c.nadded = 1;
		c.added = record_list_pack("a.c", sizeof("a.c"), 1);
		assert_int_equal(day_add_commit(d, &c), 1);
	}
	for (i = 0; i < nprs; i++) {
		memset(&pr, 0, sizeof(pr));
		pr.number = (long)i + 1;
		pr.title = strdup("title");
		pr.body = strdup("body");
		assert_int_equal(day_add_pr(d, &pr), 1);
	}
	for (i = 0; i < npushes; i++) {
		memset(&p, 0, sizeof(p));
		p.branch = strdup("main");
		assert_int_equal(push_id_set(p.before, SHA("a1a1")), 0);
		assert_int_equal(push_id_set(p.after, SHA("b2b2")), 0);
		assert_int_equal(day_add_push(d, &p), 0);
	}
	return d;
}

static void
test_day_free_some(void **state)
{
	struct day	*d;
	size_t		 i, calls, left, want_left, total, budget;

	for (i = 0; i < sizeof(free_some_cases) / sizeof(free_some_cases[0]);
	    i++) {
		d = free_some_day(free_some_cases[i].commits,
		    free_some_cases[i].prs, free_some_cases[i].pushes);
		total = free_some_cases[i].commits + free_some_cases[i].prs +
		    free_some_cases[i].pushes;
		budget = free_some_cases[i].budget;
		for (calls = 1;; calls++) {
			if (calls > total + 1)
				fail_msg("case %zu: not freed after %zu calls",
				    i, calls - 1);
			if (day_free_some(d, budget) == 1)
				break;
			/* not freed yet: exactly budget items fewer */
			left = d->ncommits + d->nprs + d->npushes;
			want_left = total > calls * budget ?
			    total - calls * budget : 0;
			if (left != want_left)
				fail_msg("case %zu call %zu: %zu items left, "
				    "want %zu", i, calls, left, want_left);
			/* commits go first, then PRs, then pushes */
			if ((d->nprs < free_some_cases[i].prs &&
			    d->ncommits > 0) || (d->npushes <
			    free_some_cases[i].pushes && d->nprs > 0))
				fail_msg("case %zu call %zu: freed out of "
				    "order", i, calls);
		}
		if (calls != free_some_cases[i].calls)
			fail_msg("case %zu (%zu+%zu+%zu by %zu): %zu calls, "
			    "want %zu", i, free_some_cases[i].commits,
			    free_some_cases[i].prs, free_some_cases[i].pushes,
			    budget, calls, free_some_cases[i].calls);
	}

	/* a budget of 0 frees nothing of a day that holds something */
	d = free_some_day(2, 1, 1);
	assert_int_equal(day_free_some(d, 0), 0);
	assert_int_equal(d->ncommits, 2);
	assert_int_equal(d->nprs, 1);
	assert_int_equal(d->npushes, 1);
	assert_int_equal(day_free_some(d, 4), 1);
}

/* A commit of nfiles added file names, each len bytes long. */
static void
make_files_commit(struct commit *c, const char *sha, size_t nfiles,
    size_t len)
{
	size_t	 i;
	char	*d;

	make_commit(c, sha, "Add files\n\nMany of them.", "alice", "Alice");
	c->author_email = strdup("alice@example.com");
	c->branch = strdup("main");
	c->added = record_list_new(nfiles, nfiles * (len + 1), &d);
	assert_non_null(c->added);
	for (i = 0; i < nfiles; i++) {
		c->added[i] = d;
		memset(d, 'a' + (int)(i % 26), len);
		d[len] = '\0';
		d += len + 1;
	}
	c->nadded = nfiles;
}

/*
 * d->bytes: what each record's strings, file names and struct cost, kept
 * through adds, duplicates, merges and day_free_some, always what
 * day_bytes counts afresh.
 */
static void
test_day_bytes(void **state)
{
	struct day		*d = day_new("o/r", 0), *src = day_new("o/r", 0);
	struct commit		 c;
	struct merged_pr	 pr;
	struct push		 p;
	size_t			 one, before;

	assert_int_equal(d->bytes, 0);
	assert_int_equal(day_bytes(d), 0);

	/*
	 * a commit: at least its file names, each with its pointer, the
	 * list one allocation
	 */
	make_files_commit(&c, SHA("aaaa"), 1000, 100);
	one = commit_bytes(&c);
	assert_true(one >= 1000 * (100 + 1 + sizeof(char *)) +
	    RECORD_ALLOC_OVERHEAD + sizeof(c));
	assert_true(one < 1000 * (100 + 1 + sizeof(char *)) +
	    RECORD_ALLOC_OVERHEAD + sizeof(c) + 1024);
	assert_int_equal(day_add_commit(d, &c), 1);
	assert_int_equal(d->bytes, one);
	assert_int_equal(day_bytes(d), one);

	/* a duplicate adds nothing */
	make_files_commit(&c, SHA("aaaa"), 10, 5000);
	assert_int_equal(day_add_commit(d, &c), 0);
	assert_int_equal(d->bytes, one);

	/* a PR and a push, counted with their strings */
	memset(&pr, 0, sizeof(pr));
	pr.number = 7;
	pr.title = strdup("A title");
	pr.body = strdup("A body of some length.");
	before = d->bytes;
	assert_int_equal(day_add_pr(d, &pr), 1);
	assert_int_equal(d->bytes - before, sizeof(pr) + 2 *
	    RECORD_ALLOC_OVERHEAD + sizeof("A title") +
	    sizeof("A body of some length."));
	memset(&p, 0, sizeof(p));
	p.branch = strdup("main");
	assert_int_equal(day_add_push(d, &p), 0);
	assert_int_equal(d->bytes, day_bytes(d));

	/* text cleaned on the way in is counted as kept */
	make_commit(&c, SHA("bbbb"), "Tabs\tand\x1b[31mescapes", "bob",
	    "Bob");
	before = commit_bytes(&c);
	assert_int_equal(day_add_commit(src, &c), 1);
	assert_true(src->bytes < before);
	assert_int_equal(src->bytes, day_bytes(src));
	make_files_commit(&c, SHA("aaaa"), 3, 10);	/* in d already */
	assert_int_equal(day_add_commit(src, &c), 1);

	/* a merge moves the bytes of what it moves; src is left at 0 */
	before = d->bytes;
	one = commit_bytes(&src->commits[0]);
	assert_int_equal(day_merge(d, src), 0);
	assert_int_equal(src->bytes, 0);
	assert_int_equal(d->bytes, before + one);
	assert_int_equal(d->bytes, day_bytes(d));

	/* freed a part at a time, the count follows */
	while (day_free_some(d, 1) == 0)
		assert_int_equal(d->bytes, day_bytes(d));
	day_free(src);
}

/* A loose push on branch by pusher (either may be NULL) at a time. */
static void
make_push(struct push *p, const char *branch, const char *pusher, time_t at)
{
	memset(p, 0, sizeof(*p));
	p->branch = branch != NULL ? strdup(branch) : NULL;
	p->pusher = pusher != NULL ? strdup(pusher) : NULL;
	p->at = at;
}

/* Each of a day's pushes reads as want[i] ("branch/pusher", "-" NULL). */
static void
check_pushes(const char *name, const struct day *d, const char *const *want,
    size_t n)
{
	const struct push	*p;
	char			 got[64];
	size_t			 i;

	if (d->npushes != n)
		fail_msg("%s: %zu pushes, want %zu", name, d->npushes, n);
	for (i = 0; i < n; i++) {
		p = day_push(d, i);
		snprintf(got, sizeof(got), "%s/%s",
		    p->branch != NULL ? p->branch : "-",
		    p->pusher != NULL ? p->pusher : "-");
		if (strcmp(got, want[i]) != 0)
			fail_msg("%s: push %zu is %s, want %s", name, i, got,
			    want[i]);
	}
}

/*
 * A day keeps each branch name and pusher once, shared by its pushes;
 * they move with a merge or a window into the other day's names (read
 * after the day they came from is freed: the ASan run sees a use after
 * free), and the bytes count each name once.
 */
static void
test_day_push_names(void **state)
{
	static const char *const first[] = { "main/ana", "main/bob",
	    "dev/ana", "main/-", "-/-" };
	static const char *const merged[] = { "main/ana", "main/bob",
	    "dev/ana", "main/-", "-/-", "main/carol", "feature/ana" };
	static const char *const window[] = { "topic/dan" };
	struct day	*d = day_new("o/r", 0), *src = day_new("o/r", 0);
	struct push	 p;
	size_t		 names;

	(void)state;
	make_push(&p, "main", "ana", 10);
	assert_true(push_bytes(&p) == sizeof(p) + intern_str_bytes("main") +
	    intern_str_bytes("ana"));
	assert_int_equal(day_add_push(d, &p), 0);
	/* stolen: the caller's push holds nothing */
	assert_null(p.branch);
	assert_null(p.pusher);
	make_push(&p, "main", "bob", 11);
	assert_int_equal(day_add_push(d, &p), 0);
	make_push(&p, "dev", "ana", 12);
	assert_int_equal(day_add_push(d, &p), 0);
	make_push(&p, "main", NULL, 13);
	assert_int_equal(day_add_push(d, &p), 0);
	make_push(&p, NULL, NULL, 14);
	assert_int_equal(day_add_push(d, &p), 0);
	check_pushes("added", d, first, 5);
	assert_int_equal(d->names.n, 4);
	assert_ptr_equal(day_push(d, 0)->branch, day_push(d, 1)->branch);
	assert_ptr_equal(day_push(d, 0)->branch, day_push(d, 3)->branch);
	assert_ptr_equal(day_push(d, 0)->pusher, day_push(d, 2)->pusher);
	names = intern_str_bytes("main") + intern_str_bytes("ana") +
	    intern_str_bytes("bob") + intern_str_bytes("dev");
	assert_int_equal(d->bytes, 5 * sizeof(p) + names);
	assert_int_equal(d->bytes, day_bytes(d));

	/* merged: src's names join d's, each once */
	make_push(&p, "main", "carol", 20);
	assert_int_equal(day_add_push(src, &p), 0);
	make_push(&p, "feature", "ana", 21);
	assert_int_equal(day_add_push(src, &p), 0);
	assert_int_equal(day_merge(d, src), 0);
	assert_int_equal(src->names.n, 0);
	assert_int_equal(src->bytes, 0);
	day_free(src);
	check_pushes("merged", d, merged, 7);
	assert_int_equal(d->names.n, 6);
	assert_ptr_equal(day_push(d, 5)->branch, day_push(d, 0)->branch);
	assert_ptr_equal(day_push(d, 6)->pusher, day_push(d, 0)->pusher);
	assert_int_equal(d->bytes, 7 * sizeof(p) + names +
	    intern_str_bytes("carol") + intern_str_bytes("feature"));
	assert_int_equal(d->bytes, day_bytes(d));

	/* a window: only the names of what moves come along */
	src = day_new("o/r", 0);
	make_push(&p, "old", "eve", 50);
	assert_int_equal(day_add_push(src, &p), 0);
	make_push(&p, "topic", "dan", 150);
	assert_int_equal(day_add_push(src, &p), 0);
	day_free(d);
	d = day_new("o/r", 100);
	assert_int_equal(day_take_window(d, src, 100, 200, NULL), 0);
	day_free(src);
	check_pushes("window", d, window, 1);
	assert_int_equal(d->names.n, 2);
	assert_int_equal(d->bytes, day_bytes(d));

	/* freed a push at a time: the names go with the last */
	make_push(&p, "topic", "fay", 160);
	assert_int_equal(day_add_push(d, &p), 0);
	assert_int_equal(day_free_some(d, 1), 0);
	assert_int_equal(d->bytes, day_bytes(d));
	assert_int_equal(d->names.n, 3);
	assert_int_equal(day_free_some(d, 1), 1);
}

/*
 * A day's pushes in blocks (DAY_PUSH_BLOCK): counts either side of the
 * first block's doublings and of the block boundaries, each push read
 * back in order; then moved a window at a time into a day that has pushes
 * already (its last block part full), freed a few at a time from a big
 * day, and a day freed with blocks to spare. A model (the times, in
 * order) says what each day holds.
 */
static void
check_push_times(const char *name, const struct day *d, const time_t *at,
    size_t n)
{
	size_t	i;

	if (d->npushes != n)
		fail_msg("%s: %zu pushes, want %zu", name, d->npushes, n);
	for (i = 0; i < n; i++)
		if (day_push(d, i)->at != at[i] ||
		    strcmp(day_push(d, i)->branch, i % 2 ? "dev" : "main") != 0)
			fail_msg("%s: push %zu is at %lld on %s, want %lld",
			    name, i, (long long)day_push(d, i)->at,
			    day_push(d, i)->branch, (long long)at[i]);
	assert_true(d->pushes_cap >= n);
	assert_int_equal(d->bytes, day_bytes(d));
}

static void
test_day_push_blocks(void **state)
{
	static const size_t	 counts[] = { 0, 1, 15, 16, 17, 255, 256, 257,
	    511, 512, 513, 1024, 1025, 3 * DAY_PUSH_BLOCK + 7 };
	struct day		*d, *src;
	struct push		 p;
	time_t			*at, *model;
	size_t			 c, i, n, w, nmodel;
	char			 name[32];

	(void)state;
	at = calloc(4096, sizeof(*at));
	model = calloc(8192, sizeof(*model));
	for (c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
		d = day_new("o/r", 0);
		for (i = 0; i < counts[c]; i++) {
			at[i] = (time_t)(1000 + i);
			make_push(&p, i % 2 ? "dev" : "main", "ana", at[i]);
			assert_int_equal(day_add_push(d, &p), 0);
		}
		snprintf(name, sizeof(name), "%zu added", counts[c]);
		check_push_times(name, d, at, counts[c]);
		day_free(d);
	}

	/* windows of src's 2000 moved into a day of 300 */
	src = day_new("o/r", 0);
	d = day_new("o/r", 0);
	for (i = 0; i < 300; i++) {
		model[i] = (time_t)i;
		make_push(&p, i % 2 ? "dev" : "main", "bob", model[i]);
		assert_int_equal(day_add_push(d, &p), 0);
	}
	nmodel = 300;
	for (w = 0; w < 2; w++) {
		for (i = 0; i < 2000; i++) {
			at[i] = (time_t)(1000 + i);
			make_push(&p, (nmodel + i) % 2 ? "dev" : "main", "cy",
			    at[i]);
			assert_int_equal(day_add_push(src, &p), 0);
		}
		/* the first time [1000, 1700), then all of them */
		n = w == 0 ? 700 : 2000;
		if (w == 0)
			assert_int_equal(day_take_window(d, src, 1000, 1700,
			    NULL), 0);
		else
			assert_int_equal(day_merge(d, src), 0);
		assert_int_equal(src->npushes, 0);
		for (i = 0; i < n; i++)
			model[nmodel++] = at[i];
		snprintf(name, sizeof(name), "moved %zu", w);
		check_push_times(name, d, model, nmodel);
	}
	day_free(src);
	/* a few at a time: what is left reads as it did */
	while (nmodel > 0) {
		n = nmodel < 97 ? nmodel : 97;
		if (day_free_some(d, n) == 1) {
			d = NULL;
			break;
		}
		nmodel -= n;
		check_push_times("freed some", d, model, nmodel);
	}
	if (d != NULL)
		assert_int_equal(day_free_some(d, 1), 1);
	free(at);
	free(model);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_day_new_free),
		cmocka_unit_test(test_day_dedup_by_sha),
		cmocka_unit_test(test_day_growth_and_find),
		cmocka_unit_test(test_day_find_prefix),
		cmocka_unit_test(test_day_prs_and_pushes),
		cmocka_unit_test(test_day_pr_index),
		cmocka_unit_test(test_day_pair_reverts),
		cmocka_unit_test(test_day_pair_generated),
		cmocka_unit_test(test_day_pair_scales),
		cmocka_unit_test(test_day_stats),
		cmocka_unit_test(test_day_merge),
		cmocka_unit_test(test_day_take_window),
		cmocka_unit_test(test_day_merge_large),
		cmocka_unit_test(test_day_free_some),
		cmocka_unit_test(test_day_bytes),
		cmocka_unit_test(test_day_push_names),
		cmocka_unit_test(test_day_push_blocks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
