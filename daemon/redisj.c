/*
 * The shared journal on Redis Streams: see redisj.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include <event2/event.h>
#include <hiredis/hiredis.h>
#include <hiredis/async.h>
#include <hiredis/adapters/libevent.h>

#include "buf.h"
#include "log.h"
#include "redisj.h"
#include "xmalloc.h"

/* Entries read from the stream at once. */
#define REDISJ_PAGE		1000
/* How long the follower's XREAD blocks before it asks again (ms). */
#define REDISJ_BLOCK_MS		2000
/* Reconnection waits, doubling from the first to the last (ms). */
#define REDISJ_RETRY_MIN_MS	100
#define REDISJ_RETRY_MAX_MS	5000
/* The loop looks at overdue appends and leases this often (ms). */
#define REDISJ_TICK_MS		100

/*
 * Claim the delivery's key and append its record only when the claim is
 * new: 0 for a duplicate, else the new entry's id.
 */
static const char redisj_lua_delivery[] =
	"if redis.call('SET', KEYS[1], ARGV[3], 'NX', 'EX', ARGV[1]) then "
	"return redis.call('XADD', KEYS[2], '*', 'r', ARGV[2], 'o', ARGV[3]) "
	"end return 0";
/* Append under a lease (KEYS[1] holding ARGV[1]); release it after. */
static const char redisj_lua_marker[] =
	"if redis.call('GET', KEYS[1]) ~= ARGV[1] then "
	"return redis.error_reply('FENCED the lease is held by another') end "
	"local id = redis.call('XADD', KEYS[2], '*', 'r', ARGV[2], 'o', "
	"ARGV[3]) "
	"if ARGV[4] == '1' then redis.call('DEL', KEYS[1]) end return id";
/* Renew (ARGV[2] ms) or delete (ARGV[2] 0) a lease still ours. */
static const char redisj_lua_lease[] =
	"if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end "
	"if ARGV[2] == '0' then redis.call('DEL', KEYS[1]) else "
	"redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 1";

struct redisj_op {
	struct redisj		*rj;
	void			(*done)(enum redisj_result, void *);
	void			*arg;
	enum redisj_result	 result;
	int			 waits;		/* replies still to come */
	struct timespec		 deadline;
	struct redisj_op	*prev, *next;
};

struct redisj_lease {
	char		*name;
	char		*value;		/* "ORIGIN TOKEN" */
	struct timespec	 renewed;
};

struct redisj {
	struct redisj_conf	 conf;
	char			*origin;
	char			*stream;	/* PREFIX:journal */
	char			 sha[48];	/* of redisj_lua_delivery */
	redisj_apply_fn		*apply;
	void			*arg;

	redisContext		*sync;
	struct timespec		 sync_failed;	/* its last failed connect */
	char			 sync_why[128];
	struct event_base	*base;
	redisAsyncContext	*wr;		/* appends of deliveries */
	redisAsyncContext	*rd;		/* the follower */
	int			 wr_up, rd_up;
	int			 reading;	/* an XREAD is out */
	struct event		*retry_ev;
	int			 retry_ms;
	struct event		*tick_ev;

	uint64_t		 last_ms, last_seq;	/* applied up to */
	char			 last_id[48];

	struct redisj_op	*ops, *ops_tail;	/* oldest first */
	struct redisj_lease	*leases;
	size_t			 nleases;

	char			 failing[160];	/* "" while it works */
	uint64_t		 appended, duplicates, failed;
	uint64_t		 applied, fenced, trimmed;
	uint64_t		 trim_ms, trim_seq;	/* the last MINID */
	int			 stopping;
};

static void	redisj_connect_async(struct redisj *);
static void	redisj_read_next(struct redisj *);

int
redisj_parse_url(const char *url, struct redisj_conf *conf, const char **why)
{
	const char	*p, *host, *end;
	char		*num;
	long		 v;

	if (strncmp(url, "redis://", 8) != 0) {
		*why = "not redis://HOST:PORT/DB";
		return -1;
	}
	p = url + 8;
	if ((end = strchr(p, '@')) != NULL) {
		*why = "a password belongs in redis_password_file, not the URL";
		return -1;
	}
	host = p;
	end = p + strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789.-_");
	if (end == host) {
		*why = "no host";
		return -1;
	}
	if (*end != '\0' && *end != ':' && *end != '/') {
		*why = "not redis://HOST:PORT/DB (a host name or IPv4 address)";
		return -1;
	}
	free(conf->host);
	conf->host = xstrndup(host, (size_t)(end - host));
	conf->port = 6379;
	conf->db = 0;
	p = end;
	if (*p == ':') {
		errno = 0;
		v = strtol(p + 1, &num, 10);
		if (num == p + 1 || errno != 0 || v < 1 || v > 65535 ||
		    (*num != '\0' && *num != '/')) {
			*why = "the port is not a number from 1 to 65535";
			return -1;
		}
		conf->port = (int)v;
		p = num;
	}
	if (*p == '/' && p[1] != '\0') {
		errno = 0;
		v = strtol(p + 1, &num, 10);
		if (num == p + 1 || errno != 0 || v < 0 || v > 1000000 ||
		    *num != '\0') {
			*why = "the database is not a number";
			return -1;
		}
		conf->db = (int)v;
	} else if (*p == '/')
		;
	else if (*p != '\0') {
		*why = "not redis://HOST:PORT/DB";
		return -1;
	}
	return 0;
}

static void
redisj_now(struct timespec *ts)
{
	clock_gettime(CLOCK_MONOTONIC, ts);
}

static long long
redisj_ms_since(const struct timespec *t)
{
	struct timespec	now;

	redisj_now(&now);
	return (long long)(now.tv_sec - t->tv_sec) * 1000 +
	    (now.tv_nsec - t->tv_nsec) / 1000000;
}

static void
redisj_fail(struct redisj *rj, const char *fmt, ...)
{
	va_list	ap;
	char	why[sizeof(rj->failing)];

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (strcmp(why, rj->failing) != 0 && rj->failing[0] == '\0')
		log_warnx("redis: %s; answering 503 until it recovers", why);
	snprintf(rj->failing, sizeof(rj->failing), "%s", why);
}

static void
redisj_recovered(struct redisj *rj)
{
	if (rj->failing[0] != '\0') {
		log_notice("redis: appending again");
		rj->failing[0] = '\0';
	}
}

int
redisj_id_parse(const char *id, uint64_t *ms, uint64_t *seq)
{
	char	*end;

	errno = 0;
	*ms = strtoull(id, &end, 10);
	if (end == id || *end != '-' || errno != 0)
		return -1;
	id = end + 1;
	*seq = strtoull(id, &end, 10);
	if (end == id || *end != '\0' || errno != 0)
		return -1;
	return 0;
}

/* Apply one entry ([id, [field, value, ...]]) if it is past the last. */
static void
redisj_entry(struct redisj *rj, const redisReply *e)
{
	const redisReply	*id, *fields, *f, *v;
	const char		*payload = NULL, *origin = NULL;
	size_t			 len = 0, i, olen = 0;
	uint64_t		 ms, seq;

	if (e->type != REDIS_REPLY_ARRAY || e->elements != 2)
		return;
	id = e->element[0];
	fields = e->element[1];
	if (id->type != REDIS_REPLY_STRING ||
	    redisj_id_parse(id->str, &ms, &seq) == -1 ||
	    id->len >= sizeof(rj->last_id))
		return;
	if (ms < rj->last_ms || (ms == rj->last_ms && seq <= rj->last_seq))
		return;		/* read already (a catch-up went ahead) */
	rj->last_ms = ms;
	rj->last_seq = seq;
	memcpy(rj->last_id, id->str, id->len + 1);
	if (fields->type != REDIS_REPLY_ARRAY)
		return;
	for (i = 0; i + 1 < fields->elements; i += 2) {
		f = fields->element[i];
		v = fields->element[i + 1];
		if (f->type != REDIS_REPLY_STRING ||
		    v->type != REDIS_REPLY_STRING)
			continue;
		if (strcmp(f->str, "r") == 0) {
			payload = v->str;
			len = v->len;
		} else if (strcmp(f->str, "o") == 0) {
			origin = v->str;
			olen = v->len;
		}
	}
	if (payload == NULL) {
		log_warnx("redis: entry %s has no record; skipped", rj->last_id);
		return;
	}
	rj->applied++;
	rj->apply(payload, len, rj->last_id, origin != NULL &&
	    olen == strlen(rj->origin) && memcmp(origin, rj->origin, olen) == 0,
	    rj->arg);
}

/* The entries of one stream of an XREAD reply. */
static size_t
redisj_entries(struct redisj *rj, const redisReply *r)
{
	const redisReply	*s;
	size_t			 i;

	if (r == NULL || r->type != REDIS_REPLY_ARRAY || r->elements < 1)
		return 0;
	s = r->element[0];
	if (s->type != REDIS_REPLY_ARRAY || s->elements != 2 ||
	    s->element[1]->type != REDIS_REPLY_ARRAY)
		return 0;
	for (i = 0; i < s->element[1]->elements; i++)
		redisj_entry(rj, s->element[1]->element[i]);
	return s->element[1]->elements;
}

/* The synchronous connection, (re)connected when needed, or NULL. */
static redisContext *
redisj_sync(struct redisj *rj, char **cause)
{
	struct timeval	 tv = { rj->conf.timeout_ms / 1000,
			    (rj->conf.timeout_ms % 1000) * 1000 };
	redisContext	*c;
	redisReply	*r;

	if (rj->sync != NULL && rj->sync->err == 0)
		return rj->sync;
	if (rj->sync != NULL)
		redisFree(rj->sync);
	rj->sync = NULL;
	/*
	 * Not again within a second of a failed try: the loop would wait
	 * for each (a scrape of /metrics, the look for lapsed leases).
	 */
	if ((rj->sync_failed.tv_sec != 0 || rj->sync_failed.tv_nsec != 0) &&
	    redisj_ms_since(&rj->sync_failed) < REDISJ_RETRY_MAX_MS / 5) {
		xasprintf(cause, "%s:%d: %s", rj->conf.host, rj->conf.port,
		    rj->sync_why);
		return NULL;
	}
	c = redisConnectWithTimeout(rj->conf.host, rj->conf.port, tv);
	if (c == NULL || c->err) {
		snprintf(rj->sync_why, sizeof(rj->sync_why), "%s",
		    c != NULL ? c->errstr : "out of memory");
		redisj_now(&rj->sync_failed);
		xasprintf(cause, "%s:%d: %s", rj->conf.host, rj->conf.port,
		    rj->sync_why);
		if (c != NULL)
			redisFree(c);
		return NULL;
	}
	rj->sync_failed.tv_sec = rj->sync_failed.tv_nsec = 0;
	redisSetTimeout(c, tv);
	if (rj->conf.password != NULL) {
		r = redisCommand(c, "AUTH %s", rj->conf.password);
		if (r == NULL || r->type == REDIS_REPLY_ERROR) {
			xasprintf(cause, "AUTH: %s", r != NULL ? r->str :
			    c->errstr);
			goto bad;
		}
		freeReplyObject(r);
	}
	r = redisCommand(c, "SELECT %d", rj->conf.db);
	if (r == NULL || r->type == REDIS_REPLY_ERROR) {
		xasprintf(cause, "SELECT %d: %s", rj->conf.db, r != NULL ?
		    r->str : c->errstr);
		goto bad;
	}
	freeReplyObject(r);
	rj->sync = c;
	return c;
bad:
	if (r != NULL)
		freeReplyObject(r);
	redisFree(c);
	return NULL;
}

/*
 * A command on the synchronous connection: its reply (an error reply
 * too), or NULL with the failure logged and noted.
 */
static redisReply *
redisj_cmd(struct redisj *rj, const char *fmt, ...)
{
	redisContext	*c;
	redisReply	*r;
	va_list		 ap;
	char		*cause = NULL;

	if ((c = redisj_sync(rj, &cause)) == NULL) {
		redisj_fail(rj, "%s", cause);
		free(cause);
		return NULL;
	}
	va_start(ap, fmt);
	r = redisvCommand(c, fmt, ap);
	va_end(ap);
	if (r == NULL) {
		redisj_fail(rj, "%s:%d: %s", rj->conf.host, rj->conf.port,
		    c->errstr);
		return NULL;
	}
	return r;
}

struct redisj *
redisj_open(const struct redisj_conf *conf, const char *origin,
    redisj_apply_fn *apply, void *arg, char **cause)
{
	struct redisj	*rj = xcalloc(1, sizeof(*rj));
	redisReply	*r;
	char		*why = NULL;
	const char	*v;

	rj->conf = *conf;
	rj->conf.host = xstrdup(conf->host);
	rj->conf.password = conf->password != NULL ?
	    xstrdup(conf->password) : NULL;
	rj->conf.prefix = xstrdup(conf->prefix);
	rj->origin = xstrdup(origin);
	xasprintf(&rj->stream, "%s:journal", conf->prefix);
	rj->apply = apply;
	rj->arg = arg;
	snprintf(rj->last_id, sizeof(rj->last_id), "0-0");
	rj->retry_ms = REDISJ_RETRY_MIN_MS;
	if (redisj_sync(rj, &why) == NULL) {
		xasprintf(cause, "redis: %s", why);
		free(why);
		redisj_free(rj);
		return NULL;
	}
	/* streams' MINID trimming and exclusive ranges came with 6.2 */
	r = redisCommand(rj->sync, "INFO server");
	if (r != NULL && r->type == REDIS_REPLY_STRING &&
	    (v = strstr(r->str, "redis_version:")) != NULL) {
		int major = 0, minor = 0;

		sscanf(v + 14, "%d.%d", &major, &minor);
		if (major < 6 || (major == 6 && minor < 2)) {
			xasprintf(cause, "redis: %s:%d runs Redis %d.%d; the "
			    "journal needs 6.2 or later", conf->host,
			    conf->port, major, minor);
			freeReplyObject(r);
			redisj_free(rj);
			return NULL;
		}
	}
	if (r != NULL)
		freeReplyObject(r);
	/*
	 * Deliveries run the script by its digest (EVALSHA: no script text
	 * per delivery); each connection of appends loads it first, so a
	 * restarted Redis has it again before any runs.
	 */
	r = redisCommand(rj->sync, "SCRIPT LOAD %s", redisj_lua_delivery);
	if (r == NULL || r->type != REDIS_REPLY_STRING ||
	    r->len >= sizeof(rj->sha)) {
		xasprintf(cause, "redis: SCRIPT LOAD: %s", r != NULL &&
		    r->type == REDIS_REPLY_ERROR ? r->str : "no digest");
		if (r != NULL)
			freeReplyObject(r);
		redisj_free(rj);
		return NULL;
	}
	memcpy(rj->sha, r->str, r->len + 1);
	freeReplyObject(r);
	return rj;
}

static void
redisj_lease_drop(struct redisj *rj, size_t i)
{
	free(rj->leases[i].name);
	free(rj->leases[i].value);
	rj->leases[i] = rj->leases[--rj->nleases];
}

void
redisj_free(struct redisj *rj)
{
	if (rj == NULL)
		return;
	rj->stopping = 1;
	/* the appends still out are answered 503 by their callbacks */
	if (rj->wr != NULL)
		redisAsyncFree(rj->wr);
	if (rj->rd != NULL)
		redisAsyncFree(rj->rd);
	if (rj->retry_ev != NULL)
		event_free(rj->retry_ev);
	if (rj->tick_ev != NULL)
		event_free(rj->tick_ev);
	while (rj->nleases > 0)
		redisj_lease_drop(rj, rj->nleases - 1);
	free(rj->leases);
	if (rj->sync != NULL)
		redisFree(rj->sync);
	free(rj->conf.host);
	free((char *)rj->conf.password);
	free((char *)rj->conf.prefix);
	free(rj->origin);
	free(rj->stream);
	free(rj);
}

int
redisj_catch_up(struct redisj *rj, long *applied)
{
	redisReply	*r;
	char		 from[64];
	size_t		 n;

	*applied = 0;
	do {
		snprintf(from, sizeof(from), "(%s", rj->last_id);
		r = redisj_cmd(rj, "XRANGE %s %s + COUNT %d", rj->stream,
		    from, REDISJ_PAGE);
		if (r == NULL)
			return -1;
		if (r->type == REDIS_REPLY_ERROR) {
			log_warnx("redis: XRANGE: %s", r->str);
			freeReplyObject(r);
			return -1;
		}
		n = r->type == REDIS_REPLY_ARRAY ? r->elements : 0;
		for (size_t i = 0; i < n; i++)
			redisj_entry(rj, r->element[i]);
		*applied += (long)n;
		freeReplyObject(r);
	} while (n == REDISJ_PAGE);
	return 0;
}

/* An append's last reply is in (or its connection went): tell it. */
static void
redisj_op_done(struct redisj_op *op)
{
	struct redisj	*rj = op->rj;

	if (op->prev != NULL)
		op->prev->next = op->next;
	else
		rj->ops = op->next;
	if (op->next != NULL)
		op->next->prev = op->prev;
	else
		rj->ops_tail = op->prev;
	switch (op->result) {
	case REDISJ_APPENDED:
		rj->appended++;
		redisj_recovered(rj);
		break;
	case REDISJ_DUPLICATE:
		rj->duplicates++;
		redisj_recovered(rj);
		break;
	case REDISJ_FAILED:
		rj->failed++;
		break;
	}
	op->done(op->result, op->arg);
	free(op);
}

static void
redisj_appended(redisAsyncContext *ac, void *reply, void *privdata)
{
	struct redisj_op	*op = privdata;
	redisReply		*r = reply;

	if (r == NULL)
		op->result = REDISJ_FAILED;
	else if (r->type == REDIS_REPLY_ERROR) {
		redisj_fail(op->rj, "appending: %s", r->str);
		op->result = REDISJ_FAILED;
		/* its scripts flushed (SCRIPT FLUSH): a new connection loads */
		if (strncmp(r->str, "NOSCRIPT", 8) == 0)
			redisAsyncDisconnect(ac);
	} else if (r->type == REDIS_REPLY_INTEGER && r->integer == 0)
		op->result = REDISJ_DUPLICATE;
	else if (r->type != REDIS_REPLY_STRING)
		op->result = REDISJ_FAILED;
	if (--op->waits == 0)
		redisj_op_done(op);
}

static void
redisj_waited(redisAsyncContext *ac, void *reply, void *privdata)
{
	struct redisj_op	*op = privdata;
	redisReply		*r = reply;

	(void)ac;
	if (op->result != REDISJ_FAILED && (r == NULL ||
	    r->type != REDIS_REPLY_INTEGER ||
	    r->integer < op->rj->conf.replicas)) {
		if (r != NULL && r->type == REDIS_REPLY_INTEGER)
			redisj_fail(op->rj, "WAIT: %lld of %d replicas took "
			    "it within %d ms", r->integer, op->rj->conf.replicas,
			    op->rj->conf.timeout_ms);
		op->result = REDISJ_FAILED;
	}
	if (--op->waits == 0)
		redisj_op_done(op);
}

static void
redisj_fail_later(evutil_socket_t fd, short what, void *arg)
{
	struct redisj_op	*op = arg;

	(void)fd;
	(void)what;
	op->result = REDISJ_FAILED;
	op->waits = 0;
	redisj_op_done(op);
}

void
redisj_append_delivery(struct redisj *rj, const char *key,
    const char *payload, size_t len,
    void (*done)(enum redisj_result, void *), void *arg)
{
	struct redisj_op	*op = xcalloc(1, sizeof(*op));
	struct timeval		 zero = { 0, 0 };
	char			*seen;
	int			 rc;

	op->rj = rj;
	op->done = done;
	op->arg = arg;
	op->result = REDISJ_APPENDED;
	redisj_now(&op->deadline);
	op->deadline.tv_sec += rj->conf.timeout_ms / 1000;
	op->deadline.tv_nsec += (long)(rj->conf.timeout_ms % 1000) * 1000000;
	if (op->deadline.tv_nsec >= 1000000000) {
		op->deadline.tv_sec++;
		op->deadline.tv_nsec -= 1000000000;
	}
	op->prev = rj->ops_tail;
	if (rj->ops_tail != NULL)
		rj->ops_tail->next = op;
	else
		rj->ops = op;
	rj->ops_tail = op;
	if (rj->wr == NULL || !rj->wr_up) {
		if (rj->failing[0] == '\0')
			redisj_fail(rj, "%s:%d is not connected",
			    rj->conf.host, rj->conf.port);
		event_base_once(rj->base, -1, EV_TIMEOUT, redisj_fail_later,
		    op, &zero);
		return;
	}
	xasprintf(&seen, "%s:seen:%s", rj->conf.prefix, key);
	op->waits = 1;
	rc = redisAsyncCommand(rj->wr, redisj_appended, op,
	    "EVALSHA %s 2 %s %s %d %b %s", rj->sha, seen, rj->stream,
	    rj->conf.seen_secs, payload, len, rj->origin);
	free(seen);
	if (rc == REDIS_OK && rj->conf.replicas > 0) {
		op->waits++;
		if (redisAsyncCommand(rj->wr, redisj_waited, op, "WAIT %d %d",
		    rj->conf.replicas, rj->conf.timeout_ms) != REDIS_OK)
			op->waits--;
	}
	if (rc != REDIS_OK) {
		op->waits = 0;
		event_base_once(rj->base, -1, EV_TIMEOUT, redisj_fail_later,
		    op, &zero);
	}
}

/* The follower's reply: apply what came and ask for more. */
static void
redisj_read(redisAsyncContext *ac, void *reply, void *privdata)
{
	struct redisj	*rj = privdata;
	redisReply	*r = reply;

	(void)ac;
	rj->reading = 0;
	if (r == NULL)
		return;		/* the connection went; it comes back */
	if (r->type == REDIS_REPLY_ERROR)
		log_warnx("redis: XREAD: %s", r->str);
	else
		redisj_entries(rj, r);
	redisj_read_next(rj);
}

static void
redisj_read_next(struct redisj *rj)
{
	if (rj->rd == NULL || !rj->rd_up || rj->reading || rj->stopping)
		return;
	if (redisAsyncCommand(rj->rd, redisj_read, rj,
	    "XREAD COUNT %d BLOCK %d STREAMS %s %s", REDISJ_PAGE,
	    REDISJ_BLOCK_MS, rj->stream, rj->last_id) == REDIS_OK)
		rj->reading = 1;
}

static void
redisj_retry(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	redisj_connect_async(arg);
}

static void
redisj_retry_later(struct redisj *rj)
{
	struct timeval	tv;

	if (rj->stopping || evtimer_pending(rj->retry_ev, NULL))
		return;
	tv.tv_sec = rj->retry_ms / 1000;
	tv.tv_usec = (rj->retry_ms % 1000) * 1000;
	evtimer_add(rj->retry_ev, &tv);
	if ((rj->retry_ms *= 2) > REDISJ_RETRY_MAX_MS)
		rj->retry_ms = REDISJ_RETRY_MAX_MS;
}

static void
redisj_connected(const redisAsyncContext *ac, int status)
{
	struct redisj	*rj = ac->data;

	if (status != REDIS_OK) {
		redisj_fail(rj, "%s:%d: %s", rj->conf.host, rj->conf.port,
		    ac->errstr);
		/* hiredis frees it */
		if (ac == rj->wr)
			rj->wr = NULL;
		if (ac == rj->rd)
			rj->rd = NULL;
		redisj_retry_later(rj);
		return;
	}
	if (ac == rj->wr)
		rj->wr_up = 1;
	if (ac == rj->rd) {
		rj->rd_up = 1;
		redisj_read_next(rj);
	}
	if (rj->wr_up && rj->rd_up) {
		rj->retry_ms = REDISJ_RETRY_MIN_MS;
		log_info("redis: connected to %s:%d", rj->conf.host,
		    rj->conf.port);
		/* a failure of the set-up (AUTH, SELECT) says so again */
		redisj_recovered(rj);
	}
}

static void
redisj_disconnected(const redisAsyncContext *ac, int status)
{
	struct redisj	*rj = ac->data;

	if (!rj->stopping && status != REDIS_OK)
		redisj_fail(rj, "%s:%d: %s", rj->conf.host, rj->conf.port,
		    ac->errstr[0] != '\0' ? ac->errstr : "connection lost");
	if (ac == rj->wr) {
		rj->wr = NULL;
		rj->wr_up = 0;
	}
	if (ac == rj->rd) {
		rj->rd = NULL;
		rj->rd_up = 0;
		rj->reading = 0;
	}
	redisj_retry_later(rj);
}

/* A reply to the set-up commands: an error drops the connection. */
static void
redisj_setup_reply(redisAsyncContext *ac, void *reply, void *privdata)
{
	redisReply	*r = reply;
	struct redisj	*rj = privdata;

	if (r != NULL && r->type == REDIS_REPLY_ERROR) {
		redisj_fail(rj, "%s", r->str);
		redisAsyncDisconnect(ac);
	}
}

static redisAsyncContext *
redisj_connect_one(struct redisj *rj)
{
	redisAsyncContext	*ac;

	ac = redisAsyncConnect(rj->conf.host, rj->conf.port);
	if (ac == NULL || ac->err) {
		redisj_fail(rj, "%s:%d: %s", rj->conf.host, rj->conf.port,
		    ac != NULL ? ac->errstr : "out of memory");
		if (ac != NULL)
			redisAsyncFree(ac);
		return NULL;
	}
	ac->data = rj;
	redisLibeventAttach(ac, rj->base);
	redisAsyncSetConnectCallback(ac, redisj_connected);
	redisAsyncSetDisconnectCallback(ac, redisj_disconnected);
	if (rj->conf.password != NULL)
		redisAsyncCommand(ac, redisj_setup_reply, rj, "AUTH %s",
		    rj->conf.password);
	redisAsyncCommand(ac, redisj_setup_reply, rj, "SELECT %d",
	    rj->conf.db);
	redisAsyncCommand(ac, redisj_setup_reply, rj, "SCRIPT LOAD %s",
	    redisj_lua_delivery);
	return ac;
}

static void
redisj_connect_async(struct redisj *rj)
{
	if (rj->stopping)
		return;
	if (rj->wr == NULL)
		rj->wr = redisj_connect_one(rj);
	if (rj->rd == NULL)
		rj->rd = redisj_connect_one(rj);
	if (rj->wr == NULL || rj->rd == NULL)
		redisj_retry_later(rj);
}

/* Renew the leases held, a third of the way through each. */
static void
redisj_renew(struct redisj *rj)
{
	redisReply	*r;
	char		*key;
	size_t		 i;

	for (i = 0; i < rj->nleases; i++) {
		if (redisj_ms_since(&rj->leases[i].renewed) <
		    rj->conf.lease_ms / 3)
			continue;
		xasprintf(&key, "%s:lease:%s", rj->conf.prefix,
		    rj->leases[i].name);
		r = redisj_cmd(rj, "EVAL %s 1 %s %s %d", redisj_lua_lease, key,
		    rj->leases[i].value, rj->conf.lease_ms);
		free(key);
		if (r == NULL)
			continue;	/* tried again at the next tick */
		if (r->type == REDIS_REPLY_INTEGER && r->integer == 0) {
			log_warnx("redis: the lease of %s was lost (held past "
			    "its time); another receiver may tell it",
			    rj->leases[i].name);
			freeReplyObject(r);
			redisj_lease_drop(rj, i--);
			continue;
		}
		redisj_now(&rj->leases[i].renewed);
		freeReplyObject(r);
	}
}

static void
redisj_tick(evutil_socket_t fd, short what, void *arg)
{
	struct redisj	*rj = arg;
	struct timespec	 now;

	(void)fd;
	(void)what;
	redisj_now(&now);
	/* an append not answered in time: the connection is given up */
	if (rj->ops != NULL && rj->wr != NULL &&
	    (now.tv_sec > rj->ops->deadline.tv_sec ||
	    (now.tv_sec == rj->ops->deadline.tv_sec &&
	    now.tv_nsec > rj->ops->deadline.tv_nsec))) {
		redisAsyncContext *ac = rj->wr;

		redisj_fail(rj, "no answer within %d ms (redis_timeout)",
		    rj->conf.timeout_ms);
		rj->wr = NULL;
		rj->wr_up = 0;
		redisAsyncFree(ac);
		redisj_retry_later(rj);
	}
	redisj_renew(rj);
}

int
redisj_start(struct redisj *rj, struct event_base *base, char **cause)
{
	struct timeval	tick = { 0, REDISJ_TICK_MS * 1000 };

	rj->base = base;
	rj->retry_ev = evtimer_new(base, redisj_retry, rj);
	rj->tick_ev = event_new(base, -1, EV_PERSIST, redisj_tick, rj);
	if (rj->retry_ev == NULL || rj->tick_ev == NULL) {
		*cause = xstrdup("redis: out of memory");
		return -1;
	}
	evtimer_add(rj->tick_ev, &tick);
	redisj_connect_async(rj);
	return 0;
}

static struct redisj_lease *
redisj_lease_find(const struct redisj *rj, const char *name)
{
	size_t	i;

	for (i = 0; i < rj->nleases; i++)
		if (strcmp(rj->leases[i].name, name) == 0)
			return &rj->leases[i];
	return NULL;
}

int
redisj_holds(const struct redisj *rj, const char *name)
{
	return redisj_lease_find(rj, name) != NULL;
}

/* SET the lease NX with a new fencing token. 1, 0 (held) or -1. */
static int
redisj_lease_take(struct redisj *rj, const char *name)
{
	redisReply	*r;
	char		*key, *value;
	long long	 token;
	int		 got;

	if (redisj_lease_find(rj, name) != NULL)
		return 1;
	xasprintf(&key, "%s:fence", rj->conf.prefix);
	r = redisj_cmd(rj, "INCR %s", key);
	free(key);
	if (r == NULL || r->type != REDIS_REPLY_INTEGER) {
		if (r != NULL)
			freeReplyObject(r);
		return -1;
	}
	token = r->integer;
	freeReplyObject(r);
	xasprintf(&value, "%s %lld", rj->origin, token);
	xasprintf(&key, "%s:lease:%s", rj->conf.prefix, name);
	r = redisj_cmd(rj, "SET %s %s NX PX %d", key, value,
	    rj->conf.lease_ms);
	free(key);
	if (r == NULL) {
		free(value);
		return -1;
	}
	got = r->type == REDIS_REPLY_STATUS;
	freeReplyObject(r);
	if (!got) {
		free(value);
		return 0;
	}
	rj->leases = xreallocarray(rj->leases, rj->nleases + 1,
	    sizeof(*rj->leases));
	rj->leases[rj->nleases].name = xstrdup(name);
	rj->leases[rj->nleases].value = value;
	redisj_now(&rj->leases[rj->nleases].renewed);
	rj->nleases++;
	return 1;
}

int
redisj_claim(struct redisj *rj, const char *unit, time_t at)
{
	redisReply	*r;
	char		*key;
	int		 won;

	xasprintf(&key, "%s:emit:%s:%lld", rj->conf.prefix, unit,
	    (long long)at);
	r = redisj_cmd(rj, "SET %s %s NX EX %d", key, rj->origin,
	    rj->conf.seen_secs);
	if (r == NULL) {
		free(key);
		return -1;
	}
	won = r->type == REDIS_REPLY_STATUS;
	freeReplyObject(r);
	/* a show's claim, taken by this receiver for another of its days */
	if (!won && (r = redisj_cmd(rj, "GET %s", key)) != NULL) {
		won = r->type == REDIS_REPLY_STRING &&
		    strcmp(r->str, rj->origin) == 0;
		freeReplyObject(r);
	}
	free(key);
	return won;
}

int
redisj_lease(struct redisj *rj, const char *name)
{
	return redisj_lease_take(rj, name);
}

int
redisj_take_over(struct redisj *rj, const char *name)
{
	int	rc;

	if (redisj_lease_find(rj, name) != NULL)
		return 0;	/* this receiver drafts it already */
	if ((rc = redisj_lease_take(rj, name)) != 1)
		return rc;
	return 1;
}

void
redisj_holder(struct redisj *rj, const char *name, char *out, size_t len)
{
	redisReply	*r;
	char		*key;

	out[0] = '\0';
	xasprintf(&key, "%s:lease:%s", rj->conf.prefix, name);
	r = redisj_cmd(rj, "GET %s", key);
	free(key);
	if (r == NULL)
		return;
	if (r->type == REDIS_REPLY_STRING)
		snprintf(out, len, "%s", r->str);
	freeReplyObject(r);
}

void
redisj_release(struct redisj *rj, const char *name)
{
	struct redisj_lease	*l;
	redisReply		*r;
	char			*key;

	if ((l = redisj_lease_find(rj, name)) == NULL)
		return;
	xasprintf(&key, "%s:lease:%s", rj->conf.prefix, name);
	r = redisj_cmd(rj, "EVAL %s 1 %s %s 0", redisj_lua_lease, key,
	    l->value);
	free(key);
	if (r != NULL)
		freeReplyObject(r);
	redisj_lease_drop(rj, (size_t)(l - rj->leases));
}

int
redisj_append_marker(struct redisj *rj, const char *name,
    const char *payload, size_t len, int release, int follow)
{
	struct redisj_lease	*l;
	redisReply		*r;
	char			*key;
	long			 n;

	if ((l = redisj_lease_find(rj, name)) == NULL) {
		log_warnx("redis: %s: its lease is not held here; the record "
		    "is not written", name);
		return -1;
	}
	xasprintf(&key, "%s:lease:%s", rj->conf.prefix, name);
	r = redisj_cmd(rj, "EVAL %s 2 %s %s %s %b %s %s", redisj_lua_marker,
	    key, rj->stream, l->value, payload, len, rj->origin,
	    release ? "1" : "0");
	free(key);
	if (r == NULL)
		return -1;
	if (r->type == REDIS_REPLY_ERROR && strstr(r->str, "FENCED") == NULL) {
		redisj_fail(rj, "appending under a lease: %s", r->str);
		freeReplyObject(r);
		return -1;
	}
	if (r->type == REDIS_REPLY_ERROR) {
		rj->fenced++;
		log_warnx("redis: %s: its lease passed to another receiver; "
		    "its record is refused", name);
		freeReplyObject(r);
		redisj_lease_drop(rj, (size_t)(l - rj->leases));
		return -1;
	}
	freeReplyObject(r);
	if (release)
		redisj_lease_drop(rj, (size_t)(l - rj->leases));
	if (follow && redisj_catch_up(rj, &n) == -1)
		return -1;
	return 0;
}

/* CONFIG GET name's value into v, or -1 (disabled, renamed, failing). */
static int
redisj_config_get(struct redisj *rj, const char *name, char *v, size_t len)
{
	redisReply	*r;
	int		 rc = -1;

	if ((r = redisj_cmd(rj, "CONFIG GET %s", name)) == NULL)
		return -1;
	if (r->type == REDIS_REPLY_ARRAY && r->elements == 2 &&
	    r->element[1]->type == REDIS_REPLY_STRING) {
		snprintf(v, len, "%s", r->element[1]->str);
		rc = 0;
	}
	freeReplyObject(r);
	return rc;
}

void
redisj_persistence(struct redisj *rj, char **report)
{
	struct buf	b;
	char		aof[16], fsync[16];

	buf_init(&b);
	if (redisj_config_get(rj, "appendonly", aof, sizeof(aof)) == -1 ||
	    redisj_config_get(rj, "appendfsync", fsync, sizeof(fsync)) == -1)
		buf_printf(&b, "warning: %s:%d does not tell its persistence "
		    "(CONFIG GET refused); make sure appendonly is yes and "
		    "appendfsync always\n", rj->conf.host, rj->conf.port);
	else if (strcmp(aof, "yes") != 0)
		buf_printf(&b, "warning: %s:%d has appendonly %s: a crash of "
		    "the Redis host loses every delivery since its last "
		    "snapshot, though each was answered 2xx\n", rj->conf.host,
		    rj->conf.port, aof);
	else if (strcmp(fsync, "always") != 0)
		buf_printf(&b, "warning: %s:%d has appendfsync %s: a crash of "
		    "the Redis host may lose %s of deliveries answered 2xx "
		    "(always loses none)\n", rj->conf.host, rj->conf.port,
		    fsync, strcmp(fsync, "everysec") == 0 ? "the last second" :
		    "the last seconds (the kernel's flush)");
	if (rj->conf.replicas == 0)
		buf_printf(&b, "note: redis_replicas = 0: a delivery is "
		    "answered once the primary has it; losing that host "
		    "loses what it had not yet replicated\n");
	*report = b.data != NULL ? xstrdup(buf_str(&b)) : NULL;
	buf_free(&b);
}

int
redisj_last(const struct redisj *rj, uint64_t id[2])
{
	if (rj->last_ms == 0 && rj->last_seq == 0)
		return -1;
	id[0] = rj->last_ms;
	id[1] = rj->last_seq;
	return 0;
}

void
redisj_trim(struct redisj *rj, const uint64_t from[2])
{
	redisReply	*r;
	char		 id[48];

	if (from[0] < rj->trim_ms || (from[0] == rj->trim_ms &&
	    from[1] <= rj->trim_seq))
		return;
	snprintf(id, sizeof(id), "%" PRIu64 "-%" PRIu64, from[0], from[1]);
	if ((r = redisj_cmd(rj, "XTRIM %s MINID %s", rj->stream, id)) == NULL)
		return;
	if (r->type == REDIS_REPLY_INTEGER) {
		rj->trim_ms = from[0];
		rj->trim_seq = from[1];
		rj->trimmed += (uint64_t)r->integer;
		if (r->integer > 0)
			log_debug("redis: trimmed %lld entr%s before %s",
			    r->integer, r->integer == 1 ? "y" : "ies", id);
	} else if (r->type == REDIS_REPLY_ERROR)
		log_warnx("redis: XTRIM: %s", r->str);
	freeReplyObject(r);
}

const char *
redisj_health(const struct redisj *rj)
{
	if (rj->wr == NULL || !rj->wr_up)
		return rj->failing[0] != '\0' ? rj->failing :
		    "not connected to Redis";
	return rj->failing[0] != '\0' ? rj->failing : NULL;
}

/* A reply's integer, or -1. */
static long long
redisj_int(struct redisj *rj, const char *cmd, const char *arg)
{
	redisReply	*r;
	long long	 v = -1;

	if ((r = redisj_cmd(rj, "%s %s", cmd, arg)) == NULL)
		return -1;
	if (r->type == REDIS_REPLY_INTEGER)
		v = r->integer;
	freeReplyObject(r);
	return v;
}

/* The id of the stream's last entry into id ("" when none or failing). */
static void
redisj_tail_id(struct redisj *rj, char *id, size_t len)
{
	redisReply	*r;

	id[0] = '\0';
	r = redisj_cmd(rj, "XREVRANGE %s + - COUNT 1", rj->stream);
	if (r == NULL)
		return;
	if (r->type == REDIS_REPLY_ARRAY && r->elements == 1 &&
	    r->element[0]->type == REDIS_REPLY_ARRAY &&
	    r->element[0]->elements == 2 &&
	    r->element[0]->element[0]->type == REDIS_REPLY_STRING)
		snprintf(id, len, "%s", r->element[0]->element[0]->str);
	freeReplyObject(r);
}

/*
 * How far behind the stream's last entry this receiver has read, in
 * milliseconds of the entries' ids (0 when caught up or unknown).
 */
static long long
redisj_lag_ms(const struct redisj *rj, const char *tail)
{
	uint64_t	ms, seq;

	if (tail[0] == '\0' || redisj_id_parse(tail, &ms, &seq) == -1 ||
	    ms < rj->last_ms || (ms == rj->last_ms && seq <= rj->last_seq))
		return 0;
	/* at least 1 when an entry is unread, even within the same ms */
	return ms - rj->last_ms > 0 ? (long long)(ms - rj->last_ms) : 1;
}

void
redisj_status(struct redisj *rj, struct buf *b)
{
	char		 tail[48];
	const char	*h = redisj_health(rj);
	size_t		 i;

	redisj_tail_id(rj, tail, sizeof(tail));
	buf_printf(b, "\"lag_ms\":%lld,", redisj_lag_ms(rj, tail));
	buf_printf(b, "\"engine\":\"redis\",\"redis\":\"%s:%d/%d\","
	    "\"stream\":\"%s\",\"stream_length\":%lld,\"read_up_to\":\"%s\","
	    "\"stream_last_id\":\"%s\",\"caught_up\":%s,\"healthy\":%s,"
	    "\"appended\":%" PRIu64 ",\"duplicates\":%" PRIu64 ","
	    "\"failed\":%" PRIu64 ",\"leases\":[", rj->conf.host,
	    rj->conf.port, rj->conf.db, rj->stream,
	    redisj_int(rj, "XLEN", rj->stream), rj->last_id, tail,
	    tail[0] == '\0' || strcmp(tail, rj->last_id) == 0 ? "true" :
	    "false", h == NULL ? "true" : "false", rj->appended,
	    rj->duplicates, rj->failed);
	for (i = 0; i < rj->nleases; i++)
		buf_printf(b, "%s\"%s\"", i > 0 ? "," : "",
		    rj->leases[i].name);
	buf_printf(b, "],\"receiver\":\"%s\"", rj->origin);
}

void
redisj_metrics(struct redisj *rj, struct buf *b)
{
	char		tail[48];
	long long	len;

	redisj_tail_id(rj, tail, sizeof(tail));
	if ((len = redisj_int(rj, "XLEN", rj->stream)) >= 0)
		buf_printf(b, "# HELP hookcast_redis_stream_entries Entries in "
		    "the shared journal's stream.\n"
		    "# TYPE hookcast_redis_stream_entries gauge\n"
		    "hookcast_redis_stream_entries %lld\n", len);
	buf_printf(b, "# HELP hookcast_redis_lag_seconds How far behind the "
	    "stream's last entry this receiver has read.\n"
	    "# TYPE hookcast_redis_lag_seconds gauge\n"
	    "hookcast_redis_lag_seconds %.3f\n",
	    (double)redisj_lag_ms(rj, tail) / 1000);
	buf_printf(b, "# HELP hookcast_redis_up Whether Redis takes the "
	    "journal's appends.\n# TYPE hookcast_redis_up gauge\n"
	    "hookcast_redis_up %d\n", redisj_health(rj) == NULL);
	buf_printf(b, "# HELP hookcast_redis_appends_total Deliveries "
	    "appended to the shared journal, by result.\n"
	    "# TYPE hookcast_redis_appends_total counter\n"
	    "hookcast_redis_appends_total{result=\"appended\"} %" PRIu64 "\n"
	    "hookcast_redis_appends_total{result=\"duplicate\"} %" PRIu64 "\n"
	    "hookcast_redis_appends_total{result=\"failed\"} %" PRIu64 "\n",
	    rj->appended, rj->duplicates, rj->failed);
	buf_printf(b, "# HELP hookcast_redis_entries_applied_total Stream "
	    "entries this receiver applied.\n"
	    "# TYPE hookcast_redis_entries_applied_total counter\n"
	    "hookcast_redis_entries_applied_total %" PRIu64 "\n", rj->applied);
	buf_printf(b, "# HELP hookcast_redis_fenced_total Records refused "
	    "because their lease had passed to another receiver.\n"
	    "# TYPE hookcast_redis_fenced_total counter\n"
	    "hookcast_redis_fenced_total %" PRIu64 "\n", rj->fenced);
	buf_printf(b, "# HELP hookcast_redis_trimmed_total Stream entries "
	    "trimmed past the days told.\n"
	    "# TYPE hookcast_redis_trimmed_total counter\n"
	    "hookcast_redis_trimmed_total %" PRIu64 "\n", rj->trimmed);
	buf_printf(b, "# HELP hookcast_redis_leases_held Leases this "
	    "receiver holds (days it is drafting).\n"
	    "# TYPE hookcast_redis_leases_held gauge\n"
	    "hookcast_redis_leases_held %zu\n", rj->nleases);
}
