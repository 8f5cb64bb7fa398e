/*
 * "Did you mean ...?": the known word closest to one that is not known,
 * for the errors of an unknown config key, flag or command.
 */
#ifndef HOOKCAST_SUGGEST_H
#define HOOKCAST_SUGGEST_H

#include <stddef.h>

/* Longest word compared; a longer one gets no suggestion. */
#define SUGGEST_MAX	64

/* The search for the closest candidate to word. */
struct suggest {
	const char	*word;		/* borrowed */
	const char	*best;		/* borrowed, or NULL */
	size_t		 dist;
};

/*
 * Edit distance between a and b: insertions, deletions, substitutions
 * and swaps of two neighbours each count 1. SIZE_MAX when either is
 * longer than SUGGEST_MAX.
 */
size_t		 suggest_distance(const char *a, const char *b);
/* Start a search for the candidate closest to word (borrowed). */
void		 suggest_init(struct suggest *, const char *word);
/* Weigh one candidate (borrowed: it must outlive the search). */
void		 suggest_add(struct suggest *, const char *candidate);
/*
 * The closest candidate when it is close enough to be a likely typo of
 * the word (about one edit in three letters, at most 3), else NULL.
 * Borrowed.
 */
const char	*suggest_best(const struct suggest *);

#endif
