#!/usr/bin/env python3
"""A week of one show says no stock phrase on more than two days (issue
#27), against the real daemon.

Seven days (July 1st to 7th, 2026, under libfaketime), each a daemon on
its own state directory and the shared output directory, each given two
fixes: every day's closing would say "Two fixes today, and fewer things
to trip over." The emitter gives each day's drafter what the six days
before said (their transcripts in the archive), so the line is said on
two days of the seven at most, and every day still says its count.
"""

import json
import os
import shutil
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hookcast_test as ht  # noqa: E402

REPO = "hookcast-test/parser"
STOCK = "fewer things to trip over"


def load_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


class StockWeekTest(unittest.TestCase):

    def setUp(self):
        if ht.faketime_env("2026-07-01 12:00:00") is None:
            self.skipTest("libfaketime is not installed")
        self.tmp = ht.make_tmpdir()

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def day(self, n):
        """Day n of July 2026: two fixes pushed and flushed; the
        closing's text."""
        when = "2026-07-%02d 12:00:00" % n
        opts = {"state-dir": os.path.join(self.tmp, "state-%d" % n),
                "output-dir": os.path.join(self.tmp, "episodes"),
                "emit-at": "10:00"}
        commits = [ht.make_commit(
            message="fix: %s\n" % what, name="Alice Liddell",
            username="alice", email="alice@example.com",
            timestamp="2026-07-%02dT12:0%d:00Z" % (n, i), repo=REPO)
            for i, what in enumerate(["close the file on error %d" % n,
                                      "handle an empty header %d" % n])]
        with ht.Daemon(tmp=self.tmp, options=opts,
                       env=ht.faketime_env(when)) as d:
            status, reply = d.post_payload(ht.make_push(commits=commits,
                                                        repo=REPO))
            self.assertEqual(status, 200, reply)
            reply = d.control("flush " + REPO)
            self.assertIs(reply.get("ok"), True, reply)
            self.assertEqual(len(reply["episodes"]), 1, reply)
            ep = load_json(reply["episodes"][0]["json"])
            d.stop()
        self.assertEqual(ep["date"], "2026-07-%02d" % n)
        return [s["text"] for s in ep["segments"]
                if s["kind"] == "closing"][0]

    def test_week(self):
        closings = [self.day(n) for n in range(1, 8)]
        said = [STOCK in c for c in closings]
        # the first day says it: the line is there to be rotated
        self.assertTrue(said[0], closings[0])
        self.assertLessEqual(sum(said), 2, closings)
        # the day's count is a fact, not a stock phrase: said every day
        for c in closings:
            self.assertIn("Two fixes today", c)


if __name__ == "__main__":
    unittest.main(verbosity=2)
