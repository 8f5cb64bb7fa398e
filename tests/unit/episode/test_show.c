/*
 * A show of several repositories (show.c, issue #30): real corpus days
 * and days made of commit messages, each drafted as its own episode and
 * then told as one show.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "corpus_day.h"
#include "day_msg.h"
#include "parallel.h"
#include "show.h"
#include "text.h"

#define NPARTS_MAX	64

struct parts {
	struct day		*day[NPARTS_MAX];
	struct episode		*ep[NPARTS_MAX];
	struct show_part	 v[NPARTS_MAX];
	size_t			 n;
	struct episode_opts	 o;
};

static void
parts_opts(struct parts *p)
{
	memset(&p->o, 0, sizeof p->o);
	p->o.year = 2026;
	p->o.month = 6;
	p->o.mday = 30;
	p->o.threads = 1;
}

static void
parts_add(struct parts *p, struct day *d)
{
	assert_true(p->n < NPARTS_MAX);
	day_pair_reverts(d);
	p->day[p->n] = d;
	p->ep[p->n] = episode_draft(d, &p->o);
	p->v[p->n].day = d;
	p->v[p->n].ep = p->ep[p->n];
	p->n++;
}

static void
parts_free(struct parts *p)
{
	size_t	i;

	for (i = 0; i < p->n; i++) {
		episode_free(p->ep[i]);
		day_free(p->day[i]);
	}
	p->n = 0;
}

static void
show_print(const struct episode *ep)
{
	if (getenv("TEST_SHOW_PRINT") != NULL)
		printf("# %s\n\n%s\n\n", ep->title, ep->transcript);
}

/* Whether an episode has no story above upkeep. */
static int
quiet_ep(const struct episode *ep)
{
	size_t	i;

	for (i = 0; i < ep->nsegments; i++)
		if (ep->segments[i].rank > 0 &&
		    ep->segments[i].rank < EPISODE_RANK_CHORE)
			return 0;
	return 1;
}

/*
 * The part whose episode has a story segment the show's text tells: its
 * first paragraph (a segment may be told in part), or that without its
 * first sentence (a revert's lead-in). -1 when none.
 */
#define EARLIER	"An earlier change, which "
/* A revert told right after the story it undoes, in a show. */
#define AFTER(t)	(strstr((t), "that change was rolled back") != NULL || \
			    strstr((t), "that same day, the change") != NULL)

static long
part_of(const struct parts *p, const char *text)
{
	const char	*seg, *rest;
	char		*first;
	size_t		 i, j;
	int		 hit;

	for (i = 0; i < p->n; i++)
		for (j = 0; j < p->ep[i]->nsegments; j++) {
			if (p->ep[i]->segments[j].rank == 0)
				continue;
			seg = p->ep[i]->segments[j].text;
			first = xstrndup(seg, strstr(seg, "\n\n") != NULL ?
			    (size_t)(strstr(seg, "\n\n") - seg) : strlen(seg));
			rest = strstr(first, ". ");
			hit = strstr(text, first) != NULL || (rest != NULL &&
			    strstr(text, rest + 2) != NULL);
			/* a revert after its story says "the change, which" */
			if ((rest = strstr(first, EARLIER)) != NULL &&
			    strstr(text, rest + strlen(EARLIER)) != NULL)
				hit = 1;
			free(first);
			if (hit)
				return (long)i;
		}
	return -1;
}

/* The paragraphs of a text. */
static size_t
paras(const char *t)
{
	size_t	n = 1;

	while ((t = strstr(t, "\n\n")) != NULL) {
		n++;
		t += 2;
	}
	return n;
}

/*
 * What every show must hold: the counts summed, every repository
 * listed, the story segments each a repository's own segment verbatim
 * (said where it happened at most before it) in the order of the one
 * ranking, the quiet ones in a sentence and none of their segments.
 */
/*
 * No way over to a repository said twice in a row: "Now to curl. Now to
 * the one rollback of the day."
 */
static void
check_no_double_over(const char *t)
{
	static const char *const w[] = { "Now ", "Over ", "Next" };
	const char	*second = strstr(t, ". ");
	size_t		 k;

	if (second == NULL)
		return;
	second += 2;
	for (k = 0; k < sizeof w / sizeof w[0]; k++)
		if (strncmp(t, w[k], strlen(w[k])) == 0 &&
		    strncmp(second, w[k], strlen(w[k])) == 0)
			fail_msg("said twice in a row: %.80s", t);
}

static void
check_show(const struct parts *p, const struct episode *ep)
{
	struct day_stats	 sum;
	const char		*t;
	size_t			 i, j, told = 0, quiet = 0;
	int			 last_rank = 0;
	long			 k;

	memset(&sum, 0, sizeof sum);
	for (i = 0; i < p->n; i++) {
		sum.commits += p->ep[i]->stats.commits;
		sum.merged_prs += p->ep[i]->stats.merged_prs;
		sum.reverts += p->ep[i]->stats.reverts;
	}
	assert_int_equal(ep->stats.commits, sum.commits);
	assert_int_equal(ep->stats.merged_prs, sum.merged_prs);
	assert_int_equal(ep->stats.reverts, sum.reverts);
	assert_int_equal(ep->nmembers, p->n);
	assert_string_equal(ep->segments[0].kind, "opening");
	assert_string_equal(ep->segments[ep->nsegments - 1].kind, "closing");
	for (i = 0; i < ep->nmembers; i++) {
		for (j = 0; j < p->n; j++)
			if (strcmp(ep->members[i].repository,
			    p->day[j]->repo) == 0)
				break;
		assert_true(j < p->n);
		assert_int_equal(ep->members[i].stats.commits,
		    p->ep[j]->stats.commits);
		assert_int_equal(ep->members[i].quiet, quiet_ep(p->ep[j]));
		quiet += ep->members[i].quiet;
		told += ep->members[i].stories;
	}
	for (i = 1; i + 1 < ep->nsegments; i++) {
		t = ep->segments[i].text;
		check_no_double_over(t);
		if (strcmp(ep->segments[i].kind, "quiet") == 0) {
			assert_true(quiet > 0);
			continue;
		}
		if (ep->segments[i].rank == 0)
			continue;
		k = part_of(p, t);
		assert_true(k >= 0);
		assert_false(quiet_ep(p->ep[k]));
		/*
		 * (a revert told after the story it undoes comes out of
		 * turn, as that story may)
		 */
		if (!AFTER(t) && (i + 2 >= ep->nsegments ||
		    !AFTER(ep->segments[i + 1].text))) {
			assert_true(ep->segments[i].rank >= last_rank);
			last_rank = ep->segments[i].rank;
		}
		assert_true(told >= paras(t));
		told -= paras(t);
	}
	assert_int_equal(told, 0);
	/* within SHOW_MINUTES at the pace, and the opening's counts */
	assert_true(ep->duration <= SHOW_MINUTES * 60 + 30);
	assert_non_null(strstr(ep->segments[0].text, "In all, "));
}

/* The JSON's repositories and the Markdown's list give the counts. */
static void
check_rendered(const struct episode *ep)
{
	json_t		*j, *v, *m;
	json_error_t	 err;
	char		*s, *md, *line;
	size_t		 i, commits = 0;

	s = episode_render_json(ep);
	assert_non_null(j = json_loads(s, 0, &err));
	v = json_object_get(j, "repositories");
	assert_int_equal(json_array_size(v), ep->nmembers);
	md = episode_render_md(ep);
	json_array_foreach(v, i, m) {
		assert_string_equal(json_string_value(json_object_get(m,
		    "repository")), ep->members[i].repository);
		commits += (size_t)json_integer_value(json_object_get(
		    json_object_get(m, "stats"), "commits"));
		assert_int_equal(json_is_true(json_object_get(m, "quiet")),
		    ep->members[i].quiet);
		xasprintf(&line, "- %s: %zu commit", ep->members[i].repository,
		    ep->members[i].stats.commits);
		assert_non_null(strstr(md, line));
		free(line);
	}
	assert_int_equal(commits, ep->stats.commits);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(j,
	    "stats"), "commits")), (json_int_t)ep->stats.commits);
	json_decref(j);
	free(s);
	free(md);
}

/*
 * A show's links go to where each story happened: the Markdown links
 * each repository that has a story told to its own page, and every
 * source's URL in the JSON is one of the repositories'.
 */
static void
check_links(const struct parts *p, const struct episode *ep)
{
	json_t		*j, *segs, *seg, *src;
	const char	*url;
	char		*js, *md, *want;
	size_t		 i, k, n, urls = 0;
	int		 ours;

	md = episode_render_md(ep);
	assert_non_null(strstr(md, "## Links"));
	for (i = 0; i < p->n; i++) {
		for (k = 0; k < ep->nmembers; k++)
			if (strcmp(ep->members[k].repository,
			    p->ep[i]->repository) == 0)
				break;
		assert_true(k < ep->nmembers);
		if (ep->members[k].stories == 0)
			continue;
		assert_non_null(p->ep[i]->repository_url);
		xasprintf(&want, "](%s/", p->ep[i]->repository_url);
		assert_non_null(strstr(md, want));
		free(want);
		/* under a heading that names the repository */
		xasprintf(&want, ", %s\n\n- [", p->ep[i]->repository);
		assert_non_null(strstr(md, want));
		free(want);
	}
	js = episode_render_json(ep);
	assert_non_null(j = json_loads(js, 0, NULL));
	segs = json_object_get(j, "segments");
	json_array_foreach(segs, i, seg) {
		json_array_foreach(json_object_get(seg, "sources"), k, src) {
			if ((url = json_string_value(json_object_get(src,
			    "url"))) == NULL)
				continue;
			urls++;
			ours = 0;
			for (n = 0; n < p->n; n++)
				ours |= strncmp(url, p->ep[n]->repository_url,
				    strlen(p->ep[n]->repository_url)) == 0;
			assert_true(ours);
		}
	}
	assert_true(urls > 0);
	json_decref(j);
	free(js);
	free(md);
}

/* Three corpus days of three repositories, told as one show. */
static void
test_corpus_show(void **state)
{
	static const char *const days[] = { "curl-2026-02-14-quiet",
	    "vite-2026-06-30-busy", "redis-2024-05-15-revert",
	    "tokio-2025-10-14-releases", "ruff-2026-05-13-revert" };
	struct parts	 p;
	struct episode	*ep;
	const struct episode *top = NULL;
	size_t		 i;

	(void)state;
	memset(&p, 0, sizeof p);
	parts_opts(&p);
	for (i = 0; i < sizeof days / sizeof days[0]; i++)
		parts_add(&p, corpus_day(days[i]));
	ep = show_draft("Open Source Daily", "open-source-daily", p.v, p.n, &p.o);
	show_print(ep);
	check_show(&p, ep);
	assert_string_equal(ep->show, "Open Source Daily");
	assert_string_equal(ep->date, "2026-06-30");
	assert_string_equal(ep->repository, "shows/open-source-daily");
	/* the top story of the show is the top repository's */
	for (i = 0; i < p.n; i++)
		if (p.ep[i]->headline != NULL && (top == NULL ||
		    p.ep[i]->headline_rank < top->headline_rank))
			top = p.ep[i];
	assert_non_null(top);
	assert_non_null(strstr(ep->segments[0].text, top->headline));
	assert_non_null(strstr(ep->title, top->title));
	check_links(&p, ep);
	episode_free(ep);
	parts_free(&p);
}

/*
 * An organisation of three: a busy library, an app that reverts the
 * library's pull request of the day, and a quiet docs site.
 */
static void
test_org_show(void **state)
{
	struct parts		 p;
	struct episode		*ep;
	struct day		*lib, *app, *site;
	struct merged_pr	 pr;
	const char		*t;
	size_t			 i, at_lib = 0, at_revert = 0;

	(void)state;
	memset(&p, 0, sizeof p);
	parts_opts(&p);
	lib = day_msg_new("acme/widgets");
	day_msg_add(lib, "Add a frobnicate option to the widget renderer\n\n"
	    "Widgets can now be frobnicated before they are drawn, which "
	    "saves a second pass.", "1111111111111111111111111111111111111111",
	    1, 100, "Ada Lovelace", "ada", "src/render.c");
	day_msg_add(lib, "Fix a crash when a widget has no parent",
	    NULL, 2, 200, "Grace Hopper", "grace", "src/tree.c");
	day_msg_add(lib, "docs: explain the widget tree", NULL, 3, 300,
	    "Grace Hopper", "grace", "docs/tree.md");
	memset(&pr, 0, sizeof pr);
	pr.number = 12;
	pr.title = xstrdup("Add a frobnicate option to the widget renderer");
	pr.author_login = xstrdup("ada");
	pr.merge_sha = xstrdup("1111111111111111111111111111111111111111");
	pr.merged_at = lib->start + 100;
	assert_int_equal(day_add_pr(lib, &pr), 1);
	parts_add(&p, lib);

	app = day_msg_new("acme/app");
	day_msg_add(app, "Revert \"Use the frobnicate option from "
	    "acme/widgets#12\"\n\nacme/widgets#12 broke the app's start-up "
	    "on older screens.", NULL, 4, 400, "Alan Turing", "alan",
	    "app/main.c");
	day_msg_add(app, "Speed up the start-up screen by caching fonts",
	    NULL, 5, 500, "Alan Turing", "alan", "app/fonts.c");
	parts_add(&p, app);

	site = day_msg_new("acme/site");
	day_msg_add(site, "docs: fix a typo in the install guide", NULL, 6,
	    600, "Edsger Dijkstra", "edsger", "docs/install.md");
	parts_add(&p, site);

	ep = show_draft("Acme Daily", "acme-daily", p.v, p.n, &p.o);
	show_print(ep);
	check_show(&p, ep);
	/* counts per repository and in all */
	assert_int_equal(ep->stats.commits, 6);
	assert_int_equal(ep->stats.merged_prs, 1);
	assert_int_equal(ep->stats.authors, 4);
	/* the quiet site in one sentence, not a segment of its own */
	for (i = 0; i < ep->nmembers; i++)
		assert_int_equal(ep->members[i].quiet,
		    strcmp(ep->members[i].repository, "acme/site") == 0);
	assert_non_null(strstr(ep->transcript, "A quiet day in site"));
	/* the takeaway of the top repository that has one, said whose */
	assert_non_null(strstr(ep->segments[ep->nsegments - 2].text,
	    "widgets"));
	assert_null(strstr(ep->transcript, "typo"));
	/* the revert told right after the story of what it undid */
	for (i = 1; i < ep->nsegments; i++) {
		t = ep->segments[i].text;
		if (at_lib == 0 && strstr(t, "frobnicate") != NULL &&
		    strstr(t, "Ada Lovelace") != NULL)
			at_lib = i;
		if (strncmp(t, "Over in app, ", 13) == 0 && AFTER(t))
			at_revert = i;
	}
	assert_true(at_lib > 0);
	assert_int_equal(at_revert, at_lib + 1);
	/* said once: the change undone is not "an earlier change" again */
	assert_null(strstr(ep->segments[at_revert].text, "earlier change"));
	assert_non_null(strstr(ep->segments[at_revert].text,
	    "frobnicate option"));
	/* where a story happened, said when it isn't plain */
	assert_non_null(strstr(ep->transcript, "widgets"));
	check_rendered(ep);
	episode_free(ep);
	parts_free(&p);
}

/*
 * Forty busy repositories: the episode stays within SHOW_MINUTES and
 * says, by repository, what it left out.
 */
static void
test_long_show(void **state)
{
	static const char *const subjects[] = {
		"Fix a crash when the configuration file is empty",
		"Add a retry to the upload of large files",
		"Speed up the index rebuild by reading in batches",
		"Drop support for the old configuration format",
	};
	struct parts	 p;
	struct episode	*ep;
	struct day	*d;
	char		*repo, *who;
	size_t		 i, j, untold = 0, told = 0;

	(void)state;
	memset(&p, 0, sizeof p);
	parts_opts(&p);
	for (i = 0; i < 40; i++) {
		xasprintf(&repo, "acme/service-%zu", i);
		xasprintf(&who, "dev%zu", i);
		d = day_msg_new(repo);
		for (j = 0; j < 4; j++)
			day_msg_add(d, subjects[(i + j) % 4], NULL,
			    i * 10 + j + 1, 100 * j, who, who, "src/main.c");
		parts_add(&p, d);
		free(repo);
		free(who);
	}
	ep = show_draft("Acme Platform", "acme-platform", p.v, p.n, &p.o);
	show_print(ep);
	check_show(&p, ep);
	for (i = 0; i < ep->nmembers; i++) {
		untold += ep->members[i].untold;
		told += ep->members[i].stories;
	}
	assert_true(told > 0);
	assert_true(untold > 0);
	assert_non_null(strstr(ep->segments[ep->nsegments - 1].text,
	    "Left out for time: "));
	assert_int_equal(ep->stats.commits, 160);
	episode_free(ep);
	parts_free(&p);
}

/* parts_add's drafting of day i, in a thread of parallel_for's. */
static void
draft_one(void *arg, size_t i)
{
	struct parts	*p = arg;

	day_pair_reverts(p->day[i]);
	p->ep[i] = episode_draft(p->day[i], &p->o);
	p->v[i].day = p->day[i];
	p->v[i].ep = p->ep[i];
}

/*
 * The members drafted in threads, as emit_show drafts them, give the
 * show drafted one after another (scripts/test runs this under
 * ThreadSanitizer too).
 */
static void
test_threads_same_show(void **state)
{
	static const char *const days[] = { "curl-2026-02-14-quiet",
	    "vite-2026-06-30-busy", "redis-2024-05-15-revert",
	    "tokio-2025-10-14-releases", "ao-2026-03-24", "curl-2026-06-01",
	    "ruff-2026-05-13-revert", "express-2024-09-09-releases" };
	struct parts	 one, many;
	struct episode	*a, *b;
	size_t		 i, n = sizeof days / sizeof days[0];

	(void)state;
	memset(&one, 0, sizeof one);
	memset(&many, 0, sizeof many);
	parts_opts(&one);
	parts_opts(&many);
	for (i = 0; i < n; i++)
		parts_add(&one, corpus_day(days[i]));
	for (i = 0; i < n; i++)
		many.day[i] = corpus_day(days[i]);
	many.n = n;
	parallel_for(n, 4, draft_one, &many);
	a = show_draft("Open Source Daily", "open-source-daily", one.v,
	    one.n, &one.o);
	b = show_draft("Open Source Daily", "open-source-daily", many.v,
	    many.n, &many.o);
	assert_string_equal(a->title, b->title);
	assert_string_equal(a->transcript, b->transcript);
	assert_int_equal(a->stats.commits, b->stats.commits);
	episode_free(a);
	episode_free(b);
	parts_free(&one);
	parts_free(&many);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus_show),
		cmocka_unit_test(test_org_show),
		cmocka_unit_test(test_long_show),
		cmocka_unit_test(test_threads_same_show),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
