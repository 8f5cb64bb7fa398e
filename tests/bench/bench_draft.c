/*
 * bench_draft: pair, draft and render generated days of a few sizes and
 * print, per size, the wall time of each step and the peak RSS.
 * Usage: bench_draft [-k mixed|reverts|authors] [-r RUNS] [-t THREADS]
 *     [N ...]
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

#define BENCH_MAXRUNS	50

enum bench_kind {
	BENCH_MIXED,
	BENCH_REVERTS,
	BENCH_AUTHORS,
};

static const struct {
	const char	*name;
	enum bench_kind	 kind;
} bench_kinds[] = {
	{ .name = "mixed", .kind = BENCH_MIXED },
	{ .name = "reverts", .kind = BENCH_REVERTS },
	{ .name = "authors", .kind = BENCH_AUTHORS },
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

int
main(int argc, char *argv[])
{
	static const size_t defaults[] = { 1000, 10000, 100000 };
	enum bench_kind	 kind = BENCH_MIXED;
	size_t		 sizes[64], nsizes = 0, i, runs = 5;
	pid_t		 pid;
	int		 status, rc = 0, ch, threads = 0;

	while ((ch = getopt(argc, argv, "k:r:t:")) != -1) {
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
		if (ch != 'k')
			goto usage;
		for (i = 0; i < sizeof bench_kinds / sizeof bench_kinds[0]; i++)
			if (strcmp(optarg, bench_kinds[i].name) == 0)
				break;
		if (i == sizeof bench_kinds / sizeof bench_kinds[0])
			goto usage;
		kind = bench_kinds[i].kind;
	}
	for (i = (size_t)optind; i < (size_t)argc && nsizes < 64; i++)
		sizes[nsizes++] = (size_t)strtoul(argv[i], NULL, 10);
	if (nsizes == 0) {
		memcpy(sizes, defaults, sizeof defaults);
		nsizes = sizeof defaults / sizeof defaults[0];
	}
	for (i = 0; i < nsizes; i++) {
		fflush(stdout);
		if ((pid = fork()) == -1)
			return 1;
		if (pid == 0)
			_exit(bench_one(kind, sizes[i], runs, threads));
		if (waitpid(pid, &status, 0) == -1 || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != 0)
			rc = 1;
	}
	return rc;
usage:
	fprintf(stderr, "usage: bench_draft [-k mixed|reverts|authors] "
	    "[-r runs] [-t threads] [N ...]\n");
	return 2;
}
