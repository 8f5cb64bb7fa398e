/*
 * The language model's rewrite of an episode's transcript: one chat
 * completion of an OpenAI-compatible server (llama.cpp's, Ollama's, a
 * hosted API) given the day's fact sheet and the draft, its reply kept
 * only when it passes the fence of the day's facts (episode/fence.h),
 * less any sentence the fence dropped.
 * The request blocks: it is made in the drafting process, never on the
 * loop.
 */
#ifndef HOOKCAST_LLM_H
#define HOOKCAST_LLM_H

#include <stddef.h>

#include "day.h"
#include "episode.h"

/* The language model that rewrites a repository's transcript (borrowed). */
struct llm_conf {
	const char	*url;		/* NULL: no rewrite */
	const char	*model;		/* or NULL */
	const char	*key;		/* bearer token, or NULL */
	int		 timeout;	/* seconds for the whole request */
};

/* A sentence of the model's reply the fence left out of the rewrite. */
struct llm_drop {
	char		*sentence;	/* as the reply wrote it (owned) */
	const char	*reason;	/* one of fence_reasons (static) */
};

struct llm_result {
	char		*text;		/* the rewrite (new), or NULL */
	const char	*rejected;	/* NULL, or why the draft stays (static) */
	char		*detail;	/* what was wrong (new), or NULL */
	/* with a rewrite, the sentences of the reply left out (owned) */
	struct llm_drop	*dropped;
	size_t		 ndropped;
};

/*
 * Ask the model of l to rewrite ep's transcript (ep and day are only
 * read), given the fact sheet of the episode (sheet.h) as JSON, waiting
 * at most l->timeout seconds, and judge its reply by the fence of the
 * sheet (fence_judge). Accepted: res->text, without the sentences the
 * fence dropped (res->dropped). Else res->rejected is a reason of
 * llm_reasons.
 */
void	 llm_rewrite(const struct llm_conf *l, const struct day *day,
	    const struct episode *ep, struct llm_result *res);
/*
 * The same given the sheet (freed here): a show's (sheet_of_show), whose
 * request adds llm_show_rules to the system message.
 */
struct sheet;
void	 llm_rewrite_sheet(const struct llm_conf *l, struct sheet *sh,
	    const struct episode *ep, struct llm_result *res);
/* Free what res holds and zero it. */
void	 llm_result_clear(struct llm_result *res);
/* The reasons a rewrite is not used, NULL-terminated: the fence's, then
 * the request's. */
extern const char *const llm_reasons[];
/* The system message: the show's voice and the rules of the fence. */
extern const char llm_system_prompt[];
/* What the system message adds for a show's episode (several repositories). */
extern const char llm_show_rules[];

#endif
