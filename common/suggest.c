/* The known word closest to an unknown one, by edit distance. */
#include <stdint.h>
#include <string.h>

#include "suggest.h"

size_t
suggest_distance(const char *a, const char *b)
{
	/* three rows of the table: two back (for swaps), one back, this */
	size_t	 rows[3][SUGGEST_MAX + 1], *pp, *p, *c, *t, v;
	size_t	 la = strlen(a), lb = strlen(b), i, j;

	if (la > SUGGEST_MAX || lb > SUGGEST_MAX)
		return SIZE_MAX;
	pp = rows[0];
	p = rows[1];
	c = rows[2];
	for (j = 0; j <= lb; j++)
		p[j] = j;
	for (i = 1; i <= la; i++) {
		c[0] = i;
		for (j = 1; j <= lb; j++) {
			v = p[j - 1] + (a[i - 1] != b[j - 1]);
			if (p[j] + 1 < v)
				v = p[j] + 1;
			if (c[j - 1] + 1 < v)
				v = c[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && pp[j - 2] + 1 < v)
				v = pp[j - 2] + 1;
			c[j] = v;
		}
		t = pp;
		pp = p;
		p = c;
		c = t;
	}
	return p[lb];
}

void
suggest_init(struct suggest *s, const char *word)
{
	s->word = word;
	s->best = NULL;
	s->dist = SIZE_MAX;
}

void
suggest_add(struct suggest *s, const char *candidate)
{
	size_t	d = suggest_distance(s->word, candidate);

	/* the first of equals wins: tables list the common words first */
	if (d < s->dist) {
		s->dist = d;
		s->best = candidate;
	}
}

const char *
suggest_best(const struct suggest *s)
{
	size_t	 limit = (strlen(s->word) + 2) / 3;

	if (limit > 3)
		limit = 3;
	if (s->best == NULL || s->dist == 0 || s->dist > limit)
		return NULL;
	return s->best;
}
