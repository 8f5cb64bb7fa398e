"""The man pages against the code, both ways (issue 15): every key of the
daemon's table (as --print-config lists it) has an entry in
hookcast.conf(5)'s GLOBAL KEYS and no entry there names a key the daemon
doesn't have; the keys a [repo], a [show] and a [sink] section take (as
--check-config accepts them) are the REPOSITORY SECTIONS, SHOW SECTIONS
and SINK SECTIONS entries. (Metrics, both ways, and every control command in
both pages, test_operator checks.)"""

import os
import re
import shutil
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hookcast_test as ht  # noqa: E402

MAN5 = os.path.join(ht.SOURCE_DIR, "doc", "hookcast.conf.5")
KEY = re.compile(r"^[a-z][a-z0-9_]*$")


def section(text, name):
    m = re.search(r"^\.SH %s\n(.*?)^\.SH " % re.escape(name), text,
                  re.M | re.S)
    if m is None:
        raise AssertionError("no section %s" % name)
    return m.group(1)


def entry_keys(sect):
    """The keys the entries (.TP then .B or .BR) of a section name: in
    '.BR key " = VALUE, " key2 " = VALUE"' the bold words that a '" ='
    or '", "' follows, or that end a '", "' list, or a lone '.B key'."""
    keys = set()
    for m in re.finditer(r"^\.TP\n\.(BR?) (.*)$", sect, re.M):
        tokens = re.findall(r'"[^"]*"|\S+', m.group(2))
        if m.group(1) == "B":
            if KEY.match(tokens[0]):
                keys.add(tokens[0])
            continue
        for i in range(0, len(tokens), 2):
            word = tokens[i]
            if not KEY.match(word):
                continue
            after = tokens[i + 1] if i + 1 < len(tokens) else None
            before = tokens[i - 1] if i > 0 else None
            if after is None and i == 0:
                keys.add(word)
            elif after is not None and re.match(r'^"\s*(=|,)', after):
                keys.add(word)
            elif after is None and before is not None and \
                    re.match(r'^"\s*,\s*"$', before):
                keys.add(word)
    return keys


class TestDocsInStep(unittest.TestCase):

    def setUp(self):
        self.tmp = ht.make_tmpdir()
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.secret = os.path.join(self.tmp, "secret")
        with open(self.secret, "w") as f:
            f.write(ht.DEFAULT_SECRET)
        os.chmod(self.secret, 0o600)
        self.state = os.path.join(self.tmp, "state")

    def hookcastd(self, *args):
        return subprocess.run(
            [ht.HOOKCASTD, "--secret-file=" + self.secret,
             "--state-dir=" + self.state] + list(args),
            env=ht.daemon_env(), stdin=subprocess.DEVNULL,
            capture_output=True, text=True, timeout=30)

    def code_keys(self):
        p = self.hookcastd("--print-config")
        self.assertEqual(p.returncode, 0, p.stderr)
        keys = set()
        for line in p.stdout.splitlines():
            if line.startswith("#") or not line.strip():
                continue
            keys.add(line.split(" = ", 1)[0])
        self.assertIn("listen", keys)
        self.assertIn("feed_owner_email", keys)
        return keys

    def test_global_keys(self):
        with open(MAN5) as f:
            man = f.read().replace("\\-", "-")
        documented = entry_keys(section(man, "GLOBAL KEYS"))
        code = self.code_keys()
        self.assertEqual(sorted(code - documented), [],
                         "keys missing from hookcast.conf(5) GLOBAL KEYS")
        self.assertEqual(sorted(documented - code), [],
                         "hookcast.conf(5) documents keys the daemon "
                         "doesn't have")

    def section_keys(self, header, kind, documented):
        """Every key the daemon or the page knows, tried in a section
        (header): those --check-config doesn't call unknown there."""
        tried = self.code_keys() | documented
        conf = os.path.join(self.tmp, "hookcast.conf")
        with open(conf, "w") as f:
            f.write("\n".join([header] + ["%s = x" % k
                                          for k in sorted(tried)]) + "\n")
        p = self.hookcastd("--config=" + conf, "--check-config")
        self.out = p.stdout + p.stderr
        unknown = set(re.findall(r":\d+: ([a-z_0-9]+): unknown key in "
                                 r"\[%s " % kind, self.out))
        self.assertTrue(unknown, self.out)
        return tried - unknown

    def test_repository_keys(self):
        with open(MAN5) as f:
            man = f.read().replace("\\-", "-")
        documented = entry_keys(section(man, "REPOSITORY SECTIONS"))
        self.assertIn("show", documented)
        accepted = self.section_keys('[repo "hookcast-test/widget"]',
                                     "repo", documented | {"show"})
        self.assertEqual(sorted(accepted), sorted(documented),
                         "hookcast.conf(5) REPOSITORY SECTIONS")

    def test_show_keys(self):
        with open(MAN5) as f:
            man = f.read().replace("\\-", "-")
        documented = entry_keys(section(man, "SHOW SECTIONS"))
        self.assertIn("repositories", documented)
        self.assertIn("feed_locked", documented)
        accepted = self.section_keys('[show "Widgets"]', "show",
                                     documented | {"repositories"})
        self.assertEqual(sorted(accepted), sorted(documented),
                         "hookcast.conf(5) SHOW SECTIONS")
        # and the daemon's own list of them, as it names them when refusing
        m = re.search(r"unknown key in \[show \S+ \(expected ([^)]*)\)",
                      self.out)
        self.assertIsNotNone(m, self.out)
        listed = set(re.split(r", | or ", m.group(1)))
        self.assertEqual(sorted(listed), sorted(documented),
                         "hookcast.conf(5) SHOW SECTIONS")

    def test_sink_keys(self):
        with open(MAN5) as f:
            man = f.read().replace("\\-", "-")
        # the keys' entries come before the section's subsections
        sect = section(man, "SINK SECTIONS").split("\n.SS ", 1)[0]
        documented = entry_keys(sect)
        self.assertIn("command", documented)
        accepted = self.section_keys('[sink "files"]', "sink",
                                     documented | {"command"})
        self.assertEqual(sorted(accepted), sorted(documented),
                         "hookcast.conf(5) SINK SECTIONS")
        # and the daemon's own list of them, as it names them when refusing
        m = re.search(r"unknown key in \[sink \S+ \(expected ([^)]*)\)",
                      self.out)
        self.assertIsNotNone(m, self.out)
        listed = set(re.split(r", | or ", m.group(1)))
        self.assertEqual(sorted(listed), sorted(documented),
                         "hookcast.conf(5) SINK SECTIONS")


if __name__ == "__main__":
    unittest.main()
