"""Card order, beating, legal card sets and molodka (R7–R11).

Everything here works on card *bitmasks* (see :mod:`games.engine.cards`)
and is memoized, because bots call it in tight playout loops.  The public
helpers :func:`beats` and :func:`can_beat` take :class:`Card` objects.

>>> from games.engine.cards import Card, Suit
>>> beats(Card("6H"), Card("AS"), Suit.HEARTS)     # R7 (b): trump beats non-trump
True
>>> beats(Card("AS"), Card("TD"), Suit.HEARTS)     # R7: different non-trump suits
False
>>> can_beat([Card("8H"), Card("6S")], [Card("7H"), Card("KH")], Suit.SPADES)  # R9
True
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations
from typing import Final

from .actions import BEAT, DISCARD, LEAD, MOLODKA, Action, action_from_mask
from .cards import Card, Suit, indices_of_mask, mask_of, suit_mask

__all__ = [
    "BEATEN_BY",
    "MOLODKA_HANDS",
    "beat_actions",
    "beats",
    "beats_index",
    "can_beat",
    "can_beat_mask",
    "discard_actions",
    "is_molodka_hand",
    "is_one_suit",
    "warm_caches",
    "hand_actions",
    "lead_actions",
    "molodka_action",
    "molodka_distance",
]

_SUIT_MASKS: Final = tuple(suit_mask(s) for s in range(4))


def _beaten_by(trump: int, y: int) -> int:
    """Mask of the cards that beat card index ``y`` with ``trump`` (R7)."""
    suit, rank = divmod(y, 9)
    higher = 0
    for r in range(rank + 1, 9):
        higher |= 1 << (suit * 9 + r)
    if suit != trump:
        higher |= _SUIT_MASKS[trump]
    return higher


#: ``BEATEN_BY[trump][y]``: bitmask of every card that beats card index ``y`` (R7).
BEATEN_BY: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(_beaten_by(t, y) for y in range(36)) for t in range(4)
)


def beats_index(x: int, y: int, trump: int) -> bool:
    """R7 on card indices: does card ``x`` beat card ``y`` with suit ``trump`` trump?"""
    return bool(BEATEN_BY[trump][y] >> x & 1)


def beats(x: Card, y: Card, trump: Suit | int) -> bool:
    """R7: card ``x`` beats card ``y`` when (a) same suit and ``x`` ranks higher (R2),
    or (b) ``x`` is trump and ``y`` is not.

    >>> from games.engine.cards import Card
    >>> beats(Card("TC"), Card("QC"), 1), beats(Card("9D"), Card("9D"), 0)
    (True, False)
    """
    return beats_index(x.index, y.index, int(trump))


_MATCH_CACHE: dict[tuple[int, int, int], bool] = {}
#: Memo tables are cleared when they grow past this (bounded memory).
_CACHE_LIMIT = 300_000


def can_beat_mask(cards: int, top: int, trump: int) -> bool:
    """R9 on masks: can the cards of ``cards`` be paired one-to-one with the cards of
    ``top`` so that every card beats its partner (R7)?

    The sets must have the same size.  This is bipartite matching on at most
    4 + 4 cards, done by backtracking and memoized.
    """
    key = (cards, top, trump)
    found = _MATCH_CACHE.get(key)
    if found is None:
        if cards.bit_count() != top.bit_count() or cards & top:
            found = False
        else:
            found = _match(indices_of_mask(top), cards, BEATEN_BY[trump])
        if len(_MATCH_CACHE) > _CACHE_LIMIT:
            _MATCH_CACHE.clear()
        _MATCH_CACHE[key] = found
    return found


def _match(tops: list[int], free: int, beaten_by: tuple[int, ...]) -> bool:
    # Pair the first top card with each free card able to beat it, then recurse.
    if not tops:
        return True
    candidates = free & beaten_by[tops[0]]
    while candidates:
        low = candidates & -candidates
        if _match(tops[1:], free ^ low, beaten_by):
            return True
        candidates ^= low
    return False


def can_beat(cards: Iterable[Card], top: Iterable[Card], trump: Suit | int) -> bool:
    """R9: can ``cards`` beat the set ``top`` one-to-one (each card beats its own
    partner, R7)?  The beating cards need not share a suit.

    >>> from games.engine.cards import parse_cards
    >>> can_beat(parse_cards(["9H", "6D"]), parse_cards(["7H", "8H"]), 3)
    False
    """
    cards_t, top_t = tuple(cards), tuple(top)
    cm, tm = mask_of(cards_t), mask_of(top_t)
    if cm.bit_count() != len(cards_t) or tm.bit_count() != len(top_t):
        return False
    return can_beat_mask(cm, tm, int(trump))


def is_one_suit(mask: int) -> bool:
    """True when every card of the non-empty ``mask`` has the same suit (R8)."""
    return any(mask and not mask & ~sm for sm in _SUIT_MASKS)


def _one_suit_sets(size: int) -> frozenset[int]:
    out = set()
    for s in range(4):
        for combo in combinations(range(9), size):
            m = 0
            for r in combo:
                m |= 1 << (s * 9 + r)
            out.add(m)
    return frozenset(out)


#: R11: the 4 * C(9, 4) = 504 hands of exactly 4 cards of one suit.
MOLODKA_HANDS: Final[frozenset[int]] = _one_suit_sets(4)


def is_molodka_hand(hand: int) -> bool:
    """R11: is the hand exactly 4 cards of one suit?

    >>> from games.engine.cards import parse_cards, mask_of
    >>> is_molodka_hand(mask_of(parse_cards(["6D", "7D", "8D", "9D"])))
    True
    >>> is_molodka_hand(mask_of(parse_cards(["6D", "7D", "8D"])))
    False
    """
    return hand in MOLODKA_HANDS


def molodka_distance(seat: int, original_leader: int) -> int:
    """R11: the distance ``(seat - original_leader) % 4`` that decides priority."""
    return (seat - original_leader) % 4


# --- legal card sets -------------------------------------------------------------

_HANDS: dict[int, tuple[tuple[Action, ...], ...]] = {}
_BEATS: tuple[dict[int, tuple[Action, ...]], ...] = ({}, {}, {}, {})
# Single-card actions by their one-bit mask (the most common plays).
_BEAT1: Final[dict[int, Action]] = {1 << i: action_from_mask(BEAT, 1 << i) for i in range(36)}


def _subsets(hand: int, k: int) -> list[int]:
    return [sum(c) for c in combinations([1 << i for i in indices_of_mask(hand)], k)]


def hand_actions(hand: int) -> tuple[tuple[Action, ...], ...]:
    """Memoized per hand (at most 66,711 hands of up to 4 cards exist):
    ``[0]`` the leads of R8, ``[k]`` for k = 1..4 the discards of R9."""
    found = _HANDS.get(hand)
    if found is None:
        leads: list[Action] = []
        for sm in _SUIT_MASKS:
            part = hand & sm
            if part:
                subs = []
                sub = part
                while sub:
                    subs.append(sub)
                    sub = (sub - 1) & part
                subs.sort(key=lambda m: (m.bit_count(), m))
                leads.extend(action_from_mask(LEAD, m) for m in subs)
        found = (tuple(leads),) + tuple(
            tuple(action_from_mask(DISCARD, m) for m in _subsets(hand, k)) for k in range(1, 5)
        )
        if len(_HANDS) > _CACHE_LIMIT:
            _HANDS.clear()
        _HANDS[hand] = found
    return found


def warm_caches() -> int:
    """Fill the per-hand memo table for every hand of 1 to 4 cards (66,711 hands,
    about a second).  Long-running bot processes may call it once at start-up.
    Returns the number of hands in the table."""
    for size in range(1, 5):
        for combo in combinations([1 << i for i in range(36)], size):
            hand_actions(sum(combo))
    return len(_HANDS)


def lead_actions(hand: int) -> tuple[Action, ...]:
    """R8: every lead from ``hand``: each non-empty set of cards of one suit.

    Ordered by suit, then size, then mask (deterministic).
    """
    return hand_actions(hand)[0]


def discard_actions(hand: int, k: int) -> tuple[Action, ...]:
    """R9: every discard from ``hand`` in a trick of ``k``: any ``k`` cards."""
    return hand_actions(hand)[k] if 1 <= k <= 4 else ()


def beat_actions(hand: int, top: int, trump: int) -> tuple[Action, ...]:
    """R9: every set of ``len(top)`` cards from ``hand`` that beats ``top`` one-to-one."""
    beaten_by = BEATEN_BY[trump]
    if not top & (top - 1):
        # k = 1, the common case: the single cards that beat the top card (R7).
        cand = hand & beaten_by[top.bit_length() - 1]
        if not cand:
            return ()
        out = []
        while cand:
            low = cand & -cand
            out.append(_BEAT1[low])
            cand ^= low
        return tuple(out)
    cache = _BEATS[trump]
    key = hand << 36 | top
    found = cache.get(key)
    if found is None:
        k = top.bit_count()
        # Only cards that beat at least one top card can take part.
        useful = 0
        for y in indices_of_mask(top):
            useful |= beaten_by[y]
        useful &= hand
        if useful.bit_count() < k:
            found = ()
        else:
            found = tuple(
                action_from_mask(BEAT, m)
                for m in _subsets(useful, k)
                if can_beat_mask(m, top, trump)
            )
        if len(cache) > _CACHE_LIMIT:
            cache.clear()
        cache[key] = found
    return found


def molodka_action(hand: int) -> Action:
    """R11: the molodka announcement of a whole 4-card one-suit hand."""
    return action_from_mask(MOLODKA, hand)
