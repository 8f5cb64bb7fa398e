"""Files the service reads under systemd's DynamicUser= (issue #31, part B):
each credential key may name a systemd credential, %d/NAME or
credential:NAME, read from $CREDENTIALS_DIRECTORY (LoadCredential=); a
clear file:line:key error when that is not set; --check-config --as-unit
refuses a private file named by its path, which the unit's own user can't
read; a reload says that a changed credential needs a restart."""

import os
import shutil
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hookcast_test as ht  # noqa: E402
from test_tls import OPENSSL, make_cert  # noqa: E402

SINK_URL = "http://127.0.0.1:9/hook"


def write(path, text, mode=0o600):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, mode)


class TestCredentials(unittest.TestCase):

    def setUp(self):
        self.tmp = ht.make_tmpdir()
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.creds = os.path.join(self.tmp, "credentials")
        os.mkdir(self.creds)
        self.conf = os.path.join(self.tmp, "etc", "hookcast.conf")
        os.mkdir(os.path.dirname(self.conf))
        write(os.path.join(self.creds, "hook-secret"), "s" * 32 + "\n")
        write(os.path.join(self.creds, "llm-key"), "sk-model\n")
        write(os.path.join(self.creds, "gh-token"), "ghp_token\n")
        write(os.path.join(self.creds, "sink-secret"), "k" * 32 + "\n")
        write(os.path.join(self.creds, "sink-token"), "bearer\n")

    def check(self, text, env_creds=True, extra=()):
        write(self.conf, text, 0o644)
        env = {"CREDENTIALS_DIRECTORY": self.creds} if env_creds else {}
        p = ht.run_daemon(["--config=" + self.conf,
                           "--state-dir=" + os.path.join(self.tmp, "state"),
                           "--check-config"] + list(extra),
                          cwd=self.tmp, env=ht.daemon_env(env))
        return p.returncode, p.stdout + p.stderr

    def test_every_credential_key(self):
        """Each credential key takes %d/NAME or credential:NAME, found in
        $CREDENTIALS_DIRECTORY; unset, each is an error with file, line
        and key."""
        lines = [
            "secret_file = credential:hook-secret",
            "llm_url = http://127.0.0.1:9/v1/chat/completions",
            "llm_key_file = %d/llm-key",
            "github_token_file = credential:gh-token",
            "",
            '[sink "hub"]',
            "type = http",
            "url = " + SINK_URL,
            "secret_file = %d/sink-secret",
            "token_file = credential:sink-token",
        ]
        if OPENSSL is not None:
            cert, key = make_cert(self.creds)
            lines[4:4] = ["tls_cert = %d/cert.pem",
                          "tls_key = credential:key.pem"]
        text = "\n".join(lines) + "\n"
        rc, out = self.check(text)
        self.assertEqual(rc, 0, out)
        self.assertIn("configuration OK", out)

        rc, out = self.check(text, env_creds=False)
        self.assertEqual(rc, 1, out)
        for n, line in enumerate(lines, 1):
            if "credential:" not in line and "%d/" not in line:
                continue
            key, value = [x.strip() for x in line.split("=", 1)]
            self.assertIn("%s:%d: %s: '%s' names a systemd credential, but "
                          "$CREDENTIALS_DIRECTORY is not set"
                          % (self.conf, n, key, value), out)

        # a credential the unit doesn't load
        rc, out = self.check(text.replace("credential:gh-token",
                                          "credential:gh-other"))
        self.assertEqual(rc, 1, out)
        self.assertIn("%s:4: github_token_file: credential gh-other is not "
                      "in $CREDENTIALS_DIRECTORY" % self.conf, out)
        # a name that is no file name
        rc, out = self.check(text.replace("%d/llm-key", "%d/../llm-key"))
        self.assertEqual(rc, 1, out)
        self.assertIn("llm_key_file: '%d/../llm-key': a credential's name",
                      out)

    def test_as_unit(self):
        """--check-config --as-unit: a private file named by its path is
        one the unit's own user can't read; a credential is fine."""
        key = os.path.join(self.tmp, "etc", "llm-key")
        write(key, "sk-model\n")
        text = ("llm_url = http://127.0.0.1:9/v1/chat/completions\n"
                "llm_key_file = %s\n" % key)
        rc, out = self.check(text, extra=["--insecure-no-signature"])
        self.assertEqual(rc, 0, out)
        rc, out = self.check(text, extra=["--insecure-no-signature",
                                          "--as-unit"])
        self.assertEqual(rc, 1, out)
        self.assertIn("%s:2: llm_key_file: %s: readable by uid %d alone "
                      "(mode 0600), and the service's own user "
                      "(DynamicUser=) is another: name it credential:llm-key,"
                      " with LoadCredential=llm-key:%s"
                      % (self.conf, key, os.getuid(), key), out)
        rc, out = self.check(text.replace(key, "credential:llm-key"),
                             extra=["--insecure-no-signature", "--as-unit"])
        self.assertEqual(rc, 0, out)
        p = ht.run_daemon(["--help"])
        self.assertIn("--as-unit ", p.stdout)

    def test_daemon_reads_and_reload_says_restart(self):
        """The running daemon verifies with the credential's secret; a
        reload says a changed credential needs a restart; a reload naming
        a credential the unit doesn't load is refused saying so."""
        write(self.conf, "secret_file = credential:hook-secret\n", 0o644)
        env = ht.daemon_env({"CREDENTIALS_DIRECTORY": self.creds})
        with ht.Daemon(tmp=self.tmp, secret="s" * 32, env=env,
                       options={"secret-file": None},
                       extra_args=["--config=" + self.conf]) as d:
            status, reply = d.post_payload(ht.make_push())
            self.assertEqual(status, 200, reply)
            self.assertIs(d.control("reload").get("ok"), True)
            d.wait_log(r"^<5>reload: credentials hook-secret read again as "
                       r"systemd copied them at the start: a credential "
                       r"changed at its source \(LoadCredential=\) needs a "
                       r"restart, not a reload$")
            write(self.conf, "secret_file = credential:new-secret\n", 0o644)
            reply = d.control("reload")
            self.assertIs(reply.get("ok"), False, reply)
            self.assertIn("credential new-secret is not in "
                          "$CREDENTIALS_DIRECTORY", reply["error"])
            self.assertIn("and a restart", reply["error"])
            d.stop()


if __name__ == "__main__":
    unittest.main(verbosity=2)
