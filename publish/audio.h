/*
 * The episode's audio: its transcript spoken sentence by sentence by the
 * built-in voice (voice.h) or tts_command, each sentence in its spoken
 * form (say.h), the WAVs joined with a pause between sentences and a
 * longer one (and section_sound) between sections, encoded to
 * NAME.mp3 beside NAME.md, a WebVTT of the sentences (NAME.vtt), and the
 * episode's .json (and .md) given the audio's real length. Run in the
 * drafting process after the text episode is out: plain process and file
 * work, no libevent; every program it starts is stopped by audio_timeout.
 */
#ifndef HOOKCAST_AUDIO_H
#define HOOKCAST_AUDIO_H

#include <stddef.h>

#include "emit.h"

/* audio: whether episodes are spoken to an .mp3 (auto: when tts_command's
 * program is found). */
enum audio_mode {
	AUDIO_MODE_OFF,
	AUDIO_MODE_ON,
	AUDIO_MODE_AUTO,
};

/* audio_encoder: the program that turns the WAV into MP3. */
enum audio_encoder {
	AUDIO_ENCODER_LAME,
	AUDIO_ENCODER_FFMPEG,
};

/*
 * What rendering reads, filled by the daemon from its configuration
 * (daemon/pubconf.c); strings borrowed.
 */
struct audio_conf {
	enum audio_mode		 mode;
	const char		*tts_command;	/* run by /bin/sh -c, or NULL */
	const char		*voice;		/* built-in, when no tts_command */
	const char		*bookend_voice;	/* the opening's and closing's */
	const char		*section_sound;	/* a WAV file, or NULL */
	int			 workers;	/* episodes at once; 0: per CPU */
	enum audio_encoder	 encoder;
	int			 timeout;	/* seconds for one episode */
	/* output_dir, min_free_space, words_per_minute, and the feed
	   rewritten once the audio is in */
	struct emit_conf	 emit;
};

enum audio_outcome {
	AUDIO_OK,
	AUDIO_FAILED,
	AUDIO_TIMEOUT,
	AUDIO_OUTCOME_MAX
};

struct audio_result {
	enum audio_outcome	 outcome;
	double			 seconds;	/* the audio's length */
	long long		 bytes;		/* of the .mp3 */
	double			 took;		/* seconds spent rendering */
	char			*cause;		/* why not, or NULL (owned) */
};

/* One sentence's place in the audio, in seconds from its start. */
struct audio_cue {
	double		 start;
	double		 end;
	const char	*text;		/* borrowed */
};

/* The largest number of sentences spoken apart (the rest is one). */
#define AUDIO_SENTENCES_MAX	2000

/*
 * Whether episodes get audio under conf: on, or auto with the encoder
 * (and tts_command's program, when set) found in PATH. With 0, *why
 * (static) says why.
 */
int		 audio_enabled(const struct audio_conf *, const char **why);
/*
 * Render the audio of the episode OUTPUT_DIR/repo/name.{md,json} (name is
 * "2026-06-01" or "2026-06-01-2"), then rewrite feed.xml. On failure or
 * timeout nothing is left of the audio and the episode is as it was.
 * Fills res (clear it with audio_result_clear) and returns its outcome.
 */
enum audio_outcome audio_render(const struct audio_conf *, const char *repo,
		    const char *name, struct audio_result *res);
void		 audio_result_clear(struct audio_result *);
/*
 * Remove the temporary files a drafting process killed mid-write left in
 * the repositories' folders of output_dir (WAV, MP3, VTT, episode files,
 * feed). Only while no drafting process runs: at start, and once the
 * daemon stopped its own.
 */
void		 audio_sweep_all(const char *output_dir);
/* "ok", "failed" or "timeout". */
const char	*audio_outcome_name(enum audio_outcome);
/* The outcome named so, or -1. */
int		 audio_outcome_parse(const char *);

/*
 * Split spoken text into sentences: after '.', '!' or '?' (and any
 * closing quotes or brackets) followed by white space, and at blank
 * lines; not after a few abbreviations ("e.g.", "Mr.") or a lone
 * initial, nor at a macro's '!' before a word in lower case ("join!
 * and try_join!").
 * White space is collapsed to one space; pieces with no letter
 * or digit are dropped. Returns how many, *out a new array of new strings
 * (free with strv_free of strlist.h).
 */
size_t		 audio_sentences(const char *text, char ***out);
/* A WebVTT timestamp HH:MM:SS.mmm of seconds into out (16 bytes). */
void		 audio_vtt_time(double seconds, char out[16]);
/*
 * The WebVTT file of cues (new string): "WEBVTT", then one cue per
 * sentence with its text escaped (&, <, > as entities; no line breaks).
 */
char		*audio_vtt(const struct audio_cue *, size_t n);

#endif
