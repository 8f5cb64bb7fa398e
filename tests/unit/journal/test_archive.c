/*
 * Unit tests for the archive: the OUTPUT_DIR/OWNER/REPO layout
 * (archive_dir, archive_path), episode names and their order, and the
 * repositories and episodes listed back from a temporary folder.
 */
#include <sys/stat.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "archive.h"
#include "config.h"
#include "fileio.h"
#include "xmalloc.h"

static void
test_dir(void **state)
{
	static const struct {
		const char	*repo, *dir;	/* dir NULL: refused */
	} cases[] = {
		{ "curl/curl", "/out/curl/curl" },
		{ "octo-org/.github", "/out/octo-org/.github" },
		{ "Octo/Re.po_1-x", "/out/Octo/Re.po_1-x" },
		{ "octo-org/.", NULL },
		{ "octo-org/..", NULL },
		{ ".octo/widget", NULL },
		{ "../etc", NULL },
		{ "a/b/c", NULL },
		{ "owner/", NULL },
		{ "/name", NULL },
		{ "owner/na me", NULL },
		{ "owner/line\nbreak", NULL },
		{ "", NULL },
	};
	char	*dir, *cause;
	size_t	 i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		dir = cause = NULL;
		if (cases[i].dir != NULL) {
			if (archive_dir("/out", cases[i].repo, &dir,
			    &cause) != 0)
				fail_msg("case %zu: '%s' refused: %s", i,
				    cases[i].repo, cause);
			assert_string_equal(dir, cases[i].dir);
			assert_null(cause);
			free(dir);
			continue;
		}
		if (archive_dir("/out", cases[i].repo, &dir, &cause) != -1)
			fail_msg("case %zu: '%s' accepted as %s", i,
			    cases[i].repo, dir);
		assert_null(dir);
		assert_non_null(cause);
		assert_non_null(strstr(cause, "not a repository name"));
		/* the name is escaped: no line can be forged with it */
		assert_null(strchr(cause, '\n'));
		free(cause);
	}
}

static void
test_path(void **state)
{
	static const struct {
		const char	*dir, *name, *ext, *path;
	} cases[] = {
		{ "/out/o/r", "2026-06-01", "md", "/out/o/r/2026-06-01.md" },
		{ "/out/o/r", "2026-06-01-2", "json",
		    "/out/o/r/2026-06-01-2.json" },
		{ "/out/o/.github", "2026-06-07-recap", "md",
		    "/out/o/.github/2026-06-07-recap.md" },
		{ "/out/o/r", ARCHIVE_FEED, "xml", "/out/o/r/feed.xml" },
	};
	char	*p;
	size_t	 i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		p = archive_path(cases[i].dir, cases[i].name, cases[i].ext);
		assert_string_equal(p, cases[i].path);
		free(p);
	}
}

static void
test_parse_name(void **state)
{
	static const struct {
		const char	*name;
		int		 ok, seq;
	} cases[] = {
		{ "2026-06-01", 1, 1 },
		{ "2026-06-01-2", 1, 2 },
		{ "2026-06-01-123456", 1, 123456 },
		{ "2026-06-01-recap", 1, ARCHIVE_RECAP },
		{ "2026-06-01-1", 0, 0 },
		{ "2026-06-01-0", 0, 0 },
		{ "2026-06-01-02", 0, 0 },
		{ "2026-06-01-1234567", 0, 0 },
		{ "2026-06-01-x", 0, 0 },
		{ "2026-06-01.tmp-abc", 0, 0 },
		{ "2026-6-01", 0, 0 },
		{ "feed", 0, 0 },
		{ "", 0, 0 },
	};
	struct archive_entry	 e;
	size_t			 i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&e, 0, sizeof(e));
		if (archive_parse_name(cases[i].name, &e) != cases[i].ok)
			fail_msg("case %zu: '%s': want %d", i, cases[i].name,
			    cases[i].ok);
		if (!cases[i].ok)
			continue;
		assert_string_equal(e.name, cases[i].name);
		assert_int_equal(strncmp(e.date, cases[i].name, 10), 0);
		assert_int_equal(e.seq, cases[i].seq);
		free(e.name);
	}
}

/* -- listing a folder ---------------------------------------------------- */

static int
setup_tmp(void **state)
{
	char	*dir = xstrdup("/tmp/hookcast-archive-XXXXXX");

	if (mkdtemp(dir) == NULL) {
		free(dir);
		return -1;
	}
	*state = dir;
	return 0;
}

static int
teardown_tmp(void **state)
{
	char	*dir = *state, *cmd;

	xasprintf(&cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	free(cmd);
	free(dir);
	return 0;
}

static void
make_dir(const char *top, const char *sub)
{
	char	*p;

	xasprintf(&p, "%s/%s", top, sub);
	assert_int_equal(file_mkdirs(p, 0755), 0);
	free(p);
}

static void
make_file(const char *top, const char *sub)
{
	char	*p;

	xasprintf(&p, "%s/%s", top, sub);
	assert_int_equal(file_write_atomic(p, "{}\n", 3, 0644), 0);
	free(p);
}

static void
test_repos(void **state)
{
	static const char *dirs[] = {
		"curl/curl", "octo-org/.github", "octo-org/widget",
		".hidden/repo",		/* no owner starts with '.' */
		"owner/bad name",	/* not a repository name */
		"lonely",		/* an owner without repositories */
	};
	static const char *files[] = {
		"octo-org/feed.xml",	/* a file, not a repository */
		"stray.txt",
	};
	static const char *want[] = {
		"already/listed", "curl/curl", "octo-org/.github",
		"octo-org/widget",
	};
	const char	*top = *state;
	struct strlist	 list = { NULL, 0 };
	size_t		 i, k;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		make_dir(top, dirs[i]);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		make_file(top, files[i]);
	strlist_add(&list, "already/listed");
	strlist_add(&list, "curl/curl");
	archive_repos(top, &list);
	assert_int_equal(list.n, sizeof(want) / sizeof(want[0]));
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		for (k = 0; k < list.n; k++)
			if (strcmp(list.v[k], want[i]) == 0)
				break;
		if (k == list.n)
			fail_msg("%s not listed", want[i]);
	}
	strlist_clear(&list);

	/* a missing output folder lists nothing */
	archive_repos("/nonexistent/hookcast-archive", &list);
	assert_int_equal(list.n, 0);
}

static void
test_list(void **state)
{
	static const char *files[] = {
		"2026-06-02.json", "2026-06-01-recap.json", "2026-06-01-2.json",
		"2026-06-01.json", "2026-06-01-10.json",
		"2026-06-01.md",		/* transcripts aren't listed */
		"feed.xml", "2026-06-03.json.tmp-abcdef", "notes.json",
	};
	static const char *want[] = {
		"2026-06-01", "2026-06-01-2", "2026-06-01-10",
		"2026-06-01-recap", "2026-06-02",
	};
	const char	*top = *state;
	struct archive	 ar;
	char		*dir, *cause = NULL, *sub;
	json_t		*j;
	size_t		 i;

	assert_int_equal(archive_dir(top, "octo-org/.github", &dir, &cause), 0);
	assert_int_equal(file_mkdirs(dir, 0755), 0);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		xasprintf(&sub, "octo-org/.github/%s", files[i]);
		make_file(top, sub);
		free(sub);
	}
	archive_list(dir, &ar);
	assert_int_equal(ar.n, sizeof(want) / sizeof(want[0]));
	for (i = 0; i < ar.n; i++)
		assert_string_equal(ar.v[i].name, want[i]);
	j = archive_load(dir, &ar.v[0]);
	assert_non_null(j);
	assert_true(json_is_object(j));
	json_decref(j);
	archive_clear(&ar);
	assert_int_equal(ar.n, 0);
	free(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dir),
		cmocka_unit_test(test_path),
		cmocka_unit_test(test_parse_name),
		cmocka_unit_test_setup_teardown(test_repos, setup_tmp,
		    teardown_tmp),
		cmocka_unit_test_setup_teardown(test_list, setup_tmp,
		    teardown_tmp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
