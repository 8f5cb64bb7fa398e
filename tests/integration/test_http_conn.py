"""The daemon's replies tell the truth about the connection: a reply after
which hookcastd closes says "Connection: close", and a reply without it is
followed by an open connection that answers the next request. Raw sockets,
so nothing between the test and the daemon decides for us."""

import os
import socket
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hookcast_test as ht  # noqa: E402

NEXT = b"GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n"


class Conn:
    """One client connection, reading replies by their Content-Length."""

    def __init__(self, port):
        self.s = socket.create_connection(("127.0.0.1", port),
                                          timeout=ht.IO_TIMEOUT)
        self.buf = b""

    def close(self):
        self.s.close()

    def send(self, data):
        self.s.sendall(data)

    def _more(self):
        try:
            data = self.s.recv(65536)
        except ConnectionResetError:
            data = b""
        self.buf += data
        return data

    def reply(self, head_only=False):
        """(status, headers lower-cased, body), or None if it closed."""
        while b"\r\n\r\n" not in self.buf:
            if not self._more():
                return None
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        if not head.startswith(b"HTTP/1.1 "):
            raise AssertionError("not a reply (bytes left over from the "
                                 "last one?): %r" % head[:80])
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ")[1])
        hdrs = {}
        for line in lines[1:]:
            k, v = line.split(":", 1)
            hdrs[k.strip().lower()] = v.strip()
        n = 0 if head_only else int(hdrs.get("content-length", "0"))
        while len(self.buf) < n:
            if not self._more():
                return None
        body, self.buf = self.buf[:n], self.buf[n:]
        return status, hdrs, body

    def closed(self):
        """True once the daemon closes; False if it sends more instead."""
        while not self.buf:
            if not self._more():
                return True
        return False


class ConnectionHeader(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.d = ht.Daemon()

    @classmethod
    def tearDownClass(cls):
        failed = False
        try:
            cls.d.stop()
        except AssertionError:
            failed = True
            raise
        finally:
            cls.d.cleanup(failed=failed)

    def run(self, result=None):
        n = len(result.failures) + len(result.errors) if result else 0
        out = super().run(result)
        if result and len(result.failures) + len(result.errors) > n:
            sys.stderr.write("\n--- hookcastd stderr, last lines ---\n%s\n"
                             % self.d.log_tail(30))
        return out

    def exchange(self, request, status, closes, head_only=False):
        """Send request; the reply must have status and say closes, and
        the connection must do as it said."""
        c = Conn(self.d.port)
        try:
            c.send(request)
            r = c.reply(head_only)
            self.assertIsNotNone(r, "no reply to %r" % request[:60])
            got, hdrs, body = r
            self.assertEqual(got, status, body)
            says_close = hdrs.get("connection", "").lower() == "close"
            self.assertEqual(says_close, closes, hdrs)
            if says_close:
                self.assertTrue(c.closed(), "said close, sent more")
            else:
                c.send(NEXT)
                r2 = c.reply()
                self.assertIsNotNone(r2, "no close said, yet closed")
                self.assertEqual(r2[0], 200)
            return hdrs, body
        finally:
            c.close()

    def test_413_announced_body_too_large(self):
        body = b"{}"
        h = self.d.headers_for(body, "push")
        head = "".join("%s: %s\r\n" % kv for kv in h.items())
        req = ("POST /webhook HTTP/1.1\r\nHost: t\r\n%s"
               "Content-Length: 30000000\r\n\r\n" % head).encode()
        self.exchange(req, 413, True)

    def test_400_bad_request_line(self):
        self.exchange(b"NOT A REQUEST\r\n\r\n", 400, True)

    def test_404_keeps_alive(self):
        # no body to skip: the connection can go on, and says so
        self.exchange(b"GET /nope HTTP/1.1\r\nHost: t\r\n\r\n", 404, False)

    def test_refused_with_a_body_closes(self):
        # refused from the head: the body is not read, so the connection
        # can't go on
        req = (b"POST /nope HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n"
               b"\r\nhello")
        self.exchange(req, 404, True)

    def test_400_missing_event_closes(self):
        req = (b"POST /webhook HTTP/1.1\r\nHost: t\r\n"
               b"Content-Type: application/json\r\nContent-Length: 2\r\n"
               b"\r\n{}")
        self.exchange(req, 400, True)

    def test_411_and_501(self):
        self.exchange(b"POST /webhook HTTP/1.1\r\nHost: t\r\n\r\n", 411,
                      True)
        self.exchange(b"POST /webhook HTTP/1.1\r\nHost: t\r\n"
                      b"Transfer-Encoding: chunked\r\n\r\n", 501, True)

    def test_505(self):
        self.exchange(b"GET /healthz HTTP/2.0\r\n\r\n", 505, True)

    def test_http10_closes(self):
        self.exchange(b"GET /healthz HTTP/1.0\r\n\r\n", 200, True)

    def test_head_has_no_body(self):
        hdrs, body = self.exchange(b"HEAD /healthz HTTP/1.1\r\nHost: t\r\n"
                                   b"\r\n", 200, False, head_only=True)
        self.assertGreater(int(hdrs["content-length"]), 0)

    def test_delivery_keeps_alive(self):
        body = ht.body_of(ht.make_push())
        h = self.d.headers_for(body, "push")
        head = "".join("%s: %s\r\n" % kv for kv in h.items())
        req = ("POST /webhook HTTP/1.1\r\nHost: t\r\n%sContent-Length: %d"
               "\r\n\r\n" % (head, len(body))).encode() + body
        c = Conn(self.d.port)
        try:
            c.send(req)
            status, hdrs, _ = c.reply()
            self.assertTrue(200 <= status < 300, status)
            self.assertNotIn("connection", hdrs)
            c.send(NEXT)
            self.assertEqual(c.reply()[0], 200)
        finally:
            c.close()

    def delivery(self):
        body = ht.body_of(ht.make_push())
        h = self.d.headers_for(body, "push")
        head = "".join("%s: %s\r\n" % kv for kv in h.items())
        return ("POST /webhook HTTP/1.1\r\nHost: t\r\n%sContent-Length: "
                "%d\r\n\r\n" % (head, len(body))).encode() + body

    def test_half_close_still_answered(self):
        """A client that shuts its side once its request is sent still
        gets the reply, which says the connection closes, and it does."""
        c = Conn(self.d.port)
        try:
            c.send(self.delivery())
            c.s.shutdown(socket.SHUT_WR)
            r = c.reply()
            self.assertIsNotNone(r, "no reply after a half-close")
            status, hdrs, _ = r
            self.assertTrue(200 <= status < 300, status)
            self.assertEqual(hdrs.get("connection", "").lower(), "close")
            self.assertTrue(c.closed(), "said close, sent more")
        finally:
            c.close()

    def test_pipelined_answered_in_order(self):
        """Requests sent before the replies to those ahead of them (a
        delivery, a health check, another delivery, a 404) are answered
        one by one, in order, on the one connection."""
        c = Conn(self.d.port)
        try:
            c.send(self.delivery() + NEXT + self.delivery() +
                   b"GET /nowhere HTTP/1.1\r\nHost: t\r\n\r\n")
            got = [c.reply()[0] for _ in range(4)]
            self.assertTrue(200 <= got[0] < 300, got)
            self.assertEqual(got[1], 200)
            self.assertTrue(200 <= got[2] < 300, got)
            self.assertEqual(got[3], 404)
        finally:
            c.close()

    def test_delivery_in_pieces(self):
        """A delivery whose head and body come in pieces, with pauses
        between them (the head cut inside a line, a body of about 150 KB,
        more than one read takes, cut at odd places), is answered once,
        when the last byte is in, and its commits are all kept; nothing
        is answered early."""
        commits = [ht.make_commit(message="pieces: step %d\n\n%s" %
                                  (i, "y" * 3000)) for i in range(50)]
        body = ht.body_of(ht.make_push(commits=commits))
        self.assertGreater(len(body), 2 * 65536)
        h = self.d.headers_for(body, "push")
        head = ("POST /webhook HTTP/1.1\r\nHost: t\r\n%sContent-Length: "
                "%d\r\n\r\n" % ("".join("%s: %s\r\n" % kv
                                        for kv in h.items()),
                                len(body))).encode()
        req = head + body
        cuts = [0, 7, len(head) - 3, len(head), len(head) + 1,
                len(head) + 65537, len(head) + 70001, len(req) - 1,
                len(req)]
        repo = "hookcast-test/widget"
        before = self.d.repo_stats(repo)["commits"]
        c = Conn(self.d.port)
        try:
            c.s.settimeout(0.2)
            for a, b in zip(cuts, cuts[1:]):
                c.send(req[a:b])
                if b < len(req):
                    try:
                        early = c.s.recv(1)
                    except socket.timeout:
                        early = None
                    self.assertIsNone(early, "answered with %d of %d "
                                      "bytes sent" % (b, len(req)))
            c.s.settimeout(ht.IO_TIMEOUT)
            r = c.reply()
            self.assertIsNotNone(r, "no reply to the whole delivery")
            self.assertTrue(200 <= r[0] < 300, r)
            c.send(NEXT)
            self.assertEqual(c.reply()[0], 200)
        finally:
            c.close()
        self.assertEqual(self.d.repo_stats(repo)["commits"], before + 50)

    def test_early_bytes_bounded(self):
        """Bytes sent while a delivery is handled are not read beyond a
        head's worth: the delivery is answered, then the junk after it
        is refused as a head too large (or malformed), and the
        connection closes."""
        c = Conn(self.d.port)
        try:
            c.send(self.delivery() + b"X" * (256 * 1024))
            status = c.reply()[0]
            self.assertTrue(200 <= status < 300, status)
            r = c.reply()
            self.assertIsNotNone(r, "no reply to the junk")
            self.assertIn(r[0], (400, 431), r)
            self.assertTrue(c.closed())
        finally:
            c.close()


if __name__ == "__main__":
    unittest.main(verbosity=2)
