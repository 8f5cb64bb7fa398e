"""hookcast-draft --show: one show's episode of several repositories.

- Two corpus days of different repositories (curl and vite) drafted as the
  show of a [show] section: its files go in OUTPUT_DIR/shows/SLUG, the
  JSON passes the episode schema, its counts per repository are those of
  each repository's own episode drafted from the same folder, the total
  is their sum, the opening gives the total and names the top story, and
  the feed parses as a podcast app reads it, titled by the show.
- The show by its slug is the same episode as by its name.
- A show that matches none of the folders drafts nothing and says so;
  a glob for another owner leaves that repository out.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hookcast_test as ht  # noqa: E402
import schema_check  # noqa: E402

DRAFT = os.environ.get("HOOKCAST_DRAFT") or os.path.join(
    os.path.dirname(ht.HOOKCASTD), "hookcast-draft")
TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
CORPUS = os.path.join(TOP, "tests", "data", "corpus")
SCHEMA = os.path.join(TOP, "doc", "episode.schema.json")
DAYS = ("curl-2026-06-01", "vite-2026-06-30-busy")


def draft(args):
    return subprocess.run([DRAFT] + list(args), env=ht.daemon_env(),
                          stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, errors="replace", timeout=300)


class TestShowDraft(unittest.TestCase):

    def setUp(self):
        if not os.access(DRAFT, os.X_OK):
            self.fail("hookcast-draft not found at %s" % DRAFT)
        self.tmp = ht.make_tmpdir()
        self.conf = os.path.join(self.tmp, "hookcast.conf")
        with open(self.conf, "w") as f:
            f.write('[show "Corpus Daily!"]\n'
                    'repositories = curl/*, VITEJS/vite, nobody/*\n')

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def run_show(self, name, out, folders=DAYS):
        r = draft(["--config", self.conf, "--show", name, "--output-dir",
                   out] + [os.path.join(CORPUS, d) for d in folders])
        self.assertEqual(r.returncode, 0, r.stderr)
        return r

    def own_episodes(self):
        """Each repository's own episode JSON, drafted alone."""
        out = os.path.join(self.tmp, "own")
        r = draft(["--config", self.conf, "--output-dir", out] +
                  [os.path.join(CORPUS, d) for d in DAYS])
        self.assertEqual(r.returncode, 0, r.stderr)
        own = {}
        for repo in ("curl/curl", "vitejs/vite"):
            folder = os.path.join(out, repo)
            names = [n for n in os.listdir(folder) if n.endswith(".json")]
            self.assertEqual(len(names), 1, names)
            with open(os.path.join(folder, names[0])) as f:
                own[repo] = json.load(f)
        return own

    def test_show_of_two_days(self):
        out = os.path.join(self.tmp, "out")
        r = self.run_show("Corpus Daily!", out)
        folder = os.path.join(out, "shows", "corpus-daily")
        self.assertIn("shows/corpus-daily", r.stderr)
        own = self.own_episodes()
        date = max(e["date"] for e in own.values())
        for ext in ("md", "json", "txt"):
            self.assertTrue(os.path.exists(
                os.path.join(folder, date + "." + ext)), ext)
        # nothing of the repositories' own folders from the show's run
        self.assertFalse(os.path.exists(os.path.join(out, "curl")))
        with open(os.path.join(folder, date + ".json")) as f:
            ep = json.load(f)
        schema_check.check(ep, schema_check.load(SCHEMA), "show episode")
        self.assertEqual(ep["show"], "Corpus Daily!")
        self.assertEqual(ep["repository"], "shows/corpus-daily")
        got = {m["repository"]: m for m in ep["repositories"]}
        self.assertEqual(sorted(got), ["curl/curl", "vitejs/vite"])
        for repo, e in own.items():
            for k in ("commits", "merged_prs", "reverts", "relands"):
                self.assertEqual(got[repo]["stats"][k], e["stats"][k],
                                 (repo, k))
        for k in ("commits", "merged_prs", "reverts"):
            self.assertEqual(ep["stats"][k],
                             sum(e["stats"][k] for e in own.values()), k)
        # people of both days, each once
        names = [p["name"] for p in ep["people"]]
        self.assertEqual(len(names), len(set(names)))
        self.assertEqual(set(names),
                         {p["name"] for e in own.values()
                          for p in e["people"]})
        opening = ep["segments"][0]["text"]
        self.assertIn("two repositories", opening)
        self.assertIn("In all, ", opening)
        # the top story: vite's release, named in the opening and first
        self.assertIn("Vite 8.1.1", opening)
        self.assertIn("Vite 8.1.1", ep["segments"][1]["text"])
        self.assertIn("Vite 8.1.1", ep["title"])
        # every story segment is one of a repository's own, word for word
        own_texts = [s["text"] for e in own.values()
                     for s in e["segments"]]
        for s in ep["segments"]:
            if s["kind"] in ("opening", "closing", "quiet", "focus",
                             "takeaway"):
                continue
            self.assertTrue(any(t in s["text"] for t in own_texts),
                            s["text"][:120])
        with open(os.path.join(folder, date + ".md")) as f:
            md = f.read()
        self.assertIn("- curl/curl: %d commits" %
                      own["curl/curl"]["stats"]["commits"], md)
        self.check_feed(os.path.join(folder, "feed.xml"), ep)

    def check_feed(self, path, ep):
        try:
            import feedparser
        except ImportError:
            sys.path.append("/usr/lib/python3/dist-packages")
            import feedparser
        feed = feedparser.parse(path)
        self.assertFalse(feed.bozo, getattr(feed, "bozo_exception", ""))
        self.assertEqual(len(feed.entries), 1)
        self.assertIn(ep["title"], feed.entries[0].title)

    def test_audio_of_show(self):
        """--audio speaks the show as the archive's shows/SLUG entry:
        its MP3 and captions beside the episode, told in the JSON and
        enclosed in the feed."""
        out = os.path.join(self.tmp, "out")
        r = draft(["--config", self.conf, "--show", "Corpus Daily!",
                   "--audio", "--output-dir", out] +
                  [os.path.join(CORPUS, d) for d in DAYS])
        self.assertEqual(r.returncode, 0, r.stderr)
        folder = os.path.join(out, "shows", "corpus-daily")
        js = [n for n in os.listdir(folder) if n.endswith(".json")]
        with open(os.path.join(folder, js[0])) as f:
            ep = json.load(f)
        audio = ep["audio"]
        self.assertGreater(os.path.getsize(
            os.path.join(folder, audio["file"])), 10000)
        self.assertTrue(os.path.exists(os.path.join(folder, audio["vtt"])))
        # the show's focus, said whose it is
        self.assertIn("Today's Focus, from curl: ", ep["transcript"])
        with open(os.path.join(folder, "feed.xml")) as f:
            self.assertIn(audio["file"], f.read())

    def test_by_slug_is_the_same(self):
        a = os.path.join(self.tmp, "a")
        b = os.path.join(self.tmp, "b")
        self.run_show("Corpus Daily!", a)
        self.run_show("corpus-daily", b)
        fa = os.path.join(a, "shows", "corpus-daily")
        fb = os.path.join(b, "shows", "corpus-daily")
        names = sorted(n for n in os.listdir(fa) if n.endswith(".txt"))
        self.assertEqual(names, sorted(n for n in os.listdir(fb)
                                       if n.endswith(".txt")))
        for n in names:
            with open(os.path.join(fa, n)) as f, \
                    open(os.path.join(fb, n)) as g:
                self.assertEqual(f.read(), g.read())

    def test_matches_no_folder(self):
        with open(self.conf, "a") as f:
            f.write('[show "Elsewhere"]\nrepositories = other/*\n')
        out = os.path.join(self.tmp, "out")
        r = draft(["--config", self.conf, "--show", "Elsewhere",
                   "--output-dir", out] +
                  [os.path.join(CORPUS, d) for d in DAYS])
        self.assertEqual(r.returncode, 1)
        self.assertIn("no repository of the show", r.stderr)
        self.assertFalse(os.path.exists(os.path.join(out, "shows")))

    def test_one_member(self):
        with open(self.conf, "a") as f:
            f.write('[show "Just curl"]\nrepositories = curl/curl\n')
        out = os.path.join(self.tmp, "out")
        self.run_show("Just curl", out)
        folder = os.path.join(out, "shows", "just-curl")
        names = [n for n in os.listdir(folder) if n.endswith(".json")]
        with open(os.path.join(folder, names[0])) as f:
            ep = json.load(f)
        self.assertEqual([m["repository"] for m in ep["repositories"]],
                         ["curl/curl"])
        # one repository is named, not counted
        self.assertIn("curl", ep["segments"][0]["text"])
        self.assertFalse(re.search(r"\bone repository\b",
                                   ep["transcript"]))


if __name__ == "__main__":
    unittest.main(verbosity=2)
