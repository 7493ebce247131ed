"""Bulk data for the query-count tests and the ``ratings_bench`` command.

:func:`seed` writes ``players`` users and ``series`` finished ranked series with
``bulk_create`` only, rated for real in memory with the same maths as the service
(inactivity included), so the rows look like a live site's: ratings, changes, records,
contacts, monthly boards and markers. Players are drawn from small overlapping circles
so that partners and opponents repeat as they do among regulars.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone

from accounts.models import Profile
from games.engine import opponents_of
from games.models import Game, Series, SeriesSeat, Table
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

BATCH = 2000


@dataclass
class _Player:
    mu: float
    sigma: float
    rated: int = 0
    won: int = 0
    last_at: datetime | None = None
    last_day: float | None = None


def seed(players: int, series: int, *, now: datetime | None = None, days: int = 60,
         seed_value: int = 7, prefix: str = "bench", contacts: bool = True) -> list[Any]:
    """Write the data; returns the users (in creation order)."""
    rng = random.Random(seed_value)
    now = now or timezone.now()
    user_model = get_user_model()
    users = user_model.objects.bulk_create(
        [user_model(username=f"{prefix}{i}", email=f"{prefix}{i}@example.com", password="!")
         for i in range(players)], batch_size=BATCH)
    Profile.objects.bulk_create([Profile(user=u) for u in users], batch_size=BATCH,
                                ignore_conflicts=True)
    ids = [u.pk for u in users]
    names = {u.pk: u.username for u in users}
    tables = Table.objects.bulk_create(
        [Table(owner_id=ids[0], name=f"{prefix} {t}", kind="ranked", turn_seconds=30,
               bots_allowed=False, status=Table.Status.FINISHED)
         for t in range(series // 50 + 1)], batch_size=BATCH)
    model = rating_settings.model()
    state = {uid: _Player(rating_settings.MU, rating_settings.SIGMA) for uid in ids}
    circle = max(8, min(40, players))
    plan = []
    start = now - timedelta(days=days)
    for s in range(series):
        base = rng.randrange(0, max(1, players - circle + 1))
        four = rng.sample(ids[base:base + circle], 4)
        winners = [rng.choice("AAB") if rng.random() < 0.5 else rng.choice("ABB")
                   for _ in range(rng.randint(3, 6))]
        if rng.random() < 0.05:
            winners[rng.randrange(len(winners))] = ""
        lost = {"A": 0, "B": 0}
        for w in winners:
            if w:
                lost["B" if w == "A" else "A"] += 4
        goat = "A" if lost["A"] >= lost["B"] else "B"
        at = start + timedelta(seconds=(days * 86400) * (s + 1) / (series + 1))
        plan.append((s, four, winners, goat, lost, at))
    series_rows = Series.objects.bulk_create(
        [Series(table=tables[s // 50], number=s % 50 + 1, termination="completed",
                target=12, ranked=True, status=Series.Status.FINISHED, first_dealer=0,
                loss_points_a=lost["A"], loss_points_b=lost["B"],
                eggs=sum(1 for w in winners if not w), winner="B" if goat == "A" else "A",
                goat=goat, state={}, finished_at=at)
         for s, four, winners, goat, lost, at in plan], batch_size=BATCH)
    SeriesSeat.objects.bulk_create(
        [SeriesSeat(series=row, position=p, user_id=four[p], name=names[four[p]])
         for row, (_s, four, *_rest) in zip(series_rows, plan, strict=True) for p in range(4)],
        batch_size=BATCH)
    games = Game.objects.bulk_create(
        [Game(series=row, number=1, seed=1, algorithm=1, dealer=0, first_leader=0,
              trump_card="6H", status=Game.Status.FINISHED, state={}, finished_at=row.finished_at)
         for row in series_rows], batch_size=BATCH)
    changes, records, markers = [], [], []
    months: dict[tuple[int, Any], list[int]] = defaultdict(lambda: [0, 0, 0])
    pair_counts: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0])
    partners: dict[int, set[int]] = defaultdict(set)
    opponents: dict[int, set[int]] = defaultdict(set)
    for (_s, four, winners, goat, _lost, at), row, game in zip(plan, series_rows, games,
                                                              strict=True):
        day = epoch_days(at)
        start_ratings = {}
        for p in range(4):
            pl = state[four[p]]
            sigma = pl.sigma if pl.last_day is None else rating_settings.inflated_sigma(
                pl.sigma, day - pl.last_day)
            start_ratings[p] = maths.SeatRating(pl.mu, sigma)
        out = maths.rate_series(model, start_ratings, winners, goat)
        month = month_start(at)
        for p in range(4):
            uid = four[p]
            pl = state[uid]
            team = maths.team_of(p)
            other = "B" if team == "A" else "A"
            won = team != goat
            changes.append(RatingChange(
                series=row, user_id=uid, position=p, kind="rated", won=won,
                mu_before=pl.mu, sigma_before=pl.sigma, last_played_at_before=pl.last_at,
                last_played_day_before=pl.last_day, mu_after=out[p].mu,
                sigma_after=out[p].sigma,
                display_before=rating_settings.display(pl.mu, start_ratings[p].sigma),
                display_after=rating_settings.display(out[p].mu, out[p].sigma), created_at=at))
            pl.mu, pl.sigma, pl.last_at, pl.last_day = out[p].mu, out[p].sigma, at, day
            pl.rated += 1
            pl.won += int(won)
            partner = four[maths.partner_of(p)]
            rivals = [four[q] for q in opponents_of(p)]
            partners[uid].add(partner)
            opponents[uid].update(rivals)
            pair_counts[(uid, partner)][0] += 1
            for r in rivals:
                pair_counts[(uid, r)][1] += 1
            clean = sum(1 for w in winners if w == team) // 3
            records.append(SeriesRecord(
                series=row, user_id=uid, position=p, team=team, partner_id=partner,
                ranked=True, won=won, goat=not won, goat_with_eggs=not won and row.eggs > 0,
                games_played=len(winners), games_won=sum(1 for w in winners if w == team),
                games_lost=sum(1 for w in winners if w == other), clean_games_won=clean,
                eggs=row.eggs, first_game_id=game.pk, finished_at=at))
            counters = months[(uid, month)]
            counters[0] += int(won)
            counters[1] += clean
            counters[2] += int(not won)
        markers.append(RatedSeries(series=row, rated=True))
    RatingChange.objects.bulk_create(changes, batch_size=BATCH)
    SeriesRecord.objects.bulk_create(records, batch_size=BATCH)
    RatedSeries.objects.bulk_create(markers, batch_size=BATCH)
    MonthlyStats.objects.bulk_create(
        [MonthlyStats(user_id=u, month=m, series_won=c[0], clean_games_won=c[1], goats=c[2])
         for (u, m), c in months.items()], batch_size=BATCH)
    if contacts:
        RatingContact.objects.bulk_create(
            [RatingContact(user_id=u, other_id=o, as_partner=c[0], as_opponent=c[1])
             for (u, o), c in pair_counts.items()], batch_size=BATCH)
    Rating.objects.bulk_create(
        [Rating(user_id=uid, mu=pl.mu, sigma=pl.sigma, series_rated=pl.rated,
                series_won=pl.won, partners=len(partners[uid]), opponents=len(opponents[uid]),
                last_played_at=pl.last_at, last_played_day=pl.last_day)
         for uid, pl in state.items() if pl.rated], batch_size=BATCH)
    return users
