"""JSON on the site's WebSockets: orjson where it means what the standard library means.

Every frame a socket sends passes through :func:`dumps`. At 100 tables (python -m
tests.load play, issue 15) a move's event is encoded once for every socket that
receives it: the standard library took 56 µs to encode a mid-game event, orjson 3 µs.

Every frame a socket receives passes through :func:`loads`. Under hostile traffic
(python -m tests.load fuzz) ``json.loads`` was 12 % of the web processes' GIL samples:
a frame nested a thousand levels deep takes it 50–180 µs, orjson 4 µs.

orjson reads some valid JSON otherwise than the standard library: an integer beyond
64 bits comes back a float; ``NaN``, ``Infinity``, ``1e400`` and lone surrogates are
refused. So a text with a run of 19 digits, and any text orjson refuses for a reason
other than its depth, is read by ``json.loads``: a frame means what it meant before.
"""

from __future__ import annotations

import json
import re
from typing import Any

import orjson

_LONG_INTEGER = re.compile(r"\d{19}")


def loads(text: str) -> Any:
    """The value of the JSON ``text``; ``ValueError`` when it is not JSON or nested more
    than 1024 levels deep (or ``RecursionError`` from ``json.loads`` for a text that
    orjson refused otherwise, as before)."""
    if _LONG_INTEGER.search(text) is None:
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError as error:
            if "depth limit" in str(error):
                raise ValueError("JSON nested more than 1024 levels deep") from None
    return json.loads(text)


def dumps(content: Any) -> str:
    """``content`` as JSON text; dict keys that are not strings become strings, as
    ``json.dumps`` makes them. What orjson refuses to write (an integer beyond 64 bits,
    such as a client's ``ping`` nonce echoed in its ``pong``: python -m tests.load fuzz
    closed those sockets with 1011) the standard library writes."""
    try:
        return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        return json.dumps(content)
