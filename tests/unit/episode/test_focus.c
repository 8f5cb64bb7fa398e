/*
 * Unit tests for episode/focus.c: Today's Focus on drafted days. A day
 * whose commit brings in a setting (in prose, a Usage: or a code block)
 * gets the action and the payoff; a breaking day gets the migration step;
 * a day with neither gets the change worth reading, never a tip made up
 * and never "nothing to try". One row per rule.
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

#define ALLOC_CONF "PYTORCH_CUDA_ALLOC_CONF=per_process_memory_fraction:" \
	"0.95,throw_on_cudamalloc_oom:true"
#define REVERTED "0000000000000000000000000000000000000001"

/* Two commits every day has besides the ones a row gives. */
static const char *const filler[] = {
	"[docs] Fix a typo in the README\n",
	"[inductor] Fuse the epilogue into the GEMM\n\nThis makes small "
	    "GEMMs 1.4x faster.\n",
};

struct focus_case {
	const char	*rule;
	const char	*msgs[3];	/* NULL-ended */
	const char	*kind;		/* "focus", "takeaway" */
	const char	*has[3];	/* in its text */
	const char	*hasnt[3];	/* not in any segment's text */
};

/* The file a row's own commits touch, when not torch/x.py. */
static const struct {
	const char	*rule, *file;
} files[] = {
	{ "an example program's flag is no tip", "docs/examples/parallel.c" },
	{ "near miss: the same flag in the project's tool is one",
	  "src/tool_getparam.c" },
	{ "a variable a CI job sets is no tip", ".github/workflows/linux.yml" },
	{ "near miss: the same variable in the project's script is one",
	  "scripts/install.sh" },
};

static const struct focus_case cases[] = {
	{ "a setting in a Usage: block, with its payoff", {
	    "[CUDA] Add preemptive OOM rejection to the allocator\n\nIt "
	    "rejects an allocation over the memory fraction so that a "
	    "server gets a catchable error instead of a driver crash.\n\n"
	    "Usage:\n" ALLOC_CONF " python serve.py\n", NULL },
	    "focus", { "Today's Focus: Set " ALLOC_CONF " so that a server "
	    "gets a catchable error instead of a driver crash.", NULL },
	    { "No new setting", "nothing to try", NULL } },
	{ "no tip of a setting another change removes", {
	    "Rework test that needed --global-option to use "
	    "--config-setting\n",
	    "Remove non PEP 517 code paths\n\nWe remove\n- the legacy "
	    "wheel build\n- --global-option and --build-option\n", NULL },
	    "focus", { "Stop passing --global-option and --build-option: ",
	    "Take them out of your scripts" },
	    { "Pass --global-option", NULL } },
	{ "support dropped for a flag's value: stop passing it", {
	    "Drop support for --python-version 3.9 (#2)\n", NULL },
	    "focus", { "If you pass --python-version 3.9, move to a value "
	    "still supported", "drops support for it" },
	    { "run on --python", NULL } },
	{ "a change marked breaking says so, once", {
	    "feat(deps)!: router@^2.0.0 (#5885)\n", NULL },
	    "focus", { "is marked as breaking", NULL },
	    { "breaks compatibility", NULL } },
	{ "no tip of a setting whose value is a link: it can't be said",
	    { "[server] Add a listen address setting\n\nUsage:\n"
	    "WIDGET_ADDR=localhost:8080 widget serve\n", NULL },
	    "takeaway", { NULL }, { "Set WIDGET_ADDR", "WIDGET_ADDR=", NULL } },
	{ "a setting in a fenced block", {
	    "[dynamo] Add a recompile log\n\nTo see each recompile and "
	    "why:\n\n```\nTORCH_LOGS=recompiles python train.py\n```\n",
	    NULL }, "focus", { "Set TORCH_LOGS=recompiles", NULL },
	    { "No new setting", NULL } },
	{ "an environment variable, payoff from the subject", {
	    "runtime: add an opt-in sharded blocking queue (#1)\n\nOpt in "
	    "via the `TOKIO_SHARDED_QUEUE` environment variable.\n", NULL },
	    "focus", { "Set the TOKIO_SHARDED_QUEUE environment variable if "
	    "you want an opt-in sharded blocking queue.", NULL }, { NULL } },
	{ "a flag", { "tool: add --retry-all-errors\n\nRetry on any error "
	    "so that flaky servers do not stop a batch.\n", NULL }, "focus",
	    { "Pass --retry-all-errors so that flaky servers do not stop a "
	    "batch.", NULL }, { NULL } },
	{ "support dropped: the migration step, no setting from it", {
	    "Drop support for pypy-3.10\n\nSet `PYPY_LEGACY_MODE=1` no "
	    "more.\n", NULL }, "focus", { "If you still run on pypy-3.10, "
	    "move to a newer version before you upgrade", NULL },
	    { "Set PYPY_LEGACY_MODE", NULL } },
	/* ao 2026-05-14: "If you still run on PyTorch 2.7 and older, move
	   to a newer version" on a day that dropped 2.8 as well */
	{ "versions dropped by two changes: the step names both", {
	    "drop PyTorch 2.7 and older support from the code (#4310)\n",
	    "drop PyTorch 2.8 support from the code (#4311)\n", NULL },
	    "focus", { "If you still run on PyTorch 2.7 and older or PyTorch "
	    "2.8, move to a newer version before you upgrade: Ada Lovelace's "
	    "changes drop support for them.", NULL }, { NULL } },
	{ "near miss: one version dropped is said alone", {
	    "drop PyTorch 2.7 and older support from the code (#4310)\n",
	    NULL }, "focus", { "If you still run on PyTorch 2.7 and older, "
	    "move to a newer version before you upgrade: Ada Lovelace's "
	    "change drops support for it.", NULL }, { NULL } },
	{ "a minimum raised, then the day's setting", {
	    "cmake: raise the minimum CMake version to 3.18\n",
	    "[dynamo] Add a recompile log\n\n```\nTORCH_LOGS=recompiles "
	    "python train.py\n```\n", NULL }, "focus", { "version 3.18 or "
	    "newer", "And one to try: Set TORCH_LOGS=recompiles", NULL },
	    { NULL } },
	{ "a default flipped", { "http: disable NTLM by default\n", NULL },
	    "focus", { "A default changed", "before you upgrade", NULL },
	    { NULL } },
	{ "a reverted commit's setting is no tip", {
	    "[dynamo] Add a recompile log\n\n```\nTORCH_LOGS=recompiles "
	    "python train.py\n```\n",
	    "Revert \"[dynamo] Add a recompile log\"\n\nThis reverts commit "
	    REVERTED ".\n", NULL }, "takeaway", { "the one to read is Ada "
	    "Lovelace's change, \"Fuse the epilogue into the GEMM\".", NULL },
	    { "Set TORCH_LOGS", "Today's Focus", NULL } },
	{ "a test plan's variable is no tip", { "[mps] Add the fast path\n"
	    "\nIt is faster.\n\nTest Plan:\n```\nTORCH_TEST_MPS=1 pytest "
	    "test/x.py\n```\n", NULL }, "takeaway", { NULL },
	    { "TORCH_TEST_MPS", "Today's Focus", NULL } },
	{ "a setting from a branch merged: the merge named, not 'heard "
	  "about earlier'", {
	    "Merge branch 'ds/fetch-negotiation'\n\nThe negotiation tip "
	    "options have been reworked.\n\n* ds/fetch-negotiation:\n"
	    "  fetch: add --negotiation-include option for negotiation\n",
	    "Merge branch 'ps/setup-cleanup'\n", NULL }, "focus",
	    { "Pass --negotiation-include", "It comes from this change: ",
	    "merged branch 'ds/fetch-negotiation'" },
	    { "heard about earlier", NULL } },
	{ "a constant a fix names is no tip", { "Fix a crash when "
	    "TORCH_LOGS_FORMAT is empty\n\nThe logger crashed with "
	    "TORCH_LOGS_FORMAT set to nothing.\n", NULL }, "takeaway",
	    { NULL }, { "part of your setup", "Today's Focus",
	    "nothing to try" } },
	/* tokio 2026-08-09: "It comes from Alex Gaynor's change we heard
	   about earlier." told nothing the listener had not heard */
	{ "a setting of a change told already: no second sentence", {
	    "runtime: add an opt-in sharded blocking queue (#1)\n\nOpt in "
	    "via the `TOKIO_SHARDED_QUEUE` environment variable.\n", NULL },
	    "focus", { "Set the TOKIO_SHARDED_QUEUE environment variable if "
	    "you want an opt-in sharded blocking queue.", NULL },
	    { "heard about earlier", "It comes from", NULL } },
	/* curl #12366 */
	{ "an error code the code now returns is no tip", {
	    "doh: provide better return code for responses w/o addresses\n"
	    "\nPreviously it was wrongly returning CURLE_OUT_OF_MEMORY when "
	    "the response did not contain any addresses. Now it more "
	    "accurately returns CURLE_COULDNT_RESOLVE_HOST.\n", NULL },
	    "takeaway", { "the one to", NULL },
	    { "CURLE_COULDNT_RESOLVE_HOST", "Today's Focus", NULL } },
	/* curl #20920 */
	{ "a variable a change stops setting is no tip", {
	    "configure: fix `--with-ngtcp2=<path>` option for crypto libs\n"
	    "\nThis broke certain build cases in curl, because configure was "
	    "is\nquerying pkg-config modules by setting `PKG_CONFIG_LIBDIR` "
	    "to the\ndirectory specified via `--with-*=` options.\n", NULL },
	    "takeaway", { "the one to", NULL },
	    { "Set PKG_CONFIG_LIBDIR", "Today's Focus", NULL } },
	{ "an example program's flag is no tip", {
	    "Add --parallel-max to cap parallel transfers\n\nUse "
	    "--parallel-max so that a batch keeps to a few connections.\n",
	    NULL }, "takeaway", { "the one to", NULL },
	    { "Pass --parallel-max", "Today's Focus", NULL } },
	{ "near miss: the same flag in the project's tool is one", {
	    "Add --parallel-max to cap parallel transfers\n\nUse "
	    "--parallel-max so that a batch keeps to a few connections.\n",
	    NULL }, "focus", { "Pass --parallel-max so that a batch keeps "
	    "to a few connections.", NULL }, { NULL } },
	{ "near miss: set FOO=1 to enable is quoted", {
	    "[profiler] Add a resolver trace\n\nSet FOO_TRACE=1 to enable "
	    "it.\n", NULL }, "focus", { "Set FOO_TRACE=1", NULL }, { NULL } },
	/* jq 2023-07-23: "Today's Focus: Pass `--help` to try what
	   itchyny's change brings." The change improved the help text */
	{ "a flag a change only works on is no tip", {
	    "Improve --help to mention all the command options\n", NULL },
	    "takeaway", { "the one to", NULL },
	    { "Pass --help", "Today's Focus", NULL } },
	/* fzf 2026-04-19: "Pass `--list-border` to try what Junegunn
	   Choi's change brings." */
	{ "a flag a body only names is no tip", {
	    "Add --{header,header-lines,footer}-border=inline\n\nNew "
	    "BorderShape that embeds the section inside the --list-border\n"
	    "frame, joined to the list content by a horizontal separator.\n"
	    "\nIncompatible with --header-first.\n", NULL },
	    "takeaway", { "the one to", NULL },
	    { "Pass --list-border", "--header-first", "Today's Focus" } },
	/* fzf 2026-04-19: "the one to try is Junegunn Choi's change, "Add
	   --header-border=inline", --header-lines-border=inline" and
	   --footer-border=inline"." */
	{ "a brace alternation in the takeaway is not quoted", {
	    "[fzf] Add --{header,footer}-border=inline\n\nNew shape.\n",
	    NULL }, "takeaway", { "Ada Lovelace's change: add "
	    "--header-border=inline and --footer-border=inline.", NULL },
	    { "inline\"", NULL } },
	/* curl 2025-09-25: "Set `HOMEBREW_NO_AUTO_UPDATE=1` to try what
	   Viktor Szakats's change brings." */
	{ "a variable a CI job sets is no tip", {
	    "GHA: set `HOMEBREW_NO_AUTO_UPDATE=1` for Linuxbrew\n", NULL },
	    "takeaway", { "the one to", NULL },
	    { "Set HOMEBREW_NO_AUTO_UPDATE", "Today's Focus", NULL } },
	{ "near miss: the same variable in the project's script is one", {
	    "GHA: set `HOMEBREW_NO_AUTO_UPDATE=1` for Linuxbrew\n", NULL },
	    "focus", { "Set HOMEBREW_NO_AUTO_UPDATE=1", NULL }, { NULL } },
	/* cargo 2025-09-12: "Pass `--features` to try what Ed Page's change
	   brings." The change added completion for the flag */
	{ "a verb bringing in another thing is no tip for the flag", {
	    "feat(completer): Added completion for `--features` flag "
	    "(#15309)\n\nThis attempts to complete the autocompleter for "
	    "`cargo build --features\n<TAB>`\n", NULL },
	    "takeaway", { "the one to", NULL },
	    { "Pass --features", "Today's Focus", NULL } },
	{ "near miss: a flag a verb brings in is a tip", {
	    "Added the `--features` flag to cargo build\n", NULL },
	    "focus", { "Pass --features", NULL }, { NULL } },
	/* ripgrep 2026-07-09: "Set the `GIT_CONFIG_GLOBAL` environment
	   variable to try what Amaan Qureshi's change brings." A wrapped
	   line of prose started with it */
	{ "a line of prose starting with a variable is no usage line", {
	    "ignore: support `GIT_CONFIG_GLOBAL` for `core.excludesFile`\n\n"
	    "The ignore crate reads the global config, but git 2.32 "
	    "introduced\n`GIT_CONFIG_GLOBAL` and `GIT_CONFIG_SYSTEM` "
	    "environment variables that\noverride these locations.\n", NULL },
	    "takeaway", { "the one to", NULL },
	    { "Set the GIT_CONFIG_GLOBAL", "Today's Focus", NULL } },
	{ "near miss: a flag the subject adds is a tip", {
	    "Add --list-border to draw a border around the list\n", NULL },
	    "focus", { "Pass --list-border", NULL }, { NULL } },
	/* tokio 2026-08-09: the instruction wraps onto the next line */
	{ "near miss: an instruction a few words before, across a wrap", {
	    "runtime: add an opt-in sharded blocking queue (#1)\n\nOpt in "
	    "via the unstable `Builder::enable_sharded_queue` or\nthe "
	    "`TOKIO_SHARDED_QUEUE` environment variable.\n", NULL },
	    "focus", { "Set the TOKIO_SHARDED_QUEUE environment variable",
	    NULL }, { NULL } },
	/* express 2024-09-09: "If you try one change from today, make it
	   Ulises Gascón's change, \"upgrade to body-parser 1.20.3\"." */
	{ "a dependency bump is never the takeaway, whatever its prefix", {
	    "feat: upgrade to body-parser@1.20.3 (#5926)\n", NULL },
	    "takeaway", { "Fuse the epilogue into the GEMM", NULL },
	    { "change, \"upgrade to body-parser", NULL } },
	/* libuv 2024-07-29: "If your code leans on win, the one to pick up
	   is Jameson Nash's change, ..." */
	{ "a short code name is no area to say", {
	    "win: fix a crash when the pipe is closed\n", NULL },
	    "takeaway", { "fix a crash when the pipe is closed", NULL },
	    { "win, the one to", "If win ", NULL } },
	/* cargo 2026-07-01: "If you work with util, the one to pick up
	   is ..." */
	{ "a clipped word is no area to say", {
	    "util: fix a crash on a Redox OS path\n", NULL },
	    "takeaway", { "fix a crash on a Redox OS path", NULL },
	    { "util, the one to", "If util ", NULL } },
	{ "near miss: a word of the area's own is said", {
	    "runtime: fix a hang when the pool shuts down\n", NULL },
	    "takeaway", { "runtime", NULL }, { NULL } },
	{ "near miss: an area in capitals is said", {
	    "QUIC: fix a crash on a short packet\n", NULL },
	    "takeaway", { "QUIC", "fix a crash on a short packet", NULL },
	    { NULL } },
	/* ao 2026-03-24: the opening said "the project now needs torch 2.11
	   or newer", and Today's Focus said it again at length */
	{ "a minimum raised: the Focus says what to do, in a few words", {
	    "Remove version compatibility table (#4154)\n\nTorchao is now "
	    "ABI stable, so we no longer need this version compatibility "
	    "table. We do require torch 2.11+ because the mxfp8 kernels "
	    "rely on stable ABI features added in torch 2.11.\n", NULL },
	    "focus", { "Today's Focus: Before you upgrade, make sure your "
	    "setup has torch 2.11 or newer, the minimum since Ada Lovelace's "
	    "change.", NULL }, { "The minimum goes up", "As of Ada", NULL } },
	/* the takeaway is the top story's, never a CI pin's, however its
	   words warn */
	{ "a CI pin is never the takeaway", {
	    "ci: pin node 24.15 to fix a crash and a security hang in "
	    "Windows CI (#22810)\n", NULL }, "takeaway",
	    { "Fuse the epilogue into the GEMM", NULL },
	    { "change, \"pin node", NULL } },
	{ "chores alone: a CI pin is no takeaway, whatever it warns of", {
	    "ci: pin node 24.15 to fix a crash in Windows CI (#22810)\n",
	    "test: update content length for chokidar polling watcher "
	    "(#22816)\n",
	    "docs: fix a typo in the FAQ (#3)\n" }, "housekeeping",
	    { NULL }, { "change, \"pin node", "worth your reading time",
	    "make it this one" } },
};

static struct day *
focus_day(const struct focus_case *fc)
{
	struct day	*d = day_new("pytorch/pytorch", 1775260800);
	const char	*msgs[8], *file = "torch/x.py";
	size_t		 i, n = 0, nfill = 2;

	for (i = 0; i < sizeof files / sizeof files[0]; i++)
		if (strcmp(files[i].rule, fc->rule) == 0)
			file = files[i].file;
	/* a day of chores alone has no filler story */
	if (strncmp(fc->rule, "chores alone", 12) == 0)
		nfill = 0;

	d->end = d->start + 86400;
	for (i = 0; i < nfill; i++)
		msgs[n++] = filler[i];
	for (i = 0; i < 3 && fc->msgs[i] != NULL; i++)
		msgs[n++] = fc->msgs[i];
	/* the third commit is the one a revert names */
	for (i = 0; i < n; i++)
		day_msg_add(d, msgs[i], i == 2 ? REVERTED : NULL, i + 0xabc0, i,
		    "Ada Lovelace", "ada", i >= nfill ? file : "torch/x.py");
	day_pair_reverts(d);
	return d;
}

static void
test_focus_rows(void **state)
{
	struct episode_opts	 o;
	struct episode		*ep;
	struct day		*d;
	const char		*text;
	size_t			 i, j, k;

	(void)state;
	memset(&o, 0, sizeof o);
	o.show = "Daily";
	o.year = 2026;
	o.month = 4;
	o.mday = 4;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		d = focus_day(&cases[i]);
		ep = episode_draft(d, &o);
		text = NULL;
		for (j = 0; j < ep->nsegments; j++) {
			if (strcmp(ep->segments[j].kind, cases[i].kind) == 0)
				text = ep->segments[j].text;
			for (k = 0; k < 3 && cases[i].hasnt[k] != NULL; k++) {
				if (strstr(ep->segments[j].text,
				    cases[i].hasnt[k]) != NULL)
					fail_msg("%s: \"%s\" in %s: %s",
					    cases[i].rule, cases[i].hasnt[k],
					    ep->segments[j].kind,
					    ep->segments[j].text);
			}
		}
		if (text == NULL)
			fail_msg("%s: no %s segment", cases[i].rule,
			    cases[i].kind);
		for (k = 0; k < 3 && cases[i].has[k] != NULL; k++) {
			if (strstr(text, cases[i].has[k]) == NULL)
				fail_msg("%s: no \"%s\" in: %s", cases[i].rule,
				    cases[i].has[k], text);
		}
		episode_free(ep);
		day_free(d);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_focus_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
