"""Test helpers over the presence store (games/presence.py) that the site never needs."""

from __future__ import annotations

import time

from games import presence as store


def open_socket_count(now: float | None = None) -> int:
    """Table sockets of this run (its key prefix) counted as open right now."""
    now = time.time() if now is None else now
    return int(store.client().zcount(store._key("all"), f"({now}", "+inf"))


def clear_table(table_id: int) -> None:
    """Forget a table's presence."""
    store.client().delete(store._key("t", table_id), store._key("gone", table_id),
                          store._key("human", table_id))
