/* Spoken forms of numbers, ordinals, dates, counts, lists and durations. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "record.h"
#include "spoken.h"

static const char *spoken_ones[] = {
	"zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
	"nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen",
	"sixteen", "seventeen", "eighteen", "nineteen"
};

static const char *spoken_tens[] = {
	"", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy",
	"eighty", "ninety"
};

static const char *spoken_scales[] = {
	"", "thousand", "million", "billion", "trillion", "quadrillion",
	"quintillion"
};

static const char *spoken_months[] = {
	"January", "February", "March", "April", "May", "June", "July",
	"August", "September", "October", "November", "December"
};

/* 1..999 as words. */
static void
spoken_hundreds(struct buf *b, unsigned n)
{
	int	 need_space = 0;

	if (n >= 100) {
		buf_printf(b, "%s hundred", spoken_ones[n / 100]);
		n %= 100;
		need_space = 1;
	}
	if (n == 0)
		return;
	if (need_space)
		buf_putc(b, ' ');
	if (n < 20)
		buf_puts(b, spoken_ones[n]);
	else {
		buf_puts(b, spoken_tens[n / 10]);
		if (n % 10 != 0)
			buf_printf(b, "-%s", spoken_ones[n % 10]);
	}
}

/* 0 -> "zero", 30 -> "thirty", 1204 -> "one thousand two hundred four". */
void
spoken_number(struct buf *b, long long n)
{
	unsigned long long	 u, scale;
	unsigned		 groups[7];
	int			 ngroups = 0, i, first = 1;

	if (n == 0) {
		buf_puts(b, "zero");
		return;
	}
	if (n < 0) {
		buf_puts(b, "minus ");
		u = 0ULL - (unsigned long long)n;
	} else
		u = (unsigned long long)n;

	while (u > 0 && ngroups < 7) {
		groups[ngroups++] = (unsigned)(u % 1000);
		u /= 1000;
	}
	for (i = ngroups - 1; i >= 0; i--) {
		if (groups[i] == 0)
			continue;
		if (!first)
			buf_putc(b, ' ');
		first = 0;
		spoken_hundreds(b, groups[i]);
		scale = (unsigned long long)i;
		if (scale > 0)
			buf_printf(b, " %s", spoken_scales[scale]);
	}
}

/* 1 -> "first", 9 -> "ninth", 23 -> "twenty-third". */
void
spoken_ordinal_word(struct buf *b, long long n)
{
	static const struct {
		const char	*cardinal;
		const char	*ordinal;
	} irregular[] = {
		{ "one", "first" }, { "two", "second" }, { "three", "third" },
		{ "five", "fifth" }, { "eight", "eighth" }, { "nine", "ninth" },
		{ "twelve", "twelfth" },
	};
	struct buf	 tmp;
	const char	*s, *last;
	size_t		 len, i, stem;

	buf_init(&tmp);
	spoken_number(&tmp, n);
	s = buf_str(&tmp);
	len = strlen(s);
	last = s;
	for (i = 0; i < len; i++) {
		if (s[i] == ' ' || s[i] == '-')
			last = s + i + 1;
	}
	stem = (size_t)(last - s);
	buf_append(b, s, stem);
	for (i = 0; i < sizeof irregular / sizeof irregular[0]; i++) {
		if (strcmp(last, irregular[i].cardinal) == 0) {
			buf_puts(b, irregular[i].ordinal);
			buf_free(&tmp);
			return;
		}
	}
	len = strlen(last);
	if (len > 0 && last[len - 1] == 'y') {
		buf_append(b, last, len - 1);
		buf_puts(b, "ieth");
	} else {
		buf_puts(b, last);
		buf_puts(b, "th");
	}
	buf_free(&tmp);
}

/* 4 -> "4th", 22 -> "22nd", 11 -> "11th". */
void
spoken_ordinal_digits(struct buf *b, long long n)
{
	unsigned long long	 u;
	const char		*suffix = "th";

	u = n < 0 ? 0ULL - (unsigned long long)n : (unsigned long long)n;
	if (u % 100 < 11 || u % 100 > 13) {
		switch (u % 10) {
		case 1:
			suffix = "st";
			break;
		case 2:
			suffix = "nd";
			break;
		case 3:
			suffix = "rd";
			break;
		}
	}
	buf_printf(b, "%lld%s", n, suffix);
}

/* (2026, 4, 4) -> "April 4th, 2026". month 1..12. */
void
spoken_date(struct buf *b, int year, int month, int mday)
{
	if (month < 1 || month > 12) {
		buf_printf(b, "%04d-%02d-%02d", year, month, mday);
		return;
	}
	buf_printf(b, "%s ", spoken_months[month - 1]);
	spoken_ordinal_digits(b, mday);
	buf_printf(b, ", %d", year);
}

/* n and the noun, singular or plural: (3, "commit", "commits") -> "three commits". */
void
spoken_count(struct buf *b, long long n, const char *one, const char *many)
{
	spoken_number(b, n);
	buf_putc(b, ' ');
	buf_puts(b, (n == 1 || n == -1) ? one : many);
}

/* {"A","B","C"} -> "A, B and C"; {"A","B"} -> "A and B". */
void
spoken_list(struct buf *b, const char *const *items, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (i > 0)
			buf_puts(b, i == n - 1 ? " and " : ", ");
		buf_puts(b, items[i]);
	}
}

/* 261 -> "PT4M21S"; 0 -> "PT0S"; 3600 -> "PT1H". */
void
iso_duration(struct buf *b, long seconds)
{
	long	h, m, s;

	if (seconds <= 0) {
		buf_puts(b, "PT0S");
		return;
	}
	h = seconds / 3600;
	m = (seconds % 3600) / 60;
	s = seconds % 60;
	buf_puts(b, "PT");
	if (h > 0)
		buf_printf(b, "%ldH", h);
	if (m > 0)
		buf_printf(b, "%ldM", m);
	if (s > 0)
		buf_printf(b, "%ldS", s);
}

size_t
spoken_words(const char *s)
{
	size_t	n = 0;
	int	in = 0;

	for (; *s != '\0'; s++) {
		if (isspace((unsigned char)*s))
			in = 0;
		else if (!in) {
			in = 1;
			n++;
		}
	}
	return n;
}

size_t
spoken_said_words(const char *s)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 n = 0;
	int			 prev = 0;	/* 0 none, 1 lower, 2 upper, 3 digit */
	int			 cur;

	for (; *p != '\0'; p++) {
		if (isspace(*p) || *p == '_' || *p == '/' || *p == '-' ||
		    *p == '.' || *p == ':' || *p == '(' || *p == ')') {
			prev = 0;
			continue;
		}
		if (islower(*p) || *p >= 0x80)
			cur = 1;
		else if (isupper(*p))
			cur = 2;
		else if (isdigit(*p))
			cur = 3;
		else
			continue;	/* other punctuation is not said */
		/* a new part: after a break, at a digit edge, at "aB" */
		if (prev == 0 || (cur == 3) != (prev == 3) ||
		    (cur == 2 && prev == 1))
			n++;
		prev = cur;
	}
	return n;
}

/* The longest tag spoken_clean takes for one ("<a href=...>"). */
#define SPOKEN_TAG_MAX	512

/* Whether c may be in a tag's name as spoken (a name, URL or address). */
static int
spoken_tag_char(int c)
{
	return isalnum(c) || c >= 0x80 || strchr("-_.:/@", c) != NULL;
}

/*
 * At p, a '<' followed by a letter, '/', '!' or '?': write what is said
 * of the tag it starts at *op and return where the text resumes. A tag
 * closed on its line says its name; a comment, declaration or processing
 * instruction says nothing; an unclosed one loses its '<'.
 */
static const unsigned char *
spoken_tag(const unsigned char *p, unsigned char *start, unsigned char **op)
{
	const unsigned char	*q, *name, *end;
	unsigned char		*o = *op;

	for (q = p + 1; *q != '\0' && *q != '>' && *q != '<' && *q != '\n' &&
	    q - p < SPOKEN_TAG_MAX; q++)
		/* nothing */;
	name = p + 1 + (p[1] == '/');
	if (*q != '>' || (p[1] != '!' && p[1] != '?' && !isalpha(*name)))
		return p + 1;
	if (p[1] == '!' || p[1] == '?')
		return q + 1;
	for (end = name; end < q && spoken_tag_char(*end); end++)
		/* nothing */;
	while (end > name && end[-1] == '/')
		end--;
	if (o > start && !isspace(o[-1]) && strchr("([{\"'", o[-1]) == NULL)
		*o++ = ' ';
	memmove(o, name, (size_t)(end - name));
	o += end - name;
	if (q[1] != '\0' && !isspace(q[1]) &&
	    strchr(".,;:!?)]}\"'", q[1]) == NULL)
		*o++ = ' ';
	*op = o;
	return q + 1;
}

/*
 * At p, "](": when a "(url)" with balanced parentheses follows on the
 * line and an open '[' (or "![") is in the output on this line, drop both
 * and return where the text resumes after the url; else NULL.
 */
static const unsigned char *
spoken_link(const unsigned char *p, unsigned char *start, unsigned char **op)
{
	const unsigned char	*q;
	unsigned char		*o = *op, *k;
	size_t			 depth = 0, w;

	for (q = p + 1; *q != '\0' && *q != '\n'; q++) {
		if (*q == '(')
			depth++;
		else if (*q == ')' && --depth == 0)
			break;
	}
	if (*q != ')')
		return NULL;
	depth = 0;
	for (k = o; k > start && k[-1] != '\n'; k--) {
		if (k[-1] == ']')
			depth++;
		else if (k[-1] == '[' && depth-- == 0)
			break;
	}
	if (k == start || k[-1] != '[')
		return NULL;
	k--;
	w = 1;
	if (k > start && k[-1] == '!') {
		k--;
		w = 2;
	}
	memmove(k, k + w, (size_t)(o - (k + w)));
	*op = o - w;
	return q + 1;
}

/* Make s spoken text, in place (see spoken.h for the rules). */
void
spoken_clean(char *s)
{
	const unsigned char	*p, *next;
	unsigned char		*start, *o;

	if (s == NULL)
		return;
	record_clean(s, RECORD_CLEAN_LINES);

	/* backticks first, so none can hide a tag or a link from below */
	p = o = start = (unsigned char *)s;
	for (; *p != '\0'; p++) {
		if (*p != '`')
			*o++ = *p;
	}
	*o = '\0';

	/* tags, then links (a dropped tag may join one); output trails input */
	p = o = start;
	while (*p != '\0') {
		if (*p == '<' && (isalpha(p[1]) || p[1] == '/' || p[1] == '!' ||
		    p[1] == '?'))
			p = spoken_tag(p, start, &o);
		else
			*o++ = *p++;
	}
	*o = '\0';
	p = o = start;
	while (*p != '\0') {
		if (p[0] == ']' && p[1] == '(' &&
		    (next = spoken_link(p, start, &o)) != NULL)
			p = next;
		else
			*o++ = *p++;
	}
	*o = '\0';

	/*
	 * Spaces: one between words, none at a line's ends or the text's.
	 * And a last guard: what was dropped above may have left a '<' just
	 * before a letter ("<[b](u)", "<<!"); such a '<' goes, so no tag can
	 * start anywhere.
	 */
	p = o = start;
	for (; *p != '\0'; p++) {
		if (*p == ' ' && (o == start || o[-1] == ' ' || o[-1] == '\n'))
			continue;
		if (isalpha(*p) || *p == '/' || *p == '!' || *p == '?') {
			while (o > start && o[-1] == '<')
				o--;
		}
		if (*p == '\n' && o > start && o[-1] == ' ')
			o--;
		*o++ = *p;
	}
	while (o > start && (o[-1] == ' ' || o[-1] == '\n'))
		o--;
	*o = '\0';
}
