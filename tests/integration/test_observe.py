"""What an operator sees of the daemon (issue #31): each delivery's log line
says who sent it (the peer, or the client behind a trusted proxy), a
duplicate's its repository, a 413's the limit; a GET of the webhook path is
an http: line with Allow: POST; /metrics is on 127.0.0.1:9101 by default
and carries the reload, the next emission and the replies by status; GET /
says what answers there; log_format gives logfmt and JSON lines."""

import http.client
import json
import os
import re
import shutil
import socket
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hookcast_test as ht  # noqa: E402

REPO = "hookcast-test/widget"


def raw(port, data, wait=0.0):
    """Send bytes, optionally wait, and read the reply until the close."""
    s = socket.create_connection(("127.0.0.1", port), timeout=ht.IO_TIMEOUT)
    try:
        s.sendall(data)
        if wait:
            time.sleep(wait)
        out = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                return out
            out += chunk
    finally:
        s.close()


def metric(text, name):
    m = re.search(r"(?m)^%s (\S+)$" % re.escape(name), text)
    return None if m is None else float(m.group(1))


class TestDeliveryLines(unittest.TestCase):

    def test_peer_named(self):
        """An accepted delivery's line starts with the peer's address."""
        with ht.Daemon() as d:
            status, reply = d.post_payload(ht.make_push(), delivery="peer-1")
            self.assertEqual(status, 200, reply)
            d.wait_log(r"^<6>127\.0\.0\.1: delivery peer-1 push hook 1 "
                       + re.escape(REPO) + r" main: 200 accepted")
            d.stop()

    def test_forwarded_for_behind_trusted_proxy(self):
        """From a trusted proxy, the rightmost untrusted X-Forwarded-For
        address is the client; from any other peer the header is not
        believed."""
        with ht.Daemon(options={
                "trusted-proxies": "127.0.0.1, 10.0.0.7"}) as d:
            xff = {"X-Forwarded-For": "198.51.100.9, 203.0.113.5, 10.0.0.7"}
            status, reply = d.post_payload(ht.make_push(), delivery="xff-1",
                                           extra_headers=xff)
            self.assertEqual(status, 200, reply)
            d.wait_log(r"^<6>203\.0\.113\.5 via 127\.0\.0\.1: delivery "
                       r"xff-1 push")
            d.stop()
        with ht.Daemon(options={"trusted-proxies": "10.0.0.7"}) as d:
            xff = {"X-Forwarded-For": "203.0.113.5"}
            status, reply = d.post_payload(ht.make_push(), delivery="xff-2",
                                           extra_headers=xff)
            self.assertEqual(status, 200, reply)
            d.wait_log(r"^<6>127\.0\.0\.1: delivery xff-2 push")
            self.assertNotIn("203.0.113.5", d.log())
            d.stop()

    def test_trusted_proxies_checked(self):
        tmp = ht.make_tmpdir()
        try:
            p = ht.run_daemon(["--insecure-no-signature",
                               "--state-dir=" + tmp,
                               "--trusted-proxies=10.0.0.1, proxy.lan",
                               "--check-config"], cwd=tmp)
            out = p.stdout + p.stderr
            self.assertEqual(p.returncode, 1, out)
            self.assertIn("trusted_proxies): 'proxy.lan' is not an IP "
                          "address", out)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    def test_duplicate_names_repository(self):
        """A redelivery's line names the repository, as the first did."""
        with ht.Daemon() as d:
            payload = ht.make_push()
            for _ in range(2):
                status, reply = d.post_payload(payload, delivery="dup-1")
                self.assertEqual(status, 200, reply)
            d.wait_log(r"delivery dup-1 push hook 1 " + re.escape(REPO)
                       + r" main: 200 duplicate, accepted before")
            d.stop()

    def test_too_large_names_limit(self):
        with ht.Daemon(options={"max-body": "4K"}) as d:
            body = b"x" * 5000
            h = d.headers_for(body, "push", delivery="big-1")
            status, _, data = d.request("POST", "/webhook", body, h)
            self.assertEqual(status, 413, data)
            d.wait_log(r"^<5>127\.0\.0\.1: delivery big-1 push hook 1: 413 "
                       r"refused: payload larger than the configured "
                       r"max_body \(4096 bytes\), 5000 bytes")
            d.stop()
        with ht.Daemon(options={"max-body-pull-request": "64K"}) as d:
            body = b"x" * 70000
            h = d.headers_for(body, "pull_request", delivery="big-2")
            status, _, data = d.request("POST", "/webhook", body, h)
            self.assertEqual(status, 413, data)
            d.wait_log(r"delivery big-2 pull_request hook 1: 413 refused: "
                       r"pull_request payload larger than the configured "
                       r"max_body_pull_request \(65536 bytes\), 70000 bytes")
            d.stop()

    def test_get_webhook_is_http_line_with_allow(self):
        """A GET of the webhook path is no delivery: an http: line, a 405
        that says Allow: POST, and no delivery counted."""
        with ht.Daemon() as d:
            status, hdrs, data = d.request("GET", "/webhook")
            self.assertEqual(status, 405, data)
            self.assertEqual(hdrs.get("allow"), "POST")
            d.wait_log(r"^<6>http: 127\.0\.0\.1: GET /webhook: 405 refused")
            self.assertNotIn("delivery - -", d.log())
            status, hdrs, data = d.request("POST", "/healthz", b"{}")
            self.assertEqual(status, 405, data)
            self.assertEqual(hdrs.get("allow"), "GET, HEAD")
            _, _, text = d.request("GET", "/metrics")
            self.assertIsNone(re.search(
                r'hookcast_deliveries_total\{[^}]*outcome="rejected"\} [1-9]',
                text.decode()))
            d.stop()


class TestMetrics(unittest.TestCase):

    def test_default_listener_on_loopback(self):
        """No metrics_listen, no metrics_public: /metrics on 127.0.0.1:9101
        (or, when another process holds that port, a warning and the daemon
        runs on)."""
        with ht.Daemon(options={"metrics-public": None}) as d:
            m = d.wait_log(r"^<(6)>metrics: /metrics and /healthz on "
                           r"127\.0\.0\.1:9101$|^<(4)>metrics: not served: "
                           r"the default metrics_listen 127\.0\.0\.1:9101")
            if m.group(1) == "6":
                c = http.client.HTTPConnection("127.0.0.1", 9101,
                                               timeout=ht.IO_TIMEOUT)
                c.request("GET", "/metrics")
                r = c.getresponse()
                body = r.read().decode()
                c.close()
                self.assertEqual(r.status, 200)
                self.assertIn("hookcast_http_requests_total", body)
            self.assertEqual(d.request("GET", "/metrics")[0], 404)
            d.stop()

    def test_default_port_taken_warns(self):
        blocker = socket.socket()
        blocker.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            blocker.bind(("127.0.0.1", 9101))
            blocker.listen(1)
        except OSError:
            pass    # someone else holds it: the same case
        try:
            with ht.Daemon(options={"metrics-public": None}) as d:
                d.wait_log(r"^<4>metrics: not served: the default "
                           r"metrics_listen 127\.0\.0\.1:9101: .*off\)$")
                d.stop()
        finally:
            blocker.close()

    def test_off_says_so(self):
        with ht.Daemon(options={"metrics-public": None,
                                "metrics-listen": "off"}) as d:
            d.wait_log(r"^<6>metrics: /metrics not served \(metrics_listen "
                       r"= off\); metrics_listen = HOST:PORT serves it apart")
            self.assertEqual(d.request("GET", "/metrics")[0], 404)
            d.stop()
        with ht.Daemon() as d:
            d.wait_log(r"^<6>metrics: /metrics on the webhook listener "
                       r"\(metrics_public = true\)")
            d.stop()

    def test_new_families(self):
        tmp = ht.make_tmpdir()
        try:
            conf = os.path.join(tmp, "hookcast.conf")
            with open(conf, "w") as f:
                f.write("log_level = debug\n")
            with ht.Daemon(tmp=tmp, options={"head-timeout": "1"},
                           extra_args=["--config=" + conf]) as d:
                text = d.request("GET", "/metrics")[2].decode()
                self.assertEqual(metric(
                    text, "hookcast_config_last_reload_successful"), 1)
                started = metric(text, "hookcast_config_last_reload_success"
                                 "_timestamp_seconds")
                self.assertAlmostEqual(started, time.time(), delta=60)
                st = d.status()
                nxt = metric(text, "hookcast_next_emission_timestamp_seconds")
                self.assertEqual(time.strftime("%Y-%m-%dT%H:%M:%SZ",
                                               time.gmtime(nxt)),
                                 st["next_emit"])
                # a chunked upload (501) and a head never finished (408)
                reply = raw(d.port, b"POST /webhook HTTP/1.1\r\nHost: x\r\n"
                            b"Transfer-Encoding: chunked\r\n\r\n")
                self.assertTrue(reply.startswith(b"HTTP/1.1 501"), reply)
                reply = raw(d.port, b"GET / HTTP/1.1\r\n", wait=0.1)
                self.assertTrue(reply.startswith(b"HTTP/1.1 408"), reply)
                d.request("GET", "/nowhere")
                text = d.request("GET", "/metrics")[2].decode()
                for code in (200, 404, 408, 501):
                    self.assertGreaterEqual(metric(
                        text, 'hookcast_http_requests_total{code="%d"}'
                        % code) or 0, 1, code)
                # a refused reload, then one that works
                with open(conf, "w") as f:
                    f.write("no_such_key = 1\n")
                self.assertIs(d.control("reload").get("ok"), False)
                text = d.request("GET", "/metrics")[2].decode()
                self.assertEqual(metric(
                    text, "hookcast_config_last_reload_successful"), 0)
                with open(conf, "w") as f:
                    f.write("log_level = debug\n")
                time.sleep(1.1)
                self.assertIs(d.control("reload").get("ok"), True)
                text = d.request("GET", "/metrics")[2].decode()
                self.assertEqual(metric(
                    text, "hookcast_config_last_reload_successful"), 1)
                self.assertGreater(metric(
                    text, "hookcast_config_last_reload_success_timestamp_"
                    "seconds"), started)
                d.stop()
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


class TestLanding(unittest.TestCase):

    def test_get_root(self):
        with ht.Daemon() as d:
            status, hdrs, data = d.request("GET", "/")
            self.assertEqual(status, 200, data)
            self.assertTrue(hdrs["content-type"].startswith("text/plain"))
            text = data.decode()
            self.assertEqual(text.count("\n"), 1, text)
            self.assertRegex(text, r"^hookcastd \d+\.\d+\.\d+")
            self.assertIn("hookcastd(8)", text)
            self.assertIn("README", text)
            self.assertEqual(d.request("HEAD", "/")[0], 200)
            d.stop()


class TestLogFormat(unittest.TestCase):
    """log_format is taken by a reload (the harness waits for the text
    lines of a start): the lines after it are logfmt or JSON."""

    def run_format(self, fmt, check):
        tmp = ht.make_tmpdir()
        try:
            conf = os.path.join(tmp, "hookcast.conf")
            with open(conf, "w") as f:
                f.write("log_format = text\n")
            with ht.Daemon(tmp=tmp, extra_args=["--config=" + conf]) as d:
                with open(conf, "w") as f:
                    f.write("log_format = %s\n" % fmt)
                self.assertIs(d.control("reload").get("ok"), True)
                # the new format from the reload's last line on
                log = d.log()
                start = log.rindex("\n", 0, log.index("reloaded")) + 1
                status, reply = d.post_payload(ht.make_push(),
                                               delivery=fmt + "-1")
                self.assertEqual(status, 200, reply)
                d.wait_log(r"delivery %s-1 push" % fmt)
                lines = d.log()[start:].splitlines()
                self.assertTrue(lines)
                seen = 0
                for ln in lines:
                    m = re.match(r"^<(\d)>(.*)$", ln)
                    self.assertIsNotNone(m, ln)
                    seen += check(m.group(2), fmt + "-1")
                self.assertEqual(seen, 1, lines)
                d.stop()
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    def test_logfmt(self):
        def check(text, guid):
            self.assertRegex(text, r'^time=\S+Z level=[a-z]+ msg=')
            if "delivery " + guid not in text:
                return 0
            self.assertRegex(text, r'^time=\S+Z level=info msg="127\.0\.0'
                             r'\.1: delivery %s push hook 1 [^"]*200 '
                             r'accepted[^"]*"$' % guid)
            return 1
        self.run_format("logfmt", check)

    def test_json(self):
        def check(text, guid):
            obj = json.loads(text)
            self.assertEqual(sorted(obj), ["level", "msg", "time"])
            if "delivery " + guid not in obj["msg"]:
                return 0
            self.assertEqual(obj["level"], "info")
            self.assertIn("200 accepted", obj["msg"])
            return 1
        self.run_format("json", check)

    def test_unknown_format_refused(self):
        tmp = ht.make_tmpdir()
        try:
            p = ht.run_daemon(["--insecure-no-signature",
                               "--state-dir=" + tmp, "--log-format=xml",
                               "--check-config"], cwd=tmp)
            out = p.stdout + p.stderr
            self.assertEqual(p.returncode, 1, out)
            self.assertIn("'xml' is not one of text, logfmt, json", out)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    unittest.main(verbosity=2)
