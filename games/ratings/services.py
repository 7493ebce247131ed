"""Writes of the ratings app: process a finished series once, roll a series back.

``rate_series`` is called by ``rate_series_task`` (enqueued on commit when a series
finishes) and by the beat sweep; it may run twice or in two workers at once and still
processes the series exactly once:

- it locks the Series row (PostgreSQL; on SQLite the IMMEDIATE transaction serialises
  writers instead) and returns at once if the :class:`RatedSeries` marker exists;
- the marker, the RatingChange rows (unique per series and player) and the SeriesRecord
  rows are written in the same transaction, so a second writer that got past the check
  anyway fails on the unique constraints and rolls back, changing nothing;
- the Rating rows of the four players are locked in user-id order (no deadlock between
  two series that share players) so two series never overwrite each other's update.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any, NamedTuple

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from games import policy, selectors
from games.engine import opponents_of
from games.events import send_events_on_commit
from games.models import Conduct, Game, Series, Termination
from games.ratings import maths
from games.ratings.conf import rating_settings
from games.ratings.models import (
    MonthlyStats,
    RatedSeries,
    Rating,
    RatingChange,
    RatingContact,
    SeriesRecord,
    epoch_days,
    month_start,
)
from games.services.publish import table_group

logger = logging.getLogger(__name__)
# The terminations that decide a series: played to the target (R18), or a tournament
# round's time limit or a match's fixed number of games (fewer loss points wins; equal
# is a tie, recorded but not rated).
DECIDED = (Termination.COMPLETED, Termination.ROUND_TIME, Termination.GAME_LIMIT)

class Result(NamedTuple):
    """The result a series is rated and recorded with: winner and goat, "A"/"B"/""."""

    winner: str
    goat: str


def series_result(series: Series) -> Result:
    """The series' own result, or the one another app corrected it to (a tournament
    director's correction, read through ``games.policy.corrected_results``: the series
    itself stays the record of what was played). Every reader of a result takes it from
    here: the first rating, a replay after a void, a re-rating, the records."""
    winner = policy.corrected_results([series.pk]).get(series.pk)
    if winner is None:
        return Result(series.winner, series.goat)
    return Result(winner, {"A": "B", "B": "A"}.get(winner, ""))


def rated_winners(series: Series, games: list[Game], goat: str) -> list[str]:
    """The game winners a series is rated on: its games as played, or mirrored when its
    (corrected) ``goat`` is the team the games favoured (rated the way the leaver rule
    rates a team deemed to have lost)."""
    winners = [g.result.winner or "" for g in games]
    by_games = ("A" if series.loss_points_a > series.loss_points_b
                else "B" if series.loss_points_b > series.loss_points_a else "")
    if goat in ("A", "B") and by_games and goat != by_games:
        return maths.mirrored(winners)
    return winners


def _leaver_positions(series: Series) -> set[int]:
    """Seats whose person left for good: a substitute bot still plays them at the end.

    (The ranked leaver rule: a seat left at a ranked table is never reclaimed.)
    """
    return {seat.position for seat in selectors.roster(series) if seat.away_user_id}


def _leavers(series: Series) -> set[int]:
    """People with a recorded abandonment in this series (Conduct "abandon")."""
    return set(Conduct.objects.filter(series=series, kind=Conduct.Kind.ABANDON)
               .values_list("user_id", flat=True))


def rate_series(series_id: int) -> bool:
    """Record a finished series per player and, if ranked, rate it; exactly once.

    Returns True when this call processed the series, False when there was nothing to
    do (unknown or unfinished series, or already processed).
    """
    try:
        with transaction.atomic():
            # The row lock serialises two workers finishing the same series.
            series = (Series.objects.select_for_update(of=("self",))
                      .filter(pk=series_id).first())
            # Only a series played to its target, or decided at a tournament round's
            # time limit, is recorded and rated (its reason says so explicitly; voted,
            # abandoned and voided series are not).
            if (series is None or series.status != Series.Status.FINISHED
                    or series.termination not in DECIDED):
                return False
            if RatedSeries.objects.filter(series_id=series.pk).exists():
                return False
            _process_locked(series)
            return True
    except IntegrityError:
        # Another worker wrote the marker between our check and our insert (possible
        # only where the row lock is a no-op); its transaction did the work.
        logger.info("series %s was processed concurrently", series_id)
        return False


def _process_locked(series: Series) -> None:
    """Write the records, the rating changes and the marker. Caller holds the lock."""
    games = list(Game.objects.filter(series=series, status=Game.Status.FINISHED)
                 .select_related("result").order_by("number"))
    games = [g for g in games if hasattr(g, "result")]
    leavers = _leaver_positions(series)
    people = {seat.position: seat.person_id for seat in selectors.roster(series)}
    finished_at = series.finished_at or timezone.now()
    result = series_result(series)
    ranked = (bool(series.ranked) and all(people.get(p) for p in range(4))
              and result.goat in ("A", "B"))  # a round-time tie has no goat to rate
    if ranked and len(set(people.values())) != 4:
        ranked = False  # one person on two seats cannot be rated against themselves
    _write_records(series, result, games, people, leavers, finished_at)
    if ranked:
        _rate_locked(series, result, games, people, leavers, finished_at)
    RatedSeries.objects.create(series=series, rated=ranked)
    if series.ranked:
        # The series-end card waits for this ("rating being updated"): every screen at
        # the table reads its snapshot again, which now carries the changes.
        table_id = series.table_id
        send_events_on_commit(lambda: [(table_group(table_id), {"type": "table.refresh"})])


def _write_records(series: Series, result: Result, games: list[Game],
                   people: dict[int, int | None],
                   leavers: set[int], finished_at: datetime) -> None:
    """One SeriesRecord per person. ``won``/``goat`` are their team's series result;
    ``left`` only when they have a recorded abandonment in this series; the game counts
    leave out games a substitute bot played for them (not their own play)."""
    abandoned = _leavers(series)
    records = []
    for position, user_id in people.items():
        if not user_id:
            continue
        team = maths.team_of(position)
        other = "B" if team == "A" else "A"
        own = [g.result for g in games if not g.substitute_seats & (1 << position)]
        records.append(SeriesRecord(
            series=series, user_id=user_id, position=position, team=team,
            partner_id=people.get(maths.partner_of(position)), ranked=series.ranked,
            won=result.winner == team, goat=result.goat == team,
            goat_with_eggs=result.goat == team and series.eggs > 0,
            left=user_id in abandoned, games_played=len(own),
            games_by_substitute=len(games) - len(own),
            games_won=sum(1 for r in own if r.winner == team),
            games_lost=sum(1 for r in own if r.winner == other),
            clean_games_won=sum(1 for r in own if r.winner == team
                                and getattr(r, f"tricks_{other.lower()}") == 0),
            eggs=sum(1 for r in own if r.eggs),
            first_game_id=games[0].pk if games else None, finished_at=finished_at,
        ))
    SeriesRecord.objects.bulk_create(records)
    if series.ranked:
        month = month_start(finished_at)
        for record in records:
            _bump_month(record.user_id, month, record, +1)


def _bump_month(user_id: int, month: date, record: SeriesRecord, sign: int) -> None:
    won = int(record.won and not record.left)  # the boards credit only who stayed
    clean = int(record.clean_games_won)
    goat = int(record.goat)
    if not (won or clean or goat):
        return
    MonthlyStats.objects.bulk_create([MonthlyStats(user_id=user_id, month=month)],
                                     ignore_conflicts=True)
    MonthlyStats.objects.filter(user_id=user_id, month=month).update(
        series_won=F("series_won") + sign * won,
        clean_games_won=F("clean_games_won") + sign * clean,
        goats=F("goats") + sign * goat)


def lock_ratings(user_ids: list[int]) -> dict[int, Rating]:
    """Create missing Rating rows, then lock all in user-id order (no deadlocks)."""
    conf = rating_settings
    Rating.objects.bulk_create([Rating(user_id=u, mu=conf.MU, sigma=conf.SIGMA)
                                for u in user_ids], ignore_conflicts=True)
    rows = Rating.objects.select_for_update().filter(user_id__in=user_ids).order_by("user_id")
    return {r.user_id: r for r in rows}


def idle_sigma(rating: Rating, at: datetime) -> float:
    """The rating's sigma at ``at``, grown for the days since its last rated series."""
    if rating.last_played_day is None:
        return rating.sigma
    return rating_settings.inflated_sigma(rating.sigma, epoch_days(at) - rating.last_played_day)


def _rate_locked(series: Series, rated: Result, games: list[Game],
                 people: dict[int, int | None],
                 leavers: set[int], finished_at: datetime) -> None:
    conf = rating_settings
    user_ids = [int(people[p]) for p in range(4)]  # type: ignore[arg-type]
    ratings = lock_ratings(user_ids)
    start = {p: maths.SeatRating(ratings[user_ids[p]].mu, idle_sigma(ratings[user_ids[p]],
                                                                     finished_at))
             for p in range(4)}
    outcome = maths.rate_series(conf.model(), start,
                                rated_winners(series, games, rated.goat), rated.goat, leavers)
    day = epoch_days(finished_at)
    changes = []
    for position in range(4):
        user_id = user_ids[position]
        rating = ratings[user_id]
        result = outcome[position]
        team = maths.team_of(position)
        won = rated.winner == team and result.kind == RatingChange.Kind.RATED
        change = RatingChange(
            series=series, user_id=user_id, position=position, kind=result.kind, won=won,
            mu_before=rating.mu, sigma_before=rating.sigma,
            last_played_at_before=rating.last_played_at,
            last_played_day_before=rating.last_played_day,
            display_before=conf.display(rating.mu, start[position].sigma),
            created_at=finished_at,
            mu_after=rating.mu, sigma_after=rating.sigma, display_after=0,
        )
        if result.kind == RatingChange.Kind.EXCUSED:
            change.display_after = change.display_before
        else:
            rating.mu, rating.sigma = result.mu, result.sigma
            change.mu_after, change.sigma_after = result.mu, result.sigma
            change.display_after = conf.display(result.mu, result.sigma)
            rating.series_rated += 1
            rating.series_won += int(won)
            if rating.last_played_day is None or day >= rating.last_played_day:
                rating.last_played_at, rating.last_played_day = finished_at, day
            _bump_contacts(user_id, [user_ids[maths.partner_of(position)]],
                           [user_ids[q] for q in opponents_of(position)], +1)
            rating.partners, rating.opponents = _count_contacts(user_id)
        changes.append(change)
        rating.save()
    RatingChange.objects.bulk_create(changes)


def _bump_contacts(user_id: int, partners: list[int], opponents: list[int], sign: int) -> None:
    RatingContact.objects.bulk_create(
        [RatingContact(user_id=user_id, other_id=o) for o in [*partners, *opponents]],
        ignore_conflicts=True)
    RatingContact.objects.filter(user_id=user_id, other_id__in=partners).update(
        as_partner=F("as_partner") + sign)
    RatingContact.objects.filter(user_id=user_id, other_id__in=opponents).update(
        as_opponent=F("as_opponent") + sign)


def _count_contacts(user_id: int) -> tuple[int, int]:
    contacts = RatingContact.objects.filter(user_id=user_id)
    return (contacts.filter(as_partner__gt=0).count(),
            contacts.filter(as_opponent__gt=0).count())


def rollback_series(series_id: int) -> bool:
    """Undo what processing a series did (a voided series; moderation voids through the
    finisher, whose hook enqueues this), exactly: afterwards every rating is what it
    would be had the series never been played.

    Each of its players gets back the stored row from before it, and every later rated
    series that shares a player whose rating moved (directly or through an earlier
    replayed series) is rated again, in the order the series were first rated, from the
    corrected ratings; their RatingChange rows are rewritten with the new values.
    Counters, contacts, records and monthly boards are undone too. The marker stays
    (rolled back), so the series is never rated again. Returns False when there is
    nothing to undo.
    """
    now = timezone.now()
    with transaction.atomic():
        marker = RatedSeries.objects.select_for_update().filter(series_id=series_id).first()
        if marker is None or marker.rolled_back_at is not None:
            return False
        changes = list(RatingChange.objects.filter(series_id=series_id,
                                                   rolled_back_at__isnull=True)
                       .order_by("position"))
        if changes:
            _roll_back_ratings_locked(series_id, changes, now)
        records = list(SeriesRecord.objects.filter(series_id=series_id, voided=False))
        for record in records:
            if record.ranked:
                _bump_month(record.user_id, month_start(record.finished_at), record, -1)
        SeriesRecord.objects.filter(series_id=series_id).update(voided=True)
        marker.rolled_back_at = now
        marker.save(update_fields=["rolled_back_at"])
    return True


@dataclass
class _State:
    """A rating as stored: what a replay carries from one series to the next."""

    mu: float
    sigma: float
    last_played_at: datetime | None
    last_played_day: float | None


def _state_before(change: RatingChange) -> _State:
    return _State(change.mu_before, change.sigma_before, change.last_played_at_before,
                  change.last_played_day_before)


def _replay_plan(series_id: int, first_pk: int,
                 moved: set[int]) -> tuple[list[list[RatingChange]], set[int]]:
    """The later rated series to rate again (each as its four changes by position) and
    every player whose rating changes. Series are taken in the order they were first
    rated (their changes' ids); one is replayed when any of its four players' ratings
    moved, and then its rated players' ratings move too."""
    later = (RatingChange.objects.filter(pk__gt=first_pk, rolled_back_at__isnull=True)
             .exclude(series_id=series_id).order_by("pk"))
    groups: dict[int, list[RatingChange]] = {}
    for change in later.iterator():
        groups.setdefault(change.series_id, []).append(change)
    affected = set(moved)
    plan = []
    for rows in groups.values():  # insertion order: first rated first
        if any(r.user_id in affected for r in rows):
            plan.append(sorted(rows, key=lambda r: r.position))
            affected |= {r.user_id for r in rows if r.kind != RatingChange.Kind.EXCUSED}
    return plan, affected


def _roll_back_ratings_locked(series_id: int, changes: list[RatingChange],
                              now: datetime, *, rerate: bool = False) -> None:
    """Take the series out of the ratings, or with ``rerate`` rate it again in its place
    from the same starting ratings (its result was corrected), then replay every later
    series that shares a moved player. One path for voids and corrections. Caller holds
    the series' marker lock; ``changes`` are its rows by position (with ``rerate``, all
    of them, also rows an earlier correction to a tie took out)."""
    conf = rating_settings
    moved = {c.user_id for c in changes if c.kind != RatingChange.Kind.EXCUSED}
    first_pk = min(c.pk for c in changes)
    # Plan, lock everyone it touches (user-id order), and plan again under the locks: a
    # series rated meanwhile may widen the plan; repeat until it is stable.
    locked: set[int] = set()
    while True:
        plan, affected = _replay_plan(series_id, first_pk, moved)
        needed = affected | {c.user_id for c in changes} | {
            r.user_id for rows in plan for r in rows}
        if needed <= locked:
            break
        ratings = lock_ratings(sorted(needed))
        locked = needed
    was_active = {c.pk: c.rolled_back_at is None for c in changes}
    was_won = {c.pk: c.won for c in changes}
    before = {c.position: _state_at(c) for c in changes}
    state = {c.user_id: before[c.position] for c in changes
             if c.kind != RatingChange.Kind.EXCUSED}
    model = conf.model()
    if rerate:
        _rate_rows(changes, before, state, model)
    for rows in plan:
        _rate_rows(rows, {r.position: state.get(r.user_id) or _state_before(r) for r in rows},
                   state, model)
    people = {c.position: c.user_id for c in changes}
    for user_id, st in state.items():
        rating = ratings[user_id]
        rating.mu, rating.sigma = st.mu, st.sigma
        rating.last_played_at, rating.last_played_day = st.last_played_at, st.last_played_day
    winner = series_result(Series.objects.get(pk=series_id)).winner
    for change in changes:
        counted = change.kind != RatingChange.Kind.EXCUSED
        rating = ratings[change.user_id]
        if rerate:
            won = winner == maths.team_of(change.position) and \
                change.kind == RatingChange.Kind.RATED
            if counted and was_active[change.pk]:
                rating.series_won = max(0, rating.series_won + int(won) - int(was_won[change.pk]))
            elif counted:
                _count_series(rating, change, people, +1, won)
            change.won, change.rolled_back_at = won, None
            change.save(update_fields=["won", "rolled_back_at"])
            continue
        if counted and was_active[change.pk]:
            _count_series(rating, change, people, -1, change.won)
        change.rolled_back_at = now
        change.save(update_fields=["rolled_back_at"])
    for user_id in state:
        ratings[user_id].save()


def _state_at(change: RatingChange) -> _State:
    """The player's stored rating just before ``change``'s series: its stored "before"
    while the row counts (replays keep it current); for a row taken out, the state after
    the player's previous counted change (or a new player's), as a from-scratch replay
    would have it."""
    if change.rolled_back_at is None:
        return _state_before(change)
    previous = (RatingChange.objects.filter(user_id=change.user_id, pk__lt=change.pk,
                                            rolled_back_at__isnull=True)
                .order_by("-pk").first())
    if previous is None:
        return _State(rating_settings.MU, rating_settings.SIGMA, None, None)
    st = _state_before(previous)
    if previous.kind == RatingChange.Kind.EXCUSED:
        return st
    after = _State(previous.mu_after, previous.sigma_after, st.last_played_at,
                   st.last_played_day)
    day = epoch_days(previous.created_at)
    if st.last_played_day is None or day >= st.last_played_day:
        after.last_played_at, after.last_played_day = previous.created_at, day
    return after


def _rate_rows(rows: list[RatingChange], before: dict[int, _State],
               state: dict[int, _State], model: Any) -> None:
    """Rate one series again from ``before`` (position → stored rating at its start):
    rewrite its four changes (``rows``, by position) and carry the results into
    ``state``. Used by a replay and by a corrected series rated in its place."""
    conf = rating_settings
    series = Series.objects.get(pk=rows[0].series_id)
    games = [g for g in Game.objects.filter(series=series, status=Game.Status.FINISHED)
             .select_related("result").order_by("number") if hasattr(g, "result")]
    at = rows[0].created_at
    start = {p: maths.SeatRating(st.mu, _idle(st, at)) for p, st in before.items()}
    goat = series_result(series).goat
    outcome = maths.rate_series(model, start, rated_winners(series, games, goat),
                                goat, _leaver_positions(series))
    day = epoch_days(at)
    for row in rows:
        st = before[row.position]
        row.mu_before, row.sigma_before = st.mu, st.sigma
        row.last_played_at_before, row.last_played_day_before = \
            st.last_played_at, st.last_played_day
        row.display_before = conf.display(st.mu, start[row.position].sigma)
        result = outcome[row.position]
        if row.kind == RatingChange.Kind.EXCUSED:
            row.mu_after, row.sigma_after = st.mu, st.sigma
            row.display_after = row.display_before
            continue
        row.mu_after, row.sigma_after = result.mu, result.sigma
        row.display_after = conf.display(result.mu, result.sigma)
        new = _State(result.mu, result.sigma, st.last_played_at, st.last_played_day)
        if st.last_played_day is None or day >= st.last_played_day:
            new.last_played_at, new.last_played_day = at, day
        state[row.user_id] = new
    RatingChange.objects.bulk_update(rows, [
        "mu_before", "sigma_before", "last_played_at_before", "last_played_day_before",
        "display_before", "mu_after", "sigma_after", "display_after"])


def _idle(state: _State, at: datetime) -> float:
    if state.last_played_day is None:
        return state.sigma
    return rating_settings.inflated_sigma(state.sigma, epoch_days(at) - state.last_played_day)


def _count_series(rating: Rating, change: RatingChange, people: dict[int, int],
                  sign: int, won: bool) -> None:
    """Take a series out of the counters and contacts (``sign`` -1: a void, a correction
    to a tie) or put it back (+1: corrected to a win again); the values come from the
    replay. Caller holds the rating's lock and saves it."""
    rating.series_rated = max(0, rating.series_rated + sign)
    rating.series_won = max(0, rating.series_won + sign * int(won))
    position = change.position
    partner = people.get(maths.partner_of(position))
    opponents = [people[q] for q in opponents_of(position) if q in people]
    _bump_contacts(rating.user_id, [partner] if partner else [], opponents, sign)
    rating.partners, rating.opponents = _count_contacts(rating.user_id)


def rerate_series(series_id: int) -> bool:
    """A series' result was corrected (``series_corrected``: a tournament director's tool;
    the corrected result is read through :func:`series_result`): rate the corrected
    result in the series' place, exactly.

    Afterwards every rating is what it would be had the series ended with the corrected
    result: its players start again from their ratings before it, it is rated with its
    new goat (on the mirrored games when the result goes against them), and every later
    series sharing a moved player is replayed in order (the void's rollback path). A
    correction to a tie (no goat) takes it out of the ratings like a void, keeping its
    records; a later correction to a win puts it back in its place. The records and
    monthly boards follow the corrected result. A series a moderator voided stays void,
    and a series not processed yet needs nothing (``rate_series`` reads the corrected
    result). Returns True when it changed something.
    """
    now = timezone.now()
    with transaction.atomic():
        marker = RatedSeries.objects.select_for_update().filter(series_id=series_id).first()
        series = Series.objects.filter(pk=series_id).first()
        if (marker is None or series is None or marker.rolled_back_at is not None
                or series.status != Series.Status.FINISHED
                or series.termination not in DECIDED):
            return False
        result = series_result(series)
        _correct_records_locked(series, result)
        changes = list(RatingChange.objects.filter(series_id=series_id).order_by("position"))
        if changes and result.goat in ("A", "B"):
            _roll_back_ratings_locked(series_id, changes, now, rerate=True)
        elif changes:
            active = [c for c in changes if c.rolled_back_at is None]
            if active:
                _roll_back_ratings_locked(series_id, active, now)
    return True


def _correct_records_locked(series: Series, result: Result) -> None:
    """The series' records and this month's boards follow its corrected result."""
    for record in SeriesRecord.objects.filter(series=series, voided=False):
        if record.ranked:
            _bump_month(record.user_id, month_start(record.finished_at), record, -1)
        record.won = result.winner == record.team
        record.goat = result.goat == record.team
        record.goat_with_eggs = record.goat and series.eggs > 0
        record.save(update_fields=["won", "goat", "goat_with_eggs"])
        if record.ranked:
            _bump_month(record.user_id, month_start(record.finished_at), record, +1)


def unprocessed_series_ids(limit: int = 50) -> list[int]:
    """Recently finished series without a marker (a lost task); for the sweep."""
    since = timezone.now() - timedelta(hours=rating_settings.SWEEP_LOOKBACK_HOURS)
    return list(Series.objects.filter(termination__in=DECIDED,
                                      finished_at__gte=since,
                                      rated_marker__isnull=True)
                .order_by("finished_at").values_list("pk", flat=True)[:limit])


def sweep() -> int:
    """Process finished series whose task was lost; returns how many were processed."""
    return sum(1 for sid in unprocessed_series_ids() if rate_series(sid))
