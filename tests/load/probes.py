"""Probes inside each web process of the load layout: where a move's time waits.

The harness times a move from its own socket; what it cannot see is whether the wait
was in the web process's event loop (busy sending, decoding, building views) or in
the queue of the threads that write to the database (``kozel_site.ws.db_call``),
behind other tables' moves. Every ``EVERY`` seconds each probe asks both for nothing:

- ``loop``: how late ``asyncio.sleep`` wakes up (the loop's lag);
- ``writer``: how long a no-op handed to the writing threads takes to come back (their
  queue, plus the loop's lag on the way back);

and every ``WINDOW`` seconds it writes one line ``load-probe {json}`` to its log with
the window's percentiles. The harness reads them back into its results
(``web_probes``). Loaded only by tests/load/asgi.py, never by the site.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from typing import Any

from tests.load.measure import GcPauses, percentiles

EVERY = 0.05
WINDOW = 10.0
PREFIX = "load-probe "

_started = False
_gc = GcPauses()


def _noop() -> None:
    return None


def _on_writer() -> Any:
    from kozel_site.ws import db_call

    return db_call(_noop)()


def start_once() -> None:
    """Start the probes on the running loop, the first time a scope arrives."""
    global _started
    if _started:
        return
    _started = True
    _gc.install()
    asyncio.get_running_loop().create_task(_probe())


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
                    "gc": _gc.take()}
            print(PREFIX + json.dumps(line), file=sys.stderr, flush=True)
            loop_lags, writer_waits = [], []
            window_end = time.monotonic() + WINDOW


def read_lines(text: str) -> list[dict[str, Any]]:
    """The probe lines of one log."""
    return [json.loads(line[line.index(PREFIX) + len(PREFIX):])
            for line in text.splitlines() if PREFIX in line]
