/*
 * Reading a commit for the episode: what kind of change it is, which area
 * of the repository it touches, whether a bot made it, how significant it
 * looks, and the plain words, figures and settings its message gives.
 * Plain functions over plain structs: no libevent, no jansson.
 */
#ifndef HOOKCAST_CLASSIFY_H
#define HOOKCAST_CLASSIFY_H

#include <stddef.h>

#include "buf.h"
#include "record.h"

enum classify_kind {
	CLASSIFY_REVERT,
	CLASSIFY_RELAND,
	CLASSIFY_FEATURE,
	CLASSIFY_PERF,
	CLASSIFY_FIX,
	CLASSIFY_DOCS,
	CLASSIFY_TESTS,
	CLASSIFY_BUILD,		/* CI and build system */
	CLASSIFY_DEPS,		/* dependency bumps */
	CLASSIFY_CLEANUP,	/* cleanups and refactors */
	CLASSIFY_CHANGE,	/* none of the above */
};
#define CLASSIFY_NKINDS (CLASSIFY_CHANGE + 1)

#define CLASSIFY_MAXFIGURES 6

/* What the drafter knows of one commit. Every string is owned. */
struct classify {
	enum classify_kind kind;
	char	*area;		/* "inductor", "X86", "setopt", "docs"; or NULL */
	int	 area_titled;	/* the area came from the title, not the files */
	int	 bot;		/* made by a bot */
	int	 merge;		/* git's merge of a branch or tag: bookkeeping */
	int	 advisory;	/* merged from a GitHub security advisory */
	char	*subject;	/* the subject read: a merged PR's title, or
				   the commit's own */
	int	 release;	/* the subject announces a release
				   (quote_release): ask it for the version */
	int	 series_part;	/* [3/15] -> 3 and 15; 0 when no series */
	int	 series_total;	/* 0 when not given ("step 9") */
	char	*what;		/* the subject without tags, prefix or (#N);
				   or the body's first sentence restating it */
	int	 may_restate;	/* the body may restate the subject: the
				   first sentence is looked at (classify.c) */
	char	*prose;		/* a sentence or two of the body, cleaned;
				   "" if none; NULL if not read yet
				   (classify_commit_lazy) */
	char	*figures[CLASSIFY_MAXFIGURES]; /* "1.7x", "35%", "2.5 GB",
				   as the cleaned text says them; read
				   with the prose (none while it is NULL) */
	size_t	 nfigures;
	char	*setting;	/* a setting, flag or variable quoted verbatim */
	int	 setting_new;	/* the message introduces it, not just names it */
	int	 breaking;	/* quote_breaking's kind; 0 none (tests, docs) */
	int	 warning;	/* a crash, hang, wrong result or security
				   word, in a kind a user meets (the score's
				   signals): a fix of these ranks high */
	double	 score;		/* significance; higher is more */
};

/* Classify a commit into c (cleared first); repo is "owner/name" or NULL. */
void		 classify_commit(const struct commit *, const char *repo,
		    struct classify *);
/*
 * classify_commit, leaving prose NULL and no figures (most commits of a
 * day are never told; the score does not read them): classify_prose
 * reads both.
 */
void		 classify_commit_lazy(const struct commit *,
		    const char *repo, struct classify *);
/*
 * Whether c is read as the pull request a merge button merged (its
 * subject the body's first line, its body the rest).
 */
int		 classify_merged_pr(const struct commit *);
/* Read the prose and figures classify_commit_lazy left; the same commit. */
void		 classify_prose(const struct commit *, struct classify *);
/* Free what a classify owns. */
void		 classify_clear(struct classify *);
/* "revert", "feature", ...: the kind's name as the JSON and logs say it. */
const char	*classify_kind_name(enum classify_kind);
/* Whether a login or name is a bot's ("dependabot[bot]", "renovate"). */
int		 classify_is_bot(const char *login, const char *name);
/* A bot's name as said aloud: "dependabot[bot]" -> "Dependabot" (new). */
char		*classify_bot_name(const char *login, const char *name);
/* The spoken name of a commit's author, or of its bot when bot (new). */
char		*classify_name(const struct commit *, int bot);
/* The kind of a commit from its revert info, subject and files. */
enum classify_kind classify_kind(const struct commit *);
/*
 * The area a commit touches (new string), or NULL if none can be told;
 * *titled is set to 1 when the subject names it, 0 when the files do.
 */
char		*classify_area(const struct commit *, const char *repo,
		    int *titled);
/* The subject without title tags, type/scope prefix and "(#N)" (new). */
char		*classify_what(const char *subject);
/*
 * A series marker in the subject: "[3/15]", "(3/15)", "[3/N]", "step 9",
 * "part 2 of 5", "part 3/x". 1 and part/total (total 0 when not given),
 * or 0. A word marker without a total counts where a marker stands (at
 * the end, after a bracket, comma, colon or dash), not mid-sentence.
 */
int		 classify_series(const char *subject, int *part, int *total);
/* As classify_series, and the marker's place: *at, *len bytes of subject. */
int		 classify_series_at(const char *subject, int *part, int *total,
		    size_t *at, size_t *len);

#endif
