/*
 * The drafter: episodes are drafted in child processes, one job at a
 * time, so that the loop (webhook intake, /healthz, the watchdog) never
 * waits on a draft, however big the day.
 *
 * A job runs in parts, a process each, one after another: each
 * repository's episode, then the weekly recaps, then (once the reply is
 * sent) the speaking of the episodes written. A process is a fork of the
 * daemon: it sees the days and the configuration as they were when it
 * started, as its own copy, and touches nothing of the daemon's (no
 * journal, no sockets: it closes them). It writes the episode files
 * (emit.h) and tells the loop, one JSON line per episode on a pipe, how
 * it went. The loop finishes each day: journalled as drafted, or, when
 * its draft failed, joined back to the open day to be told in the next
 * episode (store_merge_back). A repository's process that outlives its
 * draft_timeout is killed, and one that dies leaves its day failed the
 * same way: that repository alone, the others are drafted all the same.
 * After two failures in a row (counted in the state directory, across
 * restarts) the day is told in brief (reduced.h).
 */
#ifndef HOOKCAST_DRAFTER_H
#define HOOKCAST_DRAFTER_H

#include <stddef.h>
#include <time.h>

struct hookcastd;
struct control_reply;
struct strlist;
struct drafter;

enum drafter_kind {
	DRAFTER_EMIT,		/* the handed-off days (store_handoff) */
	DRAFTER_PREVIEW,	/* the open days, nothing written */
};

struct drafter	*drafter_new(struct hookcastd *);
/*
 * Kill a draft in progress and drop the queue. The days handed off stay
 * so, in memory and in the journal: the next start drafts them again.
 */
void		 drafter_free(struct drafter *);
/*
 * Queue a job: the episodes of the shows named (copied; may be NULL), of
 * their members among repos, then those of repos (copied; a repository
 * whose own_episodes is off has its day finished without one),
 * published at now (0: at the end of each day's window), then, with
 * recap (a weekday, tm_wday + 1; 0: none), the weekly recaps due on it:
 * every repository's on the global recap_weekday, a show's on its own.
 * Once the job is done, reply (when not NULL) gets
 * {"ok":true,"episodes":[...]}, or {"ok":false,"error":...} with the
 * first failure.
 */
void		 drafter_queue(struct drafter *, enum drafter_kind,
		    const struct strlist *repos, const struct strlist *shows,
		    time_t now, int recap, struct control_reply *reply);
/* Jobs queued or running. */
size_t		 drafter_pending(const struct drafter *);

#endif
