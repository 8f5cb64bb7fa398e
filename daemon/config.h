/*
 * Configuration: embedded defaults, an INI file, then --key=value flags
 * (flags win). Every key is a row of one table (config.c). Errors are all
 * collected with file:line:key and reported together.
 */
#ifndef HOOKCAST_CONFIG_H
#define HOOKCAST_CONFIG_H

#include <stddef.h>

#include "audio.h"
#include "journal.h"
#include "llm.h"
#include "sink.h"
#include "strlist.h"

/* A scheduled day with no activity. */
enum quiet_days {
	QUIET_DAYS_SKIP,	/* no episode; the next day starts */
	QUIET_DAYS_EMIT,	/* a short episode saying so */
};

/* feed_locked: podcast:locked; auto is yes when an owner email is set. */
enum feed_locked {
	FEED_LOCKED_NO,
	FEED_LOCKED_YES,
	FEED_LOCKED_AUTO,
};

/* recap_weekday: a tm_wday (0 Sunday .. 6), or none. */
#define RECAP_WEEKDAY_NONE	(-1)

struct repo_conf {
	char		*name;		/* "owner/name" */
	char		*show;		/* NULL: derived from the name */
	struct strlist	 branches;	/* empty: the global setting */
	/* the model's rewrite: NULL or 0 for the global setting */
	char		*llm_url;
	char		*llm_model;
	char		*llm_key_file;
	int		 llm_timeout;
	char		*llm_key;	/* read from llm_key_file */
	char		*llm_key_where;	/* "file:line: llm_key_file" */
	int		 own_episodes;	/* 0: told only in its shows */
};

/*
 * A [show "NAME"] section: one daily episode of the day of every
 * repository its globs match (a repository may be in several shows).
 * Its own keys are set in own, a configuration blank but for them:
 * own->origins[k] is "file:line" for each key k of config_keys the
 * section sets and NULL for the others, which are the global ones.
 * config_show_settings gives the settings in effect.
 */
struct show_conf {
	char		*name;		/* as the section names it */
	char		*slug;		/* a-z0-9-: OUTPUT_DIR/shows/SLUG */
	char		*where;		/* "file:line" of the section */
	struct strlist	 repositories;	/* globs OWNER/NAME, as written */
	char		*repositories_where; /* "file:line", or NULL */
	struct config	*own;		/* the section's keys alone */
};

struct config {
	char		*file;		/* the file read, or NULL */
	struct strlist	 listen;	/* host:port, [v6]:port */
	char		*webhook_path;
	struct strlist	 secret_files;
	char		*state_dir;
	char		*output_dir;
	char		*control_socket;
	int		 emit_hour;
	int		 emit_minute;
	char		*timezone;
	struct strlist	 branches;	/* empty: the repository's default */
	int		 log_level;
	int		 insecure_no_signature;
	long long	 max_body;	/* bytes */
	long long	 max_header;	/* bytes */
	int		 read_timeout;	/* seconds for a whole request */
	int		 max_connections;
	int		 max_connections_per_peer;
	long long	 max_buffered_bodies; /* bytes, over all connections */
	int		 head_timeout;	/* seconds to send a head */
	int		 idle_timeout;	/* seconds kept alive without a request */
	double		 words_per_minute;
	enum journal_sync journal_fsync;
	char		*journal;	/* "file", or redis://HOST:PORT/DB */
	char		*redis_host;	/* from journal; NULL: the file */
	int		 redis_port;
	int		 redis_db;
	char		*redis_password_file;
	char		*redis_password; /* read from it */
	char		*redis_prefix;	/* of every key */
	int		 redis_replicas; /* WAIT for them */
	int		 redis_timeout;	/* ms */
	int		 redis_lease;	/* seconds */
	int		 redis_keep;	/* seconds told entries stay */
	char		*github_api_url;
	char		*github_token_file;
	struct strlist	 backfill_hooks; /* "owner/repo:hook_id" */
	char		*github_token;	/* read from github_token_file */
	enum quiet_days	 quiet_days;
	int		 recap_weekday;	/* tm_wday, or RECAP_WEEKDAY_NONE */
	int		 feed_items;	/* items kept in feed.xml */
	char		*public_url;	/* base URL of output_dir, for the feed */
	char		*tls_cert;	/* PEM chain: serve HTTPS when set */
	char		*tls_key;
	struct strlist	 repositories;	/* allow-list of globs; empty: all */
	int		 max_repositories;
	int		 max_seen;	/* deliveries remembered for dedup */
	int		 max_commits_per_day;	/* per repository */
	int		 max_deliveries_per_day; /* per repository */
	long long	 max_open_bytes;	/* bytes, all open days */
	int		 episode_retention_days; /* 0: keep every episode */
	long long	 min_free_space;	/* bytes; 0: no check */
	long long	 max_body_pull_request;	/* bytes */
	int		 control_idle_timeout;	/* seconds */
	int		 backfill_interval;	/* seconds between passes */
	int		 draft_timeout;		/* seconds a draft may take */
	char		*metrics_listen;	/* host:port, or NULL */
	int		 metrics_listen_default; /* not set: may be taken */
	struct strlist	 trusted_proxies;	/* IP addresses */
	int		 log_format;		/* LOG_STYLE_* */
	int		 metrics_public;	/* /metrics on listen too */
	/* the podcast feed's channel and serving output_dir */
	char		*feed_image;		/* URL, or NULL */
	char		*feed_owner_name;	/* or NULL */
	char		*feed_owner_email;	/* or NULL */
	char		*feed_category;
	int		 feed_locked;		/* FEED_LOCKED_* */
	int		 serve_episodes;	/* GET /episodes/... */
	/* the episode's audio (audio.c) */
	enum audio_mode	 audio;
	char		*tts_command;		/* run by /bin/sh -c; or NULL */
	int		 voice;			/* voice_names[voice] */
	int		 bookend_voice;		/* the same, or -1: voice */
	char		*section_sound;		/* a WAV between sections; or NULL */
	int		 audio_workers;		/* 0: one per CPU */
	enum audio_encoder audio_encoder;
	int		 audio_timeout;		/* seconds for one episode */
	/* the model's rewrite of the transcript (publish/llm.c) */
	char		*llm_url;		/* OpenAI-compatible; or NULL */
	char		*llm_model;
	char		*llm_key_file;
	int		 llm_timeout;		/* seconds */
	char		*llm_key;		/* read from llm_key_file */
	struct repo_conf *repos;
	size_t		 nrepos;
	struct sink_conf *sinks;
	size_t		 nsinks;
	struct show_conf *shows;	/* in the file's order */
	size_t		 nshows;
	int		 sink_retry_for;	/* seconds a publication is retried */
	int		 sink_retry_min;	/* seconds before the first retry */
	int		 sink_retry_max;	/* longest wait between two tries */
	int		 sink_connect_timeout;	/* seconds */
	int		 sink_timeout;		/* seconds for a whole attempt */

	/*
	 * where each key was set: "file:line" or "--flag"; a default that
	 * follows the environment names it ("$STATE_DIRECTORY/episodes");
	 * NULL: the embedded default
	 */
	char		**origins;

	/* loaded from secret_files (or the environment) by config_load */
	char		**secrets;
	size_t		 *secretlens;
	size_t		  nsecrets;
	/* where they came from, for --print-config (new; NULL: none read) */
	char		 *secret_from;
	/* every credential file opened (none may be under output_dir) */
	struct strlist	  credential_files;
	/* the systemd credentials named (credential:NAME, %d/NAME) */
	struct strlist	  credential_names;
};

/* Collected configuration errors. */
struct config_causes {
	char	**v;
	size_t	  n;
};

/*
 * Load the configuration: defaults, then the file named by --config (if
 * any), then the flags in argv (argv[0] skipped; flags that are not config
 * keys, such as --check-config, are left to the caller and skipped here
 * when listed in passthrough). Secrets are read at the end. Returns 0, or
 * -1 with the errors added to causes. conf is filled either way and must
 * be freed with config_clear().
 */
int	 config_load(struct config *conf, int argc, char **argv,
	    const char *const *passthrough, struct config_causes *causes);
/* config_load's flags. */
#define CONFIG_NO_SECRETS	0x1	/* read no secret, token or key file,
					 * nor the sinks (hookcast-draft) */
#define CONFIG_CHECK		0x2	/* --check-config outside the service:
					 * credentials not given are looked
					 * for beside the config file, where
					 * the unit loads them from */
#define CONFIG_AS_UNIT		0x4	/* with CONFIG_CHECK: each credential
					 * file as the unit's own user
					 * (DynamicUser=) would read it */
/*
 * config_load for a reload: the keys only a restart changes keep running's
 * values (and what follows from them, such as output_dir's default under
 * state_dir), with a warning for each the file changed.
 */
int	 config_reload(struct config *conf, const struct config *running,
	    int argc, char **argv, const char *const *passthrough,
	    struct config_causes *causes);
/*
 * Check the command line alone, as config_load reads it: each argument
 * a flag of a key (with its value) or one of passthrough. 0, or -1 with
 * a cause per unknown option (naming the closest flag when one is close),
 * stray argument or missing value: the caller's usage error.
 */
int	 config_check_flags(int argc, char **argv,
	    const char *const *passthrough, struct config_causes *causes);
/* config_load with flags. */
int	 config_load_flags(struct config *conf, int argc, char **argv,
	    const char *const *passthrough, int flags,
	    struct config_causes *causes);
void	 config_clear(struct config *);
/* The tracked branches for a repository (never NULL; may be empty). */
const struct strlist *config_branches(const struct config *, const char *repo);
/* Is repo in the repositories allow-list (any case; empty: all)? */
int	 config_repo_allowed(const struct config *, const char *repo);
/*
 * The model settings of repo: each of its section's, else the global one;
 * but the global key only when url has the global llm_url's origin (a
 * key goes to no other server). url NULL: no rewrite.
 */
void	 config_llm(const struct config *, const char *repo, struct llm_conf *);
/* The show's name for a repository: configured, else from its name. New. */
char	*config_show(const struct config *, const char *repo);
/* Name repo's show (copied), as a [repo "..."] section's show would. */
void	 config_set_show(struct config *, const char *repo, const char *show);
/*
 * Shows (config_show.c). A show by its name, exactly, else by its slug;
 * NULL when none. Borrowed from conf.
 */
const struct show_conf *config_show_find(const struct config *,
	    const char *name);
/* 1 when one of show's globs matches repo ("owner/name", any case). */
int	 show_conf_matches(const struct show_conf *, const char *repo);
/*
 * 1 when show sets emit_at, timezone or quiet_days of its own: it keeps
 * its members' days apart and is emitted on its own schedule
 * (daemon/showday.c); else it is emitted with its repositories.
 */
int	 config_show_scheduled(const struct show_conf *);
/* 0 when repo's [repo] section says own_episodes = false, else 1. */
int	 config_own_episodes(const struct config *, const char *repo);
/*
 * The settings in effect for show: *out is a copy of *conf with each key
 * the show's section sets (emit_at, timezone, recap_weekday,
 * quiet_days, voice, the feed_ keys, the llm_ keys) in place of the
 * global value, and out->llm_key the key config_show_llm gives. Every
 * pointer in out is borrowed from conf or show: good while they are;
 * never config_clear out. pubconf_emit(out, ...) and the like take it.
 */
void	 config_show_settings(const struct config *,
	    const struct show_conf *, struct config *out);
/*
 * The model settings of show, as config_llm's of a repository: each of
 * its section's, else the global one; the global key only to the global
 * llm_url's origin.
 */
void	 config_show_llm(const struct config *, const struct show_conf *,
	    struct llm_conf *);
/*
 * The slug of a show's name (new): lower case, each run of bytes outside
 * a-z0-9 one '-', none at either end. "" when nothing is left.
 */
char	*config_show_slug(const char *name);
/*
 * Whether every address of listen is a loopback one (localhost,
 * 127.0.0.0/8, ::1): the only case where no webhook secret is allowed.
 */
int	 config_loopback_only(const struct strlist *listen);
/* Was key set by the file or a flag (not left to its default)? */
int	 config_key_set(const struct config *, const char *key);
/* Print the keys, their defaults and help to f. */
void	 config_usage(void *f);
/* Log what differs between two configurations, and which need a restart. */
void	 config_log_changes(const struct config *old, const struct config *new);
/* The settings in effect and where each came from, to a FILE *. */
void	 config_print(const struct config *, void *fp);

void	 config_causes_add(struct config_causes *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
void	 config_causes_clear(struct config_causes *);

#endif
