/*
 * push_scan: the push intake straight from the body, without a json_t.
 *
 * Why two passes: jansson validates the whole body before push_handle
 * looks at a field, and push_handle checks fields in its own order, not
 * the body's. So the first pass validates the body with jscan and notes
 * where each field we read is (a slice of the body, or only its type);
 * everything else (repository URLs, sender, head_commit, ...) is skipped
 * as it is validated. The second pass makes push_handle's checks in
 * push_handle's order over what the first noted, with the checks push.c
 * exports, and copies out only what a push keeps.
 *
 * Duplicate keys are refused in every object the first pass reads: the
 * payload, repository, pusher, each commit and its author and committer.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "handler.h"
#include "jscan.h"
#include "repo.h"
#include "xmalloc.h"

/* A field as the first pass saw it; type JSCAN_END when it is missing. */
struct ps_val {
	enum jscan_tok	 type;
	size_t		 off;		/* where the value starts */
	const char	*str;		/* STRING: the slice */
	size_t		 slen;
	int		 esc;
};

/*
 * added, removed or modified: how many, the first non-string, and room
 * enough for the names unescaped (their lengths as sent, each with a NUL).
 */
struct ps_files {
	struct ps_val	 v;
	size_t		 n;
	size_t		 bad;
	size_t		 bytes;
};

struct ps_person {
	struct ps_val	 v;
	struct ps_val	 name, email, username;
};

struct ps_commit {
	struct ps_val	 v;
	struct ps_val	 id, message, timestamp;
	struct ps_person author, committer;
	struct ps_files	 added, removed, modified;
};

/* A key of an object being read, unescaped when it had escapes. */
struct ps_key {
	const char	*s;
	size_t		 len;
	char		*own;
};

struct ps {
	struct jscan	 js;
	/* the keys of the objects open, innermost last */
	struct ps_key	*keys;
	size_t		 nkeys, keyssize;
	const char	*dupkey;	/* why the body is refused */
	uint16_t	*slots;		/* ps_keys_dup's table */

	struct ps_val	 repository, full_name, default_branch, html_url;
	struct ps_val	 ref, before, after, created, deleted, forced;
	struct ps_val	 pusher, pusher_name;
	struct ps_val	 commits;
	size_t		 ncommits;	/* elements of commits */
	struct ps_commit *commit;	/* the first PUSH_MAX_COMMITS of them */
	size_t		 commitsize;
	struct ps_commit scratch;	/* those past the cap */
};

typedef int (*ps_field_fn)(struct ps *, void *, const char *, size_t);

static int	ps_key_cmp(const void *, const void *);
static int	ps_object(struct ps *, ps_field_fn, void *);
static int	ps_value(struct ps *, struct ps_val *, ps_field_fn, void *);
static int	ps_files(struct ps *, struct ps_files *);
static int	ps_person_field(struct ps *, void *, const char *, size_t);
static int	ps_commit_field(struct ps *, void *, const char *, size_t);
static int	ps_repository_field(struct ps *, void *, const char *, size_t);
static int	ps_pusher_field(struct ps *, void *, const char *, size_t);
static int	ps_commits(struct ps *);
static int	ps_top_field(struct ps *, void *, const char *, size_t);

#define PS_IS(k, l, lit)	((l) == sizeof(lit) - 1 && \
				    memcmp((k), (lit), (l)) == 0)

static int
ps_key_cmp(const void *a, const void *b)
{
	const struct ps_key	*ka = a, *kb = b;
	int			 c;

	c = memcmp(ka->s, kb->s, ka->len < kb->len ? ka->len : kb->len);
	if (c != 0)
		return c;
	return ka->len < kb->len ? -1 : ka->len > kb->len;
}

/*
 * Whether two of the keys from mark on are the same. An object of up to
 * PS_HASH_KEYS keys (every object of a real payload) goes through a
 * table of twice as many slots, so each key is compared only with those
 * of its hash; a larger one is sorted, so that keys chosen to collide
 * cost no more than n log n.
 */
#define PS_HASH_KEYS	256
#define PS_HASH_SLOTS	(2 * PS_HASH_KEYS)
#define PS_SLOT_EMPTY	UINT16_MAX

/*
 * A key's slot in that table: eight bytes at a time, each mixed in by a
 * multiply and a shift (keys are short; a byte at a time was 7,000
 * instructions of a small push).
 */
static size_t
ps_key_hash(const char *s, size_t n)
{
	const uint64_t	k = 0xff51afd7ed558ccdULL;
	uint64_t	h = (uint64_t)n * 0x9e3779b97f4a7c15ULL, w;

	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * k;
		h ^= h >> 32;
	}
	if (n > 0) {
		w = 0;
		memcpy(&w, s, n);
		h = (h ^ w) * k;
		h ^= h >> 32;
	}
	return (size_t)(h ^ (h >> 29));
}

static int
ps_keys_dup(struct ps *ps, size_t mark)
{
	const struct ps_key	*k, *o;
	size_t			 n = ps->nkeys - mark, cap = 16, i, h;

	if (n > PS_HASH_KEYS) {
		qsort(ps->keys + mark, n, sizeof(*ps->keys), ps_key_cmp);
		for (i = mark + 1; i < ps->nkeys; i++)
			if (ps_key_cmp(&ps->keys[i - 1], &ps->keys[i]) == 0)
				return 1;
		return 0;
	}
	while (cap < 2 * n)
		cap *= 2;
	if (ps->slots == NULL)
		ps->slots = xreallocarray(NULL, PS_HASH_SLOTS,
		    sizeof(*ps->slots));
	memset(ps->slots, 0xff, cap * sizeof(*ps->slots));
	for (i = 0; i < n; i++) {
		k = &ps->keys[mark + i];
		h = ps_key_hash(k->s, k->len) & (cap - 1);
		while (ps->slots[h] != PS_SLOT_EMPTY) {
			o = &ps->keys[mark + ps->slots[h]];
			if (o->len == k->len && memcmp(o->s, k->s, k->len) == 0)
				return 1;
			h = (h + 1) & (cap - 1);
		}
		ps->slots[h] = (uint16_t)i;
	}
	return 0;
}

/*
 * Read an object whose '{' was the last token: field is called with each
 * key and must consume its value. Then refuse duplicate keys.
 */
static int
ps_object(struct ps *ps, ps_field_fn field, void *arg)
{
	struct ps_key	*k;
	enum jscan_tok	 t;
	size_t		 mark = ps->nkeys, i;
	int		 rv = 0;

	for (;;) {
		t = jscan_next(&ps->js);
		if (t == JSCAN_OBJECT_END)
			break;
		if (t != JSCAN_KEY) {
			rv = -1;
			goto out;
		}
		if (ps->nkeys == ps->keyssize) {
			ps->keyssize = ps->keyssize == 0 ? 64 :
			    ps->keyssize * 2;
			ps->keys = xreallocarray(ps->keys, ps->keyssize,
			    sizeof(*ps->keys));
		}
		k = &ps->keys[ps->nkeys++];
		k->own = NULL;
		k->s = ps->js.str;
		k->len = ps->js.slen;
		if (ps->js.esc) {
			/* jscan has checked the escapes */
			k->own = jscan_string_dup(k->s, k->len, &k->len);
			if (k->own == NULL) {
				ps->nkeys--;
				rv = -1;
				goto out;
			}
			k->s = k->own;
		}
		if (field(ps, arg, k->s, k->len) == -1) {
			rv = -1;
			goto out;
		}
	}
	if (ps->nkeys - mark > 1 && ps_keys_dup(ps, mark)) {
		ps->dupkey = "duplicate object key";
		rv = -1;
	}
out:
	for (i = mark; i < ps->nkeys; i++)
		free(ps->keys[i].own);
	ps->nkeys = mark;
	return rv;
}

/*
 * Note the next value in v. An object is read with field when field is
 * not NULL; other objects and arrays are skipped.
 */
static int
ps_value(struct ps *ps, struct ps_val *v, ps_field_fn field, void *arg)
{
	enum jscan_tok	t;

	t = jscan_next(&ps->js);
	v->type = t;
	v->off = ps->js.tok;
	switch (t) {
	case JSCAN_STRING:
		v->str = ps->js.str;
		v->slen = ps->js.slen;
		v->esc = ps->js.esc;
		return 0;
	case JSCAN_OBJECT:
		if (field != NULL)
			return ps_object(ps, field, arg);
		return jscan_close(&ps->js);
	default:
		return jscan_finish(&ps->js, t);
	}
}

/* A list of names: count them and note the first that is no string. */
static int
ps_files(struct ps *ps, struct ps_files *f)
{
	enum jscan_tok	t;

	t = jscan_next(&ps->js);
	f->v.type = t;
	f->v.off = ps->js.tok;
	f->n = 0;
	f->bad = (size_t)-1;
	f->bytes = 0;
	if (t != JSCAN_ARRAY)
		return jscan_finish(&ps->js, t);
	for (;; f->n++) {
		t = jscan_next(&ps->js);
		if (t == JSCAN_ARRAY_END) {
			if (f->bad == (size_t)-1)
				f->bad = f->n;
			return 0;
		}
		if (t == JSCAN_STRING) {
			f->bytes += ps->js.slen + 1;
			continue;
		}
		if (jscan_finish(&ps->js, t) == -1)
			return -1;
		if (f->bad == (size_t)-1)
			f->bad = f->n;
	}
}

static int
ps_person_field(struct ps *ps, void *arg, const char *k, size_t l)
{
	struct ps_person	*p = arg;

	if (PS_IS(k, l, "name"))
		return ps_value(ps, &p->name, NULL, NULL);
	if (PS_IS(k, l, "email"))
		return ps_value(ps, &p->email, NULL, NULL);
	if (PS_IS(k, l, "username"))
		return ps_value(ps, &p->username, NULL, NULL);
	return jscan_skip(&ps->js);
}

static int
ps_commit_field(struct ps *ps, void *arg, const char *k, size_t l)
{
	struct ps_commit	*c = arg;

	switch (l) {
	case 2:
		if (PS_IS(k, l, "id"))
			return ps_value(ps, &c->id, NULL, NULL);
		break;
	case 5:
		if (PS_IS(k, l, "added"))
			return ps_files(ps, &c->added);
		break;
	case 6:
		if (PS_IS(k, l, "author"))
			return ps_value(ps, &c->author.v, ps_person_field,
			    &c->author);
		break;
	case 7:
		if (PS_IS(k, l, "message"))
			return ps_value(ps, &c->message, NULL, NULL);
		if (PS_IS(k, l, "removed"))
			return ps_files(ps, &c->removed);
		break;
	case 8:
		if (PS_IS(k, l, "modified"))
			return ps_files(ps, &c->modified);
		break;
	case 9:
		if (PS_IS(k, l, "timestamp"))
			return ps_value(ps, &c->timestamp, NULL, NULL);
		if (PS_IS(k, l, "committer"))
			return ps_value(ps, &c->committer.v, ps_person_field,
			    &c->committer);
		break;
	}
	return jscan_skip(&ps->js);
}

static int
ps_repository_field(struct ps *ps, void *arg, const char *k, size_t l)
{
	if (PS_IS(k, l, "full_name"))
		return ps_value(ps, &ps->full_name, NULL, NULL);
	if (PS_IS(k, l, "default_branch"))
		return ps_value(ps, &ps->default_branch, NULL, NULL);
	if (PS_IS(k, l, "html_url"))
		return ps_value(ps, &ps->html_url, NULL, NULL);
	return jscan_skip(&ps->js);
}

static int
ps_pusher_field(struct ps *ps, void *arg, const char *k, size_t l)
{
	if (PS_IS(k, l, "name"))
		return ps_value(ps, &ps->pusher_name, NULL, NULL);
	return jscan_skip(&ps->js);
}

/* The commits array: each element noted, the first PUSH_MAX_COMMITS kept. */
static int
ps_commits(struct ps *ps)
{
	struct ps_commit	*c;
	enum jscan_tok		 t;

	t = jscan_next(&ps->js);
	ps->commits.type = t;
	ps->commits.off = ps->js.tok;
	switch (t) {
	case JSCAN_OBJECT:
		return jscan_close(&ps->js);
	case JSCAN_ARRAY:
		break;
	case JSCAN_ERROR:
	case JSCAN_END:
	case JSCAN_OBJECT_END:
	case JSCAN_ARRAY_END:
	case JSCAN_KEY:
		return -1;
	default:
		return 0;
	}
	/* a second "commits" is a duplicate key: refused later */
	ps->ncommits = 0;
	for (;;) {
		t = jscan_next(&ps->js);
		if (t == JSCAN_ARRAY_END)
			return 0;
		if (ps->ncommits < PUSH_MAX_COMMITS) {
			if (ps->ncommits == ps->commitsize) {
				ps->commitsize = ps->commitsize == 0 ? 16 :
				    ps->commitsize * 2;
				ps->commit = xreallocarray(ps->commit,
				    ps->commitsize, sizeof(*ps->commit));
			}
			c = &ps->commit[ps->ncommits];
		} else
			c = &ps->scratch;
		memset(c, 0, sizeof(*c));
		ps->ncommits++;
		c->v.type = t;
		c->v.off = ps->js.tok;
		if (t == JSCAN_OBJECT) {
			if (ps_object(ps, ps_commit_field, c) == -1)
				return -1;
		} else if (jscan_finish(&ps->js, t) == -1)
			return -1;
	}
}

static int
ps_top_field(struct ps *ps, void *arg, const char *k, size_t l)
{
	if (PS_IS(k, l, "ref"))
		return ps_value(ps, &ps->ref, NULL, NULL);
	if (PS_IS(k, l, "before"))
		return ps_value(ps, &ps->before, NULL, NULL);
	if (PS_IS(k, l, "after"))
		return ps_value(ps, &ps->after, NULL, NULL);
	if (PS_IS(k, l, "created"))
		return ps_value(ps, &ps->created, NULL, NULL);
	if (PS_IS(k, l, "deleted"))
		return ps_value(ps, &ps->deleted, NULL, NULL);
	if (PS_IS(k, l, "forced"))
		return ps_value(ps, &ps->forced, NULL, NULL);
	if (PS_IS(k, l, "repository"))
		return ps_value(ps, &ps->repository, ps_repository_field,
		    NULL);
	if (PS_IS(k, l, "pusher"))
		return ps_value(ps, &ps->pusher, ps_pusher_field, NULL);
	if (PS_IS(k, l, "commits"))
		return ps_commits(ps);
	return jscan_skip(&ps->js);
}

/*
 * The second pass: hjson_string and hjson_string_opt over a noted value.
 * *out is a new string (NULL for an optional one missing or null); with
 * out NULL the value is only checked.
 */
static int
ps_string(const struct ps_val *v, const char *path, const char *key,
    int required, char **out, char **cause)
{
	char	*s;

	if (v->type == JSCAN_END && required) {
		hjson_cause(cause, path, key, "missing");
		return -1;
	}
	if ((v->type == JSCAN_END || v->type == JSCAN_NULL) && !required) {
		if (out != NULL)
			*out = NULL;
		return 0;
	}
	if (v->type != JSCAN_STRING) {
		hjson_cause(cause, path, key, "expected a string");
		return -1;
	}
	if (out == NULL)
		return 0;
	if (v->esc) {
		if ((s = jscan_string_dup(v->str, v->slen, NULL)) == NULL) {
			hjson_cause(cause, path, key, "bad escape");
			return -1;
		}
	} else
		s = xstrndup(v->str, v->slen);
	*out = s;
	return 0;
}

/*
 * hjson_object, hjson_object_opt, hjson_array and hjson_array_opt: 1 when
 * the value is there, 0 when an optional one is missing or null, -1.
 */
static int
ps_container(const struct ps_val *v, const char *path, const char *key,
    int required, enum jscan_tok type, char **cause)
{
	const char	*what = type == JSCAN_OBJECT ? "expected an object" :
			    "expected an array";

	if (v->type == JSCAN_END && required) {
		hjson_cause(cause, path, key, "missing");
		return -1;
	}
	if ((v->type == JSCAN_END || v->type == JSCAN_NULL) && !required)
		return 0;
	if (v->type != type) {
		hjson_cause(cause, path, key, what);
		return -1;
	}
	return 1;
}

/* hjson_bool_opt. */
static int
ps_bool_opt(const struct ps_val *v, const char *key, int *out, char **cause)
{
	switch (v->type) {
	case JSCAN_END:
	case JSCAN_NULL:
	case JSCAN_FALSE:
		*out = 0;
		return 0;
	case JSCAN_TRUE:
		*out = 1;
		return 0;
	default:
		hjson_cause(cause, NULL, key, "expected a boolean");
		return -1;
	}
}

/* push_person: author or committer, three new strings (or NULLs). */
static int
ps_person(const struct ps_person *p, const char *path, const char *key,
    int required, char **name, char **email, char **login, char **cause)
{
	char	sub[64];
	int	o;

	*name = *email = *login = NULL;
	if ((o = ps_container(&p->v, path, key, required, JSCAN_OBJECT,
	    cause)) != 1)
		return o;
	snprintf(sub, sizeof(sub), "%s.%s", path, key);
	if (ps_string(&p->name, sub, "name", 1, name, cause) == -1 ||
	    ps_string(&p->email, sub, "email", 0, email, cause) == -1 ||
	    ps_string(&p->username, sub, "username", 0, login, cause) == -1) {
		free(*name);
		free(*email);
		*name = *email = NULL;
		return -1;
	}
	if (*login != NULL && **login == '\0') {
		free(*login);
		*login = NULL;
	}
	return 0;
}

/* push_files: the names of a list, read again from where it starts. */
static int
ps_files_copy(const char *body, size_t len, const struct ps_files *f,
    const char *path, const char *key, char ***out, size_t *nout,
    char **cause)
{
	struct jscan	  js;
	char		**list, *d;
	size_t		  i, l;

	if (ps_container(&f->v, path, key, 0, JSCAN_ARRAY, cause) == -1)
		return -1;
	if (f->v.type != JSCAN_ARRAY || f->n == 0) {
		*out = NULL;
		*nout = 0;
		return 0;
	}
	if (push_check_files(path, key, f->n, f->bad, cause) == -1)
		return -1;
	list = record_list_new(f->n, f->bytes, &d);
	jscan_init(&js, body + f->v.off, len - f->v.off);
	(void)jscan_next(&js);
	for (i = 0; i < f->n; i++) {
		if (jscan_next(&js) != JSCAN_STRING)
			break;
		if (js.esc) {
			if ((l = jscan_unescape(js.str, js.slen, d)) ==
			    (size_t)-1)
				break;
		} else {
			memcpy(d, js.str, l = js.slen);
			d[l] = '\0';
		}
		list[i] = d;
		d += l + 1;
	}
	if (i < f->n) {
		/* cannot be: the first pass read the same bytes */
		free(list);
		hjson_cause(cause, path, key, "cannot be read");
		return -1;
	}
	*out = list;
	*nout = f->n;
	return 0;
}

/* push_commit over a noted commit. On -1, c may be partly filled. */
static int
ps_commit(const char *body, size_t len, const struct ps_commit *pc,
    size_t i, const char *branch, struct commit *c, char **cause)
{
	char	 path[32], *id = NULL, *message = NULL, *stamp = NULL;
	char	*email;
	int	 rv = -1;

	push_commit_path(path, sizeof(path), i);
	if (pc->v.type != JSCAN_OBJECT) {
		hjson_cause(cause, path, NULL, "expected an object");
		return -1;
	}
	if (ps_string(&pc->id, path, "id", 1, &id, cause) == -1 ||
	    push_check_id(path, id, cause) == -1 ||
	    ps_string(&pc->message, path, "message", 1, &message,
	    cause) == -1 ||
	    ps_string(&pc->timestamp, path, "timestamp", 1, &stamp,
	    cause) == -1 ||
	    push_check_time(path, stamp, &c->timestamp, cause) == -1)
		goto out;
	if (ps_person(&pc->author, path, "author", 1, &c->author_name,
	    &c->author_email, &c->author_login, cause) == -1)
		goto out;
	if (ps_person(&pc->committer, path, "committer", 0,
	    &c->committer_name, &email, &c->committer_login, cause) == -1)
		goto out;
	free(email);
	if (ps_files_copy(body, len, &pc->added, path, "added", &c->added,
	    &c->nadded, cause) == -1 ||
	    ps_files_copy(body, len, &pc->removed, path, "removed",
	    &c->removed, &c->nremoved, cause) == -1 ||
	    ps_files_copy(body, len, &pc->modified, path, "modified",
	    &c->modified, &c->nmodified, cause) == -1)
		goto out;
	rv = push_commit_finish(c, path, id, branch, message, cause);
out:
	free(id);
	free(message);
	free(stamp);
	return rv;
}

/*
 * hjson_repository_url: repository.html_url when it is a string that
 * passes repo_url_ok (new), else NULL, never a refusal.
 */
static char *
ps_url(const struct ps_val *v, const char *full_name)
{
	char	*s, *url;

	if (v->type != JSCAN_STRING)
		return NULL;
	/* an escape is at most six bytes of one */
	if (v->slen > 6 * (size_t)REPO_URL_MAX)
		return NULL;
	if (v->esc) {
		if ((s = jscan_string_dup(v->str, v->slen, NULL)) == NULL)
			return NULL;
	} else
		s = xstrndup(v->str, v->slen);
	url = hjson_url_dup(s, full_name);
	free(s);
	return url;
}

/* The syntax error of the first pass as the reply's cause. */
static void
ps_syntax(struct ps *ps, const char *why, char **cause)
{
	int	line, column;

	if (why == NULL) {
		why = ps->js.error != NULL ? ps->js.error : "syntax error";
	} else if (ps->js.error == NULL) {
		ps->js.errpos = ps->js.tok;
	}
	jscan_where(&ps->js, &line, &column);
	xasprintf(cause, "invalid JSON at line %d column %d: %s", line,
	    column, why);
}

/*
 * The push intake from the body: what json_loadb and push_handle do
 * together, with the same result and the same causes (see handler.h).
 */
int
push_scan(const char *body, size_t len, time_t now,
    struct handler_result *result, char **cause)
{
	struct ps		 ps;
	struct handler_result	 r;
	enum jscan_tok		 t;
	char			*repo = NULL, *defbranch = NULL, *ref = NULL;
	char			*before = NULL, *after = NULL, *pushername = NULL;
	const char		*branch = NULL;
	int			 created, deleted, forced;
	int			 rv = HANDLER_REFUSED;
	size_t			 n, i;

	memset(&ps, 0, sizeof(ps));
	memset(&r, 0, sizeof(r));
	jscan_init(&ps.js, body, len);

	/* the first pass */
	t = jscan_next(&ps.js);
	rv = HANDLER_NOT_JSON;
	if (t == JSCAN_OBJECT) {
		if (ps_object(&ps, ps_top_field, NULL) == -1) {
			ps_syntax(&ps, ps.dupkey, cause);
			goto out;
		}
	} else if (t == JSCAN_ARRAY) {
		if (jscan_close(&ps.js) == -1) {
			ps_syntax(&ps, NULL, cause);
			goto out;
		}
	} else {
		ps_syntax(&ps, t == JSCAN_ERROR ? NULL : "'[' or '{' expected",
		    cause);
		goto out;
	}
	if (jscan_next(&ps.js) != JSCAN_END) {
		ps_syntax(&ps, NULL, cause);
		goto out;
	}
	if (t != JSCAN_OBJECT) {
		*cause = xstrdup("payload is not a JSON object");
		goto out;
	}
	rv = HANDLER_REFUSED;

	/* the second pass, in push_handle's order */
	if (ps_container(&ps.repository, NULL, "repository", 1, JSCAN_OBJECT,
	    cause) == -1 ||
	    ps_string(&ps.full_name, "repository", "full_name", 1, &repo,
	    cause) == -1)
		goto out;
	if (!repo_name_ok(repo)) {
		hjson_cause(cause, "repository", "full_name",
		    "expected \"owner/name\"");
		goto out;
	}
	if (ps_string(&ps.default_branch, "repository", "default_branch", 0,
	    &defbranch, cause) == -1 ||
	    hjson_check_default_branch(defbranch, cause) == -1 ||
	    ps_string(&ps.ref, NULL, "ref", 1, &ref, cause) == -1 ||
	    ps_string(&ps.before, NULL, "before", 0, &before, cause) == -1 ||
	    ps_string(&ps.after, NULL, "after", 0, &after, cause) == -1 ||
	    ps_bool_opt(&ps.created, "created", &created, cause) == -1 ||
	    ps_bool_opt(&ps.deleted, "deleted", &deleted, cause) == -1 ||
	    ps_bool_opt(&ps.forced, "forced", &forced, cause) == -1)
		goto out;
	switch (ps_container(&ps.pusher, NULL, "pusher", 0, JSCAN_OBJECT,
	    cause)) {
	case -1:
		goto out;
	case 1:
		if (ps_string(&ps.pusher_name, "pusher", "name", 0,
		    &pushername, cause) == -1)
			goto out;
		break;
	}
	if (ps_container(&ps.commits, NULL, "commits", 1, JSCAN_ARRAY,
	    cause) == -1 ||
	    push_check_commits(n = ps.ncommits, cause) == -1)
		goto out;

	r.repo = repo;
	r.default_branch = defbranch;
	r.html_url = ps_url(&ps.html_url, repo);
	repo = defbranch = NULL;
	switch (push_branch(ref, &r, &branch, cause)) {
	case -1:
		goto fail;
	case 0:
		*result = r;
		rv = 0;
		goto out;
	}
	if (n > 0) {
		r.commits = xcalloc(n, sizeof(*r.commits));
		for (i = 0; i < n; i++) {
			r.ncommits = i + 1;
			if (ps_commit(body, len, &ps.commit[i], i, branch,
			    &r.commits[i], cause) == -1)
				goto fail;
		}
	}
	push_record(&r, branch, before, after, pushername, forced, created,
	    deleted, n, now);
	*result = r;
	rv = 0;
	goto out;

fail:
	handler_result_clear(&r);
out:
	free(repo);
	free(defbranch);
	free(ref);
	free(before);
	free(after);
	free(pushername);
	free(ps.keys);
	free(ps.slots);
	free(ps.commit);
	return rv;
}
