/* push: commits pushed to a branch, the day's main material. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "handler.h"
#include "xmalloc.h"

static int	push_handle(const json_t *, time_t, struct handler_result *,
		    char **);

const struct handler_entry handler_push = {
	.event = "push", .handle = push_handle, .scan = push_scan,
};

/* Is s a 40-hex (lower case) commit id? */
int
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
	char		**list, *d;
	size_t		 n, i, bytes, l;

	if (hjson_array_opt(jc, path, key, &array, cause) == -1)
		return -1;
	if (array == NULL || (n = json_array_size(array)) == 0) {
		*out = NULL;
		*nout = 0;
		return 0;
	}
	for (i = 0; i < n; i++)
		if (!json_is_string(json_array_get(array, i)))
			break;
	if (push_check_files(path, key, n, i, cause) == -1)
		return -1;
	bytes = 0;
	json_array_foreach(array, i, v)
		bytes += json_string_length(v) + 1;
	list = record_list_new(n, bytes, &d);
	json_array_foreach(array, i, v) {
		l = json_string_length(v);
		list[i] = memcpy(d, json_string_value(v), l);
		d[l] = '\0';
		d += l + 1;
	}
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

/*
 * The checks and steps both intakes (push_handle over jansson, push_scan
 * over jscan) share, so that they say the same things in the same order.
 */

/* A list of n names whose first non-string is at index bad (n if none). */
int
push_check_files(const char *path, const char *key, size_t n, size_t bad,
    char **cause)
{
	if (n > PUSH_MAX_FILES) {
		xasprintf(cause, "%s.%s: too many entries (%zu, at most %d)",
		    path, key, n, PUSH_MAX_FILES);
		return -1;
	}
	if (bad < n) {
		xasprintf(cause, "%s.%s[%zu]: expected a string", path, key,
		    bad);
		return -1;
	}
	return 0;
}

/* The path of commits[i] in causes, into buf. */
void
push_commit_path(char *buf, size_t size, size_t i)
{
	snprintf(buf, size, "commits[%zu]", i);
}

/* commits[i].id and .timestamp, already known to be strings. */
int
push_check_id(const char *path, const char *id, char **cause)
{
	if (!push_is_sha(id)) {
		xasprintf(cause, "%s.id: expected a 40-hex commit id", path);
		return -1;
	}
	return 0;
}

int
push_check_time(const char *path, const char *stamp, time_t *t, char **cause)
{
	if (hjson_time(stamp, t) == -1) {
		xasprintf(cause, "%s.timestamp: expected an ISO 8601 time",
		    path);
		return -1;
	}
	return 0;
}

/* The number of commits, checked against the cap. */
int
push_check_commits(size_t n, char **cause)
{
	if (n > PUSH_MAX_COMMITS) {
		xasprintf(cause, "commits: too many entries (%zu, at most %d)",
		    n, PUSH_MAX_COMMITS);
		return -1;
	}
	return 0;
}

/*
 * The branch a ref names: 1 with *branch pointing into ref for
 * "refs/heads/<branch>"; 0 for a tag or another ref, with r->ignored and
 * r->note set; -1 for an empty branch name or one over PUSH_MAX_BRANCH.
 */
int
push_branch(const char *ref, struct handler_result *r, const char **branch,
    char **cause)
{
	if (strncmp(ref, "refs/heads/", 11) != 0) {
		r->ignored = 1;
		r->note = xstrdup(strncmp(ref, "refs/tags/", 10) == 0 ?
		    "tag push" : "not a branch");
		return 0;
	}
	if (ref[11] == '\0') {
		xasprintf(cause, "ref: empty branch name");
		return -1;
	}
	if (strlen(ref + 11) > PUSH_MAX_BRANCH) {
		xasprintf(cause, "ref: branch name longer than %d bytes",
		    PUSH_MAX_BRANCH);
		return -1;
	}
	*branch = ref + 11;
	return 1;
}

/* The last step of a commit: its id, branch, message and what it reverts. */
int
push_commit_finish(struct commit *c, const char *path, const char *id,
    const char *branch, const char *message, char **cause)
{
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

/* The push record itself. */
void
push_record(struct handler_result *r, const char *branch, const char *before,
    const char *after, const char *pusher, int forced, int created,
    int deleted, size_t ncommits, time_t now)
{
	r->push = xcalloc(1, sizeof(*r->push));
	r->push->branch = xstrdup(branch);
	/* one not 40 hex digits is none (record.h): the push still counts */
	(void)push_id_set(r->push->before, before);
	(void)push_id_set(r->push->after, after);
	r->push->pusher = xstrdup_null(pusher);
	r->push->forced = forced != 0;
	r->push->created = created != 0;
	r->push->deleted = deleted != 0;
	r->push->ncommits = ncommits < UINT32_MAX ? (uint32_t)ncommits :
	    UINT32_MAX;
	r->push->at = now;
}

/* Validate commits[i] and fill c from it. On -1, c may be partly filled. */
static int
push_commit(const json_t *jc, size_t i, const char *branch, struct commit *c,
    char **cause)
{
	const char	*id, *message, *stamp, *name, *email, *login;
	char		 path[32];

	push_commit_path(path, sizeof(path), i);
	if (!json_is_object(jc)) {
		xasprintf(cause, "%s: expected an object", path);
		return -1;
	}
	if (hjson_string(jc, path, "id", &id, cause) == -1)
		return -1;
	if (push_check_id(path, id, cause) == -1)
		return -1;
	if (hjson_string(jc, path, "message", &message, cause) == -1)
		return -1;
	if (hjson_string(jc, path, "timestamp", &stamp, cause) == -1)
		return -1;
	if (push_check_time(path, stamp, &c->timestamp, cause) == -1)
		return -1;

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

	return push_commit_finish(c, path, id, branch, message, cause);
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
	const char		*pushername = NULL, *branch = NULL;
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
	if (push_check_commits(n = json_array_size(commits), cause) == -1)
		return -1;

	r.repo = xstrdup(repo);
	r.default_branch = xstrdup_null(defbranch);
	r.html_url = hjson_repository_url(payload, repo);
	switch (push_branch(ref, &r, &branch, cause)) {
	case -1:
		goto fail;
	case 0:
		*result = r;
		return 0;
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

	push_record(&r, branch, before, after, pushername, forced, created,
	    deleted, n, now);

	*result = r;
	return 0;

fail:
	handler_result_clear(&r);
	return -1;
}
