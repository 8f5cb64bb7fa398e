/*
 * The rollbacks segment: each revert told as a story (whose work, what it did, who reverted it and why, whether it came back) and re-lands of earlier work.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "classify.h"
#include "draft_int.h"
#include "phrase.h"
#include "prose.h"
#include "spoken.h"
#include "text.h"
#include "xmalloc.h"

/* The index of the item a revert took out, or -1. */
static long
rollback_reverted(const struct draft *d, const struct draft_item *r)
{
	long	idx = r->c->reverts_idx;

	if (idx < 0 && r->c->revert.reverted_sha != NULL)
		idx = day_find_commit(d->day, r->c->revert.reverted_sha);
	if (idx < 0 || (size_t)idx >= d->nitems || idx == r->idx)
		return -1;
	return idx;
}

/*
 * The subject quoted in a revert wrapper, peeled of its own prefix:
 * 'fix: revert, "fix: X (#1)"' and 'Revert "X"' -> "X" (new), or NULL.
 */
char *
rollback_peel(const char *subject)
{
	const char	*p, *q, *e;
	char		*in, *out;
	size_t		 n;

	if (subject == NULL)
		return NULL;
	/* past a "type(scope): " prefix */
	p = subject;
	if ((q = strstr(p, ": ")) != NULL && q - p < 40 &&
	    memchr(p, '"', (size_t)(q - p)) == NULL)
		p = q + 2;
	if (strncasecmp(p, "revert", 6) != 0 && strncasecmp(p, "reapply",
	    7) != 0 && strncasecmp(p, "reland", 6) != 0)
		return NULL;
	if ((q = strchr(p, '"')) == NULL || q - p > 10)
		return NULL;
	if ((e = strrchr(q + 1, '"')) == NULL)
		e = q + 1 + strlen(q + 1);
	n = (size_t)(e - q - 1);
	in = xstrndup(q + 1, n);
	/* a revert of a revert peels once more */
	if ((out = rollback_peel(in)) == NULL)
		out = classify_what(in);
	free(in);
	return out;
}

/* The subject of the work a revert or re-land names (new). */
static char *
rollback_reverted_what(const struct draft_item *it)
{
	const char	*s = it->c->revert.reverted_subject;
	char		*p;

	if (s != NULL && *s != '\0') {
		if ((p = rollback_peel(s)) != NULL)
			return p;
		return classify_what(s);
	}
	if ((p = rollback_peel(it->c->subject)) != NULL)
		return p;
	return xstrdup(it->cl.what);
}

char *
rollback_what(const struct draft_item *it)
{
	if (it->cl.kind == CLASSIFY_REVERT || it->cl.kind == CLASSIFY_RELAND)
		return rollback_reverted_what(it);
	return xstrdup(it->cl.what);
}

/*
 * The work an earlier episode told under sha, with the day it was told
 * said from the day drafted ("yesterday", "Monday", "March 3rd") in
 * *when; NULL when the archive has none.
 */
static const struct episode_work *
rollback_archived(const struct draft *d, const char *sha, struct buf *when,
    int *on)
{
	const struct episode_work	*w;
	int				 y, m, dd, rc;

	if (d->opts == NULL || (w = earlier_find(d->opts->earlier,
	    d->opts->nearlier, sha)) == NULL || w->date == NULL ||
	    sscanf(w->date, "%4d-%2d-%2d", &y, &m, &dd) != 3)
		return NULL;
	buf_init(when);
	rc = spoken_past_day(when, y, m, dd, d->daynum, d->ep->date != NULL ?
	    atoi(d->ep->date) : y);
	if (rc == -1) {
		buf_free(when);
		return NULL;
	}
	*on = rc;
	return w;
}

/* The re-land of the work a revert took out, or NULL. */
static struct draft_item *
rollback_reland_of(struct draft *d, const struct draft_item *r, long orig)
{
	char	*want, *got, *tmp;
	size_t	 i;
	int	 same;

	tmp = orig >= 0 ? xstrdup(d->items[orig].cl.what) :
	    rollback_reverted_what(r);
	want = text_norm(tmp);
	free(tmp);
	for (i = 0; i < d->nitems; i++) {
		struct draft_item *l = &d->items[i];

		if (l->cl.kind != CLASSIFY_RELAND || l->told)
			continue;
		if (l->c->reverts_idx == r->idx ||
		    (orig >= 0 && l->c->reverts_idx == orig)) {
			free(want);
			return l;
		}
		tmp = rollback_reverted_what(l);
		got = text_norm(tmp);
		free(tmp);
		same = want[0] != '\0' && strcmp(want, got) == 0;
		free(got);
		if (same) {
			free(want);
			return l;
		}
	}
	free(want);
	return NULL;
}

/* The first sentence of text that says something broke, or NULL (new). */
static char *
rollback_breakage(const char *text)
{
	static const char *const words[] = { "broke", "breaks", "breaking",
	    "broken", "fail", "fails", "failing", "failure", "failures",
	    "regress", "regression", "crash", "crashes", "flaky", "red",
	    "timeout", "timeouts", "hang", "hangs", "error", "errors", NULL };
	struct buf	 one;
	const char	*p = text, *e;
	char		*l;
	size_t		 i, n;

	if (text == NULL)
		return NULL;
	while (*p != '\0') {
		for (e = p; *e != '\0' && !(strchr(".!?", *e) != NULL &&
		    (e[1] == ' ' || e[1] == '\0')); e++)
			continue;
		n = (size_t)(e - p) + (*e != '\0');
		l = xstrndup(p, n);
		for (i = 0; l[i] != '\0'; i++)
			l[i] = (char)tolower((unsigned char)l[i]);
		for (i = 0; words[i] != NULL; i++) {
			const char *q = l;
			size_t w = strlen(words[i]);

			while ((q = strstr(q, words[i])) != NULL) {
				if ((q == l || !isalpha((unsigned char)q[-1])) &&
				    !isalpha((unsigned char)q[w]))
					break;
				q++;
			}
			if (q != NULL)
				break;
		}
		free(l);
		if (words[i] != NULL) {
			buf_init(&one);
			buf_append(&one, p, n);
			return buf_steal(&one);
		}
		p = e + (*e != '\0');
		while (*p == ' ')
			p++;
	}
	return NULL;
}

/* Whether what reads as an imperative ("add X", "escape ids"). */
static int
rollback_imperative(const char *subject, const char *what)
{
	char	*g;

	if (phrase_verbal(what))
		return 1;
	if ((g = tell_guess_past(subject, what)) == NULL)
		return 0;
	free(g);
	return 1;
}

/*
 * "NAME's change to add X" or "NAME's change, "X","; bot work is "an
 * automated change".
 */
static void
rollback_whose(struct buf *b, const struct draft_item *o)
{
	if (o->cl.bot)
		buf_puts(b, "An automated change");
	else
		buf_printf(b, "%s's change", o->name);
	if (rollback_imperative(o->c->subject, o->cl.what)) {
		buf_puts(b, " to ");
		phrase_lower_first(b, o->cl.what);
	} else if (o->cl.what[0] != '\0')
		buf_printf(b, ", \"%s\",", o->cl.what);
}

/*
 * "LEAD, which added X, was rolled back.": the lead is "An earlier
 * change", or "Alice's change from yesterday" for work an earlier episode
 * told.
 */
static void
rollback_earlier(struct buf *b, const char *lead, const char *what)
{
	char	*g;

	buf_puts(b, lead);
	if (what[0] == '\0') {
		buf_puts(b, " was rolled back.");
		return;
	}
	buf_puts(b, ", which ");
	if (phrase_verbal(what) && phrase_past(b, what))
		;
	else if ((g = tell_guess_past(NULL, what)) != NULL) {
		buf_puts(b, g);
		free(g);
	} else {
		b->len -= strlen(", which ");
		b->data[b->len] = '\0';
		buf_printf(b, ", \"%s\"", what);
	}
	buf_puts(b, ", was rolled back.");
}

/*
 * Who or what carried out revert r, and at whose request; bots unnamed.
 * owner is the reverted work's author, or NULL when unknown or a bot.
 */
static void
rollback_who(struct buf *b, const struct draft_item *r, const char *owner)
{
	const char	*req = r->c->revert.requested_by;
	char		*who = NULL;

	if (req != NULL && *req != '\0' && !classify_is_bot(req, NULL))
		who = text_clean(req);
	phrase_space(b);
	if (r->c->revert.automatic) {
		if (r->cl.bot)
			buf_puts(b, "It was an automatic revert.");
		else
			buf_printf(b, "It was an automatic revert, landed by "
			    "%s.", r->name);
	} else if (who != NULL && *who != '\0' &&
	    strcmp(who, r->name) != 0) {
		if (r->cl.bot)
			buf_printf(b, "%s asked for the revert, and a bot "
			    "carried it out.", who);
		else
			buf_printf(b, "%s reverted it at the request of %s.",
			    r->name, who);
	} else if (r->cl.bot)
		buf_puts(b, "A bot carried out the revert.");
	else if (owner != NULL && strcmp(owner, r->name) == 0)
		buf_printf(b, "%s reverted it themselves.", r->name);
	else
		buf_printf(b, "%s reverted it.", r->name);
	free(who);
}

/*
 * Whether why only restates a title (the revert's own, or the reverted
 * work's): then it is no reason.
 */
static int
rollback_restates(const char *why, const struct draft_item *r,
    const char *what)
{
	const char	*t[3] = { r->c->subject, r->cl.what, what };
	char		*nw, *nt;
	size_t		 i;
	int		 same = 0;

	nw = text_norm(why);
	for (i = 0; i < 3 && !same; i++) {
		if (t[i] == NULL)
			continue;
		nt = text_norm(t[i]);
		same = nw[0] == '\0' || (nt[0] != '\0' &&
		    (strstr(nt, nw) != NULL || strstr(nw, nt) != NULL));
		free(nt);
	}
	free(nw);
	return same;
}

/* Why revert r was made: the reason trailer, a sentence of breakage, or none. */
static void
rollback_why(struct buf *b, const struct draft_item *r, const char *what)
{
	char	*why = NULL, *clean;
	size_t	 n;

	phrase_space(b);
	if (r->c->revert.reason != NULL && *r->c->revert.reason != '\0' &&
	    !r->c->revert.automatic)
		why = xstrdup(r->c->revert.reason);
	else if (draft_prose(r)[0] != '\0') {
		struct buf t;

		buf_init(&t);
		prose_sentences(&t, draft_prose(r), 1);
		why = buf_steal(&t);
	} else if ((why = rollback_breakage(r->c->body)) != NULL &&
	    strncmp(why, "This reverts", 12) == 0) {
		free(why);
		why = NULL;
	}
	if (why == NULL) {
		if (!r->c->revert.automatic)
			buf_puts(b, "No reason was given.");
		return;
	}
	clean = text_clean(why);
	n = strlen(clean);
	while (n > 0 && strchr(". ", clean[n - 1]) != NULL)
		clean[--n] = '\0';
	if (n == 0 || rollback_restates(clean, r, what))
		buf_puts(b, "No reason was given.");
	else {
		buf_puts(b, "The reason given: \"");
		phrase_cap(b, clean);
		buf_puts(b, ".\"");
	}
	free(clean);
	free(why);
}

/* One revert told as a story: whose work, what it did, who, why, and after. */
static void
rollback_story(struct draft *d, struct buf *b, struct draft_item *r,
    struct draft_shas *shas)
{
	const struct episode_work *w;
	struct draft_item	*o = NULL, *l;
	struct buf		 when, lead;
	const char		*owner = NULL;
	char			*what;
	long			 orig;
	int			 on;

	if ((orig = rollback_reverted(d, r)) >= 0) {
		o = &d->items[orig];
		o->told = 1;
		draft_shas_add(d, shas, o);
		phrase_space(b);
		rollback_whose(b, o);
		buf_puts(b, o->idx < r->idx ? " landed and was rolled back "
		    "the same day." : " was rolled back.");
		if (draft_prose(o)[0] != '\0') {
			phrase_space(b);
			if (strncmp(draft_prose(o), "It ", 3) != 0)
				buf_puts(b, "Its message said: ");
			prose_sentences(b, draft_prose(o), 1);
		}
		what = xstrdup(o->cl.what);
		if (!o->cl.bot)
			owner = o->name;
	} else if ((w = rollback_archived(d, r->c->revert.reverted_sha,
	    &when, &on)) != NULL) {
		/* work an earlier episode told: whose it was, and when */
		what = w->what != NULL && w->what[0] != '\0' ?
		    xstrdup(w->what) : rollback_reverted_what(r);
		buf_init(&lead);
		if (w->bot)
			buf_puts(&lead, "An automated change");
		else if (w->name == NULL || w->name[0] == '\0')
			buf_puts(&lead, "A change");
		else {
			buf_printf(&lead, "%s's change", w->name);
			owner = w->name;
		}
		buf_printf(&lead, " from %s", buf_str(&when));
		phrase_space(b);
		rollback_earlier(b, buf_str(&lead), what);
		buf_free(&lead);
		buf_free(&when);
	} else {
		what = rollback_reverted_what(r);
		phrase_space(b);
		rollback_earlier(b, "An earlier change", what);
	}
	rollback_who(b, r, owner);
	rollback_why(b, r, what);
	free(what);

	/* and whether it came back */
	if ((l = rollback_reland_of(d, r, orig)) != NULL) {
		l->told = 1;
		draft_shas_add(d, shas, l);
		phrase_space(b);
		if (l->idx > r->idx)
			buf_printf(b, "The story ends in recovery, though: %s "
			    "re-landed it later the same day.", l->name);
		else
			buf_printf(b, "That came after %s had re-landed the "
			    "work earlier in the day.", l->name);
	}
}

/*
 * ", which had been rolled back yesterday." for a re-land of work whose
 * revert an earlier episode told; "before today" when the archive has
 * no such revert.
 */
static void
rollback_relanded_when(const struct draft *d, struct buf *b,
    const struct draft_item *l)
{
	const struct episode_work	*w;
	struct buf			 when;
	int				 on;

	w = rollback_archived(d, l->c->revert.reverted_sha, &when, &on);
	if (w == NULL || w->reverts == NULL) {
		if (w != NULL)
			buf_free(&when);
		buf_puts(b, ", which had been rolled back before today.");
		return;
	}
	buf_printf(b, ", which had been rolled back %s%s.", on ? "on " : "",
	    buf_str(&when));
	buf_free(&when);
}

void
rollback_segment(struct draft *d)
{
	static const char *first[] = {
		"Let's start with the rollbacks.",
		"First, the changes that were backed out.",
		"We'll begin with what got rolled back.",
	};
	static const char *one[] = {
		"Let's start with the one rollback of the day.",
		"First, a rollback.",
		"We'll begin with what got rolled back.",
	};
	static const char *next[] = {
		"There was another one.",
		"One more rollback to cover.",
		"And a second story of the same kind.",
	};
	static const char *relead[] = {
		"Some work came back, too.",
		"One returning change to mention.",
		"And a re-land.",
	};
	struct draft_shas	  shas = { NULL, 0 };
	struct draft_item	**rest;
	struct buf		  b;
	const char		 *lead;
	size_t			  i, told = 0, nrest = 0, nrel = 0;

	buf_init(&b);
	rest = xcalloc(d->nitems + 1, sizeof *rest);
	for (i = 0; i < d->nitems; i++) {
		struct draft_item *r = &d->items[i];

		if (r->cl.kind != CLASSIFY_REVERT || r->told)
			continue;
		r->told = 1;
		draft_shas_add(d, &shas, r);
		if (told == DRAFT_MAX_ROLLBACKS) {
			rest[nrest++] = r;
			continue;
		}
		phrase_para(&b);
		if ((lead = told > 0 ? DRAFT_STOCK(d, 3 + (unsigned)told,
		    next) : d->ep->stats.reverts == 1 ? DRAFT_STOCK(d, 2, one) :
		    DRAFT_STOCK(d, 2, first)) != NULL)
			buf_puts(&b, lead);
		told++;
		rollback_story(d, &b, r, &shas);
	}
	if (nrest > 0) {
		phrase_para(&b);
		spoken_count_cap(&b, (long long)nrest, "more revert",
		    "more reverts");
		buf_puts(&b, " landed as well, from ");
		select_names(&b, rest, nrest);
		buf_putc(&b, '.');
		for (i = 0; i < nrest; i++) {
			long orig = rollback_reverted(d, rest[i]);

			if (orig >= 0 && !d->items[orig].told) {
				d->items[orig].told = 1;
				draft_shas_add(d, &shas, &d->items[orig]);
			}
		}
	}

	/* re-lands whose revert isn't in the day */
	nrest = 0;
	for (i = 0; i < d->nitems; i++) {
		struct draft_item	*l = &d->items[i];
		char			*what;
		struct buf		 s;

		if (l->cl.kind != CLASSIFY_RELAND || l->told)
			continue;
		l->told = 1;
		draft_shas_add(d, &shas, l);
		if (nrel == DRAFT_MAX_ROLLBACKS) {
			rest[nrest++] = l;
			continue;
		}
		phrase_para(&b);
		if (told == 0 && nrel == 0 &&
		    (lead = DRAFT_STOCK(d, 4, relead)) != NULL) {
			buf_puts(&b, lead);
			buf_putc(&b, ' ');
		}
		nrel++;
		what = rollback_reverted_what(l);
		buf_init(&s);
		tell_area_lead(&s, l);
		buf_printf(&s, "%s re-landed ", l->name);
		if (phrase_verbal(what)) {
			buf_puts(&s, "the work to ");
			phrase_lower_first(&s, what);
		} else
			buf_printf(&s, "\"%s\"", what);
		rollback_relanded_when(d, &s, l);
		if (strncmp(s.data, l->name, strlen(l->name)) != 0)
			phrase_cap(&b, buf_str(&s));
		else
			buf_puts(&b, buf_str(&s));
		buf_free(&s);
		free(what);
		if (draft_prose(l)[0] != '\0' && strncmp(draft_prose(l), "It ",
		    3) == 0) {
			phrase_space(&b);
			prose_sentences(&b, draft_prose(l), 1);
		}
	}
	if (nrest > 0) {
		phrase_para(&b);
		spoken_count_cap(&b, (long long)nrest, "more re-land",
		    "more re-lands");
		buf_puts(&b, " came from ");
		select_names(&b, rest, nrest);
		buf_putc(&b, '.');
	}
	free(rest);
	if (b.len > 0)
		draft_segment(d, "rollbacks", &b, &shas);
	else
		buf_free(&b);
}
