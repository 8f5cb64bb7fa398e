/* Unit tests for facts/phrase.c: "a"/"an" by sound, one row per case. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "buf.h"
#include "phrase.h"
#include "words.h"

static void
test_a(void **state)
{
	static const struct {
		const char *word, *want;
	} cases[] = {
		/* a vowel letter, a vowel sound */
		{ "Inductor", "an" }, { "optimize-deps", "an" },
		{ "example", "an" }, { "unused", "an" }, { "iOS", "an" },
		{ "uninstall", "an" }, { "update", "an" },
		/* a vowel letter, a consonant sound */
		{ "unit", "a" }, { "one-line", "a" }, { "once", "a" },
		{ "user", "a" }, { "usual", "a" }, { "utility", "a" },
		{ "European", "a" }, { "union", "a" },
		/* a silent h */
		{ "hour", "an" }, { "honest", "an" }, { "hotfix", "a" },
		/* acronyms by their letters' names */
		{ "SQL", "an" }, { "HTTP", "an" }, { "URL", "a" },
		{ "X86", "an" }, { "LLVM", "an" }, { "CI", "a" },
		{ "MSVC", "an" }, { "FFI", "an" }, { "API", "an" },
		{ "JSON", "a" }, { "RAM", "a" }, { "NASA", "a" },
		/* numbers by how they are said */
		{ "8-bit", "an" }, { "11", "an" }, { "18", "an" },
		{ "1", "a" }, { "100", "a" }, { "80", "an" },
		/* a quote or a parenthesis before the word */
		{ "\"optional\" flag", "an" }, { "(unit)", "a" },
		{ "plain", "a" }, { "", "a" },
	};
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		if (strcmp(phrase_a(cases[i].word), cases[i].want) != 0)
			fail_msg("phrase_a(\"%s\") = %s, want %s",
			    cases[i].word, phrase_a(cases[i].word),
			    cases[i].want);
	}
}

static void
test_articles(void **state)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{ "landed a Inductor change", "landed an Inductor change" },
		{ "An unit test and a SQL query", "A unit test and an SQL query" },
		{ "a URL, an hour, a user", "a URL, an hour, a user" },
		{ "a one-line fix for an HTTP client",
		    "a one-line fix for an HTTP client" },
		/* only whole words: "data", "tea" and a lone "a." stay */
		{ "data tea a. banana", "data tea a. banana" },
		{ "A optimize-deps change", "An optimize-deps change" },
		{ "", "" },
	};
	struct buf	 b;
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		buf_init(&b);
		buf_puts(&b, "Kept. ");
		buf_puts(&b, cases[i].in);
		phrase_articles(&b, 6);
		assert_string_equal(buf_str(&b) + 6, cases[i].want);
		assert_int_equal(strncmp(buf_str(&b), "Kept. ", 6), 0);
		buf_free(&b);
	}
}

static void
test_verb_past(void **state)
{
	static const struct {
		const char *verb, *want;
	} cases[] = {
		{ "add", "added" }, { "expose", "exposed" },
		{ "preserve", "preserved" }, { "reuse", "reused" },
		{ "opt", "opted" }, { "leave", "left" }, { "Move", "moved" },
		{ "apply", "applied" }, { "drop", "dropped" },
		{ "split", "split" }, { "ignore", "ignored" },
		{ "frobnicate", NULL }, { "the", NULL },
		/* "inited fd to -1": no English word, never said */
		{ "init", NULL }, { "initialize", "initialized" },
		{ "resize", "resized" }, { "unwrap", "unwrapped" },
	};
	size_t	 i;
	char	*past;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		past = phrase_verb_past(cases[i].verb, strlen(cases[i].verb));
		if (cases[i].want == NULL)
			assert_null(past);
		else
			assert_string_equal(past, cases[i].want);
		free(past);
	}
}

/*
 * phrase_past: the clauses' verbs in the past; a verb that is a noun as
 * often, after "and", only before an object.
 */
static void
test_past(void **state)
{
	static const struct {
		const char	*what, *want;
	} cases[] = {
		{ "Fix CI and build failures", "fixed CI and build failures" },
		{ "fix CI and update the docs", "fixed CI and updated the docs" },
		{ "use modern OpenSSL API, drop mentions of RSA",
		    "used modern OpenSSL API and dropped mentions of RSA" },
		{ "add retries and cache lookups", "added retries and cache "
		    "lookups" },
		{ "add retries and cache them", "added retries and cached them" },
		{ "configure and check trusted hosts", "configured and checked "
		    "trusted hosts" },
		{ "update serve-static 2.1.0 and send 1.1.0", "updated "
		    "serve-static 2.1.0 and send 1.1.0" },
		/* an article for a count noun, none for a mass noun */
		{ "add basic way to select tests", "added a basic way to select "
		    "tests" },
		{ "add keepdim support for observers", "added keepdim support "
		    "for observers" },
		{ "add multi-root parent matcher regression tests", "added "
		    "multi-root parent matcher regression tests" },
		{ "Move and resize popup window", "moved and resized popup "
		    "window" },
		{ "infer the kernel from its preference", "inferred the kernel "
		    "from its preference" },
		{ "frobnicate the thing", NULL },
		/* a pair of nouns sharing a preposition, not a second verb */
		{ "fix off-by-one read and write to a read-only buffer",
		    "fixed the off-by-one read and write to a read-only "
		    "buffer" },
		{ "fix the build and update the deps", "fixed the build and "
		    "updated the deps" },
		{ "fix the build and write a note", "fixed the build and "
		    "wrote a note" },
	};
	struct buf	b;
	size_t		i;
	int		ok;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		buf_init(&b);
		ok = phrase_past(&b, cases[i].what);
		if (cases[i].want == NULL)
			assert_int_equal(ok, 0);
		else if (!ok || strcmp(buf_str(&b), cases[i].want) != 0)
			fail_msg("\"%s\": got \"%s\", want \"%s\"",
			    cases[i].what, buf_str(&b), cases[i].want);
		buf_free(&b);
	}
}

/*
 * phrase_past_regular: only a past the word list knows ("alsoed", "howed",
 * "inited", "protocoled" are no words); doubled where English doubles.
 */
static void
test_past_regular(void **state)
{
	static const struct {
		const char	*verb, *want;
	} cases[] = {
		{ "also", NULL }, { "how", NULL }, { "init", NULL },
		{ "protocol", NULL }, { "frobnicate", NULL },
		{ "map", "mapped" }, { "visit", "visited" },
		{ "offer", "offered" }, { "refer", "referred" },
		{ "escape", "escaped" }, { "tidy", "tidied" },
		{ "obey", "obeyed" }, { "invert", "inverted" },
		{ "fix", "fixed" }, { "add", "added" }, { "bump", "bumped" },
		{ "update", "updated" }, { "remove", "removed" },
		{ "use", "used" }, { "refactor", "refactored" },
		{ "re-enable", "re-enabled" },
	};
	size_t	 i;
	char	*past;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		past = phrase_past_regular(cases[i].verb,
		    strlen(cases[i].verb));
		if (cases[i].want == NULL && past != NULL)
			fail_msg("%s: got \"%s\", want none", cases[i].verb,
			    past);
		else if (cases[i].want != NULL && (past == NULL ||
		    strcmp(past, cases[i].want) != 0))
			fail_msg("%s: got \"%s\", want \"%s\"", cases[i].verb,
			    past != NULL ? past : "(none)", cases[i].want);
		free(past);
	}
}

/*
 * phrase_behaviour: what the code does now, not its author's act; the
 * author's verbs stay theirs.
 */
static void
test_behaviour(void **state)
{
	static const struct {
		const char	*what;
		int		 want;
	} cases[] = {
		{ "return undefined for invalid media types", 1 },
		{ "reload once after rebuild", 1 },
		{ "warn when the cache is full", 1 },
		{ "retry uploads that fail with 503", 1 },
		{ "fix the retry", 0 }, { "add a return value", 0 },
		{ "print the version", 0 }, { "skip flaky tests", 0 },
		{ "update the docs", 0 }, { "remove the cache", 0 },
		{ "use modern OpenSSL API", 0 }, { "bump serde to 1.0", 0 },
		{ "return", 0 },
		/* an author resolves things too: only with a condition */
		{ "resolve tsconfig paths in CSS and Sass import", 0 },
		{ "log once per request", 1 },
	};
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
		if (phrase_behaviour(cases[i].what) != cases[i].want)
			fail_msg("\"%s\": want %d", cases[i].what,
			    cases[i].want);
}

/* words_known: the build's table of English words, and the trade's. */
static void
test_words(void **state)
{
	static const struct {
		const char	*w;
		int		 want;
	} cases[] = {
		{ "united", 1 }, { "Fixed", 1 }, { "off-by-one", 1 },
		{ "refactored", 1 }, { "inited", 0 }, { "alsoed", 0 },
		{ "howed", 0 }, { "protocoled", 0 }, { "", 0 },
		{ "re-", 0 }, { "fix3d", 0 }, { "zygotes", 1 }, { "a", 1 },
	};
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
		if (words_known(cases[i].w, strlen(cases[i].w)) !=
		    cases[i].want)
			fail_msg("\"%s\": want %d", cases[i].w, cases[i].want);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a),
		cmocka_unit_test(test_articles),
		cmocka_unit_test(test_verb_past),
		cmocka_unit_test(test_past),
		cmocka_unit_test(test_past_regular),
		cmocka_unit_test(test_behaviour),
		cmocka_unit_test(test_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
