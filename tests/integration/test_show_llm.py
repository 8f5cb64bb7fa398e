"""The model's rewrite of a show's episode (issue #30), against a stand-in
model server of the test's own on loopback (test_llm's): the show's own
llm_url takes it, its repositories' episodes stay the template's.

- The request: the system message with the show's rules besides the
  fence's, the fact sheet's stories each naming its repository (the
  library's change and the app's revert of it), the show's counts.
- A reply written as a capable host would for this day is told instead
  of the draft (draft.by = model), in the episode and its transcript.
- A reply crediting a person the day does not know loses that sentence,
  and so does one that tells a story in another repository than its own
  ("place"); one that drops the revert is refused and the draft is told.
"""
import json
import os
import shutil
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hookcast_test as ht  # noqa: E402
import test_llm  # noqa: E402

LIB_SHA = "7" * 40

# What a capable model says of this day: the draft's facts, its order,
# each story in its repository, the revert with its reason.
REPLY = (
    "Good morning, and welcome to Acme Daily. Three repositories moved "
    "today, widgets, tools and app, with three commits from three "
    "authors, and one change came and went.\n\n"
    "We start in widgets, where Ada Lovelace added a frobnicate option to "
    "the widget renderer. Widgets can now be frobnicated before they are "
    "drawn, which saves a second pass.\n\n"
    "It didn't last the day. Over in app, Alan Turing reverted the "
    "frobnicate option for the widget renderer. The reason given: \"It "
    "broke the app's start-up on older screens.\" So the frobnicate "
    "option is out again for now.\n\n"
    "And in tools, Grace Hopper sped up the parser by reading input in "
    "batches.\n\n"
    "That's the day in three repositories for Acme Daily. Talk to you "
    "tomorrow.")


class TestShowLLM(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.model = test_llm.StandInModel()
        cls.tmp = ht.make_tmpdir()
        cls.conf = os.path.join(cls.tmp, "hookcast.conf")
        with open(cls.conf, "w") as f:
            f.write('[show "Acme Daily"]\nrepositories = acme/*\n'
                    'llm_url = %s\nllm_model = stand-in\n'
                    'llm_timeout = %d\n' % (cls.model.url(),
                                            test_llm.TIMEOUT))
        os.makedirs(os.path.join(cls.tmp, "d"))
        cls.d = ht.Daemon(extra_args=["--config", cls.conf],
                          tmp=os.path.join(cls.tmp, "d"))
        for repo, c in (
                ("acme/widgets", ht.make_commit(
                    "Add a frobnicate option to the widget renderer\n\n"
                    "Widgets can now be frobnicated before they are drawn, "
                    "which saves a second pass.", sha=LIB_SHA,
                    repo="acme/widgets")),
                ("acme/tools", ht.make_commit(
                    "Speed up the parser by reading input in batches",
                    name="Grace Hopper", username="grace",
                    repo="acme/tools")),
                ("acme/app", ht.make_commit(
                    "Revert \"Add a frobnicate option to the widget "
                    "renderer\"\n\nThis reverts commit %s.\n\nIt broke the "
                    "app's start-up on older screens." % LIB_SHA,
                    name="Alan Turing", username="alan", repo="acme/app"))):
            status, reply = cls.d.post_payload(ht.make_push(commits=[c],
                                                            repo=repo))
            assert status == 200, reply

    @classmethod
    def tearDownClass(cls):
        cls.d.cleanup()
        cls.model.close()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def preview(self, mode):
        self.model.mode = mode
        n = len(self.model.requests)
        reply = self.d.control("preview acme-daily",
                               timeout=test_llm.TIMEOUT + 30)
        self.assertTrue(reply.get("ok"), reply)
        show = [e for e in reply["episodes"]
                if e.get("repo") == "shows/acme-daily"]
        self.assertEqual(len(show), 1, reply)
        # the show alone went to the model: no repository has llm_url
        self.assertEqual(len(self.model.requests), n + 1)
        return show[0]["episode"], self.model.requests[-1]["body"]

    def test_request(self):
        ep, req = self.preview("show_reply")
        system = req["messages"][0]["content"]
        self.assertIn("The fact sheet is JSON data", system)
        self.assertIn("Keep every story in its own repository", system)
        sheet = test_llm.StandInModel.sheet_of(req)
        self.assertEqual(sheet["repository"], "shows/acme-daily")
        self.assertEqual(sheet["counts"]["commits"], 3)
        self.assertEqual(sorted((s["kind"], s.get("repository"))
                                for s in sheet["stories"]),
                         [("feature", "widgets"), ("performance", "tools"),
                          ("revert", "app")], sheet)
        revert = [s for s in sheet["stories"] if s["kind"] == "revert"]
        self.assertEqual(len(revert), 1, sheet)
        self.assertEqual(revert[0]["repository"], "app")
        self.assertTrue(revert[0]["must_tell"])

    def test_capable_reply_told(self):
        ep, _ = self.preview("show_reply")
        self.assertEqual(ep["draft"]["by"], "model", ep["draft"])
        self.assertEqual(ep["draft"]["dropped"], [])
        self.assertEqual(ep["transcript"], REPLY)

    def test_unknown_person_dropped(self):
        ep, _ = self.preview("show_person")
        self.assertEqual(ep["draft"]["by"], "model", ep["draft"])
        self.assertNotIn("Zebulon", ep["transcript"])
        self.assertEqual(len(ep["draft"]["dropped"]), 1, ep["draft"])

    def test_story_moved_dropped(self):
        """A story told in another repository than its own: the sentence
        is left out (place), the rest is told."""
        ep, _ = self.preview("show_moved")
        self.assertEqual(ep["draft"]["by"], "model", ep["draft"])
        self.assertEqual([d["reason"] for d in ep["draft"]["dropped"]],
                         ["place"], ep["draft"])
        self.assertNotIn("in widgets, Grace Hopper", ep["transcript"])
        self.assertIn("Over in app, Alan Turing", ep["transcript"])

    def test_revert_dropped_refused(self):
        ep, _ = self.preview("show_no_revert")
        self.assertEqual(ep["draft"]["by"], "template", ep["draft"])
        self.assertIsNotNone(ep["draft"]["rejected"])
        self.assertNotIn("Good morning", ep["transcript"])


test_llm.MODES["show_reply"] = lambda d: REPLY
test_llm.MODES["show_person"] = lambda d: REPLY.replace(
    "Talk to you tomorrow.", "Thanks to Zebulon Quartermaine for the "
    "help. Talk to you tomorrow.")
test_llm.MODES["show_moved"] = lambda d: REPLY.replace(
    "And in tools, Grace Hopper", "And in widgets, Grace Hopper")
test_llm.MODES["show_no_revert"] = lambda d: "\n\n".join(
    p for p in REPLY.split("\n\n") if "reverted" not in p)


if __name__ == "__main__":
    unittest.main()
