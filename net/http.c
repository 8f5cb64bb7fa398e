/* A small HTTP/1.1 server on libevent bufferevents. */
#include <sys/types.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <netinet/in.h>
#ifdef __linux__
#include <linux/sockios.h>
#endif

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <event2/event.h>
#include <event2/listener.h>
#include <event2/util.h>

#include <openssl/err.h>
#include <openssl/ssl.h>

#include "buf.h"
#include "http.h"
#include "log.h"
#include "xmalloc.h"

enum conn_state {
	CONN_HEAD,		/* reading a request head */
	CONN_BODY,		/* reading a body */
	CONN_HANDLING,		/* request handed over, no reply yet */
	CONN_WRITING,		/* reply queued, waiting for it to drain */
	CONN_LINGER,		/* reply sent, discarding input before close */
};

struct http_listener {
	struct evconnlistener	*lev;
	struct http_server	*server;
};

struct http_conn {
	struct http_server	*server;
	struct bufferevent	*bev;
	struct event		*rev;		/* plain TCP: its reads (see below) */
	struct event		*deadline;
	enum conn_state		 state;
	int			 close_after;	/* close once the reply drained */
	int			 peer_gone;	/* client closed while handling */
	int			 have_request;
	int			 replied;	/* to the current request */
	int			 tls;
	int			 half_closed;	/* EOF after a whole request */
	int			 idle;		/* kept alive, no byte of a head */
	struct timespec		 since;		/* accepted, idle or head begun */
	struct timespec		 progress;	/* writing: the client last took */
	size_t			 unsent;	/* writing: output at that time */
	int			 unacked;	/* writing: socket queue then */
	size_t			 reserved;	/* of the server's body budget */
	struct http_scan	 scan;		/* of the head being read */
	struct http_request	 req;
	char			 peer[64];
	char			 addr[INET6_ADDRSTRLEN]; /* peer without port */
	struct http_conn	*next, *prev;
};

/* A log line once per burst: the first, then at most one per 10 s. */
struct http_burst {
	int		logged;
	time_t		last;		/* CLOCK_MONOTONIC seconds */
	unsigned long	quiet;		/* events since the last line */
};

#define HTTP_BURST_SECONDS	10
#define HTTP_BACKOFF_MIN_MS	100	/* accept paused after an error */
#define HTTP_BACKOFF_MAX_MS	1000
#define HTTP_READ_MAX		65536	/* bytes taken in one read(2) */
#define HTTP_WRITE_CHECK	1	/* seconds between looks at a reply */

struct http_server {
	struct event_base	*base;
	struct http_limits	 limits;
	http_head_cb		 head_cb;
	http_request_cb		 request_cb;
	void			*arg;
	struct http_listener	*listeners;
	size_t			 nlisteners;
	int			 accepting;
	struct event		*resume;	/* accept again after an error */
	int			 backoff_ms;	/* 0: the last accept worked */
	struct http_conn	*conns;
	size_t			 nconns;
	size_t			 pending;
	size_t			 buffered;	/* body bytes reserved */
	SSL_CTX			*tls;		/* NULL: plain HTTP */
	size_t			 scanned;	/* head bytes examined */
	uint64_t		 replies[HTTP_STATUS_MAX]; /* by status */
	struct http_burst	 accept_log, shed_log, refuse_log, busy_log;
};

static void	http_conn_read(struct bufferevent *, void *);
static void	http_conn_readable(evutil_socket_t, short, void *);
static void	http_conn_reading(struct http_conn *, int);
static void	http_conn_write(struct bufferevent *, void *);
static void	http_conn_event(struct bufferevent *, short, void *);
static void	http_conn_free(struct http_conn *);

/* Should a burst's event be logged now? *n: the events it stands for. */
static int
http_burst(struct http_burst *b, unsigned long *n)
{
	struct timespec	now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	b->quiet++;
	if (b->logged && now.tv_sec - b->last < HTTP_BURST_SECONDS)
		return 0;
	*n = b->quiet;
	b->quiet = 0;
	b->logged = 1;
	b->last = now.tv_sec;
	return 1;
}

/* Seconds from t to now (CLOCK_MONOTONIC). */
static double
http_elapsed(const struct timespec *t)
{
	struct timespec	now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t->tv_sec) +
	    (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

/* Is a before b (CLOCK_MONOTONIC)? */
static int
http_before(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec ||
	    (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/* Seconds a head may take: head_timeout, never more than timeout. */
static int
http_head_timeout(const struct http_limits *l)
{
	if (l->head_timeout > 0 && l->head_timeout < l->timeout)
		return l->head_timeout;
	return l->timeout;
}

/* Seconds a kept-alive connection may wait for its next request. */
static int
http_idle_timeout(const struct http_limits *l)
{
	return l->idle_timeout > 0 ? l->idle_timeout : l->timeout;
}

/* The body budget: max_buffered, never less than one max_body. */
static size_t
http_budget(const struct http_limits *l)
{
	return l->max_buffered > l->max_body ? l->max_buffered : l->max_body;
}

static void
http_conn_unlink(struct http_conn *c)
{
	struct http_server	*s = c->server;

	if (c->prev != NULL)
		c->prev->next = c->next;
	else
		s->conns = c->next;
	if (c->next != NULL)
		c->next->prev = c->prev;
	s->nconns--;
}

/* Give back the connection's share of the body budget. */
static void
http_conn_release(struct http_conn *c)
{
	c->server->buffered -= c->reserved;
	c->reserved = 0;
}

static void
http_conn_free(struct http_conn *c)
{
	struct http_server	*s = c->server;

	if (c->state == CONN_HANDLING)
		s->pending--;
	http_conn_release(c);
	http_conn_unlink(c);
	if (c->deadline != NULL)
		event_free(c->deadline);
	/* before the bufferevent, which closes the socket */
	if (c->rev != NULL)
		event_free(c->rev);
	if (c->bev != NULL)
		bufferevent_free(c->bev);
	http_request_clear(&c->req);
	free(c);
}

static void
http_conn_arm(struct http_conn *c, int seconds)
{
	struct timeval	tv = { seconds, 0 };

	evtimer_add(c->deadline, &tv);
}

/* Arm the deadline for what is left of seconds counted from c->since. */
static void
http_conn_arm_rest(struct http_conn *c, int seconds)
{
	struct timeval	tv;
	double		left = (double)seconds - http_elapsed(&c->since);

	if (left < 0.001)
		left = 0.001;
	tv.tv_sec = (time_t)left;
	tv.tv_usec = (suseconds_t)((left - (double)tv.tv_sec) * 1e6);
	evtimer_add(c->deadline, &tv);
}

/*
 * Bytes written to the connection's socket that its client has not
 * taken yet (the kernel's send queue); 0 where that can't be asked.
 */
static int
http_conn_unacked(struct http_conn *c)
{
	int	n = 0;

#ifdef SIOCOUTQ
	if (ioctl(bufferevent_getfd(c->bev), SIOCOUTQ, &n) == -1)
		n = 0;
#endif
	return n;
}

/*
 * A reply is queued: from now on what bounds the connection is the time
 * its client goes without taking a byte (the head timeout), looked at
 * every HTTP_WRITE_CHECK seconds, not the time a whole request may
 * take: a large file to a slow client may take longer than that, and
 * one whose client stopped reading goes soon, not after read_timeout.
 * The first look counts as progress (a baseline taken here would cost
 * a system call a reply).
 */
static void
http_conn_writing(struct http_conn *c)
{
	c->state = CONN_WRITING;
	clock_gettime(CLOCK_MONOTONIC, &c->progress);
	c->unsent = SIZE_MAX;
	c->unacked = INT_MAX;
	http_conn_arm(c, HTTP_WRITE_CHECK);
}

/*
 * A look at a reply being written: progress is our output shrinking (the
 * socket took more) or the socket's queue shrinking (the client took
 * some; the kernel may not wake a writer until much of it is gone). A
 * reply without progress for the head timeout is closed.
 */
static void
http_conn_write_check(struct http_conn *c)
{
	size_t	unsent = evbuffer_get_length(bufferevent_get_output(c->bev));
	int	unacked = http_conn_unacked(c);
	int	bound = http_head_timeout(&c->server->limits);
	double	left;

	if (unsent < c->unsent || unacked < c->unacked)
		clock_gettime(CLOCK_MONOTONIC, &c->progress);
	c->unsent = unsent;
	c->unacked = unacked;
	left = (double)bound - http_elapsed(&c->progress);
	if (left > 0) {
		struct timeval	tv;

		if (left > HTTP_WRITE_CHECK)
			left = HTTP_WRITE_CHECK;
		tv.tv_sec = (time_t)left;
		tv.tv_usec = (suseconds_t)((left - (double)tv.tv_sec) * 1e6);
		if (tv.tv_sec == 0 && tv.tv_usec == 0)
			tv.tv_usec = 1000;
		evtimer_add(c->deadline, &tv);
		return;
	}
	if (c->have_request)
		log_info("http: %s: %s %s: reply stalled: the client took "
		    "nothing for %d s; closed", c->peer, c->req.method,
		    c->req.path, bound);
	else
		log_info("http: %s: reply stalled: the client took nothing "
		    "for %d s; closed", c->peer, bound);
	http_conn_free(c);
}

/*
 * Will the connection close after a reply now? When asked to, when the
 * request or the server says so, or when a body announced by the request
 * was not read: it is not skipped over, so nothing after it can be read.
 */
static int
http_conn_closing(struct http_conn *c, int close_after)
{
	char	byte;

	/*
	 * The client's end of stream may be in the socket, not yet heard
	 * by the loop (its event and the reply's are of one turn, in no
	 * set order): a reply to a client that has half-closed says close.
	 */
	if (!c->half_closed && !c->tls && c->bev != NULL &&
	    recv(bufferevent_getfd(c->bev), &byte, 1, MSG_PEEK |
	    MSG_DONTWAIT) == 0)
		c->half_closed = 1;
	if (close_after || c->half_closed || !c->server->accepting)
		return 1;
	if (!c->have_request)
		return 0;
	if (!c->req.keep_alive)
		return 1;
	return (c->state == CONN_HEAD || c->state == CONN_BODY) &&
	    c->req.content_length > 0;
}

/*
 * Keep what is added to the output from being written on its own: the
 * bufferevent starts writing when its write is enabled and bytes come
 * (an epoll_ctl to add the socket and one to drop it once drained).
 * http_conn_flush writes them. No system call unless a write is pending.
 */
static void
http_conn_hold(struct http_conn *c)
{
	if (!c->tls)
		bufferevent_disable(c->bev, EV_WRITE);
}

/*
 * Send what the output holds. On plain TCP it is written at once, and
 * when it all went the write callback runs from the loop (deferred: the
 * caller may still hold the request), without waiting for the socket to
 * be reported writable: a reply then costs one writev and no epoll_ctl.
 * What is left, or all of it under TLS, drains when the socket is
 * writable, with the bufferevent's write enabled.
 */
static void
http_conn_flush(struct http_conn *c)
{
	struct evbuffer	*out = bufferevent_get_output(c->bev);

	if (!c->tls) {
		/* the output's start is frozen but while the bufferevent writes */
		evbuffer_unfreeze(out, 1);
		evbuffer_write(out, bufferevent_getfd(c->bev));
		evbuffer_freeze(out, 1);
		if (evbuffer_get_length(out) == 0) {
			bufferevent_trigger(c->bev, EV_WRITE,
			    BEV_TRIG_DEFER_CALLBACKS);
			return;
		}
	}
	bufferevent_enable(c->bev, EV_WRITE);
}

/* A reply of status went out (or was queued): counted for /metrics. */
static void
http_count(struct http_server *s, int status)
{
	if (status >= 100 && status < HTTP_STATUS_MAX)
		s->replies[status]++;
}

/*
 * Queue a reply on the connection and move to CONN_WRITING. The reply
 * says "Connection: close" exactly when the connection closes after it,
 * and "Retry-After" when retry_after > 0.
 */
static void
http_conn_send(struct http_conn *c, int status, const char *ctype,
    const char *body, size_t len, int close_after, int retry_after,
    const char *extra)
{
	struct evbuffer	*out = bufferevent_get_output(c->bev);
	struct buf	 b;
	long long	 clen = (long long)len;

	close_after = http_conn_closing(c, close_after);
	c->close_after = close_after;
	c->replied = 1;
	http_count(c->server, status);
	if (status == 204 || status == 304) {
		/* RFC 9110 6.4.1: no content, 204 no length either */
		len = 0;
		clen = status == 204 ? -1 : 0;
	}
	if (c->have_request && strcmp(c->req.method, "HEAD") == 0)
		len = 0;	/* the length a GET would have, no body */
	http_conn_hold(c);
	buf_init(&b);
	http_format_head_extra(&b, status, ctype, clen, close_after,
	    retry_after, extra);
	evbuffer_add(out, b.data, b.len);
	buf_free(&b);
	if (len > 0)
		evbuffer_add(out, body, len);
	http_conn_writing(c);
	http_conn_flush(c);
}

/* Reply with a JSON error naming cause. */
static void
http_conn_send_error(struct http_conn *c, int status, const char *cause,
    int close_after)
{
	struct buf	b;

	buf_init(&b);
	http_format_error(&b, cause);
	http_conn_send(c, status, "application/json", b.data, b.len,
	    close_after, 0, NULL);
	buf_free(&b);
}

/* Why a reply can't go out as asked, or NULL. */
static const char *
http_reply_invalid(int status, const char *ctype, const char *body,
    size_t len)
{
	const unsigned char	*p;

	if (status < 200 || status > 999)
		return "status is not a final status";
	if (body == NULL && len > 0)
		return "no body for a nonzero length";
	if (len > (size_t)LLONG_MAX)
		return "length out of range";
	if (ctype == NULL)
		return NULL;
	for (p = (const unsigned char *)ctype; *p != '\0'; p++)
		if ((*p < 0x20 && *p != '\t') || *p == 0x7f)
			return "control character in the content type";
	return NULL;
}

static void
http_reply_common(struct http_request *req, int status, const char *ctype,
    const char *extra, const char *body, size_t len, int close_after)
{
	struct http_conn	*c;
	const char		*why;

	if (req == NULL || (c = req->conn) == NULL) {
		log_warnx("%s: a reply to no connection", __func__);
		return;
	}
	if (!c->have_request || c->replied || &c->req != req) {
		log_warnx("http: %s: a second reply (%d) dropped", c->peer,
		    status);
		return;
	}
	if (c->state == CONN_HANDLING)
		c->server->pending--;
	if (c->peer_gone) {
		/* the client left while we worked: nothing to send it */
		c->state = CONN_WRITING;
		http_conn_free(c);
		return;
	}
	if ((why = http_reply_invalid(status, ctype, body, len)) != NULL) {
		log_warnx("http: %s: %s %s: reply %d refused: %s; sent 500",
		    c->peer, req->method, req->path, status, why);
		http_conn_send_error(c, 500, "internal error", 1);
		return;
	}
	http_conn_send(c, status, ctype, body, len, close_after, 0, extra);
}

/*
 * Queue a reply whose body is len bytes of fd from offset, by reference
 * (a file segment: never copied into the buffer); fd is the reply's.
 */
static void
http_conn_send_file(struct http_conn *c, int status, const char *ctype,
    const char *extra, int fd, long long offset, long long len)
{
	struct evbuffer			*out = bufferevent_get_output(c->bev);
	struct evbuffer_file_segment	*seg;
	struct buf			 b;
	int				 close_after;

	close_after = http_conn_closing(c, 0);
	c->close_after = close_after;
	c->replied = 1;
	http_count(c->server, status);
	http_conn_hold(c);
	buf_init(&b);
	http_format_head_extra(&b, status, ctype, status == 304 ? -1 : len,
	    close_after, 0, extra);
	evbuffer_add(out, b.data, b.len);
	buf_free(&b);
	if (status != 304 && len > 0 && fd != -1 &&
	    strcmp(c->req.method, "HEAD") != 0) {
		seg = evbuffer_file_segment_new(fd, offset, len,
		    EVBUF_FS_CLOSE_ON_FREE);
		if (seg == NULL) {
			log_warnx("http: %s: %s: can't send the file", c->peer,
			    c->req.path);
			close(fd);
			c->close_after = 1;	/* the body promised won't come */
		} else {
			if (evbuffer_add_file_segment(out, seg, 0, len) == -1) {
				log_warnx("http: %s: %s: can't send the file",
				    c->peer, c->req.path);
				c->close_after = 1;
			}
			evbuffer_file_segment_free(seg);
		}
	} else if (fd != -1)
		close(fd);
	http_conn_writing(c);
	http_conn_flush(c);
}

void
http_reply_file(struct http_request *req, int status, const char *ctype,
    const char *extra, int fd, long long offset, long long len)
{
	struct http_conn	*c;

	if (req == NULL || (c = req->conn) == NULL || !c->have_request ||
	    c->replied || &c->req != req) {
		log_warnx("%s: a reply to no request (%d) dropped", __func__,
		    status);
		if (fd != -1)
			close(fd);
		return;
	}
	if (c->state == CONN_HANDLING)
		c->server->pending--;
	if (c->peer_gone) {
		if (fd != -1)
			close(fd);
		c->state = CONN_WRITING;
		http_conn_free(c);
		return;
	}
	if (http_reply_invalid(status, ctype, "", 0) != NULL || len < 0 ||
	    offset < 0 || (fd == -1 && len > 0 && status != 304 &&
	    strcmp(req->method, "HEAD") != 0)) {
		log_warnx("http: %s: %s %s: file reply %d refused; sent 500",
		    c->peer, req->method, req->path, status);
		if (fd != -1)
			close(fd);
		http_conn_send_error(c, 500, "internal error", 1);
		return;
	}
	http_conn_send_file(c, status, ctype, extra, fd, offset, len);
}

void
http_reply(struct http_request *req, int status, const char *ctype,
    const char *body, size_t len)
{
	http_reply_common(req, status, ctype, NULL, body, len, 0);
}

void
http_reply_close(struct http_request *req, int status, const char *ctype,
    const char *body, size_t len)
{
	http_reply_common(req, status, ctype, NULL, body, len, 1);
}

void
http_reply_extra(struct http_request *req, int status, const char *ctype,
    const char *extra, const char *body, size_t len)
{
	http_reply_common(req, status, ctype, extra, body, len, 0);
}

const char *
http_request_peer(const struct http_request *req)
{
	return req->conn != NULL ? req->conn->addr : "-";
}

uint64_t
http_server_replies(const struct http_server *s, int status)
{
	if (status < 0 || status >= HTTP_STATUS_MAX)
		return 0;
	return s->replies[status];
}

/* Reply with a JSON error and close, for errors found while reading. */
static void
http_conn_error(struct http_conn *c, int status, const char *cause)
{
	http_conn_reading(c, 0);
	http_conn_send_error(c, status, cause, 1);
}

/*
 * A 503 that closes, for a body the budget can't take now: the client
 * may try again once the bodies in flight are done.
 */
static void
http_conn_unavailable(struct http_conn *c, const char *cause)
{
	struct buf	b;

	http_conn_reading(c, 0);
	buf_init(&b);
	http_format_error(&b, cause);
	http_conn_send(c, 503, "application/json", b.data, b.len, 1,
	    c->server->limits.timeout, NULL);
	buf_free(&b);
}

/*
 * Begin a request: on a new connection (fresh), whose head (and TLS
 * handshake) must come within the head timeout, or on a kept-alive one,
 * which may stay idle for the idle timeout until a byte of its next head
 * arrives.
 */
static void
http_conn_next(struct http_conn *c, int fresh)
{
	const struct http_limits *l = &c->server->limits;

	http_request_clear(&c->req);
	http_conn_release(c);
	c->have_request = 0;
	c->replied = 0;
	memset(&c->scan, 0, sizeof(c->scan));
	c->state = CONN_HEAD;
	c->idle = !fresh;
	clock_gettime(CLOCK_MONOTONIC, &c->since);
	http_conn_arm(c, fresh ? http_head_timeout(l) : http_idle_timeout(l));
	http_conn_reading(c, 1);
}

/* What the request in hand still lacks of its body, 0 if nothing. */
static size_t
http_conn_lacks(struct http_conn *c)
{
	size_t	avail = evbuffer_get_length(bufferevent_get_input(c->bev));
	size_t	blen = (size_t)c->req.content_length;

	return avail < blen ? blen - avail : 0;
}

static void
http_conn_dispatch(struct http_conn *c)
{
	struct evbuffer	*in = bufferevent_get_input(c->bev);
	struct http_server *s = c->server;
	size_t		 blen = (size_t)c->req.content_length;

	if (http_conn_lacks(c) > 0)
		return;
	c->req.body = xmalloc(blen + 1);
	evbuffer_remove(in, c->req.body, blen);
	c->req.body[blen] = '\0';
	c->req.bodylen = blen;
	c->state = CONN_HANDLING;
	s->pending++;
	evtimer_del(c->deadline);
	/*
	 * No pipelining: the next request is read after this reply. On plain
	 * TCP reading stays on (a client that waits sends nothing, and
	 * turning it off and on cost two epoll_ctl a request); what comes
	 * early waits in the input, up to a head's worth (http_conn_read).
	 */
	if (c->tls)
		http_conn_reading(c, 0);
	s->request_cb(&c->req, s->arg);
}

/*
 * Go on looking for the end of the head in the input, from where the last
 * read left off, up to offset upto; the head's length once found, else 0.
 * The bytes are looked at in place, not pulled up into one piece.
 */
static size_t
http_conn_scan(struct http_conn *c, size_t upto)
{
	struct evbuffer		*in = bufferevent_get_input(c->bev);
	struct evbuffer_ptr	 ptr;
	struct evbuffer_iovec	 v[8];
	size_t			 end, len, before;
	int			 i, n;

	while (c->scan.off < upto) {
		if (evbuffer_ptr_set(in, &ptr, c->scan.off,
		    EVBUFFER_PTR_SET) == -1)
			return 0;
		n = evbuffer_peek(in, (ssize_t)(upto - c->scan.off), &ptr, v,
		    8);
		if (n <= 0)
			return 0;
		for (i = 0; i < n && i < 8 && c->scan.off < upto; i++) {
			len = v[i].iov_len;
			if (len > upto - c->scan.off)
				len = upto - c->scan.off;
			before = c->scan.off;
			end = http_scan_feed(&c->scan, v[i].iov_base, len);
			c->server->scanned += c->scan.off - before;
			if (end != 0)
				return end;
		}
	}
	return 0;
}

/*
 * A read while in CONN_HEAD: scan only the new bytes for the end of the
 * head, and parse the head once, when it is all there (a head trickled
 * byte by byte costs its length, not its length squared).
 */
static void
http_conn_head(struct http_conn *c)
{
	struct http_server	*s = c->server;
	struct evbuffer		*in = bufferevent_get_input(c->bev);
	size_t			 avail = evbuffer_get_length(in), cap, end;
	size_t			 blen;
	const char		*data, *cause;
	long			 used;
	unsigned long		 n;
	int			 status, rv;

	/* one byte past the limit tells a head that is too large */
	cap = s->limits.max_header + 1;
	end = http_conn_scan(c, avail < cap ? avail : cap);
	if (end == 0) {
		if (c->scan.off < cap)
			return;
		log_info("http: %s: 431 request head too large", c->peer);
		http_conn_error(c, 431, "request head too large");
		return;
	}
	data = (const char *)evbuffer_pullup(in, (ssize_t)end);
	s->scanned += end;
	used = http_parse_head(data, end, s->limits.max_header, &c->req,
	    &status, &cause);
	if (used <= 0) {
		if (used == 0) {
			/* the scan and the parse disagree: a bug */
			log_warnx("%s: head end not found again", __func__);
			status = 400;
			cause = "malformed request head";
		}
		log_info("http: %s: %d %s", c->peer, status, cause);
		http_conn_error(c, status, cause);
		return;
	}
	evbuffer_drain(in, (size_t)used);
	c->have_request = 1;
	c->req.conn = c;
	clock_gettime(CLOCK_MONOTONIC, &c->req.started);
	if (c->req.content_length < 0) {
		if (strcmp(c->req.method, "POST") == 0 ||
		    strcmp(c->req.method, "PUT") == 0) {
			log_info("http: %s: 411 Content-Length required",
			    c->peer);
			http_conn_error(c, 411, "Content-Length required");
			return;
		}
		c->req.content_length = 0;
	}
	rv = s->head_cb(&c->req, s->arg);
	if (rv == -1 || c->replied) {
		/* refused: don't read a body (the reply said so if one came) */
		http_conn_reading(c, 0);
		if (!c->replied) {
			log_warnx("http: %s: %s %s refused without a reply",
			    c->peer, c->req.method, c->req.path);
			http_conn_send_error(c, 500, "internal error", 1);
		}
		return;
	}
	if (c->req.content_length > (long long)s->limits.max_body) {
		log_info("http: %s: 413 request body too large: %lld bytes, "
		    "the limit is %zu", c->peer, c->req.content_length,
		    s->limits.max_body);
		http_conn_error(c, 413, "request body too large");
		return;
	}
	/*
	 * The body is buffered before anyone can tell it is authentic, so
	 * it takes its announced length from a budget shared by all
	 * connections. A small body is always let in (the connection cap
	 * bounds those); a larger one that doesn't fit is refused now
	 * rather than kept waiting on a connection slot.
	 */
	blen = (size_t)c->req.content_length;
	if (s->limits.max_buffered > 0 && blen > s->limits.small_body &&
	    s->buffered + blen > http_budget(&s->limits)) {
		if (http_burst(&s->busy_log, &n))
			log_warnx("http: %s: a %zu-byte body refused: %zu bytes "
			    "of bodies in flight, the budget is %zu (%lu "
			    "refused)", c->peer, blen, s->buffered,
			    http_budget(&s->limits), n);
		http_conn_unavailable(c, "too many request bodies in flight; "
		    "retry later");
		return;
	}
	c->reserved = blen;
	s->buffered += blen;
	http_conn_arm_rest(c, s->limits.timeout);
	if (c->req.expect_continue && c->req.content_length > 0 &&
	    evbuffer_get_length(in) == 0) {
		evbuffer_add_printf(bufferevent_get_output(c->bev),
		    "HTTP/1.1 100 Continue\r\n\r\n");
		bufferevent_enable(c->bev, EV_WRITE);
	}
	c->state = CONN_BODY;
	http_conn_dispatch(c);
}

static void
http_conn_read(struct bufferevent *bev, void *arg)
{
	struct http_conn	*c = arg;
	struct evbuffer		*in = bufferevent_get_input(bev);

	switch (c->state) {
	case CONN_HEAD:
		if (c->idle && evbuffer_get_length(in) > 0) {
			/* a new head begins: it has the head timeout */
			c->idle = 0;
			clock_gettime(CLOCK_MONOTONIC, &c->since);
			http_conn_arm(c, http_head_timeout(&c->server->limits));
		}
		http_conn_head(c);
		break;
	case CONN_BODY:
		http_conn_dispatch(c);
		break;
	case CONN_LINGER:
		evbuffer_drain(in, evbuffer_get_length(in));
		break;
	case CONN_HANDLING:
	case CONN_WRITING:
		/* bytes sent before the reply: at most a head's worth */
		if (evbuffer_get_length(in) > c->server->limits.max_header)
			http_conn_reading(c, 0);
		break;
	}
}

/*
 * Reading is the connection's own on plain TCP: one read(2) a readable
 * event, into a buffer all connections share, and what came is added to
 * the input. The bufferevent read asks FIONREAD first and takes at most
 * 4,096 bytes a turn (libevent 2.1), so a 7.7 KB request cost two ioctl
 * and two readv, the second through a top-up of our own; now it costs one
 * read. The input grows by what arrived and no more: a client that sends
 * a byte and stalls makes no buffer grow. Under TLS the bytes on the
 * socket are records, and the bufferevent reads them.
 */
static char	http_rbuf[HTTP_READ_MAX];

/* Watch the connection for reading, or stop. */
static void
http_conn_reading(struct http_conn *c, int on)
{
	if (c->tls) {
		if (on)
			bufferevent_enable(c->bev, EV_READ);
		else
			bufferevent_disable(c->bev, EV_READ);
	} else if (on)
		event_add(c->rev, NULL);
	else
		event_del(c->rev);
}

/*
 * How many bytes the connection may take now, with avail in its input:
 * in a head, up to one past the largest head (a body that came with it
 * is read with it); in a body, what it lacks; while a request is being
 * answered, a head's worth at most; lingering, anything (it is dropped).
 */
static size_t
http_conn_want(struct http_conn *c, size_t avail)
{
	size_t	cap = c->server->limits.max_header + 1;

	switch (c->state) {
	case CONN_HEAD:
	case CONN_HANDLING:
	case CONN_WRITING:
		return avail < cap ? cap - avail : 0;
	case CONN_BODY:
		return http_conn_lacks(c);
	case CONN_LINGER:
		return sizeof(http_rbuf);
	}
	return 0;
}

static void
http_conn_readable(evutil_socket_t fd, short what, void *arg)
{
	struct http_conn	*c = arg;
	struct evbuffer		*in = bufferevent_get_input(c->bev);
	size_t			 want = http_conn_want(c, evbuffer_get_length(in));
	ssize_t			 got;
	int			 rc;

	if (want == 0) {
		/* nothing more may come in before the input is dealt with */
		http_conn_reading(c, 0);
		return;
	}
	if (want > sizeof(http_rbuf))
		want = sizeof(http_rbuf);
	do {
		got = read(fd, http_rbuf, want);
	} while (got == -1 && errno == EINTR);
	if (got == -1 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return;
	if (got > 0) {
		/* the bufferevent keeps its input's end frozen */
		evbuffer_unfreeze(in, 0);
		rc = evbuffer_add(in, http_rbuf, (size_t)got);
		evbuffer_freeze(in, 0);
		if (rc == 0) {
			http_conn_read(c->bev, c);
			return;
		}
	}
	/* an end of file or an error ends reading, as in the bufferevent */
	http_conn_reading(c, 0);
	http_conn_event(c->bev, BEV_EVENT_READING |
	    (got == 0 ? BEV_EVENT_EOF : BEV_EVENT_ERROR), c);
}

static void
http_conn_write(struct bufferevent *bev, void *arg)
{
	struct http_conn	*c = arg;
	struct timeval		 tv = { 2, 0 };

	if (c->state != CONN_WRITING)
		return;
	if (!c->close_after && !c->server->accepting &&
	    evbuffer_get_length(bufferevent_get_input(bev)) == 0) {
		/* stopping: an idle kept-alive connection goes, as in stop */
		http_conn_free(c);
		return;
	}
	if (!c->close_after) {
		http_conn_next(c, 0);
		/* a request that arrived while we were busy */
		if (evbuffer_get_length(bufferevent_get_input(bev)) > 0)
			http_conn_read(bev, c);
		return;
	}
	if (c->tls) {
		/* no half-close under TLS: the reply is out, so is the peer */
		http_conn_free(c);
		return;
	}
	/*
	 * Half-close and discard what the client still sends for a moment,
	 * so it reads our reply instead of a reset (a refused large body).
	 */
	shutdown(bufferevent_getfd(bev), SHUT_WR);
	c->state = CONN_LINGER;
	evbuffer_drain(bufferevent_get_input(bev),
	    evbuffer_get_length(bufferevent_get_input(bev)));
	http_conn_reading(c, 1);
	evtimer_add(c->deadline, &tv);
}

static void
http_conn_event(struct bufferevent *bev, short what, void *arg)
{
	struct http_conn	*c = arg;

	if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)) {
		if (c->tls && (what & BEV_EVENT_ERROR) && !c->have_request) {
			unsigned long	e = bufferevent_get_openssl_error(bev);
			char		err[160];

			if (e != 0) {
				ERR_error_string_n(e, err, sizeof(err));
				log_info("http: %s: TLS handshake failed: %s",
				    c->peer, err);
			}
		}
		if ((what & BEV_EVENT_ERROR) == 0 && (c->state ==
		    CONN_HANDLING || c->state == CONN_WRITING)) {
			/*
			 * The client closed its side after its request: the
			 * reply still goes to it, then the connection closes
			 * (libevent stopped reading).
			 */
			c->half_closed = 1;
			if (c->state == CONN_WRITING)
				c->close_after = 1;
			return;
		}
		if (c->state == CONN_HANDLING) {
			/* the reply frees it */
			c->peer_gone = 1;
			http_conn_reading(c, 0);
			bufferevent_disable(bev, EV_WRITE);
			return;
		}
		http_conn_free(c);
	}
}

static void
http_conn_deadline(evutil_socket_t fd, short what, void *arg)
{
	struct http_conn	*c = arg;
	struct evbuffer		*in = bufferevent_get_input(c->bev);

	switch (c->state) {
	case CONN_HEAD:
		if (evbuffer_get_length(in) == 0 && !c->have_request) {
			/* idle, or not a byte of a head (nor a TLS hello) */
			http_conn_free(c);
			return;
		}
		log_info("http: %s: request head not received within %d s",
		    c->peer, http_head_timeout(&c->server->limits));
		http_conn_error(c, 408, "request head not received in time");
		c->state = CONN_WRITING;
		c->close_after = 1;
		break;
	case CONN_BODY:
		log_info("http: %s: request not received within %d s",
		    c->peer, c->server->limits.timeout);
		http_conn_error(c, 408, "request not received in time");
		/* if this can't drain either, it stalls and is closed */
		c->state = CONN_WRITING;
		c->close_after = 1;
		break;
	case CONN_HANDLING:
		break;
	case CONN_WRITING:
		http_conn_write_check(c);
		break;
	case CONN_LINGER:
		http_conn_free(c);
		break;
	}
}

/* Connections open from one address. */
static size_t
http_peer_count(const struct http_server *s, const char *addr)
{
	const struct http_conn	*c;
	size_t			 n = 0;

	for (c = s->conns; c != NULL; c = c->next)
		n += strcmp(c->addr, addr) == 0;
	return n;
}

/*
 * The connection to shed for a new one at the cap: the oldest of those
 * with no request under way (idle, still sending a head or a TLS hello,
 * or lingering after a reply); else the reply longest without progress
 * (in practice a file download, which a client resumes with a Range,
 * where a client cut off in its body may not send it again); else the
 * oldest still sending a body. Those being handled are kept: the head
 * callback took their request. NULL when there is none.
 */
static struct http_conn *
http_shed_pick(const struct http_server *s)
{
	struct http_conn	*c, *idle = NULL, *reply = NULL, *body = NULL;

	for (c = s->conns; c != NULL; c = c->next) {
		switch (c->state) {
		case CONN_HEAD:
		case CONN_LINGER:
			if (idle == NULL || http_before(&c->since, &idle->since))
				idle = c;
			break;
		case CONN_BODY:
			if (body == NULL || http_before(&c->since, &body->since))
				body = c;
			break;
		case CONN_WRITING:
			if (reply == NULL ||
			    http_before(&c->progress, &reply->progress))
				reply = c;
			break;
		case CONN_HANDLING:
			break;
		}
	}
	if (idle != NULL)
		return idle;
	return reply != NULL ? reply : body;
}

/* What shedding c closes, for the log. */
static const char *
http_shed_what(const struct http_conn *c)
{
	switch (c->state) {
	case CONN_WRITING:
		return "the reply longest stalled";
	case CONN_BODY:
		return "the oldest unfinished request";
	default:
		return "the oldest idle ones";
	}
}

/*
 * Turn a new connection away with a 503 that closes: written straight
 * to the socket (it fits in its buffer), not at all under TLS.
 */
static void
http_refuse(struct http_server *s, evutil_socket_t fd, const char *peer,
    const char *cause)
{
	struct buf	b, body;
	unsigned long	n;

	if (http_burst(&s->refuse_log, &n))
		log_warnx("http: %s: connection refused: %s (%lu refused)",
		    peer, cause, n);
	if (s->tls == NULL) {
		http_count(s, 503);
		buf_init(&body);
		http_format_error(&body, cause);
		buf_init(&b);
		http_format_head(&b, 503, "application/json",
		    (long long)body.len, 1, 1);
		buf_append(&b, body.data, body.len);
		(void)send(fd, b.data, b.len, MSG_DONTWAIT | MSG_NOSIGNAL);
		shutdown(fd, SHUT_WR);
		buf_free(&b);
		buf_free(&body);
	}
	evutil_closesocket(fd);
}

static void
http_accept(struct evconnlistener *lev, evutil_socket_t fd,
    struct sockaddr *sa, int salen, void *arg)
{
	struct http_listener	*l = arg;
	struct http_server	*s = l->server;
	struct http_conn	*c, *shed;
	char			 addr[INET6_ADDRSTRLEN], peer[64];
	unsigned long		 n;

	s->backoff_ms = 0;
	http_peer_name(sa, addr, sizeof(addr), peer, sizeof(peer));
	if (s->limits.max_per_peer > 0 &&
	    http_peer_count(s, addr) >= (size_t)s->limits.max_per_peer) {
		http_refuse(s, fd, peer, "too many connections from your "
		    "address");
		return;
	}
	if (s->nconns >= (size_t)s->limits.max_connections) {
		/* at the cap: make room rather than stop accepting */
		if ((shed = http_shed_pick(s)) == NULL) {
			http_refuse(s, fd, peer, "every connection is busy");
			return;
		}
		if (http_burst(&s->shed_log, &n))
			log_warnx("http: %zu connections, the cap: closing %s "
			    "(%s; %lu closed)", s->nconns, http_shed_what(shed),
			    shed->peer, n);
		http_conn_free(shed);
	}

	c = xcalloc(1, sizeof(*c));
	c->server = s;
	c->req.content_length = -1;
	memcpy(c->addr, addr, sizeof(c->addr));
	memcpy(c->peer, peer, sizeof(c->peer));
	if (s->tls != NULL) {
		SSL	*ssl = SSL_new(s->tls);

		c->tls = 1;
		c->bev = ssl == NULL ? NULL : bufferevent_openssl_socket_new(
		    s->base, fd, ssl, BUFFEREVENT_SSL_ACCEPTING,
		    BEV_OPT_CLOSE_ON_FREE);
		if (c->bev == NULL && ssl != NULL)
			SSL_free(ssl);
	} else {
		c->bev = bufferevent_socket_new(s->base, fd,
		    BEV_OPT_CLOSE_ON_FREE);
		c->rev = event_new(s->base, fd, EV_READ | EV_PERSIST,
		    http_conn_readable, c);
	}
	c->deadline = evtimer_new(s->base, http_conn_deadline, c);
	if (c->bev == NULL || c->deadline == NULL ||
	    (!c->tls && c->rev == NULL)) {
		log_warnx("%s: out of resources", __func__);
		if (c->rev != NULL)
			event_free(c->rev);
		if (c->bev == NULL)
			evutil_closesocket(fd);
		else
			bufferevent_free(c->bev);
		if (c->deadline != NULL)
			event_free(c->deadline);
		free(c);
		return;
	}
	c->next = s->conns;
	if (s->conns != NULL)
		s->conns->prev = c;
	s->conns = c;
	s->nconns++;
	bufferevent_setcb(c->bev, http_conn_read, http_conn_write,
	    http_conn_event, c);
	http_conn_next(c, 1);
}

/* After an accept error, the pause is over: accept again. */
static void
http_server_resume(evutil_socket_t fd, short what, void *arg)
{
	struct http_server	*s = arg;
	size_t			 i;

	if (!s->accepting)
		return;
	for (i = 0; i < s->nlisteners; i++)
		evconnlistener_enable(s->listeners[i].lev);
}

/*
 * An accept failed (out of file descriptors, most likely): the pending
 * connection stays pending, so accepting again at once would fail again
 * at once. Stop for a while, longer each time it goes on failing, and
 * log once per burst.
 */
static void
http_accept_error(struct evconnlistener *lev, void *arg)
{
	struct http_listener	*l = arg;
	struct http_server	*s = l->server;
	struct timeval		 tv;
	unsigned long		 n;
	size_t			 i;
	int			 saved = errno;

	if (s->backoff_ms == 0)
		s->backoff_ms = HTTP_BACKOFF_MIN_MS;
	else if ((s->backoff_ms *= 2) > HTTP_BACKOFF_MAX_MS)
		s->backoff_ms = HTTP_BACKOFF_MAX_MS;
	if (http_burst(&s->accept_log, &n)) {
		errno = saved;
		log_warn("http: accept (%lu failed): pausing for %d ms", n,
		    s->backoff_ms);
	}
	for (i = 0; i < s->nlisteners; i++)
		evconnlistener_disable(s->listeners[i].lev);
	tv.tv_sec = s->backoff_ms / 1000;
	tv.tv_usec = (suseconds_t)(s->backoff_ms % 1000) * 1000;
	evtimer_add(s->resume, &tv);
}

/*
 * Take the limits; max_connections is lowered to what the file limit
 * leaves room for (with a margin for the program's other files, sockets
 * and outbound connections), so accept doesn't run out of descriptors.
 */
static void
http_server_limits(struct http_server *s, const struct http_limits *l)
{
	struct rlimit	rl;
	rlim_t		margin, room;

	s->limits = *l;
	if (getrlimit(RLIMIT_NOFILE, &rl) == -1 ||
	    rl.rlim_cur == RLIM_INFINITY)
		return;
	margin = rl.rlim_cur / 8;
	if (margin < 16)
		margin = 16;
	if (margin > 128)
		margin = 128;
	room = rl.rlim_cur > margin ? rl.rlim_cur - margin : 1;
	if ((rlim_t)l->max_connections <= room)
		return;
	s->limits.max_connections = (int)room;
	log_warnx("http: max_connections %d is more than the file limit "
	    "(%llu) leaves room for: using %d", l->max_connections,
	    (unsigned long long)rl.rlim_cur, s->limits.max_connections);
}

struct http_server *
http_server_new(struct event_base *base, const struct http_limits *limits,
    http_head_cb head_cb, http_request_cb request_cb, void *arg)
{
	struct http_server	*s = xcalloc(1, sizeof(*s));

	s->base = base;
	http_server_limits(s, limits);
	s->head_cb = head_cb;
	s->request_cb = request_cb;
	s->arg = arg;
	s->accepting = 1;
	s->resume = evtimer_new(base, http_server_resume, s);
	if (s->resume == NULL)
		fatalx("%s: evtimer_new", __func__);
	return s;
}

void
http_server_set_limits(struct http_server *s, const struct http_limits *l)
{
	http_server_limits(s, l);
}

static int
http_server_add_listener(struct http_server *s, evutil_socket_t fd,
    char **cause)
{
	struct http_listener	*l;
	struct evconnlistener	*lev;
	size_t			 i;

	s->listeners = xreallocarray(s->listeners, s->nlisteners + 1,
	    sizeof(*s->listeners));
	/* listeners point at their slot: fix the ones realloc moved */
	for (i = 0; i < s->nlisteners; i++)
		evconnlistener_set_cb(s->listeners[i].lev, http_accept,
		    &s->listeners[i]);
	l = &s->listeners[s->nlisteners];
	l->server = s;
	lev = evconnlistener_new(s->base, http_accept, l,
	    LEV_OPT_CLOSE_ON_FREE | LEV_OPT_REUSEABLE, -1, fd);
	if (lev == NULL) {
		xasprintf(cause, "cannot listen: %s", strerror(errno));
		evutil_closesocket(fd);
		return -1;
	}
	evconnlistener_set_error_cb(lev, http_accept_error);
	l->lev = lev;
	s->nlisteners++;
	return 0;
}

int
http_server_listen(struct http_server *s, const char *addr, char **cause)
{
	struct sockaddr_storage	 ss;
	int			 sslen = sizeof(ss), fd, one = 1;
	char			 shown[96];
	const char		*why;

	memset(&ss, 0, sizeof(ss));
	if (http_parse_addr(addr, &ss, &sslen, &why) == -1) {
		xasprintf(cause, "listen: '%s' is not an address:port: %s",
		    addr, why);
		return -1;
	}
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd == -1) {
		xasprintf(cause, "listen: %s: socket: %s", addr, strerror(errno));
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (ss.ss_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&ss, (socklen_t)sslen) == -1 ||
	    listen(fd, 511) == -1) {
		xasprintf(cause, "listen: %s: %s", addr, strerror(errno));
		close(fd);
		return -1;
	}
	http_sockname(fd, shown, sizeof(shown));
	if (http_server_add_listener(s, fd, cause) == -1)
		return -1;
	log_notice("listening on %s", shown);
	return 0;
}

int
http_server_address(const struct http_server *s, size_t i, char *out,
    size_t len)
{
	if (i >= s->nlisteners)
		return -1;
	return http_sockname(evconnlistener_get_fd(s->listeners[i].lev), out,
	    len);
}

int
http_server_listen_fd(struct http_server *s, int fd, char **cause)
{
	evutil_make_socket_nonblocking(fd);
	evutil_make_socket_closeonexec(fd);
	if (http_server_add_listener(s, fd, cause) == -1)
		return -1;
	log_notice("listening on inherited socket %d", fd);
	return 0;
}

void
http_server_set_tls(struct http_server *s, SSL_CTX *ctx)
{
	if (ctx != NULL)
		SSL_CTX_up_ref(ctx);
	if (s->tls != NULL)
		SSL_CTX_free(s->tls);
	s->tls = ctx;
}

void
http_server_stop_accepting(struct http_server *s)
{
	struct http_conn	*c, *next;
	size_t			 i;

	s->accepting = 0;
	evtimer_del(s->resume);
	for (i = 0; i < s->nlisteners; i++)
		evconnlistener_free(s->listeners[i].lev);
	free(s->listeners);
	s->listeners = NULL;
	s->nlisteners = 0;
	/* idle connections go now; busy ones close after their reply */
	for (c = s->conns; c != NULL; c = next) {
		next = c->next;
		if (c->state == CONN_HEAD && !c->have_request &&
		    evbuffer_get_length(bufferevent_get_input(c->bev)) == 0)
			http_conn_free(c);
		else
			c->req.keep_alive = 0;
	}
}

size_t
http_server_pending(const struct http_server *s)
{
	return s->pending;
}

size_t
http_server_connections(const struct http_server *s)
{
	return s->nconns;
}

size_t
http_server_buffered(const struct http_server *s)
{
	return s->buffered;
}

size_t
http_server_scanned(const struct http_server *s)
{
	return s->scanned;
}

void
http_server_free(struct http_server *s)
{
	if (s == NULL)
		return;
	if (s->accepting)
		http_server_stop_accepting(s);
	while (s->conns != NULL)
		http_conn_free(s->conns);
	if (s->tls != NULL)
		SSL_CTX_free(s->tls);
	event_free(s->resume);
	free(s);
}
