/*
 * Files written so a crash leaves the old contents or the new, never a
 * mix: a temporary file of an unpredictable name, created exclusively
 * without following symlinks, written, synced, renamed over the target,
 * and the directory synced. Used by the journal rewrite and by emission.
 */
#ifndef HOOKCAST_FILEIO_H
#define HOOKCAST_FILEIO_H

#include <stddef.h>
#include <sys/types.h>

/* A temporary file being written, renamed over path on commit. */
struct file_atomic {
	int	 fd;
	int	 dirfd;		/* borrowed folder, or AT_FDCWD */
	char	*path;		/* the target (relative to dirfd) */
	char	*tmp;		/* the temporary file beside it */
};

/*
 * Create a temporary file in path's directory (mode, O_EXCL|O_NOFOLLOW,
 * a random name) to be renamed over path. 0, or -1 with errno set and
 * nothing created.
 */
int	 file_atomic_open(struct file_atomic *, const char *path, mode_t mode);
/*
 * The same in the folder dirfd (borrowed; it must stay open until commit
 * or abort): name is one component, no '/' (EINVAL), so nothing on the
 * way to the file can be a planted symlink.
 */
int	 file_atomic_openat(struct file_atomic *, int dirfd, const char *name,
	    mode_t mode);
/*
 * Sync the file, rename it over the target and sync the directory. The
 * descriptor stays open unless keep_fd is 0 (it then is closed); on
 * success with keep_fd the caller owns af->fd. 0, or -1 with errno set
 * and the temporary file removed (the target unchanged).
 */
int	 file_atomic_commit(struct file_atomic *, int keep_fd);
/* Give up: close and remove the temporary file. */
void	 file_atomic_abort(struct file_atomic *);

/* Write data to path atomically (the above in one call). 0 or -1 + errno. */
int	 file_write_atomic(const char *path, const void *data, size_t len,
	    mode_t mode);
/* Write data to dirfd/name atomically (file_atomic_openat). 0 or -1. */
int	 file_write_atomicat(int dirfd, const char *name, const void *data,
	    size_t len, mode_t mode);
/* Write all of len bytes at off (pwrite, retried). 0 or -1 + errno. */
int	 file_pwrite_all(int fd, const void *data, size_t len, off_t off);
/* fsync the directory that holds path. 0 or -1 + errno. */
int	 file_sync_parent(const char *path);
/*
 * mkdir -p with mode (set on the folders it makes, whatever the umask);
 * a component that exists must be a directory. 0 or -1 + errno (ENOTDIR
 * where a file is in the way).
 */
int	 file_mkdirs(const char *path, mode_t mode);
/*
 * Open the folder base/rel for use with the *at calls. base is followed
 * as given (the operator's path); each '/'-separated component of rel is
 * opened with O_NOFOLLOW, so a symlink planted there is refused (ELOOP),
 * and, with create, made when missing with mode set whatever the umask.
 * An empty, "." or ".." component is EINVAL. A descriptor (the caller
 * closes it), or -1 + errno.
 */
int	 file_dir_open(const char *base, const char *rel, int create,
	    mode_t mode);
/*
 * The absolute, physical path that path names or would name once made:
 * every existing component resolved as the kernel would (symlinks, "."
 * and ".." after them), the missing rest appended with "." and ".."
 * applied as mkdir -p would. So "d/", "d/x/..", and a symlink to d all
 * give d's one path. New, or NULL + errno (a component unreadable).
 */
char	*file_realpath(const char *path);
/* Is path dir or under it (both as file_realpath gives them)? */
int	 file_path_within(const char *path, const char *dir);

#endif
