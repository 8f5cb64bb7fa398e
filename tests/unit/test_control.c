/* Unit tests: daemon/control.c control_parse, one row per case. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "control.h"

static const struct parse_case {
	const char	*line;
	const char	*cmd;		/* NULL: refused */
	const char	*arg;		/* the argument, or NULL */
	const char	*cause;		/* part of the cause when refused */
} cases[] = {
	{ "status", "status", NULL, NULL },
	{ "  status\t", "status", NULL, NULL },
	{ "status\r", "status", NULL, NULL },
	{ "help", "help", NULL, NULL },
	{ "reload", "reload", NULL, NULL },
	{ "flush", "flush", NULL, NULL },
	{ "flush octo-org/widget", "flush", "octo-org/widget", NULL },
	{ "flush octo-org/.github", "flush", "octo-org/.github", NULL },
	{ "preview octo/w", "preview", "octo/w", NULL },
	{ "recap", "recap", NULL, NULL },
	{ "recap a/b", "recap", "a/b", NULL },
	{ "", NULL, NULL, "empty" },
	{ " \t ", NULL, NULL, "empty" },
	{ "STATUS", NULL, NULL, "unknown command" },
	{ "stat", NULL, NULL, "unknown command" },
	{ "status now", NULL, NULL, "too many" },
	{ "reload x", NULL, NULL, "too many" },
	{ "flush a/b c/d", NULL, NULL, "too many" },
	{ "flush ../etc", NULL, NULL, "OWNER/REPO" },
	{ "flush a/b/c", NULL, NULL, "OWNER/REPO" },
	{ "preview nobody", NULL, NULL, "OWNER/REPO" },
	{ "recap .hidden/x", NULL, NULL, "OWNER/REPO" },
	{ "flush a/..", NULL, NULL, "OWNER/REPO" },
	{ "flush \x1b[31m/x", NULL, NULL, "OWNER/REPO" },
	{ "\x1b[31mstatus", NULL, NULL, "unknown command" },
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
		cmd = control_parse(c->line, &arg, &cause);
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
