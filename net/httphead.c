/* HTTP/1.1 message heads: a request's parsed, a reply's formatted. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "http.h"
#include "xmalloc.h"

/*
 * Every status RFC 9110 defines, with 429 and 431 of RFC 6585, and its
 * reason phrase, in order: a status used anywhere in the program has its
 * phrase without a case to remember to add (test_http walks the statuses
 * the sources send).
 */
static const struct {
	int		 status;
	const char	*text;
} http_statuses[] = {
	{ 100, "Continue" },
	{ 101, "Switching Protocols" },
	{ 200, "OK" },
	{ 201, "Created" },
	{ 202, "Accepted" },
	{ 203, "Non-Authoritative Information" },
	{ 204, "No Content" },
	{ 205, "Reset Content" },
	{ 206, "Partial Content" },
	{ 300, "Multiple Choices" },
	{ 301, "Moved Permanently" },
	{ 302, "Found" },
	{ 303, "See Other" },
	{ 304, "Not Modified" },
	{ 305, "Use Proxy" },
	{ 307, "Temporary Redirect" },
	{ 308, "Permanent Redirect" },
	{ 400, "Bad Request" },
	{ 401, "Unauthorized" },
	{ 402, "Payment Required" },
	{ 403, "Forbidden" },
	{ 404, "Not Found" },
	{ 405, "Method Not Allowed" },
	{ 406, "Not Acceptable" },
	{ 407, "Proxy Authentication Required" },
	{ 408, "Request Timeout" },
	{ 409, "Conflict" },
	{ 410, "Gone" },
	{ 411, "Length Required" },
	{ 412, "Precondition Failed" },
	{ 413, "Content Too Large" },
	{ 414, "URI Too Long" },
	{ 415, "Unsupported Media Type" },
	{ 416, "Range Not Satisfiable" },
	{ 417, "Expectation Failed" },
	{ 421, "Misdirected Request" },
	{ 422, "Unprocessable Content" },
	{ 426, "Upgrade Required" },
	{ 428, "Precondition Required" },
	{ 429, "Too Many Requests" },
	{ 431, "Request Header Fields Too Large" },
	{ 500, "Internal Server Error" },
	{ 501, "Not Implemented" },
	{ 502, "Bad Gateway" },
	{ 503, "Service Unavailable" },
	{ 504, "Gateway Timeout" },
	{ 505, "HTTP Version Not Supported" },
};

/*
 * The reason phrase is a courtesy (RFC 9112 4: clients ignore it); a
 * status with none is sent with an empty one, which the grammar allows,
 * rather than with a made-up word.
 */
const char *
http_status_text(int status)
{
	size_t	lo = 0, hi = sizeof(http_statuses) / sizeof(http_statuses[0]);
	size_t	mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (http_statuses[mid].status == status)
			return http_statuses[mid].text;
		if (http_statuses[mid].status < status)
			lo = mid + 1;
		else
			hi = mid;
	}
	return "";
}

void
http_request_clear(struct http_request *req)
{
	free(req->strings);
	free(req->body);
	memset(req, 0, sizeof(*req));
	req->content_length = -1;
}

const char *
http_header(const struct http_request *req, const char *name)
{
	size_t	i;
	int	first = name[0] | 0x20;

	/* most names differ in their first letter: no call for those */
	for (i = 0; i < req->nheaders; i++)
		if ((req->headers[i].name[0] | 0x20) == first &&
		    strcasecmp(req->headers[i].name, name) == 0)
			return req->headers[i].value;
	return NULL;
}

/* RFC 9110 token characters. */
static int
http_is_tchar(unsigned char c)
{
	/* strchr finds the terminator: NUL is no token character */
	return c != '\0' && (isalnum(c) ||
	    strchr("!#$%&'*+-.^_`|~", c) != NULL);
}

/* Does a comma-separated header value hold token (case-insensitive)? */
static int
http_value_has(const char *value, const char *token)
{
	size_t		 n = strlen(token);
	const char	*p = value;

	while (*p != '\0') {
		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		if (strncasecmp(p, token, n) == 0 &&
		    (p[n] == '\0' || p[n] == ',' || p[n] == ' ' || p[n] == '\t'))
			return 1;
		while (*p != '\0' && *p != ',')
			p++;
	}
	return 0;
}

/* Where http_scan_feed stands; a zeroed struct is SCAN_LEAD. */
enum scan_state {
	SCAN_LEAD,		/* empty lines before the request line */
	SCAN_LINE,		/* inside a line */
	SCAN_LF,		/* just after a '\n' */
	SCAN_LFCR,		/* just after "\n\r" */
	SCAN_DONE,		/* the blank line was seen */
};

/* n bytes of s and a NUL into the request's block of strings. */
static char *
http_keep(struct http_request *req, const char *s, size_t n)
{
	char	*p = req->strings + req->stringslen;

	memcpy(p, s, n);
	p[n] = '\0';
	req->stringslen += n + 1;
	return p;
}

/*
 * A head ends at the first "\n\n" or "\n\r\n" after the request line
 * begins; CRs and LFs before it are skipped (RFC 9112 2.2). The state
 * carries a line end split across two reads.
 */
size_t
http_scan_feed(struct http_scan *sc, const char *buf, size_t len)
{
	const char	*nl;
	size_t		 i = 0;

	if (sc->state == SCAN_DONE)
		return sc->off;
	while (i < len) {
		switch (sc->state) {
		case SCAN_LEAD:
			if (buf[i] != '\r' && buf[i] != '\n') {
				sc->start = sc->off + i;
				sc->state = SCAN_LINE;
			}
			break;
		case SCAN_LINE:
			nl = memchr(buf + i, '\n', len - i);
			if (nl == NULL) {
				i = len;
				continue;
			}
			i = (size_t)(nl - buf);
			sc->state = SCAN_LF;
			break;
		case SCAN_LF:
		case SCAN_LFCR:
			if (buf[i] == '\n') {
				sc->off += i + 1;
				sc->state = SCAN_DONE;
				return sc->off;
			}
			sc->state = sc->state == SCAN_LF && buf[i] == '\r' ?
			    SCAN_LFCR : SCAN_LINE;
			break;
		default:
			return sc->off;
		}
		i++;
	}
	sc->off += len;
	return 0;
}

/* Fail a parse with code and a static why: -1. */
static int
http_fail(int *status, const char **cause, int code, const char *why)
{
	*status = code;
	*cause = why;
	return -1;
}

/* The length of the line from p to the '\n' at eol, less a CR before it. */
static size_t
http_line_len(const char *p, const char *eol)
{
	size_t	len = (size_t)(eol - p);

	if (len > 0 && p[len - 1] == '\r')
		len--;
	return len;
}

/*
 * The request line "METHOD SP target SP HTTP/1.x" of len bytes at line
 * into req: the method, the version, and the target and its path in the
 * block of strings, allocated here for a head of headlen bytes.
 */
static int
http_parse_request_line(struct http_request *req, const char *line,
    size_t len, size_t headlen, int *status, const char **cause)
{
	const char	*sp1, *sp2, *v;
	size_t		 i;

	sp1 = memchr(line, ' ', len);
	if (sp1 == NULL || sp1 == line || (size_t)(sp1 - line) >=
	    sizeof(req->method))
		goto bad;
	for (i = 0; i < (size_t)(sp1 - line); i++)
		if (!http_is_tchar((unsigned char)line[i]))
			goto bad;
	sp2 = memchr(sp1 + 1, ' ', len - (size_t)(sp1 + 1 - line));
	if (sp2 == NULL || sp2 == sp1 + 1)
		goto bad;
	for (v = sp1 + 1; v < sp2; v++)
		if ((unsigned char)*v <= 0x20 || *v == 0x7f)
			goto bad;
	/* the version is HTTP/d.d and nothing after it */
	if ((size_t)(line + len - (sp2 + 1)) != 8 ||
	    strncmp(sp2 + 1, "HTTP/", 5) != 0 || !isdigit((unsigned char)sp2[6]) ||
	    sp2[7] != '.' || !isdigit((unsigned char)sp2[8]))
		goto bad;
	if (sp2[6] != '1' || (sp2[8] != '0' && sp2[8] != '1'))
		return http_fail(status, cause, 505,
		    "only HTTP/1.0 and HTTP/1.1 are served");
	memcpy(req->method, line, (size_t)(sp1 - line));
	req->method[sp1 - line] = '\0';
	/*
	 * The strings of the request in one block, not an allocation each:
	 * the target twice (with and without its query) and each header's
	 * name and value take at most twice the head, with their NULs.
	 */
	req->strings = xmalloc(2 * headlen + 2);
	req->target = http_keep(req, sp1 + 1, (size_t)(sp2 - sp1 - 1));
	req->path = http_keep(req, req->target, strcspn(req->target, "?#"));
	req->minor = sp2[8] - '0';
	return 0;

bad:
	return http_fail(status, cause, 400, "malformed request line");
}

/*
 * The header fields from p to the head's end (its blank line included)
 * into req->headers, name and value kept in the block of strings.
 */
static int
http_parse_fields(struct http_request *req, const char *p, const char *end,
    int *status, const char **cause)
{
	const char	*eol, *colon, *v, *ve, *c;
	size_t		 len;

	while (p < end) {
		eol = memchr(p, '\n', (size_t)(end - p));
		if ((len = http_line_len(p, eol)) == 0)
			break;
		/* obsolete line folding: refused (RFC 9112 5.2) */
		if (*p == ' ' || *p == '\t')
			return http_fail(status, cause, 400,
			    "folded header line");
		colon = memchr(p, ':', len);
		if (colon == NULL || colon == p)
			goto bad;
		for (v = p; v < colon; v++)
			if (!http_is_tchar((unsigned char)*v))
				goto bad;
		v = colon + 1;
		ve = p + len;
		while (v < ve && (*v == ' ' || *v == '\t'))
			v++;
		while (ve > v && (ve[-1] == ' ' || ve[-1] == '\t'))
			ve--;
		for (c = v; c < ve; c++)
			if (*c == '\0' || *c == '\r' || *c == '\n')
				goto bad;
		if (req->nheaders == HTTP_MAX_HEADERS)
			return http_fail(status, cause, 431,
			    "too many header fields");
		req->headers[req->nheaders].name = http_keep(req, p,
		    (size_t)(colon - p));
		req->headers[req->nheaders].value = http_keep(req, v,
		    (size_t)(ve - v));
		req->nheaders++;
		p = eol + 1;
	}
	return 0;

bad:
	return http_fail(status, cause, 400, "malformed header field");
}

/*
 * How the body is framed: by Content-Length only (no chunked uploads),
 * into req->content_length, -1 when there is none.
 */
static int
http_parse_framing(struct http_request *req, int *status, const char **cause)
{
	const char	*cl = NULL;
	size_t		 i;

	if (http_header(req, "Transfer-Encoding") != NULL)
		return http_fail(status, cause, 501,
		    "Transfer-Encoding is not supported; send Content-Length");
	for (i = 0; i < req->nheaders; i++) {
		if (strcasecmp(req->headers[i].name, "Content-Length") != 0)
			continue;
		if (cl != NULL && strcmp(cl, req->headers[i].value) != 0)
			return http_fail(status, cause, 400,
			    "conflicting Content-Length");
		cl = req->headers[i].value;
	}
	if (cl == NULL)
		return 0;
	if (*cl == '\0' || strspn(cl, "0123456789") != strlen(cl) ||
	    strlen(cl) > 18)
		return http_fail(status, cause, 400, "bad Content-Length");
	/* at most 18 digits: no overflow */
	req->content_length = strtoll(cl, NULL, 10);
	return 0;
}

/* Keep-alive and 100-continue, as the version and the fields ask. */
static void
http_parse_connection(struct http_request *req)
{
	const char	*conn, *expect;

	conn = http_header(req, "Connection");
	if (req->minor == 1)
		req->keep_alive = conn == NULL || !http_value_has(conn, "close");
	else
		req->keep_alive = conn != NULL &&
		    http_value_has(conn, "keep-alive");
	expect = http_header(req, "Expect");
	req->expect_continue = expect != NULL && req->minor == 1 &&
	    strcasecmp(expect, "100-continue") == 0;
}

long
http_parse_head(const char *buf, size_t len, size_t max_header,
    struct http_request *req, int *status, const char **cause)
{
	struct http_scan sc;
	const char	*line, *eol;
	size_t		 end;

	memset(req, 0, sizeof(*req));
	req->content_length = -1;
	memset(&sc, 0, sizeof(sc));
	end = http_scan_feed(&sc, buf, len);
	if (end == 0 && len <= max_header)
		return 0;
	if (end == 0 || end > max_header)
		return http_fail(status, cause, 431, "request head too large");
	/* RFC 9112: empty lines before the request line are ignored */
	line = buf + sc.start;
	eol = memchr(line, '\n', end - sc.start);
	if (http_parse_request_line(req, line, http_line_len(line, eol), end,
	    status, cause) == -1 ||
	    http_parse_fields(req, eol + 1, buf + end, status, cause) == -1 ||
	    http_parse_framing(req, status, cause) == -1) {
		http_request_clear(req);
		return -1;
	}
	http_parse_connection(req);
	return (long)end;
}

/*
 * The status line and header fields of a reply, into b. Every reply head
 * is built here, in a growable buffer, so no length is ever taken from a
 * format that was cut short. len < 0: no Content-Length.
 */
void
http_format_head(struct buf *b, int status, const char *ctype,
    long long len, int close_after, int retry_after)
{
	http_format_head_extra(b, status, ctype, len, close_after,
	    retry_after, NULL);
}

/* http_format_head with more header lines (each ending in CRLF), or NULL. */
void
http_format_head_extra(struct buf *b, int status, const char *ctype,
    long long len, int close_after, int retry_after, const char *extra)
{
	buf_printf(b, "HTTP/1.1 %d %s\r\nServer: hookcastd\r\n", status,
	    http_status_text(status));
	if (ctype != NULL)
		buf_printf(b, "Content-Type: %s\r\n", ctype);
	if (extra != NULL)
		buf_puts(b, extra);
	if (len >= 0)
		buf_printf(b, "Content-Length: %lld\r\n", len);
	if (retry_after > 0)
		buf_printf(b, "Retry-After: %d\r\n", retry_after);
	if (close_after)
		buf_puts(b, "Connection: close\r\n");
	buf_puts(b, "\r\n");
}

/* {"ok":false,"error":cause} into b, cause escaped as a JSON string. */
void
http_format_error(struct buf *b, const char *cause)
{
	const unsigned char	*p;

	buf_puts(b, "{\"ok\":false,\"error\":\"");
	for (p = (const unsigned char *)cause; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			buf_printf(b, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			buf_printf(b, "\\u%04x", *p);
		else
			buf_putc(b, (char)*p);
	}
	buf_puts(b, "\"}");
}

/* http_reply of http_format_error's body (the reply itself is http.c's). */
void
http_reply_error(struct http_request *req, int status, const char *cause)
{
	struct buf	b;

	buf_init(&b);
	http_format_error(&b, cause);
	http_reply(req, status, "application/json", buf_str(&b), b.len);
	buf_free(&b);
}
