/*
 * What a commit message gives to quote verbatim: figures and settings.
 * No libevent, no jansson.
 */
#ifndef HOOKCAST_QUOTE_H
#define HOOKCAST_QUOTE_H

#include <stddef.h>

/* Figures quoted from text ("1.7x", "35%", "2.5 GB"): how many were stored. */
size_t		 quote_figures(const char *, char **out, size_t max);
/* A setting, flag or environment variable the message names (new), or NULL. */
char		*quote_setting(const char *subject, const char *body);
/* Whether the message introduces setting (add, new, now, option...). */
int		 quote_setting_new(const char *subject, const char *body,
		    const char *setting);

#endif
