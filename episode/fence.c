/*
 * The fence around a model's rewrite: the day's facts, and the checks a
 * reply must pass to be told instead of the draft.
 *
 * Why the checks read words rather than meaning: the fence cannot know
 * what a sentence claims, only what it names. So it holds the reply to
 * what can be named: every capitalised word that is not the start of a
 * sentence (a person, a project, a product) must be a word of the sheet
 * or the draft; every number, spoken or in digits, must be one of theirs;
 * every identifier (snake_case, camelCase, a flag, KEY=VALUE) must be one
 * of their tokens byte for byte. A faithful retelling passes, since it
 * draws on the same words; an invented person, figure or setting does
 * not. What a reply must keep (each revert and its reason, the focus
 * setting) is looked for by its words too.
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
#include "classify.h"
#include "fence.h"
#include "log.h"
#include "spoken.h"
#include "text.h"
#include "xmalloc.h"

/* Stories and texts the sheet gives at most: the model's prompt stays small. */
#define FENCE_MAX_STORIES	64
#define FENCE_MAX_TEXT		400
/* A revert's words looked for in a reply: the first so many of them. */
#define FENCE_REVERT_WORDS	8
/* A token longer than this is no word (and is checked as one piece). */
#define FENCE_MAX_TOKEN		512

const char *const fence_reasons[] = { FENCE_REASONS, NULL };

/* A sorted set of strings. */
struct fence_set {
	char	**v;
	size_t	  n;
	int	  sorted;
};

struct fence_rev {
	char	*what;
	char	*reason;
	int	 automatic;
	int	 required;	/* the draft tells it: so must a reply */
};

struct fence {
	char		*draft;
	char		*sheet;
	char		*focus;
	char	       **bots;
	size_t		 nbots;
	struct fence_rev *reverts;
	size_t		 nreverts;
	struct fence_set words;		/* lower-case words of sheet and draft */
	struct fence_set tokens;	/* their tokens, as written */
	double		*numbers;	/* the numbers they say, sorted */
	size_t		 nnumbers;
	size_t		 draft_words;
};

/* A reply's token: a run of non-blanks without the punctuation around it. */
struct fence_tok {
	const char	*p;
	size_t		 len;
	int		 initial;	/* the first of a sentence */
};

/* Capitalised words any spoken text may have that name no one. */
static const char *const fence_common[] = {
	"i", "m", "ll", "ve", "re", "d", "s", "t", "ok", "okay", "hey", "hello",
	"today", "focus", "github", "git", "api", "apis", "ci", "cpu", "gpu",
	"pr", "prs", "january", "february", "march", "april", "may", "june",
	"july", "august", "september", "october", "november", "december",
	"monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
	"sunday",
};

/* Possessives a sentence opens with that are not a person's. */
static const char *const fence_contractions[] = {
	"here", "there", "that", "it", "what", "let", "who", "he", "she",
	"everyone", "everybody", "today", "one", "where", "how", "this",
};

/* Words that open a sentence as a person would, and are no one. */
static const char *const fence_pronouns[] = {
	"i", "you", "we", "they", "he", "she", "it", "this", "that", "these",
	"those", "someone", "somebody", "everyone", "everybody", "nobody",
	"who", "which", "another", "each", "both", "others", "one", "all",
};

/* What a person did, as the word after their name says it. */
static const char *const fence_deeds[] = {
	"added", "also", "authored", "bumped", "cleaned", "contributed",
	"explained", "fixed", "helped", "improved", "landed", "made", "merged",
	"moved", "noted", "pushed", "refactored", "removed", "renamed",
	"reported", "reverted", "reviewed", "reworked", "said", "sent",
	"submitted", "tidied", "updated", "wrote",
};

/* Identifiers of common speech, said by any host. */
static const char *const fence_idents[] = {
	"e.g", "i.e", "GitHub", "JavaScript", "TypeScript", "macOS", "iOS",
};

/* Words that compare the day with others: only where the draft does. */
static const char *const fence_comparisons[] = {
	"yesterday", "last week", "last month", "last year", "than usual",
	"than ever", "than last", "as usual", "new record", "record day",
	"record-breaking", "busiest", "quietest",
	"slowest", "previous episode", "last episode", "the other day",
	"compared to", "compared with", "earlier this week", "all week",
};

/* How a reply says a revert had no reason. */
static const char *const fence_no_reason[] = {
	"no reason", "didn't say why", "did not say why", "without saying why",
	"without a reason", "not say why", "wasn't given", "was not given",
	"weren't given", "unexplained", "no explanation",
};

/* Words of four letters or more that say nothing of a change. */
static const char *const fence_stop[] = {
	"about", "after", "also", "been", "before", "from", "have", "into",
	"more", "only", "some", "than", "that", "their", "them", "then",
	"there", "they", "this", "were", "what", "when", "which", "will",
	"with", "your",
};

#define NELEM(v)	(sizeof(v) / sizeof((v)[0]))

static int	fence_tells_revert(const struct fence_set *, const char *,
		    const struct fence_rev *, const char **);

static int
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

static void
fence_set_add(struct fence_set *s, const char *p, size_t len)
{
	s->v = xreallocarray(s->v, s->n + 1, sizeof(*s->v));
	s->v[s->n++] = xstrndup(p, len);
	s->sorted = 0;
}

static void
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

static int
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

static void
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
static int
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
static size_t
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
static int
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

/* Add the lower-case words of [p, p+len) to s. */
static void
fence_add_words(struct fence_set *s, const char *p, size_t len)
{
	const char	*e = p + len, *w;
	char		*lw;
	size_t		 i, n;

	while (p < e) {
		if (!fence_wordc(p)) {
			p += fence_clen(p);
			continue;
		}
		for (w = p; p < e && fence_wordc(p); p += fence_clen(p))
			;
		/* a character cut by the end is not read past it */
		if (p > e)
			p = e;
		n = (size_t)(p - w);
		lw = xstrndup(w, n);
		for (i = 0; i < n; i++)
			lw[i] = (char)tolower((unsigned char)lw[i]);
		fence_set_add(s, lw, n);
		free(lw);
	}
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
static int
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
static void
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
static int
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

static void
fence_add_number(void *arg, double v)
{
	struct fence	*f = arg;

	f->numbers = xreallocarray(f->numbers, f->nnumbers + 1,
	    sizeof(*f->numbers));
	f->numbers[f->nnumbers++] = v;
}

static int
fence_dblcmp(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int
fence_has_number(const struct fence *f, double v)
{
	size_t	lo = 0, hi = f->nnumbers, mid;

	/* one is a pronoun as often as a count ("one of those days") */
	if (v == 1 || v == 0)
		return 1;
	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (fabs(f->numbers[mid] - v) < 1e-9)
			return 1;
		if (f->numbers[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* Learn the words, tokens and numbers of a text of the facts. */
static void
fence_learn(struct fence *f, const char *text)
{
	struct fence_tok	 t;
	const char		*p = text;
	double			 v;
	int			 initial = 1;

	if (text == NULL)
		return;
	fence_add_words(&f->words, text, strlen(text));
	while (fence_next(&p, &t, &initial)) {
		if (t.len == 0 || t.len > FENCE_MAX_TOKEN)
			continue;
		fence_set_add(&f->tokens, t.p, t.len);
		/* "PyObject_Size's": the token without the possessive too */
		if (t.len > 2 && t.p[t.len - 2] == '\'' && t.p[t.len - 1] == 's')
			fence_set_add(&f->tokens, t.p, t.len - 2);
		if (fence_digits(t.p, t.len, &v))
			fence_add_number(f, v);
	}
	fence_spoken(text, fence_add_number, f);
}

/* Does text hold needle as whole words, any case? */
static const char *
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

/*
 * What the draft keeps, a reply must keep: the reverts it tells and the
 * focus it quotes. (A fence that asked for more would refuse the draft.)
 */
static void
fence_require(struct fence *f)
{
	struct fence_set	 said;
	const char		*what;
	size_t			 i;

	memset(&said, 0, sizeof(said));
	fence_add_words(&said, f->draft, strlen(f->draft));
	fence_set_sort(&said);
	for (i = 0; i < f->nreverts; i++)
		f->reverts[i].required = fence_tells_revert(&said, f->draft,
		    &f->reverts[i], &what);
	fence_set_free(&said);
	if (f->focus != NULL && strstr(f->draft, f->focus) == NULL) {
		free(f->focus);
		f->focus = NULL;
	}
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

/*
 * A text of the facts as the fence reads it (new; NULL for NULL): NFKC
 * as a reply is, so a name the reply writes as the facts do is the same
 * bytes. Facts are valid UTF-8 (record_clean); one that is not is kept.
 */
static char *
fence_fact(const char *s)
{
	char	*n;

	if (s == NULL)
		return NULL;
	if ((n = fence_normalize(s)) == NULL)
		n = xstrdup(s);
	return n;
}

struct fence *
fence_new(const struct fence_facts *facts)
{
	struct fence	*f = xcalloc(1, sizeof(*f));
	struct buf	 b;
	char		*n;
	size_t		 i;

	f->draft = fence_fact(facts->draft != NULL ? facts->draft : "");
	f->focus = fence_fact(facts->focus);
	if (facts->sheet != NULL)
		f->sheet = fence_fact(facts->sheet);
	else {
		buf_init(&b);
		for (i = 0; i < facts->npeople; i++)
			buf_printf(&b, "Person: %s\n", facts->people[i]);
		for (i = 0; i < facts->nreverts; i++)
			buf_printf(&b, "Revert of %s: %s\n",
			    facts->reverts[i].what,
			    facts->reverts[i].reason != NULL ?
			    facts->reverts[i].reason : "no reason was given");
		if (facts->focus != NULL)
			buf_printf(&b, "Today's Focus: %s\n", facts->focus);
		f->sheet = fence_fact(buf_str(&b));
		buf_free(&b);
	}
	f->bots = xcalloc(facts->nbots + 1, sizeof(*f->bots));
	for (i = 0; i < facts->nbots; i++)
		if (facts->bots[i] != NULL && strlen(facts->bots[i]) >= 3)
			f->bots[f->nbots++] = xstrdup(facts->bots[i]);
	f->reverts = xcalloc(facts->nreverts + 1, sizeof(*f->reverts));
	for (i = 0; i < facts->nreverts; i++) {
		f->reverts[i].what = fence_fact(facts->reverts[i].what != NULL ?
		    facts->reverts[i].what : "");
		f->reverts[i].reason = fence_fact(facts->reverts[i].reason);
		f->reverts[i].automatic = facts->reverts[i].automatic;
	}
	f->nreverts = facts->nreverts;

	fence_learn(f, f->draft);
	fence_learn(f, f->sheet);
	for (i = 0; i < facts->npeople; i++) {
		n = fence_fact(facts->people[i]);
		fence_learn(f, n);
		free(n);
	}
	for (i = 0; i < NELEM(fence_common); i++)
		fence_set_add(&f->words, fence_common[i],
		    strlen(fence_common[i]));
	for (i = 0; i < NELEM(fence_idents); i++)
		fence_set_add(&f->tokens, fence_idents[i],
		    strlen(fence_idents[i]));
	fence_set_sort(&f->words);
	fence_set_sort(&f->tokens);
	if (f->nnumbers > 0)
		qsort(f->numbers, f->nnumbers, sizeof(*f->numbers),
		    fence_dblcmp);
	f->draft_words = text_word_count(f->draft);
	fence_require(f);
	return f;
}

void
fence_free(struct fence *f)
{
	size_t	i;

	if (f == NULL)
		return;
	free(f->draft);
	free(f->sheet);
	free(f->focus);
	for (i = 0; i < f->nbots; i++)
		free(f->bots[i]);
	free(f->bots);
	for (i = 0; i < f->nreverts; i++) {
		free(f->reverts[i].what);
		free(f->reverts[i].reason);
	}
	free(f->reverts);
	fence_set_free(&f->words);
	fence_set_free(&f->tokens);
	free(f->numbers);
	free(f);
}

const char *
fence_sheet(const struct fence *f)
{
	return f->sheet;
}

/* Set *detail to "what: 'text'" (new), text cut short. */
static const char *
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

/* Markdown, by line: headings, quotes, lists, tables, code, emphasis, links. */
static const char *
fence_markdown(const struct fence *f, const char *reply, char **detail)
{
	const char	*p = reply, *l;
	size_t		 i;

	for (l = reply; *l != '\0'; l = *p == '\0' ? p : p + 1) {
		p = strchrnul(l, '\n');
		while (l < p && *l == ' ')
			l++;
		if (l < p && (strchr("#>|", *l) != NULL || (p - l >= 2 &&
		    strchr("*-+", l[0]) != NULL && l[1] == ' ')))
			return fence_fail(detail, "markdown", "a line opens "
			    "with markup", l, (size_t)(p - l));
		for (i = 0; l + i < p && isdigit((unsigned char)l[i]); i++)
			;
		if (i > 0 && l + i + 1 < p && strchr(".)", l[i]) != NULL &&
		    l[i + 1] == ' ')
			return fence_fail(detail, "markdown", "a numbered list",
			    l, (size_t)(p - l));
	}
	if ((p = strpbrk(reply, "`*")) != NULL)
		return fence_fail(detail, "markdown", "markup", p, 10);
	if ((p = strstr(reply, "](")) != NULL ||
	    ((p = strstr(reply, "__")) != NULL && strstr(f->draft, "__") ==
	    NULL) || (p = strstr(reply, "~~")) != NULL ||
	    (p = strstr(reply, "</")) != NULL)
		return fence_fail(detail, "markdown", "markup", p, 10);
	return NULL;
}

/*
 * Markup a page or a voice would obey, which no spoken text holds (the
 * drafter's is made so by spoken_clean): a tag ("<script>", "<b>",
 * "<break/>"), espeak's phonemes ("[[h@'loU]]") and an entity ("&amp;").
 * A reply with any is refused, not stripped: a model that writes markup
 * was not told what it was told, and the draft is told instead.
 */
static const char *
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
static const char *
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
static const char *
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
static int
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
static int
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
static int
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

/* Is every word of a capitalised token one of the facts' words? */
static int
fence_known_words(const struct fence *f, const char *p, size_t len)
{
	const char	*e = p + len, *w;
	char		 lw[FENCE_MAX_TOKEN + 1];
	size_t		 i, n;

	while (p < e) {
		if (!fence_wordc(p)) {
			p += fence_clen(p);
			continue;
		}
		for (w = p; p < e && fence_wordc(p); p += fence_clen(p))
			;
		if (p > e)
			p = e;
		n = (size_t)(p - w);
		for (i = 0; i < n; i++)
			lw[i] = (char)tolower((unsigned char)w[i]);
		if (!fence_set_has(&f->words, lw, n))
			return 0;
	}
	return 1;
}

/* The token without a possessive "'s" or "’s". */
static size_t
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

/* Whether the word at p (after blanks) is one of fence_deeds. */
static int
fence_acts(const char *p)
{
	char	w[16];
	size_t	n = 0;

	while (*p == ' ')
		p++;
	while (n + 1 < sizeof(w) && islower((unsigned char)p[n])) {
		w[n] = p[n];
		n++;
	}
	w[n] = '\0';
	return n > 0 && fence_in(fence_deeds, NELEM(fence_deeds), w);
}

/* The checks made token by token: names, numbers, identifiers, hashes. */
static const char *
fence_tokens(const struct fence *f, const char *reply, char **detail)
{
	struct fence_tok	 t;
	const char		*p = reply;
	char			 lw[FENCE_MAX_TOKEN + 1];
	double			 v;
	size_t			 base, i;
	int			 initial = 1, poss;

	while (fence_next(&p, &t, &initial)) {
		if (t.len == 0)
			continue;
		if (t.len > FENCE_MAX_TOKEN)
			return fence_fail(detail, "identifier", "an overlong "
			    "word", t.p, t.len);
		if (memchr(t.p, '@', t.len) != NULL && t.p[0] != '@' &&
		    t.p[t.len - 1] != '@')
			return fence_fail(detail, "email", "an address", t.p,
			    t.len);
		if (fence_hash(t.p, t.len) && !fence_set_has(&f->tokens, t.p,
		    t.len))
			return fence_fail(detail, "hash", "a hash", t.p, t.len);
		base = fence_base(t.p, t.len, &poss);
		if (fence_set_has(&f->tokens, t.p, t.len) ||
		    fence_set_has(&f->tokens, t.p, base))
			continue;
		for (i = 0; i < t.len && !isdigit((unsigned char)t.p[i]); i++)
			;
		if (i < t.len) {
			if (!fence_digits(t.p, t.len, &v))
				return fence_fail(detail, "number", "a number "
				    "not in the facts", t.p, t.len);
			if (!fence_has_number(f, v))
				return fence_fail(detail, "number", "a number "
				    "not in the facts", t.p, t.len);
			continue;
		}
		if (fence_identifier(t.p, base))
			return fence_fail(detail, "identifier", "an identifier "
			    "not in the facts", t.p, t.len);
		if (!fence_capital(t.p))
			continue;
		if (t.initial) {
			/*
			 * A sentence's first word names someone when it is a
			 * possessive ("Zebulon's fix") or does what people
			 * do ("Zebulon fixed"), and is no pronoun.
			 */
			for (i = 0; i < base; i++)
				lw[i] = (char)tolower((unsigned char)t.p[i]);
			lw[base] = '\0';
			if ((!poss && (!fence_acts(p) || (base > 2 &&
			    strcmp(lw + base - 2, "ly") == 0))) || fence_in(
			    fence_contractions, NELEM(fence_contractions), lw) ||
			    fence_in(fence_pronouns, NELEM(fence_pronouns), lw))
				continue;
		}
		if (!fence_known_words(f, t.p, base))
			return fence_fail(detail, "person", "a name not in the "
			    "facts", t.p, t.len);
	}
	return NULL;
}

/* Call fn for each number the reply says in words. */
struct fence_spoken_check {
	const struct fence	*f;
	double			 bad;
	int			 found;
};

static void
fence_spoken_one(void *arg, double v)
{
	struct fence_spoken_check	*c = arg;

	if (!c->found && !fence_has_number(c->f, v)) {
		c->found = 1;
		c->bad = v;
	}
}

/*
 * Whether text tells revert r: most of its work's words (the first
 * FENCE_REVERT_WORDS of four letters or more), most of its reason's, and
 * when it has none, a statement that none was given; *what (static or
 * r's) says what is missing.
 */
static int
fence_tells_revert(const struct fence_set *said, const char *text,
    const struct fence_rev *r, const char **what)
{
	struct fence_set	 want;
	size_t			 j, k, hit, need;

	for (k = 0; k < 2; k++) {
		const char *t = k == 0 ? r->what : r->reason;

		if (t == NULL)
			continue;
		memset(&want, 0, sizeof(want));
		fence_add_words(&want, t, strlen(t));
		fence_set_sort(&want);
		hit = need = 0;
		for (j = 0; j < want.n && need < FENCE_REVERT_WORDS; j++) {
			if (strlen(want.v[j]) < 4 || fence_in(fence_stop,
			    NELEM(fence_stop), want.v[j]))
				continue;
			need++;
			if (fence_set_has(said, want.v[j], strlen(want.v[j])))
				hit++;
		}
		fence_set_free(&want);
		if (hit * 2 < need) {
			*what = t;
			return 0;
		}
	}
	if (r->automatic && strcasestr(text, "automat") == NULL) {
		*what = "an automatic revert not said so";
		return 0;
	}
	if (r->reason == NULL && !r->automatic) {
		for (j = 0; j < NELEM(fence_no_reason); j++)
			if (strcasestr(text, fence_no_reason[j]) != NULL)
				return 1;
		*what = "that no reason was given";
		return 0;
	}
	return 1;
}

/*
 * Each revert the draft tells, still told. (One the draft does not tell,
 * past the few it tells one by one, is not asked of the reply either.)
 */
static const char *
fence_reverts(const struct fence *f, const char *reply, char **detail)
{
	struct fence_set	 said;
	const char		*what = NULL;
	size_t			 i;
	int			 ok = 1;

	memset(&said, 0, sizeof(said));
	fence_add_words(&said, reply, strlen(reply));
	fence_set_sort(&said);
	for (i = 0; i < f->nreverts && ok; i++)
		if (f->reverts[i].required)
			ok = fence_tells_revert(&said, reply, &f->reverts[i],
			    &what);
	fence_set_free(&said);
	if (!ok)
		return fence_fail(detail, "revert", "a revert not told",
		    what, strlen(what));
	return NULL;
}

const char *
fence_check(const struct fence *f, const char *reply, char **detail)
{
	struct fence_spoken_check	 sc;
	const char			*p, *r;
	char				*norm;
	size_t				 words, i;
	int				 same;

	if (detail != NULL)
		*detail = NULL;
	/* what is read is what is kept: the caller's fence_normalize */
	if ((norm = fence_normalize(reply)) == NULL)
		return fence_fail(detail, "script", "text that is not UTF-8",
		    NULL, 0);
	same = strcmp(norm, reply) == 0;
	free(norm);
	if (!same)
		return fence_fail(detail, "script", "text not in NFKC "
		    "(fence_normalize)", NULL, 0);
	words = text_word_count(reply);
	if (words == 0)
		return fence_fail(detail, "empty", "no text", NULL, 0);
	if (words * 2 < f->draft_words)
		return fence_fail(detail, "too_short", "under half the draft's "
		    "words", NULL, 0);
	if (words > f->draft_words * 2)
		return fence_fail(detail, "too_long", "over twice the draft's "
		    "words", NULL, 0);
	if ((r = fence_tags(reply, detail)) != NULL ||
	    (r = fence_markdown(f, reply, detail)) != NULL ||
	    (r = fence_links(reply, detail)) != NULL ||
	    (r = fence_scripts(reply, detail)) != NULL)
		return r;
	if (f->focus != NULL && strstr(reply, f->focus) == NULL)
		return fence_fail(detail, "focus", "the focus setting not "
		    "quoted as written", f->focus, strlen(f->focus));
	for (i = 0; i < f->nbots; i++)
		if ((p = fence_find_word(reply, f->bots[i])) != NULL &&
		    fence_find_word(f->draft, f->bots[i]) == NULL)
			return fence_fail(detail, "bot", "a bot named", p,
			    strlen(f->bots[i]));
	if ((r = fence_tokens(f, reply, detail)) != NULL)
		return r;
	sc.f = f;
	sc.found = 0;
	sc.bad = 0;
	fence_spoken(reply, fence_spoken_one, &sc);
	if (sc.found) {
		if (detail != NULL)
			xasprintf(detail, "a number not in the facts: %.15g",
			    sc.bad);
		return "number";
	}
	if ((r = fence_reverts(f, reply, detail)) != NULL)
		return r;
	for (i = 0; i < NELEM(fence_comparisons); i++)
		if ((p = fence_find_word(reply, fence_comparisons[i])) != NULL &&
		    fence_find_word(f->draft, fence_comparisons[i]) == NULL)
			return fence_fail(detail, "comparison", "a comparison "
			    "with other days", p, strlen(fence_comparisons[i]));
	return NULL;
}

/* Append at most FENCE_MAX_TEXT bytes of s, whole characters, on one line. */
static void
fence_put_text(struct buf *b, const char *s)
{
	size_t	n = strlen(s), i;

	if (n > FENCE_MAX_TEXT) {
		n = FENCE_MAX_TEXT;
		while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
	}
	for (i = 0; i < n; i++)
		buf_putc(b, s[i] == '\n' ? ' ' : s[i]);
}

/* Add s to v (growing it) unless NULL, empty or already there. */
static void
fence_list_add(char ***v, size_t *n, const char *s)
{
	size_t	i;

	if (s == NULL || *s == '\0')
		return;
	for (i = 0; i < *n; i++)
		if (strcmp((*v)[i], s) == 0)
			return;
	*v = xreallocarray(*v, *n + 1, sizeof(**v));
	(*v)[(*n)++] = xstrdup(s);
}

/* A bot's names: as said aloud, its login with and without "[bot]". */
static void
fence_bot_names(char ***v, size_t *n, const char *login, const char *name)
{
	char	*said, *bare;
	size_t	 len;

	said = classify_bot_name(login, name);
	fence_list_add(v, n, said);
	free(said);
	fence_list_add(v, n, login);
	fence_list_add(v, n, name);
	if (login != NULL && (len = strlen(login)) > 5 &&
	    strcmp(login + len - 5, "[bot]") == 0) {
		bare = xstrndup(login, len - 5);
		fence_list_add(v, n, bare);
		free(bare);
	}
}

/*
 * One story of the sheet: who, what, why, figures, setting, and for a
 * revert what it took out and why; adds to the people and reverts.
 */
static void
fence_story(struct buf *b, const struct day *day, const struct episode_work *w,
    char ***people, size_t *npeople, struct fence_revert **reverts,
    size_t *nreverts)
{
	const struct commit	*c = NULL;
	struct classify		 cl;
	struct fence_revert	*r;
	const char		*reason = NULL;
	long			 idx;
	size_t			 i;

	if ((idx = day_find_commit(day, w->sha)) >= 0)
		c = &day->commits[idx];
	memset(&cl, 0, sizeof(cl));
	if (c != NULL)
		classify_commit(c, day->repo, &cl);
	if (w->bot)
		buf_puts(b, "- An automated change (never name the bot): ");
	else {
		buf_puts(b, "- ");
		fence_put_text(b, w->name != NULL ? w->name : "someone");
		if (c != NULL && c->author_login != NULL) {
			buf_puts(b, " (");
			fence_put_text(b, c->author_login);
			buf_putc(b, ')');
		}
		buf_puts(b, ": ");
		fence_list_add(people, npeople, w->name);
		if (c != NULL) {
			fence_list_add(people, npeople, c->author_name);
			fence_list_add(people, npeople, c->author_login);
		}
	}
	fence_put_text(b, w->what != NULL ? w->what : "");
	buf_putc(b, '\n');
	if (c == NULL) {
		classify_clear(&cl);
		return;
	}
	buf_printf(b, "  Kind: %s\n", classify_kind_name(cl.kind));
	if (cl.prose != NULL && cl.prose[0] != '\0') {
		buf_puts(b, "  Why: ");
		fence_put_text(b, cl.prose);
		buf_putc(b, '\n');
	}
	for (i = 0; i < cl.nfigures; i++) {
		buf_puts(b, i == 0 ? "  Figures (as the message gives them): " :
		    ", ");
		fence_put_text(b, cl.figures[i]);
		if (i + 1 == cl.nfigures)
			buf_putc(b, '\n');
	}
	if (cl.setting != NULL) {
		buf_puts(b, "  Setting (quote verbatim): ");
		fence_put_text(b, cl.setting);
		buf_putc(b, '\n');
	}
	if (w->reverts != NULL) {
		if (c->revert.reason != NULL && c->revert.reason[0] != '\0' &&
		    !c->revert.automatic)
			reason = c->revert.reason;
		else if (cl.prose != NULL && cl.prose[0] != '\0')
			reason = cl.prose;
		buf_puts(b, "  Revert: it took out ");
		fence_put_text(b, w->what != NULL ? w->what : "earlier work");
		buf_puts(b, "; ");
		if (c->revert.automatic)
			buf_puts(b, "an automatic revert");
		else if (reason != NULL) {
			buf_puts(b, "the reason given: ");
			fence_put_text(b, reason);
		} else
			buf_puts(b, "no reason was given");
		buf_putc(b, '\n');
		fence_list_add(people, npeople, c->revert.requested_by);
		*reverts = xreallocarray(*reverts, *nreverts + 1,
		    sizeof(**reverts));
		r = &(*reverts)[(*nreverts)++];
		r->what = xstrdup(w->what != NULL ? w->what : "");
		r->reason = xstrdup_null(reason);
		r->automatic = c->revert.automatic;
	}
	classify_clear(&cl);
}

struct fence *
fence_of_episode(const struct day *day, const struct episode *ep)
{
	struct fence_facts	 facts;
	struct fence_revert	*reverts = NULL;
	struct fence		*f;
	struct buf		 b;
	char			**people = NULL, **bots = NULL;
	size_t			 npeople = 0, nbots = 0, nreverts = 0, i, j;
	const struct commit	*c;

	buf_init(&b);
	buf_printf(&b, "Show: %s\nRepository: %s\nDate: %s\n",
	    ep->show != NULL ? ep->show : "", ep->repository != NULL ?
	    ep->repository : day->repo, ep->date != NULL ? ep->date : "");
	buf_printf(&b, "Counts: %zu commits, %zu merged pull requests, %zu "
	    "reverts, %zu re-lands, %zu authors, %zu pushes, %zu force "
	    "pushes\n", ep->stats.commits, ep->stats.merged_prs,
	    ep->stats.reverts, ep->stats.relands, ep->stats.authors,
	    ep->stats.pushes, ep->stats.force_pushes);
	if (ep->focus != NULL)
		buf_printf(&b, "Today's Focus setting (quote byte for byte): "
		    "%s\n", ep->focus);
	buf_puts(&b, "Stories told:\n");
	for (i = 0; i < ep->nwork && i < FENCE_MAX_STORIES; i++)
		fence_story(&b, day, &ep->work[i], &people, &npeople,
		    &reverts, &nreverts);
	for (i = 0; i < day->nprs; i++)
		fence_list_add(&people, &npeople, day->prs[i].author_login);
	/* every bot of the day, told or not, stays unnamed */
	for (i = 0; i < day->ncommits; i++) {
		c = &day->commits[i];
		if (classify_is_bot(c->author_login, c->author_name))
			fence_bot_names(&bots, &nbots, c->author_login,
			    c->author_name);
	}
	/* a name both a person's and a bot's is a person's */
	for (i = j = 0; i < nbots; i++) {
		size_t k;

		for (k = 0; k < npeople; k++)
			if (strcasecmp(people[k], bots[i]) == 0)
				break;
		if (k < npeople)
			free(bots[i]);
		else
			bots[j++] = bots[i];
	}
	nbots = j;
	if (npeople > 0) {
		buf_puts(&b, "People (name no one else): ");
		for (i = 0; i < npeople; i++)
			buf_printf(&b, "%s%s", i > 0 ? ", " : "", people[i]);
		buf_putc(&b, '\n');
	}

	memset(&facts, 0, sizeof(facts));
	facts.draft = ep->transcript;
	facts.sheet = buf_str(&b);
	facts.focus = ep->focus;
	facts.people = (const char *const *)people;
	facts.npeople = npeople;
	facts.bots = (const char *const *)bots;
	facts.nbots = nbots;
	facts.reverts = reverts;
	facts.nreverts = nreverts;
	f = fence_new(&facts);

	buf_free(&b);
	for (i = 0; i < npeople; i++)
		free(people[i]);
	free(people);
	for (i = 0; i < nbots; i++)
		free(bots[i]);
	free(bots);
	for (i = 0; i < nreverts; i++) {
		free((char *)reverts[i].what);
		free((char *)reverts[i].reason);
	}
	free(reverts);
	return f;
}

struct fence *
fence_of_sheet(const struct sheet *sh)
{
	struct fence_facts	 facts;
	struct fence_revert	*reverts;
	struct fence		*f;
	char			*json;
	size_t			 i, n = 0;

	reverts = xcalloc(sh->nstories + 1, sizeof(*reverts));
	for (i = 0; i < sh->nstories; i++) {
		if (!sh->stories[i].is_revert)
			continue;
		reverts[n].what = sh->stories[i].revert_of != NULL ?
		    sh->stories[i].revert_of : "";
		reverts[n].reason = sh->stories[i].revert_reason;
		reverts[n].automatic = sh->stories[i].revert_automatic;
		n++;
	}
	json = sheet_json(sh);
	memset(&facts, 0, sizeof(facts));
	facts.draft = sh->draft;
	facts.sheet = json;
	facts.focus = sh->focus;
	facts.people = (const char *const *)sh->people;
	facts.npeople = sh->npeople;
	facts.bots = (const char *const *)sh->bots;
	facts.nbots = sh->nbots;
	facts.reverts = reverts;
	facts.nreverts = n;
	f = fence_new(&facts);
	free(json);
	free(reverts);
	return f;
}

void
fence_judge(const struct fence *f, const char *reply, struct fence_verdict *v)
{
	memset(v, 0, sizeof(*v));
	if ((v->refused = fence_check(f, reply, &v->detail)) == NULL)
		v->text = xstrdup(reply);
}

void
fence_verdict_clear(struct fence_verdict *v)
{
	size_t	i;

	free(v->detail);
	free(v->text);
	for (i = 0; i < v->ndropped; i++) {
		free(v->dropped[i].sentence);
		free(v->dropped[i].detail);
	}
	free(v->dropped);
	memset(v, 0, sizeof(*v));
}
