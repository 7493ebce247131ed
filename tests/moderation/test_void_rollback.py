"""Voiding a series rolls its ratings back exactly: afterwards every rating, every later
rating change and the leaderboard order equal a from-scratch recompute of the history
without that series, also when it sits in the middle of the players' histories."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from accounts.moderation.models import ModerationLog
from accounts.moderation.services import voids
from games.errors import InvalidRequestError, PermissionDeniedError
from games.models import Game, Series, Termination
from games.ratings import maths, services, tasks
from games.ratings.conf import rating_settings
from games.ratings.models import RatedSeries, Rating, RatingChange, SeriesRecord
from games.ratings.selectors import eligible
from games.signals import series_finished
from tests.ratings.factories import finished_series, make_users

pytestmark = pytest.mark.django_db

# (positions 0-3 as indices into the players, game winners, days ago, leaver positions)
HISTORY = [
    ([0, 1, 2, 3], ["A", "A", "B", "A"], 20, ()),
    ([0, 4, 1, 5], ["B", "", "B", "B"], 18, ()),
    ([2, 3, 6, 7], ["A", "B", "A", "A"], 16, ()),
    ([0, 6, 3, 5], ["B", "B", "A", "B", "B"], 14, ()),   # index 3: the one voided
    ([0, 1, 6, 7], ["A", "A", "A"], 12, ()),
    ([4, 5, 2, 3], ["B", "A", "B", "B"], 10, ()),
    ([1, 2, 4, 7], ["A", "", "A", "A"], 8, ()),
    ([0, 3, 5, 6], ["A", "A", "B", "A"], 6, (1,)),       # seat 1 left: leaver rule
    ([6, 7, 0, 1], ["B", "B", "B"], 3, ()),
    ([2, 4, 3, 5], ["A", "A", "A"], 1, ()),              # shares nobody with the void's
]                                                          # players until earlier replays
VOIDED = 3
LOW_BAR = {"LEADERBOARD_MIN_SERIES": 1, "LEADERBOARD_MIN_PARTNERS": 1,
           "LEADERBOARD_MIN_OPPONENTS": 1, "LEADERBOARD_MAX_SIGMA": 50.0,
           "LEADERBOARD_ACTIVE_DAYS": 60}


def play_history(players):
    now = timezone.now()
    made = []
    for seats, winners, days, leavers in HISTORY:
        series = finished_series([players[i] for i in seats], winners, leavers=leavers,
                                 finished_at=now - timedelta(days=days))
        assert services.rate_series(series.pk)
        made.append(series)
    return made


def recompute(players, made, skip):
    """The ratings from scratch, as if series ``skip`` had never been played: an
    independent replay with the pure rating functions (no service, no stored rows)."""
    conf = rating_settings
    model = conf.model()
    state = {u.pk: (conf.MU, conf.SIGMA, None) for u in players}
    rated = {u.pk: 0 for u in players}
    displays = {}
    for index, (seats, winners, _days, leavers) in enumerate(HISTORY):
        if index == skip:
            continue
        at = made[index].finished_at
        day = at.timestamp() / 86400.0
        ids = [players[i].pk for i in seats]
        start = {}
        for p, uid in enumerate(ids):
            mu, sigma, last = state[uid]
            idle = sigma if last is None else conf.inflated_sigma(sigma, day - last)
            start[p] = maths.SeatRating(mu, idle)
        goat = "A" if sum(4 for w in winners if w == "B") >= sum(4 for w in winners if w == "A") \
            else "B"
        outcome = maths.rate_series(model, start, winners, goat, leavers)
        for p, uid in enumerate(ids):
            result = outcome[p]
            if result.kind == "excused":
                displays[(index, uid)] = conf.display(start[p].mu, start[p].sigma)
                continue
            state[uid] = (result.mu, result.sigma, day)
            rated[uid] += 1
            displays[(index, uid)] = conf.display(result.mu, result.sigma)
    return state, rated, displays


def assert_matches_recompute(players, made, skip):
    state, rated, displays = recompute(players, made, skip)
    for user in players:
        rating = Rating.objects.get(user=user)
        mu, sigma, last = state[user.pk]
        assert rating.mu == pytest.approx(mu, abs=1e-9), user.username
        assert rating.sigma == pytest.approx(sigma, abs=1e-9), user.username
        if last is None:
            assert rating.last_played_day is None
        else:
            assert rating.last_played_day == pytest.approx(last, abs=1e-6)
        assert rating.series_rated == rated[user.pk], user.username
    for index, series in enumerate(made):
        if index == skip:
            continue
        for change in RatingChange.objects.filter(series=series):
            assert change.display_after == displays[(index, change.user_id)], (index, change)


def test_voiding_a_series_in_the_middle_equals_a_recompute_without_it():
    players = make_users("p", 8)
    made = play_history(players)
    assert_matches_recompute(players, made, skip=None)  # the recompute is right at all
    before_void = {r.user_id: r.mu for r in Rating.objects.all()}
    assert services.rollback_series(made[VOIDED].pk) is True
    assert_matches_recompute(players, made, skip=VOIDED)
    assert {r.user_id: r.mu for r in Rating.objects.all()} != before_void
    assert services.rollback_series(made[VOIDED].pk) is False, "once"


def test_the_first_and_the_last_series_too():
    players = make_users("q", 8)
    made = play_history(players)
    services.rollback_series(made[0].pk)
    assert_matches_recompute(players, made, skip=0)
    players2 = make_users("r", 8)
    made2 = play_history(players2)
    services.rollback_series(made2[-1].pk)
    assert_matches_recompute(players2, made2, skip=len(HISTORY) - 1)


@override_settings(KOZEL_RATING=LOW_BAR)
def test_leaderboard_places_follow_the_recompute():
    players = make_users("s", 8)
    made = play_history(players)
    services.rollback_series(made[VOIDED].pk)
    state, _rated, _ = recompute(players, made, VOIDED)
    conf = rating_settings
    now = timezone.now().timestamp() / 86400.0

    def score(uid):
        mu, sigma, last = state[uid]
        return mu - conf.DISPLAY_SIGMAS * conf.inflated_sigma(sigma, now - last)

    expected = sorted(state, key=lambda uid: (-score(uid), -state[uid][0], uid))
    assert list(eligible().values_list("user_id", flat=True)) == expected


def test_a_moderator_voids_through_the_finisher_and_the_ratings_hook(
        mona, django_capture_on_commit_callbacks, monkeypatch):
    players = make_users("v", 8)
    made = play_history(players)
    target = made[VOIDED]
    queued = []
    monkeypatch.setattr(tasks.rollback_series_task, "delay", queued.append)
    announced = []

    def announce(sender, **kwargs):
        announced.append((kwargs["series_id"], kwargs["termination"]))

    series_finished.connect(announce, weak=False)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            voids.void_series(mona, target.pk, "Collusion between the partners, reported twice")
    finally:
        series_finished.disconnect(announce)
    target.refresh_from_db()
    assert target.status == Series.Status.VOIDED and target.termination == Termination.VOIDED
    assert Game.objects.filter(series=target).count() == len(HISTORY[VOIDED][1]), \
        "the games stay in the record"
    assert announced == [(target.pk, Termination.VOIDED)], "the finisher's hook said why"
    assert queued == [target.pk], "the ratings app reacted to the voided termination"
    assert tasks.rollback_series_task(target.pk) is True  # what the worker runs
    assert_matches_recompute(players, made, skip=VOIDED)
    assert all(r.voided for r in SeriesRecord.objects.filter(series=target))
    assert RatedSeries.objects.get(series=target).rolled_back_at is not None
    entry = ModerationLog.objects.get(action=ModerationLog.Action.VOID_SERIES)
    assert entry.actor == mona and entry.target == f"series:{target.pk}"
    assert entry.before["status"] == "finished" and entry.after["status"] == "voided"
    with pytest.raises(InvalidRequestError):
        voids.void_series(mona, target.pk, "again")


def test_voiding_is_refused_to_players_and_bad_input_changes_nothing(cast, mona):
    series = finished_series(make_users("w", 4), ["A", "A", "A"])
    for bad in [None, "x", -1, True, 10**9]:
        with pytest.raises(Exception):  # noqa: B017 - NotFound or Invalid, never a change
            voids.void_series(mona, bad, "a reason")
    with pytest.raises(InvalidRequestError):
        voids.void_series(mona, series.pk, "")
    with pytest.raises(PermissionDeniedError):
        voids.void_series(cast.alice, series.pk, "not a moderator")
    series.refresh_from_db()
    assert series.status == Series.Status.FINISHED
    assert not ModerationLog.objects.exists()


def test_marking_cheating_voids_the_rated_series_in_the_window(mona,
                                                               django_capture_on_commit_callbacks,
                                                               monkeypatch):
    players = make_users("m", 8)
    made = play_history(players)
    monkeypatch.setattr(tasks.rollback_series_task, "delay", lambda pk: None)
    cheat = players[6]
    now = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        mark, voided = voids.mark_account(mona, cheat, "cheating",
                                          (now - timedelta(days=15)).date().isoformat(),
                                          (now - timedelta(days=5)).date().isoformat(),
                                          "Engine-like play in every series")
    # Player 6 played series 2 (16 days ago), 3, 4, 7 (6 days ago) and 8 (3 days ago).
    in_window = [made[i].pk for i in (3, 4, 7)]
    assert voided == in_window
    assert set(Series.objects.filter(status=Series.Status.VOIDED).values_list("pk", flat=True)) \
        == set(in_window)
    assert mark.kind == "cheating" and mark.ends_at is None
    assert ModerationLog.objects.filter(action=ModerationLog.Action.VOID_SERIES).count() == 3
