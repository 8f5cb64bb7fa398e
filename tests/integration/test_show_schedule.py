"""A show on a schedule of its own in the real daemon (issue #30): a
[show] that sets emit_at, timezone or quiet_days keeps copies of its
members' days and is told at its own hour in its own zone.

- Under faketime: the show at 00:30 Europe/Paris (23:30 UTC the day
  before), the repositories at 23:31 UTC. The show's episode comes at
  23:30 with the deliveries before it and no repository's, dated by its
  day in Paris (a day later than in UTC); the repositories' episodes at
  23:31 with theirs, deliveries after 23:30 included; what came after
  23:30 is the show's next day, which a restart (after the compaction of
  23:31) keeps and a flush of the show tells.
- quiet_days = emit: a day without deliveries still gives an episode
  of the members told before, at the show's hour.
- Without faketime: `flush SHOW` tells the show from its copies and
  leaves its repositories their days; a restart before it keeps the
  copies (journal replay of the deliveries); `status SHOW` gives its next
  emission; a plain `flush` flushes the scheduled show too; a repository
  with own_episodes = false is told in the scheduled show only.
- A reload that takes the schedule away drops the copies with a warning;
  one that gives it back starts from the next delivery.
"""

import datetime
import json
import os
import shutil
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hookcast_test as ht  # noqa: E402

SHOW = ('[show "Acme Daily"]\nrepositories = acme/*\nemit_at = 00:30\n'
        'timezone = Europe/Paris\n')


def wait_for_timers():
    """The tests that wait for the schedule's timers in real time (a
    minute or more each) run in the release and sanitizer stages, not
    under valgrind: what they add there is the wait, and a timer missed
    by a slowed daemon; the same code paths (copies, compaction, replay,
    catch-up) run under valgrind in the other cases."""
    if os.environ.get("HOOKCAST_UNDER_VALGRIND"):
        raise unittest.SkipTest("waits for timers in real time; not under "
                                "valgrind")


class TestShowSchedule(unittest.TestCase):

    def setUp(self):
        self.tmp = ht.make_tmpdir()
        self.conf = os.path.join(self.tmp, "hookcast.conf")
        self.write_conf(SHOW)
        self.now = datetime.datetime.now(datetime.timezone.utc).strftime(
            "%Y-%m-%dT%H:%M:%SZ")
        self.dtmp = os.path.join(self.tmp, "d")
        os.makedirs(self.dtmp)

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def write_conf(self, text):
        with open(self.conf, "w") as f:
            f.write(text)

    def daemon(self, env=None, options=None):
        return ht.Daemon(extra_args=["--config", self.conf], env=env,
                         options=options or {}, tmp=self.dtmp)

    def push(self, d, repo, message, **kw):
        c = ht.make_commit(message, repo=repo, **kw)
        c["timestamp"] = self.now
        status, reply = d.post_payload(ht.make_push(commits=[c], repo=repo))
        self.assertTrue(200 <= status < 300, reply)

    def episodes(self, d, *path):
        folder = os.path.join(d.output_dir, *path)
        if not os.path.isdir(folder):
            return []
        out = []
        for n in os.listdir(folder):
            if n.endswith(".json") and "recap" not in n:
                with open(os.path.join(folder, n)) as f:
                    out.append((n[:-5], json.load(f)))
        # DATE, then DATE-2, DATE-3...
        return sorted(out, key=lambda e: (e[0][:10], int(e[0][11:] or 1)))

    def next_metric(self, d):
        """hookcast_show_next_emission_timestamp_seconds of the show."""
        status, _, data = d.request("GET", "/metrics")
        self.assertEqual(status, 200)
        for line in data.decode().splitlines():
            if line.startswith("hookcast_show_next_emission_timestamp_"
                               "seconds{show=\"acme-daily\"} "):
                return float(line.split()[1])
        self.fail("no next emission metric for the show")

    def members(self, ep):
        return {m["repository"]: m["stats"]["commits"]
                for m in ep["repositories"]}

    def test_own_hour_in_its_zone(self):
        env = ht.faketime_env("2026-03-01 23:29:40")
        if env is None:
            self.skipTest("libfaketime is not installed")
        wait_for_timers()
        env["FAKETIME_NO_CACHE"] = "1"
        self.now = "2026-03-01T23:00:00Z"
        opts = {"emit-at": "23:31"}
        with self.daemon(env, opts) as d:
            self.push(d, "acme/widgets", "Add a frobnicate option to the "
                      "widget renderer\n\nWidgets can now be frobnicated.")
            self.push(d, "acme/app", "Speed up the start-up screen")
            st = d.control("status acme-daily")
            self.assertEqual(st["show"]["next_emit"], "2026-03-01T23:30:00Z")
            self.assertEqual(self.next_metric(d), datetime.datetime(
                2026, 3, 1, 23, 30,
                tzinfo=datetime.timezone.utc).timestamp())
            d.wait_log(r"show acme-daily: scheduled emission", timeout=60)
            d.wait_log(r"emitted show Acme Daily episode", timeout=120)
            shows = self.episodes(d, "shows", "acme-daily")
            # its day began at 00:30 in Paris on March 1 (in UTC, on
            # February 28)
            self.assertEqual([n for n, _ in shows], ["2026-03-01"])
            self.assertEqual(self.members(shows[0][1]),
                             {"acme/widgets": 1, "acme/app": 1})
            # the repositories' days go on until their own hour
            self.assertEqual(self.episodes(d, "acme", "widgets"), [])
            self.assertEqual(d.repo_stats("acme/widgets")["commits"], 1)
            self.now = "2026-03-01T23:30:10Z"
            self.push(d, "acme/widgets", "Fix a crash when a widget has "
                      "no parent")
            self.push(d, "acme/site", "docs: fix a typo in the install "
                      "guide")
            d.wait_log(r"^.*scheduled emission$", timeout=90,
                       start=len(d.log()) - 1)
            d.wait_log(r"emitted acme/widgets episode", timeout=120)
            widgets = self.episodes(d, "acme", "widgets")
            self.assertEqual(len(widgets), 1)
            self.assertEqual(widgets[0][1]["stats"]["commits"], 2)
            # no second show episode at the repositories' hour
            self.assertEqual(len(self.episodes(d, "shows", "acme-daily")),
                             1)
            st = d.control("status acme-daily")
            self.assertEqual({r["repo"]: r["commits"] for r in st["repos"]
                              if r["commits"]},
                             {"acme/widgets": 1, "acme/site": 1})
            self.assertEqual(st["show"]["next_emit"], "2026-03-02T23:30:00Z")
            d.wait_log(r"journal compacted", timeout=60)
        # a restart later that morning: the show's next day is kept
        with self.daemon(ht.faketime_env("2026-03-01 23:35:00"), opts) as d:
            st = d.control("status acme-daily")
            self.assertEqual({r["repo"]: r["commits"] for r in st["repos"]
                              if r["commits"]},
                             {"acme/widgets": 1, "acme/site": 1})
            reply = d.control("flush acme-daily", timeout=120)
            self.assertTrue(reply.get("ok"), reply)
            shows = self.episodes(d, "shows", "acme-daily")
            self.assertEqual([n for n, _ in shows],
                             ["2026-03-01", "2026-03-02"])
            self.assertEqual(self.members(shows[1][1]),
                             {"acme/widgets": 1, "acme/site": 1})

    def test_catch_up_after_its_hour(self):
        """Down over the show's hour: the next start drafts its day,
        dated by its day in Paris, and the repositories' days (due a
        minute later) as well, each once."""
        env = ht.faketime_env("2026-03-01 23:20:00")
        if env is None:
            self.skipTest("libfaketime is not installed")
        self.now = "2026-03-01T23:00:00Z"
        opts = {"emit-at": "23:31"}
        with self.daemon(env, opts) as d:
            self.push(d, "acme/widgets", "Add a frobnicate option")
            self.push(d, "acme/app", "Speed up the start-up screen")
            d.stop()
        with self.daemon(ht.faketime_env("2026-03-01 23:40:00"),
                         opts) as d:
            d.wait_log(r"catch-up: show acme-daily's day was due")
            d.wait_log(r"emitted show Acme Daily episode", timeout=120)
            d.wait_log(r"emitted acme/app episode", timeout=120)
            shows = self.episodes(d, "shows", "acme-daily")
            self.assertEqual([n for n, _ in shows], ["2026-03-01"])
            self.assertEqual(self.members(shows[0][1]),
                             {"acme/widgets": 1, "acme/app": 1})
            self.assertEqual(len(self.episodes(d, "acme", "widgets")), 1)
            self.assertFalse(d.control("flush acme-daily").get("ok"))
            d.stop()
        # and a third start has nothing more to tell
        with self.daemon(ht.faketime_env("2026-03-01 23:45:00"),
                         opts) as d:
            self.assertNotRegex(d.log(), r"catch-up: show")
            self.assertEqual(len(self.episodes(d, "shows", "acme-daily")),
                             1)

    def test_quiet_day_told(self):
        """quiet_days = emit: at the show's hour with no delivery since
        its last episode, an episode of the members it told before, each
        in a quiet sentence."""
        env = ht.faketime_env("2026-03-01 23:20:00")
        if env is None:
            self.skipTest("libfaketime is not installed")
        wait_for_timers()
        self.write_conf(SHOW + "quiet_days = emit\n")
        self.now = "2026-03-01T23:00:00Z"
        with self.daemon(env) as d:
            self.push(d, "acme/site", "docs: fix a typo in the install "
                      "guide")
            reply = d.control("flush acme-daily", timeout=120)
            self.assertTrue(reply.get("ok"), reply)
            d.stop()
        env = ht.faketime_env("2026-03-01 23:29:52")
        env["FAKETIME_NO_CACHE"] = "1"
        with self.daemon(env) as d:
            d.wait_log(r"show acme-daily: scheduled emission", timeout=60)
            # its day from the flush (00:20 in Paris on March 2)
            d.wait_log(r"emitted show Acme Daily episode \S+/2026-03-02: ",
                       timeout=120)
            shows = self.episodes(d, "shows", "acme-daily")
            self.assertEqual([n for n, _ in shows],
                             ["2026-03-01", "2026-03-02"])
            ep = shows[1][1]
            self.assertEqual(self.members(ep), {"acme/site": 0})
            self.assertTrue(ep["repositories"][0]["quiet"])
            self.assertEqual(ep["stats"]["commits"], 0)
            # told as a quiet day of site, not a day of "zero
            # repositories" or of upkeep
            self.assertIn("Nothing landed.", ep["transcript"])
            self.assertIn("A quiet day in site", ep["transcript"])
            self.assertNotIn("zero", ep["transcript"].lower())
            self.assertNotIn("upkeep", ep["transcript"])
            self.assertEqual(ep["description"],
                             "No commits across one repository: site.")

    def test_flush_restart_and_own_episodes(self):
        self.write_conf(SHOW + '\n[repo "acme/site"]\nown_episodes = '
                        'false\n')
        with self.daemon() as d:
            self.push(d, "acme/widgets", "Add a frobnicate option to the "
                      "widget renderer\n\nWidgets can now be frobnicated.")
            self.push(d, "acme/site", "docs: fix a typo in the install "
                      "guide")
            d.stop()
        with self.daemon() as d:
            self.push(d, "acme/app", "Speed up the start-up screen")
            self.push(d, "other/tool", "Read the input in batches")
            st = d.control("status acme-daily")
            self.assertIn("next_emit", st["show"])
            self.assertEqual(sorted(r["repo"] for r in st["repos"]),
                             ["acme/app", "acme/site", "acme/widgets"])
            # a preview changes nothing
            reply = d.control("preview acme-daily", timeout=120)
            self.assertTrue(reply.get("ok"), reply)
            self.assertEqual(self.episodes(d, "shows", "acme-daily"), [])
            reply = d.control("flush acme-daily", timeout=120)
            self.assertTrue(reply.get("ok"), reply)
            self.assertEqual([e["repo"] for e in reply["episodes"]],
                             ["shows/acme-daily"])
            shows = self.episodes(d, "shows", "acme-daily")
            self.assertEqual(self.members(shows[0][1]),
                             {"acme/widgets": 1, "acme/site": 1,
                              "acme/app": 1})
            # the repositories keep their days for their own hour
            self.assertEqual(d.repo_stats("acme/widgets")["commits"], 1)
            self.assertFalse(d.control("flush acme-daily").get("ok"))
            # a plain flush: the repositories, the site told in its show
            self.push(d, "acme/app", "Retry the sign-in once on a timeout")
            reply = d.control("flush", timeout=120)
            self.assertTrue(reply.get("ok"), reply)
            d.wait_log(r"emitted show Acme Daily episode \S+/\S+-2: ",
                       timeout=120)
            self.assertEqual(
                sorted(e["repo"] for e in reply["episodes"]),
                ["acme/app", "acme/widgets", "other/tool"])
            self.assertRegex(d.log(), r"emit acme/site: told in its shows "
                             r"only")
            self.assertEqual(self.episodes(d, "acme", "site"), [])
            shows = self.episodes(d, "shows", "acme-daily")
            self.assertEqual(len(shows), 2)
            self.assertEqual(self.members(shows[1][1]), {"acme/app": 1})

    def test_reload_takes_the_schedule_away_and_back(self):
        with self.daemon() as d:
            self.push(d, "acme/widgets", "Add a frobnicate option")
            self.write_conf('[show "Acme Daily"]\nrepositories = acme/*\n')
            self.assertTrue(d.control("reload").get("ok"))
            d.wait_log(r"show acme-daily: no longer on a schedule of its "
                       r"own; the copies of its members' days are dropped")
            self.assertNotIn("next_emit",
                             d.control("status acme-daily")["show"])
            self.write_conf(SHOW)
            self.assertTrue(d.control("reload").get("ok"))
            d.wait_log(r"show Acme Daily: told on its own schedule, from "
                       r"its repositories' deliveries from now on")
            self.assertFalse(d.control("flush acme-daily").get("ok"))
            self.push(d, "acme/app", "Speed up the start-up screen")
            reply = d.control("flush acme-daily", timeout=120)
            self.assertTrue(reply.get("ok"), reply)
            shows = self.episodes(d, "shows", "acme-daily")
            self.assertEqual(self.members(shows[0][1]), {"acme/app": 1})


if __name__ == "__main__":
    unittest.main()
