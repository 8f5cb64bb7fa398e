/* Unit tests: handlers/pull_request.c */
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
#define NOW	((time_t)1774400000)

static json_t *
load(const char *path)
{
	json_error_t	 err;
	json_t		*j;

	j = json_load_file(path, 0, &err);
	if (j == NULL)
		fail_msg("%s: %s", path, err.text);
	return j;
}

static void
test_pull_request_merged(void **state)
{
	struct handler_result	 r;
	json_t			*j = load(CORPUS "/ao-2026-03-24/0001.json");
	char			*cause = NULL;

	memset(&r, 0, sizeof(r));
	assert_int_equal(handler_pull_request.handle(j, NOW, &r, &cause), 0);
	json_decref(j);
	assert_null(cause);
	assert_string_equal(r.repo, "pytorch/ao");
	assert_string_equal(r.default_branch, "main");
	assert_int_equal(r.ignored, 0);
	assert_int_equal(r.ncommits, 0);
	assert_null(r.push);
	assert_non_null(r.pr);
	assert_int_equal(r.pr->number, 4033);
	assert_string_equal(r.pr->title,
	    "[X86] Re-enable DA8W4 path on X86 CPU");
	assert_string_equal(r.pr->author_login, "xia-weiwen");
	assert_string_equal(r.pr->merge_sha,
	    "7825d9941e6e08da83122bd63a827bf3f9bf17c8");
	assert_string_equal(r.pr->branch, "main");
	/* 2026-03-24T05:11:03Z */
	assert_int_equal(r.pr->merged_at, 1774329063);
	assert_non_null(r.pr->body);
	assert_int_equal(strlen(r.pr->body), 367);
	handler_result_clear(&r);
	assert_null(r.pr);
}

/* GitHub's examples: none of them is a merge. */
static const struct {
	const char	*file;
	const char	*note;
} example_cases[] = {
	{ "0012.json", "action opened" },
	{ "0015.json", "closed without merge" },
	{ "0017.json", "action converted_to_draft" },
	{ "0025.json", "action opened" },	/* body is null */
	{ "0034.json", "action synchronize" },
	{ "0040.json", "action unlocked" },
};

static void
test_pull_request_ignored(void **state)
{
	struct handler_result	 r;
	json_t			*j;
	char			 path[512], *cause;
	size_t			 i;

	for (i = 0; i < sizeof(example_cases) / sizeof(example_cases[0]);
	    i++) {
		snprintf(path, sizeof(path), CORPUS "/octokit-examples/%s",
		    example_cases[i].file);
		j = load(path);
		memset(&r, 0, sizeof(r));
		cause = NULL;
		if (handler_pull_request.handle(j, NOW, &r, &cause) != 0)
			fail_msg("%s: %s", path, cause);
		json_decref(j);
		assert_int_equal(r.ignored, 1);
		assert_null(r.pr);
		assert_string_equal(r.repo, "Codertocat/Hello-World");
		assert_non_null(r.note);
		if (strcmp(r.note, example_cases[i].note) != 0)
			fail_msg("%s: note \"%s\"", path, r.note);
		handler_result_clear(&r);
	}
}

static const char good_pr[] =
    "{\"action\":\"closed\",\"number\":7,"
    "\"repository\":{\"full_name\":\"o/r\",\"default_branch\":\"main\"},"
    "\"pull_request\":{\"number\":7,\"title\":\"Fix a leak\","
    "\"user\":{\"login\":\"alice\"},\"merged\":true,"
    "\"merged_at\":\"2026-03-24T07:11:03+02:00\","
    "\"merge_commit_sha\":\"7825d9941e6e08da83122bd63a827bf3f9bf17c8\","
    "\"body\":null,\"base\":{\"ref\":\"release/1.0\"}}}";

static const struct {
	const char	*path;		/* "" or "pull_request" or a sub-object */
	const char	*key;
	const char	*value;		/* JSON, or NULL to delete */
	const char	*cause;		/* NULL: accepted */
	int		 ignored;
	const char	*note;
} pr_cases[] = {
	{ "", "action", NULL, "action: missing", 0, NULL },
	{ "", "action", "3", "action: expected a string", 0, NULL },
	{ "", "repository", NULL, "repository: missing", 0, NULL },
	{ "repository", "full_name", "\"x\"", "repository.full_name: ", 0,
	    NULL },
	{ "", "pull_request", NULL, "pull_request: missing", 0, NULL },
	{ "", "pull_request", "[]", "pull_request: expected an object", 0,
	    NULL },
	{ "pull_request", "number", NULL, "pull_request.number: missing", 0,
	    NULL },
	{ "pull_request", "number", "\"7\"",
	    "pull_request.number: expected an integer", 0, NULL },
	{ "pull_request", "number", "0", "pull_request.number: ", 0, NULL },
	{ "pull_request", "title", NULL, "pull_request.title: missing", 0,
	    NULL },
	{ "pull_request", "user", NULL, "pull_request.user: missing", 0, NULL },
	{ "pull_request.user", "login", "null",
	    "pull_request.user.login: expected a string", 0, NULL },
	{ "pull_request", "merged", "\"true\"",
	    "pull_request.merged: expected a boolean", 0, NULL },
	{ "pull_request", "merged_at", "\"soon\"",
	    "pull_request.merged_at: ", 0, NULL },
	{ "pull_request", "merge_commit_sha", "1",
	    "pull_request.merge_commit_sha: expected a string", 0, NULL },
	{ "pull_request", "body", "{}",
	    "pull_request.body: expected a string", 0, NULL },
	{ "pull_request", "base", NULL, "pull_request.base: missing", 0,
	    NULL },
	{ "pull_request.base", "ref", NULL, "pull_request.base.ref: missing",
	    0, NULL },
	{ "repository", "default_branch", "\"" BRANCH_OVER_CAP "\"",
	    BRANCH_DEFAULT_CAUSE, 0, NULL },
	{ "pull_request.base", "ref", "\"" BRANCH_OVER_CAP "\"",
	    BRANCH_BASE_CAUSE, 0, NULL },
	/* accepted */
	{ "", "number", NULL, NULL, 0, "merged" },
	{ "pull_request", "merged", "false", NULL, 1,
	    "closed without merge" },
	{ "pull_request", "merged", NULL, NULL, 1, "closed without merge" },
	{ "", "action", "\"reopened\"", NULL, 1, "action reopened" },
	{ "", "action", "\"Weird\\nAction!\"", NULL, 1, "action ?eird??ction?" },
	{ "repository", "default_branch", NULL, NULL, 0, "merged" },
	{ "repository", "default_branch", "\"" BRANCH_AT_CAP "\"", NULL, 0,
	    "merged" },
};

static json_t *
walk(json_t *root, const char *path)
{
	char	*copy, *part, *last = NULL;
	json_t	*j = root;

	copy = strdup(path);
	for (part = strtok_r(copy, ".", &last); part != NULL && j != NULL;
	    part = strtok_r(NULL, ".", &last))
		j = json_object_get(j, part);
	free(copy);
	return j;
}

static void
test_pull_request_table(void **state)
{
	struct handler_result	 r;
	json_t			*j, *at;
	char			*cause;
	size_t			 i;

	for (i = 0; i < sizeof(pr_cases) / sizeof(pr_cases[0]); i++) {
		assert_non_null(j = json_loads(good_pr, 0, NULL));
		assert_non_null(at = walk(j, pr_cases[i].path));
		if (pr_cases[i].value == NULL)
			assert_int_equal(json_object_del(at, pr_cases[i].key),
			    0);
		else
			json_object_set_new(at, pr_cases[i].key, json_loads(
			    pr_cases[i].value, JSON_DECODE_ANY, NULL));
		memset(&r, 0, sizeof(r));
		cause = NULL;
		if (pr_cases[i].cause != NULL) {
			if (handler_pull_request.handle(j, NOW, &r,
			    &cause) != -1)
				fail_msg("case %zu: accepted", i);
			if (cause == NULL || strncmp(cause, pr_cases[i].cause,
			    strlen(pr_cases[i].cause)) != 0)
				fail_msg("case %zu: cause \"%s\", want "
				    "\"%s...\"", i, cause ? cause : "(null)",
				    pr_cases[i].cause);
			assert_null(r.repo);
			assert_null(r.pr);
			free(cause);
		} else {
			if (handler_pull_request.handle(j, NOW, &r,
			    &cause) != 0)
				fail_msg("case %zu: %s", i, cause);
			assert_int_equal(r.ignored, pr_cases[i].ignored);
			if (strcmp(r.note, pr_cases[i].note) != 0)
				fail_msg("case %zu: note \"%s\"", i, r.note);
			if (!r.ignored) {
				assert_int_equal(r.pr->number, 7);
				assert_string_equal(r.pr->branch,
				    "release/1.0");
				assert_null(r.pr->body);
				/* 05:11:03Z */
				assert_int_equal(r.pr->merged_at, 1774329063);
			} else
				assert_null(r.pr);
			handler_result_clear(&r);
		}
		json_decref(j);
	}
}

/* A merged PR without merged_at is dated by its receipt. */
static void
test_pull_request_no_merged_at(void **state)
{
	struct handler_result	 r;
	json_t			*j = json_loads(good_pr, 0, NULL);
	char			*cause = NULL;

	json_object_set_new(json_object_get(j, "pull_request"), "merged_at",
	    json_null());
	memset(&r, 0, sizeof(r));
	assert_int_equal(handler_pull_request.handle(j, NOW, &r, &cause), 0);
	assert_int_equal(r.pr->merged_at, NOW);
	handler_result_clear(&r);
	json_decref(j);
}

/*
 * A body is cut to MERGED_PR_MAX_BODY (64 KiB), and not inside a UTF-8
 * sequence.
 */
static void
test_pull_request_body_cap(void **state)
{
	struct handler_result	 r;
	json_t			*j = json_loads(good_pr, 0, NULL);
	char			*body, *cause = NULL;
	size_t			 n = 70000, i;

	body = malloc(n + 1);
	body[0] = 'x';
	for (i = 1; i + 1 < n; i += 2) {
		body[i] = (char)0xc3;	/* e-acute, two bytes */
		body[i + 1] = (char)0xa9;
	}
	body[i] = '\0';
	json_object_set_new(json_object_get(j, "pull_request"), "body",
	    json_string(body));
	free(body);
	memset(&r, 0, sizeof(r));
	assert_int_equal(handler_pull_request.handle(j, NOW, &r, &cause), 0);
	assert_non_null(r.pr->body);
	n = strlen(r.pr->body);
	assert_true(n <= MERGED_PR_MAX_BODY);
	assert_true(n >= MERGED_PR_MAX_BODY - 1);
	/* ends on a whole character */
	assert_int_equal((unsigned char)r.pr->body[n - 1], 0xa9);
	handler_result_clear(&r);
	json_decref(j);
}

/*
 * A title up to MERGED_PR_MAX_TITLE bytes is kept whole; a longer one is
 * refused at intake (GitHub's titles never are: 256 characters at most).
 * Replay cuts an old journal's longer title (test_jrecord).
 */
static void
test_pull_request_title_cap(void **state)
{
	static const struct {
		const char	*unit;
		size_t		 n;
		size_t		 want;
	} cases[] = {
		{ "t", MERGED_PR_MAX_TITLE - 1, MERGED_PR_MAX_TITLE - 1 },
		{ "t", MERGED_PR_MAX_TITLE, MERGED_PR_MAX_TITLE },
		{ "t", MERGED_PR_MAX_TITLE + 1, MERGED_PR_MAX_TITLE },
		{ "tt ", 342, 1022 },		/* 1026 bytes, blank at 1025 */
		{ "words ", 300, 1019 },
		{ "\xf0\x9f\x98\x80", 300, 1024 },
		{ "x\xf0\x9f\x98\x80", 300, 1021 },	/* x at 1020 */
		{ "t", 2 * 1024 * 1024, MERGED_PR_MAX_TITLE },
	};
	struct handler_result	 r;
	json_t			*j = json_loads(good_pr, 0, NULL);
	char			*title, *cause = NULL;
	size_t			 i, k, ulen;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ulen = strlen(cases[i].unit);
		title = malloc(ulen * cases[i].n + 1);
		for (k = 0; k < cases[i].n; k++)
			memcpy(title + k * ulen, cases[i].unit, ulen);
		title[ulen * cases[i].n] = '\0';
		json_object_set_new(json_object_get(j, "pull_request"),
		    "title", json_string(title));
		memset(&r, 0, sizeof(r));
		if (strlen(title) > MERGED_PR_MAX_TITLE) {
			/* intake refuses it whole (replay would cut it) */
			assert_int_equal(handler_pull_request.handle(j, NOW, &r,
			    &cause), -1);
			assert_non_null(strstr(cause, "pull_request.title"));
			free(cause);
			cause = NULL;
			handler_result_clear(&r);
			free(title);
			continue;
		}
		assert_int_equal(handler_pull_request.handle(j, NOW, &r,
		    &cause), 0);
		if (strlen(r.pr->title) != cases[i].want ||
		    strncmp(r.pr->title, title, cases[i].want) != 0)
			fail_msg("case %zu: a title of %zu bytes kept as %zu, "
			    "want the first %zu", i, strlen(title),
			    strlen(r.pr->title), cases[i].want);
		handler_result_clear(&r);
		free(title);
	}
	json_decref(j);
}

/*
 * A default branch of 255 bytes is kept whole; one of 256 is refused,
 * whatever the action (it would be kept with the delivery all the same).
 */
static void
test_pull_request_default_branch_cap(void **state)
{
	struct handler_result	 r;
	json_t			*j = json_loads(good_pr, 0, NULL);
	json_t			*repo = json_object_get(j, "repository");
	char			*cause = NULL;

	json_object_set_new(repo, "default_branch", json_string(BRANCH_AT_CAP));
	memset(&r, 0, sizeof(r));
	assert_int_equal(handler_pull_request.handle(j, NOW, &r, &cause), 0);
	assert_string_equal(r.default_branch, BRANCH_AT_CAP);
	handler_result_clear(&r);

	json_object_set_new(repo, "default_branch",
	    json_string(BRANCH_OVER_CAP));
	assert_int_equal(handler_pull_request.handle(j, NOW, &r, &cause), -1);
	assert_string_equal(cause, BRANCH_DEFAULT_CAUSE);
	free(cause);
	json_object_set_new(j, "action", json_string("opened"));
	cause = NULL;
	assert_int_equal(handler_pull_request.handle(j, NOW, &r, &cause), -1);
	assert_string_equal(cause, BRANCH_DEFAULT_CAUSE);
	free(cause);
	assert_null(r.repo);
	assert_null(r.default_branch);
	json_decref(j);
}

/*
 * A base ref of 255 bytes is kept whole as the PR's branch; one of 256 is
 * refused, whatever the action. jansson decodes the payload, so bytes are
 * counted after the escapes: 253 b's and an escaped e-acute (two bytes)
 * are 255, 254 b's and one are 256.
 */
static void
test_pull_request_base_ref_cap(void **state)
{
	static const char	*at_cap[] = {
		"\"" BRANCH_AT_CAP "\"",
		"\"" BRANCH_64 BRANCH_64 BRANCH_64 BRANCH_16 BRANCH_16 BRANCH_16
		    "bbbbbbbbbbbbb\\u00e9\"",
		"\"" BRANCH_64 BRANCH_64 BRANCH_64 BRANCH_16 BRANCH_16 BRANCH_16
		    "bbbbbbbbbbbbb\xc3\xa9\"",
	};
	static const char	*over_cap[] = {
		"\"" BRANCH_OVER_CAP "\"",
		"\"" BRANCH_64 BRANCH_64 BRANCH_64 BRANCH_16 BRANCH_16 BRANCH_16
		    "bbbbbbbbbbbbbb\\u00e9\"",
		"\"" BRANCH_64 BRANCH_64 BRANCH_64 BRANCH_16 BRANCH_16 BRANCH_16
		    "bbbbbbbbbbbbbb\xc3\xa9\"",
	};
	struct handler_result	 r;
	json_t			*j, *base, *ref;
	char			*cause;
	size_t			 i;

	for (i = 0; i < sizeof(at_cap) / sizeof(at_cap[0]); i++) {
		assert_non_null(j = json_loads(good_pr, 0, NULL));
		base = json_object_get(json_object_get(j, "pull_request"),
		    "base");
		assert_non_null(ref = json_loads(at_cap[i], JSON_DECODE_ANY,
		    NULL));
		assert_int_equal(strlen(json_string_value(ref)),
		    PUSH_MAX_BRANCH);
		json_object_set_new(base, "ref", ref);
		memset(&r, 0, sizeof(r));
		cause = NULL;
		if (handler_pull_request.handle(j, NOW, &r, &cause) != 0)
			fail_msg("at cap %zu: %s", i, cause);
		assert_non_null(r.pr);
		assert_int_equal(strlen(r.pr->branch), PUSH_MAX_BRANCH);
		assert_string_equal(r.pr->branch, json_string_value(ref));
		handler_result_clear(&r);
		json_decref(j);
	}
	for (i = 0; i < sizeof(over_cap) / sizeof(over_cap[0]); i++) {
		assert_non_null(j = json_loads(good_pr, 0, NULL));
		base = json_object_get(json_object_get(j, "pull_request"),
		    "base");
		assert_non_null(ref = json_loads(over_cap[i], JSON_DECODE_ANY,
		    NULL));
		assert_int_equal(strlen(json_string_value(ref)),
		    PUSH_MAX_BRANCH + 1);
		json_object_set_new(base, "ref", ref);
		memset(&r, 0, sizeof(r));
		cause = NULL;
		assert_int_equal(handler_pull_request.handle(j, NOW, &r,
		    &cause), -1);
		assert_string_equal(cause, BRANCH_BASE_CAUSE);
		free(cause);
		/* not merged: refused all the same */
		json_object_set_new(j, "action", json_string("opened"));
		cause = NULL;
		assert_int_equal(handler_pull_request.handle(j, NOW, &r,
		    &cause), -1);
		assert_string_equal(cause, BRANCH_BASE_CAUSE);
		free(cause);
		assert_null(r.repo);
		assert_null(r.pr);
		json_decref(j);
	}
}

/* A string of n bytes: 'x', then two-byte e-acutes, then 'x' if odd. */
static char *
pr_string(size_t n)
{
	char	*s = malloc(n + 1);
	size_t	 i = 0;

	if (n % 2 == 1)
		s[i++] = 'x';
	for (; i < n; i += 2) {
		s[i] = (char)0xc3;
		s[i + 1] = (char)0xa9;
	}
	s[n] = '\0';
	return s;
}

/*
 * The title (1024 bytes) and the author's login (255 bytes) are kept whole
 * at their caps; a byte more is refused, whatever the action.
 */
static void
test_pull_request_title_login_cap(void **state)
{
	static const struct {
		const char	*path;
		const char	*key;
		size_t		 max;
		const char	*cause;
	} caps[] = {
		{ "pull_request", "title", 1024,
		    "pull_request.title: longer than 1024 bytes" },
		{ "pull_request.user", "login", 255,
		    "pull_request.user.login: longer than 255 bytes" },
	};
	struct handler_result	 r;
	json_t			*j;
	char			*s, *cause;
	const char		*kept;
	size_t			 i;

	for (i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		assert_non_null(j = json_loads(good_pr, 0, NULL));
		s = pr_string(caps[i].max);
		json_object_set_new(walk(j, caps[i].path), caps[i].key,
		    json_string(s));
		memset(&r, 0, sizeof(r));
		cause = NULL;
		if (handler_pull_request.handle(j, NOW, &r, &cause) != 0)
			fail_msg("%s at cap: %s", caps[i].key, cause);
		kept = i == 0 ? r.pr->title : r.pr->author_login;
		assert_string_equal(kept, s);
		handler_result_clear(&r);
		free(s);

		s = pr_string(caps[i].max + 1);
		json_object_set_new(walk(j, caps[i].path), caps[i].key,
		    json_string(s));
		free(s);
		cause = NULL;
		assert_int_equal(handler_pull_request.handle(j, NOW, &r,
		    &cause), -1);
		assert_string_equal(cause, caps[i].cause);
		free(cause);
		json_object_set_new(j, "action", json_string("opened"));
		cause = NULL;
		assert_int_equal(handler_pull_request.handle(j, NOW, &r,
		    &cause), -1);
		assert_string_equal(cause, caps[i].cause);
		free(cause);
		assert_null(r.repo);
		assert_null(r.pr);
		json_decref(j);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pull_request_merged),
		cmocka_unit_test(test_pull_request_ignored),
		cmocka_unit_test(test_pull_request_table),
		cmocka_unit_test(test_pull_request_no_merged_at),
		cmocka_unit_test(test_pull_request_body_cap),
		cmocka_unit_test(test_pull_request_title_cap),
		cmocka_unit_test(test_pull_request_default_branch_cap),
		cmocka_unit_test(test_pull_request_base_ref_cap),
		cmocka_unit_test(test_pull_request_title_login_cap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
