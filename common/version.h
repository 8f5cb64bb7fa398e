/*
 * What was built: the version (CMakeLists.txt's project(VERSION), as
 * HOOKCAST_VERSION), the git revision and the build date. The revision
 * and the date live in one object the build writes from version.c.in at
 * every build (cmake/version.cmake), so a commit recompiles that object
 * alone.
 */
#ifndef HOOKCAST_VERSION_H
#define HOOKCAST_VERSION_H

#include <stdio.h>

/* The short sha, with -dirty when the tree had changes; "unknown" outside git. */
extern const char	 version_revision[];
/* YYYY-MM-DD, UTC, from SOURCE_DATE_EPOCH when it was set. */
extern const char	 version_build_date[];

/* "PROGRAM VERSION (revision R, built DATE)" and a newline, to f. */
void	 version_print(FILE *f, const char *program);

#endif
