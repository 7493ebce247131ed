"""A socket misses nothing that happens while it joins its groups.

A socket's snapshot is read from the table's facts, and the facts say which groups it
then joins (its seat's or the public one, and the spectators' chat). Something sent to
such a group between the read and the join never reached it: a move made right then
left the page at the old version for good, waiting on a seat that had played (a bot's
move as a guest's page connected; only the beat's re-announcement moved it again).
These tests commit a real move, or a spectator's chat line, through the services at
exactly that instant, and hold the socket to seeing it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async

from games import engine, snapshot
from games.services import chat, play
from tests.games.helpers import current_game, seated_and_started, state_of, users_by_position
from tests.games.ws import connect

pytestmark = pytest.mark.django_db(transaction=True)


def _after_the_first_read(monkeypatch: pytest.MonkeyPatch, change: Callable[[], Any]
                          ) -> list[Any]:
    """From now on, the first read of a table's facts is followed at once by
    ``change()`` (committed and published before the reader can join any group); the
    list receives what it returned."""
    read = snapshot.read_table_facts
    made: list[Any] = []

    def read_then_change(table_id: int) -> Any:
        facts = read(table_id)
        if not made:
            made.append(change())
        return facts

    monkeypatch.setattr(snapshot, "read_table_facts", read_then_change)
    return made


def _move_by_the_seat_on_turn(series: Any) -> int:
    """Play a legal action for whoever is on turn; the game's new version."""
    game = current_game(series)
    state = state_of(game)
    action = engine.legal_actions(state, state.turn)[0]
    play.submit_action(game.pk, users_by_position(series)[state.turn], action.to_dict(),
                       game.version)
    return current_game(series).version


async def _frames_until(socket: Any, seen: Callable[[dict[str, Any]], bool],
                        timeout: float = 3.0) -> bool:
    """Whether a frame that ``seen`` accepts (or a snapshot holding it) arrives."""
    try:
        while True:
            if seen(await socket.receive(timeout=timeout)):
                return True
    except TimeoutError:
        return False


@pytest.mark.parametrize("reader", ["seated player", "spectator"])
async def test_a_move_made_during_the_handshake_reaches_the_socket(cast, monkeypatch, reader):
    """R19's views: whichever of its seat's group or the public one the socket joins,
    the move made between its snapshot's read and its join reaches it, in the snapshot
    or as an event."""
    series = await database_sync_to_async(seated_and_started)(cast, "handshake race")
    made = _after_the_first_read(monkeypatch, lambda: _move_by_the_seat_on_turn(series))
    user = cast.alice if reader == "seated player" else cast.charlie

    socket = await connect(series.table_id, user)

    def shows_version_1(frame: dict[str, Any]) -> bool:
        if frame["type"] == "snapshot":
            return bool(frame.get("game")) and frame["game"]["version"] >= 1
        return frame["type"] == "event" and frame["version"] >= 1

    assert await _frames_until(socket, shows_version_1), \
        "the move made during the handshake never reached the socket"
    assert made == [1]
    await socket.close()


async def test_a_spectators_line_sent_during_the_handshake_reaches_a_spectator(cast,
                                                                             monkeypatch):
    """The spectators' chat group is joined after the read too: a line sent meanwhile
    is in the snapshot's chat or arrives as a chat frame."""
    series = await database_sync_to_async(seated_and_started)(cast, "chat race")
    erin = await database_sync_to_async(type(cast.charlie).objects.create_user)(
        "erin", password="x" * 20)
    made = _after_the_first_read(
        monkeypatch, lambda: chat.post_message(series.table_id, erin, "who leads?")["id"])

    socket = await connect(series.table_id, cast.charlie)

    def shows_the_line(frame: dict[str, Any]) -> bool:
        lines = (frame.get("chat") or [] if frame["type"] == "snapshot"
                 else [frame.get("message") or {}] if frame["type"] == "chat" else [])
        return any(line.get("text") == "who leads?" for line in lines)

    assert await _frames_until(socket, shows_the_line), \
        "the spectators' line sent during the handshake never reached the spectator"
    assert len(made) == 1
    await socket.close()
