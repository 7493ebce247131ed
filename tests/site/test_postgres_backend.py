"""The PostgreSQL backend's health check (kozel_site/postgres): at most once a second
per kept connection, and a connection PostgreSQL dropped is still replaced."""

from __future__ import annotations

import psycopg
import pytest
from django.db import close_old_connections, connection

from kozel_site.postgres.base import HEALTH_CHECK_INTERVAL_S

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def kept_connection(monkeypatch):
    """The default connection, checked by Django and kept between request cycles."""
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's backend")
    monkeypatch.setitem(connection.settings_dict, "CONN_HEALTH_CHECKS", True)
    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", 60)
    connection.close()
    connection.ensure_connection()
    checks: list[bool] = []
    usable = connection.is_usable
    monkeypatch.setattr(connection, "is_usable", lambda: checks.append(usable()) or checks[-1])
    yield checks
    connection.close()


def _one_call() -> int:
    """What a socket's database call does: a request cycle around one statement."""
    close_old_connections()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    close_old_connections()
    return pid


def test_calls_within_a_second_of_the_last_check_are_not_checked_again(kept_connection):
    pid = _one_call()
    assert [_one_call() for _ in range(5)] == [pid] * 5  # kept, not reopened
    assert kept_connection == []
    connection.checked_at -= HEALTH_CHECK_INTERVAL_S
    assert _one_call() == pid
    assert kept_connection == [True]  # checked once the second had passed
    assert _one_call() == pid and kept_connection == [True]


def test_a_connection_postgresql_dropped_is_replaced_after_the_check(kept_connection):
    pid = _one_call()
    params = connection.get_connection_params()
    with psycopg.connect(**{k: v for k, v in params.items() if k != "cursor_factory"},
                         autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
    connection.checked_at -= HEALTH_CHECK_INTERVAL_S
    new_pid = _one_call()
    assert kept_connection == [False] and new_pid != pid
