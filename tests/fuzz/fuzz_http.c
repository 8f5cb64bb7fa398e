/*
 * libFuzzer target: HTTP request heads (http_parse_head), with the
 * daemon's default max_header.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "http.h"

#define FUZZ_MAX_HEADER	65536

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct http_request	 req;
	int			 status = 0;
	const char		*cause = NULL;
	long			 rv;

	rv = http_parse_head((const char *)data, size, FUZZ_MAX_HEADER, &req,
	    &status, &cause);
	if (rv > 0) {
		/* a whole head, within the limit, and what it says holds */
		if ((size_t)rv > size || rv > FUZZ_MAX_HEADER ||
		    req.target == NULL || req.path == NULL ||
		    strncmp(req.target, req.path, strlen(req.path)) != 0 ||
		    req.method[0] == '\0' || (req.minor != 0 &&
		    req.minor != 1) || req.nheaders > HTTP_MAX_HEADERS ||
		    req.content_length < -1 || (req.keep_alive != 0 &&
		    req.keep_alive != 1))
			abort();
		if (req.content_length >= 0 &&
		    http_header(&req, "content-length") == NULL)
			abort();
		http_request_clear(&req);
	} else if (rv == 0) {
		/* more needed: nothing kept, and not over the limit */
		if (req.target != NULL || req.nheaders != 0 ||
		    size > FUZZ_MAX_HEADER)
			abort();
	} else {
		if (rv != -1 || cause == NULL || status < 400 || status > 505 ||
		    req.target != NULL || req.nheaders != 0)
			abort();
	}
	return 0;
}
