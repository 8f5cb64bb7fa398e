/*
 * A growable byte buffer, always NUL-terminated. Used for rendering text
 * and building replies. Allocation failure is fatal (via xmalloc-style
 * helpers): these buffers hold our own output, not outside input, and
 * every outside size is capped before it reaches one.
 */
#ifndef HOOKCAST_BUF_H
#define HOOKCAST_BUF_H

#include <stdarg.h>
#include <stddef.h>

struct buf {
	char	*data;	/* NUL-terminated; NULL until the first append */
	size_t	 len;
	size_t	 cap;
};

void	 buf_init(struct buf *);
void	 buf_free(struct buf *);
void	 buf_reset(struct buf *);
/* Cut the contents back to their first len bytes (len <= b->len). */
void	 buf_truncate(struct buf *, size_t len);
/*
 * Room for more bytes after the contents (and the NUL): for writing at
 * b->data + b->len directly, then adding to b->len and putting the NUL.
 */
void	 buf_reserve(struct buf *, size_t more);
void	 buf_append(struct buf *, const char *, size_t);
void	 buf_puts(struct buf *, const char *);
/* One byte: inline while it fits, the common case of text loops. */
void	 buf_putc_grow(struct buf *, char);
static inline void
buf_putc(struct buf *b, char c)
{
	if (b->len + 1 < b->cap) {
		b->data[b->len++] = c;
		b->data[b->len] = '\0';
	} else
		buf_putc_grow(b, c);
}
void	 buf_printf(struct buf *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
void	 buf_vprintf(struct buf *, const char *, va_list)
	    __attribute__((format(printf, 2, 0)));
/*
 * Append s as a JSON string, quotes included. Any bytes may come in:
 * control characters are escaped and a byte that is not part of
 * well-formed UTF-8 becomes U+FFFD, so the output is always valid JSON.
 * NULL is written as null.
 */
void	 buf_json_string(struct buf *, const char *s);
/* The contents ("" when empty); borrowed. */
const char *buf_str(const struct buf *);
/* Take the contents as a new string (the buffer is left empty). */
char	*buf_steal(struct buf *);

#endif
