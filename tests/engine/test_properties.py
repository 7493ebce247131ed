"""Random-play properties (modelled on OpenSpiel's ``random_sim_test``)."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    Action,
    Beat,
    Discard,
    GameState,
    IllegalActionError,
    Lead,
    Molodka,
    Series,
    action_from_dict,
    apply,
    fast,
    game_from_position,
    last_action_history_start,
    legal_actions,
    new_game,
    new_series,
    observe,
    outcome,
    public_view,
    record_game,
    replay,
    seats_to_act,
)
from games.engine.cards import DECK, cards_of_mask
from games.engine.position import Position

from .conformance import _card_strings

SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


#: The rule a refusal of each kind of action must name: a lead R8; a beat or discard
#: R9, or R8 when it has the wrong number of cards (k); a molodka R11.
REFUSING_RULES = {"lead": {"R8"}, "beat": {"R8", "R9"}, "discard": {"R8", "R9"},
                  "molodka": {"R11"}}


def molodka_rich_game(rng: random.Random) -> GameState:
    """A deal where one or two seats hold a molodka (rare in plain random deals)."""
    suits = rng.sample(range(4), 2)
    seats = rng.sample(range(4), rng.choice([1, 2]))
    hands: list[list[int]] = [[], [], [], []]
    used: set[int] = set()
    for seat, suit in zip(seats, suits, strict=False):
        hands[seat] = rng.sample(range(suit * 9, suit * 9 + 9), 4)
        used.update(hands[seat])
    rest = [i for i in range(36) if i not in used]
    rng.shuffle(rest)
    for seat in range(4):
        while len(hands[seat]) < 4:
            hands[seat].append(rest.pop())
    leader = rng.randrange(4)
    position = Position(
        dealer=(leader - 1) % 4, leader=leader, trump_card=DECK[rng.choice(rest)],
        hands=tuple(tuple(DECK[i] for i in h) for h in hands),  # type: ignore[arg-type]
        stock=tuple(DECK[i] for i in rest),
    )
    return game_from_position(position)


def random_candidates(state: GameState, seat: int, rng: random.Random, n: int) -> list[Action]:
    """Random actions, mostly from the seat's own cards, many of them illegal."""
    hand = list(cards_of_mask(state.core[fast.HANDS][seat]))
    out: list[Action] = []
    for _ in range(n):
        pool = hand + [rng.choice(DECK)] if rng.random() < 0.2 else hand
        size = rng.randint(0, min(4, len(set(pool))))
        cards = rng.sample(sorted(set(pool)), size)
        out.append(rng.choice([Lead, Beat, Discard, Molodka])(cards))
    return out


def check_invariants(state: GameState) -> None:
    core = state.core
    masks = list(core[fast.HANDS]) + [1 << i for i in core[fast.STOCK]] + list(core[fast.PILES])
    masks += [a.mask for a in core[fast.TABLE] if a is not None]
    total = 0
    for m in masks:
        assert not total & m, "a card is in two places"
        total |= m
    assert total == (1 << 36) - 1, "36 cards conserved"
    if core[fast.TURN] is not None and core[fast.PLAYED] == 0 and core[fast.K] == 0:
        sizes = {m.bit_count() for m in core[fast.HANDS]}
        assert len(sizes) == 1, "equal hands at a trick boundary"
    # The replacement for OpenSpiel's "no actions for other players" invariant: only
    # the seats that may act have legal actions.
    acting = [s for s in range(4) if legal_actions(state, s)]
    assert seats_to_act(state) == acting
    if core[fast.TURN] is not None:
        assert core[fast.TURN] in acting
    assert {(s, a) for s in range(4) for a in legal_actions(state, s)} == set(
        fast.legal_pairs(core)
    )


def allowed_cards(state: GameState, seat: int) -> set[str]:
    allowed = {c.code for c in cards_of_mask(state.core[fast.HANDS][seat])}
    allowed.add(state.trump_card.code)
    for s, a in state.actions:
        if a.kind != "discard" or s == seat:
            allowed.update(c.code for c in a.cards)
    return allowed


def hidden_swap(state: GameState, viewer: int, rng: random.Random) -> GameState | None:
    """Swap one card between two zones the viewer cannot see (other hands, the
    stock, other seats' face-down discards on the table)."""
    core = list(state.core)
    hands = list(core[fast.HANDS])
    stock = list(core[fast.STOCK])
    table = list(core[fast.TABLE])
    zones: list[tuple[str, int]] = [("hand", s) for s in range(4) if s != viewer and hands[s]]
    if stock:
        zones.append(("stock", 0))
    zones += [("discard", s) for s in range(4)
              if s != viewer and table[s] is not None and table[s].kind == "discard"]
    if len(zones) < 2:
        return None
    (za, ia), (zb, ib) = rng.sample(zones, 2)

    def cards(zone: str, i: int) -> list[int]:
        if zone == "hand":
            return [c.index for c in cards_of_mask(hands[i])]
        if zone == "stock":
            return stock
        return [c.index for c in table[i].cards]  # type: ignore[union-attr]

    ca, cb = cards(za, ia), cards(zb, ib)
    xa, xb = rng.randrange(len(ca)), rng.randrange(len(cb))
    a_card, b_card = ca[xa], cb[xb]

    def put(zone: str, i: int, old: int, new: int) -> None:
        if zone == "hand":
            hands[i] = hands[i] ^ (1 << old) | (1 << new)
        elif zone == "stock":
            stock[stock.index(old)] = new
        else:
            m = table[i].mask ^ (1 << old) | (1 << new)  # type: ignore[union-attr]
            table[i] = Discard(cards_of_mask(m))

    put(za, ia, a_card, b_card)
    put(zb, ib, b_card, a_card)
    core[fast.HANDS], core[fast.STOCK], core[fast.TABLE] = tuple(hands), tuple(stock), tuple(table)
    return dataclasses.replace(state, core=tuple(core))


def play_random_game(state: GameState, rng: random.Random, deep: bool) -> GameState:
    while not state.game_over:
        check_invariants(state)
        before = state.to_dict() if deep else None
        for seat in range(4):
            listed = legal_actions(state, seat)
            if deep:
                for action in listed:
                    assert apply(state, seat, action) is not state
            for action in random_candidates(state, seat, rng, 3):
                try:
                    apply(state, seat, action)
                    accepted = True
                except IllegalActionError as exc:
                    accepted = False
                    rule = str(exc).split(":", 1)[0]
                    assert rule in REFUSING_RULES[action.kind], f"{action.kind}: {exc}"
                assert accepted == (action in listed), (seat, action, listed)
        viewer = rng.randrange(4)
        if deep:
            view = observe(state, viewer)
            assert _card_strings(view.to_dict()) <= allowed_cards(state, viewer)
            assert _card_strings(public_view(state).to_dict()) <= allowed_cards(state, viewer) | {
                c.code for c in cards_of_mask(state.core[fast.HANDS][viewer])
            }
            twin = hidden_swap(state, viewer, rng)
            if twin is not None:
                assert observe(twin, viewer) == view
        seat = rng.choice(seats_to_act(state))
        action = rng.choice(legal_actions(state, seat))
        earlier, state = state, apply(state, seat, action)
        # The history only grows; a live table sends the last action's entries alone.
        start = last_action_history_start(state)
        assert start == len(earlier.history)
        assert state.history[:len(earlier.history)] == earlier.history
        # R19 views made with those entries alone are the whole views, history cut.
        whole, added = observe(state, viewer).to_dict(), observe(
            state, viewer, history_from=start).to_dict()
        assert added.pop("history") == whole.pop("history")[start:] and added == whole
        whole, added = public_view(state).to_dict(), public_view(state, start).to_dict()
        assert added.pop("history") == whole.pop("history")[start:] and added == whole
        if before is not None:
            assert before == _previous(state).to_dict(), "apply mutated its input"
    return state


def _previous(state: GameState) -> GameState:
    # Rebuild the state before the last action by replay: it must equal what we had.
    if state.seed is not None:
        return replay(state.seed, state.start.dealer, state.start.leader, state.actions[:-1],
                      state.algorithm or 1)
    earlier = game_from_position(state.start)
    for seat, action in state.actions[:-1]:
        earlier = apply(earlier, seat, action)
    return earlier


def check_finished(state: GameState, dealt: bool) -> None:
    result = outcome(state)
    assert result is not None
    assert result.points["A"] + result.points["B"] == 120
    assert result.tricks["A"] + result.tricks["B"] == state.tricks_completed
    cards_played = [0, 0, 0, 0]
    for event in state.history:
        if event[0] == "trick":
            for seat, a in enumerate(event[3]):
                cards_played[seat] += len(a.cards)
    if dealt:
        assert cards_played == [9, 9, 9, 9], "each player plays 9 cards per game"
    again = GameState.from_dict(json.loads(json.dumps(state.to_dict())))
    assert again == state
    for _, a in state.actions:
        assert action_from_dict(json.loads(json.dumps(a.to_dict()))) == a
        assert eval(repr(a), {"Lead": Lead, "Beat": Beat, "Discard": Discard,  # noqa: S307
                              "Molodka": Molodka, "Card": type(a.cards[0])}) == a


@SETTINGS
@given(seed=st.integers(0, 2**63), dealer=st.integers(0, 3), rs=st.integers(0, 2**32))
def test_random_play_properties(seed: int, dealer: int, rs: int) -> None:
    rng = random.Random(rs)
    state = play_random_game(new_game(seed, dealer), rng, deep=rng.random() < 0.3)
    check_finished(state, dealt=True)
    again = replay(seed, dealer, None, state.actions)
    assert again == state, "seed + actions replays the same game"


@SETTINGS
@given(rs=st.integers(0, 2**32))
def test_random_play_with_molodkas(rs: int) -> None:
    rng = random.Random(rs)
    state = play_random_game(molodka_rich_game(rng), rng, deep=True)
    check_finished(state, dealt=True)


@SETTINGS
@given(games=st.lists(st.tuples(st.integers(0, 120), st.integers(0, 6), st.integers(0, 6),
                                st.integers(0, 3)), max_size=12),
       target=st.integers(1, 20), first_dealer=st.integers(0, 3))
def test_series_round_trip_and_totals(games: list[tuple[int, int, int, int]], target: int,
                                      first_dealer: int) -> None:
    series = new_series(target, first_dealer)
    for a_points, a_tricks, b_tricks, taker in games:
        if series.over:
            break
        data: dict[str, Any] = {"A": a_points, "B": 120 - a_points}
        series = record_game(series, data, {"A": a_tricks, "B": b_tricks}, taker)
        assert series.next_leader == taker and series.next_dealer == (taker - 1) % 4
    assert Series.from_dict(json.loads(json.dumps(series.to_dict()))) == series
    lp = series.loss_points
    assert series.over == (max(lp.values()) >= target)
    assert sum(g.loss_points["A"] + g.loss_points["B"] for g in series.games) == sum(lp.values())

