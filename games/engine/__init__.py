"""The rules engine of Kozel on 4 cards (rules R1–R19: templates/rules.html).

Pure Python, immutable values, no Django.  Typical use::

    state = new_game(seed, dealer=0)              # R4–R6 (seed from `secrets`)
    legal_actions(state, seat)                    # R8–R11, any seat
    state = apply(state, seat, action)            # raises IllegalActionError
    observe(state, seat).to_dict()                # R19: the only exit for data
    outcome(state)                                # R16–R17 after R14

:mod:`games.engine.fast` is the tuple-level playout path for bots.
"""

from __future__ import annotations

from . import fast, rules
from .actions import Action, Beat, Discard, Lead, Molodka, action_from_dict
from .cards import Card, Rank, Suit, format_cards, parse_card, parse_cards
from .errors import EngineError, IllegalActionError, InvalidPositionError
from .game import (
    ALGORITHM_VERSION,
    TEAM_A,
    TEAM_B,
    apply,
    game_from_position,
    game_record,
    last_action_history_start,
    legal_actions,
    new_game,
    opponents_of,
    outcome,
    partner_of,
    position_of,
    replay,
    seats_to_act,
    team_of,
)
from .observation import Policy, SeatView, observe, public_view
from .position import Position
from .rules import beats, can_beat
from .scoring import GameOutcome, Series, new_series, record_game, score
from .state import GameState

__all__ = [
    "ALGORITHM_VERSION",
    "fast",
    "rules",
    "Action",
    "Beat",
    "Card",
    "Discard",
    "EngineError",
    "GameOutcome",
    "GameState",
    "IllegalActionError",
    "InvalidPositionError",
    "Lead",
    "Molodka",
    "Policy",
    "Position",
    "Rank",
    "SeatView",
    "Series",
    "Suit",
    "TEAM_A",
    "TEAM_B",
    "action_from_dict",
    "apply",
    "beats",
    "can_beat",
    "format_cards",
    "game_from_position",
    "game_record",
    "last_action_history_start",
    "legal_actions",
    "new_game",
    "new_series",
    "observe",
    "outcome",
    "parse_card",
    "parse_cards",
    "position_of",
    "public_view",
    "record_game",
    "replay",
    "score",
    "seats_to_act",
    "opponents_of",
    "partner_of",
    "team_of",
]
