#!/usr/bin/env python3
"""A fault-injecting HTTP proxy for the Reliability suites (stdlib only).

Listens on 127.0.0.1 only, forwards each request to the upstream (Kinto, or the Rails test
app, whose chunked answers it re-sends with a Content-Length) on a fresh
connection (one request per connection, `Connection: close`) and, for a seeded random
share of requests, injects one fault:

  delay          forwards after a pause of 0.1-1.0 s
  timeout        never forwards; holds the connection past the client's timeout
  late           forwards (the server applies it), then holds the answer past the timeout
  reset          closes the connection (RST) without forwarding
  drop           forwards (the server applies it), then resets instead of answering
  5xx            answers 500/502/503/504 itself, for this and the next 0-3 requests
  truncated      forwards, then sends the headers and half the body and closes
  malformed      forwards, then answers the same status with a body that is not JSON
  wrongtype      forwards, then answers with Content-Type text/html and an HTML page
  huge           forwards, then answers the same status with 16 MB of JSON that is no object

A second mode delivers one request late, on the test's word (the delayed-create hazard of
Docs/Reliability.md): with --hold-matching TEXT, the first request whose body (or path)
holds TEXT is not forwarded: its connection is reset at once, so its client sees a broken
connection right after sending (the server may have applied the request), with no timeout to
wait for, however loaded the machine. The proxy keeps the request. A control request
`POST /__faultproxy__/release` (answered by the proxy, never forwarded) then forwards the
held request to the upstream and answers `{"status": <the upstream's status>}` once the
upstream answered (404 `{"held": false}` when nothing is held). `GET /__faultproxy__/held`
answers `{"held": true|false}`.

Usage: faultproxy.py --upstream http://127.0.0.1:PORT --seed N --rate 0.3
                     --faults delay,reset,... [--hold SECONDS] [--log FILE]
                     [--hold-matching TEXT]

Prints `listening <port>` on stdout once ready; every request gets one line in the
log file: `<n> <fault|pass> <METHOD> <path>`. Stops on SIGTERM.
"""
import argparse
import asyncio
import os
import random
import signal
import socket
import struct
import sys
from urllib.parse import urlsplit

KINDS = ["delay", "timeout", "late", "reset", "drop", "5xx", "truncated", "malformed", "wrongtype", "huge"]


class Proxy:
    def __init__(self, args):
        up = urlsplit(args.upstream)
        self.host, self.port = up.hostname, up.port
        self.random = random.Random(args.seed)
        self.rate = args.rate
        self.kinds = [k for k in args.faults.split(",") if k]
        for k in self.kinds:
            if k not in KINDS:
                sys.exit(f"faultproxy: unknown fault {k!r}; known: {', '.join(KINDS)}")
        self.hold = args.hold
        self.log = open(args.log, "a", buffering=1) if args.log else None
        self.count = 0
        self.burst = 0
        self.hold_matching = args.hold_matching.encode() if args.hold_matching else None
        self.held = False
        self.release = asyncio.Event()
        self.released = asyncio.get_running_loop().create_future()  # the held request's upstream status

    def pick(self):
        """The fault for the next request, or None; decided in arrival order from the seed."""
        if self.burst > 0:
            self.burst -= 1
            return "5xx"
        if not self.kinds or self.random.random() >= self.rate:
            return None
        kind = self.random.choice(self.kinds)
        if kind == "5xx":
            self.burst = self.random.randint(0, 3)
        return kind

    async def handle(self, reader, writer):
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
            writer.close()
            return
        lines = head.decode("latin-1").split("\r\n")
        method, target = lines[0].split(" ")[:2]
        headers = []
        length = 0
        expect = False
        for line in lines[1:]:
            if not line:
                continue
            name, _, value = line.partition(":")
            lname = name.strip().lower()
            if lname == "content-length":
                length = int(value.strip())
            if lname == "expect":
                expect = True
                continue
            if lname in ("connection", "keep-alive", "proxy-connection"):
                continue
            headers.append((name.strip(), value.strip()))
        if expect:
            writer.write(b"HTTP/1.1 100 Continue\r\n\r\n")
        body = await reader.readexactly(length) if length else b""

        if urlsplit(target).path.startswith("/__faultproxy__/"):
            try:
                await self.control(urlsplit(target).path, writer)
            finally:
                if not writer.is_closing():
                    writer.close()
            return
        if self.hold_matching and not self.held and (self.hold_matching in body or self.hold_matching in target.encode()):
            self.held = True
            self.count += 1
            if self.log:
                self.log.write(f"{self.count} hold {method} {urlsplit(target).path}\n")
            await self.deliver_when_released(method, target, headers, body, writer)
            return

        self.count += 1
        n = self.count
        kind = self.pick()
        if self.log:
            self.log.write(f"{n} {kind or 'pass'} {method} {urlsplit(target).path}\n")
        try:
            await self.serve(kind, method, target, headers, body, writer)
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            if not writer.is_closing():
                writer.close()

    async def control(self, path, writer):
        """The test's requests to the proxy itself (hold mode)."""
        if path == "/__faultproxy__/held":
            payload = b'{"held": true}' if self.held else b'{"held": false}'
            return self.answer(writer, 200, [("Content-Type", "application/json")], payload)
        if path == "/__faultproxy__/release" and self.held:
            self.release.set()
            payload = b'{"status": %d}' % await self.released
            self.answer(writer, 200, [("Content-Type", "application/json")], payload)
            return await writer.drain()
        self.answer(writer, 404, [("Content-Type", "application/json")], b'{"held": false}')
        await writer.drain()

    async def deliver_when_released(self, method, target, headers, body, writer):
        """Resets the client's connection at once (the request was sent, no answer will
        come: to the client, the server may have applied it), keeps the request until the
        test releases it, then forwards it."""
        self.reset(writer)
        await self.release.wait()
        try:
            status, _, _ = await self.forward(method, target, headers, body)
        except (ConnectionError, OSError):
            status = 502
        if not self.released.done():
            self.released.set_result(status)

    async def serve(self, kind, method, target, headers, body, writer):
        if kind == "timeout":
            await asyncio.sleep(self.hold)
            return
        if kind == "reset":
            return self.reset(writer)
        if kind == "5xx":
            status = self.random.choice([500, 502, 503, 504])
            payload = b'{"code":%d,"errno":999,"error":"Injected","message":"injected by faultproxy"}' % status
            return self.answer(writer, status, [("Content-Type", "application/json")], payload)
        if kind == "delay":
            await asyncio.sleep(self.random.uniform(0.1, 1.0))

        status, rheaders, rbody = await self.forward(method, target, headers, body)

        if kind == "late":
            await asyncio.sleep(self.hold)
            return
        if kind == "drop":
            return self.reset(writer)
        if kind == "truncated":
            rheaders = [(k, v) for k, v in rheaders if k.lower() != "content-length"]
            rheaders.append(("Content-Length", str(len(rbody))))
            self.send_head(writer, status, rheaders)
            writer.write(rbody[: len(rbody) // 2])
            return
        if kind == "malformed":
            rbody = b'{"data": {"id": "x", "last_modified": 1' + b"\x00\xff\xfe not json"
        elif kind == "wrongtype":
            rheaders = [(k, v) for k, v in rheaders if k.lower() != "content-type"]
            rheaders.append(("Content-Type", "text/html; charset=utf-8"))
            rbody = b"<html><body><h1>Bad Gateway</h1></body></html>"
        elif kind == "huge":
            rbody = b'"' + b"x" * (16 * 1024 * 1024) + b'"'
        self.answer(writer, status, rheaders, rbody)
        await writer.drain()

    async def forward(self, method, target, headers, body):
        reader, writer = await asyncio.open_connection(self.host, self.port)
        request = [f"{method} {target} HTTP/1.1", f"Host: {self.host}:{self.port}", "Connection: close"]
        request += [f"{k}: {v}" for k, v in headers if k.lower() not in ("host", "content-length")]
        request.append(f"Content-Length: {len(body)}")
        writer.write(("\r\n".join(request) + "\r\n\r\n").encode("latin-1") + body)
        await writer.drain()
        raw = await reader.read()
        writer.close()
        head, _, rbody = raw.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ")[1])
        rheaders = []
        chunked = False
        for line in lines[1:]:
            name, _, value = line.partition(":")
            if name.strip().lower() == "transfer-encoding":
                chunked = "chunked" in value.lower()
                continue
            if name.strip().lower() == "connection":
                continue
            rheaders.append((name.strip(), value.strip()))
        return status, rheaders, self.dechunk(rbody) if chunked else rbody

    @staticmethod
    def dechunk(raw):
        """The body of a `Transfer-Encoding: chunked` answer (Rails/puma sends those; the
        proxy answers with Content-Length)."""
        body = b""
        while raw:
            size_line, _, raw = raw.partition(b"\r\n")
            size = int(size_line.split(b";")[0].strip() or b"0", 16)
            if size == 0:
                break
            body += raw[:size]
            raw = raw[size + 2:]
        return body

    @staticmethod
    def send_head(writer, status, headers):
        lines = [f"HTTP/1.1 {status} Status"] + [f"{k}: {v}" for k, v in headers] + ["Connection: close"]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))

    def answer(self, writer, status, headers, body):
        headers = [(k, v) for k, v in headers if k.lower() != "content-length"]
        headers.append(("Content-Length", str(len(body))))
        self.send_head(writer, status, headers)
        writer.write(body)

    @staticmethod
    def reset(writer):
        sock = writer.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        writer.transport.abort()


async def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--upstream", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rate", type=float, default=0.3)
    parser.add_argument("--faults", default=",".join(KINDS))
    parser.add_argument("--hold", type=float, default=3.0)
    parser.add_argument("--log")
    parser.add_argument("--hold-matching", default="")
    args = parser.parse_args()
    proxy = Proxy(args)
    server = await asyncio.start_server(proxy.handle, "127.0.0.1", 0, limit=1 << 20)
    print(f"listening {server.sockets[0].getsockname()[1]}", flush=True)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    async with server:
        await stop.wait()


if __name__ == "__main__":
    # Descriptors inherited by accident (a pipe another child of the test process was
    # being given at the same instant) would keep that pipe open for as long as the proxy
    # runs, and its reader would never see end-of-file. Closed before the event loop exists.
    os.closerange(3, os.sysconf("SC_OPEN_MAX"))
    asyncio.run(main())
