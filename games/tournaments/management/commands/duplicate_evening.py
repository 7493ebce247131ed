"""``python manage.py duplicate_evening``: run a whole duplicate evening and time it.

Creates a club of its own (a fresh slug each run), its director and the people of the
pairs (verified addresses, no password: nobody can sign in as them), a duplicate event
with a bot pair, starts it, and plays the people's part through the services
(games/tournaments/evening.py) while Celery workers play the bots, deal the next games,
end the matches and start the rounds. Prints how long the evening took, and the
standings. The event stays in the database, finished, like any other.

It writes to the configured database: point ``DATABASE_URL`` at a throwaway one.
Workers: those already running (``make run``), or ``--in-process-worker`` for one
started here (a thread pool consuming the default queue, as the tests start it). The
bots play at the site's pace (``KOZEL_BOT_DELAY_SECONDS``, ``KOZEL_NEXT_GAME_DELAY_SECONDS``;
set both to 0 to time the server alone).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/kozel_bench \\
        python manage.py duplicate_evening --in-process-worker
    python manage.py duplicate_evening --rounds 3 --boards 2 --people-pairs 3 --bot-pairs 1
"""

from __future__ import annotations

import contextlib
import random
import secrets
import time
from collections.abc import Callable, Iterator
from typing import Any

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.errors import ServiceError
from games.tournaments import duplicate_reads, evening
from games.tournaments.models import Membership
from games.tournaments.services import clubs, director, events


def _person(name: str) -> User:
    user = get_user_model().objects.create_user(name, f"{name}@example.invalid")
    user.set_unusable_password()
    user.save(update_fields=["password"])
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def _idle(check: Callable[[], bool], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not check() and time.monotonic() < deadline:
        time.sleep(0.05)  # polling the database, as a browser's page would


@contextlib.contextmanager
def _worker(start: bool) -> Iterator[None]:
    if not start:
        yield
        return
    from celery import current_app as app  # the site's app (kozel_site.celery) by then
    from celery.contrib.testing.worker import start_worker

    with start_worker(app, pool="threads", concurrency=2, perform_ping_check=False,
                      shutdown_timeout=20, loglevel="WARNING",
                      queues=[app.conf.task_default_queue]) as worker:
        yield
        app.control.shutdown(destination=[worker.hostname])  # type: ignore[attr-defined]


class Command(BaseCommand):
    help = "Run a whole duplicate evening (people through the services, bots on workers)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--rounds", type=int, default=3)
        parser.add_argument("--boards", type=int, default=2, help="boards per round (1-8)")
        parser.add_argument("--people-pairs", type=int, default=3)
        parser.add_argument("--bot-pairs", type=int, default=1)
        parser.add_argument("--scoring", default="matchpoints",
                            choices=["matchpoints", "difference"])
        parser.add_argument("--timeout", type=float, default=900.0)
        parser.add_argument("--seed", type=int, default=41, help="the people's choices")
        parser.add_argument("--in-process-worker", action="store_true",
                            help="start a Celery worker in this process")

    def handle(self, *args: Any, **options: Any) -> None:
        people_pairs, bot_pairs = max(0, options["people_pairs"]), max(0, options["bot_pairs"])
        tag = secrets.token_hex(3)
        owner = _person(f"dup-{tag}-director")
        club = clubs.create_club(owner, clubs.ClubSettings(
            name=f"Duplicate evening {tag}", slug=f"duplicate-{tag}"))
        players = [_person(f"dup-{tag}-p{i:02d}") for i in range(2 * people_pairs)]
        Membership.objects.bulk_create(Membership(club=club, user=p) for p in players)
        try:
            t = events.create_tournament(club.pk, owner, events.EventSettings(
                name=f"Duplicate evening {tag}", format="duplicate", rounds=options["rounds"],
                boards_per_round=options["boards"], duplicate_scoring=options["scoring"],
                bots_allowed=bot_pairs > 0, checkin_seconds=300, round_seconds=3600,
                break_seconds=0))
            for first, second in zip(players[::2], players[1::2], strict=True):
                entry = events.register(t.pk, first, second.get_username())
                events.confirm_partner(t.pk, second, entry.pk)
            for _ in range(bot_pairs):
                director.perform(t.pk, owner, "add_bot", {"level": "random"})
            with _worker(options["in_process_worker"]):
                # The service refuses a field the movement cannot seat (odd, under 4).
                director.perform(t.pk, owner, "start", {})
                took = evening.run(t, random.Random(options["seed"]), options["timeout"],
                                   _idle)
        except ServiceError as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(
            f"duplicate evening {t.pk}: {people_pairs + bot_pairs} pairs "
            f"({bot_pairs} bot), {t.rounds} rounds x {options['boards']} boards, "
            f"{options['scoring']}: {took:.1f} s")
        for row in duplicate_reads.standings(t).rows:
            place = "-" if row.place is None else str(row.place)
            self.stdout.write(f"  {place:>2}  {float(row.percent):6.2f} %"
                              f"  {row.entry.name}{' (bot)' if row.entry.is_bot else ''}")
