/* Spoken forms of numbers, ordinals, dates, counts, lists and durations. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "date.h"
#include "phrase.h"
#include "record.h"
#include "spoken.h"
#include "text.h"

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

/*
 * An earlier date as said from the day today (a daynum): "earlier today",
 * "yesterday", the weekday within the week ("Monday"), else the month and
 * day ("March 3rd"), with the year when it is not today's.
 */
int
spoken_past_day(struct buf *b, int year, int month, int mday, long today,
    int today_year)
{
	static const char *const weekdays[] = { "Thursday", "Friday",
	    "Saturday", "Sunday", "Monday", "Tuesday", "Wednesday" };
	long	day = date_daynum(year, month, mday);

	if (month < 1 || month > 12 || mday < 1 || mday > 31 || day > today)
		return -1;
	if (day == today) {
		buf_puts(b, "earlier today");
		return 0;
	}
	if (day == today - 1) {
		buf_puts(b, "yesterday");
		return 0;
	}
	if (today - day < 7) {
		/* 1970-01-01 was a Thursday */
		buf_puts(b, weekdays[((day % 7) + 7) % 7]);
		return 1;
	}
	buf_printf(b, "%s ", spoken_months[month - 1]);
	spoken_ordinal_digits(b, mday);
	if (year != today_year)
		buf_printf(b, ", %d", year);
	return 1;
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
 * Elements of SSML, the markup a voice obeys ("<break time='3s'/>",
 * "<prosody rate='x-slow'>"): as tags they say nothing, not even their
 * name, nor does one of a vendor's namespace ("<amazon:effect>").
 */
static const char *const spoken_ssml[] = {
	"speak", "break", "prosody", "say-as", "phoneme", "emphasis", "voice",
	"mark", "lexicon", "lookup", "token", "w", "lang", "desc", "metadata",
	"sub", "audio", "par", "seq", NULL
};

/* Whether the n bytes at name are a tag of spoken_ssml or a namespace's. */
static int
spoken_ssml_tag(const unsigned char *name, size_t n)
{
	size_t	i;

	if (memchr(name, ':', n) != NULL)
		return 1;
	for (i = 0; spoken_ssml[i] != NULL; i++)
		if (strlen(spoken_ssml[i]) == n &&
		    strncasecmp(spoken_ssml[i], (const char *)name, n) == 0)
			return 1;
	return 0;
}

/*
 * At p, a '<' followed by a letter, '/', '!' or '?': write what is said
 * of the tag it starts at *op and return where the text resumes. A tag
 * closed on its line says its name, but for a voice's (spoken_ssml); a
 * comment, declaration or processing instruction says nothing; an
 * unclosed one loses its '<'.
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
	if (spoken_ssml_tag(name, (size_t)(end - name)))
		return q + 1;
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

/*
 * The length of the UTF-8 pictograph at p (an emoji, a dingbat, a
 * variation selector or joiner between them), or 0. Letters of any
 * script are no pictographs.
 */
static size_t
spoken_pictograph(const unsigned char *p)
{
	unsigned long	cp;
	size_t		len;

	if (p[0] < 0xe2)
		return 0;
	if ((p[0] & 0xf0) == 0xe0 && (p[1] & 0xc0) == 0x80 &&
	    (p[2] & 0xc0) == 0x80) {
		cp = (unsigned long)(p[0] & 0x0f) << 12 |
		    (unsigned long)(p[1] & 0x3f) << 6 | (p[2] & 0x3f);
		len = 3;
	} else if ((p[0] & 0xf8) == 0xf0 && (p[1] & 0xc0) == 0x80 &&
	    (p[2] & 0xc0) == 0x80 && (p[3] & 0xc0) == 0x80) {
		cp = (unsigned long)(p[0] & 0x07) << 18 |
		    (unsigned long)(p[1] & 0x3f) << 12 |
		    (unsigned long)(p[2] & 0x3f) << 6 | (p[3] & 0x3f);
		len = 4;
	} else
		return 0;
	if ((cp >= 0x2600 && cp <= 0x27bf) ||	/* symbols, dingbats */
	    (cp >= 0x2b00 && cp <= 0x2bff) ||	/* arrows, stars */
	    cp == 0x200d || cp == 0xfe0f ||	/* joiner, emoji style */
	    (cp >= 0x1f000 && cp <= 0x1faff))	/* emoji */
		return len;
	return 0;
}

/* The entities of HTML and SSML that stand for a character, and it. */
static const struct {
	const char	*name;
	char		 c;
} spoken_entities[] = {
	{ "amp", '&' }, { "lt", '<' }, { "gt", '>' }, { "quot", '"' },
	{ "apos", '\'' }, { "nbsp", ' ' },
};

/*
 * The length of the entity at p ("&amp;", "&#9;": a '&', two to 16
 * letters and digits, or '#' and digits, a ';'), or 0; *c what it
 * stands for, or 0 when it goes without a trace (any other).
 */
static size_t
spoken_entity(const unsigned char *p, char *c)
{
	size_t	n, i;

	for (n = 1; n <= 16 && (isalnum(p[n]) || (n == 1 && p[n] == '#'));
	    n++)
		/* nothing */;
	/* no entity's name is one letter: "R&D;" is no entity */
	if (n <= 2 || p[n] != ';')
		return 0;
	*c = 0;
	for (i = 0; i < sizeof(spoken_entities) / sizeof(spoken_entities[0]);
	    i++)
		if (strlen(spoken_entities[i].name) == n - 1 &&
		    strncmp(spoken_entities[i].name, (const char *)p + 1,
		    n - 1) == 0)
			*c = spoken_entities[i].c;
	return n + 1;
}

/*
 * Entities out of s, in place, said as their character (again until
 * none is left: "&amp;lt;" is "<"): before tags are read, so none hides
 * one.
 */
static void
spoken_entities_clean(unsigned char *start)
{
	const unsigned char	*p;
	unsigned char		*o;
	size_t			 n;
	char			 c;
	int			 again = 1;

	while (again) {
		again = 0;
		p = o = start;
		while (*p != '\0') {
			if (*p == '&' && (n = spoken_entity(p, &c)) > 0) {
				if (c != 0)
					*o++ = (unsigned char)c;
				again |= c == '&';
				p += n;
			} else
				*o++ = *p++;
		}
		*o = '\0';
	}
}

/*
 * espeak's phonemes out of s, in place: "[[h@'loU]]", which it says as a
 * word no transcript shows, dropped whole; a "[[" or "]]" left alone is
 * one bracket. After Markdown links are read ("[[a](b)](c)" is one).
 */
static void
spoken_phonemes_clean(unsigned char *start)
{
	const unsigned char	*p, *q;
	unsigned char		*o;

	p = o = start;
	while (*p != '\0') {
		if (p[0] == '[' && p[1] == '[') {
			for (q = p + 2; *q != '\0' && *q != '\n' &&
			    !(q[0] == ']' && q[1] == ']'); q++)
				/* nothing */;
			if (*q == ']') {
				p = q + 2;
				continue;
			}
		}
		if ((*p == '[' || *p == ']') && p[1] == *p) {
			p++;
			continue;
		}
		*o++ = *p++;
	}
	*o = '\0';
}

/*
 * What text_link_len calls a link out of s, in place: said or shown
 * nowhere. A space it leaves before punctuation goes with it.
 */
static void
spoken_links_clean(unsigned char *start)
{
	const unsigned char	*p;
	unsigned char		*o;
	size_t			 len;

	p = o = start;
	while (*p != '\0') {
		len = 0;
		if (p == start || !text_isword(p[-1]))
			len = text_link_len((const char *)p,
			    p == start ? 0 : p[-1]);
		if (len == 0) {
			*o++ = *p++;
			continue;
		}
		p += len;
		while (o > start && o[-1] == ' ' && (*p == '\0' ||
		    strchr(".,;:!?)\n", *p) != NULL))
			o--;
	}
	*o = '\0';
}

/* Make s spoken text, in place (see spoken.h for the rules). */
void
spoken_clean(char *s)
{
	const unsigned char	*p, *next;
	unsigned char		*start, *o;
	size_t			 before;

	if (s == NULL)
		return;
	record_clean(s, RECORD_CLEAN_LINES);

	/*
	 * backticks first, so none can hide a tag or a link from below; and
	 * pictographs (a voice reads a wrench as "wrench"), which the text
	 * is valid UTF-8 for, after record_clean
	 */
	p = o = start = (unsigned char *)s;
	while (*p != '\0') {
		size_t	len = spoken_pictograph(p);

		if (len > 0)
			p += len;
		else if (*p == '`')
			p++;
		else
			*o++ = *p++;
	}
	*o = '\0';
	spoken_entities_clean(start);

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
	 * phonemes and links, until neither is left: what one drops may
	 * join another ("ev[[x]]il.com/y", "[a.com/x[h]]")
	 */
	do {
		before = strlen(s);
		spoken_phonemes_clean(start);
		spoken_links_clean(start);
	} while (strlen(s) != before);

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

/* Whether p[0..n) is a file extension a listener hears as part of a name. */
static int
spoken_ext(const char *p, size_t n)
{
	static const char *const exts[] = { "py", "c", "h", "cc", "cpp",
	    "hpp", "rs", "go", "js", "mjs", "cjs", "ts", "tsx", "jsx", "vue",
	    "java", "kt", "rb", "php", "sh", "md", "rst", "txt", "yml",
	    "yaml", "toml", "json", "lock", "cfg", "ini", "in", "am", "html",
	    "css", "xml", "svg", "png", "pdf", "so", "dll", "exe", "zip",
	    "gz", "com", "org", "net", "io", "dev", NULL };
	size_t	i;

	for (i = 0; exts[i] != NULL; i++)
		if (strlen(exts[i]) == n && strncmp(p, exts[i], n) == 0)
			return 1;
	return 0;
}

/* Whether p[i] starts a hump of a CamelCase or camelCase part p[0..n). */
static int
spoken_hump(const char *p, size_t n, size_t i)
{
	int	prev, cur, next;

	if (i == 0 || i >= n || !isupper((unsigned char)p[i]))
		return 0;
	prev = (unsigned char)p[i - 1];
	cur = (unsigned char)p[i];
	next = i + 1 < n ? (unsigned char)p[i + 1] : 0;
	(void)cur;
	/* "sideEffects", "Int8Dynamic"; "SPARSELt" before the L */
	return islower(prev) || isdigit(prev) ||
	    (isupper(prev) && islower(next));
}

/*
 * One part of a symbol (letters, digits and '_') as words: snake_case by
 * its words, a camelCase or long CamelCase name by its humps; a name a
 * listener knows as a word ("PyTorch", "iOS", "macOS") as it is.
 */
static void
spoken_part(struct buf *b, const char *p, size_t n)
{
	size_t	i, humps = 0, caps = 0, first = 0;
	int	lower_first, split;

	/* leading and trailing '_' say nothing: "__len__" is "len" */
	while (n > 0 && *p == '_') {
		p++;
		n--;
	}
	while (n > 0 && p[n - 1] == '_')
		n--;
	for (i = 0; i < n; i++) {
		if (isupper((unsigned char)p[i]))
			caps++;
		if (spoken_hump(p, n, i)) {
			if (first == 0)
				first = i;
			if (i + 1 < n && islower((unsigned char)p[i + 1]))
				humps++;
		}
	}
	lower_first = n > 0 && islower((unsigned char)p[0]);
	/*
	 * camelCase after a prefix of two letters or more with a word in it
	 * ("jsxSideEffects"; not "iPhone", "macOS"); CamelCase of three
	 * words, or of two in a long name ("LowBitPacking",
	 * "WebAssembly"; not "PyTorch", "JavaScript", nor a short name
	 * like "LLaMa")
	 */
	if (lower_first)
		split = first >= 2 && humps > 0;
	else
		split = n >= 8 && (humps >= 2 || (humps == 1 && caps >= 2 &&
		    n >= 11 && first > 0));
	for (i = 0; i < n; i++) {
		if (p[i] == '_') {
			if (i > 0 && p[i - 1] != '_')
				buf_putc(b, ' ');
			continue;
		}
		if (split && spoken_hump(p, n, i) && p[i - 1] != '_')
			buf_putc(b, ' ');
		/* a camelCase name's words are lowercase; acronyms stay */
		if (split && lower_first && isupper((unsigned char)p[i]) &&
		    !isupper((unsigned char)p[i - 1]) && i + 1 < n &&
		    islower((unsigned char)p[i + 1]))
			buf_putc(b, (char)tolower((unsigned char)p[i]));
		else
			buf_putc(b, p[i]);
	}
}

/*
 * What w[0..n) is: SPOKEN_SYMBOL said by its parts ("a.b.c", "A::b",
 * "f()", "snake_case"; *call the length of a call's "()" or "(0)" at the
 * end, its argument a word or a number, else 0), SPOKEN_FILE a file
 * name whose extension starts at *ext, or SPOKEN_KEEP (a version, a
 * domain, "e.g", "create-vite").
 */
enum spoken_kind { SPOKEN_KEEP, SPOKEN_SYMBOL, SPOKEN_FILE };

static enum spoken_kind
spoken_symbol(const char *w, size_t n, size_t *call, size_t *ext)
{
	size_t	i, start = 0, parts = 0, shortest = n, last = 0;
	int	digit_part = 0, colons = 0;

	*call = 0;
	if (n > 2 && w[n - 1] == ')') {
		const char *open = memchr(w, '(', n);
		size_t k;

		for (k = open != NULL ? (size_t)(open - w) + 1 : n; k < n - 1 &&
		    (isalnum((unsigned char)w[k]) || w[k] == '_'); k++)
			continue;
		if (open != NULL && open > w && k == n - 1 &&
		    n - 1 - (size_t)(open - w) <= 13)
			*call = n - (size_t)(open - w);
	}
	n -= *call;
	if (n == 0)
		return SPOKEN_KEEP;
	for (i = 0; i <= n; i++) {
		if (i < n && (isalnum((unsigned char)w[i]) || w[i] == '_'))
			continue;
		if (i < n && w[i] == ':' && i + 1 < n && w[i + 1] == ':')
			colons = 1;
		else if (i < n && w[i] != '.')
			return SPOKEN_KEEP;	/* "create-vite", "v8's" */
		if (i == start)
			return SPOKEN_KEEP;	/* ".modules.yaml", "a..b" */
		if (isdigit((unsigned char)w[start]))
			digit_part = 1;
		if (i - start < shortest)
			shortest = i - start;
		last = start;
		parts++;
		if (i < n && w[i] == ':')
			i++;
		start = i + 1;
	}
	if (parts == 1)
		return SPOKEN_SYMBOL;
	if (digit_part)
		return SPOKEN_KEEP;
	if (!colons && !*call && spoken_ext(w + last, n - last)) {
		*ext = last - 1;
		return SPOKEN_FILE;
	}
	return shortest >= 2 || colons || *call ? SPOKEN_SYMBOL : SPOKEN_KEEP;
}

/* Whether w[0..n) closes more parentheses than it opens. */
static int
spoken_unbalanced(const char *w, size_t n)
{
	long	depth = 0;
	size_t	i;

	for (i = 0; i < n; i++)
		depth += (w[i] == '(') - (w[i] == ')');
	return depth < 0;
}

/* Whether b ends in a word that says a figure is rough ("about "). */
static int
spoken_after_about(const struct buf *b)
{
	static const char *const words[] = { "about ", "approximately ",
	    "around ", "roughly ", "nearly ", "almost ", NULL };
	size_t	i, l;

	for (i = 0; words[i] != NULL; i++) {
		l = strlen(words[i]);
		if (b->len >= l && strcasecmp(b->data + b->len - l, words[i]) ==
		    0)
			return 1;
	}
	return 0;
}

char *
spoken_symbols(const char *s)
{
	struct buf	 b;
	const char	*p = s, *w, *q;
	size_t		 n, a, e, core, i, start, ext;
	size_t		 call, dot;
	int		 test;
	enum spoken_kind kind;

	buf_init(&b);
	while (*p != '\0') {
		/*
		 * an absolute path is one name, kept as written:
		 * "/sys/devices/system/cpu/cpuX/cpufreq/scaling_cur_freq"
		 * (htop 2020-09-24) lost its last part's underscores
		 */
		if (*p == '/' && (b.len == 0 || b.data[b.len - 1] == ' ' ||
		    b.data[b.len - 1] == '\n')) {
			n = strcspn(p, " \n");
			buf_append(&b, p, n);
			p += n;
			continue;
		}
		/* "scale/zero_point": each side of a slash on its own */
		if (*p == ' ' || *p == '\n' || *p == '/') {
			buf_putc(&b, *p++);
			continue;
		}
		/* "~13%" is "about 13%", once: "approximately ~13%" */
		if (*p == '~' && isdigit((unsigned char)p[1])) {
			if (!spoken_after_about(&b))
				buf_puts(&b, "about ");
			p++;
		}
		w = p;
		n = strcspn(p, " \n/");
		p += n;
		/*
		 * an arrow between words is "to": 'fixed the typo:
		 * "canonical lysing" -> "canonicalizing"' (cargo 2025-09-12);
		 * inside a word it is code ("st->value") and stays
		 */
		if (((n == 2 && strncmp(w, "->", 2) == 0) || (n == 3 &&
		    strncmp(w, "\xe2\x86\x92", 3) == 0)) && *p == ' ' &&
		    b.len > 0 && b.data[b.len - 1] == ' ') {
			buf_puts(&b, "to");
			continue;
		}
		/* the word without the quotes and punctuation around it */
		for (a = 0; a < n && strchr("\"'(", w[a]) != NULL; a++)
			continue;
		for (e = n; e > a && strchr(".,;:!?\"'", w[e - 1]) != NULL;
		    e--)
			continue;
		/* a closing parenthesis of the sentence, not of a call */
		while (e > a && w[e - 1] == ')' && spoken_unbalanced(w + a,
		    e - a))
			e--;
		if (e - a > 2 && strncmp(w + e - 2, "'s", 2) == 0)
			e -= 2;
		kind = e > a ? spoken_symbol(w + a, e - a, &call, &ext) :
		    SPOKEN_KEEP;
		/*
		 * a method called on nothing said: ".clone()" is "clone"
		 * ("Do not use .clone()", fd 2021-08-08); ".modules.yaml"
		 * stays
		 */
		dot = 0;
		if (kind == SPOKEN_KEEP && e - a > 3 && w[a] == '.' &&
		    isalpha((unsigned char)w[a + 1]) && w[e - 1] == ')' &&
		    spoken_symbol(w + a + 1, e - a - 1, &call, &ext) ==
		    SPOKEN_SYMBOL && call > 0 && memchr(w + a + 1, '.',
		    e - a - 1 - call) == NULL) {
			kind = SPOKEN_SYMBOL;
			dot = 1;
		}
		/* a file name is said by its name when that has words */
		if (kind == SPOKEN_FILE && memchr(w + a, '_', ext) == NULL)
			kind = SPOKEN_KEEP;
		if (kind == SPOKEN_KEEP) {
			buf_append(&b, w, n);
			continue;
		}
		buf_append(&b, w, a);
		a += dot;
		core = kind == SPOKEN_FILE ? ext : e - a - call;
		q = w + a;
		/* "test_sparse_api" is the sparse api test */
		test = core > 5 && strncmp(q, "test_", 5) == 0 &&
		    memchr(q, '.', core) == NULL && memchr(q, ':', core) ==
		    NULL;
		if (test) {
			buf_puts(&b, "the ");
			q += 5;
			core -= 5;
		}
		for (i = start = 0; i <= core; i++) {
			if (i < core && q[i] != '.' && q[i] != ':')
				continue;
			if (i > start) {
				if (start > 0)
					buf_putc(&b, ' ');
				spoken_part(&b, q + start, i - start);
			}
			start = i + 1;
		}
		if (test)
			buf_puts(&b, " test");
		buf_append(&b, w + e, n - e);
	}
	return buf_steal(&b);
}

/*
 * Whether w[0..n) holds one "{a,b}" alternation and where: *open at '{',
 * *close at '}'.
 */
static int
spoken_brace_at(const char *w, size_t n, size_t *open, size_t *close)
{
	const char	*o, *c;

	if ((o = memchr(w, '{', n)) == NULL ||
	    (c = memchr(o, '}', n - (size_t)(o - w))) == NULL ||
	    memchr(o, ',', (size_t)(c - o)) == NULL ||
	    memchr(c + 1, '{', n - (size_t)(c + 1 - w)) != NULL)
		return 0;
	*open = (size_t)(o - w);
	*close = (size_t)(c - w);
	return 1;
}

/* Whether w[0..n) is made of braces alone. */
static int
spoken_only_braces(const char *w, size_t n)
{
	return n > 0 && strspn(w, "{}") >= n;
}

char *
spoken_braces(const char *s)
{
	struct buf	 b;
	const char	*p = s, *w, *alt;
	size_t		 n, open, close, k, nalts, alen;

	buf_init(&b);
	while (*p != '\0') {
		/* brackets left empty by what was cut: "Foo[...]" */
		if (strncmp(p, "[]", 2) == 0 || strncmp(p, "[ ]", 3) == 0) {
			p += p[1] == ']' ? 2 : 3;
			continue;
		}
		if (*p == ' ' || *p == '\n') {
			buf_putc(&b, *p++);
			continue;
		}
		w = p;
		n = strcspn(p, " \n[");
		if (n == 0)
			n = 1;
		p += n;
		/* a code block's braces around words: "{ $__loc__ }" */
		if (!spoken_brace_at(w, n, &open, &close)) {
			for (k = 0; k < n; k++)
				if (w[k] != '{' && w[k] != '}')
					buf_putc(&b, w[k]);
			/* a lone brace leaves no double space */
			if (spoken_only_braces(w, n) && b.len > 0 &&
			    b.data[b.len - 1] == ' ' && (*p == ' ' ||
			    *p == '\0'))
				b.data[--b.len] = '\0';
			continue;
		}
		for (nalts = 1, k = open + 1; k < close; k++)
			nalts += w[k] == ',';
		/* each alternative whole: "--a-border, --b-border and ..." */
		alt = w + open + 1;
		for (k = 0; k < nalts; k++) {
			alen = strcspn(alt, ",}");
			if (k > 0)
				buf_puts(&b, k + 1 == nalts ? " and " : ", ");
			buf_append(&b, w, open);
			buf_append(&b, alt, alen);
			/* the rest of the word, its end punctuation once */
			if (k + 1 < nalts) {
				size_t	e = n;

				while (e > close + 1 && strchr(".,;:!?", w[e - 1])
				    != NULL)
					e--;
				buf_append(&b, w + close + 1, e - close - 1);
			} else
				buf_append(&b, w + close + 1, n - close - 1);
			alt += alen + 1;
		}
	}
	return buf_steal(&b);
}

/* Append n and the noun, capitalised: "Three more fixes". */
void
spoken_count_cap(struct buf *b, long long n, const char *one, const char *many)
{
	struct buf	t;

	buf_init(&t);
	spoken_count(&t, n, one, many);
	phrase_cap(b, buf_str(&t));
	buf_free(&t);
}
