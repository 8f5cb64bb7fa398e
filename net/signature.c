/* HMAC-SHA256 signatures of bodies, checked in constant time. */
#include <pthread.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include "signature.h"
#include "utf8.h"

#define SIGNATURE_PREFIX	"sha256="
#define SIGNATURE_PREFIXLEN	7
#define SIGNATURE_MDLEN		32

/*
 * HMAC-SHA256 (RFC 2104) from two digest states kept per secret: SHA-256
 * after the key's inner pad block, and after its outer pad block. OpenSSL's
 * one-shot HMAC() fetches the algorithms and derives the pads anew on
 * every call, which cost a small body about as much as hashing it
 * again; here a body costs two state copies and its bytes. The states
 * of the last SIGNATURE_CACHE secrets seen are kept (a reload that
 * changes the secrets replaces them as they are used), each with a copy
 * of its secret to know it by; they are compared in constant time and
 * cleansed when dropped. The lock makes the cache safe from any thread.
 */
#define SIGNATURE_CACHE		4
#define SIGNATURE_BLOCK		64	/* SHA-256's block */

struct signature_key {
	unsigned char	*secret;	/* a copy; NULL when the slot is free */
	size_t		 len;
	EVP_MD_CTX	*inner, *outer;
};

static pthread_mutex_t		 signature_lock = PTHREAD_MUTEX_INITIALIZER;
static struct signature_key	 signature_keys[SIGNATURE_CACHE];
static size_t			 signature_next;	/* the slot to reuse */
static EVP_MD			*signature_md;

static void
signature_key_drop(struct signature_key *k)
{
	if (k->secret != NULL)
		OPENSSL_clear_free(k->secret, k->len);
	EVP_MD_CTX_free(k->inner);
	EVP_MD_CTX_free(k->outer);
	memset(k, 0, sizeof(*k));
}

/* Fill k's digest states for secret. 0 or -1 (k dropped). */
static int
signature_key_make(struct signature_key *k, const unsigned char *secret,
    size_t len)
{
	unsigned char	key[SIGNATURE_BLOCK], pad[SIGNATURE_BLOCK];
	unsigned int	klen = 0;
	size_t		i;
	int		rv = -1;

	memset(key, 0, sizeof(key));
	if (signature_md == NULL &&
	    (signature_md = EVP_MD_fetch(NULL, "SHA256", NULL)) == NULL)
		return -1;
	if ((k->secret = OPENSSL_malloc(len > 0 ? len : 1)) == NULL ||
	    (k->inner = EVP_MD_CTX_new()) == NULL ||
	    (k->outer = EVP_MD_CTX_new()) == NULL)
		goto out;
	memcpy(k->secret, secret, len);
	k->len = len;
	/* a key longer than a block is hashed first */
	if (len > SIGNATURE_BLOCK) {
		if (EVP_Digest(secret, len, key, &klen, signature_md,
		    NULL) != 1)
			goto out;
	} else
		memcpy(key, secret, len);
	for (i = 0; i < SIGNATURE_BLOCK; i++)
		pad[i] = key[i] ^ 0x36;
	if (EVP_DigestInit_ex(k->inner, signature_md, NULL) != 1 ||
	    EVP_DigestUpdate(k->inner, pad, sizeof(pad)) != 1)
		goto out;
	for (i = 0; i < SIGNATURE_BLOCK; i++)
		pad[i] = key[i] ^ 0x5c;
	if (EVP_DigestInit_ex(k->outer, signature_md, NULL) != 1 ||
	    EVP_DigestUpdate(k->outer, pad, sizeof(pad)) != 1)
		goto out;
	rv = 0;
out:
	OPENSSL_cleanse(key, sizeof(key));
	OPENSSL_cleanse(pad, sizeof(pad));
	if (rv == -1)
		signature_key_drop(k);
	return rv;
}

/* The slot holding secret's states, made when none does; NULL on error. */
static struct signature_key *
signature_key_find(const unsigned char *secret, size_t len)
{
	struct signature_key	*k;
	size_t			 i;

	for (i = 0; i < SIGNATURE_CACHE; i++) {
		k = &signature_keys[i];
		if (k->secret != NULL && k->len == len &&
		    CRYPTO_memcmp(k->secret, secret, len) == 0)
			return k;
	}
	k = &signature_keys[signature_next];
	signature_next = (signature_next + 1) % SIGNATURE_CACHE;
	signature_key_drop(k);
	return signature_key_make(k, secret, len) == 0 ? k : NULL;
}

/* Raw HMAC-SHA256 of body under secret. 0 or -1. */
static int
signature_hmac(const char *secret, size_t secretlen, const void *body,
    size_t len, unsigned char md[SIGNATURE_MDLEN])
{
	struct signature_key	*k;
	EVP_MD_CTX		*in, *out;
	unsigned char		 ih[SIGNATURE_MDLEN];
	unsigned int		 n = 0, m = 0;
	int			 rv = -1;

	if (secret == NULL)
		secretlen = 0;
	in = EVP_MD_CTX_new();
	out = EVP_MD_CTX_new();
	if (in == NULL || out == NULL)
		goto done;
	/* the states are copied under the lock, the body hashed outside */
	pthread_mutex_lock(&signature_lock);
	k = signature_key_find((const unsigned char *)(secretlen > 0 ?
	    secret : ""), secretlen);
	rv = k != NULL && EVP_MD_CTX_copy_ex(in, k->inner) == 1 &&
	    EVP_MD_CTX_copy_ex(out, k->outer) == 1 ? 0 : -1;
	pthread_mutex_unlock(&signature_lock);
	if (rv == -1)
		goto done;
	rv = -1;
	if ((len == 0 || EVP_DigestUpdate(in, body, len) == 1) &&
	    EVP_DigestFinal_ex(in, ih, &n) == 1 && n == SIGNATURE_MDLEN &&
	    EVP_DigestUpdate(out, ih, sizeof(ih)) == 1 &&
	    EVP_DigestFinal_ex(out, md, &m) == 1 && m == SIGNATURE_MDLEN)
		rv = 0;
done:
	OPENSSL_cleanse(ih, sizeof(ih));
	EVP_MD_CTX_free(in);
	EVP_MD_CTX_free(out);
	return rv;
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
		if (hex_digit(header[i]) < 0)
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
		if ((hi = hex_digit(hexp[2 * i])) < 0 ||
		    (lo = hex_digit(hexp[2 * i + 1])) < 0)
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
		return "missing signature";
	case SIGNATURE_MALFORMED:
		return "malformed signature";
	case SIGNATURE_MISMATCH:
		return "signature mismatch";
	}
	return "unknown signature result";
}
