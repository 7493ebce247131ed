"""daphne's sockets send a frame at once instead of on the event loop's next turn.

Twisted's ``FileDescriptor.write`` only buffers: it registers the socket for writing
(``epoll_ctl``), and on the loop's next turn, once ``select`` has reported the socket
writable, ``doWrite`` sends the buffer and unregisters it (``epoll_ctl`` again). Under
twisted's asyncio reactor, which daphne runs, every frame a web process sent paid
those two system calls and a turn of the loop, and waited behind every callback that
was already due in that turn: under the fuzzer (python -m tests.load fuzz, issue 15)
registering and unregistering writers was 6.5 % of a web process's loop thread and
the deferred ``doWrite`` another 2 %, on top of the ``send`` itself.

The fix, for plain TCP connections (not TLS, which twisted writes through its own
layer): when nothing is waiting in the connection's buffer, ``send`` the data now.
Whatever the kernel does not take at once (a full send buffer, a lost connection) goes
through twisted's own ``write`` as before, so order, back-pressure and the report of a
lost connection are twisted's; so does every write while the connection closes or
aborts, or while a pull producer waits for ``doWrite`` to ask it for more. Remove it
if twisted learns to write eagerly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def _eager(original: Callable[[Any, bytes], None]) -> Callable[[Any, bytes], None]:
    def write(self: Any, data: bytes) -> None:
        if (type(data) is not bytes or not data or self.TLS or not self.connected
                or self.disconnecting or self._writeDisconnected
                or getattr(self, "_aborting", False)
                or (self.producer is not None and not self.streamingProducer)
                or self._tempDataBuffer or self.offset < len(self.dataBuffer)):
            # Something is queued, the connection is closing, or a pull producer waits
            # for doWrite to ask it for more: twisted decides.
            original(self, data)
            return
        sent = self.writeSomeData(data)
        if isinstance(sent, int) and sent >= len(data):
            return
        # The rest (or, for a lost connection, all of it) goes the buffered way: the
        # next doWrite sends it, or meets the same error and reports the loss.
        original(self, data[sent:] if isinstance(sent, int) and sent > 0 else data)

    write.kozel_eager = True  # type: ignore[attr-defined]
    return write


def install() -> None:
    """Make twisted's TCP connections write eagerly (idempotent)."""
    from twisted.internet import tcp

    if not getattr(tcp.Connection.write, "kozel_eager", False):
        tcp.Connection.write = _eager(tcp.Connection.write)  # type: ignore[method-assign]
