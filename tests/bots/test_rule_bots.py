"""Hand-built positions for the rule-based bots (beginner, casual)."""

from __future__ import annotations

import random

from games.bots import POLICIES
from games.bots.beginner import certain_beats
from games.engine import Beat, Discard, Lead, apply, observe

from .helpers import position

beginner = POLICIES["beginner"]
casual = POLICIES["casual"]


def test_beginner_takes_a_certain_ten_point_trick_as_last_player() -> None:
    # Trump spades.  Seat 0 leads the 10 of clubs; 1 and 2 discard; seat 3 plays
    # last (R10: the last beater takes) and can beat with A♣ or any trump.
    state = position(["TC 6H 7H 8H", "6D 7D 8D 9D", "JH QH KH 9H", "AC 6S 7C 8C"], trump="KS")
    state = apply(state, 0, Lead(["TC"]))
    state = apply(state, 1, Discard(["6D"]))
    state = apply(state, 2, Discard(["JH"]))
    view = observe(state, 3)
    assert set(certain_beats(view)) == {Beat(["AC"]), Beat(["6S"])}
    for seed in range(200):
        assert beginner(view, random.Random(seed)).kind == "beat"


def test_beginner_takes_a_certain_trick_with_the_highest_trump_before_the_end() -> None:
    # Seat 1 holds A♠, the highest trump (R7): nobody can beat it, so the
    # 10 + 11 points on the table are certain although two seats play after it.
    state = position(["TC 6H 7H 8H", "AS 6D AC 9D", "JH QH KH 9H", "JC 6S 7C 8C"], trump="KS")
    state = apply(state, 0, Lead(["TC"]))
    view = observe(state, 1)
    assert certain_beats(view) == [Beat(["AS"])]  # A♣ could be trumped later
    for seed in range(200):
        assert beginner(view, random.Random(seed)) == Beat(["AS"])


def test_beginner_is_random_when_nothing_is_certain() -> None:
    state = position(["6C 6H 7H 8H", "AS 6D AC 9D", "JH QH KH 9H", "JC 6S 7C 8C"], trump="KS")
    state = apply(state, 0, Lead(["6C"]))  # no points on the table
    view = observe(state, 1)
    seen = {beginner(view, random.Random(seed)) for seed in range(200)}
    assert len(seen) > 3


def test_casual_discards_low_against_a_pointless_lead() -> None:
    # A lone 6♣ (0 points) led by an opponent: casual keeps its trumps and ace.
    state = position(["6C 6H 7H 8H", "AS 7D AH 9S", "JH QH KH 9H", "JC 6S 7C 8C"], trump="KS")
    state = apply(state, 0, Lead(["6C"]))
    choice = casual(observe(state, 1), random.Random(0))
    assert choice == Discard(["7D"])


def test_casual_beats_cheaply_when_the_trick_holds_points() -> None:
    # Opponent seat 2 leads A♥ (11 points); casual (seat 1), last to play,
    # trumps it with its lowest trump rather than the ace of trumps.
    state = position(["6C 6H 7H 8H", "AS 6S 7C 8C", "AH QH KH 9H", "7D 8D 9D JD"], trump="KS",
                     leader=2)
    state = apply(state, 2, Lead(["AH"]))
    state = apply(state, 3, Discard(["7D"]))
    state = apply(state, 0, Discard(["6C"]))
    assert casual(observe(state, 1), random.Random(0)) == Beat(["6S"])


def test_casual_does_not_overbeat_a_winning_partner() -> None:
    # Partner (seat 0) leads A♣; opponent seat 1 discards; casual (seat 2) could
    # trump it but discards low instead.
    state = position(["AC 6H 7H 8H", "7D 8D 9D JD", "6S 7S 9C KH", "JC QC KC TC"], trump="AS")
    state = apply(state, 0, Lead(["AC"]))
    state = apply(state, 1, Discard(["7D"]))
    choice = casual(observe(state, 2), random.Random(0))
    assert choice.kind == "discard" and "6S" not in [c.code for c in choice.cards]
    assert "7S" not in [c.code for c in choice.cards]


def test_casual_smears_points_when_the_partner_surely_takes() -> None:
    # Partner's A♠ is the highest trump; casual plays last and throws its 10 in.
    state = position(["AS 6H 7H 8H", "7D 8D 9D JD", "TC 6C 9C 7S", "JC QC KC KH"], trump="6S")
    state = apply(state, 0, Lead(["AS"]))
    state = apply(state, 1, Discard(["7D"]))
    choice = casual(observe(state, 2), random.Random(0))
    assert choice == Discard(["TC"])
