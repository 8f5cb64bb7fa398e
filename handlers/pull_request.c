/* pull_request: we keep merged pull requests, and only those. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "handler.h"
#include "xmalloc.h"

/* Bytes of an unknown action echoed in the note. */
#define PULL_REQUEST_MAX_ACTION	32
/*
 * Bytes in a title: GitHub refuses one over 256 characters, so at most
 * 1024 bytes of UTF-8. The title is kept with the merged PR ("t") and
 * read aloud; a longer one is refused (400) rather than kept in part.
 */
#define PULL_REQUEST_MAX_TITLE	1024
/*
 * Bytes in user.login, kept with the merged PR ("al"): GitHub logins are
 * at most 39 characters; a longer one than this is refused.
 */
#define PULL_REQUEST_MAX_LOGIN	255

static int	pull_request_handle(const json_t *, time_t,
		    struct handler_result *, char **);

const struct handler_entry handler_pull_request = {
	.event = "pull_request", .handle = pull_request_handle,
};

/* A kept string (path.key) against its cap in bytes: 0 or -1. */
static int
pull_request_check_length(const char *path, const char *key, const char *s,
    size_t max, char **cause)
{
	if (strlen(s) > max) {
		xasprintf(cause, "%s.%s: longer than %zu bytes", path, key,
		    max);
		return -1;
	}
	return 0;
}

/* "action <action>", keeping only tame characters of an outside word. */
static char *
pull_request_note(const char *action)
{
	char	word[PULL_REQUEST_MAX_ACTION + 1];
	size_t	i;

	for (i = 0; i < PULL_REQUEST_MAX_ACTION && action[i] != '\0'; i++) {
		if ((action[i] >= 'a' && action[i] <= 'z') ||
		    (action[i] >= '0' && action[i] <= '9') || action[i] == '_')
			word[i] = action[i];
		else
			word[i] = '?';
	}
	word[i] = '\0';
	return xstrdup(word[0] != '\0' ? word : "?");
}

/*
 * Validate a pull_request delivery. Only action "closed" with merged true
 * yields a merged PR; any other action is accepted and ignored. base.ref,
 * kept as the merged PR's branch, has the push branch's cap
 * (PUSH_MAX_BRANCH), checked whatever the action as the other fields are;
 * so have the title and the author's login theirs. The body is cut.
 */
static int
pull_request_handle(const json_t *payload, time_t now,
    struct handler_result *result, char **cause)
{
	struct handler_result	 r;
	const json_t		*pr, *user, *base;
	const char		*action, *repo, *defbranch, *title, *login;
	const char		*mergedat, *mergesha, *body, *baseref;
	long long		 number;
	int			 merged;
	time_t			 when = now;
	char			*word;

	memset(&r, 0, sizeof(r));
	if (!json_is_object(payload)) {
		xasprintf(cause, "payload: expected an object");
		return -1;
	}
	if (hjson_string(payload, NULL, "action", &action, cause) == -1)
		return -1;
	if (hjson_repository(payload, 1, &repo, &defbranch, cause) == -1)
		return -1;
	if (hjson_object(payload, NULL, "pull_request", &pr, cause) == -1)
		return -1;
	if (hjson_integer(pr, "pull_request", "number", &number, cause) == -1)
		return -1;
	if (number <= 0) {
		xasprintf(cause, "pull_request.number: expected a positive "
		    "integer");
		return -1;
	}
	if (hjson_string(pr, "pull_request", "title", &title, cause) == -1 ||
	    pull_request_check_length("pull_request", "title", title,
	    PULL_REQUEST_MAX_TITLE, cause) == -1 ||
	    hjson_object(pr, "pull_request", "user", &user, cause) == -1 ||
	    hjson_string(user, "pull_request.user", "login", &login,
	    cause) == -1 ||
	    pull_request_check_length("pull_request.user", "login", login,
	    PULL_REQUEST_MAX_LOGIN, cause) == -1 ||
	    hjson_bool_opt(pr, "pull_request", "merged", &merged, cause) == -1 ||
	    hjson_string_opt(pr, "pull_request", "merged_at", &mergedat,
	    cause) == -1 ||
	    hjson_string_opt(pr, "pull_request", "merge_commit_sha", &mergesha,
	    cause) == -1 ||
	    hjson_string_opt(pr, "pull_request", "body", &body, cause) == -1 ||
	    hjson_object(pr, "pull_request", "base", &base, cause) == -1 ||
	    hjson_string(base, "pull_request.base", "ref", &baseref,
	    cause) == -1 ||
	    hjson_check_branch("pull_request.base", "ref", baseref,
	    cause) == -1)
		return -1;
	if (mergedat != NULL && hjson_time(mergedat, &when) == -1) {
		xasprintf(cause, "pull_request.merged_at: expected an ISO 8601 "
		    "time");
		return -1;
	}

	r.repo = xstrdup(repo);
	r.default_branch = xstrdup_null(defbranch);
	r.html_url = hjson_repository_url(payload, repo);
	if (strcmp(action, "closed") != 0 || !merged) {
		r.ignored = 1;
		if (strcmp(action, "closed") == 0)
			r.note = xstrdup("closed without merge");
		else {
			word = pull_request_note(action);
			xasprintf(&r.note, "action %s", word);
			free(word);
		}
		*result = r;
		return 0;
	}

	r.pr = xcalloc(1, sizeof(*r.pr));
	r.pr->number = (long)number;
	/* cut to MERGED_PR_MAX_TITLE and _BODY bytes, as replay does */
	r.pr->title = record_cut_dup(title, MERGED_PR_MAX_TITLE);
	r.pr->author_login = xstrdup(login);
	r.pr->body = record_cut_dup(body, MERGED_PR_MAX_BODY);
	r.pr->merge_sha = xstrdup_null(mergesha);
	r.pr->branch = xstrdup(baseref);
	r.pr->merged_at = when;
	r.note = xstrdup("merged");
	*result = r;
	return 0;
}
