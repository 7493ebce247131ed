"""Who has a table open right now: heartbeats with an expiry, kept in Redis.

Why not counters in the database (what we had): a counter is decremented only by a
clean disconnect, so a crashed consumer, a killed web process or a dropped network left
a seat "connected" and a spectator counted for ever. Here every open socket is an
entry with an expiry time, refreshed by its own heartbeat every ``HEARTBEAT`` seconds
(games/consumers.py). A socket that dies in any way stops refreshing and is counted as
gone at most ``TTL`` seconds after its last heartbeat; a clean close removes it at once.
The beat sweep reaps expired entries and tells the tables concerned (services/absence.py).

Keys (all under the run's Redis prefix):
- ``presence:t:<table>``: sorted set of ``<conn>|<user id or 0>``, scored by expiry;
- ``presence:all``: the same entries as ``<table>|<conn>|<user>`` for the reaper;
- ``presence:gone:<table>``: hash user id -> when their last socket went away;
- ``presence:human:<table>``: when a signed-in person was last seen at the table;
- ``presence:pages``: every open page socket (accounts/social/consumers.py, one per page
  of a signed-in person) as ``<user id>|<conn>``, scored by expiry. "Online" for friends
  is a page socket or a table socket (:func:`online_among`).

Presence is advisory (it decides who *looks* online and starts absence countdowns);
game data never lives here, so losing Redis only makes everyone look away until their
next heartbeat.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import redis
from django.conf import settings

KEY_TTL_SECONDS = 24 * 3600  # idle tables' keys fade away on their own


def heartbeat_seconds() -> float:
    """How often an open socket refreshes its entry."""
    return float(getattr(settings, "KOZEL_PRESENCE_HEARTBEAT_SECONDS", 10.0))


def ttl_seconds() -> float:
    """How long an entry lives without a heartbeat: three missed beats."""
    return 3 * heartbeat_seconds()


@lru_cache(maxsize=4)
def _client_for(url: str) -> redis.Redis:
    # One connection pool per process (thread-safe); no state of ours lives in it.
    return redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5,
                                health_check_interval=30)


def client() -> redis.Redis:
    return _client_for(settings.REDIS_URL)


def _key(*parts: object) -> str:
    return ":".join([settings.REDIS_PREFIX, "presence", *map(str, parts)])


@dataclass(frozen=True)
class Connection:
    """One live socket at a table."""

    conn: str
    user_id: int | None


def _member(conn: str, user_id: int | None) -> str:
    return f"{conn}|{user_id or 0}"


def _parse(member: bytes | str) -> Connection:
    text = member.decode() if isinstance(member, bytes) else member
    conn, _, user = text.rpartition("|")
    return Connection(conn, int(user) or None)


def person_id(user: Any) -> int | None:
    """The id an entry records for ``user``: a signed-in person's, None for anyone else."""
    return user.pk if user is not None and user.is_authenticated else None


def touch(table_id: int, conn: str, user_id: int | None, now: float | None = None) -> str:
    """A socket is open (its connect, then each heartbeat). Returns the Redis server's
    run id (a new one after every restart), read in the same round trip."""
    now = time.time() if now is None else now
    expires = now + ttl_seconds()
    member = _member(conn, user_id)
    pipe = client().pipeline(transaction=False)
    pipe.zadd(_key("t", table_id), {member: expires})
    pipe.expire(_key("t", table_id), KEY_TTL_SECONDS)
    pipe.zadd(_key("all"), {f"{table_id}|{member}": expires})
    if user_id:
        pipe.hdel(_key("gone", table_id), str(user_id))
        pipe.set(_key("human", table_id), now, ex=KEY_TTL_SECONDS)
    pipe.info("server")
    return str(pipe.execute()[-1].get("run_id"))


def drop(table_id: int, conn: str, user_id: int | None, now: float | None = None) -> bool:
    """A socket closed cleanly. True when it was the user's last one at this table."""
    now = time.time() if now is None else now
    member = _member(conn, user_id)
    pipe = client().pipeline(transaction=False)
    pipe.zrem(_key("t", table_id), member)
    pipe.zrem(_key("all"), f"{table_id}|{member}")
    pipe.execute()
    if not user_id:
        return False
    client().set(_key("human", table_id), now, ex=KEY_TTL_SECONDS)
    return _mark_gone_if_last(table_id, user_id, now)


def _mark_gone_if_last(table_id: int, user_id: int, since: float) -> bool:
    if user_id in live_user_ids(table_id):
        return False
    pipe = client().pipeline(transaction=False)
    pipe.hset(_key("gone", table_id), str(user_id), since)
    pipe.expire(_key("gone", table_id), KEY_TTL_SECONDS)
    pipe.execute()
    return True


def live(table_id: int, now: float | None = None) -> list[Connection]:
    """The sockets open at a table now (expired entries are not counted)."""
    now = time.time() if now is None else now
    members = client().zrangebyscore(_key("t", table_id), f"({now}", "+inf")
    return [_parse(m) for m in members]


def live_user_ids(table_id: int, now: float | None = None) -> set[int]:
    return {c.user_id for c in live(table_id, now) if c.user_id}


def live_counts(table_ids: Iterable[int], now: float | None = None) -> dict[int, list[Connection]]:
    """``live`` for many tables in one round trip (the lobby list)."""
    ids = list(table_ids)
    now = time.time() if now is None else now
    pipe = client().pipeline(transaction=False)
    for table_id in ids:
        pipe.zrangebyscore(_key("t", table_id), f"({now}", "+inf")
    return {t: [_parse(m) for m in members] for t, members in zip(ids, pipe.execute(),
                                                                    strict=True)}


def absent_since(table_id: int, user_id: int, now: float | None = None) -> float | None:
    """None while the user has a socket open at the table; else since when they are
    away (their last socket's close or last heartbeat), or 0.0 if never seen."""
    if user_id in live_user_ids(table_id, now):
        return None
    since = client().hget(_key("gone", table_id), str(user_id))
    return float(since) if since is not None else 0.0


def away_since_many(table_id: int, user_ids: Iterable[int],
                    now: float | None = None) -> dict[int, float]:
    """:func:`absent_since` for several people in one round trip: each of ``user_ids``
    with no live socket at the table, mapped to since when they are away (0.0: never
    seen). Those present are left out."""
    wanted = sorted(set(user_ids))
    if not wanted:
        return {}
    now = time.time() if now is None else now
    pipe = client().pipeline(transaction=False)
    pipe.zrangebyscore(_key("t", table_id), f"({now}", "+inf")
    pipe.hmget(_key("gone", table_id), [str(u) for u in wanted])
    members, gone = pipe.execute()
    live_ids = {c.user_id for c in map(_parse, members) if c.user_id}
    return {user_id: float(since) if since is not None else 0.0
            for user_id, since in zip(wanted, gone, strict=True) if user_id not in live_ids}


def human_last_seen(table_id: int) -> float | None:
    """When a signed-in person last had this table open (None: not in a day)."""
    value = client().get(_key("human", table_id))
    return float(value) if value is not None else None


def reap(now: float | None = None) -> dict[int, set[int]]:
    """Remove entries whose heartbeat stopped (a crash, a killed process, a dead
    network). Returns, per table touched, the users who are now gone from it."""
    now = time.time() if now is None else now
    expired = client().zrangebyscore(_key("all"), "-inf", now)
    if not expired:
        return {}
    ttl = ttl_seconds()
    by_table: dict[int, list[tuple[str, float]]] = {}
    scores = client().zmscore(_key("all"), expired)
    pipe = client().pipeline(transaction=False)
    for raw, score in zip(expired, scores, strict=True):
        text = raw.decode()
        table, _, member = text.partition("|")
        pipe.zrem(_key("all"), text)
        pipe.zrem(_key("t", table), member)
        by_table.setdefault(int(table), []).append((member, (score or now) - ttl))
    pipe.execute()
    gone: dict[int, set[int]] = {}
    for table_id, members in by_table.items():
        gone[table_id] = set()
        for member, last_beat in members:
            user_id = _parse(member).user_id
            if user_id and _mark_gone_if_last(table_id, user_id, last_beat):
                gone[table_id].add(user_id)
    return gone


def online(now: float | None = None) -> dict[int, set[int]]:
    """Signed-in people with a table open right now: user id -> the tables they have
    open (one round trip; anonymous sockets are left out)."""
    now = time.time() if now is None else now
    found: dict[int, set[int]] = {}
    for raw in client().zrangebyscore(_key("all"), f"({now}", "+inf"):
        table, _, member = raw.decode().partition("|")
        user_id = _parse(member).user_id
        if user_id:
            found.setdefault(user_id, set()).add(int(table))
    return found


# --- Page sockets ----------------------------------------------------------------------

def _page_members(user_id: int, now: float) -> list[bytes]:
    return [m for m in client().zrangebyscore(_key("pages"), f"({now}", "+inf")
            if m.decode().partition("|")[0] == str(user_id)]


def touch_page(user_id: int, conn: str, now: float | None = None) -> bool:
    """Refresh one page socket; True when the user had no live page socket before."""
    now = time.time() if now is None else now
    was = bool(_page_members(user_id, now))
    pipe = client().pipeline(transaction=False)
    pipe.zremrangebyscore(_key("pages"), "-inf", now)  # forget the dead on the way
    pipe.zadd(_key("pages"), {f"{user_id}|{conn}": now + ttl_seconds()})
    pipe.execute()
    return not was


def drop_page(user_id: int, conn: str, now: float | None = None) -> bool:
    """A page socket's clean close; True when that was the user's last page socket."""
    now = time.time() if now is None else now
    client().zrem(_key("pages"), f"{user_id}|{conn}")
    return not _page_members(user_id, now)


def _on_pages(now: float) -> set[int]:
    return {int(m.decode().partition("|")[0])
            for m in client().zrangebyscore(_key("pages"), f"({now}", "+inf")}


def on_pages(now: float | None = None) -> set[int]:
    """Everyone with a page socket open right now (before privacy); empty when Redis
    does not answer (presence is advisory)."""
    try:
        return _on_pages(time.time() if now is None else now)
    except Exception:  # noqa: BLE001 - presence is advisory: nobody looks online
        return set()


def online_among(user_ids: Iterable[int], now: float | None = None) -> set[int]:
    """Which of ``user_ids`` have a page or a table of the site open (before privacy)."""
    wanted = set(user_ids)
    if not wanted:
        return set()
    now = time.time() if now is None else now
    try:
        found = _on_pages(now) | set(online(now))
    except Exception:  # noqa: BLE001 - presence is advisory: nobody looks online
        return set()
    return found & wanted
