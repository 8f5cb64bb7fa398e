"""Shows in the real daemon (issue #30): a [show] of an organisation's
repositories, emitted with them.

- An organisation of three (a busy library, an app that reverts the
  library's change of the day, a quiet docs site with own_episodes =
  false) and a repository outside the show: `flush` writes the show's
  episode in OUTPUT_DIR/shows/SLUG with the counts per repository and in
  total, the revert told right after the story it undoes, the quiet site
  in one sentence; the library and the app keep their own episodes, the
  site has none; the show's feed parses and is served under
  /episodes/shows/SLUG/.
- A restart mid-day keeps the show's day: deliveries before and after
  the restart are in one show episode (journal replay).
- A reload that adds a repository to the show takes it in with its next
  delivery (and its open day); one that leaves a repository out leaves it
  to its own episode.
- `flush SHOW` (by name or slug) emits the show and its repositories
  only: a repository outside it keeps its open day.
- hookcast-draft --show of the same deliveries gives the same transcript
  as the daemon.
"""

import datetime
import json
import os
import shutil
import subprocess
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hookcast_test as ht  # noqa: E402

DRAFT = os.environ.get("HOOKCAST_DRAFT") or os.path.join(
    os.path.dirname(ht.HOOKCASTD), "hookcast-draft")
CONF = ('[show "Acme Daily"]\nrepositories = acme/*\n\n'
        '[repo "acme/site"]\nown_episodes = false\n')


def feedparser_module():
    try:
        import feedparser
    except ImportError:
        sys.path.append("/usr/lib/python3/dist-packages")
        import feedparser
    return feedparser


class TestShowDaemon(unittest.TestCase):

    def setUp(self):
        self.tmp = ht.make_tmpdir()
        self.conf = os.path.join(self.tmp, "hookcast.conf")
        with open(self.conf, "w") as f:
            f.write(CONF)
        self.lib_sha = ht.new_sha()
        self.sent = []
        # commits of today: hookcast-draft --day tells a date by them
        self.now = datetime.datetime.now(datetime.timezone.utc).strftime(
            "%Y-%m-%dT%H:%M:%SZ")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def daemon(self, tmp=None):
        tmp = tmp or os.path.join(self.tmp, "d")
        os.makedirs(tmp, exist_ok=True)
        return ht.Daemon(extra_args=["--config", self.conf],
                         options={"serve-episodes": "true"}, tmp=tmp)

    def push(self, d, repo, commits):
        for c in commits:
            c["timestamp"] = self.now
        payload = ht.make_push(commits=commits, repo=repo)
        self.sent.append(payload)
        status, reply = d.post_payload(payload)
        self.assertTrue(200 <= status < 300, reply)

    def post_lib(self, d):
        self.push(d, "acme/widgets", [
            ht.make_commit("Add a frobnicate option to the widget "
                           "renderer\n\nWidgets can now be frobnicated "
                           "before they are drawn, which saves a second "
                           "pass.", sha=self.lib_sha, repo="acme/widgets"),
            ht.make_commit("Fix a crash when a widget has no parent",
                           name="Grace Hopper", username="grace",
                           repo="acme/widgets")])

    def post_app(self, d):
        self.push(d, "acme/app", [
            ht.make_commit("Revert \"Add a frobnicate option to the widget "
                           "renderer\"\n\nThis reverts commit %s.\n\nIt "
                           "broke the app's start-up on older screens."
                           % self.lib_sha, name="Alan Turing",
                           username="alan", repo="acme/app")])

    def post_site(self, d):
        self.push(d, "acme/site", [
            ht.make_commit("docs: fix a typo in the install guide",
                           name="Edsger Dijkstra", username="edsger",
                           repo="acme/site")])

    def post_other(self, d):
        self.push(d, "other/tool", [
            ht.make_commit("Speed up the parser by reading in batches",
                           repo="other/tool")])

    def show_episode(self, d):
        folder = os.path.join(d.output_dir, "shows", "acme-daily")
        names = sorted(n for n in os.listdir(folder)
                       if n.endswith(".json"))
        self.assertEqual(len(names), 1, names)
        with open(os.path.join(folder, names[0])) as f:
            return folder, names[0][:-5], json.load(f)

    def flush(self, d, arg=""):
        reply = d.control(("flush " + arg).strip(), timeout=120)
        self.assertTrue(reply.get("ok"), reply)
        return reply

    def audio_ok(self, d):
        """Episodes spoken, by /metrics."""
        status, _, data = d.request("GET", "/metrics")
        self.assertEqual(status, 200)
        for line in data.decode().splitlines():
            if line.startswith('hookcast_audio_total{outcome="ok"} '):
                return int(float(line.split()[1]))
        return 0

    def test_flush_tells_the_show(self):
        with self.daemon() as d:
            self.post_lib(d)
            self.post_app(d)
            self.post_site(d)
            self.post_other(d)
            reply = self.flush(d)
            repos = [e.get("repo") for e in reply["episodes"]]
            self.assertIn("shows/acme-daily", repos)
            self.assertIn("acme/widgets", repos)
            self.assertIn("other/tool", repos)
            self.assertNotIn("acme/site", repos)
            folder, name, ep = self.show_episode(d)
            # the site is told only in the show
            self.assertFalse(os.path.exists(
                os.path.join(d.output_dir, "acme", "site")))
            self.assertTrue(os.path.exists(
                os.path.join(d.output_dir, "acme", "widgets")))
            got = {m["repository"]: m for m in ep["repositories"]}
            self.assertEqual(sorted(got),
                             ["acme/app", "acme/site", "acme/widgets"])
            self.assertEqual(got["acme/widgets"]["stats"]["commits"], 2)
            self.assertEqual(got["acme/app"]["stats"]["reverts"], 1)
            self.assertTrue(got["acme/site"]["quiet"])
            self.assertEqual(ep["stats"]["commits"], 4)
            self.assertIn("A quiet day in site", ep["transcript"])
            self.assertNotIn("typo", ep["transcript"])
            texts = [s["text"] for s in ep["segments"]]
            lib = [i for i, t in enumerate(texts) if i > 0 and
                   "frobnicate" in t and "rolled back" not in t]
            rev = [i for i, t in enumerate(texts)
                   if t.startswith("Over in app, ") and "rolled back" in t]
            self.assertTrue(lib and rev, texts)
            self.assertEqual(rev[0], lib[0] + 1, texts)
            # the change undone is said once, not again as "an earlier
            # change" right after its own story
            self.assertNotIn("earlier change", texts[rev[0]])
            self.assertEqual(texts[rev[0]].count("rolled back"), 1,
                             texts[rev[0]])
            feed = feedparser_module().parse(
                os.path.join(folder, "feed.xml"))
            self.assertFalse(feed.bozo, getattr(feed, "bozo_exception", ""))
            self.assertEqual(feed.feed.title, "Acme Daily")
            status, _, body = d.request(
                "GET", "/episodes/shows/acme-daily/%s.txt" % name)
            self.assertEqual(status, 200)
            self.assertIn(b"A quiet day in site", body)

    def test_show_speaks_with_its_voice(self):
        """A show's voice and feed keys are its own when its episode is
        spoken: the show's audio is in its section's voice, a member's
        in the global one, and the feed the audio rewrites keeps the
        show's owner."""
        with open(self.conf, "w") as f:
            f.write('[show "Acme Daily"]\nrepositories = acme/*\n'
                    'voice = slt\nfeed_owner_name = Acme Radio\n'
                    'feed_owner_email = radio@acme.example\n')
        opts = {"serve-episodes": "true", "audio": "on",
                "words-per-minute": "400"}
        tmp = os.path.join(self.tmp, "d")
        os.makedirs(tmp)
        with ht.Daemon(extra_args=["--config", self.conf], options=opts,
                       tmp=tmp) as d:
            self.post_lib(d)
            self.flush(d)
            deadline = time.monotonic() + 300
            while time.monotonic() < deadline and \
                    self.audio_ok(d) < 2:
                time.sleep(0.2)
            self.assertEqual(self.audio_ok(d), 2, d.log())
            folder, name, ep = self.show_episode(d)
            self.assertEqual(ep["audio"]["voice"], "slt")
            own = os.path.join(d.output_dir, "acme", "widgets")
            with open(os.path.join(own, name + ".json")) as f:
                self.assertEqual(json.load(f)["audio"]["voice"], "rms")
            with open(os.path.join(folder, "feed.xml")) as f:
                feed = f.read()
            self.assertIn("<enclosure", feed)
            self.assertIn("Acme Radio", feed)
            self.assertIn("radio@acme.example", feed)

    def test_weekly_recap_of_the_show(self):
        """The weekly recap covers a show's episodes as a repository's,
        said as the show's repositories, in the show's folder."""
        with self.daemon() as d:
            self.post_lib(d)
            self.post_app(d)
            self.flush(d)
            reply = d.control("recap shows/acme-daily", timeout=60)
            self.assertTrue(reply.get("ok"), reply)
            ep = reply["episodes"][0]
            self.assertEqual(ep["repo"], "shows/acme-daily")
            with open(ep["json"]) as f:
                recap = json.load(f)
            self.assertEqual(recap["show"], "Acme Daily")
            self.assertIn("the show's repositories", recap["transcript"])
            self.assertNotIn("shows/", recap["transcript"])
            self.assertEqual(recap["stats"]["commits"], 3)

    def test_show_recap_on_its_weekday(self):
        """Under faketime, 15 s before a Monday's 10:00 emission: the
        show's recap_weekday is Monday, the global one Tuesday. The
        scheduled emission writes the show's weekly recap and no
        repository's."""
        env = ht.faketime_env("2026-03-02 09:59:45")
        if env is None:
            self.skipTest("libfaketime is not installed")
        env["FAKETIME_NO_CACHE"] = "1"
        with open(self.conf, "w") as f:
            f.write('[show "Acme Daily"]\nrepositories = acme/*\n'
                    'recap_weekday = monday\n')
        self.now = "2026-03-02T09:30:00Z"
        tmp = os.path.join(self.tmp, "d")
        os.makedirs(tmp)
        with ht.Daemon(env=env, extra_args=["--config", self.conf],
                       options={"emit-at": "10:00",
                                "recap-weekday": "tuesday"},
                       tmp=tmp) as d:
            self.post_lib(d)
            self.flush(d)
            d.wait_log(r"weekly recap .*shows/acme-daily.*2026-03-02-recap",
                       timeout=120)
            d.wait_log(r"scheduled emission", timeout=10)
            # the job's recaps are told together; give a straggler time
            time.sleep(2)
            self.assertTrue(os.path.exists(os.path.join(
                d.output_dir, "shows", "acme-daily",
                "2026-03-02-recap.json")))
            self.assertEqual([n for n in os.listdir(os.path.join(
                d.output_dir, "acme", "widgets")) if "recap" in n], [])
            self.assertNotRegex(d.log(), r"weekly recap .*acme/widgets")

    def test_restart_keeps_the_show_day(self):
        tmp = os.path.join(self.tmp, "d")
        with self.daemon(tmp) as d:
            self.post_lib(d)
            self.post_app(d)
            d.stop()
        with self.daemon(tmp) as d:
            self.post_site(d)
            self.flush(d)
            _, _, ep = self.show_episode(d)
            self.assertEqual(ep["stats"]["commits"], 4)
            self.assertEqual(
                sorted(m["repository"] for m in ep["repositories"]),
                ["acme/app", "acme/site", "acme/widgets"])

    def test_reload_adds_and_removes_members(self):
        """A reload that widens the show to acme/app takes the app in
        from its next delivery; one that leaves acme/widgets out of it
        leaves it to its own episode. A repository joining a show by a
        reload brings its whole open day: the show tells the day of each
        member, as a restart replaying the journal would."""
        with open(self.conf, "w") as f:
            f.write('[show "Acme Daily"]\nrepositories = acme/widgets\n')
        with self.daemon() as d:
            self.post_lib(d)
            with open(self.conf, "w") as f:
                f.write('[show "Acme Daily"]\n'
                        'repositories = acme/widgets, acme/app\n')
            self.assertTrue(d.control("reload").get("ok"))
            self.post_app(d)
            st = d.control("status acme-daily")
            self.assertEqual(sorted(r["repo"] for r in st["repos"]),
                             ["acme/app", "acme/widgets"])
            self.flush(d)
            _, _, ep = self.show_episode(d)
            self.assertEqual(
                sorted(m["repository"] for m in ep["repositories"]),
                ["acme/app", "acme/widgets"])
            self.assertEqual(ep["stats"]["commits"], 3)
            # the app's revert of the widget's change, told as one story
            self.assertIn("rolled back", ep["transcript"])
            shutil.rmtree(os.path.join(d.output_dir, "shows"))
            with open(self.conf, "w") as f:
                f.write('[show "Acme Daily"]\nrepositories = acme/app\n')
            self.assertTrue(d.control("reload").get("ok"))
            self.post_lib(d)
            self.post_app(d)
            self.flush(d)
            _, _, ep = self.show_episode(d)
            self.assertEqual([m["repository"] for m in ep["repositories"]],
                             ["acme/app"])
            self.assertEqual(ep["stats"]["commits"], 1)

    def test_flush_the_show_alone(self):
        with self.daemon() as d:
            self.post_lib(d)
            self.post_other(d)
            reply = self.flush(d, "acme-daily")
            repos = sorted(e.get("repo") for e in reply["episodes"])
            self.assertEqual(repos, ["acme/widgets", "shows/acme-daily"])
            # the repository outside the show keeps its day
            self.assertEqual(d.repo_stats("other/tool")["commits"], 1)
            self.assertEqual(d.repo_stats("acme/widgets")["commits"], 0)
            reply = d.control("flush nobody-daily")
            self.assertFalse(reply.get("ok"), reply)
            # status of the show: its repositories alone, and the shows
            self.post_lib(d)
            st = d.control("status acme-daily")
            self.assertTrue(st.get("ok"), st)
            self.assertEqual(st["show"], {"name": "Acme Daily",
                                          "slug": "acme-daily"})
            self.assertEqual([r["repo"] for r in st["repos"]],
                             ["acme/widgets"])
            self.assertEqual(st["repos"][0]["commits"], 2)
            self.assertEqual(st["shows"], [{"name": "Acme Daily",
                                            "slug": "acme-daily",
                                            "active": 1}])
            self.assertIn("other/tool",
                          [r["repo"] for r in d.status()["repos"]])
            self.assertFalse(d.control("status nobody-daily").get("ok"))

    def test_told_somewhere(self):
        """own_episodes = false and flushed alone, with no show to tell
        it: the day has its own episode after all."""
        with self.daemon() as d:
            self.post_site(d)
            reply = self.flush(d, "acme/site")
            self.assertEqual([e.get("repo") for e in reply["episodes"]],
                             ["acme/site"])
            self.assertTrue(os.path.isdir(
                os.path.join(d.output_dir, "acme", "site")))
            self.assertFalse(os.path.exists(
                os.path.join(d.output_dir, "shows")))

    def test_sink_takes_the_show(self):
        """A sink with shows = the show's name takes its episode alone;
        one with repositories takes theirs and not the show's; one with
        neither takes both."""
        got = os.path.join(self.tmp, "got")
        sink = os.path.join(self.tmp, "sink.sh")
        with open(sink, "w") as f:
            f.write('#!/bin/sh\necho "$HOOKCAST_SINK $HOOKCAST_REPOSITORY"'
                    ' >> %s\ncat > /dev/null\n' % got)
        os.chmod(sink, 0o755)
        with open(self.conf, "a") as f:
            for name, key in (("show", "shows = Acme Daily"),
                              ("repos", "repositories = acme/*"),
                              ("all", "")):
                f.write('[sink "%s"]\ntype = exec\ncommand = %s\n%s\n'
                        % (name, sink, key))
        with self.daemon() as d:
            self.post_lib(d)
            self.flush(d)
            want = {"show shows/acme-daily", "repos acme/widgets",
                    "all acme/widgets", "all shows/acme-daily"}
            for _ in range(200):
                if os.path.exists(got):
                    with open(got) as f:
                        lines = set(f.read().split("\n")) - {""}
                    if lines >= want:
                        break
                time.sleep(0.05)
            self.assertEqual(lines, want)
        # a sink naming a show the configuration lacks is an error
        with open(self.conf, "a") as f:
            f.write('[sink "typo"]\ntype = exec\ncommand = %s\n'
                    'shows = Acme Weekly\n' % sink)
        p = ht.run_daemon(["--config=" + self.conf, "--check-config"],
                          cwd=self.tmp)
        self.assertEqual(p.returncode, 1)
        self.assertIn("shows: [sink \"typo\"] names 'acme-weekly', no "
                      "[show]", p.stderr)

    def test_same_as_hookcast_draft(self):
        with self.daemon() as d:
            self.post_lib(d)
            self.post_app(d)
            self.post_site(d)
            self.flush(d)
            folder, name, ep = self.show_episode(d)
            with open(os.path.join(folder, name + ".txt")) as f:
                daemon_txt = f.read()
        # the same deliveries as folders, one per repository
        for i, payload in enumerate(self.sent, 1):
            # on the date the daemon told: a run across midnight UTC had
            # its commits dated the day before the daemon's window
            for c in payload["commits"]:
                c["timestamp"] = ep["date"] + "T12:00:00Z"
            sub = os.path.join(self.tmp, "in", payload["repository"]
                               ["full_name"].replace("/", "_"))
            os.makedirs(sub, exist_ok=True)
            base = os.path.join(sub, "%04d" % i)
            with open(base + ".json", "wb") as f:
                f.write(ht.body_of(payload))
            with open(base + ".meta.json", "w") as f:
                json.dump({"event": "push", "delivery": "d-%d" % i,
                           "time": ep["window"]["start"]}, f)
        out = os.path.join(self.tmp, "draft")
        r = subprocess.run(
            [DRAFT, "--config", self.conf, "--timezone", "UTC", "--day",
             ep["date"], "--show", "Acme Daily", "--output-dir", out] +
            sorted(os.path.join(self.tmp, "in", n)
                   for n in os.listdir(os.path.join(self.tmp, "in"))),
            env=ht.daemon_env(), capture_output=True, text=True,
            timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(out, "shows", "acme-daily",
                               ep["date"] + ".txt")) as f:
            self.assertEqual(f.read(), daemon_txt)


if __name__ == "__main__":
    unittest.main(verbosity=2)
