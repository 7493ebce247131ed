"""R11 molodka: four of a suit, out of turn."""

from __future__ import annotations

import pytest

from games.engine import (
    Action,
    IllegalActionError,
    Molodka,
    apply,
    legal_actions,
    observe,
    seats_to_act,
)

from .helpers import act, deal_hands, molodka_seats, play, sets

# Seat 2 holds a diamond molodka.
M2 = [["7H", "6C", "7C", "8C"], ["9C", "JC", "QC", "KD"], ["6D", "7D", "8D", "9D"],
      ["TC", "AC", "JH", "QH"]]
# Seats 1 (diamonds) and 3 (hearts) hold molodkas.
M13 = [["7H", "6C", "7C", "8C"], ["6D", "7D", "8D", "9D"], ["9C", "JC", "QC", "KD"],
       ["TH", "AH", "JH", "QH"]]
# Seats 0 (diamonds) and 2 (hearts) hold molodkas.
M02 = [["6D", "7D", "8D", "9D"], ["9C", "JC", "QC", "KD"], ["TH", "AH", "JH", "QH"],
       ["7H", "6C", "7C", "8C"]]


def test_r11_molodka_before_the_lead() -> None:
    state = deal_hands(M2)
    assert molodka_seats(state) == [2] and seats_to_act(state) == [0, 2]
    state = apply(state, 2, Molodka(["6D", "7D", "8D", "9D"]))
    assert (state.leader, state.original_leader, state.turn, state.k) == (2, 0, 3, 4)
    assert [len(h) for h in state.hands] == [4, 4, 0, 4]
    assert state.table[2] is not None and state.table[2].kind == "molodka"


def test_r11_molodka_after_a_lead_and_a_discard() -> None:
    state = play(deal_hands(M2), (0, "lead", "7H"), (1, "discard", "KD"))
    assert molodka_seats(state) == [2]
    state = apply(state, 2, Molodka(["6D", "7D", "8D", "9D"]))
    assert sorted(c.code for c in state.hands[0]) == ["6C", "7C", "7H", "8C"]
    assert sorted(c.code for c in state.hands[1]) == ["9C", "JC", "KD", "QC"]
    assert state.table == (None, None, state.table[2], None)


def test_r11_restart_continues_clockwise_from_molodka_player() -> None:
    state = play(deal_hands(M2), (0, "lead", "7H"), (2, "molodka", "6D 7D 8D 9D"))
    assert state.turn == 3
    with pytest.raises(IllegalActionError, match="R9: it is seat 3's turn"):
        apply(state, 0, act_discard("7H 6C 7C 8C"))
    with pytest.raises(IllegalActionError, match="R8: every player plays exactly k = 4"):
        apply(state, 3, act_discard("TC"))
    state = play(state, (3, "discard", "TC AC JH QH"))
    assert state.turn == 0


def act_discard(cards: str) -> Action:
    return act("discard", *cards.split())


def test_r11_taker_is_molodka_player_if_nobody_beats() -> None:
    state = play(deal_hands(M2), (0, "lead", "7H"), (1, "discard", "KD"),
                 (2, "molodka", "6D 7D 8D 9D"), (3, "discard", "TC AC JH QH"),
                 (0, "discard", "7H 6C 7C 8C"), (1, "discard", "9C JC QC KD"))
    assert state.last_taker == 2 and state.tricks == {"A": 1, "B": 0}
    assert len(state.piles[0]) == 16 and len(state.stock) == 4
    assert state.turn == state.leader == state.original_leader == 2


def test_r11_molodka_can_be_beaten_by_trumps() -> None:
    hands = [["7H", "6S", "7S", "8S"], ["9C", "JC", "QC", "KD"], ["6D", "7D", "8D", "9D"],
             ["TC", "AC", "JH", "QH"]]
    state = play(deal_hands(hands, trump="9S"), (2, "molodka", "6D 7D 8D 9D"),
                 (3, "discard", "TC AC JH QH"))
    assert sets(state, 0, "beat") == set()  # only 3 trumps, k = 4
    hands = [["6S", "7S", "8S", "TD"], ["9C", "JC", "QC", "KD"],
             ["6D", "7D", "8D", "9D"], ["TC", "AC", "JH", "QH"]]
    state = play(deal_hands(hands, trump="9S"), (2, "molodka", "6D 7D 8D 9D"),
                 (3, "discard", "TC AC JH QH"))
    assert sets(state, 0, "beat") == {frozenset(["6S", "7S", "8S", "TD"])}
    state = play(state, (0, "beat", "6S 7S 8S TD"), (1, "discard", "9C JC QC KD"))
    assert state.last_taker == 0


def test_r11_trump_molodka_cannot_be_beaten() -> None:
    hands = [["7H", "6C", "7C", "8C"], ["9C", "JC", "QC", "KH"], ["6S", "7S", "8S", "9S"],
             ["TD", "AD", "TH", "AC"]]
    state = play(deal_hands(hands, trump="TS"), (0, "lead", "7H"), (1, "discard", "KH"),
                 (2, "molodka", "6S 7S 8S 9S"))
    assert sets(state, 3, "beat") == set() and len(sets(state, 3, "discard")) == 1


def test_r11_seat_on_lead_just_leads_it() -> None:
    state = deal_hands(M02, leader=0)
    assert molodka_seats(state) == [2]  # seat 0 is on lead: no molodka action for it
    assert frozenset(["6D", "7D", "8D", "9D"]) in sets(state, 0, "lead")
    with pytest.raises(IllegalActionError, match="R11: seat 0 is on lead"):
        apply(state, 0, Molodka(["6D", "7D", "8D", "9D"]))
    state = play(state, (0, "lead", "6D 7D 8D 9D"))
    # A 4-card lead is a molodka at distance 0: nobody can override it.
    assert molodka_seats(state) == []
    with pytest.raises(IllegalActionError, match=r"R11: seat 2 \(distance 2\) is not strictly"):
        apply(state, 2, Molodka(["TH", "AH", "JH", "QH"]))


def test_r11_nearer_overrides_farther() -> None:
    state = play(deal_hands(M13), (0, "lead", "7H"))
    assert molodka_seats(state) == [1, 3]
    state = play(state, (3, "molodka", "TH AH JH QH"))
    assert (state.leader, state.turn) == (3, 0) and molodka_seats(state) == [1]
    state = play(state, (1, "molodka", "6D 7D 8D 9D"))
    assert (state.leader, state.original_leader, state.turn) == (1, 0, 2)
    assert sorted(c.code for c in state.hands[3]) == ["AH", "JH", "QH", "TH"]
    assert sorted(c.code for c in state.hands[0]) == ["6C", "7C", "7H", "8C"]
    assert molodka_seats(state) == []


def test_r11_farther_cannot_override_nearer() -> None:
    state = play(deal_hands(M13), (0, "lead", "7H"), (1, "molodka", "6D 7D 8D 9D"))
    assert molodka_seats(state) == []
    with pytest.raises(IllegalActionError, match=r"seat 3 \(distance 3\) is not strictly nearer"):
        apply(state, 3, Molodka(["TH", "AH", "JH", "QH"]))
    state = play(state, (2, "discard", "9C JC QC KD"))
    with pytest.raises(IllegalActionError, match="R11"):
        apply(state, 3, Molodka(["TH", "AH", "JH", "QH"]))


def test_r11_priority_counts_from_original_leader() -> None:
    # Seat 2 leads; seat 0 (distance 2) and seat 3 (distance 1) hold molodkas.
    hands = [["6D", "7D", "8D", "9D"], ["9C", "JC", "QC", "KD"], ["7H", "6C", "7C", "8C"],
             ["TH", "AH", "JH", "QH"]]
    state = play(deal_hands(hands, leader=2, dealer=1), (2, "lead", "7H"))
    assert molodka_seats(state) == [0, 3]
    state = play(state, (0, "molodka", "6D 7D 8D 9D"))
    assert (state.turn, state.original_leader) == (1, 2) and molodka_seats(state) == [3]
    state = play(state, (3, "molodka", "TH AH JH QH"))
    assert (state.turn, state.leader, state.original_leader) == (0, 3, 2)
    with pytest.raises(IllegalActionError, match=r"seat 0 \(distance 2\)"):
        apply(state, 0, Molodka(["6D", "7D", "8D", "9D"]))


def test_r11_original_leader_overrides_after_restart() -> None:
    state = deal_hands(M02, leader=0)
    state = play(state, (2, "molodka", "TH AH JH QH"))
    assert molodka_seats(state) == [0]  # seat 0 is no longer on lead: distance 0 overrides
    state = play(state, (0, "molodka", "6D 7D 8D 9D"))
    assert (state.leader, state.turn) == (0, 1)
    assert sorted(c.code for c in state.hands[2]) == ["AH", "JH", "QH", "TH"]
    assert molodka_seats(state) == []


def test_r11_returned_cards_come_back_and_seat_may_announce_again() -> None:
    # Seat 1 beats, then seat 3 announces; seat 1's card returns; seat 1 has no
    # molodka so cannot override, but it plays again in the restarted trick.
    state = play(deal_hands(M13), (0, "lead", "7H"))
    state = play(state, (3, "molodka", "TH AH JH QH"))
    assert molodka_seats(state) == [1]
    state = play(state, (0, "discard", "7H 6C 7C 8C"))
    # Seat 0 played to the restarted trick; seat 1 has not: it may still override.
    assert molodka_seats(state) == [1]
    state = play(state, (1, "molodka", "6D 7D 8D 9D"))
    assert sorted(c.code for c in state.hands[0]) == ["6C", "7C", "7H", "8C"]
    assert state.turn == 2


def test_r11_seat_on_turn_in_reply_may_announce() -> None:
    state = play(deal_hands(M13), (0, "lead", "7H"))
    assert state.turn == 1
    assert any(a.kind == "molodka" for a in legal_actions(state, 1))
    state = play(state, (1, "molodka", "6D 7D 8D 9D"))
    assert state.turn == 2


def test_r11_played_seat_cannot_announce() -> None:
    hands = [["7H", "6C", "7C", "8C"], ["6D", "7D", "8D", "9D"], ["9C", "JC", "QC", "KD"],
             ["TC", "AC", "JH", "QH"]]
    state = play(deal_hands(hands), (0, "lead", "7H"))
    assert molodka_seats(state) == [1]
    state = play(state, (1, "discard", "6D"))
    assert molodka_seats(state) == []
    with pytest.raises(IllegalActionError, match="R11: seat 1 has already played"):
        apply(state, 1, Molodka(["6D", "7D", "8D", "9D"]))
    with pytest.raises(IllegalActionError, match="R11: a molodka is a hand of exactly 4"):
        apply(state, 1, Molodka(["7D", "8D", "9D"]))


def test_r11_molodka_player_cannot_announce_twice() -> None:
    state = play(deal_hands(M2), (2, "molodka", "6D 7D 8D 9D"))
    with pytest.raises(IllegalActionError, match="R11: seat 2 has already played"):
        apply(state, 2, Molodka(["6D", "7D", "8D", "9D"]))


def test_r11_no_molodka_with_3_cards() -> None:
    hands = [["6D", "7D", "8D"], ["6C", "7C", "8C"], ["6H", "7H", "8H"], ["9D", "JD", "QD"]]
    state = play(deal_hands(hands), (0, "lead", "6D"))
    assert molodka_seats(state) == []
    with pytest.raises(IllegalActionError, match="R11"):
        apply(state, 1, Molodka(["6C", "7C", "8C"]))


def test_r11_molodka_must_be_own_whole_hand() -> None:
    state = deal_hands(M2)
    with pytest.raises(IllegalActionError, match="R11: .* not in seat 1's hand"):
        apply(state, 1, Molodka(["6D", "7D", "8D", "9D"]))
    with pytest.raises(IllegalActionError, match="R11: a molodka is a hand of exactly 4"):
        apply(state, 2, Molodka(["6D", "7D", "8D", "9C"]))


def test_r11_history_shows_returned_face_up_cards_and_discard_counts() -> None:
    state = play(deal_hands(M2), (0, "lead", "7H"), (1, "discard", "KD"),
                 (2, "molodka", "6D 7D 8D 9D"))
    event = observe(state, 0).to_dict()["history"][-1]
    assert event == {"event": "molodka", "seat": 2, "cards": ["6D", "7D", "8D", "9D"],
                     "returned": {"0": ["7H"]}, "returned_discards": {"1": {"count": 1}}}
    own = observe(state, 1).to_dict()["history"][-1]
    assert own["returned_discards"] == {"1": {"count": 1, "cards": ["KD"]}}
    table = observe(state, 3).to_dict()["table"]
    assert table == [None, None, {"kind": "lead", "cards": ["6D", "7D", "8D", "9D"]}, None]


def test_r11_can_molodka_only_for_the_viewer() -> None:
    state = deal_hands(M2)
    assert observe(state, 2).can_molodka and not observe(state, 1).can_molodka
    assert "molodka_seats" not in observe(state, 1).to_dict()
