/*
 * The archive: the layout of OUTPUT_DIR (a folder OWNER/REPO/ per
 * repository holding its episodes as DATE[-N|-recap].md, .json and
 * .txt, any audio and captions of the same base name, and feed.xml) and the episodes already written there, read back for the
 * nearby list, the feed and the weekly recap. No libevent: plain file
 * work.
 */
#ifndef HOOKCAST_ARCHIVE_H
#define HOOKCAST_ARCHIVE_H

#include <limits.h>
#include <stddef.h>

#include <jansson.h>

#include "strlist.h"

/* The sequence number of a recap: after every daily episode of its date. */
#define ARCHIVE_RECAP	INT_MAX

struct archive_entry {
	char	*name;		/* "2026-06-01", "2026-06-01-2", "...-recap" */
	char	 date[11];	/* YYYY-MM-DD */
	int	 seq;		/* 1 for DATE, N for DATE-N, ARCHIVE_RECAP */
};

/* The base name of a repository's feed in its folder (feed.xml). */
#define ARCHIVE_FEED	"feed"

struct archive {
	struct archive_entry	*v;	/* oldest first */
	size_t			 n;
};

/*
 * The folder of repo's episodes, OUTPUT_DIR/OWNER/REPO: 0 with *dir set
 * (new), or -1 with *cause (new) when repo is not an "owner/name" by
 * repo_name_ok (and so can't be two folders).
 */
int	 archive_dir(const char *output_dir, const char *repo, char **dir,
	    char **cause);
/* A file of a repository's folder: dir/name.ext (new). */
char	*archive_path(const char *dir, const char *name, const char *ext);
/*
 * An episode's file base name: 1 with e filled (e->name new), or 0 when
 * name isn't one ("YYYY-MM-DD", "YYYY-MM-DD-N" or "YYYY-MM-DD-recap").
 */
int	 archive_parse_name(const char *name, struct archive_entry *e);
/* Order of two entries: date, then sequence (a recap last). */
int	 archive_cmp(const struct archive_entry *, const struct archive_entry *);
/*
 * The episodes (.json files) of dir, oldest first. A missing or unreadable
 * folder is an empty archive.
 */
void	 archive_list(const char *dir, struct archive *);
void	 archive_clear(struct archive *);
/* Read an archived episode's JSON (new reference), or NULL. */
json_t	*archive_load(const char *dir, const struct archive_entry *);
/*
 * The repositories with a folder under output_dir, added to list (those
 * not there already) as "owner/name"; folders that aren't one by
 * repo_name_ok are left out.
 */
void	 archive_repos(const char *output_dir, struct strlist *list);
/*
 * Remove the episodes of dir dated before the date before ("YYYY-MM-DD"):
 * every regular file whose name up to its first '.' is an episode's base
 * name (archive_parse_name), so .md, .json and any audio or caption file
 * of the same base name. Returns how many files were removed; a file that
 * can't be removed is logged and left.
 */
size_t	 archive_prune(const char *dir, const char *before);
/* ISO 8601 UTC "2026-05-06T10:00:44Z" to a time; 0 if it isn't one. */
time_t	 archive_time(const char *);

#endif
