"""A guest's table socket: authenticated from its session like an account's, so R19 holds.

The guest is made the way a visitor makes one (an anonymous POST of "Play now"); the
other session is a second guest who holds the table's invite link and so may watch.
"""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games import engine
from games.models import Move, Table
from games.services import play
from tests.games.helpers import card_codes_in, current_game, state_of
from tests.games.ws import connect

pytestmark = pytest.mark.django_db(transaction=True)

FACE_UP = ("lead", "beat", "molodka")


@database_sync_to_async
def guest_at_a_table() -> tuple[str, Table]:
    """An anonymous visitor clicks "Play now": its session key and its new table."""
    client = Client(REMOTE_ADDR="203.0.113.7")
    response = client.post("/play/bots/", {"level": "casual"})
    table = Table.objects.get(pk=int(response.url.strip("/").split("/")[-1]))
    return client.cookies["sessionid"].value, table


@database_sync_to_async
def other_guest_invited_to(table: Table) -> str:
    client = Client(REMOTE_ADDR="198.51.100.9")
    client.post("/play/bots/", {"level": "casual"})  # its own guest and table
    client.get(f"/t/{table.invite_token}/")  # then it may watch the first one
    return client.cookies["sessionid"].value


@database_sync_to_async
def current_state(table: Table) -> tuple[int, int, engine.GameState]:
    game = current_game(table.series.get())
    state = state_of(game)  # refreshes the row
    return game.pk, game.version, state


@database_sync_to_async
def bot_plays(game_id: int, version: int) -> None:
    play.play_bot_turn(game_id, version)


@database_sync_to_async
def played_face_up_by_the_guest(game_id: int) -> set[str]:
    return {
        code
        for move in Move.objects.filter(game_id=game_id, seat=0, kind__in=FACE_UP)
        for code in move.cards
    }


async def test_r19_another_session_never_receives_a_guests_hand():
    guest_session, table = await guest_at_a_table()
    other_session = await other_guest_invited_to(table)
    game_id, _version, state = await current_state(table)

    guest = await connect(table.pk, session=guest_session)
    snapshot = await guest.receive_type("snapshot")
    assert snapshot["you"]["position"] == 0  # the session's guest holds its seat
    own = set(engine.observe(state, 0).to_dict()["hand"])
    assert set(snapshot["game"]["view"]["hand"]) == own and len(own) == 4
    other = await connect(table.pk, session=other_session)
    watched = await other.receive_type("snapshot")
    assert watched["you"]["position"] is None and watched["game"]["view"]["hand"] == []

    # A few tricks' worth of moves: the bots through their service, the guest through
    # its socket. Every card the guest held is recorded.
    held = set(own)
    guest_moves = 0
    for _step in range(12):
        game_id, version, state = await current_state(table)
        if engine.outcome(state) is not None:
            break
        if state.turn == 0:
            action = engine.legal_actions(state, 0)[-1]
            await guest.send({"type": "act", "action": action.to_dict(), "version": version})
            await guest.receive_type("event")
            guest_moves += 1
        else:
            await bot_plays(game_id, version)
        _game_id, _version, state = await current_state(table)
        held |= set(engine.observe(state, 0).to_dict()["hand"])
    assert guest_moves >= 1
    frames = [watched, *await other.drain()]
    assert len(frames) > 1
    hidden = held - await played_face_up_by_the_guest(game_id)
    assert hidden, "the guest always keeps some cards hidden"
    leaked = {code for frame in frames for code in card_codes_in(frame)} & hidden
    assert leaked == set()  # R19: never the guest's hand or face-down discards
    await guest.close()  # (drain's final timeout already ended the other socket)
