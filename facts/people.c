/*
 * Who a commit is by, as the episode says it: bots known by their login
 * or name, and the spoken name of a person (a login for a name with no
 * Latin letter). Part of classification (classify.h), apart from the
 * reading of a commit's text.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "classify.h"
#include "text.h"
#include "xmalloc.h"

/* Whether a login or name is a bot's ("dependabot[bot]", "renovate"). */
int
classify_is_bot(const char *login, const char *name)
{
	static const char *known[] = {
		"dependabot", "renovate", "github-actions", "pre-commit-ci",
		"mergify", "greenkeeper", "imgbot", "allcontributors",
		"pytorchmergebot", "pytorchbot", "pytorchupdatebot", "copilot",
		"web-flow", "bors", "github-merge-queue", NULL
	};
	/* "some-ci-bot", "k8s-ci-robot", "pytorchmergebot", "my_bot" */
	static const char *suffixes[] = {
		"-bot", "_bot", "-robot", "mergebot", "updatebot", " bot",
		" robot", NULL
	};
	const char	*s[2] = { login, name };
	size_t		 i, j, n;
	int		 first;

	for (i = 0; i < 2; i++) {
		if (s[i] == NULL || *s[i] == '\0')
			continue;
		n = strlen(s[i]);
		if (strstr(s[i], "bot]") != NULL)
			return 1;
		/* every suffix ends in "bot": most names stop here */
		for (j = 0; n >= 3 && strcasecmp(s[i] + n - 3, "bot") == 0 &&
		    suffixes[j] != NULL; j++) {
			size_t l = strlen(suffixes[j]);

			if (n > l && strcasecmp(s[i] + n - l, suffixes[j]) == 0)
				return 1;
		}
		/* and the known ones by their first letter first */
		first = tolower((unsigned char)*s[i]);
		for (j = 0; known[j] != NULL; j++) {
			if (first == known[j][0] && strncasecmp(s[i], known[j],
			    strlen(known[j])) == 0)
				return 1;
		}
	}
	return 0;
}

/* A bot's name as said aloud: "dependabot[bot]" -> "Dependabot" (new). */
char *
classify_bot_name(const char *login, const char *name)
{
	const char	*s = login != NULL && *login != '\0' ? login : name;
	char		*out, *p;

	if (s == NULL || *s == '\0')
		return xstrdup("A bot");
	if (strncasecmp(s, "github-actions", 14) == 0)
		return xstrdup("GitHub Actions");
	out = xstrdup(s);
	if ((p = strstr(out, "[bot]")) != NULL)
		*p = '\0';
	for (p = out; *p != '\0'; p++) {
		if (*p == '-' || *p == '_')
			*p = ' ';
	}
	out[0] = (char)toupper((unsigned char)out[0]);
	return out;
}

/*
 * Whether s holds a Latin letter: ASCII, or one of Latin-1's, Latin
 * Extended A and B's (U+00C0 to U+024F) or Latin Extended Additional's
 * (U+1E00 to U+1EFF) in UTF-8. "Stéphane" has, "翠" and "Ελένη" have
 * none.
 */
static int
classify_latin(const char *s)
{
	const unsigned char	*p = (const unsigned char *)s;

	for (; *p != '\0'; p++) {
		if (isalpha(*p) && *p < 0x80)
			return 1;
		/* U+00C0..U+024F, but U+00D7 and U+00F7 are signs */
		if (*p >= 0xc3 && *p <= 0xc9 && (p[1] & 0xc0) == 0x80 &&
		    !(*p == 0xc3 && (p[1] == 0x97 || p[1] == 0xb7)))
			return 1;
		if (*p == 0xe1 && p[1] >= 0xb8 && p[1] <= 0xbb)
			return 1;
	}
	return 0;
}

/*
 * A handle to say for an author whose name has no Latin letter (new), or
 * NULL: the login; else, with none, the one in a GitHub address
 * ("49056869+sapphi-red@users.noreply.github.com"), or an address's own
 * ("green@sapphi.red"). "ghost" is GitHub's stand-in for an author it
 * knows no account of, no login (vite 2026-06-30: "翠", "ghost").
 */
static char *
classify_handle(const struct commit *c)
{
	static const char *const none[] = { "noreply", "no-reply",
	    "donotreply", "root", "admin", "info", "git", NULL };
	const char	*l = c->author_login, *e = c->author_email, *at, *p;
	size_t		 k, n;

	if (l != NULL && *l != '\0' && strcmp(l, "ghost") != 0)
		return classify_latin(l) ? text_clean(l) : NULL;
	if (e == NULL || (at = strchr(e, '@')) == NULL || at == e ||
	    strchr(at + 1, '.') == NULL)
		return NULL;
	p = e;
	if (strcasecmp(at + 1, "users.noreply.github.com") == 0 &&
	    (p = memchr(e, '+', (size_t)(at - e))) != NULL)
		p++;
	else if (strcasecmp(at + 1, "users.noreply.github.com") == 0)
		p = e;
	n = (size_t)(at - p);
	for (k = 0; none[k] != NULL; k++)
		if (strlen(none[k]) == n && strncasecmp(p, none[k], n) == 0)
			return NULL;
	for (k = 0; k < n; k++)
		if (isalpha((unsigned char)p[k]))
			return xstrndup(p, n);
	return NULL;
}

/*
 * The spoken name of a commit's author (new). A name with no Latin
 * letter is said as the login: a speech engine reads "翠" as "Chinese
 * letter", not as the person's name.
 */
char *
classify_name(const struct commit *c, int bot)
{
	const char	*s;
	char		*h;

	if (bot)
		return classify_bot_name(c->author_login, c->author_name);
	s = c->author_name != NULL && *c->author_name != '\0' ?
	    c->author_name : c->author_login;
	if (s != NULL && s == c->author_name && !classify_latin(s) &&
	    (h = classify_handle(c)) != NULL)
		return h;
	if (s == NULL || *s == '\0')
		return xstrdup("someone");
	return text_clean(s);
}
