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

	/* the socket hands over one line of at most 4 KiB, NULs and all */
	if (size > 4096)
		return 0;
	/* no terminator: the parser must keep to size */
	line = malloc(size > 0 ? size : 1);
	memcpy(line, data, size);
	cmd = control_parse(line, size, &arg, &cause);
	/* exactly one of a command or a cause; an argument only with one */
	if ((cmd == NULL) == (cause == NULL) || (cmd == NULL && arg != NULL))
		abort();
	free(arg);
	free(cause);
	free(line);
	return 0;
}
