"""The Celery app, configured from the ``CELERY_*`` Django settings (STYLE f)."""

from __future__ import annotations

import os

from celery import Celery, signals
from django.db import close_old_connections

from kozel_site import kombu_fixes

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kozel_site.settings.base")

# A Redis restart must not kill the workers (kozel_site/kombu_fixes.py).
kombu_fixes.install()
app = Celery("kozel_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Celery's Django fixup closes every database connection before and after each task
# unless CELERY_DB_REUSE_MAX is set: with turn clocks every timeout task opened a new
# PostgreSQL connection (a backend process each). The fixup now closes them only every
# so many tasks; Django's own rules (CONN_MAX_AGE, health checks, a connection left
# broken) run around each task instead.
app.conf.update(CELERY_DB_REUSE_MAX=1000)


@signals.task_prerun.connect
@signals.task_postrun.connect
def _close_old_connections(**kwargs: object) -> None:
    close_old_connections()

