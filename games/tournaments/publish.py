"""Live updates of tournaments over the existing channel layer, sent after commit.

Groups:
- ``tournament.<id>``: everyone with the tournament page open; ``tournament.changed``
  tells them to fetch the live part again (the page is server-rendered; a lost message
  is made good by the next one and by the page's periodic refresh);
- ``user.<user id>.pages`` (games/services/publish.user_pages_group, shared with the
  notification centre): one person's open pages; ``tournament.banner`` makes every page
  fetch its round-start banner again.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from games.services.publish import user_pages_group

logger = logging.getLogger(__name__)


def tournament_group(tournament_id: int) -> str:
    return f"tournament.{tournament_id}"


def _send(group: str, message: dict[str, Any]) -> None:
    try:
        layer = get_channel_layer()
        assert layer is not None, "CHANNEL_LAYERS is not configured"
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # noqa: BLE001 - pages refresh anyway; the change is stored
        logger.exception("broadcast to %s failed", group)


def on_commit_changed(tournament_id: int) -> None:
    """After commit, tell the tournament's open pages to refresh their live part."""
    transaction.on_commit(lambda: _send(tournament_group(tournament_id),
                                        {"type": "tournament.changed",
                                         "tournament_id": tournament_id}))


def on_commit_banner(user_ids: Iterable[int]) -> None:
    """After commit, tell these people's open pages to fetch the banner again."""
    ids = sorted(set(user_ids))

    def send() -> None:
        for u in ids:
            _send(user_pages_group(u), {"type": "tournament.banner"})

    transaction.on_commit(send)
