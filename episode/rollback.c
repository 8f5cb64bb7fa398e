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

#define ROLLBACK_SITTING	900	/* seconds apart, at most, for reverts
					   told as one sitting */
#define ROLLBACK_SITTING_MAX	8	/* parts of one sitting told */

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
 * automated change"; named: its author was just said, "The change to".
 */
static void
rollback_whose(struct buf *b, const struct draft_item *o, int named)
{
	if (named)
		buf_puts(b, "The change");
	else if (o->cl.bot)
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

/*
 * Why revert r was made: the reason trailer, a sentence of breakage, or
 * none. quiet: say nothing when none was given (a sitting of reverts says
 * that once). Returns whether a reason was said.
 */
static int
rollback_why(struct buf *b, const struct draft_item *r, const char *what,
    int quiet)
{
	char	*why = NULL, *clean;
	size_t	 n, at = b->len;
	int	 said = 0;

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
		if (!r->c->revert.automatic && !quiet)
			buf_puts(b, "No reason was given.");
	} else {
		clean = text_clean(why);
		n = strlen(clean);
		while (n > 0 && strchr(". ", clean[n - 1]) != NULL)
			clean[--n] = '\0';
		if (n == 0 || rollback_restates(clean, r, what)) {
			if (!quiet)
				buf_puts(b, "No reason was given.");
		} else {
			buf_puts(b, "The reason given: \"");
			phrase_cap(b, clean);
			buf_puts(b, ".\"");
			said = 1;
		}
		free(clean);
		free(why);
	}
	if (b->len == at + 1 && b->data[at] == ' ') {
		/* nothing said after the space */
		b->len = at;
		b->data[at] = '\0';
	}
	return said;
}

/*
 * Whether revert r's subject is a sentence of its own whose verb is the
 * revert ("rt: revert #7757 to fix regression in spawn_blocking"), not a
 * wrapper around the reverted work's title ('Revert "X"', "revert: X"):
 * its what says what the reverter did, not what the reverted work did.
 */
static int
rollback_own_sentence(const struct draft_item *r)
{
	static const char *const verbs[] = { "revert ", "reverts ",
	    "reverting ", "back out ", "backs out ", "roll back ",
	    "rolls back ", NULL };
	const char	*what = r->cl.what, *s = r->c->revert.reverted_subject;
	size_t		 i;
	char		*peeled;

	if (s != NULL && *s != '\0')
		return 0;
	if ((peeled = rollback_peel(r->c->subject)) != NULL) {
		free(peeled);
		return 0;
	}
	for (i = 0; verbs[i] != NULL; i++)
		if (strncasecmp(what, verbs[i], strlen(verbs[i])) == 0 &&
		    what[strlen(verbs[i])] != '\0')
			return 1;
	return 0;
}

/*
 * "Eliza Weisman reverted #7757 to fix regression in spawn_blocking.":
 * a revert whose own subject says what it did is the reverter's act of
 * the day (often a fix), told with its own verb. Returns 0 when its
 * subject is no such sentence.
 */
static int
rollback_own(struct buf *b, const struct draft_item *r)
{
	struct buf	s;

	if (!rollback_own_sentence(r))
		return 0;
	buf_init(&s);
	if (!phrase_past(&s, r->cl.what)) {
		buf_free(&s);
		return 0;
	}
	phrase_space(b);
	if (r->cl.bot)
		buf_puts(b, "A bot ");
	else
		buf_printf(b, "%s ", r->name);
	buf_puts(b, buf_str(&s));
	buf_putc(b, '.');
	buf_free(&s);
	return 1;
}

/*
 * One revert told as a story: whose work, what it did, who, why, and
 * after. part is 0 for a revert told alone; 1, 2, ... for the parts of a
 * sitting (rollback_sitting), whose reverter is said before them and
 * whose reasons are said only when given; prev is the author of the work
 * the part before took out, if known. Returns whether a reason was.
 */
static int
rollback_story(struct draft *d, struct buf *b, struct draft_item *r,
    struct draft_shas *shas, int part, const char *prev)
{
	const struct episode_work *w;
	struct draft_item	*o = NULL, *l;
	struct buf		 when, lead;
	const char		*owner = NULL;
	char			*what;
	long			 orig;
	int			 on, own = 0, said;

	if ((orig = rollback_reverted(d, r)) >= 0) {
		o = &d->items[orig];
		o->told = 1;
		draft_shas_add(d, shas, o);
		phrase_space(b);
		rollback_whose(b, o, part > 1 && prev != NULL && !o->cl.bot &&
		    strcmp(prev, o->name) == 0);
		if (part > 1)
			buf_puts(b, " went the same way.");
		else
			buf_puts(b, o->idx < r->idx ? " landed and was rolled "
			    "back the same day." : " was rolled back.");
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
	} else if (rollback_own(b, r)) {
		/* who did it is said; only an automatic or asked-for one adds */
		what = xstrdup(r->cl.what);
		own = 1;
	} else {
		what = rollback_reverted_what(r);
		phrase_space(b);
		rollback_earlier(b, "An earlier change", what);
	}
	if (part == 0 && (!own || r->c->revert.automatic ||
	    (r->c->revert.requested_by != NULL &&
	    *r->c->revert.requested_by != '\0')))
		rollback_who(b, r, owner);
	said = rollback_why(b, r, what, part > 0);
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
	return said;
}

/* The reverted work's author as said aloud, or NULL (a bot, or unknown). */
static const char *
rollback_owner(const struct draft *d, const struct draft_item *r)
{
	const struct episode_work	*w;
	long				 orig;

	if ((orig = rollback_reverted(d, r)) >= 0)
		return d->items[orig].cl.bot ? NULL : d->items[orig].name;
	if (d->opts != NULL && (w = earlier_find(d->opts->earlier,
	    d->opts->nearlier, r->c->revert.reverted_sha)) != NULL &&
	    !w->bot && w->name != NULL && w->name[0] != '\0')
		return w->name;
	return NULL;
}

/*
 * Whether the titles of the work two reverts took out share a word of
 * four letters or more that names a thing ("Enable ROCM in CI", "Skip
 * Unit Tests for ROCm CI"): the words every title has are no area.
 */
static int
rollback_same_thing(const struct draft_item *a, const struct draft_item *b)
{
	static const char *const common[] = { "with", "from", "into", "that",
	    "this", "when", "then", "than", "some", "more", "less", "make",
	    "makes", "enable", "disable", "skip", "test", "tests", "unit",
	    "support", "code", "change", "changes", "update", "revert",
	    "reland", "reapply", "remove", "fix", "fixes", "instead",
	    "only", "also", "should", "default", NULL };
	char	*wa, *wb, *p, *save;
	size_t	 i;
	int	 same = 0;

	wa = rollback_reverted_what(a);
	wb = rollback_reverted_what(b);
	for (p = wa; *p != '\0'; p++)
		*p = isalnum((unsigned char)*p) ? (char)tolower(
		    (unsigned char)*p) : ' ';
	for (p = wb; *p != '\0'; p++)
		*p = isalnum((unsigned char)*p) ? (char)tolower(
		    (unsigned char)*p) : ' ';
	for (p = strtok_r(wa, " ", &save); p != NULL && !same;
	    p = strtok_r(NULL, " ", &save)) {
		const char *q = wb;
		size_t n = strlen(p);

		if (n < 4 || isdigit((unsigned char)p[0]))
			continue;
		for (i = 0; common[i] != NULL; i++)
			if (strcmp(p, common[i]) == 0)
				break;
		if (common[i] != NULL)
			continue;
		while ((q = strstr(q, p)) != NULL) {
			if ((q == wb || q[-1] == ' ') &&
			    (q[n] == ' ' || q[n] == '\0')) {
				same = 1;
				break;
			}
			q++;
		}
	}
	free(wa);
	free(wb);
	return same;
}

/*
 * Whether revert b belongs to the sitting revert a opened: the same
 * person reverting, minutes apart, work of one author or of one area
 * (the same area in their titles, or titles naming the same thing). Reverts a bot makes
 * for many people are told apart unless their work is of one area.
 */
static int
rollback_together(const struct draft *d, const struct draft_item *a,
    const struct draft_item *b)
{
	const char	*oa, *ob;
	long		 dt = (long)(b->c->timestamp - a->c->timestamp);

	if (b->cl.kind != CLASSIFY_REVERT || b->told ||
	    strcmp(a->name, b->name) != 0 || dt > ROLLBACK_SITTING ||
	    dt < -ROLLBACK_SITTING)
		return 0;
	if (rollback_own_sentence(a) || rollback_own_sentence(b))
		return 0;
	/* asked for by different people, or one automatic: apart */
	if (a->c->revert.automatic != b->c->revert.automatic ||
	    (a->c->revert.requested_by != NULL &&
	    b->c->revert.requested_by != NULL &&
	    strcmp(a->c->revert.requested_by, b->c->revert.requested_by) !=
	    0))
		return 0;
	oa = rollback_owner(d, a);
	ob = rollback_owner(d, b);
	if (oa != NULL && ob != NULL && strcmp(oa, ob) == 0)
		return 1;
	/* an area the files give ("src") is every change's */
	if (a->cl.area != NULL && b->cl.area != NULL && a->cl.area_titled &&
	    b->cl.area_titled && strcasecmp(a->cl.area, b->cl.area) == 0)
		return 1;
	return rollback_same_thing(a, b);
}

/*
 * "andrewor14 reverted two related changes within a minute of each
 * other.": the reverts of one sitting told as one story, each part's
 * work said after, the reverter and a missing reason said once.
 */
static void
rollback_sitting(struct draft *d, struct buf *b, struct draft_item **v,
    size_t n, struct draft_shas *shas)
{
	time_t		 lo = v[0]->c->timestamp, hi = lo;
	const char	*req;
	char		*who = NULL;
	long		 mins;
	size_t		 i;
	int		 said = 0, asked;

	for (i = 1; i < n; i++) {
		if (v[i]->c->timestamp < lo)
			lo = v[i]->c->timestamp;
		if (v[i]->c->timestamp > hi)
			hi = v[i]->c->timestamp;
	}
	req = v[0]->c->revert.requested_by;
	if (req != NULL && *req != '\0' && !classify_is_bot(req, NULL))
		who = text_clean(req);
	phrase_space(b);
	if (v[0]->c->revert.automatic) {
		spoken_count_cap(b, (long long)n, "related change",
		    "related changes");
		buf_puts(b, " were reverted automatically,");
	} else {
		asked = who != NULL && *who != '\0' && strcmp(who,
		    v[0]->name) != 0;
		if (asked)
			buf_printf(b, "At the request of %s, ", who);
		if (v[0]->cl.bot)
			buf_puts(b, asked ? "a bot reverted " :
			    "A bot reverted ");
		else
			buf_printf(b, "%s reverted ", v[0]->name);
		spoken_count(b, (long long)n, "related change",
		    "related changes");
	}
	free(who);
	mins = (long)(hi - lo + 59) / 60;
	if (mins <= 1)
		buf_puts(b, " within a minute of each other.");
	else {
		buf_puts(b, " within ");
		spoken_count(b, mins, "minute", "minutes");
		buf_putc(b, '.');
	}
	for (i = 0; i < n; i++)
		said |= rollback_story(d, b, v[i], shas, (int)i + 1,
		    i > 0 ? rollback_owner(d, v[i - 1]) : NULL);
	if (!said && !v[0]->c->revert.automatic) {
		phrase_space(b);
		buf_puts(b, "No reason was given.");
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
	/* (after the stories the day's ranking put first) */
	static const char *later[] = {
		"Now to the rollbacks.",
		"Then, the changes that were backed out.",
		"On to what got rolled back.",
	};
	static const char *later_one[] = {
		"Now to the one rollback of the day.",
		"Then, a rollback.",
		"On to what got rolled back.",
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
	struct draft_item	**rest, *sit[ROLLBACK_SITTING_MAX];
	struct buf		  b;
	const char		 *lead;
	size_t			  i, j, nsit, told = 0, nrest = 0, nrel = 0;

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
		    next) : draft_told_story(d) ? (d->ep->stats.reverts == 1 ?
		    DRAFT_STOCK(d, 2, later_one) : DRAFT_STOCK(d, 2, later)) :
		    d->ep->stats.reverts == 1 ? DRAFT_STOCK(d, 2, one) :
		    DRAFT_STOCK(d, 2, first)) != NULL)
			buf_puts(&b, lead);
		told++;
		/* the reverts of the same sitting are this story's parts */
		sit[0] = r;
		nsit = 1;
		for (j = i + 1; j < d->nitems && nsit < ROLLBACK_SITTING_MAX;
		    j++)
			if (rollback_together(d, r, &d->items[j])) {
				sit[nsit++] = &d->items[j];
				d->items[j].told = 1;
				draft_shas_add(d, &shas, &d->items[j]);
			}
		if (nsit > 1)
			rollback_sitting(d, &b, sit, nsit, &shas);
		else
			rollback_story(d, &b, r, &shas, 0, NULL);
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
