/*
 * libFuzzer target: the journal's record writers (jrecord_write_*) against
 * its reader. Any payload jrecord_decode takes is written again, as a
 * delivery, as a day and as the record of its kind; those bytes must be
 * JSON for jansson, and read back to what was read the first time.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "buf.h"
#include "day.h"
#include "handler.h"
#include "jrecord.h"
#include "xmalloc.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
fail(const char *what)
{
	fprintf(stderr, "fuzz_jrecord_write: %s\n", what);
	abort();
}

static int
same_str(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return strcmp(a, b) == 0;
}

static int
same_strings(char **a, size_t na, char **b, size_t nb)
{
	size_t	i;

	if (na != nb)
		return 0;
	for (i = 0; i < na; i++)
		if (!same_str(a[i], b[i]))
			return 0;
	return 1;
}

static int
same_commit(const struct commit *c, const struct commit *d)
{
	return same_str(c->sha, d->sha) &&
	    same_str(c->author_name, d->author_name) &&
	    same_str(c->author_login, d->author_login) &&
	    same_str(c->author_email, d->author_email) &&
	    same_str(c->committer_name, d->committer_name) &&
	    same_str(c->committer_login, d->committer_login) &&
	    c->timestamp == d->timestamp &&
	    same_str(c->subject, d->subject) && same_str(c->body, d->body) &&
	    same_str(c->branch, d->branch) &&
	    same_strings(c->added, c->nadded, d->added, d->nadded) &&
	    same_strings(c->removed, c->nremoved, d->removed, d->nremoved) &&
	    same_strings(c->modified, c->nmodified, d->modified, d->nmodified);
}

static int
same_pr(const struct merged_pr *p, const struct merged_pr *q)
{
	return p->number == q->number && same_str(p->title, q->title) &&
	    same_str(p->author_login, q->author_login) &&
	    same_str(p->body, q->body) &&
	    same_str(p->merge_sha, q->merge_sha) &&
	    same_str(p->branch, q->branch) && p->merged_at == q->merged_at;
}

static int
same_push(const struct push *u, const struct push *v)
{
	return same_str(u->branch, v->branch) &&
	    memcmp(u->before, v->before, PUSH_ID_LEN) == 0 &&
	    memcmp(u->after, v->after, PUSH_ID_LEN) == 0 &&
	    same_str(u->pusher, v->pusher) && u->forced == v->forced &&
	    u->created == v->created && u->deleted == v->deleted &&
	    u->ncommits == v->ncommits && u->at == v->at;
}

/* Decode what was written, which must be JSON (jansson takes it too). */
static void
reread(const struct buf *b, struct jrecord *rec)
{
	json_error_t	 err;
	json_t		*j;

	j = json_loadb(buf_str(b), b->len, 0, &err);
	if (j == NULL)
		fail("written bytes are not JSON for jansson");
	json_decref(j);
	if (jrecord_decode(buf_str(b), b->len, rec) == -1)
		fail("written bytes are not read back");
	if (rec->malformed)
		fail("written commits read back malformed");
}

/* As a delivery: its one PR and one push, the first of those read. */
static void
as_delivery(const struct jrecord *a)
{
	struct handler_result	 res;
	struct jrecord		 b;
	struct buf		 out;
	size_t			 i;

	memset(&res, 0, sizeof(res));
	res.repo = a->repo;
	res.default_branch = a->db;
	res.commits = a->commits;
	res.ncommits = a->ncommits;
	res.pr = a->nprs > 0 ? &a->prs[0] : NULL;
	res.push = a->npushes > 0 ? &a->pushes[0] : NULL;
	buf_init(&out);
	jrecord_write_delivery(&out, &res, a->key, a->at, a->start);
	reread(&out, &b);
	if (b.kind != 'd' || !same_str(a->key, b.key) || a->at != b.at ||
	    !same_str(a->repo, b.repo) || !same_str(a->db, b.db) ||
	    a->start != b.start || !b.has_start ||
	    a->ncommits != b.ncommits || b.nprs != (a->nprs > 0) ||
	    b.npushes != (a->npushes > 0))
		fail("delivery: fields differ");
	for (i = 0; i < a->ncommits; i++)
		if (!same_commit(&a->commits[i], &b.commits[i]))
			fail("delivery: a commit differs");
	if (b.nprs > 0 && !same_pr(&a->prs[0], &b.prs[0]))
		fail("delivery: the PR differs");
	if (b.npushes > 0 && !same_push(&a->pushes[0], &b.pushes[0]))
		fail("delivery: the push differs");
	jrecord_clear(&b);
	buf_free(&out);
}

/* As a day: every item, in as many records as it takes, in order. */
static void
as_day(const struct jrecord *a)
{
	struct day	 day;
	struct jrecord	 b;
	struct buf	*recs = NULL;
	size_t		 n = 0, i, k, nc = 0, np = 0, nu = 0;

	memset(&day, 0, sizeof(day));
	day.repo = a->repo;
	day.default_branch = a->db;
	day.start = a->start;
	day.commits = a->commits;
	day.ncommits = a->ncommits;
	day.prs = a->prs;
	day.nprs = a->nprs;
	/* the record's pushes, read as the day's blocks (day_push) */
	day.pushes = xcalloc(a->npushes / DAY_PUSH_BLOCK + 1,
	    sizeof(*day.pushes));
	for (i = 0; i * DAY_PUSH_BLOCK < a->npushes; i++)
		day.pushes[i] = a->pushes + i * DAY_PUSH_BLOCK;
	day.npushes = day.pushes_cap = a->npushes;
	jrecord_write_day(&day, &recs, &n);
	free(day.pushes);
	if (n == 0)
		fail("day: no record");
	for (i = 0; i < n; i++) {
		reread(&recs[i], &b);
		if (b.kind != 'd' || !same_str(a->repo, b.repo) ||
		    !same_str(a->db, b.db) || a->start != b.start ||
		    nc + b.ncommits > a->ncommits ||
		    np + b.nprs > a->nprs || nu + b.npushes > a->npushes)
			fail("day: fields differ");
		for (k = 0; k < b.ncommits; k++)
			if (!same_commit(&a->commits[nc++], &b.commits[k]))
				fail("day: a commit differs");
		for (k = 0; k < b.nprs; k++)
			if (!same_pr(&a->prs[np++], &b.prs[k]))
				fail("day: a PR differs");
		for (k = 0; k < b.npushes; k++)
			if (!same_push(&a->pushes[nu++], &b.pushes[k]))
				fail("day: a push differs");
		jrecord_clear(&b);
		buf_free(&recs[i]);
	}
	if (nc != a->ncommits || np != a->nprs || nu != a->npushes)
		fail("day: items lost");
	free(recs);
}

/* As the record of its kind, when it is one of the others. */
static void
as_kind(const struct jrecord *a)
{
	struct jrecord	 b;
	struct buf	 out;
	size_t		 i;
	int		 rc = 0;

	buf_init(&out);
	switch (a->kind) {
	case 'r':
		rc = jrecord_write_rotate(&out, a->repo, a->start);
		break;
	case 'h':
		rc = jrecord_write_handoff(&out, a->repo, a->start);
		break;
	case 'e':
		rc = jrecord_write_drafted(&out, a->repo);
		break;
	case 'm':
		rc = jrecord_write_merge_back(&out, a->repo);
		break;
	case 'w':
		jrecord_write_window(&out, a->start);
		break;
	case 's':
		jrecord_write_seen(&out, (const char *const *)a->seen,
		    a->seen_at, a->nseen);
		break;
	default:
		buf_free(&out);
		return;
	}
	if (rc == -1) {
		/* only a record without a repository is refused */
		if (a->repo != NULL || out.len != 0)
			fail("marker: refused");
		buf_free(&out);
		return;
	}
	reread(&out, &b);
	if (b.kind != a->kind)
		fail("marker: kind differs");
	if (strchr("rhem", a->kind) != NULL && !same_str(a->repo, b.repo))
		fail("marker: repo differs");
	if (strchr("rhw", a->kind) != NULL && (a->start != b.start ||
	    !b.has_start))
		fail("marker: start differs");
	if (a->kind == 's') {
		if (!same_strings(a->seen, a->nseen, b.seen, b.nseen))
			fail("seen: keys differ");
		for (i = 0; i < a->nseen; i++)
			if (a->seen_at[i] != b.seen_at[i])
				fail("seen: times differ");
	}
	jrecord_clear(&b);
	buf_free(&out);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jrecord	rec;

	if (jrecord_decode((const char *)data, size, &rec) == -1)
		return 0;
	as_delivery(&rec);
	as_day(&rec);
	as_kind(&rec);
	jrecord_clear(&rec);
	return 0;
}
