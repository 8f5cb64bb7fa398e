"""Files the daemon writes are never reached through a planted symlink, and
secret files must be private, long enough, and may hold comments.

- A symlink planted at OUTPUT_DIR/OWNER/REPO or OUTPUT_DIR/OWNER, pointing
  at another folder, is not followed by a flush: the other folder is left
  as it was and the flush says why.
- A symlink planted at STATE/journal stops the start with a clear error;
  the file it points at is untouched.
- Emitted folders and files get their documented modes whatever the umask.
- A group- or world-writable secret file, one its group or others may
  read, and a secret shorter than 16 bytes, are refused at start (exit 1,
  the file named); so is every other credential file (tokens, model and
  sink keys), by file, line and key.
- Blank lines and '#' lines of a secret file are not secrets.
- output_dir = state_dir, which would serve the outbox's records with
  serve_episodes, is refused (hookcast.conf(5) gives the whole rule).
- No secret is allowed only when every listen address is loopback: a start
  with insecure_no_signature on 0.0.0.0 is refused; a reload dropping the
  secret is refused while a non-loopback address is bound, and allowed
  with a warning on loopback only.
"""

import os
import re
import shutil
import stat
import struct
import unittest

import hookcast_test as ht

REPO = "hookcast-test/widget"
LONG_SECRET = "a webhook secret long enough to pass"


def push(d, repo=REPO):
    status, reply = d.post(ht.body_of(ht.make_push(repo=repo)), "push")
    if status != 200:
        raise AssertionError("push: %s %r" % (status, reply))


def snapshot(folder):
    """Every path under folder with its bytes (files) or None (folders)."""
    out = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs:
            out[os.path.relpath(os.path.join(root, name), folder)] = None
        for name in files:
            p = os.path.join(root, name)
            with open(p, "rb") as f:
                out[os.path.relpath(p, folder)] = f.read()
    return out


class TestSymlinks(unittest.TestCase):

    def setUp(self):
        self.other = ht.make_tmpdir()
        self.addCleanup(shutil.rmtree, self.other, True)
        with open(os.path.join(self.other, "feed.xml"), "w") as f:
            f.write("precious, not a feed\n")
        os.mkdir(os.path.join(self.other, "widget"))
        with open(os.path.join(self.other, "widget", "feed.xml"), "w") as f:
            f.write("precious too\n")
        self.before = snapshot(self.other)

    def check_refused(self, d, reply):
        self.assertEqual(snapshot(self.other), self.before,
                         "the flush wrote through the symlink: %r" % (reply,))
        text = repr(reply) + d.log()
        self.assertRegex(text, r"symbolic link", "reply %r" % (reply,))

    def test_repo_folder_symlink(self):
        with ht.Daemon() as d:
            push(d)
            os.makedirs(os.path.join(d.output_dir, "hookcast-test"))
            os.symlink(self.other, os.path.join(d.output_dir, REPO))
            reply = d.control("flush " + REPO)
            self.check_refused(d, reply)
            self.assertTrue(d.running())
            d.stop()

    def test_owner_folder_symlink(self):
        with ht.Daemon() as d:
            push(d)
            os.makedirs(d.output_dir, exist_ok=True)
            os.symlink(self.other, os.path.join(d.output_dir, "hookcast-test"))
            reply = d.control("flush " + REPO)
            self.check_refused(d, reply)
            d.stop()

    def test_journal_symlink_refused(self):
        d = ht.Daemon(start=False)
        try:
            os.makedirs(d.state_dir)
            target = os.path.join(self.other, "feed.xml")
            os.symlink(target, os.path.join(d.state_dir, "journal"))
            p = ht.run_daemon(d.args, cwd=d.tmp, timeout=10)
            self.assertEqual(p.returncode, 1, "stderr:\n" + p.stderr)
            self.assertRegex(p.stderr, r"journal .*journal: a symbolic link")
            self.assertEqual(snapshot(self.other), self.before)
        finally:
            d.cleanup()

    def test_modes_whatever_the_umask(self):
        old = os.umask(0o077)
        try:
            d = ht.Daemon()
        finally:
            os.umask(old)
        with d:
            push(d)
            reply = d.control("flush " + REPO)
            self.assertIs(reply.get("ok"), True, reply)
            folder = os.path.join(d.output_dir, REPO)
            for p in (os.path.join(d.output_dir, "hookcast-test"), folder):
                self.assertEqual(stat.S_IMODE(os.stat(p).st_mode), 0o755, p)
            names = os.listdir(folder)
            self.assertIn("feed.xml", names)
            for name in names:
                p = os.path.join(folder, name)
                self.assertEqual(stat.S_IMODE(os.stat(p).st_mode), 0o644, p)
            j = os.path.join(d.state_dir, "journal")
            self.assertEqual(stat.S_IMODE(os.stat(j).st_mode), 0o600)
            s = os.stat(d.socket_path)
            self.assertEqual(stat.S_IMODE(s.st_mode), 0o660)
            d.stop()


class TestSecretFiles(unittest.TestCase):

    def setUp(self):
        self.tmp = ht.make_tmpdir()
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.secret = os.path.join(self.tmp, "secret")

    def args(self, *more):
        return ["--state-dir=" + os.path.join(self.tmp, "state"),
                "--output-dir=" + os.path.join(self.tmp, "episodes"),
                "--control-socket=" + os.path.join(self.tmp, "control.sock"),
                "--listen=127.0.0.1:0", "--timezone=UTC",
                "--secret-file=" + self.secret] + list(more)

    def write_secret(self, text, mode=0o600):
        with open(self.secret, "w") as f:
            f.write(text)
        os.chmod(self.secret, mode)

    def refused(self, *words):
        p = ht.run_daemon(self.args(), cwd=self.tmp, timeout=10)
        self.assertEqual(p.returncode, 1, "stderr:\n" + p.stderr)
        for w in words:
            self.assertIn(w, p.stderr)
        return p.stderr

    def test_world_writable_refused(self):
        self.write_secret(LONG_SECRET + "\n", 0o666)
        err = self.refused(self.secret, "writable by everyone")
        self.assertNotIn(LONG_SECRET, err)

    def test_group_writable_refused(self):
        self.write_secret(LONG_SECRET + "\n", 0o620)
        self.refused(self.secret, "writable by its group")

    def test_readable_refused(self):
        self.write_secret(LONG_SECRET + "\n", 0o644)
        err = self.refused(self.secret, "readable by everyone (mode 0644)",
                           "chmod 600")
        self.assertNotIn(LONG_SECRET, err)
        self.write_secret(LONG_SECRET + "\n", 0o640)
        self.refused(self.secret, "readable by its group (mode 0640)")

    def test_every_credential_key_private(self):
        """--check-config refuses each credential file that its group may
        read, naming the config file, the line and the key."""
        self.write_secret(LONG_SECRET + "\n")
        cred = os.path.join(self.tmp, "credential")
        with open(cred, "w") as f:
            f.write("0123456789abcdef-credential\n")
        os.chmod(cred, 0o640)
        conf = os.path.join(self.tmp, "hookcast.conf")
        with open(conf, "w") as f:
            f.write("llm_url = http://127.0.0.1:9/v1/chat/completions\n"
                    "llm_key_file = %s\n"
                    "github_token_file = %s\n"
                    "[repo \"a/b\"]\n"
                    "llm_key_file = %s\n"
                    "[sink \"hub\"]\ntype = http\n"
                    "url = http://127.0.0.1:9/in\n"
                    "secret_file = %s\ntoken_file = %s\n"
                    % ((cred,) * 5))
        p = ht.run_daemon(self.args("--config=" + conf, "--check-config"),
                          cwd=self.tmp)
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        for line, key in ((2, "llm_key_file"), (3, "github_token_file"),
                          (5, "llm_key_file"), (9, "secret_file"),
                          (10, "token_file")):
            self.assertIn("%s:%d: %s: %s: readable by its group (mode 0640)"
                          % (conf, line, key, cred), p.stderr)
        self.assertNotIn("0123456789abcdef-credential", p.stderr)

    def test_systemd_credential_acl_taken(self):
        """What systemd's LoadCredential= hands the service's user (with
        DynamicUser= too): mode 0400 plus the ACL entry user:UID:r, which
        stat shows as 0440. It is taken; the same 0440 without the ACL
        (its group may read it) is refused."""
        creds = os.path.join(self.tmp, "credentials")
        os.mkdir(creds, 0o700)
        path = os.path.join(creds, "webhook-secret")
        with open(path, "w") as f:
            f.write(LONG_SECRET + "\n")
        os.chmod(path, 0o400)
        # the access ACL as the kernel stores it: version 2, then
        # (tag, perm, id) for user::r, user:UID:r, group::-, mask::r,
        # other::-
        entries = [(0x01, 4, 0xffffffff), (0x02, 4, os.geteuid()),
                   (0x04, 0, 0xffffffff), (0x10, 4, 0xffffffff),
                   (0x20, 0, 0xffffffff)]
        acl = struct.pack("<I", 2) + b"".join(
            struct.pack("<HHI", *e) for e in entries)
        try:
            os.setxattr(path, "system.posix_acl_access", acl)
        except OSError as e:
            self.skipTest("no POSIX ACL here: %s" % e)
        self.assertEqual(stat.S_IMODE(os.stat(path).st_mode), 0o440)
        env = ht.daemon_env({"CREDENTIALS_DIRECTORY": creds})
        with ht.Daemon(secret=None, options={"secret-file": None},
                       tmp=self.tmp, env=env) as d:
            self.assertRegex(d.log(), r"\b1 webhook secret")
            body = ht.body_of(ht.make_push(repo=REPO))
            self.assertEqual(d.post(body, "push", secret=LONG_SECRET)[0], 200)
            d.stop()
        os.removexattr(path, "system.posix_acl_access")
        os.chmod(path, 0o440)
        args = [a for a in self.args() if not a.startswith("--secret-file")]
        p = ht.run_daemon(args, cwd=self.tmp, timeout=10, env=env)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn(path + ": readable by its group (mode 0440)", p.stderr)

    def test_short_secret_refused(self):
        self.write_secret("x\n")
        self.refused(self.secret, "at least 16")
        self.write_secret("fifteen bytes!!\n")
        self.refused(self.secret + ":1", "at least 16")

    def test_check_config_names_the_file(self):
        self.write_secret(LONG_SECRET + "\n", 0o666)
        p = ht.run_daemon(self.args("--check-config"), cwd=self.tmp)
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn(self.secret, p.stderr)

    def test_comments_and_blank_lines(self):
        self.write_secret("# rotated 2026-03-01; the old one below\n"
                          "\n" + LONG_SECRET + "\n   \n#" + "x" * 20 + "\n")
        with ht.Daemon(secret=None, options={"secret-file": self.secret},
                       tmp=self.tmp) as d:
            self.assertRegex(d.log(), r"\b1 webhook secret")
            body = ht.body_of(ht.make_push(repo=REPO))
            self.assertEqual(d.post(body, "push", secret=LONG_SECRET)[0], 200)
            for comment in ("# rotated 2026-03-01; the old one below",
                            "#" + "x" * 20, ""):
                status, _ = d.post(body, "push", secret=comment)
                self.assertEqual(status, 401, "signed by %r" % comment)
            d.stop()

    def test_short_env_secret_refused(self):
        args = [a for a in self.args() if not a.startswith("--secret-file")]
        p = ht.run_daemon(args, cwd=self.tmp, timeout=10,
                          env=ht.daemon_env({"HOOKCAST_SECRET": "short"}))
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("HOOKCAST_SECRET", p.stderr)
        self.assertNotIn("short\n", p.stderr)


class TestStateNeverServed(unittest.TestCase):
    """output_dir may not be state_dir: with serve_episodes the outbox's
    records (STATE/outbox/SINK/KEY.json, mode 0600) would be served as
    /episodes/outbox/SINK/KEY.json. Such a configuration is refused by
    --check-config and at start, naming the file, line and key, however
    output_dir is spelled (here with a trailing slash)."""

    def setUp(self):
        self.tmp = ht.make_tmpdir()
        self.addCleanup(shutil.rmtree, self.tmp, True)
        state = os.path.join(self.tmp, "state")
        sink_secret = os.path.join(self.tmp, "sink-secret")
        with open(sink_secret, "w") as f:
            f.write(LONG_SECRET + "\n")
        os.chmod(sink_secret, 0o600)
        self.conf = os.path.join(self.tmp, "hookcast.conf")
        # a sink nobody listens on: its publication waits in the outbox
        with open(self.conf, "w") as f:
            f.write("serve_episodes = true\noutput_dir = %s/\n"
                    "[sink \"hub\"]\ntype = http\n"
                    "url = http://127.0.0.1:%d/in\nsecret_file = %s\n"
                    % (state, ht.free_port(), sink_secret))
        self.d = ht.Daemon(tmp=self.tmp, start=False,
                           extra_args=["--config=" + self.conf],
                           options={"output-dir": None})
        self.addCleanup(self.d.cleanup)
        self.state = state

    def served_outbox_record(self):
        """As it was before the rule: start, flush, GET the record."""
        self.d.start()
        push(self.d)
        reply = self.d.control("flush " + REPO)
        self.assertTrue(reply.get("ok"), reply)
        box = os.path.join(self.state, "outbox", "hub")
        names = [n for n in os.listdir(box) if n.endswith(".json")]
        status, _, data = self.d.request(
            "GET", "/episodes/outbox/hub/" + names[0])
        return "/episodes/outbox/hub/%s: %d, %d bytes of a mode %o file" % (
            names[0], status, len(data),
            stat.S_IMODE(os.stat(os.path.join(box, names[0])).st_mode))

    def test_output_dir_is_state_dir_refused(self):
        p = ht.run_daemon(self.d.args + ["--check-config"], cwd=self.tmp)
        if p.returncode == 0:
            self.fail("output_dir = state_dir taken; the outbox served %s"
                      % self.served_outbox_record())
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("%s:2: output_dir: %s/ (that is, %s) is state_dir %s"
                      % (self.conf, self.state, os.path.realpath(self.state),
                         self.state), p.stderr)
        p = ht.run_daemon(self.d.args, cwd=self.tmp, timeout=10)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("is state_dir", p.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.state, "journal")))


class TestNoSecretRule(unittest.TestCase):

    def setUp(self):
        self.tmp = ht.make_tmpdir()
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.secret = os.path.join(self.tmp, "s1")
        with open(self.secret, "w") as f:
            f.write(LONG_SECRET + "\n")
        os.chmod(self.secret, 0o600)
        self.conf = os.path.join(self.tmp, "hookcast.conf")

    def write_conf(self, with_secret):
        with open(self.conf, "w") as f:
            f.write("insecure_no_signature = true\n")
            if with_secret:
                f.write("secret_file = %s\n" % self.secret)

    def test_start_insecure_non_loopback_refused(self):
        p = ht.run_daemon([
            "--state-dir=" + os.path.join(self.tmp, "state"),
            "--control-socket=" + os.path.join(self.tmp, "control.sock"),
            "--listen=127.0.0.1:0,0.0.0.0:0", "--timezone=UTC",
            "--insecure-no-signature"], cwd=self.tmp, timeout=10)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertRegex(p.stderr,
                         r"insecure_no_signature\)?: .*non-loopback")

    def reload_dropping_secret(self, listen):
        self.write_conf(True)
        d = ht.Daemon(secret=None, tmp=self.tmp,
                      options={"secret-file": None, "listen": listen},
                      extra_args=["--config=" + self.conf])
        self.assertEqual(d.post_payload(ht.make_push(repo=REPO),
                                        sign=False)[0], 401)
        self.write_conf(False)
        return d, d.control("reload")

    def test_reload_dropping_secret_non_loopback_refused(self):
        d, reply = self.reload_dropping_secret("127.0.0.1:0,0.0.0.0:0")
        with d:
            self.assertIs(reply.get("ok"), False, reply)
            self.assertRegex(repr(reply), r"loopback")
            # verification stays on
            status, _ = d.post_payload(ht.make_push(repo=REPO), sign=False)
            self.assertEqual(status, 401)
            status, _ = d.post(ht.body_of(ht.make_push(repo=REPO)), "push",
                               secret=LONG_SECRET)
            self.assertEqual(status, 200)
            d.stop()

    def test_reload_dropping_secret_loopback_warns(self):
        d, reply = self.reload_dropping_secret("127.0.0.1:0")
        with d:
            self.assertIs(reply.get("ok"), True, reply)
            self.assertRegex(d.log(), r"<4>reload: no webhook secret left")
            status, _ = d.post_payload(ht.make_push(repo=REPO), sign=False)
            self.assertEqual(status, 200)
            d.stop()


if __name__ == "__main__":
    unittest.main()
