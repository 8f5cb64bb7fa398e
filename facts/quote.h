/*
 * What a commit message gives to quote verbatim: figures and settings.
 * No libevent, no jansson.
 */
#ifndef HOOKCAST_QUOTE_H
#define HOOKCAST_QUOTE_H

#include <stddef.h>

#include "buf.h"

/* A breaking change a message states. */
enum quote_break {
	QUOTE_BREAK_NONE,
	QUOTE_BREAK_SUPPORT,	/* support for something dropped */
	QUOTE_BREAK_MINIMUM,	/* a minimum version raised */
	QUOTE_BREAK_DEFAULT,	/* a default flipped */
	QUOTE_BREAK_REMOVED,	/* a (deprecated) API removed */
};

/* Figures quoted from text ("1.7x", "35%", "2.5 GB"): how many were stored. */
size_t		 quote_figures(const char *, char **out, size_t max);
/* A setting, flag or environment variable the message names (new), or NULL. */
char		*quote_setting(const char *subject, const char *body);
/* Whether the message introduces setting (add, new, now, option...). */
int		 quote_setting_new(const char *subject, const char *body,
		    const char *setting);

/*
 * Append to out the payoff of setting from the message's motivation ("if
 * you want ...", "so that ...", "to avoid ..."); 1 if one was found.
 */
int		 quote_payoff(const char *subject, const char *body,
		    const char *setting, struct buf *out);
/*
 * The breaking change a message states, if any; *what (new, or NULL) the
 * words it concerns: "pypy-3.10", "torch 2.11+", "UintxLayout".
 */
enum quote_break quote_breaking(const char *subject, const char *body,
		    char **what);
/*
 * A release a subject announces ("release: v8.1.1", "Release 2.3.0",
 * "release: create-vite@9.1.1", "Bump version to 1.2.0", "v3.0.0"): the
 * version without its "v" in *version and a package named before "@" in
 * *pkg (both new, *pkg NULL when none). 1 if it is one.
 */
int		 quote_release(const char *subject, char **pkg,
		    char **version);

#endif
