"""hookcast-draft against the daemon it stands in for.

- Every corpus day: replayed into hookcastd running at that date (under
  libfaketime: the day opens at its local midnight, and the daemon,
  started again after the next midnight, catches up and emits it), then
  drafted by hookcast-draft from the same folder without any clock trick.
  The two transcripts must be the same bytes, and name the day's date.
- --day and the day picked by default, across a time zone boundary, with
  the commits left out counted in the note.
- A folder with a bad delivery is refused with the file and the daemon's
  own reason, and nothing is written; deliveries of events and branches
  hookcast doesn't keep are skipped and counted; config errors name the
  file, line and key.
"""

import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import unittest
from zoneinfo import ZoneInfo

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hookcast_test as ht  # noqa: E402

DRAFT = os.environ.get("HOOKCAST_DRAFT") or os.path.join(
    os.path.dirname(ht.HOOKCASTD), "hookcast-draft")

# The zone each corpus day was lived in (tests/data/corpus/README.md);
# express's 16 commits are all of September 9th in Chicago.
ZONES = {
    "ao-2026-02-12": "America/New_York",
    "ao-2026-03-24": "America/New_York",
    "curl-2026-02-14-quiet": "Europe/Stockholm",
    "curl-2026-06-01": "Europe/Stockholm",
    "express-2024-09-09-releases": "America/Chicago",
    "redis-2024-05-15-revert": "Asia/Jerusalem",
    "requests-2026-01-30": "America/Denver",
    "tokio-2026-08-09": "Europe/Berlin",
    "vite-2026-06-30-busy": "Asia/Tokyo",
}
MONTHS = ("January", "February", "March", "April", "May", "June", "July",
          "August", "September", "October", "November", "December")


def spoken(date):
    """June 1st, 2026: how an episode says a date."""
    d = date.day
    suffix = "th" if 11 <= d % 100 <= 13 else \
        {1: "st", 2: "nd", 3: "rd"}.get(d % 10, "th")
    return "%s %d%s, %d" % (MONTHS[date.month - 1], d, suffix, date.year)


def draft(args, timeout=120):
    """Run hookcast-draft; the CompletedProcess (text)."""
    return subprocess.run([DRAFT] + list(args), env=ht.daemon_env(),
                          stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, errors="replace", timeout=timeout)


def utc_of(date, zone, seconds):
    """'YYYY-MM-DD HH:MM:SS' in UTC of seconds after date's local
    midnight in zone, as libfaketime takes it."""
    t = datetime.datetime(date.year, date.month, date.day,
                          tzinfo=ZoneInfo(zone))
    t += datetime.timedelta(seconds=seconds)
    return t.astimezone(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S")


def write_deliveries(folder, deliveries):
    """deliveries: [(event, payload dict, time 'YYYY-MM-DDTHH:MM:SSZ')]
    as NNNN.json and NNNN.meta.json."""
    os.makedirs(folder, exist_ok=True)
    for i, (event, payload, when) in enumerate(deliveries, 1):
        base = os.path.join(folder, "%04d" % i)
        body = payload if isinstance(payload, bytes) else \
            ht.body_of(payload)
        with open(base + ".json", "wb") as f:
            f.write(body)
        with open(base + ".meta.json", "w") as f:
            json.dump({"event": event, "delivery": "d-%d-%s" % (i, when),
                       "time": when}, f)


class Base(unittest.TestCase):

    def setUp(self):
        if not os.access(DRAFT, os.X_OK):
            self.fail("hookcast-draft not found at %s (set HOOKCAST_DRAFT)"
                      % DRAFT)
        self.tmp = ht.make_tmpdir()

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def config(self, text):
        path = os.path.join(self.tmp, "hookcast.conf")
        with open(path, "w") as f:
            f.write(text)
        return path


class TestCorpusAgainstDaemon(Base):
    """The daemon's episode of each corpus day, at its date, and
    hookcast-draft's of the same folder: the same transcript."""

    def daemon_episode(self, day, zone, date):
        tmp = os.path.join(self.tmp, day)
        os.makedirs(tmp)
        # the day opens at local midnight: emit_at 00:00
        opts = {"timezone": zone, "emit-at": "00:00"}
        env = ht.faketime_env(utc_of(date, zone, 30))
        with ht.Daemon(tmp=tmp, options=opts, env=env) as d:
            d.replay(day)
            d.stop()
        # the next day: the missed emission is caught up, published at
        # its due time (the end of the window), so the bytes are fixed
        env = ht.faketime_env(utc_of(date + datetime.timedelta(days=1),
                                     zone, 30))
        with ht.Daemon(tmp=tmp, options=opts, env=env) as d:
            repo = ht_repo(day)
            d.wait_log(r"emitted %s episode" % re.escape(repo))
            path = os.path.join(d.output_dir, repo, date.isoformat() + ".md")
            self.assertTrue(os.path.isfile(path),
                            "%s: the daemon wrote no %s; it has %r" % (
                                day, path, os.listdir(os.path.dirname(
                                    path))))
            with open(path, "rb") as f:
                md = f.read()
            d.stop()
        return md

    def test_every_corpus_day(self):
        if ht.faketime_env("2026-06-01 00:00:00") is None:
            self.skipTest("libfaketime is not installed")
        conf = self.config("emit_at = 00:00\n")
        for day in ht.corpus_days():
            with self.subTest(day=day):
                zone = ZONES.get(day, "UTC")
                m = re.search(r"\d{4}-\d\d-\d\d", day)
                date = datetime.date.fromisoformat(m.group(0))
                want = self.daemon_episode(day, zone, date)
                p = draft(["--config", conf, "--timezone", zone,
                           os.path.join(ht.CORPUS, day)])
                self.assertEqual(p.returncode, 0, p.stderr)
                got = p.stdout.encode("utf-8")
                self.assertIn(spoken(date), got.decode("utf-8"),
                              "%s: the date is not told" % day)
                # published at the next local midnight, emit_at 00:00
                published = utc_of(date + datetime.timedelta(days=1),
                                   zone, 0).replace(" ", "T") + "Z"
                self.assertIn(("- Published: %s\n" % published).encode(),
                              got)
                if got != want:
                    self.fail("%s: hookcast-draft's transcript differs "
                              "from the daemon's:\n%s" % (day, first_diff(
                                  want.decode("utf-8", "replace"),
                                  got.decode("utf-8", "replace"))))
                # not one commit of these days is left out
                self.assertNotIn("left out", p.stderr, day)

    def test_output_dir_writes_the_daemons_files(self):
        """--output-dir: the .md is stdout's, beside .json, .txt and
        feed.xml; a second day becomes the first's nearby episode."""
        out = os.path.join(self.tmp, "episodes")
        conf = self.config("timezone = Europe/Stockholm\n"
                           "[repo \"curl/curl\"]\nshow = The curl Daily\n")
        folder = os.path.join(ht.CORPUS, "curl-2026-06-01")
        p = draft(["--config", conf, "--output-dir", out, folder])
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout, "")
        base = os.path.join(out, "curl", "curl", "2026-06-01")
        for ext in (".md", ".json", ".txt"):
            self.assertTrue(os.path.isfile(base + ext), base + ext)
        self.assertTrue(os.path.isfile(os.path.join(out, "curl", "curl",
                                                    "feed.xml")))
        with open(base + ".json") as f:
            ep = json.load(f)
        self.assertEqual(ep["show"], "The curl Daily")
        self.assertEqual(ep["stats"]["commits"], 19)
        # Stockholm's June 1st, and published at 10:00 there on the 2nd
        self.assertEqual(ep["window"], {"start": "2026-05-31T22:00:00Z",
                                        "end": "2026-06-01T22:00:00Z"})
        self.assertEqual(ep["published"], "2026-06-02T08:00:00Z")
        with open(base + ".md") as f:
            md = f.read()
        p = draft(["--config", conf, folder])
        self.assertEqual(p.stdout, md)
        # the quiet day of February, then June's again: nearby, no "-2"
        p = draft(["--config", conf, "--output-dir", out,
                   os.path.join(ht.CORPUS, "curl-2026-02-14-quiet")])
        self.assertEqual(p.returncode, 0, p.stderr)
        p = draft(["--config", conf, "--output-dir", out, folder])
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(sorted(f for f in os.listdir(os.path.dirname(base))
                                if f.endswith(".md")),
                         ["2026-02-14.md", "2026-06-01.md"])
        with open(base + ".json") as f:
            ep = json.load(f)
        self.assertEqual([n["date"] for n in ep["nearby"]], ["2026-02-14"])
        # --show wins over the file
        p = draft(["--config", conf, "--show", "Curl Tonight", folder])
        self.assertTrue(p.stdout.startswith("# Curl Tonight: "),
                        p.stdout[:80])


def ht_repo(day):
    """The repository of a corpus day's deliveries."""
    for _, _, body in ht.corpus_deliveries(day):
        repo = json.loads(body).get("repository", {}).get("full_name")
        if repo:
            return repo
    raise AssertionError("%s: no repository" % day)


def first_diff(a, b):
    al, bl = a.splitlines(), b.splitlines()
    for i, (x, y) in enumerate(zip(al, bl)):
        if x != y:
            return "line %d:\n  daemon: %r\n  draft:  %r" % (i + 1, x, y)
    return "lengths %d and %d lines" % (len(al), len(bl))


class TestDays(Base):
    """Five commits from 22:30 to 02:30 UTC, March 10th to 11th 2026."""

    TIMES = ("2026-03-10T22:30:00Z", "2026-03-10T23:30:00Z",
             "2026-03-11T00:30:00Z", "2026-03-11T01:30:00Z",
             "2026-03-11T02:30:00Z")

    def setUp(self):
        super().setUp()
        self.folder = os.path.join(self.tmp, "in")
        deliveries = []
        for i, when in enumerate(self.TIMES):
            c = ht.make_commit(timestamp=when, message="gears: turn %d "
                               "percent smoother\n\nBy %d." % (i + 1, i + 1))
            deliveries.append(("push", ht.make_push([c]), when))
        write_deliveries(self.folder, deliveries)

    def episode(self, *args):
        out = os.path.join(self.tmp, "out-%d" % len(os.listdir(self.tmp)))
        p = draft(list(args) + ["--output-dir", out, self.folder])
        self.assertEqual(p.returncode, 0, p.stderr)
        folder = os.path.join(out, "hookcast-test", "widget")
        files = sorted(f for f in os.listdir(folder) if f.endswith(".json"))
        self.assertEqual(len(files), 1, files)
        with open(os.path.join(folder, files[0])) as f:
            ep = json.load(f)
        return files[0][:-len(".json")], ep, p.stderr

    def test_busiest_date_by_default(self):
        date, ep, err = self.episode()
        self.assertEqual(date, "2026-03-11")
        self.assertEqual(ep["stats"]["commits"], 3)
        self.assertIn("2 commits outside 2026-03-11 (UTC) left out", err)
        self.assertIn("March 11th, 2026", ep["transcript"])

    def test_zone_moves_the_boundary(self):
        # New York (UTC-4 since March 8th): all five on the 10th
        date, ep, err = self.episode("--timezone", "America/New_York")
        self.assertEqual(date, "2026-03-10")
        self.assertEqual(ep["stats"]["commits"], 5)
        self.assertNotIn("left out", err)
        self.assertIn("March 10th, 2026", ep["transcript"])
        # Tokyo (UTC+9): all five on the 11th
        date, ep, err = self.episode("--timezone", "Asia/Tokyo")
        self.assertEqual(date, "2026-03-11")
        self.assertEqual(ep["stats"]["commits"], 5)

    def test_day_selects(self):
        date, ep, err = self.episode("--day", "2026-03-10")
        self.assertEqual(date, "2026-03-10")
        self.assertEqual(ep["stats"]["commits"], 2)
        self.assertIn("3 commits outside 2026-03-10 (UTC) left out", err)
        self.assertEqual(ep["window"], {"start": "2026-03-10T00:00:00Z",
                                        "end": "2026-03-11T00:00:00Z"})
        # Tokyo's 10th ends at 15:00 UTC: nothing of it here
        p = draft(["--timezone", "Asia/Tokyo", "--day", "2026-03-10",
                   self.folder])
        self.assertEqual(p.returncode, 1)
        self.assertEqual(p.stdout, "")
        self.assertIn("5 commits outside 2026-03-10 (Asia/Tokyo) left out",
                      p.stderr)
        self.assertIn("nothing on 2026-03-10", p.stderr)
        p = draft(["--day", "2026-02-30", self.folder])
        self.assertEqual(p.returncode, 2)
        self.assertIn("--day: '2026-02-30' is not a date", p.stderr)


class TestRefused(Base):

    def test_bad_delivery_named_with_the_daemons_reason(self):
        good = ht.make_push([ht.make_commit()])
        bad = ht.make_push([ht.make_commit()])
        bad["commits"][0]["id"] = 42
        folder = os.path.join(self.tmp, "in")
        write_deliveries(folder, [
            ("push", good, "2026-03-02T10:15:00Z"),
            ("push", bad, "2026-03-02T10:16:00Z"),
            ("push", b'{"ref": ', "2026-03-02T10:17:00Z")])
        out = os.path.join(self.tmp, "out")
        p = draft(["--output-dir", out, folder])
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertFalse(os.path.exists(out), "files written: %r"
                         % list(os.walk(out)))
        with ht.Daemon() as d:
            status, reply = d.post(ht.body_of(bad), "push")
            self.assertEqual(status, 400, reply)
            reason = reply["error"]
            d.stop()
        self.assertIn("%s/0002.json: %s" % (folder, reason), p.stderr)
        self.assertIn("%s/0003.json: invalid JSON" % folder, p.stderr)
        self.assertNotIn("0001", p.stderr)
        # a meta file without its event
        with open(os.path.join(folder, "0001.meta.json"), "w") as f:
            f.write('{"delivery": "x", "time": "2026-03-02T10:15:00Z"}')
        p = draft([folder])
        self.assertIn("%s/0001.meta.json: event:" % folder, p.stderr)
        self.assertEqual(p.stdout, "")
        p = draft([os.path.join(self.tmp, "nowhere")])
        self.assertEqual(p.returncode, 1)
        self.assertIn("nowhere: No such file or directory", p.stderr)

    def test_body_over_max_body(self):
        folder = os.path.join(self.tmp, "in")
        c = ht.make_commit(message="big: a long body\n\n" + "word " * 400)
        write_deliveries(folder, [("push", ht.make_push([c]),
                                   "2026-03-02T10:15:00Z")])
        conf = self.config("max_body = 1K\n")
        p = draft(["--config", conf, folder])
        self.assertEqual(p.returncode, 1)
        self.assertIn("%s/0001.json: payload larger than the configured "
                      "max_body" % folder, p.stderr)
        self.assertEqual(p.stdout, "")

    def test_events_and_branches_not_kept(self):
        folder = os.path.join(self.tmp, "in")
        c = ht.make_commit()
        write_deliveries(folder, [
            ("issues", {"action": "opened"}, "2026-03-02T10:00:00Z"),
            ("push", ht.make_push([ht.make_commit()], branch="feature"),
             "2026-03-02T10:01:00Z"),
            ("push", ht.make_push([c]), "2026-03-02T10:15:00Z")])
        p = draft([folder])
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("2 of 3 deliveries not kept", p.stderr)
        self.assertIn("March 2nd, 2026", p.stdout)

    def test_config_errors_name_file_line_and_key(self):
        conf = self.config("emit_at = 10:00\ntimezone = Mars/Olympus\n"
                           "secret_file = /nonexistent/secret\n")
        p = draft(["--config", conf, os.path.join(ht.CORPUS,
                                                  "curl-2026-06-01")])
        self.assertEqual(p.returncode, 1)
        self.assertIn("%s:2" % conf, p.stderr)
        self.assertIn("timezone", p.stderr)
        # no secret is read: the missing secret file is not an error
        self.assertNotIn("secret", p.stderr)
        self.assertEqual(p.stdout, "")


if __name__ == "__main__":
    unittest.main(verbosity=2)
