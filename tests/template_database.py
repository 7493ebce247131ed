"""Fresh PostgreSQL databases copied from a migrated template, for the tests and the
load harness.

Running the project's migrations costs about 17 s of CPU, most of it Django rendering
model states; copying a migrated database with ``CREATE DATABASE … TEMPLATE`` costs well
under one. So the migrations run once per migration state on a machine: the template is
named after a hash of every migration file, and a new migration makes a new template
(the old ones are dropped). The build happens under a name of its own and is renamed
only when the migrations succeeded, so a killed build never leaves a half-migrated
template. A PostgreSQL advisory lock makes concurrent callers (pytest-xdist workers, two
CI steps side by side) wait for one build instead of racing it.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parents[1]
PREFIX = "kozel_tpl_"
#: Any fixed 64-bit number: the advisory lock the template's build and copies take.
LOCK_KEY = 0x6B6F7A656C545031


def migrations_hash() -> str:
    """A hash of every migration file of the project (names and contents)."""
    digest = hashlib.sha1()
    for path in sorted(ROOT.glob("*/**/migrations/*.py")):
        if ".venv" in path.parts:
            continue
        digest.update(str(path.relative_to(ROOT)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _server(database_url: str) -> psycopg.Connection:
    """A connection to the ``postgres`` database of the server ``database_url`` is on."""
    return psycopg.connect(f"{server_url(database_url)}/postgres", autocommit=True)


def server_url(database_url: str) -> str:
    """``postgres://user@host:port/name`` without its database name."""
    return database_url.rsplit("/", 1)[0]


def _exists(conn: psycopg.Connection, name: str) -> bool:
    found = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
    return found is not None


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _build(conn: psycopg.Connection, template: str, database_url: str) -> None:
    """Migrate a new database and give it the template's name once that succeeded."""
    building = f"{template}_building"
    conn.execute(f"DROP DATABASE IF EXISTS {_quoted(building)} WITH (FORCE)")
    conn.execute(f"CREATE DATABASE {_quoted(building)}")
    env = {**os.environ, "DATABASE_URL": f"{server_url(database_url)}/{building}",
           "DJANGO_SETTINGS_MODULE": "kozel_site.settings.base"}
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
                   cwd=ROOT, env=env, check=True)
    conn.execute(f"ALTER DATABASE {_quoted(building)} RENAME TO {_quoted(template)}")
    stale = conn.execute("SELECT datname FROM pg_database WHERE datname LIKE %s AND datname <> %s",
                         [PREFIX + "%", template]).fetchall()
    for (name,) in stale:
        conn.execute(f"DROP DATABASE IF EXISTS {_quoted(name)} WITH (FORCE)")


def create_migrated_database(name: str, database_url: str) -> None:
    """(Re)create database ``name`` as a copy of the migrated template, building the
    template first if this migration state has none yet.

    ``database_url`` is the URL of any database on the server; the server must have a
    ``postgres`` database.
    """
    template = PREFIX + migrations_hash()
    with _server(database_url) as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", [LOCK_KEY])
        try:
            if not _exists(conn, template):
                _build(conn, template, database_url)
            conn.execute(f"DROP DATABASE IF EXISTS {_quoted(name)} WITH (FORCE)")
            conn.execute(f"CREATE DATABASE {_quoted(name)} TEMPLATE {_quoted(template)}")
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", [LOCK_KEY])


def drop_database(name: str, database_url: str) -> None:
    """Drop database ``name`` of the server ``database_url`` is on, ending the sessions
    still in it (a worker or server process a test started and that outlived it)."""
    with _server(database_url) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {_quoted(name)} WITH (FORCE)")
