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
	struct commit	*commits;
	size_t		 ncommits;
	struct merged_pr *pr;		/* a merged pull request, or NULL */
	struct push	*push;		/* the push itself, or NULL */
	int		 ignored;	/* accepted but nothing to keep */
	char		*note;		/* a short word for the reply, or NULL */
};

/*
 * A handler fills result from payload. On a malformed or mistyped payload
 * it returns -1 and sets *cause to a new string naming the field
 * ("commits[2].id: expected a string"); result is then cleared by the
 * caller. now is the time of receipt.
 */
typedef int (*handler_fn)(const json_t *payload, time_t now,
    struct handler_result *result, char **cause);

struct handler_entry {
	const char	*event;
	handler_fn	 handle;
};

/* The entry for an X-GitHub-Event name, or NULL when we don't keep it. */
const struct handler_entry *handler_find(const char *event);
/* Free what a result owns and zero it. */
void	 handler_result_clear(struct handler_result *);

extern const struct handler_entry handler_push;
extern const struct handler_entry handler_pull_request;
extern const struct handler_entry handler_ping;

/* Helpers shared by the handlers (handlers/json.c). */

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
 * part) and repository.default_branch (or NULL), both borrowed. With
 * required 0 a missing repository gives two NULLs.
 */
int	 hjson_repository(const json_t *payload, int required,
	    const char **full_name, const char **default_branch, char **cause);
/* Parse an ISO 8601 timestamp ("2026-02-12T18:49:29Z" or with +hh:mm). */
int	 hjson_time(const char *s, time_t *out);

#endif
