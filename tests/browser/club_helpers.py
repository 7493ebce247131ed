"""The club the tournament browser tests start from: its director and verified members,
made in the test's database (the live server reads the same, committed)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from tests.ratings.factories import make_user


@dataclass
class ClubDesk:
    """What ``tests.tournaments.helpers.event`` needs to create an event: the club and
    its director."""

    club: Any
    director: Any


def thursday_club(members: Iterable[str]) -> tuple[ClubDesk, dict[str, Any]]:
    """The club "Thursday Goats", owned and directed by olga, with ``members`` (verified
    users made with ``make_user``, by name, in that order) as its members."""
    from games.tournaments.models import Membership
    from games.tournaments.services import clubs

    director = make_user("olga")
    club = clubs.create_club(director, clubs.ClubSettings(
        name="Thursday Goats", slug="thursday-goats", description=""))
    people = {name: make_user(name) for name in members}
    for person in people.values():
        Membership.objects.create(club=club, user=person, role=Membership.Role.MEMBER)
    return ClubDesk(club, director), people
