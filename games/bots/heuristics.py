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
from dataclasses import dataclass
from typing import Final, TypeVar

from games.engine.actions import DISCARD, LEAD, Action, action_from_mask
from games.engine.cards import POINTS, indices_of_mask
from games.engine.rules import BEATEN_BY, MOLODKA_HANDS, beat_actions

__all__ = [
    "CASUAL",
    "CASUAL_PARAMS",
    "KEEP",
    "CardSense",
    "SenseParams",
    "SUIT_MASKS",
    "beat_cost",
    "hold_chance",
    "keep_value",
    "mask_points",
    "unbeatable",
]

SUIT_MASKS: Final = tuple(0x1FF << (9 * s) for s in range(4))
_T = TypeVar("_T")


#: Keep values of the plain (non-trump) ranks ``6 7 8 9 J Q K 10 A`` (R2).
PLAIN_KEEP: Final = (0.0, 0.1, 0.2, 0.3, 1.0, 1.5, 2.5, 6.0, 9.0)


def keep_value(index: int, trump: int, params: SenseParams | None = None) -> float:
    """How much a card is worth *keeping* in hand (not its card points).

    Trumps win tricks later (R7 b), aces and tens are worth points and often
    win their suit; low cards are only ballast.  A card's value to the trick it
    is played into is counted separately (its R3 points).
    """
    p = params or CASUAL_PARAMS
    suit, rank = divmod(index, 9)
    if suit == trump:
        return p.trump_base + p.trump_rank * rank + POINTS[index] * p.trump_points
    return p.plain_keep[rank]


@dataclass(frozen=True, slots=True)
class SenseParams:
    """The knobs of the card sense (see :class:`CardSense`); the defaults are
    the casual bot's."""

    trump_base: float = 14.0
    trump_rank: float = 1.5
    trump_points: float = 0.5
    plain_keep: tuple[float, ...] = PLAIN_KEEP
    #: Points the other players are expected to add per card of a trick.
    others_per_card: float = 1.0
    #: Value of taking the lead of the next trick (and drawing first, R12-R13).
    lead_bonus: float = 1.5
    #: Smear points into the partner's trick when his set holds this surely.
    smear_hold: float = 0.97
    #: How much a card's points count towards smearing it first.
    smear_points: float = 1.3
    #: Chance the partner still to play takes a trick we discard to.
    partner_behind: float = 0.25
    #: Playouts only (full-information worlds): judge whether a set holds by
    #: the opponents' actual hands in the world instead of by the odds.
    seen_holds: bool = False
    #: With ``seen_holds``: the chance a set that an opponent could beat holds.
    beatable_hold: float = 0.15


CASUAL_PARAMS: Final = SenseParams()


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


def _memo(cache: dict[int, _T], key: int, value: _T) -> _T:
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    cache[key] = value
    return value


#: Memo tables of pure functions of small keys (cleared when they grow past
#: ``_CACHE_LIMIT``): playouts ask the same questions millions of times.
_CACHE_LIMIT: Final = 400_000


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


class CardSense:
    """Rule-based card sense on bitmasks, tuned by :class:`SenseParams`.

    Every lead, beat and the lowest discard is valued as
    ``(2p - 1) * points - keep``: ``p`` is :func:`hold_chance`, ``points`` what
    the trick will hold, ``keep`` what the cards spent are worth keeping.  The
    casual bot plays :data:`CASUAL`; the searching bots' playouts may use a
    different tuning.  Answers that depend only on a hand are memoized per
    instance.
    """

    def __init__(self, params: SenseParams) -> None:
        self.params = params
        #: ``keep[trump][index]``: :func:`keep_value` precomputed for the hot path.
        self.keep: tuple[tuple[float, ...], ...] = tuple(
            tuple(keep_value(i, t, params) for i in range(36)) for t in range(4)
        )
        self._costs: dict[int, float] = {}
        self._discards: dict[int, Action] = {}
        self._leads: dict[int, tuple[tuple[int, float, float], ...]] = {}

    def cost(self, mask: int, trump: int) -> float:
        """What it costs to spend these cards: their keep value."""
        key = mask << 2 | trump
        found = self._costs.get(key)
        if found is not None:
            return found
        keep = self.keep[trump]
        total = 0.0
        m = mask
        while m:  # lowest card first: the same float sum every time
            low = m & -m
            total += keep[low.bit_length() - 1]
            m ^= low
        return _memo(self._costs, key, total)

    def discard(self, hand: int, k: int, trump: int, smear_points: bool = False) -> Action:
        """R9 discard of ``k`` cards: the least worth keeping and fewest points;
        with ``smear_points`` (the partner surely takes the trick) points
        first, trumps last."""
        key = ((hand << 3 | k) << 2 | trump) << 1 | smear_points
        found = self._discards.get(key)
        if found is not None:
            return found
        keep = self.keep[trump]
        w = self.params.smear_points
        if smear_points:
            order = sorted(indices_of_mask(hand), key=lambda i: (keep[i] - w * POINTS[i], i))
        else:
            order = sorted(indices_of_mask(hand), key=lambda i: (keep[i] + POINTS[i], i))
        mask = 0
        for i in order[:k]:
            mask |= 1 << i
        return _memo(self._discards, key, action_from_mask(DISCARD, mask))

    def _lead_options(self, hand: int, trump: int) -> tuple[tuple[int, float, float], ...]:
        """``(cards, points incl. the others' expected, keep cost)`` of every
        one-suit lead of ``hand`` (R8), in the order :meth:`lead` weighs them."""
        key = hand << 2 | trump
        found = self._leads.get(key)
        if found is not None:
            return found
        per_card = 3 * self.params.others_per_card
        out = []
        for sm in SUIT_MASKS:
            part = hand & sm
            sub = part
            while sub:
                pts = mask_points(sub) + sub.bit_count() * per_card
                out.append((sub, pts, self.cost(sub, trump)))
                sub = (sub - 1) & part
        return _memo(self._leads, key, tuple(out))

    def _hold(
        self, mask: int, live: int, trump: int, size: int, opponents: int,
        opp_hands: tuple[int, ...] | None,
    ) -> float:
        """The chance the set holds: by the odds (:func:`hold_chance`), or, in a
        playout world whose hands are known, by the opponents' hands."""
        if opp_hands is None:
            return hold_chance(mask, live, trump, size, opponents)
        for h in opp_hands:
            if h and beat_actions(h, mask, trump):
                return self.params.beatable_hold
        return 1.0

    def lead(
        self, hand: int, trump: int, live: int, opp_hands: tuple[int, ...] | None = None
    ) -> Action:
        """R8 lead: a whole hand of one suit as a molodka; else the lead of best
        value against the two opponents.  Several cards of a suit are hard to
        beat one-to-one, so a low group often wins the others' discards; a
        lone low card is the cheap probe.  ``opp_hands``: see :meth:`_hold`."""
        if hand in MOLODKA_HANDS:
            return action_from_mask(LEAD, hand)  # R11: a lead of 4 is a molodka
        size = hand.bit_count()
        bonus = self.params.lead_bonus
        best_value = -1e9
        best_mask = 0
        for sub, pts, cost in self._lead_options(hand, trump):
            p = self._hold(sub, live, trump, size, 2, opp_hands)
            value = (2.0 * p - 1.0) * pts - cost + p * bonus
            if value > best_value or (value == best_value and sub < best_mask):
                best_value, best_mask = value, sub
        return action_from_mask(LEAD, best_mask)

    def reply(
        self,
        hand: int,
        k: int,
        top: int,
        top_is_partner: bool,
        played: int,
        table_points: int,
        trump: int,
        live: int,
        opp_hands: tuple[int, ...] | None = None,
    ) -> Action:
        """R9 reply of best value.  Both a beat and a discard give up ``k``
        cards, so what decides is who takes the points; beating a winning
        partner gains nothing, so we discard to him (and throw points in when
        his set surely holds).

        ``played`` is how many seats played before us; ``live`` the cards the
        seats after us might hold; ``table_points`` the points we can see;
        ``opp_hands`` the hands of the opponents still to play, when known
        (:meth:`_hold`).
        """
        params = self.params
        opps = _opponents_after(played)
        size = hand.bit_count()
        if top_is_partner:
            if self._hold(top, live, trump, size, opps, opp_hands) > params.smear_hold:
                return self.discard(hand, k, trump, True)
            return self.discard(hand, k, trump)
        rest = (3 - played) * k * params.others_per_card
        best = self.discard(hand, k, trump)
        # After a discard our team takes only if the partner still to play beats.
        p_low = params.partner_behind if played <= 1 else 0.0
        best_value = (2.0 * p_low - 1.0) * (table_points + mask_points(best.mask) + rest)
        best_value -= self.cost(best.mask, trump)
        bonus = params.lead_bonus
        for a in beat_actions(hand, top, trump):
            m = a.mask
            p = self._hold(m, live, trump, size, opps, opp_hands)
            value = (2.0 * p - 1.0) * (table_points + mask_points(m) + rest) - self.cost(m, trump)
            value += p * bonus
            if value > best_value:
                best, best_value = a, value
        return best


#: The casual bot's card sense.
CASUAL: Final = CardSense(CASUAL_PARAMS)
#: ``KEEP[trump][index]``: the casual keep values.
KEEP: Final = CASUAL.keep


def beat_cost(mask: int, trump: int) -> float:
    """What it costs (casual keep values) to spend these cards on a beat."""
    return CASUAL.cost(mask, trump)


