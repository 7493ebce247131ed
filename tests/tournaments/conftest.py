"""The club cast (healthchecks style): Olga owns the club, Dima directs, Mila and the
other members play, Sam is a stranger, Max is a site moderator; everyone verified."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from games.tournaments.models import Club, Membership
from games.tournaments.services import clubs
from tests.games.conftest import make_user


@dataclass
class ClubCast:
    club: Club
    owner: object
    director: object
    member: object
    stranger: object
    moderator: object
    players: list

    def who(self, name: str):
        return getattr(self, name)


@pytest.fixture(autouse=True)
def _fixed_deals(deal_seeds):
    return deal_seeds


def add_member(club: Club, user, role: str = Membership.Role.MEMBER) -> Membership:
    return Membership.objects.create(club=club, user=user, role=role)


@pytest.fixture
def club_cast(db) -> ClubCast:
    owner = make_user("olga")
    club = clubs.create_club(owner, clubs.ClubSettings(name="Friday Goats", slug="friday-goats",
                                                       description="Kozel on Fridays"))
    director = make_user("dima")
    add_member(club, director, Membership.Role.DIRECTOR)
    member = make_user("mila")
    add_member(club, member)
    moderator = make_user("max")
    moderator.is_staff = True
    moderator.save(update_fields=["is_staff"])
    players = []
    for i in range(12):
        user = make_user(f"p{i:02d}")
        add_member(club, user)
        players.append(user)
    return ClubCast(club, owner, director, member, make_user("sam"), moderator, players)
