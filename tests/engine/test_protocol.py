"""Protocol robustness: bad input gets ``ok: false`` and the process keeps serving."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from typing import Any

import pytest

from games.engine import protocol
from games.engine.protocol import Session, serve

from .conformance import REPO_ROOT, ProtocolProcess

POSITION: dict[str, Any] = {
    "dealer": 3, "leader": 0, "trump_card": "6S",
    "hands": [["6H", "TH", "AH", "7C"], ["6D", "7D", "8D", "9C"], ["JC", "QC", "KC", "8H"],
              ["JD", "QD", "KD", "TC"]],
    "stock": ["6C", "8C", "AC", "9D", "TD", "AD", "7H", "9H", "JH", "QH", "KH", "6S", "7S", "8S",
              "9S", "JS", "QS", "KS", "TS", "AS"],
    "piles": {"A": [], "B": []}, "tricks": {"A": 0, "B": 0},
}


@pytest.fixture
def session() -> Session:
    return Session()


def refused(response: dict[str, Any]) -> str:
    assert response["ok"] is False, response
    assert isinstance(response["error"], str) and response["error"]
    return str(response["error"])


@pytest.mark.parametrize("line", ["", "{", "[1, 2]", '"cmd"', "null", '{"cmd": 5}',
                                  '{"cmd": "frobnicate"}', '{"nocmd": 1}'])
def test_malformed_requests_are_refused(session: Session, line: str) -> None:
    refused(session.handle(line))


def test_commands_need_a_game_or_series(session: Session) -> None:
    for cmd in ["legal", "state", "apply", "observe", "bot"]:
        assert "no current game" in refused(session.handle({"cmd": cmd, "seat": 0,
                                                             "action": ["lead", 0, ["6H"]],
                                                             "policy": "random"}))
    for cmd in ["series_record", "series_state"]:
        assert "no current series" in refused(session.handle({"cmd": cmd, "game": {}}))


def test_illegal_action_changes_nothing(session: Session) -> None:
    assert session.handle({"cmd": "setup", "position": POSITION})["ok"]
    before = session.handle({"cmd": "state"})
    assert "R8" in refused(session.handle({"cmd": "apply", "action": ["lead", 0, ["6H", "7C"]]}))
    for bad in [None, [], ["lead", 0], ["jump", 0, ["6H"]], ["lead", 7, ["6H"]],
                ["lead", 0, "6H"], ["lead", 0, ["XX"]], ["lead", True, ["6H"]]]:
        refused(session.handle({"cmd": "apply", "action": bad}))
    assert session.handle({"cmd": "state"}) == before
    ok = session.handle({"cmd": "apply", "action": {"kind": "lead", "seat": 0, "cards": ["6H"]}})
    assert ok == {"ok": True}


def test_bad_setup_and_deal_arguments(session: Session) -> None:
    refused(session.handle({"cmd": "setup"}))
    refused(session.handle({"cmd": "setup", "position": []}))
    bad = json.loads(json.dumps(POSITION))
    bad["hands"][0][0] = "7C"
    assert "R2" in refused(session.handle({"cmd": "setup", "position": bad}))
    refused(session.handle({"cmd": "deal", "seed": "x", "dealer": 0}))
    refused(session.handle({"cmd": "deal", "seed": 1, "dealer": 4}))
    refused(session.handle({"cmd": "deal", "seed": 1, "dealer": 0, "algorithm": 99}))
    dealt = session.handle({"cmd": "deal", "seed": 1, "dealer": 0, "leader": 2})
    assert dealt["ok"] and dealt["position"]["leader"] == 2


@pytest.mark.parametrize("position_change", [
    {"hands": [["6H"], ["6D"], ["JC"], []]},
    {"hands": "no"},
    {"dealer": 9},
    {"trump_card": 5},
    {"tricks": {"A": -1, "B": 0}},
    {"piles": {"A": []}},
    {"stock": "AS"},
])
def test_invalid_positions(session: Session, position_change: dict[str, Any]) -> None:
    position = {**POSITION, **position_change}
    refused(session.handle({"cmd": "setup", "position": position}))


def test_position_hand_size_rules(session: Session) -> None:
    from games.engine.cards import DECK

    rest = [c.code for c in DECK if c.code not in {"6C", "7C", "8C", "9C", "6D", "7D", "8D", "9D"}]
    two = {**POSITION, "hands": [["6C", "6D"], ["7C", "7D"], ["8C", "8D"], ["9C", "9D"]],
           "stock": rest[:4], "piles": {"A": rest[4:], "B": []}}
    assert "R12" in refused(session.handle({"cmd": "setup", "position": two}))
    empty = {**POSITION, "hands": [[], [], [], []], "stock": [],
             "piles": {"A": [c.code for c in DECK], "B": []}}
    assert "R14" in refused(session.handle({"cmd": "setup", "position": empty}))
    five = {**POSITION, "hands": [["6C", "6D", "6H", "6S", "7C"], ["7D", "7H", "7S", "8C", "8D"],
                                  ["8H", "8S", "9C", "9D", "9H"], ["9S", "JC", "JD", "JH", "JS"]],
            "stock": [], "piles": {"A": [c.code for c in DECK[0:36] if c.rank >= 5], "B": []}}
    assert "R5" in refused(session.handle({"cmd": "setup", "position": five}))


def test_card_helpers_and_scoring_errors(session: Session) -> None:
    assert session.handle({"cmd": "beats", "x": "6H", "y": "AS", "trump": "H"})["beats"] is True
    refused(session.handle({"cmd": "beats", "x": "6H", "y": "AS", "trump": "X"}))
    refused(session.handle({"cmd": "beats", "x": "6H", "y": "AS", "trump": 3}))
    refused(session.handle({"cmd": "beats", "x": "ZZ", "y": "AS", "trump": "H"}))
    for cards, top, expected in [(["8H", "6S"], ["7H", "KH"], True), (["9H"], ["7H", "8H"], False),
                                 ([], [], False), (["9H", "9H"], ["7H", "8H"], False)]:
        r = session.handle({"cmd": "can_beat", "cards": cards, "top": top, "trump": "S"})
        assert r == {"ok": True, "beats": expected}
    refused(session.handle({"cmd": "can_beat", "cards": "8H", "top": ["7H"], "trump": "S"}))
    r = session.handle({"cmd": "score", "points": {"A": 90, "B": 30}, "tricks": {"A": 4, "B": 1}})
    assert r == {"ok": True, "loss_points": {"A": 0, "B": 4}, "eggs": False, "winner": "A"}
    refused(session.handle({"cmd": "score", "points": {"A": 90, "B": 31},
                            "tricks": {"A": 4, "B": 1}}))
    refused(session.handle({"cmd": "score", "points": {"A": 90, "B": 30}, "tricks": [1]}))


def test_series_commands(session: Session) -> None:
    refused(session.handle({"cmd": "series_new", "target": 0, "first_dealer": 0}))
    refused(session.handle({"cmd": "series_new", "first_dealer": 8}))
    assert session.handle({"cmd": "series_new", "first_dealer": 1})["ok"]
    refused(session.handle({"cmd": "series_record", "game": 5}))
    refused(session.handle({"cmd": "series_record", "game": {"points": {"A": 60, "B": 60}}}))
    refused(session.handle({"cmd": "series_record", "game": {
        "points": {"A": 60, "B": 60}, "tricks": {"A": 1, "B": 1}, "last_taker": 9}}))
    game = {"points": {"A": 60, "B": 60}, "tricks": {"A": 1, "B": 1}, "last_taker": 3}
    assert session.handle({"cmd": "series_record", "game": game})["ok"]
    state = session.handle({"cmd": "series_state"})
    assert state["eggs"] == 1 and state["next_leader"] == 3 and state["next_dealer"] == 2
    assert state["first_leader"] == 2 and state["target"] == 12


def test_bot_and_policies(session: Session) -> None:
    # Without policies from its caller the engine serves only its own random one.
    assert session.handle({"cmd": "policies"})["policies"] == ["random"]
    session.handle({"cmd": "setup", "position": POSITION})
    move = session.handle({"cmd": "bot", "seat": 0, "policy": "random", "budget_ms": 10,
                           "seed": 3})
    assert move["ok"] and move["action"][0] == "lead" and move["action"][1] == 0
    assert session.handle({"cmd": "bot", "seat": 1, "policy": "random"}) == {
        "ok": True, "action": None}
    error = refused(session.handle({"cmd": "bot", "seat": 0, "policy": "no-such-bot"}))
    assert "'no-such-bot'" in error and "known: random" in error
    refused(session.handle({"cmd": "bot", "seat": 0, "policy": "club"}))  # the bots' level
    refused(session.handle({"cmd": "bot", "seat": 9, "policy": "random"}))


def test_session_serves_the_policies_of_its_caller() -> None:
    def first(view, rng):
        return view.legal[0] if view.legal else None

    session = Session({"first": first})
    assert session.handle({"cmd": "policies"})["policies"] == ["first"]
    session.handle({"cmd": "setup", "position": POSITION})
    assert session.handle({"cmd": "bot", "seat": 0, "policy": "first"})["ok"]
    assert "known: first" in refused(session.handle({"cmd": "bot", "seat": 0,
                                                      "policy": "random"}))


def test_r18_bot_sees_the_series_score_of_the_session() -> None:
    seen = []

    def recorder(view, rng):  # a policy that notes what it was shown
        seen.append(view.series)
        return view.legal[0] if view.legal else None

    session = Session({"recorder": recorder})
    session.handle({"cmd": "setup", "position": POSITION})
    assert session.handle({"cmd": "bot", "seat": 0, "policy": "recorder"})["ok"]
    session.handle({"cmd": "series_new", "target": 14, "first_dealer": 0})
    assert session.handle({"cmd": "bot", "seat": 0, "policy": "recorder"})["ok"]
    assert seen == [None, {"loss_points": {"A": 0, "B": 0}, "target": 14}]


def test_bot_policy_must_choose_a_legal_action() -> None:
    from games.engine import Lead

    session = Session({"cheat": lambda view, rng: Lead(["AS"])})
    session.handle({"cmd": "setup", "position": POSITION})
    assert "illegal" in refused(session.handle({"cmd": "bot", "seat": 0, "policy": "cheat"}))


def test_observe_and_version(session: Session) -> None:
    session.handle({"cmd": "setup", "position": POSITION})
    view = session.handle({"cmd": "observe", "seat": 2})["view"]
    assert view["seat"] == 2 and sorted(view["hand"]) == ["8H", "JC", "KC", "QC"]
    refused(session.handle({"cmd": "observe", "seat": "2"}))
    assert session.handle({"cmd": "version"})["protocol"] == protocol.PROTOCOL_VERSION


def test_serve_loop_flushes_and_skips_blank_lines() -> None:
    out = io.StringIO()
    serve(io.StringIO('\n{"cmd": "policies"}\nnot json\n{"cmd": "policies"}\n'), out)
    lines = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [x["ok"] for x in lines] == [True, False, True]


def test_subprocess_keeps_serving_after_errors() -> None:
    proc = ProtocolProcess()
    try:
        assert proc.send_raw("{{{")["ok"] is False
        assert proc.send_raw('{"cmd": "nope"}')["ok"] is False
        assert proc({"cmd": "setup", "position": POSITION})["ok"] is True
        assert proc({"cmd": "apply", "action": ["beat", 0, ["6H"]]})["ok"] is False
        assert proc({"cmd": "apply", "action": ["lead", 0, ["6H"]]})["ok"] is True
        assert proc({"cmd": "state"})["state"]["turn"] == 1
    finally:
        assert proc.close() == 0


def test_subprocess_needs_no_django() -> None:
    code = ("import sys, games.engine.protocol, games.engine.bench; "
            "assert not any(m == 'django' or m.startswith('django.') for m in sys.modules)")
    subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, check=True)


def test_the_engine_never_loads_the_bots() -> None:
    """The engine is a leaf: import-linter forbids ``games.engine`` importing
    ``games.bots``; this catches a run-time import (``importlib``) it cannot see,
    with every engine module loaded and the ``bot`` command run."""
    code = (
        "import importlib, pkgutil, sys, games.engine\n"
        "for m in pkgutil.iter_modules(games.engine.__path__, 'games.engine.'):\n"
        "    importlib.import_module(m.name)\n"
        "from games.engine.protocol import Session\n"
        "s = Session()\n"
        "assert s.handle({'cmd': 'deal', 'seed': 1, 'dealer': 0})['ok']\n"
        "assert s.handle({'cmd': 'bot', 'seat': 1, 'policy': 'random'})['ok']\n"
        "assert s.handle({'cmd': 'policies'})['policies'] == ['random']\n"
        "loaded = [m for m in sys.modules if m == 'games.bots' or m.startswith('games.bots.')]\n"
        "assert not loaded, loaded\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, check=True)
