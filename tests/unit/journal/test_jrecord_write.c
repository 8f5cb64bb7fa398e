/*
 * Unit tests: journal/jrecord.c, writing records as bytes (jrecord_write_*)
 * against the json_t encoders (jrecord_encode_*) dumped as the journal
 * dumped them: the same bytes, so the same trees (json_equal) and the
 * same records read back (jrecord_decode).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "buf.h"
#include "day.h"
#include "handler.h"
#include "jrecord.h"
#include "xmalloc.h"

#define SHA_A	"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define SHA_0	"0000000000000000000000000000000000000000"

/* The compact bytes of rec, as journal_append wrote them; rec is stolen. */
static char *
dump(json_t *rec, size_t *len)
{
	char	*s;

	assert_non_null(rec);
	s = json_dumps(rec, JSON_COMPACT);
	assert_non_null(s);
	*len = strlen(s);
	json_decref(rec);
	return s;
}

/* The old way of webhook.c: the json_t record, "start" set after. */
static char *
old_delivery(const struct handler_result *res, const char *key, time_t at,
    time_t start, size_t *len)
{
	json_t	*rec = jrecord_encode_delivery(res, key, at);

	json_object_set_new(rec, "start", json_integer((json_int_t)start));
	return dump(rec, len);
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

/* Whether two decoded records hold the same. */
static int
same_record(const struct jrecord *a, const struct jrecord *b)
{
	const struct commit	*c, *d;
	const struct merged_pr	*p, *q;
	const struct push	*u, *v;
	size_t			 i;

	if (a->kind != b->kind || !same_str(a->repo, b->repo) ||
	    !same_str(a->db, b->db) || !same_str(a->key, b->key) ||
	    a->at != b->at || a->start != b->start ||
	    a->has_start != b->has_start || a->ncommits != b->ncommits ||
	    a->nprs != b->nprs || a->npushes != b->npushes ||
	    a->malformed != b->malformed ||
	    !same_strings(a->seen, a->nseen, b->seen, b->nseen))
		return 0;
	for (i = 0; i < a->nseen; i++)
		if (a->seen_at[i] != b->seen_at[i])
			return 0;
	for (i = 0; i < a->ncommits; i++) {
		c = &a->commits[i];
		d = &b->commits[i];
		if (!same_str(c->sha, d->sha) ||
		    !same_str(c->author_name, d->author_name) ||
		    !same_str(c->author_login, d->author_login) ||
		    !same_str(c->author_email, d->author_email) ||
		    !same_str(c->committer_name, d->committer_name) ||
		    !same_str(c->committer_login, d->committer_login) ||
		    c->timestamp != d->timestamp ||
		    !same_str(c->subject, d->subject) ||
		    !same_str(c->body, d->body) ||
		    !same_str(c->branch, d->branch) ||
		    !same_strings(c->added, c->nadded, d->added, d->nadded) ||
		    !same_strings(c->removed, c->nremoved, d->removed,
		    d->nremoved) ||
		    !same_strings(c->modified, c->nmodified, d->modified,
		    d->nmodified))
			return 0;
	}
	for (i = 0; i < a->nprs; i++) {
		p = &a->prs[i];
		q = &b->prs[i];
		if (p->number != q->number || !same_str(p->title, q->title) ||
		    !same_str(p->author_login, q->author_login) ||
		    !same_str(p->body, q->body) ||
		    !same_str(p->merge_sha, q->merge_sha) ||
		    !same_str(p->branch, q->branch) ||
		    p->merged_at != q->merged_at)
			return 0;
	}
	for (i = 0; i < a->npushes; i++) {
		u = &a->pushes[i];
		v = &b->pushes[i];
		if (!same_str(u->branch, v->branch) ||
		    memcmp(u->before, v->before, PUSH_ID_LEN) != 0 ||
		    memcmp(u->after, v->after, PUSH_ID_LEN) != 0 ||
		    !same_str(u->pusher, v->pusher) ||
		    u->forced != v->forced || u->created != v->created ||
		    u->deleted != v->deleted || u->ncommits != v->ncommits ||
		    u->at != v->at)
			return 0;
	}
	return 1;
}

/*
 * The old bytes and the new: the same bytes, the same tree for jansson
 * and the same record for jrecord_decode. what names the case.
 */
static void
check_same(const char *what, const char *old, size_t oldlen,
    const char *new, size_t newlen)
{
	struct jrecord	 ra, rb;
	json_error_t	 err;
	json_t		*ja, *jb;

	if (oldlen != newlen || memcmp(old, new, oldlen) != 0)
		fail_msg("%s: bytes differ:\nold %.*s\nnew %.*s", what,
		    (int)oldlen, old, (int)newlen, new);
	ja = json_loadb(old, oldlen, 0, &err);
	jb = json_loadb(new, newlen, 0, &err);
	if (ja == NULL || jb == NULL || !json_equal(ja, jb))
		fail_msg("%s: trees differ", what);
	json_decref(ja);
	json_decref(jb);
	if (jrecord_decode(old, oldlen, &ra) != 0 ||
	    jrecord_decode(new, newlen, &rb) != 0)
		fail_msg("%s: not read back", what);
	if (!same_record(&ra, &rb))
		fail_msg("%s: records differ", what);
	jrecord_clear(&ra);
	jrecord_clear(&rb);
}

/*
 * A string's JSON form, as the repo of a delivery: want NULL when the
 * field is left out (jansson refused a string that is not UTF-8).
 */
static const struct {
	const char	*in;
	const char	*want;
} escapes[] = {
	{ "", "\"\"" },
	{ "octo/widget", "\"octo/widget\"" },
	{ "a\"b", "\"a\\\"b\"" },
	{ "back\\slash", "\"back\\\\slash\"" },
	{ "\b\f\n\r\t", "\"\\b\\f\\n\\r\\t\"" },
	{ "\x01\x1f\x0b", "\"\\u0001\\u001F\\u000B\"" },
	{ "del\x7f", "\"del\x7f\"" },
	{ "a/b</script>", "\"a/b</script>\"" },
	{ "line\xe2\x80\xa8sep\xe2\x80\xa9", "\"line\xe2\x80\xa8sep\xe2\x80\xa9\"" },
	{ "Zo\xc3\xab \xe2\x82\xac \xf0\x9f\x98\x80",
	    "\"Zo\xc3\xab \xe2\x82\xac \xf0\x9f\x98\x80\"" },
	/* specials past whole words of plain ASCII, and at their ends */
	{ "0123456789abcdef\"", "\"0123456789abcdef\\\"\"" },
	{ "0123456\n89abcde\\", "\"0123456\\n89abcde\\\\\"" },
	{ "01234567\x01", "\"01234567\\u0001\"" },
	{ "0123456\xc3\xa9" "abcdefgh", "\"0123456\xc3\xa9" "abcdefgh\"" },
	{ "\x80", NULL },
	{ "abcdefgh\xc3", NULL },
	{ "\xc0\xaf", NULL },
	{ "\xed\xa0\x80", NULL },
	{ "\xf4\x90\x80\x80", NULL },
	{ "\xf5\x80\x80\x80", NULL },
	{ "ok then \xff", NULL },
};

static void
test_write_escapes(void **state)
{
	struct handler_result	 res;
	struct buf		 b;
	char			*old, *want;
	size_t			 i, len;

	(void)state;
	for (i = 0; i < sizeof(escapes) / sizeof(escapes[0]); i++) {
		memset(&res, 0, sizeof(res));
		res.repo = (char *)escapes[i].in;
		buf_init(&b);
		jrecord_write_delivery(&b, &res, "k", 1, 2);
		if (escapes[i].want != NULL)
			xasprintf(&want, "{\"t\":\"d\",\"key\":\"k\",\"at\":1,"
			    "\"repo\":%s,\"db\":null,\"commits\":[],"
			    "\"prs\":[],\"pushes\":[],\"start\":2}",
			    escapes[i].want);
		else
			want = xstrdup("{\"t\":\"d\",\"key\":\"k\",\"at\":1,"
			    "\"db\":null,\"commits\":[],\"prs\":[],"
			    "\"pushes\":[],\"start\":2}");
		if (strcmp(buf_str(&b), want) != 0)
			fail_msg("case %zu: %s, not %s", i, buf_str(&b), want);
		old = old_delivery(&res, "k", 1, 2, &len);
		check_same(escapes[i].in, old, len, b.data, b.len);
		free(old);
		free(want);
		buf_free(&b);
	}
}

/* Integers at their ends, NULL fields, no commits, a PR and a push. */
static void
test_write_fields(void **state)
{
	struct handler_result	 res;
	struct merged_pr	 pr = { .number = LONG_MIN, .title = "t",
				    .branch = "main", .merged_at = -1 };
	struct push		 push = { .branch = "main", .forced = 1,
				    .deleted = 1, .ncommits = 0,
				    .at = LLONG_MAX };
	struct commit		 c;
	char			*added[] = { "a", NULL, "b\xff", "" };
	struct buf		 b;
	char			*old;
	size_t			 len;

	(void)state;
	memset(&res, 0, sizeof(res));
	memset(&c, 0, sizeof(c));
	c.sha = SHA_A;
	c.subject = "s";
	c.body = "";
	c.timestamp = LLONG_MIN;
	c.added = added;
	c.nadded = 4;
	res.commits = &c;
	res.ncommits = 1;
	res.pr = &pr;
	res.push = &push;
	buf_init(&b);
	jrecord_write_delivery(&b, &res, NULL, 0, 0);
	assert_string_equal(buf_str(&b), "{\"t\":\"d\",\"at\":0,\"repo\":null,"
	    "\"db\":null,\"commits\":[{\"id\":\"" SHA_A "\",\"an\":null,"
	    "\"al\":null,\"ae\":null,\"cn\":null,\"cl\":null,"
	    "\"ts\":-9223372036854775808,\"m\":\"s\",\"br\":null,"
	    "\"a\":[\"a\",\"\"],\"r\":[],\"md\":[]}],\"prs\":[{"
	    "\"n\":-9223372036854775808,\"t\":\"t\",\"al\":null,\"b\":null,"
	    "\"ms\":null,\"br\":\"main\",\"at\":-1}],\"pushes\":[{"
	    "\"br\":\"main\",\"bf\":\"" SHA_0 "\",\"af\":\"" SHA_0 "\","
	    "\"p\":null,\"f\":true,"
	    "\"c\":false,\"d\":true,\"n\":0,\"at\":9223372036854775807}],"
	    "\"start\":0}");
	old = old_delivery(&res, NULL, 0, 0, &len);
	check_same("fields", old, len, b.data, b.len);
	free(old);

	/* a message not UTF-8 is left out: the commit reads as malformed */
	c.body = "body \xc3";
	buf_reset(&b);
	jrecord_write_delivery(&b, &res, "k", 0, 0);
	assert_null(strstr(buf_str(&b), "\"m\":"));
	old = old_delivery(&res, "k", 0, 0, &len);
	check_same("bad message", old, len, b.data, b.len);
	free(old);
	buf_free(&b);
}

/* A small deterministic generator (xorshift), so failures repeat. */
static uint64_t	rng = 0x9e3779b97f4a7c15ULL;

static uint32_t
rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 32) % n;
}

/* Pieces strings are made of: every kind of byte the escaper meets. */
static const char *const pieces[] = {
	"a", "Hello, world", "0123456789abcdefghijklmnopqrstuv", " ", "/",
	"\"", "\\", "\n", "\r", "\t", "\b", "\f", "\x01", "\x1f", "\x7f",
	"\xc3\xa9", "\xe2\x82\xac", "\xe2\x80\xa8", "\xe2\x80\xa9",
	"\xf0\x9f\x98\x80", "\xf4\x8f\xbf\xbf", "\xef\xbb\xbf", "\\u0000",
	"\\\"", "}", "]", ",", ":",
};
/* Bytes jansson refuses, now and then. */
static const char *const bad[] = {
	"\x80", "\xc3", "\xc0\x80", "\xed\xb0\x80", "\xf8\x88\x80\x80\x80",
	"\xe2\x82",
};

/* A generated string: NULL (when may_null) in one case of eight. */
static char *
gen_str(int may_null)
{
	struct buf	b;
	uint32_t	i, n;

	if (may_null && rnd(8) == 0)
		return NULL;
	buf_init(&b);
	buf_puts(&b, "");
	n = rnd(4) == 0 ? 0 : rnd(12);
	for (i = 0; i < n; i++) {
		if (rnd(60) == 0)
			buf_puts(&b, bad[rnd(sizeof(bad) / sizeof(bad[0]))]);
		else
			buf_puts(&b, pieces[rnd(sizeof(pieces) /
			    sizeof(pieces[0]))]);
	}
	return buf_steal(&b);
}

/* A generated push id: none in one case of four, else random bytes. */
static void
gen_id(uint8_t id[PUSH_ID_LEN])
{
	size_t	i;

	memset(id, 0, PUSH_ID_LEN);
	if (rnd(4) == 0)
		return;
	for (i = 0; i < PUSH_ID_LEN; i++)
		id[i] = (uint8_t)rnd(256);
}

static char **
gen_list(size_t *n)
{
	char	**v, **list;
	size_t	  i;

	*n = rnd(4);
	v = xcalloc(*n + 1, sizeof(*v));
	for (i = 0; i < *n; i++)
		v[i] = gen_str(0);
	list = record_list_dup(v, *n);
	for (i = 0; i < *n; i++)
		free(v[i]);
	free(v);
	return list;
}

static long long
gen_int(void)
{
	switch (rnd(6)) {
	case 0:
		return 0;
	case 1:
		return LLONG_MIN;
	case 2:
		return LLONG_MAX;
	case 3:
		return -(long long)rnd(100000);
	default:
		return 1700000000 + (long long)rnd(100000000);
	}
}

static void
gen_result(struct handler_result *res)
{
	static const char *const branches[] = { "main", "dev", "r\xc3\xa9l" };
	struct commit	*c;
	size_t		 i;

	memset(res, 0, sizeof(*res));
	res->repo = gen_str(1);
	res->default_branch = gen_str(1);
	res->html_url = gen_str(1);
	res->ncommits = rnd(6);
	res->commits = xcalloc(res->ncommits + 1, sizeof(*res->commits));
	for (i = 0; i < res->ncommits; i++) {
		c = &res->commits[i];
		c->sha = rnd(10) == 0 ? gen_str(1) : xstrdup(SHA_A);
		c->author_name = gen_str(1);
		c->author_login = gen_str(1);
		c->author_email = gen_str(1);
		c->committer_name = gen_str(1);
		c->committer_login = gen_str(1);
		c->timestamp = (time_t)gen_int();
		c->body = gen_str(1);
		/* sprintf's "(null)" for a NULL subject with a body: never */
		c->subject = gen_str(c->body == NULL || *c->body == '\0');
		/* runs of one branch, changing now and then, NULL too */
		if (rnd(3) == 0)
			c->branch = rnd(4) == 0 ? gen_str(1) : NULL;
		else
			c->branch = xstrdup(branches[rnd(3)]);
		c->added = gen_list(&c->nadded);
		c->removed = gen_list(&c->nremoved);
		c->modified = gen_list(&c->nmodified);
	}
	if (rnd(3) == 0) {
		res->pr = xcalloc(1, sizeof(*res->pr));
		res->pr->number = (long)gen_int();
		res->pr->title = gen_str(1);
		res->pr->author_login = gen_str(1);
		res->pr->body = gen_str(1);
		res->pr->merge_sha = gen_str(1);
		res->pr->branch = gen_str(1);
		res->pr->merged_at = (time_t)gen_int();
	}
	if (rnd(2) == 0) {
		res->push = xcalloc(1, sizeof(*res->push));
		res->push->branch = gen_str(1);
		gen_id(res->push->before);
		gen_id(res->push->after);
		res->push->pusher = gen_str(1);
		res->push->forced = (uint8_t)rnd(2);
		res->push->created = (uint8_t)rnd(2);
		res->push->deleted = (uint8_t)rnd(2);
		res->push->ncommits = rnd(1000);
		res->push->at = (time_t)gen_int();
	}
}

/* Many generated deliveries: old and new bytes the same. */
static void
test_write_property(void **state)
{
	struct handler_result	 res;
	struct buf		 b;
	char			*old, *key, what[32];
	size_t			 len;
	time_t			 at, start;
	int			 i;

	(void)state;
	buf_init(&b);
	for (i = 0; i < 20000; i++) {
		gen_result(&res);
		key = gen_str(1);
		at = (time_t)gen_int();
		start = (time_t)gen_int();
		buf_reset(&b);
		jrecord_write_delivery(&b, &res, key, at, start);
		old = old_delivery(&res, key, at, start, &len);
		snprintf(what, sizeof(what), "case %d", i);
		check_same(what, old, len, b.data, b.len);
		free(old);
		free(key);
		handler_result_clear(&res);
	}
	buf_free(&b);
}

/* The bytes of a json_t marker, or NULL when jansson could not build it. */
static char *
old_marker(json_t *rec, size_t *len)
{
	if (rec == NULL)
		return NULL;
	return dump(rec, len);
}

/* Rotation, hand-off, drafted, merge-back and window records. */
static void
test_write_markers(void **state)
{
	const char *const	 repos[] = { "o/r", "Owner/Zo\xc3\xab\"x",
				    "a\\b\n\x01\xe2\x80\xa8", "", NULL,
				    "bad\xc3", "\xed\xa0\x80" };
	const time_t		 starts[] = { 0, -3600, 4102444800,
				    (time_t)LLONG_MIN, (time_t)LLONG_MAX };
	struct buf		 b;
	char			*old, what[64];
	size_t			 i, k, len;
	int			 rc = 0;

	(void)state;
	buf_init(&b);
	for (i = 0; i < sizeof(repos) / sizeof(repos[0]); i++) {
		for (k = 0; k < 5; k++) {
			const char	*r = repos[i];
			time_t		 t = starts[(i + k) % 5];

			buf_reset(&b);
			buf_puts(&b, "kept");
			switch (k) {
			case 0:
				rc = jrecord_write_rotate(&b, r, t);
				old = old_marker(r == NULL ? NULL :
				    jrecord_encode_rotate(r, t), &len);
				break;
			case 1:
				rc = jrecord_write_handoff(&b, r, t);
				old = old_marker(r == NULL ? NULL :
				    jrecord_encode_handoff(r, t), &len);
				break;
			case 2:
				rc = jrecord_write_drafted(&b, r);
				old = old_marker(r == NULL ? NULL :
				    jrecord_encode_drafted(r), &len);
				break;
			case 3:
				rc = jrecord_write_merge_back(&b, r);
				old = old_marker(r == NULL ? NULL :
				    jrecord_encode_merge_back(r), &len);
				break;
			default:
				jrecord_write_window(&b, t);
				rc = 0;
				old = old_marker(jrecord_encode_window(t),
				    &len);
				break;
			}
			snprintf(what, sizeof(what), "repo %zu kind %zu", i, k);
			if (old == NULL) {
				if (rc != -1 || strcmp(buf_str(&b), "kept") != 0)
					fail_msg("%s: written", what);
				continue;
			}
			assert_int_equal(rc, 0);
			check_same(what, old, len, b.data + 4, b.len - 4);
			free(old);
		}
	}
	buf_free(&b);
}

/* Seen records: keys odd, NULL or not UTF-8 (left out), none at all. */
static void
test_write_seen(void **state)
{
	char		*keys[64], *old;
	time_t		 at[64];
	struct buf	 b;
	size_t		 i, len, n;
	int		 round;

	(void)state;
	buf_init(&b);
	for (round = 0; round < 2000; round++) {
		n = round == 0 ? 0 : rnd(64);
		for (i = 0; i < n; i++) {
			keys[i] = gen_str(1);
			at[i] = (time_t)gen_int();
		}
		buf_reset(&b);
		jrecord_write_seen(&b, (const char *const *)keys, at, n);
		old = dump(jrecord_encode_seen((const char *const *)keys, at,
		    n), &len);
		check_same("seen", old, len, b.data, b.len);
		free(old);
		for (i = 0; i < n; i++)
			free(keys[i]);
	}
	buf_free(&b);
}

/* A day of generated items; big makes every fifth commit's body ~600 KB. */
static void
gen_day(struct day *day, size_t ncommits, size_t nprs, size_t npushes,
    int big)
{
	struct handler_result	 res;
	struct buf		 body;
	struct push		*pushes;
	size_t			 i;

	memset(day, 0, sizeof(*day));
	day->repo = gen_str(1);
	day->default_branch = gen_str(1);
	day->html_url = gen_str(1);
	day->start = (time_t)gen_int();
	day->commits = xcalloc(ncommits + 1, sizeof(*day->commits));
	for (i = 0; i < ncommits; i++) {
		gen_result(&res);
		if (res.ncommits > 0) {
			day->commits[i] = res.commits[0];
			memset(&res.commits[0], 0, sizeof(res.commits[0]));
		} else {
			day->commits[i].sha = xstrdup(SHA_A);
			day->commits[i].subject = xstrdup("s");
		}
		if (big && i % 5 == 0) {
			buf_init(&body);
			while (body.len < 600 * 1024)
				buf_puts(&body, "a line of text, \"quoted\"\n");
			free(day->commits[i].body);
			day->commits[i].body = buf_steal(&body);
			if (day->commits[i].subject == NULL)
				day->commits[i].subject = xstrdup("");
		}
		handler_result_clear(&res);
	}
	day->ncommits = ncommits;
	day->prs = xcalloc(nprs + 1, sizeof(*day->prs));
	for (i = 0; i < nprs; i++) {
		do {
			gen_result(&res);
			if (res.pr == NULL)
				handler_result_clear(&res);
		} while (res.pr == NULL);
		day->prs[i] = *res.pr;
		memset(res.pr, 0, sizeof(*res.pr));
		handler_result_clear(&res);
	}
	day->nprs = nprs;
	/* one array, read as the day's blocks (day_push) */
	pushes = xcalloc(npushes + 1, sizeof(*pushes));
	for (i = 0; i < npushes; i++) {
		do {
			gen_result(&res);
			if (res.push == NULL)
				handler_result_clear(&res);
		} while (res.push == NULL);
		pushes[i] = *res.push;
		memset(res.push, 0, sizeof(*res.push));
		handler_result_clear(&res);
	}
	day->pushes = xcalloc(npushes / DAY_PUSH_BLOCK + 1,
	    sizeof(*day->pushes));
	for (i = 0; i <= npushes / DAY_PUSH_BLOCK; i++)
		day->pushes[i] = pushes + i * DAY_PUSH_BLOCK;
	day->npushes = day->pushes_cap = npushes;
}

static void
gen_day_free(struct day *day)
{
	size_t	i;

	for (i = 0; i < day->ncommits; i++)
		commit_clear(&day->commits[i]);
	for (i = 0; i < day->nprs; i++)
		merged_pr_clear(&day->prs[i]);
	for (i = 0; i < day->npushes; i++)
		push_clear(day_push(day, i));
	free(day->commits);
	free(day->prs);
	free(day->pushes[0]);
	free(day->pushes);
	free(day->repo);
	free(day->default_branch);
	free(day->html_url);
}

/*
 * A day's records: the same split (by items and by bytes), each record
 * the same bytes.
 */
static void
test_write_day(void **state)
{
	static const struct {
		size_t	ncommits, nprs, npushes;
		int	big;
	} days[] = {
		{ 0, 0, 0, 0 },
		{ 0, 3, 0, 0 },
		{ 0, 0, 3, 0 },
		{ 5, 0, 2, 0 },
		{ 40, 4, 7, 0 },
		{ 2047, 1, 1, 0 },
		{ 2048, 1, 1, 0 },
		{ 5000, 2100, 30, 0 },
		{ 100, 0, 2100, 0 },
		{ 60, 2, 3, 1 },
	};
	struct day	 day;
	json_t		**orecs;
	struct buf	*nrecs;
	char		*old, what[64];
	size_t		 i, k, on, nn, len;

	(void)state;
	for (i = 0; i < sizeof(days) / sizeof(days[0]); i++) {
		gen_day(&day, days[i].ncommits, days[i].nprs,
		    days[i].npushes, days[i].big);
		orecs = NULL;
		nrecs = NULL;
		on = nn = 0;
		jrecord_encode_day(&day, &orecs, &on);
		jrecord_write_day(&day, &nrecs, &nn);
		if (on != nn)
			fail_msg("day %zu: %zu records, not %zu", i, nn, on);
		/* the splits are tried: by items, and by bytes */
		if ((days[i].ncommits + days[i].nprs + days[i].npushes >
		    JRECORD_DAY_ITEMS || days[i].big) && on < 2)
			fail_msg("day %zu: not split", i);
		for (k = 0; k < on; k++) {
			old = dump(orecs[k], &len);
			snprintf(what, sizeof(what), "day %zu record %zu", i, k);
			check_same(what, old, len, nrecs[k].data, nrecs[k].len);
			free(old);
			buf_free(&nrecs[k]);
		}
		free(orecs);
		free(nrecs);
		gen_day_free(&day);
	}
}

/*
 * A show's copy of a day: each record is the plain one with ,"sh":SLUG
 * after "t", and reads back with its show, its repository and its
 * items; a show's window marker reads back as one.
 */
static void
test_write_show_day(void **state)
{
	struct day	 day;
	struct buf	*plain = NULL, *shown = NULL, b;
	struct jrecord	 rec;
	size_t		 np = 0, ns = 0, k, ncommits, nprs;
	const char	*sh = ",\"sh\":\"acme-daily\"";

	(void)state;
	gen_day(&day, 3000, 5, 4, 0);
	jrecord_write_day(&day, &plain, &np);
	jrecord_write_show_day(&day, "acme-daily", &shown, &ns);
	assert_int_equal(np, ns);
	assert_true(np >= 2);
	for (k = 0; k < np; k++) {
		assert_int_equal(shown[k].len, plain[k].len + strlen(sh));
		assert_memory_equal(shown[k].data, plain[k].data, 8);
		assert_memory_equal(shown[k].data + 8, sh, strlen(sh));
		assert_memory_equal(shown[k].data + 8 + strlen(sh),
		    plain[k].data + 8, plain[k].len - 8);
		assert_int_equal(jrecord_decode(shown[k].data, shown[k].len,
		    &rec), 0);
		assert_int_equal(rec.kind, 'd');
		assert_string_equal(rec.show, "acme-daily");
		assert_string_equal(rec.repo, day.repo);
		assert_null(rec.key);
		ncommits = rec.ncommits;
		nprs = rec.nprs;
		jrecord_clear(&rec);
		assert_int_equal(jrecord_decode(plain[k].data, plain[k].len,
		    &rec), 0);
		assert_null(rec.show);
		assert_int_equal(rec.ncommits, ncommits);
		assert_int_equal(rec.nprs, nprs);
		jrecord_clear(&rec);
		buf_free(&plain[k]);
		buf_free(&shown[k]);
	}
	free(plain);
	free(shown);
	gen_day_free(&day);

	buf_init(&b);
	assert_int_equal(jrecord_write_window_of(&b, "show:acme-daily", 1234),
	    0);
	assert_string_equal(buf_str(&b),
	    "{\"t\":\"w\",\"repo\":\"show:acme-daily\",\"start\":1234}");
	assert_int_equal(jrecord_decode(b.data, b.len, &rec), 0);
	assert_int_equal(rec.kind, 'w');
	assert_string_equal(rec.repo, "show:acme-daily");
	assert_true(rec.has_start);
	assert_int_equal(rec.start, 1234);
	jrecord_clear(&rec);
	buf_free(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_escapes),
		cmocka_unit_test(test_write_fields),
		cmocka_unit_test(test_write_property),
		cmocka_unit_test(test_write_markers),
		cmocka_unit_test(test_write_seen),
		cmocka_unit_test(test_write_day),
		cmocka_unit_test(test_write_show_day),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
