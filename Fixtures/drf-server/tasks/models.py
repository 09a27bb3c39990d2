from django.db import models

from .offline_store import IdempotencyKey, SyncedModel  # noqa: F401 (IdempotencyKey: a model of this app)


class Task(models.Model):
    """A task as DRF's tutorial would write it: no version, no soft delete."""

    space = models.CharField(max_length=64, db_index=True)
    title = models.CharField(max_length=200)
    done = models.BooleanField(default=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["id"]


class SyncedTask(SyncedModel):
    """The same task with the recipe's version, updated_at and deleted_at."""

    space = models.CharField(max_length=64, db_index=True)
    title = models.CharField(max_length=200)
    done = models.BooleanField(default=False)
