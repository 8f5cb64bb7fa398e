/* Unit tests: publish/voice.c, the built-in voices speaking for real. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "buf.h"
#include "voice.h"
#include "wav.h"

static const char	*said = "Tokio now needs Rust one point seventy.";

/* Every voice named speaks a sentence: 16-bit samples, some seconds. */
static void
test_every_voice_speaks(void **state)
{
	struct wav_format	 fmt;
	struct buf		 out;
	char			*why = NULL;
	double			 seconds;
	size_t			 i;

	(void)state;
	buf_init(&out);
	assert_true(voice_known(VOICE_DEFAULT));
	for (i = 0; voice_names[i] != NULL; i++) {
		assert_true(voice_known(voice_names[i]));
		memset(&fmt, 0, sizeof(fmt));
		assert_int_equal(voice_speak(voice_names[i], said, 150, &out,
		    &fmt, &why), 0);
		assert_null(why);
		assert_int_equal(fmt.bits, 16);
		assert_int_equal(fmt.channels, 1);
		assert_int_equal(fmt.rate, voice_rate(voice_names[i]));
		assert_int_equal(out.len % wav_frame_bytes(&fmt), 0);
		seconds = wav_seconds(&fmt, out.len);
		/* seven words: more than a second, less than ten */
		assert_true(seconds > 1.0 && seconds < 10.0);
	}
	buf_free(&out);
}

/* A name that is no voice is refused, saying which. */
static void
test_unknown_voice(void **state)
{
	struct wav_format	 fmt;
	struct buf		 out;
	char			*why = NULL;

	(void)state;
	buf_init(&out);
	assert_false(voice_known("espeak"));
	assert_false(voice_known(""));
	assert_false(voice_known(NULL));
	assert_int_equal(voice_speak("espeak", said, 150, &out, &fmt, &why),
	    -1);
	assert_non_null(strstr(why, "\"espeak\""));
	assert_int_equal(out.len, 0);
	free(why);
	buf_free(&out);
}

/*
 * A sentence sounds the same whatever the process said before it: the
 * voices draw on rand(), and an emission's episodes spoken by several
 * workers must give the files one worker gives.
 */
static void
test_same_sentence_same_sound(void **state)
{
	struct wav_format	 fmt;
	struct buf		 a, b, other;
	char			*why = NULL;

	(void)state;
	buf_init(&a);
	buf_init(&b);
	buf_init(&other);
	assert_int_equal(voice_speak("rms", said, 150, &a, &fmt, &why), 0);
	assert_int_equal(voice_speak("rms", "Something else entirely, and "
	    "longer, so that the voice draws more.", 150, &other, &fmt, &why),
	    0);
	(void)rand();
	assert_int_equal(voice_speak("rms", said, 150, &b, &fmt, &why), 0);
	assert_int_equal(a.len, b.len);
	assert_memory_equal(a.data, b.data, a.len);
	buf_free(&a);
	buf_free(&b);
	buf_free(&other);
}

/* The pace: a faster words_per_minute says the same in less time. */
static void
test_pace(void **state)
{
	struct wav_format	 fmt;
	struct buf		 slow, fast;
	char			*why = NULL;

	(void)state;
	buf_init(&slow);
	buf_init(&fast);
	assert_int_equal(voice_speak("rms", said, 120, &slow, &fmt, &why), 0);
	assert_int_equal(voice_speak("rms", said, 240, &fast, &fmt, &why), 0);
	/* twice the pace: well under three quarters of the length */
	assert_true(fast.len * 4 < slow.len * 3);
	buf_free(&slow);
	buf_free(&fast);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_voice_speaks),
		cmocka_unit_test(test_unknown_voice),
		cmocka_unit_test(test_same_sentence_same_sound),
		cmocka_unit_test(test_pace),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
