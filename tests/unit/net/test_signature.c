/* Unit tests: net/signature.c */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <openssl/hmac.h>

#include "signature.h"

#define VECTOR_SECRET	"It's a Secret to Everybody"
#define VECTOR_BODY	"Hello, World!"
#define VECTOR_SIG	\
	"sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17"

static void
test_signature_compute_vector(void **state)
{
	char	out[SIGNATURE_LEN];

	assert_int_equal(signature_compute(VECTOR_SECRET,
	    strlen(VECTOR_SECRET), VECTOR_BODY, strlen(VECTOR_BODY), out), 0);
	assert_string_equal(out, VECTOR_SIG);
}

static void
test_signature_compute_empty(void **state)
{
	char	out[SIGNATURE_LEN];

	/* HMAC-SHA256 with an empty key of an empty message. */
	assert_int_equal(signature_compute("", 0, NULL, 0, out), 0);
	assert_string_equal(out, "sha256="
	    "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad");
}

static const struct {
	const char	*name;
	const char	*header;
	const char	*body;
	const char	*secrets[2];
	size_t		 nsecrets;
	int		 want;
} verify_cases[] = {
	{ "vector", VECTOR_SIG, VECTOR_BODY, { VECTOR_SECRET }, 1,
	    SIGNATURE_OK },
	{ "upper-case hex", "sha256="
	    "757107EA0EB2509FC211221CCE984B8A37570B6D7586C22C46F4379C8B043E17",
	    VECTOR_BODY, { VECTOR_SECRET }, 1, SIGNATURE_OK },
	{ "second of two secrets", VECTOR_SIG, VECTOR_BODY,
	    { "old secret", VECTOR_SECRET }, 2, SIGNATURE_OK },
	{ "first of two secrets", VECTOR_SIG, VECTOR_BODY,
	    { VECTOR_SECRET, "new secret" }, 2, SIGNATURE_OK },
	{ "missing", NULL, VECTOR_BODY, { VECTOR_SECRET }, 1,
	    SIGNATURE_MISSING },
	{ "empty header", "", VECTOR_BODY, { VECTOR_SECRET }, 1,
	    SIGNATURE_MISSING },
	{ "sha1 prefix", "sha1=757107ea0eb2509fc211221cce984b8a37570b6d",
	    VECTOR_BODY, { VECTOR_SECRET }, 1, SIGNATURE_MALFORMED },
	{ "no prefix",
	    "757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
	    VECTOR_BODY, { VECTOR_SECRET }, 1, SIGNATURE_MALFORMED },
	{ "upper-case prefix", "SHA256="
	    "757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
	    VECTOR_BODY, { VECTOR_SECRET }, 1, SIGNATURE_MALFORMED },
	{ "short", "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c",
	    VECTOR_BODY, { VECTOR_SECRET }, 1, SIGNATURE_MALFORMED },
	{ "long", VECTOR_SIG "00", VECTOR_BODY, { VECTOR_SECRET }, 1,
	    SIGNATURE_MALFORMED },
	{ "trailing space", VECTOR_SIG " ", VECTOR_BODY, { VECTOR_SECRET }, 1,
	    SIGNATURE_MALFORMED },
	{ "not hex", "sha256="
	    "757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e1g",
	    VECTOR_BODY, { VECTOR_SECRET }, 1, SIGNATURE_MALFORMED },
	{ "wrong secret", VECTOR_SIG, VECTOR_BODY, { "not it" }, 1,
	    SIGNATURE_MISMATCH },
	{ "wrong body", VECTOR_SIG, "Hello, World?", { VECTOR_SECRET }, 1,
	    SIGNATURE_MISMATCH },
	{ "neither of two", VECTOR_SIG, VECTOR_BODY, { "a", "b" }, 2,
	    SIGNATURE_MISMATCH },
	{ "no secrets", VECTOR_SIG, VECTOR_BODY, { NULL }, 0,
	    SIGNATURE_MISMATCH },
	{ "one bit off", "sha256="
	    "757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e16",
	    VECTOR_BODY, { VECTOR_SECRET }, 1, SIGNATURE_MISMATCH },
};

static void
test_signature_verify_table(void **state)
{
	size_t	i, j, lens[2];
	int	got;

	for (i = 0; i < sizeof(verify_cases) / sizeof(verify_cases[0]); i++) {
		for (j = 0; j < verify_cases[i].nsecrets; j++)
			lens[j] = strlen(verify_cases[i].secrets[j]);
		got = signature_verify(verify_cases[i].header,
		    verify_cases[i].body, strlen(verify_cases[i].body),
		    verify_cases[i].secrets, lens, verify_cases[i].nsecrets);
		if (got != verify_cases[i].want)
			fail_msg("%s: got %s, want %s", verify_cases[i].name,
			    signature_strerror(got),
			    signature_strerror(verify_cases[i].want));
	}
}

static void
test_signature_roundtrip(void **state)
{
	static const char	 body[] = "{\"zen\":\"x\"}\0binary\xff";
	const char		*secrets[] = { "s3cret" };
	size_t			 lens[] = { 6 };
	char			 sig[SIGNATURE_LEN];

	/* The body may hold NUL bytes: the length is what counts. */
	assert_int_equal(signature_compute("s3cret", 6, body, sizeof(body) - 1,
	    sig), 0);
	assert_int_equal(signature_verify(sig, body, sizeof(body) - 1, secrets,
	    lens, 1), SIGNATURE_OK);
	assert_int_equal(signature_verify(sig, body, strlen(body), secrets,
	    lens, 1), SIGNATURE_MISMATCH);
}

/*
 * The digest states kept per secret give what OpenSSL's own HMAC() gives:
 * keys around the block size (a longer one is hashed first), bodies
 * around its padding, and more secrets in turn than the states kept for,
 * so that they are dropped and made again between calls.
 */
static void
test_signature_matches_openssl(void **state)
{
	static const size_t	 klens[] = { 0, 1, 31, 63, 64, 65, 200 };
	static const size_t	 blens[] = { 0, 1, 55, 56, 63, 64, 65, 1000,
	    70000 };
	unsigned char		 key[200], *body, md[32];
	char			 want[SIGNATURE_LEN], got[SIGNATURE_LEN];
	unsigned int		 mdlen;
	size_t			 round, k, b, i;

	(void)state;
	body = malloc(70000);
	assert_non_null(body);
	for (i = 0; i < 70000; i++)
		body[i] = (unsigned char)(i * 131 + 7);
	for (round = 0; round < 2; round++)
	for (b = 0; b < sizeof(blens) / sizeof(blens[0]); b++)
	for (k = 0; k < sizeof(klens) / sizeof(klens[0]); k++) {
		for (i = 0; i < klens[k]; i++)
			key[i] = (unsigned char)(i + 17 * k + 1);
		assert_non_null(HMAC(EVP_sha256(), key, (int)klens[k], body,
		    blens[b], md, &mdlen));
		assert_int_equal(mdlen, 32);
		memcpy(want, "sha256=", 7);
		for (i = 0; i < 32; i++)
			snprintf(want + 7 + 2 * i, 3, "%02x", md[i]);
		assert_int_equal(signature_compute((const char *)key,
		    klens[k], body, blens[b], got), 0);
		if (strcmp(want, got) != 0)
			fail_msg("key of %zu bytes, body of %zu: %s, not %s",
			    klens[k], blens[b], got, want);
	}
	free(body);
}

static void
test_signature_strerror(void **state)
{
	assert_string_not_equal(signature_strerror(SIGNATURE_MISSING),
	    signature_strerror(SIGNATURE_MALFORMED));
	assert_string_not_equal(signature_strerror(SIGNATURE_MISMATCH),
	    signature_strerror(SIGNATURE_OK));
	assert_non_null(signature_strerror((enum signature_result)42));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_signature_compute_vector),
		cmocka_unit_test(test_signature_compute_empty),
		cmocka_unit_test(test_signature_verify_table),
		cmocka_unit_test(test_signature_matches_openssl),
		cmocka_unit_test(test_signature_roundtrip),
		cmocka_unit_test(test_signature_strerror),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
