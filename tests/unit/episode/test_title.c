/*
 * Unit tests for episode/title.c: releases read from subjects, headlines
 * made of a story's subject, and the titles and descriptions of drafted
 * days: from the top story, never from reverted work, directory names or
 * an empty subject. One row per rule.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "buf.h"
#include "day.h"
#include "draft_int.h"
#include "quote.h"
#include "episode.h"
#include "record.h"
#include "xmalloc.h"

#include "day_msg.h"

static void
test_release(void **state)
{
	static const struct {
		const char *subject, *pkg, *version;
	} cases[] = {
		{ "release: v8.1.1", NULL, "8.1.1" },
		{ "release: create-vite@9.1.1", "create-vite", "9.1.1" },
		{ "Release 2.3.0", NULL, "2.3.0" },
		{ "chore(release): v1.0.0-beta.2", NULL, "1.0.0-beta.2" },
		{ "Bump version to 4.2", NULL, "4.2" },
		{ "v3.0.0", NULL, "3.0.0" },
		{ "chore(deps): update actions/cache action to v6", NULL, NULL },
		{ "ci: use node 24.15 for Windows CI", NULL, NULL },
		{ "RELEASE-NOTES: synced", NULL, NULL },
		{ "docs: release notes for 8.1", NULL, NULL },
		{ "fix: revert, \"release: v8.1.0\"", NULL, NULL },
		{ "Update pytorch_sphinx_theme2 version to 0.4.3", NULL, NULL },
	};
	size_t	 i;
	char	*pkg, *ver;
	int	 got;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		got = quote_release(cases[i].subject, &pkg, &ver);
		if (got != (cases[i].version != NULL))
			fail_msg("%s: %d", cases[i].subject, got);
		if (got && strcmp(ver, cases[i].version) != 0)
			fail_msg("%s: version %s", cases[i].subject, ver);
		if (got && (pkg == NULL) != (cases[i].pkg == NULL))
			fail_msg("%s: package %s", cases[i].subject,
			    pkg != NULL ? pkg : "none");
		if (got && pkg != NULL && strcmp(pkg, cases[i].pkg) != 0)
			fail_msg("%s: package %s", cases[i].subject, pkg);
		free(pkg);
		free(ver);
	}
}

static void
test_headline(void **state)
{
	static const struct {
		const char *what, *want;
	} cases[] = {
		{ "expose schedule latency in task hooks",
		    "Schedule Latency Exposed in Task Hooks" },
		{ "add an opt-in sharded spawn_blocking queue",
		    "Opt-in Sharded spawn_blocking Queue Added" },
		{ "prefer chunked encoding over Content-Length: 0",
		    "Chunked Encoding Preferred" },
		{ "fix the BMM template overflow for large batches",
		    "BMM Template Overflow Fixed for Large Batches" },
		{ "mark generated manual files as generated",
		    "Generated Manual Files Marked as Generated" },
		{ "mark generated manual files as linguist-generated=true",
		    "Generated Manual Files Marked as linguist-generated=true" },
		{ "let inline sections take precedence over --header-first",
		    "Let Inline Sections Take Precedence over --header-first" },
		{ "obey the retry limit on uploads", "Retry Limit Obeyed on Uploads" },
		{ "detect change", NULL },
		{ "adjust to origin", NULL },
		{ "", NULL },
		{ "Faster startup on cold caches", "Faster Startup on Cold "
		    "Caches" },
		{ "CURLOPT_MAXCONNECTS set to 0 restores default value",
		    "CURLOPT_MAXCONNECTS Set to 0 Restores Default Value" },
		{ "CURLOPT_FOO and CURLOPT_BAR_BAZ clash", NULL },
		{ "Reapply \"[1/5] Speed up the tokenizer\"", NULL },
		/* a reference says nothing (issue #27) */
		{ "revert number 7757 to fix regression in spawn_blocking",
		    NULL },
		{ "revert the number parser to fix regression in JSON",
		    "Number Parser Reverted" },
	};
	struct draft_item	it;
	struct buf		b;
	size_t			i;
	int			got;

	(void)state;
	buf_init(&b);
	memset(&it, 0, sizeof it);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		buf_reset(&b);
		it.cl.what = (char *)(uintptr_t)cases[i].what;
		got = title_headline(&b, &it);
		if (cases[i].want == NULL && got)
			fail_msg("\"%s\": %s", cases[i].what, buf_str(&b));
		if (cases[i].want != NULL && (!got ||
		    strcmp(buf_str(&b), cases[i].want) != 0))
			fail_msg("\"%s\": \"%s\"", cases[i].what, buf_str(&b));
	}
	buf_free(&b);
}

/* Days drafted whole: what the title and the description say. */
struct title_case {
	const char	*rule;
	const char	*msgs[6];	/* NULL-ended */
	const char	*title;		/* in the title, or NULL */
	const char	*desc;		/* in the description, or NULL */
	const char	*never[3];	/* in neither */
};

#define REVERTED "0000000000000000000000000000000000000000"

static const struct title_case days[] = {
	{ "a release day", { "release: v8.1.1\n", "fix(css): resolve tsconfig "
	    "paths in CSS imports (#1)\n", "test: update the watcher test "
	    "(#2)\n", "test: enable the manual chunk test (#3)\n", NULL },
	    "Vite 8.1.1 Released", "Ada Lovelace released Vite 8.1.1.",
	    { "\"\"", "Test Suite Upkeep", "titled" } },
	{ "a reverted feature is not the headline", {
	    "tool: add a retry delay for transfers on 429 (#1)\n",
	    "http: prefer chunked encoding over empty bodies (#2)\n",
	    "docs: fix a typo in the FAQ (#3)\n",
	    "tests: fix a flaky upload test (#4)\n",
	    "Revert \"tool: add a retry delay for transfers on 429 (#1)\"\n\n"
	    "This reverts commit " REVERTED ".\n", NULL },
	    "Chunked Encoding Preferred", "chunked encoding",
	    { "Retry", "retry", NULL } },
	{ "directory names are no title", {
	    "Tidy the sync module\n", "Tidy the codec module\n",
	    "Tidy the time module\n", NULL }, NULL, NULL,
	    { "Work on", "Sync, Codec", NULL } },
	{ "support dropped leads", { "Fix CI and build failures (#7)\n\n* "
	    "Run ruff\n* Drop support for pypy-3.10\n", "Update the "
	    "maintainers list (#8)\n", NULL }, "Support for pypy-3.10 "
	    "Dropped", "Support for pypy-3.10 was dropped.", { NULL } },
	{ "the highest release leads", { "4.20.0\n", "5.0.0\n",
	    "fix: keep the router (#3)\n", NULL }, "Vite 5.0.0 Released",
	    "released Vite 5.0.0", { NULL } },
	{ "the repository's own release over a package's", {
	    "chore: prepare vite-macros v2.6.0 (#1)\n",
	    "chore: prepare Vite v1.48.0 (#2)\n",
	    "fix: keep the router (#3)\n", NULL }, "Vite 1.48.0 Released",
	    "released Vite 1.48.0", { "Vite 2.6.0", NULL } },
	{ "git's merge of a branch is no story", {
	    "Merge branch 'obsd-master'\n\nUpstream work.\n",
	    "Add an X11 colours script\n", NULL },
	    "X11 Colours Script Added", "colours script",
	    { "obsd-master", "Merge", "merged" } },
	/* issue #27: the project's own version bump is its release */
	{ "a bumped version is the release", { "Bumped v5.8.2\n",
	    "feat: add a retry delay for transfers on 429 (#1)\n",
	    "fix: keep the router (#2)\n", NULL }, "Vite 5.8.2 Released",
	    "released Vite 5.8.2", { "Dependency", NULL } },
	{ "a prepared release leads", {
	    "chore: prepare to release v1.52.1\n",
	    "feat: add a retry delay for transfers on 429 (#1)\n", NULL },
	    "Vite 1.52.1 Released", "released Vite 1.52.1", { NULL } },
	{ "a release subject leads", { "release: v8.2.0\n",
	    "perf: speed up frame encoding for long frames (#5)\n", NULL },
	    "Vite 8.2.0 Released", "released Vite 8.2.0", { NULL } },
	/* the top story leads though its subject makes no headline */
	{ "a crash fix hard to phrase still leads", {
	    "rt: revert #7757 to fix regression in spawn_blocking (#7780)\n"
	    "\nThe change made spawn_blocking hang under load.\n",
	    "feat: add a retry delay for transfers on 429 (#1)\n", NULL },
	    "spawn_blocking", NULL, { "Retry", "Fixes", NULL } },
	/* warning words in a CI script weigh nothing */
	{ "a CI script's security words do not lead", {
	    "ci: fix the security scan script crashing on forks (#3)\n",
	    "feat: add a retry delay for transfers on 429 (#1)\n", NULL },
	    "Retry Delay Added", NULL, { "Security", "Scan", NULL } },
	/* one rollback of earlier work is no "day of" them */
	{ "one rollback is counted right", {
	    "test: update the watcher test (#2)\n",
	    "Revert \"tool: add a retry delay for transfers on 429\"\n\n"
	    "This reverts commit 1111111111111111111111111111111111111111.\n",
	    "test: enable the manual chunk test (#3)\n", NULL },
	    "Retry Delay", NULL, { "A Day of Rollbacks", "Rollbacks",
	    NULL } },
	{ "the top figure in the description", {
	    "codec: speed up frame encoding for long frames (#5)\n\nEncoding "
	    "long frames is now 1.7x faster for single-output graphs.\n",
	    "docs: fix a typo (#6)\n", NULL }, "Frame Encoding Sped Up",
	    "1.7x faster for single-output graphs", { NULL } },
};

static struct day *
title_day(const struct title_case *tc)
{
	struct day	*d = day_new("vitejs/vite", 1775260800);
	size_t		 i;
	const char	*dirs[] = { "tokio/src/sync/a.rs",
	    "tokio/src/codec/b.rs", "tokio/src/time/c.rs" };

	d->end = d->start + 86400;
	for (i = 0; i < 6 && tc->msgs[i] != NULL; i++)
		day_msg_add(d, tc->msgs[i], i == 0 ? REVERTED : NULL,
		    i + 0xabc0, i, i % 2 ? "Grace Hopper" : "Ada Lovelace",
		    i % 2 ? "grace" : "ada", dirs[i % 3]);
	day_pair_reverts(d);
	return d;
}

static void
test_days(void **state)
{
	struct episode_opts	 o;
	struct episode		*ep;
	struct day		*d;
	size_t			 i, k;

	(void)state;
	memset(&o, 0, sizeof o);
	o.show = "Daily";
	o.year = 2026;
	o.month = 6;
	o.mday = 30;
	for (i = 0; i < sizeof days / sizeof days[0]; i++) {
		d = title_day(&days[i]);
		ep = episode_draft(d, &o);
		if (days[i].title != NULL &&
		    strstr(ep->title, days[i].title) == NULL)
			fail_msg("%s: title \"%s\"", days[i].rule, ep->title);
		if (days[i].desc != NULL &&
		    strstr(ep->description, days[i].desc) == NULL)
			fail_msg("%s: description \"%s\"", days[i].rule,
			    ep->description);
		for (k = 0; k < 3 && days[i].never[k] != NULL; k++) {
			if (strstr(ep->title, days[i].never[k]) != NULL ||
			    strstr(ep->description, days[i].never[k]) != NULL)
				fail_msg("%s: \"%s\" in \"%s\" / \"%s\"",
				    days[i].rule, days[i].never[k], ep->title,
				    ep->description);
		}
		episode_free(ep);
		day_free(d);
	}
}

/*
 * The first story told (the segment after the opening) is the one the
 * day's ranking puts first, as the title is (issue #27): a feature over a
 * change that scores more by its long body.
 */
static void
test_first_told(void **state)
{
	static const struct title_case day = { "the first story told", {
	    "Improve --help to mention all the command options\n\nThe "
	    "help text listed only some of the options, so people missed "
	    "the rest of them. It now lists every option with a line that "
	    "says what it does, grouped as the manual groups them, and the "
	    "manual points to it.\n",
	    "Enable significand on macOS\n", NULL },
	    "Significand", NULL, { NULL } };
	struct episode_opts	 o;
	struct episode		*ep;
	struct day		*d;
	const char		*t, *at;

	(void)state;
	memset(&o, 0, sizeof o);
	o.show = "Daily";
	o.year = 2026;
	o.month = 6;
	o.mday = 30;
	d = title_day(&day);
	ep = episode_draft(d, &o);
	if (strstr(ep->title, day.title) == NULL)
		fail_msg("title \"%s\"", ep->title);
	t = ep->nsegments > 1 ? ep->segments[1].text : "";
	if ((at = strstr(t, "significand")) == NULL || at - t > 80)
		fail_msg("the first story told: \"%s\"", t);
	episode_free(ep);
	day_free(d);
}

/*
 * A release gathers what ships in it when the day says so (issue #27),
 * and only then: each row a day of commits (subject and body, the files
 * it changed, comma-separated), the title it gets, and what its release
 * story says and must not. Subjects and files are the real days'.
 */
struct ships_commit {
	const char	*msg, *files;
};

static const struct {
	const char		*rule;
	struct ships_commit	 c[7];
	const char		*title;
	const char		*has[2], *hasnt[2];	/* in the release */
} ships_days[] = {
	/* express 2024-09-09: 4.20.0 told bare, its upgrades and the
	   redirect fix as unrelated items, "Wes Todd merged tag '4.20.0'
	   into 5.0." a paragraph alone */
	{ "the merge of a release's tag says what came with it", {
	    { "path-to-regexp@0.1.10 (#5902)\n", "History.md,package.json" },
	    { "update to fresh@2.0.0 (#5916)\n\nfixes handling of "
	      "If-Modified-Since in combination with If-None-Match\n",
	      "History.md,lib/request.js,package.json,test/req.fresh.js" },
	    { "fix: don't render redirect values in anchor href\n",
	      "lib/response.js,test/res.redirect.js" },
	    { "feat: upgrade to body-parser@1.20.3 (#5926)\n",
	      "History.md,package.json,test/express.urlencoded.js" },
	    { "4.20.0\n", "History.md,package.json" },
	    { "Merge tag '4.20.0' into 5.0\n", "History.md,Readme.md,"
	      "lib/response.js,package.json,test/express.urlencoded.js,"
	      "test/res.redirect.js" }, { NULL, NULL } },
	    "Express 4.20.0",
	    { "released Express 4.20.0, with three of the day's changes in "
	      "it", "merged it into 5.0." },
	    { "fresh", NULL } },
	/* flask 2024-11-13: "release version 3.1.0" updates CHANGES.rst,
	   as did the change of the day that ships in it */
	{ "the changelog a release updates says what ships in it", {
	    { "configure and check `request.trusted_hosts` (#5637)\n",
	      "CHANGES.rst,src/flask/app.py,src/flask/wrappers.py" },
	    { "use generic bases for session (#5638)\n",
	      "src/flask/sessions.py" },
	    { "release version 3.1.0 (#5640)\n", "CHANGES.rst,pyproject.toml" },
	    { NULL, NULL } },
	    "Flask 3.1.0 Released",
	    { "released Flask 3.1.0, with one of the day's changes in it",
	      "trusted hosts" }, { "generic bases", NULL } },
	{ "a release that names its pull requests", {
	    { "fix memory leak in the retry path (#101)\n\nEach retry "
	      "leaked the request it retried, so the daemon grew.\n",
	      "src/retry.c" },
	    { "docs: fix a typo in the FAQ (#102)\n", "docs/faq.md" },
	    { "release: v2.3.0 (#110)\n\nShips #101.\n", "package.json" },
	    { NULL, NULL } },
	    "Flask 2.3.0: Memory Leak Fixed in the Retry Path",
	    { "with one of the day's changes in it", "daemon grew" },
	    { "typo", NULL } },
	/* near misses: nothing says what ships, nothing gathered */
	{ "a release whose changelog no change of the day wrote to", {
	    { "fix(css): resolve tsconfig paths in CSS and Sass @import "
	      "(#22775)\n", "packages/vite/src/node/plugins/css.ts" },
	    { "release: v8.1.1\n",
	      "packages/vite/CHANGELOG.md,packages/vite/package.json" },
	    { NULL, NULL } },
	    "Flask 8.1.1 Released", { NULL, NULL }, { NULL, NULL } },
	{ "a merge of a branch that is no release's", {
	    { "use generic bases for session (#5638)\n",
	      "src/flask/sessions.py" },
	    { "Merge remote-tracking branch 'origin/stable'\n",
	      "src/flask/sessions.py,src/flask/helpers.py" },
	    { "release version 3.1.0 (#5640)\n", "pyproject.toml" },
	    { NULL, NULL } },
	    "Flask 3.1.0 Released", { NULL, NULL }, { NULL, NULL } },
};

static void
test_ships(void **state)
{
	const struct episode_segment	*rel;
	struct commit			 c;
	struct episode			*ep;
	struct day			*d;
	char				*files, *f, *last, *names[8];
	size_t				 i, k, j, nf = 0;

	(void)state;
	for (i = 0; i < sizeof ships_days / sizeof ships_days[0]; i++) {
		d = day_msg_new("pallets/flask");
		if (strncmp(ships_days[i].title, "Express", 7) == 0) {
			free(d->repo);
			d->repo = xstrdup("expressjs/express");
		}
		for (k = 0; ships_days[i].c[k].msg != NULL; k++) {
			memset(&c, 0, sizeof c);
			commit_set_message(&c, ships_days[i].c[k].msg);
			xasprintf(&c.sha, "%040zx", k + 0xabc0);
			c.author_name = xstrdup(k % 2 ? "Grace Hopper" :
			    "Ada Lovelace");
			c.author_login = xstrdup(k % 2 ? "grace" : "ada");
			c.branch = xstrdup("main");
			c.timestamp = d->start + 60 * (time_t)k;
			/* (a commit's list of files is one allocation) */
			files = xstrdup(ships_days[i].c[k].files);
			for (f = strtok_r(files, ",", &last); f != NULL &&
			    nf < 8; f = strtok_r(NULL, ",", &last))
				names[nf++] = f;
			c.modified = record_list_dup(names, nf);
			c.nmodified = nf;
			nf = 0;
			free(files);
			revert_parse(c.subject, c.body, &c.revert);
			assert_int_equal(day_add_commit(d, &c), 1);
		}
		day_pair_reverts(d);
		ep = day_msg_draft(d);
		if (strcmp(ep->title, ships_days[i].title) != 0 &&
		    strncmp(ep->title, ships_days[i].title,
		    strlen(ships_days[i].title)) != 0)
			fail_msg("%s: the title \"%s\"", ships_days[i].rule,
			    ep->title);
		for (j = 0, rel = NULL; j < ep->nsegments; j++)
			if (strcmp(ep->segments[j].kind, "release") == 0)
				rel = &ep->segments[j];
		if ((rel != NULL) != (ships_days[i].has[0] != NULL))
			fail_msg("%s: %s release story: %s", ships_days[i].rule,
			    rel != NULL ? "a" : "no", ep->transcript);
		for (j = 0; j < 2 && rel != NULL; j++) {
			if (ships_days[i].has[j] != NULL &&
			    strstr(rel->text, ships_days[i].has[j]) == NULL)
				fail_msg("%s: no \"%s\" in: %s",
				    ships_days[i].rule, ships_days[i].has[j],
				    rel->text);
			if (ships_days[i].hasnt[j] != NULL &&
			    strstr(rel->text, ships_days[i].hasnt[j]) != NULL)
				fail_msg("%s: \"%s\" in: %s",
				    ships_days[i].rule, ships_days[i].hasnt[j],
				    rel->text);
		}
		/* git's merge of the release's tag is told with it, only */
		if (rel != NULL && strstr(ep->transcript, "merged tag") != NULL)
			fail_msg("%s: the merge told alone: %s",
			    ships_days[i].rule, ep->transcript);
		episode_free(ep);
		day_free(d);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_release),
		cmocka_unit_test(test_headline),
		cmocka_unit_test(test_days),
		cmocka_unit_test(test_first_told),
		cmocka_unit_test(test_ships),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
