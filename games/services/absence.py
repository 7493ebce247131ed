"""What follows a person's coming and going at a table (games/presence.py holds the
heartbeats themselves).

- a person opening the table appears online to everyone: the table's snapshot is
  pushed again (a spectator's socket changes no seat, so it pushes nothing);
- a seated person's last socket going away on their own turn starts the absence
  countdown (services/clock.abandon_if_disconnected after ``DISCONNECT_GRACE_SECONDS``);
- sockets that died without a close are reaped by the sweep (:func:`reap`), which
  then does the same as for a clean close; the sweep's absentee pass is the backstop
  for the countdown.

Presence is advisory: a Redis failure is logged, never raised into a consumer.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.contrib.auth.models import User
from django.db.models import Q

from games import events
from games import presence as store
from games.conf import game_settings
from games.models import Game, Seat, Series, SeriesSeat
from games.services import publish, schedule

logger = logging.getLogger(__name__)


def _plays_here(table_id: int, user_id: int) -> bool:
    """Whether the user sits at the table or plays (or is kept warm) in its series."""
    return (Seat.objects.filter(table_id=table_id, user_id=user_id).exists()
            or SeriesSeat.objects.filter(Q(user_id=user_id) | Q(away_user_id=user_id),
                                         series__table_id=table_id,
                                         series__status=Series.Status.PLAYING).exists())


def connected(table_id: int, conn: str, user: User | None,
              plays_here: Callable[[int], bool] | None = None,
              listed: bool | None = None) -> str | None:
    """A socket opened at the table (``conn``: its channel name). ``plays_here``: the
    caller's answer to whether a person sits or plays here, when it has read the table
    (a table socket's handshake: games/snapshot.py ``TableFacts.plays_here``); else two
    queries answer it. ``listed``: whether the lobby lists the table, when the caller
    has read it (publish.table_changed). Returns the Redis server's run id, None if
    unreachable."""
    user_id = store.person_id(user)
    try:
        was_away = user_id is not None and user_id not in store.live_user_ids(table_id)
        run_id = store.touch(table_id, conn, user_id)
    except Exception:  # noqa: BLE001 - advisory; see the module docstring
        logger.exception("presence: could not record a connect at table %s", table_id)
        return None
    if was_away and user_id is not None and (
            plays_here(user_id) if plays_here is not None else _plays_here(table_id, user_id)):
        events.send_events(publish.table_changed(table_id, listed))
    return run_id


def disconnected(table_id: int, conn: str, user: User | None) -> None:
    """A socket closed cleanly; a person's last one may start the absence countdown."""
    user_id = store.person_id(user)
    try:
        gone = store.drop(table_id, conn, user_id)
    except Exception:  # noqa: BLE001 - advisory
        logger.exception("presence: could not record a disconnect at table %s", table_id)
        return
    if gone and user_id is not None:
        _person_left(table_id, user_id)


def _person_left(table_id: int, user_id: int) -> None:
    if not _plays_here(table_id, user_id):
        return
    events.send_events(publish.table_changed(table_id))
    game = (Game.objects.filter(series__table_id=table_id, status=Game.Status.PLAYING,
                                series__status=Series.Status.PLAYING)
            .order_by("-id").values("pk", "version", "turn_seat", "series_id").first())
    if game is None or game["turn_seat"] is None:
        return
    on_turn = SeriesSeat.objects.filter(series_id=game["series_id"], position=game["turn_seat"],
                                        user_id=user_id).exists()
    if on_turn:
        schedule.disconnect_check(game["pk"], game["version"],
                                  game_settings.DISCONNECT_GRACE_SECONDS)


def reap(now: float | None = None) -> int:
    """Count sockets that died without a close as gone (the sweep calls this).

    Returns how many tables were told that someone left.
    """
    told = 0
    for table_id, users in store.reap(now).items():
        for user_id in users:
            _person_left(table_id, user_id)
            told += 1
    return told
