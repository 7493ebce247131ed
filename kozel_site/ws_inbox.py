"""One inbox per socket: its frames and its group messages, handled one at a time.

channels' ``await_many_dispatch`` waits on a consumer's two sources (the client's
frames, the channel layer's messages) by making a new task for a source each time it
yields a message and calling ``asyncio.wait`` on both tasks again: a task, a waiter and
four done-callbacks per message. Under the fuzzer that was 9 % of a web process's
event loop (py-spy ``--gil``, python -m tests.load fuzz, issue 15).

Here each source has one long-lived task that moves its messages into the socket's
inbox, and the consumer handles them in the order they arrived, one at a time, as
channels does. The inbox holds one message: a source is not read further until the
consumer takes it, so nothing piles up here that the source would not have held. A
source that fails hands its exception to the consumer, which raises it (as
``task.result()`` did in channels); leaving cancels the sources' tasks.
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
            except asyncio.CancelledError:
                raise
            except BaseException as exc:  # noqa: BLE001 - the consumer raises it
                await inbox.put((False, exc))
                return
            await inbox.put((True, message))

    forwarders = [asyncio.ensure_future(forward(source)) for source in sources]
    try:
        while True:
            ok, item = await inbox.get()
            if not ok:
                raise item
            await dispatch(item)
    finally:
        for task in forwarders:
            task.cancel()
        await asyncio.gather(*forwarders, return_exceptions=True)
