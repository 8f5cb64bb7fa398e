#!/usr/bin/env python3
"""Episodes are drafted in a child process; the loop never waits on one.

The drafting child is caught as it starts and stopped with SIGSTOP (a real
process, held the way a slow disk or a huge day would hold it), so each
case sees a draft in progress for as long as it needs:

- while it is stopped, /healthz and deliveries are answered, deliveries go
  to the new day, the client that asked for the flush gets its reply only
  once the draft is done, and a second command on its connection waits
  behind it while another client is served;
- past draft_timeout the child is killed: the flush answers an error
  naming draft_timeout, the failure is counted in /metrics, and the day is
  kept, joined with the new one, to be told by the next episode;
- the daemon killed mid-draft (SIGKILL: the child dies with it) drafts the
  day again at the next start, and the deliveries accepted during the
  draft are in the new day, not lost and not told twice.
"""

import glob
import json
import os
import signal
import socket
import sys
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hookcast_test as ht  # noqa: E402

REPO = "hookcast-test/drafter"
# commits of the day drafted: enough that its draft takes some tens of
# milliseconds natively (seconds under valgrind), so the child is caught
# before it is done even on a loaded machine
DAY_COMMITS = 3000 if os.environ.get("HOOKCAST_UNDER_VALGRIND") else 8000
PER_PUSH = 1000
# a slow machine (valgrind) may take this long to fork the child
CATCH_TIMEOUT = 60
# draft_timeout while the draft is held: short (the day's unheld draft
# afterwards gets a reloaded, long one)
DRAFT_TIMEOUT = 2
# how long an unheld draft may take: a sanitizer, valgrind and a busy
# host (the drafting process runs niced) all slow it down
DRAFT_WAIT = 600


def children(pid):
    """The child processes of pid (any thread's), from /proc."""
    out = []
    for f in glob.glob("/proc/%d/task/*/children" % pid):
        try:
            with open(f) as fh:
                out += [int(p) for p in fh.read().split()]
        except OSError:
            pass
    return out


def set_up(pid):
    """Is the child past its set-up: only its pipe left open above
    stderr? (Descriptors from 1000 up are valgrind's own.)"""
    fds = [int(f) for f in os.listdir("/proc/%d/fd" % pid)]
    return [f for f in fds if 3 < f < 1000] == []


def catch_child(d, before):
    """Wait for a new child of the daemon and stop it once it is set up
    (dies with the daemon, holds none of its sockets); its pid."""
    deadline = time.monotonic() + CATCH_TIMEOUT
    while time.monotonic() < deadline:
        new = [p for p in children(d.proc.pid) if p not in before]
        if new:
            os.kill(new[0], signal.SIGSTOP)
            if set_up(new[0]):
                return new[0]
            os.kill(new[0], signal.SIGCONT)
        time.sleep(0.0002)
    raise AssertionError("no drafting process caught; log:\n%s"
                         % d.log_tail())


def post_day(d, n, start=0):
    """n one-line commits to REPO in pushes of PER_PUSH; their shas."""
    shas = []
    sent = 0
    while sent < n:
        k = min(PER_PUSH, n - sent)
        commits = [ht.make_commit(message="Change %d of the day\n"
                                  % (start + sent + i), repo=REPO)
                   for i in range(k)]
        status, reply = d.post_payload(ht.make_push(commits, repo=REPO))
        if status != 200:
            raise AssertionError("push: %s %r" % (status, reply))
        shas += [c["id"] for c in commits]
        sent += k
    return shas


class Client:
    """A control connection kept open: send lines, read replies."""

    def __init__(self, path):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.connect(path)
        self.buf = b""

    def send(self, line):
        self.s.sendall(line.encode() + b"\n")

    def reply(self, timeout):
        """The next reply line as JSON, or None if none came in time."""
        self.s.settimeout(timeout)
        try:
            while b"\n" not in self.buf:
                chunk = self.s.recv(65536)
                if not chunk:
                    break
                self.buf += chunk
        except socket.timeout:
            return None
        if b"\n" not in self.buf:
            return None
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def close(self):
        self.s.close()


def episode_files(d):
    return sorted(glob.glob(os.path.join(d.output_dir, REPO, "*.json")))


def metric(d, name):
    status, _, body = d.request("GET", "/metrics")
    for line in body.decode().splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    raise AssertionError("%s not in /metrics" % name)


class Drafter(unittest.TestCase):
    def test_loop_serves_while_a_draft_is_held(self):
        with ht.Daemon() as d:
            post_day(d, DAY_COMMITS)
            flusher = Client(d.socket_path)
            before = children(d.proc.pid)
            flusher.send("flush " + REPO)
            flusher.send("status")
            child = catch_child(d, before)
            try:
                # the loop answers everyone else
                status, _, _ = d.request("GET", "/healthz")
                self.assertEqual(status, 200)
                new = post_day(d, 5, start=DAY_COMMITS)
                stats = d.repo_stats(REPO)
                self.assertTrue(stats["drafting"], stats)
                self.assertEqual(stats["commits"], 5,
                                 "deliveries during a draft go to the "
                                 "new day")
                # the flusher's reply, and its next command, wait
                self.assertIsNone(flusher.reply(0.5))
                self.assertEqual(episode_files(d), [])
            finally:
                os.kill(child, signal.SIGCONT)
            reply = flusher.reply(DRAFT_WAIT)
            self.assertTrue(reply and reply.get("ok"), reply)
            self.assertEqual(len(reply["episodes"]), 1, reply)
            status = flusher.reply(ht.IO_TIMEOUT)
            self.assertEqual(status["repos"][0]["commits"], 5, status)
            self.assertFalse(status["repos"][0]["drafting"], status)
            flusher.close()
            with open(reply["episodes"][0]["json"]) as f:
                ep = json.load(f)
            self.assertEqual(ep["stats"]["commits"], DAY_COMMITS)
            # the new day is the next episode's, whole
            again = d.control("flush " + REPO, timeout=DRAFT_WAIT)
            self.assertTrue(again.get("ok"), again)
            with open(again["episodes"][0]["json"]) as f:
                self.assertEqual(json.load(f)["stats"]["commits"], len(new))

    def test_draft_past_its_timeout_keeps_the_day(self):
        tmp = ht.make_tmpdir()
        conf = os.path.join(tmp, "hookcast.conf")
        with open(conf, "w") as f:
            f.write("draft_timeout = %d\n" % DRAFT_TIMEOUT)
        try:
            self.timeout_case(tmp, conf)
        finally:
            ht.shutil.rmtree(tmp, ignore_errors=True)

    def timeout_case(self, tmp, conf):
        with ht.Daemon(tmp=tmp, extra_args=["--config=" + conf]) as d:
            post_day(d, DAY_COMMITS)
            failures = metric(d, "hookcast_emit_failures_total")
            flusher = Client(d.socket_path)
            before = children(d.proc.pid)
            flusher.send("flush " + REPO)
            catch_child(d, before)
            post_day(d, 7, start=DAY_COMMITS)
            reply = flusher.reply(ht.IO_TIMEOUT + DRAFT_TIMEOUT)
            flusher.close()
            self.assertFalse(reply.get("ok"), reply)
            self.assertIn("draft_timeout", reply["error"])
            self.assertEqual(metric(d, "hookcast_emit_failures_total"),
                             failures + 1)
            self.assertEqual(episode_files(d), [])
            d.wait_log(r"killing it")
            # both days are one again, told by the next episode, drafted
            # with all the time a sanitizer or a busy host may need
            stats = d.repo_stats(REPO)
            self.assertEqual(stats["commits"], DAY_COMMITS + 7, stats)
            self.assertFalse(stats["drafting"], stats)
            with open(conf, "w") as f:
                f.write("draft_timeout = %d\n" % DRAFT_WAIT)
            self.assertTrue(d.control("reload").get("ok"))
            reply = d.control("flush " + REPO, timeout=DRAFT_WAIT)
            self.assertTrue(reply.get("ok"), reply)
            with open(reply["episodes"][0]["json"]) as f:
                self.assertEqual(json.load(f)["stats"]["commits"],
                                 DAY_COMMITS + 7)

    def test_daemon_killed_mid_draft_drafts_the_day_again(self):
        tmp = ht.make_tmpdir()
        try:
            d = ht.Daemon(tmp=tmp)
            try:
                post_day(d, DAY_COMMITS)
                flusher = Client(d.socket_path)
                before = children(d.proc.pid)
                flusher.send("flush " + REPO)
                child = catch_child(d, before)
                new = post_day(d, 3, start=DAY_COMMITS)
                self.assertTrue(d.repo_stats(REPO)["drafting"])
                d.kill()
                flusher.close()
                # the child dies with the daemon (PR_SET_PDEATHSIG)
                deadline = time.monotonic() + 10
                while os.path.exists("/proc/%d" % child) and \
                        time.monotonic() < deadline:
                    with open("/proc/%d/stat" % child) as f:
                        if f.read().split(")")[-1].split()[0] == "Z":
                            break   # a zombie: dead, its parent gone too
                    time.sleep(0.05)
                self.assertEqual(episode_files(d), [])
            finally:
                d.cleanup()
            # catch the catch-up's child while the daemon starts: READY
            # (start() returning) must not wait for it
            d = ht.Daemon(tmp=tmp, start=False)
            caught = []
            catcher = threading.Thread(target=lambda: caught.append(
                catch_child(d, [])), daemon=True)
            try:
                d.proc = None
                starter = threading.Thread(target=d.start, daemon=True)
                starter.start()
                while d.proc is None:
                    time.sleep(0.0002)
                catcher.start()
                starter.join(ht.START_TIMEOUT + 5)
                catcher.join(CATCH_TIMEOUT)
                self.assertTrue(caught, "no drafting child at start")
                self.assertIsNotNone(d.port, "not ready while the "
                                     "catch-up draft is held")
                self.assertIn("drafting it again", d.log())
                held = d.repo_stats(REPO)
                self.assertTrue(held["drafting"], held)
                self.assertEqual(episode_files(d), [])
                os.kill(caught[0], signal.SIGCONT)
                deadline = time.monotonic() + DRAFT_WAIT
                while time.monotonic() < deadline:
                    if not d.repo_stats(REPO)["drafting"]:
                        break
                    time.sleep(0.05)
                stats = d.repo_stats(REPO)
                self.assertFalse(stats["drafting"], stats)
                self.assertEqual(stats["commits"], len(new), stats)
                files = episode_files(d)
                self.assertEqual(len(files), 1, files)
                with open(files[0]) as f:
                    self.assertEqual(json.load(f)["stats"]["commits"],
                                     DAY_COMMITS)
                # and once more, after the journal was replayed again
                d.stop()
                d.start()
                self.assertEqual(d.repo_stats(REPO)["commits"], len(new))
                self.assertNotIn("drafting it again",
                                 d.log().split("starting")[-1])
            finally:
                d.cleanup()
        finally:
            ht.shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
