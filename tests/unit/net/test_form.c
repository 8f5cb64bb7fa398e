/* Unit tests: net/form.c */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "form.h"

static const struct {
	const char	*name;
	const char	*body;
	size_t		 len;		/* 0: strlen(body) */
	const char	*want;		/* NULL: expect an error */
	size_t		 wantlen;	/* 0: strlen(want) */
	const char	*cause;		/* a word the cause must contain */
} form_cases[] = {
	{ "plain", "payload=%7B%22zen%22%3A%22hi%22%7D", 0,
	    "{\"zen\":\"hi\"}", 0, NULL },
	{ "plus is a space", "payload=%7B%22zen%22%3A%22a+b%22%7D", 0,
	    "{\"zen\":\"a b\"}", 0, NULL },
	{ "encoded plus stays", "payload=1%2B1", 0, "1+1", 0, NULL },
	{ "lower-case escapes", "payload=%7b%7d", 0, "{}", 0, NULL },
	{ "after other fields", "a=1&b=%20&payload=x&c=2", 0, "x", 0, NULL },
	{ "first payload wins", "payload=first&payload=second", 0, "first", 0,
	    NULL },
	{ "escaped field name", "%70ayload=yes", 0, "yes", 0, NULL },
	{ "not a prefix", "payloads=no&payload=yes", 0, "yes", 0, NULL },
	{ "empty fields skipped", "&&payload=z&", 0, "z", 0, NULL },
	{ "raw bytes kept", "payload=\xc3\xa9t\xc3\xa9", 0, "\xc3\xa9t\xc3\xa9",
	    0, NULL },
	{ "escaped NUL", "payload=a%00b", 0, "a\0b", 3, NULL },
	{ "length bounds the body", "payload=abcdef", 11, "abc", 0, NULL },
	{ "missing", "zen=hi&hook_id=1", 0, NULL, 0, "no payload" },
	{ "empty body", "", 0, NULL, 0, "no payload" },
	{ "empty payload", "payload=&x=1", 0, NULL, 0, "empty" },
	{ "bare payload name", "payload", 0, NULL, 0, "empty" },
	{ "truncated escape", "payload=abc%7", 0, NULL, 0, "escape" },
	{ "escape at end", "payload=abc%", 0, NULL, 0, "escape" },
	{ "bad hex", "payload=%zz", 0, NULL, 0, "escape" },
	{ "bad escape in a name", "%g0=1&payload=x", 0, NULL, 0, "escape" },
};

static void
test_form_table(void **state)
{
	size_t	 i, len, outlen, wantlen;
	char	*out, *cause;
	int	 rv;

	for (i = 0; i < sizeof(form_cases) / sizeof(form_cases[0]); i++) {
		len = form_cases[i].len ? form_cases[i].len :
		    strlen(form_cases[i].body);
		out = cause = NULL;
		outlen = 12345;
		rv = form_field(form_cases[i].body, len, "payload", &out,
		    &outlen, &cause);
		if (form_cases[i].want == NULL) {
			if (rv != -1)
				fail_msg("%s: accepted", form_cases[i].name);
			if (cause == NULL || strstr(cause,
			    form_cases[i].cause) == NULL)
				fail_msg("%s: cause \"%s\"", form_cases[i].name,
				    cause ? cause : "(null)");
			if (out != NULL || outlen != 12345)
				fail_msg("%s: out set on failure",
				    form_cases[i].name);
			free(cause);
			continue;
		}
		wantlen = form_cases[i].wantlen ? form_cases[i].wantlen :
		    strlen(form_cases[i].want);
		if (rv != 0)
			fail_msg("%s: rejected: %s", form_cases[i].name, cause);
		if (outlen != wantlen || memcmp(out, form_cases[i].want,
		    wantlen) != 0 || out[outlen] != '\0')
			fail_msg("%s: got \"%s\" (%zu bytes)",
			    form_cases[i].name, out, outlen);
		free(out);
	}
}

static void
test_form_null_body(void **state)
{
	char	*out = NULL, *cause = NULL;
	size_t	 outlen = 0;

	assert_int_equal(form_field(NULL, 0, "payload", &out, &outlen,
	    &cause), -1);
	assert_non_null(cause);
	assert_null(out);
	free(cause);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_form_table),
		cmocka_unit_test(test_form_null_body),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
