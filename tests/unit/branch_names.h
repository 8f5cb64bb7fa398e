/*
 * Branch names at the cap (PUSH_MAX_BRANCH, 255 bytes) and one byte over,
 * as string literals, for the tables of the handler and intake tests.
 */
#ifndef HOOKCAST_BRANCH_NAMES_H
#define HOOKCAST_BRANCH_NAMES_H

#include "handler.h"

#define BRANCH_16	"bbbbbbbbbbbbbbbb"
#define BRANCH_64	BRANCH_16 BRANCH_16 BRANCH_16 BRANCH_16
#define BRANCH_AT_CAP	BRANCH_64 BRANCH_64 BRANCH_64 BRANCH_16 BRANCH_16 \
			BRANCH_16 "bbbbbbbbbbbbbbb"
#define BRANCH_OVER_CAP	BRANCH_AT_CAP "b"

_Static_assert(sizeof(BRANCH_AT_CAP) - 1 == PUSH_MAX_BRANCH,
    "BRANCH_AT_CAP is not PUSH_MAX_BRANCH bytes");

/* The causes of a name over the cap, as a ref and as a default branch. */
#define BRANCH_REF_CAUSE	"ref: branch name longer than 255 bytes"
#define BRANCH_DEFAULT_CAUSE	"repository.default_branch: branch name " \
				"longer than 255 bytes"
/* ... and as a pull request's base.ref */
#define BRANCH_BASE_CAUSE	"pull_request.base.ref: branch name " \
				"longer than 255 bytes"

#endif
