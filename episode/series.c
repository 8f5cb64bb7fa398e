/*
 * Series and stacks: the parts of one series ("[3/15]", "(part 2/5)",
 * "Step 9") or of one ghstack stack that landed on a day are one story,
 * told once by its most significant part.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "classify.h"
#include "draft_int.h"
#include "phrase.h"
#include "spoken.h"
#include "text.h"
#include "xmalloc.h"

#define SERIES_STACK_GAP	600	/* seconds between landed stack parts */
#define SERIES_STACK_PRS	10	/* pull request numbers apart, at most */
#define SERIES_MAX_OTHERS	3	/* other parts said by what they did */

/* How a marker is written: the same series writes it the same way. */
enum series_form {
	SERIES_NONE,
	SERIES_BRACKET,		/* [3/15] */
	SERIES_PAREN,		/* (3/15) */
	SERIES_PART,		/* part 3 */
	SERIES_STEP,		/* step 3 */
};

/* A commit that may be part of a series or a stack. */
struct series_cand {
	struct draft_item	*it;
	enum series_form	 form;
	int			 part, total;
	char			*stem;	/* what, the marker taken out (new) */
	char			*key;	/* the stem normalized, for comparing */
	int			 ghstack;
	long			 pr;	/* its pull request, 0 unknown */
	long			*stack;	/* the PRs its "Stack from ghstack" lists */
	size_t			 nstack;
	size_t			 up;	/* union-find parent */
};

/* The union-find root of c[i], paths halved on the way. */
static size_t
series_root(struct series_cand *c, size_t i)
{
	while (c[i].up != i) {
		c[i].up = c[c[i].up].up;
		i = c[i].up;
	}
	return i;
}

static void
series_join(struct series_cand *c, size_t i, size_t j)
{
	i = series_root(c, i);
	j = series_root(c, j);
	/* the earlier one is the root: the grouping follows the data only */
	if (i < j)
		c[j].up = i;
	else if (j < i)
		c[i].up = j;
}

/*
 * The subject with its marker taken out and the brackets, comma or dash
 * around it, read as what ("Add X (part 1/2) (#5)" -> "Add X"); new.
 */
char *
series_stem(const char *subject, size_t at, size_t len)
{
	struct buf	 b;
	size_t		 s = at, e = at + len, n;
	char		*what;

	/* "(part 2)": the brackets around a word marker go too */
	if (s > 0 && e < strlen(subject) && ((subject[s - 1] == '(' &&
	    subject[e] == ')') || (subject[s - 1] == '[' &&
	    subject[e] == ']'))) {
		s--;
		e++;
	}
	while (s > 0 && subject[s - 1] == ' ')
		s--;
	if (s > 0 && (subject[s - 1] == ',' || subject[s - 1] == '-')) {
		s--;
		while (s > 0 && subject[s - 1] == ' ')
			s--;
	}
	while (subject[e] == ' ' || subject[e] == ':')
		e++;
	buf_init(&b);
	buf_append(&b, subject, s);
	if (s > 0 && subject[e] != '\0' && !(s == 1 && subject[0] == ' '))
		buf_putc(&b, ' ');
	buf_puts(&b, subject + e);
	what = classify_what(buf_str(&b));
	buf_free(&b);
	n = strlen(what);
	while (n > 0 && strchr(" ,:-", what[n - 1]) != NULL)
		what[--n] = '\0';
	return what;
}

/* Lowercase letters and digits of s, for comparing stems (new). */
static char *
series_key(const char *s)
{
	char	*k = xmalloc(strlen(s) + 1), *q = k;

	for (; *s != '\0'; s++) {
		if (isalnum((unsigned char)*s))
			*q++ = (char)tolower((unsigned char)*s);
	}
	*q = '\0';
	return k;
}

/* The pull request a commit landed: its "(#N)" suffix or "pull/N" trailer. */
static long
series_pr(const struct commit *c)
{
	const char	*p;
	size_t		 n;

	n = c->subject != NULL ? strlen(c->subject) : 0;
	if (n > 3 && c->subject[n - 1] == ')' &&
	    (p = strrchr(c->subject, '(')) != NULL && p[1] == '#')
		return strtol(p + 2, NULL, 10);
	if (c->body != NULL &&
	    (p = strstr(c->body, "Pull Request resolved: ")) != NULL &&
	    (p = strstr(p, "/pull/")) != NULL)
		return strtol(p + 6, NULL, 10);
	return 0;
}

/*
 * The pull requests a "Stack from ghstack" list names ("* #124", "* __->__
 * #123"), into c->stack (new).
 */
static void
series_stack_list(struct series_cand *c, const char *body)
{
	const char	*p, *eol;
	long		 n;

	if ((p = strstr(body, "Stack from ")) == NULL ||
	    (strncmp(p + 11, "[ghstack]", 9) != 0 &&
	    strncmp(p + 11, "ghstack", 7) != 0))
		return;
	for (p = strchr(p, '\n'); p != NULL && *p != '\0'; p = eol) {
		p++;
		eol = strchr(p, '\n');
		while (*p == ' ')
			p++;
		if (*p != '*' && *p != '-')
			break;
		for (; *p != '\0' && *p != '\n' && *p != '#'; p++)
			continue;
		if (*p != '#' || !isdigit((unsigned char)p[1]))
			continue;
		n = strtol(p + 1, NULL, 10);
		if ((c->nstack & (c->nstack - 1)) == 0)
			c->stack = xreallocarray(c->stack, c->nstack == 0 ? 1 :
			    c->nstack * 2, sizeof *c->stack);
		c->stack[c->nstack++] = n;
	}
}

/* Fill c for it; 0 when it has neither a marker nor a ghstack trailer. */
static int
series_cand_of(struct series_cand *c, struct draft_item *it)
{
	const char	*subject = it->cl.subject, *body = it->c->body;
	size_t		 at, len;

	memset(c, 0, sizeof *c);
	c->it = it;
	/* classify_commit read the marker's numbers: none, no marker */
	if (it->cl.series_part > 0 && classify_series_at(subject, &c->part,
	    &c->total, &at, &len)) {
		if (subject[at] == '[')
			c->form = SERIES_BRACKET;
		else if (subject[at] == '(')
			c->form = SERIES_PAREN;
		else
			c->form = tolower((unsigned char)subject[at]) == 'p' ?
			    SERIES_PART : SERIES_STEP;
		c->stem = series_stem(subject, at, len);
		c->key = series_key(c->stem);
	}
	if (body != NULL && strstr(body, "ghstack") != NULL &&
	    (strstr(body, "ghstack-source-id:") != NULL ||
	    strstr(body, "Stack from [ghstack]") != NULL ||
	    strstr(body, "Stack from ghstack") != NULL)) {
		c->ghstack = 1;
		series_stack_list(c, body);
	}
	if (c->form == SERIES_NONE && !c->ghstack)
		return 0;
	c->pr = series_pr(it->c);
	return 1;
}

static void
series_cand_free(struct series_cand *c)
{
	free(c->stem);
	free(c->key);
	free(c->stack);
}

/* Orders for the rules; every one ends in arrival, so ties are stable. */
static int
series_cmp_name(const struct series_cand *x, const struct series_cand *y)
{
	return strcmp(x->it->name, y->it->name);
}

static int
series_cmp_arrival(const struct series_cand *x, const struct series_cand *y)
{
	return x->it->idx < y->it->idx ? -1 : x->it->idx > y->it->idx;
}

/* By author, marker form and total. */
static int
series_cmp_total(const void *a, const void *b)
{
	const struct series_cand *x = *(struct series_cand *const *)a;
	const struct series_cand *y = *(struct series_cand *const *)b;
	int	c;

	if ((c = series_cmp_name(x, y)) != 0)
		return c;
	if (x->form != y->form)
		return x->form < y->form ? -1 : 1;
	if (x->total != y->total)
		return x->total < y->total ? -1 : 1;
	return series_cmp_arrival(x, y);
}

/* By author and stem. */
static int
series_cmp_stem(const void *a, const void *b)
{
	const struct series_cand *x = *(struct series_cand *const *)a;
	const struct series_cand *y = *(struct series_cand *const *)b;
	int	c;

	if ((c = series_cmp_name(x, y)) != 0)
		return c;
	if ((c = strcmp(x->key != NULL ? x->key : "",
	    y->key != NULL ? y->key : "")) != 0)
		return c;
	return series_cmp_arrival(x, y);
}

/* By author, then arrival. */
static int
series_cmp_run(const void *a, const void *b)
{
	const struct series_cand *x = *(struct series_cand *const *)a;
	const struct series_cand *y = *(struct series_cand *const *)b;
	int	c;

	if ((c = series_cmp_name(x, y)) != 0)
		return c;
	return series_cmp_arrival(x, y);
}

/* By author, then pull request: the order bsearch looks a PR up in. */
static int
series_cmp_pr_only(const void *a, const void *b)
{
	const struct series_cand *x = *(struct series_cand *const *)a;
	const struct series_cand *y = *(struct series_cand *const *)b;
	int	c;

	if ((c = series_cmp_name(x, y)) != 0)
		return c;
	return x->pr < y->pr ? -1 : x->pr > y->pr;
}

/* By author, then pull request. */
static int
series_cmp_pr(const void *a, const void *b)
{
	const struct series_cand *x = *(struct series_cand *const *)a;
	const struct series_cand *y = *(struct series_cand *const *)b;
	int	c;

	if ((c = series_cmp_name(x, y)) != 0)
		return c;
	if (x->pr != y->pr)
		return x->pr < y->pr ? -1 : 1;
	return series_cmp_arrival(x, y);
}

/*
 * The rules that join two commits of one author into one story:
 *
 *	same total	the same marker form and total: [2/5] and [4/5]
 *	same stem	a marker each and the same subject around it ("docs,
 *			part 5" and "docs, part 6"), totals not differing
 *	numbered run	no total, the same form, parts n and n + 1 landing
 *			one after the other among the author's marked commits
 *	ghstack list	one's "Stack from ghstack" list names the other's PR
 *	ghstack run	ghstack commits landing within SERIES_STACK_GAP of
 *			each other, their PRs at most SERIES_STACK_PRS apart
 */
static void
series_rules(struct series_cand *c, size_t n)
{
	struct series_cand	**v, key, *kp, **hit;
	size_t			  i, j, k, m;
	int			  total;

	v = xcalloc(n + 1, sizeof *v);

	/* same total */
	for (i = m = 0; i < n; i++)
		if (c[i].total > 0)
			v[m++] = &c[i];
	qsort(v, m, sizeof *v, series_cmp_total);
	for (i = 1; i < m; i++)
		if (series_cmp_name(v[i], v[i - 1]) == 0 &&
		    v[i]->form == v[i - 1]->form &&
		    v[i]->total == v[i - 1]->total)
			series_join(c, (size_t)(v[i] - c),
			    (size_t)(v[i - 1] - c));

	/* same stem: with one total at most among them */
	for (i = m = 0; i < n; i++)
		if (c[i].key != NULL && c[i].key[0] != '\0')
			v[m++] = &c[i];
	qsort(v, m, sizeof *v, series_cmp_stem);
	for (i = 0; i < m; i = j) {
		total = 0;
		for (j = i + 1; j < m && series_cmp_name(v[j], v[i]) == 0 &&
		    strcmp(v[j]->key, v[i]->key) == 0; j++)
			continue;
		for (k = i; k < j; k++) {
			if (v[k]->total > 0 && total > 0 &&
			    v[k]->total != total)
				break;
			if (v[k]->total > 0)
				total = v[k]->total;
		}
		if (k < j)
			continue;
		for (k = i + 1; k < j; k++)
			series_join(c, (size_t)(v[k] - c), (size_t)(v[i] - c));
	}

	/* numbered run */
	for (i = m = 0; i < n; i++)
		if (c[i].form != SERIES_NONE)
			v[m++] = &c[i];
	qsort(v, m, sizeof *v, series_cmp_run);
	for (i = 1; i < m; i++)
		if (series_cmp_name(v[i], v[i - 1]) == 0 &&
		    v[i]->total == 0 && v[i - 1]->total == 0 &&
		    v[i]->form == v[i - 1]->form &&
		    v[i]->part == v[i - 1]->part + 1)
			series_join(c, (size_t)(v[i] - c),
			    (size_t)(v[i - 1] - c));

	/* ghstack list: each PR it names, looked up among the author's */
	for (i = m = 0; i < n; i++)
		if (c[i].ghstack && c[i].pr > 0)
			v[m++] = &c[i];
	qsort(v, m, sizeof *v, series_cmp_pr);
	for (i = 0; i < n; i++) {
		for (j = 0; j < c[i].nstack; j++) {
			memset(&key, 0, sizeof key);
			key.it = c[i].it;
			key.pr = c[i].stack[j];
			kp = &key;
			hit = bsearch(&kp, v, m, sizeof *v, series_cmp_pr_only);
			if (hit != NULL)
				series_join(c, i, (size_t)(*hit - c));
		}
	}

	/* ghstack run */
	for (i = m = 0; i < n; i++)
		if (c[i].ghstack)
			v[m++] = &c[i];
	qsort(v, m, sizeof *v, series_cmp_run);
	for (i = 1; i < m; i++) {
		const struct commit *x = v[i - 1]->it->c, *y = v[i]->it->c;

		if (series_cmp_name(v[i], v[i - 1]) == 0 &&
		    y->timestamp - x->timestamp <= SERIES_STACK_GAP &&
		    x->timestamp - y->timestamp <= SERIES_STACK_GAP &&
		    (v[i]->pr == 0 || v[i - 1]->pr == 0 ||
		    labs(v[i]->pr - v[i - 1]->pr) <= SERIES_STACK_PRS))
			series_join(c, (size_t)(v[i] - c),
			    (size_t)(v[i - 1] - c));
	}
	free(v);
}

/* Order candidates by their group's root, then arrival. */
static int
series_cmp_group(const void *a, const void *b)
{
	const struct series_cand *x = *(struct series_cand *const *)a;
	const struct series_cand *y = *(struct series_cand *const *)b;

	if (x->up != y->up)
		return x->up < y->up ? -1 : 1;
	return series_cmp_arrival(x, y);
}

/* Make the n candidates of v one story, told by the most significant. */
static void
series_story(struct series_cand **v, size_t n)
{
	struct draft_item	*lead;
	size_t			 i, k, best = 0;
	int			 total = -1, same = 1, marked = 0, last = 0;

	for (i = 1; i < n; i++)
		if (v[i]->it->cl.score > v[best]->it->cl.score)
			best = i;
	lead = v[best]->it;
	for (i = 0; i < n; i++) {
		if (v[i]->form != SERIES_NONE)
			marked = 1;
		if (v[i]->total > 0)
			total = total == -1 || total == v[i]->total ?
			    v[i]->total : 0;
		if (v[i]->key == NULL || v[i]->key[0] == '\0' ||
		    strcmp(v[i]->key, v[0]->key) != 0)
			same = 0;
		if (v[i]->total > 0 && v[i]->part == v[i]->total)
			last = 1;
		/* a part is told by what it did, not by its marker */
		if (v[i]->stem != NULL && v[i]->stem[0] != '\0') {
			free(v[i]->it->cl.what);
			v[i]->it->cl.what = xstrdup(v[i]->stem);
		}
	}
	lead->parts = xcalloc(n, sizeof *lead->parts);
	for (i = k = 0; i < n; i++) {
		if (i == best)
			continue;
		lead->parts[k++] = v[i]->it;
		v[i]->it->lead = lead;
		v[i]->it->told = 1;
	}
	lead->nparts = k;
	lead->series_total = total > 0 ? total : 0;
	lead->series_stack = !marked;
	lead->series_stem = same;
	lead->series_last = last && total > 0;
	/* parts n..m in a row, for "parts four to six" */
	lead->series_from = lead->series_to = 0;
	for (i = 0; i < n && marked; i++) {
		if (v[i]->form == SERIES_NONE)
			break;
		if (i == 0 || v[i]->part < lead->series_from)
			lead->series_from = v[i]->part;
		if (i == 0 || v[i]->part > lead->series_to)
			lead->series_to = v[i]->part;
	}
	if (i < n || lead->series_to - lead->series_from + 1 != (int)n)
		lead->series_from = lead->series_to = 0;
	/* a story of several parts ranks a little above its best part */
	lead->cl.score += 0.25 * (double)(k < 4 ? k : 4);
}

/*
 * Group the day's series and stacks into stories: every rule's joins
 * (series_rules), then each group of two or more made one story. Bots'
 * commits, merges, reverts, re-lands and work reverted the same day are
 * told on their own.
 */
void
series_group(struct draft *d)
{
	struct series_cand	 *c, **v;
	size_t			  i, j, n = 0;

	c = xcalloc(d->nitems + 1, sizeof *c);
	for (i = 0; i < d->nitems; i++) {
		struct draft_item *it = &d->items[i];

		if (it->cl.bot || it->cl.merge ||
		    it->cl.kind == CLASSIFY_REVERT ||
		    it->cl.kind == CLASSIFY_RELAND ||
		    it->c->reverted_by_idx >= 0)
			continue;
		if (series_cand_of(&c[n], it)) {
			c[n].up = n;
			n++;
		} else
			series_cand_free(&c[n]);
	}
	series_rules(c, n);
	v = xcalloc(n + 1, sizeof *v);
	for (i = 0; i < n; i++) {
		c[i].up = series_root(c, i);
		v[i] = &c[i];
	}
	for (i = 0; i < n; i++)
		c[i].up = series_root(c, i);
	qsort(v, n, sizeof *v, series_cmp_group);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && v[j]->up == v[i]->up; j++)
			continue;
		if (j - i > 1)
			series_story(v + i, j - i);
	}
	for (i = 0; i < n; i++)
		series_cand_free(&c[i]);
	free(v);
	free(c);
}

/* Free what series_group gave the items. */
void
series_free(struct draft *d)
{
	size_t	i;

	for (i = 0; i < d->nitems; i++)
		free(d->items[i].parts);
}

/* "a five-part", "an eight-part": a series' size said. */
static void
series_sized(struct buf *b, int n)
{
	struct buf	s;

	buf_init(&s);
	spoken_number(&s, n);
	buf_printf(b, "%s %s-part", phrase_a(buf_str(&s)), buf_str(&s));
	buf_free(&s);
}

/*
 * How much of a story landed: "all five parts of a five-part series",
 * "both parts of a two-part series", "the last three parts of a
 * fifteen-part series", "three parts of a fifteen-part series", "parts
 * four to six of a series", "a stack of three changes".
 */
void
series_count(struct buf *b, const struct draft_item *it)
{
	int	n = (int)it->nparts + 1, t = it->series_total;

	if (it->series_stack) {
		buf_puts(b, "a stack of ");
		spoken_count(b, n, "change", "changes");
		return;
	}
	if (t > 0 && n == t) {
		if (n == 2)
			buf_puts(b, "both parts of a two-part series");
		else {
			buf_puts(b, "all ");
			spoken_number(b, n);
			buf_puts(b, " parts of ");
			series_sized(b, t);
			buf_puts(b, " series");
		}
		return;
	}
	if (t > 0 && it->series_last && it->series_to == t) {
		buf_puts(b, "the last ");
		spoken_number(b, n);
		buf_puts(b, " parts of ");
	} else if (t == 0 && it->series_from > 0) {
		buf_puts(b, "parts ");
		spoken_number(b, it->series_from);
		buf_puts(b, n == 2 ? " and " : " to ");
		spoken_number(b, it->series_to);
		buf_puts(b, " of ");
	} else {
		spoken_number(b, n);
		buf_puts(b, " parts of ");
	}
	if (t > 0) {
		series_sized(b, t);
		buf_puts(b, " series");
		if (it->series_last && it->series_to != t)
			buf_puts(b, ", the last one among them");
	} else
		buf_puts(b, "a series");
}

/*
 * A story told from its start: with a subject the parts share, "NAME
 * added X. That's three parts of a fifteen-part series."; else "NAME
 * landed all five parts of a five-part series in AREA. The main one
 * fixed X." lead goes before the first sentence. 0 when it is no story.
 */
int
series_tell(struct buf *b, const struct draft_item *it, const char *lead)
{
	struct buf	 s;
	size_t		 i;
	int		 area = 1;

	if (it->nparts == 0)
		return 0;
	if (it->series_stem) {
		tell_did_sentence(b, it, lead);
		phrase_space(b);
		buf_puts(b, "That's ");
		series_count(b, it);
		buf_putc(b, '.');
		return 1;
	}
	buf_init(&s);
	if (lead != NULL)
		buf_puts(&s, lead);
	buf_printf(&s, "%s landed ", it->name);
	series_count(&s, it);
	/* the area all its parts name */
	if (it->cl.area == NULL || !it->cl.area_titled)
		area = 0;
	for (i = 0; i < it->nparts && area; i++)
		if (it->parts[i]->cl.area == NULL ||
		    !it->parts[i]->cl.area_titled ||
		    strcmp(it->parts[i]->cl.area, it->cl.area) != 0)
			area = 0;
	if (area)
		buf_printf(&s, " in %s", it->cl.area);
	phrase_space(b);
	if (lead != NULL)
		phrase_cap(b, buf_str(&s));
	else
		buf_puts(b, buf_str(&s));
	buf_puts(b, ". ");
	buf_puts(b, "The main one ");
	tell_did(b, it, 0);
	phrase_sentence_end(b);
	buf_free(&s);
	return 1;
}

/*
 * What a story's other parts did, when they share no subject: "The other
 * part added X." or "Of the other parts, one added X, one fixed Y and one
 * dropped Z. Two more came with them.": the most significant few, said
 * in the order they landed.
 */
/*
 * A change told with the one of the day it names, after the first one
 * told: "Later the same day, Bob Ross fixed what it broke: ..." or
 * "As a follow-up, Bob Ross ..."; told first, the fix says what it
 * fixed: "It fixes Alice Liddell's change to add X from earlier in the
 * day."
 */
static void
series_follow(struct buf *b, struct draft_item *it)
{
	struct draft_item	*f = it->after, *o = it->follows;

	if (f != NULL && !f->told) {
		phrase_space(b);
		tell_did_sentence(b, f, f->follow_fix ? "It needed a fix the "
		    "same day: " : "As a follow-up, ");
		f->told = 1;
	} else if (o != NULL && !o->told) {
		phrase_space(b);
		buf_puts(b, it->follow_fix ? "It fixes " : "It follows up on ");
		if (o->cl.bot)
			buf_puts(b, "an automated change");
		else
			buf_printf(b, "%s's change", o->name);
		if (phrase_verbal(o->cl.what)) {
			buf_puts(b, " to ");
			phrase_lower_first(b, o->cl.what);
		} else if (o->cl.what[0] != '\0')
			buf_printf(b, ", \"%s\",", o->cl.what);
		buf_puts(b, " from earlier the same day.");
		o->told = 1;
	}
}

void
series_others(struct buf *b, struct draft_item *it)
{
	struct draft_item	**v;
	size_t			  i, j, n;

	series_follow(b, it);
	if (it->nparts == 0 || it->series_stem)
		return;
	n = it->nparts < SERIES_MAX_OTHERS ? it->nparts : SERIES_MAX_OTHERS;
	v = xcalloc(it->nparts + 1, sizeof *v);
	memcpy(v, it->parts, it->nparts * sizeof *v);
	qsort(v, it->nparts, sizeof *v, select_cmp_score);
	qsort(v, n, sizeof *v, select_cmp_idx);
	phrase_space(b);
	if (it->nparts == 1) {
		buf_puts(b, it->series_stack ? "The other change " :
		    "The other part ");
		tell_did(b, v[0], 0);
	} else {
		buf_puts(b, it->series_stack ? "Of the other changes, " :
		    "Of the other parts, ");
		for (i = 0; i < n; i++) {
			if (i > 0)
				buf_puts(b, i == n - 1 ? " and " : ", ");
			buf_puts(b, "one ");
			tell_did(b, v[i], 0);
		}
	}
	phrase_sentence_end(b);
	if ((j = it->nparts - n) > 0) {
		phrase_space(b);
		spoken_count_cap(b, (long long)j, "more came", "more came");
		buf_puts(b, " with them.");
	}
	free(v);
}

/*
 * A story said in a list of chores, after what its top part did: ", in
 * three parts" when the parts share a subject, else ", with two more
 * parts of the series" or ", with two more changes from the same stack";
 * a part that landed alone says which it is (", part three of a series"),
 * since its subject's marker ("[3/x] docs update") is not said.
 */
void
series_chore(struct buf *b, struct draft_item *it)
{
	if (it->after != NULL && !it->after->told) {
		/* its fix or follow-up, said in the same line */
		buf_printf(b, it->after->follow_fix ? ", which %s fixed later "
		    "the same day" : ", with a follow-up from %s",
		    it->after->name);
		it->after->told = 1;
	}
	if (it->nparts == 0) {
		if (it->lead != NULL || it->cl.series_part <= 0)
			return;
		if (it->cl.series_part == 1)
			buf_puts(b, ", the first part of ");
		else {
			buf_puts(b, ", part ");
			spoken_number(b, it->cl.series_part);
			buf_puts(b, " of ");
		}
		if (it->cl.series_total > 0) {
			series_sized(b, it->cl.series_total);
			buf_puts(b, " series");
		} else
			buf_puts(b, "a series");
		return;
	}
	if (it->series_stem) {
		buf_puts(b, ", in ");
		spoken_count(b, (long long)it->nparts + 1, "part", "parts");
		return;
	}
	buf_puts(b, ", with ");
	if (it->series_stack) {
		spoken_count(b, (long long)it->nparts, "more change",
		    "more changes");
		buf_puts(b, " from the same stack");
	} else {
		spoken_count(b, (long long)it->nparts, "more part",
		    "more parts");
		buf_puts(b, " of the series");
	}
}
