/*
 * English words: whether a word the drafter makes up (a verb put in the
 * past tense) is one a listener knows. The list is made at build time
 * from Debian's wamerican (scripts/words-table), so the daemon reads no
 * dictionary file at run time.
 */
#ifndef HOOKCAST_WORDS_H
#define HOOKCAST_WORDS_H

#include <stddef.h>

/*
 * Whether the n-byte word at w is English: in the word list, ignoring
 * case, or a word of the trade the list lacks ("refactored", "inlined");
 * a hyphenated word when each part is ("re-enabled", "off-by-one").
 */
int		 words_known(const char *w, size_t n);

/*
 * The table scripts/words-table writes: words_ntable lowercase words
 * sorted by byte, the i-th NUL-ended at words_text + words_at[i].
 */
extern const char		words_text[];
extern const unsigned int	words_at[];
extern const size_t		words_ntable;

#endif
