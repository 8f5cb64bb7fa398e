/* Unit tests: daemon/schedule.c */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "schedule.h"

#define HOUR	3600
#define DAY	86400

/* "YYYY-MM-DD HH:MM:SS" in UTC, independent of TZ. */
static time_t
utc(const char *s)
{
	struct tm	 tm;
	const char	*end;

	memset(&tm, 0, sizeof(tm));
	end = strptime(s, "%Y-%m-%d %H:%M:%S", &tm);
	if (end == NULL || *end != '\0')
		fail_msg("bad time in test: %s", s);
	return timegm(&tm);
}

static const char *
show_utc(time_t t, char *buf, size_t size)
{
	struct tm	tm;

	gmtime_r(&t, &tm);
	strftime(buf, size, "%Y-%m-%d %H:%M:%S UTC", &tm);
	return buf;
}

static void
set_zone(const char *tz)
{
	if (schedule_set_timezone(tz) != 0)
		fail_msg("%s: refused", tz);
}

/*
 * now, and the emissions around it, all as UTC. The expected instants are
 * the local emit time converted by hand: 10:00 EST = 15:00 UTC, 10:00 EDT
 * = 14:00 UTC, 10:00 CET = 09:00 UTC, 10:00 CEST = 08:00 UTC.
 */
static const struct {
	const char	*tz;
	int		 hour, minute;
	const char	*now;
	const char	*next;
	const char	*prev;
} cases[] = {
	{ "UTC", 10, 0, "2026-06-01 09:59:59", "2026-06-01 10:00:00",
	    "2026-05-31 10:00:00" },
	{ "UTC", 10, 0, "2026-06-01 10:00:00", "2026-06-02 10:00:00",
	    "2026-06-01 10:00:00" },
	{ "UTC", 10, 0, "2026-06-01 10:00:01", "2026-06-02 10:00:00",
	    "2026-06-01 10:00:00" },
	{ "UTC", 10, 0, "2026-12-31 23:00:00", "2027-01-01 10:00:00",
	    "2026-12-31 10:00:00" },
	{ "UTC", 10, 0, "2028-02-28 12:00:00", "2028-02-29 10:00:00",
	    "2028-02-28 10:00:00" },
	{ "UTC", 0, 0, "2026-03-01 00:00:00", "2026-03-02 00:00:00",
	    "2026-03-01 00:00:00" },
	{ "UTC", 23, 59, "2026-06-01 23:59:30", "2026-06-02 23:59:00",
	    "2026-06-01 23:59:00" },

	/* US spring forward: 2026-03-08 02:00 EST -> 03:00 EDT */
	{ "America/New_York", 10, 0, "2026-03-07 15:00:00",
	    "2026-03-08 14:00:00", "2026-03-07 15:00:00" },
	{ "America/New_York", 10, 0, "2026-03-08 06:00:00",
	    "2026-03-08 14:00:00", "2026-03-07 15:00:00" },
	{ "America/New_York", 10, 0, "2026-03-08 07:30:00",
	    "2026-03-08 14:00:00", "2026-03-07 15:00:00" },
	{ "America/New_York", 10, 0, "2026-03-08 14:00:00",
	    "2026-03-09 14:00:00", "2026-03-08 14:00:00" },
	{ "America/New_York", 10, 0, "2026-03-08 16:00:00",
	    "2026-03-09 14:00:00", "2026-03-08 14:00:00" },
	/* US fall back: 2026-11-01 02:00 EDT -> 01:00 EST */
	{ "America/New_York", 10, 0, "2026-10-31 14:00:00",
	    "2026-11-01 15:00:00", "2026-10-31 14:00:00" },
	{ "America/New_York", 10, 0, "2026-11-01 05:30:00",
	    "2026-11-01 15:00:00", "2026-10-31 14:00:00" },
	{ "America/New_York", 10, 0, "2026-11-01 06:30:00",
	    "2026-11-01 15:00:00", "2026-10-31 14:00:00" },
	{ "America/New_York", 10, 0, "2026-11-01 15:00:00",
	    "2026-11-02 15:00:00", "2026-11-01 15:00:00" },
	{ "America/New_York", 10, 0, "2026-11-02 03:00:00",
	    "2026-11-02 15:00:00", "2026-11-01 15:00:00" },
	{ "America/New_York", 23, 30, "2026-11-02 03:00:00",
	    "2026-11-02 04:30:00", "2026-11-01 03:30:00" },

	/* EU spring forward: 2026-03-29 02:00 CET -> 03:00 CEST */
	{ "Europe/Stockholm", 10, 0, "2026-03-28 09:00:00",
	    "2026-03-29 08:00:00", "2026-03-28 09:00:00" },
	{ "Europe/Stockholm", 10, 0, "2026-03-29 00:30:00",
	    "2026-03-29 08:00:00", "2026-03-28 09:00:00" },
	{ "Europe/Stockholm", 10, 0, "2026-03-29 08:00:00",
	    "2026-03-30 08:00:00", "2026-03-29 08:00:00" },
	/* EU fall back: 2026-10-25 03:00 CEST -> 02:00 CET */
	{ "Europe/Stockholm", 10, 0, "2026-10-24 08:00:00",
	    "2026-10-25 09:00:00", "2026-10-24 08:00:00" },
	{ "Europe/Stockholm", 10, 0, "2026-10-25 00:30:00",
	    "2026-10-25 09:00:00", "2026-10-24 08:00:00" },
	{ "Europe/Stockholm", 10, 0, "2026-10-25 01:30:00",
	    "2026-10-25 09:00:00", "2026-10-24 08:00:00" },
	{ "Europe/Stockholm", 10, 0, "2026-10-25 12:00:00",
	    "2026-10-26 09:00:00", "2026-10-25 09:00:00" },
	{ "Europe/Stockholm", 0, 0, "2026-10-25 12:00:00",
	    "2026-10-25 23:00:00", "2026-10-24 22:00:00" },
};

static void
test_schedule_table(void **state)
{
	time_t		now, next, prev, want;
	struct tm	tm;
	char		a[64], b[64];
	size_t		i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		set_zone(cases[i].tz);
		now = utc(cases[i].now);

		next = schedule_next(now, cases[i].hour, cases[i].minute);
		want = utc(cases[i].next);
		if (next != want)
			fail_msg("%s %02d:%02d after %s: next %s, want %s",
			    cases[i].tz, cases[i].hour, cases[i].minute,
			    cases[i].now, show_utc(next, a, sizeof(a)),
			    show_utc(want, b, sizeof(b)));
		localtime_r(&next, &tm);
		assert_int_equal(tm.tm_hour, cases[i].hour);
		assert_int_equal(tm.tm_min, cases[i].minute);
		assert_int_equal(tm.tm_sec, 0);

		prev = schedule_prev(now, cases[i].hour, cases[i].minute);
		want = utc(cases[i].prev);
		if (prev != want)
			fail_msg("%s %02d:%02d at %s: prev %s, want %s",
			    cases[i].tz, cases[i].hour, cases[i].minute,
			    cases[i].now, show_utc(prev, a, sizeof(a)),
			    show_utc(want, b, sizeof(b)));
		localtime_r(&prev, &tm);
		assert_int_equal(tm.tm_hour, cases[i].hour);
		assert_int_equal(tm.tm_min, cases[i].minute);
	}
}

/* Across each change, consecutive 10:00 emissions are 23 h or 25 h apart. */
static void
test_schedule_dst_distance(void **state)
{
	static const struct {
		const char	*tz;
		const char	*before;	/* 10:00 local, the day before */
		long		 gap;		/* to the next emission */
	} changes[] = {
		{ "America/New_York", "2026-03-07 15:00:00", 23 * HOUR },
		{ "America/New_York", "2026-10-31 14:00:00", 25 * HOUR },
		{ "Europe/Stockholm", "2026-03-28 09:00:00", 23 * HOUR },
		{ "Europe/Stockholm", "2026-10-24 08:00:00", 25 * HOUR },
		{ "UTC", "2026-03-28 10:00:00", 24 * HOUR },
	};
	time_t		t0, t1, t2;
	struct tm	tm;
	size_t		i;

	for (i = 0; i < sizeof(changes) / sizeof(changes[0]); i++) {
		set_zone(changes[i].tz);
		t0 = utc(changes[i].before);
		localtime_r(&t0, &tm);
		assert_int_equal(tm.tm_hour, 10);

		t1 = schedule_next(t0, 10, 0);
		if (t1 - t0 != changes[i].gap)
			fail_msg("%s after %s: %ld s, want %ld", changes[i].tz,
			    changes[i].before, (long)(t1 - t0),
			    changes[i].gap);
		localtime_r(&t1, &tm);
		assert_int_equal(tm.tm_hour, 10);
		assert_int_equal(tm.tm_min, 0);

		/* the day after the change is an ordinary one */
		t2 = schedule_next(t1, 10, 0);
		assert_int_equal(t2 - t1, 24 * HOUR);
		localtime_r(&t2, &tm);
		assert_int_equal(tm.tm_hour, 10);

		/* and prev walks the same steps back */
		assert_int_equal(schedule_prev(t1 - 1, 10, 0), t0);
		assert_int_equal(schedule_prev(t2 - 1, 10, 0), t1);
		assert_int_equal(schedule_prev(t1, 10, 0), t1);
	}
}

/* 02:30 does not exist on a spring-forward day: some valid time instead. */
static void
test_schedule_gap(void **state)
{
	static const struct {
		const char	*tz;
		const char	*midnight;	/* 00:00 local on the day */
		const char	*day_after;	/* 02:30 local the day after */
		int		 mday;
	} gaps[] = {
		{ "America/New_York", "2026-03-08 05:00:00",
		    "2026-03-09 06:30:00", 8 },
		{ "Europe/Stockholm", "2026-03-28 23:00:00",
		    "2026-03-30 00:30:00", 29 },
	};
	time_t		now, t, t2;
	struct tm	tm;
	size_t		i;

	for (i = 0; i < sizeof(gaps) / sizeof(gaps[0]); i++) {
		set_zone(gaps[i].tz);
		now = utc(gaps[i].midnight);
		t = schedule_next(now, 2, 30);
		assert_true(t != (time_t)-1);
		assert_true(t > now);
		assert_true(t - now <= 4 * HOUR);
		localtime_r(&t, &tm);
		/* on the day, next to the gap: 01:30 or 03:30 */
		assert_int_equal(tm.tm_mday, gaps[i].mday);
		assert_int_equal(tm.tm_min, 30);
		assert_true(tm.tm_hour == 1 || tm.tm_hour == 3);

		/* the following emission is 02:30 the day after */
		t2 = schedule_next(t, 2, 30);
		assert_int_equal(t2, utc(gaps[i].day_after));
		localtime_r(&t2, &tm);
		assert_int_equal(tm.tm_hour, 2);
		assert_int_equal(tm.tm_min, 30);

		/* prev from the middle of the day finds that same instant */
		assert_int_equal(schedule_prev(now + 12 * HOUR, 2, 30), t);
	}
}

/*
 * A year of emissions, one after another, in zones with changes: each a
 * day after the one before (one per local date, never skipped, never
 * twice), 23 to 25 hours apart. Times in the gap and in the repeated hour
 * of a fall-back day are the edge.
 */
static void
test_schedule_year(void **state)
{
	static const char *const zones[] = { "UTC", "America/New_York",
	    "Europe/Stockholm", "Australia/Lord_Howe" };
	static const int times[][2] = { { 10, 0 }, { 0, 0 }, { 1, 30 },
	    { 2, 0 }, { 2, 30 }, { 23, 59 } };
	time_t		t, n;
	struct tm	a, b;
	size_t		z, k;
	int		day, bad;
	char		s1[64], s2[64];

	for (z = 0; z < sizeof(zones) / sizeof(zones[0]); z++) {
		set_zone(zones[z]);
		for (k = 0; k < sizeof(times) / sizeof(times[0]); k++) {
			bad = 0;
			t = schedule_next(utc("2025-12-31 12:00:00"),
			    times[k][0], times[k][1]);
			for (day = 0; day < 400; day++) {
				n = schedule_next(t, times[k][0], times[k][1]);
				localtime_r(&t, &a);
				localtime_r(&n, &b);
				/* the local date moves on by exactly one */
				a.tm_mday++;
				a.tm_hour = 12;
				a.tm_isdst = -1;
				mktime(&a);
				if (n - t < 23 * HOUR || n - t > 25 * HOUR ||
				    a.tm_mday != b.tm_mday ||
				    a.tm_mon != b.tm_mon) {
					print_message("%s %02d:%02d: %s -> "
					    "%s\n", zones[z], times[k][0],
					    times[k][1],
					    show_utc(t, s1, sizeof(s1)),
					    show_utc(n, s2, sizeof(s2)));
					bad++;
				}
				t = n;
			}
			if (bad)
				fail_msg("%s %02d:%02d: %d bad step(s)",
				    zones[z], times[k][0], times[k][1], bad);
		}
	}
}

static void
test_schedule_unknown_zone(void **state)
{
	static const char *const bad[] = { "Mars/Olympus", "../etc/passwd",
	    "America/../../etc/passwd", "Nowhere", "Europe/Nowhere" };
	time_t		now = utc("2026-07-01 12:00:00");
	struct tm	tm;
	size_t		i;

	set_zone("America/New_York");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (schedule_set_timezone(bad[i]) != -1)
			fail_msg("\"%s\": accepted", bad[i]);
		/* the zone in force is unchanged: 12:00 UTC is 08:00 EDT */
		localtime_r(&now, &tm);
		assert_int_equal(tm.tm_hour, 8);
		assert_string_equal(getenv("TZ"), "America/New_York");
	}
	assert_int_equal(schedule_set_timezone("UTC"), 0);
	localtime_r(&now, &tm);
	assert_int_equal(tm.tm_hour, 12);
	assert_int_equal(schedule_set_timezone("Europe/Stockholm"), 0);
	localtime_r(&now, &tm);
	assert_int_equal(tm.tm_hour, 14);
}

/*
 * A directory of the zone database is no zone: TZ=America would leave
 * glibc on UTC without a word.
 */
static void
test_schedule_zone_directory(void **state)
{
	static const char *const dirs[] = { "America", "Europe/" };
	size_t	i, bad = 0;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		set_zone("Europe/Stockholm");
		if (schedule_set_timezone(dirs[i]) != -1) {
			print_message("\"%s\": accepted, TZ now \"%s\"\n",
			    dirs[i], getenv("TZ"));
			bad++;
		}
	}
	if (bad > 0)
		fail_msg("%zu directory name(s) accepted as a zone", bad);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_schedule_table),
		cmocka_unit_test(test_schedule_dst_distance),
		cmocka_unit_test(test_schedule_gap),
		cmocka_unit_test(test_schedule_year),
		cmocka_unit_test(test_schedule_unknown_zone),
		cmocka_unit_test(test_schedule_zone_directory),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
