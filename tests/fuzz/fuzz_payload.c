/*
 * libFuzzer target: a delivery body through jansson and every handler,
 * then whatever a handler keeps through a day (dedup, pairing, stats).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <jansson.h>

#include "day.h"
#include "handler.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const struct handler_entry *const fuzz_handlers[] = {
	&handler_push,
	&handler_pull_request,
	&handler_ping,
};

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct handler_result	 r = { 0 };
	struct day_stats	 st;
	struct day		*d;
	json_t			*payload;
	char			*cause;
	size_t			 i, j;

	payload = json_loadb((const char *)data, size, 0, NULL);
	if (payload == NULL)
		return 0;
	for (i = 0; i < sizeof(fuzz_handlers) / sizeof(fuzz_handlers[0]);
	    i++) {
		cause = NULL;
		if (fuzz_handlers[i]->handle(payload, 1770940000, &r,
		    &cause) == -1) {
			/* a failure always says why and hands nothing back */
			if (cause == NULL || r.repo != NULL || r.commits != NULL)
				abort();
			free(cause);
			handler_result_clear(&r);
			continue;
		}
		if (r.repo != NULL && (d = day_new(r.repo, 0)) != NULL) {
			for (j = 0; j < r.ncommits; j++)
				if (day_add_commit(d, &r.commits[j]) == -1)
					abort();
			if (r.pr != NULL && day_add_pr(d, r.pr) == -1)
				abort();
			if (r.push != NULL && day_add_push(d, r.push) == -1)
				abort();
			day_pair_reverts(d);
			day_stats(d, &st);
			if (st.commits > r.ncommits)
				abort();
			day_free(d);
		}
		handler_result_clear(&r);
	}
	json_decref(payload);
	return 0;
}
