/* The day store: repositories' open days and the accepted deliveries. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hash.h"
#include "log.h"
#include "store.h"
#include "xmalloc.h"

/* gaps remembered per repository; older ones are forgotten past this */
#define STORE_MAX_MISSING	64
/* refused repositories whose refusal is remembered as logged */
#define STORE_MAX_TOLD		1024

/*
 * The accepted deliveries' keys, for dedup: a ring of entries in the
 * order they were marked, and an index of their places in the ring (open
 * addressing, linear probing, place + 1 under a tag, SEEN_TAG; 0 is an
 * empty slot). Past max_seen the oldest marked is forgotten as each new
 * one comes: a pop from the ring and a deletion from the index (moving
 * back the entries after it in its chain), never a sort or a rehash of
 * the whole set, which stopped the loop for tens of milliseconds a time
 * at 200,000 keys. Marks come in time order but for a clock step, so the
 * oldest marked is the oldest; pruning by time reads every entry (once a
 * day).
 *
 * An entry is 24 bytes, in the ring itself: no allocation per key. A key
 * as GitHub's headers make it, "hook id:GUID" with a decimal hook id (or
 * none) and the GUID in canonical lower-case 8-4-4-4-12 hex, is kept
 * exactly as its 16 GUID bytes and the hook id, and written back from
 * them (store_seen_list) byte for byte. Any other key (an upper-case or
 * odd GUID, a hook id past 32 bits) keeps its string, so that every key
 * stays exact: a digest would have made two keys one, however unlikely.
 * Such keys are rare (GitHub sends the canonical form), so their cost
 * (the string's allocation) does not weigh on the set.
 *
 * The ring is kept in blocks of SEEN_BLOCK entries, found by a ring of
 * block pointers: a place (numbered modulo SEEN_PLACES) never moves, and
 * only the blocks holding entries are allocated. One doubled array of
 * entries held up to twice what it used, and the copy at each doubling
 * held three times over while it lasted; blocks leave at most one block
 * spare at the tail and one part used at the head. The index is grown on
 * its own, doubling once it is half full: 8 to 16 bytes a key.
 */
#define SEEN_ID_LEN	16
/* struct seen's hook: a key with no hook id, a key kept as its string */
#define SEEN_NO_HOOK	0
#define SEEN_STRING	UINT32_MAX
#define SEEN_MAX_HOOK	(UINT32_MAX - 2)	/* the hook ids that fit */
/* the longest key in the compact form: hook id, ':', GUID, NUL */
#define SEEN_KEY_MAX	(10 + 1 + 36 + 1)
/* entries per block of the ring (6 KB): a power of two */
#define SEEN_BLOCK_SHIFT	8
#define SEEN_BLOCK	((size_t)1 << SEEN_BLOCK_SHIFT)
/* places are numbered modulo this, so that place + 1 fits under a tag */
#define SEEN_PLACES	((size_t)1 << 27)
/*
 * An index slot holds place + 1 under four bits of its key's hash (the
 * top ones; the slot comes from the bottom ones): a look-up passes by
 * most entries not its own on those bits, without reading the entry, its
 * block or its bytes. Every new delivery's look-up is one that misses.
 */
#define SEEN_TAG_SHIFT	28
#define SEEN_TAG(h)	((uint32_t)((h) >> 60) << SEEN_TAG_SHIFT)
#define SEEN_PLACE(v)	(((v) & ((1U << SEEN_TAG_SHIFT) - 1)) - 1)
/*
 * Keys kept at most whatever max_seen says (the ring's places must not
 * come round to its head): far past the configuration's own bound.
 */
#define SEEN_MAX	(SEEN_PLACES - SEEN_BLOCK)

struct seen {
	/* the GUID's bytes; with SEEN_STRING, a char * to the key (owned) */
	uint8_t		 id[SEEN_ID_LEN];
	uint32_t	 hook;	/* hook id + 1, SEEN_NO_HOOK, SEEN_STRING */
	/*
	 * When it was accepted, in seconds since 1970 to 2106; a time
	 * outside is kept as the nearer end (times only order entries and
	 * are compared with a day's cutoff).
	 */
	uint32_t	 at;
};

struct store {
	struct store_repo     **repos;	/* in the order first seen */
	size_t			 nrepos;
	size_t			 repos_cap;
	struct store_repo     **index;	/* open addressing by name */
	size_t			 index_cap;

	/* marked keys by place >> SEEN_BLOCK_SHIFT, masked; NULL or a block */
	struct seen	       **blocks;
	size_t			 blocks_cap;	/* a power of two */
	size_t			 seen_head;	/* the oldest one's place */
	size_t			 nseen;
	uint32_t		*seen_index;	/* tag | place + 1, or 0 */
	size_t			 seen_index_cap; /* a power of two */
	size_t			 forgot;	/* since the last notice */
	int			 bound_told;	/* the first is noticed */

	struct store_limits	 limits;
	size_t			 bytes;		/* the repos' r->bytes */
	size_t			 held_back;	/* admitted, not yet added */
	uint64_t		 refusals[STORE_QUOTA_MAX];
	char		       **told;	/* refused repositories logged */
	size_t			 ntold;
};

static void	 store_seen_clear(struct seen *);

/* The entry at a place of the ring. */
static struct seen *
store_seen_at(const struct store *s, size_t place)
{
	return &s->blocks[(place >> SEEN_BLOCK_SHIFT) &
	    (s->blocks_cap - 1)][place & (SEEN_BLOCK - 1)];
}

/* The place of the i-th oldest entry. */
static size_t
store_seen_place(const struct store *s, size_t i)
{
	return (s->seen_head + i) & (SEEN_PLACES - 1);
}

static const char *const store_quota_names[STORE_QUOTA_MAX] = {
	[STORE_QUOTA_OK] = "ok",
	[STORE_QUOTA_NOT_ALLOWED] = "not_allowed",
	[STORE_QUOTA_REPOSITORIES] = "repositories",
	[STORE_QUOTA_COMMITS] = "commits_per_day",
	[STORE_QUOTA_DELIVERIES] = "deliveries_per_day",
	[STORE_QUOTA_BYTES] = "open_bytes",
};

struct store *
store_new(void)
{
	struct store	*s = xcalloc(1, sizeof(*s));

	s->blocks_cap = 8;
	s->blocks = xcalloc(s->blocks_cap, sizeof(*s->blocks));
	s->seen_index_cap = 1024;
	s->seen_index = xcalloc(s->seen_index_cap, sizeof(*s->seen_index));
	s->index_cap = 64;
	s->index = xcalloc(s->index_cap, sizeof(*s->index));
	return s;
}

static void
store_repo_free(struct store_repo *r)
{
	size_t	j;

	free(r->name);
	day_free(r->day);
	day_free(r->drafting);
	for (j = 0; j < r->nheads; j++) {
		free(r->head_branch[j]);
		free(r->head_after[j]);
	}
	free(r->head_branch);
	free(r->head_after);
	for (j = 0; j < r->nmissing; j++)
		free(r->missing[j]);
	free(r->missing);
	free(r);
}

static void
store_told_clear(struct store *s)
{
	size_t	i;

	for (i = 0; i < s->ntold; i++)
		free(s->told[i]);
	free(s->told);
	s->told = NULL;
	s->ntold = 0;
}

void
store_free(struct store *s)
{
	size_t	i;

	if (s == NULL)
		return;
	for (i = 0; i < s->nrepos; i++)
		store_repo_free(s->repos[i]);
	free(s->repos);
	free(s->index);
	for (i = 0; i < s->nseen; i++)
		store_seen_clear(store_seen_at(s, store_seen_place(s, i)));
	for (i = 0; i < s->blocks_cap; i++)
		free(s->blocks[i]);
	free(s->blocks);
	free(s->seen_index);
	store_told_clear(s);
	free(s);
}

void
store_set_limits(struct store *s, const struct store_limits *l)
{
	s->limits = *l;
}

/* The index slot of name: its entry, or the empty slot it would take. */
static struct store_repo **
store_index_slot(const struct store *s, const char *name)
{
	size_t	i = (size_t)(hash_str_lower(name) & (s->index_cap - 1));

	while (s->index[i] != NULL && strcasecmp(s->index[i]->name, name) != 0)
		i = (i + 1) & (s->index_cap - 1);
	return &s->index[i];
}

/* Rebuild the index from the list, at least twice as large as it. */
static void
store_index_rebuild(struct store *s)
{
	size_t	i, cap = 64;

	while (cap < 2 * (s->nrepos + 1))
		cap *= 2;
	free(s->index);
	s->index = xcalloc(cap, sizeof(*s->index));
	s->index_cap = cap;
	for (i = 0; i < s->nrepos; i++)
		*store_index_slot(s, s->repos[i]->name) = s->repos[i];
}

struct store_repo *
store_repo(struct store *s, const char *name, int create, time_t start)
{
	struct store_repo	**slot, *r;

	slot = store_index_slot(s, name);
	if (*slot != NULL || !create)
		return *slot;
	r = xcalloc(1, sizeof(*r));
	r->name = xstrdup(name);
	r->day = day_new(name, start);
	r->active = 1;
	if (s->nrepos == s->repos_cap) {
		s->repos_cap = s->repos_cap == 0 ? 16 : 2 * s->repos_cap;
		s->repos = xreallocarray(s->repos, s->repos_cap,
		    sizeof(*s->repos));
	}
	s->repos[s->nrepos++] = r;
	if (2 * s->nrepos > s->index_cap)
		store_index_rebuild(s);
	else
		*slot = r;
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
	return i < s->nrepos ? s->repos[i] : NULL;
}

char *
store_key(const char *hook_id, const char *guid)
{
	char	*key;

	xasprintf(&key, "%s:%s", hook_id != NULL ? hook_id : "", guid);
	return key;
}

/* The key string of an entry kept as one (SEEN_STRING). */
static char *
store_seen_str(const struct seen *e)
{
	char	*key;

	memcpy(&key, e->id, sizeof(key));
	return key;
}

/* The value of a lower-case hex digit, or -1. */
static int
store_hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/*
 * An entry for key, to look it up or mark it: in the compact form when
 * key is "hook id:GUID" as GitHub's headers make it, else a
 * SEEN_STRING entry borrowing key (see struct seen). at is left 0.
 */
static void
store_seen_entry(const char *key, struct seen *e)
{
	const char	*colon, *g, *p;
	uint8_t		 id[SEEN_ID_LEN];
	uint64_t	 hook = 0;
	size_t		 i, n;
	int		 hi, lo;

	memset(e, 0, sizeof(*e));
	e->hook = SEEN_STRING;
	memcpy(e->id, &key, sizeof(key));
	if ((colon = strchr(key, ':')) == NULL)
		return;
	/* the hook id: none, "0", or digits without a leading zero */
	n = (size_t)(colon - key);
	if (n > 10 || (n > 1 && key[0] == '0'))
		return;
	for (p = key; p < colon; p++) {
		if (*p < '0' || *p > '9')
			return;
		hook = hook * 10 + (uint64_t)(*p - '0');
	}
	if (n > 0 && hook > SEEN_MAX_HOOK)
		return;
	g = colon + 1;
	if (strlen(g) != 36)
		return;
	for (i = 0, p = g; *p != '\0'; ) {
		if (p - g == 8 || p - g == 13 || p - g == 18 || p - g == 23) {
			if (*p++ != '-')
				return;
			continue;
		}
		if ((hi = store_hexval(p[0])) == -1 ||
		    (lo = store_hexval(p[1])) == -1)
			return;
		id[i++] = (uint8_t)(hi << 4 | lo);
		p += 2;
	}
	memcpy(e->id, id, sizeof(id));
	e->hook = n == 0 ? SEEN_NO_HOOK : (uint32_t)hook + 1;
}

/* An entry's key as store_key made it; buf holds SEEN_KEY_MAX bytes. */
static const char *
store_seen_text(const struct seen *e, char *buf)
{
	static const char	 hex[] = "0123456789abcdef";
	char			*o = buf;
	size_t			 i;

	if (e->hook == SEEN_STRING)
		return store_seen_str(e);
	if (e->hook != SEEN_NO_HOOK)
		o += snprintf(o, SEEN_KEY_MAX, "%lu",
		    (unsigned long)(e->hook - 1));
	*o++ = ':';
	for (i = 0; i < SEEN_ID_LEN; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			*o++ = '-';
		*o++ = hex[e->id[i] >> 4];
		*o++ = hex[e->id[i] & 0xf];
	}
	*o = '\0';
	return buf;
}

static uint64_t
store_seen_hash(const struct seen *e)
{
	uint8_t	b[SEEN_ID_LEN + sizeof(e->hook)];

	if (e->hook == SEEN_STRING)
		return hash_str(store_seen_str(e));
	memcpy(b, e->id, SEEN_ID_LEN);
	memcpy(b + SEEN_ID_LEN, &e->hook, sizeof(e->hook));
	return hash_mem(b, sizeof(b));
}

static int
store_seen_same(const struct seen *a, const struct seen *b)
{
	if (a->hook != b->hook)
		return 0;
	if (a->hook == SEEN_STRING)
		return strcmp(store_seen_str(a), store_seen_str(b)) == 0;
	return memcmp(a->id, b->id, SEEN_ID_LEN) == 0;
}

/* A time as an entry keeps it (struct seen). */
static uint32_t
store_seen_time(time_t at)
{
	if (at < 0)
		return 0;
	if ((uint64_t)at > UINT32_MAX)
		return UINT32_MAX;
	return (uint32_t)at;
}

/*
 * The index slot of an entry like e, or of the empty slot it would take;
 * *tag is e's tag (SEEN_TAG).
 */
static size_t
store_seen_slot(const struct store *s, const struct seen *e, uint32_t *tag)
{
	size_t		mask = s->seen_index_cap - 1;
	uint64_t	h = store_seen_hash(e);
	size_t		i = (size_t)(h & mask);
	uint32_t	v;

	*tag = SEEN_TAG(h);
	while ((v = s->seen_index[i]) != 0 &&
	    (v >> SEEN_TAG_SHIFT << SEEN_TAG_SHIFT != *tag ||
	    !store_seen_same(store_seen_at(s, SEEN_PLACE(v)), e)))
		i = (i + 1) & mask;
	return i;
}

int
store_seen(const struct store *s, const char *key)
{
	struct seen	e;
	uint32_t	tag;

	store_seen_entry(key, &e);
	return s->seen_index[store_seen_slot(s, &e, &tag)] != 0;
}

size_t
store_seen_list(const struct store *s, char ***keys, time_t **at)
{
	const struct seen	*e;
	char			 buf[SEEN_KEY_MAX];
	size_t			 i;

	*keys = xcalloc(s->nseen + 1, sizeof(**keys));
	*at = xcalloc(s->nseen + 1, sizeof(**at));
	/* in the order marked, so that a replay marks them so again */
	for (i = 0; i < s->nseen; i++) {
		e = store_seen_at(s, store_seen_place(s, i));
		(*keys)[i] = xstrdup(store_seen_text(e, buf));
		(*at)[i] = (time_t)e->at;
	}
	return s->nseen;
}

/* Index every entry anew in an index of cap slots. */
static void
store_seen_reindex(struct store *s, size_t cap)
{
	struct seen	*e;
	size_t		 i, slot;
	uint32_t	 tag;

	if (cap != s->seen_index_cap) {
		free(s->seen_index);
		s->seen_index = xcalloc(cap, sizeof(*s->seen_index));
		s->seen_index_cap = cap;
	} else
		memset(s->seen_index, 0, cap * sizeof(*s->seen_index));
	for (i = 0; i < s->nseen; i++) {
		e = store_seen_at(s, store_seen_place(s, i));
		slot = store_seen_slot(s, e, &tag);
		s->seen_index[slot] = tag |
		    ((uint32_t)store_seen_place(s, i) + 1);
	}
}

/*
 * The block of place (the next one marked) allocated, the ring of block
 * pointers doubled first if the blocks from the head's to it would not
 * fit it.
 */
static void
store_seen_block(struct store *s, size_t place)
{
	struct seen	**blocks, **b;
	size_t		  head = s->seen_head >> SEEN_BLOCK_SHIFT, span, i, n;

	span = ((place >> SEEN_BLOCK_SHIFT) - head) &
	    (SEEN_PLACES / SEEN_BLOCK - 1);
	if (span >= s->blocks_cap) {
		/* the same block numbers, masked anew: their places stay */
		blocks = xcalloc(2 * s->blocks_cap, sizeof(*blocks));
		for (i = 0; i < s->blocks_cap; i++) {
			n = (head + i) & (SEEN_PLACES / SEEN_BLOCK - 1);
			blocks[n & (2 * s->blocks_cap - 1)] =
			    s->blocks[n & (s->blocks_cap - 1)];
		}
		free(s->blocks);
		s->blocks = blocks;
		s->blocks_cap *= 2;
	}
	b = &s->blocks[(place >> SEEN_BLOCK_SHIFT) & (s->blocks_cap - 1)];
	if (*b == NULL)
		*b = xreallocarray(NULL, SEEN_BLOCK, sizeof(**b));
}

/* Free the block of place, which holds no entry now. */
static void
store_seen_unblock(struct store *s, size_t place)
{
	struct seen	**b;

	b = &s->blocks[(place >> SEEN_BLOCK_SHIFT) & (s->blocks_cap - 1)];
	free(*b);
	*b = NULL;
}

/*
 * Empty index slot i, moving back each entry after it in the chain that
 * could have been placed at or before it (linear probing keeps no
 * tombstones).
 */
static void
store_seen_unindex(struct store *s, size_t i)
{
	size_t	mask = s->seen_index_cap - 1, j = i, home;

	for (;;) {
		j = (j + 1) & mask;
		if (s->seen_index[j] == 0)
			break;
		home = (size_t)(store_seen_hash(store_seen_at(s,
		    SEEN_PLACE(s->seen_index[j]))) & mask);
		/* it stays when its home is cyclically in (i, j] */
		if (i <= j ? (i < home && home <= j) : (i < home || home <= j))
			continue;
		s->seen_index[i] = s->seen_index[j];
		i = j;
	}
	s->seen_index[i] = 0;
}

/* Free what an entry owns and empty it. */
static void
store_seen_clear(struct seen *e)
{
	if (e->hook == SEEN_STRING)
		free(store_seen_str(e));
	memset(e, 0, sizeof(*e));
}

/* Forget the oldest key marked. */
static void
store_seen_pop(struct store *s)
{
	struct seen	*e = store_seen_at(s, s->seen_head);
	size_t		 head = s->seen_head;
	uint32_t	 tag;

	store_seen_unindex(s, store_seen_slot(s, e, &tag));
	store_seen_clear(e);
	s->seen_head = store_seen_place(s, 1);
	s->nseen--;
	if ((s->seen_head & (SEEN_BLOCK - 1)) == 0)
		store_seen_unblock(s, head);
}

/*
 * Past max_seen, forget the oldest as each new one comes, and say so once
 * per max_seen / 8 forgotten (and at the first).
 */
static void
store_seen_bound(struct store *s)
{
	size_t		 max = s->limits.max_seen, every;
	time_t		 newest = 0;
	char		 when[32];
	struct tm	 tm;

	if (max == 0 || max > SEEN_MAX)
		max = SEEN_MAX;
	if (s->nseen <= max)
		return;
	while (s->nseen > max) {
		newest = (time_t)store_seen_at(s, s->seen_head)->at;
		store_seen_pop(s);
		s->forgot++;
	}
	every = max / 8 > 0 ? max / 8 : 1;
	if (s->bound_told && s->forgot < every)
		return;
	gmtime_r(&newest, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	log_notice("seen set at its bound of %zu deliveries (max_seen): "
	    "forgot the %zu oldest, accepted up to %s; a redelivery of one of "
	    "them would be taken again", max, s->forgot, when);
	s->forgot = 0;
	s->bound_told = 1;
}

void
store_mark(struct store *s, const char *k, time_t at)
{
	struct seen	e;
	size_t		slot, place;
	uint32_t	tag;

	store_seen_entry(k, &e);
	slot = store_seen_slot(s, &e, &tag);
	if (s->seen_index[slot] != 0)
		return;
	if (2 * (s->nseen + 1) > s->seen_index_cap) {
		store_seen_reindex(s, 2 * s->seen_index_cap);
		slot = store_seen_slot(s, &e, &tag);
	}
	place = store_seen_place(s, s->nseen);
	if (s->nseen == 0 || (place & (SEEN_BLOCK - 1)) == 0)
		store_seen_block(s, place);
	if (e.hook == SEEN_STRING) {
		/* the entry borrowed k: it keeps a copy */
		k = xstrdup(k);
		memcpy(e.id, &k, sizeof(k));
	}
	e.at = store_seen_time(at);
	*store_seen_at(s, place) = e;
	s->seen_index[slot] = tag | ((uint32_t)place + 1);
	s->nseen++;
	store_seen_bound(s);
}

void
store_prune_seen(struct store *s, time_t cutoff)
{
	size_t		 i, kept = 0, place;
	struct seen	*e;

	/* every entry, not only from the oldest: a clock step reorders */
	for (i = 0; i < s->nseen; i++) {
		e = store_seen_at(s, store_seen_place(s, i));
		if ((time_t)e->at < cutoff) {
			store_seen_clear(e);
			continue;
		}
		*store_seen_at(s, store_seen_place(s, kept++)) = *e;
	}
	/* the blocks past the last one kept (the head's stays) */
	for (i = kept > 0 ? kept : 1; i < s->nseen; i++) {
		place = store_seen_place(s, i);
		if ((place & (SEEN_BLOCK - 1)) == 0)
			store_seen_unblock(s, place);
	}
	s->nseen = kept;
	store_seen_reindex(s, s->seen_index_cap);
}

size_t
store_nseen(const struct store *s)
{
	return s->nseen;
}

size_t
store_result_bytes(const struct handler_result *res)
{
	size_t	i, bytes = 0;

	if (res->repo == NULL)
		return 0;
	for (i = 0; i < res->ncommits; i++)
		bytes += commit_bytes(&res->commits[i]);
	if (res->pr != NULL)
		bytes += merged_pr_bytes(res->pr);
	if (res->push != NULL)
		bytes += push_bytes(res->push);
	return bytes;
}

/* Give back up to bytes held back for admitted deliveries. */
static void
store_unhold(struct store *s, size_t bytes)
{
	s->held_back -= bytes < s->held_back ? bytes : s->held_back;
}

void
store_release(struct store *s, struct handler_result *res)
{
	store_unhold(s, res->held);
	res->held = 0;
}

size_t
store_open_bytes(const struct store *s, size_t *held_back)
{
	if (held_back != NULL)
		*held_back = s->held_back;
	return s->bytes;
}

void
store_recount(struct store *s, struct store_repo *r)
{
	size_t	now = r->day->bytes;

	if (r->drafting != NULL)
		now += r->drafting->bytes;
	s->bytes = s->bytes - r->bytes + now;
	r->bytes = now;
}

int
store_add(struct store *s, struct handler_result *res, time_t start,
    size_t *new_commits)
{
	struct store_repo	*r;
	size_t			 i, added = 0;
	int			 rc = 0;

	if (res->repo == NULL)
		return 0;
	store_release(s, res);
	r = store_repo(s, res->repo, 1, start);
	r->active = 1;
	if (r->day->default_branch == NULL && res->default_branch != NULL)
		r->day->default_branch = xstrdup(res->default_branch);
	if (r->day->html_url == NULL && res->html_url != NULL)
		r->day->html_url = xstrdup(res->html_url);
	for (i = 0; i < res->ncommits && rc != -1; i++) {
		if ((rc = day_add_commit(r->day, &res->commits[i])) != -1)
			added += (size_t)rc;
	}
	if (rc != -1 && res->pr != NULL && day_add_pr(r->day, res->pr) == -1)
		rc = -1;
	if (rc != -1 && res->push != NULL &&
	    day_add_push(r->day, res->push) == -1)
		rc = -1;
	store_recount(s, r);
	if (rc == -1)
		return -1;
	*new_commits = added;
	return 0;
}

/* A new open day for r from start; returns the old, still counted. */
static struct day *
store_new_day(struct store_repo *r, time_t start)
{
	struct day	*old = r->day;

	r->day = day_new(r->name, start);
	r->taken_commits = r->taken_deliveries = 0;
	r->told_commits = r->told_deliveries = r->told_bytes = 0;
	if (old->default_branch != NULL)
		r->day->default_branch = xstrdup(old->default_branch);
	if (old->html_url != NULL)
		r->day->html_url = xstrdup(old->html_url);
	return old;
}

struct day *
store_rotate(struct store *s, struct store_repo *r, time_t start)
{
	struct day	*old = store_new_day(r, start);

	store_recount(s, r);
	return old;
}

int
store_handoff(struct store *s, struct store_repo *r, time_t start)
{
	if (r->drafting != NULL)
		return -1;
	r->day->end = start;
	r->drafting = store_new_day(r, start);
	store_recount(s, r);
	return 0;
}

struct day *
store_drafted(struct store *s, struct store_repo *r)
{
	struct day	*day = r->drafting;

	r->drafting = NULL;
	store_recount(s, r);
	return day;
}

void
store_merge_back(struct store *s, struct store_repo *r)
{
	struct day	*old = r->drafting;

	if (old == NULL)
		return;
	old->end = 0;
	/* out of memory is fatal, as for xmalloc: the journal keeps both */
	if (day_merge(old, r->day) == -1)
		fatalx("%s: out of memory joining the days after a failed "
		    "draft", r->name);
	/* the caps count what the open day admitted: both days now */
	r->taken_commits = old->ncommits;
	day_free(r->day);
	r->day = old;
	r->drafting = NULL;
	store_recount(s, r);
}

int
store_note_push(struct store_repo *r, const struct push *p)
{
	size_t	 i, k;
	int	 gap = 0;
	char	*key, before[PUSH_HEX_LEN + 1], after[PUSH_HEX_LEN + 1];

	r->active = 1;
	if (p->branch == NULL)
		return 0;
	push_id_hex(p->before, before);
	push_id_hex(p->after, after);
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
	if (push_id_none(p->after)) {
		free(r->head_after[i]);
		r->head_after[i] = NULL;
		return 0;
	}
	/* the branch is already there (the same push sent again) */
	if (r->head_after[i] != NULL && strcmp(r->head_after[i], after) == 0)
		return 0;
	xasprintf(&key, "%s\n%s", p->branch, after);
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
	if (r->head_after[i] != NULL && !push_id_none(p->before) &&
	    !p->created && !p->forced &&
	    strcmp(r->head_after[i], before) != 0) {
		gap = 1;
		/* what this push builds on never came: remember it */
		if (r->nmissing < STORE_MAX_MISSING) {
			r->missing = xreallocarray(r->missing, r->nmissing + 1,
			    sizeof(*r->missing));
			xasprintf(&r->missing[r->nmissing++], "%s\n%s",
			    p->branch, before);
		}
	}
	free(r->head_after[i]);
	r->head_after[i] = xstrdup(after);
	return gap;
}

const char *
store_quota_name(enum store_quota q)
{
	return store_quota_names[q];
}

uint64_t
store_refusals(const struct store *s, enum store_quota q)
{
	return s->refusals[q];
}

/* Was repo's refusal logged since the last store_drop_idle? Note it. */
static int
store_told(struct store *s, const char *repo)
{
	size_t	i;

	for (i = 0; i < s->ntold; i++)
		if (strcasecmp(s->told[i], repo) == 0)
			return 1;
	if (s->ntold == STORE_MAX_TOLD)
		return 1;	/* said once below; counted in /metrics */
	s->told = xreallocarray(s->told, s->ntold + 1, sizeof(*s->told));
	s->told[s->ntold++] = xstrdup(repo);
	if (s->ntold == STORE_MAX_TOLD)
		log_warnx("%d repositories refused: further refusals are "
		    "counted in /metrics but not logged until the next "
		    "emission", STORE_MAX_TOLD);
	return 0;
}

/* Count and log (once) a refusal of repo; returns q. */
static enum store_quota
store_refuse(struct store *s, const char *repo, struct store_repo *r,
    enum store_quota q)
{
	char	*esc;
	int	*told = NULL;

	s->refusals[q]++;
	if (r != NULL)
		told = q == STORE_QUOTA_COMMITS ? &r->told_commits :
		    q == STORE_QUOTA_BYTES ? &r->told_bytes :
		    &r->told_deliveries;
	if (told != NULL ? *told : store_told(s, repo))
		return q;
	if (told != NULL)
		*told = 1;
	esc = log_escape(repo, 140);
	switch (q) {
	case STORE_QUOTA_NOT_ALLOWED:
		log_warnx("%s: refusing its deliveries: not one of the "
		    "configured repositories", esc);
		break;
	case STORE_QUOTA_REPOSITORIES:
		log_warnx("%s: refusing its deliveries: %zu repositories are "
		    "open (max_repositories)", esc, s->nrepos);
		break;
	case STORE_QUOTA_COMMITS:
		log_warnx("%s: refusing deliveries that would take its day "
		    "past max_commits_per_day %zu (it holds %zu) until the "
		    "next emission", esc, s->limits.max_commits_per_day,
		    r->taken_commits > r->day->ncommits ? r->taken_commits :
		    r->day->ncommits);
		break;
	case STORE_QUOTA_DELIVERIES:
		log_warnx("%s: refusing deliveries until the next emission: "
		    "its day took max_deliveries_per_day %zu", esc,
		    s->limits.max_deliveries_per_day);
		break;
	case STORE_QUOTA_BYTES:
		log_warnx("%s: refusing deliveries that would take the open "
		    "days past max_open_bytes %zu (they hold %zu, %zu more "
		    "on the way) until an emission gives bytes back", esc,
		    s->limits.max_open_bytes, s->bytes, s->held_back);
		break;
	default:
		break;
	}
	free(esc);
	return q;
}

/*
 * A commit the open day holds adds nothing: a branch merged after its
 * commits were pushed to it, or the same push sent under two delivery
 * ids. The journal is replayed in order, so the day a record meets
 * there holds what this day holds now (deliveries still waiting for
 * their sync are not in it yet: theirs are journalled again, and
 * store_add skips them).
 */
size_t
store_drop_known(struct store *s, struct handler_result *res)
{
	struct store_repo	*r;
	size_t			 i, n = 0;

	if (res->repo == NULL || res->ncommits == 0 ||
	    (r = store_repo(s, res->repo, 0, 0)) == NULL ||
	    r->day->ncommits == 0)
		return 0;
	for (i = 0; i < res->ncommits; i++) {
		if (day_has_commit(r->day, res->commits[i].sha)) {
			commit_clear(&res->commits[i]);
			continue;
		}
		if (n != i)
			res->commits[n] = res->commits[i];
		n++;
	}
	i = res->ncommits - n;
	/* the moved ones' old places: nothing of theirs is owned twice */
	memset(&res->commits[n], 0, i * sizeof(*res->commits));
	res->ncommits = n;
	return i;
}

enum store_quota
store_admit_result(struct store *s, struct handler_result *res, int allowed,
    time_t start)
{
	size_t			bytes = store_result_bytes(res);
	enum store_quota	q;

	q = store_admit(s, res->repo, allowed, res->ncommits, bytes, start);
	if (q == STORE_QUOTA_OK)
		res->held = bytes;
	return q;
}

enum store_quota
store_admit(struct store *s, const char *repo, int allowed, size_t ncommits,
    size_t bytes, time_t start)
{
	const struct store_limits	*l = &s->limits;
	struct store_repo		*r;
	size_t				 commits, deliveries, open;

	if (!allowed)
		return store_refuse(s, repo, NULL, STORE_QUOTA_NOT_ALLOWED);
	if ((r = store_repo(s, repo, 0, 0)) == NULL) {
		if (l->max_repositories > 0 &&
		    s->nrepos >= l->max_repositories)
			return store_refuse(s, repo, NULL,
			    STORE_QUOTA_REPOSITORIES);
		r = store_repo(s, repo, 1, start);
	}
	/* after a restart the counts start from what the day holds */
	commits = r->taken_commits > r->day->ncommits ? r->taken_commits :
	    r->day->ncommits;
	deliveries = r->taken_deliveries > r->day->npushes + r->day->nprs ?
	    r->taken_deliveries : r->day->npushes + r->day->nprs;
	if (l->max_commits_per_day > 0 &&
	    (commits > l->max_commits_per_day ||
	    ncommits > l->max_commits_per_day - commits))
		return store_refuse(s, repo, r, STORE_QUOTA_COMMITS);
	if (l->max_deliveries_per_day > 0 &&
	    deliveries >= l->max_deliveries_per_day)
		return store_refuse(s, repo, r, STORE_QUOTA_DELIVERIES);
	/* all repositories' days, with what is admitted but not added yet */
	open = s->bytes + s->held_back;
	if (l->max_open_bytes > 0 && (open > l->max_open_bytes ||
	    bytes > l->max_open_bytes - open))
		return store_refuse(s, repo, r, STORE_QUOTA_BYTES);
	s->held_back += bytes;
	r->taken_commits = commits + ncommits;
	r->taken_deliveries = deliveries + 1;
	r->active = 1;
	return STORE_QUOTA_OK;
}

static int
store_has_activity(const struct day *day)
{
	return day->ncommits > 0 || day->nprs > 0 || day->npushes > 0;
}

size_t
store_drop_idle(struct store *s)
{
	size_t	i, kept = 0, dropped;

	for (i = 0; i < s->nrepos; i++) {
		if (!s->repos[i]->active && s->repos[i]->drafting == NULL &&
		    !store_has_activity(s->repos[i]->day)) {
			s->bytes -= s->repos[i]->bytes;
			store_repo_free(s->repos[i]);
			continue;
		}
		s->repos[i]->active = 0;
		s->repos[kept++] = s->repos[i];
	}
	dropped = s->nrepos - kept;
	s->nrepos = kept;
	store_index_rebuild(s);
	store_told_clear(s);
	if (dropped > 0)
		log_info("%zu idle repositor%s forgotten, %zu open", dropped,
		    dropped == 1 ? "y" : "ies", kept);
	return dropped;
}
