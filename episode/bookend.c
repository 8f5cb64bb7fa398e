/*
 * The opening and the closing: the day's greeting and numbers, and the sign-off that matches the theme.
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "classify.h"
#include "draft_int.h"
#include "episode.h"
#include "phrase.h"
#include "spoken.h"
#include "xmalloc.h"

void
bookend_opening(struct draft *d)
{
	static const char *greet[] = {
		"Hello and welcome to %s. I'm your host, and today we're "
		    "looking at the %s repository on this %s.",
		"Good to have you back for another episode of %s. Let's see "
		    "what happened in the %s repository on this %s.",
		"Hi there, developers, and welcome to %s, with the news "
		    "from the %s repository on this %s.",
		"Welcome in to %s. Grab a coffee: we're going through the "
		    "day in the %s repository, this %s.",
		"This is %s, and here is what moved in the %s repository on "
		    "%s.",
		"You're listening to %s. Let's walk through the day in the "
		    "%s repository, %s.",
		"Welcome back to %s, your daily look at the %s repository. "
		    "It's %s; let's get into it.",
		"Hello, and thanks for tuning in to %s. Here's the day in "
		    "the %s repository for %s.",
	};
	const struct day_stats	*st = &d->ep->stats;
	struct buf		 b;
	const char		*people = d->bots ? "authors" : "people";
	size_t			 i;

	buf_init(&b);
	/* a show never opens the same way twice in a week */
	buf_printf(&b, DRAFT_ROTATE(d, 0, greet), d->ep->show, d->repo,
	    d->datestr);
	phrase_space(&b);
	if (d->nitems == 0) {
		if (st->merged_prs == 0)
			buf_puts(&b, "It was a quiet day: no commits landed "
			    "and no pull requests were merged, so this one "
			    "is short.");
		else {
			const char **titles = xcalloc(d->day->nprs + 1,
			    sizeof *titles);
			char **owned = xcalloc(d->day->nprs + 1, sizeof *owned);
			size_t n = 0;

			buf_puts(&b, "No commits reached us today, but ");
			spoken_count(&b, (long long)st->merged_prs,
			    "pull request was", "pull requests were");
			buf_puts(&b, " merged");
			for (i = 0; i < d->day->nprs && n < 3; i++) {
				if (d->day->prs[i].title == NULL)
					continue;
				owned[n] = classify_what(d->day->prs[i].title);
				titles[n] = owned[n];
				n++;
			}
			if (n > 0) {
				buf_puts(&b, ": ");
				spoken_list(&b, titles, n);
			}
			buf_putc(&b, '.');
			for (i = 0; i < n; i++)
				free(owned[i]);
			free(owned);
			free(titles);
		}
	} else if (d->nitems == 1) {
		buf_printf(&b, "It was a quiet one: a single commit, from %s",
		    d->items[0].name);
		if (st->merged_prs > 0) {
			buf_puts(&b, ", and ");
			spoken_count(&b, (long long)st->merged_prs,
			    "merged pull request", "merged pull requests");
		}
		buf_putc(&b, '.');
	} else {
		if (st->merged_prs > 0 && d->hash % 2 == 0) {
			buf_puts(&b, "We had ");
			spoken_count(&b, (long long)st->commits, "commit",
			    "commits");
			buf_puts(&b, " from ");
			spoken_count(&b, (long long)st->authors, "person",
			    people);
			buf_puts(&b, " and ");
			spoken_count(&b, (long long)st->merged_prs,
			    "merged pull request", "merged pull requests");
			buf_putc(&b, '.');
		} else if (st->merged_prs > 0) {
			phrase_count_cap(&b, (long long)st->commits, "commit",
			    "commits");
			buf_puts(&b, " from ");
			spoken_count(&b, (long long)st->authors, "person",
			    people);
			buf_puts(&b, " landed, along with ");
			spoken_count(&b, (long long)st->merged_prs,
			    "merged pull request", "merged pull requests");
			buf_putc(&b, '.');
		} else {
			buf_puts(&b, "No pull requests were merged, but we had ");
			spoken_count(&b, (long long)st->commits, "commit",
			    "commits");
			buf_puts(&b, " from ");
			spoken_count(&b, (long long)st->authors, "person",
			    people);
			buf_putc(&b, '.');
		}
		if (st->reverts > 0 || st->relands > 0) {
			buf_puts(&b, " Among them ");
			if (st->reverts > 0) {
				buf_puts(&b, st->reverts == 1 &&
				    st->relands == 0 ? "is " : "are ");
				if (st->reverts == 1)
					buf_puts(&b, "a revert");
				else
					spoken_count(&b,
					    (long long)st->reverts, "revert",
					    "reverts");
			} else
				buf_puts(&b, st->relands == 1 ? "is " : "are ");
			if (st->reverts > 0 && st->relands > 0)
				buf_puts(&b, " and ");
			if (st->relands == 1)
				buf_puts(&b, "a re-land");
			else if (st->relands > 1)
				spoken_count(&b, (long long)st->relands,
				    "re-land", "re-lands");
			buf_puts(&b, ", so there's a bit of back and forth "
			    "to tell.");
		}
		if (st->force_pushes > 0) {
			buf_puts(&b, " The branch also saw ");
			spoken_count(&b, (long long)st->force_pushes,
			    "force push", "force pushes");
			buf_putc(&b, '.');
		}
	}
	draft_segment(d, "opening", &b, NULL);
}

void
bookend_closing(struct draft *d)
{
	static const char *rollback[] = {
		"That's the day: a reminder that backing a change out is "
		    "part of shipping it.",
		"Some steps back today and some steps forward, which is how "
		    "a healthy project moves.",
	};
	static const char *kinds[CLASSIFY_NKINDS][2] = {
		[CLASSIFY_REVERT] = { "A day of second thoughts.",
		    "A day of second thoughts." },
		[CLASSIFY_RELAND] = { "Things came back today.",
		    "Things came back today." },
		[CLASSIFY_FEATURE] = { "New pieces landed today.",
		    "New pieces landed today, so go kick the tires." },
		[CLASSIFY_PERF] = { "A day about speed.",
		    "A day spent making things faster." },
		/* nothing said of other days: the archive isn't read here */
		[CLASSIFY_FIX] = { "A day of fixes, and a steadier codebase "
		    "for it.", "Bugs found and fixed: a good day's work." },
		[CLASSIFY_DOCS] = { "Good docs are a feature, too.",
		    "A day for the readers." },
		[CLASSIFY_TESTS] = { "A day for the test suite.",
		    "Quiet work on the tests, the kind that pays off later." },
		[CLASSIFY_BUILD] = { "Build and CI upkeep, the plumbing that "
		    "keeps everything flowing.", "A day for the plumbing." },
		[CLASSIFY_DEPS] = { "Dependencies kept fresh.",
		    "Dependencies kept fresh." },
		[CLASSIFY_CLEANUP] = { "Old code out, and a lighter codebase "
		    "for it.", "Old code out, and a tidier tree for it." },
		[CLASSIFY_CHANGE] = { "A steady day of changes.",
		    "A steady day of changes." },
	};
	/*
	 * The last sentence names the show and the date; it comes in turn,
	 * so a show never signs off the same way twice in a week.
	 */
	static const char *tail[] = {
		"Thanks for listening to %s on this %s, and I'll catch you "
		    "tomorrow.",
		"That's all from %s for %s, and I'll catch you tomorrow.",
		"Keep building, and I'll catch you tomorrow: this was %s for "
		    "%s.",
		"That wraps up %s for %s. See you next time.",
		"And that's %s for %s. Thanks for spending a few minutes "
		    "with us.",
		"This has been %s for %s. Until next time, happy hacking.",
		"You've been listening to %s for %s. Talk to you tomorrow.",
		"That's it for %s on %s. See you on the next one.",
	};
	struct buf	 b;

	buf_init(&b);
	switch (d->theme) {
	case DRAFT_THEME_EMPTY:
		buf_puts(&b, "Nothing more to tell today.");
		break;
	case DRAFT_THEME_QUIET:
		buf_puts(&b, "Short and sweet today.");
		break;
	case DRAFT_THEME_ROLLBACK:
		buf_puts(&b, DRAFT_PICK(d, 11, rollback));
		break;
	case DRAFT_THEME_KIND:
		buf_puts(&b, kinds[d->theme_kind][d->hash % 2]);
		break;
	}
	buf_putc(&b, ' ');
	buf_printf(&b, DRAFT_ROTATE(d, 3, tail), d->ep->show, d->datestr);
	draft_segment(d, "closing", &b, NULL);
}
