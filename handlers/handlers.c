/* The table of GitHub events we keep, and what a delivery yields. */
#include <stdlib.h>
#include <string.h>

#include "handler.h"

static const struct handler_entry *const handler_table[] = {
	&handler_push,
	&handler_pull_request,
	&handler_ping,
};

/* The entry for an X-GitHub-Event name, or NULL when we don't keep it. */
const struct handler_entry *
handler_find(const char *event)
{
	size_t	i;

	if (event == NULL)
		return NULL;
	for (i = 0; i < sizeof(handler_table) / sizeof(handler_table[0]); i++)
		if (strcmp(handler_table[i]->event, event) == 0)
			return handler_table[i];
	return NULL;
}

/* Free what a result owns and zero it. NULL is a no-op. */
void
handler_result_clear(struct handler_result *r)
{
	size_t	i;

	if (r == NULL)
		return;
	free(r->repo);
	free(r->default_branch);
	free(r->html_url);
	for (i = 0; i < r->ncommits; i++)
		commit_clear(&r->commits[i]);
	free(r->commits);
	if (r->pr != NULL) {
		merged_pr_clear(r->pr);
		free(r->pr);
	}
	if (r->push != NULL) {
		push_clear(r->push);
		free(r->push);
	}
	free(r->note);
	memset(r, 0, sizeof(*r));
}
