"""The cyclic garbage collector of a long-running server process.

A full (generation 2) collection scans every tracked object and stops every thread of
the process while it does. Measured with ``python -m tests.load play --tables 100``
(its probes time each collection in each web process; issue 15):

- After start-up a web process holds ~140,000 such objects that live as long as it
  does (Django, the modules, the URL patterns): on this project's 2-core machine one
  full collection took 165-200 ms, each web process ran one every 20-30 s at 100
  tables, and each was a hole in every table's latency at once (the loop lag spiked
  to 157-179 ms exactly then; the echo floor's own p99 was 124-140 ms).
- The engine memoizes the legal card sets of every hand it meets
  (``games.engine.rules``: at most 66,711 hands of up to four cards, ~8 objects
  each). Every move's views ask for them, so a server's memo grew with every game it
  saw: after 3,000 random games a process tracked 346,000 more objects and a full
  collection took 155 ms, and it kept growing for hours.

:func:`freeze_after_start_up` fills that memo once (2 s, 52 MiB), then moves what
start-up made into the permanent generation, which collections never scan
(``gc.freeze``, CPython's advice for this case). What the process makes later is
collected as before: after 2,000 random games it tracked 3,700 objects and a full
collection took 1 ms.

It then collects its youngest generation every :data:`YOUNG_THRESHOLD` new objects
instead of CPython's 700. Under the fuzzer's 1,200 hostile frames a second (python -m
tests.load fuzz, issue 15) a web process made ~180,000 objects a second, nearly all
dead within its frame: at 700 it collected hundreds of times a second, each collection
promoted the frames then in flight, and they added up to 10-12 full collections per
process per run, 20-50 ms each, each a hole in every table's latency. At 20,000 no full
collection ran in the same run; a young collection scans at most 20,000 objects.
"""

from __future__ import annotations

import gc

from games.engine import rules
from kozel_site.task_sending import warm_task_sending

YOUNG_THRESHOLD = 20_000  # CPython's default is 700


def freeze_after_start_up() -> int:
    """Import what a request would import lazily (the URL patterns, so every view
    module), build what the first task sent would (:mod:`kozel_site.task_sending`),
    fill the engine's per-hand memo, collect what start-up left behind, then
    freeze the rest. Returns how many objects were frozen. Called once, when the
    process is ready to serve; a no-op (0) where ``KOZEL_FREEZE_AFTER_START_UP`` is
    off (the test settings)."""
    from django.conf import settings
    from django.urls import get_resolver

    if not settings.KOZEL_FREEZE_AFTER_START_UP:
        return 0

    get_resolver().url_patterns  # noqa: B018 - imports every view module
    warm_task_sending()  # Celery's app, result backend and queue (the module says why)
    rules.warm_caches()
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, *gc.get_threshold()[1:])
    return gc.get_freeze_count()
