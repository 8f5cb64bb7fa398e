/*
 * Unit tests for the dates of Internet messages and HTTP (date_format):
 * English names, the zone as given, a short buffer cut.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "date.h"

static void
test_format(void **state)
{
	static const struct {
		time_t		 t;
		const char	*zone;
		const char	*want;
	} cases[] = {
		{ 1778061644, "+0000", "Wed, 06 May 2026 10:00:44 +0000" },
		{ 0, "+0000", "Thu, 01 Jan 1970 00:00:00 +0000" },
		{ 784111777, "GMT", "Sun, 06 Nov 1994 08:49:37 GMT" },
		{ 1798761599, "GMT", "Thu, 31 Dec 2026 23:59:59 GMT" },
		{ 951782400, "GMT", "Tue, 29 Feb 2000 00:00:00 GMT" },
	};
	char		out[DATE_LEN];
	size_t		i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		date_format(cases[i].t, cases[i].zone, out, sizeof(out));
		assert_string_equal(out, cases[i].want);
	}
}

/* A small buffer gets a cut, terminated string. */
static void
test_short(void **state)
{
	char	out[8];

	date_format(0, "GMT", out, sizeof(out));
	assert_string_equal(out, "Thu, 01");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_short),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
