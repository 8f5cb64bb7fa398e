/* The journal: self-checking records of accepted deliveries. */
#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"
#include "journal.h"
#include "log.h"
#include "xmalloc.h"

#define JOURNAL_MAGIC		"HCJ1"
#define JOURNAL_HEADER		12
/* no one record is larger: a day of 2048-commit pushes is far below */
#define JOURNAL_MAX_RECORD	(256U * 1024 * 1024)

struct journal {
	int	 fd;
	char	*path;
	off_t	 end;
	off_t	 batch;		/* where the unsynced records begin, or -1 */
};

static uint32_t journal_crc_table[256];

static void
journal_crc_init(void)
{
	uint32_t	c;
	int		i, k;

	if (journal_crc_table[1] != 0)
		return;
	for (i = 0; i < 256; i++) {
		c = (uint32_t)i;
		for (k = 0; k < 8; k++)
			c = (c & 1) ? 0xedb88320U ^ (c >> 1) : c >> 1;
		journal_crc_table[i] = c;
	}
}

uint32_t
journal_crc32(uint32_t crc, const void *data, size_t len)
{
	const unsigned char	*p = data;

	journal_crc_init();
	crc = ~crc;
	while (len-- > 0)
		crc = journal_crc_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
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
	return j;
}

void
journal_close(struct journal *j)
{
	if (j == NULL)
		return;
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
	if (j->batch == -1)
		return 0;
	return journal_truncate(j, j->batch);
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

long
journal_replay(struct journal *j, void (*apply)(json_t *, void *), void *arg)
{
	unsigned char	 hdr[JOURNAL_HEADER];
	char		*payload = NULL;
	off_t		 off = 0, size;
	uint32_t	 len, crc;
	long		 n = 0;
	int		 rc;
	json_t		*rec;
	json_error_t	 err;
	const char	*why = NULL;
	struct stat	 st;

	if (fstat(j->fd, &st) == -1)
		return -1;
	size = st.st_size;
	while (off < size) {
		rc = journal_pread(j->fd, hdr, sizeof(hdr), off);
		if (rc == -1)
			goto fail;
		if (rc == 0) {
			why = "torn record header";
			break;
		}
		if (memcmp(hdr, JOURNAL_MAGIC, 4) != 0) {
			why = "bad record magic";
			break;
		}
		len = journal_get32(hdr + 4);
		crc = journal_get32(hdr + 8);
		if (len > JOURNAL_MAX_RECORD ||
		    (off_t)len > size - off - JOURNAL_HEADER) {
			why = "torn record";
			break;
		}
		payload = xrealloc(payload, len + 1);
		rc = journal_pread(j->fd, payload, len, off + JOURNAL_HEADER);
		if (rc == -1)
			goto fail;
		if (rc == 0) {
			why = "torn record";
			break;
		}
		if (journal_crc32(0, payload, len) != crc) {
			why = "record checksum mismatch";
			break;
		}
		rec = json_loadb(payload, len, 0, &err);
		if (rec == NULL) {
			why = "record is not JSON";
			break;
		}
		apply(rec, arg);
		json_decref(rec);
		n++;
		off += JOURNAL_HEADER + (off_t)len;
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

/* Header and payload of a record, in one buffer. */
static char *
journal_frame(const json_t *rec, size_t *outlen)
{
	char	*payload, *frame;
	size_t	 len;

	payload = json_dumps(rec, JSON_COMPACT);
	if (payload == NULL)
		return NULL;
	len = strlen(payload);
	frame = xmalloc(JOURNAL_HEADER + len);
	memcpy(frame, JOURNAL_MAGIC, 4);
	journal_put32((unsigned char *)frame + 4, (uint32_t)len);
	journal_put32((unsigned char *)frame + 8,
	    journal_crc32(0, payload, len));
	memcpy(frame + JOURNAL_HEADER, payload, len);
	free(payload);
	*outlen = JOURNAL_HEADER + len;
	return frame;
}

int
journal_append(struct journal *j, const json_t *rec)
{
	char	*frame;
	size_t	 len;
	int	 saved;

	if ((frame = journal_frame(rec, &len)) == NULL) {
		errno = EINVAL;
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
journal_sync(struct journal *j)
{
	if (fdatasync(j->fd) == -1)
		return -1;
	j->batch = -1;
	return 0;
}

int
journal_rewrite(struct journal *j, json_t *const *recs, size_t n)
{
	struct file_atomic	 af;
	char			*frame;
	size_t			 i, len;
	off_t			 off = 0;

	if (j->batch != -1) {
		errno = EBUSY;
		return -1;
	}
	if (file_atomic_open(&af, j->path, 0600) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		if ((frame = journal_frame(recs[i], &len)) == NULL) {
			file_atomic_abort(&af);
			errno = EINVAL;
			return -1;
		}
		if (file_pwrite_all(af.fd, frame, len, off) == -1) {
			free(frame);
			file_atomic_abort(&af);
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
		int saved = errno;

		close(j->fd);
		j->fd = af.fd;
		j->end = off;
		errno = saved;
	}
	return -1;
}
