/*
 * libFuzzer target: the client behind trusted proxies (http_client_addr),
 * X-Forwarded-For being whatever a client sends. The first byte picks the
 * peer (trusted or not); the rest is the header. What comes out is the
 * peer, or one element of the header that is an address, whole.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "http.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const trusted[] = { "127.0.0.1", "10.0.0.7",
	    "::1", "2001:db8::7" };
	static const char *const peers[] = { "127.0.0.1", "192.0.2.1", "::1",
	    "10.0.0.7" };
	const char	*peer, *found;
	char		*xff, out[64];
	size_t		 n;

	if (size == 0)
		return 0;
	peer = peers[data[0] % 4];
	xff = malloc(size);
	if (xff == NULL)
		return 0;
	memcpy(xff, data + 1, size - 1);
	xff[size - 1] = '\0';
	if (http_client_addr(peer, xff, trusted, 4, out, sizeof(out)) == 0 &&
	    strcmp(out, peer) != 0) {
		/* an element of the header, between commas and blanks */
		n = strlen(out);
		if (n == 0 || (found = strstr(xff, out)) == NULL ||
		    strchr(out, ',') != NULL || strchr(out, ' ') != NULL)
			abort();
		(void)found;
	}
	free(xff);
	return 0;
}
