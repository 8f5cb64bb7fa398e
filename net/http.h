/*
 * A small HTTP/1.1 server on libevent bufferevents: limits before work
 * (head size, body size from Content-Length, a budget of body bytes over
 * all connections, head, idle and request deadlines, a connection cap
 * that sheds idle connections first, a cap per peer address),
 * keep-alive, and replies that may come later than the callback (so a
 * request can be answered once the work it started is done).
 */
#ifndef HOOKCAST_HTTP_H
#define HOOKCAST_HTTP_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

struct buf;
struct event_base;
struct http_conn;
struct http_server;
struct sockaddr;
struct sockaddr_storage;
struct ssl_ctx_st;

struct http_header {
	char	*name;
	char	*value;
};

#define HTTP_MAX_HEADERS	100
/* Statuses counted by http_server_replies: 100 to 599. */
#define HTTP_STATUS_MAX		600

struct http_request {
	char			 method[16];
	char			*target;	/* as sent, with the query */
	char			*path;		/* target without the query */
	int			 minor;		/* HTTP/1.x */
	struct http_header	 headers[HTTP_MAX_HEADERS];
	size_t			 nheaders;
	char			*strings;	/* target, path, headers: one block */
	size_t			 stringslen;
	long long		 content_length; /* -1 when absent */
	int			 keep_alive;
	int			 expect_continue;
	char			*body;		/* NUL-terminated for convenience */
	size_t			 bodylen;
	struct timespec		 started;	/* CLOCK_MONOTONIC */
	struct http_conn	*conn;
};

/*
 * What a connection may take before its request is authenticated. A zero
 * in the fields after max_connections means no such limit (the timeouts:
 * timeout instead).
 */
struct http_limits {
	size_t	max_header;		/* request line + headers */
	size_t	max_body;
	int	timeout;		/* seconds for a whole request */
	int	max_connections;	/* at the cap, idle ones are shed */
	size_t	max_buffered;		/* body bytes over all connections */
	size_t	small_body;		/* bodies this small are always let in */
	int	head_timeout;		/* seconds to send a head (and TLS hello) */
	int	idle_timeout;		/* seconds a kept-alive one may wait */
	int	max_per_peer;		/* connections from one address */
};

/* httphead.c: request heads parsed, reply heads formatted. */

/*
 * Where the search for the end of a head stands: a zeroed struct starts a
 * new head. Fed the bytes as they arrive, it looks at each byte once.
 */
struct http_scan {
	size_t	off;		/* bytes examined */
	size_t	start;		/* offset of the request line */
	int	state;		/* private */
};

/*
 * Examine the next len bytes of a head (those at sc->off on). Returns the
 * head's length (through its blank line; empty lines before the request
 * line count) once its end is seen, else 0. Stops at the end: the bytes
 * after it are not examined.
 */
size_t	 http_scan_feed(struct http_scan *sc, const char *buf, size_t len);

/*
 * Parse a request head (request line and headers, up to and including the
 * blank line) from buf. Returns the number of bytes consumed when complete,
 * 0 when more bytes are needed, or -1 on a bad request with *status (400,
 * 411, 413, 431, 501, 505) and a static *cause. req is filled on success
 * and must be cleared with http_request_clear().
 */
long	 http_parse_head(const char *buf, size_t len, size_t max_header,
	    struct http_request *req, int *status, const char **cause);
void	 http_request_clear(struct http_request *);
/* A header's value (case-insensitive name), or NULL; borrowed. */
const char *http_header(const struct http_request *, const char *name);
/* A status's reason phrase (RFC 9110's), "" when it has none; static. */
const char *http_status_text(int);
/*
 * The status line and header fields of a reply, through the blank line,
 * into b: len < 0 sends no Content-Length, retry_after 0 no Retry-After;
 * extra, or NULL, is more header lines, each ending in CRLF.
 */
void	 http_format_head(struct buf *b, int status, const char *ctype,
	    long long len, int close_after, int retry_after);
void	 http_format_head_extra(struct buf *b, int status, const char *ctype,
	    long long len, int close_after, int retry_after, const char *extra);
/* The server's own error body, {"ok":false,"error":cause}, into b. */
void	 http_format_error(struct buf *b, const char *cause);

/* httpaddr.c: socket addresses as text and back. */

/*
 * "host:port" or "[v6]:port" (port 0 picks one) into ss and *sslen: an
 * IPv4 address or localhost, or an IPv6 address in brackets; names are
 * not looked up. 0, or -1 with a static *cause.
 */
int	 http_parse_addr(const char *addr, struct sockaddr_storage *ss,
	    int *sslen, const char **cause);
/* A bound socket's address as "host:port" or "[v6]:port"; 0 or -1. */
int	 http_sockname(int fd, char *out, size_t outlen);
/* A peer's address into addr, and with its port into peer. */
void	 http_peer_name(const struct sockaddr *sa, char *addr, size_t addrlen,
	    char *peer, size_t peerlen);

/*
 * The client's address behind trusted proxies (ntrusted IP addresses):
 * peer when it is none of them; else, walking X-Forwarded-For (xff, may
 * be NULL) from the right past the trusted ones, the first address that
 * is not trusted (the leftmost when all are). An element that is no IP
 * address stops the walk at the last trusted hop: what lies left of it
 * could have been written by anyone. Into out; 0, or -1 when out is too
 * small (out is then "").
 */
int	 http_client_addr(const char *peer, const char *xff,
	    const char *const *trusted, size_t ntrusted, char *out,
	    size_t outlen);

/* http.c: the server, its connections and replies. */

/*
 * Called when a head is complete, before the body is read. Return 0 to go
 * on reading the body, or reply (http_reply) and return -1 to refuse the
 * request without reading its body: the connection then closes if a body
 * was announced. (Replying yet returning 0 counts as a refusal; returning
 * -1 without a reply sends a 500.)
 */
typedef int (*http_head_cb)(struct http_request *, void *arg);
/* Called with the whole request; must lead to exactly one http_reply. */
typedef void (*http_request_cb)(struct http_request *, void *arg);

struct http_server *http_server_new(struct event_base *,
	    const struct http_limits *, http_head_cb, http_request_cb, void *);
/*
 * Listen on "host:port" (IPv4 or localhost) or "[v6]:port", as
 * hostport_parse reads them; logs the bound address.
 */
int	 http_server_listen(struct http_server *, const char *addr,
	    char **cause);
/* Serve on an inherited listening socket (socket activation). */
int	 http_server_listen_fd(struct http_server *, int fd, char **cause);
/* The i-th listener's address ("host:port", "[v6]:port"); -1 past the last. */
int	 http_server_address(const struct http_server *, size_t i, char *out,
	    size_t len);
/*
 * Serve HTTPS with ctx on connections accepted from now on (a reference
 * is taken; NULL goes back to plain HTTP). Open connections keep theirs.
 */
void	 http_server_set_tls(struct http_server *, struct ssl_ctx_st *ctx);
void	 http_server_set_limits(struct http_server *, const struct http_limits *);
/* Stop accepting; open connections finish their request then close. */
void	 http_server_stop_accepting(struct http_server *);
/* Connections with a request being handled (body read, no reply yet). */
size_t	 http_server_pending(const struct http_server *);
size_t	 http_server_connections(const struct http_server *);
/* Request-body bytes reserved now, over all connections. */
size_t	 http_server_buffered(const struct http_server *);
/*
 * Bytes of request heads examined since the start, over all reads: it
 * grows with what clients send, not with how it is split into reads.
 */
size_t	 http_server_scanned(const struct http_server *);
/*
 * Replies of status sent since the start, the server's own (408, 413,
 * 501, a refused connection's 503) with the callbacks'.
 */
uint64_t http_server_replies(const struct http_server *, int status);
/* The address of the request's peer, without its port; borrowed. */
const char *http_request_peer(const struct http_request *);
void	 http_server_free(struct http_server *);

/*
 * Answer a request; the connection is kept alive or closed as the request
 * allows (close forces it closed), and the reply says which ("Connection:
 * close"). body is copied; NULL with len 0 is an empty body. ctype NULL
 * sends no Content-Type. A reply the server can't send as asked (NULL
 * body with a length, a status that is not 200..999, a control character
 * in ctype) is logged and goes out as a 500 that closes. A HEAD request
 * gets the head only; a 204 or 304 no body. Exactly once per request
 * (a second reply is logged and dropped); after it the request must not
 * be touched. NULL, or a request from no connection, does nothing.
 */
void	 http_reply(struct http_request *, int status, const char *ctype,
	    const char *body, size_t len);
void	 http_reply_close(struct http_request *, int status, const char *ctype,
	    const char *body, size_t len);
/*
 * http_reply with extra header lines (each ending in CRLF, built by the
 * caller), such as a 405's Allow.
 */
void	 http_reply_extra(struct http_request *, int status, const char *ctype,
	    const char *extra, const char *body, size_t len);
/* http_reply of {"ok":false,"error":cause}, the server's own error body. */
void	 http_reply_error(struct http_request *, int status, const char *cause);
/*
 * Answer a request with len bytes of the open file fd from offset as the
 * body, sent from the file (not copied into memory); the reply owns fd
 * (closed once sent, or at once for a HEAD, a 304 or an error). extra,
 * or NULL, is more header lines, each ending in CRLF, put in as they are
 * (the caller builds them). Content-Length is len (for a HEAD too; a 304
 * sends no body). fd may be -1 with len 0 (a 416). Like http_reply
 * otherwise: exactly once per request.
 */
void	 http_reply_file(struct http_request *, int status, const char *ctype,
	    const char *extra, int fd, long long offset, long long len);

#endif
