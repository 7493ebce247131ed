"""The exported record (docs/api.md) replays with the engine protocol
(games/engine/PROTOCOL.md) as a third-party tool would: a separate process fed the
record's deal and actions, ending with the result the site stored when the game was
played (the GameResult row, written by the finisher at the time, not by the export)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from django.test import Client

from games.models import GameResult
from tests.api.conftest import finished_game

REPO = Path(__file__).resolve().parents[2]


class Protocol:
    """``python -m games.engine.protocol`` in its own process: one JSON line each way."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "games.engine.protocol"], cwd=REPO, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        answer = json.loads(self.process.stdout.readline())
        assert answer["ok"], (request, answer)
        return answer

    def close(self) -> int:
        assert self.process.stdin is not None
        self.process.stdin.close()
        return self.process.wait(timeout=30)


def replay_through_protocol(record: dict[str, Any]) -> dict[str, Any]:
    """What docs/api.md tells a tool to do with a record; returns the final state."""
    engine = Protocol()
    try:
        dealt = engine.ask({"cmd": "deal", "seed": record["seed"], "dealer": record["dealer"],
                            "leader": record["leader"], "algorithm": record["algorithm"]})
        position = dealt["position"]
        # The deal from the seed is the deal in the record (R5).
        assert position["hands"] == record["hands"]
        assert position["stock"] == record["stock"]
        assert position["trump_card"] == record["trump_card"]
        for action in record["actions"]:
            engine.ask({"cmd": "apply",
                        "action": [action["kind"], action["seat"], action["cards"]]})
        return engine.ask({"cmd": "state"})["state"]
    finally:
        assert engine.close() == 0


def test_an_exported_record_replays_with_the_engine_protocol_to_the_stored_result(cast):
    game = finished_game(cast.alice, [cast.alice, cast.bob, cast.carol, cast.dan])
    stored = GameResult.objects.get(game=game)
    body = Client().get(f"/api/games/{game.pk}").json()
    record = body["record"]
    assert record["actions"], "a played-out game has actions"

    final = replay_through_protocol(record)

    assert final["game_over"] is True
    result = final["result"]
    assert result["points"] == {"A": stored.points_a, "B": stored.points_b}
    assert result["loss_points"] == {"A": stored.loss_points_a, "B": stored.loss_points_b}
    assert result["eggs"] == stored.eggs
    assert (result["winner"] or "") == stored.winner
    assert result["last_taker"] == stored.last_taker
    # The record's own result says the same (a tool may trust either).
    for key in ("points", "loss_points", "eggs", "winner", "last_taker"):
        assert record["result"][key] == result[key], key
