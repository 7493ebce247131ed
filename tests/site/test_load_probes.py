"""The load harness's probes inside the web processes (tests/load/probes.py)
run only when asked (``--probes``): a thread waking every 2.5 ms and a loop beat every
5 ms cost those processes about a fifth of their CPU under the fuzzer, which the
figures would have counted as the site's."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.load import probes

STARTED_THREADS = """
import asyncio, threading
from tests.load import probes

async def main():
    probes.start_once()
    await asyncio.sleep(0)
    print(sorted(t.name for t in threading.enumerate()))

asyncio.run(main())
"""


def threads_after_start(enabled: str | None) -> str:
    env = {k: v for k, v in os.environ.items() if k != probes.ENABLED}
    if enabled is not None:
        env[probes.ENABLED] = enabled
    done = subprocess.run([sys.executable, "-c", STARTED_THREADS], env=env, text=True,
                          capture_output=True, timeout=60, check=True)
    return done.stdout


@pytest.mark.parametrize("enabled", [None, "0"])
def test_the_probes_stay_off_unless_asked(enabled):
    assert "load-stall-sampler" not in threads_after_start(enabled)


def test_asked_for_the_probes_start_their_sampler():
    assert "load-stall-sampler" in threads_after_start("1")
