"""A fixture server started through scripts/odata-server, and plain HTTP to it (urllib)."""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import tempfile
import unittest
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any

SCRIPT = os.environ.get("ODATA_SERVER_SCRIPT") or os.path.join(
    os.path.dirname(__file__), "..", "..", "..", "scripts", "odata-server"
)
WRITER = ("writer", "writer")
READER = ("reader", "reader")


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes
    _json: Any = field(default=None, repr=False)

    def header(self, name: str) -> str | None:
        return self.headers.get(name.lower())

    @property
    def json(self) -> Any:
        if self._json is None:
            self._json = json.loads(self.body)
        return self._json

    @property
    def text(self) -> str:
        return self.body.decode("utf-8")


class Server:
    """One fixture server in a state dir of its own (removed by :meth:`remove`)."""

    def __init__(self, mode: str, page_size: int = 3) -> None:
        self.mode = mode
        self.page_size = page_size
        self.state_dir = tempfile.mkdtemp(prefix=f"odata-{mode}-")
        self.url = ""

    def _env(self) -> dict[str, str]:
        env = dict(os.environ)
        env["ODATA_STATE_DIR"] = self.state_dir
        return env

    def start(self, fresh: bool = False) -> str:
        args = [SCRIPT, "start", "--mode", self.mode, "--page-size", str(self.page_size)]
        if fresh:
            args.append("--fresh")
        done = subprocess.run(args, env=self._env(), capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"odata-server start failed: {done.stderr}")
        self.url = done.stdout.strip()
        return self.url

    def start_raw(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([SCRIPT, "start", *args], env=self._env(), capture_output=True, text=True)

    def stop(self) -> None:
        subprocess.run([SCRIPT, "stop"], env=self._env(), check=True, capture_output=True)

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.state_dir, ignore_errors=True)

    @property
    def origin(self) -> str:
        return self.url.rsplit("/odata", 1)[0]

    def request(self, method: str, path: str, body: Any = None, *, auth: tuple[str, str] | None = WRITER,
                headers: dict[str, str] | None = None) -> Answer:
        """``path`` is relative to the service root unless it is a whole URL."""
        url = path if path.startswith("http") else f"{self.url}/{path.lstrip('/')}"
        data = None
        sent = dict(headers or {})
        if body is not None:
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            sent.setdefault("Content-Type", "application/json")
        if auth is not None:
            token = base64.b64encode(f"{auth[0]}:{auth[1]}".encode()).decode()
            sent["Authorization"] = f"Basic {token}"
        req = urllib.request.Request(url.replace(" ", "%20"), data=data, method=method, headers=sent)
        try:
            with urllib.request.urlopen(req, timeout=30) as reply:
                return Answer(reply.status, {k.lower(): v for k, v in reply.headers.items()}, reply.read())
        except urllib.error.HTTPError as error:
            return Answer(error.code, {k.lower(): v for k, v in error.headers.items()}, error.read())

    # --- shorthands -----------------------------------------------------------------
    def create(self, entity_set: str, body: dict[str, Any], **kw: Any) -> Answer:
        return self.request("POST", entity_set, body, **kw)

    def set_clock(self, ms: int | None) -> None:
        answer = self.request("PUT", f"{self.origin}/_fixture/clock", {"ms": ms})
        assert answer.status == 200, answer


class ServerCase(unittest.TestCase):
    """A test class with one server of ``mode`` for all its tests."""

    mode = "delta"
    page_size = 3
    server: Server

    @classmethod
    def setUpClass(cls) -> None:
        cls.server = Server(cls.mode, cls.page_size)
        cls.server.start(fresh=True)

    @classmethod
    def tearDownClass(cls) -> None:
        cls.server.remove()

    def tearDown(self) -> None:
        self.server.set_clock(None)


def guid(n: int) -> str:
    return f"00000000-0000-4000-8000-{n:012d}"
