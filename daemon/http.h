/*
 * A small HTTP/1.1 server on libevent bufferevents: limits before work
 * (head size, body size from Content-Length, one deadline per request,
 * a connection cap), keep-alive, and replies that may come later than
 * the callback (so a delivery can be answered after its journal sync).
 */
#ifndef HOOKCAST_HTTP_H
#define HOOKCAST_HTTP_H

#include <stddef.h>
#include <time.h>

struct event_base;
struct http_conn;
struct http_server;
struct ssl_ctx_st;

struct http_header {
	char	*name;
	char	*value;
};

#define HTTP_MAX_HEADERS	100

struct http_request {
	char			 method[16];
	char			*target;	/* as sent, with the query */
	char			*path;		/* target without the query */
	int			 minor;		/* HTTP/1.x */
	struct http_header	 headers[HTTP_MAX_HEADERS];
	size_t			 nheaders;
	long long		 content_length; /* -1 when absent */
	int			 keep_alive;
	int			 expect_continue;
	char			*body;		/* NUL-terminated for convenience */
	size_t			 bodylen;
	struct timespec		 started;	/* CLOCK_MONOTONIC */
	struct http_conn	*conn;
};

struct http_limits {
	size_t	max_header;		/* request line + headers */
	size_t	max_body;
	int	timeout;		/* seconds for a whole request */
	int	max_connections;
};

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
/* Reason phrase of a status. */
const char *http_status_text(int);

/*
 * Called when a head is complete, before the body is read. Return 0 to go
 * on reading the body, or reply (http_reply) and return -1 to refuse the
 * request without reading its body.
 */
typedef int (*http_head_cb)(struct http_request *, void *arg);
/* Called with the whole request; must lead to exactly one http_reply. */
typedef void (*http_request_cb)(struct http_request *, void *arg);

struct http_server *http_server_new(struct event_base *,
	    const struct http_limits *, http_head_cb, http_request_cb, void *);
/* Listen on "host:port" or "[v6]:port"; logs the bound address. */
int	 http_server_listen(struct http_server *, const char *addr,
	    char **cause);
/* Serve on an inherited listening socket (socket activation). */
int	 http_server_listen_fd(struct http_server *, int fd, char **cause);
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
void	 http_server_free(struct http_server *);

/*
 * Answer a request; the connection is kept alive or closed as the request
 * allows (close forces it closed). body is copied. Exactly once per
 * request; after it the request must not be touched.
 */
void	 http_reply(struct http_request *, int status, const char *ctype,
	    const char *body, size_t len);
void	 http_reply_close(struct http_request *, int status, const char *ctype,
	    const char *body, size_t len);

#endif
