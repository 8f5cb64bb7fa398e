/*
 * The running daemon: one libevent loop and what hangs on it. Shared by
 * main.c, webhook.c and control.c.
 */
#ifndef HOOKCAST_DAEMON_H
#define HOOKCAST_DAEMON_H

#include <time.h>

#include "config.h"
#include "metrics.h"
#include "store.h"

struct event_base;
struct event;
struct http_server;
struct control;
struct buf;

struct hookcastd {
	struct event_base	*base;
	struct config		 conf;
	int			 argc;
	char		       **argv;
	struct store		*store;
	struct metrics		 metrics;
	struct http_server	*http;
	struct control		*control;
	struct event		*emit_timer;
	time_t			 next_emit;
	time_t			 window_start;	/* of days opened from now on */
	time_t			 started;
	int			 stopping;
};

/* Re-read the configuration; on error keep the old one. 0 or -1 + cause. */
int	 hookcastd_reload(struct hookcastd *, char **cause);
/*
 * Emit (write) or preview the episode of one repository, or of every
 * repository with activity when repo is NULL, appending a JSON array of
 * results to out. Emitting starts the repository's new day. 0 or -1 with
 * *cause.
 */
int	 hookcastd_emit(struct hookcastd *, const char *repo, int write,
	    struct buf *out, char **cause);
/* Append the status JSON object to out. */
void	 hookcastd_status(struct hookcastd *, struct buf *out);

#endif
