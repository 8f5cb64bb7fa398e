/*
 * The environment of the programs the daemon runs: exec sinks, the
 * tts_command and the encoders. It is built from an allow-list, never
 * passed on: the daemon's own holds what systemd gives it alone
 * (NOTIFY_SOCKET, WATCHDOG_*, LISTEN_*, CREDENTIALS_DIRECTORY) and may
 * hold the webhook secret ($HOOKCAST_SECRET). Every exec of the daemon
 * and of the drafting process goes through childenv_vector.
 */
#ifndef HOOKCAST_CHILDENV_H
#define HOOKCAST_CHILDENV_H

#include <stddef.h>

/* A child's environment: "NAME=value" strings, owned. */
struct childenv {
	char	**v;
	size_t	  n;
};

/* The daemon's variables of the allow-list (PATH, HOME, LANG, LC_ALL, TZ,
 * TMPDIR), and nothing else. */
void		 childenv_init(struct childenv *);
/* Set a HOOKCAST_* variable to value (copied); other names are refused
 * (a broken invariant: fatal). */
void		 childenv_set(struct childenv *, const char *name,
		    const char *value);
/* The NULL-terminated vector for execve (borrowed from the childenv). */
char *const	*childenv_vector(const struct childenv *);
void		 childenv_clear(struct childenv *);

/*
 * Take $HOOKCAST_SECRET out of the process's environment: kept in memory
 * for the configuration's loads (childenv_secret), its bytes in the
 * environment block overwritten (so /proc/PID/environ no longer shows
 * it), then unset. Call before anything reads it but after nothing else
 * needs the environment as given.
 */
void		 childenv_take_secret(void);
/*
 * $HOOKCAST_SECRET as the daemon was started with it (borrowed), or NULL:
 * what childenv_take_secret kept, else the environment's.
 */
const char	*childenv_secret(void);

#endif
