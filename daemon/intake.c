/* What a delivery keeps: handler parsing and the branches followed. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "intake.h"
#include "log.h"
#include "xmalloc.h"

enum intake_status
intake_parse(const struct handler_entry *h, const char *text, size_t len,
    time_t now, struct handler_result *res, char **cause)
{
	json_error_t	 jerr;
	json_t		*payload;
	int		 rc;

	if (h->scan != NULL) {
		rc = h->scan(text, len, now, res, cause);
		if (rc == HANDLER_OK)
			return INTAKE_OK;
		return rc == HANDLER_NOT_JSON ? INTAKE_NOT_JSON :
		    INTAKE_REFUSED;
	}
	payload = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (payload == NULL) {
		xasprintf(cause, "invalid JSON at line %d column %d: %s",
		    jerr.line, jerr.column, jerr.text);
		return INTAKE_NOT_JSON;
	}
	if (!json_is_object(payload)) {
		json_decref(payload);
		*cause = xstrdup("payload is not a JSON object");
		return INTAKE_NOT_JSON;
	}
	rc = h->handle(payload, now, res, cause);
	json_decref(payload);
	return rc == 0 ? INTAKE_OK : INTAKE_REFUSED;
}

/* Is branch one we keep for res's repository? */
static int
intake_branch_tracked(const struct config *conf,
    const struct handler_result *res, const char *known_default,
    const char *branch)
{
	const struct strlist	*l = config_branches(conf, res->repo);
	const char		*def;

	if (l->n > 0)
		return strlist_contains(l, branch);
	def = res->default_branch != NULL ? res->default_branch :
	    known_default;
	/* no default branch known: the usual names */
	if (def == NULL)
		return strcmp(branch, "main") == 0 ||
		    strcmp(branch, "master") == 0;
	return strcmp(branch, def) == 0;
}

int
intake_untracked(const struct config *conf, struct handler_result *res,
    const char *known_default)
{
	char	*esc;

	/* what we don't keep: tag pushes, other branches, unmerged PRs */
	if (!res->ignored && res->push != NULL &&
	    !intake_branch_tracked(conf, res, known_default,
	    res->push->branch)) {
		res->ignored = 1;
		free(res->note);
		esc = log_escape(res->push->branch, 256);
		xasprintf(&res->note, "branch %s is not tracked", esc);
		free(esc);
	}
	if (!res->ignored && res->pr != NULL && res->pr->branch != NULL &&
	    !intake_branch_tracked(conf, res, known_default,
	    res->pr->branch)) {
		res->ignored = 1;
		free(res->note);
		esc = log_escape(res->pr->branch, 256);
		xasprintf(&res->note, "pull request merged into untracked "
		    "branch %s", esc);
		free(esc);
	}
	return res->ignored;
}
