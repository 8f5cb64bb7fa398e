/* libFuzzer target: form-encoded delivery bodies. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "form.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char	*out = NULL, *cause = NULL;
	size_t	 outlen = 0;

	if (form_field((const char *)data, size, "payload", &out,
	    &outlen, &cause) == 0) {
		/* decoding only ever shrinks, and the result ends in NUL */
		if (cause != NULL || outlen == 0 || outlen >= size ||
		    out[outlen] != '\0')
			abort();
		free(out);
	} else {
		if (cause == NULL || out != NULL)
			abort();
		free(cause);
	}
	return 0;
}
