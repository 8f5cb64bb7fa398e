/* The table of sink kinds, and what all kinds share. */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "sink.h"
#include "xmalloc.h"

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

json_t *
sink_summary(const char *repo, const char *date, const char *title,
    long long bytes, long long cap, const char *base, int audio)
{
	json_t	*j, *links;
	char	*u;

	j = json_pack("{s:b, s:s, s:s, s:s, s:I, s:I}", "summary", 1,
	    "repository", repo, "date", date, "title", title, "bytes",
	    (json_int_t)bytes, "limit", (json_int_t)cap);
	if (base != NULL) {
		links = json_object();
		xasprintf(&u, "%s.json", base);
		json_object_set_new(links, "json", json_string(u));
		free(u);
		xasprintf(&u, "%s.md", base);
		json_object_set_new(links, "markdown", json_string(u));
		free(u);
		if (audio) {
			xasprintf(&u, "%s.mp3", base);
			json_object_set_new(links, "audio", json_string(u));
			free(u);
		}
		json_object_set_new(j, "links", links);
	}
	return j;
}

const struct sink_conf *
sink_find(const struct sink_conf *v, size_t n, const char *name)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (strcmp(v[i].name, name) == 0)
			return &v[i];
	return NULL;
}

int
sink_matches(const struct sink_conf *s, const char *repo)
{
	size_t	i;

	if (s->repositories.n == 0 && s->shows.n == 0)
		return 1;
	if (strncmp(repo, "shows/", 6) == 0)
		for (i = 0; i < s->shows.n; i++)
			if (strcmp(s->shows.v[i], repo + 6) == 0)
				return 1;
	for (i = 0; i < s->repositories.n; i++)
		if (fnmatch(s->repositories.v[i], repo, FNM_CASEFOLD) == 0)
			return 1;
	return 0;
}
