/* Journal records: deliveries, days and markers as JSON payloads. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "jrecord.h"
#include "jscan.h"
#include "utf8.h"
#include "strlist.h"
#include "xmalloc.h"

/* Short keys: the journal is read by us only. */

static json_t *
jrecord_strings(char *const *v, size_t n)
{
	json_t	*a = json_array();
	size_t	 i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

static json_t *
jrecord_str(const char *s)
{
	return s != NULL ? json_string(s) : json_null();
}

/* Whether two optional strings are the same. */
static int
jrecord_same(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return strcmp(a, b) == 0;
}

/* Bytes of o in the journal (as journal_append writes it). */
static size_t
jrecord_size(const json_t *o)
{
	return json_dumpb(o, NULL, 0, JSON_COMPACT);
}

/*
 * A commit; its branch ("br") only with with_branch: a commit without
 * one is on the branch of the commit before it in the record, so a push
 * of many commits keeps its branch once, not once per commit.
 */
static json_t *
jrecord_encode_commit(const struct commit *c, int with_branch)
{
	char	*message;
	json_t	*o;

	if (c->body != NULL && *c->body != '\0')
		xasprintf(&message, "%s\n\n%s", c->subject, c->body);
	else
		message = xstrdup(c->subject != NULL ? c->subject : "");
	o = json_object();
	json_object_set_new(o, "id", jrecord_str(c->sha));
	json_object_set_new(o, "an", jrecord_str(c->author_name));
	json_object_set_new(o, "al", jrecord_str(c->author_login));
	json_object_set_new(o, "ae", jrecord_str(c->author_email));
	json_object_set_new(o, "cn", jrecord_str(c->committer_name));
	json_object_set_new(o, "cl", jrecord_str(c->committer_login));
	json_object_set_new(o, "ts", json_integer((json_int_t)c->timestamp));
	json_object_set_new(o, "m", json_string(message));
	if (with_branch)
		json_object_set_new(o, "br", jrecord_str(c->branch));
	json_object_set_new(o, "a", jrecord_strings(c->added, c->nadded));
	json_object_set_new(o, "r", jrecord_strings(c->removed, c->nremoved));
	json_object_set_new(o, "md", jrecord_strings(c->modified,
	    c->nmodified));
	free(message);
	return o;
}

static json_t *
jrecord_encode_pr(const struct merged_pr *p)
{
	json_t	*o = json_object();

	json_object_set_new(o, "n", json_integer(p->number));
	json_object_set_new(o, "t", jrecord_str(p->title));
	json_object_set_new(o, "al", jrecord_str(p->author_login));
	json_object_set_new(o, "b", jrecord_str(p->body));
	json_object_set_new(o, "ms", jrecord_str(p->merge_sha));
	json_object_set_new(o, "br", jrecord_str(p->branch));
	json_object_set_new(o, "at", json_integer((json_int_t)p->merged_at));
	return o;
}

static json_t *
jrecord_encode_push(const struct push *p)
{
	json_t	*o = json_object();

	char	 hex[PUSH_HEX_LEN + 1];

	json_object_set_new(o, "br", jrecord_str(p->branch));
	push_id_hex(p->before, hex);
	json_object_set_new(o, "bf", json_string(hex));
	push_id_hex(p->after, hex);
	json_object_set_new(o, "af", json_string(hex));
	json_object_set_new(o, "p", jrecord_str(p->pusher));
	json_object_set_new(o, "f", json_boolean(p->forced));
	json_object_set_new(o, "c", json_boolean(p->created));
	json_object_set_new(o, "d", json_boolean(p->deleted));
	json_object_set_new(o, "n", json_integer((json_int_t)p->ncommits));
	json_object_set_new(o, "at", json_integer((json_int_t)p->at));
	return o;
}

json_t *
jrecord_encode_delivery(const struct handler_result *res, const char *key,
    time_t at)
{
	json_t	*o = json_object(), *commits = json_array();
	json_t	*prs = json_array(), *pushes = json_array();
	size_t	 i;

	json_object_set_new(o, "t", json_string("d"));
	json_object_set_new(o, "key", json_string(key));
	json_object_set_new(o, "at", json_integer((json_int_t)at));
	json_object_set_new(o, "repo", jrecord_str(res->repo));
	json_object_set_new(o, "db", jrecord_str(res->default_branch));
	if (res->html_url != NULL)
		json_object_set_new(o, "hu", jrecord_str(res->html_url));
	for (i = 0; i < res->ncommits; i++)
		json_array_append_new(commits, jrecord_encode_commit(
		    &res->commits[i], i == 0 || !jrecord_same(
		    res->commits[i - 1].branch, res->commits[i].branch)));
	if (res->pr != NULL)
		json_array_append_new(prs, jrecord_encode_pr(res->pr));
	if (res->push != NULL)
		json_array_append_new(pushes, jrecord_encode_push(res->push));
	json_object_set_new(o, "commits", commits);
	json_object_set_new(o, "prs", prs);
	json_object_set_new(o, "pushes", pushes);
	return o;
}

/* A day's records as jrecord_encode_day builds them. */
struct jrecord_day {
	const struct day *day;
	json_t		***recs;
	size_t		 *n;
	json_t		 *rec;		/* the record being filled */
	json_t		 *commits, *prs, *pushes; /* its lists, borrowed */
	size_t		  items;
	size_t		  bytes;
	const char	 *branch;	/* of its last commit, if items */
	int		  has_branch;
};

static void
jrecord_day_open(struct jrecord_day *jd)
{
	const struct day	*day = jd->day;
	json_t			*o = json_object();

	json_object_set_new(o, "t", json_string("d"));
	json_object_set_new(o, "repo", json_string(day->repo));
	json_object_set_new(o, "db", jrecord_str(day->default_branch));
	if (day->html_url != NULL)
		json_object_set_new(o, "hu", jrecord_str(day->html_url));
	json_object_set_new(o, "start", json_integer((json_int_t)day->start));
	json_object_set_new(o, "commits", jd->commits = json_array());
	json_object_set_new(o, "prs", jd->prs = json_array());
	json_object_set_new(o, "pushes", jd->pushes = json_array());
	jd->rec = o;
	jd->items = 0;
	jd->bytes = jrecord_size(o);
	jd->has_branch = 0;
}

static void
jrecord_day_close(struct jrecord_day *jd)
{
	*jd->recs = xreallocarray(*jd->recs, *jd->n + 1, sizeof(**jd->recs));
	(*jd->recs)[(*jd->n)++] = jd->rec;
	jd->rec = NULL;
}

/* Whether an item of size bytes must begin a new record. */
static int
jrecord_day_full(const struct jrecord_day *jd, size_t size)
{
	return jd->items > 0 && (jd->items >= JRECORD_DAY_ITEMS ||
	    jd->bytes + size + 1 > JRECORD_DAY_BYTES);
}

static void
jrecord_day_add(struct jrecord_day *jd, json_t *list, json_t *o, size_t size)
{
	json_array_append_new(list, o);
	jd->items++;
	jd->bytes += size + 1;
}

static void
jrecord_day_commit(struct jrecord_day *jd, const struct commit *c)
{
	int	 with = !jd->has_branch || !jrecord_same(jd->branch, c->branch);
	json_t	*o = jrecord_encode_commit(c, with);
	size_t	 size = jrecord_size(o);

	if (jrecord_day_full(jd, size)) {
		jrecord_day_close(jd);
		jrecord_day_open(jd);
		if (!with) {
			json_decref(o);
			o = jrecord_encode_commit(c, 1);
			size = jrecord_size(o);
		}
	}
	jrecord_day_add(jd, jd->commits, o, size);
	jd->branch = c->branch;
	jd->has_branch = 1;
}

/* A PR or a push, into &jd->prs or &jd->pushes (of the record it joins). */
static void
jrecord_day_other(struct jrecord_day *jd, json_t **list, json_t *o)
{
	size_t	size = jrecord_size(o);

	if (jrecord_day_full(jd, size)) {
		jrecord_day_close(jd);
		jrecord_day_open(jd);
	}
	jrecord_day_add(jd, *list, o, size);
}

void
jrecord_encode_day(const struct day *day, json_t ***recs, size_t *n)
{
	struct jrecord_day	jd = { .day = day, .recs = recs, .n = n };
	size_t			i;

	jrecord_day_open(&jd);
	for (i = 0; i < day->ncommits; i++)
		jrecord_day_commit(&jd, &day->commits[i]);
	for (i = 0; i < day->nprs; i++)
		jrecord_day_other(&jd, &jd.prs, jrecord_encode_pr(&day->prs[i]));
	for (i = 0; i < day->npushes; i++)
		jrecord_day_other(&jd, &jd.pushes,
		    jrecord_encode_push(day_push(day, i)));
	jrecord_day_close(&jd);
}

json_t *
jrecord_encode_rotate(const char *repo, time_t start)
{
	return json_pack("{s:s, s:s, s:I}", "t", "r", "repo", repo, "start",
	    (json_int_t)start);
}

json_t *
jrecord_encode_handoff(const char *repo, time_t start)
{
	return json_pack("{s:s, s:s, s:I}", "t", "h", "repo", repo, "start",
	    (json_int_t)start);
}

json_t *
jrecord_encode_drafted(const char *repo)
{
	return json_pack("{s:s, s:s}", "t", "e", "repo", repo);
}

json_t *
jrecord_encode_merge_back(const char *repo)
{
	return json_pack("{s:s, s:s}", "t", "m", "repo", repo);
}

json_t *
jrecord_encode_window(time_t start)
{
	return json_pack("{s:s, s:I}", "t", "w", "start", (json_int_t)start);
}

json_t *
jrecord_encode_seen(const char *const *keys, const time_t *at, size_t n)
{
	json_t	*seen = json_array();
	size_t	 i;

	for (i = 0; i < n; i++)
		json_array_append_new(seen, json_pack("[s, I]", keys[i],
		    (json_int_t)at[i]));
	return json_pack("{s:s, s:o}", "t", "s", "seen", seen);
}

/*
 * Writing records straight into bytes, without a json_t: the bytes are
 * those json_dump_callback gave (JSON_COMPACT) for the objects the
 * jrecord_encode_* functions build, field for field and escape for
 * escape, so journals written either way read back alike. A delivery's
 * record was half of a large push's cost when built as a json_t.
 *
 * jansson's json_string refuses a string that is not UTF-8 (NULL), and a
 * field or item set from that NULL was left out; the writers leave out
 * the same fields and items. Records hold text that record_clean made
 * UTF-8, so this is for exactness, not a path taken.
 */

#define JRECORD_ONES	0x0101010101010101ULL
#define JRECORD_HIGHS	0x8080808080808080ULL

/*
 * Which of the eight bytes of w a JSON string cannot hold as they are
 * (below 0x20, the quote, the backslash) or are past ASCII (to be checked
 * as UTF-8): their high bits, 0 when none. Each term is the usual "has a
 * byte less than n" or "has a zero byte" test, for bytes below 0x80;
 * bytes from 0x80 on are flagged by w itself. A borrow can flag a byte
 * above a flagged one too, never below: the lowest flag is exact.
 */
static inline uint64_t
jrecord_word_special(uint64_t w)
{
	uint64_t	q = w ^ (JRECORD_ONES * '"');
	uint64_t	bs = w ^ (JRECORD_ONES * '\\');

	return ((((w - JRECORD_ONES * 0x20) | (q - JRECORD_ONES) |
	    (bs - JRECORD_ONES)) & ~w) | w) & JRECORD_HIGHS;
}

/*
 * The n bytes of s as the inside of a JSON string, escaped as jansson
 * escapes them: \" \\ \b \f \n \r \t, \u00XX for the other controls,
 * everything else (DEL, U+2028, non-ASCII) as it is. Runs of plain ASCII
 * are checked sixteen bytes at a time with SSE2 (else eight, in a word)
 * and copied whole, into room reserved
 * for the rest of s as it is (more at each escape). 0, or -1 when s is
 * not UTF-8 (b then holds part of it: the caller cuts it back).
 */
static int
jrecord_put_chars(struct buf *b, const char *s, size_t n)
{
	static const char	 hex[] = "0123456789ABCDEF";
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 i = 0, run = 0, l;
	uint64_t		 w, m;
	unsigned char		 c;
	char			*d;
#ifdef __SSE2__
	const __m128i		 quote = _mm_set1_epi8('"');
	const __m128i		 bslash = _mm_set1_epi8('\\');
	const __m128i		 space = _mm_set1_epi8(0x20);
	__m128i			 v;
	int			 mm;
#endif

	buf_reserve(b, n);
	while (i < n) {
#ifdef __SSE2__
		if (n - i >= 16) {
			v = _mm_loadu_si128((const __m128i *)(const void *)
			    (p + i));
			/* signed: the bytes from 0x80 are below 0x20 too */
			mm = _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(
			    _mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, bslash)),
			    _mm_cmplt_epi8(v, space)));
			if (mm == 0) {
				i += 16;
				continue;
			}
			i += (size_t)__builtin_ctz((unsigned)mm);
		} else
#endif
		if (n - i >= 8) {
			memcpy(&w, p + i, sizeof(w));
			if ((m = jrecord_word_special(w)) == 0) {
				i += 8;
				continue;
			}
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
			/* straight to the first byte flagged (memory order) */
			i += (size_t)__builtin_ctzll(m) / 8;
#endif
		}
		c = p[i];
		if (c >= 0x80) {
			if ((l = utf8_seq_len(p + i, n - i)) == 0) {
				b->data[b->len] = '\0';
				return -1;
			}
			i += l;
			continue;
		}
		if (c >= 0x20 && c != '"' && c != '\\') {
			i++;
			continue;
		}
		/* the run, the escape (6 at most), the rest as it is */
		buf_reserve(b, (i - run) + 6 + (n - i - 1));
		d = b->data + b->len;
		memcpy(d, s + run, i - run);
		d += i - run;
		*d++ = '\\';
		switch (c) {
		case '"':
		case '\\':
			*d++ = (char)c;
			break;
		case '\b':
			*d++ = 'b';
			break;
		case '\f':
			*d++ = 'f';
			break;
		case '\n':
			*d++ = 'n';
			break;
		case '\r':
			*d++ = 'r';
			break;
		case '\t':
			*d++ = 't';
			break;
		default:
			memcpy(d, "u00", 3);
			d[3] = hex[c >> 4];
			d[4] = hex[c & 0xf];
			d += 5;
			break;
		}
		b->len = (size_t)(d - b->data);
		run = ++i;
	}
	memcpy(b->data + b->len, s + run, n - run);
	b->len += n - run;
	b->data[b->len] = '\0';
	return 0;
}

/* s as a JSON string, or null for NULL. 0, or -1 when s is not UTF-8. */
static int
jrecord_put_str(struct buf *b, const char *s)
{
	if (s == NULL) {
		buf_append(b, "null", 4);
		return 0;
	}
	buf_putc(b, '"');
	if (jrecord_put_chars(b, s, strlen(s)) == -1)
		return -1;
	buf_putc(b, '"');
	return 0;
}

/* The comma before a value, unless it is the first of its object or list. */
static void
jrecord_put_sep(struct buf *b)
{
	char	c = b->data[b->len - 1];

	if (c != '{' && c != '[')
		buf_putc(b, ',');
}

/* "key": (keys are ours: plain ASCII). */
static void
jrecord_put_key(struct buf *b, const char *key)
{
	jrecord_put_sep(b);
	buf_putc(b, '"');
	buf_puts(b, key);
	buf_append(b, "\":", 2);
}

static void
jrecord_put_int(struct buf *b, long long v)
{
	char			 num[24], *p = num + sizeof(num);
	unsigned long long	 u = v < 0 ? 0 - (unsigned long long)v :
				    (unsigned long long)v;

	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u != 0);
	if (v < 0)
		*--p = '-';
	buf_append(b, p, (size_t)(num + sizeof(num) - p));
}

/*
 * "key":s. NULL is null with null_ok (jrecord_str), else the field is
 * left out (json_string(NULL)); so is a string that is not UTF-8.
 */
static void
jrecord_put_kstr(struct buf *b, const char *key, const char *s, int null_ok)
{
	size_t	mark = b->len;

	if (s == NULL && !null_ok)
		return;
	jrecord_put_key(b, key);
	if (jrecord_put_str(b, s) == -1)
		buf_truncate(b, mark);
}

static void
jrecord_put_kint(struct buf *b, const char *key, long long v)
{
	jrecord_put_key(b, key);
	jrecord_put_int(b, v);
}

static void
jrecord_put_kbool(struct buf *b, const char *key, int v)
{
	jrecord_put_key(b, key);
	if (v)
		buf_append(b, "true", 4);
	else
		buf_append(b, "false", 5);
}

/* "key":[strings], those NULL or not UTF-8 left out (jrecord_strings). */
static void
jrecord_put_kstrings(struct buf *b, const char *key, char *const *v,
    size_t n)
{
	size_t	i, mark;

	jrecord_put_key(b, key);
	buf_putc(b, '[');
	for (i = 0; i < n; i++) {
		if (v[i] == NULL)
			continue;
		mark = b->len;
		jrecord_put_sep(b);
		if (jrecord_put_str(b, v[i]) == -1)
			buf_truncate(b, mark);
	}
	buf_putc(b, ']');
}

/*
 * "m": the message, subject and body joined by a blank line as
 * jrecord_encode_commit joins them, without joining them in memory. A
 * NULL subject is "" (sprintf would have said "(null)"; none is NULL).
 */
static void
jrecord_put_message(struct buf *b, const struct commit *c)
{
	const char	*subject = c->subject != NULL ? c->subject : "";
	size_t		 mark = b->len;

	jrecord_put_key(b, "m");
	buf_putc(b, '"');
	if (jrecord_put_chars(b, subject, strlen(subject)) == -1)
		goto bad;
	if (c->body != NULL && *c->body != '\0') {
		buf_append(b, "\\n\\n", 4);
		if (jrecord_put_chars(b, c->body, strlen(c->body)) == -1)
			goto bad;
	}
	buf_putc(b, '"');
	return;
bad:
	buf_truncate(b, mark);
}

/* A commit as jrecord_encode_commit builds it. */
static void
jrecord_put_commit(struct buf *b, const struct commit *c, int with_branch)
{
	buf_putc(b, '{');
	jrecord_put_kstr(b, "id", c->sha, 1);
	jrecord_put_kstr(b, "an", c->author_name, 1);
	jrecord_put_kstr(b, "al", c->author_login, 1);
	jrecord_put_kstr(b, "ae", c->author_email, 1);
	jrecord_put_kstr(b, "cn", c->committer_name, 1);
	jrecord_put_kstr(b, "cl", c->committer_login, 1);
	jrecord_put_kint(b, "ts", (long long)c->timestamp);
	jrecord_put_message(b, c);
	if (with_branch)
		jrecord_put_kstr(b, "br", c->branch, 1);
	jrecord_put_kstrings(b, "a", c->added, c->nadded);
	jrecord_put_kstrings(b, "r", c->removed, c->nremoved);
	jrecord_put_kstrings(b, "md", c->modified, c->nmodified);
	buf_putc(b, '}');
}

static void
jrecord_put_pr(struct buf *b, const struct merged_pr *p)
{
	buf_putc(b, '{');
	jrecord_put_kint(b, "n", p->number);
	jrecord_put_kstr(b, "t", p->title, 1);
	jrecord_put_kstr(b, "al", p->author_login, 1);
	jrecord_put_kstr(b, "b", p->body, 1);
	jrecord_put_kstr(b, "ms", p->merge_sha, 1);
	jrecord_put_kstr(b, "br", p->branch, 1);
	jrecord_put_kint(b, "at", (long long)p->merged_at);
	buf_putc(b, '}');
}

static void
jrecord_put_push(struct buf *b, const struct push *p)
{
	char	hex[PUSH_HEX_LEN + 1];

	buf_putc(b, '{');
	jrecord_put_kstr(b, "br", p->branch, 1);
	push_id_hex(p->before, hex);
	jrecord_put_kstr(b, "bf", hex, 1);
	push_id_hex(p->after, hex);
	jrecord_put_kstr(b, "af", hex, 1);
	jrecord_put_kstr(b, "p", p->pusher, 1);
	jrecord_put_kbool(b, "f", p->forced);
	jrecord_put_kbool(b, "c", p->created);
	jrecord_put_kbool(b, "d", p->deleted);
	jrecord_put_kint(b, "n", (long long)p->ncommits);
	jrecord_put_kint(b, "at", (long long)p->at);
	buf_putc(b, '}');
}

void
jrecord_write_delivery(struct buf *b, const struct handler_result *res,
    const char *key, time_t at, time_t start)
{
	size_t	i;

	buf_append(b, "{\"t\":\"d\"", 8);
	jrecord_put_kstr(b, "key", key, 0);
	jrecord_put_kint(b, "at", (long long)at);
	jrecord_put_kstr(b, "repo", res->repo, 1);
	jrecord_put_kstr(b, "db", res->default_branch, 1);
	jrecord_put_kstr(b, "hu", res->html_url, 0);
	jrecord_put_key(b, "commits");
	buf_putc(b, '[');
	for (i = 0; i < res->ncommits; i++) {
		jrecord_put_sep(b);
		jrecord_put_commit(b, &res->commits[i], i == 0 ||
		    !jrecord_same(res->commits[i - 1].branch,
		    res->commits[i].branch));
	}
	buf_append(b, "],\"prs\":[", 9);
	if (res->pr != NULL)
		jrecord_put_pr(b, res->pr);
	buf_append(b, "],\"pushes\":[", 12);
	if (res->push != NULL)
		jrecord_put_push(b, res->push);
	buf_putc(b, ']');
	jrecord_put_kint(b, "start", (long long)start);
	buf_putc(b, '}');
}

/* A day's records as jrecord_write_day writes them. */
struct jrecord_wday {
	const struct day *day;
	const char	*show;		/* "sh", or NULL */
	struct buf	**recs;
	size_t		 *n;
	struct buf	  rec;		/* the record being filled */
	struct buf	  item;		/* the item being added */
	int		  list;		/* rec's open list: JRECORD_COMMITS.. */
	size_t		  items;
	size_t		  bytes;	/* as jrecord_encode_day counts them */
	const char	 *branch;	/* of its last commit, if items */
	int		  has_branch;
};

#define JRECORD_COMMITS	0
#define JRECORD_PRS	1
#define JRECORD_PUSHES	2

/* What closes a record whose list is still open. */
static const char *const jrecord_wday_tail[] = {
	"],\"prs\":[],\"pushes\":[]}",
	"],\"pushes\":[]}",
	"]}",
};

static void
jrecord_wday_open(struct jrecord_wday *wd)
{
	const struct day	*day = wd->day;
	struct buf		*b = &wd->rec;

	buf_init(b);
	buf_append(b, "{\"t\":\"d\"", 8);
	if (wd->show != NULL)
		jrecord_put_kstr(b, "sh", wd->show, 0);
	jrecord_put_kstr(b, "repo", day->repo, 0);
	jrecord_put_kstr(b, "db", day->default_branch, 1);
	jrecord_put_kstr(b, "hu", day->html_url, 0);
	jrecord_put_kint(b, "start", (long long)day->start);
	buf_append(b, ",\"commits\":[", 12);
	wd->list = JRECORD_COMMITS;
	wd->items = 0;
	wd->bytes = b->len + strlen(jrecord_wday_tail[JRECORD_COMMITS]);
	wd->has_branch = 0;
}

static void
jrecord_wday_close(struct jrecord_wday *wd)
{
	buf_puts(&wd->rec, jrecord_wday_tail[wd->list]);
	*wd->recs = xreallocarray(*wd->recs, *wd->n + 1, sizeof(**wd->recs));
	(*wd->recs)[(*wd->n)++] = wd->rec;
	buf_init(&wd->rec);
}

/* Add wd->item to list, in a new record when it does not fit this one. */
static void
jrecord_wday_add(struct jrecord_wday *wd, int list)
{
	if (wd->items > 0 && (wd->items >= JRECORD_DAY_ITEMS ||
	    wd->bytes + wd->item.len + 1 > JRECORD_DAY_BYTES)) {
		jrecord_wday_close(wd);
		jrecord_wday_open(wd);
	}
	for (; wd->list < list; wd->list++)
		buf_puts(&wd->rec, wd->list == JRECORD_COMMITS ?
		    "],\"prs\":[" : "],\"pushes\":[");
	jrecord_put_sep(&wd->rec);
	buf_append(&wd->rec, wd->item.data, wd->item.len);
	wd->items++;
	wd->bytes += wd->item.len + 1;
}

void
jrecord_write_day(const struct day *day, struct buf **recs, size_t *n)
{
	jrecord_write_show_day(day, NULL, recs, n);
}

void
jrecord_write_show_day(const struct day *day, const char *show,
    struct buf **recs, size_t *n)
{
	struct jrecord_wday	 wd = { .day = day, .show = show, .recs = recs,
				     .n = n };
	const struct commit	*c;
	size_t			 i;
	int			 with;

	buf_init(&wd.item);
	jrecord_wday_open(&wd);
	for (i = 0; i < day->ncommits; i++) {
		c = &day->commits[i];
		with = !wd.has_branch || !jrecord_same(wd.branch, c->branch);
		buf_reset(&wd.item);
		jrecord_put_commit(&wd.item, c, with);
		/* the first commit of a record says its branch */
		if (!with && wd.items > 0 && (wd.items >= JRECORD_DAY_ITEMS ||
		    wd.bytes + wd.item.len + 1 > JRECORD_DAY_BYTES)) {
			jrecord_wday_close(&wd);
			jrecord_wday_open(&wd);
			buf_reset(&wd.item);
			jrecord_put_commit(&wd.item, c, 1);
		}
		jrecord_wday_add(&wd, JRECORD_COMMITS);
		wd.branch = c->branch;
		wd.has_branch = 1;
	}
	for (i = 0; i < day->nprs; i++) {
		buf_reset(&wd.item);
		jrecord_put_pr(&wd.item, &day->prs[i]);
		jrecord_wday_add(&wd, JRECORD_PRS);
	}
	for (i = 0; i < day->npushes; i++) {
		buf_reset(&wd.item);
		jrecord_put_push(&wd.item, day_push(day, i));
		jrecord_wday_add(&wd, JRECORD_PUSHES);
	}
	jrecord_wday_close(&wd);
	buf_free(&wd.item);
}

/*
 * {"t":T,"repo":R} and "start":S with has_start. -1 (EINVAL, nothing
 * written) when repo is NULL or not UTF-8, as json_pack refused it.
 */
static int
jrecord_write_marker(struct buf *b, char kind, const char *repo,
    int has_start, time_t start)
{
	size_t	mark = b->len;

	buf_append(b, "{\"t\":\"", 6);
	buf_putc(b, kind);
	buf_append(b, "\",\"repo\":", 9);
	if (repo == NULL || jrecord_put_str(b, repo) == -1) {
		buf_truncate(b, mark);
		errno = EINVAL;
		return -1;
	}
	if (has_start)
		jrecord_put_kint(b, "start", (long long)start);
	buf_putc(b, '}');
	return 0;
}

int
jrecord_write_rotate(struct buf *b, const char *repo, time_t start)
{
	return jrecord_write_marker(b, 'r', repo, 1, start);
}

int
jrecord_write_handoff(struct buf *b, const char *repo, time_t start)
{
	return jrecord_write_marker(b, 'h', repo, 1, start);
}

int
jrecord_write_drafted(struct buf *b, const char *repo)
{
	return jrecord_write_marker(b, 'e', repo, 0, 0);
}

int
jrecord_write_merge_back(struct buf *b, const char *repo)
{
	return jrecord_write_marker(b, 'm', repo, 0, 0);
}

int
jrecord_write_window_of(struct buf *b, const char *repo, time_t start)
{
	return jrecord_write_marker(b, 'w', repo, 1, start);
}

void
jrecord_write_window(struct buf *b, time_t start)
{
	buf_append(b, "{\"t\":\"w\"", 8);
	jrecord_put_kint(b, "start", (long long)start);
	buf_putc(b, '}');
}

void
jrecord_write_seen(struct buf *b, const char *const *keys, const time_t *at,
    size_t n)
{
	size_t	i, mark;

	buf_append(b, "{\"t\":\"s\",\"seen\":[", 17);
	for (i = 0; i < n; i++) {
		/* json_pack refused a key NULL or not UTF-8: left out */
		if (keys[i] == NULL)
			continue;
		mark = b->len;
		jrecord_put_sep(b);
		buf_putc(b, '[');
		if (jrecord_put_str(b, keys[i]) == -1) {
			buf_truncate(b, mark);
			continue;
		}
		buf_putc(b, ',');
		jrecord_put_int(b, (long long)at[i]);
		buf_putc(b, ']');
	}
	buf_append(b, "]}", 2);
}

/*
 * Reading records back: jscan over the payload, each field copied out
 * once, so replay builds no json_t. Every value is read with the type
 * its key expects; a value of another type is skipped (and validated)
 * and reads as jansson's accessors read it: NULL, 0 or false.
 */

/* The key just scanned, unescaped into buf (truncated: no key is long). */
static const char *
jrecord_key(const struct jscan *js, char *buf, size_t size)
{
	char	*u;
	size_t	 n = js->slen;

	if (js->esc) {
		if ((u = jscan_string_dup(js->str, js->slen, &n)) == NULL)
			return "";
		if (n >= size || memchr(u, '\0', n) != NULL)
			n = 0;
		memcpy(buf, u, n);
		free(u);
	} else {
		if (n >= size)
			n = 0;
		memcpy(buf, js->str, n);
	}
	buf[n] = '\0';
	return buf;
}

/* A value whose first token is t: a string into *out (replacing it). */
static int
jrecord_rd_str(struct jscan *js, enum jscan_tok t, char **out)
{
	free(*out);
	*out = NULL;
	if (t != JSCAN_STRING)
		return jscan_finish(js, t);
	if (js->esc)
		*out = jscan_string_dup(js->str, js->slen, NULL);
	else
		*out = xstrndup(js->str, js->slen);
	return *out != NULL ? 0 : -1;
}

/* An integer (json_integer_value's 0 for anything else). */
static int
jrecord_rd_int(struct jscan *js, enum jscan_tok t, long long *out, int *is)
{
	char	num[32];

	*out = 0;
	if (is != NULL)
		*is = 0;
	if (t != JSCAN_NUMBER)
		return jscan_finish(js, t);
	/* jscan took it: an integer fits a long long, so 20 bytes at most */
	if (js->slen >= sizeof(num) || memchr(js->str, '.', js->slen) != NULL ||
	    memchr(js->str, 'e', js->slen) != NULL ||
	    memchr(js->str, 'E', js->slen) != NULL)
		return 0;
	memcpy(num, js->str, js->slen);
	num[js->slen] = '\0';
	*out = strtoll(num, NULL, 10);
	if (is != NULL)
		*is = 1;
	return 0;
}

static int
jrecord_rd_time(struct jscan *js, enum jscan_tok t, time_t *out)
{
	long long	v;

	if (jrecord_rd_int(js, t, &v, NULL) == -1)
		return -1;
	*out = (time_t)v;
	return 0;
}

static int
jrecord_rd_bool(struct jscan *js, enum jscan_tok t, int *out)
{
	*out = t == JSCAN_TRUE;
	return jscan_finish(js, t);
}


/*
 * A commit's file list (its other values left out), replacing *v: the
 * names gathered in a scratch buffer, then packed (record_list_pack).
 */
static int
jrecord_rd_list(struct jscan *js, enum jscan_tok t, char ***v, size_t *n)
{
	struct buf	b;
	size_t		l;
	int		rc = 0;

	free(*v);
	*v = NULL;
	*n = 0;
	if (t != JSCAN_ARRAY)
		return jscan_finish(js, t);
	buf_init(&b);
	while ((t = jscan_next(js)) != JSCAN_ARRAY_END) {
		if (t != JSCAN_STRING) {
			if ((rc = jscan_finish(js, t)) == -1)
				break;
			continue;
		}
		buf_reserve(&b, js->slen + 1);
		if (js->esc) {
			l = jscan_unescape(js->str, js->slen, b.data + b.len);
			if (l == (size_t)-1) {
				rc = -1;
				break;
			}
		} else {
			memcpy(b.data + b.len, js->str, l = js->slen);
			b.data[b.len + l] = '\0';
		}
		b.len += l + 1;
		(*n)++;
	}
	if (rc == 0)
		*v = record_list_pack(b.data, b.len, *n);
	else
		*n = 0;
	buf_free(&b);
	return rc;
}

/*
 * A commit object. *branch is the branch of the commit before it in the
 * record, updated by its "br". 1 read, 0 malformed (no id or message; the
 * value skipped), -1 not JSON.
 */
static int
jrecord_rd_commit(struct jscan *js, enum jscan_tok t, struct commit *c,
    char **branch)
{
	char		 kb[8], *m = NULL, *br = NULL;
	const char	*k;
	int		 has_br = 0, rc = -1;

	memset(c, 0, sizeof(*c));
	if (t != JSCAN_OBJECT)
		return jscan_finish(js, t) == -1 ? -1 : 0;
	while ((t = jscan_next(js)) == JSCAN_KEY) {
		k = jrecord_key(js, kb, sizeof(kb));
		t = jscan_next(js);
		if (strcmp(k, "id") == 0)
			rc = jrecord_rd_str(js, t, &c->sha);
		else if (strcmp(k, "an") == 0)
			rc = jrecord_rd_str(js, t, &c->author_name);
		else if (strcmp(k, "al") == 0)
			rc = jrecord_rd_str(js, t, &c->author_login);
		else if (strcmp(k, "ae") == 0)
			rc = jrecord_rd_str(js, t, &c->author_email);
		else if (strcmp(k, "cn") == 0)
			rc = jrecord_rd_str(js, t, &c->committer_name);
		else if (strcmp(k, "cl") == 0)
			rc = jrecord_rd_str(js, t, &c->committer_login);
		else if (strcmp(k, "ts") == 0)
			rc = jrecord_rd_time(js, t, &c->timestamp);
		else if (strcmp(k, "m") == 0)
			rc = jrecord_rd_str(js, t, &m);
		else if (strcmp(k, "br") == 0) {
			has_br = 1;
			rc = jrecord_rd_str(js, t, &br);
		} else if (strcmp(k, "a") == 0)
			rc = jrecord_rd_list(js, t, &c->added, &c->nadded);
		else if (strcmp(k, "r") == 0)
			rc = jrecord_rd_list(js, t, &c->removed,
			    &c->nremoved);
		else if (strcmp(k, "md") == 0)
			rc = jrecord_rd_list(js, t, &c->modified,
			    &c->nmodified);
		else
			rc = jscan_finish(js, t);
		if (rc == -1)
			break;
	}
	if (t != JSCAN_OBJECT_END)
		rc = -1;
	else {
		/* without "br", on the branch of the commit before */
		if (has_br) {
			free(*branch);
			*branch = br;
			br = NULL;
		}
		rc = c->sha != NULL && m != NULL &&
		    commit_set_message(c, m) == 0;
		if (rc == 1)
			c->branch = xstrdup_null(*branch);
	}
	free(m);
	free(br);
	if (rc != 1)
		commit_clear(c);
	return rc;
}

static int
jrecord_rd_pr(struct jscan *js, enum jscan_tok t, struct merged_pr *p)
{
	char		 kb[8], *title = NULL, *body = NULL;
	const char	*k;
	long long	 n;
	int		 rc = 0;

	memset(p, 0, sizeof(*p));
	if (t != JSCAN_OBJECT)
		return jscan_finish(js, t);
	while ((t = jscan_next(js)) == JSCAN_KEY) {
		k = jrecord_key(js, kb, sizeof(kb));
		t = jscan_next(js);
		if (strcmp(k, "n") == 0) {
			rc = jrecord_rd_int(js, t, &n, NULL);
			p->number = (long)n;
		} else if (strcmp(k, "t") == 0)
			rc = jrecord_rd_str(js, t, &title);
		else if (strcmp(k, "al") == 0)
			rc = jrecord_rd_str(js, t, &p->author_login);
		else if (strcmp(k, "b") == 0)
			rc = jrecord_rd_str(js, t, &body);
		else if (strcmp(k, "ms") == 0)
			rc = jrecord_rd_str(js, t, &p->merge_sha);
		else if (strcmp(k, "br") == 0)
			rc = jrecord_rd_str(js, t, &p->branch);
		else if (strcmp(k, "at") == 0)
			rc = jrecord_rd_time(js, t, &p->merged_at);
		else
			rc = jscan_finish(js, t);
		if (rc == -1)
			break;
	}
	if (rc == 0 && t != JSCAN_OBJECT_END)
		rc = -1;
	/* cut as intake cuts them (a journal from before the caps) */
	p->title = record_cut_dup(title, MERGED_PR_MAX_TITLE);
	p->body = record_cut_dup(body, MERGED_PR_MAX_BODY);
	free(title);
	free(body);
	return rc;
}

static int
jrecord_rd_push(struct jscan *js, enum jscan_tok t, struct push *p)
{
	char		 kb[8], *id;
	const char	*k;
	long long	 n;
	int		 rc = 0, v;

	memset(p, 0, sizeof(*p));
	if (t != JSCAN_OBJECT)
		return jscan_finish(js, t);
	while ((t = jscan_next(js)) == JSCAN_KEY) {
		k = jrecord_key(js, kb, sizeof(kb));
		t = jscan_next(js);
		v = 0;
		if (strcmp(k, "br") == 0)
			rc = jrecord_rd_str(js, t, &p->branch);
		else if (strcmp(k, "bf") == 0 || strcmp(k, "af") == 0) {
			/*
			 * 40 hex digits, or from a journal before ids were
			 * bytes null or any string: none (record.h)
			 */
			id = NULL;
			rc = jrecord_rd_str(js, t, &id);
			(void)push_id_set(k[0] == 'b' ? p->before : p->after,
			    id);
			free(id);
		} else if (strcmp(k, "p") == 0)
			rc = jrecord_rd_str(js, t, &p->pusher);
		else if (strcmp(k, "f") == 0) {
			rc = jrecord_rd_bool(js, t, &v);
			p->forced = v != 0;
		} else if (strcmp(k, "c") == 0) {
			rc = jrecord_rd_bool(js, t, &v);
			p->created = v != 0;
		} else if (strcmp(k, "d") == 0) {
			rc = jrecord_rd_bool(js, t, &v);
			p->deleted = v != 0;
		} else if (strcmp(k, "n") == 0) {
			rc = jrecord_rd_int(js, t, &n, NULL);
			p->ncommits = n <= 0 ? 0 : n >= UINT32_MAX ?
			    UINT32_MAX : (uint32_t)n;
		} else if (strcmp(k, "at") == 0)
			rc = jrecord_rd_time(js, t, &p->at);
		else
			rc = jscan_finish(js, t);
		if (rc == -1)
			break;
	}
	if (rc == 0 && t != JSCAN_OBJECT_END)
		rc = -1;
	return rc;
}

static void
jrecord_clear_items(struct jrecord *rec)
{
	size_t	i;

	for (i = 0; i < rec->ncommits; i++)
		commit_clear(&rec->commits[i]);
	free(rec->commits);
	rec->commits = NULL;
	rec->ncommits = 0;
	rec->malformed = 0;
}

/* "commits": up to the first malformed one. */
static int
jrecord_rd_commits(struct jscan *js, enum jscan_tok t, struct jrecord *rec)
{
	struct commit	 c;
	char		*branch = NULL;
	size_t		 size = 0;
	int		 rc = 0;

	jrecord_clear_items(rec);
	if (t != JSCAN_ARRAY)
		return jscan_finish(js, t);
	while ((t = jscan_next(js)) != JSCAN_ARRAY_END) {
		if (rec->malformed) {
			if ((rc = jscan_finish(js, t)) == -1)
				break;
			continue;
		}
		if ((rc = jrecord_rd_commit(js, t, &c, &branch)) == -1)
			break;
		if (rc == 0) {
			rec->malformed = 1;
			continue;
		}
		if (rec->ncommits == size) {
			size = size == 0 ? 16 : size * 2;
			rec->commits = xreallocarray(rec->commits, size,
			    sizeof(*rec->commits));
		}
		rec->commits[rec->ncommits++] = c;
		rc = 0;
	}
	free(branch);
	return rc;
}

static int
jrecord_rd_prs(struct jscan *js, enum jscan_tok t, struct jrecord *rec)
{
	struct merged_pr	p;
	size_t			i, size = 0;

	for (i = 0; i < rec->nprs; i++)
		merged_pr_clear(&rec->prs[i]);
	free(rec->prs);
	rec->prs = NULL;
	rec->nprs = 0;
	if (t != JSCAN_ARRAY)
		return jscan_finish(js, t);
	while ((t = jscan_next(js)) != JSCAN_ARRAY_END) {
		if (jrecord_rd_pr(js, t, &p) == -1) {
			merged_pr_clear(&p);
			return -1;
		}
		if (rec->nprs == size) {
			size = size == 0 ? 1 : size * 2;
			rec->prs = xreallocarray(rec->prs, size,
			    sizeof(*rec->prs));
		}
		rec->prs[rec->nprs++] = p;
	}
	return 0;
}

static int
jrecord_rd_pushes(struct jscan *js, enum jscan_tok t, struct jrecord *rec)
{
	struct push	p;
	size_t		i, size = 0;

	for (i = 0; i < rec->npushes; i++)
		push_clear(&rec->pushes[i]);
	free(rec->pushes);
	rec->pushes = NULL;
	rec->npushes = 0;
	if (t != JSCAN_ARRAY)
		return jscan_finish(js, t);
	while ((t = jscan_next(js)) != JSCAN_ARRAY_END) {
		if (jrecord_rd_push(js, t, &p) == -1) {
			push_clear(&p);
			return -1;
		}
		if (rec->npushes == size) {
			size = size == 0 ? 1 : size * 2;
			rec->pushes = xreallocarray(rec->pushes, size,
			    sizeof(*rec->pushes));
		}
		rec->pushes[rec->npushes++] = p;
	}
	return 0;
}

/* "seen": [[key, at], ...]; an item without a string key is left out. */
static int
jrecord_rd_seen(struct jscan *js, enum jscan_tok t, struct jrecord *rec)
{
	char		*key;
	long long	 at;
	size_t		 i, size = 0;
	int		 rc;

	strv_free(rec->seen, rec->nseen);
	free(rec->seen_at);
	rec->seen = NULL;
	rec->seen_at = NULL;
	rec->nseen = 0;
	if (t != JSCAN_ARRAY)
		return jscan_finish(js, t);
	while ((t = jscan_next(js)) != JSCAN_ARRAY_END) {
		if (t != JSCAN_ARRAY) {
			if (jscan_finish(js, t) == -1)
				return -1;
			continue;
		}
		key = NULL;
		at = 0;
		rc = 0;
		for (i = 0; rc == 0 && (t = jscan_next(js)) != JSCAN_ARRAY_END;
		    i++) {
			if (i == 0)
				rc = jrecord_rd_str(js, t, &key);
			else if (i == 1)
				rc = jrecord_rd_int(js, t, &at, NULL);
			else
				rc = jscan_finish(js, t);
		}
		if (rc == -1) {
			free(key);
			return -1;
		}
		if (key == NULL)
			continue;
		if (rec->nseen == size) {
			size = size == 0 ? 64 : size * 2;
			rec->seen = xreallocarray(rec->seen, size,
			    sizeof(*rec->seen));
			rec->seen_at = xreallocarray(rec->seen_at, size,
			    sizeof(*rec->seen_at));
		}
		rec->seen[rec->nseen] = key;
		rec->seen_at[rec->nseen++] = (time_t)at;
	}
	return 0;
}

int
jrecord_decode(const char *buf, size_t len, struct jrecord *out)
{
	struct jscan	 js;
	struct jrecord	 rec;
	enum jscan_tok	 t;
	char		 kb[16], *kind = NULL;
	const char	*k;
	long long	 v;
	int		 rc = 0;

	memset(&rec, 0, sizeof(rec));
	jscan_init(&js, buf, len);
	t = jscan_next(&js);
	if (t == JSCAN_ARRAY)
		rc = jscan_finish(&js, t);
	else if (t != JSCAN_OBJECT)
		rc = -1;
	else {
		while ((t = jscan_next(&js)) == JSCAN_KEY) {
			k = jrecord_key(&js, kb, sizeof(kb));
			t = jscan_next(&js);
			if (strcmp(k, "t") == 0)
				rc = jrecord_rd_str(&js, t, &kind);
			else if (strcmp(k, "repo") == 0)
				rc = jrecord_rd_str(&js, t, &rec.repo);
			else if (strcmp(k, "db") == 0)
				rc = jrecord_rd_str(&js, t, &rec.db);
			else if (strcmp(k, "hu") == 0)
				rc = jrecord_rd_str(&js, t, &rec.hu);
			else if (strcmp(k, "sh") == 0)
				rc = jrecord_rd_str(&js, t, &rec.show);
			else if (strcmp(k, "key") == 0)
				rc = jrecord_rd_str(&js, t, &rec.key);
			else if (strcmp(k, "at") == 0)
				rc = jrecord_rd_time(&js, t, &rec.at);
			else if (strcmp(k, "start") == 0) {
				rc = jrecord_rd_int(&js, t, &v, &rec.has_start);
				rec.start = (time_t)v;
			} else if (strcmp(k, "commits") == 0)
				rc = jrecord_rd_commits(&js, t, &rec);
			else if (strcmp(k, "prs") == 0)
				rc = jrecord_rd_prs(&js, t, &rec);
			else if (strcmp(k, "pushes") == 0)
				rc = jrecord_rd_pushes(&js, t, &rec);
			else if (strcmp(k, "seen") == 0)
				rc = jrecord_rd_seen(&js, t, &rec);
			else
				rc = jscan_finish(&js, t);
			if (rc == -1)
				break;
		}
		if (rc == 0 && t != JSCAN_OBJECT_END)
			rc = -1;
	}
	if (rc == 0 && jscan_next(&js) != JSCAN_END)
		rc = -1;
	if (kind != NULL)
		rec.kind = kind[0];
	free(kind);
	if (rc == -1) {
		jrecord_clear(&rec);
		return -1;
	}
	*out = rec;
	return 0;
}

void
jrecord_clear(struct jrecord *rec)
{
	size_t	i;

	if (rec == NULL)
		return;
	jrecord_clear_items(rec);
	for (i = 0; i < rec->nprs; i++)
		merged_pr_clear(&rec->prs[i]);
	free(rec->prs);
	for (i = 0; i < rec->npushes; i++)
		push_clear(&rec->pushes[i]);
	free(rec->pushes);
	strv_free(rec->seen, rec->nseen);
	free(rec->seen_at);
	free(rec->repo);
	free(rec->db);
	free(rec->hu);
	free(rec->show);
	free(rec->key);
	memset(rec, 0, sizeof(*rec));
}

int
jrecord_take(struct jrecord *rec, struct day *day)
{
	struct commit	*c;
	size_t		 i;

	for (i = 0; i < rec->ncommits; i++) {
		c = &rec->commits[i];
		revert_parse(c->subject, c->body, &c->revert);
		if (day_add_commit(day, c) == -1)
			return -1;
		memset(c, 0, sizeof(*c));
	}
	if (rec->malformed)
		return -1;
	for (i = 0; i < rec->nprs; i++) {
		if (day_add_pr(day, &rec->prs[i]) == -1)
			return -1;
		memset(&rec->prs[i], 0, sizeof(rec->prs[i]));
	}
	for (i = 0; i < rec->npushes; i++) {
		if (day_add_push(day, &rec->pushes[i]) == -1)
			return -1;
		memset(&rec->pushes[i], 0, sizeof(rec->pushes[i]));
	}
	return 0;
}

int
jrecord_apply(const json_t *o, struct day *day)
{
	struct jrecord	 rec;
	char		*buf;
	size_t		 len;
	int		 rc;

	len = json_dumpb(o, NULL, 0, JSON_COMPACT);
	buf = xmalloc(len + 1);
	if (json_dumpb(o, buf, len, JSON_COMPACT) != len ||
	    jrecord_decode(buf, len, &rec) == -1) {
		free(buf);
		return -1;
	}
	free(buf);
	rc = jrecord_take(&rec, day);
	jrecord_clear(&rec);
	return rc;
}
