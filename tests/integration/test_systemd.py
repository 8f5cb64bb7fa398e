"""hookcastd under systemd: the unit files as systemd-analyze sees them, the
sd_notify protocol through a test-owned NOTIFY_SOCKET (READY, STATUS,
RELOADING, STOPPING, WATCHDOG), and socket activation through
systemd-socket-activate, against the real daemon."""

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hookcast_test as ht  # noqa: E402

# The units as the build made them from systemd/hookcast.service.in, with
# its install prefix's paths (cmake/units.cmake)
UNIT_DIR = os.path.join(ht.BUILD_DIR, "systemd")
SERVICE = os.path.join(UNIT_DIR, "hookcast.service")
SOCKET = os.path.join(UNIT_DIR, "hookcast.socket")
SYSTEMD_ANALYZE = shutil.which("systemd-analyze")
SOCKET_ACTIVATE = shutil.which("systemd-socket-activate")
REPO = "hookcast-test/widget"
MAX_EXPOSURE = 1.5


def copy_units(tmp):
    """The units in tmp, ExecStart pointing at the binary under test."""
    hookcastd = os.path.abspath(ht.HOOKCASTD)
    for src in (SERVICE, SOCKET):
        with open(src) as f:
            text = f.read()
        text = re.sub(r"^ExecStart=\S*hookcastd\b",
                      "ExecStart=" + hookcastd, text, flags=re.MULTILINE)
        with open(os.path.join(tmp, os.path.basename(src)), "w") as f:
            f.write(text)
    return (os.path.join(tmp, "hookcast.service"),
            os.path.join(tmp, "hookcast.socket"))


def push_commits(d, n):
    for i in range(n):
        c = ht.make_commit(message="widget: oil gear %d\n\nSmoother." % i)
        status, reply = d.post_payload(ht.make_push(commits=[c]))
        if status != 200:
            raise AssertionError("push: %s %r" % (status, reply))


class NotifyListener:
    """An AF_UNIX datagram socket standing in for systemd's notify socket.

    Each datagram is kept as (monotonic time, {key: value}, raw text, the
    daemon's log at that moment)."""

    def __init__(self, tmp, log_path=None):
        self.path = os.path.join(tmp, "notify.sock")
        self.log_path = log_path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(self.path)
        self.sock.settimeout(0.1)
        self.messages = []
        self.lock = threading.Lock()
        self.done = False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _log(self):
        if self.log_path is None:
            return ""
        try:
            with open(self.log_path, "rb") as f:
                return f.read().decode("utf-8", "replace")
        except FileNotFoundError:
            return ""

    def _run(self):
        while not self.done:
            try:
                data = self.sock.recv(65536)
            except socket.timeout:
                continue
            except OSError:
                break
            now = time.monotonic()
            log = self._log()
            text = data.decode("utf-8", "replace")
            fields = {}
            for line in text.split("\n"):
                if "=" in line:
                    k, v = line.split("=", 1)
                    fields[k] = v
            with self.lock:
                self.messages.append((now, fields, text, log))

    def close(self):
        self.done = True
        self.thread.join(5)
        self.sock.close()

    def snapshot(self):
        with self.lock:
            return list(self.messages)

    def wait_for(self, pred, start=0, timeout=ht.START_TIMEOUT, what="?"):
        """Index of the first message at or after start matching pred."""
        deadline = time.monotonic() + timeout
        while True:
            msgs = self.snapshot()
            for i in range(start, len(msgs)):
                if pred(msgs[i][1]):
                    return i
            if time.monotonic() > deadline:
                raise AssertionError(
                    "no notification %s within %.0f s; got: %r"
                    % (what, timeout, [m[2] for m in msgs]))
            time.sleep(0.02)


def notify_daemon(tmp=None, extra_env=None, options=None):
    """A Daemon (not yet started) with NOTIFY_SOCKET set to a listener."""
    d = ht.Daemon(tmp=tmp, start=False, options=options)
    n = NotifyListener(d.tmp, d.stderr_path)
    env = {"NOTIFY_SOCKET": n.path}
    env.update(extra_env or {})
    d.env = ht.daemon_env(env)
    return d, n


class TestUnits(unittest.TestCase):

    def setUp(self):
        if SYSTEMD_ANALYZE is None:
            self.skipTest("systemd-analyze not installed (Debian package "
                          "systemd): the unit files are not checked")
        if not os.access(ht.HOOKCASTD, os.X_OK):
            self.fail("hookcastd not found at %s (set HOOKCASTD)"
                      % ht.HOOKCASTD)
        self.tmp = ht.make_tmpdir()
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.service, self.socket = copy_units(self.tmp)

    def test_verify(self):
        p = subprocess.run([SYSTEMD_ANALYZE, "verify", "--man=no",
                            self.socket, self.service],
                           capture_output=True, text=True, errors="replace",
                           timeout=120, cwd=self.tmp)
        out = p.stdout + p.stderr
        about = [l for l in out.splitlines() if "hookcast" in l]
        self.assertEqual(p.returncode, 0,
                         "systemd-analyze verify exited %d:\n%s"
                         % (p.returncode, out))
        self.assertEqual(about, [], "systemd-analyze verify complains:\n%s"
                         % out)

    def test_security_exposure(self):
        p = subprocess.run([SYSTEMD_ANALYZE, "security", "--offline=yes",
                            "--no-pager", self.service],
                           capture_output=True, text=True, errors="replace",
                           timeout=120, cwd=self.tmp)
        out = p.stdout + p.stderr
        m = re.search(r"Overall exposure level for hookcast\.service:\s*"
                      r"([0-9]+(?:\.[0-9]+)?)", out)
        self.assertIsNotNone(m, "no exposure level in the output "
                             "(exit %d):\n%s" % (p.returncode, out))
        level = float(m.group(1))
        weak = [l for l in out.splitlines() if l.startswith("\u2717")]
        self.assertLessEqual(level, MAX_EXPOSURE,
                             "exposure %.1f > %.1f; the settings that cost:"
                             "\n%s" % (level, MAX_EXPOSURE, "\n".join(weak)))

    def test_units_name_each_other(self):
        with open(SERVICE) as f:
            service = f.read()
        with open(SOCKET) as f:
            sock = f.read()
        self.assertRegex(service, r"(?m)^Type=notify(-reload)?$")
        self.assertRegex(service,
                         r"(?m)^ExecStart=/\S*/sbin/hookcastd "
                         r"--config=/\S+/hookcast\.conf$",
                         "the unit names the installed hookcastd")
        self.assertNotIn("@HOOKCAST_", service,
                         "a placeholder of hookcast.service.in left")
        self.assertRegex(service, r"(?m)^WatchdogSec=")
        self.assertRegex(sock, r"(?m)^ListenStream=/run/hookcast/"
                         r"control\.sock$",
                         "hookcastctl looks for /run/hookcast/control.sock")


class TestNotify(unittest.TestCase):

    def test_ready_after_replay_then_status(self):
        # a first run leaves two commits in the journal
        with ht.Daemon() as first:
            push_commits(first, 2)
            first.stop()
            d, n = notify_daemon(tmp=first.tmp)
            try:
                d.start()
                i = n.wait_for(lambda f: f.get("READY") == "1",
                               what="READY=1")
                at, _, _, log = n.snapshot()[i]
                self.assertRegex(log, r"journal: replayed [1-9]\d* record",
                                 "READY=1 before the journal was replayed;"
                                 " log then:\n" + log)
                self.assertIn("listening on", log,
                              "READY=1 before the port was bound; log "
                              "then:\n" + log)
                self.assertIn("control socket", log,
                              "READY=1 before the control socket was "
                              "bound; log then:\n" + log)
                # nothing claims readiness twice at start-up
                self.assertEqual(
                    [m[2] for m in n.snapshot()[:i]
                     if m[1].get("READY") == "1"], [])
                j = n.wait_for(lambda f: "STATUS" in f, what="STATUS=")
                status = n.snapshot()[j][1]["STATUS"]
                self.assertIn("commits", status)
                self.assertRegex(status, r"\b2 commits\b",
                                 "STATUS= should count the replayed day")
                self.assertRegex(status, r"next emission \d{4}-\d\d-\d\dT")
                d.stop()
            except BaseException:
                d.cleanup(failed=True)
                raise
            finally:
                n.close()

    def test_status_follows_deliveries(self):
        # STATUS= may be rate-limited, but the last count of a burst must
        # still be told (within a few seconds), or it stays stale until the
        # next delivery, which may be hours away
        d, n = notify_daemon()
        with d:
            try:
                d.start()
                r = n.wait_for(lambda f: "STATUS" in f, what="STATUS=")
                push_commits(d, 3)
                n.wait_for(lambda f: re.search(r"\b3 commits\b",
                                               f.get("STATUS", "")),
                           start=r + 1, timeout=5,
                           what="STATUS= with 3 commits after 3 deliveries")
                d.stop()
            finally:
                n.close()

    def test_status_after_flush(self):
        # a flush starts a new day: STATUS= then tells the new day's counts
        d, n = notify_daemon()
        with d:
            try:
                d.start()
                n.wait_for(lambda f: "STATUS" in f, what="STATUS=")
                push_commits(d, 2)
                time.sleep(1.1)
                before = len(n.snapshot())
                reply = d.control("flush")
                self.assertIs(reply.get("ok"), True, reply)
                n.wait_for(lambda f: "STATUS" in f, start=before,
                           what="STATUS= after the flush")
                n.wait_for(lambda f: re.search(r"\b0 commits\b",
                                               f.get("STATUS", "")),
                           start=before, timeout=5,
                           what="STATUS= with 0 commits after the flush")
                d.stop()
            finally:
                n.close()

    def test_reload_and_stop(self):
        d, n = notify_daemon()
        with d:
            try:
                d.start()
                r = n.wait_for(lambda f: f.get("READY") == "1",
                               what="READY=1")
                before = time.monotonic()
                d.send_signal(signal.SIGHUP)
                i = n.wait_for(lambda f: f.get("RELOADING") == "1",
                               start=r + 1, what="RELOADING=1")
                fields = n.snapshot()[i][1]
                self.assertRegex(fields.get("MONOTONIC_USEC", ""),
                                 r"^\d+$", "RELOADING=1 needs MONOTONIC_USEC="
                                 " in the same message: %r" % (fields,))
                usec = int(fields["MONOTONIC_USEC"])
                # CLOCK_MONOTONIC, the clock time.monotonic() reads
                self.assertLess(abs(usec / 1e6 - before), 10.0,
                                "MONOTONIC_USEC=%d is not CLOCK_MONOTONIC "
                                "(now %.3f s)" % (usec, before))
                n.wait_for(lambda f: f.get("READY") == "1", start=i + 1,
                           what="READY=1 after the reload")
                d.wait_log(r"reload")
                d.proc.send_signal(signal.SIGTERM)
                n.wait_for(lambda f: f.get("STOPPING") == "1",
                           start=i + 1, what="STOPPING=1")
                d.stop()
            finally:
                n.close()

    def test_watchdog(self):
        d, n = notify_daemon(extra_env={"WATCHDOG_USEC": "400000"})
        with d:
            try:
                d.start()
                r = n.wait_for(lambda f: f.get("READY") == "1",
                               what="READY=1")
                t0 = n.snapshot()[r][0]
                time.sleep(3.0)
                pings = [m[0] for m in n.snapshot()
                         if m[1].get("WATCHDOG") == "1" and
                         t0 <= m[0] <= t0 + 3.0]
                self.assertGreaterEqual(
                    len(pings), 5, "%d WATCHDOG=1 in 3 s with "
                    "WATCHDOG_USEC=400000 (want one per 0.2 s); log:\n%s"
                    % (len(pings), d.log_tail()))
                gaps = [b - a for a, b in zip(pings, pings[1:])]
                mean = sum(gaps) / len(gaps)
                self.assertTrue(0.1 <= mean <= 0.4,
                                "mean interval between WATCHDOG=1 is %.3f s"
                                " (want about 0.2 s): %r" % (mean, gaps))
                d.stop()
            finally:
                n.close()

    def test_no_notify_socket_no_noise(self):
        # without NOTIFY_SOCKET (and with WATCHDOG_USEC alone) the daemon
        # runs as usual: sd_notify is a no-op
        d = ht.Daemon(start=False)
        d.env = ht.daemon_env({"WATCHDOG_USEC": "400000"})
        with d:
            d.start()
            push_commits(d, 1)
            d.send_signal(signal.SIGHUP)
            d.wait_log(r"reload")
            d.stop()


class TestSocketActivation(unittest.TestCase):

    def setUp(self):
        if SOCKET_ACTIVATE is None:
            self.skipTest("systemd-socket-activate not installed (Debian "
                          "package systemd)")

    def activate(self, names):
        """A Daemon run by systemd-socket-activate on a TCP port and a Unix
        socket (in that order) named by --fdname=names. Returns it
        unstarted-by-helper but running; the caller cleans it up."""
        d = ht.Daemon(start=False, options={
            # where the daemon would bind if it ignored what it inherits
            "listen": "127.0.0.1:0",
            "control-socket": None,
        })
        port = ht.free_port()
        control = os.path.join(d.tmp, "control.sock")
        own = os.path.join(d.tmp, "own-control.sock")
        cmd = [SOCKET_ACTIVATE, "-l", "127.0.0.1:%d" % port, "-l", control,
               "--fdname=" + names, "-E", "TZ=UTC", "-E", "JOURNAL_STREAM",
               ht.HOOKCASTD]
        cmd += d.args + ["--control-socket=" + own]
        errf = open(d.stderr_path, "wb")
        try:
            d.proc = subprocess.Popen(cmd, cwd=d.tmp,
                                      env=ht.daemon_env({
                                          "JOURNAL_STREAM":
                                          ht.journal_stream(errf)}),
                                      stdin=subprocess.DEVNULL,
                                      stdout=subprocess.DEVNULL, stderr=errf)
        finally:
            errf.close()
        d.port = port
        d.socket_path = control
        d.own_socket = own
        # both sockets are bound before it waits for a connection
        deadline = time.monotonic() + ht.START_TIMEOUT
        while not os.path.exists(control):
            if d.proc.poll() is not None or time.monotonic() > deadline:
                d.cleanup(failed=True)
                self.fail("systemd-socket-activate did not listen: %s"
                          % d.log())
            time.sleep(0.05)
        return d

    def test_inherited_sockets(self):
        d = self.activate("http:control")
        with d:
            # the first connection starts hookcastd on the inherited fds
            push_commits(d, 1)
            d.wait_log(r"<5>ready")
            log = d.log()
            self.assertRegex(log, r"listening on inherited socket \d+")
            self.assertIn("control socket: inherited", log)
            self.assertNotRegex(log, r"listening on 127\.0\.0\.1:",
                                "it bound its own port as well")
            self.assertFalse(os.path.exists(d.own_socket),
                             "it bound its own control socket as well")
            st = d.status()
            self.assertEqual(st["deliveries"]["accepted"], 1, st)
            self.assertEqual(d.repo_stats(REPO)["commits"], 1, st)
            rc, out, err = d.ctl("status")
            self.assertEqual(rc, 0, err)
            self.assertIn(REPO, out)
            status, _, body = d.request("GET", "/healthz")
            self.assertEqual(status, 200, body)
            d.stop()
            # an inherited socket file belongs to the service manager
            self.assertTrue(os.path.exists(d.socket_path),
                            "hookcastd removed the inherited control socket")

    def test_listen_ignored_warned(self):
        """listen set besides inherited sockets: a warning says listen is
        ignored and which sockets serve."""
        d = self.activate("http:control")
        with d:
            push_commits(d, 1)
            d.wait_log(r"<5>ready")
            d.wait_log(r"^<4>listen is ignored: the sockets systemd passed "
                       r"\(socket activation\) are used: 127\.0\.0\.1:%d;"
                       % d.port)
            d.stop()

    def test_socket_unit_fd_names(self):
        """The fds as systemd would pass them for systemd/hookcast.socket.

        FileDescriptorName= names *every* fd of a socket unit (the last
        assignment wins; systemd.socket(5)), and systemd-socket-activate
        gives a single --fdname to every fd likewise. So whatever the unit
        says, the daemon must end up serving HTTP on the TCP socket and
        the control protocol on the Unix one."""
        listens, name = [], "hookcast.socket"
        with open(SOCKET) as f:
            for line in f:
                line = line.strip()
                if line.startswith("ListenStream="):
                    listens.append(line.split("=", 1)[1])
                elif line.startswith("FileDescriptorName="):
                    name = line.split("=", 1)[1] or "hookcast.socket"
        self.assertEqual([a.startswith("/") for a in listens],
                         [False, True],
                         "expected a TCP then a Unix ListenStream=: %r"
                         % listens)
        d = self.activate(name)
        with d:
            try:
                status, reply = d.post_payload(ht.make_push())
            except Exception as e:  # noqa: BLE001 (any failure is the finding)
                status, reply = None, e
            log = d.log()
            problem = ("with hookcast.socket as written, systemd names both"
                       " sockets %r (FileDescriptorName= applies to all the"
                       " fds of a unit); the daemon must tell the HTTP and"
                       " control sockets apart by address family, or the "
                       "unit must be split in two socket units. ") % name
            self.assertEqual(status, 200, problem + "POST on the TCP "
                             "socket gave %r %r; log:\n%s"
                             % (status, reply, log))
            try:
                st = d.control("status")
            except Exception as e:  # noqa: BLE001 (any failure is the finding)
                st = e
            self.assertTrue(isinstance(st, dict) and st.get("ok") is True,
                            problem + "status on the Unix socket gave %r; "
                            "log:\n%s" % (st, d.log()))
            d.stop()



def unit_settings(path):
    """{key: [values]} of a unit file's assignments."""
    out = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line and line[0] not in "#;[" and "=" in line:
                k, v = line.split("=", 1)
                out.setdefault(k, []).append(v)
    return out


def size_of(v):
    m = re.fullmatch(r"(\d+)([KMG]?)", v)
    if m is None:
        raise AssertionError("%r is not a size" % v)
    return int(m.group(1)) * {"": 1, "K": 1 << 10, "M": 1 << 20,
                              "G": 1 << 30}[m.group(2)]


class TestUnitLimits(unittest.TestCase):
    """Memory, task and file limits fitting the defaults, and the GitHub
    token as a credential (#9, finding 8)."""

    def test_limits(self):
        u = unit_settings(SERVICE)
        for k in ("MemoryMax", "TasksMax", "LimitNOFILE"):
            self.assertEqual(len(u.get(k, [])), 1, "%s= not set once" % k)
        mem = size_of(u["MemoryMax"][0])
        # the bodies buffered unauthenticated (64M), the heads (512 x
        # 64K) and one 25M delivery parsed must fit, with room
        self.assertGreaterEqual(mem, 64 * 2 ** 20 + 32 * 2 ** 20 +
                                4 * 25 * 2 ** 20)
        self.assertLessEqual(mem, 2 ** 30)
        tasks = int(u["TasksMax"][0])
        self.assertGreaterEqual(tasks, 4)
        self.assertLessEqual(tasks, 64)
        nofile = int(u["LimitNOFILE"][0].split(":")[0])
        self.assertGreaterEqual(nofile, 512 + 64 + 64 + 100,
                                "max_connections + control + metrics + "
                                "files and API sockets")

    def test_token_credential(self):
        u = unit_settings(SERVICE)
        self.assertIn("github-token:/etc/hookcast/github-token",
                      u.get("LoadCredential", []))
        # a missing token file must not stop the unit: SetCredential= is
        # LoadCredential='s fallback, and what it holds is no token
        fallback = [v for v in u.get("SetCredential", [])
                    if v.startswith("github-token:")]
        self.assertEqual(len(fallback), 1, u.get("SetCredential"))
        value = fallback[0].split(":", 1)[1]
        self.assertTrue(value.startswith("#"), value)

    def credentials(self, token):
        tmp = ht.make_tmpdir()
        self.addCleanup(shutil.rmtree, tmp, True)
        creds = os.path.join(tmp, "credentials")
        os.mkdir(creds, 0o700)
        path = os.path.join(creds, "github-token")
        with open(path, "w") as f:
            f.write(token + "\n")
        os.chmod(path, 0o400)
        return tmp, creds

    def test_daemon_reads_token_credential(self):
        """Without github_token_file, the token comes from
        $CREDENTIALS_DIRECTORY/github-token, and backfill uses it."""
        import test_backfill as tb
        token = "ghp_credential_" + "7" * 24
        tmp, creds = self.credentials(token)
        gh = tb.FakeGitHub(token)
        self.addCleanup(gh.close)
        d = ht.Daemon(tmp=tmp, options={
            "github-api-url": gh.url,
            "backfill-hooks": tb.REPO + ":" + tb.HOOK},
            env=ht.daemon_env({"CREDENTIALS_DIRECTORY": creds}))
        with d:
            d.wait_log(tb.SUMMARY_RE)
            self.assertEqual(gh.unauthorized, 0)
            self.assertEqual(len(gh.snapshot()[2]), 1)
            self.assertNotIn(token, d.log())
            d.stop()

    def test_token_credential_fallback(self):
        """The unit's fallback credential ("# none") is no token: fine
        without backfill_hooks, a clear error with them."""
        tmp, creds = self.credentials("# none")
        env = ht.daemon_env({"CREDENTIALS_DIRECTORY": creds})
        base = ["--insecure-no-signature", "--state-dir=" + tmp,
                "--check-config"]
        p = ht.run_daemon(base, cwd=tmp, env=env)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        p = ht.run_daemon(base + ["--backfill-hooks=o/r:1"], cwd=tmp,
                          env=env)
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertRegex(p.stderr,
                         r"backfill_hooks\)?: needs github_token_file")

if __name__ == "__main__":
    unittest.main(verbosity=2)
