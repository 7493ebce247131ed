"""A real Celery worker: a friend's new public table reaches a follower's centre."""

from __future__ import annotations

import pytest

from accounts.social import services
from accounts.social.models import Notification
from games.services import tables as table_service
from tests.ratings.factories import make_user
from tests.waiting import wait_for

pytestmark = [pytest.mark.worker, pytest.mark.slow]


def test_a_friends_table_is_announced_by_the_worker(celery_worker):
    alice, bob = make_user("alice"), make_user("bob")
    services.follow(alice, "bob")
    table = table_service.create_table(bob, table_service.TableSettings(name="Come and play"))
    note = wait_for(lambda: Notification.objects.filter(user=alice).first(), 30,
                    "the worker to notify bob's follower")
    assert note.kind == "friend_table" and note.url == f"/table/{table.pk}/"
    assert not Notification.objects.filter(user=bob).exclude(kind="follow").exists()
