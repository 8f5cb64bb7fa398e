/*
 * Journal records: what the journal's frames carry, as JSON objects with
 * short keys (the journal is read by us only). "t" names the kind:
 *
 *	"d"	a delivery's commits, PRs and pushes, or a whole open day
 *	"r"	a repository's day was emitted (journals before "h")
 *	"h"	a repository's day was handed to the drafter; a new one opens
 *	"e"	the handed-off day's episode is out
 *	"m"	its draft failed: the days are one again
 *	"w"	the window of days opened from then on
 *	"s"	the accepted deliveries' keys, for dedup
 *
 * A show with a schedule of its own keeps copies of its members' days
 * (daemon/showday.c): its markers name it as the repository "show:SLUG"
 * (no repository's name has a ':'), and compaction writes its copies as
 * "d" records with "sh":SLUG. A "d" record with a "key" is a delivery
 * as accepted, which such shows copy on replay as they did live.
 *
 * The daemon writes records with jrecord_write_*, straight into bytes;
 * jrecord_encode_* build the same records as json_t, whose compact dump
 * is those very bytes: they stay as the reference the writers are tested
 * against (tests/unit/test_jrecord_write.c) and for tests that build
 * records. The framed file itself is journal.h's.
 */
#ifndef HOOKCAST_JRECORD_H
#define HOOKCAST_JRECORD_H

#include <stddef.h>
#include <time.h>

#include <jansson.h>

#include "buf.h"
#include "day.h"
#include "handler.h"

/*
 * {"t":"d","key":K,"at":T,"repo":..,"db":..,"commits":[..],"prs":[..],
 * "pushes":[..]}: an accepted delivery, with "hu":.. (the repository's
 * html_url) after "db" when the delivery had one. New reference. In "d"
 * records a commit carries its branch ("br") only when it differs from
 * the branch of the commit before it: a push's branch is kept once, so a
 * record is about the size of the payload it came from.
 */
json_t	*jrecord_encode_delivery(const struct handler_result *,
	    const char *key, time_t at);
/*
 * The same record with "start":start after the rest (the window the
 * daemon had open), appended to b as the bytes json_dump_callback gave
 * for it (JSON_COMPACT), without building a json_t.
 */
void	 jrecord_write_delivery(struct buf *b, const struct handler_result *,
	    const char *key, time_t at, time_t start);
/*
 * A repository's whole open day as "d" records {"t":"d","repo":..,
 * "db":..,"start":T,"commits":..,"prs":..,"pushes":..} ("hu" after "db"
 * when the day has one) of at most JRECORD_DAY_ITEMS items and
 * JRECORD_DAY_BYTES each (an item larger than that goes alone), so that
 * compaction never writes one record that grows with the day. Applied
 * in order they give the day back. Appended to *recs (grown) as new
 * references; *n counts them.
 */
#define JRECORD_DAY_ITEMS	2048
#define JRECORD_DAY_BYTES	((size_t)4 * 1024 * 1024)
void	 jrecord_encode_day(const struct day *, json_t ***recs, size_t *n);
/*
 * The same records as jrecord_encode_day's, each the bytes that
 * json_dump_callback gives for it, appended to *recs (grown) as buffers
 * the caller frees (buf_free, then free(*recs)); *n counts them.
 */
void	 jrecord_write_day(const struct day *, struct buf **recs, size_t *n);
/*
 * The same with "sh":show after "t" in each record: the day is a copy
 * held for that show (new readers apply it there only).
 */
void	 jrecord_write_show_day(const struct day *, const char *show,
	    struct buf **recs, size_t *n);
/* {"t":"r","repo":R,"start":T}: the day of repo was emitted. New. */
json_t	*jrecord_encode_rotate(const char *repo, time_t start);
/*
 * {"t":"h","repo":R,"start":T}: the open day of repo went to the drafter
 * and a new one opened at T. Records of repo after it are the new day's.
 * {"t":"e","repo":R}: that day's episode is written (the day is done).
 * {"t":"m","repo":R}: its draft failed; the new day joined it again.
 * A "h" with neither after it is a draft cut short: drafted again at
 * start. New references.
 */
json_t	*jrecord_encode_handoff(const char *repo, time_t start);
json_t	*jrecord_encode_drafted(const char *repo);
json_t	*jrecord_encode_merge_back(const char *repo);
/* {"t":"w","start":T}: days opened from now on start at T. New. */
json_t	*jrecord_encode_window(time_t start);
/* {"t":"s","seen":[[key,at],...]}: accepted deliveries, for dedup. New. */
json_t	*jrecord_encode_seen(const char *const *keys, const time_t *at,
	    size_t n);
/*
 * The bytes of the records above, appended to b, without a json_t. The
 * markers naming a repository return 0, or -1 with errno EINVAL (and b
 * unchanged) when repo is NULL or not UTF-8, which json_pack refused.
 */
int	 jrecord_write_rotate(struct buf *b, const char *repo, time_t start);
int	 jrecord_write_handoff(struct buf *b, const char *repo, time_t start);
int	 jrecord_write_drafted(struct buf *b, const char *repo);
int	 jrecord_write_merge_back(struct buf *b, const char *repo);
void	 jrecord_write_window(struct buf *b, time_t start);
/* {"t":"w","repo":R,"start":T}: R's days open at T (a show's). 0 or -1. */
int	 jrecord_write_window_of(struct buf *b, const char *repo, time_t start);
void	 jrecord_write_seen(struct buf *b, const char *const *keys,
	    const time_t *at, size_t n);
/*
 * A record read back from the journal's bytes, without a json_t. Fields
 * a record lacks (or holds with another type) are NULL or 0, as reading
 * them with jansson gave: a string that is not one is NULL, an integer
 * that is not one 0, a boolean that is not true false; of a list of
 * strings only the strings count; of duplicate keys the last wins.
 */
struct jrecord {
	char		 kind;		/* "t"'s first byte; 0 when none */
	char		*repo;
	char		*db;
	char		*hu;		/* the repository's html_url */
	char		*show;		/* "sh": a show's copy of a day */
	char		*key;
	time_t		 at;
	time_t		 start;
	int		 has_start;	/* "start" was an integer */
	struct commit	*commits;	/* each with its branch, not parsed */
	size_t		 ncommits;
	struct merged_pr *prs;
	size_t		 nprs;
	struct push	*pushes;
	size_t		 npushes;
	/* a commit without an id or a message: the items from it on dropped */
	int		 malformed;
	char	       **seen;		/* "s": keys, and when each was taken */
	time_t		*seen_at;
	size_t		 nseen;
};

/*
 * Decode a record's payload (len bytes, as the journal holds it) into
 * *rec, which jrecord_clear frees. 0, or -1 when it is not JSON (or
 * nests deeper than jscan's JSCAN_MAX_DEPTH, which no record does); a
 * payload that is JSON but no object is a record of kind 0.
 */
int	 jrecord_decode(const char *buf, size_t len, struct jrecord *rec);
void	 jrecord_clear(struct jrecord *);
/*
 * Move the commits, PRs and pushes of a decoded "d" record into day
 * (revert info parsed from each message). Returns 0, or -1 on a malformed
 * record (what was added before the fault stays).
 */
int	 jrecord_take(struct jrecord *, struct day *);
/* jrecord_take of a record as a json_t (jrecord_decode of its bytes). */
int	 jrecord_apply(const json_t *, struct day *);

#endif
