/*
 * Curl on the event loop: a libcurl multi handle driven by the daemon's
 * libevent base, curl's sockets and its timeout being events of the base.
 * The outbound HTTP of the outbox and the backfill goes through it, so
 * no transfer blocks the loop.
 */
#ifndef HOOKCAST_CURLEV_H
#define HOOKCAST_CURLEV_H

#include <curl/curl.h>

struct curlev;
struct event_base;

/*
 * A transfer ended with rc: priv is its CURLOPT_PRIVATE (transfers without
 * one are passed over). The handle is still in the multi handle; the
 * callback takes it out with curlev_remove and may then free it.
 */
typedef void	 curlev_done_cb(void *priv, CURLcode rc);

/*
 * A multi handle on base (borrowed, it must outlive it) calling done for
 * each finished transfer; libcurl is initialised for as long as it lives.
 * New, or NULL with *cause (static) saying what failed.
 */
struct curlev	*curlev_new(struct event_base *base, curlev_done_cb *done,
		    const char **cause);
/*
 * Free the multi handle and its events; the transfers must have been taken
 * out first. NULL is a no-op.
 */
void		 curlev_free(struct curlev *);
/* Start easy (borrowed until curlev_remove). 0, or -1. */
int		 curlev_add(struct curlev *, CURL *easy);
/* Take easy out, finished or not; it can then be freed. */
void		 curlev_remove(struct curlev *, CURL *easy);

#endif
