"""One run: the layout, the tables and their clients, the floor, the monitors, the checks."""

from __future__ import annotations

import asyncio
import gc
import random
import re
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from tests.load import fixtures, probes
from tests.load.clients import FloorRoom, Pacing, SeatClient, Stats, Tracker, pause
from tests.load.layout import OUT, Layout, say
from tests.load.measure import DiskSyncProbe, GcPauses, ProcSampler, percentiles, ratio_to_floor

ERROR_LINE = re.compile(r"Traceback|Exception inside application|\bERROR\b|\bCRITICAL\b"
                        r"|Unrecoverable error|HTTP 500|\s500\s")


@dataclass
class Run:
    layout: Layout
    pacing: Pacing = field(default_factory=Pacing)
    floor_rooms: int = 4
    floor_interval: float = 0.5
    specs: list[fixtures.TableSpec] = field(default_factory=list)
    stats: Stats = field(default_factory=Stats)
    trackers: dict[int, Tracker] = field(default_factory=dict)
    clients: list[SeatClient] = field(default_factory=list)
    sampler: ProcSampler = field(default_factory=ProcSampler)
    moved: dict[int, list[float]] = field(default_factory=dict)  # table -> times it moved
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    db: ThreadPoolExecutor = field(default_factory=lambda: ThreadPoolExecutor(1))
    floors: list[FloorRoom] = field(default_factory=list)
    tasks: list[asyncio.Future[Any]] = field(default_factory=list)
    started: float = 0.0
    connect_all_s: float | None = None
    loop_lags: list[float] = field(default_factory=list)
    own_gc: GcPauses = field(default_factory=GcPauses)
    own_gc_in_window: dict[str, Any] = field(default_factory=dict)
    series_restarted: int = 0
    disk: DiskSyncProbe = field(default_factory=lambda: DiskSyncProbe(OUT))

    async def orm(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        """Run an ORM call on the harness's one database thread."""
        return await asyncio.get_running_loop().run_in_executor(
            self.db, lambda: fn(*args, **kwargs))

    # --- setting up -----------------------------------------------------------------------
    async def add_tables(self, count: int, bots: int = 0, label: str = "load",
                         target: int = 6, clock: int | None = None
                         ) -> list[fixtures.TableSpec]:
        specs = await self.orm(fixtures.make_tables, count, bots, label=label, target=target,
                               clock=clock)
        self.specs.extend(specs)
        return specs

    def start_clients(self, specs: list[fixtures.TableSpec]) -> None:
        k = len(self.layout.ports)
        # With a stagger, the tables begin evenly spread over it, in a random order.
        order = random.sample(range(len(specs)), len(specs))
        for index, spec in enumerate(specs):
            offset = self.pacing.stagger * order[index] / max(1, len(specs))
            tracker = Tracker(len(spec.humans))
            self.trackers[spec.table_id] = tracker
            for n, (position, key) in enumerate(sorted(spec.humans.items())):
                client = SeatClient(table_id=spec.table_id, seat=position, session_key=key,
                                    ports=self.layout.ports, first_port=(index + n) % k,
                                    tracker=tracker, stats=self.stats, pacing=self.pacing,
                                    stop=self.stop, start_offset=offset)
                self.clients.append(client)
                self.tasks.append(asyncio.ensure_future(client.run()))

    def start_floor(self) -> None:
        for i in range(self.floor_rooms):
            room = FloorRoom(f"r{i}", self.layout.ports, i, self.floor_interval, self.stop)
            self.floors.append(room)
            self.tasks.append(asyncio.ensure_future(room.run()))

    def start_monitors(self) -> None:
        self.started = time.monotonic()
        self.sampler = ProcSampler()
        self.tasks.append(asyncio.ensure_future(self._watch_progress()))
        self.tasks.append(asyncio.ensure_future(self._sample()))
        self.tasks.append(asyncio.ensure_future(self._watch_own_loop()))
        self.own_gc.install()
        self.disk.start()

    async def _watch_progress(self) -> None:
        ids = [s.table_id for s in self.specs]
        last: dict[int, tuple[int, int]] = {}
        tick = 0
        while not self.stop.is_set():
            try:
                now_state = await self.orm(fixtures.progress, ids)
                at = time.monotonic()
                for table_id, state in now_state.items():
                    if last.get(table_id) != state:
                        self.moved.setdefault(table_id, []).append(at)
                    last[table_id] = state
                tick += 1
                if tick % 10 == 0:
                    self.series_restarted += await self.orm(fixtures.restart_finished_series,
                                                            self.specs)
            except Exception as exc:  # noqa: BLE001 - the database may be restarting
                say(f"progress monitor: {type(exc).__name__}: {str(exc)[:100]}")
                await self.orm(fixtures.close_db)
            await asyncio.sleep(0.2)

    async def _sample(self) -> None:
        while not self.stop.is_set():
            named = [(c.name, c.pid) for c in self.layout.children() if c.pid and c.alive()]
            import os

            named.append(("harness", os.getpid()))
            pg = self.layout.pg
            count = await asyncio.to_thread(pg.connections) if pg else None
            pids = await asyncio.to_thread(pg.backend_pids) if pg else []
            named += [("postgres backends", pid) for pid in pids]
            self.sampler.sample(named, count)
            self.layout.supervisor.poll()
            await pause(self.stop, 1.0)

    async def _watch_own_loop(self, every: float = 0.05) -> None:
        """How late this process's own event loop wakes up: every latency the harness
        reports is stamped on that loop, so a busy harness inflates them all (reported
        as ``harness_loop_lag_ms`` beside the figures it qualifies)."""
        while not self.stop.is_set():
            measuring = self.measuring()  # a sleep begun before is set-up's
            asked = time.monotonic()
            await asyncio.sleep(every)
            if measuring:
                self.loop_lags.append(time.monotonic() - asked - every)

    def measuring(self) -> bool:
        """Whether the measured window has begun."""
        return self.pacing.go.is_set() and time.monotonic() >= self.started

    async def wait_connected(self, timeout: float = 60) -> None:
        """Wait until every client has opened its socket (its snapshot follows), then let
        them play: the measured window (``started``) begins here, or once the last table
        has begun with a stagger (``Pacing.stagger``), and the crowd of handshakes before
        it is reported on its own (``connect_all_s``)."""
        begin = time.monotonic()
        try:
            await asyncio.wait_for(asyncio.gather(*(c.connected_once.wait()
                                                    for c in self.clients)), timeout)
        except TimeoutError:
            say(f"{sum(not c.connected_once.is_set() for c in self.clients)} clients "
                "never connected")
        if not self.pacing.go.is_set():  # the first wait (a later one follows a fault)
            self.connect_all_s = round(time.monotonic() - begin, 2)
            hold_own_collector()
            self.own_gc.take()  # from here on: the measured window's collections
            self.pacing.start()
            self.started = self.pacing.go_at + self.pacing.stagger

    async def supervise_for(self, seconds: float) -> None:
        """Let the run go on, polling the supervisor (restarts) every 0.2 s."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.layout.supervisor.poll()
            await asyncio.sleep(0.2)

    async def finish(self) -> None:
        self.stop.set()
        await asyncio.wait(self.tasks, timeout=30)
        self.own_gc_in_window = self.own_gc.take()
        gc.enable()
        self.disk.stop()

    # --- figures --------------------------------------------------------------------------
    def stalls_after(self, at: float, horizon: float = 120.0) -> dict[str, Any]:
        """How long after ``at`` each table moved again (the worst is the fault's stall)."""
        waits = []
        unmoved = []
        for spec in self.specs:
            times = [t for t in self.moved.get(spec.table_id, []) if at < t <= at + horizon]
            if times:
                waits.append(times[0] - at)
            else:
                unmoved.append(spec.table_id)
        return {"max_s": round(max(waits), 2) if waits else None,
                "p99_s": percentiles(waits, 1.0).get("p99"),
                "p50_s": percentiles(waits, 1.0).get("p50"), "unmoved": unmoved}

    def normal_gaps(self, start: float, end: float) -> dict[str, Any]:
        """The longest pause of each table in a window without faults (the baseline)."""
        gaps = []
        for spec in self.specs:
            times = [t for t in self.moved.get(spec.table_id, []) if start <= t <= end]
            gaps += [b - a for a, b in zip(times, times[1:], strict=False)]
        return percentiles(gaps, 1.0)

    def still_moving(self, within: float = 20.0) -> list[int]:
        """Tables that did not move in the last ``within`` seconds."""
        now = time.monotonic()
        return [s.table_id for s in self.specs
                if not any(t > now - within for t in self.moved.get(s.table_id, []))]

    def _timeline(self, timed: list[tuple[float, float]], bucket: float = 10.0) -> list[str]:
        """p50/p99 per ``bucket`` seconds of the run: a tail that comes in bursts shows
        here, a steady one does not."""
        rows: dict[int, list[float]] = {}
        for sent, latency in timed:
            rows.setdefault(int((sent - self.started) // bucket), []).append(latency)
        out = []
        for index in sorted(rows):
            p = percentiles(rows[index])
            out.append(f"{index * bucket:.0f}s n={p['n']} p50={p['p50']} p99={p['p99']}")
        return out

    def _slowest(self, kinded: list[tuple[float, float, str]], count: int = 12) -> list[str]:
        """The slowest moves, each with its moment in the run and its kind: whether the
        tail is one burst (and when) or spread over the run."""
        slowest = sorted(kinded, key=lambda row: row[1], reverse=True)[:count]
        return [f"{sent - self.started:.1f}s {kind} {latency * 1000:.1f} ms"
                for sent, latency, kind in sorted(slowest)]

    def _answered_by_kind(self, acts: list[Any]) -> dict[str, Any]:
        """Act → its fence's ``pong``, per kind of move: the consumer answers the ping
        once the act's database call returned (its write, its commit and the hooks
        run on that thread), so this is the server's side of the round trip, and the
        rest of it is the broadcast's way to the four seats."""
        rows: dict[str, list[float]] = {}
        for act in acts:
            key = (act.game_id, act.version + 1)
            tracker = self.trackers[act.table_id]
            if act.answered is None or act.reply != "none" or key not in tracker.done \
                    or act.sent < self.started:
                continue
            rows.setdefault(tracker.kinds.get(key, "play"), []).append(act.answered - act.sent)
        return {kind: percentiles(values) for kind, values in sorted(rows.items())}

    def floor(self) -> dict[str, Any]:
        samples = [latency for room in self.floors for sent, latency in room.samples
                   if sent >= self.started]
        return {**percentiles(samples), "lost": sum(r.lost for r in self.floors)}

    async def results(self, checks: bool = True) -> dict[str, Any]:
        elapsed = time.monotonic() - self.started
        out: dict[str, Any] = {}
        acts = self.stats.acts
        kinded = [row for row in await self.orm(
            fixtures.kinded_latencies, self.specs, acts, self.trackers)
            if row[0] >= self.started]
        timed = [(sent, latency) for sent, latency, _kind in kinded]
        lat = [latency for _sent, latency in timed]
        out["connect_all_s"] = self.connect_all_s
        out["move_round_trip_ms"] = percentiles(lat)
        out["move_round_trip_by_10s"] = self._timeline(timed)
        out["move_round_trip_slowest"] = self._slowest(kinded)
        out["move_round_trip_by_kind"] = {
            kind: percentiles([latency for _s, latency, k in kinded if k == kind])
            for kind in sorted({k for _s, _l, k in kinded})}
        out["act_answered_by_kind"] = self._answered_by_kind(acts)
        out["floor_ms"] = self.floor()
        out["harness_loop_lag_ms"] = percentiles(self.loop_lags)
        out["harness_gc_pauses_ms"] = self.own_gc_in_window
        ratio = ratio_to_floor(out["move_round_trip_ms"], out["floor_ms"])
        if ratio is not None:
            out["ratio_p99_to_floor"] = ratio
            out["ratio_p50_to_floor"] = round(out["move_round_trip_ms"]["p50"]
                                              / out["floor_ms"]["p50"], 2)
        if checks:
            out["moves"] = await self._guarded(fixtures.check_moves, self.specs, acts)
            played = time.monotonic() - (self.pacing.go_at or self.started)
            out["actions_per_s"] = round(out["moves"].get("moves", 0) / max(played, 1e-6), 1)
            out["finished"] = await self._guarded(fixtures.finished_counts, self.specs)
            out["verify_games"] = await self._guarded(fixtures.verify_all)
        out["player_actions_per_s"] = round(len(lat) / max(elapsed, 1e-6), 1)
        out["errors_by_code"] = dict(self.stats.errors)
        out["reconnects"] = self.stats.reconnects
        out["gaps_resynced"] = self.stats.gaps
        out["closes_by_code"] = dict(self.stats.closes)
        out["series_restarted_by_owners"] = self.series_restarted
        out["processes"] = self.sampler.report()
        out["disk_sync_ms"] = self.disk.report(self.started)
        out["restarts"] = {c.name: c.restarts for c in self.layout.children() if c.restarts}
        out["server_log_errors"] = scan_logs(self.layout)
        out["web_probes"] = web_probes(self.layout)
        return out

    async def _guarded(self, fn: Any, *args: Any) -> dict[str, Any]:
        """A check that cannot run (e.g. the tree is mid-edit) is reported, and the
        figures already taken are kept."""
        try:
            return dict(await self.orm(fn, *args))
        except Exception as exc:  # noqa: BLE001
            say(f"check {fn.__name__} failed: {type(exc).__name__}: {exc}")
            return {"error": f"{type(exc).__name__}: {exc}", "problem_count": 1,
                    "anomaly_count": 1, "problems": [], "anomalies": [str(exc)]}

    async def close(self) -> None:
        await self.orm(fixtures.close_db)
        self.db.shutdown(wait=True)


def hold_own_collector() -> None:
    """No cyclic garbage collection in the harness while it measures: every latency is
    stamped on its one event loop, and its own collections stopped that loop for up to
    65 ms (generation 1) and 107-167 ms (generation 2) in a 60 s run at 100 tables,
    inflating whatever was in flight (``harness_gc_pauses_ms`` reports what still runs).
    What set-up made is frozen; the garbage of the run waits for ``finish`` (the
    harness's RSS, in the processes table, shows what that costs)."""
    gc.collect()
    gc.freeze()
    gc.disable()


def scan_logs(layout: Layout) -> dict[str, Any]:
    """Error lines in the servers' logs (daphne, workers, beat), a few shown."""
    found: dict[str, Any] = {}
    for path in sorted(layout.logs.glob("*.log")):
        lines = [line for line in path.read_text(errors="replace").splitlines()
                 if ERROR_LINE.search(line)]
        if lines:
            found[path.stem] = {"count": len(lines), "first": lines[:5]}
    return found


def web_probes(layout: Layout) -> dict[str, list[str]]:
    """Each web process's probe windows (tests/load/probes.py), one line per 10 s:
    ``loop p50/p99/max | writer p50/p99/max | gc2 <count>x max <pause>`` in ms."""
    return {path.stem: [_probe_line(window)
                        for window in probes.read_lines(path.read_text(errors="replace"))]
            for path in sorted(layout.logs.glob("web*.log"))}


def _probe_line(window: dict[str, Any]) -> str:
    def spread(figures: dict[str, Any]) -> str:
        return "/".join(str(figures.get(q, "-")) for q in ("p50", "p99", "max"))

    full = window.get("gc", {}).get("2", {})
    return (f"loop {spread(window['loop'])} | writer {spread(window['writer'])} | "
            f"gc2 {full.get('n', '-')}x max {full.get('max', '-')}")


def pick(items: list[Any]) -> Any:
    return random.choice(items)
