/*
 * Webhook intake: routes, limits, signature, decoding, dedup, handlers,
 * the day store; and the two small GET endpoints.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <event2/event.h>
#include <jansson.h>

#include "backfill.h"
#include "buf.h"
#include "daemon.h"
#include "form.h"
#include "handler.h"
#include "http.h"
#include "journal.h"
#include "jrecord.h"
#include "log.h"
#include "signature.h"
#include "webhook.h"
#include "xmalloc.h"

/* Reply with {"ok":false,"error":cause}. */
static void
webhook_error(struct http_request *req, int status, const char *cause)
{
	json_t	*j;
	char	*s;

	j = json_pack("{s:b, s:s}", "ok", 0, "error", cause);
	s = json_dumps(j, JSON_COMPACT);
	http_reply(req, status, "application/json", s, strlen(s));
	free(s);
	json_decref(j);
}

static void
webhook_json(struct http_request *req, int status, json_t *j)
{
	char	*s = json_dumps(j, JSON_COMPACT);

	http_reply(req, status, "application/json", s, strlen(s));
	free(s);
	json_decref(j);
}

/* Seconds since a request's head (copy the start: a reply may free it). */
static double
webhook_elapsed(const struct timespec *started)
{
	struct timespec	now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - started->tv_sec) +
	    (double)(now.tv_nsec - started->tv_nsec) / 1e9;
}

/* Media type of Content-Type without parameters: 0 json, 1 form, -1. */
static int
webhook_content_type(const char *ct)
{
	size_t	n;

	if (ct == NULL)
		return 0;	/* GitHub always sends one; be lenient */
	n = strcspn(ct, "; \t");
	if (n == strlen("application/json") &&
	    strncasecmp(ct, "application/json", n) == 0)
		return 0;
	if (n == strlen("application/x-www-form-urlencoded") &&
	    strncasecmp(ct, "application/x-www-form-urlencoded", n) == 0)
		return 1;
	return -1;
}

/* Checks that need only the head, so a refused body is never read. */
int
webhook_head(struct http_request *req, void *arg)
{
	struct hookcastd	*d = arg;
	const char		*event;

	if (strcmp(req->path, d->conf.webhook_path) == 0) {
		if (strcmp(req->method, "POST") != 0) {
			webhook_error(req, 405, "use POST for webhook "
			    "deliveries");
			return -1;
		}
		event = http_header(req, "X-GitHub-Event");
		if (req->content_length > d->conf.max_body) {
			metrics_delivery(&d->metrics, event, OUTCOME_REJECTED);
			webhook_error(req, 413, "payload larger than the "
			    "configured max_body");
			return -1;
		}
		if (event == NULL || *event == '\0') {
			metrics_delivery(&d->metrics, event, OUTCOME_REJECTED);
			webhook_error(req, 400, "missing X-GitHub-Event header");
			return -1;
		}
		if (webhook_content_type(http_header(req, "Content-Type")) ==
		    -1) {
			metrics_delivery(&d->metrics, event, OUTCOME_REJECTED);
			webhook_error(req, 415, "Content-Type must be "
			    "application/json or "
			    "application/x-www-form-urlencoded");
			return -1;
		}
		if (d->conf.nsecrets > 0 &&
		    http_header(req, "X-Hub-Signature-256") == NULL) {
			d->metrics.signature_failures++;
			metrics_delivery(&d->metrics, event, OUTCOME_REJECTED);
			webhook_error(req, 401, "missing X-Hub-Signature-256 "
			    "header");
			return -1;
		}
		return 0;
	}
	if (strcmp(req->path, "/healthz") == 0 ||
	    strcmp(req->path, "/metrics") == 0) {
		if (strcmp(req->method, "GET") != 0 &&
		    strcmp(req->method, "HEAD") != 0) {
			webhook_error(req, 405, "use GET");
			return -1;
		}
		return 0;
	}
	webhook_error(req, 404, "no such path");
	return -1;
}

static void
webhook_metrics(struct hookcastd *d, struct http_request *req)
{
	struct buf		b;
	struct day_stats	st;
	size_t			i, commits = 0, reverts = 0;
	struct store_repo	*r;

	buf_init(&b);
	metrics_render(&d->metrics, &b);
	for (i = 0; i < store_nrepos(d->store); i++) {
		r = store_repo_at(d->store, i);
		day_stats(r->day, &st);
		commits += st.commits;
		reverts += st.reverts;
	}
	buf_printf(&b, "# HELP hookcast_open_day_commits Commits in the open "
	    "days.\n# TYPE hookcast_open_day_commits gauge\n"
	    "hookcast_open_day_commits %zu\n"
	    "# HELP hookcast_open_day_reverts Reverts in the open days.\n"
	    "# TYPE hookcast_open_day_reverts gauge\n"
	    "hookcast_open_day_reverts %zu\n"
	    "# HELP hookcast_repositories Repositories with an open day.\n"
	    "# TYPE hookcast_repositories gauge\n"
	    "hookcast_repositories %zu\n"
	    "# HELP hookcast_missed_deliveries_total Pushes whose before was "
	    "not the branch's last head.\n"
	    "# TYPE hookcast_missed_deliveries_total counter\n"
	    "hookcast_missed_deliveries_total %llu\n", commits, reverts,
	    store_nrepos(d->store), (unsigned long long)d->missed_deliveries);
	if (d->backfill != NULL)
		backfill_metrics(d->backfill, &b);
	http_reply(req, 200, "text/plain; version=0.0.4", buf_str(&b), b.len);
	buf_free(&b);
}

/* Is the push's branch one we keep for this repository? */
static int
webhook_branch_tracked(struct hookcastd *d, const struct handler_result *res,
    const char *branch)
{
	const struct strlist	*l = config_branches(&d->conf, res->repo);
	const char		*def;

	if (l->n > 0)
		return strlist_contains(l, branch);
	def = res->default_branch;
	if (def == NULL) {
		struct store_repo *r = store_repo(d->store, res->repo, 0, 0);

		def = r != NULL ? r->day->default_branch : NULL;
	}
	/* no default branch known: the usual names */
	if (def == NULL)
		return strcmp(branch, "main") == 0 ||
		    strcmp(branch, "master") == 0;
	return strcmp(branch, def) == 0;
}

/* A delivery written to the journal, waiting for its sync. */
struct pending {
	struct http_request	*req;
	struct handler_result	 res;
	char			*key;
	char			*event;
	char			*guid;
	time_t			 at;
	struct pending		*next;
};

static int
webhook_pending_has(struct hookcastd *d, const char *key)
{
	struct pending	*p;

	for (p = d->pending; p != NULL; p = p->next)
		if (strcmp(p->key, key) == 0)
			return 1;
	return 0;
}

/* The delivery is durable: put it in the day and say so. */
static void
webhook_accept(struct hookcastd *d, struct pending *p)
{
	json_t			*reply;
	size_t			 added = 0;
	struct store_repo	*r;

	if (p->res.push != NULL && p->res.repo != NULL) {
		r = store_repo(d->store, p->res.repo, 1, d->window_start);
		if (store_note_push(r, p->res.push)) {
			char *esc = log_escape(p->res.push->branch, 256);

			d->missed_deliveries++;
			log_warnx("%s: push to %s starts at %.12s, not at the last "
			    "head seen there: a delivery was missed", r->name,
			    esc, p->res.push->before);
			free(esc);
			hookcastd_gap(d, r->name);
		}
	}
	store_add(d->store, &p->res, d->window_start, &added);
	store_mark(d->store, p->key, p->at);
	metrics_delivery(&d->metrics, p->event, OUTCOME_ACCEPTED);
	reply = json_pack("{s:b, s:s, s:s, s:b}", "ok", 1, "event", p->event,
	    "delivery", p->guid, "duplicate", 0);
	if (p->res.repo != NULL)
		json_object_set_new(reply, "repository",
		    json_string(p->res.repo));
	if (p->res.note != NULL)
		json_object_set_new(reply, "note", json_string(p->res.note));
	json_object_set_new(reply, "commits", json_integer((json_int_t)added));
	log_debug("delivery %s: %s accepted, %zu new commit(s)", p->guid,
	    p->event, added);
	hookcastd_notify_status(d, 0);
	metrics_latency(&d->metrics, webhook_elapsed(&p->req->started));
	webhook_json(p->req, 200, reply);
}

/* The journal could not take it: 503, so GitHub records a failure. */
static void
webhook_unavailable(struct hookcastd *d, struct pending *p, int err)
{
	metrics_delivery(&d->metrics, p->event, OUTCOME_UNAVAILABLE);
	if (!d->journal_failing) {
		log_warnx("journal: %s; answering 503 until it recovers",
		    strerror(err));
		d->journal_failing = 1;
	}
	metrics_latency(&d->metrics, webhook_elapsed(&p->req->started));
	webhook_error(p->req, 503, "could not make the delivery durable; "
	    "redeliver it later");
}

static void
webhook_pending_free(struct pending *p)
{
	handler_result_clear(&p->res);
	free(p->key);
	free(p->event);
	free(p->guid);
	free(p);
}

static void
webhook_recovered(struct hookcastd *d)
{
	if (d->journal_failing) {
		log_notice("journal: writing again");
		d->journal_failing = 0;
	}
}

/* journal_sync, timed for /metrics. */
static int
webhook_timed_sync(struct hookcastd *d)
{
	struct timespec	t0;
	int		rc, saved;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	rc = journal_sync(d->journal);
	saved = errno;
	metrics_sync(&d->metrics, webhook_elapsed(&t0), rc == 0);
	errno = saved;
	return rc;
}

/*
 * Group commit: every delivery written during one turn of the loop is
 * answered after one fdatasync.
 */
void
webhook_sync(evutil_socket_t fd, short what, void *arg)
{
	struct hookcastd	*d = arg;
	struct pending		*p, *next, *batch = d->pending;
	int			 rc, err = 0;

	d->pending = NULL;
	d->pending_tail = &d->pending;
	if (batch == NULL)
		return;
	rc = webhook_timed_sync(d);
	if (rc == -1) {
		err = errno;
		journal_truncate(d->journal, (off_t)d->batch_start);
	} else
		webhook_recovered(d);
	for (p = batch; p != NULL; p = next) {
		next = p->next;
		if (rc == 0)
			webhook_accept(d, p);
		else
			webhook_unavailable(d, p, err);
		webhook_pending_free(p);
	}
}

/* Journal a valid delivery, then accept it now or after the batch sync. */
static void
webhook_journal(struct hookcastd *d, struct http_request *req,
    struct handler_result *res, char *key, const char *event,
    const char *guid, time_t now)
{
	struct pending	*p = xcalloc(1, sizeof(*p));
	json_t		*rec;
	off_t		 before = journal_offset(d->journal);
	int		 err;

	p->req = req;
	p->res = *res;
	memset(res, 0, sizeof(*res));
	p->key = key;
	p->event = xstrdup(event);
	p->guid = xstrdup(guid);
	p->at = now;

	rec = jrecord_encode_delivery(&p->res, key, now);
	json_object_set_new(rec, "start", json_integer(
	    (json_int_t)d->window_start));
	if (journal_append(d->journal, rec) == -1) {
		err = errno;
		json_decref(rec);
		webhook_unavailable(d, p, err);
		webhook_pending_free(p);
		return;
	}
	json_decref(rec);
	if (d->conf.journal_fsync == JOURNAL_SYNC_ALWAYS) {
		if (webhook_timed_sync(d) == -1) {
			err = errno;
			journal_truncate(d->journal, before);
			webhook_unavailable(d, p, err);
		} else {
			webhook_recovered(d);
			webhook_accept(d, p);
		}
		webhook_pending_free(p);
		return;
	}
	if (d->conf.journal_fsync == JOURNAL_SYNC_NONE) {
		webhook_recovered(d);
		webhook_accept(d, p);
		webhook_pending_free(p);
		return;
	}
	if (d->pending == NULL) {
		d->batch_start = (long long)before;
		event_active(d->sync_ev, EV_TIMEOUT, 0);
	}
	*d->pending_tail = p;
	d->pending_tail = &p->next;
}

/*
 * Turn a body into a handler result: with the handler's scanner when it
 * has one (it reads only what it keeps, without building a json_t), else
 * json_loadb and the handler. 0; -1 when the body is not a JSON object;
 * -2 when the handler refuses the payload. *cause says why, and *payload
 * is the parsed body for the caller to drop (NULL after a scan).
 */
static int
webhook_parse(const struct handler_entry *h, const char *text, size_t len,
    time_t now, json_t **payload, struct handler_result *res, char **cause)
{
	json_error_t	jerr;

	*payload = NULL;
	if (h->scan != NULL) {
		if (h->scan(text, len, now, res, cause) == 0)
			return 0;
		if (*cause != NULL &&
		    (strncmp(*cause, "invalid JSON", 12) == 0 ||
		    strcmp(*cause, "payload is not a JSON object") == 0))
			return -1;
		return -2;
	}
	*payload = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (*payload == NULL) {
		xasprintf(cause, "invalid JSON at line %d column %d: %s",
		    jerr.line, jerr.column, jerr.text);
		return -1;
	}
	if (!json_is_object(*payload)) {
		*cause = xstrdup("payload is not a JSON object");
		return -1;
	}
	if (h->handle(*payload, now, res, cause) == -1)
		return -2;
	return 0;
}

/* The webhook proper, once the body is in. */
static void
webhook_delivery(struct hookcastd *d, struct http_request *req)
{
	const char			*event, *guid, *hook, *sig;
	const struct handler_entry	*h;
	struct handler_result		 res;
	json_t				*payload = NULL, *reply;
	char				*form = NULL, *cause = NULL, *esc;
	char				*key = NULL;
	struct timespec			 started = req->started;
	int				 handed = 0;
	const char			*json_text;
	size_t				 json_len;
	enum signature_result		 sr;
	time_t				 now = time(NULL);

	memset(&res, 0, sizeof(res));
	event = http_header(req, "X-GitHub-Event");
	guid = http_header(req, "X-GitHub-Delivery");
	hook = http_header(req, "X-GitHub-Hook-ID");
	d->metrics.bytes_received += req->bodylen;

	if (d->conf.nsecrets > 0) {
		sig = http_header(req, "X-Hub-Signature-256");
		sr = signature_verify(sig, req->body, req->bodylen,
		    (const char *const *)d->conf.secrets, d->conf.secretlens,
		    d->conf.nsecrets);
		if (sr != SIGNATURE_OK) {
			d->metrics.signature_failures++;
			metrics_delivery(&d->metrics, event, OUTCOME_REJECTED);
			esc = log_escape(guid, 64);
			log_info("delivery %s: %s", esc, signature_strerror(sr));
			free(esc);
			webhook_error(req, 401, signature_strerror(sr));
			goto done;
		}
	}
	if (guid == NULL || *guid == '\0' || strlen(guid) > 128) {
		metrics_delivery(&d->metrics, event, OUTCOME_REJECTED);
		webhook_error(req, 400, "missing or overlong X-GitHub-Delivery "
		    "header");
		goto done;
	}
	if (hook != NULL && strlen(hook) > 64) {
		metrics_delivery(&d->metrics, event, OUTCOME_REJECTED);
		webhook_error(req, 400, "overlong X-GitHub-Hook-ID header");
		goto done;
	}
	key = store_key(hook, guid);
	if (store_seen(d->store, key)) {
		metrics_delivery(&d->metrics, event, OUTCOME_DUPLICATE);
		reply = json_pack("{s:b, s:s, s:s, s:b}", "ok", 1, "event",
		    event, "delivery", guid, "duplicate", 1);
		webhook_json(req, 200, reply);
		goto done;
	}
	if ((h = handler_find(event)) == NULL) {
		/* not an event we keep: no need to parse it */
		metrics_delivery(&d->metrics, event, OUTCOME_IGNORED);
		reply = json_pack("{s:b, s:b, s:s, s:s}", "ok", 1, "ignored", 1,
		    "event", event, "reason", "event not used by hookcast");
		webhook_json(req, 202, reply);
		goto done;
	}

	free(key);
	key = NULL;
	json_text = req->body;
	json_len = req->bodylen;
	if (webhook_content_type(http_header(req, "Content-Type")) == 1) {
		if (form_payload(req->body, req->bodylen, &form, &json_len,
		    &cause) == -1) {
			metrics_delivery(&d->metrics, event, OUTCOME_REJECTED);
			webhook_error(req, 400, cause);
			goto done;
		}
		json_text = form;
	}
	switch (webhook_parse(h, json_text, json_len, now, &payload, &res,
	    &cause)) {
	case -1:
		metrics_delivery(&d->metrics, event, OUTCOME_REJECTED);
		webhook_error(req, 400, cause);
		goto done;
	case -2:
		metrics_delivery(&d->metrics, event, OUTCOME_REJECTED);
		esc = log_escape(cause, 200);
		log_info("delivery %s (%s): %s", guid, event, esc);
		free(esc);
		webhook_error(req, 400, cause != NULL ? cause :
		    "malformed payload");
		goto done;
	}
	/* what we don't keep: tag pushes, other branches, unmerged PRs */
	if (!res.ignored && res.push != NULL &&
	    !webhook_branch_tracked(d, &res, res.push->branch)) {
		res.ignored = 1;
		free(res.note);
		xasprintf(&res.note, "branch %s is not tracked",
		    res.push->branch);
	}
	if (!res.ignored && res.pr != NULL && res.pr->branch != NULL &&
	    !webhook_branch_tracked(d, &res, res.pr->branch)) {
		res.ignored = 1;
		free(res.note);
		xasprintf(&res.note, "pull request merged into untracked "
		    "branch %s", res.pr->branch);
	}
	if (res.ignored) {
		metrics_delivery(&d->metrics, event, OUTCOME_IGNORED);
		reply = json_pack("{s:b, s:b, s:s, s:s, s:s}", "ok", 1,
		    "ignored", 1, "event", event, "delivery", guid, "reason",
		    res.note != NULL ? res.note : "nothing to keep");
		webhook_json(req, 202, reply);
		goto done;
	}
	key = store_key(hook, guid);
	if (webhook_pending_has(d, key)) {
		/* the same delivery twice in one batch: answer after it */
		metrics_delivery(&d->metrics, event, OUTCOME_DUPLICATE);
		reply = json_pack("{s:b, s:s, s:s, s:b}", "ok", 1, "event",
		    event, "delivery", guid, "duplicate", 1);
		webhook_json(req, 200, reply);
		goto done;
	}
	webhook_journal(d, req, &res, key, event, guid, now);
	key = NULL;
	handed = 1;
done:
	if (!handed)
		metrics_latency(&d->metrics, webhook_elapsed(&started));
	handler_result_clear(&res);
	json_decref(payload);
	free(form);
	free(cause);
	free(key);
}

void
webhook_request(struct http_request *req, void *arg)
{
	struct hookcastd	*d = arg;

	if (strcmp(req->path, "/healthz") == 0) {
		static const char ok[] = "{\"ok\":true}";

		http_reply(req, d->stopping ? 503 : 200, "application/json",
		    ok, sizeof(ok) - 1);
		return;
	}
	if (strcmp(req->path, "/metrics") == 0) {
		webhook_metrics(d, req);
		return;
	}
	webhook_delivery(d, req);
}
