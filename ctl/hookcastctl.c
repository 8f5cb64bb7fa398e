/*
 * hookcastctl: send one command to hookcastd's control socket and print
 * the reply for a person (or raw with --json). Exit 0 when the daemon
 * said ok, 1 when it said no, 2 when it could not be asked: a usage
 * error (checked here, daemon or not) or no daemon to reach.
 */
#include <sys/socket.h>
#include <sys/un.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "buf.h"
#include "suggest.h"
#include "version.h"

#define CTL_MAX_REPLY	(64 * 1024 * 1024)

/*
 * The commands and how many arguments each takes, as the daemon's table
 * (control.c) has them: a usage error is said here, whether or not a
 * daemon is up to say it (test_first_run checks the two agree).
 */
static const struct {
	const char	*name;
	int		 maxargs;
} ctl_cmds[] = {
	{ "status", 1 },
	{ "flush", 1 },
	{ "preview", 1 },
	{ "recap", 1 },
	{ "reload", 0 },
	{ "help", 0 },
};
#define CTL_NCMDS	(sizeof(ctl_cmds) / sizeof(ctl_cmds[0]))

static const char *const ctl_options[] = {
	"--socket", "--json", "--version", "--help"
};
#define CTL_NOPTIONS	(sizeof(ctl_options) / sizeof(ctl_options[0]))

static void
ctl_usage(FILE *f)
{
	fprintf(f, "usage: hookcastctl [--socket PATH] [--json] COMMAND [ARG]\n"
	    "       hookcastctl --version | --help | help\n"
	    "\n"
	    "commands:\n"
	    "  status [OWNER/REPO|SHOW-SLUG]  the open days and counters\n"
	    "  flush [OWNER/REPO|SHOW-SLUG]   draft and emit now, start a new "
	    "day\n"
	    "  preview [OWNER/REPO|SHOW-SLUG] draft without emitting (prints "
	    "the episode)\n"
	    "  recap [OWNER/REPO]   draft and write the weekly recap now\n"
	    "  reload               re-read the configuration and secrets\n"
	    "  help                 this list (the daemon's own: --json help)\n"
	    "\n"
	    "The socket defaults to $HOOKCAST_CONTROL_SOCKET, then\n"
	    "$RUNTIME_DIRECTORY/control.sock, /run/hookcast/control.sock,\n"
	    "$STATE_DIRECTORY/control.sock, ./hookcast-state/control.sock.\n");
}

static char *
ctl_default_socket(void)
{
	const char	*env;
	char		*p;

	if ((env = getenv("HOOKCAST_CONTROL_SOCKET")) != NULL && *env != '\0')
		return strdup(env);
	if ((env = getenv("RUNTIME_DIRECTORY")) != NULL && *env != '\0') {
		if (asprintf(&p, "%s/control.sock", env) == -1)
			return NULL;
		return p;
	}
	if (access("/run/hookcast/control.sock", F_OK) == 0)
		return strdup("/run/hookcast/control.sock");
	if ((env = getenv("STATE_DIRECTORY")) != NULL && *env != '\0') {
		if (asprintf(&p, "%s/control.sock", env) == -1)
			return NULL;
		return p;
	}
	return strdup("./hookcast-state/control.sock");
}

/*
 * Say an error that stopped the daemon from being asked: on stderr, and
 * with --json as a reply on stdout too, so that a script reading replies
 * gets one whatever happened.
 */
static void
ctl_fail(int raw, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;
	json_t	*j;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) == -1)
		msg = NULL;
	va_end(ap);
	fprintf(stderr, "hookcastctl: %s\n", msg != NULL ? msg : fmt);
	if (raw && msg != NULL &&
	    (j = json_pack("{s:b, s:s}", "ok", 0, "error", msg)) != NULL) {
		json_dumpf(j, stdout, JSON_COMPACT);
		putchar('\n');
		json_decref(j);
	}
	free(msg);
}

/* Why the control socket could not be reached, and what to check. */
static void
ctl_connect_failed(int raw, const char *path, int err)
{
	const char	*hint;

	switch (err) {
	case ENOENT:
	case ENOTDIR:
		hint = "no control socket there: is hookcastd running, and is "
		    "this its control_socket? (--socket PATH)";
		break;
	case ECONNREFUSED:
		hint = "nothing listens on it: hookcastd is not running (the "
		    "socket is left from an earlier one)";
		break;
	case EACCES:
	case EPERM:
		hint = "not allowed: run as root or as a member of the socket's "
		    "group (SocketGroup= in hookcast.socket)";
		break;
	default:
		hint = NULL;
		break;
	}
	ctl_fail(raw, "%s: %s%s%s", path, strerror(err),
	    hint != NULL ? "; " : "", hint != NULL ? hint : "");
}

static int
ctl_ask(int raw, const char *path, const char *line, struct buf *reply)
{
	struct sockaddr_un	 sun;
	int			 fd;
	char			 chunk[65536];
	ssize_t			 n;
	size_t			 off = 0, len = strlen(line);

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sun.sun_path)) {
		ctl_fail(raw, "socket path too long: %s", path);
		return -1;
	}
	strcpy(sun.sun_path, path);
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1 ||
	    connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1) {
		ctl_connect_failed(raw, path, errno);
		if (fd != -1)
			close(fd);
		return -1;
	}
	while (off < len) {
		if ((n = write(fd, line + off, len - off)) == -1) {
			if (errno == EINTR)
				continue;
			ctl_fail(raw, "write: %s", strerror(errno));
			close(fd);
			return -1;
		}
		off += (size_t)n;
	}
	for (;;) {
		n = read(fd, chunk, sizeof(chunk));
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		buf_append(reply, chunk, (size_t)n);
		if (memchr(chunk, '\n', (size_t)n) != NULL ||
		    reply->len > CTL_MAX_REPLY)
			break;
	}
	close(fd);
	if (reply->len == 0) {
		ctl_fail(raw, "no reply from %s", path);
		return -1;
	}
	return 0;
}

/* o's string member key, or "?" when it has none. */
static const char *
ctl_str(const json_t *o, const char *key)
{
	const char	*s = json_string_value(json_object_get(o, key));

	return s != NULL ? s : "?";
}

/* Print o's count key as "1 revert" or "2 reverts", then sep. */
static void
ctl_count(const json_t *o, const char *key, const char *one,
    const char *many, const char *sep)
{
	long long	n = (long long)json_integer_value(json_object_get(o, key));

	printf("%lld %s%s", n, n == 1 ? one : many, sep);
}

/* The journal's line: the file's size, or the shared stream's state. */
static void
ctl_print_journal(json_t *jr)
{
	json_t		*v;
	size_t		 i;
	const char	*lease;

	if (jr == NULL)
		return;
	if (strcmp(ctl_str(jr, "engine"), "redis") != 0) {
		printf("journal: file, %lld bytes\n", (long long)
		    json_integer_value(json_object_get(jr, "bytes")));
		return;
	}
	printf("journal: redis %s, stream %s of %lld entries, read up to %s "
	    "(%s), %s; this receiver %s\n", ctl_str(jr, "redis"),
	    ctl_str(jr, "stream"), (long long)json_integer_value(
	    json_object_get(jr, "stream_length")), ctl_str(jr, "read_up_to"),
	    json_is_true(json_object_get(jr, "caught_up")) ? "caught up" :
	    "behind", json_is_true(json_object_get(jr, "healthy")) ?
	    "healthy" : "FAILING", ctl_str(jr, "receiver"));
	json_array_foreach(json_object_get(jr, "drafting"), i, v) {
		lease = json_string_value(json_object_get(v, "lease"));
		printf("drafting %s under the lease of %s\n",
		    ctl_str(v, "repo"), lease != NULL ? lease :
		    "no one (lapsed: another receiver takes it over)");
	}
}

static void
ctl_print_status(json_t *j)
{
	json_t		*repos = json_object_get(j, "repos"), *r, *dl;
	size_t		 i;

	printf("hookcastd %s, up %llds, next emission %s (%s)\n",
	    json_string_value(json_object_get(j, "version")),
	    (long long)json_integer_value(json_object_get(j, "uptime")),
	    json_string_value(json_object_get(j, "next_emit")),
	    json_string_value(json_object_get(j, "timezone")));
	dl = json_object_get(j, "deliveries");
	printf("deliveries: %lld accepted, %lld duplicate, %lld ignored, "
	    "%lld rejected\n",
	    (long long)json_integer_value(json_object_get(dl, "accepted")),
	    (long long)json_integer_value(json_object_get(dl, "duplicate")),
	    (long long)json_integer_value(json_object_get(dl, "ignored")),
	    (long long)json_integer_value(json_object_get(dl, "rejected")));
	ctl_print_journal(json_object_get(j, "journal"));
	if (json_object_get(j, "show") != NULL)
		printf("show %s (%s): its repositories\n",
		    json_string_value(json_object_get(json_object_get(j,
		    "show"), "name")), json_string_value(json_object_get(
		    json_object_get(j, "show"), "slug")));
	if (json_array_size(repos) == 0)
		printf("no repository has an open day yet\n");
	json_array_foreach(repos, i, r) {
		printf("%s since %s: ",
		    json_string_value(json_object_get(r, "repo")),
		    json_string_value(json_object_get(r, "since")));
		ctl_count(r, "commits", "commit", "commits", ", ");
		ctl_count(r, "merged_prs", "merged PR", "merged PRs", ", ");
		ctl_count(r, "reverts", "revert", "reverts", ", ");
		ctl_count(r, "authors", "author", "authors", ", ");
		ctl_count(r, "pushes", "push", "pushes", "\n");
	}
	json_array_foreach(json_object_get(j, "sinks"), i, r) {
		const char *ok = json_string_value(json_object_get(r,
		    "last_success"));
		const char *err = json_string_value(json_object_get(r,
		    "last_error"));

		printf("sink %s (%s): %lld pending, %lld delivered, %lld "
		    "failed, %lld retried; last success %s%s%s\n",
		    json_string_value(json_object_get(r, "name")),
		    json_string_value(json_object_get(r, "type")),
		    (long long)json_integer_value(json_object_get(r, "pending")),
		    (long long)json_integer_value(json_object_get(r,
		    "delivered")),
		    (long long)json_integer_value(json_object_get(r, "failed")),
		    (long long)json_integer_value(json_object_get(r, "retried")),
		    ok != NULL ? ok : "never", err != NULL ? "; last error: " :
		    "", err != NULL ? err : "");
	}
}

/*
 * A reply's error on stderr, a line per cause: a refused reload lists
 * each of the configuration's errors on its own line.
 */
static void
ctl_print_error(json_t *j)
{
	const char	*e = json_string_value(json_object_get(j, "error"));
	size_t		 n;

	if (e == NULL)
		e = "the daemon said no, without saying why";
	do {
		n = strcspn(e, "\n");
		fprintf(stderr, "hookcastctl: %.*s\n", (int)n, e);
		e += n;
	} while (*e++ != '\0');
}

static void
ctl_print(const char *cmd, json_t *j)
{
	json_t		*eps, *e;
	size_t		 i;
	const char	*text;

	if (!json_is_true(json_object_get(j, "ok"))) {
		ctl_print_error(j);
		return;
	}
	if (strcmp(cmd, "status") == 0) {
		ctl_print_status(j);
		return;
	}
	if ((eps = json_object_get(j, "episodes")) != NULL) {
		if (json_array_size(eps) == 0)
			printf("no repository had activity: nothing to draft\n");
		json_array_foreach(eps, i, e) {
			text = json_string_value(json_object_get(e,
			    "markdown_text"));
			if (text != NULL) {
				printf("%s", text);
				continue;
			}
			printf("%s %s: %s\n  %s\n  %s\n",
			    json_string_value(json_object_get(e, "repo")),
			    json_string_value(json_object_get(e, "date")),
			    json_string_value(json_object_get(e, "title")),
			    json_string_value(json_object_get(e, "markdown")),
			    json_string_value(json_object_get(e, "json")));
		}
		return;
	}
	if (strcmp(cmd, "reload") == 0) {
		printf("configuration reloaded\n");
		return;
	}
	text = json_dumps(j, JSON_INDENT(2));
	printf("%s\n", text);
	free((void *)text);
}

/* An unknown command or option, with the closest known one if close. */
static void
ctl_unknown(int raw, const char *what, const char *word, struct suggest *sg)
{
	const char	*best = suggest_best(sg);

	if (best != NULL)
		ctl_fail(raw, "unknown %s '%s' (did you mean %s?)", what, word,
		    best);
	else
		ctl_fail(raw, "unknown %s '%s'", what, word);
}

/*
 * The command line, checked as far as it can be without the daemon: the
 * command is one of ctl_cmds with no more arguments than it takes. 0, or
 * -1 with the usage error said (and, with --json, a reply printed).
 */
static int
ctl_check(int raw, const char *cmd, int nargs)
{
	struct suggest	sg;
	size_t		i;

	for (i = 0; i < CTL_NCMDS; i++)
		if (strcmp(ctl_cmds[i].name, cmd) == 0)
			break;
	if (i == CTL_NCMDS) {
		suggest_init(&sg, cmd);
		for (i = 0; i < CTL_NCMDS; i++)
			suggest_add(&sg, ctl_cmds[i].name);
		ctl_unknown(raw, "command", cmd, &sg);
		fprintf(stderr, "hookcastctl: the commands are status, flush, "
		    "preview, recap, reload and help\n");
		return -1;
	}
	if (nargs > ctl_cmds[i].maxargs) {
		if (ctl_cmds[i].maxargs == 0)
			ctl_fail(raw, "%s takes no argument", cmd);
		else
			ctl_fail(raw, "%s takes at most one argument "
			    "(hookcastctl help)", cmd);
		return -1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	char		*sock = NULL;
	int		 raw = 0, i, rc, nargs = 0;
	size_t		 k;
	struct suggest	 sg;
	struct buf	 line, reply;
	json_t		*j;
	json_error_t	 err;
	const char	*cmd = NULL;

	buf_init(&line);
	buf_init(&reply);
	rc = 2;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0)
			raw = 1;
		else if (strcmp(argv[i], "--socket") == 0 ||
		    strncmp(argv[i], "--socket=", 9) == 0) {
			free(sock);
			sock = NULL;
			if (argv[i][8] == '=')
				sock = strdup(argv[i] + 9);
			else if (i + 1 < argc)
				sock = strdup(argv[++i]);
			if (sock == NULL || *sock == '\0') {
				fprintf(stderr, "hookcastctl: --socket needs "
				    "a path (--socket PATH)\n");
				goto out;
			}
		} else if (strcmp(argv[i], "--version") == 0) {
			version_print(stdout, "hookcastctl");
			rc = 0;
			goto out;
		} else if (strcmp(argv[i], "--help") == 0 ||
		    strcmp(argv[i], "-h") == 0) {
			ctl_usage(stdout);
			rc = 0;
			goto out;
		} else if (argv[i][0] == '-') {
			suggest_init(&sg, argv[i]);
			for (k = 0; k < CTL_NOPTIONS; k++)
				suggest_add(&sg, ctl_options[k]);
			ctl_unknown(raw, "option", argv[i], &sg);
			ctl_usage(stderr);
			goto out;
		} else {
			if (cmd == NULL)
				cmd = argv[i];
			else
				nargs++;
			buf_printf(&line, "%s%s", line.len ? " " : "", argv[i]);
		}
	}
	if (cmd == NULL) {
		ctl_usage(stderr);
		goto out;
	}
	if (ctl_check(raw, cmd, nargs) == -1)
		goto out;
	/* help needs no daemon; --json help asks the daemon for its list */
	if (strcmp(cmd, "help") == 0 && !raw) {
		ctl_usage(stdout);
		rc = 0;
		goto out;
	}
	if (strchr(buf_str(&line), '\n') != NULL) {
		ctl_fail(raw, "newline in command");
		goto out;
	}
	buf_putc(&line, '\n');
	if (sock == NULL && (sock = ctl_default_socket()) == NULL)
		goto out;
	if (ctl_ask(raw, sock, buf_str(&line), &reply) == -1)
		goto out;
	if (raw) {
		fwrite(reply.data, 1, reply.len, stdout);
		if (reply.data[reply.len - 1] != '\n')
			putchar('\n');
	}
	j = json_loadb(reply.data, reply.len, JSON_DISABLE_EOF_CHECK, &err);
	if (j == NULL) {
		fprintf(stderr, "hookcastctl: bad reply: %s\n", err.text);
		goto out;
	}
	rc = json_is_true(json_object_get(j, "ok")) ? 0 : 1;
	if (!raw)
		ctl_print(cmd, j);
	else if (rc != 0)
		ctl_print_error(j);
	json_decref(j);
out:
	free(sock);
	buf_free(&line);
	buf_free(&reply);
	return rc;
}
