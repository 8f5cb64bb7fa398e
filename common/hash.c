/* FNV-1a over a NUL-terminated string, or n bytes. */
#include "hash.h"

#define HASH_OFFSET	0xcbf29ce484222325ULL
#define HASH_PRIME	0x100000001b3ULL

uint64_t
hash_str(const char *s)
{
	uint64_t	h = HASH_OFFSET;

	for (; *s != '\0'; s++) {
		h ^= (unsigned char)*s;
		h *= HASH_PRIME;
	}
	return h;
}

uint64_t
hash_str_lower(const char *s)
{
	uint64_t	h = HASH_OFFSET;
	unsigned char	c;

	for (; *s != '\0'; s++) {
		c = (unsigned char)*s;
		h ^= c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
		h *= HASH_PRIME;
	}
	return h;
}

uint64_t
hash_mem(const void *p, size_t n)
{
	const unsigned char	*b = p;
	uint64_t		 h = HASH_OFFSET;

	while (n-- > 0) {
		h ^= *b++;
		h *= HASH_PRIME;
	}
	return h;
}
