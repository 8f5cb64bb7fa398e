#!/usr/bin/env python3
"""A repository whose draft fails takes no other repository's episode
with it, and a day whose draft keeps failing is told in brief.

Two repositories are flushed together; the first one's drafting process
is caught and made to fail as a poison day makes it fail, whatever the
drafter's code: held (SIGSTOP, as a draft stuck in a slow loop) past
draft_timeout, or crashed (SIGSEGV). Whichever the drafter's algorithms
become, a process that stalls or dies is the failure this guards against.

- the other repository gets its episode; the failed one's day is kept;
  the failure is logged and counted by repository in /metrics;
- after two failures in a row (a restart in between: the count is kept
  in the state directory) the third flush tells the day in brief: the
  counts, the reverts, the top stories and "N more changes", counted in
  hookcast_episodes_reduced_total; the next day is told in full again;
- the drafting process has an oom_score_adj of 1000: out of memory, the
  kernel kills it rather than the daemon.
"""

import glob
import json
import os
import signal
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hookcast_test as ht  # noqa: E402
import test_drafter as td  # noqa: E402
import test_hookcast_draft as thd  # noqa: E402
import test_audio as ta  # noqa: E402
import schema_check  # noqa: E402

POISON = "hookcast-test/poison"
HEALTHY = "hookcast-test/healthy"
# the poison day: big enough that its drafting process is caught before
# it is done (test_drafter's reasoning)
POISON_COMMITS = td.DAY_COMMITS
REVERTS = 4
# the thousands of a count, as the transcript says them
THOUSANDS = ("", "one", "two", "three", "four", "five", "six", "seven",
             "eight", "nine")
HEALTHY_COMMITS = 6


def post(d, repo, n, reverts=0, start=0):
    """n commits to repo, the last reverts of them reverting the first."""
    commits = []
    for i in range(n):
        commits.append(ht.make_commit(
            message="Change %d of %s\n" % (start + i, repo), repo=repo))
    for i in range(reverts):
        c = commits[i]
        commits[n - reverts + i] = ht.make_commit(
            message='Revert "%s"\n\nThis reverts commit %s.\n'
            % (c["message"].strip(), c["id"]), repo=repo)
    # a few commits touch more files: the top stories
    for i, c in enumerate(commits[10:13]):
        c["modified"] = ["src/big%d/f%d.c" % (i, k) for k in range(20 + i)]
    for k in range(0, n, td.PER_PUSH):
        status, reply = d.post_payload(
            ht.make_push(commits[k:k + td.PER_PUSH], repo=repo))
        if status != 200:
            raise AssertionError("push: %s %r" % (status, reply))
    return commits


def episodes(d, repo):
    return sorted(f for f in glob.glob(os.path.join(d.output_dir, repo,
                                                    "*.json"))
                  if not f.endswith("-recap.json"))


def labelled(d, name, repo):
    """The value of name{repo="repo"} in /metrics, or None."""
    _, _, body = d.request("GET", "/metrics")
    want = '%s{repo="%s"} ' % (name, repo)
    for line in body.decode().splitlines():
        if line.startswith(want):
            return float(line.split()[-1])
    return None


def fail_first_draft(d, how):
    """Flush every repository, and make the first drafting process fail:
    'hold' stops it until draft_timeout kills it, 'crash' kills it with
    SIGSEGV. The flush's reply."""
    flusher = td.Client(d.socket_path)
    before = td.children(d.proc.pid)
    flusher.send("flush")
    child = td.catch_child(d, before)
    if how == "crash":
        os.kill(child, signal.SIGSEGV)
        os.kill(child, signal.SIGCONT)
    reply = flusher.reply(td.DRAFT_WAIT)
    flusher.close()
    if how == "crash":
        ht.crashed_on_purpose(child)
    return reply


class Isolation(unittest.TestCase):
    def run_case(self, case):
        tmp = ht.make_tmpdir()
        conf = os.path.join(tmp, "hookcast.conf")
        with open(conf, "w") as f:
            f.write("draft_timeout = %d\n" % td.DRAFT_TIMEOUT)
        try:
            case(tmp, conf)
        finally:
            ht.shutil.rmtree(tmp, ignore_errors=True)

    def check_alone(self, how):
        def case(tmp, conf):
            with ht.Daemon(tmp=tmp, extra_args=["--config=" + conf]) as d:
                post(d, POISON, POISON_COMMITS)
                post(d, HEALTHY, HEALTHY_COMMITS)
                reply = fail_first_draft(d, how)
                self.assertFalse(reply.get("ok"), reply)
                self.assertIn(POISON, reply["error"])
                # the healthy repository got its episode, whole
                files = episodes(d, HEALTHY)
                self.assertEqual(len(files), 1, "no episode for the "
                                 "healthy repository; log:\n%s"
                                 % d.log_tail())
                with open(files[0]) as f:
                    self.assertEqual(json.load(f)["stats"]["commits"],
                                     HEALTHY_COMMITS)
                self.assertEqual(d.repo_stats(HEALTHY)["commits"], 0)
                # the poison's day is kept, failed alone and counted
                self.assertEqual(episodes(d, POISON), [])
                stats = d.repo_stats(POISON)
                self.assertEqual(stats["commits"], POISON_COMMITS, stats)
                self.assertFalse(stats["drafting"], stats)
                self.assertEqual(labelled(
                    d, "hookcast_draft_failures_total", POISON), 1)
                self.assertIsNone(labelled(
                    d, "hookcast_draft_failures_total", HEALTHY))
                # (a sanitizer's handler turns SIGSEGV into an abort)
                d.wait_log(r"emit %s: .*(draft_timeout|died of signal).*1 "
                           r"failed draft in a row" % POISON)
        self.run_case(case)

    def test_held_draft_fails_alone(self):
        self.check_alone("hold")

    def test_crashed_draft_fails_alone(self):
        self.check_alone("crash")

    def test_drafting_process_is_killed_first_out_of_memory(self):
        with ht.Daemon() as d:
            post(d, POISON, POISON_COMMITS)
            flusher = td.Client(d.socket_path)
            before = td.children(d.proc.pid)
            flusher.send("flush")
            child = td.catch_child(d, before)
            try:
                with open("/proc/%d/oom_score_adj" % child) as f:
                    self.assertEqual(f.read().strip(), "1000")
                with open("/proc/%d/oom_score_adj" % d.proc.pid) as f:
                    self.assertNotEqual(f.read().strip(), "1000")
            finally:
                os.kill(child, signal.SIGCONT)
            reply = flusher.reply(td.DRAFT_WAIT)
            flusher.close()
            self.assertTrue(reply.get("ok"), reply)

    def test_third_draft_after_two_failures_is_told_in_brief(self):
        def case(tmp, conf):
            d = ht.Daemon(tmp=tmp, extra_args=["--config=" + conf])
            try:
                commits = post(d, POISON, POISON_COMMITS, reverts=REVERTS)
                for n in (1, 2):
                    reply = fail_first_draft(d, "crash")
                    self.assertFalse(reply.get("ok"), reply)
                    self.assertEqual(labelled(
                        d, "hookcast_draft_failures_total", POISON), n)
                d.wait_log(r"2 failed drafts in a row: it is told in "
                           r"brief next")
                self.assertEqual(episodes(d, POISON), [])
                # a restart doesn't reset the count
                d.stop()
                d.start()
                self.assertEqual(td.metric(
                    d, "hookcast_episodes_reduced_total"), 0)
                reply = d.control("flush", timeout=td.DRAFT_WAIT)
                self.assertTrue(reply.get("ok"), reply)
                self.assertTrue(reply["episodes"][0].get("reduced"), reply)
                self.assertIn("its last 2 drafts failed", d.log())
                self.assertEqual(td.metric(
                    d, "hookcast_episodes_reduced_total"), 1)
                files = episodes(d, POISON)
                self.assertEqual(len(files), 1, files)
                with open(files[0]) as f:
                    ep = json.load(f)
                # an episode as any other, for the feed, sinks and recaps
                schema_check.check(ep, schema_check.load(ta.SCHEMA))
                self.assertEqual(ep["stats"]["commits"], POISON_COMMITS)
                self.assertEqual(ep["stats"]["reverts"], REVERTS)
                kinds = [s["kind"] for s in ep["segments"]]
                self.assertEqual(kinds, ["opening", "rollbacks",
                                         "highlights", "closing"])
                text = ep["transcript"]
                self.assertIn("in brief", text)
                # 3 reverts named, 5 stories: the rest are "more changes"
                # (the count in words: test_reduced checks the number; the
                # day is smaller under valgrind)
                rest = POISON_COMMITS - 3 - 5
                self.assertRegex(text, r"And %s thousand [a-z -]+ more "
                                 r"changes, not told today\." %
                                 THOUSANDS[rest // 1000])
                # the stories: the commits that touched the most files
                for c in commits[10:13]:
                    self.assertIn(c["message"].strip(), text)
                self.assertIn(commits[-REVERTS]["message"].splitlines()[0]
                              .strip('"').split('"')[0], text)
                # told: the next day is drafted in full again
                post(d, POISON, 3, start=POISON_COMMITS)
                reply = d.control("flush", timeout=td.DRAFT_WAIT)
                self.assertTrue(reply.get("ok"), reply)
                self.assertNotIn("reduced", reply["episodes"][0])
                with open(os.path.join(d.state_dir,
                                       "draft-failures.json")) as f:
                    self.assertEqual(json.load(f), {})
                self.assertEqual(td.metric(
                    d, "hookcast_episodes_reduced_total"), 1)
            finally:
                d.cleanup()
        self.run_case(case)

    def test_hookcast_draft_brief(self):
        """hookcast-draft --brief drafts a day as the daemon tells it in
        brief."""
        tmp = ht.make_tmpdir()
        try:
            commits = [ht.make_commit(message="Change %d\n" % i,
                                      repo=POISON,
                                      timestamp="2026-03-02T10:%02d:00Z"
                                      % i) for i in range(12)]
            thd.write_deliveries(tmp, [("push", ht.make_push(
                commits, repo=POISON), "2026-03-02T11:00:00Z")])
            full = thd.draft(["--timezone", "UTC", tmp])
            brief = thd.draft(["--timezone", "UTC", "--brief", tmp])
            self.assertEqual(brief.returncode, 0, brief.stderr)
            self.assertEqual(full.returncode, 0, full.stderr)
            self.assertIn("And seven more changes, not told today.",
                          brief.stdout)
            self.assertNotIn("more changes, not told", full.stdout)
        finally:
            ht.shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
