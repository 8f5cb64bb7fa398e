"""Group commit on a journal whose sync is slow.

The state directory is a FUSE filesystem of the test's own (slowfs.py)
whose fsync sleeps SLOW seconds before syncing its backing file, as a disk
behind a long write-back queue would. With journal_fsync=batch:

- While the first delivery waits for its sync, the loop goes on: /healthz
  is answered and the next deliveries are read and journalled, all before
  the first one's reply. A loop that ran fdatasync itself would answer
  nothing until it returned.
- The deliveries that came during one sync share the next one: a burst of
  BURST costs at most three syncs (journal_fsync=always: BURST), counted
  by hookcast_journal_sync_seconds_count.
- Every delivery answered 200 is in the journal's backing file, and a
  duplicate after a restart.

Skipped where FUSE can't be mounted here (not root, no /dev/fuse, or no
fusepy for the system python3: Debian's python3-fusepy).
"""

import os
import re
import select
import shutil
import socket
import subprocess
import threading
import time
import unittest
import uuid

import hookcast_test as ht

REPO = "hookcast-test/slowsync"
SLOW = 2.0
BURST = 24
SYSTEM_PYTHON = "/usr/bin/python3"
SLOWFS = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                      "slowfs.py")


def fuse_unavailable():
    """Why FUSE can't be used here, or None."""
    if os.geteuid() != 0:
        return "not root"
    if not os.path.exists("/dev/fuse"):
        return "no /dev/fuse"
    try:
        subprocess.run([SYSTEM_PYTHON, "-c", "import fusepy"], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except (OSError, subprocess.CalledProcessError):
        return "no fusepy for %s (python3-fusepy)" % SYSTEM_PYTHON
    return None


def delivery():
    c = ht.make_commit(repo=REPO)
    return str(uuid.uuid4()), ht.body_of(ht.make_push(commits=[c], repo=REPO))


def send_raw(d, guid, body):
    """A delivery written on a connection of its own; the socket."""
    h = d.headers_for(body, "push", delivery=guid)
    head = "POST /webhook HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    head += "Content-Length: %d\r\nConnection: close\r\n" % len(body)
    head += "".join("%s: %s\r\n" % kv for kv in h.items())
    s = socket.create_connection(("127.0.0.1", d.port))
    s.sendall(head.encode() + b"\r\n" + body)
    return s


def read_reply(s, timeout):
    """The status of the reply on s (read to its end), or None."""
    s.settimeout(timeout)
    data = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    except socket.timeout:
        pass
    m = re.match(rb"HTTP/1\.[01] (\d{3})", data)
    return int(m.group(1)) if m else None


def syncs(d):
    status, _, body = d.request("GET", "/metrics")
    m = re.search(r"^hookcast_journal_sync_seconds_count (\d+)$",
                  ht._text(body), re.M)
    return int(m.group(1)) if m else None


@unittest.skipIf(fuse_unavailable(), fuse_unavailable())
class TestSlowSync(unittest.TestCase):

    def setUp(self):
        self.tmp = ht.make_tmpdir()
        self.backing = os.path.join(self.tmp, "backing")
        self.mnt = os.path.join(self.tmp, "mnt")
        os.mkdir(self.backing)
        os.mkdir(self.mnt)
        self.fs = subprocess.Popen(
            [SYSTEM_PYTHON, SLOWFS, self.backing, self.mnt, str(SLOW)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while not os.path.ismount(self.mnt):
            if self.fs.poll() is not None or time.monotonic() > deadline:
                self.fail("slowfs did not mount")
            time.sleep(0.05)
        os.mkdir(os.path.join(self.mnt, "state"), 0o700)

    def tearDown(self):
        subprocess.run(["umount", "-l", self.mnt], check=False)
        try:
            self.fs.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.fs.kill()
            self.fs.wait()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def daemon(self, mode="batch"):
        return ht.Daemon(tmp=self.tmp, options={
            "journal-fsync": mode,
            "state-dir": os.path.join(self.mnt, "state")})

    def test_loop_goes_on_while_a_sync_runs(self):
        first = delivery()
        burst = [delivery() for _ in range(BURST)]
        with self.daemon() as d:
            before = syncs(d)
            self.assertIsNotNone(before, "no journal sync count")
            s = send_raw(d, *first)
            # its sync is under way (SLOW seconds) well before this ends
            time.sleep(SLOW / 4)
            status, _, _ = d.request("GET", "/healthz")
            self.assertEqual(status, 200)
            rlist, _, _ = select.select([s], [], [], 0)
            self.assertEqual(rlist, [], "the first delivery was answered "
                             "before /healthz: the loop waited for its sync")

            replies = {}

            def post(guid, body):
                replies[guid] = d.post(body, "push", delivery=guid)

            ts = [threading.Thread(target=post, args=item) for item in burst]
            for t in ts:
                t.start()
            self.assertEqual(read_reply(s, SLOW * 10), 200)
            s.close()
            for t in ts:
                t.join(timeout=SLOW * 20)
            for guid, (status, reply) in replies.items():
                self.assertEqual(status, 200, (guid, reply))
            self.assertEqual(len(replies), BURST)
            used = syncs(d) - before
            # the first delivery's, then one or two for the burst
            self.assertLessEqual(used, 3, "%d deliveries took %d syncs"
                                 % (BURST + 1, used))
            d.stop()
        with open(os.path.join(self.backing, "state", "journal"), "rb") as f:
            journal = f.read()
        for guid, _ in [first] + burst:
            self.assertIn(guid.encode(), journal)
        with self.daemon() as d:
            for guid, body in [first] + burst[:5]:
                status, reply = d.post(body, "push", delivery=guid)
                self.assertEqual(status, 200, reply)
                self.assertIs(reply.get("duplicate"), True, reply)
            d.stop()


if __name__ == "__main__":
    unittest.main()
