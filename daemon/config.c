/*
 * Configuration: the one table of keys, setting a key from a string,
 * defaults, flags, load and reload, clearing, and the queries the daemon
 * asks of a loaded configuration. The INI file is read in config_file.c,
 * credentials in config_secret.c; what is checked once every key is read
 * is config_check.c's, printing config_print.c's (see config_int.h).
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "config.h"
#include "config_int.h"
#include "log.h"
#include "sizefmt.h"
#include "suggest.h"
#include "xmalloc.h"

#define OFF(field) offsetof(struct config, field)

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

static const struct config_enum config_log_formats[] = {
	{ .name = "text", .value = LOG_STYLE_TEXT },
	{ .name = "logfmt", .value = LOG_STYLE_LOGFMT },
	{ .name = "json", .value = LOG_STYLE_JSON },
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

/*
 * bookend_voice: "same", or a built-in voice by its index in voice_names
 * (voice.h; test_config checks the two agree); voice: the voices alone,
 * from the second entry on.
 */
static const struct config_enum config_bookend_voices[] = {
	{ .name = "same", .value = -1 },
	{ .name = "rms", .value = 0 },
	{ .name = "slt", .value = 1 },
	{ .name = "awb", .value = 2 },
	{ .name = "kal", .value = 3 },
	{ .name = "kal16", .value = 4 },
	{ .name = NULL }
};
#define config_voices	(config_bookend_voices + 1)

/* CONFIG_ENUM stores through an int: every enum field is one. */
_Static_assert(sizeof(((struct config *)0)->journal_fsync) == sizeof(int),
    "journal_fsync is not int-sized");
_Static_assert(sizeof(((struct config *)0)->quiet_days) == sizeof(int),
    "quiet_days is not int-sized");
_Static_assert(sizeof(((struct config *)0)->audio) == sizeof(int),
    "audio is not int-sized");
_Static_assert(sizeof(((struct config *)0)->audio_encoder) == sizeof(int),
    "audio_encoder is not int-sized");

const struct config_key config_keys[] = {
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
	{ .name = "log_format", .type = CONFIG_ENUM,
	    .offset = OFF(log_format), .def = "text",
	    .enums = config_log_formats, .reloadable = 1,
	    .help = "text (lines as they read), logfmt (key=value pairs) or "
	    "json (an object per line)" },
	{ .name = "trusted_proxies", .type = CONFIG_LIST,
	    .offset = OFF(trusted_proxies), .reloadable = 1,
	    .help = "IP addresses of reverse proxies whose X-Forwarded-For "
	    "names the client in the log, comma-separated" },
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
	{ .name = "journal", .type = CONFIG_STRING, .offset = OFF(journal),
	    .def = "file",
	    .help = "where accepted deliveries are journalled: file "
	    "(STATE/journal) or redis://HOST:PORT/DB (a Redis stream shared "
	    "by several receivers)" },
	{ .name = "redis_password_file", .type = CONFIG_STRING,
	    .offset = OFF(redis_password_file), .help = "file holding the Redis password (AUTH)" },
	{ .name = "redis_prefix", .type = CONFIG_STRING,
	    .offset = OFF(redis_prefix), .def = "hookcast",
	    .help = "prefix of the Redis keys (the stream is PREFIX:journal)" },
	{ .name = "redis_replicas", .type = CONFIG_INT,
	    .offset = OFF(redis_replicas), .def = "0", .min = 0, .max = 16,
	    .help = "replicas that must have a delivery (WAIT) before its "
	    "2xx" },
	{ .name = "redis_timeout", .type = CONFIG_INT,
	    .offset = OFF(redis_timeout), .def = "2000", .min = 10,
	    .max = 60000, .help = "milliseconds Redis has to take a delivery before it is "
	    "answered 503" },
	{ .name = "redis_lease", .type = CONFIG_INT,
	    .offset = OFF(redis_lease), .def = "30", .min = 2, .max = 3600,
	    .help = "seconds a receiver's lease on a day it drafts lasts "
	    "unrenewed (another takes the day over after)" },
	{ .name = "redis_keep", .type = CONFIG_INT,
	    .offset = OFF(redis_keep), .def = "3600", .min = 0,
	    .max = 30 * 86400,
	    .help = "seconds the stream keeps entries of days already told "
	    "before trimming them" },
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
	    .offset = OFF(metrics_listen), .def = "127.0.0.1:9101",
	    .help = "a listener of its own for /metrics and /healthz, "
	    "host:port (a port alone: 127.0.0.1), or off" },
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
	    "or auto (on when the encoder, and tts_command's program if "
	    "set, are in PATH)" },
	{ .name = "voice", .type = CONFIG_ENUM, .offset = OFF(voice),
	    .def = "rms", .enums = config_voices, .reloadable = 1,
	    .help = "the built-in voice (flite's): rms, slt, awb, kal or "
	    "kal16" },
	{ .name = "bookend_voice", .type = CONFIG_ENUM,
	    .offset = OFF(bookend_voice), .def = "same",
	    .enums = config_bookend_voices, .reloadable = 1,
	    .help = "the built-in voice of the opening and the closing, "
	    "setting them off from the stories: same, or a voice at "
	    "voice's rate" },
	{ .name = "tts_command", .type = CONFIG_STRING,
	    .offset = OFF(tts_command), .reloadable = 1,
	    .help = "instead of the built-in voice: run by /bin/sh -c per "
	    "sentence, text on stdin, a WAV file on stdout" },
	{ .name = "section_sound", .type = CONFIG_STRING,
	    .offset = OFF(section_sound), .reloadable = 1,
	    .help = "a short WAV played between sections (in the voice's "
	    "format), after the pause" },
	{ .name = "audio_workers", .type = CONFIG_INT,
	    .offset = OFF(audio_workers), .def = "0", .min = 0, .max = 256,
	    .reloadable = 1,
	    .help = "episodes spoken at once after an emission (0: one per "
	    "CPU)" },
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

/*
 * Keys a [repo "owner/name"] section may set besides show and branches
 * (config_file.c): rows of the table above, kept beside it.
 */
const char *const config_repo_keys[] = {
	"llm_url", "llm_model", "llm_key_file", "llm_timeout",
};
const size_t config_nrepo_keys =
    sizeof(config_repo_keys) / sizeof(config_repo_keys[0]);

#define NKEYS (sizeof(config_keys) / sizeof(config_keys[0]))
const size_t config_nkeys = NKEYS;

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

int
config_key_set(const struct config *conf, const char *key)
{
	const struct config_key	*k = config_find_key(key);

	return k != NULL && conf->origins != NULL &&
	    conf->origins[k - config_keys] != NULL;
}

const struct config_key *
config_find_key(const char *name)
{
	size_t	i;

	for (i = 0; i < NKEYS; i++)
		if (strcmp(config_keys[i].name, name) == 0)
			return &config_keys[i];
	return NULL;
}

/* The key closest to name when name looks like a typo of it, or NULL. */
const char *
config_suggest_key(const char *name)
{
	struct suggest	s;
	size_t		i;

	suggest_init(&s, name);
	for (i = 0; i < NKEYS; i++)
		suggest_add(&s, config_keys[i].name);
	return suggest_best(&s);
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
int
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

int
config_parse_bool(const char *value, int *out)
{
	if (strcmp(value, "true") == 0 || strcmp(value, "yes") == 0 ||
	    strcmp(value, "1") == 0 || strcmp(value, "on") == 0)
		*out = 1;
	else if (strcmp(value, "false") == 0 || strcmp(value, "no") == 0 ||
	    strcmp(value, "0") == 0 || strcmp(value, "off") == 0)
		*out = 0;
	else
		return -1;
	return 0;
}

/* Set one key from a string; on error return a new cause (without where). */
char *
config_set(struct config *conf, const struct config_key *k, const char *value)
{
	char		*p = (char *)conf + k->offset;
	char		*cause = NULL, *end;
	char		 have[SIZEFMT_LEN], lim[SIZEFMT_LEN];
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
		if (config_parse_bool(value, (int *)p) == -1)
			xasprintf(&cause, "'%s' is not true or false", value);
		break;
	case CONFIG_SIZE:
		if (config_parse_size(value, &v) == -1) {
			xasprintf(&cause, "'%s' is not a size (e.g. 25M)", value);
			break;
		}
		if (v < k->min || v > k->max) {
			sizefmt(have, sizeof(have), v);
			sizefmt(lim, sizeof(lim), v < k->min ? k->min : k->max);
			xasprintf(&cause, "%s is %s of %s", have, v < k->min ?
			    "under the minimum" : "over the limit", lim);
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

void
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

/* "--flag: unknown option", with the closest key's flag when one is close. */
static void
config_unknown_flag(struct config_causes *causes, const char *arg,
    const char *name)
{
	const char	*best = config_suggest_key(name);
	char		 flag[SUGGEST_MAX + 3], *p;

	if (best == NULL) {
		config_causes_add(causes, "%.*s: unknown option",
		    (int)strcspn(arg, "="), arg);
		return;
	}
	snprintf(flag, sizeof(flag), "--%s", best);
	for (p = flag; *p != '\0'; p++)
		if (*p == '_')
			*p = '-';
	config_causes_add(causes, "%.*s: unknown option (did you mean %s?)",
	    (int)strcspn(arg, "="), arg, flag);
}

/*
 * argv[*i]'s key and value (borrowed) when it is a flag of a key: 1,
 * with *i moved past a separate value. 0 for --config and the passthrough
 * flags, which are not the keys'; -1 with a cause for an unknown option,
 * a stray argument or a missing value.
 */
static int
config_flag(int argc, char **argv, int *i, const char *const *passthrough,
    const struct config_key **kp, const char **valuep,
    struct config_causes *causes)
{
	const struct config_key	*k;
	const char		*value;
	char			*name;
	size_t			 j;

	if (strcmp(argv[*i], "--config") == 0) {
		(*i)++;
		return 0;
	}
	if (strncmp(argv[*i], "--config=", 9) == 0)
		return 0;
	for (j = 0; passthrough != NULL && passthrough[j] != NULL; j++)
		if (strcmp(argv[*i], passthrough[j]) == 0)
			return 0;
	if ((name = config_flag_name(argv[*i], &value)) == NULL) {
		config_causes_add(causes, "%s: unexpected argument", argv[*i]);
		return -1;
	}
	if ((k = config_find_key(name)) == NULL) {
		config_unknown_flag(causes, argv[*i], name);
		free(name);
		return -1;
	}
	if (value == NULL && k->type == CONFIG_BOOL)
		value = "true";
	else if (value == NULL && *i + 1 < argc)
		value = argv[++(*i)];
	if (value == NULL) {
		config_causes_add(causes, "--%s: missing value", name);
		free(name);
		return -1;
	}
	free(name);
	*kp = k;
	*valuep = value;
	return 1;
}

int
config_check_flags(int argc, char **argv, const char *const *passthrough,
    struct config_causes *causes)
{
	const struct config_key	*k;
	const char		*value;
	size_t			 before = causes->n;
	int			 i;

	for (i = 1; i < argc; i++)
		(void)config_flag(argc, argv, &i, passthrough, &k, &value,
		    causes);
	return causes->n > before ? -1 : 0;
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
	char			*cause, *flag;
	size_t			 before = causes->n, late;
	int			 i;

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
		/*
		 * No file, no secret to look for: the secret it would name
		 * is not missing, the file is, and one error says so.
		 */
		if (config_read_file(conf, file, causes) == -1)
			flags |= CONFIG_NO_SECRETS;
	}

	for (i = 1; i < argc; i++) {
		/* the flag as given, before "--key value" moves on to value */
		flag = xstrndup(argv[i], strcspn(argv[i], "="));
		if (config_flag(argc, argv, &i, passthrough, &k, &value,
		    causes) != 1) {
			free(flag);
			continue;
		}
		if ((cause = config_set(conf, k, value)) != NULL) {
			config_causes_add(causes, "%s (%s): %s", flag, k->name,
			    cause);
			free(cause);
		}
		config_set_origin(conf, k, "%s", flag);
		free(flag);
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
	strlist_clear(&conf->trusted_proxies);
	free(conf->tts_command);
	free(conf->section_sound);
	free(conf->github_api_url);
	free(conf->github_token_file);
	free(conf->journal);
	free(conf->redis_host);
	free(conf->redis_password_file);
	free(conf->redis_prefix);
	if (conf->redis_password != NULL) {
		explicit_bzero(conf->redis_password,
		    strlen(conf->redis_password));
		free(conf->redis_password);
	}
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
		strlist_clear(&sk->shows);
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
	for (i = 0; i < conf->nshows; i++)
		config_show_clear(&conf->shows[i]);
	free(conf->shows);
	for (i = 0; i < conf->nsecrets; i++) {
		explicit_bzero(conf->secrets[i], conf->secretlens[i]);
		free(conf->secrets[i]);
	}
	free(conf->secrets);
	free(conf->secret_from);
	free(conf->secretlens);
	strlist_clear(&conf->credential_files);
	strlist_clear(&conf->credential_names);
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
	const struct show_conf	*sc;
	const char		*name;
	char			*show;

	if (r != NULL && r->show != NULL)
		return xstrdup(r->show);
	/* a show's own folder, shows/SLUG: the show's name */
	if (strncmp(repo, "shows/", 6) == 0 &&
	    (sc = config_show_find(conf, repo + 6)) != NULL &&
	    strcmp(sc->slug, repo + 6) == 0)
		return xstrdup(sc->name);
	/* "curl/curl" -> "curl": projects mind how their name is written */
	name = strchr(repo, '/');
	name = name != NULL ? name + 1 : repo;
	show = xstrdup(name);
	return show;
}
