"""/healthz reports the database, Redis and a Celery worker."""

from __future__ import annotations

import pytest


@pytest.mark.worker
@pytest.mark.broker
def test_healthz_is_ok_with_everything_up(client, celery_worker):
    response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 200, body
    assert body["status"] == "ok"
    assert {name: c["status"] for name, c in body["checks"].items()} == {
        "database": "ok", "redis": "ok", "celery": "ok"}


@pytest.mark.django_db
def test_healthz_is_503_when_no_worker_answers(client):
    response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 503
    assert body["status"] == "failing"
    assert body["checks"]["celery"]["status"] == "failing"
    assert "no worker answered" in body["checks"]["celery"]["detail"]
    assert body["checks"]["database"]["status"] == "ok"
    assert body["checks"]["redis"]["status"] == "ok"


@pytest.mark.django_db
def test_healthz_reports_redis_down(client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["checks"]["redis"]["status"] == "failing"


def test_healthz_refuses_post(client):
    assert client.post("/healthz").status_code == 405
