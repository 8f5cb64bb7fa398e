"""HTTPS on the webhook listener (tls_cert, tls_key), against the real
daemon: signed deliveries over TLS, plain HTTP and TLS 1.1 refused without
hurting the service, and start-up checks of the certificate and key."""

import http.client
import os
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import unittest
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hookcast_test as ht  # noqa: E402

OPENSSL = shutil.which("openssl")
REPO = "hookcast-test/widget"
TIMEOUT = 10.0


def openssl(*args, cwd):
    p = subprocess.run([OPENSSL] + list(args), cwd=cwd, capture_output=True,
                       text=True, errors="replace", timeout=60)
    if p.returncode != 0:
        raise AssertionError("openssl %s: %s" % (" ".join(args), p.stderr))


def pem_der(path):
    """The DER bytes of the PEM certificate in path."""
    with open(path) as f:
        return ssl.PEM_cert_to_DER_cert(f.read())


def make_cert(tmp):
    """A self-signed EC P-256 certificate for 127.0.0.1: (cert, key)."""
    cert = os.path.join(tmp, "cert.pem")
    key = os.path.join(tmp, "key.pem")
    openssl("req", "-x509", "-newkey", "ec",
            "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", key, "-out", cert, "-days", "2",
            "-subj", "/CN=127.0.0.1",
            "-addext", "subjectAltName=IP:127.0.0.1", cwd=tmp)
    os.chmod(key, 0o600)
    return cert, key


class TestTLS(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        if OPENSSL is None:
            raise unittest.SkipTest("the openssl command is not installed")
        cls.tmp = ht.make_tmpdir()
        cls.cert, cls.key = make_cert(cls.tmp)
        cls.other_key = os.path.join(cls.tmp, "other-key.pem")
        openssl("genpkey", "-algorithm", "EC",
                "-pkeyopt", "ec_paramgen_curve:P-256",
                "-out", cls.other_key, cwd=cls.tmp)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def daemon(self):
        return ht.Daemon(extra_args=["--tls-cert=" + self.cert,
                                     "--tls-key=" + self.key])

    def context(self):
        """A client context that trusts exactly our certificate."""
        ctx = ssl.create_default_context(cafile=self.cert)
        ctx.minimum_version = ssl.TLSVersion.TLSv1_2
        return ctx

    def https(self, d, method, path, body=None, headers=None):
        conn = http.client.HTTPSConnection("127.0.0.1", d.port,
                                           context=self.context(),
                                           timeout=TIMEOUT)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            resp = conn.getresponse()
            return resp.status, resp.read()
        finally:
            conn.close()

    def post(self, d):
        body = ht.body_of(ht.make_push(repo=REPO))
        status, data = self.https(d, "POST", "/webhook", body,
                                  d.headers_for(body, "push"))
        return status, ht.parse_reply(status, data, "HTTPS POST")

    def test_certificate_reloaded_on_sighup(self):
        """SIGHUP loads a renewed certificate: new connections present it,
        and a renewal that doesn't load is refused with the old one kept."""
        tmp = ht.make_tmpdir()
        try:
            cert = os.path.join(tmp, "live-cert.pem")
            key = os.path.join(tmp, "live-key.pem")
            shutil.copy(self.cert, cert)
            shutil.copy(self.key, key)
            with ht.Daemon(extra_args=["--tls-cert=" + cert,
                                       "--tls-key=" + key]) as d:
                first = ssl.get_server_certificate(("127.0.0.1", d.port))
                self.assertEqual(ssl.PEM_cert_to_DER_cert(first),
                                 pem_der(cert))
                renewed = ht.make_tmpdir()
                new_cert, new_key = make_cert(renewed)
                shutil.copy(new_cert, cert)
                shutil.copy(new_key, key)
                shutil.rmtree(renewed, ignore_errors=True)
                mark = len(d.log())
                d.send_signal(signal.SIGHUP)
                d.wait_log(r"reloaded", start=mark)
                second = ssl.get_server_certificate(("127.0.0.1", d.port))
                self.assertNotEqual(ssl.PEM_cert_to_DER_cert(first),
                                    ssl.PEM_cert_to_DER_cert(second))
                self.assertEqual(ssl.PEM_cert_to_DER_cert(second),
                                 pem_der(cert))
                # a key that doesn't match: refused, the renewed cert stays
                shutil.copy(self.other_key, key)
                reply = d.control("reload")
                self.assertIs(reply.get("ok"), False, reply)
                self.assertIn("tls_key", reply.get("error", ""))
                third = ssl.get_server_certificate(("127.0.0.1", d.port))
                self.assertEqual(ssl.PEM_cert_to_DER_cert(second),
                                 ssl.PEM_cert_to_DER_cert(third))
                d.stop()
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    def test_signed_delivery_over_https(self):
        with self.daemon() as d:
            self.assertIn("tls", d.log().lower())
            status, reply = self.post(d)
            self.assertEqual(status, 200, reply)
            self.assertIs(reply.get("ok"), True, reply)
            self.assertEqual(d.repo_stats(REPO)["commits"], 1)
            status, body = self.https(d, "GET", "/healthz")
            self.assertEqual(status, 200, body)
            # a wrong signature is still refused under TLS
            body = ht.body_of(ht.make_push(repo=REPO))
            status, data = self.https(
                d, "POST", "/webhook", body,
                d.headers_for(body, "push", secret="not the secret"))
            self.assertEqual(status, 401, data)
            d.stop()

    def test_keep_alive_over_https(self):
        with self.daemon() as d:
            conn = http.client.HTTPSConnection("127.0.0.1", d.port,
                                               context=self.context(),
                                               timeout=TIMEOUT)
            try:
                for _ in range(3):
                    body = ht.body_of(ht.make_push(repo=REPO))
                    conn.request("POST", "/webhook", body=body,
                                 headers=d.headers_for(body, "push"))
                    resp = conn.getresponse()
                    data = resp.read()
                    self.assertEqual(resp.status, 200, data)
            finally:
                conn.close()
            self.assertEqual(d.repo_stats(REPO)["commits"], 3)
            d.stop()

    def test_plain_http_refused_cleanly(self):
        with self.daemon() as d:
            body = ht.body_of(ht.make_push(repo=REPO))
            h = d.headers_for(body, "push")
            head = "POST /webhook HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            head += "".join("%s: %s\r\n" % kv for kv in h.items())
            head += "Content-Length: %d\r\n\r\n" % len(body)
            s = socket.create_connection(("127.0.0.1", d.port),
                                         timeout=TIMEOUT)
            got = b""
            try:
                s.sendall(head.encode() + body)
                while True:
                    chunk = s.recv(65536)
                    if not chunk:
                        break
                    got += chunk
            except socket.timeout:
                self.fail("plain HTTP to the TLS port hung for %.0f s "
                          "(got %r)" % (TIMEOUT, got[:200]))
            except ConnectionResetError:
                pass
            finally:
                s.close()
            self.assertFalse(got.startswith(b"HTTP/"),
                             "plain HTTP was answered in plain HTTP: %r"
                             % got[:200])
            if got:
                # nothing but a TLS alert record (content type 21)
                self.assertEqual(got[0], 0x15,
                                 "not a TLS alert: %r" % got[:200])
            self.assertEqual(d.repo_stats(REPO)["commits"], 0)
            # and the daemon goes on serving HTTPS
            status, reply = self.post(d)
            self.assertEqual(status, 200, reply)
            d.stop()

    def test_tls_1_1_refused(self):
        if not getattr(ssl, "HAS_TLSv1_1", False):
            self.skipTest("this Python's OpenSSL has no TLS 1.1")
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
        try:
            # OpenSSL 3 only offers TLS 1.1 at security level 0
            ctx.set_ciphers("DEFAULT:@SECLEVEL=0")
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                ctx.minimum_version = ssl.TLSVersion.TLSv1
                ctx.maximum_version = ssl.TLSVersion.TLSv1_1
        except (ssl.SSLError, ValueError) as e:
            self.skipTest("the local OpenSSL won't offer TLS 1.1: %s" % e)
        with self.daemon() as d:
            raw = socket.create_connection(("127.0.0.1", d.port),
                                           timeout=TIMEOUT)
            try:
                with ctx.wrap_socket(raw, server_hostname="127.0.0.1") as s:
                    version = s.version()
                self.fail("a TLS 1.1 client got a handshake (%s)" % version)
            except ssl.SSLError as e:
                if e.reason in ("NO_PROTOCOLS_AVAILABLE",
                                "NO_CIPHERS_AVAILABLE"):
                    self.skipTest("the local OpenSSL won't offer TLS 1.1: "
                                  "%s" % e)
            except (ConnectionResetError, BrokenPipeError):
                pass
            except socket.timeout:
                self.fail("a TLS 1.1 handshake hung for %.0f s" % TIMEOUT)
            finally:
                raw.close()
            d.wait_log(r"TLS handshake failed")
            # TLS 1.2 still works
            status, reply = self.post(d)
            self.assertEqual(status, 200, reply)
            d.stop()

    def common_args(self, tmp):
        with open(os.path.join(tmp, "secret"), "w") as f:
            f.write(ht.DEFAULT_SECRET)
        os.chmod(os.path.join(tmp, "secret"), 0o600)
        return ["--state-dir=" + os.path.join(tmp, "state"),
                "--listen=127.0.0.1:0",
                "--control-socket=" + os.path.join(tmp, "control.sock"),
                "--secret-file=" + os.path.join(tmp, "secret")]

    def test_mismatched_key_refuses_to_start(self):
        tmp = ht.make_tmpdir()
        self.addCleanup(shutil.rmtree, tmp, True)
        p = ht.run_daemon(self.common_args(tmp) + [
            "--tls-cert=" + self.cert, "--tls-key=" + self.other_key],
            cwd=tmp)
        self.assertNotEqual(p.returncode, 0,
                            "started with a key that doesn't match: %s"
                            % p.stderr)
        self.assertIn("tls_key", p.stderr)
        self.assertNotIn("<5>ready", p.stderr)

    def test_missing_key_file_refuses_to_start(self):
        tmp = ht.make_tmpdir()
        self.addCleanup(shutil.rmtree, tmp, True)
        p = ht.run_daemon(self.common_args(tmp) + [
            "--tls-cert=" + self.cert,
            "--tls-key=" + os.path.join(tmp, "no-such-key.pem")], cwd=tmp)
        self.assertNotEqual(p.returncode, 0, p.stderr)
        self.assertIn("tls_key", p.stderr)

    def test_cert_without_key_check_config(self):
        tmp = ht.make_tmpdir()
        self.addCleanup(shutil.rmtree, tmp, True)
        p = ht.run_daemon(self.common_args(tmp) + [
            "--tls-cert=" + self.cert, "--check-config"], cwd=tmp)
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("tls_key", p.stderr)
        self.assertNotIn("configuration OK", p.stdout)
        # and the other way round
        p = ht.run_daemon(self.common_args(tmp) + [
            "--tls-key=" + self.key, "--check-config"], cwd=tmp)
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("tls_cert", p.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
