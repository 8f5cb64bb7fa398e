/*
 * Backfill: GitHub never retries a delivery by itself. After a start or a
 * detected gap, list each configured hook's recent deliveries through the
 * REST API and ask GitHub to redeliver those that never reached us. All
 * HTTP goes through libcurl's multi interface on the daemon's loop.
 */
#ifndef HOOKCAST_BACKFILL_H
#define HOOKCAST_BACKFILL_H

struct backfill;
struct buf;
struct config;
struct hookcastd;

/*
 * Is spec a hook to follow, "owner/repo:hook_id" (repo_name_ok, a decimal
 * id)? The one rule, for the configuration and the backfill. 0, or -1
 * with *cause (static) saying why.
 */
int		 backfill_hook_check(const char *spec, const char **cause);

/*
 * Set up the backfill of conf's backfill_hooks on d's loop: *bfp is new,
 * or NULL when there are none. d is borrowed and must outlive it; conf is
 * read during the call only (d->conf or a reload's). 0, or -1 with *cause
 * (new) and *bfp untouched.
 */
int		 backfill_new(struct hookcastd *d, const struct config *conf,
		    struct backfill **bfp, char **cause);
/* Cancel what is in flight and free everything; NULL is a no-op. */
void		 backfill_free(struct backfill *);

/*
 * Schedule a pass over the hooks of repo ("owner/name"), or of every hook
 * when repo is NULL. A hook's passes start at least backfill_interval
 * apart (more after failed passes): a request while a pass waits to start
 * is that pass; one while it runs queues one more, into which further
 * ones coalesce. Never blocks.
 */
void		 backfill_request(struct backfill *, const char *repo);
/*
 * Follow the hooks of conf (a reload's, before it becomes d->conf): keep
 * those that stay, add the new, drop the others. The token and API URL
 * are read from d->conf at each request. 0, or -1 with *cause (new) and
 * the hooks as they were.
 */
int		 backfill_reconfigure(struct backfill *,
		    const struct config *conf, char **cause);
/* Append the backfill's counters in Prometheus text format. */
void		 backfill_metrics(const struct backfill *, struct buf *);

#endif
