"""The engine against an independent oracle (tests/engine/oracle.py, a plain reading of
R7–R14 written from the rules, not from the engine).

Over seeded random games and molodka-heavy games, for every seat at every step, the
engine's legal actions (the public API and the bots' fast path) equal the oracle's, and
every applied action leaves both with the same hands, stock, trick taker (R10) and draw
order (R12). The mutant tests break one engine rule each and check the comparison sees it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator

import pytest

from games.engine import (
    Beat,
    Card,
    Discard,
    GameState,
    Lead,
    Molodka,
    Position,
    apply,
    fast,
    game_from_position,
    legal_actions,
    new_game,
    seats_to_act,
)
from games.engine.cards import cards_of_mask

from .oracle import RANKS, CardSet, PlainGame, Play

KINDS = {"lead": Lead, "beat": Beat, "discard": Discard, "molodka": Molodka}
SUITS = "CDHS"
DECK = [r + s for s in SUITS for r in RANKS]


def oracle_of(state: GameState) -> PlainGame:
    """The oracle at the same trick boundary: it takes the dealt cards, nothing else."""
    return PlainGame(
        hands=[{c.code for c in hand} for hand in state.hands],
        stock=[c.code for c in state.stock],
        trump=state.trump_card.code[1],
        leader=state.leader,
        tricks=dict(state.tricks),
    )


def plays_of(actions: list) -> list[Play]:
    return [(a.kind, frozenset(c.code for c in a.cards)) for a in actions]


def check_legal(state: GameState, oracle: PlainGame, where: str) -> None:
    assert state.turn == oracle.turn, f"{where}: turn {state.turn} != {oracle.turn}"
    for seat in range(4):
        listed = plays_of(legal_actions(state, seat))
        assert len(listed) == len(set(listed)), f"{where}: seat {seat} lists a set twice"
        want = oracle.legal(seat)
        got = set(listed)
        assert got == want, (
            f"{where}: seat {seat}: engine only {sorted(got - want, key=str)}, "
            f"oracle only {sorted(want - got, key=str)}\n{state}"
        )
    pairs = {(s, *p) for s, p in zip(*_split(fast.legal_pairs(state.core)), strict=True)}
    assert pairs == {(s, *p) for s in range(4) for p in oracle.legal(s)}, f"{where}: fast.legal"
    assert seats_to_act(state) == oracle.seats_to_act(), f"{where}: seats_to_act"


def _split(pairs: list) -> tuple[list[int], list[Play]]:
    return [s for s, _ in pairs], plays_of([a for _, a in pairs])


def check_same_cards(state: GameState, oracle: PlainGame, where: str) -> None:
    hands = [{c.code for c in hand} for hand in state.hands]
    assert hands == oracle.hands, f"{where}: hands {hands} != {oracle.hands}"
    assert [c.code for c in state.stock] == oracle.stock, f"{where}: stock"


def play_against_oracle(state: GameState, rng: random.Random, seen: Counter[str],
                        molodka_bias: float = 0.0) -> None:
    """Play one game to the end, choosing among the oracle's legal plays, checking the
    engine agrees at every step."""
    oracle = oracle_of(state)
    check_same_cards(state, oracle, "start")
    step = 0
    while True:
        where = f"step {step}"
        check_legal(state, oracle, where)
        if oracle.over:
            assert state.game_over, f"{where}: the oracle's game is over (R14)"
            break
        options = sorted((s, kind, tuple(sorted(cards)))
                         for s in range(4) for kind, cards in oracle.legal(s))
        # Molodkas (announced, or led as four of a suit) are few among many options.
        molodkas = [o for o in options if o[1] == "molodka" or o[1] == "lead" and len(o[2]) == 4]
        if molodkas and rng.random() < molodka_bias:
            seat, kind, cards = rng.choice(molodkas)
        else:
            seat, kind, cards = rng.choice(options)
        note(seen, oracle, seat, kind, frozenset(cards))
        state = apply(state, seat, KINDS[kind](list(cards)))
        taker = oracle.play(seat, kind, frozenset(cards))
        if taker is not None:
            assert state.last_taker == taker, f"{where}: R10 taker {state.last_taker} != {taker}"
            assert state.tricks == oracle.tricks, f"{where}: tricks"
            piles = [{c.code for c in pile} for pile in state.piles]
            start = [{c.code for c in pile} for pile in state.start.piles]
            assert [p - s for p, s in zip(piles, start, strict=True)] == [
                oracle.piles["A"], oracle.piles["B"]], f"{where}: piles"
            # R12: each card the oracle drew, in order from the top, is in that seat's hand.
            for drawer, card in oracle.last_draws:
                assert Card(card) in state.hands[drawer], f"{where}: R12 {card} -> {drawer}"
            seen["draw"] += bool(oracle.last_draws)
        check_same_cards(state, oracle, f"{where} after {seat} {kind} {cards}")
        step += 1


def note(seen: Counter[str], oracle: PlainGame, seat: int, kind: str, cards: CardSet) -> None:
    """Count what the run exercised, so a run that never reaches a rule fails."""
    seen[kind] += 1
    if kind == "molodka":
        seen["molodka_before_lead"] += oracle.k == 0
        seen["molodka_restart"] += bool(oracle.played)
        seen["molodka_override"] += oracle.molodka_distance is not None
    if kind == "beat":
        seen["beat_with_trump"] += any(c[1] == oracle.trump for c in cards) and all(
            c[1] != oracle.trump for c in oracle.top)
        seen["beat_several"] += len(cards) > 1
    if kind == "lead" and len(cards) == 4:
        seen["lead_of_four"] += 1


def molodka_heavy_game(rng: random.Random) -> GameState:
    """A trick boundary where one to three seats hold four of a suit, with a stock laid
    out in suit columns so that draws often build new molodkas."""
    stock_size = rng.choice([0, 4, 8, 12, 16, 20, 20, 20])
    suits = rng.sample(SUITS, 4)
    holders = rng.sample(range(4), rng.choice([1, 2, 2, 3]))
    hands: list[list[str]] = [[], [], [], []]
    for seat, s in zip(holders, suits, strict=False):
        hands[seat] = rng.sample([c for c in DECK if c[1] == s], 4)
    rest = [c for c in DECK if all(c not in h for h in hands)]
    rng.shuffle(rest)
    for hand in hands:
        while len(hand) < 4:
            hand.append(rest.pop())
    stock: list[str] = []
    columns = rng.sample(SUITS, 4)
    for i in range(stock_size):
        same = [c for c in rest if c[1] == columns[i % 4]]
        card = rng.choice(same) if same and rng.random() < 0.8 else rng.choice(rest)
        rest.remove(card)
        stock.append(card)
    split = rng.randrange(len(rest) + 1)
    leader = rng.randrange(4)
    position = Position(
        dealer=(leader - 1) % 4, leader=leader,
        trump_card=Card(rng.choice(DECK)),
        hands=tuple(tuple(Card(c) for c in h) for h in hands),  # type: ignore[arg-type]
        stock=tuple(Card(c) for c in stock),
        piles=(tuple(Card(c) for c in rest[:split]), tuple(Card(c) for c in rest[split:])),
        tricks=(int(split > 0), int(split < len(rest))),
    )
    return game_from_position(position)


def random_games(n: int) -> Iterator[tuple[GameState, random.Random]]:
    for i in range(n):
        rng = random.Random(1000 + i)
        yield new_game(rng.getrandbits(63), rng.randrange(4)), rng


def molodka_games(n: int) -> Iterator[tuple[GameState, random.Random]]:
    for i in range(n):
        rng = random.Random(5000 + i)
        yield molodka_heavy_game(rng), rng


def test_engine_matches_oracle_over_random_games() -> None:
    seen: Counter[str] = Counter()
    for state, rng in random_games(150):
        play_against_oracle(state, rng, seen)
    assert seen["beat_with_trump"] and seen["beat_several"] and seen["draw"], seen


def test_engine_matches_oracle_over_molodka_heavy_games() -> None:
    seen: Counter[str] = Counter()
    for state, rng in molodka_games(300):
        play_against_oracle(state, rng, seen, molodka_bias=0.35)
    # The run must reach every corner of R11 it claims to test.
    for what in ("molodka", "molodka_before_lead", "molodka_restart", "molodka_override",
                 "lead_of_four"):
        assert seen[what] >= 50, (what, seen)


# --- the oracle catches a broken engine --------------------------------------------------

def _no_trump_beats(real: Callable) -> Callable:
    # R7 (b) forgotten: a trump never beats a card of another suit.
    def broken(hand: int, top: int, trump: int) -> tuple:
        return tuple(a for a in real(hand, top, trump)
                     if all(c.suit != trump for c in a.cards) or any(
                         c.suit == trump for c in cards_of_mask(top)))
    return broken


def _no_molodka_override(real: Callable) -> Callable:
    # R11 priority forgotten: once a molodka is on the table nobody may override it.
    def broken(core: tuple, seat: int) -> list:
        out = real(core, seat)
        if core[fast.MOLODKA_DISTANCE] < fast.NO_MOLODKA:
            out = [a for a in out if a.kind != "molodka"]
        return out
    return broken


def _draw_from_the_seat_after_the_taker(real: Callable) -> Callable:
    # R12 broken: the draw starts with the seat after the taker.
    def broken(core: tuple, seat: int, action: object) -> tuple:
        new = real(core, seat, action)
        drawn = core[fast.STOCK][: len(core[fast.STOCK]) - len(new[fast.STOCK])]
        if not drawn:
            return new
        hands = list(new[fast.HANDS])
        for card in drawn:
            hands = [h & ~(1 << card) for h in hands]
        for j, card in enumerate(drawn):
            hands[(new[fast.LAST_TAKER] + 1 + j) & 3] |= 1 << card
        return (tuple(hands), *new[1:])
    return broken


MUTANTS = {
    "R7b": ("beat_actions", _no_trump_beats, random_games),
    "R11": ("legal_for", _no_molodka_override, molodka_games),
    "R12": ("step", _draw_from_the_seat_after_the_taker, random_games),
}


@pytest.mark.parametrize("rule", sorted(MUTANTS))
def test_oracle_catches_a_broken_engine_rule(rule: str, monkeypatch: pytest.MonkeyPatch) -> None:
    name, breaker, games = MUTANTS[rule]
    monkeypatch.setattr(fast, name, breaker(getattr(fast, name)))
    with pytest.raises(AssertionError):
        for state, rng in games(40):
            play_against_oracle(state, rng, Counter(), molodka_bias=0.35)


def test_random_playout_plays_to_the_end() -> None:
    """The bots' playout helper ends the game (R14) with every trick counted."""
    for seed in range(20):
        end = fast.random_playout(fast.deal(seed, seed % 4), random.Random(seed))
        assert end[fast.TURN] is None
        assert sum(end[fast.TRICKS]) == end[fast.TRICKS_COMPLETED]
