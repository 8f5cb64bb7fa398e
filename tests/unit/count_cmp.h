/*
 * Operation counting for scaling tests (issue #9, finding 4): the test
 * program that includes this header (once) defines the string and memory
 * comparisons itself, so every call the libraries make to strcmp,
 * strcasecmp, strncmp, strncasecmp or memcmp lands here and is counted.
 * Comparisons are where the drafter's quadratic steps spent their time
 * (a key looked up among all keys so far); counting them tells linear
 * from quadratic without timing anything: doubling n must roughly double
 * the count, where a quadratic step quadruples it.
 *
 * Behaviour is the C locale's, which is the daemon's (it never calls
 * setlocale). Calls the compiler expands inline (constant short strings)
 * are not counted; the loops over a day's keys never compare constants.
 */
#ifndef HOOKCAST_COUNT_CMP_H
#define HOOKCAST_COUNT_CMP_H

#include <stdatomic.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

/* (the drafter classifies in threads: counted from each) */
static _Atomic unsigned long long count_cmp_n;

static int
count_cmp_lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

int
strcmp(const char *a, const char *b)
{
	const unsigned char *x = (const unsigned char *)a;
	const unsigned char *y = (const unsigned char *)b;

	atomic_fetch_add_explicit(&count_cmp_n, 1, memory_order_relaxed);
	while (*x != '\0' && *x == *y) {
		x++;
		y++;
	}
	return (int)*x - (int)*y;
}

int
strncmp(const char *a, const char *b, size_t n)
{
	const unsigned char *x = (const unsigned char *)a;
	const unsigned char *y = (const unsigned char *)b;

	atomic_fetch_add_explicit(&count_cmp_n, 1, memory_order_relaxed);
	for (; n > 0; n--, x++, y++) {
		if (*x != *y || *x == '\0')
			return (int)*x - (int)*y;
	}
	return 0;
}

int
strcasecmp(const char *a, const char *b)
{
	const unsigned char *x = (const unsigned char *)a;
	const unsigned char *y = (const unsigned char *)b;

	atomic_fetch_add_explicit(&count_cmp_n, 1, memory_order_relaxed);
	while (*x != '\0' && count_cmp_lower(*x) == count_cmp_lower(*y)) {
		x++;
		y++;
	}
	return count_cmp_lower(*x) - count_cmp_lower(*y);
}

int
strncasecmp(const char *a, const char *b, size_t n)
{
	const unsigned char *x = (const unsigned char *)a;
	const unsigned char *y = (const unsigned char *)b;

	atomic_fetch_add_explicit(&count_cmp_n, 1, memory_order_relaxed);
	for (; n > 0; n--, x++, y++) {
		if (count_cmp_lower(*x) != count_cmp_lower(*y) || *x == '\0')
			return count_cmp_lower(*x) - count_cmp_lower(*y);
	}
	return 0;
}

int
memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	atomic_fetch_add_explicit(&count_cmp_n, 1, memory_order_relaxed);
	for (; n > 0; n--, x++, y++) {
		if (*x != *y)
			return (int)*x - (int)*y;
	}
	return 0;
}

/* Comparisons made so far. */
static inline unsigned long long
count_cmp(void)
{
	return count_cmp_n;
}

#endif
