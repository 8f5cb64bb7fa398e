/*
 * libFuzzer target: X-Hub-Signature-256 headers. The input is tried as a
 * header against a fixed body and secret, and as a body and secret whose
 * own signature must then verify.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "signature.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char	 body[] = "Hello, World!";
	const char		*secrets[2] = { "It's a Secret to Everybody",
				    NULL };
	size_t			 lens[2] = { 26, 0 }, split;
	char			*header, sig[SIGNATURE_LEN];
	int			 rv;

	/* As a header. */
	header = malloc(size + 1);
	if (header == NULL)
		return 0;
	memcpy(header, data, size);
	header[size] = '\0';
	rv = signature_verify(header, body, sizeof(body) - 1, secrets, lens, 1);
	if (rv < SIGNATURE_OK || rv > SIGNATURE_MISMATCH)
		abort();
	(void)signature_strerror(rv);
	free(header);

	/* As a secret (the first byte says how long) and a body. */
	split = size > 0 ? data[0] % size : 0;
	secrets[1] = (const char *)data;
	lens[1] = split;
	if (signature_compute(secrets[1], lens[1], data + split, size - split,
	    sig) == -1)
		abort();
	if (strlen(sig) != SIGNATURE_LEN - 1)
		abort();
	if (signature_verify(sig, data + split, size - split, secrets, lens,
	    2) != SIGNATURE_OK)
		abort();
	return 0;
}
