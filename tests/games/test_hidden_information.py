"""R19 as a security property: record every frame each seat and a spectator receive
during whole games and check that none holds a card that connection may not see.

The allowed set is computed independently of the engine's observer: the seat's own
hand, the trump card, every card played face up so far (lead, beat, molodka — also the
ones a molodka restart sent back to a hand), and the seat's own discards. After the
game is over everything may be shown (R19), so the final frame is exempt.
"""

from __future__ import annotations

import random

import pytest
from channels.db import database_sync_to_async

from games import engine
from games.services import play, tables
from games.services import series as series_service
from tests.games.helpers import card_codes_in, current_game, state_of
from tests.games.ws import connect

pytestmark = pytest.mark.django_db(transaction=True)
ALL_CARDS = {f"{r}{s}" for r in "6789TJQKA" for s in "CDHS"}


@database_sync_to_async
def setup(cast, seed_table_name):
    table = tables.create_table(cast.alice, tables.TableSettings(name=seed_table_name))
    for position, user in enumerate(cast.seated):
        tables.take_seat(table.pk, user, position)
    series = series_service.start_series(table.pk, cast.alice)
    return table, current_game(series)


@database_sync_to_async
def load_state(game):
    return state_of(game), game.version, game.status


@database_sync_to_async
def submit(game, user, action, version):
    play.submit_action(game.pk, user, action.to_dict(), version)


def pick(state, rng) -> tuple[int, engine.Action]:
    """A random legal (seat, action), molodka announcements preferred when possible."""
    choices = [(s, a) for s in engine.seats_to_act(state) for a in engine.legal_actions(state, s)]
    molodkas = [c for c in choices if c[1].kind == "molodka"]
    return rng.choice(molodkas) if molodkas and rng.random() < 0.7 else rng.choice(choices)


def check_frame(frame, allowed: set[str], who: str) -> None:
    view = frame.get("view") or (frame.get("game") or {}).get("view")
    if view is not None and view.get("game_over"):
        return
    leaked = card_codes_in(frame) - allowed
    assert not leaked, f"{who} received hidden cards {sorted(leaked)}"
    assert "seed" not in str(frame), f"{who} received the seed before the end"


@pytest.mark.slow
@pytest.mark.parametrize("game_seed", [1, 2, 3])
async def test_r19_no_connection_ever_receives_a_hidden_card(cast, game_seed):
    rng = random.Random(game_seed)
    table, game = await setup(cast, f"r19-{game_seed}")
    users = dict(enumerate(cast.seated))
    recorders = {s: await connect(table.pk, users[s]) for s in range(4)}
    spectator = await connect(table.pk)
    face_up: set[str] = set()
    own_discards: dict[int, set[str]] = {s: set() for s in range(4)}
    moves = 0
    while True:
        state, version, status = await load_state(game)
        trump = {engine.observe(state, 0).to_dict()["trump_card"]}
        hands = {s: set(engine.observe(state, s).to_dict()["hand"]) for s in range(4)}
        expected = "snapshot" if version == 0 else "event"
        for s, rec in recorders.items():
            frame = await rec.receive_type(expected)
            check_frame(frame, hands[s] | trump | face_up | own_discards[s], f"seat {s}")
        check_frame(await spectator.receive_type(expected), trump | face_up, "spectator")
        if status != "playing":
            break
        seat, action = pick(state, rng)
        codes = {c.code for c in action.cards}
        if action.kind == "discard":
            own_discards[seat] |= codes
        else:
            face_up |= codes
        await submit(game, users[seat], action, version)
        moves += 1
    assert status == "finished" and moves >= 12  # 9 cards each, at most 4 a move
    assert ALL_CARDS - face_up, "some cards must have stayed hidden for the test to mean much"
    for rec in [*recorders.values(), spectator]:
        await rec.close()
