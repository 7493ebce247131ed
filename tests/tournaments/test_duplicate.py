"""Duplicate Kozel's boards, movement and scoring (R1, R4, R16–R17, R19).

Every expected figure below is worked out by hand in the comment beside it.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from games.tournaments.duplicate import (
    BASIS_LOSS,
    DIFFERENCE,
    BoardResult,
    PairInfo,
    Seating,
    board_dealer,
    difference,
    matchpoints,
    movement,
    standings,
    unfinished_boards,
)


def result(board: int, table: int, a_pair: int, b_pair: int, points_a: int,
           loss_a: int, loss_b: int) -> BoardResult:
    return BoardResult(board, table, a_pair, b_pair, {"A": points_a, "B": 120 - points_a},
                       {"A": loss_a, "B": loss_b})


def test_r4_boards_rotate_the_deal_and_the_first_player_is_left_of_the_dealer() -> None:
    assert [board_dealer(n) for n in range(1, 9)] == [
        (0, 1), (1, 2), (2, 3), (3, 0), (0, 1), (1, 2), (2, 3), (3, 0)]
    for bad in (0, -1, True, "1"):
        with pytest.raises(ValueError):
            board_dealer(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("n", range(4, 26, 2))
def test_the_movement_is_a_round_robin_with_every_pair_at_one_table_a_round(n: int) -> None:
    pairs = list(range(10, 10 + n))
    rounds = movement(pairs, n - 1)
    meetings: Counter[frozenset[int]] = Counter()
    for tables in rounds:
        assert [s.table for s in tables] == list(range(1, n // 2 + 1))
        assert sorted(p for s in tables for p in (s.a_pair, s.b_pair)) == pairs
        meetings.update(frozenset((s.a_pair, s.b_pair)) for s in tables)
    assert len(meetings) == n * (n - 1) // 2 and set(meetings.values()) == {1}


@pytest.mark.parametrize("n", range(4, 26, 2))
def test_r1_directions_are_balanced_over_a_cycle_and_never_far_off_along_the_way(n: int) -> None:
    pairs = list(range(n))
    for played in range(1, n):
        as_a = Counter(s.a_pair for tables in movement(pairs, played) for s in tables)
        for pair in pairs:
            # Never more than a round and a half from half the rounds as side A ...
            assert abs(2 * as_a[pair] - played) <= 3, (n, played, pair)
    # ... and exactly half (rounded either way) over the whole cycle of n − 1 rounds.
    as_a = Counter(s.a_pair for tables in movement(pairs, n - 1) for s in tables)
    assert {as_a[p] for p in pairs} <= {(n - 1) // 2, n // 2}


def test_a_second_cycle_repeats_the_meetings_the_other_way_round() -> None:
    pairs = [1, 2, 3, 4]
    first, second = movement(pairs, 6)[:3], movement(pairs, 6)[3:]
    for one, two in zip(first, second, strict=True):
        assert [(s.table, s.b_pair, s.a_pair) for s in one] == [
            (s.table, s.a_pair, s.b_pair) for s in two]


@pytest.mark.parametrize("pairs, rounds", [([1, 2, 3], 1), ([1, 2], 1), ([1, 2, 3, 3], 1),
                                           ([1, 2, 3, 4], 0)])
def test_a_movement_refuses_what_cannot_be_seated(pairs: list[int], rounds: int) -> None:
    with pytest.raises(ValueError):
        movement(pairs, rounds)


@pytest.mark.parametrize("points_a, loss_a, loss_b", [
    (70, 0, 0),   # R16: the loser of 70–50 has 2 loss points
    (70, 2, 0),   # the winner scores nothing against itself
    (60, 0, 2),   # R17: eggs give nobody loss points
    (25, 2, 0),   # 0–30 card points and a trick: 4
    (10, 6, 0),   # card points mean a trick was taken: not 6
])
def test_r16_a_result_must_be_one_the_card_points_can_give(points_a: int, loss_a: int,
                                                            loss_b: int) -> None:
    with pytest.raises(ValueError):
        result(1, 1, 1, 2, points_a, loss_a, loss_b)


def test_r16_a_side_without_card_points_may_have_taken_no_trick() -> None:
    assert result(1, 1, 1, 2, 0, 6, 0).loss_points == {"A": 6, "B": 0}
    assert result(1, 1, 1, 2, 0, 4, 0).loss_points == {"A": 4, "B": 0}
    with pytest.raises(ValueError):
        BoardResult(1, 1, 1, 2, {"A": 70, "B": 60}, {"A": 0, "B": 2})  # R3: 120 in all


def test_matchpoints_two_for_better_one_for_equal_on_three_tables() -> None:
    board = [
        result(1, 1, 11, 12, 75, 0, 2),  # A won 75–45: A (0 lp, 75), B (2 lp, 45)
        result(1, 2, 13, 14, 60, 0, 0),  # eggs: A (0, 60), B (0, 60)
        result(1, 3, 15, 16, 45, 2, 0),  # A lost 45–75: A (2, 45), B (0, 75)
    ]
    # Side A: table 1 beats both (4), table 2 beats table 3 only (2), table 3 nothing.
    # Side B: table 3 (0, 75) beats both, table 2 (0, 60) beats table 1 (2, 45).
    assert matchpoints(board) == {(1, "A"): 4, (2, "A"): 2, (3, "A"): 0,
                                  (1, "B"): 0, (2, "B"): 2, (3, "B"): 4}


def test_matchpoints_the_card_basis_is_exact_and_the_loss_basis_counts_loss_points_alone() -> None:
    board = [
        result(1, 1, 11, 12, 75, 0, 2),  # A won with 75
        result(1, 2, 13, 14, 80, 0, 2),  # A won with 80: better on card points
        result(1, 3, 15, 16, 0, 4, 0),   # A took a trick worth nothing: 4 loss points
        result(1, 4, 17, 18, 0, 6, 0),   # A took no trick: 6, worse than table 3
    ]
    exact = matchpoints(board)
    # A: table 2 beats 1, 3, 4 (6); table 1 beats 3, 4 (4); table 3 beats 4 (2); table 4: 0.
    assert [exact[(t, "A")] for t in (1, 2, 3, 4)] == [4, 6, 2, 0]
    by_loss = matchpoints(board, BASIS_LOSS)
    # Tables 1 and 2 both have 0 loss points: equal (1 each way), each beats 3 and 4.
    assert [by_loss[(t, "A")] for t in (1, 2, 3, 4)] == [5, 5, 2, 0]
    with pytest.raises(ValueError):
        matchpoints(board, "tricks")


def test_matchpoints_equal_results_share_the_points() -> None:
    board = [result(3, 1, 1, 2, 90, 0, 4), result(3, 2, 3, 4, 90, 0, 4)]
    assert matchpoints(board) == {(1, "A"): 1, (2, "A"): 1, (1, "B"): 1, (2, "B"): 1}


def test_the_difference_of_a_two_table_match_in_loss_points() -> None:
    board = [
        result(2, 1, 1, 2, 100, 0, 4),  # A won, B took 4: A's net +4, B's −4
        result(2, 2, 3, 4, 40, 2, 0),   # A lost with 40: A's net −2, B's +2
    ]
    # A at table 1: 4 − (−2) = 6; A at table 2: −6; B at table 1: −4 − 2 = −6; B at 2: 6.
    assert difference(board) == {(1, "A"): 6, (2, "A"): -6, (1, "B"): -6, (2, "B"): 6}
    with pytest.raises(ValueError):
        difference(board[:1])


def test_results_of_two_boards_or_twice_one_table_are_refused() -> None:
    with pytest.raises(ValueError):
        matchpoints([result(1, 1, 1, 2, 90, 0, 4), result(2, 2, 3, 4, 90, 0, 4)])
    with pytest.raises(ValueError):
        matchpoints([result(1, 1, 1, 2, 90, 0, 4), result(1, 1, 3, 4, 90, 0, 4)])


def test_standings_in_percent_with_bots_unplaced_and_ties_sharing_a_place() -> None:
    pairs = [PairInfo(1, "ann & bob"), PairInfo(2, "cid & dan"), PairInfo(3, "eve & fay"),
             PairInfo(4, "bots", is_bot=True)]
    played = [
        # Board 1: table 1 pair 1 (A) v 2 (B); table 2 pair 3 (A) v bots (B).
        result(1, 1, 1, 2, 75, 0, 2),   # A: 75 beats 45 -> pair 1: 2, pair 3: 0
        result(1, 2, 3, 4, 45, 2, 0),   # B: bots 75 beat 45 -> bots 2, pair 2: 0
        # Board 2: the same tables.
        result(2, 1, 1, 2, 60, 0, 0),   # A: eggs (0, 60) v (0, 60) -> 1 each (1 and 3)
        result(2, 2, 3, 4, 60, 0, 0),   # B: 1 each (2 and bots)
    ]
    rows = {r.pair.id: r for r in standings(pairs, played)}
    # Top per board: 2 × (2 − 1) = 2; two boards: 4.
    assert [(rows[p].score, rows[p].top) for p in (1, 2, 3, 4)] == [(3, 4), (1, 4), (1, 4), (3, 4)]
    assert [rows[p].percent("matchpoints") for p in (1, 2, 3, 4)] == [75, 25, 25, 75]
    # Pair 1 first; the bots tie with it but take no place; pairs 2 and 3 share 2nd.
    assert [(r.pair.id, r.place) for r in standings(pairs, played)] == [
        (1, 1), (4, None), (2, 2), (3, 2)]


def test_difference_standings_are_fifty_percent_when_level() -> None:
    pairs = [PairInfo(i) for i in (1, 2, 3, 4)]
    played = [result(1, 1, 1, 2, 100, 0, 4), result(1, 2, 3, 4, 40, 2, 0)]
    rows = {r.pair.id: r for r in standings(pairs, played, DIFFERENCE)}
    # Pair 1: +6 on one board: 50 + 50 × 6 / 12 = 75 %; pair 3: −6: 25 %.
    assert [rows[p].percent(DIFFERENCE) for p in (1, 2, 3, 4)] == [75, 25, 25, 75]
    assert rows[1].percent(DIFFERENCE) == Fraction(75)


def test_a_pair_that_played_nothing_has_no_place() -> None:
    pairs = [PairInfo(i) for i in (1, 2, 3, 4, 5)]
    played = [result(1, 1, 1, 2, 70, 0, 2), result(1, 2, 3, 4, 70, 0, 2)]
    rows = {r.pair.id: r for r in standings(pairs, played)}
    assert rows[5].place is None and rows[5].boards == 0


def test_r19_a_board_stays_unfinished_until_every_table_of_its_round_played_it() -> None:
    seatings = [Seating(1, 1, 2), Seating(2, 3, 4)]
    played = [result(1, 1, 1, 2, 70, 0, 2), result(1, 2, 3, 4, 70, 0, 2),
              result(2, 1, 1, 2, 70, 0, 2)]
    assert unfinished_boards(seatings, [1, 2, 3], played) == {2, 3}
