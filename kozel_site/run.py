"""``make run``: the whole site on embedded defaults, in one command, stopped by Ctrl-C.

Starts (in order) an embedded Redis when ``REDIS_URL`` is unset, migrations, daphne on
127.0.0.1:8000, one Celery worker and celery beat. SIGINT or SIGTERM stops every child
and waits for it; a child that dies takes the others down with it, so nothing is ever
left running half-alive. Each child also asks the kernel to end it if this supervisor
is killed outright (``PR_SET_PDEATHSIG``).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from kozel_site import embedded_redis
from kozel_site.procutil import die_with_parent

HOST = os.environ.get("KOZEL_HOST", "127.0.0.1")
PORT = os.environ.get("KOZEL_PORT", "8000")


@dataclass
class Child:
    """One supervised process."""

    name: str
    process: subprocess.Popen[bytes]


def _spawn(name: str, argv: list[str]) -> Child:
    print(f"[run] starting {name}: {' '.join(argv)}", flush=True)
    process = subprocess.Popen(argv, preexec_fn=die_with_parent, start_new_session=True)
    return Child(name, process)


def _stop_all(children: list[Child], grace: float = 10.0) -> None:
    for child in reversed(children):
        if child.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(child.process.pid, signal.SIGTERM)
    deadline = time.monotonic() + grace
    for child in children:
        remaining = max(0.1, deadline - time.monotonic())
        try:
            child.process.wait(timeout=remaining)
        except subprocess.TimeoutExpired:
            print(f"[run] {child.name} did not stop in time; killing it", flush=True)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(child.process.pid, signal.SIGKILL)
            child.process.wait()


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
    children: list[Child] = []
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
        children.append(_spawn("web", [py, "-m", "daphne", "-b", HOST, "-p", PORT,
                                       "kozel_site.asgi:application"]))
        children.append(_spawn("worker", [py, "-m", "celery", "-A", "kozel_site", "worker",
                                          "-Q", queue, "-P", "threads", "-c", "4",
                                          "-l", "info", "-n", f"kozel-run-{os.getpid()}@%h"]))
        children.append(_spawn("beat", [py, "-m", "celery", "-A", "kozel_site", "beat",
                                        "-l", "info"]))
        print(f"\n[run] Kozel is up: http://{HOST}:{PORT}/   (Ctrl-C stops everything)\n",
              flush=True)
        while True:
            for child in children:
                code = child.process.poll()
                if code is not None:
                    print(f"[run] {child.name} exited with {code}; stopping the rest", flush=True)
                    status = code or 1
                    raise _Stop(child.name)
            time.sleep(0.5)
    except _Stop:
        pass
    except subprocess.CalledProcessError as exc:
        print(f"[run] {exc}", flush=True)
        status = exc.returncode
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        _stop_all(children)
        embedded_redis.stop()
        shared_url_file.unlink(missing_ok=True)
        print("[run] stopped", flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
