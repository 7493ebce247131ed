"""``python manage.py verify_games``: replay stored games and report what disagrees.

Each selected game is rebuilt from its seed and Move rows (R5) and compared with its
cached state, its GameResult and its series (games/verify.py has the checks). One line
per anomaly, then a summary; the exit status is 1 when anything was found.

    python manage.py verify_games              # live games and the last 24 hours
    python manage.py verify_games 12           # game 12 (and its series)
    python manage.py verify_games --since 2026-05-01
    python manage.py verify_games --all
"""

from __future__ import annotations

from datetime import UTC, datetime, time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, transaction
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from games import verify
from games.models import Game


def parse_since(text: str) -> datetime:
    """A date (midnight UTC) or an ISO date-time; naive times are UTC."""
    try:
        moment = parse_datetime(text)
        if moment is None:
            day = parse_date(text)
            moment = None if day is None else datetime.combine(day, time.min)
    except ValueError:
        moment = None
    if moment is None:
        raise CommandError(f"--since wants a date like 2026-05-01 or an ISO time, not {text!r}")
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment, UTC)
    return moment


class Command(BaseCommand):
    help = "Replay stored games from their seeds and moves; report anything that disagrees."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_id", nargs="?", type=int, help="check this game only")
        parser.add_argument("--since", help="games started since this date or time")
        parser.add_argument("--all", action="store_true", dest="everything",
                            help="every game in the database")

    def handle(self, *args: Any, **options: Any) -> None:
        game_id, since, everything = options["game_id"], options["since"], options["everything"]
        if sum([game_id is not None, since is not None, everything]) > 1:
            raise CommandError("give a game id, --since or --all, not several")
        if game_id is not None and not Game.objects.filter(pk=game_id).exists():
            raise CommandError(f"no game {game_id}")
        selected = verify.select_games(
            game_id=game_id, since=None if since is None else parse_since(since),
            everything=everything)
        # One snapshot for the whole check: on a live site the games and their moves
        # are read by separate queries, and a move committed between them was reported
        # as "move seq N beyond version N-1".
        outer = connection.in_atomic_block  # a caller's transaction (a test) keeps its own
        with transaction.atomic():
            if connection.vendor == "postgresql" and not outer:
                with connection.cursor() as cursor:
                    cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            report = verify.verify(selected)
        for anomaly in report.anomalies:
            self.stdout.write(str(anomaly))
        self.stdout.write(report.summary())
        if not report.ok:
            raise CommandError(f"{len(report.anomalies)} anomalies", returncode=1)
