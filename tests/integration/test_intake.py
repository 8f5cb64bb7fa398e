"""Webhook intake over real HTTP: limits, signatures, decoding, dedup,
filtering, and that one bad or slow client never stops the next delivery."""

import http.client
import json
import os
import select
import socket
import sys
import time
import unittest
import urllib.parse
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hookcast_test as ht  # noqa: E402

REPO = "hookcast-test/widget"
OCTOKIT = os.path.join(ht.CORPUS, "octokit-examples")


def octokit(event):
    """The body of the first octokit example of an event."""
    for name, meta, body in ht.corpus_deliveries(OCTOKIT):
        if meta["event"] == event:
            return body
    raise LookupError(event)


class IntakeBase(unittest.TestCase):
    extra_args = ()

    @classmethod
    def setUpClass(cls):
        cls.d = ht.Daemon(extra_args=cls.extra_args)

    @classmethod
    def tearDownClass(cls):
        failed = False
        try:
            cls.d.stop()
        except AssertionError:
            failed = True
            raise
        finally:
            cls.d.cleanup(failed=failed)

    def run(self, result=None):
        # Show the daemon's log next to a failing test.
        n = len(result.failures) + len(result.errors) if result else 0
        out = super().run(result)
        if result and len(result.failures) + len(result.errors) > n:
            sys.stderr.write("\n--- hookcastd stderr, last lines ---\n%s\n"
                             % self.d.log_tail(30))
        return out

    def push(self, **kw):
        """A fresh push payload to REPO's main with one new commit."""
        kw.setdefault("repo", REPO)
        return ht.make_push(**kw)

    def assertError(self, status, reply, want, what):
        self.assertEqual(status, want, "%s: status %s, reply %r"
                         % (what, status, reply))
        self.assertIsInstance(reply, dict, what)
        self.assertIs(reply.get("ok"), False, "%s: %r" % (what, reply))
        err = reply.get("error")
        self.assertIsInstance(err, str, "%s: %r" % (what, reply))
        self.assertTrue(err.strip(), "%s: empty error" % what)
        return err

    def assertStillAccepts(self, what):
        """The next valid delivery is accepted and counted."""
        before = self.d.status()
        commits = self.repo_commits(before)
        status, reply = self.d.post_payload(self.push())
        self.assertEqual(status, 200, "valid push after %s: %r"
                         % (what, reply))
        self.assertIs(reply.get("ok"), True, reply)
        self.assertEqual(reply.get("commits"), 1, reply)
        after = self.d.status()
        self.assertEqual(after["deliveries"]["accepted"],
                         before["deliveries"]["accepted"] + 1,
                         "accepted count after %s: %r -> %r"
                         % (what, before["deliveries"], after["deliveries"]))
        self.assertEqual(self.repo_commits(after), commits + 1,
                         "commit count after %s" % what)

    @staticmethod
    def repo_commits(status, repo=REPO):
        for r in status.get("repos", []):
            if r.get("repo") == repo:
                return r.get("commits")
        return 0

    def rejected(self):
        return self.d.deliveries()["rejected"]

    def expect_rejected(self, want, what, **post):
        """POST something bad: its status, a JSON error, the rejected count
        goes up, and the daemon still accepts the next delivery."""
        before = self.rejected()
        status, reply = self.d.post(**post)
        err = self.assertError(status, reply, want, what)
        self.assertEqual(self.rejected(), before + 1,
                         "%s not counted as rejected" % what)
        self.assertStillAccepts(what)
        return err


class TestIntake(IntakeBase):

    # -- accepted ---------------------------------------------------------

    def test_valid_push(self):
        payload = self.push()
        delivery = str(uuid.uuid4())
        status, reply = self.d.post_payload(payload, delivery=delivery)
        self.assertEqual(status, 200, reply)
        self.assertIs(reply.get("ok"), True, reply)
        self.assertEqual(reply.get("event"), "push", reply)
        self.assertEqual(reply.get("delivery"), delivery, reply)
        self.assertEqual(reply.get("repository"), REPO, reply)
        self.assertEqual(reply.get("commits"), 1, reply)
        self.assertIs(reply.get("duplicate"), False, reply)

    def test_ping(self):
        status, reply = self.d.post(octokit("ping"), "ping")
        self.assertEqual(status, 200, reply)
        self.assertIs(reply.get("ok"), True, reply)
        self.assertEqual(reply.get("event"), "ping", reply)
        self.assertStillAccepts("a ping")

    def test_form_encoded_push(self):
        before = self.repo_commits(self.d.status())
        form = "payload=" + urllib.parse.quote_plus(
            json.dumps(self.push(), separators=(",", ":")))
        status, reply = self.d.post(
            form.encode(), "push",
            content_type="application/x-www-form-urlencoded")
        self.assertEqual(status, 200, "form-encoded push: %r" % (reply,))
        self.assertIs(reply.get("ok"), True, reply)
        self.assertEqual(reply.get("commits"), 1, reply)
        self.assertEqual(self.repo_commits(self.d.status()), before + 1)

    def test_ignored_event(self):
        before = self.d.deliveries()
        body = json.dumps({"action": "opened", "issue": {"number": 1},
                           "repository": ht.make_repository(REPO)}).encode()
        status, reply = self.d.post(body, "issues")
        self.assertEqual(status, 202, reply)
        self.assertIs(reply.get("ok"), True, reply)
        self.assertIs(reply.get("ignored"), True, reply)
        after = self.d.deliveries()
        self.assertEqual(after["ignored"], before["ignored"] + 1,
                         "issues delivery not counted as ignored: %r -> %r"
                         % (before, after))
        self.assertStillAccepts("an ignored event")

    def test_untracked_branch(self):
        before = self.d.status()
        status, reply = self.d.post_payload(self.push(branch="feature/x"))
        self.assertEqual(status, 202, "push to an untracked branch: %r"
                         % (reply,))
        self.assertIs(reply.get("ok"), True, reply)
        self.assertIs(reply.get("ignored"), True, reply)
        after = self.d.status()
        self.assertEqual(after["deliveries"]["ignored"],
                         before["deliveries"]["ignored"] + 1)
        self.assertEqual(self.repo_commits(after), self.repo_commits(before))

    def test_duplicate_delivery(self):
        body = ht.body_of(self.push())
        delivery = str(uuid.uuid4())
        status, reply = self.d.post(body, "push", delivery=delivery,
                                    hook_id="77")
        self.assertEqual(status, 200, reply)
        self.assertIs(reply.get("duplicate"), False, reply)
        before = self.d.status()
        status, reply = self.d.post(body, "push", delivery=delivery,
                                    hook_id="77")
        self.assertEqual(status, 200, "redelivery: %r" % (reply,))
        self.assertIs(reply.get("ok"), True, reply)
        self.assertIs(reply.get("duplicate"), True, reply)
        after = self.d.status()
        self.assertEqual(self.repo_commits(after), self.repo_commits(before),
                         "a redelivery was counted twice")
        self.assertEqual(after["deliveries"]["accepted"],
                         before["deliveries"]["accepted"])
        self.assertEqual(after["deliveries"]["duplicate"],
                         before["deliveries"]["duplicate"] + 1)

    def test_same_guid_other_hook_is_not_duplicate(self):
        delivery = str(uuid.uuid4())
        first = self.push()
        status, reply = self.d.post_payload(first, delivery=delivery,
                                            hook_id="101")
        self.assertEqual(status, 200, reply)
        before = self.d.status()
        # Another hook, same GUID, another commit: must be kept.
        status, reply = self.d.post_payload(self.push(), delivery=delivery,
                                            hook_id="102")
        self.assertEqual(status, 200, reply)
        self.assertIs(reply.get("duplicate"), False,
                      "same GUID under another hook id taken for a"
                      " duplicate: %r" % (reply,))
        self.assertEqual(reply.get("commits"), 1, reply)
        after = self.d.status()
        self.assertEqual(after["deliveries"]["accepted"],
                         before["deliveries"]["accepted"] + 1)
        self.assertEqual(self.repo_commits(after),
                         self.repo_commits(before) + 1)

    def test_ipv6_and_several_listeners(self):
        """listen takes several addresses, IPv6 among them."""
        probe = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
        try:
            probe.bind(("::1", 0))
        except OSError:
            self.skipTest("no IPv6 loopback here")
        finally:
            probe.close()
        with ht.Daemon(options={"listen": "127.0.0.1:0,[::1]:0"}) as d:
            m = d.wait_log(r"listening on \[::1\]:(\d+)")
            conn = http.client.HTTPConnection("::1", int(m.group(1)),
                                              timeout=30)
            body = ht.body_of(ht.make_push())
            conn.request("POST", "/webhook", body,
                         d.headers_for(body, "push"))
            resp = conn.getresponse()
            reply = json.loads(resp.read())
            conn.close()
            self.assertEqual(resp.status, 200, reply)
            self.assertIs(reply.get("ok"), True)
            # and the IPv4 one serves the same day
            status, reply = d.post_payload(ht.make_push())
            self.assertEqual(status, 200, reply)
            self.assertEqual(d.repo_stats("hookcast-test/widget")["commits"],
                             2)
            d.stop()

    def test_healthz(self):
        status, hdrs, body = self.d.request("GET", "/healthz")
        self.assertEqual(status, 200, body)

    def test_metrics(self):
        status, hdrs, body = self.d.request("GET", "/metrics")
        self.assertEqual(status, 200, body)
        self.assertIn(b"hookcast_deliveries_total", body)

    # -- rejected ---------------------------------------------------------

    def test_missing_event_header(self):
        self.expect_rejected(400, "no X-GitHub-Event",
                             body=ht.body_of(self.push()), event=None)

    def test_missing_signature(self):
        self.expect_rejected(401, "no signature",
                             body=ht.body_of(self.push()), event="push",
                             sign=False)

    def test_wrong_signature(self):
        self.expect_rejected(
            401, "a malformed signature", body=ht.body_of(self.push()),
            event="push",
            extra_headers={"X-Hub-Signature-256": "sha256=" + "0" * 64})

    def test_signature_of_other_body(self):
        body = ht.body_of(self.push())
        self.expect_rejected(
            401, "a signature of another body", body=body, event="push",
            extra_headers={"X-Hub-Signature-256":
                           ht.sign(self.d.secret, body + b" ")})

    def test_wrong_secret(self):
        self.expect_rejected(401, "a signature by a wrong secret",
                             body=ht.body_of(self.push()), event="push",
                             secret="not the secret")

    def test_malformed_json(self):
        self.expect_rejected(400, "malformed JSON",
                             body=b'{"ref": "refs/heads/main", "commits": [',
                             event="push")

    def test_mistyped_commit_id(self):
        p = self.push()
        p["commits"][0]["id"] = 12345
        err = self.expect_rejected(400, "commits[0].id a number",
                                   body=ht.body_of(p), event="push")
        self.assertIn("commits[0].id", err)

    def test_commits_not_array(self):
        p = self.push()
        p["commits"] = "a few"
        err = self.expect_rejected(400, "commits a string",
                                   body=ht.body_of(p), event="push")
        self.assertIn("commits", err)

    def test_repository_missing(self):
        p = self.push()
        del p["repository"]
        err = self.expect_rejected(400, "no repository",
                                   body=ht.body_of(p), event="push")
        self.assertIn("repository", err)

    def test_unsupported_content_type(self):
        self.expect_rejected(415, "Content-Type text/plain",
                             body=ht.body_of(self.push()), event="push",
                             content_type="text/plain")

    def test_get_webhook(self):
        status, hdrs, body = self.d.request("GET", "/webhook")
        reply = ht.parse_reply(status, body, "GET /webhook")
        self.assertError(status, reply, 405, "GET /webhook")
        self.assertStillAccepts("GET /webhook")

    def test_unknown_path(self):
        status, reply = self.d.post(ht.body_of(self.push()), "push",
                                    path="/no-such-path")
        self.assertError(status, reply, 404, "POST /no-such-path")
        self.assertStillAccepts("an unknown path")

    def test_oversized_body(self):
        """26 MiB announced: 413 before the body is read whole."""
        total = 26 * 1024 * 1024
        before = self.rejected()
        head = ("POST /webhook HTTP/1.1\r\n"
                "Host: 127.0.0.1:%d\r\n"
                "User-Agent: %s\r\n"
                "Content-Type: application/json\r\n"
                "X-GitHub-Event: push\r\n"
                "X-GitHub-Delivery: %s\r\n"
                "X-GitHub-Hook-ID: 1\r\n"
                "X-Hub-Signature-256: sha256=%s\r\n"
                "Content-Length: %d\r\n\r\n"
                % (self.d.port, ht.USER_AGENT, uuid.uuid4(), "0" * 64,
                   total)).encode()
        s = socket.create_connection(("127.0.0.1", self.d.port),
                                     timeout=ht.IO_TIMEOUT)
        received = b""
        sent = 0
        reset = None
        try:
            s.sendall(head)
            s.setblocking(False)
            chunk = b" " * 65536
            deadline = time.monotonic() + 60
            closed = False
            while time.monotonic() < deadline and not closed:
                want_write = sent < total
                r, w, _ = select.select([s], [s] if want_write else [], [],
                                        1.0)
                if r:
                    try:
                        data = s.recv(65536)
                    except (ConnectionResetError, BrokenPipeError) as e:
                        reset = e
                        break
                    except BlockingIOError:
                        data = None
                    if data == b"":
                        closed = True
                    elif data:
                        received += data
                        if self._complete(received):
                            break
                if w and sent < total:
                    try:
                        sent += s.send(chunk[:total - sent])
                    except BlockingIOError:
                        pass
                    except (ConnectionResetError, BrokenPipeError) as e:
                        reset = e
                        want_write = False
                        sent = total  # stop sending; keep reading
        finally:
            s.close()
        self.assertTrue(received.startswith(b"HTTP/1.1 413")
                        or received.startswith(b"HTTP/1.0 413"),
                        "26 MiB body: expected a 413 status line, got %r"
                        " (sent %d of %d bytes; reset: %r)"
                        % (received[:200], sent, total, reset))
        self.assertLess(sent, total,
                        "the daemon read the whole 26 MiB before answering")
        if self._complete(received):
            body = received.split(b"\r\n\r\n", 1)[1]
            reply = ht.parse_reply(413, body, "26 MiB body")
            self.assertError(413, reply, 413, "26 MiB body")
        self.assertEqual(self.rejected(), before + 1,
                         "26 MiB body not counted as rejected")
        self.assertStillAccepts("a 26 MiB body")

    @staticmethod
    def _complete(data):
        """Whether data holds a whole HTTP response with Content-Length."""
        if b"\r\n\r\n" not in data:
            return False
        head, body = data.split(b"\r\n\r\n", 1)
        for line in head.split(b"\r\n")[1:]:
            k, _, v = line.partition(b":")
            if k.strip().lower() == b"content-length":
                try:
                    return len(body) >= int(v.strip())
                except ValueError:
                    return False
        return False

    def test_slow_client_does_not_block(self):
        s = socket.create_connection(("127.0.0.1", self.d.port),
                                     timeout=ht.IO_TIMEOUT)
        try:
            s.sendall(("POST /webhook HTTP/1.1\r\n"
                       "Host: 127.0.0.1:%d\r\n"
                       "User-Agent: %s\r\n"
                       "X-GitHub-Event: push\r\n" % (self.d.port,
                                                     ht.USER_AGENT)).encode())
            time.sleep(0.2)
            # While it stalls, another delivery gets through.
            self.assertStillAccepts("a stalled client")
        finally:
            s.close()


class TestBranches(IntakeBase):
    """--branches=main,release: a commit pushed to both is one commit."""

    extra_args = ("--branches=main,release",)

    def test_same_commit_two_branches(self):
        commit = ht.make_commit(repo=REPO)
        before = self.d.status()
        status, reply = self.d.post_payload(
            self.push(commits=[commit], branch="main"))
        self.assertEqual(status, 200, reply)
        self.assertEqual(reply.get("commits"), 1, reply)
        status, reply = self.d.post_payload(
            self.push(commits=[dict(commit)], branch="release"))
        self.assertEqual(status, 200, "push to tracked branch release: %r"
                         % (reply,))
        self.assertIs(reply.get("duplicate"), False, reply)
        self.assertEqual(reply.get("commits"), 0,
                         "the same commit on a second branch counted as new:"
                         " %r" % (reply,))
        after = self.d.status()
        self.assertEqual(self.repo_commits(after),
                         self.repo_commits(before) + 1,
                         "the same commit on two branches counted twice")

    def test_untracked_branch_still_ignored(self):
        status, reply = self.d.post_payload(self.push(branch="feature/y"))
        self.assertEqual(status, 202, reply)
        self.assertIs(reply.get("ignored"), True, reply)


if __name__ == "__main__":
    unittest.main(verbosity=2)
