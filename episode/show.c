/*
 * A show of several repositories (issue #30): the episodes of their days,
 * drafted each on its own, told as one. The story segments of every
 * repository go in one order: a repository's own order is kept (its
 * segments refer back to each other, "the change we heard about
 * earlier"), and across repositories the segment whose best story ranks
 * higher (episode_segment.rank, the drafter's one ranking) goes first. A
 * story says where it happened when the one before was elsewhere and its
 * text doesn't name the repository; a revert of another repository's
 * pull request of the day is told right after that pull request's story.
 * A repository with nothing but upkeep is a sentence, not a segment, and
 * what doesn't fit in SHOW_MINUTES is counted by repository at the end.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "draft_int.h"
#include "phrase.h"
#include "show.h"
#include "spoken.h"
#include "text.h"
#include "xmalloc.h"

/* A part of the show as it is being told. */
struct show_member {
	const struct show_part	*part;
	const char		*name;	/* the repository without its owner */
	size_t			 next;	/* its next segment to consider */
	size_t			 order;	/* its place among the parts */
	int			 quiet;
	size_t			 stories;
	size_t			 untold;
	unsigned char		*told;	/* by segment */
	/* by segment: the member and segment a rollback undoes, or -1 */
	long			*undoes_member;
	size_t			*undoes_seg;
};

struct show {
	const char		*name;
	const struct episode_opts *opts;
	struct episode		*ep;
	struct show_member	*m;	/* sorted by their top story */
	size_t			 nm;
	size_t			 budget;	/* words the stories may take */
	size_t			 para_cap;	/* stories told of a segment */
	size_t			 used;
	const struct show_member *last;	/* whose story was told last */
	uint32_t		 hash;
};

static int
show_cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Words as the duration counts them (an identifier, as its parts). */
static size_t
show_words(const char *s)
{
	return s != NULL ? spoken_said_words(s) : 0;
}

/* Whether a story segment of the part's episode. */
static int
show_story(const struct episode_segment *seg)
{
	return seg->rank > 0;
}

/*
 * Members by their top story (the headline's rank, a day with none
 * last), then the busier day, then the order given.
 */
static int
show_cmp_member(const void *a, const void *b)
{
	const struct show_member *x = a, *y = b;
	int	rx = x->part->ep->headline_rank, ry = y->part->ep->headline_rank;

	if (rx == 0)
		rx = EPISODE_RANK_CHORE + 1;
	if (ry == 0)
		ry = EPISODE_RANK_CHORE + 1;
	if (x->quiet != y->quiet)
		return x->quiet ? 1 : -1;
	if (rx != ry)
		return rx < ry ? -1 : 1;
	if (x->part->ep->stats.commits != y->part->ep->stats.commits)
		return x->part->ep->stats.commits >
		    y->part->ep->stats.commits ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Quiet: no story above upkeep. */
static int
show_quiet(const struct episode *ep)
{
	size_t	i;

	for (i = 0; i < ep->nsegments; i++)
		if (show_story(&ep->segments[i]) &&
		    ep->segments[i].rank < EPISODE_RANK_CHORE)
			return 0;
	return 1;
}

/*
 * Whether text's first sentence names the repository as a word of its
 * own ("Vite 8.1.1 is out" needs no "over in vite").
 */
static int
show_names(const char *text, const char *name)
{
	size_t		 n = strlen(name), len;
	const char	*p, *end;
	char		*first;
	int		 named = 0;

	if (n == 0)
		return 0;
	for (end = text; (end = strchr(end, '.')) != NULL; end++)
		if (end[1] == '\0' || end[1] == ' ' || end[1] == '\n')
			break;
	len = end != NULL ? (size_t)(end - text) : strlen(text);
	first = xstrndup(text, len);
	for (p = first; !named && (p = strcasestr(p, name)) != NULL; p++)
		named = (p == first || !isalnum((unsigned char)p[-1])) &&
		    !isalnum((unsigned char)p[n]);
	free(first);
	return named;
}

/*
 * A rollback segment's text without its opening stock line ("Let's start
 * with the one rollback of the day."): told after the story it undoes,
 * the show says where and what instead.
 */
static const char *
show_rollback_story(const char *text)
{
	const char	*end = strstr(text, ". ");
	const char	*p;
	size_t		 words = 0;

	if (end == NULL || memchr(text, '"', (size_t)(end - text)) != NULL)
		return text;
	for (p = text; p < end; p++)
		words += *p == ' ';
	if (words > 12 || (strcasestr(text, "roll") == NULL ||
	    strcasestr(text, "roll") > end))
		return text;
	return end + 2;
}

/*
 * Add a segment of kind with the text of b and (copied) the shas and the
 * sources of src, a segment of from's, each source naming from's
 * repository and its page: a show's links go to where each story
 * happened.
 */
static void
show_add(struct show *s, const char *kind, struct buf *b,
    const struct episode_segment *src, const struct episode *from, int rank)
{
	struct episode_segment	*seg;
	struct episode_source	*o;
	const struct episode_source *in;
	char			**v = NULL;
	size_t			  i, n = 0, was = s->ep->nsegments;

	if (src != NULL && src->ncommits > 0) {
		v = xcalloc(src->ncommits, sizeof *v);
		for (i = 0; i < src->ncommits; i++)
			v[n++] = xstrdup(src->commits[i]);
	}
	episode_add_segment(s->ep, kind, b, v, n);
	if (s->ep->nsegments == was)
		return;
	seg = &s->ep->segments[s->ep->nsegments - 1];
	seg->rank = rank;
	if (src == NULL || from == NULL || src->nsources == 0)
		return;
	seg->sources = xcalloc(src->nsources, sizeof *seg->sources);
	for (i = 0; i < src->nsources; i++) {
		in = &src->sources[i];
		o = &seg->sources[seg->nsources++];
		o->sha = in->sha != NULL ? xstrdup(in->sha) : NULL;
		o->pr = in->pr;
		o->title = xstrdup(in->title != NULL ? in->title : "");
		o->repository = xstrdup(from->repository);
		o->repository_url = from->repository_url != NULL ?
		    xstrdup(from->repository_url) : NULL;
	}
}

/* The people of every day, each once (by login, else by name). */
static size_t
show_people(const struct show *s)
{
	const struct day	*day;
	const char		**v;
	size_t			 i, j, n = 0, cap = 0, distinct;

	for (i = 0; i < s->nm; i++)
		cap += s->m[i].part->day->ncommits;
	v = xcalloc(cap + 1, sizeof *v);
	for (i = 0; i < s->nm; i++) {
		day = s->m[i].part->day;
		for (j = 0; j < day->ncommits; j++) {
			const struct commit *c = &day->commits[j];

			if (c->author_login != NULL && *c->author_login != '\0')
				v[n++] = c->author_login;
			else if (c->author_name != NULL)
				v[n++] = c->author_name;
		}
	}
	qsort(v, n, sizeof *v, show_cmp_str);
	for (i = distinct = 0; i < n; i++)
		if (i == 0 || strcmp(v[i], v[i - 1]) != 0)
			distinct++;
	free(v);
	return distinct;
}

/* "in vite, Vite 8.1.1 is out; in curl, X; and in htop, Y" */
static size_t
show_headlines(struct buf *b, const struct show *s)
{
	const struct show_member *v[SHOW_OPENING_TOP];
	size_t			 i, n = 0;

	for (i = 0; i < s->nm && n < SHOW_OPENING_TOP; i++)
		if (!s->m[i].quiet && s->m[i].part->ep->headline != NULL)
			v[n++] = &s->m[i];
	for (i = 0; i < n; i++) {
		if (i > 0)
			buf_puts(b, i + 1 == n ? "; and " : "; ");
		buf_printf(b, "in %s, %s", v[i]->name,
		    v[i]->part->ep->headline);
	}
	return n;
}

/* "four repositories", or of a show of one, its name */
static void
show_across(struct buf *b, const struct show *s)
{
	if (s->nm == 1)
		buf_puts(b, s->m[0].name);
	else
		spoken_count(b, (long long)s->nm, "repository",
		    "repositories");
}

static void
show_opening(struct show *s, const char *date)
{
	static const char *const greet[] = {
		"Welcome to %s, the day in %s, for %s.",
		"This is %s, with the news from %s on %s.",
		"Hello and welcome to %s: here is what moved in %s on %s.",
	};
	const struct day_stats	*st = &s->ep->stats;
	struct buf		 b, where;
	size_t			 n;

	buf_init(&b);
	buf_init(&where);
	show_across(&where, s);
	buf_printf(&b, greet[s->hash % (sizeof greet / sizeof greet[0])],
	    s->name, buf_str(&where), date);
	buf_puts(&b, " ");
	buf_reset(&where);
	if ((n = show_headlines(&where, s)) == 1)
		buf_printf(&b, "The top story: %s.", buf_str(&where));
	else if (n > 1)
		buf_printf(&b, "The top stories: %s.", buf_str(&where));
	else if (st->commits == 0 && st->merged_prs == 0) {
		/* a quiet day of the whole show: the quiet sentence names them */
		buf_puts(&b, "Nothing landed.");
		s->used += show_words(buf_str(&b));
		show_add(s, "opening", &b, NULL, NULL, 0);
		buf_free(&where);
		return;
	} else
		buf_puts(&b, "It was a day of upkeep across the board.");
	if (st->reverts > 0) {
		buf_puts(&b, " ");
		spoken_count_cap(&b, (long long)st->reverts, "change was",
		    "changes were");
		buf_puts(&b, " rolled back along the way.");
	}
	buf_puts(&b, " In all, ");
	spoken_count(&b, (long long)st->commits, "commit", "commits");
	buf_puts(&b, " landed from ");
	spoken_count(&b, (long long)st->authors, "author", "authors");
	if (st->merged_prs == 0)
		buf_puts(&b, ", and no pull request was merged.");
	else {
		buf_puts(&b, ", and ");
		spoken_count(&b, (long long)st->merged_prs, "pull request was",
		    "pull requests were");
		buf_puts(&b, " merged.");
	}
	buf_free(&where);
	s->used += show_words(buf_str(&b));
	show_add(s, "opening", &b, NULL, NULL, 0);
}

/* A story segment's commit, for finding the story a revert undoes. */
struct show_sha {
	const char	*sha;
	size_t		 member;
	size_t		 seg;
};

static int
show_cmp_sha(const void *a, const void *b)
{
	return strcasecmp(((const struct show_sha *)a)->sha,
	    ((const struct show_sha *)b)->sha);
}

/* The story segment of s that drew on sha, or NULL. */
static const struct show_sha *
show_sha_find(const struct show_sha *v, size_t n, const char *sha)
{
	struct show_sha	key;

	key.sha = sha;
	return n > 0 ? bsearch(&key, v, n, sizeof *v, show_cmp_sha) : NULL;
}

/* The member of the show whose repository is repo (any case), or -1. */
static long
show_member_named(const struct show *s, const char *repo, size_t len)
{
	size_t	i;

	for (i = 0; i < s->nm; i++)
		if (strlen(s->m[i].part->day->repo) == len &&
		    strncasecmp(s->m[i].part->day->repo, repo, len) == 0)
			return (long)i;
	return -1;
}

/*
 * The story segment (other than member m's) that a pull request named in
 * text as "owner/name#N" or ".../owner/name/pull/N" was told in: the
 * segment that drew on its merge commit. NULL when none.
 */
static const struct show_sha *
show_pr_named(const struct show *s, size_t m, const char *text,
    const struct show_sha *v, size_t nv)
{
	const struct show_sha	*hit;
	const struct day	*day;
	const char		*p, *q, *start;
	size_t			 j;
	long			 o, num;

	for (p = text; p != NULL && (p = strchr(p, '/')) != NULL; p++) {
		for (start = p; start > text && (isalnum((unsigned char)
		    start[-1]) || strchr("_.-", start[-1]) != NULL); start--)
			;
		for (q = p + 1; isalnum((unsigned char)*q) ||
		    (*q != '\0' && strchr("_.-", *q) != NULL); q++)
			;
		if (start == p || q == p + 1)
			continue;
		o = show_member_named(s, start, (size_t)(q - start));
		if (*q == '#')
			q++;
		else if (strncmp(q, "/pull/", 6) == 0)
			q += 6;
		else
			continue;
		if (o < 0 || (size_t)o == m || !isdigit((unsigned char)*q))
			continue;
		num = strtol(q, NULL, 10);
		day = s->m[o].part->day;
		for (j = 0; j < day->nprs; j++)
			if (day->prs[j].number == num &&
			    day->prs[j].merge_sha != NULL &&
			    (hit = show_sha_find(v, nv,
			    day->prs[j].merge_sha)) != NULL &&
			    hit->member == (size_t)o)
				return hit;
	}
	return NULL;
}

/*
 * Which story of another repository each rollback segment undoes, found
 * once: a revert names the commit it takes out, or the pull request
 * ("owner/name#N") it came from. Every story segment's commits are
 * sorted once, each revert's texts read once: a show of 500 busy
 * repositories matched each revert against every other segment, and
 * spent 89% of its drafting there (bench-draft --kind show).
 */
static void
show_links(struct show *s)
{
	const struct episode_segment	*seg;
	const struct show_sha		*hit;
	const struct commit		*c;
	struct show_sha			*v;
	size_t				 i, j, k, n = 0, cap = 0;
	long				 idx;

	for (i = 0; i < s->nm; i++)
		for (j = 0; j < s->m[i].part->ep->nsegments; j++)
			cap += s->m[i].part->ep->segments[j].ncommits;
	v = xcalloc(cap + 1, sizeof *v);
	for (i = 0; i < s->nm; i++)
		for (j = 0; j < s->m[i].part->ep->nsegments; j++) {
			seg = &s->m[i].part->ep->segments[j];
			if (!show_story(seg) || s->m[i].quiet)
				continue;
			for (k = 0; k < seg->ncommits; k++) {
				v[n].sha = seg->commits[k];
				v[n].member = i;
				v[n++].seg = j;
			}
		}
	qsort(v, n, sizeof *v, show_cmp_sha);
	for (i = 0; i < s->nm; i++) {
		for (j = 0; j < s->m[i].part->ep->nsegments; j++) {
			seg = &s->m[i].part->ep->segments[j];
			if (strcmp(seg->kind, "rollbacks") != 0)
				continue;
			for (k = 0; k < seg->ncommits &&
			    s->m[i].undoes_member[j] < 0; k++) {
				if ((idx = day_find_commit(s->m[i].part->day,
				    seg->commits[k])) < 0)
					continue;
				c = &s->m[i].part->day->commits[idx];
				/* (one paired in its own day undid its own) */
				if (!c->revert.is_revert || c->reverts_idx >= 0)
					continue;
				hit = c->revert.reverted_sha != NULL ?
				    show_sha_find(v, n, c->revert.reverted_sha) :
				    NULL;
				if (hit == NULL || hit->member == i)
					hit = show_pr_named(s, i, c->subject, v, n);
				if (hit == NULL)
					hit = show_pr_named(s, i, c->body, v, n);
				if (hit == NULL)
					hit = show_pr_named(s, i,
					    c->revert.reverted_pr, v, n);
				if (hit != NULL && hit->member != i) {
					s->m[i].undoes_member[j] =
					    (long)hit->member;
					s->m[i].undoes_seg[j] = hit->seg;
				}
			}
		}
	}
	free(v);
}

/* The paragraphs of text (stories, each), at most max. */
static size_t
show_paras(const char *text, size_t max)
{
	const char	*p;
	size_t		 n = 1;

	for (p = text; n < max && (p = strstr(p, "\n\n")) != NULL; p += 2)
		n++;
	return n;
}

/* The length of text's first n paragraphs. */
static size_t
show_paras_len(const char *text, size_t n)
{
	const char	*p = text;

	while (n-- > 0 && (p = strstr(p, "\n\n")) != NULL)
		if (n > 0)
			p += 2;
	return p != NULL ? (size_t)(p - text) : strlen(text);
}

/*
 * How many stories (paragraphs) of a segment are told: all when every
 * story segment fits the budget, else SHOW_SEGMENT_STORIES, so that a
 * show of many repositories tells the top stories of many rather than
 * every story of a few.
 */
static void
show_para_cap(struct show *s)
{
	const struct episode_segment	*seg;
	size_t				 i, j, w = 0;

	for (i = 0; i < s->nm; i++)
		for (j = 0; !s->m[i].quiet && j < s->m[i].part->ep->nsegments;
		    j++) {
			seg = &s->m[i].part->ep->segments[j];
			if (show_story(seg))
				w += show_words(seg->text) + 4;
		}
	s->para_cap = s->used + w <= s->budget ? SIZE_MAX :
	    SHOW_SEGMENT_STORIES;
}

#define NOVER	3	/* show_tell's ways over to a repository */

/*
 * Whether a way over ("Now to %s.") opens with the same word as text
 * ("Now to the one rollback of the day."): said twice in a row.
 */
static int
show_same_start(const char *over, const char *text)
{
	size_t	n = strcspn(over, " ,");

	return strncasecmp(over, text, n) == 0 &&
	    (text[n] == ' ' || text[n] == ',');
}

/* How a revert's segment opens on work its day does not hold (rollback.c). */
#define SHOW_EARLIER	"An earlier change, which "

/* Tell member m's segment i, saying where when it isn't plain. */
static void
show_tell(struct show *s, struct show_member *m, size_t i, const char *lead)
{
	static const char *const over[NOVER] = {
		"Over to %s.",
		"Now to %s.",
		"Next, to %s.",
	};
	const struct episode_segment	*seg = &m->part->ep->segments[i];
	const char			*text;
	char				*cut;
	struct buf			 b;
	size_t				 w, all, keep, k;

	buf_init(&b);
	text = lead != NULL ? show_rollback_story(seg->text) : seg->text;
	if (lead != NULL && strncmp(text, SHOW_EARLIER, strlen(SHOW_EARLIER)) ==
	    0) {
		/*
		 * right after the story it undoes, the revert's "An earlier
		 * change, which added X, was rolled back" is that story:
		 * said once, where it happened
		 */
		buf_printf(&b, "Over in %s, that same day, the change, which",
		    m->name);
		text += strlen(SHOW_EARLIER);
		lead = NULL;
	} else if (lead != NULL)
		buf_printf(&b, lead, m->name);
	else if (s->last != m && !show_names(seg->text, m->name)) {
		if (s->last == NULL)
			buf_printf(&b, "We start in %s.", m->name);
		else {
			/* not "Now to curl. Now to the one rollback ..." */
			k = (s->hash + s->ep->nsegments) % NOVER;
			while (show_same_start(over[k], text))
				k = (k + 1) % NOVER;
			buf_printf(&b, over[k], m->name);
		}
	}
	/* past the budget's share, a segment's first stories only */
	all = show_paras(text, SIZE_MAX);
	keep = all < s->para_cap ? all : s->para_cap;
	cut = xstrndup(text, show_paras_len(text, keep));
	w = show_words(buf_str(&b)) + show_words(cut);
	m->told[i] = 1;
	if (s->used + w > s->budget) {
		m->untold += all;
		buf_free(&b);
		free(cut);
		return;
	}
	if (b.len > 0)
		buf_putc(&b, ' ');
	buf_puts(&b, cut);
	free(cut);
	s->used += w;
	m->stories += keep;
	m->untold += all - keep;
	s->last = m;
	show_add(s, seg->kind, &b, seg, m->part->ep, seg->rank);
}

/* After o's segment k, the reverts of it in other repositories. */
static void
show_follow(struct show *s, const struct show_member *o, size_t k)
{
	struct show_member	*m;
	size_t			 i, j, oi = (size_t)(o - s->m);

	for (i = 0; i < s->nm; i++) {
		m = &s->m[i];
		for (j = 0; j < m->part->ep->nsegments; j++)
			if (!m->told[j] && m->undoes_member[j] == (long)oi &&
			    m->undoes_seg[j] == k)
				show_tell(s, m, j, "Over in %s, that change "
				    "was rolled back the same day.");
	}
}

/*
 * When m's segment j undoes a story of another repository not told
 * yet: that story now, the revert after it (show_follow). 1 if so.
 */
static int
show_before(struct show *s, struct show_member *m, size_t j)
{
	struct show_member	*o;
	size_t			 k;

	if (m->undoes_member[j] < 0)
		return 0;
	o = &s->m[m->undoes_member[j]];
	k = m->undoes_seg[j];
	if (o->told[k])
		return 0;
	show_tell(s, o, k, NULL);
	if (s->last == o)
		show_follow(s, o, k);
	return 1;
}

/* The next story segment of m not yet told, or (size_t)-1. */
static size_t
show_next(struct show_member *m)
{
	const struct episode *ep = m->part->ep;

	while (m->next < ep->nsegments && (m->told[m->next] ||
	    !show_story(&ep->segments[m->next])))
		m->next++;
	return m->next < ep->nsegments ? m->next : (size_t)-1;
}

static void
show_stories(struct show *s)
{
	struct show_member	*best, *m;
	size_t			 i, j, bj = 0;

	for (;;) {
		best = NULL;
		for (i = 0; i < s->nm; i++) {
			m = &s->m[i];
			if (m->quiet || (j = show_next(m)) == (size_t)-1)
				continue;
			if (best == NULL || m->part->ep->segments[j].rank <
			    best->part->ep->segments[bj].rank) {
				best = m;
				bj = j;
			}
		}
		if (best == NULL)
			break;
		/* a revert of another's story of the day goes after it */
		if (show_before(s, best, bj))
			continue;
		show_tell(s, best, bj, NULL);
		if (s->last == best)
			show_follow(s, best, bj);
	}
}

/* "A quiet day in audio: two commits of upkeep." into b */
static void
show_quiet_sentence(struct show *s, struct buf *qb)
{
	const struct show_member *v[SHOW_QUIET_NAMED];
	struct buf		 b;
	size_t			 i, n = 0, more = 0, commits = 0;

	buf_init(&b);
	for (i = 0; i < s->nm; i++) {
		if (!s->m[i].quiet)
			continue;
		if (n < SHOW_QUIET_NAMED)
			v[n++] = &s->m[i];
		else
			more++;
		commits += s->m[i].part->ep->stats.commits;
	}
	if (n == 0) {
		buf_free(&b);
		return;
	}
	if (more == 0) {
		for (i = 0; i < n; i++) {
			const struct day_stats *st = &v[i]->part->ep->stats;

			if (i > 0)
				buf_putc(&b, ' ');
			buf_printf(&b, "A quiet day in %s: ", v[i]->name);
			if (st->commits == 0)
				buf_puts(&b, "no commit landed");
			else {
				spoken_count(&b, (long long)st->commits,
				    "commit", "commits");
				buf_puts(&b, " of upkeep");
			}
			if (st->merged_prs > 0) {
				buf_puts(&b, ", and ");
				spoken_count(&b, (long long)st->merged_prs,
				    "pull request merged", "pull requests "
				    "merged");
			}
			buf_putc(&b, '.');
		}
	} else {
		buf_printf(&b, "Quiet days elsewhere: %s, %s, %s and ",
		    v[0]->name, v[1]->name, v[2]->name);
		spoken_count(&b, (long long)more, "other", "others");
		buf_puts(&b, ", with ");
		spoken_count(&b, (long long)commits, "commit", "commits");
		buf_puts(&b, " of upkeep between them.");
	}
	s->used += show_words(buf_str(&b));
	buf_puts(qb, buf_str(&b));
	buf_free(&b);
}

/*
 * "Today's Focus, from curl: Set X ..."; a takeaway "For curl: If you
 * pick up one change ...", unless its first sentence names the
 * repository.
 */
static void
show_focus_text(struct buf *b, const char *text, const char *name)
{
	static const char focus[] = "Today's Focus: ";

	if (strncmp(text, focus, sizeof focus - 1) == 0) {
		buf_printf(b, "Today's Focus, from %s: %s", name,
		    text + sizeof focus - 1);
		return;
	}
	if (!show_names(text, name))
		buf_printf(b, "For %s: ", name);
	buf_puts(b, text);
}

/*
 * Today's Focus of the top repository that has one (else its takeaway),
 * said with where it comes from, into b; the member whose it is.
 */
static const struct show_member *
show_focus(struct show *s, struct buf *b, const struct episode_segment **out)
{
	const struct episode_segment	*seg;
	const struct show_member	*m;
	size_t				 i, j, pass;

	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < s->nm; i++) {
			m = &s->m[i];
			for (j = 0; j < m->part->ep->nsegments; j++) {
				seg = &m->part->ep->segments[j];
				if (strcmp(seg->kind, pass == 0 ? "focus" :
				    "takeaway") != 0)
					continue;
				show_focus_text(b, seg->text, m->name);
				if (pass == 0 && m->part->ep->focus != NULL)
					s->ep->focus =
					    xstrdup(m->part->ep->focus);
				s->used += show_words(buf_str(b));
				*out = seg;
				return m;
			}
		}
	return NULL;
}

/*
 * "Left out for time: three stories from vision and one from audio.", or
 * past SHOW_QUIET_NAMED repositories "forty stories from thirty-eight
 * repositories, among them a, b and c."
 */
static void
show_untold(struct buf *b, const struct show *s)
{
	const struct show_member *v[SHOW_QUIET_NAMED];
	size_t			 i, n = 0, k = 0, all = 0;

	for (i = 0; i < s->nm; i++) {
		if (s->m[i].untold == 0)
			continue;
		if (k < SHOW_QUIET_NAMED)
			v[k++] = &s->m[i];
		n++;
		all += s->m[i].untold;
	}
	if (n == 0)
		return;
	buf_puts(b, "Left out for time: ");
	if (n > SHOW_QUIET_NAMED) {
		spoken_count(b, (long long)all, "story", "stories");
		buf_puts(b, " from ");
		spoken_count(b, (long long)n, "repository", "repositories");
		buf_puts(b, ", among them");
	}
	for (i = 0; i < k; i++) {
		buf_puts(b, i == 0 ? " " : i + 1 == k ? " and " : ", ");
		if (n <= SHOW_QUIET_NAMED) {
			if (i == 0)
				spoken_count(b, (long long)v[i]->untold,
				    "story", "stories");
			else
				spoken_number(b, (long long)v[i]->untold);
			buf_puts(b, " from ");
		}
		buf_puts(b, v[i]->name);
	}
	buf_puts(b, "; each repository's own episode tells them. ");
}

static void
show_closing(struct show *s, const char *date)
{
	struct buf	b;

	buf_init(&b);
	show_untold(&b, s);
	buf_puts(&b, "That's the day in ");
	show_across(&b, s);
	buf_printf(&b, " for %s, %s. Talk to you tomorrow.", s->name, date);
	show_add(s, "closing", &b, NULL, NULL, 0);
}

/* Each told repository, in the show's order, with its counts. */
static void
show_members(struct show *s)
{
	struct episode_member	*v;
	size_t			 i;

	v = xcalloc(s->nm + 1, sizeof *v);
	for (i = 0; i < s->nm; i++) {
		v[i].repository = xstrdup(s->m[i].part->day->repo);
		v[i].stats = s->m[i].part->ep->stats;
		v[i].stories = s->m[i].stories;
		v[i].untold = s->m[i].untold;
		v[i].quiet = s->m[i].quiet;
	}
	s->ep->members = v;
	s->ep->nmembers = s->nm;
}

/* The title: the top story's, with where when it doesn't say. */
static void
show_title(struct show *s)
{
	const struct show_member	*top = NULL;
	struct buf			 b;
	size_t				 i;

	for (i = 0; i < s->nm && top == NULL; i++)
		if (s->m[i].part->ep->title != NULL)
			top = &s->m[i];
	buf_init(&b);
	if (top == NULL)
		buf_puts(&b, "A Quiet Day");
	else {
		buf_puts(&b, top->part->ep->title);
		if (!show_names(top->part->ep->title, top->name))
			buf_printf(&b, ", in %s", top->name);
	}
	s->ep->title = buf_steal(&b);
	buf_init(&b);
	if (s->ep->stats.commits == 0)
		buf_puts(&b, "No commits");
	else
		spoken_count_cap(&b, (long long)s->ep->stats.commits,
		    "commit", "commits");
	buf_puts(&b, " across ");
	spoken_count(&b, (long long)s->nm, "repository", "repositories");
	buf_puts(&b, ": ");
	for (i = 0; i < s->nm; i++)
		buf_printf(&b, "%s%s", i == 0 ? "" : ", ", s->m[i].name);
	buf_putc(&b, '.');
	s->ep->description = buf_steal(&b);
}

static void
show_sum(struct show *s)
{
	struct day_stats	*st = &s->ep->stats;
	const struct episode	*ep;
	size_t			 i;

	for (i = 0; i < s->nm; i++) {
		ep = s->m[i].part->ep;
		st->commits += ep->stats.commits;
		st->merged_prs += ep->stats.merged_prs;
		st->reverts += ep->stats.reverts;
		st->relands += ep->stats.relands;
		st->pushes += ep->stats.pushes;
		st->force_pushes += ep->stats.force_pushes;
		if (s->ep->window_start == 0 ||
		    ep->window_start < s->ep->window_start)
			s->ep->window_start = ep->window_start;
		if (ep->window_end > s->ep->window_end)
			s->ep->window_end = ep->window_end;
	}
	st->authors = show_people(s);
}

struct episode *
show_draft(const char *name, const char *slug, const struct show_part *v,
    size_t n, const struct episode_opts *opts)
{
	const struct episode_segment *fseg = NULL;
	const struct show_member *fm;
	struct show	 s;
	struct episode	*ep;
	struct buf	 date, quiet, focus;
	double		 wpm;
	size_t		 i, k;
	int		 y, mo, md, all_quiet;

	memset(&s, 0, sizeof s);
	s.name = name != NULL && *name != '\0' ? name : "hookcast";
	s.opts = opts;
	s.ep = ep = xcalloc(1, sizeof *ep);
	ep->show = xstrdup(s.name);
	xasprintf(&ep->repository, "shows/%s", slug);
	s.m = xcalloc(n + 1, sizeof *s.m);
	/*
	 * a member with nothing landed is left out, unless none has any:
	 * a quiet day of the whole show (quiet_days = emit) names them all
	 */
	for (i = 0; i < n; i++)
		if (v[i].day->ncommits > 0 || v[i].day->nprs > 0)
			break;
	all_quiet = i == n;
	for (i = 0; i < n; i++) {
		if (!all_quiet && v[i].day->ncommits == 0 &&
		    v[i].day->nprs == 0)
			continue;
		s.m[s.nm].part = &v[i];
		s.m[s.nm].name = strchr(v[i].day->repo, '/') != NULL ?
		    strchr(v[i].day->repo, '/') + 1 : v[i].day->repo;
		s.m[s.nm].order = i;
		s.m[s.nm].quiet = show_quiet(v[i].ep);
		s.m[s.nm].told = xcalloc(v[i].ep->nsegments + 1, 1);
		s.m[s.nm].undoes_member = xcalloc(v[i].ep->nsegments + 1,
		    sizeof *s.m[s.nm].undoes_member);
		for (k = 0; k < v[i].ep->nsegments; k++)
			s.m[s.nm].undoes_member[k] = -1;
		s.m[s.nm].undoes_seg = xcalloc(v[i].ep->nsegments + 1,
		    sizeof *s.m[s.nm].undoes_seg);
		s.nm++;
	}
	qsort(s.m, s.nm, sizeof *s.m, show_cmp_member);
	show_links(&s);

	if (opts != NULL && opts->year > 0) {
		y = opts->year;
		mo = opts->month;
		md = opts->mday;
	} else if (s.nm > 0 && sscanf(s.m[0].part->ep->date, "%d-%d-%d", &y,
	    &mo, &md) == 3) {
		/* the first part's date */
	} else {
		y = 1970;
		mo = md = 1;
	}
	xasprintf(&ep->date, "%04d-%02d-%02d", y, mo, md);
	s.hash = draft_fnv(draft_fnv(0, ep->date), s.name);
	show_sum(&s);
	ep->published = opts != NULL && opts->published != 0 ?
	    opts->published : ep->window_end;
	wpm = opts != NULL && opts->words_per_minute > 0 ?
	    opts->words_per_minute : EPISODE_WORDS_PER_MINUTE;
	s.budget = (size_t)(wpm * SHOW_MINUTES);

	buf_init(&date);
	spoken_date(&date, y, mo, md);
	show_opening(&s, buf_str(&date));
	/* the quiet, the focus and the closing fit whatever the stories take */
	buf_init(&quiet);
	buf_init(&focus);
	show_quiet_sentence(&s, &quiet);
	fm = show_focus(&s, &focus, &fseg);
	s.used += SHOW_CLOSING_WORDS;
	show_para_cap(&s);
	show_stories(&s);
	show_add(&s, "quiet", &quiet, NULL, NULL, EPISODE_RANK_CHORE);
	if (fm != NULL)
		show_add(&s, fseg->kind, &focus, fseg, fm->part->ep, 0);
	else
		buf_free(&focus);
	show_closing(&s, buf_str(&date));
	buf_free(&date);
	show_title(&s);
	show_members(&s);
	episode_finish(ep, opts);
	for (i = 0; i < s.nm; i++) {
		free(s.m[i].told);
		free(s.m[i].undoes_member);
		free(s.m[i].undoes_seg);
	}
	free(s.m);
	return ep;
}
