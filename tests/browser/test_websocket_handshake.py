"""What a real client gets from daphne at the WebSocket handshake (games/WEBSOCKET.md).

A consumer that closes before ``accept()`` is answered by daphne with HTTP 403, not with
the close code it passed; an unknown path must get the same quiet refusal, not the
URLRouter's "No route found" traceback and a 500. No browser is needed, only the daphne
process of the browser suite.
"""

from __future__ import annotations

import base64
import os
import socket

import pytest

from games.services import tables

pytestmark = pytest.mark.browser


def handshake_status(port: int, path: str, cookie: str | None = None) -> int:
    """Send a WebSocket upgrade request for ``path``; return the HTTP status answered."""
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [
        f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Upgrade: websocket",
        "Connection: Upgrade", f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13",
        f"Origin: http://127.0.0.1:{port}",
    ]
    if cookie:
        lines.append(f"Cookie: {cookie}")
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        answer = b""
        while b"\r\n" not in answer:
            chunk = sock.recv(1024)
            if not chunk:
                break
            answer += chunk
    status_line = answer.split(b"\r\n", 1)[0].decode()
    assert status_line.startswith("HTTP/1.1 "), status_line
    return int(status_line.split()[1])


def log_size(live_site) -> int:
    return live_site.log_path.stat().st_size


def log_since(live_site, offset: int) -> str:
    return live_site.log_path.read_bytes()[offset:].decode(errors="replace")


@pytest.mark.parametrize("path", ["/ws/nope/", "/ws/table/abc/", "/ws/"])
def test_unknown_path_is_refused_with_403_and_no_traceback(live_site, path):
    before = log_size(live_site)
    assert handshake_status(live_site.port, path) == 403
    assert handshake_status(live_site.port, "/ws/ping/") == 101  # the server is fine
    logged = log_since(live_site, before)
    assert "Traceback" not in logged and "No route found" not in logged, logged


def test_unknown_and_private_tables_are_refused_with_403(live_site, django_user_model):
    alice = django_user_model.objects.create_user("alice", password="x" * 20)
    secret = tables.create_table(alice, tables.TableSettings(name="Secret",
                                                             visibility="private"))
    public = tables.create_table(alice, tables.TableSettings(name="Open"))
    before = log_size(live_site)
    assert handshake_status(live_site.port, "/ws/table/987654/") == 403
    assert handshake_status(live_site.port, f"/ws/table/{secret.pk}/") == 403
    assert handshake_status(live_site.port, f"/ws/table/{public.pk}/") == 101
    assert "Traceback" not in log_since(live_site, before)
