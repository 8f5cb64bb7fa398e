"""The command line and the first run (issue #31): usage errors exit 2
(hookcastctl with or without a daemon, hookcastd, hookcast-draft), "did
you mean" for a mistyped config key, flag or command, sizes with units
in errors, one error for a missing config file, --print-config naming
where the secret and the $STATE_DIRECTORY paths came from, hookcastctl
--json when no daemon answers, a refused reload's errors a line each,
scripts/run's --help, root warning and what it prints once ready, and
the man pages and README that say so."""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hookcast_test as ht  # noqa: E402

DRAFT = os.environ.get("HOOKCAST_DRAFT") or os.path.join(
    os.path.dirname(ht.HOOKCASTD), "hookcast-draft")
RUN = os.path.join(ht.SOURCE_DIR, "scripts", "run")
CORPUS_DAY = os.path.join(ht.CORPUS, "curl-2026-06-01")


def run(cmd, cwd=None, env=None, timeout=60):
    return subprocess.run(cmd, cwd=cwd, env=env or ht.daemon_env(),
                          stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, errors="replace", timeout=timeout)


def ctl(*args, env=None):
    return run([ht.HOOKCASTCTL] + list(args), env=env)


class Base(unittest.TestCase):

    def setUp(self):
        self.tmp = ht.make_tmpdir()
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.secret = os.path.join(self.tmp, "secret")
        with open(self.secret, "w") as f:
            f.write(ht.DEFAULT_SECRET)
        os.chmod(self.secret, 0o600)
        self.nowhere = os.path.join(self.tmp, "nowhere.sock")

    def write(self, name, text):
        path = os.path.join(self.tmp, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def daemon(self, *args, env=None):
        return ht.run_daemon(["--state-dir=" + os.path.join(self.tmp, "st")]
                             + list(args), cwd=self.tmp, env=env)


class TestCtlUsage(Base):

    def test_usage_errors_exit_2_without_a_daemon(self):
        """Checked before connecting: no daemon needed to say them."""
        cases = [
            (["frobnicate"], "unknown command 'frobnicate'"),
            (["status", "a/b", "c/d"], "at most one argument"),
            (["reload", "now"], "reload takes no argument"),
            (["help", "me"], "help takes no argument"),
            (["--frob", "status"], "unknown option '--frob'"),
            ([], "usage:"),
        ]
        for args, said in cases:
            p = ctl("--socket", self.nowhere, *args)
            self.assertEqual(p.returncode, 2, (args, p.stdout, p.stderr))
            self.assertIn(said, p.stderr, args)
            self.assertNotIn("no control socket there", p.stderr,
                             "%s: it tried the daemon" % args)

    def test_usage_errors_exit_2_with_a_daemon(self):
        with ht.Daemon() as d:
            for args in (["frobnicate"], ["flush", "a/b", "c/d"],
                         ["reload", "x"]):
                rc, out, err = d.ctl(*args)
                self.assertEqual(rc, 2, (args, out, err))
            # and each of the daemon's commands passes the client's check
            rc, out, err = d.ctl("--json", "help")
            self.assertEqual(rc, 0, err)
            for cmd in json.loads(out)["commands"]:
                p = ctl("--json", "--socket", self.nowhere, cmd)
                self.assertNotIn("unknown command", p.stderr, cmd)
                self.assertIn("no control socket there", p.stderr, cmd)
            d.stop()

    def test_did_you_mean(self):
        p = ctl("--socket", self.nowhere, "stauts")
        self.assertEqual(p.returncode, 2)
        self.assertIn("unknown command 'stauts' (did you mean status?)",
                      p.stderr)
        p = ctl("--socket", self.nowhere, "--jsno", "status")
        self.assertEqual(p.returncode, 2)
        self.assertIn("unknown option '--jsno' (did you mean --json?)",
                      p.stderr)
        # nothing close: no suggestion
        p = ctl("--socket", self.nowhere, "xyzzyplugh")
        self.assertEqual(p.returncode, 2)
        self.assertNotIn("did you mean", p.stderr)

    def test_socket_without_a_path(self):
        for args in (["status", "--socket"], ["--socket=", "status"]):
            p = ctl(*args)
            self.assertEqual(p.returncode, 2, (args, p.stderr))
            self.assertIn("--socket needs a path", p.stderr, args)

    def test_json_when_no_daemon_answers(self):
        p = ctl("--json", "--socket", self.nowhere, "status")
        self.assertNotEqual(p.returncode, 0)
        lines = p.stdout.strip().splitlines()
        self.assertEqual(len(lines), 1, p.stdout)
        reply = json.loads(lines[0])
        self.assertIs(reply.get("ok"), False, reply)
        self.assertIn(self.nowhere, reply.get("error", ""), reply)
        self.assertIn("no control socket there", reply["error"])

    def test_reload_errors_a_line_each(self):
        conf = self.write("hookcast.conf", "emit_at = 10:00\n")
        with ht.Daemon(extra_args=["--config=" + conf]) as d:
            with open(conf, "w") as f:
                f.write("emit_at = 25:00\nmax_body = 100M\n")
            rc, out, err = d.ctl("reload")
            self.assertEqual(rc, 1, (out, err))
            lines = [l for l in err.splitlines() if l.strip()]
            self.assertTrue(any(re.search(r"%s:1: emit_at:" % re.escape(
                conf), l) for l in lines), err)
            self.assertTrue(any(re.search(r"%s:2: max_body:" % re.escape(
                conf), l) for l in lines), err)
            both = [l for l in lines if "emit_at" in l and "max_body" in l]
            self.assertEqual(both, [], "two errors on one line: %r" % err)
            for l in lines:
                self.assertTrue(l.startswith("hookcastctl: "), l)
            d.stop()


class TestDaemonUsage(Base):

    def test_unknown_flag_exits_2_with_a_suggestion(self):
        p = self.daemon("--secret-file=" + self.secret, "--listn=1.2.3.4:5")
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("--listn: unknown option (did you mean --listen?)",
                      p.stderr)
        self.assertIn("usage: hookcastd", p.stderr)
        p = self.daemon("--secret-file=" + self.secret, "--check-config",
                        "--zzzzzzzz")
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("--zzzzzzzz: unknown option", p.stderr)
        self.assertNotIn("did you mean", p.stderr)
        p = self.daemon("--secret-file=" + self.secret, "stray")
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("stray: unexpected argument", p.stderr)

    def test_unknown_key_in_the_file_suggests_the_closest(self):
        conf = self.write("hookcast.conf", "timezone = UTC\nmax_bdoy = 1M\n"
                          "completely_unheard_of = 1\n")
        p = self.daemon("--config=" + conf, "--secret-file=" + self.secret,
                        "--check-config")
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("%s:2: max_bdoy: unknown key (did you mean max_body?)"
                      % conf, p.stderr)
        self.assertIn("%s:3: completely_unheard_of: unknown key\n" % conf,
                      p.stderr)
        # and in the sections of a repository and of a sink
        conf = self.write("sections.conf",
                          '[repo "a/b"]\nbranchs = main\n'
                          '[sink "chat"]\ntype = slack\n'
                          'url = https://chat.example.org/hook\n'
                          'urll = https://x.example.org/\n')
        p = self.daemon("--config=" + conf, "--secret-file=" + self.secret,
                        "--check-config")
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertRegex(p.stderr, r"%s:2: branchs: unknown key in \[repo "
                         r"\"a/b\"\] \(did you mean branches\?"
                         % re.escape(conf))
        self.assertRegex(p.stderr, r"%s:6: urll: unknown key in \[sink "
                         r"\"chat\"\] \(did you mean url\?"
                         % re.escape(conf))

    def test_sizes_with_units(self):
        conf = self.write("hookcast.conf", "max_body = 100M\n"
                          "max_header = 512\n")
        p = self.daemon("--config=" + conf, "--secret-file=" + self.secret,
                        "--check-config")
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("%s:1: max_body: 100M is over the limit of 64M" % conf,
                      p.stderr)
        self.assertIn("%s:2: max_header: 512 bytes is under the minimum of "
                      "1K" % conf, p.stderr)
        p = self.daemon("--secret-file=" + self.secret, "--check-config",
                        "--max-body=32M", "--max-buffered-bodies=16M")
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertRegex(p.stderr, r"max_buffered_bodies\)?: 16M is less "
                         r"than max_body \(32M\)")
        self.assertNotRegex(p.stderr, r"\d{7,}")

    def test_missing_config_file_is_one_error(self):
        missing = os.path.join(self.tmp, "nope.conf")
        for extra in ([], ["--check-config"]):
            p = self.daemon("--config=" + missing, *extra)
            self.assertEqual(p.returncode, 1, p.stderr)
            errors = [l for l in p.stderr.splitlines()
                      if missing in l or "secret" in l]
            self.assertEqual(len(errors), 1, p.stderr)
            self.assertIn(missing, errors[0])
            self.assertIn("No such file", errors[0])
            self.assertNotIn("no webhook secret", p.stderr)

    def printed(self, args, env):
        p = ht.run_daemon(list(args) + ["--print-config"], cwd=self.tmp,
                          env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        got = {}
        for l in p.stdout.splitlines():
            m = re.match(r"^([a-z_]+) = (.*)\t# (.*)$", l)
            if m:
                got[m.group(1)] = (m.group(2), m.group(3))
        m = re.search(r"^# webhook secret from: (.*)$", p.stdout, re.M)
        self.assertIsNotNone(m, p.stdout)
        return got, m.group(1)

    def test_print_config_says_where_the_secret_came_from(self):
        _, src = self.printed(["--secret-file=" + self.secret], None)
        self.assertEqual(src, "file %s (--secret-file (secret_file))"
                         % self.secret)
        _, src = self.printed([], ht.daemon_env(
            {"HOOKCAST_SECRET": ht.DEFAULT_SECRET}))
        self.assertEqual(src, "environment $HOOKCAST_SECRET")
        creds = os.path.join(self.tmp, "creds")
        os.mkdir(creds)
        shutil.copy(self.secret, os.path.join(creds, "webhook-secret"))
        os.chmod(os.path.join(creds, "webhook-secret"), 0o600)
        _, src = self.printed([], ht.daemon_env(
            {"CREDENTIALS_DIRECTORY": creds}))
        self.assertEqual(src, "credential %s/webhook-secret" % creds)
        _, src = self.printed(["--insecure-no-signature"], None)
        self.assertTrue(src.startswith("default (none"), src)

    def test_print_config_names_state_directory_paths(self):
        state = os.path.join(self.tmp, "sd")
        got, _ = self.printed(["--secret-file=" + self.secret],
                              ht.daemon_env({"STATE_DIRECTORY": state}))
        self.assertEqual(got["state_dir"], (state, "$STATE_DIRECTORY"))
        self.assertEqual(got["output_dir"], (state + "/episodes",
                                             "$STATE_DIRECTORY/episodes"))
        self.assertEqual(got["control_socket"],
                         (state + "/control.sock",
                          "$STATE_DIRECTORY/control.sock"))
        # without it they are plain defaults
        got, _ = self.printed(["--secret-file=" + self.secret], None)
        self.assertEqual(got["state_dir"], ("./hookcast-state", "default"))
        self.assertEqual(got["output_dir"][1], "default")


class TestDraftUsage(Base):

    def test_usage_errors_exit_2(self):
        cases = [
            (["--frobnicate", CORPUS_DAY], "frobnicate"),
            (["--day"], "--day"),
            ([], "usage:"),
            (["--audio", CORPUS_DAY], "--audio needs --output-dir"),
            (["--day", "2026-13-01", CORPUS_DAY], "--day: '2026-13-01'"),
            (["--day", "yesterday", CORPUS_DAY], "--day: 'yesterday'"),
            (["--timezone", "Mars/Olympus", CORPUS_DAY], "Mars/Olympus"),
        ]
        for args, said in cases:
            p = run([DRAFT] + args)
            self.assertEqual(p.returncode, 2, (args, p.stderr))
            self.assertIn(said, p.stderr, args)
            self.assertEqual(p.stdout, "", args)
        # a configuration error is not a usage error
        conf = self.write("bad.conf", "timezone = Mars/Olympus\n")
        p = run([DRAFT, "--config", conf, CORPUS_DAY])
        self.assertEqual(p.returncode, 1, p.stderr)


class TestRunScript(Base):

    def fake_root(self):
        """PATH with an `id` that says root, whoever runs the test."""
        bindir = os.path.join(self.tmp, "bin")
        os.mkdir(bindir)
        with open(os.path.join(bindir, "id"), "w") as f:
            f.write("#!/bin/sh\necho 0\n")
        os.chmod(os.path.join(bindir, "id"), 0o755)
        return bindir + os.pathsep + os.environ.get("PATH", "")

    def test_help_creates_nothing(self):
        work = os.path.join(self.tmp, "work")
        os.mkdir(work)
        build = os.path.join(self.tmp, "build")
        for arg in ("--help", "-h"):
            p = run([RUN, arg], cwd=work, env=ht.daemon_env(
                {"HOOKCAST_BUILD_DIR": build}))
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn("usage: scripts/run", p.stdout)
            self.assertIn("--demo", p.stdout)
            self.assertEqual(os.listdir(work), [], arg)
            self.assertFalse(os.path.exists(build), arg)
            self.assertNotIn("usage: hookcastd", p.stdout + p.stderr)

    def test_running_it(self):
        """Built with progress, warned as root, and once ready: how to
        stop it, check on it, its health URL, and that GitHub can't reach
        loopback; Ctrl-C stops it with status 0."""
        build = os.path.dirname(ht.HOOKCASTD)
        if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
            # scripts/valgrind-test's wrapper: scripts/run would build a
            # whole tree beside it, to run without valgrind
            self.skipTest("hookcastd is a wrapper, not in a build folder")
        work = os.path.join(self.tmp, "work")
        os.mkdir(work)
        port = ht.free_port()
        # (the fake root must not install packages: the suite's are in)
        env = ht.daemon_env({
            "HOOKCAST_BUILD_DIR": build,
            "HOOKCAST_SKIP_DEPS": "1",
            "PATH": self.fake_root()})
        p = subprocess.Popen(
            [RUN, "--listen=127.0.0.1:%d" % port, "--audio=off",
             "--state-dir=" + os.path.join(work, "st")],
            cwd=work, env=env, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            errors="replace", start_new_session=True)
        killer = threading.Timer(
            500, lambda: os.killpg(p.pid, signal.SIGKILL))
        killer.start()
        lines = []
        try:
            for line in p.stderr:
                lines.append(line)
                if "Ctrl-C to stop" in line:
                    break
            # the lines after it
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                line = p.stderr.readline()
                lines.append(line)
                if not line.strip():
                    break
            out = "".join(lines)
            self.assertIn("Ctrl-C to stop", out, out)
            os.killpg(p.pid, signal.SIGINT)
            out += p.stderr.read()
            p.wait(timeout=60)
        finally:
            killer.cancel()
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
            p.stderr.close()
        self.assertEqual(p.returncode, 0, out)
        self.assertIn("warning: running as root", out)
        self.assertIn("hookcast: building ", out)
        self.assertRegex(out, r"hookcast: build +100%")
        self.assertIn("hookcast: built in ", out)
        self.assertIn("--socket %s/st/control.sock status" % work, out)
        self.assertIn("http://127.0.0.1:%d/healthz" % port, out)
        self.assertIn("GitHub can't reach 127.0.0.1:%d" % port, out)
        self.assertIn('"Reaching it from GitHub"', out)
        self.assertLess(out.index("ready"), out.index("Ctrl-C to stop"))
        self.assertIn("stopped", out)


class TestDocs(unittest.TestCase):

    def read(self, *path):
        with open(os.path.join(ht.SOURCE_DIR, *path)) as f:
            return f.read().replace("\\-", "-").replace("\\(aq", "'")

    def test_man_pages_exit_status_2(self):
        for page in ("hookcastctl.1", "hookcastd.8", "hookcast-draft.1"):
            man = self.read("doc", page)
            m = re.search(r"^\.SH EXIT STATUS\n(.*?)(?=^\.SH )", man,
                          re.M | re.S)
            self.assertIsNotNone(m, page)
            self.assertRegex(m.group(1), r"\.B 2\n[^.]*[Uu]sage", page)

    def test_readme(self):
        readme = self.read("README.md")
        for said in (
                "## Reaching it from GitHub",
                "journalctl -u hookcast",
                "/var/lib/private/hookcast",
                "ReadWritePaths=",
                "DynamicUser",
                # the reverse proxies: the body limit is max_body's default
                "client_max_body_size 25m",
                "max_size 25MiB",
                "X-Forwarded-For",
                "reverse_proxy",
                "hookcast.conf(5)"):
            self.assertTrue(said in readme, "README.md lacks %r" % said)
        # the configuration table: complete, or said to be a part
        table = readme[readme.index("| key | default | meaning |"):]
        table = table[:table.index("\n\n")]
        listed = set(re.findall(r"`([a-z_]+)`", "\n".join(
            l.split("|")[1] for l in table.splitlines()[2:])))
        p = subprocess.run([ht.HOOKCASTD, "--help"], capture_output=True,
                           text=True, timeout=30)
        keys = set(k.replace("-", "_") for k in
                   re.findall(r"^  --([a-z-]+) ", p.stdout, re.M))
        keys -= {"config", "check_config", "print_config"}
        self.assertTrue(keys)
        self.assertEqual(sorted(listed - keys), [],
                         "README lists keys the daemon doesn't have")
        if listed != keys:
            before = readme[:readme.index("| key | default | meaning |")]
            before = before[before.rindex("## Configuration"):]
            self.assertRegex(before, r"(?s)the most used.*hookcast\.conf\(5\)"
                             r".*every key", "the README's table is partial "
                             "and doesn't say so")


if __name__ == "__main__":
    unittest.main()
