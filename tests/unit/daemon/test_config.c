/* Unit tests: daemon/config*.c */
#include <endian.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <cmocka.h>

#include "config_files.h"

#include "config.h"
#include "log.h"
#include "sink.h"
#include "voice.h"

#define MAX_ARGS	16
/* A secret long enough for config_load (16 bytes at least). */
#define TEST_SECRET	"a test secret, long enough"

/* The environment config_finish() looks at. */
static const char *const test_env[] = {
	"CREDENTIALS_DIRECTORY", "STATE_DIRECTORY", "RUNTIME_DIRECTORY",
	"HOOKCAST_SECRET", NULL
};

static void
env_reset(void)
{
	size_t	i;

	for (i = 0; test_env[i] != NULL; i++)
		unsetenv(test_env[i]);
}

static int
group_setup(void **state)
{
	if (mkdtemp(test_dir) == NULL)
		return -1;
	env_reset();
	return 0;
}

static int
group_teardown(void **state)
{
	size_t	i;

	for (i = 0; i < test_nfiles; i++) {
		unlink(test_files[i]);
		free(test_files[i]);
	}
	rmdir(test_dir);
	env_reset();
	return 0;
}

static int
test_setup(void **state)
{
	env_reset();
	return 0;
}

/*
 * config_load over a NULL-terminated list of arguments (argv[0] added).
 * The caller frees conf and causes.
 */
static int
load_argv(struct config *conf, struct config_causes *causes,
    const char *const *args)
{
	char	*argv[MAX_ARGS];
	int	 argc = 0;

	argv[argc++] = (char *)"hookcastd";
	for (; *args != NULL; args++) {
		if (argc == MAX_ARGS - 1)
			fail_msg("too many arguments");
		argv[argc++] = (char *)*args;
	}
	argv[argc] = NULL;
	memset(causes, 0, sizeof(*causes));
	return config_load(conf, argc, argv, NULL, causes);
}

static void
clear(struct config *conf, struct config_causes *causes)
{
	config_clear(conf);
	config_causes_clear(causes);
}

/* Index of the first cause containing all of the words, or -1. */
static long
cause_find(const struct config_causes *causes, const char *a, const char *b)
{
	size_t	i;

	for (i = 0; i < causes->n; i++)
		if (strstr(causes->v[i], a) != NULL &&
		    (b == NULL || strstr(causes->v[i], b) != NULL))
			return (long)i;
	return -1;
}

static void
causes_dump(const char *what, const struct config_causes *causes)
{
	size_t	i;

	print_message("%s: %zu cause(s)\n", what, causes->n);
	for (i = 0; i < causes->n; i++)
		print_message("  %s\n", causes->v[i]);
}

static void
join(const struct strlist *l, char *out, size_t size)
{
	size_t	i, used = 0;

	out[0] = '\0';
	for (i = 0; i < l->n; i++)
		used += (size_t)snprintf(out + used, size - used, "%s%s",
		    i ? "," : "", l->v[i]);
}

/* The keywords of the enumerated keys, by value, as the tests spell them. */
static const char *const fsync_names[] = {
	[JOURNAL_SYNC_ALWAYS] = "always",
	[JOURNAL_SYNC_BATCH] = "batch",
	[JOURNAL_SYNC_NONE] = "none",
};
static const char *const quiet_names[] = {
	[QUIET_DAYS_SKIP] = "skip",
	[QUIET_DAYS_EMIT] = "emit",
};
static const char *const wday_names[] = {
	"sunday", "monday", "tuesday", "wednesday", "thursday", "friday",
	"saturday"
};

/* A key's value as a string, as the tables below spell it. */
static void
conf_value(const struct config *conf, const char *key, char *out, size_t size)
{
	if (strcmp(key, "listen") == 0)
		join(&conf->listen, out, size);
	else if (strcmp(key, "branches") == 0)
		join(&conf->branches, out, size);
	else if (strcmp(key, "secret_file") == 0)
		join(&conf->secret_files, out, size);
	else if (strcmp(key, "webhook_path") == 0)
		snprintf(out, size, "%s", conf->webhook_path);
	else if (strcmp(key, "state_dir") == 0)
		snprintf(out, size, "%s", conf->state_dir);
	else if (strcmp(key, "output_dir") == 0)
		snprintf(out, size, "%s", conf->output_dir);
	else if (strcmp(key, "control_socket") == 0)
		snprintf(out, size, "%s", conf->control_socket);
	else if (strcmp(key, "timezone") == 0)
		snprintf(out, size, "%s", conf->timezone);
	else if (strcmp(key, "journal_fsync") == 0)
		snprintf(out, size, "%s", fsync_names[conf->journal_fsync]);
	else if (strcmp(key, "quiet_days") == 0)
		snprintf(out, size, "%s", quiet_names[conf->quiet_days]);
	else if (strcmp(key, "recap_weekday") == 0)
		snprintf(out, size, "%s", conf->recap_weekday ==
		    RECAP_WEEKDAY_NONE ? "none" :
		    wday_names[conf->recap_weekday]);
	else if (strcmp(key, "emit_at") == 0)
		snprintf(out, size, "%02d:%02d", conf->emit_hour,
		    conf->emit_minute);
	else if (strcmp(key, "log_level") == 0)
		snprintf(out, size, "%s", log_level_name(conf->log_level));
	else if (strcmp(key, "max_body") == 0)
		snprintf(out, size, "%lld", conf->max_body);
	else if (strcmp(key, "max_header") == 0)
		snprintf(out, size, "%lld", conf->max_header);
	else if (strcmp(key, "read_timeout") == 0)
		snprintf(out, size, "%d", conf->read_timeout);
	else if (strcmp(key, "max_connections") == 0)
		snprintf(out, size, "%d", conf->max_connections);
	else if (strcmp(key, "words_per_minute") == 0)
		snprintf(out, size, "%g", conf->words_per_minute);
	else if (strcmp(key, "insecure_no_signature") == 0)
		snprintf(out, size, "%d", conf->insecure_no_signature);
	else
		fail_msg("conf_value: no key %s", key);
}

static void
test_config_defaults(void **state)
{
	static const char *const args[] = { "--insecure-no-signature", NULL };
	static const struct {
		const char	*key;
		const char	*want;
	} defaults[] = {
		{ "listen", "127.0.0.1:8080" },
		{ "webhook_path", "/webhook" },
		{ "secret_file", "" },
		{ "state_dir", "./hookcast-state" },
		{ "output_dir", "./hookcast-state/episodes" },
		{ "control_socket", "./hookcast-state/control.sock" },
		{ "emit_at", "10:00" },
		{ "timezone", "UTC" },
		{ "branches", "" },
		{ "journal_fsync", "batch" },
		{ "quiet_days", "skip" },
		{ "recap_weekday", "none" },
		{ "log_level", "info" },
		{ "max_body", "26214400" },
		{ "max_header", "65536" },
		{ "read_timeout", "30" },
		{ "max_connections", "512" },
		{ "words_per_minute", "150" },
		{ "insecure_no_signature", "1" },
	};
	struct config		conf;
	struct config_causes	causes;
	char			got[512];
	size_t			i;

	if (load_argv(&conf, &causes, args) != 0) {
		causes_dump("defaults", &causes);
		fail_msg("defaults rejected");
	}
	assert_int_equal(causes.n, 0);
	assert_null(conf.file);
	assert_int_equal(conf.nsecrets, 0);
	assert_int_equal(conf.nrepos, 0);
	for (i = 0; i < sizeof(defaults) / sizeof(defaults[0]); i++) {
		conf_value(&conf, defaults[i].key, got, sizeof(got));
		if (strcmp(got, defaults[i].want) != 0)
			fail_msg("%s: got \"%s\", want \"%s\"", defaults[i].key,
			    got, defaults[i].want);
	}
	clear(&conf, &causes);
}

/* One key set by a flag or by a file; the value read back. */
static const struct {
	const char	*flag;		/* one or two arguments */
	const char	*flagvalue;	/* NULL: in flag after '=' */
	const char	*ini;		/* the same as a file line */
	const char	*key;
	const char	*want;
} set_cases[] = {
	{ "--state-dir=/srv/hc", NULL, "state_dir = /srv/hc", "state_dir",
	    "/srv/hc" },
	{ "--state-dir=/srv/hc", NULL, "state_dir = /srv/hc", "output_dir",
	    "/srv/hc/episodes" },
	{ "--state-dir=/srv/hc", NULL, "state_dir = /srv/hc",
	    "control_socket", "/srv/hc/control.sock" },
	{ "--output-dir", "/srv/out", "output_dir = /srv/out", "output_dir",
	    "/srv/out" },
	{ "--control-socket=/run/c.sock", NULL,
	    "control_socket = /run/c.sock", "control_socket", "/run/c.sock" },
	{ "--webhook-path=/hooks/gh", NULL, "webhook_path = /hooks/gh",
	    "webhook_path", "/hooks/gh" },
	{ "--listen=0.0.0.0:80, [::1]:8081", NULL,
	    "listen = 0.0.0.0:80, [::1]:8081", "listen",
	    "0.0.0.0:80,[::1]:8081" },
	{ "--emit-at=07:05", NULL, "emit_at = 07:05", "emit_at", "07:05" },
	{ "--emit-at", "23:59", "emit_at = 23:59", "emit_at", "23:59" },
	{ "--emit-at=00:00", NULL, "emit_at = 00:00", "emit_at", "00:00" },
	{ "--timezone=America/New_York", NULL, "timezone = America/New_York",
	    "timezone", "America/New_York" },
	{ "--branches=main, release/2.8", NULL,
	    "branches = main, release/2.8", "branches", "main,release/2.8" },
	{ "--journal-fsync=always", NULL, "journal_fsync = always",
	    "journal_fsync", "always" },
	{ "--journal-fsync=none", NULL, "journal_fsync = none",
	    "journal_fsync", "none" },
	{ "--journal-fsync", "batch", "journal_fsync = batch",
	    "journal_fsync", "batch" },
	{ "--quiet-days=emit", NULL, "quiet_days = emit", "quiet_days",
	    "emit" },
	{ "--quiet-days=skip", NULL, "quiet_days = skip", "quiet_days",
	    "skip" },
	{ "--recap-weekday=monday", NULL, "recap_weekday = monday",
	    "recap_weekday", "monday" },
	{ "--recap-weekday=Sunday", NULL, "recap_weekday = Sunday",
	    "recap_weekday", "sunday" },
	{ "--recap-weekday=saturday", NULL, "recap_weekday = saturday",
	    "recap_weekday", "saturday" },
	{ "--recap-weekday=none", NULL, "recap_weekday = none",
	    "recap_weekday", "none" },
	{ "--log-level", "debug", "log_level = debug", "log_level", "debug" },
	{ "--log-level=error", NULL, "log_level = error", "log_level",
	    "error" },
	{ "--max-body=1M", NULL, "max_body = 1M", "max_body", "1048576" },
	{ "--max-body=2MiB", NULL, "max_body = 2MiB", "max_body", "2097152" },
	{ "--max-body=4096", NULL, "max_body = 4096", "max_body", "4096" },
	{ "--max-header=128k", NULL, "max_header = 128k", "max_header",
	    "131072" },
	{ "--read-timeout=5", NULL, "read_timeout = 5", "read_timeout", "5" },
	{ "--max-connections=64", NULL, "max_connections = 64",
	    "max_connections", "64" },
	{ "--words-per-minute=172.5", NULL, "words_per_minute = 172.5",
	    "words_per_minute", "172.5" },
};

static void
test_config_set_by_flag(void **state)
{
	struct config		conf;
	struct config_causes	causes;
	const char		*args[4];
	char			got[512];
	size_t			i, n;

	/* a secret: insecure_no_signature alone needs a loopback listen */
	setenv("HOOKCAST_SECRET", TEST_SECRET, 1);
	for (i = 0; i < sizeof(set_cases) / sizeof(set_cases[0]); i++) {
		n = 0;
		args[n++] = set_cases[i].flag;
		if (set_cases[i].flagvalue != NULL)
			args[n++] = set_cases[i].flagvalue;
		args[n++] = "--insecure-no-signature";
		args[n] = NULL;
		if (load_argv(&conf, &causes, args) != 0) {
			causes_dump(set_cases[i].flag, &causes);
			fail_msg("%s: rejected", set_cases[i].flag);
		}
		conf_value(&conf, set_cases[i].key, got, sizeof(got));
		if (strcmp(got, set_cases[i].want) != 0)
			fail_msg("%s: %s is \"%s\", want \"%s\"",
			    set_cases[i].flag, set_cases[i].key, got,
			    set_cases[i].want);
		clear(&conf, &causes);
	}
}

/*
 * Each built-in voice the config takes is voice_names' entry of the
 * index it stores (voice.h), as voice and as bookend_voice.
 */
static void
test_config_voices(void **state)
{
	struct config		conf;
	struct config_causes	causes;
	char			flag[64], bookend[64];
	size_t			i;

	(void)state;
	setenv("HOOKCAST_SECRET", TEST_SECRET, 1);
	for (i = 0; voice_names[i] != NULL; i++) {
		snprintf(flag, sizeof(flag), "--voice=%s", voice_names[i]);
		snprintf(bookend, sizeof(bookend), "--bookend-voice=%s",
		    voice_names[i]);
		{
			const char *const args[] = { flag, bookend,
			    "--insecure-no-signature", NULL };

			if (load_argv(&conf, &causes, args) != 0) {
				causes_dump(flag, &causes);
				fail_msg("%s: rejected", flag);
			}
		}
		assert_string_equal(voice_names[conf.voice], voice_names[i]);
		assert_string_equal(voice_names[conf.bookend_voice],
		    voice_names[i]);
		clear(&conf, &causes);
	}
	assert_true(i > 1);
}

static void
test_config_set_by_file(void **state)
{
	struct config		conf;
	struct config_causes	causes;
	const char		*args[4], *path;
	char			got[512], text[512];
	size_t			i;

	setenv("HOOKCAST_SECRET", TEST_SECRET, 1);
	for (i = 0; i < sizeof(set_cases) / sizeof(set_cases[0]); i++) {
		snprintf(text, sizeof(text), "# set one key\n%s\n",
		    set_cases[i].ini);
		path = write_file("set.conf", text);
		args[0] = "--config";
		args[1] = path;
		args[2] = "--insecure-no-signature";
		args[3] = NULL;
		if (load_argv(&conf, &causes, args) != 0) {
			causes_dump(set_cases[i].ini, &causes);
			fail_msg("%s: rejected", set_cases[i].ini);
		}
		assert_string_equal(conf.file, path);
		conf_value(&conf, set_cases[i].key, got, sizeof(got));
		if (strcmp(got, set_cases[i].want) != 0)
			fail_msg("%s: %s is \"%s\", want \"%s\"",
			    set_cases[i].ini, set_cases[i].key, got,
			    set_cases[i].want);
		clear(&conf, &causes);
	}
}

static void
test_config_flags_win(void **state)
{
	struct config		conf;
	struct config_causes	causes;
	const char		*path;

	path = write_file("flags-win.conf",
	    "emit_at = 08:00\n"
	    "timezone = Europe/Stockholm\n"
	    "log_level = debug\n"
	    "webhook_path = /from-file\n"
	    "listen = 10.0.0.1:1, 10.0.0.2:2\n"
	    "insecure_no_signature = yes\n");
	setenv("HOOKCAST_SECRET", TEST_SECRET, 1);
	{
		/* --config after the flags: it is read first anyway */
		const char *const args[] = { "--emit-at=09:30",
		    "--log-level", "warning", "--config", path, NULL };

		if (load_argv(&conf, &causes, args) != 0) {
			causes_dump("flags win", &causes);
			fail_msg("rejected");
		}
	}
	assert_int_equal(conf.emit_hour, 9);
	assert_int_equal(conf.emit_minute, 30);
	assert_int_equal(conf.log_level, LOG_LEVEL_WARNING);
	/* what the flags don't name comes from the file */
	assert_string_equal(conf.timezone, "Europe/Stockholm");
	assert_string_equal(conf.webhook_path, "/from-file");
	assert_int_equal(conf.listen.n, 2);
	assert_string_equal(conf.listen.v[1], "10.0.0.2:2");
	assert_int_equal(conf.insecure_no_signature, 1);
	assert_string_equal(conf.file, path);
	clear(&conf, &causes);
	unsetenv("HOOKCAST_SECRET");

	{
		const char *const args[] = { "--config=", NULL };

		/* an empty --config= names no readable file */
		assert_int_equal(load_argv(&conf, &causes, args), -1);
		clear(&conf, &causes);
	}
	{
		char		 flag[512];
		const char	*args[] = { flag, "--listen=[::1]:9",
		    "--insecure-no-signature=false", NULL };

		/* --config=FILE, and a boolean flag given a value */
		snprintf(flag, sizeof(flag), "--config=%s", path);
		assert_int_equal(load_argv(&conf, &causes, args), -1);
		assert_int_equal(conf.emit_hour, 8);
		assert_int_equal(conf.listen.n, 1);
		assert_string_equal(conf.listen.v[0], "[::1]:9");
		assert_int_equal(conf.insecure_no_signature, 0);
		/* and so, without a secret, the load fails */
		if (cause_find(&causes, "no webhook secret", NULL) == -1) {
			causes_dump("insecure=false", &causes);
			fail_msg("no cause for the missing secret");
		}
		clear(&conf, &causes);
	}
}

static void
test_config_collects_all(void **state)
{
	struct config		conf;
	struct config_causes	causes;
	const char		*path;
	char			want[512];

	path = write_file("two-errors.conf",
	    "# line 1\n"
	    "listen = 127.0.0.1:9000\n"
	    "nosuchkey = 1\n"
	    "webhook_path = /x\n"
	    "emit_at = 25:00\n");
	{
		const char *const args[] = { "--config", path,
		    "--insecure-no-signature", NULL };

		assert_int_equal(load_argv(&conf, &causes, args), -1);
	}
	if (causes.n != 2)
		causes_dump("two errors", &causes);
	assert_int_equal(causes.n, 2);
	snprintf(want, sizeof(want), "%s:3: nosuchkey", path);
	assert_non_null(strstr(causes.v[0], want));
	snprintf(want, sizeof(want), "%s:5: emit_at", path);
	assert_non_null(strstr(causes.v[1], want));
	/* the good lines still took effect */
	assert_string_equal(conf.listen.v[0], "127.0.0.1:9000");
	assert_string_equal(conf.webhook_path, "/x");
	clear(&conf, &causes);

	/* file errors, a line that is no key = value, and flag errors */
	path = write_file("many-errors.conf",
	    "log_level = loud\n"
	    "\n"
	    "just some words\n"
	    "max_body = 12Q\n");
	{
		const char *const args[] = { "--config", path, "--bogus=1",
		    "stray", "--read-timeout=0", "--insecure-no-signature",
		    NULL };

		assert_int_equal(load_argv(&conf, &causes, args), -1);
	}
	snprintf(want, sizeof(want), "%s:1: log_level", path);
	assert_true(cause_find(&causes, want, NULL) != -1);
	snprintf(want, sizeof(want), "%s:3:", path);
	assert_true(cause_find(&causes, want, "key = value") != -1);
	snprintf(want, sizeof(want), "%s:4: max_body", path);
	assert_true(cause_find(&causes, want, NULL) != -1);
	assert_true(cause_find(&causes, "--bogus", "unknown option") != -1);
	assert_true(cause_find(&causes, "stray", "unexpected") != -1);
	assert_true(cause_find(&causes, "read_timeout", "range") != -1);
	if (causes.n != 6)
		causes_dump("six errors", &causes);
	assert_int_equal(causes.n, 6);
	clear(&conf, &causes);

	/* a missing file is a cause naming it */
	{
		char		 missing[512];
		const char	*args[] = { "--config", missing,
		    "--insecure-no-signature", NULL };

		snprintf(missing, sizeof(missing), "%s/no-such.conf",
		    test_dir);
		assert_int_equal(load_argv(&conf, &causes, args), -1);
		assert_int_equal(causes.n, 1);
		assert_non_null(strstr(causes.v[0], missing));
		clear(&conf, &causes);
	}
	/* a flag that needs a value and has none */
	{
		const char *const args[] = { "--insecure-no-signature",
		    "--state-dir", NULL };

		assert_int_equal(load_argv(&conf, &causes, args), -1);
		assert_true(cause_find(&causes, "state_dir",
		    "missing value") != -1);
		clear(&conf, &causes);
	}
	/* "--key value": the cause names the flag, not its value */
	{
		const char *const args[] = { "--insecure-no-signature",
		    "--timezone", "Mars/Olympus", NULL };

		assert_int_equal(load_argv(&conf, &causes, args), -1);
		assert_int_equal(causes.n, 1);
		assert_true(strncmp(causes.v[0], "--timezone (timezone): ",
		    23) == 0);
		clear(&conf, &causes);
	}
}

/* Values rejected where they are read: file:line: key, or --key. */
static const struct {
	const char	*key;
	const char	*value;
	const char	*cause;		/* a word the cause must hold */
} bad_values[] = {
	{ "emit_at", "25:00", "HH:MM" },
	{ "emit_at", "9:5", "HH:MM" },
	{ "emit_at", "09:60", "HH:MM" },
	{ "emit_at", "0930", "HH:MM" },
	{ "emit_at", "09:30pm", "HH:MM" },
	{ "log_level", "loud", "loud" },
	{ "max_body", "12Q", "not a size" },
	{ "max_body", "-1", "not a size" },
	/* sizes said with units, as they are written */
	{ "max_body", "1", "1 byte is under the minimum of 1K" },
	{ "max_body", "1G", "1G is over the limit of 64M" },
	{ "max_body", "100M", "100M is over the limit of 64M" },
	{ "max_header", "1000", "1000 bytes is under the minimum of 1K" },
	{ "max_header", "64KB!", "not a size" },
	{ "read_timeout", "soon", "not a number" },
	{ "read_timeout", "0", "out of range" },
	{ "max_connections", "99999999", "out of range" },
	{ "words_per_minute", "fast", "not a number" },
	{ "words_per_minute", "10", "not a number" },
	{ "insecure_no_signature", "maybe", "true or false" },
	{ "journal_fsync", "sometimes", "not one of always, batch, none" },
	{ "journal_fsync", "", "not one of" },
	{ "quiet_days", "never", "not one of skip, emit" },
	{ "recap_weekday", "funday", "not one of none, monday" },
	{ "recap_weekday", "mon", "sunday" },
	/* the podcast feed's keys */
	{ "public_url", "casts.example/eps", "not an http:// or https://" },
	{ "public_url", "ftp://casts.example/", "not an http:// or https://" },
	{ "public_url", "https://", "not an http:// or https://" },
	{ "public_url", "https:///x", "not an http:// or https://" },
	{ "public_url", "https://a b/", "not an http:// or https://" },
	{ "feed_image", "art.png", "not an http:// or https://" },
	{ "feed_image", "javascript:alert(1)", "not an http:// or https://" },
	{ "feed_locked", "maybe", "not one of no, yes, auto" },
	{ "serve_episodes", "sometimes", "not true or false" },
	{ "audio", "maybe", "not one of off, on, auto" },
	{ "audio_encoder", "sox", "not one of lame, ffmpeg" },
	{ "audio_timeout", "0", "out of range" },
	{ "audio_timeout", "later", "not a number" },
	{ "tts_command", " ", "empty" },
	{ "voice", "espeak", "not one of rms, slt, awb, kal, kal16" },
	{ "bookend_voice", "kal", "kal speaks at 8000 Hz and voice rms at "
	    "16000 Hz" },
	{ "bookend_voice", "nobody", "not one of same, rms" },
	{ "audio_workers", "-1", "out of range" },
	{ "audio_workers", "many", "not a number" },
};

static void
test_config_bad_values(void **state)
{
	struct config		conf;
	struct config_causes	causes;
	const char		*path;
	char			text[512], want[512], flag[512];
	size_t			i;

	for (i = 0; i < sizeof(bad_values) / sizeof(bad_values[0]); i++) {
		/* in a file, at line 2 */
		snprintf(text, sizeof(text), "insecure_no_signature = true\n"
		    "%s = %s\n", bad_values[i].key, bad_values[i].value);
		if (strcmp(bad_values[i].key, "insecure_no_signature") == 0)
			snprintf(text, sizeof(text), "\n%s = %s\n",
			    bad_values[i].key, bad_values[i].value);
		path = write_file("bad.conf", text);
		{
			const char *const args[] = { "--config", path, NULL };

			if (load_argv(&conf, &causes, args) != -1)
				fail_msg("%s = %s: accepted", bad_values[i].key,
				    bad_values[i].value);
		}
		snprintf(want, sizeof(want), "%s:2: %s", path,
		    bad_values[i].key);
		if (cause_find(&causes, want, bad_values[i].cause) == -1) {
			causes_dump(want, &causes);
			fail_msg("%s = %s: no cause \"%s ... %s\"",
			    bad_values[i].key, bad_values[i].value, want,
			    bad_values[i].cause);
		}
		clear(&conf, &causes);

		/* as a flag */
		snprintf(flag, sizeof(flag), "--%s=%s", bad_values[i].key,
		    bad_values[i].value);
		{
			const char *const args[] = { "--insecure-no-signature",
			    flag, NULL };

			if (load_argv(&conf, &causes, args) != -1)
				fail_msg("%s: accepted", flag);
		}
		if (cause_find(&causes, bad_values[i].key,
		    bad_values[i].cause) == -1) {
			causes_dump(flag, &causes);
			fail_msg("%s: no cause naming the key", flag);
		}
		clear(&conf, &causes);
	}
}

/*
 * Values checked once everything is read (they depend on the zone
 * database or on other keys).
 */
static const struct {
	const char	*key;
	const char	*value;
	const char	*cause;
} late_values[] = {
	{ "timezone", "Mars/Olympus", "Mars/Olympus" },
	{ "timezone", "../../etc/passwd", "unknown time zone" },
	{ "listen", "nohostport", "nohostport" },
	{ "listen", "nohostport", "no ':port'" },
	{ "listen", "127.0.0.1:http", "not host:port: the port is not a "
	    "number" },
	{ "listen", "127.0.0.1:65536", "not host:port: the port is not a "
	    "number" },
	{ "listen", ":8080", "not host:port: no host" },
	{ "listen", "127.0.0.1:", "not host:port: no port" },
	{ "listen", "::1:8080", "IPv6 address goes in brackets" },
	{ "listen", "[::1]", "not host:port: no ':port'" },
	{ "listen", "[127.0.0.1]:80", "brackets hold an IPv6 address" },
	{ "listen", ",", "no address" },
	{ "webhook_path", "webhook", "start with /" },
	{ "feed_owner_email", "nobody", "not an email address" },
	{ "feed_owner_email", "a@b@c", "not an email address" },
	{ "feed_owner_email", "<a@b>", "not an email address" },
};

static void
test_config_bad_late_values(void **state)
{
	struct config		conf;
	struct config_causes	causes;
	const char		*path;
	char			text[512], flag[512];
	size_t			i;

	for (i = 0; i < sizeof(late_values) / sizeof(late_values[0]); i++) {
		snprintf(text, sizeof(text), "insecure_no_signature = true\n"
		    "%s = %s\n", late_values[i].key, late_values[i].value);
		path = write_file("late.conf", text);
		{
			const char *const args[] = { "--config", path, NULL };

			if (load_argv(&conf, &causes, args) != -1)
				fail_msg("%s = %s: accepted", late_values[i].key,
				    late_values[i].value);
		}
		if (cause_find(&causes, late_values[i].key,
		    late_values[i].cause) == -1) {
			causes_dump(text, &causes);
			fail_msg("%s = %s: no cause naming it",
			    late_values[i].key, late_values[i].value);
		}
		clear(&conf, &causes);

		snprintf(flag, sizeof(flag), "--%s=%s", late_values[i].key,
		    late_values[i].value);
		{
			const char *const args[] = { "--insecure-no-signature",
			    flag, NULL };

			if (load_argv(&conf, &causes, args) != -1)
				fail_msg("%s: accepted", flag);
		}
		if (cause_find(&causes, late_values[i].key,
		    late_values[i].cause) == -1) {
			causes_dump(flag, &causes);
			fail_msg("%s: no cause naming it", flag);
		}
		clear(&conf, &causes);
	}
}

/*
 * README: --check-config prints "every error with its file, line and key".
 * That holds for the values checked after reading as well.
 */
static void
test_config_late_values_have_file_line(void **state)
{
	struct config		conf;
	struct config_causes	causes;
	const char		*path;
	char			text[512], want[512];
	size_t			i, bad = 0;

	for (i = 0; i < sizeof(late_values) / sizeof(late_values[0]); i++) {
		snprintf(text, sizeof(text), "insecure_no_signature = true\n"
		    "%s = %s\n", late_values[i].key, late_values[i].value);
		path = write_file("late-line.conf", text);
		{
			const char *const args[] = { "--config", path, NULL };

			assert_int_equal(load_argv(&conf, &causes, args), -1);
		}
		snprintf(want, sizeof(want), "%s:2: %s", path,
		    late_values[i].key);
		if (cause_find(&causes, want, NULL) == -1) {
			print_message("%s = %s: want \"%s\", got \"%s\"\n",
			    late_values[i].key, late_values[i].value, want,
			    causes.n > 0 ? causes.v[0] : "");
			bad++;
		}
		clear(&conf, &causes);
	}
	if (bad > 0)
		fail_msg("%zu value error(s) from a file without file:line",
		    bad);
}

/* A directory of the zone database ("America") is not a time zone. */
static void
test_config_timezone_directory(void **state)
{
	static const char *const dirs[] = { "--timezone=America",
	    "--timezone=Europe/" };
	struct config		conf;
	struct config_causes	causes;
	size_t			i, bad = 0;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		const char *const args[] = { "--insecure-no-signature",
		    dirs[i], NULL };

		if (load_argv(&conf, &causes, args) != -1 ||
		    cause_find(&causes, "timezone", NULL) == -1) {
			print_message("%s: accepted\n", dirs[i]);
			bad++;
		}
		clear(&conf, &causes);
	}
	if (bad > 0)
		fail_msg("%zu directory name(s) accepted as a time zone", bad);
}

static void
test_config_repos(void **state)
{
	struct config		 conf;
	struct config_causes	 causes;
	const struct strlist	*b;
	const char		*path;
	char			*show;
	size_t			 i;
	static const struct {
		const char	*repo;
		const char	*show;
		const char	*branches;
	} want[] = {
		{ "pytorch/pytorch", "PyTorch", "main,release/2.8" },
		{ "PyTorch/PyTorch", "PyTorch", "main,release/2.8" },
		{ "curl/curl", "curl", "master" },
		{ "owner/plain", "The Plain Show", "trunk,dev" },
		{ "pytorch/ao", "ao", "trunk,dev" },
		{ "someone/Mixed-Case", "Mixed-Case", "trunk,dev" },
		{ "someone/9lives", "9lives", "trunk,dev" },
	};
	char	got[512];

	path = write_file("repos.conf",
	    "branches = trunk, dev\n"
	    "insecure_no_signature = true\n"
	    "\n"
	    "[repo \"pytorch/pytorch\"]\n"
	    "show = PyTorch\n"
	    "branches = main, release/2.8\n"
	    "\n"
	    "[repo \"curl/curl\"]\n"
	    "branches = master\n"
	    "\n"
	    "[repo \"owner/plain\"]\n"
	    "show = Plain Show\n"
	    "[repo \"owner/plain\"]\n"
	    "show = The Plain Show\n");
	{
		const char *const args[] = { "--config", path, NULL };

		if (load_argv(&conf, &causes, args) != 0) {
			causes_dump("repos", &causes);
			fail_msg("rejected");
		}
	}
	/* a section named twice is one repository */
	assert_int_equal(conf.nrepos, 3);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		show = config_show(&conf, want[i].repo);
		assert_non_null(show);
		if (strcmp(show, want[i].show) != 0)
			fail_msg("%s: show \"%s\", want \"%s\"", want[i].repo,
			    show, want[i].show);
		free(show);
		b = config_branches(&conf, want[i].repo);
		assert_non_null(b);
		join(b, got, sizeof(got));
		if (strcmp(got, want[i].branches) != 0)
			fail_msg("%s: branches \"%s\", want \"%s\"",
			    want[i].repo, got, want[i].branches);
	}
	clear(&conf, &causes);

	/* the model's keys: each of a repository's, else the global one */
	path = write_file("llm.conf",
	    "insecure_no_signature = true\n"
	    "llm_url = http://127.0.0.1:11434/v1/chat/completions\n"
	    "llm_model = global-model\n"
	    "[repo \"a/b\"]\n"
	    "llm_model = repo-model\n"
	    "llm_timeout = 5\n"
	    "[repo \"c/d\"]\n"
	    "llm_url = https://api.example/v1/chat/completions\n");
	{
		const char *const args[] = { "--config", path, NULL };
		struct llm_conf l;

		if (load_argv(&conf, &causes, args) != 0) {
			causes_dump("llm", &causes);
			fail_msg("rejected");
		}
		config_llm(&conf, "a/b", &l);
		assert_string_equal(l.url,
		    "http://127.0.0.1:11434/v1/chat/completions");
		assert_string_equal(l.model, "repo-model");
		assert_int_equal(l.timeout, 5);
		assert_null(l.key);
		config_llm(&conf, "c/d", &l);
		assert_string_equal(l.url,
		    "https://api.example/v1/chat/completions");
		assert_string_equal(l.model, "global-model");
		assert_int_equal(l.timeout, 60);
		config_llm(&conf, "e/f", &l);
		assert_string_equal(l.model, "global-model");
		clear(&conf, &causes);
	}

	/* no global branches: an unlisted repository gets an empty list */
	{
		const char *const args[] = { "--insecure-no-signature", NULL };

		assert_int_equal(load_argv(&conf, &causes, args), 0);
		b = config_branches(&conf, "a/b");
		assert_non_null(b);
		assert_int_equal(b->n, 0);
		show = config_show(&conf, "a/b");
		assert_string_equal(show, "b");
		free(show);
		clear(&conf, &causes);
	}
}

/*
 * A model key goes only to the origin (scheme, host, port) of the llm_url
 * of its own section: a [repo] llm_url elsewhere, without a key of its
 * own, gets none.
 */
static const struct llm_key_case {
	const char	*repo;
	const char	*section;	/* [repo] keys, %s: its key file */
	const char	*key;		/* "global", "own", or NULL */
} llm_key_cases[] = {
	{ "a/same", "llm_model = m\n", "global" },
	{ "a/path", "llm_url = http://127.0.0.1:11434/other/path\n", "global" },
	{ "a/case", "llm_url = HTTP://127.0.0.1:11434/v1\n", "global" },
	{ "a/port", "llm_url = http://127.0.0.1:11435/v1\n", NULL },
	{ "a/scheme", "llm_url = https://127.0.0.1:11434/v1\n", NULL },
	{ "a/host", "llm_url = https://api.example/v1/chat/completions\n",
	    NULL },
	{ "a/userinfo", "llm_url = http://127.0.0.1:11434@other.example/v1\n",
	    NULL },
	{ "a/query", "llm_url = http://other.example?@127.0.0.1:11434/\n",
	    NULL },
	{ "a/v6", "llm_url = http://[::1]:11434/v1\n", NULL },
	{ "a/own", "llm_url = https://api.example/v1\nllm_key_file = %s\n",
	    "own" },
	{ "a/ownglobalurl", "llm_key_file = %s\n", "own" },
};

static void
test_config_llm_key_origin(void **state)
{
	struct config		conf;
	struct config_causes	causes;
	struct llm_conf		l;
	const char		*gkey, *rkey, *path;
	char			text[4096];
	size_t			i, used;

	gkey = write_file("llm-global-key", "global-key\n");
	rkey = write_file("llm-repo-key", "own-key\n");
	used = (size_t)snprintf(text, sizeof(text),
	    "insecure_no_signature = true\n"
	    "llm_url = http://127.0.0.1:11434/v1/chat/completions\n"
	    "llm_key_file = %s\n", gkey);
	for (i = 0; i < sizeof(llm_key_cases) / sizeof(llm_key_cases[0]);
	    i++) {
		used += (size_t)snprintf(text + used, sizeof(text) - used,
		    "[repo \"%s\"]\n", llm_key_cases[i].repo);
		used += (size_t)snprintf(text + used, sizeof(text) - used,
		    llm_key_cases[i].section, rkey);
	}
	assert_true(used < sizeof(text));
	path = write_file("llm-origin.conf", text);
	{
		const char *const args[] = { "--config", path, NULL };

		if (load_argv(&conf, &causes, args) != 0) {
			causes_dump("llm origins", &causes);
			fail_msg("refused");
		}
	}
	config_llm(&conf, "not/configured", &l);
	assert_string_equal(l.key, "global-key");
	for (i = 0; i < sizeof(llm_key_cases) / sizeof(llm_key_cases[0]);
	    i++) {
		config_llm(&conf, llm_key_cases[i].repo, &l);
		if (llm_key_cases[i].key == NULL) {
			if (l.key != NULL)
				fail_msg("%s: %s gets the key \"%s\"",
				    llm_key_cases[i].repo, l.url, l.key);
		} else if (l.key == NULL || strcmp(l.key, strcmp(
		    llm_key_cases[i].key, "own") == 0 ? "own-key" :
		    "global-key") != 0)
			fail_msg("%s: %s gets the key \"%s\", want the %s one",
			    llm_key_cases[i].repo, l.url,
			    l.key ? l.key : "(none)", llm_key_cases[i].key);
	}
	clear(&conf, &causes);

	/* no global llm_url: the global key goes to no [repo] llm_url */
	snprintf(text, sizeof(text), "insecure_no_signature = true\n"
	    "llm_key_file = %s\n[repo \"a/b\"]\n"
	    "llm_url = http://127.0.0.1:11434/v1\n", gkey);
	path = write_file("llm-origin.conf", text);
	{
		const char *const args[] = { "--config", path, NULL };

		assert_int_equal(load_argv(&conf, &causes, args), 0);
	}
	config_llm(&conf, "a/b", &l);
	assert_string_equal(l.url, "http://127.0.0.1:11434/v1");
	assert_null(l.key);
	clear(&conf, &causes);
}

static const struct {
	const char	*text;
	int		 line;		/* of the cause */
	const char	*word;		/* that it holds after file:line: */
	const char	*also;
} bad_sections[] = {
	{ "[server]\nport = 1\n", 2, "[server]", "unknown section" },
	{ "[repo \"noslash\"]\nshow = X\n", 2, "[repo \"noslash\"]",
	    "unknown section" },
	{ "[repo \"a/b/c\"]\nshow = X\n", 2, "[repo \"a/b/c\"]",
	    "unknown section" },
	{ "[repo owner/name]\nshow = X\n", 2, "[repo owner/name]",
	    "unknown section" },
	{ "[repo \"/name\"]\nshow = X\n", 2, "[repo \"/name\"]",
	    "unknown section" },
	{ "[repo \"owner/\"]\nshow = X\n", 2, "[repo \"owner/\"]",
	    "unknown section" },
	{ "[repo \"a/b\" extra]\nshow = X\n", 2, "[repo \"a/b\" extra]",
	    "unknown section" },
	{ "[repository \"a/b\"]\nshow = X\n", 2, "[repository",
	    "unknown section" },
	{ "\n[repo \"a/b\"]\ncolour = red\n", 3, "colour",
	    "show, branches, own_episodes" },
	{ "[repo \"a/b\"]\nshow =\n", 2, "show", "empty" },
	{ "[repo \"a/b\"]\nemit_at = 09:00\n", 2, "emit_at",
	    "show, branches, own_episodes" },
	{ "[repo \"a/b\"]\nllm_url = ftp://x.example/\n", 2, "llm_url",
	    "not an http:// or https:// URL" },
	{ "[repo \"a/b\"]\nllm_timeout = 0\n", 2, "llm_timeout", "" },
	{ "[repo \"a/b\"]\nllm_model =\n", 2, "llm_model", "empty" },
	{ "\n[repo \"a/b\"]\nllm_key_file = /nonexistent/llm-key\n", 3,
	    "llm_key_file", "No such file" },
	{ "[repo \"a/b\"]\nllm_colour = red\n", 2, "llm_colour",
	    "show, branches, own_episodes" },
};

static void
test_config_bad_sections(void **state)
{
	struct config		conf;
	struct config_causes	causes;
	const char		*path;
	char			want[512];
	size_t			i;

	for (i = 0; i < sizeof(bad_sections) / sizeof(bad_sections[0]);
	    i++) {
		path = write_file("section.conf", bad_sections[i].text);
		{
			const char *const args[] = { "--config", path,
			    "--insecure-no-signature", NULL };

			if (load_argv(&conf, &causes, args) != -1)
				fail_msg("%s: accepted", bad_sections[i].text);
		}
		snprintf(want, sizeof(want), "%s:%d: %s", path,
		    bad_sections[i].line, bad_sections[i].word);
		if (cause_find(&causes, want, bad_sections[i].also) == -1) {
			causes_dump(bad_sections[i].text, &causes);
			fail_msg("no cause \"%s ... %s\"", want,
			    bad_sections[i].also);
		}
		clear(&conf, &causes);
	}
}

/*
 * Bad [sink "NAME"] sections. "%s" in text is the path of a good secret
 * file; each case names the line and the key its cause must give.
 */
static const struct {
	const char	*text;
	int		 line;
	const char	*word;
	const char	*also;
} bad_sinks[] = {
	{ "[sink \"a\"]\ntype = ftp\n", 2, "type", "unknown sink type 'ftp'" },
	{ "[sink \"a\"]\nurl = https://x.example/\n", 2, "type",
	    "has no type" },
	{ "[sink \"a\"]\ntype = http\nsecret_file = %s\n", 2, "url",
	    "missing" },
	{ "[sink \"a\"]\ntype = slack\nurl = ftp://x.example/\n", 3, "url",
	    "not an http:// or https:// URL" },
	{ "[sink \"a\"]\ntype = slack\nurl = https://\n", 3, "url",
	    "not an http" },
	{ "[sink \"a\"]\ntype = http\nurl = https://x.example/\n"
	    "secret_file = /nonexistent/hookcast-secret\n", 4, "secret_file",
	    "No such file" },
	{ "[sink \"a\"]\ntype = http\nurl = https://x.example/\n", 2,
	    "secret_file", "missing" },
	{ "[sink \"a\"]\ntype = http\nurl = https://x.example/\n"
	    "secret_file = %s\ntoken_file = /nonexistent/token\n", 5,
	    "token_file", "No such file" },
	{ "[sink \"a b\"]\ntype = http\n", 2, "[sink \"a b\"]", "name" },
	{ "[sink \".hidden\"]\ntype = http\n", 2, "[sink \".hidden\"]",
	    "name" },
	{ "[sink \"a\"]\ncolour = red\n", 2, "colour", "unknown key" },
	{ "[sink \"a\"]\ntype = exec\n", 2, "command", "missing" },
	{ "[sink \"a\"]\ntype = exec\ncommand = /nonexistent/deliver\n", 2,
	    "command", "/nonexistent/deliver" },
	{ "[sink \"a\"]\ntype = exec\ncommand = true\nurl = https://x/\n", 2,
	    "[sink \"a\"]", "for http and slack" },
	{ "[sink \"a\"]\ntype = slack\nurl = https://x.example/\n"
	    "secret_file = %s\n", 2, "[sink \"a\"]", "takes no secret_file" },
	{ "[sink \"a\"]\ntype = slack\nurl = https://x.example/\n"
	    "repositories = widget\n", 2, "repositories", "owner/name" },
	{ "[sink \"a\"]\ntype = slack\nurl = https://x.example/\n"
	    "command = /bin/true\n", 2, "command", "only an exec sink" },
};

static void
test_config_bad_sinks(void **state)
{
	struct config		conf;
	struct config_causes	causes;
	const char		*path, *secret;
	char			want[512], text[1024];
	size_t			i;

	secret = write_file("sink-secret", TEST_SECRET "\n");
	for (i = 0; i < sizeof(bad_sinks) / sizeof(bad_sinks[0]); i++) {
		snprintf(text, sizeof(text), bad_sinks[i].text, secret);
		path = write_file("sink.conf", text);
		{
			const char *const args[] = { "--config", path,
			    "--insecure-no-signature", NULL };

			if (load_argv(&conf, &causes, args) != -1)
				fail_msg("%s: accepted", text);
		}
		snprintf(want, sizeof(want), "%s:%d: %s", path,
		    bad_sinks[i].line, bad_sinks[i].word);
		if (cause_find(&causes, want, bad_sinks[i].also) == -1) {
			causes_dump(text, &causes);
			fail_msg("no cause \"%s ... %s\"", want,
			    bad_sinks[i].also);
		}
		clear(&conf, &causes);
	}
}

static void
test_config_sinks(void **state)
{
	struct config		 conf;
	struct config_causes	 causes;
	const struct sink_conf	*s;
	const char		*path, *secret, *token;
	char			 text[1024];

	secret = write_file("sink-secret", TEST_SECRET "\n");
	token = write_file("sink-token", "# the hub's token\n\nabc123\n");
	snprintf(text, sizeof(text),
	    "sink_retry_for = 600\n"
	    "[sink \"hub\"]\ntype = http\nurl = https://hub.example/in\n"
	    "secret_file = %s\ntoken_file = %s\n"
	    "[sink \"chat\"]\ntype = slack\nurl = https://hooks.example/T/B\n"
	    "repositories = acme/*, other/one\n"
	    "[sink \"files\"]\ntype = exec\ncommand = /bin/echo  -n  x\n",
	    secret, token);
	path = write_file("sinks.conf", text);
	{
		const char *const args[] = { "--config", path,
		    "--insecure-no-signature", NULL };

		if (load_argv(&conf, &causes, args) != 0) {
			causes_dump(text, &causes);
			fail_msg("refused");
		}
	}
	assert_int_equal(conf.nsinks, 3);
	assert_int_equal(conf.sink_retry_for, 600);
	assert_int_equal(conf.sink_retry_min, 30);
	assert_non_null(s = sink_find(conf.sinks, conf.nsinks, "hub"));
	assert_int_equal(s->type, SINK_HTTP);
	assert_string_equal(s->url, "https://hub.example/in");
	assert_int_equal(s->secretlen, strlen(TEST_SECRET));
	assert_memory_equal(s->secret, TEST_SECRET, s->secretlen);
	assert_string_equal(s->token, "abc123");
	assert_true(sink_matches(s, "anyone/anything"));
	assert_non_null(s = sink_find(conf.sinks, conf.nsinks, "chat"));
	assert_int_equal(s->type, SINK_SLACK);
	assert_null(s->secret);
	assert_true(sink_matches(s, "ACME/widget"));
	assert_true(sink_matches(s, "other/one"));
	assert_false(sink_matches(s, "other/two"));
	assert_non_null(s = sink_find(conf.sinks, conf.nsinks, "files"));
	assert_int_equal(s->type, SINK_EXEC);
	assert_int_equal(s->command.n, 3);
	assert_string_equal(s->command.v[0], "/bin/echo");
	assert_string_equal(s->command.v[2], "x");
	assert_null(sink_find(conf.sinks, conf.nsinks, "nope"));
	clear(&conf, &causes);
}

static void
assert_secret(const struct config *conf, size_t i, const char *want)
{
	assert_true(i < conf->nsecrets);
	assert_int_equal(conf->secretlens[i], strlen(want));
	assert_memory_equal(conf->secrets[i], want, strlen(want));
}

static void
test_config_secret_files(void **state)
{
	struct config		conf;
	struct config_causes	causes;
	const char		*one, *two;
	char			flag[1024];

	/* one secret a line; blank lines and CRLF endings dropped */
	one = write_file("secret-two-lines", "first-secret-0123456\nsecond secret 0123456\n");
	two = write_file("secret-crlf", "\r\nthird secret 0123456\r\n\n");
	setenv("HOOKCAST_SECRET", "from-env-0123456789", 1);
	snprintf(flag, sizeof(flag), "--secret-file=%s", one);
	{
		const char *const args[] = { flag, NULL };

		if (load_argv(&conf, &causes, args) != 0) {
			causes_dump("secret file", &causes);
			fail_msg("rejected");
		}
	}
	/* a file given: the environment's secret is not added */
	assert_int_equal(conf.nsecrets, 2);
	assert_secret(&conf, 0, "first-secret-0123456");
	assert_secret(&conf, 1, "second secret 0123456");
	assert_int_equal(conf.insecure_no_signature, 0);
	clear(&conf, &causes);
	unsetenv("HOOKCAST_SECRET");

	/* several files, comma-separated, in order */
	snprintf(flag, sizeof(flag), "--secret-file=%s, %s", two, one);
	{
		const char *const args[] = { flag, NULL };

		assert_int_equal(load_argv(&conf, &causes, args), 0);
	}
	assert_int_equal(conf.nsecrets, 3);
	assert_secret(&conf, 0, "third secret 0123456");
	assert_secret(&conf, 1, "first-secret-0123456");
	assert_secret(&conf, 2, "second secret 0123456");
	clear(&conf, &causes);

	/* a missing file is a cause naming it */
	snprintf(flag, sizeof(flag), "--secret-file=%s/no-such-secret",
	    test_dir);
	{
		const char *const args[] = { flag, NULL };

		assert_int_equal(load_argv(&conf, &causes, args), -1);
	}
	if (cause_find(&causes, "secret_file", flag +
	    strlen("--secret-file=")) == -1) {
		causes_dump("missing secret", &causes);
		fail_msg("no cause naming the missing file");
	}
	assert_int_equal(conf.nsecrets, 0);
	clear(&conf, &causes);

	/* a file with nothing in it */
	one = write_file("secret-empty", "\n\n");
	snprintf(flag, sizeof(flag), "--secret-file=%s", one);
	{
		const char *const args[] = { flag, NULL };

		assert_int_equal(load_argv(&conf, &causes, args), -1);
	}
	assert_true(cause_find(&causes, one, "no secret") != -1);
	clear(&conf, &causes);
}

static void
test_config_secret_env(void **state)
{
	struct config		conf;
	struct config_causes	causes;
	static const char *const none[] = { NULL };

	/* no secret at all, and not insecure */
	assert_int_equal(load_argv(&conf, &causes, none), -1);
	assert_int_equal(causes.n, 1);
	assert_non_null(strstr(causes.v[0], "no webhook secret"));
	clear(&conf, &causes);

	/* an empty $HOOKCAST_SECRET is no secret */
	setenv("HOOKCAST_SECRET", "", 1);
	assert_int_equal(load_argv(&conf, &causes, none), -1);
	clear(&conf, &causes);

	setenv("HOOKCAST_SECRET", "env-secret-0123456789", 1);
	if (load_argv(&conf, &causes, none) != 0) {
		causes_dump("HOOKCAST_SECRET", &causes);
		fail_msg("rejected");
	}
	assert_int_equal(conf.nsecrets, 1);
	assert_secret(&conf, 0, "env-secret-0123456789");
	clear(&conf, &causes);
	unsetenv("HOOKCAST_SECRET");

	/* $CREDENTIALS_DIRECTORY/webhook-secret, when no file is named */
	write_file("webhook-secret", "cred-one-0123456789\ncred-two-0123456789\n");
	setenv("CREDENTIALS_DIRECTORY", test_dir, 1);
	setenv("HOOKCAST_SECRET", "env-secret-0123456789", 1);
	assert_int_equal(load_argv(&conf, &causes, none), 0);
	assert_int_equal(conf.nsecrets, 2);
	assert_secret(&conf, 0, "cred-one-0123456789");
	assert_secret(&conf, 1, "cred-two-0123456789");
	clear(&conf, &causes);
	env_reset();
}

static void
test_config_state_env(void **state)
{
	struct config		conf;
	struct config_causes	causes;
	static const char *const insecure[] = { "--insecure-no-signature",
	    NULL };
	static const char *const flagged[] = { "--insecure-no-signature",
	    "--state-dir=/srv/flag", NULL };

	setenv("STATE_DIRECTORY", "/var/lib/hookcast", 1);
	assert_int_equal(load_argv(&conf, &causes, insecure), 0);
	assert_string_equal(conf.state_dir, "/var/lib/hookcast");
	assert_string_equal(conf.output_dir, "/var/lib/hookcast/episodes");
	assert_string_equal(conf.control_socket,
	    "/var/lib/hookcast/control.sock");
	clear(&conf, &causes);

	/* systemd may pass several, colon-separated: the first is ours */
	setenv("STATE_DIRECTORY", "/var/lib/hookcast:/var/lib/other", 1);
	setenv("RUNTIME_DIRECTORY", "/run/hookcast:/run/other", 1);
	assert_int_equal(load_argv(&conf, &causes, insecure), 0);
	assert_string_equal(conf.state_dir, "/var/lib/hookcast");
	assert_string_equal(conf.control_socket, "/run/hookcast/control.sock");
	clear(&conf, &causes);

	/* a flag wins over the environment */
	assert_int_equal(load_argv(&conf, &causes, flagged), 0);
	assert_string_equal(conf.state_dir, "/srv/flag");
	assert_string_equal(conf.output_dir, "/srv/flag/episodes");
	assert_string_equal(conf.control_socket, "/run/hookcast/control.sock");
	clear(&conf, &causes);
	env_reset();
}

static void
test_config_passthrough(void **state)
{
	struct config		 conf;
	struct config_causes	 causes;
	static const char *const pass[] = { "--check-config", NULL };
	char			*argv[] = { (char *)"hookcastd",
	    (char *)"--check-config", (char *)"--insecure-no-signature", NULL };

	memset(&causes, 0, sizeof(causes));
	assert_int_equal(config_load(&conf, 3, argv, pass, &causes), 0);
	assert_int_equal(causes.n, 0);
	clear(&conf, &causes);

	/* without the passthrough list it is an unknown option */
	assert_int_equal(config_load(&conf, 3, argv, NULL, &causes), -1);
	assert_true(cause_find(&causes, "--check-config", NULL) != -1);
	clear(&conf, &causes);
}

static void
test_config_strlist_split(void **state)
{
	static const struct {
		const char	*in;
		const char	*want;
		size_t		 n;
	} cases[] = {
		{ "a, b,c", "a|b|c", 3 },
		{ "  one  ", "one", 1 },
		{ ",,, ,", "", 0 },
		{ "", "", 0 },
		{ "release/2.8 ,main", "release/2.8|main", 2 },
		{ "x y, z", "x y|z", 2 },
	};
	struct strlist	l;
	char		got[256];
	size_t		i, j, used;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&l, 0, sizeof(l));
		strlist_split(&l, cases[i].in);
		got[0] = '\0';
		for (j = 0, used = 0; j < l.n; j++)
			used += (size_t)snprintf(got + used, sizeof(got) - used,
			    "%s%s", j ? "|" : "", l.v[j]);
		if (l.n != cases[i].n || strcmp(got, cases[i].want) != 0)
			fail_msg("\"%s\": got %zu \"%s\"", cases[i].in, l.n,
			    got);
		if (l.n > 0)
			assert_true(strlist_contains(&l, l.v[l.n - 1]));
		assert_false(strlist_contains(&l, "absent"));
		strlist_clear(&l);
		assert_int_equal(l.n, 0);
		assert_null(l.v);
	}
}

/* A reload logs enumerated values by their keywords, not numbers. */
static void
test_config_log_changes_keywords(void **state)
{
	static const char *const args_old[] = { "--insecure-no-signature",
	    NULL };
	static const char *const args_new[] = { "--insecure-no-signature",
	    "--journal-fsync=always", "--quiet-days=emit",
	    "--recap-weekday=Friday", NULL };
	static const char *const want[] = {
		"journal_fsync changed from 'batch' to 'always'",
		"quiet_days changed from 'skip' to 'emit'",
		"recap_weekday changed from 'none' to 'friday'",
	};
	struct config		old, new;
	struct config_causes	causes;
	char			path[] = "/tmp/hookcast-test-log.XXXXXX";
	char			text[4096];
	FILE			*f;
	size_t			 i, n;
	int			 fd, saved;

	assert_int_equal(load_argv(&old, &causes, args_old), 0);
	config_causes_clear(&causes);
	assert_int_equal(load_argv(&new, &causes, args_new), 0);
	config_causes_clear(&causes);

	fflush(stderr);
	if ((fd = mkstemp(path)) == -1)
		fail_msg("mkstemp");
	saved = dup(2);
	dup2(fd, 2);
	close(fd);
	config_log_changes(&old, &new);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	if ((f = fopen(path, "r")) == NULL)
		fail_msg("%s: cannot read", path);
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	unlink(path);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (strstr(text, want[i]) == NULL)
			fail_msg("no \"%s\" in \"%s\"", want[i], text);
	config_clear(&old);
	config_clear(&new);
}

/*
 * Secret and token files: private (not group- or world-writable), lines
 * that are blank or start with '#' skipped, a secret of at least 16
 * bytes. Each case is one file given as secret_file (or as
 * github_token_file) and either the secrets read or a cause's words.
 */
static const struct secret_case {
	const char	*what;
	const char	*text;
	int		 mode;
	int		 token;		/* as github_token_file */
	const char	*want[3];	/* the secrets (or token), in order */
	const char	*cause[2];	/* else words of the cause */
} secret_cases[] = {
	{ .what = "comments and blank lines", .mode = 0600,
	    .text = "# the webhook secret of hookcast\n\n  \t\n"
	    "0123456789abcdef0123\n#0123456789abcdef-old\n",
	    .want = { "0123456789abcdef0123" } },
	{ .what = "two secrets around a comment", .mode = 0400,
	    .text = "first secret, long enough\n# rotation\n"
	    "second secret, long enough\n",
	    .want = { "first secret, long enough",
	    "second secret, long enough" } },
	{ .what = "world-writable", .mode = 0666,
	    .text = "0123456789abcdef0123\n",
	    .cause = { "writable by everyone", "0666" } },
	{ .what = "group-writable", .mode = 0620,
	    .text = "0123456789abcdef0123\n",
	    .cause = { "writable by its group", "0620" } },
	{ .what = "one byte", .mode = 0600, .text = "x\n",
	    .cause = { ":1: a secret of 1 byte;", "at least 16" } },
	{ .what = "fifteen bytes", .mode = 0600,
	    .text = "# ok\n0123456789abcdef0123\n0123456789abcde\n",
	    .cause = { ":3: a secret of 15 bytes", "at least 16" } },
	{ .what = "only comments", .mode = 0600,
	    .text = "# 0123456789abcdef0123\n\n",
	    .cause = { "no secret in it", NULL } },
	{ .what = "token after a comment", .mode = 0600, .token = 1,
	    .text = "# read-only hooks token\n\nghp_0123456789\n",
	    .want = { "ghp_0123456789" } },
	{ .what = "world-writable token", .mode = 0606, .token = 1,
	    .text = "ghp_0123456789\n",
	    .cause = { "github_token_file", "writable by everyone" } },
	{ .what = "group-writable token", .mode = 0660, .token = 1,
	    .text = "ghp_0123456789\n",
	    .cause = { "github_token_file", "writable by its group" } },
};

static void
test_config_secret_rules(void **state)
{
	const struct secret_case *c;
	struct config		conf;
	struct config_causes	causes;
	const char		*path;
	char			flag[1024];
	size_t			i, j, n;
	int			rc;

	for (i = 0; i < sizeof(secret_cases) / sizeof(secret_cases[0]); i++) {
		c = &secret_cases[i];
		path = write_file("secret-rule", c->text);
		assert_int_equal(chmod(path, (mode_t)c->mode), 0);
		snprintf(flag, sizeof(flag), "--%s=%s", c->token ?
		    "github-token-file" : "secret-file", path);
		{
			const char *const args[] = { flag,
			    "--insecure-no-signature", NULL };

			rc = load_argv(&conf, &causes, args);
		}
		if (c->cause[0] != NULL) {
			if (rc != -1 || cause_find(&causes, path, c->cause[0])
			    == -1 || (c->cause[1] != NULL &&
			    cause_find(&causes, c->cause[0], c->cause[1]) == -1)) {
				causes_dump(c->what, &causes);
				fail_msg("%s: no cause \"%s\"", c->what,
				    c->cause[0]);
			}
			/* a secret is never in a cause */
			for (j = 0; j < causes.n; j++)
				if (strstr(causes.v[j], "0123456789abcde") !=
				    NULL)
					fail_msg("%s: the secret in \"%s\"",
					    c->what, causes.v[j]);
			clear(&conf, &causes);
			continue;
		}
		if (rc != 0) {
			causes_dump(c->what, &causes);
			fail_msg("%s: refused", c->what);
		}
		if (c->token)
			assert_string_equal(conf.github_token, c->want[0]);
		else {
			for (n = 0; n < 3 && c->want[n] != NULL; n++)
				assert_secret(&conf, n, c->want[n]);
			if (conf.nsecrets != n)
				fail_msg("%s: %zu secrets, want %zu", c->what,
				    conf.nsecrets, n);
		}
		clear(&conf, &causes);
	}
}

/* $HOOKCAST_SECRET is held to the same minimum, and never shown. */
static void
test_config_secret_env_short(void **state)
{
	struct config		conf;
	struct config_causes	causes;
	static const char *const none[] = { NULL };

	setenv("HOOKCAST_SECRET", "hunter2", 1);
	assert_int_equal(load_argv(&conf, &causes, none), -1);
	if (cause_find(&causes, "HOOKCAST_SECRET", "at least 16") == -1) {
		causes_dump("short HOOKCAST_SECRET", &causes);
		fail_msg("no cause for the short secret");
	}
	assert_int_equal(cause_find(&causes, "hunter2", NULL), -1);
	assert_int_equal(conf.nsecrets, 0);
	clear(&conf, &causes);
	env_reset();
}

/* A TLS key file is held to the secret files' rule too. */
static void
test_config_tls_key_private(void **state)
{
	struct config		conf;
	struct config_causes	causes;
	const char		*key;
	char			kflag[1024];

	key = write_file("tls-key", "-----BEGIN PRIVATE KEY-----\n");
	assert_int_equal(chmod(key, 0666), 0);
	snprintf(kflag, sizeof(kflag), "--tls-key=%s", key);
	{
		const char *const args[] = { "--insecure-no-signature",
		    "--tls-cert=/nonexistent.pem", kflag, NULL };

		assert_int_equal(load_argv(&conf, &causes, args), -1);
	}
	if (cause_find(&causes, "tls_key", "writable by everyone") == -1) {
		causes_dump("world-writable key", &causes);
		fail_msg("no cause for the world-writable key");
	}
	clear(&conf, &causes);
}

/*
 * Every file holding a credential is private: one its group or others
 * may read is refused as one they may write is, by the key that names
 * it, with the file and line of that key. %s in text is the file.
 */
static const struct credential_case {
	const char	*key;		/* as the cause names it */
	const char	*text;		/* the config file */
	int		 line;		/* of the key; 0: a flag */
	const char	*flag;		/* --flag=%s, or NULL */
} credential_cases[] = {
	{ "secret_file", "secret_file = %s\n", 1, NULL },
	{ "github_token_file", "\ngithub_token_file = %s\n", 2, NULL },
	{ "llm_key_file", "llm_url = http://127.0.0.1:9/v1\n"
	    "llm_key_file = %s\n", 2, NULL },
	{ "llm_key_file", "[repo \"a/b\"]\nllm_url = http://127.0.0.1:9/\n"
	    "llm_key_file = %s\n", 3, NULL },
	{ "secret_file", "[sink \"hub\"]\ntype = http\n"
	    "url = https://hub.example/in\nsecret_file = %s\n", 4, NULL },
	{ "token_file", "[sink \"hub\"]\ntype = http\n"
	    "url = https://hub.example/in\nsecret_file = %s\n"
	    "token_file = %s\n", 5, NULL },
	{ "redis_password_file", "journal = redis://127.0.0.1:9/0\n"
	    "redis_password_file = %s\n", 2, NULL },
	{ "tls_key", NULL, 0, "--tls-key=%s" },
	{ "secret_file", NULL, 0, "--secret-file=%s" },
};

/* The modes refused, and the words of the cause. */
static const struct {
	int		 mode;
	const char	*why;
} credential_modes[] = {
	{ 0644, "readable by everyone (mode 0644); only this user may read "
	    "it: chmod 600 it" },
	{ 0604, "readable by everyone (mode 0604)" },
	{ 0640, "readable by its group (mode 0640)" },
	{ 0440, "readable by its group (mode 0440)" },
	{ 0620, "writable by its group (mode 0620)" },
};

static void
test_config_credentials_private(void **state)
{
	const struct credential_case *c;
	struct config		conf;
	struct config_causes	causes;
	const char		*cred, *conffile = NULL;
	char			text[1024], flag[1024], want[1024];
	size_t			i, m;
	int			rc;

	for (i = 0; i < sizeof(credential_cases) /
	    sizeof(credential_cases[0]); i++) {
		c = &credential_cases[i];
		for (m = 0; m < sizeof(credential_modes) /
		    sizeof(credential_modes[0]); m++) {
			/* a secret, a token and a key alike (no space) */
			cred = write_file("credential",
			    "0123456789abcdef-credential\n");
			assert_int_equal(chmod(cred,
			    (mode_t)credential_modes[m].mode), 0);
			if (c->text != NULL) {
				snprintf(text, sizeof(text), c->text, cred,
				    cred);
				conffile = write_file("credential.conf", text);
				snprintf(flag, sizeof(flag), "--config=%s",
				    conffile);
				snprintf(want, sizeof(want),
				    "%s:%d: %s: %s: %s", conffile, c->line,
				    c->key, cred, credential_modes[m].why);
			} else {
				snprintf(flag, sizeof(flag), c->flag, cred);
				snprintf(want, sizeof(want), "(%s): %s: %s",
				    c->key, cred, credential_modes[m].why);
			}
			{
				const char *const args[] = { flag,
				    "--insecure-no-signature",
				    "--tls-cert=/dev/null", NULL };
				const char *const nocert[] = { flag,
				    "--insecure-no-signature", NULL };

				rc = load_argv(&conf, &causes,
				    strcmp(c->key, "tls_key") == 0 ? args :
				    nocert);
			}
			if (rc != -1 || cause_find(&causes, want, NULL) == -1) {
				causes_dump(want, &causes);
				fail_msg("%s, mode %04o: no cause \"%s\"",
				    c->key, credential_modes[m].mode, want);
			}
			clear(&conf, &causes);
		}
		/* the same file, private, is taken */
		cred = write_file("credential",
		    "0123456789abcdef-credential\n");
		assert_int_equal(chmod(cred, 0400), 0);
		if (c->text != NULL) {
			snprintf(text, sizeof(text), c->text, cred, cred);
			conffile = write_file("credential.conf", text);
			snprintf(flag, sizeof(flag), "--config=%s", conffile);
		} else
			snprintf(flag, sizeof(flag), c->flag, cred);
		{
			const char *const args[] = { flag,
			    "--insecure-no-signature",
			    "--tls-cert=/dev/null", NULL };
			const char *const nocert[] = { flag,
			    "--insecure-no-signature", NULL };

			if (load_argv(&conf, &causes, strcmp(c->key,
			    "tls_key") == 0 ? args : nocert) != 0) {
				causes_dump(c->key, &causes);
				fail_msg("%s: a private file refused", c->key);
			}
		}
		clear(&conf, &causes);
	}
}

/* Set path's access ACL: user::r, user:uid:r, group::-, mask::r, other::-. */
static int
set_acl(const char *path, uint32_t uid)
{
	unsigned char	acl[4 + 5 * 8];
	const uint16_t	tags[5] = { 0x01, 0x02, 0x04, 0x10, 0x20 };
	const uint16_t	perms[5] = { 04, 04, 0, 04, 0 };
	uint32_t	v = htole32(2), id;
	uint16_t	t;
	size_t		i;

	memcpy(acl, &v, 4);
	for (i = 0; i < 5; i++) {
		t = htole16(tags[i]);
		memcpy(acl + 4 + i * 8, &t, 2);
		t = htole16(perms[i]);
		memcpy(acl + 4 + i * 8 + 2, &t, 2);
		id = htole32(tags[i] == 0x02 ? uid : 0xffffffffu);
		memcpy(acl + 4 + i * 8 + 4, &id, 4);
	}
	return setxattr(path, "system.posix_acl_access", acl, sizeof(acl), 0);
}

/*
 * systemd hands a credential to the service's user (DynamicUser= too)
 * as a root-owned 0400 file with an ACL entry user:UID:r, shown as mode
 * 0440: taken. The same ACL naming another user is refused.
 */
static void
test_config_credential_acl(void **state)
{
	struct config		conf;
	struct config_causes	causes;
	const char		*cred;
	char			flag[1024];
	struct stat		st;

	cred = write_file("credential-acl", "0123456789abcdef-credential\n");
	assert_int_equal(chmod(cred, 0400), 0);
	if (set_acl(cred, (uint32_t)geteuid()) == -1) {
		print_message("no ACL on %s (%s): skipped\n", cred,
		    strerror(errno));
		skip();
	}
	assert_int_equal(stat(cred, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0440);
	snprintf(flag, sizeof(flag), "--github-token-file=%s", cred);
	{
		const char *const args[] = { flag, "--insecure-no-signature",
		    NULL };

		if (load_argv(&conf, &causes, args) != 0) {
			causes_dump("ACL for this user", &causes);
			fail_msg("a credential readable by this user only "
			    "(ACL) refused");
		}
		assert_string_equal(conf.github_token,
		    "0123456789abcdef-credential");
		clear(&conf, &causes);

		assert_int_equal(set_acl(cred, (uint32_t)geteuid() + 4242), 0);
		assert_int_equal(load_argv(&conf, &causes, args), -1);
		if (cause_find(&causes, cred, "readable by its group (mode "
		    "0440)") == -1) {
			causes_dump("ACL for another user", &causes);
			fail_msg("no cause for an ACL naming another user");
		}
		clear(&conf, &causes);
	}
}

/* A FIFO given as a credential is refused at once, not waited on. */
static void
test_config_credential_fifo(void **state)
{
	struct config		conf;
	struct config_causes	causes;
	char			fifo[1024], flag[1100];

	snprintf(fifo, sizeof(fifo), "%s/credential-fifo", test_dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	snprintf(flag, sizeof(flag), "--secret-file=%s", fifo);
	{
		const char *const args[] = { flag, NULL };

		assert_int_equal(load_argv(&conf, &causes, args), -1);
	}
	if (cause_find(&causes, fifo, "not a regular file") == -1) {
		causes_dump("FIFO", &causes);
		fail_msg("no cause for the FIFO");
	}
	clear(&conf, &causes);
	assert_int_equal(unlink(fifo), 0);
}

/*
 * Every key that names a credential file is in credential_cases, so a
 * new one is tested (and must be read as the others are, or this test
 * fails for it): the keys of --help, those of [repo] and [sink]
 * sections.
 */
static void
test_config_credential_keys_covered(void **state)
{
	char		*out = NULL, *line, *save = NULL, key[64];
	size_t		 len = 0, i, n, checked = 0;
	FILE		*f;
	int		 found;

	if ((f = open_memstream(&out, &len)) == NULL)
		fail_msg("open_memstream");
	config_usage(f);
	fclose(f);
	for (line = strtok_r(out, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, " --%63[a-z-]", key) != 1)
			continue;
		for (i = 0; key[i] != '\0'; i++)
			if (key[i] == '-')
				key[i] = '_';
		n = strlen(key);
		if (!(n > 5 && strcmp(key + n - 5, "_file") == 0) &&
		    strstr(key, "key") == NULL &&
		    strstr(key, "secret") == NULL &&
		    strstr(key, "token") == NULL &&
		    strstr(key, "password") == NULL)
			continue;
		checked++;
		found = 0;
		for (i = 0; i < sizeof(credential_cases) /
		    sizeof(credential_cases[0]); i++)
			if (strcmp(credential_cases[i].key, key) == 0)
				found = 1;
		if (!found)
			fail_msg("%s: a credential key not in credential_cases",
			    key);
	}
	free(out);
	/* secret_file, github_token_file, tls_key, llm_key_file at least */
	if (checked < 4)
		fail_msg("only %zu credential keys in --help", checked);
}

/*
 * output_dir never holds what the daemon keeps for itself: not state_dir
 * (nor is it state_dir), not state_dir's own names (outbox, journal),
 * not the control socket, not a credential file; however the paths are
 * spelled (trailing slash, "..", symlinks, folders not made yet). In the
 * test folder: st (state_dir, made), lst -> st, out (made), new (not
 * made). %s is the test folder.
 */
static const struct dirs_case {
	const char	*state;
	const char	*output;
	const char	*extra;		/* another flag, or NULL */
	const char	*cause;		/* its words; NULL: taken */
} dirs_cases[] = {
	{ "%s/st", "%s/st", NULL, "is state_dir" },
	{ "%s/st", "%s/st/", NULL, "is state_dir" },
	{ "%s/st", "%s/st/episodes/..", NULL, "is state_dir" },
	{ "%s/st", "%s/out/../st", NULL, "is state_dir" },
	{ "%s/st", "%s/lst", NULL, "is state_dir" },
	{ "%s/lst/", "%s/st", NULL, "is state_dir" },
	{ "%s/st", "%s", NULL, "holds state_dir" },
	{ "%s/st", "%s/lst/..", NULL, "holds state_dir" },
	{ "%s/new/state", "%s/new/", NULL, "holds state_dir" },
	{ "%s/new/state", "%s/new/state/x/..", NULL, "is state_dir" },
	{ "%s/st", "%s/st/outbox", NULL, "which state_dir keeps for itself" },
	{ "%s/st", "%s/lst/outbox/x/", NULL,
	    "which state_dir keeps for itself" },
	{ "%s/st", "%s/st/journal", NULL, "which state_dir keeps for itself" },
	{ "%s/st", "%s/out", "--control-socket=%s/out/control.sock",
	    "holds control_socket" },
	{ "%s/st", "%s/out", "--github-token-file=%s/out/a/b/token.txt",
	    "a credential file" },
	{ "%s/st", "%s/st/../out", "--secret-file=%s/lst/../out/a/b/s.json",
	    "a credential file" },
	/* taken: the default, another folder inside, one beside */
	{ "%s/st", "%s/st/episodes", NULL, NULL },
	{ "%s/st", "%s/lst/public/", NULL, NULL },
	{ "%s/st", "%s/st/outboxes", NULL, NULL },
	{ "%s/st", "%s/out", NULL, NULL },
	{ "%s/new/state", "%s/new/episodes", NULL, NULL },
};

static void
test_config_dirs_apart(void **state)
{
	const struct dirs_case	*c;
	struct config		 conf;
	struct config_causes	 causes;
	char			 sflag[1024], oflag[1024], xflag[1024];
	char			 st[1024], lst[1024], out[1024], cred[1024];
	char			 credir[512];
	FILE			*f;
	size_t			 i;
	int			 rc;

	snprintf(st, sizeof(st), "%s/st", test_dir);
	snprintf(lst, sizeof(lst), "%s/lst", test_dir);
	snprintf(out, sizeof(out), "%s/out", test_dir);
	snprintf(credir, sizeof(credir), "%s/out/a/b", test_dir);
	assert_int_equal(mkdir(st, 0700), 0);
	assert_int_equal(symlink("st", lst), 0);
	assert_int_equal(mkdir(out, 0700), 0);
	snprintf(cred, sizeof(cred), "%s/out/a", test_dir);
	assert_int_equal(mkdir(cred, 0700), 0);
	assert_int_equal(mkdir(credir, 0700), 0);
	/* private, so only where they are is wrong */
	for (i = 0; i < 2; i++) {
		snprintf(cred, sizeof(cred), "%s/%s", credir,
		    i ? "s.json" : "token.txt");
		assert_non_null(f = fopen(cred, "w"));
		fputs("0123456789abcdef-credential\n", f);
		assert_int_equal(fclose(f), 0);
		assert_int_equal(chmod(cred, 0600), 0);
	}
	for (i = 0; i < sizeof(dirs_cases) / sizeof(dirs_cases[0]); i++) {
		c = &dirs_cases[i];
		snprintf(sflag, sizeof(sflag), "--state-dir=");
		snprintf(sflag + strlen(sflag), sizeof(sflag) - strlen(sflag),
		    c->state, test_dir);
		snprintf(oflag, sizeof(oflag), "--output-dir=");
		snprintf(oflag + strlen(oflag), sizeof(oflag) - strlen(oflag),
		    c->output, test_dir);
		snprintf(xflag, sizeof(xflag), c->extra != NULL ? c->extra :
		    "--timezone=UTC", test_dir);
		{
			const char *const args[] = { sflag, oflag, xflag,
			    "--insecure-no-signature", NULL };

			rc = load_argv(&conf, &causes, args);
		}
		if (c->cause == NULL && rc != 0) {
			causes_dump(oflag, &causes);
			fail_msg("%s %s: refused", sflag, oflag);
		}
		if (c->cause != NULL && (rc != -1 ||
		    cause_find(&causes, "(output_dir): ", c->cause) == -1)) {
			causes_dump(oflag, &causes);
			fail_msg("%s %s %s: no cause \"%s\"", sflag, oflag,
			    xflag, c->cause);
		}
		clear(&conf, &causes);
	}
	for (i = 0; i < 2; i++) {
		snprintf(cred, sizeof(cred), "%s/%s", credir,
		    i ? "s.json" : "token.txt");
		assert_int_equal(unlink(cred), 0);
	}
	assert_int_equal(unlink(lst), 0);
	assert_int_equal(rmdir(st), 0);
	assert_int_equal(rmdir(credir), 0);
	*strrchr(credir, '/') = '\0';
	assert_int_equal(rmdir(credir), 0);
	assert_int_equal(rmdir(out), 0);
}

/*
 * No secret (insecure_no_signature) only when every listen address is
 * loopback.
 */
static const struct loopback_case {
	const char	*listen;
	int		 loopback;
} loopback_cases[] = {
	{ "127.0.0.1:8080", 1 },
	{ "127.1.2.3:0", 1 },
	{ "localhost:8080", 1 },
	{ "[::1]:8080", 1 },
	{ "[::ffff:127.0.0.1]:8080", 1 },
	{ "127.0.0.1:1, [::1]:2", 1 },
	{ "0.0.0.0:8080", 0 },
	{ "[::]:8080", 0 },
	{ "127.0.0.1:0, 0.0.0.0:0", 0 },
	{ "192.0.2.1:8080", 0 },
	{ "example.com:8080", 0 },
	{ "128.0.0.1:8080", 0 },
};

static void
test_config_insecure_loopback_only(void **state)
{
	const struct loopback_case *c;
	struct config		conf;
	struct config_causes	causes;
	struct strlist		l;
	char			flag[256];
	size_t			i;
	int			rc;

	for (i = 0; i < sizeof(loopback_cases) / sizeof(loopback_cases[0]);
	    i++) {
		c = &loopback_cases[i];
		memset(&l, 0, sizeof(l));
		strlist_split(&l, c->listen);
		if (config_loopback_only(&l) != c->loopback)
			fail_msg("%s: loopback %d, want %d", c->listen,
			    !c->loopback, c->loopback);
		strlist_clear(&l);

		snprintf(flag, sizeof(flag), "--listen=%s", c->listen);
		{
			const char *const args[] = { flag,
			    "--insecure-no-signature", NULL };

			rc = load_argv(&conf, &causes, args);
		}
		if (c->loopback && rc != 0) {
			causes_dump(c->listen, &causes);
			fail_msg("%s: insecure refused on loopback", c->listen);
		}
		if (!c->loopback && cause_find(&causes,
		    "insecure_no_signature", "non-loopback") == -1) {
			causes_dump(c->listen, &causes);
			fail_msg("%s: insecure accepted", c->listen);
		}
		clear(&conf, &causes);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_config_defaults, test_setup),
		cmocka_unit_test_setup(test_config_set_by_flag, test_setup),
		cmocka_unit_test_setup(test_config_voices, test_setup),
		cmocka_unit_test_setup(test_config_set_by_file, test_setup),
		cmocka_unit_test_setup(test_config_flags_win, test_setup),
		cmocka_unit_test_setup(test_config_collects_all, test_setup),
		cmocka_unit_test_setup(test_config_bad_values, test_setup),
		cmocka_unit_test_setup(test_config_bad_late_values,
		    test_setup),
		cmocka_unit_test_setup(test_config_late_values_have_file_line,
		    test_setup),
		cmocka_unit_test_setup(test_config_timezone_directory,
		    test_setup),
		cmocka_unit_test_setup(test_config_repos, test_setup),
		cmocka_unit_test_setup(test_config_llm_key_origin, test_setup),
		cmocka_unit_test_setup(test_config_bad_sections, test_setup),
		cmocka_unit_test_setup(test_config_bad_sinks, test_setup),
		cmocka_unit_test_setup(test_config_sinks, test_setup),
		cmocka_unit_test_setup(test_config_secret_files, test_setup),
		cmocka_unit_test_setup(test_config_secret_env, test_setup),
		cmocka_unit_test_setup(test_config_state_env, test_setup),
		cmocka_unit_test_setup(test_config_passthrough, test_setup),
		cmocka_unit_test_setup(test_config_strlist_split, test_setup),
		cmocka_unit_test_setup(test_config_log_changes_keywords,
		    test_setup),
		cmocka_unit_test_setup(test_config_secret_rules, test_setup),
		cmocka_unit_test_setup(test_config_secret_env_short,
		    test_setup),
		cmocka_unit_test_setup(test_config_tls_key_private,
		    test_setup),
		cmocka_unit_test_setup(test_config_insecure_loopback_only,
		    test_setup),
		cmocka_unit_test_setup(test_config_credentials_private,
		    test_setup),
		cmocka_unit_test_setup(test_config_credential_keys_covered,
		    test_setup),
		cmocka_unit_test_setup(test_config_credential_acl,
		    test_setup),
		cmocka_unit_test_setup(test_config_credential_fifo,
		    test_setup),
		cmocka_unit_test_setup(test_config_dirs_apart, test_setup),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
