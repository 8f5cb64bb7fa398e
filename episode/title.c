/*
 * The title and the description of a daily episode, from the theme and its areas.
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
#include "xmalloc.h"

/* A kind as a title's noun phrase, alone or before "in <areas>". */
static const char *
title_kind(enum classify_kind k)
{
	static const char *plain[CLASSIFY_NKINDS] = {
		[CLASSIFY_REVERT] = "A Day of Rollbacks",
		[CLASSIFY_RELAND] = "Changes Back in Place",
		[CLASSIFY_FEATURE] = "New Features",
		[CLASSIFY_PERF] = "Speedups",
		[CLASSIFY_FIX] = "Fixes",
		[CLASSIFY_DOCS] = "Documentation Polish",
		[CLASSIFY_TESTS] = "Test Suite Upkeep",
		[CLASSIFY_BUILD] = "Build and CI Work",
		[CLASSIFY_DEPS] = "Dependency Updates",
		[CLASSIFY_CLEANUP] = "Cleanup",
		[CLASSIFY_CHANGE] = "Work",
	};

	return plain[k];
}

/* A kind as one change, for a quiet day's title. */
static const char *
title_kind_noun(enum classify_kind k)
{
	static const char *nouns[CLASSIFY_NKINDS] = {
		[CLASSIFY_REVERT] = "Revert",
		[CLASSIFY_RELAND] = "Re-land",
		[CLASSIFY_FEATURE] = "New Feature",
		[CLASSIFY_PERF] = "Speedup",
		[CLASSIFY_FIX] = "Fix",
		[CLASSIFY_DOCS] = "Docs Change",
		[CLASSIFY_TESTS] = "Test Change",
		[CLASSIFY_BUILD] = "Build Change",
		[CLASSIFY_DEPS] = "Dependency Bump",
		[CLASSIFY_CLEANUP] = "Cleanup",
		[CLASSIFY_CHANGE] = "Change",
	};

	return nouns[k];
}

/* An area as a title says it: plain lowercase words get capitals. */
static void
title_area(struct buf *b, const char *area)
{
	size_t	at = b->len, i;
	int	plain = 1;

	for (i = 0; area[i] != '\0'; i++) {
		if (!islower((unsigned char)area[i]) && area[i] != ' ' &&
		    area[i] != '-')
			plain = 0;
	}
	buf_puts(b, area);
	if (!plain)
		return;
	for (i = at; i < b->len; i++) {
		if (i == at || b->data[i - 1] == ' ' || b->data[i - 1] == '-')
			b->data[i] = (char)toupper((unsigned char)b->data[i]);
	}
}

/*
 * Up to max distinct areas of the theme's most significant changes, as
 * their subjects name them: a directory name is not a story.
 */
static size_t
title_top_areas(struct draft *d, const char **areas, size_t max)
{
	struct draft_item	**v;
	size_t			  n, i, j, na = 0;

	v = xcalloc(d->nitems + 1, sizeof *v);
	for (i = n = 0; i < d->nitems; i++) {
		if (select_in_theme(d, &d->items[i]) &&
		    d->items[i].cl.area != NULL && d->items[i].cl.area_titled)
			v[n++] = &d->items[i];
	}
	qsort(v, n, sizeof *v, select_cmp_score);
	for (i = 0; i < n && na < max; i++) {
		for (j = 0; j < na; j++) {
			if (strcasecmp(areas[j], v[i]->cl.area) == 0)
				break;
		}
		if (j == na)
			areas[na++] = v[i]->cl.area;
	}
	free(v);
	return na;
}

/*
 * A title's word: plain lowercase words get a capital, small ones not;
 * first < 0 keeps every word as it is (a headline said, not printed).
 */
static void
title_word(struct buf *b, const char *w, size_t n, int first)
{
	static const char *small[] = { "a", "an", "the", "and", "or", "in",
	    "on", "of", "for", "to", "with", "via", "at", "by", "from", "as",
	    "than", "per", "into", "over", NULL };
	size_t	at = b->len;

	buf_append(b, w, n);
	if (first < 0 || !phrase_plain(w, n) ||
	    (!first && phrase_word_in(w, n, small)))
		return;
	b->data[at] = (char)toupper((unsigned char)b->data[at]);
}

/* Whether w (length n) reads as an identifier rather than a word. */
static int
title_symbol(const char *w, size_t n)
{
	size_t	i, caps = 0;

	for (i = 0; i < n; i++) {
		if (w[i] == '_' || w[i] == '(' || w[i] == '"' ||
		    w[i] == '`' || w[i] == ':')
			return 1;
		if (i > 0 && isupper((unsigned char)w[i]))
			caps++;
	}
	return caps > 2 || (caps > 0 && n > 12);
}

/*
 * Whether w (length n) is a symbol a voice cannot say as words: all but
 * lowercase snake_case ("spawn_blocking" is said "spawn blocking"); or
 * a reference ("#4074").
 */
static int
title_unsaid(const char *w, size_t n)
{
	size_t	i;

	if (n > 0 && w[0] == '#')
		return 1;
	for (i = 0; i < n; i++)
		if (!islower((unsigned char)w[i]) &&
		    !isdigit((unsigned char)w[i]) && w[i] != '_' &&
		    w[i] != '-')
			break;
	return i < n && title_symbol(w, n);
}

/*
 * A headline from a story's subject: "expose schedule latency in task
 * hooks" -> "Schedule Latency Exposed in Task Hooks"; a subject that
 * does not start with a known verb is title-cased as it is. 0 (nothing
 * appended) when it would be long, empty or full of symbols. With caps
 * 0, the words keep their case and a symbol a voice cannot say makes no
 * headline: "schedule latency exposed in task hooks".
 */
static int
title_headline_case(struct buf *b, const char *what, int caps, int guessing)
{
	static const char *preps[] = { "in", "on", "for", "to", "with",
	    "via", "from", "into", "when", "across", "under", "over", "at",
	    "by", "inside", "after", "before", "if", "during", "without",
	    "instead", "so", "as", "than", "about", "through", "within",
	    "against", "between", "per", NULL };
	static const char *articles[] = { "a", "an", "the", NULL };
	static const char *particles[] = { "up", "out", "down", "off",
	    "back", "away", NULL };
	static const char *causatives[] = { "let", "lets", "make", "makes",
	    "help", "helps", "have", "has", "get", "gets", NULL };
	const char	*w[16];
	size_t		 wn[16], nw = 0, i, obj, rest, at = b->len;
	const char	*p;
	char		*past, *guess;
	int		 tail = 1, phrasal = 0;

	for (p = what; *p != '\0' && nw < 16;) {
		p += strspn(p, " ");
		if (*p == '\0')
			break;
		w[nw] = p;
		wn[nw] = strcspn(p, " ");
		p += wn[nw++];
	}
	if (nw == 0 || *p != '\0')
		return 0;
	/* quotes, brackets and markup are no headline */
	if (strpbrk(what, "\"[]`(){}*<>|\\") != NULL)
		return 0;
	/*
	 * a verb whose object is a clause has no passive a headline can
	 * use: "let X take precedence" is not "X Take Precedence Let"
	 */
	past = nw >= 2 && !phrase_word_in(w[0], wn[0], causatives) ?
	    phrase_verb_past(w[0], wn[0]) : NULL;
	/* a verb the table lacks, by its shape ("connect proxy upstream") */
	if (past == NULL && guessing && nw >= 2 &&
	    islower((unsigned char)what[0]) &&
	    !phrase_word_in(w[0], wn[0], causatives) &&
	    (guess = tell_guess_past(NULL, what)) != NULL) {
		past = xstrndup(guess, strcspn(guess, " "));
		free(guess);
	}
	if (past == NULL) {
		size_t symbols = 0;

		if (nw > 7)
			return 0;
		/* "CURLOPT_MAXCONNECTS set to 0 restores default value" */
		for (i = 0; i < nw; i++)
			symbols += title_symbol(w[i], wn[i]) != 0;
		if (symbols > 1 || nw < 3)
			return 0;
		for (i = 0; i < nw; i++) {
			if (i > 0)
				buf_putc(b, ' ');
			title_word(b, w[i], wn[i], caps ? i == 0 : -1);
		}
		return 1;
	}
	/* "speed up X": the particle stays with the verb */
	obj = 1;
	if (nw > 2 && phrase_word_in(w[1], wn[1], particles))
		obj = 2, phrasal = 1;
	for (rest = obj; rest < nw && !phrase_word_in(w[rest], wn[rest],
	    preps); rest++)
		continue;
	if (obj < rest && phrase_word_in(w[obj], wn[obj], articles))
		obj++;
	/* one word ("detect change") says too little for a headline */
	if (rest - obj < 2 || rest - obj > 6) {
		free(past);
		return 0;
	}
	/* nor does a reference: "Number 7757 Reverted" (issue #27) */
	for (i = obj; i + 1 < rest; i++) {
		if (wn[i] == 6 && strncasecmp(w[i], "number", 6) == 0 &&
		    isdigit((unsigned char)w[i + 1][0])) {
			free(past);
			return 0;
		}
	}
	/* the object, the verb, then the rest if short and plain */
	if (nw - obj > 9)
		tail = 0;
	for (i = rest; i < nw && tail; i++) {
		if (title_symbol(w[i], wn[i]))
			tail = 0;
	}
	for (i = obj; i < rest; i++) {
		if (i > obj)
			buf_putc(b, ' ');
		title_word(b, w[i], wn[i], caps ? i == obj : -1);
	}
	buf_putc(b, ' ');
	title_word(b, past, strlen(past), caps ? 1 : -1);
	free(past);
	if (phrasal) {
		buf_putc(b, ' ');
		title_word(b, w[1], wn[1], caps ? 1 : -1);
	}
	for (i = rest; i < nw && tail; i++) {
		buf_putc(b, ' ');
		title_word(b, w[i], wn[i], caps ? 0 : -1);
	}
	/* the first letter is a capital, unless it starts a symbol */
	if (caps && !title_symbol(w[obj], wn[obj]))
		b->data[at] = (char)toupper((unsigned char)b->data[at]);
	return 1;
}

int
title_headline(struct buf *b, const struct draft_item *it)
{
	return title_headline_case(b, it->cl.what, 1, !it->named_first);
}

int
title_said(struct buf *b, const struct draft_item *it)
{
	const char	*what = it->cl.what;
	struct buf	 h;
	const char	*p;
	char		*past;
	size_t		 n;
	int		 ok;

	buf_init(&h);
	ok = title_headline_case(&h, what, 0, !it->named_first);
	/* an imperative left as it was ("Let X take precedence") is no
	   headline inside a sentence */
	n = phrase_first_word(what);
	if (ok && (past = phrase_verb_past(what, n)) != NULL) {
		if (strncasecmp(buf_str(&h), what, n) == 0)
			ok = 0;
		free(past);
	}
	for (p = buf_str(&h); ok && *p != '\0'; p += n) {
		p += strspn(p, " ");
		n = strcspn(p, " ");
		/* a reference, said "number 4074", tells a listener nothing */
		if (title_unsaid(p, n) || (n == 6 && strncmp(p, "number",
		    6) == 0 && p[6] == ' ' && isdigit((unsigned char)p[7])))
			ok = 0;
	}
	/* said inside a sentence: "initial support for ...", names kept */
	if (ok)
		phrase_lower_first(b, buf_str(&h));
	buf_free(&h);
	return ok;
}

/* The repository's name as a title says it: "vitejs vite" -> "Vite". */
static void
title_project(struct buf *b, const struct draft *d)
{
	const char	*r = d->repo, *sp = strrchr(r, ' ');

	if (sp != NULL)
		r = sp + 1;
	title_word(b, r, strlen(r), 1);
}

/*
 * Whether an item tells a story a title or description may lead with:
 * not a bot's, not git's merge of a branch, not reverted work.
 */
int
title_story_ok(const struct draft_item *it)
{
	return !it->cl.bot && !it->cl.merge && it->cl.kind != CLASSIFY_REVERT &&
	    it->c->reverted_by_idx < 0 && it->cl.what[0] != '\0' &&
	    it->lead == NULL;
}

/* Order two versions ("4.20.0" < "5.0.0") by their numbers. */
static int
title_version_cmp(const char *a, const char *b)
{
	long	x, y;
	char	*e;

	while (*a != '\0' || *b != '\0') {
		x = strtol(a, &e, 10);
		a = *e == '.' ? e + 1 : e + strlen(e);
		y = strtol(b, &e, 10);
		b = *e == '.' ? e + 1 : e + strlen(e);
		if (x != y)
			return x < y ? -1 : 1;
	}
	return 0;
}

/* The day's release (the repository's own first), or NULL; *ver (new). */
struct draft_item *
title_release(struct draft *d, char **pkg, char **ver)
{
	struct draft_item	*best = NULL;
	char			*p, *v;
	size_t			 i;

	*pkg = *ver = NULL;
	for (i = 0; i < d->nitems; i++) {
		struct draft_item *it = &d->items[i];

		/* (a release told with another of its version: not again) */
		if (it->cl.kind == CLASSIFY_REVERT ||
		    it->c->reverted_by_idx >= 0 || it->lead != NULL ||
		    !it->cl.release || !quote_release(it->cl.subject, &p, &v))
			continue;
		/* a package named as the repository is its own ("Tokio") */
		if (p != NULL && d->day->repo != NULL &&
		    strchr(d->day->repo, '/') != NULL &&
		    strcasecmp(p, strchr(d->day->repo, '/') + 1) == 0) {
			free(p);
			p = NULL;
		}
		/* the repository's own first, then the highest version:
		   "5.0.0" is the news on a day that also made "4.20.0" */
		if (best == NULL || (*pkg != NULL && p == NULL) ||
		    ((*pkg == NULL) == (p == NULL) &&
		    title_version_cmp(v, *ver) > 0)) {
			free(*pkg);
			free(*ver);
			best = it, *pkg = p, *ver = v;
		} else {
			free(p);
			free(v);
		}
	}
	return best;
}

/* "Vite 8.1.1" or "create-vite 9.1.1". */
void
title_release_name(struct buf *b, const struct draft *d, const char *pkg,
    const char *ver)
{
	if (pkg != NULL)
		buf_puts(b, pkg);
	else
		title_project(b, d);
	buf_printf(b, " %s", ver);
}

/*
 * The title of a release: "Flask 3.1.0 Released", or with the change
 * that ships in it a user meets first, when its subject makes a headline
 * ("Nginx 1.27.0: Dynamic Table Overflow Fixed"): the day's data says
 * it ships there (release.c), nothing else does.
 */
static void
title_release_title(struct buf *b, const struct draft *d,
    const struct draft_item *rel, const char *pkg, const char *ver)
{
	const struct draft_item	*top = NULL;
	struct buf		 h;
	size_t			 i;

	title_release_name(b, d, pkg, ver);
	for (i = 0; i < rel->nships; i++) {
		const struct draft_item *it = rel->ships[i];

		if (it->cl.merge || select_rank(it) >= SELECT_RANK_CHORE)
			continue;
		if (top == NULL || select_cmp_rank(&it, &top) < 0)
			top = it;
	}
	buf_init(&h);
	if (top != NULL && title_headline(&h, top))
		buf_printf(b, ": %s", buf_str(&h));
	else
		buf_puts(b, " Released");
	buf_free(&h);
}

/*
 * Stories of the day ranked for a title (new array of *n): those a title
 * may lead with, by select_cmp_rank, the order the opening and the
 * takeaway follow too.
 */
static struct draft_item **
title_stories(struct draft *d, size_t *n)
{
	struct draft_item	**v;
	size_t			  i;

	v = xcalloc(d->nitems + 1, sizeof *v);
	*n = 0;
	for (i = 0; i < d->nitems; i++) {
		if (title_story_ok(&d->items[i]) &&
		    select_rank(&d->items[i]) < SELECT_RANK_CHORE)
			v[(*n)++] = &d->items[i];
	}
	qsort(v, *n, sizeof *v, select_cmp_rank);
	return v;
}

char *
title_unmarked(const char *s)
{
	char	*out = xstrdup(s), *o = out;

	for (; *s != '\0'; s++)
		if (*s != '`')
			*o++ = *s;
	*o = '\0';
	return out;
}

/*
 * A headline for a story whose subject makes none (issue #27: the top
 * story leads, however hard its subject is to turn): its words as they
 * are, title-cased, when short and free of quotes and brackets ("Enable
 * Significand on macOS", "Remap ERROR_NO_DATA to EAGAIN"); else its kind
 * and the area its subject names ("A Fix in Win"); else its kind and
 * author.
 */
static int
title_story_plain(struct buf *b, const struct draft_item *it)
{
	const char	*area = it->cl.area, *p;
	char		*what;
	size_t		 n, nw = 0;
	int		 ok;

	/* code marks are not said: "Add `--header-border=inline`" */
	what = title_unmarked(it->cl.what);
	for (p = what; *p != '\0'; p += n) {
		p += strspn(p, " ");
		if ((n = strcspn(p, " ")) > 0)
			nw++;
	}
	/* (brace alternations are said as words: draft_braces) */
	ok = nw >= 2 && nw <= 10 && strpbrk(what, "\"[]()<>|\\*") == NULL;
	if (ok) {
		for (p = what, nw = 0; *p != '\0'; p += n) {
			p += strspn(p, " ");
			if ((n = strcspn(p, " ")) == 0)
				break;
			if (nw++ > 0)
				buf_putc(b, ' ');
			title_word(b, p, n, nw == 1);
		}
		free(what);
		return 1;
	}
	free(what);
	buf_printf(b, "A %s ", title_kind_noun(it->cl.kind));
	if (area != NULL && it->cl.area_titled &&
	    phrase_plain(area, strlen(area))) {
		buf_puts(b, "in ");
		title_area(b, area);
	} else
		buf_printf(b, "from %s", it->name);
	return 1;
}

int
title_rollback_said(struct buf *b, const struct draft_item *it)
{
	char	*what, *plain;
	size_t	 words = 0;
	int	 ok;

	if ((what = rollback_what(it)) == NULL)
		return 0;
	plain = title_unmarked(what);
	free(what);
	for (what = plain; *what != '\0'; what++)
		words += *what == ' ';
	ok = plain[0] != '\0' && words < 12 && strchr(plain, '"') == NULL;
	if (ok)
		buf_printf(b, "\"%s\"", plain);
	free(plain);
	return ok;
}

static int
title_rollback(struct buf *b, const struct draft_item *it)
{
	struct buf	 h;
	char		*what;
	int		 ok;

	buf_init(&h);
	what = rollback_what(it);
	ok = what != NULL && title_headline_case(&h, what, 1, 1);
	free(what);
	if (ok)
		buf_printf(b, "%s: %s", it->cl.kind == CLASSIFY_RELAND ?
		    "Re-landed" : "Rolled Back", buf_str(&h));
	buf_free(&h);
	return ok || title_story_plain(b, it);
}

/*
 * A title from the day's top story (select_top): a release, a breaking
 * change it states, its headline, or its kind and area. 0 when the top
 * story is a chore or none; 2 when it is a rollback, said.
 */
static int
title_from_story(struct draft *d, struct buf *b)
{
	struct draft_item	*rel, *top;
	enum quote_break	  k;
	char			 *pkg, *ver, *what = NULL;
	size_t			  n;

	if ((rel = title_release(d, &pkg, &ver)) != NULL) {
		title_release_title(b, d, rel, pkg, ver);
		free(pkg);
		free(ver);
		return 1;
	}
	if ((top = select_top(d)) == NULL || top->cl.bot ||
	    select_rank(top) >= SELECT_RANK_CHORE)
		return 0;
	if (select_rank(top) == SELECT_RANK_ROLLBACK)
		return title_rollback(b, top) ? 2 : 0;
	if (!title_story_ok(top))
		return 0;
	k = focus_breaking_of(top, &what);
	if (k == QUOTE_BREAK_SUPPORT)
		buf_printf(b, "Support for %s Dropped", what);
	else if (k == QUOTE_BREAK_MINIMUM) {
		n = strlen(what);
		while (n > 0 && what[n - 1] == '+')
			n--;
		buf_printf(b, "%s%.*s Now Required", isdigit((unsigned char)
		    what[0]) ? "Version " : "", (int)n, what);
	}
	free(what);
	if (b->len > 0)
		return 1;
	return title_headline(b, top) || title_story_plain(b, top);
}

void
title_episode(struct draft *d)
{
	struct buf	 b;
	size_t		 i, deprecated = 0, reverts, relands, na;
	const char	*areas[3];
	struct draft_item *top;
	char		*pkg, *ver;
	int		 paired = 0, told_rollback = 0;

	buf_init(&b);
	reverts = d->ep->stats.reverts;
	relands = d->ep->stats.relands;
	for (i = 0; i < d->nitems; i++) {
		if (d->items[i].cl.kind == CLASSIFY_RELAND &&
		    d->items[i].c->reverts_idx >= 0)
			paired = 1;
	}
	switch (d->theme) {
	case DRAFT_THEME_EMPTY:
		buf_puts(&b, d->ep->stats.merged_prs > 0 ?
		    "No Commits, a Few Merges" : "A Quiet Day");
		if (d->ep->stats.merged_prs == 1)
			b.len = 0, buf_puts(&b, "No Commits, One Merge");
		break;
	case DRAFT_THEME_QUIET:
		buf_printf(&b, "A Quiet Day and One %s",
		    title_kind_noun(d->theme_kind));
		if (d->items[0].cl.area != NULL &&
		    d->items[0].cl.area_titled) {
			buf_puts(&b, " in ");
			title_area(&b, d->items[0].cl.area);
		}
		break;
	case DRAFT_THEME_ROLLBACK:
		/* the project's release leads a day of rollbacks too; a
		   title counts right: one rollback is no "day of" them */
		if ((top = title_release(d, &pkg, &ver)) != NULL) {
			title_release_title(&b, d, top, pkg, ver);
			free(pkg);
			free(ver);
			break;
		}
		if (reverts + relands == 1 && (top = select_top(d)) != NULL &&
		    select_rank(top) == SELECT_RANK_ROLLBACK &&
		    title_rollback(&b, top))
			break;
		buf_puts(&b, relands > 0 && reverts > 0 ? (paired ?
		    "Rollbacks and Recovery" : "Rollbacks and Re-lands") :
		    relands > 1 ? "Work Re-landed" : relands == 1 ?
		    "A Change Re-landed" : reverts > 1 ?
		    "A Day of Rollbacks" : "A Change Rolled Back");
		if (d->theme_area != NULL) {
			buf_puts(&b, " in ");
			title_area(&b, d->theme_area);
		}
		break;
	case DRAFT_THEME_KIND:
		for (i = 0; i < d->nitems; i++) {
			if (d->items[i].cl.kind == CLASSIFY_CLEANUP &&
			    strcasestr(d->items[i].c->subject != NULL ?
			    d->items[i].c->subject : "", "deprecat") != NULL)
				deprecated++;
		}
		na = 0;
		if ((told_rollback = title_from_story(d, &b)) != 0)
			told_rollback = told_rollback == 2;
		else if (d->theme_kind == CLASSIFY_CLEANUP && deprecated >= 2)
			buf_puts(&b, "Deprecated Code Cleared Out");
		else if (d->theme_kind == CLASSIFY_CHANGE)
			na = 0;	/* directory names are not a story */
		else
			na = title_top_areas(d, areas, 2);
		if (b.len == 0)
			buf_puts(&b, d->theme_kind == CLASSIFY_CHANGE &&
			    na == 0 ? "A Steady Day of Changes" :
			    title_kind(d->theme_kind));
		if (na > 0 && d->theme_kind != CLASSIFY_DOCS &&
		    d->theme_kind != CLASSIFY_TESTS &&
		    d->theme_kind != CLASSIFY_BUILD &&
		    d->theme_kind != CLASSIFY_DEPS) {
			buf_puts(&b, d->theme_kind == CLASSIFY_CHANGE ?
			    " on " : " in ");
			for (i = 0; i < na; i++) {
				if (i > 0)
					buf_puts(&b, i == na - 1 ? " and " :
					    ", ");
				title_area(&b, areas[i]);
			}
		}
		/* the rollback the title is about is no "plus" */
		if (told_rollback && (top = select_top(d)) != NULL) {
			if (top->cl.kind == CLASSIFY_RELAND && relands > 0)
				relands--;
			else if (top->cl.kind == CLASSIFY_REVERT && reverts > 0)
				reverts--;
		}
		if (reverts > 0 && relands > 0)
			buf_puts(&b, paired ? ", Plus a Rollback and Recovery" :
			    ", Plus a Rollback and a Re-land");
		else if (reverts > 0)
			buf_puts(&b, reverts == 1 ? ", Plus a Rollback" :
			    ", Plus Rollbacks");
		else if (relands > 0)
			buf_puts(&b, relands == 1 ? ", Plus a Re-land" :
			    ", Plus Re-lands");
		break;
	}
	d->ep->title = buf_steal(&b);
}

/* A sentence with the figures of an item's prose, if it has any. */
static void
title_figure(struct buf *b, const struct draft_item *it)
{
	const char	*p, *end, *start;

	/* the figures are read with the prose: draft_prose first */
	if (draft_prose(it) == NULL || it->cl.nfigures == 0 ||
	    (p = strstr(draft_prose(it), it->cl.figures[0])) == NULL)
		return;
	for (start = p; start > draft_prose(it) && !(start[-1] == ' ' &&
	    start - 1 > draft_prose(it) && start[-2] == '.'); start--)
		continue;
	end = strstr(p, ". ");
	end = end != NULL ? end + 1 : p + strlen(p);
	phrase_space(b);
	buf_append(b, start, (size_t)(end - start));
	phrase_sentence_end(b);
}

/*
 * The description: the show and the day, then one or two sentences that
 * make a listener want to hear it: the release or the top story with its
 * figure, and a second story, the breaking change or the rollbacks.
 */
void
title_description(struct draft *d)
{
	const struct day_stats	*st = &d->ep->stats;
	struct buf		 b;
	struct draft_item	**v, *rel, *top = NULL, *second = NULL;
	enum quote_break	 k;
	char			*pkg, *ver, *what;
	size_t			 n, i;
	int			 broke = 0;

	buf_init(&b);
	buf_printf(&b, "%s for %s, in the %s repository.", d->ep->show,
	    d->datestr, d->repo);
	if (d->nitems == 0) {
		buf_puts(&b, " A quiet day: no commits landed");
		if (st->merged_prs > 0) {
			buf_puts(&b, ", though ");
			spoken_count(&b, (long long)st->merged_prs,
			    "pull request was", "pull requests were");
			buf_puts(&b, " merged");
		}
		buf_putc(&b, '.');
		d->ep->description = buf_steal(&b);
		return;
	}
	for (i = 0; i < d->nitems; i++)
		d->items[i].told = d->items[i].lead != NULL;
	v = title_stories(d, &n);
	if (n > 0)
		top = v[0];
	if (n > 1)
		second = v[1];
	if (top == NULL) {
		/* a day of chores: its most significant human change */
		for (i = 0; i < d->nitems; i++) {
			if (title_story_ok(&d->items[i]) && (top == NULL ||
			    d->items[i].cl.score > top->cl.score))
				top = &d->items[i];
		}
	}
	if ((rel = title_release(d, &pkg, &ver)) != NULL) {
		phrase_space(&b);
		buf_printf(&b, "%s released ", rel->name);
		title_release_name(&b, d, pkg, ver);
		buf_putc(&b, '.');
		free(pkg);
		free(ver);
		if (top == rel)
			top = second;
		second = NULL;
	}
	if (top != NULL) {
		tell_did_sentence(&b, top, rel == NULL ? "The top story: " :
		    "Also, ");
		title_figure(&b, top);
	}
	/* a breaking change, when the stories told do not say it */
	for (i = 0; i < d->nitems && !broke && rel == NULL; i++) {
		if (!title_story_ok(&d->items[i]))
			continue;
		k = focus_breaking_of(&d->items[i], &what);
		if (k == QUOTE_BREAK_SUPPORT) {
			buf_printf(&b, " Support for %s was dropped.", what);
			broke = 1;
		} else if (k == QUOTE_BREAK_MINIMUM) {
			n = strlen(what);
			while (n > 0 && what[n - 1] == '+')
				n--;
			buf_printf(&b, " It now needs %s%.*s or newer.",
			    isdigit((unsigned char)what[0]) ? "version " : "",
			    (int)n, what);
			broke = 1;
		}
		free(what);
	}
	if (!broke && rel == NULL && second != NULL && st->reverts == 0)
		tell_did_sentence(&b, second, "And ");
	else if (!broke && st->reverts > 0) {
		phrase_space(&b);
		spoken_count_cap(&b, (long long)st->reverts,
		    "change was", "changes were");
		buf_puts(&b, " rolled back.");
	}
	free(v);
	d->ep->description = buf_steal(&b);
}
