/* Unit tests for episode/rollback.c: the work a revert wrapper names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "draft_int.h"

/* rollback_peel: what the reverted change did, never the wrapper. */
static void
test_peel(void **state)
{
	static const struct {
		const char	*rule, *subject, *want; /* want NULL: none */
	} cases[] = {
		{ "conventional wrapper", "fix: revert, \"fix: resolve the "
		    "root instead of cwd (#22757)\"",
		    "resolve the root instead of cwd" },
		{ "git revert", "Revert \"tool: add a retry delay\"",
		    "add a retry delay" },
		{ "with a PR suffix", "Revert \"LowBitPacking kernels on x86 "
		    "(#3807)\" (#3875)", "LowBitPacking kernels on x86" },
		{ "revert of a revert", "Revert \"Revert \"add the cache\"\"",
		    "add the cache" },
		{ "reapply", "Reapply \"[x] add the cache\"", "add the cache" },
		{ "no wrapper", "fix: escape ids", NULL },
		{ "revert in a sentence", "docs: explain how to revert a "
		    "release", NULL },
		{ "unclosed quote", "Revert \"add the cache",
		    "add the cache" },
	};
	size_t	 i;
	char	*s;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		s = rollback_peel(cases[i].subject);
		if (cases[i].want == NULL) {
			if (s != NULL)
				fail_msg("%s: got \"%s\"", cases[i].rule, s);
		} else if (s == NULL || strcmp(s, cases[i].want) != 0)
			fail_msg("%s: got \"%s\", want \"%s\"", cases[i].rule,
			    s != NULL ? s : "(null)", cases[i].want);
		free(s);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_peel),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
