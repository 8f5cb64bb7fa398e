"""The journal never refuses at replay what it accepted at append (#9).

A push's branch used to be copied into the journal record once per
commit: a 140 KB branch name and 2,048 commits (a body of ~600 KB) made
a 287 MB record, over what replay reads, so replay cut the journal there
and a later, unrelated delivery that had got its 200 was gone after a
restart.

- A push to a branch longer than 255 bytes is refused with a 400 and a
  reason, and nothing of it is journalled.
- A push of 2,048 commits to a 255-byte branch is accepted and journalled
  in a record about the size of its body.
- A later delivery, acknowledged, survives a SIGKILL and a restart on the
  same state: sent again, it is a duplicate; nothing is cut at replay.
"""

import os
import shutil
import unittest
import uuid

import hookcast_test as ht

REPO = "hookcast-test/bounds"
OTHER = "hookcast-test/bystander"
COMMITS = 2048


def big_push(branch):
    """A push of COMMITS one-line commits to branch: (guid, body)."""
    commits = [ht.make_commit(message="step %d" % i, repo=REPO)
               for i in range(COMMITS)]
    for c in commits:
        # the smallest commit GitHub sends: what a record keeps per commit
        c["added"] = c["removed"] = c["modified"] = []
    return str(uuid.uuid4()), ht.body_of(
        ht.make_push(commits=commits, repo=REPO, branch=branch,
                     default_branch=branch))


class TestJournalBounds(unittest.TestCase):

    def journal_size(self, d):
        return os.path.getsize(os.path.join(d.state_dir, "journal"))

    def test_huge_branch_and_a_later_delivery_across_a_restart(self):
        tmp = ht.make_tmpdir()
        d = None
        try:
            d = ht.Daemon(tmp=tmp, options={"journal-fsync": "batch"})
            size0 = self.journal_size(d)

            # 140 KB of branch name: refused, or at least stored compactly
            huge_guid, huge = big_push("b" * 140000)
            huge_status, huge_reply = d.post(huge, "push",
                                             delivery=huge_guid)
            huge_grown = self.journal_size(d) - size0

            # one byte over the cap (checked at the end)
            over_status, over_reply = d.post_payload(
                ht.make_push(repo=REPO, branch="b" * 256,
                             default_branch="b" * 256))

            # 255 bytes is a branch like any other, kept once per push
            size1 = self.journal_size(d)
            legal_guid, legal = big_push("b" * 255)
            status, reply = d.post(legal, "push", delivery=legal_guid)
            self.assertEqual(status, 200, reply)
            self.assertEqual(reply.get("commits"), COMMITS, reply)
            grown = self.journal_size(d) - size1
            self.assertLess(grown, 2 * len(legal),
                            "a %d-byte body made a %d-byte journal record"
                            % (len(legal), grown))

            # a later, unrelated delivery, acknowledged
            later = ht.make_push(repo=OTHER)
            later_guid = str(uuid.uuid4())
            status, reply = d.post_payload(later, delivery=later_guid)
            self.assertEqual(status, 200, reply)
            size2 = self.journal_size(d)

            d.kill()
            d.cleanup()
            d = ht.Daemon(tmp=tmp)
            log = d.log()
            self.assertNotIn("cutting off", log)
            self.assertEqual(self.journal_size(d), size2,
                             "replay changed the journal")

            # what got a 200 is still known: a redelivery is a duplicate
            status, reply = d.post_payload(later, delivery=later_guid)
            self.assertEqual(status, 200, reply)
            self.assertIs(reply.get("duplicate"), True,
                          "acknowledged delivery lost at restart: %r"
                          % (reply,))
            self.assertEqual(d.repo_stats(OTHER).get("commits"), 1)
            status, reply = d.post(legal, "push", delivery=legal_guid)
            self.assertEqual(status, 200, reply)
            self.assertIs(reply.get("duplicate"), True, reply)
            self.assertEqual(d.repo_stats(REPO).get("commits"), COMMITS)

            # the huge branch: refused with its reason, before any 2xx
            self.assertLess(huge_grown, 2 * len(huge),
                            "a %d-byte body made a %d-byte journal record"
                            % (len(huge), huge_grown))
            self.assertEqual(huge_status, 400, huge_reply)
            self.assertIn("branch name longer than 255 bytes",
                          huge_reply.get("error", ""))
            status, reply = d.post(huge, "push", delivery=huge_guid)
            self.assertEqual(status, 400, reply)
            # one byte over the cap is refused too, with its reason
            self.assertEqual(over_status, 400, over_reply)
            self.assertIn("branch name longer than 255 bytes",
                          over_reply.get("error", ""))
            d.stop()
        except BaseException:
            if d is not None:
                d.cleanup(failed=True)
            raise
        finally:
            if d is not None:
                d.cleanup()
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
