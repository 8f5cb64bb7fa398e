"""scripts/fact-coverage over the corpus (issue 27): "no fact is lost for
the sake of listening", measured from the deliveries, at 90% or more.

The figure when this test was written: 92.9% (510 of 549 facts over 22
days; the merged pull-request counts were the facts most lost, 1 of 22, as
the opening does not say them, then the reasons of bodies, 9 of 21). With
the opening's counts said whatever else it says: 96.8% (508 of 525). The
floor sits just under it, so a draft that loses
facts fails here. And the measure itself can fail: an episode with a fact
taken out misses that fact.
"""

import importlib.machinery
import importlib.util
import os
import re
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hookcast_test as ht  # noqa: E402

SCRIPT = os.path.join(ht.SOURCE_DIR, "scripts", "fact-coverage")
DRAFT = os.environ.get("HOOKCAST_DRAFT") or os.path.join(
    os.path.dirname(ht.HOOKCASTD), "hookcast-draft")
FLOOR = 96.0


def load_script():
    loader = importlib.machinery.SourceFileLoader("fact_coverage", SCRIPT)
    spec = importlib.util.spec_from_loader("fact_coverage", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


class FactCoverage(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.fc = load_script()

    def test_corpus_keeps_its_facts(self):
        r = subprocess.run([sys.executable, SCRIPT, "--draft", DRAFT,
                            "--min", str(FLOOR)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, timeout=600)
        m = re.search(r"^overall (\d+\.\d)%  (\d+) of (\d+) facts$",
                      r.stdout, re.MULTILINE)
        self.assertIsNotNone(m, r.stdout + r.stderr)
        days = [d for d in ht.corpus_days()]
        for d in days:
            self.assertRegex(r.stdout, r"(?m)^%s +\d" % re.escape(d))
        # a fact per count and several per story: the measure is no token
        self.assertGreater(int(m.group(3)), 10 * len(days))
        self.assertEqual(r.returncode, 0, "facts stated %s%%, under %.1f%%:"
                         "\n%s%s" % (m.group(1), FLOOR, r.stdout, r.stderr))

    def test_a_fact_taken_out_is_missed(self):
        # redis 2024-05-15: one revert, whose reason is its body's
        folder = os.path.join(ht.CORPUS, "redis-2024-05-15-revert")
        day = self.fc.Day(folder)
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            e = self.fc.draft(DRAFT, folder, tmp)
        got = dict(self.fc.facts(day, e))
        why = [f for f in got if "why" in f]
        who = [f for f in got if "who reverted" in f]
        self.assertEqual(len(why), 1, got)
        self.assertTrue(got[why[0]], got)
        self.assertTrue(got[who[0]], got)
        self.assertTrue(got["the 1 commits"], got)
        # the same episode without its reason, and with another name
        for s in e["segments"]:
            s["text"] = re.sub(r"The reason given:.*", "", s["text"])
            s["text"] = s["text"].replace("debing sun", "someone")
        e["transcript"] = e["transcript"].replace("a single commit",
                                                  "some commits")
        cut = dict(self.fc.facts(day, e))
        self.assertFalse(cut[why[0]], cut)
        self.assertFalse(cut[who[0]], cut)
        self.assertFalse(cut["the 1 commits"], cut)

    def test_counts_said_in_words(self):
        self.assertEqual(self.fc.number_words(29), "twenty-nine")
        self.assertEqual(self.fc.number_words(104), "one hundred four")
        rx = re.compile(r"\b%s commits\b" % self.fc.number_re(0))
        self.assertTrue(rx.search("no commits landed"))
        self.assertFalse(rx.search("two commits landed"))

    def test_names_as_said(self):
        self.assertTrue(self.fc.names_in(["debing.sun"],
                                         "debing sun reverted it."))
        self.assertTrue(self.fc.names_in(["MildlyMeticulous"],
                                         "Next, Mildly Meticulous made"))
        self.assertFalse(self.fc.names_in(["Ann"], "Annabel fixed it."))


if __name__ == "__main__":
    unittest.main(verbosity=2)
