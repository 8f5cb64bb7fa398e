/* Unit tests: journal/jrecord.c */
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
#include "jrecord.h"
#include "xmalloc.h"

/* A state directory for the journal a test writes. */
static int
setup(void **state)
{
	char	*dir = xstrdup("/tmp/hookcast-test-jrecord.XXXXXX");

	if (mkdtemp(dir) == NULL) {
		free(dir);
		return -1;
	}
	*state = dir;
	return 0;
}

static int
teardown(void **state)
{
	char	*dir = *state, *path;

	xasprintf(&path, "%s/journal", dir);
	unlink(path);
	free(path);
	rmdir(dir);
	free(dir);
	return 0;
}

/* What replay hands over, kept as compact JSON text. */
struct seen {
	char	*v[8];
	size_t	 n;
};

static void
collect(json_t *rec, void *arg)
{
	struct seen	*s = arg;

	if (s->n == 8)
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

static struct journal *
open_journal(const char *dir)
{
	struct journal	*j;
	char		*cause = NULL;

	if ((j = journal_open(dir, &cause)) == NULL)
		fail_msg("journal_open: %s", cause);
	return j;
}

#define SHA_A	"1111111111111111111111111111111111111111"
#define SHA_B	"2222222222222222222222222222222222222222"
#define SHA_0	"0000000000000000000000000000000000000000"

/* A file list of a and b (either may be NULL). */
static char **
strings(size_t *n, const char *a, const char *b)
{
	char	*v[2];

	*n = 0;
	if (a != NULL)
		v[(*n)++] = (char *)a;
	if (b != NULL)
		v[(*n)++] = (char *)b;
	return record_list_dup(v, *n);
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
	assert_int_equal(push_id_set(res->push->before, SHA_0), 0);
	assert_int_equal(push_id_set(res->push->after, SHA_B), 0);
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
	assert_memory_equal(a->before, b->before, PUSH_ID_LEN);
	assert_memory_equal(a->after, b->after, PUSH_ID_LEN);
	assert_str_eq("pusher", a->pusher, b->pusher);
	assert_int_equal(a->forced, b->forced);
	assert_int_equal(a->created, b->created);
	assert_int_equal(a->deleted, b->deleted);
	assert_int_equal(a->ncommits, b->ncommits);
	assert_int_equal(a->at, b->at);
}

/*
 * The day holds exactly what res does, revert info parsed anew, its text
 * as the day keeps it (record_clean: the PR body's CRLF and tab go).
 */
static void
assert_day_is_result(const struct day *d, struct handler_result *res)
{
	size_t	i;

	for (i = 0; i < res->ncommits; i++)
		commit_clean(&res->commits[i]);
	merged_pr_clean(res->pr);
	push_clean(res->push);
	assert_int_equal(d->ncommits, res->ncommits);
	for (i = 0; i < res->ncommits; i++)
		assert_commit_eq(&d->commits[i], &res->commits[i]);
	assert_int_equal(d->nprs, 1);
	assert_pr_eq(&d->prs[0], res->pr);
	assert_int_equal(d->npushes, 1);
	assert_push_eq(day_push(d, 0), res->push);

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
		assert_push_eq(day_push(a, i), day_push(b, i));
}

static void
test_jrecord_delivery(void **state)
{
	struct handler_result	 res;
	struct day		*day, *again;
	json_t			*rec, *drec, **drecs = NULL;
	size_t			 ndrecs = 0;

	build_result(&res);
	rec = jrecord_encode_delivery(&res, "hook-1:delivery-1", 1780003701);
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
	assert_int_equal(jrecord_apply(rec, day), 0);
	assert_day_is_result(day, &res);

	/* a redelivery adds no commit and no PR twice */
	assert_int_equal(jrecord_apply(rec, day), 0);
	assert_int_equal(day->ncommits, 2);
	assert_int_equal(day->nprs, 1);
	json_decref(rec);

	/* its push came twice: the day keeps its names once */
	assert_int_equal(day->npushes, 2);
	assert_ptr_equal(day_push(day, 0)->branch, day_push(day, 1)->branch);
	assert_ptr_equal(day_push(day, 0)->pusher, day_push(day, 1)->pusher);
	assert_int_equal(day->names.n, 2);

	/* the whole day, encoded and applied to a fresh one */
	day->npushes = 1;	/* a day's push owns nothing */
	jrecord_encode_day(day, &drecs, &ndrecs);
	assert_int_equal(ndrecs, 1);
	drec = drecs[0];
	assert_string_equal(json_string_value(json_object_get(drec, "repo")),
	    "octo/widget");
	assert_int_equal(json_integer_value(json_object_get(drec, "start")),
	    1779955200);
	again = day_new("octo/widget", 1779955200);
	assert_int_equal(jrecord_apply(drec, again), 0);
	assert_days_eq(day, again);
	assert_day_is_result(again, &res);
	json_decref(drec);
	free(drecs);

	day_free(again);
	day_free(day);
	handler_result_clear(&res);
}

/* A delivery through the journal file and back. */
static void
test_jrecord_through_journal(void **state)
{
	const char		*dir = *state;
	struct handler_result	 res;
	struct journal		*j;
	struct day		*day;
	struct seen		 s = { .n = 0 };
	json_t			*rec, *back;
	json_error_t		 err;

	build_result(&res);
	j = open_journal(dir);
	rec = jrecord_encode_delivery(&res, "k", 1);
	assert_int_equal(journal_append(j, rec), 0);
	json_decref(rec);
	rec = jrecord_encode_rotate("octo/widget", 1780000000);
	assert_int_equal(journal_append(j, rec), 0);
	json_decref(rec);
	assert_int_equal(journal_sync(j), 0);
	journal_close(j);

	day = day_new("octo/widget", 0);
	j = open_journal(dir);
	assert_int_equal(journal_replay(j, collect, &s), 2);
	back = json_loads(s.v[0], 0, &err);
	assert_non_null(back);
	assert_int_equal(jrecord_apply(back, day), 0);
	json_decref(back);
	assert_non_null(strstr(s.v[1], "\"t\":\"r\""));
	assert_non_null(strstr(s.v[1], "\"start\":1780000000"));
	seen_clear(&s);
	journal_close(j);
	assert_day_is_result(day, &res);
	day_free(day);
	handler_result_clear(&res);
}

/* The markers: window and seen keys, as compaction writes them. */
static void
test_jrecord_markers(void **state)
{
	static const char *const keys[] = { "h:1", "h:2" };
	static const time_t at[] = { 1780000000, 1780000001 };
	json_t	*rec;
	char	*s;

	rec = jrecord_encode_window(1779955200);
	s = json_dumps(rec, JSON_COMPACT | JSON_SORT_KEYS);
	assert_string_equal(s, "{\"start\":1779955200,\"t\":\"w\"}");
	free(s);
	json_decref(rec);

	rec = jrecord_encode_seen(keys, at, 2);
	s = json_dumps(rec, JSON_COMPACT | JSON_SORT_KEYS);
	assert_string_equal(s, "{\"seen\":[[\"h:1\",1780000000],"
	    "[\"h:2\",1780000001]],\"t\":\"s\"}");
	free(s);
	json_decref(rec);

	rec = jrecord_encode_seen(NULL, NULL, 0);
	s = json_dumps(rec, JSON_COMPACT | JSON_SORT_KEYS);
	assert_string_equal(s, "{\"seen\":[],\"t\":\"s\"}");
	free(s);
	json_decref(rec);
}

/*
 * The drafter's markers, whole: "h" names the repository and the start of
 * the day that opens, "e" and "m" the repository alone.
 */
static void
test_jrecord_draft_markers(void **state)
{
	const struct {
		json_t		*rec;
		const char	*want;
	} cases[] = {
		{ jrecord_encode_handoff("o/r", 1779955200),
		    "{\"repo\":\"o/r\",\"start\":1779955200,\"t\":\"h\"}" },
		/* past 32 bits, and the name as given */
		{ jrecord_encode_handoff("Owner/Zo\xc3\xab\"x", 4102444800),
		    "{\"repo\":\"Owner/Zo\xc3\xab\\\"x\",\"start\":4102444800,"
		    "\"t\":\"h\"}" },
		{ jrecord_encode_handoff("o/r", 0),
		    "{\"repo\":\"o/r\",\"start\":0,\"t\":\"h\"}" },
		{ jrecord_encode_drafted("o/r"),
		    "{\"repo\":\"o/r\",\"t\":\"e\"}" },
		{ jrecord_encode_merge_back("o/r"),
		    "{\"repo\":\"o/r\",\"t\":\"m\"}" },
	};
	char	*s;
	size_t	 i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (cases[i].rec == NULL)
			fail_msg("case %zu: no record", i);
		s = json_dumps(cases[i].rec, JSON_COMPACT | JSON_SORT_KEYS);
		if (strcmp(s, cases[i].want) != 0)
			fail_msg("case %zu: %s, want %s", i, s, cases[i].want);
		free(s);
		json_decref(cases[i].rec);
	}
}

static void
test_jrecord_malformed(void **state)
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
		if (jrecord_apply(rec, day) != -1)
			fail_msg("%s: applied", bad[i]);
		assert_int_equal(day->ncommits, 0);
		day_free(day);
		json_decref(rec);
	}
	rec = json_loads(good, 0, &err);
	day = day_new("a/b", 0);
	assert_int_equal(jrecord_apply(rec, day), 0);
	assert_int_equal(day->ncommits + day->nprs + day->npushes, 0);
	day_free(day);
	json_decref(rec);
}

/* Bytes of a record as the journal writes it. */
static size_t
record_size(const json_t *rec)
{
	return json_dumpb(rec, NULL, 0, JSON_COMPACT);
}

/* A commit with a distinct sha (from i), on branch (borrowed, copied). */
static void
make_commit(struct commit *c, size_t i, const char *branch)
{
	char	sha[41];

	memset(c, 0, sizeof(*c));
	snprintf(sha, sizeof(sha), "%040zx", i + 1);
	c->sha = xstrdup(sha);
	c->author_name = xstrdup("Ada Lovelace");
	c->author_login = xstrdup("ada");
	c->timestamp = 1780000000 + (time_t)i;
	xasprintf(&c->subject, "Commit number %zu", i);
	c->body = xstrdup("");
	c->branch = xstrdup_null(branch);
	c->modified = strings(&c->nmodified, "src/gears.c", NULL);
	c->reverts_idx = c->reverted_by_idx = -1;
}

/*
 * A push of 2,048 commits to a branch of 4 KiB: its record holds the
 * branch once per push (and once in the push itself), not once per
 * commit, so it is about the size of what was pushed; and it is read
 * back with every commit on that branch.
 */
static void
test_jrecord_long_branch(void **state)
{
	struct handler_result	 res;
	struct day		*day;
	char			*branch;
	json_t			*rec;
	size_t			 i, size, bound, n = 2048, blen = 4096;

	branch = xmalloc(blen + 1);
	memset(branch, 'b', blen);
	branch[blen] = '\0';
	memset(&res, 0, sizeof(res));
	res.repo = xstrdup("octo/widget");
	res.commits = xcalloc(n, sizeof(*res.commits));
	res.ncommits = n;
	for (i = 0; i < n; i++)
		make_commit(&res.commits[i], i, branch);
	res.push = xcalloc(1, sizeof(*res.push));
	res.push->branch = xstrdup(branch);
	res.push->ncommits = n;

	rec = jrecord_encode_delivery(&res, "k", 1);
	size = record_size(rec);
	/* a commit without its branch is well under 300 bytes */
	bound = 2 * blen + n * 300;
	if (size > bound)
		fail_msg("a push of %zu commits to a %zu-byte branch: a record "
		    "of %zu bytes, want at most %zu", n, blen, size, bound);

	day = day_new("octo/widget", 0);
	assert_int_equal(jrecord_apply(rec, day), 0);
	assert_int_equal(day->ncommits, n);
	for (i = 0; i < n; i++)
		assert_str_eq("branch", day->commits[i].branch, branch);
	json_decref(rec);
	day_free(day);
	handler_result_clear(&res);
	free(branch);
}

/*
 * Commits keep their branches in a record whose branches change: a
 * commit names its branch only where it differs from the one before.
 * Older records, with "br" on every commit, read the same.
 */
static void
test_jrecord_branch_runs(void **state)
{
	static const char *const branches[] = {
		"main", "main", "dev", NULL, NULL, "main", "dev", "dev",
	};
	static const char old[] =
	    "{\"t\":\"d\",\"commits\":["
	    "{\"id\":\"" SHA_A "\",\"m\":\"a\",\"br\":\"main\"},"
	    "{\"id\":\"" SHA_B "\",\"m\":\"b\",\"br\":null}]}";
	struct handler_result	 res;
	struct day		*day;
	json_t			*rec;
	json_error_t		 err;
	size_t			 i, n = sizeof(branches) / sizeof(branches[0]);
	size_t			 named = 0;

	memset(&res, 0, sizeof(res));
	res.repo = xstrdup("octo/widget");
	res.commits = xcalloc(n, sizeof(*res.commits));
	res.ncommits = n;
	for (i = 0; i < n; i++)
		make_commit(&res.commits[i], i, branches[i]);
	rec = jrecord_encode_delivery(&res, "k", 1);
	for (i = 0; i < n; i++)
		named += json_object_get(json_array_get(json_object_get(rec,
		    "commits"), i), "br") != NULL;
	assert_int_equal(named, 5);
	day = day_new("octo/widget", 0);
	assert_int_equal(jrecord_apply(rec, day), 0);
	assert_int_equal(day->ncommits, n);
	for (i = 0; i < n; i++)
		assert_str_eq("branch", day->commits[i].branch, branches[i]);
	json_decref(rec);
	day_free(day);
	handler_result_clear(&res);

	rec = json_loads(old, 0, &err);
	assert_non_null(rec);
	day = day_new("octo/widget", 0);
	assert_int_equal(jrecord_apply(rec, day), 0);
	assert_int_equal(day->ncommits, 2);
	assert_str_eq("branch", day->commits[0].branch, "main");
	assert_null(day->commits[1].branch);
	json_decref(rec);
	day_free(day);
}

/*
 * Compaction of a day of 100,000 commits (in runs of pushes to two
 * branches), a commit of 5 MiB (of file names), PRs and pushes: records of at most
 * JRECORD_DAY_ITEMS items and JRECORD_DAY_BYTES (the large commit
 * alone), which applied in order give the same day.
 */
static void
test_jrecord_day_bounded(void **state)
{
	struct day	*day, *again;
	struct commit	 c;
	struct push	 p;
	struct merged_pr pr;
	json_t		**recs = NULL, *a;
	size_t		 n = 0, i, k, items, size, total = 100000, big = 0;
	char		*text;

	day = day_new("octo/widget", 1779955200);
	day->default_branch = xstrdup("main");
	for (i = 0; i < total; i++) {
		make_commit(&c, i, (i / 1000) % 2 ? "dev" : "main");
		if (i == total / 2) {
			/* a message is capped, a commit's file names are not */
			free(c.modified);
			c.nmodified = 5 * 1024;
			c.modified = record_list_new(c.nmodified,
			    c.nmodified * (1024 + 1), &text);
			for (k = 0; k < c.nmodified; k++) {
				memset(text, 'x', 1024);
				text[1024] = '\0';
				c.modified[k] = text;
				text += 1024 + 1;
			}
		}
		assert_int_equal(day_add_commit(day, &c), 1);
	}
	for (i = 0; i < 3000; i++) {
		memset(&p, 0, sizeof(p));
		p.branch = xstrdup("main");
		p.pusher = xstrdup("ada");
		p.ncommits = 1;
		p.at = 1780000000 + (time_t)i;
		assert_int_equal(day_add_push(day, &p), 0);
	}
	memset(&pr, 0, sizeof(pr));
	pr.number = 7;
	pr.title = xstrdup("A PR");
	pr.branch = xstrdup("main");
	assert_int_equal(day_add_pr(day, &pr), 1);

	jrecord_encode_day(day, &recs, &n);
	if (n < (total + 3001) / JRECORD_DAY_ITEMS)
		fail_msg("a day of %zu commits in %zu record(s)", total, n);
	again = day_new("octo/widget", 1779955200);
	for (i = 0; i < n; i++) {
		items = 0;
		for (k = 0; k < 3; k++) {
			a = json_object_get(recs[i], k == 0 ? "commits" :
			    k == 1 ? "prs" : "pushes");
			assert_true(json_is_array(a));
			items += json_array_size(a);
		}
		size = record_size(recs[i]);
		if (items == 0 || items > JRECORD_DAY_ITEMS)
			fail_msg("record %zu: %zu items", i, items);
		if (size > JRECORD_DAY_BYTES) {
			if (items != 1 || big++ > 0)
				fail_msg("record %zu: %zu bytes in %zu items",
				    i, size, items);
		}
		assert_string_equal(json_string_value(json_object_get(recs[i],
		    "repo")), "octo/widget");
		assert_int_equal(json_integer_value(json_object_get(recs[i],
		    "start")), 1779955200);
		assert_int_equal(jrecord_apply(recs[i], again), 0);
		json_decref(recs[i]);
	}
	free(recs);
	assert_int_equal(big, 1);
	assert_days_eq(day, again);
	day_free(again);
	day_free(day);
}

/*
 * A commit's message and a PR's title and body are stored as intake cut
 * them: a delivery of a 2 MB message and a 2 KB title, journalled and
 * replayed, gives the day what intake kept; a journal from before the
 * caps, holding them whole, is cut the same way at replay.
 */
static void
test_jrecord_message_caps(void **state)
{
	struct handler_result	 res;
	struct commit		 c;
	struct day		*day, *old;
	json_t			*rec, *o;
	char			*message, *title, *subject, *body;
	size_t			 i, n = 2 * 1000 * 1000;

	message = xmalloc(n + 1);
	for (i = 0; i < n; i++)
		message[i] = i < 1500 ? 's' : i == 1500 || i == 1501 ? '\n' :
		    i % 7 == 6 ? ' ' : 'b';
	message[n] = '\0';
	title = xmalloc(2048 + 1);
	for (i = 0; i < 2048; i++)
		title[i] = i % 5 == 4 ? ' ' : 't';
	title[2048] = '\0';

	build_result(&res);
	assert_int_equal(commit_set_message(&res.commits[0], message), 0);
	free(res.pr->title);
	res.pr->title = record_cut_dup(title, MERGED_PR_MAX_TITLE);
	assert_int_equal(strlen(res.commits[0].subject), COMMIT_MAX_SUBJECT);
	assert_true(strlen(res.commits[0].body) <= COMMIT_MAX_BODY);
	assert_true(strlen(res.commits[0].body) > COMMIT_MAX_BODY - 8);
	assert_int_equal(strlen(res.pr->title), MERGED_PR_MAX_TITLE);

	/* the record holds what intake kept, not the 2 MB */
	rec = jrecord_encode_delivery(&res, "k", 1);
	if (record_size(rec) > 64 * 1024)
		fail_msg("a record of %zu bytes", record_size(rec));
	day = day_new("octo/widget", 1779955200);
	assert_int_equal(jrecord_apply(rec, day), 0);
	assert_day_is_result(day, &res);

	/* a record written before the caps: the message and title whole */
	o = json_array_get(json_object_get(rec, "commits"), 0);
	json_object_set_new(o, "m", json_string(message));
	o = json_array_get(json_object_get(rec, "prs"), 0);
	json_object_set_new(o, "t", json_string(title));
	old = day_new("octo/widget", 1779955200);
	assert_int_equal(jrecord_apply(rec, old), 0);
	assert_days_eq(day, old);
	assert_day_is_result(old, &res);

	/* and either is what commit_set_message keeps of the message */
	memset(&c, 0, sizeof(c));
	assert_int_equal(commit_set_message(&c, message), 0);
	subject = c.subject;
	body = c.body;
	record_clean(subject, 0);
	record_clean(body, RECORD_CLEAN_LINES);
	assert_str_eq("subject", old->commits[0].subject, subject);
	assert_str_eq("body", old->commits[0].body, body);
	commit_clear(&c);

	json_decref(rec);
	day_free(old);
	day_free(day);
	handler_result_clear(&res);
	free(title);
	free(message);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jrecord_delivery),
		cmocka_unit_test_setup_teardown(test_jrecord_through_journal,
		    setup, teardown),
		cmocka_unit_test(test_jrecord_markers),
		cmocka_unit_test(test_jrecord_draft_markers),
		cmocka_unit_test(test_jrecord_malformed),
		cmocka_unit_test(test_jrecord_long_branch),
		cmocka_unit_test(test_jrecord_branch_runs),
		cmocka_unit_test(test_jrecord_day_bounded),
		cmocka_unit_test(test_jrecord_message_caps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
