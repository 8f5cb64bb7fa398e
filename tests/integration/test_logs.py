"""hookcastd's log lines through the real daemon: an OS error is told with
its text (log_warn and fatal add strerror), and a string from a payload can
neither start a log line of its own nor carry a raw control byte."""

import os
import re
import shutil
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hookcast_test as ht  # noqa: E402

REPO = "hookcast-test/widget"

# A ref whose branch name tries to forge an error line, colour a terminal,
# ring its bell and smuggle a DEL.
FORGED_BRANCH = "main\n<3>forged: all deliveries lost\x1b[31m red\x07\x7f"
FORGED_ESCAPED = "main\\x0a<3>forged: all deliveries lost\\x1b[31m red"

# Bytes that must never reach the log inside a line: C0 controls but the
# line's own newline, and DEL.
RAW_CONTROL = re.compile(rb"[\x00-\x09\x0b-\x1f\x7f]")


def log_bytes(d):
    with open(d.stderr_path, "rb") as f:
        return f.read()


class BadStateDir(unittest.TestCase):
    """fatal("state_dir %s") ends with the OS's reason, nothing else."""

    def setUp(self):
        self.tmp = ht.make_tmpdir()
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.plain = os.path.join(self.tmp, "plain")
        with open(self.plain, "w") as f:
            f.write("not a directory\n")

    def run_with_state_dir(self, state_dir):
        return ht.run_daemon([
            "--state-dir=" + state_dir,
            "--output-dir=" + os.path.join(self.tmp, "episodes"),
            "--control-socket=" + os.path.join(self.tmp, "control.sock"),
            "--listen=127.0.0.1:0",
            "--insecure-no-signature",
            "--timezone=UTC",
        ], cwd=self.tmp)

    def test_state_dir_under_a_file(self):
        state_dir = os.path.join(self.plain, "state")
        p = self.run_with_state_dir(state_dir)
        self.assertEqual(p.returncode, 1, "stderr:\n" + p.stderr)
        # not the journal: each line has its UTC time and level's name
        lines = [ln for ln in p.stderr.splitlines() if " error: " in ln]
        self.assertEqual(len(lines), 1, "stderr:\n" + p.stderr)
        want = "error: state_dir %s: Not a directory" % state_dir
        self.assertRegex(lines[0], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z ")
        self.assertEqual(lines[0][25:], want, "stderr:\n%r" % p.stderr)
        self.assertNotIn("\ufffd", p.stderr)
        self.assertIsNone(RAW_CONTROL.search(p.stderr.encode()),
                          "stderr:\n%r" % p.stderr)


class PayloadInLog(unittest.TestCase):
    """A branch name logged by the missed-delivery warning stays in its
    line, escaped."""

    def test_forged_branch_is_escaped(self):
        with ht.Daemon() as d:
            first = ht.make_push(repo=REPO, branch=FORGED_BRANCH,
                                 default_branch=FORGED_BRANCH)
            status, reply = d.post_payload(first)
            self.assertEqual(status, 200, reply)
            self.assertFalse(reply.get("ignored"), reply)
            # not from the head just seen: the daemon warns of a gap,
            # naming the branch
            second = ht.make_push(repo=REPO, branch=FORGED_BRANCH,
                                  default_branch=FORGED_BRANCH,
                                  before=ht.new_sha())
            status, reply = d.post_payload(second)
            self.assertEqual(status, 200, reply)
            d.wait_log(r"a delivery was missed")
            d.stop()
            raw = log_bytes(d)
            text = raw.decode("utf-8", "replace")
            for line in raw.split(b"\n"):
                self.assertFalse(line.startswith(b"<3>forged"),
                                 "a forged line in the log:\n%s" % text)
                self.assertIsNone(RAW_CONTROL.search(line),
                                  "a raw control byte in %r" % line)
            gap = [ln for ln in text.splitlines()
                   if "a delivery was missed" in ln]
            self.assertEqual(len(gap), 1, text)
            self.assertTrue(gap[0].startswith("<4>"), gap[0])
            self.assertIn(FORGED_ESCAPED, gap[0])
            self.assertIn("\\x07\\x7f", gap[0])


if __name__ == "__main__":
    unittest.main(verbosity=2)
