/*
 * Unit tests for serving the archive: the request path (what is a file
 * of a repository's folder and what is refused), the Range header, the
 * entity-tag list and the HTTP date, each a table.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "serve.h"
#include "webhook.h"

static void
test_parse_path(void **state)
{
	static const struct {
		const char	*path;
		int		 rv;
		const char	*repo, *file, *type;
	} cases[] = {
		{ "/episodes/curl/curl/feed.xml", 0, "curl/curl", "feed.xml",
		    "application/rss+xml; charset=utf-8" },
		{ "/episodes/o/r/2026-06-01.mp3", 0, "o/r", "2026-06-01.mp3",
		    "audio/mpeg" },
		{ "/episodes/o/r/2026-06-01-2.vtt", 0, "o/r", "2026-06-01-2.vtt",
		    "text/vtt; charset=utf-8" },
		{ "/episodes/o/r/2026-06-01.txt", 0, "o/r", "2026-06-01.txt",
		    "text/plain; charset=utf-8" },
		{ "/episodes/o/r/2026-06-01-recap.md", 0, "o/r",
		    "2026-06-01-recap.md", "text/markdown; charset=utf-8" },
		{ "/episodes/o/r/2026-06-01.json", 0, "o/r", "2026-06-01.json",
		    "application/json" },
		{ "/episodes/octo-org/.github/feed.xml", 0, "octo-org/.github",
		    "feed.xml", "application/rss+xml; charset=utf-8" },
		/* traversal, plain and encoded */
		{ "/episodes/o/r/../../x.txt", -1, NULL, NULL, NULL },
		{ "/episodes/../r/x.txt", -1, NULL, NULL, NULL },
		{ "/episodes/o/../x.txt", -1, NULL, NULL, NULL },
		{ "/episodes/o/./x.txt", -1, NULL, NULL, NULL },
		{ "/episodes/./r/x.txt", -1, NULL, NULL, NULL },
		{ "/episodes/o/r/%2e%2e/x.txt", -1, NULL, NULL, NULL },
		{ "/episodes/o/r/%2e%2e%2fx.txt", -1, NULL, NULL, NULL },
		{ "/episodes/o%2Fr/feed.xml", -1, NULL, NULL, NULL },
		{ "/episodes/o/r/feed%2exml", -1, NULL, NULL, NULL },
		{ "/episodes/o/r/..\\x.txt", -1, NULL, NULL, NULL },
		{ "/episodes/o/r/a\\b.txt", -1, NULL, NULL, NULL },
		/* depth */
		{ "/episodes//etc/passwd", -1, NULL, NULL, NULL },
		{ "/episodes/o/r//x.txt", -1, NULL, NULL, NULL },
		{ "/episodes/o/r/", -1, NULL, NULL, NULL },
		{ "/episodes/o/r", -1, NULL, NULL, NULL },
		{ "/episodes/o/", -1, NULL, NULL, NULL },
		{ "/episodes/", -1, NULL, NULL, NULL },
		{ "/episodes", -1, NULL, NULL, NULL },
		{ "/episodes/o/r/s/x.txt", -1, NULL, NULL, NULL },
		{ "/episodes/o/r/feed.xml/", -1, NULL, NULL, NULL },
		{ "/other/o/r/feed.xml", -1, NULL, NULL, NULL },
		{ "episodes/o/r/feed.xml", -1, NULL, NULL, NULL },
		/* hidden files, other names */
		{ "/episodes/o/r/.hidden.txt", -1, NULL, NULL, NULL },
		{ "/episodes/o/r/.mp3", -1, NULL, NULL, NULL },
		{ "/episodes/.o/r/feed.xml", -1, NULL, NULL, NULL },
		{ "/episodes/o/r/notes.conf", -1, NULL, NULL, NULL },
		{ "/episodes/o/r/other.xml", -1, NULL, NULL, NULL },
		{ "/episodes/o/r/x.mp3.bak", -1, NULL, NULL, NULL },
		{ "/episodes/o/r/x mp3.mp3", -1, NULL, NULL, NULL },
		{ "/episodes/o/r/x.MP3", -1, NULL, NULL, NULL },
		{ "/episodes/o/r/x\xc3\xa9.txt", -1, NULL, NULL, NULL },
		{ "/episodes/o/r/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		    "aaaaaaaaaaaaaaaaaaaaaaaaa.txt", -1, NULL, NULL, NULL },
	};
	struct serve_path	sp;
	size_t			i;
	int			rv;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&sp, 0, sizeof(sp));
		rv = serve_parse_path(&webhook_archive, cases[i].path,
		    &sp);
		if (rv != cases[i].rv)
			fail_msg("case %zu '%s': %d, want %d", i, cases[i].path,
			    rv, cases[i].rv);
		if (rv != 0)
			continue;
		assert_string_equal(sp.dir, cases[i].repo);
		assert_string_equal(sp.file, cases[i].file);
		assert_string_equal(sp.type, cases[i].type);
	}
	assert_true(serve_match(&webhook_archive, "/episodes/x"));
	assert_true(serve_match(&webhook_archive, "/episodes"));
	assert_false(serve_match(&webhook_archive, "/episodesx"));
	assert_false(serve_match(&webhook_archive, "/webhook"));
}

/*
 * Sites of other shapes than the archive's: no folder, or one with no
 * check of its own, and names served by exact name and by extension.
 */
static void
test_parse_path_sites(void **state)
{
	static const struct serve_type types[] = {
		{ "index", "text/x-index" },
		{ "*.txt", "text/plain" },
	};
	static const struct serve_site flat = {
		.prefix = "/s/", .depth = 0, .types = types, .ntypes = 2,
	}, one = {
		.prefix = "/f/", .depth = 1, .types = types, .ntypes = 2,
	};
	static const struct {
		const struct serve_site	*site;
		const char		*path;
		int			 rv;
		const char		*dir, *file, *type;
	} cases[] = {
		{ &flat, "/s/b.txt", 0, "", "b.txt", "text/plain" },
		{ &flat, "/s/index", 0, "", "index", "text/x-index" },
		{ &flat, "/s/a/b.txt", -1, NULL, NULL, NULL },
		{ &flat, "/s/xindex", -1, NULL, NULL, NULL },
		{ &flat, "/s/.txt", -1, NULL, NULL, NULL },
		{ &flat, "/s/", -1, NULL, NULL, NULL },
		{ &one, "/f/a/b.txt", 0, "a", "b.txt", "text/plain" },
		{ &one, "/f/.a/b.txt", 0, ".a", "b.txt", "text/plain" },
		{ &one, "/f/b.txt", -1, NULL, NULL, NULL },
		{ &one, "/f/./b.txt", -1, NULL, NULL, NULL },
		{ &one, "/f/../b.txt", -1, NULL, NULL, NULL },
		{ &one, "/f//b.txt", -1, NULL, NULL, NULL },
		{ &one, "/f/a/b/c.txt", -1, NULL, NULL, NULL },
		{ &one, "/f/a/b.md", -1, NULL, NULL, NULL },
	};
	struct serve_path	sp;
	size_t			i;
	int			rv;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&sp, 0, sizeof(sp));
		rv = serve_parse_path(cases[i].site, cases[i].path, &sp);
		if (rv != cases[i].rv)
			fail_msg("case %zu '%s': %d, want %d", i, cases[i].path,
			    rv, cases[i].rv);
		if (rv != 0)
			continue;
		assert_string_equal(sp.dir, cases[i].dir);
		assert_string_equal(sp.file, cases[i].file);
		assert_string_equal(sp.type, cases[i].type);
	}
	assert_true(serve_match(&one, "/f"));
	assert_true(serve_match(&one, "/f/"));
	assert_false(serve_match(&one, "/fx"));
	assert_false(serve_match(&one, "/"));
}

static void
test_parse_range(void **state)
{
	static const struct {
		const char		*value;
		long long		 size;
		enum serve_range	 want;
		long long		 first, last;
	} cases[] = {
		{ "bytes=0-99", 1000, SERVE_RANGE_OK, 0, 99 },
		{ "bytes=100-299", 1000, SERVE_RANGE_OK, 100, 299 },
		{ "bytes=999-999", 1000, SERVE_RANGE_OK, 999, 999 },
		{ "bytes=500-", 1000, SERVE_RANGE_OK, 500, 999 },
		{ "bytes=0-", 1000, SERVE_RANGE_OK, 0, 999 },
		{ "bytes=-1", 1000, SERVE_RANGE_OK, 999, 999 },
		{ "bytes=-300", 1000, SERVE_RANGE_OK, 700, 999 },
		{ "bytes=-5000", 1000, SERVE_RANGE_OK, 0, 999 },
		{ "bytes=900-5000", 1000, SERVE_RANGE_OK, 900, 999 },
		{ "Bytes=1-2", 1000, SERVE_RANGE_OK, 1, 2 },
		{ "bytes= 1-2 ", 1000, SERVE_RANGE_OK, 1, 2 },
		{ "bytes=0-999999999999999999", 10, SERVE_RANGE_OK, 0, 9 },
		/* unsatisfiable */
		{ "bytes=1000-", 1000, SERVE_RANGE_UNSATISFIABLE, 0, 0 },
		{ "bytes=1000-2000", 1000, SERVE_RANGE_UNSATISFIABLE, 0, 0 },
		{ "bytes=-0", 1000, SERVE_RANGE_UNSATISFIABLE, 0, 0 },
		{ "bytes=0-", 0, SERVE_RANGE_UNSATISFIABLE, 0, 0 },
		{ "bytes=-5", 0, SERVE_RANGE_UNSATISFIABLE, 0, 0 },
		/* not one range of that form: ignored */
		{ "bytes=0-1,5-6", 1000, SERVE_RANGE_NONE, 0, 0 },
		{ "bytes=5-1", 1000, SERVE_RANGE_NONE, 0, 0 },
		{ "bytes=-", 1000, SERVE_RANGE_NONE, 0, 0 },
		{ "bytes=", 1000, SERVE_RANGE_NONE, 0, 0 },
		{ "bytes=a-b", 1000, SERVE_RANGE_NONE, 0, 0 },
		{ "bytes=1-2x", 1000, SERVE_RANGE_NONE, 0, 0 },
		{ "bytes=--1", 1000, SERVE_RANGE_NONE, 0, 0 },
		{ "bytes=+1-2", 1000, SERVE_RANGE_NONE, 0, 0 },
		{ "items=0-1", 1000, SERVE_RANGE_NONE, 0, 0 },
		{ "0-1", 1000, SERVE_RANGE_NONE, 0, 0 },
		{ "", 1000, SERVE_RANGE_NONE, 0, 0 },
		{ "bytes=1234567890123456789-", 1000, SERVE_RANGE_NONE, 0, 0 },
		{ NULL, 1000, SERVE_RANGE_NONE, 0, 0 },
	};
	enum serve_range	r;
	long long		first, last;
	size_t			i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		first = last = -1;
		r = serve_parse_range(cases[i].value, cases[i].size, &first,
		    &last);
		if (r != cases[i].want)
			fail_msg("case %zu '%s': %d, want %d", i,
			    cases[i].value ? cases[i].value : "(null)", r,
			    cases[i].want);
		if (r == SERVE_RANGE_OK) {
			assert_int_equal(first, cases[i].first);
			assert_int_equal(last, cases[i].last);
		} else {
			/* set only on success */
			assert_int_equal(first, -1);
			assert_int_equal(last, -1);
		}
	}
}

static void
test_etag_match(void **state)
{
	static const struct {
		const char	*value, *etag;
		int		 want;
	} cases[] = {
		{ "\"1f-2a\"", "\"1f-2a\"", 1 },
		{ "W/\"1f-2a\"", "\"1f-2a\"", 1 },
		{ "\"x\", \"1f-2a\"", "\"1f-2a\"", 1 },
		{ "\"x\",W/\"1f-2a\"", "\"1f-2a\"", 1 },
		{ "*", "\"1f-2a\"", 1 },
		{ "\"1f-2a\"", "W/\"1f-2a\"", 1 },
		{ "\"1f-2b\"", "\"1f-2a\"", 0 },
		{ "\"1f-2a", "\"1f-2a\"", 0 },
		{ "1f-2a", "\"1f-2a\"", 0 },
		{ "\"1f-2a\"x", "\"1f-2a\"", 0 },
		{ "", "\"1f-2a\"", 0 },
		{ "\"\"", "\"1f-2a\"", 0 },
		{ NULL, "\"1f-2a\"", 0 },
	};
	size_t	i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (serve_etag_match(cases[i].value, cases[i].etag) !=
		    cases[i].want)
			fail_msg("case %zu '%s' against '%s': want %d", i,
			    cases[i].value ? cases[i].value : "(null)",
			    cases[i].etag, cases[i].want);
}

static void
test_http_date(void **state)
{
	static const struct {
		const char	*value;
		time_t		 want;
	} cases[] = {
		{ "Sun, 06 Nov 1994 08:49:37 GMT", 784111777 },
		{ "Wed, 06 May 2026 10:00:44 GMT", 1778061644 },
		{ "Thu, 01 Jan 1970 00:00:00 GMT", 0 },
		{ "Sun, 06 Nov 1994 08:49:37", -1 },
		{ "Sunday, 06-Nov-94 08:49:37 GMT", -1 },
		{ "Sun, 06 Nov 1994 08:49:37 GMT trailing", -1 },
		{ "", -1 },
		{ NULL, -1 },
	};
	size_t	i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (serve_http_date(cases[i].value) != cases[i].want)
			fail_msg("case %zu '%s': %lld, want %lld", i,
			    cases[i].value ? cases[i].value : "(null)",
			    (long long)serve_http_date(cases[i].value),
			    (long long)cases[i].want);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_path),
		cmocka_unit_test(test_parse_path_sites),
		cmocka_unit_test(test_parse_range),
		cmocka_unit_test(test_etag_match),
		cmocka_unit_test(test_http_date),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
