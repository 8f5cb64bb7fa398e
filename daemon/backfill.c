/*
 * Backfill: list a hook's recent deliveries through GitHub's REST API and
 * ask for the redelivery of those that never reached us, with libcurl's
 * multi interface driven by the daemon's libevent loop.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <curl/curl.h>
#include <event2/event.h>
#include <jansson.h>

#include "backfill.h"
#include "buf.h"
#include "curlev.h"
#include "daemon.h"
#include "handler.h"
#include "log.h"
#include "repo.h"
#include "store.h"
#include "xmalloc.h"

/* GitHub redelivers only within three days; keep an hour's margin. */
#define BACKFILL_WINDOW		(3 * 86400)
#define BACKFILL_MARGIN		3600
#define BACKFILL_PER_PAGE	100
#define BACKFILL_MAX_PAGES	20
#define BACKFILL_MAX_ENTRIES	(BACKFILL_MAX_PAGES * BACKFILL_PER_PAGE)
#define BACKFILL_MAX_BODY	(16 * 1024 * 1024)
#define BACKFILL_MAX_LINK	8192
#define BACKFILL_MAX_GUID	128
/* GitHub asks for a second between mutating requests. */
#define BACKFILL_POST_INTERVAL	1
/* A redelivery asked for is not asked for again for this long. */
#define BACKFILL_RECENT		600
#define BACKFILL_MAX_RECENT	4096
/* A hook id is a positive 64-bit integer. */
#define BACKFILL_MAX_ID_DIGITS	19
/* Failed passes space the next ones out, doubling, up to an hour. */
#define BACKFILL_MAX_BACKOFF	3600

enum backfill_step {
	BACKFILL_START,		/* list the first page next */
	BACKFILL_LIST,		/* a page of deliveries is in flight */
	BACKFILL_POST,		/* redelivery requests, one at a time */
};

/* One attempt, as listed. */
struct backfill_entry {
	char		*guid;
	long long	 id;
	time_t		 at;
	int		 ok;		/* settled: 2xx, or a final refusal */
	int		 original;	/* not itself a redelivery */
	int		 kept;		/* an event hookcast keeps */
};

/* A delivery to ask GitHub for again. */
struct backfill_todo {
	char		*guid;
	long long	 id;
	time_t		 at;
};

struct backfill_hook {
	struct backfill		*bf;
	char			*spec;		/* "owner/repo:id" */
	char			*repo;
	char			*id;
	struct event		*timer;		/* the pass's next step */
	int			 running;	/* a pass scheduled or under way */
	int			 queued;	/* another after this one */
	enum backfill_step	 step;
	uint64_t		 last_start;	/* ms, monotonic; 0: never */
	int			 failures;	/* failed passes in a row */

	/* the pass */
	time_t			 cutoff;
	int			 pages;
	char			*cursor;
	size_t			 listed;
	struct backfill_entry	*ents;
	size_t			 nents;
	struct backfill_todo	*todo;
	size_t			 ntodo;
	size_t			 next;
	size_t			 requested;
	int			 failed;

	/* the transfer in flight */
	CURL			*easy;
	struct curl_slist	*headers;
	struct buf		 body;
	int			 overflow;
	char			*link;
	char			 errbuf[CURL_ERROR_SIZE];
};

struct backfill_recent {
	char			*key;
	time_t			 at;
};

struct backfill {
	struct hookcastd	*d;
	struct curlev		*curl;
	struct backfill_hook	**hooks;
	size_t			 nhooks;
	struct backfill_recent	*recent;
	size_t			 nrecent;
	uint64_t		 passes;
	uint64_t		 redeliveries;
	uint64_t		 failures;
};

static void	backfill_finish(struct backfill_hook *);
static void	backfill_list(struct backfill_hook *);
static void	backfill_schedule(struct backfill_hook *);

/* -- a transfer's response ------------------------------------------- */

static size_t
backfill_write(char *ptr, size_t size, size_t nmemb, void *arg)
{
	struct backfill_hook	*h = arg;
	size_t			 n = size * nmemb;

	if (n > BACKFILL_MAX_BODY - h->body.len) {
		h->overflow = 1;
		return 0;
	}
	buf_append(&h->body, ptr, n);
	return n;
}

/* Keep the Link header of the final response (for the next page). */
static size_t
backfill_header(char *ptr, size_t size, size_t nmemb, void *arg)
{
	struct backfill_hook	*h = arg;
	size_t			 n = size * nmemb;

	if (n >= 5 && strncmp(ptr, "HTTP/", 5) == 0) {
		free(h->link);
		h->link = NULL;
	} else if (n > 5 && n <= BACKFILL_MAX_LINK &&
	    strncasecmp(ptr, "Link:", 5) == 0) {
		free(h->link);
		h->link = xstrndup(ptr + 5, n - 5);
	}
	return n;
}

/* -- helpers --------------------------------------------------------- */

static void
backfill_recent_prune(struct backfill *bf, time_t now)
{
	size_t	n = 0;

	while (n < bf->nrecent && bf->recent[n].at < now - BACKFILL_RECENT)
		free(bf->recent[n++].key);
	if (n > 0) {
		memmove(bf->recent, bf->recent + n,
		    (bf->nrecent - n) * sizeof(*bf->recent));
		bf->nrecent -= n;
	}
}

static int
backfill_recent_has(struct backfill *bf, const char *key)
{
	size_t	i;

	backfill_recent_prune(bf, time(NULL));
	for (i = 0; i < bf->nrecent; i++)
		if (strcmp(bf->recent[i].key, key) == 0)
			return 1;
	return 0;
}

/* Remember a requested redelivery (steals key). */
static void
backfill_recent_add(struct backfill *bf, char *key)
{
	if (bf->nrecent == BACKFILL_MAX_RECENT) {
		free(bf->recent[0].key);
		memmove(bf->recent, bf->recent + 1,
		    (bf->nrecent - 1) * sizeof(*bf->recent));
		bf->nrecent--;
	}
	bf->recent = xreallocarray(bf->recent, bf->nrecent + 1,
	    sizeof(*bf->recent));
	bf->recent[bf->nrecent].key = key;
	bf->recent[bf->nrecent].at = time(NULL);
	bf->nrecent++;
}

/* Percent-encode all but RFC 3986's unreserved characters (new). */
static char *
backfill_escape(const char *s, size_t len)
{
	static const char	 hex[] = "0123456789ABCDEF";
	struct buf		 b;
	size_t			 i;
	unsigned char		 c;

	buf_init(&b);
	for (i = 0; i < len; i++) {
		c = (unsigned char)s[i];
		if (isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~')
			buf_putc(&b, (char)c);
		else {
			buf_putc(&b, '%');
			buf_putc(&b, hex[c >> 4]);
			buf_putc(&b, hex[c & 15]);
		}
	}
	return buf_steal(&b);
}

/* {api}/repos/{owner}/{repo}/hooks/{id}{tail} (new). */
static char *
backfill_url(struct backfill_hook *h, const char *tail)
{
	const char	*api = h->bf->d->conf.github_api_url;
	const char	*slash = strchr(h->repo, '/');
	size_t		 n = strlen(api);
	char		*owner, *name, *url;

	while (n > 0 && api[n - 1] == '/')
		n--;
	owner = backfill_escape(h->repo, (size_t)(slash - h->repo));
	name = backfill_escape(slash + 1, strlen(slash + 1));
	xasprintf(&url, "%.*s/repos/%s/%s/hooks/%s%s", (int)n, api, owner,
	    name, h->id, tail);
	free(owner);
	free(name);
	return url;
}

/*
 * The cursor of the rel="next" link in a Link header, or NULL (new). Only
 * the cursor is taken: the next request goes to the configured API, never
 * to a host the header names, so the token goes nowhere else.
 */
static char *
backfill_next_cursor(const char *link)
{
	const char	*p = link, *lt, *gt, *end, *c, *v;
	size_t		 n, i;
	char		*params;
	int		 next;

	if (link == NULL)
		return NULL;
	while ((lt = strchr(p, '<')) != NULL) {
		if ((gt = strchr(lt, '>')) == NULL)
			return NULL;
		end = gt + strcspn(gt, ",");
		params = xstrndup(gt + 1, (size_t)(end - gt - 1));
		next = strstr(params, "rel=\"next\"") != NULL ||
		    strstr(params, "rel=next") != NULL;
		free(params);
		p = *end != '\0' ? end + 1 : end;
		if (!next)
			continue;
		for (c = lt + 1; c < gt; c++) {
			if ((*c != '?' && *c != '&') ||
			    (size_t)(gt - c) <= strlen("cursor=") ||
			    strncmp(c + 1, "cursor=", strlen("cursor=")) != 0)
				continue;
			v = c + 1 + strlen("cursor=");
			for (n = 0; v + n < gt && v[n] != '&' && v[n] != '#';
			    n++)
				;
			if (n == 0 || n > 1024)
				return NULL;
			for (i = 0; i < n; i++)
				if (!isalnum((unsigned char)v[i]) &&
				    strchr("%-._~+=", v[i]) == NULL)
					return NULL;
			return xstrndup(v, n);
		}
		return NULL;
	}
	return NULL;
}

/* ISO 8601 ("2026-03-02T10:15:00Z", "...+02:00") to a time_t. 0 or -1. */
static int
backfill_parse_time(const char *s, time_t *out)
{
	struct tm	 tm;
	const char	*p;
	int		 n = 0, hh, mm;
	long		 off = 0;

	memset(&tm, 0, sizeof(tm));
	if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon,
	    &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &n) != 6 ||
	    n == 0)
		return -1;
	p = s + n;
	if (*p == '.')
		for (p++; isdigit((unsigned char)*p); p++)
			;
	if (*p == 'Z')
		p++;
	else if ((*p == '+' || *p == '-') &&
	    sscanf(p + 1, "%2d:%2d", &hh, &mm) == 2 && strlen(p) >= 6) {
		off = (hh * 3600L + mm * 60L) * (*p == '+' ? 1 : -1);
		p += 6;
	} else
		return -1;
	if (*p != '\0' || tm.tm_year < 1970 || tm.tm_mon < 1 ||
	    tm.tm_mon > 12 || tm.tm_mday < 1 || tm.tm_mday > 31 ||
	    tm.tm_hour > 23 || tm.tm_min > 59 || tm.tm_sec > 60)
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	*out = timegm(&tm) - off;
	return 0;
}

/* -- a pass ---------------------------------------------------------- */

static void
backfill_pass_clear(struct backfill_hook *h)
{
	size_t	i;

	for (i = 0; i < h->nents; i++)
		free(h->ents[i].guid);
	free(h->ents);
	h->ents = NULL;
	h->nents = 0;
	for (i = 0; i < h->ntodo; i++)
		free(h->todo[i].guid);
	free(h->todo);
	h->todo = NULL;
	h->ntodo = h->next = 0;
	free(h->cursor);
	h->cursor = NULL;
	h->pages = 0;
	h->listed = h->requested = 0;
	h->failed = 0;
}

static void
backfill_fail(struct backfill_hook *h, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* An API error: log it, count it, end the pass. */
static void
backfill_fail(struct backfill_hook *h, const char *fmt, ...)
{
	va_list	 ap;
	char	*s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	log_warnx("backfill %s hook %s: %s", h->repo, h->id,
	    s != NULL ? s : "API request failed");
	free(s);
	h->bf->failures++;
	h->failed = 1;
	backfill_finish(h);
}

static struct curl_slist *
backfill_header_add(struct curl_slist *l, const char *line, int *err)
{
	struct curl_slist	*n;

	if (*err)
		return l;
	if ((n = curl_slist_append(l, line)) == NULL) {
		*err = 1;
		return l;
	}
	return n;
}

/* Start one API request for the hook (GET, or an empty POST). 0 or -1. */
static int
backfill_send(struct backfill_hook *h, const char *url, int post)
{
	const struct config	*conf = &h->bf->d->conf;
	char			*auth = NULL;
	int			 err = 0;

	buf_reset(&h->body);
	h->overflow = 0;
	free(h->link);
	h->link = NULL;
	h->errbuf[0] = '\0';
	h->headers = backfill_header_add(NULL,
	    "Accept: application/vnd.github+json", &err);
	h->headers = backfill_header_add(h->headers,
	    "X-GitHub-Api-Version: 2022-11-28", &err);
	if (conf->github_token != NULL) {
		xasprintf(&auth, "Authorization: Bearer %s",
		    conf->github_token);
		h->headers = backfill_header_add(h->headers, auth, &err);
		explicit_bzero(auth, strlen(auth));
		free(auth);
	}
	if (err ||
	    (h->easy = curlev_easy(url, h->headers, h->errbuf, h)) == NULL)
		goto fail;
	curl_easy_setopt(h->easy, CURLOPT_TIMEOUT, 30L);
	curl_easy_setopt(h->easy, CURLOPT_CONNECTTIMEOUT, 10L);
	curl_easy_setopt(h->easy, CURLOPT_ACCEPT_ENCODING, "");
	curl_easy_setopt(h->easy, CURLOPT_WRITEFUNCTION, backfill_write);
	curl_easy_setopt(h->easy, CURLOPT_WRITEDATA, h);
	curl_easy_setopt(h->easy, CURLOPT_HEADERFUNCTION, backfill_header);
	curl_easy_setopt(h->easy, CURLOPT_HEADERDATA, h);
	if (post) {
		curl_easy_setopt(h->easy, CURLOPT_POST, 1L);
		curl_easy_setopt(h->easy, CURLOPT_POSTFIELDS, "");
		curl_easy_setopt(h->easy, CURLOPT_POSTFIELDSIZE, 0L);
	}
	if (curlev_add(h->bf->curl, h->easy) == -1)
		goto fail;
	log_debug("backfill: %s %s", post ? "POST" : "GET", url);
	return 0;
fail:
	curl_easy_cleanup(h->easy);
	h->easy = NULL;
	curl_slist_free_all(h->headers);
	h->headers = NULL;
	return -1;
}

static void
backfill_list(struct backfill_hook *h)
{
	char	*tail, *url;
	int	 rc;

	if (h->cursor != NULL)
		xasprintf(&tail, "/deliveries?per_page=%d&cursor=%s",
		    BACKFILL_PER_PAGE, h->cursor);
	else
		xasprintf(&tail, "/deliveries?per_page=%d", BACKFILL_PER_PAGE);
	url = backfill_url(h, tail);
	h->step = BACKFILL_LIST;
	h->pages++;
	rc = backfill_send(h, url, 0);
	free(tail);
	free(url);
	if (rc == -1)
		backfill_fail(h, "GET deliveries: cannot start the request");
}

static void
backfill_post(struct backfill_hook *h)
{
	char	*tail, *url;
	int	 rc;

	xasprintf(&tail, "/deliveries/%lld/attempts", h->todo[h->next].id);
	url = backfill_url(h, tail);
	h->step = BACKFILL_POST;
	rc = backfill_send(h, url, 1);
	free(tail);
	free(url);
	if (rc == -1)
		backfill_fail(h, "POST attempts: cannot start the request");
}

static int
backfill_entry_cmp(const void *a, const void *b)
{
	const struct backfill_entry	*x = a, *y = b;
	int				 c = strcmp(x->guid, y->guid);

	if (c != 0)
		return c;
	return x->at < y->at ? -1 : x->at > y->at;
}

static int
backfill_todo_cmp(const void *a, const void *b)
{
	const struct backfill_todo	*x = a, *y = b;

	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * Did our answer settle a delivery? A 2xx did; so did a refusal of its
 * content (400, 404, 413, 415...), which a redelivery would only repeat.
 * Not settled: no answer (0), 5xx, and 401/408/429, which a fixed secret,
 * a quicker client or a later moment can change.
 */
static int
backfill_settled(long status)
{
	if (status >= 200 && status <= 299)
		return 1;
	if (status >= 400 && status <= 499)
		return status != 401 && status != 408 && status != 429;
	return 0;
}

/*
 * Pick what to redeliver, per GUID over all its attempts: none settled, the original is within the window, an event we keep, and not
 * already accepted (or requested a moment ago).
 */
static void
backfill_decide(struct backfill_hook *h)
{
	struct backfill		*bf = h->bf;
	struct backfill_entry	*e = h->ents, *orig;
	size_t			 i, j;
	int			 ok, kept;
	char			*key;

	if (h->nents > 1)
		qsort(e, h->nents, sizeof(*e), backfill_entry_cmp);
	for (i = 0; i < h->nents; i = j) {
		ok = 0;
		kept = 1;
		orig = NULL;
		for (j = i; j < h->nents && strcmp(e[j].guid, e[i].guid) == 0;
		    j++) {
			ok |= e[j].ok;
			kept &= e[j].kept;
			if (e[j].original && orig == NULL)
				orig = &e[j];
		}
		if (ok || !kept || orig == NULL)
			continue;
		key = store_key(h->id, orig->guid);
		if (store_seen(bf->d->store, key) ||
		    backfill_recent_has(bf, key)) {
			free(key);
			continue;
		}
		free(key);
		h->todo = xreallocarray(h->todo, h->ntodo + 1,
		    sizeof(*h->todo));
		h->todo[h->ntodo].guid = xstrdup(orig->guid);
		h->todo[h->ntodo].id = orig->id;
		h->todo[h->ntodo].at = orig->at;
		h->ntodo++;
	}
	/* oldest first, so pushes come back in order where they can */
	if (h->ntodo > 1)
		qsort(h->todo, h->ntodo, sizeof(*h->todo), backfill_todo_cmp);
	if (h->ntodo == 0)
		backfill_finish(h);
	else
		backfill_post(h);
}

/* A page of deliveries came back. */
static void
backfill_listed(struct backfill_hook *h)
{
	json_t			*arr, *it, *sc;
	json_error_t		 jerr;
	const char		*guid, *when, *event;
	struct backfill_entry	*e;
	time_t			 at;
	size_t			 i;
	int			 older = 0;
	char			*cursor;

	arr = json_loadb(buf_str(&h->body), h->body.len, 0, &jerr);
	if (arr == NULL || !json_is_array(arr)) {
		json_decref(arr);
		backfill_fail(h, "GET deliveries: bad JSON: %s", arr == NULL ?
		    jerr.text : "not an array");
		return;
	}
	h->listed += json_array_size(arr);
	json_array_foreach(arr, i, it) {
		guid = json_string_value(json_object_get(it, "guid"));
		when = json_string_value(json_object_get(it, "delivered_at"));
		if (guid == NULL || *guid == '\0' ||
		    strlen(guid) > BACKFILL_MAX_GUID ||
		    !json_is_integer(json_object_get(it, "id")) ||
		    when == NULL || backfill_parse_time(when, &at) == -1) {
			log_debug("backfill %s hook %s: delivery %zu of page "
			    "%d lacks a guid, id or delivered_at", h->repo,
			    h->id, i, h->pages);
			continue;
		}
		if (at < h->cutoff || h->nents == BACKFILL_MAX_ENTRIES) {
			older = 1;
			break;
		}
		h->ents = xreallocarray(h->ents, h->nents + 1,
		    sizeof(*h->ents));
		e = &h->ents[h->nents++];
		e->guid = xstrdup(guid);
		e->id = (long long)json_integer_value(json_object_get(it,
		    "id"));
		e->at = at;
		sc = json_object_get(it, "status_code");
		e->ok = json_is_integer(sc) &&
		    backfill_settled((long)json_integer_value(sc));
		e->original = !json_is_true(json_object_get(it, "redelivery"));
		event = json_string_value(json_object_get(it, "event"));
		e->kept = event == NULL || handler_find(event) != NULL;
	}
	json_decref(arr);
	if (!older && (cursor = backfill_next_cursor(h->link)) != NULL) {
		if (h->pages < BACKFILL_MAX_PAGES) {
			free(h->cursor);
			h->cursor = cursor;
			backfill_list(h);
			return;
		}
		free(cursor);
		log_info("backfill %s hook %s: stopping after %d pages",
		    h->repo, h->id, h->pages);
	}
	backfill_decide(h);
}

/* A redelivery was accepted by GitHub: the next one, after a pause. */
static void
backfill_posted(struct backfill_hook *h)
{
	struct backfill_todo	*t = &h->todo[h->next++];
	struct timeval		 tv = { BACKFILL_POST_INTERVAL, 0 };
	char			*esc;

	h->requested++;
	h->bf->redeliveries++;
	backfill_recent_add(h->bf, store_key(h->id, t->guid));
	esc = log_escape(t->guid, BACKFILL_MAX_GUID);
	log_info("backfill %s hook %s: redelivery of %s (id %lld) requested",
	    h->repo, h->id, esc, t->id);
	free(esc);
	if (h->next < h->ntodo)
		evtimer_add(h->timer, &tv);
	else
		backfill_finish(h);
}

/* The transfer in flight of the hook arg ended with rc and status. */
static void
backfill_done(void *arg, CURLcode rc, long status)
{
	struct backfill_hook	*h = arg;
	const char		*what = h->step == BACKFILL_LIST ?
				    "GET deliveries" : "POST attempts";
	json_t			*j;
	char			*msg = NULL;

	curl_easy_cleanup(h->easy);
	h->easy = NULL;
	curl_slist_free_all(h->headers);
	h->headers = NULL;
	if (rc != CURLE_OK) {
		backfill_fail(h, "%s: %s", what, h->overflow ?
		    "response larger than 16 MiB" : h->errbuf[0] != '\0' ?
		    h->errbuf : curl_easy_strerror(rc));
		return;
	}
	if (status < 200 || status > 299) {
		j = json_loadb(buf_str(&h->body), h->body.len, 0, NULL);
		if (json_is_string(json_object_get(j, "message")))
			msg = log_escape(json_string_value(json_object_get(j,
			    "message")), 200);
		json_decref(j);
		backfill_fail(h, "%s: HTTP %ld%s%s", what, status,
		    msg != NULL ? ": " : "", msg != NULL ? msg : "");
		free(msg);
		return;
	}
	if (h->step == BACKFILL_LIST)
		backfill_listed(h);
	else
		backfill_posted(h);
}

static void
backfill_finish(struct backfill_hook *h)
{
	log_notice("backfill %s hook %s: %zu deliveries listed, %zu redelivery "
	    "requested%s", h->repo, h->id, h->listed, h->requested,
	    h->failed ? " (ended by an API error)" : "");
	h->bf->passes++;
	h->failures = h->failed ? h->failures + 1 : 0;
	backfill_pass_clear(h);
	h->running = 0;
	if (h->queued && !h->bf->d->stopping) {
		h->queued = 0;
		backfill_schedule(h);
	}
	h->queued = 0;
}

static uint64_t
backfill_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/*
 * Seconds from one pass's start to the next: backfill_interval, doubled
 * for each failed pass in a row, at most BACKFILL_MAX_BACKOFF (or the
 * interval when it is larger).
 */
static uint64_t
backfill_spacing(const struct backfill_hook *h)
{
	uint64_t	interval = (uint64_t)h->bf->d->conf.backfill_interval;
	uint64_t	s = interval;
	int		i;

	for (i = 0; i < h->failures && s < BACKFILL_MAX_BACKOFF; i++)
		s *= 2;
	if (s > BACKFILL_MAX_BACKOFF)
		s = interval > BACKFILL_MAX_BACKOFF ? interval :
		    BACKFILL_MAX_BACKOFF;
	return s;
}

/*
 * Arm the hook's next pass: now if none ran yet, else no sooner than the
 * spacing after the last one started. Every request until it starts is
 * this one pass.
 */
static void
backfill_schedule(struct backfill_hook *h)
{
	uint64_t	now = backfill_now(), spacing = backfill_spacing(h);
	uint64_t	at = h->last_start + spacing * 1000, wait = 0;
	struct timeval	tv;

	if (h->last_start != 0 && at > now)
		wait = at - now;
	h->running = 1;
	h->step = BACKFILL_START;
	tv.tv_sec = (time_t)(wait / 1000);
	tv.tv_usec = (suseconds_t)(wait % 1000) * 1000;
	evtimer_add(h->timer, &tv);
	if (wait > 0)
		log_info("backfill %s hook %s: next pass in %llu s (one every "
		    "%llu s%s)", h->repo, h->id,
		    (unsigned long long)(wait + 999) / 1000,
		    (unsigned long long)spacing,
		    h->failures > 0 ? " after failed passes" : "");
}

/* The hook's timer: start a pass, or the next redelivery request. */
static void
backfill_step(evutil_socket_t fd, short what, void *arg)
{
	struct backfill_hook	*h = arg;

	if (h->bf->d->stopping) {
		backfill_pass_clear(h);
		h->running = h->queued = 0;
		return;
	}
	switch (h->step) {
	case BACKFILL_START:
		backfill_pass_clear(h);
		h->last_start = backfill_now();
		h->cutoff = time(NULL) - BACKFILL_WINDOW + BACKFILL_MARGIN;
		backfill_list(h);
		break;
	case BACKFILL_POST:
		backfill_post(h);
		break;
	case BACKFILL_LIST:
		break;
	}
}

/* -- hooks ----------------------------------------------------------- */

int
backfill_hook_check(const char *spec, const char **cause)
{
	const char	*colon = strrchr(spec, ':');
	char		 repo[REPO_OWNER_MAX + 1 + REPO_NAME_MAX + 1];
	size_t		 len;

	if (colon == NULL || colon[1] == '\0') {
		*cause = "no ':hook_id'";
		return -1;
	}
	len = strlen(colon + 1);
	if (strspn(colon + 1, "0123456789") != len ||
	    len > BACKFILL_MAX_ID_DIGITS) {
		*cause = "the hook id is not a number";
		return -1;
	}
	len = (size_t)(colon - spec);
	if (len >= sizeof(repo)) {
		*cause = "owner/repo is not a repository name";
		return -1;
	}
	memcpy(repo, spec, len);
	repo[len] = '\0';
	if (!repo_name_ok(repo)) {
		*cause = "owner/repo is not a repository name";
		return -1;
	}
	return 0;
}

/* A hook to follow (new), or NULL with *cause (new). */
static struct backfill_hook *
backfill_hook_new(struct backfill *bf, const char *spec, char **cause)
{
	struct backfill_hook	*h;
	const char		*why, *colon;

	if (backfill_hook_check(spec, &why) == -1) {
		xasprintf(cause, "backfill_hooks: '%s' is not "
		    "owner/repo:hook_id: %s", spec, why);
		return NULL;
	}
	colon = strrchr(spec, ':');
	h = xcalloc(1, sizeof(*h));
	h->bf = bf;
	if ((h->timer = evtimer_new(bf->d->base, backfill_step, h)) == NULL) {
		xasprintf(cause, "backfill %s: evtimer_new failed", spec);
		free(h);
		return NULL;
	}
	h->spec = xstrdup(spec);
	h->repo = xstrndup(spec, (size_t)(colon - spec));
	h->id = xstrdup(colon + 1);
	buf_init(&h->body);
	return h;
}

static void
backfill_hook_free(struct backfill_hook *h)
{
	if (h->easy != NULL) {
		curlev_remove(h->bf->curl, h->easy);
		curl_easy_cleanup(h->easy);
	}
	curl_slist_free_all(h->headers);
	event_free(h->timer);
	backfill_pass_clear(h);
	buf_free(&h->body);
	free(h->link);
	free(h->spec);
	free(h->repo);
	free(h->id);
	free(h);
}

/*
 * Match the hooks to the list l: keep, add, drop. Every new hook is made
 * before any is dropped, so a failure leaves the hooks as they were.
 * 0, or -1 with *cause (new).
 */
static int
backfill_sync_hooks(struct backfill *bf, const struct strlist *l,
    char **cause)
{
	struct backfill_hook	**keep, *h;
	size_t			 *from, i, j, n = 0;
	int			 *taken;

	keep = xcalloc(l->n + 1, sizeof(*keep));
	from = xcalloc(l->n + 1, sizeof(*from));	/* SIZE_MAX: new */
	taken = xcalloc(bf->nhooks + 1, sizeof(*taken));
	for (i = 0; i < l->n; i++) {
		for (j = 0; j < n; j++)
			if (strcmp(keep[j]->spec, l->v[i]) == 0)
				break;
		if (j < n)
			continue;
		for (j = 0; j < bf->nhooks; j++)
			if (!taken[j] && strcmp(bf->hooks[j]->spec,
			    l->v[i]) == 0)
				break;
		if (j < bf->nhooks) {
			taken[j] = 1;
			keep[n] = bf->hooks[j];
			from[n++] = j;
			continue;
		}
		if ((h = backfill_hook_new(bf, l->v[i], cause)) == NULL)
			goto fail;
		keep[n] = h;
		from[n++] = SIZE_MAX;
	}

	/* nothing fails from here on */
	for (j = 0; j < bf->nhooks; j++) {
		if (taken[j])
			continue;
		log_info("backfill: no longer following %s hook %s",
		    bf->hooks[j]->repo, bf->hooks[j]->id);
		backfill_hook_free(bf->hooks[j]);
	}
	for (i = 0; i < n; i++)
		if (from[i] == SIZE_MAX)
			log_info("backfill: following %s hook %s",
			    keep[i]->repo, keep[i]->id);
	free(bf->hooks);
	bf->hooks = keep;
	bf->nhooks = n;
	free(from);
	free(taken);
	return 0;

fail:
	for (i = 0; i < n; i++)
		if (from[i] == SIZE_MAX)
			backfill_hook_free(keep[i]);
	free(keep);
	free(from);
	free(taken);
	return -1;
}

/* -- interface ------------------------------------------------------- */

int
backfill_new(struct hookcastd *d, const struct config *conf,
    struct backfill **bfp, char **cause)
{
	struct backfill	*bf;
	struct curlev	*curl;
	const char	*why;

	if (conf->backfill_hooks.n == 0) {
		*bfp = NULL;
		return 0;
	}
	if ((curl = curlev_new(d->base, backfill_done, &why)) == NULL) {
		xasprintf(cause, "backfill: %s", why);
		return -1;
	}
	bf = xcalloc(1, sizeof(*bf));
	bf->d = d;
	bf->curl = curl;
	if (backfill_sync_hooks(bf, &conf->backfill_hooks, cause) == -1)
		goto fail;
	*bfp = bf;
	return 0;

fail:
	backfill_free(bf);
	return -1;
}

void
backfill_free(struct backfill *bf)
{
	size_t	i;

	if (bf == NULL)
		return;
	for (i = 0; i < bf->nhooks; i++)
		backfill_hook_free(bf->hooks[i]);
	free(bf->hooks);
	curlev_free(bf->curl);
	for (i = 0; i < bf->nrecent; i++)
		free(bf->recent[i].key);
	free(bf->recent);
	free(bf);
}

void
backfill_request(struct backfill *bf, const char *repo)
{
	struct backfill_hook	*h;
	size_t			 i;

	if (bf == NULL || bf->d->stopping)
		return;
	for (i = 0; i < bf->nhooks; i++) {
		h = bf->hooks[i];
		if (repo != NULL && strcmp(h->repo, repo) != 0)
			continue;
		/* a pass not yet started will see what this one asks for */
		if (h->running && h->step == BACKFILL_START)
			continue;
		if (h->running) {
			h->queued = 1;
			continue;
		}
		backfill_schedule(h);
	}
}

int
backfill_reconfigure(struct backfill *bf, const struct config *conf,
    char **cause)
{
	return backfill_sync_hooks(bf, &conf->backfill_hooks, cause);
}

void
backfill_metrics(const struct backfill *bf, struct buf *b)
{
	if (bf == NULL)
		return;
	buf_printf(b, "# HELP hookcast_backfill_passes_total Backfill passes "
	    "over a hook's deliveries.\n"
	    "# TYPE hookcast_backfill_passes_total counter\n"
	    "hookcast_backfill_passes_total %llu\n"
	    "# HELP hookcast_backfill_redeliveries_total Redeliveries "
	    "requested from GitHub.\n"
	    "# TYPE hookcast_backfill_redeliveries_total counter\n"
	    "hookcast_backfill_redeliveries_total %llu\n"
	    "# HELP hookcast_backfill_api_failures_total GitHub API requests "
	    "that failed.\n"
	    "# TYPE hookcast_backfill_api_failures_total counter\n"
	    "hookcast_backfill_api_failures_total %llu\n",
	    (unsigned long long)bf->passes,
	    (unsigned long long)bf->redeliveries,
	    (unsigned long long)bf->failures);
}
