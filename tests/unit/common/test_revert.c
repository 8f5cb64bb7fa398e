/* Unit tests: revert_parse() and commit_set_message() in common/record.c */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "record.h"

#define SHA_A	"ff9397d52bd4417bbe2039b06ee34f3ce2d39525"
#define SHA_B	"c5fb460e7c7a57bf3e3a985d10a8b175bbd61500"

static const struct {
	const char	*name;
	const char	*subject;
	const char	*body;
	int		 is_revert;
	int		 is_reland;
	int		 automatic;
	const char	*sha;
	const char	*subj;
	const char	*pr;
	const char	*by;
	const char	*reason;
} revert_cases[] = {
	{ "git revert with a PR suffix",
	    "Revert \"LowBitPacking kernels on x86 (#3807)\" (#3875)",
	    "This reverts commit " SHA_A ".",
	    1, 0, 0, SHA_A, "LowBitPacking kernels on x86 (#3807)",
	    NULL, NULL, NULL },
	{ "curl revert with a human reason",
	    "Revert \"tool: add a retry delay for transfers to same origin on "
	    "429\"",
	    "This reverts commit " SHA_B ".\n\n"
	    "This needs some further work before we can do this.\n\n"
	    "Fixes #21822\nCloses #21824",
	    1, 0, 0, SHA_B,
	    "tool: add a retry delay for transfers to same origin on 429",
	    NULL, NULL, "This needs some further work before we can do this." },
	{ "wrapped reason unwrapped, trailers dropped",
	    "Revert \"x: y\"",
	    "This reverts commit " SHA_B ".\n\nIt broke the\nbuild on macOS.\n"
	    "Signed-off-by: A <a@b>",
	    1, 0, 0, SHA_B, "x: y", NULL, NULL, "It broke the build on macOS." },
	{ "reapply is a re-land",
	    "Reapply \"Add fp8 rowwise (#3790)\"",
	    "This reverts commit " SHA_A ".",
	    0, 1, 0, SHA_A, "Add fp8 rowwise (#3790)", NULL, NULL, NULL },
	{ "revert of a revert is a re-land",
	    "Revert \"Revert \"Add fp8 rowwise (#3790)\"\" (#3901)",
	    "This reverts commit " SHA_A ".\n\nFixed the CUDA 12.6 build.",
	    0, 1, 0, SHA_A, "Add fp8 rowwise (#3790)", NULL, NULL,
	    "Fixed the CUDA 12.6 build." },
	{ "three reverts deep is a revert",
	    "Revert \"Revert \"Revert \"foo\"\"\"", "",
	    1, 0, 0, NULL, "foo", NULL, NULL, NULL },
	{ "[Reland] tag",
	    "[Reland] Use cutlass for int4 mm (#3911)", "Second try.",
	    0, 1, 0, NULL, "Use cutlass for int4 mm (#3911)", NULL, NULL,
	    "Second try." },
	{ "[reland] tag after a topic tag",
	    "[inductor][reland] fuse more", "",
	    0, 1, 0, NULL, "[inductor] fuse more", NULL, NULL, NULL },
	{ "Reland word",
	    "Reland: faster mxfp8 quant", "",
	    0, 1, 0, NULL, "faster mxfp8 quant", NULL, NULL, NULL },
	{ "Reland with quotes",
	    "Reland \"faster mxfp8 quant\"", "",
	    0, 1, 0, NULL, "faster mxfp8 quant", NULL, NULL, NULL },
	{ "curl (revert) subject",
	    "cookie: parse max-age as well (revert)", "",
	    1, 0, 0, NULL, "cookie: parse max-age as well", NULL, NULL, NULL },
	{ "PyTorch bot, human reason",
	    "Revert \"[inductor] fuse reductions (#165000)\"",
	    "This reverts commit " SHA_A ".\n\n"
	    "Reverted https://github.com/pytorch/pytorch/pull/165000 on behalf "
	    "of https://github.com/malfet due to Breaks internal builds, see "
	    "D84000000 ([comment](https://github.com/pytorch/pytorch/pull/"
	    "165000#issuecomment-3390000000))",
	    1, 0, 0, SHA_A, "[inductor] fuse reductions (#165000)",
	    "https://github.com/pytorch/pytorch/pull/165000", "malfet",
	    "Breaks internal builds, see D84000000" },
	{ "PyTorch autorevert",
	    "Revert \"[dynamo] trace through hooks (#165151)\"",
	    "This reverts commit " SHA_B ".\n\n"
	    "Reverted https://github.com/pytorch/pytorch/pull/165151 on behalf "
	    "of https://github.com/pytorch-auto-revert due to Reverted "
	    "automatically by pytorch's autorevert, to avoid this behaviour "
	    "add the tag autorevert: disable ([comment](https://github.com/"
	    "pytorch/pytorch/pull/165151#issuecomment-1))",
	    1, 0, 1, SHA_B, "[dynamo] trace through hooks (#165151)",
	    "https://github.com/pytorch/pytorch/pull/165151",
	    "pytorch-auto-revert",
	    "Reverted automatically by pytorch's autorevert, to avoid this "
	    "behaviour add the tag autorevert: disable" },
	{ "bot trailer without a comment link",
	    "Revert \"x (#1)\"",
	    "Reverted https://github.com/o/r/pull/1 on behalf of "
	    "https://github.com/someone due to flaky",
	    1, 0, 0, NULL, "x (#1)", "https://github.com/o/r/pull/1", "someone",
	    "flaky" },
	{ "sha line alone makes a revert",
	    "Undo the cache change",
	    "This reverts commit " SHA_B ".\n\nToo slow.",
	    1, 0, 0, SHA_B, NULL, NULL, NULL, "Too slow." },
	{ "merge revert continuation is not a reason",
	    "Revert \"Merge branch 'x'\"",
	    "This reverts commit " SHA_A ", reversing\nchanges made to " SHA_B
	    ".",
	    1, 0, 0, SHA_A, "Merge branch 'x'", NULL, NULL, NULL },
	{ "plain commit",
	    "Add MXFP8 MoE training recipe (#3850)",
	    "Adds a recipe.\n\nThis reverts nothing.\nPull Request resolved: "
	    "https://github.com/pytorch/ao/pull/3850",
	    0, 0, 0, NULL, NULL, NULL, NULL, NULL },
	{ "the word revert in a subject",
	    "Document how to revert a bad checkpoint", "",
	    0, 0, 0, NULL, NULL, NULL, NULL, NULL },
	{ "relandish word is not a tag",
	    "Relanding notes for the release", "",
	    0, 0, 0, NULL, NULL, NULL, NULL, NULL },
	{ "short sha is not kept",
	    "Revert \"foo\"", "This reverts commit abc1234.",
	    1, 0, 0, NULL, "foo", NULL, NULL, NULL },
	{ "NULL subject and body", NULL, NULL,
	    0, 0, 0, NULL, NULL, NULL, NULL, NULL },
};

static void
check_str(const char *name, const char *field, const char *got,
    const char *want)
{
	if (want == NULL && got == NULL)
		return;
	if (want == NULL || got == NULL || strcmp(got, want) != 0)
		fail_msg("%s: %s is \"%s\", want \"%s\"", name, field,
		    got ? got : "(null)", want ? want : "(null)");
}

static void
test_revert_table(void **state)
{
	struct revert_info	ri;
	size_t			i;
	const char		*name;

	for (i = 0; i < sizeof(revert_cases) / sizeof(revert_cases[0]); i++) {
		name = revert_cases[i].name;
		memset(&ri, 0, sizeof(ri));
		if (revert_parse(revert_cases[i].subject, revert_cases[i].body,
		    &ri) != 0)
			fail_msg("%s: failed", name);
		if (ri.is_revert != revert_cases[i].is_revert)
			fail_msg("%s: is_revert %d", name, ri.is_revert);
		if (ri.is_reland != revert_cases[i].is_reland)
			fail_msg("%s: is_reland %d", name, ri.is_reland);
		if (ri.automatic != revert_cases[i].automatic)
			fail_msg("%s: automatic %d", name, ri.automatic);
		check_str(name, "reverted_sha", ri.reverted_sha,
		    revert_cases[i].sha);
		check_str(name, "reverted_subject", ri.reverted_subject,
		    revert_cases[i].subj);
		check_str(name, "reverted_pr", ri.reverted_pr,
		    revert_cases[i].pr);
		check_str(name, "requested_by", ri.requested_by,
		    revert_cases[i].by);
		check_str(name, "reason", ri.reason, revert_cases[i].reason);
		revert_info_clear(&ri);
		assert_null(ri.reason);
	}
}

static const struct {
	const char	*message;
	const char	*subject;
	const char	*body;
} message_cases[] = {
	{ "One line", "One line", "" },
	{ "Subject\n\nBody text.", "Subject", "Body text." },
	{ "Subject\r\n\r\nBody\r\n", "Subject", "Body" },
	{ "Subject\n\n\n  indented\nmore\n\n", "Subject", "  indented\nmore" },
	{ "Subject\nno blank line", "Subject", "no blank line" },
	{ "", "", "" },
};

static void
test_commit_set_message(void **state)
{
	struct commit	c;
	size_t		i;

	for (i = 0; i < sizeof(message_cases) / sizeof(message_cases[0]);
	    i++) {
		memset(&c, 0, sizeof(c));
		assert_int_equal(commit_set_message(&c,
		    message_cases[i].message), 0);
		check_str(message_cases[i].message, "subject", c.subject,
		    message_cases[i].subject);
		check_str(message_cases[i].message, "body", c.body,
		    message_cases[i].body);
		/* a second message replaces the first */
		assert_int_equal(commit_set_message(&c, "New\n\nnew body"), 0);
		assert_string_equal(c.subject, "New");
		assert_string_equal(c.body, "new body");
		commit_clear(&c);
		assert_null(c.subject);
	}
	memset(&c, 0, sizeof(c));
	assert_int_equal(commit_set_message(&c, NULL), -1);
	assert_null(c.subject);
}

static void
test_record_clear_null(void **state)
{
	commit_clear(NULL);
	revert_info_clear(NULL);
	merged_pr_clear(NULL);
	push_clear(NULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_revert_table),
		cmocka_unit_test(test_commit_set_message),
		cmocka_unit_test(test_record_clear_null),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
