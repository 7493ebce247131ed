"""The backstop (healthchecks' ``sendalerts``): a beat task every few seconds finds
tables that a lost message left waiting and moves them on. Every action it takes goes
through the same compare-and-set services as the tasks, so racing a task is harmless.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.db.models import F, Max, Q
from django.utils import timezone

from games.conf import game_settings
from games.models import Game, Seat, Series, Table
from games.services import clock, play, publish
from games.services import series as series_service

BATCH = 50
STALL_GRACE = timedelta(seconds=5)
EMPTY_TABLE_AFTER = timedelta(minutes=5)


def sweep() -> dict[str, int]:
    """One pass; returns how many of each rescue it made (for logs and tests)."""
    now = timezone.now()
    done = {"timeouts": 0, "bots": 0, "next_games": 0, "abandoned_seats": 0, "closed_tables": 0}
    for game_id, version in (Game.objects.filter(status=Game.Status.PLAYING, paused=False,
                                                 turn_deadline__lt=now - clock.EARLY_TOLERANCE)
                             .values_list("id", "version")[:BATCH]):
        done["timeouts"] += clock.play_timeout(game_id, version) is not None
    # Only games that can be waiting on a bot or on an absent player are looked at, so
    # that idle tables of people thinking never crowd a stalled one out of the batch.
    idle = Game.objects.filter(status=Game.Status.PLAYING, paused=False,
                               turn_deadline__isnull=True)
    bot_stall = now - STALL_GRACE - timedelta(seconds=game_settings.BOT_DELAY_SECONDS)
    with_bots = (idle.filter(updated_at__lt=bot_stall, series__table__seats__bot_level__gt="")
                 .distinct().values_list("id", "version")[:BATCH])
    for game_id, version in with_bots:
        done["bots"] += play.play_bot_turn(game_id, version) is not None
    away_since = now - timedelta(seconds=clock.DISCONNECT_GRACE_SECONDS)
    with_absentee = (idle.filter(series__table__seats__user__isnull=False,
                                 series__table__seats__connections=0,
                                 series__table__seats__disconnected_at__lt=away_since)
                     .distinct().values_list("id", "version")[:BATCH])
    for game_id, version in with_absentee:
        done["abandoned_seats"] += clock.abandon_if_disconnected(game_id, version)
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


def _all_bots(table_id: int) -> bool:
    levels = list(Seat.objects.filter(table_id=table_id).values_list("bot_level", flat=True))
    return len(levels) == 4 and all(levels)


def close_empty_tables(now=None) -> int:
    """Tables with no person connected for 5 minutes are closed as abandoned.

    A table of four bots is a show table, not an empty one: it plays its series out
    with nobody watching (issue 6).
    """
    now = now or timezone.now()
    stale = now - EMPTY_TABLE_AFTER
    ids = list(Table.objects.filter(
        status__in=[Table.Status.OPEN, Table.Status.PLAYING], human_connections=0)
        .filter(Q(empty_since__lt=stale) | Q(empty_since__isnull=True, updated_at__lt=stale))
        .exclude(seats__connections__gt=0)
        .values_list("id", flat=True)[:BATCH])
    ids = [t for t in ids if not _all_bots(t)]
    closed = 0
    for table_id in ids:
        with transaction.atomic():
            table = Table.objects.select_for_update().filter(pk=table_id).first()
            if table is None or table.human_connections > 0 or Seat.objects.filter(
                    table=table, connections__gt=0).exists():
                continue
            table.status = Table.Status.ABANDONED
            table.save(update_fields=["status", "updated_at"])
            for series in Series.objects.select_for_update().filter(
                    table=table, status=Series.Status.PLAYING):
                series.status = Series.Status.ABORTED
                series.finished_at = now
                series.save(update_fields=["status", "finished_at"])
                Game.objects.filter(series=series, status=Game.Status.PLAYING).update(
                    status=Game.Status.VOIDED, finished_at=now, turn_deadline=None)
            publish.on_commit_table_changed(table_id)
            closed += 1
    return closed
