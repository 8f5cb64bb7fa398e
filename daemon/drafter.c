/* The drafter: episodes drafted in child processes, off the loop. */
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>
#include <jansson.h>

#include "audio.h"
#include "buf.h"
#include "control.h"
#include "daemon.h"
#include "day.h"
#include "drafter.h"
#include "schedule.h"
#include "showday.h"
#include "outbox.h"
#include "emit.h"
#include "fileio.h"
#include "journal.h"
#include "jrecord.h"
#include "log.h"
#include "parallel.h"
#include "pubconf.h"
#include "xmalloc.h"

/* Added to the drafting process's niceness: intake comes first. */
#define DRAFTER_NICE		10
/* The child's end of the pipe, once its other descriptors are closed. */
#define DRAFTER_CHILD_FD	3
/*
 * Commits (or PRs, pushes) of drafted days freed per loop turn: a day of
 * 100k commits takes some 80 ms to free, too long to hold the loop.
 */
#define DRAFTER_FREE_STEP	4096
/*
 * Seconds the loop allows past audio_timeout per episode spoken: the
 * drafting process stops its own programs at audio_timeout, and is
 * killed only when it overstays that.
 */
#define DRAFTER_AUDIO_GRACE	10
/*
 * Failed drafts in a row after which a repository's day is told in brief
 * (reduced.h), however the next full draft would go: a day that timed
 * out or crashed the drafter twice is held forever otherwise, merged
 * back and failing again at every emission, restart or not.
 */
#define DRAFTER_REDUCE_AFTER	2
/* The repositories' failures in a row, kept across restarts. */
#define DRAFTER_FAILURES_FILE	"draft-failures.json"
/* Bytes of a failure's cause kept in that file. */
#define DRAFTER_CAUSE_MAX	400

/* An episode written in the drafting process, to be spoken after. */
struct drafter_written {
	char	*repo;
	char	*name;		/* "2026-06-01" or "2026-06-01-2" */
};

/*
 * What one drafting process does: one repository's episode, the weekly
 * recaps, or the speaking of the job's episodes. A job runs its parts one
 * after another, a process each, so that a repository whose draft times
 * out or crashes fails alone.
 */
enum drafter_part {
	DRAFTER_PART_SHOW,	/* a show's episode, of its members' days */
	DRAFTER_PART_REPO,
	DRAFTER_PART_RECAP,
	DRAFTER_PART_AUDIO,
};

struct drafter_job {
	enum drafter_kind	 kind;
	char		       **repos;
	size_t			 nrepos;
	int			*told;		/* per repo: its line came */
	/*
	 * The shows told of the job's days, drafted first, while every
	 * member's day is still handed off (a repository's outcome lets
	 * its day go).
	 */
	char		       **shows;
	size_t			 nshows;
	size_t			 show_step;	/* the next show to draft */
	int			*show_out;	/* per show: its episode is out */
	int			*show_told;	/* per show: its line came */
	time_t			 now;
	int			 recap;		/* its weekday + 1, or 0 */
	struct control_reply	*reply;
	json_t			*episodes;
	char			*error;		/* the first failure */
	size_t			 step;		/* the next part: see drafter_next */
	struct drafter_written	*written;	/* episodes to speak */
	size_t			 nwritten;
	struct timespec		 started;
	struct drafter_job	*next;
};

/* A repository whose last drafts failed, and how many in a row. */
struct drafter_failure {
	char	*repo;
	int	 n;
	char	*cause;		/* the last one's */
};

struct drafter {
	struct hookcastd	*d;
	struct drafter_job	*queue;		/* the first is running */
	struct drafter_job     **tail;
	size_t			 njobs;
	pid_t			 pid;		/* -1: none running */
	enum drafter_part	 part;		/* what it does */
	size_t			 cur;		/* its repository, for a REPO */
	int			 reduced;	/* told in brief (reduced.h) */
	int			 fd;
	struct event		*read_ev;
	struct event		*timer;
	int			 timed_out;
	time_t			 limit;		/* seconds the text may take */
	size_t			 audio_expected; /* audio lines to come */
	size_t			 audio_told;
	struct buf		 in;
	struct day	       **spent;		/* drafted days being freed */
	size_t			 nspent;
	struct event		*free_ev;
	struct drafter_failure	*failures;	/* repositories failing */
	size_t			 nfailures;
	char			*failures_path;
};

static void	drafter_start(struct drafter *);
static void	drafter_free_step(evutil_socket_t, short, void *);

/* The failures in a row of repo, or NULL when its last draft went well. */
static struct drafter_failure *
drafter_failure_find(struct drafter *dr, const char *repo)
{
	size_t	i;

	for (i = 0; i < dr->nfailures; i++)
		if (strcmp(dr->failures[i].repo, repo) == 0)
			return &dr->failures[i];
	return NULL;
}

/* Write the failures file; a failure to is logged (the count lives on). */
static void
drafter_failures_save(struct drafter *dr)
{
	json_t	*root = json_object();
	char	*s;
	size_t	 i;

	for (i = 0; i < dr->nfailures; i++)
		json_object_set_new(root, dr->failures[i].repo, json_pack(
		    "{s:i, s:s}", "failures", dr->failures[i].n, "cause",
		    dr->failures[i].cause));
	s = json_dumps(root, JSON_INDENT(2) | JSON_SORT_KEYS);
	json_decref(root);
	if (s == NULL || file_write_atomic(dr->failures_path, s, strlen(s),
	    0600) == -1)
		log_warn("drafter: writing %s", dr->failures_path);
	free(s);
}

/*
 * Read the failures file of the last run: a repository's count must
 * outlive a restart, or a day that fails the drafter would be drafted in
 * full (and fail) forever by a daemon restarted in between. A file that
 * can't be read is logged and the counts start again.
 */
static void
drafter_failures_load(struct drafter *dr)
{
	json_error_t	 err;
	json_t		*root, *v;
	const char	*repo, *cause;
	json_int_t	 n;

	xasprintf(&dr->failures_path, "%s/%s", dr->d->conf.state_dir,
	    DRAFTER_FAILURES_FILE);
	if ((root = json_load_file(dr->failures_path, 0, &err)) == NULL) {
		if (access(dr->failures_path, F_OK) == 0 || errno != ENOENT)
			log_warnx("drafter: %s: %s; the failure counts start "
			    "again", dr->failures_path, err.text);
		return;
	}
	json_object_foreach(root, repo, v) {
		n = json_integer_value(json_object_get(v, "failures"));
		cause = json_string_value(json_object_get(v, "cause"));
		if (n <= 0 || n > 1000000) {
			log_warnx("drafter: %s: %s: no count of failures",
			    dr->failures_path, repo);
			continue;
		}
		dr->failures = xreallocarray(dr->failures, dr->nfailures + 1,
		    sizeof(*dr->failures));
		dr->failures[dr->nfailures].repo = xstrdup(repo);
		dr->failures[dr->nfailures].n = (int)n;
		dr->failures[dr->nfailures].cause = xstrdup(cause != NULL ?
		    cause : "not recorded");
		dr->nfailures++;
	}
	json_decref(root);
}

/*
 * Note how repo's draft went (cause NULL: it was written) and keep the
 * count on disk; the failures in a row it comes to.
 */
static int
drafter_failure_note(struct drafter *dr, const char *repo, const char *cause)
{
	struct drafter_failure	*f = drafter_failure_find(dr, repo);
	size_t			 i, len;

	if (cause == NULL) {
		if (f == NULL)
			return 0;
		i = (size_t)(f - dr->failures);
		free(f->repo);
		free(f->cause);
		dr->failures[i] = dr->failures[--dr->nfailures];
		drafter_failures_save(dr);
		return 0;
	}
	if (f == NULL) {
		dr->failures = xreallocarray(dr->failures, dr->nfailures + 1,
		    sizeof(*dr->failures));
		f = &dr->failures[dr->nfailures++];
		f->repo = xstrdup(repo);
		f->n = 0;
		f->cause = NULL;
	}
	f->n++;
	free(f->cause);
	/* cut on a character's start: the file is JSON, UTF-8 */
	len = strnlen(cause, DRAFTER_CAUSE_MAX);
	while (len > 0 && len < strlen(cause) &&
	    ((unsigned char)cause[len] & 0xc0) == 0x80)
		len--;
	f->cause = xstrndup(cause, len);
	drafter_failures_save(dr);
	return f->n;
}

struct drafter *
drafter_new(struct hookcastd *d)
{
	struct drafter	*dr = xcalloc(1, sizeof(*dr));

	dr->d = d;
	dr->tail = &dr->queue;
	dr->pid = -1;
	dr->fd = -1;
	buf_init(&dr->in);
	dr->free_ev = evtimer_new(d->base, drafter_free_step, dr);
	drafter_failures_load(dr);
	/* what a drafting process stopped at the last run left */
	audio_sweep_all(d->conf.output_dir);
	return dr;
}

static void
drafter_job_free(struct drafter_job *job)
{
	size_t	i;

	for (i = 0; i < job->nrepos; i++)
		free(job->repos[i]);
	free(job->repos);
	free(job->told);
	for (i = 0; i < job->nshows; i++)
		free(job->shows[i]);
	free(job->shows);
	free(job->show_out);
	free(job->show_told);
	for (i = 0; i < job->nwritten; i++) {
		free(job->written[i].repo);
		free(job->written[i].name);
	}
	free(job->written);
	json_decref(job->episodes);
	free(job->error);
	free(job);
}

size_t
drafter_pending(const struct drafter *dr)
{
	return dr->njobs;
}

void
drafter_queue(struct drafter *dr, enum drafter_kind kind,
    const struct strlist *repos, const struct strlist *shows, time_t now,
    int recap, struct control_reply *reply)
{
	struct drafter_job	*job = xcalloc(1, sizeof(*job));
	size_t			 i;

	job->kind = kind;
	if (shows != NULL && shows->n > 0) {
		job->shows = xcalloc(shows->n, sizeof(*job->shows));
		job->show_out = xcalloc(shows->n, sizeof(*job->show_out));
		job->show_told = xcalloc(shows->n, sizeof(*job->show_told));
		for (i = 0; i < shows->n; i++)
			job->shows[job->nshows++] = xstrdup(shows->v[i]);
	}
	job->nrepos = repos->n;
	job->repos = xcalloc(repos->n + 1, sizeof(*job->repos));
	job->told = xcalloc(repos->n + 1, sizeof(*job->told));
	for (i = 0; i < repos->n; i++)
		job->repos[i] = xstrdup(repos->v[i]);
	job->now = now;
	job->recap = recap;
	job->reply = reply;
	job->episodes = json_array();
	clock_gettime(CLOCK_MONOTONIC, &job->started);
	*dr->tail = job;
	dr->tail = &job->next;
	dr->njobs++;
	drafter_start(dr);
}

/* write(2) all of it; 0 or -1. */
static int
drafter_write_all(int fd, const char *p, size_t len)
{
	ssize_t	n;

	while (len > 0) {
		if ((n = write(fd, p, len)) == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* One line to the loop, stealing j; a child whose loop is gone ends. */
static void
drafter_tell(json_t *j)
{
	char	*s = json_dumps(j, JSON_COMPACT);

	json_decref(j);
	if (s == NULL || drafter_write_all(DRAFTER_CHILD_FD, s,
	    strlen(s)) == -1 || drafter_write_all(DRAFTER_CHILD_FD, "\n",
	    1) == -1)
		_exit(1);
	free(s);
}

/* Note an episode written at md_path, to be spoken. */
static void
drafter_add_written(struct drafter_written **w, size_t *nw, const char *repo,
    const char *md_path)
{
	const char	*base = strrchr(md_path, '/');
	size_t		 len;

	base = base != NULL ? base + 1 : md_path;
	len = strlen(base);
	if (len > 3 && strcmp(base + len - 3, ".md") == 0)
		len -= 3;
	*w = xreallocarray(*w, *nw + 1, sizeof(**w));
	(*w)[*nw].repo = xstrdup(repo);
	(*w)[*nw].name = xstrndup(base, len);
	(*nw)++;
}

/* The longest error an audio line carries: a line is one atomic write. */
#define DRAFTER_AUDIO_ERR_MAX	1024

/*
 * Episode w spoken: the line telling the loop how it went (new). A
 * show's episode ("shows/SLUG") is spoken with its section's settings
 * (its voice), and its feed rewritten with its feed keys; a repository's
 * with ac.
 */
static json_t *
drafter_audio_one(const struct config *conf, const struct audio_conf *ac,
    const struct drafter_written *w)
{
	const struct show_conf	*sc;
	struct config		 eff;
	struct audio_conf	 sac;
	struct audio_result	 res;
	json_t			*j;

	if (strncmp(w->repo, "shows/", 6) == 0 &&
	    (sc = config_show_find(conf, w->repo + 6)) != NULL) {
		config_show_settings(conf, sc, &eff);
		pubconf_audio(&eff, &sac);
		ac = &sac;
	}
	audio_render(ac, w->repo, w->name, &res);
	if (res.outcome == AUDIO_OK)
		j = json_pack("{s:b, s:s, s:s, s:s, s:f, s:I, s:f}", "audio", 1,
		    "repo", w->repo, "name", w->name, "outcome", "ok",
		    "seconds", res.seconds, "bytes", (json_int_t)res.bytes,
		    "took", res.took);
	else {
		if (strlen(res.cause) > DRAFTER_AUDIO_ERR_MAX)
			res.cause[DRAFTER_AUDIO_ERR_MAX] = '\0';
		j = json_pack("{s:b, s:s, s:s, s:s, s:s, s:f}", "audio", 1,
		    "repo", w->repo, "name", w->name, "outcome",
		    audio_outcome_name(res.outcome), "error", res.cause,
		    "took", res.took);
	}
	audio_result_clear(&res);
	return j;
}

/*
 * A worker of the audio: speak the episodes given to worker k, each
 * outcome one line written at once to fd (a pipe: a write of at most
 * PIPE_BUF bytes is never interleaved with another worker's). Its exit
 * status: 0, or 1 when the loop can't be told.
 */
static int
drafter_audio_worker(const struct config *conf, const struct audio_conf *ac,
    struct drafter_written *w, const int *worker, size_t nw, int k, int fd)
{
	json_t	*j;
	char	*s, *line;
	size_t	 i;
	int	 rc;

	for (i = 0; i < nw; i++) {
		if (worker[i] != k)
			continue;
		j = drafter_audio_one(conf, ac, &w[i]);
		s = json_dumps(j, JSON_COMPACT);
		json_decref(j);
		if (s == NULL)
			return 1;
		xasprintf(&line, "%s\n", s);
		free(s);
		rc = strlen(line) > PIPE_BUF ||
		    drafter_write_all(fd, line, strlen(line)) == -1;
		free(line);
		if (rc)
			return 1;
	}
	return 0;
}

/* Mark the episode a worker's line j tells of as told. */
static void
drafter_audio_told(json_t *j, const struct drafter_written *w, int *told,
    size_t nw)
{
	const char	*repo, *name;
	size_t		 i;

	repo = json_string_value(json_object_get(j, "repo"));
	name = json_string_value(json_object_get(j, "name"));
	for (i = 0; repo != NULL && name != NULL && i < nw; i++)
		if (!told[i] && strcmp(w[i].repo, repo) == 0 &&
		    strcmp(w[i].name, name) == 0) {
			told[i] = 1;
			return;
		}
}

/*
 * Speak the episodes written, telling the loop how each went. After their
 * text is told: a failure or a kill here never takes an episode back.
 * With audio_workers (one per CPU by default) above 1, the episodes are
 * shared among worker processes, each repository's in one worker (they
 * rewrite its feed), and their lines passed on to the loop; a worker that
 * dies has its episodes told as failed.
 */
static void
drafter_child_audio(struct hookcastd *d, struct drafter_written *w,
    size_t nw)
{
	struct audio_conf	 ac;
	struct buf		 in;
	json_t			*j;
	pid_t			*pids;
	int			*worker, *told, p[2], n, k, status;
	size_t			 i, r, used, nrepos = 0;
	ssize_t			 got;
	char			 chunk[4096], *nl;

	pubconf_audio(&d->conf, &ac);
	/* each repository's episodes to one worker, round robin */
	worker = xcalloc(nw + 1, sizeof(*worker));
	told = xcalloc(nw + 1, sizeof(*told));
	for (i = 0; i < nw; i++) {
		for (r = 0; r < i; r++)
			if (strcmp(w[r].repo, w[i].repo) == 0)
				break;
		worker[i] = r < i ? worker[r] : (int)nrepos++;
	}
	n = ac.workers > 0 ? ac.workers : parallel_cpus();
	if ((size_t)n > nrepos)
		n = (int)nrepos;
	log_info("drafter: speaking %zu episodes in %d worker%s", nw,
	    n > 1 ? n : 1, n > 1 ? "s" : "");
	if (n <= 1 || pipe2(p, O_CLOEXEC) == -1) {
		for (i = 0; i < nw; i++)
			drafter_tell(drafter_audio_one(&d->conf, &ac, &w[i]));
		goto out;
	}
	for (i = 0; i < nw; i++)
		worker[i] %= n;
	pids = xcalloc((size_t)n, sizeof(*pids));
	for (k = 0; k < n; k++) {
		if ((pids[k] = fork()) == 0) {
			close(p[0]);
			if (prctl(PR_SET_PDEATHSIG, SIGKILL) == -1)
				_exit(1);
			status = drafter_audio_worker(&d->conf, &ac, w, worker,
			    nw, k, p[1]);
			free(pids);
			free(worker);
			free(told);
			_exit(status);
		}
		if (pids[k] == -1)
			log_warn("drafter: a worker of the audio");
	}
	close(p[1]);
	/* pass each whole line on, noting whose it was */
	buf_init(&in);
	for (;;) {
		if ((got = read(p[0], chunk, sizeof(chunk))) == -1 &&
		    errno == EINTR)
			continue;
		if (got <= 0)
			break;
		buf_append(&in, chunk, (size_t)got);
		while ((nl = memchr(in.data, '\n', in.len)) != NULL) {
			*nl = '\0';
			if ((j = json_loads(in.data, 0, NULL)) != NULL) {
				drafter_audio_told(j, w, told, nw);
				drafter_tell(j);
			}
			used = (size_t)(nl + 1 - in.data);
			memmove(in.data, nl + 1, in.len - used);
			in.len -= used;
		}
	}
	close(p[0]);
	buf_free(&in);
	for (k = 0; k < n; k++)
		while (pids[k] > 0 && waitpid(pids[k], &status, 0) == -1 &&
		    errno == EINTR)
			;
	/* a worker that died, or never started, failed what it held */
	for (i = 0; i < nw; i++)
		if (!told[i])
			drafter_tell(json_pack("{s:b, s:s, s:s, s:s, s:s, s:f}",
			    "audio", 1, "repo", w[i].repo, "name", w[i].name,
			    "outcome", "failed", "error", "its worker of the "
			    "audio died", "took", 0.0));
	free(pids);
out:
	free(worker);
	free(told);
}

/*
 * Who wrote an episode's transcript, as the child tells the parent: the
 * model or the template, why not the model, and the sentences of the
 * model's reply the fence left out with why (counted by the parent).
 */
static json_t *
drafter_draft_json(const struct emit_result *res)
{
	json_t	*draft, *dropped, *one;
	size_t	 i;

	draft = json_pack("{s:s, s:o}", "by", res->draft_by, "rejected",
	    res->draft_rejected != NULL ? json_string(res->draft_rejected) :
	    json_null());
	if (res->ndraft_dropped == 0)
		return draft;
	dropped = json_array();
	for (i = 0; i < res->ndraft_dropped; i++)
		if ((one = json_pack("{s:s, s:s}", "sentence",
		    res->draft_dropped[i].sentence, "reason",
		    res->draft_dropped[i].reason)) != NULL)
			json_array_append_new(dropped, one);
	json_object_set_new(draft, "dropped", dropped);
	return draft;
}

/*
 * The episode of one repository, drafted in the child (with reduced, in
 * brief: reduced.h).
 */
static void
drafter_child_one(struct hookcastd *d, const struct drafter_job *job,
    const char *repo, int reduced)
{
	struct store_repo	*r = store_repo(d->store, repo, 0, 0);
	struct day		*day = NULL;
	struct emit_conf	 ec;
	struct emit_result	 res;
	json_t			*item, *ep;
	char			*cause = NULL;
	int			 write = job->kind == DRAFTER_EMIT;
	time_t			 now;

	if (r != NULL)
		day = write ? r->drafting : r->day;
	if (day == NULL) {
		drafter_tell(json_pack("{s:s, s:b, s:s}", "repo", repo, "ok", 0,
		    "error", "no day to draft"));
		return;
	}
	now = job->now != 0 ? job->now : day->end;
	/* a preview's window ends now (the child's copy of the day) */
	if (!write)
		day->end = now;
	pubconf_emit(&d->conf, &ec);
	if ((reduced ? emit_day_reduced : emit_day)(&ec, day, now, write,
	    &res, &cause) == -1) {
		drafter_tell(json_pack("{s:s, s:b, s:s}", "repo", repo, "ok", 0,
		    "error", cause));
		free(cause);
		return;
	}
	item = json_pack("{s:s, s:s, s:s}", "repo", res.repo, "date",
	    res.date, "title", res.title);
	if (reduced)
		json_object_set_new(item, "reduced", json_true());
	if (res.draft_by != NULL)
		json_object_set_new(item, "draft", drafter_draft_json(&res));
	if (write) {
		json_object_set_new(item, "markdown", json_string(res.md_path));
		json_object_set_new(item, "json", json_string(res.json_path));
	} else {
		ep = json_loads(res.json_text, 0, NULL);
		json_object_set_new(item, "episode", ep != NULL ? ep :
		    json_null());
		json_object_set_new(item, "markdown_text",
		    json_string(res.md_text));
	}
	emit_result_clear(&res);
	drafter_tell(json_pack("{s:s, s:b, s:o}", "repo", repo, "ok", 1,
	    "item", item));
}

/*
 * A show's episode (emit_show) of the days of the job's repositories it
 * matches: handed off for an emission, open for a preview. One line,
 * {"show": NAME, ...}, with the item as a repository's has it.
 */
static void
drafter_child_show(struct hookcastd *d, const struct drafter_job *job,
    const char *name)
{
	const struct show_conf	*sc = config_show_find(&d->conf, name);
	struct showday		*sd = NULL;
	struct store_repo	*r;
	struct config		 eff;
	struct emit_conf	 ec;
	struct emit_result	 res;
	struct day		**days;
	json_t			*item;
	char			*cause = NULL;
	int			 write = job->kind == DRAFTER_EMIT;
	time_t			 now = job->now;
	size_t			 i, n = 0;

	/* a show on a schedule of its own: its copies of the days */
	if (sc != NULL && (sd = showday_find(d, sc->name)) != NULL) {
		days = xcalloc(store_nrepos(sd->store) + 1, sizeof(*days));
		for (i = 0; i < store_nrepos(sd->store); i++) {
			r = store_repo_at(sd->store, i);
			if ((days[n] = write ? r->drafting : r->day) == NULL ||
			    (!write && !hookcastd_has_activity(r->day)))
				continue;
			if (job->now == 0 && days[n]->end > now)
				now = days[n]->end;
			n++;
		}
	} else
		days = xcalloc(job->nrepos + 1, sizeof(*days));
	for (i = 0; sc != NULL && sd == NULL && i < job->nrepos; i++) {
		if (!show_conf_matches(sc, job->repos[i]) ||
		    (r = store_repo(d->store, job->repos[i], 0, 0)) == NULL ||
		    (days[n] = write ? r->drafting : r->day) == NULL)
			continue;
		if (job->now == 0 && days[n]->end > now)
			now = days[n]->end;
		n++;
	}
	/* a preview's window ends now (the child's copy of the days) */
	for (i = 0; !write && i < n; i++)
		days[i]->end = now;
	if (n == 0) {
		drafter_tell(json_pack("{s:s, s:b, s:s}", "show", name, "ok", 0,
		    "error", "no day of its repositories to draft"));
		free(days);
		return;
	}
	config_show_settings(&d->conf, sc, &eff);
	pubconf_emit(&eff, &ec);
	/* its date and times in its own zone (this is the child's TZ) */
	if (strcmp(eff.timezone, d->conf.timezone) != 0 &&
	    schedule_set_timezone(eff.timezone) == -1)
		log_warnx("show %s: time zone %s is gone; dated in %s",
		    sc->name, eff.timezone, d->conf.timezone);
	if (emit_show(&ec, sc->name, sc->slug, days, n, now, write, &res,
	    &cause) == -1) {
		drafter_tell(json_pack("{s:s, s:b, s:s}", "show", name, "ok", 0,
		    "error", cause));
		free(cause);
		free(days);
		return;
	}
	item = json_pack("{s:s, s:s, s:s, s:s}", "repo", res.repo, "show",
	    sc->name, "date", res.date, "title", res.title);
	if (write) {
		json_object_set_new(item, "markdown", json_string(res.md_path));
		json_object_set_new(item, "json", json_string(res.json_path));
	} else {
		json_object_set_new(item, "episode", json_loads(res.json_text,
		    0, NULL));
		json_object_set_new(item, "markdown_text",
		    json_string(res.md_text));
	}
	emit_result_clear(&res);
	free(days);
	drafter_tell(json_pack("{s:s, s:b, s:o}", "show", name, "ok", 1,
	    "item", item));
}

/*
 * The child: do the running part of the job (dr->part), tell each
 * outcome, and end.
 */
static void
drafter_child(struct drafter *dr, struct drafter_job *job, pid_t parent,
    int fd)
{
	struct hookcastd	*d = dr->d;
	json_t			*recaps, *item;
	char			*cause = NULL;
	size_t			 i;
	int			 oom;

	/* die with the daemon; signals as a plain process has them */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) == -1 || getppid() != parent)
		_exit(1);
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	/* background work: on a busy host the loop gets the CPU first */
	errno = 0;
	if (nice(DRAFTER_NICE) == -1 && errno != 0)
		log_debug("drafter: nice: %s", strerror(errno));
	/*
	 * Out of memory, the kernel kills this process, not the daemon: a
	 * day too big to draft fails its own episode (and is told in brief
	 * after), while intake and the other repositories go on.
	 */
	if ((oom = open("/proc/self/oom_score_adj", O_WRONLY |
	    O_CLOEXEC)) == -1 || write(oom, "1000", 4) != 4)
		log_debug("drafter: oom_score_adj: %s", strerror(errno));
	if (oom != -1)
		close(oom);
	/* nothing of the daemon's stays open: sockets close when it says */
	if (fd != DRAFTER_CHILD_FD) {
		if (dup2(fd, DRAFTER_CHILD_FD) == -1)
			_exit(1);
		close(fd);
	}
	close_range(DRAFTER_CHILD_FD + 1, ~0U, 0);

	switch (dr->part) {
	case DRAFTER_PART_SHOW:
		drafter_child_show(d, job, job->shows[dr->cur]);
		break;
	case DRAFTER_PART_REPO:
		drafter_child_one(d, job, job->repos[dr->cur], dr->reduced);
		break;
	case DRAFTER_PART_RECAP:
		recaps = json_array();
		if (hookcastd_recap_write(d, NULL, job->now, job->recap - 1,
		    recaps, &cause) == -1)
			free(cause);
		json_array_foreach(recaps, i, item)
			drafter_tell(json_pack("{s:b, s:b, s:O}", "recap", 1,
			    "ok", 1, "item", item));
		json_decref(recaps);
		break;
	case DRAFTER_PART_AUDIO:
		drafter_child_audio(d, job->written, job->nwritten);
		break;
	}
	/* no exit handlers: they are the daemon's */
	_exit(0);
}

/*
 * Free more on a later loop turn: a timer, run after the loop polled its
 * sockets (an event made active from its own callback would run again
 * in the same turn, freeing the whole day at once).
 */
static void
drafter_free_later(struct drafter *dr)
{
	static const struct timeval	now = { 0, 0 };

	if (!evtimer_pending(dr->free_ev, NULL))
		evtimer_add(dr->free_ev, &now);
}

/* Free some of the drafted days, and come back on a later turn for more. */
static void
drafter_free_step(evutil_socket_t fd, short what, void *arg)
{
	struct drafter	*dr = arg;

	if (dr->nspent > 0 &&
	    day_free_some(dr->spent[dr->nspent - 1], DRAFTER_FREE_STEP))
		dr->nspent--;
	if (dr->nspent > 0)
		drafter_free_later(dr);
}

/* A drafted day to free, a part per loop turn. */
static void
drafter_spend(struct drafter *dr, struct day *day)
{
	dr->spent = xreallocarray(dr->spent, dr->nspent + 1,
	    sizeof(*dr->spent));
	dr->spent[dr->nspent++] = day;
	drafter_free_later(dr);
}

/*
 * Journal the drafter's record of repo, as writer writes it (append and
 * sync); a failure is logged.
 */
static void
drafter_journal(struct drafter *dr, int (*writer)(struct buf *, const char *),
    const char *repo)
{
	struct buf	rec;

	/* on the shared journal, under the day's lease, which it lets go */
	if (dr->d->redisj != NULL) {
		(void)hookcastd_redis_outcome(dr->d, writer, repo);
		return;
	}
	buf_init(&rec);
	if (writer(&rec, repo) == -1 ||
	    journal_append_bytes(dr->d->journal, rec.data, rec.len) == -1 ||
	    journal_sync(dr->d->journal) == -1)
		log_warn("journal: recording the draft of %s", repo);
	buf_free(&rec);
}

/* Note the first failure of a job. */
static void
drafter_error(struct drafter_job *job, const char *repo, const char *cause)
{
	if (job->error == NULL) {
		if (repo != NULL)
			xasprintf(&job->error, "%s: %s", repo, cause);
		else
			job->error = xstrdup(cause);
	}
}

/* How the episode of repo went: its day finished or joined back. */
static void
drafter_outcome(struct drafter *dr, struct drafter_job *job,
    const char *repo, json_t *item, const char *cause)
{
	struct hookcastd	*d = dr->d;
	struct store_repo	*r;
	const char		*path;
	int			 n;

	if (job->kind == DRAFTER_PREVIEW) {
		if (item != NULL)
			json_array_append(job->episodes, item);
		else
			drafter_error(job, repo, cause);
		return;
	}
	r = store_repo(d->store, repo, 0, 0);
	if (item != NULL) {
		d->metrics.episodes_emitted++;
		metrics_emitted(&d->metrics, repo, time(NULL));
		if (json_is_true(json_object_get(item, "reduced")))
			d->metrics.episodes_reduced++;
		drafter_failure_note(dr, repo, NULL);
		json_array_append(job->episodes, item);
		outbox_episode(d->outbox, item);
		path = json_string_value(json_object_get(item, "markdown"));
		if (path != NULL)
			drafter_add_written(&job->written, &job->nwritten,
			    repo, path);
		if (r != NULL && r->drafting != NULL) {
			drafter_journal(dr, jrecord_write_drafted, repo);
			drafter_spend(dr, store_drafted(d->store, r));
		}
		return;
	}
	d->metrics.emit_failures++;
	metrics_draft_failed(&d->metrics, repo);
	n = drafter_failure_note(dr, repo, cause);
	log_warnx("emit %s: %s; the day is kept for the next episode (%d "
	    "failed draft%s in a row%s)", repo, cause, n, n == 1 ? "" : "s",
	    n >= DRAFTER_REDUCE_AFTER ? ": it is told in brief next" : "");
	drafter_error(job, repo, cause);
	if (r != NULL && r->drafting != NULL) {
		drafter_journal(dr, jrecord_write_merge_back, repo);
		store_merge_back(d->store, r);
	}
}

/*
 * Whether a show of the job that takes repo has its episode out. A
 * repository with own_episodes = false is drafted on its own when none
 * has (a flush of it alone, a show that failed): a day accepted is told.
 */
static int
drafter_in_show(struct drafter *dr, const struct drafter_job *job,
    const char *repo)
{
	const struct show_conf	*sc;
	size_t			 i;

	for (i = 0; i < job->nshows; i++)
		if (job->show_out[i] &&
		    (sc = config_show_find(&dr->d->conf, job->shows[i])) !=
		    NULL && show_conf_matches(sc, repo))
			return 1;
	/* a show on a schedule of its own holds a copy, told at its hour */
	return showday_wants(dr->d, repo);
}

/*
 * A repository with own_episodes = false: its day, told in its shows,
 * is finished as an episode's is, without one.
 */
static void
drafter_shown(struct drafter *dr, struct drafter_job *job, const char *repo)
{
	struct store_repo	*r = store_repo(dr->d->store, repo, 0, 0);

	if (job->kind != DRAFTER_EMIT || r == NULL || r->drafting == NULL)
		return;
	log_info("emit %s: told in its shows only (own_episodes = false)",
	    repo);
	drafter_journal(dr, jrecord_write_drafted, repo);
	drafter_spend(dr, store_drafted(dr->d->store, r));
}

/* Send the job's reply, once. */
static void
drafter_reply(struct drafter_job *job)
{
	json_t	*reply;
	char	*s;

	if (job->reply == NULL)
		return;
	if (job->error != NULL)
		reply = json_pack("{s:b, s:s}", "ok", 0, "error", job->error);
	else
		reply = json_pack("{s:b, s:O}", "ok", 1, "episodes",
		    job->episodes);
	s = json_dumps(reply, JSON_COMPACT);
	control_reply_send(job->reply, s);
	free(s);
	json_decref(reply);
	job->reply = NULL;
}

/* How one episode's audio went. */
static void
drafter_audio_line(struct drafter *dr, json_t *j)
{
	const char	*repo, *name, *error;
	int		 o;

	repo = json_string_value(json_object_get(j, "repo"));
	name = json_string_value(json_object_get(j, "name"));
	error = json_string_value(json_object_get(j, "error"));
	if ((o = audio_outcome_parse(json_string_value(json_object_get(j,
	    "outcome")))) == -1 || repo == NULL || name == NULL ||
	    dr->audio_told >= dr->audio_expected) {
		log_warnx("drafter: an unreadable audio line from the child");
		return;
	}
	dr->audio_told++;
	metrics_audio(&dr->d->metrics, (enum metrics_audio)o,
	    json_number_value(json_object_get(j, "seconds")),
	    json_number_value(json_object_get(j, "took")));
	if (o == AUDIO_OK)
		log_info("audio of %s %s: %.1f s, %lld bytes, made in %.1f s",
		    repo, name, json_number_value(json_object_get(j,
		    "seconds")), (long long)json_integer_value(
		    json_object_get(j, "bytes")), json_number_value(
		    json_object_get(j, "took")));
	else
		log_warnx("audio of %s %s %s: %s; the text episode stays",
		    repo, name, o == AUDIO_TIMEOUT ? "timed out" : "failed",
		    error != NULL ? error : "no reason given");
}

/* Count how the model's rewrite of an episode went, when one was asked. */
static void
drafter_count_rewrite(struct drafter *dr, json_t *item)
{
	json_t		*draft = json_object_get(item, "draft"), *one;
	const char	*by = json_string_value(json_object_get(draft, "by"));
	size_t		 i;

	if (by == NULL)
		return;
	metrics_llm(&dr->d->metrics, strcmp(by, "model") == 0 ? NULL :
	    json_string_value(json_object_get(draft, "rejected")));
	json_array_foreach(json_object_get(draft, "dropped"), i, one)
		metrics_llm_dropped(&dr->d->metrics, json_string_value(
		    json_object_get(one, "reason")));
}

/*
 * How a show's episode went: out (counted, to the sinks, to be spoken
 * with the rest), or not, logged; the members' days are their own
 * episodes' to finish.
 */
static void
drafter_show_line(struct drafter *dr, json_t *j, json_t *item,
    const char *error)
{
	struct drafter_job	*job = dr->queue;
	const char		*show, *path, *repo;

	show = json_string_value(json_object_get(j, "show"));
	if (dr->part != DRAFTER_PART_SHOW || show == NULL ||
	    strcmp(show, job->shows[dr->cur]) != 0) {
		log_warnx("drafter: a line about no show being drafted");
		return;
	}
	job->show_told[dr->cur] = 1;
	if (item == NULL) {
		if (job->kind == DRAFTER_EMIT) {
			log_warnx("emit show %s: %s", show, error);
			showday_failed(dr->d, show);
		} else
			log_info("preview of show %s: %s", show, error);
		return;
	}
	json_array_append(job->episodes, item);
	job->show_out[dr->cur] = 1;
	if (job->kind != DRAFTER_EMIT)
		return;
	/* a show on a schedule of its own: its days are done */
	showday_drafted(dr->d, show);
	dr->d->metrics.episodes_emitted++;
	repo = json_string_value(json_object_get(item, "repo"));
	outbox_episode(dr->d->outbox, item);
	path = json_string_value(json_object_get(item, "markdown"));
	if (path != NULL && repo != NULL)
		drafter_add_written(&job->written, &job->nwritten, repo, path);
}

/* One line from the child. */
static void
drafter_line(struct drafter *dr, const char *line, size_t len)
{
	struct drafter_job	*job = dr->queue;
	json_t			*j, *item;
	const char		*repo, *error;
	size_t			 i;

	if ((j = json_loadb(line, len, 0, NULL)) == NULL) {
		log_warnx("drafter: an unreadable line from the child");
		return;
	}
	item = json_is_true(json_object_get(j, "ok")) ?
	    json_object_get(j, "item") : NULL;
	error = json_string_value(json_object_get(j, "error"));
	if (error == NULL)
		error = "failed";
	if (json_is_true(json_object_get(j, "audio"))) {
		drafter_audio_line(dr, j);
		json_decref(j);
		return;
	}
	if (json_is_true(json_object_get(j, "recap"))) {
		if (item != NULL) {
			dr->d->metrics.episodes_emitted++;
			metrics_emitted(&dr->d->metrics, json_string_value(
			    json_object_get(item, "repo")), time(NULL));
			json_array_append(job->episodes, item);
			outbox_episode(dr->d->outbox, item);
		}
		json_decref(j);
		return;
	}
	if (json_object_get(j, "show") != NULL) {
		drafter_show_line(dr, j, item, error);
		json_decref(j);
		return;
	}
	/* a process drafts one repository: its line is about that one */
	repo = json_string_value(json_object_get(j, "repo"));
	i = dr->cur;
	if (dr->part != DRAFTER_PART_REPO || repo == NULL ||
	    job->told[i] || strcmp(job->repos[i], repo) != 0) {
		log_warnx("drafter: a line about no repository being drafted");
		json_decref(j);
		return;
	}
	job->told[i] = 1;
	drafter_count_rewrite(dr, item);
	drafter_outcome(dr, job, job->repos[i], item, error);
	json_decref(j);
}

/* The job is over: its untold days failed with cause; reply; next. */
static void
drafter_done(struct drafter *dr, const char *cause)
{
	struct drafter_job	*job = dr->queue;
	struct timespec		 now;
	size_t			 i;

	for (i = 0; i < job->nrepos; i++)
		if (!job->told[i]) {
			job->told[i] = 1;
			drafter_outcome(dr, job, job->repos[i], NULL, cause);
		}
	drafter_reply(job);
	clock_gettime(CLOCK_MONOTONIC, &now);
	log_info("drafter: %zu episode(s) of %s in %.3f s", job->nrepos,
	    job->kind == DRAFTER_EMIT ? "emission" : "preview",
	    (double)(now.tv_sec - job->started.tv_sec) +
	    (double)(now.tv_nsec - job->started.tv_nsec) / 1e9);
	if (job->kind == DRAFTER_EMIT)
		hookcastd_notify_status(dr->d, 1);
	dr->queue = job->next;
	if (dr->queue == NULL)
		dr->tail = &dr->queue;
	dr->njobs--;
	drafter_job_free(job);
	/* the journal holds the drafted days until they are out */
	if (dr->queue == NULL && dr->d->compact_wanted) {
		dr->d->compact_wanted = 0;
		hookcastd_compact(dr->d);
	}
}

/*
 * The part of the job a process ended (or never started) with cause:
 * the repository it drafted failed, unless its line came; the audio
 * that never came is counted.
 */
static void
drafter_part_failed(struct drafter *dr, const char *cause)
{
	struct drafter_job	*job = dr->queue;

	switch (dr->part) {
	case DRAFTER_PART_SHOW:
		if (job->show_told[dr->cur])
			break;
		job->show_told[dr->cur] = 1;
		log_warnx("drafter: show %s: %s", job->shows[dr->cur], cause);
		if (job->kind == DRAFTER_EMIT)
			showday_failed(dr->d, job->shows[dr->cur]);
		break;
	case DRAFTER_PART_REPO:
		if (!job->told[dr->cur]) {
			job->told[dr->cur] = 1;
			drafter_outcome(dr, job, job->repos[dr->cur], NULL,
			    cause);
		}
		break;
	case DRAFTER_PART_RECAP:
		log_warnx("drafter: weekly recaps: %s", cause);
		break;
	case DRAFTER_PART_AUDIO:
		for (; dr->audio_told < dr->audio_expected;
		    dr->audio_told++) {
			metrics_audio(&dr->d->metrics, dr->timed_out ?
			    MAUDIO_TIMEOUT : MAUDIO_FAILED, 0, 0);
			log_warnx("drafter: an episode's audio never came "
			    "(%s); the text episode stays", cause);
		}
		break;
	}
}

/* The child's pipe closed: collect it, finish its part, start the next. */
static void
drafter_reap(struct drafter *dr)
{
	int		 status = 0;
	char		*cause;

	event_free(dr->read_ev);
	dr->read_ev = NULL;
	evtimer_del(dr->timer);
	close(dr->fd);
	dr->fd = -1;
	while (waitpid(dr->pid, &status, 0) == -1 && errno == EINTR)
		;
	dr->pid = -1;
	if (dr->timed_out && dr->part == DRAFTER_PART_AUDIO)
		xasprintf(&cause, "speaking took over audio_timeout (%d s) "
		    "per episode; stopped", dr->d->conf.audio_timeout);
	else if (dr->timed_out)
		xasprintf(&cause, "drafting took over %lld s (draft_timeout, "
		    "and llm_timeout per rewrite); stopped",
		    (long long)dr->limit);
	else if (WIFSIGNALED(status))
		xasprintf(&cause, "the drafting process died of signal %d",
		    WTERMSIG(status));
	else if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
		xasprintf(&cause, "the drafting process exited with status %d",
		    WEXITSTATUS(status));
	else
		cause = xstrdup("the drafting process ended without telling it");
	/* recaps are told as they are written: none is no failure */
	if (dr->part != DRAFTER_PART_RECAP || dr->timed_out ||
	    !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		drafter_part_failed(dr, cause);
	free(cause);
	buf_reset(&dr->in);
	drafter_start(dr);
}

static void
drafter_read(evutil_socket_t fd, short what, void *arg)
{
	struct drafter	*dr = arg;
	char		 chunk[65536], *nl;
	ssize_t		 n;
	size_t		 off = 0;

	n = read(fd, chunk, sizeof(chunk));
	if (n == -1 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		drafter_reap(dr);
		return;
	}
	buf_append(&dr->in, chunk, (size_t)n);
	while ((nl = memchr(dr->in.data + off, '\n', dr->in.len - off)) !=
	    NULL) {
		drafter_line(dr, dr->in.data + off,
		    (size_t)(nl - (dr->in.data + off)));
		off = (size_t)(nl - dr->in.data) + 1;
	}
	/* keep the start of a line still coming */
	memmove(dr->in.data, dr->in.data + off, dr->in.len - off);
	dr->in.len -= off;
	dr->in.data[dr->in.len] = '\0';
}

static void
drafter_timeout(evutil_socket_t fd, short what, void *arg)
{
	struct drafter	*dr = arg;

	if (dr->part == DRAFTER_PART_AUDIO)
		log_warnx("drafter: speaking ran over audio_timeout (%d s) "
		    "per episode; killing it", dr->d->conf.audio_timeout);
	else if (dr->part == DRAFTER_PART_RECAP)
		log_warnx("drafter: the weekly recaps ran over %lld s "
		    "(draft_timeout); killing them", (long long)dr->limit);
	else if (dr->part == DRAFTER_PART_SHOW)
		log_warnx("drafter: the draft of show %s ran over %lld s "
		    "(draft_timeout); killing it", dr->queue->shows[dr->cur],
		    (long long)dr->limit);
	else
		log_warnx("drafter: the draft of %s ran over %lld s "
		    "(draft_timeout, and llm_timeout for a rewrite); killing "
		    "it", dr->queue->repos[dr->cur], (long long)dr->limit);
	dr->timed_out = 1;
	kill(dr->pid, SIGKILL);
}

/*
 * Seconds the running part may take: a repository's draft_timeout, and
 * its llm_timeout when a model rewrites its transcript (the request
 * waits that long at most, then the draft is told) with a second of
 * grace; the recaps' draft_timeout; for the audio, audio_timeout and a
 * grace per episode (the process stops its own programs at
 * audio_timeout, and is killed only when it overstays that).
 */
static time_t
drafter_time_limit(struct drafter *dr, const struct drafter_job *job)
{
	struct llm_conf	 llm;
	time_t		 t = dr->d->conf.draft_timeout;

	switch (dr->part) {
	case DRAFTER_PART_SHOW:
		break;
	case DRAFTER_PART_REPO:
		config_llm(&dr->d->conf, job->repos[dr->cur], &llm);
		if (llm.url != NULL && !dr->reduced)
			t += llm.timeout + 1;
		break;
	case DRAFTER_PART_RECAP:
		break;
	case DRAFTER_PART_AUDIO:
		t = (time_t)job->nwritten * (dr->d->conf.audio_timeout +
		    DRAFTER_AUDIO_GRACE);
		break;
	}
	return t;
}

/* Start a process for the part of the job set; 0 or -1 + cause. */
static int
drafter_spawn(struct drafter *dr, char **cause)
{
	struct timeval	 tv;
	int		 p[2];
	pid_t		 pid, parent = getpid();

	if (pipe2(p, O_CLOEXEC) == -1) {
		xasprintf(cause, "drafter: pipe: %s", strerror(errno));
		return -1;
	}
	if ((pid = fork()) == -1) {
		xasprintf(cause, "drafter: fork: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		close(p[0]);
		drafter_child(dr, dr->queue, parent, p[1]);
	}
	close(p[1]);
	if (fcntl(p[0], F_SETFL, O_NONBLOCK) == -1)
		log_warn("drafter: O_NONBLOCK");
	dr->pid = pid;
	dr->fd = p[0];
	dr->timed_out = 0;
	dr->audio_told = 0;
	dr->audio_expected = dr->part == DRAFTER_PART_AUDIO ?
	    dr->queue->nwritten : 0;
	dr->read_ev = event_new(dr->d->base, p[0], EV_READ | EV_PERSIST,
	    drafter_read, dr);
	event_add(dr->read_ev, NULL);
	if (dr->timer == NULL)
		dr->timer = evtimer_new(dr->d->base, drafter_timeout, dr);
	dr->limit = drafter_time_limit(dr, dr->queue);
	tv.tv_sec = dr->limit;
	tv.tv_usec = 0;
	evtimer_add(dr->timer, &tv);
	return 0;
}

/*
 * Set the next part of the job to run (dr->part and its repository): 1,
 * or 0 when the job is over. Each repository's draft is a process of its
 * own: one that outlives its draft_timeout or dies fails alone, and the
 * others of the emission are drafted all the same. Once the text is all
 * out (the episodes, then the recaps) whoever asked gets the reply; the
 * audio follows.
 */
static int
drafter_next(struct drafter *dr, struct drafter_job *job)
{
	struct drafter_failure	*f;
	struct audio_conf	 ac;
	const char		*why;

	/* the shows first, while their members' days are all here */
	if (job->show_step < job->nshows) {
		dr->cur = job->show_step++;
		dr->part = DRAFTER_PART_SHOW;
		return 1;
	}
	while (job->step < job->nrepos) {
		dr->cur = job->step++;
		if (job->told[dr->cur])
			continue;
		/* told only in its shows: its day is done with them */
		if (!config_own_episodes(&dr->d->conf, job->repos[dr->cur]) &&
		    drafter_in_show(dr, job, job->repos[dr->cur])) {
			job->told[dr->cur] = 1;
			drafter_shown(dr, job, job->repos[dr->cur]);
			continue;
		}
		dr->part = DRAFTER_PART_REPO;
		f = drafter_failure_find(dr, job->repos[dr->cur]);
		dr->reduced = f != NULL && f->n >= DRAFTER_REDUCE_AFTER;
		if (dr->reduced && job->kind == DRAFTER_EMIT)
			log_warnx("emit %s: its last %d drafts failed (the "
			    "last: %s); its day is told in brief",
			    f->repo, f->n, f->cause);
		return 1;
	}
	if (job->step == job->nrepos) {
		job->step++;
		if (job->recap) {
			dr->part = DRAFTER_PART_RECAP;
			return 1;
		}
	}
	if (job->step == job->nrepos + 1) {
		job->step++;
		drafter_reply(job);
		pubconf_audio(&dr->d->conf, &ac);
		if (job->nwritten > 0 && !audio_enabled(&ac, &why))
			log_debug("drafter: no audio: %s", why);
		else if (job->nwritten > 0) {
			dr->part = DRAFTER_PART_AUDIO;
			return 1;
		}
	}
	return 0;
}

static void
drafter_start(struct drafter *dr)
{
	char	*cause = NULL;

	while (dr->queue != NULL && dr->pid == -1) {
		if (!drafter_next(dr, dr->queue)) {
			drafter_done(dr, "not drafted");
			continue;
		}
		if (drafter_spawn(dr, &cause) == 0)
			return;
		log_warnx("%s", cause);
		drafter_part_failed(dr, cause);
		free(cause);
		cause = NULL;
	}
}

void
drafter_free(struct drafter *dr)
{
	struct drafter_job	*job, *next;
	size_t			 i;

	if (dr == NULL)
		return;
	if (dr->pid != -1) {
		log_notice("drafter: stopping a draft in progress; its days "
		    "are drafted again at the next start");
		kill(dr->pid, SIGKILL);
		while (waitpid(dr->pid, NULL, 0) == -1 && errno == EINTR)
			;
		event_free(dr->read_ev);
		close(dr->fd);
		/* the temporary files it was writing (audio.h) */
		audio_sweep_all(dr->d->conf.output_dir);
	}
	for (job = dr->queue; job != NULL; job = next) {
		next = job->next;
		if (job->reply != NULL)
			control_reply_send(job->reply, "{\"ok\":false,"
			    "\"error\":\"stopping\"}");
		drafter_job_free(job);
	}
	if (dr->timer != NULL)
		event_free(dr->timer);
	while (dr->nspent > 0)
		day_free(dr->spent[--dr->nspent]);
	free(dr->spent);
	event_free(dr->free_ev);
	buf_free(&dr->in);
	for (i = 0; i < dr->nfailures; i++) {
		free(dr->failures[i].repo);
		free(dr->failures[i].cause);
	}
	free(dr->failures);
	free(dr->failures_path);
	free(dr);
}
