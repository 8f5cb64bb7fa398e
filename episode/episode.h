/*
 * The episode drafter: a day in, an episode out, then rendered as Markdown
 * and JSON. Plain functions over plain structs: no libevent here.
 */
#ifndef HOOKCAST_EPISODE_H
#define HOOKCAST_EPISODE_H

#include <stddef.h>
#include <time.h>

#include "day.h"

struct buf;

struct episode_nearby {
	char	*date;		/* YYYY-MM-DD */
	char	*title;
};

/*
 * What an earlier episode of the show said, for the stock phrases of
 * the next (earlier_stock): its date and its transcript.
 */
struct episode_said {
	char	*date;		/* YYYY-MM-DD */
	char	*transcript;
};

/* The stock phrases of a show look back this many days. */
#define EPISODE_SAID_DAYS	6

/*
 * A commit an episode told, with what a later episode needs to name it
 * again: an episode lists its own (episode.work, date NULL), the archive
 * gives the drafter those of earlier episodes (episode_opts.earlier).
 */
struct episode_work {
	char	*sha;		/* 40 lower-case hex digits */
	char	*date;		/* YYYY-MM-DD of the episode that told it */
	char	*name;		/* the author, as said aloud */
	char	*what;		/* what it did, as the drafter read it */
	char	*reverts;	/* for a revert, the sha it took out; or NULL */
	int	 bot;		/* made by a bot: told without its name */
};

/* At most this many commits are listed in an episode's work. */
#define EPISODE_MAX_WORK		512

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
	/*
	 * Work told in earlier episodes of the repository, for the reverts
	 * and re-lands of it (borrowed; may be NULL): sorted by sha
	 * (earlier_sort), each sha once, every date set and none after the
	 * day told.
	 */
	const struct episode_work *earlier;
	size_t		 nearlier;
	/*
	 * What the show's daily episodes of the EPISODE_SAID_DAYS days
	 * before said (borrowed; may be NULL): a stock phrase said on two
	 * of them is left for another (earlier_stock).
	 */
	const struct episode_said *said;
	size_t		 nsaid;
	/*
	 * Threads that classify a day of many commits: 0 for one per CPU
	 * (at most four), 1 for none beside the caller's. The episode is
	 * the same either way.
	 */
	int		 threads;
};

/*
 * A change a segment draws on, as the episode links it: one of its
 * commits, or a merged pull request of the day whose merge commit is one
 * of them (or that the opening names).
 */
struct episode_source {
	char	*sha;		/* a commit's 40 hex digits; NULL for a PR */
	long	 pr;		/* a pull request's number; 0 for a commit */
	char	*title;		/* the commit's subject, the PR's title */
	/*
	 * In a show, the repository the source is of, and its web page (as
	 * episode.repository and repository_url); NULL: the episode's.
	 */
	char	*repository;
	char	*repository_url;
};

struct episode_segment {
	char	*kind;		/* opening, rollbacks, highlights, fixes, ... */
	char	*text;		/* spoken text, paragraphs separated by "\n\n" */
	char   **commits;	/* shas the segment draws on */
	size_t	 ncommits;
	struct episode_source *sources;	/* commits and PRs, for links */
	size_t	 nsources;
	/*
	 * A story segment's place in the day's one ranking: its best
	 * story's rank plus one, so 1 is a release and EPISODE_RANK_CHORE
	 * upkeep; 0 for the bookends, the focus and the takeaway. A show of
	 * several repositories orders their segments by it (show.c).
	 */
	int	 rank;
};

/* episode_segment.rank of upkeep: tests, CI, docs, dependencies, bots */
#define EPISODE_RANK_CHORE	9

/* A repository of a show's episode, and what it counted. */
struct episode_member {
	char		*repository;	/* "owner/name" */
	struct day_stats stats;
	size_t		 stories;	/* story segments told */
	size_t		 untold;	/* story segments left out for time */
	int		 quiet;		/* told in a sentence, no segment */
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
	/*
	 * The repository's web page (day.html_url), from which the links
	 * of the sources are built; NULL when none passed repo_url_ok: the
	 * episode then has no links.
	 */
	char		*repository_url;
	time_t		 window_start;
	time_t		 window_end;
	struct day_stats stats;
	struct episode_segment *segments;
	size_t		 nsegments;
	char		*transcript;	/* the segments' text joined */
	char		*focus;		/* the setting Today's Focus quotes, or NULL */
	struct episode_nearby *nearby;
	size_t		 nnearby;
	double		 words_per_minute; /* the pace duration assumes */
	struct episode_work *work;	/* the commits told, dates NULL */
	size_t		 nwork;
	/*
	 * The transcript is a rewrite of the segments' text (a model's,
	 * fenced by the day's facts): the Markdown tells it instead.
	 */
	int		 rewritten;
	/*
	 * The day's top story as one phrase a show of several repositories
	 * says after "in NAME, " ("Vite 8.1.1 is out", "a rollback from
	 * NAME, of X"), and its rank as episode_segment.rank gives it; NULL
	 * and 0 on a day of upkeep.
	 */
	char		*headline;
	int		 headline_rank;
	/*
	 * A show of several repositories (show.c): each member's name and
	 * counts, in the order the show first tells them; NULL and 0 for a
	 * repository's own episode.
	 */
	struct episode_member *members;
	size_t		 nmembers;
};

/*
 * Draft an episode of a day. Returns a new episode; never NULL. The day is
 * only read; its reverts are expected paired (day_pair_reverts). A NULL
 * show names the show after the repository; a zero year takes the date
 * from the day's window start (UTC).
 */
struct episode	*episode_draft(const struct day *, const struct episode_opts *);
/*
 * The show's name (new): opts' show, else the repository's name without
 * its owner, else "hookcast".
 */
char		*episode_show(const char *repo, const struct episode_opts *);
/* Free an episode and all it owns; episode_free(NULL) is a no-op. */
void		 episode_free(struct episode *);
/*
 * Derive the transcript, word count, duration and nearby list of an
 * episode whose segments are drafted (for drafters: daily and recap).
 */
void		 episode_finish(struct episode *, const struct episode_opts *);
/*
 * Add a segment to an episode (for drafters), taking text and the n shas
 * of v (new strings in a new array); an empty text adds no segment and
 * frees them.
 */
void		 episode_add_segment(struct episode *, const char *kind,
		    struct buf *text, char **v, size_t n);
/*
 * Render as Markdown (new string): the transcript, the nearby episodes,
 * then "## Links", each segment's sources as links (none without a
 * repository_url). The transcript itself holds no URL.
 */
char		*episode_render_md(const struct episode *);
/* Render as JSON (new string), the keys of the design. */
char		*episode_render_json(const struct episode *);

/* links.c: the web pages of an episode's sources. */

/*
 * Append the page of src, "<repository_url>/commit/<sha>" or
 * "<repository_url>/pull/<n>", to b: 0, or -1 (b unchanged) when the
 * episode has no repository_url that passes repo_url_ok or src is
 * neither a 40-hex sha nor a positive number.
 */
int		 links_url(struct buf *b, const struct episode *,
		    const struct episode_source *src);
/* Free what a segment's sources own, and the array. */
void		 links_free(struct episode_source *, size_t);

/* earlier.c: the work of earlier episodes, looked up by sha. */

/*
 * The entry of v (sorted by earlier_sort) for sha: its full sha, or a
 * prefix of at least 7 hex digits that only one entry starts with
 * (borrowed), or NULL.
 */
const struct episode_work *earlier_find(const struct episode_work *v,
		    size_t n, const char *sha);
/*
 * Sort v by sha and keep the first of each sha in the order given (so
 * give the newest first); returns the count kept. Dropped entries are
 * freed.
 */
size_t		 earlier_sort(struct episode_work *v, size_t n);
/* Free the strings of v[0..n) and v; earlier_free(NULL, 0) is a no-op. */
void		 earlier_free(struct episode_work *v, size_t n);
/*
 * A stock phrase for the day numbered daynum (date_daynum): of the
 * variants v[0..n), tried in turn from v[start % n], the first that
 * the episodes in said of the EPISODE_SAID_DAYS days before said on
 * fewer than two of them; NULL when each was (the caller says
 * nothing). A variant is known by its catchphrase, the words after its
 * last format directive and last comma ("all told.", "so go kick the
 * tires."), and by its head, the words before its first comma or colon
 * ("A day of second thoughts"), so variants sharing one count together:
 * no stock phrase comes on more than two of seven consecutive days of
 * a show.
 */
const char	*earlier_stock(const struct episode_said *said, size_t nsaid,
		    long daynum, unsigned start, const char *const *v,
		    size_t n);
/* The catchphrase of a stock phrase v (see earlier_stock); *len its length. */
const char	*earlier_catchphrase(const char *v, size_t *len);

/* feed.c: a repository's episodes as an RSS 2.0 podcast feed. */

struct feed_channel {
	const char	*title;		/* the show */
	const char	*link;
	const char	*description;
	const char	*language;	/* NULL for "en" */
	const char	*author;	/* itunes:author, or NULL */
	const char	*self_url;	/* the feed's own URL, or NULL */
	const char	*image_url;	/* itunes:image, or NULL */
	const char	*owner_name;	/* itunes:owner's, or NULL */
	const char	*owner_email;	/* itunes:owner's, or NULL */
	const char	*category;	/* itunes:category; NULL: Technology */
	const char	*podcast_guid;	/* podcast:guid (a UUID), or NULL */
	int		 locked;	/* podcast:locked yes (1) or no (0) */
	size_t		 max_items;	/* items kept; 0 for all */
};

/* A podcast:transcript of an item: a URL and a registered media type. */
struct feed_transcript {
	const char	*url;
	const char	*type;		/* "text/vtt", "text/plain", ... */
};

#define FEED_MAX_TRANSCRIPTS	4

struct feed_item {
	const char	*title;
	const char	*description;
	const char	*link;		/* or NULL */
	const char	*guid;		/* stable per episode; not a URL */
	const char	*enclosure_url;	/* the audio, or NULL */
	const char	*enclosure_type; /* e.g. "audio/mpeg" */
	long long	 enclosure_length; /* bytes */
	struct feed_transcript transcripts[FEED_MAX_TRANSCRIPTS];
	size_t		 ntranscripts;
	time_t		 published;
	long		 duration;	/* seconds; 0 when unknown */
};

/*
 * Render the feed (new string): RSS 2.0 with the iTunes and Podcasting 2.0
 * namespaces, items newest first (by published; of equal times, the later
 * in the array), at most max_items. Every text is escaped for XML.
 */
char		*feed_render(const struct feed_channel *,
		    const struct feed_item *, size_t n);
/*
 * Append s escaped for XML text or attributes; invalid UTF-8 and the
 * characters XML 1.0 forbids are dropped.
 */
void		 feed_escape(struct buf *, const char *);
/* Append t as an RFC 822 date in UTC ("Wed, 06 May 2026 10:00:44 +0000"). */
void		 feed_rfc822(struct buf *, time_t);

/* recap.c: the weekly recap, drafted from the week's episodes. */

#define RECAP_TITLE_PREFIX	"Weekly Recap - "

/* A commit author of a day, as an episode's "people" key lists them. */
struct recap_person {
	char	*name;		/* as said aloud */
	size_t	 commits;
	int	 bot;
	char	*login;		/* GitHub's, or NULL */
};

/* A segment of an archived episode: its kind and the ids it cites. */
struct recap_segment {
	const char	 *kind;
	const char *const *commits;
	size_t		  ncommits;
};

/* One of the week's episodes, as read back from the archive (borrowed). */
struct recap_source {
	const char	*date;		/* YYYY-MM-DD */
	const char	*title;
	const char	*description;	/* or NULL */
	const char	*focus;		/* or NULL */
	time_t		 window_start;
	time_t		 window_end;
	struct day_stats stats;
	const struct recap_segment *segments;
	size_t		 nsegments;
	const struct recap_person *people;
	size_t		 npeople;
	int		 have_people;	/* the archive listed its people */
};

/*
 * Draft the weekly recap of repo from the week's episodes (any order).
 * opts gives the show, the recap's date, published time, pace and nearby
 * episodes. Stats are the sums of the sources' (authors: the distinct
 * people when every source lists them). Returns a new episode, freed with
 * episode_free(); never NULL.
 */
struct episode	*recap_draft(const char *repo, const struct recap_source *,
		    size_t n, const struct episode_opts *);
/* A day's commit authors with their counts, most first (new array). */
size_t		 recap_people(const struct day *, struct recap_person **);
/* Free what recap_people() returned. */
void		 recap_people_free(struct recap_person *, size_t);

#endif
