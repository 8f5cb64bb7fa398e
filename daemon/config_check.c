/*
 * The configuration once every key is read (config_finish): defaults
 * that follow the environment, the checks of one key against others, of
 * the sinks, of output_dir against what must not be served, and of the
 * credentials read (config_secret.c); and the causes found then, placed
 * where their key was set and sorted as the file reads.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <arpa/inet.h>
#include <unistd.h>

#include "backfill.h"
#include "config.h"
#include "config_int.h"
#include "redisj.h"
#include "fileio.h"
#include "hostport.h"
#include "log.h"
#include "schedule.h"
#include "sink.h"
#include "sizefmt.h"
#include "voice.h"
#include "xmalloc.h"

static int	config_host_loopback(const char *);

/*
 * journal: "file", or redis://HOST:PORT/DB with its password read from
 * redis_password_file. A show on a schedule of its own keeps copies in
 * the file journal only, so the two don't go together yet.
 */
static void
config_journal(struct config *conf, int flags, struct config_causes *causes)
{
	struct redisj_conf	 rc;
	const char		*why;
	char			*save;
	size_t			 i;

	free(conf->redis_host);
	conf->redis_host = NULL;
	if (strcmp(conf->journal, "file") == 0) {
		if (conf->redis_password_file != NULL)
			config_causes_add(causes, "redis_password_file: set, "
			    "but the journal is the file (journal = file)");
		return;
	}
	memset(&rc, 0, sizeof(rc));
	if (redisj_parse_url(conf->journal, &rc, &why) == -1) {
		config_causes_add(causes, "journal: '%s' is neither file nor "
		    "redis://HOST:PORT/DB: %s", conf->journal, why);
		free(rc.host);
		return;
	}
	conf->redis_host = rc.host;
	conf->redis_port = rc.port;
	conf->redis_db = rc.db;
	if (strchr(conf->redis_prefix, ' ') != NULL ||
	    conf->redis_prefix[0] == '\0')
		config_causes_add(causes, "redis_prefix: '%s' is empty or has "
		    "a space", conf->redis_prefix);
	for (i = 0; i < conf->nshows; i++)
		if (config_show_scheduled(&conf->shows[i]))
			config_causes_add(causes, "journal: the show '%s' has a "
			    "schedule of its own (emit_at, timezone or "
			    "quiet_days), which needs journal = file",
			    conf->shows[i].name);
	if (conf->redis_password_file != NULL &&
	    !(flags & CONFIG_NO_SECRETS)) {
		/* config_read_token fills github_token: borrow it */
		save = conf->github_token;
		conf->github_token = NULL;
		config_read_token(conf, "redis_password_file",
		    conf->redis_password_file, 0, causes);
		conf->redis_password = conf->github_token;
		conf->github_token = save;
	}
}

/* Is s plausibly an address: local@domain, printable, no space? */
int
config_email_ok(const char *s)
{
	const char	*at = strchr(s, '@');
	const unsigned char *p;

	if (at == NULL || at == s || at[1] == '\0' || strchr(at + 1, '@'))
		return 0;
	for (p = (const unsigned char *)s; *p != '\0'; p++)
		if (*p <= 0x20 || *p == 0x7f || *p == '<' || *p == '>')
			return 0;
	return 1;
}

/*
 * Errors found once everything is read ("timezone: ...") get where
 * their key was set: "file:line: timezone: ..." or "--flag: ...".
 */
void
config_place_causes(const struct config *conf, struct config_causes *causes,
    size_t from)
{
	size_t		 i, k, n;
	const char	*origin;
	char		*s;

	for (i = from; i < causes->n; i++) {
		for (k = 0; k < config_nkeys; k++) {
			n = strlen(config_keys[k].name);
			if (strncmp(causes->v[i], config_keys[k].name, n) == 0 &&
			    causes->v[i][n] == ':')
				break;
		}
		if (k == config_nkeys || (origin = conf->origins[k]) == NULL)
			continue;
		if (origin[0] == '-')
			xasprintf(&s, "%s (%.*s)%s", origin, (int)n,
			    causes->v[i], causes->v[i] + n);
		else
			xasprintf(&s, "%s: %s", origin, causes->v[i]);
		free(causes->v[i]);
		causes->v[i] = s;
	}
}

/* A cause's line in file ("FILE:LINE: ..."), or 0 when it names none. */
static long
config_cause_line(const char *cause, const char *file)
{
	size_t	n;
	char	*end;
	long	 line;

	if (file == NULL)
		return 0;
	n = strlen(file);
	if (strncmp(cause, file, n) != 0 || cause[n] != ':')
		return 0;
	line = strtol(cause + n + 1, &end, 10);
	return end != cause + n + 1 && *end == ':' && line > 0 ? line : 0;
}

/*
 * The causes from from on in the order a reader of the file meets them:
 * those naming a line of it by line (a key's value is checked when the
 * file is read or only at the end, and the two came out interleaved),
 * then the others as they came. A stable insertion sort: a handful.
 */
void
config_sort_causes(const struct config *conf, struct config_causes *causes,
    size_t from)
{
	size_t	 i, j;
	long	 li, lj;
	char	*s;

	for (i = from + 1; i < causes->n; i++) {
		s = causes->v[i];
		li = config_cause_line(s, conf->file);
		for (j = i; j > from; j--) {
			lj = config_cause_line(causes->v[j - 1], conf->file);
			/* no line: after every one that has one */
			if (li == 0 || (lj != 0 && lj <= li))
				break;
			causes->v[j] = causes->v[j - 1];
		}
		causes->v[j] = s;
	}
}

/* Where an http(s) URL sends what it is given. */
struct config_origin {
	int	https;
	char	host[256];	/* lower case, without brackets */
	long	port;		/* 80 or 443 when the URL gives none */
};

/*
 * The origin (scheme, host, port) of an http:// or https:// URL, read as
 * libcurl reads it: the authority runs to the first '/', '?' or '#',
 * user info to its last '@' is no part of the host. 0, or -1 when there
 * is no host or the port is not a number up to 65535 (such a URL has
 * no origin, and so is given no key).
 */
static int
config_url_origin(const char *url, struct config_origin *o)
{
	const char	*p, *end, *host, *hostend, *port = NULL;
	size_t		 i, n;

	if (strncasecmp(url, "https://", 8) == 0) {
		o->https = 1;
		p = url + 8;
	} else if (strncasecmp(url, "http://", 7) == 0) {
		o->https = 0;
		p = url + 7;
	} else
		return -1;
	end = p + strcspn(p, "/?#");
	for (host = end; host > p && host[-1] != '@'; host--)
		;
	if (*host == '[') {
		if ((hostend = memchr(host, ']', (size_t)(end - host))) ==
		    NULL)
			return -1;
		host++;
		if (hostend + 1 < end) {
			if (hostend[1] != ':')
				return -1;
			port = hostend + 2;
		}
	} else if ((hostend = memchr(host, ':', (size_t)(end - host))) !=
	    NULL)
		port = hostend + 1;
	else
		hostend = end;
	n = (size_t)(hostend - host);
	if (n == 0 || n >= sizeof(o->host))
		return -1;
	for (i = 0; i < n; i++)
		o->host[i] = (char)tolower((unsigned char)host[i]);
	o->host[n] = '\0';
	o->port = o->https ? 443 : 80;
	if (port != NULL && port < end) {
		if ((size_t)(end - port) > 5 ||
		    strspn(port, "0123456789") < (size_t)(end - port))
			return -1;
		o->port = strtol(port, NULL, 10);
		if (o->port > 65535)
			return -1;
	}
	return 0;
}

/* Do two URLs have one origin (both readable, the same)? */
int
config_same_origin(const char *a, const char *b)
{
	struct config_origin	oa, ob;

	if (config_url_origin(a, &oa) == -1 || config_url_origin(b, &ob) == -1)
		return 0;
	return oa.https == ob.https && strcmp(oa.host, ob.host) == 0 &&
	    oa.port == ob.port;
}

/*
 * Warn when a model key would go to url over plain http to a host that
 * is not this machine: anyone on the way can read it. where names the
 * key ("file:line: llm_key_file").
 */
void
config_llm_warn_plain(const char *where, const char *url)
{
	struct config_origin	o;

	if (config_url_origin(url, &o) == 0 && !o.https &&
	    !config_host_loopback(o.host))
		log_warnx("%s: the model's key is sent to %s over plain http; "
		    "anyone on the way can read it (use https)", where, url);
}

/* "file:line: key" or "--flag (key)", where key was set; new. */
char *
config_where(const struct config *conf, const char *key)
{
	const char	*origin = NULL;
	char		*s;
	size_t		 k;

	for (k = 0; k < config_nkeys; k++)
		if (strcmp(config_keys[k].name, key) == 0)
			origin = conf->origins[k];
	if (origin == NULL)
		s = xstrdup(key);
	else if (origin[0] == '-')
		xasprintf(&s, "%s (%s)", origin, key);
	else
		xasprintf(&s, "%s: %s", origin, key);
	return s;
}

/* What a sink needs once its section is read: its type's keys, its files. */
static void
config_sink_finish(struct config *conf, struct sink_conf *s,
    struct config_causes *causes)
{
	const char	*w = s->where;
	FILE		*f;
	char		*key, *save;
	size_t		 i, n;
	char		 buf[CONFIG_PRIVATE_MAX];

	for (i = 0; i < s->repositories.n; i++)
		if (strchr(s->repositories.v[i], '/') == NULL)
			config_causes_add(causes, "%s: repositories: '%s' in "
			    "[sink \"%s\"] is not owner/name or owner/*", w,
			    s->repositories.v[i], s->name);
	for (i = 0; i < s->shows.n; i++)
		if (config_show_find(conf, s->shows.v[i]) == NULL)
			config_causes_add(causes, "%s: shows: [sink \"%s\"] names "
			    "'%s', no [show] of the configuration", w, s->name,
			    s->shows.v[i]);
	if (s->type == -1) {
		config_causes_add(causes, "%s: type: [sink \"%s\"] has no type "
		    "(%s)", w, s->name, sink_kind_names());
		return;
	}
	if (s->type == SINK_EXEC) {
		if (s->command.n == 0)
			config_causes_add(causes, "%s: command: missing in [sink "
			    "\"%s\"] (an exec sink)", w, s->name);
		else if (strchr(s->command.v[0], '/') != NULL &&
		    access(s->command.v[0], X_OK) == -1)
			config_causes_add(causes, "%s: command: %s: %s", w,
			    s->command.v[0], strerror(errno));
		if (s->url != NULL || s->secret_file != NULL ||
		    s->token_file != NULL)
			config_causes_add(causes, "%s: [sink \"%s\"]: url, "
			    "secret_file and token_file are for http and slack "
			    "sinks", w, s->name);
		return;
	}
	if (s->command.n > 0)
		config_causes_add(causes, "%s: command: only an exec sink runs "
		    "a command ([sink \"%s\"])", w, s->name);
	if (s->url == NULL)
		config_causes_add(causes, "%s: url: missing in [sink \"%s\"]",
		    w, s->name);
	if (s->type == SINK_SLACK && (s->secret_file != NULL ||
	    s->token_file != NULL))
		config_causes_add(causes, "%s: [sink \"%s\"]: a slack sink "
		    "takes no secret_file or token_file (its URL is its "
		    "secret)", w, s->name);
	if (s->type != SINK_HTTP)
		return;
	if (s->secret_file == NULL)
		config_causes_add(causes, "%s: secret_file: missing in [sink "
		    "\"%s\"] (an http sink signs what it sends)", w, s->name);
	else if ((f = config_open_private(conf, s->secret_where,
	    s->secret_file, causes)) != NULL) {
		n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
			n--;
		if (n < CONFIG_SECRET_MIN)
			config_causes_add(causes, "%s: %s: shorter than %d "
			    "bytes", s->secret_where, s->secret_file,
			    CONFIG_SECRET_MIN);
		else {
			s->secret = xmalloc(n + 1);
			memcpy(s->secret, buf, n);
			s->secret[n] = '\0';
			s->secretlen = n;
		}
		explicit_bzero(buf, sizeof(buf));
	}
	if (s->token_file != NULL) {
		/* config_read_token fills github_token: borrow it */
		save = conf->github_token;
		conf->github_token = NULL;
		key = s->token_where;
		config_read_token(conf, key, s->token_file, 0, causes);
		s->token = conf->github_token;
		conf->github_token = save;
	}
}

/* The TLS private key is checked like a secret file (tls.c reads it). */
static void
config_check_tls_key(struct config *conf, const char *path,
    struct config_causes *causes)
{
	FILE	*f;

	if ((f = config_open_private(conf, "tls_key", path, causes)) != NULL)
		fclose(f);
}

/*
 * The names state_dir keeps its own files and folders under: the journal
 * (journal.c), the outbox's records (outbox.c), the lock (main.c). An
 * output_dir inside state_dir must keep clear of them.
 */
static const char *const config_state_names[] = {
	"journal", "outbox", "hookcastd.lock",
};

/*
 * Nothing of the daemon's own may be where episodes are written and
 * served: output_dir may not be state_dir or hold it (the journal and
 * the outbox's records would be served as OWNER/REPO/FILE.json), may lie
 * inside state_dir only off the names state_dir uses, and may hold
 * neither the control socket nor any credential file read. Paths are
 * compared resolved (file_realpath), so trailing slashes, "..", and
 * symlinks give one answer, for folders not yet made too.
 */
static void
config_check_dirs(struct config *conf, struct config_causes *causes)
{
	char		*out, *state = NULL, *p, *rest, *shown;
	size_t		 i, n;

	if ((out = file_realpath(conf->output_dir)) == NULL) {
		config_causes_add(causes, "output_dir: %s: %s",
		    conf->output_dir, strerror(errno));
		return;
	}
	/* the operator's spelling, and what it comes to when that differs */
	if (strcmp(out, conf->output_dir) == 0)
		shown = xstrdup(out);
	else
		xasprintf(&shown, "%s (that is, %s)", conf->output_dir, out);
	if ((state = file_realpath(conf->state_dir)) == NULL)
		config_causes_add(causes, "state_dir: %s: %s", conf->state_dir,
		    strerror(errno));
	else if (file_path_within(state, out))
		config_causes_add(causes, "output_dir: %s %s state_dir %s; "
		    "its journal and outbox would be written among the "
		    "episodes and served with serve_episodes: give output_dir "
		    "a folder of its own, such as %s/episodes", shown,
		    strcmp(state, out) == 0 ? "is" : "holds", conf->state_dir,
		    conf->state_dir);
	else if (file_path_within(out, state)) {
		rest = out + strlen(state) + (strcmp(state, "/") != 0);
		n = strcspn(rest, "/");
		for (i = 0; i < sizeof(config_state_names) /
		    sizeof(config_state_names[0]); i++)
			if (strlen(config_state_names[i]) == n &&
			    strncmp(rest, config_state_names[i], n) == 0)
				config_causes_add(causes, "output_dir: %s is "
				    "inside %s/%s, which state_dir keeps for "
				    "itself: give output_dir a folder of its "
				    "own, such as %s/episodes", shown,
				    conf->state_dir, config_state_names[i],
				    conf->state_dir);
	}
	if ((p = file_realpath(conf->control_socket)) != NULL &&
	    file_path_within(p, out))
		config_causes_add(causes, "output_dir: %s holds control_socket "
		    "%s; put the socket elsewhere", shown,
		    conf->control_socket);
	free(p);
	for (i = 0; i < conf->credential_files.n; i++) {
		if ((p = file_realpath(conf->credential_files.v[i])) != NULL &&
		    file_path_within(p, out))
			config_causes_add(causes, "output_dir: %s holds %s, a "
			    "credential file, which serve_episodes could "
			    "serve: keep it elsewhere", shown,
			    conf->credential_files.v[i]);
		free(p);
	}
	free(shown);
	free(state);
	free(out);
}

/* Is host a loopback address ("localhost", 127.0.0.0/8, ::1)? */
static int
config_host_loopback(const char *host)
{
	struct in_addr	 a4;
	struct in6_addr	 a6;

	if (strcasecmp(host, "localhost") == 0)
		return 1;
	if (inet_pton(AF_INET, host, &a4) == 1)
		return (ntohl(a4.s_addr) >> 24) == 127;
	if (inet_pton(AF_INET6, host, &a6) == 1) {
		if (IN6_IS_ADDR_LOOPBACK(&a6))
			return 1;
		return IN6_IS_ADDR_V4MAPPED(&a6) && a6.s6_addr[12] == 127;
	}
	return 0;
}

int
config_loopback_only(const struct strlist *listen)
{
	struct hostport	 hp;
	const char	*why;
	size_t		 i;

	for (i = 0; i < listen->n; i++) {
		if (hostport_parse(listen->v[i], &hp, &why) == -1 ||
		    !config_host_loopback(hp.host))
			return 0;
	}
	return 1;
}

/*
 * metrics_listen: host:port, or a port alone for 127.0.0.1:port, or off.
 * The webhook listener then no longer serves /metrics. Its default
 * (127.0.0.1:9101) gives way to metrics_public, which asks for /metrics
 * on the webhook listener instead, and may find its port taken (by a
 * second daemon on the host): main.c then warns and goes on.
 */
static void
config_metrics_listen(struct config *conf, struct config_causes *causes)
{
	const struct config_key	*k = config_find_key("metrics_listen");
	struct hostport		 hp;
	const char		*why, *s = conf->metrics_listen;
	char			*full;

	conf->metrics_listen_default = conf->origins == NULL ||
	    conf->origins[k - config_keys] == NULL;
	if (strcasecmp(s, "off") == 0 || strcasecmp(s, "none") == 0 ||
	    *s == '\0' || (conf->metrics_listen_default &&
	    conf->metrics_public)) {
		free(conf->metrics_listen);
		conf->metrics_listen = NULL;
		return;
	}
	if (strspn(s, "0123456789") == strlen(s)) {
		xasprintf(&full, "127.0.0.1:%s", s);
		free(conf->metrics_listen);
		conf->metrics_listen = full;
		s = full;
	}
	if (hostport_parse(s, &hp, &why) == -1)
		config_causes_add(causes, "metrics_listen: '%s' is not "
		    "host:port: %s", s, why);
	if (conf->metrics_public)
		config_causes_add(causes, "metrics_public: true while "
		    "metrics_listen is set; /metrics is served on "
		    "metrics_listen only");
}

/* trusted_proxies: IP addresses, as X-Forwarded-For's hops are. */
static void
config_trusted_proxies(struct config *conf, struct config_causes *causes)
{
	unsigned char	ip[16];
	size_t		i;

	for (i = 0; i < conf->trusted_proxies.n; i++)
		if (inet_pton(AF_INET, conf->trusted_proxies.v[i], ip) != 1 &&
		    inet_pton(AF_INET6, conf->trusted_proxies.v[i], ip) != 1)
			config_causes_add(causes, "trusted_proxies: '%s' is "
			    "not an IP address", conf->trusted_proxies.v[i]);
}

/* Fill what depends on the environment and the other keys. */
void
config_finish(struct config *conf, int flags, struct config_causes *causes)
{
	struct hostport	 hp;
	const char	*env, *why;
	size_t		 i;
	char		*path, a[SIZEFMT_LEN], b[SIZEFMT_LEN];
	int		 state_env = 0;

	/* --print-config says which paths follow $STATE_DIRECTORY */
	if (conf->state_dir == NULL) {
		env = getenv("STATE_DIRECTORY");
		if (env != NULL && *env != '\0') {
			/* systemd may pass several, colon-separated */
			conf->state_dir = xstrndup(env, strcspn(env, ":"));
			config_set_origin(conf, config_find_key("state_dir"),
			    "$STATE_DIRECTORY");
			state_env = 1;
		} else
			conf->state_dir = xstrdup("./hookcast-state");
	}
	if (conf->output_dir == NULL) {
		xasprintf(&conf->output_dir, "%s/episodes", conf->state_dir);
		if (state_env)
			config_set_origin(conf, config_find_key("output_dir"),
			    "$STATE_DIRECTORY/episodes");
	}
	if (conf->control_socket == NULL) {
		env = getenv("RUNTIME_DIRECTORY");
		if (env != NULL && *env != '\0') {
			xasprintf(&conf->control_socket, "%.*s/control.sock",
			    (int)strcspn(env, ":"), env);
			config_set_origin(conf,
			    config_find_key("control_socket"),
			    "$RUNTIME_DIRECTORY/control.sock");
		} else {
			xasprintf(&conf->control_socket, "%s/control.sock",
			    conf->state_dir);
			if (state_env)
				config_set_origin(conf,
				    config_find_key("control_socket"),
				    "$STATE_DIRECTORY/control.sock");
		}
	}
	if (conf->webhook_path[0] != '/')
		config_causes_add(causes, "webhook_path: '%s' must start with /",
		    conf->webhook_path);
	if (conf->listen.n == 0)
		config_causes_add(causes, "listen: no address");
	if (conf->max_buffered_bodies < conf->max_body)
		config_causes_add(causes, "max_buffered_bodies: %s is less "
		    "than max_body (%s)", sizefmt(a, sizeof(a),
		    conf->max_buffered_bodies), sizefmt(b, sizeof(b),
		    conf->max_body));
	if ((conf->tls_cert == NULL) != (conf->tls_key == NULL))
		config_causes_add(causes, "%s: set both tls_cert and tls_key",
		    conf->tls_cert == NULL ? "tls_cert" : "tls_key");
	for (i = 0; i < conf->backfill_hooks.n; i++) {
		if (backfill_hook_check(conf->backfill_hooks.v[i],
		    &why) == -1)
			config_causes_add(causes, "backfill_hooks: '%s' is not "
			    "owner/repo:hook_id: %s", conf->backfill_hooks.v[i],
			    why);
	}
	for (i = 0; i < conf->repositories.n; i++) {
		const char *e = conf->repositories.v[i], *slash;

		slash = strchr(e, '/');
		if (slash == NULL || slash == e || slash[1] == '\0' ||
		    strchr(slash + 1, '/') != NULL || strpbrk(e, " \t") != NULL)
			config_causes_add(causes, "repositories: '%s' is not "
			    "owner/name or owner/*", e);
	}
	config_credentials(conf, flags, causes);
	if (conf->github_token_file != NULL && !(flags & CONFIG_NO_SECRETS))
		config_read_token(conf, "github_token_file",
		    conf->github_token_file, 0, causes);
	else if (!(flags & CONFIG_NO_SECRETS) &&
	    (env = getenv("CREDENTIALS_DIRECTORY")) != NULL &&
	    *env != '\0') {
		/* the unit's LoadCredential=github-token: */
		xasprintf(&path, "%s/github-token", env);
		if (access(path, F_OK) == 0)
			config_read_token(conf, "github-token credential", path,
			    1, causes);
		free(path);
	} else if ((flags & CONFIG_CHECK) &&
	    (path = config_beside(conf, "github-token")) != NULL) {
		config_read_token(conf, "github-token credential", path, 1,
		    causes);
		free(path);
	}
	if (conf->backfill_hooks.n > 0 && !(flags & CONFIG_NO_SECRETS) &&
	    conf->github_token_file == NULL &&
	    conf->github_token == NULL)
		config_causes_add(causes, "backfill_hooks: needs "
		    "github_token_file (or a github-token credential)");
	config_journal(conf, flags, causes);
	if (conf->tls_cert != NULL && access(conf->tls_cert, R_OK) == -1)
		config_causes_add(causes, "tls_cert: %s: %s", conf->tls_cert,
		    strerror(errno));
	if (conf->tls_key != NULL && !(flags & CONFIG_NO_SECRETS))
		config_check_tls_key(conf, conf->tls_key, causes);
	for (i = 0; i < conf->nsinks && !(flags & CONFIG_NO_SECRETS); i++)
		config_sink_finish(conf, &conf->sinks[i], causes);
	config_llm_keys(conf, causes);
	if (conf->sink_retry_max < conf->sink_retry_min)
		config_causes_add(causes, "sink_retry_max: %d is less than "
		    "sink_retry_min (%d)", conf->sink_retry_max,
		    conf->sink_retry_min);
	for (i = 0; i < conf->listen.n; i++) {
		if (hostport_parse(conf->listen.v[i], &hp, &why) == -1)
			config_causes_add(causes, "listen: '%s' is not "
			    "host:port: %s", conf->listen.v[i], why);
	}
	if (conf->metrics_listen != NULL)
		config_metrics_listen(conf, causes);
	config_trusted_proxies(conf, causes);
	if (conf->feed_owner_email != NULL &&
	    !config_email_ok(conf->feed_owner_email))
		config_causes_add(causes, "feed_owner_email: '%s' is not an "
		    "email address", conf->feed_owner_email);
	if (conf->bookend_voice >= 0 &&
	    voice_rate(voice_names[conf->bookend_voice]) !=
	    voice_rate(voice_names[conf->voice]))
		config_causes_add(causes, "bookend_voice: %s speaks at %u Hz "
		    "and voice %s at %u Hz; an episode's sentences must come "
		    "at one rate", voice_names[conf->bookend_voice],
		    voice_rate(voice_names[conf->bookend_voice]),
		    voice_names[conf->voice],
		    voice_rate(voice_names[conf->voice]));
	if (conf->tts_command != NULL &&
	    conf->tts_command[strspn(conf->tts_command, " \t")] == '\0')
		config_causes_add(causes, "tts_command: empty (leave it out "
		    "for the built-in voice, or set audio = off for no audio)");
	/* time zone: it must be a zone of the zone database */
	if (!schedule_zone_exists(conf->timezone))
		config_causes_add(causes, "timezone: unknown time zone '%s'",
		    conf->timezone);
	config_show_finish(conf, flags, causes);
	/* hookcast-draft: no secrets, no state, nothing served */
	if (flags & CONFIG_NO_SECRETS)
		return;
	config_webhook_secrets(conf, flags, causes);
	/* unsigned deliveries only from this machine */
	if (conf->nsecrets == 0 && conf->insecure_no_signature &&
	    !config_loopback_only(&conf->listen))
		config_causes_add(causes, "insecure_no_signature: no webhook "
		    "secret while listen has a non-loopback address; anyone "
		    "who reaches it could feed episodes (give a secret_file, "
		    "or listen on 127.0.0.1 or [::1] only)");
	config_check_dirs(conf, causes);
}
