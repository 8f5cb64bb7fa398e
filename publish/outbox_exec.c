/* The outbox's exec sinks: a command run under a keeper per attempt. */
#include <sys/types.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>

#include "buf.h"
#include "childenv.h"
#include "log.h"
#include "outbox.h"
#include "outbox_int.h"
#include "sink.h"
#include "xmalloc.h"

/*
 * A sink's command runs under a keeper: a process of the daemon's own
 * (forked, never exec'ed) that is the subreaper of everything the command
 * starts. The keeper takes the command's exit status as the run's, then
 * kills what the command left behind (a background child still holding
 * the output, a grandchild that called setsid and so left the process
 * group: as orphans they all come back to the keeper), and ends with the
 * command's status as its own. On SIGTERM (sink_timeout, the daemon
 * stopping or dying) it kills the whole tree the same way.
 *
 * The daemon watches the keeper's end through a pidfd, not the end of the
 * output: a command that exited 0 while a child of its held the pipe was
 * once "killed after sink_timeout" and run again.
 */

/* Children of the keeper (single-threaded) into pids: how many. */
static size_t
outbox_keeper_children(pid_t *pids, size_t max)
{
	char	path[64], text[4096];
	ssize_t	n;
	size_t	i = 0, k;
	pid_t	v = 0;
	int	fd, in = 0;

	snprintf(path, sizeof(path), "/proc/self/task/%d/children",
	    (int)getpid());
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return 0;
	n = read(fd, text, sizeof(text));
	close(fd);
	for (k = 0; n > 0 && k < (size_t)n && i < max; k++) {
		if (text[k] >= '0' && text[k] <= '9') {
			v = v * 10 + (text[k] - '0');
			in = 1;
		} else {
			if (in)
				pids[i++] = v;
			v = 0;
			in = 0;
		}
	}
	/* a full read may end inside a number: the next round has it */
	if (in && i < max && (size_t)n < sizeof(text))
		pids[i++] = v;
	return i;
}

/*
 * Kill and collect all the keeper's children, those that come back to it
 * as their parents die included; the command's status into *status.
 */
static void
outbox_keeper_kill_all(pid_t cmd, int *status, int *ended)
{
	pid_t	pids[256], r;
	size_t	n, i;
	int	st;

	/* without /proc's children list, the command's group at least */
	kill(-cmd, SIGKILL);
	for (;;) {
		n = outbox_keeper_children(pids, sizeof(pids) / sizeof(*pids));
		for (i = 0; i < n; i++)
			kill(pids[i], SIGKILL);
		if ((r = waitpid(-1, &st, 0)) == -1) {
			if (errno == EINTR)
				continue;
			break;		/* ECHILD: none left */
		}
		if (r == cmd && !*ended) {
			*status = st;
			*ended = 1;
		}
	}
}

/*
 * The keeper: see above. Never returns. argv and the environment are the
 * command's: the keeper frees its copies once the command is forked, so
 * nothing it took from the daemon is lost when it ends.
 */
static void __attribute__((noreturn))
outbox_keeper(char **argv, struct childenv *ce, int out, pid_t daemon)
{
	struct rlimit	 rl = { 0, 0 };
	sigset_t	 set, none;
	pid_t		 cmd, r;
	int		 status = 0, ended = 0, sig, st, null;

	setpgid(0, 0);
	/*
	 * Forked with every signal blocked (outbox_exec): the daemon's
	 * handlers (libevent's) would write to the daemon's own pipe, so
	 * they go first. SIGTERM and SIGCHLD are then taken with sigwait.
	 */
	for (sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_SETMASK, &set, NULL);
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != daemon)
		_exit(125);
	if ((null = open("/dev/null", O_RDWR)) == -1)
		_exit(126);
	dup2(null, 0);
	dup2(out, 1);
	dup2(out, 2);
	/* nothing of the daemon's (listeners, journal) goes along */
	closefrom(3);
	if ((cmd = fork()) == -1) {
		dprintf(2, "fork: %s\n", strerror(errno));
		_exit(126);
	}
	if (cmd == 0) {
		setpgid(0, 0);
		signal(SIGPIPE, SIG_DFL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		execvpe(argv[0], argv, childenv_vector(ce));
		dprintf(2, "%s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	free(argv);
	childenv_clear(ce);
	/* the output is the command's tree's alone */
	dup2(0, 1);
	dup2(0, 2);
	for (;;) {
		if (sigwait(&set, &sig) != 0)
			continue;
		if (sig == SIGTERM)
			break;
		while ((r = waitpid(-1, &st, WNOHANG)) > 0)
			if (r == cmd) {
				status = st;
				ended = 1;
			}
		if (ended)
			break;
	}
	outbox_keeper_kill_all(cmd, &status, &ended);
	if (!ended || WIFEXITED(status))
		_exit(ended ? WEXITSTATUS(status) : 125);
	/* the command's signal, as the keeper's own; no core of the daemon */
	setrlimit(RLIMIT_CORE, &rl);
	prctl(PR_SET_DUMPABLE, 0);
	sig = WTERMSIG(status);
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	_exit(125);
}

static void
outbox_exec_close(struct outbox_pub *p)
{
	if (p->read_ev != NULL) {
		event_free(p->read_ev);
		p->read_ev = NULL;
	}
	if (p->fd != -1) {
		close(p->fd);
		p->fd = -1;
	}
}

/* Keep what the command said, up to OUTBOX_OUTPUT_MAX; 0 at its end. */
static ssize_t
outbox_exec_take(struct outbox_pub *p)
{
	char	chunk[4096];
	ssize_t	n;

	n = read(p->fd, chunk, sizeof(chunk));
	if (n > 0 && p->output.len < OUTBOX_OUTPUT_MAX)
		buf_append(&p->output, chunk, (size_t)n < OUTBOX_OUTPUT_MAX -
		    p->output.len ? (size_t)n : OUTBOX_OUTPUT_MAX -
		    p->output.len);
	return n;
}

static void
outbox_exec_read(evutil_socket_t fd, short what, void *arg)
{
	struct outbox_pub	*p = arg;
	ssize_t			 n;

	n = outbox_exec_take(p);
	if (n > 0 || (n == -1 && (errno == EINTR || errno == EAGAIN)))
		return;
	/* the end of the output is not the end of the run: the keeper's is */
	outbox_exec_close(p);
}

/* The keeper ended (its pidfd is readable), or look again (no pidfd). */
static void
outbox_exec_exited(evutil_socket_t fd, short what, void *arg)
{
	struct outbox_pub	*p = arg;
	struct timeval		 tv = { 0, 100000 };
	int			 status = 0;
	ssize_t			 n;
	pid_t			 r;
	char			*out;

	while ((r = waitpid(p->pid, &status, WNOHANG)) == -1 && errno == EINTR)
		;
	if (r == 0) {
		if (p->pidfd == -1)
			evtimer_add(p->poll_ev, &tv);
		return;
	}
	p->pid = -1;
	evtimer_del(p->kill_ev);
	if (p->exit_ev != NULL) {
		event_free(p->exit_ev);
		p->exit_ev = NULL;
	}
	if (p->pidfd != -1) {
		close(p->pidfd);
		p->pidfd = -1;
	}
	/* what is left in the pipe; no writer is left to wait for */
	while (p->fd != -1) {
		n = outbox_exec_take(p);
		if (n <= 0 && !(n == -1 && errno == EINTR))
			break;
	}
	outbox_exec_close(p);
	out = log_escape(buf_str(&p->output), OUTBOX_OUTPUT_MAX);
	if (p->output.len > 0)
		log_info("sink %s: %s %s: the command said: %s", p->rec.sink,
		    p->rec.repo, p->rec.date, out);
	buf_reset(&p->output);
	if (r == -1)
		outbox_done(p, 0, 0, -1, "waitpid: %s", strerror(errno));
	else if (p->timed_out)
		outbox_done(p, 0, 0, -1, "the command ran over %d s "
		    "(sink_timeout); killed", p->ob->conf.sink_timeout);
	else if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		outbox_done(p, 1, 0, -1, NULL);
	else if (WIFEXITED(status))
		outbox_done(p, 0, 0, -1, "the command exited with status %d: "
		    "%s", WEXITSTATUS(status), out);
	else
		outbox_done(p, 0, 0, -1, "the command died of signal %d",
		    WTERMSIG(status));
	free(out);
}

/*
 * sink_timeout: the keeper is told to kill the command's tree; should it
 * not end within OUTBOX_KILL_GRACE, it is killed with its group.
 */
static void
outbox_exec_kill(evutil_socket_t fd, short what, void *arg)
{
	struct outbox_pub	*p = arg;
	struct timeval		 tv = { OUTBOX_KILL_GRACE, 0 };

	if (p->pid <= 0)
		return;
	if (!p->timed_out) {
		p->timed_out = 1;
		kill(p->pid, SIGTERM);
		evtimer_add(p->kill_ev, &tv);
		return;
	}
	kill(-p->pid, SIGKILL);
	kill(p->pid, SIGKILL);
}

/* Stop a run at once (the daemon stops): the keeper kills the tree. */
void
outbox_exec_stop(struct outbox_pub *p)
{
	struct timespec	ts = { 0, 10 * 1000 * 1000 };
	int		i;

	kill(p->pid, SIGTERM);
	for (i = 0; i < OUTBOX_KILL_GRACE * 100; i++) {
		if (waitpid(p->pid, NULL, WNOHANG) != 0)
			goto out;
		nanosleep(&ts, NULL);
	}
	kill(-p->pid, SIGKILL);
	kill(p->pid, SIGKILL);
	while (waitpid(p->pid, NULL, 0) == -1 && errno == EINTR)
		;
out:
	p->pid = -1;
	if (p->pidfd != -1) {
		close(p->pidfd);
		p->pidfd = -1;
	}
}

/*
 * Run the command with the episode's paths as its last arguments, under
 * a keeper, its output (stdout and stderr) on a pipe the loop reads, its
 * environment built (childenv): the documented HOOKCAST_* variables and
 * the allow-list, never the daemon's own.
 */
void
outbox_exec(struct outbox_pub *p, const struct sink_conf *sc)
{
	struct timeval	  tv;
	struct childenv	  ce;
	sigset_t	  all, old;
	char		**argv;
	int		  fds[2];
	size_t		  i;
	pid_t		  pid, daemon = getpid();

	if (pipe2(fds, O_CLOEXEC) == -1) {
		outbox_done(p, 0, 0, -1, "pipe: %s", strerror(errno));
		return;
	}
	argv = xcalloc(sc->command.n + 3, sizeof(*argv));
	for (i = 0; i < sc->command.n; i++)
		argv[i] = sc->command.v[i];
	argv[i++] = p->rec.markdown;
	argv[i++] = p->rec.json;
	argv[i] = NULL;
	/* built before the fork: the daemon has a thread (the journal's) */
	childenv_init(&ce);
	childenv_set(&ce, "HOOKCAST_SINK", p->rec.sink);
	childenv_set(&ce, "HOOKCAST_REPOSITORY", p->rec.repo);
	childenv_set(&ce, "HOOKCAST_DATE", p->rec.date);
	childenv_set(&ce, "HOOKCAST_TITLE", p->rec.title);
	childenv_set(&ce, "HOOKCAST_DELIVERY", p->rec.id);
	/* no signal reaches the keeper before it has its own dispositions */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pid = fork();
	if (pid == 0)
		outbox_keeper(argv, &ce, fds[1], daemon);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (pid == -1) {
		free(argv);
		childenv_clear(&ce);
		close(fds[0]);
		close(fds[1]);
		outbox_done(p, 0, 0, -1, "fork: %s", strerror(errno));
		return;
	}
	free(argv);
	childenv_clear(&ce);
	setpgid(pid, pid);
	close(fds[1]);
	p->pid = pid;
	p->fd = fds[0];
	p->timed_out = 0;
	evutil_make_socket_nonblocking(p->fd);
	p->read_ev = event_new(p->ob->base, p->fd, EV_READ | EV_PERSIST,
	    outbox_exec_read, p);
	event_add(p->read_ev, NULL);
	if (p->kill_ev == NULL)
		p->kill_ev = evtimer_new(p->ob->base, outbox_exec_kill, p);
	if (p->poll_ev == NULL)
		p->poll_ev = evtimer_new(p->ob->base, outbox_exec_exited, p);
	if ((p->pidfd = (int)syscall(SYS_pidfd_open, pid, 0)) != -1) {
		p->exit_ev = event_new(p->ob->base, p->pidfd, EV_READ,
		    outbox_exec_exited, p);
		event_add(p->exit_ev, NULL);
	} else {
		/* a kernel before 5.3: look every 100 ms */
		tv.tv_sec = 0;
		tv.tv_usec = 100000;
		evtimer_add(p->poll_ev, &tv);
	}
	tv.tv_sec = p->ob->conf.sink_timeout;
	tv.tv_usec = 0;
	evtimer_add(p->kill_ev, &tv);
}
