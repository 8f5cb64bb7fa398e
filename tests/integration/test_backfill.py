"""Backfill against a fake GitHub REST API: after downtime or a detected gap
the daemon lists a hook's deliveries and asks for the redelivery of exactly
those that never reached it; API failures are logged and never stop it."""

import datetime
import http.client
import http.server
import json
import os
import re
import secrets
import shutil
import sys
import threading
import time
import unittest
import urllib.parse
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hookcast_test as ht  # noqa: E402

REPO = "hookcast-test/widget"
HOOK = "42"
WAIT = 30.0
SUMMARY_RE = (r"^<5>backfill hookcast-test/widget hook 42: (\d+) deliveries "
              r"listed, (\d+) redelivery requested(.*)$")
DELIVERIES_RE = re.compile(r"^/repos/([^/]+)/([^/]+)/hooks/(\d+)/deliveries$")
ATTEMPTS_RE = re.compile(
    r"^/repos/([^/]+)/([^/]+)/hooks/(\d+)/deliveries/(\d+)/attempts$")


def iso_ago(seconds):
    t = datetime.datetime.now(datetime.timezone.utc) - \
        datetime.timedelta(seconds=seconds)
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def wait_for(what, cond, timeout=WAIT):
    deadline = time.monotonic() + timeout
    while True:
        v = cond()
        if v:
            return v
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for " + what)
        time.sleep(0.05)


class FakeGitHub:
    """GitHub's two webhook-delivery endpoints on 127.0.0.1, in a thread.

    GET  /repos/O/R/hooks/H/deliveries: newest first, page_size a page,
         a Link rel="next" header with a cursor while more remain.
    POST /repos/O/R/hooks/H/deliveries/ID/attempts: 202, then (in another
         thread, as GitHub does) the stored body goes to the daemon, signed,
         with the same GUID and hook id; the attempt is listed like
         GitHub's own.
    mode: None, "500", "garbage", "hangup" (close without an answer) or
    "post500" (listing works, redelivery requests fail).
    """

    def __init__(self, token, secret=ht.DEFAULT_SECRET, page_size=3):
        self.token = token
        self.secret = secret
        self.page_size = page_size
        self.lock = threading.Lock()
        self.deliveries = []        # dicts: API fields + "_body", "_hook"
        self.next_id = 1000
        self.gets = []              # (path, query dict, headers dict)
        self.attempts = []          # delivery ids POSTed
        self.redelivered = []       # (guid, daemon status, reply)
        self.unauthorized = 0
        self.mode = None
        self.port_ready = threading.Event()
        self.daemon_port = None
        self.release = threading.Event()    # gates redeliveries
        self.release.set()
        self.list_gate = threading.Event()  # gates listings
        self.list_gate.set()
        self.threads = []
        fake = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def reply(self, status, obj=None, raw=None, headers=()):
                data = raw if raw is not None else json.dumps(obj).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in headers:
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

            def authorized(self):
                if self.headers.get("Authorization") == \
                        "Bearer " + fake.token:
                    return True
                with fake.lock:
                    fake.unauthorized += 1
                self.reply(401, {"message": "Bad credentials"})
                return False

            def do_GET(self):
                u = urllib.parse.urlsplit(self.path)
                m = DELIVERIES_RE.match(u.path)
                if not m:
                    return self.reply(404, {"message": "Not Found"})
                if not self.authorized():
                    return
                q = dict(urllib.parse.parse_qsl(u.query))
                with fake.lock:
                    fake.gets.append((u.path, q, dict(self.headers)))
                    mode = fake.mode
                fake.list_gate.wait(WAIT)
                if mode == "500":
                    return self.reply(500, {"message": "Server Error"})
                if mode == "garbage":
                    return self.reply(200, raw=b"<html>rate limited?</html>")
                if mode == "hangup":
                    self.close_connection = True
                    return
                hook = m.group(3)
                with fake.lock:
                    rows = [d for d in fake.deliveries if d["_hook"] == hook]
                rows.sort(key=lambda d: (d["delivered_at"], d["id"]),
                          reverse=True)
                start = int(q.get("cursor", "c0")[1:])
                page = rows[start:start + fake.page_size]
                headers = []
                if start + fake.page_size < len(rows):
                    nxt = "http://127.0.0.1:%d%s?per_page=%s&cursor=c%d" % (
                        fake.port, u.path, q.get("per_page", "30"),
                        start + fake.page_size)
                    headers.append(("Link", '<%s>; rel="next"' % nxt))
                out = [{k: v for k, v in d.items() if not k.startswith("_")}
                       for d in page]
                self.reply(200, out, headers=headers)

            def do_POST(self):
                u = urllib.parse.urlsplit(self.path)
                m = ATTEMPTS_RE.match(u.path)
                n = int(self.headers.get("Content-Length") or 0)
                if n:
                    self.rfile.read(n)
                if not m:
                    return self.reply(404, {"message": "Not Found"})
                if not self.authorized():
                    return
                did = int(m.group(4))
                with fake.lock:
                    mode = fake.mode
                    found = [d for d in fake.deliveries if d["id"] == did
                             and d["_hook"] == m.group(3)]
                    fake.attempts.append(did)
                if mode == "post500":
                    return self.reply(500, {"message": "Server Error"})
                if not found:
                    return self.reply(404, {"message": "Not Found"})
                self.reply(202, {})
                t = threading.Thread(target=fake.redeliver,
                                     args=(found[0],), daemon=True)
                with fake.lock:
                    fake.threads.append(t)
                t.start()

        self.http = ht.LocalHTTP(Handler)
        self.port = self.http.port
        self.url = self.http.url()

    def close(self):
        self.release.set()
        self.list_gate.set()
        self.http.close()

    def set_daemon(self, port):
        self.daemon_port = port
        self.port_ready.set()

    def add(self, payload, event="push", status_code=200, age=600,
            guid=None, redelivery=False, hook=HOOK):
        """List a delivery (a payload dict or bytes); returns its record."""
        body = payload if isinstance(payload, bytes) else ht.body_of(payload)
        with self.lock:
            self.next_id += 1
            d = {
                "id": self.next_id, "guid": guid or str(uuid.uuid4()),
                "delivered_at": iso_ago(age), "redelivery": redelivery,
                "duration": 0.5,
                "status": "OK" if 200 <= status_code < 300 else "failed",
                "status_code": status_code, "event": event,
                "action": None, "installation_id": None,
                "repository_id": 4242, "_body": body, "_hook": hook,
            }
            self.deliveries.append(d)
        return d

    def redeliver(self, d):
        """Send a stored delivery to the daemon, as GitHub would."""
        self.release.wait(WAIT)
        self.port_ready.wait(WAIT)
        body = d["_body"]
        conn = http.client.HTTPConnection("127.0.0.1", self.daemon_port,
                                          timeout=WAIT)
        try:
            conn.request("POST", "/webhook", body=body, headers={
                "User-Agent": ht.USER_AGENT,
                "Content-Type": "application/json",
                "X-GitHub-Event": d["event"],
                "X-GitHub-Delivery": d["guid"],
                "X-GitHub-Hook-ID": d["_hook"],
                "X-Hub-Signature-256": ht.sign(self.secret, body),
            })
            resp = conn.getresponse()
            status, data = resp.status, resp.read()
        except OSError as e:
            status, data = 0, str(e).encode()
        finally:
            conn.close()
        with self.lock:
            self.redelivered.append((d["guid"], status, data))
            self.next_id += 1
            again = dict(d, id=self.next_id, delivered_at=iso_ago(0),
                         redelivery=True, status_code=status)
            self.deliveries.append(again)

    def snapshot(self):
        with self.lock:
            return (list(self.attempts), list(self.redelivered),
                    list(self.gets))


class BackfillBase(unittest.TestCase):

    def setUp(self):
        self.tmp = ht.make_tmpdir()
        self.token = "ghp_" + secrets.token_hex(18)
        self.token_path = os.path.join(self.tmp, "github-token")
        with open(self.token_path, "w") as f:
            f.write(self.token + "\n")
        os.chmod(self.token_path, 0o600)
        self.gh = FakeGitHub(self.token)
        self.daemons = []
        self.failed = False

    def tearDown(self):
        try:
            for d in self.daemons:
                if d.running():
                    try:
                        d.stop()
                    except AssertionError:
                        self.failed = True
                        raise
                self.check_no_token(d)
        finally:
            self.finish()

    def finish(self):
        self.gh.close()
        failed = self.failed or not getattr(self._outcome, "success", True)
        for d in self.daemons:
            if failed:
                sys.stderr.write("\n--- hookcastd stderr (%s) ---\n%s\n"
                                 % (d.stderr_path, d.log_tail(40)))
        if failed or os.environ.get("HOOKCAST_KEEP_TMP"):
            sys.stderr.write("kept %s\n" % self.tmp)
        else:
            shutil.rmtree(self.tmp, ignore_errors=True)

    def daemon(self, backfill=True, hooks=REPO + ":" + HOOK, interval="0"):
        """A daemon following hooks; passes spaced interval seconds apart
        (0: a gap's pass starts at once, as the tests above want)."""
        opts = {}
        if backfill:
            opts = {"github-api-url": self.gh.url,
                    "github-token-file": self.token_path,
                    "backfill-hooks": hooks,
                    "backfill-interval": interval}
        self.gh.port_ready.clear()     # redeliveries wait for the port
        d = ht.Daemon(options=opts, tmp=self.tmp)
        self.daemons.append(d)
        self.gh.set_daemon(d.port)
        return d

    def check_no_token(self, d):
        self.assertNotIn(self.token, d.log(), "the token was logged")

    def summaries(self, d):
        return re.findall(SUMMARY_RE, d.log(), re.MULTILINE)

    def wait_summaries(self, d, n):
        wait_for("%d backfill pass(es); log:\n%s" % (n, d.log_tail(30)),
                 lambda: len(self.summaries(d)) >= n)
        return self.summaries(d)

    def metric(self, d, name):
        status, _, data = d.request("GET", "/metrics")
        self.assertEqual(status, 200)
        m = re.search(r"^%s (\d+)$" % re.escape(name), data.decode(),
                      re.MULTILINE)
        self.assertIsNotNone(m, "no %s in /metrics" % name)
        return int(m.group(1))

    def post(self, d, payload, guid=None, hook=HOOK, event="push"):
        status, reply = d.post_payload(payload, event=event,
                                       delivery=guid or str(uuid.uuid4()),
                                       hook_id=hook)
        self.assertIn(status, (200, 202), reply)
        return reply

    def commits(self, d):
        return d.repo_stats(REPO)["commits"]


class TestBackfill(BackfillBase):

    def test_a_downtime(self):
        """Deliveries that failed while the daemon was down come back, and
        only those: not the ones it has, not a 2xx, not older than three
        days, not events it doesn't keep; all pages are followed until the
        window ends."""
        d = self.daemon(backfill=False)
        have1 = ht.make_push(repo=REPO)
        have2 = ht.make_push(repo=REPO, before=have1["after"])
        g1 = self.post(d, have1)["delivery"]
        g2 = self.post(d, have2)["delivery"]
        untracked = ht.make_push(repo=REPO, branch="feature")
        reply = self.post(d, untracked)
        self.assertIs(reply.get("ignored"), True, reply)
        self.assertEqual(self.commits(d), 2)
        d.stop()

        gh = self.gh
        gh.add(have1, guid=g1, status_code=200, age=7200)
        gh.add(have2, guid=g2, status_code=200, age=5400)
        gh.add(untracked, guid=reply["delivery"], status_code=202, age=5000)
        f1 = ht.make_push(repo=REPO, before=have2["after"])
        f2 = ht.make_push(repo=REPO, before=f1["after"])
        f3 = ht.make_push(repo=REPO, before=f2["after"])
        r1 = gh.add(f1, status_code=502, age=3600)
        r2 = gh.add(f2, status_code=0, age=3000)
        r3 = gh.add(f3, status_code=502, age=2400)
        # a redelivery of f3 that failed too: the GUID is asked for once
        gh.add(f3, guid=r3["guid"], status_code=502, age=1800,
               redelivery=True)
        # an event hookcast doesn't keep
        gh.add(b'{"action":"opened"}', event="issues", status_code=502,
               age=1200)
        # too old to redeliver, and older still (never listed)
        old = gh.add(ht.make_push(repo=REPO), status_code=502,
                     age=4 * 86400)
        older = gh.add(ht.make_push(repo=REPO), status_code=502,
                       age=5 * 86400)
        self.assertEqual(len(gh.deliveries), 10)

        d2 = self.daemon()
        (listed, requested, tail), = self.wait_summaries(d2, 1)
        self.assertEqual(tail, "")
        self.assertEqual(requested, "3")
        wait_for("three redeliveries answered",
                 lambda: len(gh.snapshot()[1]) == 3)
        attempts, redelivered, gets = gh.snapshot()
        self.assertEqual(attempts, [r1["id"], r2["id"], r3["id"]],
                         "redelivery requested, oldest first")
        for guid, status, data in redelivered:
            self.assertEqual(status, 200, data)
        self.assertNotIn(old["id"], attempts)
        # pages: 3 a page over the 10, newest first; the page holding the
        # 4-day-old one ends the listing, so the 4th page is never asked for
        self.assertEqual([q.get("cursor") for _, q, _ in gets],
                         [None, "c3", "c6"])
        self.assertEqual(listed, "9")
        for path, q, h in gets:
            self.assertEqual(path, "/repos/hookcast-test/widget/hooks/42/"
                             "deliveries")
            self.assertEqual(q.get("per_page"), "100")
            self.assertEqual(h.get("Accept"), "application/vnd.github+json")
            self.assertEqual(h.get("X-GitHub-Api-Version"), "2022-11-28")
            self.assertTrue(h.get("User-Agent"))
        self.assertEqual(gh.unauthorized, 0)
        self.assertNotIn(older["id"], attempts)
        self.assertEqual(self.commits(d2), 5, d2.status())
        self.assertEqual(self.metric(d2, "hookcast_backfill_passes_total"),
                         1)
        self.assertEqual(self.metric(
            d2, "hookcast_backfill_redeliveries_total"), 3)
        self.assertEqual(self.metric(
            d2, "hookcast_backfill_api_failures_total"), 0)
        self.assertEqual(self.metric(
            d2, "hookcast_missed_deliveries_total"), 0)

    def test_b_gap(self):
        """A push that doesn't start at the branch's last head starts a
        pass, which brings the missed push back."""
        gh = self.gh
        d = self.daemon()
        self.wait_summaries(d, 1)
        a = ht.make_push(repo=REPO)
        gh.add(a, guid=self.post(d, a)["delivery"], status_code=200, age=60)
        b = ht.make_push(repo=REPO, before=a["after"])
        c = ht.make_push(repo=REPO, before=b["after"])
        rb = gh.add(b, status_code=502, age=30)
        gh.release.clear()      # hold the redelivery for a moment
        mark = len(d.log())
        gh.add(c, guid=self.post(d, c)["delivery"], status_code=200, age=0)
        d.wait_log(r"^<4>hookcast-test/widget: push to main starts at %s.*"
                   r"a delivery was missed" % c["before"][:12], start=mark)
        wait_for("the missed push requested",
                 lambda: gh.snapshot()[0] == [rb["id"]])
        self.assertEqual(self.metric(d, "hookcast_missed_deliveries_total"),
                         1)
        self.assertEqual(d.status().get("missed_deliveries"), 1)
        self.assertEqual(self.commits(d), 2)
        gh.release.set()
        wait_for("the missed push redelivered",
                 lambda: len(gh.snapshot()[1]) == 1)
        guid, status, data = gh.snapshot()[1][0]
        self.assertEqual((guid, status), (rb["guid"], 200), data)
        self.assertEqual(self.commits(d), 3)
        summaries = self.wait_summaries(d, 2)
        self.assertEqual(summaries[1][1], "1")
        self.assertEqual(self.metric(
            d, "hookcast_backfill_redeliveries_total"), 1)

    def test_b_gap_filled_is_not_a_gap(self):
        """The redelivered push that fills the gap starts at the old head:
        it is not a second gap and doesn't move the branch's head back."""
        gh = self.gh
        d = self.daemon()
        self.wait_summaries(d, 1)
        a = ht.make_push(repo=REPO)
        self.post(d, a)
        b = ht.make_push(repo=REPO, before=a["after"])
        c = ht.make_push(repo=REPO, before=b["after"])
        gh.add(b, status_code=502, age=30)
        self.post(d, c)
        wait_for("the missed push redelivered",
                 lambda: len(gh.snapshot()[1]) == 1)
        self.wait_summaries(d, 2)
        self.assertEqual(self.commits(d), 3)
        self.assertEqual(d.status().get("missed_deliveries"), 1)

    def test_b_requests_coalesce(self):
        """Gaps seen while a pass runs queue one more pass, not one each;
        and the daemon keeps serving while the API is slow."""
        gh = self.gh
        gh.list_gate.clear()    # the start-up pass hangs on the listing
        d = self.daemon()
        wait_for("the first listing", lambda: len(gh.snapshot()[2]) == 1)
        prev = ht.make_push(repo=REPO)
        self.post(d, prev)
        for _ in range(3):
            self.post(d, ht.make_push(repo=REPO))    # each one a gap
        self.assertEqual(d.status().get("missed_deliveries"), 3)
        self.assertEqual(self.commits(d), 4)
        gh.list_gate.set()
        self.wait_summaries(d, 2)
        time.sleep(1.5)
        self.assertEqual(len(self.summaries(d)), 2, d.log_tail(20))
        self.assertEqual(len(gh.snapshot()[2]), 2)
        self.assertEqual(self.metric(d, "hookcast_backfill_passes_total"),
                         2)

    def test_c_api_failures(self):
        """A 500, garbage, a hang-up, a failed redelivery request: each is
        logged with what went wrong and counted; deliveries go on."""
        gh = self.gh
        gh.mode = "500"
        d = self.daemon()
        d.wait_log(r"^<4>backfill hookcast-test/widget hook 42: GET "
                   r"deliveries: HTTP 500: Server Error$")
        (_, _, tail), = self.wait_summaries(d, 1)
        self.assertIn("API error", tail)
        head = ht.make_push(repo=REPO)
        self.post(d, head)
        self.assertEqual(self.commits(d), 1)

        steps = [("garbage", r"GET deliveries: bad JSON"),
                 ("hangup", r"GET deliveries: .*(empty|nothing|reply)"),
                 ("post500", r"POST attempts: HTTP 500")]
        gh.add(ht.make_push(repo=REPO), status_code=502, age=100)
        for n, (mode, pattern) in enumerate(steps, start=2):
            gh.mode = mode
            mark = len(d.log())
            self.post(d, ht.make_push(repo=REPO))     # a gap: a pass
            d.wait_log(r"^<4>backfill hookcast-test/widget hook 42: "
                       + pattern, start=mark)
            self.wait_summaries(d, n)
            self.assertTrue(d.running())
        self.assertEqual(self.commits(d), 4)
        self.assertEqual(self.metric(
            d, "hookcast_backfill_api_failures_total"), 4)
        self.assertEqual(self.metric(
            d, "hookcast_backfill_redeliveries_total"), 0)
        status, reply = d.post_payload(ht.make_push(repo=REPO),
                                       hook_id=HOOK)
        self.assertEqual(status, 200, reply)

    def test_d_already_have(self):
        """A delivery the daemon already has (same hook id and GUID) is never
        asked for, even when GitHub lists it as failed; the same GUID under
        another hook id is a different delivery."""
        gh = self.gh
        d = self.daemon()
        self.wait_summaries(d, 1)
        k = ht.make_push(repo=REPO)
        gk = self.post(d, k)["delivery"]
        # hook 7 is on another repository (so its redelivery is no gap here)
        other = ht.make_push(repo="hookcast-test/gadget")
        go = self.post(d, other, hook="7")["delivery"]
        d.stop()
        # GitHub gave up waiting on both and recorded failures
        rk = gh.add(k, guid=gk, status_code=0, age=300)
        ro = gh.add(other, guid=go, status_code=504, age=200)
        d2 = self.daemon()
        (listed, requested, _), = self.wait_summaries(d2, 1)
        self.assertEqual((listed, requested), ("2", "1"))
        wait_for("the redelivery", lambda: len(gh.snapshot()[1]) == 1)
        attempts, redelivered, _ = gh.snapshot()
        self.assertEqual(attempts, [ro["id"]])
        self.assertNotIn(rk["id"], attempts)
        guid, status, data = redelivered[0]
        self.assertEqual(status, 200, data)
        self.assertIs(json.loads(data).get("duplicate"), False)
        # a second pass (a reload doesn't start one; a gap does) asks for
        # neither: one is ours, the other was just asked for and came back
        self.post(d2, ht.make_push(repo=REPO))
        self.wait_summaries(d2, 2)
        self.assertEqual(gh.snapshot()[0], [ro["id"]])

    def test_e_reload(self):
        """A reload follows the hooks of the new configuration."""
        gh = self.gh
        conf = os.path.join(self.tmp, "hookcast.conf")

        def write(hook):
            with open(conf, "w") as f:
                f.write("github_api_url = %s\ngithub_token_file = %s\n"
                        "backfill_hooks = %s:%s\nbackfill_interval = 0\n"
                        % (gh.url, self.token_path, REPO, hook))

        write(HOOK)
        self.gh.port_ready.clear()
        d = ht.Daemon(extra_args=["--config=" + conf], tmp=self.tmp)
        self.daemons.append(d)
        gh.set_daemon(d.port)
        self.wait_summaries(d, 1)
        write("43")
        reply = d.control("reload")
        self.assertIs(reply.get("ok"), True, reply)
        d.wait_log(r"^<6>backfill: no longer following hookcast-test/widget "
                   r"hook 42$")
        d.wait_log(r"^<6>backfill: following hookcast-test/widget hook 43$")
        self.post(d, ht.make_push(repo=REPO))
        self.post(d, ht.make_push(repo=REPO))     # a gap: a pass over 43
        d.wait_log(r"^<5>backfill hookcast-test/widget hook 43: 0 deliveries "
                   r"listed, 0 redelivery requested$")
        self.assertEqual([p for p, _, _ in gh.snapshot()[2]], [
            "/repos/hookcast-test/widget/hooks/42/deliveries",
            "/repos/hookcast-test/widget/hooks/43/deliveries"])

    def test_f_stop_mid_pass(self):
        """SIGTERM while a listing hangs: the daemon exits at once, cleanly
        (tearDown's stop() wants status 0, which the sanitizers' leak check
        would change)."""
        gh = self.gh
        gh.list_gate.clear()
        d = self.daemon()
        wait_for("the first listing", lambda: len(gh.snapshot()[2]) == 1)
        t0 = time.monotonic()
        d.stop()
        self.assertLess(time.monotonic() - t0, 10)
        self.assertEqual(self.summaries(d), [])



class TestBackfillPacing(BackfillBase):
    """Gaps don't each cost an API pass (#9, finding 8): requests coalesce
    into one pass per backfill_interval, and failed passes back off."""

    def test_gaps_coalesce(self):
        """100 gaps, 20 ms apart: the start-up pass, then one more (or one
        per interval while they keep coming), not one each."""
        gh = self.gh
        interval = 5
        d = self.daemon(interval=str(interval))
        self.wait_summaries(d, 1)
        t0 = time.monotonic()
        for _ in range(100):
            self.post(d, ht.make_push(repo=REPO))     # each one a gap
            time.sleep(0.02)    # as pushes come: each after a pass ended
        elapsed = time.monotonic() - t0
        self.assertEqual(d.status().get("missed_deliveries"), 99)
        # the gaps' pass comes, later
        self.wait_summaries(d, 2)
        time.sleep(1.0)
        gets = len(gh.snapshot()[2])
        sys.stderr.write("\n100 gaps in %.2f s: %d API call(s), %d pass(es)"
                         "\n" % (elapsed, gets, len(self.summaries(d))))
        self.assertLessEqual(gets, 2 + int(elapsed / interval),
                             "100 gaps made %d listings" % gets)
        self.assertEqual(self.metric(d, "hookcast_backfill_passes_total"),
                         len(self.summaries(d)))
        d.wait_log(r"^<6>backfill hookcast-test/widget hook 42: next pass "
                   r"in \d+ s \(one every 5 s\)$")

    def test_failures_back_off(self):
        """Each failed pass doubles the spacing to the next."""
        gh = self.gh
        gh.mode = "500"
        d = self.daemon(interval="1")
        self.wait_summaries(d, 1)
        self.post(d, ht.make_push(repo=REPO))
        self.post(d, ht.make_push(repo=REPO))     # a gap
        d.wait_log(r"^<6>backfill hookcast-test/widget hook 42: next pass "
                   r"in \d+ s \(one every 2 s after failed passes\)$")
        self.wait_summaries(d, 2)
        self.post(d, ht.make_push(repo=REPO))     # a gap
        d.wait_log(r"^<6>backfill hookcast-test/widget hook 42: next pass "
                   r"in \d+ s \(one every 4 s after failed passes\)$")
        self.wait_summaries(d, 3)
        self.assertEqual(len(gh.snapshot()[2]), 3)
        self.assertEqual(self.metric(
            d, "hookcast_backfill_api_failures_total"), 3)


if __name__ == "__main__":
    unittest.main(verbosity=2)
