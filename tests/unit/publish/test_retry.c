/* Unit tests: publish/sink_retry.c */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "sink.h"

static void
test_retry_backoff(void **state)
{
	static const struct {
		unsigned	 attempt;
		int		 min, max;
		int64_t		 lo, hi;	/* over every rnd */
	} cases[] = {
		{ 0, 30, 3600, 15000, 30000 },
		{ 1, 30, 3600, 15000, 30000 },
		{ 2, 30, 3600, 30000, 60000 },
		{ 3, 30, 3600, 60000, 120000 },
		{ 8, 30, 3600, 1800000, 3600000 },	/* capped */
		{ 60, 30, 3600, 1800000, 3600000 },	/* no overflow */
		{ 4000000000u, 1, 1, 500, 1000 },
		{ 5, 1, 1, 500, 1000 },
	};
	static const uint32_t rnds[] = { 0, 1, 7, 12345, 0x7fffffff,
	    0xffffffff };
	size_t	i, j;
	int64_t	ms;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		for (j = 0; j < sizeof(rnds) / sizeof(rnds[0]); j++) {
			ms = retry_backoff(cases[i].attempt, cases[i].min,
			    cases[i].max, rnds[j]);
			if (ms < cases[i].lo || ms > cases[i].hi)
				fail_msg("attempt %u rnd %u: %lld not in "
				    "%lld..%lld", cases[i].attempt, rnds[j],
				    (long long)ms, (long long)cases[i].lo,
				    (long long)cases[i].hi);
		}
	/* the jitter spreads */
	assert_int_not_equal(retry_backoff(3, 30, 3600, 1),
	    retry_backoff(3, 30, 3600, 20001));
}

static void
test_retry_after(void **state)
{
	/* 2026-03-02 10:00:00 UTC */
	const time_t	 now = 1772445600;
	static const struct {
		const char	*value;
		int		 ok;
		long long	 seconds;
	} cases[] = {
		{ "0", 1, 0 },
		{ "120", 1, 120 },
		{ " 5 ", 1, 5 },
		{ "604800", 1, 604800 },
		{ "604801", 0, 0 },
		{ "99999999999999999999999", 0, 0 },
		{ "-1", 0, 0 },
		{ "1.5", 0, 0 },
		{ "12abc", 0, 0 },
		{ "", 0, 0 },
		{ "Mon, 02 Mar 2026 10:00:30 GMT", 1, 30 },
		{ "Mon, 02 Mar 2026 11:00:00 GMT", 1, 3600 },
		{ "Sun, 01 Mar 2026 10:00:00 GMT", 1, 0 },	/* past */
		{ "Sun, 06 Nov 1994 08:49:37 GMT", 1, 0 },
		{ "Mon, 02 Mar 2027 10:00:00 GMT", 0, 0 },	/* too far */
		{ "Mon, 02 Mar 2026 10:00:30 UTC", 0, 0 },
		{ "Mon, 2 Mar 2026 10:00:30 GMT", 0, 0 },
		{ "Mon, 02 Foo 2026 10:00:30 GMT", 0, 0 },
		{ "Xyz, 02 Mar 2026 10:00:30 GMT", 0, 0 },
		{ "Mon, 02 Mar 2026 25:00:30 GMT", 0, 0 },
		{ "Monday, 02-Mar-26 10:00:30 GMT", 0, 0 },
		{ "Mon, 02 Mar 2026 10:00:30 GMT ", 0, 0 },
	};
	long long	 s;
	size_t		 i;
	int		 rc;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		s = -42;
		rc = retry_after_parse(cases[i].value, now, &s);
		if (cases[i].ok && (rc != 0 || s != cases[i].seconds))
			fail_msg("'%s': rc %d, %lld (want %lld)",
			    cases[i].value, rc, s, cases[i].seconds);
		if (!cases[i].ok && (rc != -1 || s != -42))
			fail_msg("'%s': accepted (%lld)", cases[i].value, s);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_retry_backoff),
		cmocka_unit_test(test_retry_after),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
