"""Who has a page of the site open: heartbeats with an expiry in Redis, like the table
sockets' presence (games/presence.py), for the per-user page socket (consumers.py).

"Online" for friends (issue 17) is either: a page socket here, or a table socket there.
A page socket that dies without a clean close stops refreshing and counts as gone at
most ``games.presence.ttl_seconds()`` after its last heartbeat.

Key: ``presence:pages``, a sorted set of ``<user id>|<connection>`` scored by expiry.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import cast

from django.conf import settings

from games import presence as table_presence


def _key() -> str:
    return f"{settings.REDIS_PREFIX}:presence:pages"


def _live(now: float) -> list[bytes]:
    """The members whose expiry is after ``now``."""
    # redis-py types replies for its sync and async clients at once; this client is sync
    # and does not decode, so a member is bytes.
    return cast(list[bytes], table_presence.client().zrangebyscore(_key(), f"({now}", "+inf"))


def _members_of(user_id: int, now: float) -> list[bytes]:
    return [m for m in _live(now)
            if m.decode().partition("|")[0] == str(user_id)]


def touch(user_id: int, conn: str, now: float | None = None) -> bool:
    """Refresh one page socket; True when the user had no live page socket before."""
    now = time.time() if now is None else now
    client = table_presence.client()
    was = bool(_members_of(user_id, now))
    pipe = client.pipeline(transaction=False)
    pipe.zremrangebyscore(_key(), "-inf", now)  # forget the dead on the way
    pipe.zadd(_key(), {f"{user_id}|{conn}": now + table_presence.ttl_seconds()})
    pipe.execute()
    return not was


def drop(user_id: int, conn: str, now: float | None = None) -> bool:
    """A clean close; True when that was the user's last page socket."""
    now = time.time() if now is None else now
    table_presence.client().zrem(_key(), f"{user_id}|{conn}")
    return not _members_of(user_id, now)


def on_pages(now: float | None = None) -> set[int]:
    """Everyone with a page socket open right now (before privacy); empty when Redis
    does not answer (presence is advisory)."""
    now = time.time() if now is None else now
    try:
        return {int(m.decode().partition("|")[0])
                for m in _live(now)}
    except Exception:  # noqa: BLE001 - presence is advisory: nobody looks online
        return set()


def online_among(user_ids: Iterable[int], now: float | None = None) -> set[int]:
    """Which of ``user_ids`` have a page or a table of the site open (before privacy)."""
    wanted = set(user_ids)
    if not wanted:
        return set()
    now = time.time() if now is None else now
    try:
        pages = {int(m.decode().partition("|")[0])
                 for m in _live(now)}
        tables = set(table_presence.online(now))
    except Exception:  # noqa: BLE001 - presence is advisory: nobody looks online
        return set()
    return (pages | tables) & wanted
