"""[show "NAME"] sections (issue 30) through the real hookcastd
--check-config and --print-config: a show that matches no repository
seen and a glob another of its show covers are warnings (exit 0); a show
without repositories or with a bad glob, errors naming file, line and
key (exit 1); what counts as seen (a [repo] section, a repositories
entry, an episode folder, not shows/SLUG)."""

import os
import re
import shutil
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hookcast_test as ht  # noqa: E402

BASE = """\
listen = 127.0.0.1:0
state_dir = {tmp}/state
output_dir = {tmp}/episodes
control_socket = {tmp}/control.sock
secret_file = {tmp}/secret
"""


class TestShowCheckConfig(unittest.TestCase):

    def setUp(self):
        self.tmp = ht.make_tmpdir()
        self.addCleanup(shutil.rmtree, self.tmp, True)
        with open(os.path.join(self.tmp, "secret"), "w") as f:
            f.write(ht.DEFAULT_SECRET)
        os.chmod(os.path.join(self.tmp, "secret"), 0o600)
        self.path = os.path.join(self.tmp, "hookcast.conf")

    def check(self, sections, flag="--check-config"):
        with open(self.path, "w") as f:
            f.write((BASE + sections).format(tmp=self.tmp))
        return ht.run_daemon(["--config=" + self.path, flag], cwd=self.tmp)

    def folder(self, *parts):
        os.makedirs(os.path.join(self.tmp, "episodes", *parts),
                    exist_ok=True)

    def test_unseen_show_warned(self):
        """A show of no repository seen: a warning naming the show and its
        repositories' line, and the file still OK."""
        p = self.check('[show "Widgets"]\n'
                       'repositories = hookcast-test/widget-*\n')
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("configuration OK", p.stdout)
        self.assertIn('%s:7: repositories: [show "Widgets"] matches no '
                      'repository seen yet' % self.path, p.stderr)
        self.assertEqual(p.stderr.count("seen yet"), 1, p.stderr)
        # the show's own folder is not a repository seen
        self.folder("shows", "widgets")
        self.folder("hookcast-test", "gadget")
        p = self.check('[show "Widgets"]\n'
                       'repositories = hookcast-test/widget-*, shows/*\n')
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("seen yet", p.stderr)
        # an episode folder of one of its repositories is
        self.folder("hookcast-test", "widget-one")
        p = self.check('[show "Widgets"]\n'
                       'repositories = hookcast-test/widget-*\n')
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("seen yet", p.stderr)

    def test_seen_by_section_or_entry(self):
        """A [repo] section or a repositories entry naming one repository
        is seen; an entry that is a glob is not."""
        p = self.check('repositories = acme/listed, acme/*\n'
                       '[repo "other/tool"]\nshow = Tool\n'
                       '[show "by entry"]\nrepositories = */listed\n'
                       '[show "by section"]\nrepositories = OTHER/*\n'
                       '[show "by glob"]\nrepositories = acme/x*\n')
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertNotIn('"by entry"', p.stderr)
        self.assertNotIn('"by section"', p.stderr)
        self.assertIn('%s:14: repositories: [show "by glob"] matches no '
                      'repository seen yet' % self.path, p.stderr)

    def test_covered_glob_warned(self):
        """A glob of a show another of it covers: a warning naming both,
        and the same glob twice (in another case) too."""
        self.folder("pytorch", "vision")
        p = self.check('[show "PyTorch Daily"]\n'
                       'repositories = pytorch/*, pytorch/vision, '
                       'PyTorch/*, meta/torchtune\n')
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("configuration OK", p.stdout)
        self.assertIn("%s:7: repositories: 'pytorch/vision' in [show "
                      "\"PyTorch Daily\"] is already matched by "
                      "'pytorch/*'" % self.path, p.stderr)
        self.assertIn("'PyTorch/*' in [show \"PyTorch Daily\"] matches the "
                      "same repositories as 'pytorch/*'", p.stderr)
        self.assertNotIn("torchtune'", p.stderr)
        self.assertNotIn("seen yet", p.stderr)

    def test_show_keys_followed(self):
        """Every key a show may set the daemon follows (schedule, zone,
        model, voice, recap weekday, feed): none is warned of."""
        self.folder("acme", "app")
        p = self.check('[show "Acme"]\nrepositories = acme/*\n'
                       'emit_at = 07:00\ntimezone = Europe/Paris\n'
                       'llm_url = http://127.0.0.1:9/v1\n'
                       'feed_items = 5\nvoice = slt\n'
                       'recap_weekday = monday\nquiet_days = emit\n')
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("configuration OK", p.stdout)
        self.assertNotIn("not followed", p.stderr)
        self.assertNotIn("[show \"Acme\"]:", p.stderr)

    def test_unshown_repo_warned(self):
        """own_episodes = false for a repository no show takes: a warning
        that it keeps its own episodes; none when a show takes it."""
        p = self.check('[repo "acme/site"]\nown_episodes = false\n'
                       '[show "Other"]\nrepositories = other/*\n')
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn('[repo "acme/site"]: own_episodes = false, but no '
                      'show takes it', p.stderr)
        p = self.check('[repo "acme/site"]\nown_episodes = false\n'
                       '[show "Acme"]\nrepositories = acme/*\n')
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("no show takes it", p.stderr)

    def test_errors(self):
        """A show without repositories, a bad glob, a bad key, two shows
        of one slug: errors with file, line and key; exit 1."""
        p = self.check('[show "empty"]\nemit_at = 09:00\n'
                       '[show "bad"]\nrepositories = acme/tool/x\n'
                       'timezone = Nowhere/Else\n'
                       '[show "Bad!"]\nrepositories = acme/*\n')
        out = p.stdout + p.stderr
        self.assertEqual(p.returncode, 1, out)
        self.assertNotIn("configuration OK", out)
        self.assertIn('%s:6: repositories: missing in [show "empty"]'
                      % self.path, p.stderr)
        self.assertIn("%s:9: repositories: 'acme/tool/x' in [show \"bad\"] "
                      "is not OWNER/NAME" % self.path, p.stderr)
        self.assertIn("%s:10: timezone: unknown time zone 'Nowhere/Else'"
                      % self.path, p.stderr)
        self.assertIn('%s:11: [show "Bad!"]: its folder shows/bad is also '
                      '[show "bad"]\'s (%s:8)' % (self.path, self.path),
                      p.stderr)
        # the errors in the file's order (the warnings came first)
        errors = "\n".join(l for l in p.stderr.splitlines()
                           if "warning:" not in l)
        lines = [int(m) for m in re.findall(
            re.escape(self.path) + r":(\d+):", errors)]
        self.assertEqual(len(lines), 4, p.stderr)
        self.assertEqual(lines, sorted(lines), p.stderr)

    def test_print_config_reads_back(self):
        """--print-config's [repo] and [show] sections, read back as a
        file, print the same."""
        self.folder("acme", "tool")
        sections = ('[repo "acme/tool"]\nown_episodes = no\n'
                    '[show "Acme Daily"]\nrepositories = acme/*\n'
                    'emit_at = 08:15\nfeed_locked = yes\n')
        p = self.check(sections, "--print-config")
        self.assertEqual(p.returncode, 0, p.stderr)
        printed = p.stdout[p.stdout.index("\n[") + 1:]
        self.assertIn('[repo "acme/tool"]\nown_episodes = false\n', printed)
        self.assertIn('[show "Acme Daily"]\nrepositories = acme/*\n'
                      'emit_at = 08:15\nfeed_locked = yes\n', printed)
        p = self.check(printed, "--print-config")
        self.assertEqual(p.returncode, 0, p.stderr)
        again = p.stdout[p.stdout.index("\n[") + 1:]

        def strip(t):
            return re.sub(r"(?m)^#.*\n", "", t)
        self.assertEqual(strip(again), strip(printed))


class TestShowReload(unittest.TestCase):

    def test_reload_logs_shows(self):
        """A reload logs a show added, one changed and one removed, and
        own_episodes changed, as it logs a changed key; an unchanged show
        is not named."""
        with ht.Daemon(start=False) as d:
            conf = os.path.join(d.tmp, "hookcast.conf")
            with open(conf, "w") as f:
                f.write('[show "Gone"]\nrepositories = gone/*\n'
                        '[show "Kept"]\nrepositories = kept/*\n'
                        '[show "Same"]\nrepositories = same/*\n')
            d.args.append("--config=" + conf)
            d.start()
            with open(conf, "w") as f:
                f.write('[show "Kept"]\nrepositories = kept/*, more/x\n'
                        'emit_at = 07:45\n'
                        '[show "Same"]\nrepositories = same/*\n'
                        '[show "New"]\nrepositories = new/*\n'
                        '[repo "hookcast-test/widget"]\n'
                        'own_episodes = false\n')
            mark = len(d.log())
            reply = d.control("reload")
            self.assertIs(reply.get("ok"), True, reply)
            d.wait_log(r'reload: \[show "New"\] added: '
                       r'repositories = new/\*', start=mark)
            log = d.log()[mark:]
            self.assertIn('reload: [show "Gone"] removed', log)
            self.assertIn("reload: [show \"Kept\"] changed from "
                          "'repositories = kept/*' to 'repositories = "
                          "kept/*, more/x; emit_at = 07:45'", log)
            self.assertIn('reload: [repo "hookcast-test/widget"] '
                          'own_episodes changed from true to false', log)
            self.assertNotIn('"Same"', log)
            d.stop()


if __name__ == "__main__":
    unittest.main(verbosity=2)
