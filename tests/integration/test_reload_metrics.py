"""Reloads that drop nothing, refused bad configurations, and /metrics.

- SIGHUP storms while deliveries stream: every delivery gets its 2xx and
  is in the day once.
- A reload with a broken config file is refused with its errors (file,
  line, key) in the log and the reply; the old configuration stays (the
  daemon keeps verifying with the old secret).
- A reload that changes the secret file takes the new secret; a key that
  needs a restart says so.
- /metrics carries each family the operators rely on, with values that
  follow what was sent.
"""

import http.client
import os
import re
import shutil
import signal
import ssl
import subprocess
import threading
import time
import unittest
import uuid

import hookcast_test as ht

REPO = "hookcast-test/reload"


def push_body(sha=None):
    c = ht.make_commit(repo=REPO, sha=sha)
    return c["id"], ht.body_of(ht.make_push(commits=[c], repo=REPO))


class TestReload(unittest.TestCase):

    def test_sighup_storm_drops_no_delivery(self):
        with ht.Daemon() as d:
            statuses, shas = [], set()
            done = threading.Event()

            def send():
                while not done.is_set():
                    sha, body = push_body()
                    shas.add(sha)
                    status, _ = d.post(body, "push")
                    statuses.append(status)

            t = threading.Thread(target=send, daemon=True)
            t.start()
            # reloads keep coming until deliveries have come between
            # them: a slow host (valgrind) answers few in a second
            sent, deadline = 0, time.monotonic() + 120
            while (sent < 15 or len(statuses) < 11) and \
                    time.monotonic() < deadline:
                d.send_signal(signal.SIGHUP)
                sent += 1
                time.sleep(0.05)
            time.sleep(0.2)
            done.set()
            t.join(timeout=30)
            self.assertGreater(len(statuses), 10)
            self.assertEqual(set(statuses), {200}, statuses)
            self.assertEqual(d.repo_stats(REPO).get("commits"), len(shas))
            self.assertGreaterEqual(d.log().count("reloaded"), 1)
            d.stop()

    def test_bad_config_refused_old_kept(self):
        tmp = ht.make_tmpdir()
        try:
            conf = os.path.join(tmp, "hookcast.conf")
            with open(conf, "w") as f:
                f.write("log_level = debug\n")
            with ht.Daemon(tmp=tmp, extra_args=["--config=" + conf]) as d:
                with open(conf, "w") as f:
                    f.write("log_level = debug\nno_such_key = 1\n"
                            "emit_at = 29:99\n")
                reply = d.control("reload")
                self.assertIs(reply.get("ok"), False, reply)
                self.assertIn("%s:2: no_such_key" % conf, reply["error"])
                self.assertIn("%s:3: emit_at" % conf, reply["error"])
                self.assertIn("refused", d.log())
                # still the old configuration: the old secret verifies
                sha, body = push_body()
                status, reply = d.post(body, "push")
                self.assertEqual(status, 200, reply)
                st = d.status()
                self.assertTrue(st["next_emit"].endswith(":00:00Z")
                                or st["next_emit"].endswith(":30:00Z"),
                                st["next_emit"])
                d.stop()
        finally:
            import shutil
            shutil.rmtree(tmp, ignore_errors=True)

    def test_secret_rotation_and_restart_keys(self):
        tmp = ht.make_tmpdir()
        try:
            conf = os.path.join(tmp, "hookcast.conf")
            s1 = os.path.join(tmp, "s1")
            s2 = os.path.join(tmp, "s2")
            with open(s1, "w") as f:
                f.write("first secret, long enough")
            with open(s2, "w") as f:
                f.write("second secret, long enough")
            os.chmod(s1, 0o600)
            os.chmod(s2, 0o600)
            with open(conf, "w") as f:
                f.write("secret_file = %s\n" % s1)
            with ht.Daemon(tmp=tmp, secret=None,
                           options={"secret-file": None},
                           extra_args=["--config=" + conf]) as d:
                sha, body = push_body()
                status, _ = d.post(body, "push", secret="second secret, long enough")
                self.assertEqual(status, 401)
                with open(conf, "w") as f:
                    f.write("secret_file = %s, %s\n" % (s1, s2))
                    f.write("max_connections = 100\n")
                    f.write("insecure_no_signature = true\n")
                self.assertIs(d.control("reload").get("ok"), True)
                sha, body = push_body()
                status, reply = d.post(body, "push", secret="second secret, long enough")
                self.assertEqual(status, 200, reply)
                sha, body = push_body()
                status, reply = d.post(body, "push", secret="first secret, long enough")
                self.assertEqual(status, 200, reply)
                log = d.log()
                self.assertRegex(log, r"insecure_no_signature changed .*restart")
                self.assertRegex(log, r"max_connections changed")
                self.assertNotIn("first secret, long enough", log)
                self.assertNotIn("second secret, long enough", log)
                d.stop()
        finally:
            import shutil
            shutil.rmtree(tmp, ignore_errors=True)


class TestMetrics(unittest.TestCase):

    def metrics(self, d):
        status, _, data = d.request("GET", "/metrics")
        self.assertEqual(status, 200)
        return data.decode() if isinstance(data, bytes) else data

    def value(self, text, name):
        m = re.search(r"^%s (\S+)$" % re.escape(name), text, re.M)
        self.assertIsNotNone(m, "%s missing from /metrics" % name)
        return float(m.group(1))

    def test_families_follow_deliveries(self):
        with ht.Daemon() as d:
            revert = ht.make_commit(
                repo=REPO, message='Revert "x"\n\nThis reverts commit %s.'
                % ht.new_sha())
            body = ht.body_of(ht.make_push(
                commits=[ht.make_commit(repo=REPO), revert], repo=REPO))
            guid = str(uuid.uuid4())
            self.assertEqual(d.post(body, "push", delivery=guid)[0], 200)
            self.assertEqual(d.post(body, "push", delivery=guid)[0], 200)
            self.assertEqual(d.post(body, "push", secret="wrong")[0], 401)
            self.assertEqual(d.post(b"{}", "issues")[0], 202)
            text = self.metrics(d)
            for family in (
                    "hookcast_deliveries_total", "hookcast_received_bytes_total",
                    "hookcast_request_duration_seconds",
                    "hookcast_journal_sync_seconds",
                    "hookcast_open_day_commits", "hookcast_open_day_reverts",
                    "hookcast_episodes_emitted_total",
                    "hookcast_signature_failures_total"):
                self.assertIn("# TYPE %s " % family, text)
            self.assertEqual(self.value(
                text, 'hookcast_deliveries_total{event="push",'
                'outcome="accepted"}'), 1)
            self.assertEqual(self.value(
                text, 'hookcast_deliveries_total{event="push",'
                'outcome="duplicate"}'), 1)
            self.assertEqual(self.value(
                text, 'hookcast_deliveries_total{event="other",'
                'outcome="ignored"}'), 1)
            self.assertEqual(self.value(
                text, "hookcast_signature_failures_total"), 1)
            self.assertEqual(self.value(text, "hookcast_open_day_commits"), 2)
            self.assertEqual(self.value(text, "hookcast_open_day_reverts"), 1)
            self.assertGreaterEqual(self.value(
                text, "hookcast_received_bytes_total"), 3 * len(body))
            self.assertGreaterEqual(self.value(
                text, "hookcast_journal_sync_seconds_count"), 1)
            self.assertEqual(self.value(
                text, 'hookcast_request_duration_seconds_bucket{le="+Inf"}'),
                self.value(text, "hookcast_request_duration_seconds_count"))
            self.assertTrue(d.control("flush " + REPO).get("ok"))
            text = self.metrics(d)
            self.assertEqual(self.value(
                text, "hookcast_episodes_emitted_total"), 1)
            self.assertEqual(self.value(text, "hookcast_open_day_commits"), 0)
            d.stop()


def _openssl(tmp, *args):
    p = subprocess.run([shutil.which("openssl")] + list(args), cwd=tmp,
                       capture_output=True, text=True, errors="replace",
                       timeout=60)
    if p.returncode != 0:
        raise AssertionError("openssl %s: %s" % (" ".join(args), p.stderr))


class TestReloadAllOrNothing(unittest.TestCase):
    """A reload refused by a late check leaves everything as it was."""

    def https_post(self, d, cert, body):
        ctx = ssl.create_default_context(cafile=cert)
        conn = http.client.HTTPSConnection("127.0.0.1", d.port, context=ctx,
                                           timeout=ht.IO_TIMEOUT)
        try:
            conn.request("POST", "/webhook", body=body,
                         headers=d.headers_for(body, "push"))
            resp = conn.getresponse()
            return resp.status, resp.read()
        finally:
            conn.close()

    def test_refused_tls_reload_keeps_time_zone(self):
        """Issue #8 defect 4: a reload with a new timezone and a key that
        doesn't match its certificate is refused, and the days are still
        told in the old zone (the preview's date is computed in it)."""
        if shutil.which("openssl") is None:
            self.skipTest("the openssl command is not installed")
        tmp = ht.make_tmpdir()
        try:
            cert = os.path.join(tmp, "cert.pem")
            key = os.path.join(tmp, "key.pem")
            other = os.path.join(tmp, "other-key.pem")
            _openssl(tmp, "req", "-x509", "-newkey", "ec", "-pkeyopt",
                     "ec_paramgen_curve:prime256v1", "-nodes", "-keyout",
                     key, "-out", cert, "-days", "2", "-subj",
                     "/CN=127.0.0.1", "-addext",
                     "subjectAltName=IP:127.0.0.1")
            _openssl(tmp, "genpkey", "-algorithm", "EC", "-pkeyopt",
                     "ec_paramgen_curve:P-256", "-out", other)
            conf = os.path.join(tmp, "hookcast.conf")
            # UTC+14, then UTC-12: 26 hours apart, so a day's start has a
            # different date in each whatever the hour
            with open(conf, "w") as f:
                f.write("timezone = Pacific/Kiritimati\n")
            # emission twelve hours away in that zone: none during the test
            hour = (time.gmtime().tm_hour + 14 + 12) % 24
            with ht.Daemon(tmp=tmp, options={"timezone": None,
                                             "emit-at": "%02d:00" % hour},
                           extra_args=["--config=" + conf,
                                       "--tls-cert=" + cert,
                                       "--tls-key=" + key]) as d:
                sha, body = push_body()
                status, data = self.https_post(d, cert, body)
                self.assertEqual(status, 200, data)
                before = d.control("preview " + REPO)
                self.assertIs(before.get("ok"), True, before)
                date = before["episodes"][0]["date"]

                with open(conf, "w") as f:
                    f.write("timezone = Etc/GMT+12\n")
                shutil.copy(other, key)
                reply = d.control("reload")
                self.assertIs(reply.get("ok"), False, reply)
                self.assertIn("tls_key", reply.get("error", ""))
                self.assertEqual(d.status()["timezone"], "Pacific/Kiritimati")
                after = d.control("preview " + REPO)
                self.assertIs(after.get("ok"), True, after)
                self.assertEqual(after["episodes"][0]["date"], date,
                                 "the refused reload's time zone is in use")
                d.stop()
        finally:
            shutil.rmtree(tmp, ignore_errors=True)



class TestMetricsPublicReload(unittest.TestCase):
    """metrics_public is reloadable: the webhook port's /metrics follows it
    (#9, finding 8)."""

    def test_reload_toggles_public_metrics(self):
        tmp = ht.make_tmpdir()
        try:
            conf = os.path.join(tmp, "hookcast.conf")

            def write(public):
                with open(conf, "w") as f:
                    f.write("metrics_public = %s\n" % public)

            write("true")
            with ht.Daemon(tmp=tmp, options={"metrics-public": None},
                           extra_args=["--config=" + conf]) as d:
                self.assertEqual(d.request("GET", "/metrics")[0], 200)
                write("false")
                self.assertIs(d.control("reload").get("ok"), True)
                self.assertEqual(d.request("GET", "/metrics")[0], 404)
                self.assertEqual(d.request("GET", "/healthz")[0], 200)
                d.wait_log(r"reload: metrics_public changed from '1' to "
                           r"'0'")
                write("true")
                self.assertIs(d.control("reload").get("ok"), True)
                self.assertEqual(d.request("GET", "/metrics")[0], 200)
                d.stop()
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

if __name__ == "__main__":
    unittest.main(verbosity=2)
