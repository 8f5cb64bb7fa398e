/* Unit tests: handlers/handlers.c and handlers/ping.c */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "branch_names.h"
#include "handler.h"

#define CORPUS	TEST_DATA_DIR "/corpus"

static const struct {
	const char			*event;
	const struct handler_entry	*want;
} find_cases[] = {
	{ "push", &handler_push },
	{ "pull_request", &handler_pull_request },
	{ "ping", &handler_ping },
	{ "issues", NULL },
	{ "Push", NULL },
	{ "", NULL },
	{ NULL, NULL },
};

static void
test_handler_find(void **state)
{
	size_t	i;

	for (i = 0; i < sizeof(find_cases) / sizeof(find_cases[0]); i++) {
		if (handler_find(find_cases[i].event) != find_cases[i].want)
			fail_msg("\"%s\"", find_cases[i].event ?
			    find_cases[i].event : "(null)");
		if (find_cases[i].want != NULL)
			assert_string_equal(find_cases[i].want->event,
			    find_cases[i].event);
	}
}

static const struct {
	const char	*json;		/* or a corpus file when it has no '{' */
	const char	*repo;		/* NULL: none */
	const char	*cause;		/* NULL: accepted */
} ping_cases[] = {
	{ "octokit-examples/0001.json", "Octocoders/Hello-World", NULL },
	{ "octokit-examples/0004.json", NULL, NULL },	/* an org hook */
	{ "{}", NULL, NULL },
	{ "{\"zen\":\"Keep it logically awesome.\",\"hook_id\":1}", NULL,
	    NULL },
	{ "{\"zen\":null,\"hook_id\":null}", NULL, NULL },
	{ "{\"zen\":1}", NULL, "zen: expected a string" },
	{ "{\"hook_id\":\"1\"}", NULL, "hook_id: expected an integer" },
	{ "{\"repository\":\"x\"}", NULL, "repository: expected an object" },
	{ "{\"repository\":{\"full_name\":\"nope\"}}", NULL,
	    "repository.full_name: " },
	{ "{\"repository\":{\"full_name\":\"o/r\",\"default_branch\":"
	    "\"" BRANCH_AT_CAP "\"}}", "o/r", NULL },
	{ "{\"repository\":{\"full_name\":\"o/r\",\"default_branch\":"
	    "\"" BRANCH_OVER_CAP "\"}}", NULL, BRANCH_DEFAULT_CAUSE },
	{ "[]", NULL, "payload: expected an object" },
};

static void
test_ping_table(void **state)
{
	struct handler_result	 r;
	json_t			*j;
	char			 path[512], *cause;
	size_t			 i;
	int			 rv;

	for (i = 0; i < sizeof(ping_cases) / sizeof(ping_cases[0]); i++) {
		if (strchr(ping_cases[i].json, '{') == NULL &&
		    strchr(ping_cases[i].json, '[') == NULL) {
			snprintf(path, sizeof(path), CORPUS "/%s",
			    ping_cases[i].json);
			j = json_load_file(path, 0, NULL);
		} else
			j = json_loads(ping_cases[i].json, 0, NULL);
		assert_non_null(j);
		memset(&r, 0, sizeof(r));
		cause = NULL;
		rv = handler_ping.handle(j, 0, &r, &cause);
		json_decref(j);
		if (ping_cases[i].cause != NULL) {
			if (rv != -1 || cause == NULL || strncmp(cause,
			    ping_cases[i].cause,
			    strlen(ping_cases[i].cause)) != 0)
				fail_msg("case %zu: cause \"%s\"", i,
				    cause ? cause : "(null)");
			assert_null(r.note);
			free(cause);
			continue;
		}
		if (rv != 0)
			fail_msg("case %zu: %s", i, cause);
		assert_int_equal(r.ignored, 0);
		assert_string_equal(r.note, "pong");
		assert_null(r.pr);
		assert_null(r.push);
		assert_int_equal(r.ncommits, 0);
		if (ping_cases[i].repo == NULL)
			assert_null(r.repo);
		else
			assert_string_equal(r.repo, ping_cases[i].repo);
		handler_result_clear(&r);
	}
}

static void
test_handler_result_clear(void **state)
{
	struct handler_result	r;

	handler_result_clear(NULL);
	memset(&r, 0, sizeof(r));
	r.repo = strdup("o/r");
	r.note = strdup("n");
	r.commits = calloc(2, sizeof(*r.commits));
	r.ncommits = 2;
	r.commits[1].sha = strdup("x");
	r.pr = calloc(1, sizeof(*r.pr));
	r.pr->title = strdup("t");
	r.push = calloc(1, sizeof(*r.push));
	r.push->branch = strdup("main");
	handler_result_clear(&r);
	assert_null(r.repo);
	assert_null(r.commits);
	assert_int_equal(r.ncommits, 0);
	assert_null(r.pr);
	assert_null(r.push);
	/* twice is fine */
	handler_result_clear(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_handler_find),
		cmocka_unit_test(test_ping_table),
		cmocka_unit_test(test_handler_result_clear),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
