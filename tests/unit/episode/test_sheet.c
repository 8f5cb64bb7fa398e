/*
 * Unit tests for episode/sheet.c: the fact sheet of a drafted day as
 * structure and as the JSON a model is given. A day made in memory has a
 * story of each kind the sheet must tell apart (a speedup with its
 * figure, a pull request merged by another, a revert with its SHA and
 * reason, one with neither, a bot's revert asked for by a person, a
 * release, a bot's bump); then every corpus day: its JSON names no bot,
 * every revert must be told, and the draft passes the fence of its sheet.
 * HOOKCAST_SHEET_PRINT=NAME prints the sheet JSON of corpus day NAME.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <cmocka.h>
#include <jansson.h>

#include "buf.h"
#include "day.h"
#include "episode.h"
#include "fence.h"
#include "record.h"
#include "sheet.h"
#include "xmalloc.h"

#include "corpus_day.h"
#include "day_msg.h"

#define CACHE_SHA	"00000000000000000000000000000000000000aa"
#define MERGE_SHA	"00000000000000000000000000000000000000bb"
#define AWAY_SHA	"00000000000000000000000000000000000000cc"

/* A merged pull request into d. */
static void
sheet_add_pr(struct day *d, long number, const char *title,
    const char *login, const char *merge_sha)
{
	struct merged_pr	pr;

	memset(&pr, 0, sizeof pr);
	pr.number = number;
	pr.title = xstrdup(title);
	pr.author_login = xstrdup(login);
	pr.merge_sha = xstrdup_null(merge_sha);
	pr.branch = xstrdup("main");
	pr.merged_at = d->start + 100;
	assert_int_equal(day_add_pr(d, &pr), 1);
}

/* A push into d ending at the commit of seed, by pusher. */
static void
sheet_add_push(struct day *d, size_t seed, const char *pusher)
{
	struct push	p;
	char		hex[41];

	memset(&p, 0, sizeof p);
	snprintf(hex, sizeof hex, "%040zx", seed);
	assert_int_equal(push_id_set(p.after, hex), 0);
	p.ncommits = 1;
	p.branch = xstrdup("main");
	p.pusher = xstrdup(pusher);
	p.at = d->start + 600;
	assert_int_not_equal(day_add_push(d, &p), -1);
}

/* The day of the tests: each story a kind of fact the sheet must keep. */
static struct day *
sheet_day(void)
{
	struct day	*d = day_msg_new("acme/widget");

	day_msg_add(d, "gears: make the gear train 1.7x faster (#12)\n\nThe "
	    "gear train now skips idle teeth, so turning takes less time.\n",
	    NULL, 1, 60, "Ada Lovelace", "ada", "src/gears.c");
	day_msg_add(d, "Merge pull request #12 from ada/gears\n\ngears: make "
	    "the gear train 1.7x faster\n", MERGE_SHA, 2, 70, "Linus Merger",
	    "lmerge", "src/gears.c");
	sheet_add_pr(d, 12, "gears: make the gear train 1.7x faster", "ada",
	    MERGE_SHA);
	day_msg_add(d, "[cache] Add a write-back cache\n\nIt keeps hot pages "
	    "in memory, so reads are 35% faster.\n", CACHE_SHA, 3, 120,
	    "Grace Hopper", "ghopper", "src/cache.c");
	day_msg_add(d, "Revert \"[cache] Add a write-back cache\"\n\nThis "
	    "reverts commit " CACHE_SHA ".\n\nIt broke the nightly build on "
	    "big-endian hosts.\n", NULL, 4, 180, "Alan Turing", "aturing",
	    "src/cache.c");
	day_msg_add(d, "Add WIDGET_FAST=1 to opt into the new parser\n\n"
	    "Setting WIDGET_FAST=1 makes the parser 2.5x faster on large "
	    "files.\n", NULL, 5, 240, "Ada Lovelace", "ada", "src/parse.c");
	/* a revert whose message names no SHA and gives no reason */
	day_msg_add(d, "Revert \"Teach the gears to whistle\"\n", NULL, 6, 300,
	    "Alan Turing", "aturing", "src/whistle.c");
	day_msg_add(d, "Revert \"Add a gear oiler\"\n\nThis reverts commit "
	    AWAY_SHA ".\n\nReverted https://github.com/acme/widget/pull/99 on "
	    "behalf of https://github.com/jdoe due to it breaks the arm build "
	    "([comment](https://github.com/acme/widget/pull/99#c1))\n", NULL,
	    7, 360, "pytorchmergebot", "pytorchmergebot", "src/oiler.c");
	day_msg_add(d, "release: v2.3.0\n", NULL, 8, 420, "Mae Jemison", "mae",
	    "CHANGELOG.md");
	day_msg_add(d, "Bump libcog from 1.2.0 to 1.3.0\n", NULL, 9, 480,
	    "dependabot[bot]", "dependabot[bot]", "go.mod");
	/* a squashed pull request: who pushed it merged it */
	day_msg_add(d, "sync: fix a lost wakeup in the gear latch (#21)\n\n"
	    "A waiter could miss the notify and sleep forever.\n", NULL, 11,
	    600, "Nikola Tesla", "ntesla", "src/sync.c");
	sheet_add_pr(d, 21, "sync: fix a lost wakeup in the gear latch",
	    "ntesla", "000000000000000000000000000000000000000b");
	sheet_add_push(d, 11, "mjackson");
	/* a direct push of one's own change: no merger */
	sheet_add_push(d, 5, "ada");
	/* a figure a label gives */
	day_msg_add(d, "perf: fuse the gear kernels\n\nOn 128 GPUs the perf "
	    "number is wps: 109 mfu: 29%.\n", NULL, 12, 660, "Grace Hopper",
	    "ghopper", "src/kernels.c");
	/* a bot's commit under a person's name: the name stays hers */
	day_msg_add(d, "Update the nightly pin\n", NULL, 13, 720,
	    "Grace Hopper", "pytorchupdatebot", ".ci/pin.txt");
	/* a person's change whose title names the bot */
	day_msg_add(d, "ci: let Dependabot group the go modules\n", NULL, 10,
	    540, "Grace Hopper", "ghopper", ".github/dependabot.yml");
	day_pair_reverts(d);
	return d;
}

/* The story of a commit, or NULL when the sheet does not tell it. */
static const struct sheet_story *
sheet_story_of(const struct sheet *sh, size_t seed, const char *sha)
{
	char	hex[41];
	size_t	i;

	if (sha == NULL) {
		snprintf(hex, sizeof hex, "%040zx", seed);
		sha = hex;
	}
	for (i = 0; i < sh->nstories; i++)
		if (strcmp(sh->stories[i].sha, sha) == 0)
			return &sh->stories[i];
	return NULL;
}

/* The person of s in role, or NULL. */
static const struct sheet_person *
sheet_role(const struct sheet_story *s, enum sheet_role role)
{
	size_t	i;

	for (i = 0; i < s->npeople; i++)
		if (s->people[i].role == role)
			return &s->people[i];
	return NULL;
}

static int
sheet_has(char *const *v, size_t n, const char *s)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (strcmp(v[i], s) == 0)
			return 1;
	return 0;
}

/* Each story's own facts: kind, pull request, roles, figures, reason. */
static void
test_sheet_stories(void **state)
{
	struct day			*d = sheet_day();
	struct episode			*ep = day_msg_draft(d);
	struct sheet			*sh = sheet_of_episode(d, ep);
	const struct sheet_story	*s;
	const struct sheet_person	*p;
	size_t				 i, leads = 0;

	(void)state;
	assert_string_equal(sh->repository, "acme/widget");
	assert_string_equal(sh->date, "2026-06-30");
	assert_int_equal(sh->counts.commits, 13);
	for (i = 0; i < sh->nstories; i++) {
		char id[32];

		snprintf(id, sizeof id, "s%zu", i + 1);
		assert_string_equal(sh->stories[i].id, id);
		leads += sh->stories[i].lead;
		if (sh->stories[i].lead)
			assert_true(sh->stories[i].required);
	}
	assert_int_equal(leads, 1);

	/* a speedup: its figure with what it measures, its pull request */
	assert_non_null(s = sheet_story_of(sh, 1, NULL));
	assert_string_equal(s->kind, "performance");
	assert_int_equal(s->pr, 12);
	assert_string_equal(s->area, "gears");
	assert_non_null(p = sheet_role(s, SHEET_AUTHOR));
	assert_string_equal(p->name, "Ada Lovelace");
	assert_string_equal(p->login, "ada");
	/* the one who pressed the merge button merged it */
	assert_non_null(p = sheet_role(s, SHEET_MERGER));
	assert_string_equal(p->name, "Linus Merger");
	assert_int_equal(s->nfigures, 1);
	assert_string_equal(s->figures[0].value, "1.7x");
	assert_string_equal(s->figures[0].measures, "gear train faster");
	assert_non_null(s->reason);
	assert_non_null(strstr(s->reason, "skips idle teeth"));
	assert_false(s->is_revert);
	assert_false(s->reverted);

	/* the work a revert took out: reverted, its author its author */
	assert_non_null(s = sheet_story_of(sh, 0, CACHE_SHA));
	assert_true(s->reverted);
	assert_string_equal(sheet_role(s, SHEET_AUTHOR)->name, "Grace Hopper");
	assert_string_equal(s->figures[0].value, "35%");
	assert_string_equal(s->figures[0].measures, "reads faster");

	/* a revert with its SHA and its reason */
	assert_non_null(s = sheet_story_of(sh, 4, NULL));
	assert_string_equal(s->kind, "revert");
	assert_true(s->is_revert);
	assert_true(s->required);
	assert_string_equal(s->revert_of, "Add a write-back cache");
	assert_string_equal(s->revert_reason, "It broke the nightly build on "
	    "big-endian hosts");
	assert_false(s->revert_automatic);
	assert_null(s->reason);
	assert_string_equal(sheet_role(s, SHEET_REVERTER)->name,
	    "Alan Turing");
	assert_null(sheet_role(s, SHEET_AUTHOR));

	/*
	 * A revert whose message names no SHA is a revert the reply must
	 * tell (fence_story keyed on the SHA and never knew it), and none
	 * gave a reason.
	 */
	assert_non_null(s = sheet_story_of(sh, 6, NULL));
	assert_true(s->is_revert);
	assert_true(s->required);
	assert_string_equal(s->revert_of, "Teach the gears to whistle");
	assert_null(s->revert_reason);

	/* a bot's revert, asked for by a person: the bot is no one */
	assert_non_null(s = sheet_story_of(sh, 7, NULL));
	assert_true(s->is_revert);
	assert_string_equal(s->revert_reason, "it breaks the arm build");
	assert_null(sheet_role(s, SHEET_REVERTER));
	assert_non_null(p = sheet_role(s, SHEET_REQUESTER));
	assert_string_equal(p->name, "jdoe");

	/* a setting quoted byte for byte, a figure of its own */
	assert_non_null(s = sheet_story_of(sh, 5, NULL));
	assert_int_equal(s->nsettings, 1);
	assert_string_equal(s->settings[0], "WIDGET_FAST=1");
	assert_string_equal(s->figures[0].value, "2.5x");
	assert_string_equal(s->figures[0].measures, "parser faster on large "
	    "files");
	assert_int_equal(s->nversions, 0);

	assert_null(sheet_role(s, SHEET_MERGER));

	/* a pull request squashed by another: its pusher merged it */
	assert_non_null(s = sheet_story_of(sh, 11, NULL));
	assert_int_equal(s->pr, 21);
	assert_string_equal(sheet_role(s, SHEET_AUTHOR)->name, "Nikola Tesla");
	assert_non_null(p = sheet_role(s, SHEET_MERGER));
	assert_string_equal(p->name, "mjackson");
	assert_true(sheet_has(sh->people, sh->npeople, "mjackson"));

	assert_non_null(s = sheet_story_of(sh, 12, NULL));
	assert_int_equal(s->nfigures, 1);
	assert_string_equal(s->figures[0].value, "29%");
	assert_string_equal(s->figures[0].measures, "mfu");

	/* a release: its version, without the "v" */
	assert_non_null(s = sheet_story_of(sh, 8, NULL));
	assert_int_equal(s->nversions, 1);
	assert_string_equal(s->versions[0], "2.3.0");
	/* a title restated is no reason */
	assert_null(s->reason);

	/* people: names and logins; bots apart */
	assert_true(sheet_has(sh->people, sh->npeople, "Ada Lovelace"));
	assert_true(sheet_has(sh->people, sh->npeople, "ada"));
	assert_true(sheet_has(sh->people, sh->npeople, "Linus Merger"));
	assert_true(sheet_has(sh->people, sh->npeople, "jdoe"));
	assert_false(sheet_has(sh->people, sh->npeople, "pytorchmergebot"));
	assert_false(sheet_has(sh->people, sh->npeople, "dependabot[bot]"));
	assert_true(sheet_has(sh->bots, sh->nbots, "dependabot[bot]"));
	assert_true(sheet_has(sh->bots, sh->nbots, "dependabot"));
	assert_true(sheet_has(sh->bots, sh->nbots, "pytorchmergebot"));
	assert_true(sheet_has(sh->bots, sh->nbots, "pytorchupdatebot"));
	/* a name both a person's and a bot's is a person's */
	assert_false(sheet_has(sh->bots, sh->nbots, "Grace Hopper"));
	sheet_free(sh);
	episode_free(ep);
	day_free(d);
}

/* The story of sha in the sheet's JSON, or NULL. */
static json_t *
sheet_json_story_of(json_t *j, const char *what)
{
	json_t	*s;
	size_t	 i;

	json_array_foreach(json_object_get(j, "stories"), i, s)
		if (strcmp(json_string_value(json_object_get(s, "what")),
		    what) == 0)
			return s;
	return NULL;
}

/* The JSON the model reads: the same facts, and no bot's name. */
static void
test_sheet_json(void **state)
{
	struct day	*d = sheet_day();
	struct episode	*ep = day_msg_draft(d);
	struct sheet	*sh = sheet_of_episode(d, ep);
	json_error_t	 err;
	json_t		*j, *s, *p, *r;
	char		*js;

	(void)state;
	js = sheet_json(sh);
	if (getenv("HOOKCAST_SHEET_PRINT") != NULL &&
	    strcmp(getenv("HOOKCAST_SHEET_PRINT"), "acme") == 0)
		printf("%s\n%s\n", ep->transcript, js);
	if ((j = json_loads(js, 0, &err)) == NULL)
		fail_msg("not JSON: %s: %s", err.text, js);
	assert_string_equal(json_string_value(json_object_get(j,
	    "repository")), "acme/widget");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(j,
	    "counts"), "commits")), 13);
	assert_int_equal(json_integer_value(json_object_get(j,
	    "bots_never_named")), (json_int_t)sh->nbots);
	assert_null(strcasestr(js, "dependabot"));
	assert_null(strcasestr(js, "pytorchmergebot"));
	assert_null(strstr(js, CACHE_SHA));

	/* a bot a person's title names is "a bot" to the model */
	assert_non_null(sheet_json_story_of(j, "let a bot group the go "
	    "modules"));

	assert_non_null(s = sheet_json_story_of(j, "Add a write-back cache"));
	assert_true(json_is_true(json_object_get(s, "reverted_later")));

	/* roles as the model reads them */
	assert_non_null(s = sheet_json_story_of(j, "make the gear train 1.7x "
	    "faster"));
	p = json_object_get(s, "people");
	assert_int_equal(json_array_size(p), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(p,
	    0), "role")), "author");
	assert_string_equal(json_string_value(json_object_get(json_array_get(p,
	    0), "login")), "ada");
	assert_string_equal(json_string_value(json_object_get(json_array_get(p,
	    1), "role")), "merger");
	assert_string_equal(json_string_value(json_object_get(json_array_get(
	    json_object_get(s, "figures"), 0), "measures")),
	    "gear train faster");
	assert_int_equal(json_integer_value(json_object_get(s,
	    "pull_request")), 12);

	/* a revert without a reason says null, and must be told */
	assert_non_null(s = sheet_json_story_of(j, "Teach the gears to "
	    "whistle"));
	r = json_object_get(s, "revert");
	assert_true(json_is_object(r));
	assert_true(json_is_null(json_object_get(r, "reason")));
	assert_true(json_is_false(json_object_get(r, "automatic")));
	assert_true(json_is_true(json_object_get(s, "must_tell")));
	assert_string_equal(json_string_value(json_object_get(json_array_get(
	    json_object_get(s, "people"), 0), "role")), "reverted");

	assert_non_null(s = sheet_json_story_of(j, "Add a gear oiler"));
	assert_string_equal(json_string_value(json_object_get(json_object_get(s,
	    "revert"), "reason")), "it breaks the arm build");
	assert_string_equal(json_string_value(json_object_get(json_array_get(
	    json_object_get(s, "people"), 0), "role")), "asked_for_revert");

	assert_non_null(s = sheet_json_story_of(j, "v2.3.0"));
	assert_string_equal(json_string_value(json_array_get(json_object_get(s,
	    "versions"), 0)), "2.3.0");
	json_decref(j);
	free(js);
	sheet_free(sh);
	episode_free(ep);
	day_free(d);
}

/*
 * The fence of the sheet holds a reply to every revert the draft tells:
 * the one whose message names no SHA too (fence_of_episode, keyed on the
 * SHA, let a reply leave it out).
 */
static void
test_sheet_revert_without_sha(void **state)
{
	struct day	*d = day_msg_new("acme/widget");
	struct episode	*ep;
	struct sheet	*sh;
	struct fence	*f;
	struct buf	 reply;
	const char	*p, *e, *why;
	char		*norm, *detail = NULL;

	(void)state;
	day_msg_add(d, "gears: make the gear train 1.7x faster\n\nThe gear "
	    "train now skips idle teeth, so turning takes less time.\n", NULL,
	    1, 60, "Ada Lovelace", "ada", "src/gears.c");
	day_msg_add(d, "Add WIDGET_FAST=1 to opt into the new parser\n\n"
	    "Setting WIDGET_FAST=1 makes the parser 2.5x faster on large "
	    "files.\n", NULL, 2, 120, "Ada Lovelace", "ada", "src/parse.c");
	day_msg_add(d, "Revert \"Teach the gears to whistle\"\n", NULL, 3, 180,
	    "Alan Turing", "aturing", "src/whistle.c");
	day_pair_reverts(d);
	ep = day_msg_draft(d);
	assert_non_null(strstr(ep->transcript, "whistle"));
	sh = sheet_of_episode(d, ep);
	f = fence_of_sheet(sh);
	assert_null(fence_check(f, ep->transcript, NULL));
	/* the draft without the paragraph that tells the revert */
	buf_init(&reply);
	for (p = ep->transcript; *p != '\0'; p = *e != '\0' ? e + 2 : e) {
		if ((e = strstr(p, "\n\n")) == NULL)
			e = p + strlen(p);
		if (memmem(p, (size_t)(e - p), "whistle", 7) != NULL)
			continue;
		if (reply.len > 0)
			buf_puts(&reply, "\n\n");
		buf_append(&reply, p, (size_t)(e - p));
	}
	/* as long as the draft, that length refuses nothing */
	buf_puts(&reply, "\n\nThat is the day in full, with every story "
	    "told as it came.");
	norm = fence_normalize(buf_str(&reply));
	assert_non_null(norm);
	if ((why = fence_check(f, norm, &detail)) == NULL)
		fail_msg("a reply without the revert was let through");
	assert_string_equal(why, "revert");
	free(detail);
	free(norm);
	buf_free(&reply);
	fence_free(f);
	sheet_free(sh);
	episode_free(ep);
	day_free(d);
}

static const char *const corpus_days[] = {
	"ao-2026-02-12", "ao-2026-03-24", "ao-2026-05-14-series",
	"curl-2026-02-14-quiet", "curl-2026-06-01",
	"express-2024-09-09-releases", "flask-2024-11-13-release",
	"fzf-2026-04-19-replayed", "htop-2020-09-24",
	"jq-2023-07-23-replayed", "libuv-2024-07-29-replayed",
	"mypy-2026-04-16-replayed", "nginx-2024-05-28-release",
	"pip-2025-10-21-removals", "redis-2024-05-15-revert",
	"requests-2026-01-30", "ripgrep-2023-11-26", "tmux-2026-06-26-merges",
	"tokio-2025-10-14-releases", "tokio-2026-08-09",
	"torchtitan-2024-08-01-replayed", "vite-2026-06-30-busy",
};

/*
 * Every corpus day: the sheet is JSON, names no bot, has one lead when
 * the draft tells a story, marks every revert to be told, and the draft
 * passes the fence made of it.
 */
static void
test_sheet_corpus(void **state)
{
	struct episode_opts	 o;
	struct episode		*ep;
	struct sheet		*sh;
	struct fence		*f;
	struct day		*d;
	const char		*why, *print = getenv("HOOKCAST_SHEET_PRINT");
	char			*js, *detail = NULL;
	json_t			*j;
	size_t			 i, k, leads;

	(void)state;
	for (i = 0; i < sizeof corpus_days / sizeof corpus_days[0]; i++) {
		d = corpus_day(corpus_days[i]);
		memset(&o, 0, sizeof o);
		corpus_date(corpus_days[i], &o.year, &o.month, &o.mday);
		o.published = (time_t)1767261644;
		ep = episode_draft(d, &o);
		sh = sheet_of_episode(d, ep);
		js = sheet_json(sh);
		if (print != NULL && strcmp(print, corpus_days[i]) == 0)
			printf("%s\n", js);
		if ((j = json_loads(js, 0, NULL)) == NULL)
			fail_msg("%s: the sheet is not JSON", corpus_days[i]);
		json_decref(j);
		for (k = 0; k < sh->nbots; k++)
			if (strcasestr(js, sh->bots[k]) != NULL)
				fail_msg("%s: the bot %s in the sheet",
				    corpus_days[i], sh->bots[k]);
		for (k = leads = 0; k < sh->nstories; k++) {
			leads += sh->stories[k].lead;
			if (sh->stories[k].is_revert &&
			    !sh->stories[k].required)
				fail_msg("%s: %s: a revert not required",
				    corpus_days[i], sh->stories[k].id);
		}
		if (leads > 1)
			fail_msg("%s: %zu leads", corpus_days[i], leads);
		f = fence_of_sheet(sh);
		if ((why = fence_check(f, ep->transcript, &detail)) != NULL)
			fail_msg("%s: the draft is outside the fence of its "
			    "sheet: %s (%s)", corpus_days[i], why,
			    detail != NULL ? detail : "");
		fence_free(f);
		free(js);
		sheet_free(sh);
		episode_free(ep);
		day_free(d);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sheet_stories),
		cmocka_unit_test(test_sheet_json),
		cmocka_unit_test(test_sheet_revert_without_sha),
		cmocka_unit_test(test_sheet_corpus),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
