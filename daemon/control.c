/*
 * The control socket: a Unix stream socket, one command per line, one JSON
 * object per line back. Commands are rows of one table.
 */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/listener.h>

#include <jansson.h>

#include "buf.h"
#include "control.h"
#include "daemon.h"
#include "log.h"
#include "repo.h"
#include "xmalloc.h"

#define CONTROL_MAX_LINE	4096
#define CONTROL_MAX_CLIENTS	64
/*
 * Commands a client may have waiting. They run one per loop turn, so
 * that no client holds the loop (and the webhooks) for more than one
 * command at a time; one that queues more is refused and closed.
 */
#define CONTROL_MAX_QUEUED	64

struct control_client {
	struct control		*control;
	struct bufferevent	*bev;
	struct event		*next;		/* runs the next queued command */
	uint64_t		 active;	/* ms (monotonic): last heard from */
	int			 closing;	/* close once the output is out */
	int			 eof;		/* the client is done sending */
	struct control_reply	*waiting;	/* a reply that comes later */
	struct control_client	*next_client, *prev;
};

struct control {
	struct hookcastd	*d;
	struct evconnlistener	*lev;
	char			*path;
	struct control_client	*clients;
	size_t			 nclients;
};

/*
 * A command: 0 with one JSON object in out, -1 with *cause, or
 * CONTROL_LATER when it kept later and will answer through it.
 */
typedef int (*control_fn)(struct hookcastd *, const char *arg,
    struct buf *out, char **cause, struct control_reply *later);

/* A reply that comes later, to a client that may have gone meanwhile. */
struct control_reply {
	struct control_client	*client;	/* NULL once it went */
};

/* Whether a command takes an argument (a repository). */
enum control_arg {
	CONTROL_ARG_NONE,
	CONTROL_ARG_OPTIONAL,
	CONTROL_ARG_REQUIRED,
};

struct control_cmd {
	const char		*name;
	enum control_arg	 arg;
	int			 show;	/* or a show, by its slug */
	control_fn		 fn;
	const char		*help;
};

static int
control_status(struct hookcastd *d, const char *arg, struct buf *out,
    char **cause, struct control_reply *later)
{
	return hookcastd_status(d, arg, out, cause);
}

static int
control_flush(struct hookcastd *d, const char *arg, struct buf *out,
    char **cause, struct control_reply *later)
{
	return hookcastd_emit(d, arg, 1, out, cause, later);
}

static int
control_preview(struct hookcastd *d, const char *arg, struct buf *out,
    char **cause, struct control_reply *later)
{
	return hookcastd_emit(d, arg, 0, out, cause, later);
}

static int
control_recap(struct hookcastd *d, const char *arg, struct buf *out,
    char **cause, struct control_reply *later)
{
	return hookcastd_recap(d, arg, out, cause);
}

static int
control_reload(struct hookcastd *d, const char *arg, struct buf *out,
    char **cause, struct control_reply *later)
{
	if (hookcastd_reload(d, cause) == -1)
		return -1;
	buf_puts(out, "{\"ok\":true,\"reloaded\":true}");
	return 0;
}

/* A show's slug as a command names it: 1 to 128 of a-z, 0-9 and '-'. */
static int
control_slug(const char *a)
{
	size_t	n = strspn(a, "abcdefghijklmnopqrstuvwxyz0123456789-");

	return n > 0 && n <= 128 && a[n] == '\0';
}

static int	control_help(struct hookcastd *, const char *, struct buf *,
		    char **, struct control_reply *);

static const struct control_cmd control_cmds[] = {
	{ .name = "status", .arg = CONTROL_ARG_OPTIONAL, .show = 1,
	  .fn = control_status,
	  .help = "[OWNER/REPO|SHOW-SLUG] the open days and counters" },
	{ .name = "flush", .arg = CONTROL_ARG_OPTIONAL, .show = 1,
	  .fn = control_flush,
	  .help = "[OWNER/REPO|SHOW-SLUG] draft and emit now, start a new "
	      "day" },
	{ .name = "preview", .arg = CONTROL_ARG_OPTIONAL, .show = 1,
	  .fn = control_preview,
	  .help = "[OWNER/REPO|SHOW-SLUG] draft without emitting" },
	{ .name = "recap", .arg = CONTROL_ARG_OPTIONAL, .fn = control_recap,
	  .help = "[OWNER/REPO] write the weekly recap of the past seven days "
	      "now" },
	{ .name = "reload", .arg = CONTROL_ARG_NONE, .fn = control_reload,
	  .help = "re-read the configuration and secrets" },
	{ .name = "help", .arg = CONTROL_ARG_NONE, .fn = control_help,
	  .help = "list the commands" },
};

#define NCMDS (sizeof(control_cmds) / sizeof(control_cmds[0]))

static int
control_help(struct hookcastd *d, const char *arg, struct buf *out,
    char **cause, struct control_reply *later)
{
	json_t	*j = json_object(), *cmds = json_object();
	char	*s;
	size_t	 i;

	for (i = 0; i < NCMDS; i++)
		json_object_set_new(cmds, control_cmds[i].name,
		    json_string(control_cmds[i].help));
	json_object_set_new(j, "ok", json_true());
	json_object_set_new(j, "commands", cmds);
	s = json_dumps(j, JSON_COMPACT);
	buf_puts(out, s);
	free(s);
	json_decref(j);
	return 0;
}

const char *
control_cmd_name(const struct control_cmd *cmd)
{
	return cmd->name;
}

/*
 * A control byte in a line of len bytes, or -1: any below 0x20 but a tab
 * (a blank) and a CR ending the line, and DEL. The line is taken with its
 * length, not up to its first NUL, so that "flush \0x" is refused rather
 * than cut short to a "flush" of everything.
 */
static int
control_line_ctrl(const char *line, size_t len)
{
	const unsigned char	*p = (const unsigned char *)line;
	size_t			 i;

	for (i = 0; i < len; i++) {
		if (p[i] == '\t' || (p[i] == '\r' && i == len - 1))
			continue;
		if (p[i] < 0x20 || p[i] == 0x7f)
			return p[i];
	}
	return -1;
}

/*
 * Split a command line into its command and argument: words separated by
 * blanks, at most one argument, the command one of the table's. Returns
 * the command's row, or NULL with *cause (new). *arg is new or NULL.
 */
const struct control_cmd *
control_parse(const char *line, size_t len, char **arg, char **cause)
{
	const struct control_cmd	*cmd = NULL;
	char				*copy, *name, *a, *extra, *save = NULL;
	size_t				 i;
	int				 ctrl;

	*arg = NULL;
	if ((ctrl = control_line_ctrl(line, len)) != -1) {
		xasprintf(cause, "control character 0x%02x in the command",
		    ctrl);
		return NULL;
	}
	copy = xstrndup(line, len);
	name = strtok_r(copy, " \t\r", &save);
	a = name != NULL ? strtok_r(NULL, " \t\r", &save) : NULL;
	extra = a != NULL ? strtok_r(NULL, " \t\r", &save) : NULL;
	if (name == NULL) {
		*cause = xstrdup("empty command");
		goto fail;
	}
	for (i = 0; i < NCMDS; i++)
		if (strcmp(control_cmds[i].name, name) == 0)
			cmd = &control_cmds[i];
	if (cmd == NULL) {
		char *esc = log_escape(name, 40);

		xasprintf(cause, "unknown command '%s' (try help)", esc);
		free(esc);
		goto fail;
	}
	if ((a != NULL && cmd->arg == CONTROL_ARG_NONE) || extra != NULL) {
		xasprintf(cause, "%s: too many arguments", cmd->name);
		goto fail;
	}
	if (a == NULL && cmd->arg == CONTROL_ARG_REQUIRED) {
		xasprintf(cause, "%s: missing argument", cmd->name);
		goto fail;
	}
	if (a != NULL && !repo_name_ok(a) && !(cmd->show && control_slug(a))) {
		char *esc = log_escape(a, 40);

		xasprintf(cause, "%s: '%s' is not OWNER/REPO%s", cmd->name, esc,
		    cmd->show ? " or a show's slug" : "");
		free(esc);
		goto fail;
	}
	*arg = xstrdup_null(a);
	free(copy);
	return cmd;
fail:
	free(copy);
	return NULL;
}

/*
 * Run one command line: out gets one JSON object (no newline), or, when
 * CONTROL_LATER is returned, later was kept to answer through. 0 or
 * CONTROL_LATER.
 */
int
control_run(struct hookcastd *d, const char *line, size_t len,
    struct buf *out, struct control_reply *later)
{
	const struct control_cmd	*cmd;
	char				*arg = NULL, *cause = NULL, *s;
	json_t				*err;
	int				 rc = -1;

	if ((cmd = control_parse(line, len, &arg, &cause)) != NULL &&
	    (rc = cmd->fn(d, arg, out, &cause, later)) != -1) {
		free(arg);
		return rc;
	}
	buf_reset(out);
	err = json_pack("{s:b, s:s}", "ok", 0, "error",
	    cause != NULL ? cause : "failed");
	s = json_dumps(err, JSON_COMPACT);
	buf_puts(out, s);
	free(s);
	json_decref(err);
	free(cause);
	free(arg);
	return 0;
}

void
control_reply_send(struct control_reply *later, const char *json)
{
	struct control_client	*c = later->client;

	free(later);
	if (c == NULL)
		return;
	c->waiting = NULL;
	bufferevent_write(c->bev, json, strlen(json));
	bufferevent_write(c->bev, "\n", 1);
}

static uint64_t
control_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void
control_client_free(struct control_client *c)
{
	struct control	*ctl = c->control;

	if (c->prev != NULL)
		c->prev->next_client = c->next_client;
	else
		ctl->clients = c->next_client;
	if (c->next_client != NULL)
		c->next_client->prev = c->prev;
	ctl->nclients--;
	if (c->waiting != NULL)
		c->waiting->client = NULL;
	event_free(c->next);
	bufferevent_free(c->bev);
	free(c);
}

/* Refuse a client: one error line, then close once it is written. */
static void
control_client_refuse(struct control_client *c, const char *error)
{
	struct evbuffer	*in = bufferevent_get_input(c->bev);
	struct buf	 b;

	buf_init(&b);
	buf_printf(&b, "{\"ok\":false,\"error\":\"%s\"}\n", error);
	bufferevent_write(c->bev, b.data, b.len);
	buf_free(&b);
	evbuffer_drain(in, evbuffer_get_length(in));
	c->closing = 1;
	bufferevent_disable(c->bev, EV_READ);
}

/*
 * Check what a client has sent: every line at most CONTROL_MAX_LINE
 * bytes, at most CONTROL_MAX_QUEUED of them waiting. Counts the complete
 * lines into *lines. 0, or -1 with the client refused.
 */
static int
control_client_check(struct control_client *c, size_t *lines)
{
	struct evbuffer		*in = bufferevent_get_input(c->bev);
	struct evbuffer_ptr	 p, eol;
	size_t			 n = 0, eollen, len = evbuffer_get_length(in);

	evbuffer_ptr_set(in, &p, 0, EVBUFFER_PTR_SET);
	for (;;) {
		eol = evbuffer_search_eol(in, &p, &eollen, EVBUFFER_EOL_CRLF);
		if (eol.pos == -1) {
			if (len - (size_t)p.pos > CONTROL_MAX_LINE)
				goto toolong;
			break;
		}
		if ((size_t)(eol.pos - p.pos) > CONTROL_MAX_LINE)
			goto toolong;
		if (++n > CONTROL_MAX_QUEUED) {
			log_warnx("control: a client queued more than %d "
			    "commands; closing it", CONTROL_MAX_QUEUED);
			control_client_refuse(c, "too many commands queued "
			    "(at most 64; wait for the replies)");
			return -1;
		}
		evbuffer_ptr_set(in, &p, (size_t)eol.pos + eollen,
		    EVBUFFER_PTR_SET);
	}
	*lines = n;
	return 0;
toolong:
	control_client_refuse(c, "command line too long");
	return -1;
}

/* Run the next queued command on a later loop turn, if there is one. */
static void
control_client_kick(struct control_client *c)
{
	static const struct timeval	 now = { 0, 0 };
	struct evbuffer			*out = bufferevent_get_output(c->bev);
	size_t				 lines;

	if (c->closing || c->waiting != NULL ||
	    evbuffer_get_length(out) > 0 || evtimer_pending(c->next, NULL))
		return;
	if (control_client_check(c, &lines) == -1)
		return;
	if (lines > 0)
		evtimer_add(c->next, &now);
	else if (c->eof)
		control_client_free(c);
}

/*
 * One command of a client, then back to the loop: the next waits until
 * this reply is written (so a client that doesn't read its replies gets
 * no more run) and for a later turn.
 */
static void
control_client_next(evutil_socket_t fd, short what, void *arg)
{
	struct control_client	*c = arg;
	struct evbuffer		*in = bufferevent_get_input(c->bev);
	struct control_reply	*later;
	struct buf		 reply;
	char			*line;
	size_t			 len;

	if (c->closing || c->waiting != NULL)
		return;
	if ((line = evbuffer_readln(in, &len, EVBUFFER_EOL_CRLF)) == NULL)
		return;
	c->active = control_now();
	later = xcalloc(1, sizeof(*later));
	later->client = c;
	buf_init(&reply);
	if (control_run(c->control->d, line, len, &reply, later) ==
	    CONTROL_LATER) {
		/* the reply comes through later; nothing more runs till then */
		c->waiting = later;
	} else {
		free(later);
		buf_putc(&reply, '\n');
		bufferevent_write(c->bev, reply.data, reply.len);
	}
	buf_free(&reply);
	free(line);
}

static void
control_client_read(struct bufferevent *bev, void *arg)
{
	struct control_client	*c = arg;

	if (c->closing)
		return;
	c->active = control_now();
	control_client_kick(c);
}

static void
control_client_write(struct bufferevent *bev, void *arg)
{
	struct control_client	*c = arg;

	if (c->closing)
		control_client_free(c);
	else
		control_client_kick(c);
}

static void
control_client_event(struct bufferevent *bev, short what, void *arg)
{
	struct control_client	*c = arg;
	struct evbuffer		*in = bufferevent_get_input(bev);
	struct evbuffer		*out = bufferevent_get_output(bev);

	if (what & BEV_EVENT_ERROR) {
		control_client_free(c);
		return;
	}
	if (what & BEV_EVENT_TIMEOUT) {
		/* busy (a command waiting, a reply going out) is not idle */
		if ((what & BEV_EVENT_READING) && !c->closing &&
		    (c->waiting != NULL || evbuffer_get_length(out) > 0 ||
		    evtimer_pending(c->next, NULL))) {
			bufferevent_enable(bev, EV_READ);
			return;
		}
		log_info("control: closing a client idle for %d s",
		    c->control->d->conf.control_idle_timeout);
		control_client_free(c);
		return;
	}
	if (what & BEV_EVENT_EOF) {
		c->eof = 1;
		/* a last command without a newline still counts */
		if (!c->closing && evbuffer_get_length(in) > 0)
			evbuffer_add(in, "\n", 1);
		if (c->closing) {
			if (evbuffer_get_length(out) == 0)
				control_client_free(c);
			return;
		}
		control_client_kick(c);
	}
}

/*
 * At the client cap, make room by closing the client idle the longest
 * (nothing waiting, nothing going out): idle clients must never lock
 * out the operator. 0, or -1 when every client is busy.
 */
static int
control_shed(struct control *ctl)
{
	struct control_client	*c, *oldest = NULL;
	uint64_t		 now = control_now();

	for (c = ctl->clients; c != NULL; c = c->next_client) {
		if (c->closing || c->waiting != NULL ||
		    evtimer_pending(c->next, NULL) ||
		    evbuffer_get_length(bufferevent_get_input(c->bev)) > 0 ||
		    evbuffer_get_length(bufferevent_get_output(c->bev)) > 0)
			continue;
		/* ties: the list is newest first, so the last one is oldest */
		if (oldest == NULL || c->active <= oldest->active)
			oldest = c;
	}
	if (oldest == NULL)
		return -1;
	log_notice("control: %zu clients; closing the one idle longest "
	    "(%llu s)", ctl->nclients,
	    (unsigned long long)((now - oldest->active) / 1000));
	control_client_free(oldest);
	return 0;
}

static void
control_accept(struct evconnlistener *lev, evutil_socket_t fd,
    struct sockaddr *sa, int salen, void *arg)
{
	struct control		*ctl = arg;
	struct control_client	*c;
	struct timeval		 idle;

	if (ctl->nclients >= CONTROL_MAX_CLIENTS && control_shed(ctl) == -1) {
		log_warnx("control: %zu clients, all busy; refusing another",
		    ctl->nclients);
		close(fd);
		return;
	}
	c = xcalloc(1, sizeof(*c));
	c->control = ctl;
	c->active = control_now();
	c->bev = bufferevent_socket_new(evconnlistener_get_base(lev), fd,
	    BEV_OPT_CLOSE_ON_FREE);
	if (c->bev == NULL) {
		close(fd);
		free(c);
		return;
	}
	if ((c->next = evtimer_new(evconnlistener_get_base(lev),
	    control_client_next, c)) == NULL) {
		bufferevent_free(c->bev);
		free(c);
		return;
	}
	c->next_client = ctl->clients;
	if (ctl->clients != NULL)
		ctl->clients->prev = c;
	ctl->clients = c;
	ctl->nclients++;
	idle.tv_sec = ctl->d->conf.control_idle_timeout;
	idle.tv_usec = 0;
	bufferevent_set_timeouts(c->bev, &idle, &idle);
	bufferevent_setcb(c->bev, control_client_read, control_client_write,
	    control_client_event, c);
	bufferevent_enable(c->bev, EV_READ | EV_WRITE);
}

/*
 * Is a socket file at path served by a live process? Connect to find out:
 * refused means stale.
 */
static int
control_live(const struct sockaddr_un *sun)
{
	int	fd, rc;

	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		return 0;
	rc = connect(fd, (const struct sockaddr *)sun, sizeof(*sun));
	close(fd);
	return rc == 0;
}

struct control *
control_listen(struct hookcastd *d, const char *path, char **cause)
{
	struct control		*ctl;
	struct sockaddr_un	 sun;
	struct stat		 st;
	int			 fd;
	mode_t			 old;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sun.sun_path)) {
		xasprintf(cause, "control socket path too long: %s", path);
		return NULL;
	}
	strcpy(sun.sun_path, path);
	if (lstat(path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode)) {
			xasprintf(cause, "control socket %s exists and is not "
			    "a socket", path);
			return NULL;
		}
		if (control_live(&sun)) {
			xasprintf(cause, "control socket %s is in use by a "
			    "running daemon", path);
			return NULL;
		}
		log_notice("control: replacing stale socket %s", path);
		if (unlink(path) == -1) {
			xasprintf(cause, "control socket %s: %s", path,
			    strerror(errno));
			return NULL;
		}
	}
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
	    0)) == -1) {
		xasprintf(cause, "control socket: %s", strerror(errno));
		return NULL;
	}
	old = umask(0117);
	if (bind(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1) {
		umask(old);
		xasprintf(cause, "control socket %s: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	umask(old);
	/*
	 * The umask above made it 0660 as bind created it; no chmod by
	 * name after, which would follow a symlink put there meanwhile.
	 */
	if (listen(fd, 16) == -1) {
		xasprintf(cause, "control socket %s: %s", path, strerror(errno));
		close(fd);
		unlink(path);
		return NULL;
	}
	ctl = control_listen_fd(d, fd, cause);
	if (ctl == NULL) {
		unlink(path);
		return NULL;
	}
	ctl->path = xstrdup(path);
	log_info("control socket %s", path);
	return ctl;
}

struct control *
control_listen_fd(struct hookcastd *d, int fd, char **cause)
{
	struct control	*ctl = xcalloc(1, sizeof(*ctl));

	ctl->d = d;
	evutil_make_socket_nonblocking(fd);
	ctl->lev = evconnlistener_new(d->base, control_accept, ctl,
	    LEV_OPT_CLOSE_ON_FREE, -1, fd);
	if (ctl->lev == NULL) {
		xasprintf(cause, "control socket: %s", strerror(errno));
		close(fd);
		free(ctl);
		return NULL;
	}
	return ctl;
}

void
control_free(struct control *ctl)
{
	if (ctl == NULL)
		return;
	while (ctl->clients != NULL)
		control_client_free(ctl->clients);
	evconnlistener_free(ctl->lev);
	if (ctl->path != NULL) {
		unlink(ctl->path);
		free(ctl->path);
	}
	free(ctl);
}
