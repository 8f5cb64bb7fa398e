/*
 * A repository's day: the records accumulated between two emissions. The
 * day store (journal/store.c) keeps one per repository; the episode drafter
 * reads one. Plain structs, no libevent.
 */
#ifndef HOOKCAST_DAY_H
#define HOOKCAST_DAY_H

#include <stddef.h>
#include <time.h>

#include "intern.h"
#include "record.h"

/* pushes per block of a day's (18 KB): a power of two */
#define DAY_PUSH_SHIFT	8
#define DAY_PUSH_BLOCK	((size_t)1 << DAY_PUSH_SHIFT)

struct day {
	char		*repo;		/* "owner/name" */
	char		*default_branch;
	char		*html_url;	/* the repository's page (repo_url_ok) */
	time_t		 start;		/* window start (UTC seconds) */
	time_t		 end;		/* window end; 0 while open */

	struct commit	*commits;	/* in arrival order */
	size_t		 ncommits;
	size_t		 commits_cap;

	struct merged_pr *prs;
	size_t		 nprs;
	size_t		 prs_cap;

	/*
	 * In blocks of DAY_PUSH_BLOCK, read through day_push: the first
	 * block grows to its size by doubling (most days have a few pushes),
	 * then a block is added at a time. A doubled array kept up to twice
	 * the pushes it held, and copied them all as it grew.
	 */
	struct push    **pushes;
	size_t		 npushes;
	size_t		 pushes_cap;	/* pushes the blocks hold */
	/*
	 * The pushes' branch names and pushers, each kept once: a push in
	 * the day borrows its branch and pusher from here (day_add_push).
	 */
	struct intern	 names;

	/* open-addressing set of commit shas for dedup (indexes into commits) */
	long		*sha_index;
	size_t		 sha_index_cap;
	/* the same for merged PRs' numbers (indexes into prs) */
	long		*pr_index;
	size_t		 pr_index_cap;

	/*
	 * What the records cost (commit_bytes, merged_pr_bytes, and for the
	 * pushes their structs and names.bytes), kept as they come and go:
	 * always day_bytes(), without the walk.
	 */
	size_t		 bytes;
};

/* The day's i-th push (borrowed), i < npushes. */
static inline struct push *
day_push(const struct day *d, size_t i)
{
	return &d->pushes[i >> DAY_PUSH_SHIFT][i & (DAY_PUSH_BLOCK - 1)];
}

/* A new empty day for repo; NULL on allocation failure. */
struct day	*day_new(const char *repo, time_t start);
/* Free a day and everything it owns. day_free(NULL) is a no-op. */
void		 day_free(struct day *);
/*
 * Free a day a part at a time, so that a big one never holds the caller
 * long: up to budget commits, PRs and pushes, then the day itself once
 * nothing is left. 1 when the day is freed, else 0 (call again with a
 * budget of at least 1).
 */
int		 day_free_some(struct day *, size_t budget);

/*
 * Add a commit, stealing what it owns (the caller's struct is zeroed);
 * its texts are cleaned on the way in (commit_clean), as are a PR's and a
 * push's below. Returns 1 if added, 0 if a commit with the same sha is
 * already in the day (the caller's commit is then cleared), -1 on
 * allocation failure.
 */
int		 day_add_commit(struct day *, struct commit *);
/* Is a commit with exactly this sha in the day (case aside)? */
int		 day_has_commit(const struct day *, const char *sha);
/* Find a commit by full sha or by a unique prefix of 7+ hex; index or -1. */
long		 day_find_commit(const struct day *, const char *sha);
/* Add a merged PR (stolen). 1 added, 0 already there (same number), -1. */
int		 day_add_pr(struct day *, struct merged_pr *);
/*
 * Add a push (stolen): its branch and pusher go into the day's names,
 * shared with its other pushes, and the push's own copies are freed. A
 * push in the day borrows them: never push_clear one. 0, or -1 on
 * allocation failure (the caller's push is left as it was).
 */
int		 day_add_push(struct day *, struct push *);
/*
 * Move what src holds into dst, after dst's own (commits already in dst
 * are dropped, as day_add_commit does); src is left empty. dst keeps its
 * window. 0, or -1 on allocation failure (what was moved stays moved).
 */
int		 day_merge(struct day *dst, struct day *src);
/*
 * As day_merge, but only src's records of [start, end) move: commits by
 * their timestamp, merged PRs by merged_at, pushes by when they came;
 * the rest are freed, and *left says how many commits were. 0 or -1.
 */
int		 day_take_window(struct day *dst, struct day *src,
		    time_t start, time_t end, size_t *left);
/*
 * Link reverts to the commits they revert (and re-lands to the reverts
 * they undo) when both are in the day: by sha first, then by subject.
 */
void		 day_pair_reverts(struct day *);

/* The bytes of every record, counted afresh: O(day); see d->bytes. */
size_t		 day_bytes(const struct day *);

/* Counts as an episode reports them. */
struct day_stats {
	size_t	commits;
	size_t	merged_prs;
	size_t	reverts;
	size_t	relands;
	size_t	authors;	/* distinct commit authors (by login, else name) */
	size_t	pushes;
	size_t	force_pushes;
};
void		 day_stats(const struct day *, struct day_stats *);

#endif
