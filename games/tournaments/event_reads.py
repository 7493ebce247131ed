"""Reads for events worth returning to: announcements, seasons and their tables."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from games.tournaments import season_points, selectors
from games.tournaments.models import Announcement, Club, Season, Tournament


def club_announcements(club: Club, limit: int = 5) -> list[Announcement]:
    """The latest announcements to the club's members (the club's page, members only)."""
    return list(Announcement.objects.filter(club=club, tournament=None)
                .select_related("author")[:limit])


def event_announcements(tournament: Tournament, limit: int = 5) -> list[Announcement]:
    """The latest announcements to the event's players (the event's page)."""
    return list(Announcement.objects.filter(tournament=tournament)
                .select_related("author")[:limit])


def season_placings(season: Season) -> list[season_points.Placing]:
    """Each person's final place in each finished event of the season, read from the
    standings the event page shows (placed entries only)."""
    out: list[season_points.Placing] = []
    events = season.events.filter(status=Tournament.Status.FINISHED).order_by("starts_at",
                                                                              "pk")
    names = {}
    for t in events:
        entries = {e.pk: e for e in t.entries.all()}
        for row in selectors.standings_of(t):
            if row.place is None:
                continue
            for person in entries[row.entry.id].people_ids:
                out.append(season_points.Placing(person, "", t.pk, row.place))
                names[person] = ""
    users = get_user_model().objects.in_bulk(list(names))
    return [season_points.Placing(p.person, users[p.person].get_username(), p.event, p.place)
            for p in out if p.person in users]


def season_table(season: Season) -> list[season_points.SeasonRow]:
    return season_points.table(season_placings(season))


def season_events(season: Season) -> list[Tournament]:
    return list(season.events.order_by("starts_at", "pk"))
