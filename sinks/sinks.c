/* The table of sink kinds. */
#include <string.h>

#include "sink.h"

static const struct sink_kind *const sink_kinds[] = {
	&sink_http,
	&sink_slack,
	&sink_exec,
};

#define NKINDS (sizeof(sink_kinds) / sizeof(sink_kinds[0]))

const struct sink_kind *
sink_kind_find(const char *name)
{
	size_t	i;

	for (i = 0; i < NKINDS; i++)
		if (strcmp(sink_kinds[i]->name, name) == 0)
			return sink_kinds[i];
	return NULL;
}

const struct sink_kind *
sink_kind_of(enum sink_type type)
{
	size_t	i;

	for (i = 0; i < NKINDS; i++)
		if (sink_kinds[i]->type == type)
			return sink_kinds[i];
	return sink_kinds[0];
}

const char *
sink_kind_names(void)
{
	return "http, slack, exec";
}
