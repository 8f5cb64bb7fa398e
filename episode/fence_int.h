/*
 * The fence's insides, shared by fence.c (the facts, and the checks of
 * words: names, numbers, identifiers, markup) and fence_story.c (the
 * checks of meaning, sentence by sentence and story by story, and the
 * repair that drops a failing sentence). Not for other callers.
 */
#ifndef HOOKCAST_FENCE_INT_H
#define HOOKCAST_FENCE_INT_H

#include <stddef.h>

#include "fence.h"

/* A sorted set of strings. */
struct fence_set {
	char	**v;
	size_t	  n;
	int	  sorted;
};

struct fence_rev {
	char	*what;
	char	*distinct;	/* what's words no other revert's has, or NULL */
	char	*reason;
	int	 automatic;
	int	 required;	/* the draft tells it: so must a reply */
};

/* A person of the day, as a reply may name them. */
struct fence_person {
	struct fence_set words;	/* lower-case words of their names, logins */
	char		*name;	/* as the sheet says it, or NULL */
	char		*login;	/* or NULL */
};

/* A figure of a story and the words of what it measures. */
struct fence_figure {
	char		*value;		/* as written: "1.7x" */
	double		 number;	/* its number */
	struct fence_set measures;	/* stems of what it measures */
};

/* A story of the sheet, as the checks read it. */
struct fence_story {
	char		*id;
	char		*repository;	/* a show's: where it happened, or NULL */
	const char	*kind;		/* classify_kind_name (static) */
	struct fence_set words;		/* stems of its own words */
	struct fence_set tokens;	/* identifiers, settings, versions */
	char		*text;		/* its texts, lower case: for claims */
	struct fence_set said;		/* stems of what the facts and the
					   draft say of it */
	size_t		*owners;	/* indexes into fence.people */
	int		*roles;		/* enum sheet_role of each */
	size_t		 nowners;
	struct fence_figure *figures;
	size_t		 nfigures;
	double		*numbers;	/* its own and the draft's of it */
	size_t		 nnumbers;
	char	       **versions;	/* without "v" */
	size_t		 nversions;
	int		 is_revert;
	int		 reverted;
	int		 lead;
	int		 bot;
};

struct fence {
	char		*draft;
	char		*sheet;		/* the facts as text the checks read */
	char		*json;		/* the sheet as the model is given it */
	char		*squeezed;	/* draft and sheet, letters and digits */
	char		*focus;
	char	       **bots;
	size_t		 nbots;
	struct fence_rev *reverts;
	size_t		 nreverts;
	struct fence_set words;		/* lower-case words of sheet and draft */
	struct fence_set tokens;	/* their tokens, as written */
	struct fence_set versions;	/* their versions (fence_version) */
	double		*numbers;	/* the numbers they say, sorted */
	size_t		 nnumbers;
	size_t		 draft_words;
	/* the sheet's structure, when the fence is made of one */
	struct fence_story *stories;
	size_t		 nstories;
	struct fence_person *people;
	size_t		 npeople;
	struct fence_count {
		int	 noun;		/* fence_story.c's enum story_noun */
		double	 n;
	}		*drafted;	/* the draft's counts ("five more
					   changes"), read once */
	size_t		 ndrafted;
	double		*general;	/* numbers any sentence may say */
	size_t		 ngeneral;
	double		*refs;		/* pull request and issue numbers */
	size_t		 nrefs;
	struct day_stats counts;
	int		 has_counts;
};

/* A reply's token: a run of non-blanks without the punctuation around it. */
struct fence_tok {
	const char	*p;
	size_t		 len;
	int		 initial;	/* the first of a sentence */
};

#define NELEM(v)	(sizeof(v) / sizeof((v)[0]))
/* A token longer than this is no word (and is checked as one piece). */
#define FENCE_MAX_TOKEN		512

int		 fence_in(const char *const *, size_t, const char *);
void		 fence_set_add(struct fence_set *, const char *, size_t);
void		 fence_set_sort(struct fence_set *);
int		 fence_set_has(const struct fence_set *, const char *, size_t);
void		 fence_set_free(struct fence_set *);
int		 fence_wordc(const char *);
size_t		 fence_clen(const char *);
int		 fence_next(const char **, struct fence_tok *, int *);
size_t		 fence_next_word(const char **, const char *, char *);
void		 fence_add_words(struct fence_set *, const char *, size_t);
int		 fence_numword(const char *, size_t, int *);
void		 fence_spoken(const char *, void (*)(void *, double), void *);
int		 fence_digits(const char *, size_t, double *);
int		 fence_has_number(const struct fence *, double);
void		 fence_add_number(void *, double);
void		 fence_sort_numbers(struct fence *);
const char	*fence_find_word(const char *, const char *);
const char	*fence_fail(char **, const char *, const char *, const char *,
		    size_t);
const char	*fence_markdown(const struct fence *, const char *, char **);
const char	*fence_tags(const char *, char **);
const char	*fence_links(const char *, char **);
const char	*fence_scripts(const char *, char **);
const char	*fence_tokens(const struct fence *, const char *, char **);
const char	*fence_reverts(const struct fence *, const char *, char **);
int		 fence_tells_revert(const struct fence_set *, const char *,
		    const struct fence_rev *, const char **);
size_t		 fence_version(const char *, size_t, char *, size_t, int);
int		 fence_in_text(const char *, const char *, size_t);
char		*fence_squeeze(const char *, size_t);
int		 fence_prefix(const struct fence_set *, const char *, size_t);
int		 fence_capital(const char *);
int		 fence_hash(const char *, size_t);
int		 fence_in_facts(const struct fence *, const char *, size_t);
int		 fence_word_known(const struct fence *, const char *, size_t);
size_t		 fence_base(const char *, size_t, int *);
int		 fence_identifier(const char *, size_t);
void		 fence_spoken_one(void *, double);
/* The checks of one sentence that need no story (fence.c). */
const char	*fence_sentence_words(const struct fence *, const char *,
		    char **);

const char	*fence_whole(const struct fence *, const char *, char **);

/* Words of a sentence read, at most. */
#define STORY_MAX_WORDS	256

/* A word of a sentence: where it is, its lower-case stem. */
struct story_word {
	const char	*p;
	size_t		 len;
	char		 stem[48];
	int		 capital;
};

/* Numbers a text says, gathered. */
struct story_nums {
	double	*v;
	size_t	 n;
};

/* fence_learn.c: the stories, and which a sentence tells */
void		 fence_stories_learn(struct fence *, const struct sheet *);
void		 fence_stories_free(struct fence *);
int		 fence_story_told(const struct fence *, const char *,
		    const struct fence_story *);
/*
 * The stories a sentence tells into told, which holds those of the
 * sentence before: a sentence that tells none and leans on the one
 * before ("It broke the build.") tells its. Whether it tells any.
 */
int		 story_matches(const struct fence *, const char *, int *);
size_t		 story_stem(char *, size_t);
int		 story_in(const char *const *, size_t, const char *);
int		 story_is(const char *, const char *);
int		 story_generic_word(const char *);
size_t		 story_words(const char *, struct story_word *, size_t);
const char	*story_has_any(const char *, const char *const *, size_t);
void		 story_num_add(void *, double);
int		 story_num_in(const double *, size_t, double);
int		 story_refs(const struct fence *, const char *,
		    struct story_nums *);
/* How many told stories a person wrote (of a kind, unless NULL). */
size_t		 story_authored(const struct fence *, size_t, const char *);

/* fence_story.c: the checks of a sentence against its stories */
void		 fence_counts_learn(struct fence *);
const char	*fence_sentence_stories(const struct fence *, const char *,
		    int *, char **);

/* fence_judge.c: a reply's sentences, and the judgement of them */
/* Split text into sentences: the start and length of each (new arrays). */
size_t		 fence_sentences(const char *, size_t **, size_t **);

#endif
