/* The episode's audio: spoken per sentence, joined, encoded, and timed. */
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "archive.h"
#include "audio.h"
#include "buf.h"
#include "childenv.h"
#include "emit.h"
#include "fileio.h"
#include "log.h"
#include "say.h"
#include "spoken.h"
#include "voice.h"
#include "wav.h"
#include "strlist.h"
#include "xmalloc.h"

/*
 * Silence between two sentences, between two paragraphs of a section (a
 * story and the next), and between two sections (the opening, each
 * segment, the closing): long enough to hear one part end and the next
 * begin.
 */
#define AUDIO_PAUSE_MS		350
#define AUDIO_PARAGRAPH_PAUSE_MS 750
#define AUDIO_SECTION_PAUSE_MS	1400
/* What a sentence opens (audio_job's opens) */
#define AUDIO_OPENS_PARAGRAPH	1
#define AUDIO_OPENS_SECTION	2
/* Largest WAV one sentence may come as (some 6 minutes of 16-bit 48 kHz stereo). */
#define AUDIO_WAV_MAX		(64 * 1024 * 1024)
/* Largest episode .json or .md read back. */
#define AUDIO_TEXT_MAX		(64 * 1024 * 1024)
/* What is kept of a program's stderr for the log. */
#define AUDIO_ERR_MAX		400
/* Bitrate of the MP3: speech, mono, as podcasts encode it. */
#define AUDIO_BITRATE		"64"
#define AUDIO_FILE_MODE		0644

static const char *const audio_outcome_names[AUDIO_OUTCOME_MAX] = {
	"ok", "failed", "timeout"
};

const char *
audio_outcome_name(enum audio_outcome o)
{
	return audio_outcome_names[o];
}

int
audio_outcome_parse(const char *s)
{
	int	i;

	for (i = 0; s != NULL && i < AUDIO_OUTCOME_MAX; i++)
		if (strcmp(s, audio_outcome_names[i]) == 0)
			return i;
	return -1;
}

void
audio_result_clear(struct audio_result *res)
{
	free(res->cause);
	memset(res, 0, sizeof(*res));
}

/* Whether program (a name or a path) can be run, searched in PATH. */
static int
audio_found(const char *program)
{
	const char	*path, *p, *e;
	char		*full;
	int		 ok;

	if (*program == '\0')
		return 0;
	if (strchr(program, '/') != NULL)
		return access(program, X_OK) == 0;
	if ((path = getenv("PATH")) == NULL)
		path = "/usr/bin:/bin";
	for (p = path; ; p = e + 1) {
		e = strchrnul(p, ':');
		if (e == p)
			xasprintf(&full, "./%s", program);
		else
			xasprintf(&full, "%.*s/%s", (int)(e - p), p, program);
		ok = access(full, X_OK) == 0;
		free(full);
		if (ok)
			return 1;
		if (*e == '\0')
			return 0;
	}
}

/*
 * The program a shell command runs first (new): its first word, quotes
 * taken off, after any VAR=value assignments.
 */
static char *
audio_program(const char *cmd)
{
	const char	*p = cmd;
	size_t		 n;
	char		*w, q;

	for (;;) {
		p += strspn(p, " \t");
		w = xcalloc(1, strlen(p) + 1);
		n = 0;
		while (*p != '\0' && *p != ' ' && *p != '\t') {
			if (*p == '"' || *p == '\'') {
				q = *p++;
				while (*p != '\0' && *p != q)
					w[n++] = *p++;
				if (*p == q)
					p++;
			} else
				w[n++] = *p++;
		}
		if (strchr(w, '=') == NULL || strchr(w, '/') != NULL ||
		    *p == '\0')
			return w;
		free(w);
	}
}

static const char *
audio_encoder_program(const struct audio_conf *conf)
{
	return conf->encoder == AUDIO_ENCODER_FFMPEG ? "ffmpeg" :
	    "lame";
}

int
audio_enabled(const struct audio_conf *conf, const char **why)
{
	char	*prog;
	int	 found;

	if (conf->mode == AUDIO_MODE_OFF) {
		*why = "audio = off";
		return 0;
	}
	if (conf->mode == AUDIO_MODE_ON)
		return 1;
	if (conf->tts_command != NULL) {
		prog = audio_program(conf->tts_command);
		found = audio_found(prog);
		free(prog);
		if (!found) {
			*why = "audio = auto and tts_command's program is not "
			    "in PATH";
			return 0;
		}
	}
	if (!audio_found(audio_encoder_program(conf))) {
		*why = "audio = auto and audio_encoder's program is not in PATH";
		return 0;
	}
	return 1;
}

/* Sentences */

/* Whether the word ending at e (a '.') is one a sentence does not end on. */
static int
audio_abbreviation(const char *start, const char *e)
{
	static const char *const words[] = {
		"e.g", "i.e", "etc", "vs", "mr", "mrs", "ms", "dr", "st", "no",
		"approx", "cf", "jr", "sr", NULL
	};
	const char	*w = e;
	size_t		 n, i;

	while (w > start && !isspace((unsigned char)w[-1]) && w[-1] != '(' &&
	    w[-1] != '"')
		w--;
	n = (size_t)(e - w);
	/* a lone initial: "J. Smith" */
	if (n == 1 && isupper((unsigned char)*w))
		return 1;
	for (i = 0; words[i] != NULL; i++)
		if (strlen(words[i]) == n && strncasecmp(w, words[i], n) == 0)
			return 1;
	return 0;
}

/*
 * Whether the '!' at p, the mark before e, is a macro's within the
 * sentence ("join! and try_join!"): right after a name, and a word in
 * lower case follows. Only a '!': a sentence may start with a login in
 * lower case ("Now to the rollback. htasta's change...").
 */
static int
audio_goes_on(const char *p, const char *e)
{
	if (*p != '!' || e != p + 1)
		return 0;
	while (*e == ' ' || *e == '\t')
		e++;
	return islower((unsigned char)*e);
}

/* Add the piece [p, e) to the list, white space collapsed, if it says anything. */
static void
audio_sentence_add(const char *p, const char *e, char ***v, size_t *n)
{
	struct buf	b;
	int		space = 0, said = 0;

	buf_init(&b);
	for (; p < e; p++) {
		if (isspace((unsigned char)*p)) {
			space = b.len > 0;
			continue;
		}
		if (space)
			buf_putc(&b, ' ');
		space = 0;
		buf_putc(&b, *p);
		if (isalnum((unsigned char)*p) || (unsigned char)*p >= 0x80)
			said = 1;
	}
	if (!said) {
		buf_free(&b);
		return;
	}
	*v = xreallocarray(*v, *n + 1, sizeof(**v));
	(*v)[(*n)++] = buf_steal(&b);
}

size_t
audio_sentences(const char *text, char ***out)
{
	const char	*p = text, *start = text, *e;
	char		**v = NULL;
	size_t		 n = 0;

	while (*p != '\0' && n < AUDIO_SENTENCES_MAX - 1) {
		/* a blank line ends a sentence */
		if (*p == '\n') {
			e = p + 1;
			while (*e == ' ' || *e == '\t' || *e == '\r')
				e++;
			if (*e == '\n') {
				audio_sentence_add(start, p, &v, &n);
				start = p = e;
				continue;
			}
			p++;
			continue;
		}
		if (*p != '.' && *p != '!' && *p != '?') {
			p++;
			continue;
		}
		e = p + 1;
		while (*e == '.' || *e == '!' || *e == '?')
			e++;
		while (*e == '"' || *e == '\'' || *e == ')' || *e == ']' ||
		    strncmp(e, "\xe2\x80\x9d", 3) == 0 ||
		    strncmp(e, "\xe2\x80\x99", 3) == 0)
			e += (unsigned char)*e >= 0x80 ? 3 : 1;
		if ((*e == '\0' || isspace((unsigned char)*e)) &&
		    !(*p == '.' && e == p + 1 && audio_abbreviation(start, p)) &&
		    !audio_goes_on(p, e)) {
			audio_sentence_add(start, e, &v, &n);
			start = e;
		}
		p = e;
	}
	audio_sentence_add(start, start + strlen(start), &v, &n);
	*out = v;
	return n;
}


/* WebVTT */

void
audio_vtt_time(double seconds, char out[16])
{
	unsigned long long	ms;

	if (!(seconds > 0))
		seconds = 0;
	/* 99:59:59.999 at most: the hours keep two digits */
	if (seconds > 359999.999)
		seconds = 359999.999;
	ms = (unsigned long long)llround(seconds * 1000.0);
	snprintf(out, 16, "%02u:%02u:%02u.%03u", (unsigned)(ms / 3600000 % 100),
	    (unsigned)(ms / 60000 % 60), (unsigned)(ms / 1000 % 60),
	    (unsigned)(ms % 1000));
}

char *
audio_vtt(const struct audio_cue *cues, size_t n)
{
	struct buf	 b;
	char		 from[16], to[16];
	const char	*p;
	size_t		 i;

	buf_init(&b);
	buf_puts(&b, "WEBVTT\n");
	for (i = 0; i < n; i++) {
		audio_vtt_time(cues[i].start, from);
		audio_vtt_time(cues[i].end, to);
		buf_printf(&b, "\n%zu\n%s --> %s\n", i + 1, from, to);
		/* cue text: no line break (a blank line ends the cue) */
		for (p = cues[i].text; *p != '\0'; p++) {
			if (*p == '&')
				buf_puts(&b, "&amp;");
			else if (*p == '<')
				buf_puts(&b, "&lt;");
			else if (*p == '>')
				buf_puts(&b, "&gt;");
			else if (*p == '\n' || *p == '\r' || *p == '\t')
				buf_putc(&b, ' ');
			else
				buf_putc(&b, *p);
		}
		buf_putc(&b, '\n');
	}
	return buf_steal(&b);
}

/* Programs */

/* A program run with a time limit: what goes in, what comes out. */
struct audio_proc {
	const char	*what;		/* for messages */
	const char	*shell;		/* run by /bin/sh -c, or */
	char *const	*argv;		/* run from PATH */
	const char	*in;		/* written on a pipe to stdin, or */
	size_t		 inlen;
	int		 in_fd;		/* stdin (-1: /dev/null) */
	struct buf	*out;		/* stdout read into it, or */
	int		 out_fd;	/* stdout */
	const char	*wpm;		/* HOOKCAST_WPM */
	const char	*repo;		/* HOOKCAST_REPO */
	size_t		 sentence;	/* HOOKCAST_SENTENCE (1-based), or 0 */
	char		 err[AUDIO_ERR_MAX + 1];	/* the start of stderr */
	size_t		 errlen;
};

/* Milliseconds left before deadline (0 when passed). */
static int
audio_left(const struct timespec *deadline)
{
	struct timespec	now;
	long long	ms;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (long long)(deadline->tv_sec - now.tv_sec) * 1000 +
	    (deadline->tv_nsec - now.tv_nsec) / 1000000;
	if (ms <= 0)
		return 0;
	return ms > 60000 ? 60000 : (int)ms;
}

/* In the new process: plumbing, exec with env. Never returns. */
static void
audio_exec(struct audio_proc *pr, char *const *env, int in, int out, int err)
{
	int	null;

	setpgid(0, 0);
	/* a drafting process killed by the loop takes its programs along */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	signal(SIGPIPE, SIG_DFL);
	if (in == -1) {
		if ((null = open("/dev/null", O_RDONLY)) == -1)
			_exit(126);
		in = null;
	}
	if (dup2(in, 0) == -1 || dup2(out, 1) == -1 || dup2(err, 2) == -1)
		_exit(126);
	close_range(3, ~0U, 0);
	if (pr->shell != NULL)
		execle("/bin/sh", "sh", "-c", pr->shell, (char *)NULL, env);
	else
		execvpe(pr->argv[0], pr->argv, env);
	_exit(127);
}

/*
 * The program's environment (childenv: no secret, nothing of systemd's),
 * built before the fork: the drafting process has threads, and the child
 * of a fork allocates nothing.
 */
static void
audio_env(const struct audio_proc *pr, struct childenv *ce)
{
	char	n[32];

	childenv_init(ce);
	childenv_set(ce, "HOOKCAST_WPM", pr->wpm);
	childenv_set(ce, "HOOKCAST_REPO", pr->repo);
	if (pr->sentence > 0) {
		snprintf(n, sizeof(n), "%zu", pr->sentence);
		childenv_set(ce, "HOOKCAST_SENTENCE", n);
	}
}

/*
 * Stop what is left of the process group pid leads (its leader exited or
 * is to be stopped) and collect all of it: the drafting process is their
 * subreaper, so orphans of the group come back to it.
 */
static void
audio_reap(pid_t pid, int *status)
{
	kill(-pid, SIGKILL);
	while (waitpid(pid, status, 0) == -1 && errno == EINTR)
		;
	while (waitpid(-pid, NULL, 0) > 0 || errno == EINTR)
		;
}

/*
 * Feed pr's input to in and read its output from out and err (each -1
 * once closed) until all are closed or deadline passes.
 */
static enum audio_outcome
audio_pump(struct audio_proc *pr, int *in, int *out, int *err,
    const struct timespec *deadline, char **cause)
{
	struct pollfd	 pfd[3];
	size_t		 inoff = 0;
	char		 chunk[65536];
	ssize_t		 n;
	int		 nfd, i, ms;
	enum audio_outcome rc = AUDIO_OK;

	while (*in != -1 || *out != -1 || *err != -1) {
		nfd = 0;
		if (*in != -1)
			pfd[nfd++] = (struct pollfd){ *in, POLLOUT, 0 };
		if (*out != -1)
			pfd[nfd++] = (struct pollfd){ *out, POLLIN, 0 };
		if (*err != -1)
			pfd[nfd++] = (struct pollfd){ *err, POLLIN, 0 };
		if ((ms = audio_left(deadline)) == 0) {
			rc = AUDIO_TIMEOUT;
			break;
		}
		if (poll(pfd, (nfds_t)nfd, ms) == -1) {
			if (errno == EINTR)
				continue;
			xasprintf(cause, "%s: poll: %s", pr->what,
			    strerror(errno));
			rc = AUDIO_FAILED;
			break;
		}
		for (i = 0; i < nfd; i++) {
			if (pfd[i].revents == 0)
				continue;
			if (pfd[i].fd == *in) {
				n = write(*in, pr->in + inoff,
				    pr->inlen - inoff);
				if (n == -1 && (errno == EAGAIN ||
				    errno == EINTR))
					continue;
				/* a program need not read all it is given */
				if (n > 0)
					inoff += (size_t)n;
				if (n <= 0 || inoff == pr->inlen) {
					close(*in);
					*in = -1;
				}
				continue;
			}
			n = read(pfd[i].fd, chunk, sizeof(chunk));
			if (n == -1 && (errno == EAGAIN || errno == EINTR))
				continue;
			if (n <= 0) {
				close(pfd[i].fd);
				if (pfd[i].fd == *out)
					*out = -1;
				else
					*err = -1;
				continue;
			}
			if (pfd[i].fd == *err) {
				if ((size_t)n > AUDIO_ERR_MAX - pr->errlen)
					n = (ssize_t)(AUDIO_ERR_MAX -
					    pr->errlen);
				memcpy(pr->err + pr->errlen, chunk, (size_t)n);
				pr->errlen += (size_t)n;
				pr->err[pr->errlen] = '\0';
				continue;
			}
			if (pr->out->len + (size_t)n > AUDIO_WAV_MAX) {
				xasprintf(cause, "%s wrote more than %d bytes",
				    pr->what, AUDIO_WAV_MAX);
				rc = AUDIO_FAILED;
				break;
			}
			buf_append(pr->out, chunk, (size_t)n);
		}
		if (rc != AUDIO_OK)
			break;
	}
	return rc;
}

/*
 * Wait (unreaped) for pid's end, to deadline: AUDIO_OK when it ended,
 * else the outcome (with *cause on a failure).
 */
static enum audio_outcome
audio_wait(struct audio_proc *pr, pid_t pid, const struct timespec *deadline,
    char **cause)
{
	siginfo_t		 si;
	enum audio_outcome	 rc = AUDIO_OK;

	while (rc == AUDIO_OK) {
		memset(&si, 0, sizeof(si));
		if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG |
		    WNOWAIT) == -1 && errno != EINTR) {
			xasprintf(cause, "%s: waitid: %s", pr->what,
			    strerror(errno));
			rc = AUDIO_FAILED;
			break;
		}
		if (si.si_pid == pid)
			break;
		if (audio_left(deadline) == 0) {
			rc = AUDIO_TIMEOUT;
			break;
		}
		nanosleep(&(struct timespec){ 0, 5 * 1000 * 1000 }, NULL);
	}
	return rc;
}

/* Why pr's run failed, from its outcome and exit status, into *cause. */
static enum audio_outcome
audio_status(struct audio_proc *pr, enum audio_outcome rc, int status,
    char **cause)
{
	char	*esc;

	if (rc == AUDIO_TIMEOUT)
		xasprintf(cause, "%s still running at audio_timeout; stopped",
		    pr->what);
	else if (rc == AUDIO_OK && (!WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)) {
		while (pr->errlen > 0 &&
		    isspace((unsigned char)pr->err[pr->errlen - 1]))
			pr->err[--pr->errlen] = '\0';
		esc = log_escape(pr->err, AUDIO_ERR_MAX);
		if (WIFSIGNALED(status))
			xasprintf(cause, "%s died of signal %d%s%s", pr->what,
			    WTERMSIG(status), pr->errlen > 0 ? ": " : "",
			    esc);
		else
			xasprintf(cause, "%s exited with status %d%s%s",
			    pr->what, WEXITSTATUS(status), pr->errlen > 0 ?
			    ": " : "", pr->errlen > 0 ? esc : "");
		free(esc);
		rc = AUDIO_FAILED;
	}
	return rc;
}

/*
 * Run pr until it ends or deadline passes (its process group is then
 * killed). AUDIO_OK when it exited 0, else the outcome with *cause.
 */
static enum audio_outcome
audio_run(struct audio_proc *pr, const struct timespec *deadline,
    char **cause)
{
	struct childenv	 ce;
	pid_t		 pid;
	int		 pin[2] = { -1, -1 }, pout[2] = { -1, -1 };
	int		 perr[2] = { -1, -1 }, status = 0, i;
	enum audio_outcome rc = AUDIO_OK;

	pr->errlen = 0;
	pr->err[0] = '\0';
	if ((pr->in != NULL && pipe2(pin, O_CLOEXEC) == -1) ||
	    (pr->out != NULL && pipe2(pout, O_CLOEXEC) == -1) ||
	    pipe2(perr, O_CLOEXEC) == -1) {
		xasprintf(cause, "%s: pipe: %s", pr->what, strerror(errno));
		rc = AUDIO_FAILED;
		goto out;
	}
	audio_env(pr, &ce);
	if ((pid = fork()) == -1) {
		childenv_clear(&ce);
		xasprintf(cause, "%s: fork: %s", pr->what, strerror(errno));
		rc = AUDIO_FAILED;
		goto out;
	}
	if (pid == 0)
		audio_exec(pr, childenv_vector(&ce), pr->in != NULL ? pin[0] :
		    pr->in_fd, pr->out != NULL ? pout[1] : pr->out_fd, perr[1]);
	childenv_clear(&ce);
	setpgid(pid, pid);
	/* the child's ends are its own now */
	if (pin[0] != -1)
		close(pin[0]);
	if (pout[1] != -1)
		close(pout[1]);
	close(perr[1]);
	pin[0] = pout[1] = perr[1] = -1;
	if (pin[1] != -1)
		fcntl(pin[1], F_SETFL, O_NONBLOCK);
	if (pr->in != NULL && pr->inlen == 0) {
		close(pin[1]);
		pin[1] = -1;
	}

	rc = audio_pump(pr, &pin[1], &pout[0], &perr[0], deadline, cause);
	/* its output is closed: wait (unreaped) for the end, to the deadline */
	if (rc == AUDIO_OK)
		rc = audio_wait(pr, pid, deadline, cause);
	audio_reap(pid, &status);
	rc = audio_status(pr, rc, status, cause);
out:
	for (i = 0; i < 2; i++) {
		if (pin[i] != -1)
			close(pin[i]);
		if (pout[i] != -1)
			close(pout[i]);
		if (perr[i] != -1)
			close(perr[i]);
	}
	return rc;
}

/* Rendering */

/*
 * Read dirfd/name (at most AUDIO_TEXT_MAX bytes) into b, a symbolic link
 * refused unless follow; 0 or -1 + errno.
 */
static int
audio_read_at(int dirfd, const char *name, int follow, struct buf *b)
{
	char	chunk[65536];
	ssize_t	n;
	int	fd;

	if ((fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC |
	    (follow ? 0 : O_NOFOLLOW))) == -1)
		return -1;
	while ((n = read(fd, chunk, sizeof(chunk))) != 0) {
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 || b->len + (size_t)n > AUDIO_TEXT_MAX) {
			if (n != -1)
				errno = EFBIG;
			close(fd);
			return -1;
		}
		buf_append(b, chunk, (size_t)n);
	}
	close(fd);
	return 0;
}

/* Write silence of frames frames of format f at *off; 0 or -1 + errno. */
static int
audio_silence(int fd, const struct wav_format *f, uint64_t frames,
    uint64_t *off)
{
	unsigned char	zero[8192];
	uint64_t	left = frames * wav_frame_bytes(f);
	size_t		n;

	/* 8-bit samples are unsigned: silence is their middle */
	memset(zero, f->bits == 8 ? 0x80 : 0, sizeof(zero));
	while (left > 0) {
		n = left > sizeof(zero) ? sizeof(zero) : (size_t)left;
		if (file_pwrite_all(fd, zero, n, (off_t)*off) == -1)
			return -1;
		*off += n;
		left -= n;
	}
	return 0;
}

/* What one episode's rendering holds. */
struct audio_job {
	const struct audio_conf	*conf;
	const char		*repo;
	const char		*name;
	int			 dfd;
	struct timespec		 deadline;
	char			 wpm[16];
	char		       **sentences;	/* written: the cues */
	size_t			 nsentences;
	char		       **spoken;	/* what the voice says */
	unsigned char		*opens;		/* what sentence i opens: 0, or
						   AUDIO_OPENS_* */
	unsigned char		*bookend;	/* i is the opening's or closing's */
	struct say_name		*names;		/* the episode's people */
	size_t			 nnames;
	struct buf		 sound;		/* section_sound's file */
	struct wav		 sound_wav;	/* in it, when there is one */
	struct audio_cue	*cues;
	struct wav_format	 fmt;
	double			 seconds;
	long long		 bytes;
	char			*mp3, *vtt;	/* names, once in place */
	char			*cause;
};

/*
 * Sentence i's sound into w: the built-in voice's samples into pcm, or
 * tts_command's WAV into out. The outcome, with *why.
 */
static enum audio_outcome
audio_sentence(struct audio_job *job, size_t i, struct buf *out,
    struct wav *w, char **why)
{
	struct audio_proc	 pr;
	enum audio_outcome	 rc;
	char			*t;

	buf_reset(out);
	if (job->conf->tts_command == NULL) {
		memset(w, 0, sizeof(*w));
		if (voice_speak(job->bookend[i] &&
		    job->conf->bookend_voice != NULL ?
		    job->conf->bookend_voice : job->conf->voice, job->spoken[i],
		    job->conf->emit.words_per_minute, out, &w->fmt, why) == -1)
			return AUDIO_FAILED;
		w->data = (const unsigned char *)out->data;
		w->len = out->len;
		return AUDIO_OK;
	}
	memset(&pr, 0, sizeof(pr));
	pr.what = "tts_command";
	pr.shell = job->conf->tts_command;
	pr.in = job->spoken[i];
	pr.inlen = strlen(job->spoken[i]);
	pr.out = out;
	pr.in_fd = pr.out_fd = -1;
	pr.wpm = job->wpm;
	pr.repo = job->repo;
	pr.sentence = i + 1;
	if ((rc = audio_run(&pr, &job->deadline, why)) != AUDIO_OK)
		return rc;
	if (wav_parse(out->data, out->len, w, why) == -1) {
		t = *why;
		xasprintf(why, "tts_command's output is not a WAV we take: %s",
		    t);
		free(t);
		return AUDIO_FAILED;
	}
	return AUDIO_OK;
}

/*
 * Between sentence i - 1 and i: a pause, longer between paragraphs, and
 * between sections longer still with section_sound amid it when it is
 * in the voice's format.
 * Frames written added to *frames; 0 or -1 + errno.
 */
static int
audio_between(struct audio_job *job, size_t i, int fd, uint64_t *off,
    uint64_t *frames)
{
	uint64_t	half, pause;

	if (job->opens[i] != AUDIO_OPENS_SECTION) {
		pause = (uint64_t)job->fmt.rate * (job->opens[i] ?
		    AUDIO_PARAGRAPH_PAUSE_MS : AUDIO_PAUSE_MS) / 1000;
		*frames += pause;
		return audio_silence(fd, &job->fmt, pause, off);
	}
	half = (uint64_t)job->fmt.rate * AUDIO_SECTION_PAUSE_MS / 2000;
	if (audio_silence(fd, &job->fmt, half, off) == -1)
		return -1;
	*frames += half;
	if (job->sound_wav.len > 0 && wav_same(&job->sound_wav.fmt,
	    &job->fmt)) {
		if (file_pwrite_all(fd, job->sound_wav.data,
		    job->sound_wav.len, (off_t)*off) == -1)
			return -1;
		*off += job->sound_wav.len;
		*frames += job->sound_wav.len / wav_frame_bytes(&job->fmt);
		if (audio_silence(fd, &job->fmt, half, off) == -1)
			return -1;
		*frames += half;
	} else {
		if (audio_silence(fd, &job->fmt, half, off) == -1)
			return -1;
		*frames += half;
	}
	return 0;
}

/*
 * Speak each sentence into the temporary WAV wav (fd), the pauses between
 * them, and note the cues. The outcome, with job->cause.
 */
static enum audio_outcome
audio_speak(struct audio_job *job, int fd)
{
	struct buf		 out;
	struct wav		 w;
	unsigned char		 head[WAV_HEADER_LEN];
	uint64_t		 off = WAV_HEADER_LEN, frames = 0;
	char			*why = NULL, a[64], b[64];
	size_t			 i;
	enum audio_outcome	 rc = AUDIO_OK;

	buf_init(&out);
	memset(head, 0, sizeof(head));
	for (i = 0; i < job->nsentences && rc == AUDIO_OK; i++) {
		if ((rc = audio_sentence(job, i, &out, &w, &why)) != AUDIO_OK)
			break;
		if (i == 0)
			job->fmt = w.fmt;
		else if (!wav_same(&w.fmt, &job->fmt)) {
			wav_describe(&w.fmt, a, sizeof(a));
			wav_describe(&job->fmt, b, sizeof(b));
			xasprintf(&why, "its WAV is %s where the first "
			    "sentence's was %s; every sentence must come in "
			    "one format", a, b);
			rc = AUDIO_FAILED;
			break;
		}
		if (i > 0 && audio_between(job, i, fd, &off, &frames) == -1)
			goto write_failed;
		job->cues[i].start = (double)frames / job->fmt.rate;
		if (file_pwrite_all(fd, w.data, w.len, (off_t)off) == -1)
			goto write_failed;
		off += w.len;
		frames += w.len / wav_frame_bytes(&job->fmt);
		job->cues[i].end = (double)frames / job->fmt.rate;
		job->cues[i].text = job->sentences[i];
	}
	if (rc == AUDIO_OK && wav_header(&job->fmt, off - WAV_HEADER_LEN,
	    head) == -1) {
		xasprintf(&job->cause, "the audio is too long for a WAV file "
		    "(%llu bytes)", (unsigned long long)off);
		rc = AUDIO_FAILED;
	} else if (rc == AUDIO_OK &&
	    file_pwrite_all(fd, head, sizeof(head), 0) == -1) {
		xasprintf(&job->cause, "writing the joined WAV: %s",
		    strerror(errno));
		rc = AUDIO_FAILED;
	} else if (rc != AUDIO_OK)
		xasprintf(&job->cause, "sentence %zu of %zu: %s", i + 1,
		    job->nsentences, why);
	if (rc == AUDIO_OK)
		job->seconds = (double)frames / job->fmt.rate;
	free(why);
	buf_free(&out);
	return rc;

write_failed:
	xasprintf(&job->cause, "writing the joined WAV: %s", strerror(errno));
	free(why);
	buf_free(&out);
	return AUDIO_FAILED;
}

/* Encode the WAV (fd) into name.mp3, in place when done. */
static enum audio_outcome
audio_encode(struct audio_job *job, int wav)
{
	/* mono, as a podcast of speech is: a stereo voice is mixed down */
	char *const	 lame[] = { "lame", "--quiet", "-m", "m", "-b",
	    AUDIO_BITRATE, "-", "-", NULL };
	char *const	 ffmpeg[] = { "ffmpeg", "-nostdin", "-hide_banner",
	    "-loglevel", "error", "-f", "wav", "-i", "pipe:0", "-ac", "1",
	    "-codec:a", "libmp3lame", "-b:a", AUDIO_BITRATE "k", "-f", "mp3",
	    "pipe:1", NULL };
	struct file_atomic	 af;
	struct audio_proc	 pr;
	struct stat		 st;
	char			*name, *why = NULL;
	enum audio_outcome	 rc;

	xasprintf(&name, "%s.mp3", job->name);
	if (lseek(wav, 0, SEEK_SET) == -1 ||
	    file_atomic_openat(&af, job->dfd, name, AUDIO_FILE_MODE) == -1) {
		xasprintf(&job->cause, "%s: %s", name, strerror(errno));
		free(name);
		return AUDIO_FAILED;
	}
	memset(&pr, 0, sizeof(pr));
	pr.what = audio_encoder_program(job->conf);
	pr.argv = job->conf->encoder == AUDIO_ENCODER_FFMPEG ? ffmpeg :
	    lame;
	pr.in_fd = wav;
	pr.out_fd = af.fd;
	pr.wpm = job->wpm;
	pr.repo = job->repo;
	if ((rc = audio_run(&pr, &job->deadline, &why)) != AUDIO_OK) {
		xasprintf(&job->cause, "encoding: %s", why);
		free(why);
		file_atomic_abort(&af);
		free(name);
		return rc;
	}
	if (fstat(af.fd, &st) == -1 || st.st_size == 0) {
		xasprintf(&job->cause, "encoding: %s wrote no MP3", pr.what);
		file_atomic_abort(&af);
		free(name);
		return AUDIO_FAILED;
	}
	job->bytes = (long long)st.st_size;
	if (file_atomic_commit(&af, 0) == -1) {
		xasprintf(&job->cause, "%s: %s", name, strerror(errno));
		free(name);
		return AUDIO_FAILED;
	}
	job->mp3 = name;
	return AUDIO_OK;
}

/* Say the duration dur on the .md's "- Duration:" line of its head. */
static void
audio_md_duration(struct buf *md, const char *dur)
{
	struct buf	 nm;
	const char	*p, *e;

	if (md->data == NULL ||
	    (p = strstr(md->data, "\n- Duration: ")) == NULL)
		return;
	p += strlen("\n- Duration: ");
	e = p + strcspn(p, "\n");
	buf_init(&nm);
	buf_append(&nm, md->data, (size_t)(p - md->data));
	buf_puts(&nm, dur);
	buf_puts(&nm, e);
	buf_free(md);
	*md = nm;
}

/* Give the episode's .json and .md the audio; 0 or -1 with job->cause. */
static int
audio_episode(struct audio_job *job)
{
	struct buf	 js, md, dur;
	json_t		*j = NULL, *audio;
	char		*json_name, *md_name, *text = NULL;
	long		 whole = lround(job->seconds);
	int		 rc = -1;

	buf_init(&js);
	buf_init(&md);
	buf_init(&dur);
	iso_duration(&dur, whole);
	xasprintf(&json_name, "%s.json", job->name);
	xasprintf(&md_name, "%s.md", job->name);
	if (audio_read_at(job->dfd, json_name, 0, &js) == -1 ||
	    audio_read_at(job->dfd, md_name, 0, &md) == -1) {
		xasprintf(&job->cause, "reading the episode back: %s",
		    strerror(errno));
		goto out;
	}
	if ((j = json_loadb(js.data, js.len, 0, NULL)) == NULL ||
	    !json_is_object(j)) {
		xasprintf(&job->cause, "%s is not a JSON object", json_name);
		goto out;
	}
	audio = json_pack("{s:s, s:s, s:I, s:f, s:s}", "file", job->mp3,
	    "type", "audio/mpeg", "bytes", (json_int_t)job->bytes,
	    "seconds", round(job->seconds * 10.0) / 10.0, "vtt", job->vtt);
	/* whose voice it is: a built-in one's name, or the operator's */
	json_object_set_new(audio, "voice", job->conf->tts_command != NULL ?
	    json_string("tts_command") : json_string(job->conf->voice));
	json_object_set_new(j, "duration", json_string(buf_str(&dur)));
	json_object_set_new(j, "duration_seconds", json_integer(whole));
	json_object_set_new(j, "audio", audio);
	text = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
	    JSON_REAL_PRECISION(12));
	audio_md_duration(&md, buf_str(&dur));
	if (text == NULL || file_write_atomicat(job->dfd, json_name, text,
	    strlen(text), AUDIO_FILE_MODE) == -1) {
		xasprintf(&job->cause, "writing %s: %s", json_name,
		    text == NULL ? "out of memory" : strerror(errno));
		goto out;
	}
	/* the .json has the audio now: a failure here is only logged */
	if (md.data != NULL && file_write_atomicat(job->dfd, md_name,
	    md.data, md.len, AUDIO_FILE_MODE) == -1)
		log_warn("audio of %s %s: rewriting %s", job->repo, job->name,
		    md_name);
	rc = 0;
out:
	free(text);
	json_decref(j);
	free(json_name);
	free(md_name);
	buf_free(&js);
	buf_free(&md);
	buf_free(&dur);
	return rc;
}

/*
 * Is name a temporary file of fileio's atomic writes: "NAME.tmp-" and
 * its suffix, of [a-z0-9] (twelve of them as fileio makes it)? A WAV
 * being joined, an MP3 or a VTT being written, an episode's .json, .md
 * or .txt, the feed.
 */
static int
audio_tmp_name(const char *name)
{
	const char	*t = strstr(name, ".tmp-");
	size_t		 n;

	if (t == NULL || t == name)
		return 0;
	/* the last ".tmp-": a name may hold one before */
	while (strstr(t + 1, ".tmp-") != NULL)
		t = strstr(t + 1, ".tmp-");
	t += 5;
	n = strspn(t, "abcdefghijklmnopqrstuvwxyz0123456789");
	return n > 0 && t[n] == '\0';
}

/*
 * Remove what a drafting process stopped from outside (the daemon
 * stopping, or killing it past its time) left in a repository's folder:
 * the temporary files of its atomic writes. One drafting process runs
 * at a time, and this runs in it before it writes, or in the daemon when
 * none runs: none of them is being written.
 */
static void
audio_sweep(int dfd, const char *repo)
{
	struct dirent	*de;
	DIR		*d;
	int		 fd;

	if ((fd = dup(dfd)) == -1)
		return;
	if ((d = fdopendir(fd)) == NULL) {
		close(fd);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		if (!audio_tmp_name(de->d_name) || (de->d_type != DT_REG &&
		    de->d_type != DT_UNKNOWN))
			continue;
		if (unlinkat(dfd, de->d_name, 0) == 0)
			log_info("%s: removed %s, left by a drafting process "
			    "stopped", repo, de->d_name);
	}
	closedir(d);
}

void
audio_sweep_all(const char *output_dir)
{
	struct strlist	repos = { NULL, 0 };
	size_t		i;
	int		dfd;

	archive_repos(output_dir, &repos);
	for (i = 0; i < repos.n; i++) {
		if ((dfd = file_dir_open(output_dir, repos.v[i], 0,
		    0)) == -1)
			continue;
		audio_sweep(dfd, repos.v[i]);
		close(dfd);
	}
	strlist_clear(&repos);
}

/* Where the paragraph at p ends: a line with nothing but blanks, or the end. */
static const char *
audio_paragraph_end(const char *p)
{
	const char	*e, *next;

	for (e = p; *e != '\0'; e++) {
		if (*e != '\n')
			continue;
		next = e + 1;
		next += strspn(next, " \t\r");
		if (*next == '\n' || *next == '\0')
			break;
	}
	return e;
}

/* The paragraphs of t. */
static size_t
audio_paragraphs(const char *t)
{
	size_t	n = 0;

	for (t += strspn(t, " \t\r\n"); *t != '\0'; n++) {
		t = audio_paragraph_end(t);
		t += strspn(t, " \t\r\n");
	}
	return n;
}

/*
 * Split the transcript t into job's sentences. A paragraph's first
 * sentence opens a paragraph, or a section when a segment begins there:
 * the segments, of seg_paras[k] paragraphs each, are the transcript's
 * when nseg is not 0, else each paragraph is one. Past
 * AUDIO_SENTENCES_MAX in all, as one section.
 */
static void
audio_sections(struct audio_job *job, const char *t, const size_t *seg_paras,
    size_t nseg)
{
	const char	*p = t, *e;
	char		*para, **v;
	size_t		 n, k, para_no = 0, seg = 0, seg_start = 0;
	int		 opens;

	p += strspn(p, " \t\r\n");
	while (*p != '\0') {
		e = audio_paragraph_end(p);
		/* does a segment begin at this paragraph? */
		while (nseg > 0 && seg < nseg && para_no >= seg_start +
		    seg_paras[seg])
			seg_start += seg_paras[seg++];
		opens = nseg == 0 || para_no == seg_start ?
		    AUDIO_OPENS_SECTION : AUDIO_OPENS_PARAGRAPH;
		para_no++;
		para = xstrndup(p, (size_t)(e - p));
		n = audio_sentences(para, &v);
		free(para);
		if (job->nsentences + n > AUDIO_SENTENCES_MAX) {
			strv_free(v, n);
			strv_free(job->sentences, job->nsentences);
			free(job->opens);
			job->nsentences = audio_sentences(t, &job->sentences);
			job->opens = xcalloc(job->nsentences + 1, 1);
			return;
		}
		job->sentences = xreallocarray(job->sentences,
		    job->nsentences + n + 1, sizeof(*job->sentences));
		job->opens = xrealloc(job->opens, job->nsentences + n + 1);
		for (k = 0; k < n; k++) {
			job->opens[job->nsentences] = k == 0 &&
			    job->nsentences > 0 ? opens : 0;
			job->sentences[job->nsentences++] = v[k];
		}
		free(v);
		p = e + strspn(e, " \t\r\n");
	}
}

/*
 * Which sentences are the opening's (the first section) and the
 * closing's (the last, of three or more).
 */
static void
audio_bookends(struct audio_job *job)
{
	size_t	i, first = job->nsentences, last = 0, sections = 1;

	job->bookend = xcalloc(job->nsentences + 1, 1);
	for (i = 0; i < job->nsentences; i++)
		if (job->opens[i] == AUDIO_OPENS_SECTION) {
			sections++;
			if (first == job->nsentences)
				first = i;
			last = i;
		}
	for (i = 0; i < job->nsentences; i++)
		job->bookend[i] = i < first || (sections >= 3 && i >= last);
}

/*
 * The episode's people (its JSON's "people", borrowed from root), by whose
 * logins say_sentence says a name it can't read.
 */
static void
audio_people(struct audio_job *job, json_t *root)
{
	json_t		*people, *p;
	const char	*name;
	size_t		 i;

	people = json_object_get(root, "people");
	if (!json_is_array(people) || json_array_size(people) == 0)
		return;
	job->names = xcalloc(json_array_size(people), sizeof(*job->names));
	json_array_foreach(people, i, p) {
		if ((name = json_string_value(json_object_get(p, "name"))) ==
		    NULL)
			continue;
		job->names[job->nnames].name = name;
		job->names[job->nnames].login = json_string_value(
		    json_object_get(p, "login"));
		job->nnames++;
	}
}

/* Whether s says anything: a letter or a digit. */
static int
audio_says(const char *s)
{
	for (; *s != '\0'; s++)
		if (isalnum((unsigned char)*s) || (unsigned char)*s >= 0x80)
			return 1;
	return 0;
}

/*
 * Each sentence's spoken form (say.h). One that says nothing (a sentence
 * of a name in another script, no one's) is left out of the audio and
 * the cues, its section opened by the next.
 */
static void
audio_spoken(struct audio_job *job)
{
	size_t	i, n = 0;
	char	*t;

	job->spoken = xcalloc(job->nsentences + 1, sizeof(*job->spoken));
	for (i = 0; i < job->nsentences; i++) {
		t = say_sentence(job->sentences[i], job->names, job->nnames);
		if (!audio_says(t)) {
			free(t);
			if (i + 1 < job->nsentences &&
			    job->opens[i] > job->opens[i + 1])
				job->opens[i + 1] = job->opens[i];
			free(job->sentences[i]);
			continue;
		}
		job->sentences[n] = job->sentences[i];
		job->opens[n] = job->opens[i];
		job->spoken[n++] = t;
	}
	job->nsentences = n;
}

/*
 * Split the transcript t of the episode root into job's sentences, its
 * segments the sections when their paragraphs are the transcript's (a
 * rewrite may have told it otherwise: then each paragraph is one).
 */
static void
audio_sections_of(struct audio_job *job, json_t *root, const char *t)
{
	json_t		*segs, *seg;
	const char	*text;
	size_t		*paras = NULL, i, nseg = 0, sum = 0;

	segs = json_object_get(root, "segments");
	if (json_is_array(segs) && json_array_size(segs) > 0) {
		paras = xcalloc(json_array_size(segs), sizeof(*paras));
		json_array_foreach(segs, i, seg) {
			if ((text = json_string_value(json_object_get(seg,
			    "text"))) == NULL)
				break;
			if ((paras[nseg] = audio_paragraphs(text)) > 0)
				sum += paras[nseg++];
		}
		if (i < json_array_size(segs) || sum != audio_paragraphs(t))
			nseg = 0;
	}
	audio_sections(job, t, paras, nseg);
	free(paras);
}

/* The transcript of the episode's .json, split into job's sentences. */
static int
audio_transcript(struct audio_job *job)
{
	struct buf	 b;
	json_t		*j;
	const char	*t;
	char		*name;
	int		 rc = -1;

	buf_init(&b);
	xasprintf(&name, "%s.json", job->name);
	if (audio_read_at(job->dfd, name, 0, &b) == -1) {
		xasprintf(&job->cause, "reading %s: %s", name, strerror(errno));
		goto out;
	}
	if ((j = json_loadb(b.data, b.len, 0, NULL)) == NULL) {
		xasprintf(&job->cause, "%s is not JSON", name);
		goto out;
	}
	if ((t = json_string_value(json_object_get(j, "transcript"))) ==
	    NULL)
		xasprintf(&job->cause, "%s has no transcript", name);
	else {
		audio_sections_of(job, j, t);
		if (job->nsentences == 0)
			xasprintf(&job->cause, "the transcript has no "
			    "sentence to speak");
		else
			rc = 0;
	}
	if (rc == 0) {
		audio_people(job, j);
		audio_spoken(job);
		if (job->nsentences == 0) {
			xasprintf(&job->cause, "the transcript has no "
			    "sentence to speak");
			rc = -1;
		} else
			audio_bookends(job);
	}
	free(job->names);
	job->names = NULL;
	job->nnames = 0;
	json_decref(j);
out:
	free(name);
	buf_free(&b);
	return rc;
}

/*
 * section_sound, read once for the episode: kept when it is a WAV we
 * take (its format is checked against the voice's when played), else
 * said in the log and left out.
 */
static void
audio_sound(struct audio_job *job)
{
	char	*why = NULL;

	if (job->conf->section_sound == NULL)
		return;
	if (audio_read_at(AT_FDCWD, job->conf->section_sound, 1,
	    &job->sound) ==
	    -1)
		log_warnx("audio of %s: section_sound %s: %s; sections are "
		    "parted by a pause only", job->repo,
		    job->conf->section_sound, strerror(errno));
	else if (wav_parse(job->sound.data, job->sound.len, &job->sound_wav,
	    &why) == -1) {
		log_warnx("audio of %s: section_sound %s is not a WAV we "
		    "take: %s; sections are parted by a pause only",
		    job->repo, job->conf->section_sound, why);
		free(why);
		memset(&job->sound_wav, 0, sizeof(job->sound_wav));
	}
}

enum audio_outcome
audio_render(const struct audio_conf *conf, const char *repo, const char *name,
    struct audio_result *res)
{
	struct audio_job	 job;
	struct file_atomic	 wav;
	struct timespec		 start, end;
	char			*vtt = NULL, *vtt_name = NULL, *cause = NULL;
	char			*wav_name = NULL;
	enum audio_outcome	 rc = AUDIO_FAILED;
	int			 have_wav = 0;

	memset(res, 0, sizeof(*res));
	memset(&job, 0, sizeof(job));
	buf_init(&job.sound);
	clock_gettime(CLOCK_MONOTONIC, &start);
	job.conf = conf;
	job.repo = repo;
	job.name = name;
	job.deadline = start;
	job.deadline.tv_sec += conf->timeout;
	snprintf(job.wpm, sizeof(job.wpm), "%ld",
	    lround(conf->emit.words_per_minute));
	/* orphans of the programs run come back here to be collected */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	/* a program that stops reading is not a reason to die */
	signal(SIGPIPE, SIG_IGN);

	if ((job.dfd = file_dir_open(conf->emit.output_dir, repo, 0, 0)) ==
	    -1) {
		xasprintf(&job.cause, "%s/%s: %s", conf->emit.output_dir, repo,
		    strerror(errno));
		goto out;
	}
	audio_sweep(job.dfd, repo);
	if (emit_free_space(conf->emit.output_dir, conf->emit.min_free_space,
	    &cause) == -1) {
		job.cause = cause;
		goto out;
	}
	if (audio_transcript(&job) == -1)
		goto out;
	audio_sound(&job);
	job.cues = xcalloc(job.nsentences, sizeof(*job.cues));
	/* the joined WAV: a temporary file, never renamed into place */
	xasprintf(&wav_name, "%s.wav", name);
	if (file_atomic_openat(&wav, job.dfd, wav_name, AUDIO_FILE_MODE) ==
	    -1) {
		xasprintf(&job.cause, "a temporary WAV: %s", strerror(errno));
		goto out;
	}
	have_wav = 1;
	if ((rc = audio_speak(&job, wav.fd)) != AUDIO_OK ||
	    (rc = audio_encode(&job, wav.fd)) != AUDIO_OK)
		goto out;
	rc = AUDIO_FAILED;
	xasprintf(&vtt_name, "%s.vtt", name);
	vtt = audio_vtt(job.cues, job.nsentences);
	if (file_write_atomicat(job.dfd, vtt_name, vtt, strlen(vtt),
	    AUDIO_FILE_MODE) == -1) {
		xasprintf(&job.cause, "writing %s: %s", vtt_name,
		    strerror(errno));
		goto out;
	}
	job.vtt = vtt_name;
	vtt_name = NULL;
	if (audio_episode(&job) == -1)
		goto out;
	rc = AUDIO_OK;
	if (emit_feed(&conf->emit, repo, &cause) == -1) {
		log_warnx("feed of %s: %s", repo, cause);
		free(cause);
	}
out:
	if (have_wav)
		file_atomic_abort(&wav);
	if (rc != AUDIO_OK && job.dfd != -1) {
		/* nothing of a failed audio stays */
		if (job.mp3 != NULL && unlinkat(job.dfd, job.mp3, 0) == -1)
			log_warn("audio of %s: removing %s", repo, job.mp3);
		if (job.vtt != NULL && unlinkat(job.dfd, job.vtt, 0) == -1)
			log_warn("audio of %s: removing %s", repo, job.vtt);
	}
	clock_gettime(CLOCK_MONOTONIC, &end);
	res->outcome = rc;
	res->took = (double)(end.tv_sec - start.tv_sec) +
	    (double)(end.tv_nsec - start.tv_nsec) / 1e9;
	if (rc == AUDIO_OK) {
		res->seconds = job.seconds;
		res->bytes = job.bytes;
	} else
		res->cause = job.cause != NULL ? job.cause :
		    xstrdup("failed");
	if (rc == AUDIO_OK)
		free(job.cause);
	if (job.dfd != -1)
		close(job.dfd);
	if (job.spoken != NULL)
		strv_free(job.spoken, job.nsentences);
	strv_free(job.sentences, job.nsentences);
	free(job.opens);
	free(job.bookend);
	buf_free(&job.sound);
	free(job.cues);
	free(job.mp3);
	free(job.vtt);
	free(vtt_name);
	free(wav_name);
	free(vtt);
	return rc;
}
