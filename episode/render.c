/* Rendering an episode as Markdown and as JSON. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "buf.h"
#include "episode.h"
#include "log.h"
#include "spoken.h"
#include "xmalloc.h"

/* ISO 8601 UTC, "2026-05-06T10:00:44Z", into out. */
static void
render_iso_time(char *out, size_t outsz, time_t t)
{
	struct tm	tm;

	gmtime_r(&t, &tm);
	strftime(out, outsz, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Append text with each occurrence of word put in backticks. */
static void
render_quote_word(struct buf *b, const char *text, const char *word)
{
	const char	*p = text, *q;
	size_t		 n;

	if (word == NULL || *word == '\0') {
		buf_puts(b, text);
		return;
	}
	n = strlen(word);
	while ((q = strstr(p, word)) != NULL) {
		buf_append(b, p, (size_t)(q - p));
		buf_putc(b, '`');
		buf_append(b, q, n);
		buf_putc(b, '`');
		p = q + n;
	}
	buf_puts(b, p);
}

/* Render as Markdown (new string). */
char *
episode_render_md(const struct episode *ep)
{
	struct buf	 b, dur;
	char		 when[32];
	size_t		 i;

	buf_init(&b);
	buf_init(&dur);
	iso_duration(&dur, ep->duration);
	render_iso_time(when, sizeof when, ep->published);

	buf_printf(&b, "# %s: %s\n\n", ep->show, ep->title);
	if (ep->description != NULL && *ep->description != '\0')
		buf_printf(&b, "%s\n\n", ep->description);
	buf_printf(&b, "- Show: %s\n", ep->show);
	buf_printf(&b, "- Published: %s\n", when);
	buf_printf(&b, "- Duration: %s\n\n", buf_str(&dur));
	buf_puts(&b, "## Transcript\n\n");
	for (i = 0; i < ep->nsegments; i++) {
		const struct episode_segment *seg = &ep->segments[i];

		if (strcmp(seg->kind, "focus") == 0)
			render_quote_word(&b, seg->text, ep->focus);
		else
			buf_puts(&b, seg->text);
		buf_puts(&b, "\n\n");
	}
	if (ep->nnearby > 0) {
		buf_puts(&b, "## Nearby episodes\n\n");
		for (i = 0; i < ep->nnearby; i++) {
			buf_printf(&b, "- %s — %s\n",
			    ep->nearby[i].date != NULL ? ep->nearby[i].date : "",
			    ep->nearby[i].title != NULL ?
			    ep->nearby[i].title : "");
		}
		buf_putc(&b, '\n');
	}
	/* one newline at the end */
	while (b.len > 1 && b.data[b.len - 1] == '\n' &&
	    b.data[b.len - 2] == '\n')
		b.data[--b.len] = '\0';
	buf_free(&dur);
	return buf_steal(&b);
}

/* A JSON string, or null for NULL; bytes that aren't UTF-8 become '?'. */
static json_t *
render_str(const char *s)
{
	json_t	*j;
	char	*copy, *p;

	if (s == NULL)
		return json_null();
	if ((j = json_string(s)) != NULL)
		return j;
	copy = xstrdup(s);
	for (p = copy; *p != '\0'; p++) {
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	}
	j = json_string(copy);
	free(copy);
	return j != NULL ? j : json_string("");
}

/* An ISO time, or null for 0. */
static json_t *
render_time(time_t t)
{
	char	when[32];

	if (t == 0)
		return json_null();
	render_iso_time(when, sizeof when, t);
	return json_string(when);
}

/* Render as JSON (new string), the keys of the design. */
char *
episode_render_json(const struct episode *ep)
{
	json_t		*root, *window, *stats, *segs, *seg, *shas, *nearby;
	struct buf	 dur;
	char		*out, *copy;
	size_t		 i, j;

	buf_init(&dur);
	iso_duration(&dur, ep->duration);

	window = json_pack("{s:o, s:o}", "start", render_time(ep->window_start),
	    "end", render_time(ep->window_end));
	stats = json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
	    "commits", (json_int_t)ep->stats.commits,
	    "merged_prs", (json_int_t)ep->stats.merged_prs,
	    "reverts", (json_int_t)ep->stats.reverts,
	    "relands", (json_int_t)ep->stats.relands,
	    "authors", (json_int_t)ep->stats.authors,
	    "pushes", (json_int_t)ep->stats.pushes,
	    "force_pushes", (json_int_t)ep->stats.force_pushes);
	segs = json_array();
	for (i = 0; i < ep->nsegments; i++) {
		shas = json_array();
		for (j = 0; j < ep->segments[i].ncommits; j++)
			json_array_append_new(shas,
			    render_str(ep->segments[i].commits[j]));
		seg = json_pack("{s:o, s:o, s:o}",
		    "kind", render_str(ep->segments[i].kind),
		    "text", render_str(ep->segments[i].text), "commits", shas);
		json_array_append_new(segs, seg);
	}
	nearby = json_array();
	for (i = 0; i < ep->nnearby; i++) {
		json_array_append_new(nearby, json_pack("{s:o, s:o}",
		    "date", render_str(ep->nearby[i].date),
		    "title", render_str(ep->nearby[i].title)));
	}
	root = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o,"
	    " s:o, s:o, s:o, s:I, s:I, s:o}",
	    "show", render_str(ep->show),
	    "title", render_str(ep->title),
	    "description", render_str(ep->description),
	    "published", render_time(ep->published),
	    "duration", json_string(buf_str(&dur)),
	    "repository", render_str(ep->repository),
	    "window", window,
	    "stats", stats,
	    "segments", segs,
	    "transcript", render_str(ep->transcript),
	    "nearby", nearby,
	    "date", render_str(ep->date),
	    "focus", render_str(ep->focus),
	    "words", (json_int_t)ep->words,
	    "duration_seconds", (json_int_t)ep->duration,
	    "relands", json_integer((json_int_t)ep->stats.relands));
	if (root != NULL)
		json_object_set_new(root, "words_per_minute",
		    json_real(ep->words_per_minute));
	buf_free(&dur);
	if (root == NULL) {
		/* out of memory: every string above is valid UTF-8 */
		log_warnx("%s: cannot build the JSON of %s", __func__,
		    ep->date != NULL ? ep->date : "an episode");
		return xstrdup("{}");
	}
	out = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(root);
	if (out == NULL)
		return xstrdup("{}");
	copy = xstrdup(out);
	free(out);
	return copy;
}
