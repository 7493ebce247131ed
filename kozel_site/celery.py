"""The Celery app, configured from the ``CELERY_*`` Django settings (STYLE f)."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kozel_site.settings.base")

app = Celery("kozel_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
