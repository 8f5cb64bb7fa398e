/*
 * Sinks: where an emitted episode is delivered. One file per kind of
 * destination (http, slack, exec), each one entry of the table in
 * sinks.c that turns an episode into a request body, and a sink's
 * configured section (struct sink_conf). The outbox, the retries and the
 * transfers live in the outbox (publish/outbox.c); here are plain
 * functions over plain strings, with no loop in them.
 */
#ifndef HOOKCAST_SINK_H
#define HOOKCAST_SINK_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <jansson.h>

#include "strlist.h"

enum sink_type {
	SINK_HTTP,
	SINK_SLACK,
	SINK_EXEC,
};

/*
 * Attempts of one sink at once (max_running), by default and at most: the
 * rest wait their turn. A day's flush of thirty repositories to an exec
 * sink was thirty processes, and forks failed under the unit's TasksMax.
 */
#define SINK_MAX_RUNNING	4
#define SINK_MAX_RUNNING_MAX	256

/* A [sink "NAME"] section: where emitted episodes are delivered. */
struct sink_conf {
	char		*name;		/* [A-Za-z0-9_.-], a folder of the outbox */
	int		 type;		/* enum sink_type; -1 until set */
	struct strlist	 repositories;	/* globs; with shows empty: all */
	struct strlist	 shows;		/* the slugs of the shows it takes */
	char		*url;		/* http, slack */
	char		*secret_file;	/* http: HMAC key of the body */
	char		*token_file;	/* http: bearer token, optional */
	char		*secret;	/* read from secret_file */
	size_t		 secretlen;
	char		*token;		/* read from token_file */
	struct strlist	 command;	/* exec: the program and its arguments */
	int		 max_running;	/* attempts at once; the rest queue */
	char		*where;		/* "file:line" of its first key */
	char		*secret_where;	/* "file:line: secret_file" */
	char		*token_where;	/* "file:line: token_file" */
};

/* An episode as written, for a sink's builder. All borrowed. */
struct sink_episode {
	const char	*json_text;	/* the .json file's bytes */
	size_t		 json_len;
	const json_t	*json;		/* the same, parsed */
	const char	*link;		/* audio or transcript URL, or NULL */
	int		 link_is_audio;
};

/* A body to send: body is new (the caller frees it). */
struct sink_request {
	char		*body;
	size_t		 len;
	const char	*content_type;	/* static */
};

struct sink_kind {
	const char	*name;
	enum sink_type	 type;
	/* the request for an episode; NULL for kinds that send no body */
	int		(*build)(const struct sink_episode *,
			    struct sink_request *, char **cause);
};

/* sinks.c */
/* The kind named name, or NULL. */
const struct sink_kind *sink_kind_find(const char *name);
/* The kind of a type (never NULL). */
const struct sink_kind *sink_kind_of(enum sink_type);
/* "http, slack, exec", for error messages. Static. */
const char	*sink_kind_names(void);
/* The sink named name among the n of v, or NULL. */
const struct sink_conf *sink_find(const struct sink_conf *v, size_t n,
		    const char *name);
/*
 * Does s take the episodes of repo: every one when it names neither
 * repositories nor shows; else a repository its globs match (any case),
 * or a show's ("shows/SLUG") whose slug it names.
 */
int		 sink_matches(const struct sink_conf *s, const char *repo);
/*
 * What the http and slack sinks send in place of an episode whose JSON is
 * over cap bytes (bytes: its size), new: {"summary": true, "repository",
 * "date", "title", "bytes", "limit", "links": {"json", "markdown",
 * "audio" (when audio)}}, the links under base (the episode's public URL
 * without ".json"; no links when NULL).
 */
json_t		*sink_summary(const char *repo, const char *date,
		    const char *title, long long bytes, long long cap,
		    const char *base, int audio);

/* http.c */
extern const struct sink_kind sink_http;
/*
 * What X-Hookcast-Signature-V2 signs (new, *outlen bytes and a NUL):
 * TIMESTAMP "." KEY "." BODY, the attempt's X-Hookcast-Timestamp (decimal
 * seconds since the epoch), the Idempotency-Key (32 hex digits) and the
 * body as sent. Neither of the first two holds a ".": the text splits
 * one way only. A receiver that checks it, refuses a timestamp far from
 * its clock and remembers the keys it took within that window refuses a
 * replayed request.
 */
char		*http_signed_text(const char *timestamp, const char *key,
		    const char *body, size_t len, size_t *outlen);

/* exec.c */
extern const struct sink_kind sink_exec;

/* slack.c */
extern const struct sink_kind sink_slack;

/* Slack's documented limits on a message, and our budget under them. */
#define SLACK_MAX_BLOCKS	50	/* blocks in a message */
#define SLACK_MAX_SECTION	3000	/* characters of a section's text */
#define SLACK_MAX_HEADER	150	/* characters of a header's text */
/*
 * Characters of transcript over all blocks. Slack refuses a message whose
 * blocks hold too much text in all (msg_blocks_too_long) at a total it
 * does not document, seen near 13,000; we stay under it.
 */
#define SLACK_MAX_TRANSCRIPT	12000
#define SLACK_MAX_TEXT		3000	/* the notification's fallback text */

/*
 * The Slack message (JSON, new) of an episode: text, then blocks: a
 * header with the title, a section with the description, the transcript
 * in sections cut at paragraphs or sentences within the limits above (a
 * note when it was cut short), and the link when there is one. 0, or -1
 * with *cause (new) when the episode has no title.
 */
int		 slack_message(const json_t *episode, const char *link,
		    int link_is_audio, char **out, char **cause);
/* s (len bytes) with &, < and > escaped for mrkdwn, appended to a new string. */
char		*slack_escape(const char *s, size_t len);

/* retry.c */
/*
 * Milliseconds to wait before attempt number attempt (1 for the first
 * retry): min_s doubled per attempt, at most max_s, then a random point
 * of its upper half (rnd: any random number), so that many publications
 * failing at once do not come back at once.
 */
int64_t		 retry_backoff(unsigned attempt, int min_s, int max_s,
		    uint32_t rnd);
/*
 * A Retry-After value (delay-seconds or an HTTP date, as RFC 9110 has
 * them) into seconds from now (0 for a date past). 0, or -1 when it is
 * neither (or longer than RETRY_AFTER_MAX).
 */
#define RETRY_AFTER_MAX	(7 * 86400)
int		 retry_after_parse(const char *value, time_t now,
		    long long *seconds);

#endif
