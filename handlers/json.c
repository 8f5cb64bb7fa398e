/* Typed access to payload fields, with causes that name the field. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "date.h"
#include "handler.h"
#include "repo.h"
#include "xmalloc.h"

static int	 hjson_get(const json_t *, const char *, const char *,
		    const json_t **, char **);

/* Set *cause to "<path>.<key>: <what>" (or "<key>: <what>" at the top). */
void
hjson_cause(char **cause, const char *path, const char *key, const char *what)
{
	if (cause == NULL)
		return;
	if (path != NULL && *path != '\0' && key != NULL)
		xasprintf(cause, "%s.%s: %s", path, key, what);
	else if (key != NULL)
		xasprintf(cause, "%s: %s", key, what);
	else if (path != NULL && *path != '\0')
		xasprintf(cause, "%s: %s", path, what);
	else
		xasprintf(cause, "payload: %s", what);
}

/*
 * The value of key in obj, NULL (and 0) when missing or null; -1 when obj
 * is not an object at all.
 */
static int
hjson_get(const json_t *obj, const char *path, const char *key,
    const json_t **out, char **cause)
{
	const json_t	*v;

	if (!json_is_object(obj)) {
		hjson_cause(cause, path, NULL, "expected an object");
		return -1;
	}
	v = json_object_get(obj, key);
	*out = json_is_null(v) ? NULL : v;
	return 0;
}

/* A required string (borrowed from obj). */
int
hjson_string(const json_t *obj, const char *path, const char *key,
    const char **out, char **cause)
{
	const json_t	*v;

	if (hjson_get(obj, path, key, &v, cause) == -1)
		return -1;
	if (v == NULL && json_object_get(obj, key) == NULL) {
		hjson_cause(cause, path, key, "missing");
		return -1;
	}
	if (!json_is_string(v)) {
		hjson_cause(cause, path, key, "expected a string");
		return -1;
	}
	*out = json_string_value(v);
	return 0;
}

/* An optional string (borrowed), NULL when missing or null. */
int
hjson_string_opt(const json_t *obj, const char *path, const char *key,
    const char **out, char **cause)
{
	const json_t	*v;

	if (hjson_get(obj, path, key, &v, cause) == -1)
		return -1;
	if (v == NULL) {
		*out = NULL;
		return 0;
	}
	if (!json_is_string(v)) {
		hjson_cause(cause, path, key, "expected a string");
		return -1;
	}
	*out = json_string_value(v);
	return 0;
}

/* A required object (borrowed). */
int
hjson_object(const json_t *obj, const char *path, const char *key,
    const json_t **out, char **cause)
{
	const json_t	*v;

	if (hjson_get(obj, path, key, &v, cause) == -1)
		return -1;
	if (v == NULL && json_object_get(obj, key) == NULL) {
		hjson_cause(cause, path, key, "missing");
		return -1;
	}
	if (!json_is_object(v)) {
		hjson_cause(cause, path, key, "expected an object");
		return -1;
	}
	*out = v;
	return 0;
}

/* An optional object (borrowed), NULL when missing or null. */
int
hjson_object_opt(const json_t *obj, const char *path, const char *key,
    const json_t **out, char **cause)
{
	const json_t	*v;

	if (hjson_get(obj, path, key, &v, cause) == -1)
		return -1;
	if (v != NULL && !json_is_object(v)) {
		hjson_cause(cause, path, key, "expected an object");
		return -1;
	}
	*out = v;
	return 0;
}

/* A required array (borrowed). */
int
hjson_array(const json_t *obj, const char *path, const char *key,
    const json_t **out, char **cause)
{
	const json_t	*v;

	if (hjson_get(obj, path, key, &v, cause) == -1)
		return -1;
	if (v == NULL && json_object_get(obj, key) == NULL) {
		hjson_cause(cause, path, key, "missing");
		return -1;
	}
	if (!json_is_array(v)) {
		hjson_cause(cause, path, key, "expected an array");
		return -1;
	}
	*out = v;
	return 0;
}

/* An optional array (borrowed), NULL when missing or null. */
int
hjson_array_opt(const json_t *obj, const char *path, const char *key,
    const json_t **out, char **cause)
{
	const json_t	*v;

	if (hjson_get(obj, path, key, &v, cause) == -1)
		return -1;
	if (v != NULL && !json_is_array(v)) {
		hjson_cause(cause, path, key, "expected an array");
		return -1;
	}
	*out = v;
	return 0;
}

/* An optional boolean; *out is 0 when missing or null. */
int
hjson_bool_opt(const json_t *obj, const char *path, const char *key,
    int *out, char **cause)
{
	const json_t	*v;

	if (hjson_get(obj, path, key, &v, cause) == -1)
		return -1;
	if (v == NULL) {
		*out = 0;
		return 0;
	}
	if (!json_is_boolean(v)) {
		hjson_cause(cause, path, key, "expected a boolean");
		return -1;
	}
	*out = json_is_true(v);
	return 0;
}

/* A required integer. */
int
hjson_integer(const json_t *obj, const char *path, const char *key,
    long long *out, char **cause)
{
	const json_t	*v;

	if (hjson_get(obj, path, key, &v, cause) == -1)
		return -1;
	if (v == NULL && json_object_get(obj, key) == NULL) {
		hjson_cause(cause, path, key, "missing");
		return -1;
	}
	if (!json_is_integer(v)) {
		hjson_cause(cause, path, key, "expected an integer");
		return -1;
	}
	*out = json_integer_value(v);
	return 0;
}

/*
 * A branch name read from a payload (path.key, or NULL when missing)
 * against PUSH_MAX_BRANCH: a longer one is refused, as push_branch refuses
 * a longer ref, rather than kept in part.
 */
int
hjson_check_branch(const char *path, const char *key, const char *branch,
    char **cause)
{
	char	*what;

	if (branch != NULL && strlen(branch) > PUSH_MAX_BRANCH) {
		xasprintf(&what, "branch name longer than %d bytes",
		    PUSH_MAX_BRANCH);
		hjson_cause(cause, path, key, what);
		free(what);
		return -1;
	}
	return 0;
}

/*
 * The default branch is kept with every delivery (the journal's "db", the
 * day's default_branch) and a push's branch is compared with it, so it has
 * the push branch's cap. push_scan makes the same check.
 */
int
hjson_check_default_branch(const char *branch, char **cause)
{
	return hjson_check_branch("repository", "default_branch", branch,
	    cause);
}

char *
hjson_url_dup(const char *url, const char *full_name)
{
	return repo_url_ok(url, full_name) ? xstrdup(url) : NULL;
}

char *
hjson_repository_url(const json_t *payload, const char *full_name)
{
	const json_t	*url;

	url = json_object_get(json_object_get(payload, "repository"),
	    "html_url");
	if (!json_is_string(url))
		return NULL;
	return hjson_url_dup(json_string_value(url), full_name);
}

/*
 * The repository of a payload: repository.full_name (checked to look like
 * "owner/name") and repository.default_branch (checked against
 * PUSH_MAX_BRANCH), both borrowed. When required is 0 a missing
 * repository gives NULLs.
 */
int
hjson_repository(const json_t *payload, int required, const char **full_name,
    const char **default_branch, char **cause)
{
	const json_t	*repo;
	const char	*name, *branch;

	if (required) {
		if (hjson_object(payload, NULL, "repository", &repo,
		    cause) == -1)
			return -1;
	} else {
		if (hjson_object_opt(payload, NULL, "repository", &repo,
		    cause) == -1)
			return -1;
		if (repo == NULL) {
			*full_name = NULL;
			*default_branch = NULL;
			return 0;
		}
	}
	if (hjson_string(repo, "repository", "full_name", &name, cause) == -1)
		return -1;
	if (!repo_name_ok(name)) {
		hjson_cause(cause, "repository", "full_name",
		    "expected \"owner/name\"");
		return -1;
	}
	if (hjson_string_opt(repo, "repository", "default_branch", &branch,
	    cause) == -1 || hjson_check_default_branch(branch, cause) == -1)
		return -1;
	*full_name = name;
	*default_branch = branch;
	return 0;
}

/* Read exactly n digits as a number; -1 if any is not a digit. */
static int
hjson_digits(const char *s, int n)
{
	int	v = 0, i;

	for (i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

static int
hjson_mdays(int year, int month)
{
	static const int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31,
	    30, 31 };

	if (month == 2 && year % 4 == 0 && (year % 100 != 0 || year % 400 == 0))
		return 29;
	return days[month - 1];
}

/*
 * Parse an ISO 8601 timestamp: "YYYY-MM-DDTHH:MM:SS", optional fraction,
 * then "Z" or "+hh:mm" / "-hh:mm" (or "+hhmm"). 0 or -1.
 */
int
hjson_time(const char *s, time_t *out)
{
	int		 year, mon, mday, hour, min, sec, oh = 0, om = 0, sign;
	time_t		 t;
	const char	*p;

	if (s == NULL || strlen(s) < 20)
		return -1;
	if ((year = hjson_digits(s, 4)) < 0 || s[4] != '-' ||
	    (mon = hjson_digits(s + 5, 2)) < 0 || s[7] != '-' ||
	    (mday = hjson_digits(s + 8, 2)) < 0 ||
	    (s[10] != 'T' && s[10] != 't') ||
	    (hour = hjson_digits(s + 11, 2)) < 0 || s[13] != ':' ||
	    (min = hjson_digits(s + 14, 2)) < 0 || s[16] != ':' ||
	    (sec = hjson_digits(s + 17, 2)) < 0)
		return -1;
	if (year < 1970 || mon < 1 || mon > 12 || mday < 1 ||
	    mday > hjson_mdays(year, mon) || hour > 23 || min > 59 || sec > 60)
		return -1;

	p = s + 19;
	if (*p == '.' || *p == ',') {
		p++;
		if (!isdigit((unsigned char)*p))
			return -1;
		while (isdigit((unsigned char)*p))
			p++;
	}
	if (*p == 'Z' || *p == 'z')
		p++;
	else if (*p == '+' || *p == '-') {
		sign = *p == '-' ? -1 : 1;
		p++;
		if ((oh = hjson_digits(p, 2)) < 0)
			return -1;
		p += 2;
		if (*p == ':')
			p++;
		if ((om = hjson_digits(p, 2)) < 0)
			return -1;
		p += 2;
		if (oh > 23 || om > 59)
			return -1;
		oh *= sign;
		om *= sign;
	} else
		return -1;
	if (*p != '\0')
		return -1;

	t = date_utc(year, mon, mday, hour, min, sec);
	*out = t - (time_t)oh * 3600 - (time_t)om * 60;
	return 0;
}
