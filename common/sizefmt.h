/* Sizes said with units, as the configuration writes them ("64M"). */
#ifndef HOOKCAST_SIZEFMT_H
#define HOOKCAST_SIZEFMT_H

#include <stddef.h>

/* Enough for any long long with its unit. */
#define SIZEFMT_LEN	32

/*
 * Write bytes into s (len bytes, at least SIZEFMT_LEN) in the largest
 * of G, M and K (powers of 1024, as the configuration reads them) that
 * divides it exactly, so that it reads back as the same size ("64M",
 * "1536K"); in bytes ("1000 bytes") when none does. Returns s.
 */
char	*sizefmt(char *s, size_t len, long long bytes);

#endif
