"""What receiving a frame costs a web process's event loop while another of its threads
is busy: autobahn's native unmasking and UTF-8 check (cffi calls, each giving the GIL
away) against kozel_site/autobahn_gil.py's (the GIL kept). Issue 15.

    .venv/bin/python -m tests.load.gil_bench [--frames 3000] [--size 120]

The busy thread does what a web process's reading thread does for a crowd of
handshakes: Python work, giving the GIL away at each round trip to the database
(here every ~0.3 ms, as a ``sleep(0)``). Printed per implementation: microseconds per
frame with the other thread idle and busy: mean, p50, p99, max.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from autobahn.websocket.utf8validator import Utf8Validator as AutobahnValidator
from autobahn.websocket.xormasker import create_xor_masker as autobahn_masker

from kozel_site import autobahn_gil
from tests.load.measure import percentiles

MASK = b"\x1f\x8b\x3c\x07"


def _busy(stop: threading.Event) -> None:
    """Python work, with the GIL given away between round trips (~0.3 ms apart)."""
    while not stop.is_set():
        until = time.perf_counter() + 0.0003
        while time.perf_counter() < until:
            sum(range(200))
        time.sleep(0)


def _receive(masker: Callable[..., Any], validator: Callable[[], Any],
             payload: bytes) -> None:
    """What autobahn does for one masked text frame: a masker, a validator, the calls."""
    unmask = masker(MASK, len(payload))
    check = validator()
    unmask.pointer()
    data = unmask.process(payload)
    unmask.pointer()
    check.validate(data)


def _timed(masker: Callable[..., Any], validator: Callable[[], Any], payload: bytes,
           frames: int) -> list[float]:
    took = []
    for _ in range(frames):
        begin = time.perf_counter()
        _receive(masker, validator, payload)
        took.append(time.perf_counter() - begin)
    return took


def _figures(took: list[float]) -> dict[str, Any]:
    """p50/p99/max and the mean, in microseconds."""
    return {**percentiles(took, 1e6), "mean": round(1e6 * sum(took) / len(took), 2)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=3000)
    parser.add_argument("--size", type=int, default=120, help="payload bytes per frame")
    args = parser.parse_args(argv)
    payload = (b'{"type": "act", "game_id": 1, "version": 7, "action": '
               b'{"kind": "play", "cards": ["QC"]}}' * (args.size // 80 + 1))[:args.size]
    implementations = {"autobahn (cffi)": (autobahn_masker, AutobahnValidator),
                       "kozel_site.autobahn_gil": (autobahn_gil.create_xor_masker,
                                                   autobahn_gil.CodecUtf8Validator)}
    print(f"{args.frames} frames of {args.size} bytes; switch interval "
          f"{1000 * sys.getswitchinterval():.0f} ms; {os.cpu_count()} CPUs")
    for name, (masker, validator) in implementations.items():
        alone = _figures(_timed(masker, validator, payload, args.frames))
        stop = threading.Event()
        other = threading.Thread(target=_busy, args=(stop,), daemon=True)
        other.start()
        try:
            busy = _figures(_timed(masker, validator, payload, args.frames))
        finally:
            stop.set()
            other.join()
        for label, figures in (("alone", alone), ("beside a busy thread", busy)):
            print(f"  {name:26} {label:22} µs/frame mean {figures['mean']:>7} "
                  f"p50 {figures['p50']:>7} p99 {figures['p99']:>8} max {figures['max']:>9}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
