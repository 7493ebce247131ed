"""The engine's refusals reach players in their language (games/services/refusals.py).

The engine speaks English; every message it can give must be known to a pattern, or a
player would see English. Random games, and at each step random actions for every seat
(most of them illegal), make it give all of its kinds of refusal.
"""

from __future__ import annotations

import itertools
import random

import pytest
from django.utils import translation

from games import engine
from games.services import refusals

DECK = ["".join(c) for c in itertools.product("6789JQKTA", "CDHS")]
KINDS = [engine.Lead, engine.Beat, engine.Discard, engine.Molodka]


def _refusals(games: int = 60, seed: int = 16) -> set[str]:
    rng = random.Random(seed)
    found: set[str] = set()
    for number in range(games):
        state = engine.new_game(rng.randrange(2**32), dealer=number % 4)
        while engine.outcome(state) is None:
            for seat in range(4):
                hand = [c.code for c in state.hands[seat]] if hasattr(state, "hands") else []
                for _ in range(6):
                    pool = hand if hand and rng.random() < 0.6 else DECK
                    size = rng.randint(1, 4)
                    cards = rng.sample(pool, min(size, len(pool)))
                    action = rng.choice(KINDS)(engine.parse_cards(cards))
                    try:
                        engine.apply(state, seat, action)
                    except engine.IllegalActionError as error:
                        found.add(str(error))
            seats = engine.seats_to_act(state)
            seat = rng.choice(sorted(seats))
            state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        for seat in range(4):
            try:
                engine.apply(state, seat, engine.Lead(engine.parse_cards(["6C"])))
            except engine.IllegalActionError as error:
                found.add(str(error))
    return found


def test_every_refusal_the_engine_gives_is_known():
    found = _refusals()
    kinds = {message.split(":")[0] for message in found}
    assert {"R8", "R9", "R11", "R14"} <= kinds, kinds  # the playouts reached them all
    unknown = sorted(m for m in found if not refusals.known(m))
    assert not unknown, unknown[:10]
    # Random play reaches 13 of the patterns; the other four (a seat outside 0-3, an empty
    # lead, a molodka announced on lead, two molodkas in one trick) need set-up positions
    # and are checked one by one below.
    hit = [p for p, _ in refusals.PATTERNS if any(p.match(m) for m in found)]
    assert len(hit) >= 13, len(hit)


@pytest.mark.parametrize("message", [
    "R1: seat must be one of the seats 0-3, got 7",
    "R8: a lead has 1 to 4 cards",
    "R11: seat 2 is on lead: a molodka on lead is simply led (R8)",
    "R11: seat 3 (distance 3) is not strictly nearer the original leader (seat 0) than the "
    "molodka on the table (seat 1, distance 1)",
])
def test_the_rare_refusals_are_known_too(message):
    assert refusals.known(message)
    with translation.override("et"):
        assert refusals.translate(message) != message


@pytest.mark.parametrize(("message", "russian"), [
    ("R9: 7♠ cannot beat A♥ (R7)", "R9: картами 7♠ не побить Т♥ (R7)"),
    ("R8: seat 2 is on lead, not seat 3 (R4, R13)", "R8: заходит место 2, а не место 3 (R4, R13)"),
    ("R8: a lead must be cards of one suit", "R8: заходят картами одной масти"),
    ("R14: the game is over", "R14: игра окончена"),
])
def test_refusals_in_russian_keep_the_rule_and_use_russian_letters(message, russian):
    assert refusals.known(message)
    with translation.override("ru"):
        assert refusals.translate(message) == russian
    with translation.override("en"):
        assert refusals.translate(message) == message  # English stays word for word


def test_an_unknown_message_passes_unchanged():
    assert not refusals.known("R99: something new")
    assert refusals.translate("R99: something new") == "R99: something new"
