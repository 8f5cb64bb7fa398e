/*
 * libFuzzer target: HTTP request heads (http_parse_head), with the
 * daemon's default max_header; and the incremental scan the server runs
 * as bytes arrive (http_scan_feed), which must find the same end however
 * the bytes are split.
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
	struct http_scan	 whole, split;
	int			 status = 0;
	const char		*cause = NULL;
	long			 rv;
	size_t			 end, end2, a, b;

	memset(&whole, 0, sizeof(whole));
	end = http_scan_feed(&whole, (const char *)data, size);
	if (end > size || (end == 0 && whole.off != size))
		abort();
	/* three pieces, cut where the first two bytes say */
	a = size > 0 ? data[0] % (size + 1) : 0;
	b = size > 0 ? a + data[1 % size] % (size - a + 1) : 0;
	memset(&split, 0, sizeof(split));
	end2 = http_scan_feed(&split, (const char *)data, a);
	if (end2 == 0)
		end2 = http_scan_feed(&split, (const char *)data + a, b - a);
	if (end2 == 0)
		end2 = http_scan_feed(&split, (const char *)data + b, size - b);
	if (end2 != end)
		abort();

	rv = http_parse_head((const char *)data, size, FUZZ_MAX_HEADER, &req,
	    &status, &cause);
	/* a whole head is one the scan ended at */
	if (rv > 0 && (size_t)rv != end)
		abort();
	if (rv == 0 && end != 0)
		abort();
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
