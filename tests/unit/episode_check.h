/*
 * Invariants every drafted episode keeps, whatever the day: shared by
 * test_episode.c (generated days) and test_golden.c (corpus days).
 * Include after <cmocka.h>; the functions are static inline so a test
 * that uses only some of them still builds without warnings.
 *
 * - spoken text (title, description, transcript) holds no URL, no sha-like
 *   token (7+ hex with a digit and a letter, or 40 hex), no e-mail address,
 *   no backtick, asterisk or "#" heading, no control character but the
 *   newline and no HTML tag;
 * - every run of digits in a segment appears in the messages of the
 *   commits that segment lists, in a merged PR's title, in the date or in
 *   the show's name (counts are said in words);
 * - every segment's commits are shas of the day, and every revert of the
 *   day is listed by some segment;
 * - the transcript is the segments' text joined, and the JSON parses.
 */
#ifndef HOOKCAST_EPISODE_CHECK_H
#define HOOKCAST_EPISODE_CHECK_H

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "day.h"
#include "episode.h"

/* Whether the text holds anything that must not be said aloud. */
static inline const char *
check_unspeakable(const char *text)
{
	const char	*p, *q;
	size_t		 n;
	int		 digit, letter;

	if (strstr(text, "://") != NULL || strstr(text, "www.") != NULL)
		return "a URL";
	if (strchr(text, '`') != NULL || strchr(text, '*') != NULL)
		return "markup";
	for (p = text; *p != '\0'; p++) {
		if ((*p > 0 && *p < 0x20 && *p != '\n') || *p == 0x7f)
			return "a control character";
		if (*p == '<' && (isalpha((unsigned char)p[1]) ||
		    (p[1] != '\0' && strchr("/!?", p[1]) != NULL)))
			return "a tag";
		if (*p == '#' && (p == text || p[-1] == '\n'))
			return "a heading";
		if (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
			continue;
		digit = letter = 0;
		for (n = 0; isxdigit((unsigned char)p[n]); n++) {
			if (isdigit((unsigned char)p[n]))
				digit = 1;
			else
				letter = 1;
		}
		if (!isalnum((unsigned char)p[n]) && p[n] != '_' &&
		    (n >= 40 || (n >= 7 && digit && letter)))
			return "a sha";
		/* an e-mail address: word@word.word */
		if (*p == '@' || !isalnum((unsigned char)*p))
			continue;
		for (q = p; isalnum((unsigned char)*q) ||
		    (*q != '\0' && strchr("._+-", *q) != NULL); q++)
			continue;
		if (*q == '@' && isalnum((unsigned char)q[1]) &&
		    strchr(q, '.') != NULL && strcspn(q, " \n") >
		    (size_t)(strchr(q, '.') - q))
			return "an e-mail address";
	}
	return NULL;
}

/* Whether the digit run d (length n) stands in s as a digit run of its own. */
static inline int
check_digits_in(const char *s, const char *d, size_t n)
{
	const char	*p = s;

	if (s == NULL)
		return 0;
	while ((p = memmem(p, strlen(p), d, n)) != NULL) {
		if ((p == s || !isdigit((unsigned char)p[-1])) &&
		    !isdigit((unsigned char)p[n]))
			return 1;
		p++;
	}
	return 0;
}

/* Whether the digit run d is the year, month or day of "YYYY-MM-DD". */
static inline int
check_date_part(const char *date, const char *d, size_t n)
{
	int	y, m, dd;
	long	v = 0;
	size_t	i;

	if (date == NULL || sscanf(date, "%d-%d-%d", &y, &m, &dd) != 3 || n > 6)
		return 0;
	for (i = 0; i < n; i++)
		v = v * 10 + (d[i] - '0');
	return v == y || v == m || v == dd;
}

/* Whether the day holds sha (full). */
static inline int
check_day_has(const struct day *day, const char *sha)
{
	return day_find_commit(day, sha) >= 0 && strlen(sha) == 40;
}

/* The source of every digit run of a segment's text, or fail. */
static inline void
check_segment_numbers(const struct day *day, const struct episode *ep,
    const struct episode_segment *seg)
{
	const char	*p;
	size_t		 n, i;
	long		 idx;
	int		 ok;

	for (p = seg->text; *p != '\0'; p++) {
		if (!isdigit((unsigned char)*p) ||
		    (p > seg->text && isdigit((unsigned char)p[-1])))
			continue;
		n = strspn(p, "0123456789");
		ok = check_digits_in(ep->show, p, n) ||
		    check_date_part(ep->date, p, n);
		for (i = 0; !ok && i < seg->ncommits; i++) {
			idx = day_find_commit(day, seg->commits[i]);
			if (idx < 0)
				continue;
			ok = check_digits_in(day->commits[idx].subject, p, n) ||
			    check_digits_in(day->commits[idx].body, p, n) ||
			    check_digits_in(day->commits[idx].author_name, p,
			    n) || check_digits_in(day->commits[idx].author_login,
			    p, n);
		}
		for (i = 0; !ok && i < day->nprs; i++)
			ok = check_digits_in(day->prs[i].title, p, n);
		/* a person's name is said where the day needs it (a login,
		 * for a name with no Latin letter): its digits are no claim */
		for (i = 0; !ok && i < day->ncommits; i++)
			ok = check_digits_in(day->commits[i].author_name, p,
			    n) || check_digits_in(day->commits[i].author_login,
			    p, n);
		if (!ok)
			fail_msg("the number %.*s in the %s segment comes from "
			    "none of its commits: %s", (int)n, p, seg->kind,
			    seg->text);
		p += n - 1;
	}
}

/* All the invariants of an episode drafted from day; json its rendering. */
static inline void
check_episode(const struct day *day, const struct episode *ep,
    const char *json)
{
	const char	*why;
	size_t		 i, j, len = 0;
	json_error_t	 err;
	json_t		*root;
	int		 found;

	if ((why = check_unspeakable(ep->transcript)) != NULL)
		fail_msg("%s in the transcript: %s", why, ep->transcript);
	if ((why = check_unspeakable(ep->title)) != NULL)
		fail_msg("%s in the title: %s", why, ep->title);
	if ((why = check_unspeakable(ep->description)) != NULL)
		fail_msg("%s in the description: %s", why, ep->description);
	for (i = 0; i < ep->nsegments; i++) {
		const struct episode_segment *seg = &ep->segments[i];

		assert_non_null(seg->kind);
		assert_non_null(seg->text);
		assert_true(seg->text[0] != '\0');
		len += strlen(seg->text) + (i > 0 ? 2 : 0);
		for (j = 0; j < seg->ncommits; j++) {
			if (!check_day_has(day, seg->commits[j]))
				fail_msg("segment %s lists %s, not of the day",
				    seg->kind, seg->commits[j]);
		}
		check_segment_numbers(day, ep, seg);
	}
	assert_int_equal(strlen(ep->transcript), len);
	for (i = 0; i < day->ncommits; i++) {
		const struct commit *c = &day->commits[i];

		if (!c->revert.is_revert || c->revert.is_reland)
			continue;
		found = 0;
		for (j = 0; j < ep->nsegments && !found; j++) {
			size_t k;

			for (k = 0; k < ep->segments[j].ncommits; k++) {
				if (strcmp(ep->segments[j].commits[k],
				    c->sha) == 0)
					found = 1;
			}
		}
		if (!found)
			fail_msg("the revert %s is in no segment", c->sha);
	}
	if (json != NULL) {
		if ((root = json_loads(json, 0, &err)) == NULL)
			fail_msg("JSON: %s", err.text);
		assert_int_equal(json_array_size(json_object_get(root,
		    "segments")), ep->nsegments);
		json_decref(root);
	}
}

#endif
