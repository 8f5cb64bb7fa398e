/* Counters for /metrics and the status command. */
#include <sys/resource.h>
#include <sys/time.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fence.h"
#include "llm.h"
#include "metrics.h"
#include "version.h"
#include "xmalloc.h"

static const char *const metrics_event_names[MEVENT_MAX] = {
	"push", "pull_request", "ping", "other"
};

static const char *const metrics_audio_names[MAUDIO_MAX] = {
	"ok", "failed", "timeout"
};

static const char *const metrics_outcome_names[OUTCOME_MAX] = {
	"accepted", "duplicate", "ignored", "rejected", "unavailable"
};

static void	metrics_render_emissions(const struct metrics *, struct buf *);
static void	metrics_render_draft_failures(const struct metrics *,
		    struct buf *);

/* Upper bounds of the request latency histogram, in seconds. */
static const double metrics_bounds[METRICS_LATENCY_BUCKETS] = {
	0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 2.5
};

enum metrics_event
metrics_event(const char *event)
{
	int	i;

	if (event == NULL)
		return MEVENT_OTHER;
	for (i = 0; i < MEVENT_OTHER; i++)
		if (strcmp(event, metrics_event_names[i]) == 0)
			return (enum metrics_event)i;
	return MEVENT_OTHER;
}

const char *
metrics_outcome_name(enum metrics_outcome o)
{
	return metrics_outcome_names[o];
}

void
metrics_delivery(struct metrics *m, const char *event, enum metrics_outcome o)
{
	m->deliveries[metrics_event(event)][o]++;
}

uint64_t
metrics_outcome_total(const struct metrics *m, enum metrics_outcome o)
{
	uint64_t	t = 0;
	int		i;

	for (i = 0; i < MEVENT_MAX; i++)
		t += m->deliveries[i][o];
	return t;
}

void
metrics_latency(struct metrics *m, double seconds)
{
	int	i;

	for (i = 0; i < METRICS_LATENCY_BUCKETS; i++)
		if (seconds <= metrics_bounds[i])
			break;
	m->latency_buckets[i]++;
	m->latency_sum += seconds;
	m->latency_count++;
}

void
metrics_sync(struct metrics *m, double seconds, int ok)
{
	int	i;

	if (!ok)
		m->sync_failures++;
	for (i = 0; i < METRICS_LATENCY_BUCKETS; i++)
		if (seconds <= metrics_bounds[i])
			break;
	m->sync_buckets[i]++;
	m->sync_sum += seconds;
	m->sync_count++;
}

void
metrics_audio(struct metrics *m, enum metrics_audio o, double seconds,
    double took)
{
	m->audio[o]++;
	if (o == MAUDIO_OK) {
		m->audio_seconds = seconds;
		m->audio_render_seconds = took;
	}
}

void
metrics_llm(struct metrics *m, const char *rejected)
{
	size_t	i;

	if (rejected == NULL) {
		m->llm_used++;
		return;
	}
	for (i = 0; llm_reasons[i] != NULL && i < METRICS_LLM_REASONS; i++)
		if (strcmp(llm_reasons[i], rejected) == 0) {
			m->llm_rejected[i]++;
			return;
		}
}

void
metrics_llm_dropped(struct metrics *m, const char *reason)
{
	size_t	i;

	for (i = 0; reason != NULL && fence_reasons[i] != NULL &&
	    i < METRICS_LLM_REASONS; i++)
		if (strcmp(fence_reasons[i], reason) == 0) {
			m->llm_dropped[i]++;
			return;
		}
}

/* A histogram over metrics_bounds, cumulative as Prometheus wants it. */
static void
metrics_histogram(struct buf *b, const char *name, const char *help,
    const uint64_t *buckets, double sum, uint64_t count)
{
	uint64_t	cum = 0;
	int		i;

	buf_printf(b, "# HELP %s %s\n# TYPE %s histogram\n", name, help, name);
	for (i = 0; i < METRICS_LATENCY_BUCKETS; i++) {
		cum += buckets[i];
		buf_printf(b, "%s_bucket{le=\"%g\"} %llu\n", name,
		    metrics_bounds[i], (unsigned long long)cum);
	}
	cum += buckets[METRICS_LATENCY_BUCKETS];
	buf_printf(b, "%s_bucket{le=\"+Inf\"} %llu\n%s_sum %.6f\n"
	    "%s_count %llu\n", name, (unsigned long long)cum, name, sum, name,
	    (unsigned long long)count);
}

void
metrics_render(const struct metrics *m, struct buf *b)
{
	int		e, o;
	size_t		i;

	buf_printf(b, "# HELP hookcast_build_info The hookcastd version "
	    "running, its revision and build date (always 1).\n"
	    "# TYPE hookcast_build_info gauge\n"
	    "hookcast_build_info{version=\"%s\",revision=\"%s\","
	    "build_date=\"%s\"} 1\n", HOOKCAST_VERSION, version_revision,
	    version_build_date);

	buf_puts(b, "# HELP hookcast_deliveries_total Webhook deliveries by "
	    "event and outcome.\n# TYPE hookcast_deliveries_total counter\n");
	for (e = 0; e < MEVENT_MAX; e++)
		for (o = 0; o < OUTCOME_MAX; o++)
			buf_printf(b, "hookcast_deliveries_total{event=\"%s\","
			    "outcome=\"%s\"} %llu\n", metrics_event_names[e],
			    metrics_outcome_names[o],
			    (unsigned long long)m->deliveries[e][o]);
	buf_printf(b, "# HELP hookcast_signature_failures_total Deliveries "
	    "refused for a missing or wrong signature.\n"
	    "# TYPE hookcast_signature_failures_total counter\n"
	    "hookcast_signature_failures_total %llu\n",
	    (unsigned long long)m->signature_failures);
	buf_printf(b, "# HELP hookcast_received_bytes_total Request body bytes "
	    "received on the webhook path.\n"
	    "# TYPE hookcast_received_bytes_total counter\n"
	    "hookcast_received_bytes_total %llu\n",
	    (unsigned long long)m->bytes_received);
	buf_printf(b, "# HELP hookcast_episodes_emitted_total Episodes "
	    "written.\n# TYPE hookcast_episodes_emitted_total counter\n"
	    "hookcast_episodes_emitted_total %llu\n",
	    (unsigned long long)m->episodes_emitted);
	buf_printf(b, "# HELP hookcast_emit_failures_total Episodes that "
	    "could not be written.\n# TYPE hookcast_emit_failures_total "
	    "counter\nhookcast_emit_failures_total %llu\n",
	    (unsigned long long)m->emit_failures);
	buf_printf(b, "# HELP hookcast_episodes_reduced_total Episodes told "
	    "in brief (counts, reverts, top stories) after their day's full "
	    "draft failed twice.\n# TYPE hookcast_episodes_reduced_total "
	    "counter\nhookcast_episodes_reduced_total %llu\n",
	    (unsigned long long)m->episodes_reduced);
	metrics_render_draft_failures(m, b);
	metrics_histogram(b, "hookcast_request_duration_seconds", "Time from "
	    "a webhook request's head to its reply.", m->latency_buckets,
	    m->latency_sum, m->latency_count);
	metrics_histogram(b, "hookcast_journal_sync_seconds", "Time of one "
	    "journal fdatasync (a batch of deliveries).", m->sync_buckets,
	    m->sync_sum, m->sync_count);
	buf_printf(b, "# HELP hookcast_journal_sync_failures_total Journal "
	    "syncs that failed (their deliveries got 503).\n"
	    "# TYPE hookcast_journal_sync_failures_total counter\n"
	    "hookcast_journal_sync_failures_total %llu\n",
	    (unsigned long long)m->sync_failures);
	buf_puts(b, "# HELP hookcast_audio_total Episode audio renderings by "
	    "outcome.\n# TYPE hookcast_audio_total counter\n");
	for (o = 0; o < MAUDIO_MAX; o++)
		buf_printf(b, "hookcast_audio_total{outcome=\"%s\"} %llu\n",
		    metrics_audio_names[o], (unsigned long long)m->audio[o]);
	buf_printf(b, "# HELP hookcast_audio_seconds Length of the last "
	    "episode audio rendered.\n# TYPE hookcast_audio_seconds gauge\n"
	    "hookcast_audio_seconds %.3f\n", m->audio_seconds);
	buf_printf(b, "# HELP hookcast_audio_render_seconds Time the last "
	    "episode audio took to render.\n"
	    "# TYPE hookcast_audio_render_seconds gauge\n"
	    "hookcast_audio_render_seconds %.3f\n", m->audio_render_seconds);
	buf_puts(b, "# HELP hookcast_llm_rewrites_total Transcripts a model "
	    "rewrote and the fence let through.\n"
	    "# TYPE hookcast_llm_rewrites_total counter\n");
	buf_printf(b, "hookcast_llm_rewrites_total %llu\n",
	    (unsigned long long)m->llm_used);
	buf_puts(b, "# HELP hookcast_llm_rejected_total Model rewrites not "
	    "used (the draft told instead), by reason.\n"
	    "# TYPE hookcast_llm_rejected_total counter\n");
	for (i = 0; llm_reasons[i] != NULL && i < METRICS_LLM_REASONS; i++)
		buf_printf(b, "hookcast_llm_rejected_total{reason=\"%s\"} "
		    "%llu\n", llm_reasons[i],
		    (unsigned long long)m->llm_rejected[i]);
	buf_puts(b, "# HELP hookcast_llm_dropped_total Sentences of model "
	    "rewrites the fence left out (the rest told), by reason.\n"
	    "# TYPE hookcast_llm_dropped_total counter\n");
	for (i = 0; fence_reasons[i] != NULL && i < METRICS_LLM_REASONS; i++)
		buf_printf(b, "hookcast_llm_dropped_total{reason=\"%s\"} "
		    "%llu\n", fence_reasons[i],
		    (unsigned long long)m->llm_dropped[i]);
	metrics_render_emissions(m, b);
}

void
metrics_emitted(struct metrics *m, const char *repo, time_t at)
{
	size_t	i;

	if (repo == NULL)
		return;
	for (i = 0; i < m->nemissions; i++)
		if (strcmp(m->emissions[i].repo, repo) == 0)
			break;
	if (i == m->nemissions) {
		m->emissions = xreallocarray(m->emissions, i + 1,
		    sizeof(*m->emissions));
		m->emissions[i].repo = xstrdup(repo);
		m->emissions[i].at = at;
		m->nemissions++;
	} else if (at > m->emissions[i].at)
		m->emissions[i].at = at;
}

void
metrics_clear(struct metrics *m)
{
	size_t	i;

	for (i = 0; i < m->nemissions; i++)
		free(m->emissions[i].repo);
	free(m->emissions);
	m->emissions = NULL;
	m->nemissions = 0;
	for (i = 0; i < m->ndraft_failures; i++)
		free(m->draft_failures[i].repo);
	free(m->draft_failures);
	m->draft_failures = NULL;
	m->ndraft_failures = 0;
}

/* A label value as the text format wants it: \\, \" and \n escaped. */
static void
metrics_label(struct buf *b, const char *s)
{
	for (; *s != '\0'; s++) {
		if (*s == '\\' || *s == '"')
			buf_printf(b, "\\%c", *s);
		else if (*s == '\n')
			buf_puts(b, "\\n");
		else
			buf_putc(b, *s);
	}
}

void
metrics_draft_failed(struct metrics *m, const char *repo)
{
	size_t	i;

	if (repo == NULL)
		return;
	for (i = 0; i < m->ndraft_failures; i++)
		if (strcmp(m->draft_failures[i].repo, repo) == 0)
			break;
	if (i == m->ndraft_failures) {
		m->draft_failures = xreallocarray(m->draft_failures, i + 1,
		    sizeof(*m->draft_failures));
		m->draft_failures[i].repo = xstrdup(repo);
		m->draft_failures[i].n = 0;
		m->ndraft_failures++;
	}
	m->draft_failures[i].n++;
}

static void
metrics_render_draft_failures(const struct metrics *m, struct buf *b)
{
	size_t	i;

	buf_puts(b, "# HELP hookcast_draft_failures_total Drafts of a "
	    "repository's episode that failed (timed out, died or not "
	    "written); its day is kept for the next.\n"
	    "# TYPE hookcast_draft_failures_total counter\n");
	for (i = 0; i < m->ndraft_failures; i++) {
		buf_puts(b, "hookcast_draft_failures_total{repo=\"");
		metrics_label(b, m->draft_failures[i].repo);
		buf_printf(b, "\"} %llu\n",
		    (unsigned long long)m->draft_failures[i].n);
	}
}

static void
metrics_render_emissions(const struct metrics *m, struct buf *b)
{
	size_t	i;

	buf_puts(b, "# HELP hookcast_last_emission_timestamp_seconds When the "
	    "repository's last episode was written (Unix time).\n"
	    "# TYPE hookcast_last_emission_timestamp_seconds gauge\n");
	for (i = 0; i < m->nemissions; i++) {
		buf_puts(b, "hookcast_last_emission_timestamp_seconds{repo=\"");
		metrics_label(b, m->emissions[i].repo);
		buf_printf(b, "\"} %lld\n", (long long)m->emissions[i].at);
	}
}

/* The descriptors open: the entries of /proc/self/fd but its own. */
static long
metrics_open_fds(void)
{
	DIR		*dir;
	struct dirent	*e;
	long		 n = 0;

	if ((dir = opendir("/proc/self/fd")) == NULL)
		return -1;
	while ((e = readdir(dir)) != NULL)
		if (e->d_name[0] != '.')
			n++;
	closedir(dir);
	return n - 1;
}

void
metrics_process(struct buf *b, time_t started)
{
	struct rusage	ru;
	struct rlimit	rl;
	FILE		*f;
	unsigned long	 size = 0, resident = 0;
	long		 page = sysconf(_SC_PAGESIZE), fds;
	double		 cpu;

	if ((f = fopen("/proc/self/statm", "re")) != NULL) {
		if (fscanf(f, "%lu %lu", &size, &resident) != 2)
			size = resident = 0;
		fclose(f);
	}
	getrusage(RUSAGE_SELF, &ru);
	cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	    (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	buf_printf(b, "# HELP process_cpu_seconds_total User and system CPU "
	    "time spent in seconds.\n# TYPE process_cpu_seconds_total counter\n"
	    "process_cpu_seconds_total %.3f\n", cpu);
	buf_printf(b, "# HELP process_resident_memory_bytes Resident memory "
	    "size in bytes.\n# TYPE process_resident_memory_bytes gauge\n"
	    "process_resident_memory_bytes %llu\n"
	    "# HELP process_virtual_memory_bytes Virtual memory size in "
	    "bytes.\n# TYPE process_virtual_memory_bytes gauge\n"
	    "process_virtual_memory_bytes %llu\n",
	    (unsigned long long)resident * (unsigned long long)page,
	    (unsigned long long)size * (unsigned long long)page);
	if ((fds = metrics_open_fds()) >= 0)
		buf_printf(b, "# HELP process_open_fds Number of open file "
		    "descriptors.\n# TYPE process_open_fds gauge\n"
		    "process_open_fds %ld\n", fds);
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		buf_printf(b, "# HELP process_max_fds Maximum number of open "
		    "file descriptors.\n# TYPE process_max_fds gauge\n"
		    "process_max_fds %llu\n", (unsigned long long)rl.rlim_cur);
	buf_printf(b, "# HELP process_start_time_seconds Start time of the "
	    "process since the Unix epoch in seconds.\n"
	    "# TYPE process_start_time_seconds gauge\n"
	    "process_start_time_seconds %lld\n", (long long)started);
}
