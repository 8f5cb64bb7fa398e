/*
 * hookcast-draft: the episode of a repository's past day, drafted from
 * deliveries in folders (NNNN.json and NNNN.meta.json, as
 * scripts/replay-git --out writes them) with hookcastd's own code: the
 * handlers and branch filter (intake.c), the day store, the drafter and
 * the episode files (emit.c). No HTTP, no journal, no loop, no secret.
 *
 * The day told is a calendar day in the configured time zone, and the
 * episode is dated and published as hookcastd would have published it on
 * its schedule: at the first emit_at after the day's end.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "audio.h"
#include "config.h"
#include "day.h"
#include "emit.h"
#include "fileio.h"
#include "handler.h"
#include "intake.h"
#include "log.h"
#include "pubconf.h"
#include "schedule.h"
#include "store.h"
#include "version.h"
#include "xmalloc.h"

/* What reading the folders came to, for the notes on stderr. */
struct draft_input {
	size_t	deliveries;	/* read */
	size_t	not_kept;	/* events or branches hookcast doesn't keep */
	size_t	again;		/* redeliveries of a delivery already read */
	size_t	bad;		/* refused: reported, nothing is drafted */
};

static void
draft_usage(FILE *f)
{
	fprintf(f, "usage: hookcast-draft [--config FILE] [--timezone ZONE] "
	    "[--day YYYY-MM-DD]\n"
	    "                      [--show NAME] [--output-dir DIR] [--audio] "
	    "[--brief]\n                      DIR...\n\n"
	    "Drafts the episode of a repository's day from webhook deliveries "
	    "in DIR\n(NNNN.json and NNNN.meta.json, as scripts/replay-git "
	    "--out writes them).\nWithout --output-dir the Markdown transcript "
	    "goes to stdout. --show NAME of a\n[show \"NAME\"] section of the "
	    "configuration drafts that show's episode of\nthe repositories "
	    "it matches; else it names the show.\n");
}

/*
 * A delivery's body, whole (new, NUL-terminated), refused over max
 * bytes as the intake refuses it.
 */
static int
draft_read(const char *path, const char *what, long long max, char **out,
    size_t *len, char **cause)
{
	struct stat	 st;
	FILE		*f;
	char		*s;
	size_t		 n;

	if ((f = fopen(path, "rb")) == NULL) {
		xasprintf(cause, "%s", strerror(errno));
		return -1;
	}
	if (fstat(fileno(f), &st) == -1 || !S_ISREG(st.st_mode)) {
		xasprintf(cause, "not a regular file");
		fclose(f);
		return -1;
	}
	if (st.st_size > max) {
		xasprintf(cause, "payload larger than the configured %s (%lld "
		    "bytes)", what, max);
		fclose(f);
		return -1;
	}
	s = xmalloc((size_t)st.st_size + 1);
	n = fread(s, 1, (size_t)st.st_size, f);
	if (ferror(f) || n != (size_t)st.st_size) {
		xasprintf(cause, "short read");
		free(s);
		fclose(f);
		return -1;
	}
	fclose(f);
	s[n] = '\0';
	*out = s;
	*len = n;
	return 0;
}

/*
 * A delivery's meta file: its event, GUID and time of sending (event
 * and guid new). 0, or -1 with *cause naming the field.
 */
static int
draft_meta(const char *path, char **event, char **guid, time_t *when,
    char **cause)
{
	json_error_t	 err;
	json_t		*m;
	const char	*e, *g, *t;
	int		 rc = -1;

	if ((m = json_load_file(path, JSON_REJECT_DUPLICATES, &err)) == NULL) {
		xasprintf(cause, "invalid JSON at line %d column %d: %s",
		    err.line, err.column, err.text);
		return -1;
	}
	e = json_string_value(json_object_get(m, "event"));
	g = json_string_value(json_object_get(m, "delivery"));
	t = json_string_value(json_object_get(m, "time"));
	if (!json_is_object(m))
		xasprintf(cause, "not a JSON object");
	else if (e == NULL || *e == '\0')
		xasprintf(cause, "event: expected the X-GitHub-Event name");
	else if (g == NULL || *g == '\0')
		xasprintf(cause, "delivery: expected the X-GitHub-Delivery "
		    "GUID");
	else if (t == NULL || hjson_time(t, when) == -1)
		xasprintf(cause, "time: expected an ISO 8601 time");
	else {
		*event = xstrdup(e);
		*guid = xstrdup(g);
		rc = 0;
	}
	json_decref(m);
	return rc;
}

/* Report a refused file of a folder, as the daemon's log names a cause. */
static void
draft_refuse(struct draft_input *in, const char *dir, const char *file,
    const char *cause)
{
	char	*esc = log_escape(cause, 400);

	fprintf(stderr, "hookcast-draft: %s/%s: %s\n", dir, file, esc);
	free(esc);
	in->bad++;
}

/* One delivery (dir/base.json and its meta) into the store. */
static void
draft_delivery(const struct config *conf, struct store *store,
    const char *dir, const char *base, struct draft_input *in)
{
	const struct handler_entry	*h;
	struct handler_result		 res;
	struct store_repo		*known;
	char				*path, *file, *event = NULL;
	char				*guid = NULL, *body = NULL, *key = NULL;
	char				*cause = NULL;
	size_t				 len, added;
	time_t				 when;
	int				 pr;

	memset(&res, 0, sizeof(res));
	in->deliveries++;
	xasprintf(&file, "%s.meta.json", base);
	xasprintf(&path, "%s/%s", dir, file);
	if (draft_meta(path, &event, &guid, &when, &cause) == -1) {
		draft_refuse(in, dir, file, cause);
		goto done;
	}
	free(file);
	free(path);
	xasprintf(&file, "%s.json", base);
	xasprintf(&path, "%s/%s", dir, file);
	key = store_key(NULL, guid);
	if (store_seen(store, key)) {
		in->again++;
		goto done;
	}
	if ((h = handler_find(event)) == NULL) {
		in->not_kept++;
		goto done;
	}
	/* the intake's caps: a pull_request is parsed whole, so lower */
	pr = strcmp(event, "pull_request") == 0;
	if (draft_read(path, pr ? "max_body_pull_request" : "max_body",
	    pr ? conf->max_body_pull_request : conf->max_body, &body, &len,
	    &cause) == -1 ||
	    intake_parse(h, body, len, when, &res, &cause) != INTAKE_OK) {
		draft_refuse(in, dir, file, cause);
		goto done;
	}
	known = res.repo != NULL ? store_repo(store, res.repo, 0, 0) : NULL;
	if (intake_untracked(conf, &res, known != NULL ?
	    known->day->default_branch : NULL) || res.repo == NULL) {
		in->not_kept++;
		goto done;
	}
	store_mark(store, key, when);
	if (store_add(store, &res, when, &added) == -1)
		fatalx("%s: out of memory", __func__);
done:
	handler_result_clear(&res);
	free(cause);
	free(key);
	free(body);
	free(event);
	free(guid);
	free(file);
	free(path);
}

/* Names in delivery order: 9999 before 10000, as replay-git counts. */
static int
draft_name_cmp(const void *a, const void *b)
{
	const char	*x = *(const char *const *)a;
	const char	*y = *(const char *const *)b;
	size_t		 xl = strlen(x), yl = strlen(y);

	if (xl != yl && strspn(x, "0123456789") == xl &&
	    strspn(y, "0123456789") == yl)
		return xl < yl ? -1 : 1;
	return strcmp(x, y);
}

/*
 * Every delivery of a folder into the store, in name order: NNNN.json
 * with NNNN.meta.json beside it. 0, or -1 when the folder can't be read
 * or holds none.
 */
static int
draft_folder(const struct config *conf, struct store *store,
    const char *dir, struct draft_input *in)
{
	struct dirent	 *de;
	DIR		 *d;
	char		**names = NULL;
	size_t		  n = 0, i, len;

	if ((d = opendir(dir)) == NULL) {
		fprintf(stderr, "hookcast-draft: %s: %s\n", dir,
		    strerror(errno));
		in->bad++;
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		len = strlen(de->d_name);
		/* NNNN.json, not NNNN.meta.json nor a dot file */
		if (len <= 5 || de->d_name[0] == '.' ||
		    strcmp(de->d_name + len - 5, ".json") != 0 ||
		    memchr(de->d_name, '.', len - 5) != NULL)
			continue;
		names = xreallocarray(names, n + 1, sizeof(*names));
		names[n++] = xstrndup(de->d_name, len - 5);
	}
	closedir(d);
	if (n == 0) {
		fprintf(stderr, "hookcast-draft: %s: no deliveries "
		    "(NNNN.json and NNNN.meta.json)\n", dir);
		in->bad++;
		return -1;
	}
	qsort(names, n, sizeof(*names), draft_name_cmp);
	for (i = 0; i < n; i++) {
		draft_delivery(conf, store, dir, names[i], in);
		free(names[i]);
	}
	free(names);
	return 0;
}

/* Local midnight starting the date y-m-d (mday may run over). */
static time_t
draft_midnight(int y, int m, int d)
{
	struct tm	tm;

	memset(&tm, 0, sizeof(tm));
	tm.tm_year = y - 1900;
	tm.tm_mon = m - 1;
	tm.tm_mday = d;
	tm.tm_isdst = -1;
	return mktime(&tm);
}

/* "YYYY-MM-DD" as a date that exists: 0, or -1. */
static int
draft_parse_day(const char *s, struct tm *out)
{
	struct tm	tm;
	time_t		t;
	int		y, m, d, n = 0;

	if (strlen(s) != 10 || sscanf(s, "%4d-%2d-%2d%n", &y, &m, &d,
	    &n) != 3 || n != 10 || y < 1970)
		return -1;
	t = draft_midnight(y, m, d) + 12 * 3600;
	localtime_r(&t, &tm);
	if (tm.tm_year != y - 1900 || tm.tm_mon != m - 1 || tm.tm_mday != d)
		return -1;
	*out = tm;
	return 0;
}

static int
draft_date_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

/*
 * The local date most of the day's commits carry, into tm (of several
 * as many, the first); of a day without commits, that of its merged pull
 * requests and pushes. 0, or -1 for a day with nothing.
 */
static int
draft_busiest(const struct day *day, struct tm *tm)
{
	time_t	*t;
	char	 (*dates)[11], best[11] = "";
	size_t	 n = 0, i, k, run, most = 0;

	t = xcalloc(day->ncommits + day->nprs + day->npushes + 1,
	    sizeof(*t));
	for (i = 0; i < day->ncommits; i++)
		t[n++] = day->commits[i].timestamp;
	for (i = 0; n == 0 && i < day->nprs; i++)
		t[n++] = day->prs[i].merged_at;
	for (i = 0; i < day->npushes && day->ncommits == 0; i++)
		t[n++] = day_push(day, i)->at;
	if (n == 0) {
		free(t);
		return -1;
	}
	dates = xcalloc(n, sizeof(*dates));
	for (i = 0; i < n; i++) {
		localtime_r(&t[i], tm);
		strftime(dates[i], sizeof(dates[i]), "%Y-%m-%d", tm);
	}
	qsort(dates, n, sizeof(*dates), draft_date_cmp);
	for (i = 0; i < n; i = k) {
		for (k = i; k < n && strcmp(dates[k], dates[i]) == 0; k++)
			;
		run = k - i;
		if (run > most) {
			most = run;
			memcpy(best, dates[i], sizeof(best));
		}
	}
	free(dates);
	free(t);
	return draft_parse_day(best, tm);
}

/* audio_render's name of a written episode: its .md's base name (new). */
static char *
draft_episode_name(const char *md_path)
{
	const char	*slash = strrchr(md_path, '/');
	const char	*name = slash != NULL ? slash + 1 : md_path;
	size_t		 len = strlen(name);

	if (len > 3 && strcmp(name + len - 3, ".md") == 0)
		len -= 3;
	return xstrndup(name, len);
}

/*
 * The day of r told on date (or its busiest date), new, in *dayp, and
 * when hookcastd would have emitted it (the first emit_at after) in
 * *published. 1, or 0 when there is nothing to tell (said on stderr).
 */
static int
draft_window(const struct config *conf, struct store_repo *r,
    const struct tm *date, struct day **dayp, time_t *published)
{
	struct day	*day;
	struct tm	 tm;
	time_t		 start, end;
	size_t		 left = 0;
	char		 when[11];

	if (date != NULL)
		tm = *date;
	else if (draft_busiest(r->day, &tm) == -1)
		return 0;
	start = draft_midnight(tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
	end = draft_midnight(tm.tm_year + 1900, tm.tm_mon + 1,
	    tm.tm_mday + 1);
	strftime(when, sizeof(when), "%Y-%m-%d", &tm);

	if ((day = day_new(r->name, start)) == NULL ||
	    day_take_window(day, r->day, start, end, &left) == -1)
		fatalx("%s: out of memory", __func__);
	day->end = end;
	if (left > 0)
		fprintf(stderr, "hookcast-draft: %s: %zu commit%s outside %s "
		    "(%s) left out\n", r->name, left, left == 1 ? "" : "s",
		    when, conf->timezone);
	if (day->ncommits == 0 && day->nprs == 0 && day->npushes == 0 &&
	    conf->quiet_days != QUIET_DAYS_EMIT) {
		fprintf(stderr, "hookcast-draft: %s: nothing on %s (%s); no "
		    "episode (quiet_days = emit drafts a short one)\n",
		    r->name, when, conf->timezone);
		day_free(day);
		return 0;
	}
	*published = schedule_next(end - 1, conf->emit_hour,
	    conf->emit_minute);
	*dayp = day;
	return 1;
}

/*
 * Print where an episode went, or its Markdown, and with audio speak it
 * (as archive entry repo: a repository or shows/SLUG). 0 or -1.
 */
static int
draft_out(struct audio_conf *ac, const char *repo, struct emit_result *res,
    int write, int audio)
{
	struct audio_result	 ares;
	char			*name;
	int			 rc = 0;

	if (!write)
		fputs(res->md_text, stdout);
	else
		fprintf(stderr, "hookcast-draft: %s: %s, %s\n", repo,
		    res->md_path, res->title);
	if (write && audio) {
		name = draft_episode_name(res->md_path);
		if (audio_render(ac, repo, name, &ares) != AUDIO_OK) {
			fprintf(stderr, "hookcast-draft: %s: audio: %s\n",
			    repo, ares.cause != NULL ? ares.cause :
			    audio_outcome_name(ares.outcome));
			rc = -1;
		}
		audio_result_clear(&ares);
		free(name);
	}
	return rc;
}

/*
 * Draft the episode of one repository's day told on date (or its busiest
 * date): to stdout, or written under output_dir; with brief, as the
 * daemon tells a day whose draft failed twice (reduced.h). 1 drafted, 0
 * nothing to tell, -1 failed.
 */
static int
draft_repo(const struct config *conf, struct store_repo *r,
    const struct tm *date, int write, int audio, int brief)
{
	struct audio_conf	 ac;
	struct emit_result	 res;
	struct day		*day;
	time_t			 published;
	char			*cause = NULL;
	int			 rc = 1;

	if (draft_window(conf, r, date, &day, &published) == 0)
		return 0;
	pubconf_audio(conf, &ac);
	if ((brief ? emit_day_reduced : emit_day)(&ac.emit, day, published,
	    write, &res, &cause) == -1) {
		fprintf(stderr, "hookcast-draft: %s: %s\n", r->name, cause);
		free(cause);
		day_free(day);
		return -1;
	}
	if (draft_out(&ac, r->name, &res, write, audio) == -1)
		rc = -1;
	emit_result_clear(&res);
	day_free(day);
	return rc;
}

/*
 * Draft the episode of the show sc: the day of each repository of store
 * its globs match, told on date (or each on its busiest date, the show
 * dated by the latest), with the show's settings. 1 drafted, 0 nothing
 * to tell, -1 failed.
 */
static int
draft_show(const struct config *conf, const struct show_conf *sc,
    struct store *store, const struct tm *date, int write, int audio)
{
	struct config		 eff;
	struct audio_conf	 ac;
	struct emit_result	 res;
	struct day		**days;
	time_t			 published = 0, t;
	size_t			 i, n = 0;
	char			*cause = NULL;
	int			 rc = 1;

	config_show_settings(conf, sc, &eff);
	if (schedule_set_timezone(eff.timezone) == -1) {
		fprintf(stderr, "hookcast-draft: show %s: unknown time zone "
		    "'%s'\n", sc->name, eff.timezone);
		return -1;
	}
	days = xcalloc(store_nrepos(store) + 1, sizeof *days);
	for (i = 0; i < store_nrepos(store); i++) {
		struct store_repo *r = store_repo_at(store, i);

		if (show_conf_matches(sc, r->name) &&
		    draft_window(&eff, r, date, &days[n], &t) == 1) {
			if (t > published)
				published = t;
			n++;
		}
	}
	if (n == 0) {
		fprintf(stderr, "hookcast-draft: show %s: no repository of "
		    "the show in the folders\n", sc->name);
		free(days);
		return 0;
	}
	pubconf_audio(&eff, &ac);
	if (emit_show(&ac.emit, sc->name, sc->slug, days, n, published, write,
	    &res, &cause) == -1) {
		fprintf(stderr, "hookcast-draft: show %s: %s\n", sc->name,
		    cause);
		free(cause);
		rc = -1;
	} else {
		if (draft_out(&ac, res.repo, &res, write, audio) == -1)
			rc = -1;
		emit_result_clear(&res);
	}
	for (i = 0; i < n; i++)
		day_free(days[i]);
	free(days);
	return rc;
}

/* What the command line asks for, besides the folders. */
struct draft_opts {
	const char	*file;		/* --config */
	const char	*zone;		/* --timezone */
	const char	*dayarg;	/* --day, as given */
	const char	*show;		/* --show */
	const char	*outdir;	/* --output-dir (NULL: to stdout) */
	int		 audio;		/* --audio */
	int		 brief;		/* --brief */
};

/*
 * Is s a date of the calendar, YYYY-MM-DD from 1970 on? Whatever the
 * zone: the command line is checked before the configuration is read.
 */
static int
draft_day_ok(const char *s)
{
	static const int	mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30,
				    31, 30, 31 };
	int			y, m, d, n = 0;

	if (strlen(s) != 10 || sscanf(s, "%4d-%2d-%2d%n", &y, &m, &d,
	    &n) != 3 || n != 10 || y < 1970 || m < 1 || m > 12 || d < 1 ||
	    d > mdays[m - 1])
		return 0;
	if (m == 2 && d == 29 && !(y % 4 == 0 && (y % 100 != 0 ||
	    y % 400 == 0)))
		return 0;
	return 1;
}

/*
 * Read the flags into o, leaving optind at the first folder. 0 to go on;
 * -1 to exit with *status: after --help or --version (0), or a usage
 * error (2, said on stderr): an unknown flag, a missing argument or
 * folder, a --day or --timezone that is none.
 */
static int
draft_flags(int argc, char **argv, struct draft_opts *o, int *status)
{
	static const struct option longopts[] = {
		{ "config",	required_argument,	NULL, 'c' },
		{ "timezone",	required_argument,	NULL, 'z' },
		{ "day",	required_argument,	NULL, 'd' },
		{ "show",	required_argument,	NULL, 's' },
		{ "output-dir",	required_argument,	NULL, 'o' },
		{ "audio",	no_argument,		NULL, 'a' },
		{ "brief",	no_argument,		NULL, 'b' },
		{ "help",	no_argument,		NULL, 'h' },
		{ "version",	no_argument,		NULL, 'V' },
		{ NULL,		0,			NULL, 0 }
	};
	int	ch;

	memset(o, 0, sizeof(*o));
	*status = 2;
	while ((ch = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'c':
			o->file = optarg;
			break;
		case 'z':
			o->zone = optarg;
			break;
		case 'd':
			o->dayarg = optarg;
			break;
		case 's':
			o->show = optarg;
			break;
		case 'o':
			o->outdir = optarg;
			break;
		case 'a':
			o->audio = 1;
			break;
		case 'b':
			o->brief = 1;
			break;
		case 'h':
			draft_usage(stdout);
			*status = 0;
			return -1;
		case 'V':
			version_print(stdout, "hookcast-draft");
			*status = 0;
			return -1;
		default:
			draft_usage(stderr);
			return -1;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "hookcast-draft: no folder of deliveries\n");
		draft_usage(stderr);
		return -1;
	}
	if (o->audio && o->outdir == NULL) {
		fprintf(stderr, "hookcast-draft: --audio needs --output-dir\n");
		return -1;
	}
	if (o->dayarg != NULL && !draft_day_ok(o->dayarg)) {
		fprintf(stderr, "hookcast-draft: --day: '%s' is not a date "
		    "(YYYY-MM-DD)\n", o->dayarg);
		return -1;
	}
	if (o->zone != NULL && !schedule_zone_exists(o->zone)) {
		fprintf(stderr, "hookcast-draft: --timezone: unknown time "
		    "zone '%s'\n", o->zone);
		return -1;
	}
	return 0;
}

/*
 * The daemon's own configuration, its errors worded as its are, with the
 * flags that override it, and the day asked for in *day. 0, or -1 with
 * every error said on stderr and nothing left to free.
 */
static int
draft_config(struct config *conf, char *argv0, const struct draft_opts *o,
    struct tm *day)
{
	struct config_causes	 causes = { NULL, 0 };
	const char		*why;
	char			*cargv[8];
	int			 cargc = 0, rc;
	size_t			 i;

	cargv[cargc++] = argv0;
	if (o->file != NULL) {
		cargv[cargc++] = "--config";
		cargv[cargc++] = (char *)o->file;
	}
	if (o->zone != NULL) {
		cargv[cargc++] = "--timezone";
		cargv[cargc++] = (char *)o->zone;
	}
	if (o->outdir != NULL) {
		cargv[cargc++] = "--output-dir";
		cargv[cargc++] = (char *)o->outdir;
	}
	cargv[cargc] = NULL;
	rc = config_load_flags(conf, cargc, cargv, NULL, CONFIG_NO_SECRETS,
	    &causes);
	if (rc == 0 && schedule_set_timezone(conf->timezone) == -1) {
		config_causes_add(&causes, "timezone: unknown time zone '%s'",
		    conf->timezone);
		rc = -1;
	}
	if (rc == 0 && o->dayarg != NULL &&
	    draft_parse_day(o->dayarg, day) == -1) {
		config_causes_add(&causes, "--day: '%s' is not a date "
		    "(YYYY-MM-DD)", o->dayarg);
		rc = -1;
	}
	if (rc == 0 && o->audio) {
		struct audio_conf	ac;

		conf->audio = AUDIO_MODE_ON;
		pubconf_audio(conf, &ac);
		if (!audio_enabled(&ac, &why)) {
			config_causes_add(&causes, "--audio: %s", why);
			rc = -1;
		}
	}
	if (rc == -1) {
		for (i = 0; i < causes.n; i++)
			fprintf(stderr, "hookcast-draft: %s\n", causes.v[i]);
		config_causes_clear(&causes);
		config_clear(conf);
		return -1;
	}
	return 0;
}

/*
 * Read every folder from argv[optind] on into store, every delivery found
 * good before anything is drafted. 0, or -1 when any was refused (each
 * said on stderr).
 */
static int
draft_read_folders(const struct config *conf, struct store *store,
    int argc, char **argv)
{
	struct draft_input	 in;

	memset(&in, 0, sizeof(in));
	for (; optind < argc; optind++)
		draft_folder(conf, store, argv[optind], &in);
	if (in.bad > 0) {
		fprintf(stderr, "hookcast-draft: %zu of the deliveries or "
		    "folders refused; nothing drafted\n", in.bad);
		return -1;
	}
	if (in.not_kept > 0 || in.again > 0)
		fprintf(stderr, "hookcast-draft: %zu of %zu deliveries not "
		    "kept (events or branches hookcast doesn't tell), %zu "
		    "redelivered\n", in.not_kept, in.deliveries, in.again);
	return 0;
}

/*
 * Draft each repository of store: into --output-dir, or to stdout (drafted
 * as a preview in a scratch folder, beside no earlier episodes), counting
 * the episodes drafted and failed. 0, or -1 when --output-dir can't be
 * made (said on stderr).
 */
static int
draft_repos(struct config *conf, struct store *store,
    const struct draft_opts *o, const struct tm *day, size_t *drafted,
    size_t *failed)
{
	const struct show_conf	*sc = NULL;
	char			*tmpdir = NULL;
	size_t			 i;
	int			 rc;

	if (o->outdir != NULL && file_mkdirs(conf->output_dir, 0755) == -1) {
		fprintf(stderr, "hookcast-draft: %s: %s\n", conf->output_dir,
		    strerror(errno));
		return -1;
	}
	if (o->outdir == NULL) {
		xasprintf(&tmpdir, "%s/hookcast-draft.XXXXXX",
		    getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
		if (mkdtemp(tmpdir) == NULL)
			fatal("mkdtemp %s", tmpdir);
		free(conf->output_dir);
		conf->output_dir = xstrdup(tmpdir);
	}
	/* --show NAME of a [show] section: that show, of every folder */
	if (o->show != NULL &&
	    (sc = config_show_find(conf, o->show)) != NULL) {
		rc = draft_show(conf, sc, store, day, o->outdir != NULL,
		    o->audio);
		if (rc == 1)
			(*drafted)++;
		else if (rc == -1)
			(*failed)++;
	}
	for (i = 0; sc == NULL && i < store_nrepos(store); i++) {
		struct store_repo *r = store_repo_at(store, i);

		if (o->show != NULL)
			config_set_show(conf, r->name, o->show);
		rc = draft_repo(conf, r, day, o->outdir != NULL, o->audio,
		    o->brief);
		if (rc == 1)
			(*drafted)++;
		else if (rc == -1)
			(*failed)++;
	}
	if (tmpdir != NULL) {
		rmdir(tmpdir);
		free(tmpdir);
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct draft_opts	 o;
	struct config		 conf;
	struct store		*store;
	struct tm		 day;
	size_t			 drafted = 0, failed = 0;
	int			 status, rc;

	if (draft_flags(argc, argv, &o, &status) == -1)
		return status;
	if (draft_config(&conf, argv[0], &o, &day) == -1)
		return 1;
	log_set_level(LOG_LEVEL_WARNING);

	store = store_new();
	if ((rc = draft_read_folders(&conf, store, argc, argv)) == 0)
		rc = draft_repos(&conf, store, &o, o.dayarg != NULL ? &day :
		    NULL, &drafted, &failed);
	store_free(store);
	config_clear(&conf);
	if (rc == -1)
		return 1;
	if (fflush(stdout) == EOF || ferror(stdout)) {
		fprintf(stderr, "hookcast-draft: stdout: %s\n",
		    strerror(errno));
		return 1;
	}
	if (failed == 0 && drafted == 0)
		fprintf(stderr, "hookcast-draft: no episode drafted\n");
	return failed > 0 || drafted == 0 ? 1 : 0;
}
