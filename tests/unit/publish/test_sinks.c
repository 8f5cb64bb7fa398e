/* Unit tests: publish/sinks.c, a sink's section as the outbox reads it */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>

#include <cmocka.h>

#include "sink.h"

static void
test_sink_find(void **state)
{
	struct sink_conf	v[2];

	memset(v, 0, sizeof(v));
	v[0].name = "hub";
	v[1].name = "chat";
	assert_ptr_equal(sink_find(v, 2, "hub"), &v[0]);
	assert_ptr_equal(sink_find(v, 2, "chat"), &v[1]);
	assert_null(sink_find(v, 2, "Chat"));
	assert_null(sink_find(v, 2, "nope"));
	assert_null(sink_find(v, 0, "hub"));
}

static void
test_sink_matches(void **state)
{
	struct sink_conf	 s;
	char			*globs[] = { "acme/*", "other/one" };
	char			*shows[] = { "acme-daily" };

	memset(&s, 0, sizeof(s));
	/* no repositories: every one */
	assert_true(sink_matches(&s, "anyone/anything"));
	s.repositories.v = globs;
	s.repositories.n = 2;
	assert_true(sink_matches(&s, "acme/widget"));
	assert_true(sink_matches(&s, "ACME/Widget"));	/* any case */
	assert_true(sink_matches(&s, "other/one"));
	assert_false(sink_matches(&s, "other/two"));
	assert_false(sink_matches(&s, "acmeish/widget"));
	/* a show's episodes by its slug, besides the repositories */
	assert_false(sink_matches(&s, "shows/acme-daily"));
	s.shows.v = shows;
	s.shows.n = 1;
	assert_true(sink_matches(&s, "shows/acme-daily"));
	assert_false(sink_matches(&s, "shows/other-daily"));
	assert_true(sink_matches(&s, "acme/widget"));
	/* shows alone: those shows, no repository */
	s.repositories.n = 0;
	assert_true(sink_matches(&s, "shows/acme-daily"));
	assert_false(sink_matches(&s, "acme/widget"));
	assert_false(sink_matches(&s, "shows/acme"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sink_find),
		cmocka_unit_test(test_sink_matches),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
