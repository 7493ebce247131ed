"""The engine protocol with every bot level: ``python -m games.bots.protocol``.

The same JSON-lines protocol as ``python -m games.engine.protocol``
(``games/engine/PROTOCOL.md``), but the ``bot`` and ``policies`` commands
offer every level of :mod:`games.bots.registry` instead of the engine's
``random`` alone.  The entry point lives here, above the engine, because
the engine may not import its client (the bots).
"""

from __future__ import annotations

from games.engine import protocol

from .registry import policies

__all__ = ["main"]


def main() -> None:
    """Entry point of ``python -m games.bots.protocol``."""
    protocol.main(policies())


if __name__ == "__main__":
    main()
