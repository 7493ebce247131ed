"""Series equity (games.bots.equity) and the strong bot's series-aware utility (R18)."""

from __future__ import annotations

import pytest

from games.bots.equity import loss_values, win_chance
from games.bots.playout import utility
from games.bots.search import CLUB, STRONG, _loss_value
from games.engine import fast, new_game, observe

from .helpers import position


@pytest.mark.parametrize("own,other", [(0, 0), (2, 8), (10, 4), (6, 6), (11, 0)])
def test_r18_win_chances_of_the_two_teams_add_up_to_one(own: int, other: int) -> None:
    assert win_chance(own, other, 12) + win_chance(other, own, 12) == pytest.approx(1.0)


def test_r18_a_team_at_the_target_has_lost_and_its_opponent_won() -> None:
    assert win_chance(12, 4, 12) == 0.0
    assert win_chance(4, 13, 12) == 1.0


def test_r18_more_loss_points_never_help() -> None:
    for other in range(0, 12, 2):
        chances = [win_chance(own, other, 12) for own in range(0, 12, 2)]
        assert chances == sorted(chances, reverse=True)


def test_r18_in_mid_series_results_are_worth_about_their_loss_points() -> None:
    values = loss_values(0, 0, 12)
    assert values[6] == 0.0  # eggs or nothing changes (R17)
    assert values[6 + 2] == pytest.approx(2.0) and values[6 - 2] == pytest.approx(-2.0)
    assert 3.5 < values[6 + 4] < 4.5 and -4.5 < values[6 - 4] < -3.5


def test_r18_at_ten_of_twelve_every_lost_game_loses_the_series() -> None:
    values = loss_values(10, 4, 12)
    assert values[6 - 2] == values[6 - 4] == values[6 - 6] < 0
    # ...while pushing the other team from 4 towards 12 still counts in steps.
    assert 0 < values[6 + 2] < values[6 + 4] < values[6 + 6]


def test_r18_the_series_aware_utility_reads_the_loss_value_table() -> None:
    # A finished game: team A took every card (R16: B lost 6 with no trick).
    state = position(["AS", "6C", "7C", "8C"], trump="6S", leader=0, stock=[])
    core = list(state.core)
    core[fast.PILES] = ((1 << 36) - 1, 0)
    core[fast.TRICKS] = (9, 0)
    core[fast.TURN] = None
    finished = tuple(core)
    table = loss_values(10, 0, 12)
    assert utility(finished, 0, table) == pytest.approx(table[6 + 6] + 0.5)
    assert utility(finished, 1, loss_values(0, 10, 12)) == pytest.approx(
        loss_values(0, 10, 12)[6 - 6] - 0.5
    )


def test_r19_only_the_strong_level_weighs_the_series_score() -> None:
    assert STRONG.series_aware and not CLUB.series_aware
    score = {"loss_points": {"A": 10, "B": 4}, "target": 12}
    view = observe(new_game(3, dealer=0), 1, score)
    # Seat 1 plays for team B, which has 4 of 12.
    assert _loss_value(view, 1) == loss_values(4, 10, 12)
    assert _loss_value(observe(new_game(3, dealer=0), 1), 1) is None
