import json

from django.db import transaction
from django.http import JsonResponse
from django.views.decorators.csrf import csrf_exempt
from rest_framework import pagination, viewsets

from .models import SyncedTask, Task
from .offline_store import OfflineStoreMixin
from .serializers import SyncedTaskSerializer, TaskSerializer


class FiftyPerPage(pagination.PageNumberPagination):
    page_size = 50


class LimitAndOffset(pagination.LimitOffsetPagination):
    default_limit = 100
    max_limit = 1000


class PlainTaskViewSet(viewsets.ModelViewSet):
    """DRF's defaults: page numbers of 50 in a {count, next, previous, results} envelope,
    last write wins, hard deletes, no change feed."""

    serializer_class = TaskSerializer
    pagination_class = FiftyPerPage

    def get_queryset(self):
        return Task.objects.filter(space=self.kwargs["space"])

    def perform_create(self, serializer):
        serializer.save(space=self.kwargs["space"])


class SyncedTaskViewSet(OfflineStoreMixin, viewsets.ModelViewSet):
    """The same resource with the server recipe, paged by limit and offset."""

    queryset = SyncedTask.objects.all()
    serializer_class = SyncedTaskSerializer
    pagination_class = LimitAndOffset

    def get_queryset(self):
        return super().get_queryset().filter(space=self.kwargs["space"])  # the recipe's feed, in this space

    def perform_create(self, serializer):
        serializer.save(space=self.kwargs["space"])


@csrf_exempt
def seed(request, variant, space):
    """Test support: POST {"count": N} makes N tasks "seed-1"… in one transaction."""
    count = int(json.loads(request.body or b"{}").get("count", 0))
    model = {"plain": Task, "recipe": SyncedTask}[variant]
    with transaction.atomic():
        for index in range(1, count + 1):  # one save each, so each gets its own updated_at
            model.objects.create(space=space, title=f"seed-{index}")
    return JsonResponse({"created": count}, status=201)
