"""The cyclic garbage collector of a long-running server process.

A full (generation 2) collection scans every tracked object and stops every thread of
the process while it does. After start-up a web process holds ~140,000 such objects
that live as long as it does (Django, the modules, the URL patterns, the templates'
nodes): on this project's 2-core machine one full collection took 165-200 ms, each web
process ran one every 20-30 s at 100 tables, and each was a hole in every table's
latency at once (``python -m tests.load play --tables 100``: the web processes' loop
lag spiked to 157-179 ms exactly when a full collection ran, and the echo floor's own
p99 was 124-140 ms; issue 15).

:func:`freeze_after_start_up` moves what start-up made into the permanent generation,
which collections never scan (``gc.freeze``, CPython's advice for this case). What
the process makes later is collected as before; what start-up made is never garbage.
"""

from __future__ import annotations

import gc


def freeze_after_start_up() -> int:
    """Import what a request would import lazily (the URL patterns, so every view
    module), collect what start-up left behind, then freeze the rest. Returns how many
    objects were frozen. Called once, when the process is ready to serve."""
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 - imports every view module
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
