/*
 * The fence's reading of text: sets of words, a reply's tokens and
 * sentences' words, numbers in digits and in words, versions, and the
 * markup, links, alphabets and digits no spoken text holds.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <unictype.h>
#include <uninorm.h>
#include <unistr.h>

#include "buf.h"
#include "fence.h"
#include "fence_int.h"
#include "log.h"
#include "text.h"
#include "xmalloc.h"

int
fence_in(const char *const *v, size_t n, const char *s)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (strcmp(v[i], s) == 0)
			return 1;
	return 0;
}

static int
fence_strcmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void
fence_set_add(struct fence_set *s, const char *p, size_t len)
{
	s->v = xreallocarray(s->v, s->n + 1, sizeof(*s->v));
	s->v[s->n++] = xstrndup(p, len);
	s->sorted = 0;
}

void
fence_set_sort(struct fence_set *s)
{
	size_t	i, j;

	if (s->sorted)
		return;
	if (s->n > 0)
		qsort(s->v, s->n, sizeof(*s->v), fence_strcmp);
	for (i = j = 0; i < s->n; i++) {
		if (j > 0 && strcmp(s->v[j - 1], s->v[i]) == 0)
			free(s->v[i]);
		else
			s->v[j++] = s->v[i];
	}
	s->n = j;
	s->sorted = 1;
}

int
fence_set_has(const struct fence_set *s, const char *p, size_t len)
{
	char	 stack[FENCE_MAX_TOKEN + 1], *key = stack;

	if (len > FENCE_MAX_TOKEN)
		return 0;
	memcpy(key, p, len);
	key[len] = '\0';
	return s->n > 0 && bsearch(&key, s->v, s->n, sizeof(*s->v),
	    fence_strcmp) != NULL;
}

void
fence_set_free(struct fence_set *s)
{
	size_t	i;

	for (i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

/*
 * Whether the byte at p starts a letter or digit of a word: ASCII
 * alphanumerics, and any non-ASCII character but the General Punctuation
 * block (U+2000-U+206F: dashes, curly quotes, the ellipsis).
 */
int
fence_wordc(const char *p)
{
	const unsigned char	*u = (const unsigned char *)p;

	if (u[0] < 0x80)
		return isalnum(u[0]);
	if (u[0] == 0xe2 && (u[1] == 0x80 || u[1] == 0x81))
		return 0;
	return 1;
}

/* The length of the character at p (a UTF-8 lead byte and its tail). */
size_t
fence_clen(const char *p)
{
	size_t	n = 1;

	while (((unsigned char)p[n] & 0xc0) == 0x80)
		n++;
	return n;
}

/* Punctuation a token may open with or close with. */
static size_t
fence_punct(const char *p, size_t left, int closing)
{
	const char *const	 multi[] = { "\xe2\x80\x9c", "\xe2\x80\x98",
	    "\xe2\x80\x9d", "\xe2\x80\x99", "\xe2\x80\xa6" };
	size_t			 i;

	if (left == 0)
		return 0;
	if (strchr(closing ? ".,;:!?\"')]}>" : "\"'([{<", *p) != NULL)
		return 1;
	for (i = 0; i < NELEM(multi); i++)
		if (left >= 3 && memcmp(p, multi[i], 3) == 0)
			return 3;
	return 0;
}

/*
 * The next token at or after *pp; 0 at the end. A token that ends a
 * sentence (its last mark ".", "!", "?" or ":") makes the next one
 * initial, as does a blank line, a lone dash, or the start.
 */
int
fence_next(const char **pp, struct fence_tok *t, int *initial)
{
	const char	*p = *pp, *s, *e;
	size_t		 n;
	int		 ends = 0;

	while (*p != '\0' && isspace((unsigned char)*p)) {
		if (*p == '\n' && p[1] == '\n')
			*initial = 1;
		p++;
	}
	if (*p == '\0')
		return 0;
	s = p;
	while (*p != '\0' && !isspace((unsigned char)*p))
		p++;
	*pp = p;
	e = p;
	/* the marks closing it, one at a time from the end */
	while (e > s) {
		if (strchr(".,;:!?\"')]}>", e[-1]) != NULL) {
			if (strchr(".!?:", e[-1]) != NULL)
				ends = 1;
			e--;
		} else if (e - s >= 3 && fence_punct(e - 3, 3, 1) == 3)
			e -= 3;
		else
			break;
	}
	while (s < e && (n = fence_punct(s, (size_t)(e - s), 0)) > 0)
		s += n;
	t->p = s;
	t->len = (size_t)(e - s);
	t->initial = *initial;
	/* a lone dash or mark leaves the next word a sentence's first */
	if (t->len == 0 || (t->len <= 3 && !fence_wordc(t->p)))
		*initial = *initial || ends ||
		    (e - s <= 3 && (s[0] == '-' || (unsigned char)s[0] == 0xe2));
	else
		*initial = ends;
	return 1;
}

/*
 * The next word of [*pp, e), lower case, into lw (FENCE_MAX_TOKEN + 1
 * bytes, NUL-ended); its length, or 0 at the end. A character cut by the
 * end is not read past it.
 */
size_t
fence_next_word(const char **pp, const char *e, char *lw)
{
	const char	*p = *pp, *w;
	size_t		 i, n;

	while (p < e && !fence_wordc(p))
		p += fence_clen(p);
	if (p >= e) {
		*pp = e;
		return 0;
	}
	for (w = p; p < e && fence_wordc(p); p += fence_clen(p))
		;
	if (p > e)
		p = e;
	*pp = p;
	n = (size_t)(p - w);
	if (n > FENCE_MAX_TOKEN)
		n = FENCE_MAX_TOKEN;
	for (i = 0; i < n; i++)
		lw[i] = (char)tolower((unsigned char)w[i]);
	lw[n] = '\0';
	return n;
}

/* Add the lower-case words of [p, p+len) to s. */
void
fence_add_words(struct fence_set *s, const char *p, size_t len)
{
	const char	*e = p + len;
	char		 lw[FENCE_MAX_TOKEN + 1];
	size_t		 n;

	while ((n = fence_next_word(&p, e, lw)) > 0)
		fence_set_add(s, lw, n);
}

/* The number words and what they stand for. */
static const struct {
	const char	*word;
	int		 value;		/* -100: times a hundred, and so on */
} fence_numwords[] = {
	{ "zero", 0 }, { "one", 1 }, { "two", 2 }, { "three", 3 },
	{ "four", 4 }, { "five", 5 }, { "six", 6 }, { "seven", 7 },
	{ "eight", 8 }, { "nine", 9 }, { "ten", 10 }, { "eleven", 11 },
	{ "twelve", 12 }, { "thirteen", 13 }, { "fourteen", 14 },
	{ "fifteen", 15 }, { "sixteen", 16 }, { "seventeen", 17 },
	{ "eighteen", 18 }, { "nineteen", 19 }, { "twenty", 20 },
	{ "thirty", 30 }, { "forty", 40 }, { "fifty", 50 }, { "sixty", 60 },
	{ "seventy", 70 }, { "eighty", 80 }, { "ninety", 90 },
	{ "hundred", -100 }, { "thousand", -1000 }, { "million", -1000000 },
	{ "billion", -1000000000 },
};

/* The value of a number word of len bytes at p, or INT32_MIN if none. */
int
fence_numword(const char *p, size_t len, int *value)
{
	size_t	i;

	for (i = 0; i < NELEM(fence_numwords); i++)
		if (strlen(fence_numwords[i].word) == len &&
		    strncasecmp(fence_numwords[i].word, p, len) == 0) {
			*value = fence_numwords[i].value;
			return 1;
		}
	return 0;
}

/*
 * Call fn for each number text says in words ("twenty-one", "three
 * hundred and five"): runs of number words joined by blanks, hyphens or
 * "and".
 */
void
fence_spoken(const char *text, void (*fn)(void *, double), void *arg)
{
	const char	*p = text, *w, *gap = NULL;
	double		 total = 0, cur = 0;
	size_t		 n;
	int		 v, in = 0, pending_and = 0;

	for (;;) {
		while (*p != '\0' && !fence_wordc(p))
			p += fence_clen(p);
		w = p;
		while (*p != '\0' && fence_wordc(p))
			p += fence_clen(p);
		n = (size_t)(p - w);
		if (in) {
			const char *g;
			int blank = 1;

			for (g = gap; g < w; g++)
				if (*g != ' ' && *g != '-')
					blank = 0;
			if (n > 0 && blank && n == 3 &&
			    strncasecmp(w, "and", 3) == 0 && !pending_and) {
				pending_and = 1;
				gap = p;
				continue;
			}
			if (n == 0 || !blank || !fence_numword(w, n, &v)) {
				fn(arg, total + cur);
				in = 0;
			}
		}
		pending_and = 0;
		if (n == 0)
			break;
		if (!fence_numword(w, n, &v)) {
			gap = p;
			continue;
		}
		if (!in) {
			total = cur = 0;
			in = 1;
		}
		if (v >= 0)
			cur += v;
		else if (v == -100)
			cur = (cur == 0 ? 1 : cur) * 100;
		else {
			total += (cur == 0 ? 1 : cur) * -(double)v;
			cur = 0;
		}
		gap = p;
	}
}

/*
 * The number a token of digits says ("1,200", "1.7x", "35%", "4th"):
 * digits with commas between groups, a decimal part, and at most three
 * letters or a '%' after. 1 and *value, or 0 when it is no such number.
 */
int
fence_digits(const char *p, size_t len, double *value)
{
	char	 num[64];
	size_t	 i = 0, n = 0, tail;
	int	 dot = 0;

	if (len == 0 || !isdigit((unsigned char)p[0]))
		return 0;
	for (; i < len; i++) {
		if (isdigit((unsigned char)p[i])) {
			if (n + 1 >= sizeof(num))
				return 0;
			num[n++] = p[i];
		} else if (p[i] == ',' && i + 1 < len &&
		    isdigit((unsigned char)p[i + 1]) && !dot)
			continue;
		else if (p[i] == '.' && !dot && i + 1 < len &&
		    isdigit((unsigned char)p[i + 1])) {
			dot = 1;
			num[n++] = '.';
		} else
			break;
	}
	tail = len - i;
	if (tail > 3)
		return 0;
	for (; i < len; i++)
		if (!isalpha((unsigned char)p[i]) && p[i] != '%')
			return 0;
	num[n] = '\0';
	*value = strtod(num, NULL);
	return 1;
}

/* Does text hold needle as whole words, any case? */
const char *
fence_find_word(const char *text, const char *needle)
{
	const char	*p = text;
	size_t		 n = strlen(needle);

	if (n == 0)
		return NULL;
	while ((p = strcasestr(p, needle)) != NULL) {
		if ((p == text || !fence_wordc(p - 1)) &&
		    (p[n] == '\0' || !fence_wordc(p + n)))
			return p;
		p++;
	}
	return NULL;
}

char *
fence_normalize(const char *s)
{
	uint8_t	*u;
	size_t	 len = strlen(s), n;
	char	*out;

	if (u8_check((const uint8_t *)s, len) != NULL)
		return NULL;
	if (len == 0)
		return xstrdup("");
	if ((u = u8_normalize(UNINORM_NFKC, (const uint8_t *)s, len, NULL,
	    &n)) == NULL)
		fatal("%s: u8_normalize", __func__);
	out = xmalloc(n + 1);
	memcpy(out, u, n);
	out[n] = '\0';
	free(u);
	return out;
}

/* Set *detail to "what: 'text'" (new), text cut short. */
const char *
fence_fail(char **detail, const char *reason, const char *what,
    const char *p, size_t len)
{
	if (detail != NULL) {
		if (len > 60)
			len = 60;
		if (p != NULL)
			xasprintf(detail, "%s: \"%.*s\"", what, (int)len, p);
		else
			*detail = xstrdup(what);
	}
	return reason;
}

/*
 * Markup a page or a voice would obey, which no spoken text holds (the
 * drafter's is made so by spoken_clean): a tag ("<script>", "<b>",
 * "<break/>"), espeak's phonemes ("[[h@'loU]]") and an entity ("&amp;").
 * A reply with any is refused, not stripped: a model that writes markup
 * was not told what it was told, and the draft is told instead.
 */
const char *
fence_tags(const char *reply, char **detail)
{
	const char	*p, *q;

	for (p = reply; *p != '\0'; p++) {
		if (p[0] == '<' && p[1] != '\0' && (isalpha((unsigned char)p[1])
		    || strchr("/!?", p[1]) != NULL))
			return fence_fail(detail, "tag", "a tag", p, 20);
		if ((p[0] == '[' || p[0] == ']') && p[1] == p[0])
			return fence_fail(detail, "tag", "a voice's phonemes",
			    p, 20);
		if (p[0] != '&')
			continue;
		for (q = p + 1; isalnum((unsigned char)*q) || (q == p + 1 &&
		    *q == '#'); q++)
			if (q - p > 16)
				break;
		if (*q == ';' && q - p > 2)
			return fence_fail(detail, "tag", "an entity", p,
			    (size_t)(q + 1 - p));
	}
	return NULL;
}

/*
 * A link, as text_link_len finds one (the rule every spoken text is
 * held to): an address is refused as "email", any other as "url".
 */
const char *
fence_links(const char *reply, char **detail)
{
	const char	*p;
	size_t		 n;

	for (p = reply; *p != '\0'; p++) {
		if ((p > reply && text_isword(p[-1])) ||
		    (n = text_link_len(p, p > reply ? p[-1] : 0)) == 0)
			continue;
		if (memchr(p, '@', n) != NULL && memchr(p, '/', n) == NULL &&
		    memchr(p, ':', n) == NULL)
			return fence_fail(detail, "email", "an address", p, n);
		return fence_fail(detail, "url", "a URL", p, n);
	}
	return NULL;
}

/*
 * The alphabet of a letter among those whose letters look alike (a bit
 * each: Latin, Greek, Cyrillic, Armenian, Cherokee), or 0.
 */
static int
fence_alphabet(ucs4_t uc)
{
	static const char *const names[] = { "Latin", "Greek", "Cyrillic",
	    "Armenian", "Cherokee" };
	const uc_script_t	*sc;
	size_t			 i;

	if (uc < 0x80)
		return isalpha((int)uc) ? 1 : 0;
	/* the micro sign, NFKC's Greek mu: "5 \xce\xbcs" is a unit */
	if (uc == 0x3bc)
		return 0;
	if ((sc = uc_script(uc)) == NULL)
		return 0;
	for (i = 0; i < NELEM(names); i++)
		if (strcmp(sc->name, names[i]) == 0)
			return 1 << i;
	return 0;
}

/*
 * What a reader cannot see but a listener or a check would get wrong: a
 * word mixing look-alike alphabets ("\xd0\x90lice", a Cyrillic A before
 * Latin letters: no one's name, yet it reads as one), and a digit that
 * is not ASCII ("\xd9\xa9\xd9\xa9 seconds": a number the number check
 * cannot read). The reply is NFKC: fullwidth letters and digits are
 * ASCII already. Letters of one script, any script, pass ("\xe5\xb1\xb1
 * \xe7\x94\xb0" as the facts write it).
 */
const char *
fence_scripts(const char *reply, char **detail)
{
	const uint8_t	*p = (const uint8_t *)reply, *end, *w = NULL, *e;
	ucs4_t		 uc;
	int		 n, mask = 0;

	end = p + strlen(reply);
	while (p < end) {
		n = u8_mbtouc(&uc, p, (size_t)(end - p));
		if (uc >= 0x80 && uc_is_general_category(uc,
		    UC_DECIMAL_DIGIT_NUMBER))
			return fence_fail(detail, "digits", "a digit not in "
			    "ASCII", (const char *)p, (size_t)n);
		if (uc_is_general_category(uc, UC_LETTER) ||
		    uc_is_general_category(uc, UC_MARK) ||
		    (uc < 0x80 && isdigit((int)uc))) {
			if (w == NULL) {
				w = p;
				mask = 0;
			}
			mask |= fence_alphabet(uc);
			if ((mask & (mask - 1)) != 0) {
				for (e = p; e < end && !isspace(*e); e++)
					/* nothing */;
				return fence_fail(detail, "script", "a word "
				    "mixing alphabets", (const char *)w,
				    (size_t)(e - w));
			}
		} else
			w = NULL;
		p += n;
	}
	return NULL;
}

/*
 * Whether the token at p opens as a name does: an ASCII capital, a
 * capital of another alphabet, or a letter of a script without case (a
 * CJK name): the facts must hold it.
 */
int
fence_capital(const char *p)
{
	ucs4_t	uc;

	if ((unsigned char)*p < 0x80)
		return isupper((unsigned char)*p);
	u8_mbtouc(&uc, (const uint8_t *)p, strnlen(p, 4));
	return uc_is_general_category(uc, UC_UPPERCASE_LETTER) ||
	    uc_is_general_category(uc, UC_TITLECASE_LETTER) ||
	    uc_is_general_category(uc, UC_OTHER_LETTER);
}

/* Whether a token looks like an identifier or a setting, not a word. */
int
fence_identifier(const char *p, size_t len)
{
	size_t	i;

	if (len >= 2 && p[0] == '-' && (isalpha((unsigned char)p[1]) ||
	    p[1] == '-'))
		return 1;
	for (i = 0; i < len; i++) {
		if (p[i] == '_' || p[i] == '=')
			return 1;
		if (i + 1 < len && ((p[i] == ':' && p[i + 1] == ':') ||
		    (p[i] == '-' && p[i + 1] == '>') ||
		    (p[i] == '(' && p[i + 1] == ')')))
			return 1;
		/* "os.path", not "3.5" */
		if (p[i] == '.' && i > 0 && i + 1 < len &&
		    isalnum((unsigned char)p[i - 1]) &&
		    isalpha((unsigned char)p[i + 1]))
			return 1;
		/* camelCase */
		if (i > 0 && isupper((unsigned char)p[i]) &&
		    islower((unsigned char)p[i - 1]))
			return 1;
	}
	return 0;
}

/* A hash: seven or more hex digits, at least one a digit and one a letter. */
int
fence_hash(const char *p, size_t len)
{
	size_t	i;
	int	digit = 0, letter = 0;

	if (len < 7)
		return 0;
	for (i = 0; i < len; i++) {
		if (isdigit((unsigned char)p[i]))
			digit = 1;
		else if (strchr("abcdefABCDEF", p[i]) != NULL)
			letter = 1;
		else
			return 0;
	}
	return digit && letter;
}

/* The token without a possessive "'s" or "’s". */
size_t
fence_base(const char *p, size_t len, int *possessive)
{
	*possessive = 0;
	if (len > 2 && p[len - 2] == '\'' && tolower((unsigned char)
	    p[len - 1]) == 's') {
		*possessive = 1;
		return len - 2;
	}
	if (len > 4 && memcmp(p + len - 4, "\xe2\x80\x99s", 4) == 0) {
		*possessive = 1;
		return len - 4;
	}
	return len;
}

/*
 * A version the token at p says, in the form versions compare in (out,
 * NUL-ended; its length): "v8.2.0", "8.2.0" and "8.2" are all "8.2", the
 * ".0" parts that end it cut. With strict, a token of one dot and no
 * "v" ("1.7") is no version: it is a decimal, read as a number. 0 when
 * the token is not one.
 */
size_t
fence_version(const char *p, size_t len, char *out, size_t size, int strict)
{
	size_t	i = 0, n = 0, dots = 0;
	int	v = 0;

	if (len > 0 && (p[0] == 'v' || p[0] == 'V')) {
		v = 1;
		i = 1;
	}
	if (i >= len || !isdigit((unsigned char)p[i]))
		return 0;
	for (; i < len; i++) {
		if (p[i] == '.' && i + 1 < len && isdigit((unsigned char)
		    p[i + 1]) && n > 0 && out[n - 1] != '.')
			dots++;
		else if (!isdigit((unsigned char)p[i]))
			return 0;
		if (n + 1 >= size)
			return 0;
		out[n++] = p[i];
	}
	if (dots == 0 || (strict && dots < 2 && !v))
		return 0;
	out[n] = '\0';
	while (n > 2 && out[n - 1] == '0' && out[n - 2] == '.') {
		n -= 2;
		out[n] = '\0';
	}
	return n;
}

/* Whether the token is in the facts, any case, as a whole piece of them. */
int
fence_in_text(const char *text, const char *p, size_t len)
{
	const char	*q = text;
	char		*needle = xstrndup(p, len);
	int		 found = 0;

	while (!found && (q = strcasestr(q, needle)) != NULL) {
		if ((q == text || (!isalnum((unsigned char)q[-1]) &&
		    q[-1] != '_')) && !isalnum((unsigned char)q[len]) &&
		    q[len] != '_')
			found = 1;
		q++;
	}
	free(needle);
	return found;
}

/* The letters and digits of a text, lower case (new). */
char *
fence_squeeze(const char *p, size_t len)
{
	char	*s = xmalloc(len + 1);
	size_t	 i, n = 0;

	for (i = 0; i < len; i++)
		if (isalnum((unsigned char)p[i]))
			s[n++] = (char)tolower((unsigned char)p[i]);
	s[n] = '\0';
	return s;
}

/* Whether a sorted set holds a word that starts with the n bytes at p. */
int
fence_prefix(const struct fence_set *s, const char *p, size_t n)
{
	size_t	lo = 0, hi = s->n, mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (strncmp(s->v[mid], p, n) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->n && strncmp(s->v[lo], p, n) == 0;
}
