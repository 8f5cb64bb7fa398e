/*
 * bench_draft: pair, draft and render generated days of a few sizes and
 * print, per size, the wall time of each step and the peak RSS.
 * Usage: bench_draft [-k mixed|reverts|authors] [-r RUNS] [-t THREADS]
 *     [N ...]
 *        bench_draft -k show [-R REPOS] [-r RUNS] [-t THREADS] [N ...]
 *        bench_draft -k worst [-t THREADS] [DIMENSION ...]
 *   (default kind mixed, 5 runs, threads as the daemon runs them: one
 *   per CPU, at most four; sizes 1000 10000 100000)
 * The draft is timed RUNS times over the same day, and the best and the
 * median are printed: a shared machine's load makes one run say little.
 * Each run also drafts the day with one thread (unless -t 1 asks for
 * that alone), so the two figures are taken under the same load.
 * mixed is an ordinary busy day (gen_day); reverts a day of nearly all
 * reverts and re-lands, and authors a day where each commit has an author
 * of its own (gen_flood.h: issue #9, finding 4). Each size runs in a child
 * process so peak RSS is that size's alone.
 *
 * worst drafts the worst-case day of each dimension (gen_worst.h, issue
 * #25), or of those named, at 1x, 10x and 100x its base size, once each,
 * in a child of its own as the daemon's drafting job is: a table of the
 * dimension, the size, the wall time of episode_draft and of the job's
 * whole work (pairing the reverts, drafting, both renderings and the
 * people list), each with its growth over the size below it (about 10
 * when linear in the dimension, 100 when quadratic), the child's peak RSS
 * (ru_maxrss from wait4) and the day's own before drafting, and a hash of
 * the episode's JSON (a change that should not change it keeps it).
 *
 * show (issue #30) compares a show of many repositories with one
 * repository of as many commits: N commits shared out among R
 * repositories (N / 40 and at least 2 unless -R says; default sizes 2000
 * and 20000), and one day of N commits. Both are drafted as the daemon
 * does (emit_show; emit_draft): every day's reverts paired, every day
 * drafted, the show drafted of them, both renderings. Their runs
 * alternate, so both figures are taken under the same load; per size, the
 * best and the median of each, per commit and their ratio, show_draft's
 * own share, the child's peak RSS (both days are in it) and the show
 * episode's length.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "day.h"
#include "episode.h"

#include "../unit/gen_day.h"
#include "../unit/gen_flood.h"
#include "../unit/gen_worst.h"

#include "parallel.h"
#include "show.h"

#define BENCH_MAXRUNS	50
/* A show's repositories when -R doesn't say: one per this many commits. */
#define BENCH_SHOW_PER_REPO	40
/* One repository in this many has a quiet day: a few dependency bumps. */
#define BENCH_SHOW_QUIET_EVERY	20

enum bench_kind {
	BENCH_MIXED,
	BENCH_REVERTS,
	BENCH_AUTHORS,
	BENCH_SHOW,
};

static const struct {
	const char	*name;
	enum bench_kind	 kind;
} bench_kinds[] = {
	{ .name = "mixed", .kind = BENCH_MIXED },
	{ .name = "reverts", .kind = BENCH_REVERTS },
	{ .name = "authors", .kind = BENCH_AUTHORS },
	{ .name = "show", .kind = BENCH_SHOW },
};

static double
bench_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static long
bench_maxrss_kb(void)
{
	struct rusage	ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

/* Order run times, shortest first. */
static int
bench_cmp_time(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int
bench_one(enum bench_kind kind, size_t n, size_t runs, int threads)
{
	struct episode_opts	 o;
	struct episode		*ep;
	struct recap_person	*people;
	struct day		*d;
	double			 t0, t1, t2, t3, t4, t5, t, times[BENCH_MAXRUNS];
	double			 ones[BENCH_MAXRUNS];
	size_t			 r;
	long			 rss0;
	size_t			 npeople;
	char			*md, *js;

	switch (kind) {
	case BENCH_REVERTS:
		d = gen_day_reverts(n, n);
		break;
	case BENCH_AUTHORS:
		d = gen_day_authors(n, n);
		break;
	default:
		d = gen_day(n, n);
		break;
	}
	rss0 = bench_maxrss_kb();
	memset(&o, 0, sizeof o);
	o.show = "Bench Daily";
	o.published = d->end;
	t0 = bench_now();
	day_pair_reverts(d);
	t1 = bench_now();
	/* the draft only reads the day: the same day, runs times */
	for (r = 0; r < runs; r++) {
		/* (with -t 1 the draft is the one-thread one) */
		if (threads != 1) {
			o.threads = 1;
			t = bench_now();
			ep = episode_draft(d, &o);
			ones[r] = bench_now() - t;
			episode_free(ep);
		}
		o.threads = threads;
		t = bench_now();
		ep = episode_draft(d, &o);
		times[r] = bench_now() - t;
		if (r + 1 < runs)
			episode_free(ep);
	}
	qsort(times, runs, sizeof *times, bench_cmp_time);
	if (threads == 1)
		memcpy(ones, times, runs * sizeof *times);
	qsort(ones, runs, sizeof *ones, bench_cmp_time);
	t2 = bench_now();
	md = episode_render_md(ep);
	t3 = bench_now();
	js = episode_render_json(ep);
	t4 = bench_now();
	npeople = recap_people(d, &people);
	t5 = bench_now();
	printf("%8zu commits  pair %8.1f ms  draft %8.1f ms (median %.1f "
	    "of %zu; one thread %.1f, median %.1f)  render md %6.2f ms  "
	    "json %6.2f ms  people %8.1f ms (%zu)  peak RSS %7ld KB (day "
	    "alone %7ld KB)  %zu words\n", n,
	    (t1 - t0) * 1e3, times[0] * 1e3, times[runs / 2] * 1e3, runs,
	    ones[0] * 1e3, ones[runs / 2] * 1e3,
	    (t3 - t2) * 1e3, (t4 - t3) * 1e3, (t5 - t4) * 1e3, npeople,
	    bench_maxrss_kb(), rss0, ep->words);
	fflush(stdout);
	recap_people_free(people, npeople);
	free(md);
	free(js);
	episode_free(ep);
	day_free(d);
	return 0;
}

/* What a show's or a repository's drafting job told, for the table. */
struct bench_job {
	double		 show_draft;	/* seconds in show_draft alone */
	long		 duration;
	size_t		 words;
	size_t		 quiet;		/* repositories told in a sentence */
	size_t		 told;		/* story segments told */
	size_t		 untold;	/* left out for time */
};

/*
 * A quiet day of repo: k dependency bumps by a bot, as a repository
 * nobody worked in has (a story of upkeep only).
 */
static struct day *
bench_quiet_day(const char *repo, time_t start, size_t k, uint64_t seed)
{
	struct gen	 g;
	struct commit	 c;
	struct day	*d;
	size_t		 i;
	char		*msg, *file = "requirements.txt";

	memset(&g, 0, sizeof g);
	g.s = seed;
	d = day_new(repo, start);
	d->end = d->start + 86400;
	for (i = 0; i < k; i++) {
		memset(&c, 0, sizeof c);
		xasprintf(&msg, "Bump lib%s from 1.%u.%zu to 1.%u.%zu\n\n"
		    "Bumps the version.\n", GEN_PICK(&g, gen_areas),
		    (unsigned)gen_below(&g, 20), i, (unsigned)gen_below(&g,
		    20), i + 1);
		commit_set_message(&c, msg);
		free(msg);
		c.sha = gen_sha(&g);
		c.author_name = xstrdup("dependabot[bot]");
		c.author_login = xstrdup("dependabot[bot]");
		c.author_email = xstrdup("bot@example.com");
		c.committer_name = xstrdup("dependabot[bot]");
		c.timestamp = d->start + 3600 * (time_t)(i + 1);
		c.branch = xstrdup("main");
		c.modified = record_list_dup(&file, 1);
		c.nmodified = 1;
		revert_parse(c.subject, c.body, &c.revert);
		if (day_add_commit(d, &c) != 1)
			commit_clear(&c);
	}
	return d;
}

/*
 * An organisation's day of n commits in nrepos repositories (nrepos <= n):
 * one in BENCH_SHOW_QUIET_EVERY has a quiet day of one to three bumps
 * (when there are commits enough); the others share the rest as
 * organisations do, a few busy repositories and a long tail (the k-th
 * busiest has a share of 1/k, and at least one commit), each an ordinary
 * busy day of gen_day with a seed of its own (seeds equal modulo 400, so
 * every day is the same date).
 */
static struct day **
bench_show_days(size_t n, size_t nrepos)
{
	struct day	**days;
	size_t		 *count, i, nbusy = nrepos, rest, b = 1, sum = 0;
	unsigned char	 *quiet;
	double		  h = 0;
	char		 *repo;

	days = xcalloc(nrepos, sizeof *days);
	count = xcalloc(nrepos, sizeof *count);
	quiet = xcalloc(nrepos, 1);
	for (i = 0; i < nrepos && n >= 4 * nrepos; i++)
		if (i % BENCH_SHOW_QUIET_EVERY == BENCH_SHOW_QUIET_EVERY - 1) {
			quiet[i] = 1;
			count[i] = 1 + i % 3;
			n -= count[i];
			nbusy--;
		}
	for (i = 1; i <= nbusy; i++)
		h += 1.0 / (double)i;
	rest = n - nbusy;
	for (i = 0; i < nrepos; i++)
		if (!quiet[i]) {
			count[i] = 1 + (size_t)((double)rest / h / (double)b++);
			sum += count[i];
		}
	/* what the rounding left goes to the busiest (the first) */
	count[0] += n - sum;
	for (i = 0; i < nrepos; i++) {
		xasprintf(&repo, "org/project-%03zu", i);
		if (quiet[i])
			days[i] = bench_quiet_day(repo, (time_t)1775260800 +
			    86400, count[i], 1 + 400 * (i + 1));
		else {
			days[i] = gen_day(1 + 400 * (i + 1), count[i]);
			free(days[i]->repo);
			days[i]->repo = xstrdup(repo);
		}
		free(repo);
	}
	free(quiet);
	free(count);
	return days;
}

/* A show's days and their episodes, for bench_member. */
struct bench_members {
	struct day			**days;
	struct episode			**eps;
	const struct episode_opts	 *opts;
};

/* Day i's reverts paired and the day drafted, in a thread of its own. */
static void
bench_member(void *arg, size_t i)
{
	struct bench_members	*m = arg;

	day_pair_reverts(m->days[i]);
	m->eps[i] = episode_draft(m->days[i], m->opts);
}

/*
 * The show's drafting job as emit_show does it: each day's reverts
 * paired and the day drafted as its own episode, the show drafted of
 * them, both renderings; then all freed. Not inlined, so that callgrind
 * can count it alone (--toggle-collect=bench_show_job).
 */
static __attribute__((noinline)) int
bench_show_job(struct day **days, size_t n, const struct episode_opts *o,
    struct bench_job *out)
{
	struct bench_members	 m;
	struct show_part	*parts;
	struct episode		**eps, *ep;
	double			 t;
	size_t			 i;
	char			*md, *js;
	int			 rc = 0;

	parts = xcalloc(n + 1, sizeof *parts);
	eps = xcalloc(n + 1, sizeof *eps);
	m.days = days;
	m.eps = eps;
	m.opts = o;
	/* the days among threads as emit_show shares them (-t 1: none) */
	parallel_for(n, o->threads, bench_member, &m);
	for (i = 0; i < n; i++) {
		if (eps[i] == NULL)
			rc = 1;
		parts[i].day = days[i];
		parts[i].ep = eps[i];
	}
	if (rc != 0)
		goto out;
	t = bench_now();
	ep = show_draft("Bench Show", "bench-show", parts, n, o);
	out->show_draft = bench_now() - t;
	md = episode_render_md(ep);
	js = episode_render_json(ep);
	/* to read what the show told: BENCH_SHOW_PRINT=1 */
	if (getenv("BENCH_SHOW_PRINT") != NULL)
		printf("%s\n", md);
	out->duration = ep->duration;
	out->words = ep->words;
	out->quiet = out->told = out->untold = 0;
	for (i = 0; i < ep->nmembers; i++) {
		out->quiet += ep->members[i].quiet != 0;
		out->told += ep->members[i].stories;
		out->untold += ep->members[i].untold;
	}
	free(md);
	free(js);
	episode_free(ep);
out:
	for (i = 0; i < n; i++)
		episode_free(eps[i]);
	free(eps);
	free(parts);
	return rc;
}

/* A repository's drafting job alike: pair, draft, both renderings. */
static __attribute__((noinline)) int
bench_single_job(struct day *d, const struct episode_opts *o,
    struct bench_job *out)
{
	struct episode	*ep;
	char		*md, *js;

	day_pair_reverts(d);
	if ((ep = episode_draft(d, o)) == NULL)
		return 1;
	md = episode_render_md(ep);
	js = episode_render_json(ep);
	/* to read what the show told: BENCH_SHOW_PRINT=1 */
	if (getenv("BENCH_SHOW_PRINT") != NULL)
		printf("%s\n", md);
	out->duration = ep->duration;
	out->words = ep->words;
	free(md);
	free(js);
	episode_free(ep);
	return 0;
}

static void
bench_show_header(void)
{
	printf("%8s %5s %5s %9s %9s %9s %9s %7s %7s %6s %6s %8s %10s "
	    "%6s %5s %6s %6s\n", "commits", "repos", "quiet", "show ms",
	    "(median)", "single ms", "(median)", "show", "single", "ratio",
	    "(med)", "show_dr", "peak RSS", "secs", "words", "told",
	    "untold");
	printf("%8s %5s %5s %9s %9s %9s %9s %7s %7s %6s %6s %8s %10s "
	    "%6s %5s %6s %6s\n", "", "", "", "", "", "", "", "us/c", "us/c",
	    "", "", "ms (med)", "KB", "", "", "", "");
}

/*
 * A show of nrepos repositories and n commits against one repository of
 * n commits, runs times each, alternating which goes first.
 */
static int
bench_show(size_t n, size_t nrepos, size_t runs, int threads)
{
	struct episode_opts	 o;
	struct bench_job	 sj, rj;
	struct day		**days, *one;
	double			 t, shows[BENCH_MAXRUNS], ones[BENCH_MAXRUNS];
	double			 drafts[BENCH_MAXRUNS];
	size_t			 r, i, k;
	int			 rc = 0;

	days = bench_show_days(n, nrepos);
	one = gen_day(1, n);
	memset(&o, 0, sizeof o);
	o.show = "Bench Daily";
	o.published = one->end;
	o.threads = threads;
	memset(&sj, 0, sizeof sj);
	memset(&rj, 0, sizeof rj);
	for (r = 0; r < runs && rc == 0; r++)
		for (k = 0; k < 2; k++) {
			t = bench_now();
			if ((k + r) % 2 == 0) {
				rc |= bench_show_job(days, nrepos, &o, &sj);
				shows[r] = bench_now() - t;
				drafts[r] = sj.show_draft;
			} else {
				rc |= bench_single_job(one, &o, &rj);
				ones[r] = bench_now() - t;
			}
		}
	if (rc != 0) {
		fprintf(stderr, "bench_draft: a draft failed\n");
		goto out;
	}
	qsort(shows, runs, sizeof *shows, bench_cmp_time);
	qsort(ones, runs, sizeof *ones, bench_cmp_time);
	qsort(drafts, runs, sizeof *drafts, bench_cmp_time);
	printf("%8zu %5zu %5zu %9.1f %9.1f %9.1f %9.1f %7.2f %7.2f %6.2f "
	    "%6.2f %8.2f %10ld %6ld %5zu %6zu %6zu\n", n, nrepos, sj.quiet,
	    shows[0] * 1e3, shows[runs / 2] * 1e3, ones[0] * 1e3,
	    ones[runs / 2] * 1e3, shows[0] * 1e6 / (double)n,
	    ones[0] * 1e6 / (double)n, shows[0] / ones[0],
	    shows[runs / 2] / ones[runs / 2], drafts[runs / 2] * 1e3,
	    bench_maxrss_kb(), sj.duration, sj.words, sj.told, sj.untold);
	fflush(stdout);
out:
	for (i = 0; i < nrepos; i++)
		day_free(days[i]);
	free(days);
	day_free(one);
	return rc;
}

/* Draft the worst day of dim at size n once; report the time through fd. */
static int
bench_worst_one(enum gen_dim dim, size_t n, int threads, int fd)
{
	struct episode_opts	 o;
	struct episode		*ep;
	struct recap_person	*people;
	struct day		*d;
	double			 t, t0, r[4];
	const char		*p;
	char			*js, *md;
	uint32_t		 h = 2166136261u;
	size_t			 npeople;

	d = gen_worst_day(dim, n);
	memset(&o, 0, sizeof o);
	o.show = "Bench Daily";
	o.published = d->end;
	o.threads = threads;
	r[1] = (double)bench_maxrss_kb();
	/* the drafting job's work: pair, draft, render, count the people */
	t0 = bench_now();
	day_pair_reverts(d);
	t = bench_now();
	ep = episode_draft(d, &o);
	r[0] = bench_now() - t;
	md = ep != NULL ? episode_render_md(ep) : NULL;
	js = ep != NULL ? episode_render_json(ep) : NULL;
	npeople = recap_people(d, &people);
	r[3] = bench_now() - t0;
	/* what was drafted, to check that a change to drafting kept it */
	for (p = js != NULL ? js : ""; *p != '\0'; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	r[2] = (double)h;
	recap_people_free(people, npeople);
	free(md);
	free(js);
	if (ep == NULL || write(fd, r, sizeof r) != (ssize_t)sizeof r)
		return 1;
	episode_free(ep);
	day_free(d);
	return 0;
}

/*
 * The worst-case table: each dimension named (all when none) at 1x, 10x
 * and 100x, or at the scales given as numbers among the names.
 */
static int
bench_worst(char **args, size_t nargs, int threads)
{
	struct rusage	 ru;
	char		*names[64];
	size_t		 scales[16] = { 1, 10, 100 }, nscales = 0;
	size_t		 i, j, k, n, nnames = 0;
	double		 r[4], last, lastjob;
	pid_t		 pid;
	int		 fds[2], status, rc = 0;

	for (i = 0; i < nargs; i++) {
		if (strspn(args[i], "0123456789") == strlen(args[i])) {
			if (nscales < 16)
				scales[nscales++] = strtoul(args[i], NULL, 10);
		} else if (nnames < 64)
			names[nnames++] = args[i];
	}
	if (nscales == 0)
		nscales = 3;
	printf("%-8s %6s %8s %10s %7s %10s %7s %11s %10s  %s\n", "dim",
	    "scale", "size", "draft ms", "growth", "job ms", "growth",
	    "peak RSS KB", "day RSS KB", "JSON hash");
	for (i = 0; i < GEN_NDIMS; i++) {
		for (k = 0; k < nnames; k++)
			if (strcmp(names[k], gen_dims[i].name) == 0)
				break;
		if (nnames > 0 && k == nnames)
			continue;
		last = lastjob = 0;
		for (j = 0; j < nscales; j++) {
			n = gen_dims[i].base * scales[j];
			fflush(stdout);
			if (pipe(fds) == -1 || (pid = fork()) == -1)
				return 1;
			if (pid == 0) {
				close(fds[0]);
				_exit(bench_worst_one(gen_dims[i].dim, n,
				    threads, fds[1]));
			}
			close(fds[1]);
			if (read(fds[0], r, sizeof r) != (ssize_t)sizeof r)
				r[0] = r[1] = r[2] = r[3] = -1;
			close(fds[0]);
			if (wait4(pid, &status, 0, &ru) == -1 ||
			    !WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
			    r[0] < 0) {
				printf("%-8s %5zux %8zu failed\n",
				    gen_dims[i].name, scales[j], n);
				rc = 1;
				break;
			}
			printf("%-8s %5zux %8zu %10.1f ", gen_dims[i].name,
			    scales[j], n, r[0] * 1e3);
			if (last > 0)
				printf("%6.1fx", r[0] / last);
			else
				printf("%7s", "");
			printf(" %10.1f ", r[3] * 1e3);
			if (lastjob > 0)
				printf("%6.1fx", r[3] / lastjob);
			else
				printf("%7s", "");
			printf(" %11ld %10.0f  %08x\n", ru.ru_maxrss, r[1],
			    (unsigned)r[2]);
			last = r[0];
			lastjob = r[3];
		}
	}
	return rc;
}

int
main(int argc, char *argv[])
{
	static const size_t defaults[] = { 1000, 10000, 100000 };
	static const size_t show_defaults[] = { 2000, 20000 };
	enum bench_kind	 kind = BENCH_MIXED;
	size_t		 sizes[64], nsizes = 0, i, runs = 5, nrepos = 0, nr;
	pid_t		 pid;
	int		 status, rc = 0, ch, threads = 0, worst = 0;

	while ((ch = getopt(argc, argv, "k:r:R:t:")) != -1) {
		if (ch == 't') {
			threads = atoi(optarg);
			if (threads < 1 || threads > 64)
				goto usage;
			continue;
		}
		if (ch == 'r') {
			runs = (size_t)strtoul(optarg, NULL, 10);
			if (runs < 1 || runs > BENCH_MAXRUNS)
				goto usage;
			continue;
		}
		if (ch == 'R') {
			nrepos = (size_t)strtoul(optarg, NULL, 10);
			if (nrepos < 1 || nrepos > 100000)
				goto usage;
			continue;
		}
		if (ch != 'k')
			goto usage;
		if (strcmp(optarg, "worst") == 0) {
			worst = 1;
			continue;
		}
		for (i = 0; i < sizeof bench_kinds / sizeof bench_kinds[0]; i++)
			if (strcmp(optarg, bench_kinds[i].name) == 0)
				break;
		if (i == sizeof bench_kinds / sizeof bench_kinds[0])
			goto usage;
		kind = bench_kinds[i].kind;
	}
	if (worst)
		return bench_worst(argv + optind, (size_t)(argc - optind),
		    threads);
	for (i = (size_t)optind; i < (size_t)argc && nsizes < 64; i++)
		sizes[nsizes++] = (size_t)strtoul(argv[i], NULL, 10);
	if (nsizes == 0 && kind == BENCH_SHOW) {
		memcpy(sizes, show_defaults, sizeof show_defaults);
		nsizes = sizeof show_defaults / sizeof show_defaults[0];
	} else if (nsizes == 0) {
		memcpy(sizes, defaults, sizeof defaults);
		nsizes = sizeof defaults / sizeof defaults[0];
	}
	if (kind == BENCH_SHOW)
		bench_show_header();
	for (i = 0; i < nsizes; i++) {
		/* a show's repositories: -R, else one per 40 commits (two) */
		nr = nrepos > 0 ? nrepos : sizes[i] / BENCH_SHOW_PER_REPO;
		if (nrepos == 0 && nr < 2)
			nr = 2;
		if (kind == BENCH_SHOW && nr > sizes[i]) {
			fprintf(stderr, "bench_draft: %zu commits can't "
			    "fill %zu repositories\n", sizes[i], nr);
			rc = 1;
			continue;
		}
		fflush(stdout);
		if ((pid = fork()) == -1)
			return 1;
		if (pid == 0)
			_exit(kind == BENCH_SHOW ? bench_show(sizes[i], nr,
			    runs, threads) : bench_one(kind, sizes[i], runs,
			    threads));
		if (waitpid(pid, &status, 0) == -1 || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != 0)
			rc = 1;
	}
	return rc;
usage:
	fprintf(stderr, "usage: bench_draft [-k mixed|reverts|authors] "
	    "[-r runs] [-t threads] [N ...]\n"
	    "       bench_draft -k show [-R repos] [-r runs] [-t threads] "
	    "[N ...]\n"
	    "       bench_draft -k worst [-t threads] [dimension ...]\n");
	return 2;
}
