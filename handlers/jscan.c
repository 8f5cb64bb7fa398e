/* A validating pull-style JSON scanner that allocates nothing. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "jscan.h"
#include "xmalloc.h"

/* What the next token may be. */
enum {
	JSCAN_ST_VALUE,		/* a value (top level, after ':' or ',') */
	JSCAN_ST_VALUE_OR_END,	/* just after '[' */
	JSCAN_ST_KEY,		/* after ',' in an object */
	JSCAN_ST_KEY_OR_END,	/* just after '{' */
	JSCAN_ST_AFTER,		/* after a value inside a container */
	JSCAN_ST_DONE,		/* after the top-level value */
	JSCAN_ST_ERROR
};

static enum jscan_tok	jscan_fail(struct jscan *, size_t, const char *);
static size_t		jscan_ws(const char *, size_t, size_t);
static int		jscan_hex4(const char *, size_t, size_t);
static size_t		jscan_utf8(const unsigned char *, size_t);
static size_t		jscan_plain(const unsigned char *, size_t, size_t);
static int		jscan_string(struct jscan *, size_t);
static int		jscan_number(struct jscan *, size_t);
static enum jscan_tok	jscan_value(struct jscan *, size_t);

void
jscan_init(struct jscan *js, const char *buf, size_t len)
{
	memset(js, 0, sizeof(*js));
	js->buf = buf;
	js->len = len;
	js->state = JSCAN_ST_VALUE;
}

static enum jscan_tok
jscan_fail(struct jscan *js, size_t at, const char *why)
{
	js->error = why;
	js->errpos = at;
	js->state = JSCAN_ST_ERROR;
	return JSCAN_ERROR;
}

static size_t
jscan_ws(const char *b, size_t n, size_t p)
{
	while (p < n && (b[p] == ' ' || b[p] == '\n' || b[p] == '\r' ||
	    b[p] == '\t'))
		p++;
	return p;
}

/* The value of 4 hex digits at b[p], or -1. */
static int
jscan_hex4(const char *b, size_t n, size_t p)
{
	int	v = 0, i, c;

	if (n - p < 4)
		return -1;
	for (i = 0; i < 4; i++) {
		c = (unsigned char)b[p + i];
		if (c >= '0' && c <= '9')
			c -= '0';
		else if (c >= 'a' && c <= 'f')
			c -= 'a' - 10;
		else if (c >= 'A' && c <= 'F')
			c -= 'A' - 10;
		else
			return -1;
		v = v << 4 | c;
	}
	return v;
}

/*
 * The length of the well-formed UTF-8 sequence of 2 to 4 bytes at s (n
 * bytes left), or 0: no overlong forms, no surrogates, nothing past
 * U+10FFFF (RFC 3629 table 3-7).
 */
static size_t
jscan_utf8(const unsigned char *s, size_t n)
{
	unsigned char	lo = 0x80, hi = 0xbf;
	size_t		need, i;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		need = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		need = 3;
		if (s[0] == 0xe0)
			lo = 0xa0;
		else if (s[0] == 0xed)
			hi = 0x9f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		need = 4;
		if (s[0] == 0xf0)
			lo = 0x90;
		else if (s[0] == 0xf4)
			hi = 0x8f;
	} else
		return 0;
	if (n < need || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < need; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return need;
}

/*
 * Where the first byte from q that a string cannot pass over unread (a
 * quote, a backslash, a control byte or one of UTF-8's) is, or about
 * there: the bytes before the place returned are plain ASCII, and the
 * byte loop after it finds the exact place. Strings are most of a push's
 * bytes.
 *
 * With SSE2 (every x86-64), sixteen bytes at a time: as signed bytes,
 * those under 0x20 and those of 0x80 and over are both less than 0x20.
 * Elsewhere eight at a time, by the classic zero-byte test: (w - 0x01..)
 * & ~w & 0x80.. is non-zero when some byte of w is zero, and the same
 * with w - 0x20.. finds a byte under 0x20 (a borrow starts only at a
 * true one, so a word without one is never stopped at).
 */
static size_t
jscan_plain(const unsigned char *b, size_t n, size_t q)
{
#ifdef __SSE2__
	const __m128i	quote = _mm_set1_epi8('"');
	const __m128i	bslash = _mm_set1_epi8('\\');
	const __m128i	space = _mm_set1_epi8(0x20);
	__m128i		v;
	int		m;

	while (n - q >= 16) {
		v = _mm_loadu_si128((const __m128i *)(const void *)(b + q));
		m = _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(
		    _mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, bslash)),
		    _mm_cmplt_epi8(v, space)));
		if (m != 0)
			return q + (size_t)__builtin_ctz((unsigned)m);
		q += 16;
	}
#else
	const uint64_t	ones = 0x0101010101010101ULL;
	const uint64_t	high = 0x8080808080808080ULL;
	uint64_t	w, quote, bslash;

	while (n - q >= 8) {
		memcpy(&w, b + q, 8);
		quote = w ^ (ones * '"');
		bslash = w ^ (ones * '\\');
		if ((((quote - ones) & ~quote) | ((bslash - ones) & ~bslash) |
		    ((w - ones * 0x20) & ~w) | w) & high)
			break;
		q += 8;
	}
#endif
	return q;
}

/* Scan the string whose opening quote is at p. 0 or -1. */
static int
jscan_string(struct jscan *js, size_t p)
{
	const unsigned char	*b = (const unsigned char *)js->buf;
	size_t			 n = js->len, q = p + 1, l;
	int			 esc = 0, cp, lo;

	for (;;) {
		/* the common case: plain ASCII, a word at a time */
		q = jscan_plain(b, n, q);
		while (q < n && b[q] >= 0x20 && b[q] < 0x80 && b[q] != '"' &&
		    b[q] != '\\')
			q++;
		if (q == n) {
			jscan_fail(js, q, "premature end of input in string");
			return -1;
		}
		if (b[q] == '"')
			break;
		if (b[q] < 0x20) {
			jscan_fail(js, q, "control character in string");
			return -1;
		}
		if (b[q] >= 0x80) {
			if ((l = jscan_utf8(b + q, n - q)) == 0) {
				jscan_fail(js, q, "invalid UTF-8");
				return -1;
			}
			q += l;
			continue;
		}
		/* a backslash */
		esc = 1;
		if (++q == n) {
			jscan_fail(js, q, "premature end of input in string");
			return -1;
		}
		switch (b[q]) {
		case '"': case '\\': case '/': case 'b': case 'f': case 'n':
		case 'r': case 't':
			q++;
			continue;
		case 'u':
			break;
		default:
			jscan_fail(js, q, "invalid escape");
			return -1;
		}
		if ((cp = jscan_hex4(js->buf, n, q + 1)) == -1) {
			jscan_fail(js, q, "invalid \\u escape");
			return -1;
		}
		q += 5;
		if (cp == 0) {
			jscan_fail(js, q, "\\u0000 is not allowed");
			return -1;
		}
		if (cp >= 0xdc00 && cp <= 0xdfff) {
			jscan_fail(js, q, "lone low surrogate");
			return -1;
		}
		if (cp >= 0xd800 && cp <= 0xdbff) {
			if (n - q < 6 || b[q] != '\\' || b[q + 1] != 'u' ||
			    (lo = jscan_hex4(js->buf, n, q + 2)) < 0xdc00 ||
			    lo > 0xdfff) {
				jscan_fail(js, q, "lone high surrogate");
				return -1;
			}
			q += 6;
		}
	}
	js->str = js->buf + p + 1;
	js->slen = q - p - 1;
	js->esc = esc;
	js->pos = q + 1;
	return 0;
}

/*
 * Scan the number at p: RFC 8259's grammar, then jansson's ranges (an
 * integer fits a long long, anything else a finite double).
 */
static int
jscan_number(struct jscan *js, size_t p)
{
	const char	*b = js->buf;
	char		 copy[JSCAN_MAX_NUMBER + 1];
	size_t		 n = js->len, q = p, l;
	int		 integer = 1;
	double		 d;

	if (q < n && b[q] == '-')
		q++;
	if (q < n && b[q] == '0')
		q++;
	else if (q < n && b[q] >= '1' && b[q] <= '9') {
		while (q < n && b[q] >= '0' && b[q] <= '9')
			q++;
	} else
		goto bad;
	if (q < n && b[q] == '.') {
		integer = 0;
		if (++q == n || b[q] < '0' || b[q] > '9')
			goto bad;
		while (q < n && b[q] >= '0' && b[q] <= '9')
			q++;
	}
	if (q < n && (b[q] == 'e' || b[q] == 'E')) {
		integer = 0;
		q++;
		if (q < n && (b[q] == '+' || b[q] == '-'))
			q++;
		if (q == n || b[q] < '0' || b[q] > '9')
			goto bad;
		while (q < n && b[q] >= '0' && b[q] <= '9')
			q++;
	}
	l = q - p;
	if (l > JSCAN_MAX_NUMBER) {
		/* an integer this long overflows anyway */
		jscan_fail(js, p, integer ? "too big integer" :
		    "number too long");
		return -1;
	}
	memcpy(copy, b + p, l);
	copy[l] = '\0';
	errno = 0;
	if (integer) {
		(void)strtoll(copy, NULL, 10);
		if (errno == ERANGE) {
			jscan_fail(js, p, "too big integer");
			return -1;
		}
	} else {
		d = strtod(copy, NULL);
		if (errno == ERANGE && (d == HUGE_VAL || d == -HUGE_VAL)) {
			jscan_fail(js, p, "real number overflow");
			return -1;
		}
	}
	js->str = b + p;
	js->slen = l;
	js->esc = 0;
	js->pos = q;
	return 0;

bad:
	jscan_fail(js, q, "invalid number");
	return -1;
}

/* The value starting at p (after whitespace). */
static enum jscan_tok
jscan_value(struct jscan *js, size_t p)
{
	static const char *const words[] = { "true", "false", "null" };
	static const enum jscan_tok wtok[] = { JSCAN_TRUE, JSCAN_FALSE,
	    JSCAN_NULL };
	const char	*b = js->buf;
	enum jscan_tok	 t;
	size_t		 i, l;

	js->tok = p;
	switch (b[p]) {
	case '{':
	case '[':
		if (js->depth == JSCAN_MAX_DEPTH)
			return jscan_fail(js, p, "nesting deeper than "
			    "JSCAN_MAX_DEPTH (64)");
		js->stack[js->depth++] = (unsigned char)b[p];
		js->pos = p + 1;
		js->state = b[p] == '{' ? JSCAN_ST_KEY_OR_END :
		    JSCAN_ST_VALUE_OR_END;
		return b[p] == '{' ? JSCAN_OBJECT : JSCAN_ARRAY;
	case '"':
		if (jscan_string(js, p) == -1)
			return JSCAN_ERROR;
		t = JSCAN_STRING;
		break;
	case 't':
	case 'f':
	case 'n':
		i = b[p] == 't' ? 0 : b[p] == 'f' ? 1 : 2;
		l = strlen(words[i]);
		if (js->len - p < l || memcmp(b + p, words[i], l) != 0)
			return jscan_fail(js, p, "invalid token");
		js->pos = p + l;
		t = wtok[i];
		break;
	default:
		if (b[p] != '-' && (b[p] < '0' || b[p] > '9'))
			return jscan_fail(js, p, "invalid token");
		if (jscan_number(js, p) == -1)
			return JSCAN_ERROR;
		t = JSCAN_NUMBER;
		break;
	}
	/*
	 * jansson's lexer reads one character past a number or a literal and
	 * puts it back; a NUL byte put back is lost (its stream buffer takes
	 * NUL for empty). So one NUL right after these is skipped, as there.
	 */
	if (t != JSCAN_STRING && js->pos < js->len && b[js->pos] == '\0')
		js->pos++;
	js->state = js->depth > 0 ? JSCAN_ST_AFTER : JSCAN_ST_DONE;
	return t;
}

enum jscan_tok
jscan_next(struct jscan *js)
{
	const char	*b = js->buf;
	size_t		 n = js->len, p;
	char		 c, want;

	if (js->state == JSCAN_ST_ERROR)
		return JSCAN_ERROR;
	p = jscan_ws(b, n, js->pos);
	if (js->state == JSCAN_ST_DONE) {
		if (p != n)
			return jscan_fail(js, p, "end of file expected");
		js->pos = js->tok = p;
		return JSCAN_END;
	}
	if (p == n)
		return jscan_fail(js, p, "premature end of input");
	c = b[p];
	switch (js->state) {
	case JSCAN_ST_AFTER:
		if (c != ',')
			goto close;
		if ((p = jscan_ws(b, n, p + 1)) == n)
			return jscan_fail(js, p, "premature end of input");
		c = b[p];
		if (js->stack[js->depth - 1] == '{')
			goto key;
		return jscan_value(js, p);
	case JSCAN_ST_KEY_OR_END:
		if (c == '}')
			goto close;
		goto key;
	case JSCAN_ST_KEY:
		goto key;
	case JSCAN_ST_VALUE_OR_END:
		if (c == ']')
			goto close;
		return jscan_value(js, p);
	default:
		return jscan_value(js, p);
	}

close:
	want = js->stack[js->depth - 1] == '{' ? '}' : ']';
	if (c != want)
		return jscan_fail(js, p, want == '}' ? "',' or '}' expected" :
		    "',' or ']' expected");
	js->depth--;
	js->tok = p;
	js->pos = p + 1;
	js->state = js->depth > 0 ? JSCAN_ST_AFTER : JSCAN_ST_DONE;
	return want == '}' ? JSCAN_OBJECT_END : JSCAN_ARRAY_END;

key:
	if (c != '"')
		return jscan_fail(js, p, "string or '}' expected");
	js->tok = p;
	if (jscan_string(js, p) == -1)
		return JSCAN_ERROR;
	p = jscan_ws(b, n, js->pos);
	if (p == n || b[p] != ':')
		return jscan_fail(js, p, "':' expected");
	js->pos = p + 1;
	js->state = JSCAN_ST_VALUE;
	return JSCAN_KEY;
}

int
jscan_skip(struct jscan *js)
{
	return jscan_finish(js, jscan_next(js));
}

int
jscan_finish(struct jscan *js, enum jscan_tok t)
{
	switch (t) {
	case JSCAN_ERROR:
		return -1;
	case JSCAN_OBJECT:
	case JSCAN_ARRAY:
		return jscan_close(js);
	case JSCAN_STRING:
	case JSCAN_NUMBER:
	case JSCAN_TRUE:
	case JSCAN_FALSE:
	case JSCAN_NULL:
		return 0;
	default:
		jscan_fail(js, js->tok, "value expected");
		return -1;
	}
}

int
jscan_close(struct jscan *js)
{
	int	depth = js->depth;

	while (js->depth >= depth)
		if (jscan_next(js) == JSCAN_ERROR)
			return -1;
	return 0;
}

void
jscan_where(const struct jscan *js, int *line, int *column)
{
	size_t	i, start = 0;
	int	l = 1;

	for (i = 0; i < js->errpos && i < js->len; i++) {
		if (js->buf[i] == '\n') {
			l++;
			start = i + 1;
		}
	}
	*line = l;
	*column = (int)(js->errpos - start + 1);
}

/* Append code point cp to d as UTF-8; the new end. */
static char *
jscan_put(char *d, unsigned long cp)
{
	if (cp < 0x80)
		*d++ = (char)cp;
	else if (cp < 0x800) {
		*d++ = (char)(0xc0 | cp >> 6);
		*d++ = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		*d++ = (char)(0xe0 | cp >> 12);
		*d++ = (char)(0x80 | (cp >> 6 & 0x3f));
		*d++ = (char)(0x80 | (cp & 0x3f));
	} else {
		*d++ = (char)(0xf0 | cp >> 18);
		*d++ = (char)(0x80 | (cp >> 12 & 0x3f));
		*d++ = (char)(0x80 | (cp >> 6 & 0x3f));
		*d++ = (char)(0x80 | (cp & 0x3f));
	}
	return d;
}

/*
 * An escape never unescapes to more bytes than it takes ("\uXXXX" is 6
 * bytes for at most 3, a pair 12 for 4), so n + 1 bytes always do.
 */
size_t
jscan_unescape(const char *s, size_t n, char *out)
{
	char		*d = out;
	const char	*e;
	size_t		 i = 0;
	int		 cp, lo;

	while (i < n) {
		if (s[i] != '\\') {
			if ((e = memchr(s + i, '\\', n - i)) == NULL)
				e = s + n;
			memcpy(d, s + i, e - (s + i));
			d += e - (s + i);
			i = e - s;
			continue;
		}
		if (++i == n)
			goto bad;
		switch (s[i++]) {
		case '"': *d++ = '"'; continue;
		case '\\': *d++ = '\\'; continue;
		case '/': *d++ = '/'; continue;
		case 'b': *d++ = '\b'; continue;
		case 'f': *d++ = '\f'; continue;
		case 'n': *d++ = '\n'; continue;
		case 'r': *d++ = '\r'; continue;
		case 't': *d++ = '\t'; continue;
		case 'u': break;
		default: goto bad;
		}
		if ((cp = jscan_hex4(s, n, i)) <= 0 ||
		    (cp >= 0xdc00 && cp <= 0xdfff))
			goto bad;
		i += 4;
		if (cp >= 0xd800 && cp <= 0xdbff) {
			if (n - i < 6 || s[i] != '\\' || s[i + 1] != 'u' ||
			    (lo = jscan_hex4(s, n, i + 2)) < 0xdc00 ||
			    lo > 0xdfff)
				goto bad;
			i += 6;
			d = jscan_put(d, 0x10000 + (((unsigned long)cp - 0xd800)
			    << 10 | ((unsigned long)lo - 0xdc00)));
		} else
			d = jscan_put(d, (unsigned long)cp);
	}
	*d = '\0';
	return (size_t)(d - out);

bad:
	*out = '\0';
	return (size_t)-1;
}

char *
jscan_string_dup(const char *s, size_t n, size_t *len)
{
	char	*out = xmalloc(n + 1);
	size_t	 l;

	if ((l = jscan_unescape(s, n, out)) == (size_t)-1) {
		free(out);
		return NULL;
	}
	if (len != NULL)
		*len = l;
	return out;
}
