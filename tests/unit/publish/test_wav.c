/* Unit tests: publish/wav.c */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "wav.h"

/* How a case's file is laid out, beyond its fmt fields. */
enum wav_shape {
	SHAPE_PLAIN,
	SHAPE_LIST_FIRST,	/* an odd-length LIST chunk before fmt */
	SHAPE_DATA_FIRST,	/* data before fmt */
	SHAPE_NO_DATA,
	SHAPE_NO_FMT,		/* a LIST chunk only */
	SHAPE_TWO_FMT,
	SHAPE_EXTENSIBLE,	/* WAVE_FORMAT_EXTENSIBLE, PCM sub-format */
	SHAPE_EXT_FLOAT,	/* WAVE_FORMAT_EXTENSIBLE, float sub-format */
	SHAPE_SHORT_FMT,	/* a 14-byte fmt chunk */
	SHAPE_CHUNK_PAST,	/* a chunk claiming more than is there */
	SHAPE_NOT_RIFF,
};

static const struct {
	const char	*name;
	enum wav_shape	 shape;
	unsigned	 tag, channels, rate, bits;
	unsigned	 align;		/* 0: the right one */
	uint32_t	 declared;	/* the data chunk's length; 1: the real */
	size_t		 actual;	/* data bytes there */
	size_t		 wantlen;	/* samples taken, on success */
	const char	*cause;		/* NULL: success; else a part of it */
} wav_cases[] = {
	{ "16-bit mono", SHAPE_PLAIN, 1, 1, 22050, 16, 0, 1, 8, 8, NULL },
	{ "8-bit stereo", SHAPE_PLAIN, 1, 2, 8000, 8, 0, 1, 6, 6, NULL },
	{ "24-bit", SHAPE_PLAIN, 1, 1, 48000, 24, 0, 1, 9, 9, NULL },
	{ "32-bit", SHAPE_PLAIN, 1, 2, 44100, 32, 0, 1, 16, 16, NULL },
	{ "a pipe's length", SHAPE_PLAIN, 1, 1, 22050, 16, 0, 0x7ffff000, 10,
	    10, NULL },
	{ "the largest length", SHAPE_PLAIN, 1, 1, 22050, 16, 0, 0xffffffff,
	    4, 4, NULL },
	{ "no length", SHAPE_PLAIN, 1, 1, 22050, 16, 0, 0, 6, 6, NULL },
	{ "half a frame at the end", SHAPE_PLAIN, 1, 1, 22050, 16, 0, 1, 7,
	    6, NULL },
	{ "shorter than it says", SHAPE_PLAIN, 1, 1, 22050, 16, 0, 100, 8, 0,
	    "a data chunk of 100 bytes with 8 there" },
	{ "bytes past the data", SHAPE_PLAIN, 1, 1, 22050, 16, 0, 4, 10, 4,
	    NULL },
	{ "a LIST chunk first", SHAPE_LIST_FIRST, 1, 1, 16000, 16, 0, 1, 4, 4,
	    NULL },
	{ "extensible PCM", SHAPE_EXTENSIBLE, 0xfffe, 1, 16000, 24, 0, 1, 6,
	    6, NULL },
	{ "extensible float", SHAPE_EXT_FLOAT, 0xfffe, 1, 16000, 32, 0, 1, 8,
	    0, "is not integer PCM" },
	{ "float", SHAPE_PLAIN, 3, 1, 16000, 32, 0, 1, 8, 0,
	    "format 3 is not integer PCM" },
	{ "no channels", SHAPE_PLAIN, 1, 0, 16000, 16, 2, 1, 8, 0,
	    "0 channels" },
	{ "nine channels", SHAPE_PLAIN, 1, 9, 16000, 16, 0, 1, 18, 0,
	    "9 channels" },
	{ "a low rate", SHAPE_PLAIN, 1, 1, 500, 16, 0, 1, 8, 0,
	    "a rate of 500 Hz" },
	{ "12-bit", SHAPE_PLAIN, 1, 1, 16000, 12, 2, 1, 8, 0,
	    "12-bit samples" },
	{ "a wrong block align", SHAPE_PLAIN, 1, 1, 16000, 16, 4, 1, 8, 0,
	    "block align of 4" },
	{ "data before fmt", SHAPE_DATA_FIRST, 1, 1, 16000, 16, 0, 1, 8, 0,
	    "before the fmt chunk" },
	{ "no data", SHAPE_NO_DATA, 1, 1, 16000, 16, 0, 1, 0, 0,
	    "no data chunk" },
	{ "no fmt", SHAPE_NO_FMT, 1, 1, 16000, 16, 0, 1, 0, 0,
	    "no fmt chunk" },
	{ "two fmt", SHAPE_TWO_FMT, 1, 1, 16000, 16, 0, 1, 8, 0,
	    "two fmt chunks" },
	{ "a short fmt", SHAPE_SHORT_FMT, 1, 1, 16000, 16, 0, 1, 8, 0,
	    "a fmt chunk of 14 bytes" },
	{ "a chunk past the end", SHAPE_CHUNK_PAST, 1, 1, 16000, 16, 0, 1, 8,
	    0, "a chunk of 1000 bytes with" },
	{ "not RIFF", SHAPE_NOT_RIFF, 1, 1, 16000, 16, 0, 1, 8, 0,
	    "not a RIFF/WAVE file" },
};

static void
put16(unsigned char *p, unsigned v)
{
	p[0] = v & 0xff;
	p[1] = (v >> 8) & 0xff;
}

static void
put32(unsigned char *p, uint32_t v)
{
	put16(p, v & 0xffff);
	put16(p + 2, v >> 16);
}

/* Append a chunk of id and n bytes of body (length said: len). */
static size_t
chunk(unsigned char *out, size_t off, const char *id, uint32_t len,
    const unsigned char *body, size_t n)
{
	memcpy(out + off, id, 4);
	put32(out + off + 4, len);
	if (n > 0)
		memcpy(out + off + 8, body, n);
	return off + 8 + n;
}

/* The case's fmt chunk body; its length. */
static size_t
fmt_body(size_t i, unsigned char *f)
{
	static const unsigned char guid_tail[14] = {
		0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xaa,
		0x00, 0x38, 0x9b, 0x71
	};
	unsigned	frame = wav_cases[i].channels * (wav_cases[i].bits / 8);
	unsigned	align = wav_cases[i].align ? wav_cases[i].align : frame;

	memset(f, 0, 40);
	put16(f, wav_cases[i].tag);
	put16(f + 2, wav_cases[i].channels);
	put32(f + 4, wav_cases[i].rate);
	put32(f + 8, wav_cases[i].rate * align);
	put16(f + 12, align);
	put16(f + 14, wav_cases[i].bits);
	if (wav_cases[i].shape != SHAPE_EXTENSIBLE &&
	    wav_cases[i].shape != SHAPE_EXT_FLOAT)
		return 16;
	put16(f + 16, 22);
	put16(f + 18, wav_cases[i].bits);
	put16(f + 24, wav_cases[i].shape == SHAPE_EXT_FLOAT ? 3 : 1);
	memcpy(f + 26, guid_tail, sizeof(guid_tail));
	return 40;
}

/* The case's file into out; its length. */
static size_t
build(size_t i, unsigned char *out)
{
	unsigned char	 f[40], data[64];
	size_t		 off = 12, flen = fmt_body(i, f), k;
	uint32_t	 dlen = wav_cases[i].declared == 1 ?
	    (uint32_t)wav_cases[i].actual : wav_cases[i].declared;
	enum wav_shape	 shape = wav_cases[i].shape;

	for (k = 0; k < sizeof(data); k++)
		data[k] = (unsigned char)(k * 7 + 1);
	memcpy(out, shape == SHAPE_NOT_RIFF ? "RIFX" : "RIFF", 4);
	put32(out + 4, 0);
	memcpy(out + 8, "WAVE", 4);
	if (shape == SHAPE_LIST_FIRST || shape == SHAPE_NO_FMT) {
		/* 3 bytes and a pad byte */
		off = chunk(out, off, "LIST", 3, (const unsigned char *)"abc\0",
		    4);
	}
	if (shape == SHAPE_DATA_FIRST)
		off = chunk(out, off, "data", dlen, data, wav_cases[i].actual);
	if (shape == SHAPE_SHORT_FMT)
		off = chunk(out, off, "fmt ", 14, f, 14);
	else if (shape != SHAPE_NO_FMT)
		off = chunk(out, off, "fmt ", (uint32_t)flen, f, flen);
	if (shape == SHAPE_TWO_FMT)
		off = chunk(out, off, "fmt ", (uint32_t)flen, f, flen);
	if (shape == SHAPE_CHUNK_PAST)
		off = chunk(out, off, "junk", 1000, data, 8);
	if (shape != SHAPE_DATA_FIRST && shape != SHAPE_NO_DATA &&
	    shape != SHAPE_CHUNK_PAST && shape != SHAPE_NO_FMT)
		off = chunk(out, off, "data", dlen, data, wav_cases[i].actual);
	return off;
}

static void
test_wav_table(void **state)
{
	unsigned char	 file[512];
	struct wav	 w;
	char		*cause;
	size_t		 i, len;
	int		 rv;

	for (i = 0; i < sizeof(wav_cases) / sizeof(wav_cases[0]); i++) {
		len = build(i, file);
		cause = NULL;
		memset(&w, 0xa5, sizeof(w));
		rv = wav_parse(file, len, &w, &cause);
		if (wav_cases[i].cause == NULL) {
			if (rv != 0)
				fail_msg("%s: %s", wav_cases[i].name, cause);
			assert_null(cause);
			assert_int_equal(w.len, wav_cases[i].wantlen);
			assert_int_equal(w.fmt.channels, wav_cases[i].channels);
			assert_int_equal(w.fmt.rate, wav_cases[i].rate);
			assert_int_equal(w.fmt.bits, wav_cases[i].bits);
			assert_true(w.data > file && w.data + w.len <=
			    file + len);
			/* the samples are the ones written */
			if (w.len > 0)
				assert_int_equal(w.data[0], 1);
		} else {
			if (rv != -1)
				fail_msg("%s: parsed", wav_cases[i].name);
			assert_non_null(cause);
			if (strstr(cause, wav_cases[i].cause) == NULL)
				fail_msg("%s: cause \"%s\" lacks \"%s\"",
				    wav_cases[i].name, cause,
				    wav_cases[i].cause);
			free(cause);
		}
	}
}

static void
test_wav_short(void **state)
{
	struct wav	 w;
	char		*cause = NULL;

	assert_int_equal(wav_parse("RIFF", 4, &w, &cause), -1);
	assert_non_null(strstr(cause, "not a RIFF/WAVE"));
	free(cause);
	cause = NULL;
	assert_int_equal(wav_parse("", 0, &w, &cause), -1);
	free(cause);
}

static void
test_wav_header(void **state)
{
	static const struct wav_format fmts[] = {
		{ 1, 22050, 16 }, { 2, 44100, 24 }, { 1, 8000, 8 },
		{ 8, 384000, 32 },
	};
	unsigned char	 file[WAV_HEADER_LEN + 48];
	struct wav	 w;
	char		*cause = NULL, desc[64];
	size_t		 i;

	for (i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		memset(file, 0, sizeof(file));
		assert_int_equal(wav_header(&fmts[i], 48, file), 0);
		assert_int_equal(wav_parse(file, sizeof(file), &w, &cause), 0);
		assert_true(wav_same(&w.fmt, &fmts[i]));
		assert_int_equal(w.len, 48 - 48 % wav_frame_bytes(&fmts[i]));
		assert_ptr_equal(w.data, file + WAV_HEADER_LEN);
	}
	/* a length the 32-bit fields cannot hold */
	assert_int_equal(wav_header(&fmts[0], 0xffffffffULL, file), -1);
	assert_int_equal(wav_header(&fmts[0], 0xffffffffULL - 36, file), 0);
	/* lengths and formats */
	assert_true(wav_seconds(&fmts[0], 44100) == 1.0);
	assert_true(wav_seconds(&fmts[1], 44100 * 6) == 1.0);
	assert_false(wav_same(&fmts[0], &fmts[1]));
	wav_describe(&fmts[1], desc, sizeof(desc));
	assert_string_equal(desc, "44100 Hz, 2 channel(s), 24-bit");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wav_table),
		cmocka_unit_test(test_wav_short),
		cmocka_unit_test(test_wav_header),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
