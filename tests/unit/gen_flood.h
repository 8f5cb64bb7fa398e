/*
 * Hostile days for the drafter's scaling tests and benchmark (issue #9,
 * finding 4): a day that is nearly all reverts, and a day where every
 * commit has an author of its own. Seeded, so a failure reproduces.
 *
 * The reverts day mixes what makes pairing work hard: reverts whose sha
 * and subject match nothing in the day (the whole day is searched), reverts
 * of earlier commits named by sha or only by subject (with and without a
 * " (#N)" suffix on either side), reverts of reverts (re-lands), "Reapply"
 * re-lands, and repeated subjects so several candidates match.
 *
 * Static inline so each includer uses what it needs without warnings.
 */
#ifndef HOOKCAST_GEN_FLOOD_H
#define HOOKCAST_GEN_FLOOD_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "day.h"
#include "record.h"
#include "xmalloc.h"

#include "gen_day.h"

/* Add a commit of subject and body by name to d; the message is parsed. */
static inline void
gen_flood_add(struct gen *g, struct day *d, const char *subject,
    const char *body, const char *name, const char *login, size_t i)
{
	struct commit	 c;
	char		*msg, *file;

	memset(&c, 0, sizeof c);
	xasprintf(&msg, "%s\n\n%s", subject, body);
	commit_set_message(&c, msg);
	free(msg);
	c.sha = gen_sha(g);
	c.author_name = xstrdup(name);
	c.author_login = login != NULL ? xstrdup(login) : NULL;
	c.author_email = xstrdup("dev@example.com");
	c.committer_name = xstrdup(name);
	c.timestamp = d->start + (time_t)i;
	c.branch = xstrdup("main");
	xasprintf(&file, "src/%s/f%u.c", GEN_PICK(g, gen_areas),
	    (unsigned)gen_below(g, 40));
	c.modified = record_list_dup(&file, 1);
	c.nmodified = 1;
	free(file);
	revert_parse(c.subject, c.body, &c.revert);
	if (day_add_commit(d, &c) != 1)
		commit_clear(&c);
}

/*
 * A day of n commits for "flood/repo", nearly all reverts or re-lands.
 * The caller pairs the reverts (day_pair_reverts) and frees the day.
 */
static inline struct day *
gen_day_reverts(uint64_t seed, size_t n)
{
	struct gen	 g;
	struct day	*d;
	struct buf	 subj, body;
	size_t		 i, k;
	long		 t;
	const char	*name, *ts;

	memset(&g, 0, sizeof g);
	g.s = seed * 104729 + 3;
	g.npeople = GEN_NPEOPLE;
	d = day_new("flood/repo", (time_t)1775260800);
	d->end = d->start + 86400;
	buf_init(&subj);
	buf_init(&body);
	for (i = 0; i < n; i++) {
		buf_reset(&subj);
		buf_reset(&body);
		name = gen_person(&g);
		t = i > 0 ? (long)gen_below(&g, i) : -1;
		ts = t >= 0 ? d->commits[t].subject : "";
		switch (k = gen_below(&g, 16)) {
		case 0:
			/* plain work, sometimes with a PR suffix */
			if (gen_below(&g, 2))
				buf_printf(&subj, "Speed up %s (#%u)",
				    GEN_PICK(&g, gen_things),
				    (unsigned)gen_below(&g, 500));
			else
				buf_printf(&subj, "Speed up %s",
				    GEN_PICK(&g, gen_things));
			break;
		case 1:
			/* a revert of earlier work, by sha */
			if (t < 0)
				goto unmatched;
			buf_printf(&subj, "Revert \"%s\"", ts);
			buf_printf(&body, "This reverts commit %s.\n",
			    d->commits[t].sha);
			break;
		case 2:
		case 3:
			/* a revert of earlier work by subject alone */
			if (t < 0)
				goto unmatched;
			buf_printf(&subj, "Revert \"%s\"", ts);
			if (k == 3)
				buf_printf(&subj, " (#%u)",
				    (unsigned)gen_below(&g, 900));
			break;
		case 4:
			/* a re-land of earlier work */
			if (t < 0)
				goto unmatched;
			buf_printf(&subj, "Reapply \"%s\"", ts);
			break;
		case 5:
			/* a revert of a shared subject: many candidates */
			buf_printf(&subj, "Revert \"Speed up %s\"",
			    GEN_PICK(&g, gen_things));
			break;
		case 6:
			/* a re-land by subject that may match several */
			buf_printf(&subj, "Reapply \"Speed up %s\"",
			    GEN_PICK(&g, gen_things));
			break;
		default:
		unmatched:
			/* a revert of work that is not in the day */
			buf_printf(&subj, "Revert \"Change %zu of %llu\"", i,
			    (unsigned long long)gen_next(&g));
			buf_puts(&body, "This reverts commit "
			    "0123456789abcdef0123456789abcdef01234567.\n");
			break;
		}
		gen_flood_add(&g, d, buf_str(&subj), buf_str(&body), name,
		    NULL, i);
	}
	buf_free(&subj);
	buf_free(&body);
	return d;
}

/*
 * A day of n commits for "flood/repo", each by an author of its own
 * (some with a login, some by name only, some bots), with a few repeats
 * differing only in case, so the count is a little under n.
 */
static inline struct day *
gen_day_authors(uint64_t seed, size_t n)
{
	struct gen	 g;
	struct day	*d;
	size_t		 i;
	char		 name[64], login[64], subj[96];

	memset(&g, 0, sizeof g);
	g.s = seed * 15485863 + 5;
	g.npeople = GEN_NPEOPLE;
	d = day_new("flood/repo", (time_t)1775260800);
	d->end = d->start + 86400;
	for (i = 0; i < n; i++) {
		size_t	who = gen_below(&g, 16) == 0 && i > 0 ?
		    gen_below(&g, i) : i;

		snprintf(subj, sizeof subj, "Fix %s case %zu",
		    GEN_PICK(&g, gen_things), i);
		switch (who % 5) {
		case 0:
			snprintf(name, sizeof name, "Person %zu", who);
			gen_flood_add(&g, d, subj, "", name, NULL, i);
			break;
		case 1:
			snprintf(name, sizeof name, "Dev %zu", who);
			snprintf(login, sizeof login, "%s%zu",
			    gen_below(&g, 2) ? "DEV" : "dev", who);
			gen_flood_add(&g, d, subj, "", name, login, i);
			break;
		case 2:
			snprintf(login, sizeof login, "helper%zu[bot]", who);
			gen_flood_add(&g, d, subj, "", login, login, i);
			break;
		default:
			snprintf(name, sizeof name, "%s %zu",
			    gen_people[who % GEN_NPEOPLE], who);
			snprintf(login, sizeof login, "u%zu", who);
			gen_flood_add(&g, d, subj, "", name, login, i);
			break;
		}
	}
	return d;
}

#endif
