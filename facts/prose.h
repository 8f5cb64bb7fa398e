/*
 * Sentences of a commit's prose as a host says them. No libevent, no
 * jansson.
 */
#ifndef HOOKCAST_PROSE_H
#define HOOKCAST_PROSE_H

#include "buf.h"

#define PROSE_MAXSENTENCE	400	/* longer sentences are not read out */

/*
 * Up to max sentences of a body's prose (new string, maybe ""): trailers,
 * code blocks, test plans and lines repeating the subject dropped, then
 * cleaned with text_clean().
 */
char		*prose_of(const char *body, const char *subject, int max);
/* Append up to max sentences of s to b (a space between); how many. */
int		 prose_sentences(struct buf *, const char *, int max);
/*
 * prose_sentences, leaving out a short sentence that only says again
 * what subject (may be NULL) said.
 */
int		 prose_sentences_about(struct buf *, const char *, int max,
		    const char *subject);
/*
 * prose_sentences_about for a paragraph after others: *lost says whether
 * the last sentence before s went untold (so one of s leaning on it goes
 * too); on return, whether the last sentence of s did. One sentence past
 * max may be told, when it gives the benefit of the one before ("This
 * makes small GEMMs 1.4x faster."): a story is not cut before it.
 */
int		 prose_sentences_after(struct buf *, const char *, int max,
		    const char *subject, int *lost);

#endif
