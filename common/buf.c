/* Growable NUL-terminated byte buffer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "utf8.h"
#include "xmalloc.h"

void
buf_init(struct buf *b)
{
	b->data = NULL;
	b->len = b->cap = 0;
}

void
buf_free(struct buf *b)
{
	free(b->data);
	buf_init(b);
}

void
buf_reset(struct buf *b)
{
	b->len = 0;
	if (b->data != NULL)
		b->data[0] = '\0';
}

void
buf_truncate(struct buf *b, size_t len)
{
	if (len >= b->len)
		return;
	b->len = len;
	b->data[len] = '\0';
}

static void
buf_grow(struct buf *b, size_t more)
{
	size_t	need = b->len + more + 1, cap;

	if (need <= b->cap)
		return;
	cap = b->cap ? b->cap : 64;
	while (cap < need)
		cap *= 2;
	b->data = xrealloc(b->data, cap);
	b->cap = cap;
}

void
buf_reserve(struct buf *b, size_t more)
{
	buf_grow(b, more);
}

void
buf_append(struct buf *b, const char *s, size_t n)
{
	buf_grow(b, n);
	if (n > 0)
		memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void
buf_puts(struct buf *b, const char *s)
{
	buf_append(b, s, strlen(s));
}

void
buf_putc_grow(struct buf *b, char c)
{
	buf_append(b, &c, 1);
}

void
buf_vprintf(struct buf *b, const char *fmt, va_list ap)
{
	va_list	ap2;
	size_t	room;
	int	n;

	/*
	 * Formatted once into the room there is (at least 64 bytes, the
	 * common case fits), twice only when it did not fit.
	 */
	buf_grow(b, 63);
	room = b->cap - b->len;
	va_copy(ap2, ap);
	n = vsnprintf(b->data + b->len, room, fmt, ap2);
	va_end(ap2);
	if (n < 0) {
		b->data[b->len] = '\0';
		return;
	}
	if ((size_t)n >= room) {
		buf_grow(b, (size_t)n);
		vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	}
	b->len += (size_t)n;
}

void
buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	buf_vprintf(b, fmt, ap);
	va_end(ap);
}

void
buf_json_string(struct buf *b, const char *s)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 n, i = 0, l;

	if (s == NULL) {
		buf_puts(b, "null");
		return;
	}
	n = strlen(s);
	buf_putc(b, '"');
	while (i < n) {
		if (p[i] == '"' || p[i] == '\\') {
			buf_putc(b, '\\');
			buf_putc(b, (char)p[i++]);
		} else if (p[i] == '\n') {
			buf_puts(b, "\\n");
			i++;
		} else if (p[i] < 0x20 || p[i] == 0x7f) {
			buf_printf(b, "\\u%04x", p[i++]);
		} else if ((l = utf8_seq_len(p + i, n - i)) == 0) {
			buf_puts(b, "\\ufffd");
			i++;
		} else {
			buf_append(b, s + i, l);
			i += l;
		}
	}
	buf_putc(b, '"');
}

const char *
buf_str(const struct buf *b)
{
	return b->data != NULL ? b->data : "";
}

char *
buf_steal(struct buf *b)
{
	char	*s = b->data != NULL ? b->data : xstrdup("");

	buf_init(b);
	return s;
}
