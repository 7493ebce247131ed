"""The playout tuning tool (games.bots.tune) and the card-sense tunings."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.bots.heuristics import (
    CASUAL,
    CASUAL_PARAMS,
    CardSense,
    SenseParams,
    hold_chance,
    keep_value,
    mask_points,
)
from games.bots.playout import utility
from games.bots.search import CLUB, PLAYOUT, SEEN_PLAYOUT, STRONG
from games.bots.tune import compare, play_game, search
from games.engine import fast
from games.engine.scoring import score


def test_identical_tunings_tie_on_duplicate_deals() -> None:
    # Each deal is played twice with the tunings swapped: the same tuning on
    # both sides must cancel exactly.
    assert compare(CASUAL_PARAMS, CASUAL_PARAMS, deals=40) == (0.0, 0.0)


def test_a_tuning_that_throws_trumps_away_loses_to_casual() -> None:
    # R7: trumps win tricks; valuing them below plain sixes spends them first.
    wasteful = SenseParams(trump_base=-20.0, trump_rank=0.0, trump_points=0.0)
    mean, se = compare(wasteful, CASUAL_PARAMS, deals=300)
    assert mean < -2 * se


def test_the_playout_tuning_beats_the_casual_tuning() -> None:
    mean, se = compare(PLAYOUT.params, CASUAL_PARAMS, deals=3000, seed=77)
    assert mean > 2 * se


def test_searching_levels_play_out_with_the_playout_tuning() -> None:
    assert CLUB.sense is PLAYOUT
    assert STRONG.sense is SEEN_PLAYOUT
    assert replace(SEEN_PLAYOUT.params, seen_holds=False) == PLAYOUT.params


def test_r9_seen_holds_judge_a_set_by_the_opponents_hands() -> None:
    # Clubs trump (index 0-8); the lead is the ace of hearts (index 26).
    ace_h, ten_h, six_c = 1 << 26, 1 << 25, 1 << 0
    sense = SEEN_PLAYOUT
    # R7: a trump beats it; a lower heart does not.
    assert sense._hold(ace_h, 0, 0, 4, 2, (ten_h, six_c)) == sense.params.beatable_hold
    assert sense._hold(ace_h, 0, 0, 4, 2, (ten_h, 1 << 30)) == 1.0
    # Without known hands the odds decide (casual): the same answer as hold_chance.
    live = six_c | ten_h
    assert sense._hold(ace_h, live, 0, 4, 2, None) == hold_chance(ace_h, live, 0, 4, 2)


def test_seen_hold_playouts_reach_the_end() -> None:
    seen = (SEEN_PLAYOUT, SEEN_PLAYOUT)
    assert play_game(4, seen) in {-6, -4, -2, 0, 2, 4, 6}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_r16_play_game_returns_the_loss_point_margin_of_a_finished_game(seed: int) -> None:
    margin = play_game(seed, (CASUAL, CASUAL))
    assert margin in {-6, -4, -2, 0, 2, 4, 6}


def test_r16_utility_table_matches_the_engine_score() -> None:
    core = list(fast.deal(5, dealer=0))
    for pa_mask, tricks in [(0, (0, 9)), ((1 << 36) - 1, (9, 0)), (0b111 << 7, (2, 7))]:
        core[fast.PILES] = (pa_mask, ((1 << 36) - 1) ^ pa_mask)
        core[fast.TRICKS] = tricks
        core[fast.TURN] = None
        pa = mask_points(pa_mask)
        loss, _, _ = score({"A": pa, "B": 120 - pa}, {"A": tricks[0], "B": tricks[1]})
        expected = loss["B"] - loss["A"] + 0.5 * (pa - 60) / 60
        assert utility(tuple(core), 0) == pytest.approx(expected)
        assert utility(tuple(core), 1) == pytest.approx(-expected)


def test_keep_values_follow_the_tuning() -> None:
    params = SenseParams(trump_base=20.0)
    sense = CardSense(params)
    # Trump ace (index 8 of suit 0) with clubs trump.
    assert sense.keep[0][8] == keep_value(8, 0, params) == 20.0 + 1.5 * 8 + 11 * 0.5
    assert CASUAL.keep[1][8] == CASUAL_PARAMS.plain_keep[8]


def test_coordinate_search_keeps_the_start_when_nothing_is_clearly_better() -> None:
    # Zero rounds: the casual tuning comes back unchanged.
    assert search(deals=10, rounds=0, seed=1) == CASUAL_PARAMS
