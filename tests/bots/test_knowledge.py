"""Knowledge and sampled worlds agree with the view they come from (R19)."""

from __future__ import annotations

import random

from games.bots.knowledge import read_view
from games.bots.sampling import slots_of, world_core
from games.engine import Lead, apply, fast, observe
from games.engine.cards import Card

from .helpers import position, random_states

FULL = (1 << 36) - 1


def _placed(core: tuple) -> tuple[int, int]:
    mask = count = 0
    for h in core[fast.HANDS]:
        mask |= h
        count += h.bit_count()
    for c in core[fast.STOCK]:
        mask |= 1 << c
        count += 1
    for p in core[fast.PILES]:
        mask |= p
        count += p.bit_count()
    for a in core[fast.TABLE]:
        if a is not None:
            mask |= a.mask
            count += a.mask.bit_count()
    return mask, count


def test_worlds_match_the_view_and_conserve_cards() -> None:
    rng = random.Random(1)
    checked = 0
    for state in random_states(12, seed=3, every=2):
        for seat in range(4):
            view = observe(state, seat)
            kn = read_view(view)
            world = world_core(kn, view, slots_of(kn, view), rng)
            assert _placed(world) == (FULL, 36)  # R2: 36 cards, each once
            true = state.core
            # Everything public is reproduced exactly ...
            for i in (2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 15, 16, 17):
                assert world[i] == true[i], i
            assert world[fast.HANDS][seat] == true[0][seat]
            assert [h.bit_count() for h in world[fast.HANDS]] == [h.bit_count() for h in true[0]]
            assert len(world[fast.STOCK]) == len(true[1])
            # ... so the sampled world offers the seat exactly its legal actions.
            assert fast.legal_for(world, seat) == list(view.legal)
            # Face-up cards of completed tricks stay in the right team's pile.
            for team in (0, 1):
                assert kn.piles[team] & ~world[fast.PILES][team] == 0
            checked += 1
    assert checked > 100


def test_r6_unseen_trump_card_is_in_stock_before_any_draw() -> None:
    state = position(["6C 7C 8C 9C", "6D 7D 8D 9D", "6H 7H 8H 9H", "JC QC KC TC"], trump="AS")
    view = observe(state, 0)
    kn = read_view(view)
    slots = slots_of(kn, view)
    rng = random.Random(0)
    trump = Card("AS").index
    for _ in range(50):
        world = world_core(kn, view, slots, rng)
        assert trump in world[fast.STOCK]  # nobody has drawn yet: R6 keeps it in the stock


def test_r11_cards_returned_by_a_molodka_are_known_in_hand() -> None:
    state = position(
        ["6C 7C 8C 9C", "6D JD 8H 9S", "TH 7D 8D 9D", "JC QC KC TC"], trump="AS", leader=1
    )
    state = apply(state, 1, Lead(["6D"]))
    state = apply(state, 2, fast.legal_for(state.core, 2)[0])
    # Seat 3 (not on turn) announces its clubs: seat 1's 6D and seat 2's play go back.
    molodka = [a for a in fast.legal_for(state.core, 3) if a.kind == "molodka"]
    assert molodka
    state = apply(state, 3, molodka[0])
    view = observe(state, 0)
    kn = read_view(view)
    assert kn.known_hands[1] & Card("6D").mask
    rng = random.Random(2)
    slots = slots_of(kn, view)
    for _ in range(20):
        assert world_core(kn, view, slots, rng)[0][1] & Card("6D").mask
