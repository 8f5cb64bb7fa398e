/*
 * The daily drafter's insides, shared by its segment writers: the draft
 * being built and its items, and each file's entry points. Not for use
 * outside episode/ (the recap has its own state).
 */
#ifndef HOOKCAST_DRAFT_INT_H
#define HOOKCAST_DRAFT_INT_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "classify.h"
#include "day.h"
#include "episode.h"
#include "quote.h"

#define DRAFT_MAX_FIXES		4	/* fixes told one by one */
#define DRAFT_MAX_NAMED		4	/* names in a "from A, B and C" list */
#define DRAFT_MAX_ROLLBACKS	4	/* reverts (and re-lands) told one by one */
#define DRAFT_MAX_CHORES	8	/* one person's chores told in a group */
#define DRAFT_MAX_OPENING_PRS	3	/* PR titles a day of no commits says */

enum draft_theme {
	DRAFT_THEME_EMPTY,
	DRAFT_THEME_QUIET,
	DRAFT_THEME_ROLLBACK,
	DRAFT_THEME_KIND,	/* the dominant classify_kind */
};

/* A commit of the day as the drafter tells it. */
struct draft_item {
	const struct commit	*c;
	long			 idx;
	struct classify		 cl;
	char			*name;	/* as said aloud */
	int			 told;
	unsigned		 stamp;	/* the segment whose shas list it */
	int			 brk;	/* quote_breaking's kind + 1; 0 unread */
	/* a series or stack told as one story (series.c) */
	struct draft_item	*lead;	/* a part: the story's told item */
	struct draft_item	**parts; /* the story's other parts (new) */
	size_t			 nparts;
	int			 series_total;	/* their common total, or 0 */
	int			 series_from;	/* parts from..to in a row, */
	int			 series_to;	/* or 0 */
	int			 series_stack;	/* a stack: no markers */
	int			 series_stem;	/* the parts share a subject */
	int			 series_last;	/* the last part is among them */
	int			 named_first;	/* what's first word is a name:
						   an area of the day's */
	/* a change of the day naming another as its cause (links.c) */
	struct draft_item	*follows;	/* the change it names */
	struct draft_item	*after;		/* the one naming this one */
	int			 follow_fix;	/* it fixes what that broke */
	/* a release told with what ships in it (release.c) */
	struct draft_item	*shipped;	/* the release it ships in */
	struct draft_item	**ships;	/* what ships in it (new) */
	size_t			 nships;
};

/* The shas a segment draws on. */
struct draft_shas {
	char	**v;
	size_t	  n;
};

/* A daily episode being drafted. */
struct draft {
	const struct day	*day;
	const struct episode_opts *opts; /* may be NULL */
	struct episode		*ep;
	struct draft_item	*items;
	size_t			 nitems;
	uint32_t		 hash;
	uint32_t		 show_hash;	/* of the repository alone */
	long			 daynum;	/* the date told, days since 1970 */
	char			*repo;	/* "owner/name" as said */
	char			 datestr[64]; /* "April 4th, 2026" */
	enum draft_theme	 theme;
	enum classify_kind	 theme_kind;
	char			*theme_area;
	size_t			 kind_count[CLASSIFY_NKINDS];
	int			 bots;
	size_t			 nhighlights;
	unsigned		 stamp;	/* the segment being built, from 1 */
	/* the day's pull requests the opening named (indexes of day.prs) */
	size_t			 opening_prs[DRAFT_MAX_OPENING_PRS];
	size_t			 nopening_prs;
};

/* draft.c: the draft and its segments. */

/* FNV-1a of s after h (0 to start), to vary phrasing by the data. */
uint32_t	 draft_fnv(uint32_t h, const char *s);

/* One of n variants, chosen by the day and a salt. */
const char	*draft_pick(const struct draft *, unsigned salt,
		    const char *const *v, size_t n);
#define DRAFT_PICK(d, salt, v) draft_pick(d, salt, v, sizeof v / sizeof v[0])
/*
 * A stock phrase: one of n variants as draft_pick chooses, but none the
 * show said on two of the six days before (earlier_stock); NULL when
 * each was, and then the caller says nothing. Every stock line a daily
 * listener would notice comes through here.
 */
const char	*draft_stock(const struct draft *, unsigned salt,
		    const char *const *v, size_t n);
#define DRAFT_STOCK(d, salt, v) \
	draft_stock(d, salt, v, sizeof v / sizeof v[0])
/*
 * One of n variants in turn, day after day: a show's consecutive dates
 * get consecutive variants (from a place its repository picks), so with
 * n >= 7 none comes back within seven consecutive days.
 */
const char	*draft_rotate(const struct draft *, unsigned salt,
		    const char *const *v, size_t n);
#define DRAFT_ROTATE(d, salt, v) \
	draft_rotate(d, salt, v, sizeof v / sizeof v[0])
/*
 * An item's prose (cl.prose), read the first time it is asked for: the
 * drafter classifies with classify_commit_lazy, which reads the prose
 * only where the score needs it.
 */
const char	*draft_prose(const struct draft_item *);
/*
 * Add an item's sha to the list of the segment being built, once, and
 * those of its story's parts.
 */
void		 draft_shas_add(struct draft *, struct draft_shas *,
		    struct draft_item *);
/* Add a segment, taking the text and the shas; an empty text adds none. */
void		 draft_segment(struct draft *, const char *kind, struct buf *,
		    struct draft_shas *);
/* As draft_segment, the segment put before the others. */
void		 draft_segment_first(struct draft *, const char *kind,
		    struct buf *, struct draft_shas *);
/*
 * Whether a story segment (rollbacks, highlights, fixes, a release) is
 * told already: the stories go in the order of the day's ranking, and
 * only the first may open "First, ..." or "The headline change comes
 * first".
 */
int		 draft_told_story(const struct draft *);

/* links.c */

/*
 * Each segment's sources from its shas: the commit, then the day's
 * merged PR whose merge commit it is; the opening's the PRs it named.
 */
void		 links_sources(struct draft *);
/*
 * Join each change that names another of the day as what it fixes or
 * follows ("Introduced in #12961", "Fixes: <sha>", "Followup to #N") to
 * it, so that the two are told as one story.
 */
void		 links_follow(struct draft *);

/* select.c: ranking, grouping by author, the theme of the day. */

/* qsort order of items: significance, most first, then arrival. */
int		 select_cmp_score(const void *, const void *);
/* qsort order of items: arrival. */
int		 select_cmp_idx(const void *, const void *);
/*
 * Which story segment tells an item: 0 the release it ships in or that
 * gathered something (release.c), 1 the rollbacks (any revert or
 * re-land), 2 the highlights (a person's release, feature, speedup or
 * change), 3 the fixes; -1 the housekeeping and the bots, told after.
 */
int		 select_writer(const struct draft_item *);
/* Items of the given kinds not yet told, humans only and no branch
   merges, by select_cmp_rank (new array). */
struct draft_item **select_items(struct draft *, const enum classify_kind *,
		    size_t nkinds, size_t *n);
/*
 * Group v[0..n) by name (new array), names in order of first appearance;
 * *starts (new) each group's start and a final n, *ngroups their count.
 */
struct draft_item **select_runs(struct draft_item **v, size_t n,
		    size_t **starts, size_t *ngroups);
/*
 * Append the distinct names of items as a spoken list: bots left out, the
 * first DRAFT_MAX_NAMED people and "others" for the rest ("automated
 * jobs" when only bots made them).
 */
void		 select_names(struct buf *, struct draft_item **, size_t n);
/* Whether an item counts toward the theme. */
int		 select_in_theme(const struct draft *, const struct draft_item *);
/* Set the theme of the day, its kind and area, and the kind counts. */
void		 select_theme(struct draft *);

/* select_rank's ranks, what a user meets first (issue #27). */
enum select_rank {
	SELECT_RANK_RELEASE,	/* the project's own release */
	SELECT_RANK_ROLLBACK,	/* a revert or a re-land */
	SELECT_RANK_BEHAVIOUR,	/* a default, support, minimum or API */
	SELECT_RANK_FIX,	/* of a crash, hang, wrong result, leak or
				   security hole (classify's warning) */
	SELECT_RANK_FEATURE,
	SELECT_RANK_PERF,
	SELECT_RANK_SMALL_FIX,	/* a fix that names no such harm */
	SELECT_RANK_INTERNAL,	/* changes and cleanups */
	SELECT_RANK_CHORE,	/* tests, CI, docs, deps, bots, merges */
};
/* An item's rank by user impact: a select_rank, lower first. */
int		 select_rank(const struct draft_item *);
/* qsort order of items: select_rank, then significance, then arrival. */
int		 select_cmp_rank(const void *, const void *);
/*
 * Whether an item is a story the lead may be: not a branch merge, a part
 * of another's story, work rolled back the same day nor its revert.
 */
int		 select_leadable(const struct draft_item *);
/*
 * The day's top story by select_cmp_rank, or NULL: the one the title, the
 * opening's headline and the takeaway lead with. Not a branch merge, a
 * part of another's story, or work rolled back the same day; a revert
 * or a bot's change may be it (a day of nothing else).
 */
struct draft_item *select_top(struct draft *);

/* tell.c: one change told; the highlights, fixes and single segments. */

/* "in X, " before a sentence when the title named an area not in what. */
int		 tell_area_lead(struct buf *, const struct draft_item *);
/* "NAME fixed the X" (without NAME when with_name is 0). */
/*
 * tell_did, 1 when it could only say the change's kind and its words
 * ("changed the build: yaml is poo"), 0 when it said what it did.
 */
int		 tell_did_how(struct buf *, const struct draft_item *,
		    int with_name);
void		 tell_did(struct buf *, const struct draft_item *,
		    int with_name);
/* A sentence "In area, NAME added X." starting with a capital. */
void		 tell_did_sentence(struct buf *, const struct draft_item *,
		    const char *lead);
/*
 * What by the regular past tense of its first word, when the subject's
 * prefix makes what an imperative the verb table doesn't know ("fix:
 * escape ids" -> "escaped ids"; new), or NULL. A NULL subject counts
 * as prefixed (what was peeled from a revert wrapper).
 */
char		*tell_guess_past(const char *subject, const char *what);
/* A quiet day's one commit, told in full in the segment of its kind. */
void		 tell_single(struct draft *);
/* The highlights: features, speedups and changes, the top ones in full. */
void		 tell_highlights(struct draft *);
/* The fixes, the top ones told one by one. */
void		 tell_fixes(struct draft *);

/* rollback.c: the reverts and re-lands. */
void		 rollback_segment(struct draft *);
/*
 * The subject a revert wrapper quotes, peeled of its prefixes: 'fix:
 * revert, "fix: X (#1)"' -> "X" (new); NULL when subject is no wrapper.
 */
char		*rollback_peel(const char *subject);
/*
 * What an item did, as a later episode names it (new): for a revert or
 * re-land the work it names, else its own what.
 */
char		*rollback_what(const struct draft_item *);

/* release.c: a release told with what ships in it, when the day says so. */

/*
 * Gather in each release of the day (ships) the changes of the day its
 * message or pull request names, the merge of its tag or branch carried,
 * or the changelog it updates lists; each marked shipped in it.
 */
void		 release_gather(struct draft *);
/*
 * On a day of a release that gathered something, the releases, the
 * title's first, each told with what ships in it; nothing other days.
 */
void		 release_segment(struct draft *);
/* Free what release_gather gave the items. */
void		 release_free(struct draft *);

/* chores.c: the housekeeping, by person, then bots. */
void		 chores_segment(struct draft *);
/*
 * The bots' commits v[0..n) told in b without a bot's name ("The
 * dependency bot bumped three dependencies: ..."), marked told.
 */
void		 chores_bots(struct draft *, struct buf *, struct draft_shas *,
		    struct draft_item **v, size_t n);

/* series.c: a series or stack of the day told as one story. */

/*
 * Group the day's series ("[3/15]", "part 2 of 5") and ghstack stacks by
 * author into stories: the most significant part leads (its score a
 * little over its own), the others are marked told with it as lead.
 */
void		 series_group(struct draft *);
/* Free what series_group gave the items. */
void		 series_free(struct draft *);
/*
 * A subject without its series marker at [at, at+len) and the brackets
 * or separator around it, read as what ("Add X (part 1/2)" -> "Add X");
 * new.
 */
char		*series_stem(const char *subject, size_t at, size_t len);
/* "three parts of a fifteen-part series", "a stack of two changes". */
void		 series_count(struct buf *, const struct draft_item *);
/*
 * A story's opening sentences, lead before the first: who, what it is
 * about, how many parts landed; 0 (nothing said) when it is no story.
 */
int		 series_tell(struct buf *, const struct draft_item *,
		    const char *lead);
/* "The other parts added X and Y." when the parts share no subject. */
void		 series_others(struct buf *, struct draft_item *);
/* ", in three parts" after a story's phrase in a list of chores. */
void		 series_chore(struct buf *, struct draft_item *);

/* focus.c: Today's Focus, or the one change worth reading. */
void		 focus_segment(struct draft *);
/*
 * The breaking change an item's message states, read once per item; in
 * *what (new) the words it concerns when what is not NULL and it has one.
 */
enum quote_break focus_breaking_of(struct draft_item *, char **what);
/*
 * The day's top story, the first of its stories as the drafter ranks
 * them, or NULL: the one call to switch to another ranking.
 */
struct draft_item *focus_top(struct draft *);
/* The top story's takeaway, a sentence: what to do with it and why. */
void		 focus_takeaway(struct draft *, struct buf *,
		    const struct draft_item *);

/*
 * bookend.c: the opening and the closing, from the stories told: drafted
 * after them, the closing last and the opening put first.
 */
void		 bookend_segments(struct draft *);

/* title.c: the episode's title and description, and the day's stories. */
void		 title_episode(struct draft *);
void		 title_description(struct draft *);
/*
 * Append a headline made of a story's subject; 0 when none can be made.
 * A first word the day names (named_first) is no verb to guess.
 */
int		 title_headline(struct buf *, const struct draft_item *);
/*
 * Append the headline of a story's subject as said, its words in their
 * case ("chunked encoding preferred"); 0 when none can be made or a word
 * is a symbol no voice says.
 */
int		 title_said(struct buf *, const struct draft_item *);
/*
 * Whether an item tells a story a title, a description or an opening may
 * lead with: not a bot's, not git's merge of a branch, not reverted work.
 */
int		 title_story_ok(const struct draft_item *);
/*
 * Append the words of the work a revert or re-land names, quoted ("\"add
 * a retry delay\""); 0 when they are long or hold a quote.
 */
int		 title_rollback_said(struct buf *, const struct draft_item *);
/* s without its code marks ("`"), which no voice says (new). */
char		*title_unmarked(const char *);
/* The day's release (the repository's own first), or NULL; *ver (new). */
struct draft_item *title_release(struct draft *, char **pkg, char **ver);
/* "Vite 8.1.1" or "create-vite 9.1.1". */
void		 title_release_name(struct buf *, const struct draft *,
		    const char *pkg, const char *ver);

#endif
