/*
 * libFuzzer target: a day of commit messages through the drafter. The
 * input is split at NUL bytes into up to eight messages; each becomes a
 * commit (its author taken in turn from a few names, one a bot's, its
 * files from the message's first words), the reverts are paired, and the
 * episode is drafted and rendered as Markdown and JSON. What every
 * episode must hold is checked: a transcript, a title, no control
 * characters, and JSON that ends as an object does.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "day.h"
#include "episode.h"
#include "record.h"
#include "xmalloc.h"

#define FUZZ_MAX_COMMITS	8

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const struct {
	const char	*name, *login;
} fuzz_authors[] = {
	{ "Ada Lovelace", "ada" },
	{ "dependabot[bot]", "dependabot[bot]" },
	{ "Grace Hopper", "grace" },
	{ "debing.sun", "sundb" },
};

/* Abort when s holds a control character other than a newline. */
static void
fuzz_no_controls(const char *s)
{
	for (; s != NULL && *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 && *s != '\n')
			abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct episode_opts	 o;
	struct episode		*ep;
	struct commit		 c;
	struct day		*d;
	const char		*p, *end;
	char			*text, *md, *js, *name;
	size_t			 i, n, len;

	text = xmalloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	d = day_new("acme/widget", 1775260800);
	d->end = d->start + 86400;
	p = text;
	end = text + size;
	for (i = 0; i < FUZZ_MAX_COMMITS && p < end; i++) {
		len = strlen(p);
		memset(&c, 0, sizeof c);
		if (commit_set_message(&c, p) == -1)
			abort();
		xasprintf(&c.sha, "%040zx", i + 1);
		n = i % (sizeof fuzz_authors / sizeof fuzz_authors[0]);
		c.author_name = xstrdup(fuzz_authors[n].name);
		c.author_login = xstrdup(fuzz_authors[n].login);
		c.timestamp = d->start + (time_t)i * 60;
		/* a file named by the message's first word, as a path */
		name = xstrndup(p, strcspn(p, " \n:") % 64);
		c.modified = record_list_dup(&name, 1);
		c.nmodified = 1;
		free(name);
		if (revert_parse(c.subject, c.body, &c.revert) == -1)
			abort();
		if (day_add_commit(d, &c) == -1)
			abort();
		p += len + 1;
	}
	day_pair_reverts(d);
	memset(&o, 0, sizeof o);
	o.year = 2026;
	o.month = 6;
	o.mday = 30;
	ep = episode_draft(d, &o);
	if (ep->transcript == NULL || ep->title == NULL || ep->nsegments == 0)
		abort();
	fuzz_no_controls(ep->transcript);
	fuzz_no_controls(ep->title);
	fuzz_no_controls(ep->description);
	md = episode_render_md(ep);
	js = episode_render_json(ep);
	if (md == NULL || js == NULL || js[0] != '{' ||
	    js[strlen(js) - 1 - (js[strlen(js) - 1] == '\n')] != '}')
		abort();
	free(md);
	free(js);
	episode_free(ep);
	day_free(d);
	free(text);
	return 0;
}
