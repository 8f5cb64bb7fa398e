/*
 * What a commit's files say: whether they are docs, tests or build
 * configuration, and the area of the repository they share.
 */
#include <ctype.h>
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

/*
 * files_area, given which files are tests or docs (aside, in the order
 * of added, modified and removed) and whether any other is there.
 */
static char *
files_area_of(const struct commit *c, const char *repo,
    const unsigned char *aside, int any_source)
{
	const char	*shortname, *best = NULL, *slash;
	char	       **lists[3] = { c->added, c->modified, c->removed };
	size_t		 ns[3] = { c->nadded, c->nmodified, c->nremoved };
	size_t		 i, j, k, l, bestn = 0, bestlen = 0, cnt, len, f0;
	int		 depth;

	shortname = repo != NULL && strchr(repo, '/') != NULL ?
	    strchr(repo, '/') + 1 : repo;
	/* the most common leading directory, one level down under the package */
	for (depth = 0; depth < 2; depth++) {
		best = NULL;
		bestn = 0;
		for (i = f0 = 0; i < 3; f0 += ns[i++]) {
			for (j = 0; j < ns[i]; j++) {
				const char *f = lists[i][j], *s2;

				if (f == NULL || (any_source && aside[f0 + j]))
					continue;
				s2 = f;
				if (depth == 1) {
					if ((slash = strchr(f, '/')) == NULL)
						continue;
					s2 = slash + 1;
				}
				if ((slash = strchr(s2, '/')) == NULL)
					continue;
				len = (size_t)(slash - s2);
				cnt = 0;
				for (k = 0; k < 3; k++) {
					for (l = 0; l < ns[k]; l++) {
						const char *g = lists[k][l];

						if (g == NULL)
							continue;
						if (depth == 1) {
							if ((g = strchr(g,
							    '/')) == NULL)
								continue;
							g++;
						}
						if (strncmp(g, s2, len) == 0 &&
						    g[len] == '/')
							cnt++;
					}
				}
				if (cnt > bestn) {
					bestn = cnt;
					best = s2;
					bestlen = len;
				}
			}
		}
		if (best == NULL)
			return NULL;
		if (depth == 0 && shortname != NULL && strlen(shortname) >= 2 &&
		    (bestlen == strlen(shortname) ||
		    bestlen > strlen(shortname)) &&
		    (strncasecmp(best, shortname, strlen(shortname)) == 0 ||
		    strncasecmp(best + bestlen - strlen(shortname), shortname,
		    strlen(shortname)) == 0)) {
			char	*top = xstrndup(best, bestlen);
			char	*r;

			/* the package's own directory: look one level down */
			depth = 1;
			best = NULL;
			bestn = 0;
			for (i = 0; i < 3 && best == NULL; i++) {
				for (j = 0; j < ns[i]; j++) {
					const char *f = lists[i][j];

					if (f == NULL ||
					    strncmp(f, top, bestlen) != 0 ||
					    f[bestlen] != '/')
						continue;
					if (strchr(f + bestlen + 1, '/') != NULL) {
						best = f + bestlen + 1;
						break;
					}
				}
			}
			if (best == NULL)
				return top;
			len = strcspn(best, "/");
			r = xstrndup(best, len);
			free(top);
			return r;
		}
		return xstrndup(best, bestlen);
	}
	return NULL;
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
