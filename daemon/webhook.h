/* Webhook intake and the small GET endpoints, as HTTP server callbacks. */
#ifndef HOOKCAST_WEBHOOK_H
#define HOOKCAST_WEBHOOK_H

struct http_request;

/* Head checks (route, method, size, event, content type, signature header). */
int	 webhook_head(struct http_request *, void *hookcastd);
/* A whole request: a delivery, /healthz or /metrics. */
void	 webhook_request(struct http_request *, void *hookcastd);

/* The batch sync event's callback (group commit). */
void	 webhook_sync(int fd, short what, void *hookcastd);

#endif
