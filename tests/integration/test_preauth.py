"""Before authentication, what a client may take is small and bounded in
total (issue #9, findings 1, 2 and 8's accept spin), against the real
daemon on loopback:

- a malformed signature header is refused at the head, the body unsent;
- RSS stays bounded while many connections each announce a 25 MiB body
  with a bogus signature and send it as fast as they can;
- a signed delivery is answered beside 500 slow connections before
  they could time out (from another address, from the same address,
  and over TLS without a ClientHello);
- heads and idle kept-alive connections have their own short timeouts;
- max_connections above the file limit is lowered, and running out of
  descriptors doesn't make accept spin.

Each scenario is bounded in time and count. The 127.0.0.0/8 addresses
other than 127.0.0.1 stand for other peers."""

import os
import resource
import selectors
import shutil
import socket
import ssl
import subprocess
import sys
import time
import unittest
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hookcast_test as ht  # noqa: E402

MIB = 1024 * 1024
BIG = 25 * MIB                  # GitHub's cap, the default max_body
# What the daemon's RSS may grow by under the flood: the body budget is
# 64 MiB; natively it grows ~80 MB, under ASan (quarantine, shadow) or
# valgrind about twice that. Unbounded, 100 bodies would take 2.5 GB.
RSS_GROWTH_KB = 320 * 1024
UNDER_VALGRIND = bool(os.environ.get("HOOKCAST_UNDER_VALGRIND"))
FLOOD_CONNS = 100
FLOOD_SECONDS = 15.0
SLOW_CONNS = 500
READ_TIMEOUT = 5                # read_timeout of the slow scenarios
# A delivery among slow connections is answered before they could have
# timed out: within half the read timeout. A bound of the design, not of
# speed (an absolute 1 s failed on a shared machine at 2.1 s).
LATENCY_BOUND = READ_TIMEOUT / 2
BOGUS = "sha256=" + "0" * 64    # well formed, matches nothing

# Run the daemon with RLIMIT_NOFILE lowered to argv[1].
NOFILE_WRAPPER = [sys.executable, "-c",
                  "import os, resource, sys\n"
                  "n = int(sys.argv[1])\n"
                  "resource.setrlimit(resource.RLIMIT_NOFILE, (n, n))\n"
                  "os.execv(sys.argv[2], sys.argv[2:])\n"]


def raise_nofile(want):
    """Raise our soft file limit (the daemon inherits it); the new soft."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY:
        want = min(want, hard)
    if soft != resource.RLIM_INFINITY and soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS for %d" % pid)


def delivery_head(length, signature, path="/webhook"):
    """The head of a push delivery announcing length body bytes."""
    return ("POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            "User-Agent: %s\r\nContent-Type: application/json\r\n"
            "X-GitHub-Event: push\r\nX-GitHub-Delivery: %s\r\n"
            "X-GitHub-Hook-ID: 1\r\nX-Hub-Signature-256: %s\r\n"
            "Content-Length: %d\r\n\r\n"
            % (path, ht.USER_AGENT, uuid.uuid4(), signature,
               length)).encode()


def read_reply(s, timeout):
    """(status, headers, body) of one reply on socket s, or None when the
    connection ends or nothing complete comes within timeout."""
    s.settimeout(timeout)
    buf = b""
    deadline = time.monotonic() + timeout
    try:
        while b"\r\n\r\n" not in buf:
            s.settimeout(max(0.01, deadline - time.monotonic()))
            data = s.recv(65536)
            if not data:
                return None
            buf += data
        head, body = buf.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        hdrs = {}
        for line in lines[1:]:
            k, v = line.split(":", 1)
            hdrs[k.strip().lower()] = v.strip()
        n = int(hdrs.get("content-length", "0"))
        while len(body) < n:
            s.settimeout(max(0.01, deadline - time.monotonic()))
            data = s.recv(65536)
            if not data:
                return None
            body += data
        return int(lines[0].split(" ")[1]), hdrs, body[:n]
    except (socket.timeout, ConnectionError):
        return None


def flood(d, nconns, bound_kb, seconds=FLOOD_SECONDS):
    """nconns connections each announce a 25 MiB body with a bogus
    signature and send it as fast as the daemon reads. Stops early once
    the daemon's RSS passes bound_kb. Returns (peak RSS in kB, statuses
    of the replies seen)."""
    sel = selectors.DefaultSelector()
    chunk = b"x" * 65536
    conns = {}
    for _ in range(nconns):
        s = socket.create_connection(("127.0.0.1", d.port), timeout=5)
        s.setblocking(False)
        conns[s] = [delivery_head(BIG, BOGUS), BIG, b""]
        sel.register(s, selectors.EVENT_READ | selectors.EVENT_WRITE)
    peak = rss_kb(d.proc.pid)
    statuses = []
    deadline = time.monotonic() + seconds
    next_sample = 0.0
    try:
        while conns and time.monotonic() < deadline:
            now = time.monotonic()
            if now >= next_sample:
                peak = max(peak, rss_kb(d.proc.pid))
                next_sample = now + 0.05
                if peak > bound_kb:
                    break
            for key, ev in sel.select(timeout=0.05):
                s = key.fileobj
                st = conns[s]
                try:
                    if ev & selectors.EVENT_READ:
                        data = s.recv(65536)
                        if not data:
                            raise ConnectionResetError
                        st[2] += data
                    if ev & selectors.EVENT_WRITE:
                        if st[0]:
                            st[0] = st[0][s.send(st[0]):]
                        elif st[1] > 0:
                            st[1] -= s.send(chunk[:min(len(chunk),
                                                       st[1])])
                        else:
                            sel.modify(s, selectors.EVENT_READ)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    if st[2].startswith(b"HTTP/1.1 "):
                        statuses.append(int(st[2][9:12]))
                    sel.unregister(s)
                    s.close()
                    del conns[s]
        peak = max(peak, rss_kb(d.proc.pid))
    finally:
        for s in conns:
            sel.unregister(s)
            s.close()
        sel.close()
    return peak, statuses


def open_slow(port, n, source="127.0.0.2", data=b"P"):
    """Up to n connections from source that send data and nothing more
    (fewer when the daemon's listen queue fills up)."""
    out = []
    for _ in range(n):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.bind((source, 0))
        s.settimeout(3)     # a dropped SYN is sent again after 1 s
        try:
            s.connect(("127.0.0.1", port))
        except OSError:
            s.close()
            break
        if data:
            try:
                s.send(data)
            except OSError:
                pass        # turned away already
        out.append(s)
    return out


def timed_delivery(d, context=None):
    """Seconds until a signed push gets its reply, and the status."""
    body = ht.body_of(ht.make_push())
    h = d.headers_for(body, "push")
    t0 = time.monotonic()
    if context is None:
        import http.client
        conn = http.client.HTTPConnection("127.0.0.1", d.port, timeout=10)
    else:
        import http.client
        conn = http.client.HTTPSConnection("127.0.0.1", d.port,
                                           context=context, timeout=10)
    try:
        conn.request("POST", "/webhook", body=body, headers=h)
        resp = conn.getresponse()
        resp.read()
        status = resp.status
    except (socket.timeout, OSError) as e:
        status = "no reply (%s)" % e.__class__.__name__
    finally:
        conn.close()
    return time.monotonic() - t0, status


class TestPreauth(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.nofile = raise_nofile(4 * SLOW_CONNS)
        if cls.nofile < 2 * SLOW_CONNS:
            raise unittest.SkipTest("RLIMIT_NOFILE %d is too low"
                                    % cls.nofile)

    def test_malformed_signature_refused_at_head(self):
        """401 for a signature header that can match no body, before the
        25 MiB announced are sent (read_timeout is 5 s: waiting for the
        body would give a 408 much later)."""
        cases = [
            ("not hex", "sha256=" + "z" * 64),
            ("short", "sha256=" + "0" * 63),
            ("long", "sha256=" + "0" * 65),
            ("sha1", "sha1=" + "0" * 40),
            ("no prefix", "0" * 71),
        ]
        with ht.Daemon(options={"read-timeout": str(READ_TIMEOUT)}) as d:
            for name, sig in cases:
                with self.subTest(name):
                    s = socket.create_connection(("127.0.0.1", d.port),
                                                 timeout=5)
                    try:
                        t0 = time.monotonic()
                        s.sendall(delivery_head(BIG - 1, sig))
                        r = read_reply(s, 2.0)
                        took = time.monotonic() - t0
                    finally:
                        s.close()
                    self.assertIsNotNone(r, "%s: no reply within 2 s"
                                         % name)
                    self.assertEqual(r[0], 401, r)
                    self.assertIn(b"malformed", r[2])
                    self.assertLess(took, 2.0)
            # a well-formed header still waits for its body, and mismatches
            s = socket.create_connection(("127.0.0.1", d.port), timeout=5)
            try:
                s.sendall(delivery_head(2, BOGUS) + b"{}")
                r = read_reply(s, 5.0)
            finally:
                s.close()
            self.assertEqual(r[0], 401, r)
            self.assertIn(b"signature mismatch", r[2])

    def test_bogus_bodies_rss_bounded(self):
        """FLOOD_CONNS connections x 25 MiB with a bogus signature: the
        daemon's RSS grows by less than RSS_GROWTH_KB, the bodies beyond the
        budget are refused with 503, and a signed delivery works after.
        No cap per peer here: the body budget alone must hold."""
        # Under ASan every freed block waits in a quarantine of up to
        # 256 MB before reuse, and the refused connections' discarded
        # bytes pass through freed read buffers: that fills it, whatever
        # the daemon holds. A small quarantine measures what it holds.
        env = ht.daemon_env({"ASAN_OPTIONS": os.environ.get(
            "ASAN_OPTIONS", "") + ":quarantine_size_mb=16"})
        with ht.Daemon(options={"max-connections-per-peer": "10000"},
                       env=env) as d:
            base = rss_kb(d.proc.pid)
            peak, statuses = flood(d, FLOOD_CONNS, base + RSS_GROWTH_KB)
            sys.stderr.write("\nflood: %d connections x 25 MiB: RSS %d kB "
                             "-> peak %d kB; replies %s\n"
                             % (FLOOD_CONNS, base, peak,
                                {x: statuses.count(x)
                                 for x in sorted(set(statuses))}))
            self.assertLess(peak - base, RSS_GROWTH_KB,
                            "RSS %d kB -> %d kB under %d bogus 25 MiB bodies"
                            % (base, peak, FLOOD_CONNS))
            self.assertIn(503, statuses)
            took, status = timed_delivery(d)
            self.assertEqual(status, 200)
            self.assertIn("bodies in flight", d.log())

    def test_partial_heads_hold_what_was_sent(self):
        """400 connections that each send a little over 4 KiB of a head
        and stall: the daemon keeps about what they sent (4.4 MB here),
        under 40 kB a connection, not a head's cap (64 KiB) each; then a
        signed delivery is still answered."""
        n = 400
        env = ht.daemon_env({"ASAN_OPTIONS": os.environ.get(
            "ASAN_OPTIONS", "") + ":quarantine_size_mb=16"})
        head = (b"POST /webhook HTTP/1.1\r\nHost: t\r\nX-Pad: " +
                b"a" * 4096)
        with ht.Daemon(options={"max-connections-per-peer": "10000",
                                "max-connections": "1000",
                                "read-timeout": "60"}, env=env) as d:
            base = rss_kb(d.proc.pid)
            conns = open_slow(d.port, n, source="127.0.0.1", data=head)
            try:
                self.assertGreater(len(conns), n // 2)
                time.sleep(1.0)
                grown = rss_kb(d.proc.pid) - base
                sys.stderr.write("\npartial heads: %d connections x %d "
                                 "bytes: RSS grew %d kB\n"
                                 % (len(conns), len(head), grown))
                self.assertLess(grown, 40 * len(conns),
                                "RSS grew %d kB for %d partial heads"
                                % (grown, len(conns)))
            finally:
                for s in conns:
                    s.close()
            took, status = timed_delivery(d)
            self.assertEqual(status, 200)

    def check_latency(self, d, what, context=None):
        took, status = timed_delivery(d, context)
        sys.stderr.write("\n%s: signed delivery in %.3f s (%s)\n"
                         % (what, took, status))
        self.assertEqual(status, 200, what)
        # under valgrind (scripts/valgrind-test) everything runs ~20x slower
        bound = LATENCY_BOUND * (10 if UNDER_VALGRIND else 1)
        self.assertLess(took, bound, what)

    def test_slow_connections_from_another_peer(self):
        """500 one-byte connections from 127.0.0.2 (more than
        max_connections): a signed delivery from 127.0.0.1 is answered
        before they could time out."""
        with ht.Daemon(options={"max-connections": "256",
                                "read-timeout": str(READ_TIMEOUT)}) as d:
            slow = open_slow(d.port, SLOW_CONNS)
            try:
                time.sleep(0.5)
                self.check_latency(d, "500 slow from another address")
            finally:
                for s in slow:
                    s.close()
            self.assertLessEqual(
                d.log().count("connection refused: too many"), 2,
                "refusals are logged once per burst")

    def test_slow_connections_same_peer_shed(self):
        """500 partial heads from the delivery's own address, with no cap
        per peer: at the connection cap the oldest are shed, and the
        delivery is answered before they could time out."""
        with ht.Daemon(options={"max-connections": "256",
                                "max-connections-per-peer": "10000",
                                "read-timeout": str(READ_TIMEOUT)}) as d:
            slow = open_slow(d.port, SLOW_CONNS, source="127.0.0.1",
                             data=b"POST /webhook HTTP/1.1\r\n")
            try:
                time.sleep(0.5)
                self.check_latency(d, "500 slow from the same address")
            finally:
                for s in slow:
                    s.close()
            self.assertLessEqual(d.log().count("closing the oldest idle"),
                                 2, "shedding is logged once per burst")

    def test_tls_without_client_hello(self):
        """With TLS on, 500 TCP connections that never send a ClientHello
        don't keep a signed delivery over TLS waiting."""
        openssl = shutil.which("openssl")
        if openssl is None:
            self.skipTest("the openssl command is not installed")
        tmp = ht.make_tmpdir()
        try:
            cert = os.path.join(tmp, "cert.pem")
            key = os.path.join(tmp, "key.pem")
            subprocess.run([openssl, "req", "-x509", "-newkey", "ec",
                            "-pkeyopt", "ec_paramgen_curve:prime256v1",
                            "-nodes", "-keyout", key, "-out", cert,
                            "-days", "2", "-subj", "/CN=127.0.0.1",
                            "-addext", "subjectAltName=IP:127.0.0.1"],
                           cwd=tmp, check=True, capture_output=True,
                           timeout=60)
            os.chmod(key, 0o600)
            ctx = ssl.create_default_context(cafile=cert)
            with ht.Daemon(extra_args=["--tls-cert=" + cert,
                                       "--tls-key=" + key],
                           options={"max-connections": "256",
                                    "max-connections-per-peer": "10000",
                                    "read-timeout": str(READ_TIMEOUT)}) as d:
                slow = open_slow(d.port, SLOW_CONNS, source="127.0.0.1",
                                 data=b"")
                try:
                    time.sleep(0.5)
                    self.check_latency(d, "500 TCP without ClientHello",
                                       context=ctx)
                finally:
                    for s in slow:
                        s.close()
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    def test_head_and_idle_timeouts(self):
        """A partial head gets a 408 after head_timeout, and a kept-alive
        connection is closed after idle_timeout, not read_timeout."""
        with ht.Daemon(options={"head-timeout": "1", "idle-timeout": "1",
                                "read-timeout": "60"}) as d:
            s = socket.create_connection(("127.0.0.1", d.port), timeout=5)
            try:
                t0 = time.monotonic()
                s.sendall(b"GET /healthz HTTP/1.1\r\nHost: a\r\n")
                r = read_reply(s, 5.0)
                took = time.monotonic() - t0
            finally:
                s.close()
            self.assertIsNotNone(r, "no 408 within 5 s")
            self.assertEqual(r[0], 408)
            self.assertLess(took, 3.0)

            s = socket.create_connection(("127.0.0.1", d.port), timeout=5)
            try:
                s.sendall(b"GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n")
                r = read_reply(s, 5.0)
                self.assertEqual(r[0], 200)
                self.assertNotEqual(r[1].get("connection"), "close")
                t0 = time.monotonic()
                s.settimeout(5)
                try:
                    data = s.recv(1)
                except ConnectionResetError:
                    data = b""
                took = time.monotonic() - t0
            finally:
                s.close()
            self.assertEqual(data, b"")
            self.assertLess(took, 3.0, "idle connection kept %.1f s" % took)

    @unittest.skipIf(UNDER_VALGRIND, "valgrind keeps descriptors of its "
                     "own below the file limit")
    def test_file_limit(self):
        """max_connections 512 with 64 descriptors: lowered with a
        warning; 100 connections neither make accept spin (a few log
        lines, not thousands) nor keep /healthz from another address
        waiting."""
        with ht.Daemon(wrapper=NOFILE_WRAPPER + ["64"],
                       options={"max-connections": "512"}) as d:
            self.assertRegex(d.log(), r"max_connections 512 is more than "
                             r"the file limit \(64\)")
            slow = open_slow(d.port, 100, source="127.0.0.1",
                             data=b"GET /healthz HTTP/1.1\r\n")
            try:
                time.sleep(2.0)
                lines = d.log().count("\n")
                accept_lines = d.log().count("accept")
                s = socket.socket()
                s.bind(("127.0.0.3", 0))
                s.settimeout(5)
                t0 = time.monotonic()
                s.connect(("127.0.0.1", d.port))
                s.sendall(b"GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n")
                r = read_reply(s, 3.0)
                took = time.monotonic() - t0
                s.close()
            finally:
                for x in slow:
                    x.close()
            sys.stderr.write("\nfile limit 64: %d log lines, %d about "
                             "accept; /healthz in %.3f s\n"
                             % (lines, accept_lines, took))
            self.assertLess(accept_lines, 10)
            self.assertIsNotNone(r, "/healthz: no reply")
            self.assertEqual(r[0], 200)
            self.assertLess(took, LATENCY_BOUND)


if __name__ == "__main__":
    unittest.main()
