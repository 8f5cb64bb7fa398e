/*
 * Unit tests: daemon/control.c control_parse, one row per case, each line
 * given with its length (a NUL is a byte of it).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "control.h"

/* A line with its length, NULs and all. */
#define L(s)	s, sizeof(s) - 1

static const struct parse_case {
	const char	*line;
	size_t		 len;
	const char	*cmd;		/* NULL: refused */
	const char	*arg;		/* the argument, or NULL */
	const char	*cause;		/* part of the cause when refused */
} cases[] = {
	{ L("status"), "status", NULL, NULL },
	{ L("  status\t"), "status", NULL, NULL },
	{ L("status\r"), "status", NULL, NULL },
	{ L("help"), "help", NULL, NULL },
	{ L("reload"), "reload", NULL, NULL },
	{ L("flush"), "flush", NULL, NULL },
	{ L("flush octo-org/widget"), "flush", "octo-org/widget", NULL },
	{ L("flush octo-org/.github"), "flush", "octo-org/.github", NULL },
	{ L("preview octo/w"), "preview", "octo/w", NULL },
	{ L("recap"), "recap", NULL, NULL },
	{ L("recap a/b"), "recap", "a/b", NULL },
	{ L(""), NULL, NULL, "empty" },
	{ L(" \t "), NULL, NULL, "empty" },
	{ L("STATUS"), NULL, NULL, "unknown command" },
	{ L("stat"), NULL, NULL, "unknown command" },
	{ L("status now"), "status", "now", NULL },
	{ L("status a/b"), "status", "a/b", NULL },
	{ L("status a b"), NULL, NULL, "too many" },
	{ L("reload x"), NULL, NULL, "too many" },
	{ L("flush a/b c/d"), NULL, NULL, "too many" },
	{ L("flush ../etc"), NULL, NULL, "OWNER/REPO" },
	{ L("flush a/b/c"), NULL, NULL, "OWNER/REPO" },
	/* flush and preview take a show by its slug (issue #30) */
	{ L("preview nobody"), "preview", "nobody", NULL },
	{ L("flush acme-daily"), "flush", "acme-daily", NULL },
	{ L("flush Acme"), NULL, NULL, "OWNER/REPO or a show's slug" },
	{ L("flush acme_daily"), NULL, NULL, "or a show's slug" },
	{ L("recap nobody"), NULL, NULL, "OWNER/REPO" },
	{ L("recap .hidden/x"), NULL, NULL, "OWNER/REPO" },
	{ L("flush a/.."), NULL, NULL, "OWNER/REPO" },
	{ L("flush \x1b[31m/x"), NULL, NULL, "control character 0x1b" },
	{ L("\x1b[31mstatus"), NULL, NULL, "control character 0x1b" },
	/* a NUL or another control byte is refused, not cut at (issue 25) */
	{ L("flush \0"), NULL, NULL, "control character 0x00" },
	{ L("flush\0 a/b"), NULL, NULL, "control character 0x00" },
	{ L("status\0"), NULL, NULL, "control character 0x00" },
	{ L("\0status"), NULL, NULL, "control character 0x00" },
	{ L("flush a/b\0c/d"), NULL, NULL, "control character 0x00" },
	{ L("status\x01"), NULL, NULL, "control character 0x01" },
	{ L("flush a/b\x7f"), NULL, NULL, "control character 0x7f" },
	{ L("sta\rtus"), NULL, NULL, "control character 0x0d" },
	{ L("\rstatus"), NULL, NULL, "control character 0x0d" },
	{ L("flush\na/b"), NULL, NULL, "control character 0x0a" },
	{ L("flush\ta/b"), "flush", "a/b", NULL },
};

static void
test_control_parse(void **state)
{
	const struct control_cmd	*cmd;
	const struct parse_case		*c;
	char				*arg, *cause;
	size_t				 i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		c = &cases[i];
		arg = cause = NULL;
		cmd = control_parse(c->line, c->len, &arg, &cause);
		if (c->cmd != NULL) {
			if (cmd == NULL)
				fail_msg("'%s' refused: %s", c->line, cause);
			assert_string_equal(control_cmd_name(cmd), c->cmd);
			if (c->arg == NULL)
				assert_null(arg);
			else
				assert_string_equal(arg, c->arg);
			assert_null(cause);
		} else {
			if (cmd != NULL)
				fail_msg("case %zu accepted", i);
			assert_non_null(cause);
			if (strstr(cause, c->cause) == NULL)
				fail_msg("case %zu: '%s' lacks '%s'", i, cause,
				    c->cause);
			/* a cause is one printable line */
			assert_null(strpbrk(cause, "\n\r\x1b"));
			assert_null(arg);
		}
		free(arg);
		free(cause);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_control_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
