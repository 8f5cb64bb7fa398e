/*
 * Unit tests for the one repository-name rule (repo_name_ok): what intake
 * accepts, the archive lists and emission writes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "repo.h"
#include "xmalloc.h"

static void
test_names(void **state)
{
	static const struct {
		const char	*in;
		int		 ok;
	} cases[] = {
		{ "octocat/hello-world", 1 },
		{ "curl/curl", 1 },
		{ "o/r", 1 },
		{ "Octo_Org/Repo.Name-2", 1 },
		{ "octo-org/.github", 1 },	/* an organisation's profile */
		{ "octo-org/.dotfiles.", 1 },
		{ "octo-org/...", 1 },		/* not special as a folder */
		{ "owner/..x", 1 },
		{ "octo-org/.", 0 },
		{ "octo-org/..", 0 },
		{ ".octo/widget", 0 },		/* no owner starts with '.' */
		{ "./widget", 0 },
		{ "../widget", 0 },
		{ "..", 0 },
		{ ".", 0 },
		{ "", 0 },
		{ "/", 0 },
		{ "owner/", 0 },
		{ "/name", 0 },
		{ "owner", 0 },
		{ "a/b/c", 0 },
		{ "owner//name", 0 },
		{ "owner/name/", 0 },
		{ "/owner/name", 0 },
		{ "owner/na me", 0 },
		{ "own er/name", 0 },
		{ " owner/name", 0 },
		{ "owner/name ", 0 },
		{ "owner/name\n", 0 },
		{ "owner/na\tme", 0 },
		{ "owner/na\\me", 0 },
		{ "owner/na:me", 0 },
		{ "owner/na%2fme", 0 },
		{ "owner/na*me", 0 },
		{ "owner/caf\xc3\xa9", 0 },	/* letters are ASCII */
		{ "owner/name\x7f", 0 },
		{ "~owner/name", 0 },
	};
	size_t	i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (repo_name_ok(cases[i].in) != cases[i].ok)
			fail_msg("case %zu: '%s' gives %d, want %d", i,
			    cases[i].in, repo_name_ok(cases[i].in),
			    cases[i].ok);
	assert_int_equal(repo_name_ok(NULL), 0);
}

/* Names of n characters of c. */
static char *
run_of(char c, size_t n)
{
	char	*s = xcalloc(1, n + 1);

	memset(s, c, n);
	return s;
}

static void
test_lengths(void **state)
{
	static const struct {
		size_t	 owner, name;
		int	 ok;
	} cases[] = {
		{ 1, 1, 1 },
		{ REPO_OWNER_MAX, 1, 1 },
		{ 1, REPO_NAME_MAX, 1 },
		{ REPO_OWNER_MAX, REPO_NAME_MAX, 1 },
		{ REPO_OWNER_MAX + 1, 1, 0 },
		{ 1, REPO_NAME_MAX + 1, 0 },
		{ REPO_OWNER_MAX + 1, REPO_NAME_MAX + 1, 0 },
		{ 0, 1, 0 },
		{ 1, 0, 0 },
		{ 1000, 1000, 0 },
	};
	char	*owner, *name, *s;
	size_t	 i;

	assert_int_equal(REPO_OWNER_MAX, 100);
	assert_int_equal(REPO_NAME_MAX, 100);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		owner = run_of('o', cases[i].owner);
		name = run_of('n', cases[i].name);
		xasprintf(&s, "%s/%s", owner, name);
		if (repo_name_ok(s) != cases[i].ok)
			fail_msg("case %zu: owner %zu, name %zu chars: want %d",
			    i, cases[i].owner, cases[i].name, cases[i].ok);
		free(s);
		/* a name starting with '.' has the same bounds */
		if (cases[i].name >= 2) {
			name[0] = '.';
			xasprintf(&s, "%s/%s", owner, name);
			if (repo_name_ok(s) != cases[i].ok)
				fail_msg("case %zu: '.' + %zu chars: want %d",
				    i, cases[i].name - 1, cases[i].ok);
			free(s);
		}
		free(name);
		free(owner);
	}
}

/* Every byte but the allowed ones is refused, anywhere in either part. */
static void
test_bytes(void **state)
{
	char	s[8];
	int	c, want;

	for (c = 1; c < 256; c++) {
		want = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
		snprintf(s, sizeof(s), "o%c/n", c);
		if (c != '/' && repo_name_ok(s) != want)
			fail_msg("owner byte 0x%02x: want %d", c, want);
		snprintf(s, sizeof(s), "o/n%c", c);
		if (c != '/' && repo_name_ok(s) != want)
			fail_msg("name byte 0x%02x: want %d", c, want);
	}
}

/* repo_url_ok: what a repository's links may be built from. */
static void
test_urls(void **state)
{
	static const struct {
		const char	*url;
		const char	*name;
		int		 ok;
	} cases[] = {
		{ "https://github.com/redis/redis", "redis/redis", 1 },
		{ "https://github.com/Octo_Org/Repo.Name-2", "Octo_Org/Repo.Name-2",
		    1 },
		{ "http://ghe.example.com/o/r", "o/r", 1 },
		{ "https://ghe.example.com:8443/o/r", "o/r", 1 },
		{ "https://ghe.example.com/git/o/r", "o/r", 1 },
		{ "https://ghe.example.com/%7Eu/o/r", "o/r", 1 },
		/* another repository's page, or none */
		{ "https://github.com/redis/other", "redis/redis", 0 },
		{ "https://github.com/xredis/redis", "redis/redis", 0 },
		{ "https://github.com/redis/redis/", "redis/redis", 0 },
		{ "https://github.com/redis/redis", "Redis/Redis", 0 },
		{ "https://github.com/redis/redis", "bad", 0 },
		{ "https://redis/redis", "redis/redis", 0 },	/* no host */
		{ "https:///redis/redis", "redis/redis", 0 },
		{ "https://:1/redis/redis", "redis/redis", 0 },
		{ "https://github.com//redis/redis", "redis/redis", 0 },
		{ "https://github.com/o//r", "o//r", 0 },
		{ "https:/redis/redis", "redis/redis", 0 },
		/* schemes: none but http and https */
		{ "javascript:alert(1)//o/r", "o/r", 0 },
		{ "javascript://github.com/o/r", "o/r", 0 },
		{ "ftp://github.com/o/r", "o/r", 0 },
		{ "HTTPS://github.com/o/r", "o/r", 0 },
		{ "//github.com/o/r", "o/r", 0 },
		{ "github.com/o/r", "o/r", 0 },
		{ "data:text/html,x/o/r", "o/r", 0 },
		/* what would break out of a link or a line */
		{ "https://github.com/x)/o/r", "o/r", 0 },
		{ "https://github.com/x(/o/r", "o/r", 0 },
		{ "https://github.com/x]/o/r", "o/r", 0 },
		{ "https://github.com/x\"/o/r", "o/r", 0 },
		{ "https://github.com/x'/o/r", "o/r", 0 },
		{ "https://github.com/x>/o/r", "o/r", 0 },
		{ "https://github.com/x</o/r", "o/r", 0 },
		{ "https://github.com/x y/o/r", "o/r", 0 },
		{ "https://github.com/x\n/o/r", "o/r", 0 },
		{ "https://github.com/x\r/o/r", "o/r", 0 },
		{ "https://github.com/x\t/o/r", "o/r", 0 },
		{ "https://github.com/x\x7f/o/r", "o/r", 0 },
		{ "https://github.com/x`/o/r", "o/r", 0 },
		{ "https://github.com/x\\/o/r", "o/r", 0 },
		{ "https://github.com/x?/o/r", "o/r", 0 },
		{ "https://github.com/x#/o/r", "o/r", 0 },
		{ "https://github.com/x&/o/r", "o/r", 0 },
		{ "https://evil@github.com/o/r", "o/r", 0 },
		{ "https://github.com/%zz/o/r", "o/r", 0 },
		{ "https://github.com/%4/o/r", "o/r", 0 },
		{ "https://git\xc3\xa9hub.com/o/r", "o/r", 0 },
		{ "", "o/r", 0 },
	};
	char	*host, *url, *full;
	size_t	 i, n, fixed;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (repo_url_ok(cases[i].url, cases[i].name) != cases[i].ok)
			fail_msg("case %zu: '%s' of '%s' gives %d, want %d", i,
			    cases[i].url, cases[i].name,
			    repo_url_ok(cases[i].url, cases[i].name),
			    cases[i].ok);
	assert_int_equal(repo_url_ok(NULL, "o/r"), 0);
	assert_int_equal(repo_url_ok("https://github.com/o/r", NULL), 0);

	/* REPO_URL_MAX bytes and no more: "https://" HOST "/o/" NAME */
	full = run_of('n', REPO_NAME_MAX + 2);
	memcpy(full, "o/", 2);
	fixed = strlen("https://") + 1 + strlen(full);
	for (n = REPO_URL_MAX - 2; n <= REPO_URL_MAX + 2; n++) {
		host = run_of('h', n - fixed);
		xasprintf(&url, "https://%s/%s", host, full);
		assert_int_equal(strlen(url), n);
		if (repo_url_ok(url, full) != (n <= REPO_URL_MAX))
			fail_msg("%zu bytes: want %d", n, n <= REPO_URL_MAX);
		free(url);
		free(host);
	}
	free(full);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_lengths),
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_urls),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
