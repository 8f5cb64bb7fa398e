/*
 * jscan: a validating, pull-style JSON scanner over a buffer. It hands
 * out one token at a time and allocates nothing: strings come back as
 * slices of the input (jscan_string_dup unescapes one when it is kept).
 *
 * It accepts what jansson's json_loadb(..., JSON_REJECT_DUPLICATES, ...)
 * accepts, with these differences:
 * - nesting is capped at JSCAN_MAX_DEPTH containers (jansson: 2048);
 * - it does not see duplicate keys: a caller that reads an object checks
 *   the keys it is given (push_scan does, for every object it reads); in
 *   values skipped with jscan_skip duplicates go unnoticed, as noticing
 *   would need memory in proportion to the object;
 * - a number with a fraction or exponent longer than JSCAN_MAX_NUMBER
 *   bytes is refused (jansson takes it unless it overflows a double).
 * Like jansson (2.14), it skips one NUL byte right after a number, true,
 * false or null (jansson's lexer loses it when it puts it back).
 * Everything else follows RFC 8259 and jansson: UTF-8 is validated
 * (overlong forms, surrogates and code points past U+10FFFF refused), a
 * \u escape must not be a lone surrogate or U+0000, integers must fit a
 * long long and other numbers a double, and nothing but whitespace may
 * follow the top-level value (which may be any value; jansson's caller
 * asks for an object or an array).
 */
#ifndef HOOKCAST_JSCAN_H
#define HOOKCAST_JSCAN_H

#include <stddef.h>

#define JSCAN_MAX_DEPTH		64
#define JSCAN_MAX_NUMBER	1023

enum jscan_tok {
	JSCAN_ERROR = -1,
	JSCAN_END = 0,		/* the top-level value is over */
	JSCAN_OBJECT,
	JSCAN_OBJECT_END,
	JSCAN_ARRAY,
	JSCAN_ARRAY_END,
	JSCAN_KEY,
	JSCAN_STRING,
	JSCAN_NUMBER,
	JSCAN_TRUE,
	JSCAN_FALSE,
	JSCAN_NULL
};

struct jscan {
	const char	*buf;
	size_t		 len;
	size_t		 pos;		/* next byte to read */
	size_t		 tok;		/* offset of the last token */
	/* KEY and STRING: the bytes between the quotes; NUMBER: the token */
	const char	*str;
	size_t		 slen;
	int		 esc;		/* str holds backslash escapes */
	int		 depth;		/* containers open */
	int		 state;
	const char	*error;		/* on JSCAN_ERROR: why (static) */
	size_t		 errpos;	/* and where */
	unsigned char	 stack[JSCAN_MAX_DEPTH];
};

/* Start scanning buf (len bytes, borrowed for the scanner's life). */
void		 jscan_init(struct jscan *, const char *buf, size_t len);
/*
 * The next token. After JSCAN_ERROR every call returns JSCAN_ERROR again;
 * after JSCAN_END, JSCAN_END.
 */
enum jscan_tok	 jscan_next(struct jscan *);
/* Skip the next value whole, validating it. 0 or -1 (a syntax error). */
int		 jscan_skip(struct jscan *);
/*
 * The rest of a value whose first token t was just read: a container is
 * skipped to its end (validated), a scalar is done. 0, or -1 when t is an
 * error or no value's start.
 */
int		 jscan_finish(struct jscan *, enum jscan_tok t);
/*
 * Skip to the end of the innermost open object or array, consuming its
 * closing token. 0 or -1.
 */
int		 jscan_close(struct jscan *);
/* The 1-based line and byte column of the error. */
void		 jscan_where(const struct jscan *, int *line, int *column);
/*
 * Unescape a KEY or STRING slice as jscan returned it into a new
 * NUL-terminated UTF-8 string (the caller frees it), its length in *len
 * when len is not NULL. NULL on a bad escape (jscan already refuses those).
 */
char		*jscan_string_dup(const char *s, size_t n, size_t *len);
/*
 * The same into out, which has room for n + 1 bytes (an escape never
 * unescapes to more than it takes): the length, or (size_t)-1 on a bad
 * escape.
 */
size_t		 jscan_unescape(const char *s, size_t n, char *out);

#endif
