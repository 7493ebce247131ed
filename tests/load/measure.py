"""Figures: percentiles, per-process CPU and RSS from /proc, PostgreSQL connections."""

from __future__ import annotations

import gc
import json
import math
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

TICKS = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


def percentiles(samples: list[float], scale: float = 1000.0) -> dict[str, float | int]:
    """p50/p95/p99/max of ``samples`` (seconds), in ms by default."""
    if not samples:
        return {"n": 0}
    ordered = sorted(samples)

    def at(q: float) -> float:
        index = min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))
        return round(ordered[index] * scale, 2)

    return {"n": len(ordered), "p50": at(0.50), "p95": at(0.95), "p99": at(0.99),
            "max": round(ordered[-1] * scale, 2)}


TARGET_P99_MS = 50.0  # a live move's round trip p99, at 100 tables and beside
TARGET_RATIO = 3.0  # the fuzzer; and at most this many times the echo floor's p99


def ratio_to_floor(moves: dict[str, Any], floor: dict[str, Any]) -> float | None:
    """The moves' p99 as a multiple of the floor's (both :func:`percentiles`), or None
    when either has no samples."""
    if floor.get("p99") and moves.get("p99"):
        return round(moves["p99"] / floor["p99"], 2)
    return None


def latency_targets(p99: float | None, ratio: float | None) -> dict[str, bool]:
    """The two latency targets, met or not (a missing figure is not met)."""
    return {"p99_le_50ms": p99 is not None and p99 <= TARGET_P99_MS,
            "p99_le_3x_floor": ratio is not None and ratio <= TARGET_RATIO}


class GcPauses:
    """Each cyclic garbage collection's pause in this process, by generation: while
    one runs every thread of the process stands still (``gc.callbacks``)."""

    def __init__(self) -> None:
        self.pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
        self._began = 0.0

    def install(self) -> None:
        gc.callbacks.append(self._time)

    def _time(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
        else:
            self.pauses[info["generation"]].append(time.perf_counter() - self._began)

    def take(self) -> dict[str, dict[str, float | int]]:
        """The pauses so far, by generation (ms), and start counting afresh."""
        taken = {str(g): percentiles(p) for g, p in self.pauses.items()}
        self.pauses = {0: [], 1: [], 2: []}
        return taken


class DiskSyncProbe:
    """How long this machine's disk takes to make 8 KB durable: a write and an
    ``fdatasync`` every ``EVERY`` seconds, on a thread of its own, in a file of the run's
    directory (on this machine the disk PostgreSQL writes its WAL to). Every commit
    waits for such a flush, so a stall here holds every table's moves at once: seen as
    0.5-0.7 s stalls of both web processes' writing threads together, with fsyncs of
    this size stalled as long at the same seconds. Beside each flush it reads
    how much the disk has written, so a window's report says whether the load itself
    wrote much while the disk stalled."""

    EVERY = 0.1
    STALL = 0.1  # a flush this slow is listed with its moment

    def __init__(self, directory: Path) -> None:
        self.path = directory / "disk-sync-probe.bin"
        self.samples: list[tuple[float, float]] = []  # (monotonic time, seconds)
        # (monotonic time, bytes the disk has written since boot), beside each flush
        self.written: list[tuple[float, int]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="disk-sync-probe",
                                        daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self.path.unlink(missing_ok=True)

    def _run(self) -> None:
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        device = _device_of(self.path)
        try:
            block = b"k" * 8192
            while not self._stop.wait(self.EVERY):
                os.lseek(fd, 0, os.SEEK_SET)
                os.write(fd, block)
                began = time.monotonic()
                os.fdatasync(fd)
                self.samples.append((began, time.monotonic() - began))
                written = _bytes_written(device)
                if written is not None:
                    self.written.append((began, written))
        finally:
            os.close(fd)

    def stall_spans(self, since: float, until: float) -> list[tuple[float, float]]:
        """When each stall of the window began and ended (monotonic times)."""
        return [(at, at + took) for at, took in _within(self.samples, since, until)
                if took >= self.STALL]

    def report(self, since: float, until: float | None = None) -> dict[str, Any]:
        """The flushes begun in [since, until]: percentiles (ms) and the stalls, each as
        (seconds after ``since``, ms)."""
        window = _within(self.samples, since, until)
        return {**percentiles([took for _, took in window]),
                "stalls": [(round(at - since, 1), round(took * 1000))
                           for at, took in window if took >= self.STALL],
                "written_mib": self.written_mib(since, until)}

    def written_mib(self, since: float, until: float | None = None) -> float | None:
        """MiB the whole disk wrote in the window (every process's writes, the WAL and
        the checkpoints among them): a stall that comes with a burst of writes is the
        load's own; one without is the disk's. None where /proc/diskstats does not
        show the run directory's disk."""
        window = _within(self.written, since, until)
        if len(window) < 2:
            return None
        return round((window[-1][1] - window[0][1]) / 2**20, 1)


S = TypeVar("S")


def _within(samples: list[tuple[float, S]], since: float,
            until: float | None) -> list[tuple[float, S]]:
    """The (time, value) samples taken in [since, until] (no end: until now)."""
    return [(at, value) for at, value in samples
            if at >= since and (until is None or at <= until)]


def _device_of(path: Path) -> tuple[int, int]:
    """(major, minor) of the block device holding ``path``."""
    device = os.stat(path).st_dev
    return os.major(device), os.minor(device)


def _bytes_written(device: tuple[int, int]) -> int | None:
    """Bytes written to ``device`` since boot (/proc/diskstats counts 512-byte sectors);
    None where it is not listed (a filesystem with no block device of its own)."""
    try:
        for line in Path("/proc/diskstats").read_text().splitlines():
            fields = line.split()
            if (int(fields[0]), int(fields[1])) == device:
                return int(fields[9]) * 512
    except (OSError, IndexError, ValueError):
        return None
    return None


def _cpu_ticks(pid: int) -> int | None:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime + stime
    except (OSError, IndexError, ValueError):
        return None


def cpu_seconds(pids: list[int | None]) -> float:
    """The CPU seconds these processes have used so far (those gone count 0)."""
    return sum(_cpu_ticks(pid) or 0 for pid in pids if pid is not None) / TICKS


def _rss_mib(pid: int) -> float | None:
    try:
        return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE / 2 ** 20
    except (OSError, IndexError, ValueError):
        return None


def load_average() -> float:
    return float(Path("/proc/loadavg").read_text().split()[0])


def cpu_times() -> tuple[int, int]:
    """(steal, total) jiffies of all CPUs since boot, from /proc/stat."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (fields[7] if len(fields) > 7 else 0), sum(fields[:8])


def steal_percent(before: tuple[int, int], after: tuple[int, int]) -> float:
    """The share of CPU time the hypervisor gave to other machines between two
    :func:`cpu_times` readings. On a shared host it rises under our own load, and every
    latency measured while it is high is as much the neighbours' as ours: a run reports
    it beside its figures, so runs are compared only at a like steal."""
    total = after[1] - before[1]
    return round(100.0 * (after[0] - before[0]) / total, 1) if total > 0 else 0.0


@dataclass
class ProcSampler:
    """CPU seconds and peak RSS per named process (summed over restarts), sampled each
    second; plus the database's connection count and its backends' CPU."""

    ticks: dict[tuple[str, int], tuple[int, int]] = field(default_factory=dict)
    rss: dict[str, float] = field(default_factory=dict)
    pg_connections: list[int] = field(default_factory=list)
    loads: list[float] = field(default_factory=list)
    started: float = field(default_factory=time.monotonic)

    def sample(self, named_pids: list[tuple[str, int]], pg_count: int | None = None) -> None:
        for name, pid in named_pids:
            ticks = _cpu_ticks(pid)
            if ticks is None:
                continue
            first, _ = self.ticks.get((name, pid), (ticks, ticks))
            self.ticks[(name, pid)] = (first, ticks)
            rss = _rss_mib(pid)
            if rss is not None:
                self.rss[name] = max(self.rss.get(name, 0.0), rss)
        if pg_count is not None and pg_count >= 0:
            self.pg_connections.append(pg_count)
        self.loads.append(load_average())

    def report(self) -> dict[str, Any]:
        elapsed = max(1e-6, time.monotonic() - self.started)
        cpu: dict[str, float] = {}
        for (name, _pid), (first, last) in self.ticks.items():
            cpu[name] = cpu.get(name, 0.0) + (last - first) / TICKS
        return {
            "elapsed_s": round(elapsed, 1),
            "cpu_percent": {n: round(100 * s / elapsed, 1) for n, s in sorted(cpu.items())},
            "rss_mib_max": {n: round(v, 1) for n, v in sorted(self.rss.items())},
            "pg_connections": {"max": max(self.pg_connections, default=0),
                               "last": self.pg_connections[-1] if self.pg_connections else 0},
            "load_1min": {"min": min(self.loads, default=0.0),
                          "max": max(self.loads, default=0.0)},
        }


def write_json(name: str, data: dict[str, Any], out: Path) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{name}-{time.strftime('%Y%m%d-%H%M%S')}.json"
    path.write_text(json.dumps(data, indent=2, default=str))
    (out / f"{name}-latest.json").write_text(json.dumps(data, indent=2, default=str))
    return path


def print_table(title: str, rows: list[tuple[str, Any]]) -> None:
    width = max((len(k) for k, _ in rows), default=10)
    print(f"\n== {title} ==")
    for key, value in rows:
        print(f"  {key.ljust(width)}  {value}")
