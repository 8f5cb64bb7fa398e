/*
 * Unit tests for the drafter on worst-case days (issue #25): a day that
 * is huge in one dimension (files per commit, commits, authors, words,
 * lines, revert chains, PRs, series, merges, pushes: gen_worst.h) is
 * drafted at a size and at eight times it, and the episode must come out
 * whole. A step that grows quadratically in one of them makes the larger
 * day take minutes (the test's TIMEOUT); how long each takes is measured
 * by scripts/bench-draft, never here.
 *
 * The poison day of the issue, twenty commits of 10,000 added, 10,000
 * modified and 10,000 removed files, is drafted whole; and files_area,
 * which counted every file's directory among all the others, is checked
 * against that plain count on small random commits.
 */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cmocka.h>
#include <jansson.h>

#include "day.h"
#include "episode.h"
#include "files.h"
#include "record.h"
#include "xmalloc.h"

#include "episode_check.h"
#include "gen_worst.h"

/*
 * Draft d on one thread (the episode is the same on any number): the
 * work is then all on the clock of the test's TIMEOUT, however many CPUs
 * the machine has. The caller frees it.
 */
static struct episode *
worst_draft(struct day *d)
{
	struct episode_opts	o;
	struct episode		*ep;

	day_pair_reverts(d);
	memset(&o, 0, sizeof o);
	o.show = "Worst Daily";
	o.published = d->end;
	o.threads = 1;
	ep = episode_draft(d, &o);
	assert_non_null(ep);
	return ep;
}

/*
 * What every episode of a worst day keeps, whatever its size: the day's
 * counts, something said, nothing unspeakable, a JSON that parses; and
 * on the smaller day every invariant of episode_check.h.
 */
static void
worst_check(const char *dim, size_t n, const struct day *d,
    const struct episode *ep, int all)
{
	struct day_stats	 st;
	const char		*why;
	char			*js;
	json_t			*root;
	json_error_t		 err;

	day_stats(d, &st);
	if (ep->stats.commits != d->ncommits ||
	    ep->stats.merged_prs != d->nprs ||
	    ep->stats.pushes != d->npushes)
		fail_msg("%s at %zu: the episode counts %zu commits, %zu PRs, "
		    "%zu pushes of %zu, %zu, %zu", dim, n, ep->stats.commits,
		    ep->stats.merged_prs, ep->stats.pushes, d->ncommits,
		    d->nprs, d->npushes);
	if (ep->nsegments < 2 || ep->transcript[0] == '\0' ||
	    ep->words == 0)
		fail_msg("%s at %zu: an empty episode", dim, n);
	if ((why = check_unspeakable(ep->transcript)) != NULL)
		fail_msg("%s at %zu: %s in the transcript", dim, n, why);
	if ((why = check_unspeakable(ep->title)) != NULL)
		fail_msg("%s at %zu: %s in the title: %s", dim, n, why,
		    ep->title);
	js = episode_render_json(ep);
	if ((root = json_loads(js, 0, &err)) == NULL)
		fail_msg("%s at %zu: the JSON does not parse: %s", dim, n,
		    err.text);
	json_decref(root);
	if (all)
		check_episode(d, ep, js);
	free(js);
}

/* Each dimension's day at its base size and at eight times it. */
static void
test_worst_dims(void **state)
{
	struct episode	*ep;
	struct day	*d;
	size_t		 i, k, n;

	(void)state;
	for (i = 0; i < GEN_NDIMS; i++) {
		for (k = 0; k < 2; k++) {
			n = gen_dims[i].base * (k == 0 ? 1 : 8);
			d = gen_worst_day(gen_dims[i].dim, n);
			ep = worst_draft(d);
			worst_check(gen_dims[i].name, n, d, ep, k == 0);
			episode_free(ep);
			day_free(d);
		}
	}
}

/*
 * The area a commit's k-th file list of the files day has: its most
 * common directory, but a test's or doc's can't be one when a source
 * file is there; then the first directory of its own ("d0_3/") wins the
 * tie of single files.
 */
static const char *
worst_area_expected(size_t k)
{
	const char	*a = gen_worst_area(k);

	return strcmp(a, "tests") == 0 || strcmp(a, "docs") == 0 ? "d0_3" : a;
}

/*
 * The poison day: twenty commits of 30,000 files each. It drafts (the
 * quadratic count took close to two minutes on one thread, far more
 * under a sanitizer or valgrind), and a commit's area is the one its
 * files share: that of an ordinary area, and of "docs" and "tests",
 * whose files are set aside (the drafter finds them all; three found
 * here keep the test short under valgrind).
 */
static void
test_worst_poison_day(void **state)
{
	struct episode	*ep;
	struct day	*d;
	static const size_t ks[] = { 0, 4, 11 };
	size_t		 i, k;
	char		*area;

	(void)state;
	d = gen_worst_day(GEN_FILES, GEN_WORST_MAXFILES);
	assert_int_equal(d->ncommits, 20);
	for (i = 0; i < sizeof ks / sizeof ks[0]; i++) {
		k = ks[i];
		assert_int_equal(d->commits[k].nadded + d->commits[k].nmodified +
		    d->commits[k].nremoved, 3 * GEN_WORST_MAXFILES);
		area = files_area(&d->commits[k], d->repo);
		assert_non_null(area);
		assert_string_equal(area, worst_area_expected(k));
		free(area);
	}
	ep = worst_draft(d);
	worst_check("files", GEN_WORST_MAXFILES, d, ep, 0);
	episode_free(ep);
	day_free(d);
}

/*
 * A day of 120,000 merges of a branch each, by as many people whose
 * names share a long start: each person's merges were looked for among
 * every item of the day from theirs on (this took minutes), and are now
 * found through links (chores.c). The first few are told, a sentence
 * each, and the rest counted: one sentence a merge made a transcript of
 * some 200 MB. Every merge is among the segment's commits. Under valgrind, a tenth of the day: the checks are the same,
 * and valgrind is slow enough.
 */
static void
test_worst_merges_people(void **state)
{
	struct episode	*ep;
	struct day	*d;
	struct gen	 g;
	const struct episode_segment *seg = NULL;
	char		 name[160], subj[64], want[256];
	size_t		 i, n = 120000;

	(void)state;
	if (getenv("HOOKCAST_UNDER_VALGRIND") != NULL)
		n /= 10;
	memset(&g, 0, sizeof g);
	g.s = 25;
	d = day_new(GEN_WORST_REPO, (time_t)1775260800);
	d->end = d->start + 86400;
	gen_flood_add(&g, d, "Optimize core index enumeration", "",
	    gen_people[1], NULL, 0);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof name, "Maintainer of the Long Running "
		    "Integration Branches of the Project Number %zu", i);
		snprintf(subj, sizeof subj, "Merge branch 'topic-%zu'", i);
		gen_flood_add(&g, d, subj, "", name, NULL, i + 1);
	}
	ep = worst_draft(d);
	for (i = 0; i < ep->nsegments; i++)
		if (strcmp(ep->segments[i].kind, "housekeeping") == 0)
			seg = &ep->segments[i];
	assert_non_null(seg);
	assert_int_equal(seg->ncommits, n);
	/* the first few are told, the rest counted: all accounted for */
	snprintf(want, sizeof want, "Number %d merged branch 'topic-%d'.", 0,
	    0);
	if (strstr(seg->text, want) == NULL)
		fail_msg("no \"%s\" in the housekeeping", want);
	snprintf(want, sizeof want, "Number %zu merged branch 'topic-%zu'.",
	    n - 1, n - 1);
	if (strstr(seg->text, want) != NULL)
		fail_msg("\"%s\": every merge told, one sentence each", want);
	if (strstr(seg->text, "more merges besides.") == NULL)
		fail_msg("the merges not told are not counted: %.300s",
		    seg->text);
	/* a listener's few minutes, not a sentence a merge */
	if (strlen(seg->text) > 4096)
		fail_msg("housekeeping of %zu bytes", strlen(seg->text));
	worst_check("merges", n, d, ep, 0);
	episode_free(ep);
	day_free(d);
}

/* A small random path: one to three components of a few names. */
static char *
worst_path(struct gen *g)
{
	static const char *const comps[] = { "src", "Src", "lib", "mysrc",
	    "src2", "tests", "docs", "a", "b", "core", "x.c", "README.md",
	    "test_a.py", "CMakeLists.txt" };
	struct buf	 b;
	size_t		 i, depth = 1 + gen_below(g, 3);
	char		*s;

	buf_init(&b);
	for (i = 0; i < depth; i++)
		buf_printf(&b, "%s%s", i > 0 ? "/" : "", GEN_PICK(g, comps));
	s = xstrdup(buf_str(&b));
	buf_free(&b);
	return s;
}

/*
 * files_area as its comment says it, the plain way: every file's leading
 * directory counted among all the files; of those of a file that is no
 * test or doc (any file, when all are), the most counted, the first met
 * on a tie; one level down, at the first file's there that has one, when
 * it is the package's own directory (repo's name opening or closing it).
 */
static char *
worst_area_reference(const struct commit *c, const char *repo)
{
	char	**lists[3] = { c->added, c->modified, c->removed };
	size_t	  ns[3] = { c->nadded, c->nmodified, c->nremoved };
	const char *all[64], *best = NULL, *shortname, *sub;
	size_t	  n = 0, i, j, len, cnt, bestn = 0, bestlen = 0, sl;
	int	  any_source = 0;

	for (i = 0; i < 3; i++)
		for (j = 0; j < ns[i]; j++)
			all[n++] = lists[i][j];
	for (i = 0; i < n; i++)
		if (all[i] != NULL && !files_tests(all[i]) &&
		    !files_docs(all[i]))
			any_source = 1;
	for (i = 0; i < n; i++) {
		if (all[i] == NULL || strchr(all[i], '/') == NULL ||
		    (any_source && (files_tests(all[i]) ||
		    files_docs(all[i]))))
			continue;
		len = strcspn(all[i], "/");
		for (cnt = j = 0; j < n; j++)
			if (all[j] != NULL && strcspn(all[j], "/") == len &&
			    all[j][len] == '/' &&
			    strncmp(all[j], all[i], len) == 0)
				cnt++;
		if (cnt > bestn) {
			bestn = cnt;
			best = all[i];
			bestlen = len;
		}
	}
	if (best == NULL)
		return NULL;
	shortname = repo != NULL && strchr(repo, '/') != NULL ?
	    strchr(repo, '/') + 1 : repo;
	sl = shortname != NULL ? strlen(shortname) : 0;
	if (sl >= 2 && bestlen >= sl && (strncasecmp(best, shortname, sl) == 0 ||
	    strncasecmp(best + bestlen - sl, shortname, sl) == 0)) {
		for (i = 0; i < n; i++) {
			if (all[i] == NULL || strncmp(all[i], best,
			    bestlen) != 0 || all[i][bestlen] != '/' ||
			    strchr(all[i] + bestlen + 1, '/') == NULL)
				continue;
			sub = all[i] + bestlen + 1;
			return xstrndup(sub, strcspn(sub, "/"));
		}
	}
	return xstrndup(best, bestlen);
}

/* files_area against the plain count, on random commits of a few files. */
static void
test_worst_area_reference(void **state)
{
	static const char *const repos[] = { "o/src", "o/lib", "o/rc",
	    "src", "o/mysrc", NULL };
	struct gen	 g;
	struct commit	 c;
	char		*v[3][20], *got, *want;
	size_t		 r, i, j, ns[3];
	const char	*repo;

	(void)state;
	memset(&g, 0, sizeof g);
	g.s = 25;
	for (r = 0; r < 3000; r++) {
		memset(&c, 0, sizeof c);
		for (i = 0; i < 3; i++) {
			ns[i] = gen_below(&g, 8);
			for (j = 0; j < ns[i]; j++)
				v[i][j] = worst_path(&g);
		}
		c.added = record_list_dup(v[0], ns[0]);
		c.modified = record_list_dup(v[1], ns[1]);
		c.removed = record_list_dup(v[2], ns[2]);
		c.nadded = ns[0];
		c.nmodified = ns[1];
		c.nremoved = ns[2];
		repo = repos[gen_below(&g, sizeof repos / sizeof repos[0])];
		got = files_area(&c, repo);
		want = worst_area_reference(&c, repo);
		if ((got == NULL) != (want == NULL) ||
		    (got != NULL && strcmp(got, want) != 0)) {
			for (i = 0; i < 3; i++)
				for (j = 0; j < ns[i]; j++)
					print_message("list %zu: %s\n", i,
					    v[i][j]);
			fail_msg("commit %zu of %s: area %s, not %s", r,
			    repo != NULL ? repo : "(none)",
			    got != NULL ? got : "(none)",
			    want != NULL ? want : "(none)");
		}
		free(got);
		free(want);
		for (i = 0; i < 3; i++)
			for (j = 0; j < ns[i]; j++)
				free(v[i][j]);
		commit_clear(&c);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_worst_area_reference),
		cmocka_unit_test(test_worst_poison_day),
		cmocka_unit_test(test_worst_merges_people),
		cmocka_unit_test(test_worst_dims),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
