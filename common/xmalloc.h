/*
 * Allocation wrappers that abort on failure, for our own small bookkeeping
 * (never sized by outside input without a cap checked first).
 */
#ifndef HOOKCAST_XMALLOC_H
#define HOOKCAST_XMALLOC_H

#include <stddef.h>

void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xrealloc(void *, size_t);
void	*xreallocarray(void *, size_t, size_t);
char	*xstrdup(const char *);
char	*xstrndup(const char *, size_t);
/* xstrdup that passes NULL through. */
char	*xstrdup_null(const char *);
int	 xasprintf(char **, const char *, ...)
	    __attribute__((format(printf, 2, 3)));

#endif
