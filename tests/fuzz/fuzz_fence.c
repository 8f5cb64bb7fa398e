/*
 * libFuzzer target: a model's reply through fence_check(), cleaned as the
 * daemon cleans it (record_clean, then fence_normalize's NFKC). Input
 * "DRAFT\fREPLY" fences the reply with that draft as the facts; without
 * a form feed a fixed draft is. Every verdict is accepted or a reason of
 * fence_reasons, with a detail exactly when refused; the reply as it came
 * (not NFKC) is checked too, and is refused unless it was NFKC already.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fence.h"
#include "record.h"

#define FUZZ_DRAFT \
	"Hello and welcome to widget, this June 30th, 2026. Eleven commits " \
	"landed from three people today. Ada Lovelace made the parser 1.7x " \
	"faster. Grace Hopper's change to the cache was rolled back. The " \
	"reason given: \"It broke the nightly build.\" Today's Focus: set " \
	"WIDGET_CACHE=off to try the new path. I'll catch you tomorrow."

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const people[] = { "Ada Lovelace", "Grace Hopper" };
	static const char *const bots[] = { "dependabot[bot]", "Dependabot" };
	static const struct fence_revert reverts[] = {
		{ "change to the cache", "It broke the nightly build", 0 },
	};
	struct fence_facts	 facts;
	struct fence		*f;
	const char		*why;
	char			*text, *reply, *ff, *detail, *norm;
	size_t			 i;

	text = malloc(size + 1);
	if (text == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	memset(&facts, 0, sizeof(facts));
	facts.draft = FUZZ_DRAFT;
	facts.focus = "WIDGET_CACHE=off";
	reply = text;
	if ((ff = memchr(text, '\f', size)) != NULL) {
		*ff = '\0';
		facts.draft = text;
		facts.focus = NULL;
		reply = ff + 1;
	}
	record_clean(reply, RECORD_CLEAN_LINES);
	facts.people = people;
	facts.npeople = 2;
	facts.bots = bots;
	facts.nbots = 2;
	facts.reverts = reverts;
	facts.nreverts = 1;
	f = fence_new(&facts);
	/* record_clean leaves valid UTF-8, which has a normal form */
	if ((norm = fence_normalize(reply)) == NULL)
		abort();
	why = fence_check(f, reply, &detail);
	if ((why == NULL) != (detail == NULL))
		abort();
	if (why == NULL && strcmp(norm, reply) != 0)
		abort();
	free(detail);
	why = fence_check(f, norm, &detail);
	if ((why == NULL) != (detail == NULL))
		abort();
	if (why != NULL) {
		for (i = 0; fence_reasons[i] != NULL; i++)
			if (strcmp(fence_reasons[i], why) == 0)
				break;
		if (fence_reasons[i] == NULL)
			abort();
	}
	free(detail);
	free(norm);
	fence_free(f);
	free(text);
	return 0;
}
