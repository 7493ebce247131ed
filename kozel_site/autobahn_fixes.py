"""autobahn highlights the values of its debug log lines even when nothing logs them.

On every frame daphne receives (``WebSocketAdapterProtocol.dataReceived``) and sends
(``WebSocketProtocol.sendData``), autobahn calls ``hltype`` and ``hlval`` for the
keyword arguments of a ``log.debug`` call: a qualified name read through ``inspect``
and two ``click.style`` calls, all thrown away by txaio's logger unless it logs at
debug. Under the fuzzer that was 4.7 % of a web process's samples holding the GIL (1.7
% at 100 tables at human pace; py-spy, python -m tests.load, issue 15).

The fix: in the two modules on that path the two names return a lazy value, which
highlights only when a log line is formatted, to the same text. Remove it when
autobahn skips the work for a disabled level.
"""

from __future__ import annotations

from collections.abc import Callable
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
    """Make ``hltype`` and ``hlval`` lazy where daphne's frames pass (idempotent)."""
    try:
        from autobahn.twisted import websocket as twisted_websocket
        from autobahn.websocket import protocol
    except ImportError:  # pragma: no cover - daphne always brings autobahn
        return
    for module in (twisted_websocket, protocol):
        for name in ("hltype", "hlval"):
            original = getattr(module, name, None)
            if original is not None and not getattr(original, "kozel_lazy", False):
                setattr(module, name, _lazy(original))
