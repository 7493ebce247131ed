"""rate_series and rollback_series: storage, leaver rule, idempotence, rollback."""

from __future__ import annotations

import math
import threading
from datetime import timedelta

import pytest
from django.db import connections
from django.utils import timezone

from games.ratings import services
from games.ratings.models import (
    MonthlyStats,
    RatedSeries,
    Rating,
    RatingChange,
    RatingContact,
    SeriesRecord,
    month_start,
)
from tests.ratings.factories import finished_series, make_users

WINNERS = ["A", "B", "A", "", "A", "A"]  # team A wins 4, loses 1, one egg: B is the goat
MIRRORED = ["B", "A", "B", "", "B", "B"]  # the same games lost: how a leaver of A is rated

# The site's rating model, written out here from its definition rather than taken from
# the code under test: OpenSkill's Plackett-Luce (Weng & Lin 2011, Algorithm 4) with
# mu 25, sigma 25/3, beta 25/3, tau 25/300 and openskill's kappa 1e-4.
MU, SIGMA, BETA, TAU, KAPPA = 25.0, 25 / 3, 25 / 3, 25 / 300, 1e-4


def plackett_luce(winners: list[str]) -> dict[int, tuple[float, float]]:
    """(mu, sigma) of seats 0-3 (teams A = 0+2, B = 1+3) after these games from the prior.

    Two teams per game: each player's variance first grows by tau²; a team's mu and
    variance are its players' sums; c² = var_A + var_B + 2·beta²; the teams' win
    probabilities are p_t = e^(mu_t/c) / (e^(mu_A/c) + e^(mu_B/c)). A player's mu moves by
    sigma²/c times p_loser (winner, up), -p_loser (loser, down) or (p_other - p_own)/2
    (eggs, a tie); sigma² shrinks by the factor 1 - sigma²·sqrt(var_team)·p_A·p_B/c³
    (at least kappa).
    """
    seats = {p: (MU, SIGMA) for p in range(4)}
    teams = {"A": (0, 2), "B": (1, 3)}
    for winner in winners:
        grown = {p: (mu, math.sqrt(sigma ** 2 + TAU ** 2)) for p, (mu, sigma) in seats.items()}
        team_mu = {t: sum(grown[p][0] for p in ps) for t, ps in teams.items()}
        team_var = {t: sum(grown[p][1] ** 2 for p in ps) for t, ps in teams.items()}
        c = math.sqrt(team_var["A"] + team_var["B"] + 2 * BETA ** 2)
        odds = {t: math.exp(team_mu[t] / c) for t in teams}
        p_win = {t: odds[t] / (odds["A"] + odds["B"]) for t in teams}
        for team, positions in teams.items():
            other = "B" if team == "A" else "A"
            if winner == team:
                omega = p_win[other]
            elif winner == other:
                omega = -p_win[team]
            else:
                omega = (p_win[other] - p_win[team]) / 2
            shrink = p_win["A"] * p_win["B"] * math.sqrt(team_var[team]) / c ** 3
            for p in positions:
                mu, sigma = grown[p]
                seats[p] = (mu + sigma ** 2 / c * omega,
                            sigma * math.sqrt(max(1 - sigma ** 2 * shrink, KAPPA)))
    return seats


@pytest.fixture
def four(db):
    return make_users("p", 4)


def fields(rating: Rating) -> tuple:
    return (rating.mu, rating.sigma, rating.series_rated, rating.series_won, rating.partners,
            rating.opponents, rating.last_played_at, rating.last_played_day)


def test_a_ranked_series_stores_one_change_per_player(four):
    series = finished_series(four, WINNERS)
    assert services.rate_series(series.pk) is True
    changes = {c.position: c for c in RatingChange.objects.filter(series=series)}
    assert sorted(changes) == [0, 1, 2, 3]
    expected = plackett_luce(WINNERS)
    for position, change in changes.items():
        rating = Rating.objects.get(user=four[position])
        assert (rating.mu, rating.sigma) == (change.mu_after, change.sigma_after)
        assert (rating.mu, rating.sigma) == pytest.approx(expected[position], rel=1e-12)
        assert (change.mu_before, change.sigma_before) == (25.0, 25 / 3)
        assert change.display_before == 1000
        assert rating.series_rated == 1
        assert rating.partners == 1 and rating.opponents == 2
        assert rating.last_played_at == series.finished_at
    assert changes[0].won and changes[2].won and not changes[1].won
    assert changes[0].delta > 0 and changes[2].delta > 0, "winners go up, together"
    assert changes[1].mu_after < 25 and changes[3].mu_after < 25, "losers' mu goes down"
    assert RatedSeries.objects.get(series=series).rated is True


def test_records_count_games_goats_and_eggs(four):
    series = finished_series(four, WINNERS)
    services.rate_series(series.pk)
    a = SeriesRecord.objects.get(series=series, user=four[0])
    b = SeriesRecord.objects.get(series=series, user=four[1])
    assert (a.won, a.goat, a.games_played, a.games_won, a.games_lost, a.eggs) == (
        True, False, 6, 4, 1, 1)
    assert (b.won, b.goat, b.goat_with_eggs, b.games_won, b.games_lost) == (
        False, True, True, 1, 4)
    assert a.partner_id == four[2].pk and a.first_game_id == series.games.get(number=1).pk
    month = month_start(series.finished_at)
    assert MonthlyStats.objects.get(user=four[0], month=month).series_won == 1
    assert MonthlyStats.objects.get(user=four[1], month=month).goats == 1


def test_a_casual_series_is_recorded_but_not_rated(four):
    series = finished_series(four, WINNERS, ranked=False)
    assert services.rate_series(series.pk) is True
    assert SeriesRecord.objects.filter(series=series).count() == 4
    assert not RatingChange.objects.exists() and not Rating.objects.exists()
    assert not MonthlyStats.objects.exists(), "the boards are ranked only"
    assert RatedSeries.objects.get(series=series).rated is False


def test_unfinished_or_unknown_series_is_left_alone(four):
    series = finished_series(four, WINNERS)
    series.status = "playing"
    series.save()
    assert services.rate_series(series.pk) is False
    assert services.rate_series(999_999) is False
    assert not RatedSeries.objects.exists()


def test_leaver_rule(four):
    # Team A wins the series although seat 0 left: 0 is rated as having lost, 2 is
    # unchanged, the opponents are rated from the games as played.
    series = finished_series(four, WINNERS, leavers=(0,))
    services.rate_series(series.pk)
    changes = {c.position: c for c in RatingChange.objects.filter(series=series)}
    assert changes[0].kind == "leaver" and changes[0].mu_after < 25 and not changes[0].won
    assert (changes[0].mu_after, changes[0].sigma_after) == pytest.approx(
        plackett_luce(MIRRORED)[0], rel=1e-12)
    assert changes[2].kind == "excused"
    partner = Rating.objects.get(user=four[2])
    assert (partner.mu, partner.sigma, partner.series_rated) == (25.0, 25 / 3, 0)
    assert changes[2].delta == 0
    normal = plackett_luce(WINNERS)
    for p in (1, 3):
        assert changes[p].kind == "rated"
        assert (changes[p].mu_after, changes[p].sigma_after) == pytest.approx(normal[p],
                                                                              rel=1e-12)
    record = SeriesRecord.objects.get(series=series, user=four[0])
    # The record shows the team's result (won) and, beside it, that they left.
    assert record.left and record.won


def test_inactivity_grows_sigma_before_the_update(four):
    old = finished_series(four, ["A", "A", "A"], finished_at=timezone.now() - timedelta(days=200))
    services.rate_series(old.pk)
    sigma_then = Rating.objects.get(user=four[0]).sigma
    new = finished_series(four, ["A", "A", "A"])
    services.rate_series(new.pk)
    change = RatingChange.objects.get(series=new, user=four[0])
    assert change.sigma_before == sigma_then, "the stored value, for exact rollback"
    # Variance grows by 0.05 a day, capped at the prior's; the display is
    # 1000 + 25·(mu - 3·sigma), rounded.
    grown = min(25 / 3, math.sqrt(sigma_then ** 2 + 0.05 * 200))
    assert grown > sigma_then
    assert change.display_before == round(1000 + 25 * (change.mu_before - 3 * grown))


def test_rating_the_same_series_twice_rates_it_once(four):
    series = finished_series(four, WINNERS)
    assert services.rate_series(series.pk) is True
    before = [fields(r) for r in Rating.objects.order_by("user_id")]
    assert services.rate_series(series.pk) is False
    assert [fields(r) for r in Rating.objects.order_by("user_id")] == before
    assert RatingChange.objects.count() == 4 and SeriesRecord.objects.count() == 4


@pytest.mark.django_db(transaction=True)
def test_two_workers_finishing_at_once_rate_exactly_once():
    players = make_users("c", 4)
    series = finished_series(players, WINNERS)
    barrier = threading.Barrier(2)
    results: list[object] = []

    def worker() -> None:
        try:
            barrier.wait()
            results.append(services.rate_series(series.pk))
        except Exception as error:  # reported below
            results.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results, key=str) == [False, True], results
    assert RatingChange.objects.filter(series=series).count() == 4
    assert SeriesRecord.objects.filter(series=series).count() == 4
    assert all(r.series_rated == 1 for r in Rating.objects.all())


def test_rollback_restores_exactly(four):
    first = finished_series(four, ["B", "B", "B"], finished_at=timezone.now() - timedelta(days=3))
    services.rate_series(first.pk)
    before = {r.user_id: fields(r) for r in Rating.objects.all()}
    contacts = sorted(RatingContact.objects.values_list("user", "other", "as_partner",
                                                        "as_opponent"))
    second = finished_series(four, WINNERS)
    services.rate_series(second.pk)
    assert {r.user_id: fields(r) for r in Rating.objects.all()} != before
    assert services.rollback_series(second.pk) is True
    assert {r.user_id: fields(r) for r in Rating.objects.all()} == before
    assert sorted(RatingContact.objects.filter(as_partner__gt=0).values_list(
        "user", "other", "as_partner", "as_opponent")) == [c for c in contacts if c[2]]
    assert all(c.rolled_back_at for c in RatingChange.objects.filter(series=second))
    assert all(r.voided for r in SeriesRecord.objects.filter(series=second))
    month = month_start(second.finished_at)
    assert MonthlyStats.objects.get(user=four[0], month=month).series_won == 0
    assert services.rollback_series(second.pk) is False, "once"
    assert services.rate_series(second.pk) is False, "a rolled-back series is never re-rated"


def test_rollback_of_a_first_series_leaves_the_prior(four):
    series = finished_series(four, WINNERS)
    services.rate_series(series.pk)
    services.rollback_series(series.pk)
    for rating in Rating.objects.all():
        assert fields(rating) == (25.0, 25 / 3, 0, 0, 0, 0, None, None)


def test_rollback_under_later_series_rates_them_again_exactly(four):
    voided = finished_series(four, ["A"] * 3, finished_at=timezone.now() - timedelta(days=2))
    services.rate_series(voided.pk)
    later = finished_series(four, ["B"] * 3)
    services.rate_series(later.pk)
    services.rollback_series(voided.pk)
    # The same later series played by four newcomers: what the ratings must be now.
    fresh = make_users("fresh", 4)
    alone = finished_series(fresh, ["B"] * 3, finished_at=later.finished_at)
    services.rate_series(alone.pk)
    for mine, theirs in zip(four, fresh, strict=True):
        rating, expected = Rating.objects.get(user=mine), Rating.objects.get(user=theirs)
        assert (rating.mu, rating.sigma) == pytest.approx((expected.mu, expected.sigma))
        assert rating.series_rated == 1 and rating.last_played_at == later.finished_at
    change = RatingChange.objects.get(series=later, user=four[0])
    assert change.mu_before == 25.0, "the later change now starts from the prior"


def test_sweep_processes_series_whose_task_was_lost(four):
    series = finished_series(four, WINNERS)
    assert services.unprocessed_series_ids() == [series.pk]
    assert services.sweep() == 1
    assert services.unprocessed_series_ids() == []


def test_the_receiver_enqueues_after_commit(four, django_capture_on_commit_callbacks,
                                            monkeypatch):
    from games import signals
    from games.models import Series
    from games.ratings import tasks

    sent: list[int] = []
    monkeypatch.setattr(tasks.rate_series_task, "delay", sent.append)
    rolled_back: list[int] = []
    monkeypatch.setattr(tasks.rollback_series_task, "delay", rolled_back.append)
    with django_capture_on_commit_callbacks(execute=True):
        signals.series_finished.send(sender=Series, series_id=7, winner="A", goat="B",
                                     termination="completed")
        # The ratings act on the reason explicitly: a vote or an empty table rates
        # nothing, a void rolls back.
        for reason in ("voted_end", "abandoned"):
            signals.series_finished.send(sender=Series, series_id=8, winner="", goat="",
                                         termination=reason)
        signals.series_finished.send(sender=Series, series_id=9, winner="A", goat="B",
                                     termination="voided")
    assert sent == [7]
    assert rolled_back == [9]


def test_the_task_validates_and_calls_the_service(four):
    from games.ratings.tasks import rate_series_task

    series = finished_series(four, WINNERS)
    assert rate_series_task("7") is False and rate_series_task(True) is False
    assert rate_series_task(series.pk) is True
    assert rate_series_task(series.pk) is False
