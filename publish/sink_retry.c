/* When to try a publication again: backoff and Retry-After. */
#include <ctype.h>
#include <string.h>
#include <time.h>

#include "date.h"
#include "sink.h"

int64_t
retry_backoff(unsigned attempt, int min_s, int max_s, uint32_t rnd)
{
	int64_t	base = (int64_t)min_s * 1000, cap = (int64_t)max_s * 1000;
	int64_t	half;

	if (attempt == 0)
		attempt = 1;
	while (--attempt > 0 && base < cap)
		base *= 2;
	if (base > cap)
		base = cap;
	half = base / 2;
	return base - half + (half > 0 ? (int64_t)(rnd % (uint64_t)(half + 1)) :
	    0);
}

/* n digits of s into *v; the end, or NULL. */
static const char *
retry_digits(const char *s, int n, int *v)
{
	*v = 0;
	while (n-- > 0) {
		if (!isdigit((unsigned char)*s))
			return NULL;
		*v = *v * 10 + (*s++ - '0');
	}
	return s;
}

/*
 * An IMF-fixdate, "Sun, 06 Nov 1994 08:49:37 GMT", the form senders must
 * use (RFC 9110, section 5.6.7). Parsed by hand: strptime's names follow
 * the locale.
 */
static int
retry_http_date(const char *s, time_t *out)
{
	struct tm	tm;
	size_t		i;
	int		v;
	time_t		t;

	memset(&tm, 0, sizeof(tm));
	if (strlen(s) != 29)
		return -1;
	for (i = 0; i < 7; i++)
		if (strncmp(s, date_days[i], 3) == 0)
			break;
	if (i == 7 || strncmp(s + 3, ", ", 2) != 0)
		return -1;
	if ((s = retry_digits(s + 5, 2, &tm.tm_mday)) == NULL || *s++ != ' ')
		return -1;
	for (i = 0; i < 12; i++)
		if (strncmp(s, date_months[i], 3) == 0)
			break;
	if (i == 12 || s[3] != ' ')
		return -1;
	tm.tm_mon = (int)i;
	if ((s = retry_digits(s + 4, 4, &v)) == NULL || *s++ != ' ')
		return -1;
	tm.tm_year = v - 1900;
	if ((s = retry_digits(s, 2, &tm.tm_hour)) == NULL || *s++ != ':' ||
	    (s = retry_digits(s, 2, &tm.tm_min)) == NULL || *s++ != ':' ||
	    (s = retry_digits(s, 2, &tm.tm_sec)) == NULL ||
	    strcmp(s, " GMT") != 0)
		return -1;
	if (tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 ||
	    tm.tm_min > 59 || tm.tm_sec > 60 || v < 1970)
		return -1;
	if ((t = timegm(&tm)) == (time_t)-1)
		return -1;
	*out = t;
	return 0;
}

int
retry_after_parse(const char *value, time_t now, long long *seconds)
{
	const char	*s = value;
	long long	 v = 0;
	time_t		 at;

	while (*s == ' ' || *s == '\t')
		s++;
	if (isdigit((unsigned char)*s)) {
		for (; isdigit((unsigned char)*s); s++) {
			v = v * 10 + (*s - '0');
			if (v > RETRY_AFTER_MAX)
				return -1;
		}
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s != '\0')
			return -1;
		*seconds = v;
		return 0;
	}
	if (retry_http_date(s, &at) == -1)
		return -1;
	if (at <= now)
		v = 0;
	else if (at - now > RETRY_AFTER_MAX)
		return -1;
	else
		v = (long long)(at - now);
	*seconds = v;
	return 0;
}
