/*
 * WAV files as text-to-speech commands write them: the format of the
 * sound and where its samples are. A parser of outside input (what a
 * tts_command printed): every length is checked against the bytes there.
 * No libevent, no jansson.
 */
#ifndef HOOKCAST_WAV_H
#define HOOKCAST_WAV_H

#include <stddef.h>
#include <stdint.h>

/* Samples the pipeline takes: integer PCM. */
struct wav_format {
	uint16_t	channels;	/* 1..8 */
	uint32_t	rate;		/* samples per second, 1000..384000 */
	uint16_t	bits;		/* 8, 16, 24 or 32 */
};

struct wav {
	struct wav_format	 fmt;
	const unsigned char	*data;	/* the samples, borrowed from the input */
	size_t			 len;	/* bytes, a whole number of frames */
};

/* Size of the header wav_header writes. */
#define WAV_HEADER_LEN	44

/*
 * Read a RIFF/WAVE file of len bytes at p: its "fmt " chunk (PCM, or
 * WAVE_FORMAT_EXTENSIBLE with the PCM sub-format) and its "data" chunk.
 * A data length of 0 or of 0x7ffff000 and more, as a program writing to a
 * pipe puts it, means "to the end". 0, or -1 with *cause (new) saying
 * what is wrong; w is set only on success and borrows from p.
 */
int	 wav_parse(const void *p, size_t len, struct wav *w, char **cause);
/* Bytes per frame (all channels of one sample). */
size_t	 wav_frame_bytes(const struct wav_format *);
/* Seconds that bytes of samples of the format last. */
double	 wav_seconds(const struct wav_format *, uint64_t bytes);
/* Whether two formats are the same. */
int	 wav_same(const struct wav_format *, const struct wav_format *);
/* The format as said in a message ("22050 Hz, 1 channel(s), 16-bit"). */
void	 wav_describe(const struct wav_format *, char *, size_t);
/*
 * The 44-byte header of a PCM file of the format holding data_len bytes
 * of samples, into out. 0, or -1 when data_len does not fit a WAV file.
 */
int	 wav_header(const struct wav_format *, uint64_t data_len,
	    unsigned char out[WAV_HEADER_LEN]);

#endif
