/*
 * libFuzzer target: a sentence through say_sentence(). Input
 * "SENTENCE\fNAME\tLOGIN\fNAME..." says the sentence with those people
 * (a name without a tab has no login); without a form feed, with none.
 * The spoken form is never NULL, is UTF-8, has single spaces and none at
 * its ends, and stays within SAY_GROWTH times the sentence plus
 * SAY_SLACK bytes.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "say.h"
#include "utf8.h"

#define FUZZ_NAMES	8

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct say_name	 names[FUZZ_NAMES];
	size_t		 nnames = 0, len;
	char		*in, *p, *ff, *tab, *out;

	in = malloc(size + 1);
	if (in == NULL)
		return 0;
	memcpy(in, data, size);
	in[size] = '\0';
	/* the sentence, then the people */
	p = in;
	if ((ff = strchr(p, '\f')) != NULL) {
		*ff = '\0';
		p = ff + 1;
		while (p != NULL && nnames < FUZZ_NAMES) {
			if ((ff = strchr(p, '\f')) != NULL)
				*ff++ = '\0';
			names[nnames].name = p;
			names[nnames].login = NULL;
			if ((tab = strchr(p, '\t')) != NULL) {
				*tab = '\0';
				names[nnames].login = tab + 1;
			}
			nnames++;
			p = ff;
		}
	}
	len = strlen(in);
	out = say_sentence(in, names, nnames);
	if (out == NULL)
		abort();
	if (strlen(out) > SAY_GROWTH * len + SAY_SLACK)
		abort();
	if (!utf8_valid(out, strlen(out)))
		abort();
	if (out[0] == ' ' || strstr(out, "  ") != NULL ||
	    (out[0] != '\0' && out[strlen(out) - 1] == ' '))
		abort();
	free(out);
	free(in);
	return 0;
}
