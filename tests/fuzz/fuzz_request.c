/*
 * libFuzzer target: the raw bytes of one HTTP request (head and body)
 * through the daemon's real intake: the HTTP server on a loopback socket
 * with the webhook callbacks, a configuration from config_load, a day
 * store and a journal (journal_fsync=none) in a temporary state dir.
 *
 * The daemon has no secret (insecure_no_signature, this build only), so
 * a delivery reaches the handlers, the journal and the store without a
 * signature the fuzzer could never forge. Nothing is asserted: crashes
 * and sanitizer reports are the findings.
 *
 * The daemon is set up on the first input and afresh every FUZZ_RESTART
 * inputs (a new state dir, the old one removed), so the journal and the
 * day store don't grow with accepted deliveries over a long run.
 *
 * Seeds (seeds/request): deliveries from tests/data/corpus as GitHub
 * sends them (its headers, Content-Length), the bodies trimmed to a few
 * KB (no *_url fields, arrays cut to three, long strings cut), and a few
 * odd requests: a ping, a form body, a bad header byte, a chunked body,
 * two requests on one connection, GET /metrics.
 */
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>

#include "config.h"
#include "daemon.h"
#include "http.h"
#include "journal.h"
#include "log.h"
#include "store.h"
#include "webhook.h"
#include "xmalloc.h"

#define FUZZ_RESTART	1000	/* inputs per daemon */
#define FUZZ_TURNS	10000	/* loop turns an input may take */

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

struct fuzz {
	char			 dir[64];
	struct hookcastd	 d;
	int			 port;
	int			 up;
	unsigned long		 inputs;
};

static struct fuzz	fuzz;

static void
fuzz_die(const char *what)
{
	fprintf(stderr, "fuzz_request: %s: %s\n", what, strerror(errno));
	abort();
}

/* The daemon's intake on a loopback port, as main.c sets it up. */
static void
fuzz_start(struct fuzz *f)
{
	struct config_causes	 causes = { NULL, 0 };
	struct http_limits	 limits;
	struct sockaddr_in	 sin;
	socklen_t		 slen = sizeof(sin);
	char			*argv[8], *cause = NULL;
	int			 argc = 0, fd, one = 1, i;
	size_t			 j;

	memset(&f->d, 0, sizeof(f->d));
	strcpy(f->dir, "/tmp/hookcast-fuzz-request-XXXXXX");
	if (mkdtemp(f->dir) == NULL)
		fuzz_die("mkdtemp");

	argv[argc++] = xstrdup("hookcastd");
	xasprintf(&argv[argc++], "--state-dir=%s", f->dir);
	xasprintf(&argv[argc++], "--output-dir=%s/out", f->dir);
	xasprintf(&argv[argc++], "--control-socket=%s/control.sock", f->dir);
	argv[argc++] = xstrdup("--journal-fsync=none");
	argv[argc++] = xstrdup("--insecure-no-signature");
	argv[argc] = NULL;
	if (config_load(&f->d.conf, argc, argv, hookcastd_passthrough,
	    &causes) != 0) {
		for (j = 0; j < causes.n; j++)
			fprintf(stderr, "fuzz_request: %s\n", causes.v[j]);
		abort();
	}
	config_causes_clear(&causes);
	for (i = 0; i < argc; i++)
		free(argv[i]);
	/* a line per delivery would drown libFuzzer's own */
	log_set_level(LOG_LEVEL_ERR);

	if ((f->d.base = event_base_new()) == NULL)
		fuzz_die("event_base_new");
	f->d.started = time(NULL);
	f->d.window_start = f->d.started - 3600;
	f->d.store = store_new();
	f->d.pending_tail = &f->d.pending;
	f->d.sync_ev = event_new(f->d.base, -1, 0, webhook_sync, &f->d);
	if ((f->d.journal = journal_open(f->d.conf.state_dir, &cause)) == NULL) {
		fprintf(stderr, "fuzz_request: %s\n", cause);
		abort();
	}
	hookcastd_limits(&f->d.conf, &limits);
	f->d.http = http_server_new(f->d.base, &limits, webhook_head,
	    webhook_request, &f->d);

	if ((fd = socket(AF_INET, SOCK_STREAM, 0)) == -1)
		fuzz_die("socket");
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)&sin, sizeof(sin)) == -1 ||
	    listen(fd, 64) == -1 ||
	    getsockname(fd, (struct sockaddr *)&sin, &slen) == -1)
		fuzz_die("listen");
	f->port = ntohs(sin.sin_port);
	if (http_server_listen_fd(f->d.http, fd, &cause) != 0) {
		fprintf(stderr, "fuzz_request: %s\n", cause);
		abort();
	}
	f->up = 1;
}

static int
fuzz_remove(const char *path, const struct stat *sb, int flag,
    struct FTW *ftw)
{
	if (remove(path) == -1)
		fprintf(stderr, "fuzz_request: remove %s: %s\n", path,
		    strerror(errno));
	return 0;
}

static void
fuzz_stop(struct fuzz *f)
{
	if (!f->up)
		return;
	http_server_free(f->d.http);
	event_free(f->d.sync_ev);
	journal_close(f->d.journal);
	store_free(f->d.store);
	config_clear(&f->d.conf);
	event_base_free(f->d.base);
	nftw(f->dir, fuzz_remove, 16, FTW_DEPTH | FTW_PHYS);
	f->up = 0;
}

static void
fuzz_exit(void)
{
	fuzz_stop(&fuzz);
}

static void
fuzz_turn(struct fuzz *f)
{
	event_base_loop(f->d.base, EVLOOP_ONCE | EVLOOP_NONBLOCK);
}

/*
 * Send the bytes and half-close, then turn the loop until the server has
 * answered and closed, and the connection is gone on its side too.
 */
static void
fuzz_request(struct fuzz *f, const uint8_t *data, size_t size)
{
	struct sockaddr_in	sin;
	char			chunk[4096];
	size_t			off = 0;
	ssize_t			n;
	int			fd, turns = 0;

	if ((fd = socket(AF_INET, SOCK_STREAM, 0)) == -1)
		fuzz_die("socket");
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t)f->port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *)&sin, sizeof(sin)) == -1)
		fuzz_die("connect");
	fcntl(fd, F_SETFL, O_NONBLOCK);

	while (off < size && turns < FUZZ_TURNS) {
		n = send(fd, data + off, size - off, MSG_NOSIGNAL);
		if (n > 0) {
			off += (size_t)n;
			continue;
		}
		if (n == -1 && errno != EAGAIN)
			break;		/* refused early: the server closed */
		fuzz_turn(f);
		turns++;
	}
	shutdown(fd, SHUT_WR);

	while (turns < FUZZ_TURNS) {
		fuzz_turn(f);
		turns++;
		n = recv(fd, chunk, sizeof(chunk), 0);
		if (n == 0 || (n == -1 && errno != EAGAIN))
			break;
	}
	close(fd);
	while (http_server_connections(f->d.http) > 0 && turns < FUZZ_TURNS) {
		fuzz_turn(f);
		turns++;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!fuzz.up) {
		signal(SIGPIPE, SIG_IGN);
		unsetenv("CREDENTIALS_DIRECTORY");
		unsetenv("STATE_DIRECTORY");
		unsetenv("RUNTIME_DIRECTORY");
		unsetenv("HOOKCAST_SECRET");
		fuzz_start(&fuzz);
		atexit(fuzz_exit);
	} else if (fuzz.inputs % FUZZ_RESTART == 0) {
		fuzz_stop(&fuzz);
		fuzz_start(&fuzz);
	}
	fuzz.inputs++;
	fuzz_request(&fuzz, data, size);
	return 0;
}
