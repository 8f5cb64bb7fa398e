"""The podcast feed and the weekly recap against the real daemon: two corpus
days flushed one after the other, feed.xml read back with ElementTree, the
feed_items cap, the `recap` control command, and a day with a push but no
commits flushed as a short episode."""

import email.utils
import json
import os
import shutil
import subprocess
import sys
import time
import unittest
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hookcast_test as ht  # noqa: E402

REPO = "curl/curl"
DAYS = ("curl-2026-02-14-quiet", "curl-2026-06-01")
NS = {
    "itunes": "http://www.itunes.com/dtds/podcast-1.0.dtd",
    "podcast": "https://podcastindex.org/namespace/1.0",
}
try:
    import feedparser
except ImportError:
    # Debian's python3-feedparser, for a python3 of another prefix
    sys.path.append("/usr/lib/python3/dist-packages")
    try:
        import feedparser
    except ImportError:
        feedparser = None
SUMMED = ("commits", "merged_prs", "reverts", "relands", "pushes",
          "force_pushes")


def flush_days(d, days=DAYS, repo=REPO):
    """Replay each day and flush it; the flush replies' episodes."""
    out = []
    for day in days:
        d.replay(day)
        reply = d.control("flush " + repo)
        if reply.get("ok") is not True or len(reply["episodes"]) != 1:
            raise AssertionError("flush after %s: %r" % (day, reply))
        out.append(reply["episodes"][0])
    return out


def read_feed(d, repo=REPO):
    folder = os.path.join(d.output_dir, repo)
    path = os.path.join(folder, "feed.xml")
    with open(path, "rb") as f:
        raw = f.read()
    return folder, raw, ET.fromstring(raw)


def make_mp3(path, seconds=3):
    """A short real MP3 (a sine tone, sox then lame); its length in s."""
    wav = path[:-len(".mp3")] + ".wav"
    subprocess.run(["sox", "-n", "-r", "22050", "-c", "1", wav, "synth",
                    str(seconds), "sine", "440"], check=True)
    subprocess.run(["lame", "--quiet", wav, path], check=True)
    os.unlink(wav)
    out = subprocess.run(["soxi", "-D", path], check=True,
                         capture_output=True, text=True).stdout
    return float(out)


def add_audio(json_path, mp3_name, seconds, vtt=None):
    """What the audio renderer writes into an episode's JSON."""
    ep = load_json(json_path)
    folder = os.path.dirname(json_path)
    audio = {"file": mp3_name, "type": "audio/mpeg",
             "bytes": os.path.getsize(os.path.join(folder, mp3_name)),
             "seconds": round(seconds, 1)}
    if vtt is not None:
        audio["vtt"] = vtt
    ep["audio"] = audio
    whole = int(seconds + 0.5)
    ep["duration"] = "PT%dM%dS" % (whole // 60, whole % 60)
    with open(json_path + ".tmp", "w", encoding="utf-8") as f:
        json.dump(ep, f)
    os.replace(json_path + ".tmp", json_path)
    return whole


def load_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


class FeedTest(unittest.TestCase):

    def check_rss(self, raw, root):
        self.assertEqual(root.tag, "rss")
        self.assertEqual(root.get("version"), "2.0")
        text = raw.decode("utf-8")
        for prefix, uri in NS.items():
            self.assertIn('xmlns:%s="%s"' % (prefix, uri), text)
        channel = root.find("channel")
        self.assertIsNotNone(channel)
        for tag in ("title", "link", "description"):
            self.assertTrue((channel.findtext(tag) or "").strip(), tag)
        self.assertEqual(channel.findtext("language"), "en")
        self.assertTrue(channel.findtext("itunes:author", namespaces=NS))
        return channel

    def test_two_days(self):
        with ht.Daemon() as d:
            eps = flush_days(d)
            folder, raw, root = read_feed(d)
            channel = self.check_rss(raw, root)
            items = channel.findall("item")
            self.assertEqual(len(items), 2)
            # newest first: the second flush's episode leads
            want = [os.path.basename(e["json"])[:-len(".json")]
                    for e in reversed(eps)]
            got = []
            for item, ep in zip(items, reversed(eps)):
                guid = item.find("guid")
                self.assertEqual(guid.get("isPermaLink"), "false")
                got.append(guid.text.rsplit(":", 1)[-1])
                self.assertEqual(item.findtext("title"), ep["title"])
                episode = load_json(ep["json"])
                self.assertEqual(item.findtext("description"),
                                 episode["description"])
                when = email.utils.parsedate_to_datetime(
                    item.findtext("pubDate"))
                self.assertEqual(when.strftime("%Y-%m-%dT%H:%M:%SZ"),
                                 episode["published"])
                self.assertRegex(item.findtext("itunes:duration",
                                               namespaces=NS), r"^\d+$")
                # the plain-text transcript beside the .md; no audio yet
                trs = item.findall("podcast:transcript", NS)
                self.assertEqual([t.get("type") for t in trs],
                                 ["text/plain"])
                url = trs[0].get("url")
                self.assertFalse(url.startswith("/"), url)
                self.assertTrue(os.path.isfile(os.path.join(folder, url)),
                                url)
                self.assertEqual(os.path.join(folder, url),
                                 ep["markdown"][:-len(".md")] + ".txt")
                with open(os.path.join(folder, url), encoding="utf-8") as f:
                    self.assertEqual(f.read().rstrip("\n"),
                                     episode["transcript"].rstrip("\n"))
                self.assertIsNone(item.find("enclosure"))
            self.assertEqual(got, want)
            dates = [email.utils.parsedate_to_datetime(
                i.findtext("pubDate")) for i in items]
            self.assertEqual(dates, sorted(dates, reverse=True))
            # the second episode lists the first among its nearby ones
            second = load_json(eps[1]["json"])
            self.assertIn(eps[0]["title"],
                          [n["title"] for n in second["nearby"]])
            # and the daily JSON lists the day's people
            self.assertTrue(second["people"])
            self.assertEqual(sum(p["commits"] for p in second["people"]),
                             second["stats"]["commits"])

    def test_feed_items_and_public_url(self):
        with ht.Daemon(options={"feed-items": "1",
                                "public-url": "https://casts.example/eps/"}
                       ) as d:
            eps = flush_days(d)
            folder, raw, root = read_feed(d)
            channel = self.check_rss(raw, root)
            items = channel.findall("item")
            self.assertEqual(len(items), 1)
            self.assertEqual(items[0].findtext("title"), eps[1]["title"])
            name = os.path.basename(eps[1]["markdown"])[:-len(".md")]
            self.assertEqual(
                items[0].find("podcast:transcript", NS).get("url"),
                "https://casts.example/eps/%s/%s.txt" % (REPO, name))
            self.assertEqual(items[0].findtext("link"),
                             "https://casts.example/eps/%s/%s.md"
                             % (REPO, name))

    @unittest.skipIf(feedparser is None, "python3-feedparser is missing")
    @unittest.skipIf(not (shutil.which("sox") and shutil.which("lame")),
                     "sox or lame is missing")
    def test_audio_enclosure(self):
        """A real MP3 beside a flushed episode and the "audio" object in
        its JSON, as the audio renderer leaves them; the next flush
        rewrites the feed, which feedparser reads with the enclosure's
        length the file's and itunes:duration the JSON's."""
        base = "https://casts.example/eps"
        with ht.Daemon(options={"public-url": base + "/",
                                "feed-owner-email": "ops@example.org",
                                "feed-image": base + "/art.png"}) as d:
            first = flush_days(d, DAYS[:1])[0]
            folder = os.path.join(d.output_dir, REPO)
            name = os.path.basename(first["json"])[:-len(".json")]
            seconds = make_mp3(os.path.join(folder, name + ".mp3"))
            with open(os.path.join(folder, name + ".vtt"), "w") as f:
                f.write("WEBVTT\n\n00:00.000 --> 00:03.000\nHello.\n")
            whole = add_audio(first["json"], name + ".mp3", seconds,
                              vtt=name + ".vtt")
            second = flush_days(d, DAYS[1:])[0]
            _, raw, _ = read_feed(d)
            feed = feedparser.parse(raw)
            self.assertFalse(feed.bozo, feed.get("bozo_exception"))
            self.assertEqual(feed.version, "rss20")
            self.assertEqual(len(feed.entries), 2)
            by_title = {e.title: e for e in feed.entries}
            audio = by_title[first["title"]]
            plain = by_title[second["title"]]
            self.assertEqual(len(audio.enclosures), 1)
            enc = audio.enclosures[0]
            self.assertEqual(enc["href"], "%s/%s/%s.mp3" % (base, REPO, name))
            self.assertEqual(enc["type"], "audio/mpeg")
            self.assertEqual(int(enc["length"]),
                             os.path.getsize(os.path.join(folder,
                                                          name + ".mp3")))
            self.assertEqual(int(audio.itunes_duration), whole)
            self.assertEqual(whole, int(seconds + 0.5))
            self.assertEqual(plain.enclosures, [])
            # guids: not links, one per episode, kept by the rewrite
            self.assertEqual(audio.id, "hookcast:%s:%s" % (REPO, name))
            self.assertFalse(audio.guidislink)
            self.assertNotEqual(audio.id, plain.id)
            # every URL absolute under public_url
            root = ET.fromstring(raw)
            item = [i for i in root.find("channel").findall("item")
                    if i.findtext("title") == first["title"]][0]
            trs = {t.get("type"): t.get("url")
                   for t in item.findall("podcast:transcript", NS)}
            self.assertEqual(trs, {
                "text/vtt": "%s/%s/%s.vtt" % (base, REPO, name),
                "text/plain": "%s/%s/%s.txt" % (base, REPO, name)})
            channel = root.find("channel")
            self.assertEqual(channel.find("itunes:image", NS).get("href"),
                             base + "/art.png")
            self.assertEqual(channel.findtext("itunes:owner/itunes:email",
                                              namespaces=NS),
                             "ops@example.org")
            self.assertEqual(channel.findtext("podcast:locked",
                                              namespaces=NS), "yes")
            self.assertEqual(channel.find("itunes:category", NS).get("text"),
                             "Technology")
            self.assertRegex(channel.findtext("podcast:guid", namespaces=NS),
                             r"^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-"
                             r"[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
            self.assertEqual(channel.find("{http://www.w3.org/2005/Atom}link")
                             .get("href"),
                             "%s/%s/feed.xml" % (base, REPO))

    def test_feed_key_errors(self):
        """URL keys must be http(s) URLs; errors name file, line and key."""
        tmp = ht.make_tmpdir()
        try:
            conf = os.path.join(tmp, "hookcast.conf")
            with open(conf, "w") as f:
                f.write("# feed\npublic_url = ftp://x/\n"
                        "feed_image = art.png\n"
                        "feed_owner_email = nobody\n"
                        "feed_locked = maybe\n")
            p = ht.run_daemon(["--config=" + conf, "--check-config"])
            out, err = p.stdout, p.stderr
            self.assertEqual(p.returncode, 1, out + err)
            for line, key in ((2, "public_url"), (3, "feed_image"),
                              (4, "feed_owner_email"), (5, "feed_locked")):
                self.assertIn("%s:%d: %s" % (conf, line, key), out + err)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    def test_recap(self):
        # the recap weekday is today's: a flush still never writes a recap
        today = time.strftime("%A", time.gmtime()).lower()
        with ht.Daemon(options={"recap-weekday": today}) as d:
            eps = flush_days(d)
            folder = os.path.join(d.output_dir, REPO)
            self.assertFalse([f for f in os.listdir(folder)
                              if "recap" in f])
            reply = d.control("recap " + REPO)
            self.assertIs(reply.get("ok"), True, reply)
            self.assertEqual(len(reply["episodes"]), 1)
            rec = reply["episodes"][0]
            self.assertTrue(rec["title"].startswith("Weekly Recap - "), rec)
            self.assertTrue(rec["json"].endswith("-recap.json"), rec)
            recap = load_json(rec["json"])
            days = [load_json(e["json"]) for e in eps]
            for key in SUMMED:
                self.assertEqual(recap["stats"][key],
                                 sum(x["stats"][key] for x in days), key)
            self.assertLessEqual(recap["stats"]["authors"],
                                 sum(x["stats"]["authors"] for x in days))
            self.assertGreaterEqual(recap["stats"]["authors"],
                                    max(x["stats"]["authors"] for x in days))
            for key in ("show", "title", "description", "published",
                        "duration", "repository", "window", "stats",
                        "segments", "transcript", "nearby"):
                self.assertIn(key, recap)
            kinds = [s["kind"] for s in recap["segments"]]
            self.assertEqual(kinds.count("recap"), 2, kinds)
            cited = set()
            for x in days:
                for s in x["segments"]:
                    cited.update(s["commits"])
            recap_cited = set()
            for s in recap["segments"]:
                recap_cited.update(s["commits"])
            self.assertEqual(recap_cited, cited)
            for x in days:
                self.assertIn(x["title"], recap["transcript"])
            with open(rec["markdown"], encoding="utf-8") as f:
                self.assertIn(rec["title"], f.read())
            # in the feed, first
            _, raw, root = read_feed(d)
            items = root.find("channel").findall("item")
            self.assertEqual(len(items), 3)
            self.assertEqual(items[0].findtext("title"), rec["title"])
            # hookcastctl prints it; an unknown repository is an error
            rc, out, err = d.ctl("recap", REPO)
            self.assertEqual(rc, 0, err)
            self.assertIn("Weekly Recap - ", out)
            bad = d.control("recap nobody/nothing")
            self.assertIs(bad.get("ok"), False, bad)
            self.assertIn("no episodes", bad["error"])
            bad = d.control("recap ../../etc")
            self.assertIs(bad.get("ok"), False, bad)
            # every repository: the one with episodes
            every = d.control("recap")
            self.assertIs(every.get("ok"), True, every)
            self.assertEqual([e["repo"] for e in every["episodes"]], [REPO])

    def test_day_without_commits(self):
        repo = "hookcast-test/empty"
        with ht.Daemon() as d:
            status, reply = d.post_payload(ht.make_push(commits=[],
                                                        repo=repo))
            self.assertIn(status, (200, 202), reply)
            if status != 200:
                self.skipTest("a push without commits is not kept")
            reply = d.control("flush " + repo)
            self.assertIs(reply.get("ok"), True, reply)
            ep = load_json(reply["episodes"][0]["json"])
            self.assertEqual(ep["stats"]["commits"], 0)
            self.assertTrue(ep["segments"])
            self.assertEqual(ep["people"], [])
            _, raw, root = read_feed(d, repo)
            self.assertEqual(len(root.find("channel").findall("item")), 1)
            reply = d.control("recap " + repo)
            self.assertIs(reply.get("ok"), True, reply)
            self.assertTrue(d.running())

    def test_scheduled_quiet_day_and_recap(self):
        """Under faketime, 15 s before a Monday's 10:00 emission: a
        repository whose day is empty gets a short episode (quiet_days =
        emit), and Monday's emission adds the weekly recap. libfaketime
        is preloaded into the daemon itself: under the faketime wrapper,
        stopping the wrapper left the daemon running."""
        repo = "hookcast-test/widget"
        env = ht.faketime_env("2026-03-02 09:59:45")
        if env is None:
            self.skipTest("libfaketime is not installed")
        env["FAKETIME_NO_CACHE"] = "1"
        with ht.Daemon(env=env, options={"emit-at": "10:00",
                                         "quiet-days": "emit",
                                         "recap-weekday": "monday"}) as d:
            status, reply = d.post_payload(ht.make_push(repo=repo))
            self.assertEqual(status, 200, reply)
            reply = d.control("flush " + repo)
            self.assertIs(reply.get("ok"), True, reply)
            d.wait_log(r"weekly recap .*2026-03-02-recap", timeout=60)
            folder = os.path.join(d.output_dir, repo)
            names = sorted(os.listdir(folder))
            self.assertIn("2026-03-02.json", names)
            self.assertIn("2026-03-02-recap.json", names)
            quiet = load_json(os.path.join(folder, "2026-03-02.json"))
            self.assertEqual(quiet["stats"]["commits"], 0)
            recap = load_json(os.path.join(folder, "2026-03-02-recap.json"))
            self.assertTrue(recap["title"].startswith("Weekly Recap - "))
            self.assertEqual(recap["stats"]["commits"], 1)
            _, raw, root = read_feed(d, repo)
            items = root.find("channel").findall("item")
            self.assertEqual(len(items), 3)
            self.assertEqual(items[0].findtext("title"), recap["title"])


if __name__ == "__main__":
    unittest.main()
