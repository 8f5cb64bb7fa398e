/*
 * Unit tests for episode/theme.c: a day's theme named once in the
 * opening (several changes taking legacy code out, guarding against
 * memory errors, fixing security holes, or answering one person's or
 * tool's reports), and nothing on a day without one. One row per rule,
 * on drafted days, with the real commits that showed it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "day.h"
#include "episode.h"
#include "record.h"
#include "xmalloc.h"

#include "day_msg.h"

#define THEME_MAXMSGS	8

struct theme_case {
	const char	*rule;
	const char	*msgs[THEME_MAXMSGS];	/* NULL-ended */
	const char	*said;	/* the opening's theme sentence, or NULL */
	size_t		 fillers;	/* more commits of no theme */
};

static const struct theme_case cases[] = {
	/* ao 2026-03-24: six "Delete deprecated X and related code" */
	{ "deprecated code removed by several changes", {
	    "Delete deprecated UintxLayout and related code (#4145)\n",
	    "Delete deprecated QDQLayout and related code (#4146)\n",
	    "Delete deprecated Int4XPULayout and related code (#4147)\n",
	    "Fix rocm CI (#4167)\n",
	    "[X86] Re-enable DA8W4 path on X86 CPU (#4033)\n", NULL },
	    "Three of today's changes remove deprecated code.", 0 },
	/* pip 2025-10-21 */
	{ "legacy code removed by several changes", {
	    "Remove legacy editable tests\n",
	    "Remove legacy 'setup.py clean' tests\n",
	    "Remove a few more obsolete pep517 things from the test suite\n",
	    "Add news\n", NULL },
	    "Three of today's changes remove legacy code.", 0 },
	{ "near miss: two removals are no theme", {
	    "Delete deprecated UintxLayout and related code (#4145)\n",
	    "Delete deprecated QDQLayout and related code (#4146)\n",
	    "Fix rocm CI (#4167)\n", NULL }, NULL, 0 },
	{ "near miss: removals of nothing old are no theme", {
	    "Remove an unused variable in the parser\n",
	    "Drop a stray debug print from the lexer\n",
	    "Delete the scratch file of the benchmark\n",
	    "Add a fast path for short strings\n", NULL }, NULL, 0 },
	{ "near miss: three in a day of many is no theme", {
	    "Delete deprecated UintxLayout and related code (#4145)\n",
	    "Delete deprecated QDQLayout and related code (#4146)\n",
	    "Delete deprecated Int4XPULayout and related code (#4147)\n",
	    NULL }, NULL, 16 },
	/* nginx 2024-05-28, the 1.27.0 release's fixes */
	{ "memory errors guarded against, in the areas they share", {
	    "HTTP/3: fixed dynamic table overflow.\n\nWhile inserting a new "
	    "entry into the dynamic table, first the entry is added, and then "
	    "older entries are evicted until table size is within capacity.  "
	    "After the first step, the number of entries may temporarily "
	    "exceed the maximum calculated from capacity by one entry, which "
	    "previously caused table overflow.\n",
	    "QUIC: ignore CRYPTO frames after handshake completion.\n\n"
	    "Sending handshake-level CRYPTO frames after the client's "
	    "Finished message could\nlead to memory disclosure and a "
	    "potential segfault, if those frames are sent in\none packet with "
	    "the Finished frame.\n",
	    "QUIC: ngx_quic_buffer_t use-after-free protection.\n\n"
	    "Previously the last chain field of ngx_quic_buffer_t could still "
	    "reference freed\nchains and buffers after calling "
	    "ngx_quic_free_buffer().\n",
	    "HTTP/3: fixed handling of zero-length literal field line.\n\n"
	    "Previously, st->value was passed with NULL data pointer to "
	    "header handlers.\n",
	    "nginx-1.27.0-RELEASE\n", NULL },
	    "Four of today's changes guard against memory errors, in HTTP "
	    "and QUIC.", 0 },
	{ "near miss: tests of memory errors guard nothing a user runs", {
	    "test: add a test for the dynamic table overflow\n",
	    "test: cover the use-after-free in the buffer\n",
	    "test: check the segfault on an empty frame\n",
	    "Add a fast path for short strings\n", NULL }, NULL, 0 },
	{ "security fixes", {
	    "cookie: fix CVE-2025-0167, a netrc leak\n",
	    "url: fix a security issue with the credentials of a redirect\n",
	    "sasl: fix a vulnerability in the digest parser\n",
	    "Add a fast path for short strings\n", NULL },
	    "Three of today's changes are security fixes.", 0 },
	/* curl 2025-10-09: fifteen of thirty-two commits carried
	   "Reported-by: Joshua Rogers", each a pasted trailer */
	{ "one person's reports behind several changes", {
	    "openldap: fix memory-leak in error path\n\nReported-by: Joshua "
	    "Rogers\nCloses #18937\n",
	    "krb5_gssapi: fix memory leak on error path\n\nReported-by: "
	    "Joshua Rogers\nCloses #18943\n",
	    "socks: deny server basic-auth if not configured\n\n"
	    "Reported-by: Joshua Rogers\nCloses #18947\n",
	    "ftp: simplify the 150/126 size scanner\n", NULL },
	    "Joshua Rogers reported the problems behind three of today's "
	    "changes.", 0 },
	{ "a tool's findings behind several changes", {
	    "lib: fix a leak in the cookie jar\n\nFound by ZeroPath\n",
	    "ftp: check the size of the reply\n\nFound by ZeroPath\n",
	    "smtp: stop at the end of the address\n\nFound by ZeroPath\n",
	    "ftp: simplify the 150/126 size scanner\n", NULL },
	    "ZeroPath found the problems behind three of today's changes.",
	    0 },
	/* curl 2026-02-19: six of ten commits enabled clang-tidy checks */
	{ "a run in one area, half the day's changes", {
	    "clang-tidy: enable readability-uppercase-literal-suffix\n",
	    "clang-tidy: check readability-redundant-preprocessor\n",
	    "clang-tidy: enable misc-header-include-cycle\n",
	    "lib: fix a crash on an empty header\n", NULL },
	    "Three of today's changes touch clang-tidy.", 0 },
	{ "near miss: a run under half the day is no theme", {
	    "clang-tidy: enable readability-uppercase-literal-suffix\n",
	    "clang-tidy: check readability-redundant-preprocessor\n",
	    "clang-tidy: enable misc-header-include-cycle\n",
	    "lib: fix a crash on an empty header\n", NULL }, NULL, 4 },
	{ "near miss: a short code name is no area to say", {
	    "win: fix a crash when the pipe is closed\n",
	    "win: handle a short read of the console\n",
	    "win: fix the path of the temp directory\n",
	    "unix: fix a crash on an empty header\n", NULL }, NULL, 0 },
	{ "near miss: reports by different people are no theme", {
	    "openldap: fix memory-leak in error path\n\nReported-by: Joshua "
	    "Rogers\n",
	    "krb5_gssapi: fix memory leak on error path\n\nReported-by: "
	    "Stanislav Fort\n",
	    "socks: deny server basic-auth if not configured\n\n"
	    "Reported-by: Andrei Kurushin\n",
	    "ftp: simplify the 150/126 size scanner\n", NULL }, NULL, 0 },
};

static struct day *
theme_day(const struct theme_case *tc)
{
	struct day	*d = day_msg_new("o/r");
	char		*m;
	size_t		 i, n = 0;

	for (i = 0; i < THEME_MAXMSGS && tc->msgs[i] != NULL; i++, n++)
		day_msg_add(d, tc->msgs[i], NULL, n + 0x7e0, n * 60,
		    "Ada Lovelace", "ada", "src/x.c");
	for (i = 0; i < tc->fillers; i++, n++) {
		xasprintf(&m, "Add a fast path for strings of length %zu\n",
		    i + 1);
		day_msg_add(d, m, NULL, n + 0x7e0, n * 60, "Ada Lovelace",
		    "ada", "src/x.c");
		free(m);
	}
	day_pair_reverts(d);
	return d;
}

static void
test_theme_rows(void **state)
{
	struct episode		*ep;
	struct day		*d;
	const char		*opening, *at;
	size_t			 i, j;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		d = theme_day(&cases[i]);
		ep = day_msg_draft(d);
		opening = NULL;
		for (j = 0; j < ep->nsegments; j++)
			if (strcmp(ep->segments[j].kind, "opening") == 0)
				opening = ep->segments[j].text;
		if (opening == NULL)
			fail_msg("%s: no opening", cases[i].rule);
		if (cases[i].said == NULL) {
			if (strstr(ep->transcript, "of today's changes") !=
			    NULL)
				fail_msg("%s: a theme said: %s", cases[i].rule,
				    opening);
		} else {
			if (strstr(opening, cases[i].said) == NULL)
				fail_msg("%s: no \"%s\" in: %s", cases[i].rule,
				    cases[i].said, opening);
			/* named once */
			at = strstr(ep->transcript, cases[i].said);
			if (at != NULL && strstr(at + 1, cases[i].said) != NULL)
				fail_msg("%s: said twice: %s", cases[i].rule,
				    ep->transcript);
		}
		episode_free(ep);
		day_free(d);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_theme_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
