/* The archive: the layout of OUTPUT_DIR, and episodes read back. */
#include <sys/stat.h>
#include <sys/types.h>

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "archive.h"
#include "log.h"
#include "repo.h"
#include "xmalloc.h"

/* Most files one folder may list: a century of daily episodes. */
#define ARCHIVE_MAX_FILES	100000

/* Is output_dir/(the first len bytes of repo) a symbolic link? */
static int
archive_symlink(const char *output_dir, const char *repo, size_t len)
{
	struct stat	 st;
	char		*path;
	int		 link;

	xasprintf(&path, "%s/%.*s", output_dir, (int)len, repo);
	link = lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
	free(path);
	return link;
}

int
archive_dir(const char *output_dir, const char *repo, char **dir,
    char **cause)
{
	char	*esc;

	if (!repo_name_ok(repo)) {
		esc = log_escape(repo, 140);
		xasprintf(cause, "'%s' is not a repository name (owner/name)",
		    esc);
		free(esc);
		return -1;
	}
	/*
	 * OWNER and OWNER/REPO are ours: a symlink planted there would send
	 * reads and writes elsewhere. Refused here for a clear error; the
	 * writes open the folders with O_NOFOLLOW besides (emit.c).
	 */
	if (archive_symlink(output_dir, repo, strcspn(repo, "/")) ||
	    archive_symlink(output_dir, repo, strlen(repo))) {
		esc = log_escape(repo, 140);
		xasprintf(cause, "%s/%s: a symbolic link on the way; refusing "
		    "to follow it", output_dir, esc);
		free(esc);
		return -1;
	}
	xasprintf(dir, "%s/%s", output_dir, repo);
	return 0;
}

char *
archive_path(const char *dir, const char *name, const char *ext)
{
	char	*path;

	xasprintf(&path, "%s/%s.%s", dir, name, ext);
	return path;
}

int
archive_parse_name(const char *name, struct archive_entry *e)
{
	const char	*p;
	long		 seq;
	int		 i;

	if (strlen(name) < 10)
		return 0;
	for (i = 0; i < 10; i++) {
		if (i == 4 || i == 7) {
			if (name[i] != '-')
				return 0;
		} else if (!isdigit((unsigned char)name[i]))
			return 0;
	}
	p = name + 10;
	if (*p == '\0')
		seq = 1;
	else if (strcmp(p, "-recap") == 0)
		seq = ARCHIVE_RECAP;
	else {
		if (p[0] != '-' || p[1] < '1' || p[1] > '9' || strlen(p) > 7)
			return 0;
		for (seq = 0, p++; *p != '\0'; p++) {
			if (!isdigit((unsigned char)*p))
				return 0;
			seq = seq * 10 + (*p - '0');
		}
		if (seq < 2)
			return 0;
	}
	e->name = xstrdup(name);
	memcpy(e->date, name, 10);
	e->date[10] = '\0';
	e->seq = (int)seq;
	return 1;
}

int
archive_cmp(const struct archive_entry *a, const struct archive_entry *b)
{
	int	c = strcmp(a->date, b->date);

	if (c != 0)
		return c;
	return a->seq < b->seq ? -1 : a->seq > b->seq ? 1 : 0;
}

static int
archive_qcmp(const void *a, const void *b)
{
	return archive_cmp(a, b);
}

void
archive_list(const char *dir, struct archive *ar)
{
	DIR		*d;
	struct dirent	*de;
	struct archive_entry e;
	char		*base;
	size_t		 len;

	memset(ar, 0, sizeof(*ar));
	if ((d = opendir(dir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL && ar->n < ARCHIVE_MAX_FILES) {
		len = strlen(de->d_name);
		if (len < 15 || strcmp(de->d_name + len - 5, ".json") != 0)
			continue;
		base = xstrndup(de->d_name, len - 5);
		if (archive_parse_name(base, &e)) {
			ar->v = xreallocarray(ar->v, ar->n + 1,
			    sizeof(*ar->v));
			ar->v[ar->n++] = e;
		}
		free(base);
	}
	closedir(d);
	if (ar->n > 0)
		qsort(ar->v, ar->n, sizeof(*ar->v), archive_qcmp);
}

void
archive_clear(struct archive *ar)
{
	size_t	i;

	for (i = 0; i < ar->n; i++)
		free(ar->v[i].name);
	free(ar->v);
	memset(ar, 0, sizeof(*ar));
}

json_t *
archive_load(const char *dir, const struct archive_entry *e)
{
	json_error_t	 err;
	json_t		*j;
	char		*path;

	path = archive_path(dir, e->name, "json");
	j = json_load_file(path, 0, &err);
	if (j == NULL)
		log_warnx("%s: %s: %s", __func__, path, err.text);
	else if (!json_is_object(j)) {
		log_warnx("%s: %s: not an episode", __func__, path);
		json_decref(j);
		j = NULL;
	}
	free(path);
	return j;
}

/*
 * "." or ".."; other names starting with '.' are for repo_name_ok to
 * judge: ".github" is a repository.
 */
static int
archive_dot(const char *name)
{
	return strcmp(name, ".") == 0 || strcmp(name, "..") == 0;
}

void
archive_repos(const char *output_dir, struct strlist *list)
{
	DIR		*d, *sub;
	struct dirent	*de, *se;
	char		*path, *repo, *sub_path;
	struct stat	 st;

	if ((d = opendir(output_dir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (archive_dot(de->d_name))
			continue;
		xasprintf(&path, "%s/%s", output_dir, de->d_name);
		/* lstat: a symlinked folder is not one of ours */
		if (lstat(path, &st) == -1 || !S_ISDIR(st.st_mode) ||
		    (sub = opendir(path)) == NULL) {
			free(path);
			continue;
		}
		while ((se = readdir(sub)) != NULL) {
			if (archive_dot(se->d_name))
				continue;
			xasprintf(&repo, "%s/%s", de->d_name, se->d_name);
			xasprintf(&sub_path, "%s/%s", path, se->d_name);
			if (repo_name_ok(repo) &&
			    lstat(sub_path, &st) == 0 && S_ISDIR(st.st_mode) &&
			    !strlist_contains(list, repo))
				strlist_add(list, repo);
			free(sub_path);
			free(repo);
		}
		closedir(sub);
		free(path);
	}
	closedir(d);
}

size_t
archive_prune(const char *dir, const char *before)
{
	DIR			*d;
	struct dirent		*de;
	struct archive_entry	 e;
	struct stat		 st;
	char			*base;
	size_t			 removed = 0;

	if ((d = opendir(dir)) == NULL)
		return 0;
	while ((de = readdir(d)) != NULL) {
		base = xstrndup(de->d_name, strcspn(de->d_name, "."));
		if (!archive_parse_name(base, &e)) {
			free(base);
			continue;
		}
		if (strcmp(e.date, before) < 0 &&
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode))) {
			if (unlinkat(dirfd(d), de->d_name, 0) == -1)
				log_warn("%s: %s/%s", __func__, dir, de->d_name);
			else
				removed++;
		}
		free(e.name);
		free(base);
	}
	closedir(d);
	return removed;
}

time_t
archive_time(const char *s)
{
	struct tm	tm;
	const char	*end;

	if (s == NULL)
		return 0;
	memset(&tm, 0, sizeof(tm));
	end = strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (end == NULL || *end != '\0')
		return 0;
	return timegm(&tm);
}
