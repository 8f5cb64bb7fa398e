/*
 * The day store: one open day per repository, plus the set of deliveries
 * already accepted (hook id + GUID) so a redelivery is counted once.
 */
#ifndef HOOKCAST_STORE_H
#define HOOKCAST_STORE_H

#include <stddef.h>
#include <time.h>

#include "day.h"
#include "handler.h"

struct store;

struct store_repo {
	char		*name;
	struct day	*day;
	/* the last head seen on each branch, for gap detection */
	char	       **head_branch;
	char	       **head_after;
	size_t		 nheads;
	/* heads a gap left missing ("branch\nsha"), until a push fills them */
	char	       **missing;
	size_t		 nmissing;
};

struct store	*store_new(void);
void		 store_free(struct store *);

/* The repository's entry, created (with an empty day from start) if asked. */
struct store_repo *store_repo(struct store *, const char *name, int create,
		    time_t start);
/* Repositories, in the order first seen; borrowed. */
size_t		 store_nrepos(const struct store *);
struct store_repo *store_repo_at(struct store *, size_t);

/* The dedup key of a delivery: "hook id:GUID" (new). */
char		*store_key(const char *hook_id, const char *guid);
/* Has this delivery been accepted before? */
int		 store_seen(const struct store *, const char *key);
/* Remember an accepted delivery. */
void		 store_mark(struct store *, const char *key, time_t at);
/* The accepted deliveries: arrays of borrowed keys and times (new). */
size_t		 store_seen_list(const struct store *, const char ***keys,
		    time_t **at);
/* Forget deliveries accepted before cutoff. */
void		 store_prune_seen(struct store *, time_t cutoff);
size_t		 store_nseen(const struct store *);

/*
 * Move a handler's records into the repository's day (stealing them).
 * Sets *new_commits to the commits not already in the day. 0 or -1.
 */
int		 store_add(struct store *, struct handler_result *, time_t start,
		    size_t *new_commits);

/*
 * Note a push's before/after on its branch. Returns 1 when before is not
 * the last head seen there (a delivery was missed), else 0. A created
 * branch or a forced push is never a gap; nor is a late push that ends
 * at a head a gap left missing (a redelivery filling it): that one moves
 * nothing.
 */
int		 store_note_push(struct store_repo *, const struct push *);

/* Replace a repository's day with an empty one from start; returns the old. */
struct day	*store_rotate(struct store *, struct store_repo *, time_t start);

#endif
