"""Settings of the OfflineStore DRF test server: Django 5.2 + DRF 3.18 on SQLite, loopback only.

The database file is $DRF_DB (scripts/drf-server puts it in its state directory). DEBUG is off,
so a server error is Django's plain HTML 500 page, as in production.
"""
import os

BASE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SECRET_KEY = "offline-store-test-server"  # loopback test server only
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
USE_TZ = True
TIME_ZONE = "UTC"
ROOT_URLCONF = "drfserver.urls"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

INSTALLED_APPS = [
    "django.contrib.contenttypes",
    "django.contrib.auth",
    "rest_framework",
    "tasks",
]
# CommonMiddleware's APPEND_SLASH answers a route without its trailing slash with a 301.
MIDDLEWARE = ["django.middleware.common.CommonMiddleware"]
MIGRATION_MODULES = {"tasks": None}  # tables made by `migrate --run-syncdb`

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": os.environ.get("DRF_DB", os.path.join(BASE_DIR, "db.sqlite3")),
        "OPTIONS": {"timeout": 30, "transaction_mode": "IMMEDIATE", "init_command": "PRAGMA journal_mode=WAL;"},
    }
}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "UNAUTHENTICATED_USER": None,
}

LOGGING = {
    "version": 1,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {"django.request": {"handlers": ["console"], "level": "ERROR"}},
}
