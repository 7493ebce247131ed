"""The sockets of one process read a table's facts once between them
(games/facts_reads.py), and never from a read that began before they asked."""

from __future__ import annotations

import asyncio
import threading

import pytest
from channels.db import database_sync_to_async

from games import facts_reads, snapshot
from games.models import ChatMessage

pytestmark = pytest.mark.django_db(transaction=True)


async def test_callers_that_ask_before_the_read_starts_share_it(cast, full_table):
    """Five sockets told to refresh at once: one read, the same facts for all."""
    got = await asyncio.gather(*[facts_reads.fresh_table_facts(full_table.pk)
                                 for _ in range(5)])
    assert all(facts is got[0] for facts in got)
    assert got[0].table.pk == full_table.pk
    again = await facts_reads.fresh_table_facts(full_table.pk)
    assert again is not got[0]  # asked after that read ended: a read of its own


async def test_a_read_already_under_way_is_not_joined(cast, full_table, monkeypatch):
    """A change committed while a read is under way: whoever asks after it started (a
    refresh notice for that change) gets a read of their own, which sees it."""
    started, release = threading.Event(), threading.Event()
    real_read = snapshot.read_table_facts

    def held_read(table_id: int) -> snapshot.TableFacts | None:
        if not started.is_set():  # the first read waits, having started
            started.set()
            release.wait(10)
        return real_read(table_id)

    monkeypatch.setattr(snapshot, "read_table_facts", held_read)
    first = asyncio.ensure_future(facts_reads.fresh_table_facts(full_table.pk))
    await asyncio.to_thread(started.wait, 10)
    await database_sync_to_async(ChatMessage.objects.create)(
        table=full_table, user=cast.alice, text="after the first read began")
    second = asyncio.ensure_future(facts_reads.fresh_table_facts(full_table.pk))
    release.set()
    first_facts, second_facts = await asyncio.gather(first, second)
    assert second_facts is not first_facts
    assert [line.text for line in second_facts.recent_chat] == ["after the first read began"]


async def test_a_caller_that_goes_away_does_not_take_the_others_answer(cast, full_table):
    """The socket that queued the read closes (its task cancelled); the one that joined
    still gets the facts."""
    leaving = asyncio.ensure_future(facts_reads.fresh_table_facts(full_table.pk))
    staying = asyncio.ensure_future(facts_reads.fresh_table_facts(full_table.pk))
    await asyncio.sleep(0)  # one turn of the loop: the first queued the read, the second
    # joined it before the read's own task could even hand it to a thread
    leaving.cancel()
    facts = await asyncio.wait_for(staying, 10)
    assert facts is not None and facts.table.pk == full_table.pk


async def test_no_such_table_is_none_for_every_caller(db):
    got = await asyncio.gather(*[facts_reads.fresh_table_facts(10**9) for _ in range(3)])
    assert got == [None, None, None]
