/* Serving a site's static files over HTTP. */
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
#include "serve.h"

int
serve_match(const struct serve_site *site, const char *path)
{
	size_t	n = strlen(site->prefix);

	/* the prefix without its '/' too: "/files" is the site's */
	return strncmp(path, site->prefix, n) == 0 ||
	    (n > 1 && site->prefix[n - 1] == '/' &&
	    strncmp(path, site->prefix, n - 1) == 0 && path[n - 1] == '\0');
}

/* Is c a byte of a served name (a folder's or a file's)? */
static int
serve_char_ok(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
}

/* The Content-Type the site gives a file name, or NULL: not served. */
static const char *
serve_file_type(const struct serve_site *site, const char *file)
{
	const char	*name;
	size_t		 i, len = strlen(file), n;

	if (len == 0 || len > SERVE_FILE_MAX || file[0] == '.')
		return NULL;
	for (i = 0; i < site->ntypes; i++) {
		name = site->types[i].name;
		if (name[0] != '*') {
			if (strcmp(file, name) == 0)
				return site->types[i].type;
			continue;
		}
		n = strlen(++name);
		/* a name, not an extension alone: ".mp3" is hidden anyway */
		if (len > n && strcmp(file + len - n, name) == 0)
			return site->types[i].type;
	}
	return NULL;
}

int
serve_parse_path(const struct serve_site *site, const char *path,
    struct serve_path *sp)
{
	const char	*rest, *seg, *p;
	size_t		 dlen, plen = strlen(site->prefix);
	int		 folders = 0;

	if (strncmp(path, site->prefix, plen) != 0)
		return -1;
	rest = path + plen;
	/* DIR/FILE: depth folders, each a name and a '/', then the file */
	for (p = seg = rest; *p != '\0'; p++) {
		if (*p != '/') {
			if (!serve_char_ok(*p))
				return -1;
			continue;
		}
		if (p == seg || (p - seg == 1 && seg[0] == '.') ||
		    (p - seg == 2 && seg[0] == '.' && seg[1] == '.'))
			return -1;
		if (++folders > site->depth)
			return -1;
		seg = p + 1;
	}
	if (folders != site->depth)
		return -1;
	dlen = seg > rest ? (size_t)(seg - 1 - rest) : 0;
	if (dlen >= sizeof(sp->dir) || strlen(seg) > SERVE_FILE_MAX)
		return -1;
	memcpy(sp->dir, rest, dlen);
	sp->dir[dlen] = '\0';
	if (site->dir_ok != NULL && !site->dir_ok(sp->dir))
		return -1;
	if ((sp->type = serve_file_type(site, seg)) == NULL)
		return -1;
	strcpy(sp->file, seg);
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
 * Open a served file: root as the operator gave it, then each folder of
 * DIR and FILE with O_NOFOLLOW, so no symlink inside root leads out of
 * it. A descriptor of a regular file with *st, or -1.
 */
static int
serve_open(const char *root, const struct serve_path *sp, struct stat *st)
{
	int	dfd, fd;

	if (sp->dir[0] == '\0')
		dfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	else
		dfd = file_dir_open(root, sp->dir, 0, 0);
	if (dfd == -1)
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
serve_request(const struct serve_site *site, const char *root,
    struct http_request *req)
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
	if (serve_parse_path(site, req->path, &sp) == -1 ||
	    (fd = serve_open(root, &sp, &st)) == -1) {
		http_reply_error(req, 404, "no such file");
		return;
	}
	size = (long long)st.st_size;
	snprintf(etag, sizeof(etag), "\"%llx-%llx\"", size,
	    (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec);
	date_format(st.st_mtim.tv_sec, "GMT", date, sizeof(date));
	buf_init(&h);
	/*
	 * What a served file holds may come from others than the operator:
	 * a browser opening one must take it as its type says, not sniff
	 * HTML in a .txt, and must run or load nothing from it.
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
