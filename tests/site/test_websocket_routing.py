"""WebSocket paths nobody serves are refused at the handshake, quietly."""

from __future__ import annotations

import logging

import pytest
from channels.testing import WebsocketCommunicator

from kozel_site.asgi import application

ORIGIN = [(b"origin", b"http://127.0.0.1:8000")]


@pytest.mark.parametrize("path", ["/ws/nope/", "/ws/table/abc/", "/", "/ws/lobby/extra/",
                                  "/favicon.ico"])
async def test_unknown_path_is_refused_without_an_error_log(path, caplog):
    caplog.set_level(logging.DEBUG)
    communicator = WebsocketCommunicator(application, path, headers=ORIGIN)
    connected, code = await communicator.connect(timeout=5)
    assert not connected and code == 4404
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
