/* Unit tests: common/hostport.c */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "hostport.h"

/* Addresses read: the host and the port. */
static const struct {
	const char	*in;
	const char	*host;
	int		 port;
	int		 bracketed;
} good[] = {
	{ "127.0.0.1:8080", "127.0.0.1", 8080, 0 },
	{ "0.0.0.0:80", "0.0.0.0", 80, 0 },
	{ "localhost:0", "localhost", 0, 0 },
	{ "example.org:65535", "example.org", 65535, 0 },
	{ "127.0.0.1:00080", "127.0.0.1", 80, 0 },
	{ "[::1]:8081", "::1", 8081, 1 },
	{ "[::]:443", "::", 443, 1 },
	{ "[2001:db8::42]:9", "2001:db8::42", 9, 1 },
	{ "[fe80::1%eth0]:80", "fe80::1%eth0", 80, 1 },
	{ "[::ffff:127.0.0.1]:1", "::ffff:127.0.0.1", 1, 1 },
};

/* Addresses refused, with a word the cause must hold. */
static const struct {
	const char	*in;
	const char	*cause;
} bad[] = {
	{ "", "no address" },
	{ "nohostport", "no ':port'" },
	{ "127.0.0.1:", "no port" },
	{ ":8080", "no host" },
	{ "127.0.0.1:http", "not a number" },
	{ "127.0.0.1:65536", "not a number" },
	{ "127.0.0.1:99999999999999999999", "not a number" },
	{ "127.0.0.1:-1", "not a number" },
	{ "127.0.0.1:+80", "not a number" },
	{ "127.0.0.1:80 ", "not a number" },
	{ "::1:8080", "brackets" },
	{ "::1", "brackets" },
	{ "[::1]", "no ':port'" },
	{ "[::1]:", "no port" },
	{ "[::1]8080", "followed by ':port'" },
	{ "[::1]x:80", "followed by ':port'" },
	{ "[::1:80", "']'" },
	{ "[]:80", "no host" },
	{ "[127.0.0.1]:80", "IPv6" },
	{ "[localhost]:80", "IPv6" },
	{ "[::1]:80]:81", "not a number" },
	{ "host]:80", "bracket" },
	{ "ho[st:80", "bracket" },
	{ "my host:80", "space" },
	{ " 127.0.0.1:80", "space" },
	{ "127.0.0.1\n:80", "control" },
};

static void
test_hostport_good(void **state)
{
	struct hostport	 hp;
	const char	*cause;
	size_t		 i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		cause = NULL;
		memset(&hp, 0xa5, sizeof(hp));
		if (hostport_parse(good[i].in, &hp, &cause) != 0)
			fail_msg("\"%s\": refused: %s", good[i].in, cause);
		if (strcmp(hp.host, good[i].host) != 0 ||
		    hp.port != good[i].port ||
		    hp.bracketed != good[i].bracketed)
			fail_msg("\"%s\": got \"%s\" %d %d, want \"%s\" %d %d",
			    good[i].in, hp.host, hp.port, hp.bracketed,
			    good[i].host, good[i].port, good[i].bracketed);
	}
}

static void
test_hostport_bad(void **state)
{
	struct hostport	 hp, was;
	const char	*cause;
	size_t		 i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cause = NULL;
		memset(&hp, 0xa5, sizeof(hp));
		was = hp;
		if (hostport_parse(bad[i].in, &hp, &cause) != -1)
			fail_msg("\"%s\": accepted as \"%s\" port %d",
			    bad[i].in, hp.host, hp.port);
		if (cause == NULL || strstr(cause, bad[i].cause) == NULL)
			fail_msg("\"%s\": cause \"%s\", want one with \"%s\"",
			    bad[i].in, cause != NULL ? cause : "(none)",
			    bad[i].cause);
		/* out-parameters are set only on success */
		if (memcmp(&hp, &was, sizeof(hp)) != 0)
			fail_msg("\"%s\": refused but *hp changed", bad[i].in);
	}
}

static void
test_hostport_null_and_long(void **state)
{
	struct hostport	 hp;
	const char	*cause = NULL;
	char		 in[sizeof(hp.host) + 16];

	assert_int_equal(hostport_parse(NULL, &hp, &cause), -1);
	assert_non_null(cause);

	/* the longest host that fits, then one more byte */
	memset(in, 'a', sizeof(hp.host) - 1);
	snprintf(in + sizeof(hp.host) - 1, 16, ":1");
	assert_int_equal(hostport_parse(in, &hp, &cause), 0);
	assert_int_equal(strlen(hp.host), sizeof(hp.host) - 1);
	memset(in, 'a', sizeof(hp.host));
	snprintf(in + sizeof(hp.host), 16, ":1");
	assert_int_equal(hostport_parse(in, &hp, &cause), -1);
	assert_non_null(strstr(cause, "too long"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hostport_good),
		cmocka_unit_test(test_hostport_bad),
		cmocka_unit_test(test_hostport_null_and_long),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
