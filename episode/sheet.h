/*
 * The fact sheet of a drafted episode, as structure: each story the
 * episode tells with its id, kind, the people who own it, its figures
 * with the words they measure, its versions, reason and settings, and for
 * a revert what it took out and why; the day's counts; the people and
 * the bots. A model is given it as JSON (sheet_json); the fence reads the
 * same structure to check a reply story by story. Plain functions: no
 * libevent, no curl.
 */
#ifndef HOOKCAST_SHEET_H
#define HOOKCAST_SHEET_H

#include <stddef.h>

#include "day.h"
#include "episode.h"

/* What a person did for a story. */
enum sheet_role {
	SHEET_AUTHOR,		/* wrote the change (or released it) */
	SHEET_MERGER,		/* merged its pull request */
	SHEET_REQUESTER,	/* asked for the revert */
	SHEET_REVERTER,		/* carried the revert out */
};

struct sheet_person {
	char		*name;		/* as said aloud */
	char		*login;		/* GitHub login, or NULL */
	enum sheet_role	 role;
};

struct sheet_figure {
	char	*value;		/* "1.7x", "35%", "2.5 GB", as written */
	char	*measures;	/* the words around it: what it measures */
};

struct sheet_story {
	char		*id;		/* "s1", "s2", ... in the episode's order */
	const char	*kind;		/* classify_kind_name (static) */
	char		*sha;		/* the commit told, 40 hex */
	long		 pr;		/* its pull request's number, or 0 */
	char		*what;		/* what it did, as the episode tells it */
	char		*area;		/* "inductor", "docs"; or NULL */
	char		*repository;	/* a show's: where it happened */
	char		*reason;	/* why, only when the message gives one */
	int		 bot;		/* made by a bot: never named */
	struct sheet_person *people;
	size_t		 npeople;
	struct sheet_figure *figures;
	size_t		 nfigures;
	char	       **versions;	/* "8.2.0", without a "v" */
	size_t		 nversions;
	char	       **settings;	/* quoted byte for byte */
	size_t		 nsettings;
	/* a revert: it takes out earlier work */
	int		 is_revert;
	char		*revert_of;	/* what it took out */
	char		*revert_reason;	/* why; NULL when none was given */
	int		 revert_automatic;
	int		 reverted;	/* taken out by a revert of the day */
	/*
	 * A reply must tell it: each revert the draft tells, and the lead
	 * story (the one the title and the opening lead with).
	 */
	int		 required;
	int		 lead;
};

struct sheet {
	char		*show;
	char		*repository;
	char		*date;		/* YYYY-MM-DD */
	struct day_stats counts;
	char		*focus;		/* the Focus setting, or NULL */
	char		*draft;		/* the template transcript */
	struct sheet_story *stories;
	size_t		 nstories;
	char	       **people;	/* every person's names and logins */
	size_t		 npeople;
	char	       **bots;		/* every bot's names, never said */
	size_t		 nbots;
};

/* The sheet of an episode drafted from day (new; never NULL). */
struct sheet	*sheet_of_episode(const struct day *, const struct episode *);
/*
 * The sheet of a show's episode (show.h) drafted from n repositories'
 * days and their own episodes: the stories the show tells, in its order,
 * each with its repository ("repository": the name after the owner, as
 * the show says it); the people and bots of every day. New; never NULL.
 */
struct sheet	*sheet_of_show(const struct day *const *days,
		    const struct episode *const *eps, size_t n,
		    const struct episode *show);
/*
 * The sheet as the model is given it (new): JSON, an object with the
 * show, the counts, the focus, the stories, the people, and how many
 * bots the day has: never a bot's name, not even in a story's text.
 */
char		*sheet_json(const struct sheet *);
/* Free a sheet; sheet_free(NULL) is a no-op. */
void		 sheet_free(struct sheet *);

#endif
