/* Unit tests: common/sizefmt.c */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "sizefmt.h"

static const struct {
	long long	 bytes;
	const char	*text;
} sizes[] = {
	{ 0, "0 bytes" },
	{ 1, "1 byte" },
	{ 1000, "1000 bytes" },
	{ 1024, "1K" },
	{ 1536, "1536 bytes" },
	{ 1536 * 1024, "1536K" },
	{ 64LL * 1024 * 1024, "64M" },
	{ 100LL * 1024 * 1024, "100M" },
	{ 1024LL * 1024 * 1024, "1G" },
	{ 3LL * 1024 * 1024 * 1024 + 1024 * 1024, "3073M" },
	{ LLONG_MAX, "9223372036854775807 bytes" },
};

static void
test_sizefmt(void **state)
{
	char	s[SIZEFMT_LEN];
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		assert_string_equal(sizefmt(s, sizeof(s), sizes[i].bytes),
		    sizes[i].text);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizefmt),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
