/*
 * The links of an episode: which commits and pull requests each segment
 * draws on, and their pages on the repository's site. The spoken text
 * never holds one; the Markdown lists them after it and the JSON gives
 * each source its "url". And the links between the day's changes: a fix
 * or follow-up naming a change of the same day is told with it.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "draft_int.h"
#include "episode.h"
#include "repo.h"
#include "text.h"
#include "xmalloc.h"

/* Is s 40 lower-case hex digits? */
static int
links_sha_ok(const char *s)
{
	size_t	i;

	for (i = 0; i < 40; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		    (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return s[40] == '\0';
}

int
links_url(struct buf *b, const struct episode *ep,
    const struct episode_source *src)
{
	const char	*url = ep->repository_url, *repo = ep->repository;

	/* a show's source is of one of its repositories */
	if (src->repository != NULL) {
		url = src->repository_url;
		repo = src->repository;
	}
	if (!repo_url_ok(url, repo))
		return -1;
	if (src->sha != NULL) {
		if (!links_sha_ok(src->sha))
			return -1;
		buf_printf(b, "%s/commit/%s", url, src->sha);
		return 0;
	}
	if (src->pr <= 0)
		return -1;
	buf_printf(b, "%s/pull/%ld", url, src->pr);
	return 0;
}

void
links_free(struct episode_source *v, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		free(v[i].sha);
		free(v[i].title);
		free(v[i].repository);
		free(v[i].repository_url);
	}
	free(v);
}

/*
 * Add a source to seg, whose array has room for it: links_sources counts
 * a segment's sources before it makes its array, so that one of a
 * thousand sources is not grown (and maybe copied) a thousand times.
 */
static void
links_add(struct episode_segment *seg, const char *sha, long pr,
    const char *title)
{
	struct episode_source	*src;

	src = &seg->sources[seg->nsources++];
	src->sha = sha != NULL ? xstrdup(sha) : NULL;
	src->pr = pr;
	src->title = xstrdup(title != NULL ? title : "");
	src->repository = src->repository_url = NULL;
}

/* A merged PR of the day that has a merge commit. */
struct links_pr {
	const char	*sha;		/* its merge commit */
	long		 at;		/* its index in the day */
};

/* Order by merge commit, then by place in the day. */
static int
links_pr_cmp(const void *a, const void *b)
{
	const struct links_pr	*x = a, *y = b;
	int			 c;

	if ((c = strcmp(x->sha, y->sha)) != 0)
		return c;
	return x->at < y->at ? -1 : x->at > y->at;
}

/*
 * The day's merged PRs that have a merge commit, sorted by it (new
 * array; *np of them). Why sorted: a day may merge thousands of pull
 * requests, and each of the shas the segments list was looked for among
 * all of them (a day of 20,000 commits and 6,666 PRs spent half its
 * drafting there).
 */
static struct links_pr *
links_prs(const struct day *day, size_t *np)
{
	struct links_pr	*v;
	size_t		 i, n = 0;

	v = xreallocarray(NULL, day->nprs + 1, sizeof *v);
	for (i = 0; i < day->nprs; i++) {
		if (day->prs[i].merge_sha == NULL)
			continue;
		v[n].sha = day->prs[i].merge_sha;
		v[n++].at = (long)i;
	}
	qsort(v, n, sizeof *v, links_pr_cmp);
	*np = n;
	return v;
}

/* The first of the day's merged PRs whose merge commit is sha, or -1. */
static long
links_pr_of(const struct links_pr *v, size_t n, const char *sha)
{
	size_t	lo = 0, hi = n, mid;

	/* the first whose merge commit is not below sha */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (strcmp(v[mid].sha, sha) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && strcmp(v[lo].sha, sha) == 0 ? v[lo].at : -1;
}

/* The commits and pull requests each segment draws on. */
void
links_sources(struct draft *d)
{
	const struct day	*day = d->day;
	const struct commit	*c;
	const struct merged_pr	*pr;
	struct episode_segment	*seg;
	struct links_pr		*prs;
	size_t			 i, j, n, nprs, pass;
	long			 k, p;

	prs = links_prs(day, &nprs);
	for (i = 0; i < d->ep->nsegments; i++) {
		seg = &d->ep->segments[i];
		/* first count them, then add them */
		for (pass = 0, n = 0; pass < 2; pass++) {
			if (pass == 1) {
				if (n == 0)
					break;
				seg->sources = xreallocarray(seg->sources,
				    seg->nsources + n, sizeof *seg->sources);
			}
			for (j = 0; j < seg->ncommits; j++) {
				if ((k = day_find_commit(day,
				    seg->commits[j])) == -1)
					continue;
				c = &day->commits[k];
				p = links_pr_of(prs, nprs, c->sha);
				if (pass == 0) {
					n += p != -1 ? 2 : 1;
					continue;
				}
				links_add(seg, c->sha, 0, c->subject);
				if (p != -1) {
					pr = &day->prs[p];
					links_add(seg, NULL, pr->number,
					    pr->title);
				}
			}
			if (strcmp(seg->kind, "opening") != 0)
				continue;
			for (j = 0; j < d->nopening_prs; j++) {
				if (pass == 0) {
					n++;
					continue;
				}
				pr = &day->prs[d->opening_prs[j]];
				links_add(seg, NULL, pr->number, pr->title);
			}
		}
	}
	free(prs);
}

/*
 * What a message says before the change it names: a fix of what that
 * change broke, or a follow-up of it. Each cue is followed by the change:
 * "#N", a pull request's address or a sha.
 */
static const struct {
	const char	*cue;
	int		 fix;
} links_cues[] = {
	{ "introduced in ", 1 },
	{ "introduced by ", 1 },
	{ "regressed in ", 1 },
	{ "regression from ", 1 },
	{ "regression in ", 1 },
	{ "broken by ", 1 },
	{ "broken in ", 1 },
	{ "caused by ", 1 },
	{ "fixes: ", 1 },
	{ "fixes ", 1 },
	{ "fix for ", 1 },
	{ "follow-up to ", 0 },
	{ "followup to ", 0 },
	{ "follow up to ", 0 },
	{ "follow-up of ", 0 },
	{ "follow-up for ", 0 },
	{ "follow-up: ", 0 },
	{ "followup: ", 0 },
};

/* The day's item the change named at p is ("#N", ".../pull/N", a sha), or -1. */
static long
links_named(const struct draft *d, const char *p)
{
	const struct day	*day = d->day;
	char			 num[32], sha[41], *e;
	size_t			 i, n;
	long			 pr = 0, k;

	static const char *const words[] = { "pr ", "commit ",
	    "pull request ", "(", NULL };

	for (i = 0; words[i] != NULL; i++)
		if (strncasecmp(p, words[i], strlen(words[i])) == 0) {
			p += strlen(words[i]);
			i = (size_t)-1;	/* again, from the first */
		}
	if (strncasecmp(p, "https://", 8) == 0 && (e = strstr(p, "/pull/")) !=
	    NULL && strcspn(p, " \n") > (size_t)(e - p)) {
		p = e + 6;
		pr = strtol(p, NULL, 10);
	} else if (*p == '#' && isdigit((unsigned char)p[1]))
		pr = strtol(p + 1, NULL, 10);
	if (pr > 0) {
		snprintf(num, sizeof num, "(#%ld)", pr);
		for (i = 0; i < day->nprs; i++)
			if (day->prs[i].number == pr &&
			    day->prs[i].merge_sha != NULL &&
			    (k = day_find_commit(day, day->prs[i].merge_sha)) >=
			    0)
				return k;
		for (i = 0; i < d->nitems; i++) {
			const char *sub = d->items[i].c->subject;

			n = sub != NULL ? strlen(sub) : 0;
			if (n >= strlen(num) && strcmp(sub + n - strlen(num),
			    num) == 0)
				return (long)i;
		}
		return -1;
	}
	for (n = 0; n < 40 && isxdigit((unsigned char)p[n]); n++)
		sha[n] = (char)tolower((unsigned char)p[n]);
	sha[n] = '\0';
	if (n < 7 || isalnum((unsigned char)p[n]))
		return -1;
	/* a word of hex letters only ("deadbeef") is no sha */
	if (strspn(sha, "abcdef") == n)
		return -1;
	return day_find_commit(day, sha);
}

/* Whether an item may be joined to another: its own work, told alone. */
static int
links_joinable(const struct draft_item *it)
{
	return !it->cl.bot && !it->cl.merge && !it->told &&
	    it->lead == NULL && it->nparts == 0 &&
	    it->cl.kind != CLASSIFY_REVERT && it->cl.kind != CLASSIFY_RELAND &&
	    it->c->reverts_idx < 0 && it->c->reverted_by_idx < 0 &&
	    it->after == NULL && it->follows == NULL;
}

void
links_follow(struct draft *d)
{
	struct draft_item	*f, *o;
	const char		*body, *p;
	char			*l;
	size_t			 i, j;
	long			 k;

	for (i = 0; i < d->nitems; i++) {
		f = &d->items[i];
		if (!links_joinable(f) || (body = f->c->body) == NULL)
			continue;
		l = text_lower(body);
		for (j = 0, k = -1; j < sizeof links_cues /
		    sizeof links_cues[0] && k < 0; j++) {
			for (p = l; (p = strstr(p, links_cues[j].cue)) != NULL;
			    p++) {
				/* a cue begins a word */
				if (p > l && isalpha((unsigned char)p[-1]))
					continue;
				k = links_named(d, body + (p - l) +
				    strlen(links_cues[j].cue));
				if (k >= 0 && (size_t)k != i)
					break;
				k = -1;
			}
		}
		free(l);
		if (k < 0)
			continue;
		j--;
		o = &d->items[k];
		/* the change named landed first, and is told alone */
		if (!links_joinable(o) || o->c->timestamp > f->c->timestamp)
			continue;
		o->after = f;
		f->follows = o;
		f->follow_fix = links_cues[j].fix || f->cl.kind == CLASSIFY_FIX;
	}
}
