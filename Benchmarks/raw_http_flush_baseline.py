"""The flush's raw-HTTP limit: the same creates as kinto_http_baseline.py, sent as
sequential `POST /batch` requests of 25 `PUT`s with `If-None-Match: *` (Kinto's default
batch_max_requests), the bodies built before the clock starts, over one keep-alive
connection (requests.Session). No client logic at all: what the server allows.
Prints the seconds taken.

Usage: raw_http_flush_baseline.py URL COUNT COLLECTION BUCKET
"""
import sys
import time

import requests


def main():
    url, count, collection, bucket = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    session = requests.Session()
    session.auth = ("bench", "bench")
    session.put(f"{url}/buckets/{bucket}", headers={"If-None-Match": "*"})
    session.put(f"{url}/buckets/{bucket}/collections/{collection}", headers={"If-None-Match": "*"})
    path = f"/buckets/{bucket}/collections/{collection}/records/"
    # The same objects as the Swift side's Fixtures.object(i).
    items = [
        {"method": "PUT", "path": path + "item-%d" % i, "headers": {"If-None-Match": "*"},
         "body": {"data": {"title": "Item number %d" % i, "done": i % 2 == 0, "n": i, "tags": ["bench", "fixture"]}}}
        for i in range(count)
    ]
    batches = [{"requests": items[i:i + 25]} for i in range(0, count, 25)]
    start = time.perf_counter()
    for batch in batches:
        answer = session.post(f"{url}/batch", json=batch)
        if answer.status_code != 200 or any(r["status"] != 201 for r in answer.json()["responses"]):
            sys.exit("a batch was not applied: %s" % answer.text[:200])
    seconds = time.perf_counter() - start
    print(seconds)


if __name__ == "__main__":
    main()
