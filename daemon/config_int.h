/*
 * Inside the configuration, shared by its files and by no one else
 * (config.h is the interface): the key table's types, and what each file
 * lends the others.
 *   config.c         the key table, setting a key, defaults, flags,
 *                    load and reload, clearing, and the queries
 *   config_file.c    the INI file: its lines, sections and keys
 *   config_secret.c  credential files: secrets, tokens, model keys
 *   config_check.c   what is worked out and checked once every key is
 *                    read (config_finish), and where causes point
 *   config_print.c   --help, --print-config, and what a reload logs
 *   config_show.c    [show "NAME"] sections: their keys, globs, checks,
 *                    printing, and the queries of config.h
 */
#ifndef HOOKCAST_CONFIG_INT_H
#define HOOKCAST_CONFIG_INT_H

#include <stdio.h>

#include "config.h"

enum config_type {
	CONFIG_STRING,
	CONFIG_LIST,
	CONFIG_INT,
	CONFIG_BOOL,
	CONFIG_SIZE,
	CONFIG_TIME_OF_DAY,
	CONFIG_LOG_LEVEL,
	CONFIG_PACE,
	CONFIG_ENUM,		/* one keyword of a table, stored as an int */
	CONFIG_URL,		/* a string that is an http:// or https:// URL */
};

/* One keyword of a CONFIG_ENUM key and the value it stands for. */
struct config_enum {
	const char	*name;
	int		 value;
};

struct config_key {
	const char	*name;
	enum config_type type;
	size_t		 offset;
	const char	*def;		/* embedded default, or NULL */
	long long	 min, max;	/* bounds for numbers */
	const struct config_enum *enums; /* CONFIG_ENUM: ends with NULL name */
	int		 reloadable;
	const char	*help;
};

/*
 * Shortest webhook secret, in bytes. A secret is the only thing that
 * tells GitHub's deliveries from anyone's; a short one can be guessed
 * offline from a single signed delivery. 16 bytes refuses the words and
 * placeholders people type ("secret", "changeme") while taking any
 * generated secret (openssl rand -hex 16 is 32 bytes); we recommend 32
 * random bytes, as scripts/install writes.
 */
#define CONFIG_SECRET_MIN	16
/* Largest secret, token or key file read. */
#define CONFIG_PRIVATE_MAX	(64 * 1024)

/* config.c */
/* The table of keys, one row per key, in --help's order. */
extern const struct config_key config_keys[];
extern const size_t config_nkeys;
/* Keys a [repo "owner/name"] section may set besides show and branches. */
extern const char *const config_repo_keys[];
extern const size_t config_nrepo_keys;
/* The row of the key called name, or NULL. */
const struct config_key *config_find_key(const char *name);
/* The key whose name name is likely a typo of, or NULL. Static. */
const char *config_suggest_key(const char *name);
/* Is s an absolute http(s) URL with a host, with no space or control byte? */
int	 config_url_ok(const char *s);
/* A boolean's value (true, yes, on, 1 / false, no, off, 0): 0, or -1. */
int	 config_parse_bool(const char *, int *);
/* Set one key from a string; on error return a new cause (without where). */
char	*config_set(struct config *, const struct config_key *,
	    const char *value);
/* Note where k was set ("file:line" or "--flag"), for causes and printing. */
void	 config_set_origin(struct config *, const struct config_key *,
	    const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* config_file.c */
/*
 * Read the INI file at path into conf; its errors go to causes. -1 when
 * it could not be opened, else 0.
 */
int	 config_read_file(struct config *, const char *path,
	    struct config_causes *);
/* The [repo] section of name, added when there is none. Borrowed. */
struct repo_conf *config_repo(struct config *, const char *name);

/* config_secret.c */
/* A credential beside the config file (--check-config). New, or NULL. */
char	*config_beside(const struct config *, const char *name);
/*
 * Resolve the files the configuration names as systemd credentials
 * (%d/NAME or credential:NAME) against $CREDENTIALS_DIRECTORY, in place:
 * the credential keys' (secret_file, github_token_file, tls_cert,
 * tls_key, llm_key_file, the sinks' secret_file and token_file), before
 * any is read. Flags: config_load_flags's.
 */
void	 config_credentials(struct config *, int flags,
	    struct config_causes *);
/* Open a credential file once it is found private; NULL with a cause. */
FILE	*config_open_private(struct config *, const char *key,
	    const char *path, struct config_causes *);
/* Read the webhook secrets (flags: config_load_flags's). */
void	 config_webhook_secrets(struct config *, int flags,
	    struct config_causes *);
/* Read a token file's first line into conf->github_token. */
void	 config_read_token(struct config *, const char *key,
	    const char *path, int optional, struct config_causes *);
/* Read the model's keys, global and per repository. */
void	 config_llm_keys(struct config *, struct config_causes *);

/* config_check.c */
/* Fill what depends on the environment and the other keys, and check. */
void	 config_finish(struct config *, int flags, struct config_causes *);
/* Prefix the causes from from on with where their key was set. */
void	 config_place_causes(const struct config *, struct config_causes *,
	    size_t from);
/* Sort the causes from from on by the line of the file they name. */
void	 config_sort_causes(const struct config *, struct config_causes *,
	    size_t from);
/* "file:line: key" or "--flag (key)", where key was set; new. */
char	*config_where(const struct config *, const char *key);
/* Is s plausibly an email address (local@domain, printable, no space)? */
int	 config_email_ok(const char *s);
/* Do two URLs have one origin (scheme, host, port)? */
int	 config_same_origin(const char *a, const char *b);
/* Warn when a model key would go to url over plain http off this host. */
void	 config_llm_warn_plain(const char *where, const char *url);

/* config_print.c */
/* Warn of each key a reload leaves as it runs until the next start. */
void	 config_log_restart_only(const struct config *running,
	    const struct config *next);
/* A key's value as --print-config and the file spell it, appended to b. */
struct buf;
void	 config_value_string(const struct config *,
	    const struct config_key *, struct buf *b);

/* config_show.c */
/* Keys a [show "NAME"] section may set besides repositories. */
extern const char *const config_show_keys[];
extern const size_t config_nshow_keys;
/*
 * The show called name, added when there is none, its section at
 * path:line (its name and slug checked then, against the other shows').
 * Borrowed.
 */
struct show_conf *config_show_get(struct config *, const char *name,
	    const char *path, int line, struct config_causes *);
/* One key of a [show "NAME"] section, at path:line. */
void	 config_show_key(struct config *, struct show_conf *,
	    const char *name, const char *value, const char *path, int line,
	    struct config_causes *);
/* Free what a show owns. */
void	 config_show_clear(struct show_conf *);
/* Where show s sets key ("file:line"), or NULL when it doesn't. */
const char *config_show_origin(const struct show_conf *, const char *key);
/* Does the glob a match every repository the glob b can? */
int	 config_show_glob_covers(const char *a, const char *b);
/* The shows once every key is read: causes, and warnings logged. */
void	 config_show_finish(struct config *, int flags,
	    struct config_causes *);
/* The [show] sections for --print-config. */
void	 config_show_print(const struct config *, FILE *);
/* Log what a reload changed of the shows and own_episodes; 1 if any. */
int	 config_show_log_changes(const struct config *old,
	    const struct config *new);

#endif
