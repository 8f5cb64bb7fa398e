/* The one string hash of the project's hash tables (FNV-1a, 64-bit). */
#ifndef HOOKCAST_HASH_H
#define HOOKCAST_HASH_H

#include <stdint.h>

/* FNV-1a of s. */
uint64_t	 hash_str(const char *s);
/* FNV-1a of s in ASCII lower case, for keys that match in any case. */
uint64_t	 hash_str_lower(const char *s);

#endif
