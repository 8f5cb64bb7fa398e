"""The programs the daemon runs: exec sinks and the tts_command. Their
environment is built (no webhook secret, nothing of systemd's), an exec
sink's run is judged by its command's exit status and whatever it leaves
behind is killed, the whole tree on a timeout, and a sink runs at most
max_running commands at once."""

import json
import os
import re
import shutil
import signal
import socket
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hookcast_test as ht  # noqa: E402
from test_sinks import (REPO, RETRY, outbox_files, push_and_flush,  # noqa
                        sink_status, wait_for, write_config)

ENV_SECRET = "env-secret-5f0e9b1c7d2a4e6f8091a2b3c4d5e6f7"
# what a shell adds of its own to what it exports
SHELL_VARS = {"PWD", "OLDPWD", "SHLVL", "_"}
ALLOWED = {"PATH", "HOME", "LANG", "LC_ALL", "TZ", "TMPDIR"}
SYSTEMD_VARS = {
    "NOTIFY_SOCKET", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES",
    "WATCHDOG_USEC", "WATCHDOG_PID", "CREDENTIALS_DIRECTORY",
    "JOURNAL_STREAM", "HOOKCAST_SECRET"}


def script(tmp, name, text):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + text)
    os.chmod(path, 0o755)
    return path


def read_env(path):
    """NAME=value lines of env(1), as a dict (values of one line)."""
    out = {}
    with open(path) as f:
        for line in f.read().splitlines():
            if "=" in line and line.split("=", 1)[0].isidentifier():
                k, v = line.split("=", 1)
                out[k] = v
    return out


def alive(pid):
    """Whether pid runs (a zombie doesn't)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def pids_in(folder):
    out = {}
    for name in os.listdir(folder):
        with open(os.path.join(folder, name)) as f:
            text = f.read().strip()
        if text:
            out[name] = int(text)
    return out


def kill_all(pids):
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


class ChildEnvTest(unittest.TestCase):

    def test_no_secret_nor_systemd_variables_in_children(self):
        tmp = ht.make_tmpdir()
        creds = os.path.join(tmp, "credentials")
        os.mkdir(creds)
        notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        notify.bind(os.path.join(tmp, "notify.sock"))
        sink = script(tmp, "sink.sh", "env > %s/sink.env\n" % tmp)
        conf = write_config(tmp, '[sink "files"]\ntype = exec\n'
                            'command = %s\n' % sink)
        env = ht.daemon_env({
            "HOOKCAST_SECRET": ENV_SECRET,
            "NOTIFY_SOCKET": os.path.join(tmp, "notify.sock"),
            "LISTEN_FDS": "0", "LISTEN_PID": "1", "LISTEN_FDNAMES": "x",
            "WATCHDOG_USEC": "600000000", "WATCHDOG_PID": "1",
            "CREDENTIALS_DIRECTORY": creds,
            "LANG": "C.UTF-8", "HOME": tmp})
        tts = ("env > %s/tts.env; cat >/dev/null; echo no voice >&2; exit 3"
               % tmp)
        d = ht.Daemon(options={"secret-file": None, "audio": "on",
                               "tts-command": tts},
                      secret=ENV_SECRET, env=env, tmp=tmp,
                      extra_args=["--config=" + conf] + RETRY)
        try:
            d.wait_log(r"1 webhook secret\(s\) loaded")
            ep = push_and_flush(d)
            wait_for("the exec sink", lambda: sink_status(
                d, "files")["delivered"] == 1)
            wait_for("the tts_command", lambda: os.path.exists(
                os.path.join(tmp, "tts.env")) and d.log().find(
                    "tts_command exited with status 3") != -1, timeout=60)
            with open(ep["json"]) as f:
                title = json.load(f)["title"]
            sink_env = read_env(os.path.join(tmp, "sink.env"))
            tts_env = read_env(os.path.join(tmp, "tts.env"))
            for name, got in (("sink", sink_env), ("tts", tts_env)):
                text = json.dumps(got)
                self.assertNotIn(ENV_SECRET, text, name)
                self.assertFalse(SYSTEMD_VARS & set(got), (name, got))
                extra = {k for k in got if not k.startswith("HOOKCAST_")}
                self.assertLessEqual(extra, ALLOWED | SHELL_VARS,
                                     (name, got))
                self.assertEqual(got.get("LANG"), "C.UTF-8", name)
                self.assertEqual(got.get("HOME"), tmp, name)
                self.assertTrue(got.get("PATH"), name)
            self.assertEqual(
                {k: v for k, v in sink_env.items()
                 if k.startswith("HOOKCAST_")},
                {"HOOKCAST_SINK": "files", "HOOKCAST_REPOSITORY": REPO,
                 "HOOKCAST_DATE": ep["date"],
                 "HOOKCAST_TITLE": title,
                 "HOOKCAST_DELIVERY": sink_env.get("HOOKCAST_DELIVERY")})
            self.assertRegex(sink_env["HOOKCAST_DELIVERY"], r"^[0-9a-f]{32}$")
            self.assertEqual(tts_env.get("HOOKCAST_REPO"), REPO)
            self.assertEqual(tts_env.get("HOOKCAST_SENTENCE"), "1")
            self.assertTrue(tts_env.get("HOOKCAST_WPM"))
            # nor in the daemon's own environment block, as /proc shows it
            # (under valgrind that block is valgrind's, not the one the
            # daemon overwrites: its own copy is the client's)
            if not os.environ.get("HOOKCAST_UNDER_VALGRIND"):
                with open("/proc/%d/environ" % d.proc.pid, "rb") as f:
                    block = f.read()
                self.assertNotIn(ENV_SECRET.encode(), block)
                self.assertIn(b"NOTIFY_SOCKET=", block)
            # a reload still finds the secret: signed deliveries still
            # pass, unsigned ones are still refused
            self.assertTrue(d.control("reload").get("ok"))
            d.wait_log(r"reloading configuration")
            status, _ = d.post_payload(ht.make_push())
            self.assertIn(status, (200, 202))
            status, _ = d.post_payload(ht.make_push(),
                                       secret="not-the-secret")
            self.assertEqual(status, 401)
            d.stop()
        finally:
            notify.close()
            d.cleanup()
            shutil.rmtree(tmp, ignore_errors=True)


class ExecSourcesTest(unittest.TestCase):

    def test_every_exec_passes_a_built_environment(self):
        """Every exec in the C sources hands over an environment that
        childenv built; none passes the daemon's own (execv, execvp,
        execl, popen, system, posix_spawn)."""
        inherit = re.compile(r"\b(execl|execlp|execv|execvp|popen|system|"
                             r"posix_spawnp?)\s*\(")
        given = re.compile(r"\b(execle|execvpe|execve|fexecve)\s*\(")
        found = 0
        for where, text in ht.c_sources():
            # comments out: they may name what they don't call
            text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
            self.assertIsNone(inherit.search(text), where)
            calls = given.findall(text)
            if calls:
                found += len(calls)
                self.assertIn("childenv_vector(", text, where)
        # outbox.c's keeper and audio.c's two
        self.assertGreaterEqual(found, 3)


class ExecRunTest(unittest.TestCase):

    def test_exit_0_with_a_child_holding_the_output(self):
        """A command that exits 0 while a child of its still holds its
        output is delivered at once, once; the child is killed."""
        tmp = ht.make_tmpdir()
        calls = os.path.join(tmp, "calls")
        sink = script(tmp, "sink.sh",
                      "echo run >> %s\n"
                      "sleep 300 &\n"
                      "echo $! > %s/bg.pid\n"
                      "echo filed\n"
                      "exit 0\n" % (calls, tmp))
        conf = write_config(tmp, '[sink "files"]\ntype = exec\n'
                            'command = %s\n' % sink)
        d = ht.Daemon(extra_args=["--config=" + conf, "--sink-timeout=3"]
                      + RETRY, tmp=tmp)
        bg = None
        try:
            push_and_flush(d)
            # before: each run "ran over 3 s", and was run again
            wait_for("the delivery", lambda: sink_status(
                d, "files")["delivered"] == 1)
            with open(os.path.join(tmp, "bg.pid")) as f:
                bg = int(f.read())
            wait_for("the background child killed", lambda: not alive(bg))
            st = sink_status(d, "files")
            self.assertEqual((st["retried"], st["failed"], st["pending"]),
                             (0, 0, 0), st)
            with open(calls) as f:
                self.assertEqual(f.read().splitlines(), ["run"])
            self.assertNotRegex(d.log(), r"sink files: .*sink_timeout")
            self.assertRegex(d.log(), r"sink files: .*the command said: "
                             r"filed")
            self.assertEqual(outbox_files(d, "files"), [])
            d.stop()
        finally:
            if bg:
                kill_all([bg])
            d.cleanup()
            shutil.rmtree(tmp, ignore_errors=True)

    def test_timeout_kills_the_tree_setsid_included(self):
        tmp = ht.make_tmpdir()
        pids = os.path.join(tmp, "pids")
        os.mkdir(pids)
        sink = script(tmp, "sink.sh",
                      "echo $$ > {p}/command\n"
                      "sleep 300 &\n"
                      "echo $! > {p}/background\n"
                      "setsid sh -c 'echo $$ > {p}/setsid; "
                      "sleep 300 & echo $! > {p}/setsid-child; wait' &\n"
                      "wait\n".format(p=pids))
        conf = write_config(tmp, '[sink "files"]\ntype = exec\n'
                            'command = %s\n' % sink)
        d = ht.Daemon(extra_args=["--config=" + conf, "--sink-timeout=2",
                                  "--sink-retry-min=600",
                                  "--sink-retry-max=600"], tmp=tmp)
        seen = {}
        try:
            push_and_flush(d)
            wait_for("all four processes", lambda: len(pids_in(pids)) == 4)
            seen = pids_in(pids)
            d.wait_log(r"sink files: .*ran over 2 s \(sink_timeout\); "
                       r"killed; retry 1 in")
            wait_for("the tree gone", lambda: not any(
                alive(p) for p in seen.values()), timeout=10)
            self.assertFalse([n for n, p in seen.items() if alive(p)])
            st = sink_status(d, "files")
            self.assertEqual((st["retried"], st["pending"]), (1, 1), st)
            d.stop()
        finally:
            # before the fix, the setsid branch outlived the daemon
            kill_all(seen.values())
            d.cleanup()
            shutil.rmtree(tmp, ignore_errors=True)

    def test_stop_kills_a_running_command_tree(self):
        tmp = ht.make_tmpdir()
        pids = os.path.join(tmp, "pids")
        os.mkdir(pids)
        sink = script(tmp, "sink.sh",
                      "setsid sh -c 'echo $$ > {p}/setsid; exec sleep 300'"
                      " &\n"
                      "echo $$ > {p}/command\n"
                      "wait\n".format(p=pids))
        conf = write_config(tmp, '[sink "files"]\ntype = exec\n'
                            'command = %s\n' % sink)
        d = ht.Daemon(extra_args=["--config=" + conf, "--sink-timeout=300"],
                      tmp=tmp)
        seen = {}
        try:
            push_and_flush(d)
            wait_for("both processes", lambda: len(pids_in(pids)) == 2)
            seen = pids_in(pids)
            d.stop()
            wait_for("the tree gone", lambda: not any(
                alive(p) for p in seen.values()), timeout=10)
            # the publication stays for the next start
            self.assertEqual(len(outbox_files(d, "files")), 1)
        finally:
            kill_all(seen.values())
            d.cleanup()
            shutil.rmtree(tmp, ignore_errors=True)


class MaxRunningTest(unittest.TestCase):

    def flush_many(self, n, max_running=None):
        tmp = ht.make_tmpdir()
        running = os.path.join(tmp, "running")
        os.mkdir(running)
        counts = os.path.join(tmp, "counts")
        done = os.path.join(tmp, "done")
        # a run marks itself, counts the marks, stays a while, leaves
        sink = script(tmp, "sink.sh",
                      "mkdir {r}/$HOOKCAST_DELIVERY\n"
                      "ls {r} | wc -l >> {c}\n"
                      "sleep 0.5\n"
                      "rmdir {r}/$HOOKCAST_DELIVERY\n"
                      "echo $HOOKCAST_REPOSITORY >> {d}\n"
                      .format(r=running, c=counts, d=done))
        conf = write_config(tmp, '[sink "files"]\ntype = exec\n'
                            'command = %s\n%s' % (
                                sink, "" if max_running is None else
                                "max_running = %d\n" % max_running))
        d = ht.Daemon(extra_args=["--config=" + conf] + RETRY, tmp=tmp)
        try:
            repos = ["hookcast-test/r%02d" % i for i in range(n)]
            for r in repos:
                status, data = d.post_payload(ht.make_push(
                    [ht.make_commit(repo=r)], repo=r))
                self.assertIn(status, (200, 202), data)
            reply = d.control("flush", timeout=120)
            self.assertTrue(reply.get("ok"), reply)
            self.assertEqual(len(reply["episodes"]), n)
            wait_for("all deliveries", lambda: sink_status(
                d, "files")["delivered"] == n, timeout=120)
            with open(done) as f:
                self.assertEqual(sorted(f.read().split()), repos)
            with open(counts) as f:
                seen = [int(x) for x in f.read().split()]
            st = sink_status(d, "files")
            self.assertEqual((st["failed"], st["retried"]), (0, 0), st)
            d.stop()
            return seen
        finally:
            d.cleanup()
            shutil.rmtree(tmp, ignore_errors=True)

    def test_thirty_repositories_default_limit(self):
        seen = self.flush_many(30)
        self.assertEqual(len(seen), 30)
        # before: 30 at once
        self.assertLessEqual(max(seen), 4, seen)
        self.assertGreaterEqual(max(seen), 2, seen)

    def test_limit_of_one(self):
        seen = self.flush_many(6, max_running=1)
        self.assertEqual(seen, [1] * 6)

    def test_bad_max_running(self):
        tmp = ht.make_tmpdir()
        try:
            conf = write_config(tmp, '[sink "files"]\ntype = exec\n'
                                'command = /bin/true\nmax_running = 0\n')
            p = ht.run_daemon(["--config=" + conf, "--check-config",
                               "--insecure-no-signature",
                               "--listen=127.0.0.1:0"])
            self.assertEqual(p.returncode, 1)
            self.assertRegex(p.stdout + p.stderr,
                             r"sinks\.conf:4: max_running: '0' is not a "
                             r"number from 1 to 256")
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
