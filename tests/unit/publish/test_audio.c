/* Unit tests: publish/audio.c (sentences, WebVTT, when audio is on) */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "audio.h"
#include "strlist.h"

/* A text and its sentences, "|"-separated ("" for none). */
static const struct {
	const char	*name;
	const char	*text;
	const char	*want;
} sentence_cases[] = {
	{ "two", "Hello there. This is a test.",
	    "Hello there.|This is a test." },
	{ "marks", "What landed? A lot! Really.",
	    "What landed?|A lot!|Really." },
	{ "no final mark", "One. And two", "One.|And two" },
	{ "white space collapsed", "  One\tthing\n here.   Two.  ",
	    "One thing here.|Two." },
	{ "paragraphs", "A heading\n\nThe text goes on\nhere.",
	    "A heading|The text goes on here." },
	{ "blank line with spaces", "First\n  \t\nSecond",
	    "First|Second" },
	{ "versions and decimals", "Version 1.2.3 is out. It is 1.7x faster.",
	    "Version 1.2.3 is out.|It is 1.7x faster." },
	{ "abbreviations", "Fixes e.g. the parser, i.e. the lexer. Done.",
	    "Fixes e.g. the parser, i.e. the lexer.|Done." },
	{ "an initial", "Thanks to J. Smith for it. Bye.",
	    "Thanks to J. Smith for it.|Bye." },
	{ "closing quotes", "He said \"stop.\" Then it did.",
	    "He said \"stop.\"|Then it did." },
	{ "curly quotes", "It read \xe2\x80\x9c" "done.\xe2\x80\x9d Next one.",
	    "It read \xe2\x80\x9c" "done.\xe2\x80\x9d|Next one." },
	{ "brackets", "A fix (at last.) Then more.",
	    "A fix (at last.)|Then more." },
	{ "ellipsis", "Wait... There is more.", "Wait...|There is more." },
	{ "a path keeps its dot", "See docs/README.md for it. Yes.",
	    "See docs/README.md for it.|Yes." },
	{ "no letters dropped", "One. ... -- . Two.", "One.|Two." },
	{ "a macro's mark", "Fixed join! and try_join! today. Next.",
	    "Fixed join! and try_join! today.|Next." },
	{ "a login starts a sentence", "The rollback. htasta's change. Yes.",
	    "The rollback.|htasta's change.|Yes." },
	{ "empty", "", "" },
	{ "only space", " \n\n \t ", "" },
	{ "UTF-8 kept", "Caf\xc3\xa9 au lait. \xc3\x89t\xc3\xa9.",
	    "Caf\xc3\xa9 au lait.|\xc3\x89t\xc3\xa9." },
};

static void
test_sentences(void **state)
{
	char	**v, *joined;
	size_t	  i, j, n, len;

	for (i = 0; i < sizeof(sentence_cases) / sizeof(sentence_cases[0]);
	    i++) {
		n = audio_sentences(sentence_cases[i].text, &v);
		len = 1;
		for (j = 0; j < n; j++)
			len += strlen(v[j]) + 1;
		joined = calloc(1, len);
		for (j = 0; j < n; j++) {
			if (j > 0)
				strcat(joined, "|");
			strcat(joined, v[j]);
		}
		if (strcmp(joined, sentence_cases[i].want) != 0)
			fail_msg("%s: got \"%s\", want \"%s\"",
			    sentence_cases[i].name, joined,
			    sentence_cases[i].want);
		free(joined);
		strv_free(v, n);
	}
}

/* A text of more sentences than are spoken apart: the rest is one. */
static void
test_sentences_cap(void **state)
{
	char	*text, **v;
	size_t	 i, n;

	text = calloc(AUDIO_SENTENCES_MAX + 10, 5);
	for (i = 0; i < AUDIO_SENTENCES_MAX + 10; i++)
		strcat(text, "Hi. ");
	n = audio_sentences(text, &v);
	assert_int_equal(n, AUDIO_SENTENCES_MAX);
	assert_string_equal(v[0], "Hi.");
	assert_int_equal(strlen(v[n - 1]), strlen("Hi.") * 11 + 10);
	strv_free(v, n);
	free(text);
}

static void
test_vtt_time(void **state)
{
	static const struct {
		double		 s;
		const char	*want;
	} cases[] = {
		{ 0, "00:00:00.000" },
		{ 1.5, "00:00:01.500" },
		{ 59.9994, "00:00:59.999" },
		{ 59.9996, "00:01:00.000" },
		{ 3723.25, "01:02:03.250" },
		{ -4, "00:00:00.000" },
		{ 1e9, "99:59:59.999" },
	};
	char	out[16];
	size_t	i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		audio_vtt_time(cases[i].s, out);
		assert_string_equal(out, cases[i].want);
	}
}

static void
test_vtt(void **state)
{
	static const struct {
		const char	*name;
		struct audio_cue cues[3];
		size_t		 n;
		const char	*want;
	} cases[] = {
		{ "none", { { 0, 0, NULL } }, 0, "WEBVTT\n" },
		{ "two", { { 0, 1.25, "Hello." }, { 1.6, 3, "Bye." } }, 2,
		    "WEBVTT\n\n1\n00:00:00.000 --> 00:00:01.250\nHello.\n\n"
		    "2\n00:00:01.600 --> 00:00:03.000\nBye.\n" },
		{ "escaped", { { 0, 1, "a < b && c > d --> e" } }, 1,
		    "WEBVTT\n\n1\n00:00:00.000 --> 00:00:01.000\n"
		    "a &lt; b &amp;&amp; c &gt; d --&gt; e\n" },
		{ "no line breaks", { { 0, 1, "one\n\ntwo\r\tthree" } }, 1,
		    "WEBVTT\n\n1\n00:00:00.000 --> 00:00:01.000\n"
		    "one  two  three\n" },
	};
	char	*s;
	size_t	 i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		s = audio_vtt(cases[i].cues, cases[i].n);
		if (strcmp(s, cases[i].want) != 0)
			fail_msg("%s: got \"%s\"", cases[i].name, s);
		free(s);
	}
}

static void
test_outcomes(void **state)
{
	int	o;

	for (o = 0; o < AUDIO_OUTCOME_MAX; o++)
		assert_int_equal(audio_outcome_parse(audio_outcome_name(o)), o);
	assert_int_equal(audio_outcome_parse("okay"), -1);
	assert_int_equal(audio_outcome_parse(NULL), -1);
}

static void
test_enabled(void **state)
{
	struct audio_conf	 conf;
	const char		*why = NULL;

	memset(&conf, 0, sizeof(conf));
	conf.encoder = AUDIO_ENCODER_LAME;
	conf.tts_command = "FOO=1 hookcast-no-such-tts --stdout";
	conf.mode = AUDIO_MODE_OFF;
	assert_int_equal(audio_enabled(&conf, &why), 0);
	assert_string_equal(why, "audio = off");
	/* on: the failure is the audio's, counted, not a silent skip */
	conf.mode = AUDIO_MODE_ON;
	assert_int_equal(audio_enabled(&conf, &why), 1);
	conf.mode = AUDIO_MODE_AUTO;
	why = NULL;
	assert_int_equal(audio_enabled(&conf, &why), 0);
	assert_non_null(strstr(why, "tts_command's program"));
	conf.tts_command = "'/hookcast/no such/tts' -x";
	why = NULL;
	assert_int_equal(audio_enabled(&conf, &why), 0);
	assert_non_null(strstr(why, "tts_command's program"));
	/* a program found, as a path or in PATH; the encoder is asked next */
	conf.tts_command = "LANG=C /bin/sh -c 'exit 0'";
	why = NULL;
	if (audio_enabled(&conf, &why) == 0)
		assert_non_null(strstr(why, "audio_encoder"));
	conf.tts_command = "sh -c true";
	why = NULL;
	if (audio_enabled(&conf, &why) == 0)
		assert_non_null(strstr(why, "audio_encoder"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sentences),
		cmocka_unit_test(test_sentences_cap),
		cmocka_unit_test(test_vtt_time),
		cmocka_unit_test(test_vtt),
		cmocka_unit_test(test_outcomes),
		cmocka_unit_test(test_enabled),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
