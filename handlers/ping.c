/* ping: sent when a hook is created. Nothing to keep; we answer "pong". */
#include <stdio.h>

#include "handler.h"
#include "xmalloc.h"

static int	ping_handle(const json_t *, time_t, struct handler_result *,
		    char **);

const struct handler_entry handler_ping = {
	.event = "ping", .handle = ping_handle,
};

/*
 * Check the little a ping carries: zen and hook_id are optional, and so
 * is the repository (an organization's hook has none).
 */
static int
ping_handle(const json_t *payload, time_t now, struct handler_result *result,
    char **cause)
{
	const char	*zen, *repo, *branch;
	const json_t	*hook_id;

	if (!json_is_object(payload)) {
		xasprintf(cause, "payload: expected an object");
		return -1;
	}
	if (hjson_string_opt(payload, NULL, "zen", &zen, cause) == -1)
		return -1;
	hook_id = json_object_get(payload, "hook_id");
	if (hook_id != NULL && !json_is_null(hook_id) &&
	    !json_is_integer(hook_id)) {
		xasprintf(cause, "hook_id: expected an integer");
		return -1;
	}
	if (hjson_repository(payload, 0, &repo, &branch, cause) == -1)
		return -1;

	result->repo = xstrdup_null(repo);
	result->default_branch = xstrdup_null(branch);
	result->html_url = repo != NULL ? hjson_repository_url(payload, repo) :
	    NULL;
	result->ignored = 0;
	result->note = xstrdup("pong");
	return 0;
}
