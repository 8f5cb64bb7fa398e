/*
 * What several of a day's changes share, said once. A listener follows
 * "Six of today's changes remove deprecated code." where six sentences
 * of "deleted the deprecated X" each told one item; and "bumped five
 * GitHub Actions, three of them to a new major version" where a list of
 * five names and ten version numbers told nothing anyone could keep.
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
#include "words.h"
#include "xmalloc.h"

/* A theme's changes: three at least, and one in six of the day's. */
#define THEME_MIN	3
#define THEME_SHARE	6

/* The major version a version string starts with ("^2.0.1", "v6"), or -1. */
static long
theme_major(const char *v, size_t n)
{
	size_t	i = 0;
	long	m = 0;

	while (i < n && (v[i] == '^' || v[i] == '~' || v[i] == '=' ||
	    v[i] == 'v' || v[i] == 'V'))
		i++;
	if (i >= n || !isdigit((unsigned char)v[i]))
		return -1;
	for (; i < n && isdigit((unsigned char)v[i]) && m < 1000000; i++)
		m = m * 10 + (v[i] - '0');
	return m;
}

/* The length of the version at v ("6.0.0", "^2.0.1", "v6"), or 0. */
static size_t
theme_version(const char *v)
{
	size_t	n = strcspn(v, " ,;()");

	while (n > 0 && v[n - 1] == '.')
		n--;
	return theme_major(v, n) >= 0 ? n : 0;
}

/* The n-byte version at v as said: "^2.0.0" is "2.0.0" (new). */
static char *
theme_version_dup(const char *v, size_t n)
{
	while (n > 0 && (*v == '^' || *v == '~' || *v == '='))
		v++, n--;
	return xstrndup(v, n);
}

/*
 * Whether the n-byte token at w names no package: a word of the language
 * in lowercase letters ("digest", "action", "locked"), or one that says
 * what is bumped without naming it ("version", "dependencies").
 */
static const char *const theme_vague[] = { "version", "versions",
    "dependency", "dependencies", "deps", "it", "them", "all", "everything",
    "lockfile", "toolchain", "nightly", NULL };

static int
theme_plain_token(const char *w, size_t n)
{
	if (phrase_word_in(w, n, theme_vague))
		return 1;
	return phrase_plain(w, n) && memchr(w, '-', n) == NULL &&
	    words_known(w, n);
}

/* Skip one of the NULL-ended words (and its space) at *s; 1 if one was. */
static int
theme_skip(const char **s, const char *const *words)
{
	size_t	i, n;

	for (i = 0; words[i] != NULL; i++) {
		n = strlen(words[i]);
		if (strncasecmp(*s, words[i], n) == 0 && (*s)[n] == ' ') {
			*s += n + 1;
			return 1;
		}
	}
	return 0;
}

/*
 * The package and versions of a bump's words: *name (new), the majors.
 * "bump X from A to B", "update X to B", "upgrade to X@B", "X@^B"; of
 * a change classified as a dependency's (deps), "X B" ("fix(deps):
 * body-parser@^2.0.1" is read "body-parser 2.0.1").
 */
static int
theme_bump_read(const char *what, int deps, char **name, long *from,
    long *to, char **tover)
{
	static const char *const verbs[] = { "bump", "bumps", "bumped",
	    "update", "updates", "updated", "upgrade", "upgrades",
	    "upgraded", NULL };
	static const char *const skip[] = { "to", "the", NULL };
	const char	*s = what, *at, *tok[8], *p;
	size_t		 len[8], ntok = 0, n, k;
	int		 verb;

	*from = *to = -1;
	verb = theme_skip(&s, verbs);
	while (verb && theme_skip(&s, skip))
		continue;
	/* "body-parser@^2.0.1", "@types/node@20": the whole of it */
	n = strcspn(s, " ");
	if ((at = memchr(s + 1, '@', n > 0 ? n - 1 : 0)) != NULL) {
		while ((p = memchr(at + 1, '@', (size_t)(s + n - at - 1))) !=
		    NULL)
			at = p;
		if (at == s || theme_version(at + 1) != (size_t)(s + n - at -
		    1) || (s[n] != '\0' && !verb))
			return 0;
		*name = xstrndup(s, (size_t)(at - s));
		*to = theme_major(at + 1, (size_t)(s + n - at - 1));
		*tover = theme_version_dup(at + 1, (size_t)(s + n - at - 1));
		return 1;
	}
	if (!verb || (n > 0 && s[n] == ' ' && theme_version(s + n + 1) > 0 &&
	    s[n + 1 + theme_version(s + n + 1)] == '\0')) {
		/* "body-parser 2.0.1", the whole of it, or after a verb
		   ("upgrade to body-parser 1.20.3") */
		if ((!deps && !verb) || n == 0 || s[n] != ' ' ||
		    theme_version(s + n + 1) == 0 ||
		    s[n + 1 + theme_version(s + n + 1)] != '\0' ||
		    phrase_word_in(s, n, theme_vague))
			return 0;
		*name = xstrndup(s, n);
		*to = theme_major(s + n + 1, theme_version(s + n + 1));
		*tover = theme_version_dup(s + n + 1,
		    theme_version(s + n + 1));
		return 1;
	}
	/* the words up to "from" or "to" */
	for (p = s; *p != '\0' && ntok < 8; p += n + (p[n] == ' ')) {
		n = strcspn(p, " ");
		if ((n == 4 && strncmp(p, "from", 4) == 0) ||
		    (n == 2 && strncmp(p, "to", 2) == 0))
			break;
		tok[ntok] = p;
		len[ntok++] = n;
	}
	if (ntok == 0 || *p == '\0' || ntok == 8)
		return 0;
	if (strncmp(p, "from ", 5) == 0) {
		if ((n = theme_version(p + 5)) == 0)
			return 0;
		*from = theme_major(p + 5, n);
		p += 5 + n;
		if (strncmp(p, " to ", 4) != 0)
			return 0;
		p++;
	}
	if (strncmp(p, "to ", 3) != 0 || (n = theme_version(p + 3)) == 0)
		return 0;
	*to = theme_major(p + 3, n);
	/* the package: the last token that is no plain word ("actions/
	   cache" of "actions/cache digest"); one alone may be one */
	for (k = ntok; k > 0 && theme_plain_token(tok[k - 1], len[k - 1]);
	    k--)
		continue;
	if (k == 0 && ntok == 1 && !phrase_word_in(tok[0], len[0],
	    theme_vague))
		k = 1;
	if (k == 0)
		return 0;
	*name = xstrndup(tok[k - 1], len[k - 1]);
	*tover = theme_version_dup(p + 3, theme_version(p + 3));
	return 1;
}

/* Whether every file a commit touches is under .github/. */
static int
theme_workflow_only(const struct commit *c)
{
	char *const	*lists[3] = { c->added, c->modified, c->removed };
	size_t		 counts[3] = { c->nadded, c->nmodified, c->nremoved };
	size_t		 i, j, n = 0;

	for (i = 0; i < 3; i++) {
		for (j = 0; j < counts[i]; j++, n++)
			if (strncmp(lists[i][j], ".github/", 8) != 0)
				return 0;
	}
	return n > 0;
}

int
theme_bump(const struct draft_item *it, struct theme_bump *b)
{
	static const char *sec[] = { "security", "cve-", "vulnerab",
	    "ghsa-", NULL };
	const struct commit	*c = it->c;
	char			*name, *l, *tover;
	long			 from, to;

	if (it->cl.what == NULL || !theme_bump_read(it->cl.what,
	    it->cl.kind == CLASSIFY_DEPS, &name, &from, &to, &tover))
		return 0;
	if (b == NULL) {
		free(name);
		free(tover);
		return 1;
	}
	memset(b, 0, sizeof *b);
	b->name = name;
	b->to_version = tover;
	b->from_major = from;
	b->to_major = to;
	/* an owner/name bumped from a workflow: dependabot's branch says
	   so, or the files are the workflows' */
	b->action = name[0] != '@' && strchr(name, '/') != NULL &&
	    strchr(name, '.') == NULL && (phrase_contains(c->subject,
	    "github_actions") || phrase_contains(c->subject,
	    "github-actions") || theme_workflow_only(c) ||
	    strncmp(name, "actions/", 8) == 0);
	b->breaking = it->cl.breaking != QUOTE_BREAK_NONE;
	l = text_lower(c->subject);
	b->security = text_has_any(l, sec);
	free(l);
	if (!b->security && c->body != NULL) {
		l = text_lower(c->body);
		b->security = text_has_any(l, sec);
		free(l);
	}
	return 1;
}

void
theme_bump_clear(struct theme_bump *b)
{
	free(b->name);
	free(b->to_version);
	b->name = b->to_version = NULL;
}

int
theme_bump_major(const struct theme_bump *b)
{
	return (b->from_major >= 0 && b->to_major > b->from_major) ||
	    (b->breaking && b->to_major > 0);
}

/*
 * "actions/checkout to version 6.0.0" (the version as the input says, a
 * number a listener can look up) or "a security fix in body-parser".
 */
static char *
theme_bump_named(const struct theme_bump *b)
{
	char	*s;

	if (b->security)
		xasprintf(&s, "a security fix in %s", b->name);
	else
		xasprintf(&s, "%s to version %s", b->name, b->to_version);
	return s;
}

void
theme_bumps_said(struct buf *out, struct draft_item **v, size_t n)
{
	struct theme_bump	*b;
	const char		*named[2];
	char			*owned[2];
	size_t			 i, nb = 0, nact = 0, nsec = 0, nmaj = 0, k = 0;
	int			 pass;

	b = xcalloc(n + 1, sizeof *b);
	for (i = 0; i < n; i++) {
		if (!theme_bump(v[i], &b[nb]))
			continue;
		nact += b[nb].action;
		nsec += b[nb].security;
		nmaj += !b[nb].security && theme_bump_major(&b[nb]);
		nb++;
	}
	buf_puts(out, "bumped ");
	if (nb == n && nact == n)
		spoken_count(out, (long long)n, "GitHub Action",
		    "GitHub Actions");
	else
		spoken_count(out, (long long)n, "dependency", "dependencies");
	/* what matters by name: security fixes, then new majors */
	if (nsec > 2) {
		buf_puts(out, ", ");
		spoken_count(out, (long long)nsec, "of them a security fix",
		    "of them security fixes");
	} else if (nsec == 0 && nmaj > 2) {
		if (nmaj == n)
			buf_puts(out, ", each to a new major version");
		else {
			buf_puts(out, ", ");
			spoken_count(out, (long long)nmaj,
			    "of them to a new major version",
			    "of them to a new major version");
		}
	} else {
		for (pass = 0; pass < 2; pass++) {
			for (i = 0; i < nb && k < 2; i++) {
				if (pass == 0 ? !b[i].security :
				    (b[i].security || !theme_bump_major(&b[i])))
					continue;
				owned[k] = theme_bump_named(&b[i]);
				named[k] = owned[k];
				k++;
			}
		}
		if (k > 0) {
			buf_puts(out, k == n ? ": " : ", among them ");
			spoken_list(out, named, k);
		}
		for (i = 0; i < k; i++)
			free(owned[i]);
	}
	for (i = 0; i < nb; i++)
		theme_bump_clear(&b[i]);
	free(b);
}

/*
 * Whether an area can be said as a thing a listener uses: a name in
 * capitals or with a digit ("HTTP", "QUIC", "X86"), or a word of five
 * letters or more ("runtime", "inductor", "Dynamo"), or of four the word
 * list knows ("sync"). A short code name is heard as another word or as
 * letters: "If your code leans on win" (libuv's Windows code), "fs",
 * "mps", "src", "util".
 */
int
theme_area_said(const char *area)
{
	size_t	n = strlen(area), i, upper = 0, digit = 0, other = 0;

	for (i = 0; i < n; i++) {
		if (isupper((unsigned char)area[i]))
			upper++;
		else if (isdigit((unsigned char)area[i]))
			digit++;
		else if (!islower((unsigned char)area[i]) && area[i] != '-')
			other++;
	}
	if (upper >= 2 || (upper > 0 && digit > 0))
		return 1;
	/* four letters may be a clipped word ("util"): the list says */
	return other == 0 && digit == 0 && (n >= 5 || (n == 4 &&
	    words_known(area, n)));
}

/* The themes a change may belong to. */
enum theme_kind {
	THEME_LEGACY,		/* legacy or deprecated code taken out */
	THEME_MEMORY,		/* a memory error guarded against */
	THEME_SECURITY,		/* a security fix */
	THEME_NKINDS
};

/* The text a change's theme is read from: its subject and its body. */
static char *
theme_text(const struct draft_item *it)
{
	char	*s, *l;

	xasprintf(&s, "%s\n%s", it->cl.subject != NULL ? it->cl.subject :
	    "", it->c->body != NULL ? it->c->body : "");
	l = text_lower(s);
	free(s);
	return l;
}

/*
 * Whether a change takes legacy code out: its verb removes ("remove",
 * "drop", "delete") and its message calls what goes old ("deprecated",
 * "legacy", "obsolete", "no longer"), or its breaking kind is a removal.
 * *deprecated is cleared unless it says "deprecat".
 */
static int
theme_legacy(struct draft_item *it, const char *l, int *deprecated)
{
	static const char *const verbs[] = { "remove", "removes", "drop",
	    "drops", "delete", "deletes", "removed", "dropped", "deleted",
	    NULL };
	static const char *old[] = { "deprecat", "legacy", "obsolete",
	    "outdated", "unsupported", "no longer", NULL };
	size_t	n = phrase_first_word(it->cl.what);

	if (n == 0 || !phrase_word_in(it->cl.what, n, verbs))
		return 0;
	if (!text_has_any(l, old) &&
	    focus_breaking_of(it, NULL) != QUOTE_BREAK_REMOVED)
		return 0;
	if (strstr(l, "deprecat") == NULL)
		*deprecated = 0;
	return 1;
}

/*
 * Whether a change guards against a memory error (an overflow, a
 * use-after-free, a read out of bounds, a null pointer).
 */
static int
theme_memory(const char *l)
{
	static const char *mem[] = { "overflow", "use-after-free",
	    "use after free", "out-of-bounds", "out of bounds",
	    "double free", "double-free", "memory disclosure",
	    "memory corruption", "segfault", "segmentation fault",
	    "null pointer", "null dereference", "null deref", "over-read",
	    "overread", "underflow", "heap-buffer", NULL };
	const char	*p;

	if (text_has_any(l, mem))
		return 1;
	/* "passed with NULL data pointer" */
	return (p = strstr(l, "null ")) != NULL && strstr(p, "pointer") !=
	    NULL && strcspn(p, ".\n") > (size_t)(strstr(p, "pointer") - p);
}

static int
theme_security(const char *l)
{
	static const char *sec[] = { "security", "cve-", "vulnerab",
	    "ghsa-", NULL };

	return text_has_any(l, sec);
}

/* Whether a change of the day counts toward a theme at all. */
static int
theme_counts(const struct draft_item *it)
{
	return !it->cl.bot && !it->cl.merge && it->cl.kind !=
	    CLASSIFY_REVERT && it->c->reverted_by_idx < 0 &&
	    it->cl.what != NULL && it->cl.what[0] != '\0';
}

/*
 * A credit trailer's verb and name ("Found by ZeroPath", "Reported-by:
 * Joshua Rogers <x@y>", "Spotted by Copilot"): *verb the past tense said,
 * the name (new) without its address; NULL when the line is none.
 */
static char *
theme_credit(const char *line, size_t n, const char **verb)
{
	static const struct {
		const char	*trailer;
		const char	*verb;
	} credits[] = {
		{ "found by ", "found" }, { "found-by: ", "found" },
		{ "reported by ", "reported" }, { "reported-by: ", "reported" },
		{ "spotted by ", "spotted" }, { "spotted-by: ", "spotted" },
		{ "detected by ", "found" }, { "pointed out by ", "found" },
	};
	size_t	i, k, m;

	while (n > 0 && (*line == ' ' || *line == '\t'))
		line++, n--;
	for (i = 0; i < sizeof credits / sizeof credits[0]; i++) {
		k = strlen(credits[i].trailer);
		if (n <= k || strncasecmp(line, credits[i].trailer, k) != 0)
			continue;
		line += k, n -= k;
		/* the name: up to an address, a bracket or the line's end */
		m = strcspn(line, "<([\n");
		if (m > n)
			m = n;
		while (m > 0 && (line[m - 1] == ' ' || line[m - 1] == '.' ||
		    line[m - 1] == ','))
			m--;
		/* a name, not a sentence: a few words, a letter in it */
		if (m == 0 || m > 40 || !isalpha((unsigned char)line[0]))
			return NULL;
		*verb = credits[i].verb;
		return xstrndup(line, m);
	}
	return NULL;
}

/* The credit of a change (new), or NULL; *verb its past tense. */
static char *
theme_credit_of(const struct draft_item *it, const char **verb)
{
	const char	*p, *body = it->c->body;
	char		*name;
	size_t		 n;

	if (body == NULL)
		return NULL;
	for (p = body; *p != '\0'; p += n + (p[n] == '\n')) {
		n = strcspn(p, "\n");
		if ((name = theme_credit(p, n, verb)) != NULL)
			return name;
	}
	return NULL;
}

/* A change's credit: the name and the verb its trailer said. */
struct theme_credit {
	char		*name;
	const char	*verb;
	size_t		 idx;
};

static int
theme_credit_cmp(const void *a, const void *b)
{
	const struct theme_credit	*x = a, *y = b;
	int				 c;

	if ((c = strcasecmp(x->name, y->name)) != 0)
		return c;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/*
 * The one name credited most often (the first met of equals), told as
 * "X found the problems behind three of today's changes": its count,
 * *who (new) and *verb. Sorted and counted by runs, not each against
 * the others: a day of many thousand credited commits stays linear.
 */
static size_t
theme_credits(struct draft *d, char **who, const char **verb)
{
	struct theme_credit	*v;
	size_t			 i, j, n = 0, best = 0, at = 0;

	*who = NULL;
	v = xcalloc(d->nitems + 1, sizeof *v);
	for (i = 0; i < d->nitems; i++) {
		if (!theme_counts(&d->items[i]))
			continue;
		if ((v[n].name = theme_credit_of(&d->items[i], &v[n].verb)) !=
		    NULL)
			v[n++].idx = i;
	}
	qsort(v, n, sizeof *v, theme_credit_cmp);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && strcasecmp(v[i].name, v[j].name) ==
		    0; j++)
			continue;
		if (j - i > best || (j - i == best && v[i].idx < v[at].idx)) {
			best = j - i;
			at = i;
		}
	}
	if (best > 0) {
		*who = v[at].name;
		*verb = v[at].verb;
		v[at].name = NULL;
	}
	for (i = 0; i < n; i++)
		free(v[i].name);
	free(v);
	return best;
}

/*
 * ", all in QUIC and HTTP" when every change of the theme names one of
 * two areas at most in its title.
 */
static void
theme_areas(struct buf *b, struct draft_item **v, size_t n)
{
	const char	*areas[2];
	size_t		 i, j, na = 0;

	for (i = 0; i < n; i++) {
		if (v[i]->cl.area == NULL || !v[i]->cl.area_titled)
			return;
		for (j = 0; j < na && strcmp(areas[j], v[i]->cl.area) != 0;
		    j++)
			continue;
		if (j == na) {
			if (na == 2)
				return;
			areas[na++] = v[i]->cl.area;
		}
	}
	buf_puts(b, na == 1 ? ", all in " : ", in ");
	spoken_list(b, areas, na);
}

static int
theme_area_cmp(const void *a, const void *b)
{
	const struct draft_item	*x = *(const struct draft_item *const *)a;
	const struct draft_item	*y = *(const struct draft_item *const *)b;
	int			 c;

	if ((c = strcmp(x->cl.area, y->cl.area)) != 0)
		return c;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/*
 * The area most of the day's work of a user's kind names in its title
 * (a fix, a feature, a change; not tests, docs, build or dependencies),
 * when it holds THEME_MIN changes and half the day's at least, and can
 * be said: its count, *area borrowed from an item.
 */
static size_t
theme_area_run(struct draft *d, size_t total, const char **area)
{
	struct draft_item	**v;
	size_t			  i, j, n = 0, best = 0;

	*area = NULL;
	v = xcalloc(d->nitems + 1, sizeof *v);
	for (i = 0; i < d->nitems; i++) {
		struct draft_item *it = &d->items[i];

		if (theme_counts(it) && it->cl.area != NULL &&
		    it->cl.area_titled && it->cl.kind != CLASSIFY_TESTS &&
		    it->cl.kind != CLASSIFY_DOCS &&
		    it->cl.kind != CLASSIFY_BUILD &&
		    it->cl.kind != CLASSIFY_DEPS)
			v[n++] = it;
	}
	qsort(v, n, sizeof *v, theme_area_cmp);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && strcmp(v[i]->cl.area,
		    v[j]->cl.area) == 0; j++)
			continue;
		if (j - i > best) {
			best = j - i;
			*area = v[i]->cl.area;
		}
	}
	free(v);
	if (best < THEME_MIN || best * 2 < total || *area == NULL ||
	    !theme_area_said(*area))
		return 0;
	return best;
}

int
theme_sentence(struct buf *b, struct draft *d)
{
	struct draft_item	**v[THEME_NKINDS];
	size_t			  nv[THEME_NKINDS] = { 0 }, i, k, total = 0;
	size_t			  best = THEME_NKINDS, ncredit, narea;
	const char		 *verb = NULL, *area;
	char			 *l, *who;
	int			  deprecated = 1, said = 0;

	for (k = 0; k < THEME_NKINDS; k++)
		v[k] = xcalloc(d->nitems + 1, sizeof *v[k]);
	for (i = 0; i < d->nitems; i++) {
		struct draft_item *it = &d->items[i];

		if (!theme_counts(it))
			continue;
		total++;
		/* a test or a doc guards nothing a user runs */
		l = theme_text(it);
		if (theme_legacy(it, l, &deprecated))
			v[THEME_LEGACY][nv[THEME_LEGACY]++] = it;
		else if (it->cl.kind != CLASSIFY_TESTS &&
		    it->cl.kind != CLASSIFY_DOCS &&
		    it->cl.kind != CLASSIFY_BUILD &&
		    it->cl.kind != CLASSIFY_DEPS) {
			if (theme_security(l))
				v[THEME_SECURITY][nv[THEME_SECURITY]++] = it;
			else if (theme_memory(l))
				v[THEME_MEMORY][nv[THEME_MEMORY]++] = it;
		}
		free(l);
	}
	for (k = 0; k < THEME_NKINDS; k++) {
		if (nv[k] >= THEME_MIN && nv[k] * THEME_SHARE >= total &&
		    (best == THEME_NKINDS || nv[k] > nv[best]))
			best = k;
	}
	ncredit = theme_credits(d, &who, &verb);
	if (ncredit >= THEME_MIN && ncredit * THEME_SHARE >= total &&
	    (best == THEME_NKINDS || ncredit > nv[best])) {
		/* "ZeroPath found the problems behind three of today's
		   changes." */
		phrase_space(b);
		buf_printf(b, "%s %s the problems behind ", who, verb);
		spoken_count(b, (long long)ncredit, "of today's changes",
		    "of today's changes");
		buf_putc(b, '.');
		said = 1;
	} else if (best != THEME_NKINDS) {
		phrase_space(b);
		spoken_count_cap(b, (long long)nv[best], "of today's changes",
		    "of today's changes");
		switch (best) {
		case THEME_LEGACY:
			buf_puts(b, deprecated ? " remove deprecated code" :
			    " remove legacy code");
			break;
		case THEME_SECURITY:
			buf_puts(b, " are security fixes");
			break;
		default:
			buf_puts(b, " guard against memory errors");
			break;
		}
		theme_areas(b, v[best], nv[best]);
		buf_putc(b, '.');
		said = 1;
	} else if ((narea = theme_area_run(d, total, &area)) > 0) {
		/* "Four of today's changes touch QUIC." */
		phrase_space(b);
		spoken_count_cap(b, (long long)narea, "of today's changes",
		    "of today's changes");
		buf_printf(b, " touch %s.", area);
		said = 1;
	}
	free(who);
	for (k = 0; k < THEME_NKINDS; k++)
		free(v[k]);
	return said;
}
