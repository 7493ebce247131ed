"""The club the tournament browser tests start from: its director and verified members,
made in the test's database (the live server reads the same, committed)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from allauth.account.models import EmailAddress


def verified_user(django_user_model: Any, name: str) -> Any:
    """A user ``name`` with a verified e-mail address ``name@example.com`` (the site
    asks for one before a person plays or gets e-mail)."""
    user = django_user_model.objects.create_user(name, f"{name}@example.com", "x" * 20)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


@dataclass
class ClubDesk:
    """What ``tests.tournaments.helpers.event`` needs to create an event: the club and
    its director."""

    club: Any
    director: Any


def thursday_club(django_user_model: Any,
                  members: Iterable[str]) -> tuple[ClubDesk, dict[str, Any]]:
    """The club "Thursday Goats", owned and directed by olga, with ``members`` (verified
    users, by name, in that order) as its members."""
    from games.tournaments.models import Membership
    from games.tournaments.services import clubs

    director = verified_user(django_user_model, "olga")
    club = clubs.create_club(director, clubs.ClubSettings(
        name="Thursday Goats", slug="thursday-goats", description=""))
    people = {name: verified_user(django_user_model, name) for name in members}
    for person in people.values():
        Membership.objects.create(club=club, user=person, role=Membership.Role.MEMBER)
    return ClubDesk(club, director), people
