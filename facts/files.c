/*
 * What a commit's files say: whether they are docs, tests or build
 * configuration, and the area of the repository they share.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "files.h"
#include "record.h"
#include "text.h"
#include "xmalloc.h"

/* Whether a path is documentation. */
int
files_docs(const char *path)
{
	static const char *dirs[] = { "docs/", "doc/", "documentation/",
	    "man/", NULL };
	static const char *bases[] = { "readme", "changelog", "changes",
	    "news", "release-notes", "release_notes", "authors", "contributing",
	    NULL };
	const char	*base = strrchr(path, '/'), *dot;

	base = base != NULL ? base + 1 : path;
	if (text_starts_any(path, dirs, NULL))
		return 1;
	if (text_starts_any(base, bases, NULL))
		return 1;
	if ((dot = strrchr(base, '.')) != NULL && (strcasecmp(dot, ".md") == 0 ||
	    strcasecmp(dot, ".rst") == 0 || strcasecmp(dot, ".adoc") == 0))
		return 1;
	return 0;
}

/*
 * Whether a path is a test. A build file in a test folder is the build's
 * ("tests/CMakeLists.txt"), but one among a test's data is the test's
 * ("tests/data/pkg/pyproject.toml", a project a test builds).
 */
int
files_tests(const char *path)
{
	static const struct {
		const char	*name;
		size_t		 len;
	} comps[] = { { "test", 4 }, { "tests", 5 }, { "testing", 7 },
	    { "__tests__", 9 }, { "spec", 4 }, { "testsuite", 9 },
	    { "regress", 7 } };
	static const char *data[] = { "/data/", "/fixtures/", "/testdata/",
	    "/test_data/", "/resources/", NULL };
	const char	*p = path, *base;
	size_t		 i, n;
	int		 test = 0;

	while (!test && *p != '\0') {
		n = strcspn(p, "/");
		if (p[n] != '/')
			break;
		/* the first letter first: most folders stop there */
		for (i = 0; i < sizeof comps / sizeof comps[0]; i++) {
			if (comps[i].len == n && tolower((unsigned char)*p) ==
			    comps[i].name[0] && strncasecmp(p, comps[i].name,
			    n) == 0) {
				test = 1;
				break;
			}
		}
		p += n + 1;
	}
	if (!test) {
		base = strrchr(path, '/');
		base = base != NULL ? base + 1 : path;
		n = strlen(base);
		test = strncmp(base, "test_", 5) == 0 || (n > 8 &&
		    strcmp(base + n - 8, "_test.go") == 0) ||
		    strstr(base, ".test.") != NULL ||
		    strstr(base, ".spec.") != NULL;
	}
	/* asked only of a test: most paths are not */
	if (test && files_build(path)) {
		for (i = 0; data[i] != NULL && strstr(path, data[i]) == NULL;
		    i++)
			continue;
		if (data[i] == NULL)
			return 0;
	}
	return test;
}

/* Whether a path is CI or build configuration. */
int
files_build(const char *path)
{
	static const char *dirs[] = { ".github/", ".circleci/", ".gitlab",
	    "ci/", ".ci/", ".travis", ".azure", "cmake/", ".buildkite/",
	    "appveyor", ".cirrus", NULL };
	static const char *bases[] = { "cmakelists.txt", "makefile",
	    "configure.ac", "meson.build", "dockerfile", "build.gradle",
	    "setup.py", "pyproject.toml", "setup.cfg", "gnumakefile",
	    "makefile.am", "makefile.in", NULL };
	const char	*base = strrchr(path, '/'), *dot;

	base = base != NULL ? base + 1 : path;
	if (text_starts_any(path, dirs, NULL))
		return 1;
	if (text_starts_any(base, bases, NULL))
		return 1;
	if ((dot = strrchr(base, '.')) != NULL && strcasecmp(dot, ".cmake") == 0)
		return 1;
	return 0;
}

/* Whether every file of c passes pred (0 when there are no files). */
int
files_all(const struct commit *c, int (*pred)(const char *))
{
	char	**lists[3] = { c->added, c->modified, c->removed };
	size_t	  ns[3] = { c->nadded, c->nmodified, c->nremoved };
	size_t	  i, j, total = 0;

	for (i = 0; i < 3; i++) {
		for (j = 0; j < ns[i]; j++) {
			if (lists[i][j] == NULL)
				continue;
			if (!pred(lists[i][j]))
				return 0;
			total++;
		}
	}
	return total > 0;
}

/* A file's leading directory, as files_area_of groups them. */
struct files_dir {
	const char	*name;		/* the path: the directory opens it */
	size_t		 len;		/* the directory's length */
	size_t		 at;		/* the file's place in the commit */
};

/* Order by directory, then by place in the commit. */
static int
files_dir_cmp(const void *a, const void *b)
{
	const struct files_dir	*x = a, *y = b;
	int			 c;

	c = memcmp(x->name, y->name, x->len < y->len ? x->len : y->len);
	if (c != 0)
		return c;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

/*
 * files_area, given which files are tests or docs (aside, in the order
 * of added, modified and removed) and whether any other is there.
 *
 * The leading directory most files have is found by sorting them by it:
 * a run of the sorted list is a directory and its length the count. A
 * directory counts every file in it, tests and docs too, but only one
 * that holds a file not set aside can be the area; of those with the
 * most files, the one whose such file comes first in the commit wins.
 * (Counting each file's directory among all the others compared every
 * pair: twenty commits of 30,000 files each, as a push may bring, took
 * close to a minute to draft.)
 */
static char *
files_area_of(const struct commit *c, const char *repo,
    const unsigned char *aside, int any_source)
{
	const char	*shortname, *best = NULL, *slash;
	char	       **lists[3] = { c->added, c->modified, c->removed };
	size_t		 ns[3] = { c->nadded, c->nmodified, c->nremoved };
	struct files_dir *v;
	size_t		 i, j, k, nv = 0, bestn = 0, bestat = 0, bestlen = 0;
	size_t		 f0, first, sl;

	v = xreallocarray(NULL, ns[0] + ns[1] + ns[2] + 1, sizeof *v);
	for (i = f0 = 0; i < 3; f0 += ns[i++]) {
		for (j = 0; j < ns[i]; j++) {
			const char *f = lists[i][j];

			if (f == NULL || (slash = strchr(f, '/')) == NULL)
				continue;
			v[nv].name = f;
			v[nv].len = (size_t)(slash - f);
			v[nv++].at = f0 + j;
		}
	}
	qsort(v, nv, sizeof *v, files_dir_cmp);
	for (i = 0; i < nv; i = k) {
		/* the run of i's directory; its first file that may be it */
		first = SIZE_MAX;
		for (k = i; k < nv && v[k].len == v[i].len &&
		    memcmp(v[k].name, v[i].name, v[i].len) == 0; k++) {
			if (first == SIZE_MAX &&
			    !(any_source && aside[v[k].at]))
				first = k;
		}
		if (first == SIZE_MAX)
			continue;
		if (k - i > bestn || (k - i == bestn &&
		    v[first].at < bestat)) {
			bestn = k - i;
			bestat = v[first].at;
			best = v[first].name;
			bestlen = v[first].len;
		}
	}
	free(v);
	if (best == NULL)
		return NULL;
	shortname = repo != NULL && strchr(repo, '/') != NULL ?
	    strchr(repo, '/') + 1 : repo;
	sl = shortname != NULL ? strlen(shortname) : 0;
	if (sl >= 2 && bestlen >= sl &&
	    (strncasecmp(best, shortname, sl) == 0 ||
	    strncasecmp(best + bestlen - sl, shortname, sl) == 0)) {
		const char	*sub = NULL;

		/*
		 * The package's own directory: one level down, the
		 * directory of its first file that has one.
		 */
		for (i = 0; i < 3 && sub == NULL; i++) {
			for (j = 0; j < ns[i]; j++) {
				const char *f = lists[i][j];

				if (f == NULL || strncmp(f, best, bestlen) != 0 ||
				    f[bestlen] != '/')
					continue;
				if (strchr(f + bestlen + 1, '/') != NULL) {
					sub = f + bestlen + 1;
					break;
				}
			}
		}
		if (sub != NULL)
			return xstrndup(sub, strcspn(sub, "/"));
	}
	return xstrndup(best, bestlen);
}

/*
 * The area a commit's files share (new string), or NULL: the most common
 * leading directory, tests and docs left out when other files are there,
 * one level down when it is the package's own directory.
 */
char *
files_area(const struct commit *c, const char *repo)
{
	char	       **lists[3] = { c->added, c->modified, c->removed };
	size_t		 ns[3] = { c->nadded, c->nmodified, c->nremoved };
	size_t		 i, j, f0;
	unsigned char	 aside_small[64], *aside = aside_small;
	char		*area;
	int		 any_source = 0;

	/* which files are tests or docs, each read once */
	if (ns[0] + ns[1] + ns[2] > sizeof aside_small)
		aside = xcalloc(ns[0] + ns[1] + ns[2], 1);
	for (i = f0 = 0; i < 3; f0 += ns[i++]) {
		for (j = 0; j < ns[i]; j++) {
			aside[f0 + j] = lists[i][j] != NULL &&
			    (files_tests(lists[i][j]) ||
			    files_docs(lists[i][j]));
			if (lists[i][j] != NULL && !aside[f0 + j])
				any_source = 1;
		}
	}
	area = files_area_of(c, repo, aside, any_source);
	if (aside != aside_small)
		free(aside);
	return area;
}
