/*
 * Unit tests for the stock phrases (episode/earlier.c earlier_stock,
 * DRAFT_STOCK): what a variant is known by, which variant a day gets
 * after the six days before, and over two weeks of one show drafted in
 * order, each day given what the six before said, no stock phrase on
 * more than two of any seven consecutive days.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "date.h"
#include "day.h"
#include "episode.h"
#include "record.h"
#include "xmalloc.h"

#include "day_msg.h"

/* A stock phrase and the words a listener hears as the same line. */
static const struct {
	const char	*phrase;
	const char	*catch;
} catches[] = {
	{ "Steady work, all told.", "all told." },
	{ "A steady day of changes.", "A steady day of changes." },
	{ "New pieces landed today, so go kick the tires.",
	    "so go kick the tires." },
	{ "Something new to try today, so go kick the tires.",
	    "so go kick the tires." },
	{ "There was another one.", "There was another one." },
	{ "It comes from %s's change we heard about earlier.",
	    "'s change we heard about earlier." },
	{ "%s is out, so the release notes are worth a read before you "
	    "upgrade.", "so the release notes are worth a read before you "
	    "upgrade." },
	{ " today, and fewer things to trip over.",
	    "and fewer things to trip over." },
	/* near misses: a comma at the end, a directive with a length */
	{ "Done,", "Done," },
	{ "%zu more, all told.", "all told." },
	{ "", "" },
};

static void
test_catchphrase(void **state)
{
	const char	*c;
	size_t		 i, n;

	(void)state;
	for (i = 0; i < sizeof catches / sizeof catches[0]; i++) {
		c = earlier_catchphrase(catches[i].phrase, &n);
		if (n != strlen(catches[i].catch) ||
		    strncmp(c, catches[i].catch, n) != 0)
			fail_msg("\"%s\": \"%.*s\", not \"%s\"",
			    catches[i].phrase, (int)n, c, catches[i].catch);
	}
}

/* A variant chosen after what the days before said. */
struct pick_case {
	const char	*rule;
	struct {
		int		 ago;	/* days before the one drafted */
		const char	*said;
	} before[4];
	const char	*want;		/* NULL: none */
	const char *const *v;		/* NULL: steady */
};

static const char *const steady[] = {
	"A steady day of changes.",
	"Steady work, all told.",
};

static const char *const second[] = {
	"A day of second thoughts: backing a change out is part of "
	    "shipping it.",
	"A day of second thoughts, and that's part of shipping too.",
};

static const struct pick_case picks[] = {
	{ "nothing said before: the first", { { 0, NULL } },
	    "A steady day of changes.", NULL },
	{ "said once: said again", { { 1, "Hi. A steady day of changes." },
	    { 0, NULL } }, "A steady day of changes.", NULL },
	{ "said on two of six days: the next", { { 1, "A steady day of "
	    "changes." }, { 6, "Bye. A steady day of changes. Bye." },
	    { 0, NULL } }, "Steady work, all told.", NULL },
	{ "both said twice: none", { { 1, "A steady day of changes." },
	    { 2, "Steady work, all told." }, { 3, "Steady work, all told." },
	    { 4, "A steady day of changes." } }, NULL, NULL },
	/* near misses */
	{ "seven days ago is out of the week", { { 1, "A steady day of "
	    "changes." }, { 7, "A steady day of changes." }, { 0, NULL } },
	    "A steady day of changes.", NULL },
	{ "two episodes of one date are one day", { { 2, "A steady day of "
	    "changes." }, { 2, "A steady day of changes." }, { 0, NULL } },
	    "A steady day of changes.", NULL },
	{ "the day itself is no day before", { { 0, "A steady day of "
	    "changes." }, { 0, NULL } }, "A steady day of changes.", NULL },
	{ "a catchphrase said in other words is not said", { { 1,
	    "A steady day of change." }, { 2, "a steady day of changes." },
	    { 0, NULL } }, "A steady day of changes.", NULL },
	{ "variants of one head count together", { { 1, "A day of second "
	    "thoughts: backing a change out is part of shipping it." },
	    { 3, "A day of second thoughts: backing a change out is part of "
	    "shipping it." }, { 0, NULL } }, NULL, second },
	{ "a head said once: said again", { { 1, "A day of second "
	    "thoughts: backing a change out is part of shipping it." },
	    { 3, "A day of fixes." }, { 0, NULL } }, "A day of second "
	    "thoughts: backing a change out is part of shipping it.",
	    second },
};

static void
test_pick(void **state)
{
	struct episode_said	 said[4];
	const char		*got;
	long			 today = date_daynum(2026, 7, 10), dn;
	size_t			 i, k, n;
	int			 y, m, d;

	(void)state;
	for (i = 0; i < sizeof picks / sizeof picks[0]; i++) {
		for (n = 0; n < 4 && picks[i].before[n].said != NULL; n++) {
			/* 2026-07-10 minus ago days, all in July or June */
			dn = today - picks[i].before[n].ago;
			y = 2026;
			m = dn >= date_daynum(2026, 7, 1) ? 7 : 6;
			d = (int)(dn - date_daynum(2026, m, 1)) + 1;
			xasprintf(&said[n].date, "%04d-%02d-%02d", y, m, d);
			said[n].transcript = (char *)picks[i].before[n].said;
		}
		got = earlier_stock(said, n, today, 0, picks[i].v != NULL ?
		    picks[i].v : steady, 2);
		if ((got == NULL) != (picks[i].want == NULL) ||
		    (got != NULL && strcmp(got, picks[i].want) != 0))
			fail_msg("%s: \"%s\", not \"%s\"", picks[i].rule,
			    got != NULL ? got : "(none)",
			    picks[i].want != NULL ? picks[i].want : "(none)");
		for (k = 0; k < n; k++)
			free(said[k].date);
	}
}

/* Days of one kind, drafted day after day. */
struct week_case {
	const char	*rule;
	const char	*msgs[6];	/* NULL-ended */
	const char	*first;		/* a stock phrase of the first day */
};

#define REVERTED1 "0000000000000000000000000000000000000001"
#define REVERTED2 "0000000000000000000000000000000000000002"

static const struct week_case weeks[] = {
	{ "a steady day", { "docs: fix a typo in the FAQ\n",
	    "build: bump the action to v4\n", "test: add a case for the "
	    "parser\n", "refactor: split the reader in two\n", NULL },
	    "lighter codebase for it" },
	{ "a day of two rollbacks", { "[dynamo] Add a recompile log\n",
	    "[dynamo] Trace len() of a dict\n",
	    "Revert \"[dynamo] Add a recompile log\"\n\nThis reverts commit "
	    REVERTED1 ".\n", "Revert \"[dynamo] Trace len() of a dict\"\n\n"
	    "This reverts commit " REVERTED2 ".\n",
	    "docs: fix a typo in the FAQ\n", NULL }, "One more rollback" },
	{ "two fixes", { "fix: close the file on error\n",
	    "fix: handle an empty header\n", NULL }, "fewer things to trip" },
};

/* Stock phrases a listener of the show would hear day after day. */
static const char *const stock[] = {
	"all told.", "kick the tires", "There was another one.",
	"we heard about earlier", "One more rollback to cover.",
	"And a second story of the same kind.", "steady day of changes",
	"fewer things to trip over", "Good docs are a feature",
	"from earlier in the show", "Let's start with the rollbacks.",
	"First, the changes that were backed out.",
	"We'll begin with what got rolled back.", "lighter codebase for it",
	"tidier tree for it", "A day for the readers", "A day for the test "
	"suite", "kind that pays off later", "A day for the plumbing",
	"Dependencies kept fresh", "steadier codebase", "good day's work",
	"one less thing to trip over", "Short and sweet", "Just the one "
	"change", "making things faster", "A day about speed",
	"second thoughts", "A bit of back and forth", "steps back today",
	"Some work came back, too.", "One returning change to mention.",
};

static struct day *
week_day(const struct week_case *tc, time_t start)
{
	struct day	*d = day_new("pytorch/pytorch", start);
	size_t		 i;
	const char	*sha;

	d->end = d->start + 86400;
	for (i = 0; i < 6 && tc->msgs[i] != NULL; i++) {
		sha = NULL;
		if (strncmp(tc->msgs[i], "[dynamo] Add", 12) == 0)
			sha = REVERTED1;
		else if (strncmp(tc->msgs[i], "[dynamo] Trace", 14) == 0)
			sha = REVERTED2;
		day_msg_add(d, tc->msgs[i], sha, i + 0xabc0, i * 60,
		    i % 2 ? "Grace Hopper" : "Ada Lovelace",
		    i % 2 ? "grace" : "ada", "src/a.c");
	}
	day_pair_reverts(d);
	return d;
}

/*
 * Two weeks of each kind of day, each drafted with what the six days
 * before said: no stock phrase on three days of any seven. Without the
 * days before (said NULL) the same fortnight repeats its lines, which
 * is what the show did.
 */
static void
test_weeks(void **state)
{
	enum { NDAYS = 14, WEEK = 7 };
	struct episode_opts	 o;
	struct episode_said	 said[NDAYS];
	struct episode		*ep;
	struct day		*d;
	char			*text[NDAYS];
	size_t			 i, s, k, from, n;
	int			 day, j, heard[NDAYS], found, any;

	(void)state;
	for (i = 0; i < sizeof weeks / sizeof weeks[0]; i++) {
		for (day = 0; day < NDAYS; day++) {
			memset(&o, 0, sizeof o);
			o.show = "The Daily";
			o.year = 2026;
			o.month = 7;
			o.mday = 1 + day;
			from = day > 6 ? (size_t)day - 6 : 0;
			for (k = from, n = 0; k < (size_t)day; k++, n++) {
				xasprintf(&said[n].date, "2026-07-%02zu",
				    k + 1);
				said[n].transcript = text[k];
			}
			o.said = said;
			o.nsaid = n;
			d = week_day(&weeks[i], 1782864000 + day * 86400);
			ep = episode_draft(d, &o);
			text[day] = xstrdup(ep->transcript);
			episode_free(ep);
			day_free(d);
			for (k = 0; k < n; k++)
				free(said[k].date);
		}
		found = 0;
		for (s = 0; s < sizeof stock / sizeof stock[0]; s++) {
			any = 0;
			for (day = 0; day < NDAYS; day++) {
				heard[day] = strstr(text[day],
				    stock[s]) != NULL;
				any |= heard[day];
			}
			found |= any;
			for (day = 0; day + WEEK <= NDAYS; day++) {
				for (j = day, k = 0; j < day + WEEK; j++)
					k += heard[j];
				if (k > 2)
					fail_msg("%s: \"%s\" on %zu days of "
					    "seven from day %d:\n%s",
					    weeks[i].rule, stock[s], k, day,
					    text[day]);
			}
		}
		/* each kind of day says the stock phrase it is here for */
		if (!found || strstr(text[0], weeks[i].first) == NULL)
			fail_msg("%s: no \"%s\":\n%s", weeks[i].rule,
			    weeks[i].first, text[0]);
		for (day = 0; day < NDAYS; day++)
			free(text[day]);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_catchphrase),
		cmocka_unit_test(test_pick),
		cmocka_unit_test(test_weeks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
