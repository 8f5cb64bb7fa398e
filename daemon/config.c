/* Configuration: defaults, INI file, flags; one table of keys. */
#include <ctype.h>
#include <endian.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <arpa/inet.h>
#include <fcntl.h>
#include <unistd.h>

#include <ini.h>

#include "backfill.h"
#include "buf.h"
#include "childenv.h"
#include "config.h"
#include "fileio.h"
#include "hostport.h"
#include "log.h"
#include "schedule.h"
#include "sink.h"
#include "xmalloc.h"

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

#define OFF(field) offsetof(struct config, field)

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

static const struct config_enum config_journal_fsync[] = {
	{ .name = "always", .value = JOURNAL_SYNC_ALWAYS },
	{ .name = "batch", .value = JOURNAL_SYNC_BATCH },
	{ .name = "none", .value = JOURNAL_SYNC_NONE },
	{ .name = NULL }
};

static const struct config_enum config_quiet_days[] = {
	{ .name = "skip", .value = QUIET_DAYS_SKIP },
	{ .name = "emit", .value = QUIET_DAYS_EMIT },
	{ .name = NULL }
};

static const struct config_enum config_feed_locked[] = {
	{ "no", FEED_LOCKED_NO },
	{ "yes", FEED_LOCKED_YES },
	{ "auto", FEED_LOCKED_AUTO },
	{ NULL, 0 },
};

static const struct config_enum config_weekdays[] = {
	{ .name = "none", .value = RECAP_WEEKDAY_NONE },
	{ .name = "monday", .value = 1 },
	{ .name = "tuesday", .value = 2 },
	{ .name = "wednesday", .value = 3 },
	{ .name = "thursday", .value = 4 },
	{ .name = "friday", .value = 5 },
	{ .name = "saturday", .value = 6 },
	{ .name = "sunday", .value = 0 },
	{ .name = NULL }
};

static const struct config_enum config_audio[] = {
	{ .name = "off", .value = AUDIO_MODE_OFF },
	{ .name = "on", .value = AUDIO_MODE_ON },
	{ .name = "auto", .value = AUDIO_MODE_AUTO },
	{ .name = NULL }
};

static const struct config_enum config_audio_encoders[] = {
	{ .name = "lame", .value = AUDIO_ENCODER_LAME },
	{ .name = "ffmpeg", .value = AUDIO_ENCODER_FFMPEG },
	{ .name = NULL }
};

/* CONFIG_ENUM stores through an int: every enum field is one. */
_Static_assert(sizeof(((struct config *)0)->journal_fsync) == sizeof(int),
    "journal_fsync is not int-sized");
_Static_assert(sizeof(((struct config *)0)->quiet_days) == sizeof(int),
    "quiet_days is not int-sized");
_Static_assert(sizeof(((struct config *)0)->audio) == sizeof(int),
    "audio is not int-sized");
_Static_assert(sizeof(((struct config *)0)->audio_encoder) == sizeof(int),
    "audio_encoder is not int-sized");

static const struct config_key config_keys[] = {
	{ .name = "listen", .type = CONFIG_LIST, .offset = OFF(listen),
	    .def = "127.0.0.1:8080",
	    .help = "addresses to listen on, host:port or [v6]:port, "
	    "comma-separated" },
	{ .name = "webhook_path", .type = CONFIG_STRING,
	    .offset = OFF(webhook_path), .def = "/webhook", .reloadable = 1,
	    .help = "the path GitHub posts to" },
	{ .name = "secret_file", .type = CONFIG_LIST,
	    .offset = OFF(secret_files), .reloadable = 1,
	    .help = "files holding webhook secrets (several for rotation)" },
	{ .name = "state_dir", .type = CONFIG_STRING, .offset = OFF(state_dir),
	    .help = "state ($STATE_DIRECTORY or ./hookcast-state)" },
	{ .name = "output_dir", .type = CONFIG_STRING,
	    .offset = OFF(output_dir), .reloadable = 1,
	    .help = "episodes (STATE/episodes)" },
	{ .name = "control_socket", .type = CONFIG_STRING,
	    .offset = OFF(control_socket),
	    .help = "control socket ($RUNTIME_DIRECTORY/control.sock or "
	    "STATE/control.sock)" },
	{ .name = "emit_at", .type = CONFIG_TIME_OF_DAY,
	    .offset = OFF(emit_hour), .def = "10:00", .reloadable = 1,
	    .help = "when episodes are emitted, HH:MM in timezone" },
	{ .name = "timezone", .type = CONFIG_STRING, .offset = OFF(timezone),
	    .def = "UTC", .reloadable = 1,
	    .help = "IANA time zone of emit_at and of the days told" },
	{ .name = "branches", .type = CONFIG_LIST, .offset = OFF(branches),
	    .reloadable = 1,
	    .help = "branches tracked (default: each repository's default "
	    "branch)" },
	{ .name = "log_level", .type = CONFIG_LOG_LEVEL,
	    .offset = OFF(log_level), .def = "info", .reloadable = 1,
	    .help = "error, warning, notice, info or debug" },
	{ .name = "insecure_no_signature", .type = CONFIG_BOOL,
	    .offset = OFF(insecure_no_signature), .def = "false",
	    .help = "accept deliveries without a secret (testing only)" },
	{ .name = "max_body", .type = CONFIG_SIZE, .offset = OFF(max_body),
	    .def = "25M", .min = 1024, .max = 64LL * 1024 * 1024,
	    .reloadable = 1, .help = "largest request body accepted" },
	{ .name = "max_header", .type = CONFIG_SIZE, .offset = OFF(max_header),
	    .def = "64K", .min = 1024, .max = 1024 * 1024, .reloadable = 1,
	    .help = "largest request head (request line and headers)" },
	{ .name = "read_timeout", .type = CONFIG_INT,
	    .offset = OFF(read_timeout), .def = "30", .min = 1, .max = 3600,
	    .reloadable = 1,
	    .help = "seconds a client has to send a whole request" },
	{ .name = "max_connections", .type = CONFIG_INT,
	    .offset = OFF(max_connections), .def = "512", .min = 1,
	    .max = 65536, .reloadable = 1,
	    .help = "concurrent HTTP connections" },
	{ .name = "max_connections_per_peer", .type = CONFIG_INT,
	    .offset = OFF(max_connections_per_peer), .def = "128", .min = 1,
	    .max = 65536, .reloadable = 1,
	    .help = "concurrent HTTP connections from one IP address" },
	{ .name = "max_buffered_bodies", .type = CONFIG_SIZE,
	    .offset = OFF(max_buffered_bodies), .def = "64M", .min = 1024,
	    .max = 1024LL * 1024 * 1024, .reloadable = 1,
	    .help = "request-body bytes buffered over all connections before "
	    "their signature is checked (at least max_body)" },
	{ .name = "head_timeout", .type = CONFIG_INT,
	    .offset = OFF(head_timeout), .def = "10", .min = 1, .max = 3600,
	    .reloadable = 1,
	    .help = "seconds a client has to send a request head (and finish "
	    "a TLS handshake)" },
	{ .name = "idle_timeout", .type = CONFIG_INT,
	    .offset = OFF(idle_timeout), .def = "15", .min = 1, .max = 3600,
	    .reloadable = 1,
	    .help = "seconds a kept-alive connection may wait for its next "
	    "request" },
	{ .name = "journal_fsync", .type = CONFIG_ENUM,
	    .offset = OFF(journal_fsync), .def = "batch",
	    .enums = config_journal_fsync, .reloadable = 1,
	    .help = "always (a sync per delivery), batch (one per loop turn) "
	    "or none" },
	{ .name = "github_api_url", .type = CONFIG_STRING,
	    .offset = OFF(github_api_url), .def = "https://api.github.com",
	    .reloadable = 1,
	    .help = "GitHub REST API base URL (for backfill)" },
	{ .name = "github_token_file", .type = CONFIG_STRING,
	    .offset = OFF(github_token_file), .reloadable = 1,
	    .help = "file holding a GitHub token that may read the hooks "
	    "(enables backfill)" },
	{ .name = "backfill_hooks", .type = CONFIG_LIST,
	    .offset = OFF(backfill_hooks), .reloadable = 1,
	    .help = "hooks to backfill from, owner/repo:hook_id, "
	    "comma-separated" },
	{ .name = "quiet_days", .type = CONFIG_ENUM, .offset = OFF(quiet_days),
	    .def = "skip", .enums = config_quiet_days, .reloadable = 1,
	    .help = "a scheduled day with no activity: skip, or emit a short "
	    "episode" },
	{ .name = "recap_weekday", .type = CONFIG_ENUM,
	    .offset = OFF(recap_weekday), .def = "none",
	    .enums = config_weekdays, .reloadable = 1,
	    .help = "weekday of the weekly recap episode (monday..sunday), "
	    "or none" },
	{ .name = "feed_items", .type = CONFIG_INT, .offset = OFF(feed_items),
	    .def = "30", .min = 1, .max = 1000, .reloadable = 1,
	    .help = "episodes kept in each repository's feed.xml" },
	{ .name = "public_url", .type = CONFIG_URL,
	    .offset = OFF(public_url), .reloadable = 1,
	    .help = "URL under which output_dir is served (absolute links in "
	    "feed.xml)" },
	{ .name = "tls_cert", .type = CONFIG_STRING, .offset = OFF(tls_cert),
	    .reloadable = 1,
	    .help = "PEM certificate chain: the listeners speak HTTPS "
	    "(TLS 1.2+)" },
	{ .name = "tls_key", .type = CONFIG_STRING, .offset = OFF(tls_key),
	    .reloadable = 1, .help = "PEM private key of tls_cert" },
	{ .name = "words_per_minute", .type = CONFIG_PACE,
	    .offset = OFF(words_per_minute), .def = "150", .min = 60,
	    .max = 400, .reloadable = 1,
	    .help = "speaking pace used to estimate an episode's duration" },
	{ .name = "repositories", .type = CONFIG_LIST,
	    .offset = OFF(repositories), .reloadable = 1,
	    .help = "repositories whose deliveries are taken, owner/name or "
	    "owner/* (empty: all)" },
	{ .name = "max_repositories", .type = CONFIG_INT,
	    .offset = OFF(max_repositories), .def = "100", .min = 1,
	    .max = 100000, .reloadable = 1,
	    .help = "repositories open at once; a delivery for another is "
	    "refused (429)" },
	{ .name = "max_seen", .type = CONFIG_INT, .offset = OFF(max_seen),
	    .def = "200000", .min = 1000, .max = 10000000, .reloadable = 1,
	    .help = "deliveries remembered to spot redeliveries (the oldest "
	    "are forgotten past it)" },
	{ .name = "max_commits_per_day", .type = CONFIG_INT,
	    .offset = OFF(max_commits_per_day), .def = "20000", .min = 1,
	    .max = 10000000, .reloadable = 1,
	    .help = "new commits a repository's day takes; a delivery past "
	    "it is refused (429)" },
	{ .name = "max_deliveries_per_day", .type = CONFIG_INT,
	    .offset = OFF(max_deliveries_per_day), .def = "5000", .min = 1,
	    .max = 10000000, .reloadable = 1,
	    .help = "pushes and merged pull requests a repository's day takes; "
	    "past it, refused (429)" },
	{ .name = "max_open_bytes", .type = CONFIG_SIZE,
	    .offset = OFF(max_open_bytes), .def = "128M", .min = 1024 * 1024,
	    .max = 64LL * 1024 * 1024 * 1024, .reloadable = 1,
	    .help = "memory the open days of all repositories hold (an "
	    "estimate); a delivery past it is refused (429)" },
	{ .name = "episode_retention_days", .type = CONFIG_INT,
	    .offset = OFF(episode_retention_days), .def = "365", .min = 0,
	    .max = 36500, .reloadable = 1,
	    .help = "days an episode's files are kept after its date "
	    "(0: forever)" },
	{ .name = "min_free_space", .type = CONFIG_SIZE,
	    .offset = OFF(min_free_space), .def = "64M", .min = 0,
	    .max = 1024LL * 1024 * 1024 * 1024, .reloadable = 1,
	    .help = "free space output_dir and state_dir must keep; below it "
	    "an emission or compaction waits" },
	{ .name = "max_body_pull_request", .type = CONFIG_SIZE,
	    .offset = OFF(max_body_pull_request), .def = "2M", .min = 64 * 1024,
	    .max = 64LL * 1024 * 1024, .reloadable = 1,
	    .help = "largest pull_request body accepted (parsed as a whole)" },
	{ .name = "control_idle_timeout", .type = CONFIG_INT,
	    .offset = OFF(control_idle_timeout), .def = "60", .min = 1,
	    .max = 86400, .reloadable = 1,
	    .help = "seconds a control client may stay connected saying "
	    "nothing" },
	{ .name = "draft_timeout", .type = CONFIG_INT,
	    .offset = OFF(draft_timeout), .def = "300", .min = 1,
	    .max = 86400, .reloadable = 1,
	    .help = "seconds a drafting process may run before it is stopped "
	    "(its day is then kept for the next episode)" },
	{ .name = "backfill_interval", .type = CONFIG_INT,
	    .offset = OFF(backfill_interval), .def = "60", .min = 0,
	    .max = 3600, .reloadable = 1,
	    .help = "least seconds between two backfill passes over a hook "
	    "(doubled after each failed pass, up to an hour)" },
	{ .name = "metrics_listen", .type = CONFIG_STRING,
	    .offset = OFF(metrics_listen),
	    .help = "a listener of its own for /metrics and /healthz, "
	    "host:port (a port alone: 127.0.0.1)" },
	{ .name = "metrics_public", .type = CONFIG_BOOL,
	    .offset = OFF(metrics_public), .def = "false", .reloadable = 1,
	    .help = "serve /metrics on the webhook listener too (anyone who "
	    "reaches it sees the daemon's activity)" },
	/* the podcast: what directories ask of a feed, and serving it */
	{ .name = "feed_image", .type = CONFIG_URL, .offset = OFF(feed_image),
	    .reloadable = 1,
	    .help = "URL of the show's square artwork (itunes:image)" },
	{ .name = "feed_owner_name", .type = CONFIG_STRING,
	    .offset = OFF(feed_owner_name), .reloadable = 1,
	    .help = "the feed owner's name (itunes:owner)" },
	{ .name = "feed_owner_email", .type = CONFIG_STRING,
	    .offset = OFF(feed_owner_email), .reloadable = 1,
	    .help = "the feed owner's email (itunes:owner); directories "
	    "mail it to verify the feed" },
	{ .name = "feed_category", .type = CONFIG_STRING,
	    .offset = OFF(feed_category), .def = "Technology",
	    .reloadable = 1,
	    .help = "Apple Podcasts category of the show (itunes:category)" },
	{ .name = "feed_locked", .type = CONFIG_ENUM,
	    .offset = OFF(feed_locked), .def = "auto",
	    .enums = config_feed_locked, .reloadable = 1,
	    .help = "podcast:locked: yes, no, or auto (yes when "
	    "feed_owner_email is set)" },
	{ .name = "serve_episodes", .type = CONFIG_BOOL,
	    .offset = OFF(serve_episodes), .def = "false", .reloadable = 1,
	    .help = "serve output_dir's feeds and episode files as "
	    "/episodes/OWNER/REPO/FILE on the webhook listeners" },
	{ .name = "sink_retry_for", .type = CONFIG_INT,
	    .offset = OFF(sink_retry_for), .def = "86400", .min = 1,
	    .max = 30 * 86400, .reloadable = 1,
	    .help = "seconds a publication to a sink is retried before it is "
	    "given up" },
	{ .name = "sink_retry_min", .type = CONFIG_INT,
	    .offset = OFF(sink_retry_min), .def = "30", .min = 1,
	    .max = 86400, .reloadable = 1,
	    .help = "seconds before the first retry of a publication (doubled "
	    "at each retry, with jitter)" },
	{ .name = "sink_retry_max", .type = CONFIG_INT,
	    .offset = OFF(sink_retry_max), .def = "3600", .min = 1,
	    .max = 86400, .reloadable = 1,
	    .help = "longest wait between two tries of a publication" },
	{ .name = "sink_connect_timeout", .type = CONFIG_INT,
	    .offset = OFF(sink_connect_timeout), .def = "10", .min = 1,
	    .max = 600, .reloadable = 1,
	    .help = "seconds to connect to a sink" },
	{ .name = "sink_timeout", .type = CONFIG_INT,
	    .offset = OFF(sink_timeout), .def = "60", .min = 1,
	    .max = 3600, .reloadable = 1,
	    .help = "seconds a whole attempt may take (a request, or an exec "
	    "sink's command, which is then killed)" },
	/*
	 * The episode's audio, spoken in the drafting process after its text
	 * is out (audio.c); the TTS contract is in hookcast.conf(5).
	 */
	{ .name = "audio", .type = CONFIG_ENUM, .offset = OFF(audio),
	    .def = "auto", .enums = config_audio, .reloadable = 1,
	    .help = "speak each episode to YYYY-MM-DD.mp3 and .vtt: on, off, "
	    "or auto (on when tts_command's program is in PATH)" },
	{ .name = "tts_command", .type = CONFIG_STRING,
	    .offset = OFF(tts_command),
	    .def = "espeak-ng -s \"$HOOKCAST_WPM\" --stdout", .reloadable = 1,
	    .help = "run by /bin/sh -c per sentence: text on stdin, a WAV "
	    "file on stdout" },
	{ .name = "audio_encoder", .type = CONFIG_ENUM,
	    .offset = OFF(audio_encoder), .def = "lame",
	    .enums = config_audio_encoders, .reloadable = 1,
	    .help = "the MP3 encoder: lame or ffmpeg" },
	{ .name = "audio_timeout", .type = CONFIG_INT,
	    .offset = OFF(audio_timeout), .def = "300", .min = 1,
	    .max = 86400, .reloadable = 1,
	    .help = "seconds one episode's speech and encoding may take "
	    "before they are stopped (the text episode stays)" },
	/*
	 * The model's rewrite of the transcript (llm.c), fenced by the day's
	 * facts (episode/fence.c); each key also per repository.
	 */
	{ .name = "llm_url", .type = CONFIG_URL, .offset = OFF(llm_url),
	    .reloadable = 1,
	    .help = "an OpenAI-compatible chat completions URL: a model "
	    "rewrites each transcript, kept only inside the day's facts "
	    "(unset: no rewrite)" },
	{ .name = "llm_model", .type = CONFIG_STRING,
	    .offset = OFF(llm_model), .reloadable = 1,
	    .help = "the model asked for, as the server names it" },
	{ .name = "llm_key_file", .type = CONFIG_STRING,
	    .offset = OFF(llm_key_file), .reloadable = 1,
	    .help = "a file whose first line is the bearer token sent to "
	    "llm_url (optional)" },
	{ .name = "llm_timeout", .type = CONFIG_INT,
	    .offset = OFF(llm_timeout), .def = "60", .min = 1, .max = 3600,
	    .reloadable = 1,
	    .help = "seconds the model may take per episode; past it the "
	    "draft is used" },
};

/* Keys a [repo "owner/name"] section may set besides show and branches. */
static const char *const config_repo_keys[] = {
	"llm_url", "llm_model", "llm_key_file", "llm_timeout",
};
#define NREPO_KEYS (sizeof(config_repo_keys) / sizeof(config_repo_keys[0]))

#define NKEYS (sizeof(config_keys) / sizeof(config_keys[0]))

void
config_causes_add(struct config_causes *c, const char *fmt, ...)
{
	va_list	ap;
	char	*s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (s == NULL)
		return;
	c->v = xreallocarray(c->v, c->n + 1, sizeof(*c->v));
	c->v[c->n++] = s;
}

void
config_causes_clear(struct config_causes *c)
{
	size_t	i;

	for (i = 0; i < c->n; i++)
		free(c->v[i]);
	free(c->v);
	c->v = NULL;
	c->n = 0;
}

static int	config_host_loopback(const char *);
static void	config_set_origin(struct config *, const struct config_key *,
		    const char *, ...) __attribute__((format(printf, 3, 4)));

static const struct config_key *
config_find_key(const char *name)
{
	size_t	i;

	for (i = 0; i < NKEYS; i++)
		if (strcmp(config_keys[i].name, name) == 0)
			return &config_keys[i];
	return NULL;
}

static int
config_parse_size(const char *s, long long *out)
{
	char		*end;
	long long	 v;
	long long	 mult = 1;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno != 0 || end == s || v < 0)
		return -1;
	switch (*end) {
	case '\0':
		break;
	case 'k': case 'K':
		mult = 1024;
		end++;
		break;
	case 'm': case 'M':
		mult = 1024 * 1024;
		end++;
		break;
	case 'g': case 'G':
		mult = 1024 * 1024 * 1024;
		end++;
		break;
	default:
		return -1;
	}
	if (*end == 'i' || *end == 'B')
		end += (*end == 'i' && end[1] == 'B') ? 2 : 1;
	if (*end != '\0' || v > LLONG_MAX / mult)
		return -1;
	*out = v * mult;
	return 0;
}

/* The keyword of a CONFIG_ENUM value ("?" for none: a broken table). */
static const char *
config_enum_name(const struct config_enum *e, int value)
{
	for (; e->name != NULL; e++)
		if (e->value == value)
			return e->name;
	return "?";
}

/* The value of a keyword (any case); 0, or -1 with a new cause. */
static int
config_enum_parse(const struct config_enum *e, const char *s, int *value,
    char **cause)
{
	const struct config_enum	*first = e;
	struct buf			 b;

	for (; e->name != NULL; e++) {
		if (strcasecmp(e->name, s) == 0) {
			*value = e->value;
			return 0;
		}
	}
	buf_init(&b);
	buf_printf(&b, "'%s' is not one of ", s);
	for (e = first; e->name != NULL; e++)
		buf_printf(&b, "%s%s", e == first ? "" : ", ", e->name);
	*cause = buf_steal(&b);
	return -1;
}

/*
 * Is s an absolute http(s) URL with a host: the scheme, then at least
 * one byte, and no space or control byte anywhere (it goes into XML
 * attributes and HTTP replies as it is)?
 */
static int
config_url_ok(const char *s)
{
	const unsigned char	*p;
	size_t			 n;

	if (strncasecmp(s, "https://", 8) == 0)
		n = 8;
	else if (strncasecmp(s, "http://", 7) == 0)
		n = 7;
	else
		return 0;
	if (s[n] == '\0' || s[n] == '/')
		return 0;
	for (p = (const unsigned char *)s; *p != '\0'; p++)
		if (*p <= 0x20 || *p == 0x7f)
			return 0;
	return 1;
}

/* Is s plausibly an address: local@domain, printable, no space? */
static int
config_email_ok(const char *s)
{
	const char	*at = strchr(s, '@');
	const unsigned char *p;

	if (at == NULL || at == s || at[1] == '\0' || strchr(at + 1, '@'))
		return 0;
	for (p = (const unsigned char *)s; *p != '\0'; p++)
		if (*p <= 0x20 || *p == 0x7f || *p == '<' || *p == '>')
			return 0;
	return 1;
}

/* Set one key from a string; on error return a new cause (without where). */
static char *
config_set(struct config *conf, const struct config_key *k, const char *value)
{
	char		*p = (char *)conf + k->offset;
	char		*cause = NULL, *end;
	long long	 v;
	double		 d;
	int		 h, m, lvl, n;

	switch (k->type) {
	case CONFIG_URL:
		if (!config_url_ok(value)) {
			xasprintf(&cause, "'%s' is not an http:// or https:// "
			    "URL", value);
			break;
		}
		/* FALLTHROUGH */
	case CONFIG_STRING:
		if (*value == '\0') {
			xasprintf(&cause, "empty value");
			break;
		}
		free(*(char **)p);
		*(char **)p = xstrdup(value);
		break;
	case CONFIG_LIST:
		strlist_clear((struct strlist *)p);
		strlist_split((struct strlist *)p, value);
		break;
	case CONFIG_INT:
		errno = 0;
		v = strtoll(value, &end, 10);
		if (errno != 0 || end == value || *end != '\0') {
			xasprintf(&cause, "'%s' is not a number", value);
			break;
		}
		if (v < k->min || v > k->max) {
			xasprintf(&cause, "%lld is out of range %lld..%lld", v,
			    k->min, k->max);
			break;
		}
		*(int *)p = (int)v;
		break;
	case CONFIG_PACE:
		errno = 0;
		d = strtod(value, &end);
		if (errno != 0 || end == value || *end != '\0' ||
		    d < (double)k->min || d > (double)k->max) {
			xasprintf(&cause, "'%s' is not a number in %lld..%lld",
			    value, k->min, k->max);
			break;
		}
		*(double *)p = d;
		break;
	case CONFIG_BOOL:
		if (strcmp(value, "true") == 0 || strcmp(value, "yes") == 0 ||
		    strcmp(value, "1") == 0 || strcmp(value, "on") == 0)
			*(int *)p = 1;
		else if (strcmp(value, "false") == 0 ||
		    strcmp(value, "no") == 0 || strcmp(value, "0") == 0 ||
		    strcmp(value, "off") == 0)
			*(int *)p = 0;
		else
			xasprintf(&cause, "'%s' is not true or false", value);
		break;
	case CONFIG_SIZE:
		if (config_parse_size(value, &v) == -1) {
			xasprintf(&cause, "'%s' is not a size (e.g. 25M)", value);
			break;
		}
		if (v < k->min || v > k->max) {
			xasprintf(&cause, "%lld bytes is out of range %lld..%lld",
			    v, k->min, k->max);
			break;
		}
		*(long long *)p = v;
		break;
	case CONFIG_TIME_OF_DAY:
		n = -1;
		if (sscanf(value, "%2d:%2d%n", &h, &m, &n) != 2 ||
		    n != (int)strlen(value) || h < 0 || h > 23 || m < 0 ||
		    m > 59 || strlen(value) != 5) {
			xasprintf(&cause, "'%s' is not a time HH:MM", value);
			break;
		}
		conf->emit_hour = h;
		conf->emit_minute = m;
		break;
	case CONFIG_LOG_LEVEL:
		if ((lvl = log_level_parse(value)) == -1) {
			xasprintf(&cause, "'%s' is not one of error, warning, "
			    "notice, info, debug", value);
			break;
		}
		*(int *)p = lvl;
		break;
	case CONFIG_ENUM:
		if (config_enum_parse(k->enums, value, &n, &cause) == 0)
			*(int *)p = n;
		break;
	}
	return cause;
}

static void
config_set_origin(struct config *conf, const struct config_key *k,
    const char *fmt, ...)
{
	size_t	i = (size_t)(k - config_keys);
	va_list	ap;
	char	*s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) == -1)
		s = NULL;
	va_end(ap);
	free(conf->origins[i]);
	conf->origins[i] = s;
}

/*
 * Errors found once everything is read ("timezone: ...") get where
 * their key was set: "file:line: timezone: ..." or "--flag: ...".
 */
static void
config_place_causes(const struct config *conf, struct config_causes *causes,
    size_t from)
{
	size_t		 i, k, n;
	const char	*origin;
	char		*s;

	for (i = from; i < causes->n; i++) {
		for (k = 0; k < NKEYS; k++) {
			n = strlen(config_keys[k].name);
			if (strncmp(causes->v[i], config_keys[k].name, n) == 0 &&
			    causes->v[i][n] == ':')
				break;
		}
		if (k == NKEYS || (origin = conf->origins[k]) == NULL)
			continue;
		if (origin[0] == '-')
			xasprintf(&s, "%s (%.*s)%s", origin, (int)n,
			    causes->v[i], causes->v[i] + n);
		else
			xasprintf(&s, "%s: %s", origin, causes->v[i]);
		free(causes->v[i]);
		causes->v[i] = s;
	}
}

/*
 * For --check-config outside the service: the file named name in the
 * config file's folder, when there is one. The unit loads its credentials
 * from there (LoadCredential=webhook-secret:/etc/hookcast/webhook-secret
 * beside /etc/hookcast/hookcast.conf), so that is where the service would
 * find them. New, or NULL.
 */
static char *
config_beside(const struct config *conf, const char *name)
{
	const char	*slash;
	char		*path;

	if (conf->file == NULL)
		return NULL;
	if ((slash = strrchr(conf->file, '/')) == NULL)
		xasprintf(&path, "%s", name);
	else
		xasprintf(&path, "%.*s/%s", (int)(slash - conf->file),
		    conf->file, name);
	if (access(path, F_OK) == 0)
		return path;
	free(path);
	return NULL;
}

/* A cause's line in file ("FILE:LINE: ..."), or 0 when it names none. */
static long
config_cause_line(const char *cause, const char *file)
{
	size_t	n;
	char	*end;
	long	 line;

	if (file == NULL)
		return 0;
	n = strlen(file);
	if (strncmp(cause, file, n) != 0 || cause[n] != ':')
		return 0;
	line = strtol(cause + n + 1, &end, 10);
	return end != cause + n + 1 && *end == ':' && line > 0 ? line : 0;
}

/*
 * The causes from from on in the order a reader of the file meets them:
 * those naming a line of it by line (a key's value is checked when the
 * file is read or only at the end, and the two came out interleaved),
 * then the others as they came. A stable insertion sort: a handful.
 */
static void
config_sort_causes(const struct config *conf, struct config_causes *causes,
    size_t from)
{
	size_t	 i, j;
	long	 li, lj;
	char	*s;

	for (i = from + 1; i < causes->n; i++) {
		s = causes->v[i];
		li = config_cause_line(s, conf->file);
		for (j = i; j > from; j--) {
			lj = config_cause_line(causes->v[j - 1], conf->file);
			/* no line: after every one that has one */
			if (li == 0 || (lj != 0 && lj <= li))
				break;
			causes->v[j] = causes->v[j - 1];
		}
		causes->v[j] = s;
	}
}

/* Reading the file: inih with a reader that counts lines. */
struct config_file {
	FILE			*f;
	const char		*path;
	int			 line;
	struct config		*conf;
	struct config_causes	*causes;
	char			*linebuf;
	size_t			 linecap;
};

static char *
config_file_reader(char *str, int num, void *stream)
{
	struct config_file	*cf = stream;
	ssize_t			 n;
	const char		*s;

	if ((n = getline(&cf->linebuf, &cf->linecap, cf->f)) == -1)
		return NULL;
	cf->line++;
	if (n >= num - 1 && cf->linebuf[n - 1] != '\n')
		config_causes_add(cf->causes, "%s:%d: line longer than %d bytes",
		    cf->path, cf->line, num - 2);
	/* a line that is neither blank, comment, section nor key = value */
	s = cf->linebuf;
	while (isspace((unsigned char)*s))
		s++;
	if (*s != '\0' && *s != '#' && *s != ';' && *s != '[' &&
	    strchr(s, '=') == NULL && strchr(s, ':') == NULL)
		config_causes_add(cf->causes, "%s:%d: expected 'key = value'",
		    cf->path, cf->line);
	snprintf(str, (size_t)num, "%s", cf->linebuf);
	return str;
}

static struct repo_conf *
config_repo(struct config *conf, const char *name)
{
	size_t			 i;
	struct repo_conf	*r;

	for (i = 0; i < conf->nrepos; i++)
		if (strcmp(conf->repos[i].name, name) == 0)
			return &conf->repos[i];
	conf->repos = xreallocarray(conf->repos, conf->nrepos + 1,
	    sizeof(*conf->repos));
	r = &conf->repos[conf->nrepos++];
	memset(r, 0, sizeof(*r));
	r->name = xstrdup(name);
	return r;
}

/* "NAME \"VALUE\"" -> VALUE (new), or NULL when section is not one. */
static char *
config_section_value(const char *section, const char *name)
{
	size_t		 n = strlen(name);
	const char	*p, *q;

	if (strncmp(section, name, n) != 0)
		return NULL;
	p = section + n;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != '"')
		return NULL;
	p++;
	if ((q = strchr(p, '"')) == NULL || q[1] != '\0')
		return NULL;
	return xstrndup(p, (size_t)(q - p));
}

/* "repo \"owner/name\"" -> owner/name (new), or NULL. */
static char *
config_repo_section(const char *section)
{
	char	*v, *slash;

	if ((v = config_section_value(section, "repo")) == NULL)
		return NULL;
	slash = strchr(v, '/');
	if (slash == NULL || slash == v || slash[1] == '\0' ||
	    strchr(slash + 1, '/') != NULL) {
		free(v);
		return NULL;
	}
	return v;
}

/* Split "a b\tc" at white space (a command line, without a shell). */
static void
strlist_split_space(struct strlist *l, const char *s)
{
	const char	*p = s, *e;
	char		*item;

	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '\0')
			break;
		for (e = p; *e != '\0' && !isspace((unsigned char)*e); e++)
			;
		item = xstrndup(p, (size_t)(e - p));
		strlist_add(l, item);
		free(item);
		p = e;
	}
}

/* "sink \"NAME\"" -> NAME (new), or NULL; *bad when NAME is refused. */
static char *
config_sink_section(const char *section, int *bad)
{
	char	*v, *c;

	*bad = 0;
	if ((v = config_section_value(section, "sink")) == NULL)
		return NULL;
	/* the name is a folder of the outbox */
	for (c = v; *c != '\0'; c++)
		if (!isalnum((unsigned char)*c) && *c != '_' && *c != '-' &&
		    *c != '.')
			*bad = 1;
	if (*v == '\0' || *v == '.' || strlen(v) > 64)
		*bad = 1;
	return v;
}

static struct sink_conf *
config_sink_get(struct config *conf, const char *name, const char *where)
{
	size_t			 i;
	struct sink_conf	*s;

	for (i = 0; i < conf->nsinks; i++)
		if (strcmp(conf->sinks[i].name, name) == 0)
			return &conf->sinks[i];
	conf->sinks = xreallocarray(conf->sinks, conf->nsinks + 1,
	    sizeof(*conf->sinks));
	s = &conf->sinks[conf->nsinks++];
	memset(s, 0, sizeof(*s));
	s->name = xstrdup(name);
	s->type = -1;
	s->max_running = SINK_MAX_RUNNING;
	s->where = xstrdup(where);
	return s;
}

/* One key of a [sink "NAME"] section. */
static void
config_sink_key(struct config_file *cf, const char *section,
    const char *sname, const char *name, const char *value)
{
	const struct sink_kind	*kind;
	struct sink_conf	*s;
	char			*where;
	char		       **field = NULL;

	xasprintf(&where, "%s:%d", cf->path, cf->line);
	s = config_sink_get(cf->conf, sname, where);
	free(where);
	if (strcmp(name, "type") == 0) {
		if ((kind = sink_kind_find(value)) == NULL)
			config_causes_add(cf->causes, "%s:%d: type: unknown sink "
			    "type '%s' in [%s] (expected one of %s)", cf->path,
			    cf->line, value, section, sink_kind_names());
		else
			s->type = (int)kind->type;
		return;
	}
	if (strcmp(name, "repositories") == 0) {
		strlist_clear(&s->repositories);
		strlist_split(&s->repositories, value);
		return;
	}
	if (strcmp(name, "command") == 0) {
		/* words split at white space; no shell, no quotes */
		strlist_clear(&s->command);
		strlist_split_space(&s->command, value);
		if (s->command.n == 0)
			config_causes_add(cf->causes, "%s:%d: command: empty "
			    "value", cf->path, cf->line);
		return;
	}
	if (strcmp(name, "max_running") == 0) {
		char	*end;
		long	 v;

		errno = 0;
		v = strtol(value, &end, 10);
		if (errno != 0 || end == value || *end != '\0' || v < 1 ||
		    v > SINK_MAX_RUNNING_MAX)
			config_causes_add(cf->causes, "%s:%d: max_running: '%s' "
			    "is not a number from 1 to %d", cf->path, cf->line,
			    value, SINK_MAX_RUNNING_MAX);
		else
			s->max_running = (int)v;
		return;
	}
	if (strcmp(name, "url") == 0) {
		if (!config_url_ok(value))
			config_causes_add(cf->causes, "%s:%d: url: '%s' is not an "
			    "http:// or https:// URL", cf->path, cf->line,
			    value);
		field = &s->url;
	} else if (strcmp(name, "secret_file") == 0) {
		field = &s->secret_file;
		free(s->secret_where);
		xasprintf(&s->secret_where, "%s:%d: secret_file", cf->path,
		    cf->line);
	} else if (strcmp(name, "token_file") == 0) {
		field = &s->token_file;
		free(s->token_where);
		xasprintf(&s->token_where, "%s:%d: token_file", cf->path,
		    cf->line);
	} else {
		config_causes_add(cf->causes, "%s:%d: %s: unknown key in [%s] "
		    "(expected type, repositories, url, secret_file, "
		    "token_file, command or max_running)", cf->path, cf->line,
		    name, section);
		return;
	}
	if (*value == '\0') {
		config_causes_add(cf->causes, "%s:%d: %s: empty value", cf->path,
		    cf->line, name);
		return;
	}
	free(*field);
	*field = xstrdup(value);
}

/*
 * A global key set in a repository's section: checked as the global one
 * is (config_set on a blank config), then kept in r. -1 when name is none
 * of config_repo_keys.
 */
static int
config_repo_key(struct config_file *cf, struct repo_conf *r,
    const char *name, const char *value)
{
	const struct config_key	*k;
	struct config		 one;
	char			*cause;
	size_t			 i;

	for (i = 0; i < NREPO_KEYS; i++)
		if (strcmp(config_repo_keys[i], name) == 0)
			break;
	if (i == NREPO_KEYS || (k = config_find_key(name)) ==
	    NULL)
		return -1;
	memset(&one, 0, sizeof(one));
	if ((cause = config_set(&one, k, value)) != NULL) {
		config_causes_add(cf->causes, "%s:%d: %s: %s", cf->path,
		    cf->line, name, cause);
		free(cause);
		return 0;
	}
	if (strcmp(name, "llm_url") == 0) {
		free(r->llm_url);
		r->llm_url = one.llm_url;
	} else if (strcmp(name, "llm_model") == 0) {
		free(r->llm_model);
		r->llm_model = one.llm_model;
	} else if (strcmp(name, "llm_key_file") == 0) {
		free(r->llm_key_file);
		r->llm_key_file = one.llm_key_file;
		free(r->llm_key_where);
		xasprintf(&r->llm_key_where, "%s:%d: llm_key_file", cf->path,
		    cf->line);
	} else
		r->llm_timeout = one.llm_timeout;
	return 0;
}

static int
config_file_handler(void *user, const char *section, const char *name,
    const char *value)
{
	struct config_file	*cf = user;
	const struct config_key	*k;
	struct repo_conf	*r;
	char			*repo, *cause, *sname;
	int			 bad;

	if (*section != '\0' &&
	    (sname = config_sink_section(section, &bad)) != NULL) {
		if (bad)
			config_causes_add(cf->causes, "%s:%d: [%s]: a sink's name "
			    "is 1 to 64 letters, digits, '_', '-' or '.' (not "
			    "first)", cf->path, cf->line, section);
		else
			config_sink_key(cf, section, sname, name, value);
		free(sname);
		return 1;
	}
	if (*section != '\0') {
		if ((repo = config_repo_section(section)) == NULL) {
			config_causes_add(cf->causes, "%s:%d: [%s]: unknown "
			    "section (expected [repo \"owner/name\"] or "
			    "[sink \"NAME\"])", cf->path, cf->line, section);
			return 1;
		}
		r = config_repo(cf->conf, repo);
		free(repo);
		if (strcmp(name, "show") == 0) {
			if (*value == '\0')
				config_causes_add(cf->causes, "%s:%d: show: "
				    "empty value", cf->path, cf->line);
			else {
				free(r->show);
				r->show = xstrdup(value);
			}
		} else if (strcmp(name, "branches") == 0) {
			strlist_clear(&r->branches);
			strlist_split(&r->branches, value);
		} else if (config_repo_key(cf, r, name, value) == -1)
			config_causes_add(cf->causes, "%s:%d: %s: unknown key in "
			    "[%s] (expected show or branches, or an llm_ key)", cf->path,
			    cf->line, name, section);
		return 1;
	}
	if ((k = config_find_key(name)) == NULL) {
		config_causes_add(cf->causes, "%s:%d: %s: unknown key",
		    cf->path, cf->line, name);
		return 1;
	}
	if ((cause = config_set(cf->conf, k, value)) != NULL) {
		config_causes_add(cf->causes, "%s:%d: %s: %s", cf->path,
		    cf->line, name, cause);
		free(cause);
	}
	config_set_origin(cf->conf, k, "%s:%d", cf->path, cf->line);
	return 1;
}

static void
config_read_file(struct config *conf, const char *path,
    struct config_causes *causes)
{
	struct config_file	cf;

	memset(&cf, 0, sizeof(cf));
	if ((cf.f = fopen(path, "r")) == NULL) {
		config_causes_add(causes, "%s: %s", path, strerror(errno));
		return;
	}
	cf.path = path;
	cf.conf = conf;
	cf.causes = causes;
	ini_parse_stream(config_file_reader, &cf, config_file_handler, &cf);
	free(cf.linebuf);
	fclose(cf.f);
}

/*
 * With a POSIX access ACL a file's group bits are the ACL's mask, the
 * most any named user or group may do, not what its group may do.
 * systemd hands a credential to the service's user (DynamicUser= among
 * them) as a root-owned file of mode 0400 with the ACL entry
 * "user:UID:r", which shows as mode 0440. Such a file is private still:
 * 1 when an ACL lets no one read it but its owner and this user, else 0
 * (no ACL, or another reader).
 */
static int
config_acl_private(int fd)
{
	unsigned char	 acl[1024];
	uint32_t	 version, id;
	uint16_t	 tag, perm;
	ssize_t		 n, i;

	if ((n = fgetxattr(fd, "system.posix_acl_access", acl,
	    sizeof(acl))) < 4 || (n - 4) % 8 != 0)
		return 0;
	memcpy(&version, acl, 4);
	if (le32toh(version) != 2)
		return 0;
	for (i = 4; i < n; i += 8) {
		memcpy(&tag, acl + i, 2);
		memcpy(&perm, acl + i + 2, 2);
		memcpy(&id, acl + i + 4, 4);
		if ((le16toh(perm) & 04) == 0)
			continue;
		switch (le16toh(tag)) {
		case 0x01:		/* ACL_USER_OBJ: the owner */
		case 0x10:		/* ACL_MASK */
			break;
		case 0x02:		/* ACL_USER */
			if (le32toh(id) != (uint32_t)geteuid())
				return 0;
			break;
		default:		/* the group, a group, others */
			return 0;
		}
	}
	return 1;
}

/*
 * Open a file holding a credential (secret, token, private key) and
 * check what was opened (fstat of the descriptor, so the file can't be
 * swapped between the check and the read): a regular file of at most
 * 64 KiB, owned by this user or root, that no one else can write or
 * read. Whoever can write it can choose the secret and forge
 * deliveries; whoever can read it can sign them, or spend the token.
 * Every credential key is read through here, and its path kept in
 * conf->credential_files (config_check_dirs). A stream, or NULL with a
 * cause naming the key, the file and why.
 */
static FILE *
config_open_private(struct config *conf, const char *key, const char *path,
    struct config_causes *causes)
{
	struct stat	st;
	FILE		*f;
	int		 fd;

	/* kept, so none is where output_dir would serve it */
	strlist_add(&conf->credential_files, path);
	/* O_NONBLOCK: a FIFO planted there can't hold the start */
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY |
	    O_NONBLOCK)) == -1) {
		config_causes_add(causes, "%s: %s: %s", key, path,
		    strerror(errno));
		return NULL;
	}
	if ((f = fdopen(fd, "r")) == NULL) {
		config_causes_add(causes, "%s: %s: %s", key, path,
		    strerror(errno));
		close(fd);
		return NULL;
	}
	if (fstat(fd, &st) == -1) {
		config_causes_add(causes, "%s: %s: %s", key, path,
		    strerror(errno));
		goto bad;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > CONFIG_PRIVATE_MAX) {
		config_causes_add(causes, "%s: %s: not a regular file of at "
		    "most 64 KiB", key, path);
		goto bad;
	}
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
		config_causes_add(causes, "%s: %s: writable by %s (mode %04o); "
		    "whoever can write it can forge deliveries: chmod go-w it",
		    key, path, (st.st_mode & S_IWOTH) ? "everyone" : "its group",
		    (unsigned)(st.st_mode & 07777));
		goto bad;
	}
	if ((st.st_mode & S_IROTH) != 0 || ((st.st_mode & S_IRGRP) != 0 &&
	    !config_acl_private(fd))) {
		config_causes_add(causes, "%s: %s: readable by %s (mode %04o); "
		    "only this user may read it: chmod 600 it", key, path,
		    (st.st_mode & S_IROTH) ? "everyone" : "its group",
		    (unsigned)(st.st_mode & 07777));
		goto bad;
	}
	if (st.st_uid != geteuid() && st.st_uid != 0) {
		config_causes_add(causes, "%s: %s: owned by uid %lu, neither "
		    "this user (uid %lu) nor root", key, path,
		    (unsigned long)st.st_uid, (unsigned long)geteuid());
		goto bad;
	}
	return f;
bad:
	fclose(f);
	return NULL;
}

/* A blank line, or a comment ('#' first), in a secret or token file. */
static int
config_line_skipped(const char *line, size_t n)
{
	size_t	i;

	if (n > 0 && line[0] == '#')
		return 1;
	for (i = 0; i < n; i++)
		if (line[i] != ' ' && line[i] != '\t')
			return 0;
	return 1;
}

/* Add a secret of len bytes (copied), or a cause when it is too short. */
static void
config_add_secret(struct config *conf, const char *what, const char *s,
    size_t len, struct config_causes *causes)
{
	if (len < CONFIG_SECRET_MIN) {
		config_causes_add(causes, "%s: a secret of %zu byte%s; at least "
		    "%d are required (use a random one, e.g. openssl rand "
		    "-hex 32)", what, len, len == 1 ? "" : "s",
		    CONFIG_SECRET_MIN);
		return;
	}
	conf->secrets = xreallocarray(conf->secrets, conf->nsecrets + 1,
	    sizeof(*conf->secrets));
	conf->secretlens = xreallocarray(conf->secretlens, conf->nsecrets + 1,
	    sizeof(*conf->secretlens));
	conf->secrets[conf->nsecrets] = xstrndup(s, len);
	conf->secretlens[conf->nsecrets++] = len;
}

/*
 * Read one secret file: each line is a secret, except blank lines and
 * lines starting with '#'.
 */
static void
config_read_secret(struct config *conf, const char *path,
    struct config_causes *causes)
{
	FILE		*f;
	char		*line = NULL, *what;
	size_t		 cap = 0;
	ssize_t		 n;
	int		 found = 0, lineno = 0;

	if ((f = config_open_private(conf, "secret_file", path,
	    causes)) == NULL)
		return;
	while ((n = getline(&line, &cap, f)) != -1) {
		lineno++;
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		if (config_line_skipped(line, (size_t)n))
			continue;
		xasprintf(&what, "secret_file: %s:%d", path, lineno);
		config_add_secret(conf, what, line, (size_t)n, causes);
		free(what);
		found = 1;
	}
	if (line != NULL)
		explicit_bzero(line, cap);
	free(line);
	fclose(f);
	if (!found)
		config_causes_add(causes, "secret_file: %s: no secret in it",
		    path);
}

/*
 * The GitHub token: the file's first line that is not blank or '#'. A
 * credential may hold none (the unit's fallback when there is no token
 * file): no token then.
 */
static void
config_read_token(struct config *conf, const char *key, const char *path,
    int optional, struct config_causes *causes)
{
	FILE	*f;
	char	*line = NULL;
	size_t	 cap = 0;
	ssize_t	 n;

	if ((f = config_open_private(conf, key, path, causes)) == NULL)
		return;
	while ((n = getline(&line, &cap, f)) != -1) {
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r' ||
		    line[n - 1] == ' '))
			line[--n] = '\0';
		if (!config_line_skipped(line, (size_t)n))
			break;
	}
	fclose(f);
	if (n == -1 && optional)
		;
	else if (n <= 0 || n > 4096 || strpbrk(line, "\r\n \t") != NULL)
		config_causes_add(causes, "%s: %s: no token on its first line",
		    key, path);
	else
		conf->github_token = xstrdup(line);
	if (line != NULL)
		explicit_bzero(line, cap);
	free(line);
}

/* Where an http(s) URL sends what it is given. */
struct config_origin {
	int	https;
	char	host[256];	/* lower case, without brackets */
	long	port;		/* 80 or 443 when the URL gives none */
};

/*
 * The origin (scheme, host, port) of an http:// or https:// URL, read as
 * libcurl reads it: the authority runs to the first '/', '?' or '#',
 * user info to its last '@' is no part of the host. 0, or -1 when there
 * is no host or the port is not a number up to 65535 (such a URL has
 * no origin, and so is given no key).
 */
static int
config_url_origin(const char *url, struct config_origin *o)
{
	const char	*p, *end, *host, *hostend, *port = NULL;
	size_t		 i, n;

	if (strncasecmp(url, "https://", 8) == 0) {
		o->https = 1;
		p = url + 8;
	} else if (strncasecmp(url, "http://", 7) == 0) {
		o->https = 0;
		p = url + 7;
	} else
		return -1;
	end = p + strcspn(p, "/?#");
	for (host = end; host > p && host[-1] != '@'; host--)
		;
	if (*host == '[') {
		if ((hostend = memchr(host, ']', (size_t)(end - host))) ==
		    NULL)
			return -1;
		host++;
		if (hostend + 1 < end) {
			if (hostend[1] != ':')
				return -1;
			port = hostend + 2;
		}
	} else if ((hostend = memchr(host, ':', (size_t)(end - host))) !=
	    NULL)
		port = hostend + 1;
	else
		hostend = end;
	n = (size_t)(hostend - host);
	if (n == 0 || n >= sizeof(o->host))
		return -1;
	for (i = 0; i < n; i++)
		o->host[i] = (char)tolower((unsigned char)host[i]);
	o->host[n] = '\0';
	o->port = o->https ? 443 : 80;
	if (port != NULL && port < end) {
		if ((size_t)(end - port) > 5 ||
		    strspn(port, "0123456789") < (size_t)(end - port))
			return -1;
		o->port = strtol(port, NULL, 10);
		if (o->port > 65535)
			return -1;
	}
	return 0;
}

/* Do two URLs have one origin (both readable, the same)? */
static int
config_same_origin(const char *a, const char *b)
{
	struct config_origin	oa, ob;

	if (config_url_origin(a, &oa) == -1 || config_url_origin(b, &ob) == -1)
		return 0;
	return oa.https == ob.https && strcmp(oa.host, ob.host) == 0 &&
	    oa.port == ob.port;
}

/*
 * Warn when a model key would go to url over plain http to a host that
 * is not this machine: anyone on the way can read it. where names the
 * key ("file:line: llm_key_file").
 */
static void
config_llm_warn_plain(const char *where, const char *url)
{
	struct config_origin	o;

	if (config_url_origin(url, &o) == 0 && !o.https &&
	    !config_host_loopback(o.host))
		log_warnx("%s: the model's key is sent to %s over plain http; "
		    "anyone on the way can read it (use https)", where, url);
}

/* "file:line: key" or "--flag (key)", where key was set; new. */
static char *
config_where(const struct config *conf, const char *key)
{
	const char	*origin = NULL;
	char		*s;
	size_t		 k;

	for (k = 0; k < NKEYS; k++)
		if (strcmp(config_keys[k].name, key) == 0)
			origin = conf->origins[k];
	if (origin == NULL)
		s = xstrdup(key);
	else if (origin[0] == '-')
		xasprintf(&s, "%s (%s)", origin, key);
	else
		xasprintf(&s, "%s: %s", origin, key);
	return s;
}

/*
 * The model's bearer tokens, global and per repository: read as the
 * GitHub token is (config_read_token fills github_token: borrowed).
 * Which server gets which key is config_llm's.
 */
static void
config_llm_keys(struct config *conf, struct config_causes *causes)
{
	struct repo_conf	*r;
	char			*save = conf->github_token, *where;
	size_t			 i;

	where = config_where(conf, "llm_key_file");
	if (conf->llm_key_file != NULL && conf->llm_url == NULL)
		log_warnx("%s: no llm_url beside it, so the key is sent to "
		    "no server (a [repo] section's llm_url gets only that "
		    "section's llm_key_file)", where);
	else if (conf->llm_key_file != NULL)
		config_llm_warn_plain(where, conf->llm_url);
	free(where);
	for (i = 0; i < conf->nrepos; i++) {
		r = &conf->repos[i];
		if (r->llm_key_file != NULL && (r->llm_url != NULL ||
		    conf->llm_url != NULL))
			config_llm_warn_plain(r->llm_key_where,
			    r->llm_url != NULL ? r->llm_url : conf->llm_url);
	}

	conf->github_token = NULL;
	if (conf->llm_key_file != NULL) {
		config_read_token(conf, "llm_key_file", conf->llm_key_file, 0,
		    causes);
		conf->llm_key = conf->github_token;
		conf->github_token = NULL;
	}
	for (i = 0; i < conf->nrepos; i++) {
		r = &conf->repos[i];
		if (r->llm_key_file == NULL)
			continue;
		config_read_token(conf, r->llm_key_where, r->llm_key_file, 0,
		    causes);
		r->llm_key = conf->github_token;
		conf->github_token = NULL;
	}
	conf->github_token = save;
}

/* What a sink needs once its section is read: its type's keys, its files. */
static void
config_sink_finish(struct config *conf, struct sink_conf *s,
    struct config_causes *causes)
{
	const char	*w = s->where;
	FILE		*f;
	char		*key, *save;
	size_t		 i, n;
	char		 buf[CONFIG_PRIVATE_MAX];

	for (i = 0; i < s->repositories.n; i++)
		if (strchr(s->repositories.v[i], '/') == NULL)
			config_causes_add(causes, "%s: repositories: '%s' in "
			    "[sink \"%s\"] is not owner/name or owner/*", w,
			    s->repositories.v[i], s->name);
	if (s->type == -1) {
		config_causes_add(causes, "%s: type: [sink \"%s\"] has no type "
		    "(%s)", w, s->name, sink_kind_names());
		return;
	}
	if (s->type == SINK_EXEC) {
		if (s->command.n == 0)
			config_causes_add(causes, "%s: command: missing in [sink "
			    "\"%s\"] (an exec sink)", w, s->name);
		else if (strchr(s->command.v[0], '/') != NULL &&
		    access(s->command.v[0], X_OK) == -1)
			config_causes_add(causes, "%s: command: %s: %s", w,
			    s->command.v[0], strerror(errno));
		if (s->url != NULL || s->secret_file != NULL ||
		    s->token_file != NULL)
			config_causes_add(causes, "%s: [sink \"%s\"]: url, "
			    "secret_file and token_file are for http and slack "
			    "sinks", w, s->name);
		return;
	}
	if (s->command.n > 0)
		config_causes_add(causes, "%s: command: only an exec sink runs "
		    "a command ([sink \"%s\"])", w, s->name);
	if (s->url == NULL)
		config_causes_add(causes, "%s: url: missing in [sink \"%s\"]",
		    w, s->name);
	if (s->type == SINK_SLACK && (s->secret_file != NULL ||
	    s->token_file != NULL))
		config_causes_add(causes, "%s: [sink \"%s\"]: a slack sink "
		    "takes no secret_file or token_file (its URL is its "
		    "secret)", w, s->name);
	if (s->type != SINK_HTTP)
		return;
	if (s->secret_file == NULL)
		config_causes_add(causes, "%s: secret_file: missing in [sink "
		    "\"%s\"] (an http sink signs what it sends)", w, s->name);
	else if ((f = config_open_private(conf, s->secret_where,
	    s->secret_file, causes)) != NULL) {
		n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
			n--;
		if (n < CONFIG_SECRET_MIN)
			config_causes_add(causes, "%s: %s: shorter than %d "
			    "bytes", s->secret_where, s->secret_file,
			    CONFIG_SECRET_MIN);
		else {
			s->secret = xmalloc(n + 1);
			memcpy(s->secret, buf, n);
			s->secret[n] = '\0';
			s->secretlen = n;
		}
		explicit_bzero(buf, sizeof(buf));
	}
	if (s->token_file != NULL) {
		/* config_read_token fills github_token: borrow it */
		save = conf->github_token;
		conf->github_token = NULL;
		key = s->token_where;
		config_read_token(conf, key, s->token_file, 0, causes);
		s->token = conf->github_token;
		conf->github_token = save;
	}
}

/* The TLS private key is checked like a secret file (tls.c reads it). */
static void
config_check_tls_key(struct config *conf, const char *path,
    struct config_causes *causes)
{
	FILE	*f;

	if ((f = config_open_private(conf, "tls_key", path, causes)) != NULL)
		fclose(f);
}

/*
 * The names state_dir keeps its own files and folders under: the journal
 * (journal.c), the outbox's records (outbox.c), the lock (main.c). An
 * output_dir inside state_dir must keep clear of them.
 */
static const char *const config_state_names[] = {
	"journal", "outbox", "hookcastd.lock",
};

/*
 * Nothing of the daemon's own may be where episodes are written and
 * served: output_dir may not be state_dir or hold it (the journal and
 * the outbox's records would be served as OWNER/REPO/FILE.json), may lie
 * inside state_dir only off the names state_dir uses, and may hold
 * neither the control socket nor any credential file read. Paths are
 * compared resolved (file_realpath), so trailing slashes, "..", and
 * symlinks give one answer, for folders not yet made too.
 */
static void
config_check_dirs(struct config *conf, struct config_causes *causes)
{
	char		*out, *state = NULL, *p, *rest, *shown;
	size_t		 i, n;

	if ((out = file_realpath(conf->output_dir)) == NULL) {
		config_causes_add(causes, "output_dir: %s: %s",
		    conf->output_dir, strerror(errno));
		return;
	}
	/* the operator's spelling, and what it comes to when that differs */
	if (strcmp(out, conf->output_dir) == 0)
		shown = xstrdup(out);
	else
		xasprintf(&shown, "%s (that is, %s)", conf->output_dir, out);
	if ((state = file_realpath(conf->state_dir)) == NULL)
		config_causes_add(causes, "state_dir: %s: %s", conf->state_dir,
		    strerror(errno));
	else if (file_path_within(state, out))
		config_causes_add(causes, "output_dir: %s %s state_dir %s; "
		    "its journal and outbox would be written among the "
		    "episodes and served with serve_episodes: give output_dir "
		    "a folder of its own, such as %s/episodes", shown,
		    strcmp(state, out) == 0 ? "is" : "holds", conf->state_dir,
		    conf->state_dir);
	else if (file_path_within(out, state)) {
		rest = out + strlen(state) + (strcmp(state, "/") != 0);
		n = strcspn(rest, "/");
		for (i = 0; i < sizeof(config_state_names) /
		    sizeof(config_state_names[0]); i++)
			if (strlen(config_state_names[i]) == n &&
			    strncmp(rest, config_state_names[i], n) == 0)
				config_causes_add(causes, "output_dir: %s is "
				    "inside %s/%s, which state_dir keeps for "
				    "itself: give output_dir a folder of its "
				    "own, such as %s/episodes", shown,
				    conf->state_dir, config_state_names[i],
				    conf->state_dir);
	}
	if ((p = file_realpath(conf->control_socket)) != NULL &&
	    file_path_within(p, out))
		config_causes_add(causes, "output_dir: %s holds control_socket "
		    "%s; put the socket elsewhere", shown,
		    conf->control_socket);
	free(p);
	for (i = 0; i < conf->credential_files.n; i++) {
		if ((p = file_realpath(conf->credential_files.v[i])) != NULL &&
		    file_path_within(p, out))
			config_causes_add(causes, "output_dir: %s holds %s, a "
			    "credential file, which serve_episodes could "
			    "serve: keep it elsewhere", shown,
			    conf->credential_files.v[i]);
		free(p);
	}
	free(shown);
	free(state);
	free(out);
}

/* Is host a loopback address ("localhost", 127.0.0.0/8, ::1)? */
static int
config_host_loopback(const char *host)
{
	struct in_addr	 a4;
	struct in6_addr	 a6;

	if (strcasecmp(host, "localhost") == 0)
		return 1;
	if (inet_pton(AF_INET, host, &a4) == 1)
		return (ntohl(a4.s_addr) >> 24) == 127;
	if (inet_pton(AF_INET6, host, &a6) == 1) {
		if (IN6_IS_ADDR_LOOPBACK(&a6))
			return 1;
		return IN6_IS_ADDR_V4MAPPED(&a6) && a6.s6_addr[12] == 127;
	}
	return 0;
}

int
config_loopback_only(const struct strlist *listen)
{
	struct hostport	 hp;
	const char	*why;
	size_t		 i;

	for (i = 0; i < listen->n; i++) {
		if (hostport_parse(listen->v[i], &hp, &why) == -1 ||
		    !config_host_loopback(hp.host))
			return 0;
	}
	return 1;
}

/*
 * metrics_listen: host:port, or a port alone for 127.0.0.1:port. The
 * webhook listener then no longer serves /metrics.
 */
static void
config_metrics_listen(struct config *conf, struct config_causes *causes)
{
	struct hostport	 hp;
	const char	*why, *s = conf->metrics_listen;
	char		*full;

	if (strspn(s, "0123456789") == strlen(s)) {
		xasprintf(&full, "127.0.0.1:%s", s);
		free(conf->metrics_listen);
		conf->metrics_listen = full;
		s = full;
	}
	if (hostport_parse(s, &hp, &why) == -1)
		config_causes_add(causes, "metrics_listen: '%s' is not "
		    "host:port: %s", s, why);
	if (conf->metrics_public)
		config_causes_add(causes, "metrics_public: true while "
		    "metrics_listen is set; /metrics is served on "
		    "metrics_listen only");
}

static void
config_defaults(struct config *conf, struct config_causes *causes)
{
	size_t	 i;
	char	*cause;

	memset(conf, 0, sizeof(*conf));
	conf->origins = xcalloc(NKEYS, sizeof(*conf->origins));
	for (i = 0; i < NKEYS; i++) {
		if (config_keys[i].def == NULL)
			continue;
		cause = config_set(conf, &config_keys[i], config_keys[i].def);
		if (cause != NULL)
			fatalx("%s: bad embedded default: %s", __func__, cause);
	}
}

/* Fill what depends on the environment and the other keys. */
static void
config_finish(struct config *conf, int flags, struct config_causes *causes)
{
	struct hostport	 hp;
	const char	*env, *why;
	size_t		 i, secret_causes;
	char		*path;

	if (conf->state_dir == NULL) {
		env = getenv("STATE_DIRECTORY");
		if (env != NULL && *env != '\0') {
			/* systemd may pass several, colon-separated */
			conf->state_dir = xstrndup(env, strcspn(env, ":"));
		} else
			conf->state_dir = xstrdup("./hookcast-state");
	}
	if (conf->output_dir == NULL)
		xasprintf(&conf->output_dir, "%s/episodes", conf->state_dir);
	if (conf->control_socket == NULL) {
		env = getenv("RUNTIME_DIRECTORY");
		if (env != NULL && *env != '\0')
			xasprintf(&conf->control_socket, "%.*s/control.sock",
			    (int)strcspn(env, ":"), env);
		else
			xasprintf(&conf->control_socket, "%s/control.sock",
			    conf->state_dir);
	}
	if (conf->webhook_path[0] != '/')
		config_causes_add(causes, "webhook_path: '%s' must start with /",
		    conf->webhook_path);
	if (conf->listen.n == 0)
		config_causes_add(causes, "listen: no address");
	if (conf->max_buffered_bodies < conf->max_body)
		config_causes_add(causes, "max_buffered_bodies: %lld is less "
		    "than max_body (%lld)", conf->max_buffered_bodies,
		    conf->max_body);
	if ((conf->tls_cert == NULL) != (conf->tls_key == NULL))
		config_causes_add(causes, "%s: set both tls_cert and tls_key",
		    conf->tls_cert == NULL ? "tls_cert" : "tls_key");
	for (i = 0; i < conf->backfill_hooks.n; i++) {
		if (backfill_hook_check(conf->backfill_hooks.v[i],
		    &why) == -1)
			config_causes_add(causes, "backfill_hooks: '%s' is not "
			    "owner/repo:hook_id: %s", conf->backfill_hooks.v[i],
			    why);
	}
	for (i = 0; i < conf->repositories.n; i++) {
		const char *e = conf->repositories.v[i], *slash;

		slash = strchr(e, '/');
		if (slash == NULL || slash == e || slash[1] == '\0' ||
		    strchr(slash + 1, '/') != NULL || strpbrk(e, " \t") != NULL)
			config_causes_add(causes, "repositories: '%s' is not "
			    "owner/name or owner/*", e);
	}
	if (conf->github_token_file != NULL && !(flags & CONFIG_NO_SECRETS))
		config_read_token(conf, "github_token_file",
		    conf->github_token_file, 0, causes);
	else if (!(flags & CONFIG_NO_SECRETS) &&
	    (env = getenv("CREDENTIALS_DIRECTORY")) != NULL &&
	    *env != '\0') {
		/* the unit's LoadCredential=github-token: */
		xasprintf(&path, "%s/github-token", env);
		if (access(path, F_OK) == 0)
			config_read_token(conf, "github-token credential", path,
			    1, causes);
		free(path);
	} else if ((flags & CONFIG_CHECK) &&
	    (path = config_beside(conf, "github-token")) != NULL) {
		config_read_token(conf, "github-token credential", path, 1,
		    causes);
		free(path);
	}
	if (conf->backfill_hooks.n > 0 && !(flags & CONFIG_NO_SECRETS) &&
	    conf->github_token_file == NULL &&
	    conf->github_token == NULL)
		config_causes_add(causes, "backfill_hooks: needs "
		    "github_token_file (or a github-token credential)");
	if (conf->tls_cert != NULL && access(conf->tls_cert, R_OK) == -1)
		config_causes_add(causes, "tls_cert: %s: %s", conf->tls_cert,
		    strerror(errno));
	if (conf->tls_key != NULL && !(flags & CONFIG_NO_SECRETS))
		config_check_tls_key(conf, conf->tls_key, causes);
	for (i = 0; i < conf->nsinks && !(flags & CONFIG_NO_SECRETS); i++)
		config_sink_finish(conf, &conf->sinks[i], causes);
	config_llm_keys(conf, causes);
	if (conf->sink_retry_max < conf->sink_retry_min)
		config_causes_add(causes, "sink_retry_max: %d is less than "
		    "sink_retry_min (%d)", conf->sink_retry_max,
		    conf->sink_retry_min);
	for (i = 0; i < conf->listen.n; i++) {
		if (hostport_parse(conf->listen.v[i], &hp, &why) == -1)
			config_causes_add(causes, "listen: '%s' is not "
			    "host:port: %s", conf->listen.v[i], why);
	}
	if (conf->metrics_listen != NULL)
		config_metrics_listen(conf, causes);
	if (conf->feed_owner_email != NULL &&
	    !config_email_ok(conf->feed_owner_email))
		config_causes_add(causes, "feed_owner_email: '%s' is not an "
		    "email address", conf->feed_owner_email);
	if (conf->tts_command == NULL ||
	    conf->tts_command[strspn(conf->tts_command, " \t")] == '\0')
		config_causes_add(causes, "tts_command: empty (set audio = off "
		    "for no audio)");
	/* time zone: it must be a zone of the zone database */
	if (!schedule_zone_exists(conf->timezone))
		config_causes_add(causes, "timezone: unknown time zone '%s'",
		    conf->timezone);
	/* hookcast-draft: no secrets, no state, nothing served */
	if (flags & CONFIG_NO_SECRETS)
		return;
	/* a secret refused says why; "no webhook secret" would only add noise */
	secret_causes = causes->n;
	for (i = 0; i < conf->secret_files.n; i++)
		config_read_secret(conf, conf->secret_files.v[i], causes);
	if (conf->secret_files.n == 0) {
		env = getenv("CREDENTIALS_DIRECTORY");
		if (env != NULL && *env != '\0') {
			xasprintf(&path, "%s/webhook-secret", env);
			if (access(path, F_OK) == 0)
				config_read_secret(conf, path, causes);
			free(path);
		} else if ((flags & CONFIG_CHECK) &&
		    (path = config_beside(conf, "webhook-secret")) != NULL) {
			config_read_secret(conf, path, causes);
			free(path);
		}
	}
	if (conf->nsecrets == 0 && (env = childenv_secret()) != NULL &&
	    *env != '\0')
		config_add_secret(conf, "$HOOKCAST_SECRET", env, strlen(env),
		    causes);
	if (conf->nsecrets == 0 && !conf->insecure_no_signature &&
	    causes->n == secret_causes)
		config_causes_add(causes, "secret_file: no webhook secret (give "
		    "--secret-file, $CREDENTIALS_DIRECTORY/webhook-secret or "
		    "$HOOKCAST_SECRET; or --insecure-no-signature for testing)");
	/* unsigned deliveries only from this machine */
	if (conf->nsecrets == 0 && conf->insecure_no_signature &&
	    !config_loopback_only(&conf->listen))
		config_causes_add(causes, "insecure_no_signature: no webhook "
		    "secret while listen has a non-loopback address; anyone "
		    "who reaches it could feed episodes (give a secret_file, "
		    "or listen on 127.0.0.1 or [::1] only)");
	config_check_dirs(conf, causes);
}

/* --some-key=value -> some_key (new) and value (borrowed). */
static char *
config_flag_name(const char *arg, const char **value)
{
	const char	*eq;
	char		*name, *p;

	if (strncmp(arg, "--", 2) != 0)
		return NULL;
	arg += 2;
	eq = strchr(arg, '=');
	name = eq != NULL ? xstrndup(arg, (size_t)(eq - arg)) : xstrdup(arg);
	for (p = name; *p != '\0'; p++)
		if (*p == '-')
			*p = '_';
	*value = eq != NULL ? eq + 1 : NULL;
	return name;
}

int
config_load(struct config *conf, int argc, char **argv,
    const char *const *passthrough, struct config_causes *causes)
{
	return config_load_flags(conf, argc, argv, passthrough, 0, causes);
}

/*
 * Give conf the running configuration's value of every key a reload can't
 * change: what the daemon opened at start (its sockets, its state) stays,
 * and what follows from it (output_dir's and control_socket's defaults,
 * the overlap of output_dir and state_dir) is worked out from what runs,
 * not from what the file will say at the next start.
 */
static void
config_keep_running(struct config *conf, const struct config *running)
{
	const struct config_key	*k;
	const struct strlist	*from;
	struct strlist		*to;
	const char		*src;
	char			*dst, **s;
	size_t			 i, j;

	for (i = 0; i < NKEYS; i++) {
		k = &config_keys[i];
		if (k->reloadable)
			continue;
		src = (const char *)running + k->offset;
		dst = (char *)conf + k->offset;
		switch (k->type) {
		case CONFIG_URL:
		case CONFIG_STRING:
			s = (char **)(void *)dst;
			free(*s);
			*s = *(char *const *)(const void *)src != NULL ?
			    xstrdup(*(char *const *)(const void *)src) : NULL;
			break;
		case CONFIG_LIST:
			from = (const struct strlist *)(const void *)src;
			to = (struct strlist *)(void *)dst;
			strlist_clear(to);
			for (j = 0; j < from->n; j++)
				strlist_add(to, from->v[j]);
			break;
		case CONFIG_INT:
		case CONFIG_BOOL:
		case CONFIG_LOG_LEVEL:
		case CONFIG_ENUM:
			memcpy(dst, src, sizeof(int));
			break;
		case CONFIG_SIZE:
			memcpy(dst, src, sizeof(long long));
			break;
		case CONFIG_PACE:
			memcpy(dst, src, sizeof(double));
			break;
		case CONFIG_TIME_OF_DAY:
			conf->emit_hour = running->emit_hour;
			conf->emit_minute = running->emit_minute;
			break;
		}
	}
}

static void	config_value_string(const struct config *,
		    const struct config_key *, struct buf *);

/* Warn of each key a reload leaves as it runs until the next start. */
static void
config_log_restart_only(const struct config *running,
    const struct config *next)
{
	struct buf	a, b;
	size_t		i;

	buf_init(&a);
	buf_init(&b);
	for (i = 0; i < NKEYS; i++) {
		if (config_keys[i].reloadable)
			continue;
		buf_reset(&a);
		buf_reset(&b);
		config_value_string(running, &config_keys[i], &a);
		config_value_string(next, &config_keys[i], &b);
		if (strcmp(buf_str(&a), buf_str(&b)) != 0)
			log_warnx("reload: %s changed from '%s' to '%s'; it "
			    "takes effect after a restart", config_keys[i].name,
			    buf_str(&a), buf_str(&b));
	}
	buf_free(&a);
	buf_free(&b);
}

static int	config_load_kept(struct config *, int, char **,
		    const char *const *, int, const struct config *,
		    struct config_causes *);

int
config_load_flags(struct config *conf, int argc, char **argv,
    const char *const *passthrough, int flags, struct config_causes *causes)
{
	return config_load_kept(conf, argc, argv, passthrough, flags, NULL,
	    causes);
}

int
config_reload(struct config *conf, const struct config *running, int argc,
    char **argv, const char *const *passthrough,
    struct config_causes *causes)
{
	struct config	next;
	int		rc;

	/*
	 * First as the next start will read it: its errors refuse the
	 * reload (better now than at that start), and what differs in a
	 * key only a restart changes is told.
	 */
	rc = config_load_kept(&next, argc, argv, passthrough, 0, NULL,
	    causes);
	if (rc == 0)
		config_log_restart_only(running, &next);
	config_clear(&next);
	if (rc == -1) {
		memset(conf, 0, sizeof(*conf));
		config_defaults(conf, causes);
		return -1;
	}
	return config_load_kept(conf, argc, argv, passthrough, 0, running,
	    causes);
}

/*
 * config_load_flags, with running (when not NULL) giving the keys a
 * reload can't change before anything is worked out from them.
 */
static int
config_load_kept(struct config *conf, int argc, char **argv,
    const char *const *passthrough, int flags, const struct config *running,
    struct config_causes *causes)
{
	const struct config_key	*k;
	const char		*value, *file = NULL;
	char			*name, *cause, *flag;
	size_t			 before = causes->n, j, late;
	int			 i, skip;

	config_defaults(conf, causes);

	/* --config first, wherever it stands */
	for (i = 1; i < argc; i++) {
		if (strncmp(argv[i], "--config=", 9) == 0)
			file = argv[i] + 9;
		else if (strcmp(argv[i], "--config") == 0 && i + 1 < argc)
			file = argv[++i];
	}
	if (file != NULL) {
		conf->file = xstrdup(file);
		config_read_file(conf, file, causes);
	}

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--config") == 0) {
			i++;
			continue;
		}
		if (strncmp(argv[i], "--config=", 9) == 0)
			continue;
		if ((name = config_flag_name(argv[i], &value)) == NULL) {
			config_causes_add(causes, "%s: unexpected argument",
			    argv[i]);
			continue;
		}
		skip = 0;
		for (j = 0; passthrough != NULL && passthrough[j] != NULL; j++)
			if (strcmp(argv[i], passthrough[j]) == 0)
				skip = 1;
		if (skip) {
			free(name);
			continue;
		}
		if ((k = config_find_key(name)) == NULL) {
			config_causes_add(causes, "%s: unknown option", argv[i]);
			free(name);
			continue;
		}
		/* the flag as given, before "--key value" moves on to value */
		flag = xstrndup(argv[i], strcspn(argv[i], "="));
		if (value == NULL && k->type == CONFIG_BOOL)
			value = "true";
		else if (value == NULL && i + 1 < argc)
			value = argv[++i];
		if (value == NULL) {
			config_causes_add(causes, "--%s: missing value", name);
			free(flag);
			free(name);
			continue;
		}
		if ((cause = config_set(conf, k, value)) != NULL) {
			config_causes_add(causes, "%s (%s): %s", flag, name,
			    cause);
			free(cause);
		}
		config_set_origin(conf, k, "%s", flag);
		free(flag);
		free(name);
	}
	if (running != NULL)
		config_keep_running(conf, running);
	late = causes->n;
	config_finish(conf, flags, causes);
	config_place_causes(conf, causes, late);
	config_sort_causes(conf, causes, before);
	return causes->n > before ? -1 : 0;
}

void
config_clear(struct config *conf)
{
	size_t	i;

	free(conf->file);
	if (conf->origins != NULL)
		for (i = 0; i < NKEYS; i++)
			free(conf->origins[i]);
	free(conf->origins);
	strlist_clear(&conf->listen);
	free(conf->webhook_path);
	strlist_clear(&conf->secret_files);
	free(conf->state_dir);
	free(conf->output_dir);
	free(conf->control_socket);
	free(conf->timezone);
	free(conf->tls_cert);
	free(conf->tls_key);
	free(conf->public_url);
	free(conf->feed_image);
	free(conf->feed_owner_name);
	free(conf->feed_owner_email);
	free(conf->feed_category);
	free(conf->metrics_listen);
	free(conf->tts_command);
	free(conf->github_api_url);
	free(conf->github_token_file);
	free(conf->llm_url);
	free(conf->llm_model);
	free(conf->llm_key_file);
	if (conf->llm_key != NULL) {
		explicit_bzero(conf->llm_key, strlen(conf->llm_key));
		free(conf->llm_key);
	}
	strlist_clear(&conf->backfill_hooks);
	if (conf->github_token != NULL) {
		explicit_bzero(conf->github_token, strlen(conf->github_token));
		free(conf->github_token);
	}
	strlist_clear(&conf->branches);
	strlist_clear(&conf->repositories);
	for (i = 0; i < conf->nrepos; i++) {
		struct repo_conf *r = &conf->repos[i];

		free(r->name);
		free(r->show);
		strlist_clear(&r->branches);
		free(r->llm_url);
		free(r->llm_model);
		free(r->llm_key_file);
		free(r->llm_key_where);
		if (r->llm_key != NULL) {
			explicit_bzero(r->llm_key, strlen(r->llm_key));
			free(r->llm_key);
		}
	}
	free(conf->repos);
	for (i = 0; i < conf->nsinks; i++) {
		struct sink_conf *sk = &conf->sinks[i];

		free(sk->name);
		strlist_clear(&sk->repositories);
		free(sk->url);
		free(sk->secret_file);
		free(sk->token_file);
		if (sk->secret != NULL)
			explicit_bzero(sk->secret, sk->secretlen);
		free(sk->secret);
		if (sk->token != NULL)
			explicit_bzero(sk->token, strlen(sk->token));
		free(sk->token);
		strlist_clear(&sk->command);
		free(sk->where);
		free(sk->secret_where);
		free(sk->token_where);
	}
	free(conf->sinks);
	for (i = 0; i < conf->nsecrets; i++) {
		explicit_bzero(conf->secrets[i], conf->secretlens[i]);
		free(conf->secrets[i]);
	}
	free(conf->secrets);
	free(conf->secretlens);
	strlist_clear(&conf->credential_files);
	memset(conf, 0, sizeof(*conf));
}

static const struct repo_conf *
config_find_repo(const struct config *conf, const char *repo)
{
	size_t	i;

	for (i = 0; i < conf->nrepos; i++)
		if (strcasecmp(conf->repos[i].name, repo) == 0)
			return &conf->repos[i];
	return NULL;
}

void
config_set_show(struct config *conf, const char *repo, const char *show)
{
	struct repo_conf	*r;

	/* the section config_show reads, whatever its case */
	if ((r = (struct repo_conf *)config_find_repo(conf, repo)) == NULL)
		r = config_repo(conf, repo);
	free(r->show);
	r->show = xstrdup(show);
}

const struct sink_conf *
config_sink(const struct config *conf, const char *name)
{
	size_t	i;

	for (i = 0; i < conf->nsinks; i++)
		if (strcmp(conf->sinks[i].name, name) == 0)
			return &conf->sinks[i];
	return NULL;
}

int
config_sink_matches(const struct sink_conf *s, const char *repo)
{
	size_t	i;

	if (s->repositories.n == 0)
		return 1;
	for (i = 0; i < s->repositories.n; i++)
		if (fnmatch(s->repositories.v[i], repo, FNM_CASEFOLD) == 0)
			return 1;
	return 0;
}

const struct strlist *
config_branches(const struct config *conf, const char *repo)
{
	const struct repo_conf	*r = config_find_repo(conf, repo);

	if (r != NULL && r->branches.n > 0)
		return &r->branches;
	return &conf->branches;
}

int
config_repo_allowed(const struct config *conf, const char *repo)
{
	size_t	i;

	if (conf->repositories.n == 0)
		return 1;
	for (i = 0; i < conf->repositories.n; i++)
		if (fnmatch(conf->repositories.v[i], repo, FNM_CASEFOLD) == 0)
			return 1;
	return 0;
}

void
config_llm(const struct config *conf, const char *repo, struct llm_conf *l)
{
	const struct repo_conf	*r = config_find_repo(conf, repo);

	l->url = r != NULL && r->llm_url != NULL ? r->llm_url : conf->llm_url;
	l->model = r != NULL && r->llm_model != NULL ? r->llm_model :
	    conf->llm_model;
	/*
	 * A key goes only to the origin it was given for: a repository's
	 * own key to its section's llm_url (or the global one it keeps),
	 * the global key to the global llm_url's origin. A section that
	 * names another server and no key of its own sends none, so no
	 * server learns a key meant for another.
	 */
	if (r != NULL && r->llm_key_file != NULL)
		l->key = r->llm_key;
	else if (l->url != NULL && conf->llm_url != NULL &&
	    config_same_origin(l->url, conf->llm_url))
		l->key = conf->llm_key;
	else
		l->key = NULL;
	l->timeout = r != NULL && r->llm_timeout > 0 ? r->llm_timeout :
	    conf->llm_timeout;
}

char *
config_show(const struct config *conf, const char *repo)
{
	const struct repo_conf	*r = config_find_repo(conf, repo);
	const char		*name;
	char			*show;

	if (r != NULL && r->show != NULL)
		return xstrdup(r->show);
	/* "curl/curl" -> "curl": projects mind how their name is written */
	name = strchr(repo, '/');
	name = name != NULL ? name + 1 : repo;
	show = xstrdup(name);
	return show;
}

void
config_usage(void *fp)
{
	FILE	*f = fp;
	size_t	 i;
	char	 flag[64], *p;

	fprintf(f, "usage: hookcastd [--config FILE] [--KEY=VALUE ...] "
	    "[--check-config | --print-config]\n\n");
	fprintf(f, "Receives GitHub webhooks and drafts a daily spoken "
	    "episode of each repository's day.\n\n");
	fprintf(f, "  --config FILE            INI file of the keys below "
	    "(flags win over it)\n");
	fprintf(f, "  --check-config           validate and exit 0 or 1\n");
	fprintf(f, "  --print-config           print the settings in effect, "
	    "with where each came from\n");
	fprintf(f, "  --help, --version\n\n");
	for (i = 0; i < NKEYS; i++) {
		snprintf(flag, sizeof(flag), "--%s", config_keys[i].name);
		for (p = flag; *p != '\0'; p++)
			if (*p == '_')
				*p = '-';
		fprintf(f, "  %-24s %s", flag, config_keys[i].help);
		if (config_keys[i].def != NULL)
			fprintf(f, " [%s]", config_keys[i].def);
		fprintf(f, "\n");
	}
	fprintf(f, "\nPer repository: [repo \"owner/name\"] with show = NAME, "
	    "branches = a, b,\nand llm_url, llm_model, llm_key_file, "
	    "llm_timeout\n");
	fprintf(f, "Per sink: [sink \"NAME\"] with type = http|slack|exec, "
	    "repositories, url,\nsecret_file, token_file (http), command "
	    "(exec), max_running; see hookcast.conf(5)\n");
}

static void
config_value_string(const struct config *conf, const struct config_key *k,
    struct buf *b)
{
	const char		*p = (const char *)conf + k->offset;
	const struct strlist	*l;
	size_t			 i;

	switch (k->type) {
	case CONFIG_URL:
	case CONFIG_STRING:
		buf_puts(b, *(char *const *)p != NULL ? *(char *const *)p : "");
		break;
	case CONFIG_LIST:
		l = (const struct strlist *)p;
		for (i = 0; i < l->n; i++)
			buf_printf(b, "%s%s", i ? "," : "", l->v[i]);
		break;
	case CONFIG_INT:
	case CONFIG_BOOL:
		buf_printf(b, "%d", *(const int *)p);
		break;
	case CONFIG_LOG_LEVEL:
		buf_puts(b, log_level_name(*(const int *)p));
		break;
	case CONFIG_SIZE:
		buf_printf(b, "%lld", *(const long long *)p);
		break;
	case CONFIG_TIME_OF_DAY:
		buf_printf(b, "%02d:%02d", conf->emit_hour, conf->emit_minute);
		break;
	case CONFIG_PACE:
		buf_printf(b, "%g", *(const double *)p);
		break;
	case CONFIG_ENUM:
		buf_puts(b, config_enum_name(k->enums, *(const int *)p));
		break;
	}
}

/*
 * Every key in effect, in the table's order, as the file would set it,
 * with where its value came from: FILE:LINE, the flag, or the default
 * (which may follow the environment, as state_dir does). Files holding
 * secrets are named; secrets themselves are never printed.
 */
void
config_print(const struct config *conf, void *fp)
{
	FILE		*f = fp;
	struct buf	 b;
	size_t		 i;
	const char	*origin;

	buf_init(&b);
	fprintf(f, "# hookcastd %s: the settings in effect%s%s\n",
	    HOOKCAST_VERSION, conf->file != NULL ? ", from " : "",
	    conf->file != NULL ? conf->file : "");
	for (i = 0; i < NKEYS; i++) {
		buf_reset(&b);
		if (config_keys[i].type == CONFIG_BOOL)
			buf_puts(&b, *(const int *)((const char *)conf +
			    config_keys[i].offset) ? "true" : "false");
		else
			config_value_string(conf, &config_keys[i], &b);
		origin = conf->origins != NULL && conf->origins[i] != NULL ?
		    conf->origins[i] : "default";
		fprintf(f, "%s = %s\t# %s\n", config_keys[i].name,
		    buf_str(&b), origin);
	}
	fprintf(f, "# %zu webhook secret(s) loaded; %zu [repo] and %zu "
	    "[sink] section(s)\n", conf->nsecrets, conf->nrepos,
	    conf->nsinks);
	buf_free(&b);
}

void
config_log_changes(const struct config *old, const struct config *new)
{
	struct buf	a, b;
	size_t		i;
	int		any = 0;

	buf_init(&a);
	buf_init(&b);
	for (i = 0; i < NKEYS; i++) {
		buf_reset(&a);
		buf_reset(&b);
		config_value_string(old, &config_keys[i], &a);
		config_value_string(new, &config_keys[i], &b);
		if (strcmp(buf_str(&a), buf_str(&b)) == 0)
			continue;
		any = 1;
		/* a key only a restart changes was kept (config_reload) */
		if (strcmp(config_keys[i].name, "secret_file") == 0)
			log_notice("reload: secret_file changed");
		else
			log_notice("reload: %s changed from '%s' to '%s'",
			    config_keys[i].name, buf_str(&a), buf_str(&b));
	}
	if (old->nsecrets != new->nsecrets) {
		any = 1;
		log_notice("reload: %zu secret(s) now, %zu before",
		    new->nsecrets, old->nsecrets);
	}
	if (!any)
		log_info("reload: configuration unchanged");
	buf_free(&a);
	buf_free(&b);
}
