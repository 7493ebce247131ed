"""Ranked tables: preset chat lines only (games/services/chat.py)."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from games.errors import InvalidRequestError
from games.models import ChatMessage
from games.services import chat, tables
from tests.ratings.factories import make_user


@pytest.fixture
def alice(db):
    cache.delete_many([f"chat-rate:{i}" for i in range(1, 50)])
    return make_user("chatty")


@pytest.fixture
def ranked(alice):
    return tables.create_table(alice, tables.TableSettings(name="r", kind="ranked",
                                                           turn_seconds=30))


@pytest.mark.parametrize(("sent", "stored"), [
    ("gl", "Good luck"), ("WP", "Well played"), ("ty", "Thanks"), ("Good luck!", "Good luck"),
])
def test_presets_are_accepted_by_code_or_text(alice, ranked, sent, stored):
    cache.delete(f"chat-rate:{alice.pk}")
    assert chat.post_message(ranked.pk, alice, sent)["text"] == stored


def test_free_text_is_refused_at_a_ranked_table(alice, ranked):
    with pytest.raises(InvalidRequestError, match="no free chat"):
        chat.post_message(ranked.pk, alice, "you played that badly")
    assert not ChatMessage.objects.exists()


def test_casual_tables_keep_free_chat(alice):
    casual = tables.create_table(alice, tables.TableSettings(name="c"))
    assert chat.post_message(casual.pk, alice, "hello there")["text"] == "hello there"
