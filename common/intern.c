/* A table of distinct strings, each kept once. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "intern.h"
#include "record.h"

#define INTERN_MIN_CAP	8

/* The index slot of s: its place + 1, or the empty slot it would take. */
static size_t
intern_slot(const struct intern *t, const char *s)
{
	size_t		mask = t->index_cap - 1;
	size_t		i = (size_t)(hash_str(s) & mask);
	uint32_t	v;

	while ((v = t->index[i]) != 0 && strcmp(t->v[v - 1], s) != 0)
		i = (i + 1) & mask;
	return i;
}

/*
 * Room for one more string: the array doubles, and the index stays at
 * most half full. 0 or -1 (the table is as it was).
 */
static int
intern_reserve(struct intern *t)
{
	uint32_t	*index;
	char		**v;
	size_t		 cap, i;

	if (t->n == t->cap) {
		cap = t->cap != 0 ? t->cap * 2 : INTERN_MIN_CAP;
		if (cap < t->cap || cap > UINT32_MAX - 1 ||
		    (v = reallocarray(t->v, cap, sizeof(*v))) == NULL)
			return -1;
		t->v = v;
		t->cap = cap;
	}
	if (2 * (t->n + 1) <= t->index_cap)
		return 0;
	cap = t->index_cap != 0 ? t->index_cap * 2 : 2 * INTERN_MIN_CAP;
	if ((index = calloc(cap, sizeof(*index))) == NULL)
		return -1;
	free(t->index);
	t->index = index;
	t->index_cap = cap;
	for (i = 0; i < t->n; i++)
		t->index[intern_slot(t, t->v[i])] = (uint32_t)i + 1;
	return 0;
}

char *
intern_add(struct intern *t, const char *s)
{
	size_t	slot;
	char	*copy;

	if (s == NULL)
		return NULL;
	if (t->index_cap != 0) {
		slot = intern_slot(t, s);
		if (t->index[slot] != 0)
			return t->v[t->index[slot] - 1];
	}
	if (intern_reserve(t) == -1 || (copy = strdup(s)) == NULL)
		return NULL;
	slot = intern_slot(t, s);
	t->v[t->n] = copy;
	t->index[slot] = (uint32_t)++t->n;
	t->bytes += intern_str_bytes(s);
	return copy;
}

size_t
intern_str_bytes(const char *s)
{
	return s != NULL ? strlen(s) + 1 + RECORD_ALLOC_OVERHEAD : 0;
}

void
intern_clear(struct intern *t)
{
	size_t	i;

	for (i = 0; i < t->n; i++)
		free(t->v[i]);
	free(t->v);
	free(t->index);
	memset(t, 0, sizeof(*t));
}
