/*
 * Unit tests for episode/chores.c: one person's housekeeping said once,
 * a run of changes sharing their verb as one list ("bumped a, b and c",
 * not "bumped a, bumped b and bumped c"). One row per rule, on drafted
 * days.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "day.h"
#include "episode.h"
#include "record.h"
#include "xmalloc.h"

#include "day_msg.h"

struct chores_case {
	const char	*rule;
	const char	*msgs[6];	/* NULL-ended, all by one person */
	const char	*has;		/* in the chores segment */
	const char	*hasnt;		/* nowhere in the transcript */
};

static const struct chores_case cases[] = {
	{ "a verb shared by three: said once", {
	    "Bump actions/checkout from 5.0.0 to 6.0.0\n",
	    "Bump actions/setup-python from 6.0.0 to 6.1.0\n",
	    "Bump github/codeql-action from 4.30.8 to 4.31.6\n", NULL },
	    "bumped actions/checkout from 5.0.0 to 6.0.0, "
	    "actions/setup-python from 6.0.0 to 6.1.0 and "
	    "github/codeql-action from 4.30.8 to 4.31.6",
	    ", bumped" },
	{ "two sharing a verb: the verb said once", {
	    "Bump actions/checkout from 5.0.0 to 6.0.0\n",
	    "Bump github/codeql-action from 4.30.8 to 4.31.6\n", NULL },
	    "bumped actions/checkout from 5.0.0 to 6.0.0 and "
	    "github/codeql-action from 4.30.8", "and bumped" },
	{ "changes said only by their kind are counted", {
	    "CI: macOS too\n", "CI: yaml is poo\n", "CI: Spaces\n",
	    "Add a test for regress to the CI run\n", NULL },
	    "made three more changes to the build", "the build: yaml" },
	{ "the same subject twice is said once", {
	    "docs: further tweaks re map and map_values\n",
	    "docs: further tweaks re map and map_values\n",
	    "Pin the Python version in CI\n", NULL },
	    "made a docs change, \"further tweaks re map and map values\"",
	    "also updated the docs" },
	{ "other verbs are not joined", {
	    "Bump actions/checkout from 5.0.0 to 6.0.0\n",
	    "Pin the Python version in CI\n",
	    "Bump github/codeql-action from 4.30.8 to 4.31.6\n", NULL },
	    "actions/checkout", "bumped actions/checkout from 5.0.0 to 6.0.0, "
	    "github/codeql-action" },
};

static struct day *
chores_day(const struct chores_case *cc)
{
	struct day	*d = day_new("o/r", 1775260800);
	size_t		 i;

	d->end = d->start + 86400;
	for (i = 0; i < 6 && cc->msgs[i] != NULL; i++)
		day_msg_add(d, cc->msgs[i], NULL, i + 0xc0de0, i,
		    "Nate Prewitt", "nateprewitt", ".github/workflows/ci.yml");
	day_pair_reverts(d);
	return d;
}

static void
test_chores_rows(void **state)
{
	struct episode_opts	 o;
	struct episode		*ep;
	struct day		*d;
	size_t			 i;

	(void)state;
	memset(&o, 0, sizeof o);
	o.show = "Daily";
	o.year = 2026;
	o.month = 4;
	o.mday = 4;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		d = chores_day(&cases[i]);
		ep = episode_draft(d, &o);
		if (strstr(ep->transcript, cases[i].has) == NULL)
			fail_msg("%s: no \"%s\" in: %s", cases[i].rule,
			    cases[i].has, ep->transcript);
		if (cases[i].hasnt != NULL &&
		    strstr(ep->transcript, cases[i].hasnt) != NULL)
			fail_msg("%s: \"%s\" in: %s", cases[i].rule,
			    cases[i].hasnt, ep->transcript);
		episode_free(ep);
		day_free(d);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chores_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
