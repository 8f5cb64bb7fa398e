/*
 * Reading a commit for the episode: kind, area, bot, significance, and the
 * plain words, figures and settings its message gives.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "classify.h"
#include "files.h"
#include "phrase.h"
#include "prose.h"
#include "quote.h"
#include "text.h"
#include "xmalloc.h"

#define CLASSIFY_MAXTAG		64

static const char *classify_kind_names[CLASSIFY_NKINDS] = {
	"revert", "reland", "feature", "performance", "fix", "docs", "tests",
	"build", "dependencies", "cleanup", "change"
};

/* Title tags that say something other than an area. */
static const char *classify_plain_tags[] = {
	"reland", "re-land", "relanding", "revert", "be", "wip", "rfc",
	"draft", "easy", "ez", "nfc", "bc-breaking", "bc breaking", "skip ci",
	"ci skip", "test", "tests", "testing", "docs", "doc", "ci", "perf",
	"quick", "minor", "trivial", "hotfix", "fix", "feature", "feat",
	"refactor", "cleanup", "chore", NULL
};

/* Conventional-commit types and the kind each means. */
static const struct {
	const char		*type;
	enum classify_kind	 kind;
} classify_conventional[] = {
	{ "feat", CLASSIFY_FEATURE },
	{ "feature", CLASSIFY_FEATURE },
	{ "fix", CLASSIFY_FIX },
	{ "bugfix", CLASSIFY_FIX },
	{ "hotfix", CLASSIFY_FIX },
	{ "perf", CLASSIFY_PERF },
	{ "docs", CLASSIFY_DOCS },
	{ "doc", CLASSIFY_DOCS },
	{ "test", CLASSIFY_TESTS },
	{ "tests", CLASSIFY_TESTS },
	{ "build", CLASSIFY_BUILD },
	{ "ci", CLASSIFY_BUILD },
	{ "deps", CLASSIFY_DEPS },
	{ "style", CLASSIFY_CLEANUP },
	{ "refactor", CLASSIFY_CLEANUP },
	{ "cleanup", CLASSIFY_CLEANUP },
	{ "chore", CLASSIFY_CHANGE },	/* decided by the words */
	{ "revert", CLASSIFY_REVERT },
};

/* Words of a subject that tell a kind (word starts, lowercase). */
static const char *classify_perf_words[] = {
	"perf", "speed up", "speedup", "speed-up", "faster", "optimiz",
	"optimis", "accelerat", "latency", "throughput", "fast path",
	"fastpath", "vectoriz", NULL
};
static const char *classify_fix_words[] = {
	"fix", "bug", "crash", "regression", "leak", "overflow", "segfault",
	"warning", "broken", "incorrect", "wrong", "hang", "race", "failure",
	"failing", "deadlock", "use-after-free", "uaf", "oob", "correct",
	"repair", "prevent", "unbreak", "workaround", "null pointer",
	"null deref", "error", NULL
};
static const char *classify_docs_words[] = {
	"doc", "docs", "documentation", "readme", "typo", "comment",
	"changelog", "release notes", "release-notes", "manpage", "man page",
	"tutorial", NULL
};
static const char *classify_build_words[] = {
	"ci", "cmake", "build", "workflow", "github actions", "gha",
	"makefile", "autotools", "configure", "compiler", "toolchain",
	"docker", "packaging", "meson", "bazel", "lint", NULL
};
static const char *classify_cleanup_words[] = {
	"clean", "cleanup", "clean-up", "tidy", "refactor", "remove", "delete",
	"drop", "unused", "rename", "move", "simplify", "readability", "lint",
	"format", "deprecat", "dead code", "reorganiz", "restructur",
	"replace", "be:", "nit", "style", NULL
};
static const char *classify_feature_words[] = {
	"add", "support", "introduce", "implement", "enable", "allow",
	"expose", "feat", "initial", NULL
};
static const char *classify_user_words[] = {
	"user", "api", "support", "new", "option", "faster", "enable",
	"default", "public", "cli", "flag", "config", "speedup", "memory",
	NULL
};
/* The signals of the scoring table (classify_signals). */
static const char *classify_security_words[] = {
	"cve-", "security", "vulnerab", "overflow", "use-after-free",
	"use after free", "out-of-bounds", "out of bounds", "injection",
	NULL
};
static const char *classify_wrong_words[] = {
	"wrong result", "wrong output", "wrong answer", "incorrect",
	"miscompil", "silently", "corrupt", "off-by-one", "off by one", NULL
};
static const char *classify_crash_words[] = {
	"crash", "segfault", "segmentation fault", "hang", "deadlock",
	"panic", "abort", "infinite loop", "race", NULL
};

/* Words that, with an update's, make a dependency bump. */
static const char *classify_bump_words[] = {
	"bump", "dependabot", "renovate", NULL
};
static const char *classify_update_words[] = {
	"update", "upgrade", "pin", NULL
};
static const char *classify_version_word[] = { "version", NULL };
static const char *classify_skip_word[] = { "skip", NULL };
static const char *classify_test_word[] = { "test", NULL };

/*
 * Whether a subject's bump word is the subject's own: a word of its own
 * ("Bump lodash", "deps: bumped serde"), or a bot's name; not a part of a
 * name joined by hyphens or underscores ("Skip check-version-bump ci job
 * in forks" is a CI change, issue #27).
 */
static int
classify_bump_own(const char *subject)
{
	const char	*p, *q;
	size_t		 n;

	for (p = subject; *p != '\0'; p += n) {
		p += strspn(p, " \t:,;()[]\"'");
		if ((n = strcspn(p, " \t:,;()[]\"'")) == 0)
			break;
		if (strncasecmp(p, "dependabot", 10) == 0 ||
		    strncasecmp(p, "renovate", 8) == 0)
			return 1;
		if (n < 4 || strncasecmp(p, "bump", 4) != 0)
			continue;
		for (q = p + 4; q < p + n && isalpha((unsigned char)*q); q++)
			;
		if (q == p + n || *q == '.')
			return 1;
	}
	return 0;
}

/*
 * All the lists a subject is read for, found in one pass over it
 * (text_words): a bit per list, and one per user word for the score's
 * count of them.
 */
enum {
	CLASSIFY_W_PERF, CLASSIFY_W_FIX, CLASSIFY_W_DOCS, CLASSIFY_W_BUILD,
	CLASSIFY_W_CLEANUP, CLASSIFY_W_FEATURE, CLASSIFY_W_BUMP,
	CLASSIFY_W_UPDATE, CLASSIFY_W_VERSION, CLASSIFY_W_SKIP,
	CLASSIFY_W_TEST,
	CLASSIFY_W_SIGNAL,	/* classify_signals' lists, in their order */
	CLASSIFY_W_USER = CLASSIFY_W_SIGNAL + 3	/* the first user word's;
						   the others after */
};
#define CLASSIFY_W(w)	(1ULL << CLASSIFY_W_##w)
static struct text_wordset classify_subject_words = {
	.lists = {
		[CLASSIFY_W_PERF] = classify_perf_words,
		[CLASSIFY_W_FIX] = classify_fix_words,
		[CLASSIFY_W_DOCS] = classify_docs_words,
		[CLASSIFY_W_BUILD] = classify_build_words,
		[CLASSIFY_W_CLEANUP] = classify_cleanup_words,
		[CLASSIFY_W_FEATURE] = classify_feature_words,
		[CLASSIFY_W_BUMP] = classify_bump_words,
		[CLASSIFY_W_UPDATE] = classify_update_words,
		[CLASSIFY_W_VERSION] = classify_version_word,
		[CLASSIFY_W_SKIP] = classify_skip_word,
		[CLASSIFY_W_TEST] = classify_test_word,
		[CLASSIFY_W_SIGNAL] = classify_security_words,
		[CLASSIFY_W_SIGNAL + 1] = classify_wrong_words,
		[CLASSIFY_W_SIGNAL + 2] = classify_crash_words,
	},
	.each = classify_user_words,
};

/*
 * The next leading "[tag]" of *p into tag, moving *p past it and the
 * spaces after; 0 when *p does not start with a tag.
 */
static int
classify_next_tag(const char **p, char *tag, size_t tagsz)
{
	const char	*s = *p, *e;
	size_t		 n;

	while (*s == ' ')
		s++;
	if (*s != '[')
		return 0;
	if ((e = strchr(s, ']')) == NULL)
		return 0;
	n = (size_t)(e - s - 1);
	if (n == 0 || n >= tagsz)
		return 0;
	memcpy(tag, s + 1, n);
	tag[n] = '\0';
	s = e + 1;
	while (*s == ' ')
		s++;
	*p = s;
	return 1;
}

/*
 * A number where sscanf's "%d" would read one (spaces, a sign, digits;
 * capped past any part or total a marker may have) in *v: the bytes read,
 * 0 if there is none. A sscanf cost about 900 instructions a marker.
 */
static size_t
classify_int(const char *s, int *v)
{
	const char	*p = s;
	long		 n = 0;
	int		 neg = 0;

	while (isspace((unsigned char)*p))
		p++;
	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	if (!isdigit((unsigned char)*p))
		return 0;
	for (; isdigit((unsigned char)*p); p++) {
		if (n < 100000)
			n = n * 10 + (*p - '0');
	}
	*v = (int)(neg ? -n : n);
	return (size_t)(p - s);
}

/* Whether a tag is a plain one (not an area). */
static int
classify_plain_tag(const char *tag)
{
	size_t	i, k;
	int	a, b;

	/* "2/5", and a part of a series of a size not given: "2/N", "5/x" */
	if ((k = classify_int(tag, &a)) > 0 && tag[k] == '/') {
		if (classify_int(tag + k + 1, &b) > 0)
			return 1;
		if (strchr("NnxX?", tag[k + 1]) != NULL &&
		    tag[k + 1] != '\0' && tag[k + 2] == '\0')
			return 1;
	}
	for (i = 0; classify_plain_tags[i] != NULL; i++) {
		if (strcasecmp(tag, classify_plain_tags[i]) == 0)
			return 1;
	}
	return 0;
}

/* The subject past its leading tags. */
static const char *
classify_skip_tags(const char *subject)
{
	char	 tag[CLASSIFY_MAXTAG];
	const char *p = subject;

	while (classify_next_tag(&p, tag, sizeof tag))
		continue;
	return p;
}

/*
 * A "type(scope): " or "scope: " prefix at s: its length including the
 * colon and space (0 if none); the type's index in classify_conventional
 * or -1; the scope copied into scope (may be empty).
 */
static size_t
classify_prefix(const char *s, int *type, char *scope, size_t scopesz)
{
	const char	*colon, *paren, *q;
	size_t		 n, tn, i;
	int		 spaces;

	*type = -1;
	scope[0] = '\0';
	if ((colon = strstr(s, ": ")) == NULL)
		return 0;
	n = (size_t)(colon - s);
	if (n == 0 || n > 40)
		return 0;
	for (q = s, spaces = 0; q < colon; q++) {
		if (*q == '"' || *q == '\'')
			return 0;
		if (*q == ' ' && (++spaces > 1 || q == s || q[-1] == ' '))
			return 0;
	}
	paren = memchr(s, '(', n);
	tn = paren != NULL ? (size_t)(paren - s) : n;
	if (tn > 0 && s[tn - 1] == '!')
		tn--;
	for (i = 0; i < sizeof classify_conventional /
	    sizeof classify_conventional[0]; i++) {
		if (strlen(classify_conventional[i].type) == tn &&
		    strncasecmp(s, classify_conventional[i].type, tn) == 0) {
			*type = (int)i;
			break;
		}
	}
	if (paren != NULL) {
		const char *close = memchr(paren, ')', (size_t)(colon - paren));

		if (close == NULL || *type == -1)
			return 0;
		n = (size_t)(close - paren - 1);
		if (n >= scopesz)
			n = scopesz - 1;
		memcpy(scope, paren + 1, n);
		scope[n] = '\0';
		return (size_t)(colon - s) + 2;
	}
	if (*type != -1)
		return spaces == 0 ? (size_t)(colon - s) + 2 : 0;
	/* curl style "scope: subject", or "two words: subject" in lowercase */
	for (q = s; q < colon; q++) {
		if (spaces > 0 && isupper((unsigned char)*q))
			return 0;
		/* "win,fs: ..." names two areas */
		if (!isalnum((unsigned char)*q) && strchr("_./+-, ", *q) ==
		    NULL)
			return 0;
	}
	if (!isalpha((unsigned char)*s) && *s != '.' && *s != '_')
		return 0;
	n = (size_t)(colon - s);
	if (n >= scopesz)
		n = scopesz - 1;
	memcpy(scope, s, n);
	scope[n] = '\0';
	return (size_t)(colon - s) + 2;
}

/* "revert", "feature", ...: the kind's name as the JSON and logs say it. */
const char *
classify_kind_name(enum classify_kind k)
{
	if ((int)k < 0 || k >= CLASSIFY_NKINDS)
		return "change";
	return classify_kind_names[k];
}

/*
 * Whether a lower-case subject moves something to or from a version:
 * " to 2.0", " to v2", " from v1.9" (not " to vite docs").
 */
static int
classify_to_version(const char *l)
{
	static const char *const marks[] = { " to ", " from ", NULL };
	const char	*p;
	size_t		 i;

	for (i = 0; marks[i] != NULL; i++)
		for (p = l; (p = strstr(p, marks[i])) != NULL; p++) {
			p += strlen(marks[i]);
			if (isdigit((unsigned char)p[*p == 'v']))
				return 1;
			p--;
		}
	return 0;
}

/*
 * The kind of a commit from its revert info, subject and files; w is what
 * text_words read of its subject in classify_subject_words.
 */
static enum classify_kind
classify_kind_words(const struct commit *c, unsigned long long w)
{
	const char	*subject = c->subject != NULL ? c->subject : "";
	const char	*rest;
	char		 tag[CLASSIFY_MAXTAG], scope[CLASSIFY_MAXTAG];
	char		*l, *ls;
	const char	*p;
	unsigned long long ws;
	int		 type, tag_tests = 0, tag_docs = 0, tag_perf = 0;
	int		 tag_reland = 0, tag_build = 0, depth;
	size_t		 n;
	enum classify_kind k;

	if (c->revert.is_reland)
		return CLASSIFY_RELAND;
	if (c->revert.is_revert)
		return CLASSIFY_REVERT;
	/*
	 * A message revert_parse didn't read: git nests Revert "...", and
	 * each level undoes the one inside: odd reverts, even re-lands.
	 */
	for (depth = 0, p = subject; strncmp(p, "Revert \"", 8) == 0; depth++)
		p += 8;
	if (depth > 0)
		return depth % 2 == 1 ? CLASSIFY_REVERT : CLASSIFY_RELAND;
	n = strlen(subject);
	if (strncasecmp(subject, "revert: ", 8) == 0 ||
	    (n > 9 && strcmp(subject + n - 9, " (revert)") == 0))
		return CLASSIFY_REVERT;
	if (strncasecmp(subject, "reapply", 7) == 0 ||
	    strncasecmp(subject, "reland", 6) == 0 ||
	    strncasecmp(subject, "re-land", 7) == 0)
		return CLASSIFY_RELAND;

	p = subject;
	while (classify_next_tag(&p, tag, sizeof tag)) {
		if (strcasecmp(tag, "reland") == 0 ||
		    strcasecmp(tag, "re-land") == 0 ||
		    strcasecmp(tag, "relanding") == 0)
			tag_reland = 1;
		else if (strncasecmp(tag, "test", 4) == 0)
			tag_tests = 1;
		else if (strncasecmp(tag, "doc", 3) == 0)
			tag_docs = 1;
		else if (strcasecmp(tag, "perf") == 0)
			tag_perf = 1;
		else if (strcasecmp(tag, "ci") == 0)
			tag_build = 1;
	}
	if (tag_reland)
		return CLASSIFY_RELAND;
	rest = p;

	/* the lowercase subject, made only when a rule below reads it */
	l = NULL;
	if (((w & CLASSIFY_W(BUMP)) && classify_bump_own(subject)) ||
	    ((w & CLASSIFY_W(UPDATE)) &&
	    ((w & CLASSIFY_W(VERSION)) || (l = text_lower(subject),
	    classify_to_version(l))))) {
		k = CLASSIFY_DEPS;
		goto out;
	}

	n = classify_prefix(rest, &type, scope, sizeof scope);
	if (n > 0 && type != -1) {
		k = classify_conventional[type].kind;
		if (strcasecmp(scope, "deps") == 0 ||
		    strcasecmp(scope, "deps-dev") == 0)
			k = CLASSIFY_DEPS;
		if (k != CLASSIFY_CHANGE)
			goto out;
	}

	if (tag_tests || files_all(c, files_tests)) {
		k = CLASSIFY_TESTS;
		goto out;
	}
	if (tag_docs || files_all(c, files_docs)) {
		k = CLASSIFY_DOCS;
		goto out;
	}
	if (tag_build || files_all(c, files_build)) {
		k = CLASSIFY_BUILD;
		goto out;
	}
	if (tag_perf) {
		k = CLASSIFY_PERF;
		goto out;
	}

	/* a curl-style scope naming a kind */
	if (n > 0 && type == -1) {
		ls = text_lower(scope);
		ws = text_words(ls, &classify_subject_words, TEXT_STARTS);
		k = CLASSIFY_CHANGE;
		if (ws & CLASSIFY_W(DOCS))
			k = CLASSIFY_DOCS;
		else if (strncmp(ls, "test", 4) == 0 ||
		    strcmp(ls, "pytest") == 0)
			k = CLASSIFY_TESTS;
		else if (ws & CLASSIFY_W(BUILD))
			k = CLASSIFY_BUILD;
		free(ls);
		if (k != CLASSIFY_CHANGE)
			goto out;
	}

	if (w & CLASSIFY_W(PERF))
		k = CLASSIFY_PERF;
	/*
	 * a fix of the docs ("fix broken length_delimited builder doc
	 * examples") is a docs change, unless it names a harm in code a
	 * user runs ("fix a crash in the doc generator") or fixes more
	 * ("Fix --stream-errors w/o --stream, and doc+test")
	 */
	else if ((w & CLASSIFY_W(FIX)) && (w & CLASSIFY_W(DOCS)) &&
	    ((w >> CLASSIFY_W_SIGNAL) & 7) == 0 &&
	    strstr(subject, " and ") == NULL && strchr(subject, ',') == NULL)
		k = CLASSIFY_DOCS;
	else if (w & CLASSIFY_W(FIX))
		k = CLASSIFY_FIX;
	else if (w & CLASSIFY_W(DOCS))
		k = CLASSIFY_DOCS;
	else if (strncmp(classify_skip_tags(l != NULL ? l :
	    (l = text_lower(subject))), "test", 4) == 0 ||
	    ((w & CLASSIFY_W(SKIP)) && (w & CLASSIFY_W(TEST))))
		k = CLASSIFY_TESTS;
	else if (w & CLASSIFY_W(BUILD))
		k = CLASSIFY_BUILD;
	else if (w & CLASSIFY_W(CLEANUP))
		k = CLASSIFY_CLEANUP;
	else if (w & CLASSIFY_W(FEATURE))
		k = CLASSIFY_FEATURE;
	else if (n > 0 && type != -1 &&
	    strcmp(classify_conventional[type].type, "chore") == 0)
		k = CLASSIFY_CLEANUP;
	else
		k = CLASSIFY_CHANGE;
out:
	free(l);
	return k;
}

/* The kind of a commit from its revert info, subject and files. */
enum classify_kind
classify_kind(const struct commit *c)
{
	return classify_kind_words(c, text_words(c->subject != NULL ?
	    c->subject : "", &classify_subject_words, TEXT_STARTS));
}

/* Said aloud, short lowercase areas are abbreviations: "xpu" -> "XPU". */
static char *
classify_area_word(const char *s, size_t n, int tag)
{
	char	*a = xstrndup(s, n);
	size_t	 i;
	int	 lower = 1;

	for (i = 0; i < n; i++) {
		if (!islower((unsigned char)a[i]) && !isdigit((unsigned char)a[i]))
			lower = 0;
	}
	if (tag && lower && n <= 3) {
		for (i = 0; i < n; i++)
			a[i] = (char)toupper((unsigned char)a[i]);
	}
	return a;
}

/*
 * The area a commit touches (new string), or NULL if none can be told;
 * *titled is set to 1 when the subject names it, 0 when the files do.
 */
char *
classify_area(const struct commit *c, const char *repo, int *titled)
{
	const char	*subject = c->subject != NULL ? c->subject : "";
	const char	*p = subject;
	char		 tag[CLASSIFY_MAXTAG], scope[CLASSIFY_MAXTAG];
	size_t		 n;
	int		 type;

	*titled = 1;
	while (classify_next_tag(&p, tag, sizeof tag)) {
		if (!classify_plain_tag(tag))
			return classify_area_word(tag, strlen(tag), 1);
	}
	if (strncmp(p, "Revert \"", 8) == 0)
		p += 8;
	if (classify_prefix(p, &type, scope, sizeof scope) > 0 &&
	    scope[0] != '\0') {
		n = strcspn(scope, "/,");
		return classify_area_word(scope, n, 0);
	}

	*titled = 0;
	return files_area(c, repo);
}

/*
 * The length of an issue reference that leads a subject, said by nobody:
 * "Fix #1245: ", "Closes #12 - ", "#88: ", "GH-1234: ", "see #7250, ";
 * 0 when none.
 */
static size_t
classify_what_ref(const char *p)
{
	static const char *const leads[] = { "fix ", "fixes ", "fixed ",
	    "close ", "closes ", "closed ", "resolve ", "resolves ", "issue ",
	    "see ", "", NULL };
	const char	*q;
	size_t		 i, l;

	for (i = 0; leads[i] != NULL; i++) {
		/* "" leads too: a bare "#88: " */
		if (leads[i][0] != '\0' &&
		    tolower((unsigned char)*p) != leads[i][0])
			continue;
		l = strlen(leads[i]);
		if (strncasecmp(p, leads[i], l) != 0)
			continue;
		q = p + l;
		if (*q == '#')
			q++;
		else if (strncasecmp(q, "gh-", 3) == 0)
			q += 3;
		else
			continue;
		if (!isdigit((unsigned char)*q))
			continue;
		q += strspn(q, "0123456789");
		if (strncmp(q, ": ", 2) == 0 || strncmp(q, " - ", 3) == 0)
			return (size_t)(q - p) + (*q == ':' ? 2 : 3);
		/* "see #7250, fix signature of ..." (redis 2020-08-11) */
		if (leads[i][0] != '\0' && strncmp(q, ", ", 2) == 0 &&
		    isalpha((unsigned char)q[2]))
			return (size_t)(q - p) + 2;
	}
	return 0;
}

/* Whether p is a word that leads an issue reference and its '#'. */
static int
classify_ref_word(const char *p)
{
	static const char *const words[] = { "fix #", "fixes #", "fixed #",
	    "close #", "closes #", "closed #", "resolve #", "resolves #",
	    "resolved #", "see #", "ref #", "refs #", "issue #", NULL };
	size_t	i, n;

	for (i = 0; words[i] != NULL; i++) {
		n = strlen(words[i]);
		if (tolower((unsigned char)*p) != words[i][0])
			continue;
		/* "fixes #12", and "fixes#12" as typed in a hurry */
		if (strncasecmp(p, words[i], n) == 0 ||
		    (strncasecmp(p, words[i], n - 2) == 0 && p[n - 2] == '#'))
			return 1;
	}
	return 0;
}

/*
 * "Fix CI: Pin the version" is "Pin the version to fix CI" (new): a fix
 * of a short named thing done by a verb phrase; else a copy of p.
 */
static char *
classify_what_fix(const char *p)
{
	const char	*colon, *x;
	char		*s;
	size_t		 words = 1;

	if (strncasecmp(p, "fix ", 4) != 0 ||
	    (colon = strstr(p, ": ")) == NULL)
		return xstrdup(p);
	for (x = p + 4; x < colon; x++) {
		if (*x == ' ')
			words++;
		else if (!isalnum((unsigned char)*x) && *x != '-' &&
		    *x != '_' && *x != '.')
			return xstrdup(p);
	}
	if (colon == p + 4 || words > 3 || !phrase_verbal(colon + 2))
		return xstrdup(p);
	xasprintf(&s, "%s to fix %.*s", colon + 2, (int)(colon - p - 4),
	    p + 4);
	/* "(#12)" stays last, where classify_what looks for it */
	if ((x = strstr(colon + 2, " (#")) != NULL && x[strcspn(x, ")")] ==
	    ')' && x[strcspn(x, ")") + 1] == '\0') {
		free(s);
		xasprintf(&s, "%.*s to fix %.*s", (int)(x - colon - 2),
		    colon + 2, (int)(colon - p - 4), p + 4);
	}
	return s;
}

/*
 * A subject that is one name of three words or more, as a branch is
 * named ("fix_fmt_skip_in_one_liners", "add-retry-option"), said as its
 * words, in place. Other subjects are left alone.
 */
static void
classify_what_words(char *s)
{
	size_t	i, seps = 0;
	char	sep = 0;

	for (i = 0; s[i] != '\0'; i++) {
		if (s[i] == '_' || s[i] == '-') {
			if (sep != 0 && s[i] != sep)
				return;
			sep = s[i];
			seps++;
		} else if (!islower((unsigned char)s[i]) &&
		    !isdigit((unsigned char)s[i]))
			return;
	}
	if (seps < 2)
		return;
	for (i = 0; s[i] != '\0'; i++)
		if (s[i] == sep)
			s[i] = ' ';
}

/*
 * Where an issue reference that ends a subject after a comma, a semicolon
 * or a dash starts (its separator): "Handle IO errors based on type,
 * closes #737" (fd 2021-08-08, issue #27); NULL when none.
 */
static char *
classify_what_tail_ref(char *s, size_t n)
{
	char	*e = s + n, *q, *r;

	q = e;
	while (q > s && isdigit((unsigned char)q[-1]))
		q--;
	if (q == e || q == s || q[-1] != '#')
		return NULL;
	/* back over the reference word: "closes #", "fixes#" */
	for (r = q - 1; r > s && r[-1] != ',' && r[-1] != ';' &&
	    !(r[-1] == '-' && r - 1 > s && r[-2] == ' '); r--)
		;
	if (r == s)
		return NULL;
	q = r;
	while (*q == ' ')
		q++;
	if (!classify_ref_word(q))
		return NULL;
	r--;
	while (r > s && r[-1] == ' ')
		r--;
	return r > s ? r : NULL;
}

/* The subject without title tags, type/scope prefix and "(#N)" (new). */
char *
classify_what(const char *subject)
{
	const char	*p;
	char		 scope[CLASSIFY_MAXTAG], *s, *q, *e;
	int		 type;
	size_t		 n;

	p = classify_skip_tags(subject != NULL ? subject : "");
	if ((n = classify_prefix(p, &type, scope, sizeof scope)) > 0)
		p += n;
	p += classify_what_ref(p);
	s = classify_what_fix(p);
	for (;;) {
		n = strlen(s);
		while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '.'))
			s[--n] = '\0';
		if (n >= 9 && strcmp(s + n - 9, " (revert)") == 0) {
			s[n - 9] = '\0';
			continue;
		}
		/* ", closes #737", "; fixes #12", " - see #4": said by nobody */
		if ((q = classify_what_tail_ref(s, n)) != NULL) {
			*q = '\0';
			continue;
		}
		/* "(#12)", "(close #1999)", "(fixes #2063)" */
		if (n > 0 && s[n - 1] == ')' && (q = strrchr(s, '(')) != NULL &&
		    (q[1] == '#' || classify_ref_word(q + 1))) {
			for (e = strchr(q, '#') + 1; isdigit((unsigned char)*e);
			    e++)
				continue;
			if (*e == ')' && e == s + n - 1 && e[-1] != '#') {
				*q = '\0';
				continue;
			}
		}
		break;
	}
	classify_what_words(s);
	return text_clean_steal(s);
}

/* Whether s opens with "/N", "/n", "/x" or "/X": a total not given. */
static size_t
classify_series_open(const char *s)
{
	if (s[0] == '/' && strchr("NnxX?", s[1]) != NULL && s[1] != '\0' &&
	    !text_isword(s[2]))
		return 2;
	return 0;
}

/*
 * Whether a word marker without a total ("part 2", "step 9") stands where
 * a series marker does, not inside a sentence ("with step 2 in the
 * index"): after an opening bracket, a comma, a colon or a dash, or at the
 * end (before a "(#N)" suffix), a closing bracket, a colon or a comma.
 */
static int
classify_series_placed(const char *subject, const char *p, const char *e)
{
	const char	*q = p;

	while (q > subject && q[-1] == ' ')
		q--;
	if (q == subject || strchr("([,:-", q[-1]) != NULL)
		return 1;
	while (*e == ' ' || *e == '.')
		e++;
	return *e == '\0' || strncmp(e, "(#", 2) == 0 ||
	    strchr(")]:,", *e) != NULL;
}

/*
 * A series marker in the subject: "[3/15]", "(3/15)", "[3/N]", "step 9",
 * "part 2 of 5", "part 3/x". 1 and part/total (total 0 when not given),
 * or 0.
 */
int
classify_series(const char *subject, int *part, int *total)
{
	size_t	at, len;

	return classify_series_at(subject, part, total, &at, &len);
}

/*
 * As classify_series, and where the marker is: *at and *len its bytes
 * in subject, brackets included.
 */
int
classify_series_at(const char *subject, int *part, int *total, size_t *at,
    size_t *len)
{
	const char	*p;
	int		 a, b, n;
	size_t		 open, k, m;
	char		 close;

	if (subject == NULL)
		return 0;
	for (p = subject; *p != '\0'; p++) {
		if (*p != '[' && *p != '(')
			continue;
		/* both scans below need a number next ("(#12)" has none) */
		if (!isdigit((unsigned char)p[1]) &&
		    !isspace((unsigned char)p[1]) && p[1] != '+' &&
		    p[1] != '-')
			continue;
		close = *p == '[' ? ']' : ')';
		k = classify_int(p + 1, &a);
		n = k > 0 && p[1 + k] == '/' && (m = classify_int(p + 2 + k,
		    &b)) > 0 ? (int)(k + 1 + m) : 0;
		if (n > 0 && p[1 + n] == close && a >= 1 && b >= 2 && a <= b && b <= 999) {
			*part = a;
			*total = b;
			*at = (size_t)(p - subject);
			*len = (size_t)n + 2;
			return 1;
		}
		/* "[3/N]": a part of a series of a size not given */
		n = (int)k;
		if (n > 0 &&
		    a >= 1 && a <= 999 && isdigit((unsigned char)p[1]) &&
		    (open = classify_series_open(p + 1 + n)) > 0 &&
		    p[1 + n + open] == close) {
			*part = a;
			*total = 0;
			*at = (size_t)(p - subject);
			*len = (size_t)n + open + 2;
			return 1;
		}
	}
	/* "step 9", "part 2", "part 2 of 5", "Step 3/7", "part 3/x" */
	for (p = subject; *p != '\0'; p++) {
		size_t w, d;

		if (*p != 's' && *p != 'S' && *p != 'p' && *p != 'P')
			continue;
		if (p > subject && text_isword(p[-1]))
			continue;
		if (strncasecmp(p, "step ", 5) == 0)
			w = 5;
		else if (strncasecmp(p, "part ", 5) == 0)
			w = 5;
		else
			continue;
		if (!isdigit((unsigned char)p[w]))
			continue;
		a = atoi(p + w);
		b = 0;
		n = 0;
		if (sscanf(p + w, "%*d of %d%n", &b, &n) != 1 &&
		    sscanf(p + w, "%*d/%d%n", &b, &n) != 1)
			b = 0;
		if (a < 1 || a > 999 || (b != 0 && (b < a || b > 999)))
			continue;
		d = strspn(p + w, "0123456789");
		if (n == 0 && (open = classify_series_open(p + w + d)) > 0)
			n = (int)(d + open);
		if (n == 0 && text_isword(p[w + d]))
			continue;
		if (b == 0 && !classify_series_placed(subject, p,
		    p + w + (n > 0 ? (size_t)n : d)) &&
		    !(p[0] != 's' && p[0] != 'S' &&
		    strncmp(p + w + d, " of ", 4) == 0))
			continue;
		*part = a;
		*total = b;
		*at = (size_t)(p - subject);
		*len = w + (n > 0 ? (size_t)n : d);
		return 1;
	}
	return 0;
}

/*
 * What matters to a user, most first: the news a commit's subject or
 * body carries, and what each adds to its significance. Each counts
 * once. File counts are not importance: a refactor of forty files is not
 * news, a one-line fix of a wrong result is.
 *
 *	signal		weight	said as (word starts, lowercase)
 *	release		10	a subject that announces one (quote_release:
 *				"release: v8.1.1", "Bump version to 1.2.0",
 *				"Bumped v5.8.2"), never a dependency bump
 *	breaking	 8	what quote_breaking reads: support dropped,
 *				a minimum raised, a default flipped, an API
 *				removed, "BREAKING CHANGE", "feat!:"
 *	security	 8	cve-, security, vulnerab, overflow, use-after-
 *				free, out-of-bounds, injection
 *	wrong result	 6	wrong result, incorrect, miscompil, silently,
 *				corrupt, off-by-one
 *	crash or hang	 5	crash, segfault, hang, deadlock, panic, abort,
 *				infinite loop, race
 *	(the three above not for tests, CI, docs or dependencies)
 *	new setting	 4	a setting the message introduces
 *	perf figures	 3	a performance change that gives figures
 *
 * Then the kind (feature 3, perf 3, fix 2.5, change and re-land 2, revert
 * 1.5, cleanup 0.8, docs 0.6, tests and build 0.4, dependencies 0.3),
 * words a user meets in the subject (user, api, option, flag, config,
 * default, faster...) 0.5 each up to 2, a part of a series 0.5, figures 1
 * each up to 2, and up to 1 for a body to tell, 1,500 bytes or more (a
 * tie-breaker). A bot's commit counts a fifth.
 *
 * The body is measured as it came, in one pass (text_prose_raw): its
 * prose lines, without code, quotes, trailers, URLs or what follows a
 * test plan. The signals are its words, at word starts; the figures
 * (quote_figures) those of the subject's what and these lines; the
 * bytes to tell are theirs. Cleaning a body for speech (text_clean)
 * costs several times that and is done only for what is told, so the
 * score reads the same whether the prose was read (classify_commit) or
 * not yet (classify_commit_lazy). A git merge of a branch (bookkeeping)
 * gets no signal or figure from its body.
 */
struct classify_signal {
	const char		*name;
	double			 weight;
	const char		**words;
};

/* In the order of CLASSIFY_W_SIGNAL's lists and classify_signal_words'. */
static const struct classify_signal classify_signals[] = {
	{ .name = "security", .weight = 8.0,
	  .words = classify_security_words },
	{ .name = "wrong result", .weight = 6.0,
	  .words = classify_wrong_words },
	{ .name = "crash or hang", .weight = 5.0,
	  .words = classify_crash_words },
};
#define CLASSIFY_NSIGNALS \
	(sizeof classify_signals / sizeof classify_signals[0])

/* The signals' words, signal i answering bit i (text_words). */
static struct text_wordset classify_signal_words = {
	.lists = { classify_security_words, classify_wrong_words,
	    classify_crash_words },
};

/*
 * How significant a classified commit looks: the table above. w is what
 * text_words read of its subject in classify_subject_words; signals the
 * signals' bits (classify_signal_words) read in the subject and body,
 * figures how many the subject and body give (up to 2) and readable the
 * body's bytes (classify_body).
 */
static double
classify_score(const struct classify *cl, unsigned long long w,
    unsigned long long signals, size_t figures, size_t readable)
{
	static const double kind_weight[CLASSIFY_NKINDS] = {
		[CLASSIFY_REVERT] = 1.5, [CLASSIFY_RELAND] = 2.0,
		[CLASSIFY_FEATURE] = 3.0, [CLASSIFY_PERF] = 3.0,
		[CLASSIFY_FIX] = 2.5, [CLASSIFY_DOCS] = 0.6,
		[CLASSIFY_TESTS] = 0.4, [CLASSIFY_BUILD] = 0.4,
		[CLASSIFY_DEPS] = 0.3, [CLASSIFY_CLEANUP] = 0.8,
		[CLASSIFY_CHANGE] = 2.0,
	};
	double	 s;
	unsigned long long users;
	size_t	 i, n;

	s = kind_weight[cl->kind];
	if (cl->breaking != QUOTE_BREAK_NONE)
		s += 8.0;
	if (cl->kind != CLASSIFY_DEPS && cl->release)
		s += 10.0;
	/*
	 * a warning word weighs only where a user meets it: a CI script's
	 * "security" or a test's "crash" is not the day's news (issue #27)
	 */
	if (cl->kind == CLASSIFY_TESTS || cl->kind == CLASSIFY_BUILD ||
	    cl->kind == CLASSIFY_DOCS || cl->kind == CLASSIFY_DEPS)
		signals = 0;
	for (i = 0; i < CLASSIFY_NSIGNALS; i++)
		if ((signals & (1ULL << i)) || (cl->advisory &&
		    classify_signals[i].words == classify_security_words))
			s += classify_signals[i].weight;
	if (cl->setting != NULL && cl->setting_new)
		s += 4.0;
	if (cl->kind == CLASSIFY_PERF && figures > 0)
		s += 3.0;
	s += figures > 2 ? 2.0 : (double)figures;
	/* user words, each once, up to four */
	users = w >> CLASSIFY_W_USER;
	for (n = 0; users != 0 && n < 4; users &= users - 1)
		n++;
	s += 0.5 * (double)n;
	if (cl->series_part > 0)
		s += 0.5;
	s += (double)(readable > 1500 ? 1500 : readable) / 1500.0;
	if (cl->bot || cl->merge)
		s *= 0.2;
	return s;
}

/* Whether text names a file path of two or more levels ("a/b/c"). */
static int
classify_pathy(const char *text)
{
	const char	*p;
	int		 slashes = 0, code = 0;

	for (p = text;; p++) {
		if (*p == ' ' || *p == '\0') {
			if (slashes >= 2 && code)
				return 1;
			slashes = code = 0;
			if (*p == '\0')
				return 0;
		} else if (*p == '/')
			slashes++;
		else if (*p == '_' || *p == '.' || isdigit((unsigned char)*p))
			code = 1;
	}
}

/*
 * GitHub's merge button writes "Merge pull request #N from OWNER/BRANCH"
 * ("... from GHSA-xxxx-xxxx-xxxx" for a security advisory's fix) and the
 * pull request's title as the body's first line: the title is
 * what the commit is about ("Bump actions/checkout from 5.0.0 to 6.0.0"),
 * not the branch. Fill m as c with that title as its subject and the
 * rest as its body (m->subject new); 0, m untouched, when c is no such
 * merge.
 */
static int
classify_merge_title(const struct commit *c, struct commit *m)
{
	static const char	 prefix[] = "Merge pull request ";
	const char		*p, *body, *nl;
	size_t			 n;

	if (c->subject == NULL || c->body == NULL ||
	    strncmp(c->subject, prefix, sizeof prefix - 1) != 0)
		return 0;
	p = c->subject + sizeof prefix - 1;
	/* "#N from OWNER/BRANCH", or "from GHSA-..." (an advisory's fix) */
	if (*p == '#') {
		p++;
		if (!isdigit((unsigned char)*p))
			return 0;
		p += strspn(p, "0123456789");
		p += *p == ' ';
	}
	if (strncmp(p, "from ", 5) != 0)
		return 0;
	body = c->body + strspn(c->body, " \t\r\n");
	nl = strchr(body, '\n');
	n = nl != NULL ? (size_t)(nl - body) : strlen(body);
	while (n > 0 && isspace((unsigned char)body[n - 1]))
		n--;
	if (n == 0)
		return 0;
	*m = *c;
	m->subject = xstrndup(body, n);
	m->body = (char *)(nl != NULL ? nl + 1 : body + strlen(body));
	return 1;
}

/* Whether c is read as the pull request a merge button merged. */
int
classify_merged_pr(const struct commit *c)
{
	struct commit	m;

	if (!classify_merge_title(c, &m))
		return 0;
	free(m.subject);
	return 1;
}

/*
 * Whether a subject is git's own for a merge of a branch, a tag or a
 * commit ("Merge remote-tracking branch 'origin/main'"): bookkeeping,
 * whose body, when there is one, lists other commits' subjects rather
 * than saying anything itself. (A merge button's pull request is read as
 * the pull request instead: classify_merge_title.)
 */
static int
classify_branch_merge(const char *subject)
{
	static const char *const prefixes[] = { "Merge branch ",
	    "Merge remote-tracking branch ", "Merge tag ", "Merge commit ",
	    "Merge '", NULL };
	size_t	i;

	for (i = 0; subject != NULL && prefixes[i] != NULL; i++)
		if (strncmp(subject, prefixes[i], strlen(prefixes[i])) == 0)
			return 1;
	return 0;
}

/*
 * Whether a body may restate its subject (classify_restated), from its
 * lines as they came (kept, text_prose_raw): a restating sentence starts
 * with what's words, so the body says what's first word from a word
 * start on, in any case, whatever marks stand inside it ("Re-land" for
 * "Reland", "F*ix*" for "Fix"). Most bodies don't, and are not cleaned
 * to find out.
 */
static int
classify_may_restate(const char *kept, const char *what)
{
	const char	*w, *p, *q, *k;

	for (w = what; *w != '\0' && !isalnum((unsigned char)*w); w++)
		continue;
	if (*w == '\0')
		return 0;
	/* text_clean says "#12" as "number 12" */
	if (strncasecmp(w, "number", 6) == 0)
		return 1;
	for (p = kept; *p != '\0'; p++) {
		if (tolower((unsigned char)*p) != tolower((unsigned char)*w) ||
		    (p > kept && isalnum((unsigned char)p[-1])))
			continue;
		for (q = w, k = p; isalnum((unsigned char)*q); k++) {
			if (tolower((unsigned char)*k) ==
			    tolower((unsigned char)*q))
				q++;
			else if (*k == '\0' || isalnum((unsigned char)*k) ||
			    isspace((unsigned char)*k))
				break;
		}
		if (!isalnum((unsigned char)*q))
			return 1;
	}
	return 0;
}

/*
 * A first sentence of the body that restates and extends the subject
 * replaces what (taken; the what to keep is returned) and leaves ps[0],
 * when may (classify_may_restate); a first bullet repeating what is
 * emptied.
 */
static char *
classify_restated(char *what, struct text_paras *ps, int may)
{
	char	*nwhat, *nfirst, *first;
	size_t	 fl;

	if (ps->n == 0 || ps->text[0][0] == '\0')
		return what;
	for (fl = 0; ps->text[0][fl] != '\0' && !(ps->text[0][fl] == '.' &&
	    (ps->text[0][fl + 1] == ' ' || ps->text[0][fl + 1] == '\0'));
	    fl++)
		continue;
	first = xstrndup(ps->text[0], fl);
	nwhat = text_norm(what);
	nfirst = text_norm(first);
	if (may && nwhat[0] != '\0' && strlen(nfirst) > strlen(nwhat) &&
	    strncmp(nfirst, nwhat, strlen(nwhat)) == 0 &&
	    fl <= PROSE_MAXSENTENCE / 2) {
		free(what);
		what = first;
		first = NULL;
		fl += ps->text[0][fl] == '.';
		fl += strspn(ps->text[0] + fl, " ");
		memmove(ps->text[0], ps->text[0] + fl,
		    strlen(ps->text[0] + fl) + 1);
	} else if (ps->bullet[0] && strncmp(nwhat, nfirst,
	    strlen(nfirst)) == 0)
		ps->text[0][0] = '\0';	/* a bullet repeating it */
	free(first);
	free(nwhat);
	free(nfirst);
	return what;
}

/* The prose told of a commit: a sentence or two of ps (new, maybe ""). */
static char *
classify_prose_of(struct text_paras *ps, const char *subject)
{
	struct buf	 prose;
	size_t		 i, nbullets, bulletlen;
	int		 taken, squash, lost = 0;

	/*
	 * A squash merge's body lists its commits as short bullets ("* Fix
	 * typo", "* Refine code"): a history, not an explanation.
	 */
	for (i = nbullets = bulletlen = 0; i < ps->n; i++) {
		if (ps->bullet[i] && ps->text[i][0] != '\0') {
			nbullets++;
			bulletlen += strlen(ps->text[i]);
		}
	}
	squash = nbullets >= 3 && bulletlen / nbullets < 50;

	buf_init(&prose);
	taken = 0;
	for (i = 0; i < ps->n && taken < 2; i++) {
		if (ps->text[i][0] == '\0')
			continue;
		/* a paragraph skipped is one the listener never heard */
		if ((squash && ps->bullet[i]) || (ps->bullet[i] &&
		    taken == 0 && classify_pathy(ps->text[i]))) {
			lost = 1;
			continue;
		}
		if (ps->bullet[i] && taken > 0)
			break;
		taken += prose_sentences_after(&prose, ps->text[i],
		    ps->bullet[i] ? 1 : 2 - taken, subject, &lost);
		if (ps->bullet[i])
			break;
	}
	return buf_steal(&prose);
}

/*
 * The figures of a commit (into cl->figures) from its what and its
 * cleaned paragraphs: the exact form the paragraphs say them in, for
 * telling each in its sentence (tell_figures, title_figure).
 */
static void
classify_figures_of(struct classify *cl, const char *what,
    const struct text_paras *ps)
{
	struct buf	all;
	size_t		i;

	buf_init(&all);
	buf_puts(&all, what);
	for (i = 0; i < ps->n; i++) {
		buf_putc(&all, ' ');
		buf_puts(&all, ps->text[i]);
	}
	cl->nfigures = quote_figures(buf_str(&all), cl->figures,
	    CLASSIFY_MAXFIGURES);
	buf_free(&all);
}

/*
 * The length of the first two sentences of s, paragraphs as they came
 * (text_prose_raw): a paragraph's end ends one, as a list item's does.
 */
static size_t
classify_lead_len(const char *s)
{
	const char	*p;
	int		 n = 0;

	for (p = s + (*s == '\n'); *p != '\0'; p++) {
		if (*p == '\n' || ((*p == '.' || *p == '!' || *p == '?') &&
		    (p[1] == ' ' || p[1] == '\n' || p[1] == '\0')))
			if (++n == 2)
				return (size_t)(p - s) + (*p != '\n');
	}
	return (size_t)(p - s);
}

/*
 * What the score reads of a body from all, what followed by the body's
 * paragraphs as they came (text_prose_raw) from offset at (the table
 * above classify_score): the signals' bits of their first two sentences,
 * as the prose told would say them, and the figures of all, up to 2. A
 * git merge of a branch has neither there.
 */
static void
classify_body(struct buf *all, size_t at, int merge,
    unsigned long long *signals, size_t *figures)
{
	char		*figs[2], cut;
	size_t		 i, lead;

	*signals = 0;
	*figures = 0;
	if (merge)
		return;
	if (all->len > at) {
		lead = at + classify_lead_len(all->data + at);
		cut = all->data[lead];
		all->data[lead] = '\0';
		*signals = text_words(all->data + at, &classify_signal_words,
		    TEXT_STARTS);
		all->data[lead] = cut;
	}
	*figures = quote_figures(buf_str(all), figs, 2);
	for (i = 0; i < *figures; i++)
		free(figs[i]);
}

/*
 * Read a commit into cl (cleared first). With lazy, the prose and the
 * figures are left for classify_prose to read when the commit is told
 * (cl->prose NULL): the score does not read them (classify_body).
 */
static void
classify_read(const struct commit *c, const char *repo, struct classify *cl,
    int lazy)
{
	struct text_paras	 ps;
	struct commit		 merge;
	struct buf		 all;
	char			*brk, *merged = NULL, *pkg, *version;
	size_t			 readable, figures, wl;
	unsigned long long	 w, signals;

	memset(cl, 0, sizeof *cl);
	/* a merge button's commit is read as the pull request it merged */
	if (classify_merge_title(c, &merge)) {
		cl->advisory = strstr(c->subject, " from GHSA-") != NULL;
		merged = merge.subject;
		c = &merge;
	}
	cl->subject = xstrdup(c->subject != NULL ? c->subject : "");
	if ((cl->release = quote_release(c->subject, &pkg, &version))) {
		free(pkg);
		free(version);
	}
	w = text_words(c->subject != NULL ? c->subject : "",
	    &classify_subject_words, TEXT_STARTS);
	cl->kind = classify_kind_words(c, w);
	/*
	 * the project's own release ("Bumped v5.8.2", "chore: prepare to
	 * release v1.52.1") is no dependency bump: it leads (issue #27)
	 */
	if (cl->release && cl->kind == CLASSIFY_DEPS)
		cl->kind = CLASSIFY_CHANGE;
	cl->area = classify_area(c, repo, &cl->area_titled);
	cl->bot = classify_is_bot(c->author_login, c->author_name);
	classify_series(c->subject, &cl->series_part, &cl->series_total);
	cl->what = classify_what(c->subject);
	/* git's merge of a branch: its body is other commits' subjects */
	cl->merge = classify_branch_merge(c->subject);

	/* the body as it came, for the score and a restated subject */
	buf_init(&all);
	buf_puts(&all, cl->what);
	wl = all.len;
	readable = text_prose_raw(c->body, cl->what, &all);
	classify_body(&all, wl, cl->merge, &signals, &figures);
	signals |= w >> CLASSIFY_W_SIGNAL;
	cl->may_restate = classify_may_restate(buf_str(&all) + wl, cl->what);
	buf_free(&all);

	/*
	 * The cleaned paragraphs: all of them for the figures and the prose,
	 * or with lazy the first alone, when it may restate the subject.
	 */
	memset(&ps, 0, sizeof ps);
	if (!lazy) {
		text_paragraphs_what(c->body, cl->what, &ps);
		if (!cl->merge)
			classify_figures_of(cl, cl->what, &ps);
	} else if (cl->may_restate)
		text_paragraph_first(c->body, cl->what, &ps);
	cl->what = classify_restated(cl->what, &ps, cl->may_restate);
	if (cl->merge)
		cl->prose = xstrdup("");
	else if (!lazy)
		cl->prose = classify_prose_of(&ps, c->subject);
	text_paras_free(&ps);

	cl->setting = quote_setting(c->subject, c->body);
	cl->setting_new = quote_setting_new(c->subject, c->body,
	    cl->setting);
	/* a test or a docs change breaks nobody's setup */
	if (cl->kind != CLASSIFY_TESTS && cl->kind != CLASSIFY_DOCS) {
		cl->breaking = (int)quote_breaking(c->subject, c->body, &brk);
		free(brk);
	}
	cl->score = classify_score(cl, w, signals, figures, readable);
	cl->warning = cl->advisory || ((signals &
	    ((1ULL << CLASSIFY_NSIGNALS) - 1)) != 0 &&
	    cl->kind != CLASSIFY_TESTS && cl->kind != CLASSIFY_BUILD &&
	    cl->kind != CLASSIFY_DOCS && cl->kind != CLASSIFY_DEPS);
	free(merged);
}

/* Classify a commit into c (cleared first); repo is "owner/name" or NULL. */
void
classify_commit(const struct commit *c, const char *repo, struct classify *cl)
{
	classify_read(c, repo, cl, 0);
}

/*
 * classify_commit, but cl->prose left NULL and no figures read: the
 * score does not read them, classify_prose does when the commit is told.
 */
void
classify_commit_lazy(const struct commit *c, const char *repo,
    struct classify *cl)
{
	classify_read(c, repo, cl, 1);
}

/*
 * Read cl->prose and cl->figures of c, as classify_commit would have, if
 * the prose is NULL.
 */
void
classify_prose(const struct commit *c, struct classify *cl)
{
	struct text_paras	 ps;
	struct commit		 merge;
	char			*what, *merged = NULL;

	if (cl->prose != NULL)
		return;
	if (classify_merge_title(c, &merge)) {
		merged = merge.subject;
		c = &merge;
	}
	what = classify_what(c->subject);
	text_paragraphs_what(c->body, what, &ps);
	classify_figures_of(cl, what, &ps);
	free(classify_restated(what, &ps, cl->may_restate));
	cl->prose = classify_prose_of(&ps, c->subject);
	text_paras_free(&ps);
	free(merged);
}

/* Free what a classify owns. */
void
classify_clear(struct classify *cl)
{
	size_t	i;

	free(cl->area);
	free(cl->what);
	free(cl->subject);
	free(cl->prose);
	for (i = 0; i < cl->nfigures; i++)
		free(cl->figures[i]);
	free(cl->setting);
	memset(cl, 0, sizeof *cl);
}
