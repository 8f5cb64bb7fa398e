"""Nothing accepted is ever lost: crashes, a full disk, a missed emission.

- Crash: 2,000 distinct deliveries from four concurrent senders (so
  group commits hold several) while the daemon, with journal_fsync=batch,
  is SIGKILLed 100 times at moments spread over the stream, restarted each
  time on the same state. Every delivery that got a 2xx must still be
  known afterwards, and once every delivery is sent again, each is in the
  day exactly once.
- Disk full: on a small tmpfs of the test's own (root only), deliveries get
  503 with a JSON reason while the journal can't grow, 2xx again once space
  is freed, and the episode holds exactly the 2xx ones.
- Known commits: a push of commits the day already holds (a branch
  merged after its commits were pushed) journals only what is new, and
  after a restart the day is the same as before it.
- Catch-up: a daemon down across its emission time (faketime moves the
  clock) emits the overdue episode at start, with the window and published
  time it should have had.
"""

import glob
import json
import os
import random
import shutil
import subprocess
import threading
import time
import unittest
import uuid

import hookcast_test as ht

REPO = "hookcast-test/durable"


def delivery():
    """A distinct one-commit push: (guid, sha, body)."""
    c = ht.make_commit(repo=REPO)
    return str(uuid.uuid4()), c["id"], ht.body_of(
        ht.make_push(commits=[c], repo=REPO))


class Sender(threading.Thread):
    """Posts distinct deliveries until told to stop or the daemon dies."""

    def __init__(self, daemon, sent, acked):
        super().__init__(daemon=True)
        self.d = daemon
        self.sent = sent
        self.acked = acked
        self.halt = threading.Event()

    def run(self):
        while not self.halt.is_set():
            guid, sha, body = delivery()
            self.sent.append((guid, sha, body))
            try:
                status, reply = self.d.post(body, "push", delivery=guid)
            except Exception:
                return      # the daemon was killed mid-request
            if 200 <= status < 300:
                self.acked.append((guid, sha, body))


class TestCrash(unittest.TestCase):
    ROUNDS = 100
    DELIVERIES = 2000
    SENDERS = 4

    def test_sigkill_loses_no_acknowledged_delivery(self):
        rng = random.Random(int(os.environ.get("HOOKCAST_SEED", "0")) or None)
        sent, acked = [], []
        tmp = ht.make_tmpdir()
        per_round = self.DELIVERIES // self.ROUNDS
        try:
            for r in range(self.ROUNDS):
                d = ht.Daemon(tmp=tmp, options={"journal-fsync": "batch"})
                senders = [Sender(d, sent, acked)
                           for _ in range(self.SENDERS)]
                for s in senders:
                    s.start()
                # the kill lands somewhere in this round's share
                target = r * per_round + rng.randint(1, per_round)
                deadline = time.monotonic() + 30
                while len(sent) < target and time.monotonic() < deadline:
                    time.sleep(0.0005)
                d.kill()
                for s in senders:
                    s.halt.set()
                for s in senders:
                    s.join(timeout=30)
                d.cleanup()
            self.assertGreaterEqual(len(sent), self.DELIVERIES // 2)
            self.assertGreater(len(acked), self.ROUNDS,
                               "too few deliveries acknowledged to test")
            with ht.Daemon(tmp=tmp) as d:
                # every acknowledged delivery survived: it is a duplicate
                for guid, sha, body in acked:
                    status, reply = d.post(body, "push", delivery=guid)
                    self.assertEqual(status, 200, reply)
                    self.assertIs(reply.get("duplicate"), True,
                                  "acknowledged delivery %s lost: %r"
                                  % (guid, reply))
                # the rest either made it or can be delivered now, once
                for guid, sha, body in sent:
                    status, reply = d.post(body, "push", delivery=guid)
                    self.assertEqual(status, 200, reply)
                commits = d.repo_stats(REPO).get("commits")
                self.assertEqual(commits, len({sha for _, sha, _ in sent}),
                                 "each delivery exactly once in the day")
                reply = d.control("flush " + REPO)
                self.assertTrue(reply.get("ok"), reply)
                with open(reply["episodes"][0]["json"]) as f:
                    episode = json.load(f)
                self.assertEqual(episode["stats"]["commits"], commits)
                d.stop()
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


class TestKnownCommits(unittest.TestCase):

    def test_known_commits_not_journalled_again(self):
        repo = "hookcast-test/merged"
        big = "widget: a long story\n\n" + "many words here. " * 1200
        a = ht.make_commit(message=big, repo=repo)
        b = ht.make_commit(message=big, repo=repo)
        tmp = ht.make_tmpdir()
        journal = os.path.join(tmp, "state", "journal")
        try:
            # both branches tracked: the feature's commits come again
            # in the push that merges it
            with ht.Daemon(tmp=tmp, options={"journal-fsync": "batch",
                                             "branches": "main,feature"}) as d:
                status, reply = d.post_payload(
                    ht.make_push(commits=[a, b], repo=repo,
                                 branch="feature"))
                self.assertEqual(status, 200, reply)
                size = os.path.getsize(journal)
                c = ht.make_commit(repo=repo)
                status, reply = d.post_payload(
                    ht.make_push(commits=[a, b, c], repo=repo))
                self.assertEqual(status, 200, reply)
                self.assertEqual(reply.get("commits"), 1, reply)
                grown = os.path.getsize(journal) - size
                self.assertLess(grown, len(big),
                                "the merge's record carried the known "
                                "commits again (%d bytes)" % grown)
                before = d.repo_stats(repo)
                self.assertEqual(before.get("commits"), 3, before)
                self.assertEqual(before.get("pushes"), 2, before)
                d.stop()
            with ht.Daemon(tmp=tmp,
                           options={"branches": "main,feature"}) as d:
                after = d.repo_stats(repo)
                self.assertEqual(after, before)
                reply = d.control("flush " + repo)
                self.assertTrue(reply.get("ok"), reply)
                with open(reply["episodes"][0]["json"]) as f:
                    episode = json.load(f)
                self.assertEqual(episode["stats"]["commits"], 3)
                d.stop()
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


class TestDiskFull(unittest.TestCase):

    def setUp(self):
        if os.geteuid() != 0:
            self.skipTest("disk-full test needs root to mount a tmpfs")
        self.tmp = ht.make_tmpdir()
        self.mnt = os.path.join(self.tmp, "small")
        os.mkdir(self.mnt)
        p = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k",
                            "tmpfs", self.mnt], capture_output=True, text=True)
        if p.returncode != 0:
            shutil.rmtree(self.tmp, ignore_errors=True)
            self.skipTest("cannot mount a tmpfs here: " + p.stderr.strip())

    def tearDown(self):
        subprocess.run(["umount", "-l", self.mnt], capture_output=True)
        shutil.rmtree(self.tmp, ignore_errors=True)

    def test_full_disk_503_then_recovers(self):
        state = os.path.join(self.mnt, "state")
        with ht.Daemon(tmp=self.tmp, options={
                "state-dir": state,
                "output-dir": os.path.join(self.tmp, "episodes")}) as d:
            # leave little room: a filler file takes the rest
            filler = os.path.join(self.mnt, "filler")
            try:
                with open(filler, "wb") as f:
                    while True:
                        f.write(b"\0" * 4096)
                        f.flush()
            except OSError:
                pass
            accepted, refused = set(), 0
            for _ in range(200):
                guid, sha, body = delivery()
                status, reply = d.post(body, "push", delivery=guid)
                if status == 200:
                    accepted.add(sha)
                    continue
                self.assertEqual(status, 503, reply)
                self.assertIs(reply.get("ok"), False)
                self.assertTrue(reply.get("error"))
                refused += 1
                if refused >= 5:
                    break
            self.assertGreaterEqual(refused, 5, "the disk never filled up")
            self.assertEqual(d.deliveries().get("unavailable"), refused)
            log = d.log()
            self.assertIn("journal", log)
            self.assertEqual(log.count("answering 503"), 1,
                             "one log line per burst:\n" + log)
            # /healthz says what GitHub meets, and why
            status, _, body = d.request("GET", "/healthz")
            self.assertEqual(status, 503, body)
            self.assertEqual(json.loads(body), {
                "ok": False, "error": "journal: No space left on device; "
                "deliveries get 503"})
            # free space: the daemon recovers by itself, and /healthz
            # says so before any delivery comes (its probe of state_dir)
            os.unlink(filler)
            deadline = time.monotonic() + 10
            while True:
                status, _, body = d.request("GET", "/healthz")
                if status == 200 or time.monotonic() > deadline:
                    break
                time.sleep(0.2)
            self.assertEqual((status, body), (200, b'{"ok":true}'))
            self.assertIn("writing again", d.log())
            for _ in range(5):
                guid, sha, body = delivery()
                status, reply = d.post(body, "push", delivery=guid)
                self.assertEqual(status, 200, reply)
                accepted.add(sha)
            self.assertIn("writing again", d.log())
            self.assertEqual(d.repo_stats(REPO).get("commits"), len(accepted))
            reply = d.control("flush " + REPO)
            self.assertTrue(reply.get("ok"), reply)
            with open(reply["episodes"][0]["json"]) as f:
                self.assertEqual(json.load(f)["stats"]["commits"],
                                 len(accepted))
            d.stop()
        # and after a restart the journal holds exactly those, no more
        with ht.Daemon(tmp=self.tmp, options={
                "state-dir": state,
                "output-dir": os.path.join(self.tmp, "episodes")}) as d:
            self.assertIn(d.repo_stats(REPO).get("commits"), (None, 0),
                          "the flushed day came back")
            d.stop()


class TestCatchUp(unittest.TestCase):

    def test_overdue_episode_emitted_at_start(self):
        env = ht.faketime_env("2026-06-01 06:00:00")
        if env is None:
            self.skipTest("faketime is not installed")
        tmp = ht.make_tmpdir()
        opts = {"emit-at": "10:00", "timezone": "Europe/Stockholm"}
        try:
            with ht.Daemon(tmp=tmp, options=opts, env=env) as d:
                for _ in range(3):
                    guid, sha, body = delivery()
                    status, reply = d.post(body, "push", delivery=guid)
                    self.assertEqual(status, 200, reply)
                d.stop()
            # the day opened at 10:00 Stockholm on May 31st; the daemon
            # was down across June 1st's 10:00 (08:00 UTC)
            env = ht.faketime_env("2026-06-01 12:00:00")
            with ht.Daemon(tmp=tmp, options=opts, env=env) as d:
                self.assertIn("catch-up", d.log())
                # drafted after READY, in the drafting process
                d.wait_log(r"emitted %s episode" % REPO)
                files = glob.glob(os.path.join(d.output_dir, REPO, "*.json"))
                self.assertEqual(len(files), 1, files)
                # the day is told by the date its window started
                self.assertTrue(files[0].endswith("/2026-05-31.json"), files)
                with open(files[0]) as f:
                    ep = json.load(f)
                self.assertEqual(ep["stats"]["commits"], 3)
                self.assertEqual(ep["published"], "2026-06-01T08:00:00Z")
                self.assertEqual(ep["window"], {
                    "start": "2026-05-31T08:00:00Z",
                    "end": "2026-06-01T08:00:00Z"})
                self.assertEqual(d.repo_stats(REPO).get("commits"), 0,
                                 "the emitted day is still open")
                d.stop()
            # started again: nothing more to catch up, no second episode
            with ht.Daemon(tmp=tmp, options=opts, env=env) as d:
                files = glob.glob(os.path.join(d.output_dir, REPO, "*.json"))
                self.assertEqual(len(files), 1, files)
                d.stop()
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    unittest.main(verbosity=2)
