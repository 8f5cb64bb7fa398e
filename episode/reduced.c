/*
 * The reduced drafter: counts, reverts, the top stories and "N more
 * changes". Every loop here is one pass over the day's commits, pull
 * requests or pushes, with at most REDUCED_STORIES comparisons a record;
 * no list of files is read but for its length.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "buf.h"
#include "episode.h"
#include "record.h"
#include "reduced.h"
#include "repo.h"
#include "spoken.h"
#include "xmalloc.h"

/* A story told by name: a merged pull request or a commit. */
struct reduced_story {
	const struct merged_pr	*pr;
	const struct commit	*c;
	size_t			 files;	/* a commit's files: its rank */
};

/* s, cut to REDUCED_SUBJECT_MAX bytes on a character's start. */
static void
reduced_put_text(struct buf *b, const char *s)
{
	size_t	n;

	if (s == NULL || *s == '\0') {
		buf_puts(b, "an untitled change");
		return;
	}
	n = strlen(s);
	if (n > REDUCED_SUBJECT_MAX) {
		n = REDUCED_SUBJECT_MAX;
		while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
	}
	buf_append(b, s, n);
	if (n < strlen(s))
		buf_puts(b, "...");
}

/* Who made a commit, as said: its login, else its author's name. */
static const char *
reduced_author(const struct commit *c)
{
	if (c->author_login != NULL && *c->author_login != '\0')
		return c->author_login;
	if (c->author_name != NULL && *c->author_name != '\0')
		return c->author_name;
	return NULL;
}

/* The files a commit touched, counted (the lists are not read). */
static size_t
reduced_files(const struct commit *c)
{
	return c->nadded + c->nremoved + c->nmodified;
}

/* Is c the merge commit of a pull request already told? */
static int
reduced_merged(const struct commit *c, const struct reduced_story *v,
    size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (v[i].pr != NULL && v[i].pr->merge_sha != NULL &&
		    c->sha != NULL && strcasecmp(v[i].pr->merge_sha,
		    c->sha) == 0)
			return 1;
	return 0;
}

/*
 * The commits a revert of the day takes out, marked (new array, one per
 * commit): by the sha its message names, found in the day's index.
 */
static char *
reduced_reverted(const struct day *day)
{
	char	*out = xcalloc(day->ncommits + 1, 1);
	long	 idx;
	size_t	 i;

	for (i = 0; i < day->ncommits; i++) {
		const char *sha = day->commits[i].revert.reverted_sha;

		if (!day->commits[i].revert.is_revert || sha == NULL ||
		    strlen(sha) != 40)
			continue;
		if ((idx = day_find_commit(day, sha)) >= 0)
			out[idx] = 1;
	}
	return out;
}

/*
 * The top stories into v (REDUCED_STORIES at most): the first merged
 * pull requests, then the commits that touched the most files (of as
 * many, the first to come); reverts, reverted commits and merge commits
 * of the PRs told aside. One pass each, the kept few in order by
 * insertion.
 */
static size_t
reduced_stories(const struct day *day, struct reduced_story *v)
{
	const struct commit	*c;
	char			*reverted = reduced_reverted(day);
	size_t			 n = 0, npr, i, k, files;

	for (i = 0; i < day->nprs && n < REDUCED_STORIES; i++) {
		v[n].pr = &day->prs[i];
		v[n].c = NULL;
		v[n++].files = 0;
	}
	npr = n;
	for (i = 0; i < day->ncommits; i++) {
		c = &day->commits[i];
		if (c->revert.is_revert || reverted[i] ||
		    reduced_merged(c, v, npr))
			continue;
		files = reduced_files(c);
		if (n == REDUCED_STORIES && (n == npr ||
		    files <= v[n - 1].files))
			continue;
		if (n < REDUCED_STORIES)
			n++;
		for (k = n - 1; k > npr && v[k - 1].files < files; k--)
			v[k] = v[k - 1];
		v[k].pr = NULL;
		v[k].c = c;
		v[k].files = files;
	}
	free(reverted);
	return n;
}

/* The opening: the show, the date, that the day is told short, counts. */
static void
reduced_opening(struct episode *ep, const char *date)
{
	struct buf	 b, part[3];
	const char	*v[3];
	size_t		 n = 0, i;

	for (i = 0; i < 3; i++)
		buf_init(&part[i]);
	if (ep->stats.commits > 0) {
		spoken_count(&part[n], (long long)ep->stats.commits, "commit",
		    "commits");
		buf_puts(&part[n], " by ");
		spoken_count(&part[n++], (long long)ep->stats.authors,
		    "author", "authors");
	}
	if (ep->stats.merged_prs > 0)
		spoken_count(&part[n++], (long long)ep->stats.merged_prs,
		    "merged pull request", "merged pull requests");
	if (ep->stats.pushes > 0) {
		spoken_count(&part[n], (long long)ep->stats.pushes, "push",
		    "pushes");
		if (ep->stats.force_pushes > 0) {
			buf_puts(&part[n], ", ");
			spoken_number(&part[n], (long long)
			    ep->stats.force_pushes);
			buf_puts(&part[n], " of them forced");
		}
		n++;
	}
	for (i = 0; i < n; i++)
		v[i] = buf_str(&part[i]);
	buf_init(&b);
	buf_printf(&b, "This is %s for %s, in brief: the full episode of "
	    "the day could not be drafted, so here is what happened in "
	    "short.", ep->show, date);
	if (n > 0) {
		buf_puts(&b, " The day had ");
		spoken_list(&b, v, n);
		buf_puts(&b, ".");
	}
	for (i = 0; i < 3; i++)
		buf_free(&part[i]);
	episode_add_segment(ep, "opening", &b, NULL, 0);
}

/* The reverts: counted, the first few named; their number of the told. */
static size_t
reduced_reverts(struct episode *ep, const struct day *day)
{
	struct buf		 b;
	const struct commit	*c;
	char			**shas = NULL;
	size_t			 i, n = 0;

	if (ep->stats.reverts == 0)
		return 0;
	buf_init(&b);
	spoken_count(&b, (long long)ep->stats.reverts, "revert", "reverts");
	/* a sentence opens with a capital */
	if (b.data[0] >= 'a' && b.data[0] <= 'z')
		b.data[0] = (char)(b.data[0] - 'a' + 'A');
	buf_puts(&b, " came in");
	for (i = 0; i < day->ncommits && n < REDUCED_REVERTS; i++) {
		c = &day->commits[i];
		if (!c->revert.is_revert)
			continue;
		buf_puts(&b, n == 0 ? ": " : "; ");
		reduced_put_text(&b, c->subject);
		shas = xreallocarray(shas, n + 1, sizeof(*shas));
		shas[n++] = xstrdup(c->sha != NULL ? c->sha : "");
	}
	buf_puts(&b, ".");
	episode_add_segment(ep, "rollbacks", &b, shas, n);
	return n;
}

/* The top stories, by name; their number. */
static size_t
reduced_highlights(struct episode *ep, const struct day *day)
{
	struct reduced_story	 v[REDUCED_STORIES];
	struct buf		 b;
	const char		*who;
	char			**shas = NULL;
	size_t			 i, n, nshas = 0;

	if ((n = reduced_stories(day, v)) == 0)
		return 0;
	buf_init(&b);
	buf_puts(&b, n == 1 ? "The top story." : "The top stories.");
	for (i = 0; i < n; i++) {
		buf_puts(&b, " ");
		if (v[i].pr != NULL) {
			buf_printf(&b, "Pull request %ld, ", v[i].pr->number);
			reduced_put_text(&b, v[i].pr->title);
			if (v[i].pr->author_login != NULL)
				buf_printf(&b, ", by %s",
				    v[i].pr->author_login);
			buf_puts(&b, ", was merged.");
			continue;
		}
		if ((who = reduced_author(v[i].c)) != NULL)
			buf_printf(&b, "From %s: ", who);
		reduced_put_text(&b, v[i].c->subject);
		buf_puts(&b, ".");
		shas = xreallocarray(shas, nshas + 1, sizeof(*shas));
		shas[nshas++] = xstrdup(v[i].c->sha != NULL ? v[i].c->sha :
		    "");
	}
	episode_add_segment(ep, "highlights", &b, shas, nshas);
	return n;
}

struct episode *
reduced_draft(const struct day *day, const struct episode_opts *opts)
{
	struct episode	*ep = xcalloc(1, sizeof(*ep));
	struct buf	 b;
	struct tm	 tm;
	time_t		 t;
	size_t		 told, changes, more;
	int		 year, month, mday;
	char		*date;

	ep->repository = xstrdup(day->repo != NULL ? day->repo : "");
	ep->show = episode_show(ep->repository, opts);
	ep->window_start = day->start;
	ep->window_end = day->end;
	if (opts != NULL && opts->year > 0) {
		year = opts->year;
		month = opts->month;
		mday = opts->mday;
	} else {
		t = day->start;
		gmtime_r(&t, &tm);
		year = tm.tm_year + 1900;
		month = tm.tm_mon + 1;
		mday = tm.tm_mday;
	}
	xasprintf(&ep->date, "%04d-%02d-%02d", year, month, mday);
	ep->published = opts != NULL && opts->published != 0 ?
	    opts->published : (day->end != 0 ? day->end : day->start);
	/* counts as the commits say them: no classifier to read reverts */
	day_stats(day, &ep->stats);

	buf_init(&b);
	spoken_date(&b, year, month, mday);
	date = buf_steal(&b);
	reduced_opening(ep, date);
	told = reduced_reverts(ep, day);
	told += reduced_highlights(ep, day);
	changes = day->ncommits + day->nprs;
	more = changes > told ? changes - told : 0;
	buf_init(&b);
	if (more > 0) {
		buf_puts(&b, "And ");
		spoken_count(&b, (long long)more, "more change",
		    "more changes");
		buf_puts(&b, ", not told today. ");
	}
	buf_puts(&b, "That was the day in brief.");
	episode_add_segment(ep, "closing", &b, NULL, 0);

	xasprintf(&ep->title, "%s in brief", date);
	xasprintf(&ep->description, "The day of %s in brief: its counts, "
	    "its reverts and its top stories.", ep->repository);
	free(date);
	if (day->html_url != NULL && repo_url_ok(day->html_url, day->repo))
		ep->repository_url = xstrdup(day->html_url);
	episode_finish(ep, opts);
	return ep;
}
