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
# the lead-ins episode/tell.c puts before the changes it tells
LEAD_INS = ["Top of the list today:", "The headline change comes first:",
            "Leading the highlights,", "Next,", "Also worth knowing:",
            "Then,", "Meanwhile,", "On top of that,", "Elsewhere,",
            "On the fixes side,", "Now for the fixes.",
            "A few things got fixed, too.", "As for fixes,",
            "Some repairs, too.", "Release news first:",
            "First, the releases:", "The releases lead the day:",
            "Smaller changes rounded it out:", "The smaller changes:",
            "A few smaller changes, too:", "And the smaller fixes:",
            "Smaller fixes, too:", "The other fixes:"]


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

    def day(self, n, features=()):
        """Day n of July 2026: two fixes (and the features given) pushed
        and flushed; the episode's segments."""
        when = "2026-07-%02d 12:00:00" % n
        opts = {"state-dir": os.path.join(self.tmp, "state-%d" % n),
                "output-dir": os.path.join(self.tmp, "episodes"),
                "emit-at": "10:00"}
        whats = [("fix", "close the file on error %d" % n),
                 ("fix", "handle an empty header %d" % n)]
        whats += [("feat", what % n) for what in features]
        commits = [ht.make_commit(
            message="%s: %s\n" % kind_what, name="Alice Liddell",
            username="alice", email="alice@example.com",
            timestamp="2026-07-%02dT12:%02d:00Z" % (n, i), repo=REPO)
            for i, kind_what in enumerate(whats)]
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
        return ep["segments"]

    def closing(self, n):
        return [s["text"] for s in self.day(n)
                if s["kind"] == "closing"][0]

    def test_week(self):
        closings = [self.closing(n) for n in range(1, 8)]
        said = [STOCK in c for c in closings]
        # the first day says it: the line is there to be rotated
        self.assertTrue(said[0], closings[0])
        self.assertLessEqual(sum(said), 2, closings)
        # the day's count is a fact, not a stock phrase: said every day
        for c in closings:
            self.assertIn("Two fixes today", c)

    def test_lead_ins_week(self):
        """Five changes a day, each with a lead-in to hand: no lead-in
        on more than two days of the week, and every change still
        told."""
        features = ["add a --color flag to the parser %d",
                    "add a streaming reader for large files %d",
                    "add a timeout option for slow inputs %d"]
        texts = []
        for n in range(1, 8):
            segs = self.day(n, features)
            text = "\n".join(s["text"] for s in segs
                             if s["kind"] in ("highlights", "fixes"))
            for what in ["close the file on error %d" % n,
                         "handle an empty header %d" % n] + \
                    [f % n for f in features]:
                # each change is told, with or without a lead-in
                self.assertIn(what.split(" ", 1)[1], text)
            texts.append(text)
        said = {lead: sum(lead in t for t in texts) for lead in LEAD_INS}
        # the lead-ins are there to be rotated: the first day has some
        self.assertTrue(any(lead in texts[0] for lead in LEAD_INS),
                        texts[0])
        for lead, days in said.items():
            self.assertLessEqual(days, 2, (lead, texts))


if __name__ == "__main__":
    unittest.main(verbosity=2)
