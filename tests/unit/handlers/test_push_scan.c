/*
 * Unit tests: handlers/push_scan.c, differentially against jansson and
 * push_handle (push_diff.h says what agreeing means).
 */
#include <dirent.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "buf.h"
#include "handler.h"
#include "repo.h"
#include "push_cases.h"
#include "push_diff.h"

#define SHA	"0123456789abcdef0123456789abcdef01234567"

#define CORPUS	TEST_DATA_DIR "/corpus"

/* Counts of outcomes, to show the mutations reach every kind. */
static size_t	nboth_ok, nboth_fail, ndocumented;

static void
check(const char *what, size_t n, const char *body, size_t len)
{
	char	*d;
	int	 outcome;

	if ((d = push_diff(body, len, &outcome)) != NULL)
		fail_msg("%s %zu: %s\nbody: %.*s", what, n, d,
		    (int)(len > 2000 ? 2000 : len), body);
	switch (outcome) {
	case 0:
		nboth_ok++;
		break;
	case 1:
		nboth_fail++;
		break;
	default:
		ndocumented++;
		break;
	}
}

static void
check_json(const char *what, size_t n, const json_t *j, size_t flags)
{
	char	*s;

	assert_non_null(s = json_dumps(j, flags));
	check(what, n, s, strlen(s));
	free(s);
}

static char *
slurp(const char *path, size_t *len)
{
	FILE	*f;
	char	*buf;
	long	 size;

	assert_non_null(f = fopen(path, "rb"));
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	size = ftell(f);
	rewind(f);
	buf = xmalloc(size + 1);
	assert_int_equal(fread(buf, 1, size, f), (size_t)size);
	fclose(f);
	*len = size;
	return buf;
}

/* Every push in the corpus, as is and with every non-ASCII escaped. */
static void
test_push_scan_corpus(void **state)
{
	static const char *const days[] = { "ao-2026-02-12", "ao-2026-03-24",
	    "curl-2026-06-01", "curl-2026-02-14-quiet", "octokit-examples" };
	struct handler_result	 r;
	struct dirent		*de;
	DIR			*dir;
	json_t			*j;
	char			 path[1024], *body, *cause;
	size_t			 i, len, blen, npushes = 0;

	for (i = 0; i < sizeof(days) / sizeof(days[0]); i++) {
		snprintf(path, sizeof(path), CORPUS "/%s", days[i]);
		assert_non_null(dir = opendir(path));
		while ((de = readdir(dir)) != NULL) {
			len = strlen(de->d_name);
			if (len < 10 || strcmp(de->d_name + len - 10,
			    ".meta.json") != 0)
				continue;
			snprintf(path, sizeof(path), CORPUS "/%s/%s", days[i],
			    de->d_name);
			assert_non_null(j = json_load_file(path, 0, NULL));
			if (strcmp(json_string_value(json_object_get(j,
			    "event")), "push") != 0) {
				json_decref(j);
				continue;
			}
			json_decref(j);
			snprintf(path, sizeof(path), CORPUS "/%s/%.*s.json",
			    days[i], (int)(len - 10), de->d_name);
			body = slurp(path, &blen);
			nboth_ok = 0;
			check(path, 0, body, blen);
			assert_int_equal(nboth_ok, 1);
			/* and it is accepted */
			memset(&r, 0, sizeof(r));
			cause = NULL;
			if (push_scan(body, blen, PUSH_DIFF_NOW, &r,
			    &cause) != 0)
				fail_msg("%s: %s", path, cause);
			handler_result_clear(&r);
			assert_non_null(j = json_loadb(body, blen, 0, NULL));
			check_json(path, 1, j, JSON_ENSURE_ASCII);
			check_json(path, 2, j, JSON_INDENT(3) |
			    JSON_ESCAPE_SLASH | JSON_ENSURE_ASCII);
			json_decref(j);
			free(body);
			npushes++;
		}
		closedir(dir);
	}
	assert_int_equal(npushes, 8 + 15 + 13 + 1 + 7);
}

/* The bad payloads of test_push.c: both refuse them, saying the same. */
static void
test_push_scan_bad_cases(void **state)
{
	json_t	*j, *at, *v;
	size_t	 i;

	assert_non_null(j = json_loads(good_push, 0, NULL));
	check_json("good", 0, j, 0);
	json_decref(j);
	check("good text", 0, good_push, strlen(good_push));
	for (i = 0; i < NBAD_CASES; i++) {
		assert_non_null(j = json_loads(good_push, 0, NULL));
		assert_non_null(at = walk(j, bad_cases[i].path));
		if (bad_cases[i].value == NULL)
			assert_int_equal(json_object_del(at,
			    bad_cases[i].key), 0);
		else {
			assert_non_null(v = json_loads(bad_cases[i].value,
			    JSON_DECODE_ANY, NULL));
			if (json_is_array(at))
				json_array_set_new(at,
				    strtoul(bad_cases[i].key, NULL, 10), v);
			else
				json_object_set_new(at, bad_cases[i].key, v);
		}
		nboth_fail = 0;
		check_json("bad case", i, j, 0);
		assert_int_equal(nboth_fail, 1);
		json_decref(j);
	}
}

/* Every prefix of a small body, and one byte changed at every offset. */
static void
test_push_scan_truncations_flips(void **state)
{
	static const unsigned char with[] = { '"', '\\', '{', '}', '[', ']',
	    ',', ':', ' ', '0', '-', 'e', '.', 'n', 'u', 0x00, 0x1f, 0x7f,
	    0x80, 0xc3, 0xe2, 0xed, 0xf0, 0xff };
	char	*copy;
	size_t	 len = strlen(good_push), i, k;

	copy = xmalloc(len + 1);
	for (i = 0; i <= len; i++)
		check("prefix", i, good_push, i);
	for (i = 0; i < len; i++) {
		for (k = 0; k < sizeof(with); k++) {
			memcpy(copy, good_push, len);
			copy[i] = (char)with[k];
			check("flip", i * 100 + k, copy, len);
			copy[i] = (char)(good_push[i] ^ (1 << (k % 8)));
			check("xor", i * 100 + k, copy, len);
		}
	}
	free(copy);
}

/* Every value of the good push replaced by each type, or dropped. */
static void
swap_all(json_t *root, json_t *at, size_t *n)
{
	static const char *const values[] = { "null", "true", "false", "0",
	    "-1.5e3", "\"\"", "\"x\"", "[]", "[\"x\"]", "[1]", "{}",
	    "{\"name\":\"n\"}", "\"refs/heads/\"", "\"refs/tags/v1\"",
	    "\"a823aa62e765cb4d05e6a92750548cba5bf4a5ba\"",
	    "\"2026-02-12T11:59:16Z\"", "\"o/r\"", "\"\\u00e9\\ud83d\\ude00\"" };
	const char	*key;
	json_t		*v, *old;
	size_t		 i, k;

	if (json_is_object(at)) {
		/* the keys first: setting and dropping them moves them */
		char	**keys;
		size_t	  nkeys = 0, m;

		keys = xreallocarray(NULL, json_object_size(at) + 1,
		    sizeof(*keys));
		json_object_foreach(at, key, v)
			keys[nkeys++] = xstrdup(key);
		for (m = 0; m < nkeys; m++) {
			key = keys[m];
			old = json_incref(json_object_get(at, key));
			for (k = 0; k < sizeof(values) / sizeof(values[0]);
			    k++) {
				json_object_set_new(at, key, json_loads(
				    values[k], JSON_DECODE_ANY, NULL));
				check_json("swap", (*n)++, root, 0);
			}
			json_object_del(at, key);
			check_json("drop", (*n)++, root, 0);
			json_object_set_new(at, key, old);
			swap_all(root, old, n);
			free(keys[m]);
		}
		free(keys);
	} else if (json_is_array(at)) {
		for (i = 0; i < json_array_size(at); i++) {
			old = json_incref(json_array_get(at, i));
			for (k = 0; k < sizeof(values) / sizeof(values[0]);
			    k++) {
				json_array_set_new(at, i, json_loads(
				    values[k], JSON_DECODE_ANY, NULL));
				check_json("swap", (*n)++, root, 0);
			}
			json_array_set_new(at, i, old);
			swap_all(root, old, n);
		}
	}
}

static void
test_push_scan_type_swaps(void **state)
{
	json_t	*j;
	size_t	 n = 0;

	assert_non_null(j = json_loads(good_push, 0, NULL));
	nboth_ok = nboth_fail = 0;
	swap_all(j, j, &n);
	json_decref(j);
	assert_true(n > 500);
	assert_true(nboth_ok > 50);
	assert_true(nboth_fail > 200);
	print_message("type swaps: %zu cases, %zu accepted, %zu refused, "
	    "%zu documented differences\n", n, nboth_ok, nboth_fail,
	    ndocumented);
}

/*
 * Text-level cases: duplicate keys in each object push_scan reads,
 * escaped keys, nesting, numbers and what may follow the body.
 */
static const char *const text_cases[] = {
	"{\"ref\":\"refs/heads/x\",\"ref\":\"refs/heads/main\"}",
	"{\"commits\":[],\"repository\":{\"full_name\":\"o/r\"},"
	    "\"ref\":\"refs/tags/v\",\"commits\":[]}",
	"{\"commits\":[],\"repository\":{\"full_name\":\"o/r\","
	    "\"full_name\":\"o/r\"},\"ref\":\"refs/tags/v\"}",
	"{\"commits\":[],\"repository\":{\"full_name\":\"o/r\"},"
	    "\"ref\":\"refs/tags/v\",\"pusher\":{\"a\":1,\"a\":2}}",
	"{\"commits\":[{\"id\":1,\"x\":1,\"x\":1}],\"repository\":"
	    "{\"full_name\":\"o/r\"},\"ref\":\"refs/heads/m\"}",
	"{\"commits\":[{\"author\":{\"n\":1,\"n\":1}}],\"repository\":"
	    "{\"full_name\":\"o/r\"},\"ref\":\"refs/heads/m\"}",
	"{\"commits\":[{\"committer\":{\"n\":1,\"\\u006e\":1}}],"
	    "\"repository\":{\"full_name\":\"o/r\"},\"ref\":\"refs/heads/m\"}",
	"{\"\\u0063ommits\":[],\"repository\":{\"full_\\u006eame\":"
	    "\"o\\/r\"},\"r\\u0065f\":\"refs/heads/m\"}",
	"{\"commits\":[],\"repository\":{\"full_name\":\"o/r\"},"
	    "\"ref\":\"refs/heads/m\",\"n\":[1,-0,0.5,1e999]}",
	"{\"commits\":[],\"repository\":{\"full_name\":\"o/r\"},"
	    "\"ref\":\"refs/heads/m\",\"n\":99999999999999999999}",
	"{\"commits\":[],\"repository\":{\"full_name\":\"o/r\"},"
	    "\"ref\":\"refs/heads/m\",\"n\":-9223372036854775808}",
	"{\"commits\":[],\"repository\":{\"full_name\":\"o/r\"},"
	    "\"ref\":\"refs/heads/m\"} x",
	"{\"commits\":[],\"repository\":{\"full_name\":\"o/r\"},"
	    "\"ref\":\"refs/heads/m\"} \r\n\t",
	"[{\"commits\":[]}]",
	"\"x\"",
	"",
	"{\"ref\":\"\\ud800\"}",
	"{\"ref\":\"\\u0000\"}",
	"{\"\\u0000\":1}",
	"{\"commits\":[],\"repository\":{\"full_name\":\"o/r\"},"
	    "\"ref\":\"refs/heads/\\u00e9\\ud83d\\ude00\"}",
	"{\"commits\":[],\"repository\":{\"full_name\":\"o/r\"},"
	    "\"ref\":\"refs/heads/\xc3\xa9\"}",
	"{\"commits\":[],\"repository\":{\"full_name\":\"o/r\"},"
	    "\"ref\":\"refs/heads/\xc0\xaf\"}",
};

/*
 * Duplicate keys in objects of every size around where push_scan stops
 * hashing keys and sorts them (256), at the start, middle and end, in an
 * object it reads (repository) and one it keeps (a commit): each must be
 * refused as jansson refuses it, and the same objects without the
 * duplicate taken.
 */
static void
test_push_scan_many_keys(void **state)
{
	static const size_t	 sizes[] = { 2, 3, 17, 255, 256, 257, 400 };
	struct buf		 b;
	size_t			 i, n, k, dup, where;

	(void)state;
	nboth_ok = nboth_fail = ndocumented = 0;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
	for (where = 0; where < 2; where++)
	for (dup = 0; dup < 4; dup++) {
		n = sizes[i];
		buf_init(&b);
		buf_printf(&b, "{\"ref\":\"refs/heads/m\",\"commits\":[%s",
		    where == 1 ? "{\"id\":\"" SHA "\",\"message\":\"m\",\"timestamp\":"
		    "\"2026-01-02T03:04:05Z\",\"author\":{\"name\":\"a\","
		    "\"email\":\"a@example.org\"}," :
		    "");
		if (where == 0)
			buf_printf(&b, "],\"repository\":{");
		buf_printf(&b, "\"full_name\":\"o/r\"");
		for (k = 0; k < n; k++)
			buf_printf(&b, ",\"k%zu\":%zu", k, k);
		/* none, then a copy of the first, a middle and the last key */
		if (dup > 0)
			buf_printf(&b, ",\"k%zu\":0", dup == 1 ? (size_t)0 :
			    dup == 2 ? n / 2 : n - 1);
		buf_printf(&b, where == 0 ? "}}" : "}],\"repository\":"
		    "{\"full_name\":\"o/r\"}}");
		check("keys", n * 10 + where * 4 + dup, b.data, b.len);
		buf_free(&b);
	}
	assert_int_equal(ndocumented, 0);
	assert_int_equal(nboth_ok, 2 * sizeof(sizes) / sizeof(sizes[0]));
}

static void
test_push_scan_text(void **state)
{
	char	*deep;
	size_t	 i, d;

	nboth_ok = nboth_fail = ndocumented = 0;
	for (i = 0; i < sizeof(text_cases) / sizeof(text_cases[0]); i++)
		check("text", i, text_cases[i], strlen(text_cases[i]));
	/* no documented difference among them: duplicates are all read */
	assert_int_equal(ndocumented, 0);
	assert_int_equal(nboth_ok, 5);

	/* nesting in a skipped field up to and past the cap */
	deep = xmalloc(4096);
	for (d = 60; d < 70; d++) {
		i = (size_t)snprintf(deep, 4096, "{\"commits\":[],"
		    "\"repository\":{\"full_name\":\"o/r\"},"
		    "\"ref\":\"refs/heads/m\",\"x\":");
		memset(deep + i, '[', d - 1);
		memset(deep + i + d - 1, ']', d - 1);
		deep[i + 2 * (d - 1)] = '}';
		check("deep", d, deep, i + 2 * (d - 1) + 1);
	}
	free(deep);
	/* 64 levels are fine (65 with the payload), 65 and more are not */
	assert_int_equal(nboth_ok, 5 + 5);
	assert_int_equal(ndocumented, 5);
}

/*
 * The branch caps, at and one byte over: both intakes agree, and push_scan
 * counts the bytes of the name, not of its escaped text.
 */
static const struct {
	const char	*unit;		/* the default branch: unit... */
	size_t		 n;		/* ...n times... */
	const char	*tail;		/* ...then tail */
	const char	*ref;
	const char	*cause;		/* NULL: accepted */
} cap_cases[] = {
	{ "b", 255, "", "refs/heads/main", NULL },
	{ "b", 256, "", "refs/heads/main", BRANCH_DEFAULT_CAUSE },
	{ "\\u0062", 255, "", "refs/heads/main", NULL },
	{ "\\u0062", 256, "", "refs/heads/main", BRANCH_DEFAULT_CAUSE },
	{ "\xc3\xa9", 127, "b", "refs/heads/main", NULL },
	{ "\xc3\xa9", 128, "", "refs/heads/main", BRANCH_DEFAULT_CAUSE },
	{ "\\u00e9", 127, "b", "refs/heads/main", NULL },
	{ "\\u00e9", 128, "", "refs/heads/main", BRANCH_DEFAULT_CAUSE },
	{ "b", 256, "", "refs/tags/v1", BRANCH_DEFAULT_CAUSE },
	{ "b", 255, "", "refs/heads/" BRANCH_AT_CAP, NULL },
	{ "b", 255, "", "refs/heads/" BRANCH_OVER_CAP, BRANCH_REF_CAUSE },
	{ "b", 256, "", "refs/heads/" BRANCH_OVER_CAP, BRANCH_DEFAULT_CAUSE },
};

static void
test_push_scan_branch_caps(void **state)
{
	struct handler_result	 r;
	struct buf		 b;
	char			*cause;
	size_t			 i, k;
	int			 rv;

	for (i = 0; i < sizeof(cap_cases) / sizeof(cap_cases[0]); i++) {
		buf_init(&b);
		buf_puts(&b, "{\"commits\":[],\"repository\":"
		    "{\"full_name\":\"o/r\",\"default_branch\":\"");
		for (k = 0; k < cap_cases[i].n; k++)
			buf_puts(&b, cap_cases[i].unit);
		buf_printf(&b, "%s\"},\"ref\":\"%s\"}", cap_cases[i].tail,
		    cap_cases[i].ref);
		nboth_ok = nboth_fail = ndocumented = 0;
		check("cap", i, buf_str(&b), b.len);
		assert_int_equal(nboth_fail, cap_cases[i].cause != NULL);

		memset(&r, 0, sizeof(r));
		cause = NULL;
		rv = push_scan(buf_str(&b), b.len, PUSH_DIFF_NOW, &r, &cause);
		if (cap_cases[i].cause != NULL) {
			assert_int_equal(rv, HANDLER_REFUSED);
			assert_non_null(cause);
			if (strcmp(cause, cap_cases[i].cause) != 0)
				fail_msg("cap %zu: cause \"%s\"", i, cause);
			assert_null(r.repo);
			assert_null(r.default_branch);
			free(cause);
		} else {
			if (rv != HANDLER_OK)
				fail_msg("cap %zu: %s", i, cause);
			assert_int_equal(strlen(r.default_branch),
			    PUSH_MAX_BRANCH);
			handler_result_clear(&r);
		}
		buf_free(&b);
	}
}

/*
 * repository.html_url through both intakes: the same kept (a web page of
 * the repository) or dropped (anything else), and the push accepted
 * either way.
 */
static const struct {
	const char	*json;		/* html_url's value as JSON */
	const char	*want;		/* kept, or NULL */
} url_cases[] = {
	{ "\"https://github.com/o/r\"", "https://github.com/o/r" },
	{ "\"https:\\/\\/github.com\\/o\\/r\"", "https://github.com/o/r" },
	{ "\"http://ghe.example.com/o/r\"", "http://ghe.example.com/o/r" },
	{ "\"javascript:alert(1)\"", NULL },
	{ "\"https://github.com/o/r)\"", NULL },
	{ "\"https://github.com/x)[y](/o/r\"", NULL },
	{ "\"https://github.com/x\\n/o/r\"", NULL },
	{ "\"https://github.com/x\\u0022/o/r\"", NULL },
	{ "\"https://github.com/other/r\"", NULL },
	{ "\"\"", NULL },
	{ "null", NULL },
	{ "1", NULL },
	{ "{\"a\":1}", NULL },
	{ "[\"https://github.com/o/r\"]", NULL },
};

static void
test_push_scan_html_url(void **state)
{
	struct handler_result	 r;
	struct buf		 b;
	char			*cause;
	size_t			 i, k;

	for (i = 0; i < sizeof(url_cases) / sizeof(url_cases[0]) + 1; i++) {
		buf_init(&b);
		buf_puts(&b, "{\"commits\":[],\"repository\":"
		    "{\"full_name\":\"o/r\",\"html_url\":");
		if (i < sizeof(url_cases) / sizeof(url_cases[0]))
			buf_puts(&b, url_cases[i].json);
		else {
			/* over REPO_URL_MAX */
			buf_puts(&b, "\"https://");
			for (k = 0; k < REPO_URL_MAX; k++)
				buf_putc(&b, 'h');
			buf_puts(&b, "/o/r\"");
		}
		buf_puts(&b, "},\"ref\":\"refs/heads/main\"}");
		nboth_ok = nboth_fail = ndocumented = 0;
		check("url", i, buf_str(&b), b.len);
		assert_int_equal(nboth_ok, 1);

		memset(&r, 0, sizeof(r));
		cause = NULL;
		if (push_scan(buf_str(&b), b.len, PUSH_DIFF_NOW, &r,
		    &cause) != HANDLER_OK)
			fail_msg("url %zu: %s", i, cause);
		if (i < sizeof(url_cases) / sizeof(url_cases[0]) &&
		    url_cases[i].want != NULL) {
			assert_non_null(r.html_url);
			assert_string_equal(r.html_url, url_cases[i].want);
		} else if (r.html_url != NULL)
			fail_msg("url %zu: kept \"%s\"", i, r.html_url);
		handler_result_clear(&r);
		buf_free(&b);
	}
}

/*
 * The message caps through both intakes: a message is given as its JSON
 * text, unit n times then tail; the subject and body kept are the first
 * want_subject and want_body bytes of what the message says there (the
 * subject from its start, the body from the first byte after "\n\n").
 * Escaped and raw forms of a character count the same bytes.
 */
#define MC_E4	"\\ud83d\\ude00"		/* U+1F600 escaped */
#define MC_R4	"\xf0\x9f\x98\x80"	/* and raw */
static const struct {
	const char	*head;		/* before the units */
	const char	*unit;
	size_t		 n;
	const char	*tail;
	size_t		 want_subject;
	size_t		 want_body;
} message_cases[] = {
	/* a subject of 1023, 1024 and 1025 bytes */
	{ "", "s", COMMIT_MAX_SUBJECT - 1, "\\n\\nbody", 1023, 4 },
	{ "", "s", COMMIT_MAX_SUBJECT, "\\n\\nbody", 1024, 4 },
	{ "", "s", COMMIT_MAX_SUBJECT + 1, "\\n\\nbody", 1024, 4 },
	{ "", "\\u0073", COMMIT_MAX_SUBJECT + 1, "", 1024, 0 },
	/* 1025 bytes of words: the last one goes with its blank */
	{ "", "words ", 170, "wordx", 1019, 0 },
	/* two-byte characters across the cap, raw and escaped */
	{ "x", "\xc3\xa9", 512, "", 1023, 0 },
	{ "x", "\\u00e9", 512, "", 1023, 0 },
	/* a body cut inside a four-byte character, raw and escaped */
	{ "Subject\\n\\n", "b", COMMIT_MAX_BODY - 2, MC_R4 "tail", 7,
	    COMMIT_MAX_BODY - 2 },
	{ "Subject\\n\\n", "b", COMMIT_MAX_BODY - 1, MC_E4 "tail", 7,
	    COMMIT_MAX_BODY - 1 },
	{ "Subject\\n\\n", "b", COMMIT_MAX_BODY - 4, MC_E4 "tail", 7,
	    COMMIT_MAX_BODY },
	/* a 2 MB message: lines of words, and one word */
	{ "Subject\\n\\n", "A line of the body.\\n", 100000, "", 7, 16381 },
	{ "Subject\\n\\n", "b", 2 * 1000 * 1000, "", 7, COMMIT_MAX_BODY },
	{ "", "0123456789abcdef", 131072, "\\n\\nbody", 1024, 4 },
};

/* What a JSON string text says: \n, \uXXXX (and pairs) decoded. */
static char *
mc_decode(const char *json, size_t n)
{
	json_t	*j;
	char	*q, *out;

	q = xmalloc(n + 3);
	q[0] = '"';
	memcpy(q + 1, json, n);
	q[n + 1] = '"';
	q[n + 2] = '\0';
	assert_non_null(j = json_loads(q, JSON_DECODE_ANY, NULL));
	out = xstrdup(json_string_value(j));
	json_decref(j);
	free(q);
	return out;
}

static void
test_push_scan_message_caps(void **state)
{
	struct handler_result	 r;
	struct buf		 m;
	char			*body, *cause, *said, *bodyat;
	size_t			 i, k, len;

	for (i = 0; i < sizeof(message_cases) / sizeof(message_cases[0]);
	    i++) {
		buf_init(&m);
		buf_puts(&m, message_cases[i].head);
		for (k = 0; k < message_cases[i].n; k++)
			buf_puts(&m, message_cases[i].unit);
		buf_puts(&m, message_cases[i].tail);
		body = push_diff_message_push(buf_str(&m), m.len, &len);
		nboth_ok = nboth_fail = ndocumented = 0;
		check("message", i, body, len);
		assert_int_equal(nboth_ok, 1);

		said = mc_decode(buf_str(&m), m.len);
		bodyat = strstr(said, "\n\n");
		bodyat = bodyat != NULL ? bodyat + 2 : said + strlen(said);
		memset(&r, 0, sizeof(r));
		cause = NULL;
		if (push_scan(body, len, PUSH_DIFF_NOW, &r, &cause) !=
		    HANDLER_OK)
			fail_msg("message %zu: %s", i, cause);
		assert_int_equal(r.ncommits, 1);
		if (strlen(r.commits[0].subject) !=
		    message_cases[i].want_subject ||
		    strncmp(r.commits[0].subject, said,
		    message_cases[i].want_subject) != 0)
			fail_msg("message %zu: a subject of %zu bytes, want "
			    "the first %zu", i, strlen(r.commits[0].subject),
			    message_cases[i].want_subject);
		if (strlen(r.commits[0].body) != message_cases[i].want_body ||
		    strncmp(r.commits[0].body, bodyat,
		    message_cases[i].want_body) != 0)
			fail_msg("message %zu: a body of %zu bytes, want the "
			    "first %zu", i, strlen(r.commits[0].body),
			    message_cases[i].want_body);
		handler_result_clear(&r);
		free(said);
		free(body);
		buf_free(&m);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_push_scan_corpus),
		cmocka_unit_test(test_push_scan_bad_cases),
		cmocka_unit_test(test_push_scan_truncations_flips),
		cmocka_unit_test(test_push_scan_type_swaps),
		cmocka_unit_test(test_push_scan_text),
		cmocka_unit_test(test_push_scan_many_keys),
		cmocka_unit_test(test_push_scan_branch_caps),
		cmocka_unit_test(test_push_scan_html_url),
		cmocka_unit_test(test_push_scan_message_caps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
