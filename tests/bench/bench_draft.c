/*
 * bench_draft: draft and render generated days of a few sizes and print,
 * per size, the wall time of drafting and of rendering and the peak RSS.
 * Usage: bench_draft [N ...]   (default 1000 10000 100000)
 * Each size runs in a child process so peak RSS is that size's alone.
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

static int
bench_one(size_t n)
{
	struct episode_opts	 o;
	struct episode		*ep;
	struct day		*d;
	double			 t0, t1, t2, t3;
	long			 rss0;
	char			*md, *js;

	d = gen_day(n, n);
	day_pair_reverts(d);
	rss0 = bench_maxrss_kb();
	memset(&o, 0, sizeof o);
	o.show = "Bench Daily";
	o.published = d->end;
	t0 = bench_now();
	ep = episode_draft(d, &o);
	t1 = bench_now();
	md = episode_render_md(ep);
	t2 = bench_now();
	js = episode_render_json(ep);
	t3 = bench_now();
	printf("%8zu commits  draft %8.1f ms  render md %6.2f ms  json %6.2f ms"
	    "  peak RSS %7ld KB (day alone %7ld KB)  %zu words\n", n,
	    (t1 - t0) * 1e3, (t2 - t1) * 1e3, (t3 - t2) * 1e3,
	    bench_maxrss_kb(), rss0, ep->words);
	fflush(stdout);
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
	size_t	 sizes[64], nsizes = 0, i;
	pid_t	 pid;
	int	 status, rc = 0;

	for (i = 1; i < (size_t)argc && nsizes < 64; i++)
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
			_exit(bench_one(sizes[i]));
		if (waitpid(pid, &status, 0) == -1 || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != 0)
			rc = 1;
	}
	return rc;
}
