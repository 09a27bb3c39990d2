"""The refresh baseline: the official Python client kinto-http reading a whole collection
(`client.get_records()`, which follows Next-Page) and storing every record with
`executemany` into a sqlite3 table (WAL, synchronous=NORMAL, one transaction), as a
minimal offline copy would. Prints the seconds taken and the number of records.

Usage: kinto_http_refresh_baseline.py URL BUCKET COLLECTION DB_PATH
"""
import json
import logging
import sqlite3
import sys
import time

from kinto_http import Client


def main():
    logging.disable(logging.INFO)
    url, bucket, collection, path = sys.argv[1:5]
    client = Client(server_url=url, auth=("bench", "bench"), bucket=bucket, collection=collection)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute("CREATE TABLE records (id TEXT PRIMARY KEY, data TEXT NOT NULL, last_modified INTEGER NOT NULL)")
    start = time.perf_counter()
    records = client.get_records()
    rows = []
    for r in records:
        last_modified = r.pop("last_modified")
        rows.append((r["id"], json.dumps(r, separators=(",", ":"), sort_keys=True), last_modified))
    db.execute("BEGIN")
    db.executemany("INSERT INTO records (id, data, last_modified) VALUES (?, ?, ?)", rows)
    db.execute("COMMIT")
    seconds = time.perf_counter() - start
    db.close()
    print(seconds, len(rows))


if __name__ == "__main__":
    main()
