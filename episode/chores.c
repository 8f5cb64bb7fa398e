/*
 * The housekeeping segment: cleanups, docs, tests, build and dependencies told per person, a batch of like chores said once, and bots' commits grouped by bot.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "classify.h"
#include "draft_int.h"
#include "phrase.h"
#include "text.h"
#include "spoken.h"
#include "theme.h"
#include "xmalloc.h"

/* Dependency bumps counted, not listed: three or more (two are said). */
#define CHORES_BUMPS	3

/* Words shared at the start of every what in v (their byte length). */
static size_t
chores_common_prefix(struct draft_item **v, size_t n)
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
chores_common_suffix(struct draft_item **v, size_t n, size_t prefix)
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

/* " to the build": what changes of a kind were to. */
static const char *
chores_kind_to(enum classify_kind k)
{
	switch (k) {
	case CLASSIFY_BUILD:
		return " to the build";
	case CLASSIFY_TESTS:
		return " to the tests";
	case CLASSIFY_DOCS:
		return " to the docs";
	case CLASSIFY_DEPS:
		return " to dependencies";
	default:
		return "";
	}
}

/*
 * Whether an item can be said only by its kind and its words ("changed
 * the build: yaml is poo"): two or more of one person are counted instead
 * ("made four more changes to the build").
 */
static int
chores_is_vague(const struct draft_item *it)
{
	struct buf	b;
	int		vague;

	if (it->told || it->nparts != 0)
		return 0;
	buf_init(&b);
	vague = tell_did_how(&b, it, 0);
	buf_free(&b);
	return vague;
}

/*
 * A batch of nb (three or more) sharing their first pre bytes, said once
 * with a list: "deleted deprecated X, Y and Z"; each of them told.
 */
static void
chores_batch(struct buf *ph, struct draft_item **batch, size_t nb, size_t pre)
{
	const char	**mids;
	char		**owned, *head;
	size_t		  j, suf;

	head = xstrndup(batch[0]->cl.what, pre);
	suf = chores_common_suffix(batch, nb, pre);
	phrase_past(ph, head);
	free(head);
	buf_putc(ph, ' ');
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
	spoken_list(ph, mids, nb);
	if (suf > 0) {
		const char *tail = batch[0]->cl.what +
		    strlen(batch[0]->cl.what) - suf;

		while (*tail == ' ')
			tail++;
		buf_printf(ph, "%s%s", strncmp(tail, "and ", 4) == 0 ?
		    ", " : " ", tail);
	}
	for (j = 0; j < nb; j++)
		free(owned[j]);
	free(owned);
	free(mids);
}

/*
 * what past the marks a subject may open with, which no voice says: an
 * emoji or a symbol ("🔧 update CI" is "update CI"), and spaces.
 */
static const char *
chores_unmarked(const char *what)
{
	const unsigned char	*p = (const unsigned char *)what;

	for (;;) {
		if (*p == ' ')
			p++;
		else if (p[0] == 0xf0 && p[1] != '\0' && p[2] != '\0' &&
		    p[3] != '\0')
			p += 4;		/* U+10000 on: emoji */
		else if (p[0] == 0xe2 && p[1] != '\0' && p[2] != '\0')
			p += 3;		/* U+2000 to U+2FFF: symbols */
		else if (p[0] == 0xef && p[1] == 0xb8 && p[2] == 0x8f)
			p += 3;		/* the emoji presentation selector */
		else
			return (const char *)p;
	}
}

/*
 * A run of CHORES_BUMPS or more dependency bumps among v[0..n), said in
 * ph as a count with what matters named ("bumped five GitHub Actions,
 * three of them to a new major version") and marked told; 0 (nothing
 * said) when there are fewer. Why: "bumped actions/upload-artifact from
 * 4.6.2 to 5.0.0, actions/download-artifact from 5.0.0 to 6.0.0, ..."
 * read five names and ten versions to a listener who keeps none of
 * them; the links keep the exact list.
 */
static int
chores_bumps(struct buf *ph, struct draft_item **v, size_t n)
{
	struct draft_item	**bumps;
	size_t			  i, nb = 0;

	bumps = xcalloc(n + 1, sizeof *bumps);
	for (i = 0; i < n; i++) {
		if (!v[i]->told && v[i]->nparts == 0 &&
		    v[i]->cl.kind == CLASSIFY_DEPS && theme_bump(v[i], NULL))
			bumps[nb++] = v[i];
	}
	if (nb < CHORES_BUMPS) {
		free(bumps);
		return 0;
	}
	buf_init(ph);
	theme_bumps_said(ph, bumps, nb);
	for (i = 0; i < nb; i++)
		bumps[i]->told = 1;
	free(bumps);
	return 1;
}

/*
 * One person's housekeeping of one kind: a batch sharing its first words
 * ("Delete deprecated X", "Delete deprecated Y") is said once with a list.
 */
static void
chores_person(struct buf *b, struct draft_item **v, size_t n)
{
	struct draft_item	**batch;
	const char		**phrases;
	size_t			  i, j, nb, pre, np = 0, w;
	size_t			  vague[CLASSIFY_NKINDS] = { 0 }, nvague = 0;
	char			 *vag;
	int			  split, k;
	struct buf		  s, ph;
	char			 *spoken;

	batch = xcalloc(n, sizeof *batch);
	phrases = xcalloc(n + CLASSIFY_NKINDS, sizeof *phrases);
	/*
	 * vague ones of different words (the same subject twice is one);
	 * each item read once, and compared only while there are fewer
	 * than two
	 */
	vag = xcalloc(n + 1, sizeof *vag);
	for (i = 0; i < n; i++)
		vag[i] = (char)chores_is_vague(v[i]);
	for (i = 0; i < n && nvague < 2; i++) {
		if (!vag[i])
			continue;
		for (j = 0; j < i && (!vag[j] ||
		    strcmp(v[j]->cl.what, v[i]->cl.what) != 0); j++)
			continue;
		nvague += j == i;
	}
	/* a run of dependency bumps, counted: "bumped five GitHub Actions" */
	if (chores_bumps(&ph, v, n)) {
		spoken = spoken_symbols(buf_str(&ph));
		buf_free(&ph);
		phrases[np++] = spoken;
	}
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
			    v[j]->cl.what[w] == '\0') && v[j]->nparts == 0)
				batch[nb++] = v[j];
		}
		if (nb < 3 && v[i]->nparts == 0) {
			/* else those sharing the verb: "bumped a, b and c" */
			w = phrase_first_word(v[i]->cl.what);
			nb = 0;
			for (j = i; j < n; j++) {
				if (!v[j]->told && strncmp(v[j]->cl.what,
				    v[i]->cl.what, w) == 0 &&
				    v[j]->cl.what[w] == ' ' && v[j]->nparts == 0)
					batch[nb++] = v[j];
			}
		}
		pre = nb >= 3 ? chores_common_prefix(batch, nb) : 0;
		if (nb >= 3 && pre > 0 && phrase_verbal(batch[0]->cl.what)) {
			chores_batch(&ph, batch, nb, pre);
		} else if (nvague >= 2 && vag[i]) {
			/* said with the others of its kind, counted */
			buf_free(&ph);
			vague[v[i]->cl.kind]++;
			v[i]->told = 1;
			continue;
		} else if (vag[i] && v[i]->cl.kind == CLASSIFY_DEPS) {
			/*
			 * words that name no dependency ("update CI, remove
			 * unsupported versions, clean up") are not said to
			 * have updated dependencies: they are quoted
			 */
			buf_printf(&ph, "landed a change titled \"%s\"",
			    chores_unmarked(v[i]->cl.what));
			v[i]->told = 1;
		} else {
			tell_did(&ph, v[i], 0);
			series_chore(&ph, v[i]);	/* a story of parts */
			v[i]->told = 1;
		}
		/* its tests and files said as words, before comparing */
		spoken = spoken_symbols(buf_str(&ph));
		buf_reset(&ph);
		buf_puts(&ph, spoken);
		free(spoken);
		/* two commits of the same subject are said once */
		for (j = 0; j < np && strcmp(phrases[j], buf_str(&ph)) != 0;
		    j++)
			continue;
		if (j < np)
			buf_free(&ph);
		else
			phrases[np++] = buf_steal(&ph);
	}
	/* "made four more changes to the build" */
	for (k = 0; k < CLASSIFY_NKINDS; k++) {
		if (vague[k] == 0)
			continue;
		buf_init(&ph);
		buf_puts(&ph, "made ");
		spoken_count(&ph, (long long)vague[k], np > 0 ? "more change" :
		    "change", np > 0 ? "more changes" : "changes");
		buf_puts(&ph, chores_kind_to((enum classify_kind)k));
		phrases[np++] = buf_steal(&ph);
	}
	/*
	 * a verb said once for a run of phrases that share it: "updated
	 * router to 2.0.0, body-parser to 2.0.1 and send to 1.1.0"
	 */
	for (i = 0; i < np && strstr(phrases[i], " and ") == NULL; i++)
		continue;
	split = np > 1 && i < np;	/* the first said on its own */
	for (i = np; i > (split ? 2u : 1u); i--) {
		size_t vl = phrase_first_word(phrases[i - 2]);

		if (vl > 0 && strncmp(phrases[i - 1], phrases[i - 2], vl) ==
		    0 && phrases[i - 1][vl] == ' ' && phrases[i - 2][vl] ==
		    ' ' && strstr(phrases[i - 1], " and ") == NULL) {
			char *t = xstrdup(phrases[i - 1] + vl + 1);

			free((char *)phrases[i - 1]);
			phrases[i - 1] = t;
		}
	}
	/* "A did x and y"; when a phrase has its own "and", two sentences */
	buf_init(&s);
	buf_printf(&s, "%s ", v[0]->name);
	if (!split)
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
	free(vag);
}

/* The thing a bot's dependency update names: "bump foo to 2" -> "foo to 2". */
static char *
chores_bumped(const char *what)
{
	static const char *const verbs[] = { "bump ", "bumps ", "update ",
	    "updates ", "upgrade ", "pin ", NULL };
	size_t	 i, n;
	char	*s;

	for (i = 0; verbs[i] != NULL; i++) {
		if (strncasecmp(what, verbs[i], strlen(verbs[i])) == 0) {
			what += strlen(verbs[i]);
			break;
		}
	}
	s = xstrdup(what);
	/* "update actions/cache digest to <sha>" lost its sha */
	n = strlen(s);
	if (n > 3 && strcmp(s + n - 3, " to") == 0)
		s[n - 3] = '\0';
	return s;
}

/*
 * The bots' commits v[0..n), told as what they did without a bot's name:
 * "The dependency bot bumped three dependencies: a, b and c." or "Four
 * automated updates came in as well, two of them dependency bumps."
 */
void
chores_bots(struct draft *d, struct buf *b, struct draft_shas *shas,
    struct draft_item **v, size_t n)
{
	const char	**whats;
	char		**owned;
	size_t		  i, deps = 0;

	whats = xcalloc(n, sizeof *whats);
	owned = xcalloc(n, sizeof *owned);
	for (i = 0; i < n; i++) {
		if (v[i]->cl.kind == CLASSIFY_DEPS) {
			owned[deps] = chores_bumped(v[i]->cl.what);
			whats[deps] = owned[deps];
			deps++;
		}
		v[i]->told = 1;
		draft_shas_add(d, shas, v[i]);
	}
	phrase_para(b);
	if (deps == n && deps >= CHORES_BUMPS) {
		/* counted, what matters named (chores_bumps) */
		buf_puts(b, "The dependency bot ");
		theme_bumps_said(b, v, n);
	} else if (deps == n) {
		buf_puts(b, "The dependency bot bumped ");
		spoken_count(b, (long long)deps, "dependency",
		    "dependencies");
		buf_puts(b, ": ");
		spoken_list(b, whats, deps);
	} else {
		spoken_count_cap(b, (long long)n, "automated update",
		    "automated updates");
		buf_puts(b, " came in as well");
		if (deps > 0) {
			buf_puts(b, ", ");
			spoken_count(b, (long long)deps,
			    "of them a dependency bump",
			    "of them dependency bumps");
		}
	}
	buf_putc(b, '.');
	for (i = 0; i < deps; i++)
		free(owned[i]);
	free(owned);
	free(whats);
}

/* The text between the first two single quotes of s: *at, its length. */
static size_t
chores_quoted(const char *s, const char **at)
{
	const char	*a, *e;

	if ((a = strchr(s, '\'')) == NULL ||
	    (e = strchr(a + 1, '\'')) == NULL)
		return 0;
	*at = a + 1;
	return (size_t)(e - a - 1);
}

/*
 * The branch a git merge of a branch took in, as its subject says it
 * ("line-editor" of "Merge branch 'line-editor'", "x" of "Merge
 * remote-tracking branch 'origin/x'"): *len bytes at what is returned,
 * or NULL for a merge of a tag or a commit.
 */
static const char *
chores_merged_branch(const char *subject, size_t *len)
{
	static const char	 branch[] = "Merge branch ";
	static const char	 remote[] = "Merge remote-tracking branch ";
	const char		*at, *slash;
	size_t			 n;
	int			 tracking;

	if (subject == NULL)
		return NULL;
	if (strncmp(subject, branch, sizeof branch - 1) == 0)
		tracking = 0;
	else if (strncmp(subject, remote, sizeof remote - 1) == 0)
		tracking = 1;
	else
		return NULL;
	if ((n = chores_quoted(subject, &at)) == 0)
		return NULL;
	if (tracking && (slash = memchr(at, '/', n)) != NULL) {
		n -= (size_t)(slash + 1 - at);
		at = slash + 1;
	}
	*len = n;
	return at;
}

/* A branch's name: n bytes at at, and where it was met (an item). */
struct chores_branch {
	const char	*at;
	size_t		 n;
	size_t		 idx;
};

static int
chores_branch_cmp(const void *a, const void *b)
{
	const struct chores_branch	*x = a, *y = b;
	int				 c;

	c = memcmp(x->at, y->at, x->n < y->n ? x->n : y->n);
	if (c == 0 && x->n != y->n)
		c = x->n < y->n ? -1 : 1;
	if (c == 0 && x->idx != y->idx)
		c = x->idx < y->idx ? -1 : 1;
	return c;
}

static int
chores_branch_idx_cmp(const void *a, const void *b)
{
	const struct chores_branch	*x = a, *y = b;

	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/*
 * The branches the day's merge button commits came from ("fasterit/
 * line-editor" of "Merge pull request #1933 from fasterit/line-editor"
 * is "line-editor"), sorted; *n of them (new array).
 */
static struct chores_branch *
chores_pr_branches(const struct draft *d, size_t *n)
{
	static const char	 prefix[] = "Merge pull request #";
	struct chores_branch	*v;
	const char		*s, *from, *q;
	size_t			 i;

	v = xcalloc(d->nitems + 1, sizeof *v);
	for (*n = i = 0; i < d->nitems; i++) {
		s = d->items[i].c->subject;
		if (s == NULL || strncmp(s, prefix, sizeof prefix - 1) != 0 ||
		    (from = strstr(s, " from ")) == NULL ||
		    (q = strchr(from + 6, '/')) == NULL)
			continue;
		q++;
		v[*n].at = q;
		v[*n].n = strcspn(q, " \t");
		v[(*n)++].idx = 0;
	}
	qsort(v, *n, sizeof *v, chores_branch_cmp);
	return v;
}

/* Whether the branch of n bytes at br is among prs[0..nprs). */
static int
chores_pr_branch(const struct chores_branch *prs, size_t nprs,
    const char *br, size_t n)
{
	struct chores_branch	key = { br, n, 0 };
	size_t			lo = 0, hi = nprs, mid;
	int			c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = memcmp(prs[mid].at, key.at, prs[mid].n < n ? prs[mid].n : n);
		if (c == 0 && prs[mid].n != n)
			c = prs[mid].n < n ? -1 : 1;
		if (c == 0)
			return 1;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* Whether it is a git merge of a branch still to be told. */
static int
chores_merge_left(const struct draft_item *it)
{
	return it->cl.merge && !it->told && !it->cl.bot;
}

/*
 * The day's git merges by people, linked so that telling one person's
 * merges walks theirs alone: each item's next merge by the same person
 * (by) and by the same person with the same what (same), SIZE_MAX at
 * the end; and per person, how many merges and whether they are known
 * to have merged fewer than two branches.
 */
struct chores_links {
	size_t		*by;		/* per item */
	size_t		*same;		/* per item */
	size_t		*who;		/* per item: the person's number */
	size_t		*count;		/* per person */
	unsigned char	*few;		/* per person: chores_branches said 0 */
};

/* A merge of the day, as chores_links_init sorts them. */
struct chores_merge {
	const char	*name;
	const char	*what;
	size_t		 idx;
};

/* Order by person, then by what (unless by_name alone), then by place. */
static int
chores_merge_cmp_by(const struct chores_merge *x, const struct chores_merge *y,
    int by_name)
{
	int	c;

	if ((c = strcmp(x->name, y->name)) != 0)
		return c;
	if (!by_name && (c = strcmp(x->what, y->what)) != 0)
		return c;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int
chores_merge_name_cmp(const void *a, const void *b)
{
	return chores_merge_cmp_by(a, b, 1);
}

static int
chores_merge_what_cmp(const void *a, const void *b)
{
	return chores_merge_cmp_by(a, b, 0);
}

/*
 * Link the day's merges that are no bot's (told or not: told is read as
 * the links are walked). Why: telling a person's merges looked at every
 * item of the day from theirs on, once per person and once per thing
 * they merged: a day of 100,000 merges by 10,000 people drafted in 19 s
 * (now 0.7 s), one of 120,000 by as many people in minutes.
 */
static void
chores_links_init(struct draft *d, struct chores_links *l)
{
	struct chores_merge	*v;
	size_t			 i, n = 0, people = 0;

	l->by = xreallocarray(NULL, d->nitems + 1, sizeof *l->by);
	l->same = xreallocarray(NULL, d->nitems + 1, sizeof *l->same);
	l->who = xreallocarray(NULL, d->nitems + 1, sizeof *l->who);
	v = xreallocarray(NULL, d->nitems + 1, sizeof *v);
	for (i = 0; i < d->nitems; i++) {
		l->by[i] = l->same[i] = l->who[i] = SIZE_MAX;
		if (!d->items[i].cl.merge || d->items[i].cl.bot)
			continue;
		v[n].name = d->items[i].name;
		v[n].what = d->items[i].cl.what;
		v[n++].idx = i;
	}
	qsort(v, n, sizeof *v, chores_merge_name_cmp);
	l->count = xcalloc(n + 1, sizeof *l->count);
	for (i = 0; i < n; i++) {
		if (i > 0 && strcmp(v[i].name, v[i - 1].name) == 0)
			l->by[v[i - 1].idx] = v[i].idx;
		else
			people++;
		l->who[v[i].idx] = people - 1;
		l->count[people - 1]++;
	}
	l->few = xcalloc(people + 1, 1);
	qsort(v, n, sizeof *v, chores_merge_what_cmp);
	for (i = 1; i < n; i++)
		if (strcmp(v[i].name, v[i - 1].name) == 0 &&
		    strcmp(v[i].what, v[i - 1].what) == 0)
			l->same[v[i - 1].idx] = v[i].idx;
	free(v);
}

static void
chores_links_free(struct chores_links *l)
{
	free(l->by);
	free(l->same);
	free(l->who);
	free(l->count);
	free(l->few);
}

/*
 * A person's merges of two or more branches in one sentence ("Daniel
 * Lange merged two branches, 'reuse-richstr-panel' and
 * 'print-time-format'."), the branches as the subjects name them, the
 * first few by name, in the order they came; 0 when the person merged
 * fewer than two. Their merges from first on are read through l.
 */
static int
chores_branches(struct draft *d, struct buf *b, struct draft_shas *shas,
    struct draft_item *first, const struct chores_links *l)
{
	struct chores_branch	*v;
	const char		*names[DRAFT_MAX_NAMED], *at;
	char			*owned[DRAFT_MAX_NAMED];
	size_t			 i, k, n, len, nv = 0, distinct = 0, named = 0;

	i = (size_t)(first - d->items);
	v = xcalloc(l->count[l->who[i]] + 1, sizeof *v);
	for (; i != SIZE_MAX; i = l->by[i]) {
		struct draft_item *it = &d->items[i];

		if (!chores_merge_left(it) ||
		    chores_merged_branch(it->c->subject, &len) == NULL ||
		    (n = chores_quoted(it->cl.what, &at)) == 0)
			continue;
		v[nv].at = at;
		v[nv].n = n;
		v[nv++].idx = i;
	}
	/* one of each branch, the first merge of it, in the day's order */
	qsort(v, nv, sizeof *v, chores_branch_cmp);
	for (i = 0; i < nv; i++)
		if (i == 0 || v[i].n != v[i - 1].n ||
		    memcmp(v[i].at, v[i - 1].at, v[i].n) != 0)
			v[distinct++] = v[i];
	if (distinct < 2) {
		free(v);
		return 0;
	}
	qsort(v, distinct, sizeof *v, chores_branch_idx_cmp);
	for (k = 0; k < distinct && named < DRAFT_MAX_NAMED; k++) {
		xasprintf(&owned[named], "'%.*s'", (int)v[k].n, v[k].at);
		names[named] = owned[named];
		named++;
	}
	free(v);
	for (i = (size_t)(first - d->items); i != SIZE_MAX; i = l->by[i]) {
		struct draft_item *it = &d->items[i];

		if (chores_merge_left(it) &&
		    chores_merged_branch(it->c->subject, &len) != NULL &&
		    chores_quoted(it->cl.what, &at) > 0) {
			it->told = 1;
			draft_shas_add(d, shas, it);
		}
	}
	phrase_para(b);
	buf_printf(b, "%s merged ", first->name);
	spoken_count(b, (long long)distinct, "branch", "branches");
	if (nv > distinct) {
		buf_puts(b, ", ");
		spoken_count(b, (long long)nv, "merge", "merges");
		buf_puts(b, " in all");
	}
	buf_puts(b, distinct > named ? ", among them " : ", ");
	spoken_list(b, names, named);
	phrase_sentence_end(b);
	for (k = 0; k < named; k++)
		free(owned[k]);
	return 1;
}

/*
 * Sentences of git merges told before the rest is only counted: a day of
 * many people's merges (a hundred thousand of them, a hundred thousand
 * sentences, some 200 MB of transcript) is bookkeeping a listener hears
 * as a count.
 */
#define CHORES_MERGES_SAID	8

/*
 * git's merges of a branch, bookkeeping. A merge of a branch a pull
 * request of the day came from is that pull request's work, told with
 * it, and is not said again. A person's merges of several branches are
 * said in one sentence; of one branch, once, with how many ("Thomas Adam
 * merged branch 'obsd-master' thirteen times."), so the day's count is
 * accounted for.
 */
static void
chores_merges(struct draft *d, struct buf *b, struct draft_shas *shas)
{
	struct chores_branch	*prs;
	struct chores_links	 l;
	const char		*br;
	size_t			 i, j, times, len, nprs, said = 0, rest = 0;

	prs = chores_pr_branches(d, &nprs);
	for (i = 0; i < d->nitems; i++) {
		struct draft_item *it = &d->items[i];

		if (chores_merge_left(it) &&
		    (br = chores_merged_branch(it->c->subject, &len)) != NULL &&
		    chores_pr_branch(prs, nprs, br, len)) {
			it->told = 1;
			draft_shas_add(d, shas, it);
		}
	}
	free(prs);
	chores_links_init(d, &l);
	for (i = 0; i < d->nitems; i++) {
		struct draft_item *it = &d->items[i];

		if (!chores_merge_left(it))
			continue;
		/* past a few sentences, the rest is counted, not told */
		if (said >= CHORES_MERGES_SAID) {
			it->told = 1;
			draft_shas_add(d, shas, it);
			rest++;
			continue;
		}
		said++;
		/*
		 * several branches by one person: one sentence for them all
		 * (once a person is found to have merged fewer than two,
		 * their later merges, fewer yet, are too)
		 */
		if (!l.few[l.who[i]] &&
		    chores_merged_branch(it->c->subject, &len) != NULL) {
			if (chores_branches(d, b, shas, it, &l))
				continue;
			l.few[l.who[i]] = 1;
		}
		times = 0;
		for (j = i; j != SIZE_MAX; j = l.same[j]) {
			struct draft_item *o = &d->items[j];

			if (chores_merge_left(o)) {
				o->told = 1;
				draft_shas_add(d, shas, o);
				times++;
			}
		}
		phrase_para(b);
		tell_did(b, it, 1);
		if (times == 2)
			buf_puts(b, " twice");
		else if (times > 2) {
			buf_putc(b, ' ');
			spoken_count(b, (long long)times, "time", "times");
		}
		phrase_sentence_end(b);
	}
	if (rest > 0) {
		phrase_para(b);
		buf_puts(b, rest == 1 ? "There was " : "There were ");
		spoken_count(b, (long long)rest, "more merge", "more merges");
		buf_puts(b, " besides");
		phrase_sentence_end(b);
	}
	chores_links_free(&l);
}

void
chores_segment(struct draft *d)
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
	size_t			 g, n, i, j, nm, people;

	buf_init(&b);
	for (g = 0; g < sizeof groups / sizeof groups[0]; g++) {
		const char *lead;

		v = select_items(d, &groups[g].kind, 1, &n);
		if (n == 0) {
			free(v);
			continue;
		}
		/* in arrival order, grouped by person */
		qsort(v, n, sizeof *v, select_cmp_idx);
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
				for (nm = 0, j = i; j < n; j++) {
					if (v[j]->told)
						continue;
					v[j]->told = 1;
					draft_shas_add(d, &shas, v[j]);
					mine[nm++] = v[j];
				}
				phrase_space(&b);
				spoken_count_cap(&b, (long long)nm,
				    "more change", "more changes");
				buf_puts(&b, " came from ");
				select_names(&b, mine, nm);
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
			chores_person(&b, mine, nm > DRAFT_MAX_CHORES ?
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

	/*
	 * bots, never named: what they did, said once for all of them
	 * ("The dependency bot bumped three dependencies").
	 */
	v = xcalloc(d->nitems + 1, sizeof *v);
	for (i = n = 0; i < d->nitems; i++)
		if (d->items[i].cl.bot && !d->items[i].told)
			v[n++] = &d->items[i];
	if (n > 0)
		chores_bots(d, &b, &shas, v, n);
	free(v);
	chores_merges(d, &b, &shas);
	draft_segment(d, "housekeeping", &b, &shas);
	if (d->ep->nsegments > 0 &&
	    strcmp(d->ep->segments[d->ep->nsegments - 1].kind,
	    "housekeeping") == 0)
		d->ep->segments[d->ep->nsegments - 1].rank = EPISODE_RANK_CHORE;
}
