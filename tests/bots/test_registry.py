"""The one registry of bot levels (games.bots.registry): every level the site
stores has a policy, an unknown level is an error, and the protocol with the
bot ladder lives above the engine."""

from __future__ import annotations

import doctest
import random

import pytest

import games.bots.registry as registry
from games.bots import POLICIES
from games.bots.registry import UnknownBotLevelError, get_policy, levels, policies
from games.engine import new_game, observe
from games.engine.policies import random_policy
from tests.engine.conformance import ProtocolProcess

LADDER = ["beginner", "casual", "club", "strong"]


def test_levels_are_random_then_the_ladder() -> None:
    assert levels() == ["random", *LADDER]
    assert policies()["random"] is random_policy
    for level in LADDER:
        assert get_policy(level) is POLICIES[level]


def test_every_stored_bot_level_has_a_policy() -> None:
    from games.models import BotLevel

    for level in BotLevel.values:
        assert callable(get_policy(level)), level
    # ...and every level a bot plays can be stored on a seat.
    assert sorted(BotLevel.values) == sorted(levels())


@pytest.mark.parametrize("level", ["grandmaster", "", "Club", None, ["club"]])
def test_an_unknown_level_is_an_error_not_a_random_player(level: object) -> None:
    with pytest.raises(KeyError) as caught:
        get_policy(level)  # type: ignore[arg-type]
    error = caught.value
    assert isinstance(error, UnknownBotLevelError)
    assert error.level == level and error.known == levels()
    assert str(error) == (f"unknown bot level {level!r}; "
                          "known: random, beginner, casual, club, strong")


def test_the_service_refuses_an_unknown_level() -> None:
    from games.services.play import choose_bot_action

    state = new_game(4, dealer=0)
    seat = state.turn
    assert seat is not None
    with pytest.raises(UnknownBotLevelError, match="'grandmaster'"):
        choose_bot_action(state, seat, "grandmaster", random.Random(0))
    chosen = choose_bot_action(state, seat, "casual", random.Random(0))
    assert chosen == POLICIES["casual"](observe(state, seat), random.Random(0))


def test_the_registry_sees_a_replaced_level(monkeypatch: pytest.MonkeyPatch) -> None:
    def silent(view, rng):
        return None

    monkeypatch.setitem(POLICIES, "casual", silent)
    assert get_policy("casual") is silent


def test_doctests() -> None:
    assert doctest.testmod(registry, optionflags=doctest.ELLIPSIS).failed == 0


def test_bots_protocol_serves_every_level() -> None:
    proc = ProtocolProcess("games.bots.protocol")
    try:
        assert proc({"cmd": "policies"})["policies"] == sorted(levels())
        assert proc({"cmd": "deal", "seed": 5, "dealer": 0})["ok"]
        move = proc({"cmd": "bot", "seat": 1, "policy": "casual", "seed": 1})
        assert move["ok"] and move["action"][1] == 1
        refused = proc({"cmd": "bot", "seat": 1, "policy": "grandmaster"})
        assert refused["ok"] is False and "grandmaster" in refused["error"]
    finally:
        assert proc.close() == 0
