/*
 * Phrasing: the small turns of speech both drafters use to build spoken
 * sentences in a buf. No libevent, no jansson.
 */
#ifndef HOOKCAST_PHRASE_H
#define HOOKCAST_PHRASE_H

#include <stddef.h>

#include "buf.h"

/* Start a new sentence in b (a space after the last one). */
void		 phrase_space(struct buf *);
/* Start a new paragraph in b (a blank line after the last one). */
void		 phrase_para(struct buf *);
/* Append s with its first letter made uppercase. */
void		 phrase_cap(struct buf *, const char *s);
/* End the sentence in b: a period unless it ends in '.', '!' or '?'. */
void		 phrase_sentence_end(struct buf *);
/* Whether needle is in haystack, ignoring case (0 if either is NULL). */
int		 phrase_contains(const char *haystack, const char *needle);
/* The length of the first word of s (up to a space, ',', ':' or ';'). */
size_t		 phrase_first_word(const char *);
/* Whether the n-byte word at w is the past tense of a known verb. */
int		 phrase_is_past(const char *w, size_t n);
/*
 * Whether the n-byte word at w is a verb that is a noun as often
 * ("update", "build", "cache"): read as a verb only before an object.
 */
int		 phrase_nounish(const char *w, size_t n);
/* Whether the word w (length n) is in the NULL-ended list, ignoring case. */
int		 phrase_word_in(const char *w, size_t n,
		    const char *const *list);
/* Whether w (length n) is a plain lowercase word: letters and hyphens. */
int		 phrase_plain(const char *w, size_t n);
/* "a" or "an" before the word at w, by sound ("an SQL", "a URL"). */
const char	*phrase_a(const char *w);
/* Put each "a"/"an" in b from offset from by the sound of its word. */
void		 phrase_articles(struct buf *, size_t from);
/*
 * The past tense of the n-byte verb at w by the regular rule, spelt as the
 * word list knows it ("map" -> "mapped"; new), or NULL when the list knows
 * no such word ("init" -> "inited" is none).
 */
char		*phrase_past_regular(const char *w, size_t n);
/* The past tense of a known verb ("add" -> "added"; new), or NULL. */
char		*phrase_verb_past(const char *word, size_t len);
/*
 * Whether what says what the code does now ("return undefined for X",
 * "ignore CRYPTO frames after handshake completion", "use X even if Y"):
 * PHRASE_BEHAVIOUR_MADE when it is told "NAME made it return ...",
 * PHRASE_BEHAVIOUR_QUOTE when only the author's words can say it ("fix
 * stderr to output string"); 0 for an author's act. Never told as the
 * author's act: code is not a person.
 */
#define PHRASE_BEHAVIOUR_MADE	1
#define PHRASE_BEHAVIOUR_QUOTE	2
int		 phrase_behaviour(const char *what);
/*
 * Whether what can be said as "NAME <past of what>": it starts with a
 * known verb that has an object ("fix the retry" yes, "detect change" no).
 */
int		 phrase_verbal(const char *what);
/*
 * Append what in the past tense ("add basic way" -> "added a basic way"),
 * later clauses too; 0 when what does not start with a known verb
 * (nothing appended then).
 */
int		 phrase_past(struct buf *, const char *what);
/*
 * What said aloud as the author meant it (new): "w/o" as "without",
 * "doc+test" as "doc and test", no "the" before a file's name that ends
 * its phrase ("in the AUTHORS.rst").
 */
char		*phrase_unabbreviate(const char *what);
/* Append what, its first letter lowercased unless it looks like a name. */
void		 phrase_lower_first(struct buf *, const char *what);
/* A repository said aloud (new): "pytorch/ao" -> "pytorch ao", "curl/curl"
 * -> "curl". */
char		*phrase_repo(const char *repo);

#endif
