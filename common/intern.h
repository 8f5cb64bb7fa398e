/*
 * A table of distinct strings, each kept once: a day's branch names and
 * pushers, which its pushes share (a day of 100,000 pushes to main by a
 * few people keeps "main" once). Strings are never removed one by one:
 * the owner empties the table when nothing points into it any more.
 * Plain functions over a plain struct.
 */
#ifndef HOOKCAST_INTERN_H
#define HOOKCAST_INTERN_H

#include <stddef.h>
#include <stdint.h>

struct intern {
	char		**v;		/* the strings, in the order added */
	size_t		  n;
	size_t		  cap;
	uint32_t	 *index;	/* open addressing: place + 1, 0 empty */
	size_t		  index_cap;	/* 0 or a power of two */
	size_t		  bytes;	/* intern_add's estimate, all strings */
};

/*
 * The table's copy of s, made if s is new: borrowed, valid until
 * intern_clear, and shared, so never to be changed or freed. NULL for
 * NULL, and on allocation failure (the table is as it was). An all-zero
 * struct intern is an empty table.
 */
char		*intern_add(struct intern *, const char *s);
/*
 * What a string costs the table, counted in ->bytes as a record counts
 * its strings (record.h): its bytes, its NUL and RECORD_ALLOC_OVERHEAD.
 */
size_t		 intern_str_bytes(const char *s);
/* Free every string and the table's arrays; the table is empty again. */
void		 intern_clear(struct intern *);

#endif
