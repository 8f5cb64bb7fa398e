#!/usr/bin/env python3
"""A revert of work an earlier episode told names it from the archive
(issue #10), against the real daemon.

Day 1 (June 1st, 2026, under libfaketime): Alice Liddell's change is
flushed; its episode's JSON lists it in "work" with her name and what it
did. Day 2 (June 2nd): a second daemon on a fresh state directory but the
same output directory gets Bob Ross's revert of it; the episode tells
"Alice Liddell's change from yesterday, which added ..., was rolled back",
not "An earlier change". Both episodes validate against the schema.
"""

import json
import os
import shutil
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hookcast_test as ht  # noqa: E402
import schema_check  # noqa: E402

REPO = "hookcast-test/fetcher"
SCHEMA_PATH = os.path.join(ht.SOURCE_DIR, "doc", "episode.schema.json")
SUBJECT = "Add a retry delay to the fetcher"


def load_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


class EarlierWorkTest(unittest.TestCase):

    def setUp(self):
        if ht.faketime_env("2026-06-01 12:00:00") is None:
            self.skipTest("libfaketime is not installed")
        self.tmp = ht.make_tmpdir()
        self.schema = load_json(SCHEMA_PATH)

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def day(self, when, state, commit):
        """Start a daemon whose clock reads when, on its own state
        directory and the shared output directory; push commit, flush,
        stop. The flushed episode's JSON."""
        # the day opens at the last 10:00, so it is dated when's date
        opts = {"state-dir": os.path.join(self.tmp, state),
                "output-dir": os.path.join(self.tmp, "episodes"),
                "emit-at": "10:00"}
        with ht.Daemon(tmp=self.tmp, options=opts,
                       env=ht.faketime_env(when)) as d:
            status, reply = d.post_payload(ht.make_push(commits=[commit],
                                                        repo=REPO))
            self.assertEqual(status, 200, reply)
            reply = d.control("flush " + REPO)
            self.assertIs(reply.get("ok"), True, reply)
            self.assertEqual(len(reply["episodes"]), 1, reply)
            ep = load_json(reply["episodes"][0]["json"])
            d.stop()
        self.assertEqual(schema_check.validate(ep, self.schema), [])
        return ep

    def test_revert_of_yesterdays_work(self):
        alice = ht.make_commit(
            message=SUBJECT + "\n\nRequests that fail with a 503 are "
            "retried once after a second.\n", name="Alice Liddell",
            username="alice", email="alice@example.com",
            timestamp="2026-06-01T12:00:00Z", repo=REPO)
        first = self.day("2026-06-01 12:00:00", "state-1", alice)
        self.assertEqual(first["date"], "2026-06-01")
        self.assertIn("Alice Liddell", first["transcript"])
        work = {w["sha"]: w for w in first["work"]}
        self.assertIn(alice["id"], work, first["work"])
        self.assertEqual(work[alice["id"]]["name"], "Alice Liddell")
        self.assertIn("retry delay", work[alice["id"]]["what"])
        self.assertIs(work[alice["id"]]["bot"], False)

        revert = ht.make_commit(
            message='Revert "%s"\n\nThis reverts commit %s.\n'
            % (SUBJECT, alice["id"]), name="Bob Ross", username="bross",
            email="bob@example.com", timestamp="2026-06-02T12:00:00Z",
            repo=REPO)
        second = self.day("2026-06-02 12:00:00", "state-2", revert)
        self.assertEqual(second["date"], "2026-06-02")
        told = [s["text"] for s in second["segments"]
                if s["kind"] == "rollbacks"]
        self.assertEqual(len(told), 1, second["segments"])
        self.assertIn("Alice Liddell's change from yesterday, which added "
                      "a retry delay to the fetcher, was rolled back.",
                      told[0])
        self.assertIn("Bob Ross reverted it.", told[0])
        self.assertIn("No reason was given.", told[0])
        self.assertNotIn("An earlier change", second["transcript"])
        # the revert is in day 2's work, with the sha it took out
        work = {w["sha"]: w for w in second["work"]}
        self.assertEqual(work[revert["id"]]["reverts"], alice["id"])
        # both episodes are in the archive, the second lists the first
        self.assertIn("2026-06-01",
                      [n["date"] for n in second["nearby"]])


if __name__ == "__main__":
    unittest.main(verbosity=2)
