"""``python manage.py ratings_bench``: leaderboard and profile server times on a big site.

Seeds 10,000 players and 50,000 rated series (bulk_create, games/ratings/benchdata.py)
into **its own throwaway SQLite file** (``.run/ratings-bench.sqlite3`` by default; never
the configured database: the command switches the default connection to that file
before touching any data, and refuses a path equal to the configured database). Then it
requests the pages in-process through Django's test client and reports the server time
p50/p95 and the query count of each page. Target: p95 ≤ 50 ms.

    python manage.py ratings_bench                 # seed (about 2 min) and measure
    python manage.py ratings_bench --reuse         # measure again on the seeded file
    python manage.py ratings_bench --players 2000 --series 10000 --requests 100
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, connections
from django.db.models import Count
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings

from games.ratings import benchdata, selectors
from games.ratings.models import Rating, RatingChange, SeriesRecord


def _use_bench_database(path: Path) -> None:
    """Point the default connection at ``path`` (SQLite) before any query is made."""
    configured = settings.DATABASES["default"]
    if str(configured.get("NAME")) == str(path):
        raise CommandError(f"{path} is the configured database; choose another --db")
    connections["default"].close()
    fresh = {"ENGINE": "django.db.backends.sqlite3", "NAME": str(path),
             "OPTIONS": {"transaction_mode": "IMMEDIATE", "timeout": 20,
                         "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"}}
    connections.settings["default"] = connections.configure_settings({"default": fresh})[
        "default"]
    del connections["default"]


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


class Command(BaseCommand):
    help = "Seed a throwaway SQLite file with a big site and time the rating pages."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=10_000)
        parser.add_argument("--series", type=int, default=50_000)
        parser.add_argument("--requests", type=int, default=200,
                            help="requests per page kind")
        parser.add_argument("--db", default=str(Path(settings.RUN_DIR) / "ratings-bench.sqlite3"),
                            help="the throwaway SQLite file (deleted and re-created)")
        parser.add_argument("--reuse", action="store_true",
                            help="measure on an already seeded --db file")

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["db"]).resolve()
        if not path.name.endswith(".sqlite3") or "bench" not in path.name:
            raise CommandError("--db must be a file named like *bench*.sqlite3 (throwaway)")
        _use_bench_database(path)
        if not options["reuse"]:
            for suffix in ("", "-wal", "-shm"):
                Path(str(path) + suffix).unlink(missing_ok=True)
        call_command("migrate", verbosity=0, interactive=False)
        if not options["reuse"] or not Rating.objects.exists():
            self.stdout.write(f"Seeding {options['players']:,} players and "
                              f"{options['series']:,} series into {path} ...")
            started = time.monotonic()
            benchdata.seed(options["players"], options["series"], contacts=True)
            self.stdout.write(f"  seeded in {time.monotonic() - started:.1f} s")
            # Measure in a fresh process, as a web worker would serve: the seeding left
            # a large heap behind that slows every garbage collection.
            self.stdout.flush()
            command = [sys.executable, str(Path(settings.BASE_DIR) / "manage.py"),
                       "ratings_bench", "--reuse", "--db", str(path),
                       "--requests", str(options["requests"])]
            subprocess.run(command, check=True)
            return
        self._measure(options["requests"])

    def _measure(self, n: int) -> None:
        rng = random.Random(1)
        board = selectors.leaderboard(1)
        listed = selectors.eligible().select_related("user").first()
        usernames = list(get_user_model().objects.filter(rating__isnull=False)
                         .values_list("username", flat=True))
        busiest = (SeriesRecord.objects.values("user__username").order_by()
                   .annotate(n=Count("id"))
                   .order_by("-n").first())
        self.stdout.write(
            f"Data: {get_user_model().objects.count():,} users, "
            f"{RatingChange.objects.values('series').distinct().count():,} rated series, "
            f"{SeriesRecord.objects.count():,} series records; "
            f"{board.total:,} players on the leaderboard ({board.pages} pages); "
            f"busiest player {busiest['n']} series")
        anonymous = Client()
        signed_in = Client()
        if listed is not None:
            signed_in.force_login(listed.user)
        pages = max(1, board.pages)
        kinds = [
            ("leaderboard, page 1, signed out", anonymous, lambda: "/leaderboard/"),
            ("leaderboard, random page, signed in (own rank)", signed_in,
             lambda: f"/leaderboard/?page={rng.randint(1, pages)}"),
            ("profile, random player", anonymous, lambda: f"/@/{rng.choice(usernames)}"),
            ("profile, busiest player", anonymous, lambda: f"/@/{busiest['user__username']}"),
        ]
        self.stdout.write(f"{'page':<50} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} "
                          f"{'cpu p50':>8} {'cpu p95':>8} {'queries':>8}")
        for label, client, url in kinds:
            connection.queries_log.clear()  # a full log (maxlen 9000) would count 0
            with CaptureQueriesContext(connection) as queries:
                response = client.get(url())
            query_count = len(queries)  # now: later requests clear the log
            assert response.status_code == 200, (label, response.status_code)
            times: list[float] = []
            cpu_times: list[float] = []
            with override_settings(DEBUG=False):
                for _ in range(5):  # warm-up: template loading, first connection
                    client.get(url())
                for _ in range(n):
                    target = url()
                    started, cpu = time.perf_counter(), time.process_time()
                    response = client.get(target)
                    times.append((time.perf_counter() - started) * 1000)
                    cpu_times.append((time.process_time() - cpu) * 1000)
                    if response.status_code != 200:
                        raise CommandError(f"{target} answered {response.status_code}")
            self.stdout.write(f"{label:<50} {statistics.median(times):>8.1f} "
                              f"{_percentile(times, 0.95):>8.1f} {max(times):>8.1f} "
                              f"{statistics.median(cpu_times):>8.1f} "
                              f"{_percentile(cpu_times, 0.95):>8.1f} {query_count:>8}")
        self.stdout.write("Target: p95 <= 50 ms. Wall time is the server time in-process "
                          "(SQLite file); CPU time is this process's share, which other "
                          "load on the machine does not inflate.")
