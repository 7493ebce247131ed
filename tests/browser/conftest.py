"""Browser-test infrastructure: a real daphne server, Debian's Chromium, Playwright.

How to write a browser test (see test_signup_journey.py for a full one)::

    import pytest

    pytestmark = pytest.mark.browser          # required; the run refuses unmarked tests here

    def test_something(live_site, page, mailbox, django_user_model):
        alice = django_user_model.objects.create_user("alice", password="...")
        page.goto("/rules/")                  # relative to live_site.url
        ...

    def test_four_players(live_site, new_context, make_seated_users):
        pages = [new_context(user=u).new_page() for u in users]   # already signed in

Run them in their own pytest process (Playwright's event loop breaks pytest-asyncio's)::

    DJANGO_ALLOW_ASYNC_UNSAFE=true .venv/bin/python -m pytest -m browser tests/browser -q

Fixtures (all defined here):

``daphne_server`` (session)
    A real ``python -m daphne kozel_site.asgi:application`` child process on a free
    127.0.0.1 port: HTTP *and* WebSockets, the same ASGI app as production. It runs
    ``kozel_site.settings.test`` against the **test database** (``KOZEL_USE_TEST_DATABASE=1``
    makes it use ``TEST["NAME"]``), the same Redis server and key prefix as this process
    (inherited ``REDIS_URL`` / ``KOZEL_REDIS_PREFIX``), and the file email backend writing
    into a temporary folder. Its output goes to ``daphne_server.log_path``.
``live_site`` (function)
    The server plus ``transactional_db``: what a test creates is *committed*, so the
    child process sees it, and every table is flushed after the test. Ask for this one
    in tests (not ``daphne_server``). Attributes: ``url`` (``http://127.0.0.1:PORT``),
    ``ws_url`` (``ws://…``), ``port``, ``mail_dir``, ``log_path``; ``live_site.path("/x")``.
``mailbox`` (function)
    The server's outbox (emails sent *by the child*, which a locmem outbox here could
    never see), emptied at the start of each test. ``mailbox.wait_for(to="a@b.c")``
    returns an ``email.message.EmailMessage``; ``mailbox.links(message)`` lists its URLs;
    ``mailbox.messages()`` lists everything so far.
``browser`` (session)
    A Playwright Chromium ``Browser`` launched from ``/usr/bin/chromium`` (override with
    ``KOZEL_CHROMIUM``) headless, without sandbox or GPU. Never a downloaded browser.
    Every test in this folder is skipped, with the reason, when the binary is missing.
``new_context`` (function)
    ``new_context(user=None, **playwright_kwargs) -> BrowserContext``: a fresh browser
    profile with ``base_url=live_site.url``. With ``user=`` it is already signed in as
    that user (a session row plus cookie: fast, and mandatory email verification does not
    get in the way). Create several for several players. All are closed after the test.
``page`` (function)
    A ``Page`` in a fresh, signed-out context. On failure a screenshot and the HTML of
    every open page are saved under ``test-results/<test name>/``.
``js_errors`` (function)
    A list that collects uncaught JavaScript errors of every page in the test's contexts;
    ``assert js_errors == []`` at the end of a test that runs scripts.
``off_loop`` (function)
    ``off_loop(fn, *args, **kwargs)`` calls ``fn`` in a fresh thread and returns its
    result (or raises its exception). Use it when the test body calls a service whose
    on-commit hooks publish over the channel layer: Playwright's sync API keeps an event
    loop running in the test thread, where ``async_to_sync`` refuses to run ("You cannot
    use AsyncToSync in the same thread as an async event loop"), so the broadcast would
    be lost. The thread uses its own database connection, closed afterwards.
"""

from __future__ import annotations

import contextlib
import email
import email.policy
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from email.message import EmailMessage
from importlib import import_module
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path(os.environ.get("KOZEL_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
SKIP_REASON = (
    f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium) "
    "or set KOZEL_CHROMIUM to run the browser tests"
)
BROWSER_DIR = Path(__file__).resolve().parent
REPO_ROOT = BROWSER_DIR.parents[1]
RESULTS_DIR = REPO_ROOT / "test-results"
# Playwright waits this long (ms) for a selector or a navigation before failing a test.
DEFAULT_TIMEOUT_MS = 10_000
SERVER_START_TIMEOUT_S = 30.0


# --- Collection: every test here is a browser test --------------------------------------

@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Refuse unmarked tests in tests/browser; skip them all without Chromium.

    ``tryfirst`` so this runs before ``-m`` deselection: an unmarked browser test would
    otherwise silently run in the ``-m "not browser"`` process, next to pytest-asyncio,
    where the Playwright event loop breaks the async tests.
    """
    here = [item for item in items if BROWSER_DIR in Path(str(item.path)).parents]
    unmarked = [item.nodeid for item in here if item.get_closest_marker("browser") is None]
    if unmarked:
        raise pytest.UsageError(
            "Tests under tests/browser must be marked @pytest.mark.browser "
            "(e.g. pytestmark = pytest.mark.browser): " + ", ".join(unmarked)
        )
    if not CHROMIUM.exists():
        skip = pytest.mark.skip(reason=SKIP_REASON)
        for item in here:
            item.add_marker(skip)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Remember each phase's report on the item, so fixtures can tell a failed test."""
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


# --- The server ---------------------------------------------------------------------------

@dataclass(frozen=True)
class LiveServer:
    """A running daphne child process serving the site on the test database."""

    url: str
    ws_url: str
    port: int
    mail_dir: Path
    log_path: Path

    def path(self, path: str) -> str:
        """The absolute URL of a site path, e.g. ``live_site.path("/rules/")``."""
        return self.url + path

    def log_tail(self, lines: int = 60) -> str:
        """The last lines of the server's output, for failure messages."""
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no server log)"


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_until_serving(url: str, process: subprocess.Popen[bytes], server: LiveServer) -> None:
    deadline = time.monotonic() + SERVER_START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(
                f"daphne exited with status {process.returncode} before serving:\n"
                + server.log_tail()
            )
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.1)
    raise RuntimeError(f"daphne did not serve {url} in {SERVER_START_TIMEOUT_S} s:\n"
                       + server.log_tail())


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


@pytest.fixture(scope="session")
def daphne_server(
    django_db_setup: None, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LiveServer]:
    """Start the site in a daphne child process for the whole session (see module doc).

    Depends on ``django_db_setup`` so the test database exists before the child starts
    and is dropped only after the child has stopped (PostgreSQL refuses to drop a
    database with open connections).
    """
    from django.conf import settings

    from kozel_site.procutil import die_with_parent

    base = tmp_path_factory.mktemp("daphne")
    mail_dir = base / "mail"
    mail_dir.mkdir()
    log_path = base / "daphne.log"
    port = _free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "kozel_site.settings.test",
        "KOZEL_USE_TEST_DATABASE": "1",
        "KOZEL_TEST_EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
        "KOZEL_TEST_EMAIL_FILE_PATH": str(mail_dir),
        # Same Redis server and key prefix as this process: rate limits, channel layer.
        "REDIS_URL": settings.REDIS_URL,
        "KOZEL_REDIS_PREFIX": settings.REDIS_PREFIX,
        "PYTHONUNBUFFERED": "1",
    }
    server = LiveServer(
        url=f"http://127.0.0.1:{port}", ws_url=f"ws://127.0.0.1:{port}", port=port,
        mail_dir=mail_dir, log_path=log_path,
    )
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
             "kozel_site.asgi:application"],
            cwd=REPO_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
            # Own process group (so we stop all of it) and die with this process even
            # if pytest is SIGKILLed: a browser run never leaves a server behind.
            start_new_session=True, preexec_fn=die_with_parent,
        )
    try:
        _wait_until_serving(server.path("/rules/"), process, server)
        yield server
    finally:
        _stop(process)


@pytest.fixture
def live_site(transactional_db: None, daphne_server: LiveServer) -> LiveServer:
    """The running server, with committed, per-test-flushed data (see module doc)."""
    return daphne_server


# --- Email sent by the server -------------------------------------------------------------

_SEPARATOR = re.compile(rb"^-{79}$", re.MULTILINE)
_URL = re.compile(r"https?://[^\s<>\"']+")


class Mailbox:
    """Reads the files that Django's file email backend writes in the server process."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def clear(self) -> None:
        """Forget every email sent so far."""
        for path in self.directory.iterdir():
            path.unlink()

    def messages(self) -> list[EmailMessage]:
        """Every email sent so far, oldest first."""
        found: list[EmailMessage] = []
        for path in sorted(self.directory.glob("*.log"), key=lambda p: p.stat().st_mtime_ns):
            for chunk in _SEPARATOR.split(path.read_bytes()):
                if chunk.strip():
                    message = email.message_from_bytes(chunk.strip(), policy=email.policy.default)
                    found.append(message)  # type: ignore[arg-type]
        return found

    def wait_for(self, *, to: str, subject_contains: str = "",
                 timeout: float = 10.0) -> EmailMessage:
        """The latest email to ``to`` (whose subject contains the text), waiting for it."""
        deadline = time.monotonic() + timeout
        while True:
            matching = [
                m for m in self.messages()
                if to in str(m.get("To", "")) and subject_contains in str(m.get("Subject", ""))
            ]
            if matching:
                return matching[-1]
            if time.monotonic() > deadline:
                seen = [(str(m.get("To")), str(m.get("Subject"))) for m in self.messages()]
                raise AssertionError(f"no email to {to!r} within {timeout} s; sent: {seen}")
            time.sleep(0.05)

    @staticmethod
    def body(message: EmailMessage) -> str:
        """The plain-text body of a message."""
        part = message.get_body(preferencelist=("plain", "html"))
        return str(part.get_content()) if part is not None else ""

    @classmethod
    def links(cls, message: EmailMessage) -> list[str]:
        """Every http(s) URL in the message body, in order."""
        return _URL.findall(cls.body(message))


@pytest.fixture
def mailbox(live_site: LiveServer) -> Mailbox:
    """The server's outbox, emptied for this test."""
    box = Mailbox(live_site.mail_dir)
    box.clear()
    return box


# --- Playwright and Chromium --------------------------------------------------------------

@pytest.fixture(scope="session")
def _playwright() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip(SKIP_REASON)
    from playwright.sync_api import sync_playwright

    # The sync API keeps an event loop running in this thread, so Django's ORM would
    # refuse to run from the test body (SynchronousOnlyOperation) without this.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    manager = sync_playwright().start()
    try:
        yield manager
    finally:
        manager.stop()
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture(scope="session")
def browser(_playwright: Any) -> Iterator[Any]:
    """Debian's Chromium, headless, shared by the session (contexts isolate tests)."""
    instance = _playwright.chromium.launch(
        executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
    )
    try:
        yield instance
    finally:
        instance.close()


@pytest.fixture
def js_errors() -> list[str]:
    """Uncaught JavaScript errors from every page of this test's contexts."""
    return []


@pytest.fixture
def off_loop(live_site: LiveServer) -> Callable[..., Any]:
    """Run a callable outside Playwright's event loop (see module doc)."""
    import threading

    from django.db import connections

    def call(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        outcome: dict[str, Any] = {}

        def run() -> None:
            try:
                outcome["value"] = fn(*args, **kwargs)
            except BaseException as error:  # re-raised in the test thread
                outcome["error"] = error
            finally:
                connections.close_all()

        thread = threading.Thread(target=run, name="off-loop")
        thread.start()
        thread.join()
        if "error" in outcome:
            raise outcome["error"]
        return outcome.get("value")

    return call


def _session_cookie(user: Any, url: str) -> dict[str, Any]:
    """A committed session signed in as ``user``, as a Playwright cookie."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.save()
    return {"name": settings.SESSION_COOKIE_NAME, "value": store.session_key, "url": url}


NewContext = Callable[..., Any]


@pytest.fixture
def new_context(
    browser: Any, live_site: LiveServer, js_errors: list[str], request: pytest.FixtureRequest
) -> Iterator[NewContext]:
    """Factory of fresh browser contexts on the live site (see module doc)."""
    contexts: list[Any] = []

    def make(user: Any = None, **kwargs: Any) -> Any:
        kwargs.setdefault("base_url", live_site.url)
        kwargs.setdefault("viewport", {"width": 1280, "height": 800})
        context = browser.new_context(**kwargs)
        context.set_default_timeout(DEFAULT_TIMEOUT_MS)
        context.on("weberror", lambda error: js_errors.append(str(error.error)))
        if user is not None:
            context.add_cookies([_session_cookie(user, live_site.url)])
        contexts.append(context)
        return context

    yield make

    failed = getattr(request.node, "rep_call", None)
    if failed is not None and failed.failed:
        _save_failure_artifacts(request.node.name, contexts)
    for context in contexts:
        with contextlib.suppress(Exception):
            context.close()
    _wait_for_sockets_to_close()


def _wait_for_sockets_to_close(timeout: float = 5.0) -> None:
    """Let the server finish handling every closed socket before the database is flushed.

    A closing table socket is dropped from presence (Redis) and may read the database;
    a flush (TRUNCATE on PostgreSQL) racing that work can deadlock, so wait until no
    socket of this run is still counted as open.
    """
    from tests.presence import open_socket_count

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not open_socket_count():
            return
        time.sleep(0.05)


@pytest.fixture
def page(new_context: NewContext) -> Any:
    """A page in a fresh, signed-out browser context on the live site."""
    return new_context().new_page()


def _save_failure_artifacts(test_name: str, contexts: list[Any]) -> None:
    """Screenshots and HTML of every open page, under test-results/<test>/ (git-ignored)."""
    target = RESULTS_DIR / re.sub(r"[^\w.-]+", "_", test_name)
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True, exist_ok=True)
    for c, context in enumerate(contexts):
        for p, open_page in enumerate(context.pages):
            stem = target / f"context{c}-page{p}"
            with contextlib.suppress(Exception):
                open_page.screenshot(path=f"{stem}.png", full_page=True)
                Path(f"{stem}.html").write_text(open_page.content())
