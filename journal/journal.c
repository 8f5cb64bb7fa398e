/* The journal: self-checking records of accepted deliveries. */
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define JOURNAL_CLMUL	1
#endif

#include "buf.h"
#include "fileio.h"
#include "journal.h"
#include "log.h"
#include "xmalloc.h"

/* The frame written: magic, u64 length, u32 CRC-32. */
#define JOURNAL_MAGIC		"HCJ2"
#define JOURNAL_HEADER		16
/* Frames of earlier versions, still read: magic, u32 length, u32 CRC-32. */
#define JOURNAL_MAGIC_V1	"HCJ1"
#define JOURNAL_HEADER_V1	12
/* Read at a time when checking a frame too large to hold. */
#define JOURNAL_CHUNK		(1024 * 1024)
/* Held frames are written once this many bytes wait. */
#define JOURNAL_HELD_MAX	(1024 * 1024)

struct journal {
	int	 fd;
	char	*path;
	off_t	 end;		/* the file's, with what is held counted */
	off_t	 batch;		/* where the unsynced records begin, or -1 */
	/*
	 * Frames held back (journal_append_held): the last bytes before end,
	 * written when a sync begins or anything else is appended. held_err:
	 * writing them failed; every sync and append fails with it until
	 * journal_abort_unsynced settles the batch.
	 */
	struct buf	 held;
	int		 held_err;

	/*
	 * The sync thread (journal_sync_begin): lock guards what follows it;
	 * fd, end and batch are the loop's alone, and fd does not change
	 * while a sync is asked for or running (see journal_rewrite).
	 */
	int		 thread_on;
	pthread_t	 thread;
	pthread_mutex_t	 lock;
	pthread_cond_t	 cond;
	int		 efd;		/* eventfd: a sync has finished */
	int		 asked;		/* a sync of target is wanted */
	int		 busy;		/* in fdatasync now */
	int		 quit;
	int		 sync_fd;	/* the fd the thread syncs */
	off_t		 target;
	int		 done;		/* a result not yet collected */
	off_t		 done_off;
	int		 done_err;	/* 0, or the errno of a failed sync */
	double		 done_secs;
};

/*
 * CRC-32 tables for eight bytes at a time: [0] is the usual byte table,
 * [k][i] the CRC of byte i followed by k zero bytes. Replay checks every
 * byte of the journal, so this is worth its 8 KiB.
 */
static uint32_t journal_crc_table[8][256];

static int	journal_write_held(struct journal *);

#ifdef JOURNAL_CLMUL
/* 1 when the CPU multiplies without carries (PCLMULQDQ), else 0. */
static int	journal_clmul;

/*
 * The CRC register (not inverted) after len bytes at p, len at least 64
 * and a multiple of 16, by carry-less multiplication: four 16-byte lanes
 * folded forward 64 bytes a step, then into one, to 64 and 32 bits, and
 * a Barrett reduction to the remainder. The constants are x^k mod P for
 * the bit-reflected IEEE polynomial P (0x1DB710641), and mu = x^64 / P:
 * k1, k2 fold 512 bits, k3, k4 128, k5 64.
 */
__attribute__((target("pclmul,sse4.1")))
static uint32_t
journal_crc32_clmul(uint32_t crc, const unsigned char *p, size_t len)
{
	const __m128i	k1k2 = _mm_set_epi64x(0x1c6e41596LL, 0x154442bd4LL);
	const __m128i	k3k4 = _mm_set_epi64x(0x0ccaa009eLL, 0x1751997d0LL);
	const __m128i	k5 = _mm_set_epi64x(0, 0x163cd6124LL);
	const __m128i	pmu = _mm_set_epi64x(0x1f7011641LL, 0x1db710641LL);
	const __m128i	mask32 = _mm_set_epi32(0, 0, 0, -1);
	__m128i		x1, x2, x3, x4, t;

#define CRC_LOAD(off)	_mm_loadu_si128((const __m128i *)(const void *)(p + (off)))
#define CRC_FOLD(x, k, y) \
	_mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128((x), (k), 0x00), \
	    _mm_clmulepi64_si128((x), (k), 0x11)), (y))
	x1 = _mm_xor_si128(CRC_LOAD(0), _mm_cvtsi32_si128((int)crc));
	x2 = CRC_LOAD(16);
	x3 = CRC_LOAD(32);
	x4 = CRC_LOAD(48);
	p += 64;
	len -= 64;
	for (; len >= 64; p += 64, len -= 64) {
		x1 = CRC_FOLD(x1, k1k2, CRC_LOAD(0));
		x2 = CRC_FOLD(x2, k1k2, CRC_LOAD(16));
		x3 = CRC_FOLD(x3, k1k2, CRC_LOAD(32));
		x4 = CRC_FOLD(x4, k1k2, CRC_LOAD(48));
	}
	x1 = CRC_FOLD(x1, k3k4, x2);
	x1 = CRC_FOLD(x1, k3k4, x3);
	x1 = CRC_FOLD(x1, k3k4, x4);
	for (; len >= 16; p += 16, len -= 16)
		x1 = CRC_FOLD(x1, k3k4, CRC_LOAD(0));
#undef CRC_FOLD
#undef CRC_LOAD
	/* 128 to 64 bits (k4 times the low half, 32 zero bits added) */
	t = _mm_clmulepi64_si128(k3k4, x1, 0x01);
	x1 = _mm_xor_si128(_mm_srli_si128(x1, 8), t);
	/* 64 to 32 */
	x2 = _mm_srli_si128(x1, 4);
	x1 = _mm_clmulepi64_si128(_mm_and_si128(x1, mask32), k5, 0x00);
	x1 = _mm_xor_si128(x1, x2);
	/* Barrett */
	x2 = x1;
	x1 = _mm_clmulepi64_si128(_mm_and_si128(x1, mask32), pmu, 0x10);
	x1 = _mm_clmulepi64_si128(_mm_and_si128(x1, mask32), pmu, 0x00);
	x1 = _mm_xor_si128(x1, x2);
	return (uint32_t)_mm_extract_epi32(x1, 1);
}
#endif

static void
journal_crc_init(void)
{
	uint32_t	c;
	int		i, k;

	if (journal_crc_table[0][1] != 0)
		return;
#ifdef JOURNAL_CLMUL
	journal_clmul = __builtin_cpu_supports("pclmul") &&
	    __builtin_cpu_supports("sse4.1");
#endif
	for (i = 0; i < 256; i++) {
		c = (uint32_t)i;
		for (k = 0; k < 8; k++)
			c = (c & 1) ? 0xedb88320U ^ (c >> 1) : c >> 1;
		journal_crc_table[0][i] = c;
	}
	for (i = 0; i < 256; i++)
		for (k = 1; k < 8; k++) {
			c = journal_crc_table[k - 1][i];
			journal_crc_table[k][i] = (c >> 8) ^
			    journal_crc_table[0][c & 0xff];
		}
}

uint32_t
journal_crc32(uint32_t crc, const void *data, size_t len)
{
	const unsigned char	*p = data;
	uint32_t		 (*t)[256] = journal_crc_table;
	uint32_t		 hi;

	journal_crc_init();
	crc = ~crc;
#ifdef JOURNAL_CLMUL
	if (journal_clmul && len >= 64) {
		crc = journal_crc32_clmul(crc, p, len & ~(size_t)15);
		p += len & ~(size_t)15;
		len &= 15;
	}
#endif
	for (; len >= 8; len -= 8, p += 8) {
		crc ^= (uint32_t)p[0] | (uint32_t)p[1] << 8 |
		    (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
		hi = (uint32_t)p[4] | (uint32_t)p[5] << 8 |
		    (uint32_t)p[6] << 16 | (uint32_t)p[7] << 24;
		crc = t[7][crc & 0xff] ^ t[6][(crc >> 8) & 0xff] ^
		    t[5][(crc >> 16) & 0xff] ^ t[4][crc >> 24] ^
		    t[3][hi & 0xff] ^ t[2][(hi >> 8) & 0xff] ^
		    t[1][(hi >> 16) & 0xff] ^ t[0][hi >> 24];
	}
	while (len-- > 0)
		crc = t[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

static void
journal_put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static uint32_t
journal_get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

static void
journal_put64(unsigned char *p, uint64_t v)
{
	journal_put32(p, (uint32_t)v);
	journal_put32(p + 4, (uint32_t)(v >> 32));
}

static uint64_t
journal_get64(const unsigned char *p)
{
	return (uint64_t)journal_get32(p) | (uint64_t)journal_get32(p + 4) << 32;
}

struct journal *
journal_open(const char *state_dir, char **cause)
{
	struct journal	*j = xcalloc(1, sizeof(*j));
	struct stat	 jst = { 0 };

	xasprintf(&j->path, "%s/journal", state_dir);
	/* never through a symlink planted at STATE/journal; always 0600 */
	j->fd = open(j->path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (j->fd == -1 || fstat(j->fd, &jst) == -1 || !S_ISREG(jst.st_mode) ||
	    fchmod(j->fd, 0600) == -1) {
		if (j->fd == -1 && errno == ELOOP)
			xasprintf(cause, "journal %s: a symbolic link; refusing "
			    "to follow it", j->path);
		else if (jst.st_mode != 0 && !S_ISREG(jst.st_mode))
			xasprintf(cause, "journal %s: not a regular file",
			    j->path);
		else
			xasprintf(cause, "journal %s: %s", j->path,
			    strerror(errno));
		if (j->fd != -1)
			close(j->fd);
		free(j->path);
		free(j);
		return NULL;
	}
	j->end = lseek(j->fd, 0, SEEK_END);
	j->batch = -1;
	j->efd = -1;
	return j;
}

void
journal_close(struct journal *j)
{
	if (j == NULL)
		return;
	journal_sync_stop(j);
	(void)journal_write_held(j);
	buf_free(&j->held);
	close(j->fd);
	free(j->path);
	free(j);
}

off_t
journal_offset(const struct journal *j)
{
	return j->end;
}

off_t
journal_size(const struct journal *j)
{
	return j->end;
}

/* The file now ends at off: a batch begun at or after it is gone. */
static void
journal_set_end(struct journal *j, off_t off)
{
	j->end = off;
	if (j->batch != -1 && j->batch >= off)
		j->batch = -1;
}

int
journal_truncate(struct journal *j, off_t off)
{
	/* the held frames are the last bytes: write those kept, if any */
	if (off > j->end - (off_t)j->held.len && journal_write_held(j) == -1)
		return -1;
	buf_reset(&j->held);
	if (ftruncate(j->fd, off) == -1) {
		log_warn("journal: truncate to %lld", (long long)off);
		return -1;
	}
	journal_set_end(j, off);
	return 0;
}

int
journal_unsynced(const struct journal *j)
{
	return j->batch != -1;
}

int
journal_abort_unsynced(struct journal *j)
{
	/* nothing held may land after the cut */
	buf_reset(&j->held);
	if (j->batch != -1 && journal_truncate(j, j->batch) == -1)
		return -1;
	j->held_err = 0;
	return 0;
}

/* Read exactly len bytes at off; 1 done, 0 short (end of file), -1 error. */
static int
journal_pread(int fd, void *buf, size_t len, off_t off)
{
	size_t	got = 0;
	ssize_t	n;

	while (got < len) {
		n = pread(fd, (char *)buf + got, len - got, off + (off_t)got);
		if (n == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0)
			return 0;
		got += (size_t)n;
	}
	return 1;
}

/*
 * The header of the frame at off: its size, the payload's length and CRC.
 * 1, or 0 with *why when there is no whole header of a known kind, or -1
 * on a read error.
 */
static int
journal_header(struct journal *j, off_t off, off_t size, size_t *hlen,
    uint64_t *len, uint32_t *crc, const char **why)
{
	unsigned char	hdr[JOURNAL_HEADER];
	int		rc, v1;

	rc = journal_pread(j->fd, hdr, 4, off);
	if (rc != 1) {
		*why = "torn record header";
		return rc;
	}
	if (memcmp(hdr, JOURNAL_MAGIC, 4) == 0)
		v1 = 0;
	else if (memcmp(hdr, JOURNAL_MAGIC_V1, 4) == 0)
		v1 = 1;
	else {
		*why = "bad record magic";
		return 0;
	}
	*hlen = v1 ? JOURNAL_HEADER_V1 : JOURNAL_HEADER;
	if ((off_t)*hlen > size - off) {
		*why = "torn record header";
		return 0;
	}
	if ((rc = journal_pread(j->fd, hdr + 4, *hlen - 4, off + 4)) != 1) {
		*why = "torn record header";
		return rc;
	}
	if (v1) {
		*len = journal_get32(hdr + 4);
		*crc = journal_get32(hdr + 8);
	} else {
		*len = journal_get64(hdr + 4);
		*crc = journal_get32(hdr + 12);
	}
	if (*len > (uint64_t)(size - off - (off_t)*hlen)) {
		*why = "torn record";
		return 0;
	}
	return 1;
}

/*
 * Whether the len bytes at off have the checksum crc, read a chunk at a
 * time: a frame over JOURNAL_MAX_RECORD is never held whole. 1, 0, or -1
 * on a read error.
 */
static int
journal_check_large(struct journal *j, off_t off, uint64_t len, uint32_t crc)
{
	char		*chunk = xmalloc(JOURNAL_CHUNK);
	uint32_t	 got = 0;
	size_t		 n;
	int		 rc = 1;

	while (len > 0) {
		n = len < JOURNAL_CHUNK ? (size_t)len : JOURNAL_CHUNK;
		if ((rc = journal_pread(j->fd, chunk, n, off)) != 1)
			break;
		got = journal_crc32(got, chunk, n);
		off += (off_t)n;
		len -= n;
	}
	free(chunk);
	if (rc != 1)
		return -1;
	return got == crc;
}

long
journal_replay_raw(struct journal *j,
    int (*apply)(const char *payload, size_t len, void *arg), void *arg)
{
	char		*payload = NULL;
	off_t		 off = 0, size;
	uint64_t	 len = 0;
	uint32_t	 crc = 0;
	size_t		 hlen = 0;
	long		 n = 0;
	int		 rc;
	const char	*why = NULL;
	struct stat	 st;

	if (fstat(j->fd, &st) == -1)
		return -1;
	size = st.st_size;
	while (off < size) {
		rc = journal_header(j, off, size, &hlen, &len, &crc, &why);
		if (rc == -1)
			goto fail;
		if (rc == 0)
			break;
		if (len > JOURNAL_MAX_RECORD) {
			/* intact but too large to hold: skipped, not cut */
			rc = journal_check_large(j, off + (off_t)hlen, len, crc);
			if (rc == -1)
				goto fail;
			if (rc == 0) {
				why = "record checksum mismatch";
				break;
			}
			log_warnx("journal %s: skipping an intact record of "
			    "%llu bytes at offset %lld: larger than the %zu "
			    "a record may be", j->path,
			    (unsigned long long)len, (long long)off,
			    JOURNAL_MAX_RECORD);
			off += (off_t)hlen + (off_t)len;
			continue;
		}
		payload = xrealloc(payload, (size_t)len + 1);
		rc = journal_pread(j->fd, payload, (size_t)len,
		    off + (off_t)hlen);
		if (rc == -1)
			goto fail;
		if (rc == 0) {
			why = "torn record";
			break;
		}
		if (journal_crc32(0, payload, (size_t)len) != crc) {
			why = "record checksum mismatch";
			break;
		}
		if (apply(payload, (size_t)len, arg) == -1) {
			why = "record is not JSON";
			break;
		}
		n++;
		off += (off_t)hlen + (off_t)len;
	}
	free(payload);
	payload = NULL;
	if (why != NULL) {
		log_warnx("journal %s: %s at offset %lld: cutting off %lld "
		    "byte(s) after %ld whole record(s)", j->path, why,
		    (long long)off, (long long)(size - off), n);
		if (ftruncate(j->fd, off) == -1 || fdatasync(j->fd) == -1) {
			log_warn("journal %s: truncate", j->path);
			return -1;
		}
	}
	journal_set_end(j, off);
	if (lseek(j->fd, off, SEEK_SET) == -1)
		return -1;
	return n;
fail:
	log_warn("journal %s: read", j->path);
	free(payload);
	return -1;
}

/* journal_replay's callback and its argument, for journal_replay_raw. */
struct journal_replay_json {
	void	(*apply)(json_t *, void *);
	void	 *arg;
};

static int
journal_replay_json(const char *payload, size_t len, void *arg)
{
	struct journal_replay_json	*rj = arg;
	json_t				*rec;
	json_error_t			 err;

	if ((rec = json_loadb(payload, len, 0, &err)) == NULL)
		return -1;
	rj->apply(rec, rj->arg);
	json_decref(rec);
	return 0;
}

long
journal_replay(struct journal *j, void (*apply)(json_t *, void *), void *arg)
{
	struct journal_replay_json	rj = { apply, arg };

	return journal_replay_raw(j, journal_replay_json, &rj);
}

/* A frame being written: its header's room, then the payload. */
struct journal_out {
	char	*buf;
	size_t	 len;		/* bytes in buf, the header's included */
	size_t	 size;
	int	 toobig;
};

/* json_dump_callback's sink: stops once the payload passes the limit. */
static int
journal_out_put(const char *data, size_t n, void *arg)
{
	struct journal_out	*o = arg;

	if (n > JOURNAL_MAX_RECORD - (o->len - JOURNAL_HEADER)) {
		o->toobig = 1;
		return -1;
	}
	if (o->len + n > o->size) {
		while (o->len + n > o->size)
			o->size *= 2;
		if (o->size > JOURNAL_HEADER + JOURNAL_MAX_RECORD)
			o->size = JOURNAL_HEADER + JOURNAL_MAX_RECORD;
		o->buf = xrealloc(o->buf, o->size);
	}
	memcpy(o->buf + o->len, data, n);
	o->len += n;
	return 0;
}

/*
 * Header and payload of a record, in one buffer; NULL with errno set
 * (EFBIG over JOURNAL_MAX_RECORD). Written out in one pass that stops
 * at the limit, so a record too large never takes more memory than that.
 */
static char *
journal_frame(const json_t *rec, size_t *outlen)
{
	struct journal_out	 o = { .len = JOURNAL_HEADER, .size = 4096 };
	size_t			 len;

	o.buf = xmalloc(o.size);
	if (json_dump_callback(rec, journal_out_put, &o, JSON_COMPACT) == -1) {
		free(o.buf);
		errno = o.toobig ? EFBIG : EINVAL;
		return NULL;
	}
	len = o.len - JOURNAL_HEADER;
	memcpy(o.buf, JOURNAL_MAGIC, 4);
	journal_put64((unsigned char *)o.buf + 4, len);
	journal_put32((unsigned char *)o.buf + 12,
	    journal_crc32(0, o.buf + JOURNAL_HEADER, len));
	*outlen = o.len;
	return o.buf;
}

/* The frame of a record of len bytes into out (JOURNAL_HEADER + len). */
static void
journal_frame_put(unsigned char *out, const char *payload, size_t len)
{
	memcpy(out, JOURNAL_MAGIC, 4);
	journal_put64(out + 4, len);
	journal_put32(out + 12, journal_crc32(0, payload, len));
	memcpy(out + JOURNAL_HEADER, payload, len);
}

/* Header and payload of a record of len bytes, in one buffer. */
static char *
journal_frame_bytes(const char *payload, size_t len, size_t *outlen)
{
	char	*frame = xmalloc(JOURNAL_HEADER + len);

	journal_frame_put((unsigned char *)frame, payload, len);
	*outlen = JOURNAL_HEADER + len;
	return frame;
}

/*
 * Write the held frames. On a failure none of them stays in the file and
 * the error is kept (held_err) for the next sync or append to report, as
 * a failed fdatasync is: the deliveries waiting on them get their 503
 * there. 0, or -1 with errno.
 */
static int
journal_write_held(struct journal *j)
{
	off_t	off = j->end - (off_t)j->held.len;

	if (j->held_err == 0 && j->held.len > 0 &&
	    file_pwrite_all(j->fd, j->held.data, j->held.len, off) == -1) {
		j->held_err = errno;
		if (ftruncate(j->fd, off) == -1)
			log_warn("journal: cutting back a failed write");
		j->end = off;
	}
	buf_reset(&j->held);
	if (j->held_err != 0) {
		errno = j->held_err;
		return -1;
	}
	return 0;
}

int
journal_append_held(struct journal *j, const char *payload, size_t len)
{
	if (len > JOURNAL_MAX_RECORD) {
		errno = EFBIG;
		return -1;
	}
	if (j->held_err != 0) {
		errno = j->held_err;
		return -1;
	}
	buf_reserve(&j->held, JOURNAL_HEADER + len);
	journal_frame_put((unsigned char *)j->held.data + j->held.len, payload,
	    len);
	j->held.len += JOURNAL_HEADER + len;
	j->held.data[j->held.len] = '\0';
	if (j->batch == -1)
		j->batch = j->end;
	j->end += (off_t)(JOURNAL_HEADER + len);
	/* a bound on what waits in memory; failing, this one fails too */
	if (j->held.len >= JOURNAL_HELD_MAX)
		return journal_write_held(j);
	return 0;
}

/* Write a frame at the end (freeing it), as journal_append says. */
static int
journal_append_frame(struct journal *j, char *frame, size_t len)
{
	int	saved;

	if (journal_write_held(j) == -1) {
		free(frame);
		return -1;
	}
	if (file_pwrite_all(j->fd, frame, len, j->end) == -1) {
		saved = errno;
		/* nothing half-written stays: cut back to the last record */
		if (ftruncate(j->fd, j->end) == -1)
			log_warn("journal: cutting back a failed write");
		free(frame);
		errno = saved;
		return -1;
	}
	free(frame);
	if (j->batch == -1)
		j->batch = j->end;
	j->end += (off_t)len;
	return 0;
}

int
journal_append(struct journal *j, const json_t *rec)
{
	char	*frame;
	size_t	 len;

	if ((frame = journal_frame(rec, &len)) == NULL)
		return -1;
	return journal_append_frame(j, frame, len);
}

int
journal_append_bytes(struct journal *j, const char *payload, size_t len)
{
	char	*frame;
	size_t	 flen;

	if (len > JOURNAL_MAX_RECORD) {
		errno = EFBIG;
		return -1;
	}
	frame = journal_frame_bytes(payload, len, &flen);
	return journal_append_frame(j, frame, flen);
}

int
journal_sync(struct journal *j)
{
	int	err;

	/*
	 * Not beside the thread's fdatasync: a failure it has reported but
	 * the loop has not collected is this sync's too (the kernel tells
	 * a write-back error once, so a second fdatasync could say 0 for
	 * pages it lost).
	 */
	if ((err = journal_sync_wait(j)) != 0) {
		errno = err;
		return -1;
	}
	if (journal_write_held(j) == -1)
		return -1;
	if (fdatasync(j->fd) == -1)
		return -1;
	j->batch = -1;
	return 0;
}

/* The frame of the i-th record handed to a rewrite; NULL with errno. */
typedef char	*journal_rewrite_frame(const void *recs, size_t i, size_t *len);

static char *
journal_rewrite_json(const void *recs, size_t i, size_t *len)
{
	return journal_frame(((json_t *const *)recs)[i], len);
}

static char *
journal_rewrite_buf(const void *recs, size_t i, size_t *len)
{
	const struct buf	*b = &((const struct buf *)recs)[i];

	if (b->len > JOURNAL_MAX_RECORD) {
		errno = EFBIG;
		return NULL;
	}
	return journal_frame_bytes(buf_str(b), b->len, len);
}

static int
journal_rewrite_with(struct journal *j, const void *recs, size_t n,
    journal_rewrite_frame *framer)
{
	struct file_atomic	 af;
	char			*frame;
	size_t			 i, len;
	off_t			 off = 0;
	int			 saved;

	if (j->batch != -1 || journal_sync_busy(j)) {
		errno = EBUSY;
		return -1;
	}
	if (file_atomic_open(&af, j->path, 0600) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		if ((frame = framer(recs, i, &len)) == NULL) {
			saved = errno;
			file_atomic_abort(&af);
			errno = saved;
			return -1;
		}
		if (file_pwrite_all(af.fd, frame, len, off) == -1) {
			saved = errno;
			free(frame);
			file_atomic_abort(&af);
			errno = saved;
			return -1;
		}
		free(frame);
		off += (off_t)len;
	}
	if (file_atomic_commit(&af, 1) == 0) {
		close(j->fd);
		j->fd = af.fd;
		j->end = off;
		return 0;
	}
	/*
	 * Renamed, but the directory could not be synced: the new file is
	 * the journal now, so it is the one to append to.
	 */
	if (af.fd != -1) {
		saved = errno;
		close(j->fd);
		j->fd = af.fd;
		j->end = off;
		errno = saved;
	}
	return -1;
}

int
journal_rewrite(struct journal *j, json_t *const *recs, size_t n)
{
	return journal_rewrite_with(j, recs, n, journal_rewrite_json);
}

int
journal_rewrite_bytes(struct journal *j, const struct buf *recs, size_t n)
{
	return journal_rewrite_with(j, recs, n, journal_rewrite_buf);
}

/*
 * The sync thread: fdatasync of the journal off the loop. It takes one
 * request at a time (the end of the file when asked), and leaves its
 * result for the loop to collect, signalled through the eventfd.
 *
 * The loop forks drafting processes while this thread may hold the lock
 * or sit in fdatasync; a child never calls into the journal, so the lock
 * it inherits is never taken there.
 */
static void *
journal_sync_main(void *arg)
{
	struct journal	*j = arg;
	struct timespec	 t0, t1;
	uint64_t	 one = 1;
	off_t		 target;
	int		 fd, rc, err;

	pthread_mutex_lock(&j->lock);
	for (;;) {
		while (!j->asked && !j->quit)
			pthread_cond_wait(&j->cond, &j->lock);
		if (!j->asked)
			break;
		j->asked = 0;
		j->busy = 1;
		fd = j->sync_fd;
		target = j->target;
		pthread_mutex_unlock(&j->lock);

		clock_gettime(CLOCK_MONOTONIC, &t0);
		rc = fdatasync(fd);
		err = rc == -1 ? errno : 0;
		clock_gettime(CLOCK_MONOTONIC, &t1);

		pthread_mutex_lock(&j->lock);
		j->busy = 0;
		j->done = 1;
		j->done_off = target;
		j->done_err = err;
		j->done_secs = (double)(t1.tv_sec - t0.tv_sec) +
		    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
		pthread_cond_broadcast(&j->cond);
		pthread_mutex_unlock(&j->lock);
		while (write(j->efd, &one, sizeof(one)) == -1 && errno == EINTR)
			;
		pthread_mutex_lock(&j->lock);
	}
	pthread_mutex_unlock(&j->lock);
	return NULL;
}

int
journal_sync_start(struct journal *j, char **cause)
{
	int	rc;

	if (j->thread_on)
		return j->efd;
	if ((j->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) == -1) {
		xasprintf(cause, "journal: eventfd: %s", strerror(errno));
		return -1;
	}
	pthread_mutex_init(&j->lock, NULL);
	pthread_cond_init(&j->cond, NULL);
	if ((rc = pthread_create(&j->thread, NULL, journal_sync_main,
	    j)) != 0) {
		xasprintf(cause, "journal: sync thread: %s", strerror(rc));
		pthread_cond_destroy(&j->cond);
		pthread_mutex_destroy(&j->lock);
		close(j->efd);
		j->efd = -1;
		return -1;
	}
	j->thread_on = 1;
	return j->efd;
}

void
journal_sync_stop(struct journal *j)
{
	if (!j->thread_on)
		return;
	pthread_mutex_lock(&j->lock);
	j->quit = 1;
	pthread_cond_broadcast(&j->cond);
	pthread_mutex_unlock(&j->lock);
	pthread_join(j->thread, NULL);
	pthread_cond_destroy(&j->cond);
	pthread_mutex_destroy(&j->lock);
	close(j->efd);
	j->efd = -1;
	j->thread_on = 0;
}

int
journal_sync_begin(struct journal *j)
{
	int	started = 0;

	if (!j->thread_on || j->batch == -1 || journal_sync_busy(j))
		return 0;
	/* the thread is idle: what is held goes to the file first */
	if (journal_write_held(j) == -1)
		return -1;
	pthread_mutex_lock(&j->lock);
	if (!j->asked && !j->busy && !j->done) {
		j->asked = 1;
		j->sync_fd = j->fd;
		j->target = j->end;
		pthread_cond_signal(&j->cond);
		started = 1;
	}
	pthread_mutex_unlock(&j->lock);
	return started;
}

int
journal_sync_busy(struct journal *j)
{
	int	busy;

	if (!j->thread_on)
		return 0;
	pthread_mutex_lock(&j->lock);
	busy = j->asked || j->busy || j->done;
	pthread_mutex_unlock(&j->lock);
	return busy;
}

int
journal_sync_wait(struct journal *j)
{
	int	err;

	if (!j->thread_on)
		return 0;
	pthread_mutex_lock(&j->lock);
	while (j->asked || j->busy)
		pthread_cond_wait(&j->cond, &j->lock);
	err = j->done ? j->done_err : 0;
	pthread_mutex_unlock(&j->lock);
	return err;
}

int
journal_sync_collect(struct journal *j, double *secs)
{
	uint64_t	n;
	off_t		off;
	int		err;

	if (!j->thread_on)
		return 0;
	while (read(j->efd, &n, sizeof(n)) == -1 && errno == EINTR)
		;
	pthread_mutex_lock(&j->lock);
	if (!j->done) {
		pthread_mutex_unlock(&j->lock);
		return 0;
	}
	j->done = 0;
	off = j->done_off;
	err = j->done_err;
	*secs = j->done_secs;
	pthread_mutex_unlock(&j->lock);
	if (err != 0) {
		errno = err;
		return -1;
	}
	/* what was appended after the sync was asked for is still open */
	if (j->batch != -1 && off > j->batch)
		j->batch = off < j->end ? off : -1;
	return 1;
}

off_t
journal_durable(const struct journal *j)
{
	return j->batch == -1 ? j->end : j->batch;
}
