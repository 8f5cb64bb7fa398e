"""The control socket, hookcastctl, signals, start-up checks and
--check-config, against the real daemon."""

import json
import os
import re
import shutil
import signal
import socket
import stat
import subprocess
import sys
import time
import unittest
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hookcast_test as ht  # noqa: E402

REPO = "hookcast-test/gadget"


def fill(d, n=3, repo=REPO):
    """Push n commits to repo's main, one push each; the commit ids."""
    ids = []
    for i in range(n):
        c = ht.make_commit(
            message="gadget: speed up the sprocket cache %d\n\n"
                    "Makes lookups 1.%dx faster." % (i, i + 2), repo=repo)
        status, reply = d.post_payload(ht.make_push(commits=[c], repo=repo))
        if status != 200:
            raise AssertionError("push: %s %r" % (status, reply))
        ids.append(c["id"])
    return ids


def files_under(path):
    out = []
    for root, dirs, files in os.walk(path):
        out += [os.path.join(root, f) for f in files]
    return sorted(out)


class TestControl(unittest.TestCase):

    def test_status(self):
        with ht.Daemon() as d:
            reply = d.control("status")
            self.assertIs(reply.get("ok"), True, reply)
            self.assertIsInstance(reply.get("repos"), list, reply)
            deliv = reply.get("deliveries")
            self.assertIsInstance(deliv, dict, reply)
            for k in ("accepted", "duplicate", "ignored", "rejected"):
                self.assertIsInstance(deliv.get(k), int, reply)
            fill(d, 2)
            r = d.repo_stats(REPO)
            self.assertEqual(r.get("commits"), 2, r)
            self.assertEqual(r.get("pushes"), 2, r)
            self.assertEqual(r.get("authors"), 1, r)
            self.assertEqual(r.get("reverts"), 0, r)
            self.assertEqual(r.get("merged_prs"), 0, r)
            d.stop()

    def test_preview(self):
        with ht.Daemon() as d:
            fill(d, 3)
            reply = d.control("preview " + REPO)
            self.assertIs(reply.get("ok"), True, reply)
            eps = reply.get("episodes")
            self.assertIsInstance(eps, list, reply)
            self.assertEqual(len(eps), 1, reply)
            ep = eps[0]
            self.assertEqual(ep.get("repo"), REPO, ep)
            self.assertRegex(ep.get("date") or "", r"^\d{4}-\d\d-\d\d$", ep)
            self.assertIsInstance(ep.get("title"), str, ep)
            self.assertTrue(ep["title"].strip(), ep)
            self.assertIsInstance(ep.get("episode"), dict, ep)
            self.assertEqual(ep["episode"].get("title"), ep["title"], ep)
            self.assertEqual(ep["episode"].get("stats", {}).get("commits"),
                             3, ep["episode"].get("stats"))
            self.assertIsInstance(ep.get("markdown_text"), str, ep)
            self.assertTrue(ep["markdown_text"].startswith("# "),
                            ep["markdown_text"][:80])
            self.assertEqual(files_under(d.output_dir), [],
                             "preview wrote files")
            again = d.control("preview " + REPO)
            self.assertIs(again.get("ok"), True, again)
            self.assertEqual(again["episodes"][0].get("title"), ep["title"],
                             "a second preview gave another title")
            self.assertEqual(d.repo_stats(REPO).get("commits"), 3,
                             "preview reset the day")
            # Without an argument: every repository with activity.
            every = d.control("preview")
            self.assertIs(every.get("ok"), True, every)
            self.assertEqual([e.get("repo") for e in every["episodes"]],
                             [REPO], every)
            self.assertEqual(files_under(d.output_dir), [],
                             "preview wrote files")
            d.stop()

    def test_flush(self):
        with ht.Daemon() as d:
            fill(d, 2)
            reply = d.control("flush " + REPO)
            self.assertIs(reply.get("ok"), True, reply)
            eps = reply.get("episodes")
            self.assertIsInstance(eps, list, reply)
            self.assertEqual(len(eps), 1, reply)
            ep = eps[0]
            self.assertEqual(ep.get("repo"), REPO, ep)
            owner, name = REPO.split("/")
            for key, ext in (("markdown", ".md"), ("json", ".json")):
                self.assertTrue(os.path.isfile(ep.get(key) or ""), ep)
                self.assertEqual(
                    os.path.realpath(ep[key]),
                    os.path.realpath(os.path.join(
                        d.output_dir, owner, name, ep["date"] + ext)), ep)
            with open(ep["json"], encoding="utf-8") as f:
                episode = json.load(f)
            self.assertEqual(episode.get("stats", {}).get("commits"), 2)
            self.assertEqual(d.repo_stats(REPO).get("commits", 0), 0,
                             "flush did not start a new day")
            # Nothing new since: an error, not an empty episode.
            again = d.control("flush " + REPO)
            self.assertIs(again.get("ok"), False, again)
            self.assertTrue(str(again.get("error", "")).strip(), again)
            # Without an argument and no activity: ok, no episodes.
            every = d.control("flush")
            self.assertIs(every.get("ok"), True, every)
            self.assertEqual(every.get("episodes"), [], every)
            d.stop()

    def test_flush_without_activity(self):
        with ht.Daemon() as d:
            reply = d.control("flush nobody/nothing")
            self.assertIs(reply.get("ok"), False, reply)
            self.assertIsInstance(reply.get("error"), str, reply)
            self.assertTrue(reply["error"].strip(), reply)
            self.assertEqual(files_under(d.output_dir), [])
            d.stop()

    def test_unknown_command(self):
        with ht.Daemon() as d:
            reply = d.control("frobnicate now")
            self.assertIs(reply.get("ok"), False, reply)
            self.assertIsInstance(reply.get("error"), str, reply)
            self.assertIn("unknown command", reply["error"].lower(), reply)
            self.assertIs(d.control("status").get("ok"), True)
            d.stop()

    def test_reload(self):
        with ht.Daemon() as d:
            fill(d, 1)
            reply = d.control("reload")
            self.assertIs(reply.get("ok"), True, reply)
            self.assertEqual(d.repo_stats(REPO).get("commits"), 1,
                             "reload lost the day")
            fill(d, 1)
            self.assertEqual(d.repo_stats(REPO).get("commits"), 2)
            d.stop()

    def test_socket_mode(self):
        with ht.Daemon() as d:
            st = os.stat(d.socket_path)
            self.assertTrue(stat.S_ISSOCK(st.st_mode))
            self.assertEqual(stat.S_IMODE(st.st_mode), 0o660,
                             "control socket mode %o"
                             % stat.S_IMODE(st.st_mode))
            d.stop()


class TestCtl(unittest.TestCase):

    def test_ctl(self):
        with ht.Daemon() as d:
            fill(d, 2)
            rc, out, err = d.ctl("status")
            self.assertEqual(rc, 0, (out, err))
            self.assertTrue(out.strip(), "hookcastctl status printed"
                            " nothing")
            self.assertFalse(out.lstrip().startswith("{"),
                             "hookcastctl status printed JSON, not a"
                             " summary: %r" % out)
            self.assertIn(REPO, out)

            rc, out, err = d.ctl("--json", "status")
            self.assertEqual(rc, 0, (out, err))
            lines = out.strip().splitlines()
            self.assertEqual(len(lines), 1, out)
            raw = json.loads(lines[0])
            self.assertIs(raw.get("ok"), True, raw)
            self.assertIn(REPO, [r.get("repo") for r in raw["repos"]])

            rc, out, err = d.ctl("preview", REPO)
            self.assertEqual(rc, 0, (out, err))
            self.assertTrue(out.strip())

            rc, out, err = d.ctl("flush", "nobody/nothing")
            self.assertEqual(rc, 1, "ok:false reply: rc %s (%r %r)"
                             % (rc, out, err))
            self.assertTrue((out + err).strip(),
                            "no error printed for an ok:false reply")

            # a usage error, said by hookcastctl itself
            rc, out, err = d.ctl("frobnicate")
            self.assertEqual(rc, 2, (out, err))

            rc, out, err = d.ctl("flush", REPO)
            self.assertEqual(rc, 0, (out, err))
            self.assertEqual(d.repo_stats(REPO).get("commits", 0), 0)

            rc, out, err = d.ctl("status",
                                 socket_path=os.path.join(d.tmp, "nope.sock"))
            self.assertEqual(rc, 2, "no daemon: rc %s (%r %r)"
                             % (rc, out, err))
            self.assertIn("no control socket there", err)

            # help needs no daemon, and lists what the daemon's table has
            rc, out, err = d.ctl("--json", "help")
            self.assertEqual(rc, 0, (out, err))
            daemon_cmds = set(json.loads(out)["commands"])
            rc, out, err = d.ctl("help", socket_path="/nonexistent/sock")
            self.assertEqual(rc, 0, (out, err))
            listed = set(re.findall(r"^  ([a-z]+)\b", out, re.M))
            self.assertEqual(listed, daemon_cmds,
                             "hookcastctl help and the daemon's commands")
            d.stop()

        # a socket file nothing listens on: a daemon that is gone
        tmp = ht.make_tmpdir()
        try:
            path = os.path.join(tmp, "stale.sock")
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.bind(path)
            s.close()
            p = subprocess.run([ht.HOOKCASTCTL, "--socket", path, "status"],
                               capture_output=True, text=True, timeout=30)
            self.assertEqual(p.returncode, 2, p)
            self.assertIn("hookcastd is not running", p.stderr)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    def test_ctl_version(self):
        """hookcastctl, hookcastd and hookcast-draft --version name the
        same version (CMake's project(VERSION)), revision (the tree's, when
        built from git) and build date (UTC)."""
        draft = os.environ.get("HOOKCAST_DRAFT") or os.path.join(
            os.path.dirname(ht.HOOKCASTD), "hookcast-draft")
        with open(os.path.join(ht.SOURCE_DIR, "CMakeLists.txt")) as f:
            version = re.search(r"(?m)^project\(hookcast VERSION ([0-9.]+)",
                                f.read()).group(1)
        said = []
        for name, path in (("hookcastctl", ht.HOOKCASTCTL),
                           ("hookcastd", ht.HOOKCASTD),
                           ("hookcast-draft", draft)):
            p = subprocess.run([path, "--version"], capture_output=True,
                               text=True, timeout=30)
            self.assertEqual(p.returncode, 0, p)
            m = re.match(r"^%s (\S+) \(revision (\S+), built "
                         r"(\d{4}-\d\d-\d\d)\)\n$" % re.escape(name),
                         p.stdout)
            self.assertIsNotNone(m, "%s --version: %r" % (name, p.stdout))
            said.append(m.groups())
        self.assertEqual(len(set(said)), 1, said)
        got, revision, built = said[0]
        self.assertEqual(got, version)
        # the build's date, not some other day's (a build that outlived
        # a midnight may say the day before)
        age = time.time() - time.mktime(time.strptime(built + " UTC",
                                                      "%Y-%m-%d %Z"))
        if not os.environ.get("SOURCE_DATE_EPOCH"):
            self.assertLess(age, 60 * 86400, built)
        git = shutil.which("git")
        sha = subprocess.run([git, "-C", ht.SOURCE_DIR, "rev-parse",
                              "--short", "HEAD"], capture_output=True,
                             text=True, timeout=30).stdout.strip() \
            if git else ""
        if sha:
            # built from this tree (the revision of a rebuild's time: a
            # commit since the build would be another)
            self.assertRegex(revision, r"^[0-9a-f]{7,}(-dirty)?$")
        else:
            self.assertEqual(revision, "unknown")


class TestLifecycle(unittest.TestCase):

    def test_sigterm(self):
        with ht.Daemon() as d:
            fill(d, 1)
            self.assertEqual(d.stop(), 0)

    def test_sighup_reloads(self):
        with ht.Daemon() as d:
            fill(d, 1)
            mark = len(d.log())
            d.send_signal(signal.SIGHUP)
            d.wait_log(r"^<\d>.*\breloaded\b", start=mark)
            self.assertTrue(d.running(), "SIGHUP ended the daemon")
            fill(d, 1)
            self.assertEqual(d.repo_stats(REPO).get("commits"), 2)
            d.stop()

    def test_second_daemon_refused(self):
        with ht.Daemon() as first:
            other = os.path.join(first.tmp, "other")
            os.mkdir(other)
            p = ht.run_daemon([
                "--state-dir=" + os.path.join(other, "state"),
                "--output-dir=" + os.path.join(other, "episodes"),
                "--listen=127.0.0.1:0",
                "--control-socket=" + first.socket_path,
                "--secret-file=" + first.secret_path,
                "--timezone=UTC", "--emit-at=10:00", "--log-level=debug",
            ], cwd=other)
            self.assertNotEqual(p.returncode, 0,
                                "a second daemon started on a live socket;"
                                " stderr:\n" + p.stderr)
            self.assertIn("socket", p.stderr.lower(), p.stderr)
            # The first one is untouched.
            self.assertTrue(first.running())
            self.assertTrue(os.path.exists(first.socket_path))
            self.assertIs(first.control("status").get("ok"), True)
            fill(first, 1)
            first.stop()

    def test_stale_socket_replaced(self):
        with ht.Daemon() as first:
            fill(first, 1)
            first.kill()
            self.assertTrue(os.path.exists(first.socket_path),
                            "SIGKILL removed the socket file?")
            with ht.Daemon(tmp=first.tmp) as second:
                self.assertIs(second.control("status").get("ok"), True)
                fill(second, 1)
                second.stop()

    def test_crash_loses_nothing(self):
        """The journal: a SIGKILLed daemon's day comes back on restart, and
        its deliveries are still known (a redelivery is a duplicate)."""
        with ht.Daemon() as first:
            c = ht.make_commit(repo=REPO)
            body = ht.body_of(ht.make_push(commits=[c], repo=REPO))
            guid = str(uuid.uuid4())
            status, reply = first.post(body, "push", delivery=guid)
            self.assertEqual(status, 200, reply)
            fill(first, 1)
            first.kill()
            with ht.Daemon(tmp=first.tmp) as second:
                self.assertEqual(second.repo_stats(REPO).get("commits"), 2,
                                 "the day was lost with the SIGKILL")
                status, reply = second.post(body, "push", delivery=guid)
                self.assertEqual(status, 200, reply)
                self.assertIs(reply.get("duplicate"), True,
                              "redelivery after a restart: %r" % (reply,))
                self.assertEqual(second.repo_stats(REPO).get("commits"), 2)
                second.stop()

    def test_no_secret_refused(self):
        tmp = ht.make_tmpdir()
        try:
            p = ht.run_daemon([
                "--state-dir=" + os.path.join(tmp, "state"),
                "--output-dir=" + os.path.join(tmp, "episodes"),
                "--listen=127.0.0.1:0",
                "--control-socket=" + os.path.join(tmp, "control.sock"),
                "--timezone=UTC", "--log-level=debug",
            ], cwd=tmp)
            self.assertNotEqual(p.returncode, 0,
                                "started without a secret; stderr:\n"
                                + p.stderr)
            self.assertIn("secret", p.stderr.lower(), p.stderr)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    def test_insecure_no_signature(self):
        with ht.Daemon(extra_args=["--insecure-no-signature"],
                       options={"secret-file": None}, secret=None) as d:
            warnings = [l for l in d.log().splitlines()
                        if re.match(r"<[0-4]>", l)]
            self.assertTrue(
                any(re.search(r"signature|insecure|secret", l, re.I)
                    for l in warnings),
                "no warning about unsigned deliveries; log:\n" + d.log())
            status, reply = d.post_payload(ht.make_push(repo=REPO),
                                           sign=False)
            self.assertEqual(status, 200, reply)
            d.stop()


GOOD_CONFIG = """\
# hookcast test configuration
listen = 127.0.0.1:0
state_dir = {tmp}/state
output_dir = {tmp}/episodes
control_socket = {tmp}/control.sock
secret_file = {tmp}/secret
emit_at = 10:00
timezone = UTC
log_level = info

[repo "hookcast-test/gadget"]
show = Gadget Daily
branches = main, release
"""

BAD_CONFIG = """\
# hookcast test configuration
listen = 127.0.0.1:0
no_such_key = 1
timezone = UTC
emit_at = 25:99
state_dir = {tmp}/state
secret_file = {tmp}/secret
"""


class TestCheckConfig(unittest.TestCase):

    def setUp(self):
        self.tmp = ht.make_tmpdir()
        with open(os.path.join(self.tmp, "secret"), "w") as f:
            f.write(ht.DEFAULT_SECRET)
        os.chmod(os.path.join(self.tmp, "secret"), 0o600)

    def tearDown(self):
        import shutil
        shutil.rmtree(self.tmp, ignore_errors=True)

    def write(self, text):
        path = os.path.join(self.tmp, "hookcast.conf")
        with open(path, "w") as f:
            f.write(text.format(tmp=self.tmp))
        return path

    def test_good(self):
        path = self.write(GOOD_CONFIG)
        p = ht.run_daemon(["--config=" + path, "--check-config"],
                          cwd=self.tmp)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("configuration OK", p.stdout + p.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.tmp,
                                                     "control.sock")),
                         "--check-config started serving")

    def test_bad(self):
        path = self.write(BAD_CONFIG)
        p = ht.run_daemon(["--config=" + path, "--check-config"],
                          cwd=self.tmp)
        out = p.stdout + p.stderr
        self.assertEqual(p.returncode, 1, out)
        self.assertNotIn("configuration OK", out)
        base = re.escape(os.path.basename(path))
        self.assertRegex(out, base + r":3\b.*no_such_key",
                         "unknown key on line 3 not reported as"
                         " file:line:key")
        self.assertRegex(out, base + r":5\b.*emit_at",
                         "bad emit_at on line 5 not reported as"
                         " file:line:key")

    def test_errors_in_line_order(self):
        """Errors read top to bottom, whichever check found each (some
        when the line is read, some at the end), then those of no line."""
        path = self.write("listen = nohostport\n"
                          "timezone = Nowhere/Else\n"
                          "max_body = lots\n"
                          "public_url = ftp//bad\n")
        p = ht.run_daemon(["--config=" + path, "--check-config",
                           "--tls-cert=" + os.path.join(self.tmp, "no.pem")],
                          cwd=self.tmp)
        self.assertEqual(p.returncode, 1, p.stderr)
        lines = [l for l in p.stderr.splitlines() if l.strip()]
        base = os.path.basename(path)
        numbered = [int(re.search(re.escape(base) + r":(\d+):", l).group(1))
                    for l in lines if base + ":" in l]
        self.assertEqual(numbered, [1, 2, 3, 4], p.stderr)
        self.assertTrue(all(base + ":" in l for l in lines[:4]), p.stderr)
        # a missing certificate is named, not only "set both"
        self.assertRegex(p.stderr, r"tls_cert\)?: .*no\.pem: No such file")

    def test_secret_where_the_service_finds_it(self):
        """--check-config of an installed layout: the unit loads its
        webhook-secret credential from beside the config file, and the
        check reads it there (a missing one is still an error)."""
        etc = os.path.join(self.tmp, "etc")
        os.mkdir(etc)
        path = os.path.join(etc, "hookcast.conf")
        with open(path, "w") as f:
            f.write("listen = 127.0.0.1:9999\n")
        env = ht.daemon_env()
        env.pop("CREDENTIALS_DIRECTORY", None)
        env.pop("HOOKCAST_SECRET", None)
        p = ht.run_daemon(["--config=" + path, "--check-config"],
                          cwd=self.tmp, env=env)
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("no webhook secret", p.stderr)
        secret = os.path.join(etc, "webhook-secret")
        with open(secret, "w") as f:
            f.write(ht.DEFAULT_SECRET)
        os.chmod(secret, 0o600)
        p = ht.run_daemon(["--config=" + path, "--check-config"],
                          cwd=self.tmp, env=env)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("configuration OK", p.stdout)
        # and it is checked as any secret file is: no one else may write it
        os.chmod(secret, 0o666)
        p = ht.run_daemon(["--config=" + path, "--check-config"],
                          cwd=self.tmp, env=env)
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("webhook-secret", p.stderr)

    def test_print_config(self):
        """--print-config: every key in effect and where it came from."""
        path = self.write("# a comment\n"
                          "listen = 127.0.0.1:9999\n"
                          "secret_file = {tmp}/secret\n"
                          "timezone = Europe/Paris\n")
        p = ht.run_daemon(["--config=" + path, "--print-config",
                           "--log-level=debug"], cwd=self.tmp)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        got = {}
        for l in p.stdout.splitlines():
            m = re.match(r"^([a-z_]+) = (.*)\t# (.*)$", l)
            if m:
                got[m.group(1)] = (m.group(2), m.group(3))
        self.assertEqual(got["listen"], ("127.0.0.1:9999", path + ":2"))
        self.assertEqual(got["timezone"], ("Europe/Paris", path + ":4"))
        self.assertEqual(got["log_level"], ("debug", "--log-level"))
        self.assertEqual(got["emit_at"], ("10:00", "default"))
        self.assertIn("journal_fsync", got)
        self.assertNotIn(ht.DEFAULT_SECRET, p.stdout)
        self.assertIn("1 webhook secret(s) loaded", p.stdout)
        # with an error it prints the errors, not the settings
        p = ht.run_daemon(["--config=" + path, "--print-config",
                           "--timezone=Nowhere/Else"], cwd=self.tmp)
        self.assertEqual(p.returncode, 1)
        self.assertNotIn("listen = ", p.stdout)
        self.assertIn("Nowhere/Else", p.stderr)



def fill_many(d, repos=None, commits=None):
    """Open days in many repositories, so that a preview takes a while
    (under valgrind a much smaller day takes as long: the previews of the
    fairness tests, hundreds of them, took eight minutes there)."""
    small = bool(os.environ.get("HOOKCAST_UNDER_VALGRIND"))
    repos = repos or (4 if small else 20)
    commits = commits or (10 if small else 50)
    for r in range(repos):
        repo = "hookcast-test/r%d" % r
        cs = [ht.make_commit(message="r%d: change %d\n\nMore of it." % (r, i),
                             repo=repo) for i in range(commits)]
        status, reply = d.post_payload(ht.make_push(commits=cs, repo=repo))
        if status != 200:
            raise AssertionError("push: %s %r" % (status, reply))


def timed(f):
    t0 = time.monotonic()
    f()
    return time.monotonic() - t0


def read_lines(s, want, timeout=ht.IO_TIMEOUT):
    """Lines from a control socket until want of them, EOF or timeout."""
    s.settimeout(timeout)
    buf = b""
    try:
        while buf.count(b"\n") < want:
            chunk = s.recv(65536)
            if not chunk:
                break
            buf += chunk
    except (socket.timeout, ConnectionResetError):
        pass
    return [json.loads(l) for l in buf.split(b"\n") if l]


class TestControlFair(unittest.TestCase):
    """Control clients take turns with the webhooks and with each other:
    one command per client per loop turn, a bounded queue, and idle
    clients that never lock out the operator (#9, finding 8)."""

    def delivery_latency(self, d):
        push = ht.make_push(repo="hookcast-test/r0")
        result = {}

        def post():
            result["r"] = d.post_payload(push)
        took = timed(post)
        status, reply = result["r"]
        self.assertEqual(status, 200, reply)
        return took

    def test_many_previews_do_not_block_deliveries(self):
        """1,000 pipelined preview lines from one client: a webhook
        delivery still gets its answer within a second; the client is told
        its queue is too long."""
        with ht.Daemon(options={"log-level": "info"}) as d:
            fill_many(d)
            one = timed(lambda: d.control("preview"))
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(d.socket_path)
            s.sendall(b"preview\n" * 1000)
            time.sleep(0.1)
            took = self.delivery_latency(d)
            self.assertLess(took, max(1.0, 8 * one),
                            "a delivery waited %.2f s behind 1,000 previews "
                            "(one preview: %.3f s)" % (took, one))
            lines = read_lines(s, 1000)
            s.close()
            self.assertLess(len(lines), 1000, "every preview ran")
            self.assertIs(lines[-1].get("ok"), False, lines[-1])
            self.assertIn("too many commands", lines[-1].get("error", ""))
            self.assertIs(d.control("status").get("ok"), True)
            d.stop()

    def test_pipelined_previews_take_turns(self):
        """Commands pipelined under the queue bound all run, in order, one
        per loop turn: a delivery is answered between them, not after."""
        with ht.Daemon(options={"log-level": "info"}) as d:
            fill_many(d)
            one = timed(lambda: d.control("preview"))
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(d.socket_path)
            s.sendall(b"preview\n" * 40 + b"status\n")
            time.sleep(0.05)
            took = self.delivery_latency(d)
            lines = read_lines(s, 41)
            s.close()
            self.assertEqual(len(lines), 41)
            for i, l in enumerate(lines):
                self.assertIs(l.get("ok"), True, l)
                self.assertEqual("episodes" in l, i < 40, l)
            self.assertIn("deliveries", lines[-1])
            self.assertLess(took, max(0.5, 8 * one),
                            "a delivery waited %.2f s behind 40 previews "
                            "(one preview: %.3f s)" % (took, one))
            d.stop()

    def test_idle_clients_do_not_lock_out(self):
        """64 idle control clients: a 65th (the operator) is still
        answered; the oldest idle one is closed to make room."""
        with ht.Daemon() as d:
            idle = []
            try:
                for _ in range(64):
                    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                    s.connect(d.socket_path)
                    idle.append(s)
                time.sleep(0.2)
                reply = d.control("status")
                self.assertIs(reply.get("ok"), True, reply)
                idle[0].settimeout(5)
                try:
                    self.assertEqual(idle[0].recv(100), b"",
                                     "the oldest idle client is open")
                except ConnectionResetError:
                    pass
                d.wait_log(r"^<5>control: 64 clients; closing the one idle "
                           r"longest")
            finally:
                for s in idle:
                    s.close()
            d.stop()

    def test_idle_timeout(self):
        """A control client that says nothing is closed after
        control_idle_timeout."""
        with ht.Daemon(options={"control-idle-timeout": "1"}) as d:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(d.socket_path)
            s.settimeout(10)
            t0 = time.monotonic()
            try:
                self.assertEqual(s.recv(100), b"")
            except ConnectionResetError:
                pass
            took = time.monotonic() - t0
            s.close()
            self.assertLess(took, 5)
            self.assertGreater(took, 0.5)
            self.assertIs(d.control("status").get("ok"), True)
            d.stop()

    def test_long_line_refused(self):
        """A line past 4 KiB is refused and the client closed."""
        with ht.Daemon() as d:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(d.socket_path)
            s.sendall(b"status " + b"x" * 10000)
            lines = read_lines(s, 1, timeout=10)
            s.close()
            self.assertEqual(len(lines), 1, lines)
            self.assertIn("too long", lines[0].get("error", ""))
            d.stop()

    def test_control_bytes_refused(self):
        """A NUL or another control byte in a command is refused with a
        cause, and the command does not run: "flush \\0" flushed every
        repository, the line cut at the NUL (issue 25, item 14)."""
        with ht.Daemon() as d:
            fill(d, 2)
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(d.socket_path)
            try:
                lines = [b"flush \0", b"flush\0 " + REPO.encode(),
                         b"status\0", b"flush " + REPO.encode() + b"\x01",
                         b"flush\x1b " + REPO.encode()]
                s.sendall(b"".join(x + b"\n" for x in lines))
                replies = read_lines(s, len(lines), timeout=10)
            finally:
                s.close()
            self.assertEqual(len(replies), len(lines), replies)
            for line, reply in zip(lines, replies):
                self.assertIs(reply.get("ok"), False, (line, reply))
                self.assertIn("control character", reply.get("error", ""),
                              (line, reply))
            # nothing was flushed: the day still holds its commits
            self.assertEqual(files_under(d.output_dir), [])
            self.assertEqual(d.repo_stats(REPO).get("commits"), 2)
            self.assertIn("0x00", replies[0]["error"])
            d.stop()

if __name__ == "__main__":
    unittest.main(verbosity=2)
