/* Unit tests for episode/spoken.c: numbers, ordinals, dates, lists, durations. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "buf.h"
#include "date.h"
#include "spoken.h"
#include "text.h"

struct number_case {
	long long	 n;
	const char	*want;
};

static const struct number_case numbers[] = {
	{ 0, "zero" },
	{ 1, "one" },
	{ 13, "thirteen" },
	{ 20, "twenty" },
	{ 21, "twenty-one" },
	{ 99, "ninety-nine" },
	{ 100, "one hundred" },
	{ 101, "one hundred one" },
	{ 1000, "one thousand" },
	{ 1204, "one thousand two hundred four" },
	{ 65535, "sixty-five thousand five hundred thirty-five" },
	{ 1000000, "one million" },
	{ 1000001, "one million one" },
	{ 2500000000LL, "two billion five hundred million" },
	{ -5, "minus five" },
	{ -1204, "minus one thousand two hundred four" },
};

static const struct number_case ordinal_words[] = {
	{ 1, "first" }, { 2, "second" }, { 3, "third" }, { 4, "fourth" },
	{ 5, "fifth" }, { 8, "eighth" }, { 9, "ninth" },
	{ 11, "eleventh" }, { 12, "twelfth" }, { 13, "thirteenth" },
	{ 20, "twentieth" }, { 21, "twenty-first" }, { 22, "twenty-second" },
	{ 23, "twenty-third" }, { 101, "one hundred first" },
	{ 111, "one hundred eleventh" }, { 1000, "one thousandth" },
};

static const struct number_case ordinal_digits[] = {
	{ 1, "1st" }, { 2, "2nd" }, { 3, "3rd" }, { 4, "4th" },
	{ 11, "11th" }, { 12, "12th" }, { 13, "13th" }, { 21, "21st" },
	{ 22, "22nd" }, { 23, "23rd" }, { 101, "101st" }, { 111, "111th" },
	{ 112, "112th" }, { 0, "0th" },
};

static const struct number_case durations[] = {
	{ 0, "PT0S" }, { 59, "PT59S" }, { 60, "PT1M" }, { 261, "PT4M21S" },
	{ 3600, "PT1H" }, { 3661, "PT1H1M1S" }, { 7260, "PT2H1M" },
	{ -3, "PT0S" },
};

static void
test_numbers(void **state)
{
	struct buf	b;
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof numbers / sizeof numbers[0]; i++) {
		buf_init(&b);
		spoken_number(&b, numbers[i].n);
		assert_string_equal(buf_str(&b), numbers[i].want);
		buf_free(&b);
	}
}

static void
test_ordinal_words(void **state)
{
	struct buf	b;
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof ordinal_words / sizeof ordinal_words[0]; i++) {
		buf_init(&b);
		spoken_ordinal_word(&b, ordinal_words[i].n);
		assert_string_equal(buf_str(&b), ordinal_words[i].want);
		buf_free(&b);
	}
}

static void
test_ordinal_digits(void **state)
{
	struct buf	b;
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof ordinal_digits / sizeof ordinal_digits[0]; i++) {
		buf_init(&b);
		spoken_ordinal_digits(&b, ordinal_digits[i].n);
		assert_string_equal(buf_str(&b), ordinal_digits[i].want);
		buf_free(&b);
	}
}

static void
test_dates(void **state)
{
	static const struct {
		int		 y, m, d;
		const char	*want;
	} cases[] = {
		{ 2026, 4, 4, "April 4th, 2026" },
		{ 2026, 5, 22, "May 22nd, 2026" },
		{ 2025, 12, 31, "December 31st, 2025" },
		{ 2026, 2, 11, "February 11th, 2026" },
		{ 2026, 1, 3, "January 3rd, 2026" },
	};
	struct buf	b;
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		buf_init(&b);
		spoken_date(&b, cases[i].y, cases[i].m, cases[i].d);
		assert_string_equal(buf_str(&b), cases[i].want);
		buf_free(&b);
	}
}

/* An earlier date said from Wednesday, March 4th, 2026. */
static void
test_past_days(void **state)
{
	static const struct {
		int		 y, m, d;
		int		 rc;
		const char	*want;
	} cases[] = {
		{ 2026, 3, 4, 0, "earlier today" },
		{ 2026, 3, 3, 0, "yesterday" },
		{ 2026, 3, 2, 1, "Monday" },
		{ 2026, 2, 26, 1, "Thursday" },
		{ 2026, 2, 25, 1, "February 25th" },
		{ 2025, 12, 31, 1, "December 31st, 2025" },
		{ 2026, 3, 5, -1, "" },
		{ 2026, 13, 1, -1, "" },
	};
	struct buf	b;
	long		today = date_daynum(2026, 3, 4);
	size_t		i;

	(void)state;
	assert_int_equal(date_daynum(1970, 1, 1), 0);
	assert_int_equal(today, 20516);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		buf_init(&b);
		assert_int_equal(spoken_past_day(&b, cases[i].y, cases[i].m,
		    cases[i].d, today, 2026), cases[i].rc);
		assert_string_equal(buf_str(&b), cases[i].want);
		buf_free(&b);
	}
}

static void
test_counts(void **state)
{
	static const struct number_case cases[] = {
		{ 0, "zero commits" }, { 1, "one commit" }, { 2, "two commits" },
		{ 30, "thirty commits" },
	};
	struct buf	b;
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		buf_init(&b);
		spoken_count(&b, cases[i].n, "commit", "commits");
		assert_string_equal(buf_str(&b), cases[i].want);
		buf_free(&b);
	}
}

static void
test_lists(void **state)
{
	static const char *const items[] = { "A", "B", "C", "D" };
	static const char *want[] = { "", "A", "A and B", "A, B and C",
	    "A, B, C and D" };
	struct buf	b;
	size_t		n;

	(void)state;
	for (n = 0; n <= 4; n++) {
		buf_init(&b);
		spoken_list(&b, items, n);
		assert_string_equal(buf_str(&b), want[n]);
		buf_free(&b);
	}
}

static void
test_durations(void **state)
{
	struct buf	b;
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof durations / sizeof durations[0]; i++) {
		buf_init(&b);
		iso_duration(&b, (long)durations[i].n);
		assert_string_equal(buf_str(&b), durations[i].want);
		buf_free(&b);
	}
}

/* Appending keeps what the buffer held. */
static void
test_said_words(void **state)
{
	static const struct {
		const char	*text;
		size_t		 words, said;
	} cases[] = {
		{ "", 0, 0 },
		{ "Hello and welcome.", 3, 3 },
		{ "  two   words ", 2, 2 },
		/* identifiers are said by their parts */
		{ "Int8DynamicActInt4WeightOpaqueTensorConfig", 1, 10 },
		{ "set read_timeout to 30", 4, 5 },
		{ "CURLOPT_MAXCONNECTS set to 0", 4, 5 },
		{ "in vtls_config, Stefan", 3, 4 },
		{ "http_size() and --disable", 3, 4 },
		/* punctuation alone is not a word said */
		{ "A - B", 3, 2 },
		{ "na\xc3\xafve caf\xc3\xa9", 2, 2 },
	};
	size_t	i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (text_word_count(cases[i].text) != cases[i].words ||
		    spoken_said_words(cases[i].text) != cases[i].said)
			fail_msg("'%s': %zu words, %zu said; want %zu, %zu",
			    cases[i].text, text_word_count(cases[i].text),
			    spoken_said_words(cases[i].text), cases[i].words,
			    cases[i].said);
	}
}

static void
test_appends(void **state)
{
	struct buf	b;

	(void)state;
	buf_init(&b);
	buf_puts(&b, "we had ");
	spoken_count(&b, 9, "commit", "commits");
	assert_string_equal(buf_str(&b), "we had nine commits");
	buf_free(&b);
}

/* Symbols said by their words; names a listener knows kept. */
static void
test_symbols(void **state)
{
	static const struct {
		const char	*in, *want;
	} cases[] = {
		/* snake_case, tests and files with words in them */
		{ "fixed test_sparse_api failures", "fixed the sparse api test "
		    "failures" },
		{ "skipped it in test_a_b.py and test_c.py.", "skipped it in "
		    "the a b test and the c test." },
		{ "moved uintx_utils.py to prototype", "moved uintx utils to "
		    "prototype" },
		{ "ignored ERR_CLOSED_SERVER in scanner", "ignored ERR CLOSED "
		    "SERVER in scanner" },
		{ "removed __len__ cases", "removed len cases" },
		/* an absolute path stays whole (htop 2020-09-24) */
		{ "node /sys/cpu/cpuX/cpufreq/scaling_cur_freq to get it",
		    "node /sys/cpu/cpuX/cpufreq/scaling_cur_freq to get it" },
		{ "the scale/zero_point pair", "the scale/zero point pair" },
		/* paths and calls */
		{ "stack overflow on import.meta.hot.invalidate().",
		    "stack overflow on import meta hot invalidate." },
		{ "fixed the hot.send link", "fixed the hot send link" },
		{ "Builder::new_codec and data.len() stay",
		    "Builder new codec and data len stay" },
		{ "(calls f()), then", "(calls f), then" },
		{ "dropped num_skip(0) so", "dropped num skip so" },
		{ "the cfg(not(unix)) stub", "the cfg(not(unix)) stub" },
		/* camelCase and long CamelCase */
		{ "inverted esbuild.jsxSideEffects", "inverted esbuild jsx side "
		    "effects" },
		{ "fixed skipLibCheck example", "fixed skip lib check example" },
		{ "\"LowBitPacking kernels\"", "\"Low Bit Packing kernels\"" },
		{ "SemiSparseLayout's pack", "Semi Sparse Layout's pack" },
		{ "Int8DynamicActivation", "Int8 Dynamic Activation" },
		{ "added hipSPARSELt", "added hip SPARSE Lt" },
		{ "MildlyMeticulous wrote", "Mildly Meticulous wrote" },
		{ "the scale/zero_point tensors", "the scale/zero point "
		    "tensors" },
		{ "printHeader and resizeIfNeeded", "print header and resize "
		    "if needed" },
		/* a method called on nothing said (fd 2021-08-08) */
		{ "made sure not to use .clone().", "made sure not to use "
		    "clone." },
		{ "use .into_iter() here", "use into iter here" },
		/* an arrow between words (cargo 2025-09-12) */
		{ "fixed the typo: \"canonical lysing\" -> \"canonicalizing\"",
		    "fixed the typo: \"canonical lysing\" to \"canonicalizing\"" },
		{ "renamed a \xe2\x86\x92 b", "renamed a to b" },
		/* kept as they are */
		{ "Previously, st->value was passed", "Previously, st->value "
		    "was passed" },
		{ "a ->b and a-> b", "a ->b and a-> b" },
		{ "-> at the start", "-> at the start" },
		{ "at the end ->", "at the end ->" },
		{ "PyTorch, JavaScript, GitHub, iOS, macOS, iPhone and gRPC",
		    "PyTorch, JavaScript, GitHub, iOS, macOS, iPhone and gRPC" },
		{ "LLaMa 3.1 on TorchTitan", "LLaMa 3.1 on TorchTitan" },
		{ "so ~13% faster, approximately ~2x", "so about 13% faster, "
		    "approximately 2x" },
		{ "Node.js, AUTHORS.rst, bitpacking.py, example.com",
		    "Node.js, AUTHORS.rst, bitpacking.py, example.com" },
		{ "v2.11.0, 3.12 and e.g. x86_64-linux", "v2.11.0, 3.12 and "
		    "e.g. x86_64-linux" },
		{ "create-vite's .modules.yaml", "create-vite's .modules.yaml" },
		{ "a .gitignore and .a.b() and .(x)", "a .gitignore and "
		    ".a.b() and .(x)" },
		{ "a.b_c.unknownext", "a.b_c.unknownext" },
		{ "翠 ignored it", "翠 ignored it" },
		{ "", "" },
	};
	size_t	 i;
	char	*got;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		got = spoken_symbols(cases[i].in);
		if (strcmp(got, cases[i].want) != 0)
			fail_msg("\"%s\": got \"%s\", want \"%s\"",
			    cases[i].in, got, cases[i].want);
		free(got);
	}
}

/* Brace alternations said as their words. */
static void
test_braces(void **state)
{
	static const struct {
		const char	*in, *want;
	} cases[] = {
		{ "added --{header,footer}-border=inline.", "added "
		    "--header-border=inline and --footer-border=inline." },
		{ "src/{a,b,c}.c changed", "src/a.c, src/b.c and src/c.c "
		    "changed" },
		{ "a {b} c and {x, y}", "a b c and x, y" },
		{ "using { $__loc__ } as shorthand", "using $__loc__ as "
		    "shorthand" },
		{ "no braces", "no braces" },
		{ "not to suggest Foo[ ] when Foo(arg=) is used, nor x[]",
		    "not to suggest Foo when Foo(arg=) is used, nor x" },
		{ "keep [Reland] and a[0]", "keep [Reland] and a[0]" },
	};
	size_t	 i;
	char	*got;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		got = spoken_braces(cases[i].in);
		if (strcmp(got, cases[i].want) != 0)
			fail_msg("\"%s\": got \"%s\"", cases[i].in, got);
		free(got);
	}
}

/*
 * spoken_clean takes out a voice's markup (issue 25): what the audio
 * says is what the transcript shows, so no phonemes, SSML or entities.
 */
static void
test_clean_voice(void **state)
{
	static const struct {
		const char	*in, *want;
	} cases[] = {
		{ "widget: say [[h@'loU]] now", "widget: say now" },
		{ "a <prosody rate='x-slow' pitch='+90%'>slow</prosody> gear",
		    "a slow gear" },
		{ "wait<break time=\"3s\"/> then go", "wait then go" },
		{ "<speak>hi</speak> there", "hi there" },
		{ "an <amazon:effect name=\"whispered\">aside</amazon:effect>",
		    "an aside" },
		{ "<say-as interpret-as=\"characters\">ab</say-as>", "ab" },
		{ "R&amp;D and a &lt; b", "R&D and a < b" },
		{ "&lt;speak&gt;x", "x" },
		{ "&amp;lt;prosody&amp;gt;y", "y" },
		{ "a &#x5b;&#91;h@&#39;loU&#93;&#93; b", "a h@loU b" },
		{ "an unknown &bogus; entity", "an unknown entity" },
		{ "the phonemes' words go: [[ and ]] too", "the phonemes' "
		    "words go: too" },
		{ "a lone [[ bracket", "a lone [ bracket" },
		{ "a lone ]] one", "a lone ] one" },
		{ "split [[h@\n'loU]] lines", "split [h@\n'loU] lines" },
		{ "keep [Reland], a[0] and R&D; x & y", "keep [Reland], a[0] "
		    "and R&D; x & y" },
		{ "[[a](b)](c)", "a" },
		/* what one rule drops joins no markup for another */
		{ "say ev[[x]]il.com/y now", "say now" },
		{ "say [evil.com/x[h@'loU]] now", "say [h@'loU] now" },
		{ "Use <details> here", "Use details here" },
	};
	size_t	 i, bad = 0;
	char	*s;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		s = strdup(cases[i].in);
		assert_non_null(s);
		spoken_clean(s);
		if (strcmp(s, cases[i].want) != 0) {
			print_message("\"%s\": got \"%s\", want \"%s\"\n",
			    cases[i].in, s, cases[i].want);
			bad++;
		}
		/* idempotent */
		spoken_clean(s);
		if (strcmp(s, cases[i].want) != 0) {
			print_message("\"%s\" again: got \"%s\"\n",
			    cases[i].in, s);
			bad++;
		}
		free(s);
	}
	assert_int_equal(bad, 0);
}

/* spoken_clean says no link (issue 25), as text_link_len finds them. */
static void
test_clean_links(void **state)
{
	static const struct {
		const char	*in, *want;
	} cases[] = {
		{ "Reset it at evil-login.com/reset today",
		    "Reset it at today" },
		{ "Go to bit.ly/x.", "Go to." },
		{ "on host:8080, then", "on, then" },
		{ "load //host/x now", "load now" },
		{ "read file:///etc/passwd", "read" },
		{ "see https://example.com/x (or www.example.com)",
		    "see (or)" },
		{ "mail eve@example.com now", "mail now" },
		{ "Node.js, README.md, setup.py and std::vector stay at 10:30",
		    "Node.js, README.md, setup.py and std::vector stay at "
		    "10:30" },
		{ "e.g. v1.2.3 and a 16:9 ratio, C:\\path and a:b",
		    "e.g. v1.2.3 and a 16:9 ratio, C:\\path and a:b" },
	};
	size_t	 i, bad = 0;
	char	*s;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		s = strdup(cases[i].in);
		assert_non_null(s);
		spoken_clean(s);
		if (strcmp(s, cases[i].want) != 0) {
			print_message("\"%s\": got \"%s\", want \"%s\"\n",
			    cases[i].in, s, cases[i].want);
			bad++;
		}
		free(s);
	}
	assert_int_equal(bad, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_ordinal_words),
		cmocka_unit_test(test_ordinal_digits),
		cmocka_unit_test(test_dates),
		cmocka_unit_test(test_past_days),
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_durations),
		cmocka_unit_test(test_appends),
		cmocka_unit_test(test_said_words),
		cmocka_unit_test(test_symbols),
		cmocka_unit_test(test_braces),
		cmocka_unit_test(test_clean_voice),
		cmocka_unit_test(test_clean_links),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
