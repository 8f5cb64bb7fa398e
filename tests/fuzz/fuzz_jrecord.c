/*
 * libFuzzer target: jrecord_decode, the journal's record reader, on any
 * payload. It must take exactly what json_loadb takes (replay cut off
 * the same records before), bar nesting past JSCAN_MAX_DEPTH, and a
 * record it takes goes into a day as replay puts it there.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

#include "day.h"
#include "jrecord.h"
#include "jscan.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Whether data opens more containers than jscan nests. */
static int
deep(const uint8_t *data, size_t size)
{
	size_t	i, n = 0;

	for (i = 0; i < size; i++)
		if (data[i] == '[' || data[i] == '{')
			n++;
	return n > JSCAN_MAX_DEPTH;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jrecord	 rec;
	struct day	*day;
	json_error_t	 err;
	json_t		*j;
	int		 rc;

	rc = jrecord_decode((const char *)data, size, &rec);
	j = json_loadb((const char *)data, size, 0, &err);
	if ((j != NULL) != (rc == 0) && !deep(data, size)) {
		fprintf(stderr, "jrecord_decode %s what jansson %s\n",
		    rc == 0 ? "takes" : "refuses",
		    j != NULL ? "takes" : "refuses");
		abort();
	}
	json_decref(j);
	if (rc == 0) {
		day = day_new("o/r", 0);
		(void)jrecord_take(&rec, day);
		jrecord_clear(&rec);
		day_free(day);
	}
	return 0;
}
