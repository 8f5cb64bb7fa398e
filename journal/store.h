/*
 * The day store: one open day per repository, plus the set of deliveries
 * already accepted (hook id + GUID) so a redelivery is counted once.
 */
#ifndef HOOKCAST_STORE_H
#define HOOKCAST_STORE_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "day.h"
#include "handler.h"

struct store;

struct store_repo {
	char		*name;
	struct day	*day;
	/*
	 * The day handed to the drafter (store_handoff), until its episode
	 * is out (store_drafted) or the draft failed (store_merge_back).
	 * NULL when none is.
	 */
	struct day	*drafting;
	/* the last head seen on each branch, for gap detection */
	char	       **head_branch;
	char	       **head_after;
	size_t		 nheads;
	/* heads a gap left missing ("branch\nsha"), until a push fills them */
	char	       **missing;
	size_t		 nmissing;

	/*
	 * Where the open day ([0]) and the day being drafted ([1]) begin in
	 * a shared journal's stream (its first record's entry id, ms and
	 * seq), so that the stream is trimmed only before both; 0 and 0
	 * when none is known. Kept by the daemon, not by the store.
	 */
	uint64_t	 begins[2][2];

	/* what the open day has admitted (store_admit); 0 after a rotation */
	size_t		 taken_commits;
	size_t		 taken_deliveries;
	int		 told_commits;	/* its refusal logged today */
	int		 told_deliveries;
	int		 told_bytes;
	int		 active;	/* a delivery since store_drop_idle */
	/* its days' bytes (open and drafted) as last counted (store_recount) */
	size_t		 bytes;
};

/* Bounds on what deliveries make the store keep; 0 is no bound. */
struct store_limits {
	size_t	max_repositories;
	size_t	max_seen;
	size_t	max_commits_per_day;	/* per repository */
	size_t	max_deliveries_per_day;	/* per repository */
	size_t	max_open_bytes;		/* the days' bytes, all repositories */
};

/* Why store_admit refuses a delivery. */
enum store_quota {
	STORE_QUOTA_OK,
	STORE_QUOTA_NOT_ALLOWED,	/* not in the allow-list */
	STORE_QUOTA_REPOSITORIES,	/* a new one past max_repositories */
	STORE_QUOTA_COMMITS,		/* past max_commits_per_day */
	STORE_QUOTA_DELIVERIES,		/* past max_deliveries_per_day */
	STORE_QUOTA_BYTES,		/* past max_open_bytes */
	STORE_QUOTA_MAX
};

struct store	*store_new(void);
void		 store_free(struct store *);
/* Set the bounds (copied); a smaller max_seen applies at the next mark. */
void		 store_set_limits(struct store *, const struct store_limits *);

/*
 * May a delivery of ncommits commits and bytes (store_result_bytes) to
 * repo go into its open day? The allow-list is the caller's (allowed 0
 * refuses). On STORE_QUOTA_OK the repository exists (created with a day
 * from start) and the delivery is counted against its day's caps, its
 * bytes held back against max_open_bytes until store_add takes them or
 * store_release gives them back; a refusal is counted (store_refusals)
 * and logged once per repository (per day for the day's caps and bytes,
 * until the next store_drop_idle for the others).
 */
enum store_quota store_admit(struct store *, const char *repo, int allowed,
		    size_t ncommits, size_t bytes, time_t start);
/*
 * What a delivery would add to the days, as they count it (commit_bytes,
 * ...): at least what it adds, as cleaning and duplicates only take away.
 * 0 for one with no repository (nothing kept).
 */
size_t		 store_result_bytes(const struct handler_result *);
/*
 * Drop from res the commits its repository's open day already holds,
 * which store_add would skip: they are neither journalled again nor
 * counted against the day's caps. Returns how many were dropped.
 */
size_t		 store_drop_known(struct store *, struct handler_result *);
/*
 * store_admit of a delivery's result, its bytes counted once: on
 * STORE_QUOTA_OK res->held is what is held back for it, which store_add
 * or store_release gives back (and zeroes).
 */
enum store_quota store_admit_result(struct store *, struct handler_result *,
		    int allowed, time_t start);
/*
 * A delivery store_admit let in will not be added (its journal write
 * failed, or it was a copy of one waiting): give back its bytes.
 */
void		 store_release(struct store *, struct handler_result *);
/*
 * The bytes the days hold, open and being drafted, all repositories
 * (held), and those admitted deliveries hold back until they are added.
 */
size_t		 store_open_bytes(const struct store *, size_t *held_back);
/*
 * The repository's days changed outside the store (the journal's replay
 * adds to r->day): bring the count up to date. O(1), from day->bytes.
 */
void		 store_recount(struct store *, struct store_repo *);
/* Refusals so far for one reason. */
uint64_t	 store_refusals(const struct store *, enum store_quota);
/* The /metrics label of a reason ("repositories", ...). */
const char	*store_quota_name(enum store_quota);
/*
 * Forget the repositories with nothing in their day and no delivery
 * since the previous call (their branch heads with them), and forget
 * which refusals were logged. Returns how many were dropped.
 */
size_t		 store_drop_idle(struct store *);

/*
 * The repository's entry (borrowed; a hash lookup, case-insensitive),
 * created with an empty day from start if asked. No bound applies here:
 * store_admit is the gate.
 */
struct store_repo *store_repo(struct store *, const char *name, int create,
		    time_t start);
/* Repositories, in the order first seen; borrowed. */
size_t		 store_nrepos(const struct store *);
struct store_repo *store_repo_at(struct store *, size_t);

/* The dedup key of a delivery: "hook id:GUID" (new). */
char		*store_key(const char *hook_id, const char *guid);
/* Has this delivery been accepted before? */
int		 store_seen(const struct store *, const char *key);
/*
 * Remember an accepted delivery. Past max_seen the oldest marked is
 * forgotten as each new one comes, and it is logged (at the first and
 * once per max_seen / 8). Times are kept to the second from 1970 to 2106
 * (one outside as the nearer end).
 */
void		 store_mark(struct store *, const char *key, time_t at);
/*
 * The accepted deliveries in the order marked: arrays of keys and times,
 * all new (each key and both arrays are the caller's to free).
 */
size_t		 store_seen_list(const struct store *, char ***keys,
		    time_t **at);
/* Forget deliveries accepted before cutoff. */
void		 store_prune_seen(struct store *, time_t cutoff);
size_t		 store_nseen(const struct store *);

/*
 * Move a handler's records into the repository's day (stealing them),
 * taking the bytes store_admit held back for them. Sets *new_commits to
 * the commits not already in the day. 0 or -1.
 */
int		 store_add(struct store *, struct handler_result *, time_t start,
		    size_t *new_commits);

/*
 * Note a push's before/after on its branch. Returns 1 when before is not
 * the last head seen there (a delivery was missed), else 0. A created
 * branch, a push from none (record.h) or a forced push is never a gap;
 * nor is a late push that ends at a head a gap left missing (a
 * redelivery filling it): that one moves nothing. A push to none (a
 * deleted branch) leaves the branch without a head.
 */
int		 store_note_push(struct store_repo *, const struct push *);

/*
 * Replace a repository's day with an empty one from start; returns the
 * old, whose bytes no longer count.
 */
struct day	*store_rotate(struct store *, struct store_repo *, time_t start);
/*
 * Hand the open day to the drafter: it becomes r->drafting, ending at
 * start, and an empty day opens at start; its bytes count until
 * store_drafted. A repository with a day being drafted is never dropped.
 * -1 when one is being drafted already.
 */
int		 store_handoff(struct store *, struct store_repo *, time_t start);
/*
 * The drafted day's episode is out: the day leaves the repository (its
 * bytes given back), the caller's to free (day_free_some, as a big day
 * takes a while).
 */
struct day	*store_drafted(struct store *, struct store_repo *);
/*
 * Its draft failed: the open day's records join the drafted day's, which
 * opens again (its window start, end 0), to be told in the next episode.
 */
void		 store_merge_back(struct store *, struct store_repo *);

#endif
