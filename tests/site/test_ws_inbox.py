"""kozel_site/ws_inbox.py and the socket's session middleware: a socket's frames and
group messages are handled one at a time in arrival order, a failing source fails the
consumer, leaving stops the sources; a socket's frames skip the session's save checks
(issue 15)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.exceptions import StopConsumer

from kozel_site.ws import SocketSessionMiddleware
from kozel_site.ws_inbox import dispatch_as_they_come
from tests.waiting import until


class Source:
    """A message source fed by the test, which counts how often it was read."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[Any] = asyncio.Queue()
        self.reads = 0
        self.cancelled = False

    async def __call__(self) -> Any:
        self.reads += 1
        try:
            item = await self.queue.get()
        except asyncio.CancelledError:
            self.cancelled = True
            raise
        if isinstance(item, BaseException):
            raise item
        return item


async def test_messages_of_both_sources_are_handled_one_at_a_time_in_arrival_order():
    frames, group = Source(), Source()
    handled: list[str] = []
    busy = asyncio.Event()
    release = asyncio.Event()
    overlapping = []

    async def dispatch(message: str) -> None:
        overlapping.append(busy.is_set())
        busy.set()
        if message == "slow":
            await release.wait()
        handled.append(message)
        busy.clear()
        if message == "bye":
            raise StopConsumer

    consumer = asyncio.ensure_future(dispatch_as_they_come([frames, group], dispatch))
    frames.queue.put_nowait("slow")
    await until(busy.is_set, 5, "the slow message")
    group.queue.put_nowait("event 1")
    frames.queue.put_nowait("frame 2")
    group.queue.put_nowait("event 2")
    await until(lambda: frames.queue.empty() and group.queue.qsize() == 1, 5,
                "each source to hold one message")
    await asyncio.sleep(0.05)  # the consumer is held: the sources are not read ahead
    assert group.queue.qsize() == 1  # "event 2" still in its source: one message each
    assert frames.queue.qsize() == 0 and frames.reads == 2
    assert handled == []
    release.set()
    await until(lambda: len(handled) == 4, 5, "the four messages")
    assert handled[0] == "slow" and sorted(handled[1:]) == ["event 1", "event 2", "frame 2"]
    assert handled.index("event 1") < handled.index("event 2")
    assert not any(overlapping)  # never two messages at once
    frames.queue.put_nowait("bye")
    with pytest.raises(StopConsumer):
        await asyncio.wait_for(consumer, 5)
    assert group.cancelled  # leaving stops the sources: the one waiting is cancelled,
    frames.queue.put_nowait("late")
    await asyncio.sleep(0.05)
    assert frames.queue.qsize() == 1  # and none is read any more


async def test_a_stray_cancellation_of_a_source_fails_the_consumer():
    """channels' ``task.result()`` raised it; a socket must not live on deaf to a source."""
    frames, group = Source(), Source()

    async def dispatch(message: str) -> None:
        return None

    consumer = asyncio.ensure_future(dispatch_as_they_come([frames, group], dispatch))
    group.queue.put_nowait(asyncio.CancelledError())
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(consumer, 5)
    assert frames.cancelled


async def test_a_failing_source_fails_the_consumer_and_stops_the_other():
    frames, group = Source(), Source()
    handled: list[str] = []

    async def dispatch(message: str) -> None:
        handled.append(message)

    consumer = asyncio.ensure_future(dispatch_as_they_come([frames, group], dispatch))
    frames.queue.put_nowait("hello")
    group.queue.put_nowait(ConnectionError("Redis went away"))
    with pytest.raises(ConnectionError, match="Redis went away"):
        await asyncio.wait_for(consumer, 5)
    assert handled == ["hello"]
    assert frames.cancelled


@pytest.mark.parametrize(("kind", "wrapped"), [("websocket", False), ("http", True)])
async def test_a_socket_sends_past_the_session_wrapper_and_http_through_it(kind, wrapped):
    seen: dict[str, Any] = {}

    async def inner(scope: Any, receive: Any, send: Any) -> None:
        seen["scope"], seen["send"] = scope, send

    async def send(message: Any) -> None:
        return None

    middleware = SocketSessionMiddleware(inner)
    await middleware({"type": kind, "cookies": {}, "headers": []}, None, send)
    assert (seen["send"] is not send) is wrapped
    assert seen["scope"]["session"].session_key is None  # resolved, no cookie: new
