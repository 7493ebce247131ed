"""Waiting in tests: for a condition, with a deadline (never a bare sleep)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def _checked(check: Callable[[], T], deadline: float, timeout: float, what: str) -> T:
    """``check()``; fail, naming ``what``, when it is falsy and ``deadline`` has passed."""
    value = check()
    if not value and time.monotonic() >= deadline:
        raise AssertionError(f"timed out after {timeout} s waiting for {what}")
    return value


def wait_for(check: Callable[[], T], timeout: float, what: str, interval: float = 0.05) -> T:
    """Poll ``check`` until it returns something truthy, and return that; fail after
    ``timeout`` seconds naming ``what`` was awaited."""
    deadline = time.monotonic() + timeout
    while not (value := _checked(check, deadline, timeout, what)):
        time.sleep(interval)
    return value


async def until(check: Callable[[], T], timeout: float, what: str,
                interval: float = 0.01) -> T:
    """:func:`wait_for` on an event loop: poll ``check`` between the loop's other work
    (the consumers and tasks the test waits on run meanwhile)."""
    deadline = time.monotonic() + timeout
    while not (value := _checked(check, deadline, timeout, what)):
        await asyncio.sleep(interval)
    return value


def stays_false(check: Callable[[], object], window: float, what: str,
                interval: float = 0.05) -> None:
    """Check that ``check`` stays falsy for the whole ``window`` seconds: for tests whose
    point is that something does *not* happen (a duplicate that must not act)."""
    deadline = time.monotonic() + window
    while time.monotonic() < deadline:
        assert not check(), f"{what} happened within {window} s"
        time.sleep(interval)
    assert not check(), f"{what} happened within {window} s"
