"""scripts/replay-git against the real daemon: a temporary git repository
(a `git revert`, a "(#12)" subject, added, removed and renamed files, a
merge, a message that is not UTF-8, commits outside the window) replayed as
deliveries, flushed, and its counts and revert pairing checked; --out
writes the corpus format; --dry-run sends nothing.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hookcast_test as ht  # noqa: E402

SCRIPT = os.path.join(ht.SOURCE_DIR, "scripts", "replay-git")
DRAFT = os.environ.get("HOOKCAST_DRAFT") or os.path.join(
    os.path.dirname(ht.HOOKCASTD), "hookcast-draft")
REPO = "hookcast-test/replayed"
DAY = "2026-04-03"

ADA = ("Ada Lovelace", "1234+ada-l@users.noreply.github.com")
GRACE = ("Grace Hopper", "grace@example.com")
LINUS = ("Linus Pauling", "linus@example.org")
JOSE = ("José Müller", "jmueller@users.noreply.github.com")


class GitRepo:
    """A scratch repository whose commits get explicit people and dates."""

    def __init__(self, path):
        self.path = path
        self.env = dict(os.environ)
        for k in list(self.env):
            if k.startswith("GIT_"):
                del self.env[k]
        self.env.update({"HOME": path, "GIT_CONFIG_NOSYSTEM": "1",
                         "TZ": "UTC", "LC_ALL": "C"})
        os.makedirs(path, exist_ok=True)
        self.git("init", "-q", "-b", "main")
        self.git("config", "commit.gpgsign", "false")

    def git(self, *args, who=None, when=None, stdin=None):
        env = dict(self.env)
        if who:
            env.update({"GIT_AUTHOR_NAME": who[0], "GIT_AUTHOR_EMAIL": who[1],
                        "GIT_COMMITTER_NAME": who[0],
                        "GIT_COMMITTER_EMAIL": who[1]})
        if when:
            env.update({"GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when})
        p = subprocess.run(["git", "-C", self.path] + list(args), env=env,
                           input=stdin, capture_output=True)
        if p.returncode != 0:
            raise AssertionError("git %s: %s" % (" ".join(args),
                                                 p.stderr.decode()))
        return p.stdout.decode("utf-8", "replace").strip()

    def write(self, name, data):
        full = os.path.join(self.path, name)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb" if isinstance(data, bytes) else "w") as f:
            f.write(data)
        self.git("add", name)

    def commit(self, message, who, when):
        """Commit the index; message may be bytes (kept as they are)."""
        if isinstance(message, str):
            message = message.encode()
        self.git("commit", "-q", "--allow-empty", "--cleanup=verbatim",
                 "-F", "-", who=who, when=when, stdin=message)
        return self.head()

    def raw_commit(self, message, author, email, epoch):
        """A commit object written byte for byte: git commit would turn a
        message that isn't UTF-8 into UTF-8 (as Latin-1), git log passes
        these bytes through as they are."""
        tree = self.git("write-tree")
        ident = author + b" <" + email.encode() + b"> %d +0000" % epoch
        raw = (b"tree " + tree.encode() + b"\nparent " + self.head().encode()
               + b"\nauthor " + ident + b"\ncommitter " + ident + b"\n\n"
               + message)
        sha = self.git("hash-object", "-t", "commit", "-w", "--stdin",
                       stdin=raw)
        self.git("update-ref", "HEAD", sha)
        return sha

    def head(self):
        return self.git("rev-parse", "HEAD")


def build_repo(path):
    """The scratch history; returns (repo, facts about the window)."""
    g = GitRepo(path)
    g.write("README", "hello\n")
    g.write("src/util.c", "int util;\n")
    g.write("docs/old.md", "old\n")
    before = g.commit("Initial import", LINUS, "2026-04-02T08:00:00+00:00")

    g.write("src/parser.c", "int parse;\n")
    c1 = g.commit("parser: add a streaming mode\n\nIt reads 35% less.",
                  ADA, "2026-04-03T09:00:00+00:00")
    g.write("src/parser.c", "int parse2;\n")
    c2 = g.commit("parser: fix a crash on empty input", ADA,
                  "2026-04-03T09:01:00+00:00")           # same push as c1
    g.write("src/retry.c", "int retry;\n")
    c3 = g.commit("Add retry backoff (#12)\n\nWaits 2x longer each time.",
                  GRACE, "2026-04-03T10:00:00+00:00")
    g.git("rm", "-q", "docs/old.md")
    g.git("mv", "src/util.c", "src/helpers.c")
    c4 = g.commit("Drop old docs, rename util to helpers", LINUS,
                  "2026-04-03T11:00:00+00:00")
    g.git("revert", "--no-edit", c3, who=GRACE,
          when="2026-04-03T12:00:00+00:00")
    c5 = g.head()
    # a side branch merged with --no-ff: first-parent history skips c6
    g.git("checkout", "-q", "-b", "topic")
    g.write("src/topic.c", "int topic;\n")
    c6 = g.commit("topic: add the topic module", JOSE,
                  "2026-04-03T12:30:00+00:00")
    g.git("checkout", "-q", "main")
    g.git("merge", "-q", "--no-ff", "-m", "Merge branch 'topic'", "topic",
          who=LINUS, when="2026-04-03T13:00:00+00:00")
    c7 = g.head()
    # not UTF-8: Latin-1 bytes in the message, name and a path
    with open(os.path.join(path.encode(), b"src", b"caf\xe9.c"), "wb") as f:
        f.write(b"int cafe;\n")
    g.git("add", "src")
    c8 = g.raw_commit(b"latin: caf\xe9 cr\xe8me support\n\nNa\xefve bytes.\n",
                      b"Jos\xe9 M\xfcller", JOSE[1], 1775224800)
    g.write("src/later.c", "int later;\n")
    g.commit("Tomorrow's work", ADA, "2026-04-04T09:00:00+00:00")

    window = [c1, c2, c3, c4, c5, c7, c8]
    people = {c1: ADA, c2: ADA, c3: GRACE, c4: LINUS, c5: GRACE, c7: LINUS,
              c8: JOSE}
    facts = {
        "before": before, "window": window, "c1": c1, "c2": c2, "c3": c3,
        "c4": c4, "c5": c5, "c6": c6, "c7": c7, "c8": c8,
        # Ada, Grace (no login), Linus (no login), José (login jmueller)
        "authors": len({p for p in people.values()}),
        # c1+c2 share a push; every other commit is its own push
        "pushes": 6,
        "merged_prs": 1, "reverts": 1,
    }
    return g, facts


def run_script(*args, env=None):
    e = ht.daemon_env({"TZ": "UTC"})
    e.pop("HOOKCAST_SECRET", None)
    if env:
        e.update(env)
    return subprocess.run([sys.executable, SCRIPT] + list(args), env=e,
                          capture_output=True, text=True, errors="replace",
                          timeout=60)


class ReplayGit(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="hookcast-git-")
        cls.git, cls.facts = build_repo(os.path.join(cls.tmp, "repo"))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def window_args(self):
        return ["--repo", REPO, "--since", DAY, "--until", DAY]

    def check_files(self, out):
        """The corpus format; returns [(meta, payload)] in order."""
        names = sorted(os.listdir(out))
        bodies = [n for n in names if re.fullmatch(r"\d{4}\.json", n)]
        metas = [n for n in names if re.fullmatch(r"\d{4}\.meta\.json", n)]
        self.assertEqual(len(bodies) + len(metas), len(names), names)
        self.assertEqual([b[:4] for b in bodies], [m[:4] for m in metas])
        self.assertEqual(bodies, ["%04d.json" % i
                                  for i in range(1, len(bodies) + 1)])
        out_list = []
        for b in bodies:
            with open(os.path.join(out, b), "rb") as f:
                raw = f.read()
            payload = json.loads(raw.decode("utf-8"))
            self.assertEqual(raw, json.dumps(
                payload, separators=(",", ":"),
                ensure_ascii=False).encode(), "%s is not compact" % b)
            with open(os.path.join(out, b[:4] + ".meta.json")) as f:
                meta = json.load(f)
            self.assertEqual(set(meta), {"event", "delivery", "time"}, meta)
            self.assertIn(meta["event"], ("push", "pull_request"))
            self.assertRegex(meta["delivery"], r"^[0-9a-f]{8}-[0-9a-f]{4}-"
                             r"[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
            self.assertRegex(meta["time"],
                             r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
            out_list.append((meta, payload))
        return out_list

    def test_out_writes_the_corpus_format(self):
        out = os.path.join(self.tmp, "out")
        p = run_script(*self.window_args(), "--out", out, self.git.path)
        self.assertEqual(p.returncode, 0, p.stderr)
        items = self.check_files(out)
        f = self.facts
        events = [m["event"] for m, _ in items]
        pushes = [pl for m, pl in items if m["event"] == "push"]
        prs = [pl for m, pl in items if m["event"] == "pull_request"]
        self.assertEqual(len(pushes), f["pushes"], events)
        self.assertEqual(len(prs), 1, events)

        # the commits in order, first-parent, the window only
        ids = [c["id"] for pl in pushes for c in pl["commits"]]
        self.assertEqual(ids, f["window"])
        # before/after chain
        self.assertEqual(pushes[0]["before"], f["before"])
        for a, b in zip(pushes, pushes[1:]):
            self.assertEqual(b["before"], a["after"])
        for pl in pushes:
            self.assertEqual(pl["after"], pl["commits"][-1]["id"])
            self.assertEqual(pl["ref"], "refs/heads/main")
            self.assertEqual(pl["repository"]["full_name"], REPO)
            self.assertEqual(pl["repository"]["default_branch"], "main")
            self.assertEqual(pl["head_commit"], pl["commits"][-1])
        self.assertEqual([c["id"] for c in pushes[0]["commits"]],
                         [f["c1"], f["c2"]])

        # the PR just before its push
        i = events.index("pull_request")
        pr = items[i][1]
        self.assertEqual(items[i + 1][0]["event"], "push")
        self.assertIn(f["c3"], [c["id"] for c in items[i + 1][1]["commits"]])
        self.assertEqual(pr["action"], "closed")
        self.assertEqual(pr["number"], 12)
        self.assertIs(pr["pull_request"]["merged"], True)
        self.assertEqual(pr["pull_request"]["number"], 12)
        self.assertEqual(pr["pull_request"]["title"], "Add retry backoff")
        self.assertEqual(pr["pull_request"]["merge_commit_sha"], f["c3"])
        self.assertEqual(pr["pull_request"]["merged_at"],
                         "2026-04-03T10:00:00Z")
        self.assertEqual(pr["pull_request"]["base"]["ref"], "main")
        self.assertTrue(pr["pull_request"]["user"]["login"])

        commits = {c["id"]: c for pl in pushes for c in pl["commits"]}
        c1 = commits[f["c1"]]
        self.assertEqual(c1["author"], {"name": ADA[0], "email": ADA[1],
                                        "username": "ada-l"})
        self.assertEqual(c1["timestamp"], "2026-04-03T09:00:00+00:00")
        self.assertEqual(c1["message"],
                         "parser: add a streaming mode\n\nIt reads 35% less.")
        self.assertEqual(c1["added"], ["src/parser.c"])
        self.assertEqual(commits[f["c2"]]["modified"], ["src/parser.c"])
        self.assertIsNone(commits[f["c3"]]["author"]["username"])
        self.assertEqual(commits[f["c8"]]["author"]["username"], "jmueller")
        c4 = commits[f["c4"]]
        self.assertEqual(sorted(c4["removed"]),
                         ["docs/old.md", "src/util.c"])
        self.assertEqual(c4["added"], ["src/helpers.c"])
        revert = commits[f["c5"]]["message"]
        self.assertTrue(revert.startswith('Revert "Add retry backoff (#12)"'),
                        revert)
        self.assertIn("This reverts commit %s." % f["c3"], revert)
        # the merge, against its first parent
        self.assertEqual(commits[f["c7"]]["added"], ["src/topic.c"])
        # not UTF-8, replaced
        self.assertIn("\ufffd", commits[f["c8"]]["message"])
        self.assertTrue(commits[f["c8"]]["message"].startswith("latin: caf"))
        self.assertEqual(commits[f["c8"]]["author"]["name"],
                         "Jos\ufffd M\ufffdller")
        self.assertEqual(commits[f["c8"]]["added"], ["src/caf\ufffd.c"])
        self.assertEqual(commits[f["c8"]]["timestamp"],
                         "2026-04-03T14:00:00+00:00")

        # all of it through the daemon from the files, as the corpus goes
        with ht.Daemon() as d:
            d.replay(out)
            self.check_counts(d)
            d.stop()

    def check_counts(self, d):
        f = self.facts
        st = d.repo_stats(REPO)
        for k in ("merged_prs", "reverts", "authors", "pushes"):
            self.assertEqual(st.get(k), f[k], "status %s: %r" % (k, st))
        self.assertEqual(st.get("commits"), len(f["window"]), st)

    def test_send_flush_and_redeliver(self):
        f = self.facts
        with ht.Daemon() as d:
            url = "http://127.0.0.1:%d/webhook" % d.port
            p = run_script(*self.window_args(), "--url", url,
                           "--secret-file", d.secret_path, self.git.path)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            self.assertIn("7 commits in 6 pushes, 1 merged pull request",
                          p.stdout)
            self.check_counts(d)
            accepted = d.deliveries()["accepted"]

            # the same window again: the same GUIDs, all duplicates
            p = run_script(*self.window_args(), "--url", url,
                           "--secret", d.secret, self.git.path)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            self.assertEqual(d.deliveries()["accepted"], accepted)
            self.check_counts(d)

            reply = d.control("flush " + REPO)
            self.assertIs(reply.get("ok"), True, reply)
            self.assertEqual(len(reply["episodes"]), 1, reply)
            with open(reply["episodes"][0]["json"], encoding="utf-8") as fp:
                e = json.load(fp)
            stats = e["stats"]
            self.assertEqual(stats["commits"], len(f["window"]), stats)
            for k in ("merged_prs", "reverts", "authors", "pushes"):
                self.assertEqual(stats[k], f[k], "stats.%s: %r" % (k, stats))
            rollbacks = [s for s in e["segments"]
                         if s["kind"] == "rollbacks"]
            self.assertTrue(any(f["c5"] in s["commits"]
                                and f["c3"] in s["commits"]
                                for s in rollbacks),
                            "revert %s and %s not paired: %r"
                            % (f["c5"], f["c3"],
                               [s["commits"] for s in rollbacks]))
            d.stop()

    def test_dry_run_sends_nothing(self):
        with ht.Daemon() as d:
            url = "http://127.0.0.1:%d/webhook" % d.port
            before = d.deliveries()
            p = run_script(*self.window_args(), "--url", url,
                           "--secret-file", d.secret_path, "--dry-run",
                           self.git.path)
            self.assertEqual(p.returncode, 0, p.stderr)
            lines = [ln for ln in p.stdout.splitlines()
                     if re.match(r"^\d{4} ", ln)]
            self.assertEqual(len(lines), self.facts["pushes"] + 1, p.stdout)
            self.assertIn("dry run", p.stdout)
            self.assertEqual(d.deliveries(), before)
            self.assertEqual(d.repo_stats(REPO)["commits"], 0)
            d.stop()

    def test_empty_window(self):
        out = os.path.join(self.tmp, "empty")
        p = run_script("--repo", REPO, "--since", "2030-01-01", "--out", out,
                       self.git.path)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("0 commits", p.stdout)
        self.assertEqual(os.listdir(out), [])

    def test_repo_from_origin(self):
        self.git.git("remote", "add", "origin",
                     "git@github.com:octo-org/widget.git")
        try:
            p = run_script("--dry-run", "--since", DAY, "--until", DAY,
                           self.git.path)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn("octo-org/widget main", p.stdout)
        finally:
            self.git.git("remote", "remove", "origin")
        p = run_script("--dry-run", self.git.path)
        self.assertEqual(p.returncode, 2, p.stdout)
        self.assertIn("--repo", p.stderr)

    def test_all_parents(self):
        out = os.path.join(self.tmp, "all")
        p = run_script(*self.window_args(), "--all-parents", "--out", out,
                       self.git.path)
        self.assertEqual(p.returncode, 0, p.stderr)
        ids = [c["id"] for _, pl in self.check_files(out)
               if "commits" in pl for c in pl["commits"]]
        self.assertIn(self.facts["c6"], ids)
        self.assertEqual(len(ids), len(self.facts["window"]) + 1)

    def test_day_into_hookcast_draft(self):
        """--day is --since and --until of one day; its folder drafted by
        hookcast-draft, no daemon, is told on that day's date."""
        out = os.path.join(self.tmp, "day")
        p = run_script("--repo", REPO, "--day", DAY, "--out", out,
                       self.git.path)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(len(self.check_files(out)),
                         self.facts["pushes"] + self.facts["merged_prs"])
        d = draft([out])
        self.assertEqual(d.returncode, 0, d.stderr)
        self.assertIn("April 3rd, 2026", d.stdout)
        self.assertIn("- Published: 2026-04-04T10:00:00Z", d.stdout)
        self.assertNotIn("left out", d.stderr)
        p = run_script("--repo", REPO, "--day", DAY, "--since", DAY,
                       "--dry-run", self.git.path)
        self.assertEqual(p.returncode, 2)
        self.assertIn("--day", p.stderr)

    def test_day_in_a_zone(self):
        """Kiritimati (UTC+14): its April 3rd ends at 10:00 UTC, after
        Ada's two commits of 09:00 and before Grace's of 10:00."""
        out = os.path.join(self.tmp, "kiritimati")
        zone = "Pacific/Kiritimati"
        p = run_script("--repo", REPO, "--day", DAY, "--timezone", zone,
                       "--out", out, self.git.path)
        self.assertEqual(p.returncode, 0, p.stderr)
        ids = [c["id"] for _, pl in self.check_files(out)
               if "commits" in pl for c in pl["commits"]]
        self.assertEqual(ids, [self.facts["c1"], self.facts["c2"]])
        d = draft(["--timezone", zone, out])
        self.assertEqual(d.returncode, 0, d.stderr)
        self.assertIn("April 3rd, 2026", d.stdout)
        self.assertIn("two commits", d.stdout)
        p = run_script("--repo", REPO, "--day", DAY, "--timezone", "Nowhere",
                       "--dry-run", self.git.path)
        self.assertEqual(p.returncode, 2)
        self.assertIn("unknown time zone", p.stderr)


def draft(args):
    """hookcast-draft's CompletedProcess (text)."""
    return subprocess.run([DRAFT] + list(args), env=ht.daemon_env(),
                          capture_output=True, text=True, errors="replace",
                          timeout=60)


if __name__ == "__main__":
    unittest.main(verbosity=2)
