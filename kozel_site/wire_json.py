"""JSON on the site's WebSockets: written by orjson, read by the standard library.

Every frame a socket sends passes through :func:`dumps`. At 100 tables (python -m
tests.load play, issue 15) a move's event is encoded once for every socket that
receives it: the standard library took 56 µs to encode a mid-game event, orjson 3 µs.

Frames stay read by ``json.loads`` (channels' ``decode_json``): a client's frame is small
(an ``act`` is ~100 bytes), and orjson reads some valid JSON differently (an integer
beyond 64 bits comes back a float) or not at all (``NaN``), which would change what a
frame means.
"""

from __future__ import annotations

import json
from typing import Any

import orjson


def dumps(content: Any) -> str:
    """``content`` as JSON text; dict keys that are not strings become strings, as
    ``json.dumps`` makes them. What orjson refuses to write (an integer beyond 64 bits,
    such as a client's ``ping`` nonce echoed in its ``pong``: python -m tests.load fuzz
    closed those sockets with 1011) the standard library writes."""
    try:
        return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        return json.dumps(content)
