/* Unit tests for the episode drafter: days built by hand, drafted, rendered. */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "day.h"
#include "record.h"
#include "episode.h"
#include "spoken.h"
#include "text.h"
#include "xmalloc.h"

#include "classify.h"
#include "count_cmp.h"
#include "episode_check.h"
#include "gen_day.h"
#include "gen_flood.h"
#include "day_msg.h"

#define SHA_FEAT	"1111111111111111111111111111111111111111"
#define SHA_ORIG	"c5fb460e7c7a57bf3e3a985d10a8b175bbd61500"
#define SHA_REVERT	"4beffe7737aa0000000000000000000000000002"
#define SHA_RELAND	"5b37faa57b000000000000000000000000000003"
#define SHA_FIX		"aaaaaaaaaa000000000000000000000000000004"
#define SHA_DOCS	"bbbbbbbbbb000000000000000000000000000005"
#define SHA_BOT		"cccccccccc000000000000000000000000000006"
#define SHA_SET		"dddddddddd000000000000000000000000000007"
#define SHA_BOT2	"eeeeeeeeee000000000000000000000000000008"

struct spec {
	const char	*sha, *name, *login, *subject, *body, *file;
	int		 is_revert, is_reland;
	long		 reverts_idx;
	const char	*reason;
};

/* A busy day: a feature with figures, a revert of a change in the day and
 * its re-land, a fix, docs, two bot bumps, and a change naming a setting. */
static const struct spec busy[] = {
	{ SHA_FEAT, "Ada Lovelace", "ada", "[inductor] Add fused attention "
	    "kernel (#101)", "This makes attention 1.7x faster on large "
	    "models and saves 2.5 GB of memory. See https://example.com/x "
	    "and mail ada@example.com.\n\nPull Request resolved: "
	    "https://github.com/o/r/pull/101\nApproved by: "
	    "https://github.com/bob\nSigned-off-by: Ada <ada@example.com>\n",
	    "torch/_inductor/kernel.py", 0, 0, -1, NULL },
	{ SHA_ORIG, "Hana Tasta", "htasta", "tool: add a retry delay on 429",
	    "Closes #21355\n", "src/tool_operate.c", 0, 0, -1, NULL },
	{ SHA_REVERT, "Daniel Stenberg", "daniel-stenberg",
	    "Revert \"tool: add a retry delay on 429\"", "This reverts commit "
	    SHA_ORIG ".\n\nThis needs some further work before we can do "
	    "this.\n\nCloses #21824\n", "src/tool_operate.c", 1, 0, 1,
	    "This needs some further work before we can do this." },
	{ SHA_RELAND, "Hana Tasta", "htasta",
	    "Reapply \"tool: add a retry delay on 429\"", "Now with a cap.\n",
	    "src/tool_operate.c", 0, 1, 2, NULL },
	{ SHA_FIX, "Grace Hopper", "grace", "Fix crash when the config is "
	    "empty", "An empty config file made the daemon crash at start. "
	    "Commit " SHA_ORIG " started it.\n\nFixes #12\n", "src/config.c",
	    0, 0, -1, NULL },
	{ SHA_DOCS, "Linus Torvalds", "linus", "docs: explain the retry "
	    "delay", "", "docs/retry.md", 0, 0, -1, NULL },
	{ SHA_BOT, "dependabot[bot]", "dependabot[bot]",
	    "Bump lodash from 4.17.20 to 4.17.21", "", "package.json", 0, 0,
	    -1, NULL },
	{ SHA_BOT2, "dependabot[bot]", "dependabot[bot]",
	    "Bump express from 4.1 to 4.2", "", "package.json", 0, 0, -1,
	    NULL },
	{ SHA_SET, "Daniel Stenberg", "daniel-stenberg", "setopt: "
	    "CURLOPT_MAXCONNECTS set to 0 restores default value", "Closes "
	    "#21829\n", "lib/setopt.c", 0, 0, -1, NULL },
};

static const struct spec quiet[] = {
	{ SHA_DOCS, "Viktor Szakats", "viktor-szakats", "examples/usercert"
	    "inmem: use modern OpenSSL API, drop mentions of RSA",
	    "Replacing API calls deprecated by OpenSSL 3.\n\nFixes #20595\n"
	    "Closes #20596\n", "docs/examples/usercertinmem.c", 0, 0, -1,
	    NULL },
};

static struct day *
make_day(const struct spec *s, size_t n, size_t nprs)
{
	struct day	*d = xcalloc(1, sizeof *d);
	size_t		 i;

	d->repo = xstrdup("curl/curl");
	d->start = 1780264800;	/* 2026-05-31T22:00:00Z */
	d->end = 1780351200;
	d->commits = xcalloc(n + 1, sizeof *d->commits);
	d->ncommits = d->commits_cap = n;
	for (i = 0; i < n; i++) {
		struct commit *c = &d->commits[i];

		c->sha = xstrdup(s[i].sha);
		c->author_name = xstrdup(s[i].name);
		c->author_login = xstrdup(s[i].login);
		c->author_email = xstrdup("someone@example.com");
		c->timestamp = d->start + 60 * (time_t)i;
		c->subject = xstrdup(s[i].subject);
		c->body = xstrdup(s[i].body);
		c->modified = record_list_dup((char *const *)&s[i].file, 1);
		c->nmodified = 1;
		c->revert.is_revert = s[i].is_revert;
		c->revert.is_reland = s[i].is_reland;
		c->revert.reason = xstrdup_null(s[i].reason);
		if (s[i].is_revert)
			c->revert.reverted_sha = xstrdup(SHA_ORIG);
		c->reverts_idx = s[i].reverts_idx;
		c->reverted_by_idx = -1;
	}
	d->prs = xcalloc(nprs + 1, sizeof *d->prs);
	d->nprs = d->prs_cap = nprs;
	for (i = 0; i < nprs; i++) {
		d->prs[i].number = 100 + (long)i;
		d->prs[i].title = xstrdup("A merged pull request");
		d->prs[i].author_login = xstrdup("ada");
	}
	return d;
}

static struct episode *
draft(const struct day *d)
{
	static const struct episode_nearby nearby[] = {
		{ "2026-05-31", "Yesterday's Title" },
	};
	struct episode_opts	o;

	memset(&o, 0, sizeof o);
	o.show = "Curl Daily";
	o.year = 2026;
	o.month = 6;
	o.mday = 1;
	o.published = 1780308044;	/* 2026-06-01T10:00:44Z */
	o.nearby = nearby;
	o.nnearby = 1;
	return episode_draft(d, &o);
}

static const struct episode_segment *
segment(const struct episode *ep, const char *kind)
{
	size_t	i;

	for (i = 0; i < ep->nsegments; i++) {
		if (strcmp(ep->segments[i].kind, kind) == 0)
			return &ep->segments[i];
	}
	return NULL;
}

static int
segment_has(const struct episode_segment *seg, const char *sha)
{
	size_t	i;

	for (i = 0; seg != NULL && i < seg->ncommits; i++) {
		if (strcmp(seg->commits[i], sha) == 0)
			return 1;
	}
	return 0;
}

/* No URL, no hex sha of 7+ digits, no e-mail, no Markdown in spoken text. */
static void
assert_spoken_safe(const char *text)
{
	const char	*p;
	size_t		 n;

	assert_null(strstr(text, "http"));
	assert_null(strchr(text, '@'));
	assert_null(strchr(text, '`'));
	assert_null(strstr(text, "**"));
	for (p = text; *p != '\0'; p++) {
		if (p > text && isalnum((unsigned char)p[-1]))
			continue;
		for (n = 0; isxdigit((unsigned char)p[n]); n++)
			continue;
		if (n >= 40)
			fail_msg("a sha in: %s", text);
	}
}

static void
test_busy(void **state)
{
	static const char *present[] = { "opening", "rollbacks",
	    "highlights", "fixes", "housekeeping", "focus", "closing" };
	struct day			*d;
	struct episode			*ep;
	const struct episode_segment	*seg;
	size_t				 i;

	(void)state;
	d = make_day(busy, sizeof busy / sizeof busy[0], 3);
	ep = draft(d);
	for (i = 0; i < sizeof present / sizeof present[0]; i++)
		if (segment(ep, present[i]) == NULL)
			fail_msg("no %s segment", present[i]);
	assert_string_equal(ep->segments[0].kind, "opening");
	assert_string_equal(ep->segments[ep->nsegments - 1].kind, "closing");

	/* a count in words, said in passing */
	seg = segment(ep, "opening");
	assert_non_null(strcasestr(seg->text, "nine commits"));
	assert_non_null(strstr(seg->text, "June 1st, 2026"));
	assert_non_null(strstr(seg->text, "Curl Daily"));

	/* the revert: whose, who, why, and the recovery */
	seg = segment(ep, "rollbacks");
	assert_non_null(strstr(seg->text, "Hana Tasta"));
	assert_non_null(strstr(seg->text, "Daniel Stenberg"));
	assert_non_null(strstr(seg->text, "further work"));
	assert_non_null(strstr(seg->text, "re-landed"));
	assert_true(segment_has(seg, SHA_REVERT));
	assert_true(segment_has(seg, SHA_ORIG));
	assert_true(segment_has(seg, SHA_RELAND));

	/* the highlight quotes its figures, drops its trailers */
	seg = segment(ep, "highlights");
	assert_non_null(strstr(seg->text, "Ada Lovelace"));
	assert_non_null(strstr(seg->text, "1.7x"));
	assert_non_null(strstr(seg->text, "2.5 GB"));
	assert_null(strstr(seg->text, "Approved"));
	assert_null(strstr(seg->text, "Signed-off-by"));
	assert_true(segment_has(seg, SHA_FEAT));

	seg = segment(ep, "fixes");
	assert_non_null(strstr(seg->text, "Grace Hopper"));
	assert_true(segment_has(seg, SHA_FIX));

	/* bots grouped, never named as people */
	seg = segment(ep, "housekeeping");
	assert_non_null(strstr(seg->text,
	    "The dependency bot bumped two dependencies"));
	assert_null(strstr(seg->text, "[bot]"));
	assert_null(strstr(seg->text, "Dependabot"));
	assert_true(segment_has(seg, SHA_BOT));
	assert_true(segment_has(seg, SHA_BOT2));

	/* the focus quotes the setting verbatim */
	seg = segment(ep, "focus");
	assert_int_equal(strncmp(seg->text, "Today's Focus: ", 15), 0);
	assert_non_null(strstr(seg->text, "CURLOPT_MAXCONNECTS"));
	assert_true(segment_has(seg, SHA_SET));

	assert_spoken_safe(ep->transcript);
	assert_spoken_safe(ep->description);
	assert_spoken_safe(ep->title);
	/* the sign-off names the show */
	assert_non_null(strstr(segment(ep, "closing")->text, ep->show));
	assert_int_equal(ep->stats.reverts, 1);
	assert_int_equal(ep->stats.relands, 1);
	assert_true(ep->words > 100);
	/* the duration is what a voice says at the default pace */
	assert_int_equal(ep->duration,
	    (long)((double)spoken_said_words(ep->transcript) * 60.0 / 150.0 +
	    0.5));
	assert_true(ep->duration >= (long)((double)ep->words * 60.0 / 150.0));
	episode_free(ep);
	day_free(d);
}

/*
 * The first story told is the day's top story (issue #27): a day's story
 * segments go in the order of the ranking, not rollbacks first. Each row:
 * commit messages (the first's sha is ORDER_REVERTED, for a revert of
 * it), the kind of the first story segment and words its first
 * paragraph says.
 */
#define ORDER_REVERTED	"9999999999999999999999999999999999999999"

static const struct {
	const char	*rule;
	const char	*msgs[6];
	const char	*kind, *says;
} order_days[] = {
	/* vite 2026-06-30 told two rollbacks, one of work added and
	   taken out the same day, before "sapphi-red released Vite 8.1.1" */
	{ "a release is told before the day's rollbacks", {
	    "fix: escape ids with multiple null bytes (#22687)\n",
	    "fix(bundled-dev): avoid stack overflow on "
	    "`import.meta.hot.invalidate()` (#22797)\n",
	    "release: v8.1.1\n",
	    "fix: revert, \"fix: escape ids with multiple null bytes "
	    "(#22687)\"\n\nThis reverts commit " ORDER_REVERTED ".\n",
	    "fix: revert, \"fix: resolve pnpm .modules.yaml from workspace "
	    "root instead of cwd (#22750)\"\n\nThis reverts commit "
	    "1111111111111111111111111111111111111111.\n", NULL },
	    "highlights", "8.1.1" },
	/* libuv 2024-07-29 led its opening with the EAGAIN fix, then told
	   the eventfd speedup first */
	{ "a fix that outranks the highlights goes first", {
	    "docs: fix a typo in the FAQ (#4470)\n",
	    "linux: eliminate a read on eventfd per wakeup (#4400)\n\n"
	    "Register the eventfd with EPOLLET to enable edge-triggered "
	    "notification\r\nwhere we're able to eliminate the overhead of "
	    "reading the eventfd via\r\nsystem call on each wakeup event.\n",
	    "win,error: remap ERROR_NO_DATA to EAGAIN (#4471)\n\nThis was "
	    "incorrectly mapped originally, which makes for confusing "
	    "error\r\nmessages about an EPIPE if a program happens to "
	    "(unwisely) set PIPE_WAIT\r\non the handle.\n", NULL },
	    "fixes", "EAGAIN" },
	/* curl 2026-06-01: the same-day rollback of a feature no user met
	   comes after the day's top change */
	{ "a same-day rollback does not lead", {
	    "tool: add a retry delay for transfers to same origin on 429 "
	    "(#21355)\n",
	    "setopt: CURLOPT_MAXCONNECTS set to 0 restores default value\n"
	    "\nCloses #21829\n",
	    "Revert \"tool: add a retry delay for transfers to same origin "
	    "on 429\"\n\nThis reverts commit " ORDER_REVERTED ".\n\nThis "
	    "needs some further work before we can do this.\n", NULL },
	    "highlights", "CURLOPT" },
	/* near misses: as before */
	{ "a rollback of earlier work still leads a feature", {
	    "docs: fix a typo in the FAQ (#11)\n",
	    "codec: add a frame checksum option (#10)\n",
	    "Revert \"Switch the default allocator\"\n\nThis reverts "
	    "commit 1111111111111111111111111111111111111111.\n", NULL },
	    "rollbacks", "default allocator" },
	{ "a feature still leads a small fix", {
	    "docs: fix a typo in the FAQ (#11)\n",
	    "fix the spacing of the help output (#12)\n",
	    "codec: add a frame checksum option (#10)\n", NULL },
	    "highlights", "frame checksum option" },
};

static void
test_order(void **state)
{
	const struct episode_segment	*seg;
	struct episode			*ep;
	struct day			*d;
	size_t				 i, k, n;

	(void)state;
	for (i = 0; i < sizeof order_days / sizeof order_days[0]; i++) {
		d = day_msg_new("vitejs/vite");
		for (k = 0; k < 6 && order_days[i].msgs[k] != NULL; k++)
			day_msg_add(d, order_days[i].msgs[k], k == 0 ?
			    ORDER_REVERTED : NULL, k + 0xabc0, 60 * k,
			    k % 2 ? "Grace Hopper" : "Ada Lovelace",
			    k % 2 ? "grace" : "ada", "src/a.c");
		day_pair_reverts(d);
		ep = day_msg_draft(d);
		assert_true(ep->nsegments > 2);
		seg = &ep->segments[1];
		n = strcspn(seg->text, "\n");	/* its first paragraph */
		if (strcmp(seg->kind, order_days[i].kind) != 0 ||
		    strstr(seg->text, order_days[i].says) == NULL ||
		    (size_t)(strstr(seg->text, order_days[i].says) -
		    seg->text) > n)
			fail_msg("%s: the first story told is %s: %s",
			    order_days[i].rule, seg->kind, seg->text);
		episode_free(ep);
		day_free(d);
	}
}

static void
test_quiet(void **state)
{
	struct day	*d;
	struct episode	*ep;

	(void)state;
	d = make_day(quiet, 1, 0);
	ep = draft(d);
	assert_non_null(segment(ep, "opening"));
	assert_non_null(segment(ep, "closing"));
	assert_null(segment(ep, "rollbacks"));
	assert_null(segment(ep, "focus"));
	assert_null(segment(ep, "fixes"));
	assert_int_equal(ep->nsegments, 3);
	assert_non_null(strstr(ep->transcript, "a single commit"));
	assert_non_null(strstr(ep->transcript, "Viktor Szakats"));
	assert_spoken_safe(ep->transcript);
	assert_true(ep->words < 150);
	episode_free(ep);
	day_free(d);
}

static void
test_empty(void **state)
{
	struct day	*d;
	struct episode	*ep;

	(void)state;
	d = make_day(NULL, 0, 0);
	ep = draft(d);
	assert_int_equal(ep->nsegments, 2);
	assert_string_equal(ep->segments[0].kind, "opening");
	assert_string_equal(ep->segments[1].kind, "closing");
	assert_non_null(strstr(ep->transcript, "no commits"));
	assert_int_equal(ep->stats.commits, 0);
	assert_true(ep->words < 80);
	episode_free(ep);
	day_free(d);
}

/* Phrasing varies with the day: two dates don't open the same way. */
static void
test_varies(void **state)
{
	struct day		*d;
	struct episode		*a, *b;
	struct episode_opts	 o;
	int			 differ = 0, day;

	(void)state;
	d = make_day(busy, sizeof busy / sizeof busy[0], 3);
	memset(&o, 0, sizeof o);
	o.year = 2026;
	o.month = 6;
	o.mday = 1;
	a = episode_draft(d, &o);
	for (day = 2; day < 10 && !differ; day++) {
		o.mday = day;
		b = episode_draft(d, &o);
		differ = strcmp(a->segments[0].text, b->segments[0].text) != 0 &&
		    strstr(a->segments[0].text, "June 1st") != NULL;
		episode_free(b);
	}
	assert_true(differ);
	/* no show given: named after the repository */
	assert_string_equal(a->show, "curl");
	episode_free(a);
	day_free(d);
}

static void
test_json(void **state)
{
	static const char *keys[] = { "show", "title", "description",
	    "published", "duration", "repository", "window", "stats",
	    "segments", "transcript", "nearby" };
	static const char *stats[] = { "commits", "merged_prs", "reverts",
	    "authors", "pushes", "force_pushes" };
	struct day	*d;
	struct episode	*ep;
	json_error_t	 err;
	json_t		*root, *v, *seg;
	char		*s;
	size_t		 i;

	(void)state;
	d = make_day(busy, sizeof busy / sizeof busy[0], 3);
	ep = draft(d);
	s = episode_render_json(ep);
	root = json_loads(s, 0, &err);
	if (root == NULL)
		fail_msg("JSON: %s", err.text);
	for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (json_object_get(root, keys[i]) == NULL)
			fail_msg("no key %s", keys[i]);
	for (i = 0; i < sizeof stats / sizeof stats[0]; i++)
		assert_true(json_is_integer(json_object_get(json_object_get(root,
		    "stats"), stats[i])));
	assert_string_equal(json_string_value(json_object_get(root,
	    "published")), "2026-06-01T10:00:44Z");
	assert_string_equal(json_string_value(json_object_get(root,
	    "duration")), json_string_value(json_object_get(root,
	    "duration")));
	assert_int_equal(strncmp(json_string_value(json_object_get(root,
	    "duration")), "PT", 2), 0);
	v = json_object_get(root, "window");
	assert_string_equal(json_string_value(json_object_get(v, "start")),
	    "2026-05-31T22:00:00Z");
	assert_true(json_is_string(json_object_get(v, "end")));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(
	    root, "stats"), "commits")), 9);
	v = json_object_get(root, "segments");
	assert_int_equal(json_array_size(v), ep->nsegments);
	json_array_foreach(v, i, seg) {
		assert_true(json_is_string(json_object_get(seg, "kind")));
		assert_true(json_is_string(json_object_get(seg, "text")));
		assert_true(json_is_array(json_object_get(seg, "commits")));
	}
	v = json_object_get(root, "nearby");
	assert_int_equal(json_array_size(v), 1);
	assert_string_equal(json_string_value(json_object_get(
	    json_array_get(v, 0), "title")), "Yesterday's Title");
	json_decref(root);
	free(s);
	episode_free(ep);

	/* an open window's end is null */
	d->end = 0;
	ep = draft(d);
	s = episode_render_json(ep);
	root = json_loads(s, 0, &err);
	assert_non_null(root);
	assert_true(json_is_null(json_object_get(json_object_get(root,
	    "window"), "end")));
	json_decref(root);
	free(s);
	episode_free(ep);
	day_free(d);
}

static void
test_markdown(void **state)
{
	struct day	*d;
	struct episode	*ep;
	char		*s;

	(void)state;
	d = make_day(busy, sizeof busy / sizeof busy[0], 3);
	ep = draft(d);
	s = episode_render_md(ep);
	assert_int_equal(strncmp(s, "# Curl Daily: ", 14), 0);
	assert_non_null(strstr(s, "- Show: Curl Daily\n"));
	assert_non_null(strstr(s, "- Published: 2026-06-01T10:00:44Z\n"));
	assert_non_null(strstr(s, "- Duration: PT"));
	assert_non_null(strstr(s, "\n## Transcript\n\n"));
	assert_non_null(strstr(s, "Today's Focus: Set `CURLOPT_MAXCONNECTS` to 0"));
	assert_non_null(strstr(s, "## Nearby episodes\n\n- 2026-05-31 — "
	    "Yesterday's Title\n"));
	/* the spoken transcript itself stays plain */
	assert_null(strchr(ep->transcript, '`'));
	free(s);
	episode_free(ep);
	day_free(d);
}

/* A day from messages, read the way the push handler reads them. */
static struct day *
message_day(const char *const *msgs, const char *const *names, size_t n)
{
	struct day	*d = day_new("pytorch/pytorch", 1775260800);
	struct commit	 c;
	size_t		 i;

	d->end = d->start + 86400;
	for (i = 0; i < n; i++) {
		memset(&c, 0, sizeof c);
		commit_set_message(&c, msgs[i]);
		xasprintf(&c.sha, "%040zx", i + 0xabc0);
		c.author_name = xstrdup(names[i]);
		c.author_login = xstrdup(names[i]);
		c.timestamp = d->start + (time_t)i;
		c.modified = record_list_pack("torch/_inductor/x.py",
		    sizeof("torch/_inductor/x.py"), 1);
		c.nmodified = 1;
		revert_parse(c.subject, c.body, &c.revert);
		assert_int_equal(day_add_commit(d, &c), 1);
	}
	day_pair_reverts(d);
	return d;
}

/*
 * Rollback stories from a bot revert: who asked, whether it was
 * automatic, why; a series told as progress; the focus only for a setting
 * a commit brings in, and the takeaway instead otherwise.
 */
static void
test_stories(void **state)
{
	static const char *const msgs[] = {
		"[inductor] Fuse the epilogue into the GEMM (#1)\n\nThis "
		    "makes small GEMMs 1.4x faster.\n",
		"Revert \"[inductor] Fuse the epilogue into the GEMM (#1)\"\n"
		    "\nThis reverts commit 000000000000000000000000000000000000"
		    "abc0.\n\nReverted https://github.com/pytorch/pytorch/pull/1"
		    " on behalf of https://github.com/malfet due to breaking "
		    "internal builds ([comment](https://x.y/1))\n",
		"Revert \"[dynamo] Trace len() (#2)\"\n\nThis reverts commit "
		    "1111111111111111111111111111111111111111.\n\nReverted "
		    "https://github.com/pytorch/pytorch/pull/2 on behalf of "
		    "https://github.com/pytorch-auto-revert due to Reverted "
		    "automatically by pytorch's autorevert, to avoid this "
		    "behaviour add the tag autorevert: disable ([comment]"
		    "(https://x.y/2))\n",
		"[XPU][9/12] Add the CUTLASS GEMM template\n\nThe ninth step "
		    "brings CUTLASS kernels to XPU.\n",
		"Fix a crash when TORCH_LOGS_FORMAT is empty\n\nThe logger "
		    "crashed on start with TORCH_LOGS_FORMAT set to nothing.\n",
	};
	static const char *const names[] = { "Ada Lovelace",
	    "pytorchmergebot", "pytorchmergebot", "Xinan Lin",
	    "Grace Hopper" };
	struct day			*d;
	struct episode			*ep;
	const struct episode_segment	*seg;
	char				*js;

	(void)state;
	d = message_day(msgs, names, 5);
	ep = draft(d);
	js = episode_render_json(ep);
	check_episode(d, ep, js);
	free(js);
	seg = segment(ep, "rollbacks");
	assert_non_null(seg);
	/* whose work, who asked, who carried it out, why */
	if (strstr(seg->text, "Ada Lovelace's change to fuse") == NULL)
		fail_msg("%s", seg->text);
	assert_non_null(strstr(seg->text, "malfet asked for the revert, and "
	    "a bot carried it out."));
	assert_null(strstr(seg->text, "Pytorchmergebot"));
	assert_non_null(strstr(seg->text, "\"Breaking internal builds.\""));
	assert_non_null(strstr(seg->text, "automatic revert"));
	assert_null(strstr(seg->text, "to avoid this behaviour"));
	seg = segment(ep, "highlights");
	assert_non_null(seg);
	assert_non_null(strstr(seg->text, "step nine of twelve"));
	/* TORCH_LOGS_FORMAT is only named by a fix: no tip made of it */
	assert_null(segment(ep, "focus"));
	assert_null(ep->focus);
	assert_non_null(segment(ep, "takeaway"));
	if (strstr(ep->title, "Rollback") == NULL)
		fail_msg("title: %s", ep->title);
	episode_free(ep);
	day_free(d);
}

/*
 * A sentence of text with the date said in it blanked out (new): what
 * repeats from day to day if the template does.
 */
static char *
template_of(const char *text, size_t len, const char *date)
{
	char	*t = xstrndup(text, len), *p;

	if (*date != '\0' && (p = strstr(t, date)) != NULL)
		memset(p, '#', strlen(date));
	return t;
}

/*
 * A show never opens or closes the same way twice within seven
 * consecutive days: over two months of the same day's records, each
 * week's greetings (the first sentence) and closings, date blanked out,
 * are seven different ones.
 */
static void
test_no_repeats(void **state)
{
	enum { NDAYS = 60, WEEK = 7 };
	struct day		*d;
	struct episode		*ep;
	struct episode_opts	 o;
	char			*open[NDAYS], *close[NDAYS], date[64];
	const char		*text;
	struct buf		 b;
	int			 day, i, j;

	(void)state;
	d = make_day(busy, sizeof busy / sizeof busy[0], 3);
	memset(&o, 0, sizeof o);
	o.show = "The Daily";
	for (day = 0; day < NDAYS; day++) {
		o.year = 2026;
		o.month = 6 + day / 30;
		o.mday = 1 + day % 30;
		ep = episode_draft(d, &o);
		buf_init(&b);
		spoken_date(&b, o.year, o.month, o.mday);
		snprintf(date, sizeof date, "%s", buf_str(&b));
		buf_free(&b);
		text = ep->segments[0].text;
		open[day] = template_of(text, strcspn(text, ".!") + 1, date);
		text = ep->segments[ep->nsegments - 1].text;
		close[day] = template_of(text, strlen(text), date);
		episode_free(ep);
	}
	for (i = 0; i < NDAYS; i++)
		for (j = i + 1; j < i + WEEK && j < NDAYS; j++) {
			if (strcmp(open[i], open[j]) == 0)
				fail_msg("days %d and %d open alike: %s", i, j,
				    open[i]);
			if (strcmp(close[i], close[j]) == 0)
				fail_msg("days %d and %d close alike: %s", i, j,
				    close[i]);
		}
	for (i = 0; i < NDAYS; i++) {
		free(open[i]);
		free(close[i]);
	}
	day_free(d);
}

/* Draft one generated day and check every invariant on it. */
static void
generated_one(uint64_t seed, size_t n)
{
	struct episode_opts	 o;
	struct day		*d;
	struct episode		*ep;
	const char		*who;
	char			*js, *md;

	d = gen_day(seed, n);
	day_pair_reverts(d);
	memset(&o, 0, sizeof o);
	o.show = "Generated Daily";
	o.published = d->end;
	ep = episode_draft(d, &o);
	js = episode_render_json(ep);
	md = episode_render_md(ep);
	check_episode(d, ep, js);
	if ((who = gen_stranger(d, ep->transcript)) != NULL)
		fail_msg("seed %llu names %s, who made no commit: %s",
		    (unsigned long long)seed, who, ep->transcript);
	assert_non_null(strstr(md, ep->title));
	assert_non_null(strstr(ep->segments[ep->nsegments - 1].text,
	    "Generated Daily"));
	if (n <= 1)
		assert_true(ep->words < 160);
	free(js);
	free(md);
	episode_free(ep);
	day_free(d);
}

/* Generated days, small to large: the invariants hold on every one. */
static void
test_generated(void **state)
{
	uint64_t	seed;

	(void)state;
	for (seed = 1; seed <= 300; seed++)
		generated_one(seed, (size_t)(seed % 7 == 0 ? 0 : seed % 60));
	generated_one(4242, 2000);
	generated_one(10000, 10000);
}

/*
 * A day's people the plain way: each author key (case-insensitively)
 * looked up among those so far, then a stable sort by commits, most
 * first. The reference for recap_people.
 */
static size_t
ref_people(const struct day *d, struct recap_person **out)
{
	struct recap_person	*v, t;
	const char		**keys, *key;
	const struct commit	*c;
	size_t			 n = 0, i, j;

	v = xcalloc(d->ncommits + 1, sizeof(*v));
	keys = xcalloc(d->ncommits + 1, sizeof(*keys));
	for (i = 0; i < d->ncommits; i++) {
		c = &d->commits[i];
		if ((key = commit_author_key(c)) == NULL)
			continue;
		for (j = 0; j < n && strcasecmp(keys[j], key) != 0; j++)
			continue;
		if (j == n) {
			keys[n] = key;
			v[n].bot = classify_is_bot(c->author_login,
			    c->author_name);
			/* the name as said is classify_name's (its rule,
			   "翠" said as a login, has its own tests) */
			v[n].name = classify_name(c, v[n].bot);
			n++;
		}
		v[j].commits++;
	}
	for (i = 1; i < n; i++) {
		t = v[i];
		for (j = i; j > 0 && v[j - 1].commits < t.commits; j--)
			v[j] = v[j - 1];
		v[j] = t;
	}
	free(keys);
	*out = v;
	return n;
}

/* recap_people lists a generated day's people as the reference does. */
static void
test_people_generated(void **state)
{
	static const size_t	 sizes[] = { 0, 1, 3, 40, 700, 3000 };
	struct recap_person	*got, *want;
	struct day		*d;
	size_t			 si, ngot, nwant, i;
	uint64_t		 seed;
	int			 kind;

	(void)state;
	for (kind = 0; kind < 3; kind++) {
		for (si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
			for (seed = 1; seed <= 4; seed++) {
				d = kind == 0 ? gen_day(seed, sizes[si]) :
				    kind == 1 ? gen_day_reverts(seed,
				    sizes[si]) : gen_day_authors(seed,
				    sizes[si]);
				ngot = recap_people(d, &got);
				nwant = ref_people(d, &want);
				assert_int_equal(ngot, nwant);
				for (i = 0; i < ngot; i++) {
					assert_string_equal(got[i].name,
					    want[i].name);
					assert_int_equal(got[i].commits,
					    want[i].commits);
					assert_int_equal(got[i].bot,
					    want[i].bot);
				}
				recap_people_free(got, ngot);
				recap_people_free(want, nwant);
				day_free(d);
			}
		}
	}
}

/* Hostile days draft with every invariant holding, as ordinary ones do. */
static void
test_flood_days(void **state)
{
	struct episode_opts	 o;
	struct day		*d;
	struct episode		*ep;
	char			*js;
	uint64_t		 seed;
	int			 kind;

	(void)state;
	for (kind = 0; kind < 2; kind++) {
		for (seed = 1; seed <= 40; seed++) {
			d = kind == 0 ? gen_day_reverts(seed, seed * 7) :
			    gen_day_authors(seed, seed * 7);
			day_pair_reverts(d);
			memset(&o, 0, sizeof o);
			o.show = "Flood Daily";
			o.published = d->end;
			ep = episode_draft(d, &o);
			js = episode_render_json(ep);
			check_episode(d, ep, js);
			free(js);
			episode_free(ep);
			day_free(d);
		}
	}
}

/*
 * Comparisons drafting a day of n commits makes, as emission does it:
 * pair, draft, and list the people.
 */
static unsigned long long
draft_work(int authors, size_t n)
{
	struct episode_opts	 o;
	struct recap_person	*people;
	struct episode		*ep;
	struct day		*d;
	unsigned long long	 before;
	size_t			 np;

	d = authors ? gen_day_authors(n, n) : gen_day_reverts(n, n);
	memset(&o, 0, sizeof o);
	o.show = "Flood Daily";
	o.published = d->end;
	before = count_cmp();
	day_pair_reverts(d);
	ep = episode_draft(d, &o);
	np = recap_people(d, &people);
	before = count_cmp() - before;
	recap_people_free(people, np);
	episode_free(ep);
	day_free(d);
	return before;
}

/*
 * Drafting is near-linear (issue #9, finding 4): a day of twice the
 * reverts, or twice the distinct authors, takes about twice the
 * comparisons (a little over, for sorting), not four times.
 */
static void
test_draft_scales(void **state)
{
	unsigned long long	w1, w2;
	int			authors;

	(void)state;
	for (authors = 0; authors <= 1; authors++) {
		w1 = draft_work(authors, 2000);
		w2 = draft_work(authors, 4000);
		print_message("drafting %s: 2000 commits %llu comparisons, "
		    "4000: %llu (x%.2f)\n", authors ? "authors" : "reverts",
		    w1, w2, (double)w2 / (double)w1);
		assert_true(w1 > 0);
		assert_true(w2 * 10 < w1 * 26);
	}
}

/*
 * A day classified in threads is drafted as it is by one: the JSON of
 * each kind of generated day (an ordinary busy one, one of nearly all
 * reverts, one of an author per commit) is the same byte for byte with
 * one thread, two and four, and again on a second draft.
 */
static void
test_draft_threads(void **state)
{
	static const int	 threads[] = { 2, 4, 0, 1 };
	struct episode_opts	 o;
	struct episode		*ep;
	struct day		*d;
	char			*one, *js;
	size_t			 t;
	int			 kind;

	(void)state;
	for (kind = 0; kind < 3; kind++) {
		d = kind == 0 ? gen_day(77, 3000) : kind == 1 ?
		    gen_day_reverts(3000, 3000) : gen_day_authors(3000, 3000);
		day_pair_reverts(d);
		memset(&o, 0, sizeof o);
		o.show = "Threaded Daily";
		o.published = d->end;
		o.threads = 1;
		ep = episode_draft(d, &o);
		one = episode_render_json(ep);
		assert_true(ep->words > 100);
		episode_free(ep);
		for (t = 0; t < sizeof threads / sizeof threads[0]; t++) {
			o.threads = threads[t];
			ep = episode_draft(d, &o);
			js = episode_render_json(ep);
			if (strcmp(js, one) != 0)
				fail_msg("kind %d, %d threads: the episode "
				    "differs from one thread's", kind,
				    threads[t]);
			free(js);
			episode_free(ep);
		}
		free(one);
		day_free(d);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_busy),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_quiet),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_varies),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_markdown),
		cmocka_unit_test(test_stories),
		cmocka_unit_test(test_no_repeats),
		cmocka_unit_test(test_generated),
		cmocka_unit_test(test_people_generated),
		cmocka_unit_test(test_flood_days),
		cmocka_unit_test(test_draft_scales),
		cmocka_unit_test(test_draft_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
