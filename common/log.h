/*
 * Logging to stderr. When stderr is the journal (JOURNAL_STREAM names it),
 * with sd-daemon priority prefixes ("<3>message") and no timestamp or pid:
 * journald adds them. Elsewhere (a terminal, a file) with the UTC time and
 * the level's name: "2026-06-01T10:00:00.123Z error: message".
 *
 * Every message is cleaned once formatted: control characters (C0, DEL,
 * C1) and bytes that are not UTF-8 are written as \xNN and a message is
 * cut at 4 KiB ("..."), so no argument can forge a line or drive a
 * terminal, whatever a call site passes. Backslashes are left as they are,
 * so a raw outside string could still look like an escape; strings from
 * payloads and requests go through log_escape() as well, which bounds
 * their length and escapes backslashes, making them unambiguous.
 */
#ifndef HOOKCAST_LOG_H
#define HOOKCAST_LOG_H

#include <stddef.h>

enum log_level {
	LOG_LEVEL_ERR = 3,
	LOG_LEVEL_WARNING = 4,
	LOG_LEVEL_NOTICE = 5,
	LOG_LEVEL_INFO = 6,
	LOG_LEVEL_DEBUG = 7,
};

/* How lines start; AUTO decides at the first line (see log.c). */
enum log_format {
	LOG_FORMAT_AUTO,
	LOG_FORMAT_JOURNAL,	/* "<N>message" */
	LOG_FORMAT_PLAIN,	/* "TIME LEVEL: message" */
};

/*
 * What follows the start of a line (log_format): the message as it is;
 * logfmt, time=... level=... msg="..."; or JSON, {"time":...,"level":
 * ...,"msg":...}. The message stays one string (msg): the call sites
 * format their lines, they carry no fields of their own. Under the
 * journal the "<N>" prefix stays, so journald keeps the priority.
 */
enum log_style {
	LOG_STYLE_TEXT,
	LOG_STYLE_LOGFMT,
	LOG_STYLE_JSON,
};

void	 log_set_level(enum log_level);
void	 log_set_style(enum log_style);
/*
 * Append s as a logfmt value: as it is when it is a non-empty run of
 * printable ASCII other than space, '=', '"' and backslash; else in
 * double quotes, a quote and a backslash escaped by a backslash and a
 * control byte written as \xNN.
 */
struct buf;
void	 log_logfmt_value(struct buf *, const char *s);
void	 log_set_format(enum log_format);
enum log_level log_get_level(void);
/* "error", "warning", "notice", "info", "debug" -> level; -1 if unknown. */
int	 log_level_parse(const char *);
const char *log_level_name(enum log_level);

/* An error that is not fatal (start-up reports several, then exits). */
void	 log_err(const char *, ...) __attribute__((format(printf, 1, 2)));
/* Warning with ": strerror(errno)" appended. */
void	 log_warn(const char *, ...) __attribute__((format(printf, 1, 2)));
void	 log_warnx(const char *, ...) __attribute__((format(printf, 1, 2)));
void	 log_notice(const char *, ...) __attribute__((format(printf, 1, 2)));
void	 log_info(const char *, ...) __attribute__((format(printf, 1, 2)));
void	 log_debug(const char *, ...) __attribute__((format(printf, 1, 2)));
/* Error and exit(1): start-up and broken invariants only. */
void	 fatal(const char *, ...)
	    __attribute__((format(printf, 1, 2), noreturn));
void	 fatalx(const char *, ...)
	    __attribute__((format(printf, 1, 2), noreturn));

/*
 * Escape an outside string for a log line: what the writer escapes (control
 * characters and non-UTF-8 bytes) and backslash too, as \xNN, so the writer
 * passes the result unchanged; at most max bytes of input, never cutting a
 * character, then "..." if there was more. NULL gives "(null)". Returns a
 * new string.
 */
char	*log_escape(const char *, size_t max);
struct buf;
/* The same, appended to b. */
void	 log_escape_append(struct buf *b, const char *, size_t max);
/*
 * Hold this thread's info and debug lines back, to be written together
 * by log_flush: arm is called when the first line is held (to schedule
 * log_flush, say at the end of the event loop's turn). A notice or
 * worse first writes what is held, then itself; so do a fork and exit.
 * NULL stops holding (writing what is held).
 */
void	 log_defer(void (*arm)(void));
/* Write the lines held back, if any. */
void	 log_flush(void);
/* xmalloc's last words: a critical line written without allocating. */
void	 log_oom(const char *what, size_t n);

#endif
