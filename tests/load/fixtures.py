"""The Django side of the harness: accounts, sessions, tables, and the checks after a run.

Runs in the harness process with the layout's environment (the same database and Redis
as the servers), through the ORM and the services, never through HTTP forms: a real
account with a real session row per player, tables created, seated and started by
their owner as the site does.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any


def setup_django(env: dict[str, str]) -> None:
    """Point this process at the layout (call once, before any Django import)."""
    for key in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "REDIS_URL", "KOZEL_REDIS_PREFIX",
                "KOZEL_CELERY_QUEUE", "KOZEL_RUN_DIR", "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS",
                "LOG_LEVEL", "KOZEL_PRESENCE_HEARTBEAT_SECONDS", "KOZEL_BROKER_URL",
                "KOZEL_CHANNEL_LAYER"):
        if key in env:
            os.environ[key] = env[key]
        else:
            os.environ.pop(key, None)
    import django

    django.setup()


@dataclass
class TableSpec:
    """A table of the run: its players' session keys by position, bots elsewhere."""

    table_id: int
    owner_id: int
    humans: dict[int, str]  # position -> session key
    bots: list[int] = field(default_factory=list)


def session_for(user: Any) -> str:
    """A committed, signed-in session for ``user`` (what the login view stores)."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    from accounts import language

    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    # A sign-in keeps the profile's language in the session (accounts.language.on_login).
    language.remember(store, language.profile_language(user))
    store.save()
    return str(store.session_key)


def make_user(username: str) -> Any:
    from django.contrib.auth import get_user_model

    user = get_user_model()(username=username, email=f"{username}@load.invalid")
    user.set_unusable_password()
    user.save()
    return user


def make_tables(count: int, bots: int = 0, *, label: str = "load", target: int = 6,
                level: str = "casual", start: bool = True,
                visibility: str = "public", clock: int | None = None) -> list[TableSpec]:
    """``count`` tables of 4 seats: ``bots`` of them bots (positions 1, 3, 2, 0 in that
    order, so that two bots sit opposite each other), the rest signed-in people; with a
    turn ``clock`` of that many seconds, as ranked and tournament tables have (each
    move then arms the next player's timeout task)."""
    from games.services import series as series_service
    from games.services import tables

    bot_positions = [1, 3, 2, 0][:bots]
    specs = []
    for t in range(count):
        people = [make_user(f"{label}{t}p{p}") for p in range(4)]
        owner = people[0]
        table = tables.create_table(owner, tables.TableSettings(
            name=f"{label} {t}", series_target=target, visibility=visibility,
            turn_seconds=clock))
        humans: dict[int, str] = {}
        for position in range(4):
            if position in bot_positions:
                tables.add_bot(table.pk, owner, position, level)
            else:
                tables.take_seat(table.pk, people[position], position)
                humans[position] = session_for(people[position])
        if start:
            series_service.start_series(table.pk, owner)
        specs.append(TableSpec(table.pk, owner.pk, humans, bot_positions))
    return specs


def restart_finished_series(specs: list[TableSpec]) -> int:
    """The owner of a table whose series ended starts the next one (as a person would)."""
    from django.contrib.auth import get_user_model

    from games.errors import ServiceError
    from games.models import Table
    from games.services import series as series_service

    by_id = {s.table_id: s for s in specs}
    started = 0
    ended = [Table.Status.OPEN, Table.Status.FINISHED]
    for table_id in Table.objects.filter(pk__in=by_id, status__in=ended) \
            .values_list("pk", flat=True):
        owner = get_user_model().objects.get(pk=by_id[table_id].owner_id)
        try:
            series_service.start_series(table_id, owner)
            started += 1
        except ServiceError:
            pass
    return started


def progress(table_ids: list[int]) -> dict[int, tuple[int, int]]:
    """Per table, the (game id, version) being played, or (-1, -1) between games."""
    from games.models import Game

    rows = (Game.objects.filter(series__table_id__in=table_ids, status=Game.Status.PLAYING)
            .values_list("series__table_id", "id", "version"))
    found = {t: (-1, -1) for t in table_ids}
    for table_id, game_id, version in rows:
        found[table_id] = max(found[table_id], (game_id, version))
    return found


def close_db() -> None:
    from django.db import connections

    connections.close_all()


# --- the checks after a run -------------------------------------------------------------


def check_moves(specs: list[TableSpec], acts: list[Any]) -> dict[str, Any]:
    """Every accepted action in the Move log exactly once; no Move nobody sent.

    - a Move by a player must match an act a client sent on the version before it, from
      that seat, with those cards (else: *phantom*);
    - an act the server did not refuse (its fence, a ping sent right after it, came back
      with no error before it) must be that Move (else: *lost*); an act the server
      refused must not be one (*refused but stored*). Acts in flight on a socket that
      died may go either way.
    - a Move by a bot must be at a seat a bot holds in the series roster.
    """
    from games.models import Move, SeriesSeat

    table_ids = [s.table_id for s in specs]
    moves = list(Move.objects.filter(game__series__table_id__in=table_ids)
                 .values_list("game_id", "seq", "seat", "kind", "cards", "source",
                              "game__series_id"))
    bot_seats = {(series_id, position) for series_id, position in SeriesSeat.objects.filter(
        series__table_id__in=table_ids, bot_level__gt="").values_list("series_id", "position")}
    sent: dict[tuple[int, int, int], list[Any]] = {}
    for act in acts:
        sent.setdefault((act.game_id, act.version, act.seat), []).append(act)
    stored: Counter[tuple[int, int]] = Counter()
    by_key: dict[tuple[int, int], tuple[Any, ...]] = {}
    sources: Counter[str] = Counter()
    problems: list[str] = []
    for game_id, seq, seat, kind, cards, source, series_id in moves:
        stored[(game_id, seq)] += 1
        by_key[(game_id, seq)] = (seat, kind, list(cards), source)
        sources[source] += 1
        if source == Move.Source.PLAYER:
            matching = [a for a in sent.get((game_id, seq - 1, seat), [])
                        if a.kind == kind and a.cards == list(cards)]
            if not matching:
                problems.append(f"phantom move: game {game_id} seq {seq} seat {seat}")
            elif all(a.reply not in (None, "none", "unsent") for a in matching):
                # every act that could be this Move was refused by the server
                problems.append(f"refused but stored: game {game_id} seq {seq}")
        elif source == Move.Source.BOT and (series_id, seat) not in bot_seats:
            problems.append(f"bot move at a person's seat: game {game_id} seq {seq}")
    problems += [f"move stored twice: game {g} seq {s}" for (g, s), n in stored.items() if n > 1]
    accepted = seen = lost = in_flight = 0
    for act in acts:
        move = by_key.get((act.game_id, act.version + 1))
        mine = move is not None and move[0] == act.seat and move[1] == act.kind \
            and move[2] == act.cards and move[3] == Move.Source.PLAYER
        seen += act.seen_accepted
        if act.reply == "none":  # its fence came back with no refusal: the server took it
            accepted += 1
            if not mine:
                lost += 1
                problems.append(f"lost: game {act.game_id} v{act.version} seat {act.seat}"
                                f" (stored: {move})")
        elif act.reply is None:
            in_flight += 1
    return {"moves": len(moves), "by_source": dict(sources), "acts_sent": len(acts),
            "acts_accepted": accepted, "acts_seen_in_next_event": seen,
            "acts_in_flight_at_a_fault": in_flight,
            "lost": lost, "problems": problems[:50], "problem_count": len(problems)}


def latencies(specs: list[TableSpec], acts: list[Any],
              trackers: dict[int, Any]) -> list[float]:
    """Round trips of the accepted player actions: sent → the table's last client has
    its event, from the Move log's word on whose act it was."""
    return [latency for _sent, latency, _kind in kinded_latencies(specs, acts, trackers)]


def kinded_latencies(specs: list[TableSpec], acts: list[Any],
                     trackers: dict[int, Any]) -> list[tuple[float, float, str]]:
    """:func:`latencies` with each act's send time (monotonic), to see when slow moves
    happen (a steady queue, or bursts such as many games ending at once), and what
    each move did (``clients.event_kind``)."""
    from games.models import Move

    table_ids = [s.table_id for s in specs]
    owner = {(g, s): seat for g, s, seat in Move.objects.filter(
        game__series__table_id__in=table_ids, source=Move.Source.PLAYER)
        .values_list("game_id", "seq", "seat")}
    samples = []
    for act in acts:
        key = (act.game_id, act.version + 1)
        if owner.get(key) != act.seat:
            continue
        done = trackers[act.table_id].done.get(key)
        if done is not None:
            samples.append((act.sent, done - act.sent,
                            trackers[act.table_id].kinds.get(key, "play")))
    return samples


def finished_counts(specs: list[TableSpec]) -> dict[str, int]:
    from games.models import Game, Series

    ids = [s.table_id for s in specs]
    return {
        "games_finished": Game.objects.filter(series__table_id__in=ids,
                                              status=Game.Status.FINISHED).count(),
        "games_playing": Game.objects.filter(series__table_id__in=ids,
                                             status=Game.Status.PLAYING).count(),
        "series_finished": Series.objects.filter(table_id__in=ids).exclude(
            status=Series.Status.PLAYING).count(),
    }


def verify_all() -> dict[str, Any]:
    """``verify_games --all`` on the run's database, on one REPEATABLE READ snapshot.

    The site is still running when this is called (bots play on): ``verify`` reads the
    games, then their moves, in separate queries, and a bot move committed in between
    showed up as "move seq N beyond version N-1" (a false anomaly) until it read one
    snapshot."""
    from django.db import connection, transaction

    from games import verify

    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        report = verify.verify(verify.select_games(everything=True))
    return {"games": report.games, "series": report.series,
            "anomalies": [str(a) for a in report.anomalies[:50]],
            "anomaly_count": len(report.anomalies)}
