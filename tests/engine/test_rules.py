"""One or more example tests per rule (R1–R19) on scripted deals."""

from __future__ import annotations

import pytest

from games.engine import (
    TEAM_A,
    TEAM_B,
    Beat,
    Card,
    Discard,
    EngineError,
    IllegalActionError,
    Lead,
    Rank,
    Suit,
    apply,
    beats,
    can_beat,
    format_cards,
    game_record,
    legal_actions,
    new_game,
    new_series,
    observe,
    outcome,
    parse_card,
    parse_cards,
    public_view,
    record_game,
    replay,
    score,
    seats_to_act,
    team_of,
)
from games.engine.cards import DECK, mask_of, points_of_mask

from .helpers import act, deal_hands, play, sets

BASIC = [["6H", "TH", "AH", "7C"], ["6D", "7D", "8D", "9C"], ["JC", "QC", "KC", "8H"],
         ["JD", "QD", "KD", "TC"]]


# --- R1 seats and teams ---------------------------------------------------------------


def test_r1_teams_are_opposite_seats() -> None:
    assert [team_of(s) for s in range(4)] == [TEAM_A, TEAM_B, TEAM_A, TEAM_B]


def test_r1_next_player_is_clockwise() -> None:
    state = play(deal_hands(BASIC, leader=3), (3, "lead", "JD"))
    assert state.turn == 0


def test_r1_bad_seat_is_refused() -> None:
    state = deal_hands(BASIC)
    with pytest.raises(IllegalActionError, match="R1"):
        apply(state, 4, Lead(["6H"]))
    with pytest.raises(IllegalActionError, match="R1"):
        legal_actions(state, -1)


# --- R2 deck and rank order --------------------------------------------------------------


def test_r2_deck_has_36_distinct_cards() -> None:
    assert len(DECK) == 36 and len({c.code for c in DECK}) == 36
    assert [r.letter for r in Rank] == list("6789JQKTA")


def test_r2_ten_ranks_above_king_below_ace() -> None:
    assert Rank.KING < Rank.TEN < Rank.ACE
    assert beats(Card("TH"), Card("KH"), Suit.SPADES)
    assert not beats(Card("TH"), Card("AH"), Suit.SPADES)


def test_r2_card_parsing_and_names() -> None:
    card = parse_card("td")
    assert card is Card("TD") is Card.parse("TD") is Card(card.index)
    assert (card.code, card.symbol, card.name) == ("TD", "10♦", "10 of diamonds")
    assert repr(card) == "Card('TD')" and str(card) == "10♦"
    assert format_cards(parse_cards(["AS", "6H"]), trump=Suit.HEARTS) == "A♠ 6♥"
    for bad in ["1D", "TX", "", "TDD", 5.0]:
        with pytest.raises(ValueError, match="R2"):
            Card(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="R2"):
        parse_cards("TD6H")


def test_r2_cards_are_immutable_and_ordered() -> None:
    import copy
    import pickle

    card = Card("9C")
    with pytest.raises(AttributeError):
        card.code = "X"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del card.code
    assert pickle.loads(pickle.dumps(card)) is card
    assert copy.copy(card) is card and copy.deepcopy(card) is card
    assert sorted([Card("AS"), Card("6C"), Card("TC")]) == [Card("6C"), Card("TC"), Card("AS")]
    assert Card("6C") <= Card("6C") and Card("AS") >= Card("6C") and Card("AS") > Card("6C")
    assert Card("6C").__lt__(5) is NotImplemented  # type: ignore[operator]
    assert Card("6C").__le__(5) is NotImplemented  # type: ignore[operator]
    assert Card("6C").__gt__(5) is NotImplemented  # type: ignore[operator]
    assert Card("6C").__ge__(5) is NotImplemented  # type: ignore[operator]
    assert Card("6H").sort_key(Suit.HEARTS) > Card("AS").sort_key(Suit.HEARTS)
    assert Suit.parse("h") is Suit.HEARTS and Suit.HEARTS.letter == "H"
    with pytest.raises(ValueError, match="R2"):
        Suit.parse("X")


# --- R3 card points ---------------------------------------------------------------------


def test_r3_card_points_sum_to_120() -> None:
    assert [Card(r + "C").points for r in "6789JQKTA"] == [0, 0, 0, 0, 2, 3, 4, 10, 11]
    assert sum(c.points for c in DECK) == 120
    assert points_of_mask(mask_of(DECK)) == 120
    assert Rank.ACE.points == 11


# --- R4 dealer and first leader ---------------------------------------------------------


def test_r4_first_leader_is_dealers_left() -> None:
    for dealer in range(4):
        state = new_game(seed=42, dealer=dealer)
        assert state.leader == state.turn == (dealer + 1) % 4
        assert state.dealer == dealer


def test_r4_explicit_leader_from_previous_game() -> None:
    state = new_game(seed=42, dealer=1, leader=2)
    assert state.turn == 2


def test_r4_bad_new_game_arguments() -> None:
    with pytest.raises(EngineError, match="R1"):
        new_game(1, dealer=5)
    with pytest.raises(EngineError, match="R1"):
        new_game(1, dealer=0, leader=9)
    with pytest.raises(EngineError, match="R5"):
        new_game("x", dealer=0)  # type: ignore[arg-type]
    with pytest.raises(EngineError, match="R5"):
        new_game(1, dealer=0, algorithm=999)


# --- R5 shuffle and deal ------------------------------------------------------------------


def test_r5_deal_is_one_at_a_time_from_dealers_left() -> None:
    from games.engine.fast import shuffle_deck

    deck, _ = shuffle_deck(7)
    state = new_game(7, dealer=2)
    for i in range(16):
        seat = (2 + 1 + i) % 4
        assert Card(deck[i]) in state.hands[seat]
    assert [c.index for c in state.stock] == deck[16:]


def test_r5_same_seed_same_deal_other_seed_other_deal() -> None:
    a, b, c = new_game(99, 0), new_game(99, 0), new_game(100, 0)
    assert a == b and a.hands == b.hands
    assert a.hands != c.hands
    assert len(a.stock) == 20 and all(len(h) == 4 for h in a.hands)


def test_r5_algorithm_1_is_frozen() -> None:
    # Stored games replay from (seed, algorithm): this deal must never change.
    state = new_game(101, dealer=1)
    assert [[c.code for c in h] for h in state.hands] == [
        ["7D", "QD", "8S", "TS"], ["9D", "QH", "TH", "6S"], ["TC", "JD", "KH", "JS"],
        ["8C", "8D", "KD", "JH"],
    ]
    assert state.trump_card.code == "9H"


# --- R6 trump ----------------------------------------------------------------------------


def test_r6_trump_card_stays_in_the_stock() -> None:
    for seed in range(20):
        state = new_game(seed, 0)
        assert state.trump_card in state.stock
        assert state.trump_suit == state.trump_card.suit


def test_r6_trump_card_is_public_but_not_its_place() -> None:
    state = new_game(3, 0)
    view = observe(state, 0).to_dict()
    assert view["trump_card"] == state.trump_card.code
    assert "stock" not in view


# --- R7 beating one card ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("x", "y", "trump", "expected"),
    [("9H", "7H", "C", True), ("TC", "QC", "D", True), ("6H", "AS", "H", True),
     ("AS", "6H", "H", False), ("AS", "TD", "H", False), ("TD", "AS", "H", False),
     ("9D", "9D", "C", False), ("7S", "6S", "S", True)],
)
def test_r7_examples(x: str, y: str, trump: str, expected: bool) -> None:
    assert beats(Card(x), Card(y), Suit.parse(trump)) is expected


# --- R8 lead --------------------------------------------------------------------------------


def test_r8_lead_options_are_one_suit_subsets() -> None:
    state = deal_hands(BASIC)
    assert sets(state, 0, "lead") == {
        frozenset(s) for s in [["6H"], ["TH"], ["AH"], ["6H", "TH"], ["6H", "AH"], ["TH", "AH"],
                               ["6H", "TH", "AH"], ["7C"]]
    }


def test_r8_mixed_suit_lead_is_refused() -> None:
    state = deal_hands(BASIC)
    with pytest.raises(IllegalActionError, match="R8: a lead must be cards of one suit"):
        apply(state, 0, Lead(["6H", "7C"]))
    with pytest.raises(IllegalActionError, match="R8: a lead has 1 to 4 cards"):
        apply(state, 0, Lead([]))
    with pytest.raises(IllegalActionError, match="R8: .* not in seat 0's hand"):
        apply(state, 0, Lead(["9H"]))
    with pytest.raises(IllegalActionError, match="R8: seat 0 is on lead"):
        apply(state, 1, Lead(["6D"]))


def test_r8_every_player_plays_k_cards() -> None:
    state = play(deal_hands(BASIC), (0, "lead", "6H TH"))
    assert state.k == 2
    with pytest.raises(IllegalActionError, match="R8: every player plays exactly k = 2"):
        apply(state, 1, Discard(["6D"]))
    with pytest.raises(IllegalActionError, match="R8: the trick has been led already"):
        apply(state, 1, Lead(["6D"]))


def test_r8_leader_cannot_discard_or_beat_before_leading() -> None:
    state = deal_hands(BASIC)
    with pytest.raises(IllegalActionError, match="R9: nothing to beat yet"):
        apply(state, 0, Beat(["7C"]))
    with pytest.raises(IllegalActionError, match="R9: nothing to reply to yet"):
        apply(state, 0, Discard(["7C"]))


# --- R9 reply ---------------------------------------------------------------------------------


def test_r9_beat_pairs_one_to_one() -> None:
    trump = Suit.SPADES
    assert can_beat(parse_cards(["8H", "6S"]), parse_cards(["7H", "KH"]), trump)
    assert not can_beat(parse_cards(["9H", "6D"]), parse_cards(["7H", "8H"]), trump)
    assert not can_beat(parse_cards(["9H"]), parse_cards(["7H", "8H"]), trump)
    assert not can_beat(parse_cards(["9H", "9H"]), parse_cards(["7H", "8H"]), trump)


def test_r9_beat_must_beat_current_top_set() -> None:
    hands = [["7H", "6C", "7C", "8C"], ["9H", "9C", "JC", "QC"], ["8H", "TH", "KC", "AC"],
             ["6D", "7D", "8D", "JD"]]
    state = play(deal_hands(hands), (0, "lead", "7H"), (1, "beat", "9H"))
    with pytest.raises(IllegalActionError, match="R9: 8♥ cannot beat 9♥"):
        apply(state, 2, Beat(["8H"]))
    assert sets(state, 2, "beat") == {frozenset(["TH"])}


def test_r9_beat_error_message_for_several_cards() -> None:
    hands = [["7H", "8H", "6C", "7C"], ["9H", "6D", "6S", "8C"], ["TH", "JD", "9C", "JC"],
             ["QH", "KH", "8S", "QC"]]
    state = play(deal_hands(hands, trump="QS"), (0, "lead", "7H 8H"))
    with pytest.raises(IllegalActionError, match="R9: .* cannot be paired one-to-one"):
        apply(state, 1, Beat(["9H", "6D"]))
    assert sets(state, 1, "beat") == {frozenset(["9H", "6S"])}


def test_r9_discard_is_face_down_any_cards() -> None:
    state = play(deal_hands(BASIC), (0, "lead", "6H"), (1, "discard", "9C"))
    assert observe(state, 1).table[1] == {"kind": "discard", "count": 1, "cards": ["9C"]}
    assert observe(state, 0).table[1] == {"kind": "discard", "count": 1}
    assert public_view(state).table[1] == {"kind": "discard", "count": 1}


def test_r9_may_discard_even_when_able_to_beat() -> None:
    state = play(deal_hands(BASIC), (0, "lead", "7C"))
    assert sets(state, 1, "discard") >= {frozenset(["9C"])}
    assert frozenset(["9C"]) in sets(state, 1, "beat")


def test_r9_partner_may_beat_partner() -> None:
    hands = [["7H", "6C", "7C", "8C"], ["9C", "JC", "QC", "KD"], ["9H", "TC", "AC", "6D"],
             ["7D", "8D", "9D", "TD"]]
    state = play(deal_hands(hands), (0, "lead", "7H"), (1, "discard", "9C"), (2, "beat", "9H"),
                 (3, "discard", "7D"))
    assert state.last_taker == 2 and state.tricks == {"A": 1, "B": 0}


def test_r9_only_seat_on_turn_replies() -> None:
    state = play(deal_hands(BASIC), (0, "lead", "6H"))
    with pytest.raises(IllegalActionError, match="R9: it is seat 1's turn, not seat 2's"):
        apply(state, 2, Discard(["JC"]))
    with pytest.raises(IllegalActionError, match="R9: seat 0 has already played"):
        apply(state, 0, Discard(["7C"]))
    assert legal_actions(state, 2) == []


# --- R10 taking the trick ------------------------------------------------------------------


def test_r10_nobody_beats_leader_takes_all_cards() -> None:
    state = play(deal_hands(BASIC), (0, "lead", "6H TH"), (1, "discard", "6D 7D"),
                 (2, "discard", "JC QC"), (3, "discard", "JD QD"))
    assert state.last_taker == 0
    assert len(state.piles[0]) == 8
    assert points_of_mask(mask_of(state.piles[0])) == 10 + 2 + 3 + 2 + 3


def test_r10_last_beater_takes() -> None:
    hands = [["7H", "6C", "7C", "8C"], ["9H", "JC", "QC", "KC"], ["TH", "TC", "AC", "6D"],
             ["7S", "9D", "JD", "TD"]]
    state = play(deal_hands(hands), (0, "lead", "7H"), (1, "beat", "9H"), (2, "discard", "TC"),
                 (3, "discard", "TD"))
    assert state.last_taker == 1 and state.tricks == {"A": 0, "B": 1}


# --- R12 drawing, R13 next lead ------------------------------------------------------------------


def test_r12_draw_starts_with_taker_one_at_a_time() -> None:
    hands = [["7H", "6C", "7C", "8C"], ["9H", "JC", "QC", "KC"], ["TH", "TC", "AC", "6D"],
             ["7D", "8D", "9D", "TD"]]
    stock = ["AS", "KS", "QS", "JS", "9C", "JD", "QD", "KD", "AD", "6H", "8H", "JH", "QH", "KH",
             "AH", "6S", "7S", "8S", "9S", "TS"]
    state = play(deal_hands(hands, stock=stock), (0, "lead", "7H"), (1, "beat", "9H"),
                 (2, "beat", "TH"), (3, "discard", "7D"))
    assert Card("AS") in state.hands[2] and Card("KS") in state.hands[3]
    assert Card("QS") in state.hands[0] and Card("JS") in state.hands[1]
    assert len(state.stock) == 16


def test_r12_stock_runs_out_hands_shrink() -> None:
    hands = [["7H", "8H", "7C", "8C"], ["9H", "JH", "QC", "KC"], ["TH", "AH", "AC", "6D"],
             ["7D", "8D", "9D", "TD"]]
    state = deal_hands(hands, stock=["AS", "KS", "QS", "JS"], tricks=(0, 4))
    state = play(state, (0, "lead", "7H 8H"), (1, "discard", "QC KC"), (2, "beat", "TH AH"),
                 (3, "discard", "7D 8D"))
    assert [len(h) for h in state.hands] == [3, 3, 3, 3] and not state.stock
    assert state.turn == 2 and not state.game_over


def test_r12_uneven_hands_draw_one_at_a_time_until_four() -> None:
    # Defensive path for hand-built cores: the draw goes one card at a time
    # clockwise from the taker and skips nobody who still needs cards.
    from games.engine import fast

    hands = (mask_of(parse_cards(["6C", "7C"])), Card("6D").mask, Card("7D").mask,
             Card("8D").mask)
    stock = tuple(Card(c).index for c in ["6H", "7H", "8H"])
    core = fast.make_core(hands, stock, Card("AS").index, 3, 0, (0, 0), (0, 0))
    core = fast.step(core, 0, act("lead", "6C"))
    for seat in (1, 2, 3):
        core = fast.step(core, seat, fast.legal(core)[0])
    assert core[fast.LAST_TAKER] == 0
    assert [m.bit_count() for m in core[fast.HANDS]] == [2, 1, 1, 0]
    assert core[fast.HANDS][1] == Card("7H").mask and core[fast.STOCK] == ()


def test_r13_taker_leads_next() -> None:
    state = play(deal_hands(BASIC), (0, "lead", "7C"), (1, "beat", "9C"), (2, "discard", "8H"),
                 (3, "discard", "JD"))
    assert state.turn == state.leader == 1
    with pytest.raises(IllegalActionError, match="R8: seat 1 is on lead"):
        apply(state, 0, Lead(["6H"]))


# --- R14 end of game, R15 lead carries over -------------------------------------------------------


def test_r14_game_ends_when_all_played_out() -> None:
    state = play(deal_hands([["6C"], ["7C"], ["8C"], ["9C"]], tricks=(3, 5)),
                 (0, "lead", "6C"), (1, "beat", "7C"), (2, "beat", "8C"), (3, "beat", "9C"))
    assert state.game_over and state.turn is None
    assert seats_to_act(state) == [] and legal_actions(state, 3) == []
    with pytest.raises(IllegalActionError, match="R14"):
        apply(state, 3, Lead(["9C"]))


def test_r15_last_taker_leads_next_game() -> None:
    state = play(deal_hands([["6C"], ["7C"], ["8C"], ["9C"]], tricks=(3, 5)),
                 (0, "lead", "6C"), (1, "beat", "7C"), (2, "beat", "8C"), (3, "beat", "9C"))
    result = outcome(state)
    assert result is not None and result.last_taker == 3
    series = record_game(new_series(12, 0), result)
    assert series.next_leader == 3 and series.next_dealer == 2


# --- R16 / R17 scoring --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("points", "tricks", "loss", "eggs", "winner"),
    [((61, 59), (4, 3), (0, 2), False, "A"), ((59, 61), (4, 3), (2, 0), False, "B"),
     ((89, 31), (4, 1), (0, 2), False, "A"), ((90, 30), (4, 1), (0, 4), False, "A"),
     ((120, 0), (5, 1), (0, 4), False, "A"), ((120, 0), (6, 0), (0, 6), False, "A"),
     ((0, 120), (0, 3), (6, 0), False, "B"), ((60, 60), (2, 5), (0, 0), True, None)],
)
def test_r16_r17_score_table(points: tuple[int, int], tricks: tuple[int, int],
                             loss: tuple[int, int], eggs: bool, winner: str | None) -> None:
    got = score({"A": points[0], "B": points[1]}, {"A": tricks[0], "B": tricks[1]})
    assert got == ({"A": loss[0], "B": loss[1]}, eggs, winner)


def test_r16_points_must_sum_to_120() -> None:
    with pytest.raises(EngineError, match="120"):
        score({"A": 60, "B": 61}, {"A": 1, "B": 1})
    with pytest.raises(EngineError):
        score({"A": -1, "B": 121}, {"A": 1, "B": 1})
    with pytest.raises(EngineError):
        score({"A": 60}, {"A": 1, "B": 1})


def test_r16_zero_point_trick_saves_from_six() -> None:
    state = deal_hands([["6C"], ["7C"], ["8C"], ["9C"]], tricks=(8, 0))
    state = play(state, (0, "lead", "6C"), (1, "beat", "7C"), (2, "discard", "8C"),
                 (3, "discard", "9C"))
    result = outcome(state)
    assert result is not None
    assert result.points == {"A": 120, "B": 0} and result.loss_points == {"A": 0, "B": 4}
    assert result.to_dict()["termination"] == "completed"


def test_r17_eggs_recorded_in_series() -> None:
    series = new_series(12, 0)
    series = record_game(series, {"A": 60, "B": 60}, {"A": 3, "B": 3}, 1)
    assert series.eggs == 1 and series.loss_points == {"A": 0, "B": 0}
    for _ in range(3):
        series = record_game(series, {"A": 100, "B": 20}, {"A": 5, "B": 1}, 0)
    assert series.over and series.goat == "B" and series.winner == "A" and series.goats_with_eggs


# --- R18 series ---------------------------------------------------------------------------------


def test_r18_series_ends_at_target_exactly() -> None:
    series = new_series(target=12, first_dealer=0)
    assert (series.first_leader, series.next_leader, series.next_dealer) == (1, 1, 0)
    for _ in range(5):
        series = record_game(series, {"A": 80, "B": 40}, {"A": 5, "B": 2}, 1)
        assert not series.over
    series = record_game(series, {"A": 80, "B": 40}, {"A": 5, "B": 2}, 1)
    assert series.loss_points == {"A": 0, "B": 12} and series.over and series.goat == "B"
    assert not series.goats_with_eggs
    with pytest.raises(EngineError, match="R18: the series is over"):
        record_game(series, {"A": 80, "B": 40}, {"A": 5, "B": 2}, 1)


def test_r18_custom_target_and_bad_arguments() -> None:
    series = record_game(new_series(target=2, first_dealer=3), {"A": 40, "B": 80},
                         {"A": 1, "B": 4}, 2)
    assert series.over and series.goat == "A" and series.winner == "B"
    with pytest.raises(EngineError):
        new_series(0, 0)
    with pytest.raises(EngineError):
        new_series(12, 4)
    with pytest.raises(EngineError):
        record_game(new_series(), {"A": 60, "B": 60}, None, 1)
    with pytest.raises(EngineError):
        record_game(new_series(), {"A": 60, "B": 60}, {"A": 1, "B": 1}, 7)


def test_r18_series_json_round_trip() -> None:
    from games.engine import Series

    series = new_series(12, 2)
    series = record_game(series, {"A": 70, "B": 50}, {"A": 4, "B": 3}, 1)
    series = record_game(series, {"A": 60, "B": 60}, {"A": 3, "B": 3}, 0)
    again = Series.from_dict(series.to_dict())
    assert again == series and again.to_dict() == series.to_dict()
    with pytest.raises(EngineError):
        Series.from_dict([])  # type: ignore[arg-type]
    with pytest.raises(EngineError):
        Series.from_dict({"target": 12, "first_dealer": 0, "games": [1]})


# --- R19 hidden information --------------------------------------------------------------


def test_r19_view_shows_own_hand_only() -> None:
    state = deal_hands(BASIC)
    for seat in range(4):
        view = observe(state, seat).to_dict()
        assert sorted(view["hand"]) == sorted(c.code for c in state.hands[seat])
        assert view["hand_sizes"] == [4, 4, 4, 4] and view["stock_size"] == 20
        assert view["pile_points"] is None and view["record"] is None
    assert public_view(state).to_dict()["hand"] == []
    with pytest.raises(ValueError, match="R1"):
        observe(state, 4)


def test_r19_hand_sorted_by_suit_trump_last() -> None:
    state = deal_hands([["6S", "AH", "7C", "9H"], BASIC[1], BASIC[2], BASIC[3]])
    assert observe(state, 0).hand == ["7C", "9H", "AH", "6S"]


def test_r19_history_same_for_all_but_own_discards() -> None:
    state = play(deal_hands(BASIC), (0, "lead", "6H"), (1, "discard", "9C"), (2, "beat", "8H"),
                 (3, "discard", "TC"))
    views = [observe(state, s).to_dict() for s in range(4)]
    plays = [v["history"][:4] for v in views]
    assert plays[0][1] == {"event": "play", "seat": 1, "kind": "discard", "count": 1}
    assert plays[1][1]["cards"] == ["9C"]
    assert views[0]["history"][4] == {"event": "trick", "taker": 2, "trick_no": 1}
    assert views[0]["history"][5] == {"event": "draw", "counts": [1, 1, 1, 1]}
    assert views[0]["last_trick"]["taker"] == 2
    assert views[3]["last_trick"]["plays"][3]["cards"] == ["TC"]
    assert "cards" not in views[0]["last_trick"]["plays"][3]


def test_r19_record_and_pile_points_only_after_game() -> None:
    state = play(deal_hands([["6C"], ["7C"], ["8C"], ["9C"]], tricks=(3, 5)),
                 (0, "lead", "6C"), (1, "discard", "7C"), (2, "discard", "8C"),
                 (3, "discard", "9C"))
    view = observe(state, 1).to_dict()
    assert view["game_over"] and view["pile_points"]["A"] + view["pile_points"]["B"] == 120
    assert view["record"]["actions"][1] == {"seat": 1, "kind": "discard", "cards": ["7C"]}
    assert view["result"]["winner"] in {"A", "B", None}
    with pytest.raises(EngineError, match="R19"):
        game_record(deal_hands(BASIC))


def test_r19_dealt_game_record_replays() -> None:
    import random

    state = new_game(555, dealer=2)
    rng = random.Random(1)
    while not state.game_over:
        seat = rng.choice(seats_to_act(state))
        options = legal_actions(state, seat)
        state = apply(state, seat, rng.choice(options))
    record = game_record(state)
    assert record["seed"] == 555 and record["algorithm"] == 1 and len(record["hands"]) == 4
    actions = [(a["seat"], act(a["kind"], *a["cards"])) for a in record["actions"]]
    again = replay(record["seed"], record["dealer"], record["leader"], actions)
    assert again == state


def test_r19_errors_do_not_leak_other_hands() -> None:
    state = play(deal_hands(BASIC), (0, "lead", "6H"))
    with pytest.raises(IllegalActionError) as info:
        apply(state, 1, Beat(["AS"]))
    assert "AS" not in str(info.value) or "not in seat 1" in str(info.value)


def test_r19_the_series_score_is_public_and_travels_with_the_view() -> None:
    state = new_game(11, dealer=2)
    score = new_series(target=12, first_dealer=2).score
    views = [observe(state, seat, score) for seat in range(4)]
    assert all(v.series == {"loss_points": {"A": 0, "B": 0}, "target": 12} for v in views)
    assert views[0].to_dict()["series"] == views[3].to_dict()["series"]
    assert observe(state, 0).series is None and public_view(state).series is None


@pytest.mark.parametrize(
    "bad",
    [
        {"loss_points": {"A": -2, "B": 0}, "target": 12},
        {"loss_points": {"A": 0}, "target": 12},
        {"loss_points": {"A": 0, "B": 0}, "target": 0},
        {"loss_points": {"A": "2", "B": 0}, "target": 12},
        "12:0",
    ],
)
def test_r18_a_bad_series_score_is_refused(bad: object) -> None:
    with pytest.raises(ValueError, match="R18"):
        observe(new_game(11, dealer=2), 0, bad)
