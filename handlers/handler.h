/*
 * GitHub event handlers: each turns a parsed payload into normalized
 * records. One file per event exports one entry; handlers.c lists them.
 * Handlers copy what they need out of the json_t and keep no reference.
 */
#ifndef HOOKCAST_HANDLER_H
#define HOOKCAST_HANDLER_H

#include <stddef.h>
#include <time.h>

#include <jansson.h>

#include "record.h"

/* What one delivery yields. Everything here is owned by the result. */
struct handler_result {
	char		*repo;		/* repository.full_name */
	char		*default_branch; /* repository.default_branch, or NULL */
	char		*html_url;	/* repository.html_url when repo_url_ok */
	struct commit	*commits;
	size_t		 ncommits;
	struct merged_pr *pr;		/* a merged pull request, or NULL */
	struct push	*push;		/* the push itself, or NULL */
	int		 ignored;	/* accepted but nothing to keep */
	char		*note;		/* a short word for the reply, or NULL */
	/* bytes the store holds back for it until it is added (store.h) */
	size_t		 held;
};

/*
 * A handler fills result from payload. On a malformed or mistyped payload
 * it returns -1 and sets *cause to a new string naming the field
 * ("commits[2].id: expected a string"); result is then cleared by the
 * caller. now is the time of receipt.
 */
typedef int (*handler_fn)(const json_t *payload, time_t now,
    struct handler_result *result, char **cause);

/* What a scanner returns. */
enum handler_status {
	HANDLER_OK = 0,
	HANDLER_REFUSED = -1,	/* JSON, but not a payload the handler keeps */
	HANDLER_NOT_JSON = -2,	/* not JSON, or not a JSON object */
};

/*
 * A scanner does what json_loadb(body, JSON_REJECT_DUPLICATES) and then
 * the handler do, straight from the body and reading only what it keeps:
 * the same result, or an error with the same *cause. A body that is not
 * JSON gives HANDLER_NOT_JSON with a cause starting "invalid JSON" (its
 * position and wording may differ from jansson's); one whose top level
 * is not an object gives HANDLER_NOT_JSON and "payload is not a JSON
 * object", as webhook_parse says. A payload the handler refuses gives
 * HANDLER_REFUSED.
 */
typedef int (*handler_scan_fn)(const char *body, size_t len, time_t now,
    struct handler_result *result, char **cause);

struct handler_entry {
	const char	*event;
	handler_fn	 handle;
	handler_scan_fn	 scan;		/* or NULL: parse with jansson */
};

/* The entry for an X-GitHub-Event name, or NULL when we don't keep it. */
const struct handler_entry *handler_find(const char *event);
/* Free what a result owns and zero it. */
void	 handler_result_clear(struct handler_result *);

extern const struct handler_entry handler_push;
extern const struct handler_entry handler_pull_request;
extern const struct handler_entry handler_ping;

/* handlers/push.c: the checks push_handle and push_scan share. */

/* GitHub sends at most 2048 commits in one push. */
#define PUSH_MAX_COMMITS	2048
/* Names kept per list (added, removed, modified) of one commit. */
#define PUSH_MAX_FILES		10000
/*
 * Bytes in a branch name. git itself sets no limit, but a branch is a
 * file under refs/heads/ and most file systems cap a name at 255 bytes,
 * so longer ones are not seen in practice; and the branch is copied into
 * the day with every commit and read aloud. A push to a longer one is
 * refused (400) rather than kept in part. repository.default_branch, kept
 * with every delivery and compared with each push's branch, has the same
 * cap (hjson_repository), and so has a pull request's base.ref, kept as
 * the merged PR's branch (pull_request_handle).
 */
#define PUSH_MAX_BRANCH		255

int	 push_is_sha(const char *);
void	 push_commit_path(char *, size_t, size_t);
int	 push_check_files(const char *path, const char *key, size_t n,
	    size_t bad, char **cause);
int	 push_check_id(const char *path, const char *id, char **cause);
int	 push_check_time(const char *path, const char *stamp, time_t *,
	    char **cause);
int	 push_check_commits(size_t n, char **cause);
int	 push_branch(const char *ref, struct handler_result *,
	    const char **branch, char **cause);
int	 push_commit_finish(struct commit *, const char *path, const char *id,
	    const char *branch, const char *message, char **cause);
void	 push_record(struct handler_result *, const char *branch,
	    const char *before, const char *after, const char *pusher,
	    int forced, int created, int deleted, size_t ncommits, time_t now);

/* handlers/push_scan.c */
int	 push_scan(const char *body, size_t len, time_t now,
	    struct handler_result *, char **cause);

/* Helpers shared by the handlers (handlers/json.c). */

/* Set *cause to "<path>.<key>: <what>" (or "<key>: <what>" at the top). */
void	 hjson_cause(char **cause, const char *path, const char *key,
	    const char *what);

/*
 * Typed field access with a cause naming the path. path is the prefix
 * used in messages ("commits[2]"). Each returns 0 or -1 and sets *cause.
 * A "_opt" getter accepts a missing or null field (leaving *out NULL).
 */
int	 hjson_string(const json_t *obj, const char *path, const char *key,
	    const char **out, char **cause);
int	 hjson_string_opt(const json_t *obj, const char *path, const char *key,
	    const char **out, char **cause);
int	 hjson_object(const json_t *obj, const char *path, const char *key,
	    const json_t **out, char **cause);
int	 hjson_bool_opt(const json_t *obj, const char *path, const char *key,
	    int *out, char **cause);
int	 hjson_integer(const json_t *obj, const char *path, const char *key,
	    long long *out, char **cause);
int	 hjson_object_opt(const json_t *obj, const char *path, const char *key,
	    const json_t **out, char **cause);
int	 hjson_array(const json_t *obj, const char *path, const char *key,
	    const json_t **out, char **cause);
int	 hjson_array_opt(const json_t *obj, const char *path, const char *key,
	    const json_t **out, char **cause);
/*
 * repository.full_name (checked to look like "owner/name", no "." or ".."
 * part) and repository.default_branch (or NULL, checked against
 * PUSH_MAX_BRANCH), both borrowed. With required 0 a missing repository
 * gives two NULLs.
 */
int	 hjson_repository(const json_t *payload, int required,
	    const char **full_name, const char **default_branch, char **cause);
/*
 * A branch name (or NULL) against PUSH_MAX_BRANCH: 0, or -1 with *cause
 * "<path>.<key>: branch name longer than 255 bytes".
 */
int	 hjson_check_branch(const char *path, const char *key,
	    const char *branch, char **cause);
/*
 * repository.html_url of a payload whose repository is full_name (new),
 * or NULL when it is missing, not a string or not repo_url_ok: a bad
 * one costs the episode its links, never the delivery.
 */
char	*hjson_repository_url(const json_t *payload, const char *full_name);
/* The same check of a URL already read (new, or NULL). */
char	*hjson_url_dup(const char *url, const char *full_name);
/* repository.default_branch (or NULL) against PUSH_MAX_BRANCH: 0 or -1. */
int	 hjson_check_default_branch(const char *branch, char **cause);
/* Parse an ISO 8601 timestamp ("2026-02-12T18:49:29Z" or with +hh:mm). */
int	 hjson_time(const char *s, time_t *out);

#endif
