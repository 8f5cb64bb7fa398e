/*
 * Telling one change: "NAME fixed the X", its series, figures and prose; the highlights, fixes and a quiet day's one commit.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "classify.h"
#include "draft_int.h"
#include "episode.h"
#include "phrase.h"
#include "prose.h"
#include "spoken.h"
#include "strlist.h"
#include "text.h"
#include "words.h"
#include "xmalloc.h"

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
 * Whether subject had a "type(scope): " or "scope: " prefix before what;
 * a NULL subject (what was peeled from one) counts as prefixed.
 */
static int
tell_prefixed(const char *subject, const char *what)
{
	const char	*colon, *p;
	size_t		 n = phrase_first_word(what);

	if (subject == NULL)
		return 1;
	if ((colon = strstr(subject, ": ")) == NULL || colon - subject > 40)
		return 0;
	/* what's first word opens the rest (past tags cleaned away) */
	p = colon + 2;
	while (*p == ' ' || *p == '`')
		p++;
	return strncmp(p, what, n) == 0;
}

/*
 * The past tense of an imperative's first word the verb table doesn't
 * know, by the regular rule ("invert" -> "inverted", "escape" ->
 * "escaped"), when the subject had a prefix (conventional commits and
 * "scope: " subjects are imperative by convention) and the word looks
 * like a verb; NULL otherwise (new).
 */
char *
tell_guess_past(const char *subject, const char *what)
{
	static const char *const notverbs[] = { "miscellaneous", "misc",
	    "various", "minor", "small", "more", "new", "initial", "better",
	    "faster", "proper", "release", "version", "docs", "the", "a",
	    "an", "all", "some", "another", "typo", NULL };
	static const char *const linking[] = { "is", "are", "was", "were",
	    "has", "have", "had", "will", "can", "could", "should", "must",
	    "does", "did", "now", NULL };
	static const char *const endings[] = { "s", "ing", "ly", "ous",
	    "al", "ion", "ity", "ment", "ness", "ed", "er", "ive", "ic",
	    "ent", "ant", "ance", "ence", "ism", "ist", "or", "ship", NULL };
	static const char *const nouns[] = { "unit", "source", "seed",
	    "init", "also", "how", "why", "what", "when", "where", "just",
	    "only", "still", "then", "now", "here", "there", "user", "file",
	    "module", "package", "page", "node", "note", "example", "model",
	    "field", "value", "option", "key", "name", "title", "table",
	    "list", "line", "path", "word", "code", "data", "type", "default",
	    "config", "protocol", "server", "client", "doc", NULL };
	size_t		 n = phrase_first_word(what), i, l;
	struct buf	 b;
	char		*past;

	if (n < 3 || !tell_prefixed(subject, what))
		return NULL;
	/* (not "feat: Python bindings": a capital may be a name) */
	for (i = 0; i < n; i++) {
		if (!islower((unsigned char)what[i]))
			return NULL;
	}
	if (what[n] != ' ' && what[n] != '\0')
		return NULL;
	if (phrase_word_in(what, n, notverbs))
		return NULL;
	/* "yaml is poo": the word is the subject of a verb after it */
	if (what[n] == ' ' && phrase_word_in(what + n + 1,
	    phrase_first_word(what + n + 1), linking))
		return NULL;
	for (i = 0; endings[i] != NULL; i++) {
		l = strlen(endings[i]);
		if (n > l && strncmp(what + n - l, endings[i], l) == 0)
			return NULL;
	}
	/*
	 * a word that opens subjects as a noun or an adverb whose "-ed" is
	 * another word ("unit test X" is no "united", "source, ..." no
	 * "sourced"); others fail the word list below ("alsoed", "howed")
	 */
	if (phrase_word_in(what, n, nouns))
		return NULL;
	/* the past must be an English word: "inited", "protocoled" are not */
	if ((past = phrase_past_regular(what, n)) == NULL)
		return NULL;
	buf_init(&b);
	buf_puts(&b, past);
	free(past);
	buf_puts(&b, what + n);
	return buf_steal(&b);
}

/*
 * " in AREA" after a phrase, when the title named an area not in what;
 * unless any, only after a short one with no "in" of its own ("improved
 * readability in cf-setup").
 */
static void
tell_area_tail(struct buf *b, const struct draft_item *it, int any)
{
	const char	*p;
	int		 words = 1;

	for (p = it->cl.what; *p != '\0'; p++)
		words += *p == ' ';
	if (!any && (words > 4 || strstr(it->cl.what, " in ") != NULL))
		return;
	if (it->cl.area != NULL && it->cl.area_titled &&
	    !phrase_contains(it->cl.what, it->cl.area))
		buf_printf(b, " in %s", it->cl.area);
}

/*
 * "made miscellaneous tidy-ups" for "tidy-up: miscellaneous": an area
 * that is itself a noun of changes, and a one-word what describing them.
 */
static int
tell_noun_area(struct buf *b, const struct draft_item *it)
{
	static const char *const nouns[] = { "tidy-up", "tidyup", "cleanup",
	    "clean-up", "tweak", "fix", "update", "typo", "change", NULL };
	const char	*a = it->cl.area, *w = it->cl.what;

	if (a == NULL || !it->cl.area_titled || w[0] == '\0' ||
	    strchr(w, ' ') != NULL ||
	    !phrase_word_in(a, strlen(a), nouns))
		return 0;
	buf_puts(b, "made ");
	phrase_lower_first(b, w);
	buf_printf(b, " %s%s", a, strcmp(a, "fix") == 0 ? "es" : "s");
	return 1;
}

/* Whether a word of four letters or more of phrase is in s. */
static int
tell_shares_word(const char *phrase, const char *s)
{
	const char	*p;
	char		 w[32];
	size_t		 n;

	for (p = phrase; *p != '\0'; p += n) {
		p += strspn(p, " ");
		n = strcspn(p, " ");
		if (n >= 4 && n < sizeof w) {
			memcpy(w, p, n);
			w[n] = '\0';
			if (strcasestr(s, w) != NULL)
				return 1;
		}
	}
	return 0;
}

/*
 * A change in the author's own words, reported: "Daniel Stenberg's fix in
 * setopt, \"CURLOPT_MAXCONNECTS set to 0 restores default value\"", or
 * without the name "made a fix in setopt, \"...\"". What no sentence of
 * ours can say truly and in English is said this way.
 */
static void
tell_reported(struct buf *b, const struct draft_item *it, const char *what,
    int with_name)
{
	static const char *const nouns[CLASSIFY_NKINDS] = {
		[CLASSIFY_REVERT] = "revert",
		[CLASSIFY_RELAND] = "re-land",
		[CLASSIFY_FEATURE] = "feature",
		[CLASSIFY_PERF] = "speed-up",
		[CLASSIFY_FIX] = "fix",
		[CLASSIFY_DOCS] = "docs change",
		[CLASSIFY_TESTS] = "test change",
		[CLASSIFY_BUILD] = "build change",
		[CLASSIFY_DEPS] = "dependency update",
		[CLASSIFY_CLEANUP] = "cleanup",
		[CLASSIFY_CHANGE] = "change",
	};
	const char	*noun = nouns[it->cl.kind];

	what += strspn(what, " ");
	/* a revert and a re-land are their author's acts on a change */
	if (it->cl.kind == CLASSIFY_REVERT || it->cl.kind == CLASSIFY_RELAND) {
		if (with_name)
			buf_printf(b, "%s ", it->name);
		buf_puts(b, it->cl.kind == CLASSIFY_REVERT ?
		    "reverted a change" : "brought back a change");
		noun = "change";
	} else if (with_name)
		buf_printf(b, "%s's %s", it->name, noun);
	else
		buf_printf(b, "made %s %s", phrase_a(noun), noun);
	/* not "docs change in docs update" */
	if (it->cl.area != NULL && it->cl.area_titled &&
	    !tell_shares_word(noun, it->cl.area) &&
	    !phrase_contains(what, it->cl.area))
		buf_printf(b, " in %s", it->cl.area);
	if (what[0] != '\0') {
		buf_puts(b, ", \"");
		phrase_lower_first(b, what);
		buf_putc(b, '"');
	}
}

/*
 * Whether the text a word of said came from: the change's subject, its
 * message, its area.
 */
static int
tell_from_text(const struct draft_item *it, const char *w, size_t n)
{
	char	*word;
	int	 in;

	word = xstrndup(w, n);
	in = phrase_contains(it->cl.subject, word) ||
	    (it->c != NULL && (phrase_contains(it->c->subject, word) ||
	    phrase_contains(it->c->body, word))) ||
	    phrase_contains(it->cl.area, word) ||
	    phrase_contains(it->cl.what, word);
	free(word);
	return in;
}

/*
 * Whether said glues a second clause to ours with nothing to join them:
 * a "is", "are", "was" or "were" with no word before it that opens a
 * clause ("that", "when", "so", "sure" of "made sure", ...). curl
 * 2025-10-06 said "Daniel Stenberg made it default timeout per block is
 * now 15 seconds" for "tftp: default timeout per block is now 15
 * seconds", a subject that is a sentence of its own.
 */
static int
tell_two_clauses(const char *said)
{
	static const char *const be[] = { "is", "are", "was", "were", NULL };
	static const char *const joins[] = { "that", "which", "who", "when",
	    "whenever", "where", "while", "if", "unless", "until", "since",
	    "because", "as", "so", "and", "or", "but", "whether", "once",
	    "after", "before", "though", "although", "sure", "ensured",
	    "checked", "verified", "asserted", "noted", "said", "documented",
	    "clarified", "explained", "stated", "what", "how", "why", "than",
	    NULL };
	const char	*p;
	size_t		 n;

	for (p = said; *p != '\0'; p += n) {
		p += strspn(p, " ,;:\"'`()");
		n = strcspn(p, " ,;:\"'`()");
		if (n == 0)
			break;
		if (phrase_word_in(p, n, joins))
			return 0;
		if (phrase_word_in(p, n, be))
			return 1;
	}
	return 0;
}

/*
 * The one check a sentence of ours passes before it is said (said: what
 * follows the name): it opens with a verb in the past tense, the author's
 * act ("fixed", "made it ...", "released"); every word of it is English
 * (the word list) or the day's own text; it does not put the code's
 * behaviour on the author ("ignored CRYPTO frames": code is not a
 * person). A sentence that fails is told in reported form instead
 * (tell_reported).
 */
static int
tell_said_ok(const struct draft_item *it, const char *what, const char *said)
{
	const char	*p;
	size_t		 n, i;
	int		 alpha;

	n = strcspn(said, " ");
	if (n == 0 || (!phrase_is_past(said, n) && !(n > 3 &&
	    strncmp(said + n - 2, "ed", 2) == 0 && words_known(said, n))))
		return 0;
	if (phrase_behaviour(what) == PHRASE_BEHAVIOUR_QUOTE ||
	    (phrase_behaviour(what) == PHRASE_BEHAVIOUR_MADE &&
	    strncmp(said, "made it ", 8) != 0))
		return 0;
	if (tell_two_clauses(said))
		return 0;
	for (p = said; *p != '\0'; p += n) {
		p += strspn(p, " ,.;:!?()\"'`");
		n = strcspn(p, " ,.;:!?()\"'`");
		if (n == 0)
			continue;
		for (i = 0, alpha = 1; i < n; i++)
			if (!isalpha((unsigned char)p[i]) && p[i] != '-')
				alpha = 0;
		if (alpha && words_known(p, n))
			continue;
		/* a name, a symbol, a number: the day's own */
		if (!tell_from_text(it, p, n))
			return 0;
	}
	return 1;
}

/*
 * A what that is a package and its version alone ("path-to-regexp
 * 0.1.10", from "path-to-regexp@0.1.10"): "updated path-to-regexp to
 * 0.1.10". 0 (nothing appended) for anything else.
 */
static int
tell_package(struct buf *b, const char *w)
{
	size_t	n = strcspn(w, " "), v;

	if (n == 0 || w[n] != ' ' || !isdigit((unsigned char)w[n + 1]))
		return 0;
	v = strspn(w + n + 1, "0123456789.x*");
	if (w[n + 1 + v] != '\0' || strchr(w + n + 1, '.') == NULL)
		return 0;
	buf_printf(b, "updated %.*s to %s", (int)n, w, w + n + 1);
	return 1;
}

/*
 * What a change did, said as "NAME <verb> ...": "fixed the X", "released
 * version 8.1.1", "synced RELEASE-NOTES" for "RELEASE-NOTES: synced",
 * "made fixes to X" for a noun of changes, "improved readability in
 * cf-setup" for a verb with no object, "made a fix in setopt: X" when the
 * subject is no verb phrase. with_name 0 drops NAME.
 */
static int
tell_say(struct buf *b, const struct draft_item *it)
{
	static const char *const added[] = { "initial", "experimental",
	    "basic", "preliminary", "partial", "support", NULL };
	const char	*w = it->cl.what, *area = it->cl.area;
	char		*pkg, *ver, *guess;
	size_t		 n = strlen(w);

	if (quote_release(it->cl.subject, &pkg, &ver)) {
		if (pkg != NULL)
			buf_printf(b, "released %s version %s", pkg, ver);
		else
			buf_printf(b, "released version %s", ver);
		free(pkg);
		free(ver);
		return 0;
	}
	/* "path-to-regexp 0.1.10", a dependency at its version */
	if (tell_package(b, w))
		return 0;
	/* "support for rustdoc mergeable cross-crate info" is a noun, not
	   the verb: "added support for ...", never "supported for ..." */
	if (strncasecmp(w, "support for ", 12) == 0) {
		buf_puts(b, "added ");
		phrase_lower_first(b, w);
		return 0;
	}
	/* "return undefined for X": the code does it, not its author */
	if (phrase_behaviour(w) == PHRASE_BEHAVIOUR_MADE) {
		buf_puts(b, "made it ");
		phrase_lower_first(b, w);
		/* (a verb with an object has its area led: tell_area_lead) */
		if (!phrase_verbal(w))
			tell_area_tail(b, it, 0);
		return 0;
	}
	/* (PHRASE_BEHAVIOUR_QUOTE: the check below turns it down) */
	if (phrase_verbal(w) && phrase_past(b, w))
		return 0;
	/* "don't render X": "made sure not to render X" */
	if (strncasecmp(w, "don't ", 6) == 0 || strncasecmp(w, "do not ",
	    7) == 0) {
		buf_printf(b, "made sure not to %s", w + (w[2] == ' ' ? 7 : 6));
		return 0;
	}
	/* "fixed dynamic table overflow": in the past already */
	if (phrase_is_past(w, phrase_first_word(w)) && w[phrase_first_word(w)]
	    == ' ') {
		phrase_lower_first(b, w);
		tell_area_tail(b, it, 0);
		return 0;
	}
	if (area != NULL && it->cl.area_titled && n > 2 &&
	    strcmp(w + n - 2, "ed") == 0 && phrase_plain(w, n)) {
		buf_printf(b, "%s %s", w, area);
		return 0;
	}
	if (tell_noun_start(w)) {
		buf_puts(b, "made ");
		phrase_lower_first(b, w);
		return 0;
	}
	if (tell_noun_area(b, it))
		return 0;
	if (phrase_past(b, w)) {
		tell_area_tail(b, it, 0);
		return 0;
	}
	/* "emulated mode test fix": a noun phrase naming its fix */
	if (n > 4 && (strcmp(w + n - 4, " fix") == 0 ||
	    (n > 6 && strcmp(w + n - 6, " fixes") == 0)) &&
	    strchr(w, ':') == NULL && strchr(w, '"') == NULL) {
		buf_puts(b, "fixed the ");
		phrase_lower_first(b, w);
		b->len -= w[n - 1] == 's' ? 6 : 4;
		b->data[b->len] = '\0';
		return 0;
	}
	/* "Initial support for Python 3.15": support was added */
	if (phrase_word_in(w, phrase_first_word(w), added) &&
	    w[phrase_first_word(w)] == ' ' && (strncasecmp(w, "support ",
	    8) == 0 || strncasecmp(w + phrase_first_word(w), " support ",
	    9) == 0)) {
		buf_puts(b, "added ");
		phrase_lower_first(b, w);
		return 0;
	}
	/* "Cleanup some more tests": the noun for the verb */
	if ((strncasecmp(w, "cleanup ", 8) == 0 ||
	    strncasecmp(w, "clean-up ", 9) == 0)) {
		buf_printf(b, "cleaned up %s", w + (w[5] == '-' ? 9 : 8));
		return 0;
	}
	if (!it->named_first &&
	    (guess = tell_guess_past(it->cl.subject, w)) != NULL) {
		buf_puts(b, guess);
		free(guess);
		tell_area_tail(b, it, 0);
		return 0;
	}
	return 1;
}

/*
 * What a change did, as "NAME <verb> ..." when a sentence of ours can say
 * it and passes the check (tell_said_ok), else in the author's words
 * (tell_reported); 1 then. The author's words are said aloud first ("w/o"
 * as "without").
 */
int
tell_did_how(struct buf *b, const struct draft_item *it, int with_name)
{
	struct draft_item	 said_it = *it;
	struct buf		 said;
	char			*what;
	int			 reported;

	what = phrase_unabbreviate(it->cl.what);
	said_it.cl.what = what;
	buf_init(&said);
	reported = tell_say(&said, &said_it) != 0 ||
	    !tell_said_ok(&said_it, what, buf_str(&said));
	if (reported)
		tell_reported(b, &said_it, what, with_name);
	else {
		if (with_name)
			buf_printf(b, "%s ", it->name);
		buf_puts(b, buf_str(&said));
	}
	buf_free(&said);
	free(what);
	return reported;
}

void
tell_did(struct buf *b, const struct draft_item *it, int with_name)
{
	(void)tell_did_how(b, it, with_name);
}

/*
 * A sentence "In area, NAME added X." starting with a capital; a change
 * in its author's words is a noun after a lead ending in a colon ("Top of
 * the list today: Sam's fix, \"...\"."), else "There's Sam's fix, ...".
 */
void
tell_did_sentence(struct buf *b, const struct draft_item *it,
    const char *lead)
{
	struct buf	 s, did;
	size_t		 n = lead != NULL ? strlen(lead) : 0;

	buf_init(&s);
	buf_init(&did);
	if (lead != NULL)
		buf_puts(&s, lead);
	/* "Sam's fix, \"...\"" is a noun: "there's" makes it a sentence */
	if (tell_did_how(&did, it, 1) && strncmp(did.data, it->name,
	    strlen(it->name)) == 0 && strncmp(did.data + strlen(it->name),
	    "'s ", 3) == 0) {
		if (n < 2 || strcmp(lead + n - 2, ": ") != 0)
			buf_puts(&s, "there's ");
	} else
		tell_area_lead(&s, it);
	buf_puts(&s, buf_str(&did));
	phrase_space(b);
	if (s.len > 0 && strncmp(s.data, it->name, strlen(it->name)) != 0)
		phrase_cap(b, buf_str(&s));
	else
		buf_puts(b, buf_str(&s));
	phrase_sentence_end(b);
	buf_free(&did);
	buf_free(&s);
}

/*
 * Whether the sentence s[0..n) can carry a figure aloud: words enough
 * besides the figures to say what they measure, no label ("wps: 109"),
 * not too long.
 */
static int
tell_figure_sentence_ok(const char *s, size_t n)
{
	size_t	i, words = 0, all = 0;
	int	in = 0, alpha = 0;

	if (memchr(s, ':', n) != NULL || memchr(s, '=', n) != NULL)
		return 0;
	for (i = 0; i <= n; i++) {
		if (i == n || s[i] == ' ') {
			if (in) {
				all++;
				words += alpha;
			}
			in = alpha = 0;
			continue;
		}
		in = 1;
		if (isalpha((unsigned char)s[i]))
			alpha = 1;
	}
	return words >= 5 && all <= 40;
}

/*
 * The figures of it not yet said in b (from offset from), each with the
 * sentence of its message that says what it measures, told as reported
 * speech ("It said that encoding is now 1.7x faster for single-output
 * graphs."); a figure with no such sentence is left unsaid.
 */
static void
tell_figures(struct buf *b, const struct draft_item *it, size_t from)
{
	struct text_paras	 ps;
	const char		*p, *at, *start, *end;
	char			*sent;
	size_t			 i, k, told = 0;
	int			 read = 0;

	(void)draft_prose(it);	/* the figures are read with it */
	for (i = 0; i < it->cl.nfigures && told < 2; i++) {
		if (strstr(b->data + from, it->cl.figures[i]) != NULL)
			continue;
		if (!read) {
			text_paragraphs(it->c->body, it->c->subject, &ps);
			read = 1;
		}
		for (k = 0; k < ps.n; k++) {
			p = ps.text[k];
			if ((at = strstr(p, it->cl.figures[i])) == NULL)
				continue;
			/* the sentence around it */
			for (start = at; start > p && !(start[-1] == ' ' &&
			    start - 1 > p && strchr(".!?", start[-2]) !=
			    NULL); start--)
				continue;
			for (end = at; *end != '\0' && !(strchr(".!?", *end) !=
			    NULL && (end[1] == ' ' || end[1] == '\0')); end++)
				continue;
			if (*end != '\0')
				end++;
			if (!tell_figure_sentence_ok(start, (size_t)(end -
			    start)))
				break;
			sent = xstrndup(start, (size_t)(end - start));
			phrase_space(b);
			prose_sentences(b, sent, 1);
			free(sent);
			told++;
			break;
		}
	}
	if (read)
		text_paras_free(&ps);
}

/* A lone part of a series told as progress: "That's step three of fifteen." */
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

/*
 * A lead-in ("Next, ", "On the fixes side, ") of n, as a stock phrase: one
 * the show said on two of the six days before is passed over
 * (earlier_stock), and so is one already said in b, the segment so far;
 * NULL when none is left, and the sentence then goes without one (a plain
 * sentence needs none).
 */
static const char *
tell_lead(const struct draft *d, const struct buf *b, unsigned salt,
    const char *const *v, size_t n)
{
	const char	*lead;
	size_t		 start, k, at;

	start = (d->hash / 7 + salt * 2654435761u) % n;
	for (k = 0; k < n; k++) {
		lead = earlier_stock(d->opts != NULL ? d->opts->said : NULL,
		    d->opts != NULL ? d->opts->nsaid : 0, d->daynum,
		    (unsigned)((start + k) % n), v, n);
		if (lead == NULL)
			return NULL;
		if (b->data == NULL || strstr(b->data, lead) == NULL)
			return lead;
		/* said today already: go on past it */
		for (at = 0; at < n && v[at] != lead; at++)
			;
		k = (at + n - start) % n;
	}
	return NULL;
}
#define TELL_LEAD(d, b, salt, v) tell_lead(d, b, salt, v, sizeof v / sizeof v[0])

/* the words a batch's subjects share at their end, at the least */
#define TELL_BATCH_TAIL	3

/* one person's releases named in a sentence; past it, counted */
#define TELL_MAX_RELEASES	3

/*
 * One author's changes of one kind that say the same thing of different
 * objects, told as one: htop 2020-09-24 told "Benny Baumann updated the
 * battery API to use NAN on error." and then the IO rate display, the CPU
 * freq display and the delay accounting, one sentence each. Of the items
 * v[i + 1..n) not yet told, those whose subject has v[i]'s first word and
 * its last TELL_BATCH_TAIL or more words, from a preposition on ("to use
 * NAN on error"), join it: the subject they share is returned (new:
 * "Update battery API, IO rate display and CPU freq display to use NAN on
 * error"), they are marked told and their shas added; NULL when none
 * joins.
 */
/* The words of s, split at spaces, into l (empty first). */
static void
tell_split(struct strlist *l, const char *s)
{
	size_t	n;
	char	*w;

	l->v = NULL;
	l->n = 0;
	for (; *s != '\0'; s += n) {
		while (*s == ' ')
			s++;
		if ((n = strcspn(s, " ")) == 0)
			break;
		w = xstrndup(s, n);
		strlist_add(l, w);
		free(w);
	}
}

/* Whether a subject holds a list of its own ("a, b", "a and b", "a or b"). */
static int
tell_listed(const char *s)
{
	return strchr(s, ',') != NULL || strstr(s, " and ") != NULL ||
	    strstr(s, " or ") != NULL;
}

static char *
tell_batch(struct draft *d, struct draft_item **v, size_t i, size_t n,
    struct draft_shas *shas)
{
	static const char *const preps[] = { "to", "for", "in", "on", "with",
	    "when", "from", NULL };
	struct strlist	 w, x;
	const char	**objs;
	struct buf	 b, o;
	size_t		 j, k, tail = 0, nobj = 0, m;
	char		*out = NULL;

	/* (a subject with a list of its own is told as it is: "Drop
	   PyTorch 2.7 and older support" joined to another reads as three) */
	if (v[i]->cl.what == NULL || v[i]->lead != NULL ||
	    v[i]->nparts > 0 || tell_listed(v[i]->cl.what))
		return NULL;
	tell_split(&w, v[i]->cl.what);
	objs = xcalloc(n - i + 1, sizeof *objs);
	for (j = i + 1; j < n && w.n >= TELL_BATCH_TAIL + 2; j++) {
		struct draft_item *it = v[j];

		if (it->told || it->lead != NULL || it->nparts > 0 ||
		    it->cl.what == NULL || it->cl.kind != v[i]->cl.kind ||
		    tell_listed(it->cl.what) ||
		    strcmp(it->name, v[i]->name) != 0)
			continue;
		tell_split(&x, it->cl.what);
		for (k = 0; k < w.n && k < x.n && strcasecmp(w.v[w.n - 1 - k],
		    x.v[x.n - 1 - k]) == 0; k++)
			continue;
		/* the tail from a preposition on, the same for all */
		while (k > 0 && !phrase_word_in(w.v[w.n - k],
		    strlen(w.v[w.n - k]), preps))
			k--;
		if (k >= TELL_BATCH_TAIL && (tail == 0 || k == tail) &&
		    k + 2 <= x.n && k + 2 <= w.n &&
		    strcasecmp(w.v[0], x.v[0]) == 0) {
			tail = k;
			buf_init(&o);
			for (m = 1; m + k < x.n; m++) {
				if (m > 1)
					buf_putc(&o, ' ');
				buf_puts(&o, x.v[m]);
			}
			objs[++nobj] = buf_steal(&o);
			it->told = 1;
			draft_shas_add(d, shas, it);
		}
		strlist_clear(&x);
	}
	if (nobj > 0) {
		buf_init(&o);
		for (m = 1; m + tail < w.n; m++) {
			if (m > 1)
				buf_putc(&o, ' ');
			buf_puts(&o, w.v[m]);
		}
		objs[0] = buf_steal(&o);
		buf_init(&b);
		buf_printf(&b, "%s ", w.v[0]);
		spoken_list(&b, objs, nobj + 1);
		for (m = w.n - tail; m < w.n; m++)
			buf_printf(&b, " %s", w.v[m]);
		out = buf_steal(&b);
		for (m = 0; m <= nobj; m++)
			free((char *)objs[m]);
	}
	free(objs);
	strlist_clear(&w);
	return out;
}

/* v[0..n) with the items told already taken out; their count. */
static size_t
tell_untold(struct draft_item **v, size_t n)
{
	size_t	i, k = 0;

	for (i = 0; i < n; i++)
		if (!v[i]->told)
			v[k++] = v[i];
	return k;
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
	const char	*lead;
	size_t		 start;

	phrase_para(b);
	start = b->len;
	lead = pos == 0 ? TELL_LEAD(d, b, 5, lead0) :
	    TELL_LEAD(d, b, 6 + (unsigned)pos, leadn);
	/*
	 * "the headline" only for a change the opening can name as one: one
	 * whose subject makes no headline is passed over there for the next
	 * (bookend_read), and the show would then name two headlines
	 */
	if (lead != NULL && lead == lead0[1]) {
		static const char *plain[] = {
			"Top of the list today: ", "Leading the highlights, ",
		};
		struct buf	h;

		buf_init(&h);
		if (!title_said(&h, it))
			lead = TELL_LEAD(d, b, 5, plain);
		buf_free(&h);
	}
	if (!series_tell(b, it, lead)) {
		tell_did_sentence(b, it, lead);
		tell_series(b, it);
	}
	if (draft_prose(it)[0] != '\0') {
		phrase_space(b);
		buf_puts(b, draft_prose(it));
	}
	tell_figures(b, it, start);
	series_others(b, it);
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
		buf_printf(&b, "The one commit was an automated one: %s.",
		    it->cl.what);
	else {
		tell_did_sentence(&b, it, NULL);
		if (draft_prose(it)[0] != '\0') {
			phrase_space(&b);
			buf_puts(&b, draft_prose(it));
		}
		tell_figures(&b, it, 0);
	}
	it->told = 1;
	draft_shas_add(d, &shas, it);
	draft_segment(d, kind, &b, &shas);
}

/*
 * The items v[0..n) not told one by one, in a sentence that still says
 * what they were about: up to three said in a line each ("A fixed X,
 * and B added Y."); more counted with their people and the areas most of
 * them touched ("five more fixes from A and B, in setopt and vtls.").
 * All are marked told and their shas added.
 */
static void
tell_rest(struct draft *d, struct buf *b, struct draft_shas *shas,
    struct draft_item **v, size_t n, const char *one, const char *many)
{
	const char	*areas[3];
	size_t		 i, j, nareas = 0;

	if (n <= 3) {
		for (i = 0; i < n; i++) {
			/* one person's run said with their name once */
			int same = i > 0 && strcmp(v[i]->name,
			    v[i - 1]->name) == 0;

			if (i > 0)
				buf_puts(b, same ? " and " : i + 1 == n ?
				    ", and " : ", ");
			tell_did(b, v[i], !same);
		}
		phrase_sentence_end(b);
	} else {
		spoken_count(b, (long long)n, one, many);
		buf_puts(b, " from ");
		select_names(b, v, n);
		/* the areas named in their titles, first seen first */
		for (i = 0; i < n && nareas < 3; i++) {
			if (v[i]->cl.area == NULL || !v[i]->cl.area_titled)
				continue;
			for (j = 0; j < nareas && strcasecmp(areas[j],
			    v[i]->cl.area) != 0; j++)
				continue;
			if (j == nareas)
				areas[nareas++] = v[i]->cl.area;
		}
		if (nareas > 0) {
			buf_puts(b, ", touching ");
			spoken_list(b, areas, nareas);
		}
		buf_putc(b, '.');
	}
	for (i = 0; i < n; i++) {
		v[i]->told = 1;
		draft_shas_add(d, shas, v[i]);
	}
}

/*
 * The items not told one by one (tell_rest) in a paragraph of their own,
 * after a lead-in of leads[0..nleads) (tell_lead), or as sentences of their own
 * when the show has said each lately.
 */
static void
tell_rest_lead(struct draft *d, struct buf *b, struct draft_shas *shas,
    struct draft_item **v, size_t n, const char *const *leads,
    size_t nleads, const char *one, const char *many)
{
	const char	*lead = tell_lead(d, b, 9, leads, nleads);
	struct buf	 r;

	phrase_para(b);
	if (lead != NULL) {
		buf_puts(b, lead);
		tell_rest(d, b, shas, v, n, one, many);
		return;
	}
	buf_init(&r);
	tell_rest(d, &r, shas, v, n, one, many);
	phrase_cap(b, buf_str(&r));
	buf_free(&r);
}

/*
 * Whether a release's package is the project itself: no name of its own
 * ("release: v8.1.1"), or the repository's name ("ripgrep 14.0.1").
 */
static int
tell_release_own(const struct draft *d, const char *pkg)
{
	const char	*r = d->repo, *sp = strrchr(r, ' ');

	if (pkg == NULL)
		return 1;
	if (sp != NULL)
		r = sp + 1;
	return strcasecmp(pkg, r) == 0;
}

/*
 * Two releases or more, told as one story before the highlights: "Release
 * news first: Alice Ryhl released Tokio 1.48.0 and tokio-macros 2.6.0,
 * and Qi released Tokio 1.47.2 and Tokio 1.43.3." One release is a
 * highlight like any change.
 */
static void
tell_releases(struct draft *d, struct buf *b, struct draft_shas *shas)
{
	static const char *leads[] = {
		"Release news first: ", "First, the releases: ",
		"The releases lead the day: ",
	};
	struct draft_item	**v, **r;
	const char		**said, *lead;
	char			 *pkg, *ver;
	size_t			  i, j, n = 0, *starts, ng, k, others;
	struct buf		  one;
	int			  many;

	v = xcalloc(d->nitems + 1, sizeof *v);
	for (i = 0; i < d->nitems; i++) {
		struct draft_item *it = &d->items[i];

		if (it->cl.release && !it->told && it->lead == NULL &&
		    !it->cl.bot && it->cl.kind == CLASSIFY_CHANGE &&
		    it->c->reverted_by_idx < 0)
			v[n++] = it;
	}
	if (n < 2) {
		free(v);
		return;
	}
	qsort(v, n, sizeof *v, select_cmp_score);
	r = select_runs(v, n, &starts, &ng);
	said = xcalloc(n + 1, sizeof *said);
	phrase_para(b);
	if ((lead = TELL_LEAD(d, b, 8, leads)) != NULL)
		buf_puts(b, lead);
	for (i = 0; i < ng; i++) {
		if (i > 0)
			buf_puts(b, i + 1 == ng ? ", and " : "; ");
		buf_printf(b, "%s released ", r[starts[i]]->name);
		/*
		 * past TELL_MAX_RELEASES, the project's own releases are
		 * named and its other packages counted: ripgrep 2023-11-26
		 * read out twelve crates and versions in one sentence (the
		 * links keep every one)
		 */
		many = starts[i + 1] - starts[i] > TELL_MAX_RELEASES;
		for (j = starts[i], k = others = 0; j < starts[i + 1]; j++) {
			buf_init(&one);
			/* "Tokio 1.48.0", "tokio-macros 2.6.0" */
			if (quote_release(r[j]->cl.subject, &pkg, &ver)) {
				if (!many || tell_release_own(d, pkg))
					title_release_name(&one, d, pkg, ver);
				free(pkg);
				free(ver);
			}
			if (one.len > 0)
				said[k++] = buf_steal(&one);
			else {
				buf_free(&one);
				others++;
			}
			r[j]->told = 1;
			draft_shas_add(d, shas, r[j]);
		}
		if (k == 0) {
			buf_puts(b, "new versions of ");
			spoken_count(b, (long long)others, "package",
			    "packages");
		} else {
			spoken_list(b, said, k);
			if (others > 0) {
				buf_puts(b, ", with new versions of ");
				spoken_count(b, (long long)others,
				    "more package", "more packages");
			}
		}
		while (k > 0)
			free((char *)said[--k]);
	}
	buf_putc(b, '.');
	free(said);
	free(starts);
	free(r);
	free(v);
}

void
tell_highlights(struct draft *d)
{
	static const enum classify_kind kinds[] = {
		CLASSIFY_PERF, CLASSIFY_FEATURE, CLASSIFY_CHANGE
	};
	static const char *rest[] = {
		"Smaller changes rounded it out: ", "The smaller changes: ",
		"A few smaller changes, too: ",
	};
	struct draft_item	**v;
	struct draft_shas	  shas = { NULL, 0 };
	struct buf		  b;
	size_t			  n, i, k, m, shown, released;

	buf_init(&b);
	tell_releases(d, &b, &shas);
	/* the releases led, or another segment: a highlight follows */
	released = b.len > 0 || draft_told_story(d);
	v = select_items(d, kinds, sizeof kinds / sizeof kinds[0], &n);
	shown = n < EPISODE_MAX_HIGHLIGHTS ? n : EPISODE_MAX_HIGHLIGHTS;
	for (i = k = 0; i < shown; i++) {
		char	*joint, *own = v[i]->cl.what;

		if (v[i]->told)		/* joined to one told before */
			continue;
		if ((joint = tell_batch(d, v, i, n, &shas)) != NULL)
			v[i]->cl.what = joint;
		tell_highlight(d, &b, v[i], k++ + released);
		v[i]->cl.what = own;
		free(joint);
		draft_shas_add(d, &shas, v[i]);
	}
	if (n > shown && (m = tell_untold(v + shown, n - shown)) > 0)
		tell_rest_lead(d, &b, &shas, v + shown, m, rest,
		    sizeof rest / sizeof rest[0], "more change", "more changes");
	d->nhighlights = k;
	free(v);
	draft_segment(d, "highlights", &b, &shas);
}

/*
 * Whether a fix is of words, not of behaviour (a typo, a spelling, a
 * comment's wording): its message's explanation tells a listener nothing.
 */
static int
tell_trivial(const struct draft_item *it)
{
	static const char *const words[] = { "typo", "typos", "spelling",
	    "misspelling", "misspelled", "grammar", "wording", "whitespace",
	    NULL };
	const char	*p;
	size_t		 n;

	for (p = it->cl.what; *p != '\0'; p += n) {
		p += strspn(p, " ,.;:()'\"");
		n = strcspn(p, " ,.;:()'\"");
		if (n > 0 && phrase_word_in(p, n, words))
			return 1;
	}
	return 0;
}

void
tell_fixes(struct draft *d)
{
	static const enum classify_kind kinds[] = { CLASSIFY_FIX };
	static const char *lead[] = {
		"On the fixes side, ", "Now for the fixes. ",
		"A few things got fixed, too. ", "As for fixes, ",
		"Some repairs, too. ",
	};
	static const char *rest[] = {
		"And the smaller fixes: ", "Smaller fixes, too: ",
		"The other fixes: ",
	};
	/* (the fixes lead when the day's top story is one) */
	static const char *first[] = {
		"On the fixes side, ", "First, the fixes. ",
		"We'll start with the fixes. ",
	};
	struct draft_item	**v;
	struct draft_shas	  shas = { NULL, 0 };
	struct buf		  b;
	size_t			  n, i, k, m, shown;

	v = select_items(d, kinds, 1, &n);
	buf_init(&b);
	shown = n < DRAFT_MAX_FIXES ? n : DRAFT_MAX_FIXES;
	for (i = k = 0; i < shown; i++) {
		const char *l = k > 0 ? NULL : draft_told_story(d) ?
		    TELL_LEAD(d, &b, 7, lead) : TELL_LEAD(d, &b, 7, first);
		char	   *joint, *own = v[i]->cl.what;

		if (v[i]->told)		/* joined to one told before */
			continue;
		if (k++ > 0)
			phrase_para(&b);
		if ((joint = tell_batch(d, v, i, n, &shas)) != NULL)
			v[i]->cl.what = joint;
		if (l != NULL && l[strlen(l) - 1] == ' ' &&
		    l[strlen(l) - 2] == '.') {
			buf_puts(&b, l);
			l = NULL;
		}
		if (!series_tell(&b, v[i], l))
			tell_did_sentence(&b, v[i], l);
		if (!tell_trivial(v[i]) && draft_prose(v[i])[0] != '\0') {
			phrase_space(&b);
			prose_sentences(&b, draft_prose(v[i]), 1);
		}
		tell_figures(&b, v[i], 0);
		series_others(&b, v[i]);
		v[i]->cl.what = own;
		free(joint);
		v[i]->told = 1;
		draft_shas_add(d, &shas, v[i]);
	}
	if (n > shown && (m = tell_untold(v + shown, n - shown)) > 0)
		tell_rest_lead(d, &b, &shas, v + shown, m, rest,
		    sizeof rest / sizeof rest[0], "more fix", "more fixes");
	free(v);
	draft_segment(d, "fixes", &b, &shas);
}
