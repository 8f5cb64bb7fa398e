/*
 * Selection: the day's items ranked by significance, grouped by author, and the theme of the day.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "classify.h"
#include "draft_int.h"
#include "hash.h"
#include "spoken.h"
#include "xmalloc.h"

/* Order items by significance, most first, then by arrival. */
int
select_cmp_score(const void *a, const void *b)
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
int
select_cmp_idx(const void *a, const void *b)
{
	const struct draft_item *x = *(const struct draft_item *const *)a;
	const struct draft_item *y = *(const struct draft_item *const *)b;

	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/*
 * Items of the given kinds not yet told, humans only and no branch
 * merges, ranked by select_cmp_rank (new array): a segment tells first
 * the story the title and the opening lead with.
 */
struct draft_item **
select_items(struct draft *d, const enum classify_kind *kinds, size_t nkinds,
    size_t *n)
{
	struct draft_item	**v;
	size_t			  i, j;

	v = xcalloc(d->nitems + 1, sizeof *v);
	*n = 0;
	for (i = 0; i < d->nitems; i++) {
		/* a bot's work is told by chores_bots; git's merge of a
		   branch is bookkeeping, counted but not told */
		if (d->items[i].told || d->items[i].cl.bot ||
		    d->items[i].cl.merge)
			continue;
		/*
		 * work reverted the same day is the rollback's to tell, and a
		 * follow-up of a story the story's (series_others), whichever
		 * segment the day's ranking puts first
		 */
		if (d->items[i].c->reverted_by_idx >= 0 &&
		    d->items[i].cl.kind != CLASSIFY_REVERT &&
		    d->items[i].cl.kind != CLASSIFY_RELAND)
			continue;
		if (d->items[i].shipped != NULL && !d->items[i].shipped->told)
			continue;
		if (d->items[i].follows != NULL &&
		    !d->items[i].follows->told &&
		    select_writer(d->items[i].follows) >= 0)
			continue;
		for (j = 0; j < nkinds; j++) {
			if (d->items[i].cl.kind == kinds[j]) {
				v[(*n)++] = &d->items[i];
				break;
			}
		}
	}
	qsort(v, *n, sizeof *v, select_cmp_rank);
	return v;
}

int
select_writer(const struct draft_item *it)
{
	if (it->shipped != NULL || it->nships > 0)
		return 0;
	if (it->cl.kind == CLASSIFY_REVERT || it->cl.kind == CLASSIFY_RELAND)
		return 1;
	if (it->cl.bot || it->cl.merge)
		return -1;
	switch (it->cl.kind) {
	case CLASSIFY_PERF:
	case CLASSIFY_FEATURE:
	case CLASSIFY_CHANGE:
		return 2;
	case CLASSIFY_FIX:
		return 3;
	default:
		return -1;
	}
}

/*
 * Group v[0..n) by name: a new array of the n items, each name's items
 * together in list order, the names in order of first appearance; *starts
 * (new) gets each group's start and a final n, *ngroups their count. An
 * open-addressed table of the names seen gives each item its group in one
 * pass (looking each name up among the names so far was quadratic on a day
 * of many authors, issue #9, and sorting them cost more than this).
 */
struct draft_item **
select_runs(struct draft_item **v, size_t n, size_t **starts, size_t *ngroups)
{
	struct draft_item	**out;
	size_t			 *slot, *group, *first, *count, *st, size;
	size_t			  i, h, ng = 0;

	for (size = 16; size < n * 2; size *= 2)
		continue;
	slot = xcalloc(size, sizeof *slot);	/* group + 1, 0 empty */
	group = xcalloc(n + 1, sizeof *group);
	first = xcalloc(n + 1, sizeof *first);	/* a group's first item */
	count = xcalloc(n + 1, sizeof *count);
	for (i = 0; i < n; i++) {
		for (h = hash_str(v[i]->name) & (size - 1); slot[h] != 0 &&
		    strcmp(v[first[slot[h] - 1]]->name, v[i]->name) != 0;
		    h = (h + 1) & (size - 1))
			continue;
		if (slot[h] == 0) {
			first[ng] = i;
			slot[h] = ++ng;
		}
		group[i] = slot[h] - 1;
		count[group[i]]++;
	}
	st = xcalloc(ng + 1, sizeof *st);
	for (i = 0; i < ng; i++)
		st[i + 1] = st[i] + count[i];
	out = xcalloc(n + 1, sizeof *out);
	memset(count, 0, (n + 1) * sizeof *count);
	for (i = 0; i < n; i++)
		out[st[group[i]] + count[group[i]]++] = v[i];
	free(slot);
	free(group);
	free(first);
	free(count);
	*starts = st;
	*ngroups = ng;
	return out;
}

/* Append the distinct names of items as a spoken list. */
void
select_names(struct buf *b, struct draft_item **v, size_t n)
{
	struct draft_item	**r;
	const char		**names;
	size_t			 *starts, i, nn, said = 0;
	int			  more = 0;

	r = select_runs(v, n, &starts, &nn);
	names = xcalloc(DRAFT_MAX_NAMED + 2, sizeof *names);
	for (i = 0; i < nn; i++) {
		if (r[starts[i]]->cl.bot || said == DRAFT_MAX_NAMED)
			more = 1;
		else
			names[said++] = r[starts[i]]->name;
	}
	if (said == 0)
		names[said++] = "automated jobs";
	else if (more)
		names[said++] = "others";
	spoken_list(b, names, said);
	free(names);
	free(starts);
	free(r);
}

/* Order items by area (case-insensitively), NULL areas last. */
static int
select_cmp_area(const void *a, const void *b)
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
int
select_in_theme(const struct draft *d, const struct draft_item *it)
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
void
select_theme(struct draft *d)
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
		else if (d->items[i].lead == NULL) {	/* a story counts once */
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
		if (select_in_theme(d, &d->items[i]) &&
		    d->items[i].cl.area != NULL)
			v[n++] = &d->items[i];
	}
	qsort(v, n, sizeof *v, select_cmp_area);
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

/*
 * An item's rank by what a user of the project meets, 0 first (issue
 * #27): the project's own release; a rollback of earlier work (not of
 * the day's own, which no user met) or a re-land; behaviour
 * a user meets changing (a default flipped, support dropped, a minimum
 * raised, an API removed); fixes of a crash, hang, wrong result, leak or
 * security hole; new features; speedups; other fixes; internal work;
 * then tests, CI, docs, dependency bumps, bots and branch merges. The
 * title, the opening and the takeaway all lead with the first by this
 * order, then by significance: a story is never passed over because its
 * subject is hard to phrase.
 */
int
select_rank(const struct draft_item *it)
{
	if (it->cl.bot || it->cl.merge)
		return SELECT_RANK_CHORE;
	/* draft_open makes the project's releases CLASSIFY_CHANGE */
	if (it->cl.release && it->cl.kind != CLASSIFY_REVERT &&
	    it->cl.kind != CLASSIFY_RELAND && it->cl.kind != CLASSIFY_DEPS)
		return SELECT_RANK_RELEASE;
	switch (it->cl.kind) {
	case CLASSIFY_REVERT:
		/* work added and taken out the same day: no user met it */
		return it->c->reverts_idx >= 0 ? SELECT_RANK_INTERNAL :
		    SELECT_RANK_ROLLBACK;
	case CLASSIFY_RELAND:
		return SELECT_RANK_ROLLBACK;
	case CLASSIFY_DOCS:
	case CLASSIFY_TESTS:
	case CLASSIFY_BUILD:
	case CLASSIFY_DEPS:
		/* a raised minimum of the build is met by every user */
		if (it->cl.kind == CLASSIFY_BUILD &&
		    it->cl.breaking == QUOTE_BREAK_MINIMUM)
			return SELECT_RANK_BEHAVIOUR;
		return SELECT_RANK_CHORE;
	default:
		break;
	}
	if (it->cl.breaking != QUOTE_BREAK_NONE)
		return SELECT_RANK_BEHAVIOUR;
	switch (it->cl.kind) {
	case CLASSIFY_FIX:
		return it->cl.warning ? SELECT_RANK_FIX :
		    SELECT_RANK_SMALL_FIX;
	case CLASSIFY_CHANGE:
		/* "Prevent a crash on empty config" */
		return it->cl.warning ? SELECT_RANK_FIX :
		    SELECT_RANK_INTERNAL;
	case CLASSIFY_FEATURE:
		return SELECT_RANK_FEATURE;
	case CLASSIFY_PERF:
		return SELECT_RANK_PERF;
	default:
		return SELECT_RANK_INTERNAL;
	}
}

/* qsort order of items: select_rank, then significance, then arrival. */
int
select_cmp_rank(const void *a, const void *b)
{
	const struct draft_item *x = *(const struct draft_item *const *)a;
	const struct draft_item *y = *(const struct draft_item *const *)b;
	int	rx = select_rank(x), ry = select_rank(y);

	if (rx != ry)
		return rx < ry ? -1 : 1;
	return select_cmp_score(a, b);
}

/*
 * Whether an item is a story the lead may be: not a part of another's
 * story, with words, not work rolled back the same day nor the revert
 * that did it.
 */
int
select_leadable(const struct draft_item *it)
{
	return !it->cl.merge && it->lead == NULL && it->cl.what[0] != '\0' &&
	    it->c->reverted_by_idx < 0 && !(it->cl.kind == CLASSIFY_REVERT &&
	    it->c->reverts_idx >= 0);
}

struct draft_item *
select_top(struct draft *d)
{
	struct draft_item	*top = NULL, *it;
	size_t			 i;

	for (i = 0; i < d->nitems; i++) {
		it = &d->items[i];
		if (!select_leadable(it))
			continue;
		if (top == NULL || select_cmp_rank(&it, &top) < 0)
			top = it;
	}
	return top;
}
