/*
 * The running daemon: one libevent loop and what hangs on it. Shared by
 * main.c, webhook.c and control.c.
 */
#ifndef HOOKCAST_DAEMON_H
#define HOOKCAST_DAEMON_H

#include <stdint.h>
#include <time.h>

#include <jansson.h>

#include "config.h"
#include "metrics.h"
#include "store.h"

struct event_base;
struct event;
struct http_server;
struct control;
struct buf;
struct journal;
struct pending;
struct backfill;
struct outbox;
struct notify;
struct drafter;
struct control_reply;
struct strlist;

struct hookcastd {
	struct event_base	*base;
	struct config		 conf;
	int			 argc;
	char		       **argv;
	struct store		*store;
	struct metrics		 metrics;
	struct http_server	*http;
	struct http_server	*metrics_http;	/* metrics_listen's, or NULL */
	struct control		*control;
	struct event		*emit_timer;
	time_t			 next_emit;
	time_t			 window_start;	/* of days opened from now on */
	time_t			 started;
	int			 stopping;
	int			 reload_ok;	/* the last reload (or the start) */
	time_t			 reload_ok_at;	/* the last that worked */

	struct journal		*journal;
	struct pending		*pending;	/* deliveries awaiting a sync */
	struct pending	       **pending_tail;
	struct event		*sync_ev;
	struct event		*synced_ev;	/* the sync thread reports */
	struct event		*drain_ev;	/* polls for in-flight at stop */
	int			 journal_failing; /* log once per burst */
	int			 journal_errno;	/* why it last failed */
	struct timespec		 probed;	/* its last probe (/healthz) */
	int			 replaying;	/* start-up: deliveries get 503 */
	struct timespec		 replay_turn;	/* the loop's last turn in it */

	struct backfill		*backfill;	/* NULL when not configured */
	struct outbox		*outbox;	/* publications to sinks */
	struct notify		*notify;
	struct drafter		*drafter;	/* episodes drafted off the loop */
	int			 compact_wanted; /* once the drafts are done */
	time_t			 status_at;	/* last STATUS= sent */
	struct event		*status_ev;	/* a STATUS= held back */
	uint64_t		 missed_deliveries; /* push gaps seen */
	/* the shared journal (journal = redis://...; redisday.c), or NULL */
	struct redisj		*redisj;
	struct event		*takeover_ev;	/* looks for lapsed leases */
	/* the shows emitted on a schedule of their own (showday.c) */
	struct showday	       **showdays;
	size_t			 nshowdays;
};

struct jrecord;
struct store_repo;

/* hookcastd_handoff's results on the shared journal, beside 0 and -1 */
#define HOOKCAST_HANDOFF_ELSEWHERE	(-2)	/* another receiver's */
#define HOOKCAST_HANDOFF_FAILED		(-3)	/* Redis failed */

/*
 * The shared journal (redisday.c). Open it and read the stream into the
 * store (fatal on failure); follow it on the loop from then on; hand off
 * a repository's day under its lease (as hookcastd_handoff); append a
 * drafter's record of repo (writer's) under its lease and let the lease
 * go, 0 or -1; free it.
 */
void	 hookcastd_redis_open(struct hookcastd *);
void	 hookcastd_redis_start(struct hookcastd *);
int	 hookcastd_redis_handoff(struct hookcastd *, struct store_repo *,
	    time_t start, time_t due);
int	 hookcastd_redis_outcome(struct hookcastd *,
	    int (*writer)(struct buf *, const char *), const char *repo);
void	 hookcastd_redis_free(struct hookcastd *);
struct config_causes;
/*
 * For --check-config: connect to the configuration's Redis, check its
 * version and say what its persistence settings mean (warnings added to
 * causes as lines). 0, or -1 when it can't be used (a cause added).
 */
int	 hookcastd_redis_check(const struct config *, struct config_causes *);

/*
 * Every show emitted with its repositories, for an emission of every
 * repository (one on a schedule of its own is emitted by its timer),
 * appended to out.
 */
void	 hookcastd_shows(const struct hookcastd *, struct strlist *out);
/* Has the day anything to tell (commits, merged PRs, pushes)? */
int	 hookcastd_has_activity(const struct day *);
/*
 * A "d" journal record's items into store's day of its repository
 * (created with a day from start), its pushes noted as heads when heads
 * is set: the repository's entry, or NULL when the record names none.
 */
struct store_repo *hookcastd_take_record(struct store *, struct jrecord *,
	    time_t start, int heads);
/* A delivery was missed for repo: ask the backfill for it, if configured. */
void	 hookcastd_gap(struct hookcastd *, const char *repo);
/* Tell systemd today's counts (at most once a second unless forced). */
void	 hookcastd_notify_status(struct hookcastd *, int force);
/* Apply a journal record to the store (replay). */
void	 hookcastd_apply(json_t *rec, void *hookcastd);
/* The same from a journal payload's bytes; -1 when they are no record. */
int	 hookcastd_apply_raw(const char *payload, size_t len, void *hookcastd);
/*
 * An entry of the shared journal's stream (id ms-seq) to the store, as
 * hookcastd_apply_raw, but for a drafted or merge-back record this
 * receiver wrote (mine): it changed its store as it wrote it. Notes
 * where each repository's days begin in the stream. 0 or -1.
 */
int	 hookcastd_apply_entry(struct hookcastd *, const char *payload,
	    size_t len, int mine, uint64_t ms, uint64_t seq);
/*
 * Where the earliest day still open or being drafted begins in the
 * stream, into from (ms, seq): 1, or 0 when no day holds any entry.
 */
int	 hookcastd_stream_keeps(struct hookcastd *, uint64_t from[2]);
/* Compact the journal to the open days and the dedup set. 0 or -1. */
int	 hookcastd_compact(struct hookcastd *);

struct http_limits;

/* Flags that are not config keys, for config_load(). */
extern const char *const hookcastd_passthrough[];
/* The HTTP limits of a configuration. */
void	 hookcastd_limits(const struct config *, struct http_limits *);
/* Give the store the configuration's bounds. */
void	 hookcastd_store_limits(struct hookcastd *);
/* Load (or reload) the TLS certificate when one is configured. 0 or -1. */
int	 hookcastd_tls(struct hookcastd *, char **cause);
/* Emit the days whose emission passed while the daemon was down. */
void	 hookcastd_catch_up(struct hookcastd *);
/* Arm the one-shot emission timer from the wall clock. */
void	 hookcastd_arm_emit(struct hookcastd *);
/* The emission timer's and the held-back STATUS timer's callbacks. */
void	 hookcastd_emit_timer(int fd, short what, void *hookcastd);
void	 hookcastd_status_timer(int fd, short what, void *hookcastd);

/* Re-read the configuration; on error keep the old one. 0 or -1 + cause. */
int	 hookcastd_reload(struct hookcastd *, char **cause);
/*
 * Emit (write) or preview the episode of one repository, or of every
 * repository with activity when repo is NULL. Emitting hands the days to
 * the drafter and starts the repositories' new days at once. The drafter
 * answers through later ({"ok":true,"episodes":[...]}) and CONTROL_LATER
 * is returned; or 0 with the reply in out (nothing to draft), or -1 with
 * *cause.
 */
int	 hookcastd_emit(struct hookcastd *, const char *repo, int write,
	    struct buf *out, char **cause, struct control_reply *later);
/*
 * Write the weekly recap of repo, or of every repository (open in the
 * store or with a folder of episodes) whose week has episodes when repo
 * is NULL, appending the results to list. With wday (tm_wday) not -1,
 * only the recaps due that weekday: a show's (shows/SLUG) on its recap
 * weekday, the others on the global one. 0, or -1 with *cause for repo.
 */
int	 hookcastd_recap_write(struct hookcastd *, const char *repo,
	    time_t now, int wday, json_t *list, char **cause);
/* 1 when a weekly recap is due on weekday wday (tm_wday), else 0. */
int	 hookcastd_recap_due(const struct hookcastd *, int wday);
/*
 * Write the weekly recap of one repository, or of every repository whose
 * past seven days have episodes when repo is NULL, from the archive;
 * appends {"ok":true,"episodes":[...]} to out. 0 or -1 with *cause.
 */
int	 hookcastd_recap(struct hookcastd *, const char *repo,
	    struct buf *out, char **cause);
/*
 * Can the daemon keep its promise to journal what it accepts? NULL when
 * it can; else why not (stopping, replaying, the journal failing or its
 * filesystem full), written in buf.
 */
const char *hookcastd_health(struct hookcastd *, char *buf, size_t len);
/* Append the status JSON object to out. */
int	 hookcastd_status(struct hookcastd *, const char *which,
	    struct buf *out, char **cause);

#endif
