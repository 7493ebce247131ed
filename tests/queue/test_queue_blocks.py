"""Blocks in the queue against the database: the matchers ask the policy
(games/policy.py ``blocked_pairs``, answered by accounts/moderation's blocks) and never
seat a blocked pair together; a pair invite between them is refused and stores nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.moderation.services import blocks
from games.errors import PermissionDeniedError
from games.models import Seat
from games.policy import policy
from games.queue import casual, services
from games.queue.models import PairInvite, QueueEntry
from tests.ratings.factories import make_users


@pytest.fixture
def six(db):
    return make_users("bq", 6)


def people_at(table_id: int) -> set[int]:
    return set(Seat.objects.filter(table_id=table_id, user__isnull=False)
               .values_list("user_id", flat=True))


def test_policy_names_blocked_pairs_either_way(six):
    a, b, c, d = six[:4]
    blocks.block(a, b)
    blocks.block(d, c)
    assert policy().blocked_pairs([a, b, c, d]) == {frozenset((a.pk, b.pk)),
                                                    frozenset((c.pk, d.pk))}
    assert policy().blocked_pairs([a, c]) == set()


def test_ranked_matcher_keeps_a_blocked_pair_apart_until_someone_else_comes(six):
    a, b, c, d, e = six[:5]
    blocks.block(c, a)
    for user in (a, b, c, d):
        services.join_queue(user)
    assert services.match_queue() == [], "the only table would seat a with c"
    assert QueueEntry.objects.filter(status="waiting").count() == 4
    services.join_queue(e)
    (table_id,) = services.match_queue()
    seated = people_at(table_id)
    assert len(seated) == 4 and not {a.pk, c.pk} <= seated


def test_casual_matcher_keeps_a_blocked_pair_apart_and_bots_fill_in(six):
    a, b, c, d = six[:4]
    blocks.block(a, d)
    bots = casual.Preferences(allow_bots=True, bot_wait_seconds=30)
    for user in (a, b, c, d):
        casual.join_casual(user, bots)
    assert casual.match_casual_queue() == [], "before the wait: nobody"
    QueueEntry.objects.update(joined_at=timezone.now() - timedelta(seconds=31))
    tables = casual.match_casual_queue()
    assert tables, "after the wait bots fill the seats the block leaves"
    for table_id in tables:
        assert not {a.pk, d.pk} <= people_at(table_id)


@pytest.mark.parametrize("kind", ["ranked", "casual"])
def test_a_pair_invite_between_blocked_people_is_refused(six, kind):
    a, b, c = six[:3]
    invite = services.invite_partner if kind == "ranked" else casual.invite_casual_partner
    accept = services.accept_invite if kind == "ranked" else casual.accept_casual_invite
    blocks.block(b, a)  # b blocked a: a may not ask b, nor b ask a
    with pytest.raises(PermissionDeniedError):
        invite(a, b.username)
    with pytest.raises(PermissionDeniedError):
        invite(b, a.username)
    assert not PairInvite.objects.exists()
    # A block after the invite: accepting it is refused and queues nobody.
    pending = invite(a, c.username)
    blocks.block(c, a)
    with pytest.raises(PermissionDeniedError):
        accept(c, pending.pk)
    assert not QueueEntry.objects.filter(user__in=[a, c]).exists()
