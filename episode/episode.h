/*
 * The episode drafter: a day in, an episode out, then rendered as Markdown
 * and JSON. Plain functions over plain structs: no libevent here.
 */
#ifndef HOOKCAST_EPISODE_H
#define HOOKCAST_EPISODE_H

#include <stddef.h>
#include <time.h>

#include "day.h"

struct episode_nearby {
	char	*date;		/* YYYY-MM-DD */
	char	*title;
};

/* Speaking pace when episode_opts.words_per_minute is 0. */
#define EPISODE_WORDS_PER_MINUTE	150.0
/* At most this many changes get a paragraph of their own in the highlights. */
#define EPISODE_MAX_HIGHLIGHTS		5

struct episode_opts {
	const char	*show;		/* the show's name */
	int		 year, month, mday; /* the day told, in the local zone */
	time_t		 published;	/* when it is emitted */
	double		 words_per_minute; /* speaking pace; 0 for the default */
	const struct episode_nearby *nearby; /* borrowed; may be NULL */
	size_t		 nnearby;
};

struct episode_segment {
	char	*kind;		/* opening, rollbacks, highlights, fixes, ... */
	char	*text;		/* spoken text, paragraphs separated by "\n\n" */
	char   **commits;	/* shas the segment draws on */
	size_t	 ncommits;
};

struct episode {
	char		*show;
	char		*title;
	char		*description;
	char		*date;		/* YYYY-MM-DD */
	time_t		 published;
	long		 duration;	/* seconds, from the word count */
	size_t		 words;
	char		*repository;
	time_t		 window_start;
	time_t		 window_end;
	struct day_stats stats;
	struct episode_segment *segments;
	size_t		 nsegments;
	char		*transcript;	/* the segments' text joined */
	char		*focus;		/* the setting Today's Focus quotes, or NULL */
	struct episode_nearby *nearby;
	size_t		 nnearby;
};

/*
 * Draft an episode of a day. Returns a new episode; never NULL. The day is
 * only read; its reverts are expected paired (day_pair_reverts). A NULL
 * show names the show after the repository; a zero year takes the date
 * from the day's window start (UTC).
 */
struct episode	*episode_draft(const struct day *, const struct episode_opts *);
/* Free an episode and all it owns; episode_free(NULL) is a no-op. */
void		 episode_free(struct episode *);
/* Render as Markdown (new string). */
char		*episode_render_md(const struct episode *);
/* Render as JSON (new string), the keys of the design. */
char		*episode_render_json(const struct episode *);

#endif
