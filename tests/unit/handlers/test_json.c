/* Unit tests: handlers/json.c */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "handler.h"

static const struct {
	const char	*s;
	int		 ok;
	time_t		 want;
} time_cases[] = {
	{ "2026-02-12T18:49:29Z", 1, 1770922169 },
	{ "2026-02-12T11:59:16-08:00", 1, 1770926356 },
	{ "2026-06-01T09:28:31+02:00", 1, 1780298911 },
	{ "2026-06-01T09:28:31+0200", 1, 1780298911 },
	{ "2026-06-01T05:58:31+05:30", 1, 1780273711 },
	{ "2026-02-12T18:49:29.123Z", 1, 1770922169 },
	{ "2026-02-12t18:49:29z", 1, 1770922169 },
	{ "1970-01-01T00:00:00Z", 1, 0 },
	{ "2024-02-29T00:00:00Z", 1, 1709164800 },
	{ "2026-12-31T23:59:59Z", 1, 1798761599 },
	{ "", 0, 0 },
	{ "garbage", 0, 0 },
	{ "2026-02-12", 0, 0 },
	{ "2026-02-12T18:49:29", 0, 0 },		/* no zone */
	{ "2026-02-12 18:49:29Z", 0, 0 },
	{ "2026-02-12T18:49:29ZZ", 0, 0 },
	{ "2026-02-12T18:49:29+01", 0, 0 },
	{ "2026-02-12T18:49:29+01:0x", 0, 0 },
	{ "2026-02-12T18:49:29+25:00", 0, 0 },
	{ "2026-02-12T18:49:29.Z", 0, 0 },
	{ "2026-13-12T18:49:29Z", 0, 0 },
	{ "2026-00-12T18:49:29Z", 0, 0 },
	{ "2026-02-29T00:00:00Z", 0, 0 },		/* not a leap year */
	{ "2026-04-31T00:00:00Z", 0, 0 },
	{ "2026-02-12T24:00:00Z", 0, 0 },
	{ "2026-02-12T18:60:00Z", 0, 0 },
	{ "2026-02-12T18:49:61Z", 0, 0 },
	{ "+026-02-12T18:49:29Z", 0, 0 },
	{ "2026-02-12T18:49:29Z trailing", 0, 0 },
};

static void
test_hjson_time_table(void **state)
{
	size_t	i;
	time_t	t;
	int	rv;

	for (i = 0; i < sizeof(time_cases) / sizeof(time_cases[0]); i++) {
		t = 42;
		rv = hjson_time(time_cases[i].s, &t);
		if (time_cases[i].ok) {
			if (rv != 0)
				fail_msg("\"%s\": rejected", time_cases[i].s);
			if (t != time_cases[i].want)
				fail_msg("\"%s\": %lld, want %lld",
				    time_cases[i].s, (long long)t,
				    (long long)time_cases[i].want);
		} else {
			if (rv != -1)
				fail_msg("\"%s\": accepted", time_cases[i].s);
			if (t != 42)
				fail_msg("\"%s\": out set on failure",
				    time_cases[i].s);
		}
	}
	assert_int_equal(hjson_time(NULL, &t), -1);
}

static const char doc[] =
    "{\"s\":\"str\",\"n\":null,\"i\":12,\"b\":true,\"f\":1.5,"
    "\"o\":{\"k\":\"v\"},\"a\":[1]}";

/* Each getter on each key: NULL cause means accepted. */
static const struct {
	const char	*getter;
	const char	*key;
	const char	*cause;
} getter_cases[] = {
	{ "string", "s", NULL },
	{ "string", "x", "p.x: missing" },
	{ "string", "n", "p.n: expected a string" },
	{ "string", "i", "p.i: expected a string" },
	{ "string_opt", "s", NULL },
	{ "string_opt", "x", NULL },
	{ "string_opt", "n", NULL },
	{ "string_opt", "o", "p.o: expected a string" },
	{ "object", "o", NULL },
	{ "object", "x", "p.x: missing" },
	{ "object", "a", "p.a: expected an object" },
	{ "object_opt", "n", NULL },
	{ "object_opt", "s", "p.s: expected an object" },
	{ "array", "a", NULL },
	{ "array", "o", "p.o: expected an array" },
	{ "array_opt", "x", NULL },
	{ "array_opt", "i", "p.i: expected an array" },
	{ "bool_opt", "b", NULL },
	{ "bool_opt", "x", NULL },
	{ "bool_opt", "i", "p.i: expected a boolean" },
	{ "integer", "i", NULL },
	{ "integer", "f", "p.f: expected an integer" },
	{ "integer", "x", "p.x: missing" },
};

static int
call(const json_t *j, const char *getter, const char *key, char **cause)
{
	const char	*s;
	const json_t	*o;
	long long	 ll;
	int		 b;

	if (strcmp(getter, "string") == 0)
		return hjson_string(j, "p", key, &s, cause);
	if (strcmp(getter, "string_opt") == 0)
		return hjson_string_opt(j, "p", key, &s, cause);
	if (strcmp(getter, "object") == 0)
		return hjson_object(j, "p", key, &o, cause);
	if (strcmp(getter, "object_opt") == 0)
		return hjson_object_opt(j, "p", key, &o, cause);
	if (strcmp(getter, "array") == 0)
		return hjson_array(j, "p", key, &o, cause);
	if (strcmp(getter, "array_opt") == 0)
		return hjson_array_opt(j, "p", key, &o, cause);
	if (strcmp(getter, "bool_opt") == 0)
		return hjson_bool_opt(j, "p", key, &b, cause);
	if (strcmp(getter, "integer") == 0)
		return hjson_integer(j, "p", key, &ll, cause);
	fail_msg("no getter %s", getter);
	return -1;
}

static void
test_hjson_getters(void **state)
{
	json_t	*j = json_loads(doc, 0, NULL);
	char	*cause;
	size_t	 i;
	int	 rv;

	assert_non_null(j);
	for (i = 0; i < sizeof(getter_cases) / sizeof(getter_cases[0]); i++) {
		cause = NULL;
		rv = call(j, getter_cases[i].getter, getter_cases[i].key,
		    &cause);
		if (getter_cases[i].cause == NULL) {
			if (rv != 0 || cause != NULL)
				fail_msg("%s %s: %s", getter_cases[i].getter,
				    getter_cases[i].key, cause);
		} else {
			if (rv != -1 || cause == NULL ||
			    strcmp(cause, getter_cases[i].cause) != 0)
				fail_msg("%s %s: cause \"%s\"",
				    getter_cases[i].getter, getter_cases[i].key,
				    cause ? cause : "(null)");
			free(cause);
		}
	}
	json_decref(j);
}

static void
test_hjson_values(void **state)
{
	json_t		*j = json_loads(doc, 0, NULL);
	const char	*s = "unset";
	const json_t	*o;
	long long	 ll = 0;
	int		 b = 7;
	char		*cause = NULL;

	assert_int_equal(hjson_string(j, NULL, "s", &s, &cause), 0);
	assert_string_equal(s, "str");
	assert_int_equal(hjson_string_opt(j, NULL, "n", &s, &cause), 0);
	assert_null(s);
	assert_int_equal(hjson_integer(j, "", "i", &ll, &cause), 0);
	assert_int_equal(ll, 12);
	assert_int_equal(hjson_bool_opt(j, NULL, "b", &b, &cause), 0);
	assert_int_equal(b, 1);
	assert_int_equal(hjson_bool_opt(j, NULL, "x", &b, &cause), 0);
	assert_int_equal(b, 0);
	assert_int_equal(hjson_object(j, NULL, "o", &o, &cause), 0);
	assert_int_equal(hjson_string(o, "o", "k", &s, &cause), 0);
	assert_string_equal(s, "v");

	/* A top-level path names the key alone. */
	assert_int_equal(hjson_string(j, NULL, "x", &s, &cause), -1);
	assert_string_equal(cause, "x: missing");
	free(cause);
	/* Not an object at all. */
	cause = NULL;
	assert_int_equal(hjson_string(json_object_get(j, "a"), "a", "k", &s,
	    &cause), -1);
	assert_string_equal(cause, "a: expected an object");
	free(cause);
	json_decref(j);
}

static const struct {
	const char	*json;
	int		 required;
	const char	*name;		/* NULL: expect NULLs or an error */
	const char	*cause;
} repo_cases[] = {
	{ "{\"repository\":{\"full_name\":\"pytorch/ao\"}}", 1, "pytorch/ao",
	    NULL },
	{ "{\"repository\":{\"full_name\":\"a-b/c.d_e\"}}", 1, "a-b/c.d_e",
	    NULL },
	{ "{}", 0, NULL, NULL },
	{ "{\"repository\":null}", 0, NULL, NULL },
	{ "{}", 1, NULL, "repository: missing" },
	{ "{\"repository\":{}}", 0, NULL, "repository.full_name: missing" },
	{ "{\"repository\":{\"full_name\":\"/x\"}}", 1, NULL,
	    "repository.full_name: expected" },
	{ "{\"repository\":{\"full_name\":\"x/\"}}", 1, NULL,
	    "repository.full_name: expected" },
	{ "{\"repository\":{\"full_name\":\"org/.github\"}}", 1,
	    "org/.github", NULL },
	{ "{\"repository\":{\"full_name\":\"o/..\"}}", 1, NULL,
	    "repository.full_name: expected" },
	{ "{\"repository\":{\"full_name\":\"o/.\"}}", 1, NULL,
	    "repository.full_name: expected" },
	{ "{\"repository\":{\"full_name\":\".o/r\"}}", 1, NULL,
	    "repository.full_name: expected" },
	{ "{\"repository\":{\"full_name\":\"o/r\\n\"}}", 1, NULL,
	    "repository.full_name: expected" },
};

static void
test_hjson_repository(void **state)
{
	json_t		*j;
	const char	*name, *branch;
	char		*cause;
	size_t		 i;
	int		 rv;

	for (i = 0; i < sizeof(repo_cases) / sizeof(repo_cases[0]); i++) {
		assert_non_null(j = json_loads(repo_cases[i].json, 0, NULL));
		cause = NULL;
		name = branch = "unset";
		rv = hjson_repository(j, repo_cases[i].required, &name,
		    &branch, &cause);
		if (repo_cases[i].cause != NULL) {
			if (rv != -1 || cause == NULL || strncmp(cause,
			    repo_cases[i].cause,
			    strlen(repo_cases[i].cause)) != 0)
				fail_msg("case %zu: cause \"%s\"", i,
				    cause ? cause : "(null)");
			free(cause);
		} else {
			if (rv != 0)
				fail_msg("case %zu: %s", i, cause);
			if (repo_cases[i].name == NULL)
				assert_null(name);
			else
				assert_string_equal(name, repo_cases[i].name);
			assert_null(branch);
		}
		json_decref(j);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hjson_time_table),
		cmocka_unit_test(test_hjson_getters),
		cmocka_unit_test(test_hjson_values),
		cmocka_unit_test(test_hjson_repository),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
