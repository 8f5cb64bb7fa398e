/*
 * Shows with a schedule of their own: a [show] section that sets
 * emit_at, timezone or quiet_days is told at its own hour in its own
 * zone, so its day is not its repositories' days. It keeps copies of
 * them: every delivery accepted for a member is copied into the show's
 * own store as it goes into the repository's (live and on replay, from
 * the same journal record), and the show's days are handed off, drafted
 * and finished on their own, with journal markers that name the show as
 * the repository "show:SLUG". Compaction writes the copies as "d"
 * records marked "sh":SLUG, so nothing accepted for a show is lost to a
 * restart. A show emitted with its repositories (no schedule of its
 * own) has none of this: the drafter tells it from their days.
 */
#ifndef HOOKCAST_SHOWDAY_H
#define HOOKCAST_SHOWDAY_H

#include <stddef.h>
#include <time.h>

#include <jansson.h>

#include "buf.h"
#include "strlist.h"

struct hookcastd;
struct jrecord;
struct show_conf;
struct store;

/* The journal's name for a show's days: SHOWDAY_PREFIX SLUG. */
#define SHOWDAY_PREFIX	"show:"

struct showday {
	struct hookcastd	*d;
	char			*slug;
	char			*marker;	/* "show:SLUG", its journal name */
	struct store		*store;		/* the members' days, copied */
	time_t			 window_start;	/* of its open days */
	int			 unmarked;	/* its window not in the journal */
	time_t			 next_emit;
	struct event		*timer;
};

/*
 * Bring d->showdays in line with the configuration's scheduled shows
 * (config_show_scheduled): a new one starts with an empty store whose
 * days open at its last emission time; one no longer scheduled is
 * dropped (its copies with it: its members' own days still hold what
 * they were told). With arm, each one's timer is (re)armed.
 */
void		 showday_sync(struct hookcastd *, int arm);
/* Free them all (at exit). */
void		 showday_free_all(struct hookcastd *);
/* The scheduled show of a show's name or slug, or NULL. */
struct showday	*showday_find(struct hookcastd *, const char *name);
/* The show's configuration (NULL if it went). */
const struct show_conf *showday_conf(struct hookcastd *,
		    const struct showday *);
/* Does a scheduled show take repo's deliveries? */
int		 showday_wants(struct hookcastd *, const char *repo);
/*
 * A delivery's journal record (payload, len bytes) for repo, accepted:
 * copied into each scheduled show that takes repo.
 */
void		 showday_copy(struct hookcastd *, const char *repo,
		    const char *payload, size_t len);
/* A journal record of a show's (a marker or a day's copy), on replay. */
void		 showday_apply(struct hookcastd *, struct jrecord *);
/*
 * The show's records for compaction, appended to *recs (grown): its
 * window, its days being drafted and their hand-off, its open days.
 * 0, or -1 when one could not be written.
 */
int		 showday_compact(struct hookcastd *, struct buf **recs,
		    size_t *n);
/*
 * Hand the show's open days to the drafter, new ones opening at start
 * (journalled first). 0, or -1 when a draft of its last days is still
 * in progress (nothing changes).
 */
int		 showday_handoff(struct hookcastd *, struct showday *,
		    time_t start);
/* Its episode is out: the days handed off are done (journalled). */
void		 showday_drafted(struct hookcastd *, const char *name);
/* Its draft failed: the days handed off join the open ones again. */
void		 showday_failed(struct hookcastd *, const char *name);
/* Members with a day to tell (open, or being drafted with drafting). */
void		 showday_members(struct showday *, int drafting,
		    struct strlist *out);
/* Days missed while down, and drafts cut short, drafted now. */
void		 showday_catch_up(struct hookcastd *);

#endif
