"""The suite's PostgreSQL databases are copies of a migrated template (tests/template_database.py):
a copy must hold every migration and nothing a previous copy of the same name held."""

from __future__ import annotations

import os

import psycopg
import pytest
from django.db import connection
from django.db.migrations.loader import MigrationLoader

from tests.template_database import PREFIX, create_migrated_database, drop_database, migrations_hash

pytestmark = pytest.mark.django_db


@pytest.fixture
def server_url() -> str:
    if connection.vendor != "postgresql":
        pytest.skip("the template is used on PostgreSQL only")
    return os.environ["DATABASE_URL"].rsplit("/", 1)[0]


def test_a_copy_holds_every_migration_and_nothing_older(server_url: str) -> None:
    name = f"{connection.settings_dict['NAME']}_copy"
    create_migrated_database(name, server_url)
    try:
        with psycopg.connect(f"{server_url}/{name}", autocommit=True) as copy:
            copy.execute("CREATE TABLE left_behind (id int)")
        create_migrated_database(name, server_url)
        with psycopg.connect(f"{server_url}/{name}", autocommit=True) as copy:
            applied = set(copy.execute("SELECT app, name FROM django_migrations").fetchall())
            left = copy.execute("SELECT to_regclass('left_behind')").fetchone()
    finally:
        drop_database(name, server_url)
    on_disk = set(MigrationLoader(None, ignore_no_migrations=True).disk_migrations)
    assert on_disk <= applied
    assert left == (None,)
    with psycopg.connect(f"{server_url}/postgres", autocommit=True) as server:
        templates = [row[0] for row in server.execute(
            "SELECT datname FROM pg_database WHERE datname LIKE %s AND datname NOT LIKE %s",
            [PREFIX + "%", "%\\_building"])]  # a killed build's leftover is not a template
    assert templates == [PREFIX + migrations_hash()]
