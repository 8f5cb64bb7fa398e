/*
 * Unit tests for the weekly recap: a week of hand-made episodes in, one
 * episode out whose numbers are the week's sums and whose every name and
 * number comes from the input. Also the day's people list it reads back,
 * and an empty day (quiet_days = emit) drafted without trouble.
 */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "buf.h"
#include "day.h"
#include "episode.h"
#include "xmalloc.h"

#define SHA(c)	c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c \
		c c c c c c c c c

static const char *const ids_mon[] = { SHA("a"), SHA("b") };
static const char *const ids_mon_rb[] = { SHA("b") };
static const char *const ids_tue[] = { SHA("c") };
static const char *const ids_thu[] = { SHA("d"), SHA("e"), SHA("a") };
static const char *const ids_fri[] = { SHA("f") };

static const struct recap_segment segs_mon[] = {
	{ "opening", NULL, 0 },
	{ "rollbacks", ids_mon_rb, 1 },
	{ "highlights", ids_mon, 2 },
};
static const struct recap_segment segs_tue[] = {
	{ "highlights", ids_tue, 1 },
};
static const struct recap_segment segs_thu[] = {
	{ "highlights", ids_thu, 3 },
	{ "closing", NULL, 0 },
};
static const struct recap_segment segs_fri[] = {
	{ "fixes", ids_fri, 1 },
};

static const struct recap_person people_mon[] = {
	{ "Ada Lovelace", 7, 0, NULL }, { "Grace Hopper", 4, 0, NULL },
	{ "Dependabot", 3, 1, NULL },
};
static const struct recap_person people_tue[] = {
	{ "Grace Hopper", 2, 0, NULL },
};
static const struct recap_person people_thu[] = {
	{ "Grace Hopper", 6, 0, NULL }, { "Linus Torvalds", 5, 0, NULL },
	{ "ada lovelace", 1, 0, NULL },
};
static const struct recap_person people_fri[] = {
	{ "Edsger Dijkstra", 1, 0, NULL },
};

/* Given out of order: the recap tells them by date. */
static const struct recap_source week[] = {
	{ "2026-05-07", "Fixes in inductor, Plus a Rollback",
	    "Show for May 7th, 2026 in o/r. Twelve commits from three "
	    "authors. The top story: Grace Hopper made the scheduler 2.5x "
	    "faster. Also: one fix.", "CUDA_LAUNCH_BLOCKING=1", 1778148000,
	    1778234400, { 12, 1, 1, 0, 3, 5, 1 }, segs_thu, 2, people_thu, 3,
	    1 },
	{ "2026-05-04", "Fixes in inductor", "Show for May 4th, 2026 in o/r. "
	    "Fourteen commits from three authors and two merged pull "
	    "requests. The top story: Ada Lovelace added fused attention.",
	    "TORCH_LOGS=recompiles", 1777888800, 1777975200,
	    { 14, 2, 2, 1, 3, 6, 0 }, segs_mon, 3, people_mon, 3, 1 },
	{ "2026-05-05", "A Quiet Day and One Fix in docs", "Show for May 5th, "
	    "2026 in o/r. Two commits from one author.", NULL, 1777975200,
	    1778061600, { 2, 0, 0, 0, 1, 1, 0 }, segs_tue, 1, people_tue, 1,
	    1 },
	{ "2026-05-08", "New in dynamo", "Show for May 8th, 2026 in o/r. One "
	    "commit from one author.", "TORCH_LOGS=recompiles", 1778234400,
	    1778320800, { 1, 0, 0, 0, 1, 1, 0 }, segs_fri, 1, people_fri, 1,
	    1 },
};
#define NWEEK	(sizeof(week) / sizeof(week[0]))

static struct episode *
draft_week(const struct recap_source *src, size_t n)
{
	struct episode_opts	opts;

	memset(&opts, 0, sizeof(opts));
	opts.show = "Show";
	opts.year = 2026;
	opts.month = 5;
	opts.mday = 10;
	opts.published = 1778407200;
	return recap_draft("o/r", src, n, &opts);
}

static void
test_title_and_stats(void **state)
{
	struct episode	*ep = draft_week(week, NWEEK);

	assert_non_null(ep->title);
	assert_int_equal(strncmp(ep->title, RECAP_TITLE_PREFIX,
	    strlen(RECAP_TITLE_PREFIX)), 0);
	/* the theme of two episodes leads; the quiet day has none */
	assert_string_equal(ep->title,
	    "Weekly Recap - Fixes in inductor and New in dynamo, Plus Rollbacks");
	assert_string_equal(ep->date, "2026-05-10");
	assert_string_equal(ep->repository, "o/r");
	assert_string_equal(ep->show, "Show");
	assert_int_equal(ep->stats.commits, 12 + 14 + 2 + 1);
	assert_int_equal(ep->stats.merged_prs, 1 + 2);
	assert_int_equal(ep->stats.reverts, 1 + 2);
	assert_int_equal(ep->stats.relands, 1);
	assert_int_equal(ep->stats.pushes, 5 + 6 + 1 + 1);
	assert_int_equal(ep->stats.force_pushes, 1);
	/* distinct people: Ada (twice spelled), Grace, Dependabot, Linus, Edsger */
	assert_int_equal(ep->stats.authors, 5);
	assert_int_equal(ep->window_start, 1777888800);
	assert_int_equal(ep->window_end, 1778320800);
	assert_int_equal(ep->published, 1778407200);
	assert_true(ep->duration > 0);
	assert_string_equal(ep->focus, "TORCH_LOGS=recompiles");
	episode_free(ep);
}

static const struct episode_segment *
segment(const struct episode *ep, const char *kind, size_t nth)
{
	size_t	i;

	for (i = 0; i < ep->nsegments; i++)
		if (strcmp(ep->segments[i].kind, kind) == 0 && nth-- == 0)
			return &ep->segments[i];
	return NULL;
}

static int
has_id(const struct episode_segment *s, const char *id)
{
	size_t	i;

	for (i = 0; i < s->ncommits; i++)
		if (strcmp(s->commits[i], id) == 0)
			return 1;
	return 0;
}

static void
test_segments(void **state)
{
	struct episode			*ep = draft_week(week, NWEEK);
	const struct episode_segment	*s;

	assert_string_equal(ep->segments[0].kind, "opening");
	assert_string_equal(ep->segments[ep->nsegments - 1].kind, "closing");
	/* a weekly episode signs off until next week, not tomorrow */
	s = &ep->segments[ep->nsegments - 1];
	assert_non_null(strstr(s->text, "I'll catch you next week."));
	assert_null(strstr(s->text, "tomorrow"));
	/* one recap segment per episode, by date, citing what it cited */
	s = segment(ep, "recap", 0);
	assert_non_null(s);
	assert_non_null(strstr(s->text, "Monday, May 4th"));
	assert_non_null(strstr(s->text, "\"Fixes in inductor\""));
	assert_non_null(strstr(s->text, "The top story: Ada Lovelace added "
	    "fused attention."));
	assert_int_equal(s->ncommits, 2);
	assert_true(has_id(s, SHA("a")) && has_id(s, SHA("b")));
	s = segment(ep, "recap", 1);
	assert_non_null(strstr(s->text, "Tuesday, May 5th"));
	assert_int_equal(s->ncommits, 1);
	s = segment(ep, "recap", 2);
	assert_non_null(strstr(s->text, "Thursday, May 7th"));
	assert_int_equal(s->ncommits, 3);
	s = segment(ep, "recap", 3);
	assert_non_null(strstr(s->text, "Friday, May 8th"));
	assert_null(segment(ep, "recap", 4));
	/* the rollbacks cite the rollback segments' ids */
	s = segment(ep, "rollbacks", 0);
	assert_non_null(s);
	assert_int_equal(s->ncommits, 1);
	assert_true(has_id(s, SHA("b")));
	assert_non_null(strstr(s->text, "three changes were reverted"));
	assert_non_null(strstr(s->text, "Monday, May 4th and Thursday, May "
	    "7th"));
	/* who appeared most: Grace, twelve commits over three episodes */
	s = segment(ep, "people", 0);
	assert_non_null(s);
	assert_non_null(strstr(s->text, "Grace Hopper, with twelve commits "
	    "across three episodes"));
	assert_non_null(strstr(s->text, "Dependabot sent three commits"));
	s = segment(ep, "focus", 0);
	assert_non_null(strstr(s->text, "TORCH_LOGS=recompiles and "
	    "CUDA_LAUNCH_BLOCKING=1"));
	s = segment(ep, "opening", 0);
	assert_non_null(strstr(s->text, "twenty-nine commits from five "
	    "people and three merged pull requests"));
	assert_non_null(strstr(ep->transcript, s->text));
	episode_free(ep);
}

/* Words that the recap's own phrasing capitalises. */
static const char *const template_words[] = {
	"Hello", "I'm", "I'll", "Across", "Among", "On", "Later", "It", "A",
	"The", "If", "Close", "In", "That's", "Thanks", "Today's", "Focus", "Weekly",
	"Recap", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
	"Saturday", "Sunday", "January", "February", "March", "April", "May",
	"June", "July", "August", "September", "October", "November",
	"December", "Show", "Also", "Themes", "Episodes", "Two", "Three",
	"Four", "Twenty-nine", "Plus", "Rollbacks", "Rollback", "One",
	"Changes", NULL,
};

static int
template_word(const char *w, size_t n)
{
	size_t	i;

	for (i = 0; template_words[i] != NULL; i++)
		if (strlen(template_words[i]) == n &&
		    strncmp(template_words[i], w, n) == 0)
			return 1;
	return 0;
}

/* All the input's text, for "does this come from the input?". */
static char *
input_text(const struct recap_source *src, size_t n)
{
	struct buf	b;
	size_t		i, j;

	buf_init(&b);
	buf_puts(&b, "o/r Show 2026-05-10 ");
	for (i = 0; i < n; i++) {
		buf_printf(&b, "%s\n%s\n%s\n%s\n", src[i].date, src[i].title,
		    src[i].description != NULL ? src[i].description : "",
		    src[i].focus != NULL ? src[i].focus : "");
		for (j = 0; j < src[i].npeople; j++)
			buf_printf(&b, "%s\n", src[i].people[j].name);
	}
	return buf_steal(&b);
}

/* Every capitalised word is the recap's own phrasing or from the input. */
static void
check_names(const char *text, const char *input)
{
	const char	*p = text, *w;
	char		*word;
	size_t		 n;

	while (*p != '\0') {
		if (!isalpha((unsigned char)*p)) {
			p++;
			continue;
		}
		w = p;
		while (isalnum((unsigned char)*p) || *p == '\'' || *p == '-' ||
		    *p == '_' || *p == '=')
			p++;
		n = (size_t)(p - w);
		if (!isupper((unsigned char)w[0]) || template_word(w, n))
			continue;
		if (n > 2 && strncmp(p - 2, "'s", 2) == 0)
			n -= 2;		/* "Show's" */
		word = xstrndup(w, n);
		if (strstr(input, word) == NULL)
			fail_msg("'%s' is not in the input:\n%s", word, text);
		free(word);
	}
}

/* Every number written with digits is one the input has. */
static void
check_digits(const char *text, const char *input)
{
	const char	*p = text, *q;
	long		 v, w;
	int		 found;

	while (*p != '\0') {
		if (!isdigit((unsigned char)*p)) {
			p++;
			continue;
		}
		v = strtol(p, (char **)&q, 10);
		found = 0;
		for (const char *r = input; *r != '\0'; r++) {
			if (!isdigit((unsigned char)*r) ||
			    (r > input && isdigit((unsigned char)r[-1])))
				continue;
			w = strtol(r, NULL, 10);
			if (w == v) {
				found = 1;
				break;
			}
		}
		if (!found)
			fail_msg("%ld is not in the input:\n%s", v, text);
		p = q;
	}
}

static void
test_nothing_invented(void **state)
{
	struct episode	*ep = draft_week(week, NWEEK);
	char		*input = input_text(week, NWEEK);

	check_names(ep->transcript, input);
	check_names(ep->title, input);
	check_names(ep->description, input);
	check_digits(ep->transcript, input);
	check_digits(ep->title, input);
	check_digits(ep->description, input);
	free(input);
	episode_free(ep);
}

static void
test_without_people(void **state)
{
	struct recap_source	 src[2];
	struct episode		*ep;

	memcpy(src, week, sizeof(src));
	src[0].people = NULL;
	src[0].npeople = 0;
	src[0].have_people = 0;
	ep = draft_week(src, 2);
	/* not every episode lists its people: the sum */
	assert_int_equal(ep->stats.authors, 3 + 3);
	assert_int_equal(ep->stats.commits, 12 + 14);
	episode_free(ep);
}

static void
test_quiet_week(void **state)
{
	struct recap_source	 src[2];
	struct episode		*ep;
	char			*input;

	memset(src, 0, sizeof(src));
	src[0].date = "2026-05-05";
	src[0].title = "A Quiet Day";
	src[0].have_people = 1;
	src[1].date = "2026-05-06";
	src[1].title = "A Quiet Day";
	src[1].have_people = 1;
	ep = draft_week(src, 2);
	assert_string_equal(ep->title, "Weekly Recap - A Quiet Week");
	assert_int_equal(ep->stats.commits, 0);
	assert_int_equal(ep->stats.authors, 0);
	assert_null(ep->focus);
	assert_null(segment(ep, "people", 0));
	assert_null(segment(ep, "rollbacks", 0));
	assert_non_null(strstr(ep->transcript, "quiet week"));
	input = input_text(src, 2);
	check_names(ep->transcript, input);
	check_digits(ep->transcript, input);
	free(input);
	episode_free(ep);

	/* no episodes at all still drafts (the daemon never asks for it) */
	ep = draft_week(NULL, 0);
	assert_string_equal(ep->title, "Weekly Recap - A Quiet Week");
	episode_free(ep);
}

static void
add_commit(struct day *d, const char *sha, const char *name,
    const char *login)
{
	struct commit	c;

	memset(&c, 0, sizeof(c));
	c.sha = xstrdup(sha);
	c.author_name = xstrdup(name);
	c.author_login = xstrdup_null(login);
	c.subject = xstrdup("docs: fix a typo");
	c.body = xstrdup("");
	c.reverts_idx = c.reverted_by_idx = -1;
	assert_int_equal(day_add_commit(d, &c), 1);
}

static void
test_people(void **state)
{
	struct day		*d = day_new("o/r", 1777888800);
	struct recap_person	*p;
	size_t			 n;

	add_commit(d, SHA("1"), "Ada Lovelace", "ada");
	add_commit(d, SHA("2"), "Grace Hopper", "grace");
	add_commit(d, SHA("3"), "Grace H.", "GRACE");	/* same login */
	add_commit(d, SHA("4"), "dependabot[bot]", "dependabot[bot]");
	add_commit(d, SHA("5"), "Linus `Torvalds`", NULL);
	n = recap_people(d, &p);
	assert_int_equal(n, 4);
	assert_string_equal(p[0].name, "Grace Hopper");
	assert_int_equal(p[0].commits, 2);
	assert_int_equal(p[0].bot, 0);
	assert_string_equal(p[1].name, "Ada Lovelace");
	assert_int_equal(p[2].bot, 1);
	assert_null(strchr(p[3].name, '`'));
	recap_people_free(p, n);

	/* an empty day has nobody */
	day_free(d);
	d = day_new("o/r", 1777888800);
	assert_int_equal(recap_people(d, &p), 0);
	recap_people_free(p, 0);
	day_free(d);
}

/* quiet_days = emit drafts a day with no activity at all. */
static void
test_empty_day(void **state)
{
	struct day		*d = day_new("o/r", 1777888800);
	struct episode_opts	 opts;
	struct episode		*ep;
	char			*md, *json;

	memset(&opts, 0, sizeof(opts));
	opts.published = 1777975200;
	d->end = 1777975200;
	ep = episode_draft(d, &opts);
	assert_non_null(ep->title);
	assert_true(ep->nsegments > 0);
	assert_int_equal(ep->stats.commits, 0);
	md = episode_render_md(ep);
	json = episode_render_json(ep);
	assert_non_null(strstr(md, ep->title));
	assert_non_null(strstr(json, "\"segments\""));
	free(md);
	free(json);
	episode_free(ep);
	day_free(d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_title_and_stats),
		cmocka_unit_test(test_segments),
		cmocka_unit_test(test_nothing_invented),
		cmocka_unit_test(test_without_people),
		cmocka_unit_test(test_quiet_week),
		cmocka_unit_test(test_people),
		cmocka_unit_test(test_empty_day),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
