/* libFuzzer target: WAV files as a tts_command writes them. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "wav.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wav	 w;
	char		*cause = NULL;
	unsigned char	 head[WAV_HEADER_LEN];
	const uint8_t	*end = data + size;

	if (wav_parse(data, size, &w, &cause) == 0) {
		/* the samples lie inside the input, whole frames of them */
		if (cause != NULL || w.data < data || w.data > end ||
		    w.len > (size_t)(end - w.data) ||
		    w.len % wav_frame_bytes(&w.fmt) != 0 ||
		    wav_seconds(&w.fmt, w.len) < 0)
			abort();
		/* a header made for it reads back as the same format */
		if (wav_header(&w.fmt, 0, head) == 0) {
			struct wav	w2;

			if (wav_parse(head, sizeof(head), &w2, &cause) != 0 ||
			    !wav_same(&w.fmt, &w2.fmt) || w2.len != 0)
				abort();
		}
	} else {
		if (cause == NULL)
			abort();
		free(cause);
	}
	return 0;
}
