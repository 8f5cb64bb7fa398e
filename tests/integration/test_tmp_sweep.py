#!/usr/bin/env python3
"""No temporary file of a drafting process outlives it.

- the daemon stopped while an episode's audio is being made (a text to
  speech command that takes its time; the joined WAV is a DATE.wav.tmp-*
  file until then) leaves no *.tmp-* file in the output directory;
- temporary files a crash left (of the audio, the episode files, the
  feed) are removed when the daemon starts, and nothing else is.
"""

import glob
import os
import shutil
import signal
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hookcast_test as ht  # noqa: E402
import test_audio as ta  # noqa: E402

REPO = "hookcast-test/widget"


def tmp_files(d):
    return sorted(glob.glob(os.path.join(d.output_dir, "**", "*.tmp-*"),
                            recursive=True))


class Sweep(unittest.TestCase):
    @unittest.skipUnless(shutil.which("lame"), "lame is needed")
    def test_stop_mid_render_leaves_no_tmp(self):
        # a TTS that takes its time: a sleep of its own length, to be found
        marker = "%d.75" % (300 + os.getpid() % 100000)
        cmd = "cat >/dev/null; exec sleep %s" % marker
        opts = dict(ta.AUDIO, **{"tts-command": cmd,
                                 "audio-timeout": "600"})
        d = ht.Daemon(options=opts)
        try:
            ta.one_push(d)
            reply = d.control("flush")
            self.assertIs(reply.get("ok"), True, reply)
            deadline = time.monotonic() + 60
            while not (ta.pids_of(marker) and tmp_files(d)):
                self.assertLess(time.monotonic(), deadline,
                                "no audio being made; log:\n%s"
                                % d.log_tail())
                time.sleep(0.05)
            self.assertTrue(any(".wav.tmp-" in f for f in tmp_files(d)),
                            tmp_files(d))
            d.stop()
            self.assertEqual(tmp_files(d), [], "left by the stop")
            # the text episode stays
            self.assertTrue(os.path.exists(reply["episodes"][0]["json"]))
        finally:
            # the TTS the killed drafting process had started
            for pid in ta.pids_of(marker):
                os.kill(pid, signal.SIGKILL)
            d.cleanup()

    def test_start_sweeps_stale_tmp(self):
        tmp = ht.make_tmpdir()
        try:
            folder = os.path.join(tmp, "episodes", REPO)
            os.makedirs(folder)
            stale = ["2026-01-01.wav.tmp-abcdef012345",
                     "2026-01-01.mp3.tmp-0123456789ab",
                     "2026-01-01.vtt.tmp-zzzzzzzzzzzz",
                     "2026-01-01.json.tmp-q1w2e3r4t5y6",
                     "2026-01-01.md.tmp-aaaaaaaaaaaa",
                     "feed.xml.tmp-bbbbbbbbbbbb"]
            kept = ["2026-01-01.json", "2026-01-01.md", "feed.xml",
                    "notes.tmp-Keep.txt", "2026-01-01.tmp-"]
            for name in stale + kept:
                with open(os.path.join(folder, name), "w") as f:
                    f.write("x")
            other = os.path.join(tmp, "episodes", "other", "repo")
            os.makedirs(other)
            with open(os.path.join(other, "2026-01-02.json.tmp-"
                                   "cccccccccccc"), "w") as f:
                f.write("x")
            with ht.Daemon(tmp=tmp) as d:
                self.assertEqual(tmp_files(d),
                                 [os.path.join(folder, "2026-01-01.tmp-"),
                                  os.path.join(folder,
                                               "notes.tmp-Keep.txt")])
                self.assertEqual(sorted(os.listdir(folder)), sorted(kept))
                self.assertEqual(os.listdir(other), [])
                self.assertEqual(d.log().count("left by a drafting "
                                               "process stopped"),
                                 len(stale) + 1)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
