/*
 * What a commit's files say: docs, tests or build configuration, and the
 * area they share. No libevent, no jansson.
 */
#ifndef HOOKCAST_FILES_H
#define HOOKCAST_FILES_H

#include "record.h"

/* Whether a path is documentation ("docs/", "README", "*.md"). */
int		 files_docs(const char *path);
/* Whether a path is a test (build files in a test folder are build). */
int		 files_tests(const char *path);
/* Whether a path is CI or build configuration. */
int		 files_build(const char *path);
/* Whether every file of c passes pred (0 when there are no files). */
int		 files_all(const struct commit *, int (*pred)(const char *));
/*
 * The area a commit's files share (new string), or NULL: the most common
 * leading directory, tests and docs left out when other files are there,
 * one level down when it is the package's own directory.
 */
char		*files_area(const struct commit *, const char *repo);

#endif
