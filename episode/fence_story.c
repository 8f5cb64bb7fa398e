/*
 * The fence's checks of meaning, sentence by sentence and story by story,
 * and the repair that drops a failing sentence instead of refusing the
 * reply.
 *
 * A sentence is matched to the stories it tells by their own words (not
 * their people's names): a word few stories hold says more than one all
 * of them do. Then what it says is held to those stories: a person named
 * owns one of them (wrote, merged, asked for or carried out its revert),
 * a version is one of theirs, a figure is theirs and comes with a word of
 * what it measures, "rolled back" is said only of work that was, a count
 * ("twelve commits") is the day's, and a warning (security, a crash, data
 * loss, uninstalling) is one their facts give. What the fence cannot see
 * (a fix said to break, two figures swapped within one sentence) the
 * manual says.
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

/* A sentence tells a story when its words weigh this much (1/stories). */
#define STORY_MATCH	0.99
/* Words of a sentence read, at most. */
#define STORY_MAX_WORDS	256

/* Words any change's story may hold: they tell no story from another. */
static const char *const story_generic[] = {
	"about", "added", "adds", "after", "again", "against", "along",
	"already", "also", "although", "among", "another", "anything",
	"around", "author", "authors", "away", "back", "became", "because",
	"been", "before", "being", "below", "better", "between", "both",
	"called", "came", "cannot", "case", "cases", "change", "changes",
	"code", "come", "commit", "commits", "could", "day", "does", "doing",
	"done", "down", "during", "each", "either", "else", "enough", "even",
	"ever", "every", "first", "found", "from", "further", "gave", "gets",
	"give", "given", "goes", "going", "good", "have", "having", "here",
	"however", "instead", "into", "just", "keep", "kept", "last", "later",
	"less", "like", "made", "make", "makes", "many", "may", "might",
	"more", "most", "much", "must", "need", "needed", "needs", "never",
	"next", "none", "not", "now", "once", "only", "other", "others",
	"over", "part", "pull", "put", "rather", "really", "release",
	"released", "request", "requests", "said", "same", "says", "see",
	"seen", "should", "since", "some", "something", "still", "such",
	"take", "taken", "than", "that", "their", "them", "then", "there",
	"these", "they", "thing", "things", "this", "those", "though",
	"through", "thus", "today", "together", "too", "took", "under",
	"until", "update", "updated", "updates", "upon", "used", "uses",
	"using", "very", "want", "was", "way", "well", "went", "were", "what",
	"when", "where", "whether", "which", "while", "whole", "will", "with",
	"within", "without", "work", "would", "yet", "your",
};

/* Words that say work was taken out. */
static const char *const story_revert_words[] = {
	"revert", "reverted", "reverting", "reverts", "rolled back",
	"roll back", "rolling back", "rollback", "backed out", "back out",
	"undid", "undone", "taken out", "took out", "pulled back",
};

/* Words that turn a statement about the setting or a revert around. */
static const char *const story_negations[] = {
	"no", "not", "nothing", "none", "never", "without", "don't", "doesn't",
	"didn't", "won't", "avoid", "instead", "disable", "stop",
};

/* Words a sentence opens with that lean on the one before. */
static const char *const story_leaning[] = {
	"it", "its", "this", "that", "these", "those", "they", "their",
	"the", "he", "she", "his", "her", "and", "but", "so", "which",
	"there",
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

/* A word of a sentence: where it is, its lower-case stem. */
struct story_word {
	const char	*p;
	size_t		 len;
	char		 stem[48];
	int		 capital;
};

static int	story_matches(const struct fence *, const char *, int *);

/*
 * The stem of a lower-case word, in place: "changes", "changed" and
 * "changing" are all "chang", "fixes" is "fix"; its length.
 */
static size_t
story_stem(char *w, size_t n)
{
	if (n > 2 && w[n - 2] == '\'' && w[n - 1] == 's')
		n -= 2;
	if (n > 6 && strncmp(w + n - 3, "ing", 3) == 0)
		n -= 3;
	else if (n > 5 && strncmp(w + n - 2, "ed", 2) == 0)
		n -= 2;
	else if (n > 4 && strncmp(w + n - 2, "es", 2) == 0)
		n -= 2;
	else if (n > 4 && w[n - 1] == 's' && w[n - 2] != 's')
		n -= 1;
	if (n > 4 && w[n - 1] == 'e')
		n -= 1;
	w[n] = '\0';
	return n;
}

static int	story_in(const char *const *, size_t, const char *);
static int	story_num_in(const double *, size_t, double);

/* Whether a stem is that of a word. */
static int
story_is(const char *stem, const char *word)
{
	const char *const v[1] = { word };

	return story_in(v, 1, stem);
}

/* Whether a stem is that of one of the words of v. */
static int
story_in(const char *const *v, size_t n, const char *stem)
{
	char	w[48];
	size_t	i, len;

	for (i = 0; i < n; i++) {
		if ((len = strlen(v[i])) >= sizeof(w))
			continue;
		memcpy(w, v[i], len + 1);
		story_stem(w, len);
		if (strcmp(w, stem) == 0)
			return 1;
	}
	return 0;
}

/* The words of a text (at most max), each with its stem. */
static size_t
story_words(const char *text, struct story_word *v, size_t max)
{
	const char	*p = text, *w;
	size_t		 n = 0, len, i;

	while (*p != '\0' && n < max) {
		if (!fence_wordc(p) || (*p == '\'' && n > 0)) {
			p += fence_clen(p);
			continue;
		}
		for (w = p; *p != '\0' && (fence_wordc(p) || (*p == '\'' &&
		    isalpha((unsigned char)p[1]))); p += fence_clen(p))
			;
		len = (size_t)(p - w);
		v[n].p = w;
		v[n].len = len;
		v[n].capital = isupper((unsigned char)*w);
		if (len >= sizeof(v[n].stem))
			len = sizeof(v[n].stem) - 1;
		for (i = 0; i < len; i++)
			v[n].stem[i] = (char)tolower((unsigned char)w[i]);
		v[n].stem[len] = '\0';
		story_stem(v[n].stem, len);
		n++;
	}
	return n;
}

/* Whether text holds any of v as whole words, any case. */
static const char *
story_has_any(const char *text, const char *const *v, size_t n)
{
	const char	*p;
	size_t		 i;

	for (i = 0; i < n; i++)
		if ((p = fence_find_word(text, v[i])) != NULL)
			return p;
	return NULL;
}

/* Add the stems of a text's words that may tell a story from another. */
static void
story_learn_words(struct fence_story *s, const struct fence *f,
    const char *text)
{
	struct story_word	 w[STORY_MAX_WORDS];
	size_t			 n, i, k;
	int			 person;

	if (text == NULL)
		return;
	n = story_words(text, w, STORY_MAX_WORDS);
	for (i = 0; i < n; i++) {
		if (strlen(w[i].stem) < 3 || story_in(story_generic,
		    NELEM(story_generic), w[i].stem) || (strlen(w[i].stem) < 4 &&
		    words_known(w[i].stem, strlen(w[i].stem))))
			continue;
		for (k = 0, person = 0; k < f->npeople && !person; k++)
			person = fence_set_has(&f->people[k].words, w[i].stem,
			    strlen(w[i].stem));
		if (!person)
			fence_set_add(&s->words, w[i].stem, strlen(w[i].stem));
	}
}

/*
 * The tokens of a text that name one story as no word does: identifiers
 * ("spawn_blocking", "--header-border") and versions ("1.43.3").
 */
static void
story_learn_tokens(struct fence_story *s, const char *text)
{
	struct fence_tok	 t;
	const char		*p = text;
	char			 vs[64];
	int			 initial = 1;

	while (fence_next(&p, &t, &initial)) {
		if (t.len < 3 || t.len > 128)
			continue;
		if (fence_identifier(t.p, t.len) || fence_version(t.p, t.len,
		    vs, sizeof(vs), 1) > 0)
			fence_set_add(&s->tokens, t.p, t.len);
	}
}

/* Add the stems of all a text's words to what is said of a story. */
static void
story_learn_said(struct fence_story *s, const char *text)
{
	struct story_word	 w[STORY_MAX_WORDS];
	size_t			 n, i;

	n = story_words(text, w, STORY_MAX_WORDS);
	for (i = 0; i < n; i++)
		fence_set_add(&s->said, w[i].stem, strlen(w[i].stem));
}

/* The numbers a text says (digits, and in words) go to *v. */
struct story_nums {
	double	*v;
	size_t	 n;
};

static void
story_num_add(void *arg, double x)
{
	struct story_nums	*s = arg;

	s->v = xreallocarray(s->v, s->n + 1, sizeof(*s->v));
	s->v[s->n++] = x;
}

static void
story_numbers(const char *text, struct story_nums *out, char ***versions,
    size_t *nversions)
{
	struct fence_tok	 t;
	const char		*p = text;
	char			 vs[64];
	double			 x;
	size_t			 vn;
	int			 initial = 1;

	if (text == NULL)
		return;
	while (fence_next(&p, &t, &initial)) {
		if (t.len == 0)
			continue;
		if (t.p[0] == '#' && t.len > 1 && fence_digits(t.p + 1,
		    t.len - 1, &x))
			story_num_add(out, x);
		else if (fence_digits(t.p, t.len, &x))
			story_num_add(out, x);
		if (versions != NULL && (vn = fence_version(t.p, t.len, vs,
		    sizeof(vs), 0)) > 0) {
			*versions = xreallocarray(*versions, *nversions + 1,
			    sizeof(**versions));
			(*versions)[(*nversions)++] = xstrndup(vs, vn);
		}
	}
	fence_spoken(text, story_num_add, out);
}

/* Which person of the fence has this name or login (adding it). */
static size_t
story_person(struct fence *f, const struct sheet_person *sp)
{
	struct fence_set	 words;
	size_t			 i;

	memset(&words, 0, sizeof(words));
	if (sp->name != NULL)
		fence_add_words(&words, sp->name, strlen(sp->name));
	if (sp->login != NULL) {
		char *l = xstrdup(sp->login);

		for (i = 0; l[i] != '\0'; i++)
			l[i] = (char)tolower((unsigned char)l[i]);
		fence_set_add(&words, l, strlen(l));
		free(l);
	}
	fence_set_sort(&words);
	for (i = 0; i < f->npeople; i++) {
		size_t	k, same = 0;

		for (k = 0; k < words.n; k++)
			if (fence_set_has(&f->people[i].words, words.v[k],
			    strlen(words.v[k])))
				same++;
		if (same == words.n && same == f->people[i].words.n) {
			fence_set_free(&words);
			return i;
		}
	}
	f->people = xreallocarray(f->people, f->npeople + 1,
	    sizeof(*f->people));
	f->people[f->npeople].words = words;
	return f->npeople++;
}

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

static void
story_ref_add(struct fence *f, double x)
{
	f->refs = xreallocarray(f->refs, f->nrefs + 1, sizeof(*f->refs));
	f->refs[f->nrefs++] = x;
}

/*
 * The numbers text gives as references ("number 13150", "#13150", "pull
 * request 13150", "PR 13150", "issue 12"): with learn, each is added to
 * it; else whether one is not among the fence's.
 */
static int
story_refs(const struct fence *f, const char *text, struct story_nums *learn)
{
	struct story_word	 w[STORY_MAX_WORDS];
	size_t			 n, i, k, ns, *starts, *lens;
	double			 x;
	int			 bad = 0;

	ns = fence_sentences(text, &starts, &lens);
	for (k = 0; k < ns && !bad; k++) {
		char *sent = xstrndup(text + starts[k], lens[k]);

		n = story_words(sent, w, STORY_MAX_WORDS);
		for (i = 0; i < n && !bad; i++) {
			int ref;

			if (!fence_digits(w[i].p, w[i].len, &x))
				continue;
			ref = (w[i].p > sent && w[i].p[-1] == '#') ||
			    (i > 0 && (story_is(w[i - 1].stem, "number") ||
			    story_is(w[i - 1].stem, "issue") ||
			    story_is(w[i - 1].stem, "prs") ||
			    (story_is(w[i - 1].stem, "request") && i > 1 &&
			    story_is(w[i - 2].stem, "pull"))));
			if (!ref)
				continue;
			if (learn != NULL)
				story_num_add(learn, x);
			else if (!story_num_in(f->refs, f->nrefs, x))
				bad = 1;
		}
		free(sent);
	}
	free(starts);
	free(lens);
	return bad;
}

/*
 * Counts the sheet implies are facts too: how many told stories are each
 * person's ("two of the day's changes came from Ada"), how many of each
 * kind ("three new features").
 */
static void
story_derived(struct fence *f, const struct sheet *sh)
{
	size_t	i, k, j, n;

	for (i = 0; i < f->npeople; i++) {
		for (k = n = 0; k < f->nstories; k++)
			for (j = 0; j < f->stories[k].nowners; j++)
				if (f->stories[k].owners[j] == i &&
				    f->stories[k].roles[j] == SHEET_AUTHOR) {
					n++;
					break;
				}
		fence_add_number(f, (double)n);
		/* said of someone's work in any sentence: "two of them" */
		f->general = xreallocarray(f->general, f->ngeneral + 1,
		    sizeof(*f->general));
		f->general[f->ngeneral++] = (double)n;
	}
	for (i = 0; i < sh->nstories; i++) {
		for (k = n = 0; k < sh->nstories; k++)
			if (strcmp(sh->stories[k].kind, sh->stories[i].kind) ==
			    0)
				n++;
		fence_add_number(f, (double)n);
	}
	fence_sort_numbers(f);
}

void
fence_stories_learn(struct fence *f, const struct sheet *sh)
{
	struct fence_story	*s;
	struct story_nums	 nums;
	size_t			 i, k, j, n, *starts, *lens;
	char			*sent;
	int			*told;

	f->counts = sh->counts;
	f->has_counts = 1;
	f->stories = xcalloc(sh->nstories + 1, sizeof(*f->stories));
	f->nstories = sh->nstories;
	/* the people first: a story's words are not its people's names */
	for (i = 0; i < sh->nstories; i++)
		for (k = 0; k < sh->stories[i].npeople; k++)
			story_person(f, &sh->stories[i].people[k]);
	for (i = 0; i < sh->nstories; i++) {
		const struct sheet_story *ss = &sh->stories[i];
		struct buf text;

		s = &f->stories[i];
		s->id = xstrdup(ss->id);
		s->kind = ss->kind;
		s->is_revert = ss->is_revert;
		/* a re-land puts back work that was rolled back */
		s->reverted = ss->reverted || strcmp(ss->kind, "reland") == 0;
		s->lead = ss->lead;
		s->bot = ss->bot;
		s->owners = xcalloc(ss->npeople + 1, sizeof(*s->owners));
		s->roles = xcalloc(ss->npeople + 1, sizeof(*s->roles));
		for (k = 0; k < ss->npeople; k++) {
			s->owners[s->nowners] = story_person(f,
			    &ss->people[k]);
			s->roles[s->nowners++] = (int)ss->people[k].role;
		}
		buf_init(&text);
		buf_printf(&text, "%s\n%s\n%s\n%s\n%s\n", ss->what,
		    ss->area != NULL ? ss->area : "", ss->reason != NULL ?
		    ss->reason : "", ss->revert_of != NULL ? ss->revert_of :
		    "", ss->revert_reason != NULL ? ss->revert_reason : "");
		for (k = 0; k < ss->nsettings; k++) {
			buf_printf(&text, "%s\n", ss->settings[k]);
			fence_set_add(&s->tokens, ss->settings[k],
			    strlen(ss->settings[k]));
		}
		s->figures = xcalloc(ss->nfigures + 1, sizeof(*s->figures));
		for (k = 0; k < ss->nfigures; k++) {
			struct fence_figure *fg = &s->figures[s->nfigures];
			double x;

			if (!fence_digits(ss->figures[k].value,
			    strlen(ss->figures[k].value), &x))
				continue;
			fg->value = xstrdup(ss->figures[k].value);
			fg->number = x;
			if (ss->figures[k].measures != NULL) {
				struct story_word w[64];

				n = story_words(ss->figures[k].measures, w, 64);
				for (j = 0; j < n; j++)
					if (strlen(w[j].stem) >= 3)
						fence_set_add(&fg->measures,
						    w[j].stem,
						    strlen(w[j].stem));
				buf_printf(&text, "%s %s\n", fg->value,
				    ss->figures[k].measures);
			}
			fence_set_sort(&fg->measures);
			s->nfigures++;
		}
		for (k = 0; k < ss->nversions; k++) {
			char vs[64];
			size_t vn;

			buf_printf(&text, "%s\n", ss->versions[k]);
			if ((vn = fence_version(ss->versions[k],
			    strlen(ss->versions[k]), vs, sizeof(vs), 0)) > 0) {
				s->versions = xreallocarray(s->versions,
				    s->nversions + 1, sizeof(*s->versions));
				s->versions[s->nversions++] = xstrndup(vs, vn);
			}
		}
		story_learn_words(s, f, buf_str(&text));
		story_learn_tokens(s, buf_str(&text));
		story_learn_said(s, buf_str(&text));
		memset(&nums, 0, sizeof(nums));
		story_numbers(buf_str(&text), &nums, &s->versions,
		    &s->nversions);
		if (ss->pr > 0)
			story_num_add(&nums, (double)ss->pr);
		s->numbers = nums.v;
		s->nnumbers = nums.n;
		s->text = text_lower(buf_str(&text));
		buf_free(&text);
	}
	/* a revert's story is also its reverted work's: the same words */
	for (i = 0; i < sh->nstories; i++) {
		if (!sh->stories[i].is_revert || sh->stories[i].revert_of ==
		    NULL)
			continue;
		for (k = 0; k < sh->nstories; k++) {
			if (k == i || strcasecmp(sh->stories[k].what,
			    sh->stories[i].revert_of) != 0)
				continue;
			for (j = 0; j < f->stories[k].nowners; j++) {
				s = &f->stories[i];
				s->owners = xreallocarray(s->owners,
				    s->nowners + 1, sizeof(*s->owners));
				s->roles = xreallocarray(s->roles,
				    s->nowners + 1, sizeof(*s->roles));
				s->owners[s->nowners] = f->stories[k].owners[j];
				s->roles[s->nowners++] = SHEET_AUTHOR;
			}
		}
	}
	for (i = 0; i < f->nstories; i++) {
		fence_set_sort(&f->stories[i].words);
		fence_set_sort(&f->stories[i].tokens);
	}
	story_derived(f, sh);
	for (i = 0; i < sh->nstories; i++)
		if (sh->stories[i].pr > 0)
			story_ref_add(f, (double)sh->stories[i].pr);
	memset(&nums, 0, sizeof(nums));
	story_refs(f, f->draft, &nums);
	story_refs(f, f->sheet, &nums);
	for (i = 0; i < nums.n; i++)
		story_ref_add(f, nums.v[i]);
	free(nums.v);
	/*
	 * What the draft says of a story is a fact of it; what it says of
	 * none (the opening's counts) any sentence may say.
	 */
	n = fence_sentences(f->draft, &starts, &lens);
	told = xcalloc(f->nstories + 1, sizeof(*told));
	for (i = 0; i < n; i++) {
		int any = 0;

		sent = xstrndup(f->draft + starts[i], lens[i]);
		memset(&nums, 0, sizeof(nums));
		story_numbers(sent, &nums, NULL, NULL);
		story_matches(f, sent, told);
		for (k = 0; k < f->nstories; k++) {
			if (!told[k])
				continue;
			any = 1;
			s = &f->stories[k];
			s->numbers = xreallocarray(s->numbers, s->nnumbers +
			    nums.n + 1, sizeof(*s->numbers));
			memcpy(s->numbers + s->nnumbers, nums.v, nums.n *
			    sizeof(*nums.v));
			s->nnumbers += nums.n;
			story_learn_said(s, sent);
			story_numbers(sent, &(struct story_nums){ NULL, 0 },
			    &s->versions, &s->nversions);
		}
		if (!any) {
			f->general = xreallocarray(f->general, f->ngeneral +
			    nums.n + 1, sizeof(*f->general));
			memcpy(f->general + f->ngeneral, nums.v, nums.n *
			    sizeof(*nums.v));
			f->ngeneral += nums.n;
		}
		free(nums.v);
		free(sent);
	}
	for (i = 0; i < f->nstories; i++)
		fence_set_sort(&f->stories[i].said);
	free(told);
	free(starts);
	free(lens);
}

void
fence_stories_free(struct fence *f)
{
	size_t	i, k;

	for (i = 0; i < f->nstories; i++) {
		struct fence_story *s = &f->stories[i];

		free(s->id);
		fence_set_free(&s->words);
		fence_set_free(&s->tokens);
		fence_set_free(&s->said);
		free(s->text);
		free(s->owners);
		free(s->roles);
		for (k = 0; k < s->nfigures; k++) {
			free(s->figures[k].value);
			fence_set_free(&s->figures[k].measures);
		}
		free(s->figures);
		free(s->numbers);
		for (k = 0; k < s->nversions; k++)
			free(s->versions[k]);
		free(s->versions);
	}
	free(f->stories);
	for (i = 0; i < f->npeople; i++)
		fence_set_free(&f->people[i].words);
	free(f->people);
	free(f->general);
	free(f->refs);
}

/* How many stories hold a stem. */
static size_t
story_df(const struct fence *f, const char *stem)
{
	size_t	i, n = 0;

	for (i = 0; i < f->nstories; i++)
		if (fence_set_has(&f->stories[i].words, stem, strlen(stem)))
			n++;
	return n;
}

int
fence_story_told(const struct fence *f, const char *sentence,
    const struct fence_story *s)
{
	struct story_word	 w[STORY_MAX_WORDS];
	double			 score = 0;
	size_t			 n, i, k, df;

	struct fence_tok	 t;
	const char		*p = sentence;
	char			 vs[64];
	size_t			 vn;
	int			 initial = 1;

	for (i = 0; i < s->tokens.n; i++)
		if (strstr(sentence, s->tokens.v[i]) != NULL)
			return 1;
	/* its version, however written: "v1.43.3", "1.43.3", "2.11" */
	while (s->nversions > 0 && fence_next(&p, &t, &initial)) {
		if ((vn = fence_version(t.p, t.len, vs, sizeof(vs), 0)) == 0)
			continue;
		for (i = 0; i < s->nversions; i++)
			if (strcmp(s->versions[i], vs) == 0)
				return 1;
	}
	n = story_words(sentence, w, STORY_MAX_WORDS);
	for (i = 0; i < n; i++) {
		/* each stem once */
		for (k = 0; k < i && strcmp(w[k].stem, w[i].stem) != 0; k++)
			;
		if (k < i || !fence_set_has(&s->words, w[i].stem,
		    strlen(w[i].stem)))
			continue;
		df = story_df(f, w[i].stem);
		/* an English word says less of which story than a name does */
		score += (words_known(w[i].stem, strlen(w[i].stem)) ? 0.5 :
		    1.0) / (double)(df > 0 ? df : 1);
	}
	return score >= STORY_MATCH;
}

/*
 * Where a sentence says a revert was itself taken out ("the revert was
 * rolled back", "the revert itself got reverted"), or NULL.
 */
static const char *
story_revert_reverted(const struct story_word *w, size_t n)
{
	static const char *const be[] = { "was", "were", "got", "been",
	    "itself", "also", "then", "later", "too", "has", "had" };
	size_t	i, k;

	for (i = 0; i + 1 < n; i++) {
		if (strcmp(w[i].stem, "revert") != 0 &&
		    strcmp(w[i].stem, "rollback") != 0)
			continue;
		for (k = i + 1; k < n && k <= i + 4 && story_in(be, NELEM(be),
		    w[k].stem); k++)
			;
		if (k == i + 1 || k >= n)
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
	    "four", "five", "single", "another" };
	size_t	i;

	for (i = 1; i < n; i++)
		if (w[i].p == p)
			return story_in(few, NELEM(few), w[i - 1].stem) ||
			    isdigit((unsigned char)w[i - 1].p[0]);
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

/*
 * The stories a sentence tells, in told (which holds the sentence
 * before's, and is overwritten): those it tells by their words, or when
 * it tells none and goes on about the one before ("It broke the build."),
 * that one's. Whether it tells any.
 */
static int
story_matches(const struct fence *f, const char *sentence, int *told)
{
	struct story_word	 w[1];
	size_t			 i;
	int			 any = 0, *now;

	now = xcalloc(f->nstories + 1, sizeof(*now));
	for (i = 0; i < f->nstories; i++)
		if ((now[i] = fence_story_told(f, sentence, &f->stories[i])))
			any = 1;
	if (!any && story_words(sentence, w, 1) == 1 &&
	    story_in(story_leaning, NELEM(story_leaning), w[0].stem)) {
		for (i = 0; i < f->nstories; i++)
			if (told[i])
				any = 1;
	} else
		memcpy(told, now, f->nstories * sizeof(*told));
	free(now);
	return any;
}

/* Whether x is among v's n numbers. */
static int
story_num_in(const double *v, size_t n, double x)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (fabs(v[i] - x) < 1e-9)
			return 1;
	return 0;
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

/* Whether x may count the noun: the day's count, or the draft's. */
static int
story_count_ok(const struct fence *f, enum story_noun noun, double x)
{
	struct story_word	 w[STORY_MAX_WORDS];
	size_t			 day, n, i, k, owned, ns, *starts, *lens;
	double			 y;
	int			 found = 0;

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
		/* of a kind: how many told stories are */
		for (k = day = 0; k < f->nstories; k++)
			if (f->stories[k].kind != NULL && strcmp(
			    f->stories[k].kind, noun == NOUN_FIXES ? "fix" :
			    "feature") == 0)
				day++;
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
		for (i = 0; i < f->npeople; i++) {
			for (k = owned = 0; k < f->nstories; k++) {
				size_t j;

				for (j = 0; j < f->stories[k].nowners; j++)
					if (f->stories[k].owners[j] == i &&
					    f->stories[k].roles[j] ==
					    SHEET_AUTHOR) {
						owned++;
						break;
					}
			}
			if (fabs(x - (double)owned) < 1e-9)
				return 1;
		}
	/* the draft's own count of that noun, read the same way */
	ns = fence_sentences(f->draft, &starts, &lens);
	for (k = 0; k < ns && !found; k++) {
		char *sent = xstrndup(f->draft + starts[k], lens[k]);

		n = story_words(sent, w, STORY_MAX_WORDS);
		for (i = 0; i < n && !found; i++)
			if (story_word_number(&w[i], &y) && story_noun_after(w,
			    n, i) == noun && fabs(x - y) < 1e-9)
				found = 1;
		free(sent);
	}
	free(starts);
	free(lens);
	return found;
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

const char *
fence_sentence_stories(const struct fence *f, const char *sentence,
    int *prev, char **detail)
{
	struct story_word	 w[STORY_MAX_WORDS];
	struct story_spoken	 sc;
	struct fence_tok	 t;
	const char		*p, *q, *ask, *claim;
	char			*lower, vs[64];
	int			*matched, any = 0, initial = 1;
	size_t			 nw, i, k, j, at, wi, best, bestd, vn, skip;
	double			 x;
	enum story_noun		 noun;

	if (f->nstories == 0)
		return NULL;
	matched = xcalloc(f->nstories, sizeof(*matched));
	if (prev != NULL) {
		any = story_matches(f, sentence, prev);
		memcpy(matched, prev, f->nstories * sizeof(*prev));
	} else
		for (i = 0; i < f->nstories; i++)
			if ((matched[i] = fence_story_told(f, sentence,
			    &f->stories[i])))
				any = 1;
	nw = story_words(sentence, w, STORY_MAX_WORDS);
	lower = text_lower(sentence);
	if (getenv("FENCE_DEBUG") != NULL) {
		fprintf(stderr, "S: %s\n  matched:", sentence);
		for (i = 0; i < f->nstories; i++)
			if (matched[i])
				fprintf(stderr, " %s", f->stories[i].id);
		fprintf(stderr, " (reverts %zu)\n", f->counts.reverts);
		for (i = 0; i < f->nstories; i++)
			if (matched[i]) {
				fprintf(stderr, "   %s owners", f->stories[i].id);
				for (k = 0; k < f->stories[i].nowners; k++)
					fprintf(stderr, " %zu", f->stories[i].owners[k]);
				fprintf(stderr, " words");
				for (k = 0; k < f->stories[i].words.n; k++)
					fprintf(stderr, " %s", f->stories[i].words.v[k]);
				fprintf(stderr, "\n");
			}
	}

	/* a person named owns a story told here */
	ask = story_asks(sentence, w, nw);
	best = f->npeople;
	bestd = (size_t)-1;
	for (i = 0; i < f->npeople; i++) {
		int owns = 0;

		if (!story_named(f, i, w, nw, sentence, &at, &wi))
			continue;
		if (ask != NULL) {
			size_t d = at > (size_t)(ask - sentence) ? at -
			    (size_t)(ask - sentence) : (size_t)(ask -
			    sentence) - at;

			if (d < bestd) {
				bestd = d;
				best = i;
			}
		}
		if (!any)
			continue;
		/*
		 * Theirs: a story told here, or one of theirs the sentence
		 * names by a word of it ("with Alex's queue, that makes
		 * three").
		 */
		for (k = 0; k < f->nstories && !owns; k++)
			for (j = 0; j < f->stories[k].nowners; j++)
				if (f->stories[k].owners[j] == i &&
				    (matched[k] || (story_possessive(&w[wi]) &&
				    wi + 1 < nw && fence_set_has(
				    &f->stories[k].words, w[wi + 1].stem,
				    strlen(w[wi + 1].stem)))))
					owns = 1;
		if (!owns) {
			free(lower);
			free(matched);
			return fence_fail(detail, "owner", "a person credited "
			    "with a story not theirs", sentence + at, 30);
		}
	}
	if (best < f->npeople && story_has_any(sentence, story_revert_words,
	    NELEM(story_revert_words)) != NULL) {
		int asked = 0;

		/* the reverts told here; or, when none is, the day's */
		for (k = 0; k < f->nstories && !asked; k++)
			for (j = 0; (matched[k] || (!any &&
			    f->stories[k].is_revert)) &&
			    j < f->stories[k].nowners; j++)
				if (f->stories[k].owners[j] == best &&
				    f->stories[k].roles[j] == SHEET_REQUESTER)
					asked = 1;
		if (!asked) {
			free(lower);
			free(matched);
			return fence_fail(detail, "owner", "someone said to "
			    "have asked for a revert who did not", ask, 30);
		}
	}

	/* "rolled back" only of work that was */
	if ((p = story_has_any(sentence, story_revert_words,
	    NELEM(story_revert_words))) != NULL && story_has_any(sentence,
	    story_negations, NELEM(story_negations)) == NULL &&
	    !story_counted(w, nw, p)) {
		int was = 0, day = 0;

		for (k = 0; k < f->nstories; k++) {
			if (f->stories[k].is_revert || f->stories[k].reverted)
				day = 1;
			if (matched[k] && (f->stories[k].is_revert ||
			    f->stories[k].reverted))
				was = 1;
		}
		if (f->counts.reverts > 0 || f->counts.relands > 0)
			day = 1;
		if (!was && (any || !day)) {
			free(lower);
			free(matched);
			return fence_fail(detail, "revert", "work said to be "
			    "rolled back that was not", p, 40);
		}
	}

	/*
	 * A reason said for a revert is the revert's: most of the words
	 * of a sentence that gives one are what the facts and the draft
	 * say of it.
	 */
	if (any && (story_has_any(sentence, story_because,
	    NELEM(story_because)) != NULL || story_has_any(sentence,
	    story_because_revert, NELEM(story_because_revert)) != NULL)) {
		size_t content = 0, known = 0;
		int revert = story_has_any(sentence, story_because,
		    NELEM(story_because)) != NULL;

		for (k = 0; k < f->nstories; k++)
			if (matched[k] && f->stories[k].is_revert)
				revert = 1;
		for (i = 0; revert && i < nw; i++) {
			int said = 0;

			if (strlen(w[i].stem) < 4 || story_in(story_generic,
			    NELEM(story_generic), w[i].stem) ||
			    story_in(story_because, NELEM(story_because),
			    w[i].stem) || story_in(story_because_revert,
			    NELEM(story_because_revert), w[i].stem))
				continue;
			content++;
			for (k = 0; k < f->nstories && !said; k++)
				said = matched[k] && fence_set_has(
				    &f->stories[k].said, w[i].stem,
				    strlen(w[i].stem));
			if (said)
				known++;
		}
		if (revert && content >= 2 && known * 2 < content) {
			free(lower);
			free(matched);
			return fence_fail(detail, "reason", "a reason the "
			    "facts do not give", sentence, 40);
		}
	}
	/* "the revert was itself rolled back": only if it was */
	if (any && (p = story_revert_reverted(w, nw)) != NULL) {
		int was = 0;

		for (k = 0; k < f->nstories; k++)
			if (matched[k] && f->stories[k].is_revert &&
			    f->stories[k].reverted)
				was = 1;
		if (!was) {
			free(lower);
			free(matched);
			return fence_fail(detail, "revert", "a revert said to "
			    "be rolled back that was not", p, 40);
		}
	}

	/* versions and figures are the told stories' own; counts the day's */
	for (p = sentence; fence_next(&p, &t, &initial); ) {
		if (t.len == 0 || !any)
			continue;
		if ((vn = fence_version(t.p, t.len, vs, sizeof(vs), 1)) > 0) {
			int own = 0;

			if ((q = story_version_of(f, sentence, t.p, vs)) !=
			    NULL) {
				free(lower);
				free(matched);
				return fence_fail(detail, "figure", "a version "
				    "given to another thing than the facts "
				    "give it", q, (size_t)(t.p + t.len - q));
			}

			for (k = 0; k < f->nstories && !own; k++)
				for (j = 0; matched[k] &&
				    j < f->stories[k].nversions; j++)
					if (strcmp(f->stories[k].versions[j],
					    vs) == 0)
						own = 1;
			if (!own) {
				free(lower);
				free(matched);
				return fence_fail(detail, "version", "a version "
				    "not of the story told", t.p, t.len);
			}
			continue;
		}
		skip = t.p[0] == '#' ? 1 : 0;
		if (!fence_digits(t.p + skip, t.len - skip, &x))
			continue;
		if (!story_number_ok(f, matched, x) && !story_version_ok(f,
		    matched, t.p, t.len)) {
			free(lower);
			free(matched);
			return fence_fail(detail, "figure", "a figure not of "
			    "the story told", t.p, t.len);
		}
		for (k = 0; k < f->nstories; k++) {
			if (!matched[k])
				continue;
			for (j = 0; j < f->stories[k].nfigures; j++) {
				const struct fence_figure *fg =
				    &f->stories[k].figures[j];
				size_t m;
				int said = 0;

				if (strncmp(fg->value, t.p, t.len) != 0 ||
				    fg->value[t.len] != '\0' ||
				    fg->measures.n == 0)
					continue;
				for (m = 0; m < nw && !said; m++)
					said = fence_set_has(&fg->measures,
					    w[m].stem, strlen(w[m].stem));
				if (!said) {
					free(lower);
					free(matched);
					return fence_fail(detail, "figure", "a "
					    "figure without what it measures",
					    t.p, t.len);
				}
			}
		}
	}
	for (i = 0; i < nw; i++) {
		if (!story_word_number(&w[i], &x) ||
		    (noun = story_noun_after(w, nw, i)) == NOUN_NONE)
			continue;
		if (!story_count_ok(f, noun, x)) {
			free(lower);
			free(matched);
			return fence_fail(detail, "count", "a count not the "
			    "day's", w[i].p, 30);
		}
	}
	if (any) {
		sc.f = f;
		sc.matched = matched;
		sc.found = 0;
		sc.bad = 0;
		fence_spoken(sentence, story_spoken_one, &sc);
		if (sc.found) {
			free(lower);
			free(matched);
			if (detail != NULL)
				xasprintf(detail, "a figure not of the story "
				    "told: %.15g", sc.bad);
			return "figure";
		}
	}

	/* "number 13150" is a pull request's or an issue's of the facts */
	if (story_refs(f, sentence, NULL)) {
		free(lower);
		free(matched);
		return fence_fail(detail, "number", "a reference (number, "
		    "#, pull request) not in the facts", sentence, 40);
	}

	/* warnings and advice only where a told story gives them */
	if ((claim = story_claim(f, lower, matched, any)) != NULL) {
		p = story_word_start(lower, claim);
		p = sentence + (p - lower);
		free(lower);
		free(matched);
		return fence_fail(detail, "claim", "a claim no story makes", p,
		    40);
	}

	/* what is opt-in is never said to be on by default */
	if ((p = story_has_any(sentence, story_on_default,
	    NELEM(story_on_default))) != NULL && story_has_any(f->draft,
	    story_on_default, NELEM(story_on_default)) == NULL &&
	    (strstr(f->draft, "opt-in") != NULL || strstr(f->draft, "opt in")
	    != NULL || strstr(f->draft, "off by default") != NULL)) {
		free(lower);
		free(matched);
		return fence_fail(detail, "claim", "an opt-in said to be on by "
		    "default", p, 30);
	}
	/*
	 * What the draft warns of (a breaking change, a minimum raised,
	 * something removed) is never waved away in a sentence that says
	 * nothing needs doing.
	 */
	if ((p = story_has_any(sentence, story_all_clear,
	    NELEM(story_all_clear))) != NULL && story_has_any(f->draft,
	    story_warned, NELEM(story_warned)) != NULL && story_has_any(
	    f->draft, story_all_clear, NELEM(story_all_clear)) == NULL) {
		free(lower);
		free(matched);
		return fence_fail(detail, "focus", "a warning of the day waved "
		    "away", p, 30);
	}
	/* a change the draft calls breaking is never said not to break */
	if (strstr(f->draft, "breaking") != NULL && (p = strstr(lower,
	    "break")) != NULL && story_has_any(sentence, story_negations,
	    NELEM(story_negations)) != NULL) {
		p = sentence + (p - lower);
		free(lower);
		free(matched);
		return fence_fail(detail, "focus", "a breaking change said not "
		    "to break", p, 30);
	}

	/* the focus setting, never turned around where it is quoted */
	if (f->focus != NULL && strstr(sentence, f->focus) != NULL &&
	    (p = story_has_any(sentence, story_negations,
	    NELEM(story_negations))) != NULL) {
		const char *para = strstr(f->draft, f->focus);

		while (para > f->draft && !(para[-1] == '\n' &&
		    para - 1 > f->draft && para[-2] == '\n'))
			para--;
		if (story_has_any(para, story_negations,
		    NELEM(story_negations)) == NULL) {
			free(lower);
			free(matched);
			return fence_fail(detail, "focus", "the focus setting "
			    "turned around", p, 30);
		}
	}
	free(lower);
	free(matched);
	return NULL;
}

/* Abbreviations whose period ends no sentence. */
static const char *const story_abbrev[] = {
	"e.g", "i.e", "etc", "vs", "mr", "mrs", "ms", "dr", "st", "no",
	"approx", "cf", "jr", "sr",
};

size_t
fence_sentences(const char *text, size_t **starts, size_t **lens)
{
	const char	*p = text, *s, *w;
	size_t		 n = 0;
	char		 word[8];
	size_t		 wl;

	*starts = xcalloc(1, sizeof(**starts));
	*lens = xcalloc(1, sizeof(**lens));
	for (;;) {
		while (*p != '\0' && isspace((unsigned char)*p))
			p++;
		if (*p == '\0')
			break;
		s = p;
		for (;;) {
			if (*p == '\0')
				break;
			if (p[0] == '\n' && p[1] == '\n')
				break;
			if (strchr(".!?", *p) != NULL) {
				const char *e = p + 1;

				while (*e != '\0' && strchr(".!?\"')", *e) !=
				    NULL)
					e++;
				while ((unsigned char)e[0] == 0xe2 && e[1] ==
				    '\x80' && ((unsigned char)e[2] == 0x9d ||
				    (unsigned char)e[2] == 0x99))
					e += 3;
				if (*e != '\0' && !isspace((unsigned char)*e)) {
					p++;
					continue;
				}
				/* the word the period closes */
				for (w = p; w > s && !isspace((unsigned char)
				    w[-1]); w--)
					;
				wl = (size_t)(p - w);
				if (*p == '.' && wl > 0 && wl < sizeof(word)) {
					size_t i;

					for (i = 0; i < wl; i++)
						word[i] = (char)tolower(
						    (unsigned char)w[i]);
					word[wl] = '\0';
					if (fence_in(story_abbrev,
					    NELEM(story_abbrev), word) ||
					    (wl == 1 && isupper(
					    (unsigned char)w[0]))) {
						p++;
						continue;
					}
				}
				p = e;
				break;
			}
			p++;
		}
		*starts = xreallocarray(*starts, n + 1, sizeof(**starts));
		*lens = xreallocarray(*lens, n + 1, sizeof(**lens));
		(*starts)[n] = (size_t)(s - text);
		(*lens)[n] = (size_t)(p - s);
		while ((*lens)[n] > 0 && isspace((unsigned char)
		    s[(*lens)[n] - 1]))
			(*lens)[n]--;
		n++;
	}
	return n;
}

/* What the reply must still tell: NULL when kept does, else the reason. */
static const char *
story_required(const struct fence *f, const char *kept, char **detail)
{
	const char	*r;
	size_t		 i;

	if (text_word_count(kept) * 2 < f->draft_words)
		return fence_fail(detail, "too_short", "under half the draft's "
		    "words", NULL, 0);
	if (f->focus != NULL && strstr(kept, f->focus) == NULL)
		return fence_fail(detail, "focus", "the focus setting not "
		    "quoted as written", f->focus, strlen(f->focus));
	if ((r = fence_reverts(f, kept, detail)) != NULL)
		return r;
	for (i = 0; i < f->nstories; i++) {
		size_t	n, k, *starts, *lens;
		int	told = 0;

		if (!f->stories[i].lead)
			continue;
		n = fence_sentences(kept, &starts, &lens);
		for (k = 0; k < n && !told; k++) {
			char *s = xstrndup(kept + starts[k], lens[k]);

			told = fence_story_told(f, s, &f->stories[i]);
			free(s);
		}
		free(starts);
		free(lens);
		if (!told)
			return fence_fail(detail, "lead", "the lead story not "
			    "told", NULL, 0);
	}
	return NULL;
}

void
fence_judge(const struct fence *f, const char *reply, struct fence_verdict *v)
{
	struct buf	 kept;
	const char	*r, *gap;
	char		*s, *d = NULL, *d2 = NULL;
	size_t		 n, i, *starts, *lens, prev_end = 0;
	int		 first = 1, *drop, *prev;

	memset(v, 0, sizeof(*v));
	if ((v->refused = fence_whole(f, reply, &v->detail)) != NULL)
		return;
	n = fence_sentences(reply, &starts, &lens);
	drop = xcalloc(n + 1, sizeof(*drop));
	prev = xcalloc(f->nstories + 1, sizeof(*prev));
	buf_init(&kept);
	for (i = 0; i < n; i++) {
		s = xstrndup(reply + starts[i], lens[i]);
		d = NULL;
		if ((r = fence_sentence_words(f, s, &d)) == NULL)
			r = fence_sentence_stories(f, s, prev, &d);
		if (r != NULL) {
			v->dropped = xreallocarray(v->dropped, v->ndropped + 1,
			    sizeof(*v->dropped));
			v->dropped[v->ndropped].sentence = s;
			v->dropped[v->ndropped].reason = r;
			v->dropped[v->ndropped++].detail = d;
			drop[i] = 1;
			continue;
		}
		free(s);
		if (!first) {
			gap = reply + prev_end;
			buf_puts(&kept, memmem(gap, starts[i] - prev_end,
			    "\n\n", 2) != NULL ? "\n\n" : " ");
		}
		buf_append(&kept, reply + starts[i], lens[i]);
		prev_end = starts[i] + lens[i];
		first = 0;
	}
	d = NULL;
	/*
	 * A requirement the reply meets only with a dropped sentence: the
	 * drop is why it is refused; one it never met is its own reason.
	 */
	if ((r = story_required(f, buf_str(&kept), &d)) != NULL) {
		if (v->ndropped > 0 && story_required(f, reply, &d2) == NULL) {
			v->refused = v->dropped[0].reason;
			xasprintf(&v->detail, "%s; without the sentence, %s",
			    v->dropped[0].detail != NULL ?
			    v->dropped[0].detail : v->dropped[0].reason,
			    d != NULL ? d : r);
		} else {
			v->refused = r;
			v->detail = d;
			d = NULL;
		}
	} else
		v->text = xstrdup(buf_str(&kept));
	free(d);
	free(d2);
	free(drop);
	free(prev);
	free(starts);
	free(lens);
	buf_free(&kept);
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
