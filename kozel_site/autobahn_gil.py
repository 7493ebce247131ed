"""daphne's incoming frames unmasked and checked for UTF-8 without giving the GIL away.

autobahn, which daphne's WebSockets run on, unmasks every frame a client sends and
validates a text frame's UTF-8 with its NVX extension: small C functions called
through cffi, about nine calls per frame and two per connection. cffi releases the GIL
around every call to C, however short. The call itself takes a microsecond; getting the
GIL back does not when another thread of the web process holds it: the event loop
waits until that thread blocks or the interpreter's switch interval (5 ms) makes it
let go. While the reading thread answered a crowd of handshakes, the loop's stall
samples sat in those calls (``_utf8validator`` and ``_xormasker``; python -m tests.load
fuzz, issue 15), and every frame of every table on that process waited behind them.

The same work with the GIL kept: the mask applied with Python's big integers (one XOR
over the whole payload, in C) and the UTF-8 checked by Python's own incremental decoder
(C). Both follow autobahn's interfaces exactly: ``pointer``/``reset``/``process`` for a
masker and ``reset``/``validate`` (valid, ends on a code point, index in this chunk,
index in the message) for a validator. Remove it if autobahn's native code stops
releasing the GIL.
"""

from __future__ import annotations

import codecs
from typing import Any

_Utf8Decoder = codecs.getincrementaldecoder("utf-8")


class IntXorMasker:
    """autobahn's frame masker (RFC 6455 5.3): XOR with the 4-byte key, continued
    across the chunks of one frame."""

    __slots__ = ("_key", "_pointer")

    def __init__(self, mask: bytes) -> None:
        if len(mask) != 4:
            raise ValueError("a WebSocket mask is 4 bytes")
        self._key = bytes(mask)
        self._pointer = 0

    def pointer(self) -> int:
        return self._pointer

    def reset(self) -> None:
        self._pointer = 0

    def process(self, data: bytes) -> bytes:
        length = len(data)
        if not length:
            return b""
        shift = self._pointer & 3
        key = self._key[shift:] + self._key[:shift]
        stream = (key * (length // 4 + 1))[:length]
        self._pointer += length
        return (int.from_bytes(data, "big") ^ int.from_bytes(stream, "big")).to_bytes(
            length, "big")


def create_xor_masker(mask: bytes, length: int | None = None) -> IntXorMasker:
    """autobahn's ``create_xor_masker``: one masker whatever the frame's length."""
    return IntXorMasker(mask)


class CodecUtf8Validator:
    """autobahn's incremental UTF-8 validator, on Python's strict UTF-8 decoder."""

    __slots__ = ("_decoder", "_total")

    def __init__(self) -> None:
        self._decoder = _Utf8Decoder()
        self._total = 0

    def reset(self) -> None:
        self._decoder.reset()
        self._total = 0

    def validate(self, data: bytes) -> tuple[bool, bool, int, int]:
        try:
            self._decoder.decode(data, False)
        except UnicodeDecodeError as bad:
            return False, False, bad.start, self._total + bad.start
        self._total += len(data)
        ends_on_code_point = not self._decoder.getstate()[0]
        return True, ends_on_code_point, len(data), self._total


def install() -> None:
    """Use these in autobahn's protocol (idempotent)."""
    try:
        from autobahn.websocket import protocol
    except ImportError:  # pragma: no cover - daphne always brings autobahn
        return
    patched: dict[str, Any] = {"Utf8Validator": CodecUtf8Validator,
                               "create_xor_masker": create_xor_masker}
    for name, replacement in patched.items():
        setattr(protocol, name, replacement)
