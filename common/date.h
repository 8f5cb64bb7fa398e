/*
 * Dates as Internet messages and HTTP write them (RFC 5322, RFC 9110's
 * IMF-fixdate): day and month names in English whatever the locale. The
 * feed, the served files' Last-Modified and the sinks' Retry-After use
 * them.
 */
#ifndef HOOKCAST_DATE_H
#define HOOKCAST_DATE_H

#include <stddef.h>
#include <time.h>

/* Room for what date_format writes, any year, a zone of 5 bytes, the NUL. */
#define DATE_LEN	40

/* "Sun" to "Sat", by tm_wday. */
extern const char *const date_days[7];
/* "Jan" to "Dec", by tm_mon. */
extern const char *const date_months[12];

/* t in UTC as "Wed, 06 May 2026 10:00:44 ZONE" into out (outsz bytes). */
void	 date_format(time_t t, const char *zone, char *out, size_t outsz);
/*
 * Seconds since the epoch of a UTC time given in fields already checked
 * (month 1 to 12, day within the month, second up to 60), in the
 * Gregorian calendar: timegm without its normalising and its time zone
 * machinery, which cost a payload's timestamps 1,600 instructions each.
 */
time_t	 date_utc(int year, int mon, int mday, int hour, int min, int sec);
/* Days from 1970-01-01 to a civil date (proleptic Gregorian). */
long	 date_daynum(int year, int mon, int mday);

#endif
