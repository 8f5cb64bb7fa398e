"""Text from payloads never reaches an output raw: a signed push whose commit
message and author name hold an HTML tag pair with a script, a BEL, ANSI
colour sequences, a lone backtick and a javascript: link is flushed; the
Markdown transcript, the JSON episode and the feed are read back.

The rules checked are the daemon's: payload text is cleaned of control
characters, escape sequences and invalid UTF-8 when it enters the day;
spoken text (JSON segments, transcript, title, description) carries no
markup (no tags, backticks or link syntax); the Markdown escapes what a
renderer would pass through as HTML or a link."""

import json
import os
import re
import shutil
import sys
import time
import unittest
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hookcast_test as ht  # noqa: E402

REPO = "hookcast-test/widget"
SCRIPT = "</title><script>alert(1)</script>"
ANSI = "\x1b[31mred\x1b[0m"
LINK = "[link](javascript:alert(1))"
SUBJECT = ("widget: add %s gear support\x07 %s and a lone ` tick %s"
           % (SCRIPT, ANSI, LINK))
BODY = ("The new gear says %s out loud\x07 in %s, with a ` and %s. "
        "It turns the gears faster.\x7f" % (SCRIPT, ANSI, LINK))
AUTHOR = "Eve %sMallory\x07 %s" % (ANSI, SCRIPT)

# a C0 control other than the newline, DEL, or a C1 control
CONTROL_RE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f]")
# what starts a tag, a comment or a processing instruction in HTML
TAG_RE = re.compile(r"<[A-Za-z/!?]")
# a line of the Links list: the label up to the first unescaped ']'
LINK_RE = re.compile(r"^- \[((?:[^\]\\]|\\.)*)\]"
                     r"\(https://github\.com/hookcast-test/widget/"
                     r"(?:commit/[0-9a-f]{40}|pull/[0-9]+)\)$")


def unescaped(md, ch):
    """Offsets of ch in md not escaped by an odd run of backslashes."""
    out = []
    for i, c in enumerate(md):
        if c != ch:
            continue
        n = 0
        while i - n - 1 >= 0 and md[i - n - 1] == "\\":
            n += 1
        if n % 2 == 0:
            out.append(i)
    return out


class HostileTextTest(unittest.TestCase):

    def check_no_controls(self, text, what):
        m = CONTROL_RE.search(text)
        self.assertIsNone(m, "%s holds control character %r: %r"
                          % (what, m and m.group(0), text))

    def check_spoken(self, text, what):
        """Spoken text: no controls, no tags, no code or link markup."""
        self.check_no_controls(text, what)
        self.assertIsNone(TAG_RE.search(text), "%s holds a tag: %r"
                          % (what, text))
        self.assertNotIn("`", text, "%s holds a backtick: %r" % (what, text))
        self.assertNotIn("](", text, "%s holds a link: %r" % (what, text))
        self.assertNotIn("\ufffd", text, what)

    def check_markdown(self, raw):
        # bytes first: a terminal shows these as they are
        for b in raw:
            self.assertFalse(b < 0x20 and b != 0x0a,
                             "markdown holds byte 0x%02x" % b)
            self.assertNotEqual(b, 0x7f, "markdown holds DEL")
        md = raw.decode("utf-8")	# raises on invalid UTF-8
        self.check_no_controls(md, "markdown")
        self.assertNotIn("<", md, "markdown holds a raw '<'")
        # ('>' is text inside a line, "st->value"; at a line's start it
        # would open a quote)
        self.assertNotRegex(md, r"(?m)^\s*>", "a markdown line opens a quote")
        self.assertNotRegex(md.lower(), "<script", "markdown")
        # the renderer's own links close the file: "- [LABEL](URL)", one
        # a line, the label escaped as the rest and the URL one of the
        # repository's pages
        head, sep, links = md.partition("\n## Links\n\n")
        self.assertTrue(sep, "no links: %r" % md)
        for line in links.rstrip("\n").split("\n"):
            if line == "" or line.startswith("### "):
                continue
            m = LINK_RE.match(line)
            self.assertIsNotNone(m, "not a link line: %r" % line)
            label = m.group(1)
            self.assertEqual(unescaped(label, "["), [], line)
            self.assertEqual(unescaped(label, "]"), [], line)
            self.assertEqual(unescaped(label, "`"), [], line)
        self.assertEqual(unescaped(head, "["), [],
                         "unescaped '[' in %r" % head)
        self.assertEqual(unescaped(head, "]"), [],
                         "unescaped ']' in %r" % head)
        # the renderer's own code spans hold a plain identifier only
        ticks = unescaped(head, "`")
        self.assertEqual(len(ticks) % 2, 0, "odd backticks in %r" % md)
        for a, b in zip(ticks[::2], ticks[1::2]):
            self.assertRegex(head[a + 1:b], r"^[A-Za-z0-9_.=:/-]+$",
                             "code span %r" % head[a:b + 1])
        return md

    def test_hostile_commit(self):
        commit = ht.make_commit(message=SUBJECT + "\n\n" + BODY,
                                name=AUTHOR, username=None, repo=REPO)
        payload = ht.make_push([commit], repo=REPO)
        with ht.Daemon() as d:
            status, reply = d.post_payload(payload)
            self.assertTrue(200 <= status < 300, (status, reply))
            reply = d.control("flush " + REPO)
            self.assertIs(reply.get("ok"), True, reply)
            self.assertEqual(len(reply.get("episodes") or []), 1, reply)
            ep = reply["episodes"][0]

            with open(ep["markdown"], "rb") as f:
                raw = f.read()
            md = self.check_markdown(raw)
            # the hostile commit was told, not dropped
            self.assertIn("alert(1)", md)
            self.assertIn("Mallory", md)

            with open(ep["json"], "rb") as f:
                episode = json.loads(f.read().decode("utf-8"))
            for seg in episode["segments"]:
                self.check_spoken(seg["text"], "segment %s" % seg["kind"])
            for key in ("title", "description", "transcript"):
                self.check_spoken(episode[key] or "", key)
            # glued to "red" once the escapes go: said as two words
            self.assertIn("mallory", episode["transcript"].lower())

            path = os.path.join(d.output_dir, REPO, "feed.xml")
            with open(path, "rb") as f:
                feed = f.read()
            root = ET.fromstring(feed)	# well-formed XML
            self.assertNotIn(b"<script", feed.lower())
            for item in root.iter("item"):
                for el in item:
                    self.check_no_controls(el.text or "", "feed " + el.tag)
            d.stop()

    def test_invalid_utf8(self):
        """A message with bytes that are not UTF-8: refused, or said
        without them; the outputs stay valid UTF-8 either way."""
        commit = ht.make_commit(message="widget: make the gears turn "
                                "MARKER faster\n\nThey turn MARKER faster.",
                                repo=REPO)
        body = ht.body_of(ht.make_push([commit], repo=REPO))
        body = body.replace(b"MARKER", b"caf\xe9 \xc3\x28 \xed\xa0\x80")
        with ht.Daemon() as d:
            status, reply = d.post(body, "push")
            if status >= 400:
                self.assertEqual(status, 400, reply)
                return
            reply = d.control("flush " + REPO)
            self.assertIs(reply.get("ok"), True, reply)
            ep = reply["episodes"][0]
            with open(ep["markdown"], "rb") as f:
                self.check_markdown(f.read())
            with open(ep["json"], "rb") as f:
                episode = json.loads(f.read().decode("utf-8"))
            for seg in episode["segments"]:
                self.check_spoken(seg["text"], "segment %s" % seg["kind"])
            d.stop()

    def test_links_and_voice_markup(self):
        """Issue 25: no link, with a scheme or without, is said; nor is
        a voice's markup (espeak's phonemes, SSML, entities) left for the
        text-to-speech program to obey. With espeak-ng and lame, what the
        voice is given is read back too."""
        links = ["evil-login.com/reset", "bit.ly/x", "host:8080",
                 "//host/x", "file:///etc/passwd", "javascript:alert(2)",
                 "https:evil.com", "eve@example.com"]
        subject = ("widget: say [[h@'loU]] and <prosody rate='x-slow'>"
                   "slowly</prosody> turn the gears")
        body = ("The gears turn faster now.<break time='3s'/> It keeps "
                "them turning &amp; quiet.")
        commits = [ht.make_commit(message=m, repo=REPO) for m in (
            subject + "\n\n" + body,
            "widget: move the docs to evil-login.com/reset and bit.ly/x",
            "widget: listen on host:8080 and //host/x by default",
            "widget: read file:///etc/passwd, javascript:alert(2) and "
            "https:evil.com",
            "widget: keep setup.py and Node.js working for eve@example.com")]
        tmp = ht.make_tmpdir()
        said = os.path.join(tmp, "tts-input.txt")
        opts = {}
        espeak = all(shutil.which(p) for p in ("espeak-ng", "lame"))
        if espeak:
            opts = {"audio": "on", "words-per-minute": "400",
                    "tts-command": "tee -a %s | espeak-ng -s "
                    "\"$HOOKCAST_WPM\" --stdout" % said}
        with ht.Daemon(options=opts) as d:
            status, reply = d.post_payload(ht.make_push(commits, repo=REPO))
            self.assertTrue(200 <= status < 300, (status, reply))
            reply = d.control("flush " + REPO)
            self.assertIs(reply.get("ok"), True, reply)
            ep = reply["episodes"][0]
            with open(ep["json"], "rb") as f:
                episode = json.loads(f.read().decode("utf-8"))
            with open(ep["markdown"][:-3] + ".txt", "rb") as f:
                txt = f.read().decode("utf-8")
            texts = [("txt", txt)] + [("segment " + seg["kind"], seg["text"])
                                      for seg in episode["segments"]]
            texts += [(k, episode[k] or "") for k in
                      ("title", "description", "transcript")]
            # the commits were told
            for word in ("gears", "docs", "setup.py", "Node.js"):
                self.assertIn(word, episode["transcript"])
            if espeak:
                deadline = time.monotonic() + 120
                while not os.path.exists(ep["json"][:-5] + ".vtt"):
                    self.assertLess(time.monotonic(), deadline, d.log_tail())
                    time.sleep(0.1)
                with open(said, encoding="utf-8") as f:
                    texts.append(("the voice's input", f.read()))
            for what, text in texts:
                self.check_spoken(text, what)
                for link in links:
                    self.assertNotIn(link, text, what)
                for mark in ("[[", "]]", "h@'loU", "prosody", "break",
                             "&amp;", "<"):
                    self.assertNotIn(mark, text, what)
            d.stop()


if __name__ == "__main__":
    unittest.main()
