/* libFuzzer target: control socket command lines. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "control.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char				*line, *arg = NULL, *cause = NULL;
	const struct control_cmd	*cmd;

	/* the socket hands over one line, NUL-free, at most 4 KiB */
	if (size > 4096 || memchr(data, '\0', size) != NULL)
		return 0;
	line = malloc(size + 1);
	memcpy(line, data, size);
	line[size] = '\0';
	cmd = control_parse(line, &arg, &cause);
	/* exactly one of a command or a cause; an argument only with one */
	if ((cmd == NULL) == (cause == NULL) || (cmd == NULL && arg != NULL))
		abort();
	free(arg);
	free(cause);
	free(line);
	return 0;
}
