"""Live updates of tournaments: group names and messages (games/events.py sends them
after commit).

Groups:
- ``tournament.<id>``: everyone with the tournament page open; ``tournament.changed``
  tells them to fetch the live part again (the page is server-rendered; a lost message
  is made good by the next one and by the page's periodic refresh);
- ``user.<user id>.pages`` (games/services/publish.user_pages_group, shared with the
  notification centre): one person's open pages; ``tournament.banner`` makes every page
  fetch its round-start banner again.
"""

from __future__ import annotations

from collections.abc import Iterable

from games.events import Message
from games.services.publish import user_pages_group


def tournament_group(tournament_id: int) -> str:
    return f"tournament.{tournament_id}"


def changed(tournament_id: int) -> Message:
    """Tell the tournament's open pages to refresh their live part."""
    return tournament_group(tournament_id), {"type": "tournament.changed",
                                             "tournament_id": tournament_id}


def banners(user_ids: Iterable[int]) -> list[Message]:
    """Tell these people's open pages to fetch the round-start banner again."""
    return [(user_pages_group(u), {"type": "tournament.banner"}) for u in sorted(set(user_ids))]
