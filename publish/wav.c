/* WAV files: the format and samples of what a TTS command wrote. */
#include <stdio.h>
#include <string.h>

#include "wav.h"
#include "xmalloc.h"

#define WAV_FORMAT_PCM		0x0001
#define WAV_FORMAT_EXTENSIBLE	0xfffe
/* A data length at or past this was written by a program that could not seek. */
#define WAV_STREAM_LEN		0x7ffff000U

static uint16_t
wav_u16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t
wav_u32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

static void
wav_put16(unsigned char *p, uint16_t v)
{
	p[0] = v & 0xff;
	p[1] = v >> 8;
}

static void
wav_put32(unsigned char *p, uint32_t v)
{
	p[0] = v & 0xff;
	p[1] = (v >> 8) & 0xff;
	p[2] = (v >> 16) & 0xff;
	p[3] = v >> 24;
}

/* Read a "fmt " chunk of n bytes at p into f; 0 or -1 with *cause. */
static int
wav_fmt(const unsigned char *p, uint32_t n, struct wav_format *f,
    char **cause)
{
	/* the KSDATAFORMAT_SUBTYPE_PCM GUID's tail after its first two bytes */
	static const unsigned char pcm_guid[14] = {
		0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xaa,
		0x00, 0x38, 0x9b, 0x71
	};
	uint16_t	tag, align;
	uint32_t	rate, byterate;

	if (n < 16) {
		xasprintf(cause, "a fmt chunk of %u bytes (16 at least)", n);
		return -1;
	}
	tag = wav_u16(p);
	if (tag == WAV_FORMAT_EXTENSIBLE) {
		if (n < 40 || wav_u16(p + 16) < 22) {
			xasprintf(cause, "an extensible fmt chunk too short");
			return -1;
		}
		tag = wav_u16(p + 24);
		if (memcmp(p + 26, pcm_guid, sizeof(pcm_guid)) != 0)
			tag = 0;
	}
	if (tag != WAV_FORMAT_PCM) {
		xasprintf(cause, "format %u is not integer PCM", tag);
		return -1;
	}
	f->channels = wav_u16(p + 2);
	rate = wav_u32(p + 4);
	byterate = wav_u32(p + 8);
	align = wav_u16(p + 12);
	f->bits = wav_u16(p + 14);
	if (f->channels < 1 || f->channels > 8) {
		xasprintf(cause, "%u channels (1 to 8 taken)", f->channels);
		return -1;
	}
	if (rate < 1000 || rate > 384000) {
		xasprintf(cause, "a rate of %u Hz (1000 to 384000 taken)",
		    rate);
		return -1;
	}
	f->rate = rate;
	if (f->bits != 8 && f->bits != 16 && f->bits != 24 && f->bits != 32) {
		xasprintf(cause, "%u-bit samples (8, 16, 24 or 32 taken)",
		    f->bits);
		return -1;
	}
	if (align != wav_frame_bytes(f) ||
	    byterate != (uint32_t)(rate * wav_frame_bytes(f))) {
		xasprintf(cause, "a block align of %u or byte rate of %u that "
		    "does not match %u channel(s) of %u bits at %u Hz", align,
		    byterate, f->channels, f->bits, rate);
		return -1;
	}
	return 0;
}

int
wav_parse(const void *v, size_t len, struct wav *w, char **cause)
{
	const unsigned char	*p = v, *end = p + len;
	struct wav_format	 f;
	uint32_t		 n;
	size_t			 left, take;
	int			 have_fmt = 0;

	if (len < 12 || memcmp(p, "RIFF", 4) != 0 ||
	    memcmp(p + 8, "WAVE", 4) != 0) {
		xasprintf(cause, "not a RIFF/WAVE file (%zu bytes)", len);
		return -1;
	}
	p += 12;
	/* the RIFF length is not read: streamed files get it wrong */
	while ((size_t)(end - p) >= 8) {
		n = wav_u32(p + 4);
		left = (size_t)(end - p) - 8;
		if (memcmp(p, "data", 4) == 0) {
			if (!have_fmt) {
				xasprintf(cause, "a data chunk before the "
				    "fmt chunk");
				return -1;
			}
			if (n == 0 || n >= WAV_STREAM_LEN)
				take = left;
			else if (n > left) {
				xasprintf(cause, "a data chunk of %u bytes "
				    "with %zu there", n, left);
				return -1;
			} else
				take = n;
			take -= take % wav_frame_bytes(&f);
			w->fmt = f;
			w->data = p + 8;
			w->len = take;
			return 0;
		}
		if (n > left) {
			xasprintf(cause, "a chunk of %u bytes with %zu there",
			    n, left);
			return -1;
		}
		if (memcmp(p, "fmt ", 4) == 0) {
			if (have_fmt) {
				xasprintf(cause, "two fmt chunks");
				return -1;
			}
			if (wav_fmt(p + 8, n, &f, cause) == -1)
				return -1;
			have_fmt = 1;
		}
		/* chunks are padded to an even length */
		take = (size_t)n + (n & 1);
		if (take > left)
			take = left;
		p += 8 + take;
	}
	xasprintf(cause, "%s", have_fmt ? "no data chunk" : "no fmt chunk");
	return -1;
}

size_t
wav_frame_bytes(const struct wav_format *f)
{
	return (size_t)f->channels * (f->bits / 8);
}

double
wav_seconds(const struct wav_format *f, uint64_t bytes)
{
	return (double)(bytes / wav_frame_bytes(f)) / (double)f->rate;
}

int
wav_same(const struct wav_format *a, const struct wav_format *b)
{
	return a->channels == b->channels && a->rate == b->rate &&
	    a->bits == b->bits;
}

void
wav_describe(const struct wav_format *f, char *out, size_t outsz)
{
	snprintf(out, outsz, "%u Hz, %u channel(s), %u-bit", f->rate,
	    f->channels, f->bits);
}

int
wav_header(const struct wav_format *f, uint64_t data_len,
    unsigned char out[WAV_HEADER_LEN])
{
	if (data_len > 0xffffffffULL - (WAV_HEADER_LEN - 8))
		return -1;
	memcpy(out, "RIFF", 4);
	wav_put32(out + 4, (uint32_t)(data_len + WAV_HEADER_LEN - 8));
	memcpy(out + 8, "WAVEfmt ", 8);
	wav_put32(out + 16, 16);
	wav_put16(out + 20, WAV_FORMAT_PCM);
	wav_put16(out + 22, f->channels);
	wav_put32(out + 24, f->rate);
	wav_put32(out + 28, (uint32_t)(f->rate * wav_frame_bytes(f)));
	wav_put16(out + 32, (uint16_t)wav_frame_bytes(f));
	wav_put16(out + 34, f->bits);
	memcpy(out + 36, "data", 4);
	wav_put32(out + 40, (uint32_t)data_len);
	return 0;
}
