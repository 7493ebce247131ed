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
# unless CELERY_DB_REUSE_MAX is set: at 100 tables with a turn clock each timeout task
# opened a new PostgreSQL connection (a backend process each, ~70 a second), and once
# those tasks came due the live tables' p50/p99 rose to 82-412/421-1019 ms per 10 s
# (python -m tests.load play --clock 60; py-spy on a worker: 24 % of its samples
# connecting). The fixup now closes them only every 2,000 tasks; Django's own rules
# (CONN_MAX_AGE, health checks, a connection left broken) run around each task instead.
app.conf.update(CELERY_DB_REUSE_MAX=1000)


@signals.task_prerun.connect
@signals.task_postrun.connect
def _close_old_connections(**kwargs: object) -> None:
    close_old_connections()

