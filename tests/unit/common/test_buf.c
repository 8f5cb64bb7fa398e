/* Unit tests: common/buf.c */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "buf.h"

/*
 * buf_printf formats into the room the buffer has and again only when it
 * did not fit: every length of what is added, after every length already
 * there, across the capacities the buffer goes through, gives the same
 * bytes as snprintf, with the length and the NUL right.
 */
static void
test_printf_every_length(void **state)
{
	char		 add[600], want[1200];
	struct buf	 b;
	size_t		 pre, n;

	(void)state;
	for (n = 0; n < sizeof(add) - 1; n++)
		add[n] = (char)('a' + n % 26);
	for (pre = 0; pre < 140; pre++) {
		for (n = 0; n < sizeof(add) - 1; n += n < 140 ? 1 : 37) {
			buf_init(&b);
			memset(want, 'P', pre);
			want[pre] = '\0';
			buf_append(&b, want, pre);
			buf_printf(&b, "<%.*s|%zu>", (int)n, add, n);
			snprintf(want + pre, sizeof(want) - pre, "<%.*s|%zu>",
			    (int)n, add, n);
			assert_int_equal(b.len, strlen(want));
			assert_string_equal(buf_str(&b), want);
			assert_true(b.cap > b.len);
			buf_free(&b);
		}
	}
}

/* Many small appends in a row, as a reply's head is built. */
static void
test_printf_appends(void **state)
{
	struct buf	 b;
	char		 want[8192];
	size_t		 off = 0;
	int		 i;

	(void)state;
	buf_init(&b);
	for (i = 0; i < 500; i++) {
		buf_printf(&b, "%d,%s;", i, i % 2 ? "odd" : "even");
		off += (size_t)snprintf(want + off, sizeof(want) - off,
		    "%d,%s;", i, i % 2 ? "odd" : "even");
	}
	assert_int_equal(b.len, off);
	assert_string_equal(buf_str(&b), want);
	buf_free(&b);
}

/* An empty format adds nothing and leaves a string. */
static void
test_printf_empty(void **state)
{
	struct buf	b;

	(void)state;
	buf_init(&b);
	buf_printf(&b, "%s", "");
	assert_int_equal(b.len, 0);
	assert_string_equal(buf_str(&b), "");
	buf_free(&b);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_printf_every_length),
		cmocka_unit_test(test_printf_appends),
		cmocka_unit_test(test_printf_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
