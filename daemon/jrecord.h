/*
 * Journal records: what the journal's frames carry, as JSON objects with
 * short keys (the journal is read by us only). "t" names the kind:
 *
 *	"d"	a delivery's commits, PRs and pushes, or a whole open day
 *	"r"	a repository's day was emitted
 *	"w"	the window of days opened from then on
 *	"s"	the accepted deliveries' keys, for dedup
 *
 * The framed file itself is journal.h's.
 */
#ifndef HOOKCAST_JRECORD_H
#define HOOKCAST_JRECORD_H

#include <stddef.h>
#include <time.h>

#include <jansson.h>

#include "day.h"
#include "handler.h"

/*
 * {"t":"d","key":K,"at":T,"repo":..,"db":..,"commits":[..],"prs":[..],
 * "pushes":[..]}: an accepted delivery. New reference.
 */
json_t	*jrecord_encode_delivery(const struct handler_result *,
	    const char *key, time_t at);
/* {"t":"d","repo":..,"start":T,..}: a repository's whole open day. New. */
json_t	*jrecord_encode_day(const struct day *);
/* {"t":"r","repo":R,"start":T}: the day of repo was emitted. New. */
json_t	*jrecord_encode_rotate(const char *repo, time_t start);
/* {"t":"w","start":T}: days opened from now on start at T. New. */
json_t	*jrecord_encode_window(time_t start);
/* {"t":"s","seen":[[key,at],...]}: accepted deliveries, for dedup. New. */
json_t	*jrecord_encode_seen(const char *const *keys, const time_t *at,
	    size_t n);
/*
 * Add the commits, PRs and pushes of a "d" record to day (revert info
 * parsed anew from each message). Returns 0, or -1 on a malformed record
 * (what was added before the fault stays).
 */
int	 jrecord_apply(const json_t *, struct day *);

#endif
