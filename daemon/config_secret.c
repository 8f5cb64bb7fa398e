/*
 * The configuration's credentials: webhook secrets, the GitHub token and
 * the model's keys, each read from a file opened only once it is found
 * private (config_open_private), and kept out of every log.
 */
#include <endian.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <fcntl.h>
#include <unistd.h>

#include "childenv.h"
#include "config.h"
#include "config_int.h"
#include "log.h"
#include "xmalloc.h"

/*
 * For --check-config outside the service: the file named name in the
 * config file's folder, when there is one. The unit loads its credentials
 * from there (LoadCredential=webhook-secret:/etc/hookcast/webhook-secret
 * beside /etc/hookcast/hookcast.conf), so that is where the service would
 * find them. New, or NULL.
 */
char *
config_beside(const struct config *conf, const char *name)
{
	const char	*slash;
	char		*path;

	if (conf->file == NULL)
		return NULL;
	if ((slash = strrchr(conf->file, '/')) == NULL)
		xasprintf(&path, "%s", name);
	else
		xasprintf(&path, "%.*s/%s", (int)(slash - conf->file),
		    conf->file, name);
	if (access(path, F_OK) == 0)
		return path;
	free(path);
	return NULL;
}

/*
 * With a POSIX access ACL a file's group bits are the ACL's mask, the
 * most any named user or group may do, not what its group may do.
 * systemd hands a credential to the service's user (DynamicUser= among
 * them) as a root-owned file of mode 0400 with the ACL entry
 * "user:UID:r", which shows as mode 0440. Such a file is private still:
 * 1 when an ACL lets no one read it but its owner and this user, else 0
 * (no ACL, or another reader).
 */
static int
config_acl_private(int fd)
{
	unsigned char	 acl[1024];
	uint32_t	 version, id;
	uint16_t	 tag, perm;
	ssize_t		 n, i;

	if ((n = fgetxattr(fd, "system.posix_acl_access", acl,
	    sizeof(acl))) < 4 || (n - 4) % 8 != 0)
		return 0;
	memcpy(&version, acl, 4);
	if (le32toh(version) != 2)
		return 0;
	for (i = 4; i < n; i += 8) {
		memcpy(&tag, acl + i, 2);
		memcpy(&perm, acl + i + 2, 2);
		memcpy(&id, acl + i + 4, 4);
		if ((le16toh(perm) & 04) == 0)
			continue;
		switch (le16toh(tag)) {
		case 0x01:		/* ACL_USER_OBJ: the owner */
		case 0x10:		/* ACL_MASK */
			break;
		case 0x02:		/* ACL_USER */
			if (le32toh(id) != (uint32_t)geteuid())
				return 0;
			break;
		default:		/* the group, a group, others */
			return 0;
		}
	}
	return 1;
}

/*
 * Open a file holding a credential (secret, token, private key) and
 * check what was opened (fstat of the descriptor, so the file can't be
 * swapped between the check and the read): a regular file of at most
 * 64 KiB, owned by this user or root, that no one else can write or
 * read. Whoever can write it can choose the secret and forge
 * deliveries; whoever can read it can sign them, or spend the token.
 * Every credential key is read through here, and its path kept in
 * conf->credential_files (config_check_dirs). A stream, or NULL with a
 * cause naming the key, the file and why.
 */
FILE *
config_open_private(struct config *conf, const char *key, const char *path,
    struct config_causes *causes)
{
	struct stat	st;
	FILE		*f;
	int		 fd;

	/* kept, so none is where output_dir would serve it */
	strlist_add(&conf->credential_files, path);
	/* O_NONBLOCK: a FIFO planted there can't hold the start */
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY |
	    O_NONBLOCK)) == -1) {
		config_causes_add(causes, "%s: %s: %s", key, path,
		    strerror(errno));
		return NULL;
	}
	if ((f = fdopen(fd, "r")) == NULL) {
		config_causes_add(causes, "%s: %s: %s", key, path,
		    strerror(errno));
		close(fd);
		return NULL;
	}
	if (fstat(fd, &st) == -1) {
		config_causes_add(causes, "%s: %s: %s", key, path,
		    strerror(errno));
		goto bad;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > CONFIG_PRIVATE_MAX) {
		config_causes_add(causes, "%s: %s: not a regular file of at "
		    "most 64 KiB", key, path);
		goto bad;
	}
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
		config_causes_add(causes, "%s: %s: writable by %s (mode %04o); "
		    "whoever can write it can forge deliveries: chmod go-w it",
		    key, path, (st.st_mode & S_IWOTH) ? "everyone" : "its group",
		    (unsigned)(st.st_mode & 07777));
		goto bad;
	}
	if ((st.st_mode & S_IROTH) != 0 || ((st.st_mode & S_IRGRP) != 0 &&
	    !config_acl_private(fd))) {
		config_causes_add(causes, "%s: %s: readable by %s (mode %04o); "
		    "only this user may read it: chmod 600 it", key, path,
		    (st.st_mode & S_IROTH) ? "everyone" : "its group",
		    (unsigned)(st.st_mode & 07777));
		goto bad;
	}
	if (st.st_uid != geteuid() && st.st_uid != 0) {
		config_causes_add(causes, "%s: %s: owned by uid %lu, neither "
		    "this user (uid %lu) nor root", key, path,
		    (unsigned long)st.st_uid, (unsigned long)geteuid());
		goto bad;
	}
	return f;
bad:
	fclose(f);
	return NULL;
}

/* A blank line, or a comment ('#' first), in a secret or token file. */
static int
config_line_skipped(const char *line, size_t n)
{
	size_t	i;

	if (n > 0 && line[0] == '#')
		return 1;
	for (i = 0; i < n; i++)
		if (line[i] != ' ' && line[i] != '\t')
			return 0;
	return 1;
}

/* Add a secret of len bytes (copied), or a cause when it is too short. */
static void
config_add_secret(struct config *conf, const char *what, const char *s,
    size_t len, struct config_causes *causes)
{
	if (len < CONFIG_SECRET_MIN) {
		config_causes_add(causes, "%s: a secret of %zu byte%s; at least "
		    "%d are required (use a random one, e.g. openssl rand "
		    "-hex 32)", what, len, len == 1 ? "" : "s",
		    CONFIG_SECRET_MIN);
		return;
	}
	conf->secrets = xreallocarray(conf->secrets, conf->nsecrets + 1,
	    sizeof(*conf->secrets));
	conf->secretlens = xreallocarray(conf->secretlens, conf->nsecrets + 1,
	    sizeof(*conf->secretlens));
	conf->secrets[conf->nsecrets] = xstrndup(s, len);
	conf->secretlens[conf->nsecrets++] = len;
}

/*
 * Read one secret file: each line is a secret, except blank lines and
 * lines starting with '#'.
 */
static void
config_read_secret(struct config *conf, const char *path,
    struct config_causes *causes)
{
	FILE		*f;
	char		*line = NULL, *what;
	size_t		 cap = 0;
	ssize_t		 n;
	int		 found = 0, lineno = 0;

	if ((f = config_open_private(conf, "secret_file", path,
	    causes)) == NULL)
		return;
	while ((n = getline(&line, &cap, f)) != -1) {
		lineno++;
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		if (config_line_skipped(line, (size_t)n))
			continue;
		xasprintf(&what, "secret_file: %s:%d", path, lineno);
		config_add_secret(conf, what, line, (size_t)n, causes);
		free(what);
		found = 1;
	}
	if (line != NULL)
		explicit_bzero(line, cap);
	free(line);
	fclose(f);
	if (!found)
		config_causes_add(causes, "secret_file: %s: no secret in it",
		    path);
}

/*
 * The GitHub token: the file's first line that is not blank or '#'. A
 * credential may hold none (the unit's fallback when there is no token
 * file): no token then.
 */
void
config_read_token(struct config *conf, const char *key, const char *path,
    int optional, struct config_causes *causes)
{
	FILE	*f;
	char	*line = NULL;
	size_t	 cap = 0;
	ssize_t	 n;

	if ((f = config_open_private(conf, key, path, causes)) == NULL)
		return;
	while ((n = getline(&line, &cap, f)) != -1) {
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r' ||
		    line[n - 1] == ' '))
			line[--n] = '\0';
		if (!config_line_skipped(line, (size_t)n))
			break;
	}
	fclose(f);
	if (n == -1 && optional)
		;
	else if (n <= 0 || n > 4096 || strpbrk(line, "\r\n \t") != NULL)
		config_causes_add(causes, "%s: %s: no token on its first line",
		    key, path);
	else
		conf->github_token = xstrdup(line);
	if (line != NULL)
		explicit_bzero(line, cap);
	free(line);
}

/*
 * The webhook secrets: from secret_file, else the unit's credential (or,
 * for --check-config, the file beside the config file), else
 * $HOOKCAST_SECRET; none is an error unless insecure_no_signature.
 */
void
config_webhook_secrets(struct config *conf, int flags,
    struct config_causes *causes)
{
	const char	*env;
	char		*path, *where;
	size_t		 i, secret_causes;

	/* a secret refused says why; "no webhook secret" would only add noise */
	secret_causes = causes->n;
	free(conf->secret_from);
	conf->secret_from = NULL;
	for (i = 0; i < conf->secret_files.n; i++)
		config_read_secret(conf, conf->secret_files.v[i], causes);
	if (conf->secret_files.n > 0) {
		where = config_where(conf, "secret_file");
		xasprintf(&conf->secret_from, "file %s%s (%s)",
		    conf->secret_files.v[0], conf->secret_files.n > 1 ?
		    " and more" : "", where);
		free(where);
	}
	if (conf->secret_files.n == 0) {
		env = getenv("CREDENTIALS_DIRECTORY");
		if (env != NULL && *env != '\0') {
			xasprintf(&path, "%s/webhook-secret", env);
			if (access(path, F_OK) == 0) {
				config_read_secret(conf, path, causes);
				xasprintf(&conf->secret_from, "credential %s",
				    path);
			}
			free(path);
		} else if ((flags & CONFIG_CHECK) &&
		    (path = config_beside(conf, "webhook-secret")) != NULL) {
			config_read_secret(conf, path, causes);
			xasprintf(&conf->secret_from, "credential %s (beside "
			    "the configuration file, as the unit loads it)",
			    path);
			free(path);
		}
	}
	if (conf->nsecrets == 0 && (env = childenv_secret()) != NULL &&
	    *env != '\0') {
		config_add_secret(conf, "$HOOKCAST_SECRET", env, strlen(env),
		    causes);
		free(conf->secret_from);
		conf->secret_from = xstrdup("environment $HOOKCAST_SECRET");
	}
	if (conf->nsecrets == 0 && !conf->insecure_no_signature &&
	    causes->n == secret_causes)
		config_causes_add(causes, "secret_file: no webhook secret (give "
		    "--secret-file, $CREDENTIALS_DIRECTORY/webhook-secret or "
		    "$HOOKCAST_SECRET; or --insecure-no-signature for testing)");
}

/*
 * The model's bearer tokens, global, per repository and per show: read
 * as the GitHub token is (config_read_token fills github_token:
 * borrowed). Which server gets which key is config_llm's and
 * config_show_llm's.
 */
void
config_llm_keys(struct config *conf, struct config_causes *causes)
{
	struct repo_conf	*r;
	struct config		*own;
	char			*save = conf->github_token, *where;
	size_t			 i;

	where = config_where(conf, "llm_key_file");
	if (conf->llm_key_file != NULL && conf->llm_url == NULL)
		log_warnx("%s: no llm_url beside it, so the key is sent to "
		    "no server (a [repo] section's llm_url gets only that "
		    "section's llm_key_file)", where);
	else if (conf->llm_key_file != NULL)
		config_llm_warn_plain(where, conf->llm_url);
	free(where);
	for (i = 0; i < conf->nrepos; i++) {
		r = &conf->repos[i];
		if (r->llm_key_file != NULL && (r->llm_url != NULL ||
		    conf->llm_url != NULL))
			config_llm_warn_plain(r->llm_key_where,
			    r->llm_url != NULL ? r->llm_url : conf->llm_url);
	}

	conf->github_token = NULL;
	if (conf->llm_key_file != NULL) {
		config_read_token(conf, "llm_key_file", conf->llm_key_file, 0,
		    causes);
		conf->llm_key = conf->github_token;
		conf->github_token = NULL;
	}
	for (i = 0; i < conf->nrepos; i++) {
		r = &conf->repos[i];
		if (r->llm_key_file == NULL)
			continue;
		config_read_token(conf, r->llm_key_where, r->llm_key_file, 0,
		    causes);
		r->llm_key = conf->github_token;
		conf->github_token = NULL;
	}
	for (i = 0; i < conf->nshows; i++) {
		own = conf->shows[i].own;
		if (own->llm_key_file == NULL)
			continue;
		xasprintf(&where, "%s: llm_key_file",
		    config_show_origin(&conf->shows[i], "llm_key_file"));
		if (own->llm_url != NULL || conf->llm_url != NULL)
			config_llm_warn_plain(where, own->llm_url != NULL ?
			    own->llm_url : conf->llm_url);
		config_read_token(conf, where, own->llm_key_file, 0, causes);
		own->llm_key = conf->github_token;
		conf->github_token = NULL;
		free(where);
	}
	conf->github_token = save;
}

/*
 * The name of a credential a value names: "%d/NAME" (the unit's
 * specifier for its credentials directory, as a unit file would write
 * it) or "credential:NAME". NULL when it names a plain path.
 */
static const char *
config_credential_name(const char *value)
{
	if (strncmp(value, "%d/", 3) == 0)
		return value + 3;
	if (strncmp(value, "credential:", 11) == 0)
		return value + 11;
	return NULL;
}

/*
 * --check-config --as-unit: the service runs as a user of its own
 * (DynamicUser=), made at its start, so it is neither root nor any
 * file's owner: a private file named by its path is one it can't open.
 */
static void
config_credential_as_unit(const char *where, const char *path,
    struct config_causes *causes)
{
	struct stat	 st;
	const char	*base = strrchr(path, '/');

	if (stat(path, &st) == -1 || (st.st_mode & S_IROTH) != 0)
		return;		/* the read says what is wrong */
	base = base != NULL ? base + 1 : path;
	config_causes_add(causes, "%s: %s: readable by uid %lu alone (mode "
	    "%04o), and the service's own user (DynamicUser=) is another: "
	    "name it credential:%s, with LoadCredential=%s:%s in a drop-in "
	    "(see hookcastd(8), SYSTEMD)", where, path,
	    (unsigned long)st.st_uid, (unsigned)(st.st_mode & 07777), base,
	    base, path);
}

/*
 * Resolve *path in place when it names a credential: the file of that
 * name in $CREDENTIALS_DIRECTORY, which systemd sets for a unit with
 * LoadCredential=; for --check-config and hookcast-draft outside the
 * service, the file beside the config file (where the unit's
 * LoadCredential= lines load from). where is the key ("llm_key_file",
 * placed later) or "file:line: key".
 */
static void
config_credential(struct config *conf, const char *where, char **path,
    int flags, struct config_causes *causes)
{
	const char	*name, *env = getenv("CREDENTIALS_DIRECTORY");
	char		*full = NULL;

	if (*path == NULL)
		return;
	if ((name = config_credential_name(*path)) == NULL) {
		if (flags & CONFIG_AS_UNIT)
			config_credential_as_unit(where, *path, causes);
		return;
	}
	if (*name == '\0' || strchr(name, '/') != NULL ||
	    strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
		config_causes_add(causes, "%s: '%s': a credential's name is a "
		    "file name, as LoadCredential=NAME:PATH's NAME", where,
		    *path);
		return;
	}
	if (env != NULL && *env != '\0') {
		xasprintf(&full, "%s/%s", env, name);
		if (access(full, F_OK) == -1) {
			config_causes_add(causes, "%s: credential %s is not in "
			    "$CREDENTIALS_DIRECTORY (%s): the unit needs "
			    "LoadCredential=%s:PATH, and a restart (systemd "
			    "gives credentials at the start, not at a reload)",
			    where, name, env, name);
			free(full);
			return;
		}
	} else if ((flags & (CONFIG_CHECK | CONFIG_NO_SECRETS)) &&
	    (full = config_beside(conf, name)) != NULL)
		;
	else {
		config_causes_add(causes, "%s: '%s' names a systemd credential, "
		    "but $CREDENTIALS_DIRECTORY is not set (the service gets "
		    "it with LoadCredential=%s:PATH; elsewhere, name the file "
		    "by its path)", where, *path, name);
		return;
	}
	strlist_add(&conf->credential_names, name);
	free(*path);
	*path = full;
}

void
config_credentials(struct config *conf, int flags,
    struct config_causes *causes)
{
	struct sink_conf	*s;
	char			*where;
	size_t			 i;

	for (i = 0; i < conf->nrepos; i++)
		config_credential(conf, conf->repos[i].llm_key_where,
		    &conf->repos[i].llm_key_file, flags, causes);
	for (i = 0; i < conf->nshows; i++) {
		if (conf->shows[i].own->llm_key_file == NULL)
			continue;
		xasprintf(&where, "%s: llm_key_file",
		    config_show_origin(&conf->shows[i], "llm_key_file"));
		config_credential(conf, where,
		    &conf->shows[i].own->llm_key_file, flags, causes);
		free(where);
	}
	config_credential(conf, "llm_key_file", &conf->llm_key_file, flags,
	    causes);
	/* hookcast-draft reads only the model's keys */
	if (flags & CONFIG_NO_SECRETS)
		return;
	for (i = 0; i < conf->secret_files.n; i++)
		config_credential(conf, "secret_file",
		    &conf->secret_files.v[i], flags, causes);
	config_credential(conf, "github_token_file", &conf->github_token_file,
	    flags, causes);
	config_credential(conf, "tls_cert", &conf->tls_cert, flags, causes);
	config_credential(conf, "tls_key", &conf->tls_key, flags, causes);
	for (i = 0; i < conf->nsinks; i++) {
		s = &conf->sinks[i];
		config_credential(conf, s->secret_where != NULL ?
		    s->secret_where : "secret_file", &s->secret_file, flags,
		    causes);
		config_credential(conf, s->token_where != NULL ?
		    s->token_where : "token_file", &s->token_file, flags,
		    causes);
	}
}
