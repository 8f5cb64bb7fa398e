/* Unit tests: handlers/push.c */
#include <dirent.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "handler.h"
#include "push_cases.h"

#define CORPUS	TEST_DATA_DIR "/corpus"
#define NOW	((time_t)1770940000)

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
test_push_real_revert(void **state)
{
	struct handler_result	 r;
	const struct commit	*c;
	json_t			*j = load(CORPUS "/ao-2026-02-12/0006.json");
	char			*cause = NULL, hex[PUSH_HEX_LEN + 1];

	memset(&r, 0, sizeof(r));
	assert_int_equal(handler_push.handle(j, NOW, &r, &cause), 0);
	json_decref(j);
	assert_null(cause);
	assert_string_equal(r.repo, "pytorch/ao");
	assert_string_equal(r.default_branch, "main");
	assert_int_equal(r.ignored, 0);
	assert_null(r.pr);

	assert_non_null(r.push);
	assert_string_equal(r.push->branch, "main");
	push_id_hex(r.push->before, hex);
	assert_string_equal(hex, "475f336306a7dbdac281cf4c603fecd1c8bf6747");
	push_id_hex(r.push->after, hex);
	assert_string_equal(hex, "a823aa62e765cb4d05e6a92750548cba5bf4a5ba");
	assert_string_equal(r.push->pusher, "jacob-szwejbka");
	assert_int_equal(r.push->forced, 0);
	assert_int_equal(r.push->created, 0);
	assert_int_equal(r.push->deleted, 0);
	assert_int_equal(r.push->ncommits, 1);
	assert_int_equal(r.push->at, NOW);

	assert_int_equal(r.ncommits, 1);
	c = &r.commits[0];
	assert_string_equal(c->sha, "a823aa62e765cb4d05e6a92750548cba5bf4a5ba");
	assert_string_equal(c->author_name, "Jacob Szwejbka");
	assert_string_equal(c->author_login, "jacob-szwejbka");
	assert_string_equal(c->author_email, "jakeszwe@fb.com");
	assert_string_equal(c->committer_name, "GitHub");
	assert_string_equal(c->committer_login, "web-flow");
	/* 2026-02-12T11:59:16-08:00 */
	assert_int_equal(c->timestamp, 1770926356);
	assert_string_equal(c->subject,
	    "Revert \"LowBitPacking kernels on x86 (#3807)\" (#3875)");
	assert_string_equal(c->body, "This reverts commit "
	    "ff9397d52bd4417bbe2039b06ee34f3ce2d39525.");
	assert_string_equal(c->branch, "main");
	assert_int_equal(c->nadded, 0);
	assert_int_equal(c->nremoved, 2);
	assert_int_equal(c->nmodified, 7);
	assert_string_equal(c->removed[1], "torchao/csrc/cpu/torch_free_kernels/"
	    "fallback/embedding/embedding.h");
	assert_int_equal(c->revert.is_revert, 1);
	assert_string_equal(c->revert.reverted_sha,
	    "ff9397d52bd4417bbe2039b06ee34f3ce2d39525");
	assert_string_equal(c->revert.reverted_subject,
	    "LowBitPacking kernels on x86 (#3807)");
	assert_int_equal(c->reverts_idx, -1);
	assert_int_equal(c->reverted_by_idx, -1);
	handler_result_clear(&r);
	assert_null(r.commits);
}

static void
test_push_real_curl(void **state)
{
	struct handler_result	 r;
	json_t			*j = load(CORPUS "/curl-2026-06-01/0003.json");
	char			*cause = NULL;

	memset(&r, 0, sizeof(r));
	assert_int_equal(handler_push.handle(j, NOW, &r, &cause), 0);
	json_decref(j);
	assert_string_equal(r.repo, "curl/curl");
	assert_string_equal(r.push->branch, "master");
	assert_string_equal(r.push->pusher, "daniel-stenberg");
	assert_int_equal(r.ncommits, 1);
	/* 2026-06-01T09:28:31+02:00 */
	assert_int_equal(r.commits[0].timestamp, 1780298911);
	assert_int_equal(r.commits[0].revert.is_revert, 1);
	assert_string_equal(r.commits[0].revert.reason,
	    "This needs some further work before we can do this.");
	handler_result_clear(&r);
}

static const struct {
	const char	*file;
	int		 ignored;
	const char	*note;
	size_t		 ncommits;
	int		 created, deleted;
} example_cases[] = {
	{ "octokit-examples/0005.json", 1, "tag push", 0, 1, 0 },
	{ "octokit-examples/0006.json", 1, "tag push", 0, 0, 1 },
	{ "octokit-examples/0009.json", 0, NULL, 1, 1, 0 },
};

static void
test_push_examples(void **state)
{
	struct handler_result	 r;
	json_t			*j;
	char			 path[512], *cause;
	size_t			 i;

	for (i = 0; i < sizeof(example_cases) / sizeof(example_cases[0]);
	    i++) {
		snprintf(path, sizeof(path), CORPUS "/%s", example_cases[i].file);
		j = load(path);
		memset(&r, 0, sizeof(r));
		cause = NULL;
		if (handler_push.handle(j, NOW, &r, &cause) != 0)
			fail_msg("%s: %s", path, cause);
		json_decref(j);
		assert_string_equal(r.repo, "Codertocat/Hello-World");
		assert_int_equal(r.ignored, example_cases[i].ignored);
		assert_int_equal(r.ncommits, example_cases[i].ncommits);
		if (example_cases[i].note != NULL)
			assert_string_equal(r.note, example_cases[i].note);
		if (!example_cases[i].ignored) {
			assert_non_null(r.push);
			assert_string_equal(r.push->branch, "master");
			assert_int_equal(r.push->created,
			    example_cases[i].created);
			assert_int_equal(r.push->deleted,
			    example_cases[i].deleted);
			assert_string_equal(r.commits[0].author_login,
			    "Codertocat");
		} else
			assert_null(r.push);
		handler_result_clear(&r);
	}
}

/* Every push in the corpus is accepted, and its commits all kept. */
static void
test_push_whole_corpus(void **state)
{
	static const char *const days[] = { "ao-2026-02-12", "ao-2026-03-24",
	    "curl-2026-06-01", "curl-2026-02-14-quiet", "octokit-examples" };
	struct handler_result	 r;
	struct dirent		*de;
	DIR			*dir;
	json_t			*j, *event;
	char			 path[1024], *cause;
	size_t			 i, len, npushes = 0;

	for (i = 0; i < sizeof(days) / sizeof(days[0]); i++) {
		snprintf(path, sizeof(path), CORPUS "/%s", days[i]);
		assert_non_null(dir = opendir(path));
		while ((de = readdir(dir)) != NULL) {
			len = strlen(de->d_name);
			if (len < 10 || strcmp(de->d_name + len - 10,
			    ".meta.json") != 0)
				continue;
			snprintf(path, sizeof(path), CORPUS "/%s/%s", days[i],
			    de->d_name);
			j = load(path);
			event = json_object_get(j, "event");
			if (strcmp(json_string_value(event), "push") != 0) {
				json_decref(j);
				continue;
			}
			json_decref(j);
			snprintf(path, sizeof(path), CORPUS "/%s/%.*s.json",
			    days[i], (int)(len - 10), de->d_name);
			j = load(path);
			memset(&r, 0, sizeof(r));
			cause = NULL;
			if (handler_push.handle(j, NOW, &r, &cause) != 0)
				fail_msg("%s: %s", path, cause);
			if (r.ncommits != json_array_size(json_object_get(j,
			    "commits")))
				fail_msg("%s: %zu commits", path, r.ncommits);
			json_decref(j);
			handler_result_clear(&r);
			npushes++;
		}
		closedir(dir);
	}
	/* 8 + 15 + 13 + 1 pushes in the days, 7 examples */
	assert_int_equal(npushes, 8 + 15 + 13 + 1 + 7);
}

static void
test_push_bad_payloads(void **state)
{
	struct handler_result	 r;
	json_t			*j, *at, *v;
	char			*cause;
	size_t			 i;

	/* The unchanged payload is good. */
	assert_non_null(j = json_loads(good_push, 0, NULL));
	memset(&r, 0, sizeof(r));
	cause = NULL;
	if (handler_push.handle(j, NOW, &r, &cause) != 0)
		fail_msg("good push: %s", cause);
	assert_int_equal(r.ncommits, 2);
	assert_int_equal(r.push->forced, 1);
	assert_null(r.commits[1].author_login);
	assert_null(r.commits[1].committer_name);
	assert_int_equal(r.commits[0].nmodified, 2);
	handler_result_clear(&r);
	json_decref(j);

	for (i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		assert_non_null(j = json_loads(good_push, 0, NULL));
		if ((at = walk(j, bad_cases[i].path)) == NULL)
			fail_msg("case %zu: no %s", i, bad_cases[i].path);
		if (bad_cases[i].value == NULL)
			assert_int_equal(json_object_del(at,
			    bad_cases[i].key), 0);
		else {
			v = json_loads(bad_cases[i].value, JSON_DECODE_ANY,
			    NULL);
			assert_non_null(v);
			if (json_is_array(at))
				json_array_set_new(at,
				    strtoul(bad_cases[i].key, NULL, 10), v);
			else
				json_object_set_new(at, bad_cases[i].key, v);
		}
		memset(&r, 0, sizeof(r));
		cause = NULL;
		if (handler_push.handle(j, NOW, &r, &cause) != -1)
			fail_msg("case %zu (%s): accepted", i,
			    bad_cases[i].cause);
		if (cause == NULL || strncmp(cause, bad_cases[i].cause,
		    strlen(bad_cases[i].cause)) != 0)
			fail_msg("case %zu: cause \"%s\", want \"%s...\"", i,
			    cause ? cause : "(null)", bad_cases[i].cause);
		/* nothing is handed back on failure */
		assert_null(r.repo);
		assert_null(r.commits);
		assert_null(r.push);
		free(cause);
		json_decref(j);
	}
}

/*
 * before and after as a payload may give them: 40 hex digits in either
 * case are the id (shown in lower case); anything else is none, and the
 * push is kept all the same.
 */
static void
test_push_odd_ids(void **state)
{
	static const struct {
		const char	*value;		/* JSON, or NULL: no key */
		const char	*want;		/* as push_id_hex shows it */
	} cases[] = {
		{ "\"475f336306a7dbdac281cf4c603fecd1c8bf6747\"",
		    "475f336306a7dbdac281cf4c603fecd1c8bf6747" },
		{ "\"475F336306A7DBDAC281CF4C603FECD1C8BF6747\"",
		    "475f336306a7dbdac281cf4c603fecd1c8bf6747" },
		{ "\"0000000000000000000000000000000000000000\"", NULL },
		{ NULL, NULL },
		{ "null", NULL },
		{ "\"\"", NULL },
		{ "\"475f336\"", NULL },
		{ "\"475f336306a7dbdac281cf4c603fecd1c8bf674\"", NULL },
		{ "\"475f336306a7dbdac281cf4c603fecd1c8bf67470\"", NULL },
		{ "\"475f336306a7dbdac281cf4c603fecd1c8bf674g\"", NULL },
		{ "\"475f336306a7dbdac281cf4c603fecd1c8bf6747"
		    "475f336306a7dbdac281cf4c\"", NULL },	/* SHA-256 */
		{ "\"not an id at all\"", NULL },
	};
	static const char *const keys[] = { "before", "after" };
	static const char zeros[] = "0000000000000000000000000000000000000000";
	struct handler_result	 r;
	json_t			*j;
	char			*cause, hex[PUSH_HEX_LEN + 1];
	size_t			 i, k;

	(void)state;
	for (k = 0; k < 2; k++)
		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			assert_non_null(j = json_loads(good_push, 0, NULL));
			if (cases[i].value == NULL)
				assert_int_equal(json_object_del(j, keys[k]),
				    0);
			else
				assert_int_equal(json_object_set_new(j, keys[k],
				    json_loads(cases[i].value,
				    JSON_DECODE_ANY, NULL)), 0);
			memset(&r, 0, sizeof(r));
			cause = NULL;
			if (handler_push.handle(j, NOW, &r, &cause) != 0)
				fail_msg("%s %s: %s", keys[k],
				    cases[i].value, cause);
			json_decref(j);
			assert_non_null(r.push);
			push_id_hex(k == 0 ? r.push->before : r.push->after,
			    hex);
			assert_string_equal(hex, cases[i].want != NULL ?
			    cases[i].want : zeros);
			assert_int_equal(push_id_none(k == 0 ? r.push->before :
			    r.push->after), cases[i].want == NULL);
			assert_int_equal(r.ncommits, 2);
			handler_result_clear(&r);
		}
}

/*
 * Outside sizes are capped: 2048 commits, 10000 names per list, 255 bytes
 * of branch and of default branch.
 */
static void
test_push_caps(void **state)
{
	struct handler_result	 r;
	json_t			*j, *commits, *one, *names;
	char			*cause;
	size_t			 i;

	assert_non_null(j = json_loads(good_push, 0, NULL));
	commits = json_object_get(j, "commits");
	one = json_array_get(commits, 1);
	while (json_array_size(commits) < 2049)
		json_array_append(commits, one);
	memset(&r, 0, sizeof(r));
	cause = NULL;
	assert_int_equal(handler_push.handle(j, NOW, &r, &cause), -1);
	assert_non_null(cause);
	assert_non_null(strstr(cause, "commits: too many"));
	free(cause);

	/* 2048 is fine (duplicates are the day store's business) */
	json_array_remove(commits, 0);
	cause = NULL;
	assert_int_equal(handler_push.handle(j, NOW, &r, &cause), 0);
	assert_int_equal(r.ncommits, 2048);
	handler_result_clear(&r);
	json_decref(j);

	assert_non_null(j = json_loads(good_push, 0, NULL));
	names = json_array();
	for (i = 0; i < 10001; i++)
		json_array_append_new(names, json_string("f"));
	json_object_set_new(walk(j, "commits.1"), "added", names);
	cause = NULL;
	assert_int_equal(handler_push.handle(j, NOW, &r, &cause), -1);
	assert_non_null(cause);
	assert_non_null(strstr(cause, "commits[1].added: too many"));
	free(cause);
	json_array_remove(names, 0);
	cause = NULL;
	assert_int_equal(handler_push.handle(j, NOW, &r, &cause), 0);
	assert_int_equal(r.commits[1].nadded, 10000);
	handler_result_clear(&r);
	json_decref(j);

	/* a branch and a default branch of 255 bytes are kept whole */
	assert_non_null(j = json_loads(good_push, 0, NULL));
	json_object_set_new(j, "ref",
	    json_string("refs/heads/" BRANCH_AT_CAP));
	json_object_set_new(walk(j, "repository"), "default_branch",
	    json_string(BRANCH_AT_CAP));
	cause = NULL;
	if (handler_push.handle(j, NOW, &r, &cause) != 0)
		fail_msg("branches at the cap: %s", cause);
	assert_string_equal(r.push->branch, BRANCH_AT_CAP);
	assert_string_equal(r.commits[0].branch, BRANCH_AT_CAP);
	assert_string_equal(r.default_branch, BRANCH_AT_CAP);
	handler_result_clear(&r);

	/* one byte more in the branch, then in both: the default first */
	json_object_set_new(j, "ref",
	    json_string("refs/heads/" BRANCH_OVER_CAP));
	cause = NULL;
	assert_int_equal(handler_push.handle(j, NOW, &r, &cause), -1);
	assert_string_equal(cause, BRANCH_REF_CAUSE);
	free(cause);
	json_object_set_new(walk(j, "repository"), "default_branch",
	    json_string(BRANCH_OVER_CAP));
	cause = NULL;
	assert_int_equal(handler_push.handle(j, NOW, &r, &cause), -1);
	assert_string_equal(cause, BRANCH_DEFAULT_CAUSE);
	free(cause);
	/* a tag push keeps the default branch too: refused as well */
	json_object_set_new(j, "ref", json_string("refs/tags/v1"));
	cause = NULL;
	assert_int_equal(handler_push.handle(j, NOW, &r, &cause), -1);
	assert_string_equal(cause, BRANCH_DEFAULT_CAUSE);
	free(cause);
	assert_null(r.repo);
	assert_null(r.default_branch);
	json_decref(j);
}

static void
test_push_not_an_object(void **state)
{
	struct handler_result	 r;
	json_t			*j = json_array();
	char			*cause = NULL;

	memset(&r, 0, sizeof(r));
	assert_int_equal(handler_push.handle(j, NOW, &r, &cause), -1);
	assert_non_null(cause);
	free(cause);
	json_decref(j);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_push_real_revert),
		cmocka_unit_test(test_push_real_curl),
		cmocka_unit_test(test_push_examples),
		cmocka_unit_test(test_push_whole_corpus),
		cmocka_unit_test(test_push_bad_payloads),
		cmocka_unit_test(test_push_odd_ids),
		cmocka_unit_test(test_push_caps),
		cmocka_unit_test(test_push_not_an_object),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
