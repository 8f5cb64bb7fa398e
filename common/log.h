/*
 * Logging to stderr with sd-daemon priority prefixes ("<3>message"), no
 * timestamp or pid: journald adds them. Strings that come from payloads
 * must go through log_escape() so a newline can't forge a line.
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

void	 log_set_level(enum log_level);
enum log_level log_get_level(void);
/* "error", "warning", "notice", "info", "debug" -> level; -1 if unknown. */
int	 log_level_parse(const char *);
const char *log_level_name(enum log_level);

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
 * Escape an outside string for a log line: control characters, backslash
 * and non-UTF-8 bytes as \xNN, at most max bytes of input (then "...").
 * Returns a new string.
 */
char	*log_escape(const char *, size_t max);

#endif
