/* The day store: repositories' open days and the accepted deliveries. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "log.h"
#include "store.h"
#include "xmalloc.h"

/* gaps remembered per repository; older ones are forgotten past this */
#define STORE_MAX_MISSING	64

struct seen {
	char	*key;		/* "hook id:GUID"; NULL for an empty slot */
	time_t	 at;
};

struct store {
	struct store_repo	*repos;
	size_t			 nrepos;

	struct seen		*seen;	/* open addressing, linear probing */
	size_t			 seen_cap;
	size_t			 nseen;
};

struct store *
store_new(void)
{
	struct store	*s = xcalloc(1, sizeof(*s));

	s->seen_cap = 1024;
	s->seen = xcalloc(s->seen_cap, sizeof(*s->seen));
	return s;
}

void
store_free(struct store *s)
{
	size_t	i, j;

	if (s == NULL)
		return;
	for (i = 0; i < s->nrepos; i++) {
		free(s->repos[i].name);
		day_free(s->repos[i].day);
		for (j = 0; j < s->repos[i].nheads; j++) {
			free(s->repos[i].head_branch[j]);
			free(s->repos[i].head_after[j]);
		}
		free(s->repos[i].head_branch);
		free(s->repos[i].head_after);
		for (j = 0; j < s->repos[i].nmissing; j++)
			free(s->repos[i].missing[j]);
		free(s->repos[i].missing);
	}
	free(s->repos);
	for (i = 0; i < s->seen_cap; i++)
		free(s->seen[i].key);
	free(s->seen);
	free(s);
}

struct store_repo *
store_repo(struct store *s, const char *name, int create, time_t start)
{
	size_t			 i;
	struct store_repo	*r;

	for (i = 0; i < s->nrepos; i++)
		if (strcasecmp(s->repos[i].name, name) == 0)
			return &s->repos[i];
	if (!create)
		return NULL;
	s->repos = xreallocarray(s->repos, s->nrepos + 1, sizeof(*s->repos));
	r = &s->repos[s->nrepos++];
	memset(r, 0, sizeof(*r));
	r->name = xstrdup(name);
	r->day = day_new(name, start);
	return r;
}

size_t
store_nrepos(const struct store *s)
{
	return s->nrepos;
}

struct store_repo *
store_repo_at(struct store *s, size_t i)
{
	return i < s->nrepos ? &s->repos[i] : NULL;
}

/* FNV-1a, enough to spread GUIDs. */
static uint64_t
store_hash(const char *key)
{
	uint64_t	h = 1469598103934665603ULL;

	for (; *key != '\0'; key++) {
		h ^= (unsigned char)*key;
		h *= 1099511628211ULL;
	}
	return h;
}

char *
store_key(const char *hook_id, const char *guid)
{
	char	*key;

	xasprintf(&key, "%s:%s", hook_id != NULL ? hook_id : "", guid);
	return key;
}

static struct seen *
store_slot(const struct store *s, const char *key)
{
	size_t	i = (size_t)(store_hash(key) & (s->seen_cap - 1));

	while (s->seen[i].key != NULL && strcmp(s->seen[i].key, key) != 0)
		i = (i + 1) & (s->seen_cap - 1);
	return &s->seen[i];
}

int
store_seen(const struct store *s, const char *key)
{
	return store_slot(s, key)->key != NULL;
}

size_t
store_seen_list(const struct store *s, const char ***keys, time_t **at)
{
	size_t	i, n = 0;

	*keys = xcalloc(s->nseen + 1, sizeof(**keys));
	*at = xcalloc(s->nseen + 1, sizeof(**at));
	for (i = 0; i < s->seen_cap; i++) {
		if (s->seen[i].key == NULL)
			continue;
		(*keys)[n] = s->seen[i].key;
		(*at)[n++] = s->seen[i].at;
	}
	return n;
}

static void
store_seen_rehash(struct store *s, size_t cap)
{
	struct seen	*old = s->seen, *slot;
	size_t		 oldcap = s->seen_cap, i;

	s->seen = xcalloc(cap, sizeof(*s->seen));
	s->seen_cap = cap;
	for (i = 0; i < oldcap; i++) {
		if (old[i].key == NULL)
			continue;
		slot = store_slot(s, old[i].key);
		*slot = old[i];
	}
	free(old);
}

void
store_mark(struct store *s, const char *k, time_t at)
{
	char		*key = xstrdup(k);
	struct seen	*slot;

	if ((s->nseen + 1) * 2 > s->seen_cap)
		store_seen_rehash(s, s->seen_cap * 2);
	slot = store_slot(s, key);
	if (slot->key != NULL) {
		free(key);
		return;
	}
	slot->key = key;
	slot->at = at;
	s->nseen++;
}

void
store_prune_seen(struct store *s, time_t cutoff)
{
	size_t	i, kept = 0;

	for (i = 0; i < s->seen_cap; i++) {
		if (s->seen[i].key == NULL)
			continue;
		if (s->seen[i].at < cutoff) {
			free(s->seen[i].key);
			s->seen[i].key = NULL;
		} else
			kept++;
	}
	s->nseen = kept;
	/* re-insert so probe chains have no holes */
	store_seen_rehash(s, s->seen_cap);
}

size_t
store_nseen(const struct store *s)
{
	return s->nseen;
}

int
store_add(struct store *s, struct handler_result *res, time_t start,
    size_t *new_commits)
{
	struct store_repo	*r;
	size_t			 i, added = 0;
	int			 rc;

	if (res->repo == NULL)
		return 0;
	r = store_repo(s, res->repo, 1, start);
	if (r->day->default_branch == NULL && res->default_branch != NULL)
		r->day->default_branch = xstrdup(res->default_branch);
	for (i = 0; i < res->ncommits; i++) {
		if ((rc = day_add_commit(r->day, &res->commits[i])) == -1)
			return -1;
		added += (size_t)rc;
	}
	if (res->pr != NULL && day_add_pr(r->day, res->pr) == -1)
		return -1;
	if (res->push != NULL && day_add_push(r->day, res->push) == -1)
		return -1;
	*new_commits = added;
	return 0;
}

struct day *
store_rotate(struct store *s, struct store_repo *r, time_t start)
{
	struct day	*old = r->day;

	r->day = day_new(r->name, start);
	if (old->default_branch != NULL)
		r->day->default_branch = xstrdup(old->default_branch);
	return old;
}

int
store_note_push(struct store_repo *r, const struct push *p)
{
	size_t	 i, k;
	int	 gap = 0;
	char	*key;

	if (p->branch == NULL || p->after == NULL)
		return 0;
	for (i = 0; i < r->nheads; i++)
		if (strcmp(r->head_branch[i], p->branch) == 0)
			break;
	if (i == r->nheads) {
		r->head_branch = xreallocarray(r->head_branch, r->nheads + 1,
		    sizeof(*r->head_branch));
		r->head_after = xreallocarray(r->head_after, r->nheads + 1,
		    sizeof(*r->head_after));
		r->head_branch[i] = xstrdup(p->branch);
		r->head_after[i] = NULL;
		r->nheads++;
	}
	/* the branch is already there (the same push sent again) */
	if (r->head_after[i] != NULL && strcmp(r->head_after[i], p->after) == 0)
		return 0;
	xasprintf(&key, "%s\n%s", p->branch, p->after);
	for (k = 0; k < r->nmissing; k++) {
		if (strcmp(r->missing[k], key) != 0)
			continue;
		/* the push a gap was missing: it fills it */
		free(r->missing[k]);
		r->missing[k] = r->missing[--r->nmissing];
		free(key);
		return 0;
	}
	free(key);
	if (r->head_after[i] != NULL && p->before != NULL && !p->created &&
	    !p->forced && strcmp(r->head_after[i], p->before) != 0) {
		gap = 1;
		/* what this push builds on never came: remember it */
		if (r->nmissing < STORE_MAX_MISSING) {
			r->missing = xreallocarray(r->missing, r->nmissing + 1,
			    sizeof(*r->missing));
			xasprintf(&r->missing[r->nmissing++], "%s\n%s",
			    p->branch, p->before);
		}
	}
	free(r->head_after[i]);
	r->head_after[i] = xstrdup(p->after);
	return gap;
}
