/*
 * The daemon on the shared journal (journal = redis://...): the store
 * follows the stream (redisj.c), days are handed off and their outcomes
 * recorded under a lease, and a day whose holder went away is taken over.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "buf.h"
#include "config.h"
#include "daemon.h"
#include "drafter.h"
#include "jrecord.h"
#include "log.h"
#include "redisj.h"
#include "store.h"
#include "strlist.h"
#include "xmalloc.h"

/*
 * A stream entry: every record is applied as the file journal's replay
 * applies it, but for the outcomes this receiver wrote
 * (hookcastd_apply_entry).
 */
static void
redisday_apply(const char *payload, size_t len, const char *id, int mine,
    void *arg)
{
	struct hookcastd	*d = arg;
	uint64_t		 ms, seq;

	if (redisj_id_parse(id, &ms, &seq) == -1 ||
	    hookcastd_apply_entry(d, payload, len, mine, ms, seq) == -1)
		log_warnx("redis: entry %s is no record; skipped", id);
	else
		hookcastd_notify_status(d, 0);
}

/* The engine's settings from the configuration (strings borrowed). */
static void
redisday_conf(const struct config *conf, struct redisj_conf *rc)
{
	memset(rc, 0, sizeof(*rc));
	rc->host = conf->redis_host;
	rc->port = conf->redis_port;
	rc->db = conf->redis_db;
	rc->password = conf->redis_password;
	rc->prefix = conf->redis_prefix;
	rc->replicas = conf->redis_replicas;
	rc->timeout_ms = conf->redis_timeout;
	rc->lease_ms = conf->redis_lease * 1000;
	/* redeliveries come within three days (store_prune_seen's margin) */
	rc->seen_secs = 4 * 86400;
}

int
hookcastd_redis_check(const struct config *conf, struct config_causes *causes)
{
	struct redisj_conf	 rc;
	struct redisj		*rj;
	char			*cause = NULL, *report = NULL, *line, *next;

	redisday_conf(conf, &rc);
	if ((rj = redisj_open(&rc, "check", NULL, NULL, &cause)) == NULL) {
		config_causes_add(causes, "journal: %s", cause);
		free(cause);
		return -1;
	}
	redisj_persistence(rj, &report);
	redisj_free(rj);
	for (line = report; line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		config_causes_add(causes, "journal: %s", line);
	}
	free(report);
	return 0;
}

void
hookcastd_redis_open(struct hookcastd *d)
{
	struct redisj_conf	 rc;
	struct timespec		 t0, t1;
	char			 host[256], *origin, *cause = NULL;
	long			 n;

	redisday_conf(&d->conf, &rc);
	if (gethostname(host, sizeof(host)) == -1)
		snprintf(host, sizeof(host), "receiver");
	host[sizeof(host) - 1] = '\0';
	/* a restarted receiver is another: its old leases lapse */
	xasprintf(&origin, "%s:%ld", host, (long)getpid());
	d->redisj = redisj_open(&rc, origin, redisday_apply, d, &cause);
	free(origin);
	if (d->redisj == NULL)
		fatalx("%s", cause);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (redisj_catch_up(d->redisj, &n) == -1)
		fatalx("redis: reading the journal's stream failed");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	log_notice("journal: read %ld entr%s of the stream %s:journal on "
	    "redis %s:%d in %.3f s", n, n == 1 ? "y" : "ies",
	    d->conf.redis_prefix, d->conf.redis_host, d->conf.redis_port,
	    (double)(t1.tv_sec - t0.tv_sec) +
	    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
}

/*
 * The stream sheds what no open day and no day being drafted holds:
 * the entries before the earliest such day's first, or, with none, all
 * but the last read (every receiver reads the same hand-offs, so the
 * days told are told everywhere), once they are redis_keep seconds older
 * than the last entry read (a receiver restarted meanwhile still reads
 * them).
 */
static void
redisday_trim(struct hookcastd *d)
{
	uint64_t	from[2], last[2], keep;

	if (redisj_last(d->redisj, last) == -1)
		return;		/* nothing read, nothing to trim */
	if (!hookcastd_stream_keeps(d, from)) {
		from[0] = last[0];
		from[1] = last[1];
	}
	/*
	 * and what came in the last redis_keep seconds stays, counted on
	 * Redis's clock (the ids' milliseconds), not this host's
	 */
	keep = (uint64_t)d->conf.redis_keep * 1000;
	keep = last[0] > keep ? last[0] - keep : 0;
	if (from[0] > keep) {
		from[0] = keep;
		from[1] = 0;
	}
	redisj_trim(d->redisj, from);
}

/*
 * A day handed off whose lease no one holds (its holder died or stalled
 * past redis_lease): take the lease, read the stream to its end (the
 * holder may have told it just before its lease went) and draft it if it
 * is still waiting.
 */
static void
redisday_takeover(evutil_socket_t fd, short what, void *arg)
{
	struct hookcastd	*d = arg;
	struct store_repo	*r;
	struct strlist		 repos = { NULL, 0 }, held = { NULL, 0 };
	struct strlist		 shows = { NULL, 0 };
	size_t			 i;
	long			 n;

	(void)fd;
	(void)what;
	if (d->stopping)
		return;
	redisday_trim(d);
	for (i = 0; i < store_nrepos(d->store); i++) {
		r = store_repo_at(d->store, i);
		if (r->drafting == NULL || redisj_holds(d->redisj, r->name))
			continue;
		if (redisj_take_over(d->redisj, r->name) == 1)
			strlist_add(&held, r->name);
	}
	if (held.n == 0)
		return;
	if (redisj_catch_up(d->redisj, &n) == -1) {
		for (i = 0; i < held.n; i++)
			redisj_release(d->redisj, held.v[i]);
		strlist_clear(&held);
		return;
	}
	for (i = 0; i < held.n; i++) {
		r = store_repo(d->store, held.v[i], 0, 0);
		if (r == NULL || r->drafting == NULL) {
			redisj_release(d->redisj, held.v[i]);
			continue;
		}
		log_notice("%s: the receiver drafting its day let its lease "
		    "lapse; drafting it here", held.v[i]);
		strlist_add(&repos, held.v[i]);
	}
	/* the shows that take them are told whole when all were held */
	hookcastd_shows(d, &shows);
	if (repos.n > 0)
		drafter_queue(d->drafter, DRAFTER_EMIT, &repos, &shows,
		    time(NULL), 0, NULL);
	strlist_clear(&repos);
	strlist_clear(&shows);
	strlist_clear(&held);
}

void
hookcastd_redis_start(struct hookcastd *d)
{
	struct timeval	 tv;
	char		*cause = NULL;
	int		 ms;

	if (redisj_start(d->redisj, d->base, &cause) == -1)
		fatalx("%s", cause);
	/* a quarter of the lease: a lapsed one is taken over soon after */
	ms = d->conf.redis_lease * 1000 / 4;
	if (ms > 5000)
		ms = 5000;
	tv.tv_sec = ms / 1000;
	tv.tv_usec = (ms % 1000) * 1000;
	d->takeover_ev = event_new(d->base, -1, EV_PERSIST, redisday_takeover,
	    d);
	event_add(d->takeover_ev, &tv);
}

/*
 * What an emission of repo is claimed as: the first show told with its
 * repositories that takes it ("show:SLUG"), so that one receiver hands
 * off all of a show's days and drafts the show whole; else repo. New.
 */
static char *
redisday_unit(const struct config *conf, const char *repo)
{
	char	*unit;
	size_t	 i;

	for (i = 0; i < conf->nshows; i++)
		if (!config_show_scheduled(&conf->shows[i]) &&
		    show_conf_matches(&conf->shows[i], repo)) {
			xasprintf(&unit, "show:%s", conf->shows[i].slug);
			return unit;
		}
	return xstrdup(repo);
}

int
hookcastd_redis_handoff(struct hookcastd *d, struct store_repo *r,
    time_t start, time_t due)
{
	struct buf	 rec;
	char		*name = xstrdup(r->name), *unit;
	int		 rc;

	unit = due != 0 ? redisday_unit(&d->conf, name) : NULL;
	rc = unit != NULL ? redisj_claim(d->redisj, unit, due) : 1;
	free(unit);
	if (rc == 1)
		rc = redisj_lease(d->redisj, name);
	switch (rc) {
	case 1:
		break;
	case 0:
		free(name);
		return HOOKCAST_HANDOFF_ELSEWHERE;
	default:
		free(name);
		return HOOKCAST_HANDOFF_FAILED;
	}
	buf_init(&rec);
	/*
	 * Written under the lease, then the stream read up to it: the store
	 * hands the day off as every receiver does, after the same records.
	 */
	if (jrecord_write_handoff(&rec, name, start) == -1 ||
	    redisj_append_marker(d->redisj, name, rec.data, rec.len, 0,
	    1) == -1) {
		redisj_release(d->redisj, name);
		rc = HOOKCAST_HANDOFF_FAILED;
	} else if ((r = store_repo(d->store, name, 0, 0)) == NULL ||
	    r->drafting == NULL) {
		log_warnx("%s: its hand-off was written but not read back",
		    name);
		redisj_release(d->redisj, name);
		rc = HOOKCAST_HANDOFF_FAILED;
	} else
		rc = 0;
	buf_free(&rec);
	free(name);
	return rc;
}

int
hookcastd_redis_outcome(struct hookcastd *d,
    int (*writer)(struct buf *, const char *), const char *repo)
{
	struct buf	rec;
	int		rc = -1;

	buf_init(&rec);
	if (writer(&rec, repo) == 0)
		rc = redisj_append_marker(d->redisj, repo, rec.data, rec.len,
		    1, 0);
	buf_free(&rec);
	return rc;
}

void
hookcastd_redis_free(struct hookcastd *d)
{
	if (d->takeover_ev != NULL)
		event_free(d->takeover_ev);
	d->takeover_ev = NULL;
	redisj_free(d->redisj);
	d->redisj = NULL;
}
