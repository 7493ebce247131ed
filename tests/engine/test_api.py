"""The public API's edges: value types, serialization, errors, caches, bench."""

from __future__ import annotations

import dataclasses
import gc
import json

import pytest

from games.engine import (
    Action,
    Beat,
    Card,
    Discard,
    EngineError,
    GameState,
    IllegalActionError,
    InvalidPositionError,
    Lead,
    Molodka,
    Position,
    action_from_dict,
    apply,
    bench,
    fast,
    game_from_position,
    new_game,
    observe,
    position_of,
    public_view,
    rules,
)
from games.engine.cards import card_at, codes_of_mask, mask_of, parse_cards
from games.engine.game import illegal_reason
from games.engine.state import OLD_STATE_FORMAT, STATE_FORMAT

from .helpers import deal_hands, play
from .test_rules import BASIC


def test_actions_are_canonical_hashable_values() -> None:
    a = Lead(["TD", "6D"])
    assert a.cards == (Card("6D"), Card("TD")) and a.kind == "lead"
    assert a == Lead([Card("6D"), "td"]) and hash(a) == hash(Lead(["6D", "TD"]))
    assert a != Discard(["6D", "TD"]) and a != "lead"
    assert {a, Lead(["6D", "TD"])} == {a}
    assert str(a) == "lead 6♦ 10♦"
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.cards = ()  # type: ignore[misc]
    with pytest.raises(TypeError):
        Action(["6D"])
    with pytest.raises(ValueError, match="R2"):
        Lead("6D")
    with pytest.raises(ValueError, match="twice"):
        Beat(["6D", "6D"])


def test_action_dicts() -> None:
    for cls in (Lead, Beat, Discard, Molodka):
        action = cls(["7C", "6C"])
        assert cls.from_dict(action.to_dict()) == action == Action.from_dict(action.to_dict())
    with pytest.raises(ValueError, match="expected a 'beat'"):
        Beat.from_dict({"kind": "lead", "cards": ["6C"]})
    for bad in [[], {"kind": "jump", "cards": []}, {"kind": "lead"}, {"kind": "lead", "cards": 5},
                {"kind": 1, "cards": []}]:
        with pytest.raises(ValueError):
            action_from_dict(bad)  # type: ignore[arg-type]


def test_card_helpers() -> None:
    assert card_at(16) is Card("TD")
    assert codes_of_mask(mask_of(parse_cards(["AS", "6C"]))) == ["6C", "AS"]
    with pytest.raises(ValueError, match="R2"):
        Card.parse(16)  # type: ignore[arg-type]


def test_state_properties_and_str() -> None:
    state = play(deal_hands(BASIC), (0, "lead", "6H"))
    assert state.top_seat == 0 and state.tricks_completed == 0 and state.last_taker is None
    assert state.piles == ((), ()) and state.table[0] == Lead(["6H"])
    assert "turn=1" in str(state) and "lead:6H" in str(state)
    assert deal_hands(BASIC).top_seat is None


def test_state_json_round_trip_mid_game() -> None:
    state = new_game(77, 3)
    for _ in range(9):
        seat = state.turn
        assert seat is not None
        state = apply(state, seat, fast.legal_for(state.core, seat)[-1])
    data = json.loads(json.dumps(state.to_dict()))
    assert data["format"] == STATE_FORMAT and GameState.from_dict(data) == state
    built = deal_hands(BASIC)
    assert GameState.from_dict(built.to_dict()) == built


def old_format(state: GameState) -> dict[str, object]:
    """The ``kozel-state/1`` form (start, seed, actions, an unread snapshot) that rows
    stored before the cache format still hold."""
    return {
        "format": OLD_STATE_FORMAT, "seed": state.seed, "algorithm": state.algorithm,
        "start": state.start.to_dict(),
        "actions": [[seat, a.to_dict()] for seat, a in state.actions],
        "current": {"turn": state.turn, "k": state.k},
    }


def test_state_from_dict_rejects_bad_data() -> None:
    state = new_game(77, 3)
    state = apply(state, 0, fast.legal_for(state.core, 0)[0])
    good = state.to_dict()
    assert GameState.from_dict(good) == state
    with pytest.raises(InvalidPositionError):
        GameState.from_dict({"format": "other"})
    with pytest.raises(InvalidPositionError):
        GameState.from_dict([good])  # type: ignore[arg-type]
    bad: list[tuple[str, object]] = [
        ("deal", "x"), ("deal", {**good["deal"], "seed": True}),
        ("deal", {**good["deal"], "algorithm": 99}), ("deal", {**good["deal"], "dealer": 4}),
        ("core", None), ("history", "x"), ("history", [["play", 0]]),
        ("history", [["play", 0, {"kind": "lead", "cards": ["AS"]}]]),
        ("history", [["play", 0, "lead XX"]]), ("history", [["play", 0, "lead TD 6D"]]),
        ("history", [["trick", 0]]), ("history", [["deal", 0]]), ("history", [[]]),
    ]
    for key, value in bad:
        with pytest.raises(InvalidPositionError):
            GameState.from_dict({**good, key: value})
    core = good["core"]
    for key, value in [("hands", [["6C"]] * 4), ("hands", [[], [], []]), ("stock", ["6C"]),
                       ("turn", 5), ("turn", None), ("top_seat", None), ("table", [None] * 4),
                       ("leader", "0"), ("piles", {"A": [], "C": []}),
                       ("tricks", {"A": -1, "B": 1}), ("tricks", {"A": 1, "B": 0})]:
        with pytest.raises(InvalidPositionError):
            GameState.from_dict({**good, "core": {**core, key: value}})
    without = {k: v for k, v in good.items() if k != "deal"}
    with pytest.raises(InvalidPositionError, match="'deal' or 'start'"):
        GameState.from_dict(without)


def test_old_state_format_is_replayed() -> None:
    """Rows stored in ``kozel-state/1`` are still read: by replaying them."""
    state = new_game(77, 3)
    for _ in range(6):
        seat = state.turn
        assert seat is not None
        state = apply(state, seat, fast.legal_for(state.core, seat)[-1])
    old = json.loads(json.dumps(old_format(state)))
    assert GameState.from_dict(old) == state == GameState.replay_stored(old)
    assert GameState.from_dict(old).to_dict()["format"] == STATE_FORMAT
    with pytest.raises(InvalidPositionError, match="does not match"):
        GameState.from_dict({**old, "seed": 78})
    with pytest.raises(InvalidPositionError):
        GameState.from_dict({**old, "actions": "x"})
    with pytest.raises(InvalidPositionError):
        GameState.from_dict({**old, "actions": [[0]]})
    with pytest.raises(IllegalActionError):
        GameState.from_dict({**old, "actions": [[0, {"kind": "lead", "cards": ["AS"]}]]})


def test_replay_uses_only_the_seed_and_the_actions() -> None:
    state = new_game(77, 3)
    state = apply(state, 0, fast.legal_for(state.core, 0)[0])
    data = state.to_dict()
    # A cache whose current situation was edited: restored as stored, replayed as played.
    hands = data["core"]["hands"]
    edited = {**data, "core": {**data["core"], "hands": [hands[1], hands[0], *hands[2:]]}}
    assert GameState.from_dict(edited) != state
    assert GameState.replay_stored(edited) == state
    with pytest.raises(InvalidPositionError):
        GameState.replay_stored({"format": "other"})
    with pytest.raises(IllegalActionError):
        GameState.replay_stored({**data, "history": [["play", 1, "lead AS"]]})


def test_positions_export_and_errors() -> None:
    state = new_game(5, 2)
    position = position_of(state)
    assert position == state.start and Position.from_dict(position.to_dict()) == position
    assert game_from_position(position.to_dict()).core == state.core
    mid = apply(state, 3, fast.legal_for(state.core, 3)[0])
    with pytest.raises(EngineError, match="trick boundary"):
        position_of(mid)
    with pytest.raises(EngineError, match="R14"):
        position_of(play(deal_hands([["6C"], ["7C"], ["8C"], ["9C"]]), (0, "lead", "6C"),
                         (1, "discard", "7C"), (2, "discard", "8C"), (3, "discard", "9C")))
    hands = position.hands
    with pytest.raises(InvalidPositionError, match="R1"):
        Position(dealer=0, leader=1, trump_card=Card("6C"), hands=hands[:3],  # type: ignore[arg-type]
                 stock=position.stock)
    with pytest.raises(InvalidPositionError):
        Position.from_dict([])  # type: ignore[arg-type]
    with pytest.raises(InvalidPositionError, match="needs"):
        Position.from_dict({"hands": [[], [], [], []]})
    with pytest.raises(InvalidPositionError, match="tricks"):
        Position.from_dict({**position.to_dict(), "tricks": {"A": "x", "B": 0}})
    with pytest.raises(InvalidPositionError):
        Position.from_dict({**position.to_dict(), "dealer": "x"})


def test_illegal_reason_on_non_actions() -> None:
    core = new_game(5, 2).core
    assert illegal_reason(core, 3, "lead")  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="not an action"):
        apply(new_game(5, 2), 3, None)  # type: ignore[arg-type]


def test_rules_helpers_and_bounded_caches(monkeypatch: pytest.MonkeyPatch) -> None:
    assert rules.molodka_distance(1, 2) == 3
    assert rules.discard_actions(0b111, 5) == ()
    assert rules.can_beat_mask(0b10, 0b10, 0) is False
    monkeypatch.setattr(rules, "_CACHE_LIMIT", 0)
    # Empty tables: another test (warm_caches) may have filled them in this process.
    monkeypatch.setattr(rules, "_HANDS", {})
    monkeypatch.setattr(rules, "_MATCH_CACHE", {})
    for _ in range(2):
        rules.hand_actions(0b1011)
        rules.hand_actions(0b1101)
        rules.can_beat_mask(0b110 << 9, 0b11 << 9, 0)
        rules.can_beat_mask(0b1100 << 9, 0b11 << 9, 0)
        rules.beat_actions(0b110 << 9, 0b11 << 9, 0)
        rules.beat_actions(0b1100 << 9, 0b11 << 9, 0)
    assert len(rules._HANDS) == 1 and len(rules._MATCH_CACHE) == 1


def test_warm_caches_fills_every_hand() -> None:
    assert rules.warm_caches() >= 66_711


def test_bench_runs_briefly(capsys: pytest.CaptureFixture[str]) -> None:
    try:
        bench.main(["--seconds", "0.05", "--warmup", "0.01", "--public"])
    finally:
        gc.unfreeze()
    lines = capsys.readouterr().out.splitlines()
    names = [line.split(":")[0] for line in lines]
    assert names == ["fast_random_games_per_s", "fast_legal_per_s", "fast_step_per_s",
                     "public_legal_actions_per_s", "public_apply_per_s",
                     "public_random_games_per_s"]
    assert all(float(line.split(": ")[1]) > 0 for line in lines)


def test_bench_times_fast_and_public_calls_on_the_same_positions() -> None:
    fast_states = bench.sample_states(300, seed=2)
    public = bench.public_states(300, seed=2)
    assert [(c, s, a) for c, s, a in fast_states] == [(g.core, s, a) for g, s, a in public]
    assert len({g.seed for g, _, _ in public}) > 1  # several games, not one


def test_protocol_main_reads_stdin(monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    import io
    import sys

    from games.engine import protocol

    monkeypatch.setattr(sys, "stdin", io.StringIO('{"cmd": "policies"}\n'))
    protocol.main()
    assert json.loads(capsys.readouterr().out)["ok"] is True


def test_views_refuse_a_history_start_that_is_not_an_index() -> None:
    state = play(deal_hands(BASIC), (0, "lead", "6H"))
    for bad in [-1, True, 1.0, "1", None]:
        with pytest.raises(ValueError, match="history_from"):
            observe(state, 0, history_from=bad)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="history_from"):
            public_view(state, bad)  # type: ignore[arg-type]
    assert observe(state, 1, history_from=1).history == []
    assert public_view(state, 0).history == observe(state, 1).history
