"""The OfflineStore server recipe for Django REST Framework (Docs/Backends.md, "Server recipes").

Three guarantees a syncing client needs, for any ModelViewSet whose model extends SyncedModel:
  * optimistic concurrency: every record answer has `ETag: "<version>"`; an update or delete
    whose `If-Match` names another version is refused with 412 and the current record;
  * an incremental pull with tombstones: `?updated_since=<updated_at>` lists the records changed
    after it, soft-deleted ones included (`deleted_at` set), in (updated_at, id) order, and
    `updated_at` is always written with microseconds, so marks compare as text;
  * idempotent creates: a POST whose `Idempotency-Key` was seen answers the first record (201).
Resources file: {"path": "/tasks/", "formatSuffix": null, "keyStyle": "identity",
"concurrency": "ifMatch", "versionField": "version", "pull": {"listKey": "results",
"countField": "count", "paging": {"kind": "cursor", "sizeParameter": "limit", "size": 100}}}.
"""
from django.db import IntegrityError, models, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

MARK_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"  # one fixed format: the client compares marks as text


class SyncedModel(models.Model):
    version = models.PositiveIntegerField(default=1)
    updated_at = models.DateTimeField(auto_now=True, db_index=True)
    deleted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True


class IdempotencyKey(models.Model):
    resource = models.CharField(max_length=200)
    key = models.CharField(max_length=200)
    record_id = models.BigIntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["resource", "key"], name="one_record_per_key")]


class SyncedSerializer(serializers.ModelSerializer):
    version = serializers.IntegerField(read_only=True)
    updated_at = serializers.DateTimeField(format=MARK_FORMAT, read_only=True)
    deleted_at = serializers.DateTimeField(format=MARK_FORMAT, read_only=True)


class OfflineStoreMixin:
    """Put it first: class TaskViewSet(OfflineStoreMixin, viewsets.ModelViewSet); a viewset
    that narrows get_queryset calls super().get_queryset() (this one) and filters that."""

    def get_queryset(self):
        records = super().get_queryset()
        if self.action != "list":
            return records.filter(deleted_at__isnull=True)
        since = self.request.query_params.get("updated_since")
        if not since:
            return records.filter(deleted_at__isnull=True).order_by("updated_at", "pk")
        moment = parse_datetime(since)
        if moment is None:
            raise ValidationError({"updated_since": ["not an ISO 8601 date-time"]})
        return records.filter(updated_at__gt=moment).order_by("updated_at", "pk")  # tombstones too

    def idempotency_scope(self):
        return self.request.path  # keys are per collection route

    def create(self, request, *args, **kwargs):
        key = request.headers.get("Idempotency-Key")
        if key and (seen := self.replay(key)) is not None:
            return seen
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            with transaction.atomic():
                self.perform_create(serializer)
                if key:
                    IdempotencyKey.objects.create(resource=self.idempotency_scope(), key=key,
                                                  record_id=serializer.instance.pk)
        except IntegrityError:
            if key and (seen := self.replay(key)) is not None:
                return seen  # the same key, sent twice at once
            raise
        return self.answer(serializer.instance, status.HTTP_201_CREATED)

    def replay(self, key):
        seen = IdempotencyKey.objects.filter(resource=self.idempotency_scope(), key=key).first()
        if seen is None:
            return None
        record = self.get_serializer().Meta.model.objects.get(pk=seen.record_id)  # deleted ones too
        return self.answer(record, status.HTTP_201_CREATED, replayed=True)

    def retrieve(self, request, *args, **kwargs):
        return self.answer(self.get_object())

    def update(self, request, *args, **kwargs):
        with transaction.atomic():
            record = self.get_object()
            if (refused := self.claim(record)) is not None:
                return refused
            serializer = self.get_serializer(record, data=request.data, partial=kwargs.pop("partial", False))
            serializer.is_valid(raise_exception=True)  # rolls the claimed version back
            self.perform_update(serializer)
        return self.answer(serializer.instance)

    def destroy(self, request, *args, **kwargs):
        with transaction.atomic():
            record = self.get_object()
            if (refused := self.claim(record)) is not None:
                return refused
            record.deleted_at = timezone.now()  # a soft delete: the feed shows the tombstone
            record.save()
        return Response(status=status.HTTP_204_NO_CONTENT)

    def claim(self, record):
        """The If-Match check as a compare-and-set of the version; a 412 answer when it fails."""
        wanted = self.request.headers.get("If-Match")
        if wanted not in (None, "*") and wanted.strip('W/"') != str(record.version):
            return self.answer(record, status.HTTP_412_PRECONDITION_FAILED)
        model = type(record)
        if not model.objects.filter(pk=record.pk, version=record.version).update(version=F("version") + 1):
            return self.answer(model.objects.get(pk=record.pk), status.HTTP_412_PRECONDITION_FAILED)
        record.version += 1
        return None

    def answer(self, record, code=status.HTTP_200_OK, replayed=False):
        headers = {"ETag": f'"{record.version}"'}
        if replayed:
            headers["Idempotent-Replayed"] = "true"
        return Response(self.get_serializer(record).data, status=code, headers=headers)
