/*
 * libFuzzer target: commit messages through commit_set_message() and
 * revert_parse().
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct commit	 c;
	char		*message;

	message = malloc(size + 1);
	if (message == NULL)
		return 0;
	memcpy(message, data, size);
	message[size] = '\0';
	memset(&c, 0, sizeof(c));
	if (commit_set_message(&c, message) == -1)
		abort();
	if (revert_parse(c.subject, c.body, &c.revert) == -1)
		abort();
	if (c.revert.is_revert && c.revert.is_reland)
		abort();
	if (c.revert.reverted_sha != NULL && strlen(c.revert.reverted_sha) != 40)
		abort();
	commit_clear(&c);
	free(message);
	return 0;
}
