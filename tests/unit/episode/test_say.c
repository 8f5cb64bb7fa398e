/*
 * Unit tests for episode/say.c: what a voice says for a written sentence
 * (operators, versions, identifiers, settings, names in other scripts,
 * symbols), and properties over the corpus days' sentences.
 */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "say.h"
#include "strlist.h"

#define SENTENCES	TEST_DATA_DIR "/say/sentences.txt"

struct say_case {
	const char	*written;
	const char	*spoken;
};

/* The episode's people for the rows below. */
static const struct say_name people[] = {
	{ "张三", "zhangsan" },			/* a CJK name with a login */
	{ "李四", NULL },			/* one without */
	{ "Иван Петров", "ivan-p" },		/* Cyrillic, name in parts */
	{ "王五", "王五" },			/* a login not Latin itself */
	{ "Jane Doe", "janedoe" },
	{ "Bot 機器", "helper[bot]" },		/* a bot's login */
	{ "张三丰", "sanfeng" },			/* after 张三, who is in it */
};

static const struct say_case rows[] = {
	/* 1. comparison operators */
	{ "dropped support for < c-ares 1.16.0",
	  "dropped support for c-ares older than one point sixteen point oh" },
	{ "needs torch >= 2.11 now",
	  "needs torch at least two point eleven now" },
	{ "needs torch>=2.11 now",
	  "needs torch at least two point eleven now" },
	{ "requires <3.0", "requires older than three point oh" },
	{ "works with > 1.2", "works with newer than one point two" },
	{ "allowed <= 4 retries", "allowed up to 4 retries" },
	{ "renamed foo -> bar", "renamed foo to bar" },
	{ "maps key => value", "maps key to value" },
	{ "moved 1.2->1.3", "moved one point two to one point three" },
	{ "if a < b then", "if a older than b then" },
	{ "for < c-ares, then", "for older than c-ares, then" },
	{ "shifts x << 2", "shifts x 2" },
	{ "checks a == b", "checks a equals b" },
	{ "Previously, st->value was NULL.", "Previously, st value was NULL." },
	/* 2. versions */
	{ "released 1.52.1", "released one point fifty-two point one" },
	{ "released v1.52.1",
	  "released version one point fifty-two point one" },
	{ "Tokio v1.52.1 is out.",
	  "Tokio version one point fifty-two point one is out." },
	{ "torch 2.11 or newer", "torch two point eleven or newer" },
	{ "torch 2.11+ only", "torch two point eleven or newer only" },
	{ "from 1.05 to 3.0.", "from one point oh five to three point oh." },
	{ "tagged 2.0.0-rc1",
	  "tagged two point oh point oh release candidate one" },
	{ "tagged 2.0.0-rc.2",
	  "tagged two point oh point oh release candidate two" },
	{ "tagged 1.0.0-beta.2", "tagged one point oh point oh beta two" },
	{ "tagged 3.0-alpha", "tagged three point oh alpha" },
	{ "Python 3.15.0a8 support",
	  "Python three point fifteen point oh alpha eight support" },
	{ "waits 1.5 seconds", "waits one point five seconds" },
	{ "merged into tokio-1.47.x.",
	  "merged into tokio one point forty-seven point x." },
	{ "bumped grep-cli-0.1.10",
	  "bumped grep-cli zero point one point ten" },
	{ "dropped pypy-3.10", "dropped pypy three point ten" },
	{ "upgrade express@5.0.0",
	  "upgrade express version five point oh point oh" },
	{ "branch '5.0' merged", "branch 'five point oh' merged" },
	{ "macOS 10.15.4 (Catalina) builds",
	  "macOS ten point fifteen point four (Catalina) builds" },
	{ "is 1.5x faster", "is one point five times faster" },
	{ "a .5 step", "a point five step" },
	{ "for 2.x", "for two point x" },
	{ "LLaMa 3.1 405B", "LLaMa three point one 405B" },
	{ "took 1,204.5 ms, 12,000 runs",
	  "took one thousand two hundred four point five ms, 12000 runs" },
	{ "took 5µs, then 7 μs", "took 5 microseconds, then 7 microseconds" },
	/* what stays: dates in words, plain integers, SHAs, times, ratios */
	{ "at 10:30 in 3/4 of (1/5) and 1,204 runs",
	  "at 10:30 in 3/4 of (1/5) and 1204 runs" },
	{ "on March 24th, 2026, 1204 commits from 8b13642",
	  "on March 24th, 2026, 1204 commits from 8b13642" },
	{ "on nightly-2025-10-12", "on nightly October 12th, 2025" },
	{ "the nightly version to 2025-10-12.",
	    "the nightly version to October 12th, 2025." },
	{ "since 2025-13-40 or 12025-10-12x", "since 2025-13-40 or 12025-10-12x" },
	/* a Latin letter with a mark as its plain letter: the voices spell
	   a word with any other letter by its letters */
	{ "Christian G\xc3\xb6ttsche and St\xc3\xa9phane fixed it",
	    "Christian Gottsche and Stephane fixed it" },
	{ "\xc5\x81ukasz on Stra\xc3\x9f" "e, \xc3\x86sir \xc3\x98rsted",
	    "Lukasz on Strasse, Aesir Orsted" },
	/* 3. identifiers */
	{ "set read_timeout", "set read timeout" },
	{ "use spawn_blocking", "use spawn blocking" },
	{ "set CARGO_BUILD_WARNINGS", "set cargo build warnings" },
	{ "set HTTP_API_CI", "set HTTP API CI" },
	{ "the QUIC_MAX_STREAMS knob", "the QUIC max streams knob" },
	{ "call torch.compile", "call torch dot compile" },
	{ "use std::sync::Mutex", "use std sync Mutex" },
	{ "call spawnBlocking", "call spawn Blocking" },
	{ "see LengthDelimitedCodec", "see Length Delimited Codec" },
	{ "PyTorch and TaskMeta and iOS and macOS",
	  "PyTorch and TaskMeta and iOS and macOS" },
	{ "in src/foo.rs", "in src slash foo dot rs" },
	{ "in .github now", "in dot github now" },
	{ "passed --disable to curl", "passed disable to curl" },
	{ "opt-in and c-ares and U.S. stay",
	  "opt-in and c-ares and U.S. stay" },
	{ "x a_b and a_b_c_d_e_f_g",
	  "x a b and the name shown in the show notes" },
	{ "fixed __init__ and _private", "fixed init and private" },
	/* at the length: six parts, forty bytes; past it */
	{ "x one_two_three_four_five_six y",
	  "x one two three four five six y" },
	{ "x one_two_three_four_five_six_seven y",
	  "x the name shown in the show notes y" },
	{ "x abcdefghij_abcdefghij_abcdefghij_abcdefg y",
	  "x abcdefghij abcdefghij abcdefghij abcdefg y" },
	{ "x abcdefghij_abcdefghij_abcdefghij_abcdefgh y",
	  "x the name shown in the show notes y" },
	{ "read /sys/devices/system/cpu/cpu0/cpufreq/scaling now",
	  "read the name shown in the show notes now" },
	/* settings */
	{ "Set RUST_LOG=debug first.", "Set rust log set to debug first." },
	{ "added --header-border=inline, too",
	  "added header border set to inline, too" },
	{ "Set TOKIO_UNSTABLE_SHARDED_BLOCKING_QUEUE=1 to try it.",
	  "Set tokio unstable sharded blocking queue set to 1 to try it." },
	{ "Set TOKIO_UNSTABLE_SHARDED_BLOCKING_QUEUE=on to try it.",
	  "Set tokio unstable sharded blocking queue set to on to try it." },
	{ "Set TOKIO_UNSTABLE_SHARDED_BLOCKING_QUEUE=yes to try it.",
	  "Set the setting shown in the show notes to try it." },
	{ "Set TOKIO_UNSTABLE_SHARDED_BLOCKING_QUEUE_NOW=1 to try it.",
	  "Set the setting shown in the show notes to try it." },
	{ "Set SOME_VERY_LONG_SETTING_NAME_HERE_TOO=yes first",
	  "Set the setting shown in the show notes first" },
	/* 4. names without Latin letters */
	{ "Thanks to 张三 for this.", "Thanks to zhangsan for this." },
	{ "Thanks to 张三's fix.", "Thanks to zhangsan's fix." },
	{ "张 and 三 helped", "zhangsan and zhangsan helped" },
	{ "张 三 helped", "zhangsan helped" },
	{ "李四 fixed it", "a contributor fixed it" },
	{ "Иван Петров fixed it", "ivan-p fixed it" },
	{ "王五 fixed it", "a contributor fixed it" },
	{ "機器 bumped it", "helper bumped it" },
	{ "and 未知 wrote it", "and wrote it" },
	{ "by Jane (未知), again", "by Jane, again" },
	{ "by Jane 未知, again", "by Jane, again" },
	{ "Zhang张三 said", "Zhang zhangsan said" },
	{ "张三丰 said", "sanfeng said" },
	{ "张三说 it", "zhangsan it" },
	{ "三丰 said", "sanfeng said" },
	/* 5. symbols and markup */
	{ "fixed 🎉 it ✨ now", "fixed it now" },
	{ "thumbs 👍🏽 and family 👨‍👩‍👧 ok", "thumbs and family ok" },
	{ "a keycap 1️⃣ here", "a keycap 1 here" },
	{ "*bold* and **strong** and _em_", "bold and strong and em" },
	{ "# A heading", "A heading" },
	{ "| a | b |", "a b" },
	{ "R&D & more", "R and D and more" },
	{ "up 29% today", "up 29 percent today" },
	{ "up 1.5% today", "up one point five percent today" },
	{ "some, e.g. this, or i.e. that",
	  "some, for example this, or that is that" },
	{ "E.g. this.", "For example this." },
	{ "Rust vs. Go vs C", "Rust versus Go versus C" },
	{ "C++ and C# code", "C plus plus and C sharp code" },
	{ "fixes #1234.", "fixes number 1234." },
	{ "fixes astral-sh/ruff#24978",
	  "fixes astral-sh slash ruff number 24978" },
	{ "“quoted” – it’s", "\"quoted\", it's" },
	{ "fast - and safe -- now", "fast, and safe, now" },
	{ "open in VS Code", "open in VS Code" },
	{ "a ≥ b → c", "a at least b to c" },
	/* 6. spaces, empty, only symbols */
	{ "  many    spaces  here  ", "many spaces here" },
	{ "", "" },
	{ "★ ☆ ✓ 🎉 → ‼", "" },
	{ "***", "" },
	{ "\xff\xfe bad \xc3 bytes \xe2\x82", "bad bytes" },
	{ "tab\tand\nline", "tab and line" },
};

static void
test_rows(void **state)
{
	size_t	 i;
	int	 bad = 0;
	char	*s;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		s = say_sentence(rows[i].written, people,
		    sizeof people / sizeof people[0]);
		assert_non_null(s);
		if (strcmp(s, rows[i].spoken) != 0) {
			print_error("say_sentence(\"%s\")\n  = \"%s\"\n  want "
			    "\"%s\"\n", rows[i].written, s, rows[i].spoken);
			bad++;
		}
		free(s);
	}
	assert_int_equal(bad, 0);
}

/* No names at all: a run of another script goes. */
static void
test_no_names(void **state)
{
	char	*s;

	(void)state;
	s = say_sentence("by 张三 today", NULL, 0);
	assert_string_equal(s, "by today");
	free(s);
	s = say_sentence(NULL, NULL, 0);
	assert_string_equal(s, "");
	free(s);
}

/* The names and settings left to the show notes, as written. */
static void
test_notes(void **state)
{
	char	**v;
	size_t	  n;

	(void)state;
	v = say_notes("Set TOKIO_UNSTABLE_SHARDED_BLOCKING_QUEUE_NOW=1, then "
	    "read_timeout and (one_two_three_four_five_six_seven).", &n);
	assert_int_equal(n, 2);
	assert_string_equal(v[0],
	    "TOKIO_UNSTABLE_SHARDED_BLOCKING_QUEUE_NOW=1");
	assert_string_equal(v[1], "one_two_three_four_five_six_seven");
	strv_free(v, n);
	v = say_notes("Nothing long here: read_timeout.", &n);
	assert_int_equal(n, 0);
	assert_null(v);
	strv_free(v, n);
}

/* Whether s breaks the cap: SAY_GROWTH times in plus SAY_SLACK. */
static int
over_cap(const char *in, const char *out)
{
	return strlen(out) > SAY_GROWTH * strlen(in) + SAY_SLACK;
}

/*
 * Inputs said at many times their length stop at the cap: what is done,
 * then the rest as written.
 */
static void
test_cap(void **state)
{
	static const struct say_name longlogin[] = {
		{ "张", "a-login-of-thirty-nine-characters-abcde" },
		{ "李", "another-login-thirty-nine-characters-ab" },
	};
	struct { const char *unit; size_t times; } v[] = {
		{ "张 李 ", 200 },	/* 8 bytes said as 80 */
		{ "< ", 500 },
		{ "0.0.0.0 ", 200 },
		{ "& ", 500 },
		{ "#1 ", 300 },
		{ "a/b ", 300 },
		{ "-rc1 ", 100 },
	};
	char	*in, *out;
	size_t	 i, k, len;

	(void)state;
	for (i = 0; i < sizeof v / sizeof v[0]; i++) {
		len = strlen(v[i].unit);
		in = malloc(len * v[i].times + 1);
		assert_non_null(in);
		for (k = 0; k < v[i].times; k++)
			memcpy(in + k * len, v[i].unit, len);
		in[len * v[i].times] = '\0';
		out = say_sentence(in, longlogin, 2);
		if (over_cap(in, out))
			fail_msg("\"%s\" x %zu said in %zu bytes", v[i].unit,
			    v[i].times, strlen(out));
		free(out);
		free(in);
	}
	/* the first: stopped at the cap, the rest kept as written */
	in = malloc(8 * 200 + 1);
	assert_non_null(in);
	for (k = 0; k < 200; k++)
		memcpy(in + k * 8, "张 李 ", 8);
	in[8 * 200 - 1] = '\0';
	out = say_sentence(in, longlogin, 2);
	assert_non_null(strstr(out, "a-login-of-thirty-nine"));
	assert_non_null(strstr(out, "张 李"));
	assert_true(strlen(out) > 8 * 200);
	free(out);
	free(in);
}

/* Whether s has a digit joined to a '.' ("2.11", ".5", "v1."). */
static int
digit_dot(const char *s)
{
	const char	*p;

	for (p = s; *p != '\0'; p++) {
		if (*p != '.')
			continue;
		if (p[1] != '\0' && isdigit((unsigned char)p[1]))
			return 1;
		if (p > s && isdigit((unsigned char)p[-1]) &&
		    isalnum((unsigned char)p[1]))
			return 1;
	}
	return 0;
}

/*
 * Whether the written word w[0..n) is a word of prose, said as written:
 * English letters (a word with any other is said with its letters
 * folded: "Gasc\xc3\xb3n" is "Gascon", a row above), an apostrophe, an
 * inner hyphen, no capital after a small letter (an identifier), not an
 * abbreviation said otherwise.
 */
static int
prose_word(const char *w, size_t n)
{
	size_t	i;

	if (n == 0 || !isalpha((unsigned char)w[0]))
		return 0;
	if ((n == 2 && strncmp(w, "vs", 2) == 0))
		return 0;
	for (i = 0; i < n; i++) {
		if (!isalpha((unsigned char)w[i]) && w[i] != '\'' &&
		    w[i] != '-')
			return 0;
		if (i > 0 && isupper((unsigned char)w[i]) &&
		    islower((unsigned char)w[i - 1]))
			return 0;
	}
	return w[n - 1] != '-';
}

/* The word at *p without the punctuation around it; *p moves past it. */
static const char *
next_word(const char **p, size_t *n)
{
	const char	*w, *e;

	while (**p == ' ')
		(*p)++;
	if (**p == '\0')
		return NULL;
	w = *p;
	e = w + strcspn(w, " ");
	*p = e;
	while (w < e && strchr("(\"'[", *w) != NULL)
		w++;
	while (e > w && strchr(".,;:!?\"')]", e[-1]) != NULL)
		e--;
	*n = (size_t)(e - w);
	return w;
}

/* Whether the word w[0..n) is one of s's words. */
static int
has_word(const char *s, const char *w, size_t n)
{
	const char	*p = s, *v;
	size_t		 m;

	while ((v = next_word(&p, &m)) != NULL)
		if (m == n && memcmp(v, w, n) == 0)
			return 1;
	return 0;
}

/*
 * Every sentence of the corpus days' transcripts: said with no operator,
 * markup or identifier character, every version said, every word of
 * prose kept, within the cap.
 */
static void
test_corpus_sentences(void **state)
{
	FILE		*f;
	char		 line[8192], *s;
	const char	*p, *w;
	size_t		 n, checked = 0, changed = 0;
	int		 bad = 0;

	(void)state;
	f = fopen(SENTENCES, "r");
	assert_non_null(f);
	while (fgets(line, sizeof line, f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || line[0] == '\0')
			continue;
		s = say_sentence(line, NULL, 0);
		checked++;
		changed += strcmp(s, line) != 0;
		if (strpbrk(s, "<>=_`*") != NULL || digit_dot(s) ||
		    over_cap(line, s)) {
			print_error("\"%s\"\n  said \"%s\"\n", line, s);
			bad++;
		}
		for (p = line; (w = next_word(&p, &n)) != NULL;) {
			if (prose_word(w, n) && !has_word(s, w, n)) {
				print_error("\"%s\"\n  said \"%s\"\n  without "
				    "\"%.*s\"\n", line, s, (int)n, w);
				bad++;
			}
		}
		free(s);
	}
	fclose(f);
	assert_int_equal(bad, 0);
	/* the fixture is the corpus's sentences, and the pass changes some */
	assert_true(checked > 400);
	assert_true(changed > 50);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_no_names),
		cmocka_unit_test(test_cap),
		cmocka_unit_test(test_notes),
		cmocka_unit_test(test_corpus_sentences),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
