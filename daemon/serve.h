/*
 * Serving the archive: GET and HEAD /episodes/OWNER/REPO/FILE from
 * output_dir (serve_episodes), so a podcast app can fetch a feed and its
 * audio from the daemon itself. The path and Range parsers are plain
 * functions, tested and fuzzed on their own.
 */
#ifndef HOOKCAST_SERVE_H
#define HOOKCAST_SERVE_H

#include <stddef.h>
#include <time.h>

struct http_request;

/* The prefix of the served paths. */
#define SERVE_PREFIX	"/episodes/"

/* Longest FILE name served. */
#define SERVE_FILE_MAX	128

struct serve_path {
	char	 repo[256];	/* "owner/name", as repo_name_ok takes it */
	char	 file[SERVE_FILE_MAX + 1];
	const char *type;	/* its Content-Type (static) */
};

/*
 * Does path start with SERVE_PREFIX (or is it "/episodes")? Such a path
 * is the archive's to answer, found or not.
 */
int	 serve_match(const char *path);
/*
 * Parse a request path: 0 with sp filled when it is
 * /episodes/OWNER/REPO/FILE with OWNER/REPO a repository name, FILE
 * feed.xml or a name of letters, digits, '.', '_', '-' not starting with
 * '.' and ending in .mp3, .vtt, .txt, .md or .json; else -1. No decoding
 * is done: '%', '\\', any other byte and any other depth are refused.
 */
int	 serve_parse_path(const char *path, struct serve_path *sp);

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

/* Answer req (a GET or HEAD whose path serve_match took) from output_dir. */
void	 serve_request(const char *output_dir, struct http_request *req);

#endif
