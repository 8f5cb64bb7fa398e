/*
 * Curl on the event loop: libcurl's multi socket interface, its sockets
 * and its timer watched by libevent.
 */
#include <stdlib.h>

#include <curl/curl.h>
#include <event2/event.h>

#include "curlev.h"
#include "log.h"
#include "xmalloc.h"

/* A socket curl asked us to watch. */
struct curlev_sock {
	curl_socket_t		 fd;
	struct event		*ev;
	struct curlev_sock	*next;
};

struct curlev {
	struct event_base	*base;
	curlev_done_cb		*done;
	CURLM			*multi;
	struct event		*timer;		/* curl's timeout */
	struct curlev_sock	*socks;
};

static void
curlev_sock_free(struct curlev *cev, struct curlev_sock *cs)
{
	struct curlev_sock	**pp;

	for (pp = &cev->socks; *pp != NULL; pp = &(*pp)->next)
		if (*pp == cs) {
			*pp = cs->next;
			break;
		}
	if (cs->ev != NULL)
		event_free(cs->ev);
	free(cs);
}

/* Hand each finished transfer, out of the multi handle, to done. */
static void
curlev_check(struct curlev *cev)
{
	CURLMsg		*msg;
	CURL		*easy;
	CURLcode	 rc;
	char		*priv;
	long		 status;
	int		 left;

	while ((msg = curl_multi_info_read(cev->multi, &left)) != NULL) {
		if (msg->msg != CURLMSG_DONE)
			continue;
		/* msg does not outlive curl_multi_remove_handle */
		easy = msg->easy_handle;
		rc = msg->data.result;
		priv = NULL;
		curl_easy_getinfo(easy, CURLINFO_PRIVATE, &priv);
		if (priv == NULL)
			continue;
		status = 0;
		curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
		curl_multi_remove_handle(cev->multi, easy);
		cev->done(priv, rc, status);
	}
}

static void
curlev_sock_event(evutil_socket_t fd, short what, void *arg)
{
	struct curlev	*cev = arg;
	int		 flags = 0, running;

	if (what & EV_READ)
		flags |= CURL_CSELECT_IN;
	if (what & EV_WRITE)
		flags |= CURL_CSELECT_OUT;
	curl_multi_socket_action(cev->multi, fd, flags, &running);
	curlev_check(cev);
}

/* CURLMOPT_SOCKETFUNCTION: watch (or stop watching) one of curl's sockets. */
static int
curlev_socket(CURL *easy, curl_socket_t fd, int what, void *userp,
    void *socketp)
{
	struct curlev		*cev = userp;
	struct curlev_sock	*cs = socketp;
	short			 kind = EV_PERSIST;

	if (what == CURL_POLL_REMOVE) {
		if (cs != NULL)
			curlev_sock_free(cev, cs);
		return 0;
	}
	if (cs == NULL) {
		cs = xcalloc(1, sizeof(*cs));
		cs->fd = fd;
		cs->next = cev->socks;
		cev->socks = cs;
		curl_multi_assign(cev->multi, fd, cs);
	} else if (cs->ev != NULL) {
		event_free(cs->ev);
		cs->ev = NULL;
	}
	if (what & CURL_POLL_IN)
		kind |= EV_READ;
	if (what & CURL_POLL_OUT)
		kind |= EV_WRITE;
	cs->ev = event_new(cev->base, fd, kind, curlev_sock_event, cev);
	if (cs->ev == NULL || event_add(cs->ev, NULL) == -1) {
		log_warnx("%s: cannot watch a socket", __func__);
		return -1;
	}
	return 0;
}

/* CURLMOPT_TIMERFUNCTION: curl wants to be called after ms (-1: never). */
static int
curlev_timer(CURLM *multi, long ms, void *userp)
{
	struct curlev	*cev = userp;
	struct timeval	 tv;

	if (ms < 0) {
		evtimer_del(cev->timer);
		return 0;
	}
	tv.tv_sec = ms / 1000;
	tv.tv_usec = (ms % 1000) * 1000;
	return evtimer_add(cev->timer, &tv) == -1 ? -1 : 0;
}

static void
curlev_timeout(evutil_socket_t fd, short what, void *arg)
{
	struct curlev	*cev = arg;
	int		 running;

	curl_multi_socket_action(cev->multi, CURL_SOCKET_TIMEOUT, 0, &running);
	curlev_check(cev);
}

struct curlev *
curlev_new(struct event_base *base, curlev_done_cb *done, const char **cause)
{
	struct curlev	*cev;

	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		*cause = "curl_global_init failed";
		return NULL;
	}
	cev = xcalloc(1, sizeof(*cev));
	cev->base = base;
	cev->done = done;
	if ((cev->multi = curl_multi_init()) == NULL) {
		*cause = "curl_multi_init failed";
		goto fail;
	}
	if ((cev->timer = evtimer_new(base, curlev_timeout, cev)) == NULL) {
		*cause = "evtimer_new failed";
		goto fail;
	}
	curl_multi_setopt(cev->multi, CURLMOPT_SOCKETFUNCTION, curlev_socket);
	curl_multi_setopt(cev->multi, CURLMOPT_SOCKETDATA, cev);
	curl_multi_setopt(cev->multi, CURLMOPT_TIMERFUNCTION, curlev_timer);
	curl_multi_setopt(cev->multi, CURLMOPT_TIMERDATA, cev);
	return cev;

fail:
	curlev_free(cev);
	return NULL;
}

void
curlev_free(struct curlev *cev)
{
	if (cev == NULL)
		return;
	/* curl_multi_cleanup may still call curlev_socket: sockets after it */
	if (cev->multi != NULL)
		curl_multi_cleanup(cev->multi);
	while (cev->socks != NULL)
		curlev_sock_free(cev, cev->socks);
	if (cev->timer != NULL)
		event_free(cev->timer);
	free(cev);
	curl_global_cleanup();
}

CURL *
curlev_easy(const char *url, struct curl_slist *headers, char *errbuf,
    void *priv)
{
	CURL	*easy;

	if ((easy = curl_easy_init()) == NULL)
		return NULL;
	curl_easy_setopt(easy, CURLOPT_URL, url);
	curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
	curl_easy_setopt(easy, CURLOPT_USERAGENT, "hookcast/" HOOKCAST_VERSION);
	curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(easy, CURLOPT_PRIVATE, priv);
	return easy;
}

int
curlev_add(struct curlev *cev, CURL *easy)
{
	return curl_multi_add_handle(cev->multi, easy) == CURLM_OK ? 0 : -1;
}

void
curlev_remove(struct curlev *cev, CURL *easy)
{
	curl_multi_remove_handle(cev->multi, easy);
}
