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
struct hookcastd;

/*
 * A backfill for d's configured backfill_hooks (new), or NULL when there
 * are none. d is borrowed and must outlive it.
 */
struct backfill	*backfill_new(struct hookcastd *d);
/* Cancel what is in flight and free everything; NULL is a no-op. */
void		 backfill_free(struct backfill *);

/*
 * Schedule a pass over the hooks of repo ("owner/name"), or of every hook
 * when repo is NULL. A request that arrives while a hook's pass runs is
 * queued; further ones coalesce into it. Never blocks.
 */
void		 backfill_request(struct backfill *, const char *repo);
/* Re-read the hooks, token and API URL from d->conf (after a reload). */
void		 backfill_reconfigure(struct backfill *);
/* Append the backfill's counters in Prometheus text format. */
void		 backfill_metrics(const struct backfill *, struct buf *);

#endif
