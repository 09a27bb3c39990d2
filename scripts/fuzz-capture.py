#!/usr/bin/env python3
"""Captures real server answers as seeds for the fuzz targets (Docs/Testing.md, "Fuzzing").

Usage: scripts/fuzz-capture.py OUT [--kinto URL] [--rails URL] [--drf URL]

Writes, for each server given, a few edits and the answers to them and to pulls, into
OUT/<target>/: list bodies for kinto-page (the first byte chooses the chunk split), whole
answers in the ScriptedAnswers text form (status, headers, empty line, body; answers joined
by a line `=====`) for rest-pull, rest-push and rest-headers, and every JSON body for json
and canonical-json. Only 127.0.0.1 servers; nothing but the standard library.
"""
import base64
import json
import os
import sys
import urllib.error
import urllib.request

OUT = sys.argv[1]
ARGS = dict(zip(sys.argv[2::2], sys.argv[3::2]))
counter = {}


def save(target, name, data):
    os.makedirs(os.path.join(OUT, target), exist_ok=True)
    counter[(target, name)] = counter.get((target, name), 0) + 1
    path = os.path.join(OUT, target, f"{name}-{counter[(target, name)]}")
    with open(path, "wb") as f:
        f.write(data)


def request(method, url, body=None, headers=None):
    """The answer as (status, [(name, value)], body bytes), whatever its status."""
    assert url.startswith("http://127.0.0.1:"), url
    data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    req = urllib.request.Request(url, data=data, method=method)
    req.add_header("Accept", "application/json")
    if data is not None:
        req.add_header("Content-Type", "application/json")
    for name, value in (headers or {}).items():
        req.add_header(name, value)
    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(req, timeout=30) as answer:
            return answer.status, list(answer.headers.items()), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, list(error.headers.items()), error.read()


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


# The fuzz targets' backends are configured at this address (RESTFuzzResources.baseURL): links
# the servers wrote with their own address are rewritten to it.
FUZZ_BASE = b"http://127.0.0.1:3000"
server_base = b""


def scripted(*answers):
    """Answers in the ScriptedAnswers text form, the server's address rewritten to FUZZ_BASE."""
    parts = []
    for status, headers, body in answers:
        head = "".join(f"{name}: {value}\n" for name, value in headers
                       if name.lower() not in ("server", "x-request-id", "x-runtime", "set-cookie"))
        parts.append(f"{status}\n{head}\n".encode() + body)
    return b"\n=====\n".join(parts).replace(server_base, FUZZ_BASE)


def keep_json(name, body):
    try:
        json.loads(body)
    except ValueError:
        return
    save("json", name, body)
    save("canonical-json", name, body)


def kinto(base):
    auth = {"Authorization": "Basic " + base64.b64encode(b"fuzz:secret").decode()}
    request("PUT", f"{base}/buckets/fuzz", {"data": {}}, auth)
    records = f"{base}/buckets/fuzz/collections/todos/records"
    request("PUT", f"{base}/buckets/fuzz/collections/todos", {"data": {}}, auth)
    samples = [
        {"id": "milk", "title": "Buy milk", "done": False, "priority": 2},
        {"id": "tea", "title": "Thé vert \u00e9\u20ac\U0001F375", "tags": ["home", "shop"], "score": 2.5},
        {"id": "nested", "address": {"city": "Paris", "zip": "75001", "geo": [48.85, 2.35]}, "n": None},
        {"id": "escapes", "text": "line\nbreak \"quoted\" back\\slash \t tab \u0001", "big": 9007199254740993},
        {"id": "unsorted", "z": 1, "a": 2, "\u00e9": 3, "B": [], "deleted": True},
        {"id": "floats", "x": 1e-7, "y": 1.0e21, "z": -0.0, "w": 123456789.125},
    ]
    for sample in samples:
        status, headers, body = request("PUT", f"{records}/{sample['id']}", {"data": sample}, auth)
        keep_json("kinto-record", body)
    request("PATCH", f"{records}/milk", {"data": {"done": True}}, auth)
    request("DELETE", f"{records}/unsorted", None, auth)
    for query in ["?_since=0&_sort=last_modified", "?_sort=last_modified&_limit=2", "?_fields=id,last_modified,deleted,title&_since=0",
                  "?_since=0&_sort=last_modified&_limit=3"]:
        status, headers, body = request("GET", records + query, None, auth)
        keep_json("kinto-list", body)
        for split in b"07Az":
            save("kinto-page", "list", bytes([split]) + body)
        save("rest-headers", "kinto-list", scripted((status, headers, b"")))
    # Error answers and the batch endpoint.
    for method, url, body in [("GET", f"{records}/missing", None), ("PUT", f"{records}/bad", {"data": "x"}),
                              ("GET", f"{base}/buckets/other/collections/x/records", None),
                              ("POST", f"{base}/batch", {"requests": [{"method": "PUT", "path": "/buckets/fuzz/collections/todos/records/b1",
                                                                          "body": {"data": {"n": 1}}}]})]:
        status, headers, answer = request(method, url, body, auth)
        keep_json("kinto-answer", answer)
        save("rest-headers", "kinto-answer", scripted((status, headers, answer)))


def rails(base):
    global server_base
    server_base = base.encode()
    for i in range(5):
        status, headers, body = request("POST", f"{base}/customers.json", {"customer": {"name": f"fuzz {i}", "email": f"f{i}@example.com"}},
                                        {"Idempotency-Key": f"fuzz-{i}"})
        save("rest-push", "rails-create", b"\x00\x00\x00" + scripted((status, headers, body)))
        keep_json("rails-answer", body)
    customer = json.loads(body)
    status, headers, body = request("PATCH", f"{base}/customers/{customer['id']}.json",
                                    {"customer": {"name": "renamed", "lock_version": 0}})
    save("rest-push", "rails-update", b"\x00\x01\x00" + scripted((status, headers, body)))
    stale = request("PATCH", f"{base}/customers/{customer['id']}.json", {"customer": {"name": "stale", "lock_version": 0}})
    current = request("GET", f"{base}/customers/{customer['id']}.json")
    save("rest-push", "rails-conflict", b"\x00\x01\x00" + scripted(stale, current))
    invalid = request("POST", f"{base}/customers.json", {"customer": {"name": ""}})
    save("rest-push", "rails-invalid", b"\x00\x00\x00" + scripted(invalid))
    deleted = request("DELETE", f"{base}/customers/{customer['id']}.json?lock_version=1")
    save("rest-push", "rails-delete", b"\x00\x02\x00" + scripted(deleted))
    missing = request("GET", f"{base}/customers/999999.json")
    save("rest-headers", "rails-missing", scripted(missing))
    for i in range(5):
        request("POST", f"{base}/products.json", {"product": {"name": f"p{i}", "price": f"{i}.99"}})
    pages = [request("GET", f"{base}/customers.json?per_page=2")]
    pages.append(request("GET", f"{base}/customers.json?updated_since={json.loads(pages[0][2])[-1]['updated_at']}&per_page=2"))
    pages.append(request("GET", f"{base}/customers.json?updated_since=2999-01-01T00:00:00.000000Z&per_page=2"))
    save("rest-pull", "rails-customers", b"\x00\x00" + scripted(*pages))
    products = [request("GET", f"{base}/products.json?per_page=2")]
    for _ in range(3):
        link = dict((k.lower(), v) for k, v in products[-1][1]).get("link", "")
        if "rel=\"next\"" not in link:
            break
        products.append(request("GET", link.split(">")[0].lstrip("<")))
    save("rest-pull", "rails-products", b"\x03\x00" + scripted(*products))
    for page in pages + products:
        keep_json("rails-list", page[2])
        save("rest-headers", "rails-page", scripted(page))
    # An HTML error page and a redirect, as Rails writes them.
    save("rest-headers", "rails-html", scripted(request("GET", f"{base}/nowhere", headers={"Accept": "text/html"})))


def drf(base):
    global server_base
    server_base = base.encode()
    for space in ["recipe", "plain"]:
        tasks = f"{base}/{space}/demo/tasks/"
        for i in range(5):
            answer = request("POST", tasks, {"id": f"t{i}", "title": f"task {i}", "done": i % 2 == 0} if space == "recipe"
                             else {"title": f"task {i}", "done": False})
            keep_json("drf-answer", answer[2])
            save("rest-push", f"drf-{space}-create", (b"\x01" if space == "recipe" else b"\x02") + b"\x00\x00" + scripted(answer))
        pages = [request("GET", tasks + ("?limit=2" if space == "recipe" else ""))]
        nxt = json.loads(pages[0][2]).get("next")
        while nxt and len(pages) < 4:
            pages.append(request("GET", nxt))
            nxt = json.loads(pages[-1][2]).get("next")
        save("rest-pull", f"drf-{space}", (b"\x01" if space == "recipe" else b"\x02") + b"\x00" + scripted(*pages))
        for page in pages:
            keep_json("drf-list", page[2])
            save("rest-headers", f"drf-{space}", scripted(page))
        save("rest-headers", f"drf-{space}-redirect", scripted(request("GET", tasks.rstrip("/"))))
        save("rest-headers", f"drf-{space}-404", scripted(request("GET", tasks + "?page=99")))
        save("rest-headers", f"drf-{space}-html", scripted(request("GET", tasks + "missing/", headers={"Accept": "text/html"})))


if "--kinto" in ARGS:
    kinto(ARGS["--kinto"].rstrip("/"))
if "--rails" in ARGS:
    rails(ARGS["--rails"].rstrip("/"))
if "--drf" in ARGS:
    drf(ARGS["--drf"].rstrip("/"))
