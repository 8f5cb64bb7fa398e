/*
 * What several of a day's changes have in common, said once: a theme
 * (legacy code taken out, memory errors guarded against, problems one
 * tool or person found), and the dependency bump a change is, read so
 * that a run of them is counted rather than listed. Plain functions over
 * the drafter's items (draft_int.h).
 */
#ifndef HOOKCAST_THEME_H
#define HOOKCAST_THEME_H

#include <stddef.h>

#include "buf.h"

struct draft;
struct draft_item;

/* A dependency bump as a change's words say it. */
struct theme_bump {
	char	*name;		/* "actions/checkout", "body-parser" (new) */
	long	 from_major;	/* the major version it left, or -1 */
	long	 to_major;	/* the major version it went to, or -1 */
	char	*to_version;	/* the version it went to: "6.0.0" (new) */
	int	 action;	/* a GitHub Action ("owner/name" of a
				   workflow's) */
	int	 security;	/* the message calls it a security fix */
	int	 breaking;	/* marked breaking ("feat(deps)!: router@^2") */
};

/*
 * Whether an item is a dependency bump naming a package and the version
 * it goes to ("bump actions/checkout from 5.0.0 to 6.0.0", "upgrade to
 * body-parser@1.20.3", "body-parser@^2.0.1", "update serde to 1.0.200");
 * with b not NULL, *b filled (free with theme_bump_clear) when it is.
 * "pin the rust version for wasm tests" or "all non-major dependencies"
 * name no package and version: no.
 */
int		 theme_bump(const struct draft_item *, struct theme_bump *b);
void		 theme_bump_clear(struct theme_bump *);
/*
 * Whether a bump is to a new major version: from one known, or marked
 * as breaking.
 */
int		 theme_bump_major(const struct theme_bump *);

/*
 * A run of bumps v[0..n) said as a count, and what of them matters by
 * name: "five GitHub Actions, three of them to a new major version",
 * "three dependencies, among them a security fix in body-parser". The
 * exact list stays in the episode's links.
 */
void		 theme_bumps_said(struct buf *, struct draft_item **v,
		    size_t n);

/*
 * Whether an area can be said as a thing a listener uses ("HTTP",
 * "runtime"), not a short code name heard as another word ("win").
 */
int		 theme_area_said(const char *area);

/*
 * The day's theme in one sentence appended to b ("Six of today's
 * changes remove deprecated code."), or nothing on a day without one:
 * three or more of the day's changes, and one in six at least, sharing
 * a purpose. 1 when said.
 */
int		 theme_sentence(struct buf *, struct draft *);

#endif
