/* Unit tests: daemon/http.c (http_parse_head and friends) */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "http.h"
#include "xmalloc.h"

#define MAX_HEADER	65536

enum want { OK, MORE, BAD };

/* A head with a NUL in it. */
#define LITERAL(s)	.head = (s), .headlen = sizeof(s) - 1

/*
 * A head, optionally followed by bytes of the body (never consumed). For
 * OK the whole head is consumed; the fields are checked when set (method
 * NULL: not checked).
 */
static const struct head_case {
	const char	*name;
	const char	*head;
	size_t		 headlen;	/* 0: strlen(head) */
	const char	*tail;
	size_t		 max;		/* 0: MAX_HEADER */
	enum want	 want;
	int		 status;	/* for BAD */
	const char	*method;
	const char	*target;
	const char	*path;
	int		 minor;
	long long	 cl;
	int		 keep_alive;
	int		 expect;
	size_t		 nheaders;
} cases[] = {
	{ .name = "complete GET",
	  .head = "GET /healthz HTTP/1.1\r\nHost: example.com\r\n"
	      "User-Agent: curl/8\r\n\r\n",
	  .want = OK, .method = "GET", .target = "/healthz",
	  .path = "/healthz", .minor = 1, .cl = -1, .keep_alive = 1,
	  .nheaders = 2 },
	{ .name = "POST with Content-Length, body follows",
	  .head = "POST /webhook HTTP/1.1\r\nHost: hooks.example\r\n"
	      "Content-Type: application/json\r\nContent-Length: 17\r\n"
	      "X-GitHub-Event: push\r\n\r\n",
	  .tail = "{\"zen\":\"hi\"}\r\n\r\n",
	  .want = OK, .method = "POST", .target = "/webhook",
	  .path = "/webhook", .minor = 1, .cl = 17, .keep_alive = 1,
	  .nheaders = 4 },
	{ .name = "no headers at all",
	  .head = "GET / HTTP/1.1\r\n\r\n",
	  .want = OK, .method = "GET", .target = "/", .path = "/",
	  .minor = 1, .cl = -1, .keep_alive = 1 },
	{ .name = "Content-Length 0",
	  .head = "POST /webhook HTTP/1.1\r\nContent-Length: 0\r\n\r\n",
	  .want = OK, .method = "POST", .path = "/webhook", .minor = 1,
	  .cl = 0, .keep_alive = 1, .nheaders = 1 },
	{ .name = "the same Content-Length twice",
	  .head = "POST / HTTP/1.1\r\nContent-Length: 5\r\n"
	      "content-length: 5\r\n\r\n",
	  .want = OK, .method = "POST", .path = "/", .minor = 1, .cl = 5,
	  .keep_alive = 1, .nheaders = 2 },
	{ .name = "query stripped from the path",
	  .head = "GET /webhook?a=1&b=2 HTTP/1.1\r\n\r\n",
	  .want = OK, .method = "GET", .target = "/webhook?a=1&b=2",
	  .path = "/webhook", .minor = 1, .cl = -1, .keep_alive = 1 },
	{ .name = "fragment stripped from the path",
	  .head = "GET /metrics#x HTTP/1.1\r\n\r\n",
	  .want = OK, .method = "GET", .target = "/metrics#x",
	  .path = "/metrics", .minor = 1, .cl = -1, .keep_alive = 1 },
	{ .name = "leading CRLFs skipped",
	  .head = "\r\n\r\n\nGET /healthz HTTP/1.1\r\nHost: a\r\n\r\n",
	  .want = OK, .method = "GET", .path = "/healthz", .minor = 1,
	  .cl = -1, .keep_alive = 1, .nheaders = 1 },
	{ .name = "bare LF line endings",
	  .head = "POST /webhook HTTP/1.1\nHost: a\nContent-Length: 2\n\n",
	  .tail = "{}",
	  .want = OK, .method = "POST", .path = "/webhook", .minor = 1,
	  .cl = 2, .keep_alive = 1, .nheaders = 2 },
	{ .name = "mixed line endings",
	  .head = "GET / HTTP/1.1\r\nHost: a\n\r\n",
	  .want = OK, .method = "GET", .path = "/", .minor = 1, .cl = -1,
	  .keep_alive = 1, .nheaders = 1 },
	{ .name = "other methods are tokens",
	  .head = "M-SEARCH * HTTP/1.1\r\n\r\n",
	  .want = OK, .method = "M-SEARCH", .target = "*", .path = "*",
	  .minor = 1, .cl = -1, .keep_alive = 1 },

	/* keep-alive */
	{ .name = "1.1 keeps alive by default",
	  .head = "GET / HTTP/1.1\r\nHost: a\r\n\r\n",
	  .want = OK, .method = "GET", .minor = 1, .cl = -1, .keep_alive = 1,
	  .nheaders = 1 },
	{ .name = "1.1 Connection: close",
	  .head = "GET / HTTP/1.1\r\nConnection: close\r\n\r\n",
	  .want = OK, .method = "GET", .minor = 1, .cl = -1, .keep_alive = 0,
	  .nheaders = 1 },
	{ .name = "1.1 close among other tokens, any case",
	  .head = "GET / HTTP/1.1\r\nconnection: TE, Close\r\n\r\n",
	  .want = OK, .method = "GET", .minor = 1, .cl = -1, .keep_alive = 0,
	  .nheaders = 1 },
	{ .name = "1.1 a token that only starts with close",
	  .head = "GET / HTTP/1.1\r\nConnection: closed\r\n\r\n",
	  .want = OK, .method = "GET", .minor = 1, .cl = -1, .keep_alive = 1,
	  .nheaders = 1 },
	{ .name = "1.0 closes by default",
	  .head = "GET / HTTP/1.0\r\nHost: a\r\n\r\n",
	  .want = OK, .method = "GET", .minor = 0, .cl = -1, .keep_alive = 0,
	  .nheaders = 1 },
	{ .name = "1.0 Connection: keep-alive",
	  .head = "GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n",
	  .want = OK, .method = "GET", .minor = 0, .cl = -1, .keep_alive = 1,
	  .nheaders = 1 },

	/* Expect */
	{ .name = "Expect: 100-continue",
	  .head = "POST /webhook HTTP/1.1\r\nContent-Length: 10\r\n"
	      "Expect: 100-continue\r\n\r\n",
	  .want = OK, .method = "POST", .minor = 1, .cl = 10,
	  .keep_alive = 1, .expect = 1, .nheaders = 2 },
	{ .name = "Expect, any case",
	  .head = "POST /webhook HTTP/1.1\r\nContent-Length: 10\r\n"
	      "expect: 100-Continue\r\n\r\n",
	  .want = OK, .method = "POST", .minor = 1, .cl = 10,
	  .keep_alive = 1, .expect = 1, .nheaders = 2 },
	{ .name = "Expect ignored from 1.0",
	  .head = "POST /webhook HTTP/1.0\r\nContent-Length: 10\r\n"
	      "Expect: 100-continue\r\n\r\n",
	  .want = OK, .method = "POST", .minor = 0, .cl = 10,
	  .keep_alive = 0, .expect = 0, .nheaders = 2 },
	{ .name = "Expect of something else",
	  .head = "POST /webhook HTTP/1.1\r\nContent-Length: 10\r\n"
	      "Expect: 200-ok\r\n\r\n",
	  .want = OK, .method = "POST", .minor = 1, .cl = 10,
	  .keep_alive = 1, .expect = 0, .nheaders = 2 },

	/* more bytes needed */
	{ .name = "nothing yet", .head = "", .want = MORE },
	{ .name = "only CRLFs", .head = "\r\n\r\n", .want = MORE },
	{ .name = "request line only", .head = "GET / HTTP/1.1\r\n",
	  .want = MORE },
	{ .name = "no blank line",
	  .head = "GET / HTTP/1.1\r\nHost: a\r\n", .want = MORE },
	{ .name = "blank line half there",
	  .head = "GET / HTTP/1.1\r\nHost: a\r\n\r", .want = MORE },
	{ .name = "a partial request line",
	  .head = "POST /web", .want = MORE },

	/* size */
	{ .name = "complete but over max_header",
	  .head = "GET / HTTP/1.1\r\nX-Pad: 0123456789012345678901234567"
	      "89\r\n\r\n", .max = 40, .want = BAD, .status = 431 },
	{ .name = "at max_header exactly",
	  .head = "GET / HTTP/1.1\r\nX-Pad: 01234\r\n\r\n", .max = 32,
	  .want = OK, .method = "GET", .minor = 1, .cl = -1,
	  .keep_alive = 1, .nheaders = 1 },
	{ .name = "incomplete and over max_header",
	  .head = "GET / HTTP/1.1\r\nX-Pad: 0123456789012345678901234567"
	      "89\r\n", .max = 40, .want = BAD, .status = 431 },

	/* request line */
	{ .name = "no version", .head = "GET /\r\n\r\n", .want = BAD,
	  .status = 400 },
	{ .name = "lowercase garbage", .head = "hello there\r\n\r\n",
	  .want = BAD, .status = 400 },
	{ .name = "one word", .head = "hello\r\n\r\n", .want = BAD,
	  .status = 400 },
	{ .name = "control char in target",
	  .head = "GET /a\x01z HTTP/1.1\r\n\r\n", .want = BAD, .status = 400 },
	{ .name = "DEL in target",
	  .head = "GET /a\x7fz HTTP/1.1\r\n\r\n", .want = BAD, .status = 400 },
	{ .name = "tab in target",
	  .head = "GET /a\tz HTTP/1.1\r\n\r\n", .want = BAD, .status = 400 },
	{ .name = "NUL in target",
	  LITERAL("GET /a\0z HTTP/1.1\r\n\r\n"), .want = BAD,
	  .status = 400 },
	{ .name = "two spaces", .head = "GET  / HTTP/1.1\r\n\r\n",
	  .want = BAD, .status = 400 },
	{ .name = "leading space", .head = " GET / HTTP/1.1\r\n\r\n",
	  .want = BAD, .status = 400 },
	{ .name = "non-token method", .head = "G(T / HTTP/1.1\r\n\r\n",
	  .want = BAD, .status = 400 },
	{ .name = "method too long",
	  .head = "ABCDEFGHIJKLMNOP / HTTP/1.1\r\n\r\n", .want = BAD,
	  .status = 400 },
	{ .name = "not HTTP", .head = "GET / FTP/1.1\r\n\r\n", .want = BAD,
	  .status = 400 },
	{ .name = "lowercase http", .head = "GET / http/1.1\r\n\r\n",
	  .want = BAD, .status = 400 },
	{ .name = "HTTP/2.0", .head = "GET / HTTP/2.0\r\n\r\n", .want = BAD,
	  .status = 505 },
	{ .name = "HTTP/1.2", .head = "GET / HTTP/1.2\r\n\r\n", .want = BAD,
	  .status = 505 },
	{ .name = "HTTP/0.9", .head = "GET / HTTP/0.9\r\n\r\n", .want = BAD,
	  .status = 505 },
	{ .name = "text after the version",
	  .head = "GET / HTTP/1.1 x\r\n\r\n", .want = BAD, .status = 400 },
	{ .name = "version without digits",
	  .head = "GET / HTTP/x.y\r\n\r\n", .want = BAD, .status = 400 },

	/* header fields */
	{ .name = "Transfer-Encoding",
	  .head = "POST /webhook HTTP/1.1\r\nTransfer-Encoding: chunked\r\n"
	      "\r\n", .want = BAD, .status = 501 },
	{ .name = "transfer-encoding with Content-Length",
	  .head = "POST /webhook HTTP/1.1\r\nContent-Length: 3\r\n"
	      "transfer-encoding: identity\r\n\r\n", .want = BAD,
	  .status = 501 },
	{ .name = "two different Content-Length",
	  .head = "POST / HTTP/1.1\r\nContent-Length: 5\r\n"
	      "Content-Length: 6\r\n\r\n", .want = BAD, .status = 400 },
	{ .name = "Content-Length a word",
	  .head = "POST / HTTP/1.1\r\nContent-Length: ten\r\n\r\n",
	  .want = BAD, .status = 400 },
	{ .name = "Content-Length negative",
	  .head = "POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
	  .want = BAD, .status = 400 },
	{ .name = "Content-Length with a sign",
	  .head = "POST / HTTP/1.1\r\nContent-Length: +5\r\n\r\n",
	  .want = BAD, .status = 400 },
	{ .name = "Content-Length a list",
	  .head = "POST / HTTP/1.1\r\nContent-Length: 5, 5\r\n\r\n",
	  .want = BAD, .status = 400 },
	{ .name = "Content-Length empty",
	  .head = "POST / HTTP/1.1\r\nContent-Length:\r\n\r\n",
	  .want = BAD, .status = 400 },
	{ .name = "Content-Length 19 digits",
	  .head = "POST / HTTP/1.1\r\nContent-Length: 1000000000000000000"
	      "\r\n\r\n", .want = BAD, .status = 400 },
	{ .name = "folded header line",
	  .head = "GET / HTTP/1.1\r\nX-A: one\r\n two\r\n\r\n", .want = BAD,
	  .status = 400 },
	{ .name = "folded with a tab",
	  .head = "GET / HTTP/1.1\r\nX-A: one\r\n\ttwo\r\n\r\n", .want = BAD,
	  .status = 400 },
	{ .name = "header without colon",
	  .head = "GET / HTTP/1.1\r\nNoColonHere\r\n\r\n", .want = BAD,
	  .status = 400 },
	{ .name = "empty header name",
	  .head = "GET / HTTP/1.1\r\n: value\r\n\r\n", .want = BAD,
	  .status = 400 },
	{ .name = "space before the colon",
	  .head = "GET / HTTP/1.1\r\nHost : a\r\n\r\n", .want = BAD,
	  .status = 400 },
	{ .name = "space in a header name",
	  .head = "GET / HTTP/1.1\r\nX Y: a\r\n\r\n", .want = BAD,
	  .status = 400 },
	{ .name = "bare CR in a value",
	  .head = "GET / HTTP/1.1\r\nX-A: a\rb\r\n\r\n", .want = BAD,
	  .status = 400 },
	{ .name = "NUL in a value",
	  LITERAL("GET / HTTP/1.1\r\nX-A: a\0b\r\n\r\n"),
	  .want = BAD, .status = 400 },
};

/* Does a string field hold want (when want is set)? */
static int
same(const char *got, const char *want)
{
	return want == NULL || (got != NULL && strcmp(got, want) == 0);
}

/*
 * Parse one case; 0 when it goes as the table says, else -1 with the
 * difference printed. Everything is freed either way.
 */
static int
check_case(const struct head_case *c)
{
	struct http_request	 req;
	char			*buf;
	size_t			 headlen, taillen, len, max;
	long			 rv;
	int			 status = -7, ok = 1;
	const char		*cause = NULL;

	headlen = c->headlen ? c->headlen : strlen(c->head);
	taillen = c->tail != NULL ? strlen(c->tail) : 0;
	len = headlen + taillen;
	/* an exact-size copy so ASan sees any read past the end */
	buf = xmalloc(len > 0 ? len : 1);
	memcpy(buf, c->head, headlen);
	if (taillen > 0)
		memcpy(buf + headlen, c->tail, taillen);
	max = c->max ? c->max : MAX_HEADER;

	rv = http_parse_head(buf, len, max, &req, &status, &cause);
	switch (c->want) {
	case MORE:
		if (rv != 0) {
			print_message("%s: %ld (status %d), want 0\n", c->name,
			    rv, status);
			ok = 0;
		}
		break;
	case BAD:
		if (rv != -1 || status != c->status) {
			print_message("%s: %ld, status %d, want -1 and %d\n",
			    c->name, rv, status, c->status);
			ok = 0;
		} else if (cause == NULL || *cause == '\0' ||
		    req.target != NULL || req.path != NULL ||
		    req.nheaders != 0) {
			/* a cause, and nothing left allocated */
			print_message("%s: no cause, or fields left set\n",
			    c->name);
			ok = 0;
		}
		break;
	case OK:
		if (rv != (long)headlen) {
			print_message("%s: %ld (status %d, %s), want %zu\n",
			    c->name, rv, status, cause ? cause : "", headlen);
			ok = 0;
			break;
		}
		if ((c->method != NULL && strcmp(req.method, c->method) != 0) ||
		    !same(req.target, c->target) || !same(req.path, c->path) ||
		    req.minor != c->minor || req.content_length != c->cl ||
		    req.keep_alive != c->keep_alive ||
		    req.expect_continue != c->expect ||
		    req.nheaders != c->nheaders || req.body != NULL) {
			print_message("%s: got method \"%s\" target \"%s\" "
			    "path \"%s\" minor %d content_length %lld "
			    "keep_alive %d expect_continue %d, %zu header(s)\n",
			    c->name, req.method, req.target ? req.target : "",
			    req.path ? req.path : "", req.minor,
			    req.content_length, req.keep_alive,
			    req.expect_continue, req.nheaders);
			ok = 0;
		}
		break;
	}
	http_request_clear(&req);
	free(buf);
	return ok ? 0 : -1;
}

static void
test_http_heads(void **state)
{
	size_t	i, bad = 0;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (check_case(&cases[i]) == -1)
			bad++;
	if (bad > 0)
		fail_msg("%zu of %zu head(s) parsed wrong", bad,
		    sizeof(cases) / sizeof(cases[0]));
}

/* A complete head, fed one byte more at a time, is only done at its end. */
static void
test_http_byte_by_byte(void **state)
{
	static const char	 head[] = "\r\nPOST /webhook?x HTTP/1.1\r\n"
	    "Host: a\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n";
	struct http_request	 req;
	size_t			 len, n = sizeof(head) - 1;
	int			 status;
	const char		*cause;
	char			*buf;
	long			 rv;

	for (len = 0; len <= n; len++) {
		buf = xmalloc(len > 0 ? len : 1);
		memcpy(buf, head, len);
		rv = http_parse_head(buf, len, MAX_HEADER, &req, &status,
		    &cause);
		if (len < n && rv != 0)
			fail_msg("%zu of %zu bytes: %ld", len, n, rv);
		if (len == n) {
			assert_int_equal(rv, (long)n);
			assert_string_equal(req.path, "/webhook");
			assert_int_equal(req.content_length, 2);
			assert_true(req.expect_continue);
		}
		http_request_clear(&req);
		free(buf);
	}
}

static char *
head_with_headers(size_t nheaders, size_t *len)
{
	size_t	 i, used, cap = 64 + nheaders * 32;
	char	*buf = xmalloc(cap);

	used = (size_t)snprintf(buf, cap, "GET / HTTP/1.1\r\n");
	for (i = 0; i < nheaders; i++)
		used += (size_t)snprintf(buf + used, cap - used,
		    "X-Header-%zu: value %zu\r\n", i, i);
	used += (size_t)snprintf(buf + used, cap - used, "\r\n");
	*len = used;
	return buf;
}

static void
test_http_header_count(void **state)
{
	struct http_request	 req;
	int			 status = 0;
	const char		*cause = NULL;
	char			*buf;
	size_t			 len;
	long			 rv;

	buf = head_with_headers(HTTP_MAX_HEADERS, &len);
	rv = http_parse_head(buf, len, MAX_HEADER, &req, &status, &cause);
	assert_int_equal(rv, (long)len);
	assert_int_equal(req.nheaders, HTTP_MAX_HEADERS);
	assert_string_equal(http_header(&req, "x-header-99"), "value 99");
	http_request_clear(&req);
	free(buf);

	buf = head_with_headers(HTTP_MAX_HEADERS + 1, &len);
	rv = http_parse_head(buf, len, MAX_HEADER, &req, &status, &cause);
	assert_int_equal(rv, -1);
	assert_int_equal(status, 431);
	assert_int_equal(req.nheaders, 0);
	free(buf);
}

/* A head that never ends is refused once it passes max_header. */
static void
test_http_endless_head(void **state)
{
	struct http_request	 req;
	int			 status = 0;
	const char		*cause = NULL;
	char			*buf;
	size_t			 len = 70000;
	long			 rv;

	buf = xmalloc(len);
	memcpy(buf, "GET / HTTP/1.1\r\nX-Long: ", 24);
	memset(buf + 24, 'a', len - 24);
	rv = http_parse_head(buf, MAX_HEADER, MAX_HEADER, &req, &status,
	    &cause);
	assert_int_equal(rv, 0);
	http_request_clear(&req);
	rv = http_parse_head(buf, MAX_HEADER + 1, MAX_HEADER, &req, &status,
	    &cause);
	assert_int_equal(rv, -1);
	assert_int_equal(status, 431);
	assert_non_null(cause);

	/* as many CRLFs as max_header allows are no request either */
	memset(buf, '\n', len);
	rv = http_parse_head(buf, len, MAX_HEADER, &req, &status, &cause);
	assert_int_equal(rv, -1);
	assert_int_equal(status, 431);
	free(buf);
}

static void
test_http_header_lookup(void **state)
{
	static const char	 head[] = "POST /webhook HTTP/1.1\r\n"
	    "X-GitHub-Event: pull_request\r\n"
	    "X-Hub-Signature-256:sha256=abc\r\n"
	    "X-Empty:\r\n"
	    "X-Spaces: \t padded value \t \r\n"
	    "X-Dup: first\r\n"
	    "x-dup: second\r\n"
	    "Content-Length: 0\r\n\r\n";
	struct http_request	 req;
	int			 status;
	const char		*cause;
	long			 rv;

	rv = http_parse_head(head, sizeof(head) - 1, MAX_HEADER, &req,
	    &status, &cause);
	assert_int_equal(rv, (long)(sizeof(head) - 1));
	assert_string_equal(http_header(&req, "X-GitHub-Event"),
	    "pull_request");
	assert_string_equal(http_header(&req, "x-github-event"),
	    "pull_request");
	assert_string_equal(http_header(&req, "X-GITHUB-EVENT"),
	    "pull_request");
	assert_string_equal(http_header(&req, "x-hub-signature-256"),
	    "sha256=abc");
	assert_string_equal(http_header(&req, "X-Empty"), "");
	assert_string_equal(http_header(&req, "x-spaces"), "padded value");
	/* the first of two */
	assert_string_equal(http_header(&req, "X-DUP"), "first");
	assert_null(http_header(&req, "X-GitHub-Delivery"));
	assert_null(http_header(&req, "X-GitHub"));
	/* names are kept as sent */
	assert_string_equal(req.headers[0].name, "X-GitHub-Event");
	http_request_clear(&req);
	/* cleared: no headers, nothing to find */
	assert_int_equal(req.nheaders, 0);
	assert_null(http_header(&req, "X-GitHub-Event"));
	assert_int_equal(req.content_length, -1);
	/* clearing twice is harmless */
	http_request_clear(&req);
}

static void
test_http_status_text(void **state)
{
	static const struct {
		int		 status;
		const char	*text;
	} texts[] = {
		{ 200, "OK" }, { 400, "Bad Request" },
		{ 413, "Content Too Large" },
		{ 431, "Request Header Fields Too Large" },
		{ 501, "Not Implemented" },
		{ 505, "HTTP Version Not Supported" }, { 299, "Unknown" },
	};
	size_t	i;

	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		assert_string_equal(http_status_text(texts[i].status),
		    texts[i].text);
}

/*
 * NUL is no token character (RFC 9110 5.6.2): not in a method, not in a
 * header name, where it would cut the name short ("Content-Length\0x").
 */
static void
test_http_nul_in_tokens(void **state)
{
	static const struct head_case nul_cases[] = {
		{ .name = "NUL first in the method",
		  LITERAL("\0ET / HTTP/1.0\r\n\r\n"), .want = BAD,
		  .status = 400 },
		{ .name = "NUL inside the method",
		  LITERAL("PO\0ST /webhook HTTP/1.1\r\n\r\n"), .want = BAD,
		  .status = 400 },
		{ .name = "NUL in a header name",
		  LITERAL("POST /webhook HTTP/1.1\r\nContent-Length\0x: 5\r\n"
		      "\r\n"), .want = BAD, .status = 400 },
	};
	size_t	i, bad = 0;

	for (i = 0; i < sizeof(nul_cases) / sizeof(nul_cases[0]); i++)
		if (check_case(&nul_cases[i]) == -1)
			bad++;
	if (bad > 0)
		fail_msg("%zu head(s) with a NUL in a token accepted", bad);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_http_heads),
		cmocka_unit_test(test_http_byte_by_byte),
		cmocka_unit_test(test_http_header_count),
		cmocka_unit_test(test_http_endless_head),
		cmocka_unit_test(test_http_header_lookup),
		cmocka_unit_test(test_http_nul_in_tokens),
		cmocka_unit_test(test_http_status_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
