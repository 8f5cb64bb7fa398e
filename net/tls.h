/* TLS for the HTTP listeners: an OpenSSL server context, TLS 1.2 and later. */
#ifndef HOOKCAST_TLS_H
#define HOOKCAST_TLS_H

typedef struct ssl_ctx_st SSL_CTX;

/*
 * A server context from a PEM certificate chain and key; NULL with *cause
 * (new) when they can't be loaded or don't match.
 */
SSL_CTX	*tls_context(const char *cert, const char *key, char **cause);
/* Drop a reference to a context (NULL is fine). */
void	 tls_context_free(SSL_CTX *);

#endif
