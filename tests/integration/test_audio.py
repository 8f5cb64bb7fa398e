"""The episode's audio against the real daemon: a corpus day spoken by
the built-in voice and encoded by lame (the defaults), its length checked
with soxi, its sections heard apart (the silences measured in the decoded
audio), its WebVTT read by a strict checker; an emission spoken by
several workers gives the files one worker gives; and text-to-speech commands
that fail, hang past audio_timeout, write garbage or change format between
sentences: the text episode stays as it was, nothing of the audio is left,
/metrics counts it, and webhook replies are not held up meanwhile."""

import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
import unittest
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hookcast_test as ht  # noqa: E402
import schema_check  # noqa: E402

REPO = "curl/curl"
DAY = "curl-2026-06-01"
SCHEMA = os.path.join(os.environ.get("HOOKCAST_SOURCE_DIR",
                                     os.path.join(os.path.dirname(
                                         os.path.abspath(__file__)),
                                         "..", "..")),
                      "doc", "episode.schema.json")
# a fast pace keeps the speaking short
AUDIO = {"audio": "on", "words-per-minute": "400"}
VTT_TIME = r"(\d{2,}):([0-5]\d):([0-5]\d)\.(\d{3})"
VTT_TIMING = re.compile(r"^%s --> %s$" % (VTT_TIME, VTT_TIME))
METRIC_LINE = re.compile(
    r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[a-zA-Z_][a-zA-Z0-9_]*="[^"\\\n]*"'
    r'(,[a-zA-Z_][a-zA-Z0-9_]*="[^"\\\n]*")*\})? '
    r'(-?[0-9.e+-]+|NaN|\+Inf|-Inf)$')

NS = {"itunes": "http://www.itunes.com/dtds/podcast-1.0.dtd"}

HAVE_TOOLS = all(shutil.which(p) for p in ("lame", "sox", "soxi"))
HAVE_ESPEAK = shutil.which("espeak-ng") is not None
try:
    import feedparser
except ImportError:
    # Debian's python3-feedparser, for a python3 of another prefix
    sys.path.append("/usr/lib/python3/dist-packages")
    try:
        import feedparser
    except ImportError:
        feedparser = None
PUBLIC = "https://casts.example/episodes"


def vtt_seconds(m, first):
    h, mi, s, ms = (int(m.group(first + i)) for i in range(4))
    return h * 3600 + mi * 60 + s + ms / 1000.0


def check_vtt(text):
    """A strict WebVTT reading: the header, then cues of an optional
    identifier, a timing line and text lines, separated by one blank line;
    times increasing, cues not overlapping, no '-->' or raw '<' in text.
    Returns [(start, end, text)]; raises AssertionError."""
    if "\r" in text:
        raise AssertionError("VTT: a carriage return")
    blocks = text.split("\n\n")
    if not re.match(r"^WEBVTT([ \t][^\n]*)?$", blocks[0].split("\n")[0]):
        raise AssertionError("VTT: no WEBVTT header: %r" % blocks[0][:40])
    if not text.endswith("\n"):
        raise AssertionError("VTT: no final newline")
    cues = []
    last_end = 0.0
    for b in blocks[1:]:
        b = b.rstrip("\n")
        if b == "":
            raise AssertionError("VTT: more than one blank line")
        lines = b.split("\n")
        if "-->" not in lines[0]:
            ident, lines = lines[0], lines[1:]
            if "-->" in ident or not lines:
                raise AssertionError("VTT: a bad cue %r" % b)
        m = VTT_TIMING.match(lines[0])
        if not m:
            raise AssertionError("VTT: a bad timing line %r" % lines[0])
        start, end = vtt_seconds(m, 1), vtt_seconds(m, 5)
        if not end > start:
            raise AssertionError("VTT: a cue ends before it starts: %r"
                                 % lines[0])
        if start < last_end:
            raise AssertionError("VTT: a cue overlaps the one before: %r"
                                 % lines[0])
        body = lines[1:]
        if not body or any(not t.strip() for t in body):
            raise AssertionError("VTT: a cue without text: %r" % b)
        for t in body:
            if "-->" in t or "<" in t:
                raise AssertionError("VTT: unescaped text %r" % t)
            if re.search(r"&(?!amp;|lt;|gt;|nbsp;|lrm;|rlm;)", t):
                raise AssertionError("VTT: a bare '&' in %r" % t)
        cues.append((start, end, "\n".join(body)))
        last_end = end
    if not cues:
        raise AssertionError("VTT: no cues")
    return cues


def metrics(d):
    """/metrics as {sample: value}, each line checked against the text
    format."""
    status, _, data = d.request("GET", "/metrics")
    if status != 200:
        raise AssertionError("/metrics: %s" % status)
    out = {}
    for line in data.decode().splitlines():
        if line.startswith("#"):
            if not re.match(r"^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .+$",
                            line):
                raise AssertionError("/metrics: bad comment %r" % line)
            continue
        m = METRIC_LINE.match(line)
        if not m:
            raise AssertionError("/metrics: bad line %r" % line)
        out[line.rsplit(" ", 1)[0]] = float(m.group(4))
    return out


def audio_total(d, outcome):
    return metrics(d).get('hookcast_audio_total{outcome="%s"}' % outcome)


def wait_audio(d, timeout=120):
    """Wait until one more audio outcome is counted; the counts."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        m = metrics(d)
        if sum(m.get('hookcast_audio_total{outcome="%s"}' % o, 0)
               for o in ("ok", "failed", "timeout")) >= 1:
            return m
        time.sleep(0.1)
    raise AssertionError("no audio outcome after %d s\n%s"
                         % (timeout, d.log_tail()))


def soxi_seconds(path):
    out = subprocess.run(["soxi", "-D", path], check=True,
                         capture_output=True, text=True).stdout
    return float(out.strip())


def one_push(d):
    status, reply = d.post_payload(ht.make_push(
        [ht.make_commit("Fix the widget's frobnication. It no longer "
                        "drops the last byte."),
         ht.make_commit("Add a test for the widget")]))
    if status != 202 and status != 200:
        raise AssertionError("push: %s %r" % (status, reply))


def silences(path, rate=8000, window=0.01, floor=300):
    """The runs of silence in an audio file, in seconds, in order: sox
    decodes it to 16-bit mono samples, and a window of 10 ms whose
    loudest sample stays under floor (of 32768) is silent."""
    raw = subprocess.run(["sox", path, "-t", "raw", "-e", "signed-integer",
                          "-b", "16", "-c", "1", "-r", str(rate), "-"],
                         check=True, capture_output=True).stdout
    samples = memoryview(raw).cast("h")
    n = int(rate * window)
    runs, cur = [], 0
    for i in range(0, len(samples) - n + 1, n):
        if max(abs(x) for x in samples[i:i + n]) < floor:
            cur += 1
        elif cur:
            runs.append(cur * window)
            cur = 0
    return runs


def push_to(d, repo, k):
    status, reply = d.post_payload(ht.make_push(
        [ht.make_commit("Fix the parser of repository %d. It no longer "
                        "drops the last byte of a chunk." % k, repo=repo),
         ht.make_commit("Add a test for the parser", repo=repo)],
        repo=repo))
    if status != 202 and status != 200:
        raise AssertionError("push: %s %r" % (status, reply))


@unittest.skipUnless(HAVE_TOOLS, "lame, sox and soxi are needed")
class AudioTest(unittest.TestCase):

    def test_corpus_day(self):
        with ht.Daemon(options=dict(AUDIO, **{"public-url": PUBLIC})) as d:
            d.replay(DAY)
            # what an audio killed from outside left is swept
            stale = os.path.join(d.output_dir, REPO, "2026-01-01.mp3.tmp-x")
            os.makedirs(os.path.dirname(stale))
            with open(stale, "wb") as f:
                f.write(b"half an mp3")
            reply = d.control("flush " + REPO)
            self.assertIs(reply.get("ok"), True, reply)
            ep = reply["episodes"][0]
            m = wait_audio(d)
            self.assertEqual(m['hookcast_audio_total{outcome="ok"}'], 1,
                             d.log_tail())
            self.assertEqual(d.status()["audio"],
                             {"ok": 1, "failed": 0, "timeout": 0})
            base = ep["json"][:-len(".json")]
            folder = os.path.dirname(base)
            name = os.path.basename(base)
            with open(ep["json"], encoding="utf-8") as f:
                j = json.load(f)
            schema_check.check(j, schema_check.load(SCHEMA))
            a = j["audio"]
            self.assertEqual(a["file"], name + ".mp3")
            self.assertEqual(a["vtt"], name + ".vtt")
            self.assertEqual(a["type"], "audio/mpeg")
            mp3 = os.path.join(folder, a["file"])
            self.assertEqual(a["bytes"], os.path.getsize(mp3))
            real = soxi_seconds(mp3)
            sys.stderr.write("audio: %s s in the JSON, %s s by soxi\n"
                             % (a["seconds"], real))
            self.assertLess(abs(real - a["seconds"]), 0.5)
            self.assertLess(abs(real - j["duration_seconds"]), 1.0)
            self.assertEqual(j["duration_seconds"], round(a["seconds"]))
            mm, ss = divmod(j["duration_seconds"], 60)
            want = "PT" + ("%dM" % mm if mm else "") + \
                ("%dS" % ss if ss else "")
            self.assertEqual(j["duration"], want)
            self.assertAlmostEqual(
                m["hookcast_audio_seconds"], a["seconds"], delta=0.1)
            with open(base + ".md", encoding="utf-8") as f:
                self.assertIn("\n- Duration: %s\n" % want, f.read())
            with open(os.path.join(folder, a["vtt"]),
                      encoding="utf-8") as f:
                cues = check_vtt(f.read())
            self.assertGreater(len(cues), 5)
            self.assertLess(abs(cues[-1][1] - real), 1.0)
            # every sentence of the transcript is a cue, in order
            spoken = re.sub(r"\s+", " ", j["transcript"])
            said = " ".join(c[2] for c in cues).replace(
                "&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
            self.assertEqual(re.sub(r"\W", "", said),
                             re.sub(r"\W", "", spoken))
            # nothing else was left in the folder
            self.assertEqual(sorted(os.listdir(folder)), sorted(
                [name + e for e in (".md", ".json", ".txt", ".mp3",
                                    ".vtt")] + ["feed.xml"]))
            self.assertRegex(d.log(), r"audio of curl/curl %s: [0-9.]+ s"
                             % name)
            self.check_sections(mp3, j)
            # the feed was rewritten with the audio's length
            root = ET.parse(os.path.join(folder, "feed.xml")).getroot()
            durs = [i.findtext("itunes:duration", namespaces=NS)
                    for i in root.iter("item")]
            self.assertEqual(durs, [str(j["duration_seconds"])])
            self.check_feed(folder, name, mp3, real)

    def check_sections(self, mp3, episode):
        """Sections (the segments: the opening, each segment, the closing)
        are heard apart, and within one the paragraphs (its stories):
        between two sections the audio is silent longer than between two
        paragraphs, and that longer than between two sentences, one such
        silence per boundary."""
        def paragraphs(text):
            return len([p for p in re.split(r"\n\s*\n", text)
                        if p.strip()])
        sections = len(episode["segments"])
        paras = paragraphs(episode["transcript"])
        self.assertEqual(sum(paragraphs(s["text"])
                             for s in episode["segments"]), paras)
        runs = silences(mp3)
        long = [r for r in runs if r >= 1.3]
        mid = [r for r in runs if 0.7 <= r < 1.3]
        short = [r for r in runs if 0.25 <= r < 0.7]
        sys.stderr.write("silences: %d sections, %d paragraphs; %d of "
                         "1.3 s or more (shortest %.2f s), %d of 0.7 to 1.3 "
                         "s (%.2f to %.2f s), %d of 0.25 to 0.7 s (longest "
                         "%.2f s)\n" % (sections, paras, len(long),
                                        min(long or [0]), len(mid),
                                        min(mid or [0]), max(mid or [0]),
                                        len(short), max(short or [0])))
        self.assertGreater(sections, 3)
        self.assertGreater(paras, sections)
        self.assertEqual(len(long), sections - 1, runs)
        self.assertEqual(len(mid), paras - sections, runs)
        self.assertGreater(len(short), paras, runs)
        self.assertGreater(min(long), max(mid) + 0.3)
        self.assertGreater(min(mid), max(short) + 0.2)

    def test_workers_give_what_one_gives(self):
        """Five repositories flushed at once, spoken by three workers and
        then by one: the same MP3 and WebVTT files, byte for byte, and
        the log says how many workers spoke."""
        repos = ["hookcast-test/w%d" % k for k in range(5)]
        got = []
        for workers in (3, 1):
            env = ht.faketime_env("2026-06-01 12:00:00")
            if env is None:
                self.skipTest("libfaketime is needed")
            opts = dict(AUDIO, **{"audio-workers": str(workers),
                                  "emit-at": "10:00"})
            with ht.Daemon(options=opts, env=env) as d:
                for k, repo in enumerate(repos):
                    push_to(d, repo, k)
                reply = d.control("flush")
                self.assertIs(reply.get("ok"), True, reply)
                self.assertEqual(len(reply["episodes"]), len(repos))
                deadline = time.monotonic() + 120
                while (audio_total(d, "ok") or 0) < len(repos):
                    self.assertLess(time.monotonic(), deadline,
                                    d.log_tail())
                    time.sleep(0.1)
                files = {}
                for ep in reply["episodes"]:
                    base = ep["json"][:-len(".json")]
                    for ext in (".mp3", ".vtt"):
                        with open(base + ext, "rb") as f:
                            files[os.path.relpath(base + ext,
                                                  d.output_dir)] = f.read()
                self.assertEqual(len(files), 2 * len(repos))
                self.assertRegex(d.log(), r"speaking %d episodes in %d "
                                 r"worker" % (len(repos), workers))
                got.append(files)
        self.assertEqual(sorted(got[0]), sorted(got[1]))
        for name in got[0]:
            self.assertTrue(got[0][name] == got[1][name],
                            "%s differs between three workers and one"
                            % name)

    def test_spoken_apart_from_written(self):
        """The voice hears each sentence's spoken form, the captions and
        the text keep the written one: a tts_command that notes what it
        is given hears "older than" for "<", a version in words, and the
        login of a name written in Han characters, where the WebVTT shows
        the sentence as written."""
        tmp = ht.make_tmpdir()
        said = os.path.join(tmp, "said.txt")
        cmd = ('cat >> %s && echo >> %s && sox -n -r 16000 -c 1 -b 16 '
               '-t wav - trim 0 0.2' % (said, said))
        try:
            with ht.Daemon(options=dict(AUDIO, **{"tts-command": cmd})) as d:
                status, reply = d.post_payload(ht.make_push([
                    ht.make_commit("Drop support for < c-ares 1.16.0\n\n"
                                   "Older releases lack the resolver "
                                   "we need.", name="\u5f20\u4e09",
                                   username="zhangsan",
                                   email="zs@example.com"),
                    ht.make_commit("Release 8.2.0")]))
                self.assertIn(status, (200, 202), reply)
                reply = d.control("flush")
                self.assertIs(reply.get("ok"), True, reply)
                m = wait_audio(d)
                self.assertEqual(m['hookcast_audio_total{outcome="ok"}'], 1,
                                 d.log_tail())
                base = reply["episodes"][0]["json"][:-len(".json")]
                with open(base + ".vtt", encoding="utf-8") as f:
                    vtt = f.read()
                with open(base + ".txt", encoding="utf-8") as f:
                    txt = f.read()
            with open(said, encoding="utf-8") as f:
                heard = f.read()
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        sys.stderr.write("written:\n%s\nheard:\n%s\n" % (txt, heard))
        # what is written keeps its symbols, name and digits
        self.assertIn("&lt; c-ares 1.16.0", vtt)
        self.assertIn("< c-ares 1.16.0", txt)
        self.assertIn("8.2.0", txt)
        self.assertIn("version 8.2.0.", vtt)
        # what is heard says them
        self.assertIn("c-ares older than one point sixteen point oh", heard)
        self.assertNotIn("<", heard)
        self.assertIn("zhangsan", heard)
        self.assertNotIn("\u5f20", heard)
        self.assertIn("eight point two point oh", heard)
        self.assertNotRegex(heard, r"\d\.\d")

    def test_mono_64k_whatever_the_voice(self):
        """A podcast's speech is a mono MP3 at 64 kb/s: a tts_command that
        speaks stereo at 22.05 kHz gives one too."""
        cmd = ("cat >/dev/null && sox -n -r 22050 -c 2 -b 16 -t wav - "
               "synth 0.3 sine 440")
        with ht.Daemon(options=dict(AUDIO, **{"tts-command": cmd})) as d:
            one_push(d)
            reply = d.control("flush")
            self.assertIs(reply.get("ok"), True, reply)
            m = wait_audio(d)
            self.assertEqual(m['hookcast_audio_total{outcome="ok"}'], 1,
                             d.log_tail())
            mp3 = reply["episodes"][0]["json"][:-len(".json")] + ".mp3"
            info = {k: subprocess.run(["soxi", k, mp3], check=True,
                                      capture_output=True,
                                      text=True).stdout.strip()
                    for k in ("-c", "-B")}
        self.assertEqual(info["-c"], "1")
        self.assertIn(info["-B"], ("64k", "64.0k"))

    def check_feed(self, folder, name, mp3, real):
        """The feed as a podcast app reads it (feedparser): the item's
        enclosure is the MP3 at its public URL with the file's length, its
        duration the audio's, its transcripts the VTT and the text."""
        if feedparser is None:
            self.skipTest("python3-feedparser is missing")
        with open(os.path.join(folder, "feed.xml"), "rb") as f:
            raw = f.read()
        feed = feedparser.parse(raw)
        self.assertFalse(feed.bozo, feed.get("bozo_exception"))
        self.assertEqual(len(feed.entries), 1)
        e = feed.entries[0]
        url = "%s/%s/%s" % (PUBLIC, REPO, name)
        self.assertEqual([(x.href, int(x.length), x.type)
                          for x in e.enclosures],
                         [(url + ".mp3", os.path.getsize(mp3),
                           "audio/mpeg")])
        self.assertLess(abs(int(e.itunes_duration) - real), 1.0)
        root = ET.fromstring(raw)
        pod = "{https://podcastindex.org/namespace/1.0}transcript"
        self.assertEqual(sorted((t.get("type"), t.get("url"))
                                for t in root.iter(pod)),
                         [("text/plain", url + ".txt"),
                          ("text/vtt", url + ".vtt")])
        sys.stderr.write("feed: enclosure length %s, itunes:duration %s; "
                         "soxi %.2f s\n" % (e.enclosures[0].length,
                                            e.itunes_duration, real))

    def test_same_day_twice(self):
        """A second episode of a day is spoken to its own DATE-2 files.
        At midday on the daemon's clock: before the day's emission hour
        the open day began yesterday, so the first flush is named by
        yesterday's date and the next one by today's (the test failed
        when run between midnight and 10:00 UTC)."""
        env = ht.faketime_env("2026-06-01 12:00:00")
        if env is None:
            self.skipTest("libfaketime is needed")
        # the emission hour by the daemon's clock, not the real one:
        # emit_at() picks 22:00 when the real time is near 10:00 UTC,
        # and 22:00 put the first day on May 31st (the test failed when
        # run between 09:00 and 10:05 UTC)
        opts = dict(AUDIO, **{"emit-at": "10:00"})
        with ht.Daemon(options=opts, env=env) as d:
            names = []
            for n in range(2):
                one_push(d)
                reply = d.control("flush")
                self.assertIs(reply.get("ok"), True, reply)
                path = reply["episodes"][0]["json"]
                names.append(os.path.basename(path)[:-len(".json")])
                deadline = time.monotonic() + 60
                while (audio_total(d, "ok") or 0) < n + 1:
                    self.assertLess(time.monotonic(), deadline,
                                    d.log_tail())
                    time.sleep(0.1)
            self.assertEqual(names[1], names[0] + "-2")
            folder = os.path.dirname(path)
            for name in names:
                with open(os.path.join(folder, name + ".json")) as f:
                    a = json.load(f)["audio"]
                self.assertEqual((a["file"], a["vtt"]),
                                 (name + ".mp3", name + ".vtt"))
                self.assertLess(abs(soxi_seconds(os.path.join(
                    folder, a["file"])) - a["seconds"]), 0.5)

    def failing(self, command, reason, outcome="failed", extra=None):
        """Flush a day with command as tts_command; the text stays, nothing
        of the audio remains, the outcome is counted and its reason
        logged."""
        opts = dict(AUDIO, **{"tts-command": command})
        opts.update(extra or {})
        with ht.Daemon(options=opts) as d:
            one_push(d)
            reply = d.control("flush")
            self.assertIs(reply.get("ok"), True, reply)
            ep = reply["episodes"][0]
            with open(ep["json"], "rb") as f:
                js = f.read()
            with open(ep["markdown"], "rb") as f:
                md = f.read()
            m = wait_audio(d, timeout=60)
            self.assertEqual(m['hookcast_audio_total{outcome="%s"}'
                               % outcome], 1, d.log_tail())
            self.assertEqual(m['hookcast_audio_total{outcome="ok"}'], 0)
            d.wait_log(r"drafter: 1 episode\(s\) of emission")
            with open(ep["json"], "rb") as f:
                self.assertEqual(f.read(), js)
            with open(ep["markdown"], "rb") as f:
                self.assertEqual(f.read(), md)
            folder = os.path.dirname(ep["json"])
            base = os.path.basename(ep["json"])[:-len(".json")]
            self.assertEqual(sorted(os.listdir(folder)),
                             sorted([base + ".json", base + ".md",
                                     base + ".txt", "feed.xml"]))
            self.assertNotIn("audio", json.loads(js))
            self.assertRegex(d.log(), reason)
            return d

    def test_command_fails(self):
        self.failing("cat >/dev/null; echo 'no voice here' >&2; exit 3",
                     r"audio of \S+ \S+ failed: sentence 1 of \d+: "
                     r"tts_command exited with status 3: no voice here; "
                     r"the text episode stays")

    def test_command_missing(self):
        self.failing("hookcast-no-such-tts --stdout",
                     r"tts_command exited with status 127")

    def test_garbage(self):
        self.failing("cat >/dev/null; printf 'RIFF, or so it says'",
                     r"tts_command's output is not a WAV we take: not a "
                     r"RIFF/WAVE file")

    def test_formats_differ(self):
        # the first sentence at espeak-ng's rate, the others resampled
        cmd = ('if [ "$HOOKCAST_SENTENCE" = 1 ]; then espeak-ng --stdout; '
               'else espeak-ng --stdout | sox -t wav - -t wav -r 16000 -; '
               'fi')
        if not HAVE_ESPEAK:
            self.skipTest("espeak-ng is needed")
        self.failing(cmd, r"sentence 2 of \d+: its WAV is 16000 Hz, 1 "
                     r"channel\(s\), 16-bit where the first sentence's "
                     r"was 22050 Hz")

    def test_hang(self):
        """A TTS that hangs is stopped at audio_timeout with all it
        started; webhooks are answered as fast meanwhile."""
        # a sleep of its own length, to be found among the processes
        marker = "%d.25" % (300 + os.getpid() % 100000)
        # the shell starts a child of its own that hangs too
        cmd = "cat >/dev/null; sleep %s & sleep %s; wait" % (marker, marker)
        opts = dict(AUDIO, **{"tts-command": cmd, "audio-timeout": "4"})
        with ht.Daemon(options=opts) as d:
            before = []
            for _ in range(5):
                t = time.monotonic()
                one_push(d)
                before.append(time.monotonic() - t)
            t = time.monotonic()
            reply = d.control("flush", timeout=30)
            flush_took = time.monotonic() - t
            self.assertIs(reply.get("ok"), True, reply)
            # the reply came with the text, not after the audio
            self.assertLess(flush_took, 3.5)
            ep = reply["episodes"][0]
            with open(ep["json"], "rb") as f:
                js = f.read()
            deadline = time.monotonic() + 10
            while not pids_of(marker):
                self.assertLess(time.monotonic(), deadline,
                                "the hanging TTS never started")
                time.sleep(0.05)
            during = []
            for _ in range(5):
                t = time.monotonic()
                one_push(d)
                during.append(time.monotonic() - t)
            # the posts were answered while the TTS still hung
            self.assertTrue(pids_of(marker))
            sys.stderr.write("POST latency: %.4f s median before, %.4f s "
                             "while the TTS hangs\n"
                             % (statistics.median(before),
                                statistics.median(during)))
            self.assertLess(max(during), 1.0)
            self.assertLess(statistics.median(during),
                            10 * statistics.median(before) + 0.05)
            m = wait_audio(d, timeout=60)
            self.assertEqual(m['hookcast_audio_total{outcome="timeout"}'],
                             1, d.log_tail())
            self.assertRegex(d.log(), r"audio of \S+ \S+ timed out: "
                             r"sentence 1 of \d+: tts_command still "
                             r"running at audio_timeout; stopped")
            d.wait_log(r"drafter: 1 episode\(s\) of emission")
            # nothing it started runs on, nothing is left unreaped
            self.assertEqual(pids_of(marker), [])
            self.assertEqual(zombies_of(d.proc.pid), [])
            with open(ep["json"], "rb") as f:
                self.assertEqual(f.read(), js)
            folder = os.path.dirname(ep["json"])
            self.assertFalse([n for n in os.listdir(folder)
                              if not n.endswith((".md", ".json", ".txt",
                                                 ".xml"))])


def pids_of(marker):
    """The processes running "sleep MARKER"."""
    out = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                argv = f.read().split(b"\0")
        except OSError:
            continue
        if argv[:2] == [b"sleep", marker.encode()]:
            out.append(int(pid))
    return out


def zombies_of(parent):
    """Zombie children of parent."""
    out = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % pid) as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] == "Z" and int(fields[1]) == parent:
            out.append(int(pid))
    return out


class VttCheckerTest(unittest.TestCase):
    """The checker above refuses what it is there to catch."""

    def test_refuses(self):
        good = "WEBVTT\n\n1\n00:00:00.000 --> 00:00:01.000\nHi.\n"
        self.assertEqual(len(check_vtt(good)), 1)
        for bad in (
                "WEBVT\n\n00:00:00.000 --> 00:00:01.000\nHi.\n",
                "WEBVTT\n\n00:00:01.000 --> 00:00:00.500\nHi.\n",
                "WEBVTT\n\n00:00:00.000 --> 00:00:02.000\nA.\n\n"
                "00:00:01.000 --> 00:00:03.000\nB.\n",
                "WEBVTT\n\n00:00:00.000 --> 00:00:01.000\na < b\n",
                "WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n\n",
                "WEBVTT\n\n0:00.000 --> 00:00:01.000\nHi.\n"):
            with self.assertRaises(AssertionError, msg=bad):
                check_vtt(bad)


if __name__ == "__main__":
    unittest.main()
