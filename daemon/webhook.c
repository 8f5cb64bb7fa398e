/*
 * Webhook intake: routes, limits, signature, decoding, dedup, handlers,
 * the day store; and the two small GET endpoints.
 *
 * Every way a delivery can end is one row of webhook_outcomes: its HTTP
 * status, its metric and its message. Every reply to a delivery goes
 * through webhook_reply, which writes the JSON itself (no allocation that
 * can fail, any bytes escaped), so a header or payload string can never
 * make a reply fail.
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
#include "outbox.h"
#include "buf.h"
#include "daemon.h"
#include "form.h"
#include "handler.h"
#include "http.h"
#include "intake.h"
#include "journal.h"
#include "jrecord.h"
#include "log.h"
#include "repo.h"
#include "serve.h"
#include "redisj.h"
#include "signature.h"
#include "showday.h"
#include "webhook.h"
#include "xmalloc.h"

static const struct webhook_outcome_row {
	int			 status;
	enum metrics_outcome	 metric;
	const char		*message;	/* the reply's reason */
	const char		*hint;		/* for the log: what to check */
	int			 signature;	/* counts as a signature failure */
} webhook_outcomes[WEBHOOK_OUTCOME_MAX] = {
	[WEBHOOK_ACCEPTED] = {
		.status = 200, .metric = OUTCOME_ACCEPTED,
		.message = "accepted" },
	[WEBHOOK_DUPLICATE] = {
		.status = 200, .metric = OUTCOME_DUPLICATE,
		.message = "already accepted" },
	[WEBHOOK_IGNORED_EVENT] = {
		.status = 202, .metric = OUTCOME_IGNORED,
		.message = "event not used by hookcast" },
	[WEBHOOK_IGNORED] = {
		.status = 202, .metric = OUTCOME_IGNORED,
		.message = "nothing to keep" },
	[WEBHOOK_NOT_POST] = {
		.status = 405, .metric = OUTCOME_REJECTED,
		.message = "use POST for webhook deliveries" },
	[WEBHOOK_TOO_LARGE] = {
		.status = 413, .metric = OUTCOME_REJECTED,
		.message = "payload larger than the configured max_body" },
	[WEBHOOK_NO_EVENT] = {
		.status = 400, .metric = OUTCOME_REJECTED,
		.message = "missing X-GitHub-Event header" },
	[WEBHOOK_BAD_EVENT] = {
		.status = 400, .metric = OUTCOME_REJECTED,
		.message = "X-GitHub-Event must be 1 to 64 letters, digits, "
		    "'.', '_' or '-'" },
	[WEBHOOK_CONTENT_TYPE] = {
		.status = 415, .metric = OUTCOME_REJECTED,
		.message = "Content-Type must be application/json or "
		    "application/x-www-form-urlencoded" },
	[WEBHOOK_BAD_DELIVERY] = {
		.status = 400, .metric = OUTCOME_REJECTED,
		.message = "X-GitHub-Delivery must be 1 to 128 letters, "
		    "digits, '.', '_' or '-'" },
	[WEBHOOK_BAD_HOOK_ID] = {
		.status = 400, .metric = OUTCOME_REJECTED,
		.message = "X-GitHub-Hook-ID must be 1 to 64 letters, digits, "
		    "'.', '_' or '-'" },
	[WEBHOOK_NO_SIGNATURE] = {
		.status = 401, .metric = OUTCOME_REJECTED,
		.message = "missing X-Hub-Signature-256 header",
		.hint = "the webhook was saved in GitHub without a secret, "
		    "or something on the way dropped the header",
		.signature = 1 },
	[WEBHOOK_BAD_SIGNATURE] = {
		.status = 401, .metric = OUTCOME_REJECTED,
		.message = "signature does not match",
		.hint = "the webhook's secret in GitHub is none of those in "
		    "secret_file",
		.signature = 1 },
	[WEBHOOK_BAD_FORM] = {
		.status = 400, .metric = OUTCOME_REJECTED,
		.message = "malformed form body" },
	[WEBHOOK_BAD_JSON] = {
		.status = 400, .metric = OUTCOME_REJECTED,
		.message = "payload is not a JSON object" },
	[WEBHOOK_BAD_PAYLOAD] = {
		.status = 400, .metric = OUTCOME_REJECTED,
		.message = "malformed payload" },
	[WEBHOOK_UNAVAILABLE] = {
		.status = 503, .metric = OUTCOME_UNAVAILABLE,
		.message = "could not make the delivery durable; redeliver it "
		    "later",
		.hint = "see the journal's warning; /healthz says why" },
	[WEBHOOK_RECORD_TOO_LARGE] = {
		.status = 413, .metric = OUTCOME_REJECTED,
		.message = "what the delivery holds is larger than one journal "
		    "record may be" },
	[WEBHOOK_PR_TOO_LARGE] = {
		.status = 413, .metric = OUTCOME_REJECTED,
		.message = "pull_request payload larger than the configured "
		    "max_body_pull_request" },
	[WEBHOOK_REPO_NOT_ALLOWED] = {
		.status = 403, .metric = OUTCOME_REJECTED,
		.message = "repository not in the configured repositories" },
	[WEBHOOK_REPO_LIMIT] = {
		.status = 429, .metric = OUTCOME_REJECTED,
		.message = "too many repositories open (max_repositories); "
		    "redeliver after the next emission" },
	[WEBHOOK_DAY_LIMIT] = {
		.status = 429, .metric = OUTCOME_REJECTED,
		.message = "the repository's day is full (max_commits_per_day "
		    "or max_deliveries_per_day); redeliver after the next "
		    "emission" },
	[WEBHOOK_BYTES_LIMIT] = {
		.status = 429, .metric = OUTCOME_REJECTED,
		.message = "the open days hold what they may (max_open_bytes); "
		    "redeliver after the next emission" },
	[WEBHOOK_STARTING] = {
		.status = 503, .metric = OUTCOME_UNAVAILABLE,
		.message = "starting: replaying the journal; redeliver it in a "
		    "moment" },
};

/* The files of a repository's folder that are served, by name. */
static const struct serve_type webhook_archive_types[] = {
	{ "feed.xml", "application/rss+xml; charset=utf-8" },
	{ "*.mp3", "audio/mpeg" },
	{ "*.vtt", "text/vtt; charset=utf-8" },
	{ "*.txt", "text/plain; charset=utf-8" },
	{ "*.md", "text/markdown; charset=utf-8" },
	{ "*.json", "application/json" },
};

/* repo_name_ok refuses an owner starting with '.' and a name "." or "..". */
const struct serve_site webhook_archive = {
	.prefix = "/episodes/",
	.depth = 2,
	.dir_ok = repo_name_ok,
	.types = webhook_archive_types,
	.ntypes = sizeof(webhook_archive_types) /
	    sizeof(webhook_archive_types[0]),
};

int
webhook_outcome_status(enum webhook_outcome o)
{
	return webhook_outcomes[o].status;
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

/* A request header for the log, escaped and bounded, "-" when absent. */
static void
webhook_log_header(struct buf *b, const struct http_request *req,
    const char *name)
{
	const char	*v = http_header(req, name);

	log_escape_append(b, v != NULL && *v != '\0' ? v : "-", 128);
}

/*
 * Who sent a request, for its log line: "PEER: ", or "CLIENT via PEER: "
 * when the peer is a trusted proxy whose X-Forwarded-For names a client
 * (http_client_addr: the rightmost address no trusted proxy wrote).
 */
static void
webhook_log_from(struct hookcastd *d, const struct http_request *req,
    struct buf *b)
{
	const char	*peer = http_request_peer(req);
	char		 client[256];

	if (d->conf.trusted_proxies.n > 0 &&
	    http_client_addr(peer, http_header(req, "X-Forwarded-For"),
	    (const char *const *)d->conf.trusted_proxies.v,
	    d->conf.trusted_proxies.n, client, sizeof(client)) == 0 &&
	    strcmp(client, peer) != 0) {
		log_escape_append(b, client, 64);
		buf_puts(b, " via ");
	}
	log_escape_append(b, peer, 64);
	buf_puts(b, ": ");
}

/*
 * The one log line of a delivery, whatever its end: who sent what about
 * where, the status and why, what was kept, its size and the time taken.
 * A refusal is a notice: it is what an operator setting up a webhook
 * looks for, with the hint of what to check; the rest are info.
 */
static void
webhook_log(struct hookcastd *d, const struct http_request *req,
    enum webhook_outcome o, const struct webhook_reply *r, const char *why,
    double secs)
{
	const struct webhook_outcome_row	*row = &webhook_outcomes[o];
	struct buf				 b;
	long long				 size;

	buf_init(&b);
	buf_reserve(&b, 512);	/* at once, not through 64, 128, 256 */
	webhook_log_from(d, req, &b);
	buf_puts(&b, "delivery ");
	if (r->guid != NULL)
		log_escape_append(&b, r->guid, 128);
	else
		webhook_log_header(&b, req, "X-GitHub-Delivery");
	buf_putc(&b, ' ');
	if (r->event != NULL)
		log_escape_append(&b, r->event, 64);
	else
		webhook_log_header(&b, req, "X-GitHub-Event");
	if (http_header(req, "X-GitHub-Hook-ID") != NULL) {
		buf_puts(&b, " hook ");
		webhook_log_header(&b, req, "X-GitHub-Hook-ID");
	}
	if (r->repo != NULL) {
		buf_putc(&b, ' ');
		log_escape_append(&b, r->repo, 256);
	}
	if (r->branch != NULL) {
		buf_putc(&b, ' ');
		log_escape_append(&b, r->branch, 256);
	}
	buf_printf(&b, ": %d ", row->status);
	switch (o) {
	case WEBHOOK_ACCEPTED:
		buf_puts(&b, "accepted");
		break;
	case WEBHOOK_DUPLICATE:
		buf_puts(&b, "duplicate, accepted before");
		break;
	default:
		buf_puts(&b, row->status < 300 ? "ignored: " : "refused: ");
		log_escape_append(&b, why, 512);
		if (row->hint != NULL)
			buf_printf(&b, " (%s)", row->hint);
		break;
	}
	if (r->commits >= 0)
		buf_printf(&b, ", %lld commit%s kept", r->commits,
		    r->commits == 1 ? "" : "s");
	/* a refusal from the head read no body: its declared size */
	size = req->bodylen > 0 ? (long long)req->bodylen : req->content_length;
	if (size >= 0)
		buf_printf(&b, ", %lld bytes", size);
	buf_printf(&b, ", %.1f ms", secs * 1000);
	if (row->status >= 400)
		log_notice("%s", buf_str(&b));
	else
		log_info("%s", buf_str(&b));
	buf_free(&b);
}

/*
 * The one reply to a delivery: count it, time it, log it and answer with
 * the outcome's status and a JSON body. r may be NULL. It cannot fail.
 */
static void
webhook_reply(struct hookcastd *d, struct http_request *req,
    enum webhook_outcome o, const struct webhook_reply *r)
{
	static const struct webhook_reply	 none = { .commits = -1 };
	const struct webhook_outcome_row	*row = &webhook_outcomes[o];
	struct timespec				 started = req->started;
	struct buf				 b;
	const char				*why;
	double					 secs;

	if (r == NULL)
		r = &none;
	why = r->detail != NULL ? r->detail : row->message;
	if (row->signature)
		d->metrics.signature_failures++;
	metrics_delivery(&d->metrics, r->event, row->metric);

	buf_init(&b);
	buf_reserve(&b, 512);	/* at once, not through 64, 128, 256 */
	if (row->status >= 300) {
		buf_puts(&b, "{\"ok\":false,\"error\":");
		buf_json_string(&b, why);
	} else {
		buf_puts(&b, "{\"ok\":true,\"event\":");
		buf_json_string(&b, r->event);
		buf_puts(&b, ",\"delivery\":");
		buf_json_string(&b, r->guid);
		if (o == WEBHOOK_IGNORED || o == WEBHOOK_IGNORED_EVENT) {
			buf_puts(&b, ",\"ignored\":true,\"reason\":");
			buf_json_string(&b, why);
		} else
			buf_printf(&b, ",\"duplicate\":%s",
			    o == WEBHOOK_DUPLICATE ? "true" : "false");
		if (r->repo != NULL) {
			buf_puts(&b, ",\"repository\":");
			buf_json_string(&b, r->repo);
		}
		if (o == WEBHOOK_ACCEPTED && r->detail != NULL) {
			buf_puts(&b, ",\"note\":");
			buf_json_string(&b, r->detail);
		}
		if (r->commits >= 0)
			buf_printf(&b, ",\"commits\":%lld", r->commits);
	}
	buf_putc(&b, '}');
	/* logged first: the reply may free req */
	secs = webhook_elapsed(&started);
	webhook_log(d, req, o, r, why, secs);
	http_reply(req, row->status, "application/json", buf_str(&b), b.len);
	buf_free(&b);
	metrics_latency(&d->metrics, secs);
}

/*
 * Is a header value a token we can store, log and echo: 1 to max of
 * letters, digits, '.', '_' and '-'? GitHub's event names, delivery
 * GUIDs and hook ids all are; ':' is left out as it joins hook and GUID
 * in the dedup key.
 */

/* Why a delivery's X-Hub-Signature-256 is refused, in the reply's words. */
static const char *
webhook_signature_why(int result)
{
	switch (result) {
	case SIGNATURE_MISSING:
		return "missing X-Hub-Signature-256 header";
	case SIGNATURE_MALFORMED:
		return "malformed X-Hub-Signature-256 header";
	default:
		return signature_strerror(result);
	}
}
static int
webhook_token(const char *s, size_t max)
{
	size_t	n;

	if (s == NULL)
		return 0;
	for (n = 0; s[n] != '\0'; n++) {
		if (n >= max)
			return 0;
		if (!((s[n] >= 'a' && s[n] <= 'z') ||
		    (s[n] >= 'A' && s[n] <= 'Z') ||
		    (s[n] >= '0' && s[n] <= '9') ||
		    s[n] == '.' || s[n] == '_' || s[n] == '-'))
			return 0;
	}
	return n > 0;
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

/*
 * What the head alone decides of a delivery: WEBHOOK_ACCEPTED to go on
 * and read the body, else the refusal. Every header it passes is a
 * token (see webhook_token), so nothing later meets odd bytes in them.
 */
static enum webhook_outcome
webhook_check_head(struct hookcastd *d, const struct http_request *req)
{
	const char	*event = http_header(req, "X-GitHub-Event");
	const char	*hook = http_header(req, "X-GitHub-Hook-ID");

	if (strcmp(req->method, "POST") != 0)
		return WEBHOOK_NOT_POST;
	/* the store is not whole yet: dedup and quotas can't be told */
	if (d->replaying)
		return WEBHOOK_STARTING;
	if (req->content_length > d->conf.max_body)
		return WEBHOOK_TOO_LARGE;
	if (event == NULL || *event == '\0')
		return WEBHOOK_NO_EVENT;
	if (!webhook_token(event, 64))
		return WEBHOOK_BAD_EVENT;
	if (webhook_content_type(http_header(req, "Content-Type")) == -1)
		return WEBHOOK_CONTENT_TYPE;
	if (!webhook_token(http_header(req, "X-GitHub-Delivery"), 128))
		return WEBHOOK_BAD_DELIVERY;
	if (hook != NULL && !webhook_token(hook, 64))
		return WEBHOOK_BAD_HOOK_ID;
	/* parsed whole into a json_t (~20 times its size): a lower cap */
	if (strcmp(event, "pull_request") == 0 &&
	    req->content_length > d->conf.max_body_pull_request)
		return WEBHOOK_PR_TOO_LARGE;
	/* a header that can match no body is refused before the body */
	if (d->conf.nsecrets > 0) {
		switch (signature_well_formed(http_header(req,
		    "X-Hub-Signature-256"))) {
		case SIGNATURE_OK:
			break;
		case SIGNATURE_MISSING:
			return WEBHOOK_NO_SIGNATURE;
		default:
			return WEBHOOK_BAD_SIGNATURE;
		}
	}
	return WEBHOOK_ACCEPTED;
}

static void webhook_refuse_allow(struct http_request *, int, const char *,
    const char *);

/*
 * A request for no delivery refused (no such path, a wrong method): one
 * line at info, as a scanner's probes are many and tell little.
 */
static void
webhook_refuse(struct http_request *req, int status, const char *why)
{
	webhook_refuse_allow(req, status, why, NULL);
}

/*
 * The same with the methods the path allows, for a 405 (RFC 9110 15.5.6:
 * it carries an Allow field): "http: PEER: METHOD PATH: STATUS ...".
 */
static void
webhook_refuse_allow(struct http_request *req, int status, const char *why,
    const char *allow)
{
	char		*method = log_escape(req->method, 16);
	char		*path = log_escape(req->path, 256);
	char		*peer = log_escape(http_request_peer(req), 64);
	char		 extra[64];
	struct buf	 b;

	log_info("http: %s: %s %s: %d refused: %s", peer, method, path,
	    status, why);
	free(method);
	free(path);
	free(peer);
	buf_init(&b);
	http_format_error(&b, why);
	if (allow != NULL)
		snprintf(extra, sizeof(extra), "Allow: %s\r\n", allow);
	http_reply_extra(req, status, "application/json",
	    allow != NULL ? extra : NULL, buf_str(&b), b.len);
	buf_free(&b);
}

/* Checks that need only the head, so a refused body is never read. */
int
webhook_head(struct http_request *req, void *arg)
{
	struct hookcastd	*d = arg;
	struct webhook_reply	 r = { .commits = -1 };
	enum webhook_outcome	 o;
	char			 detail[160];

	if (strcmp(req->path, d->conf.webhook_path) == 0) {
		if ((o = webhook_check_head(d, req)) == WEBHOOK_ACCEPTED)
			return 0;
		if (o == WEBHOOK_NOT_POST) {
			/* a browser or a probe, not a delivery */
			webhook_refuse_allow(req, 405,
			    webhook_outcomes[o].message, "POST");
			return -1;
		}
		r.event = http_header(req, "X-GitHub-Event");
		if (!webhook_token(r.event, 64))
			r.event = NULL;		/* counted as another event */
		if (o == WEBHOOK_BAD_SIGNATURE)
			r.detail = webhook_signature_why(SIGNATURE_MALFORMED);
		if (o == WEBHOOK_TOO_LARGE || o == WEBHOOK_PR_TOO_LARGE) {
			snprintf(detail, sizeof(detail), "%s (%lld bytes)",
			    webhook_outcomes[o].message,
			    o == WEBHOOK_TOO_LARGE ? d->conf.max_body :
			    d->conf.max_body_pull_request);
			r.detail = detail;
		}
		webhook_reply(d, req, o, &r);
		return -1;
	}
	if (strcmp(req->path, "/") == 0) {
		if (strcmp(req->method, "GET") != 0 &&
		    strcmp(req->method, "HEAD") != 0) {
			webhook_refuse_allow(req, 405, "use GET", "GET, HEAD");
			return -1;
		}
		return 0;
	}
	/* the archive, when served: read-only, no body */
	if (d->conf.serve_episodes &&
	    serve_match(&webhook_archive, req->path)) {
		if (strcmp(req->method, "GET") != 0 &&
		    strcmp(req->method, "HEAD") != 0) {
			webhook_refuse_allow(req, 405, "use GET", "GET, HEAD");
			return -1;
		}
		if (req->content_length > 0) {
			webhook_refuse(req, 400, "no body expected");
			return -1;
		}
		return 0;
	}
	/* /metrics here only when asked: this listener faces the internet */
	if (strcmp(req->path, "/healthz") == 0 ||
	    (strcmp(req->path, "/metrics") == 0 && d->conf.metrics_public)) {
		if (strcmp(req->method, "GET") != 0 &&
		    strcmp(req->method, "HEAD") != 0) {
			webhook_refuse_allow(req, 405, "use GET", "GET, HEAD");
			return -1;
		}
		return 0;
	}
	webhook_refuse(req, 404, "no such path");
	return -1;
}

/* The metrics listener's head checks: GET /metrics or /healthz only. */
int
webhook_metrics_head(struct http_request *req, void *arg)
{
	if (strcmp(req->path, "/healthz") != 0 &&
	    strcmp(req->path, "/metrics") != 0) {
		webhook_refuse(req, 404, "no such path");
		return -1;
	}
	if (strcmp(req->method, "GET") != 0 &&
	    strcmp(req->method, "HEAD") != 0) {
		webhook_refuse_allow(req, 405, "use GET", "GET, HEAD");
		return -1;
	}
	return 0;
}

/*
 * The daemon's own gauges: the configuration's last reload (as
 * Prometheus' own config_last_reload_* say it; the start counts as one
 * that worked), the next emission, and the HTTP replies by status over
 * both listeners, the server's own (408, 413, 501) among them.
 */
static void	webhook_metrics_requests(struct hookcastd *, struct buf *);

static void
webhook_metrics_daemon(struct hookcastd *d, struct buf *b)
{
	size_t	i;

	buf_printf(b, "# HELP hookcast_config_last_reload_successful Whether "
	    "the last configuration reload worked (1) or was refused (0).\n"
	    "# TYPE hookcast_config_last_reload_successful gauge\n"
	    "hookcast_config_last_reload_successful %d\n"
	    "# HELP hookcast_config_last_reload_success_timestamp_seconds "
	    "When the configuration was last loaded (the start, or a reload "
	    "that worked).\n"
	    "# TYPE hookcast_config_last_reload_success_timestamp_seconds "
	    "gauge\n"
	    "hookcast_config_last_reload_success_timestamp_seconds %lld\n"
	    "# HELP hookcast_next_emission_timestamp_seconds When the next "
	    "scheduled emission is due.\n"
	    "# TYPE hookcast_next_emission_timestamp_seconds gauge\n"
	    "hookcast_next_emission_timestamp_seconds %lld\n"
	    "# HELP hookcast_http_requests_total HTTP replies sent, by "
	    "status code.\n"
	    "# TYPE hookcast_http_requests_total counter\n",
	    d->reload_ok, (long long)d->reload_ok_at,
	    (long long)d->next_emit);
	webhook_metrics_requests(d, b);
	/* the shows on a schedule of their own (slugs: a-z0-9-) */
	if (d->nshowdays > 0)
		buf_puts(b, "# HELP hookcast_show_next_emission_timestamp_"
		    "seconds When the next emission of a show on a schedule "
		    "of its own is due.\n"
		    "# TYPE hookcast_show_next_emission_timestamp_seconds "
		    "gauge\n");
	for (i = 0; i < d->nshowdays; i++)
		buf_printf(b, "hookcast_show_next_emission_timestamp_seconds"
		    "{show=\"%s\"} %lld\n", d->showdays[i]->slug,
		    (long long)d->showdays[i]->next_emit);
}

/* hookcast_http_requests_total by code (the caller says its HELP, TYPE). */
static void
webhook_metrics_requests(struct hookcastd *d, struct buf *b)
{
	uint64_t	n;
	int		code;

	for (code = 100; code < HTTP_STATUS_MAX; code++) {
		n = http_server_replies(d->http, code);
		if (d->metrics_http != NULL)
			n += http_server_replies(d->metrics_http, code);
		if (n > 0)
			buf_printf(b, "hookcast_http_requests_total"
			    "{code=\"%d\"} %llu\n", code,
			    (unsigned long long)n);
	}
}

static void
webhook_metrics(struct hookcastd *d, struct http_request *req)
{
	struct buf		b;
	struct day_stats	st;
	size_t			i, commits = 0, reverts = 0;
	struct store_repo	*r;
	enum store_quota	q;

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
	if (d->journal != NULL)
		buf_printf(&b, "# HELP hookcast_journal_bytes Size of the "
		    "journal file.\n# TYPE hookcast_journal_bytes gauge\n"
		    "hookcast_journal_bytes %lld\n",
		    (long long)journal_size(d->journal));
	buf_printf(&b, "# HELP hookcast_open_bytes Bytes the open days and "
	    "those being drafted hold, as max_open_bytes counts them.\n"
	    "# TYPE hookcast_open_bytes gauge\n"
	    "hookcast_open_bytes %zu\n", store_open_bytes(d->store, NULL));
	buf_printf(&b, "# HELP hookcast_seen_deliveries Deliveries remembered "
	    "to spot redeliveries (max_seen).\n"
	    "# TYPE hookcast_seen_deliveries gauge\n"
	    "hookcast_seen_deliveries %zu\n"
	    "# HELP hookcast_quota_refusals_total Deliveries refused by a "
	    "configured bound.\n"
	    "# TYPE hookcast_quota_refusals_total counter\n",
	    store_nseen(d->store));
	for (q = STORE_QUOTA_OK + 1; q < STORE_QUOTA_MAX; q++)
		buf_printf(&b, "hookcast_quota_refusals_total{reason=\"%s\"} "
		    "%llu\n", store_quota_name(q),
		    (unsigned long long)store_refusals(d->store, q));
	if (d->backfill != NULL)
		backfill_metrics(d->backfill, &b);
	if (d->redisj != NULL)
		redisj_metrics(d->redisj, &b);
	if (d->outbox != NULL)		/* made after the replay */
		outbox_metrics(d->outbox, &b);
	webhook_metrics_daemon(d, &b);
	metrics_process(&b, d->started);
	http_reply(req, 200, "text/plain; version=0.0.4", buf_str(&b), b.len);
	buf_free(&b);
}

/*
 * A delivery written to the journal, waiting for its sync; or a second
 * copy of one (duplicate), answered with it once it is durable.
 */
struct pending {
	struct http_request	*req;
	struct handler_result	 res;
	char			*key;
	char			*event;
	char			*guid;
	time_t			 at;
	off_t			 end;		/* durable once the journal is here */
	int			 duplicate;
	char			*repo;		/* a duplicate's, for its log */
	struct hookcastd	*d;		/* (the shared journal's) */
	struct pending		*next;
};

static int
webhook_pending_has(struct hookcastd *d, const char *key)
{
	struct pending	*p;

	for (p = d->pending; p != NULL; p = p->next)
		if (!p->duplicate && strcmp(p->key, key) == 0)
			return 1;
	return 0;
}

/* The branch a result is about (logged), or NULL. */
static const char *
webhook_branch(const struct handler_result *res)
{
	if (res->push != NULL)
		return res->push->branch;
	if (res->pr != NULL)
		return res->pr->branch;
	return NULL;
}

/* The delivery is durable: put it in the day and say so. */
static void
webhook_accept(struct hookcastd *d, struct pending *p)
{
	struct webhook_reply	 r = { .event = p->event, .guid = p->guid };
	size_t			 added = 0;
	struct store_repo	*sr;
	char			*branch;

	if (p->duplicate) {
		r.repo = p->repo;
		webhook_reply(d, p->req, WEBHOOK_DUPLICATE, &r);
		return;
	}
	if (p->res.push != NULL && p->res.repo != NULL) {
		sr = store_repo(d->store, p->res.repo, 1, d->window_start);
		if (store_note_push(sr, p->res.push)) {
			char *esc = log_escape(p->res.push->branch, 256);
			char before[PUSH_HEX_LEN + 1];

			push_id_hex(p->res.push->before, before);
			d->missed_deliveries++;
			log_warnx("%s: push to %s starts at %.12s, not at the last "
			    "head seen there: a delivery was missed", sr->name,
			    esc, before);
			free(esc);
			hookcastd_gap(d, sr->name);
		}
	}
	/* the store takes the push: its branch is copied for the log */
	branch = xstrdup_null(webhook_branch(&p->res));
	/* the shows on a schedule of their own take a copy, as on replay */
	if (p->res.repo != NULL && showday_wants(d, p->res.repo)) {
		struct buf	copy;

		buf_init(&copy);
		jrecord_write_delivery(&copy, &p->res, p->key, p->at,
		    d->window_start);
		showday_copy(d, p->res.repo, copy.data, copy.len);
		buf_free(&copy);
	}
	store_add(d->store, &p->res, d->window_start, &added);
	store_mark(d->store, p->key, p->at);
	hookcastd_notify_status(d, 0);
	r.repo = p->res.repo;
	r.branch = branch;
	r.detail = p->res.note;
	r.commits = (long long)added;
	webhook_reply(d, p->req, WEBHOOK_ACCEPTED, &r);
	free(branch);
}

/* The journal could not take it: 503, so GitHub records a failure. */
static void
webhook_unavailable(struct hookcastd *d, struct pending *p, int err)
{
	struct webhook_reply	r = { .event = p->event, .guid = p->guid,
				    .repo = p->res.repo,
				    .branch = webhook_branch(&p->res),
				    .commits = -1 };

	store_release(d->store, &p->res);

	d->journal_errno = err;
	if (!d->journal_failing) {
		log_warnx("journal: %s; answering 503 until it recovers",
		    strerror(err));
		d->journal_failing = 1;
	}
	webhook_reply(d, p->req, WEBHOOK_UNAVAILABLE, &r);
}

static void
webhook_pending_free(struct pending *p)
{
	handler_result_clear(&p->res);
	free(p->key);
	free(p->event);
	free(p->guid);
	free(p->repo);
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

/* Answer, in order, the deliveries whose records are durable now. */
static void
webhook_answer_durable(struct hookcastd *d)
{
	struct pending	*p;
	off_t		 durable = journal_durable(d->journal);

	while ((p = d->pending) != NULL && p->end <= durable) {
		if ((d->pending = p->next) == NULL)
			d->pending_tail = &d->pending;
		webhook_accept(d, p);
		webhook_pending_free(p);
	}
}

/*
 * A sync failed: the records not known durable are cut off and every
 * delivery still waiting is answered 503 (those durable before it
 * first get their 2xx).
 */
static void
webhook_sync_failed(struct hookcastd *d, int err)
{
	struct pending	*p, *next;

	webhook_answer_durable(d);
	journal_abort_unsynced(d->journal);
	p = d->pending;
	d->pending = NULL;
	d->pending_tail = &d->pending;
	for (; p != NULL; p = next) {
		next = p->next;
		webhook_unavailable(d, p, err);
		webhook_pending_free(p);
	}
}

/* The held records of a batch could not be written: as a failed sync. */
static void
webhook_write_failed(struct hookcastd *d, int err)
{
	metrics_sync(&d->metrics, 0, 0);
	webhook_sync_failed(d, err);
}

/*
 * Take the sync thread's result, if it has one, and answer what it made
 * durable. 0, or -1 when it failed (everything waiting answered 503).
 */
static int
webhook_collect(struct hookcastd *d)
{
	double	secs = 0;
	int	rc, err;

	rc = journal_sync_collect(d->journal, &secs);
	if (rc == -1) {
		err = errno;
		metrics_sync(&d->metrics, secs, 0);
		webhook_sync_failed(d, err);
		return -1;
	}
	if (rc == 1) {
		metrics_sync(&d->metrics, secs, 1);
		webhook_recovered(d);
	}
	webhook_answer_durable(d);
	return 0;
}

/*
 * Group commit: the deliveries written during one turn of the loop are
 * synced together by the journal's sync thread, and more are read and
 * written meanwhile; the next sync begins when this one reports back.
 */
void
webhook_sync(evutil_socket_t fd, short what, void *arg)
{
	struct hookcastd	*d = arg;

	if (d->pending == NULL)
		return;
	switch (journal_sync_begin(d->journal)) {
	case -1:
		webhook_write_failed(d, errno);
		break;
	case 0:
		/* no thread to ask (none started), or nothing left unsynced */
		if (!journal_sync_busy(d->journal))
			webhook_flush(d);
		break;
	}
}

/* The sync thread has finished a sync (its eventfd is readable). */
void
webhook_synced(evutil_socket_t fd, short what, void *arg)
{
	struct hookcastd	*d = arg;

	webhook_collect(d);
	if (d->pending != NULL && journal_sync_begin(d->journal) == -1)
		webhook_write_failed(d, errno);
}

void
webhook_flush(struct hookcastd *d)
{
	int	err;

	if (d->pending == NULL && !journal_sync_busy(d->journal))
		return;
	journal_sync_wait(d->journal);
	if (webhook_collect(d) == -1 || d->pending == NULL)
		return;
	if (webhook_timed_sync(d) == -1) {
		err = errno;
		webhook_sync_failed(d, err);
		return;
	}
	webhook_recovered(d);
	webhook_answer_durable(d);
}

/* Queue p to be answered once its record is durable. */
static void
webhook_pending_add(struct hookcastd *d, struct pending *p)
{
	if (d->pending == NULL)
		event_active(d->sync_ev, EV_TIMEOUT, 0);
	*d->pending_tail = p;
	d->pending_tail = &p->next;
}

static struct pending *
webhook_pending_new(struct http_request *req, char *key, const char *event,
    const char *guid, time_t now)
{
	struct pending	*p = xcalloc(1, sizeof(*p));

	p->req = req;
	p->key = key;
	p->event = xstrdup(event);
	p->guid = xstrdup(guid);
	p->at = now;
	return p;
}

/*
 * Redis has answered a delivery's append. The store takes it when the
 * stream is read (in the stream's order, as every receiver does), so the
 * reply counts no commits kept.
 */
static void
webhook_redis_done(enum redisj_result result, void *arg)
{
	struct pending		*p = arg;
	struct hookcastd	*d = p->d;
	struct webhook_reply	 r = { .event = p->event, .guid = p->guid,
				    .repo = p->res.repo,
				    .branch = webhook_branch(&p->res),
				    .detail = p->res.note, .commits = -1 };

	store_release(d->store, &p->res);
	switch (result) {
	case REDISJ_APPENDED:
		webhook_reply(d, p->req, WEBHOOK_ACCEPTED, &r);
		break;
	case REDISJ_DUPLICATE:
		r.detail = NULL;
		webhook_reply(d, p->req, WEBHOOK_DUPLICATE, &r);
		break;
	case REDISJ_FAILED:
		r.detail = redisj_health(d->redisj);
		webhook_reply(d, p->req, WEBHOOK_UNAVAILABLE, &r);
		break;
	}
	webhook_pending_free(p);
}

/* Journal a valid delivery, then accept it now or after the batch sync. */
static void
webhook_journal(struct hookcastd *d, struct pending *p)
{
	struct buf	rec;
	int		err;

	if (d->redisj != NULL) {
		buf_init(&rec);
		jrecord_write_delivery(&rec, &p->res, p->key, p->at,
		    d->window_start);
		p->d = d;
		redisj_append_delivery(d->redisj, p->key, rec.data, rec.len,
		    webhook_redis_done, p);
		buf_free(&rec);
		return;
	}

	/*
	 * After a reload from batch, those still waiting are settled first:
	 * a failed sync of theirs, heard later, would cut off this record
	 * too, though it had its 200.
	 */
	if (d->conf.journal_fsync != JOURNAL_SYNC_BATCH)
		webhook_flush(d);
	buf_init(&rec);
	buf_reserve(&rec, 1024);
	jrecord_write_delivery(&rec, &p->res, p->key, p->at, d->window_start);
	/* with batch, written with the rest of its batch as the sync begins */
	if ((d->conf.journal_fsync == JOURNAL_SYNC_BATCH ?
	    journal_append_held(d->journal, rec.data, rec.len) :
	    journal_append_bytes(d->journal, rec.data, rec.len)) == -1) {
		err = errno;
		buf_free(&rec);
		if (err == EFBIG) {
			/* not the journal failing: this delivery never fits */
			struct webhook_reply r = { .event = p->event,
			    .guid = p->guid, .repo = p->res.repo,
			    .commits = -1 };
			char detail[160];

			log_warnx("delivery %s: its journal record would be "
			    "over %zu bytes; refused", p->guid,
			    JOURNAL_MAX_RECORD);
			snprintf(detail, sizeof(detail), "%s (%zu bytes)",
			    webhook_outcomes[WEBHOOK_RECORD_TOO_LARGE].message,
			    (size_t)JOURNAL_MAX_RECORD);
			r.detail = detail;
			store_release(d->store, &p->res);
			webhook_reply(d, p->req, WEBHOOK_RECORD_TOO_LARGE, &r);
		} else
			webhook_unavailable(d, p, err);
		webhook_pending_free(p);
		return;
	}
	buf_free(&rec);
	p->end = journal_offset(d->journal);
	if (d->conf.journal_fsync == JOURNAL_SYNC_ALWAYS) {
		if (webhook_timed_sync(d) == -1) {
			err = errno;
			journal_abort_unsynced(d->journal);
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
	webhook_pending_add(d, p);
}

/*
 * May what res keeps go into its repository's day: the allow-list, the
 * repository cap, the day's caps and max_open_bytes (store_admit counts
 * and logs a refusal, and holds the bytes back until store_add or
 * store_release). A refusal is a 4xx before anything is journalled, so GitHub
 * shows it and nothing acknowledged is ever cut.
 */
static enum webhook_outcome
webhook_quota(struct hookcastd *d, struct handler_result *res)
{
	if (res->repo == NULL)
		return WEBHOOK_ACCEPTED;
	switch (store_admit_result(d->store, res,
	    config_repo_allowed(&d->conf, res->repo), d->window_start)) {
	case STORE_QUOTA_OK:
		return WEBHOOK_ACCEPTED;
	case STORE_QUOTA_NOT_ALLOWED:
		return WEBHOOK_REPO_NOT_ALLOWED;
	case STORE_QUOTA_REPOSITORIES:
		return WEBHOOK_REPO_LIMIT;
	case STORE_QUOTA_BYTES:
		return WEBHOOK_BYTES_LIMIT;
	default:
		return WEBHOOK_DAY_LIMIT;
	}
}

/*
 * The delivery's outcome from its body; WEBHOOK_ACCEPTED when it is to
 * be journalled (res filled). *cause (new) may replace the message.
 */
static enum webhook_outcome
webhook_decide(struct hookcastd *d, struct http_request *req,
    const char *event, const char *guid, time_t now,
    struct handler_result *res, char **cause)
{
	const struct handler_entry	*h;
	enum webhook_outcome		 o;
	const char			*text = req->body;
	struct store_repo		*known;
	char				*form = NULL, *key;
	size_t				 len = req->bodylen;
	int				 sr;

	if (d->conf.nsecrets > 0) {
		sr = signature_verify(http_header(req, "X-Hub-Signature-256"),
		    req->body, req->bodylen,
		    (const char *const *)d->conf.secrets, d->conf.secretlens,
		    d->conf.nsecrets);
		if (sr != SIGNATURE_OK) {
			*cause = xstrdup(webhook_signature_why(sr));
			return WEBHOOK_BAD_SIGNATURE;
		}
	}
	key = store_key(http_header(req, "X-GitHub-Hook-ID"), guid);
	o = store_seen(d->store, key) ? WEBHOOK_DUPLICATE : WEBHOOK_ACCEPTED;
	free(key);
	h = handler_find(event);
	if (o == WEBHOOK_ACCEPTED && h == NULL)
		return WEBHOOK_IGNORED_EVENT;	/* no need to parse it */

	if (h != NULL &&
	    webhook_content_type(http_header(req, "Content-Type")) == 1) {
		if (form_field(req->body, req->bodylen, "payload", &form,
		    &len, cause) == -1)
			return o == WEBHOOK_DUPLICATE ? o : WEBHOOK_BAD_FORM;
		text = form;
	}
	if (o == WEBHOOK_DUPLICATE) {
		/* parsed only for its repository, which its log line names */
		if (h != NULL && intake_parse(h, text, len, now, res,
		    cause) != INTAKE_OK) {
			free(*cause);
			*cause = NULL;
		}
		free(form);
		return o;
	}
	switch (intake_parse(h, text, len, now, res, cause)) {
	case INTAKE_OK:
		o = WEBHOOK_ACCEPTED;
		break;
	case INTAKE_NOT_JSON:
		o = WEBHOOK_BAD_JSON;
		break;
	default:
		o = WEBHOOK_BAD_PAYLOAD;
		break;
	}
	free(form);
	if (o != WEBHOOK_ACCEPTED)
		return o;

	known = res->repo != NULL ? store_repo(d->store, res->repo, 0, 0) :
	    NULL;
	intake_untracked(&d->conf, res, known != NULL ?
	    known->day->default_branch : NULL);
	if (res->ignored) {
		*cause = res->note;
		res->note = NULL;
		return WEBHOOK_IGNORED;
	}
	store_drop_known(d->store, res);
	return webhook_quota(d, res);
}

/* The webhook proper, once the body is in. */
static void
webhook_delivery(struct hookcastd *d, struct http_request *req)
{
	struct handler_result	 res;
	struct webhook_reply	 r = { .commits = -1 };
	struct pending		*p;
	enum webhook_outcome	 o;
	char			*cause = NULL, *key;
	time_t			 now = time(NULL);

	memset(&res, 0, sizeof(res));
	/* both are tokens: webhook_head refused anything else */
	r.event = http_header(req, "X-GitHub-Event");
	r.guid = http_header(req, "X-GitHub-Delivery");
	d->metrics.bytes_received += req->bodylen;

	o = webhook_decide(d, req, r.event, r.guid, now, &res, &cause);
	if (o != WEBHOOK_ACCEPTED) {
		r.repo = res.repo;
		r.branch = webhook_branch(&res);
		r.detail = cause;
		webhook_reply(d, req, o, &r);
		goto done;
	}
	key = store_key(http_header(req, "X-GitHub-Hook-ID"), r.guid);
	p = webhook_pending_new(req, key, r.event, r.guid, now);
	if (webhook_pending_has(d, key)) {
		/* its original is in this batch: answer once it is durable */
		p->duplicate = 1;
		p->repo = xstrdup_null(res.repo);
		p->end = journal_offset(d->journal);
		store_release(d->store, &res);
		webhook_pending_add(d, p);
		goto done;
	}
	p->res = res;
	memset(&res, 0, sizeof(res));
	webhook_journal(d, p);
done:
	handler_result_clear(&res);
	free(cause);
}

/*
 * 200 {"ok":true} while a delivery would be made durable and answered;
 * else 503 and why, so a load balancer or a probe sees what GitHub would.
 */
static void
webhook_healthz(struct hookcastd *d, struct http_request *req)
{
	struct buf	 b;
	const char	*why;
	char		 tmp[512];

	buf_init(&b);
	if ((why = hookcastd_health(d, tmp, sizeof(tmp))) == NULL)
		buf_puts(&b, "{\"ok\":true}");
	else {
		buf_puts(&b, "{\"ok\":false,\"error\":");
		buf_json_string(&b, why);
		buf_putc(&b, '}');
	}
	http_reply(req, why == NULL ? 200 : 503, "application/json",
	    buf_str(&b), b.len);
	buf_free(&b);
}

/*
 * GET /: one line saying what answers here and where its documentation
 * is, for whoever opens the webhook URL's host in a browser.
 */
static void
webhook_landing(struct http_request *req)
{
	static const char	text[] = "hookcastd " HOOKCAST_VERSION
	    ": receives GitHub webhooks and drafts daily episodes; "
	    "see hookcastd(8) (man 8 hookcastd) and the project's README\n";

	http_reply(req, 200, "text/plain; charset=utf-8", text,
	    sizeof(text) - 1);
}

void
webhook_request(struct http_request *req, void *arg)
{
	struct hookcastd	*d = arg;

	if (strcmp(req->path, "/healthz") == 0) {
		webhook_healthz(d, req);
		return;
	}
	if (strcmp(req->path, "/") == 0) {
		webhook_landing(req);
		return;
	}
	if (strcmp(req->path, "/metrics") == 0 && d->conf.metrics_public) {
		webhook_metrics(d, req);
		return;
	}
	if (serve_match(&webhook_archive, req->path) && strcmp(req->path,
	    d->conf.webhook_path) != 0) {
		/* serve_episodes was on at the head (or a reload turned it off) */
		if (d->conf.serve_episodes)
			serve_request(&webhook_archive, d->conf.output_dir,
			    req);
		else
			http_reply_error(req, 404, "no such path");
		return;
	}
	webhook_delivery(d, req);
}

/* The metrics listener: /metrics or /healthz (webhook_metrics_head). */
void
webhook_metrics_request(struct http_request *req, void *arg)
{
	struct hookcastd	*d = arg;

	if (strcmp(req->path, "/healthz") == 0)
		webhook_healthz(d, req);
	else
		webhook_metrics(d, req);
}
