from rest_framework import serializers

from .models import SyncedTask, Task
from .offline_store import SyncedSerializer


class TaskSerializer(serializers.ModelSerializer):
    class Meta:
        model = Task
        fields = ["id", "title", "done", "updated_at"]

    def validate_title(self, value):
        if value == "!boom":  # the tests' way to make the server fail with its HTML 500 page
            raise RuntimeError("a test asked for a server error")
        return value


class SyncedTaskSerializer(SyncedSerializer):
    class Meta:
        model = SyncedTask
        fields = ["id", "title", "done", "version", "updated_at", "deleted_at"]

    validate_title = TaskSerializer.validate_title
