/*
 * The shared journal on Redis Streams (journal = redis://HOST:PORT/DB):
 * several receivers behind one load balancer append to one stream and
 * each follows it, so any of them can take any delivery and every one's
 * open days hold them all.
 *
 * The stream's entries carry the file journal's record bytes ("r", as
 * jrecord_write_* writes them) and the receiver that wrote them ("o").
 * Every receiver applies every entry in stream order, its own deliveries
 * too: a day is what the stream holds before its hand-off record,
 * whoever wrote either. A delivery is appended by one script that claims
 * its key (hook id and GUID) with an expiry and appends only when the
 * claim is new, so a redelivery to any receiver is a duplicate; it is
 * answered 2xx once Redis has answered the append (and WAIT has seen
 * redis_replicas replicas take it).
 *
 * The emission: a repository's day is handed off by whichever receiver
 * claims (repository, emission time) first; it takes the repository's
 * lease (a value with a fencing token, with an expiry it renews while it
 * drafts), appends the hand-off and reads the stream up to it. The
 * drafted and merge-back records are appended only while the lease is
 * still the writer's (a script compares it), so a holder that stalled
 * past its lease writes nothing. A day handed off whose lease lapsed
 * without an outcome is taken over by another receiver.
 *
 * Appends of deliveries are asynchronous (hiredis on the loop); the
 * rarer writes (hand-offs, outcomes, leases) and the catch-up reading
 * are synchronous on a connection of their own, bounded by
 * redis_timeout.
 */
#ifndef HOOKCAST_REDISJ_H
#define HOOKCAST_REDISJ_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

struct buf;
struct event_base;
struct redisj;

/* What a delivery's append came to (its callback's result). */
enum redisj_result {
	REDISJ_APPENDED,	/* in the stream (and on the replicas) */
	REDISJ_DUPLICATE,	/* its key was claimed before */
	REDISJ_FAILED,		/* not known to be in the stream: 503 */
};

struct redisj_conf {
	char		*host;
	int		 port;
	int		 db;
	const char	*password;	/* or NULL */
	const char	*prefix;	/* of every key */
	int		 replicas;	/* WAIT for these */
	int		 timeout_ms;	/* of every command */
	int		 lease_ms;	/* a drafting lease lasts */
	int		 seen_secs;	/* a delivery key's claim lasts */
};

/*
 * Parse redis://[:PASSWORD@]HOST[:PORT][/DB] into conf's host, port and
 * db. 0, or -1 with *why (static).
 */
int	 redisj_parse_url(const char *url, struct redisj_conf *conf,
	    const char **why);

/*
 * Each stream entry read, in order: its record payload (borrowed), its
 * id, and whether this receiver wrote it.
 */
typedef void redisj_apply_fn(const char *payload, size_t len,
	    const char *id, int mine, void *arg);

/* Connect (synchronously) and check the server. NULL + *cause. */
struct redisj	*redisj_open(const struct redisj_conf *, const char *origin,
		    redisj_apply_fn *, void *arg, char **cause);
void		 redisj_free(struct redisj *);
/* Read the stream from where this receiver stopped to its end. 0 or -1. */
int		 redisj_catch_up(struct redisj *, long *applied);
/* Follow the stream on the loop from now on (and append deliveries). */
int		 redisj_start(struct redisj *, struct event_base *,
		    char **cause);

/*
 * Append a delivery's record unless key was claimed before; done is
 * called once, later (never from within this call).
 */
void		 redisj_append_delivery(struct redisj *, const char *key,
		    const char *payload, size_t len,
		    void (*done)(enum redisj_result, void *), void *arg);

/*
 * Claim the emission due at at of unit (a repository, or a show told
 * with its repositories): 1 when this receiver has it (now or before),
 * 0 when another receiver has, -1 when Redis failed.
 */
int		 redisj_claim(struct redisj *, const char *unit, time_t at);
/* Take name's lease (a repository's day): 1, 0 (another's) or -1. */
int		 redisj_lease(struct redisj *, const char *name);
/* Take name's lease if no one holds it (a take-over). 1, 0 or -1. */
int		 redisj_take_over(struct redisj *, const char *name);
/* Does this receiver hold name's lease? */
int		 redisj_holds(const struct redisj *, const char *name);
/*
 * Append a record under name's lease (release it after when release is
 * set) and, when follow is set, read the stream up to it. 0, or -1 (the
 * lease lost, or Redis failed; logged).
 */
int		 redisj_append_marker(struct redisj *, const char *name,
		    const char *payload, size_t len, int release, int follow);
/* Who holds name's lease ("RECEIVER TOKEN") into out; "" when none. */
void		 redisj_holder(struct redisj *, const char *name, char *out,
		    size_t len);
/* Let name's lease go. */
void		 redisj_release(struct redisj *, const char *name);

/*
 * What the server's persistence means for a crash of its host, as
 * lines in *report (new): appendonly off, appendfsync no or everysec,
 * or the settings unreadable (CONFIG disabled) each say so.
 */
void		 redisj_persistence(struct redisj *, char **report);
/* An entry id "MS-SEQ" as two numbers. 0, or -1 when it is none. */
int		 redisj_id_parse(const char *id, uint64_t *ms, uint64_t *seq);
/* The last entry read into id (ms, seq): 0, or -1 when none was. */
int		 redisj_last(const struct redisj *, uint64_t id[2]);
/*
 * Trim the stream's entries before from (XTRIM MINID), when that moved
 * on since the last trim; failures are logged.
 */
void		 redisj_trim(struct redisj *, const uint64_t from[2]);
/* NULL while Redis takes appends; else why not (for /healthz). */
const char	*redisj_health(const struct redisj *);
/* The status object's "journal" fields (JSON members, no braces). */
void		 redisj_status(struct redisj *, struct buf *);
/* The metrics lines. */
void		 redisj_metrics(struct redisj *, struct buf *);

#endif
