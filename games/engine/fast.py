"""The fast internal path: the game as a plain tuple ("core"), no history.

This module is the one implementation of the state machine of a game
(R8–R14).  The public API (:mod:`games.engine.game`) wraps it in
:class:`~games.engine.state.GameState` (history, legality messages, JSON),
and bots and the benchmark may call it directly for playouts.  tests/engine/test_oracle.py
checks both against a plain, independent reading of the rules.

A core is a tuple, unpacked by position for speed; read one field by its
constant below (``core[TURN]``).  Only the measured hot path reads literal
positions, and each of its functions says so: :func:`legal`, the bench's
timed loop (:mod:`games.engine.bench`), and the bots' playout loop and exact
endgame (:mod:`games.bots.playout`, :mod:`games.bots.search`)::

    (hands, stock, trump, trump_card, dealer, leader, original_leader, turn, k,
     top, top_seat, table, molodka_distance, piles, tricks, tricks_completed,
     last_taker, played, holders)

* ``hands``: 4 card bitmasks; ``stock``: card indices, top first.
* ``turn``: the seat whose normal action is awaited, ``None`` after R14.
* ``k``: cards per player in this trick (0 before the lead, R8).
* ``top``/``top_seat``: the current top set (R9) and who played it.
* ``table``: per seat the :class:`Action` played to the current
  (possibly restarted, R11) trick, or ``None``.
* ``molodka_distance``: distance (R11) of the molodka on the table; 4 if none.
* ``piles``: team A / team B trick-pile bitmasks; ``tricks``: tricks taken.
* ``last_taker``: taker of the last completed trick, -1 before the first.
* ``played``: how many seats have played to the current trick.
* ``holders``: bitmask of the seats whose hand was a molodka (R11) when this
  trick began.  A seat that has not played to the (possibly restarted) trick
  still holds exactly its trick-start hand, so only these seats can ever
  announce during the trick; :func:`legal` skips the molodka check when 0.

Nothing here checks legality: :func:`step` trusts that its action came from
:func:`legal` / :func:`legal_for` (use :func:`games.engine.apply` otherwise).

>>> core = deal(101, dealer=1)
>>> core[LEADER], core[TURN], len(core[STOCK])
(2, 2, 20)
>>> action = legal(core)[0]
>>> step(core, actor(core, action), action)[K] == len(action.cards)
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Final

from .actions import BEAT, LEAD, MOLODKA, Action
from .errors import EngineError
from .rules import (  # noqa: I001
    _BEAT1,
    BEATEN_BY,
    MOLODKA_HANDS,
    beat_actions,
    discard_actions,
    hand_actions,
    lead_actions,
    molodka_action,
)
from .rules import _HANDS as _HAND_CACHE

__all__ = [
    "ALGORITHM_VERSION",
    "SHUFFLES",
    "Core",
    "deal",
    "legal",
    "actor",
    "legal_for",
    "legal_pairs",
    "make_core",
    "molodka_seats",
    "random_playout",
    "shuffle_deck",
    "step",
]

Core = tuple[Any, ...]

# Field positions in a core tuple (for readers and slow-path code).
HANDS: Final = 0
STOCK: Final = 1
TRUMP: Final = 2
TRUMP_CARD: Final = 3
DEALER: Final = 4
LEADER: Final = 5
ORIGINAL_LEADER: Final = 6
TURN: Final = 7
K: Final = 8
TOP: Final = 9
TOP_SEAT: Final = 10
TABLE: Final = 11
MOLODKA_DISTANCE: Final = 12
PILES: Final = 13
TRICKS: Final = 14
TRICKS_COMPLETED: Final = 15
LAST_TAKER: Final = 16
PLAYED: Final = 17
HOLDERS: Final = 18

NO_MOLODKA: Final = 4
_EMPTY_TABLE: Final[tuple[None, None, None, None]] = (None, None, None, None)


# --- chance: the versioned shuffle (R5, R6) -------------------------------------


def _shuffle_v1(seed: int) -> tuple[list[int], int]:
    """Algorithm 1: ``rng = random.Random(seed)``; one ``rng.getrandbits(256)``
    is decoded in mixed radix into a Fisher–Yates shuffle of ``range(36)``
    (digit ``j = x mod (i + 1)`` for ``i = 35 .. 1``), and the rest of it gives
    the trump card's place in the 20-card stock (``x mod 20``).

    256 bits cover ``36! * 20`` (about 2**143) with a bias below 2**-110, and
    decoding one big number is much faster than 35 ``randrange`` calls.
    """
    x = random.Random(seed).getrandbits(256)
    deck = list(range(36))
    for i in range(35, 0, -1):
        x, j = divmod(x, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck, x % 20


#: Algorithm version -> shuffle function.  Never change an entry: stored games
#: replay from (seed, algorithm) (R5).  Add a new version instead.
SHUFFLES: Final[dict[int, Callable[[int], tuple[list[int], int]]]] = {1: _shuffle_v1}
#: The algorithm used for new games.
ALGORITHM_VERSION: Final = 1


def shuffle_deck(seed: int, algorithm: int = ALGORITHM_VERSION) -> tuple[list[int], int]:
    """R5/R6: the shuffled deck (card indices, dealt from the front) and the
    index in the stock of the trump card, from ``seed`` with ``algorithm``.

    Raises :class:`EngineError` for an unknown algorithm version.
    """
    try:
        shuffle = SHUFFLES[algorithm]
    except (KeyError, TypeError):
        raise EngineError(f"R5: unknown deal algorithm version {algorithm!r}") from None
    return shuffle(seed)


def deal(
    seed: int, dealer: int, leader: int | None = None, algorithm: int = ALGORITHM_VERSION
) -> Core:
    """R4–R6: a fresh core dealt from ``seed``.

    One card at a time clockwise, starting at ``dealer + 1`` and ending with the
    dealer, 4 each; the other 20 cards form the stock (top first); the trump
    card is a random stock card that stays at its place.
    """
    deck, trump_pos = shuffle_deck(seed, algorithm)
    d = [1 << c for c in deck[:16]]
    first = (dealer + 1) & 3
    hands = [0, 0, 0, 0]
    for j in (0, 1, 2, 3):
        # Card i goes to seat dealer + 1 + i: seat first + j gets cards j, j+4, j+8, j+12.
        hands[(first + j) & 3] = d[j] | d[j + 4] | d[j + 8] | d[j + 12]
    stock = tuple(deck[16:])
    if leader is None:
        leader = first
    return make_core(
        (hands[0], hands[1], hands[2], hands[3]), stock, stock[trump_pos], dealer, leader,
        (0, 0), (0, 0),
    )


def make_core(
    hands: tuple[int, int, int, int],
    stock: tuple[int, ...],
    trump_card: int,
    dealer: int,
    leader: int,
    piles: tuple[int, int],
    tricks: tuple[int, int],
    tricks_completed: int | None = None,
) -> Core:
    """A core at a trick boundary: ``leader`` is about to lead (R8)."""
    if tricks_completed is None:
        tricks_completed = tricks[0] + tricks[1]
    return (
        hands, stock, trump_card // 9, trump_card, dealer, leader, leader, leader, 0,
        0, -1, _EMPTY_TABLE, NO_MOLODKA, piles, tricks, tricks_completed, -1, 0,
        _holders(hands),
    )  # fmt: skip


def _holders(hands: tuple[int, ...]) -> int:
    """R11: bitmask of the seats whose hand is exactly 4 cards of one suit."""
    return (
        (hands[0] in MOLODKA_HANDS)
        | (hands[1] in MOLODKA_HANDS) << 1
        | (hands[2] in MOLODKA_HANDS) << 2
        | (hands[3] in MOLODKA_HANDS) << 3
    )


# --- legal actions ------------------------------------------------------------------

def legal(core: Core) -> Sequence[Action]:
    """Every legal action now, without seats: the normal actions of the seat on
    turn (R8 lead, or R9 beat / discard) followed by every molodka announcement
    (R11).  A molodka's seat is the seat whose hand it is (see :func:`actor`);
    every other action belongs to ``core[TURN]``.  Empty after R14.

    The result may be a shared cached tuple: do not mutate it.
    """
    # Hot path: every step of a random playout (random_playout, the bench's
    # random games, the protocol's legal) lists its actions here.  So it inlines
    # rules.hand_actions / rules.beat_actions and reads the core by literal
    # positions (0 HANDS, 2 TRUMP, 7 TURN, 8 K, 9 TOP, 12 MOLODKA_DISTANCE,
    # 18 HOLDERS): a literal index is a constant in the bytecode, a name one
    # more module-global lookup on every read.
    turn = core[7]
    if turn is None:
        return ()
    hand = core[0][turn]
    per_hand = _HAND_CACHE.get(hand) or hand_actions(hand)
    k = core[8]
    out: Sequence[Action]
    if k == 1:
        cand = hand & BEATEN_BY[core[2]][core[9].bit_length() - 1]
        if cand:
            beats = []
            while cand:
                low = cand & -cand
                beats.append(_BEAT1[low])
                cand ^= low
            out = beats + list(per_hand[1])
        else:
            out = per_hand[1]
    elif k:
        out = beat_actions(hand, core[9], core[2]) + per_hand[k]
    else:
        out = per_hand[0]
    if core[18] and core[12]:
        # Someone held a molodka when this trick began (R11): the slow check.
        hands = core[0]
        return list(out) + [molodka_action(hands[s]) for s in molodka_seats(core)]
    return out


def actor(core: Core, action: Action) -> int:
    """The seat that plays ``action`` from :func:`legal`: the seat holding a
    molodka's cards (R11), else the seat on turn."""
    if action.code == MOLODKA:
        hands = core[HANDS]
        for seat in (0, 1, 2, 3):
            if hands[seat] == action.mask:
                return seat
    turn: int = core[TURN]
    return turn


def legal_pairs(core: Core) -> list[tuple[int, Action]]:
    """Every legal ``(seat, action)`` now, all seats (see :func:`legal`)."""
    return [(actor(core, a), a) for a in legal(core)]


def molodka_seats(core: Core) -> list[int]:
    """R11: the seats that may announce a molodka now."""
    (hands, _, _, _, _, _, orig, turn, k, _, _, table, mdist, *_) = core
    if turn is None:
        return []
    return [
        seat
        for seat in (0, 1, 2, 3)
        if hands[seat] in MOLODKA_HANDS
        and table[seat] is None
        and (seat - orig) & 3 < mdist
        and not (k == 0 and seat == turn)
    ]


def legal_for(core: Core, seat: int) -> list[Action]:
    """Every legal action of one ``seat`` now (normal and molodka, R8–R11)."""
    (hands, _, trump, _, _, _, orig, turn, k, top, _, table, mdist, *_) = core
    if turn is None:
        return []
    hand = hands[seat]
    out: list[Action]
    if seat == turn:
        if k == 0:
            out = list(lead_actions(hand))
        else:
            out = list(beat_actions(hand, top, trump) + discard_actions(hand, k))
    else:
        out = []
    if (
        hand in MOLODKA_HANDS
        and table[seat] is None
        and (seat - orig) & 3 < mdist
        and not (k == 0 and seat == turn)
    ):
        out.append(molodka_action(hand))
    return out


# --- transitions ----------------------------------------------------------------------


def step(core: Core, seat: int, action: Action) -> Core:
    """Apply a legal ``action`` of ``seat`` and return the new core (unchecked).

    R8 lead, R9 beat/discard, R10 taking, R11 molodka restart, R12 drawing,
    R13 next lead, R14 end of the game.
    """
    (hands, stock, trump, trump_card, dealer, leader, orig, turn, k, top, top_seat,
     table, mdist, piles, tricks, done, last, played, holders) = core  # fmt: skip
    code = action.code
    mask = action.mask
    if code == MOLODKA:
        # R11: every card played to the trick goes back to its owner; the
        # molodka seat leads its 4 cards, play continues clockwise from it.
        back = list(hands)
        for i in (0, 1, 2, 3):
            entry = table[i]
            if entry is not None:
                back[i] |= entry.mask
        back[seat] = 0
        fresh: list[Action | None] = [None, None, None, None]
        fresh[seat] = action
        return (
            tuple(back), stock, trump, trump_card, dealer, seat, orig, (seat + 1) & 3,
            4, mask, seat, tuple(fresh), (seat - orig) & 3, piles, tricks, done, last, 1,
            holders,
        )  # fmt: skip
    h0, h1, h2, h3 = hands
    t0, t1, t2, t3 = table
    # Replace the playing seat's hand and table entry (branches beat list copies).
    if seat == 0:
        h0 ^= mask
        t0 = action
    elif seat == 1:
        h1 ^= mask
        t1 = action
    elif seat == 2:
        h2 ^= mask
        t2 = action
    else:
        h3 ^= mask
        t3 = action
    if code == LEAD:
        k = mask.bit_count()
        top = mask
        top_seat = seat
        if k == 4:
            # R11: a 4-card lead is a molodka on the table at distance 0.
            mdist = 0
    elif code == BEAT:
        top = mask
        top_seat = seat
    if played < 3:
        return (
            (h0, h1, h2, h3), stock, trump, trump_card, dealer, leader, orig, (seat + 1) & 3,
            k, top, top_seat, (t0, t1, t2, t3), mdist, piles, tricks, done, last, played + 1,
            holders,
        )  # fmt: skip
    # R10: the last beater takes (or the leader: the molodka seat after a restart).
    taker = top_seat
    won = t0.mask | t1.mask | t2.mask | t3.mask
    if taker & 1:
        piles = (piles[0], piles[1] | won)
        tricks = (tricks[0], tricks[1] + 1)
    else:
        piles = (piles[0] | won, piles[1])
        tricks = (tricks[0] + 1, tricks[1])
    if stock:
        # R12: draw one card at a time clockwise starting with the taker until
        # everyone holds 4 or the stock is empty.
        new_hands = [h0, h1, h2, h3]
        n = len(stock)
        size = h0.bit_count()
        if size == h1.bit_count() == h2.bit_count() == h3.bit_count():
            # Equal hands (every position reached by play): 4 * (4 - size) draws.
            count = min(4 * (4 - size), n)
            for j in range(count):
                new_hands[(taker + j) & 3] |= 1 << stock[j]
        else:
            count = 0
            progressed = True
            while count < n and progressed:
                progressed = False
                for j in (0, 1, 2, 3):
                    i = (taker + j) & 3
                    if count < n and new_hands[i].bit_count() < 4:
                        new_hands[i] |= 1 << stock[count]
                        count += 1
                        progressed = True
        drawn = tuple(new_hands)
        return (
            drawn, stock[count:], trump, trump_card, dealer, taker, taker, taker,
            0, 0, -1, _EMPTY_TABLE, NO_MOLODKA, piles, tricks, done + 1, taker, 0,
            _holders(drawn),
        )  # fmt: skip
    if not (h0 or h1 or h2 or h3):
        # R14: stock empty and all hands played out: the game is over.
        return (
            (0, 0, 0, 0), stock, trump, trump_card, dealer, leader, orig, None, 0,
            0, -1, _EMPTY_TABLE, NO_MOLODKA, piles, tricks, done + 1, taker, 0, 0,
        )  # fmt: skip
    # R13: the taker leads the next trick.
    return (
        (h0, h1, h2, h3), stock, trump, trump_card, dealer, taker, taker, taker, 0,
        0, -1, _EMPTY_TABLE, NO_MOLODKA, piles, tricks, done + 1, taker, 0, 0,
    )  # fmt: skip


def random_playout(core: Core, rng: random.Random) -> Core:
    """Play uniformly random legal actions (all seats, molodkas included) to the end."""
    rand = rng.random
    while core[TURN] is not None:
        options = legal(core)
        action = options[int(rand() * len(options))]
        core = step(core, actor(core, action), action)
    return core
