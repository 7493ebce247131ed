"""The shared cast (healthchecks style): four seated players and Charlie, who is refused.

alice owns the table and sits at 0, bob at 1, carol at 2 (alice's partner), dan at 3;
charlie is a stranger who must be refused everywhere a seat is needed.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model

from games.models import Table
from games.services import tables
from games.services.tables import TableSettings


@dataclass
class Cast:
    alice: object
    bob: object
    carol: object
    dan: object
    charlie: object

    @property
    def seated(self) -> list[object]:
        return [self.alice, self.bob, self.carol, self.dan]


def make_user(username: str, *, verified: bool = True):
    user = get_user_model().objects.create_user(username, f"{username}@example.com", "pw-12345!")
    EmailAddress.objects.create(user=user, email=user.email, verified=verified, primary=True)
    return user


@pytest.fixture(autouse=True)
def _fixed_deals(deal_seeds):
    """Every test here plays the same deals on every run (tests/conftest.py)."""
    return deal_seeds


@pytest.fixture
def cast(db) -> Cast:
    return Cast(*(make_user(n) for n in ["alice", "bob", "carol", "dan", "charlie"]))


@pytest.fixture
def table(cast) -> Table:
    """An open casual table owned by alice, nobody seated yet."""
    return tables.create_table(cast.alice, TableSettings(name="Friday game"))


@pytest.fixture
def full_table(cast, table) -> Table:
    """alice, bob, carol and dan seated at 0–3; not started."""
    for position, user in enumerate(cast.seated):
        tables.take_seat(table.pk, user, position)
    return table
