"""Runs conformance scenarios (shared/conformance/scenarios.json) against any
client that speaks the Kozel engine protocol: a real subprocess, or the
in-process :class:`games.engine.protocol.Session`."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[2]
CARD_RE = re.compile(r"^[6789JQKTA][CDHS]$")

PLAIN_KEYS = frozenset({
    "turn", "leader", "original_leader", "k", "stock_size", "game_over", "hand_sizes",
    "next_leader", "tricks", "pile_sizes", "pile_points",
})

Client = Callable[[dict[str, Any]], dict[str, Any]]


def scenarios_path() -> Path:
    override = os.environ.get("KOZEL_SHARED_DIR")
    base = Path(override) if override else REPO_ROOT.parent / "shared"
    return base / "conformance" / "scenarios.json"


def load_scenarios() -> list[dict[str, Any]]:
    path = scenarios_path()
    if not path.exists():
        return []
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "kozel-conformance/1"
    return list(data["scenarios"])


class ProtocolProcess:
    """``python -m games.engine.protocol`` (or another ``module`` speaking the
    protocol, e.g. ``games.bots.protocol``) as a child process."""

    def __init__(self, module: str = "games.engine.protocol") -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", module],
            cwd=REPO_ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            bufsize=1,
        )

    def send_raw(self, line: str) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline()
        assert answer, "the protocol process closed its output"
        result: dict[str, Any] = json.loads(answer)
        return result

    def __call__(self, request: dict[str, Any]) -> dict[str, Any]:
        return self.send_raw(json.dumps(request))

    def close(self) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        return self.proc.wait(timeout=10)


def _ok(client: Client, request: dict[str, Any]) -> dict[str, Any]:
    response = client(request)
    assert response.get("ok") is True, f"{request} -> {response}"
    return response


def _norm(action: list[Any]) -> tuple[str, int, frozenset[str]]:
    kind, seat, cards = action
    return (kind, seat, frozenset(cards))


def _entry(entry: dict[str, Any] | None) -> Any:
    if entry is None:
        return None
    out = dict(entry)
    if "cards" in out:
        out["cards"] = sorted(out["cards"])
    return out


def _card_strings(obj: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(obj, str):
        if CARD_RE.match(obj):
            found.add(obj)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            found |= _card_strings(k) | _card_strings(v)
    elif isinstance(obj, list):
        for v in obj:
            found |= _card_strings(v)
    return found


def check_expect(
    client: Client, expect: dict[str, Any], before: dict[str, Any], where: str
) -> None:
    state = _ok(client, {"cmd": "state"})["state"]
    legal = [_norm(a) for a in _ok(client, {"cmd": "legal"})["actions"]]
    for key, want in expect.items():
        msg = f"{where}: {key}"
        if key in PLAIN_KEYS:
            assert state[key] == want, f"{msg}: {state[key]!r} != {want!r}"
        elif key == "hands":
            for seat, cards in want.items():
                assert sorted(state["hands"][int(seat)]) == sorted(cards), msg
        elif key == "hand_contains":
            for seat, cards in want.items():
                assert set(cards) <= set(state["hands"][int(seat)]), msg
        elif key == "table":
            for seat, entry in want.items():
                assert _entry(state["table"][int(seat)]) == _entry(entry), (
                    f"{msg}: {state['table'][int(seat)]!r} != {entry!r}"
                )
        elif key == "trick_taker":
            assert state["tricks_completed"] == before["tricks_completed"] + 1, msg
            assert state["last_taker"] == want, f"{msg}: {state['last_taker']} != {want}"
        elif key == "result":
            assert state["result"] is not None, msg
            for rk, rv in want.items():
                assert state["result"][rk] == rv, f"{msg}.{rk}: {state['result'][rk]!r} != {rv!r}"
        elif key == "molodka_seats":
            seats = sorted({s for kind, s, _ in legal if kind == "molodka"})
            assert seats == sorted(want), f"{msg}: {seats} != {want}"
        elif key == "legal_sets":
            got = {c for kind, s, c in legal if kind == want["kind"] and s == want["seat"]}
            assert got == {frozenset(x) for x in want["sets"]}, f"{msg}: {got}"
        elif key == "legal_count":
            got_n = len({c for kind, s, c in legal if kind == want["kind"] and s == want["seat"]})
            assert got_n == want["count"], f"{msg}: {got_n} != {want['count']}"
        elif key == "view":
            for item in want:
                view = _ok(client, {"cmd": "observe", "seat": item["seat"]})["view"]
                shown = _card_strings(view)
                missing = set(item.get("contains", [])) - shown
                leaked = set(item.get("excludes", [])) & shown
                assert not missing, f"{msg} seat {item['seat']} lacks {sorted(missing)}"
                assert not leaked, f"{msg} seat {item['seat']} leaks {sorted(leaked)}"
        else:
            raise AssertionError(f"{msg}: unknown expectation key")


def run_play(client: Client, scenario: dict[str, Any]) -> None:
    _ok(client, {"cmd": "setup", "position": scenario["position"]})
    for i, step in enumerate(scenario["steps"]):
        where = f"{scenario['id']} step {i}"
        before = _ok(client, {"cmd": "state"})["state"]
        if "do" in step:
            action = step["do"]
            listed = _norm(action) in {_norm(a) for a in _ok(client, {"cmd": "legal"})["actions"]}
            response = client({"cmd": "apply", "action": action})
            if step["legal"]:
                assert response["ok"] is True, f"{where}: refused {action}: {response}"
                assert listed, f"{where}: {action} applied but not listed as legal"
            else:
                assert response["ok"] is False, f"{where}: accepted {action} ({step.get('why')})"
                assert isinstance(response.get("error"), str) and response["error"]
                assert not listed, f"{where}: illegal {action} is listed as legal"
                after = _ok(client, {"cmd": "state"})["state"]
                assert after == before, f"{where}: a refused action changed the state"
            if "expect" in step:
                check_expect(client, step["expect"], before, where)
        elif "check" in step:
            listed = _norm(step["check"]) in {
                _norm(a) for a in _ok(client, {"cmd": "legal"})["actions"]
            }
            assert listed == step["legal"], f"{where}: check {step['check']}"
        elif "expect" in step:
            check_expect(client, step["expect"], before, where)
        else:
            raise AssertionError(f"{where}: unknown step {step}")


def run_scenario(client: Client, scenario: dict[str, Any]) -> None:
    kind = scenario["type"]
    if kind == "play":
        run_play(client, scenario)
    elif kind == "card_order":
        for c in scenario["checks"]:
            r = _ok(client, {"cmd": "beats", "x": c["x"], "y": c["y"], "trump": c["trump"]})
            assert r["beats"] == c["beats"], f"{scenario['id']}: {c}"
    elif kind == "beat_set":
        for c in scenario["checks"]:
            r = _ok(client, {"cmd": "can_beat", "cards": c["cards"], "top": c["top"],
                             "trump": c["trump"]})
            assert r["beats"] == c["beats"], f"{scenario['id']}: {c}"
    elif kind == "scoring":
        for c in scenario["checks"]:
            r = _ok(client, {"cmd": "score", "points": c["points"], "tricks": c["tricks"]})
            for key in ("loss_points", "eggs", "winner"):
                if key in c:
                    assert r[key] == c[key], f"{scenario['id']}: {c} -> {r}"
    elif kind == "series":
        _ok(client, {"cmd": "series_new", "target": scenario.get("target", 12),
                     "first_dealer": scenario["first_dealer"]})
        state = _ok(client, {"cmd": "series_state"})
        first = scenario.get("expect_first", {})
        if "dealer" in first:
            assert state["first_dealer"] == first["dealer"] == state["next_dealer"]
        if "leader" in first:
            assert state["first_leader"] == first["leader"] == state["next_leader"]
        for game, expect in zip(scenario["games"], scenario.get("expect_after", []), strict=False):
            _ok(client, {"cmd": "series_record", "game": game})
            state = _ok(client, {"cmd": "series_state"})
            for key, want in expect.items():
                assert state[key] == want, f"{scenario['id']}: {key} {state[key]!r} != {want!r}"
    else:
        raise AssertionError(f"unknown scenario type {kind}")
