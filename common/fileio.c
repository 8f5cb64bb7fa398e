/* Atomic file writes and directory creation. */
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"
#include "xmalloc.h"

/* A random suffix for a temporary name: not guessable ahead. */
static void
file_random_suffix(char *out, size_t len)
{
	static const char	 set[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	unsigned char		 r[16];
	size_t			 i, n = len - 1 < sizeof(r) ? len - 1 : sizeof(r);

	if (getrandom(r, n, 0) != (ssize_t)n) {
		/* no entropy source: still unique within the process */
		static unsigned	counter;
		unsigned	v = (unsigned)getpid() * 2654435761u + counter++;

		for (i = 0; i < n; i++, v = v * 1103515245u + 12345u)
			r[i] = (unsigned char)(v >> 16);
	}
	for (i = 0; i < n; i++)
		out[i] = set[r[i] % (sizeof(set) - 1)];
	out[n] = '\0';
}

/* The temporary file of path in dirfd: O_EXCL, O_NOFOLLOW, a random name. */
static int
file_atomic_create(struct file_atomic *af, int dirfd, const char *path,
    mode_t mode)
{
	char	suffix[13];
	int	tries;

	memset(af, 0, sizeof(*af));
	af->fd = -1;
	af->dirfd = dirfd;
	for (tries = 0; tries < 16; tries++) {
		file_random_suffix(suffix, sizeof(suffix));
		free(af->tmp);
		xasprintf(&af->tmp, "%s.tmp-%s", path, suffix);
		af->fd = openat(dirfd, af->tmp, O_RDWR | O_CREAT | O_EXCL |
		    O_NOFOLLOW | O_CLOEXEC, mode);
		if (af->fd != -1 || errno != EEXIST)
			break;
	}
	if (af->fd == -1) {
		int saved = errno;

		free(af->tmp);
		af->tmp = NULL;
		errno = saved;
		return -1;
	}
	/* the umask must not loosen or tighten what was asked */
	(void)fchmod(af->fd, mode);
	af->path = xstrdup(path);
	return 0;
}

int
file_atomic_open(struct file_atomic *af, const char *path, mode_t mode)
{
	return file_atomic_create(af, AT_FDCWD, path, mode);
}

int
file_atomic_openat(struct file_atomic *af, int dirfd, const char *name,
    mode_t mode)
{
	if (strchr(name, '/') != NULL) {
		memset(af, 0, sizeof(*af));
		af->fd = -1;
		af->dirfd = AT_FDCWD;
		errno = EINVAL;
		return -1;
	}
	return file_atomic_create(af, dirfd, name, mode);
}

void
file_atomic_abort(struct file_atomic *af)
{
	int	saved = errno;

	if (af->fd != -1)
		close(af->fd);
	if (af->tmp != NULL)
		unlinkat(af->dirfd, af->tmp, 0);
	free(af->tmp);
	free(af->path);
	memset(af, 0, sizeof(*af));
	af->fd = -1;
	af->dirfd = AT_FDCWD;
	errno = saved;
}

int
file_atomic_commit(struct file_atomic *af, int keep_fd)
{
	if (fsync(af->fd) == -1)
		goto fail;
	if (!keep_fd) {
		if (close(af->fd) == -1) {
			af->fd = -1;
			goto fail;
		}
		af->fd = -1;
	}
	if (renameat(af->dirfd, af->tmp, af->dirfd, af->path) == -1)
		goto fail;
	free(af->tmp);
	af->tmp = NULL;
	if ((af->dirfd == AT_FDCWD ? file_sync_parent(af->path) :
	    fsync(af->dirfd)) == -1) {
		/* renamed already: the new contents stand, unsynced */
		int saved = errno;

		free(af->path);
		af->path = NULL;
		errno = saved;
		return -1;
	}
	free(af->path);
	af->path = NULL;
	return 0;
fail:
	file_atomic_abort(af);
	return -1;
}

int
file_pwrite_all(int fd, const void *data, size_t len, off_t off)
{
	const char	*p = data;
	ssize_t		 n;

	while (len > 0) {
		n = pwrite(fd, p, len, off);
		if (n == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0) {
			errno = EIO;
			return -1;
		}
		p += n;
		len -= (size_t)n;
		off += n;
	}
	return 0;
}

int
file_write_atomic(const char *path, const void *data, size_t len,
    mode_t mode)
{
	struct file_atomic	af;

	if (file_atomic_open(&af, path, mode) == -1)
		return -1;
	if (file_pwrite_all(af.fd, data, len, 0) == -1) {
		file_atomic_abort(&af);
		return -1;
	}
	return file_atomic_commit(&af, 0);
}

int
file_write_atomicat(int dirfd, const char *name, const void *data,
    size_t len, mode_t mode)
{
	struct file_atomic	af;

	if (file_atomic_openat(&af, dirfd, name, mode) == -1)
		return -1;
	if (file_pwrite_all(af.fd, data, len, 0) == -1) {
		file_atomic_abort(&af);
		return -1;
	}
	return file_atomic_commit(&af, 0);
}

int
file_sync_parent(const char *path)
{
	char	*dir = xstrdup(path), *slash;
	int	 fd, rc, saved;

	if ((slash = strrchr(dir, '/')) == NULL)
		strcpy(dir, ".");
	else if (slash == dir)
		slash[1] = '\0';
	else
		*slash = '\0';
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	if (fd == -1)
		return -1;
	rc = fsync(fd);
	saved = errno;
	close(fd);
	errno = saved;
	return rc;
}

/* mkdir one component; an existing one must be a directory. */
static int
file_mkdir_one(const char *path, mode_t mode)
{
	struct stat	st;
	int		fd;

	if (mkdir(path, mode) == 0) {
		/* made here: its mode is ours to set, whatever the umask */
		fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd != -1) {
			(void)fchmod(fd, mode);
			close(fd);
		}
		return 0;
	}
	if (errno != EEXIST)
		return -1;
	if (stat(path, &st) == -1)
		return -1;
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		return -1;
	}
	return 0;
}

int
file_mkdirs(const char *path, mode_t mode)
{
	char	*p, *s;
	int	 saved;

	if (*path == '\0') {
		errno = ENOENT;
		return -1;
	}
	p = xstrdup(path);

	for (s = p + 1; *s != '\0'; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (file_mkdir_one(p, mode) == -1)
			goto fail;
		*s = '/';
	}
	if (file_mkdir_one(p, mode) == -1)
		goto fail;
	free(p);
	return 0;
fail:
	saved = errno;
	free(p);
	errno = saved;
	return -1;
}

/* Open (making it with create) the folder name in dirfd, never a symlink. */
static int
file_dir_step(int dirfd, const char *name, int create, mode_t mode)
{
	int	fd, made = 0;

	if (*name == '\0' || strcmp(name, ".") == 0 ||
	    strcmp(name, "..") == 0) {
		errno = EINVAL;
		return -1;
	}
	if (create) {
		if (mkdirat(dirfd, name, mode) == 0)
			made = 1;
		else if (errno != EEXIST)
			return -1;
	}
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	if (fd == -1) {
		/* a symlink to a folder: O_NOFOLLOW refuses it with ELOOP */
		if (errno == ENOTDIR) {
			struct stat st;

			if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			    S_ISLNK(st.st_mode))
				errno = ELOOP;
			else
				errno = ENOTDIR;
		}
		return -1;
	}
	if (made)
		(void)fchmod(fd, mode);
	return fd;
}

int
file_dir_open(const char *base, const char *rel, int create, mode_t mode)
{
	char	*copy, *name, *next;
	int	 fd, sub, saved;

	if ((fd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		return -1;
	copy = xstrdup(rel);
	for (name = copy; name != NULL; name = next) {
		if ((next = strchr(name, '/')) != NULL)
			*next++ = '\0';
		sub = file_dir_step(fd, name, create, mode);
		saved = errno;
		close(fd);
		if (sub == -1) {
			free(copy);
			errno = saved;
			return -1;
		}
		fd = sub;
	}
	free(copy);
	return fd;
}

/*
 * Resolve one step: cur (resolved, new) followed by the component name.
 * An existing entry is resolved through its symlinks; a missing one (or
 * one under a file) is appended as it is, since nothing there can be a
 * link yet. The new cur, or NULL + errno.
 */
static char *
file_resolve_step(char *cur, const char *name, size_t len)
{
	char	*next, *real, *slash;
	int	 saved;

	if (len == 0 || (len == 1 && name[0] == '.'))
		return cur;
	if (len == 2 && name[0] == '.' && name[1] == '.') {
		/* cur is resolved: its parent is the physical one */
		if ((slash = strrchr(cur, '/')) != NULL)
			slash[slash == cur ? 1 : 0] = '\0';
		return cur;
	}
	xasprintf(&next, "%s%s%.*s", cur, strcmp(cur, "/") == 0 ? "" : "/",
	    (int)len, name);
	free(cur);
	if ((real = realpath(next, NULL)) != NULL) {
		free(next);
		return real;
	}
	if (errno == ENOENT || errno == ENOTDIR)
		return next;
	saved = errno;
	free(next);
	errno = saved;
	return NULL;
}

char *
file_realpath(const char *path)
{
	const char	*p, *end;
	char		*cur, *cwd;

	if (*path == '\0') {
		errno = ENOENT;
		return NULL;
	}
	if (*path == '/')
		cur = xstrdup("/");
	else if ((cwd = getcwd(NULL, 0)) == NULL)
		return NULL;
	else {
		cur = xstrdup(cwd);
		free(cwd);
	}
	for (p = path; *p != '\0'; p = *end == '/' ? end + 1 : end) {
		end = p + strcspn(p, "/");
		if ((cur = file_resolve_step(cur, p, (size_t)(end - p))) ==
		    NULL)
			return NULL;
	}
	return cur;
}

int
file_path_within(const char *path, const char *dir)
{
	size_t	n = strlen(dir);

	if (strcmp(dir, "/") == 0)
		return 1;
	return strncmp(path, dir, n) == 0 && (path[n] == '\0' ||
	    path[n] == '/');
}
