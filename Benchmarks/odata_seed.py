"""Fills an entity set of the OData test server (scripts/odata-server) with COUNT entities,
sent as JSON $batch requests of BATCH creates each (no atomicity group), over one
keep-alive connection. Tasks get the Guids 00000000-0000-4000-8000-<n, 12 digits>;
Customers get server keys. Prints the number of entities created and the seconds taken.

Usage: odata_seed.py URL COUNT [Tasks|Customers] [BATCH]
  URL is the service root that `scripts/odata-server start` printed.
"""
import base64
import http.client
import json
import sys
import time
from urllib.parse import urlsplit

AUTH = "Basic " + base64.b64encode(b"writer:writer").decode()


def entity(entity_set, n):
    if entity_set == "Tasks":
        return {"ID": "00000000-0000-4000-8000-%012d" % n, "Title": "Item number %d" % n,
                "Done": n % 2 == 0, "Priority": n % 5}
    return {"Name": "Customer %d" % n, "Email": "c%d@example.org" % n}


def main():
    url, count = sys.argv[1], int(sys.argv[2])
    entity_set = sys.argv[3] if len(sys.argv) > 3 else "Tasks"
    batch = int(sys.argv[4]) if len(sys.argv) > 4 else 200
    if entity_set not in ("Tasks", "Customers"):
        sys.exit("odata_seed.py: the entity set is Tasks or Customers, not %r" % entity_set)
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=300)
    created = 0
    start = time.perf_counter()
    for first in range(0, count, batch):
        requests = [{"id": str(n), "method": "POST", "url": entity_set, "body": entity(entity_set, n)}
                    for n in range(first, min(first + batch, count))]
        connection.request("POST", parts.path + "/$batch", body=json.dumps({"requests": requests}),
                           headers={"Authorization": AUTH, "Content-Type": "application/json"})
        reply = connection.getresponse()
        body = reply.read()
        if reply.status != 200:
            sys.exit("odata_seed.py: $batch answered %d: %s" % (reply.status, body[:300]))
        statuses = [r["status"] for r in json.loads(body)["responses"]]
        failed = [s for s in statuses if s != 201]
        if failed:
            sys.exit("odata_seed.py: %d creates failed, statuses %s" % (len(failed), sorted(set(failed))))
        created += len(statuses)
    print(created, round(time.perf_counter() - start, 3))


if __name__ == "__main__":
    main()
