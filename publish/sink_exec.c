/* The exec sink: a command run with the episode's paths (publish/outbox.c). */
#include "sink.h"

const struct sink_kind sink_exec = {
	.name = "exec", .type = SINK_EXEC, .build = NULL,
};
