/*
 * A list of strings, each owned: the configuration's lists (listen,
 * branches, repositories...) and any layer's list of names.
 */
#ifndef HOOKCAST_STRLIST_H
#define HOOKCAST_STRLIST_H

#include <stddef.h>

struct strlist {
	char	**v;
	size_t	  n;
};

/* Append a copy of s. */
void	 strlist_add(struct strlist *, const char *);
/* Free every string and the array; the list is empty again. */
void	 strlist_clear(struct strlist *);
/* Is s one of the list's strings (exactly)? */
int	 strlist_contains(const struct strlist *, const char *);
/* Split "a, b,c" into a list (empty items dropped). */
void	 strlist_split(struct strlist *, const char *);
/*
 * Free n strings and the array holding them (an array of strings kept
 * without a struct strlist); strv_free(NULL, 0) is a no-op.
 */
void	 strv_free(char **, size_t);

#endif
