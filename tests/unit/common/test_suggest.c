/* Unit tests: common/suggest.c */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "suggest.h"

/* Distances: each kind of edit counts one. */
static const struct {
	const char	*a, *b;
	size_t		 dist;
} dists[] = {
	{ "", "", 0 },
	{ "listen", "listen", 0 },
	{ "", "abc", 3 },
	{ "abc", "", 3 },
	{ "listn", "listen", 1 },		/* insertion */
	{ "listeen", "listen", 1 },		/* deletion */
	{ "lisxen", "listen", 1 },		/* substitution */
	{ "litsen", "listen", 1 },		/* swap of neighbours */
	{ "max_bdoy", "max_body", 1 },
	{ "kitten", "sitting", 3 },
	{ "timezone", "emit_at", 7 },
	{ "ca", "abc", 3 },
};

static void
test_suggest_distance(void **state)
{
	char	long_word[SUGGEST_MAX + 2];
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof(dists) / sizeof(dists[0]); i++) {
		if (suggest_distance(dists[i].a, dists[i].b) != dists[i].dist)
			fail_msg("%s/%s: %zu, not %zu", dists[i].a, dists[i].b,
			    suggest_distance(dists[i].a, dists[i].b),
			    dists[i].dist);
		assert_int_equal(suggest_distance(dists[i].b, dists[i].a),
		    dists[i].dist);
	}
	memset(long_word, 'a', SUGGEST_MAX);
	long_word[SUGGEST_MAX] = '\0';
	assert_int_equal(suggest_distance(long_word, long_word), 0);
	long_word[SUGGEST_MAX] = 'a';
	long_word[SUGGEST_MAX + 1] = '\0';
	assert_true(suggest_distance(long_word, "a") == SIZE_MAX);
}

static const char *const keys[] = {
	"listen", "webhook_path", "secret_file", "state_dir", "output_dir",
	"max_body", "max_header", "timezone", "emit_at", "log_level",
};

/* Words, and the key suggested for each (NULL: none is close). */
static const struct {
	const char	*word;
	const char	*best;
} typos[] = {
	{ "listn", "listen" },
	{ "lisetn", "listen" },
	{ "max_bodi", "max_body" },
	{ "max-body", "max_body" },
	{ "outptu_dir", "output_dir" },
	{ "time_zone", "timezone" },
	{ "secretfile", "secret_file" },
	{ "loglevel", "log_level" },
	{ "listen", NULL },		/* known: nothing to suggest */
	{ "colour", NULL },
	{ "ab", NULL },
	{ "x", NULL },
	{ "", NULL },
	{ "frobnicate", NULL },
	{ "max", NULL },
};

static void
test_suggest_best(void **state)
{
	struct suggest	 s;
	const char	*got;
	size_t		 i, j;

	(void)state;
	for (i = 0; i < sizeof(typos) / sizeof(typos[0]); i++) {
		suggest_init(&s, typos[i].word);
		for (j = 0; j < sizeof(keys) / sizeof(keys[0]); j++)
			suggest_add(&s, keys[j]);
		got = suggest_best(&s);
		if (typos[i].best == NULL && got != NULL)
			fail_msg("%s: suggested %s", typos[i].word, got);
		if (typos[i].best != NULL && (got == NULL ||
		    strcmp(got, typos[i].best) != 0))
			fail_msg("%s: suggested %s, not %s", typos[i].word,
			    got != NULL ? got : "nothing", typos[i].best);
	}
	/* no candidate at all */
	suggest_init(&s, "listen");
	assert_null(suggest_best(&s));
	/* of equals, the first */
	suggest_init(&s, "cat");
	suggest_add(&s, "bat");
	suggest_add(&s, "hat");
	assert_string_equal(suggest_best(&s), "bat");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_suggest_distance),
		cmocka_unit_test(test_suggest_best),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
