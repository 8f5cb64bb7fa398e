/*
 * The outbox's insides, shared by outbox.c (records, publications,
 * retries, HTTP sinks) and outbox_exec.c (exec sinks: the keeper and the
 * command it runs). Not for anyone else.
 */
#ifndef HOOKCAST_OUTBOX_INT_H
#define HOOKCAST_OUTBOX_INT_H

#include <sys/types.h>

#include <stdint.h>
#include <time.h>

#include <curl/curl.h>

#include "buf.h"
#include "outbox.h"

struct event;
struct event_base;
struct curlev;
struct sink_conf;

/* An exec sink's output kept for the log. */
#define OUTBOX_OUTPUT_MAX	4096
/* Seconds a sink's keeper has to kill its command's tree. */
#define OUTBOX_KILL_GRACE	5

/* The counters of one sink name (kept across reloads). */
struct outbox_sink {
	char			*name;
	size_t			 pending;
	size_t			 running;	/* attempts in flight */
	uint64_t		 delivered;
	uint64_t		 failed;
	uint64_t		 retried;
	time_t			 last_success;
	time_t			 last_error_at;
	char			*last_error;
	struct outbox_sink	*next;
};

struct outbox_pub {
	struct outbox		*ob;
	struct outbox_sink	*sink;
	struct outbox_record	 rec;
	unsigned		 attempts;
	int			 busy;
	int			 waiting;	/* its sink is not configured */
	int			 queued;	/* its sink runs max_running */
	struct event		*timer;		/* the next attempt */

	/* an HTTP attempt */
	CURL			*easy;
	struct curl_slist	*headers;
	struct buf		 resp;
	long long		 retry_after;	/* -1: none */
	char			 errbuf[CURL_ERROR_SIZE];

	/* an exec attempt */
	pid_t			 pid;		/* the keeper */
	int			 pidfd;
	int			 fd;		/* the command's output */
	struct event		*read_ev;
	struct event		*exit_ev;	/* pidfd readable */
	struct event		*kill_ev;	/* sink_timeout */
	struct event		*poll_ev;	/* waitpid again (no pidfd) */
	struct buf		 output;
	int			 timed_out;

	struct outbox_pub	*next;
};

struct outbox {
	struct event_base	*base;
	struct outbox_conf	 conf;
	struct curlev		*curl;
	struct outbox_pub	*pubs;
	struct outbox_sink	*sinks;
};

/*
 * An attempt of p ended: ok, or a failure (final: not retried) said by
 * fmt; retry_after (seconds, -1: none) puts off the next attempt. p is
 * freed later, outside the callbacks of its transfer or child.
 */
void	 outbox_done(struct outbox_pub *p, int ok, int final,
	    long long retry_after, const char *fmt, ...)
	    __attribute__((format(printf, 5, 6)));

/* outbox_exec.c */
/* Run p's attempt on the exec sink sc: its command under a keeper. */
void	 outbox_exec(struct outbox_pub *p, const struct sink_conf *sc);
/* Stop p's run at once (the outbox is freed): the keeper kills the tree. */
void	 outbox_exec_stop(struct outbox_pub *p);

#endif
