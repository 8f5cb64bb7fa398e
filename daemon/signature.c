/* HMAC-SHA256 delivery signatures, checked in constant time. */
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "signature.h"

#define SIGNATURE_PREFIX	"sha256="
#define SIGNATURE_PREFIXLEN	7
#define SIGNATURE_MDLEN		32

/* Raw HMAC-SHA256 of body under secret. 0 or -1. */
static int
signature_hmac(const char *secret, size_t secretlen, const void *body,
    size_t len, unsigned char md[SIGNATURE_MDLEN])
{
	unsigned int	mdlen = 0;

	/* OpenSSL wants real pointers even for empty keys and bodies. */
	if (secret == NULL || secretlen == 0)
		secret = "";
	if (body == NULL || len == 0)
		body = "";
	if (HMAC(EVP_sha256(), secret, (int)secretlen, body, len, md,
	    &mdlen) == NULL || mdlen != SIGNATURE_MDLEN)
		return -1;
	return 0;
}

/* Write "sha256=<64 lower-case hex>" of body under secret into out. */
int
signature_compute(const char *secret, size_t secretlen, const void *body,
    size_t len, char out[SIGNATURE_LEN])
{
	static const char	 hex[] = "0123456789abcdef";
	unsigned char		 md[SIGNATURE_MDLEN];
	char			*p;
	size_t			 i;

	if (secretlen > 0x7fffffff)
		return -1;
	if (signature_hmac(secret, secretlen, body, len, md) == -1)
		return -1;
	memcpy(out, SIGNATURE_PREFIX, SIGNATURE_PREFIXLEN);
	p = out + SIGNATURE_PREFIXLEN;
	for (i = 0; i < SIGNATURE_MDLEN; i++) {
		*p++ = hex[md[i] >> 4];
		*p++ = hex[md[i] & 0xf];
	}
	*p = '\0';
	OPENSSL_cleanse(md, sizeof(md));
	return 0;
}

static int
signature_nibble(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Is a header "sha256=" and 64 hex digits? An enum signature_result. */
int
signature_well_formed(const char *header)
{
	size_t	i;

	if (header == NULL || *header == '\0')
		return SIGNATURE_MISSING;
	if (strncmp(header, SIGNATURE_PREFIX, SIGNATURE_PREFIXLEN) != 0 ||
	    strlen(header) != SIGNATURE_PREFIXLEN + 2 * SIGNATURE_MDLEN)
		return SIGNATURE_MALFORMED;
	for (i = SIGNATURE_PREFIXLEN; header[i] != '\0'; i++)
		if (signature_nibble(header[i]) < 0)
			return SIGNATURE_MALFORMED;
	return SIGNATURE_OK;
}

/* Check a header against the body under each secret. */
int
signature_verify(const char *header, const void *body, size_t len,
    const char *const *secrets, const size_t *secretlens, size_t nsecrets)
{
	unsigned char	 want[SIGNATURE_MDLEN], got[SIGNATURE_MDLEN];
	const char	*hexp;
	size_t		 i;
	int		 hi, lo, match = 0;

	if (header == NULL || *header == '\0')
		return SIGNATURE_MISSING;
	if (strncmp(header, SIGNATURE_PREFIX, SIGNATURE_PREFIXLEN) != 0 ||
	    strlen(header) != SIGNATURE_PREFIXLEN + 2 * SIGNATURE_MDLEN)
		return SIGNATURE_MALFORMED;
	hexp = header + SIGNATURE_PREFIXLEN;
	for (i = 0; i < SIGNATURE_MDLEN; i++) {
		if ((hi = signature_nibble(hexp[2 * i])) < 0 ||
		    (lo = signature_nibble(hexp[2 * i + 1])) < 0)
			return SIGNATURE_MALFORMED;
		want[i] = (unsigned char)(hi << 4 | lo);
	}

	/*
	 * Try every secret, even after a match, so the time taken does not
	 * tell which secret (if any) matched.
	 */
	for (i = 0; i < nsecrets; i++) {
		if (secrets[i] == NULL || secretlens[i] > 0x7fffffff)
			continue;
		if (signature_hmac(secrets[i], secretlens[i], body, len,
		    got) == -1)
			continue;
		match |= CRYPTO_memcmp(want, got, sizeof(got)) == 0;
	}
	OPENSSL_cleanse(got, sizeof(got));
	return match ? SIGNATURE_OK : SIGNATURE_MISMATCH;
}

/* A short description of a result, for logs and replies. */
const char *
signature_strerror(enum signature_result result)
{
	switch (result) {
	case SIGNATURE_OK:
		return "signature ok";
	case SIGNATURE_MISSING:
		return "missing X-Hub-Signature-256 header";
	case SIGNATURE_MALFORMED:
		return "malformed X-Hub-Signature-256 header";
	case SIGNATURE_MISMATCH:
		return "signature mismatch";
	}
	return "unknown signature result";
}
