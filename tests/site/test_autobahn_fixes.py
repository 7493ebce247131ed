"""kozel_site/autobahn_fixes.py: daphne's frames no longer pay for autobahn's debug
highlighting, and a debug line that is logged still reads the same (issue 15)."""

from __future__ import annotations

import pprint

import autobahn.util
from autobahn.twisted import websocket as twisted_websocket
from autobahn.websocket import protocol

import kozel_site.asgi  # noqa: F401 - installs the fix, as daphne's import does
from kozel_site import autobahn_fixes


def test_a_frames_debug_values_are_highlighted_only_when_a_line_is_formatted(
        monkeypatch):
    for module in (protocol, twisted_websocket):  # kozel_site.asgi installed it
        assert module.hltype.kozel_lazy and module.hlval.kozel_lazy
    autobahn_fixes.install()  # idempotent: the names stay wrapped once
    calls: list[str] = []
    original_hl = autobahn.util.hl

    def counted_hl(text, *args, **kwargs):
        calls.append(str(text))
        return original_hl(text, *args, **kwargs)

    monkeypatch.setattr(autobahn.util, "hl", counted_hl)
    kind = protocol.hltype(protocol.WebSocketProtocol.sendData)
    value = twisted_websocket.hlval(1234)
    assert calls == []  # what autobahn's disabled log.debug gets costs nothing
    line = "{func} sent {n} bytes".format(func=kind, n=value)  # noqa: UP032 - as txaio does
    expected_kind = autobahn.util.hltype(protocol.WebSocketProtocol.sendData)
    assert line == f"{expected_kind} sent {autobahn.util.hlval(1234)} bytes"
    assert calls  # formatted: highlighted by autobahn's own functions
    assert str(value) == autobahn.util.hlval(1234)


def test_a_connections_options_are_pretty_printed_only_for_a_line_that_is_formatted():
    """``_connectionMade`` and ``startHandshake`` pass ``pformat(...)`` to a disabled
    ``log.debug``: lazy, and the same text when a line is formatted; ``Timings`` still
    prints as a string."""
    assert protocol.pformat.kozel_lazy  # kozel_site.asgi installed it
    options = [("openHandshakeTimeout", 5, "WebSocketServerFactory"), ("maxFramePayloadSize", 0,
               "WebSocketServerFactory")]
    lazy = protocol.pformat(options)
    assert not isinstance(lazy, str)
    assert f"\n{lazy}" == "\n" + pprint.pformat(options)
    timings = protocol.Timings()
    timings.track("onOpen")
    assert str(timings) == pprint.pformat(timings._timings) and "onOpen" in str(timings)
