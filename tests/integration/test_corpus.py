"""Corpus days end to end: replay each day's deliveries into a real daemon,
flush the episode, and check its files against counts computed here,
independently of the daemon, from the deliveries themselves.

`python3 test_corpus.py --expected` prints the expected counts per day.
"""

import datetime
import json
import os
import re
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hookcast_test as ht  # noqa: E402

STAT_KEYS = ("commits", "merged_prs", "reverts", "authors", "pushes")
TOP_KEYS = ("show", "title", "description", "published", "duration",
            "repository", "window", "stats", "segments", "transcript",
            "nearby")
DURATION_RE = re.compile(r"^PT(\d+H)?(\d+M)?(\d+S)?$")
SHA_RE = re.compile(r"(?<![0-9a-fA-F])[0-9a-fA-F]{40}(?![0-9a-fA-F])")
EMAIL_RE = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+")
URL_RE = re.compile(r"https?://|://|\bwww\.", re.IGNORECASE)
REVERTS_RE = re.compile(r"This reverts commit ([0-9a-fA-F]{40})")


def is_revert(message):
    """A revert as the brief defines it: git's Revert "..." (not a re-land
    Revert "Revert ..."), any other subject with git's own "This reverts
    commit <sha>" line (vite's 'fix: revert, "..."'), curl's "...
    (revert)", or PyTorch's bot trailer."""
    subject = message.split("\n", 1)[0].rstrip("\r")
    if subject.startswith('Revert "Revert'):
        return False
    if subject.startswith('Revert "'):
        return True
    if REVERTS_RE.search(message):
        return True
    if subject.endswith(" (revert)"):
        return True
    return any(line.startswith("Reverted https://")
               and " on behalf of " in line
               for line in message.splitlines())


def expected(day):
    """What a day's episode must count, from the deliveries alone."""
    repo = None
    commits = {}            # id -> commit, first seen
    order = []
    prs = set()
    pushes = 0
    force_pushes = 0
    for name, meta, body in ht.corpus_deliveries(day):
        payload = json.loads(body)
        full = payload.get("repository", {}).get("full_name")
        if full:
            assert repo in (None, full), "%s: two repositories" % day
            repo = full
        if meta["event"] == "push":
            default = payload["repository"]["default_branch"]
            if payload["ref"] != "refs/heads/" + default:
                continue
            pushes += 1
            if payload.get("forced"):
                force_pushes += 1
            for c in payload["commits"]:
                if c["id"] not in commits:
                    commits[c["id"]] = c
                    order.append(c["id"])
        elif meta["event"] == "pull_request":
            pr = payload["pull_request"]
            if payload["action"] == "closed" and pr.get("merged") is True:
                prs.add(payload["number"])
    reverts = [i for i in order if is_revert(commits[i]["message"])]
    authors = {commits[i]["author"].get("username")
               or commits[i]["author"]["name"] for i in order}
    pairs = []
    for r in reverts:
        m = REVERTS_RE.search(commits[r]["message"])
        if m and m.group(1).lower() in commits:
            pairs.append((r, m.group(1).lower()))
    return {
        "repo": repo,
        "stats": {"commits": len(order), "merged_prs": len(prs),
                  "reverts": len(reverts), "authors": len(authors),
                  "pushes": pushes, "force_pushes": force_pushes},
        "revert_ids": reverts,
        "pairs": pairs,
    }


def sha_listed(sha, ids):
    """Whether a segment's commit list names sha (full id, or a 7+ prefix)."""
    sha = sha.lower()
    return any(isinstance(i, str) and len(i) >= 7 and sha.startswith(i.lower())
               for i in ids)


class CorpusDay:
    """Mixin: one corpus day, replayed twice, then flushed."""

    day = None

    def test_day(self):
        exp = expected(self.day)
        repo = exp["repo"]
        owner, name = repo.split("/")
        with ht.Daemon() as d:
            first = d.replay(self.day)
            for fname, status, reply in first:
                self.assertIs(reply.get("ok"), True, (fname, status, reply))
                self.assertIsNot(reply.get("duplicate"), True,
                                 "first delivery of %s/%s called a duplicate:"
                                 " %r" % (self.day, fname, reply))

            stats = d.repo_stats(repo)
            for k in STAT_KEYS:
                self.assertEqual(stats.get(k), exp["stats"][k],
                                 "status %s of %s after one replay: %r"
                                 % (k, repo, stats))

            # The same day again, same delivery ids: all duplicates.
            accepted = d.deliveries()
            second = d.replay(self.day)
            for fname, status, reply in second:
                self.assertEqual(status, 200, (fname, reply))
                self.assertIs(reply.get("duplicate"), True,
                              "redelivery of %s/%s: %r"
                              % (self.day, fname, reply))
            again = d.repo_stats(repo)
            for k in STAT_KEYS:
                self.assertEqual(again.get(k), exp["stats"][k],
                                 "status %s of %s after a second replay: %r"
                                 % (k, repo, again))
            deliv = d.deliveries()
            self.assertEqual(deliv["accepted"], accepted["accepted"],
                             "redeliveries counted as accepted")
            self.assertEqual(deliv["duplicate"],
                             accepted["duplicate"] + len(second),
                             "redeliveries not counted as duplicates")

            reply = d.control("flush " + repo)
            self.assertIs(reply.get("ok"), True, reply)
            eps = reply.get("episodes")
            self.assertIsInstance(eps, list, reply)
            self.assertEqual(len(eps), 1, reply)
            ep = eps[0]
            self.assertEqual(ep.get("repo"), repo, ep)
            date = ep.get("date")
            self.assertRegex(date or "", r"^\d{4}-\d\d-\d\d$", ep)
            base = os.path.join(d.output_dir, owner, name, date)
            for key, ext in (("markdown", ".md"), ("json", ".json")):
                path = ep.get(key)
                self.assertIsInstance(path, str, ep)
                self.assertTrue(os.path.isfile(path),
                                "%s file %s missing" % (key, path))
                self.assertEqual(os.path.realpath(path),
                                 os.path.realpath(base + ext),
                                 "episode file is not OUTPUT/OWNER/REPO/"
                                 "YYYY-MM-DD%s" % ext)

            with open(ep["markdown"], encoding="utf-8") as f:
                md = f.read()
            self.assertTrue(md.startswith("# "),
                            "markdown does not start with '# ': %r" % md[:80])
            with open(ep["json"], encoding="utf-8") as f:
                episode = json.load(f)
            self.check_episode(episode, exp, ep)
            d.stop()

    def check_episode(self, e, exp, ep):
        """Each group of checks is a subTest, so one failure hides none."""
        where = "%s episode %s" % (self.day, ep["json"])
        with self.subTest(check="keys"):
            for k in TOP_KEYS:
                self.assertIn(k, e, "%s: no key %r" % (where, k))
        for k in ("show", "title", "description", "transcript"):
            with self.subTest(check=k):
                self.assertIsInstance(e.get(k), str, "%s: %s" % (where, k))
                self.assertTrue(e[k].strip(), "%s: empty %s" % (where, k))
        with self.subTest(check="title"):
            self.assertEqual(e.get("title"), ep.get("title"),
                             "%s: title differs from the flush reply"
                             % where)
        with self.subTest(check="published"):
            self.assertIsInstance(e.get("published"), str, where)
            try:
                datetime.datetime.fromisoformat(e["published"])
            except ValueError:
                self.fail("%s: published %r is not ISO 8601"
                          % (where, e["published"]))
        with self.subTest(check="duration"):
            self.assertRegex(e.get("duration"), DURATION_RE, where)
            self.assertNotEqual(e["duration"], "PT", where)
        with self.subTest(check="repository"):
            repo = e.get("repository")
            if isinstance(repo, dict):
                repo = repo.get("full_name")
            self.assertEqual(repo, exp["repo"], "%s: repository" % where)
        with self.subTest(check="window"):
            self.check_window(e.get("window"), ep, where)
        with self.subTest(check="stats"):
            stats = e.get("stats") or {}
            for k, v in exp["stats"].items():
                self.assertEqual(stats.get(k), v, "%s: stats.%s (all: %r)"
                                 % (where, k, stats))
        with self.subTest(check="segments"):
            self.check_segments(e.get("segments"), exp, where)
        with self.subTest(check="transcript text"):
            t = e.get("transcript") or ""
            # A URL, not the word: "http" is a fine name for curl's module.
            m = URL_RE.search(t)
            self.assertIsNone(m, "%s: transcript has a URL: %r"
                              % (where, m and t[max(0, m.start() - 40):
                                                 m.end() + 60]))
            m = SHA_RE.search(t)
            self.assertIsNone(m, "%s: transcript has a sha: %s"
                              % (where, m and m.group(0)))
            m = EMAIL_RE.search(t)
            self.assertIsNone(m, "%s: transcript has an e-mail address: %s"
                              % (where, m and m.group(0)))
        with self.subTest(check="nearby"):
            self.assertIsInstance(e.get("nearby"), list, where)
            for n in e["nearby"]:
                self.assertIsInstance(n, dict, where)
                self.assertIn("date", n, where)
                self.assertIn("title", n, where)

    def check_window(self, win, ep, where):
        self.assertIsInstance(win, dict, where)
        for k in ("start", "end"):
            self.assertIn(k, win, "%s: window.%s" % (where, k))
            self.assertIsInstance(win[k], str, "%s: window.%s is %r"
                                  % (where, k, win[k]))
        try:
            start = datetime.datetime.fromisoformat(win["start"])
            end = datetime.datetime.fromisoformat(win["end"])
        except ValueError:
            self.fail("%s: window %r is not ISO 8601" % (where, win))
        if start.tzinfo is not None:
            start = start.astimezone(datetime.timezone.utc)
        if end.tzinfo is not None:
            end = end.astimezone(datetime.timezone.utc)
        if (start.tzinfo is None) == (end.tzinfo is None):
            self.assertLessEqual(start, end, "%s: window %r" % (where, win))
        # --timezone=UTC: the file's date is the UTC date of window.start.
        self.assertEqual(start.date().isoformat(), ep["date"],
                         "%s: date is not window.start's local date (%s)"
                         % (where, win["start"]))

    def check_segments(self, segs, exp, where):
        self.assertIsInstance(segs, list, where)
        self.assertTrue(segs, "%s: no segments" % where)
        for s in segs:
            self.assertIsInstance(s, dict, where)
            self.assertIsInstance(s.get("kind"), str, "%s: %r" % (where, s))
            self.assertIsInstance(s.get("text"), str, "%s: %r" % (where, s))
            self.assertIsInstance(s.get("commits"), list,
                                  "%s: %r" % (where, s))
            for c in s["commits"]:
                self.assertIsInstance(c, str, "%s: %r" % (where, s))
        rollbacks = [s for s in segs if s["kind"] == "rollbacks"]
        for revert, original in exp["pairs"]:
            self.assertTrue(
                any(sha_listed(revert, s["commits"])
                    and sha_listed(original, s["commits"])
                    for s in rollbacks),
                "%s: no rollbacks segment lists both revert %s and the"
                " commit it reverts %s; rollbacks segments: %r"
                % (where, revert, original,
                   [s["commits"] for s in rollbacks]))
        for revert in exp["revert_ids"]:
            self.assertTrue(
                any(sha_listed(revert, s["commits"]) for s in rollbacks),
                "%s: revert %s is in no rollbacks segment; rollbacks"
                " segments: %r" % (where, revert,
                                   [s["commits"] for s in rollbacks]))


def _make_tests():
    for day in ht.corpus_days():
        cls_name = "Test_" + re.sub(r"\W", "_", day)
        globals()[cls_name] = type(cls_name, (CorpusDay, unittest.TestCase),
                                   {"day": day})


_make_tests()


def print_expected():
    for day in ht.corpus_days():
        exp = expected(day)
        print("%-24s %-10s %s pairs=%s" % (
            day, exp["repo"],
            " ".join("%s=%d" % kv for kv in exp["stats"].items()),
            [(a[:10], b[:10]) for a, b in exp["pairs"]]))


if __name__ == "__main__":
    if "--expected" in sys.argv:
        print_expected()
        sys.exit(0)
    unittest.main(verbosity=2)
