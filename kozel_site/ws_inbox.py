"""One inbox per socket: its frames and its group messages, handled one at a time.

channels' ``await_many_dispatch`` waits on a consumer's two sources (the client's
frames, the channel layer's messages) by making a new task for a source each time it
yields a message and calling ``asyncio.wait`` on both tasks again: a task, a waiter and
four done-callbacks per message. Under the fuzzer that was 9 % of a web process's
event loop (py-spy ``--gil``, python -m tests.load fuzz, issue 15).

Here each source has one long-lived task that moves its messages into the socket's
inbox, and the consumer handles them in the order they arrived, one at a time, as
channels does. A source's task reads the next message only once the inbox is empty
again, so while the consumer is busy each source holds at most one message taken and
not yet handled, as with channels' tasks: nothing piles up here. A source that fails
(a stray cancellation included) hands its exception to the consumer, which raises it
(as ``task.result()`` did in channels); leaving cancels the sources' tasks.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

Source = Callable[[], Awaitable[Any]]


async def dispatch_as_they_come(sources: Sequence[Source],
                                dispatch: Callable[[Any], Awaitable[None]]) -> None:
    """Await ``dispatch(message)`` for every message of every source, in arrival
    order, until ``dispatch`` or a source raises (``StopConsumer`` ends a consumer)."""
    inbox: asyncio.Queue[tuple[bool, Any]] = asyncio.Queue(maxsize=1)

    async def forward(source: Source) -> None:
        while True:
            try:
                message = await source()
            except BaseException as exc:  # noqa: BLE001 - the consumer raises it
                task = asyncio.current_task()
                if task is not None and task.cancelling():
                    raise  # the consumer is leaving
                await inbox.put((False, exc))
                return
            await inbox.put((True, message))
            await inbox.join()  # taken: only now read the source again

    forwarders = [asyncio.ensure_future(forward(source)) for source in sources]
    try:
        while True:
            ok, item = await inbox.get()
            inbox.task_done()
            if not ok:
                raise item
            await dispatch(item)
    finally:
        for task in forwarders:
            task.cancel()
        await asyncio.gather(*forwarders, return_exceptions=True)
