"""Rating maths against openskill directly, on known cases (no database)."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from games.ratings import maths
from games.ratings.conf import rating_settings

pytestmark = pytest.mark.django_db(databases=[])  # settings only

BETA = 25 / 3


def fresh() -> dict[int, maths.SeatRating]:
    return {p: maths.SeatRating(25.0, 25 / 3) for p in range(4)}


def direct(start, winners):
    """The same chain written straight against openskill, seats 0+2 v 1+3."""
    model = PlackettLuce(beta=BETA)
    r = {p: model.rating(mu=s.mu, sigma=s.sigma) for p, s in start.items()}
    for w in winners:
        ranks = {"A": [1, 2], "B": [2, 1], "": [1, 1]}[w]
        (r[0], r[2]), (r[1], r[3]) = model.rate([[r[0], r[2]], [r[1], r[3]]], ranks=ranks)
    return r


def test_configured_model_is_plackett_luce_with_beta_25_over_3():
    model = rating_settings.model()
    assert type(model).__name__ == "PlackettLuce"
    assert model.beta == pytest.approx(25 / 3)
    assert model.mu == 25.0 and model.sigma == pytest.approx(25 / 3)


def test_one_game_won_by_a_matches_openskill_exactly():
    out = maths.rate_series(rating_settings.model(), fresh(), ["A"], goat="B")
    expected = direct(fresh(), ["A"])
    for p in range(4):
        assert out[p].mu == expected[p].mu and out[p].sigma == expected[p].sigma
        assert out[p].kind == "rated"
    # Known values from openskill 6.2 (PlackettLuce, beta 25/3, tau 25/300).
    assert out[0].mu == pytest.approx(26.701147943067404)
    assert out[1].mu == pytest.approx(23.298852056932596)
    assert out[0].sigma == pytest.approx(8.23289527467601)


def test_a_chain_of_games_is_one_update_per_game_in_order():
    winners = ["A", "B", "B", "", "A", "B", "B"]
    start = {0: maths.SeatRating(30.0, 3.0), 1: maths.SeatRating(22.0, 6.0),
             2: maths.SeatRating(25.0, 8.0), 3: maths.SeatRating(27.0, 2.5)}
    out = maths.rate_series(rating_settings.model(), start, winners, goat="A")
    expected = direct(start, winners)
    for p in range(4):
        assert out[p].mu == pytest.approx(expected[p].mu, abs=1e-12)
        assert out[p].sigma == pytest.approx(expected[p].sigma, abs=1e-12)


def test_eggs_are_a_tie():
    out = maths.rate_series(rating_settings.model(), fresh(), [""], goat="A")
    assert all(out[p].mu == pytest.approx(25.0) for p in range(4))
    assert all(out[p].sigma < 25 / 3 for p in range(4)), "a tie is still information"


def test_partners_move_in_the_same_direction_and_equal_partners_equally():
    start = {0: maths.SeatRating(25.0, 8.0), 1: maths.SeatRating(25.0, 4.0),
             2: maths.SeatRating(31.0, 2.0), 3: maths.SeatRating(25.0, 4.0)}
    out = maths.rate_series(rating_settings.model(), start, ["B", "A", "B"], goat="A")
    d = {p: out[p].mu - start[p].mu for p in range(4)}
    assert d[0] < 0 and d[2] < 0, "team A lost more games: both partners go down"
    assert d[1] > 0 and d[3] > 0
    assert d[1] == pytest.approx(d[3]), "identical partners get identical changes"
    assert abs(d[0]) > abs(d[2]), "the less certain partner moves more"


def test_seat_symmetry_swapping_teams_mirrors_the_result():
    out = maths.rate_series(rating_settings.model(), fresh(), ["A", "A", "B"], goat="B")
    swapped = maths.rate_series(rating_settings.model(), fresh(), ["B", "B", "A"], goat="A")
    for p in range(4):
        assert out[p].mu == pytest.approx(swapped[(p + 1) % 4].mu)


def test_leaver_on_the_winning_team_is_rated_as_having_lost():
    winners = ["A", "A", "B", "A"]
    out = maths.rate_series(rating_settings.model(), fresh(), winners, goat="B", leavers=[0])
    actual = direct(fresh(), winners)
    as_lost = direct(fresh(), maths.mirrored(winners))
    assert out[0].kind == "leaver"
    assert out[0].mu == pytest.approx(as_lost[0].mu) and out[0].mu < 25.0
    assert out[2].kind == "excused" and (out[2].mu, out[2].sigma) == (25.0, 25 / 3)
    for p in (1, 3):  # opponents rated normally
        assert out[p].kind == "rated"
        assert out[p].mu == pytest.approx(actual[p].mu)


def test_leaver_on_the_losing_team_is_rated_from_the_games():
    winners = ["B", "B", "A", "B"]
    out = maths.rate_series(rating_settings.model(), fresh(), winners, goat="A", leavers=[2])
    actual = direct(fresh(), winners)
    assert out[2].mu == pytest.approx(actual[2].mu) and out[2].mu < 25.0
    assert out[0].kind == "excused" and out[0].mu == 25.0


def test_bad_input_is_refused():
    with pytest.raises(ValueError):
        maths.rate_series(rating_settings.model(), {0: maths.SeatRating(25, 8)}, [], goat="A")
    with pytest.raises(ValueError):
        maths.rate_series(rating_settings.model(), fresh(), ["X"], goat="A")


def test_display_is_the_conservative_value_scaled():
    assert rating_settings.display(25.0, 25 / 3) == 1000
    assert rating_settings.display(25.0, 2.0) == 1475
    assert rating_settings.display(-20.0, 8.0) == 0, "never negative"


def test_sigma_grows_with_idle_days_up_to_the_prior():
    assert rating_settings.inflated_sigma(3.0, 0) == 3.0
    assert rating_settings.inflated_sigma(3.0, 180) == pytest.approx((9 + 0.05 * 180) ** 0.5)
    assert rating_settings.inflated_sigma(3.0, 100_000) == pytest.approx(25 / 3)
