"""A socket misses nothing that happens while it joins its groups.

A socket's snapshot is read from the table's facts, and the groups it then joins (its
seat's, or the public one) carry every later event. A move committed between that read
and the join was sent to a group this socket was not in yet: before the fix it never
arrived, and the page stood at the old version for good, waiting on a seat that had
played (a bot's move right as a guest's page connected; the beat's re-announcement was
the only way out). These tests commit a real move at exactly that instant, through the
services, and hold the socket to seeing it.
"""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async

from games import engine, snapshot
from games.services import play
from tests.games.helpers import current_game, seated_and_started, state_of, users_by_position
from tests.games.ws import connect

pytestmark = pytest.mark.django_db(transaction=True)


def _move_by_the_seat_on_turn(series: Any) -> int:
    """Play a legal action for whoever is on turn; the game's new version."""
    game = current_game(series)
    state = state_of(game)
    action = engine.legal_actions(state, state.turn)[0]
    play.submit_action(game.pk, users_by_position(series)[state.turn], action.to_dict(),
                       game.version)
    return current_game(series).version


def _move_after_the_first_read(monkeypatch: pytest.MonkeyPatch, series: Any) -> list[int]:
    """From now on, the first read of the table's facts is followed at once by a move
    (committed and published before the reader can join any group); the list receives
    the version that move made."""
    read = snapshot.read_table_facts
    made: list[int] = []

    def read_then_move(table_id: int) -> Any:
        facts = read(table_id)
        if not made:
            made.append(_move_by_the_seat_on_turn(series))
        return facts

    monkeypatch.setattr(snapshot, "read_table_facts", read_then_move)
    return made


async def _latest_version(socket: Any, wanted: int, timeout: float = 3.0) -> int:
    """The newest game version this socket has been shown, waiting up to ``timeout``
    for ``wanted`` (a snapshot's game version, or an event's)."""
    seen = -1
    try:
        while seen < wanted:
            frame = await socket.receive(timeout=timeout)
            if frame["type"] == "snapshot" and frame.get("game"):
                seen = max(seen, frame["game"]["version"])
            elif frame["type"] == "event":
                seen = max(seen, frame["version"])
    except TimeoutError:
        pass
    return seen


@pytest.mark.parametrize("reader", ["seated player", "spectator"])
async def test_a_move_committed_during_the_handshake_reaches_the_socket(
        cast, monkeypatch, reader):
    """R19's views per seat and the public one: whichever group the socket joins, the
    move made between its snapshot's read and its join reaches it."""
    series = await database_sync_to_async(seated_and_started)(cast, "handshake race")
    made = _move_after_the_first_read(monkeypatch, series)
    user = cast.alice if reader == "seated player" else cast.charlie

    socket = await connect(series.table_id, user)
    shown = await _latest_version(socket, wanted=1)
    assert made == [1]
    assert shown == 1, "the move made during the handshake never reached the socket"
    await socket.close()
