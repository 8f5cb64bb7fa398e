/*
 * The links of an episode: which commits and pull requests each segment
 * draws on, and their pages on the repository's site. The spoken text
 * never holds one; the Markdown lists them after it and the JSON gives
 * each source its "url".
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "draft_int.h"
#include "episode.h"
#include "repo.h"
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
	if (!repo_url_ok(ep->repository_url, ep->repository))
		return -1;
	if (src->sha != NULL) {
		if (!links_sha_ok(src->sha))
			return -1;
		buf_printf(b, "%s/commit/%s", ep->repository_url, src->sha);
		return 0;
	}
	if (src->pr <= 0)
		return -1;
	buf_printf(b, "%s/pull/%ld", ep->repository_url, src->pr);
	return 0;
}

void
links_free(struct episode_source *v, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		free(v[i].sha);
		free(v[i].title);
	}
	free(v);
}

static void
links_add(struct episode_segment *seg, const char *sha, long pr,
    const char *title)
{
	struct episode_source	*src;

	seg->sources = xreallocarray(seg->sources, seg->nsources + 1,
	    sizeof(*seg->sources));
	src = &seg->sources[seg->nsources++];
	src->sha = sha != NULL ? xstrdup(sha) : NULL;
	src->pr = pr;
	src->title = xstrdup(title != NULL ? title : "");
}

/* The day's merged PR whose merge commit is sha; index or -1. */
static long
links_pr_of(const struct day *day, const char *sha)
{
	size_t	i;

	for (i = 0; i < day->nprs; i++)
		if (day->prs[i].merge_sha != NULL &&
		    strcmp(day->prs[i].merge_sha, sha) == 0)
			return (long)i;
	return -1;
}

/*
 * Why a walk of the PRs per sha: a day has few merged PRs beside its
 * commits, and only the shas the segments list (EPISODE_MAX_WORK at
 * most in all) are looked up.
 */
void
links_sources(struct draft *d)
{
	const struct day	*day = d->day;
	const struct commit	*c;
	const struct merged_pr	*pr;
	struct episode_segment	*seg;
	size_t			 i, j;
	long			 k, p;

	for (i = 0; i < d->ep->nsegments; i++) {
		seg = &d->ep->segments[i];
		for (j = 0; j < seg->ncommits; j++) {
			if ((k = day_find_commit(day, seg->commits[j])) == -1)
				continue;
			c = &day->commits[k];
			links_add(seg, c->sha, 0, c->subject);
			if ((p = links_pr_of(day, c->sha)) != -1) {
				pr = &day->prs[p];
				links_add(seg, NULL, pr->number, pr->title);
			}
		}
		if (strcmp(seg->kind, "opening") != 0)
			continue;
		for (j = 0; j < d->nopening_prs; j++) {
			pr = &day->prs[d->opening_prs[j]];
			links_add(seg, NULL, pr->number, pr->title);
		}
	}
}
