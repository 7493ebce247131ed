"""The Kozel engine protocol: JSON lines on stdin/stdout.

Run ``python -m games.engine.protocol`` from the project root.  One request
per line, one response per line, in order; the process keeps one current
game and one current series.  See ``games/engine/PROTOCOL.md``.

The ``bot`` and ``policies`` commands serve the policies the caller passes
(:class:`Session`, :func:`serve`, :func:`main`); by default only the
engine's own ``random`` (:data:`~games.engine.policies.BUILTIN_POLICIES`).
The engine never imports the bot ladder: ``python -m games.bots.protocol``
is this protocol with every bot level.

>>> session = Session()
>>> session.handle('{"cmd": "beats", "x": "6H", "y": "AS", "trump": "H"}')
{'ok': True, 'beats': True}
>>> session.handle('{"cmd": "nope"}')["ok"]
False
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Mapping
from typing import Any, TextIO

from . import fast
from .actions import ACTION_TYPES, Action
from .cards import Card, Suit, cards_of_mask, mask_of, parse_cards, points_of_mask
from .errors import EngineError
from .fast import (
    DEALER,
    HANDS,
    LAST_TAKER,
    LEADER,
    ORIGINAL_LEADER,
    PILES,
    STOCK,
    TABLE,
    TOP_SEAT,
    TRICKS,
    TRICKS_COMPLETED,
    TRUMP_CARD,
    TURN,
    K,
)
from .game import apply, game_from_position, new_game, outcome
from .observation import Policy, observe
from .policies import BUILTIN_POLICIES
from .position import Position
from .rules import beats, can_beat_mask
from .scoring import Series, new_series, record_game, score
from .state import GameState

__all__ = ["ProtocolError", "Session", "main", "state_dict"]

PROTOCOL_VERSION = "kozel-protocol/1"


class ProtocolError(EngineError):
    """A malformed request (missing or ill-typed field)."""


def _field(req: Mapping[str, Any], name: str) -> Any:
    if name not in req:
        raise ProtocolError(f"missing field {name!r}")
    return req[name]


def _int(req: Mapping[str, Any], name: str, default: int | None = None) -> int:
    value = req.get(name, default) if default is not None else _field(req, name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ProtocolError(f"field {name!r} must be an integer")
    return value


def _seat(req: Mapping[str, Any], name: str = "seat") -> int:
    seat = _int(req, name)
    if not 0 <= seat <= 3:
        raise ProtocolError(f"R1: {name} must be a seat 0-3, got {seat}")
    return seat


def _cards(value: Any, name: str) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise ProtocolError(f"field {name!r} must be a list of card codes")
    return parse_cards(value)


def _suit(value: Any) -> Suit:
    if not isinstance(value, str):
        raise ProtocolError("field 'trump' must be a suit letter C, D, H or S")
    return Suit.parse(value)


def action_to_wire(seat: int, action: Action) -> list[Any]:
    """``[kind, seat, [cards]]``."""
    return [action.kind, seat, [c.code for c in action.cards]]


def action_from_wire(value: Any) -> tuple[int, Action]:
    """Parse ``[kind, seat, [cards]]`` (or ``{"kind", "seat", "cards"}``)."""
    if isinstance(value, Mapping):
        value = [value.get("kind"), value.get("seat"), value.get("cards")]
    if not isinstance(value, list) or len(value) != 3:
        raise ProtocolError("an action is [kind, seat, [cards]]")
    kind, seat, cards = value
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ProtocolError(f"unknown action kind {kind!r} (lead, beat, discard or molodka)")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
        raise ProtocolError(f"R1: the action's seat must be 0-3, got {seat!r}")
    return seat, cls(_cards(cards, "cards"))


def _table_entry(action: Action | None) -> dict[str, Any] | None:
    if action is None:
        return None
    if action.kind == "discard":
        return {"kind": "discard", "count": len(action.cards)}
    kind = "beat" if action.kind == "beat" else "lead"  # R11: a molodka is the new lead
    return {"kind": kind, "cards": [c.code for c in action.cards]}


def state_dict(state: GameState) -> dict[str, Any]:
    """The full state in the conformance vocabulary (the ``state`` command)."""
    core = state.core
    result = outcome(state)
    piles = core[PILES]
    over = core[TURN] is None
    return {
        "turn": core[TURN],
        "leader": core[LEADER],
        "original_leader": core[ORIGINAL_LEADER],
        "dealer": core[DEALER],
        "k": core[K],
        "hands": [[c.code for c in cards_of_mask(m)] for m in core[HANDS]],
        "hand_sizes": [m.bit_count() for m in core[HANDS]],
        "stock_size": len(core[STOCK]),
        "trump_card": Card(core[TRUMP_CARD]).code,
        "table": [_table_entry(a) for a in core[TABLE]],
        "top_seat": None if core[TOP_SEAT] < 0 else core[TOP_SEAT],
        "tricks": {"A": core[TRICKS][0], "B": core[TRICKS][1]},
        "pile_sizes": {"A": piles[0].bit_count(), "B": piles[1].bit_count()},
        "pile_points": {"A": points_of_mask(piles[0]), "B": points_of_mask(piles[1])},
        "game_over": over,
        "last_taker": None if core[LAST_TAKER] < 0 else core[LAST_TAKER],
        "next_leader": core[LAST_TAKER] if over else core[LEADER],
        "tricks_completed": core[TRICKS_COMPLETED],
        "molodka_seats": fast.molodka_seats(core),
        "result": None
        if result is None
        else {
            "points": result.points,
            "loss_points": result.loss_points,
            "eggs": result.eggs,
            "winner": result.winner,
            "last_taker": result.last_taker,
        },
    }


def _series_dict(series: Series) -> dict[str, Any]:
    return {
        "target": series.target,
        "loss_points": series.loss_points,
        "over": series.over,
        "goat": series.goat,
        "winner": series.winner,
        "goats_with_eggs": series.goats_with_eggs,
        "eggs": series.eggs,
        "next_leader": series.next_leader,
        "next_dealer": series.next_dealer,
        "first_dealer": series.first_dealer,
        "first_leader": series.first_leader,
        "games": len(series.games),
    }


class Session:
    """One protocol session: a current game, a current series, a bot RNG.

    :meth:`handle` takes one request (a JSON line or a decoded object) and
    returns the response object; a refused request changes nothing.
    ``policies`` are the bots the ``bot`` command may run, by name (default:
    :data:`~games.engine.policies.BUILTIN_POLICIES`, the engine's ``random``);
    the mapping is read at every request, not copied.
    """

    def __init__(self, policies: Mapping[str, Policy] | None = None) -> None:
        self.policies: Mapping[str, Policy] = BUILTIN_POLICIES if policies is None else policies
        self.game: GameState | None = None
        self.series: Series | None = None
        self.rng = random.Random(0)
        self._commands: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
            "setup": self._setup,
            "deal": self._deal,
            "legal": self._legal,
            "apply": self._apply,
            "state": self._state,
            "observe": self._observe,
            "beats": self._beats,
            "can_beat": self._can_beat,
            "score": self._score,
            "series_new": self._series_new,
            "series_record": self._series_record,
            "series_state": self._series_state,
            "bot": self._bot,
            "policies": self._policies,
            "version": self._version,
        }

    def handle(self, request: str | Mapping[str, Any]) -> dict[str, Any]:
        """Answer one request: ``{"ok": true, ...}`` or ``{"ok": false, "error": ...}``."""
        if isinstance(request, str):
            try:
                request = json.loads(request)
            except ValueError as exc:
                return {"ok": False, "error": f"malformed JSON: {exc}"}
        if not isinstance(request, Mapping):
            return {"ok": False, "error": "a request must be a JSON object with a 'cmd'"}
        cmd = request.get("cmd")
        handler = self._commands.get(cmd) if isinstance(cmd, str) else None
        if handler is None:
            known = ", ".join(sorted(self._commands))
            return {"ok": False, "error": f"unknown cmd {cmd!r} (known: {known})"}
        try:
            response = handler(request)
        except (EngineError, ValueError, TypeError, KeyError) as exc:
            message = str(exc) if not isinstance(exc, KeyError) else f"missing {exc}"
            return {"ok": False, "error": message or type(exc).__name__}
        return {"ok": True, **response}

    def _need_game(self) -> GameState:
        if self.game is None:
            raise ProtocolError("no current game: send 'setup' or 'deal' first")
        return self.game

    def _need_series(self) -> Series:
        if self.series is None:
            raise ProtocolError("no current series: send 'series_new' first")
        return self.series

    def _setup(self, req: Mapping[str, Any]) -> dict[str, Any]:
        self.game = game_from_position(Position.from_dict(_field(req, "position")))
        return {}

    def _deal(self, req: Mapping[str, Any]) -> dict[str, Any]:
        leader = req.get("leader")
        if leader is not None:
            leader = _seat(req, "leader")
        algorithm = _int(req, "algorithm", fast.ALGORITHM_VERSION)
        game = new_game(_int(req, "seed"), _seat(req, "dealer"), leader, algorithm)
        self.game = game
        return {"position": game.start.to_dict(), "algorithm": algorithm}

    def _legal(self, req: Mapping[str, Any]) -> dict[str, Any]:
        core = self._need_game().core
        return {"actions": [action_to_wire(s, a) for s, a in fast.legal_pairs(core)]}

    def _apply(self, req: Mapping[str, Any]) -> dict[str, Any]:
        game = self._need_game()
        seat, action = action_from_wire(_field(req, "action"))
        self.game = apply(game, seat, action)
        return {}

    def _state(self, req: Mapping[str, Any]) -> dict[str, Any]:
        return {"state": state_dict(self._need_game())}

    def _observe(self, req: Mapping[str, Any]) -> dict[str, Any]:
        return {"view": observe(self._need_game(), _seat(req)).to_dict()}

    def _beats(self, req: Mapping[str, Any]) -> dict[str, Any]:
        x = Card.parse(_field(req, "x"))
        y = Card.parse(_field(req, "y"))
        return {"beats": beats(x, y, _suit(_field(req, "trump")))}

    def _can_beat(self, req: Mapping[str, Any]) -> dict[str, Any]:
        cards = _cards(_field(req, "cards"), "cards")
        top = _cards(_field(req, "top"), "top")
        trump = _suit(_field(req, "trump"))
        cm, tm = mask_of(cards), mask_of(top)
        ok = (
            bool(top)
            and cm.bit_count() == len(cards)
            and tm.bit_count() == len(top)
            and can_beat_mask(cm, tm, int(trump))
        )
        return {"beats": ok}

    def _score(self, req: Mapping[str, Any]) -> dict[str, Any]:
        loss, eggs, winner = score(_field(req, "points"), _field(req, "tricks"))
        return {"loss_points": loss, "eggs": eggs, "winner": winner}

    def _series_new(self, req: Mapping[str, Any]) -> dict[str, Any]:
        self.series = new_series(_int(req, "target", 12), _seat(req, "first_dealer"))
        return {}

    def _series_record(self, req: Mapping[str, Any]) -> dict[str, Any]:
        series = self._need_series()
        game = _field(req, "game")
        if not isinstance(game, Mapping):
            raise ProtocolError("field 'game' must be an object with points, tricks, last_taker")
        self.series = record_game(
            series, _field(game, "points"), _field(game, "tricks"), _field(game, "last_taker")
        )
        return {}

    def _series_state(self, req: Mapping[str, Any]) -> dict[str, Any]:
        return _series_dict(self._need_series())

    def _bot(self, req: Mapping[str, Any]) -> dict[str, Any]:
        game = self._need_game()
        seat = _seat(req)
        name = _field(req, "policy")
        policy = self.policies.get(name) if isinstance(name, str) else None
        if policy is None:
            known = ", ".join(sorted(self.policies))
            raise ProtocolError(f"unknown policy {name!r} (known: {known})")
        if "seed" in req:
            self.rng = random.Random(_int(req, "seed"))
        score = None if self.series is None else self.series.score
        view = observe(game, seat, score)  # R19: the bot sees only this (and the score)
        action = policy(view, self.rng)
        if action is None:
            return {"action": None}
        if action not in view.legal:
            raise ProtocolError(f"policy {name!r} chose an illegal action {action!r}")
        return {"action": action_to_wire(seat, action)}

    def _policies(self, req: Mapping[str, Any]) -> dict[str, Any]:
        return {"policies": sorted(self.policies)}

    def _version(self, req: Mapping[str, Any]) -> dict[str, Any]:
        return {"protocol": PROTOCOL_VERSION, "algorithm": fast.ALGORITHM_VERSION}


def serve(
    stdin: TextIO, stdout: TextIO, policies: Mapping[str, Policy] | None = None
) -> None:
    """Answer requests line by line until EOF, flushing after every line; the
    ``bot`` command runs ``policies`` (see :class:`Session`)."""
    session = Session(policies)
    for line in stdin:
        if not line.strip():
            continue
        response = session.handle(line)
        stdout.write(json.dumps(response, ensure_ascii=False) + "\n")
        stdout.flush()


def main(policies: Mapping[str, Policy] | None = None) -> None:
    """Entry point of ``python -m games.engine.protocol`` (the engine's
    ``random`` only) and, with the bot ladder as ``policies``, of
    ``python -m games.bots.protocol``."""
    stdin = sys.stdin
    stdout = sys.stdout
    if hasattr(stdout, "reconfigure"):
        stdout.reconfigure(encoding="utf-8")
    serve(stdin, stdout, policies)


if __name__ == "__main__":
    main()
