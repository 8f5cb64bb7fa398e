/* Unit tests: journal/jrecord.c, reading records back (jrecord_decode). */
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
#define SHA_B	"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"

/* The compact bytes of rec, as the journal holds them; rec is stolen. */
static char *
dump(json_t *rec, size_t *len)
{
	char	*s = json_dumps(rec, JSON_COMPACT);

	assert_non_null(s);
	*len = strlen(s);
	json_decref(rec);
	return s;
}

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

/* Every record kind written by jrecord_encode_* reads back as it went. */
static void
test_decode_round_trip(void **state)
{
	struct handler_result	 res;
	struct jrecord		 rec;
	struct commit		*c;
	const char *const	 keys[] = { "1:guid-a", "2:guid-\"b\"\n" };
	const time_t		 at[] = { 5, -7 };
	char			*buf;
	size_t			 len;

	(void)state;
	memset(&res, 0, sizeof(res));
	res.repo = xstrdup("o/r");
	res.default_branch = xstrdup("main");
	res.html_url = xstrdup("https://github.com/o/r");
	res.ncommits = 2;
	res.commits = xcalloc(2, sizeof(*res.commits));
	c = &res.commits[0];
	c->sha = xstrdup(SHA_A);
	c->author_name = xstrdup("Ana \xc3\xa9\xe2\x82\xac");
	c->author_login = xstrdup("ana");
	c->author_email = xstrdup("a@x");
	c->committer_name = xstrdup("GitHub");
	c->timestamp = 1700000000;
	c->subject = xstrdup("fix: \"quoted\" \\ tab\tthere");
	c->body = xstrdup("line one\nline two");
	c->branch = xstrdup("main");
	c->added = strings(&c->nadded, "a.c", NULL);
	c->modified = strings(&c->nmodified, "b.c", "c \xf0\x9f\x98\x80.c");
	c = &res.commits[1];
	c->sha = xstrdup(SHA_B);
	c->subject = xstrdup("second");
	c->body = xstrdup("");
	c->branch = xstrdup("main");
	res.push = xcalloc(1, sizeof(*res.push));
	res.push->branch = xstrdup("main");
	assert_int_equal(push_id_set(res.push->before, SHA_A), 0);
	assert_int_equal(push_id_set(res.push->after, SHA_B), 0);
	res.push->pusher = xstrdup("ana");
	res.push->forced = 1;
	res.push->ncommits = 2;
	res.push->at = 42;
	res.pr = xcalloc(1, sizeof(*res.pr));
	res.pr->number = 77;
	res.pr->title = xstrdup("A title");
	res.pr->body = NULL;
	res.pr->merge_sha = xstrdup(SHA_B);
	res.pr->branch = xstrdup("main");
	res.pr->merged_at = 43;

	buf = dump(jrecord_encode_delivery(&res, "1:guid", 99), &len);
	assert_int_equal(jrecord_decode(buf, len, &rec), 0);
	free(buf);
	assert_int_equal(rec.kind, 'd');
	assert_string_equal(rec.repo, "o/r");
	assert_string_equal(rec.db, "main");
	assert_string_equal(rec.hu, "https://github.com/o/r");
	assert_string_equal(rec.key, "1:guid");
	assert_int_equal(rec.at, 99);
	assert_false(rec.malformed);
	assert_int_equal(rec.ncommits, 2);
	c = &rec.commits[0];
	assert_string_equal(c->sha, SHA_A);
	assert_string_equal(c->author_name, "Ana \xc3\xa9\xe2\x82\xac");
	assert_string_equal(c->author_login, "ana");
	assert_string_equal(c->author_email, "a@x");
	assert_string_equal(c->committer_name, "GitHub");
	assert_null(c->committer_login);
	assert_int_equal(c->timestamp, 1700000000);
	assert_string_equal(c->subject, "fix: \"quoted\" \\ tab\tthere");
	assert_string_equal(c->body, "line one\nline two");
	assert_string_equal(c->branch, "main");
	assert_int_equal(c->nadded, 1);
	assert_string_equal(c->added[0], "a.c");
	assert_int_equal(c->nremoved, 0);
	assert_int_equal(c->nmodified, 2);
	assert_string_equal(c->modified[1], "c \xf0\x9f\x98\x80.c");
	/* the second carries no "br": it is on the first one's branch */
	assert_string_equal(rec.commits[1].branch, "main");
	assert_string_equal(rec.commits[1].body, "");
	assert_int_equal(rec.nprs, 1);
	assert_int_equal(rec.prs[0].number, 77);
	assert_string_equal(rec.prs[0].title, "A title");
	assert_null(rec.prs[0].body);
	assert_string_equal(rec.prs[0].merge_sha, SHA_B);
	assert_int_equal(rec.prs[0].merged_at, 43);
	assert_int_equal(rec.npushes, 1);
	assert_memory_equal(rec.pushes[0].before, res.push->before,
	    PUSH_ID_LEN);
	assert_memory_equal(rec.pushes[0].after, res.push->after, PUSH_ID_LEN);
	assert_string_equal(rec.pushes[0].pusher, "ana");
	assert_true(rec.pushes[0].forced);
	assert_false(rec.pushes[0].created);
	assert_int_equal(rec.pushes[0].ncommits, 2);
	assert_int_equal(rec.pushes[0].at, 42);
	jrecord_clear(&rec);
	handler_result_clear(&res);

	buf = dump(jrecord_encode_rotate("o/r", 1000), &len);
	assert_int_equal(jrecord_decode(buf, len, &rec), 0);
	assert_int_equal(rec.kind, 'r');
	assert_string_equal(rec.repo, "o/r");
	assert_true(rec.has_start);
	assert_int_equal(rec.start, 1000);
	jrecord_clear(&rec);
	free(buf);

	buf = dump(jrecord_encode_handoff("o/r", 2000), &len);
	assert_int_equal(jrecord_decode(buf, len, &rec), 0);
	assert_int_equal(rec.kind, 'h');
	assert_int_equal(rec.start, 2000);
	jrecord_clear(&rec);
	free(buf);

	buf = dump(jrecord_encode_drafted("o/r"), &len);
	assert_int_equal(jrecord_decode(buf, len, &rec), 0);
	assert_int_equal(rec.kind, 'e');
	assert_string_equal(rec.repo, "o/r");
	assert_false(rec.has_start);
	jrecord_clear(&rec);
	free(buf);

	buf = dump(jrecord_encode_merge_back("o/r"), &len);
	assert_int_equal(jrecord_decode(buf, len, &rec), 0);
	assert_int_equal(rec.kind, 'm');
	jrecord_clear(&rec);
	free(buf);

	buf = dump(jrecord_encode_window(-3600), &len);
	assert_int_equal(jrecord_decode(buf, len, &rec), 0);
	assert_int_equal(rec.kind, 'w');
	assert_int_equal(rec.start, -3600);
	jrecord_clear(&rec);
	free(buf);

	buf = dump(jrecord_encode_seen(keys, at, 2), &len);
	assert_int_equal(jrecord_decode(buf, len, &rec), 0);
	assert_int_equal(rec.kind, 's');
	assert_int_equal(rec.nseen, 2);
	assert_string_equal(rec.seen[0], keys[0]);
	assert_string_equal(rec.seen[1], keys[1]);
	assert_int_equal(rec.seen_at[0], 5);
	assert_int_equal(rec.seen_at[1], -7);
	jrecord_clear(&rec);
	free(buf);
}

/* What a decoded record must hold; NULL/-1 fields are not checked. */
struct decode_case {
	const char	*in;
	size_t		 len;		/* 0: strlen(in) */
	int		 rc;
	char		 kind;
	long long	 start;		/* -1: not checked */
	int		 has_start;
	const char	*repo;		/* "-": NULL expected */
	long		 ncommits;	/* -1: not checked */
	int		 malformed;
	const char	*branch1;	/* of the second commit; "-": NULL */
	long long	 ts0;		/* of the first commit; -1: not checked */
	long		 nadded0;
	long		 nseen;
};

#define C(in, rc, kind)	in, 0, rc, kind
#define ANY		-1, 0, NULL, -1, 0, NULL, -1, -1, -1

static const struct decode_case cases[] = {
	/* not JSON, or not what json_loadb takes */
	{ C("", -1, 0), ANY },
	{ C("{", -1, 0), ANY },
	{ C("\"d\"", -1, 0), ANY },
	{ C("17", -1, 0), ANY },
	{ C("{} x", -1, 0), ANY },
	{ C("{\"t\":\"d\",}", -1, 0), ANY },
	{ C("{\"t\":\"d\"", -1, 0), ANY },
	{ C("{\"t\":\"d\",\"commits\":[{\"id\":\"a\",\"m\":\"x\"}", -1, 0), ANY },
	/* invalid UTF-8: stray, overlong, surrogate */
	{ C("{\"t\":\"d\",\"repo\":\"\xff\"}", -1, 0), ANY },
	{ C("{\"t\":\"d\",\"repo\":\"\xc0\xaf\"}", -1, 0), ANY },
	{ C("{\"t\":\"d\",\"repo\":\"\xed\xa0\x80\"}", -1, 0), ANY },
	{ C("{\"t\":\"d\",\"repo\":\"\\ud800\"}", -1, 0), ANY },
	/* NUL: escaped, raw inside a string, raw between tokens */
	{ C("{\"t\":\"d\",\"repo\":\"a\\u0000b\"}", -1, 0), ANY },
	{ "{\"t\":\"d\",\"repo\":\"a\0b\"}", 21, -1, 0, ANY },
	{ "{\"t\":\0\"d\"}", 10, -1, 0, ANY },
	/* integers past a long long */
	{ C("{\"t\":\"w\",\"start\":9223372036854775808}", -1, 0), ANY },
	{ C("{\"t\":\"w\",\"start\":-99999999999999999999}", -1, 0), ANY },
	/* JSON but no object: a record of no kind */
	{ C("[1,2,{\"t\":\"d\"}]", 0, 0), ANY },
	{ C("{}", 0, 0), ANY },
	{ C("{\"t\":7}", 0, 0), ANY },
	{ C("{\"t\":\"\"}", 0, 0), ANY },
	/* numbers at the edges; fractions are not integers */
	{ C("{\"t\":\"w\",\"start\":9223372036854775807}", 0, 'w'),
	    LLONG_MAX, 1, NULL, -1, 0, NULL, -1, -1, -1 },
	{ C("{\"t\":\"w\",\"start\":-9223372036854775808}", 0, 'w'),
	    LLONG_MIN, 1, NULL, -1, 0, NULL, -1, -1, -1 },
	{ C("{\"t\":\"w\",\"start\":1e3}", 0, 'w'),
	    0, 0, NULL, -1, 0, NULL, -1, -1, -1 },
	{ C("{\"t\":\"w\",\"start\":\"5\"}", 0, 'w'),
	    0, 0, NULL, -1, 0, NULL, -1, -1, -1 },
	/* wrong types read as jansson's accessors read them */
	{ C("{\"t\":\"d\",\"repo\":5,\"commits\":\"x\",\"prs\":{},"
	    "\"pushes\":null}", 0, 'd'),
	    -1, 0, "-", 0, 0, NULL, -1, -1, -1 },
	{ C("{\"t\":\"d\",\"repo\":\"a/b\",\"commits\":[{\"id\":\"" SHA_A
	    "\",\"m\":\"s\",\"ts\":\"7\",\"a\":[1,\"f\",null,[\"g\"],\"h\"]}]}",
	    0, 'd'), -1, 0, "a/b", 1, 0, NULL, 0, 2, -1 },
	{ C("{\"t\":\"d\",\"commits\":[{\"id\":\"" SHA_A "\",\"m\":\"s\","
	    "\"ts\":1.5}]}", 0, 'd'), -1, 0, NULL, 1, 0, NULL, 0, 0, -1 },
	/* a malformed commit drops itself and what follows */
	{ C("{\"t\":\"d\",\"commits\":[{\"id\":\"" SHA_A "\",\"m\":\"s\"},"
	    "{\"id\":1,\"m\":\"x\"},{\"id\":\"" SHA_B "\",\"m\":\"s\"}]}",
	    0, 'd'), -1, 0, NULL, 1, 1, NULL, -1, -1, -1 },
	{ C("{\"t\":\"d\",\"commits\":[7]}", 0, 'd'),
	    -1, 0, NULL, 0, 1, NULL, -1, -1, -1 },
	{ C("{\"t\":\"d\",\"commits\":[{\"m\":\"no id\"}]}", 0, 'd'),
	    -1, 0, NULL, 0, 1, NULL, -1, -1, -1 },
	/* but its JSON is still checked to the end */
	{ C("{\"t\":\"d\",\"commits\":[7,{\"id\":\"\xff\"}]}", -1, 0), ANY },
	/* branches: inherited, or cut by a "br" that is no string */
	{ C("{\"t\":\"d\",\"commits\":[{\"id\":\"" SHA_A "\",\"m\":\"s\","
	    "\"br\":\"dev\"},{\"id\":\"" SHA_B "\",\"m\":\"s\"}]}", 0, 'd'),
	    -1, 0, NULL, 2, 0, "dev", -1, -1, -1 },
	{ C("{\"t\":\"d\",\"commits\":[{\"id\":\"" SHA_A "\",\"m\":\"s\","
	    "\"br\":\"dev\"},{\"id\":\"" SHA_B "\",\"m\":\"s\",\"br\":null}]}",
	    0, 'd'), -1, 0, NULL, 2, 0, "-", -1, -1, -1 },
	/* duplicate keys: the last wins */
	{ C("{\"t\":\"d\",\"t\":\"w\",\"start\":1,\"start\":2}", 0, 'w'),
	    2, 1, NULL, -1, 0, NULL, -1, -1, -1 },
	{ C("{\"t\":\"d\",\"commits\":[{\"id\":\"" SHA_A "\",\"m\":\"s\"}],"
	    "\"commits\":[]}", 0, 'd'), -1, 0, NULL, 0, 0, NULL, -1, -1, -1 },
	/* an escaped key is the key it spells */
	{ C("{\"\\u0074\":\"w\",\"st\\u0061rt\":3}", 0, 'w'),
	    3, 1, NULL, -1, 0, NULL, -1, -1, -1 },
	/* "seen": items without a string key are left out */
	{ C("{\"t\":\"s\",\"seen\":[[\"k\",1],[2,3],\"x\",[],[\"j\"],"
	    "[\"i\",4,5]]}", 0, 's'), -1, 0, NULL, -1, 0, NULL, -1, -1, 3 },
};

static void
test_decode_table(void **state)
{
	const struct decode_case	*dc;
	struct jrecord			 rec;
	json_error_t			 err;
	json_t				*j;
	size_t				 i, len;
	int				 rc;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		dc = &cases[i];
		len = dc->len != 0 ? dc->len : strlen(dc->in);
		rc = jrecord_decode(dc->in, len, &rec);
		if (rc != dc->rc)
			fail_msg("case %zu (%s): %d, not %d", i, dc->in, rc,
			    dc->rc);
		/* what replay took before: json_loadb's verdict */
		j = json_loadb(dc->in, len, 0, &err);
		if ((j != NULL) != (rc == 0))
			fail_msg("case %zu (%s): jansson %s it", i, dc->in,
			    j != NULL ? "takes" : "refuses");
		json_decref(j);
		if (rc == -1)
			continue;
		if (rec.kind != dc->kind)
			fail_msg("case %zu: kind %d", i, rec.kind);
		if (dc->start != -1 && (rec.start != (time_t)dc->start ||
		    rec.has_start != dc->has_start))
			fail_msg("case %zu: start %lld/%d", i,
			    (long long)rec.start, rec.has_start);
		if (dc->repo != NULL && strcmp(dc->repo, "-") == 0)
			assert_null(rec.repo);
		else if (dc->repo != NULL)
			assert_string_equal(rec.repo, dc->repo);
		if (dc->ncommits != -1 && rec.ncommits != (size_t)dc->ncommits)
			fail_msg("case %zu: %zu commits", i, rec.ncommits);
		if (rec.malformed != dc->malformed)
			fail_msg("case %zu: malformed %d", i, rec.malformed);
		if (dc->branch1 != NULL && strcmp(dc->branch1, "-") == 0)
			assert_null(rec.commits[1].branch);
		else if (dc->branch1 != NULL)
			assert_string_equal(rec.commits[1].branch, dc->branch1);
		if (dc->ts0 != -1)
			assert_int_equal(rec.commits[0].timestamp, dc->ts0);
		if (dc->nadded0 != -1)
			assert_int_equal(rec.commits[0].nadded, dc->nadded0);
		if (dc->nseen != -1)
			assert_int_equal(rec.nseen, dc->nseen);
		jrecord_clear(&rec);
	}
}

/* Every cut of a whole record is refused; nothing leaks (ASan run). */
static void
test_decode_truncated(void **state)
{
	static const char whole[] = "{\"t\":\"d\",\"key\":\"1:g\",\"at\":5,"
	    "\"repo\":\"o/r\",\"db\":\"main\",\"commits\":[{\"id\":\"" SHA_A
	    "\",\"an\":\"A\\u00e9\",\"ts\":1,\"m\":\"s\\n\\nb\",\"br\":\"main\","
	    "\"a\":[\"x\"],\"r\":[],\"md\":[\"y\"]}],\"prs\":[{\"n\":1,"
	    "\"t\":\"T\",\"at\":2}],\"pushes\":[{\"br\":\"main\",\"f\":false,"
	    "\"n\":1,\"at\":3}]}";
	struct jrecord	rec;
	size_t		n;

	(void)state;
	for (n = 0; n < sizeof(whole) - 1; n++)
		if (jrecord_decode(whole, n, &rec) != -1)
			fail_msg("a cut at %zu decoded", n);
	assert_int_equal(jrecord_decode(whole, sizeof(whole) - 1, &rec), 0);
	assert_int_equal(rec.ncommits, 1);
	assert_null(rec.hu);	/* a record from before links */
	assert_string_equal(rec.commits[0].author_name, "A\xc3\xa9");
	assert_string_equal(rec.commits[0].body, "b");
	jrecord_clear(&rec);
}

/* jrecord_take: a malformed record adds what came before its fault. */
static void
test_decode_take(void **state)
{
	static const char in[] = "{\"t\":\"d\",\"commits\":[{\"id\":\"" SHA_A
	    "\",\"m\":\"Revert \\\"x\\\"\\n\\nThis reverts commit " SHA_B
	    ".\"},{\"m\":\"no id\"}],\"pushes\":[{\"br\":\"main\"}]}";
	struct jrecord	 rec;
	struct day	*day = day_new("o/r", 0);

	(void)state;
	assert_int_equal(jrecord_decode(in, sizeof(in) - 1, &rec), 0);
	assert_int_equal(jrecord_take(&rec, day), -1);
	jrecord_clear(&rec);
	assert_int_equal(day->ncommits, 1);
	assert_int_equal(day->npushes, 0);
	assert_true(day->commits[0].revert.is_revert);
	assert_string_equal(day->commits[0].revert.reverted_sha, SHA_B);
	day_free(day);
}

/*
 * A push's ids as journals have held them: 40 hex digits (as GitHub
 * sends them) are written back byte for byte; null, an odd string or no
 * key at all, as an older journal may hold from an odd payload, read as
 * none and are written as git's zero id; a count past 32 bits is kept as
 * the most that fits.
 */
static void
test_decode_push_ids(void **state)
{
	static const char zero[] = "0000000000000000000000000000000000000000";
	static const struct {
		const char	*push;		/* the record's push */
		const char	*bf, *af;	/* as written back */
		uint32_t	 n;
	} ids[] = {
		{ "{\"br\":\"main\",\"bf\":\"" SHA_A "\",\"af\":\"" SHA_B
		    "\",\"n\":2}", SHA_A, SHA_B, 2 },
		{ "{\"br\":\"main\",\"bf\":null,\"af\":\"abc\",\"n\":-3}",
		    zero, zero, 0 },
		{ "{\"br\":\"main\",\"n\":99999999999}", zero, zero,
		    UINT32_MAX },
		{ "{\"br\":\"main\",\"bf\":7,\"af\":\""
		    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\"}", zero, SHA_A,
		    0 },
		/* a 64-hex id is none; an escaped digit is the digit */
		{ "{\"br\":\"main\",\"bf\":\"" SHA_A SHA_B "\",\"af\":\""
		    "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\\u0062\"}", zero,
		    SHA_B, 0 },
	};
	struct handler_result	 res;
	struct jrecord		 rec;
	struct buf		 b;
	char			*in, *want, *enc;
	size_t			 i, len;

	(void)state;
	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		xasprintf(&in, "{\"t\":\"d\",\"key\":\"1:g\",\"at\":5,"
		    "\"repo\":\"o/r\",\"pushes\":[%s]}", ids[i].push);
		if (jrecord_decode(in, strlen(in), &rec) != 0)
			fail_msg("case %zu: %s refused", i, in);
		assert_int_equal(rec.npushes, 1);
		assert_int_equal(rec.pushes[0].ncommits, ids[i].n);
		/* written back, by the byte writer and by jansson alike */
		memset(&res, 0, sizeof(res));
		res.repo = rec.repo;
		res.push = &rec.pushes[0];
		xasprintf(&want, "\"pushes\":[{\"br\":\"main\",\"bf\":\"%s\","
		    "\"af\":\"%s\",\"p\":null,\"f\":false,\"c\":false,"
		    "\"d\":false,\"n\":%lu,\"at\":0}]", ids[i].bf,
		    ids[i].af, (unsigned long)ids[i].n);
		buf_init(&b);
		jrecord_write_delivery(&b, &res, "1:g", 5, 0);
		buf_putc(&b, '\0');
		if (strstr(b.data, want) == NULL)
			fail_msg("case %zu: written as %s, not with %s", i,
			    b.data, want);
		enc = dump(jrecord_encode_delivery(&res, "1:g", 5), &len);
		if (strstr(enc, want) == NULL)
			fail_msg("case %zu: encoded as %s, not with %s", i, enc,
			    want);
		free(enc);
		buf_free(&b);
		free(want);
		jrecord_clear(&rec);
		free(in);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode_round_trip),
		cmocka_unit_test(test_decode_table),
		cmocka_unit_test(test_decode_truncated),
		cmocka_unit_test(test_decode_take),
		cmocka_unit_test(test_decode_push_ids),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
