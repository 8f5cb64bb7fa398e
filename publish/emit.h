/*
 * Emission: draft a day's episode and write its files atomically in the
 * repository's folder of the archive (archive_dir). No libevent: plain
 * file work.
 */
#ifndef HOOKCAST_EMIT_H
#define HOOKCAST_EMIT_H

#include <time.h>

#include "day.h"

struct llm_conf;
struct llm_drop;

/*
 * What emission reads, filled by the daemon from its configuration
 * (daemon/pubconf.c). The strings and arg are borrowed: they live as
 * long as what filled them.
 */
struct emit_conf {
	const char	*output_dir;	/* the archive (archive.h) */
	const char	*public_url;	/* base URL of output_dir, or NULL */
	int		 feed_items;	/* items kept in feed.xml; 0: all */
	const char	*feed_image;	/* URL, or NULL */
	const char	*feed_owner_name;	/* or NULL */
	const char	*feed_owner_email;	/* or NULL */
	const char	*feed_category;
	int		 feed_locked;	/* podcast:locked yes */
	int		 episode_retention_days; /* 0: keep every episode */
	long long	 min_free_space;	/* bytes; 0: no check */
	double		 words_per_minute;
	/* a repository's show name (new) and its model's settings */
	char		*(*show)(const void *arg, const char *repo);
	void		 (*llm)(const void *arg, const char *repo,
			    struct llm_conf *);
	const void	*arg;
};

struct emit_result {
	char	*repo;
	char	*date;		/* YYYY-MM-DD, the local date of the window */
	char	*title;
	char	*md_path;	/* NULL for a preview */
	char	*json_path;
	char	*md_text;
	char	*json_text;
	/* the model's rewrite: "model" or "template", or NULL when none is
	   configured; when template, the reason (static) */
	const char *draft_by;
	const char *draft_rejected;
	/* when model, the sentences of its reply the fence left out (owned) */
	struct llm_drop *draft_dropped;
	size_t	 ndraft_dropped;
};

/*
 * Draft the episode of day (reverts paired first) as of now. With write,
 * the .md, .json and .txt (the spoken transcript, plain) are written (temporary file, fsync, rename, fsync of
 * the directory) and feed.xml rewritten; a second episode for the same
 * date gets "-2", "-3"... The JSON adds "people": the day's authors.
 * With llm_url set for the repository the transcript is the model's
 * rewrite when it passes the fence of the day's facts (llm.h), and the
 * JSON adds "draft": who wrote the transcript, why not the model, and
 * the sentences of the model's the fence dropped.
 * Returns 0, or -1 with *cause (new).
 */
int	 emit_day(const struct emit_conf *, struct day *, time_t now, int write,
	    struct emit_result *, char **cause);
/*
 * As emit_day, drafted by the reduced drafter (reduced.h): counts,
 * reverts, top stories and "N more changes", without the model. For a
 * day whose full draft failed again and again (drafter.h).
 */
int	 emit_day_reduced(const struct emit_conf *, struct day *, time_t now,
	    int write, struct emit_result *, char **cause);
/*
 * Draft the episode of a show of several repositories (show.h) named
 * show, of their n days (reverts paired first), as of now: each day
 * drafted as its own episode, then told as one, dated by the latest
 * day's start (the daemon's days share one window). With write, its files and feed go in OUTPUT_DIR/shows/SLUG
 * as a repository's go in its folder; the JSON's "people" are every
 * day's. No model rewrite (yet). Returns 0, or -1 with *cause (new).
 */
int	 emit_show(const struct emit_conf *, const char *show,
	    const char *slug, struct day **days, size_t n, time_t now,
	    int write, struct emit_result *, char **cause);
/*
 * Draft the weekly recap of repo from its archive: the daily episodes
 * dated within the week ending on now's local date. With write, it is
 * written as DATE-recap.md and .json and the feed rewritten. Returns 0,
 * or -1 with *cause (new), e.g. when the week has no episodes.
 */
int	 emit_recap(const struct emit_conf *, const char *repo, time_t now,
	    int write, struct emit_result *, char **cause);
/*
 * Rewrite OUTPUT_DIR/repo/feed.xml from the archive: the newest
 * feed_items episodes. (Done after every episode written.) 0 or -1 with
 * *cause (new).
 */
int	 emit_feed(const struct emit_conf *, const char *repo, char **cause);
/*
 * The podcast:guid of a feed: the UUIDv5, in the Podcast namespace's
 * namespace, of its URL without the scheme and trailing slashes, as 36
 * characters into out (outsz at least 37). 0, or -1 for no URL.
 */
int	 emit_podcast_guid(const char *feed_url, char *out, size_t outsz);
/*
 * Does path's file system keep at least min bytes free for us? 0 (also
 * when min is 0), or -1 with *cause (new) saying how much is free.
 */
int	 emit_free_space(const char *path, long long min, char **cause);
/* Free what an emit_result holds and zero it. */
void	 emit_result_clear(struct emit_result *);

#endif
