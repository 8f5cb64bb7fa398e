/* hookcastd: the daemon's operations: replay, emission, status, reload. */
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>
#include <jansson.h>

#include "archive.h"
#include "backfill.h"
#include "outbox.h"
#include "buf.h"
#include "control.h"
#include "daemon.h"
#include "day.h"
#include "drafter.h"
#include "emit.h"
#include "http.h"
#include "journal.h"
#include "redisj.h"
#include "jrecord.h"
#include "notify.h"
#include "pubconf.h"
#include "repo.h"
#include "tls.h"
#include "log.h"
#include "schedule.h"
#include "showday.h"
#include "webhook.h"
#include "xmalloc.h"

/* Flags that are not config keys. */
const char *const hookcastd_passthrough[] = {
	"--check-config", "--as-unit", "--print-config", "--help", "--version",
	NULL
};

static void
hookcastd_iso(time_t t, char *out, size_t len)
{
	struct tm	tm;

	gmtime_r(&t, &tm);
	strftime(out, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void
hookcastd_limits(const struct config *conf, struct http_limits *l)
{
	l->max_header = (size_t)conf->max_header;
	l->max_body = (size_t)conf->max_body;
	l->timeout = conf->read_timeout;
	l->max_connections = conf->max_connections;
	l->max_per_peer = conf->max_connections_per_peer;
	l->max_buffered = (size_t)conf->max_buffered_bodies;
	/* a usual delivery is let in even when big bodies fill the budget */
	l->small_body = 64 * 1024;
	l->head_timeout = conf->head_timeout;
	l->idle_timeout = conf->idle_timeout;
}

void
hookcastd_store_limits(struct hookcastd *d)
{
	struct store_limits	l;

	l.max_repositories = (size_t)d->conf.max_repositories;
	l.max_seen = (size_t)d->conf.max_seen;
	l.max_commits_per_day = (size_t)d->conf.max_commits_per_day;
	l.max_deliveries_per_day = (size_t)d->conf.max_deliveries_per_day;
	l.max_open_bytes = (size_t)d->conf.max_open_bytes;
	store_set_limits(d->store, &l);
}

int
hookcastd_has_activity(const struct day *day)
{
	return day->ncommits > 0 || day->nprs > 0 || day->npushes > 0;
}

/*
 * Hand a repository's open day to the drafter, its new day starting at
 * start, journalled first: records after the hand-off are the new day's.
 * 0, or -1 when a draft of its previous day is still in progress. On the
 * shared journal, due is the emission it is for (0 for a flush), and the
 * result may also be HOOKCAST_HANDOFF_ELSEWHERE (another receiver
 * hands it off) or HOOKCAST_HANDOFF_FAILED (Redis failed).
 */
static int
hookcastd_handoff(struct hookcastd *d, struct store_repo *r, time_t start,
    time_t due)
{
	struct buf	rec;

	if (r->drafting != NULL)
		return -1;
	if (d->redisj != NULL)
		return hookcastd_redis_handoff(d, r, start, due);
	/*
	 * Deliveries written before the hand-off belong to the day handed
	 * off: finish their batch (sync, then into the store) first, so
	 * their records also come before the hand-off record.
	 */
	webhook_flush(d);
	buf_init(&rec);
	if (jrecord_write_handoff(&rec, r->name, start) == -1 ||
	    journal_append_bytes(d->journal, rec.data, rec.len) == -1 ||
	    journal_sync(d->journal) == -1)
		log_warn("journal: recording the hand-off of %s", r->name);
	buf_free(&rec);
	store_handoff(d->store, r, start);
	return 0;
}

void
hookcastd_gap(struct hookcastd *d, const char *repo)
{
	if (d->backfill != NULL)
		backfill_request(d->backfill, repo);
}

/*
 * A "d" record's items into store's day of its repository (created with
 * a day from start); the repository's entry, or NULL for a record
 * without one. Its pushes are noted as heads when heads is set.
 */
struct store_repo *
hookcastd_take_record(struct store *store, struct jrecord *rec,
    time_t start, int heads)
{
	struct store_repo	*r;
	size_t			 i, npushes;

	if (rec->repo == NULL)
		return NULL;
	r = store_repo(store, rec->repo, 1, start);
	if (r->day->default_branch == NULL && rec->db != NULL) {
		r->day->default_branch = rec->db;
		rec->db = NULL;
	}
	/* journals before links have no "hu"; a bad one is dropped */
	if (r->day->html_url == NULL && rec->hu != NULL &&
	    repo_url_ok(rec->hu, rec->repo)) {
		r->day->html_url = rec->hu;
		rec->hu = NULL;
	}
	npushes = r->day->npushes;
	if (jrecord_take(rec, r->day) == -1)
		log_warnx("journal: a malformed record for %s", rec->repo);
	/* what the delivery took counts as it did before the restart */
	store_recount(store, r);
	for (i = npushes; heads && i < r->day->npushes; i++)
		store_note_push(r, day_push(r->day, i));
	return r;
}

/* Apply one decoded journal record to the store. */
static void
hookcastd_apply_record(struct hookcastd *d, struct jrecord *rec)
{
	const char		*repo = rec->repo;
	struct store_repo	*r;
	time_t			 start;
	size_t			 i;

	start = rec->has_start ? rec->start : d->window_start;
	switch (rec->kind) {
	case 'd':
		if (hookcastd_take_record(d->store, rec, start, 1) != NULL &&
		    rec->key != NULL)
			store_mark(d->store, rec->key, rec->at);
		break;
	case 'r':	/* emitted, as journals before the drafter said it */
		if (repo == NULL)
			break;
		if ((r = store_repo(d->store, repo, 0, 0)) != NULL)
			day_free(store_rotate(d->store, r, start));
		break;
	case 'h':
		if (repo == NULL)
			break;
		r = store_repo(d->store, repo, 1, start);
		/* a hand-off without an outcome before it: keep both days */
		if (r->drafting != NULL)
			store_merge_back(d->store, r);
		store_handoff(d->store, r, start);
		break;
	case 'e':
		if (repo != NULL && (r = store_repo(d->store, repo, 0, 0)) !=
		    NULL)
			day_free(store_drafted(d->store, r));
		break;
	case 'm':
		if (repo != NULL && (r = store_repo(d->store, repo, 0, 0)) !=
		    NULL)
			store_merge_back(d->store, r);
		break;
	case 'w':
		d->window_start = start;
		break;
	case 's':
		for (i = 0; i < rec->nseen; i++)
			store_mark(d->store, rec->seen[i], rec->seen_at[i]);
		break;
	}
}

int
hookcastd_apply_raw(const char *payload, size_t len, void *arg)
{
	struct jrecord	rec;

	struct hookcastd	*d = arg;
	int			 copy;

	if (jrecord_decode(payload, len, &rec) == -1)
		return -1;
	/* a show's copy of a day, or a marker of a show's days */
	if (rec.show != NULL || (rec.repo != NULL &&
	    strncmp(rec.repo, SHOWDAY_PREFIX, strlen(SHOWDAY_PREFIX)) == 0)) {
		showday_apply(d, &rec);
		jrecord_clear(&rec);
		return 0;
	}
	/* a delivery as accepted: the scheduled shows copy it as they did */
	copy = rec.kind == 'd' && rec.key != NULL && rec.repo != NULL &&
	    showday_wants(d, rec.repo);
	hookcastd_apply_record(d, &rec);
	if (copy)
		showday_copy(d, rec.repo, payload, len);
	jrecord_clear(&rec);
	return 0;
}

/* Is position a (ms, seq) before b? An unknown b (0, 0) is after all. */
static int
hookcastd_before(const uint64_t a[2], const uint64_t b[2])
{
	if (b[0] == 0 && b[1] == 0)
		return 1;
	return a[0] < b[0] || (a[0] == b[0] && a[1] < b[1]);
}

/* dst becomes the earlier of dst and src (an unknown src changes none). */
static void
hookcastd_earliest(uint64_t dst[2], const uint64_t src[2])
{
	if ((src[0] != 0 || src[1] != 0) && hookcastd_before(src, dst)) {
		dst[0] = src[0];
		dst[1] = src[1];
	}
}

int
hookcastd_apply_entry(struct hookcastd *d, const char *payload, size_t len,
    int mine, uint64_t ms, uint64_t seq)
{
	struct jrecord		 rec;
	struct store_repo	*r;
	uint64_t		 at[2] = { ms, seq }, *open, *drafting;
	int			 had = 0;

	if (jrecord_decode(payload, len, &rec) == -1)
		return -1;
	if (rec.repo != NULL &&
	    (r = store_repo(d->store, rec.repo, 0, 0)) != NULL)
		had = r->drafting != NULL;
	/* this receiver's outcome changed its store as it wrote it */
	if (!(mine && (rec.kind == 'e' || rec.kind == 'm')))
		hookcastd_apply_record(d, &rec);
	if (rec.repo != NULL &&
	    (r = store_repo(d->store, rec.repo, 0, 0)) != NULL) {
		open = r->begins[0];
		drafting = r->begins[1];
		switch (rec.kind) {
		case 'd':
			hookcastd_earliest(open, at);
			break;
		case 'h':
			/* over a hand-off without an outcome: both days */
			if (!had)
				drafting[0] = drafting[1] = 0;
			hookcastd_earliest(drafting, open);
			open[0] = open[1] = 0;
			break;
		case 'm':
			hookcastd_earliest(open, drafting);
			drafting[0] = drafting[1] = 0;
			break;
		case 'e':
			drafting[0] = drafting[1] = 0;
			break;
		}
	}
	jrecord_clear(&rec);
	return 0;
}

int
hookcastd_stream_keeps(struct hookcastd *d, uint64_t from[2])
{
	struct store_repo	*r;
	size_t			 i, k;
	int			 any = 0;

	for (i = 0; i < store_nrepos(d->store); i++) {
		r = store_repo_at(d->store, i);
		for (k = 0; k < 2; k++) {
			if (r->begins[k][0] == 0 && r->begins[k][1] == 0)
				continue;
			if (!any || hookcastd_before(r->begins[k], from)) {
				from[0] = r->begins[k][0];
				from[1] = r->begins[k][1];
				any = 1;
			}
		}
	}
	return any;
}

void
hookcastd_apply(json_t *rec, void *arg)
{
	char	*buf;
	size_t	 len;

	len = json_dumpb(rec, NULL, 0, JSON_COMPACT);
	buf = xmalloc(len + 1);
	if (json_dumpb(rec, buf, len, JSON_COMPACT) == len)
		(void)hookcastd_apply_raw(buf, len, arg);
	free(buf);
}

int
hookcastd_compact(struct hookcastd *d)
{
	struct buf		 *recs;
	char			**keys;
	time_t			 *at;
	size_t			  nseen, n = 0, i;
	struct store_repo	 *r;
	char			 *why = NULL;
	int			  rc;

	/* the shared journal is trimmed, not rewritten */
	if (d->redisj != NULL)
		return 0;

	/*
	 * Deliveries written but not yet synced are in the journal and not
	 * yet in the store: a rewrite from the store would drop them and the
	 * batch would then answer 200. Finish the batch first (sync, then
	 * accept into the store or answer 503); journal_rewrite refuses
	 * while records are unsynced, should anything else forget this.
	 */
	webhook_flush(d);
	/*
	 * With journal_fsync=none what is unsynced is in the store already
	 * (never so in batch mode: that is what the rewrite refuses).
	 */
	if (d->conf.journal_fsync == JOURNAL_SYNC_NONE &&
	    journal_unsynced(d->journal) && journal_sync(d->journal) == -1) {
		log_warn("journal: sync before compaction failed; the journal "
		    "grows on");
		return -1;
	}
	if (emit_free_space(d->conf.state_dir, d->conf.min_free_space,
	    &why) == -1) {
		log_warnx("journal: not compacting: %s", why);
		free(why);
		return -1;
	}
	nseen = store_seen_list(d->store, &keys, &at);
	recs = xcalloc(2, sizeof(*recs));
	buf_init(&recs[n]);
	jrecord_write_window(&recs[n++], d->window_start);
	buf_init(&recs[n]);
	jrecord_write_seen(&recs[n++], (const char *const *)keys, at, nseen);
	rc = 0;
	/*
	 * A day in records of bounded size, as many as it takes; a day with
	 * the drafter comes first, handed off again to the open day.
	 */
	for (i = 0; i < store_nrepos(d->store); i++) {
		r = store_repo_at(d->store, i);
		if (r->drafting != NULL) {
			jrecord_write_day(r->drafting, &recs, &n);
			recs = xreallocarray(recs, n + 1, sizeof(*recs));
			buf_init(&recs[n]);
			if (jrecord_write_handoff(&recs[n++], r->name,
			    r->day->start) == -1)
				rc = -1;
		}
		if (hookcastd_has_activity(r->day))
			jrecord_write_day(r->day, &recs, &n);
	}
	if (showday_compact(d, &recs, &n) == -1)
		rc = -1;
	if (rc == 0)
		rc = journal_rewrite_bytes(d->journal, recs, n);
	if (rc == -1)
		log_warn("journal: compaction failed; the journal grows on");
	else
		log_info("journal compacted to %lld bytes",
		    (long long)journal_size(d->journal));
	for (i = 0; i < n; i++)
		buf_free(&recs[i]);
	free(recs);
	for (i = 0; i < nseen; i++)
		free(keys[i]);
	free(keys);
	free(at);
	return rc;
}

/* Append {"ok":true,"episodes":list} to out, stealing list. */
static void
hookcastd_reply_episodes(struct buf *out, json_t *list)
{
	json_t	*reply = json_pack("{s:b, s:o}", "ok", 1, "episodes", list);
	char	*s = json_dumps(reply, JSON_COMPACT);

	buf_puts(out, s);
	free(s);
	json_decref(reply);
}

void
hookcastd_shows(const struct hookcastd *d, struct strlist *out)
{
	size_t	i;

	for (i = 0; i < d->conf.nshows; i++)
		if (!config_show_scheduled(&d->conf.shows[i]))
			strlist_add(out, d->conf.shows[i].name);
}

/* A scheduled show's days with something to tell, emitted now. */
static void
hookcastd_flush_showday(struct hookcastd *d, struct showday *sd, time_t now)
{
	const struct show_conf	*sc = showday_conf(d, sd);
	struct strlist		 repos = { NULL, 0 }, shows = { NULL, 0 };

	showday_members(sd, 0, &repos);
	if (sc != NULL && repos.n > 0 && showday_handoff(d, sd, now) == 0) {
		strlist_clear(&repos);
		strlist_add(&shows, sc->name);
		drafter_queue(d->drafter, DRAFTER_EMIT, &repos, &shows, now, 0,
		    NULL);
		strlist_clear(&shows);
	}
	strlist_clear(&repos);
}

/*
 * A flush or preview of a show on a schedule of its own: of its copies
 * of its members' days (a flush hands them off, as its timer would).
 */
static int
hookcastd_emit_showday(struct hookcastd *d, struct showday *sd,
    const struct show_conf *sc, int write, char **cause,
    struct control_reply *later)
{
	struct strlist	repos = { NULL, 0 }, shows = { NULL, 0 };
	time_t		now = time(NULL);

	showday_members(sd, 0, &repos);
	if (repos.n == 0) {
		strlist_clear(&repos);
		xasprintf(cause, "no activity for the show %s", sc->name);
		return -1;
	}
	strlist_clear(&repos);
	if (write && showday_handoff(d, sd, now) == -1) {
		xasprintf(cause, "the previous days of the show %s are still "
		    "being drafted; flush again once they are out", sc->name);
		return -1;
	}
	strlist_add(&shows, sc->name);
	drafter_queue(d->drafter, write ? DRAFTER_EMIT : DRAFTER_PREVIEW,
	    &repos, &shows, now, 0, later);
	strlist_clear(&shows);
	return CONTROL_LATER;
}

/* The repositories of show sc with a day to tell, into out. */
static void
hookcastd_show_repos(struct hookcastd *d, const struct show_conf *sc,
    int write, struct strlist *out)
{
	struct store_repo	*r;
	size_t			 i;

	for (i = 0; i < store_nrepos(d->store); i++) {
		r = store_repo_at(d->store, i);
		if (!show_conf_matches(sc, r->name) ||
		    !hookcastd_has_activity(r->day))
			continue;
		if (write && r->drafting != NULL) {
			log_info("flush: %s's previous day is still being "
			    "drafted; its day carries on", r->name);
			continue;
		}
		strlist_add(out, r->name);
	}
}

/* Each show: its name, slug, and its repositories with an open day. */
static json_t *
hookcastd_status_shows(struct hookcastd *d)
{
	const struct show_conf	*sc;
	struct showday		*sd;
	struct strlist		 open = { NULL, 0 };
	json_t			*v = json_array(), *show;
	size_t			 i;
	char			 next[32];

	for (i = 0; i < d->conf.nshows; i++) {
		sc = &d->conf.shows[i];
		if ((sd = showday_find(d, sc->name)) != NULL)
			showday_members(sd, 0, &open);
		else
			hookcastd_show_repos(d, sc, 0, &open);
		json_array_append_new(v, show = json_pack("{s:s, s:s, s:I}",
		    "name", sc->name, "slug", sc->slug, "active",
		    (json_int_t)open.n));
		if (sd != NULL) {
			hookcastd_iso(sd->next_emit, next, sizeof(next));
			json_object_set_new(show, "next_emit",
			    json_string(next));
		}
		strlist_clear(&open);
	}
	return v;
}

/*
 * Hand off the days of repos for a flush, keeping in repos those handed
 * off (on the shared journal, one another receiver holds is left). 0, or
 * -1 when none is left.
 */
static int
hookcastd_handoff_all(struct hookcastd *d, struct strlist *repos, time_t now)
{
	struct strlist	kept = { NULL, 0 };
	size_t		i;

	for (i = 0; i < repos->n; i++)
		if (hookcastd_handoff(d, store_repo(d->store, repos->v[i], 0,
		    0), now, 0) == 0)
			strlist_add(&kept, repos->v[i]);
	strlist_clear(repos);
	*repos = kept;
	return repos->n > 0 ? 0 : -1;
}

int
hookcastd_emit(struct hookcastd *d, const char *repo, int write,
    struct buf *out, char **cause, struct control_reply *later)
{
	struct strlist		 repos = { NULL, 0 }, shows = { NULL, 0 };
	const struct show_conf	*sc;
	struct showday		*sd;
	struct store_repo	*r;
	time_t			 now = time(NULL);
	size_t			 i;
	char			*esc;

	/* a show by its name or slug: its repositories with a day to tell */
	if (repo != NULL && strchr(repo, '/') == NULL &&
	    (sc = config_show_find(&d->conf, repo)) != NULL &&
	    (sd = showday_find(d, repo)) != NULL)
		return hookcastd_emit_showday(d, sd, sc, write, cause, later);
	if (repo != NULL && strchr(repo, '/') == NULL &&
	    (sc = config_show_find(&d->conf, repo)) != NULL) {
		hookcastd_show_repos(d, sc, write, &repos);
		if (repos.n == 0) {
			xasprintf(cause, "no activity for the show %s", sc->name);
			return -1;
		}
		strlist_add(&shows, sc->name);
	} else if (repo != NULL && strchr(repo, '/') == NULL) {
		esc = log_escape(repo, 140);
		xasprintf(cause, "no show %s in the configuration", esc);
		free(esc);
		return -1;
	} else if (repo != NULL) {
		r = store_repo(d->store, repo, 0, 0);
		esc = log_escape(repo, 140);
		if (r == NULL || !hookcastd_has_activity(r->day)) {
			xasprintf(cause, "no activity for %s%s", esc,
			    r != NULL && r->drafting != NULL ?
			    " since its last episode (being drafted)" : "");
			free(esc);
			return -1;
		}
		if (write && r->drafting != NULL) {
			xasprintf(cause, "the previous day of %s is still "
			    "being drafted; flush again once it is out", esc);
			free(esc);
			return -1;
		}
		free(esc);
		strlist_add(&repos, r->name);
	} else {
		for (i = 0; i < store_nrepos(d->store); i++) {
			r = store_repo_at(d->store, i);
			if (!hookcastd_has_activity(r->day))
				continue;
			if (write && r->drafting != NULL) {
				log_info("flush: %s's previous day is still "
				    "being drafted; its day carries on",
				    r->name);
				continue;
			}
			strlist_add(&repos, r->name);
		}
		hookcastd_shows(d, &shows);
	}
	/* a flush of everything flushes the scheduled shows too */
	for (i = 0; repo == NULL && write && i < d->nshowdays; i++)
		hookcastd_flush_showday(d, d->showdays[i], now);
	if (repos.n == 0) {
		hookcastd_reply_episodes(out, json_array());
		strlist_clear(&shows);
		return 0;
	}
	if (write && hookcastd_handoff_all(d, &repos, now) == -1) {
		xasprintf(cause, "%s", d->redisj != NULL ? "another receiver "
		    "holds the day, or Redis failed (see the log)" :
		    "nothing to hand off");
		strlist_clear(&shows);
		return -1;
	}
	drafter_queue(d->drafter, write ? DRAFTER_EMIT : DRAFTER_PREVIEW,
	    &repos, &shows, now, 0, later);
	strlist_clear(&repos);
	strlist_clear(&shows);
	return CONTROL_LATER;
}

/*
 * The weekday (tm_wday, or RECAP_WEEKDAY_NONE) of the weekly recap of
 * name: a show's (shows/SLUG) is its section's recap_weekday, else the
 * global one's.
 */
static int
hookcastd_recap_weekday(const struct hookcastd *d, const char *name)
{
	const struct show_conf	*sc;
	struct config		 eff;

	if (strncmp(name, "shows/", 6) != 0 ||
	    (sc = config_show_find(&d->conf, name + 6)) == NULL)
		return d->conf.recap_weekday;
	config_show_settings(&d->conf, sc, &eff);
	return eff.recap_weekday;
}

int
hookcastd_recap_due(const struct hookcastd *d, int wday)
{
	size_t	i;
	char	*name;
	int	 due = d->conf.recap_weekday == wday;

	for (i = 0; !due && i < d->conf.nshows; i++) {
		xasprintf(&name, "shows/%s", d->conf.shows[i].slug);
		due = hookcastd_recap_weekday(d, name) == wday;
		free(name);
	}
	return due;
}

int
hookcastd_recap_write(struct hookcastd *d, const char *repo, time_t now,
    int wday, json_t *list, char **cause)
{
	struct strlist		 repos = { NULL, 0 };
	struct emit_conf	 ec;
	struct emit_result	 res;
	size_t			 i;
	char			*why = NULL;
	int			 rc = 0;

	if (repo != NULL)
		strlist_add(&repos, repo);
	else {
		for (i = 0; i < store_nrepos(d->store); i++)
			strlist_add(&repos, store_repo_at(d->store, i)->name);
		archive_repos(d->conf.output_dir, &repos);
	}
	pubconf_emit(&d->conf, &ec);
	for (i = 0; i < repos.n; i++) {
		if (wday != -1 && hookcastd_recap_weekday(d, repos.v[i]) !=
		    wday)
			continue;
		if (emit_recap(&ec, repos.v[i], now, 1, &res,
		    &why) == -1) {
			if (repo != NULL) {
				*cause = why;
				rc = -1;
				break;
			}
			log_debug("recap of %s: %s", repos.v[i], why);
			free(why);
			why = NULL;
			continue;
		}
		d->metrics.episodes_emitted++;
		metrics_emitted(&d->metrics, res.repo, time(NULL));
		json_array_append_new(list, json_pack("{s:s, s:s, s:s, s:s, "
		    "s:s}", "repo", res.repo, "date", res.date, "title",
		    res.title, "markdown", res.md_path, "json", res.json_path));
		emit_result_clear(&res);
	}
	strlist_clear(&repos);
	return rc;
}

int
hookcastd_recap(struct hookcastd *d, const char *repo, struct buf *out,
    char **cause)
{
	json_t	*list = json_array();
	size_t	 i;

	if (hookcastd_recap_write(d, repo, time(NULL), -1, list,
	    cause) == -1) {
		json_decref(list);
		return -1;
	}
	for (i = 0; i < json_array_size(list); i++)
		outbox_episode(d->outbox, json_array_get(list, i));
	hookcastd_reply_episodes(out, list);
	return 0;
}

/* The journal's engine and its state, for status. */
static json_t *
hookcastd_status_journal(struct hookcastd *d)
{
	struct buf		 b;
	struct store_repo	*r;
	json_t			*j, *drafting;
	char			 holder[256];
	size_t			 i;

	if (d->redisj == NULL)
		return json_pack("{s:s, s:I}", "engine", "file", "bytes",
		    (json_int_t)journal_size(d->journal));
	buf_init(&b);
	buf_puts(&b, "{");
	redisj_status(d->redisj, &b);
	buf_puts(&b, "}");
	j = json_loadb(b.data, b.len, 0, NULL);
	buf_free(&b);
	if (j == NULL)
		j = json_pack("{s:s}", "engine", "redis");
	/* the days being drafted, and which receiver's lease each is under */
	drafting = json_array();
	for (i = 0; i < store_nrepos(d->store); i++) {
		r = store_repo_at(d->store, i);
		if (r->drafting == NULL)
			continue;
		redisj_holder(d->redisj, r->name, holder, sizeof(holder));
		json_array_append_new(drafting, json_pack("{s:s, s:s?}",
		    "repo", r->name, "lease", holder[0] != '\0' ? holder :
		    NULL));
	}
	json_object_set_new(j, "drafting", drafting);
	return j;
}

int
hookcastd_status(struct hookcastd *d, const char *which, struct buf *out,
    char **cause)
{
	json_t			*j, *repos, *deliv;
	const struct show_conf	*sc = NULL;
	struct showday		*sd = NULL;
	struct store		*src;
	struct store_repo	*r;
	struct day_stats	 st;
	size_t			 i;
	char			 next[32], start[32], *s, *esc;

	/* of one repository, or of a show's by its slug */
	if (which != NULL && strchr(which, '/') == NULL &&
	    (sc = config_show_find(&d->conf, which)) == NULL) {
		esc = log_escape(which, 140);
		xasprintf(cause, "no show %s in the configuration", esc);
		free(esc);
		return -1;
	}
	/* a show on a schedule of its own: its copies of the days */
	src = d->store;
	if (sc != NULL && (sd = showday_find(d, sc->name)) != NULL)
		src = sd->store;
	repos = json_array();
	for (i = 0; i < store_nrepos(src); i++) {
		r = store_repo_at(src, i);
		if ((sc != NULL && !show_conf_matches(sc, r->name)) ||
		    (sc == NULL && which != NULL &&
		    strcasecmp(which, r->name) != 0))
			continue;
		day_stats(r->day, &st);
		hookcastd_iso(r->day->start, start, sizeof(start));
		json_array_append_new(repos, json_pack("{s:s, s:s, s:b, s:I, "
		    "s:I, s:I, s:I, s:I, s:I, s:I}", "repo", r->name, "since",
		    start, "drafting", r->drafting != NULL,
		    "commits", (json_int_t)st.commits,
		    "merged_prs", (json_int_t)st.merged_prs,
		    "reverts", (json_int_t)st.reverts,
		    "relands", (json_int_t)st.relands,
		    "authors", (json_int_t)st.authors,
		    "pushes", (json_int_t)st.pushes,
		    "force_pushes", (json_int_t)st.force_pushes));
	}
	deliv = json_pack("{s:I, s:I, s:I, s:I, s:I}",
	    "accepted", (json_int_t)metrics_outcome_total(&d->metrics,
	    OUTCOME_ACCEPTED),
	    "duplicate", (json_int_t)metrics_outcome_total(&d->metrics,
	    OUTCOME_DUPLICATE),
	    "ignored", (json_int_t)metrics_outcome_total(&d->metrics,
	    OUTCOME_IGNORED),
	    "rejected", (json_int_t)metrics_outcome_total(&d->metrics,
	    OUTCOME_REJECTED),
	    "unavailable", (json_int_t)metrics_outcome_total(&d->metrics,
	    OUTCOME_UNAVAILABLE));
	hookcastd_iso(d->next_emit, next, sizeof(next));
	j = json_pack("{s:b, s:s, s:I, s:s, s:s, s:o, s:o, s:I, s:I, s:o}",
	    "ok", 1,
	    "version", HOOKCAST_VERSION,
	    "uptime", (json_int_t)(time(NULL) - d->started),
	    "next_emit", next, "timezone", d->conf.timezone,
	    "repos", repos, "deliveries", deliv,
	    "episodes_emitted", (json_int_t)d->metrics.episodes_emitted,
	    "missed_deliveries", (json_int_t)d->missed_deliveries,
	    "sinks", outbox_status(d->outbox));
	/* the episodes' audio renderings, by outcome */
	json_object_set_new(j, "audio", json_pack("{s:I, s:I, s:I}",
	    "ok", (json_int_t)d->metrics.audio[MAUDIO_OK],
	    "failed", (json_int_t)d->metrics.audio[MAUDIO_FAILED],
	    "timeout", (json_int_t)d->metrics.audio[MAUDIO_TIMEOUT]));
	json_object_set_new(j, "shows", hookcastd_status_shows(d));
	json_object_set_new(j, "journal", hookcastd_status_journal(d));
	if (sc != NULL)
		json_object_set_new(j, "show", json_pack("{s:s, s:s}", "name",
		    sc->name, "slug", sc->slug));
	if (sd != NULL) {
		hookcastd_iso(sd->next_emit, next, sizeof(next));
		json_object_set_new(json_object_get(j, "show"), "next_emit",
		    json_string(next));
	}
	s = json_dumps(j, JSON_COMPACT);
	buf_puts(out, s);
	free(s);
	json_decref(j);
	return 0;
}


/*
 * Space under which the journal's filesystem counts as full: enough for a
 * usual delivery's record. A bigger one may still fail above it; that is
 * told by the failure itself (journal_failing).
 */
#define HOOKCAST_HEALTH_MIN_FREE	(64 * 1024)

/*
 * Would a journal write succeed now? A failed write is not retried by
 * GitHub, so after one the journal is probed from /healthz, at most once
 * a second: a block written and synced in the state directory, then
 * removed. Its success is the recovery a delivery would otherwise have
 * to find. 0, or -1 with errno.
 */
static int
hookcastd_probe(struct hookcastd *d)
{
	static const char	 block[4096];
	char			*path;
	int			 fd, rc = -1, saved;

	xasprintf(&path, "%s/.healthz-probe", d->conf.state_dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
	    0600);
	if (fd != -1) {
		if (write(fd, block, sizeof(block)) == (ssize_t)sizeof(block) &&
		    fdatasync(fd) == 0)
			rc = 0;
		else if (errno == 0)
			errno = ENOSPC;		/* a short write */
		saved = errno;
		close(fd);
		unlink(path);
		errno = saved;
	}
	free(path);
	return rc;
}

const char *
hookcastd_health(struct hookcastd *d, char *buf, size_t len)
{
	struct timespec	now;
	struct statvfs	sv;
	long long	avail;

	if (d->stopping)
		return "stopping";
	if (d->replaying)
		return "starting: replaying the journal";
	if (d->redisj != NULL && redisj_health(d->redisj) != NULL) {
		snprintf(buf, len, "redis: %s; deliveries get 503",
		    redisj_health(d->redisj));
		return buf;
	}
	if (d->journal_failing) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec != d->probed.tv_sec) {
			d->probed = now;
			errno = 0;
			if (hookcastd_probe(d) == 0) {
				log_notice("journal: writing again (a probe of "
				    "the state directory)");
				d->journal_failing = 0;
			} else
				d->journal_errno = errno;
		}
	}
	if (d->journal_failing) {
		snprintf(buf, len, "journal: %s; deliveries get 503",
		    strerror(d->journal_errno));
		return buf;
	}
	if (statvfs(d->conf.state_dir, &sv) == 0) {
		avail = (long long)sv.f_bavail * (long long)sv.f_frsize;
		if (avail < HOOKCAST_HEALTH_MIN_FREE) {
			snprintf(buf, len, "journal: %lld bytes free in %s; "
			    "deliveries would get 503", avail,
			    d->conf.state_dir);
			return buf;
		}
	}
	return NULL;
}

/* Load (or reload) the TLS certificate when one is configured. */
int
hookcastd_tls(struct hookcastd *d, char **cause)
{
	SSL_CTX	*ctx;

	if (d->conf.tls_cert == NULL) {
		http_server_set_tls(d->http, NULL);
		return 0;
	}
	if ((ctx = tls_context(d->conf.tls_cert, d->conf.tls_key,
	    cause)) == NULL)
		return -1;
	http_server_set_tls(d->http, ctx);
	tls_context_free(ctx);
	log_info("tls: serving HTTPS with %s", d->conf.tls_cert);
	return 0;
}

void
hookcastd_status_timer(evutil_socket_t fd, short what, void *arg)
{
	hookcastd_notify_status(arg, 1);
}

void
hookcastd_notify_status(struct hookcastd *d, int force)
{
	struct day_stats	 st;
	size_t			 i, commits = 0, prs = 0, repos = 0;
	struct store_repo	*r;
	time_t			 now = time(NULL);
	char			 next[32];
	struct timeval		 one = { 1, 0 };

	if (!force && now == d->status_at) {
		/* sent this second already: send the latest a second later */
		if (d->status_ev != NULL && !evtimer_pending(d->status_ev, NULL))
			evtimer_add(d->status_ev, &one);
		return;
	}
	d->status_at = now;
	for (i = 0; i < store_nrepos(d->store); i++) {
		r = store_repo_at(d->store, i);
		day_stats(r->day, &st);
		commits += st.commits;
		prs += st.merged_prs;
		if (hookcastd_has_activity(r->day))
			repos++;
	}
	hookcastd_iso(d->next_emit, next, sizeof(next));
	notify_status("%zu commit%s, %zu merged PR%s in %zu repositor%s; "
	    "next emission %s", commits, commits == 1 ? "" : "s", prs,
	    prs == 1 ? "" : "s", repos, repos == 1 ? "y" : "ies", next);
}

/*
 * Days whose emission time passed while the daemon was down are handed
 * to the drafter now, with the window and published time they should
 * have had; so are days whose draft a stop cut short. The drafting runs
 * in its own process: it does not hold back READY.
 */
void
hookcastd_catch_up(struct hookcastd *d)
{
	struct strlist		 repos = { NULL, 0 }, shows = { NULL, 0 };
	struct store_repo	*r;
	time_t			 due, boundary;
	size_t			 i, handed = 0;

	boundary = schedule_prev(time(NULL), d->conf.emit_hour,
	    d->conf.emit_minute);
	for (i = 0; i < store_nrepos(d->store); i++) {
		r = store_repo_at(d->store, i);
		/* on the shared journal, whoever takes its lease drafts it */
		if (r->drafting != NULL && d->redisj == NULL) {
			log_notice("catch-up: %s's day was being drafted at "
			    "the last stop; drafting it again", r->name);
			strlist_add(&repos, r->name);
		}
		if (r->day->start >= boundary)
			continue;
		due = schedule_next(r->day->start, d->conf.emit_hour,
		    d->conf.emit_minute);
		if (!hookcastd_has_activity(r->day)) {
			r->day->start = boundary;
			continue;
		}
		if (r->drafting != NULL) {
			log_notice("catch-up: %s's day due at %lld waits for "
			    "the one before it; told in the next episode",
			    r->name, (long long)due);
			continue;
		}
		log_notice("catch-up: %s's day was due at %lld; drafting it "
		    "now", r->name, (long long)due);
		if (hookcastd_handoff(d, r, due, due) != 0)
			continue;
		strlist_add(&repos, r->name);
		handed++;
		/* a day of several missed emissions carries on from the last */
		if (r->day->start < boundary)
			r->day->start = boundary;
	}
	if (d->window_start < boundary)
		d->window_start = boundary;
	/* published at each day's due time (the end of its window) */
	hookcastd_shows(d, &shows);
	if (repos.n > 0)
		drafter_queue(d->drafter, DRAFTER_EMIT, &repos, &shows, 0, 0,
		    NULL);
	strlist_clear(&repos);
	strlist_clear(&shows);
	showday_catch_up(d);
	if (handed > 0)
		d->compact_wanted = 1;
}

/*
 * A reload reads every credential file again, those systemd gives too;
 * but systemd copies those at the start (LoadCredential=), so a change
 * to one's source, or a LoadCredential= line added, reaches the daemon
 * only with a restart: say so, as it is what an operator rotating a
 * token with a reload would miss.
 */
static void
hookcastd_reload_credentials(struct hookcastd *d)
{
	const struct strlist	*names = &d->conf.credential_names;
	struct buf		 b;
	size_t			 i;

	if (names->n == 0)
		return;
	buf_init(&b);
	for (i = 0; i < names->n; i++)
		buf_printf(&b, "%s%s", i > 0 ? ", " : "", names->v[i]);
	log_notice("reload: credentials %s read again as systemd copied them "
	    "at the start: a credential changed at its source "
	    "(LoadCredential=) needs a restart, not a reload", buf_str(&b));
	buf_free(&b);
}

int
hookcastd_reload(struct hookcastd *d, char **cause)
{
	struct config		 conf, old;
	struct config_causes	 causes = { NULL, 0 };
	struct http_limits	 limits;
	struct outbox_conf	 oc;
	struct backfill		*bf = NULL;
	SSL_CTX			*ctx = NULL;
	struct buf		 b;
	size_t			 i;

	log_notice("reloading configuration");
	if (config_reload(&conf, &d->conf, d->argc, d->argv,
	    hookcastd_passthrough, &causes) == -1) {
		buf_init(&b);
		for (i = 0; i < causes.n; i++) {
			log_warnx("reload: %s", causes.v[i]);
			/* a line each: hookcastctl prints them so */
			buf_printf(&b, "%s%s", i ? "\n" : "", causes.v[i]);
		}
		*cause = buf_steal(&b);
		d->reload_ok = 0;
		log_warnx("reload refused; the old configuration stays");
		config_causes_clear(&causes);
		config_clear(&conf);
		return -1;
	}

	/*
	 * What can fail comes first and changes nothing: the zone is
	 * checked, the certificate loaded aside, the backfill's new hooks
	 * made (backfill_reconfigure changes its hooks only once all are
	 * made). Then the new configuration is applied, the process's time
	 * zone with it, so a refused reload leaves everything as it was.
	 */
	/*
	 * No secret left: the sockets bound at start (listen needs a
	 * restart) must all be loopback ones, as config_load asks of the
	 * new listen; else verification would quietly stop.
	 */
	if (conf.nsecrets == 0 && !config_loopback_only(&d->conf.listen)) {
		xasprintf(cause, "no webhook secret would be left while "
		    "listening on a non-loopback address; give a secret_file");
		goto refuse;
	}
	if (!schedule_zone_exists(conf.timezone)) {
		xasprintf(cause, "timezone: unknown time zone '%s'",
		    conf.timezone);
		goto refuse;
	}
	if (conf.tls_cert != NULL &&
	    (ctx = tls_context(conf.tls_cert, conf.tls_key, cause)) == NULL)
		goto refuse;
	if (d->backfill != NULL) {
		if (backfill_reconfigure(d->backfill, &conf, cause) == -1)
			goto refuse;
	} else if (backfill_new(d, &conf, &bf, cause) == -1)
		goto refuse;

	/* nothing is refused from here on */
	config_log_changes(&d->conf, &conf);
	if (conf.nsecrets == 0 && d->conf.nsecrets > 0)
		log_warnx("reload: no webhook secret left: deliveries are "
		    "accepted WITHOUT signature checks (listen is loopback "
		    "only)");
	if (schedule_set_timezone(conf.timezone) == -1) {
		/* its file went away since the check: keep the zone in use */
		log_warnx("reload: time zone %s vanished; still %s",
		    conf.timezone, d->conf.timezone);
		free(conf.timezone);
		conf.timezone = xstrdup(d->conf.timezone);
	}
	http_server_set_tls(d->http, ctx);
	if (ctx != NULL) {
		tls_context_free(ctx);
		log_info("tls: serving HTTPS with %s", conf.tls_cert);
	}
	old = d->conf;
	d->conf = conf;
	config_clear(&old);
	if (bf != NULL)
		d->backfill = bf;
	log_set_level(d->conf.log_level);
	log_set_style((enum log_style)d->conf.log_format);
	hookcastd_limits(&d->conf, &limits);
	http_server_set_limits(d->http, &limits);
	hookcastd_store_limits(d);
	hookcastd_arm_emit(d);
	showday_sync(d, 1);
	pubconf_outbox(&d->conf, &oc);
	outbox_reconfigure(d->outbox, &oc);
	d->reload_ok = 1;
	d->reload_ok_at = time(NULL);
	hookcastd_reload_credentials(d);
	log_notice("reloaded");
	return 0;

refuse:
	d->reload_ok = 0;
	log_warnx("reload refused: %s; the old configuration stays", *cause);
	tls_context_free(ctx);
	config_clear(&conf);
	return -1;
}

void
hookcastd_emit_timer(evutil_socket_t fd, short what, void *arg)
{
	struct hookcastd	*d = arg;
	struct store_repo	*r;
	struct strlist		 repos = { NULL, 0 }, shows = { NULL, 0 };
	time_t			 now = time(NULL), at = d->next_emit;
	size_t			 i;
	struct tm		 tm;
	int			 quiet, wday, recap;

	if (now < at) {
		/* woke early (clock change): wait again */
		hookcastd_arm_emit(d);
		return;
	}
	log_info("scheduled emission");
	quiet = d->conf.quiet_days == QUIET_DAYS_EMIT;
	for (i = 0; i < store_nrepos(d->store); i++) {
		r = store_repo_at(d->store, i);
		if (!hookcastd_has_activity(r->day) && !quiet) {
			r->day->start = at;
			continue;
		}
		switch (hookcastd_handoff(d, r, at, at)) {
		case 0:
			break;
		case HOOKCAST_HANDOFF_ELSEWHERE:
			log_info("emit %s: another receiver tells it",
			    r->name);
			continue;
		case HOOKCAST_HANDOFF_FAILED:
			log_warnx("emit %s: Redis failed; the day carries on",
			    r->name);
			continue;
		default:
			/* the day is kept and told in the next episode */
			log_warnx("emit %s: its previous day is still being "
			    "drafted; this one carries on", r->name);
			continue;
		}
		strlist_add(&repos, r->name);
	}
	/*
	 * the weekly recaps due today in the configured zone (the global
	 * recap_weekday's, a show's on its own), after
	 */
	localtime_r(&at, &tm);
	wday = tm.tm_wday;
	recap = hookcastd_recap_due(d, wday) ? wday + 1 : 0;
	hookcastd_shows(d, &shows);
	if (repos.n > 0 || recap)
		drafter_queue(d->drafter, DRAFTER_EMIT, &repos, &shows, now,
		    recap, NULL);
	strlist_clear(&repos);
	strlist_clear(&shows);
	d->window_start = at;
	/* a repository quiet for a whole day gives its place back */
	if (!quiet)
		store_drop_idle(d->store);
	/* redeliveries come within three days; keep a margin */
	store_prune_seen(d->store, now - 4 * 86400);
	/* the journal sheds the emitted days once their drafts are done */
	if (drafter_pending(d->drafter) > 0)
		d->compact_wanted = 1;
	else
		hookcastd_compact(d);
	hookcastd_arm_emit(d);
	hookcastd_notify_status(d, 1);
}

void
hookcastd_arm_emit(struct hookcastd *d)
{
	time_t		now = time(NULL);
	struct timeval	tv;
	char		when[32];

	d->next_emit = schedule_next(now, d->conf.emit_hour,
	    d->conf.emit_minute);
	tv.tv_sec = d->next_emit - now;
	tv.tv_usec = 0;
	evtimer_add(d->emit_timer, &tv);
	hookcastd_iso(d->next_emit, when, sizeof(when));
	log_info("next emission at %s (%02d:%02d %s)", when, d->conf.emit_hour,
	    d->conf.emit_minute, d->conf.timezone);
}

