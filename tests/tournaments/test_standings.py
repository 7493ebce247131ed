"""Standings worked by hand: each test's name says the case, its body the arithmetic.

Pure: no database. Entries are numbers; ``R(round, a, b, outcome, loss_a, loss_b)``.
"""

from __future__ import annotations

from fractions import Fraction

from games.tournaments.standings import EntryInfo, MatchResult, compute, lot


def R(rnd, a, b, outcome, loss_a=0, loss_b=0, forfeit=False):  # noqa: N802 - a table row
    side_a = a if isinstance(a, tuple) else (a,)
    side_b = b if isinstance(b, tuple) else (() if b is None else (b,))
    return MatchResult(rnd, side_a, side_b, outcome, loss_a, loss_b, forfeit)


def E(*ids, bots=(), dq=(), withdrawn=()):  # noqa: N802
    return [EntryInfo(i, f"e{i}", is_bot=i in bots, disqualified=i in dq,
                      withdrawn=i in withdrawn) for i in ids]


def order(rows):
    return [r.entry.id for r in rows]


def by_id(rows):
    return {r.entry.id: r for r in rows}


def test_three_way_cycle_with_byes_loss_point_difference_puts_3_last_and_lot_splits_1_and_2():
    # R1: 1 beats 2 (4 v 12), bye 3. R2: 2 beats 3 (2 v 12), bye 1. R3: 3 beats 1 (6 v 12),
    # bye 2. Everyone: a win + a bye = 4 points. Buchholz: two opponents on 4 each plus
    # the virtual opponent of the bye round (3 completed rounds) = 4 + 4 + 3 = 11 each.
    # Head-to-head in the group of all three: 2 each. Loss-point difference: 1: +8 −6 =
    # +2; 2: −8 +10 = +2; 3: −10 +6 = −4. SB: 1 beat 2 (4) = 4; 2 beat 3 (4) = 4.
    # Wins 1 each. So 3 is last and the lot orders 1 and 2.
    results = [R(1, 1, 2, "A", 4, 12), R(1, 3, None, "bye"),
               R(2, 2, 3, "A", 2, 12), R(2, 1, None, "bye"),
               R(3, 3, 1, "A", 6, 12), R(3, 2, None, "bye")]
    rows = compute(E(1, 2, 3), results, rounds_completed=3, seed=77)
    got = by_id(rows)
    assert [got[i].points for i in (1, 2, 3)] == [4, 4, 4]
    assert [got[i].buchholz for i in (1, 2, 3)] == [11, 11, 11]
    assert [got[i].head_to_head for i in (1, 2, 3)] == [2, 2, 2]
    assert [got[i].loss_point_diff for i in (1, 2, 3)] == [2, 2, -4]
    assert [got[i].sonneborn_berger for i in (1, 2)] == [4, 4]
    assert order(rows)[2] == 3
    first = 1 if lot(77, 1) > lot(77, 2) else 2
    assert order(rows)[:2] == [first, 3 - first]


def test_head_to_head_beats_loss_point_difference_when_points_and_buchholz_tie():
    # R1: 2 beats 1 (10 v 12), 3 beats 5, 6 beats 4. R2: 1 beats 3 (0 v 12), 4 beats 2
    # (8 v 12), 5 ties 6. Points: 1:2 2:2 3:2 4:2 5:1 6:3. Buchholz: 1: 2+2 = 4;
    # 2: 2+2 = 4; 3: 1+2 = 3; 4: 3+2 = 5. 1 and 2 tie on both; 2 beat 1, so 2 is ahead
    # although 1's loss-point difference (−2 +12 = 10) beats 2's (+2 −4 = −2).
    results = [R(1, 1, 2, "B", 12, 10), R(1, 3, 5, "A", 2, 12), R(1, 6, 4, "A", 4, 12),
               R(2, 1, 3, "A", 0, 12), R(2, 4, 2, "A", 8, 12), R(2, 5, 6, "tie", 8, 8)]
    rows = compute(E(1, 2, 3, 4, 5, 6), results, rounds_completed=2)
    got = by_id(rows)
    assert got[1].loss_point_diff == 10 and got[2].loss_point_diff == -2
    assert got[2].head_to_head == 2 and got[1].head_to_head == 0
    assert order(rows) == [6, 4, 2, 1, 3, 5]
    assert [r.place for r in rows] == [1, 2, 3, 4, 5, 6]


def test_forfeit_win_scores_2_but_is_no_win_no_loss_points_and_a_virtual_opponent():
    # R1: 1 beats 2 by forfeit. 3 beats 4 at the table (6 v 12). 1 and 3 have 2 points;
    # Buchholz: 1's round was unplayed: the virtual opponent, 1 point (1 round) = 1;
    # 3's opponent 4 has 0 = 0. So 1 is ahead on Buchholz; wins: 1 has 0, 3 has 1.
    results = [R(1, 1, 2, "A", forfeit=True), R(1, 3, 4, "A", 6, 12)]
    rows = compute(E(1, 2, 3, 4), results, rounds_completed=1)
    got = by_id(rows)
    assert got[1].points == 2 and got[1].wins == 0 and got[1].loss_point_diff == 0
    assert got[1].buchholz == 1 and got[3].buchholz == 0 and got[3].wins == 1
    assert got[2].points == 0 and got[2].buchholz == 1  # the forfeit loser, unplayed too
    # On 0 points, 4 lost to 3 (2 points): Buchholz 2 beats 2's virtual 1.
    assert got[4].buchholz == 2
    assert order(rows) == [1, 3, 4, 2]
    assert got[1].by_round[1] == "+" and got[2].by_round[1] == "−"


def test_double_forfeit_scores_nothing_for_either_side():
    rows = compute(E(1, 2), [R(1, 1, 2, "none", forfeit=True)], rounds_completed=1)
    assert [r.points for r in rows] == [0, 0]


def test_late_joiner_scores_0_for_the_missed_round_and_gets_the_virtual_opponent():
    # 5 joined in round 2. R1: 1 beats 2, 3 beats 4 (5 not paired). R2: 5 beats 1,
    # 3 beats 2, bye 4. After 2 rounds: 5 has 2 points; its Buchholz: 1 (2 points) plus
    # the virtual opponent for round 1 (2 completed rounds: 2) = 4.
    results = [R(1, 1, 2, "A", 2, 12), R(1, 3, 4, "A", 2, 12),
               R(2, 5, 1, "A", 4, 12), R(2, 3, 2, "A", 2, 12), R(2, 4, None, "bye")]
    got = by_id(compute(E(1, 2, 3, 4, 5), results, rounds_completed=2))
    assert got[5].points == 2 and got[5].buchholz == 4
    assert got[4].points == 2 and got[4].buchholz == 4 + 2  # 3 (4 points) + virtual 2


def test_withdrawn_entrys_results_stand_and_count_for_its_opponents():
    # 2 withdrew after beating 1 in R1. R2: 1 beats 3; 2 not paired.
    results = [R(1, 2, 1, "A", 2, 12), R(1, 3, 4, "A", 4, 12), R(2, 1, 3, "A", 2, 12)]
    got = by_id(compute(E(1, 2, 3, 4, withdrawn=(2,)), results, rounds_completed=2))
    assert got[2].points == 2                      # its result stands
    assert got[1].buchholz == 2 + 2                # 2 (2 points) + 3 (2 points)
    # 2 met 1 (who has 2 points) and sat out round 2: the virtual opponent, 2.
    assert got[2].buchholz == Fraction(4)


def test_bot_entry_on_top_takes_no_prize_place_and_the_best_person_is_first():
    # Bot 9 beats 1 (0 v 12), 2 beats 3 (2 v 12): 9 and 2 on 2 points, Buchholz 0 each;
    # loss-point difference 12 v 10 puts the bot first. 3 and 1 on 0 points, Buchholz 2
    # each; difference −10 v −12. Places skip the bot.
    results = [R(1, 9, 1, "A", 0, 12), R(1, 2, 3, "A", 2, 12)]
    rows = compute(E(9, 1, 2, 3, bots=(9,)), results, rounds_completed=1)
    assert [(r.entry.id, r.rank, r.place) for r in rows] == [
        (9, 1, None), (2, 2, 1), (3, 3, 2), (1, 4, 3)]


def test_disqualified_entry_is_listed_last_without_a_place():
    results = [R(1, 1, 2, "A", 0, 12)]
    rows = compute(E(1, 2, dq=(1,)), results, rounds_completed=1)
    assert order(rows) == [2, 1]
    assert rows[0].place == 1 and rows[1].place is None


def test_individual_players_score_their_sides_result_and_buchholz_is_the_mean_opponent():
    # One table: 1+3 (side A) beat 2+4; another: 5+7 tie 6+8. R2: 1+2 beat 5+6.
    results = [R(1, (1, 3), (2, 4), "A", 4, 12), R(1, (5, 7), (6, 8), "tie", 8, 8),
               R(2, (1, 2), (5, 6), "A", 2, 12), R(2, (3, 4), (7, 8), "B", 12, 6)]
    got = by_id(compute(E(*range(1, 9)), results, rounds_completed=2))
    # Points: 1: 4; 2: 2; 3: 2; 4: 0; 5: 1; 6: 1; 7: 3; 8: 3.
    assert [got[i].points for i in range(1, 9)] == [4, 2, 2, 0, 1, 1, 3, 3]
    # 1's Buchholz: mean(2's 2, 4's 0) = 1, then mean(5's 1, 6's 1) = 1: 2.
    assert got[1].buchholz == 2
    # 3's: mean(2, 0) = 1 + mean(7's 3, 8's 3) = 3: 4; SB: won R1 against mean 1: 1.
    assert got[3].buchholz == 4 and got[3].sonneborn_berger == 1


def test_head_to_head_counts_a_forfeit_win_against_the_tied_group():
    # R1: 1 beats 2 by forfeit, 3 beats 4 (6 v 12). R2: 4 beats 1 (4 v 12), 2 beats 3
    # (10 v 12). Everyone has 2 points; Buchholz: 1 and 2 have the virtual opponent of
    # their unplayed round (2) plus an opponent on 2 = 4; 3 and 4 two opponents on 2 = 4.
    # Head-to-head in the group of all four: one win each = 2, 1's forfeit win included
    # (match points scored against the group, the module docstring's step 3).
    results = [R(1, 1, 2, "A", forfeit=True), R(1, 3, 4, "A", 6, 12),
               R(2, 4, 1, "A", 4, 12), R(2, 2, 3, "A", 10, 12)]
    got = by_id(compute(E(1, 2, 3, 4), results, rounds_completed=2))
    assert [got[i].points for i in (1, 2, 3, 4)] == [2, 2, 2, 2]
    assert [got[i].buchholz for i in (1, 2, 3, 4)] == [4, 4, 4, 4]
    assert [got[i].head_to_head for i in (1, 2, 3, 4)] == [2, 2, 2, 2]
