"""Whole tournaments on a real Celery worker with nobody present.

The director starts round 1 from the test; from then on only the worker acts: bot
turns, next games, ``series_finished`` → ``match_finished_task`` → the round ends, the
next round is paired and ``start_round_task`` starts it after the (zero) break, until
the last round ends the event. At the end: standings, the audit log, the ratings
service's markers, and every game replayed from its seed (verify_games).

Run alone (they take a minute or two each):
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/kozel REDIS_URL=redis://127.0.0.1:6379/0 \\
    .venv/bin/python -m pytest tests/tournaments/test_worker_runs.py -p no:cacheprovider -s
"""

from __future__ import annotations

import time
from collections import Counter

import pytest

from games.models import Series, Termination
from games.ratings.models import RatedSeries, RatingChange
from games.tournaments import pairing, selectors
from games.tournaments.models import AuditEntry, Match, Tournament
from games.tournaments.services import rounds
from tests.games.helpers import assert_games_verified
from tests.tournaments.helpers import (
    act,
    check_in_everybody,
    enter_pairs,
    enter_players,
    event,
)
from tests.waiting import wait_for

pytestmark = [pytest.mark.worker, pytest.mark.slow]


def _run_to_the_end(t: Tournament, timeout: float) -> float:
    started = time.monotonic()

    def finished():
        t.refresh_from_db()
        return t.status == Tournament.Status.FINISHED

    wait_for(finished, timeout, "the tournament to finish on the worker", interval=0.5)
    return time.monotonic() - started


def _check_common(t: Tournament, rounds_expected: int, matches_per_round: int) -> list:
    rows = selectors.standings_of(t)
    matches = list(Match.objects.filter(round__tournament=t).exclude(outcome="bye"))
    assert t.round_set.count() == rounds_expected
    assert all(r.status == "finished" for r in t.round_set.all())
    assert len(matches) == rounds_expected * matches_per_round
    series = Series.objects.filter(tournament_match__round__tournament=t)
    assert series.count() == len(matches)
    assert all(s.status == "finished" and s.termination == Termination.COMPLETED
               for s in series)
    assert all(m.outcome in ("A", "B") and not m.forfeit for m in matches)
    # Bots only: nobody takes a prize place, and the table is ranked 1..n.
    assert [r.rank for r in rows] == list(range(1, len(rows) + 1))
    assert all(r.place is None and r.entry.is_bot for r in rows)
    # The audit log tells the evening: the start, each round paired, started and
    # finished by the server, the end.
    actions = Counter(AuditEntry.objects.filter(tournament=t).values_list("action", flat=True))
    assert actions["tournament.start"] == 1 and actions["tournament.finish"] == 1
    assert actions["round.pair"] == actions["round.start"] == actions["round.finish"] \
        == rounds_expected
    # Ratings: the ratings service processed every completed series (its marker), and
    # an unrated event of bots moved no rating.
    wait_for(lambda: RatedSeries.objects.filter(series__in=series).count() == series.count(),
             60, "the ratings worker to process every series")
    assert not RatedSeries.objects.filter(series__in=series, rated=True).exists()
    assert not RatingChange.objects.filter(series__in=series).exists()
    assert_games_verified()
    return rows


def test_six_bot_pairs_play_a_three_round_swiss_to_the_end_on_a_real_worker(
        club_cast, celery_worker):
    t = event(club_cast, rounds=3, target=6, bots_allowed=True)
    for _ in range(6):
        act(t, club_cast.director, "add_bot", level="random")
    act(t, club_cast.director, "start")
    took = _run_to_the_end(t, timeout=480)
    print(f"\n6 bot pairs, 3-round Swiss to 6: {took:.1f} s on the worker")
    rows = _check_common(t, rounds_expected=3, matches_per_round=3)
    assert sum(r.points for r in rows) == 3 * 3 * 2
    # Swiss: no rematch in three rounds of six, every entry played every round.
    met = Counter()
    for m in Match.objects.filter(round__tournament=t).prefetch_related("sides"):
        ids = [s.entry_id for s in m.sides.all()]
        met[pairing.pair_key(*ids)] += 1
    assert set(met.values()) == {1} and len(met) == 9
    assert all(r.played == 3 for r in rows)


def test_eight_individual_bots_play_three_rounds_on_a_real_worker(club_cast, celery_worker):
    t = event(club_cast, fmt="rotation", rounds=3, target=6, bots_allowed=True)
    for _ in range(8):
        act(t, club_cast.director, "add_bot", level="random")
    act(t, club_cast.director, "start")
    took = _run_to_the_end(t, timeout=480)
    print(f"\n8 individual bots, 3 rounds to 6: {took:.1f} s on the worker")
    rows = _check_common(t, rounds_expected=3, matches_per_round=2)
    # Every player scores their side's result: 2 tables x 2 winners x 2 points a round.
    assert sum(r.points for r in rows) == 3 * 2 * 2 * 2
    partners = Counter()
    for m in Match.objects.filter(round__tournament=t).prefetch_related("sides"):
        for side in "AB":
            ids = [s.entry_id for s in m.sides.all() if s.side == side]
            partners[pairing.pair_key(*ids)] += 1
    assert set(partners.values()) == {1}  # three rounds of eight: never the same partner


def test_a_rated_match_ended_by_the_round_time_is_rated_by_the_ratings_worker(
        club_cast, celery_worker):
    t = event(club_cast, rated=True, turn_seconds=30, rounds=1)
    enter_pairs(t, club_cast.players[:4])
    act(t, club_cast.director, "start")
    check_in_everybody(t.round_set.get())
    match = Match.objects.get(round__tournament=t)
    Series.objects.filter(pk=match.series_id).update(loss_points_a=2, loss_points_b=4)
    rounds.round_time(t.round_set.get().pk, force=True)
    wait_for(lambda: RatingChange.objects.filter(series_id=match.series_id).count() == 4,
             30, "the ratings worker to rate the round-time series (series_finished)")
    series = Series.objects.get(pk=match.series_id)
    assert series.termination == Termination.ROUND_TIME and series.goat == "B"
    winners = set(RatingChange.objects.filter(series_id=match.series_id, won=True)
                  .values_list("position", flat=True))
    assert winners == {0, 2}


def test_matches_of_a_fixed_number_of_games_end_after_them_on_a_real_worker(
        club_cast, celery_worker):
    """Two games a match: after the second game's result the series ends through the
    finisher (``game_limit``) before a third is dealt; fewer loss points wins."""
    t = event(club_cast, rounds=1, games_limit=2, bots_allowed=True)
    for _ in range(4):
        act(t, club_cast.director, "add_bot", level="random")
    act(t, club_cast.director, "start")
    took = _run_to_the_end(t, timeout=240)
    print(f"\n4 bot pairs, 1 round of 2-game matches: {took:.1f} s on the worker")
    for match in Match.objects.filter(round__tournament=t).select_related("series"):
        series = match.series
        games = list(series.games.order_by("number"))
        if series.termination == Termination.GAME_LIMIT:
            assert [g.status for g in games] == ["finished", "finished"]
        else:  # a team reached 18 in two games: impossible (at most 6 a game, R16)
            pytest.fail(f"series {series.pk} ended by {series.termination}")
        expected = ("tie" if series.loss_points_a == series.loss_points_b
                    else "A" if series.loss_points_a < series.loss_points_b else "B")
        assert match.outcome == expected and match.termination == "game_limit"
        assert (match.loss_a, match.loss_b) == (series.loss_points_a, series.loss_points_b)
    wait_for(lambda: RatedSeries.objects.filter(
        series__tournament_match__round__tournament=t).count() == 2, 60,
        "the ratings worker to record the game-limit series")
    assert_games_verified()


def test_six_individual_players_with_bots_allowed_play_two_rounds_on_a_real_worker(
        club_cast, celery_worker):
    """Six people in an individual event that allows bots and lets a bot play for an
    absent entry: two Casual bot entries fill the second table (no byes). Nobody checks
    in, so at each check-in deadline (the worker's task) Casual bots take the people's
    seats and the worker plays both rounds to the end — but every person is absent, so
    every match is scored as their forfeit: nobody keeps points for a bot's play, all
    six are withdrawn after their second absent round, and nobody takes a place."""
    t = event(club_cast, fmt="rotation", rounds=2, target=6, bots_allowed=True,
              absent_policy="bot", checkin_seconds=5, games_limit=2)
    enter_players(t, club_cast.players[:6])
    act(t, club_cast.director, "start")
    took = _run_to_the_end(t, timeout=300)
    print(f"\n6 individual players + 2 bots, 2 rounds of 2 games: {took:.1f} s on the worker")
    matches = list(Match.objects.filter(round__tournament=t))
    assert len(matches) == 4 and not [m for m in matches if m.outcome == "bye"]
    assert all(m.forfeit and m.absent for m in matches)
    assert all(sorted(m.substitutes) == sorted(
        p for p, (_e, person) in rounds.people_by_position(m).items() if person)
        for m in matches), "a bot played every no-show's seat"
    bots = t.entries.exclude(bot_level="")
    assert sorted(bots.values_list("name", flat=True)) == ["Bot Casual #1", "Bot Casual #2"]
    rows = selectors.standings_of(t)
    assert all(r.place is None for r in rows)
    assert all(r.points == 0 and r.absent == 2 for r in rows if not r.entry.is_bot)
    people = t.entries.filter(bot_level="")
    assert set(people.values_list("status", "status_reason")) == {("withdrawn", "absent")}
    series = Series.objects.filter(tournament_match__round__tournament=t)
    assert series.count() == 4 and all(s.termination == Termination.GAME_LIMIT
                                       for s in series)
    actions = Counter(AuditEntry.objects.filter(tournament=t).values_list("action", flat=True))
    assert actions["match.substitute_bots"] == 4 and actions["entry.bot"] == 2
    assert actions["entry.withdraw"] == 6
    assert_games_verified()
