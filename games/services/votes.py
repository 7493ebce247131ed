"""Votes at a casual table: pause, resume or end the series; 3 of 4 seats carry a vote.

Bots agree with whatever the people decide, so they count as votes in favour: a person
playing with three bots decides alone. Ranked series cannot be paused or ended by vote.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from games import engine
from games.models import Game, Series, SeriesVote, Table
from games.services import clock, publish
from games.services.errors import InvalidRequestError, NotYourSeatError, PermissionDeniedError

VOTES_NEEDED = 3


def cast_vote(table_id: int, user: AbstractBaseUser | None, kind: Any) -> dict[str, Any]:
    """Record ``user``'s vote; carry it out when 3 of 4 seats agree. Returns the tally."""
    if kind not in SeriesVote.Kind.values:
        raise InvalidRequestError("Vote to pause, resume or end.")
    if user is None or not user.is_authenticated:
        raise PermissionDeniedError("Sign in to vote.")
    with transaction.atomic():
        series = (Series.objects.select_for_update(of=("self",)).select_related("table")
                  .filter(table_id=table_id, status=Series.Status.PLAYING)
                  .order_by("-number").first())
        if series is None:
            raise InvalidRequestError("No series is being played at this table.")
        if series.ranked:
            raise PermissionDeniedError("A ranked series cannot be paused or ended by vote.")
        people = {e["user_id"] for e in series.seats if e.get("user_id") and not e.get("bot_level")}
        if user.pk not in people:
            raise NotYourSeatError("Only the players at the table vote.")
        game = series.games.filter(status=Game.Status.PLAYING).order_by("-number").first()
        paused = bool(game and game.paused)
        if (kind == SeriesVote.Kind.PAUSE) == paused and kind != SeriesVote.Kind.END:
            state = "paused." if paused else "running."
            raise InvalidRequestError(f"The series is already {state}")
        SeriesVote.objects.get_or_create(series=series, kind=kind, user=user)
        voters = set(SeriesVote.objects.filter(series=series, kind=kind)
                     .values_list("user_id", flat=True)) & people
        bots = 4 - len(people)
        carried = len(voters) + bots >= VOTES_NEEDED
        if carried:
            _carry_out_locked(series, game, kind)
            SeriesVote.objects.filter(series=series, kind=kind).delete()
        publish.on_commit_table_changed(table_id)
        return {"kind": kind, "votes": len(voters) + bots, "needed": VOTES_NEEDED,
                "carried": carried}


def _carry_out_locked(series: Series, game: Game | None, kind: str) -> None:
    if kind == SeriesVote.Kind.END:
        now = timezone.now()
        series.status = Series.Status.ABORTED
        series.finished_at = now
        series.save(update_fields=["status", "finished_at"])
        Table.objects.filter(pk=series.table_id).update(status=Table.Status.FINISHED,
                                                        updated_at=now)
        if game is not None:
            Game.objects.filter(pk=game.pk).update(status=Game.Status.VOIDED, finished_at=now,
                                                   turn_deadline=None)
        publish.on_commit_notice(series.table_id, "The players voted to end the series.")
        return
    if game is None:
        return
    locked = Game.objects.select_for_update().get(pk=game.pk)
    locked.series = series
    locked.paused = kind == SeriesVote.Kind.PAUSE
    if locked.paused:
        locked.turn_deadline = None
    else:
        clock.arm_turn_clock_locked(locked, engine.GameState.from_dict(locked.state),
                                    series.table)
        from games.services import schedule

        schedule.on_commit_after_change(locked.pk, locked.version)
    locked.save(update_fields=["paused", "turn_deadline", "turn_started_at"])
    SeriesVote.objects.filter(series=series, kind__in=[SeriesVote.Kind.PAUSE,
                                                       SeriesVote.Kind.RESUME]).delete()
    publish.on_commit_notice(series.table_id, "The series is paused." if locked.paused
                             else "The series goes on.")
