/* Unit tests: common/log.c */
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "buf.h"
#include "log.h"
#include "utf8.h"
#include "xmalloc.h"

/*
 * Stderr captured in a temporary file: log_capture_start points fd 2 at
 * it, log_capture_end puts the old stderr back and returns what was
 * written (NUL-terminated, length in *len).
 */
struct capture {
	FILE	*tmp;
	int	 saved;
};

static void
capture_start(struct capture *c)
{
	fflush(stderr);
	c->tmp = tmpfile();
	assert_non_null(c->tmp);
	c->saved = dup(STDERR_FILENO);
	assert_true(c->saved != -1);
	assert_true(dup2(fileno(c->tmp), STDERR_FILENO) != -1);
}

static char *
capture_end(struct capture *c, size_t *len)
{
	char	*out;
	long	 n;

	fflush(stderr);
	assert_true(dup2(c->saved, STDERR_FILENO) != -1);
	close(c->saved);
	assert_int_equal(fseek(c->tmp, 0, SEEK_END), 0);
	n = ftell(c->tmp);
	assert_true(n >= 0);
	rewind(c->tmp);
	out = malloc((size_t)n + 1);
	assert_non_null(out);
	assert_int_equal(fread(out, 1, (size_t)n, c->tmp), (size_t)n);
	out[n] = '\0';
	fclose(c->tmp);
	if (len != NULL)
		*len = (size_t)n;
	return out;
}

/* One line, its newline last, and no other byte below 0x20 nor DEL. */
static void
assert_one_clean_line(const char *out, size_t len)
{
	size_t	i;

	assert_true(len > 0);
	assert_int_equal(out[len - 1], '\n');
	for (i = 0; i + 1 < len; i++) {
		if ((unsigned char)out[i] < 0x20 || out[i] == 0x7f)
			fail_msg("raw byte 0x%02x at %zu of \"%s\"",
			    (unsigned char)out[i], i, out);
	}
}

static const struct {
	int		 err;
	const char	*want;
} warn_cases[] = {
	{ ENOENT, "<4>state_dir /x/y: No such file or directory\n" },
	{ ENOTDIR, "<4>state_dir /x/y: Not a directory\n" },
	{ EACCES, "<4>state_dir /x/y: Permission denied\n" },
	{ ENOSPC, "<4>state_dir /x/y: No space left on device\n" },
};

static void
test_log_warn_strerror(void **state)
{
	struct capture	 c;
	char		*out;
	size_t		 i, len;

	log_set_level(LOG_LEVEL_INFO);
	for (i = 0; i < sizeof(warn_cases) / sizeof(warn_cases[0]); i++) {
		capture_start(&c);
		errno = warn_cases[i].err;
		log_warn("state_dir %s", "/x/y");
		/* log_warn leaves errno as it found it */
		assert_int_equal(errno, warn_cases[i].err);
		out = capture_end(&c, &len);
		assert_string_equal(out, warn_cases[i].want);
		free(out);
	}
}

static void
test_fatal_strerror(void **state)
{
	struct capture	 c;
	char		*out;
	size_t		 i, len;
	pid_t		 pid;
	int		 status;

	log_set_level(LOG_LEVEL_INFO);
	for (i = 0; i < sizeof(warn_cases) / sizeof(warn_cases[0]); i++) {
		capture_start(&c);
		if ((pid = fork()) == 0) {
			errno = warn_cases[i].err;
			fatal("state_dir %s", "/x/y");
		}
		assert_true(pid > 0);
		assert_int_equal(waitpid(pid, &status, 0), pid);
		out = capture_end(&c, &len);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 1);
		/* the same line as log_warn's, at error priority */
		assert_int_equal(out[1], '3');
		assert_string_equal(out + 3, warn_cases[i].want + 3);
		free(out);
	}
}

/*
 * What the writer makes of an argument: control bytes, DEL, C1 controls
 * and bytes that are not UTF-8 as \xNN; the rest, backslashes included,
 * as it was.
 */
static const struct {
	const char	*name;
	const char	*arg;
	const char	*want;
} control_cases[] = {
	{ "forged line", "main\n<3>forged",
	    "<4>push to main\\x0a<3>forged starts here\n" },
	{ "carriage return", "a\rb", "<4>push to a\\x0db starts here\n" },
	{ "terminal colour", "\x1b[31mred", "<4>push to \\x1b[31mred starts "
	    "here\n" },
	{ "bell", "ding\a", "<4>push to ding\\x07 starts here\n" },
	{ "tab", "a\tb", "<4>push to a\\x09b starts here\n" },
	{ "delete", "del\x7f", "<4>push to del\\x7f starts here\n" },
	{ "not UTF-8", "bad \xff byte", "<4>push to bad \\xff byte starts "
	    "here\n" },
	{ "lone continuation", "\x80x", "<4>push to \\x80x starts here\n" },
	{ "cut sequence", "\xe2\x82", "<4>push to \\xe2\\x82 starts here\n" },
	{ "overlong slash", "\xc0\xaf", "<4>push to \\xc0\\xaf starts here\n" },
	{ "overlong three bytes", "\xe0\x80\xaf",
	    "<4>push to \\xe0\\x80\\xaf starts here\n" },
	{ "surrogate", "\xed\xa0\x80",
	    "<4>push to \\xed\\xa0\\x80 starts here\n" },
	{ "beyond U+10FFFF", "\xf4\x90\x80\x80",
	    "<4>push to \\xf4\\x90\\x80\\x80 starts here\n" },
	{ "C1 control CSI", "\xc2\x9b" "31m",
	    "<4>push to \\xc2\\x9b31m starts here\n" },
	{ "UTF-8 kept", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x8e\x99",
	    "<4>push to caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x8e\x99 starts "
	    "here\n" },
	{ "no-break space kept", "a\xc2\xa0" "b",
	    "<4>push to a\xc2\xa0" "b starts here\n" },
	{ "backslash kept", "a\\b\\x0a", "<4>push to a\\b\\x0a starts here\n" },
	{ "empty", "", "<4>push to  starts here\n" },
};

static void
test_log_writer_escapes(void **state)
{
	struct capture	 c;
	char		*out;
	size_t		 i, len;

	log_set_level(LOG_LEVEL_INFO);
	for (i = 0; i < sizeof(control_cases) / sizeof(control_cases[0]);
	    i++) {
		capture_start(&c);
		log_warnx("push to %s starts here", control_cases[i].arg);
		out = capture_end(&c, &len);
		assert_one_clean_line(out, len);
		if (strcmp(out, control_cases[i].want) != 0)
			fail_msg("%s: got \"%s\"", control_cases[i].name, out);
		free(out);
	}
}

/* Every level and log_warn's suffix go through the same writer. */
static void
test_log_writer_every_level(void **state)
{
	struct capture	 c;
	char		*out;
	size_t		 len;

	log_set_level(LOG_LEVEL_DEBUG);
	capture_start(&c);
	log_debug("d %s", "\n<3>x");
	log_info("i %s", "\n<3>x");
	log_notice("n %s", "\n<3>x");
	log_warnx("w %s", "\n<3>x");
	errno = ENOENT;
	log_warn("e %s", "\n<3>x");
	out = capture_end(&c, &len);
	assert_string_equal(out,
	    "<7>d \\x0a<3>x\n"
	    "<6>i \\x0a<3>x\n"
	    "<5>n \\x0a<3>x\n"
	    "<4>w \\x0a<3>x\n"
	    "<4>e \\x0a<3>x: No such file or directory\n");
	free(out);

	/* a NUL from %c is escaped, not an end */
	capture_start(&c);
	log_warnx("nul %c here", '\0');
	out = capture_end(&c, &len);
	assert_int_equal(len, strlen(out));
	assert_string_equal(out, "<4>nul \\x00 here\n");
	free(out);

	/* below the level: nothing */
	log_set_level(LOG_LEVEL_INFO);
	capture_start(&c);
	log_debug("quiet %s", "x");
	out = capture_end(&c, &len);
	assert_int_equal(len, 0);
	free(out);
}

/*
 * Out of memory: xmalloc's last line has the priority or the time and
 * level of every other line (it was a bare "<2>" on a terminal), and the
 * process aborts.
 */
static void
test_log_oom(void **state)
{
	static const enum log_format	 formats[] = { LOG_FORMAT_JOURNAL,
	    LOG_FORMAT_PLAIN };
	struct capture			 c;
	char				*out, *rest;
	size_t				 len, i;
	pid_t				 pid;
	int				 status;

	(void)state;
	for (i = 0; i < 2; i++) {
		capture_start(&c);
		if ((pid = fork()) == 0) {
			log_set_format(formats[i]);
			(void)xreallocarray(NULL, SIZE_MAX, 2);
			_exit(0);
		}
		assert_true(pid > 0);
		assert_int_equal(waitpid(pid, &status, 0), pid);
		out = capture_end(&c, &len);
		assert_true(WIFSIGNALED(status));
		assert_int_equal(WTERMSIG(status), SIGABRT);
		assert_one_clean_line(out, len);
		if (formats[i] == LOG_FORMAT_JOURNAL)
			rest = strncmp(out, "<2>", 3) == 0 ? out + 3 : NULL;
		else {
			rest = strstr(out, "Z critical: ");
			assert_true(rest == out + 23);
			rest += strlen("Z critical: ");
		}
		assert_non_null(rest);
		assert_string_equal(rest, "xreallocarray: out of memory "
		    "allocating 18446744073709551615 bytes\n");
		free(out);
	}
}

/* A fatal with a forged argument is one line too. */
static void
test_fatal_escapes(void **state)
{
	struct capture	 c;
	char		*out;
	size_t		 len;
	pid_t		 pid;
	int		 status;

	capture_start(&c);
	if ((pid = fork()) == 0)
		fatalx("bad %s", "x\n<3>forged\x1b[2J");
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	out = capture_end(&c, &len);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 1);
	assert_one_clean_line(out, len);
	assert_string_equal(out, "<3>bad x\\x0a<3>forged\\x1b[2J\n");
	free(out);
}

/*
 * A warning of 100,000 bytes of fill: one clean line under 16 KiB and
 * over min bytes, starting with start and ending with tail.
 */
static void
check_line_bound(char fill, const char *start, size_t min, const char *tail)
{
	struct capture	 c;
	char		*out, *big;
	size_t		 len, n = 100000;

	big = malloc(n + 1);
	assert_non_null(big);
	memset(big, fill, n);
	big[n] = '\0';
	capture_start(&c);
	log_warnx("big %s", big);
	out = capture_end(&c, &len);
	assert_one_clean_line(out, len);
	assert_true(len < 16384);
	assert_true(len > min);
	assert_memory_equal(out, start, strlen(start));
	assert_string_equal(out + len - strlen(tail), tail);
	free(out);
	free(big);
}

/* A huge argument is cut: the line stays bounded and says so. */
static void
test_log_writer_bounds(void **state)
{
	check_line_bound('\n', "<4>big \\x0a\\x0a", 1000, "...\n");
}

static const struct {
	const char	*in;
	size_t		 max;
	const char	*want;
} escape_cases[] = {
	{ "plain", 64, "plain" },
	{ "abcdef", 3, "abc..." },
	{ "abc", 3, "abc" },
	{ "", 8, "" },
	{ "line\nbreak", 64, "line\\x0abreak" },
	{ "back\\slash", 64, "back\\x5cslash" },
	{ "\x1b[31m", 64, "\\x1b[31m" },
	{ "del\x7f", 64, "del\\x7f" },
	{ "bad\xff", 64, "bad\\xff" },
	{ "\xc2\x9b", 64, "\\xc2\\x9b" },
	{ "caf\xc3\xa9", 64, "caf\xc3\xa9" },
	/* a character is never cut in two */
	{ "\xc3\xa9\xc3\xa9\xc3\xa9", 3, "\xc3\xa9..." },
	{ "\xc3\xa9\xc3\xa9\xc3\xa9", 4, "\xc3\xa9\xc3\xa9..." },
	{ "\n\n\n\n", 2, "\\x0a\\x0a..." },
	{ NULL, 8, "(null)" },
};

static void
test_log_escape(void **state)
{
	char	*out;
	size_t	 i;

	for (i = 0; i < sizeof(escape_cases) / sizeof(escape_cases[0]); i++) {
		out = log_escape(escape_cases[i].in, escape_cases[i].max);
		if (strcmp(out, escape_cases[i].want) != 0)
			fail_msg("case %zu: got \"%s\", want \"%s\"", i, out,
			    escape_cases[i].want);
		free(out);
	}
}

/*
 * log_escape as its comment says it, a character at a time: the writer's
 * runs of plain ASCII must give the same bytes.
 */
static char *
escape_reference(const unsigned char *s, size_t n, size_t max)
{
	struct buf	b;
	size_t		i = 0, j, ulen;
	int		esc;

	buf_init(&b);
	while (i < n) {
		ulen = utf8_seq_len(s + i, n - i);
		if (ulen == 0) {
			esc = 1;
			ulen = 1;
		} else if (ulen == 1)
			esc = s[i] < 0x20 || s[i] == 0x7f || s[i] == '\\';
		else
			esc = ulen == 2 && s[i] == 0xc2 && s[i + 1] < 0xa0;
		if (i + ulen > max)
			break;
		for (j = 0; j < ulen; j++) {
			if (esc)
				buf_printf(&b, "\\x%02x", s[i + j]);
			else
				buf_putc(&b, (char)s[i + j]);
		}
		i += ulen;
	}
	if (i < n)
		buf_puts(&b, "...");
	return buf_steal(&b);
}

static void
test_log_escape_runs(void **state)
{
	static const char *const pieces[] = {
		"abc", "x", " ", "\\", "\n", "\x1b", "\x7f", "\xff",
		"\xc3\xa9", "\xc2\x9b", "\xe2\x82\xac", "\xf0\x9f\x8e\x99",
		"\xe2\x82", "~", "\t",
	};
	const size_t	npieces = sizeof(pieces) / sizeof(pieces[0]);
	char		in[256], *got, *want;
	size_t		n, max, k;
	unsigned int	seed = 12345;
	int		round;

	for (round = 0; round < 2000; round++) {
		n = 0;
		for (k = (size_t)(rand_r(&seed) % 12); k > 0; k--) {
			const char *p = pieces[(size_t)rand_r(&seed) % npieces];

			memcpy(in + n, p, strlen(p));
			n += strlen(p);
		}
		in[n] = '\0';
		for (max = 0; max <= n + 1; max++) {
			got = log_escape(in, max);
			want = escape_reference((const unsigned char *)in, n,
			    max);
			if (strcmp(got, want) != 0)
				fail_msg("round %d max %zu: got \"%s\", want "
				    "\"%s\"", round, max, got, want);
			free(got);
			free(want);
		}
	}
}

/* A huge line of plain text is cut at the bound too, and says so. */
static void
test_log_writer_bounds_plain(void **state)
{
	check_line_bound('a', "<4>big aaaa", 4000, "a...\n");
}

/* A string escaped by log_escape is written exactly as it is. */
static void
test_log_escape_not_doubled(void **state)
{
	struct capture	 c;
	char		*out, *esc;
	size_t		 len;

	log_set_level(LOG_LEVEL_INFO);
	esc = log_escape("a\nb\\c\x1b\xff", 64);
	assert_string_equal(esc, "a\\x0ab\\x5cc\\x1b\\xff");
	capture_start(&c);
	log_warnx("ref %s", esc);
	out = capture_end(&c, &len);
	assert_string_equal(out, "<4>ref a\\x0ab\\x5cc\\x1b\\xff\n");
	free(out);
	free(esc);
}

static void
test_log_level_parse(void **state)
{
	assert_int_equal(log_level_parse("error"), LOG_LEVEL_ERR);
	assert_int_equal(log_level_parse("debug"), LOG_LEVEL_DEBUG);
	assert_int_equal(log_level_parse("loud"), -1);
	assert_string_equal(log_level_name(LOG_LEVEL_NOTICE), "notice");
	assert_string_equal(log_level_name((enum log_level)9), "unknown");
}

static int	held_arms;

static void
count_arm(void)
{
	held_arms++;
}

/*
 * Held lines: info and debug wait (one arm for a run of them) until
 * log_flush, in order; a notice or worse writes them first, then
 * itself; a child of fork neither inherits them nor holds its own; and
 * log_defer(NULL) writes what is held and holds no more.
 */
static void
test_log_defer(void **state)
{
	struct capture	 c;
	char		*out;
	size_t		 len;
	pid_t		 pid;
	int		 status;

	(void)state;
	log_set_format(LOG_FORMAT_JOURNAL);
	log_set_level(LOG_LEVEL_DEBUG);
	capture_start(&c);
	held_arms = 0;
	log_defer(count_arm);
	log_info("one");
	log_debug("two");
	assert_int_equal(held_arms, 1);
	fflush(stderr);
	assert_int_equal(lseek(STDERR_FILENO, 0, SEEK_CUR), 0);
	log_warnx("three");
	log_info("four");
	assert_int_equal(held_arms, 2);
	pid = fork();
	assert_true(pid != -1);
	if (pid == 0) {
		/* held lines were written before the fork; the child's own
		 * line goes out at once, though it exits without flushing */
		log_info("child");
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	log_info("five");
	log_flush();
	log_flush();
	log_info("six");
	log_defer(NULL);
	log_info("seven");
	out = capture_end(&c, &len);
	assert_string_equal(out, "<6>one\n<7>two\n<4>three\n<6>four\n"
	    "<6>child\n<6>five\n<6>six\n<6>seven\n");
	assert_int_equal(held_arms, 4);
	free(out);
	log_set_level(LOG_LEVEL_INFO);
}

/*
 * Outside the journal a line starts with the UTC time to the millisecond
 * and the level's name; with JOURNAL_STREAM naming stderr, "<N>" alone.
 */
static void
test_log_format_plain(void **state)
{
	struct capture	 c;
	char		*out;
	size_t		 len;
	int		 y, mo, dd, h, mi, se, ms, n = 0;

	log_set_format(LOG_FORMAT_PLAIN);
	capture_start(&c);
	log_warnx("disk %s", "full");
	out = capture_end(&c, &len);
	assert_one_clean_line(out, len);
	assert_int_equal(sscanf(out, "%4d-%2d-%2dT%2d:%2d:%2d.%3dZ %n", &y, &mo,
	    &dd, &h, &mi, &se, &ms, &n), 7);
	assert_int_equal(n, 25);
	assert_true(y >= 2024 && mo >= 1 && mo <= 12 && ms >= 0 && ms < 1000);
	assert_string_equal(out + n, "warning: disk full\n");
	free(out);
	log_set_format(LOG_FORMAT_JOURNAL);
}

static void
test_log_logfmt_value(void **state)
{
	static const struct {
		const char	*in;
		const char	*want;
	} cases[] = {
		{ "ready", "ready" },
		{ "", "\"\"" },
		{ "disk full", "\"disk full\"" },
		{ "a=b", "\"a=b\"" },
		{ "say \"hi\"", "\"say \\\"hi\\\"\"" },
		{ "back\\slash", "\"back\\\\slash\"" },
		{ "line\nbreak", "\"line\\x0abreak\"" },
		{ "caf\xc3\xa9", "\"caf\xc3\xa9\"" },
	};
	struct buf	b;
	size_t		i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		buf_init(&b);
		log_logfmt_value(&b, cases[i].in);
		assert_string_equal(buf_str(&b), cases[i].want);
		buf_free(&b);
	}
}

/* A logfmt and a JSON line: the time, the level, the cleaned message. */
static void
test_log_style_lines(void **state)
{
	struct capture	 c;
	char		*out;
	size_t		 len;
	int		 n = 0;

	log_set_style(LOG_STYLE_LOGFMT);
	capture_start(&c);
	log_warnx("disk \"%s\" full\nforged", "/var");
	out = capture_end(&c, &len);
	assert_one_clean_line(out, len);
	assert_int_equal(sscanf(out, "<4>time=%*4d-%*2d-%*2dT%*2d:%*2d:%*2d."
	    "%*3dZ %n", &n), 0);
	assert_int_equal(n, 33);
	assert_string_equal(out + n, "level=warning msg=\"disk \\\"/var\\\" "
	    "full\\\\x0aforged\"\n");
	free(out);

	log_set_style(LOG_STYLE_JSON);
	capture_start(&c);
	log_info("a \\ b \"c\"\t\x1b");
	out = capture_end(&c, &len);
	assert_one_clean_line(out, len);
	n = 0;
	assert_int_equal(sscanf(out, "<6>{\"time\":\"%*4d-%*2d-%*2dT%*2d:%*2d:"
	    "%*2d.%*3dZ\",%n", &n), 0);
	assert_int_equal(n, 38);
	assert_string_equal(out + n, "\"level\":\"info\",\"msg\":"
	    "\"a \\\\ b \\\"c\\\"\\\\x09\\\\x1b\"}\n");
	free(out);
	log_set_style(LOG_STYLE_TEXT);
}

static void
test_log_format_auto(void **state)
{
	struct capture	 c;
	struct stat	 st;
	char		*out, env[64];
	size_t		 len;

	/* stderr is the journal: its device and inode are named */
	capture_start(&c);
	assert_int_equal(fstat(STDERR_FILENO, &st), 0);
	snprintf(env, sizeof(env), "%llu:%llu", (unsigned long long)st.st_dev,
	    (unsigned long long)st.st_ino);
	setenv("JOURNAL_STREAM", env, 1);
	log_set_format(LOG_FORMAT_AUTO);
	log_notice("ready");
	out = capture_end(&c, &len);
	assert_string_equal(out, "<5>ready\n");
	free(out);

	/* the variable inherited, stderr elsewhere: a time and a level */
	snprintf(env, sizeof(env), "%llu:%llu", (unsigned long long)st.st_dev,
	    (unsigned long long)st.st_ino + 1);
	setenv("JOURNAL_STREAM", env, 1);
	capture_start(&c);
	log_set_format(LOG_FORMAT_AUTO);
	log_notice("ready");
	out = capture_end(&c, &len);
	assert_true(len > 25 && out[4] == '-' && out[23] == 'Z');
	assert_string_equal(out + 25, "notice: ready\n");
	free(out);

	/* no variable: the same */
	unsetenv("JOURNAL_STREAM");
	capture_start(&c);
	log_set_format(LOG_FORMAT_AUTO);
	log_err("x");
	out = capture_end(&c, &len);
	assert_string_equal(out + 25, "error: x\n");
	free(out);
	log_set_format(LOG_FORMAT_JOURNAL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_log_warn_strerror),
		cmocka_unit_test(test_log_escape_runs),
		cmocka_unit_test(test_log_writer_bounds_plain),
		cmocka_unit_test(test_fatal_strerror),
		cmocka_unit_test(test_log_writer_escapes),
		cmocka_unit_test(test_log_writer_every_level),
		cmocka_unit_test(test_fatal_escapes),
		cmocka_unit_test(test_log_oom),
		cmocka_unit_test(test_log_writer_bounds),
		cmocka_unit_test(test_log_escape),
		cmocka_unit_test(test_log_escape_not_doubled),
		cmocka_unit_test(test_log_level_parse),
		cmocka_unit_test(test_log_format_plain),
		cmocka_unit_test(test_log_defer),
		cmocka_unit_test(test_log_format_auto),
		cmocka_unit_test(test_log_logfmt_value),
		cmocka_unit_test(test_log_style_lines),
	};

	/* the cases above read "<N>" lines */
	log_set_format(LOG_FORMAT_JOURNAL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
