/*
 * The archive: the episodes already written under OUTPUT_DIR/OWNER/REPO/,
 * read back for the nearby list, the feed and the weekly recap. No
 * libevent: plain file work.
 */
#ifndef HOOKCAST_ARCHIVE_H
#define HOOKCAST_ARCHIVE_H

#include <limits.h>
#include <stddef.h>

#include <jansson.h>

#include "config.h"

/* The sequence number of a recap: after every daily episode of its date. */
#define ARCHIVE_RECAP	INT_MAX

struct archive_entry {
	char	*name;		/* "2026-06-01", "2026-06-01-2", "...-recap" */
	char	 date[11];	/* YYYY-MM-DD */
	int	 seq;		/* 1 for DATE, N for DATE-N, ARCHIVE_RECAP */
};

struct archive {
	struct archive_entry	*v;	/* oldest first */
	size_t			 n;
};

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
/* The "owner/name" folders under output_dir, added to list. */
void	 archive_repos(const char *output_dir, struct strlist *list);
/* ISO 8601 UTC "2026-05-06T10:00:44Z" to a time; 0 if it isn't one. */
time_t	 archive_time(const char *);

#endif
