"""The social cast: alice and bob become friends, carol is a third player, mallory is
blocked (accounts/moderation) and must be refused everywhere."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from tests.ratings.factories import make_user


@dataclass
class Cast:
    alice: Any
    bob: Any
    carol: Any
    mallory: Any


@pytest.fixture(autouse=True)
def _fixed_deals(deal_seeds):
    return deal_seeds


@pytest.fixture
def cast(db) -> Cast:
    return Cast(*(make_user(n) for n in ["alice", "bob", "carol", "mallory"]))


def block(blocker, blocked) -> None:
    from accounts.moderation.models import Block

    Block.objects.create(blocker=blocker, blocked=blocked)
