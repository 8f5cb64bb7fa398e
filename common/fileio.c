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

int
file_atomic_open(struct file_atomic *af, const char *path, mode_t mode)
{
	char	suffix[13];
	int	tries;

	memset(af, 0, sizeof(*af));
	af->fd = -1;
	for (tries = 0; tries < 16; tries++) {
		file_random_suffix(suffix, sizeof(suffix));
		free(af->tmp);
		xasprintf(&af->tmp, "%s.tmp-%s", path, suffix);
		af->fd = open(af->tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW |
		    O_CLOEXEC, mode);
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

void
file_atomic_abort(struct file_atomic *af)
{
	int	saved = errno;

	if (af->fd != -1)
		close(af->fd);
	if (af->tmp != NULL)
		unlink(af->tmp);
	free(af->tmp);
	free(af->path);
	memset(af, 0, sizeof(*af));
	af->fd = -1;
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
	if (rename(af->tmp, af->path) == -1)
		goto fail;
	free(af->tmp);
	af->tmp = NULL;
	if (file_sync_parent(af->path) == -1) {
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

	if (mkdir(path, mode) == 0)
		return 0;
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
