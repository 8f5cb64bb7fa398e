/*
 * The fence around a model's rewrite: the day's facts, and the checks of
 * a sentence's words a reply must pass to be told instead of the draft.
 *
 * These checks read words, not meaning: every word is English or the
 * day's (any other names someone or something the day does not hold),
 * every capitalised word that is not the start of a sentence is the
 * day's, every number, spoken or in digits, is one of theirs, every
 * identifier (snake_case, camelCase, a flag, KEY=VALUE) is one of theirs
 * (in any case, or run together); and what a reply must keep (each revert
 * and its reason, the focus setting) is looked for by its words too. The
 * checks of what a sentence says of the stories it tells are
 * fence_story.c's; the judgement of a reply, sentence by sentence, is
 * fence_judge.c's.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "buf.h"
#include "fence.h"
#include "fence_int.h"
#include "text.h"
#include "words.h"
#include "xmalloc.h"

/* A revert's words looked for in a reply: the first so many of them. */
#define FENCE_REVERT_WORDS	8

const char *const fence_reasons[] = { FENCE_REASONS, NULL };


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
	"record-breaking", "busiest day in", "busiest in", "busiest since",
	"busiest week", "busiest month", "quietest day in", "quietest in",
	"quietest since", "slowest day in", "slowest in", "previous episode", "last episode", "the other day",
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

void
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

void
fence_sort_numbers(struct fence *f)
{
	if (f->nnumbers > 0)
		qsort(f->numbers, f->nnumbers, sizeof(*f->numbers),
		    fence_dblcmp);
}

int
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
	char			 vs[64];
	double			 v;
	size_t			 n;
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
		if ((n = fence_version(t.p, t.len, vs, sizeof(vs), 0)) > 0)
			fence_set_add(&f->versions, vs, n);
	}
	fence_spoken(text, fence_add_number, f);
}

/* Whether a set holds a word of the same stem ("forward", "forwarding"). */
static int
fence_stem_in(const struct fence_set *set, const char *word)
{
	char	a[64], b[64];
	size_t	i, n;

	if ((n = strlen(word)) >= sizeof(a))
		return fence_set_has(set, word, n);
	memcpy(a, word, n + 1);
	story_stem(a, n);
	for (i = 0; i < set->n; i++) {
		if ((n = strlen(set->v[i])) >= sizeof(b))
			continue;
		memcpy(b, set->v[i], n + 1);
		story_stem(b, n);
		if (strcmp(a, b) == 0)
			return 1;
	}
	return 0;
}

/*
 * The words of each revert's work that no other revert's has ("add test
 * for verbose flag forwarding" beside "forward verbose flag to rustc"):
 * a reply tells it by those, not by words its neighbours share.
 */
static void
fence_distinct(struct fence *f)
{
	struct fence_set	 mine, theirs;
	struct buf		 b;
	size_t			 i, k;

	for (i = 0; i < f->nreverts; i++) {
		memset(&mine, 0, sizeof(mine));
		memset(&theirs, 0, sizeof(theirs));
		fence_add_words(&mine, f->reverts[i].what,
		    strlen(f->reverts[i].what));
		for (k = 0; k < f->nreverts; k++)
			if (k != i)
				fence_add_words(&theirs, f->reverts[k].what,
				    strlen(f->reverts[k].what));
		fence_set_sort(&mine);
		fence_set_sort(&theirs);
		buf_init(&b);
		for (k = 0; k < mine.n; k++)
			if (strlen(mine.v[k]) >= 4 && !fence_stem_in(&theirs,
			    mine.v[k]))
				buf_printf(&b, "%s ", mine.v[k]);
		if (theirs.n > 0 && b.len > 0)
			f->reverts[i].distinct = xstrdup(buf_str(&b));
		buf_free(&b);
		fence_set_free(&mine);
		fence_set_free(&theirs);
	}
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
	char		*n, *sq;
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
	fence_set_sort(&f->versions);
	fence_sort_numbers(f);
	f->draft_words = text_word_count(f->draft);
	xasprintf(&sq, "%s\n%s", f->draft, f->sheet);
	f->squeezed = fence_squeeze(sq, strlen(sq));
	free(sq);
	fence_distinct(f);
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
	free(f->json);
	free(f->squeezed);
	free(f->focus);
	for (i = 0; i < f->nbots; i++)
		free(f->bots[i]);
	free(f->bots);
	for (i = 0; i < f->nreverts; i++) {
		free(f->reverts[i].what);
		free(f->reverts[i].distinct);
		free(f->reverts[i].reason);
	}
	free(f->reverts);
	fence_set_free(&f->words);
	fence_set_free(&f->tokens);
	fence_set_free(&f->versions);
	fence_stories_free(f);
	free(f->numbers);
	free(f);
}

const char *
fence_sheet(const struct fence *f)
{
	return f->json != NULL ? f->json : f->sheet;
}

/* Markdown, by line: headings, quotes, lists, tables, code, emphasis, links. */
const char *
fence_markdown(const struct fence *f, const char *reply, char **detail)
{
	const char	*p = reply, *l, *e;
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
	/*
	 * "__" is emphasis around words ("__very__ fast") and no markup in
	 * an identifier ("__dict__", "__init__.py"), which the identifier
	 * check holds to the facts
	 */
	for (p = reply; (p = strstr(p, "__")) != NULL; p = e > p + 2 ? e :
	    p + 2) {
		for (l = p; l > reply && !isspace((unsigned char)l[-1]); l--)
			;
		for (e = p; *e != '\0' && !isspace((unsigned char)*e); e++)
			;
		while (l < p && strchr("\"'(", *l) != NULL)
			l++;
		while (e > p + 2 && strchr(".,;:!?\"')", e[-1]) != NULL)
			e--;
		if (!fence_in_facts(f, l, (size_t)(e - l)))
			return fence_fail(detail, "markdown", "markup", p, 10);
		if (e == p)
			e = p + 2;
	}
	if ((p = strstr(reply, "](")) != NULL ||
	    (p = strstr(reply, "~~")) != NULL ||
	    (p = strstr(reply, "</")) != NULL)
		return fence_fail(detail, "markdown", "markup", p, 10);
	return NULL;
}

/* Is every word of a capitalised token one of the facts' words? */
static int
fence_known_words(const struct fence *f, const char *p, size_t len)
{
	const char	*e = p + len;
	char		 lw[FENCE_MAX_TOKEN + 1];
	size_t		 n;

	while ((n = fence_next_word(&p, e, lw)) > 0)
		if (!fence_set_has(&f->words, lw, n))
			return 0;
	return 1;
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

/*
 * Whether an identifier is the facts': a piece of them as written, any
 * case ("typing.Dict" of "typing.Dict/List"), or their words run together
 * ("TestPyPI" of "Test PyPI").
 */
int
fence_in_facts(const struct fence *f, const char *p, size_t len)
{
	char	*sq;
	int	 found;

	if (fence_in_text(f->draft, p, len) || fence_in_text(f->sheet, p,
	    len))
		return 1;
	sq = fence_squeeze(p, len);
	found = strlen(sq) >= 4 && strstr(f->squeezed, sq) != NULL;
	free(sq);
	return found;
}

/* What is left of a contraction's word before its "'t". */
static const char *const fence_nt[] = {
	"ain", "aren", "couldn", "didn", "doesn", "hadn", "hasn", "haven",
	"isn", "mightn", "mustn", "needn", "shouldn", "wasn", "weren", "won",
	"wouldn", "y",
};

/*
 * Whether each word of the token is one a listener knows without the
 * day: English (the word list), or the day's own (its facts' words, or
 * one with an "s" more or less). Any other word names someone or
 * something the day does not hold, in whatever case or place.
 */
int
fence_word_known(const struct fence *f, const char *p, size_t len)
{
	const char	*e = p + len;
	char		 lw[FENCE_MAX_TOKEN + 1];
	size_t		 i, n;
	int		 ascii;

	while ((n = fence_next_word(&p, e, lw)) > 0) {
		for (i = 0, ascii = 1; i < n; i++)
			if ((unsigned char)lw[i] >= 0x80)
				ascii = 0;
		if (fence_set_has(&f->words, lw, n) ||
		    (n > 3 && lw[n - 1] == 's' && fence_set_has(&f->words, lw,
		    n - 1)) || (ascii && words_known(lw, n)) ||
		    fence_in(fence_nt, NELEM(fence_nt), lw))
			continue;
		for (i = 0; i < n && !isdigit((unsigned char)lw[i]); i++)
			;
		if (i < n)
			continue;
		/* another form of a word of the day ("quantize" of "quantization") */
		if (ascii && n >= 6 && fence_prefix(&f->words, lw, n > 8 ?
		    n - 3 : 6))
			continue;
		/* a unit of the micro sign, NFKC's Greek mu: "5 \xce\xbcs" */
		if (n >= 3 && n <= 4 && memcmp(lw, "\xce\xbc", 2) == 0 &&
		    isalpha((unsigned char)lw[2]))
			continue;
		return 0;
	}
	return 1;
}

/*
 * Whether a word is half of one of the day's said in two ("test env" of
 * "testenv"): run together with the word before or after it, it is a
 * piece of the facts' letters of six or more.
 */
static int
fence_joined(const struct fence *f, const struct fence_tok *prev,
    const struct fence_tok *t, const char *rest)
{
	struct fence_tok	 next;
	char			*a, *b, *both;
	int			 initial = 0, found = 0;

	b = fence_squeeze(t->p, t->len);
	if (prev->len > 0) {
		a = fence_squeeze(prev->p, prev->len);
		xasprintf(&both, "%s%s", a, b);
		found = strlen(both) >= 6 && strstr(f->squeezed, both) != NULL;
		free(both);
		free(a);
	}
	if (!found && fence_next(&rest, &next, &initial) && next.len > 0) {
		a = fence_squeeze(next.p, next.len);
		xasprintf(&both, "%s%s", b, a);
		found = strlen(both) >= 6 && strstr(f->squeezed, both) != NULL;
		free(both);
		free(a);
	}
	free(b);
	return found;
}

/* The checks made token by token: names, numbers, identifiers, hashes. */
const char *
fence_tokens(const struct fence *f, const char *reply, char **detail)
{
	struct fence_tok	 t, prev;
	const char		*p = reply;
	char			 lw[FENCE_MAX_TOKEN + 1], vs[64];
	double			 v;
	size_t			 base, i, vlen, skip;
	int			 initial = 1, poss;

	memset(&prev, 0, sizeof(prev));
	for (; fence_next(&p, &t, &initial); prev = t) {
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
		if ((vlen = fence_version(t.p, base, vs, sizeof(vs), 1)) > 0) {
			if (!fence_set_has(&f->versions, vs, vlen))
				return fence_fail(detail, "version", "a version "
				    "not in the facts", t.p, t.len);
			continue;
		}
		for (i = 0; i < t.len && !isdigit((unsigned char)t.p[i]); i++)
			;
		if (i < t.len) {
			/* "#7757" is the number 7757 */
			skip = t.p[0] == '#' ? 1 : 0;
			if (!fence_digits(t.p + skip, base - skip, &v))
				return fence_fail(detail, "number", "a number "
				    "not in the facts", t.p, t.len);
			if (!fence_has_number(f, v) && ((vlen = fence_version(
			    t.p, base, vs, sizeof(vs), 0)) == 0 ||
			    !fence_set_has(&f->versions, vs, vlen)))
				return fence_fail(detail, "number", "a number "
				    "not in the facts", t.p, t.len);
			continue;
		}
		if (fence_identifier(t.p, base)) {
			if (!fence_in_facts(f, t.p, base))
				return fence_fail(detail, "identifier", "an "
				    "identifier not in the facts", t.p, t.len);
			continue;
		}
		if (!fence_word_known(f, t.p, base) && !fence_joined(f,
		    &prev, &t, p))
			return fence_fail(detail, "person", "a name neither "
			    "English nor the day's", t.p, t.len);
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
			    strcmp(lw + base - 2, "ly") == 0))) ||
			    (strchr(lw, '\'') != NULL && fence_word_known(f,
			    t.p, base)) || fence_in(
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

void
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
/* Whether said holds most of t's words that say something. */
static int
fence_words_told(const struct fence_set *said, const char *t)
{
	struct fence_set	 want;
	size_t			 j, hit = 0, need = 0;

	memset(&want, 0, sizeof(want));
	fence_add_words(&want, t, strlen(t));
	fence_set_sort(&want);
	for (j = 0; j < want.n && need < FENCE_REVERT_WORDS; j++) {
		if (strlen(want.v[j]) < 4 || fence_in(fence_stop,
		    NELEM(fence_stop), want.v[j]))
			continue;
		need++;
		if (fence_set_has(said, want.v[j], strlen(want.v[j])))
			hit++;
	}
	fence_set_free(&want);
	return hit * 2 >= need;
}

/*
 * Whether text tells a reason: most of its words in one sentence (a
 * reason is said where it is given, not pieced together from words said
 * of other things).
 */
static int
fence_reason_told(const char *text, const char *reason)
{
	struct fence_set	 said;
	size_t			 n, i, *starts, *lens, end;
	int			 told = 0;

	n = fence_sentences(text, &starts, &lens);
	for (i = 0; i < n && !told; i++) {
		memset(&said, 0, sizeof(said));
		end = starts[i] + lens[i];
		fence_add_words(&said, text + starts[i], end - starts[i]);
		fence_set_sort(&said);
		told = fence_words_told(&said, reason);
		fence_set_free(&said);
	}
	free(starts);
	free(lens);
	return told;
}

/* Words that say work was taken out, as a revert is told. */
static const char *const fence_taken_out[] = {
	"revert", "reverted", "reverting", "rolled back", "roll back",
	"rollback", "backed out", "undone", "undid", "taken out", "took out",
	"pulled",
};

/*
 * Whether text tells what a revert took out where it says it was taken
 * out: most of its words in a sentence saying so, with the one before
 * and the one after (not only in its reason, or told elsewhere).
 */
static int
fence_what_told(const char *text, const char *what)
{
	struct fence_set	 said;
	size_t			 n, i, j, *starts, *lens, from, to;
	int			 told = 0, out;

	n = fence_sentences(text, &starts, &lens);
	for (i = 0; i < n && !told; i++) {
		char *sent = xstrndup(text + starts[i], lens[i]);

		for (j = 0, out = 0; j < NELEM(fence_taken_out) && !out; j++)
			out = fence_find_word(sent, fence_taken_out[j]) != NULL;
		free(sent);
		if (!out)
			continue;
		from = i > 0 ? starts[i - 1] : starts[i];
		to = i + 1 < n ? starts[i + 1] + lens[i + 1] : starts[i] +
		    lens[i];
		memset(&said, 0, sizeof(said));
		fence_add_words(&said, text + from, to - from);
		fence_set_sort(&said);
		told = fence_words_told(&said, what);
		fence_set_free(&said);
	}
	free(starts);
	free(lens);
	return told;
}

int
fence_tells_revert(const struct fence_set *said, const char *text,
    const struct fence_rev *r, const char **what)
{
	const char	*w;
	size_t	j;

	/* by the words that tell it from the day's other reverts */
	w = r->distinct != NULL ? r->distinct : r->what;
	if (!fence_words_told(said, w) || !fence_what_told(text, w)) {
		*what = r->what;
		return 0;
	}
	if (r->reason != NULL && !fence_reason_told(text, r->reason)) {
		*what = r->reason;
		return 0;
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
const char *
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

/*
 * A web address spelled out for a voice to say ("evil dot com slash
 * login", "www dot example"): a link all the same, and as unchecked.
 */
static const char *
fence_spelled_link(const char *sentence, char **detail)
{
	static const char *const tld[] = { "com", "org", "net", "io", "dev",
	    "app", "co", "uk", "de", "ru", "cn", "info", "biz", "xyz", "me",
	    "ly", "gg", "sh", "ai", "us", "eu", "site", "online" };
	const char	*p, *w;
	char		 word[8];
	size_t		 n;

	for (p = sentence; (p = fence_find_word(p, "dot")) != NULL; p += 3) {
		for (w = p + 3; *w == ' '; w++)
			;
		for (n = 0; n + 1 < sizeof(word) && isalpha((unsigned char)
		    w[n]); n++)
			word[n] = (char)tolower((unsigned char)w[n]);
		word[n] = '\0';
		if ((n > 0 && !isalpha((unsigned char)w[n]) &&
		    fence_in(tld, NELEM(tld), word)) || fence_find_word(
		    sentence, "slash") != NULL)
			return fence_fail(detail, "url", "a web address spelled "
			    "out", p, 30);
	}
	if ((p = fence_find_word(sentence, "www")) != NULL ||
	    (p = strcasestr(sentence, "colon slash slash")) != NULL ||
	    (p = strcasestr(sentence, "h t t p")) != NULL)
		return fence_fail(detail, "url", "a web address spelled out",
		    p, 30);
	return NULL;
}

/*
 * The checks of one sentence's words, which need no story: markup, links,
 * alphabets, bots, names, numbers, identifiers, comparisons.
 */
const char *
fence_sentence_words(const struct fence *f, const char *sentence,
    char **detail)
{
	struct fence_spoken_check	 sc;
	const char			*p, *r;
	size_t				 i;

	if ((r = fence_tags(sentence, detail)) != NULL ||
	    (r = fence_markdown(f, sentence, detail)) != NULL ||
	    (r = fence_links(sentence, detail)) != NULL ||
	    (r = fence_scripts(sentence, detail)) != NULL)
		return r;
	for (i = 0; i < f->nbots; i++)
		if ((p = fence_find_word(sentence, f->bots[i])) != NULL &&
		    fence_find_word(f->draft, f->bots[i]) == NULL)
			return fence_fail(detail, "bot", "a bot named", p,
			    strlen(f->bots[i]));
	if ((r = fence_spelled_link(sentence, detail)) != NULL ||
	    (r = fence_tokens(f, sentence, detail)) != NULL)
		return r;
	sc.f = f;
	sc.found = 0;
	sc.bad = 0;
	fence_spoken(sentence, fence_spoken_one, &sc);
	if (sc.found) {
		if (detail != NULL)
			xasprintf(detail, "a number not in the facts: %.15g",
			    sc.bad);
		return "number";
	}
	for (i = 0; i < NELEM(fence_comparisons); i++)
		if ((p = fence_find_word(sentence, fence_comparisons[i])) !=
		    NULL && fence_find_word(f->draft, fence_comparisons[i]) ==
		    NULL)
			return fence_fail(detail, "comparison", "a comparison "
			    "with other days", p, strlen(fence_comparisons[i]));
	return NULL;
}

const char *
fence_check(const struct fence *f, const char *reply, char **detail)
{
	struct fence_verdict	 v;
	const char		*r;

	fence_judge(f, reply, &v);
	if ((r = v.refused) != NULL) {
		if (detail != NULL) {
			*detail = v.detail;
			v.detail = NULL;
		}
	} else if (v.ndropped > 0) {
		r = v.dropped[0].reason;
		if (detail != NULL) {
			*detail = v.dropped[0].detail;
			v.dropped[0].detail = NULL;
		}
	} else if (detail != NULL)
		*detail = NULL;
	fence_verdict_clear(&v);
	return r;
}

/*
 * The checks of a whole reply no dropping mends: UTF-8 in NFKC, some
 * text, not over twice the draft. NULL when it may be read on.
 */
const char *
fence_whole(const struct fence *f, const char *reply, char **detail)
{
	char	*norm;
	size_t	 words;
	int	 same;

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
	if (words > f->draft_words * 2)
		return fence_fail(detail, "too_long", "over twice the draft's "
		    "words", NULL, 0);
	return NULL;
}

struct fence *
fence_of_episode(const struct day *day, const struct episode *ep)
{
	struct sheet	*sh = sheet_of_episode(day, ep);
	struct fence	*f = fence_of_sheet(sh);

	sheet_free(sh);
	return f;
}

/* Append the values of a JSON value, a line each, but the bots' count. */
static void
fence_values(struct buf *b, json_t *j)
{
	const char	*key;
	json_t		*v;
	size_t		 i;

	if (json_is_string(j))
		buf_printf(b, "%s\n", json_string_value(j));
	else if (json_is_integer(j))
		buf_printf(b, "%lld\n", (long long)json_integer_value(j));
	else if (json_is_array(j))
		json_array_foreach(j, i, v)
			fence_values(b, v);
	else if (json_is_object(j))
		json_object_foreach(j, key, v)
			if (strcmp(key, "bots_never_named") != 0)
				fence_values(b, v);
}

/*
 * The facts of the sheet's JSON as text (new): its values, not its keys
 * ("must_tell" is no word of the day, and the count of bots no figure).
 */
static char *
fence_sheet_values(const char *json)
{
	struct buf	 b;
	json_t		*j;
	char		*s;

	buf_init(&b);
	if ((j = json_loads(json, 0, NULL)) != NULL) {
		fence_values(&b, j);
		json_decref(j);
	}
	s = xstrdup(buf_str(&b));
	buf_free(&b);
	return s;
}

struct fence *
fence_of_sheet(const struct sheet *sh)
{
	struct fence_facts	 facts;
	struct fence_revert	*reverts;
	struct fence		*f;
	char			*json, *values;
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
	values = fence_sheet_values(json);
	memset(&facts, 0, sizeof(facts));
	facts.draft = sh->draft;
	facts.sheet = values;
	facts.focus = sh->focus;
	facts.people = (const char *const *)sh->people;
	facts.npeople = sh->npeople;
	facts.bots = (const char *const *)sh->bots;
	facts.nbots = sh->nbots;
	facts.reverts = reverts;
	facts.nreverts = n;
	f = fence_new(&facts);
	f->json = fence_fact(json);
	fence_stories_learn(f, sh);
	fence_counts_learn(f);
	free(values);
	free(json);
	free(reverts);
	return f;
}

