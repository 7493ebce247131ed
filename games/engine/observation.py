"""What each seat may see (R19): :func:`observe` and :func:`public_view`.

These are the only exits for game data.  A seat sees its own hand; every
face-up card; hand and stock sizes; the trump card; who played what face up
and how many cards each seat discarded; tricks per team; its own discards;
card points in the piles only after the game; the full record after the game.
It never sees another hand, another seat's face-down discard, the stock order
or the seed while the game runs.

>>> from games.engine import new_game
>>> v = observe(new_game(101, dealer=1), 0)
>>> v.seat, len(v.hand), v.hand_sizes, v.stock_size, v.k, v.record
(0, 4, [4, 4, 4, 4], 20, 0, None)
>>> sorted(v.to_dict())[:5]
['can_molodka', 'dealer', 'game_over', 'hand', 'hand_sizes']
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import fast
from .actions import DISCARD, Action
from .cards import Card, cards_of_mask, points_of_mask
from .fast import (
    DEALER,
    HANDS,
    LEADER,
    ORIGINAL_LEADER,
    PILES,
    STOCK,
    TABLE,
    TOP_SEAT,
    TRICKS,
    TRICKS_COMPLETED,
    TRUMP,
    TRUMP_CARD,
    TURN,
    K,
)
from .game import game_record, outcome
from .state import Event, GameState

__all__ = ["Policy", "SeatView", "observe", "public_view", "series_score"]


@dataclass(frozen=True, slots=True)
class SeatView:
    """Everything one seat (or a spectator, ``seat=None``) is shown (R19).

    Card fields hold card codes (``"TD"``); ``legal`` holds the viewer's legal
    :class:`Action` objects (empty for spectators).  :meth:`to_dict` is the
    JSON that templates, ``table.js``, the protocol and bots consume.
    """

    seat: int | None
    hand: list[str]
    hand_sizes: list[int]
    stock_size: int
    trump_card: str
    trump_suit: str
    dealer: int
    leader: int
    original_leader: int
    turn: int | None
    k: int
    table: list[dict[str, Any] | None]
    top_seat: int | None
    tricks: dict[str, int]
    tricks_completed: int
    pile_points: dict[str, int] | None
    history: list[dict[str, Any]]
    last_trick: dict[str, Any] | None
    can_molodka: bool
    legal: tuple[Action, ...]
    game_over: bool
    result: dict[str, Any] | None
    record: dict[str, Any] | None
    #: The series score this game is played at (R18, R19: both teams' loss
    #: points are public): ``{"loss_points": {"A": a, "B": b}, "target": t}``,
    #: or ``None`` when the caller did not say.
    series: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (R19): exactly what the viewer may know."""
        return {
            "seat": self.seat,
            "hand": list(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "stock_size": self.stock_size,
            "trump_card": self.trump_card,
            "trump_suit": self.trump_suit,
            "dealer": self.dealer,
            "leader": self.leader,
            "original_leader": self.original_leader,
            "turn": self.turn,
            "k": self.k,
            "table": [None if e is None else dict(e) for e in self.table],
            "top_seat": self.top_seat,
            "tricks": dict(self.tricks),
            "tricks_completed": self.tricks_completed,
            "pile_points": None if self.pile_points is None else dict(self.pile_points),
            "history": [dict(e) for e in self.history],
            "last_trick": self.last_trick,
            "can_molodka": self.can_molodka,
            "legal": [a.to_dict() for a in self.legal],
            "game_over": self.game_over,
            "result": self.result,
            "record": self.record,
            "series": series_score(self.series),  # a fresh copy
        }


def series_score(series: Any) -> dict[str, Any] | None:
    """R18: a checked copy of a series score for :func:`observe`, from a
    mapping ``{"loss_points": {"A": a, "B": b}, "target": t}`` or ``None``.

    Raises ``ValueError`` unless the loss points are non-negative integers
    and the target a positive integer.

    >>> series_score({"loss_points": {"A": 4, "B": 0}, "target": 12})
    {'loss_points': {'A': 4, 'B': 0}, 'target': 12}
    """
    if series is None:
        return None

    def count(v: Any, positive: bool) -> int:
        if isinstance(v, bool) or not isinstance(v, int) or v < (1 if positive else 0):
            raise ValueError(f"R18: bad series score value {v!r}")
        return v

    try:
        lp = series["loss_points"]
        out = {
            "loss_points": {"A": count(lp["A"], False), "B": count(lp["B"], False)},
            "target": count(series["target"], True),
        }
    except (KeyError, TypeError):
        raise ValueError(
            "R18: a series score is {'loss_points': {'A': a, 'B': b}, 'target': t}"
        ) from None
    return out


#: A bot policy (R19: it sees only a :class:`SeatView`): the action to take,
#: or ``None`` to stay silent (a seat not on turn that does not announce).
Policy = Callable[[SeatView, random.Random], "Action | None"]


def _codes(cards: tuple[Card, ...]) -> list[str]:
    return [c.code for c in cards]


def _entry(action: Action | None, own: bool) -> dict[str, Any] | None:
    """A table entry as the viewer sees it: a face-down discard is a count (R9, R19)."""
    if action is None:
        return None
    if action.code == DISCARD:
        entry: dict[str, Any] = {"kind": "discard", "count": len(action.cards)}
        if own:
            entry["cards"] = _codes(action.cards)
        return entry
    # R11: a molodka on the table is the restarted trick's lead.
    kind = "beat" if action.kind == "beat" else "lead"
    return {"kind": kind, "cards": _codes(action.cards)}


def _event(event: Event, viewer: int | None) -> dict[str, Any]:
    name = event[0]
    if name == "play":
        _, seat, action = event
        out = {"event": "play", "seat": seat}
        entry = _entry(action, seat == viewer)
        assert entry is not None
        out.update(entry)
        return out
    if name == "molodka":
        _, seat, action, returned = event
        face_up: dict[str, list[str]] = {}
        face_down: dict[str, dict[str, Any]] = {}
        for s, a in returned:
            if a.code == DISCARD:
                hidden: dict[str, Any] = {"count": len(a.cards)}
                if s == viewer:
                    hidden["cards"] = _codes(a.cards)
                face_down[str(s)] = hidden
            else:
                face_up[str(s)] = _codes(a.cards)
        return {
            "event": "molodka",
            "seat": seat,
            "cards": _codes(action.cards),
            "returned": face_up,
            "returned_discards": face_down,
        }
    if name == "trick":
        return {"event": "trick", "taker": event[1], "trick_no": event[2]}
    return {"event": "draw", "counts": list(event[1])}


def _view(
    state: GameState, seat: int | None, series: dict[str, Any] | None = None,
    history_from: int = 0,
) -> SeatView:
    core = state.core
    trump = core[TRUMP]
    piles = core[PILES]
    over = core[TURN] is None
    hand: list[str] = []
    legal: tuple[Action, ...] = ()
    if seat is not None:
        cards = sorted(cards_of_mask(core[HANDS][seat]), key=lambda c: c.sort_key(trump))
        hand = [c.code for c in cards]
        legal = tuple(fast.legal_for(core, seat))
    last = state.last_trick
    result = outcome(state)
    return SeatView(
        seat=seat,
        hand=hand,
        hand_sizes=[m.bit_count() for m in core[HANDS]],
        stock_size=len(core[STOCK]),
        trump_card=Card(core[TRUMP_CARD]).code,
        trump_suit="CDHS"[trump],
        dealer=core[DEALER],
        leader=core[LEADER],
        original_leader=core[ORIGINAL_LEADER],
        turn=core[TURN],
        k=core[K],
        table=[_entry(a, i == seat) for i, a in enumerate(core[TABLE])],
        top_seat=None if core[TOP_SEAT] < 0 else core[TOP_SEAT],
        tricks={"A": core[TRICKS][0], "B": core[TRICKS][1]},
        tricks_completed=core[TRICKS_COMPLETED],
        pile_points=(
            {"A": points_of_mask(piles[0]), "B": points_of_mask(piles[1])} if over else None
        ),
        history=[_event(e, seat) for e in state.history[history_from:]],
        last_trick=None
        if last is None
        else {
            "plays": [_entry(a, i == seat) for i, a in enumerate(last.plays)],
            "taker": last.taker,
            "trick_no": last.trick_no,
        },
        can_molodka=any(a.kind == "molodka" for a in legal),
        legal=legal,
        game_over=over,
        result=None if result is None else result.to_dict(),
        record=game_record(state) if over else None,
        series=series,
    )


def observe(state: GameState, seat: int, series: Any = None,
            history_from: int = 0) -> SeatView:
    """R19: what ``seat`` is shown now; ``series`` the series score the game
    is played at (see :func:`series_score`), which bots may weigh.

    ``history_from``: the view's ``history`` holds the entries from that index on
    (an event carries only the entries its action added; the whole history of a late
    game, made for each of a move's five views, was most of their cost).

    Raises ``ValueError`` for a seat outside 0-3 or a bad series score.
    """
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
        raise ValueError(f"R1: seat must be 0-3, got {seat!r}")
    return _view(state, seat, series_score(series), _history_from(history_from))


def public_view(state: GameState, history_from: int = 0) -> SeatView:
    """R19: what a spectator is shown (no hand, discards as counts only);
    ``history_from`` as for :func:`observe`."""
    return _view(state, None, history_from=_history_from(history_from))


def _history_from(start: Any) -> int:
    if isinstance(start, bool) or not isinstance(start, int) or start < 0:
        raise ValueError(f"history_from must be an index of the history, got {start!r}")
    return start
