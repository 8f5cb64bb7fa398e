/* TLS for the HTTP listeners. */
#include <string.h>

#include <openssl/err.h>
#include <openssl/ssl.h>

#include "tls.h"
#include "xmalloc.h"

static void
tls_cause(char **cause, const char *what, const char *path)
{
	char		 err[256];
	unsigned long	 e = ERR_get_error();

	if (e != 0)
		ERR_error_string_n(e, err, sizeof(err));
	else
		strcpy(err, "unknown error");
	ERR_clear_error();
	xasprintf(cause, "%s%s%s: %s", what, path ? " " : "", path ? path : "",
	    err);
}

SSL_CTX *
tls_context(const char *cert, const char *key, char **cause)
{
	SSL_CTX	*ctx;

	if ((ctx = SSL_CTX_new(TLS_server_method())) == NULL) {
		tls_cause(cause, "tls: context", NULL);
		return NULL;
	}
	SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
	SSL_CTX_set_options(ctx, SSL_OP_NO_COMPRESSION |
	    SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE);
	SSL_CTX_set_mode(ctx, SSL_MODE_RELEASE_BUFFERS);
	if (SSL_CTX_use_certificate_chain_file(ctx, cert) != 1) {
		tls_cause(cause, "tls_cert", cert);
		goto fail;
	}
	if (SSL_CTX_use_PrivateKey_file(ctx, key, SSL_FILETYPE_PEM) != 1) {
		tls_cause(cause, "tls_key", key);
		goto fail;
	}
	if (SSL_CTX_check_private_key(ctx) != 1) {
		tls_cause(cause, "tls_key does not match tls_cert", NULL);
		goto fail;
	}
	return ctx;
fail:
	SSL_CTX_free(ctx);
	return NULL;
}

void
tls_context_free(SSL_CTX *ctx)
{
	SSL_CTX_free(ctx);
}
