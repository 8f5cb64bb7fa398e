/*
 * The fence's checks of meaning, sentence by sentence: what a sentence
 * says is held to the stories it tells (fence_learn.c). A person named
 * owns one of them (wrote, merged, asked for or carried out its revert),
 * a version is one of theirs and goes with the thing the facts give it
 * to, a figure is theirs and comes with a word of what it measures,
 * "rolled back" is said only of work that was, a reason is in the
 * story's own words, a count ("twelve commits") is the day's, and a
 * warning (security, a crash, data loss, uninstalling) is one their facts
 * give. What the fence cannot see the manual says (hookcast.conf(5)).
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "fence.h"
#include "fence_int.h"
#include "sheet.h"
#include "text.h"
#include "words.h"
#include "xmalloc.h"



/* Words that say work was taken out. */
static const char *const story_revert_words[] = {
	"revert", "reverted", "reverting", "reverts", "rolled back",
	"roll back", "rolling back", "rollback", "rollbacks", "backed out",
	"back out", "undid", "undone", "taken out", "took out", "pulled back",
};

/* Words that turn a statement about the setting or a revert around. */
static const char *const story_negations[] = {
	"no", "not", "nothing", "none", "never", "without", "don't", "doesn't",
	"didn't", "won't", "avoid", "instead", "disable", "stop",
};

/* Words that give a reason, for any story. */
static const char *const story_because[] = {
	"because", "reason", "due to", "caused by",
};

/* And what more gives one for a revert: what the work broke. */
static const char *const story_because_revert[] = {
	"since", "broke", "broken", "breaking", "failing", "slowing",
};

/* Words that say a behaviour is on without asking. */
static const char *const story_on_default[] = {
	"on by default", "enabled by default", "default on", "by default on",
	"turned on for everyone", "on for everyone", "automatically on",
};

/* What a draft says when it warns of a change a user must act on. */
static const char *const story_warned[] = {
	"breaking", "or newer", "minimum", "no longer", "before you upgrade",
	"removed", "deprecated", "now needs", "now requires",
};

/* What a reply says when it waves a warning away. */
static const char *const story_all_clear[] = {
	"any version", "nothing to check", "nothing to change", "no need to",
	"don't need to", "do not need to", "keep working", "keeps working",
	"will keep working", "still works", "safe to ignore",
	"nothing breaks", "won't break", "doesn't break", "nothing to do",
	"no action", "no changes needed", "no change needed",
	"no rush", "still accepted", "still supported",
};

/* Words that say someone asked for a revert. */
static const char *const story_ask[] = {
	"asked", "requested", "request of", "at the request", "called for",
	"wanted", "urged",
};

/*
 * Claims a listener acts on: each is said only where a told story's facts
 * hold one of its stems.
 */
static const struct {
	const char	*said;		/* as a reply says it */
	const char	*stems;		/* what the facts must hold: '|' list */
} story_claims[] = {
	{ "secur", "secur|vulnerab|exploit|cve|advisory" },
	{ "vulnerab", "secur|vulnerab|exploit|cve|advisory" },
	{ "exploit", "secur|vulnerab|exploit|cve|advisory" },
	{ "attacker", "secur|vulnerab|exploit|attack|cve|advisory" },
	{ "malicious", "secur|vulnerab|malicious|cve|advisory" },
	{ "cve", "cve" },
	{ "crash", "crash|segfault|panic|abort" },
	{ "hang", "hang|deadlock|freez|stuck" },
	{ "deadlock", "hang|deadlock|freez|stuck" },
	{ "freezes", "hang|deadlock|freez|stuck" },
	{ "leak", "leak" },
	{ "data loss", "data loss|lose data|lost data|losing data|corrupt" },
	{ "lose data", "data loss|lose data|lost data|losing data|corrupt" },
	{ "lost data", "data loss|lose data|lost data|losing data|corrupt" },
	{ "losing data", "data loss|lose data|lost data|losing data|corrupt" },
	{ "corrupt", "corrupt" },
	{ "uninstall", "uninstall" },
	{ "downgrad", "downgrad" },
	{ "stop using", "stop using|deprecat" },
	{ "hold off", "hold off" },
	{ "roll back to", "roll back to" },
};

/* Nouns a count counts, and which of the day's counts it must be. */
enum story_noun { NOUN_NONE, NOUN_COMMITS, NOUN_PEOPLE, NOUN_PRS,
    NOUN_REVERTS, NOUN_CHANGES, NOUN_FEATURES, NOUN_FIXES };

/* Whether a word is a possessive ("Alex's"). */
static int
story_possessive(const struct story_word *w)
{
	return w->len > 2 && w->p[w->len - 2] == '\'' && w->p[w->len - 1] ==
	    's';
}

/* Whether a sentence's word is one of a set's, any case. */
static int
story_word_of(const struct fence_set *set, const struct story_word *w)
{
	char	lw[48];
	size_t	len, j;

	len = w->len < sizeof(lw) - 1 ? w->len : sizeof(lw) - 1;
	for (j = 0; j < len; j++)
		lw[j] = (char)tolower((unsigned char)w->p[j]);
	return fence_set_has(set, lw, len);
}

/* Whether person i is named in a sentence's words; where, in *at. */
static int
story_named(const struct fence *f, size_t i, const struct story_word *w,
    size_t nw, const char *sentence, size_t *at, size_t *word)
{
	const struct fence_set	*pw = &f->people[i].words;
	char			 lw[48];
	size_t			 k, j, len;

	for (k = 0; k < nw; k++) {
		len = w[k].len < sizeof(lw) - 1 ? w[k].len : sizeof(lw) - 1;
		for (j = 0; j < len; j++)
			lw[j] = (char)tolower((unsigned char)w[k].p[j]);
		lw[len] = '\0';
		if (len > 2 && lw[len - 2] == '\'' && lw[len - 1] == 's')
			lw[len -= 2] = '\0';
		if (len < 2 || !fence_set_has(pw, lw, len))
			continue;
		/*
		 * A name's word that is also English ("Grace", "Hopper")
		 * names them only when written as a name.
		 */
		if (!w[k].capital && words_known(lw, len))
			continue;
		/*
		 * A word two people share ("Christian") names neither
		 * alone: the other words of one's name must follow.
		 */
		for (j = 0; j < f->npeople; j++)
			if (j != i && fence_set_has(&f->people[j].words, lw,
			    len))
				break;
		if (j < f->npeople && (k + 1 >= nw || !story_word_of(pw,
		    &w[k + 1])))
			continue;
		*at = (size_t)(w[k].p - sentence);
		*word = k;
		return 1;
	}
	return 0;
}

/*
 * Where a sentence says a revert was itself taken out ("the revert was
 * rolled back", "the revert itself got reverted"), or NULL.
 */
static const char *
story_revert_reverted(const struct story_word *w, size_t n)
{
	static const char *const be[] = { "was", "were", "got", "been",
	    "itself", "also", "then", "later", "too", "has", "had", "is",
	    "be" };
	size_t	i, j, k;

	for (i = 0; i + 1 < n; i++) {
		/* the noun, "revert" or "rollback", not "reverted" */
		if ((strcmp(w[i].stem, "revert") != 0 &&
		    strcmp(w[i].stem, "rollback") != 0) ||
		    strncasecmp(w[i].p + w[i].len - 2, "ed", 2) == 0 ||
		    strncasecmp(w[i].p + w[i].len - 3, "ing", 3) == 0)
			continue;
		/* "the revert (of the cache) was (then) rolled back" */
		for (j = i + 1; j < n && j <= i + 6 && !story_in(be, NELEM(be),
		    w[j].stem); j++)
			;
		for (k = j; k < n && k <= j + 3 && story_in(be, NELEM(be),
		    w[k].stem); k++)
			;
		if (k == j || k >= n)
			continue;
		if (strcmp(w[k].stem, "revert") == 0 || story_is(w[k].stem,
		    "undone") || ((strcmp(w[k].stem, "roll") == 0 ||
		    strcmp(w[k].stem, "back") == 0) && k + 1 < n))
			return w[i].p;
	}
	return NULL;
}

/*
 * Whether the word at p is a noun counted ("a rollback", "two reverts"):
 * a count of the day's, not a story said to be taken out.
 */
static int
story_counted(const struct story_word *w, size_t n, const char *p)
{
	static const char *const few[] = { "a", "an", "one", "two", "three",
	    "four", "five", "six", "seven", "eight", "nine", "ten", "single",
	    "another", "both" };
	static const char *const these[] = { "the", "those", "these", "its",
	    "their", "all", "both", "today's", "day's" };
	static const char *const work[] = { "change", "commit", "thing",
	    "prs", "piece" };
	size_t	i, k;

	for (i = 0; i < n && w[i].p != p; i++)
		;
	if (i == 0 || i == n)
		return 0;
	if (story_in(few, NELEM(few), w[i - 1].stem) ||
	    isdigit((unsigned char)w[i - 1].p[0]))
		return 1;
	/* "those rollbacks": the day's reverts, no story said taken out */
	if (strncasecmp(w[i].p, "rollback", 8) == 0 && story_in(these,
	    NELEM(these), w[i - 1].stem))
		return 1;
	/* "one change (that) was rolled back", "three changes were" */
	for (k = i; k-- > 0 && k + 5 >= i; )
		if (story_in(work, NELEM(work), w[k].stem))
			return k > 0 && (story_in(few, NELEM(few),
			    w[k - 1].stem) || isdigit((unsigned char)
			    w[k - 1].p[0]));
	return 0;
}

/*
 * Where a sentence says someone asked for something: "asked", "at Ada's
 * request" (not a "pull request"), or NULL.
 */
static const char *
story_asks(const char *sentence, const struct story_word *w, size_t n)
{
	const char	*p;
	size_t		 i;

	if ((p = story_has_any(sentence, story_ask, NELEM(story_ask))) != NULL)
		return p;
	for (i = 0; i < n; i++)
		if (strcmp(w[i].stem, "request") == 0 && (i == 0 ||
		    strcmp(w[i - 1].stem, "pull") != 0))
			return w[i].p;
	return NULL;
}

/* The noun a count word at w[i] counts, reading on past an adjective. */
static enum story_noun
story_noun_after(const struct story_word *w, size_t n, size_t i)
{
	static const char *const adj[] = { "more", "new", "merged", "other",
	    "separate", "different", "distinct", "individual", "total",
	    "small", "smaller", "big", "bigger", "larger", "minor", "major",
	    "notable", "further", "quick" };
	const char	*s;

	if (++i < n && story_in(adj, NELEM(adj), w[i].stem))
		i++;
	if (i >= n)
		return NOUN_NONE;
	s = w[i].stem;
	if (story_is(s, "commit"))
		return NOUN_COMMITS;
	if (story_is(s, "people") || story_is(s, "person") ||
	    story_is(s, "author") || story_is(s, "contributor") ||
	    story_is(s, "developer"))
		return NOUN_PEOPLE;
	if (story_is(s, "prs") || (story_is(s, "pull") && i + 1 < n &&
	    story_is(w[i + 1].stem, "request")))
		return NOUN_PRS;
	if (story_is(s, "revert") || story_is(s, "rollback"))
		return NOUN_REVERTS;
	if (story_is(s, "change"))
		return NOUN_CHANGES;
	if (story_is(s, "feature"))
		return NOUN_FEATURES;
	if (story_is(s, "fix"))
		return NOUN_FIXES;
	return NOUN_NONE;
}

/* The number a word says, digits or words ("twenty-one"); 0 if none. */
static int
story_word_number(const struct story_word *w, double *x)
{
	const char	*p = w->p, *e = w->p + w->len, *h;
	int		 v, total = 0;

	if (fence_digits(w->p, w->len, x))
		return 1;
	while (p < e) {
		h = memchr(p, '-', (size_t)(e - p));
		if (h == NULL)
			h = e;
		if (!fence_numword(p, (size_t)(h - p), &v) || v < 0)
			return 0;
		total += v;
		p = h < e ? h + 1 : e;
	}
	*x = total;
	return 1;
}

/*
 * The number the i-th word ends ("five", and "twenty-five" read as the
 * words "twenty" and "five"); 0 when it ends none.
 */
static int
story_number_at(const struct story_word *w, size_t i, double *x)
{
	double	tens;

	if (!story_word_number(&w[i], x))
		return 0;
	if (i > 0 && w[i].p[-1] == '-' && w[i - 1].p + w[i - 1].len ==
	    w[i].p - 1 && story_word_number(&w[i - 1], &tens) &&
	    tens >= 20 && tens < 100 && *x < 10)
		*x += tens;
	return 1;
}

/* Whether x may count the noun: the day's count, or the draft's. */
static int
story_count_ok(const struct fence *f, enum story_noun noun, double x)
{
	size_t			 day, i, k;
	int			 counted = 0;

	switch (noun) {
	case NOUN_COMMITS:
		day = f->counts.commits;
		break;
	case NOUN_CHANGES:
		/* changes: the commits, the stories told, or one's own */
		day = f->counts.commits;
		if (fabs(x - (double)f->nstories) < 1e-9)
			return 1;
		break;
	case NOUN_FEATURES:
	case NOUN_FIXES:
		/* of a kind: how many told stories are, or one's own are */
		for (k = day = 0; k < f->nstories; k++)
			if (f->stories[k].kind != NULL && strcmp(
			    f->stories[k].kind, noun == NOUN_FIXES ? "fix" :
			    "feature") == 0)
				day++;
		for (i = 0; i < f->npeople; i++)
			if (fabs(x - (double)story_authored(f, i, noun ==
			    NOUN_FIXES ? "fix" : "feature")) < 1e-9)
				return 1;
		break;
	case NOUN_PEOPLE:
		day = f->counts.authors;
		break;
	case NOUN_PRS:
		day = f->counts.merged_prs;
		break;
	case NOUN_REVERTS:
		day = f->counts.reverts;
		break;
	default:
		return 1;
	}
	if (fabs(x - (double)day) < 1e-9 || x == 0 || x == 1)
		return 1;
	/* per person: how many of the told stories are one's own */
	if (noun == NOUN_COMMITS || noun == NOUN_CHANGES)
		for (i = 0; i < f->npeople; i++)
			if (fabs(x - (double)story_authored(f, i, NULL)) < 1e-9)
				return 1;
	/* the draft's own count of that noun */
	for (k = 0; k < f->ndrafted; k++) {
		if (f->drafted[k].noun != (int)noun)
			continue;
		if (fabs(x - f->drafted[k].n) < 1e-9)
			return 1;
		if (f->drafted[k].n >= 2)
			counted = 1;
	}
	/*
	 * Changes the draft never counts may be counted as a few of the
	 * told ones ("two changes are worth a closer look"); where it does
	 * ("five more changes"), another count is another figure.
	 */
	return noun == NOUN_CHANGES && !counted && x <= f->nstories;
}

void
fence_counts_learn(struct fence *f)
{
	struct story_word	 w[STORY_MAX_WORDS];
	enum story_noun		 noun;
	size_t			 n, i, k, ns, *starts, *lens;
	double			 y;

	ns = fence_sentences(f->draft, &starts, &lens);
	for (k = 0; k < ns; k++) {
		char *sent = xstrndup(f->draft + starts[k], lens[k]);

		n = story_words(sent, w, STORY_MAX_WORDS);
		for (i = 0; i < n; i++) {
			if (!story_number_at(w, i, &y) || (noun =
			    story_noun_after(w, n, i)) == NOUN_NONE)
				continue;
			f->drafted = xreallocarray(f->drafted, f->ndrafted + 1,
			    sizeof(*f->drafted));
			f->drafted[f->ndrafted].noun = (int)noun;
			f->drafted[f->ndrafted++].n = y;
		}
		free(sent);
	}
	free(starts);
	free(lens);
}

/* Whether a told story of matched holds the number (or the draft does). */
static int
story_number_ok(const struct fence *f, const int *matched, double x)
{
	size_t	i;

	if (x == 0 || x == 1 || story_num_in(f->general, f->ngeneral, x))
		return 1;
	for (i = 0; i < f->nstories; i++)
		if (matched[i] && story_num_in(f->stories[i].numbers,
		    f->stories[i].nnumbers, x))
			return 1;
	return 0;
}

/*
 * The word a version is said of: the one before it, past "to", "at",
 * "version" ("body-parser to 2.0.1"). Its start and length, or 0.
 */
static size_t
story_version_word(const char *text, const char *v, const char **wp)
{
	static const char *const skip[] = { "to", "at", "version", "v",
	    "from", "of", "is", "now", "release" };
	const char	*e = v, *b;
	char		 lw[16];
	size_t		 n, i;

	for (;;) {
		while (e > text && (isspace((unsigned char)e[-1]) ||
		    strchr(",:(\"'", e[-1]) != NULL))
			e--;
		for (b = e; b > text && !isspace((unsigned char)b[-1]) &&
		    strchr(",:(\"'", b[-1]) == NULL; b--)
			;
		n = (size_t)(e - b);
		if (n == 0)
			return 0;
		if (n >= sizeof(lw)) {
			*wp = b;
			return n;
		}
		for (i = 0; i < n; i++)
			lw[i] = (char)tolower((unsigned char)b[i]);
		lw[n] = '\0';
		if (!fence_in(skip, NELEM(skip), lw)) {
			*wp = b;
			return n;
		}
		e = b;
	}
}

/*
 * Where a version is given to another thing than the facts give it to
 * ("body-parser to 2.1.0" where the facts say serve-static went to
 * 2.1.0): the thing is named beside a version somewhere in the facts,
 * and never beside this one. NULL when no such swap is seen.
 */
static const char *
story_version_of(const struct fence *f, const char *sentence, const char *v,
    const char *vs)
{
	const char	*texts[2] = { f->draft, f->sheet }, *wp, *p, *fw;
	struct fence_tok t;
	char		 fv[64];
	size_t		 n, fn, k;
	int		 initial, near = 0;

	if ((n = story_version_word(sentence, v, &wp)) == 0 ||
	    isdigit((unsigned char)*wp))
		return NULL;
	for (k = 0; k < 2; k++) {
		initial = 1;
		for (p = texts[k]; fence_next(&p, &t, &initial); ) {
			if (fence_version(t.p, t.len, fv, sizeof(fv), 1) == 0)
				continue;
			if ((fn = story_version_word(texts[k], t.p, &fw)) != n ||
			    strncasecmp(fw, wp, n) != 0)
				continue;
			if (strcmp(fv, vs) == 0)
				return NULL;
			near = 1;
		}
	}
	return near ? wp : NULL;
}

/* Whether a token ("3.1") is a version of a told story ("3.1.0"). */
static int
story_version_ok(const struct fence *f, const int *matched, const char *p,
    size_t len)
{
	char	vs[64];
	size_t	i, k;

	if (fence_version(p, len, vs, sizeof(vs), 0) == 0)
		return 0;
	for (i = 0; i < f->nstories; i++)
		for (k = 0; matched[i] && k < f->stories[i].nversions; k++)
			if (strcmp(f->stories[i].versions[k], vs) == 0)
				return 1;
	return 0;
}

/* The spoken numbers of a sentence, to hold to its stories. */
struct story_spoken {
	const struct fence	*f;
	const int		*matched;
	double			 bad;
	int			 found;
};

static void
story_spoken_one(void *arg, double x)
{
	struct story_spoken	*c = arg;

	if (!c->found && !story_number_ok(c->f, c->matched, x)) {
		c->found = 1;
		c->bad = x;
	}
}

/* Where text has s at the start of a word ("hang" in "hangs", not "change"). */
static const char *
story_word_start(const char *text, const char *s)
{
	const char	*p = text;

	while ((p = strstr(p, s)) != NULL) {
		if (p == text || !isalpha((unsigned char)p[-1]))
			return p;
		p++;
	}
	return NULL;
}

/* A claim of the sentence no told story (or the day) gives; or NULL. */
static const char *
story_claim(const struct fence *f, const char *lower, const int *matched,
    int any)
{
	char		 stems[128], *t, *save;
	size_t		 i, k;
	int		 ok;

	for (i = 0; i < NELEM(story_claims); i++) {
		if (story_word_start(lower, story_claims[i].said) == NULL)
			continue;
		snprintf(stems, sizeof(stems), "%s", story_claims[i].stems);
		ok = 0;
		for (t = strtok_r(stems, "|", &save); t != NULL && !ok;
		    t = strtok_r(NULL, "|", &save)) {
			for (k = 0; k < f->nstories && !ok; k++)
				if ((matched[k] || !any) && story_word_start(
				    f->stories[k].text, t) != NULL)
					ok = 1;
		}
		if (!ok)
			return story_claims[i].said;
	}
	return NULL;
}

/* A sentence as the checks read it: its words, and the stories it tells. */
struct story_sentence {
	const char		*text;
	char			*lower;
	struct story_word	 w[STORY_MAX_WORDS];
	size_t			 nw;
	const int		*matched;	/* the stories it tells */
	int			 any;		/* it tells one */
};

/* Whether the i-th story is told in the sentence. */
#define TOLD(ss, i)	((ss)->matched[i])

/*
 * Whether the name at w[wi] is said as the author of a kind of work of
 * theirs ("a run of fixes from Jerry Zhao", "features by Ada"): they
 * wrote a told story of that kind.
 */
static int
story_kind_of(const struct fence *f, const struct story_sentence *ss,
    size_t wi, size_t person)
{
	static const struct {
		const char	*noun;
		const char	*kind;	/* NULL: any */
	} kinds[] = {
		{ "fix", "fix" }, { "fixes", "fix" }, { "feature", "feature" },
		{ "features", "feature" }, { "change", NULL },
		{ "changes", NULL }, { "commits", NULL }, { "work", NULL },
		{ "cleanup", "cleanup" }, { "docs", "docs" },
		{ "tests", "tests" }, { "speedups", "performance" },
	};
	size_t	k;

	if (wi < 2 || (!story_is(ss->w[wi - 1].stem, "from") &&
	    !story_is(ss->w[wi - 1].stem, "by")))
		return 0;
	for (k = 0; k < NELEM(kinds); k++)
		if (story_is(ss->w[wi - 2].stem, kinds[k].noun))
			return story_authored(f, person, kinds[k].kind) > 0;
	return 0;
}

/* A person named owns a story told here; whoever "asked" asked. */
static const char *
story_check_people(const struct fence *f, const struct story_sentence *ss,
    char **detail)
{
	const char	*ask;
	size_t		 i, k, j, at, wi, best = f->npeople, bestd = (size_t)-1;
	int		 owns, asked = 0;

	ask = story_asks(ss->text, ss->w, ss->nw);
	for (i = 0; i < f->npeople; i++) {
		if (!story_named(f, i, ss->w, ss->nw, ss->text, &at, &wi))
			continue;
		if (ask != NULL) {
			size_t a = (size_t)(ask - ss->text);
			size_t d = at > a ? at - a : a - at;

			if (d < bestd) {
				bestd = d;
				best = i;
			}
		}
		if (!ss->any)
			continue;
		/*
		 * Theirs: a story told here, or one of theirs the sentence
		 * names by a word of it ("with Alex's queue, that makes
		 * three").
		 */
		for (k = 0, owns = 0; k < f->nstories && !owns; k++)
			for (j = 0; j < f->stories[k].nowners; j++)
				if (f->stories[k].owners[j] == i &&
				    (TOLD(ss, k) || (story_possessive(
				    &ss->w[wi]) && wi + 1 < ss->nw &&
				    fence_set_has(&f->stories[k].words,
				    ss->w[wi + 1].stem,
				    strlen(ss->w[wi + 1].stem)))))
					owns = 1;
		if (!owns && !story_kind_of(f, ss, wi, i))
			return fence_fail(detail, "owner", "a person credited "
			    "with a story not theirs", ss->text + at, 30);
	}
	if (best == f->npeople || story_has_any(ss->text, story_revert_words,
	    NELEM(story_revert_words)) == NULL)
		return NULL;
	/* the reverts told here; or, when none is, the day's */
	for (k = 0; k < f->nstories && !asked; k++)
		for (j = 0; (TOLD(ss, k) || (!ss->any &&
		    f->stories[k].is_revert)) && j < f->stories[k].nowners;
		    j++)
			if (f->stories[k].owners[j] == best &&
			    f->stories[k].roles[j] == SHEET_REQUESTER)
				asked = 1;
	if (!asked)
		return fence_fail(detail, "owner", "someone said to have asked "
		    "for a revert who did not", ask, 30);
	return NULL;
}

/*
 * Whether the stories a sentence names by a word of theirs (none by
 * enough words to tell it) are all work that stayed: none a revert, none
 * reverted, and at least one.
 */
static int
story_weakly_not_reverted(const struct fence *f,
    const struct story_sentence *ss)
{
	size_t	i, k;
	int	some = 0;

	for (k = 0; k < f->nstories; k++) {
		for (i = 0; i < ss->nw; i++) {
			const char *stem = ss->w[i].stem;

			if (strlen(stem) < 4 || story_generic_word(stem) ||
			    story_in(story_revert_words,
			    NELEM(story_revert_words), stem) ||
			    !fence_set_has(&f->stories[k].words, stem,
			    strlen(stem)))
				continue;
			if (f->stories[k].is_revert || f->stories[k].reverted)
				return 0;
			some = 1;
		}
	}
	return some;
}

/* How many of a sentence's own words a story holds. */
static size_t
story_overlap(const struct fence_story *st, const struct story_sentence *ss)
{
	size_t	i, n = 0;

	for (i = 0; i < ss->nw; i++) {
		const char *stem = ss->w[i].stem;

		if (strlen(stem) >= 4 && !story_generic_word(stem) &&
		    !story_in(story_revert_words, NELEM(story_revert_words),
		    stem) && fence_set_has(&st->words, stem, strlen(stem)))
			n++;
	}
	return n;
}

/*
 * Whether a sentence says more of work that was taken out (or of a
 * revert) than of any work told that stayed: "an earlier change, which
 * added a test for verbose flag forwarding, was rolled back", where the
 * words of three reverts and of a test that stayed overlap.
 */
static int
story_weakly_reverted(const struct fence *f, const struct story_sentence *ss)
{
	size_t	k, n, out = 0, stayed = 0;

	for (k = 0; k < f->nstories; k++) {
		n = story_overlap(&f->stories[k], ss);
		if (f->stories[k].is_revert || f->stories[k].reverted) {
			if (n > out)
				out = n;
		} else if (TOLD(ss, k) && n > stayed)
			stayed = n;
	}
	return out > stayed;
}

/*
 * "Rolled back" only of work that was; a reason said is the story's own
 * (most of the words of a sentence that gives one are what the facts and
 * the draft say of it); "the revert was itself rolled back" only if it
 * was.
 */
static const char *
story_check_reverts(const struct fence *f, const struct story_sentence *ss,
    char **detail)
{
	const char	*p;
	size_t		 i, k, content = 0, known = 0;
	int		 was = 0, day = 0, revert, said;

	if ((p = story_has_any(ss->text, story_revert_words,
	    NELEM(story_revert_words))) != NULL && story_has_any(ss->text,
	    story_negations, NELEM(story_negations)) == NULL &&
	    !story_counted(ss->w, ss->nw, p)) {
		for (k = 0; k < f->nstories; k++) {
			if (f->stories[k].is_revert || f->stories[k].reverted)
				day = 1;
			if (TOLD(ss, k) && (f->stories[k].is_revert ||
			    f->stories[k].reverted))
				was = 1;
		}
		if (f->counts.reverts > 0 || f->counts.relands > 0)
			day = 1;
		/*
		 * A sentence that tells no story by its words may still
		 * name one by a word of it ("the parser speedup was rolled
		 * back"): then one of those must be work taken out.
		 */
		if (!ss->any && day && story_weakly_not_reverted(f, ss))
			return fence_fail(detail, "revert", "work said to be "
			    "rolled back that was not", p, 40);
		if (!was && (ss->any || !day) && !story_weakly_reverted(f,
		    ss))
			return fence_fail(detail, "revert", "work said to be "
			    "rolled back that was not", p, 40);
	}
	if (ss->any && (story_has_any(ss->text, story_because,
	    NELEM(story_because)) != NULL || story_has_any(ss->text,
	    story_because_revert, NELEM(story_because_revert)) != NULL)) {
		revert = story_has_any(ss->text, story_because,
		    NELEM(story_because)) != NULL;
		for (k = 0; k < f->nstories; k++)
			if (TOLD(ss, k) && f->stories[k].is_revert)
				revert = 1;
		for (i = 0; revert && i < ss->nw; i++) {
			const char *stem = ss->w[i].stem;

			if (strlen(stem) < 4 || story_generic_word(stem) ||
			    story_in(story_because, NELEM(story_because),
			    stem) || story_in(story_because_revert,
			    NELEM(story_because_revert), stem))
				continue;
			content++;
			for (k = 0, said = 0; k < f->nstories && !said; k++)
				said = TOLD(ss, k) && fence_set_has(
				    &f->stories[k].said, stem, strlen(stem));
			if (said)
				known++;
		}
		if (revert && content >= 2 && known * 2 < content)
			return fence_fail(detail, "reason", "a reason the "
			    "facts do not give", ss->text, 40);
	}
	if ((p = story_revert_reverted(ss->w, ss->nw)) != NULL) {
		/* the reverts told here; or, when none is, the day's */
		for (k = 0, was = 0; k < f->nstories; k++)
			if ((TOLD(ss, k) || !ss->any) &&
			    f->stories[k].is_revert && f->stories[k].reverted)
				was = 1;
		if (!was)
			return fence_fail(detail, "revert", "a revert said to "
			    "be rolled back that was not", p, 40);
	}
	return NULL;
}

/* A version is a told story's own, and goes with the thing it is of. */
static const char *
story_check_version(const struct fence *f, const struct story_sentence *ss,
    const struct fence_tok *t, const char *vs, char **detail)
{
	const char	*q;
	size_t		 k, j;

	if ((q = story_version_of(f, ss->text, t->p, vs)) != NULL)
		return fence_fail(detail, "figure", "a version given to "
		    "another thing than the facts give it", q,
		    (size_t)(t->p + t->len - q));
	for (k = 0; k < f->nstories; k++)
		for (j = 0; TOLD(ss, k) && j < f->stories[k].nversions; j++)
			if (strcmp(f->stories[k].versions[j], vs) == 0)
				return NULL;
	return fence_fail(detail, "version", "a version not of the story told",
	    t->p, t->len);
}

/* A figure of a told story comes with a word of what it measures. */
static const char *
story_check_measure(const struct fence *f, const struct story_sentence *ss,
    const struct fence_tok *t, char **detail)
{
	const struct fence_figure	*fg;
	size_t				 k, j, m;
	int				 said;

	for (k = 0; k < f->nstories; k++) {
		for (j = 0; TOLD(ss, k) && j < f->stories[k].nfigures; j++) {
			fg = &f->stories[k].figures[j];
			if (strncmp(fg->value, t->p, t->len) != 0 ||
			    fg->value[t->len] != '\0' || fg->measures.n == 0)
				continue;
			for (m = 0, said = 0; m < ss->nw && !said; m++)
				said = fence_set_has(&fg->measures,
				    ss->w[m].stem, strlen(ss->w[m].stem));
			if (!said)
				return fence_fail(detail, "figure", "a figure "
				    "without what it measures", t->p, t->len);
		}
	}
	return NULL;
}

/*
 * Versions and figures are the told stories' own, counts the day's, and
 * references ("number 13150") the facts'.
 */
static const char *
story_check_numbers(const struct fence *f, const struct story_sentence *ss,
    char **detail)
{
	struct story_spoken	 sc;
	struct fence_tok	 t;
	const char		*p, *r;
	char			 vs[64];
	size_t			 i, skip;
	double			 x;
	enum story_noun		 noun;
	int			 initial = 1;

	for (p = ss->text; ss->any && fence_next(&p, &t, &initial); ) {
		if (t.len == 0)
			continue;
		if (fence_version(t.p, t.len, vs, sizeof(vs), 1) > 0) {
			if ((r = story_check_version(f, ss, &t, vs,
			    detail)) != NULL)
				return r;
			continue;
		}
		skip = t.p[0] == '#' ? 1 : 0;
		if (!fence_digits(t.p + skip, t.len - skip, &x))
			continue;
		if (!story_number_ok(f, ss->matched, x) &&
		    !story_version_ok(f, ss->matched, t.p, t.len))
			return fence_fail(detail, "figure", "a figure not of "
			    "the story told", t.p, t.len);
		if ((r = story_check_measure(f, ss, &t, detail)) != NULL)
			return r;
	}
	for (i = 0; i < ss->nw; i++) {
		if (!story_number_at(ss->w, i, &x) ||
		    (noun = story_noun_after(ss->w, ss->nw, i)) == NOUN_NONE)
			continue;
		if (!story_count_ok(f, noun, x))
			return fence_fail(detail, "count", "a count not the "
			    "day's", ss->w[i].p, 30);
	}
	if (ss->any) {
		sc.f = f;
		sc.matched = ss->matched;
		sc.found = 0;
		sc.bad = 0;
		fence_spoken(ss->text, story_spoken_one, &sc);
		if (sc.found) {
			if (detail != NULL)
				xasprintf(detail, "a figure not of the story "
				    "told: %.15g", sc.bad);
			return "figure";
		}
	}
	if (story_refs(f, ss->text, NULL))
		return fence_fail(detail, "number", "a reference (number, #, "
		    "pull request) not in the facts", ss->text, 40);
	return NULL;
}

/*
 * Warnings and advice only where a told story gives them; what the draft
 * warns of (an opt-in, a breaking change, a minimum raised, something
 * removed) never waved away; the focus setting never turned around.
 */
static const char *
story_check_claims(const struct fence *f, const struct story_sentence *ss,
    char **detail)
{
	const char	*p, *claim, *para;

	if ((claim = story_claim(f, ss->lower, ss->matched, ss->any)) !=
	    NULL) {
		p = ss->text + (story_word_start(ss->lower, claim) -
		    ss->lower);
		return fence_fail(detail, "claim", "a claim no story makes", p,
		    40);
	}
	if ((p = story_has_any(ss->text, story_on_default,
	    NELEM(story_on_default))) != NULL && story_has_any(f->draft,
	    story_on_default, NELEM(story_on_default)) == NULL &&
	    (strstr(f->draft, "opt-in") != NULL || strstr(f->draft, "opt in")
	    != NULL || strstr(f->draft, "off by default") != NULL))
		return fence_fail(detail, "claim", "an opt-in said to be on by "
		    "default", p, 30);
	if ((p = story_has_any(ss->text, story_all_clear,
	    NELEM(story_all_clear))) != NULL && story_has_any(f->draft,
	    story_warned, NELEM(story_warned)) != NULL && story_has_any(
	    f->draft, story_all_clear, NELEM(story_all_clear)) == NULL)
		return fence_fail(detail, "focus", "a warning of the day waved "
		    "away", p, 30);
	if (strstr(f->draft, "breaking") != NULL && (p = strstr(ss->lower,
	    "break")) != NULL && story_has_any(ss->text, story_negations,
	    NELEM(story_negations)) != NULL)
		return fence_fail(detail, "focus", "a breaking change said not "
		    "to break", ss->text + (p - ss->lower), 30);
	if (f->focus == NULL || strstr(ss->text, f->focus) == NULL ||
	    (p = story_has_any(ss->text, story_negations,
	    NELEM(story_negations))) == NULL)
		return NULL;
	/* the draft's own paragraph of the focus holds no negation */
	para = strstr(f->draft, f->focus);
	while (para > f->draft && !(para[-1] == '\n' && para - 1 > f->draft &&
	    para[-2] == '\n'))
		para--;
	if (story_has_any(para, story_negations, NELEM(story_negations)) ==
	    NULL)
		return fence_fail(detail, "focus", "the focus setting turned "
		    "around", p, 30);
	return NULL;
}

/*
 * In a show, a sentence that places its story ("in vision", "over in
 * vision", "from vision") names a repository of one of the stories it
 * tells: a story is never moved to another repository. Names are the
 * sheet's (the part after the owner), matched as words, in lower case.
 */
static const char *
story_check_place(const struct fence *f, const struct story_sentence *ss,
    char **detail)
{
	static const char *const before[] = { "in", "from", "at" };
	const char	*name, *p;
	size_t		 k, j, b, len;
	int		 named, here;

	if (!ss->any)
		return NULL;
	for (k = 0; k < f->nstories; k++) {
		if ((name = f->stories[k].repository) == NULL)
			continue;
		len = strlen(name);
		/* a repository named after "in", "from" or "at" */
		named = 0;
		for (p = ss->lower; !named && (p = strstr(p, name)) != NULL;
		    p += len) {
			if ((p > ss->lower && (isalnum((unsigned char)p[-1]) ||
			    p[-1] == '-' || p[-1] == '_')) ||
			    isalnum((unsigned char)p[len]) || p[len] == '-' ||
			    p[len] == '_')
				continue;
			for (b = 0; b < NELEM(before) && !named; b++) {
				size_t bl = strlen(before[b]);

				named = (size_t)(p - ss->lower) >= bl + 1 &&
				    p[-1] == ' ' &&
				    strncmp(p - bl - 1, before[b], bl) == 0 &&
				    (p - bl - 1 == ss->lower ||
				    !isalnum((unsigned char)p[-bl - 2]));
			}
		}
		if (!named)
			continue;
		/* one of the stories told here happened there */
		for (j = 0, here = 0; j < f->nstories && !here; j++)
			here = TOLD(ss, j) && f->stories[j].repository !=
			    NULL && strcmp(f->stories[j].repository, name) == 0;
		if (!here)
			return fence_fail(detail, "place", "a story told in "
			    "another repository", ss->text, 30);
	}
	return NULL;
}

const char *
fence_sentence_stories(const struct fence *f, const char *sentence,
    int *prev, char **detail)
{
	struct story_sentence	*ss;
	const char		*r;
	int			*matched;
	size_t			 i;

	if (f->nstories == 0)
		return NULL;
	ss = xcalloc(1, sizeof(*ss));
	matched = xcalloc(f->nstories, sizeof(*matched));
	ss->text = sentence;
	if (prev != NULL) {
		ss->any = story_matches(f, sentence, prev);
		memcpy(matched, prev, f->nstories * sizeof(*prev));
	} else
		for (i = 0; i < f->nstories; i++)
			if ((matched[i] = fence_story_told(f, sentence,
			    &f->stories[i])))
				ss->any = 1;
	ss->matched = matched;
	ss->nw = story_words(sentence, ss->w, STORY_MAX_WORDS);
	ss->lower = text_lower(sentence);
	if ((r = story_check_people(f, ss, detail)) == NULL &&
	    (r = story_check_reverts(f, ss, detail)) == NULL &&
	    (r = story_check_numbers(f, ss, detail)) == NULL &&
	    (r = story_check_place(f, ss, detail)) == NULL)
		r = story_check_claims(f, ss, detail);
	free(ss->lower);
	free(matched);
	free(ss);
	return r;
}
