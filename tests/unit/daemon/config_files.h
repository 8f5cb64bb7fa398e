/*
 * The configuration tests' files: INI and secret files written in a
 * private directory, each path kept for the teardown (include after
 * cmocka.h; mkdtemp(test_dir) in the group setup).
 */
#ifndef HOOKCAST_TEST_CONFIG_FILES_H
#define HOOKCAST_TEST_CONFIG_FILES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_FILES	64

/* A private directory for the files of the tests. */
static char	 test_dir[] = "/tmp/hookcast-test-config.XXXXXX";
static char	*test_files[MAX_FILES];
static size_t	 test_nfiles;

/* Write contents to name in the test directory; the path is kept. */
static const char *
write_file(const char *name, const char *contents)
{
	char	*path;
	FILE	*f;
	size_t	 i;

	if (asprintf(&path, "%s/%s", test_dir, name) == -1)
		fail_msg("asprintf");
	if ((f = fopen(path, "w")) == NULL)
		fail_msg("%s: cannot create", path);
	fputs(contents, f);
	if (fclose(f) != 0)
		fail_msg("%s: cannot write", path);
	/* private, as secret files must be, whatever the umask */
	if (chmod(path, 0600) != 0)
		fail_msg("%s: cannot chmod", path);
	for (i = 0; i < test_nfiles; i++) {
		if (strcmp(test_files[i], path) == 0) {
			free(path);
			return test_files[i];
		}
	}
	if (test_nfiles == MAX_FILES)
		fail_msg("too many test files");
	test_files[test_nfiles++] = path;
	return path;
}

#endif
