/*
 * The fence's judgement of a reply: its sentences, each checked
 * (fence_sentence_words, fence_sentence_stories); a failing one left out
 * when the reply still tells, without it, all it must (each revert the
 * draft tells, the lead, the focus, half the draft's words); else the
 * reply refused whole.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "fence.h"
#include "fence_int.h"
#include "sheet.h"
#include "text.h"
#include "words.h"
#include "xmalloc.h"



/* Abbreviations whose period ends no sentence. */
static const char *const story_abbrev[] = {
	"e.g", "i.e", "etc", "vs", "mr", "mrs", "ms", "dr", "st", "no",
	"approx", "cf", "jr", "sr",
};

size_t
fence_sentences(const char *text, size_t **starts, size_t **lens)
{
	const char	*p = text, *s, *w;
	size_t		 n = 0;
	char		 word[8];
	size_t		 wl;

	*starts = xcalloc(1, sizeof(**starts));
	*lens = xcalloc(1, sizeof(**lens));
	for (;;) {
		while (*p != '\0' && isspace((unsigned char)*p))
			p++;
		if (*p == '\0')
			break;
		s = p;
		for (;;) {
			if (*p == '\0')
				break;
			if (p[0] == '\n' && p[1] == '\n')
				break;
			if (strchr(".!?", *p) != NULL) {
				const char *e = p + 1;

				while (*e != '\0' && strchr(".!?\"')", *e) !=
				    NULL)
					e++;
				while ((unsigned char)e[0] == 0xe2 && e[1] ==
				    '\x80' && ((unsigned char)e[2] == 0x9d ||
				    (unsigned char)e[2] == 0x99))
					e += 3;
				if (*e != '\0' && !isspace((unsigned char)*e)) {
					p++;
					continue;
				}
				/* the word the period closes */
				for (w = p; w > s && !isspace((unsigned char)
				    w[-1]); w--)
					;
				wl = (size_t)(p - w);
				if (*p == '.' && wl > 0 && wl < sizeof(word)) {
					size_t i;

					for (i = 0; i < wl; i++)
						word[i] = (char)tolower(
						    (unsigned char)w[i]);
					word[wl] = '\0';
					if (fence_in(story_abbrev,
					    NELEM(story_abbrev), word) ||
					    (wl == 1 && isupper(
					    (unsigned char)w[0]))) {
						p++;
						continue;
					}
				}
				p = e;
				break;
			}
			p++;
		}
		*starts = xreallocarray(*starts, n + 1, sizeof(**starts));
		*lens = xreallocarray(*lens, n + 1, sizeof(**lens));
		(*starts)[n] = (size_t)(s - text);
		(*lens)[n] = (size_t)(p - s);
		while ((*lens)[n] > 0 && isspace((unsigned char)
		    s[(*lens)[n] - 1]))
			(*lens)[n]--;
		n++;
	}
	return n;
}

/* What the reply must still tell: NULL when kept does, else the reason. */
static const char *
story_required(const struct fence *f, const char *kept, char **detail)
{
	const char	*r;
	size_t		 i;

	if (text_word_count(kept) * 2 < f->draft_words)
		return fence_fail(detail, "too_short", "under half the draft's "
		    "words", NULL, 0);
	if (f->focus != NULL && strstr(kept, f->focus) == NULL)
		return fence_fail(detail, "focus", "the focus setting not "
		    "quoted as written", f->focus, strlen(f->focus));
	if ((r = fence_reverts(f, kept, detail)) != NULL)
		return r;
	for (i = 0; i < f->nstories; i++) {
		size_t	n, k, *starts, *lens;
		int	told = 0;

		if (!f->stories[i].lead)
			continue;
		n = fence_sentences(kept, &starts, &lens);
		for (k = 0; k < n && !told; k++) {
			char *s = xstrndup(kept + starts[k], lens[k]);

			told = fence_story_told(f, s, &f->stories[i]);
			free(s);
		}
		free(starts);
		free(lens);
		if (!told)
			return fence_fail(detail, "lead", "the lead story not "
			    "told", NULL, 0);
	}
	return NULL;
}

void
fence_judge(const struct fence *f, const char *reply, struct fence_verdict *v)
{
	struct buf	 kept;
	const char	*r, *gap;
	char		*s, *d = NULL, *d2 = NULL;
	size_t		 n, i, *starts, *lens, prev_end = 0;
	int		 first = 1, *drop, *prev;

	memset(v, 0, sizeof(*v));
	if ((v->refused = fence_whole(f, reply, &v->detail)) != NULL)
		return;
	n = fence_sentences(reply, &starts, &lens);
	drop = xcalloc(n + 1, sizeof(*drop));
	prev = xcalloc(f->nstories + 1, sizeof(*prev));
	buf_init(&kept);
	for (i = 0; i < n; i++) {
		s = xstrndup(reply + starts[i], lens[i]);
		d = NULL;
		if ((r = fence_sentence_words(f, s, &d)) == NULL)
			r = fence_sentence_stories(f, s, prev, &d);
		if (r != NULL) {
			v->dropped = xreallocarray(v->dropped, v->ndropped + 1,
			    sizeof(*v->dropped));
			v->dropped[v->ndropped].sentence = s;
			v->dropped[v->ndropped].reason = r;
			v->dropped[v->ndropped++].detail = d;
			drop[i] = 1;
			continue;
		}
		free(s);
		if (!first) {
			gap = reply + prev_end;
			buf_puts(&kept, memmem(gap, starts[i] - prev_end,
			    "\n\n", 2) != NULL ? "\n\n" : " ");
		}
		buf_append(&kept, reply + starts[i], lens[i]);
		prev_end = starts[i] + lens[i];
		first = 0;
	}
	d = NULL;
	/*
	 * A requirement the reply meets only with a dropped sentence: the
	 * drop is why it is refused; one it never met is its own reason.
	 */
	if ((r = story_required(f, buf_str(&kept), &d)) != NULL) {
		if (v->ndropped > 0 && story_required(f, reply, &d2) == NULL) {
			v->refused = v->dropped[0].reason;
			xasprintf(&v->detail, "%s; without the sentence, %s",
			    v->dropped[0].detail != NULL ?
			    v->dropped[0].detail : v->dropped[0].reason,
			    d != NULL ? d : r);
		} else {
			v->refused = r;
			v->detail = d;
			d = NULL;
		}
	} else
		v->text = xstrdup(buf_str(&kept));
	free(d);
	free(d2);
	free(drop);
	free(prev);
	free(starts);
	free(lens);
	buf_free(&kept);
}

void
fence_verdict_clear(struct fence_verdict *v)
{
	size_t	i;

	free(v->detail);
	free(v->text);
	for (i = 0; i < v->ndropped; i++) {
		free(v->dropped[i].sentence);
		free(v->dropped[i].detail);
	}
	free(v->dropped);
	memset(v, 0, sizeof(*v));
}
