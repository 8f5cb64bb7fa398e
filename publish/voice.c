/* The built-in voices: flite, speaking in this process. */
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <flite/flite.h>

#include "voice.h"
#include "xmalloc.h"

/* Flite's voices register themselves by these; its headers don't say so. */
cst_voice	*register_cmu_us_rms(const char *);
cst_voice	*register_cmu_us_slt(const char *);
cst_voice	*register_cmu_us_awb(const char *);
cst_voice	*register_cmu_us_kal(const char *);
cst_voice	*register_cmu_us_kal16(const char *);

/* The pace a voice keeps unstretched, in words a minute. */
#define VOICE_PACE	150.0
/* rand()'s seed for each sentence */
#define VOICE_SEED	1
/* The stretch allowed either way: past it a voice is no longer clear. */
#define VOICE_STRETCH_MIN	0.5
#define VOICE_STRETCH_MAX	2.0

static const struct voice_entry {
	const char	*name;
	cst_voice	*(*reg)(const char *);
	unsigned	 rate;	/* what it speaks at (test_voice checks) */
} voice_table[] = {
	{ "rms",	register_cmu_us_rms,	16000 },
	{ "slt",	register_cmu_us_slt,	16000 },
	{ "awb",	register_cmu_us_awb,	16000 },
	{ "kal",	register_cmu_us_kal,	8000 },
	{ "kal16",	register_cmu_us_kal16,	16000 },
};
#define VOICE_COUNT	(sizeof(voice_table) / sizeof(voice_table[0]))

const char *const voice_names[] = {
	"rms", "slt", "awb", "kal", "kal16", NULL
};
_Static_assert(sizeof(voice_names) / sizeof(voice_names[0]) ==
    VOICE_COUNT + 1, "voice_names and voice_table differ");

/* Each voice registered once a process: loading one takes milliseconds. */
static cst_voice	*volatile voice_loaded[VOICE_COUNT];
static int		 voice_inited;

static const struct voice_entry *
voice_find(const char *name, size_t *slot)
{
	size_t	i;

	for (i = 0; name != NULL && i < VOICE_COUNT; i++)
		if (strcmp(voice_table[i].name, name) == 0) {
			*slot = i;
			return &voice_table[i];
		}
	return NULL;
}

int
voice_known(const char *name)
{
	size_t	slot;

	return voice_find(name, &slot) != NULL;
}

unsigned
voice_rate(const char *name)
{
	const struct voice_entry	*e;
	size_t				 slot;

	return (e = voice_find(name, &slot)) != NULL ? e->rate : 0;
}

/*
 * Flite ends the process on an error of its own unless told where to
 * jump: here, so that a sentence it can't say fails the episode's audio
 * and not the process (what it held then is lost). The voice registered
 * once, then text said: a wave, or NULL. Nothing of the caller's lives
 * across the jump.
 */
static cst_wave *
voice_flite(cst_voice *volatile *slot, cst_voice *(*reg)(const char *),
    const char *text, float stretch)
{
	jmp_buf		 caught;
	cst_wave	*w;

	if (setjmp(caught) != 0) {
		cst_errjmp = NULL;
		return NULL;
	}
	cst_errjmp = &caught;
	if (*slot == NULL)
		*slot = reg(NULL);
	if (*slot == NULL) {
		cst_errjmp = NULL;
		return NULL;
	}
	feat_set_float((*slot)->features, "duration_stretch", stretch);
	/*
	 * The voices' excitation draws on rand(): seeded for each sentence,
	 * a sentence sounds the same whatever was said before it in the
	 * process, so an episode's audio is the same spoken by one worker
	 * or many.
	 */
	srand(VOICE_SEED);
	w = flite_text_to_wave(text, *slot);
	cst_errjmp = NULL;
	return w;
}

int
voice_speak(const char *name, const char *text, double wpm, struct buf *out,
    struct wav_format *fmt, char **why)
{
	const struct voice_entry	*e;
	cst_wave			*w;
	size_t				 slot;
	double				 stretch;

	buf_reset(out);
	if ((e = voice_find(name, &slot)) == NULL) {
		xasprintf(why, "no built-in voice \"%s\"", name != NULL ?
		    name : "");
		return -1;
	}
	if (!voice_inited) {
		flite_init();
		voice_inited = 1;
	}
	stretch = wpm > 0 ? VOICE_PACE / wpm : 1.0;
	if (stretch < VOICE_STRETCH_MIN)
		stretch = VOICE_STRETCH_MIN;
	if (stretch > VOICE_STRETCH_MAX)
		stretch = VOICE_STRETCH_MAX;
	w = voice_flite(&voice_loaded[slot], e->reg, text, (float)stretch);
	if (w == NULL || cst_wave_num_samples(w) <= 0 ||
	    cst_wave_num_channels(w) < 1 || cst_wave_sample_rate(w) <= 0) {
		if (w != NULL)
			delete_wave(w);
		xasprintf(why, "voice %s said nothing for the sentence", name);
		return -1;
	}
	fmt->channels = (uint16_t)cst_wave_num_channels(w);
	fmt->rate = (uint32_t)cst_wave_sample_rate(w);
	fmt->bits = 16;
	buf_append(out, (const char *)cst_wave_samples(w),
	    (size_t)cst_wave_num_samples(w) * fmt->channels * sizeof(short));
	delete_wave(w);
	return 0;
}
