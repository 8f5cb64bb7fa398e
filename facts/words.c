/*
 * English words, looked up in the table scripts/words-table makes from
 * wamerican at build time (sorted words searched by halves: no file to
 * open, nothing to build at start-up).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "words.h"

/*
 * Words of the trade wamerican lacks, and British spellings, that the
 * drafter says when it puts a verb of its table in the past tense.
 * Sorted by byte.
 */
static const char *const words_trade[] = {
	"codebase", "codebases", "dedupe", "deduped", "deduplicate",
	"deduplicated", "disambiguated",
	"honoured", "inline", "inlined", "optimised", "readd", "readded",
	"recompute", "recomputed", "reenable", "reenabled", "reexport",
	"reexported", "refactor", "refactored", "refactoring", "reland",
	"relanded", "remap", "remapped", "reshape", "reshaped", "resize",
	"resized", "stabilised", "unbreak",
};

struct words_key {
	const char	*w;
	size_t		 n;
};

static int
words_cmp(const void *key, const void *elem)
{
	const struct words_key	*k = key;
	const char		*e = *(const char *const *)elem;
	int			 c;

	if ((c = strncmp(k->w, e, k->n)) != 0)
		return c;
	return e[k->n] == '\0' ? 0 : -1;
}

/* Whether key (n bytes, lowercase) is a word of the built table. */
static int
words_in_table(const char *key, size_t n)
{
	const char	*e;
	size_t		 lo = 0, hi = words_ntable, mid;
	int		 c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		e = words_text + words_at[mid];
		if ((c = strncmp(key, e, n)) == 0 && e[n] != '\0')
			c = -1;
		if (c == 0)
			return 1;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return 0;
}

/* One part of a word (no hyphen) in either list. */
static int
words_part(const char *w, size_t n)
{
	char			 lw[64];
	struct words_key	 k;
	size_t			 i;

	if (n == 0 || n >= sizeof lw)
		return 0;
	for (i = 0; i < n; i++) {
		if (!isalpha((unsigned char)w[i]))
			return 0;
		lw[i] = (char)tolower((unsigned char)w[i]);
	}
	lw[n] = '\0';
	k.w = lw;
	k.n = n;
	return words_in_table(lw, n) || bsearch(&k, words_trade,
	    sizeof words_trade / sizeof words_trade[0], sizeof words_trade[0],
	    words_cmp) != NULL;
}

int
words_known(const char *w, size_t n)
{
	const char	*dash;

	if (n == 0)
		return 0;
	while ((dash = memchr(w, '-', n)) != NULL) {
		if (!words_part(w, (size_t)(dash - w)))
			return 0;
		n -= (size_t)(dash - w) + 1;
		w = dash + 1;
	}
	return words_part(w, n);
}
