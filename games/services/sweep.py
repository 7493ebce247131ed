"""The backstop (healthchecks' ``sendalerts``): a beat task every few seconds finds
tables that a lost message left waiting and moves them on. Every action it takes goes
through the same compare-and-set services as the tasks, so racing a task is harmless.

Each pass selects on the very thing its action reads: bots and absent people are found
through the series roster (SeriesSeat, the one roster), which is what the bot turn and
the absence rule read too, whatever put a bot there (the table's owner or a takeover).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial

from django.core.cache import cache
from django.db import transaction
from django.db.models import F, Max, QuerySet
from django.utils import timezone

from games import engine, events, policy
from games import presence as presence_store
from games.conf import game_settings
from games.models import Game, Seat, Series, Table, Termination
from games.services import absence, clock, finish, locks, play, publish
from games.services import series as series_service

BATCH = 50
# How late a bot turn or a next game may be before the sweep does it itself. A task held
# by a SIGKILLed worker comes back on Redis only after the visibility timeout (90 s), so
# this grace plus the bot's delay and the sweep's period (1 s) is what such a table
# waits (docs/performance.md). A task that is merely late races the sweep harmlessly:
# both go through compare-and-set.
STALL_GRACE = timedelta(seconds=1)
EMPTY_TABLE_AFTER = timedelta(minutes=5)
# A move whose broadcast was lost (the worker or web process that made it was killed
# between its commit and its publish, or Redis was down then) left the other seats on
# the old version with nothing to show them a gap: a person to act never knew it and the
# table stood still for good. A game idle this long is announced once more, once per
# version; clients ignore a version they have.
REANNOUNCE_AFTER = timedelta(seconds=3)
REANNOUNCE_WINDOW = timedelta(minutes=2)


def sweep(now: datetime | None = None) -> dict[str, int]:
    """One pass; returns how many of each rescue it made (for logs and tests)."""
    now = now or timezone.now()
    done = {"timeouts": 0, "bots": 0, "next_games": 0, "abandoned_seats": 0,
            "closed_tables": 0, "presence_reaped": absence.reap(now.timestamp()),
            "reannounced": reannounce_idle_games(now)}
    for game_id, version in (Game.objects.filter(status=Game.Status.PLAYING, paused=False,
                                                 turn_deadline__lt=now - play.EARLY_TOLERANCE)
                             .values_list("id", "version")[:BATCH]):
        done["timeouts"] += play.play_timeout(game_id, version) is not None
    # Only games that can be waiting on a bot or on an absent person are looked at, so
    # that idle tables of people thinking never crowd a stalled one out of the batch.
    idle = Game.objects.filter(status=Game.Status.PLAYING, paused=False,
                               turn_deadline__isnull=True,
                               series__status=Series.Status.PLAYING)
    bot_stall = now - STALL_GRACE - timedelta(seconds=game_settings.BOT_DELAY_SECONDS)
    with_bots = (idle.filter(updated_at__lt=bot_stall,
                             series__roster__bot_level__gt="")
                 .distinct().values_list("id", "version")[:BATCH])
    for game_id, version in with_bots:
        done["bots"] += play.play_bot_turn(game_id, version) is not None
    # Absentees at clocked tables too: the grace may end before the clock does.
    done["abandoned_seats"] = _abandon_absentees(
        Game.objects.filter(status=Game.Status.PLAYING, paused=False,
                            series__status=Series.Status.PLAYING), now)
    next_stall = now - STALL_GRACE - timedelta(seconds=game_settings.NEXT_GAME_DELAY_SECONDS)
    waiting = (Series.objects.filter(status=Series.Status.PLAYING)
               .annotate(last=Max("games__number"))
               .filter(games__number=F("last"), games__status=Game.Status.FINISHED,
                       games__finished_at__lt=next_stall)
               .values_list("id", "last")[:BATCH])
    for series_id, last in waiting:
        done["next_games"] += series_service.start_next_game(series_id, last) is not None
    done["closed_tables"] = close_empty_tables(now)
    return done


def reannounce_idle_games(now: datetime | None = None) -> int:
    """Publish once more the current version of games idle for REANNOUNCE_AFTER (at most
    once per version: a Redis marker). Reads only; a version that moves on meanwhile is
    published by its own move, and clients ignore the older one."""
    now = now or timezone.now()
    idle = (Game.objects.filter(status=Game.Status.PLAYING, paused=False,
                                updated_at__lt=now - REANNOUNCE_AFTER,
                                updated_at__gte=now - REANNOUNCE_WINDOW)
            .select_related("series").order_by("updated_at")[:BATCH])
    done = 0
    for game in idle:
        try:
            fresh = cache.add(f"reannounce:{game.pk}:{game.version}", 1,
                              timeout=int(REANNOUNCE_WINDOW.total_seconds()) * 2)
        except Exception:  # noqa: BLE001 - without Redis there is nobody to tell either
            return done
        if fresh:
            events.send_events(publish.game_changed(game, engine.GameState.from_dict(game.state))())
            done += 1
    return done


def _abandon_absentees(idle: QuerySet[Game], now: datetime) -> int:
    """Games whose person on turn has been away past the grace: a bot takes the seat.

    The candidates come from SQL (a person of the roster on turn for longer than the
    grace); presence (Redis) then says who of them is really away.
    """
    away_since = now - timedelta(seconds=game_settings.DISCONNECT_GRACE_SECONDS)
    candidates = (idle.filter(turn_started_at__lt=away_since,
                              series__roster__position=F("turn_seat"),
                              series__roster__user__isnull=False)
                  .values_list("id", "version", "series__table_id",
                               "series__roster__user_id")[:BATCH * 4])
    taken = 0
    for game_id, version, table_id, user_id in candidates:
        since = presence_store.absent_since(table_id, user_id, now.timestamp())
        if since is not None and since < away_since.timestamp():
            taken += clock.abandon_if_disconnected(game_id, version, now)
    return taken


def _all_bots(table_id: int) -> bool:
    levels = list(Seat.objects.filter(table_id=table_id).values_list("bot_level", flat=True))
    return len(levels) == 4 and all(levels)


def _empty(table: Table, stale: datetime) -> bool:
    """Nobody signed in has had the table open since ``stale`` (presence decides)."""
    if presence_store.live_user_ids(table.pk):
        return False
    last_seen = presence_store.human_last_seen(table.pk)
    if last_seen is not None:
        return last_seen < stale.timestamp()
    return table.updated_at < stale


def close_empty_tables(now: datetime | None = None) -> int:
    """Tables no person has had open for 5 minutes are closed as abandoned.

    A table of four bots is a show table, not an empty one: it plays its series out
    with nobody watching. A table another app holds open on purpose
    (``games.policy.held_tables``: a tournament round's table until its check-in
    deadline) is left alone too. The series being played ends through the finisher
    with the reason ``abandoned``.
    """
    now = now or timezone.now()
    stale = now - EMPTY_TABLE_AFTER
    ids = list(Table.objects.filter(status__in=[Table.Status.OPEN, Table.Status.PLAYING],
                                    updated_at__lt=stale)
               .order_by("updated_at").values_list("id", flat=True)[:BATCH * 10])
    held = policy.held_tables(ids, now)
    closed = 0
    for table_id in ids:
        if table_id in held or _all_bots(table_id):
            continue
        with transaction.atomic():
            table = locks.lock_table(table_id)
            if table.status not in (Table.Status.OPEN, Table.Status.PLAYING) or not _empty(
                    table, stale):
                continue
            series, _game = locks.lock_current(table)
            if series is not None:
                finish.end_series_locked(table, series, Termination.ABANDONED)
            else:
                table.status = Table.Status.ABANDONED
                table.save(update_fields=["status", "updated_at"])
            events.send_events_on_commit(partial(publish.table_changed, table_id))
            closed += 1
    return closed
