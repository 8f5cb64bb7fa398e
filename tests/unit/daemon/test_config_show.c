/* Unit tests: daemon/config_show.c, [show "NAME"] sections and own_episodes */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "config_files.h"

#include "config.h"
#include "config_int.h"
#include "log.h"

#define MAX_ARGS	16

static int
group_setup(void **state)
{
	(void)state;
	if (mkdtemp(test_dir) == NULL)
		return -1;
	unsetenv("CREDENTIALS_DIRECTORY");
	unsetenv("STATE_DIRECTORY");
	unsetenv("RUNTIME_DIRECTORY");
	unsetenv("HOOKCAST_SECRET");
	return 0;
}

static int
group_teardown(void **state)
{
	char	cmd[256];
	size_t	i;

	(void)state;
	for (i = 0; i < test_nfiles; i++)
		free(test_files[i]);
	/* the files and the folders the warnings' test makes */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", test_dir);
	if (system(cmd) != 0)
		return -1;
	return 0;
}

/* config_load_flags of the file path (and the flags that follow). */
static int
load(struct config *conf, struct config_causes *causes, const char *path,
    int flags, const char *extra)
{
	char	*argv[MAX_ARGS], *state;
	int	 argc = 0, rc;

	if (asprintf(&state, "--state-dir=%s/state", test_dir) == -1)
		fail_msg("asprintf");
	argv[argc++] = (char *)"hookcastd";
	argv[argc++] = (char *)"--config";
	argv[argc++] = (char *)path;
	argv[argc++] = (char *)"--insecure-no-signature";
	argv[argc++] = state;
	if (extra != NULL)
		argv[argc++] = (char *)extra;
	argv[argc] = NULL;
	memset(causes, 0, sizeof(*causes));
	rc = config_load_flags(conf, argc, argv, NULL, flags, causes);
	free(state);
	return rc;
}

static void
causes_dump(const char *what, const struct config_causes *causes)
{
	size_t	i;

	print_message("%s: %zu cause(s)\n", what, causes->n);
	for (i = 0; i < causes->n; i++)
		print_message("  %s\n", causes->v[i]);
}

/* Load text as a file that must be accepted. */
static void
load_good(struct config *conf, const char *name, const char *text,
    int flags)
{
	struct config_causes	causes;

	if (load(conf, &causes, write_file(name, text), flags, NULL) != 0) {
		causes_dump(name, &causes);
		fail_msg("%s: refused", name);
	}
	config_causes_clear(&causes);
}

/*
 * What f(conf...) writes to stderr (the log), into out. The log goes to
 * stderr as it is, so the test reads it back from a file.
 */
struct capture {
	char	path[64];
	int	saved;
};

static void
capture_start(struct capture *c)
{
	int	fd;

	fflush(stderr);
	snprintf(c->path, sizeof(c->path), "/tmp/hookcast-test-log.XXXXXX");
	if ((fd = mkstemp(c->path)) == -1)
		fail_msg("mkstemp");
	c->saved = dup(2);
	dup2(fd, 2);
	close(fd);
}

static void
capture_end(struct capture *c, char *out, size_t size)
{
	FILE	*f;
	size_t	 n;

	fflush(stderr);
	dup2(c->saved, 2);
	close(c->saved);
	if ((f = fopen(c->path, "r")) == NULL)
		fail_msg("%s: cannot read", c->path);
	n = fread(out, 1, size - 1, f);
	out[n] = '\0';
	fclose(f);
	unlink(c->path);
}

/* The slug of a show's name: OUTPUT_DIR/shows/SLUG. */
static void
test_show_slug(void **state)
{
	static const struct {
		const char	*name;
		const char	*slug;
	} cases[] = {
		{ "PyTorch Daily!", "pytorch-daily" },
		{ "pytorch", "pytorch" },
		{ "  Platform -- team  ", "platform-team" },
		{ "a_b.c/d", "a-b-c-d" },
		{ "Caf\xc3\xa9 42", "caf-42" },
		{ "2026", "2026" },
		{ "  ", "" },
		{ "!!!", "" },
		{ "", "" },
	};
	size_t	 i;
	char	*slug;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		slug = config_show_slug(cases[i].name);
		if (strcmp(slug, cases[i].slug) != 0)
			fail_msg("\"%s\": slug \"%s\", want \"%s\"",
			    cases[i].name, slug, cases[i].slug);
		free(slug);
	}
}

/* 32 bytes of a name: four make the longest a show may have. */
#define NAME32	"abcdefghijklmnopqrstuvwxyz012345"

/*
 * Bad show sections (and own_episodes): each case names the line and
 * the word its cause gives after FILE:LINE: (the key, or the section),
 * and more words of it. "%s" in text is a private key file's path.
 */
static const struct {
	const char	*text;
	int		 line;
	const char	*word;
	const char	*also;
} bad_shows[] = {
	{ "[show \"a\"]\nrepositories = a/*\ncolour = red\n", 3, "colour",
	    "unknown key in [show \"a\"] (expected repositories, emit_at," },
	{ "[show \"a\"]\nrepositories = a/*\nbranches = main\n", 3,
	    "branches", "unknown key in [show \"a\"]" },
	{ "[show \"a\"]\nrepositories = a/*\nown_episodes = false\n", 3,
	    "own_episodes", "unknown key in [show \"a\"]" },
	{ "\n[show \"a\"]\nemit_at = 09:00\n", 2, "repositories",
	    "missing in [show \"a\"]" },
	{ "[show \"a\"]\n[repo \"a/b\"]\nshow = B\n", 1, "repositories",
	    "missing in [show \"a\"]" },
	{ "[show \"a\"]\nrepositories =\n", 2, "repositories", "empty value" },
	{ "[show \"a\"]\nrepositories = ,\n", 2, "repositories",
	    "empty value" },
	{ "[show \"a\"]\nrepositories = a/b/c\n", 2, "repositories",
	    "'a/b/c' in [show \"a\"] is not OWNER/NAME" },
	{ "[show \"a\"]\nrepositories = a/b, pytorch\n", 2, "repositories",
	    "'pytorch' in [show \"a\"] is not OWNER/NAME" },
	{ "[show \"a\"]\nrepositories = /b\n", 2, "repositories",
	    "an empty owner or name" },
	{ "[show \"a\"]\nrepositories = a/\n", 2, "repositories",
	    "an empty owner or name" },
	{ "[show \"a\"]\nrepositories = a/b c\n", 2, "repositories",
	    "'a/b c' in [show \"a\"] is not OWNER/NAME: a byte" },
	{ "[show \"a\"]\nrepositories = a/b#\n", 2, "repositories",
	    "a byte no GitHub name has" },
	{ "[show \"a\"]\nrepositories = a/caf\xc3\xa9\n", 2, "repositories",
	    "a byte no GitHub name has" },
	{ "[show \"a\"]\nrepositories = a/[bc\n", 2, "repositories",
	    "not closed" },
	{ "[show \"a\"]\nrepositories = a[/]b\n", 2, "repositories",
	    "not closed" },
	{ "[show \"a\"]\nrepositories = a/[]\n", 2, "repositories",
	    "not closed" },
	{ "[show \"a\"]\nrepositories = a/[b*]\n", 2, "repositories",
	    "not closed" },
	{ "[show \"a\"]\nrepositories = a/*\nemit_at = 25:00\n", 3,
	    "emit_at", "'25:00' is not a time HH:MM" },
	{ "[show \"a\"]\nrepositories = a/*\ntimezone = Mars/Base\n", 3,
	    "timezone", "unknown time zone 'Mars/Base'" },
	{ "[show \"a\"]\nrepositories = a/*\ntimezone =\n", 3, "timezone",
	    "empty value" },
	{ "[show \"a\"]\nrepositories = a/*\nrecap_weekday = someday\n", 3,
	    "recap_weekday", "'someday' is not one of none, monday" },
	{ "[show \"a\"]\nrepositories = a/*\nquiet_days = maybe\n", 3,
	    "quiet_days", "'maybe' is not one of skip, emit" },
	{ "[show \"a\"]\nrepositories = a/*\nvoice = same\n", 3, "voice",
	    "'same' is not one of rms" },
	{ "bookend_voice = rms\n[show \"a\"]\nrepositories = a/*\n"
	    "voice = kal\n", 4, "voice",
	    "kal speaks at 8000 Hz and bookend_voice rms at 16000 Hz" },
	{ "[show \"a\"]\nrepositories = a/*\nfeed_items = 0\n", 3,
	    "feed_items", "0 is out of range 1..1000" },
	{ "[show \"a\"]\nrepositories = a/*\nfeed_items = many\n", 3,
	    "feed_items", "not a number" },
	{ "[show \"a\"]\nrepositories = a/*\nfeed_image = ftp://x/a.png\n", 3,
	    "feed_image", "not an http:// or https:// URL" },
	{ "[show \"a\"]\nrepositories = a/*\nfeed_owner_name =\n", 3,
	    "feed_owner_name", "empty value" },
	{ "[show \"a\"]\nrepositories = a/*\nfeed_owner_email = nobody\n", 3,
	    "feed_owner_email", "'nobody' is not an email address" },
	{ "[show \"a\"]\nrepositories = a/*\nfeed_category =\n", 3,
	    "feed_category", "empty value" },
	{ "[show \"a\"]\nrepositories = a/*\nfeed_locked = perhaps\n", 3,
	    "feed_locked", "'perhaps' is not one of no, yes, auto" },
	{ "[show \"a\"]\nrepositories = a/*\nllm_url = ftp://x.example/\n", 3,
	    "llm_url", "not an http:// or https:// URL" },
	{ "[show \"a\"]\nrepositories = a/*\nllm_model =\n", 3, "llm_model",
	    "empty value" },
	{ "[show \"a\"]\nrepositories = a/*\nllm_timeout = 0\n", 3,
	    "llm_timeout", "0 is out of range 1..3600" },
	{ "[show \"a\"]\nrepositories = a/*\n"
	    "llm_key_file = /nonexistent/llm-key\n", 3, "llm_key_file",
	    "No such file" },
	{ "\n[show \"  \"]\nrepositories = a/*\n", 2, "[show \"  \"]",
	    "needs a letter or digit" },
	{ "[show \"!!\"]\n", 1, "[show \"!!\"]", "needs a letter or digit" },
	{ "[show \"curl/curl\"]\nrepositories = curl/*\n", 1,
	    "[show \"curl/curl\"]", "can't be an owner/name" },
	{ "[show \"a\tb\"]\nrepositories = a/*\n", 1, "[show \"a\tb\"]",
	    "control character" },
	{ "[show \"" NAME32 NAME32 NAME32 NAME32 "x\"]\nrepositories = a/*\n",
	    1, "[show \"" NAME32, "1 to 128 bytes" },
	{ "[show \"PyTorch Daily!\"]\nrepositories = pytorch/*\n\n"
	    "[show \"pytorch daily\"]\nrepositories = pytorch/ao\n", 4,
	    "[show \"pytorch daily\"]", "its folder shows/pytorch-daily is "
	    "also [show \"PyTorch Daily!\"]'s (" },
	{ "[show a]\nrepositories = a/*\n", 2, "[show a]",
	    "unknown section (expected [repo \"owner/name\"], [show" },
	{ "[shows \"a\"]\nrepositories = a/*\n", 2, "[shows \"a\"]",
	    "unknown section" },
	{ "[repo \"a/b\"]\nown_episodes = maybe\n", 2, "own_episodes",
	    "'maybe' is not true or false" },
	{ "[repo \"a/b\"]\nrepositories = a/*\n", 2, "repositories",
	    "(expected show, branches, own_episodes, or an llm_ key)" },
};

static void
test_show_bad(void **state)
{
	struct config		conf;
	struct config_causes	causes;
	const char		*path;
	char			want[512];
	size_t			i, j;

	(void)state;
	for (i = 0; i < sizeof(bad_shows) / sizeof(bad_shows[0]); i++) {
		path = write_file("bad-show.conf", bad_shows[i].text);
		if (load(&conf, &causes, path, 0, NULL) != -1)
			fail_msg("%s: accepted", bad_shows[i].text);
		snprintf(want, sizeof(want), "%s:%d: %s", path,
		    bad_shows[i].line, bad_shows[i].word);
		for (j = 0; j < causes.n; j++)
			if (strncmp(causes.v[j], want, strlen(want)) == 0 &&
			    strstr(causes.v[j], bad_shows[i].also) != NULL)
				break;
		if (j == causes.n) {
			causes_dump(bad_shows[i].text, &causes);
			fail_msg("no cause \"%s ... %s\"", want,
			    bad_shows[i].also);
		}
		/* the slug's clash names the other section's line too */
		if (strstr(bad_shows[i].also, "also [show") != NULL) {
			snprintf(want, sizeof(want), "(%s:1)", path);
			assert_non_null(strstr(causes.v[j], want));
		}
		config_clear(&conf);
		config_causes_clear(&causes);
	}
}

/* A show's globs against repositories: fnmatch, a part at a time. */
static void
test_show_matches(void **state)
{
	static const struct {
		const char	*globs;
		const char	*repo;
		int		 want;
	} cases[] = {
		{ "pytorch/*", "pytorch/vision", 1 },
		{ "pytorch/*", "PyTorch/Vision", 1 },
		{ "pytorch/*", "pytorch/vision/x", 0 },
		{ "pytorch/*", "pytorch-labs/x", 0 },
		{ "pytorch/*", "pytorch", 0 },
		{ "pytorch/*", "pytorch/.github", 1 },
		{ "*/tool", "acme/tool", 1 },
		{ "*/tool", "other/Tool", 1 },
		{ "*/tool", "acme/tools", 0 },
		{ "*/tool", "a/b/tool", 0 },
		{ "acme/svc-?", "acme/svc-a", 1 },
		{ "acme/svc-?", "acme/svc-ab", 0 },
		{ "acme/[ab]*", "acme/Beta", 1 },
		{ "acme/[!ab]*", "acme/beta", 0 },
		{ "acme/[!ab]*", "acme/gamma", 1 },
		{ "curl/curl", "curl/curl", 1 },
		{ "curl/curl", "curl/curl-www", 0 },
		{ "a/x, b/*, curl/curl", "b/y", 1 },
		{ "a/x, b/*, curl/curl", "c/y", 0 },
	};
	struct show_conf	s;
	size_t			i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&s, 0, sizeof(s));
		strlist_split(&s.repositories, cases[i].globs);
		if (show_conf_matches(&s, cases[i].repo) != cases[i].want)
			fail_msg("%s against %s: %d, want %d", cases[i].globs,
			    cases[i].repo, !cases[i].want, cases[i].want);
		strlist_clear(&s.repositories);
	}
}

/* One glob covering another (every repository b matches, a does). */
static void
test_show_covers(void **state)
{
	static const struct {
		const char	*a, *b;
		int		 want;
	} cases[] = {
		{ "pytorch/*", "pytorch/vision", 1 },
		{ "pytorch/vision", "pytorch/*", 0 },
		{ "pytorch/*", "PyTorch/*", 1 },
		{ "pytorch/*", "pytorch/v*", 1 },
		{ "pytorch/v*", "pytorch/*", 0 },
		{ "*/*", "a/b", 1 },
		{ "*/tool", "acme/tool", 1 },
		{ "*/tool", "acme/*", 0 },
		{ "acme/*", "*/tool", 0 },
		{ "py*/*", "pytorch/[av]*", 1 },
		{ "?/x", "*/x", 0 },
		{ "?/x", "a/x", 1 },
		{ "?/x", "[ab]/x", 1 },
		{ "[ab]/x", "?/x", 0 },
		{ "[ab]/x", "b/x", 1 },
		{ "[ab]/x", "c/x", 0 },
		{ "[ab]/x", "[AB]/x", 1 },
		{ "a*b/x", "ab/x", 1 },
		{ "a*b/x", "a*c/x", 0 },
		{ "a*b*c/x", "abxbyc/x", 1 },
		{ "a/b", "a/b", 1 },
		{ "a/b", "a/c", 0 },
		{ "a/b", "a/bb", 0 },
	};
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (config_show_glob_covers(cases[i].a, cases[i].b) !=
		    cases[i].want)
			fail_msg("'%s' covers '%s': want %d", cases[i].a,
			    cases[i].b, cases[i].want);
}

static const char show_text[] =
    "emit_at = 10:00\n"
    "timezone = UTC\n"
    "recap_weekday = friday\n"
    "voice = rms\n"
    "feed_owner_email = global@example.org\n"
    "feed_locked = no\n"
    "llm_url = http://127.0.0.1:11434/v1/chat/completions\n"
    "llm_model = global-model\n"
    "\n"
    "[repo \"pytorch/ao\"]\n"
    "own_episodes = false\n"
    "[repo \"pytorch/vision\"]\n"
    "own_episodes = yes\n"
    "[repo \"curl/curl\"]\n"
    "own_episodes = off\n"
    "\n"
    "[show \"PyTorch Daily!\"]\n"
    "repositories = pytorch/*, */torchtune\n"
    "emit_at = 09:30\n"
    "timezone = Europe/Paris\n"
    "recap_weekday = none\n"
    "quiet_days = emit\n"
    "voice = slt\n"
    "feed_items = 7\n"
    "feed_image = https://example.org/pt.png\n"
    "feed_owner_name = PyTorch\n"
    "feed_category = News\n"
    "feed_locked = yes\n"
    "llm_model = show-model\n"
    "llm_timeout = 9\n"
    "\n"
    "[show \"platform\"]\n"
    "repositories = acme/svc-*\n"
    "llm_url = https://api.example/v1/chat/completions\n";

/* A good configuration: shows found, own_episodes, settings in effect. */
static void
test_show_settings(void **state)
{
	struct config		 conf, eff;
	const struct show_conf	*pt, *pl;
	struct llm_conf		 l;

	(void)state;
	load_good(&conf, "shows.conf", show_text, 0);
	assert_int_equal(conf.nshows, 2);
	pt = config_show_find(&conf, "PyTorch Daily!");
	assert_non_null(pt);
	assert_string_equal(pt->slug, "pytorch-daily");
	assert_non_null(strstr(pt->where, "shows.conf:17"));
	assert_ptr_equal(config_show_find(&conf, "pytorch-daily"), pt);
	assert_null(config_show_find(&conf, "pytorch daily!"));
	assert_null(config_show_find(&conf, "nothing"));
	pl = config_show_find(&conf, "platform");
	assert_non_null(pl);
	assert_true(show_conf_matches(pt, "pytorch/ao"));
	assert_true(show_conf_matches(pt, "meta/torchtune"));
	assert_false(show_conf_matches(pt, "acme/svc-a"));
	assert_true(show_conf_matches(pl, "ACME/svc-a"));

	/* own_episodes: false only where a [repo] says so, any case */
	assert_int_equal(config_own_episodes(&conf, "pytorch/ao"), 0);
	assert_int_equal(config_own_episodes(&conf, "PyTorch/AO"), 0);
	assert_int_equal(config_own_episodes(&conf, "curl/curl"), 0);
	assert_int_equal(config_own_episodes(&conf, "pytorch/vision"), 1);
	assert_int_equal(config_own_episodes(&conf, "pytorch/pytorch"), 1);

	/* each key the show sets, in place of the global one */
	config_show_settings(&conf, pt, &eff);
	assert_int_equal(eff.emit_hour, 9);
	assert_int_equal(eff.emit_minute, 30);
	assert_string_equal(eff.timezone, "Europe/Paris");
	assert_int_equal(eff.recap_weekday, RECAP_WEEKDAY_NONE);
	assert_int_equal(eff.quiet_days, QUIET_DAYS_EMIT);
	assert_int_equal(eff.voice, 1);
	assert_int_equal(eff.feed_items, 7);
	assert_string_equal(eff.feed_image, "https://example.org/pt.png");
	assert_string_equal(eff.feed_owner_name, "PyTorch");
	assert_string_equal(eff.feed_owner_email, "global@example.org");
	assert_string_equal(eff.feed_category, "News");
	assert_int_equal(eff.feed_locked, FEED_LOCKED_YES);
	assert_string_equal(eff.llm_model, "show-model");
	assert_int_equal(eff.llm_timeout, 9);
	assert_string_equal(eff.llm_url,
	    "http://127.0.0.1:11434/v1/chat/completions");
	/* and the rest as they are */
	assert_ptr_equal(eff.output_dir, conf.output_dir);
	assert_int_equal(eff.nshows, 2);
	/* the global configuration is left as it was */
	assert_int_equal(conf.emit_hour, 10);
	assert_string_equal(conf.timezone, "UTC");
	assert_int_equal(conf.recap_weekday, 5);
	assert_int_equal(conf.voice, 0);
	assert_int_equal(conf.feed_items, 30);

	/* a show that sets nothing but its model's server: the globals */
	config_show_settings(&conf, pl, &eff);
	assert_int_equal(eff.emit_hour, 10);
	assert_int_equal(eff.emit_minute, 0);
	assert_string_equal(eff.timezone, "UTC");
	assert_int_equal(eff.recap_weekday, 5);
	assert_int_equal(eff.quiet_days, QUIET_DAYS_SKIP);
	assert_int_equal(eff.voice, 0);
	assert_int_equal(eff.feed_items, 30);
	assert_null(eff.feed_image);
	assert_string_equal(eff.feed_category, "Technology");
	assert_int_equal(eff.feed_locked, FEED_LOCKED_NO);
	assert_string_equal(eff.llm_url,
	    "https://api.example/v1/chat/completions");
	assert_string_equal(eff.llm_model, "global-model");
	assert_int_equal(eff.llm_timeout, 60);

	config_show_llm(&conf, pt, &l);
	assert_string_equal(l.url, "http://127.0.0.1:11434/v1/chat/completions");
	assert_string_equal(l.model, "show-model");
	assert_int_equal(l.timeout, 9);
	config_show_llm(&conf, pl, &l);
	assert_string_equal(l.url, "https://api.example/v1/chat/completions");
	assert_string_equal(l.model, "global-model");
	assert_int_equal(l.timeout, 60);
	config_clear(&conf);
}

/* The model's keys: a show's own, else the global one to its origin. */
static void
test_show_llm_keys(void **state)
{
	struct config		 conf, eff;
	struct llm_conf		 l;
	char			 text[2048];
	const char		*gkey, *skey;

	(void)state;
	gkey = write_file("global-key", "global-key\n");
	skey = write_file("show-key", "show-key\n");
	snprintf(text, sizeof(text),
	    "llm_url = http://127.0.0.1:11434/v1/chat/completions\n"
	    "llm_key_file = %s\n"
	    "[show \"same\"]\nrepositories = a/*\nllm_model = m\n"
	    "[show \"elsewhere\"]\nrepositories = b/*\n"
	    "llm_url = https://api.example/v1\n"
	    "[show \"own\"]\nrepositories = c/*\n"
	    "llm_url = https://api.example/v1\nllm_key_file = %s\n",
	    gkey, skey);
	load_good(&conf, "show-keys.conf", text, 0);
	config_show_llm(&conf, config_show_find(&conf, "same"), &l);
	assert_string_equal(l.key, "global-key");
	config_show_llm(&conf, config_show_find(&conf, "elsewhere"), &l);
	assert_null(l.key);
	config_show_llm(&conf, config_show_find(&conf, "own"), &l);
	assert_string_equal(l.key, "show-key");
	config_show_settings(&conf, config_show_find(&conf, "elsewhere"),
	    &eff);
	assert_null(eff.llm_key);
	config_show_settings(&conf, config_show_find(&conf, "own"), &eff);
	assert_string_equal(eff.llm_key, "show-key");
	config_clear(&conf);
}

/* --print-config's sections from the first "[" line on. New. */
static char *
printed_sections(const struct config *conf)
{
	char	*text = NULL, *p;
	size_t	 size = 0, off;
	FILE	*f;

	if ((f = open_memstream(&text, &size)) == NULL)
		fail_msg("open_memstream");
	config_print(conf, f);
	fclose(f);
	if (text == NULL || (p = strstr(text, "\n[")) == NULL)
		fail_msg("no section printed in:\n%s", text);
	/* size: the bytes written, without the stream's closing NUL */
	off = (size_t)(p - text) + 1;
	memmove(text, text + off, size - off + 1);
	return text;
}

/*
 * --print-config's [repo] and [show] sections, read back as a file,
 * give the same sections (printed the same, and as config.h reads
 * them).
 */
static void
test_show_print_round_trip(void **state)
{
	struct config		 conf, again, eff;
	const struct show_conf	*pt;
	char			*one, *two;

	(void)state;
	load_good(&conf, "print.conf", show_text, 0);
	one = printed_sections(&conf);
	assert_non_null(strstr(one, "[show \"PyTorch Daily!\"]\n"
	    "repositories = pytorch/*, */torchtune\nemit_at = 09:30\n"));
	assert_non_null(strstr(one, "its folder shows/pytorch-daily"));
	assert_non_null(strstr(one, "[repo \"pytorch/ao\"]\n"
	    "own_episodes = false\n"));
	/* the keys the show doesn't set aren't printed in it */
	assert_null(strstr(strstr(one, "[show \"platform\"]"), "emit_at"));
	load_good(&again, "printed.conf", one, 0);
	two = printed_sections(&again);
	/* the same but for the lines each section came from */
	{
		char	*a = one, *b = two;

		while (*a != '\0' && *b != '\0') {
			if (*a == '#' && *b == '#') {
				a += strcspn(a, "\n");
				b += strcspn(b, "\n");
				continue;
			}
			if (*a != *b)
				fail_msg("printed differently:\n%s\n---\n%s",
				    one, two);
			a++;
			b++;
		}
		assert_int_equal(*a, *b);
	}
	assert_int_equal(again.nshows, 2);
	assert_int_equal(config_own_episodes(&again, "pytorch/ao"), 0);
	assert_int_equal(config_own_episodes(&again, "pytorch/vision"), 1);
	pt = config_show_find(&again, "pytorch-daily");
	assert_non_null(pt);
	config_show_settings(&again, pt, &eff);
	assert_int_equal(eff.emit_minute, 30);
	assert_string_equal(eff.timezone, "Europe/Paris");
	assert_int_equal(eff.recap_weekday, RECAP_WEEKDAY_NONE);
	assert_int_equal(eff.feed_locked, FEED_LOCKED_YES);
	free(one);
	free(two);
	config_clear(&conf);
	config_clear(&again);
}

/* A reload's log: shows added, removed, changed; own_episodes changed. */
static void
test_show_log_changes(void **state)
{
	struct config	old, new;
	struct capture	c;
	char		text[8192];
	static const char *const want[] = {
		"reload: [show \"gone\"] removed",
		"reload: [show \"new\"] added: repositories = n/*",
		"reload: [show \"kept\"] changed from 'repositories = k/*' to "
		    "'repositories = k/*, k2/x; emit_at = 08:00'",
		"reload: [repo \"a/b\"] own_episodes changed from true to "
		    "false",
		"reload: [repo \"c/d\"] own_episodes changed from false to "
		    "true",
	};
	size_t		i;

	(void)state;
	load_good(&old, "old.conf",
	    "[show \"gone\"]\nrepositories = g/*\n"
	    "[show \"kept\"]\nrepositories = k/*\n"
	    "[show \"same\"]\nrepositories = s/*\n"
	    "[repo \"c/d\"]\nown_episodes = false\n", 0);
	load_good(&new, "new.conf",
	    "[show \"kept\"]\nrepositories = k/*, k2/x\nemit_at = 08:00\n"
	    "[show \"same\"]\nrepositories = s/*\n"
	    "[show \"new\"]\nrepositories = n/*\n"
	    "[repo \"a/b\"]\nown_episodes = false\n", 0);
	capture_start(&c);
	config_log_changes(&old, &new);
	capture_end(&c, text, sizeof(text));
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (strstr(text, want[i]) == NULL)
			fail_msg("no \"%s\" in \"%s\"", want[i], text);
	if (strstr(text, "\"same\"") != NULL)
		fail_msg("an unchanged show logged: %s", text);
	config_clear(&old);
	config_clear(&new);

	/* nothing changed: said so */
	load_good(&old, "old.conf", "[show \"a\"]\nrepositories = a/*\n", 0);
	load_good(&new, "old.conf", "[show \"a\"]\nrepositories = a/*\n", 0);
	capture_start(&c);
	config_log_changes(&old, &new);
	capture_end(&c, text, sizeof(text));
	assert_non_null(strstr(text, "configuration unchanged"));
	config_clear(&old);
	config_clear(&new);
}

/*
 * --check-config's warnings (CONFIG_CHECK): a show matching no
 * repository seen (a [repo] section, a repositories entry naming one, a
 * folder OWNER/NAME under output_dir; not shows/SLUG), and a glob
 * another of its show covers. Warnings, not errors: the file is good.
 */
static void
test_show_warnings(void **state)
{
	struct config	conf;
	struct capture	c;
	char		text[8192], out[512], conf_text[4096], dir[600];
	const char	*path;

	(void)state;
	snprintf(out, sizeof(out), "%s/out", test_dir);
	snprintf(dir, sizeof(dir), "%s/folder/seen", out);
	{
		char cmd[1400];

		snprintf(cmd, sizeof(cmd), "mkdir -p '%s' '%s/shows/unseen'",
		    dir, out);
		assert_int_equal(system(cmd), 0);
	}
	snprintf(conf_text, sizeof(conf_text),
	    "output_dir = %s\n"
	    "repositories = listed/one, globbed/*, folder/*\n"
	    "[repo \"sectioned/repo\"]\nshow = S\n"
	    "[show \"by folder\"]\nrepositories = folder/seen\n"
	    "[show \"by section\"]\nrepositories = Sectioned/*\n"
	    "[show \"by entry\"]\nrepositories = */one\n"
	    "[show \"unseen\"]\nrepositories = globbed/*, shows/*\n"
	    "[show \"overlaps\"]\n"
	    "repositories = listed/*, listed/one, Listed/*, l*/o*\n",
	    out);
	path = write_file("warn.conf", conf_text);
	capture_start(&c);
	load_good(&conf, "warn.conf", conf_text, CONFIG_CHECK);
	capture_end(&c, text, sizeof(text));
	config_clear(&conf);
	snprintf(conf_text, sizeof(conf_text), "%s:12: repositories: [show "
	    "\"unseen\"] matches no repository seen yet", path);
	if (strstr(text, conf_text) == NULL)
		fail_msg("no \"%s\" in \"%s\"", conf_text, text);
	if (strstr(text, "\"by folder\"") != NULL ||
	    strstr(text, "\"by section\"") != NULL ||
	    strstr(text, "\"by entry\"") != NULL)
		fail_msg("a show of a repository seen warned of: %s", text);
	snprintf(conf_text, sizeof(conf_text), "%s:14: repositories: "
	    "'listed/one' in [show \"overlaps\"] is already matched by "
	    "'listed/*'", path);
	if (strstr(text, conf_text) == NULL)
		fail_msg("no \"%s\" in \"%s\"", conf_text, text);
	if (strstr(text, "'Listed/*' in [show \"overlaps\"] matches the same "
	    "repositories as 'listed/*'") == NULL)
		fail_msg("no duplicate's warning in \"%s\"", text);
	if (strstr(text, "'listed/*' in [show \"overlaps\"] is already") !=
	    NULL || strstr(text, "'listed/*' in [show \"overlaps\"] matches")
	    != NULL)
		fail_msg("the first of two the same warned of: %s", text);
	/* a glob covered twice is said of once, after the first */
	{
		const char	*p = text;
		int		 n = 0;

		while ((p = strstr(p, "'listed/one' in")) != NULL) {
			n++;
			p++;
		}
		if (n != 1)
			fail_msg("'listed/one' said of %d times: %s", n, text);
	}
	if (strstr(text, "'l*/o*' in") != NULL)
		fail_msg("a glob no other covers warned of: %s", text);

	/* without --check-config no folder is looked at: no such warning */
	capture_start(&c);
	load_good(&conf, "quiet.conf",
	    "[show \"unseen\"]\nrepositories = nobody/*\n", 0);
	capture_end(&c, text, sizeof(text));
	config_clear(&conf);
	if (strstr(text, "seen yet") != NULL)
		fail_msg("warned without CONFIG_CHECK: %s", text);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_show_slug),
		cmocka_unit_test(test_show_bad),
		cmocka_unit_test(test_show_matches),
		cmocka_unit_test(test_show_covers),
		cmocka_unit_test(test_show_settings),
		cmocka_unit_test(test_show_llm_keys),
		cmocka_unit_test(test_show_print_round_trip),
		cmocka_unit_test(test_show_log_changes),
		cmocka_unit_test(test_show_warnings),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
