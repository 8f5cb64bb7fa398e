"""Sinks: each emitted episode is delivered to the http, slack and exec
sinks configured for it, from an outbox that outlives a restart, with
retries, final refusals, Retry-After, and never a wait on intake."""

import hashlib
import hmac
import http.server
import json
import os
import shutil
import socket
import statistics
import sys
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hookcast_test as ht  # noqa: E402

REPO = "hookcast-test/widget"
WAIT = 30.0
SINK_SECRET = "sink-secret-0123456789abcdef0123"


def wait_for(what, cond, timeout=WAIT):
    deadline = time.monotonic() + timeout
    while True:
        v = cond()
        if v:
            return v
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for " + what)
        time.sleep(0.05)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Receiver:
    """An HTTP endpoint on 127.0.0.1 that records each POST and answers
    with the next of replies (the last one repeats): an int status, a
    (status, {headers}) pair, or "hang" (answer only at close)."""

    def __init__(self, replies=(200,), port=0):
        self.replies = list(replies)
        self.posts = []
        self.lock = threading.Lock()
        self.release = threading.Event()
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):
                pass

            def do_POST(self):
                n = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(n)
                with outer.lock:
                    outer.posts.append({"at": time.monotonic(),
                                        "path": self.path,
                                        "headers": dict(self.headers),
                                        "body": body})
                    i = len(outer.posts) - 1
                    reply = outer.replies[min(i, len(outer.replies) - 1)]
                if reply == "hang":
                    outer.release.wait(30)
                    reply = 200
                headers = {}
                if isinstance(reply, tuple):
                    reply, headers = reply
                self.send_response(reply)
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

        self.http = ht.LocalHTTP(Handler, port)
        self.port = self.http.port

    def url(self, path="/hook"):
        return self.http.url(path)

    def count(self):
        with self.lock:
            return len(self.posts)

    def close(self):
        self.release.set()
        self.http.close()


def write_config(tmp, sections, name="sinks.conf"):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(sections)
    return path


def secret_file(tmp):
    path = os.path.join(tmp, "sink-secret")
    with open(path, "w") as f:
        f.write(SINK_SECRET + "\n")
    os.chmod(path, 0o600)
    return path


def sink_status(d, name):
    for s in d.status().get("sinks", []):
        if s["name"] == name:
            return s
    raise AssertionError("no sink %s in status: %r" % (name, d.status()))


def push_and_flush(d, commits=1):
    payload = ht.make_push([ht.make_commit() for _ in range(commits)])
    status, data = d.post_payload(payload)
    if status != 202 and status != 200:
        raise AssertionError("push: %s %r" % (status, data))
    reply = d.control("flush " + REPO, timeout=60)
    if reply.get("ok") is not True or not reply.get("episodes"):
        raise AssertionError("flush: %r" % (reply,))
    return reply["episodes"][0]


def outbox_files(d, sink):
    path = os.path.join(d.state_dir, "outbox", sink)
    if not os.path.isdir(path):
        return []
    return sorted(n for n in os.listdir(path) if n.endswith(".json"))


RETRY = ["--sink-retry-min=1", "--sink-retry-max=1"]


class SinkTest(unittest.TestCase):

    def test_down_then_up_across_restart_exactly_once(self):
        tmp = ht.make_tmpdir()
        port = free_port()
        conf = write_config(tmp, '[sink "hub"]\ntype = http\nurl = '
                            'http://127.0.0.1:%d/hook\nsecret_file = %s\n'
                            % (port, secret_file(tmp)))
        args = ["--config=" + conf] + RETRY
        d = ht.Daemon(extra_args=args, tmp=tmp)
        recv = None
        try:
            ep = push_and_flush(d)
            d.wait_log(r"sink hub: .*; retry 2 in")
            st = sink_status(d, "hub")
            self.assertEqual(st["pending"], 1)
            self.assertEqual(st["delivered"], 0)
            self.assertIsNotNone(st["last_error"])
            files = outbox_files(d, "hub")
            self.assertEqual(len(files), 1, files)
            key = files[0][:-5]
            d.stop()
            # the publication is on disk, the daemon gone
            self.assertEqual(outbox_files(d, "hub"), files)
            recv = Receiver([200], port=port)
            d2 = ht.Daemon(extra_args=args, tmp=tmp)
            try:
                d2.wait_log(r"outbox: 1 publication\(s\) pending")
                wait_for("the delivery", lambda: sink_status(
                    d2, "hub")["delivered"] == 1)
                time.sleep(2.5)   # several retry intervals: nothing more
                self.assertEqual(recv.count(), 1)
                post = recv.posts[0]
                h = post["headers"]
                with open(ep["json"], "rb") as f:
                    self.assertEqual(post["body"], f.read())
                want = "sha256=" + hmac.new(SINK_SECRET.encode(),
                                            post["body"],
                                            hashlib.sha256).hexdigest()
                self.assertEqual(h.get("X-Hookcast-Signature-256"), want)
                self.assertEqual(h.get("Idempotency-Key"), key)
                self.assertEqual(h.get("X-Hookcast-Delivery"), key)
                self.assertEqual(h.get("Content-Type"), "application/json")
                self.assertEqual(outbox_files(d2, "hub"), [])
                st = sink_status(d2, "hub")
                self.assertEqual(st["pending"], 0)
                self.assertIsNotNone(st["last_success"])
                d2.stop()
            finally:
                d2.cleanup()
        finally:
            if recv:
                recv.close()
            d.cleanup()
            shutil.rmtree(tmp, ignore_errors=True)

    def test_signature_covers_timestamp_and_key(self):
        """X-Hookcast-Signature-V2 signs TIMESTAMP.KEY.BODY: a receiver
        that checks it, the timestamp's age and the keys it took refuses
        a replay; the body-only X-Hookcast-Signature-256 stays."""
        tmp = ht.make_tmpdir()
        recv = Receiver([500, 200])
        conf = write_config(tmp, '[sink "hub"]\ntype = http\nurl = %s\n'
                            'secret_file = %s\n' % (recv.url(),
                                                     secret_file(tmp)))
        d = ht.Daemon(extra_args=["--config=" + conf] + RETRY, tmp=tmp)

        def verify(h, body, now, window=300):
            """What hookcast.conf(5) tells a receiver to do."""
            ts = h.get("X-Hookcast-Timestamp", "")
            key = h.get("Idempotency-Key", "")
            if not ts.isdigit() or abs(now - int(ts)) > window:
                return False
            want = "sha256=" + hmac.new(
                SINK_SECRET.encode(), ts.encode() + b"." + key.encode() +
                b"." + body, hashlib.sha256).hexdigest()
            return hmac.compare_digest(
                h.get("X-Hookcast-Signature-V2", ""), want)

        try:
            t0 = int(time.time())
            push_and_flush(d)
            wait_for("500 then 200", lambda: sink_status(
                d, "hub")["delivered"] == 1)
            t1 = int(time.time()) + 1
            self.assertEqual(recv.count(), 2)
            first, second = recv.posts
            for post in recv.posts:
                h, body = post["headers"], post["body"]
                self.assertTrue(verify(h, body, int(time.time())), h)
                ts = int(h["X-Hookcast-Timestamp"])
                self.assertTrue(t0 <= ts <= t1, (t0, ts, t1))
                self.assertEqual(h["X-Hookcast-Signature-256"], "sha256=" +
                                 hmac.new(SINK_SECRET.encode(), body,
                                          hashlib.sha256).hexdigest())
            # each attempt its own time, one key
            self.assertEqual(first["headers"]["Idempotency-Key"],
                             second["headers"]["Idempotency-Key"])
            self.assertGreaterEqual(
                int(second["headers"]["X-Hookcast-Timestamp"]),
                int(first["headers"]["X-Hookcast-Timestamp"]))
            # a replay later, or under another key or time, is refused
            h = dict(first["headers"])
            self.assertFalse(verify(h, first["body"],
                                    int(h["X-Hookcast-Timestamp"]) + 301))
            h["Idempotency-Key"] = "0" * 32
            self.assertFalse(verify(h, first["body"], int(time.time())))
            h = dict(first["headers"])
            h["X-Hookcast-Timestamp"] = str(int(h["X-Hookcast-Timestamp"])
                                            + 1)
            self.assertFalse(verify(h, first["body"], int(time.time())))
            d.stop()
        finally:
            recv.close()
            d.cleanup()
            shutil.rmtree(tmp, ignore_errors=True)

    def test_episode_over_16_mib_goes_as_its_summary(self):
        """The drafter can write an episode's JSON larger than the 16 MiB
        a sink sends whole: the http and slack sinks get its summary and
        links (it was a final failure)."""
        tmp = ht.make_tmpdir()
        hub, chat = Receiver([200]), Receiver([200])
        conf = write_config(tmp, '[sink "hub"]\ntype = http\nurl = %s\n'
                            'secret_file = %s\n[sink "chat"]\ntype = slack'
                            '\nurl = %s\n' % (hub.url(), secret_file(tmp),
                                               chat.url("/services/x")))
        d = ht.Daemon(extra_args=["--config=" + conf,
                                  "--public-url=https://pods.example/eps/"]
                      + RETRY, tmp=tmp, start=False)
        try:
            folder = os.path.join(d.output_dir, REPO)
            os.makedirs(folder)
            stem = os.path.join(folder, "2026-11-30")
            title = "A Day of 26 Megabytes"
            with open(stem + ".json", "w") as f:
                json.dump({"title": title, "description": "Big.",
                           "transcript": "Gears turned. " * 1900000}, f)
            size = os.path.getsize(stem + ".json")
            self.assertGreater(size, 16 * 1024 * 1024)
            for ext in (".md", ".mp3"):
                with open(stem + ext, "w") as f:
                    f.write("x")
            # publications as outbox_episode writes them, read at start
            for sink, key in (("hub", "a" * 32), ("chat", "b" * 32)):
                os.makedirs(os.path.join(d.state_dir, "outbox", sink))
                with open(os.path.join(d.state_dir, "outbox", sink,
                                       key + ".json"), "w") as f:
                    json.dump({"version": 1, "sink": sink, "id": key,
                               "repository": REPO, "date": "2026-11-30",
                               "title": title, "markdown": stem + ".md",
                               "json": stem + ".json",
                               "created": int(time.time())}, f)
            d.start()
            for sink in ("hub", "chat"):
                wait_for(sink, lambda: sink_status(d, sink)["delivered"] == 1)
                self.assertEqual(sink_status(d, sink)["failed"], 0)
            base = "https://pods.example/eps/%s/2026-11-30" % REPO
            self.assertEqual(hub.count(), 1)
            body = hub.posts[0]["body"]
            self.assertLess(len(body), 4096)
            self.assertEqual(json.loads(body), {
                "summary": True, "repository": REPO, "date": "2026-11-30",
                "title": title, "bytes": size, "limit": 16 * 1024 * 1024,
                "links": {"json": base + ".json", "markdown": base + ".md",
                          "audio": base + ".mp3"}})
            self.assertEqual(hub.posts[0]["headers"]["Idempotency-Key"],
                             "a" * 32)
            msg = json.loads(chat.posts[0]["body"])
            blocks = msg["blocks"]
            self.assertEqual(blocks[0]["text"]["text"], title)
            self.assertEqual(blocks[1]["type"], "context")
            self.assertIn("too large", blocks[1]["elements"][0]["text"])
            self.assertEqual(blocks[-1]["text"]["text"],
                             "<%s.mp3|Listen to the episode>" % base)
            self.assertRegex(d.log(), r"sink hub: .*2026-11-30\.json is %d "
                             r"bytes, over 16777216: its summary is sent"
                             % size)
            d.stop()
        finally:
            hub.close()
            chat.close()
            d.cleanup()
            shutil.rmtree(tmp, ignore_errors=True)

    def test_reload_moves_and_removes_a_sink(self):
        tmp = ht.make_tmpdir()
        recv = Receiver([200])
        sec = secret_file(tmp)
        down = "http://127.0.0.1:%d/hook" % free_port()
        section = '[sink "hub"]\ntype = http\nurl = %s\nsecret_file = %s\n'
        conf = write_config(tmp, section % (down, sec))
        d = ht.Daemon(extra_args=["--config=" + conf] + RETRY, tmp=tmp)
        try:
            push_and_flush(d)
            d.wait_log(r"sink hub: .*; retry 1 in")
            # the section goes: its publication waits, on disk
            write_config(tmp, "")
            self.assertTrue(d.control("reload").get("ok"))
            d.wait_log(r"sink hub: not configured; .* waits in the outbox")
            time.sleep(2.5)
            self.assertEqual(len(outbox_files(d, "hub")), 1)
            self.assertEqual(sink_status(d, "hub")["type"], "unconfigured")
            # it comes back elsewhere: the next attempt goes there
            write_config(tmp, section % (recv.url(), sec))
            self.assertTrue(d.control("reload").get("ok"))
            wait_for("the delivery", lambda: sink_status(
                d, "hub")["delivered"] == 1)
            self.assertEqual(recv.count(), 1)
            self.assertEqual(outbox_files(d, "hub"), [])
            # a bad section is refused as a whole; the sink stays
            write_config(tmp, '[sink "hub"]\ntype = carrier-pigeon\n')
            reply = d.control("reload")
            self.assertFalse(reply.get("ok"))
            self.assertIn("unknown sink type", reply.get("error", ""))
            self.assertEqual(sink_status(d, "hub")["type"], "http")
            d.stop()
        finally:
            recv.close()
            d.cleanup()
            shutil.rmtree(tmp, ignore_errors=True)

    def test_retry_final_and_retry_after(self):
        tmp = ht.make_tmpdir()
        r500 = Receiver([500, 200])
        r400 = Receiver([400])
        r429 = Receiver([(429, {"Retry-After": "3"}), 200])
        sec = secret_file(tmp)
        conf = write_config(tmp, "".join(
            '[sink "%s"]\ntype = http\nurl = %s\nsecret_file = %s\n'
            % (n, r.url(), sec) for n, r in
            (("five", r500), ("four", r400), ("many", r429))))
        d = ht.Daemon(extra_args=["--config=" + conf] + RETRY, tmp=tmp)
        try:
            push_and_flush(d)
            wait_for("500 then 200", lambda: sink_status(
                d, "five")["delivered"] == 1)
            wait_for("429 then 200", lambda: sink_status(
                d, "many")["delivered"] == 1)
            wait_for("the 400 reported", lambda: sink_status(
                d, "four")["failed"] == 1)
            time.sleep(2.5)
            self.assertEqual(r500.count(), 2)
            self.assertEqual(r500.posts[0]["headers"]["Idempotency-Key"],
                             r500.posts[1]["headers"]["Idempotency-Key"])
            self.assertEqual(r400.count(), 1, "a 400 must not be retried")
            st = sink_status(d, "four")
            self.assertIn("HTTP 400", st["last_error"])
            self.assertEqual(st["pending"], 0)
            self.assertRegex(d.log(), r"sink four: .*HTTP 400.*not retried")
            self.assertEqual(r429.count(), 2)
            # backoff alone is at most 1 s here: the wait is Retry-After's
            self.assertGreaterEqual(r429.posts[1]["at"] - r429.posts[0]["at"],
                                    2.9)
            self.assertEqual(sink_status(d, "five")["retried"], 1)
            status, _, data = d.request("GET", "/metrics")
            text = data.decode()
            self.assertIn('hookcast_sink_delivered_total{sink="five"} 1',
                          text)
            self.assertIn('hookcast_sink_failed_total{sink="four"} 1', text)
            self.assertIn('hookcast_sink_retries_total{sink="five"} 1', text)
            self.assertIn('hookcast_sink_pending{sink="four"} 0', text)
            self.assertRegex(text, r'hookcast_sink_last_success_timestamp_'
                             r'seconds\{sink="many"\} [1-9]\d+')
            self.assertEqual(outbox_files(d, "five"), [])
            self.assertEqual(outbox_files(d, "four"), [])
            rc, out, _ = d.ctl("status")
            self.assertEqual(rc, 0)
            self.assertRegex(out, r"sink four \(http\): 0 pending, 0 "
                             r"delivered, 1 failed, 0 retried; last success "
                             r"never; last error: HTTP 400")
            self.assertRegex(out, r"sink five \(http\): 0 pending, 1 "
                             r"delivered, 0 failed, 1 retried; last success "
                             r"\d{4}-")
            d.stop()
        finally:
            for r in (r500, r400, r429):
                r.close()
            d.cleanup()
            shutil.rmtree(tmp, ignore_errors=True)

    def test_hanging_sink_does_not_delay_intake(self):
        tmp = ht.make_tmpdir()
        hang = Receiver(["hang"])
        conf = write_config(tmp, '[sink "slow"]\ntype = http\nurl = %s\n'
                            'secret_file = %s\n' % (hang.url(),
                                                    secret_file(tmp)))
        d = ht.Daemon(extra_args=["--config=" + conf, "--sink-timeout=60"],
                      tmp=tmp)

        def latencies(n=20):
            out = []
            for _ in range(n):
                body = ht.body_of(ht.make_push())
                t = time.monotonic()
                status, _ = d.post(body, "push")
                out.append(time.monotonic() - t)
                self.assertIn(status, (200, 202))
            return out

        try:
            before = latencies()
            push_and_flush(d)
            wait_for("the sink to hold a request", lambda: hang.count() == 1)
            t0 = time.monotonic()
            during = latencies()
            self.assertEqual(hang.count(), 1)
            self.assertFalse(hang.release.is_set())
            self.assertLess(time.monotonic() - t0, 10.0)
            self.assertLess(max(during), 2.0, during)
            self.assertLess(statistics.median(during),
                            statistics.median(before) * 10 + 0.05,
                            (before, during))
            # a stop does not wait for the sink either; the publication
            # stays for the next start
            t0 = time.monotonic()
            d.stop()
            self.assertLess(time.monotonic() - t0, 10.0)
            self.assertEqual(len(outbox_files(d, "slow")), 1)
        finally:
            hang.close()
            d.cleanup()
            shutil.rmtree(tmp, ignore_errors=True)

    def test_slack_message_of_a_2000_commit_day(self):
        tmp = ht.make_tmpdir()
        recv = Receiver([200])
        conf = write_config(tmp, '[sink "chat"]\ntype = slack\nurl = %s\n'
                            % recv.url("/services/T0/B0/x"))
        d = ht.Daemon(extra_args=["--config=" + conf,
                                  "--public-url=https://pods.example/eps/"],
                      tmp=tmp)
        try:
            for i in range(4):
                commits = [ht.make_commit(
                    message="gears: speed up <turn> & mesh step %d of %d "
                    "by %d%%\n\nThe gears turn %dx faster." % (i * 500 + j,
                                                              2000, j % 90,
                                                              j % 7 + 2))
                    for j in range(500)]
                status, data = d.post_payload(ht.make_push(commits))
                self.assertIn(status, (200, 202), data)
            reply = d.control("flush " + REPO, timeout=120)
            self.assertTrue(reply.get("ok"), reply)
            ep = reply["episodes"][0]
            wait_for("the Slack message", lambda: sink_status(
                d, "chat")["delivered"] == 1, timeout=60)
            self.assertEqual(recv.count(), 1)
            msg = json.loads(recv.posts[0]["body"])
            with open(os.path.join(tmp, "slack-payload.json"), "w") as f:
                json.dump(msg, f, indent=1)
            blocks = msg["blocks"]
            self.assertLessEqual(len(blocks), 50)
            self.assertTrue(msg["text"])
            self.assertLessEqual(len(msg["text"]), 3000)
            self.assertEqual(blocks[0]["type"], "header")
            self.assertLessEqual(len(blocks[0]["text"]["text"]), 150)
            total = 0
            for b in blocks:
                if b["type"] == "section":
                    t = b["text"]["text"]
                    self.assertLessEqual(len(t), 3000)
                    self.assertGreater(len(t.strip()), 0)
                    total += len(t)
                    if not t.startswith("<https://"):
                        self.assertNotIn("<", t)
                        self.assertNotIn(">", t)
            self.assertLessEqual(total, 16000)
            link = blocks[-1]["text"]["text"]
            stem = os.path.relpath(ep["json"], d.output_dir)[:-5]
            self.assertEqual(link, "<https://pods.example/eps/%s.md|Read "
                             "the episode>" % stem)
            with open(ep["json"]) as f:
                episode = json.load(f)
            self.assertEqual(blocks[0]["text"]["text"], episode["title"])
            d.stop()
        finally:
            recv.close()
            d.cleanup()
            shutil.rmtree(tmp, ignore_errors=True)

    def test_exec_sink_gets_paths_and_failure_is_retried(self):
        tmp = ht.make_tmpdir()
        calls = os.path.join(tmp, "calls")
        script = os.path.join(tmp, "deliver.sh")
        with open(script, "w") as f:
            f.write("#!/bin/sh\n"
                    "printf '%%s\\n' \"$HOOKCAST_DELIVERY $*\" >> %s\n"
                    "if [ ! -e %s.ok ]; then touch %s.ok; "
                    "echo 'the share is offline' >&2; exit 3; fi\n"
                    "echo filed\n" % (calls, calls, calls))
        os.chmod(script, 0o755)
        conf = write_config(tmp, '[sink "files"]\ntype = exec\n'
                            'command = %s --verbose\n' % script)
        d = ht.Daemon(extra_args=["--config=" + conf] + RETRY, tmp=tmp)
        try:
            ep = push_and_flush(d)
            wait_for("the second run", lambda: sink_status(
                d, "files")["delivered"] == 1)
            with open(calls) as f:
                lines = f.read().splitlines()
            self.assertEqual(len(lines), 2, lines)
            key, flag, md, js = lines[0].split(" ")
            self.assertEqual(lines[0], lines[1])
            self.assertEqual((flag, md, js), ("--verbose", ep["markdown"],
                                              ep["json"]))
            self.assertTrue(os.path.exists(md) and os.path.exists(js))
            log = d.log()
            self.assertRegex(log, r"sink files: .*exited with status 3: "
                             r"the share is offline.*retry 1 in")
            self.assertRegex(log, r"the command said: filed")
            st = sink_status(d, "files")
            self.assertEqual((st["type"], st["retried"], st["pending"]),
                             ("exec", 1, 0))
            self.assertEqual(outbox_files(d, "files"), [])
            self.assertEqual(len(key), 32)
            d.stop()
        finally:
            d.cleanup()
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
