/* Unit tests: journal/journal.c */
#include <sys/resource.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "buf.h"
#include "journal.h"
#include "log.h"
#include "xmalloc.h"

/* "HCJ2", u64 length, u32 CRC-32; "HCJ1" frames had a u32 length */
#define HEADER		16
#define HEADER_V1	12

/* One state directory per test, removed with what is in it. */
struct fixture {
	char	dir[64];
	char	path[128];	/* dir/journal */
};

static int
setup(void **state)
{
	struct fixture	*fx = xcalloc(1, sizeof(*fx));

	snprintf(fx->dir, sizeof(fx->dir), "/tmp/hookcast-test-journal.XXXXXX");
	if (mkdtemp(fx->dir) == NULL) {
		free(fx);
		return -1;
	}
	snprintf(fx->path, sizeof(fx->path), "%s/journal", fx->dir);
	*state = fx;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture	*fx = *state;
	struct dirent	*de;
	DIR		*dir;
	char		 p[384];

	/* whatever a test planted or a rewrite left beside the journal */
	if ((dir = opendir(fx->dir)) != NULL) {
		while ((de = readdir(dir)) != NULL) {
			if (strcmp(de->d_name, ".") == 0 ||
			    strcmp(de->d_name, "..") == 0)
				continue;
			snprintf(p, sizeof(p), "%s/%s", fx->dir, de->d_name);
			unlink(p);
		}
		closedir(dir);
	}
	if (rmdir(fx->dir) == -1)
		fail_msg("%s: not removed", fx->dir);
	free(fx);
	log_set_level(LOG_LEVEL_INFO);
	return 0;
}

/* What replay hands over, kept as compact JSON text. */
struct seen {
	char	*v[64];
	size_t	 n;
};

static void
collect(json_t *rec, void *arg)
{
	struct seen	*s = arg;

	if (s->n == 64)
		fail_msg("too many records");
	s->v[s->n++] = json_dumps(rec, JSON_COMPACT | JSON_SORT_KEYS);
}

static void
seen_clear(struct seen *s)
{
	size_t	i;

	for (i = 0; i < s->n; i++)
		free(s->v[i]);
	s->n = 0;
}

static json_t *
record(int i)
{
	return json_pack("{s:s, s:i, s:s}", "t", "x", "i", i, "pad",
	    "some payload text, with \"quotes\" and \xc3\xa9");
}

static char *
record_text(int i)
{
	json_t	*r = record(i);
	char	*s = json_dumps(r, JSON_COMPACT | JSON_SORT_KEYS);

	json_decref(r);
	return s;
}

/* Records 0..n-1 replayed, and nothing else. */
static void
assert_records(const struct seen *s, size_t n)
{
	size_t	 i;
	char	*want;

	if (s->n != n)
		fail_msg("replayed %zu record(s), want %zu", s->n, n);
	for (i = 0; i < n; i++) {
		want = record_text((int)i);
		assert_string_equal(s->v[i], want);
		free(want);
	}
}

static off_t
file_size(const char *path)
{
	struct stat	st;

	if (stat(path, &st) == -1)
		fail_msg("%s: stat", path);
	return st.st_size;
}

static unsigned char *
file_read(const char *path, size_t *len)
{
	unsigned char	*buf;
	FILE		*f;

	*len = (size_t)file_size(path);
	buf = xmalloc(*len + 1);
	if ((f = fopen(path, "rb")) == NULL ||
	    fread(buf, 1, *len, f) != *len)
		fail_msg("%s: read", path);
	fclose(f);
	return buf;
}

static void
file_write(const char *path, const void *buf, size_t len)
{
	FILE	*f;

	if ((f = fopen(path, "wb")) == NULL ||
	    fwrite(buf, 1, len, f) != len || fclose(f) != 0)
		fail_msg("%s: write", path);
}

/* Names in dir other than the journal (temporary files left behind). */
static int
dir_others(const struct fixture *fx)
{
	struct dirent	*de;
	DIR		*dir;
	int		 n = 0;

	if ((dir = opendir(fx->dir)) == NULL)
		fail_msg("%s: opendir", fx->dir);
	while ((de = readdir(dir)) != NULL)
		if (strcmp(de->d_name, ".") != 0 &&
		    strcmp(de->d_name, "..") != 0 &&
		    strcmp(de->d_name, "journal") != 0)
			n++;
	closedir(dir);
	return n;
}

static struct journal *
open_journal(const struct fixture *fx)
{
	struct journal	*j;
	char		*cause = NULL;

	if ((j = journal_open(fx->dir, &cause)) == NULL)
		fail_msg("journal_open: %s", cause);
	return j;
}

/* A journal of n records 0..n-1; the end of each is put in ends. */
static void
write_records(const struct fixture *fx, int n, off_t *ends)
{
	struct journal	*j = open_journal(fx);
	json_t		*r;
	int		 i;

	for (i = 0; i < n; i++) {
		r = record(i);
		assert_int_equal(journal_append(j, r), 0);
		json_decref(r);
		if (ends != NULL)
			ends[i] = journal_offset(j);
	}
	assert_int_equal(journal_sync(j), 0);
	journal_close(j);
}

static uint32_t
get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

static uint64_t
get64(const unsigned char *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

static void
put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

/* An "HCJ1" frame (as earlier versions wrote) of payload; *len its size. */
static unsigned char *
frame_v1(const char *payload, size_t n, size_t *len)
{
	unsigned char	*f = xmalloc(HEADER_V1 + n);

	memcpy(f, "HCJ1", 4);
	put32(f + 4, (uint32_t)n);
	put32(f + 8, journal_crc32(0, payload, n));
	memcpy(f + HEADER_V1, payload, n);
	*len = HEADER_V1 + n;
	return f;
}

static void
test_journal_crc32(void **state)
{
	static const struct {
		const char	*in;
		uint32_t	 want;
	} vectors[] = {
		{ "123456789", 0xcbf43926U },
		{ "", 0 },
		{ "a", 0xe8b7be43U },
		{ "The quick brown fox jumps over the lazy dog", 0x414fa339U },
	};
	size_t		i;
	uint32_t	crc;

	for (i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++) {
		crc = journal_crc32(0, vectors[i].in, strlen(vectors[i].in));
		if (crc != vectors[i].want)
			fail_msg("crc32(\"%s\") = %08x, want %08x",
			    vectors[i].in, crc, vectors[i].want);
	}
	/* continuing from a previous value is the same as one call */
	crc = journal_crc32(0, "1234", 4);
	assert_int_equal(journal_crc32(crc, "56789", 5), 0xcbf43926U);
}

/* CRC-32 a bit at a time: what every faster way must agree with. */
static uint32_t
crc32_bits(uint32_t crc, const unsigned char *p, size_t len)
{
	int	k;

	crc = ~crc;
	while (len-- > 0) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = (crc & 1) ? 0xedb88320U ^ (crc >> 1) : crc >> 1;
	}
	return ~crc;
}

/*
 * Every length to 1,100 bytes at every offset to 16, of bytes that are
 * random and of runs of 0x00 and 0xff, in one call and split in two at
 * several points: the same as a bit at a time (long inputs take the
 * carry-less multiplication where the CPU has it, their tails and short
 * ones the tables).
 */
static void
test_journal_crc32_lengths(void **state)
{
	unsigned char	buf[1200];
	size_t		len, off, cut, i, fill;
	uint32_t	seed = 12345, want, got;

	(void)state;
	for (fill = 0; fill < 3; fill++) {
		for (i = 0; i < sizeof(buf); i++) {
			seed = seed * 1103515245U + 12345U;
			buf[i] = fill == 0 ? (unsigned char)(seed >> 16) :
			    fill == 1 ? 0 : 0xff;
		}
		for (off = 0; off < 16; off++)
			for (len = 0; len + off <= 1100; len++) {
				want = crc32_bits(0, buf + off, len);
				got = journal_crc32(0, buf + off, len);
				if (got != want)
					fail_msg("crc32 of %zu bytes at %zu "
					    "(fill %zu): %08x, want %08x",
					    len, off, fill, got, want);
				cut = (len * 7) / 11;
				got = journal_crc32(journal_crc32(0, buf + off,
				    cut), buf + off + cut, len - cut);
				if (got != want)
					fail_msg("crc32 of %zu bytes at %zu cut "
					    "at %zu: %08x, want %08x", len, off,
					    cut, got, want);
			}
	}
}

static void
test_journal_append_replay(void **state)
{
	struct fixture	*fx = *state;
	struct journal	*j;
	struct seen	 s = { .n = 0 };
	off_t		 ends[20];
	unsigned char	*buf;
	size_t		 len, i;
	off_t		 off;

	j = open_journal(fx);
	/* a new journal is empty */
	assert_int_equal(journal_replay(j, collect, &s), 0);
	assert_int_equal(journal_size(j), 0);
	journal_close(j);

	write_records(fx, 20, ends);
	assert_int_equal(file_size(fx->path), ends[19]);

	j = open_journal(fx);
	assert_int_equal(journal_size(j), ends[19]);
	assert_int_equal(journal_replay(j, collect, &s), 20);
	assert_records(&s, 20);
	assert_int_equal(journal_offset(j), ends[19]);
	seen_clear(&s);
	journal_close(j);

	/* the frames are "HCJ2", u64 length, CRC-32 of the payload, payload */
	buf = file_read(fx->path, &len);
	for (off = 0, i = 0; i < 20; i++) {
		uint64_t n = get64(buf + off + 4);

		assert_memory_equal(buf + off, "HCJ2", 4);
		assert_int_equal(off + HEADER + (off_t)n, ends[i]);
		assert_int_equal(get32(buf + off + 12),
		    journal_crc32(0, buf + off + HEADER, (size_t)n));
		off = ends[i];
	}
	free(buf);

	/* appending after a replay goes on at the end */
	j = open_journal(fx);
	assert_int_equal(journal_replay(j, collect, &s), 20);
	seen_clear(&s);
	{
		json_t *r = record(20);

		assert_int_equal(journal_append(j, r), 0);
		json_decref(r);
	}
	assert_int_equal(journal_replay(j, collect, &s), 21);
	assert_records(&s, 21);
	seen_clear(&s);
	journal_close(j);
}

/*
 * A crash in the middle of the third record: whatever was written of it,
 * replay gives the first two and cuts the file back to them, and the
 * journal takes the next record where the torn one began.
 */
static void
test_journal_torn_tail(void **state)
{
	struct fixture	*fx = *state;
	struct journal	*j;
	struct seen	 s = { .n = 0 };
	off_t		 ends[3], cut;
	unsigned char	*whole;
	size_t		 len;
	json_t		*r;

	log_set_level(LOG_LEVEL_ERR);	/* one warning per cut otherwise */
	write_records(fx, 3, ends);
	whole = file_read(fx->path, &len);
	assert_int_equal((off_t)len, ends[2]);
	assert_true(ends[2] - ends[1] > HEADER + 10);

	for (cut = ends[1]; cut < ends[2]; cut++) {
		file_write(fx->path, whole, (size_t)cut);
		j = open_journal(fx);
		if (journal_replay(j, collect, &s) != 2)
			fail_msg("cut at %lld (%lld into record 3): %zu "
			    "record(s)", (long long)cut,
			    (long long)(cut - ends[1]), s.n);
		assert_records(&s, 2);
		seen_clear(&s);
		if (file_size(fx->path) != ends[1])
			fail_msg("cut at %lld: file is %lld bytes, want %lld",
			    (long long)cut, (long long)file_size(fx->path),
			    (long long)ends[1]);
		assert_int_equal(journal_offset(j), ends[1]);

		/* the next append and replay give three */
		r = record(2);
		assert_int_equal(journal_append(j, r), 0);
		json_decref(r);
		assert_int_equal(journal_offset(j), ends[2]);
		assert_int_equal(journal_replay(j, collect, &s), 3);
		assert_records(&s, 3);
		seen_clear(&s);
		journal_close(j);

		/* and so does the file, read anew */
		j = open_journal(fx);
		assert_int_equal(journal_replay(j, collect, &s), 3);
		seen_clear(&s);
		journal_close(j);
		assert_int_equal(file_size(fx->path), ends[2]);
	}
	free(whole);
}

/* Damage in the last record: it is cut off, never misread. */
static void
test_journal_corrupt_tail(void **state)
{
	struct fixture	*fx = *state;
	struct journal	*j;
	struct seen	 s = { .n = 0 };
	off_t		 ends[3];
	unsigned char	*whole, *copy;
	size_t		 len, i;
	static const struct {
		const char	*what;
		int		 from;	/* 0: record 3's start, 1: its end */
		long		 at;	/* offset from there */
		unsigned char	 xor;
	} damage[] = {
		{ "payload, first byte", 0, HEADER, 0x01 },
		{ "payload, middle byte", 0, HEADER + 20, 0x20 },
		{ "payload, last byte", 1, -1, 0x80 },
		{ "checksum", 0, 13, 0x04 },
		{ "magic", 0, 0, 0x20 },
		{ "magic, another version", 0, 3, 0x07 },
		{ "length, larger", 0, 4, 0x01 },
		{ "length, huge", 0, 7, 0xff },
		{ "length, over 32 bits", 0, 8, 0x01 },
		{ "length, top byte", 0, 11, 0x80 },
	};

	log_set_level(LOG_LEVEL_ERR);
	write_records(fx, 3, ends);
	whole = file_read(fx->path, &len);
	copy = xmalloc(len);
	for (i = 0; i < sizeof(damage) / sizeof(damage[0]); i++) {
		off_t at = (damage[i].from ? ends[2] : ends[1]) + damage[i].at;

		memcpy(copy, whole, len);
		copy[at] ^= damage[i].xor;
		file_write(fx->path, copy, len);
		j = open_journal(fx);
		if (journal_replay(j, collect, &s) != 2)
			fail_msg("%s: %zu record(s)", damage[i].what, s.n);
		assert_records(&s, 2);
		seen_clear(&s);
		assert_int_equal(file_size(fx->path), ends[1]);
		journal_close(j);
	}

	/* a payload with a good checksum that is not JSON */
	{
		static const char junk[] = "not json {";
		unsigned char	*frame;
		size_t		 flen;

		frame = frame_v1(junk, sizeof(junk) - 1, &flen);
		memcpy(copy, whole, (size_t)ends[1]);
		memcpy(copy + ends[1], frame, flen);
		free(frame);
		file_write(fx->path, copy, (size_t)ends[1] + flen);
		j = open_journal(fx);
		assert_int_equal(journal_replay(j, collect, &s), 2);
		assert_records(&s, 2);
		seen_clear(&s);
		assert_int_equal(file_size(fx->path), ends[1]);
		journal_close(j);
	}

	/* damage in the middle record takes what follows with it */
	memcpy(copy, whole, len);
	copy[ends[0] + HEADER + 3] ^= 0x01;
	file_write(fx->path, copy, len);
	j = open_journal(fx);
	assert_int_equal(journal_replay(j, collect, &s), 1);
	assert_records(&s, 1);
	seen_clear(&s);
	assert_int_equal(file_size(fx->path), ends[0]);
	journal_close(j);

	free(copy);
	free(whole);
}

static void
test_journal_rewrite(void **state)
{
	struct fixture	*fx = *state;
	struct journal	*j;
	struct seen	 s = { .n = 0 };
	json_t		*recs[2];

	write_records(fx, 5, NULL);
	j = open_journal(fx);
	assert_int_equal(journal_replay(j, collect, &s), 5);
	seen_clear(&s);

	recs[0] = record(0);
	recs[1] = record(1);
	assert_int_equal(journal_rewrite(j, recs, 2), 0);
	json_decref(recs[0]);
	json_decref(recs[1]);
	assert_int_equal(journal_size(j), file_size(fx->path));
	assert_int_equal(dir_others(fx), 0);

	assert_int_equal(journal_replay(j, collect, &s), 2);
	assert_records(&s, 2);
	seen_clear(&s);

	/* the handle writes to the new file */
	recs[0] = record(2);
	assert_int_equal(journal_append(j, recs[0]), 0);
	json_decref(recs[0]);
	journal_close(j);

	j = open_journal(fx);
	assert_int_equal(journal_replay(j, collect, &s), 3);
	assert_records(&s, 3);
	seen_clear(&s);

	/* rewritten to nothing */
	assert_int_equal(journal_rewrite(j, NULL, 0), 0);
	assert_int_equal(journal_size(j), 0);
	assert_int_equal(file_size(fx->path), 0);
	assert_int_equal(journal_replay(j, collect, &s), 0);
	journal_close(j);
}

static void
append_record(struct journal *j, int i)
{
	json_t	*r = record(i);

	assert_int_equal(journal_append(j, r), 0);
	json_decref(r);
}

/*
 * The records appended since the last sync are the open batch: a sync
 * closes it, aborting cuts the file back to where it began.
 */
static void
test_journal_batch(void **state)
{
	struct fixture	*fx = *state;
	struct journal	*j;
	struct seen	 s = { .n = 0 };
	off_t		 synced, end;

	j = open_journal(fx);
	assert_false(journal_unsynced(j));
	/* nothing open: aborting changes nothing */
	assert_int_equal(journal_abort_unsynced(j), 0);
	assert_int_equal(journal_offset(j), 0);

	append_record(j, 0);
	assert_true(journal_unsynced(j));
	append_record(j, 1);
	assert_int_equal(journal_sync(j), 0);
	assert_false(journal_unsynced(j));
	synced = journal_offset(j);

	/* two appended, then aborted: back to the two synced ones */
	append_record(j, 2);
	assert_true(journal_unsynced(j));
	append_record(j, 3);
	assert_true(journal_unsynced(j));
	assert_int_equal(journal_abort_unsynced(j), 0);
	assert_false(journal_unsynced(j));
	assert_int_equal(journal_offset(j), synced);
	assert_int_equal(file_size(fx->path), synced);
	assert_int_equal(journal_abort_unsynced(j), 0);
	assert_int_equal(journal_offset(j), synced);

	/* a replay reads the open batch and leaves it open */
	append_record(j, 2);
	assert_int_equal(journal_replay(j, collect, &s), 3);
	assert_records(&s, 3);
	seen_clear(&s);
	assert_true(journal_unsynced(j));
	end = journal_offset(j);

	/* cutting at the end keeps the batch; before it, closes it */
	assert_int_equal(journal_truncate(j, end), 0);
	assert_true(journal_unsynced(j));
	assert_int_equal(journal_truncate(j, synced), 0);
	assert_false(journal_unsynced(j));
	assert_int_equal(file_size(fx->path), synced);

	/* a synced batch is not aborted */
	append_record(j, 2);
	assert_int_equal(journal_sync(j), 0);
	end = journal_offset(j);
	assert_int_equal(journal_abort_unsynced(j), 0);
	assert_int_equal(journal_offset(j), end);
	journal_close(j);

	j = open_journal(fx);
	assert_false(journal_unsynced(j));
	assert_int_equal(journal_replay(j, collect, &s), 3);
	assert_records(&s, 3);
	seen_clear(&s);
	journal_close(j);
}

/*
 * No rewrite while a batch is open: the records a rewrite is given come
 * from the store, which has not taken the batch's deliveries yet, so the
 * new journal would leave them out and their sync then answer 200.
 */
static void
test_journal_rewrite_busy(void **state)
{
	struct fixture	*fx = *state;
	struct journal	*j;
	struct seen	 s = { .n = 0 };
	json_t		*recs[4];
	off_t		 size;
	int		 i;

	write_records(fx, 3, NULL);
	j = open_journal(fx);
	assert_int_equal(journal_replay(j, collect, &s), 3);
	seen_clear(&s);
	for (i = 0; i < 4; i++)
		recs[i] = record(i);

	/* appended, not synced: refused, the file as it was */
	append_record(j, 3);
	size = journal_offset(j);
	errno = 0;
	assert_int_equal(journal_rewrite(j, recs, 2), -1);
	assert_int_equal(errno, EBUSY);
	assert_true(journal_unsynced(j));
	assert_int_equal(journal_offset(j), size);
	assert_int_equal(file_size(fx->path), size);
	assert_int_equal(dir_others(fx), 0);
	assert_int_equal(journal_replay(j, collect, &s), 4);
	assert_records(&s, 4);
	seen_clear(&s);

	/* synced, and the record passed in: rewritten with it */
	assert_int_equal(journal_sync(j), 0);
	assert_int_equal(journal_rewrite(j, recs, 4), 0);
	assert_false(journal_unsynced(j));
	assert_int_equal(journal_size(j), file_size(fx->path));
	assert_int_equal(dir_others(fx), 0);
	assert_int_equal(journal_replay(j, collect, &s), 4);
	assert_records(&s, 4);
	seen_clear(&s);

	/* a batch in the new file aborts back to the rewrite's end */
	size = journal_offset(j);
	append_record(j, 4);
	assert_int_equal(journal_abort_unsynced(j), 0);
	assert_int_equal(journal_offset(j), size);
	assert_int_equal(file_size(fx->path), size);
	journal_close(j);

	j = open_journal(fx);
	assert_int_equal(journal_replay(j, collect, &s), 4);
	assert_records(&s, 4);
	seen_clear(&s);
	journal_close(j);
	for (i = 0; i < 4; i++)
		json_decref(recs[i]);
}

/* Wait for the sync thread's eventfd, then collect: its result. */
static int
sync_collect(struct journal *j, int efd)
{
	struct pollfd	pfd = { .fd = efd, .events = POLLIN };
	double		secs = -1;
	int		rc;

	assert_int_equal(poll(&pfd, 1, 10000), 1);
	rc = journal_sync_collect(j, &secs);
	if (rc == 1)
		assert_true(secs >= 0);
	return rc;
}

/*
 * Group commit: the thread syncs what was appended when it was asked;
 * what is appended meanwhile stays open for the next sync, and rotation
 * waits for the thread.
 */
static void
test_journal_sync_thread(void **state)
{
	struct fixture	*fx = *state;
	struct journal	*j;
	struct seen	 s = { .n = 0 };
	char		*cause = NULL;
	json_t		*recs[1];
	off_t		 first;
	int		 efd;

	j = open_journal(fx);
	efd = journal_sync_start(j, &cause);
	assert_true(efd >= 0);
	assert_null(cause);
	/* nothing unsynced: nothing to ask for */
	assert_int_equal(journal_sync_begin(j), 0);
	assert_false(journal_sync_busy(j));

	append_record(j, 0);
	append_record(j, 1);
	first = journal_offset(j);
	assert_int_equal(journal_durable(j), 0);
	assert_int_equal(journal_sync_begin(j), 1);
	assert_true(journal_sync_busy(j));
	/* one at a time: asked for, running or uncollected */
	assert_int_equal(journal_sync_begin(j), 0);
	/* appended while it runs: not in this sync */
	append_record(j, 2);
	/* no rotation until the thread has reported and been heard */
	recs[0] = record(0);
	errno = 0;
	assert_int_equal(journal_rewrite(j, recs, 1), -1);
	assert_int_equal(errno, EBUSY);

	assert_int_equal(sync_collect(j, efd), 1);
	assert_false(journal_sync_busy(j));
	assert_int_equal(journal_durable(j), first);
	assert_true(journal_unsynced(j));
	/* a failure now cuts back to what the thread made durable */
	assert_int_equal(journal_abort_unsynced(j), 0);
	assert_int_equal(journal_offset(j), first);
	assert_int_equal(file_size(fx->path), first);

	append_record(j, 2);
	assert_int_equal(journal_sync_begin(j), 1);
	assert_int_equal(sync_collect(j, efd), 1);
	assert_false(journal_unsynced(j));
	assert_int_equal(journal_durable(j), journal_offset(j));

	/* a sync in the loop waits for the thread; its result is kept */
	append_record(j, 3);
	assert_int_equal(journal_sync_begin(j), 1);
	assert_int_equal(journal_sync(j), 0);
	assert_false(journal_unsynced(j));
	assert_true(journal_sync_busy(j));
	assert_int_equal(sync_collect(j, efd), 1);
	assert_false(journal_unsynced(j));
	assert_false(journal_sync_busy(j));
	/* nothing more to collect */
	assert_int_equal(journal_sync_collect(j, &(double){ 0 }), 0);

	/* idle: rotation goes ahead */
	assert_int_equal(journal_rewrite(j, recs, 1), 0);
	json_decref(recs[0]);
	journal_close(j);

	j = open_journal(fx);
	assert_int_equal(journal_replay(j, collect, &s), 1);
	seen_clear(&s);
	journal_close(j);
}

static int
append_held_record(struct journal *j, int i)
{
	char	*t = record_text(i);
	int	 rc = journal_append_held(j, t, strlen(t));

	free(t);
	return rc;
}

/*
 * Held records: counted at once, in the file only when a sync begins or
 * anything else is appended, in their order. A write of them that fails
 * leaves none of them in the file; every sync and append fails with its
 * error until the batch is aborted, and then all goes on as before.
 */
static void
test_journal_held(void **state)
{
	struct fixture	*fx = *state;
	struct journal	*j;
	struct seen	 s = { .n = 0 };
	struct rlimit	 old, lim;
	char		*cause = NULL, *big;
	off_t		 written;
	int		 efd;

	signal(SIGXFSZ, SIG_IGN);
	j = open_journal(fx);
	efd = journal_sync_start(j, &cause);
	assert_true(efd >= 0);
	assert_int_equal(append_held_record(j, 0), 0);
	assert_int_equal(append_held_record(j, 1), 0);
	assert_int_equal(file_size(fx->path), 0);
	assert_true(journal_offset(j) > 0);
	assert_true(journal_unsynced(j));
	assert_int_equal(journal_durable(j), 0);
	/* another append writes what is held first */
	append_record(j, 2);
	assert_int_equal(file_size(fx->path), journal_offset(j));
	assert_int_equal(append_held_record(j, 3), 0);
	assert_true(file_size(fx->path) < journal_offset(j));
	assert_int_equal(journal_sync_begin(j), 1);
	assert_int_equal(file_size(fx->path), journal_offset(j));
	assert_int_equal(sync_collect(j, efd), 1);
	assert_int_equal(journal_durable(j), journal_offset(j));

	/* the disk takes nothing more: the held write fails at the sync */
	written = journal_offset(j);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim = old;
	lim.rlim_cur = (rlim_t)written + 10;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	assert_int_equal(append_held_record(j, 4), 0);
	assert_int_equal(append_held_record(j, 5), 0);
	errno = 0;
	assert_int_equal(journal_sync_begin(j), -1);
	assert_int_equal(errno, EFBIG);
	assert_int_equal(file_size(fx->path), written);
	assert_int_equal(journal_durable(j), written);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	/* told until the batch is settled, though the disk has room again */
	assert_int_equal(journal_sync_begin(j), -1);
	assert_int_equal(journal_append_bytes(j, "{}", 2), -1);
	assert_int_equal(append_held_record(j, 6), -1);
	assert_int_equal(journal_sync(j), -1);
	assert_int_equal(journal_abort_unsynced(j), 0);
	assert_int_equal(journal_offset(j), written);
	assert_false(journal_unsynced(j));

	assert_int_equal(append_held_record(j, 4), 0);
	assert_int_equal(journal_sync(j), 0);
	assert_int_equal(file_size(fx->path), journal_offset(j));

	/*
	 * Held past their bound, the records are written at once; the one
	 * whose append finds the disk full fails itself (it must not count
	 * as written), and the rest of its batch fails at the sync.
	 */
	written = journal_offset(j);
	big = xmalloc(400 * 1024);
	memset(big, 'x', 400 * 1024);
	big[0] = '"';
	big[400 * 1024 - 1] = '"';
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	assert_int_equal(journal_append_held(j, big, 400 * 1024), 0);
	assert_int_equal(journal_append_held(j, big, 400 * 1024), 0);
	errno = 0;
	assert_int_equal(journal_append_held(j, big, 400 * 1024), -1);
	assert_int_equal(errno, EFBIG);
	assert_int_equal(journal_offset(j), written);
	assert_int_equal(journal_durable(j), written);
	assert_int_equal(journal_sync_begin(j), -1);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	assert_int_equal(journal_abort_unsynced(j), 0);
	assert_int_equal(file_size(fx->path), written);
	free(big);
	journal_close(j);

	j = open_journal(fx);
	assert_int_equal(journal_replay(j, collect, &s), 5);
	assert_records(&s, 5);
	seen_clear(&s);
	journal_close(j);
	signal(SIGXFSZ, SIG_DFL);
}

/*
 * A name beside the journal planted as a symlink to another file: the
 * rewrite neither writes through it nor renames it over the journal,
 * and the new journal is private (0600).
 */
static void
test_journal_rewrite_symlink(void **state)
{
	struct fixture	*fx = *state;
	struct journal	*j;
	struct seen	 s = { .n = 0 };
	struct stat	 st;
	json_t		*recs[1];
	char		 victim[160], planted[160], back[160];
	static const char before[] = "the victim's own contents\n";
	unsigned char	*buf;
	size_t		 len;
	ssize_t		 n;

	snprintf(victim, sizeof(victim), "%s/victim", fx->dir);
	snprintf(planted, sizeof(planted), "%s.new", fx->path);
	file_write(victim, before, sizeof(before) - 1);
	if (symlink(victim, planted) == -1)
		fail_msg("%s: symlink", planted);

	write_records(fx, 3, NULL);
	j = open_journal(fx);
	assert_int_equal(journal_replay(j, collect, &s), 3);
	seen_clear(&s);
	recs[0] = record(0);
	assert_int_equal(journal_rewrite(j, recs, 1), 0);
	json_decref(recs[0]);

	/* the victim is untouched */
	buf = file_read(victim, &len);
	if (len != sizeof(before) - 1 || memcmp(buf, before, len) != 0)
		fail_msg("the victim was written through the planted link "
		    "(%zu bytes now)", len);
	free(buf);
	/* the link is still a link to it, and the journal a plain file */
	if (lstat(planted, &st) == -1 || !S_ISLNK(st.st_mode))
		fail_msg("%s: no longer the planted link", planted);
	n = readlink(planted, back, sizeof(back) - 1);
	assert_true(n > 0);
	back[n] = '\0';
	assert_string_equal(back, victim);
	if (lstat(fx->path, &st) == -1 || !S_ISREG(st.st_mode))
		fail_msg("%s: not a regular file after the rewrite", fx->path);
	assert_int_equal(st.st_mode & 07777, 0600);

	/* and it holds the rewritten records */
	assert_int_equal(journal_replay(j, collect, &s), 1);
	assert_records(&s, 1);
	seen_clear(&s);
	journal_close(j);
}

static void
test_journal_open_fails(void **state)
{
	struct journal	*j;
	char		*cause = NULL;

	j = journal_open("/nonexistent/hookcast/state", &cause);
	assert_null(j);
	assert_non_null(cause);
	assert_non_null(strstr(cause, "/nonexistent/hookcast/state/journal"));
	free(cause);
	journal_close(NULL);
}

/* One mebibyte: the strings the large records below are made of. */
#define MIB	((size_t)1024 * 1024)

/*
 * A record of exactly size bytes as the journal writes it:
 * {"t":"big","b":[S,S,...],"p":"aaa..."} where every S is one string of
 * a mebibyte, shared, so the record costs a mebibyte to build however
 * large it is written. (Its size is checked where it is appended.)
 */
static json_t *
sized_record(size_t size)
{
	char	*text = xmalloc(MIB + 1);
	json_t	*s, *a = json_array(), *r;
	size_t	 have, k = 0;

	memset(text, 'a', MIB);
	text[MIB] = '\0';
	s = json_string(text);
	r = json_pack("{s:s, s:O, s:s}", "t", "big", "b", a, "p", "");
	have = json_dumpb(r, NULL, 0, JSON_COMPACT);
	/* each string adds its quotes and, after the first, a comma */
	while (have + MIB + 3 + MIB < size) {
		json_array_append(a, s);
		have += MIB + 2 + (k++ > 0);
	}
	assert_true(size - have <= 2 * MIB + 3);
	text = xrealloc(text, size - have + 1);
	memset(text, 'a', size - have);
	text[size - have] = '\0';
	json_object_set_new(r, "p", json_string(text));
	free(text);
	json_decref(s);
	json_decref(a);
	return r;
}

/* What replay hands over, by size and "i" (large records are not kept). */
struct tally {
	size_t	n;
	long	i[8];		/* "i", or -1 for a record without one */
};

static void
tally(json_t *rec, void *arg)
{
	struct tally	*t = arg;
	json_t		*i = json_object_get(rec, "i");

	if (t->n == 8)
		fail_msg("too many records");
	t->i[t->n++] = json_is_integer(i) ? (long)json_integer_value(i) : -1;
}

/*
 * What append accepts, replay gives back, with what follows it: a record
 * right at JOURNAL_MAX_RECORD is kept whole; one byte more is refused at
 * append (EFBIG, the file unchanged), so replay never meets a record of
 * ours it would have to cut.
 */
static void
test_journal_record_limit(void **state)
{
	struct fixture	*fx = *state;
	static const struct {
		const char	*what;
		size_t		 size;
		int		 accepted;
	} cases[] = {
		{ "a byte over the limit", JOURNAL_MAX_RECORD + 1, 0 },
		{ "at the limit", JOURNAL_MAX_RECORD, 1 },
	};
	struct journal	*j;
	struct tally	 t;
	json_t		*big, *r;
	off_t		 before, size, frame;
	size_t		 i;
	int		 rc, err;

	log_set_level(LOG_LEVEL_ERR);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unlink(fx->path);
		j = open_journal(fx);
		r = record(0);
		assert_int_equal(journal_append(j, r), 0);
		json_decref(r);
		assert_int_equal(journal_sync(j), 0);
		before = journal_offset(j);

		big = sized_record(cases[i].size);
		errno = 0;
		rc = journal_append(j, big);
		err = errno;
		json_decref(big);
		if (rc == -1) {
			if (err != EFBIG)
				fail_msg("%s: refused with %s, want EFBIG",
				    cases[i].what, strerror(err));
			if (journal_offset(j) != before ||
			    file_size(fx->path) != before)
				fail_msg("%s: refused, but the file changed",
				    cases[i].what);
			assert_false(journal_unsynced(j));
		}
		frame = journal_offset(j) - before;
		r = record(1);
		assert_int_equal(journal_append(j, r), 0);
		json_decref(r);
		assert_int_equal(journal_sync(j), 0);
		size = journal_offset(j);
		journal_close(j);

		/* every record appended comes back, the file whole */
		memset(&t, 0, sizeof(t));
		j = open_journal(fx);
		if (journal_replay(j, tally, &t) != (rc == 0 ? 3 : 2) ||
		    file_size(fx->path) != size)
			fail_msg("%s (%zu bytes): %s at append, then %zu "
			    "record(s) replayed and the file cut from %lld to "
			    "%lld bytes", cases[i].what, cases[i].size,
			    rc == 0 ? "accepted" : "refused", t.n,
			    (long long)size, (long long)file_size(fx->path));
		assert_int_equal(t.i[0], 0);
		assert_int_equal(t.i[t.n - 1], 1);
		journal_close(j);
		if (cases[i].accepted != (rc == 0))
			fail_msg("%s (%zu bytes): %s at append", cases[i].what,
			    cases[i].size, rc == 0 ? "accepted" : "refused");
		if (rc == 0 && frame != HEADER + (off_t)cases[i].size)
			fail_msg("%s: a frame of %lld bytes, want %zu",
			    cases[i].what, (long long)frame,
			    HEADER + cases[i].size);
	}
}

/* A rewrite with a record over the limit fails whole; the old one stays. */
static void
test_journal_rewrite_too_large(void **state)
{
	struct fixture	*fx = *state;
	struct journal	*j;
	struct seen	 s = { .n = 0 };
	json_t		*recs[2];
	off_t		 size;

	write_records(fx, 3, NULL);
	j = open_journal(fx);
	assert_int_equal(journal_replay(j, collect, &s), 3);
	seen_clear(&s);
	size = journal_offset(j);
	recs[0] = record(0);
	recs[1] = sized_record(JOURNAL_MAX_RECORD + 1);
	errno = 0;
	assert_int_equal(journal_rewrite(j, recs, 2), -1);
	assert_int_equal(errno, EFBIG);
	json_decref(recs[0]);
	json_decref(recs[1]);
	assert_int_equal(journal_offset(j), size);
	assert_int_equal(dir_others(fx), 0);
	journal_close(j);
	j = open_journal(fx);
	assert_int_equal(journal_replay(j, collect, &s), 3);
	assert_records(&s, 3);
	seen_clear(&s);
	journal_close(j);
}

/* The whole of path, *len bytes. */
static char *
read_whole(const char *path, size_t *len)
{
	FILE	*f = fopen(path, "rb");
	char	*p;
	long	 n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	rewind(f);
	p = xmalloc((size_t)n + 1);
	assert_int_equal(fread(p, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return p;
}

/*
 * Payloads given as bytes (journal_append_bytes, journal_rewrite_bytes):
 * the very frames journal_append wrote for the same JSON, the same
 * EFBIG limit with nothing written.
 */
static void
test_journal_bytes(void **state)
{
	struct fixture	*fx = *state;
	struct journal	*j;
	struct seen	 s = { .n = 0 };
	struct buf	 recs[3], big;
	json_t		*r;
	char		*a, *b;
	size_t		 alen, blen, i;
	off_t		 size;

	write_records(fx, 3, NULL);
	a = read_whole(fx->path, &alen);
	for (i = 0; i < 3; i++) {
		buf_init(&recs[i]);
		r = record((int)i);
		b = json_dumps(r, JSON_COMPACT);
		buf_puts(&recs[i], b);
		free(b);
		json_decref(r);
	}
	j = open_journal(fx);
	assert_int_equal(journal_replay(j, collect, &s), 3);
	seen_clear(&s);
	assert_int_equal(journal_rewrite_bytes(j, recs, 2), 0);
	assert_int_equal(journal_append_bytes(j, recs[2].data, recs[2].len), 0);
	assert_int_equal(journal_sync(j), 0);
	b = read_whole(fx->path, &blen);
	assert_int_equal(alen, blen);
	assert_memory_equal(a, b, alen);
	free(a);
	free(b);
	assert_int_equal(journal_replay(j, collect, &s), 3);
	assert_records(&s, 3);
	seen_clear(&s);

	/* over the limit: refused, nothing written (the pages never touched) */
	size = journal_offset(j);
	big.data = xmalloc(JOURNAL_MAX_RECORD + 2);
	big.data[0] = '{';
	big.len = big.cap = JOURNAL_MAX_RECORD + 1;
	errno = 0;
	assert_int_equal(journal_append_bytes(j, big.data, big.len), -1);
	assert_int_equal(errno, EFBIG);
	assert_int_equal(journal_offset(j), size);
	errno = 0;
	buf_free(&recs[1]);
	recs[1] = big;
	assert_int_equal(journal_rewrite_bytes(j, recs, 2), -1);
	assert_int_equal(errno, EFBIG);
	assert_int_equal(journal_offset(j), size);
	assert_int_equal(dir_others(fx), 0);
	free(big.data);
	buf_free(&recs[0]);
	buf_free(&recs[2]);
	journal_close(j);
	j = open_journal(fx);
	assert_int_equal(journal_replay(j, collect, &s), 3);
	assert_records(&s, 3);
	seen_clear(&s);
	journal_close(j);
}

/*
 * "HCJ1" frames (a u32 length), as earlier versions wrote them, replay;
 * records appended after them are "HCJ2"; a torn "HCJ1" tail is cut.
 */
static void
test_journal_v1(void **state)
{
	struct fixture	*fx = *state;
	struct journal	*j;
	struct seen	 s = { .n = 0 };
	unsigned char	*buf, *f;
	char		*text;
	size_t		 len, flen, old = 0;
	int		 i;
	json_t		*r;

	log_set_level(LOG_LEVEL_ERR);
	buf = xmalloc(4096);
	for (i = 0; i < 2; i++) {
		text = record_text(i);
		f = frame_v1(text, strlen(text), &flen);
		memcpy(buf + old, f, flen);
		old += flen;
		free(f);
		free(text);
	}
	/* and half of a third */
	text = record_text(2);
	f = frame_v1(text, strlen(text), &flen);
	memcpy(buf + old, f, flen / 2);
	free(f);
	free(text);
	file_write(fx->path, buf, old + flen / 2);
	free(buf);

	j = open_journal(fx);
	assert_int_equal(journal_replay(j, collect, &s), 2);
	assert_records(&s, 2);
	seen_clear(&s);
	assert_int_equal(file_size(fx->path), (off_t)old);
	r = record(2);
	assert_int_equal(journal_append(j, r), 0);
	json_decref(r);
	assert_int_equal(journal_sync(j), 0);
	journal_close(j);

	j = open_journal(fx);
	assert_int_equal(journal_replay(j, collect, &s), 3);
	assert_records(&s, 3);
	seen_clear(&s);
	journal_close(j);
	buf = file_read(fx->path, &len);
	assert_memory_equal(buf, "HCJ1", 4);
	assert_memory_equal(buf + old, "HCJ2", 4);
	assert_int_equal(old + HEADER + get64(buf + old + 4), len);
	free(buf);
}

/*
 * An intact "HCJ1" frame over the limit (an earlier version appended any
 * size): replay skips it and keeps what follows, nothing cut. A frame
 * that size whose checksum fails is damage, and is cut as ever.
 */
static void
test_journal_v1_oversize(void **state)
{
	struct fixture	*fx = *state;
	struct journal	*j;
	struct seen	 s = { .n = 0 };
	static const int good_crc[] = { 1, 0 };
	unsigned char	 hdr[HEADER_V1], *f, *zeros;
	char		*text;
	size_t		 flen, big = JOURNAL_MAX_RECORD + 1, left, n;
	off_t		 end0, end;
	uint32_t	 crc = 0;
	int		 fd, k;

	log_set_level(LOG_LEVEL_ERR);
	/* the CRC of big zero bytes: the payload is a hole in the file */
	zeros = xcalloc(1, MIB);
	for (left = big; left > 0; left -= n) {
		n = left < MIB ? left : MIB;
		crc = journal_crc32(crc, zeros, n);
	}
	free(zeros);
	for (k = 0; k < 2; k++) {
		unlink(fx->path);
		if ((fd = open(fx->path, O_RDWR | O_CREAT, 0600)) == -1)
			fail_msg("%s: open", fx->path);
		text = record_text(0);
		f = frame_v1(text, strlen(text), &flen);
		assert_int_equal(write(fd, f, flen), (ssize_t)flen);
		end0 = (off_t)flen;
		free(f);
		free(text);
		memcpy(hdr, "HCJ1", 4);
		put32(hdr + 4, (uint32_t)big);
		put32(hdr + 8, good_crc[k] ? crc : crc ^ 1);
		assert_int_equal(write(fd, hdr, sizeof(hdr)),
		    (ssize_t)sizeof(hdr));
		text = record_text(1);
		f = frame_v1(text, strlen(text), &flen);
		end = end0 + HEADER_V1 + (off_t)big;
		assert_int_equal(pwrite(fd, f, flen, end), (ssize_t)flen);
		end += (off_t)flen;
		free(f);
		free(text);
		close(fd);

		j = open_journal(fx);
		if (good_crc[k]) {
			if (journal_replay(j, collect, &s) != 2 ||
			    file_size(fx->path) != end)
				fail_msg("an intact record of %zu bytes "
				    "between two: %zu record(s) replayed, the "
				    "file cut from %lld to %lld bytes", big,
				    s.n, (long long)end,
				    (long long)file_size(fx->path));
			assert_records(&s, 2);
			assert_int_equal(journal_offset(j), end);
		} else {
			assert_int_equal(journal_replay(j, collect, &s), 1);
			assert_records(&s, 1);
			assert_int_equal(file_size(fx->path), end0);
		}
		seen_clear(&s);
		journal_close(j);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_journal_crc32),
		cmocka_unit_test(test_journal_crc32_lengths),
		cmocka_unit_test_setup_teardown(test_journal_append_replay,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_journal_torn_tail,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_journal_corrupt_tail,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_journal_rewrite,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_journal_batch,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_journal_rewrite_busy,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_journal_sync_thread,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_journal_held,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_journal_rewrite_symlink,
		    setup, teardown),
		cmocka_unit_test(test_journal_open_fails),
		cmocka_unit_test_setup_teardown(test_journal_record_limit,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_journal_bytes,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_journal_rewrite_too_large,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_journal_v1,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_journal_v1_oversize,
		    setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
