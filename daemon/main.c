/* hookcastd: the process, its loop, its signals and its schedule. */
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>
#include <jansson.h>

#include "archive.h"
#include "backfill.h"
#include "outbox.h"
#include "buf.h"
#include "childenv.h"
#include "control.h"
#include "daemon.h"
#include "day.h"
#include "drafter.h"
#include "fileio.h"
#include "http.h"
#include "journal.h"
#include "notify.h"
#include "pubconf.h"
#include "tls.h"
#include "version.h"
#include "log.h"
#include "schedule.h"
#include "showday.h"
#include "webhook.h"
#include "xmalloc.h"

static void
main_drain_check(evutil_socket_t fd, short what, void *arg)
{
	struct hookcastd	*d = arg;

	if (http_server_pending(d->http) == 0)
		event_base_loopexit(d->base, NULL);
}

static void
main_signal(evutil_socket_t sig, short what, void *arg)
{
	struct hookcastd	*d = arg;
	struct timeval		 tv = { 0, 50000 };
	char			*cause = NULL;

	switch (sig) {
	case SIGHUP:
		notify_reloading();
		if (hookcastd_reload(d, &cause) == -1) {
			notify_status("reload refused: %s", cause);
			free(cause);
		} else
			hookcastd_notify_status(d, 1);
		notify_ready();
		break;
	case SIGTERM:
	case SIGINT:
		if (d->stopping)
			break;
		d->stopping = 1;
		notify_stopping();
		log_notice("stopping: finishing %zu request(s) in flight",
		    http_server_pending(d->http));
		http_server_stop_accepting(d->http);
		d->drain_ev = event_new(d->base, -1, EV_PERSIST,
		    main_drain_check, d);
		event_add(d->drain_ev, &tv);
		break;
	}
}

/*
 * The metrics listener: /metrics and /healthz on an address of their own
 * (plain HTTP, for a scraper on the host or a private network), so the
 * webhook listener need not show the daemon's activity to everyone.
 */
static struct http_server *
main_metrics_listen(struct hookcastd *d, const struct http_limits *webhook)
{
	struct http_server	*s;
	struct http_limits	 limits = *webhook;
	char			*cause = NULL;

	limits.max_body = 1024;	/* GET only: no body is read */
	limits.max_connections = 64;
	limits.max_per_peer = 64;
	s = http_server_new(d->base, &limits, webhook_metrics_head,
	    webhook_metrics_request, d);
	if (http_server_listen(s, d->conf.metrics_listen, &cause) == -1) {
		if (!d->conf.metrics_listen_default)
			fatalx("metrics_listen: %s", cause);
		/* the default's port may be another daemon's on this host */
		log_warnx("metrics: not served: the default metrics_listen "
		    "%s: %s (set metrics_listen to another address, or to "
		    "off)", d->conf.metrics_listen, cause);
		free(cause);
		http_server_free(s);
		return NULL;
	}
	log_info("metrics: /metrics and /healthz on %s", d->conf.metrics_listen);
	return s;
}

/*
 * One daemon per state directory: two would replay and append to the
 * same journal and each answer 200 for what the other may cut. An
 * exclusive flock on STATE/hookcastd.lock, held for the process's life
 * (the kernel drops it however the process ends, so a crash leaves no
 * stale lock); the file holds the holder's pid for the refusal to name.
 * The children close it: the drafter and the audio (close_range, and
 * they die with the daemon), the sink programs (closefrom, exec).
 */
static int
main_lock(const char *state_dir)
{
	char	*path, pid[32];
	ssize_t	 n;
	int	 fd;

	xasprintf(&path, "%s/hookcastd.lock", state_dir);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd == -1)
		fatal("%s", path);
	if (flock(fd, LOCK_EX | LOCK_NB) == -1) {
		if (errno != EWOULDBLOCK)
			fatal("%s: flock", path);
		n = pread(fd, pid, sizeof(pid) - 1, 0);
		pid[n > 0 ? n : 0] = '\0';
		pid[strcspn(pid, "\n")] = '\0';
		fatalx("state_dir %s is in use by another hookcastd (pid %s, "
		    "holding %s); not starting", state_dir,
		    pid[0] != '\0' ? pid : "unknown", path);
	}
	n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) == -1 || pwrite(fd, pid, (size_t)n, 0) != n)
		log_warn("%s: writing the pid", path);
	free(path);
	return fd;
}

/*
 * Where to point GitHub and a podcast app: each listener's full webhook
 * URL (the address as bound, so a port 0 or an inherited socket shows
 * its real port) and the feeds' URL when public_url is set.
 */
static void
main_log_urls(struct hookcastd *d)
{
	char	addr[96];
	size_t	i;

	for (i = 0; http_server_address(d->http, i, addr, sizeof(addr)) == 0;
	    i++)
		log_notice("webhook URL: %s://%s%s", d->conf.tls_cert != NULL ?
		    "https" : "http", addr, d->conf.webhook_path);
	if (d->conf.public_url != NULL)
		log_info("feeds: %s/OWNER/REPO/feed.xml", d->conf.public_url);
}

static struct event	*main_log_ev;

static void
main_log_flush(evutil_socket_t fd, short what, void *arg)
{
	log_flush();
}

static void
main_log_arm(void)
{
	event_active(main_log_ev, EV_TIMEOUT, 0);
}

/*
 * A journal record replayed; every 20 ms of replay the loop takes one
 * non-blocking turn, so that /healthz and /metrics answer (503 while
 * replaying) and deliveries are refused with 503 rather than waiting. The
 * store is whole between two records, and nothing a turn can run writes
 * to it: the control socket, the timers and the signals come later.
 */
static int
main_replay_apply(const char *payload, size_t len, void *arg)
{
	struct hookcastd	*d = arg;
	struct timespec		 now;
	int			 rc;

	rc = hookcastd_apply_raw(payload, len, d);
	clock_gettime(CLOCK_MONOTONIC, &now);
	if ((now.tv_sec - d->replay_turn.tv_sec) * 1000000000L +
	    (now.tv_nsec - d->replay_turn.tv_nsec) >= 20000000L) {
		d->replay_turn = now;
		event_base_loop(d->base, EVLOOP_NONBLOCK);
	}
	return rc;
}

/*
 * The time of each repository's last episode, from the archive, so that
 * hookcast_last_emission_timestamp_seconds survives a restart (an alert
 * on "no episode today" must not fire because the daemon restarted).
 */
static void
main_last_emissions(struct hookcastd *d)
{
	struct strlist	 repos = { NULL, 0 };
	struct archive	 a;
	struct stat	 st;
	char		*dir, *path, *cause = NULL;
	size_t		 i;

	archive_repos(d->conf.output_dir, &repos);
	for (i = 0; i < repos.n; i++) {
		if (archive_dir(d->conf.output_dir, repos.v[i], &dir,
		    &cause) == -1) {
			free(cause);
			cause = NULL;
			continue;
		}
		archive_list(dir, &a);
		if (a.n > 0) {
			path = archive_path(dir, a.v[a.n - 1].name, "json");
			if (stat(path, &st) == 0)
				metrics_emitted(&d->metrics, repos.v[i],
				    st.st_mtime);
			free(path);
		}
		archive_clear(&a);
		free(dir);
	}
	strlist_clear(&repos);
}

/*
 * Keep some freed memory at the heap's top instead of giving it back at
 * once: each request's body and record buffers are freed and taken again
 * a moment later, and with glibc's defaults (trim above 128 KiB, no pad)
 * the heap shrank and grew around them, 24 page faults a 60 KB push,
 * each a zeroed page. Kept: at most the pad and the trim threshold, a
 * few MiB. Allocations of a MiB and over (a large body) are mapped on
 * their own, as before, and returned when freed.
 */
static void
main_malloc_tune(void)
{
#ifdef M_TOP_PAD
	mallopt(M_TOP_PAD, 4 << 20);
	mallopt(M_TRIM_THRESHOLD, 8 << 20);
	mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
}

static void
main_version(void)
{
	version_print(stdout, "hookcastd");
}

/* The signals the loop catches (main_signal), ending with 0. */
static const int main_signos[] = { SIGTERM, SIGINT, SIGHUP, 0 };
#define MAIN_NSIGNOS	(sizeof(main_signos) / sizeof(main_signos[0]))

/*
 * The flags main answers itself: --help and --version (1: answered, exit
 * 0), and --check-config (*check 1; 2 with --as-unit) and --print-config,
 * which load the configuration and stop. Every other flag is the
 * configuration's: one it doesn't have is a usage error (2, said on
 * stderr).
 */
static int
main_flags(int argc, char **argv, int *check, int *print)
{
	struct config_causes	causes = { NULL, 0 };
	size_t			j;
	int			i;

	/* --as-unit: --check-config as the unit's own user would read */
	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "--as-unit") == 0)
			*check = 2;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 ||
		    strcmp(argv[i], "-h") == 0) {
			config_usage(stdout);
			return 1;
		}
		if (strcmp(argv[i], "--version") == 0) {
			main_version();
			return 1;
		}
		if (strcmp(argv[i], "--check-config") == 0 && *check == 0)
			*check = 1;
		if (strcmp(argv[i], "--print-config") == 0)
			*print = 1;
	}
	/* a mistyped flag is the command line's error, not the file's */
	if (config_check_flags(argc, argv, hookcastd_passthrough,
	    &causes) == -1) {
		for (j = 0; j < causes.n; j++)
			fprintf(stderr, "hookcastd: %s\n", causes.v[j]);
		fprintf(stderr, "usage: hookcastd [--config FILE] "
		    "[--KEY=VALUE ...] [--check-config | --print-config]\n"
		    "(hookcastd --help lists the keys)\n");
		config_causes_clear(&causes);
		return 2;
	}
	return 0;
}

/*
 * Load the configuration into d, with what the daemon would refuse later
 * (the time zone, the certificate) found now. 0 to start; -1 to exit with
 * *status: after --check-config or --print-config, or on errors (all of
 * them said).
 */
static int
main_config(struct hookcastd *d, int argc, char **argv, int check, int print,
    int *status)
{
	struct config_causes	 causes = { NULL, 0 };
	size_t			 j;
	char			*cause = NULL;
	int			 rc;

	/*
	 * The webhook secret leaves the environment before anything reads
	 * it: the loads of the configuration, the first and each reload's,
	 * find it with childenv_secret, and no child (whose environment is
	 * built anyway) nor /proc/PID/environ can see it.
	 */
	childenv_take_secret();
	memset(d, 0, sizeof(*d));
	d->argc = argc;
	d->argv = argv;
	rc = config_load_flags(&d->conf, argc, argv, hookcastd_passthrough,
	    (check || print ? CONFIG_CHECK : 0) |
	    (check == 2 ? CONFIG_AS_UNIT : 0), &causes);
	if (rc == 0 && schedule_set_timezone(d->conf.timezone) == -1) {
		config_causes_add(&causes, "timezone: unknown time zone '%s'",
		    d->conf.timezone);
		rc = -1;
	}
	if (rc == 0 && d->conf.tls_cert != NULL) {
		SSL_CTX	*ctx = tls_context(d->conf.tls_cert, d->conf.tls_key,
		    &cause);

		if (ctx == NULL) {
			config_causes_add(&causes, "%s", cause);
			free(cause);
			cause = NULL;
			rc = -1;
		}
		tls_context_free(ctx);
	}
	/* --check-config reaches the shared journal's server too */
	if (rc == 0 && check && d->conf.redis_host != NULL &&
	    hookcastd_redis_check(&d->conf, &causes) == -1)
		rc = -1;
	if (check || print) {
		for (j = 0; j < causes.n; j++)
			fprintf(stderr, "%s\n", causes.v[j]);
		if (rc == 0 && print)
			config_print(&d->conf, stdout);
		else if (rc == 0)
			printf("configuration OK\n");
		config_causes_clear(&causes);
		config_clear(&d->conf);
		*status = rc == 0 ? 0 : 1;
		return -1;
	}
	if (rc == -1) {
		for (j = 0; j < causes.n; j++)
			log_err("%s", causes.v[j]);
		log_err("hookcastd: configuration errors; not starting");
		config_causes_clear(&causes);
		config_clear(&d->conf);
		*status = 1;
		return -1;
	}
	return 0;
}

/* The start's first lines: the version, the file, the secrets. */
static void
main_log_start(struct hookcastd *d)
{
	log_set_level(d->conf.log_level);
	log_set_style((enum log_style)d->conf.log_format);
	log_notice("hookcastd %s starting", HOOKCAST_VERSION);
	if (d->conf.file != NULL)
		log_info("configuration file %s", d->conf.file);
	else
		log_info("no configuration file: defaults and flags");
	if (d->conf.insecure_no_signature && d->conf.nsecrets == 0)
		log_warnx("insecure_no_signature: deliveries are accepted "
		    "WITHOUT signature checks; anyone who can reach the port "
		    "can feed episodes");
	else
		log_info("%zu webhook secret(s) loaded", d->conf.nsecrets);
}

/*
 * The process and its state: the folders, the lock (its descriptor
 * returned, held to the end), the loop, the store, and the webhook
 * server with its limits and certificate, not yet listening.
 */
static int
main_setup(struct hookcastd *d, struct http_limits *limits)
{
	char	*cause = NULL;
	int	 lockfd;

	signal(SIGPIPE, SIG_IGN);
	main_malloc_tune();
	if (file_mkdirs(d->conf.state_dir, 0755) == -1)
		fatal("state_dir %s", d->conf.state_dir);
	lockfd = main_lock(d->conf.state_dir);
	if (file_mkdirs(d->conf.output_dir, 0755) == -1)
		fatal("output_dir %s", d->conf.output_dir);
	log_info("state in %s, episodes in %s", d->conf.state_dir,
	    d->conf.output_dir);

	if ((d->base = event_base_new()) == NULL)
		fatalx("event_base_new failed");
	d->started = time(NULL);
	d->reload_ok = 1;
	d->reload_ok_at = d->started;
	d->window_start = schedule_prev(d->started, d->conf.emit_hour,
	    d->conf.emit_minute);
	d->store = store_new();
	hookcastd_store_limits(d);
	/* the scheduled shows' stores, for the replay (armed later) */
	showday_sync(d, 0);

	/* a certificate that doesn't load stops us before any work */
	hookcastd_limits(&d->conf, limits);
	d->http = http_server_new(d->base, limits, webhook_head,
	    webhook_request, d);
	if (hookcastd_tls(d, &cause) == -1)
		fatalx("%s", cause);
	return lockfd;
}

/*
 * Sockets passed by systemd win over listen: say so when the
 * configuration sets listen too, and which sockets serve instead.
 */
static void
main_warn_listen(struct hookcastd *d)
{
	struct buf	b;
	char		addr[96];
	size_t		i;

	buf_init(&b);
	for (i = 0; http_server_address(d->http, i, addr, sizeof(addr)) == 0;
	    i++)
		buf_printf(&b, "%s%s", i > 0 ? ", " : "", addr);
	if (config_key_set(&d->conf, "listen"))
		log_warnx("listen is ignored: the sockets systemd passed "
		    "(socket activation) are used: %s; set the addresses in "
		    "the .socket unit's ListenStream=", buf_str(&b));
	buf_free(&b);
}

/*
 * Listening before the replay, so that /healthz can say 503 while it
 * lasts and a delivery is refused with 503 at once instead of waiting in
 * the backlog (main_replay_apply turns the loop): the webhook listeners,
 * inherited (fds, whose control socket main_start takes) or bound, and
 * the metrics listener, returned (NULL: none).
 */
static struct http_server *
main_listen(struct hookcastd *d, const struct http_limits *limits,
    struct notify_fds *fds)
{
	struct http_server	*metrics = NULL;
	size_t			 j;
	char			*cause = NULL;

	d->replaying = 1;
	if (notify_listen_fds(fds) == -1)
		fatalx("socket activation failed");
	if (fds->nhttp > 0) {
		for (j = 0; j < fds->nhttp; j++)
			if (http_server_listen_fd(d->http, fds->http[j],
			    &cause) == -1)
				fatalx("%s", cause);
		main_warn_listen(d);
	} else {
		for (j = 0; j < d->conf.listen.n; j++)
			if (http_server_listen(d->http, d->conf.listen.v[j],
			    &cause) == -1)
				fatalx("%s", cause);
	}
	main_log_urls(d);
	if (d->conf.metrics_listen != NULL)
		metrics = main_metrics_listen(d, limits);
	else
		log_info("metrics: /metrics %s; metrics_listen = HOST:PORT "
		    "serves it apart", d->conf.metrics_public ?
		    "on the webhook listener (metrics_public = true)" :
		    "not served (metrics_listen = off)");
	d->metrics_http = metrics;
	return metrics;
}

/* Open the journal and replay it into the store. */
static void
main_replay(struct hookcastd *d)
{
	struct timespec	 t0, t1;
	long		 n;
	char		*cause = NULL;

	if ((d->journal = journal_open(d->conf.state_dir, &cause)) == NULL)
		fatalx("%s", cause);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	d->replay_turn = t0;
	if ((n = journal_replay_raw(d->journal, main_replay_apply, d)) == -1)
		fatalx("journal replay failed");
	if (d->conf.redis_host != NULL) {
		/* the days are the stream's: none may be the file's alone */
		if (journal_size(d->journal) > 0)
			fatalx("journal: %s/journal holds deliveries of "
			    "journal = file; flush them under it before "
			    "switching to %s", d->conf.state_dir,
			    d->conf.journal);
		hookcastd_redis_open(d);
	}
	d->replaying = 0;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	log_notice("journal: replayed %ld record(s), %lld bytes, in %.3f s",
	    n, (long long)journal_size(d->journal),
	    (double)(t1.tv_sec - t0.tv_sec) +
	    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
}

/*
 * What works on the replayed store: the outbox, the drafter (and the
 * episodes missed while down), the control socket, the signals (their
 * events in sigs), the timers, the journal's syncs and the backfill.
 */
static void
main_start(struct hookcastd *d, struct notify_fds *fds, struct event **sigs)
{
	struct outbox_conf	 oc;
	char			*cause = NULL;
	size_t			 i;
	int			 fd;

	/* before any emission: an episode written tells the outbox */
	pubconf_outbox(&d->conf, &oc);
	if ((d->outbox = outbox_new(d->base, &oc, &cause)) == NULL)
		fatalx("%s", cause);
	d->drafter = drafter_new(d);
	main_last_emissions(d);
	hookcastd_catch_up(d);

	if (fds->control != -1) {
		if ((d->control = control_listen_fd(d, fds->control,
		    &cause)) == NULL)
			fatalx("%s", cause);
		log_info("control socket: inherited");
	} else if ((d->control = control_listen(d, d->conf.control_socket,
	    &cause)) == NULL)
		fatalx("%s", cause);
	notify_fds_clear(fds);
	d->notify = notify_new(d->base);

	for (i = 0; main_signos[i] != 0; i++) {
		sigs[i] = evsignal_new(d->base, main_signos[i], main_signal, d);
		evsignal_add(sigs[i], NULL);
	}
	d->emit_timer = evtimer_new(d->base, hookcastd_emit_timer, d);
	d->sync_ev = event_new(d->base, -1, 0, webhook_sync, d);
	if ((fd = journal_sync_start(d->journal, &cause)) == -1)
		fatalx("%s", cause);
	d->synced_ev = event_new(d->base, fd, EV_READ | EV_PERSIST,
	    webhook_synced, d);
	event_add(d->synced_ev, NULL);
	d->status_ev = evtimer_new(d->base, hookcastd_status_timer, d);
	d->pending_tail = &d->pending;
	if (d->redisj != NULL)
		hookcastd_redis_start(d);
	hookcastd_arm_emit(d);
	showday_sync(d, 1);

	if (backfill_new(d, &d->conf, &d->backfill, &cause) == -1)
		fatalx("%s", cause);
}

/* Say ready and run the loop until a signal has drained it. */
static void
main_run(struct hookcastd *d)
{
	notify_ready();
	hookcastd_notify_status(d, 1);
	log_notice("ready");
	backfill_request(d->backfill, NULL);
	/* a turn's info lines (a delivery's, say) go out in one write */
	main_log_ev = event_new(d->base, -1, 0, main_log_flush, NULL);
	log_defer(main_log_arm);
	event_base_dispatch(d->base);
	log_defer(NULL);
	event_free(main_log_ev);
	/* nothing is waiting after a drain; otherwise settle it now */
	webhook_flush(d);
	log_notice("stopped");
}

/* Free all main_setup, main_listen and main_start made, and unlock. */
static void
main_free(struct hookcastd *d, struct http_server *metrics,
    struct event **sigs, int lockfd)
{
	size_t	i;

	control_free(d->control);
	drafter_free(d->drafter);
	/* (nothing is in flight after the drain) */
	hookcastd_redis_free(d);
	http_server_free(metrics);
	http_server_free(d->http);
	for (i = 0; main_signos[i] != 0; i++)
		event_free(sigs[i]);
	event_free(d->emit_timer);
	event_free(d->sync_ev);
	event_free(d->synced_ev);
	event_free(d->status_ev);
	if (d->drain_ev != NULL)
		event_free(d->drain_ev);
	journal_close(d->journal);
	notify_free(d->notify);
	backfill_free(d->backfill);
	outbox_free(d->outbox);
	showday_free_all(d);
	store_free(d->store);
	metrics_clear(&d->metrics);
	config_clear(&d->conf);
	event_base_free(d->base);
	close(lockfd);
}

int
main(int argc, char **argv)
{
	struct hookcastd	 d;
	struct http_limits	 limits;
	struct http_server	*metrics;
	struct notify_fds	 fds;
	struct event		*sigs[MAIN_NSIGNOS];
	int			 check = 0, print = 0, status, lockfd;

	if ((status = main_flags(argc, argv, &check, &print)) == 1)
		return 0;
	if (status == 2)
		return 2;
	if (main_config(&d, argc, argv, check, print, &status) == -1)
		return status;
	main_log_start(&d);
	lockfd = main_setup(&d, &limits);
	metrics = main_listen(&d, &limits, &fds);
	main_replay(&d);
	main_start(&d, &fds, sigs);
	main_run(&d);
	main_free(&d, metrics, sigs, lockfd);
	return 0;
}
