/* Unit tests for episode/text.c: leftovers a listener must not hear. */
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

/* Through a whole body: what prose_of reads out. */
static void
test_body(void **state)
{
	static const struct {
		const char *subject, *body, *want;
	} cases[] = {
		{ "Add a knob", "Add a knob for the cache... See "
		    "https://x.y/2 for details.\n\nTo sync with its "
		    "declaration.\n", "It added a knob for the cache." },
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_leftovers),
		cmocka_unit_test(test_command_example),
		cmocka_unit_test(test_body),
		cmocka_unit_test(test_marks_only),
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_prose_raw),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
