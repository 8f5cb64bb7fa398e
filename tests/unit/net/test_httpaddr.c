/* Unit tests: net/httpaddr.c, the client behind trusted proxies. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>

#include <cmocka.h>

#include "http.h"

static const char *const trusted[] = { "127.0.0.1", "10.0.0.7", "::1" };
#define NTRUSTED	(sizeof(trusted) / sizeof(trusted[0]))

static void
test_client_addr_table(void **state)
{
	static const struct {
		const char	*peer;
		const char	*xff;
		const char	*want;
	} cases[] = {
		/* an untrusted peer: the header is anyone's */
		{ "192.0.2.1", "203.0.113.5", "192.0.2.1" },
		{ "192.0.2.1", NULL, "192.0.2.1" },
		/* a trusted peer without the header */
		{ "127.0.0.1", NULL, "127.0.0.1" },
		{ "127.0.0.1", "", "127.0.0.1" },
		/* the rightmost untrusted address */
		{ "127.0.0.1", "203.0.113.5", "203.0.113.5" },
		{ "127.0.0.1", "198.51.100.9, 203.0.113.5, 10.0.0.7",
		    "203.0.113.5" },
		{ "127.0.0.1", "198.51.100.9,203.0.113.5", "203.0.113.5" },
		{ "127.0.0.1", "  203.0.113.5 ,\t10.0.0.7  ", "203.0.113.5" },
		/* a forged leftmost entry is not believed */
		{ "127.0.0.1", "1.2.3.4, 203.0.113.5", "203.0.113.5" },
		/* all trusted: the leftmost */
		{ "127.0.0.1", "10.0.0.7, 127.0.0.1", "10.0.0.7" },
		/* garbage stops the walk at the last trusted hop */
		{ "127.0.0.1", "203.0.113.5, evil", "127.0.0.1" },
		{ "127.0.0.1", "203.0.113.5, 10.0.0.7, <script>", "127.0.0.1" },
		{ "127.0.0.1", "203.0.113.5, junk, 10.0.0.7", "10.0.0.7" },
		{ "127.0.0.1", "203.0.113.5,,", "127.0.0.1" },
		/* IPv6, bare or bracketed; trusted compared as addresses */
		{ "::1", "2001:db8::1", "2001:db8::1" },
		{ "0:0:0:0:0:0:0:1", "[2001:db8::2]", "[2001:db8::2]" },
		{ "127.0.0.1", "2001:db8::1, ::0001", "2001:db8::1" },
	};
	char	out[64];
	size_t	i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(http_client_addr(cases[i].peer, cases[i].xff,
		    trusted, NTRUSTED, out, sizeof(out)), 0);
		if (strcmp(out, cases[i].want) != 0)
			fail_msg("case %zu (%s, \"%s\"): got \"%s\", want \"%s\"",
			    i, cases[i].peer, cases[i].xff ? cases[i].xff :
			    "(null)", out, cases[i].want);
	}
}

static void
test_client_addr_small_out(void **state)
{
	char	out[8];

	assert_int_equal(http_client_addr("127.0.0.1", "203.0.113.5",
	    trusted, NTRUSTED, out, sizeof(out)), -1);
	assert_string_equal(out, "");
	assert_int_equal(http_client_addr("127.0.0.1", "1.2.3.4",
	    trusted, NTRUSTED, out, sizeof(out)), 0);
	assert_string_equal(out, "1.2.3.4");
	/* nothing trusted: the peer, whatever the header */
	assert_int_equal(http_client_addr("1.2.3.4", "5.6.7.8", NULL, 0,
	    out, sizeof(out)), 0);
	assert_string_equal(out, "1.2.3.4");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_client_addr_table),
		cmocka_unit_test(test_client_addr_small_out),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
