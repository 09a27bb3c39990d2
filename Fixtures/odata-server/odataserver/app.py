"""The WSGI application: basic auth, the mode's request rules, odatapy, then the file.

The OData service is mounted at ``/odata``; ``/_fixture/health`` (no credentials) and
``/_fixture/clock`` (the writer) are the fixture's own. Users: ``writer``/``writer`` may
write, ``reader``/``reader`` may only read (403 on a write, in a ``$batch`` too).
"""

from __future__ import annotations

import base64
import json
from typing import Any, Callable, Iterable

from odatapy.server import OData
from odatapy.server.adapters import ODataWSGIApp

from .batch import PlainBatchProcessor
from .model import FixtureProvider
from .processor import Clock, FixtureProcessor
from .store import PersistentStore

MOUNT = "/odata"
USERS = {"writer": ("writer", True), "reader": ("reader", False)}
WRITE_METHODS = {"POST", "PUT", "PATCH", "DELETE", "MERGE"}
#: Plain mode's error codes, by status (the other framework names them, odatapy numbers them).
PLAIN_CODES = {400: "BadRequest", 403: "Forbidden", 404: "NotFound", 405: "MethodNotAllowed",
               406: "NotAcceptable", 409: "Conflict", 412: "PreconditionFailed",
               415: "UnsupportedMediaType", 428: "PreconditionRequired", 500: "InternalServerError",
               501: "NotImplemented"}


def _user(environ: dict) -> tuple[str, bool] | None:
    """(name, may write) for valid basic-auth credentials, else None."""
    header = environ.get("HTTP_AUTHORIZATION", "")
    scheme, _, encoded = header.partition(" ")
    if scheme.lower() != "basic":
        return None
    try:
        name, _, password = base64.b64decode(encoded.strip()).decode("utf-8").partition(":")
    except (ValueError, UnicodeDecodeError):
        return None
    known = USERS.get(name)
    if known is None or known[0] != password:
        return None
    return name, known[1]


class FixtureApp:
    """The fixture's WSGI application for one mode."""

    def __init__(self, mode: str, state_path: str, service_root: str, page_size: int) -> None:
        if mode not in ("delta", "plain"):
            raise ValueError(f"unknown mode {mode!r} (delta or plain)")
        self.mode = mode
        self.clock = Clock()
        odata = OData.new_instance()
        concurrency = ["ModifiedAt"] if mode == "delta" else []
        self.metadata = odata.create_service_metadata(FixtureProvider(concurrency), service_version="4.01")
        self.handler = odata.create_handler(self.metadata)
        self.store = PersistentStore(state_path, mode)
        self.store.load(self.metadata.edm, service_root)
        self.processor = FixtureProcessor(self.store, mode, page_size, self.clock)
        self.handler.register(self.processor)
        if mode == "plain":
            self.handler.register(PlainBatchProcessor())
            self.handler.set_error_formatter(_plain_error)
        self._process = self.handler.process
        self.handler.process = self._checked  # $batch parts come through here too
        self.odata_app = ODataWSGIApp(self.handler, mount_path=MOUNT)

    # --- every OData request, top level or in a $batch ------------------------
    def _checked(self, request):
        user = request.context.get("user")
        method = str(request.method.value if hasattr(request.method, "value") else request.method).upper()
        path = (request.raw_odata_path or "").strip("/")
        if method in WRITE_METHODS and path != "$batch" and user is not None and not user[1]:
            return self.handler.error_response(403, "The user 'reader' may only read.", request)
        if self.mode == "plain":
            query = request.raw_query_path or ""
            if any(p.split("=", 1)[0] in ("$deltatoken", "%24deltatoken") for p in query.split("&")):
                return self.handler.error_response(
                    400, "The query parameter '$deltatoken' is not supported.", request
                )
            prefer = request.get_header("Prefer")
            if prefer:
                kept = [p for p in prefer.split(",")
                        if p.strip().split("=", 1)[0].strip().lower()
                        not in ("odata.track-changes", "odata.maxpagesize", "maxpagesize")]
                if kept:
                    request.set_header("Prefer", ",".join(kept))
                else:
                    request.remove_header("Prefer")
        return self._process(request)

    # --- WSGI ---------------------------------------------------------------------
    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "")
        if path.startswith("/_fixture/"):
            return self._fixture(environ, start_response, path[len("/_fixture/"):])
        if path != MOUNT and not path.startswith(MOUNT + "/"):
            return _send(start_response, 404, "text/plain", b"Not Found")
        user = _user(environ)
        public = self.mode == "plain" and path.rstrip("/") == MOUNT + "/$metadata"
        if user is None and not public:
            return self._unauthorized(start_response)
        environ["odatapy.context"] = {"user": user}
        captured: dict[str, Any] = {}

        def capture(status: str, headers: list, exc_info: Any = None) -> None:
            captured["status"], captured["headers"] = status, headers

        body = b"".join(self.odata_app(environ, capture))
        # What a request wrote reaches the file before its answer leaves.
        self.store.flush(self.metadata.edm)
        start_response(captured["status"], captured["headers"])
        return [body]

    def _unauthorized(self, start_response: Callable) -> Iterable[bytes]:
        challenge = [("WWW-Authenticate", 'Basic realm="odata-fixture"')]
        if self.mode == "plain":
            return _send(start_response, 401, "text/plain; charset=utf-8", b"Unauthorized", challenge)
        body = json.dumps({"error": {"code": "401", "message": "Authentication required."}}).encode()
        return _send(start_response, 401, "application/json", body, challenge + [("OData-Version", "4.01")])

    def _fixture(self, environ: dict, start_response: Callable, name: str) -> Iterable[bytes]:
        if name == "health":
            return _send(start_response, 200, "application/json", json.dumps({"mode": self.mode}).encode())
        if name == "clock":
            user = _user(environ)
            if user is None or not user[1]:
                return self._unauthorized(start_response)
            method = environ.get("REQUEST_METHOD", "GET")
            if method == "PUT":
                length = int(environ.get("CONTENT_LENGTH") or 0)
                try:
                    ms = json.loads(environ["wsgi.input"].read(length) or b"{}").get("ms")
                except (ValueError, AttributeError):
                    return _send(start_response, 400, "text/plain", b'expected {"ms": <int or null>}')
                if ms is not None and not isinstance(ms, int):
                    return _send(start_response, 400, "text/plain", b'expected {"ms": <int or null>}')
                self.clock.set_fixed(ms)
            return _send(start_response, 200, "application/json", json.dumps({"ms": self.clock.now_ms()}).encode())
        return _send(start_response, 404, "text/plain", b"Not Found")


def _send(start_response: Callable, status: int, content_type: str, body: bytes,
          extra: list[tuple[str, str]] | None = None) -> Iterable[bytes]:
    phrases = {200: "OK", 400: "Bad Request", 401: "Unauthorized", 404: "Not Found"}
    headers = [("Content-Type", content_type), ("Content-Length", str(len(body)))] + (extra or [])
    start_response(f"{status} {phrases.get(status, '')}".strip(), headers)
    return [body]


def _plain_error(error: Any, status: int, request: Any) -> dict[str, Any]:
    code = error.code
    if not code or code.isdigit():
        code = PLAIN_CODES.get(status, str(status))
    return {"error": {"code": code, "message": error.message or "", "target": error.target}}
