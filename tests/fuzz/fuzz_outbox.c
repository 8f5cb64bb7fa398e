/*
 * libFuzzer target: what the outbox reads back from state_dir (a record
 * file) and what a sink answers (Retry-After). A record read must encode
 * to one that reads back the same; a delay read is within its bounds.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "outbox.h"
#include "sink.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct outbox_record	 rec, again;
	char			*cause = NULL, *s, *v;
	long long		 secs;

	if (outbox_record_parse((const char *)data, size, &rec, &cause) == 0) {
		s = outbox_record_encode(&rec);
		if (s == NULL || outbox_record_parse(s, strlen(s), &again,
		    &cause) != 0)
			abort();
		if (strcmp(rec.id, again.id) != 0 ||
		    strcmp(rec.json, again.json) != 0 ||
		    rec.created != again.created)
			abort();
		outbox_record_clear(&again);
		outbox_record_clear(&rec);
		free(s);
	} else {
		if (cause == NULL)
			abort();
		free(cause);
	}

	if (size > 256)
		return 0;
	if ((v = malloc(size + 1)) == NULL)
		return 0;
	memcpy(v, data, size);
	v[size] = '\0';
	if (retry_after_parse(v, 1772445600, &secs) == 0 &&
	    (secs < 0 || secs > RETRY_AFTER_MAX))
		abort();
	free(v);
	return 0;
}
