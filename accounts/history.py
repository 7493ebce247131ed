"""A player's game history (``/@/<username>/games``): reads only.

Every series the person took part in (as the player of a seat or as the person a
substitute bot stood in for), newest first, with filters: ranked, casual or tournament
play, with a given partner, against a given opponent. Series at private tables are
listed only to the player themself (the same rule as their replays).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet, Subquery
from django.db.models.functions import Mod

from accounts.models import guest_name
from games import engine
from games.models import Game, Series, SeriesSeat, Table

KINDS = ("ranked", "casual", "tournament")


@dataclass(frozen=True)
class HistoryFilter:
    """The page's validated filters (unknown kinds or names are refused by the view)."""

    kind: str = ""
    partner: Any = None
    against: Any = None


def _of_person(person: Any) -> Q:
    return Q(user=person) | Q(away_user=person)


def series_of(player: User, viewer: User | AnonymousUser | None,
              wanted: HistoryFilter) -> QuerySet[Series]:
    """The series ``player`` took part in that ``viewer`` may see, filtered."""
    mine = SeriesSeat.objects.filter(_of_person(player), series=OuterRef("pk"))
    rows = (Series.objects.filter(Exists(mine))
            .annotate(my_position=Subquery(mine.values("position")[:1])))
    if not (viewer is not None and viewer.is_authenticated and viewer.pk == player.pk):
        rows = rows.exclude(table__visibility=Table.Visibility.PRIVATE)
    if wanted.kind == "ranked":
        rows = rows.filter(ranked=True)
    elif wanted.kind == "casual":
        rows = rows.filter(ranked=False, tournament_match__isnull=True)
    elif wanted.kind == "tournament":
        rows = rows.filter(tournament_match__isnull=False)
    if wanted.partner is not None:
        # R1: the partner sits opposite.
        partner_seat = SeriesSeat.objects.filter(
            _of_person(wanted.partner), series=OuterRef("pk"),
            position=Mod(OuterRef("my_position") + 2, 4))
        rows = rows.filter(Exists(partner_seat))
    if wanted.against is not None:
        # R1: the opponents sit on either side.
        beside = (Q(position=Mod(OuterRef("my_position") + 1, 4))
                  | Q(position=Mod(OuterRef("my_position") + 3, 4)))
        rival_seat = SeriesSeat.objects.filter(beside, _of_person(wanted.against),
                                               series=OuterRef("pk"))
        rows = rows.filter(Exists(rival_seat))
    return (rows.select_related("table")
            .prefetch_related(
                Prefetch("roster", queryset=SeriesSeat.objects.select_related("user", "away_user")
                         .order_by("position")),
                Prefetch("games", queryset=Game.objects.select_related("result")
                         .order_by("number")))
            .order_by("-started_at", "-pk"))


@dataclass(frozen=True)
class SeriesLine:
    """One series as the player saw it."""

    series: Series
    team: str
    partner: str
    opponents: list[str]
    result: str  # "won", "lost", "goat", "stopped", "void", "playing"
    # The reader's own team when they played this series ("A"/"B"), else "": they read
    # its scores as yours–theirs, anybody else as A–B.
    viewer_team: str = ""


def _name(seat: SeriesSeat) -> str:
    person = seat.user or seat.away_user
    if person is None:
        return seat.name
    username = person.get_username()
    return guest_name(username) or username


def line_for(series: Series, viewer: Any = None) -> SeriesLine:
    """The series as its player saw it, its scores as ``viewer`` should read them."""
    position = series.my_position  # type: ignore[attr-defined]
    seats = {s.position: s for s in series.roster.all()}
    viewer_id = viewer.pk if viewer is not None and viewer.is_authenticated else None
    viewer_seat = next((p for p, s in seats.items()
                        if viewer_id is not None and viewer_id in (s.user_id, s.away_user_id)),
                       None)
    team = engine.team_of(position)
    if series.status == Series.Status.PLAYING:
        result = "playing"
    elif series.status == Series.Status.VOIDED:
        result = "void"  # a moderator voided it: no winner, no goat, it counts for nothing
    elif series.status != Series.Status.FINISHED:
        result = "stopped"
    elif series.goat == team:
        result = "goat"
    else:
        result = "won" if series.winner == team else "lost"
    return SeriesLine(series=series, team=team,
                      partner=_name(seats[engine.partner_of(position)]),
                      opponents=[_name(seats[p]) for p in engine.opponents_of(position)],
                      result=result,
                      viewer_team="" if viewer_seat is None else engine.team_of(viewer_seat))
