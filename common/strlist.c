/* A list of owned strings. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "strlist.h"
#include "xmalloc.h"

void
strlist_add(struct strlist *l, const char *s)
{
	l->v = xreallocarray(l->v, l->n + 1, sizeof(*l->v));
	l->v[l->n++] = xstrdup(s);
}

void
strlist_clear(struct strlist *l)
{
	strv_free(l->v, l->n);
	l->v = NULL;
	l->n = 0;
}

int
strlist_contains(const struct strlist *l, const char *s)
{
	size_t	i;

	for (i = 0; i < l->n; i++)
		if (strcmp(l->v[i], s) == 0)
			return 1;
	return 0;
}

void
strlist_split(struct strlist *l, const char *s)
{
	const char	*p = s, *e;

	while (*p != '\0') {
		while (*p == ',' || isspace((unsigned char)*p))
			p++;
		if (*p == '\0')
			break;
		e = p;
		while (*e != '\0' && *e != ',')
			e++;
		{
			const char *t = e;
			char *item;

			while (t > p && isspace((unsigned char)t[-1]))
				t--;
			item = xstrndup(p, (size_t)(t - p));
			strlist_add(l, item);
			free(item);
		}
		p = e;
	}
}

void
strv_free(char **v, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}
