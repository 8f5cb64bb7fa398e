/* Unit tests: daemon/journal.c */
#include <sys/stat.h>

#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "day.h"
#include "handler.h"
#include "journal.h"
#include "log.h"
#include "xmalloc.h"

#define HEADER	12

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
	char		 tmp[160];

	unlink(fx->path);
	snprintf(tmp, sizeof(tmp), "%s.new", fx->path);
	unlink(tmp);
	rmdir(fx->dir);
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

	/* the frames are "HCJ1", length, CRC-32 of the payload, payload */
	buf = file_read(fx->path, &len);
	for (off = 0, i = 0; i < 20; i++) {
		uint32_t n = get32(buf + off + 4);

		assert_memory_equal(buf + off, "HCJ1", 4);
		assert_int_equal(off + HEADER + (off_t)n, ends[i]);
		assert_int_equal(get32(buf + off + 8),
		    journal_crc32(0, buf + off + HEADER, n));
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
		{ "checksum", 0, 9, 0x04 },
		{ "magic", 0, 0, 0x20 },
		{ "length, larger", 0, 4, 0x01 },
		{ "length, huge", 0, 7, 0xff },
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
		unsigned char	frame[HEADER + sizeof(junk) - 1];
		uint32_t	n = sizeof(junk) - 1, crc;

		crc = journal_crc32(0, junk, n);
		memcpy(frame, "HCJ1", 4);
		frame[4] = (unsigned char)n;
		frame[5] = frame[6] = frame[7] = 0;
		frame[8] = (unsigned char)crc;
		frame[9] = (unsigned char)(crc >> 8);
		frame[10] = (unsigned char)(crc >> 16);
		frame[11] = (unsigned char)(crc >> 24);
		memcpy(frame + HEADER, junk, n);
		memcpy(copy, whole, (size_t)ends[1]);
		memcpy(copy + ends[1], frame, sizeof(frame));
		file_write(fx->path, copy, (size_t)ends[1] + sizeof(frame));
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
	char		 tmp[160];

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
	snprintf(tmp, sizeof(tmp), "%s.new", fx->path);
	assert_int_equal(access(tmp, F_OK), -1);

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

/* Codec. */

#define SHA_A	"1111111111111111111111111111111111111111"
#define SHA_B	"2222222222222222222222222222222222222222"
#define SHA_0	"0000000000000000000000000000000000000000"

static char **
strings(size_t *n, const char *a, const char *b)
{
	char	**v = xcalloc(2, sizeof(*v));

	*n = 0;
	if (a != NULL)
		v[(*n)++] = xstrdup(a);
	if (b != NULL)
		v[(*n)++] = xstrdup(b);
	if (*n == 0) {
		free(v);
		return NULL;
	}
	return v;
}

static void
build_result(struct handler_result *res)
{
	struct commit	*c;

	memset(res, 0, sizeof(*res));
	res->repo = xstrdup("octo/widget");
	res->default_branch = xstrdup("main");
	res->commits = xcalloc(2, sizeof(*res->commits));
	res->ncommits = 2;

	c = &res->commits[0];
	c->sha = xstrdup(SHA_A);
	c->author_name = xstrdup("Ada Lovelace");
	c->author_login = xstrdup("ada");
	c->author_email = xstrdup("ada@example.com");
	c->committer_name = xstrdup("GitHub");
	c->committer_login = xstrdup("web-flow");
	c->timestamp = 1780000000;
	c->subject = xstrdup("Add the widget frobnicator");
	c->body = xstrdup("It frobnicates.\n\nA second paragraph, \xc3\xa9t\xc3\xa9.");
	c->branch = xstrdup("main");
	c->added = strings(&c->nadded, "src/frob.c", "src/frob.h");
	c->removed = strings(&c->nremoved, "src/old.c", NULL);
	c->modified = strings(&c->nmodified, "Makefile", NULL);

	c = &res->commits[1];
	c->sha = xstrdup(SHA_B);
	c->author_name = xstrdup("Grace Hopper");
	c->author_login = NULL;
	c->author_email = xstrdup("grace@example.com");
	c->committer_name = xstrdup("Grace Hopper");
	c->committer_login = NULL;
	c->timestamp = 1780003600;
	c->subject = xstrdup("Revert \"Add the widget frobnicator\"");
	c->body = xstrdup("This reverts commit " SHA_A ".");
	c->branch = xstrdup("main");
	c->removed = strings(&c->nremoved, "src/frob.c", "src/frob.h");
	c->added = strings(&c->nadded, "src/old.c", NULL);
	c->modified = strings(&c->nmodified, "Makefile", NULL);

	res->pr = xcalloc(1, sizeof(*res->pr));
	res->pr->number = 42;
	res->pr->title = xstrdup("Frobnicate widgets");
	res->pr->author_login = xstrdup("ada");
	res->pr->body = xstrdup("Closes #41.\r\nWith a\ttab.");
	res->pr->merge_sha = xstrdup(SHA_A);
	res->pr->branch = xstrdup("main");
	res->pr->merged_at = 1780000100;

	res->push = xcalloc(1, sizeof(*res->push));
	res->push->branch = xstrdup("main");
	res->push->before = xstrdup(SHA_0);
	res->push->after = xstrdup(SHA_B);
	res->push->pusher = xstrdup("grace");
	res->push->forced = 1;
	res->push->created = 0;
	res->push->deleted = 0;
	res->push->ncommits = 2;
	res->push->at = 1780003700;
}

static void
assert_str_eq(const char *what, const char *a, const char *b)
{
	if (a == NULL && b == NULL)
		return;
	if (a == NULL || b == NULL || strcmp(a, b) != 0)
		fail_msg("%s: \"%s\" != \"%s\"", what, a ? a : "(null)",
		    b ? b : "(null)");
}

static void
assert_list_eq(const char *what, char **a, size_t na, char **b, size_t nb)
{
	size_t	i;

	if (na != nb)
		fail_msg("%s: %zu != %zu items", what, na, nb);
	for (i = 0; i < na; i++)
		assert_str_eq(what, a[i], b[i]);
}

static void
assert_commit_eq(const struct commit *a, const struct commit *b)
{
	assert_str_eq("sha", a->sha, b->sha);
	assert_str_eq("author_name", a->author_name, b->author_name);
	assert_str_eq("author_login", a->author_login, b->author_login);
	assert_str_eq("author_email", a->author_email, b->author_email);
	assert_str_eq("committer_name", a->committer_name, b->committer_name);
	assert_str_eq("committer_login", a->committer_login,
	    b->committer_login);
	assert_int_equal(a->timestamp, b->timestamp);
	assert_str_eq("subject", a->subject, b->subject);
	assert_str_eq("body", a->body, b->body);
	assert_str_eq("branch", a->branch, b->branch);
	assert_list_eq("added", a->added, a->nadded, b->added, b->nadded);
	assert_list_eq("removed", a->removed, a->nremoved, b->removed,
	    b->nremoved);
	assert_list_eq("modified", a->modified, a->nmodified, b->modified,
	    b->nmodified);
}

static void
assert_pr_eq(const struct merged_pr *a, const struct merged_pr *b)
{
	assert_int_equal(a->number, b->number);
	assert_str_eq("pr title", a->title, b->title);
	assert_str_eq("pr author", a->author_login, b->author_login);
	assert_str_eq("pr body", a->body, b->body);
	assert_str_eq("pr merge_sha", a->merge_sha, b->merge_sha);
	assert_str_eq("pr branch", a->branch, b->branch);
	assert_int_equal(a->merged_at, b->merged_at);
}

static void
assert_push_eq(const struct push *a, const struct push *b)
{
	assert_str_eq("push branch", a->branch, b->branch);
	assert_str_eq("push before", a->before, b->before);
	assert_str_eq("push after", a->after, b->after);
	assert_str_eq("pusher", a->pusher, b->pusher);
	assert_int_equal(a->forced, b->forced);
	assert_int_equal(a->created, b->created);
	assert_int_equal(a->deleted, b->deleted);
	assert_int_equal(a->ncommits, b->ncommits);
	assert_int_equal(a->at, b->at);
}

/* The day holds exactly what res does, revert info parsed anew. */
static void
assert_day_is_result(const struct day *d, const struct handler_result *res)
{
	size_t	i;

	assert_int_equal(d->ncommits, res->ncommits);
	for (i = 0; i < res->ncommits; i++)
		assert_commit_eq(&d->commits[i], &res->commits[i]);
	assert_int_equal(d->nprs, 1);
	assert_pr_eq(&d->prs[0], res->pr);
	assert_int_equal(d->npushes, 1);
	assert_push_eq(&d->pushes[0], res->push);

	assert_false(d->commits[0].revert.is_revert);
	assert_null(d->commits[0].revert.reverted_sha);
	assert_true(d->commits[1].revert.is_revert);
	assert_false(d->commits[1].revert.is_reland);
	assert_str_eq("reverted_sha", d->commits[1].revert.reverted_sha,
	    SHA_A);
	assert_str_eq("reverted_subject",
	    d->commits[1].revert.reverted_subject,
	    "Add the widget frobnicator");
}

static void
assert_days_eq(const struct day *a, const struct day *b)
{
	size_t	i;

	assert_int_equal(a->ncommits, b->ncommits);
	for (i = 0; i < a->ncommits; i++) {
		assert_commit_eq(&a->commits[i], &b->commits[i]);
		assert_int_equal(a->commits[i].revert.is_revert,
		    b->commits[i].revert.is_revert);
		assert_str_eq("reverted_sha", a->commits[i].revert.reverted_sha,
		    b->commits[i].revert.reverted_sha);
	}
	assert_int_equal(a->nprs, b->nprs);
	for (i = 0; i < a->nprs; i++)
		assert_pr_eq(&a->prs[i], &b->prs[i]);
	assert_int_equal(a->npushes, b->npushes);
	for (i = 0; i < a->npushes; i++)
		assert_push_eq(&a->pushes[i], &b->pushes[i]);
}

static void
test_journal_codec_delivery(void **state)
{
	struct handler_result	 res;
	struct day		*day, *again;
	json_t			*rec, *drec;

	build_result(&res);
	rec = journal_encode_delivery(&res, "hook-1:delivery-1", 1780003701);
	assert_non_null(rec);
	assert_string_equal(json_string_value(json_object_get(rec, "t")), "d");
	assert_string_equal(json_string_value(json_object_get(rec, "key")),
	    "hook-1:delivery-1");
	assert_int_equal(json_integer_value(json_object_get(rec, "at")),
	    1780003701);
	assert_string_equal(json_string_value(json_object_get(rec, "repo")),
	    "octo/widget");

	day = day_new("octo/widget", 1779955200);
	assert_non_null(day);
	assert_int_equal(journal_apply_records(rec, day), 0);
	assert_day_is_result(day, &res);

	/* a redelivery adds no commit and no PR twice */
	assert_int_equal(journal_apply_records(rec, day), 0);
	assert_int_equal(day->ncommits, 2);
	assert_int_equal(day->nprs, 1);
	json_decref(rec);

	/* the whole day, encoded and applied to a fresh one */
	push_clear(&day->pushes[1]);
	day->npushes = 1;
	drec = journal_encode_day(day);
	assert_non_null(drec);
	assert_string_equal(json_string_value(json_object_get(drec, "repo")),
	    "octo/widget");
	assert_int_equal(json_integer_value(json_object_get(drec, "start")),
	    1779955200);
	again = day_new("octo/widget", 1779955200);
	assert_int_equal(journal_apply_records(drec, again), 0);
	assert_days_eq(day, again);
	assert_day_is_result(again, &res);
	json_decref(drec);

	day_free(again);
	day_free(day);
	handler_result_clear(&res);
}

/* A delivery through the journal file and back. */
static void
test_journal_codec_through_file(void **state)
{
	struct fixture		*fx = *state;
	struct handler_result	 res;
	struct journal		*j;
	struct day		*day;
	json_t			*rec;

	build_result(&res);
	j = open_journal(fx);
	rec = journal_encode_delivery(&res, "k", 1);
	assert_int_equal(journal_append(j, rec), 0);
	json_decref(rec);
	rec = journal_encode_rotate("octo/widget", 1780000000);
	assert_int_equal(journal_append(j, rec), 0);
	json_decref(rec);
	journal_close(j);

	day = day_new("octo/widget", 0);
	j = open_journal(fx);
	{
		struct seen	s = { .n = 0 };
		json_t		*back;
		json_error_t	 err;

		assert_int_equal(journal_replay(j, collect, &s), 2);
		back = json_loads(s.v[0], 0, &err);
		assert_non_null(back);
		assert_int_equal(journal_apply_records(back, day), 0);
		json_decref(back);
		assert_non_null(strstr(s.v[1], "\"t\":\"r\""));
		seen_clear(&s);
	}
	journal_close(j);
	assert_day_is_result(day, &res);
	day_free(day);
	handler_result_clear(&res);
}

static void
test_journal_codec_malformed(void **state)
{
	static const char *const bad[] = {
		"{\"t\":\"d\",\"commits\":[{\"m\":\"no id\"}]}",
		"{\"t\":\"d\",\"commits\":[{\"id\":\"" SHA_A "\"}]}",
		"{\"t\":\"d\",\"commits\":[{\"id\":\"" SHA_A "\",\"m\":7}]}",
	};
	static const char good[] =
	    "{\"t\":\"d\",\"commits\":[],\"prs\":[],\"pushes\":[]}";
	json_error_t	 err;
	json_t		*rec;
	struct day	*day;
	size_t		 i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		rec = json_loads(bad[i], 0, &err);
		assert_non_null(rec);
		day = day_new("a/b", 0);
		if (journal_apply_records(rec, day) != -1)
			fail_msg("%s: applied", bad[i]);
		assert_int_equal(day->ncommits, 0);
		day_free(day);
		json_decref(rec);
	}
	rec = json_loads(good, 0, &err);
	day = day_new("a/b", 0);
	assert_int_equal(journal_apply_records(rec, day), 0);
	assert_int_equal(day->ncommits + day->nprs + day->npushes, 0);
	day_free(day);
	json_decref(rec);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_journal_crc32),
		cmocka_unit_test_setup_teardown(test_journal_append_replay,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_journal_torn_tail,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_journal_corrupt_tail,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_journal_rewrite,
		    setup, teardown),
		cmocka_unit_test(test_journal_open_fails),
		cmocka_unit_test(test_journal_codec_delivery),
		cmocka_unit_test_setup_teardown(test_journal_codec_through_file,
		    setup, teardown),
		cmocka_unit_test(test_journal_codec_malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
