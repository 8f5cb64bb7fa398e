/*
 * The pronunciation pass: a written sentence as a voice should say it.
 * Two passes. The first reads characters: what is not UTF-8 goes, a
 * symbol goes or becomes its ASCII operator, a run of letters of another
 * script becomes a login or goes. The second reads the words that are
 * left, each by its shape: an operator, a version, a setting, an
 * identifier, or a word said as it is.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <unictype.h>
#include <uninorm.h>
#include <unistr.h>

#include "buf.h"
#include "say.h"
#include "spoken.h"
#include "utf8.h"
#include "words.h"
#include "strlist.h"
#include "xmalloc.h"

/* How deep a word is taken apart before the rest is said as it is. */
#define SAY_DEPTH	8
/* The longest name of a person looked at. */
#define SAY_PERSON_MAX	256
/* The longest GitHub login. */
#define SAY_LOGIN_MAX	39
/* What a version's part of more digits than this is said digit by digit. */
#define SAY_NUMBER_DIGITS	4

struct say {
	const struct say_name	*names;
	size_t			 nnames;
};

static void	say_core(const struct say *, struct buf *, const char *,
		    size_t, int);

/* Whether appending more bytes, with left still to come, stays in cap. */
static int
say_fits(size_t len, size_t more, size_t left, size_t cap)
{
	return len + more <= cap && left <= cap - len - more;
}

/*
 * Characters
 */

/* Whether uc is a letter, mark or digit of a script not Latin's. */
static int
say_foreign(ucs4_t uc, int in_run)
{
	const uc_script_t	*sc;

	if (uc < 0x80)
		return 0;
	if (!uc_is_general_category(uc, UC_LETTER) &&
	    !uc_is_general_category(uc, UC_MARK) &&
	    !uc_is_general_category(uc, UC_DECIMAL_DIGIT_NUMBER))
		return 0;
	if ((sc = uc_script(uc)) == NULL)
		return in_run;
	/*
	 * the marks and signs scripts share ("ー" in "ジョー") belong to a
	 * run once one has begun
	 */
	if (strcmp(sc->name, "Common") == 0 ||
	    strcmp(sc->name, "Inherited") == 0)
		return in_run;
	return strcmp(sc->name, "Latin") != 0;
}

/*
 * What a character outside ASCII is said as: NULL to keep it (a Latin
 * letter, an accent on one, a currency sign), else its replacement, ""
 * when it goes.
 */
/*
 * A Latin letter with a mark as its plain letters (into out, 3 bytes),
 * or NULL: the voices know English letters only and spell a name with
 * any other letter by its letters ("Göttsche" took 5.1 s, "Goettsche"
 * 3.8: scripts/bench-voice, htop 2020-09-24).
 */
static const char *
say_fold(ucs4_t uc, char out[3])
{
	static const struct {
		ucs4_t		 uc;
		const char	*said;
	} own[] = {
		{ 0xdf, "ss" }, { 0xe6, "ae" }, { 0xc6, "Ae" }, { 0xf8, "o" },
		{ 0xd8, "O" }, { 0x142, "l" }, { 0x141, "L" }, { 0x111, "d" },
		{ 0x110, "D" }, { 0x153, "oe" }, { 0x152, "Oe" },
		{ 0xfe, "th" }, { 0xde, "Th" }, { 0xf0, "d" }, { 0xd0, "D" },
		{ 0x131, "i" },
	};
	ucs4_t	d[UC_DECOMPOSITION_MAX_LENGTH];
	size_t	i;

	if (uc < 0x80 || uc > 0x24f)	/* Latin-1 to Latin Extended-B */
		return NULL;
	for (i = 0; i < sizeof own / sizeof own[0]; i++)
		if (own[i].uc == uc)
			return own[i].said;
	if (uc_canonical_decomposition(uc, d) > 0 && d[0] < 0x80 &&
	    isalpha((int)d[0])) {
		out[0] = (char)d[0];
		out[1] = '\0';
		return out;
	}
	return NULL;
}

static const char *
say_symbol(ucs4_t uc)
{
	static const struct {
		ucs4_t		 uc;
		const char	*said;
	} map[] = {
		{ 0x2192, " -> " }, { 0x21d2, " -> " }, { 0x27f6, " -> " },
		{ 0x27f9, " -> " }, { 0x2264, " <= " }, { 0x2265, " >= " },
		{ 0x2260, " != " }, { 0x2212, "-" },
		{ 0x201c, "\"" }, { 0x201d, "\"" }, { 0x201e, "\"" },
		{ 0x00ab, "\"" }, { 0x00bb, "\"" },
		{ 0x2018, "'" }, { 0x2019, "'" }, { 0x201a, "'" },
		{ 0x2013, " - " }, { 0x2014, " - " }, { 0x2015, " - " },
		{ 0x2026, "..." },
	};
	size_t	i;

	for (i = 0; i < sizeof map / sizeof map[0]; i++)
		if (map[i].uc == uc)
			return map[i].said;
	if (uc_is_general_category(uc, UC_SPACE_SEPARATOR) ||
	    uc == 0x2028 || uc == 0x2029)
		return " ";
	/* variation selectors and a keycap's enclosing mark say nothing */
	if ((uc >= 0xfe00 && uc <= 0xfe0f) ||
	    (uc >= 0xe0100 && uc <= 0xe01ef) ||
	    uc_is_general_category(uc, UC_ENCLOSING_MARK))
		return "";
	if (uc_is_general_category(uc, UC_LETTER) ||
	    uc_is_general_category(uc, UC_MARK) ||
	    uc_is_general_category(uc, UC_CURRENCY_SYMBOL))
		return NULL;
	/*
	 * emoji, dingbats, arrows, math and modifier symbols, joiners,
	 * private and unassigned characters, digits and punctuation no
	 * voice of ours reads
	 */
	return "";
}

/*
 * Whether the n bytes at run are a word of name ("张三" of "张三" or
 * "Zhang 张三"): 2, part of one ("三"): 1, or hold a word of it of two
 * characters or more ("张三说"): 1; else 0.
 */
static int
say_name_has(const char *name, const unsigned char *run, size_t n)
{
	const char	*p, *w;
	size_t		 l;

	if (memmem(name, strlen(name), run, n) != NULL) {
		for (p = name; *p != '\0'; p += l) {
			p += strspn(p, " ");
			w = p;
			l = strcspn(p, " ");
			if (l == n && memcmp(w, run, n) == 0)
				return 2;
		}
		return 1;
	}
	for (p = name; *p != '\0'; p += l) {
		p += strspn(p, " ");
		w = p;
		l = strcspn(p, " ");
		/* two characters: more bytes than one UTF-8 character has */
		if (l > 4 && memmem(run, n, w, l) != NULL)
			return 1;
	}
	return 0;
}

/*
 * The person whose name the n bytes at run are a word of, else the
 * first whose name holds them or whose name's word they hold; or -1.
 */
static long
say_who(const struct say *x, const unsigned char *run, size_t n)
{
	size_t	i;
	long	who = -1;
	int	how;

	for (i = 0; i < x->nnames; i++) {
		/* no one's name is that long: a bound on the work */
		if (x->names[i].name == NULL ||
		    strnlen(x->names[i].name, SAY_PERSON_MAX + 1) >
		    SAY_PERSON_MAX)
			continue;
		how = say_name_has(x->names[i].name, run, n);
		if (how == 2)
			return (long)i;
		if (how == 1 && who < 0)
			who = (long)i;
	}
	return who;
}

/*
 * The n bytes of login a voice can say (a bot's without its "[bot]"), or
 * 0: none, or not Latin letters, digits and hyphens.
 */
static size_t
say_login_len(const char *login)
{
	size_t	n, i;
	int	letter = 0;

	if (login == NULL ||
	    (n = strnlen(login, SAY_LOGIN_MAX + 6)) > SAY_LOGIN_MAX + 5)
		return 0;
	if (n > 5 && strcmp(login + n - 5, "[bot]") == 0)
		n -= 5;
	if (n == 0 || n > SAY_LOGIN_MAX)
		return 0;
	for (i = 0; i < n; i++) {
		if (!isalnum((unsigned char)login[i]) && login[i] != '-')
			return 0;
		letter |= isalpha((unsigned char)login[i]) != 0;
	}
	return letter ? n : 0;
}

/* Append p[0..n) to b, bytes that are not UTF-8 left out. */
static void
say_valid(struct buf *b, const unsigned char *p, size_t n)
{
	size_t	k;

	while (n > 0) {
		if ((k = utf8_seq_len(p, n)) == 0)
			k = 1;
		else
			buf_append(b, (const char *)p, k);
		p += k;
		n -= k;
	}
}

/*
 * The first pass: s with its characters said (say_symbol), its runs of
 * another script's letters as a login or gone, no backtick, no control
 * character, at most cap bytes.
 */
static char *
say_letters(const struct say *x, const char *s, size_t cap)
{
	const unsigned char	*p = (const unsigned char *)s, *end, *q;
	const char		*said;
	struct buf		 b;
	size_t			 n, m, last_end = 0, i;
	long			 who, last_who = -1;
	ucs4_t			 uc;
	int			 same, before, after;
	char			 folded[3];

	buf_init(&b);
	buf_puts(&b, "");
	end = p + strlen(s);
	while (p < end) {
		if (*p < 0x80) {
			/* a backtick goes; any other byte is one byte */
			if (*p != '`')
				buf_putc(&b, *p < 0x20 || *p == 0x7f ? ' ' :
				    (char)*p);
			p++;
			continue;
		}
		if ((n = utf8_seq_len(p, (size_t)(end - p))) == 0) {
			p++;
			continue;
		}
		u8_mbtouc(&uc, p, n);
		/* "5µs", "5 μs": the micro sign or Greek mu before seconds */
		if ((uc == 0xb5 || uc == 0x3bc) && p + n < end && p[n] == 's' &&
		    (p + n + 1 == end || !isalpha(p[n + 1]))) {
			if (!say_fits(b.len, strlen(" microseconds"),
			    (size_t)(end - p) - n - 1, cap))
				break;
			buf_puts(&b, " microseconds");
			p += n + 1;
			continue;
		}
		if (!say_foreign(uc, 0)) {
			if ((said = say_fold(uc, folded)) == NULL)
				said = say_symbol(uc);
			m = said == NULL ? n : strlen(said);
			if (!say_fits(b.len, m, (size_t)(end - p) - n, cap))
				break;
			if (said == NULL)
				buf_append(&b, (const char *)p, n);
			else
				buf_puts(&b, said);
			p += n;
			continue;
		}
		/* a run of another script's letters */
		for (q = p + n; q < end; q += m) {
			if ((m = utf8_seq_len(q, (size_t)(end - q))) == 0)
				break;
			u8_mbtouc(&uc, q, m);
			if (!say_foreign(uc, 1))
				break;
		}
		who = say_who(x, p, (size_t)(q - p));
		/* "张 三" is one person said once */
		same = who >= 0 && who == last_who;
		for (i = last_end; same && i < b.len; i++)
			same = b.data[i] == ' ';
		if (same)
			last_end = b.len;
		if (who < 0 || same) {
			p = q;
			continue;
		}
		/* a word apart from letters and digits around it */
		m = say_login_len(x->names[who].login);
		before = b.len > 0 && isalnum((unsigned char)b.data[b.len - 1]);
		after = q < end && (isalnum(*q) || *q >= 0x80);
		if (!say_fits(b.len, before + after + (m > 0 ? m :
		    strlen("a contributor")), (size_t)(end - q), cap))
			break;
		if (before)
			buf_putc(&b, ' ');
		if (m > 0)
			buf_append(&b, x->names[who].login, m);
		else
			buf_puts(&b, "a contributor");
		if (after)
			buf_putc(&b, ' ');
		last_who = who;
		last_end = b.len;
		p = q;
	}
	/* past the cap: the rest as it is */
	say_valid(&b, p, (size_t)(end - p));
	return buf_steal(&b);
}

/*
 * Numbers and versions
 */

/*
 * The digits d[0..n) of a version's part: "0" first is "zero", after a
 * point "oh"; a leading zero "oh" ("05" is "oh five"); a long part digit
 * by digit.
 */
static void
say_digits(struct buf *b, const char *d, size_t n, int first)
{
	long long	v = 0;
	size_t		i, z;

	if (first && n == 1 && d[0] == '0') {
		buf_puts(b, "zero");
		return;
	}
	for (z = 0; z < n && d[z] == '0'; z++)
		buf_puts(b, z > 0 ? " oh" : "oh");
	if (z == n)
		return;
	if (z > 0)
		buf_putc(b, ' ');
	if (n - z <= SAY_NUMBER_DIGITS) {
		for (i = z; i < n; i++)
			v = v * 10 + (d[i] - '0');
		spoken_number(b, v);
		return;
	}
	for (i = z; i < n; i++) {
		if (i > z)
			buf_putc(b, ' ');
		spoken_number(b, d[i] - '0');
	}
}

/* The length of the digits at c[0..n). */
static size_t
say_span_digits(const char *c, size_t n)
{
	size_t	i;

	for (i = 0; i < n && isdigit((unsigned char)c[i]); i++)
		/* nothing */;
	return i;
}

/* The length of the letters at c[0..n). */
static size_t
say_span_alpha(const char *c, size_t n)
{
	size_t	i;

	for (i = 0; i < n && isalpha((unsigned char)c[i]); i++)
		/* nothing */;
	return i;
}

/* Whether c[0..n) starts a version: digits, a dot, a digit or "x". */
static int
say_is_version(const char *c, size_t n)
{
	size_t	d = say_span_digits(c, n);

	return d > 0 && d + 1 < n && c[d] == '.' &&
	    (isdigit((unsigned char)c[d + 1]) ||
	    ((c[d + 1] == 'x' || c[d + 1] == 'X') &&
	    (d + 2 == n || !isalnum((unsigned char)c[d + 2]))));
}

/*
 * A release's tags after its numbers, as said: "rc" is "release
 * candidate"; "a", "b" and "c" only as PEP 440 writes them, right after
 * a digit and before one ("3.15.0a8").
 */
static const char *
say_tag(const char *t, size_t n, int attached, int digit_next)
{
	static const struct {
		const char	*tag;
		const char	*said;
	} tags[] = {
		{ "rc", "release candidate" }, { "alpha", "alpha" },
		{ "beta", "beta" }, { "dev", "dev" }, { "pre", "preview" },
		{ "preview", "preview" }, { "post", "post" },
		{ "final", "final" }, { "nightly", "nightly" },
	};
	size_t	i;

	if (n == 1 && attached && digit_next) {
		switch (t[0]) {
		case 'a':
			return "alpha";
		case 'b':
			return "beta";
		case 'c':
			return "release candidate";
		}
	}
	for (i = 0; i < sizeof tags / sizeof tags[0]; i++)
		if (strlen(tags[i].tag) == n &&
		    strncasecmp(tags[i].tag, t, n) == 0)
			return tags[i].said;
	return NULL;
}

/*
 * The version at c[0..n) (say_is_version), said: its numbers, a
 * release's tag and number, "or newer" for a '+' after it, "percent",
 * "times"; what follows as a word of its own.
 */
static void
say_version(const struct say *x, struct buf *b, const char *c, size_t n,
    int depth)
{
	const char	*said;
	size_t		 i = 0, d, t;
	int		 first = 1, attached;

	/* the numbers: "1.52.1", "2.x" */
	for (;;) {
		d = say_span_digits(c + i, n - i);
		if (d == 0) {
			/* "2.x": any minor version */
			buf_puts(b, " x");
			i++;
			break;
		}
		if (!first)
			buf_putc(b, ' ');
		say_digits(b, c + i, d, first);
		first = 0;
		i += d;
		if (i + 1 < n && c[i] == '.' && (isdigit((unsigned char)c[i +
		    1]) || ((c[i + 1] == 'x' || c[i + 1] == 'X') && (i + 2 ==
		    n || !isalnum((unsigned char)c[i + 2]))))) {
			buf_puts(b, " point");
			i++;
			continue;
		}
		break;
	}
	/* the tags: "-rc1", "-beta.2", "a8", "-alpha", ".post1" */
	while (i < n) {
		attached = c[i] != '-' && c[i] != '.';
		t = i + !attached;
		d = say_span_alpha(c + t, n - t);
		if (d == 0 || (t + d < n && !isdigit((unsigned char)c[t + d]) &&
		    c[t + d] != '.' && c[t + d] != '-'))
			break;
		said = say_tag(c + t, d, attached, t + d < n &&
		    isdigit((unsigned char)c[t + d]));
		if (said == NULL)
			break;
		buf_printf(b, " %s", said);
		i = t + d;
		if (i + 1 < n && (c[i] == '.' || c[i] == '-') &&
		    isdigit((unsigned char)c[i + 1]))
			i++;
		if ((d = say_span_digits(c + i, n - i)) > 0) {
			buf_putc(b, ' ');
			say_digits(b, c + i, d, 1);
			i += d;
		}
	}
	if (i == n)
		return;
	if (c[i] == '+' && i + 1 == n) {
		buf_puts(b, " or newer");
		return;
	}
	if (c[i] == '%') {
		buf_puts(b, " percent");
		i++;
	} else if ((c[i] == 'x' || c[i] == 'X') && i + 1 == n) {
		buf_puts(b, " times");
		return;
	}
	/* "-SNAPSHOT", "1.5s", "1.2/1.3": the rest a word of its own */
	while (i < n && strchr("-+.", c[i]) != NULL)
		i++;
	if (i < n) {
		buf_putc(b, ' ');
		say_core(x, b, c + i, n - i, depth + 1);
	}
}

/*
 * Identifiers
 */

/* Whether p[i] starts a hump of the camelCase or CamelCase p[0..n). */
static int
say_hump(const char *p, size_t n, size_t i)
{
	unsigned char	prev, next;

	if (i == 0 || i >= n || !isupper((unsigned char)p[i]))
		return 0;
	prev = (unsigned char)p[i - 1];
	next = i + 1 < n ? (unsigned char)p[i + 1] : 0;
	/* "spawnBlocking", "Int8Dynamic"; "HTTPServer" before the S */
	return islower(prev) || isdigit(prev) ||
	    (isupper(prev) && islower(next));
}

/*
 * Whether the word p[0..n) is split at its humps: camelCase after a
 * prefix of two letters or more ("spawnBlocking"; not "iOS", "macOS");
 * CamelCase of three words or more ("LocalPoolHandle"; not "PyTorch",
 * "TaskMeta").
 */
static int
say_camel(const char *p, size_t n)
{
	size_t	i, humps = 0, first = 0;

	for (i = 1; i < n; i++) {
		if (!isalnum((unsigned char)p[i]) && p[i] != '\'')
			return 0;
		if (say_hump(p, n, i) && i + 1 < n &&
		    islower((unsigned char)p[i + 1])) {
			if (first == 0)
				first = i;
			humps++;
		}
	}
	if (n == 0 || !isalpha((unsigned char)p[0]) || humps == 0)
		return 0;
	if (islower((unsigned char)p[0]))
		return first >= 2;
	return humps >= 2 && n >= 8;
}

/* Whether p[0..n) has capitals and no small letters: "CARGO", "IPV4". */
static int
say_caps(const char *p, size_t n)
{
	size_t	i;
	int	upper = 0;

	for (i = 0; i < n; i++) {
		if (islower((unsigned char)p[i]) ||
		    (unsigned char)p[i] >= 0x80)
			return 0;
		upper |= isupper((unsigned char)p[i]) != 0;
	}
	return upper;
}

/*
 * Say the part p[0..n) of an identifier (to b, when not NULL) and count
 * its words: by its humps (say_camel); a part in capitals lowered when
 * lower, unless an acronym: two letters, or up to four that make no
 * English word ("CI", "HTTP", "QUIC"; "BUILD", "SWAP", "TOKIO" lowered).
 */
static size_t
say_part(struct buf *b, const char *p, size_t n, int lower)
{
	size_t	i, words = 1;
	int	camel;

	if (n == 0)
		return 0;
	if (say_caps(p, n)) {
		if (b == NULL)
			return 1;
		if (lower && n > 2 && (n > 4 || words_known(p, n)))
			for (i = 0; i < n; i++)
				buf_putc(b, (char)tolower((unsigned char)p[i]));
		else
			buf_append(b, p, n);
		return 1;
	}
	camel = say_camel(p, n);
	for (i = 0; i < n; i++) {
		if (camel && say_hump(p, n, i)) {
			words++;
			if (b != NULL)
				buf_putc(b, ' ');
		}
		if (b != NULL)
			buf_putc(b, p[i]);
	}
	return words;
}

/* A part of an identifier and the separator before it. */
struct say_piece {
	const char	*p;
	size_t		 n;
	char		 sep;	/* '.', '/', '\\', ' ' or 0 for none */
};

#define SAY_PIECES	(SAY_PARTS_MAX + 2)

/*
 * Cut c[0..n) at its separators into at most SAY_PIECES pieces; the
 * count of pieces there are (more than SAY_PIECES when it has more).
 * A flag's '-' separates (flag); any other '-' between letters is in a
 * word ("c-ares"). "::" and "->" say nothing, '.' "dot", '/' "slash".
 */
static size_t
say_pieces(const char *c, size_t n, int flag, struct say_piece *v)
{
	size_t	i = 0, start, np = 0;
	char	sep = 0;
	int	in;

	while (i < n) {
		start = i;
		for (; i < n; i++) {
			unsigned char ch = (unsigned char)c[i];

			in = isalnum(ch) || ch >= 0x80 || ch == '\'' ||
			    (ch == '-' && !flag && i > start && i + 1 < n &&
			    isalnum((unsigned char)c[i + 1]));
			if (!in)
				break;
		}
		if (i > start) {
			if (np < SAY_PIECES) {
				v[np].p = c + start;
				v[np].n = i - start;
				v[np].sep = np == 0 ? 0 : sep;
			}
			np++;
			sep = 0;
		}
		if (i >= n)
			break;
		/* a separator: the strongest said of a run of them */
		if (c[i] == '.' || c[i] == '/' || c[i] == '\\')
			sep = c[i];
		else if (sep == 0)
			sep = ' ';
		/* ".github": a leading dot is said */
		if (np == 0 && c[i] == '.' && i == 0)
			sep = '.';
		i++;
	}
	return np;
}

/*
 * Say c[0..n) as an identifier when it is one: parts between
 * separators, or a camelCase word. Returns 0 when it is not ("U.S",
 * "opt-in").
 */
static int
say_ident(struct buf *b, const char *c, size_t n)
{
	struct say_piece	 v[SAY_PIECES];
	size_t			 np, i, words = 0;
	int			 flag = 0, lead_dot, letters = 0;

	if (n > 2 && c[0] == '-' && c[1] == '-' &&
	    isalpha((unsigned char)c[2])) {
		flag = 1;
		c += 2;
		n -= 2;
	}
	lead_dot = n > 1 && c[0] == '.' && isalpha((unsigned char)c[1]);
	np = say_pieces(c, n, flag, v);
	if (np == 0)
		return 0;
	if (np == 1 && !flag && !lead_dot && !say_camel(v[0].p, v[0].n))
		return 0;
	/*
	 * an initialism ("U.S", "a.k.a"), a time, a ratio or a number
	 * ("10:30", "3/4", "1,204"): no name
	 */
	for (i = 0; i < np && i < SAY_PIECES; i++) {
		if (say_span_digits(v[i].p, v[i].n) < v[i].n)
			letters |= v[i].n > 1 || (i > 0 && v[i].sep != '.') ?
			    2 : 1;
	}
	if (letters < 2 && !flag && !lead_dot)
		return 0;
	for (i = 0; i < np && i < SAY_PIECES; i++)
		words += say_part(NULL, v[i].p, v[i].n, 0);
	if (np > SAY_PIECES || words > SAY_PARTS_MAX || n > SAY_NAME_MAX) {
		buf_puts(b, "the name shown in the show notes");
		return 1;
	}
	if (lead_dot)
		buf_puts(b, "dot ");
	for (i = 0; i < np; i++) {
		if (i > 0) {
			/* "foo/1.2": a point between numbers */
			if (v[i].sep == '.' && isdigit((unsigned char)
			    v[i - 1].p[v[i - 1].n - 1]) &&
			    isdigit((unsigned char)v[i].p[0]))
				buf_puts(b, " point");
			else if (v[i].sep == '.')
				buf_puts(b, " dot");
			else if (v[i].sep == '/')
				buf_puts(b, " slash");
			else if (v[i].sep == '\\')
				buf_puts(b, " backslash");
			buf_putc(b, ' ');
		}
		say_part(b, v[i].p, v[i].n, np > 1);
	}
	return 1;
}

/* The count of words say_ident says for c[0..n) (1 for a plain word). */
static size_t
say_ident_words(const char *c, size_t n)
{
	struct say_piece	 v[SAY_PIECES];
	size_t			 np, i, words = 0;
	int			 flag = 0;

	if (n > 2 && c[0] == '-' && c[1] == '-') {
		flag = 1;
		c += 2;
		n -= 2;
	}
	np = say_pieces(c, n, flag, v);
	if (np > SAY_PIECES)
		return np;
	for (i = 0; i < np; i++)
		words += say_part(NULL, v[i].p, v[i].n, 0);
	return words;
}

/*
 * Words
 */

/*
 * The operator at c[0..n) and its words: its length, or 0. *said is NULL
 * for one said by nothing ("<<", "<>").
 */
static size_t
say_op(const char *c, size_t n, const char **said)
{
	static const struct {
		const char	*op;
		const char	*said;
	} ops[] = {
		{ "<=", "up to" }, { ">=", "at least" }, { "->", "to" },
		{ "=>", "to" }, { "==", "equals" }, { "!=", "is not" },
		{ "<", "older than" }, { ">", "newer than" },
	};
	size_t	i, l;

	if (n == 0)
		return 0;
	/* shifts, "<>", "<=>", "===": no comparison a listener follows */
	l = strspn(c, "<>=!");
	if (l > n)
		l = n;
	if (l > 2 || (l == 2 && (strncmp(c, "<<", 2) == 0 ||
	    strncmp(c, ">>", 2) == 0 || strncmp(c, "<>", 2) == 0 ||
	    strncmp(c, "><", 2) == 0))) {
		if (l == 3 && (strncmp(c, "===", 3) == 0 ||
		    strncmp(c, "!==", 3) == 0)) {
			*said = c[0] == '=' ? "equals" : "is not";
			return 3;
		}
		*said = NULL;
		return l;
	}
	for (i = 0; i < sizeof ops / sizeof ops[0]; i++) {
		l = strlen(ops[i].op);
		if (l <= n && strncmp(c, ops[i].op, l) == 0) {
			*said = ops[i].said;
			return l;
		}
	}
	return 0;
}

/* Whether c[0..n) is a word that compares: the operators before a version. */
static int
say_comparison(const char *c, size_t n)
{
	return (n == 1 && (c[0] == '<' || c[0] == '>')) ||
	    (n == 2 && (c[0] == '<' || c[0] == '>') && c[1] == '=');
}

/* Whether c[0..n) is an arrow: "->", "=>". */
static int
say_arrow(const char *c, size_t n)
{
	return n == 2 && (c[0] == '-' || c[0] == '=') && c[1] == '>';
}

/* Append s, words apart from what b holds. */
static void
say_add(struct buf *b, const char *s)
{
	if (b->len > 0 && b->data[b->len - 1] != ' ')
		buf_putc(b, ' ');
	buf_puts(b, s);
}

/* Say c[0..n) then s then d[0..m), each part there is, a word apart. */
static void
say_around(const struct say *x, struct buf *b, const char *c, size_t n,
    const char *s, const char *d, size_t m, int depth)
{
	if (n > 0)
		say_core(x, b, c, n, depth + 1);
	if (s != NULL && *s != '\0')
		say_add(b, s);
	if (m > 0) {
		if (b->len > 0 && b->data[b->len - 1] != ' ')
			buf_putc(b, ' ');
		say_core(x, b, d, m, depth + 1);
	}
}

/* c[0..n) as it is, with the characters no voice should read as spaces. */
static void
say_plain(struct buf *b, const char *c, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		buf_putc(b, strchr("<>=_`*|#\\{}^~", c[i]) != NULL ? ' ' :
		    c[i]);
}

/* Whether c[0..n) is one of the people's logins (said as it is). */
static int
say_is_login(const struct say *x, const char *c, size_t n)
{
	size_t	i;

	for (i = 0; i < x->nnames; i++)
		if (say_login_len(x->names[i].login) == n &&
		    x->names[i].login[n] == '\0' &&
		    memcmp(x->names[i].login, c, n) == 0)
			return 1;
	return 0;
}

/*
 * Whether c[0..n) is a setting, NAME=VALUE: a name of letters, digits,
 * '_', '.', ':' and '-' (a flag's "--") and a value; *eq where '=' is.
 */
static int
say_is_setting(const char *c, size_t n, size_t *eq)
{
	const char	*e;
	size_t		 i;
	int		 letter = 0;

	if ((e = memchr(c, '=', n)) == NULL)
		return 0;
	*eq = (size_t)(e - c);
	if (*eq == 0 || *eq + 1 >= n || c[*eq + 1] == '=' || c[*eq + 1] == '>')
		return 0;
	for (i = 0; i < *eq; i++) {
		if (!isalnum((unsigned char)c[i]) && strchr("_.:-", c[i]) ==
		    NULL)
			return 0;
		letter |= isalpha((unsigned char)c[i]) != 0;
	}
	return letter;
}

/*
 * Say the word c[0..n), its punctuation around it taken off (say_word),
 * by its shape.
 */
/*
 * Where c[0..n) holds a date as YYYY-MM-DD standing alone or after a '-'
 * ("2025-10-12", "nightly-2025-10-12"): its offset, with its parts, or
 * -1.
 */
static long
say_date_at(const char *c, size_t n, int *y, int *m, int *d)
{
	size_t	i, k;

	for (i = 0; i + 10 <= n; i++) {
		if (i > 0 && c[i - 1] != '-')
			continue;
		for (k = 0; k < 10; k++)
			if ((k == 4 || k == 7) ? c[i + k] != '-' :
			    !isdigit((unsigned char)c[i + k]))
				break;
		if (k < 10 || (i + 10 < n && isalnum((unsigned char)c[i + 10])))
			continue;
		*y = atoi(c + i);
		*m = atoi(c + i + 5);
		*d = atoi(c + i + 8);
		if (*y >= 1970 && *y <= 2999 && *m >= 1 && *m <= 12 &&
		    *d >= 1 && *d <= 31)
			return (long)i;
	}
	return -1;
}

static void
say_core(const struct say *x, struct buf *b, const char *c, size_t n,
    int depth)
{
	const char	*said, *k;
	size_t		 i, l, eq, d;
	long		 at;
	int		 y, mo, dd;

	if (n == 0)
		return;
	if (depth > SAY_DEPTH) {
		say_plain(b, c, n);
		return;
	}
	if (say_is_login(x, c, n)) {
		buf_append(b, c, n);
		return;
	}
	/* a date as a host says one: "nightly-2025-10-12" is "nightly
	   October 12th, 2025" */
	if ((at = say_date_at(c, n, &y, &mo, &dd)) >= 0) {
		if (at > 1) {
			say_core(x, b, c, (size_t)at - 1, depth + 1);
			buf_putc(b, ' ');
		}
		spoken_date(b, y, mo, dd);
		if ((size_t)at + 10 < n) {
			buf_putc(b, ' ');
			say_core(x, b, c + at + 10, n - (size_t)at - 10,
			    depth + 1);
		}
		return;
	}
	if ((l = say_op(c, n, &said)) == n) {
		if (said != NULL)
			buf_puts(b, said);
		return;
	}
	/* "R&D", "&" */
	if ((k = memchr(c, '&', n)) != NULL) {
		i = (size_t)(k - c);
		for (l = i; l < n && c[l] == '&'; l++)
			/* nothing */;
		say_around(x, b, c, i, "and", c + l, n - l, depth);
		return;
	}
	/* "C++", "C++17" */
	if ((k = memmem(c, n, "++", 2)) != NULL && k > c) {
		i = (size_t)(k - c);
		for (l = i; l < n && c[l] == '+'; l++)
			/* nothing */;
		say_around(x, b, c, i, "plus plus", c + l, n - l, depth);
		return;
	}
	/* "#1234" is "number 1234", "C#" "C sharp"; a heading's '#' goes */
	if ((k = memchr(c, '#', n)) != NULL) {
		i = (size_t)(k - c);
		if (i == 1 && n == 2 && isalpha((unsigned char)c[0])) {
			buf_putc(b, c[0]);
			buf_puts(b, " sharp");
			return;
		}
		for (l = i; l < n && c[l] == '#'; l++)
			/* nothing */;
		if ((d = say_span_digits(c + l, n - l)) > 0) {
			if (i > 0) {
				say_core(x, b, c, i, depth + 1);
				buf_putc(b, ' ');
			}
			buf_puts(b, "number ");
			buf_append(b, c + l, d);
			if (l + d < n) {
				buf_putc(b, ' ');
				say_core(x, b, c + l + d, n - l - d, depth + 1);
			}
		} else
			say_around(x, b, c, i, NULL, c + l, n - l, depth);
		return;
	}
	/* "express@5.0.0", "router@^2" */
	if ((k = memchr(c, '@', n)) != NULL) {
		i = (size_t)(k - c);
		for (l = i + 1; l < n && (c[l] == '^' || c[l] == '~'); l++)
			/* nothing */;
		if (i > 0 && l < n && (isdigit((unsigned char)c[l]) ||
		    ((c[l] == 'v' || c[l] == 'V') && l + 1 < n &&
		    isdigit((unsigned char)c[l + 1]))))
			say_around(x, b, c, i, "version", c + l, n - l, depth);
		else if (i == 0)
			say_core(x, b, c + 1, n - 1, depth + 1);
		else
			say_around(x, b, c, i, "at", c + i + 1, n - i - 1,
			    depth);
		return;
	}
	/* NAME=VALUE, --flag=value */
	if (say_is_setting(c, n, &eq)) {
		if (n > SAY_NAME_MAX || say_ident_words(c, eq) +
		    say_ident_words(c + eq + 1, n - eq - 1) > SAY_PARTS_MAX) {
			buf_puts(b, "the setting shown in the show notes");
			return;
		}
		if (!say_ident(b, c, eq))
			say_core(x, b, c, eq, depth + 1);
		buf_puts(b, " set to ");
		say_core(x, b, c + eq + 1, n - eq - 1, depth + 1);
		return;
	}
	/* "<1.16.0", "torch>=2.11", "1.2->1.3"; "st->value" is a name */
	for (i = 0; i < n; i++) {
		if (strchr("<>=!-", c[i]) == NULL)
			continue;
		if ((l = say_op(c + i, n - i, &said)) == 0)
			continue;
		if (c[i] == '-' && i > 0 && (isalnum((unsigned char)c[i - 1]) ||
		    c[i - 1] == '_') && i + 2 < n &&
		    (isalpha((unsigned char)c[i + 2]) || c[i + 2] == '_')) {
			i++;
			continue;
		}
		say_around(x, b, c, i, said, c + i + l, n - i - l, depth);
		return;
	}
	/* "v1.52.1", "python3.9", ".5" */
	if (n >= 2 && c[0] == '.' && isdigit((unsigned char)c[1])) {
		buf_puts(b, "point ");
		say_digits(b, c + 1, say_span_digits(c + 1, n - 1), 0);
		if ((d = 1 + say_span_digits(c + 1, n - 1)) < n) {
			buf_putc(b, ' ');
			say_core(x, b, c + d, n - d, depth + 1);
		}
		return;
	}
	/* "1,204.5" is "1204.5", said as the voice reads it */
	if ((d = say_span_digits(c, n)) > 0 && d <= 3 && d + 4 <= n &&
	    c[d] == ',') {
		struct buf	t;

		for (i = d; i + 4 <= n && c[i] == ',' &&
		    say_span_digits(c + i + 1, n - i - 1) == 3; i += 4)
			/* nothing */;
		if (i > d && (i == n || !isdigit((unsigned char)c[i]))) {
			buf_init(&t);
			for (l = 0; l < i; l++)
				if (c[l] != ',')
					buf_putc(&t, c[l]);
			buf_append(&t, c + i, n - i);
			say_core(x, b, t.data, t.len, depth + 1);
			buf_free(&t);
			return;
		}
	}
	/* "grep-cli-0.1.10", "pypy-3.10": a name and its version */
	for (i = 1; i + 1 < n; i++) {
		if (c[i] != '-' || !say_is_version(c + i + 1, n - i - 1))
			continue;
		for (l = 0; l < i && (isalnum((unsigned char)c[l]) ||
		    c[l] == '-'); l++)
			/* nothing */;
		if (l == i && say_span_digits(c, i) < i) {
			say_core(x, b, c, i, depth + 1);
			buf_putc(b, ' ');
			say_version(x, b, c + i + 1, n - i - 1, depth);
			return;
		}
		break;
	}
	l = say_span_alpha(c, n);
	if (say_is_version(c + l, n - l)) {
		if (l == 1 && (c[0] == 'v' || c[0] == 'V'))
			buf_puts(b, "version ");
		else if (l > 0) {
			say_part(b, c, l, 0);
			buf_putc(b, ' ');
		}
		say_version(x, b, c + l, n - l, depth);
		return;
	}
	/* "29%" */
	if ((d = say_span_digits(c, n)) > 0 && d < n && c[d] == '%') {
		buf_append(b, c, d);
		buf_puts(b, " percent");
		if (d + 1 < n) {
			buf_putc(b, ' ');
			say_core(x, b, c + d + 1, n - d - 1, depth + 1);
		}
		return;
	}
	if (say_ident(b, c, n))
		return;
	say_plain(b, c, n);
}

/* The abbreviations said by their words. */
static const struct {
	const char	*word;
	const char	*said;
	int		 dot;	/* the '.' after it is the abbreviation's */
} say_abbrevs[] = {
	{ "e.g", "for example", 1 }, { "i.e", "that is", 1 },
	{ "vs", "versus", 1 }, { "w.r.t", "with respect to", 1 },
};

/*
 * The word w[0..n) without the punctuation around it: w[*a..*e). A
 * closing parenthesis is the sentence's when the word has no '(' for it.
 */
static void
say_trim(const char *w, size_t n, size_t *a, size_t *e)
{
	size_t	i, open = 0, close = 0;

	for (*a = 0; *a < n && strchr("(\"'[{*_", w[*a]) != NULL; (*a)++)
		/* nothing */;
	for (*e = n; *e > *a && strchr(".,;:!?\"']}*_", w[*e - 1]) != NULL;
	    (*e)--)
		/* nothing */;
	for (i = *a; i < *e; i++) {
		open += w[i] == '(';
		close += w[i] == ')';
	}
	while (*e > *a && w[*e - 1] == ')' && close > open) {
		(*e)--;
		close--;
	}
}

/*
 * Say the word w[0..n): the punctuation around it kept (but markup's
 * '*' and '_'), the rest by its shape (say_core).
 */
static void
say_word(const struct say *x, struct buf *b, const char *w, size_t n)
{
	size_t	a, e, i;
	int	dot = 0;

	/* a table's '|', a heading's '#', a rule, a lone '*' */
	if (strspn(w, "-|#*_~^\\") >= n)
		return;
	say_trim(w, n, &a, &e);
	for (i = 0; i < a; i++)
		if (w[i] != '*' && w[i] != '_')
			buf_putc(b, w[i]);
	for (i = 0; i < sizeof say_abbrevs / sizeof say_abbrevs[0]; i++) {
		/* "E.g." as "e.g."; but "VS Code" */
		if (strlen(say_abbrevs[i].word) != e - a ||
		    tolower((unsigned char)w[a]) != say_abbrevs[i].word[0] ||
		    strncmp(say_abbrevs[i].word + 1, w + a + 1, e - a - 1) != 0)
			continue;
		if (isupper((unsigned char)w[a])) {
			buf_putc(b, (char)toupper((unsigned char)
			    say_abbrevs[i].said[0]));
			buf_puts(b, say_abbrevs[i].said + 1);
		} else
			buf_puts(b, say_abbrevs[i].said);
		dot = say_abbrevs[i].dot && e < n && w[e] == '.';
		break;
	}
	if (i == sizeof say_abbrevs / sizeof say_abbrevs[0])
		say_core(x, b, w + a, e - a, 0);
	for (e += dot; e < n; e++)
		if (w[e] != '*' && w[e] != '_')
			buf_putc(b, w[e]);
}

/* Whether the word w[0..n) starts with a version ("1.16.0", "v2.1", "3"). */
static int
say_versionish(const char *w, size_t n)
{
	size_t	a = strspn(w, "(\"'");

	if (a < n && (w[a] == 'v' || w[a] == 'V'))
		a++;
	return a < n && isdigit((unsigned char)w[a]);
}

/* Whether the word w[0..n) ends a clause: a comparison stops there. */
static int
say_ends_clause(const char *w, size_t n)
{
	return n > 0 && strchr(".,;:!?)", w[n - 1]) != NULL;
}

/*
 * The second pass: each word of s said, to at most cap bytes (then the
 * rest as it is).
 */
static char *
say_words(const struct say *x, const char *s, size_t cap)
{
	struct buf	 out, w;
	const char	*p = s, *end, *q, *w1, *w2, *next, *said;
	size_t		 n1, n2;

	buf_init(&out);
	buf_init(&w);
	buf_puts(&out, "");
	end = s + strlen(s);
	while (p < end) {
		if (*p == ' ') {
			p++;
			continue;
		}
		q = p + strcspn(p, " ");
		next = q;
		buf_reset(&w);
		if (say_comparison(p, (size_t)(q - p))) {
			/*
			 * "for < c-ares 1.16.0": the name first, then how it
			 * compares ("for c-ares older than ..."); an operator
			 * before a version is said before it
			 */
			say_op(p, (size_t)(q - p), &said);
			w1 = q + strspn(q, " ");
			n1 = strcspn(w1, " ");
			w2 = w1 + n1 + strspn(w1 + n1, " ");
			n2 = strcspn(w2, " ");
			if (n1 > 0 && n2 > 0 && !say_versionish(w1, n1) &&
			    !say_ends_clause(w1, n1) && say_op(w1, n1,
			    &said) == 0 && say_versionish(w2, n2)) {
				say_op(p, (size_t)(q - p), &said);
				say_word(x, &w, w1, n1);
				say_add(&w, said);
				buf_putc(&w, ' ');
				say_word(x, &w, w2, n2);
				next = w2 + n2;
			} else
				say_word(x, &w, p, (size_t)(q - p));
		} else if (strspn(p, "-") >= (size_t)(q - p) && q - p <= 3) {
			/* a dash between words ("a - b", "a — b") is a pause */
			if (out.len > 0 && (isalnum((unsigned char)
			    out.data[out.len - 1]) || strchr("\"')",
			    out.data[out.len - 1]) != NULL) &&
			    say_fits(out.len, 1, (size_t)(end - q), cap))
				buf_putc(&out, ',');
			p = q;
			continue;
		} else if (say_arrow(p, (size_t)(q - p)) && (out.len == 0 ||
		    q[strspn(q, " ")] == '\0'))
			/* an arrow from or to nothing ("→ ✓") says nothing */;
		else
			say_word(x, &w, p, (size_t)(q - p));
		if (!say_fits(out.len, w.len + 2, (size_t)(end - next), cap))
			break;
		if (w.len > 0) {
			if (out.len > 0)
				buf_putc(&out, ' ');
			buf_append(&out, w.data, w.len);
		}
		p = next;
	}
	if (p < end) {
		buf_putc(&out, ' ');
		buf_append(&out, p, (size_t)(end - p));
	}
	buf_free(&w);
	return buf_steal(&out);
}

/*
 * s with single spaces, none at its ends, none before the punctuation
 * that ends a clause, and no brackets left empty by what was dropped; in
 * place.
 */
static void
say_spaces(char *s)
{
	char	*p, *o;

	for (p = o = s; *p != '\0'; p++) {
		if (*p == ' ' && (o == s || o[-1] == ' '))
			continue;
		if (strchr(",;:.!?", *p) != NULL && o > s && o[-1] == ' ' &&
		    (p[1] == ' ' || p[1] == '\0'))
			o--;
		/* "()" and "( )" around a name that went */
		if (*p == ')' && o > s && (o[-1] == '(' || (o[-1] == ' ' &&
		    o - 1 > s && o[-2] == '('))) {
			o -= o[-1] == '(' ? 1 : 2;
			continue;
		}
		*o++ = *p;
	}
	while (o > s && o[-1] == ' ')
		o--;
	*o = '\0';
}

char *
say_sentence(const char *written, const struct say_name *names,
    size_t nnames)
{
	struct say	 x;
	char		*letters, *said;
	size_t		 cap;

	if (written == NULL)
		written = "";
	x.names = names;
	x.nnames = names != NULL ? nnames : 0;
	cap = SAY_GROWTH * strlen(written) + SAY_SLACK;
	/* a byte short: the second pass puts a space before a rest it keeps */
	letters = say_letters(&x, written, cap - 1);
	said = say_words(&x, letters, cap);
	free(letters);
	say_spaces(said);
	return said;
}

char **
say_notes(const char *written, size_t *nout)
{
	static const struct say	 none = { NULL, 0 };
	struct buf		 b;
	const char		*p = written, *w;
	char			**v = NULL;
	size_t			 n, a, e, nv = 0;

	buf_init(&b);
	while (p != NULL && *p != '\0') {
		if (isspace((unsigned char)*p)) {
			p++;
			continue;
		}
		for (w = p; *p != '\0' && !isspace((unsigned char)*p); p++)
			/* nothing */;
		n = (size_t)(p - w);
		say_trim(w, n, &a, &e);
		buf_reset(&b);
		say_core(&none, &b, w + a, e - a, 0);
		if (strstr(buf_str(&b), " shown in the show notes") == NULL)
			continue;
		v = xreallocarray(v, nv + 1, sizeof(*v));
		v[nv++] = xstrndup(w + a, e - a);
	}
	buf_free(&b);
	*nout = nv;
	return v;
}

