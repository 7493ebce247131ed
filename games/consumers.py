"""The live table over WebSockets (protocol: games/WEBSOCKET.md).

The consumer does no game logic: it authenticates from ``scope``, checks the frame's
shape, calls one service through ``db_call`` (kozel_site/ws.py) and maps typed errors
to ``error`` frames. Hidden data is routed by the server into per-seat groups
(games/services/publish.py); this consumer forwards what its groups receive.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import dataclass
from typing import Any

from asgiref.sync import sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils import translation

from accounts import language
from games import facts_reads, selectors, snapshot
from games import presence as presence_store
from games.errors import ServiceError, StaleVersionError
from games.models import Table
from games.policy import policy, user_group
from games.presence import Connection, person_id
from games.services import absence, chat, clock, play, publish, votes
from kozel_site import flood
from kozel_site.ws import (
    CLOSE_FLOOD,
    CLOSE_FORBIDDEN,
    CLOSE_NOT_FOUND,
    SiteSocket,
    db_call,
)

logger = logging.getLogger(__name__)

MAX_FRAME_BYTES = 4096
# Flood control: a token bucket of 20 frames, refilled at 10 per second; a client that
# empties it five times is closed (4008). Normal play sends a few frames a minute.
BUCKET_SIZE = 20.0
REFILL_PER_SECOND = 10.0
MAX_FLOOD_STRIKES = 5


@dataclass(frozen=True)
class Arrival:
    """What an accepted handshake read (``TableConsumer._arrive``)."""

    facts: snapshot.TableFacts  # with this socket counted
    seat_kept: bool  # a substitute keeps this person's casual seat warm


class TableConsumer(SiteSocket, AsyncJsonWebsocketConsumer):
    """One connection to ``ws/table/<id>/``: a seated player or a spectator."""

    own_frame_budget = True  # its bucket answers refused frames with rate_limited

    table_id: int
    position: int | None
    groups_joined: list[str]

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.user = self.scope.get("user")
        # A client cooling down after a flood was refused before this (SiteSocket).
        self.position = None
        self.groups_joined = []
        self.tokens = BUCKET_SIZE
        self.last_refill = time.monotonic()
        self.flood_strikes = 0
        session = self.scope.get("session")
        invited = set(session.get("invited_tables", [])) if session is not None else set()
        self.hidden_ids: set[int] | None = set()
        self.hidden_senders: set[str] | None = set()
        self.show_spectators = False
        # Every socket of a signed-in user joins their own group, so a sanction reaches
        # open connections at once (a suspension closes them; games/policy.py); joined
        # before their choices are read, so that a later change of them reaches it.
        signed_in = self.user is not None and self.user.is_authenticated
        if signed_in:
            await self.channel_layer.group_add(user_group(self.user.pk), self.channel_name)
        self.counted = True
        arrival = await db_call(self._arrive)(invited)
        if isinstance(arrival, int):
            self.counted = False
            if signed_in:
                await self.channel_layer.group_discard(user_group(self.user.pk),
                                                       self.channel_name)
            await self.close(code=arrival)
            return
        await self.accept()
        # Coming back to a casual table gives your seat back at once (UX): the
        # substitute bot played it only while you were away.
        if arrival.seat_kept:
            await db_call(clock.return_to_seat)(self.table_id, self.user)
            await self.send_snapshot()  # read again: the seat is theirs now
        else:
            await self.send_snapshot(facts=arrival.facts)

    # A handshake's reads, in one hop to the reading thread (after the user's, the
    # suspension's and the language's, kozel_site/ws.py): a crowd of handshakes (a dead
    # web process's clients coming back) must not queue beside the moves. Whether the
    # reader may view the table, plays here or has a seat kept warm is answered from the
    # table's facts, read once for the snapshot too, instead of a query each.
    def _arrive(self, invited: set[int]) -> int | Arrival:
        """The close code refusing this handshake (no such table, a private table this
        reader may not view), or the arrival: the table's facts with this socket counted
        in the table's presence (Redis), this reader's choices kept on the socket, and
        the Redis server the groups are joined on."""
        facts = snapshot.read_table_facts(self.table_id)
        if facts is None:
            return CLOSE_NOT_FOUND
        if not selectors.may_view_table(facts.table, self.user, invited, facts.seats):
            return CLOSE_FORBIDDEN
        person = person_id(self.user)
        if person is not None:
            self._load_reader_choices()
        self.redis_run_id = absence.connected(
            self.table_id, self.channel_name, self.user, facts.plays_here,
            listed=facts.table.visibility == Table.Visibility.PUBLIC)
        return Arrival(
            facts=facts.with_connection(Connection(self.channel_name, person)),
            seat_kept=person is not None and facts.keeps_seat_for(person))

    async def disconnect(self, code: int) -> None:
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)
        user = getattr(self, "user", None)
        if user is not None and user.is_authenticated:
            await self.channel_layer.group_discard(user_group(user.pk), self.channel_name)
        if getattr(self, "counted", False):
            self.counted = False
            # Only reads the database, as a connect's presence does: not on the writing
            # thread, beside the moves.
            await db_call(absence.disconnected)(
                self.table_id, self.channel_name, self.user)

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Handle every frame and group message in this connection's language:
        the profile's for a signed-in user, else the cookie or Accept-Language. Errors,
        notices, the away line and preset chat lines are all translated here, per socket.

        The language is activated in this consumer's own task, whose context no other
        socket shares (asgiref's ``Local`` copies on write), and again only if something
        changed it: a ``translation.override`` around every message is measurable work
        on the event loop.
        """
        if not hasattr(self, "language"):
            # Read with the handshake's user (kozel_site/asgi.py), else here.
            self.language = self.scope.get(language.SCOPE_KEY) or await db_call(
                language.scope_language)(self.scope)
        if translation.get_language() != self.language:
            translation.activate(self.language)
        await super().dispatch(message)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Run the consumer with its presence heartbeat beside it: if the consumer dies
        in any way (a crash, a cancelled task) the heartbeat stops and the entry expires
        (games/presence.py)."""
        beat = asyncio.ensure_future(self._heartbeat())
        try:
            await super().__call__(scope, receive, send)
        finally:
            beat.cancel()

    async def _heartbeat(self) -> None:
        """Refresh this socket's presence entry while it is counted at the table, and
        notice a Redis server that restarted since the socket joined its groups."""
        interval = presence_store.heartbeat_seconds()
        while True:
            await asyncio.sleep(interval)
            if not getattr(self, "counted", False):
                continue
            try:
                run_id = await sync_to_async(presence_store.touch, thread_sensitive=False)(
                    self.table_id, self.channel_name, person_id(self.user))
            except Exception:  # noqa: BLE001 - advisory: the next beat tries again
                logger.warning("presence: heartbeat failed at table %s", self.table_id,
                               exc_info=True)
                continue
            if run_id != self.redis_run_id:
                await self.redis_run_seen(run_id)

    async def redis_run_seen(self, run_id: str) -> None:
        """Group memberships live in Redis, and a Redis restart forgets them: a socket
        that lived through it heard nothing more and its table stood still for good.
        When the heartbeat finds Redis' run
        id changed since this socket joined, join the groups again and send a fresh
        snapshot (events may have been missed meanwhile)."""
        known, self.redis_run_id = self.redis_run_id, run_id
        if known is None or not getattr(self, "counted", False):
            return  # nothing joined on a known server yet, or closing
        self.groups_joined = []
        if self.user is not None and self.user.is_authenticated:
            await self.channel_layer.group_add(user_group(self.user.pk), self.channel_name)
        # The heartbeat's task calls this, outside the socket's dispatch: its language.
        with translation.override(self.language):
            await self.send_snapshot()

    # --- subscriptions ---------------------------------------------------------------
    async def _subscribe(self, position: int | None, spectators_chat: bool = False) -> bool:
        """Join the table group plus exactly one of: this seat's group or the public one;
        and the spectators' chat when this screen reads it (a spectator always, a seated
        player by choice). True when a group was joined that this socket was not in."""
        wanted = [publish.table_group(self.table_id),
                  publish.seat_group(self.table_id, position) if position is not None
                  else publish.public_group(self.table_id)]
        if spectators_chat or position is None:
            wanted.append(publish.spectators_chat_group(self.table_id))
        for group in self.groups_joined:
            if group not in wanted:
                await self.channel_layer.group_discard(group, self.channel_name)
        joined = [group for group in wanted if group not in self.groups_joined]
        for group in joined:
            await self.channel_layer.group_add(group, self.channel_name)
        self.groups_joined = wanted
        self.position = position
        return bool(joined)

    async def send_snapshot(self, facts: snapshot.TableFacts | None = None) -> None:
        """Send this reader's snapshot, from the table's facts read now, in one read with
        this process's other sockets at the table (games/facts_reads.py), or from
        ``facts``, read with the handshake.

        The facts say which groups this socket belongs in, and a group carries only
        what is sent after it was joined. When the facts put this socket in a group it
        was not in (its handshake, a seat taken or left, Redis restarted), a move or a
        chat line sent between the read and the join never reached it: a move then left
        its page at the old version for good. So after such a join one probe asks
        whether the game moved on or a line came (snapshot.sent_since), and only then
        are the facts read again."""
        while True:
            if facts is None:
                facts = await facts_reads.fresh_table_facts(self.table_id)
            if facts is None:
                await self.close(code=CLOSE_NOT_FOUND)
                return
            position = snapshot.position_in(facts, self.user)
            with_spectators = snapshot.sees_spectator_chat(position, self.show_spectators)
            if not await self._subscribe(position, with_spectators) or \
                    not await db_call(snapshot.sent_since)(facts):
                break
            facts = None  # read again: every later change reaches this socket now
        lines = snapshot.chat_from_facts(facts, self.hidden_ids, with_spectators)
        if lines is None:  # this reader filters out too much: read their own lines
            lines = await db_call(snapshot.reader_chat)(facts.table, self.hidden_ids,
                                                        with_spectators)
        frame = snapshot.snapshot_for(facts, self.user, show_spectators=self.show_spectators,
                                      chat=lines)
        await self.send_json(frame)

    # --- client frames ---------------------------------------------------------------
    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None,
                      **kwargs: Any) -> None:
        if self.flood_strikes >= MAX_FLOOD_STRIKES:
            return  # closed for flooding: the frames still queued are not served
        if not self._take_token():
            self.flood_strikes += 1
            if self.flood_strikes >= MAX_FLOOD_STRIKES:
                await sync_to_async(flood.start, thread_sensitive=False)(self.flood_key)
                await self.close(code=CLOSE_FLOOD)
                return
            await self.send_error("rate_limited", "Too many frames; slow down.")
            return
        if text_data is None:
            await self.send_error("bad_frame", "Send JSON text frames, not binary.")
            return
        if len(text_data.encode("utf-8", "replace")) > MAX_FRAME_BYTES:
            await self.send_error("bad_frame", f"A frame has at most {MAX_FRAME_BYTES} bytes.")
            return
        try:
            content = json.loads(text_data)
        except (ValueError, RecursionError):
            # A small frame nested a few thousand levels deep ("[" * 3000) makes the
            # decoder raise RecursionError, not ValueError.
            await self.send_error("bad_frame", "That frame is not valid JSON.")
            return
        if not isinstance(content, dict) or not isinstance(content.get("type"), str):
            await self.send_error("bad_frame", 'A frame is a JSON object with a "type".')
            return
        handler = {
            "act": self.on_act, "resync": self.on_resync, "chat": self.on_chat,
            "ping": self.on_ping, "vote": self.on_vote, "reclaim": self.on_reclaim,
            "chat_settings": self.on_chat_settings,
        }.get(content["type"])
        if handler is None:
            await self.send_error("unknown_type",
                                  f"Unknown frame type {content['type'][:40]!r}.")
            return
        await handler(content)

    def _take_token(self) -> bool:
        now = time.monotonic()
        self.tokens = min(BUCKET_SIZE, self.tokens + (now - self.last_refill) * REFILL_PER_SECOND)
        self.last_refill = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    async def on_act(self, content: dict[str, Any]) -> None:
        if "action" not in content or "version" not in content:
            await self.send_error("invalid", 'An act frame needs "action" and "version".')
            return
        try:
            await db_call(play.submit_table_action)(
                self.table_id, self.user, content["action"], content["version"],
                content.get("game_id"))
        except StaleVersionError as exc:
            await self.send_json({"type": "error", "code": exc.code, "message": exc.message,
                                  "current_version": exc.current_version})
        except ServiceError as exc:
            await self.send_error(exc.code, exc.message)

    async def on_resync(self, content: dict[str, Any]) -> None:
        await self.send_snapshot()

    async def on_chat(self, content: dict[str, Any]) -> None:
        try:
            chat.check_message(self.user, content.get("text"))  # without the database
            await db_call(chat.post_message)(
                self.table_id, self.user, content.get("text"))
        except ServiceError as exc:
            await self.send_error(exc.code, exc.message)

    async def on_chat_settings(self, content: dict[str, Any]) -> None:
        """Show or hide the spectators' chat while seated; every socket of this user
        then gets a fresh snapshot (``user_chat_settings``)."""
        try:
            await db_call(chat.set_show_spectators)(
                self.user, content.get("show_spectators"))
        except ServiceError as exc:
            await self.send_error(exc.code, exc.message)

    async def on_vote(self, content: dict[str, Any]) -> None:
        try:
            votes.check_vote(self.user, content.get("kind"))  # without the database
            tally = await db_call(votes.cast_vote)(
                self.table_id, self.user, content.get("kind"))
        except ServiceError as exc:
            await self.send_error(exc.code, exc.message)
            return
        await self.send_json({"type": "vote", **tally})

    async def on_reclaim(self, content: dict[str, Any]) -> None:
        try:
            await db_call(clock.reclaim_seat)(self.table_id, self.user)
        except ServiceError as exc:
            await self.send_error(exc.code, exc.message)

    async def on_ping(self, content: dict[str, Any]) -> None:
        nonce = content.get("nonce")
        await self.send_json({"type": "pong",
                              "nonce": nonce if isinstance(nonce, (str, int)) else None})

    async def send_error(self, code: str, message: str) -> None:
        await self.send_json({"type": "error", "code": code, "message": message})

    # --- group messages (type "table.event" -> table_event) ----------------------------
    async def table_event(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "event", "game_id": event["game_id"],
                              "version": event["version"], "view": event["view"],
                              "history_from": event["history_from"],
                              "history_added": event["history_added"],
                              "turn_deadline": event.get("turn_deadline"),
                              "takeover": event.get("takeover")})

    async def table_refresh(self, event: dict[str, Any]) -> None:
        await self.send_snapshot()

    async def table_chat(self, event: dict[str, Any]) -> None:
        hidden = getattr(self, "hidden_senders", set())
        if hidden is None or event["message"].get("user") in hidden:
            return  # this user blocked the sender, or muted the table's chat
        await self.send_json({"type": "chat", "message": selectors.shown_chat(event["message"])})

    # --- the user's own group (type "user.closed" -> user_closed) ------------------------
    def _load_hidden_senders(self) -> None:
        """Whose chat lines this reader does not see (a block; None: the table muted), by
        id for snapshots and by username for live lines."""
        named = policy().hidden_chat_senders_named(self.user, self.table_id)
        self.hidden_ids = None if named is None else set(named)
        self.hidden_senders = None if named is None else set(named.values())

    def _load_reader_choices(self) -> None:
        """This reader's own choices, kept on the socket so that a snapshot needs no
        query of its own; reloaded when they change (``user_chat_filter``,
        ``user_chat_settings``)."""
        self._load_hidden_senders()
        self.show_spectators = snapshot.shows_spectator_chat(self.user)

    async def user_closed(self, event: dict[str, Any]) -> None:
        """A moderator suspended this account: the socket closes at once."""
        await self.send_json({"type": "error", "code": "suspended",
                              "message": translation.gettext(
                                  str(event.get("text") or "Your account is suspended."))})
        await self.close(code=CLOSE_FORBIDDEN)

    async def user_chat_filter(self, event: dict[str, Any]) -> None:
        """The user blocked someone or muted a table's chat: reload whom to leave out, and
        say so (the page can show that this table's chat is muted)."""
        await db_call(self._load_hidden_senders)()
        await self.send_json({"type": "chat_filter", "muted": self.hidden_senders is None})

    async def user_chat_settings(self, event: dict[str, Any]) -> None:
        """This user showed or hid the spectators' chat (on any of their screens): join
        or leave it, and send the chat as it now reads."""
        self.show_spectators = await db_call(snapshot.shows_spectator_chat)(self.user)
        await self.send_snapshot()

    async def table_chat_hidden(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "chat_hidden", "ids": event["ids"]})

    async def table_notice(self, event: dict[str, Any]) -> None:
        # The English message and its values: said in this connection's language.
        text = translation.gettext(event["text"])
        params = event.get("params") or {}
        await self.send_json({"type": "notice", "text": text % params if params else text})


class LobbyConsumer(SiteSocket, AsyncJsonWebsocketConsumer):
    """``ws/lobby/``: tells the lobby page that a table changed, so it refreshes its list.

    The group is joined before the socket opens: the page fetches its lists again when
    the socket opens (static/js/lobby.js), so that a change between the page's render
    (or a lost connection) and the join is shown too."""

    async def connect(self) -> None:
        await self.channel_layer.group_add(publish.LOBBY_GROUP, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(publish.LOBBY_GROUP, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None,
                      **kwargs: Any) -> None:
        await self.send_json({"type": "error", "code": "unknown_type",
                              "message": "The lobby socket only sends."})

    async def lobby_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "lobby.changed", "table_id": event["table_id"]})
