/*
 * The outbox: each emitted episode, for each sink that takes its
 * repository, is a publication written durably under
 * state_dir/outbox/SINK/ID.json before any attempt, and removed only once
 * the sink accepted it (a 2xx; an exec sink's exit status 0) or gave a
 * final refusal, or sink_retry_for ran out. Publications left at a stop
 * are loaded and tried again at the next start. Transfers go through
 * libcurl's multi interface on the daemon's loop, commands are children
 * watched by the loop: nothing here waits.
 */
#ifndef HOOKCAST_OUTBOX_H
#define HOOKCAST_OUTBOX_H

#include <stddef.h>

#include <jansson.h>

struct buf;
struct event_base;
struct outbox;
struct sink_conf;

/*
 * What the outbox reads, filled by the daemon from its configuration
 * (daemon/pubconf.c) and given again at each reload. Borrowed: it must
 * stay valid until the next outbox_reconfigure or outbox_free.
 */
struct outbox_conf {
	const char		*state_dir;	/* records in state_dir/outbox */
	const char		*output_dir;	/* where episodes are written */
	const char		*public_url;	/* output_dir's URL, or NULL */
	const struct sink_conf	*sinks;		/* sink.h */
	size_t			 nsinks;
	int			 sink_retry_for;	/* seconds retried */
	int			 sink_retry_min;	/* before the first retry */
	int			 sink_retry_max;	/* longest wait */
	int			 sink_connect_timeout;	/* seconds */
	int			 sink_timeout;	/* seconds for an attempt */
};

/* A publication as stored: all strings owned. */
struct outbox_record {
	char		*sink;
	char		*id;		/* the idempotency key, 32 hex digits */
	char		*repo;
	char		*date;
	char		*title;
	char		*markdown;	/* paths of the episode's files */
	char		*json;
	long long	 created;	/* seconds since the epoch */
};

/* Largest record file read. */
#define OUTBOX_RECORD_MAX	(64 * 1024)

/*
 * Read a record file's text (len bytes, any bytes). 0, or -1 with *cause
 * (new) and rec untouched.
 */
int		 outbox_record_parse(const char *text, size_t len,
		    struct outbox_record *rec, char **cause);
/* The record as JSON (new). */
char		*outbox_record_encode(const struct outbox_record *);
void		 outbox_record_clear(struct outbox_record *);
/* The idempotency key of an episode for a sink (new, 32 hex digits). */
char		*outbox_key(const char *sink, const char *repo,
		    const char *json_path);

/*
 * The outbox on base's loop (borrowed, it must outlive it) under conf,
 * with the publications left in state_dir/outbox loaded and scheduled.
 * New, or NULL with *cause (new).
 */
struct outbox	*outbox_new(struct event_base *base,
		    const struct outbox_conf *conf, char **cause);
/* Stop what is in flight (the records stay) and free; NULL is a no-op. */
void		 outbox_free(struct outbox *);
/*
 * An episode was written: item is {"repo","date","title","markdown",
 * "json"} (borrowed). Records a publication for each matching sink and
 * tries it at once. Never blocks on a sink.
 */
void		 outbox_episode(struct outbox *, const json_t *item);
/*
 * The configuration changed (reload): conf replaces the outbox's, and
 * the publications are tried again.
 */
void		 outbox_reconfigure(struct outbox *,
		    const struct outbox_conf *conf);
/* Append the per-sink counters in Prometheus text format. */
void		 outbox_metrics(const struct outbox *, struct buf *);
/* The per-sink status, a JSON array (new). */
json_t		*outbox_status(const struct outbox *);

#endif
