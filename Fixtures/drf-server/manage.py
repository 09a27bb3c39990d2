#!/usr/bin/env python3
"""The OfflineStore DRF test server's manage.py (scripts/drf-server runs it)."""
import os
import sys

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "drfserver.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
