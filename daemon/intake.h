/*
 * What a delivery keeps: its body turned into records by its handler,
 * and what is not ours to tell (other branches) marked ignored. Shared
 * by the webhook intake and hookcast-draft, so that a delivery read from
 * a folder keeps exactly what the same delivery over HTTP would.
 */
#ifndef HOOKCAST_INTAKE_H
#define HOOKCAST_INTAKE_H

#include <stddef.h>
#include <time.h>

#include "config.h"
#include "handler.h"

enum intake_status {
	INTAKE_OK,
	INTAKE_NOT_JSON,	/* not JSON, or not a JSON object */
	INTAKE_REFUSED,		/* JSON, but the handler refuses it */
};

/*
 * Turn a body into a handler result received at now: with the handler's
 * scanner when it has one (it reads only what it keeps, without building
 * a json_t), else json_loadb and the handler. INTAKE_OK, or another
 * status with *cause (new) saying why.
 */
enum intake_status intake_parse(const struct handler_entry *,
		    const char *text, size_t len, time_t now,
		    struct handler_result *, char **cause);
/*
 * Mark ignored (res->ignored, with res->note saying why) a push to a
 * branch, or a pull request merged into one, that the configuration
 * does not follow for its repository. known_default is the repository's
 * default branch as seen before, for a delivery that doesn't say it (or
 * NULL). Returns res->ignored.
 */
int		 intake_untracked(const struct config *,
		    struct handler_result *, const char *known_default);

#endif
