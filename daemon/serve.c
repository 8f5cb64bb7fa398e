/* Serving the archive's feeds and episode files over HTTP. */
#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "date.h"
#include "fileio.h"
#include "http.h"
#include "log.h"
#include "repo.h"
#include "serve.h"

/* The files of a repository's folder that are served, by extension. */
static const struct serve_type {
	const char	*ext;
	const char	*type;
} serve_types[] = {
	{ ".mp3", "audio/mpeg" },
	{ ".vtt", "text/vtt; charset=utf-8" },
	{ ".txt", "text/plain; charset=utf-8" },
	{ ".md", "text/markdown; charset=utf-8" },
	{ ".json", "application/json" },
};

#define SERVE_FEED_NAME	"feed.xml"
#define SERVE_FEED_TYPE	"application/rss+xml; charset=utf-8"

int
serve_match(const char *path)
{
	return strncmp(path, SERVE_PREFIX, strlen(SERVE_PREFIX)) == 0 ||
	    strcmp(path, "/episodes") == 0;
}

/* Is c a byte of a served name (a repository's or a file's)? */
static int
serve_char_ok(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
}

/* The Content-Type of a served file name, or NULL when it isn't served. */
static const char *
serve_file_type(const char *file)
{
	size_t	i, len = strlen(file), n;

	if (strcmp(file, SERVE_FEED_NAME) == 0)
		return SERVE_FEED_TYPE;
	if (len == 0 || len > SERVE_FILE_MAX || file[0] == '.')
		return NULL;
	for (i = 0; i < len; i++)
		if (!serve_char_ok(file[i]))
			return NULL;
	for (i = 0; i < sizeof(serve_types) / sizeof(serve_types[0]); i++) {
		n = strlen(serve_types[i].ext);
		/* a name, not an extension alone: ".mp3" is hidden anyway */
		if (len > n && strcmp(file + len - n, serve_types[i].ext) == 0)
			return serve_types[i].type;
	}
	return NULL;
}

int
serve_parse_path(const char *path, struct serve_path *sp)
{
	const char	*rest, *s1, *s2;
	size_t		 i, rlen;

	if (strncmp(path, SERVE_PREFIX, strlen(SERVE_PREFIX)) != 0)
		return -1;
	rest = path + strlen(SERVE_PREFIX);
	/* OWNER/REPO/FILE: exactly two slashes, then the file */
	if ((s1 = strchr(rest, '/')) == NULL ||
	    (s2 = strchr(s1 + 1, '/')) == NULL || strchr(s2 + 1, '/') != NULL)
		return -1;
	rlen = (size_t)(s2 - rest);
	if (rlen >= sizeof(sp->repo) || strlen(s2 + 1) > SERVE_FILE_MAX)
		return -1;
	for (i = 0; i < rlen; i++)
		if (rest[i] != '/' && !serve_char_ok(rest[i]))
			return -1;
	memcpy(sp->repo, rest, rlen);
	sp->repo[rlen] = '\0';
	/* repo_name_ok refuses "." and ".." and an owner starting with '.' */
	if (!repo_name_ok(sp->repo))
		return -1;
	if ((sp->type = serve_file_type(s2 + 1)) == NULL)
		return -1;
	strcpy(sp->file, s2 + 1);
	return 0;
}

/*
 * Read the digits at *p into *v (at most 18 of them: no overflow), and
 * move *p past them. 0, or -1 for no digit or too many.
 */
static int
serve_number(const char **p, long long *v)
{
	const char	*s = *p;
	long long	 n = 0;
	int		 digits = 0;

	while (*s >= '0' && *s <= '9') {
		if (++digits > 18)
			return -1;
		n = n * 10 + (*s++ - '0');
	}
	if (digits == 0)
		return -1;
	*v = n;
	*p = s;
	return 0;
}

enum serve_range
serve_parse_range(const char *value, long long size, long long *first,
    long long *last)
{
	const char	*p = value;
	long long	 a, b;

	if (value == NULL || strncasecmp(p, "bytes=", 6) != 0)
		return SERVE_RANGE_NONE;
	p += 6;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '-') {
		/* the last n bytes */
		p++;
		if (serve_number(&p, &b) == -1)
			return SERVE_RANGE_NONE;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != '\0')
			return SERVE_RANGE_NONE;
		if (b == 0 || size == 0)
			return SERVE_RANGE_UNSATISFIABLE;
		*first = b >= size ? 0 : size - b;
		*last = size - 1;
		return SERVE_RANGE_OK;
	}
	if (serve_number(&p, &a) == -1 || *p++ != '-')
		return SERVE_RANGE_NONE;
	if (*p >= '0' && *p <= '9') {
		if (serve_number(&p, &b) == -1 || b < a)
			return SERVE_RANGE_NONE;
	} else
		b = -1;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != '\0')
		return SERVE_RANGE_NONE;	/* several ranges: the whole */
	if (a >= size)
		return SERVE_RANGE_UNSATISFIABLE;
	*first = a;
	*last = b == -1 || b >= size ? size - 1 : b;
	return SERVE_RANGE_OK;
}

int
serve_etag_match(const char *value, const char *etag)
{
	const char	*p = value, *tag;
	size_t		 n, elen;

	if (value == NULL || etag == NULL)
		return 0;
	/* weak comparison: W/ prefixes are ignored on both sides */
	if (strncmp(etag, "W/", 2) == 0)
		etag += 2;
	elen = strlen(etag);
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		if (*p == '\0')
			return 0;
		if (*p == '*')
			return 1;
		if (strncmp(p, "W/", 2) == 0)
			p += 2;
		if (*p != '"')
			return 0;	/* not a list of entity tags */
		tag = p;
		if ((p = strchr(p + 1, '"')) == NULL)
			return 0;
		n = (size_t)(++p - tag);
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != ',' && *p != '\0')
			return 0;	/* not a list of entity tags */
		if (n == elen && memcmp(tag, etag, n) == 0)
			return 1;
	}
}

time_t
serve_http_date(const char *value)
{
	struct tm	 tm;
	const char	*end;

	if (value == NULL)
		return -1;
	memset(&tm, 0, sizeof(tm));
	end = strptime(value, "%a, %d %b %Y %H:%M:%S GMT", &tm);
	if (end == NULL || *end != '\0')
		return -1;
	return timegm(&tm);
}

/*
 * Open a served file: output_dir as the operator gave it, then OWNER,
 * REPO and FILE each with O_NOFOLLOW, so no symlink inside output_dir
 * leads out of it. A descriptor of a regular file with *st, or -1.
 */
static int
serve_open(const char *output_dir, const struct serve_path *sp,
    struct stat *st)
{
	int	dfd, fd;

	if ((dfd = file_dir_open(output_dir, sp->repo, 0, 0)) == -1)
		return -1;
	fd = openat(dfd, sp->file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC);
	close(dfd);
	if (fd == -1)
		return -1;
	if (fstat(fd, st) == -1 || !S_ISREG(st->st_mode)) {
		close(fd);
		return -1;
	}
	return fd;
}

void
serve_request(const char *output_dir, struct http_request *req)
{
	struct serve_path	 sp;
	struct stat		 st;
	struct buf		 h;
	enum serve_range	 r = SERVE_RANGE_NONE;
	const char		*inm, *ims, *range, *ifr;
	long long		 size, first = 0, last = 0;
	char			 etag[64], date[DATE_LEN];
	time_t			 since;
	int			 fd;

	if (strcmp(req->method, "GET") != 0 &&
	    strcmp(req->method, "HEAD") != 0) {
		http_reply_error(req, 405, "use GET");
		return;
	}
	if (serve_parse_path(req->path, &sp) == -1 ||
	    (fd = serve_open(output_dir, &sp, &st)) == -1) {
		http_reply_error(req, 404, "no such file");
		return;
	}
	size = (long long)st.st_size;
	snprintf(etag, sizeof(etag), "\"%llx-%llx\"", size,
	    (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec);
	date_format(st.st_mtim.tv_sec, "GMT", date, sizeof(date));
	buf_init(&h);
	/*
	 * What an episode holds comes from commits and a model's reply: a
	 * browser opening a served file must take it as its type says, not
	 * sniff HTML in a .txt, and must run or load nothing from it.
	 */
	buf_puts(&h, "X-Content-Type-Options: nosniff\r\n"
	    "Content-Security-Policy: default-src 'none'; sandbox\r\n");
	buf_printf(&h, "ETag: %s\r\nLast-Modified: %s\r\n"
	    "Accept-Ranges: bytes\r\nCache-Control: no-cache\r\n", etag, date);

	/* RFC 9110 13.2.2: If-None-Match, else If-Modified-Since */
	inm = http_header(req, "If-None-Match");
	ims = http_header(req, "If-Modified-Since");
	if (inm != NULL ? serve_etag_match(inm, etag) :
	    (ims != NULL && (since = serve_http_date(ims)) != -1 &&
	    st.st_mtim.tv_sec <= since)) {
		http_reply_file(req, 304, NULL, buf_str(&h), fd, 0, 0);
		buf_free(&h);
		return;
	}
	range = http_header(req, "Range");
	ifr = http_header(req, "If-Range");
	/* a Range under an If-Range that names another version is ignored */
	if (range != NULL && (ifr == NULL || strcmp(ifr, etag) == 0 ||
	    strcmp(ifr, date) == 0))
		r = serve_parse_range(range, size, &first, &last);
	switch (r) {
	case SERVE_RANGE_UNSATISFIABLE:
		buf_printf(&h, "Content-Range: bytes */%lld\r\n", size);
		http_reply_file(req, 416, NULL, buf_str(&h), fd, 0, 0);
		break;
	case SERVE_RANGE_OK:
		buf_printf(&h, "Content-Range: bytes %lld-%lld/%lld\r\n", first,
		    last, size);
		http_reply_file(req, 206, sp.type, buf_str(&h), fd, first,
		    last - first + 1);
		break;
	case SERVE_RANGE_NONE:
		http_reply_file(req, 200, sp.type, buf_str(&h), fd, 0, size);
		break;
	}
	buf_free(&h);
}
