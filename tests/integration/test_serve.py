"""serve_episodes against the real daemon: the feed and an episode's files
fetched over HTTP from output_dir (types, ETag and Last-Modified, 304,
byte ranges), and every way out of output_dir refused with 404; downloads
that stall neither hold a connection slot a delivery needs nor hold it for
long (issue 25, item 2)."""

import http.client
import json
import os
import shutil
import socket
import ssl
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hookcast_test as ht  # noqa: E402

REPO = "curl/curl"
DAY = "curl-2026-06-01"


def flush(d):
    d.replay(DAY)
    reply = d.control("flush " + REPO)
    if reply.get("ok") is not True:
        raise AssertionError("flush: %r" % reply)
    ep = reply["episodes"][0]
    return os.path.basename(ep["json"])[:-len(".json")]


def raw_request(d, target, method="GET"):
    """A request line sent as given (no client-side normalising): the
    status and the body."""
    with socket.create_connection(("127.0.0.1", d.port), timeout=30) as s:
        s.sendall(("%s %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                   % (method, target)).encode("latin-1"))
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


def stalled_download(port, target, source="127.0.0.2"):
    """A connection from source that asks for target, takes the first byte
    of the reply (so the reply is under way) and reads no more. Its
    receive buffer is fixed (not grown by the kernel), so a large file
    stops in the daemon's send buffer, yet is read quickly when it is."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 256 * 1024)
    s.bind((source, 0))
    s.settimeout(30)
    s.connect(("127.0.0.1", port))
    s.sendall(("GET %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
               % target).encode())
    if s.recv(1) != b"H":
        raise AssertionError("no reply to a download")
    return s


def count_rest(s):
    """How many bytes are left on s until the daemon closes it."""
    n = 0
    while True:
        chunk = s.recv(1 << 20)
        if not chunk:
            return n
        n += len(chunk)


def big_audio(d, size=16 * 1024 * 1024):
    """An episode's audio far larger than what the kernel buffers on
    loopback (4 MiB at most on the daemon's side, the client's receive
    buffer): (its path under /episodes, its bytes)."""
    folder = os.path.join(d.output_dir, "o", "r")
    os.makedirs(folder)
    audio = os.urandom(size)
    with open(os.path.join(folder, "2026-06-01.mp3"), "wb") as f:
        f.write(audio)
    return "/episodes/o/r/2026-06-01.mp3", audio


class ServeTest(unittest.TestCase):

    def test_serve(self):
        with ht.Daemon(options={"serve-episodes": "true"}) as d:
            name = flush(d)
            folder = os.path.join(d.output_dir, REPO)
            # a stand-in for the audio: bytes whose offsets are checkable
            audio = bytes(range(256)) * 4000 + b"tail"
            with open(os.path.join(folder, name + ".mp3"), "wb") as f:
                f.write(audio)
            base = "/episodes/%s/" % REPO

            st, h, body = d.request("GET", base + "feed.xml")
            self.assertEqual(st, 200)
            self.assertTrue(h["content-type"].startswith(
                "application/rss+xml"), h)
            with open(os.path.join(folder, "feed.xml"), "rb") as f:
                self.assertEqual(body, f.read())
            self.assertIn("etag", h)
            self.assertIn("last-modified", h)
            self.assertEqual(h["accept-ranges"], "bytes")
            etag = h["etag"]

            # conditional: 304 without a body
            st, h2, body = d.request("GET", base + "feed.xml",
                                     headers={"If-None-Match": etag})
            self.assertEqual((st, body), (304, b""))
            self.assertEqual(h2["etag"], etag)
            st, _, body = d.request("GET", base + "feed.xml", headers={
                "If-None-Match": '"other", W/' + etag})
            self.assertEqual(st, 304)
            st, _, _ = d.request("GET", base + "feed.xml",
                                 headers={"If-None-Match": '"other"'})
            self.assertEqual(st, 200)
            st, _, _ = d.request("GET", base + "feed.xml", headers={
                "If-Modified-Since": h["last-modified"]})
            self.assertEqual(st, 304)
            st, _, _ = d.request("GET", base + "feed.xml", headers={
                "If-Modified-Since": "Thu, 01 Jan 1970 00:00:00 GMT"})
            self.assertEqual(st, 200)

            # the audio, whole, ranged and by HEAD
            st, h, body = d.request("GET", base + name + ".mp3")
            self.assertEqual((st, h["content-type"]), (200, "audio/mpeg"))
            self.assertEqual(body, audio)
            self.assertEqual(int(h["content-length"]), len(audio))
            size = len(audio)
            for rng, first, last in (("bytes=100-299", 100, 299),
                                     ("bytes=%d-" % (size - 10), size - 10,
                                      size - 1),
                                     ("bytes=-4", size - 4, size - 1),
                                     ("bytes=0-99999999", 0, size - 1)):
                st, h, body = d.request("GET", base + name + ".mp3",
                                        headers={"Range": rng})
                self.assertEqual(st, 206, rng)
                self.assertEqual(body, audio[first:last + 1], rng)
                self.assertEqual(h["content-range"],
                                 "bytes %d-%d/%d" % (first, last, size), rng)
            st, h, body = d.request("GET", base + name + ".mp3",
                                    headers={"Range": "bytes=%d-" % size})
            self.assertEqual(st, 416)
            self.assertEqual(h["content-range"], "bytes */%d" % size)
            # several ranges: the whole file
            st, _, body = d.request("GET", base + name + ".mp3",
                                    headers={"Range": "bytes=0-1,5-6"})
            self.assertEqual((st, len(body)), (200, size))
            # an If-Range naming another version: the whole file
            st, _, body = d.request("GET", base + name + ".mp3", headers={
                "Range": "bytes=0-1", "If-Range": '"old"'})
            self.assertEqual((st, len(body)), (200, size))
            st, h, body = d.request("HEAD", base + name + ".mp3")
            self.assertEqual((st, body), (200, b""))
            self.assertEqual(int(h["content-length"]), size)

            # every reply from the archive tells a browser to take the
            # type as it is and to run nothing in it; each status has its
            # reason phrase (206, 304 and 416 said "Unknown")
            for headers, status, reason in (
                    ({}, 200, "OK"),
                    ({"Range": "bytes=0-1"}, 206, "Partial Content"),
                    (None, 304, "Not Modified"),
                    ({"Range": "bytes=%d-" % size}, 416,
                     "Range Not Satisfiable")):
                for ext in (".mp3", ".txt", ".json", ".md", ".vtt"):
                    if ext == ".vtt" and not os.path.exists(
                            os.path.join(folder, name + ext)):
                        continue
                    conn = d.connection()
                    try:
                        if status == 304:
                            # each file's own ETag
                            conn.request("HEAD", base + name + ext)
                            r = conn.getresponse()
                            r.read()
                            headers = {"If-None-Match": r.getheader("ETag")}
                        conn.request("GET", base + name + ext,
                                     headers=headers)
                        resp = conn.getresponse()
                        resp.read()
                    finally:
                        conn.close()
                    what = "%s %s" % (ext, status)
                    self.assertEqual((resp.status, resp.reason),
                                     (status, reason), what)
                    self.assertEqual(resp.getheader(
                        "X-Content-Type-Options"), "nosniff", what)
                    self.assertEqual(resp.getheader(
                        "Content-Security-Policy"),
                        "default-src 'none'; sandbox", what)

            # the episode's other files, with their types
            for ext, ctype in ((".txt", "text/plain; charset=utf-8"),
                               (".md", "text/markdown; charset=utf-8"),
                               (".json", "application/json")):
                st, h, body = d.request("GET", base + name + ext)
                self.assertEqual((st, h["content-type"]), (200, ctype), ext)
                with open(os.path.join(folder, name + ext), "rb") as f:
                    self.assertEqual(body, f.read(), ext)
            st, h, body = d.request("GET", base + name + ".json")
            self.assertEqual(json.loads(body)["repository"], REPO)

            # other methods
            st, _, _ = d.request("POST", base + "feed.xml", body=b"x")
            self.assertEqual(st, 405)

            # nothing outside output_dir, nothing hidden, no listings
            outside = os.path.join(d.tmp, "outside.txt")
            with open(outside, "w") as f:
                f.write("secret")
            os.symlink(outside, os.path.join(folder, "link.txt"))
            os.symlink(d.tmp, os.path.join(d.output_dir, "curl", "up"))
            with open(os.path.join(folder, ".hidden.txt"), "w") as f:
                f.write("hidden")
            os.mkdir(os.path.join(folder, "dir.json"))
            with open(os.path.join(folder, "notes.conf"), "w") as f:
                f.write("not served")
            bad = [
                "/episodes/%s/../../../outside.txt" % REPO,
                "/episodes/../outside.txt",
                "/episodes/curl/../../outside.txt",
                "/episodes/curl/curl/%2e%2e/%2e%2e/%2e%2e/outside.txt",
                "/episodes/curl/curl/%2E%2E%2F%2E%2E%2Foutside.txt",
                "/episodes/curl%2Fcurl/feed.xml",
                "/episodes/curl/curl/feed%2exml",
                "/episodes/curl/curl/..%5c..%5coutside.txt",
                "/episodes/curl/curl/..\\..\\outside.txt",
                "/episodes/curl/curl/feed.xml%00.txt",
                "/episodes//etc/passwd",
                "/episodes/curl/curl//etc/passwd",
                "/episodes/%2fetc/passwd/x.txt",
                "/episodes/curl/up/outside.txt",
                "/episodes/curl/curl/link.txt",
                "/episodes/curl/curl/.hidden.txt",
                "/episodes/curl/curl/dir.json",
                "/episodes/curl/curl/notes.conf",
                "/episodes/curl/curl/",
                "/episodes/curl/curl",
                "/episodes/curl/",
                "/episodes/",
                "/episodes",
                "/episodes/curl/curl/feed.xml/x",
                "/episodes/curl/curl/nothing.mp3",
                "/episodes/curl/curl/.mp3",
                "/episodes/./curl/feed.xml",
                "http://x/episodes/curl/curl/../../../outside.txt",
            ]
            for target in bad:
                st, body = raw_request(d, target)
                self.assertEqual(st, 404, target)
                self.assertNotIn(b"secret", body, target)
                if st == 404:
                    self.assertIs(json.loads(body)["ok"], False, target)
            # the daemon is still there, and still takes deliveries
            self.assertTrue(d.running())
            st, _, _ = d.request("GET", "/healthz")
            self.assertEqual(st, 200)

    @unittest.skipIf(shutil.which("openssl") is None,
                     "the openssl command is not installed")
    def test_serve_tls(self):
        """Over HTTPS the file is sent through the TLS layer: whole, and
        a range from the middle of a file larger than a TLS record."""
        import test_tls
        tmp = ht.make_tmpdir()
        try:
            cert, key = test_tls.make_cert(tmp)
            with ht.Daemon(options={"serve-episodes": "true"},
                           extra_args=["--tls-cert=" + cert,
                                       "--tls-key=" + key]) as d:
                folder = os.path.join(d.output_dir, "o", "r")
                os.makedirs(folder)
                audio = os.urandom(3 * 1024 * 1024 + 17)
                with open(os.path.join(folder, "2026-06-01.mp3"), "wb") as f:
                    f.write(audio)
                ctx = ssl.create_default_context(cafile=cert)
                for headers, status, want in (
                        ({}, 200, audio),
                        ({"Range": "bytes=1000000-1099999"}, 206,
                         audio[1000000:1100000])):
                    conn = http.client.HTTPSConnection(
                        "127.0.0.1", d.port, context=ctx, timeout=30)
                    try:
                        conn.request("GET", "/episodes/o/r/2026-06-01.mp3",
                                     headers=headers)
                        resp = conn.getresponse()
                        self.assertEqual(resp.status, status)
                        self.assertEqual(resp.read(), want)
                    finally:
                        conn.close()
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    def test_stalled_downloads_leave_room_for_a_delivery(self):
        """A full house (max_connections) of downloads from another
        address that stopped reading, with read_timeout and head_timeout
        of 10 minutes: a signed delivery is answered 2xx at once, a
        stalled download making room, and the downloads left go on."""
        with ht.Daemon(options={"serve-episodes": "true",
                                "max-connections": "32",
                                "head-timeout": "600",
                                "read-timeout": "600"}) as d:
            target, audio = big_audio(d)
            stalled = [stalled_download(d.port, target) for _ in range(32)]
            try:
                status, reply = d.post_payload(ht.make_push())
                self.assertIn(status, (200, 202), reply)
                self.assertIs(reply["ok"], True, reply)
                self.assertIn("closing the reply longest stalled", d.log())
                # one download was closed for it, the others still run
                closed = whole = 0
                for s in stalled:
                    got = 1 + count_rest(s)
                    if got < len(audio):
                        closed += 1
                    else:
                        whole += 1
                self.assertEqual((closed, whole), (1, 31))
            finally:
                for s in stalled:
                    s.close()

    def test_stalled_download_closed(self):
        """A download that makes no progress is closed after head_timeout
        (2 s here), not after read_timeout (10 minutes)."""
        with ht.Daemon(options={"serve-episodes": "true",
                                "head-timeout": "2",
                                "read-timeout": "600"}) as d:
            target, audio = big_audio(d)
            s = stalled_download(d.port, target, source="127.0.0.1")
            try:
                d.wait_log(r"reply stalled", timeout=60)
                got = 1 + count_rest(s)
                self.assertLess(got, len(audio))
            finally:
                s.close()

    def test_slow_download_outlasts_read_timeout(self):
        """A download that keeps moving may take longer than read_timeout
        (1 s here) in all: what is bounded is the time without progress."""
        with ht.Daemon(options={"serve-episodes": "true",
                                "read-timeout": "1"}) as d:
            target, audio = big_audio(d)
            s = stalled_download(d.port, target, source="127.0.0.1")
            try:
                data = b""
                t0 = time.monotonic()
                # about 3 s of reading a little at a time
                while True:
                    chunk = s.recv(16 * 1024)
                    if not chunk:
                        break
                    data += chunk
                    if time.monotonic() - t0 < 3:
                        time.sleep(0.05)
                head, _, body = (b"H" + data).partition(b"\r\n\r\n")
                self.assertTrue(head.startswith(b"HTTP/1.1 200 "), head)
                self.assertEqual(body, audio)
            finally:
                s.close()

    def test_off_by_default(self):
        with ht.Daemon() as d:
            flush(d)
            for method in ("GET", "HEAD"):
                st, _, _ = d.request(method,
                                     "/episodes/%s/feed.xml" % REPO)
                self.assertEqual(st, 404, method)


if __name__ == "__main__":
    unittest.main()
