/* UTF-8 as outside text may hold it: any bytes at all. */
#ifndef HOOKCAST_UTF8_H
#define HOOKCAST_UTF8_H

#include <stddef.h>

/*
 * Length of the well-formed UTF-8 sequence at s (at most n bytes, n > 0):
 * 1..4, or 0 when it is not one (a stray continuation byte, an overlong
 * form, a surrogate, a code point past U+10FFFF, a sequence cut short).
 */
size_t	 utf8_seq_len(const unsigned char *s, size_t n);
/* Is the whole of s (n bytes) well-formed UTF-8 without NUL? */
int	 utf8_valid(const char *s, size_t n);
/* The value of a hex digit (either case), or -1. */
int	 hex_digit(char c);

#endif
