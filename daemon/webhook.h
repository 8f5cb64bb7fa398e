/* Webhook intake and the small GET endpoints, as HTTP server callbacks. */
#ifndef HOOKCAST_WEBHOOK_H
#define HOOKCAST_WEBHOOK_H

struct hookcastd;
struct http_request;
struct serve_site;

/*
 * How a delivery ends. Each has one row in webhook.c's table: the HTTP
 * status, the /metrics outcome and the reply's message.
 */
enum webhook_outcome {
	WEBHOOK_ACCEPTED,	/* 200, journalled */
	WEBHOOK_DUPLICATE,	/* 200, accepted before */
	WEBHOOK_IGNORED_EVENT,	/* 202, an event we don't keep */
	WEBHOOK_IGNORED,	/* 202, nothing in it to keep */
	WEBHOOK_NOT_POST,	/* 405 */
	WEBHOOK_TOO_LARGE,	/* 413, from Content-Length */
	WEBHOOK_NO_EVENT,	/* 400 */
	WEBHOOK_BAD_EVENT,	/* 400, X-GitHub-Event not a token */
	WEBHOOK_CONTENT_TYPE,	/* 415 */
	WEBHOOK_BAD_DELIVERY,	/* 400, X-GitHub-Delivery missing or odd */
	WEBHOOK_BAD_HOOK_ID,	/* 400, X-GitHub-Hook-ID odd */
	WEBHOOK_NO_SIGNATURE,	/* 401 */
	WEBHOOK_BAD_SIGNATURE,	/* 401 */
	WEBHOOK_BAD_FORM,	/* 400, a form body without its payload */
	WEBHOOK_BAD_JSON,	/* 400, not a JSON object */
	WEBHOOK_BAD_PAYLOAD,	/* 400, the handler refuses it */
	WEBHOOK_UNAVAILABLE,	/* 503, the journal could not take it */
	WEBHOOK_RECORD_TOO_LARGE, /* 413, its journal record would be */
	WEBHOOK_PR_TOO_LARGE,	/* 413, past max_body_pull_request */
	WEBHOOK_REPO_NOT_ALLOWED, /* 403, not in repositories */
	WEBHOOK_REPO_LIMIT,	/* 429, past max_repositories */
	WEBHOOK_DAY_LIMIT,	/* 429, past a repository's day caps */
	WEBHOOK_BYTES_LIMIT,	/* 429, past max_open_bytes */
	WEBHOOK_STARTING,	/* 503, the journal is being replayed */
	WEBHOOK_OUTCOME_MAX
};

/* What a reply says besides its outcome; every field may be NULL. */
struct webhook_reply {
	const char	*event;
	const char	*guid;
	const char	*repo;
	const char	*branch;	/* logged, not sent */
	const char	*detail;	/* replaces the outcome's message */
	long long	 commits;	/* -1: not said */
};

/* The HTTP status of an outcome. */
int	 webhook_outcome_status(enum webhook_outcome);

/*
 * The archive as served with serve_episodes: GET and HEAD of
 * /episodes/OWNER/NAME/FILE from output_dir, OWNER/NAME a repository's
 * folder and FILE its feed or an episode's files.
 */
extern const struct serve_site webhook_archive;

/* Head checks (route, method, size, headers, content type, signature). */
int	 webhook_head(struct http_request *, void *hookcastd);
/*
 * A whole request: a delivery, /healthz, or /metrics when metrics_public
 * is set.
 */
void	 webhook_request(struct http_request *, void *hookcastd);
/* The metrics listener's callbacks: GET /metrics and /healthz only. */
int	 webhook_metrics_head(struct http_request *, void *hookcastd);
void	 webhook_metrics_request(struct http_request *, void *hookcastd);

/*
 * Group commit (journal_fsync=batch). webhook_sync: the callback of the
 * event activated when a delivery starts waiting, asking the journal's
 * sync thread for a sync. webhook_synced: the callback of the journal's
 * eventfd, answering what the finished sync made durable (503 when it
 * failed) and asking for the next. webhook_flush: the same at once,
 * blocking: waits for the thread and syncs what is left, so that no
 * delivery is waiting when it returns (before a hand-off, a compaction).
 */
void	 webhook_sync(int fd, short what, void *hookcastd);
void	 webhook_synced(int fd, short what, void *hookcastd);
void	 webhook_flush(struct hookcastd *);

#endif
