/* Emission: draft a day's episode and write its files atomically. */
#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "emit.h"
#include "episode.h"
#include "log.h"
#include "xmalloc.h"

void
emit_result_clear(struct emit_result *r)
{
	free(r->repo);
	free(r->date);
	free(r->title);
	free(r->md_path);
	free(r->json_path);
	free(r->md_text);
	free(r->json_text);
	memset(r, 0, sizeof(*r));
}

int
emit_repo_name_ok(const char *repo)
{
	const char	*slash = strchr(repo, '/'), *p;

	if (slash == NULL || slash == repo || slash[1] == '\0' ||
	    strchr(slash + 1, '/') != NULL)
		return 0;
	if (repo[0] == '.' || slash[1] == '.')
		return 0;
	for (p = repo; *p != '\0'; p++)
		if (!(*p == '/' || *p == '-' || *p == '_' || *p == '.' ||
		    (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') ||
		    (*p >= 'A' && *p <= 'Z')))
			return 0;
	return 1;
}

int
emit_mkdirs(const char *path)
{
	char	*p = xstrdup(path), *s;

	for (s = p + 1; *s != '\0'; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) == -1 && errno != EEXIST) {
			free(p);
			return -1;
		}
		*s = '/';
	}
	if (mkdir(p, 0755) == -1 && errno != EEXIST) {
		free(p);
		return -1;
	}
	free(p);
	return 0;
}

static int
emit_fsync_dir(const char *path)
{
	char	*dir = xstrdup(path), *slash;
	int	 fd, rc;

	if ((slash = strrchr(dir, '/')) != NULL)
		*slash = '\0';
	else
		strcpy(dir, ".");
	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1) {
		free(dir);
		return -1;
	}
	rc = fsync(fd);
	close(fd);
	free(dir);
	return rc;
}

int
emit_write_atomic(const char *path, const char *data, size_t len)
{
	char	*tmp;
	int	 fd, saved;
	size_t	 off = 0;
	ssize_t	 n;

	xasprintf(&tmp, "%s.tmp.%ld", path, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd == -1) {
		free(tmp);
		return -1;
	}
	while (off < len) {
		n = write(fd, data + off, len - off);
		if (n == -1) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		off += (size_t)n;
	}
	if (fsync(fd) == -1)
		goto fail;
	if (close(fd) == -1) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path) == -1)
		goto fail;
	free(tmp);
	return emit_fsync_dir(path);
fail:
	saved = errno;
	if (fd != -1)
		close(fd);
	unlink(tmp);
	free(tmp);
	errno = saved;
	return -1;
}

static int
emit_cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The archive's episodes around date: up to three before and three after,
 * read from the .json files of dir.
 */
static void
emit_nearby(const char *dir, const char *date, struct episode_nearby **out,
    size_t *nout)
{
	DIR		*d;
	struct dirent	*de;
	char	       **names = NULL, *path;
	size_t		 n = 0, i, first, last, at;
	size_t		 len;
	json_t		*j;
	const char	*title;

	*out = NULL;
	*nout = 0;
	if ((d = opendir(dir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		len = strlen(de->d_name);
		/* YYYY-MM-DD.json or YYYY-MM-DD-N.json */
		if (len < 15 || strcmp(de->d_name + len - 5, ".json") != 0 ||
		    de->d_name[4] != '-' || de->d_name[7] != '-')
			continue;
		names = xreallocarray(names, n + 1, sizeof(*names));
		names[n++] = xstrndup(de->d_name, len - 5);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), emit_cmp_str);
	for (at = 0; at < n && strcmp(names[at], date) < 0; at++)
		;
	first = at > 3 ? at - 3 : 0;
	/* skip an episode of this very date and name (a re-emission) */
	last = at;
	while (last < n && strncmp(names[last], date, 10) == 0)
		last++;
	last = last + 3 < n ? last + 3 : n;
	for (i = first; i < last; i++) {
		if (strncmp(names[i], date, 10) == 0)
			continue;
		xasprintf(&path, "%s/%s.json", dir, names[i]);
		j = json_load_file(path, 0, NULL);
		free(path);
		if (j == NULL)
			continue;
		title = json_string_value(json_object_get(j, "title"));
		if (title != NULL) {
			*out = xreallocarray(*out, *nout + 1, sizeof(**out));
			(*out)[*nout].date = xstrndup(names[i], 10);
			(*out)[*nout].title = xstrdup(title);
			(*nout)++;
		}
		json_decref(j);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* Is base.json the episode of the day that started at start? */
static int
emit_same_day(const char *base, time_t start)
{
	char		*path, want[32];
	json_t		*j;
	const char	*got;
	struct tm	 tm;
	int		 same;

	xasprintf(&path, "%s.json", base);
	j = json_load_file(path, 0, NULL);
	free(path);
	if (j == NULL)
		return 0;
	gmtime_r(&start, &tm);
	strftime(want, sizeof(want), "%Y-%m-%dT%H:%M:%SZ", &tm);
	got = json_string_value(json_object_get(json_object_get(j, "window"),
	    "start"));
	same = got != NULL && strcmp(got, want) == 0;
	json_decref(j);
	return same;
}

int
emit_day(const struct config *conf, struct day *day, time_t now, int write,
    struct emit_result *res, char **cause)
{
	struct episode_opts	 opts;
	struct episode		*ep;
	struct episode_nearby	*nearby = NULL;
	size_t			 nnearby = 0, i;
	struct tm		 tm;
	char			 date[16], *dir = NULL, *show, *base = NULL;
	char			*md = NULL, *js = NULL;
	int			 n;
	struct stat		 st;

	memset(res, 0, sizeof(*res));
	if (!emit_repo_name_ok(day->repo)) {
		xasprintf(cause, "repository name '%s' can't be a path",
		    day->repo);
		return -1;
	}
	localtime_r(&day->start, &tm);
	strftime(date, sizeof(date), "%Y-%m-%d", &tm);
	xasprintf(&dir, "%s/%s", conf->output_dir, day->repo);

	day_pair_reverts(day);
	emit_nearby(dir, date, &nearby, &nnearby);
	show = config_show(conf, day->repo);
	memset(&opts, 0, sizeof(opts));
	opts.show = show;
	opts.year = tm.tm_year + 1900;
	opts.month = tm.tm_mon + 1;
	opts.mday = tm.tm_mday;
	opts.published = now;
	opts.words_per_minute = conf->words_per_minute;
	opts.nearby = nearby;
	opts.nnearby = nnearby;
	ep = episode_draft(day, &opts);
	md = episode_render_md(ep);
	js = episode_render_json(ep);

	res->repo = xstrdup(day->repo);
	res->date = xstrdup(date);
	res->title = xstrdup(ep->title);
	if (write) {
		if (emit_mkdirs(dir) == -1) {
			xasprintf(cause, "%s: %s", dir, strerror(errno));
			goto fail;
		}
		/*
		 * One name per day: a day emitted again (after a crash
		 * between the files and the journal's rotation) overwrites
		 * its own files; another day of the same date gets "-2"...
		 */
		xasprintf(&base, "%s/%s", dir, date);
		for (n = 2; ; n++) {
			xasprintf(&res->md_path, "%s.md", base);
			if (stat(res->md_path, &st) == -1 ||
			    emit_same_day(base, day->start))
				break;
			free(res->md_path);
			res->md_path = NULL;
			free(base);
			xasprintf(&base, "%s/%s-%d", dir, date, n);
		}
		xasprintf(&res->json_path, "%s.json", base);
		if (emit_write_atomic(res->json_path, js, strlen(js)) == -1 ||
		    emit_write_atomic(res->md_path, md, strlen(md)) == -1) {
			xasprintf(cause, "writing %s: %s", base, strerror(errno));
			goto fail;
		}
		log_notice("emitted %s episode %s: %s", day->repo, base,
		    ep->title);
	}
	res->md_text = md;
	res->json_text = js;
	md = js = NULL;
	free(base);
	free(dir);
	free(show);
	episode_free(ep);
	for (i = 0; i < nnearby; i++) {
		free(nearby[i].date);
		free(nearby[i].title);
	}
	free(nearby);
	return 0;
fail:
	free(md);
	free(js);
	free(base);
	free(dir);
	free(show);
	episode_free(ep);
	for (i = 0; i < nnearby; i++) {
		free(nearby[i].date);
		free(nearby[i].title);
	}
	free(nearby);
	emit_result_clear(res);
	return -1;
}
