/*
 * systemd integration through libsystemd: readiness and status
 * notifications, the watchdog, and sockets passed by socket activation.
 * All of it is a no-op when the daemon isn't run by systemd.
 */
#ifndef HOOKCAST_NOTIFY_H
#define HOOKCAST_NOTIFY_H

#include <stdint.h>

struct event_base;
struct notify;

/* Start the watchdog pings when WatchdogSec= asks for them. */
struct notify	*notify_new(struct event_base *);
void		 notify_free(struct notify *);
void		 notify_ready(void);
void		 notify_reloading(void);
void		 notify_stopping(void);
void		 notify_status(const char *, ...)
		    __attribute__((format(printf, 1, 2)));
/* Watchdog interval in microseconds, 0 when off. */
uint64_t	 notify_watchdog_usec(const struct notify *);

/* Sockets from socket activation. */
struct notify_fds {
	int	*http;
	size_t	 nhttp;
	int	 control;	/* -1 when none */
};

/*
 * Collect the sockets systemd passed (LISTEN_FDS). The Unix stream socket
 * is the control socket; TCP ones are HTTP listeners. Returns the number
 * of sockets passed, or -1 on an error (logged).
 */
int		 notify_listen_fds(struct notify_fds *);
void		 notify_fds_clear(struct notify_fds *);

#endif
