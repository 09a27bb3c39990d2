"""The flush baseline: the official Python client kinto-http pushing the same records
with its batch API (split at the server's batch_max_requests). Prints the seconds taken.

Usage: kinto_http_baseline.py URL COUNT COLLECTION BUCKET
"""
import logging
import sys
import time

from kinto_http import Client


def main():
    logging.disable(logging.INFO)  # kinto-http logs every batch item
    url, count, collection, bucket = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    client = Client(server_url=url, auth=("bench", "bench"), bucket=bucket, collection=collection)
    client.create_bucket(id=bucket, if_not_exists=True)
    client.create_collection(id=collection, bucket=bucket, if_not_exists=True)
    # The same objects as the Swift side's Fixtures.object(i).
    records = [
        ("item-%d" % i, {"title": "Item number %d" % i, "done": i % 2 == 0, "n": i, "tags": ["bench", "fixture"]})
        for i in range(count)
    ]
    start = time.perf_counter()
    with client.batch() as batch:
        for record_id, data in records:
            batch.create_record(id=record_id, data=data)  # PUT with If-None-Match: *, like ours
    seconds = time.perf_counter() - start
    print(seconds)


if __name__ == "__main__":
    main()
