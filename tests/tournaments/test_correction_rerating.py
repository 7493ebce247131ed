"""Correcting a rated match's result re-rates it exactly: afterwards every
player's rating equals a from-scratch recompute of the event's series in which the
match had the corrected result, also when later rounds shared its players; the
correction stays in the audit log.

The games of each match are written as rows (like tests/ratings/factories.py) so that
the series have real game results to rate; everything else goes through the services:
the director's tool, the ``series_corrected`` hook, the ratings' task.
"""

from __future__ import annotations

import pytest
from django.utils import timezone

from games.errors import ServiceError
from games.models import Game, GameResult, Series, SeriesSeat
from games.ratings import maths, tasks
from games.ratings import services as rating_services
from games.ratings.conf import rating_settings
from games.ratings.models import RatedSeries, Rating, RatingChange, SeriesRecord
from games.tournaments.models import AuditEntry, Match
from games.tournaments.services import rounds
from tests.tournaments.helpers import (
    act,
    check_in_everybody,
    correct,
    end_series,
    enter_pairs,
    event,
)

pytestmark = pytest.mark.django_db
# Game winners of each match, by round and match number (A wins round 1's first match).
GAMES = {(1, 1): ["A", "B", "A", "A"], (1, 2): ["B", "B", "", "B"],
         (2, 1): ["A", "A", "B", "A"], (2, 2): ["B", "A", "B", "B"]}


def _play(match: Match, winners: list[str]) -> None:
    """Give the match's series these finished games, then end it through the finisher
    with the goat the games make (4 loss points per lost game, R16)."""
    series = match.series
    now = timezone.now()
    Game.objects.filter(series=series).delete()  # the dealt first game, replaced by rows
    loss = {"A": 0, "B": 0}
    for number, w in enumerate(winners, start=1):
        game = Game.objects.create(series=series, number=number, seed=number, algorithm=1,
                                   dealer=0, first_leader=0, trump_card="6H",
                                   status=Game.Status.FINISHED, state={}, finished_at=now)
        if w:
            loss["B" if w == "A" else "A"] += 4
        GameResult.objects.create(
            game=game, points_a=90 if w == "A" else 30 if w else 60,
            points_b=30 if w == "A" else 90 if w else 60, tricks_a=3, tricks_b=3,
            loss_points_a=4 if w == "B" else 0, loss_points_b=4 if w == "A" else 0,
            eggs=not w, winner=w, last_taker=0)
    goat = "A" if loss["A"] > loss["B"] else "B"
    end_series(series.pk, goat, loss["A"], loss["B"])


def _run_two_rounds(club_cast):
    t = event(club_cast, rated=True, turn_seconds=15, rounds=2)
    enter_pairs(t, club_cast.players[:8])
    act(t, club_cast.director, "start")
    for number in (1, 2):
        round_ = t.round_set.get(number=number)
        if number == 2:
            act(t, club_cast.director, "start_round")
        check_in_everybody(round_)
        for match in round_.matches.order_by("number"):
            match.refresh_from_db()
            _play(match, GAMES[(number, match.number)])
            rounds.match_finished(match.series_id)
            assert tasks.rate_series_task(match.series_id)  # what the worker runs
    return t


def _history(t):
    """(series, seat person ids by position, game winners) in the order they were rated."""
    out = []
    for match in Match.objects.filter(round__tournament=t).order_by("round__number",
                                                                     "number"):
        seats = dict(SeriesSeat.objects.filter(series_id=match.series_id)
                     .values_list("position", "user_id"))
        out.append((match.series, [seats[p] for p in range(4)],
                    GAMES[(match.round.number, match.number)]))
    return out


def recompute(history, corrected: dict[int, str]):
    """Ratings from scratch with the pure rating functions (no service, no stored rows):
    series in their order; a corrected series (series id → its new winner, "" a tie)
    is rated with the corrected goat on the games as they went for the corrected
    winner (mirrored when the games went the other way), a tie is not rated."""
    conf = rating_settings
    model = conf.model()
    state: dict[int, tuple[float, float, float | None]] = {}
    rated: dict[int, int] = {}
    won: dict[int, int] = {}
    for series, ids, winners in history:
        loss_a = sum(4 for w in winners if w == "B")
        loss_b = sum(4 for w in winners if w == "A")
        by_games = "A" if loss_a < loss_b else "B"
        winner = corrected.get(series.pk, by_games)
        if not winner:
            continue
        games = winners if winner == by_games else maths.mirrored(winners)
        at = series.finished_at.timestamp() / 86400.0
        start = {}
        for p, uid in enumerate(ids):
            mu, sigma, last = state.get(uid, (conf.MU, conf.SIGMA, None))
            start[p] = maths.SeatRating(mu, sigma if last is None
                                        else conf.inflated_sigma(sigma, at - last))
        outcome = maths.rate_series(model, start, games, "B" if winner == "A" else "A")
        for p, uid in enumerate(ids):
            state[uid] = (outcome[p].mu, outcome[p].sigma, at)
            rated[uid] = rated.get(uid, 0) + 1
            won[uid] = won.get(uid, 0) + int(maths.team_of(p) == winner)
    return state, rated, won


def assert_matches(players, history, corrected):
    state, rated, won = recompute(history, corrected)
    for user in players:
        rating = Rating.objects.get(user=user)
        mu, sigma, _last = state[user.pk]
        assert rating.mu == pytest.approx(mu, abs=1e-9), user.username
        assert rating.sigma == pytest.approx(sigma, abs=1e-9), user.username
        assert rating.series_rated == rated[user.pk], user.username
        assert rating.series_won == won.get(user.pk, 0), user.username


def _correct(t, director, match, outcome, loss_a, loss_b, reason="score sheet"):
    """The director's tool, then what the worker runs for the ratings hook."""
    correct(t, director, match_id=match.pk, outcome=outcome, loss_a=loss_a,
            loss_b=loss_b, reason=reason)
    return tasks.rerate_series_task(match.series_id)


def test_correcting_a_rated_round_1_result_equals_a_recompute_with_the_corrected_result(
        club_cast, django_capture_on_commit_callbacks, monkeypatch):
    t = _run_two_rounds(club_cast)
    players = club_cast.players[:8]
    history = _history(t)
    assert_matches(players, history, {})  # the recompute is right at all
    first = Match.objects.get(round__tournament=t, round__number=1, number=1)
    assert first.outcome == "A"
    before = {r.user_id: r.mu for r in Rating.objects.all()}
    queued = []
    monkeypatch.setattr(tasks.rerate_series_task, "delay", queued.append)
    with django_capture_on_commit_callbacks(execute=True):
        correct(t, club_cast.director, match_id=first.pk, outcome="B", loss_a=12,
                loss_b=4, reason="the score sheet was swapped")
    assert queued == [first.series_id], "the ratings reacted to the corrected series"
    assert tasks.rerate_series_task(first.series_id) is True
    assert_matches(players, history, {first.series_id: "B"})
    assert {r.user_id: r.mu for r in Rating.objects.all()} != before
    # Round 2 shared players with the corrected match: its changes were rewritten too.
    later = Match.objects.filter(round__tournament=t, round__number=2)
    assert RatingChange.objects.filter(series__in=[m.series_id for m in later],
                                       rolled_back_at__isnull=True).count() == 8
    series = Series.objects.get(pk=first.series_id)
    # The series stays the record of what was played (verify_games checks it against
    # its games); the ratings and the records read the corrected result.
    assert (series.winner, series.goat, series.termination) == ("A", "B", "completed")
    assert rating_services.series_result(series) == ("B", "A")
    records = SeriesRecord.objects.filter(series=series)
    assert {r.team: r.won for r in records} == {"A": False, "B": True}
    entry = AuditEntry.objects.get(tournament=t, action="result.correct")
    assert entry.reason == "the score sheet was swapped"
    assert entry.details["before"]["outcome"] == "A"
    assert entry.details["after"] == {"outcome": "B", "loss_a": 12, "loss_b": 4}


def test_a_correction_to_a_tie_takes_it_out_and_back_to_a_win_puts_it_back(club_cast):
    t = _run_two_rounds(club_cast)
    players = club_cast.players[:8]
    history = _history(t)
    second = Match.objects.get(round__tournament=t, round__number=1, number=2)
    assert second.outcome == "B"
    assert _correct(t, club_cast.director, second, "tie", 8, 8) is True
    assert_matches(players, history, {second.series_id: ""})
    assert not RatingChange.objects.filter(series_id=second.series_id,
                                           rolled_back_at__isnull=True).exists()
    assert _correct(t, club_cast.director, second, "A", 4, 12) is True
    assert_matches(players, history, {second.series_id: "A"})
    assert _correct(t, club_cast.director, second, "B", 12, 4) is True
    assert_matches(players, history, {})  # back where the games put it
    assert AuditEntry.objects.filter(tournament=t, action="result.correct").count() == 3


def test_a_refused_correction_changes_no_rating(club_cast):
    t = _run_two_rounds(club_cast)
    first = Match.objects.get(round__tournament=t, round__number=1, number=1)
    before = sorted(Rating.objects.values_list("user_id", "mu", "sigma"))
    for data in [{"outcome": "C", "loss_a": 1, "loss_b": 1, "reason": "x"},
                 {"outcome": "B", "loss_a": 99, "loss_b": 1, "reason": "x"},
                 {"outcome": "B", "loss_a": 1, "loss_b": 1, "reason": ""}]:
        with pytest.raises(ServiceError):
            correct(t, club_cast.director, match_id=first.pk, **data)
    with pytest.raises(ServiceError):
        correct(t, club_cast.member, match_id=first.pk, outcome="B", loss_a=12,
                loss_b=2, reason="I say so")
    with pytest.raises(ServiceError, match="Confirm"):  # no confirmation: nothing saved
        act(t, club_cast.director, "correct", match_id=first.pk, outcome="B", loss_a=12,
            loss_b=2, reason="score sheet")
    assert not Match.objects.get(pk=first.pk).corrected
    assert tasks.rerate_series_task(first.series_id) is True  # nothing corrected: same
    assert sorted(Rating.objects.values_list("user_id", "mu", "sigma")) == before
    assert rating_services.rerate_series(10**9) is False
    assert tasks.rerate_series_task("1") is False
    assert RatedSeries.objects.filter(series_id=first.series_id, rolled_back_at=None).exists()


def test_the_directors_page_offers_the_finished_matches_to_correct(client, club_cast):
    """The correct-a-result form names the matches (round, number, sides) instead of
    asking for a database id nobody can see; posting it through the page corrects."""
    t = _run_two_rounds(club_cast)
    client.force_login(club_cast.director)
    page = client.get(f"/tournament/{t.pk}/").content.decode()
    form = page[page.index('value="correct"'):]
    form = form[:form.index("</form>")]
    for match in Match.objects.filter(round__tournament=t):
        assert f'<option value="{match.pk}">Round {match.round.number} · #{match.number}:' \
            in form
    first = Match.objects.get(round__tournament=t, round__number=1, number=1)
    form = {"action": "correct", "match_id": str(first.pk), "outcome": "tie", "loss_a": "6",
            "loss_b": "6", "reason": "score sheet"}
    preview = client.post(f"/tournament/{t.pk}/director/", form)
    assert preview.status_code == 200  # the confirm step; nothing changed yet
    first.refresh_from_db()
    assert first.outcome == "A" and not first.corrected
    response = client.post(f"/tournament/{t.pk}/director/",
                           {**form, "forfeit": "0", "confirm": preview.context["token"]})
    assert response.status_code == 302
    first.refresh_from_db()
    assert first.outcome == "tie" and first.corrected
