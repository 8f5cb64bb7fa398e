/*
 * Unit tests for episode/reduced.c: the day told in brief. Its segments
 * and counts, the top stories (merged pull requests, then the commits of
 * the most files), the reverts named, "N more changes" counting the rest,
 * and that a commit's list of files is never read but for its length.
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
#include "reduced.h"
#include "xmalloc.h"

#include "day_msg.h"

static struct episode *
reduced_of(const struct day *d)
{
	struct episode_opts	o;

	memset(&o, 0, sizeof o);
	o.year = 2026;
	o.mday = 30;
	o.month = 6;
	return reduced_draft(d, &o);
}

static const char *
segment(const struct episode *ep, const char *kind)
{
	size_t	i;

	for (i = 0; i < ep->nsegments; i++)
		if (strcmp(ep->segments[i].kind, kind) == 0)
			return ep->segments[i].text;
	return NULL;
}

static void
add_pr(struct day *d, long number, const char *title)
{
	struct merged_pr	pr;

	memset(&pr, 0, sizeof pr);
	pr.number = number;
	pr.title = xstrdup(title);
	pr.author_login = xstrdup("grace");
	pr.merged_at = d->start + 60;
	assert_int_equal(day_add_pr(d, &pr), 1);
}

/* Twelve commits, two reverts, one merged PR: what is said, in order. */
static void
test_day_in_brief(void **state)
{
	struct day	*d = day_msg_new("hookcast-test/brief");
	struct episode	*ep;
	const char	*hl, *t;
	char		 msg[128], sha[41];
	size_t		 i;

	(void)state;
	for (i = 0; i < 10; i++) {
		snprintf(msg, sizeof msg, "Change number %zu", i);
		day_msg_add(d, msg, NULL, i + 1, i, "Ada", "ada", "src/a.c");
	}
	/* the seventh touched the most files, the eighth the next most */
	d->commits[7].nadded = 30;
	d->commits[8].nadded = 20;
	for (i = 0; i < 2; i++) {
		snprintf(sha, sizeof sha, "%040zx", i + 1);
		snprintf(msg, sizeof msg, "Revert \"Change number %zu\"\n\n"
		    "This reverts commit %s.", i, sha);
		day_msg_add(d, msg, NULL, 100 + i, 100, "Bob", "bob",
		    "src/a.c");
	}
	add_pr(d, 42, "Make the gears turn");
	ep = reduced_of(d);

	assert_int_equal(ep->nsegments, 4);
	assert_string_equal(ep->segments[0].kind, "opening");
	assert_string_equal(ep->segments[1].kind, "rollbacks");
	assert_string_equal(ep->segments[2].kind, "highlights");
	assert_string_equal(ep->segments[3].kind, "closing");
	assert_int_equal(ep->stats.commits, 12);
	assert_int_equal(ep->stats.reverts, 2);
	assert_int_equal(ep->stats.merged_prs, 1);
	assert_non_null(strstr(segment(ep, "opening"), "The day had twelve "
	    "commits by two authors and one merged pull request."));
	assert_non_null(strstr(segment(ep, "rollbacks"), "Two reverts came "
	    "in: Revert \"Change number 0\"; Revert \"Change number 1\"."));
	/*
	 * The PR, then the commits of the most files, then by arrival;
	 * not the reverted ones.
	 */
	hl = segment(ep, "highlights");
	t = strstr(hl, "Pull request 42, Make the gears turn, by grace");
	assert_non_null(t);
	t = strstr(t, "Change number 7");
	assert_non_null(t);
	t = strstr(t, "Change number 8");
	assert_non_null(t);
	t = strstr(t, "Change number 2");
	assert_non_null(t);
	assert_non_null(strstr(t, "Change number 3"));
	assert_null(strstr(hl, "Change number 0"));
	assert_null(strstr(hl, "Change number 4"));
	/* 13 changes, 2 reverts and 5 stories told */
	assert_non_null(strstr(segment(ep, "closing"), "And six more "
	    "changes, not told today."));
	assert_string_equal(ep->date, "2026-06-30");
	assert_non_null(strstr(ep->title, "in brief"));
	episode_free(ep);
	day_free(d);
}

/* All told: no "more changes". */
static void
test_nothing_more(void **state)
{
	struct day	*d = day_msg_new("hookcast-test/brief");
	struct episode	*ep;

	(void)state;
	day_msg_add(d, "Only change", NULL, 1, 0, "Ada", "ada", "a.c");
	ep = reduced_of(d);
	assert_null(strstr(ep->transcript, "more change"));
	assert_non_null(strstr(segment(ep, "highlights"), "Only change"));
	assert_null(segment(ep, "rollbacks"));
	episode_free(ep);
	day_free(d);
}

/*
 * The poison day: a commit of 30,000 files whose list is not there to
 * read (a reading would crash), and many commits: told all the same.
 */
static void
test_file_lists_unread(void **state)
{
	struct day	*d = day_msg_new("hookcast-test/brief");
	struct episode	*ep;
	char	       **saved, msg[64];
	size_t		 i;

	(void)state;
	for (i = 0; i < 2000; i++) {
		snprintf(msg, sizeof msg, "Change %zu", i);
		day_msg_add(d, msg, NULL, i + 1, i, "Ada", "ada", "a.c");
	}
	saved = d->commits[500].modified;
	d->commits[500].modified = NULL;
	d->commits[500].nmodified = 30000;
	ep = reduced_of(d);
	d->commits[500].modified = saved;
	d->commits[500].nmodified = 1;
	assert_non_null(strstr(segment(ep, "highlights"), "Change 500."));
	assert_non_null(strstr(segment(ep, "closing"), "And one thousand "
	    "nine hundred ninety-five more changes"));
	episode_free(ep);
	day_free(d);
}

/* A long subject is cut on a character's start, and says so. */
static void
test_long_subject(void **state)
{
	struct day	*d = day_msg_new("hookcast-test/brief");
	struct episode	*ep;
	char		 msg[REDUCED_SUBJECT_MAX * 2 + 8];
	const char	*hl;
	size_t		 i;

	(void)state;
	/* "é" (2 bytes) from an odd offset: the cut falls inside one */
	msg[0] = 'x';
	for (i = 1; i + 2 < sizeof msg; i += 2)
		memcpy(msg + i, "\xc3\xa9", 2);
	msg[i] = '\0';
	day_msg_add(d, msg, NULL, 1, 0, "Ada", "ada", "a.c");
	ep = reduced_of(d);
	hl = segment(ep, "highlights");
	assert_non_null(strstr(hl, "\xc3\xa9..."));
	assert_true(strlen(hl) < REDUCED_SUBJECT_MAX + 64);
	episode_free(ep);
	day_free(d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_day_in_brief),
		cmocka_unit_test(test_nothing_more),
		cmocka_unit_test(test_file_lists_unread),
		cmocka_unit_test(test_long_subject),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
