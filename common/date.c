/* Dates as Internet messages and HTTP write them. */
#include <stdio.h>
#include <time.h>

#include "date.h"

const char *const date_days[7] = {
	"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat",
};

const char *const date_months[12] = {
	"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
	"Nov", "Dec",
};

void
date_format(time_t t, const char *zone, char *out, size_t outsz)
{
	struct tm	tm;

	gmtime_r(&t, &tm);
	snprintf(out, outsz, "%s, %02d %s %04d %02d:%02d:%02d %s",
	    date_days[tm.tm_wday], tm.tm_mday, date_months[tm.tm_mon],
	    tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec, zone);
}

long
date_daynum(int year, int mon, int mday)
{
	/* years counted from March, so the leap day ends a year */
	long	y = year - (mon <= 2);
	long	era = (y >= 0 ? y : y - 399) / 400;
	long	yoe = y - era * 400;
	long	doy = (153L * (mon + (mon > 2 ? -3 : 9)) + 2) / 5 + mday - 1;
	long	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;

	/* 719,468 days from 0000-03-01 to 1970-01-01 */
	return era * 146097 + doe - 719468;
}

time_t
date_utc(int year, int mon, int mday, int hour, int min, int sec)
{
	return (time_t)date_daynum(year, mon, mday) * 86400 +
	    hour * 3600 + min * 60 + sec;
}
