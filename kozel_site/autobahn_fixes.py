"""autobahn highlights the values of its debug log lines even when nothing logs them.

On every frame daphne receives (``WebSocketAdapterProtocol.dataReceived``) and sends
(``WebSocketProtocol.sendData``), autobahn calls ``hltype`` and ``hlval`` for the
keyword arguments of a ``log.debug`` call: a qualified name read through ``inspect``
and two ``click.style`` calls, all thrown away by txaio's logger unless it logs at
debug. Under the fuzzer that was 4.7 % of a web process's samples holding the GIL (1.7
% at 100 tables at human pace; py-spy, python -m tests.load, issue 15).

Every connection does the same with ``pformat``: ``_connectionMade`` pretty-prints its
29 options, and ``startHandshake`` the transport's details, for two more ``log.debug``
lines (0.23 ms of the event loop per connection, measured: 18 ms for the 78 handshakes
each web process takes when the fuzzer's sockets connect; python -m tests.load fuzz).

The fix: in the two modules on that path the two names return a lazy value, which
highlights only when a log line is formatted, to the same text; so does ``pformat`` in
autobahn's protocol module, whose one other use (``Timings.__str__``, which must return
a string) keeps the real one. Remove it when autobahn skips the work for a disabled
level.
"""

from __future__ import annotations

from collections.abc import Callable
from pprint import pformat
from typing import Any


class _Highlighted:
    """``render()`` when the log line is formatted, not before."""

    __slots__ = ("_render",)

    def __init__(self, render: Callable[[], str]) -> None:
        self._render = render

    def __str__(self) -> str:
        return self._render()

    def __format__(self, spec: str) -> str:
        return format(self._render(), spec)

    __repr__ = __str__


def _lazy(original: Callable[..., str]) -> Callable[..., _Highlighted]:
    def highlight(*args: Any, **kwargs: Any) -> _Highlighted:
        return _Highlighted(lambda: original(*args, **kwargs))

    highlight.kozel_lazy = True  # type: ignore[attr-defined]
    return highlight


def install() -> None:
    """Make ``hltype``, ``hlval`` and the protocol's ``pformat`` lazy where daphne's frames
    and connections pass (idempotent)."""
    try:
        from autobahn.twisted import websocket as twisted_websocket
        from autobahn.websocket import protocol
    except ImportError:  # pragma: no cover - daphne always brings autobahn
        return
    lazy_names = ((twisted_websocket, ("hltype", "hlval")),
                  (protocol, ("hltype", "hlval", "pformat")))
    for module, names in lazy_names:
        for name in names:
            original = getattr(module, name, None)
            if original is not None and not getattr(original, "kozel_lazy", False):
                setattr(module, name, _lazy(original))
    if hasattr(protocol, "Timings"):
        protocol.Timings.__str__ = _timings_text  # a string, as str() requires


def _timings_text(timings: Any) -> str:
    """autobahn's ``Timings.__str__``, with the real ``pformat``."""
    return pformat(timings._timings)
