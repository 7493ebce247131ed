"""Probes inside each web process of the load layout: where a move's time waits.

The harness times a move from its own socket; what it cannot see is whether the wait
was in the web process's event loop (busy sending, decoding, building views) or in
the queue of the thread that runs its sockets' database calls
(``database_sync_to_async``), behind other tables' moves. Every ``EVERY`` seconds
each probe asks both for nothing:

- ``loop``: how late ``asyncio.sleep`` wakes up (the loop's lag);
- ``writer``: how long a no-op handed to that thread takes to come back (its queue,
  plus the loop's lag on the way back);

and every ``WINDOW`` seconds it writes one line ``load-probe {json}`` to its log with
the window's percentiles. The harness reads them back into its results
(``web_probes``). Loaded only by tests/load/asgi.py, never by the site.

They run only when the harness is asked for them (``--probes``, which sets
``KOZEL_LOAD_PROBES=1`` in the web processes): the sampler's thread wakes every 2.5 ms
and takes the GIL, the loop's beat wakes the loop every 5 ms. Measured under the
fuzzer, three runs each way alternating: the web processes used 17.1–20.4 % of a core
without them and 23.7–24.7 % with them, and the live tables' move p50 rose from
6.7–7.9 ms to 9.0–9.8 ms. The figures are therefore taken without them; they say
where a slow move waits.
"""

from __future__ import annotations

import asyncio
import collections
import json
import os
import sys
import threading
import time
from typing import Any

from tests.load.measure import GcPauses, percentiles

ENABLED = "KOZEL_LOAD_PROBES"  # "1": the harness's --probes
EVERY = 0.05
WINDOW = 10.0
PREFIX = "load-probe "

_started = False
_gc = GcPauses()


def _noop() -> None:
    return None


def _on_writer() -> Any:
    from channels.db import database_sync_to_async

    return database_sync_to_async(_noop)()


class StallSampler(threading.Thread):
    """Where the event loop's thread is when the loop stalls: the loop beats every
    ``BEAT`` seconds; when a beat is ``STALL`` late this thread reads the loop thread's
    Python stack (and the other threads'), so a window's longest stalls have a cause
    (``stalls``: the innermost site frames, counted per sample)."""

    BEAT = 0.005
    STALL = 0.02

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(name="load-stall-sampler", daemon=True)
        self.loop, self.loop_thread = loop, threading.get_ident()
        self.beat_at = time.monotonic()
        self.samples: collections.Counter[str] = collections.Counter()
        self.others: collections.Counter[str] = collections.Counter()
        loop.call_soon(self._beat)

    def _beat(self) -> None:
        self.beat_at = time.monotonic()
        self.loop.call_later(self.BEAT, self._beat)

    @staticmethod
    def _where(frame: Any, depth: int = 6) -> str:
        parts = []
        while frame is not None and len(parts) < depth:
            code = frame.f_code
            parts.append(f"{code.co_name}@{os.path.basename(code.co_filename)}:{frame.f_lineno}")
            frame = frame.f_back
        return " < ".join(parts)

    def run(self) -> None:
        while True:
            time.sleep(self.BEAT / 2)
            if time.monotonic() - self.beat_at < self.STALL:
                continue
            frames = sys._current_frames()
            self.samples[self._where(frames.get(self.loop_thread))] += 1
            names = {t.ident: t.name for t in threading.enumerate()}
            for ident, frame in frames.items():
                if ident not in (self.loop_thread, threading.get_ident()):
                    self.others[f"{names.get(ident, ident)}: {self._where(frame, 3)}"] += 1

    def take(self) -> dict[str, Any]:
        out = {"loop": self.samples.most_common(8), "others": self.others.most_common(6)}
        self.samples, self.others = collections.Counter(), collections.Counter()
        return out


_sampler: StallSampler | None = None


def start_once() -> None:
    """Start the probes on the running loop, the first time a scope arrives."""
    global _started, _sampler
    if _started:
        return
    _started = True
    if os.environ.get(ENABLED) != "1":
        return
    _gc.install()
    loop = asyncio.get_running_loop()
    _sampler = StallSampler(loop)
    _sampler.start()
    loop.create_task(_probe())


async def _probe() -> None:
    loop_lags: list[float] = []
    writer_waits: list[float] = []
    window_end = time.monotonic() + WINDOW
    while True:
        asked = time.monotonic()
        await asyncio.sleep(EVERY)
        loop_lags.append(time.monotonic() - asked - EVERY)
        asked = time.monotonic()
        await _on_writer()
        writer_waits.append(time.monotonic() - asked)
        if time.monotonic() >= window_end:
            line = {"pid": os.getpid(), "at": time.time(), "loop": percentiles(loop_lags),
                    "writer": percentiles(writer_waits),
                    "gc": _gc.take(), "stalls": _sampler.take() if _sampler else {}}
            print(PREFIX + json.dumps(line), file=sys.stderr, flush=True)
            loop_lags, writer_waits = [], []
            window_end = time.monotonic() + WINDOW


def read_lines(text: str) -> list[dict[str, Any]]:
    """The probe lines of one log."""
    return [json.loads(line[line.index(PREFIX) + len(PREFIX):])
            for line in text.splitlines() if PREFIX in line]
