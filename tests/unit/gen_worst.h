/*
 * Worst-case days for the drafter (issue #25): one knob per thing a day
 * holds, each turned up alone, so that a step of drafting that grows
 * faster than n log n in one of them shows as that dimension's time
 * growing a hundredfold when its size grows tenfold (scripts/bench-draft
 * -k worst) and as a day too big to draft in test_worst_day.
 *
 * Each dimension's day at size n:
 *   files    twenty commits each listing n added, n modified and n removed
 *            files (PUSH_MAX_FILES a list at most, as the daemon keeps);
 *   commits  an ordinary busy day of n commits (gen_day);
 *   authors  n commits with an author each (gen_day_authors);
 *   words    fifty commits of an n-word body and a subject of up to n
 *            words (both cut to the caps, as commit_set_message does);
 *   lines    fifty commits of an n-line body of bullets and trailers;
 *   reverts  one chain of n: a change, its revert, the revert's revert
 *            and so on, by sha and by subject, with re-lands between;
 *   prs      n merged pull requests, each with its merge commit and its
 *            squashed commit "title (#N)";
 *   series   a series "[k/n]" of n parts and n/4 series of two;
 *   merges   n merges of branches, remote branches and pull requests by
 *            n/10 people;
 *   pushes   n pushes to n/10 branches, a third of them forced.
 * Seeded, so a failure reproduces. Static inline so each includer uses
 * what it needs without warnings.
 */
#ifndef HOOKCAST_GEN_WORST_H
#define HOOKCAST_GEN_WORST_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "day.h"
#include "record.h"
#include "xmalloc.h"

#include "gen_day.h"
#include "gen_flood.h"

enum gen_dim {
	GEN_FILES,
	GEN_COMMITS,
	GEN_AUTHORS,
	GEN_WORDS,
	GEN_LINES,
	GEN_REVERTS,
	GEN_PRS,
	GEN_SERIES,
	GEN_MERGES,
	GEN_PUSHES,
};

/* Each dimension, its name and its size at 1x (the table's first row). */
static const struct {
	const char	*name;
	enum gen_dim	 dim;
	size_t		 base;
} gen_dims[] = {
	{ "files", GEN_FILES, 100 },
	{ "commits", GEN_COMMITS, 200 },
	{ "authors", GEN_AUTHORS, 200 },
	{ "words", GEN_WORDS, 30 },
	{ "lines", GEN_LINES, 25 },
	{ "reverts", GEN_REVERTS, 20 },
	{ "prs", GEN_PRS, 100 },
	{ "series", GEN_SERIES, 40 },
	{ "merges", GEN_MERGES, 100 },
	{ "pushes", GEN_PUSHES, 100 },
};
#define GEN_NDIMS (sizeof gen_dims / sizeof gen_dims[0])

/* The repository of a worst-case day: "src" is its own directory. */
#define GEN_WORST_REPO	"worst/src"

/* Files a list holds at most (handlers' PUSH_MAX_FILES). */
#define GEN_WORST_MAXFILES	10000

/* The area of the files day's k-th commit (the most common directory). */
static inline const char *
gen_worst_area(size_t k)
{
	return gen_areas[k % (sizeof gen_areas / sizeof gen_areas[0])];
}

/*
 * A list of n files of commit k: most under "<area>/", the others in
 * directories of their own and a few tests and docs; list is 0, 1 or 2
 * (added, modified, removed), so the names differ between lists.
 */
static inline char **
gen_worst_files(struct gen *g, size_t k, int list, size_t n)
{
	char	**v = xcalloc(n > 0 ? n : 1, sizeof *v), **l;
	size_t	  i;

	for (i = 0; i < n; i++) {
		switch (i % 5) {
		case 0:
		case 1:
		case 2:
			xasprintf(&v[i], "%s/m%zu/f%d_%zu.c", gen_worst_area(k),
			    i % 97, list, i);
			break;
		case 3:
			/* a directory of its own: n/5 of them */
			xasprintf(&v[i], "d%d_%zu/x%u.c", list, i,
			    (unsigned)gen_below(g, 9));
			break;
		default:
			xasprintf(&v[i], i % 2 ? "tests/t%d_%zu.py" :
			    "docs/p%d_%zu.md", list, i);
			break;
		}
	}
	l = record_list_dup(v, n);
	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
	return l;
}

/* The day of dimension dim at size n (see the top of this file). */
static inline struct day *
gen_worst_day(enum gen_dim dim, size_t n)
{
	struct gen	 g;
	struct day	*d;
	struct buf	 subj, body;
	struct commit	 c;
	size_t		 i, k, nf;
	char		*msg, *prev, name[64], login[64];

	switch (dim) {
	case GEN_COMMITS:
		return gen_day(25, n);
	case GEN_AUTHORS:
		return gen_day_authors(25, n);
	default:
		break;
	}
	memset(&g, 0, sizeof g);
	g.s = (uint64_t)dim * 1000003 + n;
	g.npeople = GEN_NPEOPLE;
	d = day_new(GEN_WORST_REPO, (time_t)1775260800);
	d->end = d->start + 86400;
	buf_init(&subj);
	buf_init(&body);
	switch (dim) {
	case GEN_FILES:
		nf = n < GEN_WORST_MAXFILES ? n : GEN_WORST_MAXFILES;
		for (k = 0; k < 20; k++) {
			memset(&c, 0, sizeof c);
			xasprintf(&msg, "Move %s into %s\n\nA big move.\n",
			    GEN_PICK(&g, gen_things), gen_worst_area(k));
			commit_set_message(&c, msg);
			free(msg);
			c.sha = gen_sha(&g);
			c.author_name = xstrdup(gen_person(&g));
			c.author_email = xstrdup("dev@example.com");
			c.timestamp = d->start + (time_t)k;
			c.branch = xstrdup("main");
			c.added = gen_worst_files(&g, k, 0, nf);
			c.modified = gen_worst_files(&g, k, 1, nf);
			c.removed = gen_worst_files(&g, k, 2, nf);
			c.nadded = c.nmodified = c.nremoved = nf;
			revert_parse(c.subject, c.body, &c.revert);
			if (day_add_commit(d, &c) != 1)
				commit_clear(&c);
		}
		break;
	case GEN_WORDS:
	case GEN_LINES:
		for (k = 0; k < 50; k++) {
			buf_reset(&subj);
			buf_reset(&body);
			buf_printf(&subj, "%s: speed up %s", gen_worst_area(k),
			    GEN_PICK(&g, gen_things));
			for (i = 0; dim == GEN_WORDS && i < n; i++)
				buf_printf(&subj, " %s", i % 3 ? "and" : "it");
			for (i = 0; i < n; i++) {
				if (dim == GEN_WORDS)
					buf_printf(&body, "%s%s", i ? " " : "",
					    i % 7 == 6 ? "done." : i % 2 ?
					    "fast" : "code");
				else
					buf_puts(&body, i % 9 == 8 ?
					    "Fixes: #12\n" : "- ok\n");
			}
			gen_flood_add(&g, d, buf_str(&subj), buf_str(&body),
			    gen_person(&g), NULL, k);
		}
		break;
	case GEN_REVERTS:
		prev = xstrdup("Speed up the scheduler");
		gen_flood_add(&g, d, prev, "", gen_person(&g), NULL, 0);
		for (i = 1; i < n; i++) {
			buf_reset(&subj);
			buf_reset(&body);
			if (i % 4 == 3)
				buf_printf(&subj, "Reapply \"%s\"", prev);
			else
				buf_printf(&subj, "Revert \"%s\"", prev);
			if (i % 2)
				buf_printf(&body, "This reverts commit %s.\n",
				    d->commits[d->ncommits - 1].sha);
			gen_flood_add(&g, d, buf_str(&subj), buf_str(&body),
			    gen_person(&g), NULL, i);
			free(prev);
			prev = xstrdup(d->commits[d->ncommits - 1].subject);
		}
		free(prev);
		break;
	case GEN_PRS:
		for (i = 0; i < n; i++) {
			struct merged_pr pr;
			const char	*thing = GEN_PICK(&g, gen_things);

			snprintf(login, sizeof login, "dev%zu", i % 50);
			buf_reset(&subj);
			buf_printf(&subj, "Improve %s, part %zu (#%zu)", thing,
			    i, 1000 + i);
			gen_flood_add(&g, d, buf_str(&subj), "", login, login,
			    2 * i);
			buf_reset(&subj);
			buf_printf(&subj, "Merge pull request #%zu from "
			    "%s/topic-%zu", 1000 + i, login, i);
			gen_flood_add(&g, d, buf_str(&subj), "", login, login,
			    2 * i + 1);
			memset(&pr, 0, sizeof pr);
			pr.number = (long)(1000 + i);
			xasprintf(&pr.title, "Improve %s, part %zu", thing, i);
			xasprintf(&pr.body, "This improves %s.\n\nCloses #%zu.",
			    thing, i);
			pr.author_login = xstrdup(login);
			pr.branch = xstrdup("main");
			pr.merged_at = d->start + (time_t)i;
			/* merged by its squashed commit, as GitHub says */
			pr.merge_sha = xstrdup(d->commits[d->ncommits -
			    2].sha);
			if (day_add_pr(d, &pr) != 1)
				merged_pr_clear(&pr);
		}
		break;
	case GEN_SERIES:
		for (i = 0; i < n / 2; i++) {
			buf_reset(&subj);
			buf_printf(&subj, "[%zu/%zu] %s: step %zu of %s",
			    i + 1, n / 2, gen_worst_area(0), i + 1,
			    gen_things[0]);
			gen_flood_add(&g, d, buf_str(&subj), "",
			    gen_people[0], "ada", i);
		}
		for (k = 0; k < n / 4; k++) {
			for (i = 0; i < 2; i++) {
				buf_reset(&subj);
				buf_printf(&subj, "[PATCH %zu/2] %s: change %zu"
				    " part %zu", i + 1, gen_worst_area(k), k,
				    i + 1);
				gen_flood_add(&g, d, buf_str(&subj), "",
				    gen_person(&g), NULL, n + 2 * k + i);
			}
		}
		break;
	case GEN_MERGES:
		for (i = 0; i < n; i++) {
			buf_reset(&subj);
			snprintf(name, sizeof name, "Merger %zu", i % (n / 10 +
			    1));
			snprintf(login, sizeof login, "merger%zu", i %
			    (n / 10 + 1));
			switch (i % 3) {
			case 0:
				buf_printf(&subj, "Merge branch 'feature-%zu' "
				    "into main", i);
				break;
			case 1:
				buf_printf(&subj, "Merge remote-tracking branch"
				    " 'origin/fix-%zu'", i);
				break;
			default:
				buf_printf(&subj, "Merge pull request #%zu from"
				    " %s/topic-%zu", i, login, i);
				break;
			}
			gen_flood_add(&g, d, buf_str(&subj), "", name, login,
			    i);
		}
		gen_flood_add(&g, d, "Optimize core index enumeration", "",
		    gen_people[1], NULL, n);
		break;
	case GEN_PUSHES:
		gen_flood_add(&g, d, "Optimize core index enumeration", "",
		    gen_people[1], NULL, 0);
		for (i = 0; i < n; i++) {
			struct push	 p;
			char		 hex[PUSH_HEX_LEN + 1];

			memset(&p, 0, sizeof p);
			snprintf(hex, sizeof hex, "%040zx", i + 1);
			push_id_set(p.before, hex);
			snprintf(hex, sizeof hex, "%040zx", i + 2);
			push_id_set(p.after, hex);
			p.ncommits = 1;
			p.forced = i % 3 == 0;
			xasprintf(&p.branch, "topic-%zu", i % (n / 10 + 1));
			xasprintf(&p.pusher, "pusher%zu", i % 7);
			p.at = d->start + (time_t)i;
			if (day_add_push(d, &p) != 0) {
				free(p.branch);
				free(p.pusher);
			}
		}
		break;
	default:
		break;
	}
	buf_free(&subj);
	buf_free(&body);
	return d;
}

#endif
