"""The Kozel site project package: settings, ASGI routing, the Celery app, URLs."""

from kozel_site.celery import app as celery_app

__all__ = ["celery_app"]
