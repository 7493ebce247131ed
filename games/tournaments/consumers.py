"""Live tournament pages and the round-start banner over the existing WebSocket layer.

- ``ws/tournament/<id>/``: anyone who may see the page (everyone: tournaments are
  public) joins ``tournament.<id>`` and gets ``{"type": "changed"}`` after each commit
  that changed the tournament; the page then fetches its live part again.
- ``ws/tournaments/me/``: a signed-in person joins their page group
  (``user_pages_group``; every page opens ``ws/me/`` instead, accounts/social/consumers.py)
  and gets ``{"type": "banner"}`` when their round starts or their match changes; every page then
  fetches the banner again (static/js/tournaments/banner.js).

Both are receive-only: anything a client sends is ignored (one "ping" is answered).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from games.services.publish import user_pages_group
from games.tournaments import publish
from games.tournaments.models import Tournament
from kozel_site.ws import CLOSE_FORBIDDEN, CLOSE_NOT_FOUND, SiteSocket, db_call

if TYPE_CHECKING:
    from channels.layers import BaseChannelLayer


def _exists(tournament_id: int) -> bool:
    return Tournament.objects.filter(pk=tournament_id).exists()


class TournamentConsumer(SiteSocket, AsyncJsonWebsocketConsumer):
    channel_layer: BaseChannelLayer  # the site always configures one
    group: str = ""

    async def connect(self) -> None:
        tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        if not await db_call(_exists)(tournament_id):
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.group = publish.tournament_group(tournament_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if isinstance(content, dict) and content.get("type") == "ping":
            await self.send_json({"type": "pong"})

    @classmethod
    async def decode_json(cls, text_data: str) -> Any:
        try:
            return await super().decode_json(text_data)
        except (ValueError, RecursionError):  # deep nesting raises RecursionError
            return None

    async def tournament_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "changed"})


class BannerConsumer(TournamentConsumer):
    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.group = user_pages_group(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def tournament_banner(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "banner"})

    async def user_frame(self, event: dict[str, Any]) -> None:
        """Other messages to the page group (notifications) pass through."""
        await self.send_json(event["frame"])
