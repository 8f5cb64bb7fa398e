/*
 * The differential check of push_scan against jansson + push_handle, as
 * webhook_delivery uses them, shared by test_push_scan.c and the
 * fuzz_push_scan target. push_diff() returns NULL when both agree, else
 * a new string saying how they differ.
 *
 * Agreeing means: both fail with the same cause, or both succeed with
 * field-by-field equal results. Where they may differ:
 * - on a body that is not JSON the causes differ in position and wording:
 *   jansson's fails, push_scan's must start "invalid JSON";
 * - a duplicate key in a part push_scan skips (sender, repository.owner,
 *   ...) is refused by jansson only;
 * - nesting deeper than JSCAN_MAX_DEPTH and numbers with a fraction or an
 *   exponent longer than JSCAN_MAX_NUMBER bytes are refused by push_scan
 *   only (see jscan.h).
 */
#ifndef HOOKCAST_PUSH_DIFF_H
#define HOOKCAST_PUSH_DIFF_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "handler.h"
#include "xmalloc.h"

#define PUSH_DIFF_NOW	((time_t)1770940000)

/* webhook_delivery's way: 1 when the body was not JSON at all. */
static inline int
push_diff_reference(const char *body, size_t len, struct handler_result *r,
    char **cause, int *syntax, json_error_t *jerr)
{
	json_t	*j;
	int	 rv;

	*syntax = 0;
	if ((j = json_loadb(body, len, JSON_REJECT_DUPLICATES, jerr)) == NULL) {
		*syntax = 1;
		xasprintf(cause, "invalid JSON at line %d column %d: %s",
		    jerr->line, jerr->column, jerr->text);
		return -1;
	}
	if (!json_is_object(j)) {
		json_decref(j);
		*cause = xstrdup("payload is not a JSON object");
		return -1;
	}
	rv = handler_push.handle(j, PUSH_DIFF_NOW, r, cause);
	json_decref(j);
	return rv;
}

static inline int
push_diff_str(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return a != b;
	return strcmp(a, b) != 0;
}

static inline int
push_diff_list(char **a, size_t na, char **b, size_t nb)
{
	size_t	i;

	if (na != nb || (na == 0 && (a != NULL || b != NULL)))
		return 1;
	for (i = 0; i < na; i++)
		if (push_diff_str(a[i], b[i]))
			return 1;
	return 0;
}

/* The first field where two commits differ, or NULL. */
static inline const char *
push_diff_commit(const struct commit *a, const struct commit *b)
{
#define PD_S(f)	if (push_diff_str(a->f, b->f)) return #f
	PD_S(sha);
	PD_S(author_name);
	PD_S(author_login);
	PD_S(author_email);
	PD_S(committer_name);
	PD_S(committer_login);
	PD_S(subject);
	PD_S(body);
	PD_S(branch);
	PD_S(revert.reverted_sha);
	PD_S(revert.reverted_subject);
	PD_S(revert.reverted_pr);
	PD_S(revert.requested_by);
	PD_S(revert.reason);
#undef PD_S
	if (a->timestamp != b->timestamp)
		return "timestamp";
	if (push_diff_list(a->added, a->nadded, b->added, b->nadded))
		return "added";
	if (push_diff_list(a->removed, a->nremoved, b->removed, b->nremoved))
		return "removed";
	if (push_diff_list(a->modified, a->nmodified, b->modified,
	    b->nmodified))
		return "modified";
	if (a->revert.is_revert != b->revert.is_revert ||
	    a->revert.is_reland != b->revert.is_reland ||
	    a->revert.automatic != b->revert.automatic)
		return "revert flags";
	if (a->reverts_idx != b->reverts_idx ||
	    a->reverted_by_idx != b->reverted_by_idx)
		return "revert indexes";
	return NULL;
}

/* The first field where two results differ, or NULL. */
static inline const char *
push_diff_result(const struct handler_result *a,
    const struct handler_result *b, size_t *at)
{
	const char	*f;
	size_t		 i;

	if (push_diff_str(a->repo, b->repo))
		return "repo";
	if (push_diff_str(a->default_branch, b->default_branch))
		return "default_branch";
	if (push_diff_str(a->html_url, b->html_url))
		return "html_url";
	if (a->ignored != b->ignored)
		return "ignored";
	if (push_diff_str(a->note, b->note))
		return "note";
	if (a->pr != NULL || b->pr != NULL)
		return "pr";
	if ((a->push == NULL) != (b->push == NULL))
		return "push";
	if (a->push != NULL) {
		if (push_diff_str(a->push->branch, b->push->branch) ||
		    memcmp(a->push->before, b->push->before,
		    PUSH_ID_LEN) != 0 ||
		    memcmp(a->push->after, b->push->after, PUSH_ID_LEN) != 0 ||
		    push_diff_str(a->push->pusher, b->push->pusher) ||
		    a->push->forced != b->push->forced ||
		    a->push->created != b->push->created ||
		    a->push->deleted != b->push->deleted ||
		    a->push->ncommits != b->push->ncommits ||
		    a->push->at != b->push->at)
			return "push fields";
	}
	if (a->ncommits != b->ncommits)
		return "ncommits";
	if ((a->commits == NULL) != (b->commits == NULL))
		return "commits";
	for (i = 0; i < a->ncommits; i++) {
		if ((f = push_diff_commit(&a->commits[i], &b->commits[i])) !=
		    NULL) {
			*at = i;
			return f;
		}
	}
	return NULL;
}

/*
 * Run body through both intakes. NULL when they agree; else a new string.
 * *outcome (when not NULL) is 0 when both accepted it, 1 when both
 * refused it, 2 for a documented difference.
 */
static inline char *
push_diff(const char *body, size_t len, int *outcome)
{
	struct handler_result	 ra, rb;
	json_error_t		 jerr;
	char			*ca = NULL, *cb = NULL, *out = NULL;
	const char		*f;
	size_t			 at = 0;
	int			 a, b, syntax, dummy;

	if (outcome == NULL)
		outcome = &dummy;
	memset(&ra, 0, sizeof(ra));
	memset(&rb, 0, sizeof(rb));
	a = push_diff_reference(body, len, &ra, &ca, &syntax, &jerr);
	b = push_scan(body, len, PUSH_DIFF_NOW, &rb, &cb);
	/* not JSON (or not an object) is told apart by its code */
	if (b == HANDLER_NOT_JSON && cb != NULL &&
	    strncmp(cb, "invalid JSON", 12) != 0 &&
	    strcmp(cb, "payload is not a JSON object") != 0)
		xasprintf(&out, "push_scan: not JSON for \"%s\"", cb);
	else if (b == HANDLER_REFUSED && cb != NULL &&
	    (strncmp(cb, "invalid JSON", 12) == 0 ||
	    strcmp(cb, "payload is not a JSON object") == 0))
		xasprintf(&out, "push_scan: refused for \"%s\"", cb);
	if (out != NULL) {
		handler_result_clear(&ra);
		handler_result_clear(&rb);
		free(ca);
		free(cb);
		return out;
	}
	if (b != 0)
		b = -1;

	if (b == -1 && (cb == NULL || rb.repo != NULL || rb.commits != NULL ||
	    rb.push != NULL || rb.note != NULL))
		xasprintf(&out, "push_scan failed without a clean result");
	else if (b == 0 && cb != NULL)
		xasprintf(&out, "push_scan succeeded with a cause");
	else if (b == -1 && strstr(cb, "nesting deeper than") != NULL &&
	    strncmp(cb, "invalid JSON", 12) == 0)
		*outcome = 2;
	else if (b == -1 && strstr(cb, ": number too long") != NULL)
		*outcome = 2;
	else if (a == -1 && syntax &&
	    strncmp(jerr.text, "duplicate object key", 20) == 0 &&
	    (b == 0 || strncmp(cb, "invalid JSON", 12) != 0))
		*outcome = 2;
	else if (a == -1 && syntax) {
		if (b == 0 || strncmp(cb, "invalid JSON", 12) != 0)
			xasprintf(&out, "jansson: \"%s\"; push_scan: %s", ca,
			    b == 0 ? "accepted" : cb);
		*outcome = 1;
	} else if (a == -1 || b == -1) {
		if (a != b || strcmp(ca, cb) != 0)
			xasprintf(&out, "jansson: %s; push_scan: %s",
			    a == 0 ? "accepted" : ca, b == 0 ? "accepted" : cb);
		*outcome = 1;
	} else {
		if ((f = push_diff_result(&ra, &rb, &at)) != NULL)
			xasprintf(&out, "results differ in %s (commit %zu)", f,
			    at);
		*outcome = 0;
	}
	handler_result_clear(&ra);
	handler_result_clear(&rb);
	free(ca);
	free(cb);
	return out;
}

/*
 * A push of one commit whose "message" is the JSON string text msg (n
 * bytes, without its quotes, escaped as a sender may write it): a new
 * string, *len its length. The message caps (COMMIT_MAX_SUBJECT and
 * _BODY) are checked through it.
 */
static inline char *
push_diff_message_push(const char *msg, size_t n, size_t *len)
{
	static const char head[] =
	    "{\"ref\":\"refs/heads/main\",\"repository\":{\"full_name\":"
	    "\"o/r\",\"default_branch\":\"main\"},\"commits\":[{\"id\":"
	    "\"a823aa62e765cb4d05e6a92750548cba5bf4a5ba\",\"message\":\"";
	static const char tail[] =
	    "\",\"timestamp\":\"2026-02-12T11:59:16-08:00\","
	    "\"author\":{\"name\":\"A\"}}]}";
	char	*s = xmalloc(sizeof(head) - 1 + n + sizeof(tail));

	memcpy(s, head, sizeof(head) - 1);
	memcpy(s + sizeof(head) - 1, msg, n);
	memcpy(s + sizeof(head) - 1 + n, tail, sizeof(tail));
	*len = sizeof(head) - 1 + n + sizeof(tail) - 1;
	return s;
}

#endif
