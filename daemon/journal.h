/*
 * The journal: every accepted delivery's normalized records, appended to
 * STATE/journal before the 2xx goes out, replayed at start. Each record is
 * self-checking:
 *
 *	"HCJ1"  u32 length  u32 CRC-32 of the payload  payload (JSON)
 *
 * (integers little-endian), so a torn last record after a crash is found,
 * logged and cut off, never misread. Emitting a day appends a rotation
 * record; the scheduled emission compacts the file to what is still open.
 */
#ifndef HOOKCAST_JOURNAL_H
#define HOOKCAST_JOURNAL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include <jansson.h>

#include "day.h"
#include "handler.h"

enum journal_sync {
	JOURNAL_SYNC_ALWAYS,	/* fdatasync after each record */
	JOURNAL_SYNC_BATCH,	/* one fdatasync per loop turn */
	JOURNAL_SYNC_NONE,	/* leave it to the kernel */
};

struct journal;

/* CRC-32 (IEEE) of len bytes, continuing from crc (start with 0). */
uint32_t	 journal_crc32(uint32_t crc, const void *, size_t len);

/* Open (creating) STATE/journal for appending. NULL + *cause. */
struct journal	*journal_open(const char *state_dir, char **cause);
void		 journal_close(struct journal *);

/*
 * Read every whole record from the start, calling apply on each parsed
 * payload; a torn or corrupt tail is logged and cut off. Returns the
 * number of records applied, or -1 on a read error.
 */
long		 journal_replay(struct journal *,
		    void (*apply)(json_t *rec, void *arg), void *arg);

/* Append one record (not yet synced). 0, or -1 with the file unchanged. */
int		 journal_append(struct journal *, const json_t *rec);
/* Make every appended record durable. 0 or -1 (errno set). */
int		 journal_sync(struct journal *);
/* Current end of the file; journal_truncate() cuts back to it. */
off_t		 journal_offset(const struct journal *);
int		 journal_truncate(struct journal *, off_t);
/* Bytes in the file. */
off_t		 journal_size(const struct journal *);

/*
 * Replace the journal with the given records (a new file written, synced
 * and renamed over the old). 0 or -1 with the old journal kept.
 */
int		 journal_rewrite(struct journal *, json_t *const *recs, size_t n);

/* Codec: records as JSON payloads. */

/* {"t":"d","key":K,"at":T,"repo":..,"db":..,"commits":[..],"prs":[..],"pushes":[..]} */
json_t		*journal_encode_delivery(const struct handler_result *,
		    const char *key, time_t at);
/* A repository's whole open day, for compaction. */
json_t		*journal_encode_day(const struct day *);
/* {"t":"r","repo":R,"start":T}: the day of repo was emitted. */
json_t		*journal_encode_rotate(const char *repo, time_t start);
/* {"t":"w","start":T}: days opened from now on start at T. */
json_t		*journal_encode_window(time_t start);
/* {"t":"s","seen":[[key,at],...]}: accepted deliveries, for dedup. */
json_t		*journal_encode_seen(const char *const *keys, const time_t *at,
		    size_t n);
/*
 * Add the commits, PRs and pushes of a "d" payload to day (revert info
 * parsed anew from each message). Returns 0, or -1 on a malformed record
 * (what was added before the fault stays).
 */
int		 journal_apply_records(const json_t *, struct day *);

#endif
