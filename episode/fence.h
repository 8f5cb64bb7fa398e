/*
 * The fence around a language model's rewrite of a transcript: the day's
 * facts as a sheet the model is given, and the checks its reply must pass
 * to replace the deterministic draft. Nothing the reply says may be a
 * fact the day does not hold: people, numbers, identifiers, settings and
 * reverts are checked against the sheet and the draft, which is itself
 * made of the day's facts. Plain functions: no libevent, no curl.
 */
#ifndef HOOKCAST_FENCE_H
#define HOOKCAST_FENCE_H

#include <stddef.h>

#include "day.h"
#include "episode.h"
#include "sheet.h"

/* A revert of the day, as the reply must still tell it. */
struct fence_revert {
	const char	*what;		/* the work taken out */
	const char	*reason;	/* why, or NULL when none was given */
	int		 automatic;	/* an automatic revert */
};

/* The facts a fence is made of (all borrowed). */
struct fence_facts {
	const char	*draft;		/* the deterministic transcript */
	const char	*sheet;		/* the fact sheet, or NULL */
	const char	*focus;		/* quoted byte for byte, or NULL */
	const char *const *people;	/* names and logins that may be said */
	size_t		 npeople;
	const char *const *bots;	/* names and logins never said */
	size_t		 nbots;
	const struct fence_revert *reverts;
	size_t		 nreverts;
};

struct fence;

/*
 * A fence of facts (copied: facts may be freed after). New; never NULL.
 * With no sheet, the sheet is the people, the reverts and the focus.
 */
struct fence	*fence_new(const struct fence_facts *);
/*
 * The fence of a drafted episode of day: the sheet made of the commits
 * the episode tells (people, what, why, figures, settings, reverts) and
 * the day's counts. New; never NULL.
 */
struct fence	*fence_of_episode(const struct day *, const struct episode *);
/*
 * The fence of a sheet (sheet.h): its stories, people, bots, reverts,
 * counts and focus, and the sheet's JSON as the model is given it. New;
 * never NULL; the sheet may be freed after.
 */
struct fence	*fence_of_sheet(const struct sheet *);
/* Free a fence; fence_free(NULL) is a no-op. */
void		 fence_free(struct fence *);
/* The fact sheet as the model is given it (borrowed; NFKC). */
const char	*fence_sheet(const struct fence *);
/*
 * s in Unicode's NFKC (new): a fullwidth "\xef\xbc\xaaohn" is "John", a
 * ligature its letters. What the fence reads, of the facts and of a
 * reply, and so what an episode keeps of a reply. NULL when s is not
 * valid UTF-8.
 */
char		*fence_normalize(const char *s);
/*
 * Check a reply (cleaned text: record_clean with lines; then
 * fence_normalize, as one that is not NFKC is refused). NULL when it may
 * replace the draft; else the reason, a short static word for logs and
 * metrics ("person", "number", ...), with *detail (new, when detail is
 * not NULL) saying what was found.
 */
const char	*fence_check(const struct fence *, const char *reply,
		    char **detail);
/* A sentence of a reply the fence left out, and why. */
struct fence_drop {
	char		*sentence;	/* as the reply wrote it */
	const char	*reason;	/* one of fence_reasons (static) */
	char		*detail;	/* what was found */
};

/* What the fence made of a reply. */
struct fence_verdict {
	const char	*refused;	/* NULL when text may be told; else why */
	char		*detail;	/* what was found, when refused */
	char		*text;		/* the reply without the dropped
					   sentences; NULL when refused */
	struct fence_drop *dropped;	/* sentences left out (also when
					   refused: those tried first) */
	size_t		 ndropped;
};

/*
 * Judge a reply (cleaned and normalised as for fence_check): each
 * sentence that fails a check is dropped when the reply still tells
 * every story it must (each revert the draft tells, the lead) and the
 * focus without it; the reply is refused whole when one would be lost,
 * or for what no dropping mends (not NFKC, too short or long, no text).
 * v is cleared first; fence_verdict_clear frees what it holds.
 */
void		 fence_judge(const struct fence *, const char *reply,
		    struct fence_verdict *v);
void		 fence_verdict_clear(struct fence_verdict *);
/*
 * Every reason fence_check returns, as the initializer of a list: a
 * caller's list of its own reasons (llm_reasons) starts with it.
 */
#define FENCE_REASONS \
	"empty", "too_short", "too_long", "markdown", "tag", "url", "email", \
	"hash", "script", "digits", "focus", "bot", "person", "owner", \
	"number", "version", "figure", "count", "identifier", "revert", \
	"reason", "claim", "lead", "comparison", "place"
/* Every reason fence_check returns, NULL-terminated (for metrics). */
extern const char *const fence_reasons[];

#endif
