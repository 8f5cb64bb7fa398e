"""Links in episodes: the .json's sources carry the commit and pull request
pages built from the deliveries' repository.html_url, the .md ends with a
"## Links" list of them, the spoken text holds none; the URL survives a
restart (journal replay, after a kill and after a stop); a hostile
html_url gives no links at all; hookcast-draft links as the daemon does.
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

DAY = "redis-2024-05-15-revert"
DRAFT = os.environ.get("HOOKCAST_DRAFT") or os.path.join(
    os.path.dirname(ht.HOOKCASTD), "hookcast-draft")
URL_RE = re.compile(r"https?://|://|\bwww\.", re.IGNORECASE)
# "- [LABEL](URL)": no unescaped bracket in LABEL, no ')' or blank in URL
LINK_RE = re.compile(r"^- \[((?:[^\[\]\\]|\\.)*)\]\(([^()\s<>]+)\)$")


def corpus_facts(day):
    """html_url, commit ids and {merge sha: PR number} of a corpus day,
    read from the deliveries alone."""
    url, shas, prs = None, set(), {}
    for _name, meta, body in ht.corpus_deliveries(day):
        payload = json.loads(body)
        url = url or payload.get("repository", {}).get("html_url")
        if meta["event"] == "push":
            shas.update(c["id"] for c in payload["commits"])
        elif meta["event"] == "pull_request":
            pr = payload["pull_request"]
            if payload["action"] == "closed" and pr.get("merged"):
                prs[pr["merge_commit_sha"]] = pr["number"]
    return url, shas, prs


class LinksCheck:
    """Mixin: the checks of an episode's links against a day's facts."""

    def check_links(self, episode, md, url, shas, prs):
        self.assertEqual(episode.get("repository_url"), url)
        seen_commits, seen_prs = set(), set()
        for seg in episode["segments"]:
            self.assertIsNone(URL_RE.search(seg["text"]), seg["text"])
            sources = seg.get("sources")
            self.assertIsInstance(sources, list, seg)
            listed = [s["commit"] for s in sources if "commit" in s]
            self.assertEqual(listed, seg["commits"],
                             "a segment's sources are its commits")
            for i, s in enumerate(sources):
                if "commit" in s:
                    self.assertIn(s["commit"], shas)
                    self.assertEqual(s["url"],
                                     "%s/commit/%s" % (url, s["commit"]))
                    seen_commits.add(s["commit"])
                else:
                    n = s["pull_request"]
                    self.assertEqual(s["url"], "%s/pull/%d" % (url, n))
                    # right after the commit it merged as
                    self.assertGreater(i, 0)
                    self.assertEqual(prs.get(sources[i - 1].get("commit")),
                                     n, sources)
                    seen_prs.add(n)
        self.assertTrue(seen_commits, "no commit linked")
        self.assertEqual(seen_prs, {prs[s] for s in seen_commits
                                    if s in prs})
        for key in ("transcript", "description", "title"):
            self.assertIsNone(URL_RE.search(episode[key]), key)

        # the .md: a URL only after "## Links", which ends the file
        head, sep, tail = md.partition("\n## Links\n\n")
        self.assertEqual(sep, "\n## Links\n\n", md[-400:])
        self.assertIsNone(URL_RE.search(head), "a URL before the links")
        self.assertNotIn("## Links", tail)
        urls = []
        for line in tail.rstrip("\n").split("\n"):
            if line == "" or line.startswith("### "):
                continue
            m = LINK_RE.match(line)
            self.assertIsNotNone(m, "not a link line: %r" % line)
            urls.append(m.group(2))
        self.assertTrue(md.endswith(")\n"), md[-200:])
        want = [s["url"] for seg in episode["segments"]
                for s in seg["sources"]]
        self.assertEqual(urls, want, "the Links list is the sources' URLs")


class TestLinks(LinksCheck, unittest.TestCase):

    def flush(self, d, repo):
        reply = d.control("flush " + repo)
        self.assertIs(reply.get("ok"), True, reply)
        ep = reply["episodes"][0]
        with open(ep["json"], encoding="utf-8") as f:
            episode = json.load(f)
        with open(ep["markdown"], encoding="utf-8") as f:
            md = f.read()
        return episode, md

    def test_corpus_day_links_survive_restarts(self):
        url, shas, prs = corpus_facts(DAY)
        self.assertEqual(url, "https://github.com/redis/redis")
        self.assertTrue(prs)
        d = ht.Daemon()
        self.addCleanup(d.cleanup)
        d.replay(DAY)
        # killed: the delivery records are replayed as they were written
        d.kill()
        with ht.Daemon(tmp=d.tmp) as d2:
            self.assertEqual(d2.repo_stats("redis/redis")["commits"],
                             len(shas))
            d2.stop()
        # stopped: whatever the stop wrote is replayed
        with ht.Daemon(tmp=d.tmp) as d3:
            episode, md = self.flush(d3, "redis/redis")
            d3.stop()
        self.check_links(episode, md, url, shas, prs)
        # the rollback's commit and its pull request, by their pages
        self.assertIn("(https://github.com/redis/redis/pull/13266)\n", md)
        self.assertIn("(https://github.com/redis/redis/commit/"
                      "f1b02129173dd676feca0131dcde92d5b374dacf)\n", md)

    def test_hookcast_draft_links_as_the_daemon(self):
        if not os.access(DRAFT, os.X_OK):
            self.fail("hookcast-draft not found at %s" % DRAFT)
        url, shas, prs = corpus_facts(DAY)
        tmp = ht.make_tmpdir()
        self.addCleanup(shutil.rmtree, tmp, True)
        p = subprocess.run([DRAFT, "--output-dir", tmp,
                            os.path.join(ht.CORPUS, DAY)],
                           env=ht.daemon_env(), stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        base = os.path.join(tmp, "redis", "redis", "2024-05-15")
        with open(base + ".json", encoding="utf-8") as f:
            episode = json.load(f)
        with open(base + ".md", encoding="utf-8") as f:
            md = f.read()
        self.check_links(episode, md, url, shas, prs)

    def test_hostile_html_url_no_links(self):
        hostile = [
            "javascript:alert(1)",
            "https://github.com/x)[y](javascript:alert(1)/{repo}",
            "https://github.com/{repo})",
            "https://github.com/x\n## Links/{repo}",
            "https://github.com/x\"onmouseover=\"/{repo}",
            "https://github.com/x y/{repo}",
            "https://github.com/x<b>/{repo}",
            "https://github.com/" + "x" * 600 + "/{repo}",
            "https://github.com/someone/else",
            "ftp://github.com/{repo}",
            12,
        ]
        with ht.Daemon() as d:
            for i, bad in enumerate(hostile):
                repo = "hookcast-test/widget%d" % i
                payload = ht.make_push(repo=repo)
                payload["repository"]["html_url"] = \
                    bad.format(repo=repo) if isinstance(bad, str) else bad
                status, reply = d.post_payload(payload)
                # the delivery is kept; only its links are lost
                self.assertEqual(status, 200, (bad, reply))
                self.assertEqual(d.repo_stats(repo)["commits"], 1)
            d.kill()
            with ht.Daemon(tmp=d.tmp) as d2:
                for i, bad in enumerate(hostile):
                    repo = "hookcast-test/widget%d" % i
                    episode, md = self.flush(d2, repo)
                    self.assertIsNone(episode["repository_url"], bad)
                    for seg in episode["segments"]:
                        for s in seg["sources"]:
                            self.assertIsNone(s["url"], (bad, s))
                    self.assertNotIn("## Links", md, bad)
                    self.assertIsNone(URL_RE.search(md), (bad, md))
                d2.stop()


if __name__ == "__main__":
    unittest.main()
