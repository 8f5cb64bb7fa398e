/*
 * The opening and the closing, drafted once the stories are told: the
 * opening greets, then says what kind of day it was from its top stories
 * (a release, a breaking change, the rollbacks, the one or two stories the
 * highlights lead with, or the upkeep), with a count or two in passing;
 * the closing says what the day held, never more, and signs off.
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "classify.h"
#include "draft_int.h"
#include "episode.h"
#include "phrase.h"
#include "quote.h"
#include "spoken.h"
#include "theme.h"
#include "xmalloc.h"

#define BOOKEND_TOP	2	/* stories an opening names */

/* What the day told, read once for the opening and the closing. */
struct bookend_day {
	struct draft_item	*rel;		/* the day's release, or NULL */
	char			*pkg, *ver;
	enum quote_break	 brk;		/* support dropped, minimum raised */
	char			*brk_what;
	struct draft_item	*brk_item;	/* the story that states it */
	struct draft_item	*first;		/* the top story told, or NULL */
	int			 first_led;	/* the opening led with it */
	char			*first_said;	/* its headline as said, or NULL */
	struct draft_item	*top[BOOKEND_TOP]; /* the top stories told */
	char			*said[BOOKEND_TOP]; /* that make a headline */
	size_t			 ntop;
	struct draft_item	*rollback;	/* the top story, a rollback */
	char			*rollback_said;	/* its work quoted, or NULL */
	size_t			 kinds[CLASSIFY_NKINDS]; /* stories told that
						    stood, by kind */
};

/* A kind as one change: "a fix", "a docs change". */
static const char *
bookend_kind_noun(enum classify_kind k)
{
	static const char *nouns[CLASSIFY_NKINDS] = {
		[CLASSIFY_REVERT] = "a revert",
		[CLASSIFY_RELAND] = "a re-land",
		[CLASSIFY_FEATURE] = "a new feature",
		[CLASSIFY_PERF] = "a speedup",
		[CLASSIFY_FIX] = "a fix",
		[CLASSIFY_DOCS] = "a docs change",
		[CLASSIFY_TESTS] = "a change to the tests",
		[CLASSIFY_BUILD] = "a build change",
		[CLASSIFY_DEPS] = "a dependency bump",
		[CLASSIFY_CLEANUP] = "a cleanup",
		[CLASSIFY_CHANGE] = "a change",
	};

	return nouns[k];
}

/* What upkeep of a kind was about, after "mostly". */
static const char *
bookend_upkeep(enum classify_kind k)
{
	static const char *about[CLASSIFY_NKINDS] = {
		[CLASSIFY_FIX] = "small fixes",
		[CLASSIFY_DOCS] = "the docs",
		[CLASSIFY_TESTS] = "the tests",
		[CLASSIFY_BUILD] = "the build and CI",
		[CLASSIFY_DEPS] = "dependency updates",
		[CLASSIFY_CLEANUP] = "tidying up",
		[CLASSIFY_CHANGE] = "small changes",
	};

	return about[k];
}

/*
 * Whether a story is one an opening names: a change, feature, speedup,
 * fix or re-land (ranked by select_cmp_rank), not upkeep.
 */
static int
bookend_story(const struct draft_item *it)
{
	switch (it->cl.kind) {
	case CLASSIFY_PERF:
	case CLASSIFY_FEATURE:
	case CLASSIFY_CHANGE:
	case CLASSIFY_FIX:
	case CLASSIFY_RELAND:
		return 1;
	default:
		return 0;
	}
}

/* Whether an item is a release, said as one and not as a story. */
static int
bookend_is_release(const struct draft_item *it)
{
	char	*pkg, *ver;

	if (!quote_release(it->cl.subject, &pkg, &ver))
		return 0;
	free(pkg);
	free(ver);
	return 1;
}


/*
 * Read the day: its release, a breaking change a story states, the stories
 * told that stood by kind, the top story and the first ones that make a
 * headline a voice can say. Releases are said as such, not as stories.
 */
static void
bookend_read(struct draft *d, struct bookend_day *bd)
{
	struct draft_item	**v, *it;
	enum quote_break	  k;
	struct buf		  b;
	char			 *what;
	size_t			  i, n = 0;

	memset(bd, 0, sizeof *bd);
	if (d->nitems == 0)
		return;
	bd->rel = title_release(d, &bd->pkg, &bd->ver);
	/* a rollback the day's ranking puts first leads, as in the title */
	if ((it = select_top(d)) != NULL && !it->cl.bot &&
	    select_rank(it) == SELECT_RANK_ROLLBACK) {
		bd->rollback = it;
		buf_init(&b);
		if (title_rollback_said(&b, it))
			bd->rollback_said = buf_steal(&b);
		buf_free(&b);
	}
	v = xcalloc(d->nitems + 1, sizeof *v);
	for (i = 0; i < d->nitems; i++) {
		it = &d->items[i];
		if (!title_story_ok(it) || !it->told)
			continue;
		bd->kinds[it->cl.kind]++;
		if (bookend_story(it) && !bookend_is_release(it) &&
		    it != bd->rollback)
			v[n++] = it;
		/* the cached kind first: most items break nothing */
		k = focus_breaking_of(it, NULL);
		if (k != QUOTE_BREAK_SUPPORT && k != QUOTE_BREAK_MINIMUM)
			continue;
		if (bd->brk != QUOTE_BREAK_NONE && k >= bd->brk)
			continue;
		k = focus_breaking_of(it, &what);
		if (what == NULL)
			continue;
		free(bd->brk_what);
		bd->brk = k, bd->brk_what = what, bd->brk_item = it;
	}
	/* the breaking change is said first, on its own: not again */
	if (bd->brk != QUOTE_BREAK_NONE) {
		size_t	j;

		for (i = j = 0; i < n; i++) {
			k = focus_breaking_of(v[i], NULL);
			if (k != QUOTE_BREAK_SUPPORT &&
			    k != QUOTE_BREAK_MINIMUM)
				v[j++] = v[i];
		}
		n = j;
	}
	/* the day's one ranking: the title's and the takeaway's */
	qsort(v, n, sizeof *v, select_cmp_rank);
	buf_init(&b);
	for (i = 0; i < n && bd->ntop < BOOKEND_TOP; i++) {
		buf_reset(&b);
		if (!title_said(&b, v[i]))
			continue;
		bd->top[bd->ntop] = v[i];
		bd->said[bd->ntop++] = xstrdup(buf_str(&b));
	}
	if (n > 0) {
		bd->first = v[0];
		if (bd->ntop > 0 && bd->top[0] == v[0])
			bd->first_said = bd->said[0];
	}
	buf_free(&b);
	free(v);
}

static void
bookend_clear(struct bookend_day *bd)
{
	size_t	i;

	free(bd->pkg);
	free(bd->ver);
	free(bd->brk_what);
	free(bd->rollback_said);
	for (i = 0; i < bd->ntop; i++)
		free(bd->said[i]);
}

/* "needs version 3.10 or newer": a minimum without its trailing '+'. */
static void
bookend_minimum(struct buf *b, const char *what)
{
	size_t	n = strlen(what);

	while (n > 0 && what[n - 1] == '+')
		n--;
	buf_printf(b, "%s%.*s or newer", what[0] >= '0' && what[0] <= '9' ?
	    "version " : "", (int)n, what);
}

/* "X, from NAME, and Y": the first stories with a headline (one: X's). */
static void
bookend_stories(struct buf *b, const struct bookend_day *bd, int one)
{
	buf_puts(b, bd->said[0]);
	if (!bd->top[0]->cl.bot)
		buf_printf(b, ", from %s", bd->top[0]->name);
	if (bd->ntop > 1 && !one)
		buf_printf(b, ", and %s", bd->said[1]);
}

/*
 * Whether b got what a story did, as its segment says it ("NAME added
 * X"): a verb of its own, short enough for an opening, with no quote to
 * break; not the change's kind and its words ("changed the build: X").
 */
static int
bookend_did(struct buf *b, const struct draft_item *it)
{
	const char	*p;
	size_t		 words = 0;

	if (tell_did_how(b, it, 1) != 0 || strchr(buf_str(b), '"') != NULL)
		return 0;
	for (p = buf_str(b); *p != '\0'; p++)
		words += *p == ' ';
	return words < 20;
}

/*
 * The top story, then (unless one) another: by headlines, the first that
 * make one; "a fix from NAME, in AREA" only when none does.
 */
static void
bookend_lead(struct buf *b, const struct bookend_day *bd, int one)
{
	const struct draft_item	*it = bd->first;
	const char		*area = it->cl.area, *p;
	struct buf		 did;
	char			*what;
	size_t			 i;

	/*
	 * the top story leads even when its subject makes no headline: said
	 * by its kind and area, then the next that makes one (issue #27)
	 */
	if (bd->first_said != NULL) {
		bookend_stories(b, bd, one);
		return;
	}
	/* its own words, reported, when they are short and plain enough */
	what = title_unmarked(it->cl.what);
	for (i = 0, p = what; *p != '\0'; p++)
		i += *p == ' ';
	buf_init(&did);
	/* (not a brace alternation: said as words, it breaks the quote) */
	if (i < 12 && strpbrk(what, "\"[]{}<>|\\") == NULL) {
		buf_printf(b, "%s's ", it->name);
		if (area != NULL && it->cl.area_titled &&
		    phrase_plain(area, strlen(area)) &&
		    !phrase_contains(it->cl.what, area))
			buf_printf(b, "%s ", area);
		buf_printf(b, "%s, \"%s\"", bookend_kind_noun(it->cl.kind) +
		    2, what);
	} else if (bookend_did(&did, it)) {
		/*
		 * the story itself, as the segment tells it ("Junegunn Choi
		 * added --{header,footer}-border=inline"), not its category:
		 * "a new feature from Junegunn Choi" told nothing (issue #27)
		 */
		buf_puts(b, buf_str(&did));
	} else {
		buf_printf(b, "%s from %s", bookend_kind_noun(it->cl.kind),
		    it->name);
		if (area != NULL && it->cl.area_titled &&
		    phrase_plain(area, strlen(area)))
			buf_printf(b, ", in %s", area);
	}
	free(what);
	buf_free(&did);
	if (bd->ntop > 0 && !one)
		buf_printf(b, ", and %s", bd->said[0]);
}

/* The day's upkeep, most told first: "the tests and the docs". */
static void
bookend_upkeep_list(struct buf *b, const struct draft *d,
    const struct bookend_day *bd)
{
	const char	*about[2];
	size_t		 best[2] = { 0, 0 }, n = 0, j;
	int		 k;
	enum classify_kind kind[2] = { CLASSIFY_CHANGE, CLASSIFY_CHANGE };

	for (k = 0; k < CLASSIFY_NKINDS; k++) {
		size_t c = bd->kinds[k];

		if (k == CLASSIFY_DEPS && d->bots && c == 0)
			c = 1;	/* the bots' bumps, told without a name */
		if (bookend_upkeep((enum classify_kind)k) == NULL || c == 0)
			continue;
		for (j = 0; j < 2; j++) {
			if (c > best[j]) {
				if (j == 0) {
					best[1] = best[0];
					kind[1] = kind[0];
				}
				best[j] = c;
				kind[j] = (enum classify_kind)k;
				break;
			}
		}
	}
	for (j = 0; j < 2; j++)
		if (best[j] > 0)
			about[n++] = bookend_upkeep(kind[j]);
	if (n == 0)
		about[n++] = bookend_upkeep(CLASSIFY_CHANGE);
	spoken_list(b, about, n);
}

/* The opening of a day of no commits: the pull requests merged, if any. */
static void
bookend_no_commits(struct buf *b, struct draft *d)
{
	const struct day_stats	*st = &d->ep->stats;
	const char		**titles;
	char			**owned;
	size_t			  i, n = 0;

	if (st->merged_prs == 0) {
		buf_puts(b, "It was a quiet day: no commits landed and no "
		    "pull requests were merged, so this one is short.");
		return;
	}
	titles = xcalloc(d->day->nprs + 1, sizeof *titles);
	owned = xcalloc(d->day->nprs + 1, sizeof *owned);
	buf_puts(b, "No commits reached us today, but ");
	spoken_count(b, (long long)st->merged_prs, "pull request was",
	    "pull requests were");
	buf_puts(b, " merged");
	d->nopening_prs = 0;
	for (i = 0; i < d->day->nprs && n < DRAFT_MAX_OPENING_PRS; i++) {
		if (d->day->prs[i].title == NULL)
			continue;
		owned[n] = classify_what(d->day->prs[i].title);
		titles[n] = owned[n];
		d->opening_prs[d->nopening_prs++] = i;
		n++;
	}
	if (n > 0) {
		buf_puts(b, ": ");
		spoken_list(b, titles, n);
	}
	buf_putc(b, '.');
	for (i = 0; i < n; i++)
		free(owned[i]);
	free(owned);
	free(titles);
}

/*
 * The hook after the greeting: what the day was about, led by what
 * matters most to a user (a release, a breaking change, a day of
 * rollbacks, the top stories, else the upkeep), then the rollbacks in
 * passing and one count.
 */
static void
bookend_hook(struct buf *b, struct draft *d, struct bookend_day *bd)
{
	static const char *release[] = {
		"Release day: %s is out.",
		"The big news first: %s is out.",
		"It's a release day, with %s out the door.",
	};
	static const char *lead[] = {
		"Top of the show: ",
		"Leading today: ",
		"The big story: ",
		"The headline today: ",
	};
	static const char *also[] = {
		"Also coming up: ",
		"Also on the show: ",
		"Plus: ",
	};
	const struct day_stats	*st = &d->ep->stats;
	struct buf		 name;
	const char		*people = d->bots ? "authors" : "people";
	int			 said_rollbacks = 0, said_stories = 0;

	if (bd->rel != NULL) {
		buf_init(&name);
		title_release_name(&name, d, bd->pkg, bd->ver);
		buf_printf(b, DRAFT_PICK(d, 21, release), buf_str(&name));
		buf_free(&name);
	} else if (bd->rollback != NULL && d->theme != DRAFT_THEME_ROLLBACK) {
		/* the title's story: "a rollback from NAME, of \"X\"" */
		buf_puts(b, DRAFT_PICK(d, 22, lead));
		buf_puts(b, bd->rollback->cl.kind == CLASSIFY_RELAND ?
		    "a re-land" : "a rollback");
		buf_printf(b, " from %s", bd->rollback->name);
		if (bd->rollback_said != NULL)
			buf_printf(b, ", of %s", bd->rollback_said);
		buf_putc(b, '.');
		if (st->reverts + st->relands == 1)
			said_rollbacks = 1;
		if (bd->brk == QUOTE_BREAK_SUPPORT)
			buf_printf(b, " Heads up: support for %s was dropped.",
			    bd->brk_what);
		else if (bd->brk == QUOTE_BREAK_MINIMUM) {
			buf_puts(b, " Heads up: the project now needs ");
			bookend_minimum(b, bd->brk_what);
			buf_putc(b, '.');
		}
	} else if (bd->brk == QUOTE_BREAK_SUPPORT)
		buf_printf(b, "Heads up first: support for %s was dropped.",
		    bd->brk_what);
	else if (bd->brk == QUOTE_BREAK_MINIMUM) {
		buf_puts(b, "Heads up first: the project now needs ");
		bookend_minimum(b, bd->brk_what);
		buf_putc(b, '.');
	} else if (d->theme == DRAFT_THEME_ROLLBACK) {
		if (st->reverts > 0) {
			buf_puts(b, "It was a day of back and forth: ");
			spoken_count(b, (long long)st->reverts,
			    "change was rolled back", "changes were rolled "
			    "back");
			if (st->relands > 0) {
				buf_puts(b, ", and ");
				spoken_count(b, (long long)st->relands,
				    "came back", "came back");
			}
		} else {
			buf_puts(b, "It was a day of second chances: ");
			spoken_count(b, (long long)st->relands,
			    "change that was rolled back came back",
			    "changes that were rolled back came back");
		}
		buf_putc(b, '.');
		said_rollbacks = 1;
	} else if (bd->first != NULL) {
		buf_puts(b, DRAFT_PICK(d, 22, lead));
		bookend_lead(b, bd, 0);
		bd->first_led = 1;
		buf_putc(b, '.');
		said_stories = 1;
	} else {
		buf_puts(b, "It was a day of upkeep, mostly ");
		bookend_upkeep_list(b, d, bd);
		buf_putc(b, '.');
	}
	if (!said_stories && bd->ntop > 0) {
		phrase_space(b);
		buf_puts(b, DRAFT_PICK(d, 23, also));
		bookend_stories(b, bd, 0);
		buf_putc(b, '.');
	}
	if (!said_rollbacks && st->reverts > 0) {
		phrase_space(b);
		spoken_count_cap(b, (long long)st->reverts, "change was",
		    "changes were");
		buf_puts(b, " rolled back along the way.");
		said_rollbacks = 1;
	}
	/*
	 * the day's counts in one sentence, whatever else the opening said
	 * (issue #27: no fact is lost for listening): the commits, the
	 * people, and the pull requests merged, or that none was
	 */
	phrase_space(b);
	buf_puts(b, "In all, ");
	spoken_count(b, (long long)st->commits, "commit", "commits");
	buf_puts(b, " landed from ");
	spoken_count(b, (long long)st->authors, "person", people);
	if (st->merged_prs == 0)
		buf_puts(b, ", and no pull request was merged");
	else {
		buf_puts(b, ", and ");
		spoken_count(b, (long long)st->merged_prs, "pull request was",
		    "pull requests were");
		buf_puts(b, " merged");
	}
	buf_putc(b, '.');
}

/*
 * The shas of what a bookend names: the release, and with stories the
 * breaking change and the top stories. Not by draft_shas_add: the work list orders commits by
 * the segment that told them, and the bookends only recall them.
 */
static void
bookend_shas(struct draft_shas *s, const struct bookend_day *bd, int stories)
{
	const struct draft_item	*v[BOOKEND_TOP + 4];
	size_t			 i, n = 0;

	if (bd->rel != NULL)
		v[n++] = bd->rel;
	else if (stories && bd->rollback != NULL)
		v[n++] = bd->rollback;
	if (stories && bd->brk_item != NULL)
		v[n++] = bd->brk_item;
	/* the top story first, said by its words when it makes no
	   headline and the opening leads with it */
	if (stories && bd->first_led && bd->first_said == NULL) {
		v[n++] = bd->first;
		/* (then bookend_lead says one headline, not two) */
		if (bd->ntop > 0)
			v[n++] = bd->top[0];
	} else {
		for (i = 0; stories && i < bd->ntop; i++)
			v[n++] = bd->top[i];
	}
	s->v = xcalloc(n + 1, sizeof *s->v);
	s->n = 0;
	for (i = 0; i < n; i++)
		if (v[i]->c->sha != NULL)
			s->v[s->n++] = xstrdup(v[i]->c->sha);
}

/*
 * The day's top story as one phrase, for a show of several repositories
 * to say after "in NAME, " (episode.headline), as the opening leads:
 * the release, else the rollback the title leads with, else support
 * dropped or a minimum raised, else the top story; none on a day of
 * upkeep.
 */
static void
bookend_headline(struct draft *d, const struct bookend_day *bd)
{
	const struct draft_item	*it;
	struct buf		 b;

	buf_init(&b);
	if ((it = bd->rel) != NULL) {
		title_release_name(&b, d, bd->pkg, bd->ver);
		buf_puts(&b, " is out");
	} else if ((it = bd->rollback) != NULL) {
		buf_printf(&b, "%s from %s", it->cl.kind == CLASSIFY_RELAND ?
		    "a re-land" : "a rollback", it->name);
		if (bd->rollback_said != NULL)
			buf_printf(&b, ", of %s", bd->rollback_said);
	} else if ((it = bd->brk_item) != NULL &&
	    bd->brk == QUOTE_BREAK_SUPPORT)
		buf_printf(&b, "support for %s was dropped", bd->brk_what);
	else if (it != NULL && bd->brk == QUOTE_BREAK_MINIMUM) {
		buf_puts(&b, "the project now needs ");
		bookend_minimum(&b, bd->brk_what);
	} else if ((it = bd->first) != NULL)
		bookend_lead(&b, bd, 1);
	if (it == NULL || b.len == 0) {
		buf_free(&b);
		return;
	}
	phrase_articles(&b, b.len);
	/* in the written form of the segments (draft_segment) */
	d->ep->headline = spoken_symbols(buf_str(&b));
	buf_free(&b);
	d->ep->headline_rank = select_rank(it) + 1;
}

static void
bookend_opening(struct draft *d, struct bookend_day *bd)
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
		"This is %s, and here is what moved in the %s repository on "
		    "%s.",
		"You're listening to %s. Let's walk through the day in the "
		    "%s repository, %s.",
		"Welcome back to %s, your daily look at the %s repository. "
		    "It's %s; let's get into it.",
		"Hello, and thanks for tuning in to %s. Here's the day in "
		    "the %s repository for %s.",
	};
	const struct day_stats	*st = &d->ep->stats;
	struct draft_shas	 shas;
	struct buf		 b;
	size_t			 n;

	buf_init(&b);
	/* a show never opens the same way twice in a week */
	buf_printf(&b, DRAFT_ROTATE(d, 0, greet), d->ep->show, d->repo,
	    d->datestr);
	phrase_space(&b);
	if (d->nitems == 0)
		bookend_no_commits(&b, d);
	else if (d->nitems == 1) {
		buf_puts(&b, "It was a quiet one: a single ");
		if (d->items[0].cl.bot)
			buf_printf(&b, "automated commit, %s",
			    bookend_kind_noun(d->items[0].cl.kind));
		else
			buf_printf(&b, "commit, %s from %s",
			    bookend_kind_noun(d->items[0].cl.kind),
			    d->items[0].name);
		if (st->merged_prs > 0) {
			buf_puts(&b, ", and ");
			spoken_count(&b, (long long)st->merged_prs,
			    "merged pull request", "merged pull requests");
		} else
			buf_puts(&b, ", and no pull request was merged");
		buf_putc(&b, '.');
	} else
		bookend_hook(&b, d, bd);
	theme_sentence(&b, d);	/* what several changes share, once */
	/* the stories' own words: "a" or "an" by their sound */
	n = strcspn(buf_str(&b), ".") + 1;
	phrase_articles(&b, n < b.len ? n : b.len);
	bookend_shas(&shas, bd, 1);
	draft_segment_first(d, "opening", &b, &shas);
}

/* Whether the episode has a segment of the kind so far. */
static int
bookend_has(const struct draft *d, const char *kind)
{
	size_t	i;

	for (i = 0; i < d->ep->nsegments; i++) {
		if (strcmp(d->ep->segments[i].kind, kind) == 0)
			return 1;
	}
	return 0;
}

/*
 * Whether a Focus or takeaway segment told the item: the closing that
 * follows it then says something else (ao 2026-03-24 said its torch 2.11
 * minimum in the opening, the Focus and the closing, issue #27).
 */
static int
bookend_focus_told(const struct draft *d, const struct draft_item *it)
{
	const struct episode_segment	*seg;
	size_t				 i, j;

	if (it == NULL || it->c->sha == NULL)
		return 0;
	for (i = 0; i < d->ep->nsegments; i++) {
		seg = &d->ep->segments[i];
		if (strcmp(seg->kind, "focus") != 0 &&
		    strcmp(seg->kind, "takeaway") != 0)
			continue;
		for (j = 0; j < seg->ncommits; j++)
			if (strcmp(seg->commits[j], it->c->sha) == 0)
				return 1;
	}
	return 0;
}

/* A stock line, or nothing when the show has said it enough this week. */
static void
bookend_say(struct buf *b, const char *s)
{
	if (s != NULL)
		buf_puts(b, s);
}

/*
 * What the day held, in a sentence that claims no more than that. Each
 * line of it is a stock phrase (DRAFT_STOCK): one the show said on two
 * of the six days before gives way to another, or is left out.
 */
static void
bookend_verdict(struct buf *b, struct draft *d, const struct bookend_day *bd)
{
	static const char *quiet[] = {
		"Short and sweet today.",
		"Just the one change today.",
	};
	static const char *release[] = {
		"%s is out, so the release notes are worth a read before "
		    "you upgrade.",
		"With %s out, it's a good day to look at upgrading.",
	};
	static const char *breaking[] = {
		"If that breaking change touches your setup, now's the time "
		    "to plan for it.",
		"Check that breaking change against your setup before you "
		    "upgrade.",
	};
	static const char *back_forth[] = {
		"Some steps back today and some steps forward, which is how "
		    "a healthy project moves.",
		"A bit of back and forth today, and the work that stood "
		    "still moved things on.",
	};
	static const char *second[] = {
		"A day of second thoughts: backing a change out is part of "
		    "shipping it.",
		"A day of second thoughts, and that's part of shipping too.",
	};
	static const char *perf[] = {
		"A day spent making things faster.",
		"A day about speed.",
	};
	static const char *fixes[] = {
		"A day of fixes, and a steadier codebase for it.",
		"Bugs found and fixed: a good day's work.",
	};
	static const char *upkeep[CLASSIFY_NKINDS][2] = {
		[CLASSIFY_DOCS] = { "Good docs are a feature, too.",
		    "A day for the readers." },
		[CLASSIFY_TESTS] = { "A day for the test suite.",
		    "Quiet work on the tests, the kind that pays off later." },
		[CLASSIFY_BUILD] = { "Build and CI upkeep, the plumbing that "
		    "keeps everything flowing.", "A day for the plumbing." },
		[CLASSIFY_DEPS] = { "Dependencies kept fresh.",
		    "Dependencies kept fresh, and that's worth doing." },
		[CLASSIFY_CLEANUP] = { "Old code out, and a tidier tree for "
		    "it.", "Some tidying up, and a lighter codebase for it." },
	};
	static const char *steady[] = {
		"A steady day of changes.",
		"Steady work, all told.",
	};
	static const char *speedup[] = {
		"One speedup today, and every bit counts.",
	};
	static const char *fix1[] = {
		" today, and one less thing to trip over.",
	};
	static const char *fixn[] = {
		" today, and fewer things to trip over.",
	};
	struct buf		 name;
	struct draft_item	*top;
	enum classify_kind	 k;
	size_t			 nfix = bd->kinds[CLASSIFY_FIX];
	const char		*s;

	if (d->nitems == 0) {
		buf_puts(b, "Nothing more to tell today.");
		return;
	}
	if (d->nitems == 1) {
		bookend_say(b, DRAFT_STOCK(d, 11, quiet));
		return;
	}
	if (bd->rel != NULL) {
		buf_init(&name);
		title_release_name(&name, d, bd->pkg, bd->ver);
		if ((s = DRAFT_STOCK(d, 12, release)) != NULL)
			buf_printf(b, s, buf_str(&name));
		buf_free(&name);
		return;
	}
	/* (said once: the Focus that told it is the last word on it) */
	if (bd->brk != QUOTE_BREAK_NONE && !bookend_focus_told(d,
	    bd->brk_item)) {
		bookend_say(b, DRAFT_STOCK(d, 13, breaking));
		return;
	}
	if (d->theme == DRAFT_THEME_ROLLBACK) {
		bookend_say(b, bd->first != NULL ?
		    DRAFT_STOCK(d, 14, back_forth) : DRAFT_STOCK(d, 14, second));
		return;
	}
	/* the top story's kind, else the theme's: only work that stood */
	k = bd->first != NULL ? bd->first->cl.kind : d->theme_kind;
	if (k == CLASSIFY_FEATURE && bd->kinds[k] > 0) {
		/*
		 * What to do with it is the takeaway's, of the top story,
		 * said once: here when no Focus or takeaway said it ("go
		 * kick the tires" told nobody what to try)
		 */
		if (!bookend_has(d, "focus") && !bookend_has(d, "takeaway") &&
		    (top = focus_top(d)) != NULL) {
			focus_takeaway(d, b, top);
			return;
		}
		spoken_count_cap(b, (long long)bd->kinds[k], "new feature",
		    "new features");
		buf_puts(b, " today.");
	} else if (k == CLASSIFY_PERF && bd->kinds[k] > 1)
		bookend_say(b, DRAFT_STOCK(d, 15, perf));
	else if (k == CLASSIFY_PERF && bd->kinds[k] == 1)
		bookend_say(b, DRAFT_STOCK(d, 15, speedup));
	else if (k == CLASSIFY_FIX && nfix >= 3)
		bookend_say(b, DRAFT_STOCK(d, 15, fixes));
	else if (k == CLASSIFY_FIX && nfix > 0) {
		spoken_count_cap(b, (long long)nfix, "fix", "fixes");
		s = nfix == 1 ? DRAFT_STOCK(d, 15, fix1) :
		    DRAFT_STOCK(d, 15, fixn);
		buf_puts(b, s != NULL ? s : " today.");
	} else if (k < CLASSIFY_NKINDS && upkeep[k][0] != NULL &&
	    (bd->kinds[k] > 0 || (k == CLASSIFY_DEPS && d->bots)))
		bookend_say(b, DRAFT_STOCK(d, 16, upkeep[k]));
	else
		bookend_say(b, DRAFT_STOCK(d, 15, steady));
}

static void
bookend_closing(struct draft *d, const struct bookend_day *bd)
{
	/*
	 * The last sentence names the show and the date; it comes in turn,
	 * so a show never signs off the same way twice in a week.
	 */
	static const char *tail[] = {
		"Thanks for listening to %s on this %s, and I'll catch you "
		    "tomorrow.",
		"That's all from %s for %s, and I'll catch you tomorrow.",
		"Keep building, and I'll catch you tomorrow: this was %s for "
		    "%s.",
		"That wraps up %s for %s. See you next time.",
		"And that's %s for %s. Thanks for spending a few minutes "
		    "with us.",
		"This has been %s for %s. Until next time, happy hacking.",
		"You've been listening to %s for %s. Talk to you tomorrow.",
		"That's it for %s on %s. See you on the next one.",
	};
	struct draft_shas	 shas;
	struct buf		 b;

	buf_init(&b);
	bookend_verdict(&b, d, bd);
	if (b.len > 0)
		buf_putc(&b, ' ');
	buf_printf(&b, DRAFT_ROTATE(d, 3, tail), d->ep->show, d->datestr);
	bookend_shas(&shas, bd, 0);
	draft_segment(d, "closing", &b, &shas);
}

void
bookend_segments(struct draft *d)
{
	struct bookend_day	bd;

	bookend_read(d, &bd);
	bookend_closing(d, &bd);
	bookend_opening(d, &bd);
	bookend_headline(d, &bd);
	bookend_clear(&bd);
}
