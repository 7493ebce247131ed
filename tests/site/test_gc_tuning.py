"""A server process freezes what start-up made, the engine's per-hand memo filled
first (kozel_site/gc_tuning.py): its full collections scan only what it made since,
not Django, every module of the site, or the legal card sets of every hand it saw."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Measured in a fresh interpreter: the test process has long imported everything.
PROBE = """
import gc, json, random
import kozel_site.asgi
from games import engine
frozen, after_start_up = gc.get_freeze_count(), len(gc.get_objects())
young = gc.get_threshold()[0]
rng = random.Random(7)
for number in range(GAMES):  # every seat's view after every action, as the site makes them
    state = engine.new_game(rng.getrandbits(64), dealer=number % 4)
    while engine.outcome(state) is None:
        for seat in range(4):
            engine.observe(state, seat)
        seat = next(s for s in [state.turn, 0, 1, 2, 3]
                    if s is not None and engine.legal_actions(state, s))
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    del state
gc.collect()
print(json.dumps({"frozen": frozen, "after_start_up": after_start_up, "young": young,
                  "after_games": len(gc.get_objects())}))
"""


def _figures(games: int) -> dict[str, int]:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "kozel_site.settings.base"}
    out = subprocess.run([sys.executable, "-c", f"GAMES = {games}\n{PROBE}"], cwd=ROOT,
                         env=env, check=True, capture_output=True, text=True, timeout=180)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_server_process_keeps_start_up_and_the_engine_memo_out_of_full_collections():
    figures = _figures(games=200)
    # Start-up makes ~140,000 tracked objects and the filled memo ~540,000: nearly all
    # must be frozen, so a full collection scans only what the process makes serving.
    assert figures["frozen"] > 500_000, figures
    assert figures["after_start_up"] < 10_000, figures
    # 200 games' views grew an unfilled memo by ~40,000 tracked objects; filled first,
    # it gets no new hands.
    assert figures["after_games"] - figures["after_start_up"] < 5_000, figures


def test_a_server_process_collects_its_youngest_objects_less_often():
    """Under the fuzzer's 1,200 frames a second a web process collected its youngest
    generation hundreds of times a second at CPython's 700, and each promoted the
    frames then in flight: 10-12 full collections per process per run, up to 50 ms
    each. At 20,000 none ran (python -m tests.load fuzz, issue 15)."""
    assert _figures(games=0)["young"] >= 20_000
