/*
 * A show of several repositories (issue #30): one episode telling the
 * day of each, their stories in one ranking. Each repository's day is
 * drafted on its own first (episode_draft), so everything a repository's
 * episode tells truly is told the same way here; the show orders their
 * stories, says where each happened, sums the counts, folds quiet
 * repositories into a sentence and keeps to a length a listener hears.
 */
#ifndef HOOKCAST_SHOW_H
#define HOOKCAST_SHOW_H

#include <stddef.h>

#include "day.h"
#include "episode.h"

/* A show's episode stays within this many minutes at its pace. */
#define SHOW_MINUTES		10
/* Words kept for the closing, whatever the stories take. */
#define SHOW_CLOSING_WORDS	60
/* Repositories the opening names a top story of. */
#define SHOW_OPENING_TOP	3
/* Stories told of a segment when they don't all fit (show_para_cap). */
#define SHOW_SEGMENT_STORIES	2
/* Quiet repositories named one by one; past it, counted. */
#define SHOW_QUIET_NAMED	3

/* One repository of the show: its day and the episode drafted of it. */
struct show_part {
	const struct day	*day;	/* reverts paired (day_pair_reverts) */
	const struct episode	*ep;	/* episode_draft of day, same opts */
};

/*
 * The show's episode (new; never NULL) of n parts, named name; its
 * repository is "shows/SLUG", where its files go in the archive. opts
 * give the date, the pace and the publication time as for a repository's
 * episode (earlier work and stock phrases are the repositories' own and
 * are not read here). A part whose day has no commit and no merged pull
 * request is left out. The order of parts breaks ties only.
 */
struct episode	*show_draft(const char *name, const char *slug,
		    const struct show_part *v, size_t n,
		    const struct episode_opts *opts);

#endif
