"""make run's supervisor restarts a dead child with backoff and stops everything."""

from __future__ import annotations

import sys
import time

from kozel_site.run import FIRST_BACKOFF, Supervisor


def _poll_until(supervisor: Supervisor, condition, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        supervisor.poll()
        if condition():
            return True
        time.sleep(0.05)
    return False


def test_a_child_that_dies_is_started_again_with_a_growing_backoff():
    supervisor = Supervisor(say=lambda text: None)
    child = supervisor.add("crasher", [sys.executable, "-c", "raise SystemExit(3)"])
    try:
        assert _poll_until(supervisor, lambda: child.restarts >= 2)
        assert child.backoff > FIRST_BACKOFF * 2  # doubled at each death
        assert [event for _, event in child.history].count("exit 3") >= 2
    finally:
        supervisor.stop(grace=2)


def test_stop_ends_every_child_and_none_is_restarted():
    supervisor = Supervisor(say=lambda text: None)
    child = supervisor.add("sleeper", [sys.executable, "-c", "import time; time.sleep(60)"])
    assert child.alive()
    supervisor.stop(grace=5)
    assert not child.alive()
    supervisor.poll()
    assert child.restarts == 0  # a stopped child is not restarted
