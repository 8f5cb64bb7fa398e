/* Unit tests: daemon/jrecord.c */
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
test_jrecord_delivery(void **state)
{
	struct handler_result	 res;
	struct day		*day, *again;
	json_t			*rec, *drec;

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

	/* the whole day, encoded and applied to a fresh one */
	push_clear(&day->pushes[1]);
	day->npushes = 1;
	drec = jrecord_encode_day(day);
	assert_non_null(drec);
	assert_string_equal(json_string_value(json_object_get(drec, "repo")),
	    "octo/widget");
	assert_int_equal(json_integer_value(json_object_get(drec, "start")),
	    1779955200);
	again = day_new("octo/widget", 1779955200);
	assert_int_equal(jrecord_apply(drec, again), 0);
	assert_days_eq(day, again);
	assert_day_is_result(again, &res);
	json_decref(drec);

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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jrecord_delivery),
		cmocka_unit_test_setup_teardown(test_jrecord_through_journal,
		    setup, teardown),
		cmocka_unit_test(test_jrecord_markers),
		cmocka_unit_test(test_jrecord_malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
