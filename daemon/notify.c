/* systemd integration: notify, watchdog, socket activation. */
#include <sys/socket.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/event.h>
#include <systemd/sd-daemon.h>

#include "log.h"
#include "notify.h"
#include "xmalloc.h"

struct notify {
	struct event	*watchdog;
	uint64_t	 usec;
};

/*
 * Pinged from the loop itself: if the loop is stuck, the pings stop and
 * systemd restarts the service.
 */
static void
notify_watchdog(evutil_socket_t fd, short what, void *arg)
{
	sd_notify(0, "WATCHDOG=1");
}

struct notify *
notify_new(struct event_base *base)
{
	struct notify	*n = xcalloc(1, sizeof(*n));
	struct timeval	 tv;

	if (sd_watchdog_enabled(0, &n->usec) > 0 && n->usec > 0) {
		/* twice per interval, as sd_watchdog_enabled(3) advises */
		tv.tv_sec = (time_t)(n->usec / 2 / 1000000);
		tv.tv_usec = (suseconds_t)(n->usec / 2 % 1000000);
		n->watchdog = event_new(base, -1, EV_PERSIST, notify_watchdog,
		    n);
		event_add(n->watchdog, &tv);
		log_info("watchdog: pinging every %llu ms",
		    (unsigned long long)(n->usec / 2000));
	} else
		n->usec = 0;
	return n;
}

void
notify_free(struct notify *n)
{
	if (n == NULL)
		return;
	if (n->watchdog != NULL)
		event_free(n->watchdog);
	free(n);
}

uint64_t
notify_watchdog_usec(const struct notify *n)
{
	return n != NULL ? n->usec : 0;
}

void
notify_ready(void)
{
	sd_notify(0, "READY=1");
}

void
notify_reloading(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	sd_notifyf(0, "RELOADING=1\nMONOTONIC_USEC=%llu",
	    (unsigned long long)ts.tv_sec * 1000000ULL +
	    (unsigned long long)ts.tv_nsec / 1000ULL);
}

void
notify_stopping(void)
{
	sd_notify(0, "STOPPING=1");
}

void
notify_status(const char *fmt, ...)
{
	va_list	 ap;
	char	*s = NULL;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) == -1)
		s = NULL;
	va_end(ap);
	if (s == NULL)
		return;
	sd_notifyf(0, "STATUS=%s", s);
	free(s);
}

int
notify_listen_fds(struct notify_fds *out)
{
	char	**names = NULL;
	int	  n, i, fd;
	size_t	  k;

	memset(out, 0, sizeof(*out));
	out->control = -1;
	n = sd_listen_fds_with_names(1, &names);
	if (n < 0) {
		log_warnx("socket activation: %s", strerror(-n));
		return -1;
	}
	/*
	 * By address family: a socket unit names all of its sockets alike
	 * (FileDescriptorName=), so names can't tell them apart. A Unix
	 * socket is the control socket; TCP ones serve HTTP.
	 */
	for (i = 0; i < n; i++) {
		fd = SD_LISTEN_FDS_START + i;
		if (sd_is_socket(fd, AF_UNSPEC, SOCK_STREAM, 1) <= 0) {
			log_warnx("socket activation: fd %d (%s) is not a "
			    "listening stream socket; ignored", fd,
			    names != NULL ? names[i] : "unnamed");
			continue;
		}
		if (sd_is_socket(fd, AF_UNIX, SOCK_STREAM, 1) > 0) {
			if (out->control != -1) {
				log_warnx("socket activation: a second Unix "
				    "socket (fd %d) ignored", fd);
				continue;
			}
			out->control = fd;
			continue;
		}
		out->http = xreallocarray(out->http, out->nhttp + 1,
		    sizeof(*out->http));
		out->http[out->nhttp++] = fd;
	}
	if (names != NULL) {
		for (k = 0; names[k] != NULL; k++)
			free(names[k]);
		free(names);
	}
	return n;
}

void
notify_fds_clear(struct notify_fds *f)
{
	free(f->http);
	memset(f, 0, sizeof(*f));
	f->control = -1;
}
