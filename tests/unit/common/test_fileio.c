/* Unit tests: common/fileio.c (atomic writes, directories) and utf8.c */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dirent.h>

#include <cmocka.h>

#include "fileio.h"
#include "utf8.h"
#include "xmalloc.h"

static char *
tmpdir(void)
{
	char	*d = xstrdup("/tmp/hookcast-fileio-XXXXXX");

	assert_non_null(mkdtemp(d));
	return d;
}

static void
rmtree(const char *dir)
{
	char	*cmd;

	xasprintf(&cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
}

static char *
slurp(const char *path)
{
	char	buf[4096];
	int	fd = open(path, O_RDONLY);
	ssize_t	n;

	if (fd == -1)
		return NULL;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return NULL;
	buf[n] = '\0';
	return xstrdup(buf);
}

/* Files in dir (temporary ones would show up). */
static int
count_files(const char *dir)
{
	DIR		*d = opendir(dir);
	struct dirent	*e;
	int		 n = 0;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

static void
test_write_atomic(void **state)
{
	char		*dir = tmpdir(), *path, *text;
	struct stat	 st;

	(void)state;
	xasprintf(&path, "%s/feed.xml", dir);
	assert_int_equal(file_write_atomic(path, "one", 3, 0644), 0);
	assert_int_equal(file_write_atomic(path, "second", 6, 0600), 0);
	text = slurp(path);
	assert_string_equal(text, "second");
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(count_files(dir), 1);	/* no temporary left */
	free(text);
	free(path);
	rmtree(dir);
	free(dir);
}

/* A target replaced by a symlink: the link is replaced, not followed. */
static void
test_write_atomic_symlink(void **state)
{
	char	*dir = tmpdir(), *path, *victim, *text;

	(void)state;
	xasprintf(&path, "%s/feed.xml", dir);
	xasprintf(&victim, "%s/victim", dir);
	assert_int_equal(file_write_atomic(victim, "precious", 8, 0600), 0);
	assert_int_equal(symlink(victim, path), 0);
	assert_int_equal(file_write_atomic(path, "feed", 4, 0644), 0);
	text = slurp(victim);
	assert_string_equal(text, "precious");
	free(text);
	text = slurp(path);
	assert_string_equal(text, "feed");
	free(text);
	free(path);
	free(victim);
	rmtree(dir);
	free(dir);
}

static void
test_abort_leaves_nothing(void **state)
{
	struct file_atomic	 af;
	char			*dir = tmpdir(), *path;

	(void)state;
	xasprintf(&path, "%s/journal", dir);
	assert_int_equal(file_atomic_open(&af, path, 0600), 0);
	assert_int_equal(file_pwrite_all(af.fd, "abc", 3, 0), 0);
	file_atomic_abort(&af);
	assert_int_equal(count_files(dir), 0);
	assert_int_equal(af.fd, -1);
	free(path);
	rmtree(dir);
	free(dir);
}

static void
test_mkdirs(void **state)
{
	char	*dir = tmpdir(), *deep, *file, *under;

	(void)state;
	xasprintf(&deep, "%s/a/b/c", dir);
	xasprintf(&file, "%s/plain", dir);
	xasprintf(&under, "%s/plain/x", dir);
	assert_int_equal(file_mkdirs(deep, 0755), 0);
	assert_int_equal(file_mkdirs(deep, 0755), 0);	/* exists: fine */
	assert_int_equal(file_write_atomic(file, "x", 1, 0644), 0);
	errno = 0;
	assert_int_equal(file_mkdirs(under, 0755), -1);
	assert_int_equal(errno, ENOTDIR);
	errno = 0;
	assert_int_equal(file_mkdirs(file, 0755), -1);
	assert_int_equal(errno, ENOTDIR);
	/* an empty path (an empty --output-dir=) is an error, not a read
	 * past its end */
	errno = 0;
	assert_int_equal(file_mkdirs("", 0755), -1);
	assert_int_equal(errno, ENOENT);
	free(deep);
	free(file);
	free(under);
	rmtree(dir);
	free(dir);
}

static const struct utf8_case {
	const char	*s;
	size_t		 len;
	int		 valid;
} utf8_cases[] = {
	{ "plain", 5, 1 },
	{ "caf\xc3\xa9", 5, 1 },
	{ "\xe2\x82\xac", 3, 1 },		/* euro sign */
	{ "\xf0\x9f\x8e\x99", 4, 1 },		/* U+1F399 */
	{ "\xf4\x8f\xbf\xbf", 4, 1 },		/* U+10FFFF */
	{ "\xff", 1, 0 },
	{ "\xc0\xaf", 2, 0 },			/* overlong '/' */
	{ "\xe0\x80\xaf", 3, 0 },		/* overlong */
	{ "\xed\xa0\x80", 3, 0 },		/* surrogate */
	{ "\xf4\x90\x80\x80", 4, 0 },		/* past U+10FFFF */
	{ "\xe2\x82", 2, 0 },			/* cut short */
	{ "\x80", 1, 0 },			/* stray continuation */
	{ "a\0b", 3, 0 },			/* NUL */
};

static void
test_utf8(void **state)
{
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof(utf8_cases) / sizeof(utf8_cases[0]); i++)
		if (utf8_valid(utf8_cases[i].s, utf8_cases[i].len) !=
		    utf8_cases[i].valid)
			fail_msg("utf8 case %zu", i);
}

/* Folders file_mkdirs makes get the mode asked, whatever the umask. */
static void
test_mkdirs_mode(void **state)
{
	char		*d = tmpdir(), *p;
	struct stat	 st;
	mode_t		 old;

	xasprintf(&p, "%s/a/b", d);
	old = umask(077);
	assert_int_equal(file_mkdirs(p, 0755), 0);
	umask(old);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0755);
	free(p);
	rmtree(d);
	free(d);
}

/*
 * file_dir_open: each component of rel opened without following a
 * symlink; the base is followed. Layout: BASE/real/sub, BASE/link ->
 * OTHER, BASE/real/sublink -> OTHER, BASE/file, BASE/base-link -> BASE.
 */
static const struct dir_case {
	const char	*rel;
	int		 create;
	int		 err;		/* 0: opened */
} dir_cases[] = {
	{ "real", 0, 0 },
	{ "real/sub", 0, 0 },
	{ "link", 0, ELOOP },
	{ "link", 1, ELOOP },
	{ "link/sub", 1, ELOOP },
	{ "real/sublink", 0, ELOOP },
	{ "real/sublink", 1, ELOOP },
	{ "file", 0, ENOTDIR },
	{ "file", 1, ENOTDIR },
	{ "missing", 0, ENOENT },
	{ "made/here", 1, 0 },
	{ "..", 1, EINVAL },
	{ "real/..", 0, EINVAL },
	{ "real//sub", 1, EINVAL },
	{ "", 1, EINVAL },
	{ ".", 0, EINVAL },
};

static void
test_dir_open(void **state)
{
	char		*base = tmpdir(), *other = tmpdir(), *p, *q;
	struct stat	 st;
	size_t		 i;
	int		 fd;
	mode_t		 old;

	xasprintf(&p, "%s/real/sub", base);
	assert_int_equal(file_mkdirs(p, 0755), 0);
	free(p);
	xasprintf(&p, "%s/link", base);
	assert_int_equal(symlink(other, p), 0);
	free(p);
	xasprintf(&p, "%s/real/sublink", base);
	assert_int_equal(symlink(other, p), 0);
	free(p);
	xasprintf(&p, "%s/file", base);
	assert_int_equal(file_write_atomic(p, "x", 1, 0644), 0);
	free(p);

	for (i = 0; i < sizeof(dir_cases) / sizeof(dir_cases[0]); i++) {
		errno = 0;
		old = umask(077);
		fd = file_dir_open(base, dir_cases[i].rel, dir_cases[i].create,
		    0755);
		umask(old);
		if (dir_cases[i].err == 0 && fd == -1)
			fail_msg("\"%s\": %s", dir_cases[i].rel, strerror(errno));
		if (dir_cases[i].err != 0 && (fd != -1 ||
		    errno != dir_cases[i].err))
			fail_msg("\"%s\": fd %d, errno %s, want %s",
			    dir_cases[i].rel, fd, strerror(errno),
			    strerror(dir_cases[i].err));
		if (fd != -1)
			close(fd);
	}
	/* nothing was made through the links */
	assert_int_equal(count_files(other), 0);
	/* what was made has its mode, whatever the umask */
	xasprintf(&p, "%s/made", base);
	xasprintf(&q, "%s/made/here", base);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0755);
	assert_int_equal(stat(q, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0755);
	free(p);
	free(q);

	/* the base itself is the operator's: followed */
	xasprintf(&p, "%s/base-link", other);
	assert_int_equal(symlink(base, p), 0);
	fd = file_dir_open(p, "real", 0, 0755);
	assert_true(fd != -1);
	close(fd);
	free(p);

	rmtree(base);
	rmtree(other);
	free(base);
	free(other);
}

/*
 * file_write_atomicat: the name is one component; a symlink at the
 * target is replaced, never written through; modes whatever the umask.
 */
static void
test_write_atomicat(void **state)
{
	char		*d = tmpdir(), *other = tmpdir(), *p, *t, *s;
	struct file_atomic af;
	struct stat	 st;
	int		 fd;
	mode_t		 old;

	fd = file_dir_open(d, "r", 1, 0755);
	assert_true(fd != -1);
	xasprintf(&t, "%s/precious", other);
	assert_int_equal(file_write_atomic(t, "keep", 4, 0600), 0);
	xasprintf(&p, "%s/r/feed.xml", d);
	assert_int_equal(symlink(t, p), 0);

	old = umask(077);
	assert_int_equal(file_write_atomicat(fd, "feed.xml", "new", 3, 0644),
	    0);
	umask(old);
	assert_int_equal(lstat(p, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0644);
	s = slurp(p);
	assert_string_equal(s, "new");
	free(s);
	s = slurp(t);
	assert_string_equal(s, "keep");
	free(s);

	/* a name with a '/' could go through a link: EINVAL */
	errno = 0;
	assert_int_equal(file_atomic_openat(&af, fd, "../escape", 0644), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(af.fd, -1);
	errno = 0;
	assert_int_equal(file_write_atomicat(fd, "a/b", "x", 1, 0644), -1);
	assert_int_equal(errno, EINVAL);

	/* an abort removes the temporary file from the folder */
	assert_int_equal(file_atomic_openat(&af, fd, "gone", 0644), 0);
	file_atomic_abort(&af);
	xasprintf(&s, "%s/r", d);
	assert_int_equal(count_files(s), 1);
	free(s);

	close(fd);
	free(p);
	free(t);
	rmtree(d);
	rmtree(other);
	free(d);
	free(other);
}

/*
 * file_realpath: one answer for every spelling of a folder, existing or
 * not yet made: trailing slashes, ".", "..", symlinks before or after a
 * missing part.
 */
static const struct {
	const char	*path;		/* under the test folder */
	const char	*want;		/* ditto */
} realpath_cases[] = {
	{ "d", "d" },
	{ "d/", "d" },
	{ "d//sub/.", "d/sub" },
	{ "d/sub/..", "d" },
	{ "d/sub/../../d", "d" },
	{ "link", "d" },
	{ "link/", "d" },
	{ "link/sub", "d/sub" },
	{ "link/missing/x/", "d/missing/x" },
	{ "d/missing/../sub", "d/sub" },
	{ "missing/../link/sub", "d/sub" },
	{ "linksub/..", "d" },		/* the physical parent */
	{ "d/sub/../../link", "d" },
	{ "missing", "missing" },
};

static void
test_realpath(void **state)
{
	char	*tmp = tmpdir(), *base, *p, *want, *got, *cwd;
	size_t	 i;

	assert_non_null(base = realpath(tmp, NULL));
	xasprintf(&p, "%s/d/sub", base);
	assert_int_equal(file_mkdirs(p, 0700), 0);
	free(p);
	xasprintf(&p, "%s/link", base);
	assert_int_equal(symlink("d", p), 0);
	free(p);
	xasprintf(&p, "%s/linksub", base);
	assert_int_equal(symlink("d/sub", p), 0);
	free(p);
	for (i = 0; i < sizeof(realpath_cases) / sizeof(realpath_cases[0]);
	    i++) {
		xasprintf(&p, "%s/%s", tmp, realpath_cases[i].path);
		xasprintf(&want, "%s/%s", base, realpath_cases[i].want);
		if ((got = file_realpath(p)) == NULL)
			fail_msg("%s: %s", p, strerror(errno));
		if (strcmp(got, want) != 0)
			fail_msg("%s: got %s, want %s", realpath_cases[i].path,
			    got, want);
		free(got);
		free(want);
		free(p);
	}
	/* relative to the working folder */
	assert_non_null(cwd = getcwd(NULL, 0));
	assert_int_equal(chdir(base), 0);
	got = file_realpath("link/./");
	xasprintf(&want, "%s/d", base);
	assert_string_equal(got, want);
	free(got);
	free(want);
	got = file_realpath("..");
	assert_non_null(got);
	assert_int_equal(chdir(cwd), 0);
	p = realpath(base, NULL);
	assert_true(file_path_within(p, got));
	free(p);
	free(got);
	free(cwd);
	assert_null(file_realpath(""));

	assert_true(file_path_within("/a/b", "/a"));
	assert_true(file_path_within("/a", "/a"));
	assert_true(file_path_within("/a", "/"));
	assert_false(file_path_within("/ab", "/a"));
	assert_false(file_path_within("/a", "/a/b"));
	rmtree(tmp);
	free(base);
	free(tmp);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_atomic),
		cmocka_unit_test(test_write_atomic_symlink),
		cmocka_unit_test(test_abort_leaves_nothing),
		cmocka_unit_test(test_mkdirs),
		cmocka_unit_test(test_mkdirs_mode),
		cmocka_unit_test(test_dir_open),
		cmocka_unit_test(test_write_atomicat),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_realpath),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
