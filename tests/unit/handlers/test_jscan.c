/* Unit tests: handlers/jscan.c */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "jscan.h"

/* 1 when jscan takes the whole of s (len bytes) as one JSON value. */
static int
valid(const char *s, size_t len)
{
	struct jscan	js;

	jscan_init(&js, s, len);
	if (jscan_skip(&js) == -1)
		return 0;
	return jscan_next(&js) == JSCAN_END;
}

/*
 * Valid and invalid texts. jansson (with JSON_DECODE_ANY, as these are
 * not all objects) must agree on each but the marked ones.
 */
static const struct {
	const char	*text;
	size_t		 len;		/* 0: strlen */
	int		 ok;
	int		 jansson_differs;
} cases[] = {
	{ "{}", 0, 1, 0 },
	{ "[]", 0, 1, 0 },
	{ " \t\r\n{ \"a\" : [ 1 , 2 ] }\n ", 0, 1, 0 },
	{ "{\"a\":{\"b\":[true,false,null,\"x\"]}}", 0, 1, 0 },
	{ "\"x\"", 0, 1, 0 },
	{ "0", 0, 1, 0 },
	{ "-0", 0, 1, 0 },
	{ "-0.0e+0", 0, 1, 0 },
	{ "1E5", 0, 1, 0 },
	{ "1.5e-400", 0, 1, 0 },		/* underflow is fine */
	{ "9223372036854775807", 0, 1, 0 },
	{ "-9223372036854775808", 0, 1, 0 },
	{ "1.7976931348623157e308", 0, 1, 0 },
	/* numbers */
	{ "9223372036854775808", 0, 0, 0 },	/* too big integer */
	{ "-9223372036854775809", 0, 0, 0 },
	{ "1e309", 0, 0, 0 },			/* real overflow */
	{ "-1e999", 0, 0, 0 },
	{ "01", 0, 0, 0 },
	{ "-", 0, 0, 0 },
	{ "+1", 0, 0, 0 },
	{ "1.", 0, 0, 0 },
	{ ".5", 0, 0, 0 },
	{ "1e", 0, 0, 0 },
	{ "1e+", 0, 0, 0 },
	{ "0x10", 0, 0, 0 },
	{ "1.5.", 0, 0, 0 },
	{ "[1,]", 0, 0, 0 },
	{ "NaN", 0, 0, 0 },
	{ "Infinity", 0, 0, 0 },
	/* structure */
	{ "", 0, 0, 0 },
	{ " ", 0, 0, 0 },
	{ "{", 0, 0, 0 },
	{ "{\"a\"}", 0, 0, 0 },
	{ "{\"a\":}", 0, 0, 0 },
	{ "{\"a\":1,}", 0, 0, 0 },
	{ "{,}", 0, 0, 0 },
	{ "{1:2}", 0, 0, 0 },
	{ "{'a':1}", 0, 0, 0 },
	{ "[1 2]", 0, 0, 0 },
	{ "[1}", 0, 0, 0 },
	{ "{\"a\":1]", 0, 0, 0 },
	{ "{} {}", 0, 0, 0 },		/* trailing garbage */
	{ "{}x", 0, 0, 0 },
	{ "{}\0", 3, 0, 0 },
	{ "[1\0]", 4, 1, 0 },		/* jansson loses one NUL there */
	{ "[true\0,null\0]", 13, 1, 0 },
	{ "[1\0\0]", 5, 0, 0 },
	{ "[\0]", 3, 0, 0 },
	{ "[\"a\"\0]", 6, 0, 0 },
	{ "\xef\xbb\xbf{}", 0, 0, 0 },	/* a byte order mark */
	{ "tru", 0, 0, 0 },
	{ "nul", 0, 0, 0 },
	{ "True", 0, 0, 0 },
	{ "[true1]", 0, 0, 0 },
	{ "/* c */ {}", 0, 0, 0 },
	/* escapes */
	{ "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", 0, 1, 0 },
	{ "\"\\u00e9\\u20AC\\ud83d\\ude00\"", 0, 1, 0 },
	{ "\"\\x41\"", 0, 0, 0 },
	{ "\"\\'\"", 0, 0, 0 },
	{ "\"\\u12\"", 0, 0, 0 },
	{ "\"\\u12g4\"", 0, 0, 0 },
	{ "\"\\ud83d\"", 0, 0, 0 },		/* lone high surrogate */
	{ "\"\\ud83dx\"", 0, 0, 0 },
	{ "\"\\ud83d\\u0041\"", 0, 0, 0 },
	{ "\"\\ud83d\\ud83d\"", 0, 0, 0 },
	{ "\"\\ude00\"", 0, 0, 0 },		/* lone low surrogate */
	{ "\"\\u0000\"", 0, 0, 0 },
	{ "{\"\\u0000\":1}", 0, 0, 0 },
	{ "\"\\", 0, 0, 0 },
	{ "\"abc", 0, 0, 0 },
	{ "\"a\tb\"", 0, 0, 0 },		/* control characters */
	{ "\"a\nb\"", 0, 0, 0 },
	{ "\"a\0b\"", 5, 0, 0 },
	{ "\"\x7f\"", 0, 1, 0 },
	/* UTF-8 */
	{ "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"", 0, 1, 0 },
	{ "\"\xef\xbf\xbf\xf4\x8f\xbf\xbf\"", 0, 1, 0 },
	{ "\"\x80\"", 0, 0, 0 },		/* a lone continuation */
	{ "\"\xc3\"", 0, 0, 0 },		/* truncated */
	{ "\"\xc3", 0, 0, 0 },
	{ "\"\xe2\x82\"", 0, 0, 0 },
	{ "\"\xc0\xaf\"", 0, 0, 0 },		/* overlong */
	{ "\"\xc1\xbf\"", 0, 0, 0 },
	{ "\"\xe0\x80\xaf\"", 0, 0, 0 },
	{ "\"\xf0\x80\x80\xaf\"", 0, 0, 0 },
	{ "\"\xed\xa0\x80\"", 0, 0, 0 },	/* a surrogate */
	{ "\"\xf4\x90\x80\x80\"", 0, 0, 0 },	/* past U+10FFFF */
	{ "\"\xf5\x80\x80\x80\"", 0, 0, 0 },
	{ "\"\xff\"", 0, 0, 0 },
	{ "\xc3\xa9", 0, 0, 0 },		/* outside a string */
};

static void
test_jscan_cases(void **state)
{
	json_error_t	 err;
	json_t		*j;
	size_t		 i, len;
	int		 jok;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		len = cases[i].len != 0 ? cases[i].len : strlen(cases[i].text);
		if (valid(cases[i].text, len) != cases[i].ok)
			fail_msg("case %zu (%s): jscan says %s", i,
			    cases[i].text, cases[i].ok ? "invalid" : "valid");
		j = json_loadb(cases[i].text, len, JSON_DECODE_ANY |
		    JSON_REJECT_DUPLICATES, &err);
		jok = j != NULL;
		json_decref(j);
		if ((jok == cases[i].ok) == cases[i].jansson_differs)
			fail_msg("case %zu (%s): jansson says %s", i,
			    cases[i].text, jok ? "valid" : "invalid");
	}
}

/* The depth cap: JSCAN_MAX_DEPTH containers are fine, one more is not. */
static void
test_jscan_depth(void **state)
{
	char	buf[2 * (JSCAN_MAX_DEPTH + 1)];
	size_t	d;

	for (d = JSCAN_MAX_DEPTH - 1; d <= JSCAN_MAX_DEPTH + 1; d++) {
		memset(buf, '[', d);
		memset(buf + d, ']', d);
		assert_int_equal(valid(buf, 2 * d), d <= JSCAN_MAX_DEPTH);
	}
}

/* Tokens and slices, in order. */
static void
test_jscan_tokens(void **state)
{
	static const char	 text[] =
	    "{\"k\\n\":[1.5,\"s\",true,false,null,{}],\"x\":-2}";
	static const enum jscan_tok want[] = { JSCAN_OBJECT, JSCAN_KEY,
	    JSCAN_ARRAY, JSCAN_NUMBER, JSCAN_STRING, JSCAN_TRUE, JSCAN_FALSE,
	    JSCAN_NULL, JSCAN_OBJECT, JSCAN_OBJECT_END, JSCAN_ARRAY_END,
	    JSCAN_KEY, JSCAN_NUMBER, JSCAN_OBJECT_END, JSCAN_END, JSCAN_END };
	struct jscan		 js;
	size_t			 i;
	enum jscan_tok		 t;

	jscan_init(&js, text, strlen(text));
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		t = jscan_next(&js);
		assert_int_equal(t, want[i]);
		if (i == 1) {
			assert_int_equal(js.slen, 3);
			assert_memory_equal(js.str, "k\\n", 3);
			assert_int_equal(js.esc, 1);
		}
		if (i == 3) {
			assert_int_equal(js.slen, 3);
			assert_memory_equal(js.str, "1.5", 3);
		}
		if (i == 4) {
			assert_int_equal(js.slen, 1);
			assert_int_equal(js.esc, 0);
		}
	}

	/* skip a value, then carry on; an error sticks */
	jscan_init(&js, text, strlen(text));
	assert_int_equal(jscan_next(&js), JSCAN_OBJECT);
	assert_int_equal(jscan_next(&js), JSCAN_KEY);
	assert_int_equal(jscan_skip(&js), 0);
	assert_int_equal(jscan_next(&js), JSCAN_KEY);
	assert_memory_equal(js.str, "x", 1);
	assert_int_equal(jscan_close(&js), 0);
	assert_int_equal(jscan_next(&js), JSCAN_END);

	jscan_init(&js, "[1,\n  x]", 8);
	assert_int_equal(jscan_skip(&js), -1);
	assert_int_equal(jscan_next(&js), JSCAN_ERROR);
	assert_non_null(js.error);
	{
		int	line, column;

		jscan_where(&js, &line, &column);
		assert_int_equal(line, 2);
		assert_int_equal(column, 3);
	}
}

/* Unescaping. */
static void
test_jscan_string_dup(void **state)
{
	static const struct {
		const char	*in;
		const char	*out;	/* NULL: refused */
	} dups[] = {
		{ "plain", "plain" },
		{ "", "" },
		{ "a\\\"b\\\\c\\/d", "a\"b\\c/d" },
		{ "\\b\\f\\n\\r\\t", "\b\f\n\r\t" },
		{ "\\u0041\\u00e9\\u20ac", "A\xc3\xa9\xe2\x82\xac" },
		{ "\\u00E9", "\xc3\xa9" },
		{ "\\ud83d\\ude00!", "\xf0\x9f\x98\x80!" },
		{ "\\udbff\\udfff", "\xf4\x8f\xbf\xbf" },
		{ "\\u007f\\u0080\\u07ff\\u0800\\uffff",
		    "\x7f\xc2\x80\xdf\xbf\xe0\xa0\x80\xef\xbf\xbf" },
		{ "\\u0000", NULL },
		{ "\\ud83d", NULL },
		{ "\\ude00", NULL },
		{ "\\ud83d\\u0041", NULL },
		{ "\\q", NULL },
		{ "\\", NULL },
		{ "\\u12", NULL },
	};
	char	*s;
	size_t	 i, len;

	for (i = 0; i < sizeof(dups) / sizeof(dups[0]); i++) {
		s = jscan_string_dup(dups[i].in, strlen(dups[i].in), &len);
		if (dups[i].out == NULL) {
			if (s != NULL)
				fail_msg("dup %zu: took \"%s\"", i, dups[i].in);
			continue;
		}
		if (s == NULL)
			fail_msg("dup %zu: refused \"%s\"", i, dups[i].in);
		assert_string_equal(s, dups[i].out);
		assert_int_equal(len, strlen(dups[i].out));
		free(s);
	}
}

/*
 * Strings are read a word at a time up to the first byte that needs a
 * look: each such byte at every offset from the string's start (and so
 * at every place in a word, and past the last whole word) must be found,
 * and the string must come out as jansson reads it.
 */
static void
test_jscan_string_offsets(void **state)
{
	static const struct {
		const char	*bytes;
		size_t		 len;
	} marks[] = {
		{ "\"", 1 }, { "\\n", 2 }, { "\\u00e9", 6 }, { "\\q", 2 },
		{ "\x01", 1 }, { "\x1f", 1 }, { "\x20", 1 }, { "\x7f", 1 },
		{ "\xc3\xa9", 2 }, { "\xe2\x80\xa8", 3 },
		{ "\xf0\x9f\x8e\x99", 4 }, { "\xff", 1 }, { "\xc3", 1 },
		{ "\0", 1 },
	};
	char		 text[64];
	struct jscan	 js;
	json_error_t	 err;
	json_t		*j;
	size_t		 m, k, tail, len;
	int		 ok, jok;

	(void)state;
	for (m = 0; m < sizeof(marks) / sizeof(marks[0]); m++)
	for (k = 0; k < 20; k++)
	for (tail = 0; tail < 10; tail++) {
		len = 0;
		text[len++] = '"';
		memset(text + len, 'a', k);
		len += k;
		memcpy(text + len, marks[m].bytes, marks[m].len);
		len += marks[m].len;
		memset(text + len, 'b', tail);
		len += tail;
		text[len++] = '"';
		jscan_init(&js, text, len);
		ok = jscan_next(&js) == JSCAN_STRING &&
		    jscan_next(&js) == JSCAN_END;
		j = json_loadb(text, len, JSON_DECODE_ANY, &err);
		jok = j != NULL;
		if (ok != jok)
			fail_msg("mark %zu after %zu bytes, %zu after: jscan "
			    "says %s, jansson %s", m, k, tail,
			    ok ? "valid" : "invalid", jok ? "valid" : "invalid");
		if (ok && !js.esc)
			assert_int_equal(js.slen, json_string_length(j));
		json_decref(j);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jscan_cases),
		cmocka_unit_test(test_jscan_depth),
		cmocka_unit_test(test_jscan_tokens),
		cmocka_unit_test(test_jscan_string_dup),
		cmocka_unit_test(test_jscan_string_offsets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
