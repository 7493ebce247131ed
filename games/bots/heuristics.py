"""Mask-level card sense shared by the rule-based bots and the playout policy.

Everything here works on card bitmasks (``1 << (suit * 9 + rank)``, see
:mod:`games.engine.cards`) so that the same judgement serves two callers:
:mod:`games.bots.casual`, which reads a :class:`~games.engine.SeatView`, and
the playouts of :mod:`games.bots.search`, which run on fast-path cores
thousands of times per decision.  Nothing here ever sees a hidden card: the
callers pass what their seat may know (R19).
"""

from __future__ import annotations

import math
from typing import Final

from games.engine.actions import BEAT, DISCARD, LEAD, Action, action_from_mask
from games.engine.cards import POINTS
from games.engine.rules import BEATEN_BY, MOLODKA_HANDS, beat_actions, discard_actions

__all__ = [
    "KEEP",
    "SUIT_MASKS",
    "beat_cost",
    "bits",
    "cheapest_beat",
    "choose_lead",
    "choose_reply",
    "hold_chance",
    "discard_low",
    "keep_value",
    "mask_points",
    "smear",
    "unbeatable",
]

SUIT_MASKS: Final = tuple(0x1FF << (9 * s) for s in range(4))


def keep_value(index: int, trump: int) -> float:
    """How much a card is worth *keeping* in hand (not its card points).

    Trumps win tricks later (R7 b), aces and tens are worth points and often
    win their suit; low cards are only ballast.  A card's value to the trick it
    is played into is counted separately (its R3 points).
    """
    suit, rank = divmod(index, 9)
    if suit == trump:
        return 14.0 + 1.5 * rank + POINTS[index] * 0.5
    return (0.0, 0.1, 0.2, 0.3, 1.0, 1.5, 2.5, 6.0, 9.0)[rank]


#: ``KEEP[trump][index]``: :func:`keep_value` precomputed for the playout hot path.
KEEP: Final[tuple[tuple[float, ...], ...]] = tuple(
    tuple(keep_value(i, t) for i in range(36)) for t in range(4)
)


def bits(mask: int) -> list[int]:
    """Card indices of a mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


#: ``_SUIT_POINTS[m]``: R3 points of the ranks in a 9-bit suit mask ``m``
#: (rank points are the same in every suit).
_SUIT_POINTS: Final = tuple(
    sum(POINTS[r] for r in range(9) if m >> r & 1) for m in range(512)
)


def mask_points(mask: int) -> int:
    """R3 card points of a mask (four table lookups: this runs in every playout step)."""
    return (
        _SUIT_POINTS[mask & 511]
        + _SUIT_POINTS[mask >> 9 & 511]
        + _SUIT_POINTS[mask >> 18 & 511]
        + _SUIT_POINTS[mask >> 27 & 511]
    )


def beat_cost(mask: int, trump: int) -> float:
    """What it costs to spend these cards on a beat: their keep value."""
    key = mask << 2 | trump
    found = _COSTS.get(key)
    if found is None:
        keep = KEEP[trump]
        found = 0.0
        m = mask
        while m:  # lowest card first: the same float sum every time
            low = m & -m
            found += keep[low.bit_length() - 1]
            m ^= low
        if len(_COSTS) >= _CACHE_LIMIT:
            _COSTS.clear()
        _COSTS[key] = found
    return found


#: Memo tables of pure functions of small keys (cleared when they grow past
#: ``_CACHE_LIMIT``): playouts ask the same questions millions of times.
_CACHE_LIMIT: Final = 400_000
_COSTS: dict[int, float] = {}


def cheapest_beat(hand: int, top: int, trump: int) -> Action | None:
    """The beat (R9) that spends the least keep value, or ``None`` if none exists."""
    options = beat_actions(hand, top, trump)
    if not options:
        return None
    if len(options) == 1:
        return options[0]
    return min(options, key=lambda a: (beat_cost(a.mask, trump), a.mask))


def _ranked(hand: int, trump: int, smear_points: bool) -> list[int]:
    keep = KEEP[trump]
    if smear_points:
        # Throw points into a trick the partner surely takes, but never trumps.
        return sorted(bits(hand), key=lambda i: (keep[i] - 1.3 * POINTS[i], i))
    # Give away as little as possible: points go to whoever takes the trick.
    return sorted(bits(hand), key=lambda i: (keep[i] + POINTS[i], i))


def _discard(hand: int, k: int, trump: int, smear_points: bool) -> Action:
    key = ((hand << 3 | k) << 2 | trump) << 1 | smear_points
    found = _DISCARDS.get(key)
    if found is None:
        mask = 0
        for i in _ranked(hand, trump, smear_points)[:k]:
            mask |= 1 << i
        found = action_from_mask(DISCARD, mask)
        if len(_DISCARDS) >= _CACHE_LIMIT:
            _DISCARDS.clear()
        _DISCARDS[key] = found
    return found


_DISCARDS: dict[int, Action] = {}


def discard_low(hand: int, k: int, trump: int) -> Action:
    """R9 discard of the ``k`` cards least worth keeping and worth fewest points."""
    return _discard(hand, k, trump, False)


def smear(hand: int, k: int, trump: int) -> Action:
    """R9 discard into a trick the partner takes for sure: points first, trumps last."""
    return _discard(hand, k, trump, True)


def unbeatable(mask: int, live: int, trump: int) -> bool:
    """True when no card in ``live`` (cards others may still hold) beats some
    card of ``mask``: then nobody can beat the set one-to-one (R9), since every
    card of a beaten set needs its own beater."""
    beaten_by = BEATEN_BY[trump]
    m = mask
    while m:
        low = m & -m
        if not live & beaten_by[low.bit_length() - 1]:
            return True
        m ^= low
    return False


def hold_chance(mask: int, live: int, trump: int, hand_size: int, opponents: int) -> float:
    """Rough chance that the set ``mask`` stays on top against ``opponents``
    later players each holding ``hand_size`` cards drawn from ``live``.

    An opponent takes the set only with ``k`` cards that beat it one-to-one
    (R9): he needs a beater for its hardest card and ``k`` beaters in all.
    Each hand is treated as ``hand_size`` independent draws from ``live``.
    The answer depends only on how many live cards beat each card, so it is
    memoized on those counts.
    """
    if opponents <= 0:
        return 1.0
    n_live = live.bit_count()
    if n_live == 0:
        return 1.0
    beaten_by = BEATEN_BY[trump]
    key = n_live << 6 | hand_size << 2 | opponents
    m = mask
    while m:
        low = m & -m
        c = (live & beaten_by[low.bit_length() - 1]).bit_count()
        if not c:
            return 1.0  # an unbeatable card: the whole set is safe
        key = key << 6 | c
        m ^= low
    found = _HOLD.get(key)
    if found is None:
        found = _hold_chance(mask, live, trump, hand_size, opponents, n_live)
        if len(_HOLD) >= _CACHE_LIMIT:
            _HOLD.clear()
        _HOLD[key] = found
    return found


_HOLD: dict[int, float] = {}


def _hold_chance(
    mask: int, live: int, trump: int, hand_size: int, opponents: int, n_live: int
) -> float:
    beaten_by = BEATEN_BY[trump]
    k = 0
    total = 0.0
    hardest = 1.0
    m = mask
    while m:
        low = m & -m
        f = (live & beaten_by[low.bit_length() - 1]).bit_count() / n_live
        k += 1
        total += f
        hardest = min(hardest, f)
        m ^= low
    h = max(hand_size, k)
    f = total / k
    # P(Binomial(h, f) >= k)
    at_least = 0.0
    for j in range(k, h + 1):
        at_least += _COMB[h][j] * f**j * (1.0 - f) ** (h - j)
    one = (1.0 - (1.0 - hardest) ** h) * at_least
    return float((1.0 - one) ** opponents)


_COMB: Final = tuple(tuple(math.comb(n, j) for j in range(9)) for n in range(9))


def _opponents_after(played: int) -> int:
    """Opponents still to play after a seat that plays as number ``played`` + 1
    (seats after it: opponent, partner, opponent, R1)."""
    return (2, 2, 1, 0)[played]


def _lead_options(hand: int, trump: int) -> tuple[tuple[int, float, float], ...]:
    """``(cards, points incl. the others' expected, keep cost)`` of every
    one-suit lead of ``hand`` (R8), in the order :func:`choose_lead` weighs
    them (memoized per hand)."""
    key = hand << 2 | trump
    found = _LEADS.get(key)
    if found is None:
        out = []
        for sm in SUIT_MASKS:
            part = hand & sm
            sub = part
            while sub:
                pts = mask_points(sub) + 3 * sub.bit_count() * _OTHERS_PER_CARD
                out.append((sub, pts, beat_cost(sub, trump)))
                sub = (sub - 1) & part
        found = tuple(out)
        if len(_LEADS) >= _CACHE_LIMIT:
            _LEADS.clear()
        _LEADS[key] = found
    return found


_LEADS: dict[int, tuple[tuple[int, float, float], ...]] = {}


def choose_lead(hand: int, trump: int, live: int, stock_size: int) -> Action:
    """R8 lead: a whole hand of one suit as a molodka; else the lead of best value.

    A lead is worth ``(2p - 1) * points`` minus what its cards are worth
    keeping, where ``p`` is :func:`hold_chance` against the two opponents and
    ``points`` counts the lead and what the others will put on it.  Several
    cards of a suit are hard to beat one-to-one, so a low group often wins
    the others' discards; a lone low card is the cheap probe.
    """
    if hand in MOLODKA_HANDS:
        return action_from_mask(LEAD, hand)  # R11: a lead of 4 is a molodka
    size = hand.bit_count()
    best_value = -1e9
    best_mask = 0
    for sub, pts, cost in _lead_options(hand, trump):
        p = hold_chance(sub, live, trump, size, 2)
        value = (2.0 * p - 1.0) * pts - cost + p * _LEAD_BONUS
        if value > best_value or (value == best_value and sub < best_mask):
            best_value, best_mask = value, sub
    return action_from_mask(LEAD, best_mask)


#: Points the other players are expected to add per card of a trick.
_OTHERS_PER_CARD: Final = 1.0
#: Value of taking the lead of the next trick (and drawing first, R12-R13).
_LEAD_BONUS: Final = 1.5


def choose_reply(
    hand: int,
    k: int,
    top: int,
    top_is_partner: bool,
    played: int,
    table_points: int,
    trump: int,
    live: int,
) -> Action:
    """R9 reply of best value: every beat and the lowest discard are valued as
    ``(2p - 1) * points - keep`` where ``p`` is the chance our team takes the
    trick.  Both a beat and a discard give up ``k`` cards, so what decides is
    who takes the points; beating a winning partner gains nothing, so we
    discard to him (and throw points in when his set surely holds).

    ``played`` is how many seats played before us; ``live`` the cards the
    seats after us might hold; ``table_points`` the points we can see.
    """
    opps = _opponents_after(played)
    size = hand.bit_count()
    if top_is_partner:
        if hold_chance(top, live, trump, size, opps) > 0.97:
            return smear(hand, k, trump)
        return discard_low(hand, k, trump)
    rest = (3 - played) * k * _OTHERS_PER_CARD
    best = discard_low(hand, k, trump)
    # After a discard our team takes only if the partner still to play beats.
    p_low = 0.25 if played <= 1 else 0.0
    best_value = (2.0 * p_low - 1.0) * (
        table_points + mask_points(best.mask) + rest
    ) - beat_cost(best.mask, trump)
    for a in beat_actions(hand, top, trump):
        m = a.mask
        p = hold_chance(m, live, trump, size, opps)
        value = (2.0 * p - 1.0) * (table_points + mask_points(m) + rest) - beat_cost(m, trump)
        value += p * _LEAD_BONUS
        if value > best_value:
            best, best_value = a, value
    return best


def reply_options(hand: int, k: int, top: int, trump: int) -> tuple[Action, ...]:
    """Every R9 reply (beats then discards), for callers that want them all."""
    return beat_actions(hand, top, trump) + discard_actions(hand, k)


_ = BEAT
