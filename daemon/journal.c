/* The journal: self-checking records of accepted deliveries. */
#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
	char	*dir;
	off_t	 end;
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

	j->dir = xstrdup(state_dir);
	xasprintf(&j->path, "%s/journal", state_dir);
	j->fd = open(j->path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (j->fd == -1) {
		xasprintf(cause, "journal %s: %s", j->path, strerror(errno));
		free(j->path);
		free(j->dir);
		free(j);
		return NULL;
	}
	j->end = lseek(j->fd, 0, SEEK_END);
	return j;
}

void
journal_close(struct journal *j)
{
	if (j == NULL)
		return;
	close(j->fd);
	free(j->path);
	free(j->dir);
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

int
journal_truncate(struct journal *j, off_t off)
{
	if (ftruncate(j->fd, off) == -1) {
		log_warn("journal: truncate to %lld", (long long)off);
		return -1;
	}
	j->end = off;
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
	j->end = off;
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

static int
journal_write_all(int fd, const char *p, size_t len, off_t off)
{
	ssize_t	n;

	while (len > 0) {
		n = pwrite(fd, p, len, off);
		if (n == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
		off += n;
	}
	return 0;
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
	if (journal_write_all(j->fd, frame, len, j->end) == -1) {
		saved = errno;
		/* nothing half-written stays: cut back to the last record */
		if (ftruncate(j->fd, j->end) == -1)
			log_warn("journal: cutting back a failed write");
		free(frame);
		errno = saved;
		return -1;
	}
	free(frame);
	j->end += (off_t)len;
	return 0;
}

int
journal_sync(struct journal *j)
{
	return fdatasync(j->fd);
}

int
journal_rewrite(struct journal *j, json_t *const *recs, size_t n)
{
	char	*tmp, *frame;
	size_t	 i, len;
	off_t	 off = 0;
	int	 fd, dfd, saved;

	xasprintf(&tmp, "%s.new", j->path);
	fd = open(tmp, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd == -1) {
		free(tmp);
		return -1;
	}
	for (i = 0; i < n; i++) {
		if ((frame = journal_frame(recs[i], &len)) == NULL) {
			errno = EINVAL;
			goto fail;
		}
		if (journal_write_all(fd, frame, len, off) == -1) {
			free(frame);
			goto fail;
		}
		free(frame);
		off += (off_t)len;
	}
	if (fdatasync(fd) == -1 || rename(tmp, j->path) == -1)
		goto fail;
	if ((dfd = open(j->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) != -1) {
		fsync(dfd);
		close(dfd);
	}
	close(j->fd);
	j->fd = fd;
	j->end = off;
	free(tmp);
	return 0;
fail:
	saved = errno;
	close(fd);
	unlink(tmp);
	free(tmp);
	errno = saved;
	return -1;
}

/* Codec. Short keys: the journal is read by us only. */

static json_t *
journal_strings(char *const *v, size_t n)
{
	json_t	*a = json_array();
	size_t	 i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

static json_t *
journal_str(const char *s)
{
	return s != NULL ? json_string(s) : json_null();
}

static json_t *
journal_encode_commit(const struct commit *c)
{
	char	*message;
	json_t	*o;

	if (c->body != NULL && *c->body != '\0')
		xasprintf(&message, "%s\n\n%s", c->subject, c->body);
	else
		message = xstrdup(c->subject != NULL ? c->subject : "");
	o = json_object();
	json_object_set_new(o, "id", journal_str(c->sha));
	json_object_set_new(o, "an", journal_str(c->author_name));
	json_object_set_new(o, "al", journal_str(c->author_login));
	json_object_set_new(o, "ae", journal_str(c->author_email));
	json_object_set_new(o, "cn", journal_str(c->committer_name));
	json_object_set_new(o, "cl", journal_str(c->committer_login));
	json_object_set_new(o, "ts", json_integer((json_int_t)c->timestamp));
	json_object_set_new(o, "m", json_string(message));
	json_object_set_new(o, "br", journal_str(c->branch));
	json_object_set_new(o, "a", journal_strings(c->added, c->nadded));
	json_object_set_new(o, "r", journal_strings(c->removed, c->nremoved));
	json_object_set_new(o, "md", journal_strings(c->modified,
	    c->nmodified));
	free(message);
	return o;
}

static json_t *
journal_encode_pr(const struct merged_pr *p)
{
	json_t	*o = json_object();

	json_object_set_new(o, "n", json_integer(p->number));
	json_object_set_new(o, "t", journal_str(p->title));
	json_object_set_new(o, "al", journal_str(p->author_login));
	json_object_set_new(o, "b", journal_str(p->body));
	json_object_set_new(o, "ms", journal_str(p->merge_sha));
	json_object_set_new(o, "br", journal_str(p->branch));
	json_object_set_new(o, "at", json_integer((json_int_t)p->merged_at));
	return o;
}

static json_t *
journal_encode_push(const struct push *p)
{
	json_t	*o = json_object();

	json_object_set_new(o, "br", journal_str(p->branch));
	json_object_set_new(o, "bf", journal_str(p->before));
	json_object_set_new(o, "af", journal_str(p->after));
	json_object_set_new(o, "p", journal_str(p->pusher));
	json_object_set_new(o, "f", json_boolean(p->forced));
	json_object_set_new(o, "c", json_boolean(p->created));
	json_object_set_new(o, "d", json_boolean(p->deleted));
	json_object_set_new(o, "n", json_integer((json_int_t)p->ncommits));
	json_object_set_new(o, "at", json_integer((json_int_t)p->at));
	return o;
}

json_t *
journal_encode_delivery(const struct handler_result *res, const char *key,
    time_t at)
{
	json_t	*o = json_object(), *commits = json_array();
	json_t	*prs = json_array(), *pushes = json_array();
	size_t	 i;

	json_object_set_new(o, "t", json_string("d"));
	json_object_set_new(o, "key", json_string(key));
	json_object_set_new(o, "at", json_integer((json_int_t)at));
	json_object_set_new(o, "repo", journal_str(res->repo));
	json_object_set_new(o, "db", journal_str(res->default_branch));
	for (i = 0; i < res->ncommits; i++)
		json_array_append_new(commits,
		    journal_encode_commit(&res->commits[i]));
	if (res->pr != NULL)
		json_array_append_new(prs, journal_encode_pr(res->pr));
	if (res->push != NULL)
		json_array_append_new(pushes, journal_encode_push(res->push));
	json_object_set_new(o, "commits", commits);
	json_object_set_new(o, "prs", prs);
	json_object_set_new(o, "pushes", pushes);
	return o;
}

json_t *
journal_encode_day(const struct day *day)
{
	json_t	*o = json_object(), *commits = json_array();
	json_t	*prs = json_array(), *pushes = json_array();
	size_t	 i;

	json_object_set_new(o, "t", json_string("d"));
	json_object_set_new(o, "repo", json_string(day->repo));
	json_object_set_new(o, "db", journal_str(day->default_branch));
	json_object_set_new(o, "start", json_integer((json_int_t)day->start));
	for (i = 0; i < day->ncommits; i++)
		json_array_append_new(commits,
		    journal_encode_commit(&day->commits[i]));
	for (i = 0; i < day->nprs; i++)
		json_array_append_new(prs, journal_encode_pr(&day->prs[i]));
	for (i = 0; i < day->npushes; i++)
		json_array_append_new(pushes,
		    journal_encode_push(&day->pushes[i]));
	json_object_set_new(o, "commits", commits);
	json_object_set_new(o, "prs", prs);
	json_object_set_new(o, "pushes", pushes);
	return o;
}

json_t *
journal_encode_rotate(const char *repo, time_t start)
{
	return json_pack("{s:s, s:s, s:I}", "t", "r", "repo", repo, "start",
	    (json_int_t)start);
}

json_t *
journal_encode_window(time_t start)
{
	return json_pack("{s:s, s:I}", "t", "w", "start", (json_int_t)start);
}

json_t *
journal_encode_seen(const char *const *keys, const time_t *at, size_t n)
{
	json_t	*seen = json_array();
	size_t	 i;

	for (i = 0; i < n; i++)
		json_array_append_new(seen, json_pack("[s, I]", keys[i],
		    (json_int_t)at[i]));
	return json_pack("{s:s, s:o}", "t", "s", "seen", seen);
}

static char *
journal_get_str(const json_t *o, const char *key)
{
	const char	*s = json_string_value(json_object_get(o, key));

	return s != NULL ? xstrdup(s) : NULL;
}

static char **
journal_get_strings(const json_t *o, const char *key, size_t *n)
{
	const json_t	*a = json_object_get(o, key), *v;
	char	       **out;
	size_t		 i, k = 0;

	*n = 0;
	if (!json_is_array(a) || json_array_size(a) == 0)
		return NULL;
	out = xcalloc(json_array_size(a), sizeof(*out));
	json_array_foreach(a, i, v)
		if (json_is_string(v))
			out[k++] = xstrdup(json_string_value(v));
	*n = k;
	return out;
}

int
journal_apply_records(const json_t *rec, struct day *day)
{
	const json_t		*a, *o;
	struct commit		 c;
	struct merged_pr	 pr;
	struct push		 p;
	const char		*m;
	size_t			 i;

	a = json_object_get(rec, "commits");
	json_array_foreach(a, i, o) {
		memset(&c, 0, sizeof(c));
		m = json_string_value(json_object_get(o, "m"));
		c.sha = journal_get_str(o, "id");
		if (c.sha == NULL || m == NULL ||
		    commit_set_message(&c, m) == -1) {
			commit_clear(&c);
			return -1;
		}
		c.author_name = journal_get_str(o, "an");
		c.author_login = journal_get_str(o, "al");
		c.author_email = journal_get_str(o, "ae");
		c.committer_name = journal_get_str(o, "cn");
		c.committer_login = journal_get_str(o, "cl");
		c.timestamp = (time_t)json_integer_value(json_object_get(o,
		    "ts"));
		c.branch = journal_get_str(o, "br");
		c.added = journal_get_strings(o, "a", &c.nadded);
		c.removed = journal_get_strings(o, "r", &c.nremoved);
		c.modified = journal_get_strings(o, "md", &c.nmodified);
		revert_parse(c.subject, c.body, &c.revert);
		if (day_add_commit(day, &c) == -1) {
			commit_clear(&c);
			return -1;
		}
	}
	a = json_object_get(rec, "prs");
	json_array_foreach(a, i, o) {
		memset(&pr, 0, sizeof(pr));
		pr.number = (long)json_integer_value(json_object_get(o, "n"));
		pr.title = journal_get_str(o, "t");
		pr.author_login = journal_get_str(o, "al");
		pr.body = journal_get_str(o, "b");
		pr.merge_sha = journal_get_str(o, "ms");
		pr.branch = journal_get_str(o, "br");
		pr.merged_at = (time_t)json_integer_value(json_object_get(o,
		    "at"));
		if (day_add_pr(day, &pr) == -1) {
			merged_pr_clear(&pr);
			return -1;
		}
	}
	a = json_object_get(rec, "pushes");
	json_array_foreach(a, i, o) {
		memset(&p, 0, sizeof(p));
		p.branch = journal_get_str(o, "br");
		p.before = journal_get_str(o, "bf");
		p.after = journal_get_str(o, "af");
		p.pusher = journal_get_str(o, "p");
		p.forced = json_is_true(json_object_get(o, "f"));
		p.created = json_is_true(json_object_get(o, "c"));
		p.deleted = json_is_true(json_object_get(o, "d"));
		p.ncommits = (size_t)json_integer_value(json_object_get(o,
		    "n"));
		p.at = (time_t)json_integer_value(json_object_get(o, "at"));
		if (day_add_push(day, &p) == -1) {
			push_clear(&p);
			return -1;
		}
	}
	return 0;
}
