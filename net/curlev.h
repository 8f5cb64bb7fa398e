/*
 * Curl on the event loop: a libcurl multi handle driven by the program's
 * libevent base, curl's sockets and its timeout being events of the base.
 * Outbound HTTP goes through it, so no transfer blocks the loop.
 */
#ifndef HOOKCAST_CURLEV_H
#define HOOKCAST_CURLEV_H

#include <curl/curl.h>

struct curlev;
struct event_base;

/*
 * A transfer ended with rc and the HTTP status of its last response (0:
 * none): priv is its CURLOPT_PRIVATE (transfers without one are passed
 * over). The handle is out of the multi handle; the callback frees it.
 */
typedef void	 curlev_done_cb(void *priv, CURLcode rc, long status);

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
/*
 * A transfer of url with what all of the program's share: hookcast's user
 * agent, http and https only, no signals, headers (borrowed, they must
 * outlive it), the error message in errbuf (CURL_ERROR_SIZE bytes) and priv
 * as its CURLOPT_PRIVATE. New, or NULL.
 */
CURL		*curlev_easy(const char *url, struct curl_slist *headers,
		    char *errbuf, void *priv);
/* Start easy (borrowed until it ends or curlev_remove). 0, or -1. */
int		 curlev_add(struct curlev *, CURL *easy);
/* Take out easy before it ends; it can then be freed. */
void		 curlev_remove(struct curlev *, CURL *easy);

#endif
