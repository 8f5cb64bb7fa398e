/*
 * The work of earlier episodes, as the archive lists it: sorted by sha,
 * so a revert's "This reverts commit <sha>" (full or abbreviated) finds
 * the commit an earlier episode told.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "episode.h"
#include "xmalloc.h"

/* Shortest abbreviation of a sha looked up, as git's default. */
#define EARLIER_MIN_PREFIX	7

struct earlier_at {
	struct episode_work	*w;
	size_t			 at;	/* place in the order given */
};

static int
earlier_cmp(const void *a, const void *b)
{
	const struct earlier_at	*x = a, *y = b;
	int			 c;

	if ((c = strcmp(x->w->sha, y->w->sha)) != 0)
		return c;
	return x->at < y->at ? -1 : x->at > y->at;
}

static void
earlier_clear(struct episode_work *w)
{
	free(w->sha);
	free(w->date);
	free(w->name);
	free(w->what);
	free(w->reverts);
}

size_t
earlier_sort(struct episode_work *v, size_t n)
{
	struct earlier_at	*s;
	struct episode_work	*copy;
	size_t			 i, kept = 0;

	if (n == 0)
		return 0;
	s = xcalloc(n, sizeof *s);
	copy = xcalloc(n, sizeof *copy);
	memcpy(copy, v, n * sizeof *v);
	for (i = 0; i < n; i++) {
		s[i].w = &copy[i];
		s[i].at = i;
	}
	qsort(s, n, sizeof *s, earlier_cmp);
	for (i = 0; i < n; i++) {
		if (kept > 0 && strcmp(v[kept - 1].sha, s[i].w->sha) == 0)
			earlier_clear(s[i].w);
		else
			v[kept++] = *s[i].w;
	}
	free(copy);
	free(s);
	return kept;
}

const struct episode_work *
earlier_find(const struct episode_work *v, size_t n, const char *sha)
{
	char	 want[41];
	size_t	 len, lo = 0, hi = n, mid;

	if (v == NULL || sha == NULL)
		return NULL;
	len = strlen(sha);
	if (len < EARLIER_MIN_PREFIX || len > 40)
		return NULL;
	for (mid = 0; mid < len; mid++) {
		if (!isxdigit((unsigned char)sha[mid]))
			return NULL;
		want[mid] = (char)tolower((unsigned char)sha[mid]);
	}
	want[len] = '\0';
	/* the first entry not before want */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (strncmp(v[mid].sha, want, len) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == n || strncmp(v[lo].sha, want, len) != 0)
		return NULL;
	/* a prefix two commits start with names neither */
	if (lo + 1 < n && strncmp(v[lo + 1].sha, want, len) == 0)
		return NULL;
	return &v[lo];
}

void
earlier_free(struct episode_work *v, size_t n)
{
	size_t	i;

	for (i = 0; i < n && v != NULL; i++)
		earlier_clear(&v[i]);
	free(v);
}
