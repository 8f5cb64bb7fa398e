/* The one string hash of the project's hash tables (FNV-1a, 64-bit). */
#ifndef HOOKCAST_HASH_H
#define HOOKCAST_HASH_H

#include <stddef.h>
#include <stdint.h>

/* FNV-1a of s. */
uint64_t	 hash_str(const char *s);
/* FNV-1a of the n bytes at p: hash_str of a string is hash_mem of its bytes. */
uint64_t	 hash_mem(const void *p, size_t n);
/* FNV-1a of s in ASCII lower case, for keys that match in any case. */
uint64_t	 hash_str_lower(const char *s);

#endif
