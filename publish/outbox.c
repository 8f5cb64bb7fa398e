/* The outbox: publications to sinks, durable until accepted. */
#include <sys/types.h>
#include <sys/stat.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>
#include <event2/event.h>
#include <jansson.h>
#include <openssl/evp.h>

#include "buf.h"
#include "curlev.h"
#include "fileio.h"
#include "log.h"
#include "outbox.h"
#include "outbox_int.h"
#include "signature.h"
#include "sink.h"
#include "xmalloc.h"

/*
 * Largest episode JSON sent whole (a larger one goes as its summary), and
 * response bytes kept for the log.
 */
#define OUTBOX_EPISODE_MAX	(16 * 1024 * 1024)
#define OUTBOX_KEEP		512
static void	outbox_try(struct outbox_pub *);

/* -- records ---------------------------------------------------------- */

void
outbox_record_clear(struct outbox_record *rec)
{
	free(rec->sink);
	free(rec->id);
	free(rec->repo);
	free(rec->date);
	free(rec->title);
	free(rec->markdown);
	free(rec->json);
	memset(rec, 0, sizeof(*rec));
}

static int
outbox_name_ok(const char *s)
{
	size_t	n = strlen(s);

	if (n == 0 || n > 64 || *s == '.')
		return 0;
	for (; *s != '\0'; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-' &&
		    *s != '.')
			return 0;
	return 1;
}

static int
outbox_id_ok(const char *s)
{
	size_t	i;

	for (i = 0; s[i] != '\0'; i++)
		if (!isxdigit((unsigned char)s[i]) || isupper((unsigned char)s[i]))
			return 0;
	return i == 32;
}

int
outbox_record_parse(const char *text, size_t len, struct outbox_record *rec,
    char **cause)
{
	static const char *const keys[] = { "sink", "id", "repository",
	    "date", "title", "markdown", "json" };
	struct outbox_record	 r;
	char			**fields[7];
	json_t			*j, *v;
	json_error_t		 err;
	size_t			 i;

	if (len > OUTBOX_RECORD_MAX) {
		xasprintf(cause, "larger than %d bytes", OUTBOX_RECORD_MAX);
		return -1;
	}
	if ((j = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err)) == NULL) {
		xasprintf(cause, "not JSON: %s", err.text);
		return -1;
	}
	if (!json_is_object(j) || json_integer_value(json_object_get(j,
	    "version")) != 1) {
		json_decref(j);
		xasprintf(cause, "not a version 1 record");
		return -1;
	}
	memset(&r, 0, sizeof(r));
	fields[0] = &r.sink;
	fields[1] = &r.id;
	fields[2] = &r.repo;
	fields[3] = &r.date;
	fields[4] = &r.title;
	fields[5] = &r.markdown;
	fields[6] = &r.json;
	for (i = 0; i < 7; i++) {
		v = json_object_get(j, keys[i]);
		if (!json_is_string(v) || json_string_length(v) == 0 ||
		    strlen(json_string_value(v)) != json_string_length(v)) {
			xasprintf(cause, "%s: expected a string", keys[i]);
			goto bad;
		}
		*fields[i] = xstrdup(json_string_value(v));
	}
	if (!outbox_name_ok(r.sink)) {
		xasprintf(cause, "sink: not a sink's name");
		goto bad;
	}
	if (!outbox_id_ok(r.id)) {
		xasprintf(cause, "id: not 32 hex digits");
		goto bad;
	}
	v = json_object_get(j, "created");
	if (!json_is_integer(v) || json_integer_value(v) < 0) {
		xasprintf(cause, "created: expected a time");
		goto bad;
	}
	r.created = json_integer_value(v);
	json_decref(j);
	*rec = r;
	return 0;
bad:
	json_decref(j);
	outbox_record_clear(&r);
	return -1;
}

char *
outbox_record_encode(const struct outbox_record *rec)
{
	json_t	*j;
	char	*s;

	j = json_pack("{s:i, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:I}",
	    "version", 1, "sink", rec->sink, "id", rec->id, "repository",
	    rec->repo, "date", rec->date, "title", rec->title, "markdown",
	    rec->markdown, "json", rec->json, "created",
	    (json_int_t)rec->created);
	s = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	return s;
}

char *
outbox_key(const char *sink, const char *repo, const char *json_path)
{
	static const char	 hex[] = "0123456789abcdef";
	unsigned char		 md[EVP_MAX_MD_SIZE];
	unsigned int		 mdlen = 0;
	struct buf		 b;
	char			*out;
	size_t			 i;

	buf_init(&b);
	/* NUL-separated: no name can run into the next */
	buf_append(&b, sink, strlen(sink) + 1);
	buf_append(&b, repo, strlen(repo) + 1);
	buf_append(&b, json_path, strlen(json_path));
	EVP_Digest(b.data, b.len, md, &mdlen, EVP_sha256(), NULL);
	buf_free(&b);
	out = xmalloc(33);
	for (i = 0; i < 16; i++) {
		out[2 * i] = hex[md[i] >> 4];
		out[2 * i + 1] = hex[md[i] & 0xf];
	}
	out[32] = '\0';
	return out;
}

/* -- files ------------------------------------------------------------ */

/* The folder of a sink's records, made when missing; a descriptor, or -1. */
static int
outbox_dir(struct outbox *ob, const char *sink)
{
	char	*rel;
	int	 fd, top;

	xasprintf(&rel, "outbox/%s", sink);
	fd = file_dir_open(ob->conf.state_dir, rel, 1, 0700);
	free(rel);
	if (fd == -1)
		return -1;
	/* the folders made on the way must outlive a crash too */
	if ((top = file_dir_open(ob->conf.state_dir, "outbox", 0,
	    0700)) != -1) {
		fsync(top);
		close(top);
	}
	if ((top = open(ob->conf.state_dir, O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) != -1) {
		fsync(top);
		close(top);
	}
	return fd;
}

static int
outbox_store(struct outbox *ob, const struct outbox_record *rec)
{
	char	*s, *name;
	int	 fd, rc;

	if ((fd = outbox_dir(ob, rec->sink)) == -1) {
		log_warn("outbox: %s/outbox/%s", ob->conf.state_dir,
		    rec->sink);
		return -1;
	}
	s = outbox_record_encode(rec);
	xasprintf(&name, "%s.json", rec->id);
	if ((rc = file_write_atomicat(fd, name, s, strlen(s), 0600)) == -1)
		log_warn("outbox: %s/outbox/%s/%s", ob->conf.state_dir,
		    rec->sink, name);
	free(name);
	free(s);
	close(fd);
	return rc;
}

static void
outbox_unlink(struct outbox *ob, const struct outbox_record *rec)
{
	char	*name;
	int	 fd;

	if ((fd = outbox_dir(ob, rec->sink)) == -1)
		return;
	xasprintf(&name, "%s.json", rec->id);
	if (unlinkat(fd, name, 0) == -1 && errno != ENOENT)
		log_warn("outbox: remove %s/outbox/%s/%s",
		    ob->conf.state_dir, rec->sink, name);
	else
		fsync(fd);
	free(name);
	close(fd);
}

/* -- sinks' counters -------------------------------------------------- */

static struct outbox_sink *
outbox_sink(struct outbox *ob, const char *name)
{
	struct outbox_sink	*s;

	for (s = ob->sinks; s != NULL; s = s->next)
		if (strcmp(s->name, name) == 0)
			return s;
	s = xcalloc(1, sizeof(*s));
	s->name = xstrdup(name);
	s->next = ob->sinks;
	ob->sinks = s;
	return s;
}

/* -- publications ----------------------------------------------------- */

static void
outbox_pub_fire(evutil_socket_t fd, short what, void *arg)
{
	outbox_try(arg);
}

static void
outbox_pub_free(struct outbox_pub *p)
{
	struct outbox		*ob = p->ob;
	struct outbox_pub	**pp;

	for (pp = &ob->pubs; *pp != NULL; pp = &(*pp)->next)
		if (*pp == p) {
			*pp = p->next;
			break;
		}
	if (p->easy != NULL) {
		curlev_remove(ob->curl, p->easy);
		curl_easy_cleanup(p->easy);
	}
	curl_slist_free_all(p->headers);
	buf_free(&p->resp);
	if (p->read_ev != NULL)
		event_free(p->read_ev);
	if (p->kill_ev != NULL)
		event_free(p->kill_ev);
	if (p->poll_ev != NULL)
		event_free(p->poll_ev);
	if (p->exit_ev != NULL)
		event_free(p->exit_ev);
	buf_free(&p->output);
	if (p->fd != -1)
		close(p->fd);
	if (p->pid > 0)
		outbox_exec_stop(p);
	if (p->pidfd != -1)
		close(p->pidfd);
	if (p->timer != NULL)
		event_free(p->timer);
	outbox_record_clear(&p->rec);
	free(p);
}

/* Schedule the next attempt in ms. */
static void
outbox_later(struct outbox_pub *p, int64_t ms)
{
	struct timeval	tv;

	tv.tv_sec = (time_t)(ms / 1000);
	tv.tv_usec = (suseconds_t)((ms % 1000) * 1000);
	evtimer_add(p->timer, &tv);
}

/* Take rec (stolen) as a publication and try it at once. */
static struct outbox_pub *
outbox_pub_add(struct outbox *ob, struct outbox_record *rec)
{
	struct outbox_pub	*p;

	for (p = ob->pubs; p != NULL; p = p->next)
		if (p->rec.created != -1 &&
		    strcmp(p->rec.sink, rec->sink) == 0 &&
		    strcmp(p->rec.id, rec->id) == 0) {
			/* the same episode again: one publication */
			outbox_record_clear(rec);
			return p;
		}
	p = xcalloc(1, sizeof(*p));
	p->ob = ob;
	p->rec = *rec;
	memset(rec, 0, sizeof(*rec));
	p->fd = -1;
	p->pid = -1;
	p->pidfd = -1;
	p->retry_after = -1;
	buf_init(&p->resp);
	buf_init(&p->output);
	p->timer = evtimer_new(ob->base, outbox_pub_fire, p);
	p->sink = outbox_sink(ob, p->rec.sink);
	p->sink->pending++;
	p->next = ob->pubs;
	ob->pubs = p;
	outbox_later(p, 0);
	return p;
}

void
outbox_episode(struct outbox *ob, const json_t *item)
{
	const struct outbox_conf	*conf = &ob->conf;
	struct outbox_record		 rec;
	const char			*repo, *date, *title, *md, *js;
	size_t				 i;

	if (ob == NULL)
		return;
	repo = json_string_value(json_object_get(item, "repo"));
	date = json_string_value(json_object_get(item, "date"));
	title = json_string_value(json_object_get(item, "title"));
	md = json_string_value(json_object_get(item, "markdown"));
	js = json_string_value(json_object_get(item, "json"));
	if (repo == NULL || date == NULL || title == NULL || md == NULL ||
	    js == NULL)
		return;
	for (i = 0; i < conf->nsinks; i++) {
		if (!sink_matches(&conf->sinks[i], repo))
			continue;
		memset(&rec, 0, sizeof(rec));
		rec.sink = xstrdup(conf->sinks[i].name);
		rec.id = outbox_key(rec.sink, repo, js);
		rec.repo = xstrdup(repo);
		rec.date = xstrdup(date);
		rec.title = xstrdup(title);
		rec.markdown = xstrdup(md);
		rec.json = xstrdup(js);
		rec.created = (long long)time(NULL);
		/* durable before any attempt: a 2xx may come at once */
		if (outbox_store(ob, &rec) == -1) {
			struct outbox_sink *s = outbox_sink(ob, rec.sink);

			s->failed++;
			free(s->last_error);
			s->last_error = xstrdup("the outbox could not be "
			    "written");
			s->last_error_at = time(NULL);
			outbox_record_clear(&rec);
			continue;
		}
		log_info("sink %s: %s %s queued (%s)", rec.sink, rec.repo,
		    rec.date, rec.id);
		outbox_pub_add(ob, &rec);
	}
}

/* -- outcomes --------------------------------------------------------- */

/* An attempt of s ended: the publication of s queued longest goes next. */
static void
outbox_next(struct outbox *ob, struct outbox_sink *s)
{
	struct outbox_pub	*p, *first = NULL;

	/* the list is newest first */
	for (p = ob->pubs; p != NULL; p = p->next)
		if (p->queued && p->sink == s)
			first = p;
	if (first != NULL) {
		first->queued = 0;
		outbox_later(first, 0);
	}
}

void
outbox_done(struct outbox_pub *p, int ok, int final, long long retry_after,
    const char *fmt, ...)
{
	struct outbox			*ob = p->ob;
	const struct outbox_conf	*conf = &ob->conf;
	struct outbox_sink		*s = p->sink;
	va_list				 ap;
	char				*why = NULL;
	int64_t				 ms;
	time_t				 now = time(NULL);

	if (p->busy) {
		p->busy = 0;
		s->running--;
		outbox_next(ob, s);
	}
	if (fmt != NULL) {
		va_start(ap, fmt);
		if (vasprintf(&why, fmt, ap) == -1)
			why = NULL;
		va_end(ap);
	}
	if (ok) {
		log_notice("sink %s: %s %s delivered (%s)", p->rec.sink,
		    p->rec.repo, p->rec.date, p->rec.id);
		s->delivered++;
		s->last_success = now;
		goto remove;
	}
	free(s->last_error);
	s->last_error = xstrdup(why != NULL ? why : "failed");
	s->last_error_at = now;
	if (!final) {
		p->attempts++;
		ms = retry_backoff(p->attempts, conf->sink_retry_min,
		    conf->sink_retry_max, (uint32_t)random());
		if (retry_after >= 0 && retry_after * 1000 > ms)
			ms = retry_after * 1000;
		if ((long long)now + ms / 1000 <= p->rec.created +
		    conf->sink_retry_for) {
			log_warnx("sink %s: %s %s: %s; retry %u in %.1f s",
			    p->rec.sink, p->rec.repo, p->rec.date,
			    s->last_error, p->attempts, (double)ms / 1000);
			s->retried++;
			free(why);
			outbox_later(p, ms);
			return;
		}
		log_warnx("sink %s: %s %s: %s; given up after %d s "
		    "(sink_retry_for)", p->rec.sink, p->rec.repo, p->rec.date,
		    s->last_error, conf->sink_retry_for);
	} else
		log_warnx("sink %s: %s %s: %s; not retried", p->rec.sink,
		    p->rec.repo, p->rec.date, s->last_error);
	s->failed++;
remove:
	free(why);
	outbox_unlink(ob, &p->rec);
	s->pending--;
	/* called from a callback of p's transfer or child: free it later */
	p->rec.created = -1;
	evtimer_del(p->timer);
	outbox_later(p, 0);
}

/* -- HTTP sinks ------------------------------------------------------- */

static size_t
outbox_write(char *ptr, size_t size, size_t nmemb, void *arg)
{
	struct outbox_pub	*p = arg;
	size_t			 n = size * nmemb;

	if (p->resp.len < OUTBOX_KEEP)
		buf_append(&p->resp, ptr, n < OUTBOX_KEEP - p->resp.len ? n :
		    OUTBOX_KEEP - p->resp.len);
	return n;
}

/* Keep the Retry-After of the final response. */
static size_t
outbox_header(char *ptr, size_t size, size_t nmemb, void *arg)
{
	struct outbox_pub	*p = arg;
	size_t			 n = size * nmemb;
	char			*v;
	long long		 secs;

	if (n >= 5 && strncmp(ptr, "HTTP/", 5) == 0)
		p->retry_after = -1;
	else if (n > 12 && n < 128 && strncasecmp(ptr, "Retry-After:", 12) == 0) {
		v = xstrndup(ptr + 12, n - 12);
		v[strcspn(v, "\r\n")] = '\0';
		while (*v != '\0' && (v[strlen(v) - 1] == ' ' ||
		    v[strlen(v) - 1] == '\t'))
			v[strlen(v) - 1] = '\0';
		if (retry_after_parse(v, time(NULL), &secs) == 0)
			p->retry_after = secs;
		free(v);
	}
	return n;
}

/* The HTTP attempt of the publication arg ended with rc and status. */
static void
outbox_http_done(void *arg, CURLcode rc, long status)
{
	struct outbox_pub	*p = arg;
	char			*body;

	curl_easy_cleanup(p->easy);
	p->easy = NULL;
	curl_slist_free_all(p->headers);
	p->headers = NULL;
	body = log_escape(buf_str(&p->resp), 200);
	buf_reset(&p->resp);
	if (rc != CURLE_OK)
		outbox_done(p, 0, 0, -1, "%s", p->errbuf[0] != '\0' ?
		    p->errbuf : curl_easy_strerror(rc));
	else if (status >= 200 && status <= 299)
		outbox_done(p, 1, 0, -1, NULL);
	else if (status == 408 || status == 429 || status >= 500 ||
	    status < 200)
		outbox_done(p, 0, 0, status == 429 ? p->retry_after : -1,
		    "HTTP %ld: %s", status, body);
	else
		outbox_done(p, 0, 1, -1, "HTTP %ld: %s", status, body);
	free(body);
}

static struct curl_slist *
outbox_header_add(struct curl_slist *l, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static struct curl_slist *
outbox_header_add(struct curl_slist *l, const char *fmt, ...)
{
	struct curl_slist	*n;
	va_list			 ap;
	char			*line;

	va_start(ap, fmt);
	if (vasprintf(&line, fmt, ap) == -1)
		fatal("%s", __func__);
	va_end(ap);
	if ((n = curl_slist_append(l, line)) == NULL)
		fatalx("%s: out of memory", __func__);
	explicit_bzero(line, strlen(line));
	free(line);
	return n;
}

/*
 * The episode's public URL without its ".json" (new), or NULL without
 * public_url or when the file is not under output_dir.
 */
static char *
outbox_public_base(const struct outbox_conf *conf,
    const struct outbox_record *rec)
{
	size_t	 n = strlen(conf->output_dir), u;
	char	*base;
	int	 len;

	if (conf->public_url == NULL ||
	    strncmp(rec->json, conf->output_dir, n) != 0 ||
	    rec->json[n] != '/')
		return NULL;
	len = (int)strlen(rec->json + n + 1);
	if (len < 5 || strcmp(rec->json + n + 1 + len - 5, ".json") != 0)
		return NULL;
	u = strlen(conf->public_url);
	while (u > 0 && conf->public_url[u - 1] == '/')
		u--;
	xasprintf(&base, "%.*s/%.*s", (int)u, conf->public_url, len - 5,
	    rec->json + n + 1);
	return base;
}

/* The episode's public link (audio when it has some), or NULL (new). */
static char *
outbox_link(const char *base, int audio)
{
	char	*link;

	if (base == NULL)
		return NULL;
	xasprintf(&link, "%s.%s", base, audio ? "mp3" : "md");
	return link;
}

/*
 * Read the episode's JSON; new text, or NULL with *cause (new), or NULL
 * with *cause untouched and *over set to its size when it is larger than
 * OUTBOX_EPISODE_MAX (nothing of it read).
 */
static char *
outbox_read_episode(const char *path, size_t *len, long long *over,
    char **cause)
{
	struct stat	 st;
	struct buf	 b;
	char		 chunk[65536];
	ssize_t		 n;
	int		 fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) == -1) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) == 0 && st.st_size > OUTBOX_EPISODE_MAX) {
		*over = (long long)st.st_size;
		close(fd);
		return NULL;
	}
	buf_init(&b);
	while ((n = read(fd, chunk, sizeof(chunk))) > 0) {
		if (b.len + (size_t)n > OUTBOX_EPISODE_MAX) {
			/* it grew since fstat */
			*over = (long long)(b.len + (size_t)n);
			close(fd);
			buf_free(&b);
			return NULL;
		}
		buf_append(&b, chunk, (size_t)n);
	}
	close(fd);
	if (n == -1) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		buf_free(&b);
		return NULL;
	}
	*len = b.len;
	if (b.data == NULL)
		return xstrdup("");
	return buf_steal(&b);
}

/*
 * The summary sent in place of an episode over OUTBOX_EPISODE_MAX (new
 * text, *len bytes): what the record knows and the links, the file left
 * unread so the daemon never holds more than the cap of it.
 */
static char *
outbox_summary(const struct outbox_record *rec, const char *base,
    long long bytes, int *audio, size_t *len)
{
	struct stat	 st;
	json_t		*j;
	char		*mp3, *text;
	size_t		 n = strlen(rec->json);

	/* the audio is beside the JSON, the same name with .mp3 */
	xasprintf(&mp3, "%.*s.mp3", (int)(n > 5 ? n - 5 : n), rec->json);
	*audio = stat(mp3, &st) == 0 && S_ISREG(st.st_mode);
	free(mp3);
	j = sink_summary(rec->repo, rec->date, rec->title, bytes,
	    OUTBOX_EPISODE_MAX, base, *audio);
	text = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	*len = strlen(text);
	return text;
}

static void
outbox_http(struct outbox_pub *p, const struct sink_conf *sc)
{
	const struct outbox_conf	*conf = &p->ob->conf;
	const struct sink_kind		*kind = sink_kind_of(sc->type);
	struct sink_episode		 ep;
	struct sink_request		 req;
	json_t				*j = NULL;
	json_error_t			 err;
	char				*text, *cause = NULL, *link = NULL, *base;
	long long			 over = -1;
	char				 sig[SIGNATURE_LEN], ts[32], *signed_text;
	size_t				 len = 0, signed_len;
	int				 audio = 0;

	memset(&req, 0, sizeof(req));
	base = outbox_public_base(conf, &p->rec);
	if ((text = outbox_read_episode(p->rec.json, &len, &over,
	    &cause)) == NULL && over == -1) {
		free(base);
		outbox_done(p, 0, 1, -1, "%s", cause);
		free(cause);
		return;
	}
	if (text == NULL) {
		log_warnx("sink %s: %s %s: %s is %lld bytes, over %d: its "
		    "summary is sent", p->rec.sink, p->rec.repo, p->rec.date,
		    p->rec.json, over, OUTBOX_EPISODE_MAX);
		text = outbox_summary(&p->rec, base, over, &audio, &len);
	}
	if ((j = json_loadb(text, len, 0, &err)) == NULL) {
		free(text);
		free(base);
		outbox_done(p, 0, 1, -1, "%s: not JSON: %s", p->rec.json,
		    err.text);
		return;
	}
	if (over == -1)
		audio = json_is_object(json_object_get(j, "audio"));
	link = outbox_link(base, audio);
	free(base);
	memset(&ep, 0, sizeof(ep));
	ep.json_text = text;
	ep.json_len = len;
	ep.json = j;
	ep.link = link;
	ep.link_is_audio = audio;
	if (kind->build(&ep, &req, &cause) == -1) {
		free(text);
		free(link);
		json_decref(j);
		outbox_done(p, 0, 1, -1, "%s", cause);
		free(cause);
		return;
	}
	free(text);
	free(link);
	json_decref(j);

	p->headers = outbox_header_add(NULL, "Content-Type: %s",
	    req.content_type);
	p->headers = outbox_header_add(p->headers, "Idempotency-Key: %s",
	    p->rec.id);
	p->headers = outbox_header_add(p->headers, "X-Hookcast-Delivery: %s",
	    p->rec.id);
	p->headers = outbox_header_add(p->headers, "Expect:");
	if (sc->secret != NULL) {
		/* the body alone: what receivers checked before V2 */
		signature_compute(sc->secret, sc->secretlen, req.body, req.len,
		    sig);
		p->headers = outbox_header_add(p->headers,
		    "X-Hookcast-Signature-256: %s", sig);
		/* the attempt's time and the key too, against replays */
		snprintf(ts, sizeof(ts), "%lld", (long long)time(NULL));
		signed_text = http_signed_text(ts, p->rec.id, req.body, req.len,
		    &signed_len);
		signature_compute(sc->secret, sc->secretlen, signed_text,
		    signed_len, sig);
		free(signed_text);
		p->headers = outbox_header_add(p->headers,
		    "X-Hookcast-Timestamp: %s", ts);
		p->headers = outbox_header_add(p->headers,
		    "X-Hookcast-Signature-V2: %s", sig);
	}
	if (sc->token != NULL)
		p->headers = outbox_header_add(p->headers,
		    "Authorization: Bearer %s", sc->token);
	if ((p->easy = curlev_easy(sc->url, p->headers, p->errbuf, p)) == NULL)
		fatalx("%s: curl_easy_init", __func__);
	p->errbuf[0] = '\0';
	p->retry_after = -1;
	curl_easy_setopt(p->easy, CURLOPT_CONNECTTIMEOUT,
	    (long)conf->sink_connect_timeout);
	curl_easy_setopt(p->easy, CURLOPT_TIMEOUT, (long)conf->sink_timeout);
	curl_easy_setopt(p->easy, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(p->easy, CURLOPT_SSL_VERIFYHOST, 2L);
	curl_easy_setopt(p->easy, CURLOPT_POST, 1L);
	curl_easy_setopt(p->easy, CURLOPT_POSTFIELDSIZE_LARGE,
	    (curl_off_t)req.len);
	curl_easy_setopt(p->easy, CURLOPT_COPYPOSTFIELDS, req.body);
	curl_easy_setopt(p->easy, CURLOPT_WRITEFUNCTION, outbox_write);
	curl_easy_setopt(p->easy, CURLOPT_WRITEDATA, p);
	curl_easy_setopt(p->easy, CURLOPT_HEADERFUNCTION, outbox_header);
	curl_easy_setopt(p->easy, CURLOPT_HEADERDATA, p);
	free(req.body);
	if (curlev_add(p->ob->curl, p->easy) == -1) {
		curl_easy_cleanup(p->easy);
		p->easy = NULL;
		curl_slist_free_all(p->headers);
		p->headers = NULL;
		outbox_done(p, 0, 0, -1, "curl_multi_add_handle failed");
	}
}

/* -- attempts --------------------------------------------------------- */

static void
outbox_try(struct outbox_pub *p)
{
	const struct outbox_conf	*conf = &p->ob->conf;
	const struct sink_conf		*sc;

	if (p->rec.created == -1) {
		/* done (outbox_done): free outside the transfer's callbacks */
		outbox_pub_free(p);
		return;
	}
	if (p->busy)
		return;
	if ((sc = sink_find(conf->sinks, conf->nsinks, p->rec.sink)) ==
	    NULL) {
		if (!p->waiting)
			log_warnx("sink %s: not configured; %s %s waits in the "
			    "outbox until it is", p->rec.sink, p->rec.repo,
			    p->rec.date);
		p->waiting = 1;
		return;
	}
	p->waiting = 0;
	if (p->sink->running >= (size_t)sc->max_running) {
		/* outbox_next starts it when an attempt of its sink ends */
		p->queued = 1;
		return;
	}
	p->queued = 0;
	p->busy = 1;
	p->sink->running++;
	log_debug("sink %s: %s %s: attempt %u", p->rec.sink, p->rec.repo,
	    p->rec.date, p->attempts + 1);
	if (sc->type == SINK_EXEC)
		outbox_exec(p, sc);
	else
		outbox_http(p, sc);
}

/* -- the outbox ------------------------------------------------------- */

/* Load one sink's folder of records. */
static void
outbox_load_sink(struct outbox *ob, int top, const char *sink)
{
	struct outbox_record	 rec;
	struct dirent		*de;
	DIR			*dir;
	char			 text[OUTBOX_RECORD_MAX + 1], *cause, *want;
	ssize_t			 n;
	size_t			 len;
	int			 dfd, fd;

	if ((dfd = openat(top, sink, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) == -1 || (dir = fdopendir(dfd)) == NULL) {
		if (dfd != -1)
			close(dfd);
		return;
	}
	while ((de = readdir(dir)) != NULL) {
		len = strlen(de->d_name);
		if (de->d_name[0] == '.' || len < 6 ||
		    strcmp(de->d_name + len - 5, ".json") != 0)
			continue;
		if ((fd = openat(dfd, de->d_name, O_RDONLY | O_NOFOLLOW |
		    O_CLOEXEC)) == -1)
			continue;
		n = read(fd, text, sizeof(text));
		close(fd);
		if (n < 0)
			continue;
		if (outbox_record_parse(text, (size_t)n, &rec, &cause) == -1) {
			log_warnx("outbox: %s/%s: %s; left as it is", sink,
			    de->d_name, cause);
			free(cause);
			continue;
		}
		xasprintf(&want, "%s.json", rec.id);
		if (strcmp(rec.sink, sink) != 0 ||
		    strcmp(want, de->d_name) != 0) {
			log_warnx("outbox: %s/%s: not the record its name "
			    "says; left as it is", sink, de->d_name);
			outbox_record_clear(&rec);
		} else
			outbox_pub_add(ob, &rec);
		free(want);
	}
	closedir(dir);
}

static void
outbox_load(struct outbox *ob)
{
	struct dirent	*de;
	DIR		*dir;
	int		 top;
	size_t		 n = 0;
	struct outbox_pub *p;

	if ((top = file_dir_open(ob->conf.state_dir, "outbox", 0,
	    0700)) == -1)
		return;
	if ((dir = fdopendir(top)) == NULL) {
		close(top);
		return;
	}
	while ((de = readdir(dir)) != NULL)
		if (outbox_name_ok(de->d_name))
			outbox_load_sink(ob, top, de->d_name);
	closedir(dir);
	for (p = ob->pubs; p != NULL; p = p->next)
		n++;
	if (n > 0)
		log_notice("outbox: %zu publication(s) pending from before", n);
}

struct outbox *
outbox_new(struct event_base *base, const struct outbox_conf *conf,
    char **cause)
{
	struct outbox	*ob;
	struct curlev	*curl;
	const char	*why;

	if ((curl = curlev_new(base, outbox_http_done, &why)) == NULL) {
		xasprintf(cause, "outbox: %s", why);
		return NULL;
	}
	ob = xcalloc(1, sizeof(*ob));
	ob->base = base;
	ob->curl = curl;
	srandom((unsigned)time(NULL) ^ (unsigned)getpid());
	outbox_reconfigure(ob, conf);
	outbox_load(ob);
	return ob;
}

void
outbox_free(struct outbox *ob)
{
	struct outbox_sink	*s, *next;

	if (ob == NULL)
		return;
	while (ob->pubs != NULL)
		outbox_pub_free(ob->pubs);
	curlev_free(ob->curl);
	for (s = ob->sinks; s != NULL; s = next) {
		next = s->next;
		free(s->name);
		free(s->last_error);
		free(s);
	}
	free(ob);
}

void
outbox_reconfigure(struct outbox *ob, const struct outbox_conf *new)
{
	const struct outbox_conf	*conf;
	struct outbox_pub		*p;
	size_t				 i;

	if (ob == NULL)
		return;
	ob->conf = *new;
	conf = &ob->conf;
	/* every configured sink shows in the status, even before its first */
	for (i = 0; i < conf->nsinks; i++) {
		outbox_sink(ob, conf->sinks[i].name);
		/* not the URL: a Slack webhook's URL is its secret */
		log_info("sink %s: %s%s", conf->sinks[i].name,
		    sink_kind_of(conf->sinks[i].type)->name,
		    conf->sinks[i].repositories.n > 0 ||
		    conf->sinks[i].shows.n > 0 ? " (some repositories or "
		    "shows)" : "");
	}
	/* and max_running may have grown */
	for (p = ob->pubs; p != NULL; p = p->next)
		if (p->waiting || p->queued) {
			p->queued = 0;
			outbox_later(p, 0);
		}
}

void
outbox_metrics(const struct outbox *ob, struct buf *b)
{
	static const struct {
		const char	*name, *type, *help;
	} m[] = {
		{ "hookcast_sink_pending", "gauge",
		    "Publications waiting in the outbox." },
		{ "hookcast_sink_delivered_total", "counter",
		    "Publications the sink accepted." },
		{ "hookcast_sink_failed_total", "counter",
		    "Publications given up (a final refusal, or "
		    "sink_retry_for ran out)." },
		{ "hookcast_sink_retries_total", "counter",
		    "Attempts that failed and were scheduled again." },
		{ "hookcast_sink_last_success_timestamp_seconds", "gauge",
		    "When the sink last accepted a publication (0: never)." },
		{ "hookcast_sink_last_error_timestamp_seconds", "gauge",
		    "When an attempt last failed (0: never)." },
	};
	const struct outbox_sink	*s;
	size_t				 i;
	unsigned long long		 v;

	if (ob == NULL || ob->sinks == NULL)
		return;
	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		buf_printf(b, "# HELP %s %s\n# TYPE %s %s\n", m[i].name,
		    m[i].help, m[i].name, m[i].type);
		for (s = ob->sinks; s != NULL; s = s->next) {
			switch (i) {
			case 0: v = s->pending; break;
			case 1: v = s->delivered; break;
			case 2: v = s->failed; break;
			case 3: v = s->retried; break;
			case 4: v = (unsigned long long)s->last_success; break;
			default: v = (unsigned long long)s->last_error_at; break;
			}
			/* names are [A-Za-z0-9_.-]: nothing to escape */
			buf_printf(b, "%s{sink=\"%s\"} %llu\n", m[i].name,
			    s->name, v);
		}
	}
}

static json_t *
outbox_time(time_t t)
{
	struct tm	tm;
	char		s[32];

	if (t == 0 || gmtime_r(&t, &tm) == NULL)
		return json_null();
	strftime(s, sizeof(s), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return json_string(s);
}

json_t *
outbox_status(const struct outbox *ob)
{
	const struct outbox_conf	*conf = &ob->conf;
	const struct outbox_sink	*s;
	const struct sink_conf		*sc;
	json_t				*a = json_array(), *j;

	if (ob == NULL)
		return a;

	for (s = ob->sinks; s != NULL; s = s->next) {
		sc = sink_find(conf->sinks, conf->nsinks, s->name);
		j = json_pack("{s:s, s:s, s:I, s:I, s:I, s:I, s:o, s:o, s:o}",
		    "name", s->name, "type", sc != NULL ?
		    sink_kind_of(sc->type)->name : "unconfigured",
		    "pending", (json_int_t)s->pending,
		    "delivered", (json_int_t)s->delivered,
		    "failed", (json_int_t)s->failed,
		    "retried", (json_int_t)s->retried,
		    "last_success", outbox_time(s->last_success),
		    "last_error", s->last_error != NULL ?
		    json_string(s->last_error) : json_null(),
		    "last_error_at", outbox_time(s->last_error_at));
		json_array_append_new(a, j);
	}
	return a;
}
