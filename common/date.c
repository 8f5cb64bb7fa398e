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
