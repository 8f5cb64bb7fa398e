/*
 * A corpus day (tests/data/corpus/NAME) loaded through the real handlers,
 * delivery by delivery in name order, as the daemon's store would keep
 * it, its reverts paired (include after cmocka.h).
 */
#ifndef HOOKCAST_TEST_CORPUS_DAY_H
#define HOOKCAST_TEST_CORPUS_DAY_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "day.h"
#include "handler.h"
#include "xmalloc.h"

#ifndef TEST_DATA_DIR
#define TEST_DATA_DIR "tests/data"
#endif

static int
corpus_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* One delivery into *dayp (made on the first). */
static void
corpus_deliver(struct day **dayp, const char *body_path, const char *meta_path)
{
	const struct handler_entry	*h;
	struct handler_result		 res;
	json_error_t			 err;
	json_t				*meta, *payload;
	const char			*when;
	char				*cause = NULL;
	time_t				 now = 0;
	size_t				 i;

	if ((meta = json_load_file(meta_path, 0, &err)) == NULL)
		fail_msg("%s: %s", meta_path, err.text);
	if ((when = json_string_value(json_object_get(meta, "time"))) != NULL)
		hjson_time(when, &now);
	h = handler_find(json_string_value(json_object_get(meta, "event")));
	json_decref(meta);
	if (h == NULL)
		return;
	if ((payload = json_load_file(body_path, 0, &err)) == NULL)
		fail_msg("%s: %s", body_path, err.text);
	memset(&res, 0, sizeof res);
	if (h->handle(payload, now, &res, &cause) == -1)
		fail_msg("%s: %s", body_path, cause);
	json_decref(payload);
	if (res.repo != NULL) {
		if (*dayp == NULL)
			*dayp = day_new(res.repo, now);
		if ((*dayp)->default_branch == NULL &&
		    res.default_branch != NULL)
			(*dayp)->default_branch = xstrdup(res.default_branch);
		if ((*dayp)->html_url == NULL && res.html_url != NULL)
			(*dayp)->html_url = xstrdup(res.html_url);
		for (i = 0; i < res.ncommits; i++)
			assert_int_not_equal(day_add_commit(*dayp,
			    &res.commits[i]), -1);
		if (res.pr != NULL)
			assert_int_not_equal(day_add_pr(*dayp, res.pr), -1);
		if (res.push != NULL)
			assert_int_not_equal(day_add_push(*dayp, res.push), -1);
		if (now > (*dayp)->end)
			(*dayp)->end = now;
	}
	handler_result_clear(&res);
}

/* The corpus day of folder name (new), reverts paired. */
static struct day *
corpus_day(const char *name)
{
	struct day	*day = NULL;
	struct dirent	*de;
	DIR		*dir;
	char		*path, **files = NULL, *body, *meta;
	size_t		 n = 0, i, len;

	xasprintf(&path, "%s/corpus/%s", TEST_DATA_DIR, name);
	if ((dir = opendir(path)) == NULL)
		fail_msg("cannot open %s", path);
	while ((de = readdir(dir)) != NULL) {
		len = strlen(de->d_name);
		if (len < 6 || strcmp(de->d_name + len - 5, ".json") != 0 ||
		    strstr(de->d_name, ".meta.") != NULL)
			continue;
		files = xreallocarray(files, n + 1, sizeof *files);
		files[n++] = xstrndup(de->d_name, len - 5);
	}
	closedir(dir);
	if (n > 0)
		qsort(files, n, sizeof *files, corpus_cmp);
	for (i = 0; i < n; i++) {
		xasprintf(&body, "%s/%s.json", path, files[i]);
		xasprintf(&meta, "%s/%s.meta.json", path, files[i]);
		corpus_deliver(&day, body, meta);
		free(body);
		free(meta);
		free(files[i]);
	}
	free(files);
	free(path);
	assert_non_null(day);
	day_pair_reverts(day);
	return day;
}

/* The date in a corpus folder's name ("curl-2026-02-14-quiet") into o. */
static inline void
corpus_date(const char *name, int *year, int *month, int *mday)
{
	const char	*p;

	for (p = name; *p != '\0'; p++)
		if (sscanf(p, "%4d-%2d-%2d", year, month, mday) == 3 &&
		    *year > 1999)
			return;
	fail_msg("no date in %s", name);
}

#endif
