"""kozel_site/twisted_fixes.py: a frame daphne sends leaves at once, and what the kernel
does not take goes twisted's buffered way, in order (issue 15)."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest
from twisted.internet import interfaces, protocol, selectreactor, tcp
from zope.interface import implementer

import kozel_site.asgi  # noqa: F401 - installs the fix, as daphne's import does
from kozel_site import twisted_fixes


@pytest.fixture
def connection() -> Iterator[tuple[tcp.Connection, socket.socket, selectreactor.SelectReactor]]:
    """A twisted TCP connection on one end of a real socket pair, with a real (not
    running) reactor that records which descriptors wait to write."""
    ours, peer = socket.socketpair()
    ours.setblocking(False)
    reactor = selectreactor.SelectReactor()
    conn = tcp.Connection(ours, protocol.Protocol(), reactor)
    conn.connected = 1
    try:
        yield conn, peer, reactor
    finally:
        ours.close()
        peer.close()


def _read_all(peer: socket.socket, size: int, conn: tcp.Connection) -> bytes:
    """Read ``size`` bytes from the peer, letting the connection flush its buffer as a
    running reactor would whenever the socket is writable."""
    peer.settimeout(5)
    got = bytearray()
    while len(got) < size:
        conn.doWrite()
        got += peer.recv(1 << 20)
    return bytes(got)


def test_a_frame_to_an_idle_socket_is_sent_without_waiting_for_the_loop(connection):
    conn, peer, reactor = connection
    assert tcp.Connection.write.kozel_eager  # kozel_site.asgi installed it
    installed = tcp.Connection.write
    twisted_fixes.install()  # idempotent: wrapped once
    assert tcp.Connection.write is installed
    conn.write(b"first frame")
    conn.write(b"second frame")
    assert conn not in reactor.getWriters()  # nothing registered, nothing buffered
    peer.settimeout(5)
    assert peer.recv(100) == b"first framesecond frame"


def test_what_the_kernel_does_not_take_is_buffered_and_sent_in_order(connection):
    conn, peer, reactor = connection
    big = bytes(range(256)) * 40_000  # ~10 MB: more than a socket's send buffer
    conn.write(big)
    assert conn in reactor.getWriters()  # the rest waits for twisted's doWrite
    conn.write(b"after")  # queued behind it, never sent ahead of it
    assert _read_all(peer, len(big) + 5, conn) == big + b"after"
    assert conn not in reactor.getWriters()
    conn.write(b"idle again")
    assert conn not in reactor.getWriters()
    assert peer.recv(100) == b"idle again"


def test_a_write_to_a_lost_connection_is_left_to_twisted_to_report(connection):
    conn, peer, reactor = connection
    peer.close()
    conn.write(b"into the void")  # send fails: buffered, as twisted would have
    assert conn in reactor.getWriters()
    assert conn.doWrite() is not None  # twisted's own path reports the loss


def test_a_write_after_an_abort_is_never_sent(connection):
    conn, peer, reactor = connection
    conn.abortConnection()  # twisted drops what is written until the loss is reported
    conn.write(b"too late")
    peer.setblocking(False)
    with pytest.raises(BlockingIOError):
        peer.recv(100)


def test_a_pull_producer_is_asked_for_more_through_twisteds_own_write(connection):
    """A pull producer waits for ``doWrite`` to call ``resumeProducing``: sent at once,
    nothing would ever call it again."""
    conn, peer, reactor = connection

    @implementer(interfaces.IPullProducer)
    class Pull:
        asked = 0

        def resumeProducing(self) -> None:
            self.asked += 1

        def stopProducing(self) -> None:
            return None

    producer = Pull()
    conn.registerProducer(producer, False)
    conn.write(b"chunk")
    assert conn in reactor.getWriters()
    _read_all(peer, 5, conn)
    assert producer.asked >= 1
