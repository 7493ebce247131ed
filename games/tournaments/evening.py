"""A duplicate evening played to its end: people through the services, bots on the workers.

Used by the real-worker test (tests/tournaments/test_duplicate_evening.py) and by
``manage.py duplicate_evening``, which prints how long an evening took. The people's
side does what a player's browser would: check in when a round starts (the banner's
button, ``rounds.check_in``) and play a legal action whenever it is their turn
(``play.submit_action`` on the version they saw). Everything else — bot turns, the
next game, the end of a match after its last board, the next round after the break,
the boards' reveal — is the Celery workers' and the services' own doing.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from django.contrib.auth import get_user_model

from games import engine
from games.errors import ServiceError
from games.models import Game, SeriesSeat
from games.services import play
from games.tournaments.models import Match, Tournament
from games.tournaments.services import rounds


def check_in_people(t: Tournament) -> int:
    """Every person of a match waiting for its check-in checks in; returns how many."""
    done = 0
    users = get_user_model().objects
    for match in Match.objects.filter(round__tournament=t, status=Match.Status.CHECKIN):
        for person in sorted(rounds.absent_people(match)):
            rounds.check_in(match.pk, users.get(pk=person))
            done += 1
    return done


def people_on_turn(t: Tournament) -> list[tuple[Game, int, int]]:
    """(game, seat, person id) for each of the event's games a person is to act in."""
    games = list(Game.objects.filter(series__tournament_match__round__tournament=t,
                                     status=Game.Status.PLAYING))
    people: dict[tuple[int, int], int] = {
        (series, position): user for series, position, user in SeriesSeat.objects.filter(
            series_id__in=[g.series_id for g in games], bot_level="", user__isnull=False)
        .values_list("series_id", "position", "user_id") if user is not None}
    out = []
    for game in games:
        seat = engine.GameState.from_dict(game.state).turn
        if seat is not None and (game.series_id, seat) in people:
            out.append((game, seat, people[(game.series_id, seat)]))
    return out


def play_people(t: Tournament, rng: random.Random) -> int:
    """Each person on turn plays a legal action chosen at random; returns how many
    were accepted (a stale version, a bot or the clock acting first, is skipped)."""
    users = get_user_model().objects
    played = 0
    for game, seat, person in people_on_turn(t):
        state = engine.GameState.from_dict(game.state)
        action = rng.choice(engine.legal_actions(state, seat))
        try:
            play.submit_action(game.pk, users.get(pk=person), action.to_dict(), game.version)
        except ServiceError:
            continue
        played += 1
    return played


def run(t: Tournament, rng: random.Random, timeout: float,
        idle: Callable[[Callable[[], bool], float], None]) -> float:
    """Play the people's part until the event is finished; returns the seconds it took.
    ``idle(check, seconds)`` waits until ``check()`` or the time is up (a test's
    ``wait_for``-like helper; the command's polling loop)."""
    started = time.monotonic()
    deadline = started + timeout

    def something_to_do() -> bool:
        t.refresh_from_db()
        return (t.status == Tournament.Status.FINISHED
                or Match.objects.filter(round__tournament=t,
                                        status=Match.Status.CHECKIN).exists()
                or bool(people_on_turn(t)))

    while True:
        t.refresh_from_db()
        if t.status == Tournament.Status.FINISHED:
            return time.monotonic() - started
        if time.monotonic() > deadline:
            raise RuntimeError(f"the duplicate evening {t.pk} did not finish in {timeout} s")
        if not (check_in_people(t) + play_people(t, rng)):
            idle(something_to_do, max(0.0, deadline - time.monotonic()))
