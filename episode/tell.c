/*
 * Telling one change: "NAME fixed the X", its series, figures and prose; the highlights, fixes and a quiet day's one commit.
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "classify.h"
#include "draft_int.h"
#include "episode.h"
#include "phrase.h"
#include "prose.h"
#include "spoken.h"

/* "in X, " before a sentence when the title named an area not in what. */
int
tell_area_lead(struct buf *b, const struct draft_item *it)
{
	if (it->cl.area == NULL || !it->cl.area_titled ||
	    phrase_contains(it->cl.what, it->cl.area) ||
	    !phrase_verbal(it->cl.what))
		return 0;
	buf_printf(b, "in %s, ", it->cl.area);
	return 1;
}

/* Whether what opens with a noun of changes ("fixes and tidy-ups to X"). */
static int
tell_noun_start(const char *what)
{
	static const char *const nouns[] = { "fixes", "improvements",
	    "updates", "tweaks", "tidy-ups", "cleanups", "clean-ups",
	    "changes", "typo", "typos", "various", "minor", "small", "more",
	    "several", "some", "misc", "assorted", NULL };

	return phrase_word_in(what, phrase_first_word(what), nouns);
}

/*
 * "NAME fixed the X" when what reads as a verb phrase; "NAME synced
 * RELEASE-NOTES" for "RELEASE-NOTES: synced"; "NAME made fixes to X" for a
 * noun of changes; otherwise what is quoted plainly: "NAME landed a
 * setopt change titled ...". with_name 0 drops NAME.
 */
void
tell_did(struct buf *b, const struct draft_item *it, int with_name)
{
	const char	*w = it->cl.what, *area = it->cl.area;
	size_t		 n = strlen(w);

	if (with_name) {
		buf_puts(b, it->name);
		buf_putc(b, ' ');
	}
	if (phrase_verbal(w) && phrase_past(b, w))
		return;
	if (area != NULL && it->cl.area_titled && n > 2 &&
	    strcmp(w + n - 2, "ed") == 0 && phrase_plain(w, n)) {
		buf_printf(b, "%s %s", w, area);
		return;
	}
	if (tell_noun_start(w)) {
		buf_puts(b, "made ");
		phrase_lower_first(b, w);
		return;
	}
	if (area != NULL && it->cl.area_titled &&
	    !phrase_contains(w, area))
		buf_printf(b, "landed a %s change titled \"%s\"", area, w);
	else
		buf_printf(b, "landed a change titled \"%s\"", w);
}

/* A sentence "In area, NAME added X." starting with a capital. */
void
tell_did_sentence(struct buf *b, const struct draft_item *it,
    const char *lead)
{
	struct buf	 s;

	buf_init(&s);
	if (lead != NULL)
		buf_puts(&s, lead);
	tell_area_lead(&s, it);
	tell_did(&s, it, 1);
	phrase_space(b);
	if (s.len > 0 && strncmp(s.data, it->name, strlen(it->name)) != 0)
		phrase_cap(b, buf_str(&s));
	else
		buf_puts(b, buf_str(&s));
	phrase_sentence_end(b);
	buf_free(&s);
}

/* Append figures of it not already in text: "The message gives 1.7x and 35%." */
static void
tell_figures(struct buf *b, const struct draft_item *it, const char *said)
{
	const char	*v[CLASSIFY_MAXFIGURES];
	size_t		 i, n = 0;

	for (i = 0; i < it->cl.nfigures; i++) {
		if (strstr(said, it->cl.figures[i]) == NULL)
			v[n++] = it->cl.figures[i];
	}
	if (n == 0)
		return;
	phrase_space(b);
	buf_puts(b, "The message puts numbers on it: ");
	spoken_list(b, v, n);
	buf_putc(b, '.');
}

/* A series told as progress: "That's step three of fifteen." */
static void
tell_series(struct buf *b, const struct draft_item *it)
{
	if (it->cl.series_part <= 0)
		return;
	phrase_space(b);
	buf_puts(b, "That's step ");
	spoken_number(b, it->cl.series_part);
	if (it->cl.series_total > 0) {
		buf_puts(b, " of ");
		spoken_number(b, it->cl.series_total);
		buf_puts(b, it->cl.series_part == it->cl.series_total ?
		    ", the last of its series." : " in a series.");
	} else
		buf_puts(b, " of an ongoing series.");
}

/* One highlight paragraph. */
static void
tell_highlight(struct draft *d, struct buf *b, struct draft_item *it,
    size_t pos)
{
	static const char *lead0[] = {
		"Top of the list today: ",
		"The headline change comes first: ",
		"Leading the highlights, ",
	};
	static const char *leadn[] = {
		"Next, ", "Also worth knowing: ", "Then, ", "Meanwhile, ",
		"On top of that, ", "Elsewhere, ",
	};
	size_t	 nfiles, start = b->len;

	phrase_para(b);
	start = b->len;
	tell_did_sentence(b, it, pos == 0 ? DRAFT_PICK(d, 5, lead0) :
	    leadn[(d->hash + pos) % (sizeof leadn / sizeof leadn[0])]);
	tell_series(b, it);
	if (it->cl.prose[0] != '\0') {
		phrase_space(b);
		buf_puts(b, it->cl.prose);
	}
	tell_figures(b, it, b->data + start);
	nfiles = it->c->nadded + it->c->nmodified + it->c->nremoved;
	if (nfiles >= 8) {
		buf_puts(b, " It touches ");
		spoken_count(b, (long long)nfiles, "file", "files");
		buf_putc(b, '.');
	}
	it->told = 1;
}

/* A quiet day's one commit, told in full in the segment of its kind. */
void
tell_single(struct draft *d)
{
	struct draft_item	*it = &d->items[0];
	struct draft_shas	 shas = { NULL, 0 };
	struct buf		 b;
	const char		*kind;

	if (d->nitems != 1 || it->told)
		return;
	switch (it->cl.kind) {
	case CLASSIFY_FIX:
		kind = "fixes";
		break;
	case CLASSIFY_FEATURE:
	case CLASSIFY_PERF:
	case CLASSIFY_CHANGE:
		kind = it->cl.bot ? "housekeeping" : "highlights";
		break;
	default:
		kind = "housekeeping";
		break;
	}
	buf_init(&b);
	if (it->cl.bot)
		buf_printf(&b, "%s made the one commit: %s.", it->name,
		    it->cl.what);
	else {
		tell_did_sentence(&b, it, NULL);
		if (it->cl.prose[0] != '\0') {
			phrase_space(&b);
			buf_puts(&b, it->cl.prose);
		}
		tell_figures(&b, it, b.data);
	}
	it->told = 1;
	draft_shas_add(d, &shas, it);
	draft_segment(d, kind, &b, &shas);
}

void
tell_highlights(struct draft *d)
{
	static const enum classify_kind kinds[] = {
		CLASSIFY_PERF, CLASSIFY_FEATURE, CLASSIFY_CHANGE
	};
	struct draft_item	**v;
	struct draft_shas	  shas = { NULL, 0 };
	struct buf		  b;
	size_t			  n, i, shown;

	v = select_items(d, kinds, sizeof kinds / sizeof kinds[0], &n);
	buf_init(&b);
	shown = n < EPISODE_MAX_HIGHLIGHTS ? n : EPISODE_MAX_HIGHLIGHTS;
	for (i = 0; i < shown; i++) {
		tell_highlight(d, &b, v[i], i);
		draft_shas_add(d, &shas, v[i]);
	}
	if (n > shown) {
		phrase_para(&b);
		buf_puts(&b, "Smaller changes rounded it out: ");
		spoken_count(&b, (long long)(n - shown), "more change",
		    "more changes");
		buf_puts(&b, " from ");
		select_names(&b, v + shown, n - shown > DRAFT_MAX_NAMED ?
		    DRAFT_MAX_NAMED : n - shown);
		if (n - shown > DRAFT_MAX_NAMED)
			buf_puts(&b, " and others");
		buf_putc(&b, '.');
		for (i = shown; i < n; i++) {
			v[i]->told = 1;
			draft_shas_add(d, &shas, v[i]);
		}
	}
	d->nhighlights = shown;
	free(v);
	draft_segment(d, "highlights", &b, &shas);
}

void
tell_fixes(struct draft *d)
{
	static const enum classify_kind kinds[] = { CLASSIFY_FIX };
	static const char *lead[] = {
		"On the fixes side, ", "Now for the fixes. ",
		"A few things got fixed, too. ",
	};
	struct draft_item	**v;
	struct draft_shas	  shas = { NULL, 0 };
	struct buf		  b;
	size_t			  n, i, shown;

	v = select_items(d, kinds, 1, &n);
	buf_init(&b);
	shown = n < DRAFT_MAX_FIXES ? n : DRAFT_MAX_FIXES;
	for (i = 0; i < shown; i++) {
		const char *l = i == 0 ? DRAFT_PICK(d, 7, lead) : NULL;

		if (i > 0)
			phrase_para(&b);
		if (l != NULL && l[strlen(l) - 1] == ' ' &&
		    l[strlen(l) - 2] == '.') {
			buf_puts(&b, l);
			l = NULL;
		}
		tell_did_sentence(&b, v[i], l);
		if (v[i]->cl.prose[0] != '\0') {
			phrase_space(&b);
			prose_sentences(&b, v[i]->cl.prose, 1);
		}
		tell_figures(&b, v[i], b.data);
		v[i]->told = 1;
		draft_shas_add(d, &shas, v[i]);
	}
	if (n > shown) {
		phrase_para(&b);
		phrase_count_cap(&b, (long long)(n - shown), "more fix",
		    "more fixes");
		buf_puts(&b, " came from ");
		select_names(&b, v + shown, n - shown);
		buf_putc(&b, '.');
		for (i = shown; i < n; i++) {
			v[i]->told = 1;
			draft_shas_add(d, &shas, v[i]);
		}
	}
	free(v);
	draft_segment(d, "fixes", &b, &shas);
}
