/*
 * Emission: draft a day's episode and write its files atomically under
 * OUTPUT_DIR/OWNER/REPO/. No libevent: plain file work.
 */
#ifndef HOOKCAST_EMIT_H
#define HOOKCAST_EMIT_H

#include <time.h>

#include "config.h"
#include "day.h"

struct emit_result {
	char	*repo;
	char	*date;		/* YYYY-MM-DD, the local date of the window */
	char	*title;
	char	*md_path;	/* NULL for a preview */
	char	*json_path;
	char	*md_text;
	char	*json_text;
};

/*
 * Draft the episode of day (reverts paired first) as of now. With write,
 * the .md and .json are written (temporary file, fsync, rename, fsync of
 * the directory); a second episode for the same date gets "-2", "-3"...
 * Returns 0, or -1 with *cause (new).
 */
int	 emit_day(const struct config *, struct day *, time_t now, int write,
	    struct emit_result *, char **cause);
void	 emit_result_clear(struct emit_result *);
/* Write a file atomically; 0 or -1 with errno set. */
int	 emit_write_atomic(const char *path, const char *data, size_t len);
/* mkdir -p with mode 0755; 0 or -1 with errno set. */
int	 emit_mkdirs(const char *path);
/* Is "owner/name" safe as two path components? */
int	 emit_repo_name_ok(const char *repo);

#endif
