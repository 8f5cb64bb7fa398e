"""Group commit (journal_fsync=batch): the journal's sync thread syncs while
the loop goes on reading, and still every 2xx is durable.

- Burst then SIGKILL: many concurrent signed deliveries, all answered 2xx;
  SIGKILL right after the last reply; each one's key is in the journal
  file, and after a restart each is a duplicate.
- Clients that leave while their delivery waits for its sync: raw
  connections that send a whole delivery and close at once, among
  ordinary senders; the daemon goes on serving, logs no reply to a
  connection it no longer has, and stops cleanly (run it under ASan).
- SIGTERM in the middle of a stream: the daemon exits 0, and every
  delivery it answered 2xx is there after a restart.
"""

import os
import shutil
import signal
import socket
import threading
import time
import unittest
import uuid

import hookcast_test as ht

REPO = "hookcast-test/groupcommit"


def delivery():
    """A distinct one-commit push: (guid, sha, body)."""
    c = ht.make_commit(repo=REPO)
    return str(uuid.uuid4()), c["id"], ht.body_of(
        ht.make_push(commits=[c], repo=REPO))


def post_all(d, items, threads):
    """POST items [(guid, sha, body)] from threads at once; the replies."""
    replies = {}
    lock = threading.Lock()
    work = list(items)

    def run():
        while True:
            with lock:
                if not work:
                    return
                guid, sha, body = work.pop()
            try:
                status, reply = d.post(body, "push", delivery=guid)
            except Exception as e:   # recorded, asserted by the caller
                status, reply = None, repr(e)
            with lock:
                replies[guid] = (status, reply)

    ts = [threading.Thread(target=run, daemon=True) for _ in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(timeout=120)
    return replies


class TestGroupCommit(unittest.TestCase):

    def setUp(self):
        self.tmp = ht.make_tmpdir()

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def daemon(self):
        return ht.Daemon(tmp=self.tmp, options={"journal-fsync": "batch"})

    def test_every_2xx_of_a_burst_survives_sigkill(self):
        items = [delivery() for _ in range(400)]
        d = self.daemon()
        try:
            replies = post_all(d, items, threads=32)
            d.kill()
        finally:
            d.cleanup()
        self.assertEqual(len(replies), len(items))
        for guid, (status, reply) in replies.items():
            self.assertEqual(status, 200, (guid, reply))
            self.assertIs(reply.get("duplicate"), False, reply)
        with open(os.path.join(self.tmp, "state", "journal"), "rb") as f:
            journal = f.read()
        missing = [g for g, _, _ in items if g.encode() not in journal]
        self.assertEqual(missing, [], "answered 200 but not in the journal")
        with self.daemon() as d:
            self.assertEqual(d.repo_stats(REPO).get("commits"), len(items))
            for guid, sha, body in items[:50]:
                status, reply = d.post(body, "push", delivery=guid)
                self.assertEqual(status, 200, reply)
                self.assertIs(reply.get("duplicate"), True, reply)
            d.stop()

    def test_clients_leaving_while_waiting_for_the_sync(self):
        leavers = [delivery() for _ in range(60)]
        stayers = [delivery() for _ in range(200)]
        with self.daemon() as d:
            def leave(guid, body):
                h = d.headers_for(body, "push", delivery=guid)
                head = "POST /webhook HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                head += "Content-Length: %d\r\n" % len(body)
                head += "".join("%s: %s\r\n" % kv for kv in h.items())
                s = socket.create_connection(("127.0.0.1", d.port))
                s.sendall(head.encode() + b"\r\n" + body)
                s.close()       # gone before the reply

            def leave_all():
                for guid, _, body in leavers:
                    leave(guid, body)

            t = threading.Thread(target=leave_all, daemon=True)
            t.start()
            replies = post_all(d, stayers, threads=16)
            t.join(timeout=60)
            for guid, (status, reply) in replies.items():
                self.assertEqual(status, 200, (guid, reply))
            status, _, _ = d.request("GET", "/healthz")
            self.assertEqual(status, 200)
            # each leaver was taken or not: sending it again says which
            for guid, sha, body in leavers:
                status, reply = d.post(body, "push", delivery=guid)
                self.assertEqual(status, 200, reply)
            self.assertEqual(d.repo_stats(REPO).get("commits"),
                             len(leavers) + len(stayers))
            log = d.log()
            self.assertNotIn("a reply to no connection", log)
            self.assertNotIn("a second reply", log)
            d.stop()

    def test_sigterm_mid_stream_keeps_every_2xx(self):
        acked, lock = [], threading.Lock()
        halt = threading.Event()
        d = self.daemon()

        def send():
            while not halt.is_set():
                guid, sha, body = delivery()
                try:
                    status, reply = d.post(body, "push", delivery=guid)
                except Exception:
                    return      # the daemon closed the listener
                if status == 200:
                    with lock:
                        acked.append((guid, body))

        try:
            ts = [threading.Thread(target=send, daemon=True)
                  for _ in range(16)]
            for t in ts:
                t.start()
            deadline = time.monotonic() + 30
            while len(acked) < 200 and time.monotonic() < deadline:
                time.sleep(0.01)
            d.send_signal(signal.SIGTERM)
            d.stop()
            halt.set()
            for t in ts:
                t.join(timeout=30)
            self.assertIn("stopped", d.log())
        finally:
            halt.set()
            d.cleanup()
        self.assertGreaterEqual(len(acked), 200)
        with self.daemon() as d:
            for guid, body in acked:
                status, reply = d.post(body, "push", delivery=guid)
                self.assertEqual(status, 200, reply)
                self.assertIs(reply.get("duplicate"), True,
                              "delivery %s answered 200 then lost" % guid)
            d.stop()


if __name__ == "__main__":
    unittest.main()
