/*
 * libFuzzer target: push_scan against jansson + push_handle on the same
 * body; any disagreement beyond those tests/unit/push_diff.h documents
 * aborts.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../unit/push_diff.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char	*d;

	if ((d = push_diff((const char *)data, size, NULL)) != NULL) {
		fprintf(stderr, "push_scan disagrees: %s\n", d);
		abort();
	}
	return 0;
}
