/*
 * Today's Focus: on a breaking day the migration step; a setting a commit
 * of the day brings in, quoted verbatim with what to do with it and what
 * it buys; or else the one change worth reading.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "classify.h"
#include "draft_int.h"
#include "phrase.h"
#include "quote.h"
#include "spoken.h"
#include "text.h"
#include "theme.h"
#include "xmalloc.h"

/*
 * Whether a commit of the day takes away the setting it brings in: one
 * whose message says "remove", "drop", "deprecate" or "no longer" shortly
 * before naming it (pip 2025-10-21 reworked a test to "use --config-
 * setting" in place of "--global-option", which another commit removed:
 * that is no tip).
 */
static int
focus_setting_removed(const struct draft *d, const struct draft_item *it)
{
	static const char *const gone[] = { "remove", "drop", "deprecat",
	    "no longer", "delete", NULL };
	const char	*set = it->cl.setting, *at, *from, *texts[2];
	char		*name, *l;
	size_t		 i, j, k;
	int		 removed = 0;

	name = xstrndup(set, strcspn(set, "= "));
	for (i = 0; i < d->nitems && !removed; i++) {
		const struct commit *c = d->items[i].c;

		texts[0] = c->subject;
		texts[1] = c->body;
		for (j = 0; j < 2 && !removed; j++) {
			if (texts[j] == NULL ||
			    (at = strstr(texts[j], name)) == NULL)
				continue;
			/* the words before it, in its paragraph */
			for (from = at; from > texts[j] && at - from < 300 &&
			    !(from[-1] == '\n' && from - 1 > texts[j] &&
			    from[-2] == '\n'); from--)
				continue;
			l = xstrndup(from, (size_t)(at - from));
			for (k = 0; l[k] != '\0'; k++)
				l[k] = (char)tolower((unsigned char)l[k]);
			for (k = 0; gone[k] != NULL && !removed; k++)
				removed = strstr(l, gone[k]) != NULL;
			free(l);
		}
	}
	free(name);
	return removed;
}

/*
 * Whether a setting holds a link (text_link_len's rule): the spoken text
 * may not say it, and a setting cut where the link was
 * ("WIDGET_ADDR=localhost:8080" told as "Set WIDGET_ADDR=") is no tip.
 */
static int
focus_setting_has_link(const char *set)
{
	const char	*p;

	for (p = set; *p != '\0'; p++) {
		if (text_link_len(p, p > set ? (unsigned char)p[-1] : 0) > 0)
			return 1;
	}
	return 0;
}

/*
 * Whether every file a commit touches is an example program's (under an
 * "example" or "examples" folder, at any depth): a flag it brings in is
 * the example's, not the project's.
 */
static int
focus_example_only(const struct commit *c)
{
	char *const	*lists[3] = { c->added, c->modified, c->removed };
	size_t		 counts[3] = { c->nadded, c->nmodified, c->nremoved };
	const char	*f, *p;
	size_t		 i, j, n = 0;

	for (i = 0; i < 3; i++) {
		for (j = 0; j < counts[i]; j++, n++) {
			f = lists[i][j];
			for (p = f; (p = strstr(p, "example")) != NULL; p++) {
				if ((p == f || p[-1] == '/') && (p[7] == '/' ||
				    (p[7] == 's' && p[8] == '/')))
					break;
			}
			if (p == NULL)
				return 0;
		}
	}
	return n > 0;
}

/* Words between an instruction and its setting, at most. */
#define FOCUS_TOLD_GAP	5

/*
 * Whether the words just before at (in text from start) tell the reader
 * to use what follows, a few words before it in its sentence ("Set
 * `FOO`", "pass --x", "opt in via the unstable `Builder::x` or the `FOO`
 * environment variable"), or say the change brings it in, right before
 * it ("add --x", "introduce a new `FOO` variable"; in the past tense in
 * a subject only, where a body's "git 2.32 introduced `GIT_CONFIG_GLOBAL`"
 * tells history). "Added completion for `--features` flag" brought in
 * completion, not the flag (cargo 2025-09-12).
 */
static int
focus_told_before(const char *start, const char *at, int subject)
{
	static const char *const tells[] = { "set", "use", "using", "pass",
	    "passing", "enable", "via", "export", "specify", "try", NULL };
	static const char *const brings[] = { "add", "adds", "introduce",
	    "introduces", "expose", "exposes", NULL };
	/* in a body, the past tells a story: "git 2.32 introduced X" */
	static const char *const brought[] = { "added", "introduced",
	    "exposed", NULL };
	/* the words between a verb that brings it in and the setting */
	static const char *const between[] = { "a", "an", "the", "new",
	    NULL };
	const char	*e = at, *w;
	size_t		 gap;
	int		 near = 1;

	for (gap = 0; gap <= FOCUS_TOLD_GAP; gap++) {
		/* the word before e, past quotes, spaces and a line's
		   wrap (a blank line ends the paragraph) */
		while (e > start && (e[-1] == '`' || e[-1] == '\'' ||
		    e[-1] == '"' || e[-1] == ' ' || (e[-1] == '\n' &&
		    (e - 1 == start || e[-2] != '\n'))))
			e--;
		if (e == start || e[-1] == '\n' || e[-1] == '.' ||
		    e[-1] == ':' || e[-1] == ';')
			return 0;
		for (w = e; w > start && w[-1] != ' ' && w[-1] != '\n' &&
		    w[-1] != '`'; w--)
			continue;
		if (phrase_word_in(w, (size_t)(e - w), tells) ||
		    (near && phrase_word_in(w, (size_t)(e - w), brings)) ||
		    (near && subject && phrase_word_in(w, (size_t)(e - w),
		    brought)))
			return 1;
		near = near && phrase_word_in(w, (size_t)(e - w), between);
		e = w;
	}
	return 0;
}

/*
 * Whether the line at ls (in text from start) is one of code: indented,
 * a shell prompt's, or after a fence or a line ending in ':' ("Usage:")
 * with nothing but blank lines between. A wrapped line of prose that
 * happens to start with the setting is none (ripgrep 2026-07-09's
 * "`GIT_CONFIG_GLOBAL` and `GIT_CONFIG_SYSTEM` environment variables
 * that override these locations").
 */
static int
focus_code_line(const char *start, const char *ls)
{
	const char	*e, *b;

	if (ls[0] == '\t' || strncmp(ls, "  ", 2) == 0 ||
	    strncmp(ls, "$ ", 2) == 0)
		return 1;
	/* the line before, past blank ones */
	for (e = ls; e > start && e[-1] == '\n'; e--)
		continue;
	if (e == start)
		return 0;
	for (b = e; b > start && b[-1] != '\n'; b--)
		continue;
	return strncmp(b, "```", 3) == 0 || e[-1] == ':';
}

/*
 * Whether a change tells the reader to set, enable or use its setting,
 * or brings it in by name: an instruction before it (focus_told_before),
 * a line of a usage or code block that starts with it, or its subject
 * setting it to a value ("X set to 0 restores the default"). A setting
 * the message only names is no tip: "Improve --help to mention all the
 * command options" tells nobody to pass --help (jq 2023-07-23), nor a
 * change embedding a section "inside the --list-border frame" to pass
 * --list-border (fzf 2026-04-19).
 */
static int
focus_told_to_use(const struct draft_item *it)
{
	const char	*texts[3] = { it->cl.subject, it->c->subject,
	    it->c->body };
	const char	*set = it->cl.setting, *p, *at;
	char		*name;
	size_t		 i, n;
	int		 told = 0;

	n = strcspn(set, "= ");
	name = xstrndup(set, n);
	for (i = 0; i < 3 && !told; i++) {
		if (texts[i] == NULL)
			continue;
		for (p = texts[i]; !told && (at = strstr(p, name)) != NULL;
		    p = at + n) {
			const char *ls = at;

			/* a usage line or a code block's: it starts with it */
			while (ls > texts[i] && (ls[-1] == ' ' ||
			    ls[-1] == '`' || ls[-1] == '$' || ls[-1] == '\t'))
				ls--;
			told = i == 2 && (ls == texts[i] || ls[-1] == '\n') &&
			    focus_code_line(texts[i], ls);
			told = told || focus_told_before(texts[i], at,
			    i < 2) ||
			    strncmp(at + n, " set to ", 8) == 0 ||
			    strncmp(at + n, "` set to ", 9) == 0;
		}
	}
	free(name);
	return told;
}

/*
 * Whether every file a commit touches is a CI job's (a workflow, a CI
 * service's file): a variable it sets is the CI's, not a setting of the
 * project (curl 2025-09-25: "GHA: set `HOMEBREW_NO_AUTO_UPDATE=1` for
 * Linuxbrew").
 */
static int
focus_ci_only(const struct commit *c)
{
	static const char *const ci[] = { ".github/", ".circleci/",
	    ".gitlab-ci.yml", ".travis.yml", "appveyor.yml", ".cirrus.yml",
	    "azure-pipelines.yml", ".azure-pipelines/", NULL };
	char *const	*lists[3] = { c->added, c->modified, c->removed };
	size_t		 counts[3] = { c->nadded, c->nmodified, c->nremoved };
	size_t		 i, j, k, n = 0;

	for (i = 0; i < 3; i++) {
		for (j = 0; j < counts[i]; j++, n++) {
			for (k = 0; ci[k] != NULL && strncmp(lists[i][j],
			    ci[k], strlen(ci[k])) != 0; k++)
				continue;
			if (ci[k] == NULL)
				return 0;
		}
	}
	return n > 0;
}

/* Candidates for Today's Focus whose setting is looked up as removed. */
#define FOCUS_TRIES	8

/* The item whose setting Today's Focus quotes, or NULL. */
static struct draft_item *
focus_item(struct draft *d)
{
	static const enum classify_kind kinds[] = {
		CLASSIFY_PERF, CLASSIFY_FEATURE, CLASSIFY_CHANGE, CLASSIFY_FIX,
		CLASSIFY_RELAND, CLASSIFY_BUILD, CLASSIFY_DOCS
	};
	struct draft_item	*best, *no[FOCUS_TRIES];
	size_t			 i, k, j, nno = 0;

	/*
	 * The best candidate, then whether another commit takes its setting
	 * away: that reads every commit, so it is asked of the few best
	 * only, never of each (a day of many settings was quadratic)
	 */
	do {
		best = NULL;
		for (i = 0; i < d->nitems; i++) {
			struct draft_item *it = &d->items[i];

			/* only a setting the commit brings in, not one it
			   names */
			if (it->cl.setting == NULL || !it->cl.setting_new ||
			    it->cl.bot || it->c->reverted_by_idx >= 0 ||
			    focus_setting_has_link(it->cl.setting) ||
			    focus_example_only(it->c) ||
			    focus_ci_only(it->c) || !focus_told_to_use(it))
				continue;
			for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
				if (it->cl.kind == kinds[k])
					break;
			}
			if (k == sizeof kinds / sizeof kinds[0])
				continue;
			for (j = 0; j < nno && no[j] != it; j++)
				continue;
			if (j < nno)
				continue;
			if (best == NULL || it->cl.score > best->cl.score)
				best = it;
		}
		if (best == NULL || !focus_setting_removed(d, best))
			return best;
		no[nno++] = best;
	} while (nno < FOCUS_TRIES);
	return NULL;
}

enum quote_break
focus_breaking_of(struct draft_item *it, char **what)
{
	enum quote_break	 k;
	char			*w;

	if (what != NULL)
		*what = NULL;
	/* a test or a docs change breaks nobody's setup */
	if (it->cl.kind == CLASSIFY_TESTS || it->cl.kind == CLASSIFY_DOCS)
		return QUOTE_BREAK_NONE;
	/*
	 * classify_commit read the kind, of the same message unless it read
	 * a merged pull request's; what it concerns is read here
	 */
	if (it->brk == 0 && (what == NULL || (it->cl.breaking ==
	    QUOTE_BREAK_NONE && !classify_merged_pr(it->c))))
		it->brk = it->cl.breaking + 1;
	if (it->brk == 0 || (what != NULL &&
	    it->brk != QUOTE_BREAK_NONE + 1)) {
		k = quote_breaking(it->cl.subject, it->c->body, &w);
		it->brk = (int)k + 1;
		if (what != NULL)
			*what = w;
		else
			free(w);
	}
	return (enum quote_break)(it->brk - 1);
}

/* Whether the message calls the setting an environment variable. */
static int
focus_env(const struct commit *c)
{
	return phrase_contains(c->subject, "environment variable") ||
	    phrase_contains(c->body, "environment variable") ||
	    phrase_contains(c->body, "env var");
}

/*
 * "Set X to 0 restores the default": the value a subject sets the setting
 * to, and what follows it, as "to 0 and it restores the default" in b. 1
 * if the subject said so.
 */
static int
focus_set_to(struct buf *b, const char *what, const char *set)
{
	const char	*at, *v, *rest;
	size_t		 n;

	if (what == NULL || (at = strstr(what, set)) == NULL)
		return 0;
	at += strlen(set);
	if (strncmp(at, " set to ", 8) != 0)
		return 0;
	v = at + 8;
	if ((n = strcspn(v, " ,;")) == 0)
		return 0;
	buf_printf(b, " to %.*s", (int)n, v);
	rest = v + n + strspn(v + n, " ");
	/* "restores the default": a verb in the third person */
	n = strcspn(rest, " ");
	if (n > 2 && rest[n - 1] == 's' && rest[n] == ' ')
		buf_printf(b, ", and it %s", rest);
	return 1;
}

/*
 * The tip: the action with the setting verbatim and the payoff from the
 * message, then where it comes from.
 */
static void
focus_setting(struct draft *d, struct buf *b, struct draft_item *it,
    int after)
{
	static const char *offers[] = { "add", "adds", "introduce",
	    "introduces", "expose", "exposes", "support", "allow", "enable",
	    "implement", "provide", NULL };
	const struct commit	*c = it->c;
	const char		*set = it->cl.setting, *what = it->cl.what;
	char			*name;
	size_t			 n, at;
	int			 paid;

	d->ep->focus = xstrdup(set);
	if (after) {
		phrase_space(b);
		buf_puts(b, "And one to try: ");
	} else
		buf_puts(b, "Today's Focus: ");
	at = b->len;
	if (set[0] == '-' || (islower((unsigned char)set[0]) &&
	    strchr(set, '=') != NULL))
		buf_printf(b, "pass %s", set);
	else if (strchr(set, '=') == NULL && focus_env(c))
		buf_printf(b, "set the %s environment variable", set);
	else
		buf_printf(b, "set %s", set);
	b->data[at] = (char)toupper((unsigned char)b->data[at]);
	paid = focus_set_to(b, what, set);
	if (!paid) {
		buf_putc(b, ' ');
		paid = quote_payoff(c->subject, c->body, set, b);
		if (!paid)
			b->len--, b->data[b->len] = '\0';
	}
	name = xstrndup(set, strcspn(set, "="));
	n = phrase_first_word(what);
	/* a payoff naming another setting is no payoff: it wants its own
	   action */
	if (!paid && what[n] == ' ' && phrase_word_in(what, n, offers) &&
	    !phrase_contains(what + n, name) && strstr(what, "--") == NULL &&
	    strchr(what, '=') == NULL) {
		buf_puts(b, " if you want ");
		phrase_lower_first(b, what + n + 1);
		paid = 1;
	}
	free(name);
	if (!paid)
		buf_printf(b, " to try what %s's change brings", it->name);
	phrase_sentence_end(b);
	/*
	 * The second sentence says where it comes from only when that is
	 * news: a change told earlier was heard already ("It comes from
	 * Ada's change we heard about earlier." said nothing). A branch
	 * merged was told among others, by its name at most.
	 */
	if (it->told && !it->cl.merge)
		return;
	phrase_space(b);
	tell_did_sentence(b, it, "It comes from this change: ");
}

/* A version said as a minimum: "torch 2.11+" -> "torch 2.11". */
static void
focus_minimum(struct buf *b, const char *what)
{
	size_t	n = strlen(what);

	if (isdigit((unsigned char)what[0]))
		buf_puts(b, "version ");
	while (n > 0 && what[n - 1] == '+')
		n--;
	buf_append(b, what, n);
}

/* Whether the first n bytes of s hold a digit. */
static int
focus_has_digit(const char *s)
{
	for (; *s != '\0'; s++) {
		if (isdigit((unsigned char)*s))
			return 1;
	}
	return 0;
}

/* Versions whose support went that Today's Focus names, at most. */
#define FOCUS_VERSIONS	3

/*
 * The migration step of n changes dropping versions: "if you still run
 * on PyTorch 2.7 and older or PyTorch 2.8, move to a newer version before
 * you upgrade: Vasiliy Kuznetsov's changes drop support for them."
 */
static void
focus_versions(struct buf *b, struct draft_item **v, char **what, size_t n)
{
	const char	*names[FOCUS_VERSIONS];
	size_t		 i, j, nn = 0;

	buf_puts(b, "if you still run on ");
	for (i = 0; i < n; i++) {
		if (i > 0)
			buf_puts(b, i + 1 == n ? " or " : ", ");
		buf_puts(b, what[i]);
		for (j = 0; j < nn && strcmp(names[j], v[i]->name) != 0; j++)
			continue;
		if (j == nn)
			names[nn++] = v[i]->name;
	}
	buf_puts(b, ", move to a newer version before you upgrade: ");
	if (nn == 1)
		buf_printf(b, "%s's changes drop", names[0]);
	else {
		buf_puts(b, "changes by ");
		spoken_list(b, names, nn);
		buf_puts(b, " drop");
	}
	buf_puts(b, " support for them.");
}

/*
 * A breaking day: the migration step for the change that breaks the most
 * (support dropped, a minimum raised, a default flipped), and for
 * deprecated APIs removed. 1 if any was told.
 */
static int
focus_breaking(struct draft *d, struct buf *b, struct draft_shas *shas)
{
	struct draft_item	*top = NULL, *gone = NULL;
	struct draft_item	*vers[FOCUS_VERSIONS];
	enum quote_break	 k, topk = QUOTE_BREAK_NONE;
	char			*what, *topwhat = NULL, *gonewhat = NULL;
	char			*verwhat[FOCUS_VERSIONS];
	size_t			 i, ngone = 0, nvers = 0;

	for (i = 0; i < d->nitems; i++) {
		struct draft_item *it = &d->items[i];

		if (it->cl.bot || it->cl.kind == CLASSIFY_REVERT ||
		    it->c->reverted_by_idx >= 0)
			continue;
		k = focus_breaking_of(it, &what);
		if (k == QUOTE_BREAK_NONE)
			continue;
		/* the versions whose support went, each */
		if (k == QUOTE_BREAK_SUPPORT && nvers < FOCUS_VERSIONS &&
		    strncmp(what, "--", 2) != 0 && focus_has_digit(what)) {
			vers[nvers] = it;
			verwhat[nvers++] = xstrdup(what);
		}
		if (k == QUOTE_BREAK_REMOVED) {
			ngone++;
			if (gone == NULL || it->cl.score > gone->cl.score) {
				free(gonewhat);
				gone = it, gonewhat = what, what = NULL;
			}
		} else if (top == NULL || k < topk || (k == topk &&
		    it->cl.score > top->cl.score)) {
			free(topwhat);
			top = it, topk = k, topwhat = what, what = NULL;
		}
		free(what);
	}
	if (top == NULL && gone == NULL)
		return 0;
	buf_puts(b, "Today's Focus: ");
	if (top != NULL) {
		switch (topk) {
		/*
		 * What to do first, then whose change it follows, in a
		 * few words: the opening said the change already ("Heads
		 * up first: the project now needs torch 2.11 or newer"),
		 * and Today's Focus saying it again at length told the
		 * listener nothing new (ao 2026-03-24)
		 */
		case QUOTE_BREAK_SUPPORT:
			/* a flag and its value: what a user passes */
			if (strncmp(topwhat, "--", 2) == 0)
				buf_printf(b, "if you pass %s, move to a "
				    "value still supported before you "
				    "upgrade: %s's change drops support for "
				    "it.", topwhat, top->name);
			else if (focus_has_digit(topwhat) && nvers > 1) {
				/* ao 2026-05-14 dropped PyTorch 2.7 and 2.8
				   in two changes: one named was half the
				   step */
				focus_versions(b, vers, verwhat, nvers);
				for (i = 0; i < nvers; i++)
					draft_shas_add(d, shas, vers[i]);
			}
			else if (focus_has_digit(topwhat))
				buf_printf(b, "if you still run on %s, move "
				    "to a newer version before you upgrade: "
				    "%s's change drops support for it.",
				    topwhat, top->name);
			else
				buf_printf(b, "if you still rely on %s, stay "
				    "on the release you have until you've "
				    "moved off it: %s's change drops support "
				    "for it.", topwhat, top->name);
			break;
		case QUOTE_BREAK_MINIMUM:
			buf_puts(b, "before you upgrade, make sure your "
			    "setup has ");
			focus_minimum(b, topwhat);
			buf_printf(b, " or newer, the minimum since %s's "
			    "change.", top->name);
			break;
		default:
			buf_printf(b, "a default changed, with %s's change "
			    "\"%s\". If you relied on the old behaviour, ",
			    top->name, top->cl.what);
			if (top->cl.setting != NULL)
				buf_printf(b, "set %s explicitly",
				    top->cl.setting);
			else
				buf_puts(b, "say so explicitly in your setup");
			buf_puts(b, " before you upgrade.");
			break;
		}
		draft_shas_add(d, shas, top);
	}
	if (gone != NULL) {
		if (top != NULL)
			buf_puts(b, " Also, ");
		if (strchr(gonewhat, ' ') == NULL) {
			buf_printf(b, "the deprecated %s is gone", gonewhat);
			if (ngone > 1) {
				buf_puts(b, ", along with ");
				spoken_count(b, (long long)ngone - 1,
				    "more deprecated piece",
				    "more deprecated pieces");
			}
			buf_printf(b, ", removed by %s. If your code still "
			    "uses %s, move to %s replacement before you "
			    "upgrade.", gone->name, ngone > 1 ? "them" : "it",
			    ngone > 1 ? "their" : "its");
		} else if (strncmp(gonewhat, "--", 2) == 0) {
			/* flags a user passes: the migration is to stop */
			int many = strstr(gonewhat, " and ") != NULL ||
			    strchr(gonewhat, ',') != NULL;

			buf_printf(b, "stop passing %s: %s's change \"%s\" "
			    "removed %s. Take %s out of your scripts and "
			    "configuration before you upgrade.", gonewhat,
			    gone->name, gone->cl.what, many ? "them" : "it",
			    many ? "them" : "it");
		} else if (strcasecmp(gonewhat, gone->cl.what) == 0)
			/* a "feat!:" says no more than that it breaks */
			buf_printf(b, "%s's change \"%s\" is marked as "
			    "breaking. Check your code against it before you "
			    "upgrade.", gone->name, gone->cl.what);
		else
			buf_printf(b, "%s's change \"%s\" breaks "
			    "compatibility: %s. Check your code against it "
			    "before you upgrade.", gone->name, gone->cl.what,
			    gonewhat);
		draft_shas_add(d, shas, gone);
	}
	/* "Today's Focus: " then a capital */
	b->data[15] = (char)toupper((unsigned char)b->data[15]);
	free(topwhat);
	free(gonewhat);
	for (i = 0; i < nvers; i++)
		free(verwhat[i]);
	return 1;
}

/*
 * The takeaway's story: the first by the day's one ranking
 * (select_cmp_rank) of the changes a listener can act on (a feature, a
 * speedup, a change of behaviour, a fix, a re-land), never a release, a
 * chore, a test or a CI pin; NULL on a day of none. Today's Focus and the
 * closing ask here alone.
 */
struct draft_item *
focus_top(struct draft *d)
{
	static const enum classify_kind acts[] = { CLASSIFY_PERF,
	    CLASSIFY_FEATURE, CLASSIFY_CHANGE, CLASSIFY_FIX, CLASSIFY_RELAND };
	struct draft_item	*top = NULL, *it;
	char			*pkg, *ver;
	size_t			 i, k;

	/*
	 * The day's one ranking (select_cmp_rank) decides, among the
	 * changes a listener can act on: a release is the title's story,
	 * and a rollback or upkeep gives nothing to try.
	 */
	for (i = 0; i < d->nitems; i++) {
		it = &d->items[i];
		for (k = 0; k < sizeof(acts) / sizeof(acts[0]) &&
		    it->cl.kind != acts[k]; k++)
			continue;
		if (k == sizeof(acts) / sizeof(acts[0]) ||
		    !title_story_ok(it) || it->cl.what[0] == '\0')
			continue;
		if (quote_release(it->cl.subject, &pkg, &ver)) {
			free(pkg);
			free(ver);
			continue;
		}
		/* a dependency bump, whatever its prefix ("feat: upgrade to
		   body-parser@1.20.3"), is upkeep: nothing to try */
		if (theme_bump(it, NULL))
			continue;
		if (top == NULL || select_cmp_rank(&it, &top) < 0)
			top = it;
	}
	return top;
}

/*
 * The takeaway of the top story, for a listener it concerns: "If you
 * work with runtime, the one to try is Alex Gaynor's change, "add an
 * opt-in sharded spawn_blocking queue"." What to do with it follows its
 * kind; the lead comes in turn, so no wording returns within a week.
 */
void
focus_takeaway(struct draft *d, struct buf *b, const struct draft_item *it)
{
	static const char *with_area[] = {
		"If you work with %s, ",
		"If %s is part of your setup, ",
		"For anyone who relies on %s, ",
		"If your code leans on %s, ",
		"If you use %s, ",
		"If %s matters to you, ",
		"If %s is in your stack, ",
	};
	static const char *alone[] = {
		"The one to %s from today is ",
		"From today, the one to %s is ",
		"Of today's changes, the one to %s is ",
		"If you %s one change from today, make it ",
		"Out of today's work, the one to %s is ",
		"Of everything today, the one to %s is ",
		"If you %s just one thing today, make it ",
	};
	const char	*verb;
	size_t		 at = b->len;

	switch (it->cl.kind) {
	case CLASSIFY_FEATURE:
		verb = "try";
		break;
	case CLASSIFY_PERF:
		verb = "take";
		break;
	case CLASSIFY_FIX:
	case CLASSIFY_RELAND:
		verb = "pick up";
		break;
	default:
		verb = "read";
		break;
	}
	/* an area its subject names: one read off its files ("src") is
	   no part of anyone's setup, nor one a listener hears as another
	   word (theme_area_said) */
	if (it->cl.area != NULL && it->cl.area_titled &&
	    theme_area_said(it->cl.area) &&
	    !phrase_contains(it->cl.what, it->cl.area)) {
		buf_printf(b, DRAFT_ROTATE(d, 18, with_area), it->cl.area);
		buf_printf(b, "the one to %s is ", verb);
	} else
		buf_printf(b, DRAFT_ROTATE(d, 18, alone), verb);
	b->data[at] = (char)toupper((unsigned char)b->data[at]);
	/*
	 * a brace alternation is said as words (spoken_braces), and inside
	 * a quotation its closing quote went with each word ("Add
	 * --header-border=inline\", --header-lines-border=inline\" and
	 * ..."): such words, or quotes of their own, are told unquoted
	 */
	if (strpbrk(it->cl.what, "\"{}[]<>|\\") != NULL) {
		buf_printf(b, "%s's change: ", it->name);
		phrase_lower_first(b, it->cl.what);
		phrase_sentence_end(b);
	} else
		buf_printf(b, "%s's change, \"%s\".", it->name,
		    it->cl.what);
}

/*
 * Today's Focus: on a breaking day, the migration step; then one tip
 * quoting verbatim a setting, flag or variable a commit of the day
 * brings in, with what to do and what it buys. When the day offers
 * neither, a different closing segment gives the takeaway of the day's
 * top story instead; no tip is ever made up, and it never claims there
 * is nothing to try.
 */
void
focus_segment(struct draft *d)
{
	struct draft_shas	 shas = { NULL, 0 };
	struct draft_item	*best, *top;
	struct buf		 b;
	int			 broke;

	if (d->nitems <= 1)
		return;
	buf_init(&b);
	broke = focus_breaking(d, &b, &shas);
	if ((best = focus_item(d)) != NULL) {
		focus_setting(d, &b, best, broke);
		draft_shas_add(d, &shas, best);
	}
	if (b.len > 0) {
		draft_segment(d, "focus", &b, &shas);
		return;
	}
	if ((top = focus_top(d)) == NULL || d->nitems < 3) {
		buf_free(&b);
		return;
	}
	focus_takeaway(d, &b, top);
	draft_shas_add(d, &shas, top);
	draft_segment(d, "takeaway", &b, &shas);
}
