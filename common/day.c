/* A repository's day: commits, merged PRs and pushes, deduplicated. */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "day.h"
#include "hash.h"
#include "xmalloc.h"

#define DAY_MIN_CAP	16

static int	 day_index_grow(struct day *);
static long	 day_index_lookup(const struct day *, const char *);
static void	 day_index_insert(struct day *, long);

/* A new empty day for repo; NULL on allocation failure. */
struct day *
day_new(const char *repo, time_t start)
{
	struct day	*d;

	if (repo == NULL)
		return NULL;
	if ((d = calloc(1, sizeof(*d))) == NULL)
		return NULL;
	if ((d->repo = strdup(repo)) == NULL) {
		free(d);
		return NULL;
	}
	d->start = start;
	return d;
}

/* Free a day and everything it owns. day_free(NULL) is a no-op. */
void
day_free(struct day *d)
{
	size_t	i;

	if (d == NULL)
		return;
	for (i = 0; i < d->ncommits; i++)
		commit_clear(&d->commits[i]);
	free(d->commits);
	for (i = 0; i < d->nprs; i++)
		merged_pr_clear(&d->prs[i]);
	free(d->prs);
	/* the pushes own nothing: their names are the day's */
	for (i = 0; i < d->pushes_cap; i += DAY_PUSH_BLOCK)
		free(d->pushes[i >> DAY_PUSH_SHIFT]);
	free(d->pushes);
	intern_clear(&d->names);
	free(d->sha_index);
	free(d->pr_index);
	free(d->repo);
	free(d->default_branch);
	free(d->html_url);
	free(d);
}

int
day_free_some(struct day *d, size_t budget)
{
	for (; budget > 0 && d->ncommits > 0; budget--) {
		d->bytes -= commit_bytes(&d->commits[--d->ncommits]);
		commit_clear(&d->commits[d->ncommits]);
	}
	for (; budget > 0 && d->nprs > 0; budget--) {
		d->bytes -= merged_pr_bytes(&d->prs[--d->nprs]);
		merged_pr_clear(&d->prs[d->nprs]);
	}
	for (; budget > 0 && d->npushes > 0; budget--) {
		d->npushes--;
		d->bytes -= sizeof(struct push);
	}
	if (d->ncommits > 0 || d->nprs > 0 || d->npushes > 0)
		return 0;
	d->bytes -= d->names.bytes;
	intern_clear(&d->names);
	day_free(d);
	return 1;
}

/*
 * Make room for one more element in an array of n with capacity *cap,
 * doubling. 0 or -1; the array is untouched on failure.
 */
static int
day_reserve(void **array, size_t n, size_t *cap, size_t size)
{
	void	*p;
	size_t	 newcap;

	if (n < *cap)
		return 0;
	newcap = *cap != 0 ? *cap * 2 : DAY_MIN_CAP;
	if (newcap < *cap || newcap > SIZE_MAX / size)
		return -1;
	if ((p = reallocarray(*array, newcap, size)) == NULL)
		return -1;
	*array = p;
	*cap = newcap;
	return 0;
}

/*
 * Make room for one more push: the first block doubled up to
 * DAY_PUSH_BLOCK, then a block more (the pointers to the blocks doubled
 * at each power of two). 0 or -1; the pushes are untouched on failure.
 */
static int
day_push_reserve(struct day *d)
{
	struct push	**blocks, *b;
	size_t		  n, cap;

	if (d->npushes < d->pushes_cap)
		return 0;
	if (d->pushes_cap < DAY_PUSH_BLOCK) {
		cap = d->pushes_cap != 0 ? 2 * d->pushes_cap : DAY_MIN_CAP;
		if (cap > DAY_PUSH_BLOCK)
			cap = DAY_PUSH_BLOCK;
		if (d->pushes == NULL &&
		    (d->pushes = calloc(1, sizeof(*d->pushes))) == NULL)
			return -1;
		if ((b = reallocarray(d->pushes[0], cap, sizeof(*b))) == NULL)
			return -1;
		d->pushes[0] = b;
		d->pushes_cap = cap;
		return 0;
	}
	n = d->pushes_cap >> DAY_PUSH_SHIFT;
	if ((n & (n - 1)) == 0) {
		if ((blocks = reallocarray(d->pushes, 2 * n,
		    sizeof(*blocks))) == NULL)
			return -1;
		d->pushes = blocks;
	}
	if ((b = reallocarray(NULL, DAY_PUSH_BLOCK, sizeof(*b))) == NULL)
		return -1;
	d->pushes[n] = b;
	d->pushes_cap += DAY_PUSH_BLOCK;
	return 0;
}

/* Index of the commit with exactly this sha, or -1. */
static long
day_index_lookup(const struct day *d, const char *sha)
{
	size_t	mask, i;
	long	idx;

	if (d->sha_index_cap == 0)
		return -1;
	mask = d->sha_index_cap - 1;
	for (i = hash_str_lower(sha) & mask;; i = (i + 1) & mask) {
		idx = d->sha_index[i];
		if (idx < 0)
			return -1;
		if (strcasecmp(d->commits[idx].sha, sha) == 0)
			return idx;
	}
}

/* Insert commit idx; the table must have a free slot. */
static void
day_index_insert(struct day *d, long idx)
{
	size_t	mask = d->sha_index_cap - 1, i;

	i = hash_str_lower(d->commits[idx].sha) & mask;
	while (d->sha_index[i] >= 0)
		i = (i + 1) & mask;
	d->sha_index[i] = idx;
}

/*
 * Keep an index table (of n entries, at *cap slots) at most half full so
 * probes stay short; rebuild it at twice the size with insert when the
 * next entry would pass that. 0 or -1 (the old table stays on failure).
 */
static int
day_table_grow(struct day *d, long **tablep, size_t *capp, size_t n,
    void (*insert)(struct day *, long))
{
	long	*table, *old;
	size_t	 cap, i;

	if ((n + 1) * 2 <= *capp)
		return 0;
	cap = *capp != 0 ? *capp * 2 : DAY_MIN_CAP * 2;
	if (cap < *capp || cap > SIZE_MAX / sizeof(*table))
		return -1;
	if ((table = malloc(cap * sizeof(*table))) == NULL)
		return -1;
	for (i = 0; i < cap; i++)
		table[i] = -1;
	old = *tablep;
	*tablep = table;
	*capp = cap;
	for (i = 0; i < n; i++)
		insert(d, (long)i);
	free(old);
	return 0;
}

/* Grow the sha index (see day_table_grow). */
static int
day_index_grow(struct day *d)
{
	return day_table_grow(d, &d->sha_index, &d->sha_index_cap,
	    d->ncommits, day_index_insert);
}

/*
 * Add a commit, stealing what it owns. 1 added, 0 duplicate sha (the
 * caller's commit is cleared), -1 on allocation failure or a commit with
 * no sha (the caller's commit is left as it was).
 */
int
day_add_commit(struct day *d, struct commit *c)
{
	long	idx;

	if (c->sha == NULL)
		return -1;
	if (day_index_lookup(d, c->sha) >= 0) {
		commit_clear(c);
		return 0;
	}
	if (day_reserve((void **)&d->commits, d->ncommits, &d->commits_cap,
	    sizeof(*d->commits)) == -1)
		return -1;
	if (day_index_grow(d) == -1)
		return -1;

	/* payload text enters the day cleaned, whatever brought it */
	commit_clean(c);
	idx = (long)d->ncommits;
	d->commits[idx] = *c;
	d->commits[idx].reverts_idx = -1;
	d->commits[idx].reverted_by_idx = -1;
	d->ncommits++;
	d->bytes += commit_bytes(&d->commits[idx]);
	day_index_insert(d, idx);
	memset(c, 0, sizeof(*c));
	return 1;
}

int
day_has_commit(const struct day *d, const char *sha)
{
	return sha != NULL && day_index_lookup(d, sha) >= 0;
}

/* Find a commit by full sha or by a unique prefix of 7+ hex; index or -1. */
long
day_find_commit(const struct day *d, const char *sha)
{
	size_t	len, i;
	long	found = -1;

	if (sha == NULL)
		return -1;
	len = strlen(sha);
	if (len < 7 || len > 40)
		return -1;
	for (i = 0; i < len; i++)
		if (!isxdigit((unsigned char)sha[i]))
			return -1;
	if (len == 40)
		return day_index_lookup(d, sha);

	for (i = 0; i < d->ncommits; i++) {
		if (d->commits[i].sha == NULL ||
		    strncasecmp(d->commits[i].sha, sha, len) != 0)
			continue;
		if (found >= 0)
			return -1;	/* ambiguous */
		found = (long)i;
	}
	return found;
}

/* A slot of the PR index for number n: its home, probing from there. */
static size_t
day_pr_home(long n, size_t mask)
{
	uint64_t	h = (uint64_t)n * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h >> 32) & mask;
}

/* Index of the merged PR numbered n, or -1. */
static long
day_pr_lookup(const struct day *d, long n)
{
	size_t	mask, i;
	long	idx;

	if (d->pr_index_cap == 0)
		return -1;
	mask = d->pr_index_cap - 1;
	for (i = day_pr_home(n, mask);; i = (i + 1) & mask) {
		if ((idx = d->pr_index[i]) < 0)
			return -1;
		if (d->prs[idx].number == n)
			return idx;
	}
}

/* Insert PR idx; the table must have a free slot. */
static void
day_pr_insert(struct day *d, long idx)
{
	size_t	mask = d->pr_index_cap - 1, i;

	i = day_pr_home(d->prs[idx].number, mask);
	while (d->pr_index[i] >= 0)
		i = (i + 1) & mask;
	d->pr_index[i] = idx;
}

/*
 * Grow the PR index as the sha index grows: a day's PRs were found by a
 * scan of them all, quadratic over a day (issue #9).
 */
static int
day_pr_grow(struct day *d)
{
	return day_table_grow(d, &d->pr_index, &d->pr_index_cap, d->nprs,
	    day_pr_insert);
}

/* Add a merged PR (stolen). 1 added, 0 already there (same number), -1. */
int
day_add_pr(struct day *d, struct merged_pr *pr)
{
	if (day_pr_lookup(d, pr->number) >= 0) {
		merged_pr_clear(pr);
		return 0;
	}
	if (day_reserve((void **)&d->prs, d->nprs, &d->prs_cap,
	    sizeof(*d->prs)) == -1)
		return -1;
	if (day_pr_grow(d) == -1)
		return -1;
	merged_pr_clean(pr);
	d->prs[d->nprs] = *pr;
	day_pr_insert(d, (long)d->nprs);
	d->nprs++;
	d->bytes += merged_pr_bytes(pr);
	memset(pr, 0, sizeof(*pr));
	return 1;
}

/*
 * Put a push in the day, its branch and pusher in the day's names: a
 * push stolen from a caller (owned: its copies are freed), or one of
 * another day's, whose names stay that day's. 0 or -1 (p untouched; a
 * name the table took on the way is counted and stays).
 */
static int
day_put_push(struct day *d, struct push *p, int owned)
{
	struct push	*q;
	char		*branch = NULL, *pusher = NULL;
	size_t		 names = d->names.bytes;
	int		 rc = 0;

	if (day_push_reserve(d) == -1)
		return -1;
	/* a day's pushes are clean already; a table's names never change */
	if (owned)
		push_clean(p);
	if ((p->branch != NULL &&
	    (branch = intern_add(&d->names, p->branch)) == NULL) ||
	    (p->pusher != NULL &&
	    (pusher = intern_add(&d->names, p->pusher)) == NULL))
		rc = -1;
	d->bytes += d->names.bytes - names;
	if (rc == -1)
		return -1;
	if (owned) {
		free(p->branch);
		free(p->pusher);
	}
	q = day_push(d, d->npushes++);
	*q = *p;
	q->branch = branch;
	q->pusher = pusher;
	d->bytes += sizeof(*q);
	memset(p, 0, sizeof(*p));
	return 0;
}

int
day_add_push(struct day *d, struct push *p)
{
	return day_put_push(d, p, 1);
}

/*
 * Move into dst what src holds, or with window only its records of
 * [start, end) (commits by timestamp, PRs by merged_at, pushes by when
 * they came), counting the commits left out in *left; src is left empty.
 */
static int
day_move(struct day *dst, struct day *src, int window, time_t start,
    time_t end, size_t *left)
{
	size_t	i, out = 0;
	int	rc = 0;

#define DAY_IN(t)	(!window || ((t) >= start && (t) < end))
	for (i = 0; i < src->ncommits && rc == 0; i++) {
		if (!DAY_IN(src->commits[i].timestamp))
			out++;
		else if (day_add_commit(dst, &src->commits[i]) == -1)
			rc = -1;
	}
	for (i = 0; i < src->nprs && rc == 0; i++)
		if (DAY_IN(src->prs[i].merged_at) &&
		    day_add_pr(dst, &src->prs[i]) == -1)
			rc = -1;
	for (i = 0; i < src->npushes && rc == 0; i++)
		if (DAY_IN(day_push(src, i)->at) &&
		    day_put_push(dst, day_push(src, i), 0) == -1)
			rc = -1;
#undef DAY_IN
	if (dst->default_branch == NULL && src->default_branch != NULL) {
		dst->default_branch = src->default_branch;
		src->default_branch = NULL;
	}
	if (dst->html_url == NULL && src->html_url != NULL) {
		dst->html_url = src->html_url;
		src->html_url = NULL;
	}
	/* the moved-from slots are zeroed: clearing them frees nothing */
	for (i = 0; i < src->ncommits; i++)
		commit_clear(&src->commits[i]);
	for (i = 0; i < src->nprs; i++)
		merged_pr_clear(&src->prs[i]);
	/* src's pushes own nothing; what dst took of its names is dst's */
	intern_clear(&src->names);
	src->ncommits = src->nprs = src->npushes = 0;
	src->bytes = 0;
	if (src->sha_index != NULL)
		memset(src->sha_index, 0xff, src->sha_index_cap *
		    sizeof(*src->sha_index));
	if (src->pr_index != NULL)
		memset(src->pr_index, 0xff, src->pr_index_cap *
		    sizeof(*src->pr_index));
	if (left != NULL)
		*left = out;
	return rc;
}

int
day_merge(struct day *dst, struct day *src)
{
	return day_move(dst, src, 0, 0, 0, NULL);
}

int
day_take_window(struct day *dst, struct day *src, time_t start, time_t end,
    size_t *left)
{
	return day_move(dst, src, 1, start, end, left);
}

/* Length of s without a trailing " (#123)" pull request suffix. */
static size_t
day_subject_len(const char *s)
{
	size_t	n = strlen(s), i;

	if (n < 5 || s[n - 1] != ')')
		return n;
	for (i = n - 2; i > 0 && isdigit((unsigned char)s[i]); i--)
		/* nothing */;
	if (i == n - 2 || i < 3 || s[i] != '#' || s[i - 1] != '(' ||
	    s[i - 2] != ' ')
		return n;
	return i - 2;
}

/*
 * Pairing by subject looks, for each revert, for the latest earlier commit
 * whose subject (or, for a re-land, whose reverted subject) is the one it
 * names. Scanning back through the day for each revert is quadratic: a day
 * of 82k reverts took a minute (issue #9). Instead every candidate key goes
 * into a table sorted by (key, index) once, and each revert binary-searches
 * it for the last entry of its key below its own index: O(n log n).
 *
 * Four tables, built only when a revert needs them: commit subjects whole
 * and without a trailing " (#N)" (exact and loose
 * senses), and the same for reverts' reverted subjects, which re-lands
 * look for. A key is a byte range, so the loose sense needs no copies.
 */
enum day_pair_table {
	DAY_PAIR_SUBJECT,
	DAY_PAIR_SUBJECT_LOOSE,
	DAY_PAIR_REVERTED,
	DAY_PAIR_REVERTED_LOOSE,
	DAY_PAIR_NTABLES
};

struct day_pair_key {
	const char	*s;
	size_t		 len;
	size_t		 idx;
};

struct day_pair_index {
	struct day_pair_key	*v;
	size_t			 n;
	int			 built;
};

static int
day_pair_keycmp(const char *a, size_t alen, const char *b, size_t blen)
{
	int	c;

	if ((c = memcmp(a, b, alen < blen ? alen : blen)) != 0)
		return c;
	return alen < blen ? -1 : alen > blen;
}

static int
day_pair_cmp(const void *a, const void *b)
{
	const struct day_pair_key *x = a, *y = b;
	int	c;

	if ((c = day_pair_keycmp(x->s, x->len, y->s, y->len)) != 0)
		return c;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Fill table t of d (sorted). */
static void
day_pair_build(const struct day *d, enum day_pair_table t,
    struct day_pair_index *ix)
{
	const struct commit	*c;
	const char		*s;
	size_t			 i, len;
	int			 loose;

	ix->built = 1;
	if (d->ncommits == 0)
		return;
	ix->v = xcalloc(d->ncommits, sizeof(*ix->v));
	loose = t == DAY_PAIR_SUBJECT_LOOSE || t == DAY_PAIR_REVERTED_LOOSE;
	for (i = 0; i < d->ncommits; i++) {
		c = &d->commits[i];
		if (t == DAY_PAIR_SUBJECT || t == DAY_PAIR_SUBJECT_LOOSE)
			s = c->subject;
		else
			s = c->revert.is_revert ? c->revert.reverted_subject :
			    NULL;
		if (s == NULL)
			continue;
		len = loose ? day_subject_len(s) : strlen(s);
		if (loose && len == 0)
			continue;
		ix->v[ix->n].s = s;
		ix->v[ix->n].len = len;
		ix->v[ix->n].idx = i;
		ix->n++;
	}
	qsort(ix->v, ix->n, sizeof(*ix->v), day_pair_cmp);
}

/* The last index below i whose key is s[0..len) in a sorted table, or -1. */
static long
day_pair_search(const struct day_pair_index *ix, const char *s, size_t len,
    size_t i)
{
	const struct day_pair_key	*k;
	size_t				 lo = 0, hi = ix->n, mid;
	int				 c;

	/* lo: the first entry not below (s, i) */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		k = &ix->v[mid];
		c = day_pair_keycmp(k->s, k->len, s, len);
		if (c < 0 || (c == 0 && k->idx < i))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return -1;
	k = &ix->v[lo - 1];
	if (day_pair_keycmp(k->s, k->len, s, len) != 0)
		return -1;
	return (long)k->idx;
}

/*
 * The latest commit before i that is the target of commit i, or -1.
 */
static long
day_pair_target(const struct day *d, size_t i, struct day_pair_index *ix)
{
	const struct commit	*c = &d->commits[i];
	const char		*want = c->revert.reverted_subject;
	enum day_pair_table	 t;
	long			 j;
	size_t			 len;
	int			 exact;

	if (c->revert.reverted_sha != NULL) {
		j = day_find_commit(d, c->revert.reverted_sha);
		if (j >= 0 && (size_t)j != i)
			return j;
	}
	if (want == NULL)
		return -1;
	for (exact = 1; exact >= 0; exact--) {
		if (c->revert.is_reland)
			t = exact ? DAY_PAIR_REVERTED : DAY_PAIR_REVERTED_LOOSE;
		else
			t = exact ? DAY_PAIR_SUBJECT : DAY_PAIR_SUBJECT_LOOSE;
		len = exact ? strlen(want) : day_subject_len(want);
		if (!exact && len == 0)
			continue;
		if (!ix[t].built)
			day_pair_build(d, t, &ix[t]);
		if ((j = day_pair_search(&ix[t], want, len, i)) >= 0)
			return j;
	}
	return -1;
}

/*
 * Link reverts to the commits they revert (and re-lands to the reverts
 * they undo) when both are in the day: by sha first, then by subject.
 * Links are recomputed from scratch, so it can run after every push.
 */
void
day_pair_reverts(struct day *d)
{
	struct day_pair_index	ix[DAY_PAIR_NTABLES];
	size_t			i, t;
	long			j;

	memset(ix, 0, sizeof(ix));
	for (i = 0; i < d->ncommits; i++)
		d->commits[i].reverts_idx = d->commits[i].reverted_by_idx = -1;
	for (i = 0; i < d->ncommits; i++) {
		if (!d->commits[i].revert.is_revert &&
		    !d->commits[i].revert.is_reland)
			continue;
		if ((j = day_pair_target(d, i, ix)) < 0)
			continue;
		d->commits[i].reverts_idx = j;
		/* the first revert of a commit stays its reverter */
		if (d->commits[j].reverted_by_idx < 0)
			d->commits[j].reverted_by_idx = (long)i;
	}
	for (t = 0; t < DAY_PAIR_NTABLES; t++)
		free(ix[t].v);
}

size_t
day_bytes(const struct day *d)
{
	size_t	i, bytes = 0;

	for (i = 0; i < d->ncommits; i++)
		bytes += commit_bytes(&d->commits[i]);
	for (i = 0; i < d->nprs; i++)
		bytes += merged_pr_bytes(&d->prs[i]);
	return bytes + d->npushes * sizeof(struct push) + d->names.bytes;
}

/* Counts as an episode reports them. */
void
day_stats(const struct day *d, struct day_stats *st)
{
	const char	**keys;
	const char	*key;
	size_t		 i, j, size;

	memset(st, 0, sizeof(*st));
	st->commits = d->ncommits;
	st->merged_prs = d->nprs;
	st->pushes = d->npushes;
	for (i = 0; i < d->npushes; i++)
		if (day_push(d, i)->forced)
			st->force_pushes++;
	for (i = 0; i < d->ncommits; i++) {
		if (d->commits[i].revert.is_revert)
			st->reverts++;
		if (d->commits[i].revert.is_reland)
			st->relands++;
	}

	/*
	 * Distinct authors: an open-addressed set of the keys, twice the
	 * commits in size, any case one key (a day of 10,000 commits was
	 * sorted: 8 M instructions, now about 1 M).
	 */
	if (d->ncommits == 0)
		return;
	for (size = 16; size < d->ncommits * 2; size *= 2)
		continue;
	if ((keys = calloc(size, sizeof(*keys))) == NULL) {
		/* No memory for the sort: count the slow way. */
		for (i = 0; i < d->ncommits; i++) {
			if ((key = commit_author_key(&d->commits[i])) == NULL)
				continue;
			for (j = 0; j < i; j++) {
				const char *other = commit_author_key(
				    &d->commits[j]);

				if (other != NULL && strcasecmp(other, key) == 0)
					break;
			}
			if (j == i)
				st->authors++;
		}
		return;
	}
	for (i = 0; i < d->ncommits; i++) {
		if ((key = commit_author_key(&d->commits[i])) == NULL)
			continue;
		for (j = hash_str_lower(key) & (size - 1); keys[j] != NULL &&
		    strcasecmp(keys[j], key) != 0; j = (j + 1) & (size - 1))
			continue;
		if (keys[j] == NULL) {
			keys[j] = key;
			st->authors++;
		}
	}
	free(keys);
}
