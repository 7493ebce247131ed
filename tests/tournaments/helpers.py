"""Helpers for tournament tests: events, entries and series ended through the finisher."""

from __future__ import annotations

from django.db import transaction

from games.models import Series, Termination
from games.services import finish, locks
from games.tournaments.models import Entry, Match, Tournament
from games.tournaments.services import corrections, director, events, rounds


def event(club_cast, fmt="swiss", **kw) -> Tournament:
    settings = {"name": "Friday Cup", "format": fmt, "rounds": 3, "checkin_seconds": 60,
                "round_seconds": 1800, "break_seconds": 0, **kw}
    t = events.create_tournament(club_cast.club.pk, club_cast.director,
                                 events.EventSettings(**settings))
    # A fixed seed (like deal_seeds): the same pairings and lots on every run.
    Tournament.objects.filter(pk=t.pk).update(seed=20261201)
    t.refresh_from_db()
    return t


def enter_pairs(t: Tournament, players) -> list[Entry]:
    """Enter consecutive players as pairs; each partner confirms."""
    out = []
    for first, second in zip(players[::2], players[1::2], strict=True):
        entry = events.register(t.pk, first, second.username)
        events.confirm_partner(t.pk, second, entry.pk)
        out.append(Entry.objects.get(pk=entry.pk))
    return out


def enter_players(t: Tournament, players, email_opt_in=False) -> list[Entry]:
    return [events.register(t.pk, p, email_opt_in=email_opt_in) for p in players]


def act(t: Tournament, user, action: str, **data) -> str:
    return director.perform(t.pk, user, action, {k: str(v) for k, v in data.items()})


def correct(t: Tournament, user, **data) -> str:
    """A director's correction through both steps: look at the preview, then confirm."""
    data = {k: str(v) for k, v in data.items()}
    preview = corrections.preview(t.pk, user, data)
    return director.perform(t.pk, user, "correct", {**data, "confirm": preview.token})


def end_series(series_id: int, goat: str | None, loss_a: int, loss_b: int,
               termination: str = Termination.COMPLETED) -> None:
    """End a series as if played to that score (the finisher, with its reason)."""
    with transaction.atomic():
        table, series = locks.lock_series(series_id)
        series.loss_points_a, series.loss_points_b = loss_a, loss_b
        series.save(update_fields=["loss_points_a", "loss_points_b"])
        series.goat = goat or ""
        series.winner = {"A": "B", "B": "A"}.get(goat or "", "")
        finish.end_series_locked(table, series, termination)


def check_in_everybody(round_) -> None:
    for match in round_.matches.filter(status=Match.Status.CHECKIN):
        for person in sorted(rounds._persons(match)):
            from django.contrib.auth import get_user_model

            rounds.check_in(match.pk, get_user_model().objects.get(pk=person))


def play_round(round_, goat="B", loss=(4, 12)) -> None:
    """Check everybody in, end every series with side ``goat`` the goat, score them."""
    check_in_everybody(round_)
    for match in Match.objects.filter(round=round_, status=Match.Status.PLAYING):
        end_series(match.series_id, goat, *loss)
        rounds.match_finished(match.series_id)


def playing_series(t: Tournament) -> list[Series]:
    return list(Series.objects.filter(tournament_match__round__tournament=t,
                                      status=Series.Status.PLAYING))
