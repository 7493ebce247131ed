"""A web process freezes what start-up made (kozel_site/gc_tuning.py): its full
collections scan only what it made since, not Django and every module of the site."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Measured in a fresh interpreter: the test process has long imported everything.
PROBE = """
import gc, json, time
import kozel_site.asgi
frozen, tracked = gc.get_freeze_count(), len(gc.get_objects())
began = time.perf_counter()
gc.collect()
print(json.dumps({"frozen": frozen, "tracked": tracked,
                  "full_collection_ms": (time.perf_counter() - began) * 1000}))
"""


def test_the_asgi_application_freezes_start_up_objects_out_of_full_collections():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "kozel_site.settings.base"}
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, check=True,
                         capture_output=True, text=True, timeout=120)
    figures = json.loads(out.stdout.strip().splitlines()[-1])
    # Start-up makes ~140,000 tracked objects; nearly all of them must be frozen, so a
    # full collection scans only what the process makes while it serves.
    assert figures["frozen"] > 100_000, figures
    assert figures["tracked"] < figures["frozen"] / 20, figures
