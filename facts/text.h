/*
 * A commit message as text: word tests, cleaning for speech, and the
 * prose paragraphs of a body. No libevent, no jansson.
 */
#ifndef HOOKCAST_TEXT_H
#define HOOKCAST_TEXT_H

#include <ctype.h>
#include <stddef.h>

#include "buf.h"

/* The prose paragraphs of a body, cleaned (text_paragraphs). */
struct text_paras {
	char	**text;		/* owned */
	int	 *bullet;	/* the paragraph was a list item */
	size_t	  n;
};

/* Whether ch is a word character (a letter, a digit or '_'). */
static inline int
text_isword(int ch)
{
	return isalnum((unsigned char)ch) || ch == '_';
}

/* A lowercase copy of s (new; "" for NULL). */
char		*text_lower(const char *);
/* Whether lowercase s holds w at the start of a word. */
int		 text_has_word(const char *s, const char *w);
/* Whether lowercase s holds any of the NULL-ended words at a word start. */
int		 text_has_any(const char *s, const char **words);
/*
 * Word lists looked for in one pass over a text (text_words): list i of
 * lists answers bit i, and after the lists each word of each a bit of its
 * own (for counting words). Lists are NULL-ended and lowercase, 64 bits
 * in all. Declare one static per group of lists; text_words indexes it by
 * first letter on its first use.
 */
#define TEXT_MAXLISTS	64
#define TEXT_BUCKETS	1024	/* of a word's first two bytes */
struct text_wordset {
	const char *const	*lists[TEXT_MAXLISTS];	/* NULL after the last */
	const char *const	*each;			/* or NULL */
	/* each word's last part ("free" of "use-after-free") instead */
	int			 last;
	/* the index, built on first use */
	struct text_wordent	*ents;
	unsigned short		 first[TEXT_BUCKETS + 1]; /* ents of a bucket
						   of the first two bytes */
	struct text_wordent	*ones;		/* words of one byte */
	size_t			 nones;
	unsigned char		 starts[256];	/* a word starts with the byte */
	_Atomic int		 built;	/* set once the index is whole */
};
#define TEXT_STARTS	0	/* a word counts at the start of a word */
#define TEXT_ANYWHERE	1	/* and anywhere in one */
/*
 * The lists of ws with a word in s, as bits, ignoring ASCII case: each
 * bit as text_has_any(lowercase s, list) would say, or with TEXT_ANYWHERE
 * as strstr would.
 */
unsigned long long text_words(const char *s, struct text_wordset *ws,
		    int where);
/* Whether s starts with any of prefixes, ignoring case; *len its length. */
int		 text_starts_any(const char *s, const char **prefixes,
		    size_t *len);
/* Whether s starts a trailer or reference line; *len its length. */
int		 text_trailer(const char *s, size_t *len);
/* Whether s starts a line after which nothing is prose ("Test Plan"). */
int		 text_stop(const char *s);
/*
 * The length of the link (a URL, with a scheme or without: "bit.ly/x",
 * "host:8080", "//host/x", "mailto:x"; an e-mail address) that starts at
 * p, prev the byte before p (0 at the start), or 0: the one rule of what
 * spoken text may not say, for every cleaner of it (text.c has the rule
 * in full).
 */
size_t		 text_link_len(const char *p, int prev);
/*
 * Spoken-safe text (new string): markdown, backticks, URLs, e-mail
 * addresses, hex shas and "@" removed, whitespace folded; an ellipsis, a
 * tag ("[ci skip]"), an empty quotation and a "see" left by a removed
 * reference dropped.
 */
char		*text_clean(const char *);
/* As text_clean, stealing s: s itself when nothing in it is cleaned. */
char		*text_clean_steal(char *);
/* Letters and digits of s, lowercased (new): for comparing texts. */
char		*text_norm(const char *);
/*
 * The prose paragraphs of a body into ps (cleared first), each cleaned:
 * code blocks, quotes, trailers, labels and lines repeating the subject
 * dropped, up to a test plan or the like. Free with text_paras_free().
 */
void		 text_paragraphs(const char *body, const char *subject,
		    struct text_paras *ps);
/*
 * text_paragraphs, given what classify_what() read of the subject: a
 * caller that has it spares text_paragraphs reading it again.
 */
void		 text_paragraphs_what(const char *body, const char *what,
		    struct text_paras *ps);
/* text_paragraphs_what's first paragraph alone (ps->n 0 or 1). */
void		 text_paragraph_first(const char *body, const char *what,
		    struct text_paras *ps);
/*
 * The paragraphs of a body text_paragraphs_what reads, as they came
 * (nothing cleaned, URLs left out), appended to b each after a newline,
 * their lines joined by a space; returns the bytes appended. One cheap
 * pass, for measuring a body (the score).
 */
size_t		 text_prose_raw(const char *body, const char *what,
		    struct buf *b);
/* Free what text_paragraphs() stored. */
void		 text_paras_free(struct text_paras *);
/* The number of words (runs of non-blanks) in s: what a pace times. */
size_t		 text_word_count(const char *);

#endif
