"""Helpers for hookcast's integration tests: the real daemon over real sockets.

`Daemon` starts hookcastd in a private temporary directory (state, episodes,
control socket, secret file, captured stderr) on a kernel-chosen port, waits
until it logs that it is ready, and talks to it: signed webhook deliveries
over HTTP, commands over the control socket, and the hookcastctl client.

The binaries come from $HOOKCASTD and $HOOKCASTCTL (ctest sets them), else
from build/ in the source tree. Python 3.11 standard library only.
"""

import fcntl
import glob
import hashlib
import hmac
import http.client
import http.server
import itertools
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_DIR = os.environ.get("HOOKCAST_SOURCE_DIR") or os.path.normpath(
    os.path.join(HERE, "..", ".."))
TEST_DATA = os.environ.get("HOOKCAST_TEST_DATA") or os.path.join(
    SOURCE_DIR, "tests", "data")
CORPUS = os.path.join(TEST_DATA, "corpus")
HOOKCASTD = os.environ.get("HOOKCASTD") or os.path.join(
    SOURCE_DIR, "build", "hookcastd")
HOOKCASTCTL = os.environ.get("HOOKCASTCTL") or os.path.join(
    SOURCE_DIR, "build", "hookcastctl")
# What the build made beside the binaries (the units from cmake/units.cmake).
# $HOOKCASTD may be a wrapper elsewhere (scripts/valgrind-test's), so the
# build is where hookcastctl is unless HOOKCAST_BUILD_DIR says otherwise.
BUILD_DIR = os.environ.get("HOOKCAST_BUILD_DIR") or os.path.dirname(
    os.path.abspath(HOOKCASTCTL))

# What AddressSanitizer, LeakSanitizer and UBSan print when they find
# something in the daemon (its stderr is the log)
# (ASan's and LSan's name the process: "==PID==ERROR: ...")
SANITIZER_REPORT = re.compile(r"==(\d+)==ERROR: (?:Address|Leak)Sanitizer: "
                              r"[^\n]*|\S+:\d+:\d+: runtime error: [^\n]*")
# processes a test crashed on purpose (crashed_on_purpose): their
# sanitizer's report of the signal is no error of the daemon's
CRASHED_ON_PURPOSE = set()


def sanitizer_report(log):
    """The first sanitizer report in a daemon's log that is not of a
    process crashed on purpose, or None."""
    for m in SANITIZER_REPORT.finditer(log):
        if m.group(1) is None or int(m.group(1)) not in CRASHED_ON_PURPOSE:
            return m.group(0)
    return None

DEFAULT_SECRET = "It's a Secret to Everybody"
USER_AGENT = "GitHub-Hookshot/abc123"

# Generous: machines running the suite are shared and noisy.
START_TIMEOUT = 30.0
STOP_TIMEOUT = 20.0
IO_TIMEOUT = 30.0

# Environment that would change where the daemon finds its secret, state or
# sockets; the tests say all of that explicitly.
_SCRUBBED_ENV = ("HOOKCAST_SECRET", "CREDENTIALS_DIRECTORY", "STATE_DIRECTORY",
                 "RUNTIME_DIRECTORY", "NOTIFY_SOCKET", "LISTEN_FDS",
                 "LISTEN_PID", "LISTEN_FDNAMES", "WATCHDOG_USEC",
                 "WATCHDOG_PID")

_LISTENING_RE = re.compile(r"listening on 127\.0\.0\.1:(\d+)")
# "<5>ready" into the journal, "TIME notice: ready" elsewhere
_READY_RE = re.compile(r"^(?:<5>|\S+Z notice: )ready\b", re.MULTILINE)


def c_sources():
    """Every C source of the project's own layers and programs, as
    ("folder/name.c", text) in order: each top-level folder holding .c
    files, but the tests and build trees. A test that reads the sources
    finds a file whatever room of the tree it moves to."""
    out = []
    for folder in sorted(os.listdir(SOURCE_DIR)):
        path = os.path.join(SOURCE_DIR, folder)
        if (folder.startswith(".") or folder.startswith("build")
                or folder == "tests" or not os.path.isdir(path)):
            continue
        for name in sorted(os.listdir(path)):
            if name.endswith(".c"):
                with open(os.path.join(path, name)) as f:
                    out.append(("%s/%s" % (folder, name), f.read()))
    return out


def sign(secret, body):
    """X-Hub-Signature-256 value for body (bytes) under secret (str/bytes)."""
    if isinstance(secret, str):
        secret = secret.encode()
    return "sha256=" + hmac.new(secret, body, hashlib.sha256).hexdigest()


def emit_at():
    """10:00, unless a run starting now could reach 10:00 UTC: then 22:00,
    so a scheduled emission never resets a day in the middle of a test."""
    now = time.gmtime()
    minutes = (now.tm_hour * 60 + now.tm_min - 10 * 60) % (24 * 60)
    return "22:00" if minutes > 23 * 60 or minutes < 5 else "10:00"


def daemon_env(extra=None):
    """The environment for a daemon or client: ours minus hookcast's own."""
    env = {k: v for k, v in os.environ.items() if k not in _SCRUBBED_ENV}
    if extra:
        env.update(extra)
    return env


def faketime_env(when):
    """The environment that starts the daemon's clock at when (UTC) and
    lets it run on, through libfaketime preloaded (no wrapper process: the
    Daemon's process is hookcastd itself, so stopping it stops the
    daemon); None when libfaketime isn't installed."""
    lib = glob.glob("/usr/lib/*/faketime/libfaketime.so.1")
    if not lib:
        return None
    return daemon_env({
        "LD_PRELOAD": lib[0],
        "FAKETIME": "@" + when,
        "TZ": "UTC",
        # ASan wants to come first; libfaketime is preloaded before it
        "ASAN_OPTIONS": os.environ.get("ASAN_OPTIONS", "") +
        ":verify_asan_link_order=0"})


def journal_stream(f):
    """JOURNAL_STREAM naming the open file f as systemd names the journal's
    stream: the daemon then logs "<N>message" lines to it."""
    st = os.fstat(f.fileno())
    return "%d:%d" % (st.st_dev, st.st_ino)


def crashed_on_purpose(pid):
    """pid, a process of the daemon's that the test killed with a crash
    signal (SIGSEGV) wherever it was, has died. Under valgrind
    (scripts/valgrind-test) its leak check ran at that instant, with its
    other threads gone: what they alone pointed at is reported as lost
    though nothing leaked. Its log is set aside under another name, kept
    for reading but not counted as the daemon's errors. Under a
    sanitizer, its report of the signal is not counted either."""
    CRASHED_ON_PURPOSE.add(pid)
    logs = os.environ.get("HOOKCAST_VALGRIND_LOGS")
    if not logs:
        return
    path = os.path.join(logs, "hookcastd.%d.valgrind" % pid)
    if os.path.exists(path):
        os.rename(path, os.path.join(logs, "crashed.%d.valgrind" % pid))


def lock_holder(state_dir):
    """The pid in STATE/hookcastd.lock while a process holds its flock (-1
    when it can't be read), None when no process does."""
    try:
        fd = os.open(os.path.join(state_dir, "hookcastd.lock"), os.O_RDONLY)
    except FileNotFoundError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            try:
                return int(os.pread(fd, 32, 0).split()[0])
            except (ValueError, IndexError):
                return -1
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on just now."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
    finally:
        s.close()


def make_tmpdir():
    """A private directory whose paths fit in a sockaddr_un."""
    d = tempfile.mkdtemp(prefix="hookcast-")
    if len(d) > 60:
        d = tempfile.mkdtemp(prefix="hookcast-", dir="/tmp")
    return d


def run_daemon(args, timeout=STOP_TIMEOUT, cwd=None, env=None):
    """Run hookcastd to completion (for start-up failures, --check-config,
    --help). Returns the CompletedProcess; a daemon that is still running
    after timeout is killed and reported as an AssertionError."""
    try:
        return subprocess.run([HOOKCASTD] + list(args), cwd=cwd,
                              env=env if env is not None else daemon_env(),
                              stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, errors="replace", timeout=timeout)
    except subprocess.TimeoutExpired as e:
        raise AssertionError(
            "hookcastd %s still running after %.0f s; stderr:\n%s"
            % (" ".join(args), timeout, _text(e.stderr))) from None


def _text(b):
    if b is None:
        return ""
    if isinstance(b, bytes):
        return b.decode("utf-8", "replace")
    return b


# -- corpus ----------------------------------------------------------------

def corpus_days():
    """Names of the corpus day folders (all but octokit-examples)."""
    return sorted(d for d in os.listdir(CORPUS)
                  if os.path.isdir(os.path.join(CORPUS, d))
                  and d != "octokit-examples")


def corpus_deliveries(day_dir):
    """[(name, meta dict, body bytes)] of a corpus folder, in name order."""
    if not os.path.isabs(day_dir):
        day_dir = os.path.join(CORPUS, day_dir)
    out = []
    for name in sorted(os.listdir(day_dir)):
        if not re.fullmatch(r"\d+\.json", name):
            continue
        base = name[:-len(".json")]
        with open(os.path.join(day_dir, name), "rb") as f:
            body = f.read()
        with open(os.path.join(day_dir, base + ".meta.json"), "rb") as f:
            meta = json.load(f)
        out.append((base, meta, body))
    return out


# -- synthetic payloads ----------------------------------------------------

_counter = itertools.count(1)


def new_sha():
    """A fresh 40-hex commit id, unique within this process and run."""
    seed = "%s-%d-%d" % (uuid.uuid4(), os.getpid(), next(_counter))
    return hashlib.sha1(seed.encode()).hexdigest()


def make_commit(message=None, sha=None, name="Ada Lovelace",
                username="ada", email="ada@example.com",
                timestamp="2026-03-02T10:15:00Z", repo="hookcast-test/widget"):
    """One commit object as a push payload carries it."""
    sha = sha or new_sha()
    if message is None:
        message = "widget: make the gears turn %d%% smoother\n\n" \
                  "The gears now turn smoothly." % next(_counter)
    person = {"name": name, "email": email, "username": username}
    return {
        "id": sha, "tree_id": new_sha(), "distinct": True,
        "message": message, "timestamp": timestamp,
        "url": "https://github.com/%s/commit/%s" % (repo, sha),
        "author": person,
        "committer": {"name": "GitHub", "email": "noreply@github.com",
                      "username": "web-flow"},
        "added": [], "removed": [], "modified": ["src/gears.c"],
    }


def make_repository(repo="hookcast-test/widget", default_branch="main"):
    owner, name = repo.split("/", 1)
    return {
        "id": 4242, "node_id": "R_kgDOtest", "name": name,
        "full_name": repo, "private": False,
        "owner": {"name": owner, "login": owner, "id": 4243,
                  "type": "Organization"},
        "html_url": "https://github.com/" + repo,
        "url": "https://github.com/" + repo,
        "default_branch": default_branch, "master_branch": default_branch,
    }


def make_push(commits=None, repo="hookcast-test/widget", branch="main",
              default_branch="main", before=None, forced=False):
    """A push payload (dict) of commits to branch."""
    if commits is None:
        commits = [make_commit(repo=repo)]
    before = before or new_sha()
    after = commits[-1]["id"] if commits else new_sha()
    return {
        "ref": "refs/heads/" + branch, "before": before, "after": after,
        "repository": make_repository(repo, default_branch),
        "pusher": {"name": "ada", "email": "ada@example.com"},
        "sender": {"login": "ada", "id": 1, "type": "User"},
        "created": False, "deleted": False, "forced": forced,
        "base_ref": None,
        "compare": "https://github.com/%s/compare/%s...%s"
                   % (repo, before[:12], after[:12]),
        "commits": commits,
        "head_commit": commits[-1] if commits else None,
    }


def body_of(payload):
    """Compact JSON bytes, as GitHub sends them."""
    return json.dumps(payload, separators=(",", ":")).encode()


# -- a local HTTP server of the test's own ----------------------------------

class LocalHTTP:
    """An HTTP/1.1 server on 127.0.0.1 (a kernel-chosen port unless port is
    given) serving handler, a BaseHTTPRequestHandler subclass, each request
    in a thread of its own, until close(). A peer that hangs up mid-answer
    (a daemon stopped, a timed-out request) is expected, not reported."""

    def __init__(self, handler, port=0):
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", port),
                                                      handler)
        self.server.daemon_threads = True
        default_error = self.server.handle_error

        def handle_error(request, address):
            if not isinstance(sys.exc_info()[1], (BrokenPipeError,
                                                  ConnectionResetError)):
                default_error(request, address)
        self.server.handle_error = handle_error
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever,
                                       daemon=True)
        self.thread.start()

    def url(self, path=""):
        return "http://127.0.0.1:%d%s" % (self.port, path)

    def close(self):
        self.server.shutdown()
        self.server.server_close()


# -- the daemon ------------------------------------------------------------

class Daemon:
    """A running hookcastd in a private temporary directory.

    Use as a context manager. options overrides or removes (value None) the
    default --key=value flags, e.g. {"secret-file": None}; extra_args are
    appended. tmp shares a directory with another Daemon (e.g. to restart
    on the same state and socket); the creator removes it.
    """

    _seq = itertools.count(1)

    def __init__(self, extra_args=(), options=None, secret=DEFAULT_SECRET,
                 tmp=None, start=True, env=None, wrapper=(),
                 journal_stream=True):
        self.wrapper = list(wrapper)
        # as systemd runs it: stderr is the journal, lines are "<N>..."
        self.journal_stream = journal_stream
        self.owns_tmp = tmp is None
        self.tmp = tmp or make_tmpdir()
        self.secret = secret
        self.state_dir = os.path.join(self.tmp, "state")
        self.output_dir = os.path.join(self.tmp, "episodes")
        self.socket_path = os.path.join(self.tmp, "control.sock")
        self.secret_path = os.path.join(self.tmp, "secret")
        self.seq = next(Daemon._seq)
        self.stderr_path = os.path.join(self.tmp,
                                        "hookcastd-%d.stderr" % self.seq)
        self.stdout_path = os.path.join(self.tmp,
                                        "hookcastd-%d.stdout" % self.seq)
        self.env = env
        self.port = None
        self.proc = None
        if secret is not None and not os.path.exists(self.secret_path):
            with open(self.secret_path, "w") as f:
                f.write(secret)
            os.chmod(self.secret_path, 0o600)
        opts = {
            "state-dir": self.state_dir,
            "output-dir": self.output_dir,
            "listen": "127.0.0.1:0",
            "control-socket": self.socket_path,
            "secret-file": self.secret_path,
            "timezone": "UTC",
            "emit-at": emit_at(),
            "log-level": "debug",
            # the tests read /metrics on the webhook port; it is off there
            # by default (test_metrics_listener covers that)
            "metrics-public": "yes",
            # speaking episodes takes seconds: test_audio turns it on
            "audio": "off",
        }
        for k, v in (options or {}).items():
            if v is None:
                opts.pop(k, None)
            else:
                opts[k] = v
        if "control-socket" in opts:
            self.socket_path = opts["control-socket"]
        if "state-dir" in opts:
            self.state_dir = opts["state-dir"]
        if "output-dir" in opts:
            self.output_dir = opts["output-dir"]
        self.args = ["--%s=%s" % kv for kv in opts.items()] + list(extra_args)
        if start:
            try:
                self.start()
            except BaseException:
                self.cleanup(failed=True)
                raise

    # lifecycle

    def start(self):
        """Start the daemon and wait until it is listening and ready."""
        if not os.access(HOOKCASTD, os.X_OK):
            raise AssertionError("hookcastd not found at %s (set HOOKCASTD)"
                                 % HOOKCASTD)
        errf = open(self.stderr_path, "wb")
        outf = open(self.stdout_path, "wb")
        env = dict(self.env if self.env is not None else daemon_env())
        if self.journal_stream:
            env["JOURNAL_STREAM"] = journal_stream(errf)
        try:
            self.proc = subprocess.Popen(
                self.wrapper + [HOOKCASTD] + self.args, cwd=self.tmp,
                env=env, stdin=subprocess.DEVNULL, stdout=outf, stderr=errf)
        finally:
            errf.close()
            outf.close()
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            log = self.log()
            m = _LISTENING_RE.search(log)
            if m and _READY_RE.search(log):
                self.port = int(m.group(1))
                self._check_pid()
                return
            if self.proc.poll() is not None:
                raise AssertionError(
                    "hookcastd exited with %s before it was ready; args %s;"
                    " stderr:\n%s" % (self.proc.returncode,
                                      " ".join(self.args), log))
            if time.monotonic() > deadline:
                raise AssertionError(
                    "hookcastd not ready after %.0f s (need 'listening on"
                    " 127.0.0.1:PORT' and '<5>ready'); stderr:\n%s"
                    % (START_TIMEOUT, log))
            time.sleep(0.05)

    def _check_pid(self):
        """The process started must be hookcastd itself (the pid its lock
        names): every signal goes to it, and a wrapper that ran the daemon
        as a child instead of exec'ing it would be stopped in its place,
        leaving the daemon running after the test."""
        holder = lock_holder(self.state_dir)
        if holder is None or holder == self.proc.pid:
            return
        if holder > 0:
            os.kill(holder, signal.SIGKILL)
        self.proc.kill()
        self.proc.wait()
        raise AssertionError(
            "the process started (%d, %s) is not hookcastd (pid %d): a "
            "wrapper must exec the daemon, or stopping it would leave the "
            "daemon running" % (self.proc.pid, " ".join(self.wrapper),
                                holder))

    def _check_gone(self, failed=False):
        """Once the daemon has exited nothing may hold its state directory:
        a holder left is killed, and fails the test unless it failed
        already."""
        deadline = time.monotonic() + STOP_TIMEOUT
        holder = lock_holder(self.state_dir)
        while holder is not None and time.monotonic() < deadline:
            time.sleep(0.05)
            holder = lock_holder(self.state_dir)
        if holder is None:
            return
        try:
            os.kill(holder, signal.SIGKILL)
        except (ProcessLookupError, OverflowError, ValueError):
            pass
        if not failed:
            raise AssertionError("pid %d still holds %s after hookcastd "
                                 "exited; killed" % (holder, self.state_dir))

    def running(self):
        return self.proc is not None and self.proc.poll() is None

    def stop(self):
        """SIGTERM; the daemon must exit with status 0 within 20 s."""
        if self.proc is None:
            raise AssertionError("hookcastd was never started")
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            rc = self.proc.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise AssertionError("hookcastd did not exit within %.0f s of"
                                 " SIGTERM; stderr:\n%s"
                                 % (STOP_TIMEOUT, self.log_tail()))
        if rc != 0:
            raise AssertionError("hookcastd exited with %s after SIGTERM;"
                                 " stderr:\n%s" % (rc, self.log_tail()))
        self._check_gone()
        return rc

    def kill(self):
        """SIGKILL: leaves the socket file and state as a crash would."""
        if self.running():
            self.proc.kill()
        if self.proc is not None:
            self.proc.wait()

    def send_signal(self, signum):
        self.proc.send_signal(signum)

    def cleanup(self, failed=False):
        if self.running():
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc is not None:
            self._check_gone(failed)
        # a sanitizer's report at exit (a leak) fails the test, whether
        # it stopped the daemon or left that to the context's end
        report = sanitizer_report(self.log())
        if not failed and report is not None:
            raise AssertionError("hookcastd: a sanitizer report (%s); "
                                 "stderr:\n%s" % (report, self.log_tail()))
        if failed:
            sys.stderr.write("\n--- hookcastd stderr (%s) ---\n%s\n---\n"
                             % (self.stderr_path, self.log_tail()))
        if self.owns_tmp:
            if failed or os.environ.get("HOOKCAST_KEEP_TMP"):
                sys.stderr.write("kept %s\n" % self.tmp)
            else:
                shutil.rmtree(self.tmp, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        self.cleanup(failed=exc_type is not None)
        return False

    # logs

    def log(self):
        """The daemon's stderr so far."""
        try:
            with open(self.stderr_path, "rb") as f:
                return f.read().decode("utf-8", "replace")
        except FileNotFoundError:
            return ""

    def log_tail(self, n=60):
        return "\n".join(self.log().splitlines()[-n:])

    def wait_log(self, pattern, timeout=START_TIMEOUT, start=0):
        """Wait for a regex to match the log after offset start; the match."""
        rx = re.compile(pattern, re.MULTILINE | re.IGNORECASE)
        deadline = time.monotonic() + timeout
        while True:
            m = rx.search(self.log(), start)
            if m:
                return m
            if time.monotonic() > deadline:
                raise AssertionError("no log line matching %r within %.0f s;"
                                     " stderr:\n%s"
                                     % (pattern, timeout, self.log_tail()))
            time.sleep(0.05)

    # HTTP

    def connection(self):
        return http.client.HTTPConnection("127.0.0.1", self.port,
                                          timeout=IO_TIMEOUT)

    def request(self, method, path, body=None, headers=None):
        """A raw HTTP request: (status, headers dict lower-cased, body)."""
        conn = self.connection()
        try:
            conn.request(method, path, body=body, headers=headers or {})
            resp = conn.getresponse()
            data = resp.read()
            hdrs = {k.lower(): v for k, v in resp.getheaders()}
            return resp.status, hdrs, data
        finally:
            conn.close()

    def headers_for(self, body, event, delivery=None, hook_id="1",
                    secret=None, content_type="application/json",
                    extra_headers=None, sign_body=True):
        h = {
            "User-Agent": USER_AGENT,
            "Content-Type": content_type,
            "X-GitHub-Delivery": delivery or str(uuid.uuid4()),
            "X-GitHub-Hook-ID": str(hook_id),
            "X-GitHub-Hook-Installation-Target-Type": "repository",
            "X-GitHub-Hook-Installation-Target-ID": "4242",
        }
        if event is not None:
            h["X-GitHub-Event"] = event
        if content_type is None:
            del h["Content-Type"]
        if sign_body:
            h["X-Hub-Signature-256"] = sign(
                self.secret if secret is None else secret, body)
        for k, v in (extra_headers or {}).items():
            for old in [x for x in h if x.lower() == k.lower()]:
                del h[old]
            if v is not None:
                h[k] = v
        return h

    def post(self, body, event, delivery=None, hook_id="1", secret=None,
             content_type="application/json", extra_headers=None, sign=True,
             path="/webhook"):
        """POST a delivery with GitHub's headers, signed with secret (default
        the daemon's). extra_headers override or (value None) remove
        headers. Returns (status, parsed JSON reply)."""
        if isinstance(body, str):
            body = body.encode()
        h = self.headers_for(body, event, delivery, hook_id, secret,
                             content_type, extra_headers, sign)
        status, hdrs, data = self.request("POST", path, body, h)
        return status, parse_reply(status, data, "POST " + path)

    def post_payload(self, payload, event="push", **kw):
        return self.post(body_of(payload), event, **kw)

    def replay(self, day_dir, hook_id="1"):
        """Send a corpus folder in name order; every reply must be 2xx.
        Returns [(name, status, reply)]."""
        out = []
        for name, meta, body in corpus_deliveries(day_dir):
            status, reply = self.post(body, meta["event"],
                                      delivery=meta["delivery"],
                                      hook_id=hook_id)
            if not 200 <= status < 300:
                raise AssertionError("%s/%s (%s %s): got %s %r"
                                     % (day_dir, name, meta["event"],
                                        meta["delivery"], status, reply))
            out.append((name, status, reply))
        return out

    # control socket and client

    def control(self, line, timeout=IO_TIMEOUT):
        """Send one command line over the control socket; the parsed reply
        (within timeout seconds: a flush answers once its draft is done)."""
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(timeout)
        try:
            s.connect(self.socket_path)
            s.sendall(line.encode() + b"\n")
            buf = b""
            while b"\n" not in buf:
                chunk = s.recv(65536)
                if not chunk:
                    break
                buf += chunk
        finally:
            s.close()
        raw = buf.split(b"\n", 1)[0]
        try:
            return json.loads(raw)
        except ValueError:
            raise AssertionError("control %r: reply is not one JSON line: %r"
                                 % (line, buf[:2000])) from None

    def status(self):
        reply = self.control("status")
        if reply.get("ok") is not True:
            raise AssertionError("status failed: %r" % (reply,))
        return reply

    def repo_stats(self, repo):
        """The status entry of repo, or zeros when it has none."""
        for r in self.status().get("repos", []):
            if r.get("repo") == repo:
                return r
        return {"repo": repo, "commits": 0, "merged_prs": 0, "reverts": 0,
                "authors": 0, "pushes": 0}

    def deliveries(self):
        return self.status()["deliveries"]

    def ctl(self, *args, socket_path=None, timeout=IO_TIMEOUT):
        """Run hookcastctl --socket PATH ARGS...: (rc, stdout, stderr)."""
        cmd = [HOOKCASTCTL, "--socket", socket_path or self.socket_path]
        cmd += list(args)
        p = subprocess.run(cmd, env=daemon_env(), stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, errors="replace",
                           timeout=timeout)
        return p.returncode, p.stdout, p.stderr


def parse_reply(status, data, what="request"):
    try:
        return json.loads(data)
    except ValueError:
        raise AssertionError("%s: %s reply is not JSON: %r"
                             % (what, status, data[:2000])) from None
