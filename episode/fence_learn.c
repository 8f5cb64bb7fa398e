/*
 * The fence's stories: what it learns of each story of the sheet (the
 * words that tell it from the others, its people, figures, versions and
 * numbers, what the facts and the draft say of it), and which stories a
 * sentence tells.
 *
 * A sentence is matched to the stories it tells by their own words (not
 * their people's names): a word few stories hold says more than one many
 * of them do, and an English word less than a name or an identifier.
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

/* Words a sentence opens with that lean on the one before. */
static const char *const story_leaning[] = {
	"it", "its", "this", "that", "these", "those", "they", "their",
	"the", "he", "she", "his", "her", "and", "but", "so", "which",
	"there",
};

/*
 * The stem of a lower-case word, in place: "changes", "changed" and
 * "changing" are all "chang", "fixes" is "fix"; its length.
 */
size_t
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

/* Whether a stem is that of a word. */
int
story_is(const char *stem, const char *word)
{
	const char *const v[1] = { word };

	return story_in(v, 1, stem);
}

/* Whether a stem is that of one of the words of v. */
int
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
size_t
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
const char *
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

void
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
		if (out != NULL && t.p[0] == '#' && t.len > 1 &&
		    fence_digits(t.p + 1, t.len - 1, &x))
			story_num_add(out, x);
		else if (out != NULL && fence_digits(t.p, t.len, &x))
			story_num_add(out, x);
		if (versions != NULL && (vn = fence_version(t.p, t.len, vs,
		    sizeof(vs), 0)) > 0) {
			*versions = xreallocarray(*versions, *nversions + 1,
			    sizeof(**versions));
			(*versions)[(*nversions)++] = xstrndup(vs, vn);
		}
	}
	if (out != NULL)
		fence_spoken(text, story_num_add, out);
}

/* Which person of the fence has this name or login (adding it). */
static size_t
story_person(struct fence *f, const struct sheet_person *sp)
{
	struct fence_person	*fp;
	char			*l;
	size_t			 i;

	/*
	 * One person by name or by login: someone who commits from two
	 * addresses, one with a login and one without, is one person.
	 */
	for (i = 0; i < f->npeople; i++) {
		fp = &f->people[i];
		if ((sp->name != NULL && fp->name != NULL &&
		    strcasecmp(sp->name, fp->name) == 0) ||
		    (sp->login != NULL && fp->login != NULL &&
		    strcasecmp(sp->login, fp->login) == 0))
			break;
	}
	if (i == f->npeople) {
		f->people = xreallocarray(f->people, f->npeople + 1,
		    sizeof(*f->people));
		fp = &f->people[f->npeople++];
		memset(fp, 0, sizeof(*fp));
	}
	fp = &f->people[i];
	if (fp->name == NULL && sp->name != NULL)
		fp->name = xstrdup(sp->name);
	if (fp->login == NULL && sp->login != NULL)
		fp->login = xstrdup(sp->login);
	if (sp->name != NULL)
		fence_add_words(&fp->words, sp->name, strlen(sp->name));
	if (sp->login != NULL) {
		l = text_lower(sp->login);
		fence_set_add(&fp->words, l, strlen(l));
		free(l);
	}
	fence_set_sort(&fp->words);
	return i;
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
int
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

size_t
story_authored(const struct fence *f, size_t person, const char *kind)
{
	size_t	k, j, n = 0;

	for (k = 0; k < f->nstories; k++) {
		if (kind != NULL && (f->stories[k].kind == NULL ||
		    strcmp(f->stories[k].kind, kind) != 0))
			continue;
		for (j = 0; j < f->stories[k].nowners; j++)
			if (f->stories[k].owners[j] == person &&
			    f->stories[k].roles[j] == SHEET_AUTHOR) {
				n++;
				break;
			}
	}
	return n;
}

/*
 * Counts the sheet implies are facts too: how many told stories are each
 * person's ("two of the day's changes came from Ada"), how many of each
 * kind ("three new features").
 */
static void
story_derived(struct fence *f, const struct sheet *sh)
{
	size_t	i, k, n;

	for (i = 0; i < f->npeople; i++) {
		n = story_authored(f, i, NULL);
		fence_add_number(f, (double)n);
		/* said of someone's work in any sentence: "two of them" */
		f->general = xreallocarray(f->general, f->ngeneral + 2,
		    sizeof(*f->general));
		f->general[f->ngeneral++] = (double)n;
		/* and of one kind of it: "four fixes from Benny" */
		for (k = 0; k < sh->nstories; k++) {
			n = story_authored(f, i, sh->stories[k].kind);
			if (n > 0 && !story_num_in(f->general, f->ngeneral,
			    (double)n)) {
				fence_add_number(f, (double)n);
				f->general = xreallocarray(f->general,
				    f->ngeneral + 1, sizeof(*f->general));
				f->general[f->ngeneral++] = (double)n;
			}
		}
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
		s->repository = ss->repository != NULL ?
		    text_lower(ss->repository) : NULL;
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
			for (j = 0; j < nums.n; j++)
				s->numbers[s->nnumbers++] = nums.v[j];
			story_learn_said(s, sent);
			story_numbers(sent, NULL, &s->versions,
			    &s->nversions);
		}
		if (!any) {
			f->general = xreallocarray(f->general, f->ngeneral +
			    nums.n + 1, sizeof(*f->general));
			for (j = 0; j < nums.n; j++)
				f->general[f->ngeneral++] = nums.v[j];
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
		free(s->repository);
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
	for (i = 0; i < f->npeople; i++) {
		fence_set_free(&f->people[i].words);
		free(f->people[i].name);
		free(f->people[i].login);
	}
	free(f->people);
	free(f->general);
	free(f->refs);
	free(f->drafted);
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
	char			 vs[64], *sq;
	size_t			 vn;
	int			 initial = 1, said = 0;

	for (i = 0; i < s->tokens.n; i++)
		if (strstr(sentence, s->tokens.v[i]) != NULL)
			return 1;
	/* an identifier said in words: "hot send" of "hot.send" */
	sq = fence_squeeze(sentence, strlen(sentence));
	for (i = 0; i < s->tokens.n && !said; i++) {
		char *tq = fence_squeeze(s->tokens.v[i],
		    strlen(s->tokens.v[i]));

		said = strlen(tq) >= 6 && strstr(sq, tq) != NULL;
		free(tq);
	}
	free(sq);
	if (said)
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
 * The stories a sentence tells, in told (which holds the sentence
 * before's, and is overwritten): those it tells by their words, or when
 * it tells none and goes on about the one before ("It broke the build."),
 * that one's. Whether it tells any.
 */
/*
 * Whether a sentence names, by a word of it, a story other than those
 * told, and none of theirs ("The parser speedup ..." after a sentence
 * about the cache); the stories so named in named.
 */
static int
story_names_other(const struct fence *f, const char *sentence,
    const int *told, int *named)
{
	struct story_word	 w[STORY_MAX_WORDS];
	size_t			 n, i, k;
	int			 found = 0;

	memset(named, 0, f->nstories * sizeof(*named));
	n = story_words(sentence, w, STORY_MAX_WORDS);
	for (i = 0; i < n; i++) {
		if (strlen(w[i].stem) < 4 || story_generic_word(w[i].stem))
			continue;
		/* a word of a told story: it goes on about that one */
		for (k = 0; k < f->nstories; k++)
			if (told[k] && fence_set_has(&f->stories[k].words,
			    w[i].stem, strlen(w[i].stem)))
				return 0;
		for (k = 0; k < f->nstories; k++)
			if (fence_set_has(&f->stories[k].words, w[i].stem,
			    strlen(w[i].stem)))
				named[k] = found = 1;
	}
	return found;
}

int
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
		/*
		 * It goes on about the sentence before, unless it names
		 * another story by a word of it: then it tells that one.
		 */
		if (story_names_other(f, sentence, told, now))
			memcpy(told, now, f->nstories * sizeof(*told));
		for (i = 0; i < f->nstories; i++)
			if (told[i])
				any = 1;
	} else
		memcpy(told, now, f->nstories * sizeof(*told));
	free(now);
	return any;
}

/* Whether x is among v's n numbers. */
int
story_num_in(const double *v, size_t n, double x)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (fabs(v[i] - x) < 1e-9)
			return 1;
	return 0;
}

/* Whether a stem is one of the words any change's story may hold. */
int
story_generic_word(const char *stem)
{
	return story_in(story_generic, NELEM(story_generic), stem);
}
