"""A redis-server of the test's own on loopback, and a small client of its
protocol (RESP) to look at what the receivers wrote."""

import os
import shutil
import signal
import socket
import subprocess
import time

import hookcast_test as ht

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"


class RedisServer:
    """redis-server on 127.0.0.1 in a private folder, its AOF fsynced as
    appendfsync says. Use as a context manager."""

    def __init__(self, appendfsync="always"):
        if not os.access(REDIS_SERVER, os.X_OK):
            raise AssertionError("redis-server is not installed "
                                 "(scripts/deps --test installs it)")
        self.dir = ht.make_tmpdir()
        self.port = ht.free_port()
        self.appendfsync = appendfsync
        self.proc = None
        self.start()

    @property
    def url(self):
        return "redis://127.0.0.1:%d/0" % self.port

    def start(self):
        self.proc = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1",
             "--save", "", "--appendonly", "yes",
             "--appendfsync", self.appendfsync, "--dir", self.dir,
             "--logfile", os.path.join(self.dir, "redis.log")],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while True:
            try:
                if self.cmd("PING") == "PONG":
                    return
            except OSError:
                pass
            if self.proc.poll() is not None:
                raise AssertionError("redis-server exited with %s"
                                     % self.proc.returncode)
            if time.monotonic() > deadline:
                raise AssertionError("redis-server not answering")
            time.sleep(0.05)

    def kill(self):
        """SIGKILL, as a crash of the Redis host's process."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def close(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def cmd(self, *args):
        """One command; its reply as Python values (errors raised)."""
        s = socket.create_connection(("127.0.0.1", self.port), timeout=10)
        try:
            out = b"*%d\r\n" % len(args)
            for a in args:
                a = a if isinstance(a, bytes) else str(a).encode()
                out += b"$%d\r\n%s\r\n" % (len(a), a)
            s.sendall(out)
            f = s.makefile("rb")
            return _reply(f)
        finally:
            s.close()

    def entries(self, prefix="hookcast"):
        """The stream's entries: [(id, {field: value})], values str."""
        out = []
        for eid, fields in self.cmd("XRANGE", prefix + ":journal", "-", "+"):
            kv = dict(zip(fields[::2], fields[1::2]))
            out.append((eid, kv))
        return out


class RedisError(Exception):
    pass


def _reply(f):
    line = f.readline()
    if not line:
        raise OSError("redis closed the connection")
    kind, rest = line[:1], line[1:-2]
    if kind == b"+":
        return rest.decode()
    if kind == b"-":
        raise RedisError(rest.decode())
    if kind == b":":
        return int(rest)
    if kind == b"$":
        n = int(rest)
        if n < 0:
            return None
        data = f.read(n + 2)[:-2]
        return data.decode("utf-8", "replace")
    if kind == b"*":
        n = int(rest)
        if n < 0:
            return None
        return [_reply(f) for _ in range(n)]
    raise OSError("not a RESP reply: %r" % line)
