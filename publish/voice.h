/*
 * The built-in voices: flite's US English voices, linked in and speaking
 * in the process that renders an episode's audio (no program started per
 * sentence). tts_command, when set, speaks instead (audio.c).
 * No libevent, no jansson.
 */
#ifndef HOOKCAST_VOICE_H
#define HOOKCAST_VOICE_H

#include "buf.h"
#include "wav.h"

/* The voice when none is configured: the most intelligible one measured
 * (scripts/bench-voice). */
#define VOICE_DEFAULT	"rms"

/* The built-in voices' names, NULL-terminated (the config's choices). */
extern const char *const voice_names[];

/* Whether name is a built-in voice. */
int	 voice_known(const char *name);
/* The rate the voice name speaks at (samples a second), or 0. */
unsigned voice_rate(const char *name);
/*
 * Speak text with the voice name at words_per_minute (150 is the voice's
 * own pace; faster or slower stretches it): its samples (16-bit PCM)
 * into out, replacing what it held, and their format into fmt. 0, or -1
 * with *why (new) for an unknown voice or a text that gave no sound.
 */
int	 voice_speak(const char *name, const char *text, double wpm,
	    struct buf *out, struct wav_format *fmt, char **why);

#endif
