/* Unit tests for episode/tell.c: one row per rule of telling a change. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "buf.h"
#include "classify.h"
#include "day_msg.h"
#include "draft_int.h"
#include "episode.h"
#include "record.h"
#include "xmalloc.h"

/* tell_did: a change told by what it did, never "landed a X change titled". */
static void
test_did(void **state)
{
	static const struct {
		const char		*rule;
		const char		*subject;
		const char		*area;	/* titled, or NULL */
		enum classify_kind	 kind;
		const char		*want;
	} cases[] = {
		{ "release", "release: v8.1.1", "release", CLASSIFY_CHANGE,
		    "Sam released version 8.1.1" },
		{ "release of a package", "release: create-vite@9.1.1",
		    "release", CLASSIFY_CHANGE,
		    "Sam released create-vite version 9.1.1" },
		{ "chore(release)", "chore(release): 2.0.0", "release",
		    CLASSIFY_CHANGE, "Sam released version 2.0.0" },
		{ "known verb", "parser: fix the retry", "parser",
		    CLASSIFY_FIX, "Sam fixed the retry" },
		{ "guessed verb, conventional", "fix: invert `a.b` when c",
		    NULL, CLASSIFY_FIX, "Sam inverted a.b when c" },
		{ "guessed verb -e", "fix(deps): escape ids", "deps",
		    CLASSIFY_FIX, "Sam escaped ids in deps" },
		{ "verb with no object, area after", "cf-setup: improve "
		    "readability", "cf-setup", CLASSIFY_CLEANUP,
		    "Sam improved readability in cf-setup" },
		{ "area a noun of changes", "tidy-up: miscellaneous",
		    "tidy-up", CLASSIFY_CLEANUP,
		    "Sam made miscellaneous tidy-ups" },
		{ "a statement, by kind", "setopt: CURLOPT_X set to 0 restores "
		    "default", "setopt", CLASSIFY_FIX,
		    "Sam's fix in setopt, \"CURLOPT_X set to 0 restores "
		    "default\"" },
		{ "a noun phrase naming its fix", "[mxfp8 training] emulated "
		    "mode test fix", "mxfp8 training", CLASSIFY_FIX,
		    "Sam fixed the emulated mode test" },
		{ "a subject in the past already", "HTTP/3: fixed dynamic "
		    "table overflow.", "HTTP/3", CLASSIFY_FIX,
		    "Sam fixed dynamic table overflow in HTTP/3" },
		{ "a package at its version", "path-to-regexp@0.1.10 (#5902)",
		    NULL, CLASSIFY_DEPS, "Sam updated path-to-regexp to "
		    "0.1.10" },
		{ "a scoped package bump", "fix(deps): send@^1.1.0", "deps",
		    CLASSIFY_DEPS, "Sam updated send to 1.1.0" },
		{ "don't", "fix: don't render redirect values in anchor href",
		    NULL, CLASSIFY_FIX, "Sam made sure not to render redirect "
		    "values in anchor href" },
		{ "what was added, said so", "Initial support for Python "
		    "3.15.0a8", NULL, CLASSIFY_FEATURE, "Sam added initial "
		    "support for Python 3.15.0a8" },
		/* curl 2025-10-06: "Daniel Stenberg made it default timeout
		   per block is now 15 seconds." */
		{ "a subject that is a sentence of its own is reported",
		    "tftp: default timeout per block is now 15 seconds",
		    "tftp", CLASSIFY_CHANGE, "Sam's change in tftp, \"default "
		    "timeout per block is now 15 seconds\"" },
		{ "a clause after a joining word stays", "fix: make sure the "
		    "buffer is flushed", NULL, CLASSIFY_FIX, "Sam made sure the "
		    "buffer is flushed" },
		{ "a clause after \"when\" stays", "fix: reload the config "
		    "when the file is replaced", NULL, CLASSIFY_FIX, "Sam "
		    "made it reload the config when the file is replaced" },
		/* cargo 2025-12-04: "Ed Page supported for rustdoc
		   mergeable cross-crate info." */
		{ "\"support for X\" is a noun", "feat: support for rustdoc "
		    "mergeable cross-crate info", NULL, CLASSIFY_FEATURE,
		    "Sam added support for rustdoc mergeable cross-crate "
		    "info" },
		{ "\"support X\" is the verb", "Support Python 3.15", NULL,
		    CLASSIFY_FEATURE, "Sam supported Python 3.15" },
		{ "a cleanup's noun as its verb", "Cleanup some more tests "
		    "after dropping 3.9", NULL, CLASSIFY_CLEANUP, "Sam cleaned "
		    "up some more tests after dropping 3.9" },
		{ "an area the verb already says", "[docs update] initial "
		    "clean up of the API reference", "docs update",
		    CLASSIFY_DOCS, "Sam's docs change, \"initial clean up of "
		    "the API reference\"" },
		{ "code is not a person", "fix: return undefined for invalid "
		    "media types", NULL, CLASSIFY_FIX, "Sam made it return "
		    "undefined for invalid media types" },
		{ "code is not a person, once", "dev: reload once after "
		    "rebuild", "dev", CLASSIFY_FIX, "Sam made it reload once "
		    "after rebuild" },
		{ "a pair of nouns, not a second verb", "fix off-by-one read "
		    "and write to a read-only buffer", NULL, CLASSIFY_FIX,
		    "Sam fixed the off-by-one read and write to a read-only "
		    "buffer" },
		{ "no invented past: told by kind", "tests: unit test the FTP "
		    "213 time response parser", "tests", CLASSIFY_TESTS,
		    "Sam's test change, \"unit test the FTP 213 time "
		    "response parser\"" },
		{ "no invented past, init", "lib: init fd to -1", "lib",
		    CLASSIFY_FIX, "Sam's fix in lib, \"init fd to -1\"" },
		{ "near miss: the author's act", "fix: print the version",
		    NULL, CLASSIFY_FIX, "Sam printed the version" },
		{ "no prefix, no guess", "Widget layout tweaks for wide "
		    "screens", NULL, CLASSIFY_FEATURE,
		    "Sam's feature, \"widget layout tweaks for wide "
		    "screens\"" },
		/* issue #27: the check decides, the reported form is the fallback */
		{ "reported: a statement (curl)", "setopt: CURLOPT_MAXCONNECTS "
		    "set to 0 restores default value", "setopt", CLASSIFY_CHANGE,
		    "Sam's change in setopt, \"CURLOPT_MAXCONNECTS set to 0 "
		    "restores default value\"" },
		{ "reported: a noun phrase (nginx)", "QUIC: ngx_quic_buffer_t "
		    "use-after-free protection.", NULL, CLASSIFY_FIX,
		    "Sam's fix, \"ngx_quic_buffer_t use-after-free "
		    "protection\"" },
		{ "reported: a noun phrase in its area (nginx)", "HTTP/3: "
		    "decoder stream pre-creation.", "HTTP/3", CLASSIFY_CHANGE,
		    "Sam's change in HTTP/3, \"decoder stream pre-creation\"" },
		{ "reported: a verb for what X does after a fix (jq)", "Fix "
		    "stderr to output string with no decoration (fix #2063)",
		    NULL, CLASSIFY_FIX, "Sam's fix, \"fix stderr to output "
		    "string with no decoration\"" },
		{ "near miss: a fix's purpose is the author's", "Fix the race "
		    "to avoid a deadlock", NULL, CLASSIFY_FIX,
		    "Sam fixed the race to avoid a deadlock" },
		/* code is not a person: a verb only the running program does */
		{ "code: ignore (nginx)", "QUIC: ignore CRYPTO frames after "
		    "handshake completion.", NULL, CLASSIFY_FIX,
		    "Sam made it ignore CRYPTO frames after handshake "
		    "completion" },
		{ "code: ignore (vite)", "fix: ignore bundled config temp dir "
		    "(#22800)", NULL, CLASSIFY_FIX,
		    "Sam made it ignore bundled config temp dir" },
		{ "code: detect, its area after (curl)", "data creds: detect "
		    "change", "data creds", CLASSIFY_CHANGE,
		    "Sam made it detect change in data creds" },
		{ "code: adjust to (curl)", "vtls_config: adjust to origin",
		    "vtls_config", CLASSIFY_CHANGE,
		    "Sam made it adjust to origin in vtls_config" },
		{ "code: close (tokio)", "sync: close the `broadcast::Sender` "
		    "in `broadcast::Sender::new()` (#7629)", NULL,
		    CLASSIFY_CHANGE, "Sam made it close the broadcast::Sender "
		    "in broadcast::Sender::new()" },
		{ "code: a verb with a condition later (tokio)", "runtime: use "
		    "release in `wake_by_ref()` even if already woken (#7622)",
		    NULL, CLASSIFY_CHANGE, "Sam made it use release in "
		    "wake_by_ref() even if already woken" },
		{ "code: release with a condition (mypy)", "[mypyc] Release "
		    "new instances when `__init__` raises (#21248)", "mypyc",
		    CLASSIFY_FIX, "Sam made it release new instances when "
		    "__init__ raises" },
		{ "code: release what the program holds (mypy)", "[mypyc] "
		    "Release boxed operands in tagged true division (#21246)",
		    "mypyc", CLASSIFY_FIX, "Sam made it release boxed operands "
		    "in tagged true division" },
		{ "near miss: a new release", "ci: release the next beta",
		    NULL, CLASSIFY_BUILD, "Sam released the next beta" },
		{ "near miss: the author adds", "cli: add a flag", NULL,
		    CLASSIFY_FEATURE, "Sam added a flag" },
		{ "near miss: the author fixes", "fix a crash", NULL,
		    CLASSIFY_FIX, "Sam fixed a crash" },
		{ "near miss: use with no condition", "tests: use pathlib in "
		    "fixtures", NULL, CLASSIFY_TESTS,
		    "Sam used pathlib in fixtures" },
		{ "near miss: adjust an object", "adjust the default timeout",
		    NULL, CLASSIFY_CHANGE, "Sam adjusted the default timeout" },
		/* said aloud: a file takes no article; abbreviations spelt out */
		{ "a file name takes no article (requests)", "Update "
		    "maintainers in the AUTHORS.rst (#7191)", NULL,
		    CLASSIFY_DOCS, "Sam updated maintainers in AUTHORS.rst" },
		{ "near miss: a file name before its noun", "Update the "
		    "package.json file", NULL, CLASSIFY_BUILD,
		    "Sam updated the package.json file" },
		{ "w/o said as without (jq)", "Fix --stream-errors w/o "
		    "--stream", NULL, CLASSIFY_FIX,
		    "Sam fixed --stream-errors without --stream" },
		{ "what came with it: \", and doc+test\" (jq)", "Fix "
		    "--stream-errors w/o --stream, and doc+test (close #2748)",
		    NULL, CLASSIFY_FIX, "Sam fixed --stream-errors without "
		    "--stream, with docs and tests" },
		{ "near miss: a second object stays", "Fix the parser, and "
		    "the lexer", NULL, CLASSIFY_FIX,
		    "Sam fixed the parser, and the lexer" },
		{ "doc+test said as words (jq)", "docs: add doc+test", NULL,
		    CLASSIFY_DOCS, "Sam added a doc and test" },
		{ "a leading emoji is not said (express)", "\xf0\x9f\x94\xa7 "
		    "update CI, remove unsupported versions, clean up", NULL,
		    CLASSIFY_DEPS, "Sam updated CI, removed unsupported "
		    "versions and cleaned up" },
		{ "reported: a re-land is its author's act (ao)", "Reland: "
		    "INT8 quantization on Intel XPU", NULL, CLASSIFY_RELAND,
		    "Sam brought back a change, \"INT8 quantization on Intel "
		    "XPU\"" },
		{ "near miss: a plus in a name", "add C++ bindings", NULL,
		    CLASSIFY_FEATURE, "Sam added C++ bindings" },
	};
	size_t	i;
	int	bad = 0;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct commit		c;
		struct draft_item	it;
		struct buf		b;

		memset(&c, 0, sizeof c);
		memset(&it, 0, sizeof it);
		c.subject = (char *)cases[i].subject;
		it.c = &c;
		it.name = (char *)"Sam";
		it.cl.kind = cases[i].kind;
		it.cl.what = classify_what(cases[i].subject);
		it.cl.subject = (char *)cases[i].subject;
		it.cl.area = (char *)cases[i].area;
		it.cl.area_titled = cases[i].area != NULL;
		buf_init(&b);
		tell_did(&b, &it, 1);
		if (strcmp(buf_str(&b), cases[i].want) != 0) {
			print_error("%s: got \"%s\", want \"%s\"\n",
			    cases[i].rule, buf_str(&b), cases[i].want);
			bad++;
		}
		assert_null(strstr(buf_str(&b), "change titled"));
		buf_free(&b);
		free(it.cl.what);
	}
	assert_int_equal(bad, 0);
}

/* tell_guess_past: only an imperative by convention, only a verb's shape. */
static void
test_guess_past(void **state)
{
	static const struct {
		const char	*subject, *what, *want; /* want NULL: none */
	} cases[] = {
		{ "fix: invert the flag", "invert the flag",
		    "inverted the flag" },
		{ "fix: escape ids", "escape ids", "escaped ids" },
		{ "x: tidy the list", "tidy the list", "tidied the list" },
		{ "x: obey the limit", "obey the limit", "obeyed the limit" },
		{ "Invert the flag", "Invert the flag", NULL },
		{ "tidy-up: miscellaneous", "miscellaneous", NULL },
		{ "docs: examples for X", "examples for X", NULL },
		{ "build: running tests", "running tests", NULL },
		{ "ci: CURLOPT_X set", "CURLOPT_X set", NULL },
		{ "QUIC: client transport parameter data length checking",
		    "client transport parameter data length checking", NULL },
		{ "x: vendor manifest", "vendor manifest", NULL },
		{ "CI: yaml is poo", "yaml is poo", NULL },
		{ "feat: map BUILD to Python for Bazel", "map BUILD to Python "
		    "for Bazel", "mapped BUILD to Python for Bazel" },
		{ "feat: Python bindings", "Python bindings", NULL },
		{ NULL, "resolve the root", "resolved the root" },
		/* no invented words: a noun or adverb, or no English past */
		{ "build: also trace two pkg-config envs", "also trace two "
		    "pkg-config envs", NULL },
		{ "lib: init fd to -1", "init fd to -1", NULL },
		{ "docs: how maintainers seed releases", "how maintainers seed "
		    "releases", NULL },
		{ "tests: unit test the FTP 213 time response parser", "unit "
		    "test the FTP 213 time response parser", NULL },
		{ "docs: source, all protocols about protocols", "source, all "
		    "protocols about protocols", NULL },
		{ "x: protocol upgrade notes", "protocol upgrade notes", NULL },
		{ "setopt: defref the old referer when setting a new", "defref "
		    "the old referer when setting a new", NULL },
		/* near misses: English pasts still said */
		{ "x: unwrap the value", "unwrap the value",
		    "unwrapped the value" },
		{ "x: visit every node", "visit every node",
		    "visited every node" },
		{ "x: test the parser", "test the parser", "tested the parser" },
	};
	size_t	 i;
	char	*s;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		s = tell_guess_past(cases[i].subject, cases[i].what);
		if (cases[i].want == NULL)
			assert_null(s);
		else {
			assert_non_null(s);
			assert_string_equal(s, cases[i].want);
		}
		free(s);
	}
}

/*
 * Figures are said with what they measure: the sentence of the message
 * that holds one, as reported speech; a figure in a label ("mfu: 29%")
 * is left unsaid, and never listed bare.
 */
static void
test_figures(void **state)
{
	static const struct {
		const char	*msg;
		const char	*want;	/* in the transcript, or NULL */
		const char	*never;
	} cases[] = {
		{ "codec: rework the frame writer\n\nThe old writer copied "
		    "each frame twice. Encoding long frames is now 1.7x faster "
		    "for single-output graphs.\n", "1.7x faster for "
		    "single-output graphs", "puts numbers" },
		{ "util: fix typo in the blocking check comment\n\nReplaced "
		    "'i dont' with 'i don't' in the stub of the check.\n", NULL,
		    "i dont" },
		{ "Bring the 405B model config\n\nWe want to add the config."
		    "\n\nThe perf number is wps: 109 mfu: 29%.\n", NULL,
		    "29%" },
	};
	struct episode		*ep;
	struct day		*d;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		d = day_msg_new("acme/widget");
		day_msg_add(d, cases[i].msg, NULL, 1, 10, "Ada Lovelace",
		    "ada", "src/codec.c");
		day_msg_add(d, "docs: fix a typo in the FAQ\n", NULL, 2, 20,
		    "Grace Hopper", "grace", "docs/faq.md");
		ep = day_msg_draft(d);
		if (cases[i].want != NULL &&
		    strstr(ep->transcript, cases[i].want) == NULL)
			fail_msg("%zu: no \"%s\" in: %s", i, cases[i].want,
			    ep->transcript);
		if (strstr(ep->transcript, cases[i].never) != NULL)
			fail_msg("%zu: \"%s\" in: %s", i, cases[i].never,
			    strstr(ep->transcript, "\n\n"));
		episode_free(ep);
		day_free(d);
	}
}

/*
 * A breaking change filed as housekeeping is told among the day's
 * changes (the highlights), where a listener who must act hears it;
 * removed deprecated pieces stay with the cleanups.
 */
static void
test_breaking_told(void **state)
{
	static const struct {
		const char	*msg;
		const char	*segment;	/* the one drawing on it */
	} cases[] = {
		{ "Drop PyTorch 2.7 and older support from the code\n",
		    "highlights" },
		{ "ci: the minimum CMake version is now 3.18\n",
		    "highlights" },
		{ "Delete deprecated UintxLayout and related code\n",
		    "housekeeping" },
	};
	struct episode		*ep;
	struct day		*d;
	size_t			 i, k, j;
	const char		*got;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		d = day_msg_new("acme/widget");
		day_msg_add(d, cases[i].msg, NULL, 1, 10, "Ada Lovelace",
		    "ada", "src/compat.py");
		day_msg_add(d, "docs: fix a typo in the FAQ\n", NULL, 2, 20,
		    "Grace Hopper", "grace", "docs/faq.md");
		day_msg_add(d, "tests: tidy the fixtures\n", NULL, 3, 30,
		    "Grace Hopper", "grace", "tests/conftest.py");
		ep = day_msg_draft(d);
		got = NULL;
		/* the segment telling it; the opening only recalls it */
		for (k = 0; k < ep->nsegments && got == NULL; k++)
			for (j = 0; strcmp(ep->segments[k].kind, "opening") !=
			    0 && j < ep->segments[k].ncommits; j++)
				if (strcmp(ep->segments[k].commits[j],
				    d->commits[0].sha) == 0)
					got = ep->segments[k].kind;
		if (got == NULL || strcmp(got, cases[i].segment) != 0)
			fail_msg("%s: told in %s, want %s", cases[i].msg,
			    got != NULL ? got : "none", cases[i].segment);
		episode_free(ep);
		day_free(d);
	}
}

/*
 * A day's releases are one story, before the highlights; a change landed
 * twice (a cherry-pick the same day) is told once.
 */
static void
test_releases_once(void **state)
{
	struct episode	*ep;
	struct day	*d;
	const char	*p;

	(void)state;
	d = day_msg_new("acme/widget");
	day_msg_add(d, "chore: prepare Widget v1.48.0 (#2)\n", NULL, 1, 10,
	    "Ada Lovelace", "ada", "Cargo.toml");
	day_msg_add(d, "chore: prepare widget-macros v2.6.0 (#1)\n", NULL, 2,
	    20, "Ada Lovelace", "ada", "macros/Cargo.toml");
	day_msg_add(d, "process: fix the error at shutdown (#7)\n", NULL, 3,
	    30, "Ada Lovelace", "ada", "src/process.rs");
	day_msg_add(d, "process: fix the error at shutdown (#7)\n", NULL, 4,
	    40, "Ada Lovelace", "ada", "src/process.rs");
	day_msg_add(d, "chore: prepare Widget v1.47.2\n", NULL, 5, 50,
	    "Grace Hopper", "grace", "Cargo.toml");
	ep = day_msg_draft(d);
	/* (after a lead-in that rotates, or none) */
	if (strstr(ep->transcript, "Ada Lovelace released "
	    "Widget 1.48.0 and widget-macros 2.6.0, and Grace Hopper released "
	    "Widget 1.47.2.") == NULL &&
	    strstr(ep->transcript, "Ada Lovelace released "
	    "widget-macros 2.6.0 and Widget 1.48.0, and Grace Hopper released "
	    "Widget 1.47.2.") == NULL)
		fail_msg("releases not told as one: %s", ep->transcript);
	p = strstr(ep->transcript, "fixed the error at shutdown");
	if (p == NULL || strstr(p + 1, "fixed the error at shutdown") != NULL)
		fail_msg("the fix not told once: %s", ep->transcript);
	episode_free(ep);
	day_free(d);
}

/*
 * One person's many releases: the project's own named, its other
 * packages counted (ripgrep 2023-11-26 read out "grep-cli 0.1.10, globset
 * 0.4.14, ignore 0.4.21, ..." twelve in one sentence).
 */
static void
test_releases_counted(void **state)
{
	static const char *subjects[] = { "grep-cli-0.1.10\n",
	    "globset-0.4.14\n", "ignore-0.4.21\n", "grep-matcher-0.1.7\n",
	    "14.0.1\n", NULL };
	struct episode	*ep;
	struct day	*d;
	size_t		 i;

	(void)state;
	d = day_msg_new("acme/widget");
	for (i = 0; subjects[i] != NULL; i++)
		day_msg_add(d, subjects[i], NULL, i + 1, (long)(i + 1) * 10,
		    "Ada Lovelace", "ada", "Cargo.toml");
	day_msg_add(d, "cli: add simple flag suggestions\n", NULL, 9, 90,
	    "Ada Lovelace", "ada", "src/cli.rs");
	ep = day_msg_draft(d);
	if (strstr(ep->transcript, "Ada Lovelace released Widget 14.0.1, "
	    "with new versions of four more packages.") == NULL ||
	    strstr(ep->transcript, "globset") != NULL)
		fail_msg("releases not counted: %s", ep->transcript);
	episode_free(ep);
	day_free(d);
}

/*
 * One author's changes saying the same of different things are one
 * sentence (htop 2020-09-24 told four: "Benny Baumann updated the battery
 * API to use NAN on error.", then the IO rate display, ...); near misses:
 * another author's, a shorter shared tail, another verb.
 */
static void
test_batch(void **state)
{
	static const struct {
		const char *subject, *name;
	} rows[] = {
		{ "Update battery API to use NAN on error\n", "Benny Baumann" },
		{ "Update IO rate display to use NAN on error\n",
		    "Benny Baumann" },
		{ "Update CPU freq display to use NAN on error\n",
		    "Benny Baumann" },
		/* near misses */
		{ "Update memory meter to use NAN on error\n", "Ada Lovelace" },
		{ "Update swap meter to clamp on error\n", "Benny Baumann" },
		{ "Rework disk meter to use NAN on error\n", "Benny Baumann" },
		/* ao 2026-05-14: "dropped PyTorch 2.7 and older support and
		   PyTorch 2.8 support from the code" */
		{ "Drop PyTorch 2.7 and older support from the code\n",
		    "Vasiliy Kuznetsov" },
		{ "Drop PyTorch 2.8 support from the code\n",
		    "Vasiliy Kuznetsov" },
	};
	struct episode	*ep;
	struct day	*d;
	size_t		 i;

	(void)state;
	d = day_msg_new("htop-dev/htop");
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++)
		day_msg_add(d, rows[i].subject, NULL, i + 1, (long)(i + 1) * 10,
		    rows[i].name, rows[i].name, "linux/Platform.c");
	ep = day_msg_draft(d);
	if (strstr(ep->transcript, "updated the battery API, IO rate display "
	    "and CPU freq display to use NAN on error.") == NULL)
		fail_msg("not told as one: %s", ep->transcript);
	if (strstr(ep->transcript, "memory meter to use NAN") == NULL ||
	    strstr(ep->transcript, "swap meter to clamp on error") == NULL ||
	    strstr(ep->transcript, "disk meter to use NAN") == NULL ||
	    strstr(ep->transcript, "older support and") != NULL)
		fail_msg("a near miss was joined: %s", ep->transcript);
	episode_free(ep);
	day_free(d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_did),
		cmocka_unit_test(test_guess_past),
		cmocka_unit_test(test_figures),
		cmocka_unit_test(test_breaking_told),
		cmocka_unit_test(test_releases_once),
		cmocka_unit_test(test_releases_counted),
		cmocka_unit_test(test_batch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
