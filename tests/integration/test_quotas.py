"""Nothing one sender controls grows without a configured bound.

- Repositories: past max_repositories a delivery for a new repository is
  refused (429, JSON reason), logged once per repository and counted in
  /metrics; one outside the `repositories` allow-list is refused (403).
- Days: past max_commits_per_day or max_deliveries_per_day a
  repository's deliveries are refused (429) until its next emission;
  nothing refused was journalled, so nothing acknowledged is ever cut.
- Bytes: past max_open_bytes (all repositories' open days together, as
  estimated from what they keep) deliveries are refused (429) until an
  emission gives bytes back; the count survives a restart (replay counts
  what it puts back in the days).
- The seen set stops at max_seen (the oldest forgotten, and logged);
  /metrics shows its size.
- Retention: an emission removes the repository's episodes older than
  episode_retention_days (.md, .json and same-named siblings) and the
  feed no longer lists them.
- Free space: below min_free_space on output_dir the emission fails with
  a clear log line and the day is kept for the next one (root: a tmpfs).
- A pull_request body past max_body_pull_request is refused at the head.
"""

import datetime
import http.client
import json
import os
import re
import shutil
import subprocess
import time
import unittest
import uuid

import hookcast_test as ht

REPO = "hookcast-test/widget"


def metric(d, name):
    """The value of a /metrics sample (name with its labels), or None."""
    status, _, data = d.request("GET", "/metrics")
    assert status == 200, status
    m = re.search(r"^%s (\d+)$" % re.escape(name), data.decode(), re.M)
    return int(m.group(1)) if m else None


def push(d, repo, ncommits=1):
    commits = [ht.make_commit(repo=repo) for _ in range(ncommits)]
    return d.post_payload(ht.make_push(commits=commits, repo=repo))


class TestRepositories(unittest.TestCase):

    def test_cap(self):
        with ht.Daemon(options={"max-repositories": "3"}) as d:
            for i in range(3):
                status, reply = push(d, "cap/r%d" % i)
                self.assertEqual(status, 200, reply)
            for i in range(3, 6):
                status, reply = push(d, "cap/r%d" % i)
                self.assertEqual(status, 429, reply)
                self.assertIs(reply.get("ok"), False)
                self.assertIn("max_repositories", reply.get("error", ""))
            # the same refused repository again: counted, not logged again
            status, reply = push(d, "cap/r3")
            self.assertEqual(status, 429, reply)
            # an open repository still takes deliveries, in any case
            status, reply = push(d, "CAP/R1")
            self.assertEqual(status, 200, reply)
            self.assertEqual(metric(
                d, 'hookcast_quota_refusals_total{reason="repositories"}'),
                4)
            self.assertEqual(metric(d, "hookcast_repositories"), 3)
            log = d.log()
            self.assertEqual(len(re.findall(r"cap/r3: refusing", log)), 1,
                             log)
            self.assertIn("cap/r5: refusing", log)
            self.assertNotIn("cap/r4", [r["repo"] for r in
                                        d.status()["repos"]])
            self.assertEqual(d.deliveries()["rejected"], 4)
            d.stop()

    def test_allow_list(self):
        with ht.Daemon(options={
                "repositories": "hookcast-test/*, other/one"}) as d:
            self.assertEqual(push(d, REPO)[0], 200)
            self.assertEqual(push(d, "Other/One")[0], 200)
            status, reply = push(d, "other/two")
            self.assertEqual(status, 403, reply)
            self.assertIn("repositories", reply.get("error", ""))
            status, reply = push(d, "intruder/widget")
            self.assertEqual(status, 403, reply)
            self.assertEqual(metric(
                d, 'hookcast_quota_refusals_total{reason="not_allowed"}'),
                2)
            self.assertIn("other/two: refusing its deliveries: not one of "
                          "the configured repositories", d.log())
            self.assertEqual(d.repo_stats("other/two")["commits"], 0)
            d.stop()

    def test_bad_allow_list_refused(self):
        p = ht.run_daemon(["--check-config", "--insecure-no-signature",
                           "--repositories=widget"])
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("'widget' is not owner/name", p.stderr)


class TestDayCaps(unittest.TestCase):

    def test_commits_and_deliveries(self):
        with ht.Daemon(options={"max-commits-per-day": "5",
                                "max-deliveries-per-day": "4"}) as d:
            self.assertEqual(push(d, REPO, 3)[0], 200)
            status, reply = push(d, REPO, 3)
            self.assertEqual(status, 429, reply)
            self.assertIn("max_commits_per_day", reply.get("error", ""))
            self.assertEqual(push(d, REPO, 2)[0], 200)    # 5: at the cap
            self.assertEqual(push(d, REPO, 1)[0], 429)
            self.assertEqual(push(d, REPO, 0)[0], 200)    # 3 deliveries
            self.assertEqual(push(d, REPO, 0)[0], 200)    # 4
            status, reply = push(d, REPO, 0)
            self.assertEqual(status, 429, reply)
            self.assertEqual(d.repo_stats(REPO)["commits"], 5)
            self.assertEqual(metric(
                d, 'hookcast_quota_refusals_total{reason="commits_per_day"}'),
                2)
            self.assertEqual(metric(
                d,
                'hookcast_quota_refusals_total{reason="deliveries_per_day"}'),
                1)
            log = d.log()
            self.assertEqual(log.count("max_commits_per_day 5"), 1, log)
            # an emission starts a new day, which takes commits again
            reply = d.control("flush " + REPO)
            self.assertTrue(reply.get("ok"), reply)
            self.assertEqual(push(d, REPO, 3)[0], 200)
            d.stop()


def files_push(d, repo, nfiles=2000):
    """A push of one commit that adds nfiles 100-byte file names."""
    c = ht.make_commit(repo=repo)
    c["added"] = ["%s/%096d" % ("src", i) for i in range(nfiles)]
    return d.post_payload(ht.make_push(commits=[c], repo=repo))


def wait_metric(d, name, want, timeout=20):
    deadline = time.monotonic() + timeout
    while True:
        got = metric(d, name)
        if got == want or time.monotonic() > deadline:
            return got
        time.sleep(0.05)


class TestOpenBytes(unittest.TestCase):

    def test_bound_flush_and_restart(self):
        opts = {"max-open-bytes": "1M"}
        refused = 'hookcast_quota_refusals_total{reason="open_bytes"}'
        tmp = ht.make_tmpdir()
        try:
            with ht.Daemon(tmp=tmp, options=opts) as d:
                self.assertEqual(metric(d, "hookcast_open_bytes"), 0)
                self.assertEqual(files_push(d, REPO)[0], 200)
                per = metric(d, "hookcast_open_bytes")
                # 2000 names of 100 bytes: each counted with its overhead
                self.assertGreater(per, 2000 * 100)
                self.assertLess(per, 2000 * 160)
                fit = (1024 * 1024) // per
                for _ in range(fit - 1):
                    self.assertEqual(files_push(d, REPO)[0], 200)
                held = metric(d, "hookcast_open_bytes")
                # (messages differ by a digit or two, and the pushes after
                # the first share the day's branch and pusher names)
                self.assertLessEqual(held, fit * per + fit * 8)
                self.assertGreater(held, fit * per - fit * 80)
                self.assertLessEqual(held, 1024 * 1024)
                self.assertGreater(held + per, 1024 * 1024)
                status, reply = files_push(d, REPO)
                self.assertEqual(status, 429, reply)
                self.assertIs(reply.get("ok"), False)
                self.assertIn("max_open_bytes", reply.get("error", ""))
                # the bound is over all repositories; refused twice, one
                # log line per repository
                self.assertEqual(files_push(d, "hookcast-test/other")[0],
                                 429)
                self.assertEqual(files_push(d, REPO)[0], 429)
                self.assertEqual(metric(d, refused), 3)
                self.assertEqual(metric(d, "hookcast_open_bytes"), held)
                log = d.log()
                self.assertEqual(log.count(
                    "%s: refusing deliveries that would take the open days "
                    "past max_open_bytes 1048576" % REPO), 1, log)
                self.assertIn("hookcast-test/other: refusing deliveries",
                              log)
                self.assertEqual(d.repo_stats(REPO)["commits"], fit)
                d.stop()
            # the journal's replay counts the same bytes
            with ht.Daemon(tmp=tmp, options=opts) as d:
                self.assertEqual(metric(d, "hookcast_open_bytes"), held)
                status, reply = files_push(d, REPO)
                self.assertEqual(status, 429, reply)
                self.assertIn("max_open_bytes", reply.get("error", ""))
                # an emission gives the bytes back
                reply = d.control("flush " + REPO)
                self.assertTrue(reply.get("ok"), reply)
                self.assertEqual(wait_metric(d, "hookcast_open_bytes", 0), 0)
                for _ in range(fit):
                    self.assertEqual(files_push(d, REPO)[0], 200)
                self.assertEqual(files_push(d, REPO)[0], 429)
                d.stop()
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


class TestSeenBound(unittest.TestCase):

    def test_seen_set_stops_growing(self):
        with ht.Daemon(options={"max-seen": "1000",
                                "max-deliveries-per-day": "5000",
                                "log-level": "info"}) as d:
            conn = d.connection()
            for i in range(1200):
                body = ht.body_of(ht.make_push(commits=[], repo=REPO))
                conn.request("POST", "/webhook", body=body,
                             headers=d.headers_for(body, "push"))
                resp = conn.getresponse()
                resp.read()
                self.assertEqual(resp.status, 200)
                if resp.getheader("Connection", "").lower() == "close":
                    conn.close()
                    conn = d.connection()
                if i == 500:
                    self.assertEqual(metric(d, "hookcast_seen_deliveries"),
                                     501)
            conn.close()
            seen = metric(d, "hookcast_seen_deliveries")
            self.assertIsNotNone(seen, "no hookcast_seen_deliveries")
            self.assertLessEqual(seen, 1000)
            self.assertGreaterEqual(seen, 1000 - 1000 // 8)
            self.assertIn("seen set at its bound of 1000", d.log())
            d.stop()


def write_episode(folder, name, date):
    """A minimal archived episode (and its siblings) in folder."""
    os.makedirs(folder, exist_ok=True)
    ep = {"title": "The day of %s" % name, "date": date,
          "description": "An old day.", "published": date + "T10:00:00Z",
          "duration_seconds": 60,
          "window": {"start": date + "T10:00:00Z",
                     "end": date + "T10:00:00Z"}}
    with open(os.path.join(folder, name + ".json"), "w") as f:
        json.dump(ep, f)
    for ext in ("md", "mp3", "vtt"):
        with open(os.path.join(folder, name + "." + ext), "w") as f:
            f.write("x\n")


class TestRetention(unittest.TestCase):

    def test_old_episodes_removed_and_dropped_from_feed(self):
        tmp = ht.make_tmpdir()
        try:
            folder = os.path.join(tmp, "episodes", REPO)
            today = datetime.datetime.now(datetime.timezone.utc).date()
            old = (today - datetime.timedelta(days=40)).isoformat()
            older = (today - datetime.timedelta(days=400)).isoformat()
            recent = (today - datetime.timedelta(days=5)).isoformat()
            write_episode(folder, old, old)
            write_episode(folder, older + "-2", older)
            write_episode(folder, recent, recent)
            with ht.Daemon(tmp=tmp, options={
                    "episode-retention-days": "30"}) as d:
                self.assertEqual(push(d, REPO)[0], 200)
                reply = d.control("flush " + REPO)
                self.assertTrue(reply.get("ok"), reply)
                left = sorted(os.listdir(folder))
                for gone in (old, older + "-2"):
                    for ext in ("json", "md", "mp3", "vtt"):
                        self.assertNotIn(gone + "." + ext, left)
                for ext in ("json", "md", "mp3", "vtt"):
                    self.assertIn(recent + "." + ext, left)
                with open(os.path.join(folder, "feed.xml")) as f:
                    feed = f.read()
                self.assertNotIn(old, feed)
                self.assertNotIn(older, feed)
                self.assertIn("The day of " + recent, feed)
                self.assertIn(reply["episodes"][0]["title"], feed)
                self.assertRegex(d.log(), r"removed 8 file\(s\) of episodes")
                d.stop()
            # 0 keeps everything
            write_episode(folder, old, old)
            with ht.Daemon(tmp=tmp, options={
                    "episode-retention-days": "0"}) as d:
                self.assertEqual(push(d, REPO)[0], 200)
                self.assertTrue(d.control("flush " + REPO).get("ok"))
                self.assertIn(old + ".json", os.listdir(folder))
                d.stop()
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


class TestFreeSpace(unittest.TestCase):

    def setUp(self):
        if os.geteuid() != 0:
            self.skipTest("free-space test needs root to mount a tmpfs")
        self.tmp = ht.make_tmpdir()
        self.mnt = os.path.join(self.tmp, "small")
        os.mkdir(self.mnt)
        p = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m",
                            "tmpfs", self.mnt], capture_output=True, text=True)
        if p.returncode != 0:
            shutil.rmtree(self.tmp, ignore_errors=True)
            self.skipTest("cannot mount a tmpfs here: " + p.stderr.strip())

    def tearDown(self):
        subprocess.run(["umount", "-l", self.mnt], capture_output=True)
        shutil.rmtree(self.tmp, ignore_errors=True)

    def test_low_space_keeps_the_day(self):
        out = os.path.join(self.mnt, "episodes")
        with ht.Daemon(tmp=self.tmp, options={
                "output-dir": out, "min-free-space": "2M"}) as d:
            self.assertEqual(push(d, REPO, 2)[0], 200)
            filler = os.path.join(self.mnt, "filler")
            with open(filler, "wb") as f:
                f.write(b"\0" * (3 * 1024 * 1024))
            reply = d.control("flush " + REPO)
            self.assertIs(reply.get("ok"), False, reply)
            self.assertIn("min_free_space", json.dumps(reply))
            self.assertRegex(d.log(), r"emit %s: .*less than "
                             r"min_free_space" % REPO)
            self.assertFalse(os.path.exists(os.path.join(out, REPO)) and
                             any(n.endswith(".md") for n in
                                 os.listdir(os.path.join(out, REPO))))
            # the day is kept for the next emission
            self.assertEqual(d.repo_stats(REPO)["commits"], 2)
            os.unlink(filler)
            reply = d.control("flush " + REPO)
            self.assertTrue(reply.get("ok"), reply)
            with open(reply["episodes"][0]["json"]) as f:
                self.assertEqual(json.load(f)["stats"]["commits"], 2)
            d.stop()


class TestPullRequestBody(unittest.TestCase):

    def test_large_pull_request_refused_at_head(self):
        with ht.Daemon(options={"max-body-pull-request": "1M"}) as d:
            body = b'{"action":"closed","pad":"' + b"x" * (1536 * 1024) + \
                b'"}'
            status, reply = d.post(body, "pull_request")
            self.assertEqual(status, 413, reply)
            self.assertIn("max_body_pull_request", reply.get("error", ""))
            # a push of that size is still taken (max_body is 25M)
            c = ht.make_commit(repo=REPO, message="big\n\n" + "y" * 1536 *
                               1024)
            status, reply = d.post_payload(ht.make_push(commits=[c],
                                                        repo=REPO))
            self.assertEqual(status, 200, reply)
            # an ordinary pull_request still gets through
            for name, meta, b in ht.corpus_deliveries("ao-2026-02-12"):
                if meta["event"] == "pull_request":
                    status, reply = d.post(b, "pull_request",
                                           delivery=meta["delivery"])
                    self.assertIn(status, (200, 202), reply)
                    break
            d.stop()


if __name__ == "__main__":
    unittest.main()
