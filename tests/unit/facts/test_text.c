/* Unit tests for facts/text.c: leftovers a listener must not hear. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "prose.h"
#include "text.h"

static void
test_leftovers(void **state)
{
	static const struct {
		const char *rule, *in, *want;
	} cases[] = {
		{ "an ellipsis at the end", "More to come...", "More to come." },
		{ "an ellipsis before a sentence", "It waits... Then it runs.",
		    "It waits. Then it runs." },
		{ "an ellipsis inside", "the a, b, ... z list",
		    "the a, b, z list" },
		{ "a Unicode ellipsis", "and so on\xe2\x80\xa6",
		    "and so on." },
		{ "a range", "ports 1...3", "ports 1 to 3" },
		{ "a reference gone, \"see\" with it",
		    "Flagged upstream, see https://x.y/1.", "Flagged upstream." },
		{ "\"(see)\"", "Fixed (see https://x.y/1) today.",
		    "Fixed today." },
		{ "\"see:\"", "As agreed, see: https://x.y/1",
		    "As agreed" },
		{ "a \"see\" that is a verb stays", "what users see.",
		    "what users see." },
		{ "a file name keeps its space", "loads the *.so files",
		    "loads the .so files" },
		{ "a sentence end still closes up", "the end .", "the end." },
		{ "a tag", "[ci skip] bump the pin", "bump the pin" },
		{ "an architecture tag", "[X86] add a lowering path",
		    "add a lowering path" },
		{ "a series tag", "[1/3] split the pass", "split the pass" },
		{ "a footnote", "is slower [2].", "is slower." },
		{ "a link keeps its text", "a [long link text](https://x.y)",
		    "a long link text" },
		{ "an index in code stays", "reads a[0] now", "reads a[0] now" },
		{ "an attribute stays", "with #[inline] hints",
		    "with #[inline] hints" },
		{ "a reference link keeps its text",
		    "In the [previous comment][1], A said",
		    "In the previous comment, A said" },
		{ "its code marks go", "see Tower's [`ReadyCache` type][1].",
		    "see Tower's ReadyCache type." },
		{ "an empty quotation", "titled \"\" here", "titled here" },
		{ "a quotation stays", "titled \"x\" here", "titled \"x\" here" },
	};
	size_t	 i;
	char	*s;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		s = text_clean(cases[i].in);
		if (strcmp(s, cases[i].want) != 0)
			fail_msg("%s: \"%s\" -> \"%s\", want \"%s\"",
			    cases[i].rule, cases[i].in, s, cases[i].want);
		free(s);
	}
}

/*
 * What counts as a link, as text_clean says it (issue 25): every link
 * goes, with or without a scheme; prose that only looks like one stays
 * as written.
 */
static const struct {
	const char *rule, *in, *want;
} link_cases[] = {
	/* links, gone */
	{ "https", "Reset at https://evil.com/x now", "Reset at now" },
	{ "a host and a path", "Reset your password at evil-login.com/reset "
	    "today", "Reset your password at today" },
	{ "a shortener", "Details: bit.ly/x for all", "Details: for all" },
	{ "a host and a port", "Start the server on host:8080 first",
	    "Start the server on first" },
	{ "localhost", "Open localhost:3000 and log in", "Open and log in" },
	{ "localhost and two digits", "Open localhost:80 now", "Open now" },
	{ "a domain and a port", "Open example.com:8443 now", "Open now" },
	{ "a file's domain, a port and a path", "Open evil.sh:80/x now",
	    "Open now" },
	{ "an address and a port", "proxy 10.0.0.1:8080 now", "proxy now" },
	{ "an address and a path", "open 192.168.1.1/admin now", "open now" },
	{ "no scheme, two slashes", "Load //host/x instead",
	    "Load instead" },
	{ "file:", "Read file:///etc/passwd now", "Read now" },
	{ "file: and one slash", "Read file:/etc/passwd now", "Read now" },
	{ "javascript:", "Click javascript:alert(1) now", "Click now" },
	{ "mailto:", "Write mailto:a@b.example now", "Write now" },
	{ "data:", "Open data:text/html,hi now", "Open now" },
	{ "a scheme of its own", "Clone git+ssh://host/r.git now",
	    "Clone now" },
	{ "https: without slashes", "Go to https:evil.com now", "Go to now" },
	{ "a bare domain", "Visit evil-login.com for more",
	    "Visit for more" },
	{ "a country's domain and a path", "See docs.rs/serde for the API",
	    "See for the API" },
	{ "a country's domain that is a file's too", "Run evil.sh/x now",
	    "Run now" },
	{ "www.", "Visit www.example.org now", "Visit now" },
	{ "an e-mail address", "Mail a.b+c@example.com now", "Mail now" },
	{ "at a sentence's end", "It moved to example.com/new.",
	    "It moved." },
	{ "after a quotation mark", "Try \"evil.com/x\" now",
	    "Try now" },
	/* prose, kept */
	{ "e.g.", "e.g. a retry", "e.g. a retry" },
	{ "i.e.", "i.e. the default", "i.e. the default" },
	{ "a version", "bump to v1.2.3 now", "bump to v1.2.3 now" },
	{ "a version of four parts", "bump to 1.2.3.4 now",
	    "bump to 1.2.3.4 now" },
	{ "a C file", "split config.c in two", "split config.c in two" },
	{ "a JavaScript file", "trim index.js output",
	    "trim index.js output" },
	{ "Node.js", "drop Node.js 14", "drop Node.js 14" },
	{ "node.js", "drop node.js 14", "drop node.js 14" },
	{ "a file and a path", "move src/foo.c to lib/",
	    "move src/foo.c to lib/" },
	{ "README.md", "reword README.md today", "reword README.md today" },
	{ "setup.py", "read setup.py first", "read setup.py first" },
	{ "run.sh", "call run.sh twice", "call run.sh twice" },
	{ "configure.in", "regenerate configure.in", "regenerate configure.in" },
	{ "a C++ name", "use std::vector here", "use std::vector here" },
	{ "a slice in code", "take a:b of it", "take a:b of it" },
	{ "a key and a number", "set x:1 here", "set x:1 here" },
	{ "a time", "runs at 10:30 daily", "runs at 10:30 daily" },
	{ "an image's tag", "move to node:18 from node:16",
	    "move to node:18 from node:16" },
	{ "an image's version", "use ubuntu:22.04 now",
	    "use ubuntu:22.04 now" },
	{ "a file's line", "crashed in parser.py:120 on empty input",
	    "crashed in parser.py:120 on empty input" },
	{ "a Rust file's line", "see main.rs:42.", "see main.rs:42." },
	{ "a ratio", "a 16:9 frame", "a 16:9 frame" },
	{ "a Windows path", "under C:\\path now", "under C:\\path now" },
	{ "a label", "Note: this changed", "Note: this changed" },
	{ "a comment of code", "left a //TODO: here", "left a //TODO: here" },
	{ "two slashes and a port", "Load //host:8080 now", "Load now" },
	{ "file:line", "print file:line on errors",
	    "print file:line on errors" },
	{ "ASP.NET", "port ASP.NET Core", "port ASP.NET Core" },
	{ "Socket.IO", "bump Socket.IO", "bump Socket.IO" },
	{ "socket.io, a repository's name", "welcome to socket.io today",
	    "welcome to socket.io today" },
	{ "an .io host and a path", "see crates.io/crates/x now",
	    "see now" },
	{ "a method of code", "use Array.prototype.at now",
	    "use Array.prototype.at now" },
	{ "Object.is", "compare with Object.is", "compare with Object.is" },
	{ "a.m.", "at 9 a.m. sharp", "at 9 a.m. sharp" },
	{ "a sentence without its space", "It works.Then it fails",
	    "It works.Then it fails" },
	{ "a package at its version", "bump send@0.19.0",
	    "bump send 0.19.0" },
	{ "and/or", "read and/or write", "read and/or write" },
	{ "a dotted module", "torch.nn.functional gets it",
	    "torch.nn.functional gets it" },
	{ "an environment setting", "set per_process_memory_fraction:0.95 "
	    "now", "set per_process_memory_fraction:0.95 now" },
};

static void
test_links(void **state)
{
	size_t	 i, bad = 0;
	char	*s;

	(void)state;
	for (i = 0; i < sizeof link_cases / sizeof link_cases[0]; i++) {
		s = text_clean(link_cases[i].in);
		if (strcmp(s, link_cases[i].want) != 0) {
			print_message("%s: \"%s\" -> \"%s\", want \"%s\"\n",
			    link_cases[i].rule, link_cases[i].in, s,
			    link_cases[i].want);
			bad++;
		}
		free(s);
	}
	assert_int_equal(bad, 0);
}

/* Through a whole body: what prose_of reads out. */
static void
test_body(void **state)
{
	static const struct {
		const char *subject, *body, *want;
	} cases[] = {
		{ "Add a knob", "Add a knob for the cache... See "
		    "https://x.y/2 for details.\n\nTo sync with its "
		    "declaration.\n", "It added a knob for the cache. The aim: "
		    "to sync with its declaration." },
		{ "Move code", "[ci skip] When building against CCCL 3.4 or "
		    "newer, move ATen's code over.\n",
		    "It moved ATen's code over when building against CCCL "
		    "3.4 or newer." },
	};
	size_t	 i;
	char	*s;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		s = prose_of(cases[i].body, cases[i].subject, 3);
		assert_string_equal(s, cases[i].want);
		free(s);
	}
}

/*
 * Lines of bold marks alone, a heading of them or one before a label:
 * nothing is left of them, and nothing before the line is read (a line
 * of "**" once looked at the byte before its end, fuzz_draft).
 */
static void
test_marks_only(void **state)
{
	static const char *const bodies[] = {
		"\n**\n\n_\n", "**", "****\nA real line.", "**\n**\n",
		"  **  \nFixes #1", "** **",
	};
	struct text_paras	 ps;
	size_t			 i, k;

	(void)state;
	memset(&ps, 0, sizeof(ps));
	for (i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
		text_paragraphs(bodies[i], "Add a knob", &ps);
		for (k = 0; k < ps.n; k++)
			assert_null(strstr(ps.text[k], "**"));
		text_paras_free(&ps);
	}
}

/* text_paragraphs leaves a command shown as an example out too. */
static void
test_command_example(void **state)
{
	struct text_paras	 ps;
	size_t			 k;

	(void)state;
	text_paragraphs("Places the preview next to the input.\n\n  fzf "
	    "--preview 'cat {}' --preview-window=next\n\nClose #4798\n",
	    "Add a knob", &ps);
	assert_int_equal(ps.n, 1);
	for (k = 0; k < ps.n; k++)
		assert_null(strstr(ps.text[k], "fzf"));
	text_paras_free(&ps);
}

/* text_words answers as text_has_any and strstr would, list by list. */
static void
test_words(void **state)
{
	static const char *fix[] = { "fix", "use-after-free", "null deref",
	    NULL };
	static const char *doc[] = { "doc", "readme", NULL };
	static const char *each[] = { "api", "flag", NULL };
	static struct text_wordset starts = { .lists = { fix, doc },
	    .each = each };
	static struct text_wordset lasts = { .lists = { fix, doc },
	    .last = 1 };
	static const struct {
		const char		*in;
		unsigned long long	 starts, lasts;
	} cases[] = {
		{ "", 0, 0 },
		{ "fix the docs", 3, 3 },
		{ "Fix the README", 3, 3 },
		{ "prefix a hotfix", 0, 1 },	/* inside a word: strstr's */
		{ "a_fix and #doc", 3, 3 },	/* '_' and '#' end a word */
		{ "use-after-free", 1, 1 },
		{ "freed the node", 0, 1 },	/* "free" of "use-after-free" */
		{ "a null deref", 1, 1 },
		{ "null", 0, 0 },
		{ "new API flag", 12, 0 },
		{ "flag api flag", 12, 0 },
		{ "fi", 0, 0 },
	};
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		if (text_words(cases[i].in, &starts, TEXT_STARTS) !=
		    cases[i].starts)
			fail_msg("\"%s\": starts %llx, want %llx", cases[i].in,
			    text_words(cases[i].in, &starts, TEXT_STARTS),
			    cases[i].starts);
		if (text_words(cases[i].in, &lasts, TEXT_ANYWHERE) !=
		    cases[i].lasts)
			fail_msg("\"%s\": lasts %llx, want %llx", cases[i].in,
			    text_words(cases[i].in, &lasts, TEXT_ANYWHERE),
			    cases[i].lasts);
	}
}

/*
 * text_prose_raw: the paragraphs text_paragraphs reads, as they came,
 * each after a newline.
 */
static void
test_prose_raw(void **state)
{
	static const struct {
		const char *rule, *body, *want;
	} cases[] = {
		{ "lines joined, paragraphs apart",
		    "It crashed on an empty\nconfig file.\n\nNow it reads "
		    "the defaults.",
		    "\nIt crashed on an empty config file.\nNow it reads the "
		    "defaults." },
		{ "code, quotes and trailers left out",
		    "Fix the parser for real.\n\n```\nsegfault here\n```\n"
		    "    indented code line\n> a quoted crash\n"
		    "Signed-off-by: A <a@example.com>\n",
		    "\nFix the parser for real." },
		{ "nothing after a stop line",
		    "Speeds up the loop by far.\n\nTest Plan:\nit does not "
		    "crash any more\n",
		    "\nSpeeds up the loop by far." },
		{ "a URL and a line of one go",
		    "See https://example.com/crash-report for the numbers.\n"
		    "https://example.com/35%\n",
		    "\nSee for the numbers." },
		{ "a short paragraph and a label go",
		    "* Update\n\nDetails:\nA paragraph of six words here",
		    "\nA paragraph of six words here" },
		{ "a list item starts a paragraph",
		    "Two changes in one here:\n- add a fast path here\n"
		    "- drop the old slow fallback",
		    "\nTwo changes in one here:\n- add a fast path here\n- "
		    "drop the old slow fallback" },
		{ "a paragraph repeating the subject goes",
		    "* Add a fast path for the tokenizer\n\nIt was slow "
		    "before today.",
		    "\nIt was slow before today." },
		{ "a template's comment and a diagnostic go",
		    "<!--\nThank you for contributing!\n-->\nIt is faster "
		    "now on all inputs.\n\nx.c:1:2: error: boom here\n  "
		    "return f(x);\n\nAnd it is smaller too.",
		    "\nIt is faster now on all inputs.\nAnd it is smaller "
		    "too." },
		{ "Fixes #12 keeps the rest",
		    "Fixes #12. The loop now stops at the end.",
		    "\nThe loop now stops at the end." },
		{ "a command shown as an example goes",
		    "Places the preview next to the input.\n\n  fzf --preview "
		    "'cat {}' --preview-window=next\n\n$ make install "
		    "PREFIX=/usr\n",
		    "\nPlaces the preview next to the input." },
		{ "a list item's wrapped line and an indented sentence stay",
		    "- prerelease: a version grep across the changelog,\n"
		    "  install -v and both man pages\n\n  Passing -x now "
		    "works as it should.\n",
		    "\n- prerelease: a version grep across the changelog, "
		    "install -v and both man pages\nPassing -x now works as it "
		    "should." },
	};
	struct buf	b;
	size_t		i, n;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		buf_init(&b);
		n = text_prose_raw(cases[i].body, "Add a fast path for the "
		    "tokenizer", &b);
		if (strcmp(buf_str(&b), cases[i].want) != 0 || n != b.len)
			fail_msg("%s: \"%s\" (%zu bytes), want \"%s\"",
			    cases[i].rule, buf_str(&b), n, cases[i].want);
		buf_free(&b);
	}
}

/*
 * Pasted metadata never goes on air (issue 27): a stacked pull request's
 * trailer, a "Found by" credit, sign-offs. One row per real body; the
 * near misses are prose that starts alike and stays.
 */
static void
test_metadata(void **state)
{
	static const struct {
		const char *rule, *body, *gone, *kept;
	} cases[] = {
		{ "a stacked PR's trailer (stack-pr)", "Trace len() of a dict."
		    "\n\nStack-info: PR: https://github.com/pytorch/pytorch/"
		    "pull/170001, branch: ezyang/stack/12\n", "branch",
		    "Trace len() of a dict." },
		{ "a \"Found by\" credit (mypy, 2026-04-16)",
		    "Found by @devdanzin", "devdanzin", NULL },
		{ "a \"Found by\" credit after prose", "The list leaked its "
		    "items.\n\nFound by @devdanzin\n", "devdanzin",
		    "The list leaked its items." },
		{ "a found-by trailer", "The list leaked its items.\n\n"
		    "Found-by: Joshua Rogers\n", "Joshua",
		    "The list leaked its items." },
		{ "a co-developed-by sign-off", "The list leaked its items."
		    "\n\nCo-developed-by: A B <a@b.c>\nSigned-off-by: A B "
		    "<a@b.c>\n", "A B",
		    "The list leaked its items." },
		{ "a reported-and-tested-by credit", "The list leaked its "
		    "items.\n\nReported-and-tested-by: C D <c@d.e>\n", "C D",
		    "The list leaked its items." },
		/* a pull request template's comments (ruff 2026-08-18) */
		{ "a template's comment over lines",
		    "<!--\nThank you for contributing to Ruff/ty! To help us "
		    "out with reviewing,\nplease consider the following:\n\n- "
		    "Does this pull request include a summary of the change? "
		    "(See below.)\n-->\n\n## Summary\n\n<!-- What's the "
		    "purpose of the change? What does it do, and why? -->\n\n"
		    "This introduces a semantic model for a pytest fixture "
		    "binding.\n", "Thank you", "semantic model for a pytest" },
		{ "a comment's end keeps what follows", "<!-- a note -->\n"
		    "The list leaked its items.\n", "note",
		    "The list leaked its items." },
		/* a compiler's diagnostic pasted (htop 2020-09-24) */
		{ "a diagnostic and the code under it",
		    "linux/Platform.c:142:17: warning: cast from function call "
		    "of type 'double' to non-matching type 'int' "
		    "[-Wbad-function-cast]\n   return (int) floor(uptime);\n"
		    "                ^~~~~~~~~~~~~\n\nThe cast is now explicit "
		    "and safe.\n", "floor", "The cast is now explicit" },
		/* near misses: prose that starts alike */
		{ "a sentence about a warning stays", "Platform.c warned: "
		    "cast from function call of type double.\n", NULL,
		    "cast from function call" },
		{ "a time of day stays", "Runs at 12:30: error counts are "
		    "then reset for the day.\n", NULL, "error counts" },
		{ "an arrow in prose stays", "Inputs <-- outputs are swapped "
		    "in the table now.\n", NULL, "swapped in the table" },
		{ "\"found by\" inside a sentence stays", "The bug was found "
		    "by the fuzzer in the parser.\n", NULL, "found by the "
		    "fuzzer" },
		{ "\"Found\" opening a sentence of prose stays", "Found that "
		    "the cache was never cleared, so it is now.\n", NULL,
		    "never cleared" },
		{ "a stack of calls stays", "The stack info is now printed on "
		    "a crash.\n", NULL, "stack info" },
	};
	struct text_paras	 ps;
	size_t			 i, k;
	int			 kept;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		memset(&ps, 0, sizeof(ps));
		text_paragraphs(cases[i].body, "Fix a leak", &ps);
		kept = cases[i].kept == NULL;
		for (k = 0; k < ps.n; k++) {
			if (cases[i].gone != NULL &&
			    strstr(ps.text[k], cases[i].gone) != NULL)
				fail_msg("%s: \"%s\" said: %s", cases[i].rule,
				    cases[i].gone, ps.text[k]);
			if (cases[i].kept != NULL &&
			    strstr(ps.text[k], cases[i].kept) != NULL)
				kept = 1;
		}
		if (!kept)
			fail_msg("%s: \"%s\" lost", cases[i].rule,
			    cases[i].kept);
		text_paras_free(&ps);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_leftovers),
		cmocka_unit_test(test_metadata),
		cmocka_unit_test(test_links),
		cmocka_unit_test(test_command_example),
		cmocka_unit_test(test_body),
		cmocka_unit_test(test_marks_only),
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_prose_raw),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
