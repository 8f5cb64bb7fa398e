/*
 * Golden episodes: each corpus day is loaded through the real handlers into
 * a day, drafted with fixed options and rendered as Markdown; the result
 * must equal tests/golden/<day>.md byte for byte, so any change in what an
 * episode says shows up as a diff. HOOKCAST_UPDATE_GOLDEN=1 rewrites the
 * files instead. The invariants of episode_check.h are checked too.
 */
#include <ctype.h>
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>
#include <jansson.h>

#include "day.h"
#include "episode.h"
#include "fence.h"
#include "handler.h"
#include "xmalloc.h"

#include "corpus_day.h"
#include "episode_check.h"

#ifndef TEST_DATA_DIR
#define TEST_DATA_DIR "tests/data"
#endif
#define GOLDEN_DIR TEST_DATA_DIR "/../golden"

static const char *golden_days[] = {
	"ao-2026-02-12",
	"ao-2026-03-24",
	"ao-2026-05-14-series",
	"curl-2026-02-14-quiet",
	"curl-2026-06-01",
	"express-2024-09-09-releases",
	"flask-2024-11-13-release",
	"fzf-2026-04-19-replayed",
	"htop-2020-09-24",
	"jq-2023-07-23-replayed",
	"libuv-2024-07-29-replayed",
	"mypy-2026-04-16-replayed",
	"nginx-2024-05-28-release",
	"pip-2025-10-21-removals",
	"redis-2024-05-15-revert",
	"requests-2026-01-30",
	"ripgrep-2023-11-26",
	"tmux-2026-06-26-merges",
	"tokio-2025-10-14-releases",
	"tokio-2026-08-09",
	"torchtitan-2024-08-01-replayed",
	"vite-2026-06-30-busy",
};

/* A whole file (new string), or NULL. */
static char *
golden_read(const char *path)
{
	FILE	*f;
	char	*s;
	long	 n;

	if ((f = fopen(path, "rb")) == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	s = xmalloc((size_t)n + 1);
	if (fread(s, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		free(s);
		return NULL;
	}
	s[n] = '\0';
	fclose(f);
	return s;
}

/*
 * The draft is made of the day's facts, so it passes the fence a model's
 * rewrite of it must pass; a check that refused it would refuse faithful
 * retellings too.
 */
static void
golden_fence(const char *name, const struct day *day, const struct episode *ep)
{
	struct fence	*fc = fence_of_episode(day, ep);
	const char	*why;
	char		*detail = NULL;

	if ((why = fence_check(fc, ep->transcript, &detail)) != NULL &&
	    getenv("HOOKCAST_FENCE_ALL") != NULL)
		print_error("%s: the draft is outside its own fence: %s (%s)\n",
		    name, why, detail != NULL ? detail : "");
	else if (why != NULL)
		fail_msg("%s: the draft is outside its own fence: %s (%s)",
		    name, why, detail != NULL ? detail : "");
	fence_free(fc);
}

static void
golden_one(const char *name)
{
	static const struct episode_nearby nearby[] = {
		{ "2026-01-01", "An Earlier Episode" },
	};
	struct episode_opts	 o;
	struct episode		*ep;
	struct day		*day;
	const char		*update = getenv("HOOKCAST_UPDATE_GOLDEN");
	char			*md, *js, *path, *want;
	FILE			*f;

	day = corpus_day(name);
	memset(&o, 0, sizeof o);
	corpus_date(name, &o.year, &o.month, &o.mday);
	/* a show named in the config, and the default (the repository's) */
	o.show = strncmp(name, "curl", 4) == 0 ? "The curl Daily" : NULL;
	o.published = (time_t)1767261644;	/* 2026-01-01T10:00:44Z */
	o.nearby = nearby;
	o.nnearby = 1;
	ep = episode_draft(day, &o);
	md = episode_render_md(ep);
	js = episode_render_json(ep);
	check_episode(day, ep, js);
	golden_fence(name, day, ep);

	xasprintf(&path, "%s/%s.md", GOLDEN_DIR, name);
	if (update != NULL && strcmp(update, "1") == 0) {
		if ((f = fopen(path, "wb")) == NULL)
			fail_msg("cannot write %s", path);
		fputs(md, f);
		fclose(f);
	} else {
		if ((want = golden_read(path)) == NULL)
			fail_msg("no golden file %s (run with "
			    "HOOKCAST_UPDATE_GOLDEN=1)", path);
		if (strcmp(want, md) != 0) {
			fprintf(stderr, "--- %s\n+++ drafted\n%s\n", path, md);
			fail_msg("%s differs from its golden file", name);
		}
		free(want);
	}
	free(path);
	free(md);
	free(js);
	episode_free(ep);
	day_free(day);
}

static void
test_golden(void **state)
{
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof golden_days / sizeof golden_days[0]; i++)
		golden_one(golden_days[i]);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
