/*
 * Unit tests: daemon/backfill.c set-up. A reload reaches backfill_new and
 * backfill_reconfigure, so what can fail there (a hook spec, libevent
 * running out of memory) must come back as -1 with a cause and leave the
 * hooks as they were, never end the process. libevent's allocator is
 * replaced by one that can be told to fail.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <event2/event.h>

#include "backfill.h"
#include "config.h"
#include "daemon.h"

/* libevent's allocations fail while this is set. */
static int	test_alloc_fails;

static void *
alloc_malloc(size_t n)
{
	return test_alloc_fails ? NULL : malloc(n);
}

static void *
alloc_realloc(void *p, size_t n)
{
	return test_alloc_fails ? NULL : realloc(p, n);
}

static void
alloc_free(void *p)
{
	free(p);
}

/* stderr goes to a file between capture_start and capture_end. */
static char	 capture_path[] = "/tmp/hookcast-test-backfill.XXXXXX";
static int	 capture_saved = -1;
static char	 capture_text[8192];

static void
capture_start(void)
{
	int	fd;

	fflush(stderr);
	if ((fd = mkstemp(capture_path)) == -1)
		fail_msg("mkstemp");
	capture_saved = dup(2);
	dup2(fd, 2);
	close(fd);
}

/* The text written to stderr since capture_start. */
static const char *
capture_end(void)
{
	FILE	*f;
	size_t	 n;

	fflush(stderr);
	dup2(capture_saved, 2);
	close(capture_saved);
	if ((f = fopen(capture_path, "r")) == NULL)
		fail_msg("%s: cannot read", capture_path);
	n = fread(capture_text, 1, sizeof(capture_text) - 1, f);
	capture_text[n] = '\0';
	fclose(f);
	unlink(capture_path);
	strcpy(capture_path + strlen(capture_path) - 6, "XXXXXX");
	return capture_text;
}

/* How many times needle occurs in s. */
static int
count(const char *s, const char *needle)
{
	int	n = 0;

	while ((s = strstr(s, needle)) != NULL) {
		n++;
		s += strlen(needle);
	}
	return n;
}

static struct hookcastd	test_d;

static int
setup(void **state)
{
	memset(&test_d, 0, sizeof(test_d));
	if ((test_d.base = event_base_new()) == NULL)
		return -1;
	return 0;
}

static int
teardown(void **state)
{
	event_base_free(test_d.base);
	return 0;
}

/* A configuration following the comma-separated hooks. */
static void
conf_hooks(struct config *conf, const char *hooks)
{
	memset(conf, 0, sizeof(*conf));
	strlist_split(&conf->backfill_hooks, hooks);
}

/* Set-up refused: -1 with a cause holding want, and *bfp untouched. */
static const struct {
	const char	*hooks;
	int		 alloc_fails;
	const char	*want;
} refused[] = {
	{ "hookcast-test/widget:42", 1, "evtimer_new failed" },
	{ "hookcast-test/widget", 0, "no ':hook_id'" },
	{ "hookcast-test/widget:4x2", 0, "not a number" },
	{ "hookcast-test/widget:12345678901234567890", 0, "not a number" },
	{ "widget:42", 0, "not a repository name" },
	{ "a/b/c:42", 0, "not a repository name" },
	{ "hookcast-test/..:42", 0, "not a repository name" },
	{ "hookcast-test/widget:42, other/../x:1", 0,
	    "'other/../x:1'" },
};

static void
test_backfill_new_refused(void **state)
{
	struct config	 conf;
	struct backfill	*bf, *const was = (struct backfill *)&conf;
	char		*cause;
	size_t		 i;

	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		conf_hooks(&conf, refused[i].hooks);
		bf = was;
		cause = NULL;
		test_alloc_fails = refused[i].alloc_fails;
		if (backfill_new(&test_d, &conf, &bf, &cause) != -1)
			fail_msg("%s: set up", refused[i].hooks);
		test_alloc_fails = 0;
		if (cause == NULL || strstr(cause, refused[i].want) == NULL)
			fail_msg("%s: cause \"%s\", want \"%s\"",
			    refused[i].hooks, cause != NULL ? cause : "(none)",
			    refused[i].want);
		if (bf != was)
			fail_msg("%s: *bfp changed on failure",
			    refused[i].hooks);
		free(cause);
		config_clear(&conf);
	}
}

static void
test_backfill_new(void **state)
{
	struct config	 conf;
	struct backfill	*bf = NULL;
	char		*cause = NULL;

	/* none configured: no backfill */
	conf_hooks(&conf, "");
	assert_int_equal(backfill_new(&test_d, &conf, &bf, &cause), 0);
	assert_null(bf);
	config_clear(&conf);

	conf_hooks(&conf, "hookcast-test/widget:42, hookcast-test/.github:7");
	capture_start();
	assert_int_equal(backfill_new(&test_d, &conf, &bf, &cause), 0);
	capture_end();
	assert_non_null(bf);
	assert_null(cause);
	backfill_free(bf);
	config_clear(&conf);
}

/*
 * A reconfiguration that fails (a hook that can't be made) leaves the
 * hooks followed as they were: dropping them all afterwards names exactly
 * the old ones.
 */
static const struct {
	const char	*to;
	int		 alloc_fails;
	const char	*want;
} reconf_refused[] = {
	{ "hookcast-test/widget:42, hookcast-test/gadget:43", 1,
	    "evtimer_new failed" },
	{ "hookcast-test/gadget:43", 1, "evtimer_new failed" },
	{ "hookcast-test/gadget:43, nowhere:1", 0, "nowhere:1" },
	{ "nowhere", 0, "nowhere" },
};

static void
test_backfill_reconfigure_refused(void **state)
{
	struct config	 conf, to, none;
	struct backfill	*bf;
	char		*cause;
	const char	*log;
	size_t		 i;

	conf_hooks(&none, "");
	for (i = 0; i < sizeof(reconf_refused) / sizeof(reconf_refused[0]);
	    i++) {
		conf_hooks(&conf, "hookcast-test/widget:42");
		bf = NULL;
		cause = NULL;
		capture_start();
		assert_int_equal(backfill_new(&test_d, &conf, &bf, &cause), 0);
		capture_end();

		conf_hooks(&to, reconf_refused[i].to);
		test_alloc_fails = reconf_refused[i].alloc_fails;
		capture_start();
		if (backfill_reconfigure(bf, &to, &cause) != -1) {
			test_alloc_fails = 0;
			capture_end();
			fail_msg("%s: reconfigured", reconf_refused[i].to);
		}
		test_alloc_fails = 0;
		log = capture_end();
		if (strstr(log, "following") != NULL)
			fail_msg("%s: refused, yet logged \"%s\"",
			    reconf_refused[i].to, log);
		if (cause == NULL ||
		    strstr(cause, reconf_refused[i].want) == NULL)
			fail_msg("%s: cause \"%s\", want \"%s\"",
			    reconf_refused[i].to, cause != NULL ? cause :
			    "(none)", reconf_refused[i].want);
		free(cause);
		cause = NULL;

		/* still following hook 42, and only it */
		capture_start();
		assert_int_equal(backfill_reconfigure(bf, &none, &cause), 0);
		log = capture_end();
		if (strstr(log, "no longer following hookcast-test/widget "
		    "hook 42") == NULL || strstr(log, "gadget") != NULL)
			fail_msg("%s: after the refusal: \"%s\"",
			    reconf_refused[i].to, log);
		backfill_free(bf);
		config_clear(&conf);
		config_clear(&to);
	}
	config_clear(&none);
}

static void
test_backfill_reconfigure(void **state)
{
	struct config	 conf, to;
	struct backfill	*bf = NULL;
	char		*cause = NULL;
	const char	*log;

	conf_hooks(&conf, "hookcast-test/widget:42, hookcast-test/gizmo:1");
	capture_start();
	assert_int_equal(backfill_new(&test_d, &conf, &bf, &cause), 0);
	capture_end();
	conf_hooks(&to, "hookcast-test/gizmo:1, hookcast-test/gadget:43, "
	    "hookcast-test/gadget:43");
	capture_start();
	assert_int_equal(backfill_reconfigure(bf, &to, &cause), 0);
	log = capture_end();
	assert_null(cause);
	assert_non_null(strstr(log, "no longer following hookcast-test/widget "
	    "hook 42"));
	assert_non_null(strstr(log, "following hookcast-test/gadget hook 43"));
	assert_null(strstr(log, "gizmo"));
	/* listed twice, followed once */
	assert_int_equal(count(log, "gadget"), 1);
	backfill_free(bf);
	config_clear(&conf);
	config_clear(&to);
}

/* The configuration's rule is the backfill's. */
static const struct {
	const char	*spec;
	int		 ok;
} specs[] = {
	{ "hookcast-test/widget:42", 1 },
	{ "Owner_1/repo.name-2:9223372036854775807", 1 },
	{ "owner/.github:1", 1 },
	{ "owner/widget:", 0 },
	{ "owner/widget", 0 },
	{ ":1", 0 },
	{ "/widget:1", 0 },
	{ "owner/:1", 0 },
	{ ".owner/widget:1", 0 },
	{ "owner/..:1", 0 },
	{ "owner/wid get:1", 0 },
	{ "owner/widget:-1", 0 },
	{ "owner/widget:1:2", 0 },
};

static void
test_backfill_hook_check(void **state)
{
	struct config		conf;
	struct config_causes	causes = { NULL, 0 };
	const char		*why;
	char			 flag[256];
	char			*argv[5];
	size_t			 i;
	int			 rc;

	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		why = NULL;
		rc = backfill_hook_check(specs[i].spec, &why);
		if (rc != (specs[i].ok ? 0 : -1))
			fail_msg("%s: %s", specs[i].spec, specs[i].ok ?
			    "refused" : "accepted");
		if (rc == -1 && why == NULL)
			fail_msg("%s: refused without a cause", specs[i].spec);

		/* config_load agrees */
		snprintf(flag, sizeof(flag), "--backfill-hooks=%s",
		    specs[i].spec);
		argv[0] = (char *)"hookcastd";
		argv[1] = (char *)"--insecure-no-signature";
		argv[2] = (char *)"--github-token-file=/nonexistent";
		argv[3] = flag;
		argv[4] = NULL;
		config_load(&conf, 4, argv, NULL, &causes);
		for (rc = 0; rc < (int)causes.n; rc++)
			if (strstr(causes.v[rc], "backfill_hooks") != NULL)
				break;
		if ((rc < (int)causes.n) == specs[i].ok)
			fail_msg("%s: config_load %s", specs[i].spec,
			    specs[i].ok ? "refused" : "accepted");
		config_clear(&conf);
		config_causes_clear(&causes);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_backfill_new_refused),
		cmocka_unit_test(test_backfill_new),
		cmocka_unit_test(test_backfill_reconfigure_refused),
		cmocka_unit_test(test_backfill_reconfigure),
		cmocka_unit_test(test_backfill_hook_check),
	};

	/* before libevent allocates anything */
	event_set_mem_functions(alloc_malloc, alloc_realloc, alloc_free);
	return cmocka_run_group_tests(tests, setup, teardown);
}
