/* push: commits pushed to a branch, the day's main material. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "handler.h"
#include "xmalloc.h"

/* GitHub sends at most 2048 commits in one push. */
#define PUSH_MAX_COMMITS	2048
/* Names kept per list (added, removed, modified) of one commit. */
#define PUSH_MAX_FILES		10000

static int	push_handle(const json_t *, time_t, struct handler_result *,
		    char **);

const struct handler_entry handler_push = { "push", push_handle };

static int
push_is_sha(const char *s)
{
	size_t	i;

	for (i = 0; i < 40; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return s[40] == '\0';
}

/* Copy an optional array of strings (added, removed, modified). */
static int
push_files(const json_t *jc, const char *path, const char *key,
    char ***out, size_t *nout, char **cause)
{
	const json_t	*array, *v;
	char		**list;
	size_t		 n, i;

	if (hjson_array_opt(jc, path, key, &array, cause) == -1)
		return -1;
	if (array == NULL || (n = json_array_size(array)) == 0) {
		*out = NULL;
		*nout = 0;
		return 0;
	}
	if (n > PUSH_MAX_FILES) {
		xasprintf(cause, "%s.%s: too many entries (%zu, at most %d)",
		    path, key, n, PUSH_MAX_FILES);
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (!json_is_string(json_array_get(array, i))) {
			xasprintf(cause, "%s.%s[%zu]: expected a string", path,
			    key, i);
			return -1;
		}
	}
	list = xreallocarray(NULL, n, sizeof(*list));
	json_array_foreach(array, i, v)
		list[i] = xstrdup(json_string_value(v));
	*out = list;
	*nout = n;
	return 0;
}

/* Read author or committer: {name, email, username}, all borrowed. */
static int
push_person(const json_t *jc, const char *path, const char *key,
    int required, const char **name, const char **email, const char **login,
    char **cause)
{
	const json_t	*who;
	char		 sub[64];

	if (required) {
		if (hjson_object(jc, path, key, &who, cause) == -1)
			return -1;
	} else {
		if (hjson_object_opt(jc, path, key, &who, cause) == -1)
			return -1;
		if (who == NULL) {
			*name = *email = *login = NULL;
			return 0;
		}
	}
	snprintf(sub, sizeof(sub), "%s.%s", path, key);
	if (hjson_string(who, sub, "name", name, cause) == -1 ||
	    hjson_string_opt(who, sub, "email", email, cause) == -1 ||
	    hjson_string_opt(who, sub, "username", login, cause) == -1)
		return -1;
	if (*login != NULL && **login == '\0')
		*login = NULL;
	return 0;
}

/* Validate commits[i] and fill c from it. On -1, c may be partly filled. */
static int
push_commit(const json_t *jc, size_t i, const char *branch, struct commit *c,
    char **cause)
{
	const char	*id, *message, *stamp, *name, *email, *login;
	char		 path[32];

	snprintf(path, sizeof(path), "commits[%zu]", i);
	if (!json_is_object(jc)) {
		xasprintf(cause, "%s: expected an object", path);
		return -1;
	}
	if (hjson_string(jc, path, "id", &id, cause) == -1)
		return -1;
	if (!push_is_sha(id)) {
		xasprintf(cause, "%s.id: expected a 40-hex commit id", path);
		return -1;
	}
	if (hjson_string(jc, path, "message", &message, cause) == -1)
		return -1;
	if (hjson_string(jc, path, "timestamp", &stamp, cause) == -1)
		return -1;
	if (hjson_time(stamp, &c->timestamp) == -1) {
		xasprintf(cause, "%s.timestamp: expected an ISO 8601 time",
		    path);
		return -1;
	}

	if (push_person(jc, path, "author", 1, &name, &email, &login,
	    cause) == -1)
		return -1;
	c->author_name = xstrdup(name);
	c->author_email = xstrdup_null(email);
	c->author_login = xstrdup_null(login);
	if (push_person(jc, path, "committer", 0, &name, &email, &login,
	    cause) == -1)
		return -1;
	c->committer_name = xstrdup_null(name);
	c->committer_login = xstrdup_null(login);

	if (push_files(jc, path, "added", &c->added, &c->nadded, cause) == -1 ||
	    push_files(jc, path, "removed", &c->removed, &c->nremoved,
	    cause) == -1 ||
	    push_files(jc, path, "modified", &c->modified, &c->nmodified,
	    cause) == -1)
		return -1;

	c->sha = xstrdup(id);
	c->branch = xstrdup(branch);
	c->reverts_idx = c->reverted_by_idx = -1;
	if (commit_set_message(c, message) == -1 ||
	    revert_parse(c->subject, c->body, &c->revert) == -1) {
		xasprintf(cause, "%s.message: cannot be stored", path);
		return -1;
	}
	return 0;
}

/*
 * Validate a push and normalize it into commits and a push record. Tag
 * pushes and other non-branch refs are accepted and ignored. Commits that
 * are not "distinct" (already pushed elsewhere) are kept: the day store
 * drops duplicates by sha.
 */
static int
push_handle(const json_t *payload, time_t now, struct handler_result *result,
    char **cause)
{
	struct handler_result	 r;
	const json_t		*pusher, *commits;
	const char		*repo, *defbranch, *ref, *before, *after;
	const char		*pushername = NULL, *branch;
	int			 created, deleted, forced;
	size_t			 n, i;

	memset(&r, 0, sizeof(r));
	if (!json_is_object(payload)) {
		xasprintf(cause, "payload: expected an object");
		return -1;
	}
	if (hjson_repository(payload, 1, &repo, &defbranch, cause) == -1)
		return -1;
	if (hjson_string(payload, NULL, "ref", &ref, cause) == -1 ||
	    hjson_string_opt(payload, NULL, "before", &before, cause) == -1 ||
	    hjson_string_opt(payload, NULL, "after", &after, cause) == -1 ||
	    hjson_bool_opt(payload, NULL, "created", &created, cause) == -1 ||
	    hjson_bool_opt(payload, NULL, "deleted", &deleted, cause) == -1 ||
	    hjson_bool_opt(payload, NULL, "forced", &forced, cause) == -1)
		return -1;
	if (hjson_object_opt(payload, NULL, "pusher", &pusher, cause) == -1)
		return -1;
	if (pusher != NULL && hjson_string_opt(pusher, "pusher", "name",
	    &pushername, cause) == -1)
		return -1;
	if (hjson_array(payload, NULL, "commits", &commits, cause) == -1)
		return -1;
	if ((n = json_array_size(commits)) > PUSH_MAX_COMMITS) {
		xasprintf(cause, "commits: too many entries (%zu, at most %d)",
		    n, PUSH_MAX_COMMITS);
		return -1;
	}

	r.repo = xstrdup(repo);
	r.default_branch = xstrdup_null(defbranch);
	if (strncmp(ref, "refs/heads/", 11) != 0) {
		r.ignored = 1;
		r.note = xstrdup(strncmp(ref, "refs/tags/", 10) == 0 ?
		    "tag push" : "not a branch");
		*result = r;
		return 0;
	}
	branch = ref + 11;
	if (*branch == '\0') {
		xasprintf(cause, "ref: empty branch name");
		goto fail;
	}

	if (n > 0) {
		r.commits = xcalloc(n, sizeof(*r.commits));
		for (i = 0; i < n; i++) {
			r.ncommits = i + 1;
			if (push_commit(json_array_get(commits, i), i, branch,
			    &r.commits[i], cause) == -1)
				goto fail;
		}
	}

	r.push = xcalloc(1, sizeof(*r.push));
	r.push->branch = xstrdup(branch);
	r.push->before = xstrdup_null(before);
	r.push->after = xstrdup_null(after);
	r.push->pusher = xstrdup_null(pushername);
	r.push->forced = forced;
	r.push->created = created;
	r.push->deleted = deleted;
	r.push->ncommits = n;
	r.push->at = now;

	*result = r;
	return 0;

fail:
	handler_result_clear(&r);
	return -1;
}
