/*
 * The title and the description of a daily episode, from the theme and its areas.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "classify.h"
#include "draft_int.h"
#include "phrase.h"
#include "spoken.h"
#include "xmalloc.h"

/* A kind as a title's noun phrase, alone or before "in <areas>". */
static const char *
title_kind(enum classify_kind k)
{
	static const char *plain[CLASSIFY_NKINDS] = {
		[CLASSIFY_REVERT] = "A Day of Rollbacks",
		[CLASSIFY_RELAND] = "Changes Back in Place",
		[CLASSIFY_FEATURE] = "New Features",
		[CLASSIFY_PERF] = "Speedups",
		[CLASSIFY_FIX] = "Fixes",
		[CLASSIFY_DOCS] = "Documentation Polish",
		[CLASSIFY_TESTS] = "Test Suite Upkeep",
		[CLASSIFY_BUILD] = "Build and CI Work",
		[CLASSIFY_DEPS] = "Dependency Updates",
		[CLASSIFY_CLEANUP] = "Cleanup",
		[CLASSIFY_CHANGE] = "Work",
	};

	return plain[k];
}

/* A kind as one change, for a quiet day's title. */
static const char *
title_kind_noun(enum classify_kind k)
{
	static const char *nouns[CLASSIFY_NKINDS] = {
		[CLASSIFY_REVERT] = "Revert",
		[CLASSIFY_RELAND] = "Re-land",
		[CLASSIFY_FEATURE] = "New Feature",
		[CLASSIFY_PERF] = "Speedup",
		[CLASSIFY_FIX] = "Fix",
		[CLASSIFY_DOCS] = "Docs Change",
		[CLASSIFY_TESTS] = "Test Change",
		[CLASSIFY_BUILD] = "Build Change",
		[CLASSIFY_DEPS] = "Dependency Bump",
		[CLASSIFY_CLEANUP] = "Cleanup",
		[CLASSIFY_CHANGE] = "Change",
	};

	return nouns[k];
}

/* An area as a title says it: plain lowercase words get capitals. */
static void
title_area(struct buf *b, const char *area)
{
	size_t	at = b->len, i;
	int	plain = 1;

	for (i = 0; area[i] != '\0'; i++) {
		if (!islower((unsigned char)area[i]) && area[i] != ' ' &&
		    area[i] != '-')
			plain = 0;
	}
	buf_puts(b, area);
	if (!plain)
		return;
	for (i = at; i < b->len; i++) {
		if (i == at || b->data[i - 1] == ' ' || b->data[i - 1] == '-')
			b->data[i] = (char)toupper((unsigned char)b->data[i]);
	}
}

/* Up to max distinct areas of the theme's most significant changes. */
static size_t
title_top_areas(struct draft *d, const char **areas, size_t max)
{
	struct draft_item	**v;
	size_t			  n, i, j, na = 0;

	v = xcalloc(d->nitems + 1, sizeof *v);
	for (i = n = 0; i < d->nitems; i++) {
		if (select_in_theme(d, &d->items[i]) &&
		    d->items[i].cl.area != NULL)
			v[n++] = &d->items[i];
	}
	qsort(v, n, sizeof *v, select_cmp_score);
	for (i = 0; i < n && na < max; i++) {
		for (j = 0; j < na; j++) {
			if (strcasecmp(areas[j], v[i]->cl.area) == 0)
				break;
		}
		if (j == na)
			areas[na++] = v[i]->cl.area;
	}
	free(v);
	return na;
}

void
title_episode(struct draft *d)
{
	struct buf	 b;
	size_t		 i, deprecated = 0, reverts, relands, na;
	const char	*areas[3];
	int		 paired = 0;

	buf_init(&b);
	reverts = d->ep->stats.reverts;
	relands = d->ep->stats.relands;
	for (i = 0; i < d->nitems; i++) {
		if (d->items[i].cl.kind == CLASSIFY_RELAND &&
		    d->items[i].c->reverts_idx >= 0)
			paired = 1;
	}
	switch (d->theme) {
	case DRAFT_THEME_EMPTY:
		buf_puts(&b, d->ep->stats.merged_prs > 0 ?
		    "No Commits, a Few Merges" : "A Quiet Day");
		if (d->ep->stats.merged_prs == 1)
			b.len = 0, buf_puts(&b, "No Commits, One Merge");
		break;
	case DRAFT_THEME_QUIET:
		buf_printf(&b, "A Quiet Day and One %s",
		    title_kind_noun(d->theme_kind));
		if (d->items[0].cl.area != NULL) {
			buf_puts(&b, " in ");
			title_area(&b, d->items[0].cl.area);
		}
		break;
	case DRAFT_THEME_ROLLBACK:
		buf_puts(&b, relands > 0 && reverts > 0 ? (paired ?
		    "Rollbacks and Recovery" : "Rollbacks and Re-lands") :
		    relands > 0 ? "Work Re-landed" : "A Day of Rollbacks");
		if (d->theme_area != NULL) {
			buf_puts(&b, " in ");
			title_area(&b, d->theme_area);
		}
		break;
	case DRAFT_THEME_KIND:
		for (i = 0; i < d->nitems; i++) {
			if (d->items[i].cl.kind == CLASSIFY_CLEANUP &&
			    strcasestr(d->items[i].c->subject != NULL ?
			    d->items[i].c->subject : "", "deprecat") != NULL)
				deprecated++;
		}
		na = 0;
		if (d->theme_kind == CLASSIFY_CLEANUP && deprecated >= 2)
			buf_puts(&b, "Deprecated Code Cleared Out");
		else if (d->theme_area != NULL) {
			areas[0] = d->theme_area;
			na = 1;
		} else
			na = title_top_areas(d, areas, d->theme_kind ==
			    CLASSIFY_CHANGE ? 3 : 2);
		if (b.len == 0)
			buf_puts(&b, d->theme_kind == CLASSIFY_CHANGE &&
			    na == 0 ? "A Steady Day of Changes" :
			    title_kind(d->theme_kind));
		if (na > 0 && d->theme_kind != CLASSIFY_DOCS &&
		    d->theme_kind != CLASSIFY_TESTS &&
		    d->theme_kind != CLASSIFY_BUILD &&
		    d->theme_kind != CLASSIFY_DEPS) {
			buf_puts(&b, d->theme_kind == CLASSIFY_CHANGE ?
			    " on " : " in ");
			for (i = 0; i < na; i++) {
				if (i > 0)
					buf_puts(&b, i == na - 1 ? " and " :
					    ", ");
				title_area(&b, areas[i]);
			}
		}
		if (reverts > 0 && relands > 0)
			buf_puts(&b, paired ? ", Plus a Rollback and Recovery" :
			    ", Plus a Rollback and a Re-land");
		else if (reverts > 0)
			buf_puts(&b, reverts == 1 ? ", Plus a Rollback" :
			    ", Plus Rollbacks");
		else if (relands > 0)
			buf_puts(&b, relands == 1 ? ", Plus a Re-land" :
			    ", Plus Re-lands");
		break;
	}
	d->ep->title = buf_steal(&b);
}

void
title_description(struct draft *d)
{
	const struct day_stats	*st = &d->ep->stats;
	struct buf		 b;
	struct draft_item	**v;
	size_t			 n, i, fixes = 0, chores = 0;
	static const enum classify_kind kinds[] = {
		CLASSIFY_PERF, CLASSIFY_FEATURE, CLASSIFY_CHANGE
	};

	buf_init(&b);
	buf_printf(&b, "%s for %s, in the %s repository. ", d->ep->show,
	    d->datestr, d->repo);
	if (d->nitems == 0) {
		buf_puts(&b, "A quiet day: no commits landed");
		if (st->merged_prs > 0) {
			buf_puts(&b, ", though ");
			spoken_count(&b, (long long)st->merged_prs,
			    "pull request was", "pull requests were");
			buf_puts(&b, " merged");
		}
		buf_putc(&b, '.');
		d->ep->description = buf_steal(&b);
		return;
	}
	phrase_count_cap(&b, (long long)st->commits, "commit", "commits");
	buf_puts(&b, " from ");
	spoken_count(&b, (long long)st->authors, "author", "authors");
	if (st->merged_prs > 0) {
		buf_puts(&b, " and ");
		spoken_count(&b, (long long)st->merged_prs,
		    "merged pull request", "merged pull requests");
	}
	buf_putc(&b, '.');

	/* the top story, ranked the same way the highlights are */
	for (i = 0; i < d->nitems; i++)
		d->items[i].told = 0;
	v = select_items(d, kinds, sizeof kinds / sizeof kinds[0], &n);
	if (n > 0)
		tell_did_sentence(&b, v[0], "The top story: ");
	free(v);
	if (st->reverts > 0 || st->relands > 0) {
		phrase_space(&b);
		if (st->reverts > 0) {
			phrase_count_cap(&b, (long long)st->reverts,
			    "change was", "changes were");
			buf_puts(&b, " rolled back");
			if (st->relands > 0) {
				buf_puts(&b, " and ");
				spoken_count(&b, (long long)st->relands,
				    "was", "were");
				buf_puts(&b, " re-landed");
			}
		} else {
			phrase_count_cap(&b, (long long)st->relands,
			    "change was", "changes were");
			buf_puts(&b, " re-landed");
		}
		buf_putc(&b, '.');
	}
	for (i = 0; i < d->nitems; i++) {
		switch (d->items[i].cl.kind) {
		case CLASSIFY_FIX:
			fixes++;
			break;
		case CLASSIFY_DOCS:
		case CLASSIFY_TESTS:
		case CLASSIFY_BUILD:
		case CLASSIFY_DEPS:
		case CLASSIFY_CLEANUP:
			chores++;
			break;
		default:
			break;
		}
	}
	if ((fixes > 0 || chores > 0) && d->nitems > 1) {
		buf_puts(&b, " Plus ");
		if (fixes > 0)
			spoken_count(&b, (long long)fixes, "fix", "fixes");
		if (fixes > 0 && chores > 0)
			buf_puts(&b, " and ");
		if (chores > 0)
			spoken_count(&b, (long long)chores,
			    "housekeeping change", "housekeeping changes");
		buf_putc(&b, '.');
	}
	d->ep->description = buf_steal(&b);
}
