"""A reload keeps what only a restart may change: with state_dir changed in
the file, the running daemon goes on keeping its journal, its outbox and
(by default) its episodes under the state_dir it started with, and says
the change waits for a restart. Before, the reload took the new state_dir
whole: the journal stayed in the old folder while output_dir's default
and the outbox moved to the new one."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hookcast_test as ht  # noqa: E402

REPO = "hookcast-test/widget"


class TestReloadKeepsState(unittest.TestCase):

    def test_state_dir_kept(self):
        with ht.Daemon(options={"state-dir": None, "output-dir": None},
                       start=False) as d:
            first = os.path.join(d.tmp, "first")
            second = os.path.join(d.tmp, "second")
            conf = os.path.join(d.tmp, "hookcast.conf")
            with open(conf, "w") as f:
                f.write("state_dir = %s\n" % first)
            d.args.append("--config=" + conf)
            d.start()
            self.assertEqual(d.post_payload(ht.make_push())[0], 200)
            with open(conf, "w") as f:
                f.write("state_dir = %s\n" % second)
            mark = len(d.log())
            reply = d.control("reload")
            self.assertIs(reply.get("ok"), True, reply)
            d.wait_log(r"state_dir changed .*after a restart", start=mark)
            self.assertEqual(d.post_payload(ht.make_push())[0], 200)
            reply = d.control("flush " + REPO)
            self.assertIs(reply.get("ok"), True, reply)
            path = os.path.realpath(reply["episodes"][0]["json"])
            self.assertTrue(path.startswith(os.path.realpath(first) +
                                            os.sep),
                            "episode written to %s, not under the running "
                            "state_dir %s" % (path, first))
            self.assertFalse(os.path.exists(second),
                             "the reload made %s" % second)
            d.stop()


if __name__ == "__main__":
    unittest.main()
