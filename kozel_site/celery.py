"""The Celery app, configured from the ``CELERY_*`` Django settings (STYLE f)."""

from __future__ import annotations

import os

from celery import Celery

from kozel_site import kombu_fixes

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kozel_site.settings.base")

# A Redis restart must not kill the workers (kozel_site/kombu_fixes.py).
kombu_fixes.install()
app = Celery("kozel_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
