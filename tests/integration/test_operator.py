"""What hookcastd tells the person running it (issue 15): one log line per
delivery at the default level, a refused one with its reason and what to
check; start-up lines naming the configuration, the directories and the
webhook URL; times and level names outside the journal; /healthz telling
the truth while replaying; the metrics an operator alerts on, each in the
man page; one daemon per state directory."""

import http.client
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import unittest
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hookcast_test as ht  # noqa: E402

REPO = "hookcast-test/widget"
MAN8 = os.path.join(ht.SOURCE_DIR, "doc", "hookcastd.8")
PLAIN_LINE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z "
                        r"(error|warning|notice|info|debug): \S")


def lines_with(log, text):
    return [ln for ln in log.splitlines() if text in ln]


class TestDeliveryLog(unittest.TestCase):
    """At the default level (info), every delivery leaves one line."""

    def test_accepted_and_refused(self):
        with ht.Daemon(options={"log-level": None}) as d:
            push = ht.make_push(repo=REPO)
            body = ht.body_of(push)
            g1 = str(uuid.uuid4())
            status, reply = d.post(body, "push", delivery=g1)
            self.assertEqual(status, 200, reply)
            g2 = str(uuid.uuid4())
            status, reply = d.post(ht.body_of({
                "zen": "Keep it logically awesome.", "hook_id": 4242,
                "repository": ht.make_repository(REPO)}), "ping",
                delivery=g2, hook_id="4242")
            self.assertEqual(status, 200, reply)
            g3 = str(uuid.uuid4())
            status, reply = d.post_payload(ht.make_push(
                repo=REPO, branch="feature/x"), delivery=g3)
            self.assertEqual(status, 202, reply)
            # a webhook saved in GitHub without its secret: no signature
            g4 = str(uuid.uuid4())
            status, reply = d.post(body, "push", delivery=g4, sign=False)
            self.assertEqual(status, 401, reply)
            # a wrong secret, a body that is no JSON, a form without its
            # field, a wrong content type, an oversized one, a wrong path
            g5 = str(uuid.uuid4())
            self.assertEqual(d.post(body, "push", delivery=g5,
                                    secret="not the secret at all")[0], 401)
            g6 = str(uuid.uuid4())
            self.assertEqual(d.post(b"{nope", "push", delivery=g6)[0], 400)
            g7 = str(uuid.uuid4())
            self.assertEqual(d.post(body, "push", delivery=g7,
                                    content_type="text/plain")[0], 415)
            g8 = str(uuid.uuid4())
            status, _, _ = d.request("POST", "/webhook", b"", {
                "X-GitHub-Event": "push", "X-GitHub-Delivery": g8,
                "Content-Type": "application/json",
                "Content-Length": str(100 * 1024 * 1024)})
            self.assertEqual(status, 413)
            self.assertEqual(d.request("GET", "/nowhere")[0], 404)

            log = d.wait_log(r"GET /nowhere: 404").string
            size = len(body)
            want = {
                g1: r"^<6>127\.0\.0\.1: delivery %s push hook 1 %s main: 200 accepted, "
                    r"1 commit kept, %d bytes, \d+\.\d ms$" % (g1, REPO, size),
                g2: r"^<6>127\.0\.0\.1: delivery %s ping hook 4242 %s: 200 accepted, "
                    r"0 commits kept, \d+ bytes, \d+\.\d ms$" % (g2, REPO),
                g3: r"^<6>127\.0\.0\.1: delivery %s push hook 1 %s feature/x: 202 "
                    r"ignored: branch feature/x is not tracked, \d+ bytes"
                    % (g3, REPO),
                g4: r"^<5>127\.0\.0\.1: delivery %s push hook 1: 401 refused: missing "
                    r"X-Hub-Signature-256 header \(the webhook was saved in "
                    r"GitHub without a secret, or something on the way "
                    r"dropped the header\), %d bytes, \d+\.\d ms$"
                    % (g4, size),
                g5: r"^<5>127\.0\.0\.1: delivery %s push hook 1: 401 refused: signature "
                    r"mismatch \(the webhook's secret in GitHub is "
                    r"none of those in secret_file\)" % g5,
                g6: r"^<5>127\.0\.0\.1: delivery %s push hook 1: 400 refused: invalid "
                    r"JSON" % g6,
                g7: r"^<5>127\.0\.0\.1: delivery %s push hook 1: 415 refused: "
                    r"Content-Type must be" % g7,
                g8: r"^<5>127\.0\.0\.1: delivery %s push: 413 refused: "
                    r"payload larger than the configured max_body "
                    r"\(26214400 bytes\), 104857600 bytes" % g8,
            }
            for guid, rx in want.items():
                found = lines_with(log, guid)
                self.assertEqual(len(found), 1, "one line for %s:\n%s"
                                 % (guid, log))
                self.assertRegex(found[0], rx)
            self.assertRegex(log, r"(?m)^<6>http: 127\.0\.0\.1: GET /nowhere: 404 refused: "
                             r"no such path$")
            d.stop()


    def test_http_refusals(self):
        """Requests refused before any delivery is made of them (no
        length, a body over the limit) each leave a line too."""
        with ht.Daemon(options={"log-level": None}) as d:
            for req in (b"POST /webhook HTTP/1.1\r\nHost: x\r\n\r\n",
                        b"GET /healthz HTTP/1.1\r\nHost: x\r\n"
                        b"Content-Length: 999999999\r\n\r\n"):
                s = socket.create_connection(("127.0.0.1", d.port))
                s.sendall(req)
                s.settimeout(10)
                self.assertTrue(s.recv(4096).startswith(b"HTTP/1.1 4"))
                s.close()
            d.wait_log(r"^<6>http: 127\.0\.0\.1:\d+: 411 Content-Length "
                       r"required$")
            d.wait_log(r"^<6>http: 127\.0\.0\.1:\d+: 413 request body "
                       r"too large: 999999999 bytes, the limit is 26214400$")
            d.stop()


class TestStartLog(unittest.TestCase):

    def test_names_config_dirs_and_urls(self):
        tmp = ht.make_tmpdir()
        self.addCleanup(shutil.rmtree, tmp, True)
        conf = os.path.join(tmp, "hookcast.conf")
        with open(conf, "w") as f:
            f.write("public_url = https://example.org/episodes\n")
        with ht.Daemon(tmp=tmp, extra_args=["--config=" + conf],
                       options={"log-level": None}) as d:
            log = d.log()
            self.assertRegex(log, r"(?m)^<6>configuration file %s$"
                             % re.escape(conf))
            self.assertRegex(log, r"(?m)^<6>state in %s, episodes in %s$"
                             % (re.escape(d.state_dir),
                                re.escape(d.output_dir)))
            self.assertRegex(log, r"(?m)^<5>webhook URL: "
                             r"http://127\.0\.0\.1:%d/webhook$" % d.port)
            self.assertRegex(log, r"(?m)^<6>feeds: https://example\.org/"
                             r"episodes/OWNER/REPO/feed\.xml$")
            d.stop()

    def test_plain_format_outside_the_journal(self):
        """No JOURNAL_STREAM: each line has its time and level's name."""
        with ht.Daemon(journal_stream=False,
                       options={"log-level": None}) as d:
            status, reply = d.post_payload(ht.make_push(repo=REPO))
            self.assertEqual(status, 200, reply)
            d.wait_log(r" info: 127\.0\.0\.1: delivery \S+ push hook 1 ")
            d.stop()
            lines = d.log().splitlines()
            self.assertTrue(lines)
            for ln in lines:
                self.assertRegex(ln, PLAIN_LINE)
            self.assertFalse([ln for ln in lines if ln.startswith("<")])
            self.assertTrue([ln for ln in lines
                             if re.search(r"Z notice: ready$", ln)])


class TestStateLock(unittest.TestCase):

    def test_second_daemon_refused(self):
        with ht.Daemon() as d:
            p = ht.run_daemon([
                "--state-dir=" + d.state_dir,
                "--output-dir=" + os.path.join(d.tmp, "other-episodes"),
                "--control-socket=" + os.path.join(d.tmp, "other.sock"),
                "--secret-file=" + d.secret_path,
                "--listen=127.0.0.1:0", "--timezone=UTC"])
            self.assertEqual(p.returncode, 1, p.stderr)
            self.assertRegex(p.stderr, r"error: state_dir %s is in use by "
                             r"another hookcastd \(pid %d, holding "
                             r"\S+hookcastd\.lock\); not starting"
                             % (re.escape(d.state_dir), d.proc.pid))
            self.assertNotIn("listening", p.stderr)
            # the first one carries on
            status, reply = d.post_payload(ht.make_push(repo=REPO))
            self.assertEqual(status, 200, reply)
            d.stop()
            # and once it is gone the state directory is free again
            with ht.Daemon(tmp=d.tmp) as d2:
                self.assertEqual(d2.repo_stats(REPO)["commits"], 1)
                d2.stop()


class TestNoDaemonLeft(unittest.TestCase):
    """A daemon started behind a wrapper that doesn't exec it (as the
    faketime wrapper was) is refused at start and killed: stopping the
    wrapper would have left hookcastd running after the suite."""

    def test_wrapper_must_exec(self):
        tmp = ht.make_tmpdir()
        self.addCleanup(shutil.rmtree, tmp, True)
        with self.assertRaisesRegex(AssertionError, r"is not hookcastd "
                                    r"\(pid \d+\): a wrapper must exec"):
            ht.Daemon(tmp=tmp, wrapper=["/bin/sh", "-c", '"$@"; exit $?',
                                        "sh"])
        self.assertIsNone(ht.lock_holder(os.path.join(tmp, "state")))


class TestStatusWords(unittest.TestCase):

    def test_one_of_each_is_singular(self):
        """hookcastctl status says "1 commit", not "1 commits"."""
        with ht.Daemon() as d:
            status, reply = d.post_payload(ht.make_push(repo=REPO))
            self.assertEqual(status, 200, reply)
            rc, out, err = d.ctl("status")
            self.assertEqual(rc, 0, err)
            self.assertRegex(out, r"(?m)^%s since \S+: 1 commit, 0 merged "
                             r"PRs, 0 reverts, 1 author, 1 push$" % REPO)
            d.stop()


def metric_families(text):
    return set(re.findall(r"(?m)^# TYPE (\S+) ", text))


class TestMetrics(unittest.TestCase):

    def scrape(self, d):
        status, hdrs, data = d.request("GET", "/metrics")
        self.assertEqual(status, 200)
        return data.decode()

    def check_format(self, text):
        """promtool's check when it is installed; else the exposition
        format's own rules, line by line."""
        promtool = shutil.which("promtool")
        if promtool:
            p = subprocess.run([promtool, "check", "metrics"], input=text,
                               capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            return
        typed = set()
        for ln in text.splitlines():
            m = re.match(r"^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) "
                         r"(counter|gauge|histogram)$", ln)
            if m:
                self.assertNotIn(m.group(1), typed, ln)
                typed.add(m.group(1))
                continue
            if ln.startswith("# HELP "):
                continue
            m = re.match(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[a-z_]+="[^"]*"'
                         r'(,[a-z_]+="[^"]*")*\})? -?[0-9.e+-]+$', ln)
            self.assertTrue(m, "not a sample: %r" % ln)
            base = re.sub(r"_(bucket|sum|count)$", "", m.group(1))
            self.assertTrue(m.group(1) in typed or base in typed, ln)

    def test_operator_metrics(self):
        with ht.Daemon() as d:
            status, reply = d.post_payload(ht.make_push(repo=REPO))
            self.assertEqual(status, 200, reply)
            before = time.time()
            reply = d.control("flush " + REPO)
            self.assertTrue(reply.get("ok"), reply)
            text = self.scrape(d)
            self.check_format(text)

            def value(rx):
                m = re.search(r"(?m)^%s (\S+)$" % rx, text)
                self.assertTrue(m, "no %s in:\n%s" % (rx, text))
                return float(m.group(1))

            # the labels say what hookcastd --version says
            v = subprocess.run([ht.HOOKCASTD, "--version"],
                               capture_output=True, text=True, timeout=30)
            m = re.match(r"^hookcastd (\S+) \(revision (\S+), built "
                         r"(\S+)\)$", v.stdout.strip())
            self.assertIsNotNone(m, v.stdout)
            self.assertEqual(value(r'hookcast_build_info\{version="%s",'
                                   r'revision="%s",build_date="%s"\}'
                                   % tuple(re.escape(g)
                                           for g in m.groups())), 1)
            self.assertGreater(value("hookcast_journal_bytes"), 0)
            when = value(r'hookcast_last_emission_timestamp_seconds'
                         r'\{repo="%s"\}' % REPO)
            self.assertLessEqual(abs(when - before), 60)
            self.assertGreater(value("process_resident_memory_bytes"),
                               1 << 20)
            self.assertGreater(value("process_open_fds"), 3)
            self.assertGreater(value("process_cpu_seconds_total"), 0)
            start = value("process_start_time_seconds")
            self.assertLessEqual(abs(start - before), 120)
            d.stop()
            # a restart keeps the time of the last episode (from its
            # file's time: the second it was written, not reported)
            with ht.Daemon(tmp=d.tmp) as d2:
                m = re.search(r'(?m)^hookcast_last_emission_timestamp_'
                              r'seconds\{repo="%s"\} (\d+)$' % REPO,
                              self.scrape(d2))
                self.assertTrue(m)
                self.assertLessEqual(abs(int(m.group(1)) - when), 2)
                d2.stop()

    def test_every_metric_in_the_man_page(self):
        """Each family a scrape shows, and each one the code can write
        (sinks, backfill), is described in hookcastd(8); and the page
        names no metric the daemon doesn't write."""
        with open(MAN8) as f:
            man = f.read().replace("\\-", "-")
        names = set()
        with ht.Daemon() as d:
            names |= metric_families(self.scrape(d))
            d.stop()
        for _, code in ht.c_sources():
            names |= set(re.findall(r'"(?:# TYPE )?((?:hookcast|process)_'
                                    r'[a-z_]+)[ "{]', code))
        self.assertIn("hookcast_sink_pending", names)
        self.assertIn("process_open_fds", names)
        missing = sorted(n for n in names
                         if not re.search(r"\b%s\b" % n, man))
        self.assertEqual(missing, [], "undocumented in hookcastd.8")
        documented = set(re.findall(r"\b((?:hookcast|process)_[a-z_]+)\b",
                                    man))
        self.assertIn("hookcast_build_info", documented)
        self.assertEqual(sorted(documented - names), [],
                         "hookcastd(8) names metrics the daemon doesn't "
                         "write")

    def test_every_command_in_the_man_pages(self):
        """Each control command the daemon's table has (its own help
        reply) is an entry of hookcastd(8) and of hookcastctl(1), and
        neither page has an entry the daemon doesn't know."""
        with ht.Daemon() as d:
            cmds = set(d.control("help")["commands"])
            d.stop()
        self.assertIn("recap", cmds)
        man1 = os.path.join(ht.SOURCE_DIR, "doc", "hookcastctl.1")
        for path in (MAN8, man1):
            with open(path) as f:
                text = f.read()
            # the COMMANDS (or CONTROL) section's entries: .TP then .B(R) cmd
            sect = re.search(r"^\.SH (?:COMMANDS|CONTROL[^\n]*)\n(.*?)^\.SH ",
                             text, re.M | re.S)
            self.assertIsNotNone(sect, "no command section in %s" % path)
            entries = set(re.findall(r"^\.TP\n\.BR? ([a-z]+)\b",
                                     sect.group(1), re.M))
            self.assertEqual(entries, cmds, path)


def get(port, path):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        conn.request("GET", path)
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


class TestHealthzReplay(unittest.TestCase):
    """While the journal is replayed at start the ports already answer:
    /healthz 503 saying so, then 200 once it is done."""

    def setUp(self):
        if os.environ.get("HOOKCAST_UNDER_VALGRIND"):
            self.skipTest("20,000 commits take minutes under valgrind")

    def test_503_while_replaying(self):
        tmp = ht.make_tmpdir()
        self.addCleanup(shutil.rmtree, tmp, True)
        # a journal of 20,000 commits: a replay of some 100 ms at least,
        # several turns of the loop (and light enough beside the timing
        # tests ctest runs at the same time)
        template = ht.make_commit(repo=REPO)
        with ht.Daemon(tmp=tmp, options={"journal-fsync": "none"}) as d:
            for r in range(1):
                repo = "%s%d" % (REPO, r)
                for i in range(10):
                    commits = []
                    for j in range(2000):
                        c = dict(template)
                        c["id"] = "%040x" % (r << 32 | i << 16 | j)
                        c["message"] = "widget: step %d.%d" % (i, j)
                        commits.append(c)
                    status, reply = d.post_payload(ht.make_push(
                        repo=repo, commits=commits))
                    self.assertEqual(status, 200, reply)
            d.stop()
        port, mport = ht.free_port(), ht.free_port()
        d = ht.Daemon(tmp=tmp, start=False, options={
            "listen": "127.0.0.1:%d" % port,
            "metrics-listen": "127.0.0.1:%d" % mport,
            "metrics-public": None})
        seen = []
        try:
            with open(d.stderr_path, "wb") as errf:
                d.proc = subprocess.Popen([ht.HOOKCASTD] + d.args, cwd=tmp,
                                          env=ht.daemon_env(),
                                          stdin=subprocess.DEVNULL,
                                          stdout=subprocess.DEVNULL,
                                          stderr=errf)
            deadline = time.monotonic() + ht.START_TIMEOUT
            while time.monotonic() < deadline:
                try:
                    status, body = get(mport, "/healthz")
                except OSError:
                    time.sleep(0.001)
                    continue
                seen.append((status, body))
                if status == 200:
                    break
            self.assertTrue(seen, "no answer; log:\n" + d.log())
            self.assertEqual(seen[-1][0], 200, seen[-5:])
            refusals = [b for s, b in seen if s == 503]
            self.assertTrue(refusals, "never saw the replay; log:\n"
                            + d.log())
            self.assertEqual(refusals[0], b'{"ok":false,"error":"starting: '
                             b'replaying the journal"}')
            d.wait_log(r"ready")
            d.stop()
        finally:
            d.cleanup()


if __name__ == "__main__":
    unittest.main(verbosity=2)
