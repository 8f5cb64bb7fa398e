/* Counters for /metrics (Prometheus text format) and the status command. */
#ifndef HOOKCAST_METRICS_H
#define HOOKCAST_METRICS_H

#include <stdint.h>
#include <time.h>

#include "buf.h"

enum metrics_outcome {
	OUTCOME_ACCEPTED,
	OUTCOME_DUPLICATE,
	OUTCOME_IGNORED,
	OUTCOME_REJECTED,
	OUTCOME_UNAVAILABLE,
	OUTCOME_MAX
};

enum metrics_event {
	MEVENT_PUSH,
	MEVENT_PULL_REQUEST,
	MEVENT_PING,
	MEVENT_OTHER,
	MEVENT_MAX
};

#define METRICS_LATENCY_BUCKETS 10

/* How an episode's audio went (the order of audio.h's audio_outcome). */
enum metrics_audio {
	MAUDIO_OK,
	MAUDIO_FAILED,
	MAUDIO_TIMEOUT,
	MAUDIO_MAX
};

/* Reasons a model's rewrite is refused, counted one by one (llm_reasons). */
#define METRICS_LLM_REASONS	32
/* When a repository's last episode was written. */
struct metrics_emission {
	char	*repo;
	time_t	 at;
};

/* Failed drafts of a repository's episode. */
struct metrics_repo_count {
	char		*repo;
	uint64_t	 n;
};

struct metrics {
	uint64_t	deliveries[MEVENT_MAX][OUTCOME_MAX];
	uint64_t	signature_failures;
	uint64_t	bytes_received;
	uint64_t	episodes_emitted;
	uint64_t	emit_failures;
	uint64_t	episodes_reduced;	/* told in brief (reduced.h) */
	struct metrics_repo_count *draft_failures; /* by repository */
	size_t		ndraft_failures;
	uint64_t	latency_buckets[METRICS_LATENCY_BUCKETS + 1];
	double		latency_sum;
	uint64_t	latency_count;
	uint64_t	sync_buckets[METRICS_LATENCY_BUCKETS + 1];
	double		sync_sum;
	uint64_t	sync_count;
	uint64_t	sync_failures;
	uint64_t	audio[MAUDIO_MAX];
	double		audio_seconds;		/* the last audio's length */
	double		audio_render_seconds;	/* and the time it took */
	uint64_t	llm_used;		/* transcripts the model's */
	uint64_t	llm_rejected[METRICS_LLM_REASONS]; /* by llm_reasons */
	uint64_t	llm_dropped[METRICS_LLM_REASONS]; /* by fence_reasons */
	struct metrics_emission *emissions;	/* by repository, unordered */
	size_t		nemissions;
};

enum metrics_event metrics_event(const char *);
const char	*metrics_outcome_name(enum metrics_outcome);
void		 metrics_delivery(struct metrics *, const char *event,
		    enum metrics_outcome);
/* Total over events for one outcome. */
uint64_t	 metrics_outcome_total(const struct metrics *, enum metrics_outcome);
void		 metrics_latency(struct metrics *, double seconds);
/* One journal fdatasync took seconds (failed when ok is 0). */
void		 metrics_sync(struct metrics *, double seconds, int ok);
/* An episode's audio ended so; an ok one lasts seconds, made in took. */
void		 metrics_audio(struct metrics *, enum metrics_audio,
		    double seconds, double took);
/*
 * A model's rewrite was used (rejected NULL) or refused for a reason of
 * llm_reasons (another is counted as none).
 */
void		 metrics_llm(struct metrics *, const char *rejected);
/*
 * A sentence of a model's rewrite was left out for a reason of
 * fence_reasons (another is not counted).
 */
void		 metrics_llm_dropped(struct metrics *, const char *reason);
/* An episode of repo was written at (kept when later than the last). */
void		 metrics_emitted(struct metrics *, const char *repo, time_t at);
/* A draft of repo's episode failed (timed out, died, not written). */
void		 metrics_draft_failed(struct metrics *, const char *repo);
/* Free what the counters hold (the emissions). */
void		 metrics_clear(struct metrics *);
/* Append the Prometheus text of the counters (gauges come from the caller). */
void		 metrics_render(const struct metrics *, struct buf *);
/*
 * Append the process metrics Prometheus' client libraries export under
 * the same names (process_*), read from /proc; started is the process's
 * start time.
 */
void		 metrics_process(struct buf *, time_t started);

#endif
