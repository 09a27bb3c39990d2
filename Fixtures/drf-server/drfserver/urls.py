"""Routes: /plain/<space>/tasks/ (a ModelViewSet as DRF's tutorial writes it) and
/recipe/<space>/tasks/ (the same with the OfflineStore server recipe). <space> is any name:
each test uses its own, so tests that count records never see another's."""
from django.urls import include, path
from rest_framework.routers import DefaultRouter

from tasks import views

plain = DefaultRouter()
plain.register("tasks", views.PlainTaskViewSet, basename="plain-task")
recipe = DefaultRouter()
recipe.register("tasks", views.SyncedTaskViewSet, basename="synced-task")

urlpatterns = [
    path("plain/<str:space>/", include(plain.urls)),
    path("recipe/<str:space>/", include(recipe.urls)),
    path("seed/<str:variant>/<str:space>/", views.seed),
]
