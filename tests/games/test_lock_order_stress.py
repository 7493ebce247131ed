"""Live play under contention, on PostgreSQL: the one lock order holds (docs/architecture.md).

Several threads, each with its own database connection, drive the same few tables at
once for :data:`STRESS_SECONDS` through every service path that locks more than one of
Table, Series and Game (services/locks.py): people's moves (both entry points), clock
timeouts, bot turns, absence takeovers, reclaims, leaving, pause/resume votes, the
sweep, the empty-table sweep, next games and series restarts. Each thread picks what
applies to a table's current state at random, from a fixed seed.

What must hold, at the end and, for the last three, on snapshots taken during the run
(a field written from a stale copy is often put right by the next move):

- no call raised anything but a typed refusal (``ServiceError``): a deadlock would come
  out of psycopg as ``DeadlockDetected`` ("deadlock detected"), a lost update of a move
  as a duplicate Move seq;
- nothing written was lost: every game replays from its seed and moves to its stored
  state with Move seqs 1..version, and each series' score is the sum of its games
  (``verify_games``); each roster row is a person xor a bot, ``away_user`` only under a
  bot, the person the table seated; each seat's ``timeouts_in_row`` is what its
  timeouts, own moves and takeovers say; the clock fields of each game agree with its
  state.

Broadcasts are counted instead of sent (they go out after commit and hold no lock), and
the sweep rescues stalled games at once instead of after 5 s, so that it races the
threads. SQLite serialises every writer (IMMEDIATE transactions), so there is nothing to
find there: the test runs on PostgreSQL only (CI runs it there and must not skip it).
"""

from __future__ import annotations

import random
import threading
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta
from functools import partial
from typing import Any

import pytest
from django.db import connection, connections, transaction
from django.utils import timezone

from games import engine, events
from games import presence as presence_store
from games.errors import ServiceError
from games.models import Conduct, Game, Move, Seat, Series, SeriesSeat, Table
from games.services import absence, clock, play, sweep, tables, votes
from games.services import series as series_service
from tests.games.conftest import make_user
from tests.games.helpers import assert_games_verified
from tests.presence import clear_table

pytestmark = [pytest.mark.slow]

STRESS_SECONDS = 20.0
THREADS = 8
PEOPLE_TABLES = 3
TURN_SECONDS = 15
TARGET = 6  # R18: short series, so that many of them end and are started again
BOT_LEVEL = "casual"
HEARTBEAT_EVERY = 0.5  # the test settings let an entry live 3 s without a heartbeat
WATCH_EVERY = 0.2
FAR_FUTURE = timedelta(hours=1)


# --- the world the threads share ------------------------------------------------------


@dataclass
class World:
    """The tables being played and who has them open (the heartbeat thread's list)."""

    table_ids: list[int]
    owners: dict[int, Any]
    users: dict[int, Any]
    present: set[tuple[int, int]] = field(default_factory=set)  # (table id, user id)
    replaced: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def tables(self) -> list[int]:
        with self.lock:
            return list(self.table_ids)

    def arrive(self, table_id: int, user: Any) -> None:
        absence.connected(table_id, conn_of(user), user)
        with self.lock:
            self.present.add((table_id, user.pk))

    def go_away(self, table_id: int, user: Any) -> None:
        with self.lock:
            self.present.discard((table_id, user.pk))
        absence.disconnected(table_id, conn_of(user), user)


def conn_of(user: Any) -> str:
    return f"stress-conn-{user.pk}"


@dataclass
class Tally:
    """What the threads tried, what was applied, and what was refused, per kind."""

    attempted: Counter[str] = field(default_factory=Counter)
    applied: Counter[str] = field(default_factory=Counter)
    refused: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    deadlocks: int = 0
    snapshots: int = 0  # consistent snapshots the watcher checked during the run
    seen: list[str] = field(default_factory=list)  # what the watcher found
    lock: threading.Lock = field(default_factory=threading.Lock)


def is_deadlock(exc: BaseException) -> bool:
    seen: BaseException | None = exc
    while seen is not None:
        if type(seen).__name__ == "DeadlockDetected" or "deadlock detected" in str(seen):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def set_up_table(name: str, people: list[Any], bots: dict[int, str]) -> Table:
    """A casual table with a clock: ``people`` at the free seats, ``bots`` at theirs,
    series started by the first person (the owner)."""
    owner = people[0]
    table = tables.create_table(owner, tables.TableSettings(
        name=name, turn_seconds=TURN_SECONDS, series_target=TARGET))
    people_left = list(people)
    for position in range(4):
        if position in bots:
            tables.add_bot(table.pk, owner, position, bots[position])
        else:
            tables.take_seat(table.pk, people_left.pop(0), position)
    series_service.start_series(table.pk, owner)
    return table


# --- what can be done at a table now --------------------------------------------------


@dataclass
class Snapshot:
    """A table as a client would see it: read without locks, possibly stale by the time
    the action reaches the service (that is the point)."""

    table: Table
    series: Series | None
    game: Game | None
    roster: list[SeriesSeat]

    @property
    def live_game(self) -> Game | None:
        game = self.game
        if (game is None or game.status != Game.Status.PLAYING or self.series is None
                or self.series.status != Series.Status.PLAYING):
            return None
        return game


def snapshot(table_id: int) -> Snapshot:
    table = Table.objects.get(pk=table_id)
    series = table.series.order_by("-number").first()
    game = series.games.order_by("-number").first() if series else None
    roster = list(SeriesSeat.objects.filter(series=series).order_by("position")) if series else []
    return Snapshot(table, series, game, roster)


def choices(snap: Snapshot, world: World, rng: random.Random) -> list[tuple[str, float, Any]]:
    """``(kind, weight, call)`` for everything that applies to ``snap``."""
    users, table = world.users, snap.table
    out: list[tuple[str, float, Any]] = [
        ("sweep", 0.4, sweep_once),
        ("close_empty", 0.15, partial(sweep.close_empty_tables, timezone.now() + FAR_FUTURE)),
    ]
    if table.status == Table.Status.ABANDONED:
        out.append(("replace_table", 5.0, partial(replace_table, world, table)))
        return out
    if table.status == Table.Status.FINISHED:
        out.append(("start_series", 5.0, partial(series_service.start_series, table.pk,
                                                 world.owners[table.pk])))
        return out
    series, game = snap.series, snap.game
    if series is None or series.status != Series.Status.PLAYING or game is None:
        return out
    people = [users[s.user_id] for s in snap.roster if s.user_id]
    away = [users[s.away_user_id] for s in snap.roster if s.away_user_id and not s.gave_up]
    if game.status != Game.Status.PLAYING:
        out.append(("next_game", 5.0,
                    partial(series_service.start_next_game, series.pk, game.number)))
    if away:
        out.append(("reclaim", 3.0, partial(reclaim, world, table.pk, rng.choice(away))))
    if people and rng.random() < 0.02:
        out.append(("leave", 1.0, partial(clock.leave_series, table.pk, rng.choice(people))))
    live = snap.live_game
    if live is None:
        return out
    if live.paused:
        if people:
            out.append(("vote_resume", 2.0,
                        partial(votes.cast_vote, table.pk, rng.choice(people), "resume")))
        return out
    state = engine.GameState.from_dict(live.state)
    version = live.version
    person_at = {s.position: users[s.user_id] for s in snap.roster if s.user_id}
    movers = [seat for seat in engine.seats_to_act(state) if seat in person_at]
    if movers:
        seat = rng.choice(movers)
        action = rng.choice(engine.legal_actions(state, seat)).to_dict()
        if rng.random() < 0.5:
            move = partial(play.submit_action, live.pk, person_at[seat], action, version)
        else:
            move = partial(play.submit_table_action, table.pk, person_at[seat], action,
                           version, game_id=live.pk)
        out.append(("move", 8.0, move))
    if live.turn_deadline is not None:
        out.append(("timeout", 2.0, partial(time_out, live.pk, version)))
    if any(s.bot_level for s in snap.roster):
        out.append(("bot_turn", 3.0, partial(play.play_bot_turn, live.pk, version)))
    if live.turn_seat in person_at:
        out.append(("takeover", 1.0, partial(take_over, world, table.pk,
                                             person_at[live.turn_seat], live.pk, version)))
    if people:
        out.append(("vote_pause", 0.5,
                    partial(votes.cast_vote, table.pk, rng.choice(people), "pause")))
    return out


def sweep_once() -> int:
    """One beat of the backstop; how many rescues it made."""
    done = sweep.sweep()
    return sum(count for name, count in done.items() if name != "presence_reaped")


def applied(kind: str, result: Any) -> int:
    """How many changes a call's return value reports (votes: whether one carried)."""
    if kind.startswith("vote_"):
        return int(result["carried"])
    if kind in ("sweep", "close_empty"):
        return result
    if kind == "leave":
        return 1  # leave_series returns nothing; not raising is the change
    return int(result is not None and result is not False)


def time_out(game_id: int, version: int) -> int | None:
    """The clock of ``version`` runs out now (as if 15 s had passed), then the task fires."""
    Game.objects.filter(pk=game_id, version=version, paused=False,
                        turn_deadline__isnull=False).update(
        turn_deadline=timezone.now() - timedelta(seconds=1))
    return play.play_timeout(game_id, version)


def take_over(world: World, table_id: int, user: Any, game_id: int, version: int) -> bool:
    """The person on turn closes the table and stays away past the grace."""
    world.go_away(table_id, user)
    return clock.abandon_if_disconnected(game_id, version, timezone.now() + FAR_FUTURE)


def reclaim(world: World, table_id: int, user: Any) -> int:
    world.arrive(table_id, user)
    return clock.reclaim_seat(table_id, user)


def replace_table(world: World, closed: Table) -> Table | None:
    """The empty-table sweep closed a table: its people open a new one, so play goes on."""
    with world.lock:
        if closed.pk not in world.table_ids:
            return None  # another thread replaced it already
        index = world.table_ids.index(closed.pk)
        world.table_ids[index] = -1  # claimed
        world.present = {(t, u) for t, u in world.present if t != closed.pk}
    seats = list(Seat.objects.filter(table=closed).order_by("position"))
    people = [world.users[s.user_id] for s in seats if s.user_id]
    bots = {s.position: s.bot_level for s in seats if s.bot_level}
    table = set_up_table(f"{closed.name}+", people, bots)
    for user in people:
        world.arrive(table.pk, user)
    with world.lock:
        world.owners[table.pk] = people[0]
        world.table_ids[index] = table.pk
        world.replaced += 1
    return table


# --- the threads ----------------------------------------------------------------------


def player_thread(number: int, world: World, tally: Tally, deadline: float) -> None:
    rng = random.Random(f"lock-order-stress/{number}")
    try:
        while time.monotonic() < deadline:
            table_ids = [t for t in world.tables() if t > 0]
            if not table_ids:  # every table is being replaced right now
                continue
            snap = snapshot(rng.choice(table_ids))
            options = choices(snap, world, rng)
            kind, _weight, call = rng.choices(options, weights=[w for _, w, _ in options])[0]
            with tally.lock:
                tally.attempted[kind] += 1
            try:
                result = call()
            except ServiceError as exc:
                with tally.lock:
                    tally.refused[exc.code] += 1
                continue
            except Exception as exc:  # noqa: BLE001 - every other exception fails the test
                with tally.lock:
                    tally.deadlocks += is_deadlock(exc)
                    tally.failures.append(f"thread {number}, {kind}:\n{traceback.format_exc()}")
                continue
            with tally.lock:
                tally.applied[kind] += applied(kind, result)
    except Exception:  # noqa: BLE001 - the harness itself broke: report it the same way
        with tally.lock:
            tally.failures.append(f"thread {number} (harness):\n{traceback.format_exc()}")
    finally:
        connections.close_all()


def heartbeat_thread(world: World, stop: threading.Event) -> None:
    """Every present person's socket beats, so presence counts them as at the table."""
    while not stop.wait(HEARTBEAT_EVERY):
        with world.lock:
            present = list(world.present)
        for table_id, user_id in present:
            presence_store.touch(table_id, conn_of(world.users[user_id]), user_id)


# --- the checks -----------------------------------------------------------------------


def roster_problems() -> list[str]:
    """Each roster row is a person xor a bot, away_user only under a bot, gave_up only
    for someone away, and the person is who the table seated at that position."""
    out = []
    lobby = {(s.table_id, s.position): s for s in Seat.objects.all()}
    for row in SeriesSeat.objects.select_related("series"):
        where = f"series {row.series_id} seat {row.position}"
        if (row.user_id is None) == (not row.bot_level):
            out.append(f"{where}: user {row.user_id} and bot {row.bot_level!r}")
        if row.away_user_id and not row.bot_level:
            out.append(f"{where}: away_user {row.away_user_id} without a bot")
        if row.gave_up and not row.away_user_id:
            out.append(f"{where}: gave up but nobody is away")
        seated = lobby[(row.series.table_id, row.position)]
        if row.person_id != seated.user_id:
            out.append(f"{where}: person {row.person_id}, the table seated {seated.user_id}")
        if seated.bot_level and row.bot_level != seated.bot_level:
            out.append(f"{where}: the table's bot {seated.bot_level} became {row.bot_level!r}")
    return out


def timeout_run_problems() -> list[str]:
    """``timeouts_in_row`` of every seat is what its history says: +1 per timeout,
    back to 0 when the person plays themselves or a bot takes the seat over.

    Every writer of the counter holds the series' lock, so the history is in the order of
    the rows' creation times."""
    # (when, 0 a move or 1 a Conduct row, its id, whether a timeout): a timeout and the
    # takeover it causes are Conduct rows of one transaction, in id order.
    events: dict[tuple[int, int], list[tuple[Any, int, int, bool]]] = {}
    for series_id, seat, at, pk in (Move.objects.filter(source=Move.Source.PLAYER)
                                    .values_list("game__series_id", "seat", "created_at", "pk")):
        events.setdefault((series_id, seat), []).append((at, 0, pk, False))
    for series_id, seat, at, pk, kind in Conduct.objects.values_list(
            "series_id", "position", "created_at", "pk", "kind"):
        if kind != Conduct.Kind.RECLAIM:
            events.setdefault((series_id, seat), []).append(
                (at, 1, pk, kind == Conduct.Kind.TIMEOUT))
    out = []
    for row in SeriesSeat.objects.all():
        expected = 0
        for *_order, timeout in sorted(events.get((row.series_id, row.position), [])):
            expected = expected + 1 if timeout else 0
        if row.timeouts_in_row != expected:
            out.append(f"series {row.series_id} seat {row.position}: timeouts_in_row "
                       f"{row.timeouts_in_row}, its history says {expected}")
    return out


def clock_problems() -> list[str]:
    """The clock fields of each game agree with its state and its roster."""
    out = []
    for game in Game.objects.select_related("series__table").prefetch_related("series__roster"):
        where = f"game {game.pk} (v{game.version})"
        if game.status != Game.Status.PLAYING:
            if game.turn_seat is not None or game.turn_deadline is not None:
                out.append(f"{where}: {game.status} with a turn seat or a deadline")
            continue
        state = engine.GameState.from_dict(game.state)
        if game.turn_seat != state.turn:
            out.append(f"{where}: turn_seat {game.turn_seat}, the state's turn {state.turn}")
            continue
        person = {s.position for s in game.series.roster.all() if s.user_id}
        if game.paused or state.turn not in person:
            if game.turn_deadline is not None:
                out.append(f"{where}: a deadline while paused or on a bot's turn")
        elif game.series.table.turn_seconds and game.turn_deadline is None:
            out.append(f"{where}: a person's turn at a table with a clock, no deadline")
    return out


def table_problems() -> list[str]:
    out = []
    for table in Table.objects.all():
        playing = table.series.filter(status=Series.Status.PLAYING).count()
        if playing > 1 or (playing == 1) != (table.status == Table.Status.PLAYING):
            out.append(f"table {table.pk} is {table.status} with {playing} series playing")
    return out


def consistency_problems() -> list[str]:
    return roster_problems() + timeout_run_problems() + clock_problems() + table_problems()


def watcher_thread(tally: Tally, stop: threading.Event) -> None:
    """Check the invariants on committed snapshots *during* the run, too: a field written
    from a stale copy is often put right by the next move, and would be missed at the end.

    Each check runs in one REPEATABLE READ transaction (one snapshot of every row)."""
    try:
        while not stop.wait(WATCH_EVERY):
            with transaction.atomic():
                with connection.cursor() as cursor:
                    cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                problems = consistency_problems()
            with tally.lock:
                tally.snapshots += 1
                tally.seen.extend(p for p in problems if p not in tally.seen)
    except Exception:  # noqa: BLE001 - report it like any other failure
        with tally.lock:
            tally.failures.append(f"watcher:\n{traceback.format_exc()}")
    finally:
        connections.close_all()


def test_lock_order_holds_under_contention(postgresql: None,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    # The sweep rescues at once what it would rescue 5 s later (a lost bot task, a next
    # game not dealt), so that it races the threads on the same games.
    monkeypatch.setattr(sweep, "STALL_GRACE", timedelta(0))
    # Broadcasts go out after commit, holding no lock; sending them to Redis would only
    # slow the threads down (fewer collisions per second). They are counted instead.
    broadcasts = Counter[str]()
    monkeypatch.setattr(events, "send_events", lambda messages: broadcasts.update(
        message["type"] for _, message in messages))
    users: dict[int, Any] = {}
    owners: dict[int, Any] = {}
    table_ids: list[int] = []
    for t in range(PEOPLE_TABLES + 1):
        with_bots = t == PEOPLE_TABLES
        people = [make_user(f"s{t}p{i}") for i in range(2 if with_bots else 4)]
        users.update({u.pk: u for u in people})
        table = set_up_table(f"stress {t}", people,
                             {2: BOT_LEVEL, 3: BOT_LEVEL} if with_bots else {})
        owners[table.pk] = people[0]
        table_ids.append(table.pk)
    world = World(table_ids, owners, users)
    for table_id in table_ids:
        for seat in Seat.objects.filter(table_id=table_id, user__isnull=False):
            world.arrive(table_id, users[seat.user_id])

    tally = Tally()
    stop = threading.Event()
    beat = threading.Thread(target=heartbeat_thread, args=(world, stop), name="heartbeat")
    watcher = threading.Thread(target=watcher_thread, args=(tally, stop), name="watcher")
    started = time.monotonic()
    deadline = started + STRESS_SECONDS
    threads = [threading.Thread(target=player_thread, args=(n, world, tally, deadline),
                                name=f"stress-{n}") for n in range(THREADS)]
    beat.start()
    watcher.start()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=STRESS_SECONDS + 60)
    stop.set()
    beat.join()
    watcher.join()
    for table_id, user_id in world.present:
        presence_store.drop(table_id, conn_of(users[user_id]), user_id)
    for table_id in Table.objects.values_list("pk", flat=True):
        clear_table(table_id)
    duration = time.monotonic() - started
    assert not any(t.is_alive() for t in threads), "a stress thread hangs (a lock wait?)"

    games = Counter(Game.objects.values_list("status", flat=True))
    series = Counter(Series.objects.values_list("status", flat=True))
    print(f"\nlock-order stress: {THREADS} threads, {duration:.1f} s, "
          f"{sum(tally.attempted.values())} actions attempted")
    print(f"  attempted: {dict(sorted(tally.attempted.items()))}")
    print(f"  applied:   {dict(sorted(tally.applied.items()))}")
    print(f"  refused:   {dict(sorted(tally.refused.items()))}")
    print(f"  moves stored {Move.objects.count()}, games {dict(games)}, series {dict(series)}, "
          f"tables replaced {world.replaced}, broadcasts {sum(broadcasts.values())}")
    print(f"  unexpected exceptions {len(tally.failures)} (deadlocks {tally.deadlocks}); "
          f"{tally.snapshots} snapshots checked during the run, {len(tally.seen)} problems")

    if tally.failures:
        pytest.fail(f"{len(tally.failures)} calls raised something other than a refusal "
                    f"({tally.deadlocks} deadlocks); the first:\n" + "\n".join(tally.failures[:3]),
                    pytrace=False)
    assert tally.applied["move"] >= 50 and games[Game.Status.FINISHED] >= 1, \
        "the stress must actually play"
    assert_games_verified()  # Move seqs 1..version, state = replay, series score = its games
    if tally.seen:
        pytest.fail("lost updates seen during the run:\n" + "\n".join(tally.seen), pytrace=False)
    problems = consistency_problems()
    if problems:
        pytest.fail("lost updates at the end:\n" + "\n".join(problems), pytrace=False)
