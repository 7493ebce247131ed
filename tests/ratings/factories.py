"""Finished series built straight from rows (fast, deterministic), for ratings tests.

``finished_series(players, winners)`` writes a Table, a finished Series with the four
players' seat snapshot, and one finished Game + GameResult per entry of ``winners``
("A", "B" or "" for eggs). The loser of each game gets 4 loss points (R16); the series'
goat is the team that reached 12 first, or ``goat=`` when the results do not get there.
"""

from __future__ import annotations

import itertools
from datetime import datetime
from typing import Any

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.models import Conduct, Game, GameResult, Series, SeriesSeat, Table

_numbers = itertools.count(1)


def make_user(username: str, *, verified: bool = True) -> Any:
    user = get_user_model().objects.create_user(username, f"{username}@example.com", "pw-12345!")
    EmailAddress.objects.create(user=user, email=user.email, verified=verified, primary=True)
    return user


def make_users(prefix: str, count: int) -> list[Any]:
    return [make_user(f"{prefix}{i}") for i in range(count)]


def finished_series(players: list[Any], winners: list[str], *, ranked: bool = True,
                    goat: str | None = None, leavers: tuple[int, ...] = (),
                    finished_at: datetime | None = None, clean: bool = False) -> Series:
    """A finished series of ``players`` (by position 0–3) with these game winners."""
    owner = players[0]
    table = Table.objects.create(owner=owner, name=f"t{next(_numbers)}",
                                 kind="ranked" if ranked else "casual",
                                 turn_seconds=30 if ranked else None, bots_allowed=not ranked,
                                 status=Table.Status.FINISHED)
    loss = {"A": 0, "B": 0}
    for w in winners:
        if w:
            loss["B" if w == "A" else "A"] += 4
    if goat is None:
        goat = "A" if loss["A"] >= loss["B"] else "B"
    moment = finished_at or timezone.now()
    series = Series.objects.create(
        table=table, number=1, target=12, ranked=ranked, termination="completed",
        status=Series.Status.FINISHED, first_dealer=0, loss_points_a=loss["A"],
        loss_points_b=loss["B"], eggs=sum(1 for w in winners if not w),
        winner="B" if goat == "A" else "A", goat=goat, state={}, finished_at=moment)
    SeriesSeat.objects.bulk_create(
        SeriesSeat(series=series, position=position, name=user.username,
                   **({"bot_level": "casual", "away_user": user} if position in leavers
                      else {"user": user}))
        for position, user in enumerate(players))
    for number, w in enumerate(winners, start=1):
        game = Game.objects.create(series=series, number=number, seed=number, algorithm=1,
                                   dealer=0, first_leader=0, trump_card="6H",
                                   status=Game.Status.FINISHED, state={}, finished_at=moment)
        if w:
            loser_tricks = 0 if clean else 2
            GameResult.objects.create(
                game=game, points_a=90 if w == "A" else 30, points_b=30 if w == "A" else 90,
                tricks_a=6 - loser_tricks if w == "A" else loser_tricks,
                tricks_b=loser_tricks if w == "A" else 6 - loser_tricks,
                loss_points_a=0 if w == "A" else 4, loss_points_b=4 if w == "A" else 0,
                eggs=False, winner=w, last_taker=0)
        else:
            GameResult.objects.create(game=game, points_a=60, points_b=60, tricks_a=3,
                                      tricks_b=3, loss_points_a=0, loss_points_b=0, eggs=True,
                                      winner="", last_taker=0)
    for position in leavers:
        Conduct.objects.create(user=players[position], series=series, position=position,
                               kind=Conduct.Kind.ABANDON, reason=Conduct.Reason.TIMEOUTS)
    return series
