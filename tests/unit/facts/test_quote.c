/*
 * Unit tests for facts/quote.c: the setting a message brings in (from
 * prose, a Usage: block, a fenced or an indented code block), its payoff,
 * and the breaking change a message states. One row per rule.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "buf.h"
#include "quote.h"

#define ALLOC_CONF "PYTORCH_CUDA_ALLOC_CONF=per_process_memory_fraction:" \
	"0.95,throw_on_cudamalloc_oom:true"

static void
test_setting_found(void **state)
{
	static const struct {
		const char *rule, *subject, *body, *want;
		int is_new;
	} cases[] = {
		{ "prose, backticks", "Add OOM rejection", "You can now set `"
		    ALLOC_CONF "` to reject early.", ALLOC_CONF, 1 },
		{ "Usage: line", "[CUDA] Add preemptive OOM rejection",
		    "Reject allocations over the fraction.\n\nUsage:\n"
		    ALLOC_CONF " python serve.py\n", ALLOC_CONF, 1 },
		{ "Usage: on its line", "Add OOM rejection", "Usage: "
		    ALLOC_CONF " python serve.py\n", ALLOC_CONF, 1 },
		{ "fenced block", "Add OOM rejection", "To try it:\n\n```\n"
		    "export " ALLOC_CONF "\n```\n", ALLOC_CONF, 1 },
		{ "indented block", "Add OOM rejection", "Run it as\n\n    "
		    ALLOC_CONF " ./a.out\n", ALLOC_CONF, 1 },
		{ "value wins over a bare name", "Add OOM rejection",
		    "PYTORCH_CUDA_ALLOC_CONF gains an option.\n\n```\n"
		    ALLOC_CONF "\n```\n", ALLOC_CONF, 1 },
		{ "a flag in a Usage: block", "tool: add a retry delay",
		    "Usage:\n  curl --retry-delay-origin 5 URL\n",
		    "--retry-delay-origin", 1 },
		{ "a code block's name without a value is not one", "Fix macro",
		    "```\nFOO_BAR_BAZ = 1\n```\n", NULL, 0 },
		{ "a test plan's variable is the runner's", "Add the fast path",
		    "It is faster.\n\nTest Plan:\n```\nTORCH_TEST_FAST=1 "
		    "pytest test/x.py\n```\n", NULL, 0 },
		{ "a **Test Plan:** heading too", "Add the fast path",
		    "It is faster.\n\n**Test Plan:**\nFOO_TEST_DEBUG=1 make "
		    "check\n", NULL, 0 },
		{ "a commit dropping support gives none", "Drop support for "
		    "CURL_LEGACY_MODE", "Set `CURL_LEGACY_MODE=1` no more.",
		    NULL, 0 },
		{ "nor one removing it", "lib: remove the FOO_OLD_KNOB option",
		    "Usage:\nFOO_OLD_KNOB=1 ./run\n", NULL, 0 },
		{ "compiler output is not a setting", "units: tidy",
		    "```\nerror: [-Werror=address]\n```\n", NULL, 0 },
		/* curl #12366: an error code the code returns */
		{ "an error code returned is no setting", "doh: provide better "
		    "return code for responses w/o addresses", "Previously it "
		    "was wrongly returning CURLE_OUT_OF_MEMORY when the "
		    "response did not contain any addresses. Now it more "
		    "accurately returns CURLE_COULDNT_RESOLVE_HOST.\n\n"
		    "Reported-by: lRoccoon on github\n\nFixes #12365\n",
		    "CURLE_OUT_OF_MEMORY", 0 },
		{ "nor the one it now returns", "doh: provide better return "
		    "code", "Now it more accurately returns "
		    "CURLE_COULDNT_RESOLVE_HOST.\n",
		    "CURLE_COULDNT_RESOLVE_HOST", 0 },
		/* curl #20920: a variable configure stops setting, told
		   across a wrapped line */
		{ "a variable a failure names, its sentence wrapped",
		    "configure: fix `--with-ngtcp2=<path>` option for crypto "
		    "libs", "ngtcp2 1.14.0 added module dependencies to "
		    "`ngtcp2_crypto_*.pc` files.\nThis broke certain build "
		    "cases in curl, because configure was is\nquerying "
		    "pkg-config modules by setting `PKG_CONFIG_LIBDIR` to the"
		    "\ndirectory specified via `--with-*=` options, including "
		    "`--with-ngtcp2=`.\n\nFix `ngtcp2_crypto_*` detections to "
		    "not touch `PKG_CONFIG_LIBDIR` and\ninstead prepend "
		    "`<path>` set via `--with-ngtcp2=` to `PKG_CONFIG_PATH`.\n",
		    "PKG_CONFIG_LIBDIR", 0 },
		{ "what a change no longer sets, its line wrapped",
		    "configure: ngtcp2 crypto detection", "The detection now "
		    "no longer\nsets PKG_CONFIG_LIBDIR, so system modules are "
		    "found.\n", "PKG_CONFIG_LIBDIR", 0 },
		{ "what it stops touching", "configure: ngtcp2 crypto "
		    "detection", "Fix the detections to not touch "
		    "`PKG_CONFIG_LIBDIR` and prepend to the path.\n",
		    "PKG_CONFIG_LIBDIR", 0 },
		{ "an example program's option is the example's",
		    "examples: add --parallel-max to the download example",
		    "So it can be tried with many files.\n", "--parallel-max",
		    0 },
		{ "an example program named in the sentence",
		    "Show parallel transfers", "The example program now takes "
		    "--parallel-max to cap them.\n", "--parallel-max", 0 },
		/* near misses: a setting the reader is told to use */
		{ "set FOO=1 to enable", "Add a trace of the resolver",
		    "Set FOO_TRACE=1 to enable it.\n", "FOO_TRACE=1", 1 },
		{ "return, far before, is a purpose", "Sort by name",
		    "To return to the old order, set FOO_LEGACY_SORT=1.\n",
		    "FOO_LEGACY_SORT=1", 1 },
		{ "stop, as a purpose", "Warn on old configs", "To stop the "
		    "warning, set FOO_QUIET=1.\n", "FOO_QUIET=1", 1 },
		{ "for example", "Trace the resolver", "For example, set "
		    "FOO_TRACE=1 to see each lookup.\n", "FOO_TRACE=1", 1 },
		{ "tool: a flag of the project's own", "tool: add "
		    "--parallel-max", "So it can be tried with many files.\n",
		    "--parallel-max", 1 },
		{ "a wrapped sentence that offers it", "Trace the resolver",
		    "You can now set the\nFOO_TRACE variable to see each "
		    "lookup.\n", "FOO_TRACE", 1 },
		{ "a URL's query is not a setting", "docs: link",
		    "See https://x.y/?FOO_BAR=1 for more.", NULL, 0 },
	};
	size_t	 i;
	char	*s;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		s = quote_setting(cases[i].subject, cases[i].body);
		if (cases[i].want == NULL && s != NULL)
			fail_msg("%s: found %s", cases[i].rule, s);
		if (cases[i].want != NULL && (s == NULL ||
		    strcmp(s, cases[i].want) != 0))
			fail_msg("%s: found %s", cases[i].rule,
			    s != NULL ? s : "nothing");
		if (s != NULL && quote_setting_new(cases[i].subject,
		    cases[i].body, s) != cases[i].is_new)
			fail_msg("%s: new is not %d", cases[i].rule,
			    cases[i].is_new);
		free(s);
	}
}

static void
test_payoff(void **state)
{
	static const struct {
		const char *rule, *subject, *body, *setting, *want;
	} cases[] = {
		{ "so that", "Add OOM rejection", "Set it so that the server "
		    "gets a catchable error instead of a crash.\n\nUsage:\n"
		    ALLOC_CONF "\n", ALLOC_CONF, "so that the server gets a "
		    "catchable error instead of a crash" },
		{ "if you want", "tool: add --fast", "Use `--fast` if you "
		    "want fewer round trips.", "--fast",
		    "if you want fewer round trips" },
		{ "to avoid, backticks dropped", "Add FOO_NO_MMAP",
		    "Set `FOO_NO_MMAP=1` to avoid `mmap` on network drives.",
		    "FOO_NO_MMAP=1", "to avoid mmap on network drives" },
		{ "in order to", "Add FOO_X", "FOO_X=1 exists in order to "
		    "skip the warm-up run.", "FOO_X=1", "to skip the warm-up "
		    "run" },
		{ "the line naming the setting first", "Add FOO_Y",
		    "This is needed to avoid a rebuild.\nSet FOO_Y=2 if you "
		    "need two workers.", "FOO_Y=2", "if you need two workers" },
		{ "first person is not a payoff", "Add FOO_Z", "Set FOO_Z=1 "
		    "so that we can debug it.", "FOO_Z=1", NULL },
		{ "no motivation, no payoff", "Add FOO_Q", "Set FOO_Q=1.",
		    "FOO_Q=1", NULL },
		{ "not from a test plan", "Add FOO_T", "Test Plan:\nSet FOO_T=1 "
		    "to avoid flaky runs.", "FOO_T=1", NULL },
		{ "what it does, said after to", "Add --preview-window=next",
		    "Places preview adjacent to input on the list side: "
		    "above input in the default layout.\n",
		    "--preview-window=next", "to place preview adjacent to "
		    "input on the list side" },
		{ "what it does, from the line naming it", "Add --compact",
		    "Needed by the dashboard.\n\nWith --compact the table "
		    "drops its borders.\nKeeps each row on one line when "
		    "--compact is given.\n", "--compact", "to keep each row "
		    "on one line when --compact is given" },
		{ "what it does for us is no payoff", "Add --cache",
		    "Makes our nightly runs faster.\n", "--cache", NULL },
		{ "an order is not what it does", "Add --left",
		    "Place the preview on the left.\n", "--left", NULL },
		{ "only the first line of prose, unless it names it",
		    "Add --left", "Fixes a layout bug.\nPlaces the preview on "
		    "the left.\n", "--left", NULL },
	};
	struct buf	b;
	size_t		i;
	int		got;

	(void)state;
	buf_init(&b);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		buf_reset(&b);
		got = quote_payoff(cases[i].subject, cases[i].body,
		    cases[i].setting, &b);
		if (cases[i].want == NULL && got)
			fail_msg("%s: %s", cases[i].rule, buf_str(&b));
		if (cases[i].want != NULL && (!got ||
		    strcmp(buf_str(&b), cases[i].want) != 0))
			fail_msg("%s: \"%s\"", cases[i].rule, buf_str(&b));
	}
	buf_free(&b);
}

static void
test_breaking(void **state)
{
	static const struct {
		const char *rule, *subject, *body;
		enum quote_break want;
		const char *what;
	} cases[] = {
		{ "support dropped, in a bullet", "Fix CI and build failures",
		    "* Run ruff over codebase\n* Drop support for pypy-3.10\n",
		    QUOTE_BREAK_SUPPORT, "pypy-3.10" },
		{ "support removed, subject", "lib: remove support for RTMP",
		    "", QUOTE_BREAK_SUPPORT, "RTMP" },
		{ "a flag on a list of things removed", "Remove non PEP 517 "
		    "code paths", "We remove\n- legacy metadata preparation\n"
		    "- --global-option and --build-option\n",
		    QUOTE_BREAK_REMOVED, "--global-option and --build-option" },
		{ "a list removed, no flag on it", "Tidy the importer",
		    "We remove\n- the old cache\n- a dead branch\n",
		    QUOTE_BREAK_NONE, NULL },
		{ "support named before the word", "Drop PyTorch 2.7 and older "
		    "support from the code (#4200)", "", QUOTE_BREAK_SUPPORT,
		    "PyTorch 2.7 and older" },
		{ "nothing a user runs", "drop legacy support code", "",
		    QUOTE_BREAK_NONE, NULL },
		{ "no longer supports", "build: tidy", "curl no longer "
		    "supports OpenSSL 1.1 because it is EOL.",
		    QUOTE_BREAK_SUPPORT, "OpenSSL 1.1" },
		{ "a minimum by require", "Remove version compatibility table",
		    "We do require torch 2.11+ because the kernels need it.",
		    QUOTE_BREAK_MINIMUM, "torch 2.11+" },
		{ "a minimum raised", "cmake: raise the minimum CMake version "
		    "to 3.18", "", QUOTE_BREAK_MINIMUM, "3.18" },
		{ "a default flipped, subject", "http: disable NTLM by default",
		    "", QUOTE_BREAK_DEFAULT, "disable NTLM by default" },
		{ "a default flipped, body", "vtls: tidy", "TLS 1.3 is now "
		    "enabled by default.", QUOTE_BREAK_DEFAULT, NULL },
		{ "a deprecated API removed", "Delete deprecated UintxLayout "
		    "and related code (#4145)", "", QUOTE_BREAK_REMOVED,
		    "UintxLayout" },
		{ "conventional !", "feat(api)!: rename the config loader", "",
		    QUOTE_BREAK_REMOVED, "rename the config loader" },
		{ "BREAKING CHANGE footer", "feat: new loader",
		    "Faster.\n\nBREAKING CHANGE: the `load` option is gone.",
		    QUOTE_BREAK_REMOVED, "the load option is gone" },
		{ "a new opt-in feature off by default is not a flip",
		    "runtime: add an opt-in sharded queue", "Re-lands the "
		    "queue, disabled by default.", QUOTE_BREAK_NONE, NULL },
		{ "a new option off by default in the subject",
		    "tool: add --foo, disabled by default", "",
		    QUOTE_BREAK_NONE, NULL },
		{ "require without a version", "capsule: include arpa/inet.h",
		    "Some platforms require inclusion of arpa/inet.h.",
		    QUOTE_BREAK_NONE, NULL },
		{ "a bound on bits is no minimum (issue #27)",
		    "Fix BIT STRING parsing", "DER encodings require < 8 "
		    "unused bits in the last byte.", QUOTE_BREAK_NONE, NULL },
		{ "a requirement named in the subject (issue #27)",
		    "build: require CMake 3.18 or newer", "",
		    QUOTE_BREAK_MINIMUM, NULL },
		{ "a test needing GPUs is no minimum", "Add a test",
		    "This test requires 2 GPUs.", QUOTE_BREAK_NONE, NULL },
		{ "deprecation warnings are not a removal", "Suppress "
		    "deprecation warnings from #4074", "", QUOTE_BREAK_NONE,
		    NULL },
		{ "not from a code block", "Tidy", "```\nDrop support for "
		    "pypy-3.10\n```\n", QUOTE_BREAK_NONE, NULL },
	};
	enum quote_break	 k;
	size_t			 i;
	char			*what;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		k = quote_breaking(cases[i].subject, cases[i].body, &what);
		if (k != cases[i].want)
			fail_msg("%s: kind %d", cases[i].rule, (int)k);
		if (k != QUOTE_BREAK_NONE && what == NULL)
			fail_msg("%s: no what", cases[i].rule);
		if (cases[i].what != NULL && strcmp(what, cases[i].what) != 0)
			fail_msg("%s: what \"%s\"", cases[i].rule, what);
		free(what);
	}
}

/*
 * quote_release: a version next to a release word, or alone; the package
 * before an "@". A version and the word apart are no release.
 */
static void
test_release(void **state)
{
	static const struct {
		const char	*subject;
		const char	*pkg, *ver;	/* ver NULL: no release */
	} cases[] = {
		{ "release: v8.1.1", NULL, "8.1.1" },
		{ "release: create-vite@9.1.1", "create-vite", "9.1.1" },
		{ "Release 2.3.0 (#12)", NULL, "2.3.0" },
		{ "chore(release): 1.4.0", NULL, "1.4.0" },
		{ "Bump version to 1.2.0", NULL, "1.2.0" },
		{ "Prepare 2.0 release", NULL, "2.0" },
		{ "Releasing v2.1", NULL, "2.1" },
		{ "tag v1.0.3", NULL, "1.0.3" },
		{ "v3.0.0", NULL, "3.0.0" },
		{ "chore: prepare tokio-macros v2.6.0 (#7676)", "tokio-macros",
		    "2.6.0" },
		{ "Prepare for 2.0 release", NULL, "2.0" },
		{ "release-1.27.0 tag", NULL, "1.27.0" },
		{ "nginx-1.27.0-RELEASE", NULL, "1.27.0" },
		{ "Merge branch release-notes-2.0", NULL, NULL },
		{ "release: notes for the next one", NULL, NULL },
		{ "Release notes for 2.3.0", NULL, NULL },
		{ "Release the GIL in read()", NULL, NULL },
		{ "fix: v8.1.1 regression", NULL, NULL },
		{ "Drop Python 3.8 from the release matrix", NULL, NULL },
		{ "release: fix the build for 3.12", NULL, NULL },
		{ "Revert \"release: v8.1.1\"", NULL, NULL },
		{ "ci: release workflow for 2.0", NULL, NULL },
		{ "Version bump to 4.1.0", NULL, "4.1.0" },
		{ "Update the theme version to 0.4.3", NULL, NULL },
		{ "Skip the test if PyTorch version is 2.11.0", NULL, NULL },
		/* the project's own version bumped (issue #27) */
		{ "Bumped v5.8.2", NULL, "5.8.2" },
		{ "release: v8.2.0", NULL, "8.2.0" },
		{ "chore: prepare to release v1.52.1", NULL, "1.52.1" },
		{ "Bump lodash from 4.17.20 to 4.17.21", NULL, NULL },
		/* a crate's release commit: its name and version only
		   (ripgrep 2023-11-26) */
		{ "grep-cli-0.1.10", "grep-cli", "0.1.10" },
		{ "globset-0.4.14", "globset", "0.4.14" },
		{ "deps: bump grep-cli to 0.1.10", NULL, NULL },
		{ "grep-cli-0.1.10 fixes", NULL, NULL },
		{ "changelog: updates for the 14.0.0 release", NULL, NULL },
		{ "Prepare the 14.0.0 release", NULL, "14.0.0" },
		{ "x86-64", NULL, NULL },
		{ "see-1.2.3.", NULL, NULL },
		{ "Bumped the cache key to v3.1", NULL, NULL },
		{ "ci: bump 3.12 to 3.13", NULL, NULL },
		{ "build(deps): bump actions/checkout from 4.1.1 to 4.2.0",
		    NULL, NULL },
	};
	char	*pkg, *ver;
	size_t	 i;
	int	 ok;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		ok = quote_release(cases[i].subject, &pkg, &ver);
		if (ok != (cases[i].ver != NULL) || (ok &&
		    (strcmp(ver, cases[i].ver) != 0 ||
		    (pkg == NULL) != (cases[i].pkg == NULL) ||
		    (pkg != NULL && strcmp(pkg, cases[i].pkg) != 0))))
			fail_msg("\"%s\": got %d \"%s\" \"%s\"",
			    cases[i].subject, ok, pkg != NULL ? pkg : "",
			    ver != NULL ? ver : "");
		free(pkg);
		free(ver);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_setting_found),
		cmocka_unit_test(test_payoff),
		cmocka_unit_test(test_breaking),
		cmocka_unit_test(test_release),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
