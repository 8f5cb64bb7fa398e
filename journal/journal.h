/*
 * The journal: every accepted delivery's normalized records, appended to
 * STATE/journal before the 2xx goes out, replayed at start. Each record is
 * self-checking:
 *
 *	"HCJ2"  u64 length  u32 CRC-32 of the payload  payload (JSON)
 *
 * (integers little-endian), so a torn last record after a crash is found,
 * logged and cut off, never misread. Frames written by earlier versions,
 * "HCJ1" with a u32 length, are read as well.
 *
 * No payload is larger than JOURNAL_MAX_RECORD, and that one limit holds
 * both ways: append (and rewrite) refuse a larger record with EFBIG, the
 * file unchanged, so that a delivery whose record is too large is refused
 * before its 2xx; and replay reads every record up to it. A frame over
 * the limit whose checksum still matches (only an older version could
 * have written one) is intact: replay skips it, loudly, and goes on to
 * the records after it instead of cutting them off.
 *
 * Emitting a day appends a rotation record; the scheduled emission
 * compacts the file to what is still open. What the payloads say is
 * jrecord.h's.
 *
 * Records appended since the last sync form the open batch: in the file
 * but not yet durable. The journal keeps where the batch began, so that
 * when its sync fails the batch can be cut off (its deliveries refused
 * with a 503 and sent again). And it refuses a rewrite while a batch is
 * open: the records handed to a rewrite are built from the store, which
 * takes a delivery only once its record is synced, so an open batch
 * would be left out of the new file and then answered 200 by its sync.
 * Syncing first is right only when everything appended is in what the
 * rewrite is given.
 */
#ifndef HOOKCAST_JOURNAL_H
#define HOOKCAST_JOURNAL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include <jansson.h>

enum journal_sync {
	JOURNAL_SYNC_ALWAYS,	/* fdatasync after each record */
	JOURNAL_SYNC_BATCH,	/* group commit in the sync thread */
	JOURNAL_SYNC_NONE,	/* leave it to the kernel */
};

/*
 * The largest payload. A delivery's record is about the size of its body
 * (its branch is kept once, not per commit), and bodies are at most
 * max_body (64M at most): twice that leaves room for the keys a record
 * adds, and bounds what replay holds in memory for one record.
 */
#define JOURNAL_MAX_RECORD	((size_t)128 * 1024 * 1024)

struct buf;
struct journal;

/* CRC-32 (IEEE) of len bytes, continuing from crc (start with 0). */
uint32_t	 journal_crc32(uint32_t crc, const void *, size_t len);

/* Open (creating) STATE/journal for appending. NULL + *cause. */
struct journal	*journal_open(const char *state_dir, char **cause);
void		 journal_close(struct journal *);

/*
 * Read every whole record from the start, calling apply on each parsed
 * payload; a torn or corrupt tail is logged and cut off, an intact
 * record over JOURNAL_MAX_RECORD logged and skipped. Returns the number
 * of records applied, or -1 on a read error.
 */
long		 journal_replay(struct journal *,
		    void (*apply)(json_t *rec, void *arg), void *arg);
/*
 * The same, handing apply each checked payload's bytes (borrowed for the
 * call); apply returns 0, or -1 when the payload is no record (it is
 * then cut off as a corrupt tail is).
 */
long		 journal_replay_raw(struct journal *,
		    int (*apply)(const char *payload, size_t len, void *arg),
		    void *arg);

/*
 * Append one record (not yet synced; it joins the open batch, or begins
 * one). 0, or -1 with errno set and the file unchanged: EFBIG for a
 * payload over JOURNAL_MAX_RECORD.
 */
int		 journal_append(struct journal *, const json_t *rec);
/* The same for a payload of len bytes already encoded (jrecord_write_*). */
int		 journal_append_bytes(struct journal *, const char *payload,
		    size_t len);
/*
 * The same, but the record is held in memory and written with the others
 * held when a sync begins (journal_sync_begin, journal_sync) or anything
 * else is appended: one write for a batch of deliveries. Its offsets
 * count at once. A failed write of held records is reported by the next
 * sync or append, until journal_abort_unsynced; past a bound (1 MiB) they
 * are written at once, and this append fails if that write does.
 */
int		 journal_append_held(struct journal *, const char *payload,
		    size_t len);
/* Make every appended record durable, closing the batch. 0 or -1 (errno). */
int		 journal_sync(struct journal *);
/* Whether records were appended since the last sync (a batch is open). */
int		 journal_unsynced(const struct journal *);
/*
 * Cut the file back to where the open batch began (after a failed sync:
 * the batch's records must not be replayed). 0 (also with no batch open),
 * or -1 with the batch still open.
 */
int		 journal_abort_unsynced(struct journal *);
/* Current end of the file; journal_truncate() cuts back to it. */
off_t		 journal_offset(const struct journal *);
/* Cut the file to off (a batch begun at or after off is closed). 0 or -1. */
int		 journal_truncate(struct journal *, off_t);
/* Bytes in the file. */
off_t		 journal_size(const struct journal *);
/* Where the records not yet known durable begin (the end when none). */
off_t		 journal_durable(const struct journal *);

/*
 * Group commit off the loop. A thread of the journal's own runs fdatasync
 * when asked and leaves the result for the loop, which it wakes through
 * an eventfd; the loop goes on appending meanwhile. Everything else in
 * this interface is the loop's alone.
 *
 * journal_sync_start: start the thread; returns the eventfd to watch for
 * reading (the journal's; closed by journal_close), or -1 + *cause.
 * journal_sync_begin: write what is held and ask for a sync of every
 * record appended so far; 1 when asked, 0 when one is already asked for,
 * running or uncollected, or when nothing is unsynced, -1 with errno when
 * the held records could not be written (the batch is still open, as
 * after a failed sync). journal_sync_collect: take the finished
 * sync's result (call when the eventfd is readable): 1 when it succeeded
 * (journal_durable() has moved on, *secs is its time), -1 with errno when
 * it failed (the batch is still open: journal_abort_unsynced, as after
 * journal_sync), 0 when none had finished. journal_sync_busy: a sync
 * asked for, running or uncollected (rotation waits for none).
 * journal_sync_wait: block until the thread is idle; 0, or the errno of
 * a failed sync not yet collected. journal_sync_stop: stop and join the
 * thread (journal_close does).
 *
 * journal_sync waits for the thread first and fails when it failed, and
 * journal_rewrite refuses (EBUSY) while a sync is busy, so the thread
 * never syncs a descriptor that the rewrite has closed.
 */
int		 journal_sync_start(struct journal *, char **cause);
int		 journal_sync_begin(struct journal *);
int		 journal_sync_collect(struct journal *, double *secs);
int		 journal_sync_busy(struct journal *);
int		 journal_sync_wait(struct journal *);
void		 journal_sync_stop(struct journal *);

/*
 * Replace the journal with the given records: a new file (0600, an
 * unpredictable name, never through a symlink) written, synced and
 * renamed over the old. 0, or -1 with errno set: EBUSY while a batch is
 * open (see above), EFBIG when a record is over JOURNAL_MAX_RECORD, and
 * the old journal kept; if only the final directory
 * sync failed, the new journal is in place and in use all the same.
 */
int		 journal_rewrite(struct journal *, json_t *const *recs, size_t n);
/* The same with the records' payloads as bytes (jrecord_write_*). */
int		 journal_rewrite_bytes(struct journal *, const struct buf *recs,
		    size_t n);

#endif
