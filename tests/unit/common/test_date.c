/*
 * Unit tests for the dates of Internet messages and HTTP (date_format):
 * English names, the zone as given, a short buffer cut.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "date.h"

/*
 * date_utc against timegm: every day from 1970 to 2400 (leap years, the
 * century rule, 2000) at a few times, and a leap second, which both
 * carry into the next minute.
 */
static void
test_utc(void **state)
{
	static const int times[][3] = {
		{ 0, 0, 0 }, { 12, 34, 56 }, { 23, 59, 59 }, { 23, 59, 60 },
	};
	struct tm	tm;
	time_t		day;
	size_t		i;

	(void)state;
	for (day = 0; day < (time_t)157000; day++) {
		time_t	t = day * 86400;

		gmtime_r(&t, &tm);
		for (i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
			struct tm	 u = tm;
			time_t		 want;

			u.tm_hour = times[i][0];
			u.tm_min = times[i][1];
			u.tm_sec = times[i][2];
			want = timegm(&u);
			if (date_utc(tm.tm_year + 1900, tm.tm_mon + 1,
			    tm.tm_mday, times[i][0], times[i][1],
			    times[i][2]) != want)
				fail_msg("%04d-%02d-%02d %02d:%02d:%02d",
				    tm.tm_year + 1900, tm.tm_mon + 1,
				    tm.tm_mday, times[i][0], times[i][1],
				    times[i][2]);
		}
	}
}

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
		cmocka_unit_test(test_utc),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_short),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
