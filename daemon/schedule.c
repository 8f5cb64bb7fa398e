/* Emission times in the configured time zone. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "schedule.h"
#include "xmalloc.h"

int
schedule_set_timezone(const char *tz)
{
	char	*path;
	int	 ok;

	if (strcmp(tz, "UTC") != 0) {
		xasprintf(&path, "/usr/share/zoneinfo/%s", tz);
		ok = strstr(tz, "..") == NULL && access(path, R_OK) == 0;
		free(path);
		if (!ok)
			return -1;
	}
	setenv("TZ", tz, 1);
	tzset();
	return 0;
}

/* Local hour:minute on the day `days` after now's local date. */
static time_t
schedule_at(time_t now, int days, int hour, int minute)
{
	struct tm	tm;

	localtime_r(&now, &tm);
	tm.tm_mday += days;
	tm.tm_hour = hour;
	tm.tm_min = minute;
	tm.tm_sec = 0;
	tm.tm_isdst = -1;
	return mktime(&tm);
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
