/* Emission times in the configured time zone. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "schedule.h"
#include "xmalloc.h"

int
schedule_zone_exists(const char *tz)
{
	char		*path;
	struct stat	 st;
	int		 ok;

	if (strcmp(tz, "UTC") == 0)
		return 1;
	if (*tz == '\0' || *tz == '/' || strstr(tz, "..") != NULL)
		return 0;
	/* a zone is a file; "America" is a folder, which glibc reads as UTC */
	xasprintf(&path, "/usr/share/zoneinfo/%s", tz);
	ok = stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	    access(path, R_OK) == 0;
	free(path);
	return ok;
}

int
schedule_set_timezone(const char *tz)
{
	if (!schedule_zone_exists(tz))
		return -1;
	setenv("TZ", tz, 1);
	tzset();
	return 0;
}

/*
 * Local hour:minute on the day `days` after now's local date. When the
 * clocks go back that time happens twice: the first is the day's.
 */
static time_t
schedule_at(time_t now, int days, int hour, int minute)
{
	struct tm	tm, want, got;
	time_t		t, other;

	localtime_r(&now, &tm);
	tm.tm_mday += days;
	tm.tm_hour = hour;
	tm.tm_min = minute;
	tm.tm_sec = 0;
	tm.tm_isdst = -1;
	want = tm;
	t = mktime(&tm);
	/* the same wall time with the other DST flag, if it exists */
	want.tm_isdst = tm.tm_isdst > 0 ? 0 : 1;
	other = mktime(&want);
	if (other != (time_t)-1 && other < t) {
		localtime_r(&other, &got);
		if (got.tm_hour == hour && got.tm_min == minute &&
		    got.tm_mday == tm.tm_mday)
			t = other;
	}
	return t;
}

time_t
schedule_next(time_t now, int hour, int minute)
{
	time_t	t;
	int	d;

	for (d = 0; d < 3; d++)
		if ((t = schedule_at(now, d, hour, minute)) > now)
			return t;
	return now + 86400;
}

time_t
schedule_prev(time_t now, int hour, int minute)
{
	time_t	t;
	int	d;

	for (d = 0; d > -3; d--)
		if ((t = schedule_at(now, d, hour, minute)) <= now)
			return t;
	return now - 86400;
}

/* Run in zone tz: the process's TZ is saved and put back after. */
struct schedule_zone {
	char	*saved;
	int	 had;
};

static void
schedule_zone_enter(struct schedule_zone *z, const char *tz)
{
	const char	*cur = getenv("TZ");

	z->had = cur != NULL;
	z->saved = cur != NULL ? xstrdup(cur) : NULL;
	setenv("TZ", tz, 1);
	tzset();
}

static void
schedule_zone_leave(struct schedule_zone *z)
{
	if (z->had)
		setenv("TZ", z->saved, 1);
	else
		unsetenv("TZ");
	tzset();
	free(z->saved);
}

/* fn(now, hour, minute) in zone tz */
static time_t
schedule_in(const char *tz, time_t (*fn)(time_t, int, int), time_t now,
    int hour, int minute)
{
	struct schedule_zone	z;
	time_t			t;

	schedule_zone_enter(&z, tz);
	t = fn(now, hour, minute);
	schedule_zone_leave(&z);
	return t;
}

time_t
schedule_next_in(const char *tz, time_t now, int hour, int minute)
{
	return schedule_in(tz, schedule_next, now, hour, minute);
}

time_t
schedule_prev_in(const char *tz, time_t now, int hour, int minute)
{
	return schedule_in(tz, schedule_prev, now, hour, minute);
}
