/* Journal records: deliveries, days and markers as JSON payloads. */
#include <stdlib.h>
#include <string.h>

#include "jrecord.h"
#include "xmalloc.h"

/* Short keys: the journal is read by us only. */

static json_t *
jrecord_strings(char *const *v, size_t n)
{
	json_t	*a = json_array();
	size_t	 i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

static json_t *
jrecord_str(const char *s)
{
	return s != NULL ? json_string(s) : json_null();
}

/* Whether two optional strings are the same. */
static int
jrecord_same(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return strcmp(a, b) == 0;
}

/* Bytes of o in the journal (as journal_append writes it). */
static size_t
jrecord_size(const json_t *o)
{
	return json_dumpb(o, NULL, 0, JSON_COMPACT);
}

/*
 * A commit; its branch ("br") only with with_branch: a commit without
 * one is on the branch of the commit before it in the record, so a push
 * of many commits keeps its branch once, not once per commit.
 */
static json_t *
jrecord_encode_commit(const struct commit *c, int with_branch)
{
	char	*message;
	json_t	*o;

	if (c->body != NULL && *c->body != '\0')
		xasprintf(&message, "%s\n\n%s", c->subject, c->body);
	else
		message = xstrdup(c->subject != NULL ? c->subject : "");
	o = json_object();
	json_object_set_new(o, "id", jrecord_str(c->sha));
	json_object_set_new(o, "an", jrecord_str(c->author_name));
	json_object_set_new(o, "al", jrecord_str(c->author_login));
	json_object_set_new(o, "ae", jrecord_str(c->author_email));
	json_object_set_new(o, "cn", jrecord_str(c->committer_name));
	json_object_set_new(o, "cl", jrecord_str(c->committer_login));
	json_object_set_new(o, "ts", json_integer((json_int_t)c->timestamp));
	json_object_set_new(o, "m", json_string(message));
	if (with_branch)
		json_object_set_new(o, "br", jrecord_str(c->branch));
	json_object_set_new(o, "a", jrecord_strings(c->added, c->nadded));
	json_object_set_new(o, "r", jrecord_strings(c->removed, c->nremoved));
	json_object_set_new(o, "md", jrecord_strings(c->modified,
	    c->nmodified));
	free(message);
	return o;
}

static json_t *
jrecord_encode_pr(const struct merged_pr *p)
{
	json_t	*o = json_object();

	json_object_set_new(o, "n", json_integer(p->number));
	json_object_set_new(o, "t", jrecord_str(p->title));
	json_object_set_new(o, "al", jrecord_str(p->author_login));
	json_object_set_new(o, "b", jrecord_str(p->body));
	json_object_set_new(o, "ms", jrecord_str(p->merge_sha));
	json_object_set_new(o, "br", jrecord_str(p->branch));
	json_object_set_new(o, "at", json_integer((json_int_t)p->merged_at));
	return o;
}

static json_t *
jrecord_encode_push(const struct push *p)
{
	json_t	*o = json_object();

	json_object_set_new(o, "br", jrecord_str(p->branch));
	json_object_set_new(o, "bf", jrecord_str(p->before));
	json_object_set_new(o, "af", jrecord_str(p->after));
	json_object_set_new(o, "p", jrecord_str(p->pusher));
	json_object_set_new(o, "f", json_boolean(p->forced));
	json_object_set_new(o, "c", json_boolean(p->created));
	json_object_set_new(o, "d", json_boolean(p->deleted));
	json_object_set_new(o, "n", json_integer((json_int_t)p->ncommits));
	json_object_set_new(o, "at", json_integer((json_int_t)p->at));
	return o;
}

json_t *
jrecord_encode_delivery(const struct handler_result *res, const char *key,
    time_t at)
{
	json_t	*o = json_object(), *commits = json_array();
	json_t	*prs = json_array(), *pushes = json_array();
	size_t	 i;

	json_object_set_new(o, "t", json_string("d"));
	json_object_set_new(o, "key", json_string(key));
	json_object_set_new(o, "at", json_integer((json_int_t)at));
	json_object_set_new(o, "repo", jrecord_str(res->repo));
	json_object_set_new(o, "db", jrecord_str(res->default_branch));
	for (i = 0; i < res->ncommits; i++)
		json_array_append_new(commits, jrecord_encode_commit(
		    &res->commits[i], i == 0 || !jrecord_same(
		    res->commits[i - 1].branch, res->commits[i].branch)));
	if (res->pr != NULL)
		json_array_append_new(prs, jrecord_encode_pr(res->pr));
	if (res->push != NULL)
		json_array_append_new(pushes, jrecord_encode_push(res->push));
	json_object_set_new(o, "commits", commits);
	json_object_set_new(o, "prs", prs);
	json_object_set_new(o, "pushes", pushes);
	return o;
}

/* A day's records as jrecord_encode_day builds them. */
struct jrecord_day {
	const struct day *day;
	json_t		***recs;
	size_t		 *n;
	json_t		 *rec;		/* the record being filled */
	json_t		 *commits, *prs, *pushes; /* its lists, borrowed */
	size_t		  items;
	size_t		  bytes;
	const char	 *branch;	/* of its last commit, if items */
	int		  has_branch;
};

static void
jrecord_day_open(struct jrecord_day *jd)
{
	const struct day	*day = jd->day;
	json_t			*o = json_object();

	json_object_set_new(o, "t", json_string("d"));
	json_object_set_new(o, "repo", json_string(day->repo));
	json_object_set_new(o, "db", jrecord_str(day->default_branch));
	json_object_set_new(o, "start", json_integer((json_int_t)day->start));
	json_object_set_new(o, "commits", jd->commits = json_array());
	json_object_set_new(o, "prs", jd->prs = json_array());
	json_object_set_new(o, "pushes", jd->pushes = json_array());
	jd->rec = o;
	jd->items = 0;
	jd->bytes = jrecord_size(o);
	jd->has_branch = 0;
}

static void
jrecord_day_close(struct jrecord_day *jd)
{
	*jd->recs = xreallocarray(*jd->recs, *jd->n + 1, sizeof(**jd->recs));
	(*jd->recs)[(*jd->n)++] = jd->rec;
	jd->rec = NULL;
}

/* Whether an item of size bytes must begin a new record. */
static int
jrecord_day_full(const struct jrecord_day *jd, size_t size)
{
	return jd->items > 0 && (jd->items >= JRECORD_DAY_ITEMS ||
	    jd->bytes + size + 1 > JRECORD_DAY_BYTES);
}

static void
jrecord_day_add(struct jrecord_day *jd, json_t *list, json_t *o, size_t size)
{
	json_array_append_new(list, o);
	jd->items++;
	jd->bytes += size + 1;
}

static void
jrecord_day_commit(struct jrecord_day *jd, const struct commit *c)
{
	int	 with = !jd->has_branch || !jrecord_same(jd->branch, c->branch);
	json_t	*o = jrecord_encode_commit(c, with);
	size_t	 size = jrecord_size(o);

	if (jrecord_day_full(jd, size)) {
		jrecord_day_close(jd);
		jrecord_day_open(jd);
		if (!with) {
			json_decref(o);
			o = jrecord_encode_commit(c, 1);
			size = jrecord_size(o);
		}
	}
	jrecord_day_add(jd, jd->commits, o, size);
	jd->branch = c->branch;
	jd->has_branch = 1;
}

/* A PR or a push, into &jd->prs or &jd->pushes (of the record it joins). */
static void
jrecord_day_other(struct jrecord_day *jd, json_t **list, json_t *o)
{
	size_t	size = jrecord_size(o);

	if (jrecord_day_full(jd, size)) {
		jrecord_day_close(jd);
		jrecord_day_open(jd);
	}
	jrecord_day_add(jd, *list, o, size);
}

void
jrecord_encode_day(const struct day *day, json_t ***recs, size_t *n)
{
	struct jrecord_day	jd = { .day = day, .recs = recs, .n = n };
	size_t			i;

	jrecord_day_open(&jd);
	for (i = 0; i < day->ncommits; i++)
		jrecord_day_commit(&jd, &day->commits[i]);
	for (i = 0; i < day->nprs; i++)
		jrecord_day_other(&jd, &jd.prs, jrecord_encode_pr(&day->prs[i]));
	for (i = 0; i < day->npushes; i++)
		jrecord_day_other(&jd, &jd.pushes,
		    jrecord_encode_push(&day->pushes[i]));
	jrecord_day_close(&jd);
}

json_t *
jrecord_encode_rotate(const char *repo, time_t start)
{
	return json_pack("{s:s, s:s, s:I}", "t", "r", "repo", repo, "start",
	    (json_int_t)start);
}

json_t *
jrecord_encode_handoff(const char *repo, time_t start)
{
	return json_pack("{s:s, s:s, s:I}", "t", "h", "repo", repo, "start",
	    (json_int_t)start);
}

json_t *
jrecord_encode_drafted(const char *repo)
{
	return json_pack("{s:s, s:s}", "t", "e", "repo", repo);
}

json_t *
jrecord_encode_merge_back(const char *repo)
{
	return json_pack("{s:s, s:s}", "t", "m", "repo", repo);
}

json_t *
jrecord_encode_window(time_t start)
{
	return json_pack("{s:s, s:I}", "t", "w", "start", (json_int_t)start);
}

json_t *
jrecord_encode_seen(const char *const *keys, const time_t *at, size_t n)
{
	json_t	*seen = json_array();
	size_t	 i;

	for (i = 0; i < n; i++)
		json_array_append_new(seen, json_pack("[s, I]", keys[i],
		    (json_int_t)at[i]));
	return json_pack("{s:s, s:o}", "t", "s", "seen", seen);
}

static char *
jrecord_get_str(const json_t *o, const char *key)
{
	const char	*s = json_string_value(json_object_get(o, key));

	return s != NULL ? xstrdup(s) : NULL;
}

static char **
jrecord_get_strings(const json_t *o, const char *key, size_t *n)
{
	const json_t	*a = json_object_get(o, key), *v;
	char	       **out;
	size_t		 i, k = 0;

	*n = 0;
	if (!json_is_array(a) || json_array_size(a) == 0)
		return NULL;
	out = xcalloc(json_array_size(a), sizeof(*out));
	json_array_foreach(a, i, v)
		if (json_is_string(v))
			out[k++] = xstrdup(json_string_value(v));
	*n = k;
	return out;
}

int
jrecord_apply(const json_t *rec, struct day *day)
{
	const json_t		*a, *o;
	struct commit		 c;
	struct merged_pr	 pr;
	struct push		 p;
	const char		*m, *branch = NULL;
	const json_t		*br;
	size_t			 i;

	a = json_object_get(rec, "commits");
	json_array_foreach(a, i, o) {
		/* without "br", on the branch of the commit before */
		if ((br = json_object_get(o, "br")) != NULL)
			branch = json_string_value(br);
		memset(&c, 0, sizeof(c));
		m = json_string_value(json_object_get(o, "m"));
		c.sha = jrecord_get_str(o, "id");
		if (c.sha == NULL || m == NULL ||
		    commit_set_message(&c, m) == -1) {
			commit_clear(&c);
			return -1;
		}
		c.author_name = jrecord_get_str(o, "an");
		c.author_login = jrecord_get_str(o, "al");
		c.author_email = jrecord_get_str(o, "ae");
		c.committer_name = jrecord_get_str(o, "cn");
		c.committer_login = jrecord_get_str(o, "cl");
		c.timestamp = (time_t)json_integer_value(json_object_get(o,
		    "ts"));
		c.branch = xstrdup_null(branch);
		c.added = jrecord_get_strings(o, "a", &c.nadded);
		c.removed = jrecord_get_strings(o, "r", &c.nremoved);
		c.modified = jrecord_get_strings(o, "md", &c.nmodified);
		revert_parse(c.subject, c.body, &c.revert);
		if (day_add_commit(day, &c) == -1) {
			commit_clear(&c);
			return -1;
		}
	}
	a = json_object_get(rec, "prs");
	json_array_foreach(a, i, o) {
		memset(&pr, 0, sizeof(pr));
		pr.number = (long)json_integer_value(json_object_get(o, "n"));
		/* cut as intake cuts them (a journal from before the caps) */
		pr.title = record_cut_dup(json_string_value(
		    json_object_get(o, "t")), MERGED_PR_MAX_TITLE);
		pr.author_login = jrecord_get_str(o, "al");
		pr.body = record_cut_dup(json_string_value(
		    json_object_get(o, "b")), MERGED_PR_MAX_BODY);
		pr.merge_sha = jrecord_get_str(o, "ms");
		pr.branch = jrecord_get_str(o, "br");
		pr.merged_at = (time_t)json_integer_value(json_object_get(o,
		    "at"));
		if (day_add_pr(day, &pr) == -1) {
			merged_pr_clear(&pr);
			return -1;
		}
	}
	a = json_object_get(rec, "pushes");
	json_array_foreach(a, i, o) {
		memset(&p, 0, sizeof(p));
		p.branch = jrecord_get_str(o, "br");
		p.before = jrecord_get_str(o, "bf");
		p.after = jrecord_get_str(o, "af");
		p.pusher = jrecord_get_str(o, "p");
		p.forced = json_is_true(json_object_get(o, "f"));
		p.created = json_is_true(json_object_get(o, "c"));
		p.deleted = json_is_true(json_object_get(o, "d"));
		p.ncommits = (size_t)json_integer_value(json_object_get(o,
		    "n"));
		p.at = (time_t)json_integer_value(json_object_get(o, "at"));
		if (day_add_push(day, &p) == -1) {
			push_clear(&p);
			return -1;
		}
	}
	return 0;
}
