"""/metrics off the public port (#9, finding 8): metrics_listen gives
/metrics and /healthz a listener of their own, and the webhook listener
serves /metrics only with metrics_public."""

import http.client
import os
import shutil
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hookcast_test as ht  # noqa: E402


def get(port, path, method="GET", body=None):
    conn = http.client.HTTPConnection("127.0.0.1", port,
                                      timeout=ht.IO_TIMEOUT)
    try:
        conn.request(method, path, body=body)
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


class TestMetricsListener(unittest.TestCase):

    def test_own_listener(self):
        """With metrics_listen, /metrics is served there and is a 404 on
        the webhook port; /healthz answers on both."""
        port = ht.free_port()
        with ht.Daemon(options={"metrics-listen": "127.0.0.1:%d" % port,
                                "metrics-public": None}) as d:
            d.wait_log(r"^<6>metrics: /metrics and /healthz on "
                       r"127\.0\.0\.1:%d$" % port)
            status, reply = d.post_payload(ht.make_push())
            self.assertEqual(status, 200, reply)
            status, data = get(port, "/metrics")
            self.assertEqual(status, 200, data)
            self.assertRegex(data.decode(), r"(?m)^hookcast_open_day_commits"
                             r" 1$")
            self.assertEqual(get(port, "/healthz")[0], 200)
            self.assertEqual(get(port, "/metrics", "HEAD")[0], 200)
            self.assertEqual(get(d.port, "/metrics")[0], 404)
            self.assertEqual(get(d.port, "/healthz")[0], 200)
            # the metrics listener takes nothing else
            self.assertEqual(get(port, "/webhook", "POST", b"{}")[0], 404)
            self.assertEqual(get(port, "/metrics", "POST", b"{}")[0], 405)
            self.assertEqual(get(port, "/")[0], 404)
            d.stop()

    def test_port_alone_is_loopback(self):
        """A port alone listens on 127.0.0.1."""
        port = ht.free_port()
        with ht.Daemon(options={"metrics-listen": str(port),
                                "metrics-public": None}) as d:
            d.wait_log(r"^<6>metrics: /metrics and /healthz on "
                       r"127\.0\.0\.1:%d$" % port)
            self.assertEqual(get(port, "/metrics")[0], 200)
            d.stop()

    def test_not_public_by_default(self):
        """Without metrics_listen or metrics_public, /metrics is served
        nowhere: the webhook port answers 404."""
        with ht.Daemon(options={"metrics-public": None}) as d:
            status, data = get(d.port, "/metrics")
            self.assertEqual(status, 404, data)
            self.assertEqual(get(d.port, "/healthz")[0], 200)
            d.stop()
        with ht.Daemon(options={"metrics-public": "yes"}) as d:
            status, data = get(d.port, "/metrics")
            self.assertEqual(status, 200, data)
            self.assertIn(b"hookcast_", data)
            d.stop()

    def test_public_and_listen_refused(self):
        """metrics_public with metrics_listen is a configuration error;
        so is an address that isn't host:port."""
        tmp = ht.make_tmpdir()
        try:
            p = ht.run_daemon(["--insecure-no-signature",
                               "--state-dir=" + tmp, "--metrics-listen=9101",
                               "--metrics-public=yes", "--check-config"],
                              cwd=tmp)
            out = p.stdout + p.stderr
            self.assertEqual(p.returncode, 1, out)
            self.assertRegex(out, r"metrics_public\)?: true while "
                             r"metrics_listen is set")
            p = ht.run_daemon(["--insecure-no-signature",
                               "--state-dir=" + tmp,
                               "--metrics-listen=no port", "--check-config"],
                              cwd=tmp)
            out = p.stdout + p.stderr
            self.assertEqual(p.returncode, 1, out)
            self.assertIn("metrics_listen): 'no port' is not host:port", out)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    unittest.main(verbosity=2)
