/* Unit tests for facts/classify.c: one row per classifier rule. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "classify.h"
#include "phrase.h"
#include "prose.h"
#include "quote.h"
#include "record.h"
#include "text.h"
#include "xmalloc.h"

#define SHA1 "c5fb460e7c7a57bf3e3a985d10a8b175bbd61500"

struct kind_case {
	const char		*rule;
	const char		*subject;
	const char		*body;
	const char		*file;	/* one modified file, or NULL */
	const char		*login;
	int			 is_revert, is_reland; /* as revert_parse says */
	enum classify_kind	 kind;
	const char		*area;	/* NULL: no area */
};

static const struct kind_case kinds[] = {
	{ "a series tag of no size is no area", "[5/x] parser: drop the "
	    "old tables", "", "src/parser.c", "a", 0, 0, CLASSIFY_CLEANUP,
	    "parser" },
	{ "git revert", "Revert \"tool: add a retry delay\"",
	    "This reverts commit " SHA1 ".", "src/tool.c", "daniel", 1, 0,
	    CLASSIFY_REVERT, "tool" },
	{ "curl (revert)", "lib: drop the cache (revert)", "", "lib/c.c",
	    "daniel", 0, 0, CLASSIFY_REVERT, "lib" },
	{ "revert info", "Back out the cache", "", "lib/c.c", "a", 1, 0,
	    CLASSIFY_REVERT, "lib" },
	{ "reland tag", "[reland][xpu] INT8 quantization on Intel XPU", "",
	    "test/q/test_int8.py", "x", 0, 0, CLASSIFY_RELAND, "XPU" },
	{ "reapply", "Reapply \"add the cache\"", "", "lib/c.c", "a", 0, 0,
	    CLASSIFY_RELAND, "lib" },
	{ "revert of revert", "Revert \"Revert \"add the cache\"\"", "",
	    "lib/c.c", "a", 0, 0, CLASSIFY_RELAND, "lib" },
	{ "reland info", "Bring back the cache", "", "lib/c.c", "a", 0, 1,
	    CLASSIFY_RELAND, "lib" },
	{ "feature words + tag area", "[inductor] Add fused attention kernel",
	    "", "torch/_inductor/k.py", "a", 0, 0, CLASSIFY_FEATURE,
	    "inductor" },
	{ "perf words", "[X86] Speed up int8 GEMM", "", "src/gemm.c", "a",
	    0, 0, CLASSIFY_PERF, "X86" },
	{ "conventional fix + scope", "fix(parser): handle empty input", "",
	    "src/parser.c", "a", 0, 0, CLASSIFY_FIX, "parser" },
	{ "fix words", "Prevent a crash on empty config", "", "src/cfg.c",
	    "a", 0, 0, CLASSIFY_FIX, "src" },
	{ "docs files", "Update the install guide", "", "docs/install.md",
	    "a", 0, 0, CLASSIFY_DOCS, "docs" },
	{ "conventional docs", "docs: fix duplicate reference labels", "",
	    "docs/source/a.rst", "a", 0, 0, CLASSIFY_DOCS, "docs" },
	{ "tests files", "Skip test_fsdp2 on new PyTorch", "",
	    "test/test_low_bit_optim.py", "a", 0, 0, CLASSIFY_TESTS, "test" },
	{ "curl scope build", "cmake: add a way to select tests", "",
	    "tests/CMakeLists.txt", "a", 0, 0, CLASSIFY_BUILD, "cmake" },
	{ "a build file among a test's data is the test's", "Rework the "
	    "backend check", "", "tests/data/src/chatty/pyproject.toml", "a",
	    0, 0, CLASSIFY_TESTS, "tests" },
	{ "ci files", "Run the macOS jobs on arm64", "",
	    ".github/workflows/macos.yml", "a", 0, 0, CLASSIFY_BUILD,
	    ".github" },
	{ "bot bump", "Bump lodash from 4.17.20 to 4.17.21", "",
	    "package.json", "dependabot[bot]", 0, 0, CLASSIFY_DEPS, NULL },
	/* cargo 2025-09-12: "bump" in a job's name is no bump (issue #27) */
	{ "a bump inside a name", "chore: Skip check-version-bump ci job in "
	    "forks", "", ".github/workflows/main.yml", "a", 0, 0,
	    CLASSIFY_BUILD, ".github" },
	{ "a bump word of its own", "deps: bumped serde to 1.0.200", "",
	    "Cargo.toml", "a", 0, 0, CLASSIFY_DEPS, NULL },
	{ "a bump of a name's part", "Bump tokio-util to 0.7.12", "",
	    "Cargo.toml", "a", 0, 0, CLASSIFY_DEPS, NULL },
	{ "version update", "Update pytorch_sphinx_theme2 version to 0.4.3",
	    "", "docs/requirements.txt", "a", 0, 0, CLASSIFY_DEPS, "docs" },
	{ "conventional deps", "chore(deps): update rust crate serde", "",
	    "Cargo.toml", "renovate[bot]", 0, 0, CLASSIFY_DEPS, "deps" },
	{ "an update to a v-version", "Update the runner image to v24", "",
	    "main.c", "a", 0, 0, CLASSIFY_DEPS, NULL },
	{ "an update linking to a word in v is no version", "feat: update "
	    "dynamic import warning to link to Vite docs", "",
	    "a.ts", "a", 0, 0, CLASSIFY_FEATURE, NULL },
	{ "an update from a word in v is no version", "Update the parser "
	    "from vendored sources", "", "parse.c", "a", 0, 0,
	    CLASSIFY_CHANGE, NULL },
	{ "cleanup words, package dir", "Delete deprecated QDQLayout",
	    "", "torchao/dtypes/uintx/q.py", "a", 0, 0, CLASSIFY_CLEANUP,
	    "dtypes" },
	{ "conventional refactor", "refactor(core): split the parser", "",
	    "src/core/p.c", "a", 0, 0, CLASSIFY_CLEANUP, "core" },
	{ "curl scope, plain change", "setopt: defref the old referer", "",
	    "lib/setopt.c", "a", 0, 0, CLASSIFY_CHANGE, "setopt" },
	{ "two-word scope", "data creds: detect change", "", "lib/creds.c",
	    "a", 0, 0, CLASSIFY_CHANGE, "data creds" },
	/* a fix of the docs is no fix a user runs (issue #27) */
	{ "a fix of doc examples is docs", "codec: fix broken "
	    "length_delimited builder doc examples", "",
	    "tokio-util/src/codec/length_delimited.rs", "a", 0, 0,
	    CLASSIFY_DOCS, "codec" },
	{ "a crash fix near the docs is a fix", "Fix a crash when the "
	    "docs index is empty", "", "src/index.c", "a", 0, 0,
	    CLASSIFY_FIX, "src" },
	{ "a fix of code and docs stays a fix", "Fix --stream-errors w/o "
	    "--stream, and doc+test (close #2748)", "", "src/main.c", "a", 0,
	    0, CLASSIFY_FIX, "src" },
	{ "a fix with no docs word stays a fix", "codec: fix the "
	    "length_delimited builder", "",
	    "tokio-util/src/codec/length_delimited.rs", "a", 0, 0,
	    CLASSIFY_FIX, "codec" },
};

static void
fill(struct commit *c, const struct kind_case *k)
{
	memset(c, 0, sizeof *c);
	c->sha = xstrdup(SHA1);
	c->author_name = xstrdup("Ada Lovelace");
	c->author_login = xstrdup(k->login);
	c->subject = xstrdup(k->subject);
	c->body = xstrdup(k->body);
	if (k->file != NULL) {
		c->modified = record_list_dup((char *const *)&k->file, 1);
		c->nmodified = 1;
	}
	c->revert.is_revert = k->is_revert;
	c->revert.is_reland = k->is_reland;
	c->reverts_idx = c->reverted_by_idx = -1;
}

static void
test_kinds(void **state)
{
	struct commit	 c;
	struct classify	 cl;
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		fill(&c, &kinds[i]);
		classify_commit(&c, "pytorch/ao", &cl);
		if (cl.kind != kinds[i].kind)
			fail_msg("%s: kind %s, want %s", kinds[i].rule,
			    classify_kind_name(cl.kind),
			    classify_kind_name(kinds[i].kind));
		if (kinds[i].area == NULL && cl.area != NULL)
			fail_msg("%s: area %s, want none", kinds[i].rule,
			    cl.area);
		if (kinds[i].area != NULL && (cl.area == NULL ||
		    strcmp(cl.area, kinds[i].area) != 0))
			fail_msg("%s: area %s, want %s", kinds[i].rule,
			    cl.area != NULL ? cl.area : "(none)",
			    kinds[i].area);
		classify_clear(&cl);
		commit_clear(&c);
	}
}

static void
test_bots(void **state)
{
	static const struct {
		const char	*login, *name;
		int		 bot;
		const char	*spoken;
	} cases[] = {
		{ "dependabot[bot]", "dependabot[bot]", 1, "Dependabot" },
		{ "renovate[bot]", NULL, 1, "Renovate" },
		{ "renovate", "Renovate Bot", 1, "Renovate" },
		{ NULL, "github-actions[bot]", 1, "GitHub Actions" },
		{ "some-ci-bot", NULL, 1, "Some ci bot" },
		{ "pytorchmergebot", NULL, 1, "Pytorchmergebot" },
		{ "daniel-stenberg", "Daniel Stenberg", 0, NULL },
		{ "talbot", "Anne Talbot", 0, NULL },
		{ "k8s-ci-robot", NULL, 1, NULL },
		{ "release_bot", NULL, 1, NULL },
		{ "pytorchupdatebot", NULL, 1, NULL },
		{ "vllmupdatebot", NULL, 1, NULL },
		{ "bors", "bors", 1, NULL },
		{ NULL, "Abbot Hale", 0, NULL },
		{ "robotframework-dev", "Rob Ott", 0, NULL },
		{ NULL, "tmux update bot", 1, NULL },
		{ NULL, "docs build robot", 1, NULL },
		{ "cabot", "Ann Cabot", 0, NULL },
	};
	size_t	 i;
	char	*s;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		assert_int_equal(classify_is_bot(cases[i].login,
		    cases[i].name), cases[i].bot);
		if (cases[i].spoken == NULL)
			continue;
		s = classify_bot_name(cases[i].login, cases[i].name);
		assert_string_equal(s, cases[i].spoken);
		free(s);
	}
}

static void
test_what(void **state)
{
	static const struct {
		const char *subject, *want;
	} cases[] = {
		{ "[X86] Re-enable DA8W4 path on X86 CPU (#4033)",
		    "Re-enable DA8W4 path on X86 CPU" },
		{ "fix(parser)!: handle empty input", "handle empty input" },
		{ "tool: add a retry delay on 429", "add a retry delay on 429" },
		{ "lib: drop the cache (revert)", "drop the cache" },
		{ "Fix `foo()` in the README.", "Fix foo() in the README" },
		{ "Plain subject", "Plain subject" },
		/* a leading issue reference goes */
		{ "Fix #1245: Preserve comments in blocks (#4811)",
		    "Preserve comments in blocks" },
		{ "GH-88: add the flag", "add the flag" },
		/* redis 2020-08-11 */
		{ "see #7250, fix signature of RedisModule_Deauthenticate "
		    "(#7645)", "fix signature of RedisModule_Deauthenticate" },
		{ "#12, #13: both", "number 12, number 13: both" },
		{ "Fix #12, #13 and #14", "Fix number 12, number 13 and "
		    "number 14" },
		{ "win,error: remap ERROR_NO_DATA to EAGAIN",
		    "remap ERROR_NO_DATA to EAGAIN" },
		{ "add a checksum of old artifacts (close #1999)",
		    "add a checksum of old artifacts" },
		{ "print errors plainly (fixes #2063)", "print errors plainly" },
		{ "add a flake, for now (fixes#3577)", "add a flake, for now" },
		/* a trailing one after a comma goes too (fd 2021-08-08) */
		{ "Handle IO errors based on type, closes #737",
		    "Handle IO errors based on type" },
		{ "Drop the lock early; fixes #12", "Drop the lock early" },
		{ "Tidy the parser - see #4", "Tidy the parser" },
		{ "Pick a winner, #1", "Pick a winner, number 1" },
		{ "Put it at #1", "Put it at number 1" },
		{ "keep (the #1 spot)", "keep (the number 1 spot)" },
		{ "keep (GH-12: x)", "keep (GH-12: x)" },
		{ "Fix #12 in the parser", "Fix number 12 in the parser" },
		/* a fix of a named thing by a verb phrase */
		{ "Fix CI: Pin nushell version to 0.114 (#4898)",
		    "Pin nushell version to 0.114 to fix CI" },
		{ "Fix CI: broken cache", "Fix CI: broken cache" },
		/* a subject named like a branch */
		{ "fix_fmt_skip_in_one_liners (#4800)",
		    "fix fmt skip in one liners" },
		{ "add-retry-option", "add retry option" },
		{ "create-vite", "create-vite" },
		{ "Update_Docs_now", "Update_Docs_now" },
	};
	size_t	 i;
	char	*s;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		s = classify_what(cases[i].subject);
		assert_string_equal(s, cases[i].want);
		free(s);
	}
}

static void
test_clean(void **state)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{ "see https://github.com/o/r/issues/1 for more",
		    "see for more" },
		{ "flagged in https://github.com/o/r/issues/1.", "flagged." },
		{ "ask ada@example.com now", "ask now" },
		{ "ask ada@example.com.", "ask." },
		{ "upgrade to send@0.19.0 and body-parser@^1.20.3",
		    "upgrade to send 0.19.0 and body-parser 1.20.3" },
		{ "Follow-up to " SHA1 " here", "Follow-up to here" },
		{ "short c5fb460 sha", "short sha" },
		{ "use `CURLOPT_X` and **bold**", "use CURLOPT_X and bold" },
		{ "thanks @liangan1", "thanks liangan1" },
		{ "from #4074 and (#12)", "from number 4074 and" },
		{ "a [link](https://x.y/z) here", "a link here" },
		{ "deadbeef stays, 2026 stays", "deadbeef stays, 2026 stays" },
		{ "see issue #12 and PR #7", "see issue 12 and PR 7" },
		{ "an *emphasised* word", "an emphasised word" },
	};
	size_t	 i;
	char	*s;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		s = text_clean(cases[i].in);
		assert_string_equal(s, cases[i].want);
		free(s);
	}
}

static void
test_prose(void **state)
{
	static const struct {
		const char *subject, *body, *want;
	} cases[] = {
		{ "Revert \"x\"", "This reverts commit " SHA1 ".\n\n"
		    "This needs some further work before we can do this.\n\n"
		    "Fixes #21822\nCloses #21824\n",
		    "This needs some further work before they can do this." },
		{ "Add an fp8 folder", "Stack from ghstack (oldest at "
		    "bottom):\n* __->__ #3700\n\nIt adds a folder for fp8 "
		    "experiments.\n", "It adds a folder for fp8 experiments." },
		{ "Fix a thing", "Summary:\n\nFixes #3867. We were missing "
		    "handling None.\n\nTest Plan:\n\n```\npytest x\n```\n",
		    "The authors said they were missing handling None." },
		{ "Add x", "**Summary:** As of https://x.y/1,\ntorchao is ABI "
		    "stable, so we drop it. Second one here now. Third is "
		    "not read.\n", "Torchao is ABI stable, so they drop it. "
		    "Second one here now." },
		{ "Refine", "* Refine code\n\n* Fix typo\n\n---------\n\n"
		    "Co-authored-by: A <a@b.c>\n", "" },
		/* a sentence leaning on a bare "#N" goes, the rest stays */
		{ "Quiet warnings", "#4074 and #4100 deprecated classes, "
		    "which warned. This commit suppresses these warnings.\n",
		    "It suppressed these warnings." },
		/* an imperative becomes "It <past> ..."; "Also:" goes */
		{ "creds", "Reshuffle code a little to detect changes. Also: "
		    "rename the callback to match.\n", "It reshuffled code a "
		    "little to detect changes. It also renamed the callback "
		    "to match." },
		/* a trailing list of identifiers is not read out */
		{ "examples", "Replacing calls deprecated by OpenSSL 3, fixing "
		    "builds with the latter: `PEM_read()`, `RSA_free()`.\n",
		    "Replacing calls deprecated by OpenSSL 3, fixing builds "
		    "with the latter." },
		/* a sentence that only says the subject again goes */
		{ "Suppress warnings from old classes", "This commit "
		    "suppresses these warnings in this case. Users see a "
		    "clean import now.\n", "Users see a clean import now." },
		/* words to the reader are reported; a "This PR" it can't
		 * say goes */
		{ "knob", "Set the knob to 3 to try it. This PR address it.\n",
		    "It said you could set the knob to 3 to try it." },
		{ "this PR, auxiliary", "This PR is a follow-up to the fix.\n",
		    "This PR is a follow-up to the fix." },
		{ "Add y", "Pull Request resolved: https://x.y/2\n"
		    "ghstack-source-id: 123\nDifferential Revision: D1\n"
		    "Approved by: https://github.com/bob\n"
		    "Signed-off-by: A <a@b.c>\n", "" },
	};
	size_t	 i;
	char	*s;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		s = prose_of(cases[i].body, cases[i].subject, 2);
		assert_string_equal(s, cases[i].want);
		free(s);
	}
}

static void
test_figures(void **state)
{
	static const struct {
		const char	*text;
		size_t		 n;
		const char	*first, *second;
	} cases[] = {
		{ "1.7x speedup for single output and 1.4x for many", 2,
		    "1.7x", "1.4x" },
		{ "cuts memory by 35% and saves 2.5 GB", 2, "35%", "2.5 GB" },
		{ "p99 down to 12 ms", 1, "12 ms", NULL },
		{ "version 2.11.0 and 0x1f and x86 and on 429", 0, NULL, NULL },
		{ "3 times faster", 1, "3 times", NULL },
	};
	char	*figs[CLASSIFY_MAXFIGURES];
	size_t	 i, n, j;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		n = quote_figures(cases[i].text, figs, CLASSIFY_MAXFIGURES);
		assert_int_equal(n, cases[i].n);
		if (n > 0)
			assert_string_equal(figs[0], cases[i].first);
		if (n > 1)
			assert_string_equal(figs[1], cases[i].second);
		for (j = 0; j < n; j++)
			free(figs[j]);
	}
}

static void
test_settings(void **state)
{
	static const struct {
		const char *subject, *body, *want;
	} cases[] = {
		{ "setopt: CURLOPT_MAXCONNECTS set to 0 restores default", "",
		    "CURLOPT_MAXCONNECTS" },
		{ "Add OOM rejection", "Set `PYTORCH_CUDA_ALLOC_CONF=per_process"
		    "_memory_fraction:0.95,throw_on_cudamalloc_oom:true` to "
		    "try it.", "PYTORCH_CUDA_ALLOC_CONF=per_process_memory_"
		    "fraction:0.95,throw_on_cudamalloc_oom:true" },
		{ "tool: add --retry-all-errors", "", "--retry-all-errors" },
		{ "Add a knob", "Use `max_split_size=64` for this.",
		    "max_split_size=64" },
		{ "tests: drop unused NGTCP2_ONLY_MSG", "", NULL },
		{ "Fix macro", "```\nFOO_BAR_BAZ = 1\n```\n", NULL },
		{ "Add a thing", "auto-sets use_dynamic=False here", NULL },
		{ "Plain change", "Nothing to see, ABI and CI only.", NULL },
	};
	size_t	 i;
	char	*s;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		s = quote_setting(cases[i].subject, cases[i].body);
		if (cases[i].want == NULL) {
			if (s != NULL)
				fail_msg("row %zu: found %s", i, s);
		} else {
			assert_non_null(s);
			assert_string_equal(s, cases[i].want);
		}
		free(s);
	}
}

/* A setting is told in Today's Focus only when the message brings it in. */
static void
test_setting_new(void **state)
{
	static const struct {
		const char *subject, *body, *setting;
		int want;
	} cases[] = {
		{ "Add OOM rejection", "You can now set `FOO_BAR_CONF=x:1`.",
		    "FOO_BAR_CONF=x:1", 1 },
		{ "tool: add --retry-all-errors", "", "--retry-all-errors", 1 },
		{ "Fix crash", "The crash showed up as CURLE_BAD_THING in logs.",
		    "CURLE_BAD_THING", 0 },
		{ "setopt: CURLOPT_MAXCONNECTS set to 0 restores default", "",
		    "CURLOPT_MAXCONNECTS", 1 },
		{ "Fix a crash", "It crashed with FOO_FORMAT set to nothing.",
		    "FOO_FORMAT", 0 },
		{ "x", "", NULL, 0 },
	};
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		if (quote_setting_new(cases[i].subject, cases[i].body,
		    cases[i].setting) != cases[i].want)
			fail_msg("row %zu", i);
	}
}

/* A squash merge's list of short commit bullets is not prose. */
static void
test_squash(void **state)
{
	static const struct kind_case squash = { "squash",
	    "[X86] Re-enable the fast path (#4033)", "* Re-enable the fast "
	    "path on X86 CPU with opaque tensors\n\n* Refine the code "
	    "here\n\n* Fix the circular import\n\n* Add doc and "
	    "example\n\n* Update the docs again\n", "torchao/x.py", "a",
	    0, 0, CLASSIFY_FEATURE, "X86" };
	struct commit	 c;
	struct classify	 cl;

	(void)state;
	fill(&c, &squash);
	classify_commit(&c, "o/r", &cl);
	commit_clear(&c);
	/* the first bullet extends the subject and becomes the what */
	assert_string_equal(cl.what, "Re-enable the fast path on X86 CPU with "
	    "opaque tensors");
	assert_string_equal(cl.prose, "");
	classify_clear(&cl);
}

/*
 * A paragraph after squashed bullets the listener never hears: one of
 * its sentences leaning on them goes (issue 27); a plain one stays.
 */
static void
test_squash_leaning(void **state)
{
	static const struct kind_case leaning = { "squash, then leaning",
	    "Fix the chunked reader (#4033)", "* Refine the code here\n\n"
	    "* Fix the circular import\n\n* Add doc and example\n\nThis "
	    "shipped in public releases since 1.25.\n", "src/x.c", "a", 0,
	    0, CLASSIFY_FIX, NULL };
	static const struct kind_case plain = { "squash, then plain",
	    "Fix the chunked reader (#4033)", "* Refine the code here\n\n"
	    "* Fix the circular import\n\n* Add doc and example\n\nThe "
	    "reader stops at the chunk's end now.\n", "src/x.c", "a", 0,
	    0, CLASSIFY_FIX, NULL };
	struct commit	 c;
	struct classify	 cl;

	(void)state;
	fill(&c, &leaning);
	classify_commit(&c, "o/r", &cl);
	classify_prose(&c, &cl);
	commit_clear(&c);
	assert_null(strstr(cl.prose, "This shipped"));
	classify_clear(&cl);
	fill(&c, &plain);
	classify_commit(&c, "o/r", &cl);
	classify_prose(&c, &cl);
	commit_clear(&c);
	assert_non_null(strstr(cl.prose, "chunk's end"));
	classify_clear(&cl);
}

static void
test_series(void **state)
{
	static const struct {
		const char	*subject;
		int		 ok, part, total;
	} cases[] = {
		{ "[inductor][3/15] XPU GEMM step", 1, 3, 15 },
		{ "XPU GEMM (9/12)", 1, 9, 12 },
		{ "[X86] no series", 0, 0, 0 },
		{ "ratio [5/3] is wrong", 0, 0, 0 },
		{ "[XPU] GEMM step 9: add epilogue", 1, 9, 0 },
		{ "Refactor loader, part 2 of 5", 1, 2, 5 },
		{ "Step 3/7 of the migration", 1, 3, 7 },
		{ "stepwise 3 changes", 0, 0, 0 },
		{ "part 2a of the plan", 0, 0, 0 },
		{ "step 0 is not a step", 0, 0, 0 },
		{ "[mypyc] Add librt.vecs (part 1/2) (#20653)", 1, 1, 2 },
		{ "Crossreferences in mypy docs, part 7 (#7699)", 1, 7, 0 },
		{ "Namespaces refactor part 2 (#5690)", 1, 2, 0 },
		{ "Fix CI failure (part 2) (#4503)", 1, 2, 0 },
		{ "[pat] (5/5) Add NMSparseConstraint (#4381)", 1, 5, 5 },
		{ "[2/N] Move the allocator", 1, 2, 0 },
		{ "Deprecate experimental part 3/x (#2976)", 1, 3, 0 },
		{ "Inference tutorial - Part 3 of e2e series", 1, 3, 0 },
		{ "Fix a crash with step 2 in a tuple index", 0, 0, 0 },
		{ "Make it part of the API", 0, 0, 0 },
		{ "Split part 2 into its own module", 0, 0, 0 },
		{ "[2/Now] is no marker", 0, 0, 0 },
	};
	size_t	i;
	int	part, total;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		part = total = 0;
		assert_int_equal(classify_series(cases[i].subject, &part,
		    &total), cases[i].ok);
		if (cases[i].ok) {
			assert_int_equal(part, cases[i].part);
			assert_int_equal(total, cases[i].total);
		}
	}
}

static void
test_past(void **state)
{
	static const struct {
		const char *verb, *want;
	} cases[] = {
		{ "add", "added" }, { "Fix", "fixed" }, { "remove", "removed" },
		{ "drop", "dropped" }, { "re-enable", "re-enabled" },
		{ "simplify", "simplified" }, { "make", "made" },
		{ "set", "set" }, { "tidy", "tidied" }, { "CURLOPT_X", NULL },
		{ "data", NULL },
	};
	size_t	 i;
	char	*s;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		s = phrase_verb_past(cases[i].verb, strlen(cases[i].verb));
		if (cases[i].want == NULL)
			assert_null(s);
		else
			assert_string_equal(s, cases[i].want);
		free(s);
	}
}

/* Significance: figures, files and a series rank a change higher. */
static void
test_score(void **state)
{
	static const struct kind_case plain = { "plain",
	    "tool: add a flag", "", "src/tool.c", "a", 0, 0,
	    CLASSIFY_FEATURE, "tool" };
	static const struct kind_case rich = { "rich",
	    "[inductor][2/5] Add fused kernel", "This makes attention 1.7x "
	    "faster and saves 2.5 GB of memory on large models.",
	    "torch/_inductor/k.py", "a", 0, 0, CLASSIFY_FEATURE, "inductor" };
	struct commit	 c;
	struct classify	 a, b;

	(void)state;
	fill(&c, &plain);
	classify_commit(&c, "o/r", &a);
	commit_clear(&c);
	fill(&c, &rich);
	classify_commit(&c, "o/r", &b);
	commit_clear(&c);
	assert_true(b.score > a.score);
	assert_int_equal(b.nfigures, 2);
	assert_int_equal(b.series_part, 2);
	assert_int_equal(b.series_total, 5);
	classify_clear(&a);
	classify_clear(&b);
}

/*
 * A merge button's commit ("Merge pull request #N from OWNER/BRANCH",
 * the title as the body's first line) is read as the pull request it
 * merged; another "Merge ..." subject is left as it is.
 */
static void	fill_files(struct commit *, const char *, const char *,
		    const char *, size_t);

static void
test_merge_title(void **state)
{
	static const struct {
		const char		*subject, *body, *what;
		enum classify_kind	 kind;
	} cases[] = {
		{ "Merge pull request #7092 from psf/dependabot/github_actions/"
		    "actions/checkout-6.0.0", "Bump actions/checkout from 5.0.0 "
		    "to 6.0.0", "Bump actions/checkout from 5.0.0 to 6.0.0",
		    CLASSIFY_DEPS },
		{ "Merge pull request #12 from ada/fix-hang",
		    "\nFix a hang when the server closes early\n\nThe loop "
		    "waited forever.", "Fix a hang when the server closes early",
		    CLASSIFY_FIX },
		{ "Merge pull request #12 from ada/fix-hang", "",
		    "Merge pull request 12 from ada/fix-hang", CLASSIFY_FIX },
		{ "Merge branch 'main' into feature", "Fix the docs",
		    "Merge branch 'main' into feature", CLASSIFY_FEATURE },
		{ "Merge pull request from GHSA-m2qf-hxjv-5gpq",
		    "set Vary: Cookie header consistently for session",
		    "set Vary: Cookie header consistently for session",
		    CLASSIFY_CHANGE },
	};
	struct commit	 c;
	struct classify	 cl;
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		fill_files(&c, cases[i].subject, cases[i].body, "ada", 1);
		classify_commit(&c, "o/r", &cl);
		if (strcmp(cl.what, cases[i].what) != 0 ||
		    cl.kind != cases[i].kind)
			fail_msg("case %zu: what \"%s\" kind %s, want \"%s\" "
			    "%s", i, cl.what, classify_kind_name(cl.kind),
			    cases[i].what, classify_kind_name(cases[i].kind));
		/* the commit itself is left as it came */
		assert_string_equal(c.subject, cases[i].subject);
		/* an advisory's fix is a security fix, whatever it says */
		assert_int_equal(cl.advisory, strstr(cases[i].subject,
		    "GHSA-") != NULL);
		if (cl.advisory && cl.score < 8.0)
			fail_msg("an advisory's fix scores %.2f", cl.score);
		commit_clear(&c);
		classify_clear(&cl);
	}
}

/*
 * git's merge of a branch is bookkeeping: its body (other commits'
 * subjects run together) is not told, and it ranks below a plain fix.
 */
static void
test_branch_merge(void **state)
{
	struct commit	 c;
	struct classify	 merge, fix, quoted;

	(void)state;
	fill_files(&c, "Merge remote-tracking branch 'refs/remotes/up/master'",
	    "fix window_copy_mouse_in_selection() indentation; ok nicm Work "
	    "out a single layout for the entire prompt, 2x faster.", "tam",
	    3);
	classify_commit(&c, "o/r", &merge);
	commit_clear(&c);
	fill_files(&c, "Fix the prompt layout", "", "tam", 1);
	classify_commit(&c, "o/r", &fix);
	commit_clear(&c);
	assert_true(merge.merge);
	assert_string_equal(merge.prose, "");
	assert_int_equal(merge.nfigures, 0);
	assert_false(fix.merge);
	/* git's own wording for a merge of a named ref, too */
	fill_files(&c, "Merge 'tokio-1.43.3' into 'tokio-1.47.x'", "", "qi",
	    1);
	classify_commit(&c, "o/r", &quoted);
	commit_clear(&c);
	assert_true(quoted.merge);
	classify_clear(&quoted);
	if (!(fix.score > merge.score))
		fail_msg("a merge %.2f ranks over a fix %.2f", merge.score,
		    fix.score);
	classify_clear(&merge);
	classify_clear(&fix);
}

/* A commit of n modified files under dir, for the selection table. */
static void
fill_files(struct commit *c, const char *subject, const char *body,
    const char *login, size_t n)
{
	size_t	  i;
	char	**names;

	memset(c, 0, sizeof *c);
	c->sha = xstrdup(SHA1);
	c->author_name = xstrdup("Ada Lovelace");
	c->author_login = xstrdup(login);
	c->subject = xstrdup(subject);
	c->body = xstrdup(body);
	names = xcalloc(n + 1, sizeof(*names));
	for (i = 0; i < n; i++)
		xasprintf(&names[i], "src/part%zu/file%zu.c", i % 7, i);
	c->modified = record_list_dup(names, n);
	c->nmodified = n;
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	c->reverts_idx = c->reverted_by_idx = -1;
}

/*
 * Selection by what matters to a user: in each row the first commit
 * must rank above the second, whatever their file counts (the first
 * touches one file, the second forty).
 */
static void
test_selection(void **state)
{
	static const struct {
		const char	*rule;
		const char	*hi_subject, *hi_body;
		const char	*lo_subject, *lo_body;
	} rows[] = {
		{ "a release over CI", "release: v8.1.1", "",
		    "ci: bump the shard count to 8", "" },
		{ "a wrong-result fix over a refactor",
		    "Fix wrong results in int8 matmul with bias", "",
		    "refactor: move the quantizer helpers", "" },
		{ "a hang fix over a dependency pin",
		    "Fix a hang when the server closes early", "",
		    "Update actions/cache to v6", "" },
		{ "a default flipped over tests", "Disable NTLM by default",
		    "", "tests: add cases for the parser", "" },
		{ "support dropped over unused imports",
		    "Drop RTMP support", "RTMP support is removed.",
		    "Remove unused imports", "" },
		{ "a raised minimum over other build work",
		    "cmake: require CMake 3.18 or newer", "",
		    "ci: run the jobs on arm64", "" },
		{ "a security fix over a feature",
		    "Fix heap buffer overflow in the URL parser",
		    "CVE-2026-1234.", "Add a --retry-delay flag", "" },
		{ "figures over a cleanup", "Speed up int8 GEMM",
		    "This makes GEMM 1.7x faster for single-output graphs.",
		    "Clean up the GEMM dispatch", "" },
		{ "a crash fix over docs", "Prevent a crash on empty config",
		    "", "docs: rewrite the install guide", "" },
		/* the project's own release is no dependency bump (#27) */
		{ "a version bump of the project over a feature",
		    "Bumped v5.8.2", "", "Add a --retry-delay flag", "" },
		{ "a prepared release over a fix",
		    "chore: prepare to release v1.52.1", "",
		    "Fix a hang when the server closes early", "" },
		/* warning words weigh only for code users run (#27) */
		{ "a plain feature over a CI script's security words",
		    "Add the cache option", "",
		    "ci: fix the security scan script crashing on forks", "" },
		{ "a plain fix over a test pin's crash",
		    "Fix the prompt layout", "",
		    "test: pin the crash test to one worker", "" },
		{ "a person over a bot's release", "Add the cache option",
		    "", "release: v2.0.0", "" },
	};
	struct commit	 c;
	struct classify	 hi, lo;
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		fill_files(&c, rows[i].hi_subject, rows[i].hi_body, "ada", 1);
		classify_commit(&c, "o/r", &hi);
		commit_clear(&c);
		fill_files(&c, rows[i].lo_subject, rows[i].lo_body,
		    i + 1 == sizeof rows / sizeof rows[0] ?
		    "release-bot[bot]" : "ada", 40);
		classify_commit(&c, "o/r", &lo);
		commit_clear(&c);
		if (!(hi.score > lo.score))
			fail_msg("%s: %.2f (%s) is not above %.2f (%s)",
			    rows[i].rule, hi.score, rows[i].hi_subject,
			    lo.score, rows[i].lo_subject);
		classify_clear(&hi);
		classify_clear(&lo);
	}
}

/*
 * classify_commit_lazy reads what classify_commit does, the prose and
 * figures once classify_prose has run: the score never waits on them.
 */
static void
test_lazy(void **state)
{
	static const struct {
		const char *subject, *body;
	} cases[] = {
		{ "Speed up int8 GEMM", "This makes GEMM 1.7x faster for "
		    "single-output graphs and 1.4x for multi-output ones." },
		{ "Fix the parser", "It crashed on an empty config.\n\n"
		    "Signed-off-by: A <a@example.com>" },
		{ "Add a fast path for the tokenizer", "Add a fast path for "
		    "the tokenizer when the input is ASCII. It was slow." },
		{ "Fix a hang", "* Fix a hang\n* Update\n\n[ghstack-poisoned]" },
		{ "Merge branch 'main' into next", "Fix a crash, 2x faster." },
		{ "Refactor the loop", "Later paragraphs say more.\n\nThe old "
		    "one was fine.\n\nBut it could corrupt the heap." },
	};
	struct commit	 c;
	struct classify	 eager, lazy;
	size_t		 i, k;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		fill_files(&c, cases[i].subject, cases[i].body, "ada", 1);
		classify_commit(&c, "o/r", &eager);
		classify_commit_lazy(&c, "o/r", &lazy);
		if (eager.score != lazy.score)
			fail_msg("%s: score %.2f eager, %.2f lazy",
			    cases[i].subject, eager.score, lazy.score);
		assert_string_equal(eager.what, lazy.what);
		classify_prose(&c, &lazy);
		assert_string_equal(eager.prose, lazy.prose);
		assert_int_equal(eager.nfigures, lazy.nfigures);
		for (k = 0; k < eager.nfigures; k++)
			assert_string_equal(eager.figures[k], lazy.figures[k]);
		commit_clear(&c);
		classify_clear(&eager);
		classify_clear(&lazy);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_lazy),
		cmocka_unit_test(test_bots),
		cmocka_unit_test(test_what),
		cmocka_unit_test(test_clean),
		cmocka_unit_test(test_prose),
		cmocka_unit_test(test_figures),
		cmocka_unit_test(test_settings),
		cmocka_unit_test(test_series),
		cmocka_unit_test(test_setting_new),
		cmocka_unit_test(test_squash),
		cmocka_unit_test(test_squash_leaning),
		cmocka_unit_test(test_past),
		cmocka_unit_test(test_score),
		cmocka_unit_test(test_selection),
		cmocka_unit_test(test_merge_title),
		cmocka_unit_test(test_branch_merge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
