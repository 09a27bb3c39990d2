"""Plain mode's JSON ``$batch``: a failed atomicity group still lists its undone requests.

odatapy answers a failed group with the failing request alone. The framework plain mode
imitates answers every request of the group it ran, with the status each had before the
group was rolled back: 201/200 for the undone ones, then the failure. Requests after the
failure in the group are not run and not listed. Multipart batches stay odatapy's.
"""

from __future__ import annotations

from typing import Any

from odatapy.server.batch import BatchHandler, BatchItem
from odatapy.server.default_processor import DefaultProcessor


class PlainBatchHandler(BatchHandler):
    """odatapy's batch handler with plain mode's answer to a failed atomicity group."""

    def _run_json_group(
        self, items: list[BatchItem], statuses: dict[str, int], references: dict[str, str]
    ) -> tuple[list[dict[str, Any]], bool]:
        transaction = self._transaction_support()
        token = transaction.begin() if transaction is not None else None
        local_statuses: dict[str, int] = {}
        entries: list[dict[str, Any]] = []
        for item in items:
            entry = self._run_json_item(item, {**statuses, **local_statuses}, references)
            if item.content_id:
                local_statuses[item.content_id] = entry["status"]
            entries.append(entry)
            if entry["status"] >= 400:
                if transaction is not None:
                    transaction.rollback(token)
                statuses.update(local_statuses)
                return entries, False
        if transaction is not None:
            transaction.commit(token)
        statuses.update(local_statuses)
        return entries, True


class PlainBatchProcessor(DefaultProcessor):
    """odatapy's default processor, running JSON batches through :class:`PlainBatchHandler`."""

    def process_batch(self, request, response, uri_info) -> None:
        result = PlainBatchHandler(self._owner_handler, request.raw_base_uri or "").process(request)
        response.status_code = result.status_code
        response.content = result.content
        for key, value in result.headers.items():
            response.set_header(key, value)
