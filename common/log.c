/* Logging to stderr: sd-daemon priority prefixes, or a time and a level. */
#include <sys/stat.h>

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "log.h"
#include "utf8.h"

static enum log_level log_level = LOG_LEVEL_INFO;

/*
 * Lines held back (log_defer): the info and debug lines of the thread
 * that asked, written together when arm's event runs, before anything
 * more urgent, before a fork and at exit.
 */
#define LOG_HELD_MAX	65536
static struct buf	 log_held;
static void		(*log_held_arm)(void);
static pthread_t	 log_held_thread;
static enum log_format log_format = LOG_FORMAT_AUTO;
static enum log_style log_style = LOG_STYLE_TEXT;

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

void
log_set_format(enum log_format format)
{
	log_format = format;
}

void
log_set_style(enum log_style style)
{
	log_style = style;
}

void
log_logfmt_value(struct buf *b, const char *s)
{
	const unsigned char	*p;
	int			 bare = *s != '\0';

	for (p = (const unsigned char *)s; *p != '\0' && bare; p++)
		bare = *p > 0x20 && *p < 0x7f && *p != '=' && *p != '"' &&
		    *p != '\\';
	if (bare) {
		buf_puts(b, s);
		return;
	}
	buf_putc(b, '"');
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\') {
			buf_putc(b, '\\');
			buf_putc(b, (char)*p);
		} else if (*p < 0x20 || *p == 0x7f)
			buf_printf(b, "\\x%02x", *p);
		else
			buf_putc(b, (char)*p);
	}
	buf_putc(b, '"');
}

/*
 * Is stderr the journal? systemd sets JOURNAL_STREAM to the device and
 * inode of the stream it connects to stderr; comparing them with stderr's
 * own (as sd-daemon(3) advises) keeps a child or a redirection that only
 * inherited the variable from writing prefixes to a terminal or a file.
 */
static int
log_stderr_is_journal(void)
{
	const char		*v = getenv("JOURNAL_STREAM");
	struct stat		 st;
	unsigned long long	 dev, ino;
	char			 end;

	if (v == NULL || sscanf(v, "%llu:%llu%c", &dev, &ino, &end) != 2)
		return 0;
	if (fstat(STDERR_FILENO, &st) == -1)
		return 0;
	return (unsigned long long)st.st_dev == dev &&
	    (unsigned long long)st.st_ino == ino;
}

/* Now in UTC to the millisecond: "2026-06-01T10:00:00.123Z". */
static void
log_time(char *out, size_t size)
{
	struct timespec	ts;
	struct tm	tm;
	char		when[32];

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(out, size, "%s.%03dZ", when,
	    (int)(ts.tv_nsec / 1000000) % 1000);
}

/*
 * Start a line: "<N>" for the journal, which adds the time and keeps the
 * priority; else the UTC time to the millisecond and the level's name,
 * which nothing else would add on a terminal or in a file.
 */
static void
log_prefix_text(char *out, size_t size, int priority, const char *name)
{
	char	when[40];

	if (log_format == LOG_FORMAT_AUTO)
		log_format = log_stderr_is_journal() ? LOG_FORMAT_JOURNAL :
		    LOG_FORMAT_PLAIN;
	if (log_format == LOG_FORMAT_JOURNAL) {
		snprintf(out, size, "<%d>", priority);
		return;
	}
	log_time(when, sizeof(when));
	snprintf(out, size, "%s %s: ", when, name);
}

static void
log_prefix(struct buf *line, enum log_level level)
{
	char	prefix[64];

	log_prefix_text(prefix, sizeof(prefix), (int)level,
	    log_level_name(level));
	buf_puts(line, prefix);
}

/*
 * Out of memory: one line at the critical priority, in the format of the
 * others, written from the stack (nothing may be allocated now).
 */
void
log_oom(const char *what, size_t n)
{
	char	line[192];
	size_t	len;

	log_prefix_text(line, sizeof(line), 2, "critical");
	len = strlen(line);
	snprintf(line + len, sizeof(line) - len,
	    "%s: out of memory allocating %zu bytes\n", what, n);
	len = strlen(line);
	if (len > 0 && line[len - 1] != '\n')
		line[len - 1] = '\n';
	if (write(STDERR_FILENO, line, len) == -1)
		return;		/* nowhere left to say it */
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

/*
 * Longest message a line carries, escaped: a payload string that reached a
 * call site unbounded still can't make a line journald splits or a client
 * chokes on.
 */
#define LOG_MSG_MAX	4096

/*
 * Append s (n bytes) to b with what a log line must not carry written as
 * \xNN: C0 controls (newline among them), DEL, C1 controls (U+0080 to
 * U+009F, which some terminals obey like ESC) and every byte that is not
 * part of a UTF-8 character; backslash too if backslash is set. Stops
 * before an input character that would take more than inmax input bytes
 * or more than outmax bytes appended; a character is never cut in two.
 * Returns the input bytes consumed (n if all).
 */
static size_t
log_clean(struct buf *b, const unsigned char *s, size_t n, size_t inmax,
    size_t outmax, int backslash)
{
	size_t	i = 0, j, ulen, start = b->len, lim;
	int	esc;

	while (i < n) {
		/* a run of printable ASCII, the bulk of a line, at once */
		for (j = i; j < n && s[j] >= 0x20 && s[j] < 0x7f &&
		    !(backslash && s[j] == '\\'); j++)
			;
		if (j > i) {
			lim = j < inmax ? j : inmax > i ? inmax : i;
			if (lim - i > outmax - (b->len - start))
				lim = i + (outmax - (b->len - start));
			buf_append(b, (const char *)s + i, lim - i);
			if (lim < j)
				return lim;
			i = j;
			continue;
		}
		ulen = utf8_seq_len(s + i, n - i);
		if (ulen == 0) {
			esc = 1;
			ulen = 1;
		} else if (ulen == 1)
			esc = s[i] < 0x20 || s[i] == 0x7f ||
			    (backslash && s[i] == '\\');
		else
			esc = ulen == 2 && s[i] == 0xc2 && s[i + 1] < 0xa0;
		if (i + ulen > inmax ||
		    b->len - start + (esc ? 4 * ulen : ulen) > outmax)
			break;
		if (esc) {
			for (j = 0; j < ulen; j++)
				buf_printf(b, "\\x%02x", s[i + j]);
		} else
			buf_append(b, (const char *)s + i, ulen);
		i += ulen;
	}
	return i;
}

/*
 * A logfmt or JSON line of a message (without its newline): the time,
 * the level and the message cleaned as a text line's is, as msg. Under
 * the journal it starts with "<N>" too.
 */
static void
log_structured(struct buf *line, enum log_level level, struct buf *msg)
{
	struct buf	clean;
	char		when[40], prefix[64];

	log_prefix_text(prefix, sizeof(prefix), (int)level, "");
	if (log_format == LOG_FORMAT_JOURNAL)
		buf_puts(line, prefix);
	buf_init(&clean);
	if (log_clean(&clean, (const unsigned char *)buf_str(msg), msg->len,
	    SIZE_MAX, LOG_MSG_MAX, 0) < msg->len)
		buf_puts(&clean, "...");
	log_time(when, sizeof(when));
	if (log_style == LOG_STYLE_JSON) {
		buf_printf(line, "{\"time\":\"%s\",\"level\":\"%s\","
		    "\"msg\":", when, log_level_name(level));
		buf_json_string(line, buf_str(&clean));
		buf_putc(line, '}');
	} else {
		buf_printf(line, "time=%s level=%s msg=", when,
		    log_level_name(level));
		log_logfmt_value(line, buf_str(&clean));
	}
	buf_free(&clean);
}

/*
 * The message of every log function is cleaned here, after formatting, so
 * no argument can start a line of its own or reach a terminal as a control
 * sequence, whatever a call site passes. Backslashes are left alone: a
 * string escaped by log_escape() (backslash as \x5c, nothing else below
 * 0x20) passes through unchanged, not doubled.
 */
static void log_vwrite(enum log_level, const char *, const char *, va_list)
    __attribute__((format(printf, 3, 0)));

static void
log_vwrite(enum log_level level, const char *suffix, const char *fmt,
    va_list ap)
{
	struct buf	msg, line;

	if (level > log_level)
		return;
	buf_init(&msg);
	buf_reserve(&msg, 256);
	buf_vprintf(&msg, fmt, ap);
	if (suffix != NULL)
		buf_printf(&msg, ": %s", suffix);
	buf_init(&line);
	buf_reserve(&line, 320);
	if (log_style == LOG_STYLE_TEXT) {
		log_prefix(&line, level);
		if (log_clean(&line, (const unsigned char *)buf_str(&msg),
		    msg.len, SIZE_MAX, LOG_MSG_MAX, 0) < msg.len)
			buf_puts(&line, "...");
	} else
		log_structured(&line, level, &msg);
	buf_putc(&line, '\n');
	if (log_held_arm != NULL &&
	    pthread_equal(pthread_self(), log_held_thread)) {
		if (level >= LOG_LEVEL_INFO) {
			if (log_held.len == 0)
				log_held_arm();
			buf_append(&log_held, line.data, line.len);
			if (log_held.len >= LOG_HELD_MAX)
				log_flush();
			buf_free(&line);
			buf_free(&msg);
			return;
		}
		log_flush();	/* what was held comes first */
	}
	/* one write so concurrent writers can't interleave within a line */
	fwrite(line.data, 1, line.len, stderr);
	fflush(stderr);
	buf_free(&line);
	buf_free(&msg);
}

/*
 * strerror_r is the GNU one (returning the text, which need not be in buf)
 * under _GNU_SOURCE with glibc and the POSIX one (returning 0 or an error,
 * the text in buf) elsewhere: take the text from whichever this is.
 */
static const char *
log_strerror_gnu(char *ret, char *buf, int err)
{
	return ret != NULL ? ret : "unknown error";
}

static const char *
log_strerror_posix(int ret, char *buf, int err)
{
	if (ret != 0 || buf[0] == '\0')
		return "unknown error";
	return buf;
}

#define log_strerror(err, buf, len)					\
	_Generic(strerror_r((err), (buf), (len)),			\
	    char *: log_strerror_gnu,					\
	    default: log_strerror_posix)				\
	    (strerror_r((err), (buf), (len)), (buf), (err))

/* A message with the text of errno (kept as it was). */
static void log_verr(enum log_level, const char *, va_list)
    __attribute__((format(printf, 2, 0)));

static void
log_verr(enum log_level level, const char *fmt, va_list ap)
{
	char		 buf[256];
	const char	*err;
	int		 saved = errno;

	buf[0] = '\0';
	err = log_strerror(saved, buf, sizeof(buf));
	log_vwrite(level, err, fmt, ap);
	errno = saved;
}

void
log_warn(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_verr(LOG_LEVEL_WARNING, fmt, ap);
	va_end(ap);
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

LOG_FUNC(log_err, LOG_LEVEL_ERR)
LOG_FUNC(log_warnx, LOG_LEVEL_WARNING)
LOG_FUNC(log_notice, LOG_LEVEL_NOTICE)
LOG_FUNC(log_info, LOG_LEVEL_INFO)
LOG_FUNC(log_debug, LOG_LEVEL_DEBUG)

void
log_flush(void)
{
	if (log_held.len == 0)
		return;
	fwrite(log_held.data, 1, log_held.len, stderr);
	fflush(stderr);
	buf_reset(&log_held);
}

/* In a child of fork: its lines are written as they come. */
static void
log_forked(void)
{
	log_held_arm = NULL;
}

void
log_defer(void (*arm)(void))
{
	static int	registered;

	log_flush();
	if (arm != NULL && !registered) {
		/* a child must not inherit lines to write them twice */
		pthread_atfork(log_flush, NULL, log_forked);
		atexit(log_flush);
		registered = 1;
	}
	log_held_arm = arm;
	log_held_thread = pthread_self();
	if (arm == NULL)
		buf_free(&log_held);
}

void
fatal(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_verr(LOG_LEVEL_ERR, fmt, ap);
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

void
log_escape_append(struct buf *b, const char *in, size_t max)
{
	size_t	n;

	if (in == NULL) {
		buf_puts(b, "(null)");
		return;
	}
	n = strlen(in);
	if (log_clean(b, (const unsigned char *)in, n, max, SIZE_MAX, 1) < n)
		buf_puts(b, "...");
}

char *
log_escape(const char *in, size_t max)
{
	struct buf	b;

	buf_init(&b);
	log_escape_append(&b, in, max);
	return buf_steal(&b);
}
