/*
 * Unit tests: daemon/webhook.c, one row per intake outcome, each request
 * sent over a real TCP connection to the real HTTP server with the
 * daemon's own callbacks, a real journal and a real day store.
 */
#include <sys/socket.h>
#include <sys/stat.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <event2/event.h>
#include <jansson.h>

#include "branch_names.h"
#include "buf.h"
#include "config.h"
#include "daemon.h"
#include "http.h"
#include "journal.h"
#include "log.h"
#include "signature.h"
#include "store.h"
#include "webhook.h"
#include "xmalloc.h"

#define SECRET		"It's a Secret to Everybody"
#define REPO		"octo-org/widget"

struct harness {
	char			 dir[64];
	struct hookcastd	 d;
	int			 port;
};

static char *
push_body(const char *repo, const char *branch, const char *sha)
{
	char	*s;

	xasprintf(&s, "{\"ref\":\"refs/heads/%s\",\"before\":"
	    "\"0000000000000000000000000000000000000000\",\"after\":\"%s\","
	    "\"repository\":{\"full_name\":\"%s\",\"default_branch\":\"main\"},"
	    "\"pusher\":{\"name\":\"octocat\"},\"commits\":[{\"id\":\"%s\","
	    "\"message\":\"Fix the widget\",\"timestamp\":"
	    "\"2026-06-01T10:00:00Z\",\"author\":{\"name\":\"Mona\","
	    "\"username\":\"mona\"},\"added\":[],\"removed\":[],"
	    "\"modified\":[\"widget.c\"]}]}", branch, sha, repo, sha);
	return s;
}

/* Put /dev/null behind the open descriptor of path. */
static void
journal_fd_to_null(const char *path)
{
	char	link[64], target[4096];
	ssize_t	n;
	int	fd, null;

	for (fd = 3; fd < 1024; fd++) {
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		if ((n = readlink(link, target, sizeof(target) - 1)) == -1)
			continue;
		target[n] = '\0';
		if (strcmp(target, path) != 0)
			continue;
		assert_true((null = open("/dev/null", O_RDWR)) != -1);
		assert_int_equal(dup2(null, fd), fd);
		close(null);
		return;
	}
	fail_msg("no descriptor open on %s", path);
}

/* A daemon's intake on a loopback port; journal_fsync as given. */
static void
harness_start(struct harness *h, const char *fsync_mode, int journal_null)
{
	char			*argv[8], *secret_path, *a[5];
	struct config_causes	 causes = { 0 };
	struct http_limits	 limits;
	struct sockaddr_in	 sin;
	socklen_t		 slen = sizeof(sin);
	char			*cause = NULL, *jpath;
	int			 fd, argc = 0, one = 1;
	FILE			*f;

	memset(h, 0, sizeof(*h));
	strcpy(h->dir, "/tmp/hookcast-webhook-XXXXXX");
	assert_non_null(mkdtemp(h->dir));
	xasprintf(&secret_path, "%s/secret", h->dir);
	assert_non_null(f = fopen(secret_path, "w"));
	fprintf(f, "%s\n", SECRET);
	fclose(f);
	chmod(secret_path, 0600);

	xasprintf(&a[0], "--state-dir=%s", h->dir);
	xasprintf(&a[1], "--output-dir=%s/out", h->dir);
	xasprintf(&a[2], "--secret-file=%s", secret_path);
	xasprintf(&a[3], "--journal-fsync=%s", fsync_mode);
	xasprintf(&a[4], "--control-socket=%s/control.sock", h->dir);
	argv[argc++] = "hookcastd";
	for (fd = 0; fd < 5; fd++)
		argv[argc++] = a[fd];
	argv[argc] = NULL;
	if (config_load(&h->d.conf, argc, argv, hookcastd_passthrough,
	    &causes) != 0) {
		size_t i;

		for (i = 0; i < causes.n; i++)
			fprintf(stderr, "%s\n", causes.v[i]);
		fail_msg("config_load failed");
	}
	config_causes_clear(&causes);
	for (fd = 0; fd < 5; fd++)
		free(a[fd]);
	free(secret_path);

	assert_non_null(h->d.base = event_base_new());
	h->d.store = store_new();
	h->d.pending_tail = &h->d.pending;
	h->d.sync_ev = event_new(h->d.base, -1, 0, webhook_sync, &h->d);
	h->d.window_start = time(NULL) - 3600;
	h->d.journal = journal_open(h->d.conf.state_dir, &cause);
	assert_non_null(h->d.journal);
	if (journal_null) {
		/*
		 * Every sync fails (EINVAL) while writes succeed: /dev/null in
		 * place of the journal's descriptor (journal_open refuses a
		 * symlink at STATE/journal).
		 */
		xasprintf(&jpath, "%s/journal", h->dir);
		journal_fd_to_null(jpath);
		free(jpath);
	}
	hookcastd_limits(&h->d.conf, &limits);
	h->d.http = http_server_new(h->d.base, &limits, webhook_head,
	    webhook_request, &h->d);

	fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(fd, (struct sockaddr *)&sin, sizeof(sin)), 0);
	assert_int_equal(listen(fd, 64), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&sin, &slen), 0);
	h->port = ntohs(sin.sin_port);
	assert_int_equal(http_server_listen_fd(h->d.http, fd, &cause), 0);
}

static void
harness_stop(struct harness *h)
{
	char	*cmd;

	http_server_free(h->d.http);
	event_free(h->d.sync_ev);
	journal_close(h->d.journal);
	store_free(h->d.store);
	config_clear(&h->d.conf);
	event_base_free(h->d.base);
	xasprintf(&cmd, "rm -rf '%s'", h->dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", h->dir);
	free(cmd);
}

/* Connect and send a whole request; the socket, non-blocking. */
static int
client_send(struct harness *h, const char *req, size_t len)
{
	struct sockaddr_in	sin;
	size_t			off = 0;
	ssize_t			n;
	int			fd;

	fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t)h->port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(connect(fd, (struct sockaddr *)&sin, sizeof(sin)),
	    0);
	fcntl(fd, F_SETFL, O_NONBLOCK);
	while (off < len) {
		n = send(fd, req + off, len - off, MSG_NOSIGNAL);
		if (n == -1 && errno == EAGAIN) {
			event_base_loop(h->d.base, EVLOOP_ONCE |
			    EVLOOP_NONBLOCK);
			continue;
		}
		assert_true(n > 0);
		off += (size_t)n;
	}
	return fd;
}

/* Run the loop until the server closes fd; the reply's text (new). */
static char *
client_reply(struct harness *h, int fd)
{
	struct buf	b;
	char		chunk[4096];
	ssize_t		n;
	int		i;

	buf_init(&b);
	for (i = 0; i < 20000; i++) {
		event_base_loop(h->d.base, EVLOOP_ONCE | EVLOOP_NONBLOCK);
		n = recv(fd, chunk, sizeof(chunk), 0);
		if (n > 0) {
			buf_append(&b, chunk, (size_t)n);
			continue;
		}
		if (n == 0)
			break;
		if (errno != EAGAIN)
			break;
		poll(NULL, 0, 1);
	}
	close(fd);
	return buf_steal(&b);
}

/* Build a request with the given headers (NULL-terminated name, value). */
static char *
request(const char *method, const char *path, const char *body,
    size_t *len, ...)
{
	struct buf	 b;
	va_list		 ap;
	const char	*name, *value;

	buf_init(&b);
	buf_printf(&b, "%s %s HTTP/1.1\r\nHost: test\r\n"
	    "Connection: close\r\n", method, path);
	va_start(ap, len);
	while ((name = va_arg(ap, const char *)) != NULL) {
		value = va_arg(ap, const char *);
		buf_printf(&b, "%s: %s\r\n", name, value);
	}
	va_end(ap);
	if (body != NULL)
		buf_printf(&b, "Content-Length: %zu\r\n\r\n%s", strlen(body),
		    body);
	else
		buf_puts(&b, "\r\n");
	*len = b.len;
	return buf_steal(&b);
}

static int
reply_status(const char *reply)
{
	int	status = 0;

	if (sscanf(reply, "HTTP/1.1 %d", &status) != 1)
		return -1;
	return status;
}

/* The reply's JSON body (new reference), which must parse. */
static json_t *
reply_json(const char *reply)
{
	const char	*body = strstr(reply, "\r\n\r\n");
	json_error_t	 err;
	json_t		*j;

	assert_non_null(body);
	j = json_loads(body + 4, 0, &err);
	if (j == NULL)
		fail_msg("reply is not JSON: %s (%s)", body + 4, err.text);
	return j;
}

static char *
sign(const char *body)
{
	char	*sig = xmalloc(SIGNATURE_LEN);

	assert_int_equal(signature_compute(SECRET, strlen(SECRET), body,
	    strlen(body), sig), 0);
	return sig;
}

/*
 * One row per outcome: the request's parts (a NULL field is left out; a
 * field "SIGN" is the body's true signature) and what must come of it.
 */
struct intake_case {
	enum webhook_outcome	 outcome;
	const char		*method;
	const char		*event;
	const char		*delivery;
	const char		*hook;
	const char		*ctype;
	const char		*signature;
	const char		*body;		/* NULL: a push to main */
	int			 journalled;	/* the journal grew */
	const char		*error;		/* part of "error", or NULL */
};

static const struct intake_case cases[] = {
	{ .outcome = WEBHOOK_ACCEPTED, .event = "push", .journalled = 1 },
	{ .outcome = WEBHOOK_IGNORED_EVENT, .event = "issues" },
	{ .outcome = WEBHOOK_IGNORED, .event = "push",
	  .body = "{\"ref\":\"refs/heads/feature\",\"before\":"
	      "\"0000000000000000000000000000000000000000\",\"after\":"
	      "\"1111111111111111111111111111111111111111\",\"repository\":"
	      "{\"full_name\":\"" REPO "\",\"default_branch\":\"main\"},"
	      "\"commits\":[]}" },
	{ .outcome = WEBHOOK_NOT_POST, .method = "PUT", .event = "push",
	  .error = "POST" },
	{ .outcome = WEBHOOK_NO_EVENT, .event = NULL,
	  .error = "X-GitHub-Event" },
	{ .outcome = WEBHOOK_BAD_EVENT, .event = "pu\xffsh",
	  .error = "X-GitHub-Event" },
	{ .outcome = WEBHOOK_BAD_EVENT, .event = "ping\xc3\x28",
	  .error = "X-GitHub-Event" },
	{ .outcome = WEBHOOK_BAD_EVENT, .event = "push\x1b[31m",
	  .error = "X-GitHub-Event" },
	{ .outcome = WEBHOOK_CONTENT_TYPE, .event = "push",
	  .ctype = "text/plain", .error = "Content-Type" },
	{ .outcome = WEBHOOK_BAD_DELIVERY, .event = "push",
	  .delivery = "\xff\xfe-not-utf8", .error = "X-GitHub-Delivery" },
	{ .outcome = WEBHOOK_BAD_DELIVERY, .event = "ping",
	  .delivery = "abc\xe2\x82", .error = "X-GitHub-Delivery" },
	{ .outcome = WEBHOOK_BAD_DELIVERY, .event = "push", .delivery = "",
	  .error = "X-GitHub-Delivery" },
	{ .outcome = WEBHOOK_BAD_DELIVERY, .event = "push",
	  .delivery = "a:b", .error = "X-GitHub-Delivery" },
	{ .outcome = WEBHOOK_BAD_HOOK_ID, .event = "push",
	  .hook = "1\x80", .error = "X-GitHub-Hook-ID" },
	{ .outcome = WEBHOOK_NO_SIGNATURE, .event = "push",
	  .signature = "", .error = "X-Hub-Signature-256" },
	{ .outcome = WEBHOOK_BAD_SIGNATURE, .event = "push",
	  .signature = "sha256=0000000000000000000000000000000000000000"
	      "000000000000000000000000", .error = "match" },
	{ .outcome = WEBHOOK_BAD_SIGNATURE, .event = "push",
	  .signature = "sha256=\xff", .error = NULL },
	{ .outcome = WEBHOOK_BAD_FORM, .event = "push",
	  .ctype = "application/x-www-form-urlencoded", .body = "nope=1" },
	{ .outcome = WEBHOOK_BAD_JSON, .event = "push", .body = "[1,2",
	  .error = "invalid JSON" },
	{ .outcome = WEBHOOK_BAD_JSON, .event = "ping", .body = "[1,2]",
	  .error = "JSON object" },
	{ .outcome = WEBHOOK_BAD_PAYLOAD, .event = "push",
	  .body = "{\"ref\":7}", .error = "repository" },
	{ .outcome = WEBHOOK_BAD_PAYLOAD, .event = "push",
	  .body = "{\"ref\":\"refs/heads/main\",\"repository\":"
	      "{\"full_name\":\"no-slash\"},\"commits\":[]}",
	  .error = "full_name" },
	/* branch and default branch: 255 bytes are kept, 256 refused */
	{ .outcome = WEBHOOK_ACCEPTED, .event = "push", .journalled = 1,
	  .body = "{\"ref\":\"refs/heads/" BRANCH_AT_CAP "\",\"after\":"
	      "\"2222222222222222222222222222222222222222\",\"repository\":"
	      "{\"full_name\":\"" REPO "\",\"default_branch\":\""
	      BRANCH_AT_CAP "\"},\"commits\":[]}" },
	{ .outcome = WEBHOOK_BAD_PAYLOAD, .event = "push",
	  .body = "{\"ref\":\"refs/heads/" BRANCH_OVER_CAP "\",\"repository\":"
	      "{\"full_name\":\"" REPO "\",\"default_branch\":\"main\"},"
	      "\"commits\":[]}",
	  .error = BRANCH_REF_CAUSE },
	{ .outcome = WEBHOOK_BAD_PAYLOAD, .event = "push",
	  .body = "{\"ref\":\"refs/heads/main\",\"repository\":"
	      "{\"full_name\":\"" REPO "\",\"default_branch\":\""
	      BRANCH_OVER_CAP "\"},\"commits\":[]}",
	  .error = BRANCH_DEFAULT_CAUSE },
	{ .outcome = WEBHOOK_ACCEPTED, .event = "pull_request",
	  .journalled = 1,
	  .body = "{\"action\":\"closed\",\"repository\":{\"full_name\":"
	      "\"" REPO "\",\"default_branch\":\"" BRANCH_AT_CAP "\"},"
	      "\"pull_request\":{\"number\":7,\"title\":\"t\",\"user\":"
	      "{\"login\":\"mona\"},\"merged\":true,\"base\":{\"ref\":"
	      "\"" BRANCH_AT_CAP "\"}}}" },
	{ .outcome = WEBHOOK_BAD_PAYLOAD, .event = "pull_request",
	  .body = "{\"action\":\"closed\",\"repository\":{\"full_name\":"
	      "\"" REPO "\",\"default_branch\":\"" BRANCH_OVER_CAP "\"},"
	      "\"pull_request\":{\"number\":7,\"title\":\"t\",\"user\":"
	      "{\"login\":\"mona\"},\"merged\":true,\"base\":{\"ref\":"
	      "\"main\"}}}",
	  .error = BRANCH_DEFAULT_CAUSE },
	/*
	 * a PR's base ref: 255 decoded bytes are kept (the default branch,
	 * so tracked), 256 refused
	 */
	{ .outcome = WEBHOOK_ACCEPTED, .event = "pull_request",
	  .journalled = 1,
	  .body = "{\"action\":\"closed\",\"repository\":{\"full_name\":"
	      "\"" REPO "\",\"default_branch\":\"" BRANCH_64 BRANCH_64
	      BRANCH_64 BRANCH_16 BRANCH_16 BRANCH_16 "bbbbbbbbbbbbb\\u00e9\"},"
	      "\"pull_request\":{\"number\":8,\"title\":\"t\",\"user\":"
	      "{\"login\":\"mona\"},\"merged\":true,\"base\":{\"ref\":"
	      "\"" BRANCH_64 BRANCH_64 BRANCH_64 BRANCH_16 BRANCH_16 BRANCH_16
	      "bbbbbbbbbbbbb\\u00e9\"}}}" },
	{ .outcome = WEBHOOK_BAD_PAYLOAD, .event = "pull_request",
	  .body = "{\"action\":\"closed\",\"repository\":{\"full_name\":"
	      "\"" REPO "\",\"default_branch\":\"main\"},"
	      "\"pull_request\":{\"number\":7,\"title\":\"t\",\"user\":"
	      "{\"login\":\"mona\"},\"merged\":true,\"base\":{\"ref\":"
	      "\"" BRANCH_OVER_CAP "\"}}}",
	  .error = BRANCH_BASE_CAUSE },
	{ .outcome = WEBHOOK_BAD_PAYLOAD, .event = "pull_request",
	  .body = "{\"action\":\"closed\",\"repository\":{\"full_name\":"
	      "\"" REPO "\",\"default_branch\":\"main\"},"
	      "\"pull_request\":{\"number\":7,\"title\":\"t\",\"user\":"
	      "{\"login\":\"mona\"},\"merged\":true,\"base\":{\"ref\":"
	      "\"" BRANCH_64 BRANCH_64 BRANCH_64 BRANCH_16 BRANCH_16 BRANCH_16
	      "bbbbbbbbbbbbbb\\u00e9\"}}}",
	  .error = BRANCH_BASE_CAUSE },
	/* a PR's title over 1024 bytes and login over 255: refused */
	{ .outcome = WEBHOOK_BAD_PAYLOAD, .event = "pull_request",
	  .body = "{\"action\":\"closed\",\"repository\":{\"full_name\":"
	      "\"" REPO "\",\"default_branch\":\"main\"},"
	      "\"pull_request\":{\"number\":7,\"title\":\""
	      BRANCH_AT_CAP BRANCH_AT_CAP BRANCH_AT_CAP BRANCH_AT_CAP
	      "bbbbb\",\"user\":"
	      "{\"login\":\"mona\"},\"merged\":true,\"base\":{\"ref\":"
	      "\"main\"}}}",
	  .error = "pull_request.title: longer than 1024 bytes" },
	{ .outcome = WEBHOOK_BAD_PAYLOAD, .event = "pull_request",
	  .body = "{\"action\":\"closed\",\"repository\":{\"full_name\":"
	      "\"" REPO "\",\"default_branch\":\"main\"},"
	      "\"pull_request\":{\"number\":7,\"title\":\"t\",\"user\":"
	      "{\"login\":\"" BRANCH_OVER_CAP "\"},\"merged\":true,"
	      "\"base\":{\"ref\":\"main\"}}}",
	  .error = "pull_request.user.login: longer than 255 bytes" },
};

static uint64_t
metric_total(const struct metrics *m, enum metrics_outcome o)
{
	return metrics_outcome_total(m, o);
}

/* Each outcome's status, metric and JSON reply; the daemon lives on. */
static void
test_intake_outcomes(void **state)
{
	struct harness	 h;
	size_t		 i, len;
	char		*body, *sig, *req, *reply, guid[64];
	const char	*sigval, *err;
	json_t		*j;
	off_t		 before;
	uint64_t	 counted[OUTCOME_MAX];
	int		 fd, k, want;

	(void)state;
	harness_start(&h, "always", 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct intake_case *c = &cases[i];

		body = c->body != NULL ? xstrdup(c->body) :
		    push_body(REPO, "main",
		    "1234567890abcdef1234567890abcdef12345678");
		sig = sign(body);
		sigval = c->signature != NULL ? c->signature : sig;
		snprintf(guid, sizeof(guid), "guid-%zu", i);
		req = request(c->method != NULL ? c->method : "POST",
		    "/webhook", body, &len,
		    "Content-Type", c->ctype != NULL ? c->ctype :
		    "application/json",
		    "X-GitHub-Delivery", c->delivery != NULL ? c->delivery :
		    guid,
		    "X-GitHub-Hook-ID", c->hook != NULL ? c->hook : "42",
		    *sigval != '\0' ? "X-Hub-Signature-256" : "X-Padding",
		    sigval,
		    c->event != NULL ? "X-GitHub-Event" : NULL, c->event,
		    NULL);
		for (k = 0; k < OUTCOME_MAX; k++)
			counted[k] = metric_total(&h.d.metrics, k);
		before = journal_size(h.d.journal);

		fd = client_send(&h, req, len);
		reply = client_reply(&h, fd);
		want = webhook_outcome_status(c->outcome);
		if (reply_status(reply) != want)
			fail_msg("case %zu: status %d, want %d: %s", i,
			    reply_status(reply), want, reply);
		j = reply_json(reply);
		assert_int_equal(json_is_true(json_object_get(j, "ok")),
		    want < 300);
		if (c->error != NULL) {
			err = json_string_value(json_object_get(j, "error"));
			if (err == NULL || strstr(err, c->error) == NULL)
				fail_msg("case %zu: error '%s' lacks '%s'", i,
				    err != NULL ? err : "(none)", c->error);
		}
		/*
		 * exactly one outcome counted, the row's; none for another
		 * method, which is no delivery (an http: line, not counted)
		 */
		for (k = 0; k < OUTCOME_MAX; k++) {
			uint64_t d = metric_total(&h.d.metrics, k) -
			    counted[k];

			assert_int_equal(d, (k == OUTCOME_ACCEPTED &&
			    want == 200) || (k == OUTCOME_IGNORED &&
			    want == 202) || (k == OUTCOME_REJECTED &&
			    want >= 400 && want < 500 &&
			    c->outcome != WEBHOOK_NOT_POST));
		}
		assert_int_equal(journal_size(h.d.journal) > before,
		    c->journalled);
		json_decref(j);
		free(reply);
		free(req);
		free(sig);
		free(body);
	}
	harness_stop(&h);
}

/* A second copy of a delivery: 200 duplicate, not journalled again. */
static void
test_intake_duplicate(void **state)
{
	struct harness	 h;
	char		*body, *sig, *req, *reply;
	size_t		 len;
	off_t		 size;
	json_t		*j;
	int		 round;

	(void)state;
	harness_start(&h, "batch", 0);
	body = push_body(REPO, "main",
	    "abcdefabcdefabcdefabcdefabcdefabcdefabcd");
	sig = sign(body);
	req = request("POST", "/webhook", body, &len,
	    "Content-Type", "application/json", "X-GitHub-Event", "push",
	    "X-GitHub-Delivery", "same-guid", "X-GitHub-Hook-ID", "7",
	    "X-Hub-Signature-256", sig, NULL);
	for (round = 0; round < 2; round++) {
		reply = client_reply(&h, client_send(&h, req, len));
		assert_int_equal(reply_status(reply), 200);
		j = reply_json(reply);
		assert_int_equal(json_is_true(json_object_get(j, "duplicate")),
		    round == 1);
		json_decref(j);
		free(reply);
		if (round == 0)
			size = journal_size(h.d.journal);
	}
	assert_int_equal(journal_size(h.d.journal), size);
	free(req);
	free(sig);
	free(body);
	harness_stop(&h);
}

/*
 * A duplicate in the same batch as its original is answered with it:
 * when the batch's sync fails, both get 503, never a 200 for a delivery
 * that was not made durable.
 */
static void
test_intake_duplicate_in_failed_batch(void **state)
{
	struct harness	 h;
	char		*body, *sig, *req, *reply[2];
	size_t		 len;
	int		 fd[2], i;

	(void)state;
	harness_start(&h, "batch", 1);
	body = push_body(REPO, "main",
	    "feedfacefeedfacefeedfacefeedfacefeedface");
	sig = sign(body);
	req = request("POST", "/webhook", body, &len,
	    "Content-Type", "application/json", "X-GitHub-Event", "push",
	    "X-GitHub-Delivery", "twice", "X-GitHub-Hook-ID", "7",
	    "X-Hub-Signature-256", sig, NULL);
	/* both are in the kernel before the loop reads either */
	fd[0] = client_send(&h, req, len);
	fd[1] = client_send(&h, req, len);
	reply[0] = client_reply(&h, fd[0]);
	reply[1] = client_reply(&h, fd[1]);
	for (i = 0; i < 2; i++) {
		if (reply_status(reply[i]) != 503)
			fail_msg("copy %d: %s", i, reply[i]);
		free(reply[i]);
	}
	assert_int_equal(metrics_outcome_total(&h.d.metrics,
	    OUTCOME_ACCEPTED), 0);
	assert_int_equal(metrics_outcome_total(&h.d.metrics,
	    OUTCOME_DUPLICATE), 0);
	free(req);
	free(sig);
	free(body);
	harness_stop(&h);
}

/* Replay's apply: does a record name the sha in arg? */
static void
find_sha(json_t *rec, void *arg)
{
	const char	**want = arg;
	char		 *text = json_dumps(rec, JSON_COMPACT);

	if (text != NULL && strstr(text, want[0]) != NULL)
		want[1] = "found";
	free(text);
}

/* Stop the loop once a delivery waits for its sync. */
static void
break_on_pending(evutil_socket_t fd, short what, void *arg)
{
	struct hookcastd	*d = arg;

	if (d->pending != NULL)
		event_base_loopbreak(d->base);
}

/*
 * Compaction in the same loop turn as a delivery written but not yet
 * synced (the scheduled emission does this): the delivery is in the
 * compacted journal, so its 200 holds after a crash.
 */
static void
test_compaction_keeps_unsynced_delivery(void **state)
{
	static const char	 sha[] =
	    "c0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ff";
	struct harness		 h;
	struct journal		*j;
	const char		*want[2] = { sha, NULL };
	char			*body, *sig, *req, *reply, *cause = NULL;
	size_t			 len;
	struct event		*breaker;
	int			 fd, i, pfd[2];

	(void)state;
	harness_start(&h, "batch", 0);
	/* the sync runs after everything else ready in a turn */
	assert_int_equal(event_base_priority_init(h.d.base, 3), 0);
	assert_int_equal(event_priority_set(h.d.sync_ev, 2), 0);
	body = push_body(REPO, "main", sha);
	sig = sign(body);
	req = request("POST", "/webhook", body, &len,
	    "Content-Type", "application/json", "X-GitHub-Event", "push",
	    "X-GitHub-Delivery", "compacted", "X-GitHub-Hook-ID", "7",
	    "X-Hub-Signature-256", sig, NULL);
	/*
	 * A pipe that is always readable, watched at a priority above the
	 * sync's: while it is, the sync never runs, and it stops the loop
	 * once a delivery waits for its sync.
	 */
	assert_int_equal(pipe(pfd), 0);
	assert_int_equal(write(pfd[1], "x", 1), 1);
	breaker = event_new(h.d.base, pfd[0], EV_READ | EV_PERSIST,
	    break_on_pending, &h.d);
	assert_int_equal(event_priority_set(breaker, 1), 0);
	event_add(breaker, NULL);
	fd = client_send(&h, req, len);
	for (i = 0; i < 20000 && h.d.pending == NULL; i++)
		event_base_loop(h.d.base, EVLOOP_ONCE);
	event_free(breaker);
	close(pfd[0]);
	close(pfd[1]);
	assert_non_null(h.d.pending);		/* written, not synced */
	assert_int_equal(hookcastd_compact(&h.d), 0);
	reply = client_reply(&h, fd);
	assert_int_equal(reply_status(reply), 200);

	/* a crash now: what does the journal hold? */
	assert_non_null(j = journal_open(h.d.conf.state_dir, &cause));
	assert_true(journal_replay(j, find_sha, want) >= 1);
	journal_close(j);
	if (want[1] == NULL)
		fail_msg("an acknowledged delivery is not in the journal");
	free(reply);
	free(req);
	free(sig);
	free(body);
	harness_stop(&h);
}

/* A body over max_body is refused from its Content-Length alone. */
static void
test_intake_too_large(void **state)
{
	struct harness	 h;
	char		*req, *reply;
	size_t		 len;

	(void)state;
	harness_start(&h, "always", 0);
	xasprintf(&req, "POST /webhook HTTP/1.1\r\nHost: t\r\n"
	    "Content-Type: application/json\r\nX-GitHub-Event: push\r\n"
	    "X-GitHub-Delivery: big\r\nX-Hub-Signature-256: sha256=00\r\n"
	    "Content-Length: %lld\r\n\r\n",
	    (long long)h.d.conf.max_body + 1);
	len = strlen(req);
	reply = client_reply(&h, client_send(&h, req, len));
	assert_int_equal(reply_status(reply),
	    webhook_outcome_status(WEBHOOK_TOO_LARGE));
	assert_int_equal(metrics_outcome_total(&h.d.metrics,
	    OUTCOME_REJECTED), 1);
	free(reply);
	free(req);
	harness_stop(&h);
}

/* GET or HEAD /healthz: the reply's status, its body in *body (new). */
static int
healthz(struct harness *h, const char *method, char **body)
{
	char	*req, *reply, *b;
	int	 status;

	xasprintf(&req, "%s /healthz HTTP/1.1\r\nHost: t\r\n"
	    "Connection: close\r\n\r\n", method);
	reply = client_reply(h, client_send(h, req, strlen(req)));
	status = reply_status(reply);
	b = strstr(reply, "\r\n\r\n");
	*body = xstrdup(b != NULL ? b + 4 : "");
	free(reply);
	free(req);
	return status;
}

/*
 * /healthz says what a delivery would meet: 503 and why while stopping,
 * while replaying (a delivery then gets 503 too) and while the journal
 * fails; a probe of the state directory ends the failure; HEAD, no body.
 */
static void
test_healthz(void **state)
{
	struct harness	 h;
	char		*body, *req, *reply, *dir;
	size_t		 len;

	(void)state;
	harness_start(&h, "always", 0);
	assert_int_equal(healthz(&h, "GET", &body), 200);
	assert_string_equal(body, "{\"ok\":true}");
	free(body);
	assert_int_equal(healthz(&h, "HEAD", &body), 200);
	assert_string_equal(body, "");
	free(body);

	h.d.stopping = 1;
	assert_int_equal(healthz(&h, "GET", &body), 503);
	assert_string_equal(body, "{\"ok\":false,\"error\":\"stopping\"}");
	free(body);
	assert_int_equal(healthz(&h, "HEAD", &body), 503);
	assert_string_equal(body, "");
	free(body);
	h.d.stopping = 0;

	h.d.replaying = 1;
	assert_int_equal(healthz(&h, "GET", &body), 503);
	assert_non_null(strstr(body, "replaying the journal"));
	free(body);
	req = request("POST", "/webhook", "{}", &len, "Content-Type",
	    "application/json", "X-GitHub-Event", "push",
	    "X-GitHub-Delivery", "during-replay", NULL);
	reply = client_reply(&h, client_send(&h, req, len));
	assert_int_equal(reply_status(reply), 503);
	assert_non_null(strstr(reply, "replaying the journal"));
	free(reply);
	free(req);
	h.d.replaying = 0;

	/* failing, and the probe can't write either: 503 and the reason */
	h.d.journal_failing = 1;
	h.d.journal_errno = ENOSPC;
	dir = h.d.conf.state_dir;
	h.d.conf.state_dir = "/nonexistent/hookcast";
	assert_int_equal(healthz(&h, "GET", &body), 503);
	assert_non_null(strstr(body, "journal: No such file or directory"));
	free(body);
	assert_int_equal(h.d.journal_failing, 1);
	/* the directory writable again: the next second's probe ends it */
	h.d.conf.state_dir = dir;
	h.d.probed.tv_sec--;
	assert_int_equal(healthz(&h, "GET", &body), 200);
	free(body);
	assert_int_equal(h.d.journal_failing, 0);
	harness_stop(&h);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intake_outcomes),
		cmocka_unit_test(test_intake_duplicate),
		cmocka_unit_test(test_intake_duplicate_in_failed_batch),
		cmocka_unit_test(test_intake_too_large),
		cmocka_unit_test(test_compaction_keeps_unsynced_delivery),
		cmocka_unit_test(test_healthz),
	};

	log_set_level(LOG_LEVEL_ERR);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
