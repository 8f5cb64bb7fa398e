/*
 * The daily drafter: a day's commits classified, then told segment by
 * segment (select.c, bookend.c, rollback.c, tell.c, chores.c, focus.c,
 * title.c). Every name and number said comes from the day: names from
 * the commits, numbers as counts or quoted from the messages.
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "classify.h"
#include "draft_int.h"
#include "hash.h"
#include "episode.h"
#include "phrase.h"
#include "quote.h"
#include "record.h"
#include "repo.h"
#include "date.h"
#include "spoken.h"
#include "text.h"
#include "xmalloc.h"

/* FNV-1a, to vary phrasing by the data. */
uint32_t
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

/*
 * The items' spoken names, each author's read once (classify_name cleans
 * it): a day of thousands of commits has a few dozen authors. An open
 * hash of the items named so far, by what classify_name reads.
 */
struct draft_names {
	size_t		*slot;	/* an item's index + 1; 0 empty */
	size_t		 mask;
};

static void
draft_names_init(struct draft_names *nm, size_t nitems)
{
	size_t	n = 16;

	while (n < 2 * nitems)
		n *= 2;
	nm->slot = xcalloc(n, sizeof *nm->slot);
	nm->mask = n - 1;
}

/* Whether a and b are both NULL or the same string. */
static int
draft_same(const char *a, const char *b)
{
	return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* items[i]'s name (new): a copy of an earlier item's by the same author. */
static char *
draft_name(struct draft_names *nm, const struct draft_item *items, size_t i)
{
	const struct commit	*c = items[i].c, *o;
	size_t			 h;
	int			 bot = items[i].cl.bot;

	h = draft_fnv(draft_fnv(0, c->author_name), c->author_login) ^
	    (size_t)bot;
	for (h &= nm->mask; nm->slot[h] != 0; h = (h + 1) & nm->mask) {
		o = items[nm->slot[h] - 1].c;
		if (items[nm->slot[h] - 1].cl.bot == bot &&
		    draft_same(o->author_name, c->author_name) &&
		    draft_same(o->author_login, c->author_login))
			return xstrdup(items[nm->slot[h] - 1].name);
	}
	nm->slot[h] = i + 1;
	return classify_name(c, bot);
}

/*
 * One person, one name. git writes whatever each clone was told, so one
 * author's commits may carry a handle here and a full name there
 * ("BenBE" and "Benny Baumann", one address), with GitHub's login beside
 * either or neither. Items whose authors share a login, or an address of
 * a person's own, are one person, told under one name: the full name
 * (one with a space) when just one of the names is one, else the name
 * most of the commits carry, the earliest on a tie. An address shared by
 * two full names (a team's, say) joins nobody. Bots keep their names.
 */
struct draft_who {
	const char	*key;	/* a login, an address or a name */
	size_t		 i;	/* the item */
	size_t		 root;	/* its person's first item, once joined */
};

static int
draft_who_cmp(const void *a, const void *b)
{
	const struct draft_who	*x = a, *y = b;
	int			 c = strcasecmp(x->key, y->key);

	if (c != 0)
		return c;
	return x->i < y->i ? -1 : x->i > y->i;
}

static size_t
draft_root(size_t *up, size_t i)
{
	while (up[i] != i)
		i = up[i] = up[up[i]];
	return i;
}

static void
draft_join(size_t *up, size_t a, size_t b)
{
	a = draft_root(up, a);
	b = draft_root(up, b);
	if (a != b)
		up[a > b ? a : b] = a < b ? a : b;
}

/*
 * Whether an address is a person's own: not empty, not a service's
 * ("noreply@github.com"), not a machine's default ("root@localhost",
 * "me@(none)": a domain without a dot).
 */
static int
draft_own_address(const char *e)
{
	static const char *const locals[] = { "noreply", "no-reply",
	    "donotreply", "do-not-reply", "root", "actions", "action",
	    "bot", NULL };
	const char	*at;
	size_t		 i, n;

	if (e == NULL || (at = strchr(e, '@')) == NULL || at == e ||
	    strchr(at + 1, '.') == NULL)
		return 0;
	n = (size_t)(at - e);
	for (i = 0; locals[i] != NULL; i++)
		if (strlen(locals[i]) == n && strncasecmp(e, locals[i], n) == 0)
			return 0;
	return 1;
}

/* Whether more than one distinct full name (with a space) is in v[0..n). */
static int
draft_full_names(const struct draft_item *items, const struct draft_who *v,
    size_t n)
{
	const char	*first = NULL, *name;
	size_t		 i;

	for (i = 0; i < n; i++) {
		name = items[v[i].i].name;
		if (strchr(name, ' ') == NULL)
			continue;
		if (first == NULL)
			first = name;
		else if (strcmp(first, name) != 0)
			return 1;
	}
	return 0;
}

/* Join the items of each run of one key in v[0..n) (sorted here). */
static void
draft_join_runs(struct draft_item *items, size_t *up, struct draft_who *v,
    size_t n, int addresses)
{
	size_t	i, j, k;

	qsort(v, n, sizeof *v, draft_who_cmp);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && strcasecmp(v[j].key, v[i].key) == 0;
		    j++)
			;
		if (addresses && draft_full_names(items, v + i, j - i))
			continue;
		for (k = i + 1; k < j; k++)
			draft_join(up, v[i].i, v[k].i);
	}
}

/* By person, then item. */
static int
draft_root_cmp(const void *a, const void *b)
{
	const struct draft_who	*x = a, *y = b;

	if (x->root != y->root)
		return x->root < y->root ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* By key as it is (case counts), then item. */
static int
draft_exact_cmp(const void *a, const void *b)
{
	const struct draft_who	*x = a, *y = b;
	int			 c = strcmp(x->key, y->key);

	if (c != 0)
		return c;
	return x->i < y->i ? -1 : x->i > y->i;
}

/*
 * The name one person's items v[0..n) are told under (an item's index):
 * the one full name among theirs, else the most used (the earliest on a
 * tie). *keys: how many authors day_stats counts among them. v is
 * reordered.
 */
static size_t
draft_person(const struct draft_item *items, struct draft_who *v, size_t n,
    size_t *keys)
{
	const char	*key;
	size_t		 i, j, best = v[0].i, best_n = 0, full = 0;

	for (i = 0; i < n; i++)
		v[i].key = (key = commit_author_key(items[v[i].i].c)) != NULL ?
		    key : "";
	qsort(v, n, sizeof *v, draft_exact_cmp);
	for (*keys = 0, i = 0; i < n; i = j, (*keys)++)
		for (j = i + 1; j < n && strcmp(v[j].key, v[i].key) == 0; j++)
			;
	for (i = 0; i < n; i++)
		v[i].key = items[v[i].i].name;
	qsort(v, n, sizeof *v, draft_exact_cmp);
	for (i = 0; i < n; i++)
		full += strchr(v[i].key, ' ') != NULL &&
		    (i == 0 || strcmp(v[i].key, v[i - 1].key) != 0);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && strcmp(v[j].key, v[i].key) == 0; j++)
			;
		if (full == 1 && strchr(v[i].key, ' ') == NULL)
			continue;
		if (j - i > best_n || (j - i == best_n && v[i].i < best)) {
			best = v[i].i;
			best_n = j - i;
		}
	}
	return best;
}

/*
 * Join the items of one person and give each person one name. Returns
 * how many authors, as day_stats counts them (commit_author_key), were
 * folded into another.
 */
static size_t
draft_one_name(struct draft_item *items, size_t n)
{
	struct draft_who	*v;
	size_t			*up, i, j, k, nv, best, keys, folded = 0;

	if (n < 2)
		return 0;
	up = xcalloc(n, sizeof *up);
	for (i = 0; i < n; i++)
		up[i] = i;
	v = xcalloc(n, sizeof *v);
	for (nv = i = 0; i < n; i++)
		if (!items[i].cl.bot && items[i].c->author_login != NULL &&
		    *items[i].c->author_login != '\0')
			v[nv++] = (struct draft_who){ items[i].c->author_login,
			    i, 0 };
	draft_join_runs(items, up, v, nv, 0);
	for (nv = i = 0; i < n; i++)
		if (!items[i].cl.bot &&
		    draft_own_address(items[i].c->author_email))
			v[nv++] = (struct draft_who){ items[i].c->author_email,
			    i, 0 };
	draft_join_runs(items, up, v, nv, 1);

	/* each person's items in a run: by root */
	for (i = 0; i < n; i++)
		v[i] = (struct draft_who){ NULL, i, draft_root(up, i) };
	qsort(v, n, sizeof *v, draft_root_cmp);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && v[j].root == v[i].root; j++)
			;
		if (j - i < 2)
			continue;
		best = draft_person(items, v + i, j - i, &keys);
		folded += keys - 1;
		for (k = i; k < j; k++)
			if (strcmp(items[v[k].i].name, items[best].name) != 0) {
				free(items[v[k].i].name);
				items[v[k].i].name = xstrdup(items[best].name);
			}
	}
	free(v);
	free(up);
	return folded;
}

static int
draft_area_cmp(const void *a, const void *b)
{
	return strcasecmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * Mark the items whose what opens with a word the day uses as an area
 * ("shell: nushell integration scripts" on a day of "nushell: ..."
 * subjects): a name, not a verb to guess the past of ("nushelled").
 */
static void
draft_named_first(struct draft_item *items, size_t n)
{
	const char	**areas, *key;
	char		  word[64];
	size_t		  i, na = 0, w;

	areas = xcalloc(n + 1, sizeof *areas);
	for (i = 0; i < n; i++)
		if (items[i].cl.area != NULL && *items[i].cl.area != '\0')
			areas[na++] = items[i].cl.area;
	if (na > 0) {
		qsort(areas, na, sizeof *areas, draft_area_cmp);
		for (i = 0; i < n; i++) {
			w = phrase_first_word(items[i].cl.what);
			if (w == 0 || w >= sizeof word)
				continue;
			memcpy(word, items[i].cl.what, w);
			word[w] = '\0';
			key = word;
			items[i].named_first = bsearch(&key, areas, na,
			    sizeof *areas, draft_area_cmp) != NULL;
		}
	}
	free(areas);
}

/* One of n variants, chosen by the day and a salt. */
const char *
draft_pick(const struct draft *d, unsigned salt, const char *const *v,
    size_t n)
{
	return v[(d->hash / 7 + salt * 2654435761u) % n];
}

const char *
draft_stock(const struct draft *d, unsigned salt, const char *const *v,
    size_t n)
{
	return earlier_stock(d->opts != NULL ? d->opts->said : NULL,
	    d->opts != NULL ? d->opts->nsaid : 0, d->daynum,
	    (d->hash / 7 + salt * 2654435761u) % n, v, n);
}

const char *
draft_rotate(const struct draft *d, unsigned salt, const char *const *v,
    size_t n)
{
	unsigned long	at = (unsigned long)(d->daynum % (long)n + (long)n) +
			    d->show_hash % n + salt;

	return v[at % n];
}

/*
 * An item's prose, read the first time it is asked for. The items are
 * the draft's own (d->items, not const): segment writers that hold one
 * as const may still have its prose read and kept, as a cache.
 */
const char *
draft_prose(const struct draft_item *it)
{
	struct draft_item	*w = (struct draft_item *)(uintptr_t)it;

	classify_prose(w->c, &w->cl);
	return w->cl.prose;
}

/*
 * Add an item's sha to the list of the segment being built, once (an item
 * stamped with the current segment's number is already in it), and those
 * of the parts of its story.
 */
void
draft_shas_add(struct draft *d, struct draft_shas *s, struct draft_item *it)
{
	size_t	i;

	if (it->c->sha == NULL || it->stamp == d->stamp)
		return;
	it->stamp = d->stamp;
	if ((s->n & (s->n - 1)) == 0)
		s->v = xreallocarray(s->v, s->n == 0 ? 1 : s->n * 2,
		    sizeof *s->v);
	s->v[s->n++] = xstrdup(it->c->sha);
	/* a story's parts are told with it, and a same-day follow-up */
	for (i = 0; i < it->nparts; i++)
		draft_shas_add(d, s, it->parts[i]);
	/* (unless another segment listed it: told there first) */
	if (it->after != NULL && it->after->stamp == 0)
		draft_shas_add(d, s, it->after);
	if (it->follows != NULL && it->follows->stamp == 0)
		draft_shas_add(d, s, it->follows);
}

/* Add a segment, taking the text and the shas. */
void
draft_segment(struct draft *d, const char *kind, struct buf *text,
    struct draft_shas *shas)
{
	char	*spoken;

	d->stamp++;
	/*
	 * snake_case names are said as words ("spawn blocking"); the focus
	 * quotes its setting verbatim, to be typed
	 */
	if (strcmp(kind, "focus") != 0 && text->len > 0) {
		spoken = spoken_symbols(buf_str(text));
		buf_reset(text);
		buf_puts(text, spoken);
		free(spoken);
	}
	episode_add_segment(d->ep, kind, text, shas != NULL ? shas->v : NULL,
	    shas != NULL ? shas->n : 0);
	if (shas != NULL)
		memset(shas, 0, sizeof *shas);
}

/* As draft_segment, the segment put before the others. */
void
draft_segment_first(struct draft *d, const char *kind, struct buf *text,
    struct draft_shas *shas)
{
	struct episode		*ep = d->ep;
	struct episode_segment	 seg;
	size_t			 n = ep->nsegments;

	draft_segment(d, kind, text, shas);
	if (ep->nsegments != n + 1 || n == 0)
		return;
	seg = ep->segments[n];
	memmove(&ep->segments[1], &ep->segments[0], n * sizeof seg);
	ep->segments[0] = seg;
}

/*
 * Add a segment to ep, taking the text and the n shas of v (new strings
 * in a new array); an empty text adds none and frees them.
 */
void
episode_add_segment(struct episode *ep, const char *kind, struct buf *text,
    char **v, size_t n)
{
	struct episode_segment	*seg;

	if (text->len == 0) {
		buf_free(text);
		while (n > 0)
			free(v[--n]);
		free(v);
		return;
	}
	ep->segments = xreallocarray(ep->segments, ep->nsegments + 1,
	    sizeof *ep->segments);
	seg = &ep->segments[ep->nsegments++];
	memset(seg, 0, sizeof *seg);
	seg->kind = xstrdup(kind);
	seg->text = buf_steal(text);
	seg->commits = v;
	seg->ncommits = n;
}

/* qsort order of told items: the segment that listed them, then arrival. */
static int
draft_cmp_stamp(const void *a, const void *b)
{
	const struct draft_item	*x = *(const struct draft_item *const *)a;
	const struct draft_item	*y = *(const struct draft_item *const *)b;

	if (x->stamp != y->stamp)
		return x->stamp < y->stamp ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* A sha as the work list keeps it: lower case (new). */
static char *
draft_sha(const char *sha)
{
	char	*s = xstrdup(sha);
	char	*p;

	for (p = s; *p != '\0'; p++)
		if (*p >= 'A' && *p <= 'F')
			*p = (char)(*p - 'A' + 'a');
	return s;
}

/*
 * The episode's work: the commits its segments drew on, in the order
 * they were told (the first segments' first), at most EPISODE_MAX_WORK,
 * each with its author and what it did, so a later episode can name it.
 */
static void
draft_work(struct draft *d)
{
	struct draft_item	**v;
	struct episode_work	 *w;
	size_t			  i, n = 0;

	v = xcalloc(d->nitems + 1, sizeof *v);
	for (i = 0; i < d->nitems; i++)
		if (d->items[i].stamp != 0 && d->items[i].c->sha != NULL &&
		    strlen(d->items[i].c->sha) == 40)
			v[n++] = &d->items[i];
	qsort(v, n, sizeof *v, draft_cmp_stamp);
	if (n > EPISODE_MAX_WORK)
		n = EPISODE_MAX_WORK;
	d->ep->work = xcalloc(n + 1, sizeof *d->ep->work);
	for (i = 0; i < n; i++) {
		const struct commit *c = v[i]->c;

		w = &d->ep->work[i];
		w->sha = draft_sha(c->sha);
		w->name = xstrdup(v[i]->name);
		w->what = rollback_what(v[i]);
		w->bot = v[i]->cl.bot;
		if (v[i]->cl.kind == CLASSIFY_REVERT &&
		    c->revert.reverted_sha != NULL)
			w->reverts = draft_sha(c->revert.reverted_sha);
	}
	d->ep->nwork = n;
	free(v);
}

/* Whether an item removes a flag users pass ("--global-option"). */
static int
draft_removes_flag(struct draft_item *it)
{
	char	*what;
	int	 flag;

	if (it->cl.breaking != QUOTE_BREAK_REMOVED ||
	    focus_breaking_of(it, &what) != QUOTE_BREAK_REMOVED)
		return 0;
	flag = what != NULL && strncmp(what, "--", 2) == 0;
	free(what);
	return flag;
}

/*
 * A breaking change a person filed as housekeeping (a cleanup, the
 * build, the tests, the docs, a pin) is told among the day's changes,
 * where a listener who must act on it hears it: support dropped, a
 * minimum raised, a default flipped or flags removed ("Drop PyTorch 2.7
 * support" is no tidying up).
 */
static void
draft_promote(struct draft_item *it)
{
	switch (it->cl.kind) {
	case CLASSIFY_CLEANUP:
	case CLASSIFY_BUILD:
	case CLASSIFY_TESTS:
	case CLASSIFY_DOCS:
	case CLASSIFY_DEPS:
		/* (deprecated pieces removed stay with the cleanups,
		   told together) */
		if ((it->cl.breaking == QUOTE_BREAK_SUPPORT ||
		    it->cl.breaking == QUOTE_BREAK_MINIMUM ||
		    it->cl.breaking == QUOTE_BREAK_DEFAULT ||
		    draft_removes_flag(it)) && !it->cl.bot && !it->cl.merge)
			it->cl.kind = CLASSIFY_CHANGE;
		break;
	default:
		break;
	}
}

/*
 * A change landed twice (cherry-picked to a release branch the same day:
 * one author, one subject) is told once, the later copy with it; and a
 * release is told among the day's changes whatever prefix filed it
 * ("chore: prepare Tokio v1.48.0" is no tidying up).
 */
static void
draft_once(struct draft *d)
{
	struct draft_item	**v, **seen;
	size_t			  i, n = 0, size, h;

	v = xcalloc(d->nitems + 1, sizeof *v);
	for (i = 0; i < d->nitems; i++) {
		struct draft_item *it = &d->items[i];

		if (it->cl.release && !it->cl.bot && it->lead == NULL &&
		    it->cl.kind != CLASSIFY_REVERT &&
		    it->cl.kind != CLASSIFY_RELAND)
			it->cl.kind = CLASSIFY_CHANGE;
		/* (git's merges are counted together by chores_merges;
		   every revert and re-land is a story of its own) */
		if (it->lead == NULL && !it->told && !it->cl.merge &&
		    it->cl.kind != CLASSIFY_REVERT &&
		    it->cl.kind != CLASSIFY_RELAND &&
		    it->c->reverted_by_idx < 0 && it->cl.what[0] != '\0')
			v[n++] = it;
	}
	/* each (author, what, kind) seen first, in arrival order, in an
	   open-addressed table: a later one is its copy */
	for (size = 16; size < n * 2; size *= 2)
		continue;
	seen = xcalloc(size, sizeof *seen);
	for (i = 0; i < n; i++) {
		h = (hash_str(v[i]->name) * 31 + hash_str(v[i]->cl.what)) &
		    (size - 1);
		for (; seen[h] != NULL && (strcmp(seen[h]->name, v[i]->name) !=
		    0 || strcmp(seen[h]->cl.what, v[i]->cl.what) != 0 ||
		    seen[h]->cl.kind != v[i]->cl.kind); h = (h + 1) & (size - 1))
			continue;
		if (seen[h] == NULL)
			seen[h] = v[i];
		else {
			v[i]->told = 1;
			v[i]->lead = seen[h];
		}
	}
	free(seen);
	free(v);
}


/*
 * One release, told once: of the commits that announce the same version
 * (nginx's "release-1.27.0 tag" and its "nginx-1.27.0-RELEASE" notes)
 * the most significant tells it; the others are marked told with it.
 */
static void
draft_one_release(struct draft *d)
{
	struct draft_item	*best = NULL;
	char			*pkg, *ver, *best_ver = NULL;
	size_t			 i, pass;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < d->nitems; i++) {
			struct draft_item *it = &d->items[i];

			if (it->cl.kind == CLASSIFY_REVERT || it->cl.bot ||
			    it->lead != NULL || !it->cl.release ||
			    !quote_release(it->cl.subject, &pkg, &ver))
				continue;
			if (pass == 0 && (best == NULL ||
			    it->cl.score > best->cl.score)) {
				best = it;
				free(best_ver);
				best_ver = ver;
				ver = NULL;
			} else if (pass == 1 && it != best &&
			    strcmp(ver, best_ver) == 0) {
				it->told = 1;
				it->lead = best;
			}
			free(pkg);
			free(ver);
		}
	}
	free(best_ver);
}

/* The writers of the day's stories, in their order on a tie (select_writer). */
static void (*const draft_writers[])(struct draft *) = {
	release_segment,	/* releases that gathered what ships */
	rollback_segment,	/* reverts and re-lands */
	tell_highlights,	/* releases, features, speedups, changes */
	tell_fixes,
};
#define DRAFT_NWRITERS	(sizeof draft_writers / sizeof draft_writers[0])

_Static_assert(SELECT_RANK_CHORE + 1 == EPISODE_RANK_CHORE,
    "episode_segment.rank is select_rank plus one");

/*
 * The segments a writer added from the from-th on are its story's,
 * ranked by its best story (upkeep when it had none the lead may be).
 */
static void
draft_ranked(struct draft *d, size_t from, const struct draft_item *best)
{
	for (; from < d->ep->nsegments; from++)
		d->ep->segments[from].rank = best != NULL ?
		    select_rank(best) + 1 : EPISODE_RANK_CHORE;
}

/*
 * The stories, in the order of the day's one ranking (issue #27): each
 * writer's segment goes when its best story by select_cmp_rank comes up,
 * so the first story told is select_top's, the one the title and the
 * opening lead with. vite 2026-06-30 told two rollbacks, one of work
 * added and taken out the same day, before its release. Only stories
 * the lead may be count (select_leadable); a writer with none goes
 * after, and writers tie in the order of draft_writers.
 */
static void
draft_stories(struct draft *d)
{
	struct draft_item	*best[DRAFT_NWRITERS] = { NULL }, *it, *t;
	size_t			 order[DRAFT_NWRITERS], i, j, k;
	int			 w;

	/* a quiet day's one commit: a revert as one, else in full */
	if (d->nitems == 1) {
		rollback_segment(d);
		tell_single(d);
		draft_ranked(d, 0, &d->items[0]);
		return;
	}
	for (i = 0; i < d->nitems; i++) {
		it = &d->items[i];
		/* (a follow-up is told with the story it follows) */
		if (it->told || !select_leadable(it) ||
		    (w = select_writer(it->follows != NULL &&
		    select_writer(it->follows) >= 0 ? it->follows : it)) < 0)
			continue;
		if (best[w] == NULL || select_cmp_rank(&it, &best[w]) < 0)
			best[w] = it;
	}
	/*
	 * (a few writers: an insertion sort, stable); the releases that
	 * gathered what ships in them go first, with the other releases
	 * of the day, whatever their scores
	 */
	for (j = 0; j < DRAFT_NWRITERS; j++)
		order[j] = j;
	for (i = 2; i < DRAFT_NWRITERS; i++)
		for (j = i; j > 1; j--) {
			t = best[order[j - 1]];
			it = best[order[j]];
			if (it == NULL || (t != NULL &&
			    select_cmp_rank(&it, &t) >= 0))
				break;
			k = order[j];
			order[j] = order[j - 1];
			order[j - 1] = k;
		}
	for (j = 0; j < DRAFT_NWRITERS; j++) {
		k = d->ep->nsegments;
		draft_writers[order[j]](d);
		draft_ranked(d, k, best[order[j]]);
	}
	/*
	 * a follow-up left for a story told in brief ("Smaller changes
	 * rounded it out") after its own writer went: told by it now
	 */
	for (i = 0; i < d->nitems; i++) {
		it = &d->items[i];
		if (!it->told && it->follows != NULL && it->follows->told &&
		    (w = select_writer(it)) >= 0) {
			k = d->ep->nsegments;
			draft_writers[w](d);
			draft_ranked(d, k, it);
		}
	}
}

int
draft_told_story(const struct draft *d)
{
	static const char *const kinds[] = { "rollbacks", "highlights",
	    "fixes", "release", NULL };
	size_t	i, k;

	for (i = 0; i < d->ep->nsegments; i++)
		for (k = 0; kinds[k] != NULL; k++)
			if (strcmp(d->ep->segments[i].kind, kinds[k]) == 0)
				return 1;
	return 0;
}

/*
 * The show's name (new): the configured one, else the repository's
 * name without its owner ("vite" for "vitejs/vite"), else "hookcast".
 */
char *
episode_show(const char *repo, const struct episode_opts *opts)
{
	const char	*shortname;

	if (opts != NULL && opts->show != NULL && *opts->show != '\0')
		return xstrdup(opts->show);
	shortname = strchr(repo, '/') != NULL ? strchr(repo, '/') + 1 : repo;
	return xstrdup(*shortname != '\0' ? shortname : "hookcast");
}

/* Draft an episode of a day. Returns a new episode; never NULL. */
/*
 * Classifying is most of a draft's work (every rule reads each commit's
 * subject and body), and each commit is read on its own into its own
 * item: on a day of many commits the items are shared out among threads,
 * each taking the next block of DRAFT_BLOCK in turn. Nothing else is
 * written but the word indexes, which text_words builds under a lock. A
 * thread that cannot start leaves its blocks to the others, so the items
 * come out the same whatever ran them.
 */
#define DRAFT_BLOCK	64
#define DRAFT_THREADS	4	/* at most, when opts leave it to the CPUs */
#define DRAFT_PARALLEL	(4 * DRAFT_BLOCK) /* fewer items: one thread */

struct draft_share {
	struct draft_item	*items;
	size_t			 n;
	const char		*repo;
	atomic_size_t		 next;
};

static void *
draft_classify_run(void *arg)
{
	struct draft_share	*sh = arg;
	size_t			 i, end;

	while ((i = atomic_fetch_add(&sh->next, DRAFT_BLOCK)) < sh->n) {
		end = sh->n - i > DRAFT_BLOCK ? i + DRAFT_BLOCK : sh->n;
		for (; i < end; i++)
			classify_commit_lazy(sh->items[i].c, sh->repo,
			    &sh->items[i].cl);
	}
	return NULL;
}

/* Classify n items with up to threads threads (0: one per CPU). */
static void
draft_classify(struct draft_item *items, size_t n, const char *repo,
    int threads)
{
	struct draft_share	 sh;
	pthread_t		 tid[DRAFT_THREADS];
	size_t			 k, nt, started = 0;
	long			 cpus;

	if (threads <= 0) {
		cpus = sysconf(_SC_NPROCESSORS_ONLN);
		threads = cpus < 1 ? 1 : cpus > DRAFT_THREADS ?
		    DRAFT_THREADS : (int)cpus;
	}
	nt = (size_t)threads > DRAFT_THREADS ? DRAFT_THREADS :
	    (size_t)threads;
	if (n < DRAFT_PARALLEL)
		nt = 1;
	sh.items = items;
	sh.n = n;
	sh.repo = repo;
	atomic_init(&sh.next, 0);
	for (k = 1; k < nt; k++) {
		if (pthread_create(&tid[started], NULL, draft_classify_run,
		    &sh) == 0)
			started++;
	}
	draft_classify_run(&sh);
	for (k = 0; k < started; k++)
		pthread_join(tid[k], NULL);
}

struct episode *
episode_draft(const struct day *day, const struct episode_opts *opts)
{
	struct draft		 d;
	struct draft_names	 names;
	struct episode		*ep;
	struct buf		 b;
	struct tm		 tm;
	time_t			 t;
	size_t			 i, folded;
	int			 year, month, mday;

	memset(&d, 0, sizeof d);
	d.stamp = 1;
	d.day = day;
	d.opts = opts;
	d.ep = ep = xcalloc(1, sizeof *ep);

	ep->repository = xstrdup(day->repo != NULL ? day->repo : "");
	d.repo = phrase_repo(ep->repository);
	ep->show = episode_show(ep->repository, opts);
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
	d.show_hash = draft_fnv(0, ep->repository);
	d.daynum = date_daynum(year, month, mday);

	/* classify */
	d.nitems = day->ncommits;
	d.items = xcalloc(d.nitems + 1, sizeof *d.items);
	draft_names_init(&names, d.nitems);
	for (i = 0; i < d.nitems; i++) {
		d.items[i].c = &day->commits[i];
		d.items[i].idx = (long)i;
	}
	draft_classify(d.items, d.nitems, day->repo,
	    opts != NULL ? opts->threads : 0);
	for (i = 0; i < d.nitems; i++) {
		struct draft_item *it = &d.items[i];

		it->name = draft_name(&names, d.items, i);
		draft_promote(it);
	}
	free(names.slot);
	folded = draft_one_name(d.items, d.nitems);
	draft_named_first(d.items, d.nitems);

	/* counts, with reverts as the drafter tells them */
	day_stats(day, &ep->stats);
	ep->stats.authors -= folded < ep->stats.authors ? folded : 0;
	ep->stats.reverts = ep->stats.relands = 0;
	for (i = 0; i < d.nitems; i++) {
		if (d.items[i].cl.kind == CLASSIFY_REVERT)
			ep->stats.reverts++;
		else if (d.items[i].cl.kind == CLASSIFY_RELAND)
			ep->stats.relands++;
	}

	/* a series or stack is one story */
	series_group(&d);
	links_follow(&d);
	draft_one_release(&d);
	draft_once(&d);
	release_gather(&d);

	/* rank and narrate */
	select_theme(&d);
	draft_stories(&d);
	chores_segment(&d);
	focus_segment(&d);
	/* the opening and the closing say what the segments told */
	bookend_segments(&d);
	title_episode(&d);
	title_description(&d);
	draft_work(&d);
	if (day->html_url != NULL && repo_url_ok(day->html_url, day->repo))
		ep->repository_url = xstrdup(day->html_url);
	links_sources(&d);

	episode_finish(ep, opts);

	series_free(&d);
	release_free(&d);
	for (i = 0; i < d.nitems; i++) {
		classify_clear(&d.items[i].cl);
		free(d.items[i].name);
	}
	free(d.items);
	free(d.repo);
	free(d.theme_area);
	return ep;
}

/* *s with its brace alternations said as words (spoken_braces). */
static void
draft_braces(char **s)
{
	char	*t;

	if (*s == NULL || (strchr(*s, '{') == NULL && strstr(*s, "[]") ==
	    NULL && strstr(*s, "[ ]") == NULL))
		return;
	t = spoken_braces(*s);
	free(*s);
	*s = t;
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

	draft_braces(&ep->title);
	draft_braces(&ep->description);
	draft_braces(&ep->focus);
	for (i = 0; i < ep->nsegments; i++)
		draft_braces(&ep->segments[i].text);
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
	ep->words = text_word_count(ep->transcript);
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
	free(ep->repository_url);
	for (i = 0; i < ep->nsegments; i++) {
		links_free(ep->segments[i].sources,
		    ep->segments[i].nsources);
		free(ep->segments[i].kind);
		free(ep->segments[i].text);
		for (j = 0; j < ep->segments[i].ncommits; j++)
			free(ep->segments[i].commits[j]);
		free(ep->segments[i].commits);
	}
	free(ep->segments);
	free(ep->transcript);
	free(ep->focus);
	free(ep->headline);
	for (i = 0; i < ep->nmembers; i++)
		free(ep->members[i].repository);
	free(ep->members);
	for (i = 0; i < ep->nnearby; i++) {
		free(ep->nearby[i].date);
		free(ep->nearby[i].title);
	}
	free(ep->nearby);
	earlier_free(ep->work, ep->nwork);
	free(ep);
}
