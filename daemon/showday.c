/* Shows with a schedule of their own: their days, copied and told apart. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/event.h>

#include "config.h"
#include "daemon.h"
#include "day.h"
#include "drafter.h"
#include "journal.h"
#include "jrecord.h"
#include "log.h"
#include "schedule.h"
#include "showday.h"
#include "store.h"
#include "webhook.h"
#include "xmalloc.h"

static void	showday_timer(evutil_socket_t, short, void *);

const struct show_conf *
showday_conf(struct hookcastd *d, const struct showday *sd)
{
	return config_show_find(&d->conf, sd->slug);
}

/* The show's settings in effect (emit_at, timezone, quiet_days). */
static int
showday_settings(struct hookcastd *d, const struct showday *sd,
    struct config *eff)
{
	const struct show_conf	*sc = showday_conf(d, sd);

	if (sc == NULL)
		return -1;
	config_show_settings(&d->conf, sc, eff);
	return 0;
}

/* The last emission time of the show at or before now. */
static time_t
showday_boundary(struct hookcastd *d, const struct showday *sd, time_t now)
{
	struct config	eff;

	if (showday_settings(d, sd, &eff) == -1)
		return now;
	return schedule_prev_in(eff.timezone, now, eff.emit_hour,
	    eff.emit_minute);
}

static void
showday_free(struct showday *sd)
{
	if (sd == NULL)
		return;
	if (sd->timer != NULL)
		event_free(sd->timer);
	store_free(sd->store);
	free(sd->slug);
	free(sd->marker);
	free(sd);
}

/* The scheduled show of a slug (a journal marker's "show:SLUG"). */
static struct showday *
showday_by_slug(struct hookcastd *d, const char *slug)
{
	size_t	i;

	for (i = 0; i < d->nshowdays; i++)
		if (strcmp(d->showdays[i]->slug, slug) == 0)
			return d->showdays[i];
	return NULL;
}

struct showday *
showday_find(struct hookcastd *d, const char *name)
{
	const struct show_conf	*sc = config_show_find(&d->conf, name);

	return sc != NULL ? showday_by_slug(d, sc->slug) : NULL;
}

static int
showday_has(const struct store_repo *r, int drafting)
{
	return drafting ? r->drafting != NULL : hookcastd_has_activity(r->day);
}

static int
showday_any(const struct showday *sd, int drafting)
{
	size_t	i;

	for (i = 0; i < store_nrepos(sd->store); i++)
		if (showday_has(store_repo_at(sd->store, i), drafting))
			return 1;
	return 0;
}

void
showday_members(struct showday *sd, int drafting, struct strlist *out)
{
	struct store_repo	*r;
	size_t			 i;

	for (i = 0; i < store_nrepos(sd->store); i++)
		if (showday_has(r = store_repo_at(sd->store, i), drafting))
			strlist_add(out, r->name);
}

/* Arm the show's timer for its next emission, in its zone. */
static void
showday_arm(struct hookcastd *d, struct showday *sd)
{
	struct config	eff;
	struct timeval	tv;
	time_t		now = time(NULL);

	if (showday_settings(d, sd, &eff) == -1)
		return;
	if (sd->timer == NULL)
		sd->timer = evtimer_new(d->base, showday_timer, sd);
	sd->next_emit = schedule_next_in(eff.timezone, now, eff.emit_hour,
	    eff.emit_minute);
	tv.tv_sec = sd->next_emit - now;
	tv.tv_usec = 0;
	evtimer_add(sd->timer, &tv);
	log_info("show %s: next emission at %02d:%02d %s (in %lld s)",
	    sd->slug, eff.emit_hour, eff.emit_minute, eff.timezone,
	    (long long)tv.tv_sec);
}

/* Journal the show's window start ("w" of "show:SLUG"), synced. */
static void
showday_mark(struct hookcastd *d, struct showday *sd)
{
	struct buf	 rec;

	buf_init(&rec);
	if (jrecord_write_window_of(&rec, sd->marker, sd->window_start) == -1 ||
	    journal_append_bytes(d->journal, rec.data, rec.len) == -1 ||
	    journal_sync(d->journal) == -1)
		log_warn("journal: recording the show %s's window", sd->slug);
	else
		sd->unmarked = 0;
	buf_free(&rec);
}

void
showday_sync(struct hookcastd *d, int arm)
{
	struct showday		**v;
	const struct show_conf	*sc;
	struct showday		*sd;
	size_t			 i, j, n = 0;
	time_t			 now = time(NULL);

	v = xcalloc(d->conf.nshows + 1, sizeof(*v));
	for (i = 0; i < d->conf.nshows; i++) {
		sc = &d->conf.shows[i];
		if (!config_show_scheduled(sc))
			continue;
		sd = NULL;
		for (j = 0; j < d->nshowdays; j++)
			if (d->showdays[j] != NULL &&
			    strcmp(d->showdays[j]->slug, sc->slug) == 0) {
				sd = d->showdays[j];
				d->showdays[j] = NULL;
				break;
			}
		if (sd == NULL) {
			sd = xcalloc(1, sizeof(*sd));
			sd->d = d;
			sd->slug = xstrdup(sc->slug);
			xasprintf(&sd->marker, "%s%s", SHOWDAY_PREFIX,
			    sc->slug);
			sd->store = store_new();
			v[n++] = sd;
			sd->window_start = showday_boundary(d, sd, now);
			sd->unmarked = 1;
			log_info("show %s: told on its own schedule, from its "
			    "repositories' deliveries from now on", sc->name);
		} else
			v[n++] = sd;
	}
	for (j = 0; j < d->nshowdays; j++) {
		if ((sd = d->showdays[j]) == NULL)
			continue;
		if (showday_any(sd, 0) || showday_any(sd, 1))
			log_warnx("show %s: no longer on a schedule of its "
			    "own; the copies of its members' days are "
			    "dropped (their own days still hold them)",
			    sd->slug);
		showday_free(sd);
	}
	free(d->showdays);
	d->showdays = v;
	d->nshowdays = n;
	/*
	 * a new show's window goes in the journal, so the copies replayed
	 * after a restart are its day's, not the day the restart is in
	 */
	for (i = 0; d->journal != NULL && !d->replaying && i < n; i++)
		if (v[i]->unmarked)
			showday_mark(d, v[i]);
	for (i = 0; arm && i < n; i++)
		showday_arm(d, v[i]);
}

void
showday_free_all(struct hookcastd *d)
{
	size_t	i;

	for (i = 0; i < d->nshowdays; i++)
		showday_free(d->showdays[i]);
	free(d->showdays);
	d->showdays = NULL;
	d->nshowdays = 0;
}

int
showday_wants(struct hookcastd *d, const char *repo)
{
	const struct show_conf	*sc;
	size_t			 i;

	for (i = 0; i < d->nshowdays; i++)
		if ((sc = showday_conf(d, d->showdays[i])) != NULL &&
		    show_conf_matches(sc, repo))
			return 1;
	return 0;
}

void
showday_copy(struct hookcastd *d, const char *repo, const char *payload,
    size_t len)
{
	const struct show_conf	*sc;
	struct showday		*sd;
	struct jrecord		 rec;
	size_t			 i;

	for (i = 0; i < d->nshowdays; i++) {
		sd = d->showdays[i];
		if ((sc = showday_conf(d, sd)) == NULL ||
		    !show_conf_matches(sc, repo))
			continue;
		/* each show takes its own copy (the store steals items) */
		if (jrecord_decode(payload, len, &rec) == -1)
			return;
		(void)hookcastd_take_record(sd->store, &rec, sd->window_start,
		    0);
		jrecord_clear(&rec);
	}
}

/* Hand off the show's open days with something in them, at start. */
static void
showday_handoff_days(struct showday *sd, time_t start, int quiet)
{
	struct store_repo	*r;
	size_t			 i;

	for (i = 0; i < store_nrepos(sd->store); i++) {
		r = store_repo_at(sd->store, i);
		if (!quiet && !hookcastd_has_activity(r->day))
			continue;
		/* a hand-off without an outcome before it: keep both days */
		if (r->drafting != NULL)
			store_merge_back(sd->store, r);
		store_handoff(sd->store, r, start);
	}
	sd->window_start = start;
}

/*
 * The days handed off are done: drafted (their episode is out, they are
 * freed) or not (their draft failed: they join the open days again).
 */
static void
showday_end_days(struct showday *sd, int drafted)
{
	struct store_repo	*r;
	size_t			 i;

	for (i = 0; i < store_nrepos(sd->store); i++) {
		r = store_repo_at(sd->store, i);
		if (r->drafting == NULL)
			continue;
		if (drafted)
			day_free(store_drafted(sd->store, r));
		else
			store_merge_back(sd->store, r);
	}
}

void
showday_apply(struct hookcastd *d, struct jrecord *rec)
{
	struct showday	*sd;
	const char	*slug;
	time_t		 start;
	struct config	 eff;

	if (rec->show != NULL) {
		/* a day's copy: to its show, if it still has a schedule */
		if (rec->kind == 'd' &&
		    (sd = showday_by_slug(d, rec->show)) != NULL)
			(void)hookcastd_take_record(sd->store, rec,
			    rec->has_start ? rec->start : sd->window_start, 0);
		return;
	}
	slug = rec->repo + strlen(SHOWDAY_PREFIX);
	if ((sd = showday_by_slug(d, slug)) == NULL)
		return;
	start = rec->has_start ? rec->start : sd->window_start;
	switch (rec->kind) {
	case 'w':
		sd->window_start = start;
		sd->unmarked = 0;
		break;
	case 'h':
		showday_handoff_days(sd, start, showday_settings(d, sd,
		    &eff) == 0 && eff.quiet_days == QUIET_DAYS_EMIT);
		break;
	case 'e':
		showday_end_days(sd, 1);
		break;
	case 'm':
		showday_end_days(sd, 0);
		break;
	}
}

/* A marker of the show's days, journalled and synced. */
static void
showday_journal(struct hookcastd *d, const struct showday *sd, char kind,
    time_t start)
{
	struct buf	 rec;
	int		 rc;

	buf_init(&rec);
	switch (kind) {
	case 'h':
		rc = jrecord_write_handoff(&rec, sd->marker, start);
		break;
	case 'e':
		rc = jrecord_write_drafted(&rec, sd->marker);
		break;
	default:
		rc = jrecord_write_merge_back(&rec, sd->marker);
		break;
	}
	if (rc == -1 || journal_append_bytes(d->journal, rec.data,
	    rec.len) == -1 || journal_sync(d->journal) == -1)
		log_warn("journal: recording the show %s's days", sd->slug);
	buf_free(&rec);
}

int
showday_handoff(struct hookcastd *d, struct showday *sd, time_t start)
{
	struct config	eff;
	int		quiet;

	if (showday_any(sd, 1))
		return -1;
	quiet = showday_settings(d, sd, &eff) == 0 &&
	    eff.quiet_days == QUIET_DAYS_EMIT;
	/* deliveries written before it belong to the days handed off */
	webhook_flush(d);
	showday_journal(d, sd, 'h', start);
	showday_handoff_days(sd, start, quiet);
	return 0;
}

void
showday_drafted(struct hookcastd *d, const char *name)
{
	struct showday	*sd = showday_find(d, name);

	if (sd == NULL || !showday_any(sd, 1))
		return;
	showday_journal(d, sd, 'e', 0);
	showday_end_days(sd, 1);
}

void
showday_failed(struct hookcastd *d, const char *name)
{
	struct showday	*sd = showday_find(d, name);

	if (sd == NULL || !showday_any(sd, 1))
		return;
	log_warnx("emit show %s: its days are kept and told in its next "
	    "episode", sd->slug);
	showday_journal(d, sd, 'm', 0);
	showday_end_days(sd, 0);
}

int
showday_compact(struct hookcastd *d, struct buf **recs, size_t *n)
{
	struct showday		*sd;
	struct store_repo	*r;
	size_t			 i, j;
	int			 rc = 0;

	for (i = 0; i < d->nshowdays; i++) {
		sd = d->showdays[i];
			*recs = xreallocarray(*recs, *n + 1, sizeof(**recs));
		buf_init(&(*recs)[*n]);
		if (jrecord_write_window_of(&(*recs)[(*n)++], sd->marker,
		    sd->window_start) == -1)
			rc = -1;
		/* the days being drafted, then their hand-off, as it was */
		if (showday_any(sd, 1)) {
			for (j = 0; j < store_nrepos(sd->store); j++) {
				r = store_repo_at(sd->store, j);
				if (r->drafting != NULL)
					jrecord_write_show_day(r->drafting,
					    sd->slug, recs, n);
			}
			*recs = xreallocarray(*recs, *n + 1, sizeof(**recs));
			buf_init(&(*recs)[*n]);
			if (jrecord_write_handoff(&(*recs)[(*n)++], sd->marker,
			    sd->window_start) == -1)
				rc = -1;
		}
		for (j = 0; j < store_nrepos(sd->store); j++) {
			r = store_repo_at(sd->store, j);
			if (hookcastd_has_activity(r->day))
				jrecord_write_show_day(r->day, sd->slug, recs,
				    n);
		}
		}
	return rc;
}

/* Queue the show's draft (an emission of its days handed off). */
static void
showday_queue(struct hookcastd *d, struct showday *sd, time_t now)
{
	const struct show_conf	*sc = showday_conf(d, sd);
	struct strlist		 repos = { NULL, 0 }, shows = { NULL, 0 };

	if (sc == NULL)
		return;
	strlist_add(&shows, sc->name);
	drafter_queue(d->drafter, DRAFTER_EMIT, &repos, &shows, now, 0, NULL);
	strlist_clear(&shows);
}

static void
showday_timer(evutil_socket_t fd, short what, void *arg)
{
	struct showday	*sd = arg;
	struct hookcastd *d = sd->d;
	time_t		 now = time(NULL), at = sd->next_emit;
	struct config	 eff;
	int		 quiet;

	(void)fd;
	(void)what;
	if (now < at || showday_settings(d, sd, &eff) == -1) {
		showday_arm(d, sd);
		return;
	}
	quiet = eff.quiet_days == QUIET_DAYS_EMIT &&
	    store_nrepos(sd->store) > 0;
	log_info("show %s: scheduled emission", sd->slug);
	if (!showday_any(sd, 0) && !quiet)
		sd->window_start = at;
	else if (showday_handoff(d, sd, at) == -1)
		log_warnx("emit show %s: its last days are still being "
		    "drafted; these carry on", sd->slug);
	else
		showday_queue(d, sd, now);
	showday_arm(d, sd);
}

void
showday_catch_up(struct hookcastd *d)
{
	struct showday	*sd;
	time_t		 now = time(NULL), boundary;
	size_t		 i;

	for (i = 0; i < d->nshowdays; i++) {
		sd = d->showdays[i];
		boundary = showday_boundary(d, sd, now);
		if (showday_any(sd, 1)) {
			log_notice("catch-up: show %s's days were being "
			    "drafted at the last stop; drafting them again",
			    sd->slug);
			showday_queue(d, sd, 0);
			continue;
		}
		if (sd->window_start >= boundary)
			continue;
		if (!showday_any(sd, 0)) {
			sd->window_start = boundary;
			continue;
		}
		log_notice("catch-up: show %s's day was due; drafting it now",
		    sd->slug);
		/* published at its due time (the end of its window) */
		if (showday_handoff(d, sd, boundary) == 0)
			showday_queue(d, sd, 0);
	}
}
