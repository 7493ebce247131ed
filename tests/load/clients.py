"""WebSocket clients that speak games/WEBSOCKET.md exactly as the table page does.

A :class:`SeatClient` is one signed-in browser tab at a table: it reads the snapshot,
chooses a legal action from its own view (``view.legal``) after a think time, sends
``act`` with the version it saw (and the ``game_id``, like static/js/table/actions.js),
applies events in version order, resyncs on a gap, on another game's event or after a
``stale`` refusal, and reconnects with backoff when its socket drops, to the next web
process (as a proxy in front of K processes would send it).

Every act is logged (:class:`Act`) so the harness can check it against the Move log
afterwards, and every event's arrival at each seat is timed, so the round trip of an
accepted action is "sent" → "the last of the table's clients received its event".
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

CONNECT_ERRORS = (OSError, ConnectionClosed, InvalidHandshake, InvalidStatus, TimeoutError,
                  asyncio.TimeoutError, EOFError)


@dataclass
class Act:
    """One ``act`` a client sent."""

    table_id: int
    game_id: int
    version: int
    seat: int
    kind: str
    cards: list[str]
    sent: float
    reply: str | None = None  # the error code, if the server refused it
    answered: float | None = None  # when its fence's pong came: the server was done
    seen_accepted: bool = False  # the client saw its play in the next event


@dataclass
class Stats:
    """Counters shared by every client of a run."""

    errors: Counter[str] = field(default_factory=Counter)
    reconnects: int = 0
    connect_failures: int = 0
    gaps: int = 0
    resyncs: int = 0
    frames_in: int = 0
    acts: list[Act] = field(default_factory=list)
    closes: Counter[str] = field(default_factory=Counter)


def event_kind(frame: dict[str, Any]) -> str:
    """What a move did, from its event: ``game_end`` (the last move of a game),
    ``trick`` (it closed a trick) or ``play``; the round trip is reported per kind, to
    see which moves make the tail."""
    view = frame.get("view") or {}
    if view.get("game_over"):
        return "game_end"
    added = frame.get("history_added") or []
    if any(entry.get("event") == "trick" for entry in added if isinstance(entry, dict)):
        return "trick"
    return "play"


class Tracker:
    """When each client of a table received each (game, version): the move's fan-out."""

    def __init__(self, clients: int) -> None:
        self.clients = clients
        self.seen: dict[tuple[int, int], dict[int, float]] = {}
        self.done: dict[tuple[int, int], float] = {}
        self.kinds: dict[tuple[int, int], str] = {}

    def saw(self, game_id: int, version: int, seat: int, at: float,
            kind: str = "play") -> None:
        key = (game_id, version)
        if key in self.done:
            return
        self.kinds.setdefault(key, kind)
        seats = self.seen.setdefault(key, {})
        seats.setdefault(seat, at)
        if len(seats) >= self.clients:
            self.done[key] = max(seats.values())
            del self.seen[key]


async def pause(stop: asyncio.Event, seconds: float) -> None:
    """Sleep ``seconds``, or less if ``stop`` is set."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)


def ws_url(port: int, path: str) -> str:
    return f"ws://127.0.0.1:{port}{path}"


async def open_socket(port: int, path: str, session_key: str | None,
                      timeout: float = 10.0) -> ClientConnection:
    headers = {"Cookie": f"sessionid={session_key}"} if session_key else {}
    return await connect(ws_url(port, path), additional_headers=headers,
                         origin=f"http://127.0.0.1:{port}", open_timeout=timeout,
                         ping_interval=None, close_timeout=2, max_size=2 ** 22)


@dataclass
class Pacing:
    """Think time before an action, seconds (human-like by default). Nobody acts before
    ``go`` is set: the run opens every socket first (tests/load/runner.py), so that the
    crowd of handshakes is measured on its own and not mixed into the moves' figures.

    ``stagger``: the tables begin over that many seconds after ``go`` (each table at its
    own offset, :meth:`wait_for_table`), as a site's tables do, instead of all dealing
    at the same instant and so ending their games together (the runner then measures
    from the moment the last table began)."""

    low: float = 0.5
    high: float = 2.0
    stagger: float = 0.0
    go: asyncio.Event = field(default_factory=asyncio.Event)
    go_at: float = 0.0

    def think(self) -> float:
        return random.uniform(self.low, self.high) if self.high > 0 else 0.0

    def start(self) -> None:
        """Let everyone play (the tables' offsets count from now)."""
        self.go_at = time.monotonic()
        self.go.set()

    async def wait_for_table(self, offset: float) -> None:
        """Wait for ``go`` and then until this table's offset has passed."""
        await self.go.wait()
        late = self.go_at + offset - time.monotonic()
        if late > 0:
            await asyncio.sleep(late)


def with_added_history(view: dict[str, Any] | None,
                       event: dict[str, Any]) -> dict[str, Any] | None:
    """The event's view with its whole history, as the browser rebuilds it
    (games/WEBSOCKET.md, "Versions"): ours up to ``history_from``, then
    ``history_added``; None when ours is too short (resync)."""
    before = (view or {}).get("history") or []
    start, added = event.get("history_from"), event.get("history_added")
    if not isinstance(start, int) or not isinstance(added, list) or not 0 <= start <= len(
            before):
        return None
    return {**event["view"], "history": before[:start] + added}


class SeatClient:
    """One seated player's browser tab (see the module docstring)."""

    def __init__(self, *, table_id: int, seat: int, session_key: str, ports: list[int],
                 first_port: int, tracker: Tracker, stats: Stats, pacing: Pacing,
                 stop: asyncio.Event, start_offset: float = 0.0) -> None:
        self.table_id, self.seat, self.session_key = table_id, seat, session_key
        self.ports, self.port_index = ports, first_port
        self.tracker, self.stats, self.pacing, self.stop = tracker, stats, pacing, stop
        self.start_offset = start_offset  # seconds after ``go`` (Pacing.stagger)
        self.ws: ClientConnection | None = None
        self.game_id: int | None = None
        self.version = -1
        self.view: dict[str, Any] | None = None
        self.playing = False
        # Acts whose fence (a ping sent right after them) has not come back yet, oldest
        # first. The consumer answers frames in order and an act gets at most one error,
        # so an error belongs to the oldest unfenced act and its pong closes it: no error
        # by then means the server took it.
        self.pending: list[tuple[Act, str]] = []
        self.fences = 0
        self.recent: deque[Act] = deque(maxlen=8)
        self.think_task: asyncio.Task[None] | None = None
        self.connected_once = asyncio.Event()

    @property
    def path(self) -> str:
        return f"/ws/table/{self.table_id}/"

    async def run(self) -> None:
        failures = 0
        while not self.stop.is_set():
            port = self.ports[self.port_index % len(self.ports)]
            try:
                async with await open_socket(port, self.path, self.session_key) as ws:
                    self.ws = ws
                    failures = 0
                    self.connected_once.set()
                    await self._listen(ws)
            except CONNECT_ERRORS:
                self.stats.connect_failures += self.ws is None
            except Exception as exc:  # noqa: BLE001 - a client must never die: it reconnects
                self.stats.closes[f"client {type(exc).__name__}"] += 1
            finally:
                self._socket_gone()
            if self.stop.is_set():
                break
            self.stats.reconnects += 1
            failures += 1
            self.port_index += 1  # the next web process, as a proxy would
            await pause(self.stop, min(5.0, 0.2 * 2 ** min(failures, 5))
                        * random.uniform(0.5, 1.0))

    def _socket_gone(self) -> None:
        self.ws = None
        if self.think_task is not None:
            self.think_task.cancel()
        # Acts in flight on a dead socket: their outcome is unknown (the Move log says).
        self.pending.clear()

    async def _listen(self, ws: ClientConnection) -> None:
        stopper = asyncio.ensure_future(self.stop.wait())
        try:
            while True:
                receive = asyncio.ensure_future(ws.recv())
                done, _ = await asyncio.wait({receive, stopper},
                                             return_when=asyncio.FIRST_COMPLETED)
                if receive not in done:
                    receive.cancel()
                    await self._finish(ws)
                    return
                raw = receive.result()
                self.stats.frames_in += 1
                await self._handle(json.loads(raw), time.monotonic())
        except ConnectionClosed as exc:
            code = exc.rcvd.code if exc.rcvd is not None else 1006
            self.stats.closes[str(code)] += 1
        finally:
            stopper.cancel()

    async def _finish(self, ws: ClientConnection) -> None:
        """At the end of a run: a ping, so every reply to our acts has arrived."""
        if self.think_task is not None:
            self.think_task.cancel()
        try:
            await ws.send(json.dumps({"type": "ping", "nonce": "end"}))
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if frame.get("type") == "pong" and frame.get("nonce") == "end":
                    break
                await self._handle(frame, time.monotonic(), final=True)
            await ws.close()
        except CONNECT_ERRORS + (ValueError,):
            pass

    async def send(self, frame: dict[str, Any]) -> bool:
        if self.ws is None:
            return False
        try:
            await self.ws.send(json.dumps(frame))
            return True
        except ConnectionClosed:
            return False

    async def _handle(self, frame: dict[str, Any], at: float, final: bool = False) -> None:
        kind = frame.get("type")
        if kind == "snapshot":
            game = frame.get("game")
            self.playing = frame["table"]["status"] == "playing"
            if game is None:
                self.game_id, self.version, self.view = None, -1, None
            else:
                self.game_id, self.version, self.view = game["id"], game["version"], game["view"]
                self.playing = self.playing and game["status"] == "playing" and not game["paused"]
            self._plan(final)
        elif kind == "event":
            game_id, version = frame["game_id"], frame["version"]
            self.tracker.saw(game_id, version, self.seat, at, event_kind(frame))
            if game_id != self.game_id:
                await self._resync()
            elif version <= self.version:
                return
            elif version == self.version + 1 and (view := with_added_history(
                    self.view, frame)) is not None:
                self._note_accepted(game_id, version, view)
                self.version, self.view = version, view
                self._plan(final)
            else:
                self.stats.gaps += 1
                await self._resync()
        elif kind == "error":
            code = frame.get("code", "?")
            self.stats.errors[code] += 1
            if self.pending:
                self.pending[0][0].reply = code
            if code == "stale":
                await self._resync()
        elif kind == "pong" and self.pending and frame.get("nonce") == self.pending[0][1]:
            act, _ = self.pending.pop(0)
            act.reply = act.reply or "none"
            act.answered = at

    def _note_accepted(self, game_id: int, version: int, view: dict[str, Any]) -> None:
        plays = [e for e in view.get("history", []) if e.get("event") == "play"]
        if not plays or plays[-1].get("seat") != self.seat:
            return
        for act in self.recent:
            if (act.game_id, act.version + 1) == (game_id, version) \
                    and act.cards == plays[-1].get("cards"):
                act.seen_accepted = True
                return

    async def _resync(self) -> None:
        self.stats.resyncs += 1
        await self.send({"type": "resync"})

    def _plan(self, final: bool) -> None:
        if self.think_task is not None:
            self.think_task.cancel()
            self.think_task = None
        view = self.view
        if final or not self.playing or view is None or view.get("game_over") \
                or not view.get("legal"):
            return
        self.think_task = asyncio.ensure_future(self._act_later(self.game_id, self.version))

    async def _act_later(self, game_id: int | None, version: int) -> None:
        await self.pacing.wait_for_table(self.start_offset)
        await asyncio.sleep(self.pacing.think())
        if self.ws is None or game_id is None or (game_id, version) != (self.game_id,
                                                                        self.version):
            return
        assert self.view is not None
        action = random.choice(self.view["legal"])
        act = Act(self.table_id, game_id, version, self.seat, action["kind"],
                  list(action["cards"]), time.monotonic())
        self.think_task = None
        # Logged before the send: its event may be handled while the send is awaited.
        self.fences += 1
        fence = (act, f"fence-{self.fences}")
        self.stats.acts.append(act)
        self.recent.append(act)
        self.pending.append(fence)
        if not await self.send({"type": "act", "action": action, "version": version,
                                "game_id": game_id}) \
                or not await self.send({"type": "ping", "nonce": fence[1]}):
            act.reply = act.reply or "unsent"


class FloorRoom:
    """Four sockets on the echo route; one sends, all four receive (the floor)."""

    def __init__(self, name: str, ports: list[int], first_port: int, interval: float,
                 stop: asyncio.Event) -> None:
        self.name, self.ports, self.first, self.interval, self.stop = (name, ports,
                                                                     first_port, interval, stop)
        self.samples: list[tuple[float, float]] = []  # (sent, latency)
        self.sent: dict[str, float] = {}
        self.seen: dict[str, list[float]] = {}
        self.lost = 0

    async def run(self) -> None:
        n = 0
        while not self.stop.is_set():  # a killed web process: open the room again
            sockets: list[ClientConnection] = []
            readers: list[asyncio.Future[None]] = []
            try:
                for i in range(4):
                    port = self.ports[(self.first + i) % len(self.ports)]
                    sockets.append(await open_socket(port, f"/ws/load/echo/{self.name}/",
                                                     None))
                readers = [asyncio.ensure_future(self._read(ws)) for ws in sockets]
                await asyncio.sleep(0.5)
                while not self.stop.is_set() and all(not r.done() for r in readers):
                    n += 1
                    token = f"{self.name}:{n}"
                    self.sent[token] = time.monotonic()
                    await sockets[0].send(token)
                    await pause(self.stop, self.interval * random.uniform(0.5, 1.5))
                await asyncio.sleep(0.5)
            except CONNECT_ERRORS:
                await pause(self.stop, 0.5)
            finally:
                for reader in readers:
                    reader.cancel()
                for ws in sockets:
                    with contextlib.suppress(*CONNECT_ERRORS):
                        await ws.close()
            self.first += 1
        self.lost = sum(1 for t in self.sent if len(self.seen.get(t, ())) < 4)

    async def _read(self, ws: ClientConnection) -> None:
        try:
            async for raw in ws:
                at = time.monotonic()
                token = str(raw)
                got = self.seen.setdefault(token, [])
                got.append(at)
                if len(got) == 4 and token in self.sent:
                    self.samples.append((self.sent[token], max(got) - self.sent[token]))
        except ConnectionClosed:
            pass
