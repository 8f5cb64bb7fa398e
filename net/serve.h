/*
 * Static files over HTTP: GET and HEAD of PREFIX/DIR/FILE from a root
 * directory, a site saying which paths and names are served and as what
 * type, with one Range, conditional GET (ETag, Last-Modified) and heads
 * that keep a browser from sniffing or running what it gets. The path
 * and Range parsers are plain functions, tested and fuzzed on their own.
 */
#ifndef HOOKCAST_SERVE_H
#define HOOKCAST_SERVE_H

#include <stddef.h>
#include <time.h>

struct http_request;

/* Longest FILE name served. */
#define SERVE_FILE_MAX	128
/* Longest DIR ("a/b", its folders) of a served path. */
#define SERVE_DIR_MAX	255

/*
 * A name served and its Content-Type: "*.ext" is any name ending in .ext
 * (with more before it), anything else that name only.
 */
struct serve_type {
	const char	*name;
	const char	*type;
};

/* What a server serves: the paths, the names and their types. */
struct serve_site {
	const char		*prefix;	/* "/files/", with its '/' */
	int			 depth;		/* folders in DIR */
	/* a further check of DIR, or NULL: 1 when it may be served */
	int			(*dir_ok)(const char *dir);
	const struct serve_type	*types;
	size_t			 ntypes;
};

struct serve_path {
	char	 dir[SERVE_DIR_MAX + 1];	/* "a/b", "" with no folder */
	char	 file[SERVE_FILE_MAX + 1];
	const char *type;	/* its Content-Type (the site's) */
};

/*
 * Does path start with the site's prefix (or is it the prefix without
 * its last '/')? Such a path is the site's to answer, found or not.
 */
int	 serve_match(const struct serve_site *, const char *path);
/*
 * Parse a request path: 0 with sp filled when it is PREFIX/DIR/FILE with
 * DIR site->depth folders, each of letters, digits, '.', '_', '-' and
 * not "." or "..", that site->dir_ok (if any) takes, and FILE a name of
 * those bytes not starting with '.' that the site's types list; else -1.
 * No decoding is done: '%', '\\', any other byte and any other depth are
 * refused.
 */
int	 serve_parse_path(const struct serve_site *, const char *path,
	    struct serve_path *sp);

enum serve_range {
	SERVE_RANGE_NONE,	/* no usable Range: send the whole file */
	SERVE_RANGE_OK,		/* one range, *first..*last inclusive */
	SERVE_RANGE_UNSATISFIABLE, /* 416 */
};

/*
 * Read a Range header value against a file of size bytes: one range
 * "bytes=a-b", "bytes=a-" or "bytes=-n". A value that is not one range
 * of that form (several ranges too) is NONE, as RFC 9110 lets a server
 * ignore it; a range that starts past the end, or "-0", is
 * UNSATISFIABLE. The last byte is clamped to the file's.
 */
enum serve_range serve_parse_range(const char *value, long long size,
	    long long *first, long long *last);
/*
 * Does an If-None-Match value (a list of entity tags, or "*") match etag
 * (weak comparison)?
 */
int	 serve_etag_match(const char *value, const char *etag);
/* An HTTP-date ("Sun, 06 Nov 1994 08:49:37 GMT") as a time, or -1. */
time_t	 serve_http_date(const char *value);

/*
 * Answer req (a request whose path serve_match took) from the site's
 * files under root: GET and HEAD, else a 405.
 */
void	 serve_request(const struct serve_site *, const char *root,
	    struct http_request *req);

#endif
