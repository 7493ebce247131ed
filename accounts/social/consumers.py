"""The per-user page socket, ``ws/me/``: one per open page of a signed-in person.

It joins the person's page group (games/services/publish.user_pages_group), the one
channel the tournaments' round-start banner (``tournament.banner``) and the
notification centre (``user.frame``) share, so a page never opens a second socket
for them. It also keeps the person's page presence (games/presence.py) with a heartbeat,
and announces their coming online and going offline to the people who follow them
(privacy applied in services.announce_presence).

Frames to the browser: ``{"type": "hello", "unread": n}`` on connect; ``banner``;
``notification`` (notify.frame_of); ``notifications.read``; ``presence``
(``{"username", "online"}``); ``online.changed`` (only to a page that opened the socket
with ``?online=1``: someone's first page opened or last one closed); ``pong``. Anything
the browser sends but a ping is ignored.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs

from asgiref.sync import sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from accounts.social import services
from accounts.social.selectors import unread_count
from games import presence
from games.services.publish import user_pages_group
from kozel_site.ws import CLOSE_FORBIDDEN, SiteSocket, db_call

if TYPE_CHECKING:
    from channels.layers import BaseChannelLayer


# Every page showing "Online now" (the home page): told when someone comes or goes.
ONLINE_GROUP = "site.online"


class PageConsumer(SiteSocket, AsyncJsonWebsocketConsumer):
    channel_layer: BaseChannelLayer  # the site always configures one
    group: str = ""
    counted: bool = False
    watches_online: bool = False

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.user = user
        self.group = user_pages_group(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        if _asks_for_online(self.scope):
            self.watches_online = True
            await self.channel_layer.group_add(ONLINE_GROUP, self.channel_name)
        await self.accept()
        first = await sync_to_async(presence.touch_page, thread_sensitive=False)(
            user.pk, self.channel_name)
        self.counted = True
        await self.send_json({"type": "hello",
                              "unread": await db_call(unread_count)(user)})
        if first:
            await db_call(services.announce_presence)(user.pk, True)
            await self._online_changed()

    async def disconnect(self, code: int) -> None:
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.watches_online:
            await self.channel_layer.group_discard(ONLINE_GROUP, self.channel_name)
        if self.counted:
            self.counted = False
            last = await sync_to_async(presence.drop_page, thread_sensitive=False)(
                self.user.pk, self.channel_name)
            if last:
                await db_call(services.announce_presence)(self.user.pk, False)
                await self._online_changed()

    async def _online_changed(self) -> None:
        """Someone's first page opened or last page closed: the "Online now" lines fetch
        their figures again (each for its own reader: privacy differs per reader)."""
        await self.channel_layer.group_send(ONLINE_GROUP, {"type": "online.changed"})

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Run the consumer with its presence heartbeat beside it (as the table socket
        does): if the consumer dies in any way, the heartbeat stops and the entry expires."""
        beat = asyncio.ensure_future(self._heartbeat())
        try:
            await super().__call__(scope, receive, send)
        finally:
            beat.cancel()

    async def _heartbeat(self) -> None:
        interval = presence.heartbeat_seconds()
        while True:
            await asyncio.sleep(interval)
            if self.counted:
                await sync_to_async(presence.touch_page, thread_sensitive=False)(
                    self.user.pk, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if isinstance(content, dict) and content.get("type") == "ping":
            await self.send_json({"type": "pong"})

    @classmethod
    async def decode_json(cls, text_data: str) -> Any:
        try:
            return await super().decode_json(text_data)
        except (ValueError, RecursionError):  # deep nesting raises RecursionError
            return None

    async def tournament_banner(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "banner"})

    async def user_frame(self, event: dict[str, Any]) -> None:
        await self.send_json(event["frame"])

    async def online_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "online.changed"})


def _asks_for_online(scope: Mapping[str, Any]) -> bool:
    """The home page opens its socket with ``?online=1``: it shows "Online now"."""
    return parse_qs(scope.get("query_string", b"").decode("latin-1")).get("online") == ["1"]
