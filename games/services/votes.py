"""Votes at a casual table: pause, resume or end the series; 3 of 4 seats carry a vote.

Bots agree with whatever the people decide, so they count as votes in favour: a person
playing with three bots decides alone. Ranked series cannot be paused or ended by vote.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games import engine, events
from games.errors import InvalidRequestError, NotYourSeatError, PermissionDeniedError
from games.models import Game, Series, SeriesVote, Table, Termination
from games.selectors import roster
from games.services import clock, finish, locks, publish, schedule

VOTES_NEEDED = 3


def check_vote(user: User | None, kind: Any) -> None:
    """The checks of a vote that need no database: a known kind, a signed-in voter
    (PermissionDeniedError or InvalidRequestError). The live table runs them before its
    database call, as for chat lines (services/chat.py, ``check_message``)."""
    if kind not in SeriesVote.Kind.values:
        raise InvalidRequestError(_("Vote to pause, resume or end."))
    if user is None or not user.is_authenticated:
        raise PermissionDeniedError(_("Sign in to vote."))


def cast_vote(table_id: int, user: User | None, kind: Any) -> dict[str, Any]:
    """Record ``user``'s vote; carry it out when 3 of 4 seats agree. Returns the tally."""
    check_vote(user, kind)
    assert user is not None  # check_vote refused anyone not signed in
    with transaction.atomic():
        table, series, game = locks.lock_playing(table_id)
        if series.ranked:
            raise PermissionDeniedError(_("A ranked series cannot be paused or ended by vote."))
        people = {seat.user_id for seat in roster(series) if seat.user_id}
        if user.pk not in people:
            raise NotYourSeatError(_("Only the players at the table vote."))
        if game is not None and game.status != Game.Status.PLAYING:
            game = None  # between two games: nothing to pause
        paused = bool(game and game.paused)
        if (kind == SeriesVote.Kind.PAUSE) == paused and kind != SeriesVote.Kind.END:
            raise InvalidRequestError(_("The series is already paused.") if paused
                                      else _("The series is already running."))
        SeriesVote.objects.get_or_create(series=series, kind=kind, user=user)
        voters = set(SeriesVote.objects.filter(series=series, kind=kind)
                     .values_list("user_id", flat=True)) & people
        bots = 4 - len(people)
        carried = len(voters) + bots >= VOTES_NEEDED
        if carried:
            SeriesVote.objects.filter(series=series, kind=kind).delete()
            _carry_out_locked(table, series, game, kind)
        events.send_events_on_commit(partial(publish.table_changed, table_id))
        return {"kind": kind, "votes": len(voters) + bots, "needed": VOTES_NEEDED,
                "carried": carried}


def _carry_out_locked(table: Table, series: Series, game: Game | None, kind: str) -> None:
    if kind == SeriesVote.Kind.END:
        finish.end_series_locked(table, series, Termination.VOTED_END)
        events.send_event_on_commit(*publish.notice(
            series.table_id, gettext_noop("The players voted to end the series.")))
        return
    if game is None:
        return
    game.paused = kind == SeriesVote.Kind.PAUSE
    if game.paused:
        game.turn_deadline = None
    else:
        clock.arm_turn_clock_locked(game, engine.GameState.from_dict(game.state), table)
        schedule.bot_turn(game.pk, game.version, force=True)
    game.save(update_fields=["paused", "turn_deadline", "turn_started_at", "turn_seat"])
    SeriesVote.objects.filter(series=series, kind__in=[SeriesVote.Kind.PAUSE,
                                                       SeriesVote.Kind.RESUME]).delete()
    text = (gettext_noop("The series is paused.") if game.paused
            else gettext_noop("The series goes on."))
    events.send_event_on_commit(*publish.notice(series.table_id, text))
