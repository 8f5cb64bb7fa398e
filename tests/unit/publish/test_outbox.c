/* Unit tests: publish/outbox.c (its records and keys) */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "outbox.h"

#define KEY	"0123456789abcdef0123456789abcdef"
#define GOOD	"{\"version\":1,\"sink\":\"hub\",\"id\":\"" KEY "\"," \
		"\"repository\":\"acme/widget\",\"date\":\"2026-03-02\"," \
		"\"title\":\"Gears\",\"markdown\":\"/o/acme/widget/2026-03-02.md\"," \
		"\"json\":\"/o/acme/widget/2026-03-02.json\",\"created\":1772445600}"

static void
test_outbox_record_roundtrip(void **state)
{
	struct outbox_record	 rec, again;
	char			*cause = NULL, *s;

	assert_int_equal(outbox_record_parse(GOOD, strlen(GOOD), &rec,
	    &cause), 0);
	assert_string_equal(rec.sink, "hub");
	assert_string_equal(rec.id, KEY);
	assert_string_equal(rec.repo, "acme/widget");
	assert_string_equal(rec.json, "/o/acme/widget/2026-03-02.json");
	assert_true(rec.created == 1772445600);
	s = outbox_record_encode(&rec);
	assert_int_equal(outbox_record_parse(s, strlen(s), &again, &cause), 0);
	assert_string_equal(again.title, rec.title);
	assert_string_equal(again.markdown, rec.markdown);
	assert_true(again.created == rec.created);
	free(s);
	outbox_record_clear(&rec);
	outbox_record_clear(&again);
}

static void
test_outbox_record_bad(void **state)
{
	static const struct {
		const char	*text, *cause;
	} cases[] = {
		{ "", "not JSON" },
		{ "[]", "version 1" },
		{ "{\"version\":2}", "version 1" },
		{ "{\"version\":1}", "sink" },
		{ "{\"version\":1,\"version\":1}", "not JSON" },
		{ "{\"version\":1,\"sink\":\"../x\",\"id\":\"" KEY "\","
		    "\"repository\":\"a/b\",\"date\":\"d\",\"title\":\"t\","
		    "\"markdown\":\"m\",\"json\":\"j\",\"created\":1}", "sink" },
		{ "{\"version\":1,\"sink\":\"hub\",\"id\":\"ABCDEF\","
		    "\"repository\":\"a/b\",\"date\":\"d\",\"title\":\"t\","
		    "\"markdown\":\"m\",\"json\":\"j\",\"created\":1}", "id" },
		{ "{\"version\":1,\"sink\":\"hub\",\"id\":\"" KEY "\","
		    "\"repository\":\"a/b\",\"date\":\"d\",\"title\":\"t\","
		    "\"markdown\":\"m\",\"json\":\"j\"}", "created" },
		{ "{\"version\":1,\"sink\":\"hub\",\"id\":\"" KEY "\","
		    "\"repository\":\"a/b\",\"date\":\"d\",\"title\":\"t\","
		    "\"markdown\":\"m\",\"json\":\"j\",\"created\":-5}",
		    "created" },
		{ "{\"version\":1,\"sink\":\"hub\",\"id\":\"" KEY "\","
		    "\"repository\":\"a/b\",\"date\":\"d\",\"title\":\"t\","
		    "\"markdown\":\"m\\u0000x\",\"json\":\"j\",\"created\":1}",
		    "not JSON" },
		{ "{\"version\":1,\"sink\":\"hub\",\"id\":\"" KEY "\","
		    "\"repository\":\"a/b\",\"date\":\"\",\"title\":\"t\","
		    "\"markdown\":\"m\",\"json\":\"j\",\"created\":1}", "date" },
	};
	struct outbox_record	 rec;
	char			*cause;
	size_t			 i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&rec, 0x5a, sizeof(rec));
		cause = NULL;
		if (outbox_record_parse(cases[i].text, strlen(cases[i].text),
		    &rec, &cause) != -1)
			fail_msg("%s: accepted", cases[i].text);
		assert_non_null(cause);
		if (strstr(cause, cases[i].cause) == NULL)
			fail_msg("%s: cause '%s'", cases[i].text, cause);
		/* untouched on failure */
		assert_true(((unsigned char *)&rec)[0] == 0x5a);
		free(cause);
	}
}

static void
test_outbox_key(void **state)
{
	char	*a = outbox_key("hub", "acme/widget", "/o/2026-03-02.json");
	char	*b = outbox_key("hub", "acme/widget", "/o/2026-03-02.json");
	char	*c = outbox_key("chat", "acme/widget", "/o/2026-03-02.json");
	char	*d = outbox_key("hub", "acme/widget", "/o/2026-03-03.json");
	char	*e = outbox_key("hu", "bacme/widget", "/o/2026-03-02.json");

	assert_int_equal(strlen(a), 32);
	assert_string_equal(a, b);
	assert_string_not_equal(a, c);
	assert_string_not_equal(a, d);
	assert_string_not_equal(a, e);
	assert_int_equal(strspn(a, "0123456789abcdef"), 32);
	free(a);
	free(b);
	free(c);
	free(d);
	free(e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_outbox_record_roundtrip),
		cmocka_unit_test(test_outbox_record_bad),
		cmocka_unit_test(test_outbox_key),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
