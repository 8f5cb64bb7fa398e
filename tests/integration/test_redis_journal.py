"""The shared journal on Redis Streams (journal = redis://HOST:PORT/DB):
receivers behind one load balancer share one stream on a redis-server the
test starts on loopback.

- two receivers see every delivery either took; a redelivery to the other
  is a duplicate; a flush on one tells each day once, and the other's day
  is done when it reads so;
- Redis killed and restarted mid-flow: every delivery answered 2xx is
  kept, those sent meanwhile get 503 (and /healthz says so);
- the receiver drafting a day is killed mid-draft: the other takes its
  lapsed lease and tells the day, once;
- 2,000 deliveries from 4 senders to two receivers killed 20 times at
  random: one episode per repository with every commit exactly once.
"""

import calendar
import json
import os
import random
import shutil
import signal
import sys
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hookcast_test as ht  # noqa: E402
import redis_server  # noqa: E402
from test_llm import StandInModel  # noqa: E402

UNDER_VALGRIND = bool(os.environ.get("HOOKCAST_UNDER_VALGRIND"))
WIDGET = "hookcast-test/widget"
GADGET = "hookcast-test/gadget"
SOLO = "solo/tool"


def receiver(redis, **extra):
    opts = {"journal": redis.url, "redis-lease": "2",
            "redis-timeout": "1000"}
    opts.update(extra)
    return ht.Daemon(options=opts)


def wait_for(what, pred, timeout=30):
    deadline = time.monotonic() + timeout
    while True:
        v = pred()
        if v:
            return v
        if time.monotonic() > deadline:
            raise AssertionError("not within %d s: %s" % (timeout, what))
        time.sleep(0.05)


def records(redis, kind):
    """The stream's records of one kind ("d", "h", "e", "m"), decoded."""
    out = []
    for _, f in redis.entries():
        rec = json.loads(f["r"])
        if rec.get("t") == kind:
            out.append(rec)
    return out


def episode_files(*daemons):
    """The episode .json files every receiver wrote: {repo: [paths]}."""
    found = {}
    for d in daemons:
        for root, _, files in os.walk(d.output_dir):
            for name in files:
                if name.endswith(".json") and name[:4].isdigit():
                    repo = os.path.relpath(root, d.output_dir)
                    found.setdefault(repo, []).append(
                        os.path.join(root, name))
    return found


def one_commit_push(repo, n):
    c = ht.make_commit(message="Change %d of %s" % (n, repo), repo=repo)
    return ht.body_of(ht.make_push([c], repo=repo))


class SharedDays(unittest.TestCase):
    def test_two_receivers_one_day(self):
        with redis_server.RedisServer() as redis, \
                receiver(redis) as a, receiver(redis) as b:
            push = ht.body_of(ht.make_push([ht.make_commit(),
                                            ht.make_commit()]))
            status, reply = a.post(push, "push", delivery="first")
            self.assertEqual((status, reply["duplicate"]), (200, False))
            # the redelivery to the other receiver is a duplicate
            status, reply = b.post(push, "push", delivery="first")
            self.assertEqual((status, reply["duplicate"]), (200, True))
            status, _ = b.post(one_commit_push(GADGET, 1), "push")
            self.assertEqual(status, 200)
            for d in (a, b):
                wait_for("both days on both receivers", lambda d=d: (
                    d.repo_stats(WIDGET)["commits"] == 2 and
                    d.repo_stats(GADGET)["commits"] == 1))
            self.assertEqual(len(records(redis, "d")), 2)
            j = a.status()["journal"]
            self.assertEqual(j["engine"], "redis")
            self.assertEqual(j["stream_length"], 2)
            self.assertTrue(j["healthy"])
            st, _, body = a.request("GET", "/metrics")
            self.assertIn(b"hookcast_redis_up 1\n", body)
            self.assertIn(b"hookcast_redis_stream_entries 2\n", body)
            self.assertIn(b"hookcast_redis_lag_seconds 0.000\n", body)
            self.assertEqual(j["lag_ms"], 0)
            self.assertIn(b'hookcast_redis_appends_total{result="appended"} 1',
                          body)

            reply = a.control("flush", timeout=120)
            self.assertTrue(reply.get("ok"), reply)
            self.assertEqual(sorted(e["repo"] for e in reply["episodes"]),
                             [GADGET, WIDGET])
            # b reads the hand-offs and the drafted records: its days are
            # done, nothing of them left open or waiting
            wait_for("b's days done", lambda: all(
                r["commits"] == 0 and not r["drafting"]
                for r in b.status()["repos"]))
            self.assertEqual(sorted(r["repo"] for r in records(redis, "h")),
                             [GADGET, WIDGET])
            self.assertEqual(sorted(r["repo"] for r in records(redis, "e")),
                             [GADGET, WIDGET])
            files = episode_files(a, b)
            self.assertEqual(sorted(files), [GADGET, WIDGET])
            self.assertTrue(all(len(v) == 1 for v in files.values()), files)
            with open(files[WIDGET][0]) as f:
                self.assertEqual(json.load(f)["stats"]["commits"], 2)
            # a flush of nothing on b now: no day to tell twice
            reply = b.control("flush", timeout=60)
            self.assertEqual(reply.get("episodes", []), [], reply)

    def test_late_receiver_catches_up(self):
        with redis_server.RedisServer() as redis, receiver(redis) as a:
            for n in range(5):
                self.assertEqual(a.post(one_commit_push(WIDGET, n),
                                        "push")[0], 200)
            with receiver(redis) as b:
                self.assertEqual(b.repo_stats(WIDGET)["commits"], 5)
                self.assertRegex(b.log(), r"read 5 entries of the stream")

    def test_stream_trimmed_past_told_days(self):
        with redis_server.RedisServer() as redis, \
                receiver(redis, **{"redis-keep": "0"}) as a:
            def xlen():
                return redis.cmd("XLEN", "hookcast:journal")

            for n in range(5):
                self.assertEqual(a.post(one_commit_push(WIDGET, n),
                                        "push")[0], 200)
            self.assertEqual(a.post(one_commit_push(GADGET, 0),
                                    "push")[0], 200)
            wait_for("a has both days", lambda: a.repo_stats(
                GADGET)["commits"] == 1)
            self.assertEqual(xlen(), 6)
            reply = a.control("flush " + WIDGET, timeout=60)
            self.assertTrue(reply.get("ok"), reply)
            # widget's five deliveries go; gadget's open day, its hand-off
            # and drafted records after it stay
            wait_for("widget's day trimmed", lambda: xlen() == 3)
            kinds = [json.loads(f["r"])["t"] for _, f in redis.entries()]
            self.assertEqual(kinds, ["d", "h", "e"])
            reply = a.control("flush " + GADGET, timeout=60)
            self.assertTrue(reply.get("ok"), reply)
            wait_for("all but the last trimmed", lambda: xlen() == 1)
            st, _, body = a.request("GET", "/metrics")
            self.assertIn(b"hookcast_redis_trimmed_total 9\n", body)
            # a receiver started now has nothing left to tell
            with receiver(redis) as b:
                self.assertEqual(b.repo_stats(WIDGET)["commits"], 0)
                self.assertEqual(b.repo_stats(GADGET)["commits"], 0)

    def test_check_config_reaches_redis(self):
        def check(url):
            return ht.run_daemon(["--check-config", "--journal=" + url,
                                  "--insecure-no-signature",
                                  "--state-dir=" + tmp])

        tmp = ht.make_tmpdir()
        self.addCleanup(shutil.rmtree, tmp, True)
        with redis_server.RedisServer(appendfsync="everysec") as redis:
            p = check(redis.url)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn("appendfsync everysec: a crash of the Redis host "
                          "may lose the last second", p.stderr)
        with redis_server.RedisServer(appendfsync="always") as redis:
            p = check(redis.url)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertNotIn("appendfsync", p.stderr)
            port = redis.port
        # the server gone: the check fails and says why
        p = check("redis://127.0.0.1:%d/0" % port)
        self.assertEqual(p.returncode, 1)
        self.assertRegex(p.stderr, r"journal: redis: 127\.0\.0\.1:%d: "
                         r"Connection refused" % port)

    def test_check_config_names_a_bad_url(self):
        d = ht.run_daemon(["--check-config", "--journal=redis://h:99999/0"])
        self.assertNotEqual(d.returncode, 0)
        self.assertIn("journal): 'redis://h:99999/0' is neither file nor",
                      d.stderr)


class RedisOutage(unittest.TestCase):
    def test_kill_and_restart_redis(self):
        with redis_server.RedisServer(appendfsync="always") as redis, \
                receiver(redis, **{"redis-timeout": "500"}) as a:
            ok, refused = [], []

            def send(n):
                guid = "outage-%d" % n
                try:
                    status, _ = a.post(one_commit_push(WIDGET, n), "push",
                                       delivery=guid)
                except OSError:
                    status = None
                (ok if status == 200 else refused).append((n, guid, status))

            for n in range(40):
                send(n)
            redis.kill()
            for n in range(40, 60):
                send(n)
            st, _, body = a.request("GET", "/healthz")
            self.assertEqual(st, 503, body)
            self.assertIn(b"redis", body)
            outage = [r for r in refused if r[0] >= 40]
            self.assertEqual(len(outage), 20, refused)
            self.assertTrue(all(r[2] == 503 for r in outage), outage)
            redis.start()
            wait_for("healthy again", lambda: a.request(
                "GET", "/healthz")[0] == 200)
            for n in range(60, 80):
                send(n)
            # every 2xx is in the stream and in the day
            kept = {json.loads(f["r"])["key"] for _, f in redis.entries()}
            for n, guid, _ in ok:
                self.assertIn("1:" + guid, kept)
            # the refused ones, redelivered as an operator would
            for n, guid, _ in list(refused):
                status, _ = a.post(one_commit_push(WIDGET, n), "push",
                                   delivery=guid)
                self.assertEqual(status, 200)
            wait_for("80 commits", lambda: a.repo_stats(
                WIDGET)["commits"] == 80)
            self.assertEqual(len(records(redis, "d")), 80)
            self.assertRegex(a.log(), r"redis: .*answering 503")


    def test_scripts_flushed(self):
        """Deliveries run their script by digest: after a SCRIPT FLUSH
        they get 503 until the connection made again has loaded it."""
        with redis_server.RedisServer() as redis, receiver(redis) as a:
            self.assertEqual(a.post(one_commit_push(WIDGET, 0), "push",
                                    delivery="before")[0], 200)
            redis.cmd("SCRIPT", "FLUSH")
            statuses = []
            for n in range(1, 4):
                guid = "after-%d" % n

                def sent(n=n, guid=guid):
                    st = a.post(one_commit_push(WIDGET, n), "push",
                                delivery=guid)[0]
                    statuses.append(st)
                    return st == 200
                wait_for("%s taken" % guid, sent, timeout=10)
            # 503 until the new connection is up, never a 2xx unwritten
            self.assertEqual(statuses[0], 503, statuses)
            self.assertEqual(set(statuses) - {200, 503}, set(), statuses)
            wait_for("4 commits", lambda: a.repo_stats(
                WIDGET)["commits"] == 4)


class LeaseTakeover(unittest.TestCase):
    """Receiver a drafts a day of three commits, its model hanging until
    released; b follows the stream."""

    def setUp(self):
        self.model = StandInModel()
        self.model.mode = "hang"
        self.addCleanup(self.model.close)
        self.addCleanup(self.model.release.set)
        opts = {"llm-url": self.model.url(), "llm-model": "stand-in",
                "llm-timeout": "60", "draft-timeout": "120"}
        self.redis = redis_server.RedisServer()
        self.addCleanup(self.redis.close)
        self.a = receiver(self.redis, **opts)
        self.addCleanup(self.a.cleanup)
        self.b = receiver(self.redis, **opts)
        self.addCleanup(self.b.cleanup)
        for n in range(3):
            self.assertEqual(self.a.post(one_commit_push(WIDGET, n),
                                         "push")[0], 200)
        wait_for("b has the day", lambda: self.b.repo_stats(
            WIDGET)["commits"] == 3)
        # the flush is answered once drafted: not waited for here
        self.flush = threading.Thread(target=lambda: self._flush(self.a))
        self.flush.start()
        self.addCleanup(self.flush.join, 30)
        wait_for("a asks the model", lambda: self.model.requests)

    def test_holder_killed_mid_draft(self):
        a, b, redis, model = self.a, self.b, self.redis, self.model
        self.assertEqual(len(records(redis, "h")), 1)
        # b sees the day drafted under a's lease
        holder = "%s:%d " % (os.uname().nodename, a.proc.pid)
        wait_for("b sees a's lease", lambda: [
            x for x in b.status()["journal"]["drafting"]
            if x["repo"] == WIDGET and
            x.get("lease", "").startswith(holder)])
        rc, out, err = b.ctl("status")
        self.assertEqual(rc, 0, err)
        self.assertIn("drafting %s under the lease of %s"
                      % (WIDGET, holder), out)
        self.assertRegex(out, r"journal: redis 127\.0\.0\.1:\d+/0, "
                         r"stream hookcast:journal of 4 entries")
        a.kill()
        ht.crashed_on_purpose(a.proc.pid)
        self.flush.join(30)
        model.mode = "faithful"
        model.release.set()
        # b takes the lapsed lease (2 s) and tells the day
        b.wait_log(r"let its lease lapse; drafting it here", timeout=60)
        b.wait_log(r"emitted %s episode" % WIDGET, timeout=120)
        self.assertEqual(len(records(redis, "e")), 1)
        files = episode_files(a, b)
        self.assertEqual(len(files.get(WIDGET, [])), 1, files)
        self.assertTrue(files[WIDGET][0].startswith(b.output_dir))
        # a restarted reads the day told: it drafts nothing again
        a.start()
        time.sleep(3)
        self.assertEqual(len(records(redis, "e")), 1)
        self.assertNotRegex(a.log(), r"emitted ")
        self.assertFalse(a.repo_stats(WIDGET)["drafting"])

    def test_stalled_holder_is_fenced(self):
        a, b, redis, model = self.a, self.b, self.redis, self.model
        # a stalls past its lease: b tells the day
        a.send_signal(signal.SIGSTOP)
        try:
            model.mode = "faithful"
            b.wait_log(r"let its lease lapse; drafting it here", timeout=60)
            b.wait_log(r"emitted %s episode" % WIDGET, timeout=120)
            model.release.set()
        finally:
            a.send_signal(signal.SIGCONT)
        self.flush.join(30)
        # a wakes, finishes its draft, and its record is refused
        a.wait_log(r"redis: (%s: its lease passed to another receiver|"
                   r"the lease of %s was lost)" % (WIDGET, WIDGET),
                   timeout=60)
        time.sleep(1)
        self.assertEqual(len(records(redis, "e")), 1)
        outcomes = [f["o"] for _, f in redis.entries()
                    if json.loads(f["r"])["t"] == "e"]
        self.assertEqual(outcomes, ["%s:%d" % (os.uname().nodename,
                                               b.proc.pid)])

    @staticmethod
    def _flush(d):
        try:
            d.control("flush", timeout=20)
        except (OSError, AssertionError):
            pass


class ScheduledRace(unittest.TestCase):
    def test_both_timers_fire_one_tells(self):
        """Both receivers' timers fire at the hour: each repository's day
        is told once, and a show's repositories are all handed off by one
        receiver, which tells the show whole."""
        env = ht.faketime_env("2026-12-05 09:59:45")
        if env is None:
            self.fail("libfaketime is not installed")
        tmp = ht.make_tmpdir()
        self.addCleanup(shutil.rmtree, tmp, True)
        conf = os.path.join(tmp, "hookcast.conf")
        with open(conf, "w") as f:
            f.write('[show "Gizmos"]\nrepositories = hookcast-test/*\n')
        with redis_server.RedisServer() as redis:
            opts = {"journal": redis.url, "redis-lease": "2",
                    "emit-at": "10:00"}
            with ht.Daemon(options=opts, env=env,
                           extra_args=["--config", conf]) as a, \
                    ht.Daemon(options=opts, env=env,
                              extra_args=["--config", conf]) as b:
                for n in range(3):
                    self.assertEqual(a.post(one_commit_push(WIDGET, n),
                                            "push")[0], 200)
                    self.assertEqual(b.post(one_commit_push(GADGET, n),
                                            "push")[0], 200)
                    self.assertEqual(b.post(one_commit_push(SOLO, n),
                                            "push")[0], 200)
                for d in (a, b):
                    d.wait_log(r"scheduled emission", timeout=60)
                for d in (a, b):
                    wait_for("the days done", lambda d=d: all(
                        r["commits"] == 0 and not r["drafting"]
                        for r in d.status()["repos"]), timeout=60)
                files = episode_files(a, b)
                self.assertEqual(sorted(files), sorted([
                    GADGET, WIDGET, SOLO, "shows/gizmos"]))
                self.assertTrue(all(len(v) == 1 for v in files.values()),
                                files)
                with open(files["shows/gizmos"][0]) as f:
                    self.assertEqual(json.load(f)["stats"]["commits"], 6)
                # the days told stay in the stream for redis_keep (an
                # hour) on Redis's clock, though the receivers' clocks run
                # a day ahead of it: past a few looks for what to trim
                time.sleep(2)
                handoffs = {}
                for _, f in redis.entries():
                    rec = json.loads(f["r"])
                    if rec["t"] == "h":
                        handoffs[rec["repo"]] = f["o"]
                self.assertEqual(sorted(handoffs), sorted([GADGET, WIDGET,
                                                           SOLO]))
                self.assertEqual(handoffs[WIDGET], handoffs[GADGET])
                self.assertEqual(sorted(r["repo"] for r in
                                        records(redis, "e")),
                                 sorted([GADGET, WIDGET, SOLO]))
                # the other receiver's timer found each day claimed, or
                # already handed off (read from the stream): none drafted
                # twice
                emitted = (a.log() + b.log()).count("emitted ")
                self.assertEqual(emitted, 4)


    def test_show_claimed_as_one(self):
        """A show's repositories are claimed as one: the show claimed by
        another receiver, none of its days is handed off here, while a
        repository of no show is."""
        env = ht.faketime_env("2026-12-05 09:59:50")
        if env is None:
            self.fail("libfaketime is not installed")
        tmp = ht.make_tmpdir()
        self.addCleanup(shutil.rmtree, tmp, True)
        conf = os.path.join(tmp, "hookcast.conf")
        with open(conf, "w") as f:
            f.write('[show "Gizmos"]\nrepositories = hookcast-test/*\n')
        at = calendar.timegm((2026, 12, 5, 10, 0, 0))
        with redis_server.RedisServer() as redis:
            redis.cmd("SET", "hookcast:emit:show:gizmos:%d" % at,
                      "elsewhere:1")
            opts = {"journal": redis.url, "emit-at": "10:00"}
            with ht.Daemon(options=opts, env=env,
                           extra_args=["--config", conf]) as a:
                for repo in (WIDGET, GADGET, SOLO):
                    self.assertEqual(a.post(one_commit_push(repo, 0),
                                            "push")[0], 200)
                a.wait_log(r"scheduled emission", timeout=60)
                a.wait_log(r"emitted %s episode" % SOLO, timeout=60)
                self.assertEqual([r["repo"] for r in records(redis, "h")],
                                 [SOLO])
                for repo in (WIDGET, GADGET):
                    self.assertIn("emit %s: another receiver tells it"
                                  % repo, a.log())
                    self.assertEqual(a.repo_stats(repo)["commits"], 1)


@unittest.skipIf(UNDER_VALGRIND, "20 restarts and 2,000 deliveries take "
                 "too long under valgrind (release and ASan run it)")
class KillStorm(unittest.TestCase):
    TOTAL = 2000
    SENDERS = 4
    KILLS = 20

    def test_two_receivers_killed_twenty_times(self):
        with redis_server.RedisServer() as redis, \
                receiver(redis) as a, receiver(redis) as b:
            receivers = [a, b]
            lock = threading.Lock()
            queue = [(n, "storm-%d" % n, (WIDGET, GADGET)[n % 2])
                     for n in range(self.TOTAL)]
            done = set()
            stats = {"2xx": 0, "refused": 0, "duplicates": 0}
            restarting = [threading.Lock(), threading.Lock()]

            def sender(k):
                turn = k
                while True:
                    with lock:
                        if not queue:
                            return
                        item = queue.pop(0)
                    n, guid, repo = item
                    turn += 1
                    i = turn % 2
                    d = receivers[i]
                    try:
                        with restarting[i]:
                            port = d.port
                        conn = ht.http.client.HTTPConnection(
                            "127.0.0.1", port, timeout=10)
                        body = one_commit_push(repo, n)
                        conn.request("POST", "/webhook", body,
                                     d.headers_for(body, "push", guid))
                        resp = conn.getresponse()
                        reply = resp.read()
                        conn.close()
                        status = resp.status
                    except OSError:
                        status = None
                    with lock:
                        if status == 200:
                            stats["2xx"] += 1
                            if json.loads(reply).get("duplicate"):
                                stats["duplicates"] += 1
                            done.add(n)
                        else:
                            # redelivered later, to either receiver
                            stats["refused"] += 1
                            queue.append(item)

            rng = random.Random(32)

            def killer():
                for _ in range(self.KILLS):
                    time.sleep(rng.uniform(0.05, 0.4))
                    i = rng.randrange(2)
                    d = receivers[i]
                    with restarting[i]:
                        d.kill()
                        d.start()

            threads = [threading.Thread(target=sender, args=(k,))
                       for k in range(self.SENDERS)]
            threads.append(threading.Thread(target=killer))
            for t in threads:
                t.start()
            for t in threads:
                t.join(600)
            self.assertEqual(len(done), self.TOTAL)
            sys.stderr.write("kill storm: %d deliveries, %d kills, %d 2xx "
                             "(%d duplicates), %d refused and redelivered\n"
                             % (self.TOTAL, self.KILLS, stats["2xx"],
                                stats["duplicates"], stats["refused"]))
            half = self.TOTAL // 2
            for d in receivers:
                wait_for("every commit on both", lambda d=d: (
                    d.repo_stats(WIDGET)["commits"] == half and
                    d.repo_stats(GADGET)["commits"] == half), timeout=60)
            self.assertEqual(len(records(redis, "d")), self.TOTAL)
            reply = b.control("flush", timeout=300)
            self.assertTrue(reply.get("ok"), reply)
            files = episode_files(a, b)
            self.assertEqual(sorted(files), [GADGET, WIDGET])
            for repo in (WIDGET, GADGET):
                self.assertEqual(len(files[repo]), 1, files)
                with open(files[repo][0]) as f:
                    self.assertEqual(json.load(f)["stats"]["commits"], half)
            wait_for("a's days done", lambda: all(
                r["commits"] == 0 and not r["drafting"]
                for r in a.status()["repos"]))


if __name__ == "__main__":
    unittest.main()
