/* Logging to stderr with sd-daemon priority prefixes. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "log.h"

static enum log_level log_level = LOG_LEVEL_INFO;

static const char *const log_names[] = {
	[LOG_LEVEL_ERR] = "error",
	[LOG_LEVEL_WARNING] = "warning",
	[LOG_LEVEL_NOTICE] = "notice",
	[LOG_LEVEL_INFO] = "info",
	[LOG_LEVEL_DEBUG] = "debug",
};

void
log_set_level(enum log_level level)
{
	log_level = level;
}

enum log_level
log_get_level(void)
{
	return log_level;
}

int
log_level_parse(const char *s)
{
	int	i;

	for (i = LOG_LEVEL_ERR; i <= LOG_LEVEL_DEBUG; i++)
		if (strcmp(s, log_names[i]) == 0)
			return i;
	return -1;
}

const char *
log_level_name(enum log_level level)
{
	if (level < LOG_LEVEL_ERR || level > LOG_LEVEL_DEBUG)
		return "unknown";
	return log_names[level];
}

static void log_vwrite(enum log_level, const char *, const char *, va_list)
    __attribute__((format(printf, 3, 0)));

static void
log_vwrite(enum log_level level, const char *suffix, const char *fmt,
    va_list ap)
{
	struct buf	b;

	if (level > log_level)
		return;
	buf_init(&b);
	buf_printf(&b, "<%d>", (int)level);
	buf_vprintf(&b, fmt, ap);
	if (suffix != NULL)
		buf_printf(&b, ": %s", suffix);
	buf_putc(&b, '\n');
	/* one write so concurrent writers can't interleave within a line */
	fwrite(b.data, 1, b.len, stderr);
	fflush(stderr);
	buf_free(&b);
}

void
log_warn(const char *fmt, ...)
{
	va_list	ap;
	char	err[128];
	int	saved = errno;

	strerror_r(saved, err, sizeof(err));
	va_start(ap, fmt);
	log_vwrite(LOG_LEVEL_WARNING, err, fmt, ap);
	va_end(ap);
	errno = saved;
}

#define LOG_FUNC(name, level)					\
void								\
name(const char *fmt, ...)					\
{								\
	va_list	ap;						\
								\
	va_start(ap, fmt);					\
	log_vwrite(level, NULL, fmt, ap);			\
	va_end(ap);						\
}

LOG_FUNC(log_warnx, LOG_LEVEL_WARNING)
LOG_FUNC(log_notice, LOG_LEVEL_NOTICE)
LOG_FUNC(log_info, LOG_LEVEL_INFO)
LOG_FUNC(log_debug, LOG_LEVEL_DEBUG)

void
fatal(const char *fmt, ...)
{
	va_list	ap;
	char	err[128];

	strerror_r(errno, err, sizeof(err));
	va_start(ap, fmt);
	log_vwrite(LOG_LEVEL_ERR, err, fmt, ap);
	va_end(ap);
	exit(1);
}

void
fatalx(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_vwrite(LOG_LEVEL_ERR, NULL, fmt, ap);
	va_end(ap);
	exit(1);
}

/* Length of a valid UTF-8 sequence at s (at most n bytes), or 0. */
static size_t
log_utf8_len(const unsigned char *s, size_t n)
{
	size_t	len, i;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0 && s[0] >= 0xc2)
		len = 2;
	else if ((s[0] & 0xf0) == 0xe0)
		len = 3;
	else if ((s[0] & 0xf8) == 0xf0 && s[0] <= 0xf4)
		len = 4;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

char *
log_escape(const char *in, size_t max)
{
	const unsigned char	*s = (const unsigned char *)in;
	struct buf		 b;
	size_t			 n, i = 0, ulen;

	buf_init(&b);
	if (in == NULL) {
		buf_puts(&b, "(null)");
		return buf_steal(&b);
	}
	n = strlen(in);
	while (i < n && i < max) {
		if (s[i] < 0x20 || s[i] == 0x7f || s[i] == '\\') {
			buf_printf(&b, "\\x%02x", s[i]);
			i++;
		} else if ((ulen = log_utf8_len(s + i, n - i)) == 0) {
			buf_printf(&b, "\\x%02x", s[i]);
			i++;
		} else {
			buf_append(&b, in + i, ulen);
			i += ulen;
		}
	}
	if (i < n)
		buf_puts(&b, "...");
	return buf_steal(&b);
}
