"""Baselines against the OData test server (scripts/odata-server), for the OData bench rows.

Usage:
  odata_baseline.py read-client URL ENTITY_SET   every page through odatapy's client
                                                 (ODataClient over httpx, following nextLink)
  odata_baseline.py read-raw URL ENTITY_SET      the same pages by raw GETs (http.client, one
                                                 keep-alive connection, json.loads per page)
  odata_baseline.py create-raw URL COUNT         COUNT creates of Tasks, one POST each over one
                                                 keep-alive connection (random Guids, so it can rerun)
  odata_baseline.py create-batch URL COUNT BATCH COUNT creates of Tasks as JSON $batch requests of
                                                 BATCH creates each (no atomicity group), each
                                                 create with the store's headers, bodies
                                                 built beforehand, sent back to back over one
                                                 keep-alive connection: the raw-HTTP limit of a
                                                 batched flush (random Guids)
Each prints: entities, pages (or requests), seconds. URL is the service root that
`scripts/odata-server start` printed; the user is writer/writer.
"""
import base64
import http.client
import json
import sys
import time
import uuid
from urllib.parse import urlsplit

USER, PASSWORD = "writer", "writer"
AUTH = "Basic " + base64.b64encode(("%s:%s" % (USER, PASSWORD)).encode()).decode()
#: The headers ODataBackend gives each create inside a $batch (ODataBackend+Push), so that the
#: raw limit asks the service for exactly the work the store asks for.
REQUEST_HEADERS = {"Content-Type": "application/json", "Prefer": "return=representation"}


def read_client(url, entity_set):
    from odatapy.client import ODataClient
    from odatapy.client.auth import BasicAuth
    from odatapy.client.transport import HttpxTransport

    transport = HttpxTransport(auth=BasicAuth(USER, PASSWORD), timeout=300)
    client = ODataClient(url, transport)
    start = time.perf_counter()
    entities = pages = 0
    for page in client.iter_pages(client.entity_set_uri(entity_set)):
        pages += 1
        entities += len(page.entities)
    return entities, pages, time.perf_counter() - start


def read_raw(url, entity_set):
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=300)
    target = parts.path + "/" + entity_set
    start = time.perf_counter()
    entities = pages = 0
    while target:
        connection.request("GET", target, headers={"Authorization": AUTH, "Accept": "application/json"})
        reply = connection.getresponse()
        body = reply.read()
        if reply.status != 200:
            sys.exit("odata_baseline.py: GET %s answered %d: %s" % (target, reply.status, body[:300]))
        page = json.loads(body)
        pages += 1
        entities += len(page["value"])
        next_link = page.get("@odata.nextLink")
        target = None
        if next_link:
            following = urlsplit(next_link)
            target = following.path + ("?" + following.query if following.query else "")
    return entities, pages, time.perf_counter() - start


def create_raw(url, count):
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=300)
    headers = {"Authorization": AUTH, "Content-Type": "application/json", "Prefer": "return=minimal"}
    start = time.perf_counter()
    for n in range(count):
        body = json.dumps({"ID": str(uuid.uuid4()), "Title": "Created %d" % n,
                           "Done": False})
        connection.request("POST", parts.path + "/Tasks", body=body, headers=headers)
        reply = connection.getresponse()
        reply.read()
        if reply.status not in (201, 204):
            sys.exit("odata_baseline.py: create %d answered %d" % (n, reply.status))
    return count, count, time.perf_counter() - start


def create_batch(url, count, batch):
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=300)
    headers = {"Authorization": AUTH, "Content-Type": "application/json"}
    bodies = []
    for first in range(0, count, batch):
        requests = [{"id": str(n), "method": "POST", "url": "Tasks",
                     "body": {"ID": str(uuid.uuid4()), "Title": "Created %d" % n, "Done": False},
                     "headers": REQUEST_HEADERS}
                    for n in range(first, min(first + batch, count))]
        bodies.append(json.dumps({"requests": requests}))
    start = time.perf_counter()
    for body in bodies:
        connection.request("POST", parts.path + "/$batch", body=body, headers=headers)
        reply = connection.getresponse()
        answer = reply.read()
        if reply.status != 200:
            sys.exit("odata_baseline.py: $batch answered %d: %s" % (reply.status, answer[:300]))
        failed = [r["status"] for r in json.loads(answer)["responses"] if r["status"] != 201]
        if failed:
            sys.exit("odata_baseline.py: %d creates failed, statuses %s" % (len(failed), sorted(set(failed))))
    return count, len(bodies), time.perf_counter() - start


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "create-batch":
        result = create_batch(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
        print(result[0], result[1], round(result[2], 3))
        return
    if len(sys.argv) != 4 or sys.argv[1] not in ("read-client", "read-raw", "create-raw"):
        sys.exit(__doc__)
    command, url, argument = sys.argv[1:]
    if command == "read-client":
        result = read_client(url, argument)
    elif command == "read-raw":
        result = read_raw(url, argument)
    else:
        result = create_raw(url, int(argument))
    print(result[0], result[1], round(result[2], 3))


if __name__ == "__main__":
    main()
