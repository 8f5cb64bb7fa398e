/*
 * The reduced episode: a day told by its counts, its reverts and its top
 * stories, the rest named as "N more changes". It is what a day is told
 * as once its full draft failed again and again (the daemon's drafter):
 * one pass over the day's records, a few comparisons per record and a
 * text of bounded length, so nothing a day holds (a commit of 30,000
 * files, 100,000 commits) can make it slow the way the full drafter's
 * classifying, grouping and ranking may be. Plain functions over plain
 * structs, as episode.h.
 */
#ifndef HOOKCAST_REDUCED_H
#define HOOKCAST_REDUCED_H

#include "day.h"
#include "episode.h"

/* Stories told by name: merged pull requests first, then commits. */
#define REDUCED_STORIES		5
/* Reverts named by their subject; the others only counted. */
#define REDUCED_REVERTS		3
/* Bytes of a subject or title said; the rest is cut. */
#define REDUCED_SUBJECT_MAX	160

/*
 * Draft the reduced episode of a day (new; never NULL), with the options
 * episode_draft takes. The day is only read; its reverts need no pairing.
 * Its segments are "opening", "rollbacks" (when there are reverts),
 * "highlights" and "closing", which says how many changes were left
 * untold.
 */
struct episode	*reduced_draft(const struct day *,
		    const struct episode_opts *);

#endif
