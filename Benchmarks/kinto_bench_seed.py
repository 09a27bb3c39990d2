"""A Kinto plugin for the refresh benchmarks: fills collections straight through the
server's storage backend when Kinto starts, so a benchmark of reading 200,000 records
does not first spend minutes writing them over HTTP (Kinto's memory backend takes
several milliseconds per record written through the API).

Enable it with `PYTHONPATH=Benchmarks` and, on `scripts/kinto start`:
    --set "kinto.includes=kinto_attachment kinto_bench_seed"
    --set "bench_seed.bucket=bench-refresh" --set "bench_seed.counts=20000 200000"

Each count N makes collection `rN` in the bucket, holding records `item-0` … `item-(N-1)`
shaped like the Swift side's `Fixtures.object(i)`. The bucket is writable by every
authenticated user. An existing collection is left as it is (a restarted PostgreSQL-backed
Kinto keeps its data).
"""
import logging

import transaction

logger = logging.getLogger(__name__)


def record(i):
    return {"id": "item-%d" % i, "title": "Item number %d" % i, "done": i % 2 == 0, "n": i,
            "tags": ["bench", "fixture"]}


def includeme(config):
    settings = config.get_settings()
    bucket = settings.get("bench_seed.bucket", "bench-refresh")
    counts = [int(c) for c in str(settings.get("bench_seed.counts", "")).split()]
    storage = config.registry.storage
    permission = config.registry.permission
    bucket_uri = "/buckets/%s" % bucket
    try:
        storage.get(resource_name="bucket", parent_id="", object_id=bucket)
    except Exception:
        storage.create(resource_name="bucket", parent_id="", obj={"id": bucket})
    permission.add_principal_to_ace(bucket_uri, "write", "system.Authenticated")
    for count in counts:
        name = "r%d" % count
        try:
            storage.get(resource_name="collection", parent_id=bucket_uri, object_id=name)
            continue
        except Exception:
            pass
        storage.create(resource_name="collection", parent_id=bucket_uri, obj={"id": name})
        parent = "%s/collections/%s" % (bucket_uri, name)
        if hasattr(storage, "client"):
            insert_in_postgresql(storage, parent, count)
        else:
            for i in range(count):
                storage.create(resource_name="record", parent_id=parent, obj=record(i))
        transaction.commit()


def insert_in_postgresql(storage, parent, count):
    """One INSERT … SELECT: storage.create costs about 4 ms a record on PostgreSQL. Kinto's
    own trigger (bump_timestamp) gives each row its increasing last_modified, as for
    records written through the API; data holds the record without id and last_modified,
    as Kinto stores it."""
    import sqlalchemy as sa

    query = """
    INSERT INTO objects (id, parent_id, resource_name, data, last_modified, deleted)
    SELECT 'item-' || i, :parent, 'record',
           jsonb_build_object('title', 'Item number ' || i, 'done', i % 2 = 0, 'n', i,
                              'tags', jsonb_build_array('bench', 'fixture')),
           NULL, FALSE
      FROM generate_series(0, :count - 1) AS i
     ORDER BY i
    """
    with storage.client.connect() as conn:
        conn.execute(sa.text(query), {"parent": parent, "count": count})
        logger.info("bench seed: %d records in %s", count, parent)
    transaction.commit()
