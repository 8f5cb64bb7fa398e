/* Emission: draft a day's episode and write its files atomically. */
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#include <openssl/evp.h>
#include <openssl/sha.h>

#include "archive.h"
#include "emit.h"
#include "episode.h"
#include "show.h"
#include "fileio.h"
#include "llm.h"
#include "sheet.h"
#include "log.h"
#include "parallel.h"
#include "reduced.h"
#include "spoken.h"
#include "text.h"
#include "xmalloc.h"

/* Modes of what emission creates: world-readable, for a web server. */
#define EMIT_DIR_MODE	0755
#define EMIT_FILE_MODE	0644

void
emit_result_clear(struct emit_result *r)
{
	size_t	i;

	free(r->repo);
	free(r->date);
	free(r->title);
	free(r->md_path);
	free(r->json_path);
	free(r->md_text);
	free(r->json_text);
	for (i = 0; i < r->ndraft_dropped; i++)
		free(r->draft_dropped[i].sentence);
	free(r->draft_dropped);
	memset(r, 0, sizeof(*r));
}

/*
 * The local date (YYYY-MM-DD) days before the day of tm, in out: counted
 * from its noon, so a change of daylight saving time moves no date.
 */
static void
emit_date_before(const struct tm *tm, int days, char *out, size_t outsz)
{
	struct tm	d = *tm;
	time_t		t;

	d.tm_mday -= days;
	d.tm_hour = 12;
	d.tm_min = d.tm_sec = 0;
	d.tm_isdst = -1;
	t = mktime(&d);
	localtime_r(&t, &d);
	strftime(out, outsz, "%Y-%m-%d", &d);
}

static void
emit_nearby_free(struct episode_nearby *v, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		free(v[i].date);
		free(v[i].title);
	}
	free(v);
}

/*
 * The archive's episodes around the one named name (YYYY-MM-DD[-N|-recap]):
 * up to three before and three after, read from the .json files of dir.
 * The episode itself is left out (a re-emission rewrites it); recaps are
 * listed like any episode, told apart by their title.
 */
static void
emit_nearby(const char *dir, const char *name, struct episode_nearby **out,
    size_t *nout)
{
	struct archive		 ar;
	struct archive_entry	 self, **v;
	size_t			 n = 0, i, at, first, last;
	json_t			*j;
	const char		*title;

	*out = NULL;
	*nout = 0;
	if (!archive_parse_name(name, &self))
		return;
	archive_list(dir, &ar);
	v = xcalloc(ar.n + 1, sizeof(*v));
	for (i = 0; i < ar.n; i++)
		if (strcmp(ar.v[i].name, self.name) != 0)
			v[n++] = &ar.v[i];
	for (at = 0; at < n && archive_cmp(v[at], &self) < 0; at++)
		;
	first = at > 3 ? at - 3 : 0;
	last = at + 3 < n ? at + 3 : n;
	for (i = first; i < last; i++) {
		if ((j = archive_load(dir, v[i])) == NULL)
			continue;
		title = json_string_value(json_object_get(j, "title"));
		if (title != NULL) {
			*out = xreallocarray(*out, *nout + 1, sizeof(**out));
			(*out)[*nout].date = xstrdup(v[i]->date);
			(*out)[*nout].title = xstrdup(title);
			(*nout)++;
		}
		json_decref(j);
	}
	free(v);
	free(self.name);
	archive_clear(&ar);
}

/*
 * How far back the work of earlier episodes is read for the reverts and
 * re-lands of a day: the episodes dated within EMIT_EARLIER_DAYS before
 * it, the newest EMIT_EARLIER_EPISODES of them, reading no more than
 * EMIT_EARLIER_BYTES of JSON in all (a file that would go over is
 * skipped). Each episode lists at most EPISODE_MAX_WORK commits.
 */
#define EMIT_EARLIER_DAYS	14
#define EMIT_EARLIER_EPISODES	14
#define EMIT_EARLIER_BYTES	(16LL << 20)

/* The work one archived episode lists, dated date, added to *v. */
static void
emit_earlier_one(json_t *j, const char *date, struct episode_work **v,
    size_t *n)
{
	json_t			*work, *o;
	struct episode_work	*w;
	const char		*sha, *name, *what, *reverts;
	size_t			 i, k;

	work = json_object_get(j, "work");
	json_array_foreach(work, i, o) {
		if (i >= EPISODE_MAX_WORK)
			break;
		sha = json_string_value(json_object_get(o, "sha"));
		name = json_string_value(json_object_get(o, "name"));
		what = json_string_value(json_object_get(o, "what"));
		reverts = json_string_value(json_object_get(o, "reverts"));
		if (sha == NULL || strlen(sha) != 40 || name == NULL ||
		    what == NULL)
			continue;
		for (k = 0; k < 40; k++)
			if (strchr("0123456789abcdef", sha[k]) == NULL)
				break;
		if (k < 40)
			continue;
		*v = xreallocarray(*v, *n + 1, sizeof(**v));
		w = &(*v)[(*n)++];
		memset(w, 0, sizeof(*w));
		w->sha = xstrdup(sha);
		w->date = xstrdup(date);
		w->name = xstrdup(name);
		w->what = xstrdup(what);
		w->reverts = xstrdup_null(reverts);
		w->bot = json_is_true(json_object_get(o, "bot"));
	}
}

/*
 * The work earlier episodes of dir told (new, sorted by earlier_sort),
 * for the episode named self of the local date tm: the daily episodes
 * before it, back EMIT_EARLIER_DAYS days, newest first as bounded above.
 */
static void
emit_earlier(const char *dir, const char *self, const struct tm *tm,
    struct episode_work **out, size_t *nout)
{
	struct archive		 ar;
	struct archive_entry	 me;
	struct stat		 st;
	char			 oldest[16], *path;
	long long		 bytes = 0;
	size_t			 i, nread = 0;
	json_t			*j;

	*out = NULL;
	*nout = 0;
	if (!archive_parse_name(self, &me))
		return;
	emit_date_before(tm, EMIT_EARLIER_DAYS, oldest, sizeof(oldest));

	archive_list(dir, &ar);
	for (i = ar.n; i-- > 0 && nread < EMIT_EARLIER_EPISODES; ) {
		const struct archive_entry *e = &ar.v[i];

		if (e->seq == ARCHIVE_RECAP || archive_cmp(e, &me) >= 0)
			continue;
		if (strcmp(e->date, oldest) < 0)
			break;
		path = archive_path(dir, e->name, "json");
		if (stat(path, &st) == -1 || !S_ISREG(st.st_mode) ||
		    bytes + (long long)st.st_size > EMIT_EARLIER_BYTES) {
			free(path);
			continue;
		}
		free(path);
		bytes += (long long)st.st_size;
		nread++;
		if ((j = archive_load(dir, e)) == NULL)
			continue;
		emit_earlier_one(j, e->date, out, nout);
		json_decref(j);
	}
	*nout = earlier_sort(*out, *nout);
	free(me.name);
	archive_clear(&ar);
}

/*
 * What the daily episodes of dir of the EPISODE_SAID_DAYS days before
 * the one named self (of the local date tm) said, for its stock phrases:
 * their dates and transcripts (new).
 */
static void
emit_said(const char *dir, const char *self, const struct tm *tm,
    struct episode_said **out, size_t *nout)
{
	struct archive		 ar;
	struct archive_entry	 me;
	char			 oldest[16];
	const char		*t;
	size_t			 i;
	json_t			*j;

	*out = NULL;
	*nout = 0;
	if (!archive_parse_name(self, &me))
		return;
	emit_date_before(tm, EPISODE_SAID_DAYS, oldest, sizeof(oldest));
	archive_list(dir, &ar);
	for (i = ar.n; i-- > 0; ) {
		const struct archive_entry *e = &ar.v[i];

		if (e->seq == ARCHIVE_RECAP || archive_cmp(e, &me) >= 0 ||
		    strcmp(e->date, me.date) == 0)
			continue;
		if (strcmp(e->date, oldest) < 0)
			break;
		if ((j = archive_load(dir, e)) == NULL)
			continue;
		t = json_string_value(json_object_get(j, "transcript"));
		if (t != NULL) {
			*out = xreallocarray(*out, *nout + 1, sizeof(**out));
			(*out)[*nout].date = xstrdup(e->date);
			(*out)[*nout].transcript = xstrdup(t);
			(*nout)++;
		}
		json_decref(j);
	}
	free(me.name);
	archive_clear(&ar);
}

static void
emit_said_free(struct episode_said *v, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		free(v[i].date);
		free(v[i].transcript);
	}
	free(v);
}

/* Is dir/name.json the episode of the day that started at start? */
static int
emit_same_day(const char *dir, const char *name, time_t start)
{
	char		*path, want[32];
	json_t		*j;
	const char	*got;
	struct tm	 tm;
	int		 same;

	path = archive_path(dir, name, "json");
	j = json_load_file(path, 0, NULL);
	free(path);
	if (j == NULL)
		return 0;
	gmtime_r(&start, &tm);
	strftime(want, sizeof(want), "%Y-%m-%dT%H:%M:%SZ", &tm);
	got = json_string_value(json_object_get(json_object_get(j, "window"),
	    "start"));
	same = got != NULL && strcmp(got, want) == 0;
	json_decref(j);
	return same;
}

/*
 * The file name (no folder, no extension; new) of the episode of the day
 * that started at start. One name per day: a day emitted again (after a
 * crash between the files and the journal's rotation) gets its own name
 * back; another day of the same date gets "-2", "-3"...
 */
static char *
emit_pick_name(const char *dir, const char *date, time_t start)
{
	char		*name, *md;
	struct stat	 st;
	int		 n;

	name = xstrdup(date);
	for (n = 2; ; n++) {
		md = archive_path(dir, name, "md");
		if (stat(md, &st) == -1 || emit_same_day(dir, name, start)) {
			free(md);
			return name;
		}
		free(md);
		free(name);
		xasprintf(&name, "%s-%d", date, n);
	}
}

/*
 * js (an episode's JSON) replaced by root dumped as episodes are, root
 * released; js as it was when the dump fails.
 */
static char *
emit_redump(char *js, json_t *root)
{
	char	*out;

	out = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(root);
	if (out == NULL)
		return js;
	free(js);
	js = xstrdup(out);
	free(out);
	return js;
}

/*
 * The JSON of a daily episode with its "people" key added: the days'
 * commit authors (one day's, or a show's several) and their counts,
 * which the weekly recap reads back, and their logins, by which the
 * audio says a name it can't read (say.h).
 */
static char *
emit_add_people(char *js, const struct day *const *days, size_t ndays)
{
	struct recap_person	*people;
	size_t			 n, i, d, k;
	json_t			*root, *list, *p, *q;
	const char		*name;

	if ((root = json_loads(js, 0, NULL)) == NULL || !json_is_object(root)) {
		json_decref(root);
		return js;
	}
	list = json_array();
	for (d = 0; d < ndays; d++) {
		n = recap_people(days[d], &people);
		for (i = 0; i < n; i++) {
			/* one person of several days (a show's) once */
			for (k = 0, q = NULL; q == NULL &&
			    k < json_array_size(list); k++) {
				q = json_array_get(list, k);
				name = json_string_value(json_object_get(q,
				    "name"));
				if (name == NULL ||
				    strcmp(name, people[i].name) != 0)
					q = NULL;
			}
			if (q != NULL) {
				json_object_set_new(q, "commits",
				    json_integer(json_integer_value(
				    json_object_get(q, "commits")) +
				    (json_int_t)people[i].commits));
				continue;
			}
			p = json_pack("{s:s, s:I, s:b}", "name",
			    people[i].name, "commits",
			    (json_int_t)people[i].commits, "bot",
			    people[i].bot);
			if (p != NULL && people[i].login != NULL)
				json_object_set_new(p, "login",
				    json_string(people[i].login));
			if (p != NULL)	/* NULL: a name that isn't UTF-8 */
				json_array_append_new(list, p);
		}
		recap_people_free(people, n);
	}
	json_object_set_new(root, "people", list);
	return emit_redump(js, root);
}

/*
 * The JSON of an episode with its "draft" key added: who wrote the
 * transcript (the model or the template), the model asked, why its
 * rewrite was refused (null when it was not), and with the model's the
 * sentences of its reply the fence dropped, each with why.
 */
static char *
emit_add_draft(char *js, const struct llm_conf *llm,
    const struct emit_result *res)
{
	json_t	*root, *draft, *dropped, *one;
	size_t	 i;

	if ((root = json_loads(js, 0, NULL)) == NULL || !json_is_object(root)) {
		json_decref(root);
		return js;
	}
	draft = json_pack("{s:s, s:o, s:o}", "by", res->draft_by, "model",
	    llm->model != NULL ? json_string(llm->model) : json_null(),
	    "rejected", res->draft_rejected != NULL ?
	    json_string(res->draft_rejected) : json_null());
	if (draft != NULL && strcmp(res->draft_by, "model") == 0) {
		dropped = json_array();
		for (i = 0; i < res->ndraft_dropped; i++) {
			one = json_pack("{s:s, s:s}", "sentence",
			    res->draft_dropped[i].sentence, "reason",
			    res->draft_dropped[i].reason);
			if (one != NULL)	/* NULL: not UTF-8 */
				json_array_append_new(dropped, one);
		}
		json_object_set_new(draft, "dropped", dropped);
	}
	if (draft != NULL)
		json_object_set_new(root, "draft", draft);
	return emit_redump(js, root);
}

/*
 * Have the model rewrite ep's transcript: kept when it passes the fence,
 * with the words and duration it takes to say; else the draft stays and
 * the reason is logged. res says which.
 */
static void
emit_rewrite(const struct llm_conf *llm, struct sheet *sh, const char *what,
    struct episode *ep, struct emit_result *res)
{
	struct llm_result	 r;
	char			*detail;
	double			 wpm;
	size_t			 i;

	llm_rewrite_sheet(llm, sh, ep, &r);
	if (r.text == NULL) {
		res->draft_by = "template";
		res->draft_rejected = r.rejected;
		detail = log_escape(r.detail != NULL ? r.detail : "", 200);
		log_warnx("model rewrite of %s not used: %s (%s); the draft is "
		    "told", what, r.rejected, detail);
		free(detail);
		llm_result_clear(&r);
		return;
	}
	res->draft_by = "model";
	for (i = 0; i < r.ndropped; i++) {
		detail = log_escape(r.dropped[i].sentence, 200);
		log_info("model rewrite of %s: a sentence left out (%s): %s",
		    what, r.dropped[i].reason, detail);
		free(detail);
	}
	res->draft_dropped = r.dropped;
	res->ndraft_dropped = r.ndropped;
	r.dropped = NULL;
	r.ndropped = 0;
	free(ep->transcript);
	ep->transcript = r.text;
	r.text = NULL;
	ep->rewritten = 1;
	ep->words = text_word_count(ep->transcript);
	wpm = ep->words_per_minute > 0 ? ep->words_per_minute :
	    EPISODE_WORDS_PER_MINUTE;
	ep->duration = lround((double)spoken_said_words(ep->transcript) *
	    60.0 / wpm);
	log_notice("model rewrite of %s used: %zu words, %zu sentences left "
	    "out", what, ep->words, res->ndraft_dropped);
	llm_result_clear(&r);
}

/* public_url without its trailing slashes (new), or NULL when unset. */
static char *
emit_public_base(const struct emit_conf *conf)
{
	char	*u;
	size_t	 len;

	if (conf->public_url == NULL || *conf->public_url == '\0')
		return NULL;
	u = xstrdup(conf->public_url);
	len = strlen(u);
	while (len > 0 && u[len - 1] == '/')
		u[--len] = '\0';
	return u;
}

/* An ISO 8601 duration "PT4M21S" in seconds; 0 if it isn't one. */
static long
emit_iso_seconds(const char *s)
{
	long	total = 0, v = 0;
	int	digits = 0;

	if (s == NULL || strncmp(s, "PT", 2) != 0)
		return 0;
	for (s += 2; *s != '\0'; s++) {
		if (*s >= '0' && *s <= '9') {
			if (v > 100000000)
				return 0;
			v = v * 10 + (*s - '0');
			digits = 1;
			continue;
		}
		if (!digits)
			return 0;
		if (*s == 'H')
			total += v * 3600;
		else if (*s == 'M')
			total += v * 60;
		else if (*s == 'S')
			total += v;
		else
			return 0;
		v = 0;
		digits = 0;
	}
	return digits ? 0 : total;
}

/*
 * Open (making it) the repository's folder under output_dir, never
 * through a symlink planted at OWNER or OWNER/REPO: the files written
 * there must not land anywhere else. A descriptor, or -1 with *cause.
 */
static int
emit_dir_open(const char *output_dir, const char *repo, char **cause)
{
	int	fd;

	if ((fd = file_dir_open(output_dir, repo, 1, EMIT_DIR_MODE)) == -1) {
		if (errno == ELOOP)
			xasprintf(cause, "%s/%s: a symbolic link on the way; "
			    "refusing to follow it", output_dir, repo);
		else
			xasprintf(cause, "%s/%s: %s", output_dir, repo,
			    strerror(errno));
	}
	return fd;
}

/*
 * A file name an episode's JSON may name beside it (its audio, its
 * captions): letters, digits, '.', '_' and '-', not starting with '.',
 * so it is one file of the folder and needs no escaping in a URL.
 */
static int
emit_sibling_ok(const char *name)
{
	size_t	len;

	if (name == NULL || name[0] == '\0' || name[0] == '.')
		return 0;
	len = strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789._-");
	return len == strlen(name) && len <= 128;
}

/* The size of the regular file dir/name (not a symlink), or -1. */
static long long
emit_file_size(const char *dir, const char *name)
{
	struct stat	 st;
	char		*path;
	int		 ok;

	xasprintf(&path, "%s/%s", dir, name);
	ok = lstat(path, &st) == 0 && S_ISREG(st.st_mode);
	free(path);
	return ok ? (long long)st.st_size : -1;
}

/* An episode's length in whole seconds as its JSON gives it; 0: unknown. */
static long
emit_seconds(json_t *j, json_t *audio)
{
	json_t	*dur = json_object_get(j, "duration");
	json_t	*est = json_object_get(j, "duration_seconds");
	json_t	*real = json_object_get(audio, "seconds");
	long	 secs = 0;

	/* with audio, "duration" is the audio's real length */
	if (audio != NULL) {
		if (json_is_integer(dur))
			secs = (long)json_integer_value(dur);
		else
			secs = emit_iso_seconds(json_string_value(dur));
		if (secs <= 0 && json_is_number(real) &&
		    json_number_value(real) > 0 &&
		    json_number_value(real) < 1e8)
			secs = (long)(json_number_value(real) + 0.5);
		if (secs > 0)
			return secs;
	}
	if (json_is_integer(est))
		return (long)json_integer_value(est);
	if (json_is_integer(dur))
		return (long)json_integer_value(dur);
	return emit_iso_seconds(json_string_value(dur));
}

/* base/repo/file, or file alone without a base (new). */
static char *
emit_url(const char *base, const char *repo, const char *file)
{
	char	*u;

	if (base != NULL)
		xasprintf(&u, "%s/%s/%s", base, repo, file);
	else
		u = xstrdup(file);
	return u;
}

/* Strings an item owns: link, guid, enclosure and transcripts. */
#define EMIT_ITEM_STRINGS	(3 + FEED_MAX_TRANSCRIPTS)

/*
 * Fill an item from an archived episode's JSON j (strings borrowed from
 * j or put in own[], which the caller frees). The audio, when the JSON
 * has an "audio" object naming a file, is the enclosure: its length the
 * file's real size, or the JSON's "bytes" while the file isn't there.
 */
static void
emit_feed_item(const char *dir, const char *repo, const char *base,
    const struct archive_entry *e, json_t *j, struct feed_item *it,
    char **own)
{
	json_t		*audio = json_object_get(j, "audio");
	const char	*file, *vtt;
	char		*name;
	long long	 size;
	size_t		 o = 0;

	if (!json_is_object(audio))
		audio = NULL;
	it->title = json_string_value(json_object_get(j, "title"));
	it->description = json_string_value(json_object_get(j,
	    "description"));
	it->published = archive_time(json_string_value(json_object_get(j,
	    "published")));
	it->duration = emit_seconds(j, audio);
	/* the repository and the file's base name: one episode, ever */
	xasprintf(&own[o], "hookcast:%s:%s", repo, e->name);
	it->guid = own[o++];
	xasprintf(&name, "%s.md", e->name);
	if (base != NULL) {
		own[o] = emit_url(base, repo, name);
		it->link = own[o++];
	}
	free(name);

	file = json_string_value(json_object_get(audio, "file"));
	if (emit_sibling_ok(file)) {
		size = emit_file_size(dir, file);
		if (size < 0 && json_is_integer(json_object_get(audio,
		    "bytes")))
			size = (long long)json_integer_value(
			    json_object_get(audio, "bytes"));
		if (size > 0) {
			own[o] = emit_url(base, repo, file);
			it->enclosure_url = own[o++];
			it->enclosure_length = size;
			it->enclosure_type = json_string_value(
			    json_object_get(audio, "type"));
			if (it->enclosure_type == NULL ||
			    strncmp(it->enclosure_type, "audio/", 6) != 0)
				it->enclosure_type = "audio/mpeg";
		}
	}
	vtt = json_string_value(json_object_get(audio, "vtt"));
	if (emit_sibling_ok(vtt) && emit_file_size(dir, vtt) >= 0) {
		own[o] = emit_url(base, repo, vtt);
		it->transcripts[it->ntranscripts].url = own[o++];
		it->transcripts[it->ntranscripts++].type = "text/vtt";
	}
	xasprintf(&name, "%s.txt", e->name);
	if (emit_file_size(dir, name) >= 0) {
		own[o] = emit_url(base, repo, name);
		it->transcripts[it->ntranscripts].url = own[o++];
		it->transcripts[it->ntranscripts++].type = "text/plain";
	}
	free(name);
}

int
emit_podcast_guid(const char *feed_url, char *out, size_t outsz)
{
	/* the Podcast namespace's UUIDv5 namespace */
	static const unsigned char ns[16] = {
		0xea, 0xd4, 0xc2, 0x36, 0xbf, 0x58, 0x58, 0xc6,
		0xa2, 0xc6, 0xa6, 0xb2, 0x8d, 0x12, 0x8c, 0xb6,
	};
	unsigned char	 md[SHA_DIGEST_LENGTH];
	const char	*p, *name = feed_url;
	size_t		 len;
	EVP_MD_CTX	*ctx;
	int		 ok;

	if (outsz < 37 || feed_url == NULL)
		return -1;
	if ((p = strstr(feed_url, "://")) != NULL)
		name = p + 3;
	len = strlen(name);
	while (len > 0 && name[len - 1] == '/')
		len--;
	if (len == 0 || (ctx = EVP_MD_CTX_new()) == NULL)
		return -1;
	ok = EVP_DigestInit_ex(ctx, EVP_sha1(), NULL) == 1 &&
	    EVP_DigestUpdate(ctx, ns, sizeof(ns)) == 1 &&
	    EVP_DigestUpdate(ctx, name, len) == 1 &&
	    EVP_DigestFinal_ex(ctx, md, NULL) == 1;
	EVP_MD_CTX_free(ctx);
	if (!ok)
		return -1;
	md[6] = (md[6] & 0x0f) | 0x50;	/* version 5 */
	md[8] = (md[8] & 0x3f) | 0x80;	/* the RFC 4122 variant */
	snprintf(out, outsz, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
	    "%02x%02x%02x%02x%02x%02x", md[0], md[1], md[2], md[3], md[4],
	    md[5], md[6], md[7], md[8], md[9], md[10], md[11], md[12], md[13],
	    md[14], md[15]);
	return 0;
}

int
emit_feed(const struct emit_conf *conf, const char *repo, char **cause)
{
	struct archive		 ar;
	struct feed_channel	 ch;
	struct feed_item	*items;
	json_t		       **js;
	char			*dir, *path, *xml, *show, *base, *link;
	char			*description, *self = NULL, **owned, *feed;
	char			 guid[40];
	size_t			 i, k, n = 0, first, cap;
	int			 rc = 0, dfd = -1;

	if (archive_dir(conf->output_dir, repo, &dir, cause) == -1)
		return -1;
	archive_list(dir, &ar);
	cap = conf->feed_items > 0 ? (size_t)conf->feed_items : ar.n;
	first = ar.n > cap ? ar.n - cap : 0;
	items = xcalloc(ar.n - first + 1, sizeof(*items));
	js = xcalloc(ar.n - first + 1, sizeof(*js));
	owned = xcalloc(EMIT_ITEM_STRINGS * (ar.n - first) + 1,
	    sizeof(*owned));
	base = emit_public_base(conf);
	show = conf->show(conf->arg, repo);

	for (i = first; i < ar.n; i++) {
		if ((js[n] = archive_load(dir, &ar.v[i])) == NULL)
			continue;
		emit_feed_item(dir, repo, base, &ar.v[i], js[n], &items[n],
		    &owned[EMIT_ITEM_STRINGS * n]);
		n++;
	}

	memset(&ch, 0, sizeof(ch));
	if (base != NULL) {
		xasprintf(&link, "%s/%s/", base, repo);
		xasprintf(&self, "%s/%s/feed.xml", base, repo);
		/* the guid names the feed by its URL: none without one */
		if (emit_podcast_guid(self, guid, sizeof(guid)) == 0)
			ch.podcast_guid = guid;
	} else
		xasprintf(&link, "https://github.com/%s", repo);
	xasprintf(&description, "%s: a daily spoken briefing on what landed "
	    "in %s, what was rolled back and why, and what to try today.",
	    show, repo);
	ch.title = show;
	ch.link = link;
	ch.description = description;
	ch.language = "en";
	ch.author = "hookcast";
	ch.self_url = self;
	ch.image_url = conf->feed_image;
	ch.owner_name = conf->feed_owner_name;
	ch.owner_email = conf->feed_owner_email;
	ch.category = conf->feed_category;
	ch.locked = conf->feed_locked;
	ch.max_items = cap;
	xml = feed_render(&ch, items, n);

	path = archive_path(dir, ARCHIVE_FEED, "xml");
	xasprintf(&feed, "%s.xml", ARCHIVE_FEED);
	if ((dfd = emit_dir_open(conf->output_dir, repo, cause)) == -1)
		rc = -1;
	else if (file_write_atomicat(dfd, feed, xml, strlen(xml),
	    EMIT_FILE_MODE) == -1) {
		xasprintf(cause, "writing %s: %s", path, strerror(errno));
		rc = -1;
	} else
		log_debug("%s: %s with %zu item(s)", __func__, path, n);
	if (dfd != -1)
		close(dfd);
	free(feed);

	free(path);
	free(xml);
	free(description);
	free(link);
	free(self);
	for (i = 0; i < n; i++)
		json_decref(js[i]);
	for (k = 0; k < EMIT_ITEM_STRINGS * n; k++)
		free(owned[k]);
	free(owned);
	free(js);
	free(items);
	free(show);
	free(base);
	free(dir);
	archive_clear(&ar);
	return rc;
}

int
emit_free_space(const char *path, long long min, char **cause)
{
	struct statvfs	sv;
	long long	free_bytes;

	if (min <= 0)
		return 0;
	if (statvfs(path, &sv) == -1) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		return -1;
	}
	free_bytes = (long long)sv.f_bavail * (long long)sv.f_frsize;
	if (free_bytes < min) {
		xasprintf(cause, "%s: %lld bytes free, less than min_free_space "
		    "(%lld); not writing", path, free_bytes, min);
		return -1;
	}
	return 0;
}

/*
 * Remove the episodes of dir older than episode_retention_days as of now,
 * before the feed is rewritten: it never lists a removed one.
 */
static void
emit_retention(const struct emit_conf *conf, const char *dir, time_t now)
{
	struct tm	 tm;
	time_t		 t;
	char		 before[16];
	size_t		 n;

	if (conf->episode_retention_days <= 0)
		return;
	t = now - (time_t)conf->episode_retention_days * 86400;
	localtime_r(&t, &tm);
	strftime(before, sizeof(before), "%Y-%m-%d", &tm);
	if ((n = archive_prune(dir, before)) > 0)
		log_info("%s: removed %zu file(s) of episodes dated before %s "
		    "(episode_retention_days %d)", dir, n, before,
		    conf->episode_retention_days);
}

/* Rewrite the feed after an episode was written; a failure is logged. */
static void
emit_feed_after(const struct emit_conf *conf, const char *repo)
{
	char	*cause = NULL;

	if (emit_feed(conf, repo, &cause) == -1) {
		log_warnx("feed of %s: %s", repo, cause);
		free(cause);
	}
}

/*
 * An episode's spoken transcript as plain text (new): its text with one
 * newline at the end, for the .txt a podcast app shows as text/plain.
 */
static char *
emit_plain_text(const char *transcript)
{
	size_t	len = transcript != NULL ? strlen(transcript) : 0;
	char	*s;

	while (len > 0 && (transcript[len - 1] == '\n' ||
	    transcript[len - 1] == ' '))
		len--;
	xasprintf(&s, "%.*s\n", (int)len, len > 0 ? transcript : "");
	return s;
}

/*
 * Write an episode's .json, .md and .txt (the spoken transcript, plain)
 * as dir/name.*; 0 or -1 with *cause.
 */
static int
emit_write_episode(const struct emit_conf *conf, const char *repo,
    const char *dir, const char *name, const char *md, const char *js,
    const char *transcript, struct emit_result *res, char **cause)
{
	char	*json_name, *md_name, *txt_name, *txt;
	int	 dfd, rc = 0;

	if ((dfd = emit_dir_open(conf->output_dir, repo, cause)) == -1)
		return -1;
	res->md_path = archive_path(dir, name, "md");
	res->json_path = archive_path(dir, name, "json");
	xasprintf(&json_name, "%s.json", name);
	xasprintf(&md_name, "%s.md", name);
	xasprintf(&txt_name, "%s.txt", name);
	txt = emit_plain_text(transcript);
	if (file_write_atomicat(dfd, json_name, js, strlen(js),
	    EMIT_FILE_MODE) == -1 ||
	    file_write_atomicat(dfd, md_name, md, strlen(md),
	    EMIT_FILE_MODE) == -1 ||
	    file_write_atomicat(dfd, txt_name, txt, strlen(txt),
	    EMIT_FILE_MODE) == -1) {
		xasprintf(cause, "writing %s/%s: %s", dir, name,
		    strerror(errno));
		rc = -1;
	}
	free(txt);
	free(txt_name);
	free(json_name);
	free(md_name);
	close(dfd);
	return rc;
}

/*
 * The drafting options of an episode of repo told for the local date tm,
 * published now. Returns the show's name (new), which opts borrows.
 */
static char *
emit_opts(const struct emit_conf *conf, const char *repo, const struct tm *tm,
    time_t now, const struct episode_nearby *nearby, size_t nnearby,
    struct episode_opts *opts)
{
	char	*show = conf->show(conf->arg, repo);

	memset(opts, 0, sizeof(*opts));
	opts->show = show;
	opts->year = tm->tm_year + 1900;
	opts->month = tm->tm_mon + 1;
	opts->mday = tm->tm_mday;
	opts->published = now;
	opts->words_per_minute = conf->words_per_minute;
	opts->nearby = nearby;
	opts->nnearby = nnearby;
	return show;
}

/* A show's days, drafted each as its own episode (emit_member). */
struct emit_members {
	const struct emit_conf	*conf;
	struct day		**days;
	struct episode		**eps;	/* out, each member's */
	time_t			 now;
};

/*
 * Member i of m drafted, on its own date as its own episode tells it; run
 * in threads, each day and episode its own (the configuration is only
 * read).
 */
static void
emit_member(void *arg, size_t i)
{
	struct emit_members	*m = arg;
	struct episode_opts	 opts;
	struct tm		 tm;
	char			*own;

	localtime_r(&m->days[i]->start, &tm);
	day_pair_reverts(m->days[i]);
	own = emit_opts(m->conf, m->days[i]->repo, &tm, m->now, NULL, 0,
	    &opts);
	m->eps[i] = episode_draft(m->days[i], &opts);
	free(own);
}

/*
 * emit_day, or with reduced emit_day_reduced: the reduced drafter, and
 * none of what the full one reads besides the day (the earlier work, the
 * reverts paired, the model).
 */
static int
emit_draft(const struct emit_conf *conf, struct day *day, time_t now, int write,
    int reduced, struct emit_result *res, char **cause)
{
	struct episode_opts	 opts;
	struct episode		*ep;
	struct llm_conf		 llm;
	struct episode_nearby	*nearby = NULL;
	struct episode_work	*earlier = NULL;
	struct episode_said	*said = NULL;
	size_t			 nnearby = 0, nearlier = 0, nsaid = 0;
	struct tm		 tm;
	char			 date[16], *dir = NULL, *show, *name;
	char			*md = NULL, *js = NULL;

	memset(res, 0, sizeof(*res));
	if (archive_dir(conf->output_dir, day->repo, &dir, cause) == -1)
		return -1;
	localtime_r(&day->start, &tm);
	strftime(date, sizeof(date), "%Y-%m-%d", &tm);

	if (!reduced)
		day_pair_reverts(day);
	name = emit_pick_name(dir, date, day->start);
	emit_nearby(dir, name, &nearby, &nnearby);
	if (!reduced)
		emit_earlier(dir, name, &tm, &earlier, &nearlier);
	emit_said(dir, name, &tm, &said, &nsaid);
	show = emit_opts(conf, day->repo, &tm, now, nearby, nnearby, &opts);
	opts.earlier = earlier;
	opts.nearlier = nearlier;
	opts.said = said;
	opts.nsaid = nsaid;
	ep = reduced ? reduced_draft(day, &opts) : episode_draft(day, &opts);
	conf->llm(conf->arg, day->repo, &llm);
	if (reduced)
		llm.url = NULL;
	if (llm.url != NULL)
		emit_rewrite(&llm, sheet_of_episode(day, ep), day->repo, ep,
		    res);
	md = episode_render_md(ep);
	js = emit_add_people(episode_render_json(ep),
	    (const struct day *const *)&day, 1);
	if (llm.url != NULL)
		js = emit_add_draft(js, &llm, res);

	res->repo = xstrdup(day->repo);
	res->date = xstrdup(date);
	res->title = xstrdup(ep->title);
	if (write) {
		if (emit_free_space(conf->output_dir, conf->min_free_space,
		    cause) == -1 ||
		    emit_write_episode(conf, day->repo, dir, name, md, js,
		    ep->transcript, res,
		    cause) == -1)
			goto fail;
		emit_retention(conf, dir, now);
		/* the feed first: the log line says the episode is out */
		emit_feed_after(conf, day->repo);
		log_notice("emitted %s episode %s/%s: %s", day->repo, dir,
		    name, ep->title);
	}
	res->md_text = md;
	res->json_text = js;
	free(name);
	free(dir);
	free(show);
	episode_free(ep);
	emit_nearby_free(nearby, nnearby);
	earlier_free(earlier, nearlier);
	emit_said_free(said, nsaid);
	return 0;
fail:
	free(md);
	free(js);
	free(name);
	free(dir);
	free(show);
	episode_free(ep);
	emit_nearby_free(nearby, nnearby);
	earlier_free(earlier, nearlier);
	emit_said_free(said, nsaid);
	emit_result_clear(res);
	return -1;
}

int
emit_day(const struct emit_conf *conf, struct day *day, time_t now, int write,
    struct emit_result *res, char **cause)
{
	return emit_draft(conf, day, now, write, 0, res, cause);
}

int
emit_day_reduced(const struct emit_conf *conf, struct day *day, time_t now,
    int write, struct emit_result *res, char **cause)
{
	return emit_draft(conf, day, now, write, 1, res, cause);
}

int
emit_show(const struct emit_conf *conf, const char *show, const char *slug,
    struct day **days, size_t n, time_t now, int write,
    struct emit_result *res, char **cause)
{
	struct episode_opts	 opts;
	struct emit_members	 m;
	struct episode		*ep, **eps;
	struct show_part	*parts;
	struct episode_nearby	*nearby = NULL;
	struct llm_conf		 llm;
	size_t			 nnearby = 0, i;
	struct tm		 tm;
	time_t			 start = now;
	char			 date[16], *dir = NULL, *where, *name, *own;
	char			*md = NULL, *js = NULL;
	int			 rc = -1;

	memset(res, 0, sizeof(*res));
	xasprintf(&where, "shows/%s", slug);
	if (archive_dir(conf->output_dir, where, &dir, cause) == -1) {
		free(where);
		return -1;
	}
	for (i = 0; i < n; i++)
		if (i == 0 || days[i]->start > start)
			start = days[i]->start;
	localtime_r(&start, &tm);
	strftime(date, sizeof(date), "%Y-%m-%d", &tm);
	name = emit_pick_name(dir, date, start);
	emit_nearby(dir, name, &nearby, &nnearby);

	/*
	 * each repository's day drafted as its own episode would be, the
	 * days shared among threads (one per CPU, up to four): a show of
	 * many small days takes about as long as one day of as many commits
	 */
	parts = xcalloc(n + 1, sizeof *parts);
	eps = xcalloc(n + 1, sizeof *eps);
	m.conf = conf;
	m.days = days;
	m.eps = eps;
	m.now = now;
	parallel_for(n, 0, emit_member, &m);
	for (i = 0; i < n; i++) {
		parts[i].day = days[i];
		parts[i].ep = eps[i];
	}
	own = emit_opts(conf, where, &tm, now, nearby, nnearby, &opts);
	ep = show_draft(show, slug, parts, n, &opts);
	free(own);
	/* the show's model (its section's llm_ keys), fenced by its sheet */
	conf->llm(conf->arg, where, &llm);
	if (llm.url != NULL)
		emit_rewrite(&llm, sheet_of_show((const struct day *const *)
		    days, (const struct episode *const *)eps, n, ep), where,
		    ep, res);
	md = episode_render_md(ep);
	js = emit_add_people(episode_render_json(ep),
	    (const struct day *const *)days, n);
	if (llm.url != NULL)
		js = emit_add_draft(js, &llm, res);
	res->repo = xstrdup(where);
	res->date = xstrdup(date);
	res->title = xstrdup(ep->title);
	if (write) {
		if (emit_free_space(conf->output_dir, conf->min_free_space,
		    cause) == -1 || emit_write_episode(conf, where, dir, name,
		    md, js, ep->transcript, res, cause) == -1)
			goto out;
		emit_retention(conf, dir, now);
		emit_feed_after(conf, where);
		log_notice("emitted show %s episode %s/%s: %s", show, dir,
		    name, ep->title);
	}
	res->md_text = md;
	res->json_text = js;
	md = js = NULL;
	rc = 0;
out:
	if (rc == -1)
		emit_result_clear(res);
	free(md);
	free(js);
	episode_free(ep);
	for (i = 0; i < n; i++)
		episode_free(eps[i]);
	free(eps);
	free(parts);
	emit_nearby_free(nearby, nnearby);
	free(name);
	free(dir);
	free(where);
	return rc;
}

/* An archived episode as the recap reads it; strings borrowed from j. */
static void
emit_source(json_t *j, const struct archive_entry *e, struct recap_source *s)
{
	json_t			*stats, *segs, *seg, *ids, *people, *p;
	struct recap_segment	*sv;
	struct recap_person	*pv;
	const char		**cv;
	size_t			 i, k, nc;
	const char		*name;

	memset(s, 0, sizeof(*s));
	s->date = json_string_value(json_object_get(j, "date"));
	if (s->date == NULL || strncmp(s->date, e->date, 10) != 0)
		s->date = e->date;
	s->title = json_string_value(json_object_get(j, "title"));
	s->description = json_string_value(json_object_get(j,
	    "description"));
	s->focus = json_string_value(json_object_get(j, "focus"));
	s->window_start = archive_time(json_string_value(json_object_get(
	    json_object_get(j, "window"), "start")));
	s->window_end = archive_time(json_string_value(json_object_get(
	    json_object_get(j, "window"), "end")));
	stats = json_object_get(j, "stats");
#define EMIT_STAT(k) \
	s->stats.k = (size_t)(json_integer_value(json_object_get(stats, #k)) > 0 ? \
	    json_integer_value(json_object_get(stats, #k)) : 0)
	EMIT_STAT(commits);
	EMIT_STAT(merged_prs);
	EMIT_STAT(reverts);
	EMIT_STAT(relands);
	EMIT_STAT(authors);
	EMIT_STAT(pushes);
	EMIT_STAT(force_pushes);
#undef EMIT_STAT

	segs = json_object_get(j, "segments");
	sv = xcalloc(json_array_size(segs) + 1, sizeof(*sv));
	json_array_foreach(segs, i, seg) {
		sv[i].kind = json_string_value(json_object_get(seg, "kind"));
		ids = json_object_get(seg, "commits");
		cv = xcalloc(json_array_size(ids) + 1, sizeof(*cv));
		for (k = 0, nc = 0; k < json_array_size(ids); k++)
			if ((name = json_string_value(json_array_get(ids,
			    k))) != NULL)
				cv[nc++] = name;
		sv[i].commits = cv;
		sv[i].ncommits = nc;
	}
	s->segments = sv;
	s->nsegments = json_array_size(segs);

	people = json_object_get(j, "people");
	s->have_people = json_is_array(people);
	pv = xcalloc(json_array_size(people) + 1, sizeof(*pv));
	json_array_foreach(people, i, p) {
		name = json_string_value(json_object_get(p, "name"));
		if (name == NULL)
			continue;
		/* borrowed: emit_source_clear frees the array only */
		pv[s->npeople].name = (char *)name;
		pv[s->npeople].commits = (size_t)(json_integer_value(
		    json_object_get(p, "commits")) > 0 ? json_integer_value(
		    json_object_get(p, "commits")) : 0);
		pv[s->npeople].bot = json_is_true(json_object_get(p, "bot"));
		s->npeople++;
	}
	s->people = pv;
}

static void
emit_source_clear(struct recap_source *s)
{
	size_t	i;

	for (i = 0; i < s->nsegments; i++)
		free((void *)s->segments[i].commits);
	free((void *)s->segments);
	free((void *)s->people);
	memset(s, 0, sizeof(*s));
}

int
emit_recap(const struct emit_conf *conf, const char *repo, time_t now,
    int write, struct emit_result *res, char **cause)
{
	struct archive		 ar;
	struct recap_source	*src;
	json_t		       **js;
	struct episode_opts	 opts;
	struct episode		*ep;
	struct episode_nearby	*nearby = NULL;
	size_t			 nnearby = 0, i, n = 0;
	struct tm		 tm;
	char			 date[16], from[16], *dir, *show, *name;
	char			*md = NULL, *json = NULL;
	int			 rc = 0;

	memset(res, 0, sizeof(*res));
	if (archive_dir(conf->output_dir, repo, &dir, cause) == -1)
		return -1;
	/* the week: the local date of now and the six days before it */
	localtime_r(&now, &tm);
	strftime(date, sizeof(date), "%Y-%m-%d", &tm);
	emit_date_before(&tm, 6, from, sizeof(from));

	archive_list(dir, &ar);
	src = xcalloc(ar.n + 1, sizeof(*src));
	js = xcalloc(ar.n + 1, sizeof(*js));
	for (i = 0; i < ar.n; i++) {
		if (ar.v[i].seq == ARCHIVE_RECAP ||
		    strcmp(ar.v[i].date, from) < 0 ||
		    strcmp(ar.v[i].date, date) > 0)
			continue;
		if ((js[n] = archive_load(dir, &ar.v[i])) == NULL)
			continue;
		emit_source(js[n], &ar.v[i], &src[n]);
		n++;
	}
	if (n == 0) {
		xasprintf(cause, "no episodes of %s from %s to %s", repo, from,
		    date);
		rc = -1;
		goto done;
	}

	xasprintf(&name, "%s-recap", date);
	emit_nearby(dir, name, &nearby, &nnearby);
	show = emit_opts(conf, repo, &tm, now, nearby, nnearby, &opts);
	ep = recap_draft(repo, src, n, &opts);
	md = episode_render_md(ep);
	json = episode_render_json(ep);

	res->repo = xstrdup(repo);
	res->date = xstrdup(date);
	res->title = xstrdup(ep->title);
	if (write) {
		if (emit_free_space(conf->output_dir, conf->min_free_space,
		    cause) == -1 ||
		    emit_write_episode(conf, repo, dir, name, md, json,
		    ep->transcript, res,
		    cause) == -1) {
			emit_result_clear(res);
			rc = -1;
		} else {
			emit_retention(conf, dir, now);
			emit_feed_after(conf, repo);
			log_notice("emitted %s weekly recap %s/%s of %zu "
			    "episode(s): %s", repo, dir, name, n, ep->title);
		}
	}
	if (rc == 0) {
		res->md_text = md;
		res->json_text = json;
		md = json = NULL;
	}
	free(md);
	free(json);
	free(name);
	free(show);
	episode_free(ep);
	emit_nearby_free(nearby, nnearby);
done:
	for (i = 0; i < n; i++) {
		emit_source_clear(&src[i]);
		json_decref(js[i]);
	}
	free(src);
	free(js);
	free(dir);
	archive_clear(&ar);
	return rc;
}
