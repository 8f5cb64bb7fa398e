"""The Debian package (scripts/package, debian/): what it holds and where,
its conffiles, its unit's paths, its binaries' --version and
--check-config run from a scratch root it is unpacked into (dpkg-deb -x),
and its maintainer scripts run against that root (DPKG_ROOT), with
systemd's helpers stubbed: the postinst makes a secret once, 0600, and
says the webhook URL; the postrm purges the secret and the state, and
only on purge.

The package is $HOOKCAST_DEB when set (scripts/test builds it once for
every build's suite), else built here by scripts/package into a scratch
folder. Without dpkg-buildpackage and lintian the test is skipped, unless
HOOKCAST_REQUIRE_PACKAGE is set (scripts/test sets it): then it fails."""

import io
import os
import re
import shutil
import stat
import subprocess
import sys
import tarfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hookcast_test as ht  # noqa: E402

TOOLS = ("dpkg-buildpackage", "dh", "lintian", "dpkg-deb")
VERSION_RE = (r"^%s (\d+\.\d+\.\d+) \(revision ([0-9a-f]{7,}(?:-dirty)?|"
              r"unknown), built (\d{4}-\d{2}-\d{2})\)$")
# the systemd helpers a maintainer script may call: logged, never run
STUB = """#!/bin/sh
echo "$(basename "$0") $*" >>"%s"
exit 0
"""


def project_version():
    with open(os.path.join(ht.SOURCE_DIR, "CMakeLists.txt")) as f:
        m = re.search(r"^project\(hookcast VERSION ([0-9.]+)", f.read(),
                      re.M)
    return m.group(1)


def ctl_commands():
    """The commands hookcastctl's usage lists."""
    p = subprocess.run([ht.HOOKCASTCTL, "--help"], capture_output=True,
                       text=True, timeout=30)
    text = p.stdout + p.stderr
    block = text.split("commands:", 1)[1].split("\n\n", 1)[0]
    return sorted(set(re.findall(r"(?m)^  ([a-z]+)\b", block)))


@unittest.skipIf(os.environ.get("HOOKCAST_UNDER_VALGRIND"),
                 "it runs the package's programs, which valgrind does not "
                 "wrap: nothing for valgrind to check")
class TestPackage(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.tmp = ht.make_tmpdir()
        cls.deb = os.environ.get("HOOKCAST_DEB")
        cls.built_here = False
        if not cls.deb:
            missing = [t for t in TOOLS if shutil.which(t) is None]
            if missing:
                why = ("%s not installed (Debian packages debhelper, "
                       "dpkg-dev, fakeroot, lintian: scripts/deps --test)"
                       % ", ".join(missing))
                shutil.rmtree(cls.tmp, True)
                if os.environ.get("HOOKCAST_REQUIRE_PACKAGE"):
                    raise AssertionError("HOOKCAST_REQUIRE_PACKAGE is set "
                                         "but " + why)
                raise unittest.SkipTest(why)
            p = subprocess.run(
                [os.path.join(ht.SOURCE_DIR, "scripts", "package"),
                 os.path.join(cls.tmp, "out")],
                capture_output=True, text=True, timeout=540)
            if p.returncode != 0:
                shutil.rmtree(cls.tmp, True)
                raise AssertionError("scripts/package exited %d:\n%s"
                                     % (p.returncode, p.stderr[-4000:]))
            cls.deb = p.stdout.strip().splitlines()[-1]
            cls.built_here = True
        cls.root = os.path.join(cls.tmp, "root")
        subprocess.run(["dpkg-deb", "-x", cls.deb, cls.root], check=True,
                       timeout=60)
        out = subprocess.run(["dpkg-deb", "-c", cls.deb], check=True,
                             capture_output=True, text=True, timeout=60)
        cls.paths = set()
        for line in out.stdout.splitlines():
            path = line.split()[5]
            cls.paths.add(path[1:].rstrip("/") or "/")
        ctrl = subprocess.run(["dpkg-deb", "--ctrl-tarfile", cls.deb],
                              check=True, capture_output=True, timeout=60)
        cls.control = {}
        with tarfile.open(fileobj=io.BytesIO(ctrl.stdout)) as t:
            for m in t.getmembers():
                if m.isfile():
                    name = os.path.basename(m.name)
                    cls.control[name] = t.extractfile(m).read().decode()

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, True)

    def unit_dir(self):
        """The unit folder the package uses (/lib or /usr/lib)."""
        dirs = [d for d in ("/lib/systemd/system", "/usr/lib/systemd/system")
                if d + "/hookcast.service" in self.paths]
        self.assertEqual(len(dirs), 1, "hookcast.service in one unit folder: "
                         "%r" % sorted(p for p in self.paths if "systemd" in p))
        return dirs[0]

    def field(self, name):
        m = re.search(r"(?m)^%s: (.*)$" % name, self.control["control"])
        self.assertIsNotNone(m, "no %s: in the control file" % name)
        return m.group(1)

    def test_contents(self):
        for path in ("/usr/sbin/hookcastd", "/usr/bin/hookcastctl",
                     "/usr/bin/hookcast-draft",
                     "/etc/hookcast/hookcast.conf",
                     "/usr/share/hookcast/episode.schema.json",
                     "/usr/share/doc/hookcast/copyright",
                     "/usr/share/bash-completion/completions/hookcastctl",
                     self.unit_dir() + "/hookcast.socket"):
            self.assertIn(path, self.paths)
        # every man page of doc/, compressed, in its section
        pages = [n for n in os.listdir(os.path.join(ht.SOURCE_DIR, "doc"))
                 if re.match(r".*\.[158]$", n)]
        self.assertEqual(len(pages), 4, pages)
        for page in pages:
            self.assertIn("/usr/share/man/man%s/%s.gz" % (page[-1], page),
                          self.paths)
        with open(os.path.join(ht.SOURCE_DIR, "doc",
                               "episode.schema.json")) as f:
            schema = f.read()
        with open(os.path.join(self.root,
                               "usr/share/hookcast/episode.schema.json")) as f:
            self.assertEqual(f.read(), schema)
        with open(os.path.join(self.root,
                               "usr/share/doc/hookcast/copyright")) as f:
            copyright = f.read()
        self.assertIn("Copyright: 2026 The hookcast authors", copyright)
        self.assertIn("License: Expat", copyright)
        # nothing the service makes is shipped: no secret, no state
        self.assertNotIn("/etc/hookcast/webhook-secret", self.paths)
        self.assertFalse([p for p in self.paths if p.startswith("/var")],
                         "the package ships files under /var")
        mode = os.stat(os.path.join(self.root, "usr/sbin/hookcastd")).st_mode
        self.assertEqual(stat.S_IMODE(mode), 0o755)

    def test_control_and_conffiles(self):
        self.assertEqual(self.field("Package"), "hookcast")
        self.assertEqual(self.field("Version"), project_version(),
                         "the package's version is CMake's project(VERSION)")
        for lib in ("libevent", "libjansson", "libcurl", "libssl"):
            self.assertIn(lib, self.field("Depends"))
        self.assertEqual(self.control["conffiles"].split(),
                         ["/etc/hookcast/hookcast.conf"])
        with open(os.path.join(self.root, "etc/hookcast/hookcast.conf")) as f:
            conf = f.read()
        with open(os.path.join(ht.SOURCE_DIR, "systemd",
                               "hookcast.conf.example")) as f:
            self.assertEqual(conf, f.read())

    def test_units(self):
        udir = os.path.join(self.root, self.unit_dir().lstrip("/"))
        with open(os.path.join(udir, "hookcast.service")) as f:
            service = f.read()
        self.assertRegex(service, r"(?m)^ExecStart=/usr/sbin/hookcastd "
                         r"--config=/etc/hookcast/hookcast\.conf$")
        self.assertRegex(service, r"(?m)^LoadCredential=webhook-secret:"
                         r"/etc/hookcast/webhook-secret$")
        self.assertRegex(service, r"(?m)^LoadCredential=github-token:"
                         r"/etc/hookcast/github-token$")
        self.assertNotIn("@HOOKCAST_", service)
        self.assertNotIn("/usr/local", service)
        with open(os.path.join(ht.SOURCE_DIR, "systemd",
                               "hookcast.socket")) as f:
            sock = f.read()
        with open(os.path.join(udir, "hookcast.socket")) as f:
            self.assertEqual(f.read(), sock)
        # debhelper enables and starts both units, and stops them first
        for script, words in (("postinst", ("enable", "hookcast.socket")),
                              ("prerm", ("stop", "hookcast.service"))):
            for w in words:
                self.assertIn(w, self.control[script])

    def test_version(self):
        out = []
        for path, name in (("usr/sbin/hookcastd", "hookcastd"),
                           ("usr/bin/hookcastctl", "hookcastctl"),
                           ("usr/bin/hookcast-draft", "hookcast-draft")):
            p = subprocess.run([os.path.join(self.root, path), "--version"],
                               capture_output=True, text=True, timeout=30)
            self.assertEqual(p.returncode, 0, p)
            m = re.match(VERSION_RE % re.escape(name), p.stdout.strip())
            self.assertIsNotNone(m, "%s --version: %r" % (name, p.stdout))
            self.assertEqual(m.group(1), project_version())
            out.append(m.groups())
        self.assertEqual(len(set(out)), 1, out)
        if self.built_here:
            # built from a copy with no .git: the tree's revision all the same
            sha = subprocess.run(
                ["git", "-C", ht.SOURCE_DIR, "rev-parse", "--short", "HEAD"],
                capture_output=True, text=True, timeout=30).stdout.strip()
            if sha:
                self.assertEqual(out[0][1].split("-")[0], sha)

    def test_check_config(self):
        """The packaged hookcastd reads a configuration naming a secret in
        a scratch folder, and the packaged conffile itself."""
        secret = os.path.join(self.tmp, "secret")
        with open(secret, "w") as f:
            f.write(ht.DEFAULT_SECRET)
        os.chmod(secret, 0o600)
        conf = os.path.join(self.tmp, "check.conf")
        with open(conf, "w") as f:
            f.write("listen = 127.0.0.1:0\nsecret_file = %s\n"
                    "state_dir = %s\n" % (secret,
                                          os.path.join(self.tmp, "state")))
        hookcastd = os.path.join(self.root, "usr/sbin/hookcastd")
        for args in (["--config=" + conf],
                     ["--config=" + os.path.join(
                         self.root, "etc/hookcast/hookcast.conf"),
                      "--secret-file=" + secret,
                      "--state-dir=" + os.path.join(self.tmp, "state")]):
            p = subprocess.run([hookcastd] + args + ["--check-config"],
                               env=ht.daemon_env(), capture_output=True,
                               text=True, timeout=30)
            self.assertEqual(p.returncode, 0, p)
            self.assertIn("configuration OK", p.stdout)
        # and refuses a configuration whose secret is missing
        os.rename(secret, secret + ".gone")
        try:
            p = subprocess.run([hookcastd, "--config=" + conf,
                                "--check-config"], env=ht.daemon_env(),
                               capture_output=True, text=True, timeout=30)
        finally:
            os.rename(secret + ".gone", secret)
        self.assertEqual(p.returncode, 1, p)
        self.assertIn(secret, p.stderr)

    def maint(self, root, script, *args):
        """Run a maintainer script against root, systemd's helpers
        stubbed (their calls logged)."""
        stubs = os.path.join(self.tmp, "stubs")
        log = os.path.join(self.tmp, "stubs.log")
        os.makedirs(stubs, exist_ok=True)
        for name in ("deb-systemd-helper", "deb-systemd-invoke",
                     "systemctl"):
            path = os.path.join(stubs, name)
            with open(path, "w") as f:
                f.write(STUB % log)
            os.chmod(path, 0o755)
        path = os.path.join(self.tmp, script)
        with open(path, "w") as f:
            f.write(self.control[script])
        os.chmod(path, 0o755)
        env = dict(os.environ, DPKG_ROOT=root,
                   PATH=stubs + ":" + os.environ.get("PATH", "/usr/bin:/bin"))
        p = subprocess.run([path] + list(args), env=env, capture_output=True,
                           text=True, timeout=60)
        self.assertEqual(p.returncode, 0, "%s %s: %r" % (script, args, p))
        return p.stdout + p.stderr

    def test_maintainer_scripts(self):
        root = os.path.join(self.tmp, "maint")
        shutil.copytree(self.root, root, symlinks=True)
        secret = os.path.join(root, "etc/hookcast/webhook-secret")
        out = self.maint(root, "postinst", "configure", "")
        self.assertIn("/etc/hookcast/webhook-secret", out)
        self.assertIn("http://127.0.0.1:8080/webhook", out)
        st = os.stat(secret)
        self.assertEqual(stat.S_IMODE(st.st_mode), 0o600)
        with open(secret) as f:
            value = f.read()
        self.assertRegex(value, r"^[0-9a-f]{64}\n$")
        # the packaged hookcastd takes it
        p = subprocess.run(
            [os.path.join(root, "usr/sbin/hookcastd"),
             "--config=" + os.path.join(root, "etc/hookcast/hookcast.conf"),
             "--secret-file=" + secret,
             "--state-dir=" + os.path.join(self.tmp, "state2"),
             "--check-config"], env=ht.daemon_env(), capture_output=True,
            text=True, timeout=30)
        self.assertEqual(p.returncode, 0, p)
        # an upgrade's configure keeps it, and says nothing of it
        out = self.maint(root, "postinst", "configure", "0.0.9")
        with open(secret) as f:
            self.assertEqual(f.read(), value)
        self.assertNotIn("webhook-secret", out)
        # what the service leaves: state (DynamicUser=), the runtime folder
        private = os.path.join(root, "var/lib/private/hookcast")
        os.makedirs(os.path.join(private, "episodes"))
        with open(os.path.join(private, "journal"), "w") as f:
            f.write("x")
        os.symlink("private/hookcast", os.path.join(root, "var/lib/hookcast"))
        os.makedirs(os.path.join(root, "run/hookcast"))
        # remove: the runtime folder goes, the secret and the state stay
        self.maint(root, "prerm", "remove")
        self.maint(root, "postrm", "remove")
        self.assertFalse(os.path.exists(os.path.join(root, "run/hookcast")))
        self.assertTrue(os.path.exists(secret))
        self.assertTrue(os.path.exists(os.path.join(private, "journal")))
        # purge (dpkg has taken the conffile away first): nothing is left
        os.unlink(os.path.join(root, "etc/hookcast/hookcast.conf"))
        self.maint(root, "postrm", "purge")
        for gone in ("etc/hookcast", "var/lib/hookcast",
                     "var/lib/private/hookcast"):
            self.assertFalse(os.path.lexists(os.path.join(root, gone)), gone)
        with open(os.path.join(self.tmp, "stubs.log")) as f:
            calls = f.read()
        self.assertIn("deb-systemd-helper enable hookcast.service", calls)
        self.assertIn("deb-systemd-helper purge hookcast.service", calls)

    def test_completion(self):
        """The bash completion offers hookcastctl's commands, as its usage
        lists them."""
        path = os.path.join(self.root,
                            "usr/share/bash-completion/completions/hookcastctl")
        if shutil.which("bash") is None:
            self.skipTest("bash not installed")

        def complete(*words):
            script = ('source "$1"; shift; COMP_WORDS=("$@"); '
                      'COMP_CWORD=$(($# - 1)); _hookcastctl; '
                      'printf "%s\\n" "${COMPREPLY[@]}"')
            p = subprocess.run(["bash", "-c", script, "bash", path] +
                               list(words), capture_output=True, text=True,
                               timeout=30)
            self.assertEqual(p.returncode, 0, p)
            return sorted(w for w in p.stdout.split("\n") if w)

        self.assertEqual(complete("hookcastctl", ""), ctl_commands())
        self.assertEqual(complete("hookcastctl", "fl"), ["flush"])
        self.assertEqual(complete("hookcastctl", "--json", "re"),
                         ["recap", "reload"])
        self.assertIn("--socket", complete("hookcastctl", "--"))
        self.assertEqual(complete("hookcastctl", "status", ""), [])


if __name__ == "__main__":
    unittest.main(verbosity=2)
