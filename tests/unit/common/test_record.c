/*
 * Unit tests: the caps on a commit's message and a pull request's title and
 * body in common/record.c (record_cut, record_cut_dup, commit_set_message),
 * and a push's ids (push_id_set, push_id_hex, push_id_none).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "record.h"
#include "utf8.h"
#include "xmalloc.h"

/* "\xf0\x9f\x98\x80", U+1F600: four bytes. */
#define FOUR	"\xf0\x9f\x98\x80"

/* n copies of unit, then tail: a new string. */
static char *
repeat(const char *unit, size_t n, const char *tail)
{
	size_t	 ulen = strlen(unit), tlen = strlen(tail), i;
	char	*s = xmalloc(ulen * n + tlen + 1);

	for (i = 0; i < n; i++)
		memcpy(s + i * ulen, unit, ulen);
	memcpy(s + n * ulen, tail, tlen + 1);
	return s;
}

/* Cut s to max, check the kept length, and that cutting again keeps it. */
static void
check_cut(const char *what, const char *s, size_t max, size_t want)
{
	size_t	n = strlen(s), got;

	got = record_cut(s, n, max);
	if (got != want)
		fail_msg("%s: kept %zu of %zu bytes under %zu, want %zu", what,
		    got, n, max, want);
	assert_true(got <= max || got == n);
	if (record_cut(s, got, max) != got)
		fail_msg("%s: a second cut is not a no-op", what);
}

static void
test_record_cut(void **state)
{
	char	*s;

	/* fits: kept whole, blanks and all */
	check_cut("empty", "", 8, 0);
	check_cut("at the cap", "abcdefgh", 8, 8);
	check_cut("under, trailing blank", "abc ", 8, 4);

	/* one word: cut at the cap */
	check_cut("one byte over", "abcdefghi", 8, 8);
	/* a blank just past the cap: the words before it are whole */
	check_cut("blank at the cap", "abc defg hij", 8, 8);
	/* else back to the last blank, with the blanks before it */
	check_cut("blank before", "abc  defghij", 8, 3);
	check_cut("newline before", "abc\r\ndefghij", 8, 3);
	check_cut("tab before", "ab\tcdefghij", 8, 2);
	/* a text that starts with its only blanks: cut at the cap */
	check_cut("leading blanks", "   abcdefghij", 8, 8);

	/* never inside a character: 2, 3 and 4 bytes across the cap */
	check_cut("two bytes across", "abcdefg\xc3\xa9", 8, 7);
	check_cut("three bytes across", "abcdef\xe2\x80\xa6x", 8, 6);
	check_cut("four bytes across, 1 in", "abcdefg" FOUR, 8, 7);
	check_cut("four bytes across, 3 in", "abcde" FOUR "x", 8, 5);
	check_cut("four bytes ending at the cap", "abcd" FOUR "x", 8, 8);

	/* bytes that are not UTF-8 count one by one */
	check_cut("stray continuations", "\x80\x80\x80\x80\x80\x80\x80\x80\x80",
	    8, 8);
	check_cut("truncated sequence", "abcdef\xf0\x9f" "abc", 8, 8);
	check_cut("invalid lead bytes", "\xff\xfe\xff\xfe\xff\xfe\xff\xfe\xff",
	    8, 8);

	/* a cut of valid text is valid text */
	s = repeat("a" FOUR, 1000, "");
	check_cut("many four-byte", s, COMMIT_MAX_SUBJECT, 1021);
	assert_true(utf8_valid(s, record_cut(s, strlen(s),
	    COMMIT_MAX_SUBJECT)));
	free(s);

	assert_null(record_cut_dup(NULL, 8));
	s = record_cut_dup("abc defghij", 8);
	assert_string_equal(s, "abc");
	free(s);
}

/*
 * commit_set_message keeps at most COMMIT_MAX_SUBJECT and COMMIT_MAX_BODY
 * bytes; the journal keeps "subject\n\nbody" and reads it back through
 * commit_set_message: the same subject and body.
 */
static void
check_message(const char *what, const char *message, const char *subject,
    const char *body)
{
	struct commit	 c, again;
	char		*joined;

	memset(&c, 0, sizeof(c));
	memset(&again, 0, sizeof(again));
	assert_int_equal(commit_set_message(&c, message), 0);
	if (strcmp(c.subject, subject) != 0)
		fail_msg("%s: subject of %zu bytes, want %zu", what,
		    strlen(c.subject), strlen(subject));
	if (strcmp(c.body, body) != 0)
		fail_msg("%s: body of %zu bytes, want %zu", what,
		    strlen(c.body), strlen(body));
	assert_true(strlen(c.subject) <= COMMIT_MAX_SUBJECT);
	assert_true(strlen(c.body) <= COMMIT_MAX_BODY);

	/* as jrecord_encode_commit writes it and jrecord_apply reads it */
	if (*c.body != '\0')
		xasprintf(&joined, "%s\n\n%s", c.subject, c.body);
	else
		joined = xstrdup(c.subject);
	assert_int_equal(commit_set_message(&again, joined), 0);
	if (strcmp(again.subject, c.subject) != 0 ||
	    strcmp(again.body, c.body) != 0)
		fail_msg("%s: read back differently", what);
	free(joined);
	commit_clear(&again);
	commit_clear(&c);
}

static void
test_record_message_caps(void **state)
{
	char	*msg, *subject, *body, *s;
	size_t	 n;

	/* subjects of 1023, 1024 and 1025 bytes, one word */
	for (n = COMMIT_MAX_SUBJECT - 1; n <= COMMIT_MAX_SUBJECT + 1; n++) {
		subject = repeat("s", n, "");
		xasprintf(&msg, "%s\n\nThe body.", subject);
		subject[n > COMMIT_MAX_SUBJECT ? COMMIT_MAX_SUBJECT : n] = '\0';
		check_message("subject", msg, subject, "The body.");
		free(msg);
		free(subject);
	}
	/* 1025 bytes of words: cut after the last whole one, blank dropped */
	msg = repeat("word ", 204, "words");	/* 1025 bytes */
	s = repeat("word ", 203, "word");	/* 1019 bytes */
	check_message("subject of words", msg, s, "");
	free(msg);
	free(s);
	/* a blank at byte 1025 is trimmed before the cap counts */
	msg = repeat("word ", 205, "");
	s = repeat("word ", 204, "word");	/* 1024 bytes */
	check_message("subject with a blank after 1024", msg, s, "");
	free(msg);
	free(s);
	/* 1025 bytes, a two-byte character across the cap: 1023 kept */
	msg = repeat("\xc3\xa9", 512, "");
	xasprintf(&subject, "x%s", msg);
	msg[511 * 2] = '\0';
	xasprintf(&s, "x%s", msg);
	check_message("subject of two-byte characters", subject, s, "");
	free(subject);
	free(s);
	free(msg);

	/* a body cut inside a four-byte character: the character goes */
	body = repeat("b", COMMIT_MAX_BODY - 2, FOUR "tail");
	xasprintf(&msg, "Subject\n\n%s", body);
	body[COMMIT_MAX_BODY - 2] = '\0';
	check_message("body across a four-byte character", msg, "Subject",
	    body);
	free(msg);
	free(body);
	/* a body of exactly the cap is kept whole */
	body = repeat("b", COMMIT_MAX_BODY - 4, FOUR);
	xasprintf(&msg, "Subject\n\n%s", body);
	check_message("body at the cap", msg, "Subject", body);
	free(msg);
	free(body);

	/* 2 MB of lines: the body is cut after its last whole word */
	body = repeat("A line of the body.\n", 100000, "");
	xasprintf(&msg, "Subject\n\n%s", body);
	/* 819 lines are 16380 bytes; the next has a blank at 16381 */
	s = repeat("A line of the body.\n", COMMIT_MAX_BODY / 20, "A");
	check_message("2 MB body", msg, "Subject", s);
	free(s);
	free(msg);
	free(body);
	/* 2 MB on the subject line, then a body */
	subject = repeat("0123456789abcdef", 131072, "");
	xasprintf(&msg, "%s\n\nbody", subject);
	subject[COMMIT_MAX_SUBJECT] = '\0';
	check_message("2 MB subject", msg, subject, "body");
	free(msg);
	free(subject);
}

/* A push id from hex and back: 40 hex digits or none. */
static void
test_record_push_id(void **state)
{
	static const struct {
		const char	*in;
		int		 rc;
		const char	*hex;	/* NULL: none */
	} cases[] = {
		{ "0123456789abcdef0123456789abcdef01234567", 0,
		    "0123456789abcdef0123456789abcdef01234567" },
		{ "0123456789ABCDEF0123456789abcdef01234567", 0,
		    "0123456789abcdef0123456789abcdef01234567" },
		{ "ffffffffffffffffffffffffffffffffffffffff", 0,
		    "ffffffffffffffffffffffffffffffffffffffff" },
		{ "0000000000000000000000000000000000000000", 0, NULL },
		{ NULL, -1, NULL },
		{ "", -1, NULL },
		{ "0123456789abcdef0123456789abcdef0123456", -1, NULL },
		{ "0123456789abcdef0123456789abcdef012345678", -1, NULL },
		{ "0123456789abcdef0123456789abcdef0123456x", -1, NULL },
		{ "x123456789abcdef0123456789abcdef01234567", -1, NULL },
		{ " 123456789abcdef0123456789abcdef01234567", -1, NULL },
	};
	uint8_t	id[PUSH_ID_LEN];
	char	hex[PUSH_HEX_LEN + 1];
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(id, 0xee, sizeof(id));	/* none is set, not left */
		if (push_id_set(id, cases[i].in) != cases[i].rc)
			fail_msg("case %zu: not %d", i, cases[i].rc);
		push_id_hex(id, hex);
		assert_string_equal(hex, cases[i].hex != NULL ? cases[i].hex :
		    "0000000000000000000000000000000000000000");
		assert_int_equal(push_id_none(id), cases[i].hex == NULL);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_cut),
		cmocka_unit_test(test_record_message_caps),
		cmocka_unit_test(test_record_push_id),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
