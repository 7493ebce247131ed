"""Hostile traffic: malformed and hostile frames beside live games, and dropped sockets.

The fuzzer's sockets are the seated players of *fuzz tables* (four signed-in people
whose game nobody plays legally, so it must stay at version 0) and spectators (signed in
or not) of the live tables and the fuzz tables. Each frame comes from a category with
the replies games/WEBSOCKET.md documents for it; a socket sends one, reads until its
reply (skipping the pushes: events, snapshots, chat, notices) and checks it. Bursts are
sent without waiting, by sockets of their own, which must see ``rate_limited`` and,
after five strikes, a close with 4008; they then reconnect.

After the attack: no server error in any log, the fuzz tables' rows exactly as before,
no chat line stored, and the live games' Move log only what their clients sent.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import resource
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from websockets.exceptions import ConnectionClosed

from tests.load import fixtures
from tests.load.clients import CONNECT_ERRORS, open_socket, pause
from tests.load.layout import Layout, say
from tests.load.measure import (
    cpu_seconds,
    latency_targets,
    load_average,
    percentiles,
    ratio_to_floor,
)
from tests.load.runner import Run

PUSHES = {"event", "chat", "notice", "chat_hidden"}
CODES = {"bad_frame", "unknown_type", "invalid", "not_found", "forbidden", "not_your_seat",
         "stale", "illegal", "game_over", "rate_limited", "no_game"}
DECK = [r + s for r in "6789TJQKA" for s in "CDHS"]
TYPES = ["act", "resync", "chat", "ping", "vote", "reclaim"]


def _random_json(depth: int = 0) -> Any:
    pick = random.random()
    if depth > 3 or pick < 0.3:
        return random.choice([None, True, False, 0, -1, 2 ** 70, 1.5e300, "", "x" * 50,
                              "TD", "💥", random.randint(-10 ** 9, 10 ** 9)])
    if pick < 0.6:
        return [_random_json(depth + 1) for _ in range(random.randint(0, 4))]
    return {random.choice(["type", "action", "version", "game_id", "text", "kind", "cards",
                           "nonce", "💥", ""]): _random_json(depth + 1)
            for _ in range(random.randint(0, 4))}


@dataclass
class Target:
    """What a fuzzing socket knows about its table (from its own snapshot)."""

    table_id: int
    seated: bool
    signed_in: bool
    version: int = 0
    game_id: int | None = None
    hand: list[str] = field(default_factory=list)
    other_game_ids: list[int] = field(default_factory=list)


def frame_for(category: str, t: Target) -> tuple[str | bytes, set[str]]:
    """A hostile frame of ``category`` and the replies allowed for it (error codes,
    ``pong`` or ``snapshot``)."""
    not_mine = [c for c in DECK if c not in t.hand] or DECK
    act_refusals = ({"illegal", "stale", "game_over", "no_game", "not_found"}
                    | ({"not_your_seat"} if not t.seated else set()))
    if category == "random_json":
        value = _random_json()
        if isinstance(value, dict) and value.get("type") in TYPES:
            value["type"] = "x" + str(value["type"])
        return json.dumps(value), {"bad_frame", "unknown_type"}
    if category == "not_json":
        text = "".join(random.choice("{[\"':,}] \\x\u0000\u00ff") for _ in range(
            random.randint(1, 60)))
        try:
            json.loads(text)
            text = "{" + text  # make sure it is not JSON
        except (ValueError, RecursionError):
            pass
        return text, {"bad_frame"}
    if category == "binary":
        return bytes(random.getrandbits(8) for _ in range(random.randint(1, 64))), {"bad_frame"}
    if category == "too_large":
        return json.dumps({"type": "chat", "text": "x" * random.randint(4100, 9000)}), \
            {"bad_frame"}
    if category == "deep":
        depth = random.randint(1100, 2040)
        if random.random() < 0.5:
            return "[" * depth + "]" * depth, {"bad_frame"}
        return '{"type":"act","action":' + '{"a":' * 600 + "1" + "}" * 600 + \
            ',"version":0}', {"invalid"}
    if category == "wrong_types":
        frame = random.choice([
            {"type": "act", "action": random.choice(["lead TD", 7, None, ["TD"], True]),
             "version": t.version},
            {"type": "act", "action": {"kind": "lead", "cards": "TD"}, "version": t.version},
            {"type": "act", "action": {"kind": 3, "cards": [not_mine[0]]}, "version": t.version},
            {"type": "act", "action": {"kind": "lead", "cards": [1, 2]}, "version": t.version},
            {"type": "act", "action": {"kind": "lead", "cards": [not_mine[0]] * 2},
             "version": t.version},
            {"type": "act", "action": {"kind": "lead", "cards": not_mine[:5]},
             "version": t.version},
            {"type": "act", "action": {"kind": "lead", "cards": [not_mine[0]]},
             "version": random.choice(["0", 0.0, None, True, [0], {"v": 0}, -1])},
            {"type": "act", "action": {"kind": "lead", "cards": [not_mine[0]]},
             "version": t.version, "game_id": random.choice(["1", True, 1.5, [1]])},
            {"type": "act"},
            {"type": "act", "action": {"kind": "lead", "cards": [not_mine[0]]}},
        ])
        return json.dumps(frame), {"invalid"}
    if category == "huge_numbers":
        frame = {"type": "act", "action": {"kind": "lead", "cards": [not_mine[0]]},
                 "version": random.choice([10 ** 30, 2 ** 63, 2 ** 64 + 1, 10 ** 300])}
        if random.random() < 0.5:
            frame["game_id"] = random.choice([10 ** 30, 2 ** 63, -(2 ** 63) - 1, 0, -5])
        return json.dumps(frame), {"stale", "not_found", "invalid", "game_over"} | act_refusals
    if category == "other_seat":
        kind = random.choice(["lead", "beat", "discard", "molodka"])
        count = 4 if kind == "molodka" else random.randint(1, 3)
        frame = {"type": "act", "action": {"kind": kind, "cards": random.sample(not_mine, count)},
                 "version": t.version}
        if t.game_id is not None:
            frame["game_id"] = t.game_id
        return json.dumps(frame), act_refusals
    if category == "stale":
        version = t.version + random.choice([-1, 1, 2, 5, 100]) if t.version else \
            random.choice([1, 2, 7, 1000])
        hand = t.hand or not_mine
        frame = {"type": "act", "action": {"kind": "lead", "cards": [random.choice(hand)]},
                 "version": max(0, version) if version != t.version else t.version + 1}
        return json.dumps(frame), {"stale"} | act_refusals
    if category == "other_game":
        game_id = random.choice(t.other_game_ids) if t.other_game_ids else 987654321
        frame = {"type": "act", "action": {"kind": "lead", "cards": [random.choice(DECK)]},
                 "version": random.randint(0, 40), "game_id": game_id}
        return json.dumps(frame), {"not_found", "game_over"} | act_refusals
    if category == "bad_chat":
        text = random.choice(["", "   ", None, 5, ["hi"], {"t": 1}, "x" * 301])
        return json.dumps({"type": "chat", "text": text}), {"invalid", "forbidden",
                                                             "rate_limited"}
    if category == "bad_vote":
        kind = random.choice(["", "PAUSE", "stop", None, 1, ["pause"], "end " * 3])
        return json.dumps({"type": "vote", "kind": kind}), {"invalid", "forbidden",
                                                             "not_your_seat"}
    if category == "unknown_type":
        kind = random.choice(["", "ACT", "snapshot", "event", "error", "pong", "__init__",
                              "x" * 200, "act ", "🂡"])
        return json.dumps({"type": kind, "version": 1}), {"unknown_type"}
    if category == "ping":
        nonce = random.choice([1, "n", None, {"deep": [1]}, 10 ** 40, 1.5])
        return json.dumps({"type": "ping", "nonce": nonce}), {"pong"}
    if category == "resync":
        return json.dumps({"type": "resync", "junk": _random_json()}), {"snapshot"}
    if category == "reclaim" and not t.seated:
        return json.dumps({"type": "reclaim"}), {"forbidden", "invalid"}
    return frame_for("random_json", t)


# A move sent this close to a disk stall (before its start or after its end, seconds)
# waited for it or for the moves it held back.
STALL_MARGIN = 0.5

CATEGORIES = ["random_json", "not_json", "binary", "too_large", "deep", "wrong_types",
              "huge_numbers", "other_seat", "stale", "other_game", "bad_chat", "bad_vote",
              "unknown_type", "ping", "resync", "reclaim"]


@dataclass
class FuzzStats:
    sent: int = 0
    answered: Counter[str] = field(default_factory=Counter)
    by_category: Counter[str] = field(default_factory=Counter)
    unexpected: list[str] = field(default_factory=list)
    unanswered: int = 0
    closes: Counter[str] = field(default_factory=Counter)
    handshakes_refused: int = 0
    bursts: int = 0
    burst_closed_4008: int = 0
    burst_rate_limited: int = 0
    burst_reset_after_flood: int = 0
    burst_refused_in_cooldown: int = 0
    handshake_failures: Counter[str] = field(default_factory=Counter)


async def _read_reply(ws: Any, target: Target, want_snapshot: bool = False,
                      timeout: float = 10.0) -> dict[str, Any]:
    """The reply to the frame just sent. Errors and pongs come one per frame, in order;
    snapshots are also pushed (someone opened the table, a game ended), so one counts as
    the reply only to a ``resync``."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        frame = json.loads(await asyncio.wait_for(ws.recv(), left))
        kind = frame.get("type")
        if kind == "snapshot" and not want_snapshot:
            _learn(target, frame)
            continue
        if kind in PUSHES:
            if kind == "event" and frame.get("game_id") == target.game_id:
                target.version = frame["version"]
            continue
        return frame


def _learn(target: Target, snapshot: dict[str, Any]) -> None:
    game = snapshot.get("game")
    if game:
        target.game_id, target.version = game["id"], game["version"]
        target.hand = list(game["view"].get("hand") or [])


class WithinTheLimit:
    """The server's token bucket for one socket (games/consumers.py: 20 frames, 10 a
    second), kept by the sender with a margin, so that a socket that is not a burst
    never earns ``rate_limited`` by chance: its random gaps (``rate`` frames a second on
    average) can bunch, and the faster the server answers, the more they bunch."""

    MARGIN = 6.0

    def __init__(self) -> None:
        from games.consumers import BUCKET_SIZE, REFILL_PER_SECOND

        self.size, self.refill = BUCKET_SIZE, REFILL_PER_SECOND
        self.tokens, self.at = self.size, time.monotonic()

    async def take(self) -> None:
        """Wait, if need be, until a frame leaves ``MARGIN`` tokens in the bucket."""
        now = time.monotonic()
        self.tokens = min(self.size, self.tokens + (now - self.at) * self.refill)
        self.at = now
        floor = self.MARGIN + 1
        if self.tokens < floor:
            await asyncio.sleep((floor - self.tokens) / self.refill)
            self.tokens, self.at = floor, time.monotonic()
        self.tokens -= 1


def _failure(exc: BaseException) -> str:
    """A failed handshake named for the report: its HTTP status when the server refused
    it (403 for a flooder's account in its cooldown, kozel_site/flood.py)."""
    response = getattr(exc, "response", None)
    status = getattr(response, "status_code", None)
    return f"{type(exc).__name__} {status}" if status is not None else type(exc).__name__


async def fuzz_socket(port: int, target: Target, session: str | None, budget: list[int],
                      rate: float, stats: FuzzStats, stop: asyncio.Event) -> None:
    """One hostile socket, frame after frame, until the shared budget is spent."""
    path = f"/ws/table/{target.table_id}/"
    while budget[0] > 0 and not stop.is_set():
        try:
            async with await open_socket(port, path, session) as ws:
                first = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if first.get("type") == "snapshot":
                    _learn(target, first)
                limit = WithinTheLimit()
                while budget[0] > 0 and not stop.is_set():
                    await limit.take()
                    budget[0] -= 1
                    category = random.choice(CATEGORIES)
                    frame, allowed = frame_for(category, target)
                    stats.sent += 1
                    stats.by_category[category] += 1
                    await ws.send(frame)
                    try:
                        reply = await _read_reply(ws, target, "snapshot" in allowed)
                    except TimeoutError:
                        stats.unanswered += 1
                        continue
                    got = reply.get("code") if reply.get("type") == "error" else reply.get("type")
                    stats.answered[str(got)] += 1
                    if got not in allowed:
                        stats.unexpected.append(f"{category}: {str(frame)[:80]!r} -> {got}"
                                                f" {str(reply.get('message'))[:80]}")
                    if got == "snapshot":
                        _learn(target, reply)
                    if got == "stale" and isinstance(reply.get("current_version"), int):
                        target.version = reply["current_version"]
                    await asyncio.sleep(random.expovariate(rate))
        except ConnectionClosed as exc:
            code = exc.rcvd.code if exc.rcvd is not None else 1006
            stats.closes[str(code)] += 1
            if code != 1000:
                stats.unexpected.append(f"socket closed with {code}")
        except CONNECT_ERRORS as exc:
            stats.handshake_failures[_failure(exc)] += 1
            await pause(stop, 1.0)


async def burst_socket(port: int, target: Target, session: str | None, budget: list[int],
                       stats: FuzzStats, stop: asyncio.Event) -> None:
    """Bursts of 30 frames at once: rate_limited replies, then a 4008 close; then its
    handshakes are refused (403) until the flood cooldown is over."""
    from games.consumers import MAX_FLOOD_STRIKES
    from kozel_site.flood import COOLDOWN_SECONDS

    path = f"/ws/table/{target.table_id}/"
    closed_at = -1e9
    while budget[0] > 0 and not stop.is_set():
        try:
            socket = await open_socket(port, path, session)
            # (the server starts the cooldown before its close frame reaches us: a margin)
            if time.monotonic() - closed_at < COOLDOWN_SECONDS - 3:
                stats.unexpected.append("a flooder opened a table during its cooldown")
            async with socket as ws:
                await asyncio.wait_for(ws.recv(), 10)  # the snapshot
                closed = False
                limited = 0
                for _ in range(8):
                    stats.bursts += 1
                    for n in range(30):
                        await ws.send(json.dumps({"type": "ping", "nonce": n}))
                    stats.sent += 30
                    stats.by_category["burst"] += 30
                    budget[0] -= 30
                    replies = 0
                    try:
                        while replies < 30:
                            frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
                            if frame.get("type") in PUSHES or frame.get("type") == "snapshot":
                                continue
                            replies += 1
                            if frame.get("code") == "rate_limited":
                                stats.burst_rate_limited += 1
                                limited += 1
                            elif frame.get("type") != "pong":
                                stats.unexpected.append(f"burst reply {frame.get('type')}")
                    except ConnectionClosed as exc:
                        code = exc.rcvd.code if exc.rcvd is not None else 1006
                        stats.closes[str(code)] += 1
                        if code == 4008:
                            stats.burst_closed_4008 += 1
                            closed_at = time.monotonic()
                        elif code == 1006 and limited >= MAX_FLOOD_STRIKES - 1:
                            # the 4008 close frame lost to the reset of a flooder too
                            # slow to read it (games/WEBSOCKET.md)
                            stats.burst_reset_after_flood += 1
                            closed_at = time.monotonic()
                        else:
                            stats.unexpected.append(f"burst socket closed with {code}")
                        closed = True
                        break
                    except TimeoutError:
                        stats.unanswered += 30 - replies
                # Five refused frames close the socket; a server slow enough to refill
                # the bucket between frames refuses fewer, and need not close.
                if not closed and limited >= 5:
                    stats.unexpected.append(f"a socket refused {limited} frames for "
                                            "flooding and was never closed (4008)")
        except CONNECT_ERRORS as exc:
            if "403" in str(exc) and time.monotonic() - closed_at < COOLDOWN_SECONDS + 5:
                stats.burst_refused_in_cooldown += 1
            else:
                stats.handshake_failures[_failure(exc)] += 1
            await pause(stop, 1.0)
        await pause(stop, 0.5)


def _digest(table_ids: list[int]) -> dict[str, Any]:
    """Everything stored about the fuzz tables, and the site's chat: must not change."""
    from games.models import ChatMessage, Game, Move, Seat, Series, SeriesSeat, Table

    return {
        "tables": list(Table.objects.filter(pk__in=table_ids).order_by("pk").values()),
        "seats": list(Seat.objects.filter(table_id__in=table_ids).order_by("pk").values()),
        "series": list(Series.objects.filter(table_id__in=table_ids).order_by("pk").values()),
        "roster": list(SeriesSeat.objects.filter(series__table_id__in=table_ids)
                       .order_by("pk").values()),
        "games": list(Game.objects.filter(series__table_id__in=table_ids).order_by("pk")
                      .values()),
        "moves": Move.objects.filter(game__series__table_id__in=table_ids).count(),
        "chat": ChatMessage.objects.count(),
    }


def _what_changed(before: dict[str, Any], after: dict[str, Any],
                  table_ids: list[int]) -> dict[str, Any]:
    """The fields that differ, row by row (a game's state only as "state"), and the moves
    made at the fuzz tables: what a failed run needs to say why."""
    from games.models import Move

    rows = []
    for key in ("tables", "seats", "series", "roster", "games"):
        old = {r["id"]: r for r in before[key]}
        for row in after[key]:
            was = old.get(row["id"], {})
            fields = sorted(f for f in row if row[f] != was.get(f))
            if fields:
                rows.append({"rows": key, "id": row["id"], "fields": fields,
                             "now": {f: str(row[f]) for f in fields if f != "state"}})
    moves = list(Move.objects.filter(game__series__table_id__in=table_ids)
                 .order_by("created_at")
                 .values("game_id", "seq", "seat", "kind", "cards", "source", "created_at"))
    return {"rows": rows[:20], "moves": [{**m, "created_at": m["created_at"].isoformat()}
                                         for m in moves[:20]]}


def _game_ids(table_ids: list[int]) -> list[int]:
    from games.models import Game

    return list(Game.objects.filter(series__table_id__in=table_ids).values_list("pk", flat=True))


def _strangers(count: int, label: str) -> list[str]:
    return [fixtures.session_for(fixtures.make_user(f"{label}{i}")) for i in range(count)]


@dataclass
class AttackPlan:
    """What the attacking process needs: each socket's kind (``fuzz`` or ``burst``), web
    port, target and session; the shared frame budget, the pace and the time limit."""

    sockets: list[tuple[str, int, Target, str | None]]
    frames: int
    rate: float
    limit: float


@dataclass
class AttackOutcome:
    stats: FuzzStats
    crashed: list[str]
    elapsed: float
    cpu_seconds: float  # the attacking process's own during the attack (not its set-up)


def _set_up() -> None:
    import django

    django.setup()  # the bucket's and the cooldown's constants (games.consumers)


def run_attack(plan: AttackPlan) -> AttackOutcome:
    """The attack, in a process of its own (spawned, with the harness's environment):
    an attacker's sockets are not the measured players' event loop. In the harness's
    one loop, its ~870 frames a second and their replies delayed the live tables'
    clients and the echo floor's own probe (the floor's p99 rose from ~15 ms to 23–55
    ms under the fuzzer), which the servers were then blamed for."""
    _set_up()
    return asyncio.run(_attack(plan))


async def _attack(plan: AttackPlan) -> AttackOutcome:
    stats = FuzzStats()
    budget = [plan.frames]
    stop = asyncio.Event()
    jobs = [fuzz_socket(port, target, session, budget, plan.rate, stats, stop)
            if kind == "fuzz" else burst_socket(port, target, session, budget, stats, stop)
            for kind, port, target, session in plan.sockets]
    begin, cpu_before = time.monotonic(), _cpu_seconds()
    tasks = [asyncio.ensure_future(job) for job in jobs]
    _done, pending = await asyncio.wait(tasks, timeout=plan.limit)
    stop.set()
    if pending:
        await asyncio.wait(pending, timeout=20)
    crashed = [f"{type(t.exception()).__name__}: {t.exception()}"[:200] for t in tasks
               if t.done() and not t.cancelled() and t.exception() is not None]
    return AttackOutcome(stats, crashed, time.monotonic() - begin,
                         _cpu_seconds() - cpu_before)


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@dataclass
class Preparation:
    """What the attack needs ready: its tables (seats taken, no series yet) and
    strangers' sessions, each socket's kind, port, target and session, and its process
    started. Made before the live tables play (:func:`prepare`), as an attacker's
    accounts exist before it attacks: made inside the measured window, its ~500 commits
    in about a second held every live table's moves behind PostgreSQL's WAL flushes
    (both web processes' writing threads stalled 0.9 s at once, the window's p99 1 s)."""

    specs: list[fixtures.TableSpec]
    plan: list[tuple[str, int, Target, str | None]]
    strangers: list[str]
    pool: ProcessPoolExecutor


async def prepare(run: Run, *, sockets: int) -> Preparation:
    """The attack's accounts, tables and process, beside ``run``'s tables (created)."""
    specs = await run.orm(fixtures.make_tables, max(1, sockets // 8), 0, label="fuzz",
                          start=False)
    fuzz_ids = [s.table_id for s in specs]
    live_ids = [s.table_id for s in run.specs]
    strangers = await run.orm(_strangers, max(1, sockets // 4), "stranger")
    ports = run.layout.ports
    plan: list[tuple[str, int, Target, str | None]] = []
    for spec in specs:  # the seated fuzzers
        for key in spec.humans.values():
            plan.append(("fuzz", ports[len(plan) % len(ports)],
                         Target(spec.table_id, True, True), key))
    while len(plan) < sockets:  # spectators, signed in or not, at live and fuzz tables
        table_id = random.choice(live_ids + fuzz_ids)
        session = random.choice(strangers) if random.random() < 0.7 else None
        plan.append(("fuzz", ports[len(plan) % len(ports)],
                     Target(table_id, False, session is not None), session))
    for i in range(max(1, sockets // 20)):  # flooders
        target = Target(random.choice(fuzz_ids + live_ids), False, True)
        plan.append(("burst", ports[i % len(ports)], target, random.choice(strangers)))
    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
    # (the process started from a thread: that blocked this loop 0.3 s)
    await asyncio.to_thread(lambda: pool.submit(_set_up).result())
    return Preparation(specs, plan, strangers, pool)


def _start_series(specs: list[fixtures.TableSpec]) -> None:
    """Deal the fuzz tables' first games: what their seated fuzzers act on. Not before
    the attack: a game whose player on turn never connected is given to a bot after a
    minute (the absence rule), and the quiet minute of a staggered run is that long."""
    from django.contrib.auth import get_user_model

    from games.services import series as series_service

    owners = get_user_model().objects.in_bulk([s.owner_id for s in specs])
    for spec in specs:
        series_service.start_series(spec.table_id, owners[spec.owner_id])


async def attack(run: Run, args: argparse.Namespace, *, frames: int, sockets: int,
                 rate: float, seconds: float | None = None,
                 prepared: Preparation | None = None) -> dict[str, Any]:
    """Fuzz beside ``run``'s live tables (``prepared`` before they began, or here);
    returns the fuzz figures and failures."""
    if prepared is None:
        prepared = await prepare(run, sockets=sockets)
    plan, strangers, pool = prepared.plan, prepared.strangers, prepared.pool
    fuzz_ids = [s.table_id for s in prepared.specs]
    began = time.monotonic()
    await run.orm(_start_series, prepared.specs)
    live_games = await run.orm(_game_ids, [s.table_id for s in run.specs])
    for kind, _port, target, _session in plan:
        if kind == "fuzz":
            target.other_game_ids = live_games
    before = await run.orm(_digest, fuzz_ids)
    ports = run.layout.ports
    refused = await _refused_handshakes(ports[0], strangers[0])
    limit = seconds if seconds else max(120.0, frames / max(1.0, sockets * rate) * 6)
    sockets_began = time.monotonic()
    say(f"fuzz: the attack's {len(plan)} sockets begin")
    try:  # the process joined from a thread: that blocked this loop 0.3 s
        outcome = await asyncio.get_running_loop().run_in_executor(
            pool, run_attack, AttackPlan(plan, frames, rate, limit))
    finally:
        await asyncio.to_thread(pool.shutdown)
    stats, crashed, elapsed = outcome.stats, outcome.crashed, outcome.elapsed
    stats.handshakes_refused = refused
    await asyncio.sleep(2)  # let the last broadcasts land
    after = await run.orm(_digest, fuzz_ids)
    changed = [k for k in before if before[k] != after[k]]
    what_changed = await run.orm(_what_changed, before, after, fuzz_ids) if changed else {}
    failures = []
    if stats.unexpected:
        failures.append(f"{len(stats.unexpected)} unexpected answers: {stats.unexpected[:5]}")
    if stats.unanswered:
        failures.append(f"{stats.unanswered} frames never answered")
    if changed:
        failures.append(f"state changed under fuzzing: {changed}")
    if crashed:  # a seated fuzzer gone for good leaves its seat away: a bot takes it
        failures.append(f"{len(crashed)} fuzzing sockets stopped on an error: {crashed[:3]}")
    if refused != 3:
        failures.append(f"only {refused} of 3 forbidden handshakes were refused")
    return {"frames_sent": stats.sent, "seconds": round(elapsed, 1),
            # the attack's moments in the run (as move_round_trip_slowest gives them):
            # its tables dealt and checked first, then its sockets
            "began_at_s": round(began - run.started, 1),
            "sockets_began_at_s": round(sockets_began - run.started, 1),
            "frames_per_s": round(stats.sent / max(elapsed, 1e-6), 1),
            "attacker_cpu_percent": round(100 * outcome.cpu_seconds / max(elapsed, 1e-6), 1),
            "sockets": len(plan), "answers": dict(stats.answered),
            "by_category": dict(stats.by_category), "unexpected": stats.unexpected[:20],
            "unexpected_count": len(stats.unexpected), "unanswered": stats.unanswered,
            "closes": dict(stats.closes), "bursts": stats.bursts,
            "burst_rate_limited": stats.burst_rate_limited,
            "burst_closed_4008": stats.burst_closed_4008,
            "burst_reset_after_flood": stats.burst_reset_after_flood,
            "burst_refused_in_cooldown": stats.burst_refused_in_cooldown,
            "forbidden_handshakes_refused": refused, "state_changed": changed,
            "what_changed": what_changed,
            "handshake_failures_under_load": dict(stats.handshake_failures),
            "load_1min": load_average(), "failures": failures}


async def _refused_handshakes(port: int, session: str) -> int:
    """An unknown table, a path nobody serves and a huge id: each refused with 403."""
    refused = 0
    for path in ("/ws/table/999999999/", "/ws/nope/", f"/ws/table/{10 ** 30}/"):
        try:
            ws = await open_socket(port, path, session)
            await ws.close()
        except CONNECT_ERRORS as exc:
            refused += "403" in str(exc)
    return refused


async def scenario(args: argparse.Namespace, layout: Layout) -> dict[str, Any]:
    """``fuzz``: the attack beside ``--tables`` live tables at human pace; their round
    trip is measured before (a quiet minute) and during the attack."""
    from tests.load.scenarios import _standard, correctness

    prepared: list[Preparation] = []

    async def before_play(run: Run) -> None:
        prepared.append(await prepare(run, sockets=args.sockets))

    run = await _standard(args, layout, before_play=before_play)
    await run.supervise_for(args.stagger + 20.0)  # quiet 20 s, from the last table's start
    quiet = await run.orm(fixtures.latencies, run.specs, run.stats.acts, run.trackers)
    first = len(run.stats.acts)
    attack_began = time.monotonic()
    fuzzed = await attack(run, args, frames=args.frames, sockets=args.sockets, rate=args.rate,
                          prepared=prepared[0])
    during = await run.orm(fixtures.latencies, run.specs, run.stats.acts[first:], run.trackers)
    attack_ended = time.monotonic()
    disk_during = run.disk.report(attack_began, attack_ended)
    # What the servers did while the disk kept up: the moves sent near no disk stall (a
    # diagnosis beside the figure, which counts every move).
    stalls = run.disk.stall_spans(attack_began, attack_ended)
    clear_of_stalls = [act for act in run.stats.acts[first:] if not any(
        began - STALL_MARGIN <= act.sent <= ended + STALL_MARGIN for began, ended in stalls)]
    outside_stalls = await run.orm(fixtures.latencies, run.specs, clear_of_stalls,
                                   run.trackers)
    moving = run.still_moving()
    await run.finish()
    res = await run.results()
    await run.close()
    res["fuzz"] = fuzzed
    res["round_trip_quiet_ms"] = percentiles(quiet)
    res["round_trip_during_fuzz_ms"] = percentiles(during)
    res.update(_during_the_attack(run, res["round_trip_during_fuzz_ms"], attack_began,
                                  attack_ended))
    res["disk_sync_during_fuzz_ms"] = disk_during  # a stall holds every commit
    res["round_trip_during_fuzz_away_from_disk_stalls_ms"] = percentiles(outside_stalls)
    res["not_moving_at_end"] = moving
    res["failures"] = correctness(res) + fuzzed["failures"]
    if res["server_log_errors"]:
        res["failures"].append(f"server errors in logs: {list(res['server_log_errors'])}")
    return res


def _during_the_attack(run: Run, moves: dict[str, Any], began: float,
                       ended: float) -> dict[str, Any]:
    """The floor measured while the attack ran, the live tables' ratio to it and the
    latency targets (the live games beside the fuzzer keep p99 <= 50 ms and
    <= 3 x the floor). The run's own ratio (``ratio_p99_to_floor``) mixes the quiet
    minute's moves and floor with the attack's."""
    floor = percentiles([latency for room in run.floors for sent, latency in room.samples
                         if began <= sent <= ended])
    out: dict[str, Any] = {"floor_during_fuzz_ms": floor}
    ratio = ratio_to_floor(moves, floor)
    if ratio is not None:
        out["ratio_during_fuzz_p99_to_floor"] = ratio
        out["targets_during_fuzz"] = latency_targets(moves["p99"], ratio)
    return out


# --- dropped sockets -----------------------------------------------------------------------


def _truth(table_ids: list[int]) -> dict[str, Any]:
    """What the site says about presence: open sockets, and per table the spectators and
    the seats shown as connected (from the snapshot a newcomer would get)."""
    from django.contrib.auth.models import AnonymousUser

    from games import snapshot
    from games.models import Table
    from tests.presence import open_socket_count

    spectators, connected = {}, {}
    for table in Table.objects.filter(pk__in=table_ids):
        snap = snapshot.table_snapshot(table, AnonymousUser())
        spectators[table.pk] = snap["table"]["spectators"]
        connected[table.pk] = sum(1 for s in snap["seats"] if s.get("connected"))
    return {"open_sockets": open_socket_count(), "spectators": spectators,
            "connected_seats": connected}


async def _open_many(port_list: list[int], table_ids: list[int], sessions: list[str | None],
                     count: int, failures: Counter[str] | None = None,
                     took: list[float] | None = None) -> list[Any]:
    """Open ``count`` sockets, 50 at a time, each waiting for its snapshot; those that
    fail are counted in ``failures`` by the error's name (a 403, a timeout, ...), and
    the seconds from each opening's start to its snapshot go to ``took``."""
    opened: list[Any] = []

    async def one(i: int) -> None:
        begin = time.monotonic()
        try:
            ws = await open_socket(port_list[i % len(port_list)],
                                   f"/ws/table/{table_ids[i % len(table_ids)]}/",
                                   sessions[i % len(sessions)], timeout=30)
            await asyncio.wait_for(ws.recv(), 30)
            opened.append(ws)
            if took is not None:
                took.append(time.monotonic() - begin)
        except CONNECT_ERRORS as exc:
            if failures is not None:
                failures[f"{type(exc).__name__}: {str(exc)[:80]}"] += 1

    for start in range(0, count, 50):
        await asyncio.gather(*(one(i) for i in range(start, min(count, start + 50))))
    return opened


async def _until_truth(run: Run, table_ids: list[int], expected: dict[str, Any],
                       timeout: float) -> tuple[float | None, dict[str, Any]]:
    begin = time.monotonic()
    seen: dict[str, Any] = {}
    while time.monotonic() - begin < timeout:
        seen = await run.orm(_truth, table_ids)
        if seen == expected:
            return round(time.monotonic() - begin, 2), seen
        await run.supervise_for(0.25)
    return None, seen


async def drop(args: argparse.Namespace, layout: Layout) -> dict[str, Any]:
    """``drop``: open ``--sockets`` sockets (spectators and second tabs of seated players)
    at the live tables, then (1) drop them all without a close frame, and (2) open half
    as many on one web process and SIGKILL it (no disconnect handler runs at all: only
    the heartbeat expiry and the sweep's reaper can tell). Each time: how long until the
    open-socket count, every table's spectator count and its connected seats are the
    truth again."""
    from tests.load.scenarios import _standard, correctness

    run = await _standard(args, layout)
    # What the live tables alone cost the web processes, to tell the handshakes' own;
    # meanwhile every live socket settles, before the truth is read.
    webs = [child.pid for child in layout.webs]
    quiet_at, quiet_cpu = time.monotonic(), cpu_seconds(webs)
    await run.supervise_for(5.0)
    quiet_rate = (cpu_seconds(webs) - quiet_cpu) / (time.monotonic() - quiet_at)
    ids = [s.table_id for s in run.specs]
    truth = await run.orm(_truth, ids)
    strangers = await run.orm(_strangers, 50, "dropper")
    seated = [key for s in run.specs for key in s.humans.values()]
    sessions: list[str | None] = [*strangers, *seated[:20], None]
    out: dict[str, Any] = {"truth": {"open_sockets": truth["open_sockets"],
                                     "spectators": sum(truth["spectators"].values())}}
    begin, cpu_before = time.monotonic(), cpu_seconds(webs)
    failed: Counter[str] = Counter()
    took: list[float] = []
    opened = await _open_many(layout.ports, ids, sessions, args.sockets, failed, took)
    elapsed = time.monotonic() - begin
    out["opened"] = len(opened)
    out["open_failures"] = dict(failed.most_common(5))
    out["open_seconds"] = round(elapsed, 1)
    out["handshake_ms"] = percentiles(took)  # from the opening to the snapshot
    # The web processes' CPU per handshake (to its snapshot), beyond the live tables'.
    handshakes_cpu = cpu_seconds(webs) - cpu_before - quiet_rate * elapsed
    out["web_cpu_ms_per_handshake"] = round(1000 * handshakes_cpu / max(1, len(opened)), 2)
    await run.supervise_for(3.0)
    during = await run.orm(_truth, ids)
    out["counted_while_open"] = during["open_sockets"]
    for ws in opened:
        ws.transport.abort()  # no close frame, no TCP goodbye from the application
    took, seen = await _until_truth(run, ids, truth, 120)
    out["abort_back_to_truth_s"] = took
    if took is None:
        out["abort_final"] = seen
    # (2) a web process dies with sockets open: nobody tells the server anything.
    victim = layout.webs[-1]
    half = await _open_many([layout.ports[-1]], ids, sessions, args.sockets // 2)
    out["opened_on_victim"] = len(half)
    await run.supervise_for(3.0)
    layout.kill(victim)
    killed_at = time.monotonic()
    await run.supervise_for(5.0)  # the live clients there reconnect to the others
    await run.wait_connected()
    waited = time.monotonic() - killed_at
    took, seen = await _until_truth(run, ids, truth, 120)
    out["kill_back_to_truth_s"] = round(waited + took, 2) if took is not None else None
    if took is None:
        out["kill_final"] = seen
    out["presence_ttl_s"] = 3 * args.heartbeat
    moving = run.still_moving()
    await run.finish()
    for ws in half:
        ws.transport.abort()
    res = await run.results()
    await run.close()
    res["drop"] = out
    res["not_moving_at_end"] = moving
    res["failures"] = correctness(res)
    if out["abort_back_to_truth_s"] is None or out["kill_back_to_truth_s"] is None:
        res["failures"].append("presence did not return to the truth")
    say(f"drop: {out}")
    return res
