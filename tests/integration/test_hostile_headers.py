"""Signed deliveries with arbitrary bytes in their headers.

Headers are not covered by the signature: anyone holding one signed body
(a proxy log, a redelivery) can replay it with any header bytes. Each such
request must get an answer with a JSON body (a 4xx where the header is one
hookcast reads), never crash the daemon, and a refused one must leave the
journal as it was. A normal delivery is accepted afterwards.
"""

import json
import os
import socket
import unittest
import uuid

import hookcast_test as ht

# Values no GitHub header holds: invalid UTF-8, control bytes, escapes.
HOSTILE = [
    b"\xff\xfe",
    b"abc\xc3\x28",
    b"push\xe2\x82",
    b"\x01\x02\x7f",
    b"ping\x1b[31m",
    b"a\tb",
    b"\xed\xa0\x80",            # a UTF-16 surrogate in UTF-8 form
    b"caf\xc3\xa9",             # well-formed, but not a token
    b"x" * 300,
]

# The headers hookcast reads, and whether a bad value must be a 4xx.
HEADERS = {
    "X-GitHub-Event": True,
    "X-GitHub-Delivery": True,
    "X-GitHub-Hook-ID": True,
    "X-Hub-Signature-256": True,
    "Content-Type": True,
    "User-Agent": False,
    "X-GitHub-Hook-Installation-Target-Type": False,
}


def raw_request(port, head_lines, body):
    """Send bytes; the reply as (status, headers bytes, body bytes)."""
    head = b"POST /webhook HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    head += b"".join(k + b": " + v + b"\r\n" for k, v in head_lines)
    head += b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(body)
    s = socket.create_connection(("127.0.0.1", port), timeout=ht.IO_TIMEOUT)
    try:
        s.sendall(head + body)
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    finally:
        s.close()
    if not data:
        return None, b"", b""
    head, _, rest = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    return status, head, rest


class TestHostileHeaders(unittest.TestCase):

    def test_any_bytes_in_any_header(self):
        with ht.Daemon() as d:
            journal = os.path.join(d.state_dir, "journal")
            for event, payload in (("ping", {"zen": "Keep it logically "
                                              "awesome.", "hook_id": 1}),
                                   ("push", ht.make_push())):
                body = ht.body_of(payload)
                for name, must_refuse in HEADERS.items():
                    for value in HOSTILE:
                        with self.subTest(event=event, header=name,
                                          value=value):
                            lines = {
                                "Content-Type": b"application/json",
                                "X-GitHub-Event": event.encode(),
                                "X-GitHub-Delivery":
                                    str(uuid.uuid4()).encode(),
                                "X-GitHub-Hook-ID": b"1",
                                "X-Hub-Signature-256":
                                    ht.sign(d.secret, body).encode(),
                                "User-Agent": ht.USER_AGENT.encode(),
                            }
                            lines[name] = value
                            size = os.path.getsize(journal)
                            status, head, rbody = raw_request(
                                d.port, [(k.encode(), v)
                                         for k, v in lines.items()], body)
                            self.assertTrue(d.running(),
                                            "daemon died; stderr:\n"
                                            + d.log_tail())
                            self.assertIsNotNone(status, "no reply")
                            reply = json.loads(rbody)
                            self.assertIn("ok", reply)
                            if must_refuse:
                                self.assertTrue(400 <= status < 500,
                                                (status, reply))
                                self.assertFalse(reply["ok"])
                                self.assertEqual(
                                    os.path.getsize(journal), size,
                                    "a refused delivery was journalled")
                            else:
                                # the HTTP layer may refuse control bytes
                                self.assertTrue(status < 300 or
                                                status == 400,
                                                (status, reply))
                            # nothing from a header starts a log line
                            for line in d.log().splitlines():
                                self.assertRegex(line, r"^<\d>")
            status, reply = d.post_payload(ht.make_push(), "push")
            self.assertEqual(status, 200, reply)
            self.assertEqual(d.control("status").get("ok"), True)


if __name__ == "__main__":
    unittest.main()
