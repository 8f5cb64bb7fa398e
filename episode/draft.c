/*
 * Narration: a day's classified commits, ranked, told as the segments of
 * an episode. Every name and number said comes from the day: names from
 * the commits, numbers as counts or quoted from the messages.
 */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "buf.h"
#include "classify.h"
#include "episode.h"
#include "phrase.h"
#include "prose.h"
#include "spoken.h"
#include "text.h"
#include "xmalloc.h"

#define DRAFT_MAX_FIXES		4	/* fixes told one by one */
#define DRAFT_MAX_NAMED		4	/* names in a "from A, B and C" list */
#define DRAFT_MAX_ROLLBACKS	4	/* reverts (and re-lands) told one by one */
#define DRAFT_MAX_CHORES	8	/* one person's chores told in a group */

enum draft_theme {
	DRAFT_THEME_EMPTY,
	DRAFT_THEME_QUIET,
	DRAFT_THEME_ROLLBACK,
	DRAFT_THEME_KIND,	/* the dominant classify_kind */
};

struct draft_item {
	const struct commit	*c;
	long			 idx;
	struct classify		 cl;
	char			*name;	/* as said aloud */
	int			 told;
	unsigned		 stamp;	/* the segment whose shas list it */
};

struct draft_shas {
	char	**v;
	size_t	  n;
};

struct draft {
	const struct day	*day;
	struct episode		*ep;
	struct draft_item	*items;
	size_t			 nitems;
	uint32_t		 hash;
	char			*repo;	/* "owner/name" as said */
	char			 datestr[64]; /* "April 4th, 2026" */
	enum draft_theme	 theme;
	enum classify_kind	 theme_kind;
	char			*theme_area;
	size_t			 kind_count[CLASSIFY_NKINDS];
	int			 bots;
	size_t			 nhighlights;
	unsigned		 stamp;	/* the segment being built, from 1 */
};

/* FNV-1a, to vary phrasing by the data. */
static uint32_t
draft_fnv(uint32_t h, const char *s)
{
	if (h == 0)
		h = 2166136261u;
	for (; s != NULL && *s != '\0'; s++) {
		h ^= (unsigned char)*s;
		h *= 16777619u;
	}
	return h;
}

/* One of n variants, chosen by the day and a salt. */
static const char *
draft_pick(const struct draft *d, unsigned salt, const char *const *v,
    size_t n)
{
	return v[(d->hash / 7 + salt * 2654435761u) % n];
}
#define DRAFT_PICK(d, salt, v) draft_pick(d, salt, v, sizeof v / sizeof v[0])

/*
 * Add an item's sha to the list of the segment being built, once: an item
 * stamped with the current segment's number is already in it.
 */
static void
draft_shas_add(struct draft *d, struct draft_shas *s, struct draft_item *it)
{
	if (it->c->sha == NULL || it->stamp == d->stamp)
		return;
	it->stamp = d->stamp;
	if ((s->n & (s->n - 1)) == 0)
		s->v = xreallocarray(s->v, s->n == 0 ? 1 : s->n * 2,
		    sizeof *s->v);
	s->v[s->n++] = xstrdup(it->c->sha);
}

/* Add a segment, taking the text and the shas. */
static void
draft_segment(struct draft *d, const char *kind, struct buf *text,
    struct draft_shas *shas)
{
	struct episode		*ep = d->ep;
	struct episode_segment	*seg;

	d->stamp++;
	if (text->len == 0) {
		buf_free(text);
		if (shas != NULL) {
			while (shas->n > 0)
				free(shas->v[--shas->n]);
			free(shas->v);
			shas->v = NULL;
		}
		return;
	}
	ep->segments = xreallocarray(ep->segments, ep->nsegments + 1,
	    sizeof *ep->segments);
	seg = &ep->segments[ep->nsegments++];
	seg->kind = xstrdup(kind);
	seg->text = buf_steal(text);
	seg->commits = shas != NULL ? shas->v : NULL;
	seg->ncommits = shas != NULL ? shas->n : 0;
	if (shas != NULL)
		memset(shas, 0, sizeof *shas);
}

/* "in X, " before a sentence when the title named an area not in what. */
static int
draft_area_lead(struct buf *b, const struct draft_item *it)
{
	if (it->cl.area == NULL || !it->cl.area_titled ||
	    phrase_contains(it->cl.what, it->cl.area) ||
	    !phrase_verbal(it->cl.what))
		return 0;
	buf_printf(b, "in %s, ", it->cl.area);
	return 1;
}

/* Whether what opens with a noun of changes ("fixes and tidy-ups to X"). */
static int
draft_noun_start(const char *what)
{
	static const char *const nouns[] = { "fixes", "improvements",
	    "updates", "tweaks", "tidy-ups", "cleanups", "clean-ups",
	    "changes", "typo", "typos", "various", "minor", "small", "more",
	    "several", "some", "misc", "assorted", NULL };

	return phrase_word_in(what, phrase_first_word(what), nouns);
}

/*
 * "NAME fixed the X" when what reads as a verb phrase; "NAME synced
 * RELEASE-NOTES" for "RELEASE-NOTES: synced"; "NAME made fixes to X" for a
 * noun of changes; otherwise what is quoted plainly: "NAME landed a
 * setopt change titled ...". with_name 0 drops NAME.
 */
static void
draft_did(struct buf *b, const struct draft_item *it, int with_name)
{
	const char	*w = it->cl.what, *area = it->cl.area;
	size_t		 n = strlen(w);

	if (with_name) {
		buf_puts(b, it->name);
		buf_putc(b, ' ');
	}
	if (phrase_verbal(w) && phrase_past(b, w))
		return;
	if (area != NULL && it->cl.area_titled && n > 2 &&
	    strcmp(w + n - 2, "ed") == 0 && phrase_plain(w, n)) {
		buf_printf(b, "%s %s", w, area);
		return;
	}
	if (draft_noun_start(w)) {
		buf_puts(b, "made ");
		phrase_lower_first(b, w);
		return;
	}
	if (area != NULL && it->cl.area_titled &&
	    !phrase_contains(w, area))
		buf_printf(b, "landed a %s change titled \"%s\"", area, w);
	else
		buf_printf(b, "landed a change titled \"%s\"", w);
}

/* A sentence "In area, NAME added X." starting with a capital. */
static void
draft_did_sentence(struct buf *b, const struct draft_item *it,
    const char *lead)
{
	struct buf	 s;

	buf_init(&s);
	if (lead != NULL)
		buf_puts(&s, lead);
	draft_area_lead(&s, it);
	draft_did(&s, it, 1);
	phrase_space(b);
	if (s.len > 0 && strncmp(s.data, it->name, strlen(it->name)) != 0)
		phrase_cap(b, buf_str(&s));
	else
		buf_puts(b, buf_str(&s));
	phrase_sentence_end(b);
	buf_free(&s);
}

/* The spoken name of a commit's author (new). */
static char *
draft_name(const struct commit *c, int bot)
{
	const char	*s;

	if (bot)
		return classify_bot_name(c->author_login, c->author_name);
	s = c->author_name != NULL && *c->author_name != '\0' ?
	    c->author_name : c->author_login;
	if (s == NULL || *s == '\0')
		return xstrdup("someone");
	return text_clean(s);
}

/* Order items by significance, most first, then by arrival. */
static int
draft_cmp_score(const void *a, const void *b)
{
	const struct draft_item *x = *(const struct draft_item *const *)a;
	const struct draft_item *y = *(const struct draft_item *const *)b;

	if (x->cl.score > y->cl.score)
		return -1;
	if (x->cl.score < y->cl.score)
		return 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Order items by arrival. */
static int
draft_cmp_idx(const void *a, const void *b)
{
	const struct draft_item *x = *(const struct draft_item *const *)a;
	const struct draft_item *y = *(const struct draft_item *const *)b;

	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Items of the given kinds not yet told, humans only, ranked (new array). */
static struct draft_item **
draft_select(struct draft *d, const enum classify_kind *kinds, size_t nkinds,
    size_t *n)
{
	struct draft_item	**v;
	size_t			  i, j;

	v = xcalloc(d->nitems + 1, sizeof *v);
	*n = 0;
	for (i = 0; i < d->nitems; i++) {
		if (d->items[i].told || d->items[i].cl.bot)
			continue;
		for (j = 0; j < nkinds; j++) {
			if (d->items[i].cl.kind == kinds[j]) {
				v[(*n)++] = &d->items[i];
				break;
			}
		}
	}
	qsort(v, *n, sizeof *v, draft_cmp_score);
	return v;
}

/* An item and its position in a list, for draft_runs. */
struct draft_run {
	struct draft_item	*it;
	size_t			 at;
};

/* Order by name, then by position in the list. */
static int
draft_cmp_run(const void *a, const void *b)
{
	const struct draft_run *x = a, *y = b;
	int	c;

	if ((c = strcmp(x->it->name, y->it->name)) != 0)
		return c;
	return x->at < y->at ? -1 : x->at > y->at;
}

/* A group of runs: where it starts in the sorted runs, where it first is. */
struct draft_group {
	size_t	start;
	size_t	at;
};

static int
draft_cmp_group(const void *a, const void *b)
{
	const struct draft_group *x = a, *y = b;

	return x->at < y->at ? -1 : x->at > y->at;
}

/*
 * Group v[0..n) by name: a new array of the n items, each name's items
 * together in list order, the names in order of first appearance; *starts
 * (new) gets each group's start and a final n, *ngroups their count.
 * Sorting, where looking each name up among the names so far was
 * quadratic on a day of many authors (issue #9).
 */
static struct draft_item **
draft_runs(struct draft_item **v, size_t n, size_t **starts, size_t *ngroups)
{
	struct draft_run	 *r;
	struct draft_group	 *g;
	struct draft_item	**out;
	size_t			 *st, i, j, k, ng = 0;

	r = xcalloc(n + 1, sizeof *r);
	for (i = 0; i < n; i++) {
		r[i].it = v[i];
		r[i].at = i;
	}
	qsort(r, n, sizeof *r, draft_cmp_run);
	g = xcalloc(n + 1, sizeof *g);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && strcmp(r[j].it->name,
		    r[i].it->name) == 0; j++)
			continue;
		/* sorted by position within a name: r[i] comes first */
		g[ng].start = i;
		g[ng].at = r[i].at;
		ng++;
	}
	qsort(g, ng, sizeof *g, draft_cmp_group);
	out = xcalloc(n + 1, sizeof *out);
	st = xcalloc(ng + 1, sizeof *st);
	for (i = k = 0; i < ng; i++) {
		st[i] = k;
		j = g[i].start;
		do
			out[k++] = r[j++].it;
		while (j < n && strcmp(r[j].it->name, r[g[i].start].it->name)
		    == 0);
	}
	st[ng] = n;
	free(g);
	free(r);
	*starts = st;
	*ngroups = ng;
	return out;
}

/* Append the distinct names of items as a spoken list. */
static void
draft_names(struct buf *b, struct draft_item **v, size_t n)
{
	struct draft_item	**r;
	const char		**names;
	size_t			 *starts, i, nn;

	r = draft_runs(v, n, &starts, &nn);
	names = xcalloc(nn + 1, sizeof *names);
	for (i = 0; i < nn; i++)
		names[i] = r[starts[i]]->name;
	spoken_list(b, names, nn);
	free(names);
	free(starts);
	free(r);
}

/* Order items by area (case-insensitively), NULL areas last. */
static int
draft_cmp_area(const void *a, const void *b)
{
	const struct draft_item *x = *(const struct draft_item *const *)a;
	const struct draft_item *y = *(const struct draft_item *const *)b;
	int	c;

	if (x->cl.area == NULL || y->cl.area == NULL)
		return (x->cl.area == NULL) - (y->cl.area == NULL);
	if ((c = strcasecmp(x->cl.area, y->cl.area)) != 0)
		return c;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Whether an item counts toward the theme. */
static int
draft_in_theme(const struct draft *d, const struct draft_item *it)
{
	if (d->theme == DRAFT_THEME_ROLLBACK)
		return it->cl.kind == CLASSIFY_REVERT ||
		    it->cl.kind == CLASSIFY_RELAND;
	if (it->cl.bot)
		return 0;
	return it->cl.kind == d->theme_kind;
}

/*
 * The theme of the day, for the title and the sign-off: the kind of
 * change that weighs most (by significance, not only by count), or
 * rollbacks when they are a good part of the day; and the area its
 * changes share, when enough of them do.
 */
static void
draft_theme(struct draft *d)
{
	struct draft_item	**v;
	size_t			  i, j, rollbacks, n, bestn, need;
	double			  score[CLASSIFY_NKINDS] = { 0 }, best = 0;
	int			  k;

	if (d->nitems == 0) {
		d->theme = DRAFT_THEME_EMPTY;
		return;
	}
	for (i = 0; i < d->nitems; i++) {
		if (d->items[i].cl.bot)
			d->bots = 1;
		else {
			d->kind_count[d->items[i].cl.kind]++;
			score[d->items[i].cl.kind] += d->items[i].cl.score;
		}
	}
	if (d->nitems == 1) {
		d->theme = DRAFT_THEME_QUIET;
		d->theme_kind = d->items[0].cl.kind;
		return;
	}
	/* reverts count whoever made them: a bot's revert is still news */
	rollbacks = d->ep->stats.reverts + d->ep->stats.relands;
	if (rollbacks >= 3 && rollbacks * 5 >= d->nitems) {
		d->theme = DRAFT_THEME_ROLLBACK;
		d->theme_kind = CLASSIFY_REVERT;
	} else if (rollbacks > 0 && rollbacks * 3 >= d->nitems) {
		d->theme = DRAFT_THEME_ROLLBACK;
		d->theme_kind = CLASSIFY_REVERT;
	} else {
		d->theme = DRAFT_THEME_KIND;
		d->theme_kind = d->bots ? CLASSIFY_DEPS : CLASSIFY_CHANGE;
		for (k = 0; k < CLASSIFY_NKINDS; k++) {
			if (k == CLASSIFY_REVERT || k == CLASSIFY_RELAND)
				continue;
			if (score[k] > best) {
				best = score[k];
				d->theme_kind = (enum classify_kind)k;
			}
		}
	}

	/* the area most of the theme's commits share: sorted, then runs */
	v = xcalloc(d->nitems + 1, sizeof *v);
	for (i = n = 0; i < d->nitems; i++) {
		if (draft_in_theme(d, &d->items[i]) &&
		    d->items[i].cl.area != NULL)
			v[n++] = &d->items[i];
	}
	qsort(v, n, sizeof *v, draft_cmp_area);
	need = d->theme == DRAFT_THEME_ROLLBACK ? rollbacks :
	    d->kind_count[d->theme_kind];
	bestn = 1;
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && strcasecmp(v[j]->cl.area,
		    v[i]->cl.area) == 0; j++)
			continue;
		if (j - i > bestn && (j - i >= 3 || (j - i) * 2 >= need)) {
			bestn = j - i;
			free(d->theme_area);
			d->theme_area = xstrdup(v[i]->cl.area);
		}
	}
	free(v);
}

/* The index of the item a revert took out, or -1. */
static long
draft_reverted(const struct draft *d, const struct draft_item *r)
{
	long	idx = r->c->reverts_idx;

	if (idx < 0 && r->c->revert.reverted_sha != NULL)
		idx = day_find_commit(d->day, r->c->revert.reverted_sha);
	if (idx < 0 || (size_t)idx >= d->nitems || idx == r->idx)
		return -1;
	return idx;
}

/* The subject of the work a revert or re-land names (new). */
static char *
draft_reverted_what(const struct draft_item *it)
{
	const char	*s = it->c->revert.reverted_subject;
	const char	*w = it->cl.what;
	size_t		 n;

	if (s != NULL && *s != '\0')
		return classify_what(s);
	/* Revert "subject" -> subject */
	if (strncmp(w, "Revert \"", 8) == 0 || strncmp(w, "Reapply \"", 9) == 0) {
		w = strchr(w, '"') + 1;
		n = strlen(w);
		if (n > 0 && w[n - 1] == '"')
			n--;
		return xstrndup(w, n);
	}
	return xstrdup(w);
}

/* The re-land of the work a revert took out, or NULL. */
static struct draft_item *
draft_reland_of(struct draft *d, const struct draft_item *r, long orig)
{
	char	*want, *got, *tmp;
	size_t	 i;
	int	 same;

	tmp = orig >= 0 ? xstrdup(d->items[orig].cl.what) :
	    draft_reverted_what(r);
	want = text_norm(tmp);
	free(tmp);
	for (i = 0; i < d->nitems; i++) {
		struct draft_item *l = &d->items[i];

		if (l->cl.kind != CLASSIFY_RELAND || l->told)
			continue;
		if (l->c->reverts_idx == r->idx ||
		    (orig >= 0 && l->c->reverts_idx == orig)) {
			free(want);
			return l;
		}
		tmp = draft_reverted_what(l);
		got = text_norm(tmp);
		free(tmp);
		same = want[0] != '\0' && strcmp(want, got) == 0;
		free(got);
		if (same) {
			free(want);
			return l;
		}
	}
	free(want);
	return NULL;
}

static void
draft_opening(struct draft *d)
{
	static const char *greet[] = {
		"Hello and welcome to %s. I'm your host, and today we're "
		    "looking at the %s repository on this %s.",
		"Good to have you back for another episode of %s. Let's see "
		    "what happened in the %s repository on this %s.",
		"Hi there, developers, and welcome to %s, with the news "
		    "from the %s repository on this %s.",
		"Welcome in to %s. Grab a coffee: we're going through the "
		    "day in the %s repository, this %s.",
	};
	const struct day_stats	*st = &d->ep->stats;
	struct buf		 b;
	const char		*people = d->bots ? "authors" : "people";
	size_t			 i;

	buf_init(&b);
	buf_printf(&b, DRAFT_PICK(d, 1, greet), d->ep->show, d->repo,
	    d->datestr);
	phrase_space(&b);
	if (d->nitems == 0) {
		if (st->merged_prs == 0)
			buf_puts(&b, "It was a quiet day: no commits landed "
			    "and no pull requests were merged, so this one "
			    "is short.");
		else {
			const char **titles = xcalloc(d->day->nprs + 1,
			    sizeof *titles);
			char **owned = xcalloc(d->day->nprs + 1, sizeof *owned);
			size_t n = 0;

			buf_puts(&b, "No commits reached us today, but ");
			spoken_count(&b, (long long)st->merged_prs,
			    "pull request was", "pull requests were");
			buf_puts(&b, " merged");
			for (i = 0; i < d->day->nprs && n < 3; i++) {
				if (d->day->prs[i].title == NULL)
					continue;
				owned[n] = classify_what(d->day->prs[i].title);
				titles[n] = owned[n];
				n++;
			}
			if (n > 0) {
				buf_puts(&b, ": ");
				spoken_list(&b, titles, n);
			}
			buf_putc(&b, '.');
			for (i = 0; i < n; i++)
				free(owned[i]);
			free(owned);
			free(titles);
		}
	} else if (d->nitems == 1) {
		buf_printf(&b, "It was a quiet one: a single commit, from %s",
		    d->items[0].name);
		if (st->merged_prs > 0) {
			buf_puts(&b, ", and ");
			spoken_count(&b, (long long)st->merged_prs,
			    "merged pull request", "merged pull requests");
		}
		buf_putc(&b, '.');
	} else {
		if (st->merged_prs > 0 && d->hash % 2 == 0) {
			buf_puts(&b, "We had ");
			spoken_count(&b, (long long)st->commits, "commit",
			    "commits");
			buf_puts(&b, " from ");
			spoken_count(&b, (long long)st->authors, "person",
			    people);
			buf_puts(&b, " and ");
			spoken_count(&b, (long long)st->merged_prs,
			    "merged pull request", "merged pull requests");
			buf_putc(&b, '.');
		} else if (st->merged_prs > 0) {
			struct buf t;

			buf_init(&t);
			spoken_count(&t, (long long)st->commits, "commit",
			    "commits");
			phrase_cap(&b, buf_str(&t));
			buf_free(&t);
			buf_puts(&b, " from ");
			spoken_count(&b, (long long)st->authors, "person",
			    people);
			buf_puts(&b, " landed, along with ");
			spoken_count(&b, (long long)st->merged_prs,
			    "merged pull request", "merged pull requests");
			buf_putc(&b, '.');
		} else {
			buf_puts(&b, "No pull requests were merged, but we had ");
			spoken_count(&b, (long long)st->commits, "commit",
			    "commits");
			buf_puts(&b, " from ");
			spoken_count(&b, (long long)st->authors, "person",
			    people);
			buf_putc(&b, '.');
		}
		if (st->reverts > 0 || st->relands > 0) {
			buf_puts(&b, " Among them ");
			if (st->reverts > 0) {
				buf_puts(&b, st->reverts == 1 &&
				    st->relands == 0 ? "is " : "are ");
				if (st->reverts == 1)
					buf_puts(&b, "a revert");
				else
					spoken_count(&b,
					    (long long)st->reverts, "revert",
					    "reverts");
			} else
				buf_puts(&b, st->relands == 1 ? "is " : "are ");
			if (st->reverts > 0 && st->relands > 0)
				buf_puts(&b, " and ");
			if (st->relands == 1)
				buf_puts(&b, "a re-land");
			else if (st->relands > 1)
				spoken_count(&b, (long long)st->relands,
				    "re-land", "re-lands");
			buf_puts(&b, ", so there's a bit of back and forth "
			    "to tell.");
		}
		if (st->force_pushes > 0) {
			buf_puts(&b, " The branch also saw ");
			spoken_count(&b, (long long)st->force_pushes,
			    "force push", "force pushes");
			buf_putc(&b, '.');
		}
	}
	draft_segment(d, "opening", &b, NULL);
}

/* The first sentence of text that says something broke, or NULL (new). */
static char *
draft_breakage(const char *text)
{
	static const char *const words[] = { "broke", "breaks", "breaking",
	    "broken", "fail", "fails", "failing", "failure", "failures",
	    "regress", "regression", "crash", "crashes", "flaky", "red",
	    "timeout", "timeouts", "hang", "hangs", "error", "errors", NULL };
	struct buf	 one;
	const char	*p = text, *e;
	char		*l;
	size_t		 i, n;

	if (text == NULL)
		return NULL;
	while (*p != '\0') {
		for (e = p; *e != '\0' && !(strchr(".!?", *e) != NULL &&
		    (e[1] == ' ' || e[1] == '\0')); e++)
			continue;
		n = (size_t)(e - p) + (*e != '\0');
		l = xstrndup(p, n);
		for (i = 0; l[i] != '\0'; i++)
			l[i] = (char)tolower((unsigned char)l[i]);
		for (i = 0; words[i] != NULL; i++) {
			const char *q = l;
			size_t w = strlen(words[i]);

			while ((q = strstr(q, words[i])) != NULL) {
				if ((q == l || !isalpha((unsigned char)q[-1])) &&
				    !isalpha((unsigned char)q[w]))
					break;
				q++;
			}
			if (q != NULL)
				break;
		}
		free(l);
		if (words[i] != NULL) {
			buf_init(&one);
			buf_append(&one, p, n);
			return buf_steal(&one);
		}
		p = e + (*e != '\0');
		while (*p == ' ')
			p++;
	}
	return NULL;
}

/* "work to add X" or "change titled X": what the reverted work did. */
static void
draft_work(struct buf *b, const char *what)
{
	if (phrase_verbal(what)) {
		buf_puts(b, "work to ");
		phrase_lower_first(b, what);
	} else
		buf_printf(b, "change titled \"%s\"", what);
}

/* Who or what carried out revert r, and at whose request. */
static void
draft_revert_who(struct buf *b, const struct draft_item *r,
    const struct draft_item *o)
{
	const char	*req = r->c->revert.requested_by;
	char		*who = NULL;

	if (req != NULL && *req != '\0')
		who = text_clean(req);
	phrase_space(b);
	if (r->c->revert.automatic) {
		if (r->cl.bot)
			buf_printf(b, "It was an automatic revert, carried out "
			    "by %s.", r->name);
		else
			buf_printf(b, "It was an automatic revert, landed by "
			    "%s.", r->name);
	} else if (who != NULL && *who != '\0' &&
	    strcmp(who, r->name) != 0) {
		if (r->cl.bot)
			buf_printf(b, "%s asked for the revert, and %s carried "
			    "it out.", who, r->name);
		else
			buf_printf(b, "%s reverted it at the request of %s.",
			    r->name, who);
	} else if (r->cl.bot)
		buf_printf(b, "%s carried out the revert.", r->name);
	else if (o != NULL && strcmp(o->name, r->name) == 0)
		buf_printf(b, "%s reverted it themselves.", r->name);
	else
		buf_printf(b, "%s reverted it.", r->name);
	free(who);
}

/* Why revert r was made: the reason trailer, a sentence of breakage, or none. */
static void
draft_revert_why(struct buf *b, const struct draft_item *r)
{
	char	*why = NULL, *clean;
	size_t	 n;

	phrase_space(b);
	if (r->c->revert.reason != NULL && *r->c->revert.reason != '\0' &&
	    !r->c->revert.automatic)
		why = xstrdup(r->c->revert.reason);
	else if (r->cl.prose[0] != '\0') {
		struct buf t;

		buf_init(&t);
		prose_sentences(&t, r->cl.prose, 1);
		why = buf_steal(&t);
	} else if ((why = draft_breakage(r->c->body)) != NULL &&
	    strncmp(why, "This reverts", 12) == 0) {
		free(why);
		why = NULL;
	}
	if (why == NULL) {
		if (!r->c->revert.automatic)
			buf_puts(b, "The message doesn't say why.");
		return;
	}
	clean = text_clean(why);
	n = strlen(clean);
	while (n > 0 && strchr(". ", clean[n - 1]) != NULL)
		clean[--n] = '\0';
	if (n == 0)
		buf_puts(b, "The message doesn't say why.");
	else {
		buf_puts(b, "The reason given: \"");
		phrase_cap(b, clean);
		buf_puts(b, ".\"");
	}
	free(clean);
	free(why);
}

/* One revert told as a story: whose work, what it did, who, why, and after. */
static void
draft_revert_story(struct draft *d, struct buf *b, struct draft_item *r,
    struct draft_shas *shas)
{
	struct draft_item	*o = NULL, *l;
	char			*what;
	long			 orig;

	if ((orig = draft_reverted(d, r)) >= 0) {
		o = &d->items[orig];
		o->told = 1;
		draft_shas_add(d, shas, o);
		phrase_space(b);
		buf_printf(b, "%s's ", o->name);
		draft_work(b, o->cl.what);
		buf_puts(b, o->idx < r->idx ? " landed and was rolled back "
		    "the same day." : " was rolled back.");
		if (o->cl.prose[0] != '\0') {
			phrase_space(b);
			if (strncmp(o->cl.prose, "It ", 3) != 0)
				buf_puts(b, "Its message said: ");
			prose_sentences(b, o->cl.prose, 1);
		}
	} else {
		what = draft_reverted_what(r);
		phrase_space(b);
		buf_puts(b, "A ");
		draft_work(b, what);
		buf_puts(b, " from before today was rolled back.");
		free(what);
	}
	draft_revert_who(b, r, o);
	draft_revert_why(b, r);

	/* and whether it came back */
	if ((l = draft_reland_of(d, r, orig)) != NULL) {
		l->told = 1;
		draft_shas_add(d, shas, l);
		phrase_space(b);
		if (l->idx > r->idx)
			buf_printf(b, "The story ends in recovery, though: %s "
			    "re-landed it later the same day.", l->name);
		else
			buf_printf(b, "That came after %s had re-landed the "
			    "work earlier in the day.", l->name);
	}
}

static void
draft_rollbacks(struct draft *d)
{
	static const char *first[] = {
		"Let's start with the rollbacks.",
		"First, the changes that were backed out.",
		"We'll begin with what got rolled back.",
	};
	static const char *one[] = {
		"Let's start with the one rollback of the day.",
		"First, a rollback.",
		"We'll begin with what got rolled back.",
	};
	static const char *next[] = {
		"There was another one.",
		"One more rollback to cover.",
		"And a second story of the same kind.",
	};
	static const char *relead[] = {
		"Some work came back, too.",
		"One returning change to mention.",
		"And a re-land.",
	};
	struct draft_shas	  shas = { NULL, 0 };
	struct draft_item	**rest;
	struct buf		  b;
	size_t			  i, told = 0, nrest = 0, nrel = 0;

	buf_init(&b);
	rest = xcalloc(d->nitems + 1, sizeof *rest);
	for (i = 0; i < d->nitems; i++) {
		struct draft_item *r = &d->items[i];

		if (r->cl.kind != CLASSIFY_REVERT || r->told)
			continue;
		r->told = 1;
		draft_shas_add(d, &shas, r);
		if (told == DRAFT_MAX_ROLLBACKS) {
			rest[nrest++] = r;
			continue;
		}
		phrase_para(&b);
		buf_puts(&b, told > 0 ? DRAFT_PICK(d, 3 + (unsigned)told,
		    next) : d->ep->stats.reverts == 1 ? DRAFT_PICK(d, 2, one) :
		    DRAFT_PICK(d, 2, first));
		told++;
		draft_revert_story(d, &b, r, &shas);
	}
	if (nrest > 0) {
		struct buf t;

		phrase_para(&b);
		buf_init(&t);
		spoken_count(&t, (long long)nrest, "more revert", "more "
		    "reverts");
		phrase_cap(&b, buf_str(&t));
		buf_free(&t);
		buf_puts(&b, " landed as well, from ");
		draft_names(&b, rest, nrest > DRAFT_MAX_NAMED ?
		    DRAFT_MAX_NAMED : nrest);
		buf_puts(&b, nrest > DRAFT_MAX_NAMED ? " and others." : ".");
		for (i = 0; i < nrest; i++) {
			long orig = draft_reverted(d, rest[i]);

			if (orig >= 0 && !d->items[orig].told) {
				d->items[orig].told = 1;
				draft_shas_add(d, &shas, &d->items[orig]);
			}
		}
	}

	/* re-lands whose revert isn't in the day */
	nrest = 0;
	for (i = 0; i < d->nitems; i++) {
		struct draft_item	*l = &d->items[i];
		char			*what;
		struct buf		 s;

		if (l->cl.kind != CLASSIFY_RELAND || l->told)
			continue;
		l->told = 1;
		draft_shas_add(d, &shas, l);
		if (nrel == DRAFT_MAX_ROLLBACKS) {
			rest[nrest++] = l;
			continue;
		}
		phrase_para(&b);
		if (told == 0 && nrel == 0) {
			buf_puts(&b, DRAFT_PICK(d, 4, relead));
			buf_putc(&b, ' ');
		}
		nrel++;
		what = draft_reverted_what(l);
		buf_init(&s);
		draft_area_lead(&s, l);
		buf_printf(&s, "%s re-landed ", l->name);
		if (phrase_verbal(what)) {
			buf_puts(&s, "the work to ");
			phrase_lower_first(&s, what);
		} else
			buf_printf(&s, "\"%s\"", what);
		buf_puts(&s, ", which had been rolled back before today.");
		if (strncmp(s.data, l->name, strlen(l->name)) != 0)
			phrase_cap(&b, buf_str(&s));
		else
			buf_puts(&b, buf_str(&s));
		buf_free(&s);
		free(what);
		if (l->cl.prose[0] != '\0' && strncmp(l->cl.prose, "It ",
		    3) == 0) {
			phrase_space(&b);
			prose_sentences(&b, l->cl.prose, 1);
		}
	}
	if (nrest > 0) {
		struct buf t;

		phrase_para(&b);
		buf_init(&t);
		spoken_count(&t, (long long)nrest, "more re-land",
		    "more re-lands");
		phrase_cap(&b, buf_str(&t));
		buf_free(&t);
		buf_puts(&b, " came from ");
		draft_names(&b, rest, nrest > DRAFT_MAX_NAMED ?
		    DRAFT_MAX_NAMED : nrest);
		buf_puts(&b, nrest > DRAFT_MAX_NAMED ? " and others." : ".");
	}
	free(rest);
	if (b.len > 0)
		draft_segment(d, "rollbacks", &b, &shas);
	else
		buf_free(&b);
}

/* Append figures of it not already in text: "The message gives 1.7x and 35%." */
static void
draft_figures(struct buf *b, const struct draft_item *it, const char *said)
{
	const char	*v[CLASSIFY_MAXFIGURES];
	size_t		 i, n = 0;

	for (i = 0; i < it->cl.nfigures; i++) {
		if (strstr(said, it->cl.figures[i]) == NULL)
			v[n++] = it->cl.figures[i];
	}
	if (n == 0)
		return;
	phrase_space(b);
	buf_puts(b, "The message puts numbers on it: ");
	spoken_list(b, v, n);
	buf_putc(b, '.');
}

/* A series told as progress: "That's step three of fifteen." */
static void
draft_series(struct buf *b, const struct draft_item *it)
{
	if (it->cl.series_part <= 0)
		return;
	phrase_space(b);
	buf_puts(b, "That's step ");
	spoken_number(b, it->cl.series_part);
	if (it->cl.series_total > 0) {
		buf_puts(b, " of ");
		spoken_number(b, it->cl.series_total);
		buf_puts(b, it->cl.series_part == it->cl.series_total ?
		    ", the last of its series." : " in a series.");
	} else
		buf_puts(b, " of an ongoing series.");
}

/* One highlight paragraph. */
static void
draft_highlight(struct draft *d, struct buf *b, struct draft_item *it,
    size_t pos)
{
	static const char *lead0[] = {
		"Top of the list today: ",
		"The headline change comes first: ",
		"Leading the highlights, ",
	};
	static const char *leadn[] = {
		"Next, ", "Also worth knowing: ", "Then, ", "Meanwhile, ",
		"On top of that, ", "Elsewhere, ",
	};
	size_t	 nfiles, start = b->len;

	phrase_para(b);
	start = b->len;
	draft_did_sentence(b, it, pos == 0 ? DRAFT_PICK(d, 5, lead0) :
	    leadn[(d->hash + pos) % (sizeof leadn / sizeof leadn[0])]);
	draft_series(b, it);
	if (it->cl.prose[0] != '\0') {
		phrase_space(b);
		buf_puts(b, it->cl.prose);
	}
	draft_figures(b, it, b->data + start);
	nfiles = it->c->nadded + it->c->nmodified + it->c->nremoved;
	if (nfiles >= 8) {
		buf_puts(b, " It touches ");
		spoken_count(b, (long long)nfiles, "file", "files");
		buf_putc(b, '.');
	}
	it->told = 1;
}

/* A quiet day's one commit, told in full in the segment of its kind. */
static void
draft_single(struct draft *d)
{
	struct draft_item	*it = &d->items[0];
	struct draft_shas	 shas = { NULL, 0 };
	struct buf		 b;
	const char		*kind;

	if (d->nitems != 1 || it->told)
		return;
	switch (it->cl.kind) {
	case CLASSIFY_FIX:
		kind = "fixes";
		break;
	case CLASSIFY_FEATURE:
	case CLASSIFY_PERF:
	case CLASSIFY_CHANGE:
		kind = it->cl.bot ? "housekeeping" : "highlights";
		break;
	default:
		kind = "housekeeping";
		break;
	}
	buf_init(&b);
	if (it->cl.bot)
		buf_printf(&b, "%s made the one commit: %s.", it->name,
		    it->cl.what);
	else {
		draft_did_sentence(&b, it, NULL);
		if (it->cl.prose[0] != '\0') {
			phrase_space(&b);
			buf_puts(&b, it->cl.prose);
		}
		draft_figures(&b, it, b.data);
	}
	it->told = 1;
	draft_shas_add(d, &shas, it);
	draft_segment(d, kind, &b, &shas);
}

static void
draft_highlights(struct draft *d)
{
	static const enum classify_kind kinds[] = {
		CLASSIFY_PERF, CLASSIFY_FEATURE, CLASSIFY_CHANGE
	};
	struct draft_item	**v;
	struct draft_shas	  shas = { NULL, 0 };
	struct buf		  b;
	size_t			  n, i, shown;

	v = draft_select(d, kinds, sizeof kinds / sizeof kinds[0], &n);
	buf_init(&b);
	shown = n < EPISODE_MAX_HIGHLIGHTS ? n : EPISODE_MAX_HIGHLIGHTS;
	for (i = 0; i < shown; i++) {
		draft_highlight(d, &b, v[i], i);
		draft_shas_add(d, &shas, v[i]);
	}
	if (n > shown) {
		phrase_para(&b);
		buf_puts(&b, "Smaller changes rounded it out: ");
		spoken_count(&b, (long long)(n - shown), "more change",
		    "more changes");
		buf_puts(&b, " from ");
		draft_names(&b, v + shown, n - shown > DRAFT_MAX_NAMED ?
		    DRAFT_MAX_NAMED : n - shown);
		if (n - shown > DRAFT_MAX_NAMED)
			buf_puts(&b, " and others");
		buf_putc(&b, '.');
		for (i = shown; i < n; i++) {
			v[i]->told = 1;
			draft_shas_add(d, &shas, v[i]);
		}
	}
	d->nhighlights = shown;
	free(v);
	draft_segment(d, "highlights", &b, &shas);
}

static void
draft_fixes(struct draft *d)
{
	static const enum classify_kind kinds[] = { CLASSIFY_FIX };
	static const char *lead[] = {
		"On the fixes side, ", "Now for the fixes. ",
		"A few things got fixed, too. ",
	};
	struct draft_item	**v;
	struct draft_shas	  shas = { NULL, 0 };
	struct buf		  b;
	size_t			  n, i, shown;

	v = draft_select(d, kinds, 1, &n);
	buf_init(&b);
	shown = n < DRAFT_MAX_FIXES ? n : DRAFT_MAX_FIXES;
	for (i = 0; i < shown; i++) {
		const char *l = i == 0 ? DRAFT_PICK(d, 7, lead) : NULL;

		if (i > 0)
			phrase_para(&b);
		if (l != NULL && l[strlen(l) - 1] == ' ' &&
		    l[strlen(l) - 2] == '.') {
			buf_puts(&b, l);
			l = NULL;
		}
		draft_did_sentence(&b, v[i], l);
		if (v[i]->cl.prose[0] != '\0') {
			phrase_space(&b);
			prose_sentences(&b, v[i]->cl.prose, 1);
		}
		draft_figures(&b, v[i], b.data);
		v[i]->told = 1;
		draft_shas_add(d, &shas, v[i]);
	}
	if (n > shown) {
		struct buf t;

		phrase_para(&b);
		buf_init(&t);
		spoken_count(&t, (long long)(n - shown), "more fix",
		    "more fixes");
		phrase_cap(&b, buf_str(&t));
		buf_free(&t);
		buf_puts(&b, " came from ");
		draft_names(&b, v + shown, n - shown);
		buf_putc(&b, '.');
		for (i = shown; i < n; i++) {
			v[i]->told = 1;
			draft_shas_add(d, &shas, v[i]);
		}
	}
	free(v);
	draft_segment(d, "fixes", &b, &shas);
}

/* Words shared at the start of every what in v (their byte length). */
static size_t
draft_common_prefix(struct draft_item **v, size_t n)
{
	size_t	len = strlen(v[0]->cl.what), i, j, cut = 0;

	for (i = 1; i < n; i++) {
		for (j = 0; j < len && v[i]->cl.what[j] == v[0]->cl.what[j]; j++)
			continue;
		len = j;
	}
	for (j = 0; j < len; j++) {
		if (v[0]->cl.what[j] == ' ')
			cut = j;
	}
	if (len == strlen(v[0]->cl.what))
		cut = len;
	return cut;
}

/* Words shared at the end of every what in v (their byte length). */
static size_t
draft_common_suffix(struct draft_item **v, size_t n, size_t prefix)
{
	size_t	len, i, j, cut = 0, l0 = strlen(v[0]->cl.what), li;

	len = l0 - prefix;
	for (i = 1; i < n; i++) {
		li = strlen(v[i]->cl.what);
		for (j = 0; j < len && j < li - prefix &&
		    v[i]->cl.what[li - 1 - j] == v[0]->cl.what[l0 - 1 - j]; j++)
			continue;
		len = j;
	}
	for (j = 0; j < len; j++) {
		if (v[0]->cl.what[l0 - 1 - j] == ' ')
			cut = j + 1;
	}
	return cut;
}

/*
 * One person's housekeeping of one kind: a batch sharing its first words
 * ("Delete deprecated X", "Delete deprecated Y") is said once with a list.
 */
static void
draft_person_chores(struct buf *b, struct draft_item **v, size_t n)
{
	struct draft_item	**batch;
	const char		**mids, **phrases;
	char			**owned;
	size_t			  i, j, nb, pre, suf, np = 0, w;
	struct buf		  s, ph;

	batch = xcalloc(n, sizeof *batch);
	phrases = xcalloc(n, sizeof *phrases);
	for (i = 0; i < n; i++) {
		if (v[i]->told)
			continue;
		buf_init(&ph);
		/* those sharing the first two words */
		w = phrase_first_word(v[i]->cl.what);
		w += v[i]->cl.what[w] == ' ' ?
		    1 + phrase_first_word(v[i]->cl.what + w + 1) : 0;
		nb = 0;
		for (j = i; j < n; j++) {
			if (!v[j]->told && strncmp(v[j]->cl.what,
			    v[i]->cl.what, w) == 0 && (v[j]->cl.what[w] == ' ' ||
			    v[j]->cl.what[w] == '\0'))
				batch[nb++] = v[j];
		}
		pre = nb >= 3 ? draft_common_prefix(batch, nb) : 0;
		if (nb >= 3 && pre > 0 && phrase_verbal(batch[0]->cl.what)) {
			char *head = xstrndup(batch[0]->cl.what, pre);

			suf = draft_common_suffix(batch, nb, pre);
			phrase_past(&ph, head);
			free(head);
			buf_putc(&ph, ' ');
			mids = xcalloc(nb, sizeof *mids);
			owned = xcalloc(nb, sizeof *owned);
			for (j = 0; j < nb; j++) {
				const char *w0 = batch[j]->cl.what + pre;
				size_t ml;

				while (*w0 == ' ')
					w0++;
				ml = strlen(w0) > suf ? strlen(w0) - suf : 0;
				while (ml > 0 && w0[ml - 1] == ' ')
					ml--;
				owned[j] = xstrndup(w0, ml);
				mids[j] = owned[j];
				batch[j]->told = 1;
			}
			spoken_list(&ph, mids, nb);
			if (suf > 0) {
				const char *tail = batch[0]->cl.what +
				    strlen(batch[0]->cl.what) - suf;

				while (*tail == ' ')
					tail++;
				buf_printf(&ph, "%s%s", strncmp(tail, "and ", 4)
				    == 0 ? ", " : " ", tail);
			}
			for (j = 0; j < nb; j++)
				free(owned[j]);
			free(owned);
			free(mids);
		} else {
			draft_did(&ph, v[i], 0);
			v[i]->told = 1;
		}
		phrases[np++] = buf_steal(&ph);
	}
	/* "A did x and y"; when a phrase has its own "and", two sentences */
	buf_init(&s);
	buf_printf(&s, "%s ", v[0]->name);
	for (i = 0; i < np; i++) {
		if (strstr(phrases[i], " and ") != NULL)
			break;
	}
	if (np <= 1 || i == np)
		spoken_list(&s, phrases, np);
	else {
		buf_printf(&s, "%s. %s also ", phrases[0], v[0]->name);
		spoken_list(&s, phrases + 1, np - 1);
	}
	phrase_space(b);
	buf_puts(b, buf_str(&s));
	phrase_sentence_end(b);
	buf_free(&s);
	for (i = 0; i < np; i++)
		free((char *)phrases[i]);
	free(phrases);
	free(batch);
}

static void
draft_housekeeping(struct draft *d)
{
	static const struct {
		enum classify_kind	 kind;
		const char		*lead[2];
	} groups[] = {
		{ CLASSIFY_CLEANUP, { "On the cleanup side,",
		    "Some tidying up, too." } },
		{ CLASSIFY_DOCS, { "For the documentation,",
		    "The docs got some attention." } },
		{ CLASSIFY_TESTS, { "In the test suite,",
		    "Over in the tests," } },
		{ CLASSIFY_BUILD, { "On the build and CI front,",
		    "For the build and CI," } },
		{ CLASSIFY_DEPS, { "As for dependencies,",
		    "Dependencies moved, too." } },
	};
	struct draft_shas	 shas = { NULL, 0 };
	struct buf		 b;
	struct draft_item	**v, **mine;
	size_t			 g, n, i, j, nm, people, *starts;

	buf_init(&b);
	for (g = 0; g < sizeof groups / sizeof groups[0]; g++) {
		const char *lead;

		v = draft_select(d, &groups[g].kind, 1, &n);
		if (n == 0) {
			free(v);
			continue;
		}
		/* in arrival order, grouped by person */
		qsort(v, n, sizeof *v, draft_cmp_idx);
		phrase_para(&b);
		lead = groups[g].lead[d->hash % 2];
		buf_puts(&b, lead);
		if (lead[strlen(lead) - 1] == ',')
			buf_putc(&b, ' ');
		mine = xcalloc(n, sizeof *mine);
		people = 0;
		for (i = 0; i < n; i++) {
			if (v[i]->told)
				continue;
			if (people == DRAFT_MAX_NAMED) {
				struct buf t;

				for (nm = 0, j = i; j < n; j++) {
					if (v[j]->told)
						continue;
					v[j]->told = 1;
					draft_shas_add(d, &shas, v[j]);
					mine[nm++] = v[j];
				}
				phrase_space(&b);
				buf_init(&t);
				spoken_count(&t, (long long)nm, "more change",
				    "more changes");
				phrase_cap(&b, buf_str(&t));
				buf_free(&t);
				buf_puts(&b, " came from ");
				draft_names(&b, mine, nm);
				buf_putc(&b, '.');
				break;
			}
			for (nm = 0, j = i; j < n; j++) {
				if (!v[j]->told && strcmp(v[j]->name,
				    v[i]->name) == 0) {
					draft_shas_add(d, &shas, v[j]);
					mine[nm++] = v[j];
				}
			}
			/* a few told, the rest counted */
			draft_person_chores(&b, mine, nm > DRAFT_MAX_CHORES ?
			    DRAFT_MAX_CHORES : nm);
			if (nm > DRAFT_MAX_CHORES) {
				for (j = DRAFT_MAX_CHORES; j < nm; j++)
					mine[j]->told = 1;
				phrase_space(&b);
				buf_printf(&b, "%s landed ", mine[0]->name);
				spoken_count(&b, (long long)(nm -
				    DRAFT_MAX_CHORES), "more change",
				    "more changes");
				buf_puts(&b, " of the same kind, too.");
			}
			people++;
		}
		free(mine);
		free(v);
	}

	/* bots, grouped by name, in order of their first commit */
	v = xcalloc(d->nitems + 1, sizeof *v);
	for (i = n = 0; i < d->nitems; i++)
		if (d->items[i].cl.bot && !d->items[i].told)
			v[n++] = &d->items[i];
	mine = draft_runs(v, n, &starts, &g);
	for (i = 0; i < g; i++) {
		struct draft_item **grp = mine + starts[i];
		size_t ng = starts[i + 1] - starts[i];
		size_t total = 0, deps = 0;
		const char **whats;
		char **owned;
		size_t nw = 0;

		whats = xcalloc(ng, sizeof *whats);
		owned = xcalloc(ng, sizeof *owned);
		for (j = 0; j < ng; j++) {
			struct draft_item *o = grp[j];

			total++;
			if (o->cl.kind == CLASSIFY_DEPS) {
				const char *w = o->cl.what;

				deps++;
				if (strncasecmp(w, "bump ", 5) == 0)
					w += 5;
				owned[nw] = xstrdup(w);
				whats[nw] = owned[nw];
				nw++;
			}
			o->told = 1;
			draft_shas_add(d, &shas, o);
		}
		phrase_para(&b);
		if (deps == total) {
			buf_printf(&b, "%s bumped ", grp[0]->name);
			spoken_count(&b, (long long)deps, "dependency",
			    "dependencies");
			if (nw <= 3) {
				buf_puts(&b, ": ");
				spoken_list(&b, whats, nw);
			}
		} else {
			buf_printf(&b, "%s made ", grp[0]->name);
			spoken_count(&b, (long long)total, "automated commit",
			    "automated commits");
			if (deps > 0) {
				buf_puts(&b, ", ");
				spoken_count(&b, (long long)deps,
				    "of them a dependency bump",
				    "of them dependency bumps");
			}
		}
		buf_putc(&b, '.');
		for (j = 0; j < nw; j++)
			free(owned[j]);
		free(owned);
		free(whats);
	}
	free(starts);
	free(mine);
	free(v);
	draft_segment(d, "housekeeping", &b, &shas);
}

/* The item whose setting Today's Focus quotes, or NULL. */
static struct draft_item *
draft_focus_item(struct draft *d)
{
	static const enum classify_kind kinds[] = {
		CLASSIFY_PERF, CLASSIFY_FEATURE, CLASSIFY_CHANGE, CLASSIFY_FIX,
		CLASSIFY_RELAND, CLASSIFY_BUILD, CLASSIFY_DOCS
	};
	struct draft_item	*best = NULL;
	size_t			 i, k;

	for (i = 0; i < d->nitems; i++) {
		struct draft_item *it = &d->items[i];

		/* only a setting the commit brings in, never one it names */
		if (it->cl.setting == NULL || !it->cl.setting_new || it->cl.bot ||
		    it->c->reverted_by_idx >= 0)
			continue;
		for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
			if (it->cl.kind == kinds[k])
				break;
		}
		if (k == sizeof kinds / sizeof kinds[0])
			continue;
		if (best == NULL || it->cl.score > best->cl.score)
			best = it;
	}
	return best;
}

/*
 * Today's Focus: one tip quoting verbatim a setting, flag or variable a
 * commit of the day brings in. When no commit gives one, a different
 * closing segment points at the one change worth reading instead; no tip
 * is ever made up.
 */
static void
draft_focus(struct draft *d)
{
	static const char *advice_env[] = {
		"If that fits your setup, try %s and see how it behaves.",
		"Worth a try if that's your use case: %s.",
	};
	static const char *advice_flag[] = {
		"Next time you run it, give %s a try.",
		"If you script it, %s is the one to know about.",
	};
	static const char *advice_name[] = {
		"If your code or configuration uses %s, read that change "
		    "before you upgrade.",
		"If %s is part of your setup, that's the change to read "
		    "first.",
	};
	static const char *none[] = {
		"No new setting or flag to try today. If you read just one "
		    "change from this day, make it this one:",
		"Nothing new to switch on today, so instead, the one change "
		    "worth your reading time:",
	};
	struct draft_shas	 shas = { NULL, 0 };
	struct draft_item	*best, *top = NULL;
	const char		*set;
	struct buf		 b;
	size_t			 i;

	if (d->nitems <= 1)
		return;
	buf_init(&b);
	if ((best = draft_focus_item(d)) == NULL) {
		/* the most significant human change, told or not */
		for (i = 0; i < d->nitems; i++) {
			struct draft_item *it = &d->items[i];

			if (it->cl.bot || it->cl.kind == CLASSIFY_REVERT ||
			    it->c->reverted_by_idx >= 0)
				continue;
			if (top == NULL || it->cl.score > top->cl.score)
				top = it;
		}
		if (top == NULL || d->nitems < 3) {
			buf_free(&b);
			return;
		}
		buf_puts(&b, DRAFT_PICK(d, 17, none));
		buf_putc(&b, ' ');
		buf_printf(&b, "%s's ", top->name);
		if (top->cl.area != NULL && top->cl.area_titled &&
		    !phrase_contains(top->cl.what, top->cl.area))
			buf_printf(&b, "%s ", top->cl.area);
		buf_printf(&b, "change, \"%s\".", top->cl.what);
		draft_shas_add(d, &shas, top);
		draft_segment(d, "takeaway", &b, &shas);
		return;
	}
	set = best->cl.setting;
	d->ep->focus = xstrdup(set);
	buf_printf(&b, "Today's Focus: %s.", set);
	if (best->told) {
		phrase_space(&b);
		buf_printf(&b, "It comes from %s's change we heard about "
		    "earlier, titled \"%s\".", best->name, best->cl.what);
	} else
		draft_did_sentence(&b, best, NULL);
	if (!phrase_contains(best->cl.what, set)) {
		if (phrase_contains(best->cl.prose, set)) {
			phrase_space(&b);
			buf_puts(&b, best->cl.prose);
		} else
			buf_printf(&b, " Its message names %s.", set);
	}
	phrase_space(&b);
	if (set[0] == '-')
		buf_printf(&b, DRAFT_PICK(d, 19, advice_flag), set);
	else if (strchr(set, '=') != NULL)
		buf_printf(&b, DRAFT_PICK(d, 19, advice_env), set);
	else
		buf_printf(&b, DRAFT_PICK(d, 19, advice_name), set);
	draft_shas_add(d, &shas, best);
	draft_segment(d, "focus", &b, &shas);
}

static void
draft_closing(struct draft *d)
{
	static const char *rollback[] = {
		"That's the day: a reminder that backing a change out is "
		    "part of shipping it.",
		"Some steps back today and some steps forward, which is how "
		    "a healthy project moves.",
	};
	static const char *kinds[CLASSIFY_NKINDS][2] = {
		[CLASSIFY_REVERT] = { "A day of second thoughts.",
		    "A day of second thoughts." },
		[CLASSIFY_RELAND] = { "Things came back today.",
		    "Things came back today." },
		[CLASSIFY_FEATURE] = { "New pieces landed today.",
		    "New pieces landed today, so go kick the tires." },
		[CLASSIFY_PERF] = { "A day about speed.",
		    "A day spent making things faster." },
		[CLASSIFY_FIX] = { "A steadier codebase than yesterday.",
		    "Fewer known bugs tonight than this morning." },
		[CLASSIFY_DOCS] = { "Good docs are a feature, too.",
		    "A day for the readers." },
		[CLASSIFY_TESTS] = { "A day for the test suite.",
		    "Quiet work on the tests, the kind that pays off later." },
		[CLASSIFY_BUILD] = { "Build and CI upkeep, the plumbing that "
		    "keeps everything flowing.", "A day for the plumbing." },
		[CLASSIFY_DEPS] = { "Dependencies kept fresh.",
		    "Dependencies kept fresh." },
		[CLASSIFY_CLEANUP] = { "A lighter codebase than yesterday.",
		    "Old code out, and a tidier tree for it." },
		[CLASSIFY_CHANGE] = { "A steady day of changes.",
		    "A steady day of changes." },
	};
	/* the last sentence names the date, so no two days end alike */
	static const char *tail[] = {
		"Thanks for listening to %s on this %s, and I'll catch you "
		    "tomorrow.",
		"That's all from %s for %s, and I'll catch you tomorrow.",
		"Keep building, and I'll catch you tomorrow: this was %s for "
		    "%s.",
	};
	struct buf	 b;

	buf_init(&b);
	switch (d->theme) {
	case DRAFT_THEME_EMPTY:
		buf_puts(&b, "Nothing more to tell today.");
		break;
	case DRAFT_THEME_QUIET:
		buf_puts(&b, "Short and sweet today.");
		break;
	case DRAFT_THEME_ROLLBACK:
		buf_puts(&b, DRAFT_PICK(d, 11, rollback));
		break;
	case DRAFT_THEME_KIND:
		buf_puts(&b, kinds[d->theme_kind][d->hash % 2]);
		break;
	}
	buf_putc(&b, ' ');
	buf_printf(&b, DRAFT_PICK(d, 13, tail), d->ep->show, d->datestr);
	draft_segment(d, "closing", &b, NULL);
}

/* A kind as a title's noun phrase, alone or before "in <areas>". */
static const char *
draft_kind_title(enum classify_kind k)
{
	static const char *plain[CLASSIFY_NKINDS] = {
		[CLASSIFY_REVERT] = "A Day of Rollbacks",
		[CLASSIFY_RELAND] = "Changes Back in Place",
		[CLASSIFY_FEATURE] = "New Features",
		[CLASSIFY_PERF] = "Speedups",
		[CLASSIFY_FIX] = "Fixes",
		[CLASSIFY_DOCS] = "Documentation Polish",
		[CLASSIFY_TESTS] = "Test Suite Upkeep",
		[CLASSIFY_BUILD] = "Build and CI Work",
		[CLASSIFY_DEPS] = "Dependency Updates",
		[CLASSIFY_CLEANUP] = "Cleanup",
		[CLASSIFY_CHANGE] = "Work",
	};

	return plain[k];
}

/* A kind as one change, for a quiet day's title. */
static const char *
draft_kind_noun(enum classify_kind k)
{
	static const char *nouns[CLASSIFY_NKINDS] = {
		[CLASSIFY_REVERT] = "Revert",
		[CLASSIFY_RELAND] = "Re-land",
		[CLASSIFY_FEATURE] = "New Feature",
		[CLASSIFY_PERF] = "Speedup",
		[CLASSIFY_FIX] = "Fix",
		[CLASSIFY_DOCS] = "Docs Change",
		[CLASSIFY_TESTS] = "Test Change",
		[CLASSIFY_BUILD] = "Build Change",
		[CLASSIFY_DEPS] = "Dependency Bump",
		[CLASSIFY_CLEANUP] = "Cleanup",
		[CLASSIFY_CHANGE] = "Change",
	};

	return nouns[k];
}

/* An area as a title says it: plain lowercase words get capitals. */
static void
draft_title_area(struct buf *b, const char *area)
{
	size_t	at = b->len, i;
	int	plain = 1;

	for (i = 0; area[i] != '\0'; i++) {
		if (!islower((unsigned char)area[i]) && area[i] != ' ' &&
		    area[i] != '-')
			plain = 0;
	}
	buf_puts(b, area);
	if (!plain)
		return;
	for (i = at; i < b->len; i++) {
		if (i == at || b->data[i - 1] == ' ' || b->data[i - 1] == '-')
			b->data[i] = (char)toupper((unsigned char)b->data[i]);
	}
}

/* Up to max distinct areas of the theme's most significant changes. */
static size_t
draft_top_areas(struct draft *d, const char **areas, size_t max)
{
	struct draft_item	**v;
	size_t			  n, i, j, na = 0;

	v = xcalloc(d->nitems + 1, sizeof *v);
	for (i = n = 0; i < d->nitems; i++) {
		if (draft_in_theme(d, &d->items[i]) &&
		    d->items[i].cl.area != NULL)
			v[n++] = &d->items[i];
	}
	qsort(v, n, sizeof *v, draft_cmp_score);
	for (i = 0; i < n && na < max; i++) {
		for (j = 0; j < na; j++) {
			if (strcasecmp(areas[j], v[i]->cl.area) == 0)
				break;
		}
		if (j == na)
			areas[na++] = v[i]->cl.area;
	}
	free(v);
	return na;
}

static void
draft_title(struct draft *d)
{
	struct buf	 b;
	size_t		 i, deprecated = 0, reverts, relands, na;
	const char	*areas[3];
	int		 paired = 0;

	buf_init(&b);
	reverts = d->ep->stats.reverts;
	relands = d->ep->stats.relands;
	for (i = 0; i < d->nitems; i++) {
		if (d->items[i].cl.kind == CLASSIFY_RELAND &&
		    d->items[i].c->reverts_idx >= 0)
			paired = 1;
	}
	switch (d->theme) {
	case DRAFT_THEME_EMPTY:
		buf_puts(&b, d->ep->stats.merged_prs > 0 ?
		    "No Commits, a Few Merges" : "A Quiet Day");
		if (d->ep->stats.merged_prs == 1)
			b.len = 0, buf_puts(&b, "No Commits, One Merge");
		break;
	case DRAFT_THEME_QUIET:
		buf_printf(&b, "A Quiet Day and One %s",
		    draft_kind_noun(d->theme_kind));
		if (d->items[0].cl.area != NULL) {
			buf_puts(&b, " in ");
			draft_title_area(&b, d->items[0].cl.area);
		}
		break;
	case DRAFT_THEME_ROLLBACK:
		buf_puts(&b, relands > 0 && reverts > 0 ? (paired ?
		    "Rollbacks and Recovery" : "Rollbacks and Re-lands") :
		    relands > 0 ? "Work Re-landed" : "A Day of Rollbacks");
		if (d->theme_area != NULL) {
			buf_puts(&b, " in ");
			draft_title_area(&b, d->theme_area);
		}
		break;
	case DRAFT_THEME_KIND:
		for (i = 0; i < d->nitems; i++) {
			if (d->items[i].cl.kind == CLASSIFY_CLEANUP &&
			    strcasestr(d->items[i].c->subject != NULL ?
			    d->items[i].c->subject : "", "deprecat") != NULL)
				deprecated++;
		}
		na = 0;
		if (d->theme_kind == CLASSIFY_CLEANUP && deprecated >= 2)
			buf_puts(&b, "Deprecated Code Cleared Out");
		else if (d->theme_area != NULL) {
			areas[0] = d->theme_area;
			na = 1;
		} else
			na = draft_top_areas(d, areas, d->theme_kind ==
			    CLASSIFY_CHANGE ? 3 : 2);
		if (b.len == 0)
			buf_puts(&b, d->theme_kind == CLASSIFY_CHANGE &&
			    na == 0 ? "A Steady Day of Changes" :
			    draft_kind_title(d->theme_kind));
		if (na > 0 && d->theme_kind != CLASSIFY_DOCS &&
		    d->theme_kind != CLASSIFY_TESTS &&
		    d->theme_kind != CLASSIFY_BUILD &&
		    d->theme_kind != CLASSIFY_DEPS) {
			buf_puts(&b, d->theme_kind == CLASSIFY_CHANGE ?
			    " on " : " in ");
			for (i = 0; i < na; i++) {
				if (i > 0)
					buf_puts(&b, i == na - 1 ? " and " :
					    ", ");
				draft_title_area(&b, areas[i]);
			}
		}
		if (reverts > 0 && relands > 0)
			buf_puts(&b, paired ? ", Plus a Rollback and Recovery" :
			    ", Plus a Rollback and a Re-land");
		else if (reverts > 0)
			buf_puts(&b, reverts == 1 ? ", Plus a Rollback" :
			    ", Plus Rollbacks");
		else if (relands > 0)
			buf_puts(&b, relands == 1 ? ", Plus a Re-land" :
			    ", Plus Re-lands");
		break;
	}
	d->ep->title = buf_steal(&b);
}

static void
draft_description(struct draft *d)
{
	const struct day_stats	*st = &d->ep->stats;
	struct buf		 b;
	struct draft_item	**v;
	size_t			 n, i, fixes = 0, chores = 0;
	static const enum classify_kind kinds[] = {
		CLASSIFY_PERF, CLASSIFY_FEATURE, CLASSIFY_CHANGE
	};

	buf_init(&b);
	buf_printf(&b, "%s for %s, in the %s repository. ", d->ep->show,
	    d->datestr, d->repo);
	if (d->nitems == 0) {
		buf_puts(&b, "A quiet day: no commits landed");
		if (st->merged_prs > 0) {
			buf_puts(&b, ", though ");
			spoken_count(&b, (long long)st->merged_prs,
			    "pull request was", "pull requests were");
			buf_puts(&b, " merged");
		}
		buf_putc(&b, '.');
		d->ep->description = buf_steal(&b);
		return;
	}
	{
		struct buf t;

		buf_init(&t);
		spoken_count(&t, (long long)st->commits, "commit", "commits");
		phrase_cap(&b, buf_str(&t));
		buf_free(&t);
	}
	buf_puts(&b, " from ");
	spoken_count(&b, (long long)st->authors, "author", "authors");
	if (st->merged_prs > 0) {
		buf_puts(&b, " and ");
		spoken_count(&b, (long long)st->merged_prs,
		    "merged pull request", "merged pull requests");
	}
	buf_putc(&b, '.');

	/* the top story, ranked the same way the highlights are */
	for (i = 0; i < d->nitems; i++)
		d->items[i].told = 0;
	v = draft_select(d, kinds, sizeof kinds / sizeof kinds[0], &n);
	if (n > 0)
		draft_did_sentence(&b, v[0], "The top story: ");
	free(v);
	if (st->reverts > 0 || st->relands > 0) {
		phrase_space(&b);
		if (st->reverts > 0) {
			struct buf t;

			buf_init(&t);
			spoken_count(&t, (long long)st->reverts, "change was",
			    "changes were");
			phrase_cap(&b, buf_str(&t));
			buf_free(&t);
			buf_puts(&b, " rolled back");
			if (st->relands > 0) {
				buf_puts(&b, " and ");
				spoken_count(&b, (long long)st->relands,
				    "was", "were");
				buf_puts(&b, " re-landed");
			}
		} else {
			struct buf t;

			buf_init(&t);
			spoken_count(&t, (long long)st->relands, "change was",
			    "changes were");
			phrase_cap(&b, buf_str(&t));
			buf_free(&t);
			buf_puts(&b, " re-landed");
		}
		buf_putc(&b, '.');
	}
	for (i = 0; i < d->nitems; i++) {
		switch (d->items[i].cl.kind) {
		case CLASSIFY_FIX:
			fixes++;
			break;
		case CLASSIFY_DOCS:
		case CLASSIFY_TESTS:
		case CLASSIFY_BUILD:
		case CLASSIFY_DEPS:
		case CLASSIFY_CLEANUP:
			chores++;
			break;
		default:
			break;
		}
	}
	if ((fixes > 0 || chores > 0) && d->nitems > 1) {
		buf_puts(&b, " Plus ");
		if (fixes > 0)
			spoken_count(&b, (long long)fixes, "fix", "fixes");
		if (fixes > 0 && chores > 0)
			buf_puts(&b, " and ");
		if (chores > 0)
			spoken_count(&b, (long long)chores,
			    "housekeeping change", "housekeeping changes");
		buf_putc(&b, '.');
	}
	d->ep->description = buf_steal(&b);
}

/* Draft an episode of a day. Returns a new episode; never NULL. */
struct episode *
episode_draft(const struct day *day, const struct episode_opts *opts)
{
	struct draft		 d;
	struct episode		*ep;
	struct buf		 b;
	struct tm		 tm;
	time_t			 t;
	size_t			 i;
	int			 year, month, mday;
	const char		*shortname;

	memset(&d, 0, sizeof d);
	d.stamp = 1;
	d.day = day;
	d.ep = ep = xcalloc(1, sizeof *ep);

	ep->repository = xstrdup(day->repo != NULL ? day->repo : "");
	d.repo = phrase_repo(ep->repository);
	shortname = strchr(ep->repository, '/') != NULL ?
	    strchr(ep->repository, '/') + 1 : ep->repository;
	if (opts != NULL && opts->show != NULL && *opts->show != '\0')
		ep->show = xstrdup(opts->show);
	else
		ep->show = xstrdup(*shortname != '\0' ? shortname : "hookcast");
	ep->window_start = day->start;
	ep->window_end = day->end;

	if (opts != NULL && opts->year > 0) {
		year = opts->year;
		month = opts->month;
		mday = opts->mday;
	} else {
		t = day->start;
		gmtime_r(&t, &tm);
		year = tm.tm_year + 1900;
		month = tm.tm_mon + 1;
		mday = tm.tm_mday;
	}
	xasprintf(&ep->date, "%04d-%02d-%02d", year, month, mday);
	ep->published = opts != NULL && opts->published != 0 ?
	    opts->published : (day->end != 0 ? day->end : day->start);
	buf_init(&b);
	spoken_date(&b, year, month, mday);
	strncpy(d.datestr, buf_str(&b), sizeof d.datestr - 1);
	buf_free(&b);
	d.hash = draft_fnv(draft_fnv(0, ep->date), ep->repository);

	/* classify */
	d.nitems = day->ncommits;
	d.items = xcalloc(d.nitems + 1, sizeof *d.items);
	for (i = 0; i < d.nitems; i++) {
		struct draft_item *it = &d.items[i];

		it->c = &day->commits[i];
		it->idx = (long)i;
		classify_commit(it->c, day->repo, &it->cl);
		it->name = draft_name(it->c, it->cl.bot);
	}

	/* counts, with reverts as the drafter tells them */
	day_stats(day, &ep->stats);
	ep->stats.reverts = ep->stats.relands = 0;
	for (i = 0; i < d.nitems; i++) {
		if (d.items[i].cl.kind == CLASSIFY_REVERT)
			ep->stats.reverts++;
		else if (d.items[i].cl.kind == CLASSIFY_RELAND)
			ep->stats.relands++;
	}

	/* rank and narrate */
	draft_theme(&d);
	draft_opening(&d);
	draft_rollbacks(&d);
	draft_single(&d);
	draft_highlights(&d);
	draft_fixes(&d);
	draft_housekeeping(&d);
	draft_focus(&d);
	draft_closing(&d);
	draft_title(&d);
	draft_description(&d);

	episode_finish(ep, opts);

	for (i = 0; i < d.nitems; i++) {
		classify_clear(&d.items[i].cl);
		free(d.items[i].name);
	}
	free(d.items);
	free(d.repo);
	free(d.theme_area);
	return ep;
}

/*
 * The parts every episode derives from its segments and options: the
 * transcript (segments joined by blank lines), its words, the duration at
 * the pace, and a copy of the nearby episodes.
 *
 * Whatever a drafter quoted (subjects, names, PR titles, an archived
 * episode's title), what it says is made spoken text here, once for both
 * drafters: no markup and no control characters (spoken_clean). Renderers
 * escape it for their format but never need to strip anything.
 */
void
episode_finish(struct episode *ep, const struct episode_opts *opts)
{
	struct buf	b;
	double		wpm;
	size_t		i;

	spoken_clean(ep->show);
	spoken_clean(ep->title);
	spoken_clean(ep->description);
	spoken_clean(ep->focus);
	for (i = 0; i < ep->nsegments; i++)
		spoken_clean(ep->segments[i].text);

	buf_init(&b);
	for (i = 0; i < ep->nsegments; i++) {
		if (i > 0)
			buf_puts(&b, "\n\n");
		buf_puts(&b, ep->segments[i].text);
	}
	free(ep->transcript);
	ep->transcript = buf_steal(&b);
	ep->words = spoken_words(ep->transcript);
	wpm = opts != NULL && opts->words_per_minute > 0 ?
	    opts->words_per_minute : EPISODE_WORDS_PER_MINUTE;
	/* identifiers take as long as their parts to say */
	ep->duration = lround((double)spoken_said_words(ep->transcript) *
	    60.0 / wpm);
	ep->words_per_minute = wpm;
	if (opts != NULL && opts->nearby != NULL && opts->nnearby > 0) {
		ep->nearby = xcalloc(opts->nnearby, sizeof(*ep->nearby));
		for (i = 0; i < opts->nnearby; i++) {
			ep->nearby[i].date = xstrdup_null(opts->nearby[i].date);
			ep->nearby[i].title =
			    xstrdup_null(opts->nearby[i].title);
			spoken_clean(ep->nearby[i].title);
		}
		ep->nnearby = opts->nnearby;
	}
}

/* Free an episode and all it owns; episode_free(NULL) is a no-op. */
void
episode_free(struct episode *ep)
{
	size_t	i, j;

	if (ep == NULL)
		return;
	free(ep->show);
	free(ep->title);
	free(ep->description);
	free(ep->date);
	free(ep->repository);
	for (i = 0; i < ep->nsegments; i++) {
		free(ep->segments[i].kind);
		free(ep->segments[i].text);
		for (j = 0; j < ep->segments[i].ncommits; j++)
			free(ep->segments[i].commits[j]);
		free(ep->segments[i].commits);
	}
	free(ep->segments);
	free(ep->transcript);
	free(ep->focus);
	for (i = 0; i < ep->nnearby; i++) {
		free(ep->nearby[i].date);
		free(ep->nearby[i].title);
	}
	free(ep->nearby);
	free(ep);
}
