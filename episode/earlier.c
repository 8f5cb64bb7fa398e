/*
 * The work of earlier episodes, as the archive lists it: sorted by sha,
 * so a revert's "This reverts commit <sha>" (full or abbreviated) finds
 * the commit an earlier episode told.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "date.h"
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

/*
 * The catchphrase of a stock phrase: what follows its last format
 * directive, and of that what follows its last comma ("Steady work, all
 * told." -> "all told."; "It comes from %s's change we heard about
 * earlier." -> "'s change we heard about earlier."). The words a
 * listener hears as the same line come last in each of them.
 */
const char *
earlier_catchphrase(const char *v, size_t *len)
{
	const char	*p, *comma;

	if ((p = strrchr(v, '%')) != NULL) {
		/* past the conversion: "%s", "%zu", "%lld" */
		for (p++; *p != '\0' && strchr("diouxXscfeg", *p) == NULL; p++)
			;
		if (*p != '\0')
			p++;
	} else
		p = v;
	for (comma = p; (comma = strstr(comma, ", ")) != NULL; comma += 2)
		if (comma[2] != '\0')
			p = comma + 2;
	while (*p == ' ')
		p++;
	*len = strlen(p);
	return p;
}

/* The day number of "YYYY-MM-DD", or -1 when it is none. */
static long
earlier_daynum(const char *date)
{
	int	y, m, d, n = 0;

	if (date == NULL ||
	    sscanf(date, "%4d-%2d-%2d%n", &y, &m, &d, &n) != 3 || n != 10 ||
	    m < 1 || m > 12 || d < 1 || d > 31)
		return -1;
	return date_daynum(y, m, d);
}

/*
 * The head of a stock phrase: its words up to the first comma or colon,
 * when no format directive comes before ("A day of second thoughts" of
 * "A day of second thoughts, and that's part of shipping too."); *len 0
 * when it has none or the head is the whole phrase.
 */
static const char *
earlier_head(const char *v, size_t *len)
{
	size_t	n = strcspn(v, ",:%");

	*len = v[n] == ',' || v[n] == ':' ? n : 0;
	return v;
}

/*
 * On how many of the days before daynum the show said the stock phrase
 * v: its catchphrase or its head.
 */
static int
earlier_days_said(const struct episode_said *said, size_t nsaid, long daynum,
    const char *v)
{
	unsigned	days = 0;
	size_t		i, clen, hlen;
	long		dn;
	const char	*c, *h;
	char		*key, *head;
	int		n = 0;

	c = earlier_catchphrase(v, &clen);
	h = earlier_head(v, &hlen);
	if (clen == 0)
		return 0;
	key = xstrndup(c, clen);
	head = hlen > 0 ? xstrndup(h, hlen) : NULL;
	for (i = 0; i < nsaid; i++) {
		dn = earlier_daynum(said[i].date);
		if (dn < daynum - EPISODE_SAID_DAYS || dn >= daynum ||
		    said[i].transcript == NULL)
			continue;
		/* two episodes of one date are one day */
		if ((days & 1u << (daynum - dn)) != 0)
			continue;
		if (strstr(said[i].transcript, key) != NULL || (head != NULL &&
		    strstr(said[i].transcript, head) != NULL)) {
			days |= 1u << (daynum - dn);
			n++;
		}
	}
	free(key);
	free(head);
	return n;
}

const char *
earlier_stock(const struct episode_said *said, size_t nsaid, long daynum,
    unsigned start, const char *const *v, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (earlier_days_said(said, nsaid, daynum,
		    v[(start + i) % n]) < 2)
			return v[(start + i) % n];
	return NULL;
}
