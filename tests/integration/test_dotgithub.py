"""A repository whose name starts with '.' (an organisation's `.github`)
from the push to the episode: intake and emission agree on what a
repository name is, so what intake accepts is flushed and written under
OUTPUT_DIR/OWNER/REPO/ like any other. Names that are not repositories
("." and "..", an owner starting with '.') are refused at intake."""

import os
import shutil
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hookcast_test as ht  # noqa: E402

REPO = "octo-org/.github"


class DotGithubTest(unittest.TestCase):

    def test_push_flush_episode(self):
        with ht.Daemon() as d:
            subject = "profile: say hello to the new contributors"
            commit = ht.make_commit(message=subject + "\n\nA warmer README.",
                                    repo=REPO)
            status, reply = d.post_payload(ht.make_push([commit], repo=REPO))
            self.assertEqual(status, 200, reply)
            self.assertEqual(d.repo_stats(REPO)["commits"], 1)

            reply = d.control("flush " + REPO)
            self.assertIs(reply.get("ok"), True, reply)
            self.assertEqual(len(reply["episodes"]), 1, reply)
            ep = reply["episodes"][0]
            self.assertEqual(ep["repo"], REPO)

            folder = os.path.join(d.output_dir, "octo-org", ".github")
            md = os.path.join(folder, ep["date"] + ".md")
            self.assertEqual(ep["markdown"], md)
            self.assertTrue(os.path.isfile(md), md)
            self.assertTrue(os.path.isfile(os.path.join(
                folder, ep["date"] + ".json")))
            self.assertTrue(os.path.isfile(os.path.join(folder, "feed.xml")))
            with open(md, encoding="utf-8") as f:
                text = f.read()
            self.assertTrue(commit["id"][:7] in text or
                            "hello to the new contributors" in text, text)
            # no temporary files left beside the episode
            self.assertEqual(sorted(os.listdir(folder)),
                             sorted([ep["date"] + ".md",
                                     ep["date"] + ".json",
                                     ep["date"] + ".txt", "feed.xml"]))
            # the day closed: nothing is left to flush
            self.assertEqual(d.repo_stats(REPO)["commits"], 0)
            self.assertNotIn("can't be a path", d.log())

    def test_refused_names(self):
        with ht.Daemon() as d:
            for repo in ("octo-org/.", "octo-org/..", ".octo/widget"):
                body = ht.body_of(ht.make_push(repo=repo))
                status, reply = d.post(body, "push")
                self.assertEqual(status, 400, (repo, reply))
            self.assertEqual(d.deliveries().get("accepted", 0), 0,
                             d.status())
            self.assertFalse(os.listdir(d.output_dir)
                             if os.path.isdir(d.output_dir) else [])

    def test_weekly_recap_finds_the_archive(self):
        # a recap of every repository reads the folder back from the archive
        with ht.Daemon() as d:
            status, reply = d.post_payload(ht.make_push(repo=REPO))
            self.assertEqual(status, 200, reply)
            reply = d.control("flush " + REPO)
            self.assertIs(reply.get("ok"), True, reply)
            folder = os.path.join(d.output_dir, "octo-org", ".github")
            # a daemon that never saw the repository: only the archive
            # names it
            with ht.Daemon() as d2:
                shutil.copytree(folder, os.path.join(
                    d2.output_dir, "octo-org", ".github"))
                self.assertEqual(d2.status()["repos"], [])
                reply = d2.control("recap")
                self.assertIs(reply.get("ok"), True, reply)
                self.assertEqual([e["repo"] for e in reply["episodes"]],
                                 [REPO], reply)
                recap = os.path.join(d2.output_dir, "octo-org", ".github",
                                     time.strftime("%Y-%m-%d",
                                                   time.gmtime())
                                     + "-recap.md")
                self.assertEqual(reply["episodes"][0]["markdown"], recap)
                self.assertTrue(os.path.isfile(recap), recap)


if __name__ == "__main__":
    unittest.main()
