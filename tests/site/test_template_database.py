"""The suite's PostgreSQL databases are copies of a migrated template (tests/template_database.py):
a copy must hold every migration and nothing a previous copy of the same name held."""

from __future__ import annotations

import os

import psycopg
import pytest
from django.db import connection
from django.db.migrations.loader import MigrationLoader

from tests.template_database import (
    PREFIX,
    create_migrated_database,
    drop_database,
    migrations_hash,
    server_url,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def database_url(postgresql: None) -> str:
    return os.environ["DATABASE_URL"]


def test_a_copy_holds_every_migration_and_nothing_older(database_url: str) -> None:
    server = server_url(database_url)
    name = f"{connection.settings_dict['NAME']}_copy"
    create_migrated_database(name, database_url)
    try:
        with psycopg.connect(f"{server}/{name}", autocommit=True) as copy:
            copy.execute("CREATE TABLE left_behind (id int)")
        create_migrated_database(name, database_url)
        with psycopg.connect(f"{server}/{name}", autocommit=True) as copy:
            applied = set(copy.execute("SELECT app, name FROM django_migrations").fetchall())
            left = copy.execute("SELECT to_regclass('left_behind')").fetchone()
    finally:
        drop_database(name, database_url)
    on_disk = set(MigrationLoader(None, ignore_no_migrations=True).disk_migrations)
    assert on_disk <= applied
    assert left == (None,)
    with psycopg.connect(f"{server}/postgres", autocommit=True) as conn:
        templates = [row[0] for row in conn.execute(
            "SELECT datname FROM pg_database WHERE datname LIKE %s AND datname NOT LIKE %s",
            [PREFIX + "%", "%\\_building"])]  # a killed build's leftover is not a template
    assert templates == [PREFIX + migrations_hash()]
