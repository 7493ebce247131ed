"""Pairing a round: computed from the stored results without the tournament's lock,
saved under it.

:func:`pair_round` reads what a pairing depends on (:func:`pairing_inputs`), computes it
(:func:`compute_pairing`, pure reads and the pure pairer), then takes the tournament's
lock, reads the inputs again and saves the pairing only when they did not change (else
it computes again). A request that needs the lock meanwhile (a check-in, a
registration, a director's tool) waits only for the save, never for the computation.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.errors import TableStateError
from games.events import send_event_on_commit
from games.ratings import selectors as rating_selectors
from games.ratings.models import Rating
from games.tournaments import duplicate, pairing, publish, selectors, standings
from games.tournaments.models import Entry, Match, MatchSide, Round, Tournament
from games.tournaments.services import audit, events
from games.tournaments.services.events import lock_tournament


def _history(t: Tournament) -> dict[str, Any]:
    """Byes, partners and opponents so far, from the stored matches (individual rounds;
    the Swiss pairer's view is :func:`swiss_history`)."""
    byes: Counter[int] = Counter()
    partners: Counter[frozenset[int]] = Counter()
    opponents: Counter[frozenset[int]] = Counter()
    for match in Match.objects.filter(round__tournament=t).prefetch_related("sides"):
        a = [s.entry_id for s in match.sides.all() if s.side == "A"]
        b = [s.entry_id for s in match.sides.all() if s.side == "B"]
        if match.outcome == "bye":
            byes.update(a)
            continue
        for x in a:
            for y in b:
                opponents[pairing.pair_key(x, y)] += 1
        for side in (a, b):
            if len(side) == 2:
                partners[pairing.pair_key(*side)] += 1
    return {"byes": byes, "partners": partners, "opponents": opponents}


def swiss_history(t: Tournament, results: list[standings.MatchResult] | None = None
                  ) -> pairing.SwissHistory:
    """The Swiss pairer's view of the finished matches (``results``: read once by the
    caller): meetings at the table counted (forfeits are none), byes, forfeit wins and
    each entry's floats."""
    return pairing.swiss_history(
        pairing.PlayedMatch(
            round=r.round, a=r.side_a[0], b=r.side_b[0] if r.side_b else None,
            points_a=r.points("A"), points_b=r.points("B") if r.side_b else 0,
            forfeit=r.outcome != "bye" and not r.played)
        for r in (selectors.results_of(t) if results is None else results)
        if len(r.side_a) == 1)


def _schedule_order(t: Tournament, entries: list[Entry]) -> list[int]:
    """Entries in the order a fixed schedule (round robin, whist) numbers them."""
    ids = sorted(e.pk for e in entries)
    random.Random(f"{t.seed}:schedule").shuffle(ids)
    return ids


def schedule_entries(t: Tournament) -> list[Entry]:
    """The entries a fixed schedule was drawn for: everyone paired in round 1."""
    first = t.round_set.filter(number=1).first()
    if first is None:
        return list(t.entries.filter(status=Entry.Status.ACTIVE))
    return list(Entry.objects.filter(match_sides__match__round=first).distinct())


@dataclass(frozen=True)
class PairingPlan:
    """A round's pairing as computed, before it is saved: each match's side A and side
    B entry ids, and the byes. Negative ids stand for bot entries still to be entered
    (individual rounds with bots allowed fill the last table)."""

    matches: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]
    byes: tuple[int, ...]
    bots: int = 0


def pairing_inputs(t: Tournament, number: int) -> tuple[Any, ...]:
    """Everything a round's pairing is computed from, as plain values: read before the
    computation (without the lock) and again under the lock; when they differ the
    pairing is computed again (:func:`pair_round`)."""
    results = tuple(Match.objects.filter(round__tournament=t, status=Match.Status.FINISHED)
                    .order_by("pk").values_list("pk", "outcome", "loss_a", "loss_b",
                                                "forfeit", "absent"))
    entries = tuple(t.entries.order_by("pk").values_list("pk", "status", "first_round"))
    manual = t.round_set.filter(number=number).values_list("manual_pairs", flat=True).first()
    return (t.format, t.seed, t.seed_by_rating, t.bots_allowed, t.status,
            sorted(sorted(p) for p in t.forbidden_pairs), manual or [], results, entries,
            tuple(t.round_set.order_by("number").values_list("number", "status")))


def entry_ratings(entries: list[Entry]) -> dict[int, float]:
    """Each entry's strength for seeding: the mean of its people's conservative ratings
    (the site's displayed rating, games/ratings); a bot entry ranks below everybody."""
    people = {u for e in entries for u in e.people_ids}
    stored = {r.user_id: r for r in Rating.objects.filter(user_id__in=people)}
    out: dict[int, float] = {}
    for entry in entries:
        if entry.is_bot or not entry.people_ids:
            out[entry.pk] = -1.0
            continue
        views = [rating_selectors.rating_view(stored.get(u)).display for u in entry.people_ids]
        out[entry.pk] = sum(views) / len(views)
    return out


def compute_pairing(t: Tournament, number: int, manual_pairs: list[list[int]]
                    ) -> PairingPlan:
    """Compute round ``number``'s pairing from the stored results (reads only, so it runs
    without the tournament's lock). Deterministic given the event's seed and results."""
    results = selectors.results_of(t)
    rows = standings.compute(selectors.entry_infos(t), results, selectors.rounds_completed(t),
                             t.seed)
    scores = {r.entry.id: r.points for r in rows}
    active = {e.pk: e for e in t.entries.filter(status=Entry.Status.ACTIVE,
                                                 first_round__lte=number)}
    ranked = [r.entry.id for r in rows if r.entry.id in active]
    seed = f"{t.seed}:{number}"
    plans: list[tuple[list[int], list[int]]] = []  # (side A entries, side B entries)
    byes: list[int] = []
    bots = 0
    if t.format == "swiss":
        forbidden = {pairing.pair_key(*p) for p in t.forbidden_pairs}
        fixed = [(p[0], p[1]) for p in manual_pairs if p[0] in active and p[1] in active]
        if number == 1 and t.seed_by_rating:
            strength = entry_ratings(list(active.values()))
            position = {e: i for i, e in enumerate(ranked)}
            ranked.sort(key=lambda e: (-strength[e], position[e]))
            taken = {e for p in fixed for e in p}
            fixed += pairing.seeded_pairs([e for e in ranked if e not in taken], forbidden)
        swiss = swiss_history(t, results)
        result = pairing.pair_swiss(
            ranked, scores, swiss.meetings, swiss.byes, seed, fixed=fixed,
            forbidden=forbidden, floats=swiss.floats, forfeit_wins=swiss.forfeit_wins)
        plans = [([a], [b]) for a, b in result.pairs]
        byes = [result.bye] if result.bye else []
    elif t.format == "round_robin":
        order = _schedule_order(t, schedule_entries(t) if number > 1 else list(active.values()))
        schedule = pairing.round_robin(order)
        rr = schedule[number - 1]
        plans = [([a], [b]) for a, b in rr.pairs]
        byes = [rr.bye] if rr.bye is not None else []
    elif t.format == "rotation":
        history = _history(t)
        if t.bots_allowed and len(active) % 4:
            # Whole tables with bots rather than byes (bots take no place); without bots
            # the lowest-ranked eligible players sit out with a bye, rotated.
            bots = -len(active) % 4
            ranked += [-i for i in range(1, bots + 1)]
        result_i = pairing.pair_individual(ranked, scores, history["partners"],
                                           history["opponents"], history["byes"], seed)
        plans = [([p0, p2], [p1, p3]) for p0, p1, p2, p3 in result_i.tables]
        byes = result_i.byes
    elif t.format == "duplicate":
        # The movement (duplicate.movement): the circle method over the pairs of round 1
        # in the schedule's order; table n is match n, its A pair in seats 0 and 2.
        order = _schedule_order(t, schedule_entries(t) if number > 1 else list(active.values()))
        seating = duplicate.movement(order, number)[number - 1]
        plans = [([s.a_pair], [s.b_pair]) for s in seating]
    else:  # whist
        order = _schedule_order(t, schedule_entries(t) if number > 1 else list(active.values()))
        rnd = pairing.whist_schedule(len(order))[number - 1]
        plans = [([order[p0], order[p2]], [order[p1], order[p3]])
                 for p0, p1, p2, p3 in rnd.tables]
        byes = [order[p] for p in rnd.byes]
    return PairingPlan(tuple((tuple(a), tuple(b)) for a, b in plans), tuple(byes), bots)


def save_pairing_locked(t: Tournament, number: int, plan: PairingPlan,
                        actor: User | None) -> Round:
    """Write a computed pairing as round ``number`` (created, or re-paired while not
    started). Caller holds the tournament's lock."""
    round_ = t.round_set.filter(number=number).select_for_update().first()
    if round_ is not None and round_.status != Round.Status.PAIRED:
        raise TableStateError(_("That round has started: it can no longer be re-paired."))
    if round_ is None:
        round_ = Round.objects.create(tournament=t, number=number)
    else:
        round_.matches.all().delete()
    bot_ids = {-(i + 1): bot.pk for i, bot in enumerate(
        events.fill_with_bots_locked(t, number, plan.bots))}

    def real(entry_id: int) -> int:
        return bot_ids.get(entry_id, entry_id)

    # Two inserts for the whole round (the lock is held for them): the matches, then
    # every side; a bye is a finished match with side A only.
    now = timezone.now()
    tables = [(a, b) for a, b in plan.matches] + [((e,), ()) for e in plan.byes]
    matches = Match.objects.bulk_create([
        Match(round=round_, number=n, **({} if n <= len(plan.matches) else {
            "outcome": "bye", "status": Match.Status.FINISHED, "finished_at": now}))
        for n in range(1, len(tables) + 1)])
    MatchSide.objects.bulk_create([
        MatchSide(match=match, side=side, slot=i, entry_id=real(e))
        for match, (side_a, side_b) in zip(matches, tables, strict=True)
        for side, members in (("A", side_a), ("B", side_b))
        for i, e in enumerate(members)])
    audit.record(t.club, actor, "round.pair", tournament=t, round=number,
                 tables=len(plan.matches), byes=len(plan.byes))
    send_event_on_commit(*publish.changed(t.pk))
    return round_


def pair_round_locked(t: Tournament, number: int, actor: User | None = None) -> Round:
    """Pair round ``number`` while holding the tournament's lock (the director's tools
    that change what a pairing depends on, in one step; :func:`pair_round` computes
    without the lock)."""
    manual = t.round_set.filter(number=number).values_list("manual_pairs", flat=True).first()
    return save_pairing_locked(t, number, compute_pairing(t, number, manual or []), actor)


# Computing again because the inputs changed meanwhile: at most this often, then under
# the lock (somebody keeps changing the event; the pairing must still be made).
PAIR_ATTEMPTS = 3


def pair_round(tournament_id: int, number: int, actor: User | None = None, *,
               only_if_missing: bool = False) -> Round | None:
    """Pair round ``number`` holding the tournament's lock only to save it: the pairing
    is computed from a read of the event, then under the lock the inputs are read again
    and, unchanged, the pairing is saved (changed: computed again). With
    ``only_if_missing`` a round that exists already is left as it is (None returned).
    Raises PairingError, or TableStateError for a round already started."""
    for _attempt in range(PAIR_ATTEMPTS):
        t = Tournament.objects.select_related("club").get(pk=tournament_id)
        existing = t.round_set.filter(number=number).first()
        if existing is not None and only_if_missing:
            return None
        if existing is not None and existing.status != Round.Status.PAIRED:
            raise TableStateError(_("That round has started: it can no longer be re-paired."))
        inputs = pairing_inputs(t, number)
        plan = compute_pairing(t, number, existing.manual_pairs if existing else [])
        with transaction.atomic():
            t = lock_tournament(tournament_id)
            if only_if_missing and t.round_set.filter(number=number).exists():
                return None
            if pairing_inputs(t, number) == inputs:
                return save_pairing_locked(t, number, plan, actor)
    with transaction.atomic():
        t = lock_tournament(tournament_id)
        if only_if_missing and t.round_set.filter(number=number).exists():
            return None
        return pair_round_locked(t, number, actor)


