/*
 * Unit tests for who an episode says did what: one person under one name
 * however their commits spell it (draft.c), and git's merges of branches
 * said as bookkeeping should be, once (chores.c); and a name the day
 * uses is not a verb. Table-driven, on drafted days.
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

#include "day.h"
#include "episode.h"
#include "record.h"
#include "xmalloc.h"

#include "day_msg.h"

/* A commit of a test day: its message and its author. */
struct people_commit {
	const char	*msg;
	const char	*name;
	const char	*login;		/* NULL: none */
	const char	*email;		/* NULL: none */
};

struct people_case {
	const char		*rule;
	struct people_commit	 commits[8];	/* until msg is NULL */
	size_t			 authors;	/* the episode's count */
	const char		*has[3];	/* in the transcript */
	const char		*hasnt[3];	/* nowhere in it */
};

static const struct people_case cases[] = {
	{ "a handle and a full name on one address: one person, the full "
	  "name", {
	    { "Add digits editing for numeric options\n", "BenBE", NULL,
	      "BenBE@geshi.org" },
	    { "Implement a line editor for the search bar\n",
	      "Benny Baumann", NULL, "benbe@geshi.org" },
	    { "Optimize core index enumeration\n", "Tyler Kenney", NULL,
	      "tyler@example.com" } },
	  2, { "Benny Baumann added digits editing",
	       "from two people" }, { "BenBE" } },
	{ "one login, two names: the name most commits carry", {
	    { "Add a gear ratio setting\n", "Ada", "ada", NULL },
	    { "Fix the gear train under load\n", "Ada Lovelace", "ada",
	      NULL },
	    { "Speed up the gear search\n", "Ada Lovelace", "ada", NULL } },
	  1, { "Ada Lovelace added a gear ratio setting",
	       "from one person" }, { "Ada added" } },
	{ "two full names on a shared address stay two people", {
	    { "Add a gear ratio setting\n", "Ada Lovelace", NULL,
	      "team@example.com" },
	    { "Fix the gear train under load\n", "Charles Babbage", NULL,
	      "team@example.com" } },
	  2, { "Ada Lovelace", "Charles Babbage", "from two people" },
	  { NULL } },
	{ "a service's address joins nobody", {
	    { "Add a gear ratio setting\n", "ada", NULL,
	      "noreply@github.com" },
	    { "Fix the gear train under load\n", "Charles Babbage", NULL,
	      "noreply@github.com" } },
	  2, { "ada added", "Charles Babbage fixed" }, { NULL } },
	{ "a merge of the branch a pull request came from is not said "
	  "again", {
	    { "Merge pull request #1933 from fasterit/line-editor\n\n"
	      "Implement a line editor for the search bar\n", "Benny Baumann",
	      "BenBE", NULL },
	    { "Merge branch 'line-editor'\n", "Benny Baumann", "BenBE",
	      NULL },
	    { "Optimize core index enumeration\n", "Tyler Kenney", NULL,
	      NULL } },
	  2, { "implemented a line editor" }, { "'line-editor'" } },
	{ "one person's branches in one sentence", {
	    { "Optimize core index enumeration\n", "Tyler Kenney", NULL,
	      NULL },
	    { "Merge branch 'reuse-richstr-panel' of GermanAizek/htop\n",
	      "Daniel Lange", NULL, NULL },
	    { "Merge branch 'print-time-format' of Explorer09/htop-1\n",
	      "Daniel Lange", NULL, NULL },
	    { "Merge remote-tracking branch 'origin/meters'\n",
	      "Daniel Lange", NULL, NULL } },
	  2, { "Daniel Lange merged three branches, 'reuse-richstr-panel', "
	       "'print-time-format' and 'origin/meters'." },
	  { "merged branch" } },
	{ "a branch merged again counts once, the merges in all", {
	    { "Optimize core index enumeration\n", "Tyler Kenney", NULL,
	      NULL },
	    { "Merge branch 'obsd-master'\n", "Thomas Adam", NULL, NULL },
	    { "Merge branch 'obsd-master'\n", "Thomas Adam", NULL, NULL },
	    { "Merge branch 'next'\n", "Thomas Adam", NULL, NULL } },
	  2, { "Thomas Adam merged two branches, three merges in all, "
	       "'obsd-master' and 'next'." }, { NULL } },
	{ "a tag merged beside branches is still said", {
	    { "Optimize core index enumeration\n", "Tyler Kenney", NULL,
	      NULL },
	    { "Merge tag '4.20.0' into 5.0\n", "Wes Todd", NULL, NULL },
	    { "Merge branch '5.0' into 5-merge\n", "Wes Todd", NULL, NULL },
	    { "Merge branch 'main' into 5-merge\n", "Wes Todd", NULL,
	      NULL } },
	  2, { "Wes Todd merged tag '4.20.0' into 5.0.",
	       "Wes Todd merged two branches, '5.0' and 'main'." },
	  { NULL } },
	/* vite 2026-06-30: "翠 updated the dynamic import warning", read
	   by a speech engine as "Chinese letter updated ..." */
	{ "a name with no Latin letter is said as the login", {
	    { "docs: update dynamic import warning to link to Vite docs\n",
	      "\xe7\xbf\xa0", "sapphi-red", NULL },
	    { "Optimize core index enumeration\n", "Tyler Kenney", NULL,
	      NULL } },
	  2, { "sapphi-red updated" }, { "\xe7\xbf\xa0" } },
	{ "Greek letters alone are no Latin name either", {
	    { "Add a gear ratio setting\n",
	      "\xce\x95\xce\xbb\xce\xad\xce\xbd\xce\xb7", "eleni",
	      NULL },
	    { "Optimize core index enumeration\n", "Tyler Kenney", NULL,
	      NULL } },
	  2, { "eleni added a gear ratio setting" },
	  { "\xce\x95\xce\xbb" } },
	{ "accented Latin letters keep the name", {
	    { "Add a gear ratio setting\n", "St\xc3\xa9phane Bidoul",
	      "sbidoul", NULL },
	    { "Optimize core index enumeration\n", "Tyler Kenney", NULL,
	      NULL } },
	  2, { "St\xc3\xa9phane Bidoul added a gear ratio setting" },
	  { "sbidoul" } },
	{ "a name with a Latin letter beside others keeps it", {
	    { "Add a gear ratio setting\n", "\xe7\xbf\xa0 Green",
	      "sapphi-red", NULL },
	    { "Optimize core index enumeration\n", "Tyler Kenney", NULL,
	      NULL } },
	  2, { "\xe7\xbf\xa0 Green added a gear ratio setting" },
	  { "sapphi-red" } },
	/* vite 2026-06-30's own commits: GitHub knew no account */
	{ "\"ghost\" is no login: the address's handle", {
	    { "docs: update dynamic import warning to link to Vite docs\n",
	      "\xe7\xbf\xa0", "ghost", "green@sapphi.red" },
	    { "Optimize core index enumeration\n", "Tyler Kenney", NULL,
	      NULL } },
	  2, { "green updated" }, { "\xe7\xbf\xa0", "ghost" } },
	{ "a GitHub address gives the login", {
	    { "Add a gear ratio setting\n", "\xe7\xbf\xa0", NULL,
	      "49056869+sapphi-red@users.noreply.github.com" },
	    { "Optimize core index enumeration\n", "Tyler Kenney", NULL,
	      NULL } },
	  2, { "sapphi-red added a gear ratio setting" },
	  { "\xe7\xbf\xa0" } },
	{ "with no login the name stays: there is nothing better", {
	    { "Add a gear ratio setting\n", "\xe7\xbf\xa0", NULL, NULL },
	    { "Optimize core index enumeration\n", "Tyler Kenney", NULL,
	      NULL } },
	  2, { "\xe7\xbf\xa0 added a gear ratio setting" }, { NULL } },
	{ "one branch alone is said as before", {
	    { "Optimize core index enumeration\n", "Tyler Kenney", NULL,
	      NULL },
	    { "Merge branch 'obsd-master'\n", "Thomas Adam", NULL, NULL },
	    { "Merge branch 'obsd-master'\n", "Thomas Adam", NULL, NULL } },
	  2, { "Thomas Adam merged branch 'obsd-master' twice." },
	  { NULL } },
};

static struct day *
people_day(const struct people_case *pc)
{
	struct day	*d = day_msg_new("o/r");
	struct commit	*c;
	size_t		 i;

	for (i = 0; i < 8 && pc->commits[i].msg != NULL; i++) {
		const struct people_commit *p = &pc->commits[i];

		day_msg_add(d, p->msg, NULL, i + 0xbeef0, 60 * i, p->name,
		    p->login != NULL ? p->login : "", "src/gears.c");
		c = &d->commits[d->ncommits - 1];
		if (p->login == NULL) {
			free(c->author_login);
			c->author_login = NULL;
		}
		if (p->email != NULL)
			c->author_email = xstrdup(p->email);
	}
	day_pair_reverts(d);
	return d;
}

static void
test_people_rows(void **state)
{
	struct episode	*ep;
	struct day	*d;
	size_t		 i, k;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct people_case *pc = &cases[i];

		d = people_day(pc);
		ep = day_msg_draft(d);
		if (ep->stats.authors != pc->authors)
			fail_msg("%s: %zu authors, not %zu: %s", pc->rule,
			    ep->stats.authors, pc->authors, ep->transcript);
		for (k = 0; k < 3 && pc->has[k] != NULL; k++)
			if (strstr(ep->transcript, pc->has[k]) == NULL)
				fail_msg("%s: no \"%s\" in: %s", pc->rule,
				    pc->has[k], ep->transcript);
		for (k = 0; k < 3 && pc->hasnt[k] != NULL; k++)
			if (strstr(ep->transcript, pc->hasnt[k]) != NULL)
				fail_msg("%s: \"%s\" in: %s", pc->rule,
				    pc->hasnt[k], ep->transcript);
		episode_free(ep);
		day_free(d);
	}
}

/*
 * Ten thousand commits from five thousand authors, each with a handle
 * and a full name on one address: five thousand people, each under the
 * full name (a join that compared every pair took seconds here).
 */
static void
test_people_many(void **state)
{
	struct episode	*ep;
	struct day	*d = day_msg_new("o/r");
	struct commit	*c;
	char		 msg[64], name[32], email[48];
	size_t		 i;

	(void)state;
	for (i = 0; i < 10000; i++) {
		snprintf(msg, sizeof msg, "Tune gear %zu\n", i);
		if (i % 2 == 0)
			snprintf(name, sizeof name, "dev%zu", i / 2);
		else
			snprintf(name, sizeof name, "Dev Number%zu", i / 2);
		snprintf(email, sizeof email, "dev%zu@example.com", i / 2);
		day_msg_add(d, msg, NULL, i + 0x5eed0, i, name, "", "a.c");
		c = &d->commits[d->ncommits - 1];
		free(c->author_login);
		c->author_login = NULL;
		c->author_email = xstrdup(email);
	}
	ep = day_msg_draft(d);
	assert_int_equal(ep->stats.authors, 5000);
	assert_null(strstr(ep->transcript, "dev1 "));
	episode_free(ep);
	day_free(d);
}

/*
 * Five thousand merges of two branches by one person, five thousand of
 * one branch by another: two sentences that count them all (the merges
 * are grouped by sorting, not by comparing every pair).
 */
static void
test_merges_many(void **state)
{
	struct episode	*ep;
	struct day	*d = day_msg_new("o/r");
	size_t		 i;

	(void)state;
	day_msg_add(d, "Optimize core index enumeration\n", NULL, 0x1000, 0,
	    "Tyler Kenney", "tyler", "a.c");
	for (i = 0; i < 10000; i++)
		day_msg_add(d, i < 5000 ? (i % 2 == 0 ?
		    "Merge branch 'obsd-master'\n" : "Merge branch 'next'\n") :
		    "Merge branch 'upstream'\n", NULL, 0x2000 + i, i,
		    i < 5000 ? "Thomas Adam" : "Nicholas Marriott",
		    i < 5000 ? "ThomasAdam" : "nicm", "a.c");
	ep = day_msg_draft(d);
	if (strstr(ep->transcript, "Thomas Adam merged two branches, five "
	    "thousand merges in all, 'obsd-master' and 'next'.") == NULL ||
	    strstr(ep->transcript, "Nicholas Marriott merged branch "
	    "'upstream' five thousand times.") == NULL)
		fail_msg("%s", ep->transcript);
	episode_free(ep);
	day_free(d);
}

/*
 * A subject's first word that the day uses as an area is a name, not a
 * verb whose past is guessed: "shell: nushell integration scripts" on a
 * day of "nushell: ..." subjects is no "nushelled"; the same shape with a
 * word the day doesn't name still is ("escaped").
 */
static void
test_area_names(void **state)
{
	static const struct {
		const char	*msgs[3];
		const char	*has, *hasnt;
	} areas[] = {
		{ { "nushell: print the absolute path of the file\n",
		    "shell: nushell integration scripts\n", NULL },
		  "nushell integration scripts", "nushelled" },
		{ { "nushell: print the absolute path of the file\n",
		    "shell: escape integration scripts\n", NULL },
		  "escaped integration scripts", NULL },
	};
	struct episode	*ep;
	struct day	*d;
	size_t		 i, k;

	(void)state;
	for (i = 0; i < sizeof areas / sizeof areas[0]; i++) {
		d = day_msg_new("o/r");
		for (k = 0; areas[i].msgs[k] != NULL; k++)
			day_msg_add(d, areas[i].msgs[k], NULL, 0xa0 + k, 60 * k,
			    "Simon Desaulniers", "simon", "shell/a.nu");
		ep = day_msg_draft(d);
		if (strstr(ep->transcript, areas[i].has) == NULL)
			fail_msg("case %zu: no \"%s\" in: %s", i,
			    areas[i].has, ep->transcript);
		if (areas[i].hasnt != NULL &&
		    strstr(ep->transcript, areas[i].hasnt) != NULL)
			fail_msg("case %zu: \"%s\" in: %s", i,
			    areas[i].hasnt, ep->transcript);
		episode_free(ep);
		day_free(d);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_people_rows),
		cmocka_unit_test(test_people_many),
		cmocka_unit_test(test_merges_many),
		cmocka_unit_test(test_area_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
