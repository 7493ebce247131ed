"""``make run``: the whole site on embedded defaults, in one command, stopped by Ctrl-C.

Starts (in order) an embedded Redis when ``REDIS_URL`` is unset, migrations, daphne on
127.0.0.1:8000, one Celery worker, one for reviews, celery beat, and supervises them: a child that
dies (a crash, an OOM kill, a SIGKILL) is started again with a backoff (0.5 s, doubling
up to 30 s, back to 0.5 s once it has stayed up for a minute), so one dead process never
stops the site (DESIGN: every process may die). SIGINT or SIGTERM stops every child and
waits for it. Each child also asks the kernel to end it if this supervisor is killed
outright (``PR_SET_PDEATHSIG``).

:class:`Supervisor` is also what the load harness (``python -m tests.load``) runs its
production layout with, so the restarts measured there are these.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from kozel_site import embedded_redis
from kozel_site.procutil import die_with_parent

HOST = os.environ.get("KOZEL_HOST", "127.0.0.1")
PORT = os.environ.get("KOZEL_PORT", "8000")
# How long daphne lets a WebSocket handshake wait for the consumer to accept it (its
# default is 5 s). A crowd of sockets opening at once (a web process restarted, its
# clients coming back) queues their first database reads; at 5 s daphne dropped the
# slowest without an HTTP answer, and they came back again on top of the queue. A
# browser waits far longer than that.
WEBSOCKET_CONNECT_TIMEOUT = "30"
FIRST_BACKOFF = 0.5
MAX_BACKOFF = 30.0
STABLE_AFTER = 60.0


@dataclass
class Child:
    """One supervised process: how to start it and its current incarnation."""

    name: str
    argv: list[str]
    env: dict[str, str] | None = None
    log: Path | None = None
    process: subprocess.Popen[bytes] | None = None
    started_at: float = 0.0
    restarts: int = 0
    backoff: float = FIRST_BACKOFF
    restart_at: float | None = None
    history: list[tuple[float, str]] = field(default_factory=list)

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None


class Supervisor:
    """Start children, restart the ones that die (with backoff), stop them all.

    Not a thread: the owner calls :meth:`poll` every fraction of a second (``make run``'s
    loop, the load harness's event loop), which keeps it free of locks.
    """

    def __init__(self, say: Callable[[str], None] | None = None) -> None:
        self.children: list[Child] = []
        self.say = say or (lambda text: print(f"[run] {text}", flush=True))
        self._logs: list[IO[bytes]] = []

    def add(self, name: str, argv: list[str], env: dict[str, str] | None = None,
            log: Path | None = None) -> Child:
        child = Child(name, argv, env, log)
        self.children.append(child)
        self._start(child)
        return child

    def _start(self, child: Child) -> None:
        out: IO[bytes] | None = None
        if child.log is not None:
            child.log.parent.mkdir(parents=True, exist_ok=True)
            out = open(child.log, "ab")  # noqa: SIM115 - kept open for the child's life
            self._logs.append(out)
        self.say(f"starting {child.name}: {' '.join(child.argv)}")
        child.process = subprocess.Popen(
            child.argv, env=child.env, stdout=out, stderr=subprocess.STDOUT if out else None,
            preexec_fn=die_with_parent, start_new_session=True)
        child.started_at = time.monotonic()
        child.restart_at = None
        child.history.append((time.time(), "start"))

    def poll(self) -> list[Child]:
        """Restart what died and whose backoff is over; returns the children restarted."""
        now = time.monotonic()
        restarted = []
        for child in self.children:
            if child.process is None:
                continue
            if child.restart_at is None:
                code = child.process.poll()
                if code is None:
                    if now - child.started_at > STABLE_AFTER:
                        child.backoff = FIRST_BACKOFF
                    continue
                child.history.append((time.time(), f"exit {code}"))
                child.restart_at = now + child.backoff
                self.say(f"{child.name} exited with {code}; restarting in {child.backoff:.1f} s")
                child.backoff = min(MAX_BACKOFF, child.backoff * 2)
            elif now >= child.restart_at:
                child.restarts += 1
                self._start(child)
                restarted.append(child)
        return restarted

    def stop(self, grace: float = 10.0) -> None:
        """SIGTERM every child (last started first), wait, SIGKILL what is left."""
        for child in reversed(self.children):
            child.restart_at = None
            if child.alive() and child.process is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(child.process.pid, signal.SIGTERM)
        deadline = time.monotonic() + grace
        for child in self.children:
            if child.process is None:
                continue
            remaining = max(0.1, deadline - time.monotonic())
            try:
                child.process.wait(timeout=remaining)
            except subprocess.TimeoutExpired:
                self.say(f"{child.name} did not stop in time; killing it")
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(child.process.pid, signal.SIGKILL)
                child.process.wait()
        for out in self._logs:
            out.close()
        self._logs.clear()


class _Stop(Exception):
    pass


def _raise_stop(signum: int, frame: object) -> None:
    raise _Stop(signal.Signals(signum).name)


def main() -> int:
    """Run the site until interrupted; return the exit status."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kozel_site.settings.base")
    signal.signal(signal.SIGTERM, _raise_stop)
    signal.signal(signal.SIGINT, _raise_stop)
    py = sys.executable
    supervisor = Supervisor()
    status = 0
    run_dir = Path(os.environ.get("KOZEL_RUN_DIR", Path(__file__).resolve().parent.parent / ".run"))
    run_dir.mkdir(parents=True, exist_ok=True)
    shared_url_file = run_dir / "redis.url"
    try:
        if not os.environ.get("REDIS_URL"):
            os.environ["REDIS_URL"] = embedded_redis.start()
            # manage.py commands run beside `make run` find this server (base.py).
            shared_url_file.write_text(os.environ["REDIS_URL"])
            print(f"[run] embedded Redis at {os.environ['REDIS_URL']}", flush=True)
        subprocess.run([py, "manage.py", "migrate", "--noinput"], check=True)
        queue = os.environ.get("KOZEL_CELERY_QUEUE", "kozel")
        supervisor.add("web", [py, "-m", "daphne", "-b", HOST, "-p", PORT,
                               "--websocket_connect_timeout", WEBSOCKET_CONNECT_TIMEOUT,
                               "kozel_site.asgi:application"])
        supervisor.add("worker", [py, "-m", "celery", "-A", "kozel_site", "worker",
                                  "-Q", queue, "-P", "threads", "-c", "4",
                                  "-l", "info", "-n", f"kozel-run-{os.getpid()}@%h"])
        # Reviews of finished games on a worker of their own: a review's long search never
        # waits in front of a bot's turn or a clock (games/reviews/conf.py).
        supervisor.add("reviews", [py, "-m", "celery", "-A", "kozel_site", "worker",
                                   "-Q", f"{queue}-reviews", "-P", "threads", "-c", "1",
                                   "-l", "info", "-n", f"kozel-reviews-{os.getpid()}@%h"])
        supervisor.add("beat", [py, "-m", "celery", "-A", "kozel_site", "beat", "-l", "info"])
        print(f"\n[run] Kozel is up: http://{HOST}:{PORT}/   (Ctrl-C stops everything)\n",
              flush=True)
        while True:
            supervisor.poll()
            time.sleep(0.25)
    except _Stop:
        pass
    except subprocess.CalledProcessError as exc:
        print(f"[run] {exc}", flush=True)
        status = exc.returncode
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        supervisor.stop()
        embedded_redis.stop()
        shared_url_file.unlink(missing_ok=True)
        print("[run] stopped", flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
