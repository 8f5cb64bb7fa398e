/*
 * Unit tests for episode/chores.c: one person's housekeeping said once,
 * a run of changes sharing their verb as one list ("renamed a, b and c",
 * not "renamed a, renamed b and renamed c"), a run of dependency bumps
 * counted with what matters named. One row per rule, on drafted days.
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
	const char	*login;		/* the person's, or NULL: Nate's */
};

static const struct chores_case cases[] = {
	{ "a verb shared by three: said once", {
	    "Rename the lint job to check\n",
	    "Rename the docs job to pages\n",
	    "Rename the wheel job to dist\n", NULL },
	    "renamed the lint job to check, docs job to pages and wheel job "
	    "to dist", ", renamed", NULL },
	/* requests 2026-01-30: "Nate Prewitt bumped actions/upload-artifact
	   from 4.6.2 to 5.0.0, actions/download-artifact from 5.0.0 to
	   6.0.0, actions/checkout ..." (ten versions read out) */
	{ "a run of bumps is counted, the new majors counted", {
	    "Bump actions/upload-artifact from 4.6.2 to 5.0.0\n",
	    "Bump actions/download-artifact from 5.0.0 to 6.0.0\n",
	    "Bump actions/checkout from 5.0.0 to 6.0.0\n",
	    "Bump actions/setup-python from 6.0.0 to 6.1.0\n",
	    "Bump github/codeql-action from 4.30.8 to 4.31.6\n", NULL },
	    "Nate Prewitt bumped five GitHub Actions, three of them to a new "
	    "major version.", "from 4.6.2", NULL },
	{ "three bumps: the one new major named", {
	    "Bump actions/checkout from 5.0.0 to 6.0.0\n",
	    "Bump actions/setup-python from 6.0.0 to 6.1.0\n",
	    "Bump github/codeql-action from 4.30.8 to 4.31.6\n", NULL },
	    "Nate Prewitt bumped three GitHub Actions, among them "
	    "actions/checkout to version 6.0.0.", "6.1.0", NULL },
	/* express 2024-09-09: "Wes Todd updated body-parser to 2.0.1,
	   serve-static to 2.1.0 and send to 1.1.0." */
	{ "npm bumps are counted as dependencies", {
	    "fix(deps): body-parser@^2.0.1\n",
	    "fix(deps): serve-static@^2.1.0\n",
	    "fix(deps): send@^1.1.0\n", NULL },
	    "Nate Prewitt bumped three dependencies.", "2.0.1", NULL },
	/* express 2024-09-09: router's major bump, marked breaking, went
	   unsaid among four */
	{ "a bump marked breaking is a new major, named", {
	    "feat(deps)!: router@^2.0.0 (#5885)\n",
	    "fix(deps): body-parser@^2.0.1\n",
	    "fix(deps): serve-static@^2.1.0\n",
	    "fix(deps): send@^1.1.0\n", NULL },
	    "Nate Prewitt bumped four dependencies, among them router to "
	    "version 2.0.0.", "2.0.1", NULL },
	{ "a security fix among bumps is named", {
	    "Bump body-parser from 1.20.2 to 1.20.3\n\nFixes CVE-2024-45590."
	    "\n",
	    "Bump serve-static from 1.15.0 to 1.16.0\n",
	    "Bump send from 0.18.0 to 0.19.0\n", NULL },
	    "bumped three dependencies, among them a security fix in "
	    "body-parser.", "0.19.0", NULL },
	{ "near miss: words naming no package are no bump to count", {
	    "Bump the nightly version to 2025-10-12\n",
	    "Update all non-major dependencies\n",
	    "Bump actions/checkout from 5.0.0 to 6.0.0\n", NULL },
	    "actions/checkout from 5.0.0 to 6.0.0", "bumped three", NULL },
	/* express 2024-09-09: "Chris de Almeida updated dependencies:
	   update CI, remove unsupported versions, clean up." */
	{ "a dependency change naming none is told by its own verbs, not "
	  "said to update dependencies", {
	    "\xf0\x9f\x94\xa7 update CI, remove unsupported versions, clean "
	    "up\n",
	    "Bump actions/checkout from 5.0.0 to 6.0.0\n", NULL },
	    "updated CI, removed unsupported versions and cleaned up",
	    "updated dependencies", NULL },
	/* a bot's three bumps were listed with their versions */
	{ "a bot's run of bumps is counted", {
	    "Bump actions/upload-artifact from 4.6.2 to 5.0.0\n",
	    "Bump actions/setup-python from 6.0.0 to 6.1.0\n",
	    "Bump github/codeql-action from 4.30.8 to 4.31.6\n", NULL },
	    "The dependency bot bumped three GitHub Actions, among them "
	    "actions/upload-artifact to version 5.0.0.", "4.31.6",
	    "dependabot[bot]" },
	{ "two sharing a verb: the verb said once", {
	    "Bump actions/checkout from 5.0.0 to 6.0.0\n",
	    "Bump github/codeql-action from 4.30.8 to 4.31.6\n", NULL },
	    "bumped actions/checkout from 5.0.0 to 6.0.0 and "
	    "github/codeql-action from 4.30.8", "and bumped", NULL },
	{ "changes said only by their kind are counted", {
	    "CI: macOS too\n", "CI: yaml is poo\n", "CI: Spaces\n",
	    "Add a test for regress to the CI run\n", NULL },
	    "made three more changes to the build", "the build: yaml", NULL },
	{ "the same subject twice is said once", {
	    "docs: further tweaks re map and map_values\n",
	    "docs: further tweaks re map and map_values\n",
	    "Pin the Python version in CI\n", NULL },
	    "made a docs change, \"further tweaks re map and map values\"",
	    "also updated the docs", NULL },
	{ "other verbs are not joined", {
	    "Bump actions/checkout from 5.0.0 to 6.0.0\n",
	    "Pin the Python version in CI\n",
	    "Bump github/codeql-action from 4.30.8 to 4.31.6\n", NULL },
	    "actions/checkout", "bumped actions/checkout from 5.0.0 to 6.0.0, "
	    "github/codeql-action", NULL },
};

static struct day *
chores_day(const struct chores_case *cc)
{
	struct day	*d = day_new("o/r", 1775260800);
	size_t		 i;

	d->end = d->start + 86400;
	for (i = 0; i < 6 && cc->msgs[i] != NULL; i++)
		day_msg_add(d, cc->msgs[i], NULL, i + 0xc0de0, i,
		    cc->login != NULL ? cc->login : "Nate Prewitt",
		    cc->login != NULL ? cc->login : "nateprewitt",
		    ".github/workflows/ci.yml");
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
