/*
 * Emission times in the process's time zone (TZ is set from the config):
 * plain functions over time_t, recomputed from the wall clock after each
 * run, so DST changes move nothing.
 */
#ifndef HOOKCAST_SCHEDULE_H
#define HOOKCAST_SCHEDULE_H

#include <time.h>

/* Is tz a zone of the zone database ("UTC", "Europe/Stockholm")? */
int	 schedule_zone_exists(const char *tz);
/* Make tz the process's time zone; 0 or -1 if it is unknown. */
int	 schedule_set_timezone(const char *tz);
/* The first local hour:minute strictly after now. */
time_t	 schedule_next(time_t now, int hour, int minute);
/* The last local hour:minute at or before now. */
time_t	 schedule_prev(time_t now, int hour, int minute);
/*
 * The same in zone tz (a show's), the process's zone kept: TZ is set
 * for the call and put back. Only the loop's thread calls these.
 */
time_t	 schedule_next_in(const char *tz, time_t now, int hour, int minute);
time_t	 schedule_prev_in(const char *tz, time_t now, int hour, int minute);

#endif
