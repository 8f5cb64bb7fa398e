/*
 * A body's signature: the HMAC-SHA256 of its raw bytes under a shared
 * secret, as "sha256=<64 hex>", the form a sender puts in a header. The
 * server checks the requests it takes with it, the client signs what it
 * sends.
 */
#ifndef HOOKCAST_SIGNATURE_H
#define HOOKCAST_SIGNATURE_H

#include <stddef.h>

/* "sha256=" + 64 hex + NUL */
#define SIGNATURE_LEN	72

enum signature_result {
	SIGNATURE_OK = 0,
	SIGNATURE_MISSING,	/* no header (or an empty one) */
	SIGNATURE_MALFORMED,	/* not "sha256=" and 64 hex digits */
	SIGNATURE_MISMATCH,	/* matches none of the secrets */
};

/* Write "sha256=<64 lower-case hex>" of body under secret into out. 0 or -1. */
int	 signature_compute(const char *secret, size_t secretlen,
	    const void *body, size_t len, char out[SIGNATURE_LEN]);
/*
 * The header's form alone, before any body is read: SIGNATURE_OK when it
 * is "sha256=" and 64 hex digits, else SIGNATURE_MISSING or
 * SIGNATURE_MALFORMED.
 */
int	 signature_well_formed(const char *header);
/*
 * Check a header against the body under each of nsecrets secrets (several
 * during a rotation). Every secret is tried, each compare in constant time.
 * Returns an enum signature_result.
 */
int	 signature_verify(const char *header, const void *body, size_t len,
	    const char *const *secrets, const size_t *secretlens,
	    size_t nsecrets);
/* A short description of a result, for logs (a caller that names the
 * header says so in its own words). */
const char *signature_strerror(enum signature_result);

#endif
