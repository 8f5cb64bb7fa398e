/* Unit tests: daemon/redisj.c (what needs no server: URLs and entry ids) */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "redisj.h"

static const struct {
	const char	*url;
	const char	*host;		/* NULL: refused */
	int		 port;
	int		 db;
	const char	*why;		/* a word of the refusal */
} url_cases[] = {
	{ "redis://127.0.0.1:6379/0", "127.0.0.1", 6379, 0, NULL },
	{ "redis://redis.internal", "redis.internal", 6379, 0, NULL },
	{ "redis://redis.internal/", "redis.internal", 6379, 0, NULL },
	{ "redis://h:7000", "h", 7000, 0, NULL },
	{ "redis://h:7000/15", "h", 7000, 15, NULL },
	{ "redis://h/3", "h", 6379, 3, NULL },
	{ "http://h:6379/0", NULL, 0, 0, "redis://" },
	{ "redis://", NULL, 0, 0, "host" },
	{ "redis://:6379/0", NULL, 0, 0, "host" },
	{ "redis://h:0/0", NULL, 0, 0, "port" },
	{ "redis://h:65536/0", NULL, 0, 0, "port" },
	{ "redis://h:63x79/0", NULL, 0, 0, "port" },
	{ "redis://h:/0", NULL, 0, 0, "port" },
	{ "redis://h:6379/x", NULL, 0, 0, "database" },
	{ "redis://h:6379/1/2", NULL, 0, 0, "database" },
	{ "redis://h:6379/-1", NULL, 0, 0, "database" },
	{ "redis://user:secret@h:6379/0", NULL, 0, 0, "password" },
	{ "redis://h?x", NULL, 0, 0, "redis://" },
};

static void
test_redisj_urls(void **state)
{
	struct redisj_conf	 conf;
	const char		*why;
	size_t			 i;
	int			 rc;

	(void)state;
	for (i = 0; i < sizeof(url_cases) / sizeof(url_cases[0]); i++) {
		memset(&conf, 0, sizeof(conf));
		why = NULL;
		rc = redisj_parse_url(url_cases[i].url, &conf, &why);
		if (url_cases[i].host == NULL) {
			if (rc != -1 || why == NULL ||
			    strstr(why, url_cases[i].why) == NULL)
				fail_msg("%s: want refused for its %s, got %d "
				    "(%s)", url_cases[i].url, url_cases[i].why,
				    rc, why != NULL ? why : "no reason");
		} else {
			if (rc != 0)
				fail_msg("%s: refused: %s", url_cases[i].url,
				    why);
			assert_string_equal(conf.host, url_cases[i].host);
			assert_int_equal(conf.port, url_cases[i].port);
			assert_int_equal(conf.db, url_cases[i].db);
		}
		free(conf.host);
	}
}

static void
test_redisj_ids(void **state)
{
	uint64_t	ms, seq;

	(void)state;
	assert_int_equal(redisj_id_parse("1796399177819-0", &ms, &seq), 0);
	assert_true(ms == 1796399177819ULL && seq == 0);
	assert_int_equal(redisj_id_parse("0-18446744073709551615", &ms,
	    &seq), 0);
	assert_true(ms == 0 && seq == UINT64_MAX);
	assert_int_equal(redisj_id_parse("12", &ms, &seq), -1);
	assert_int_equal(redisj_id_parse("12-", &ms, &seq), -1);
	assert_int_equal(redisj_id_parse("-3", &ms, &seq), -1);
	assert_int_equal(redisj_id_parse("1-2-3", &ms, &seq), -1);
	assert_int_equal(redisj_id_parse("1-2 ", &ms, &seq), -1);
	assert_int_equal(redisj_id_parse("99999999999999999999-1", &ms,
	    &seq), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_redisj_urls),
		cmocka_unit_test(test_redisj_ids),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
