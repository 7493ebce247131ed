"""The API's cast: the games tests' players (tests/games/conftest.py), each with a token,
plus olga, who owns a private table without playing at it, and mona, a moderator.

Games are dealt from fixed seeds (``deal_seeds``) and played through the services.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import Group, Permission

from accounts import tokens
from games.models import Game, Series
from games.services import series as series_service
from games.services import tables
from tests.games.conftest import Cast, make_user
from tests.games.helpers import current_game, play_out_game, users_by_position


@pytest.fixture(autouse=True)
def _fixed_deals(deal_seeds):
    return deal_seeds


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    """Each test starts with full budgets (the counters live in the shared cache)."""
    _clear_rate_counters()
    yield
    _clear_rate_counters()


def _clear_rate_counters() -> None:
    from django.conf import settings

    from games import presence

    try:
        client = presence.client()
        keys = list(client.scan_iter(match=f"{settings.REDIS_PREFIX}:cache:*:api-rate:*"))
        if keys:
            client.delete(*keys)
    except Exception:  # noqa: BLE001 - no Redis, nothing to clear
        pass


@dataclass
class ApiCast(Cast):
    olga: Any = None
    mona: Any = None
    tokens: dict[str, str] | None = None

    def bearer(self, name: str) -> dict[str, str]:
        """The header a client of ``name``'s token sends."""
        assert self.tokens is not None
        return {"HTTP_AUTHORIZATION": f"Bearer {self.tokens[name]}"}


def make_moderator(username: str) -> Any:
    user = make_user(username)
    group, _ = Group.objects.get_or_create(name="Moderators")
    group.permissions.add(*Permission.objects.filter(
        codename__in=["add_sanction", "moderate_clubs"]))
    user.groups.add(group)
    user.is_staff = True
    user.save()
    return user


@pytest.fixture
def cast(db) -> ApiCast:
    people = {n: make_user(n) for n in ["alice", "bob", "carol", "dan", "charlie", "olga"]}
    people["mona"] = make_moderator("mona")
    made = {name: tokens.create_token(user, "tests")[1] for name, user in people.items()}
    return ApiCast(**people, tokens=made)


def finished_game(owner: Any, players: list[Any], *, visibility: str = "public",
                  name: str = "t", owner_sits: bool = True) -> Game:
    """A table of ``owner`` with ``players`` at 0–3, its first game played out."""
    table = tables.create_table(owner, tables.TableSettings(name=name, visibility=visibility),
                                owner_sits=False)
    for position, user in enumerate(players):
        tables.take_seat(table.pk, user, position)
    series = series_service.start_series(table.pk, owner)
    game = current_game(series)
    play_out_game(game, users_by_position(series))
    game.refresh_from_db()
    assert game.played_out
    return game


def live_game(owner: Any, players: list[Any], *, visibility: str = "public",
              name: str = "live") -> Game:
    table = tables.create_table(owner, tables.TableSettings(name=name, visibility=visibility),
                                owner_sits=False)
    for position, user in enumerate(players):
        tables.take_seat(table.pk, user, position)
    series: Series = series_service.start_series(table.pk, owner)
    return current_game(series)
