"""Broadcasts after commit. The server routes hidden data (R19), consumers never filter.

Groups (a consumer follows one table across the games of its series):
- ``table.<id>.seat.<n>``: the connection(s) of the player at position n;
- ``table.<id>.public``: spectators and the public view;
- ``table.<id>``: every connection at the table (refresh notices, the players' chat);
- ``table.<id>.spectators_chat``: the spectators' chat: every spectator's connection,
  and a seated player's only when they chose to read it (``ChatPreference``);
- ``lobby``: the lobby page;
- ``user.<id>.pages``: every open page socket of one signed-in person (not their table
  sockets, which join ``games.policy.user_group``): the tournaments' round-start banner
  and the notification centre share it (:func:`user_pages_group`).

Each move sends every seat group its own ``SeatView`` and the public group the public
view, all carrying the new ``version``, so every connection sees every version bump
(lila's ``jsFor``) even when it may not see what changed. The channel layer delivers at
most once: a client that sees a gap asks for a snapshot.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from games import engine

logger = logging.getLogger(__name__)
LOBBY_GROUP = "lobby"


def table_group(table_id: int) -> str:
    return f"table.{table_id}"


def seat_group(table_id: int, position: int) -> str:
    return f"table.{table_id}.seat.{position}"


def public_group(table_id: int) -> str:
    return f"table.{table_id}.public"


def spectators_chat_group(table_id: int) -> str:
    """Who reads the spectators' chat of a table (games/consumers.py joins it)."""
    return f"table.{table_id}.spectators_chat"


def user_pages_group(user_id: int) -> str:
    """The group of every open page socket of one person (one socket per page: the
    round-start banner and the notifications use the same one)."""
    return f"user.{user_id}.pages"


# The event loop of the web process whose socket runs this code. Every site consumer
# sets it (kozel_site/ws.py) and asgiref copies the consumer's context into each
# ``database_sync_to_async`` call, so it is known on the thread that runs a socket's
# database calls; it is unset in a Celery worker, a management command or a test's own
# thread.
_socket_loop: ContextVar[asyncio.AbstractEventLoop | None] = ContextVar("socket_loop",
                                                                        default=None)


def serve_from_this_loop() -> None:
    """Called on a socket's event loop by its consumer: the code its database calls run
    hands its broadcasts and follow-ups on instead of waiting for them."""
    _socket_loop.set(asyncio.get_running_loop())


def _site_loop() -> asyncio.AbstractEventLoop | None:
    """The running event loop of the socket this code serves, or None."""
    loop = _socket_loop.get()
    return loop if loop is not None and loop.is_running() else None


def on_a_web_process() -> bool:
    """Whether this code runs for a web process's socket (a consumer's database call),
    where work may be handed on."""
    return _site_loop() is not None


Messages = list[tuple[str, dict[str, Any]]]


def _send_all(messages: Messages) -> None:
    """Send group messages concurrently (see :func:`_send_made`)."""
    _send_made(lambda: messages)


def _send_made(make: Callable[[], Messages]) -> None:
    """Send the group messages ``make()`` returns, concurrently, in one trip to the
    event loop; log, never raise: a broadcast failure must not undo a commit (clients
    resync).

    For a web process's socket the sends (and ``make``) are handed to its event loop
    and the database call goes on without waiting for Redis; the loop runs them in the
    order they were handed, so the process's broadcasts keep their order. Elsewhere
    they run now, through ``async_to_sync``.
    """

    async def send() -> None:
        try:
            messages = make()
        except Exception:  # noqa: BLE001 - as a failed send: clients resync
            logger.exception("a broadcast could not be made")
            return
        layer = get_channel_layer()
        results = await asyncio.gather(
            *(layer.group_send(group, message) for group, message in messages),
            return_exceptions=True)
        for (group, _), result in zip(messages, results, strict=True):
            if isinstance(result, BaseException):
                logger.error("broadcast to %s failed", group, exc_info=result)

    loop = _site_loop()
    try:
        if loop is None:
            async_to_sync(send)()
        else:
            asyncio.run_coroutine_threadsafe(send(), loop)
    except Exception:  # noqa: BLE001 - clients resync; the move is already stored
        logger.exception("a broadcast failed")


def _send(group: str, message: dict[str, Any]) -> None:
    """Send one group message (see :func:`_send_all`)."""
    _send_all([(group, message)])


def _table_changed_messages(table_id: int) -> list[tuple[str, dict[str, Any]]]:
    """The lobby's notice and the table's refresh notice. Each refresh carries a fresh
    ``notice`` id: the sockets of one web process that receive the same notice read the
    table's facts once between them (games/snapshot.py, games/consumers.py)."""
    return [(LOBBY_GROUP, {"type": "lobby.changed", "table_id": table_id}),
            (table_group(table_id), {"type": "table.refresh", "notice": uuid.uuid4().hex})]


def table_changed(table_id: int) -> None:
    """Tell the lobby and every connection at the table to refresh their snapshot."""
    _send_all(_table_changed_messages(table_id))


def on_commit_table_changed(table_id: int) -> None:
    transaction.on_commit(lambda: table_changed(table_id))


def game_views(state: engine.GameState, history_from: int = 0,
               ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Each seat's view and the public view of ``state`` (the only exits of game data),
    their history from ``history_from`` on."""
    return [engine.observe(state, seat, history_from=history_from).to_dict()
            for seat in range(4)], \
        engine.public_view(state, history_from).to_dict()


def on_commit_game_changed(game: Any, state: engine.GameState,
                           whole_history: bool = False) -> None:
    """After commit, send each seat and the spectators their view at the new version:
    ``whole_history`` when the new state does not extend the previous one by one action
    (a test position set in place of the game).

    Register it before the move's other hooks (the turn's timeout, the next game, the
    game-end receivers): hooks run in the order they were registered, and each of
    those asks Redis, the broker or the database something before the broadcast would
    be handed on (on a web process they only hand themselves on to the follow-up
    thread, games/services/follow_ups.py; in a Celery worker they run there). The
    turn's deadline is read when the transaction commits, so it may be set after this
    call."""
    transaction.on_commit(_game_changed_sender(game, state, whole_history))


def game_changed(game: Any, state: engine.GameState) -> None:
    """Send each seat and the spectators their view of ``state`` now (outside a
    transaction: the sweep announcing a stored version once more)."""
    _game_changed_sender(game, state)()


def _event(game_id: int, version: int, view: dict[str, Any], start: int,
           deadline: str | None) -> dict[str, Any]:
    """A ``table.event`` carrying the view without its history, and the history's entries
    from ``start`` on (games/WEBSOCKET.md, "Versions"), which ``view`` holds (made with
    ``history_from=start``): the whole history in every event made a move's messages
    grow with the game, and late in every game at 100 tables they were most of the web
    processes' work (python -m tests.load play, issue 15)."""
    return {"type": "table.event", "game_id": game_id, "version": version, "view": view,
            "history_from": start, "history_added": view.pop("history"),
            "turn_deadline": deadline}


def _game_changed_sender(game: Any, state: engine.GameState,
                         whole_history: bool = False) -> Any:
    table_id = game.series.table_id
    game_id, version = game.pk, game.version

    def send() -> None:
        deadline = game.turn_deadline.isoformat() if game.turn_deadline else None
        _send_made(lambda: messages(deadline))

    def messages(deadline: str | None) -> Messages:
        """The views are made after the commit, where the sends run (``state`` is
        immutable), not in the transaction that holds the table's locks."""
        start = 0 if whole_history else engine.last_action_history_start(state)
        seat_views, public = game_views(state, start)
        made = [(seat_group(table_id, position),
                 _event(game_id, version, view, start, deadline))
                for position, view in enumerate(seat_views)]
        made.append((public_group(table_id),
                     _event(game_id, version, public, start, deadline)))
        if public["game_over"]:
            made += _table_changed_messages(table_id)
        return made

    return send


def chat(table_id: int, message: dict[str, Any]) -> None:
    """Relay a stored chat message: a player's line to everyone at the table, a
    spectator's line only to those who read the spectators' chat."""
    group = (spectators_chat_group(table_id) if message.get("channel") == "spectators"
             else table_group(table_id))
    _send(group, {"type": "table.chat", "message": message})


def chat_settings_changed(user_group: str) -> None:
    """A person changed their chat choices: each of their table sockets reloads."""
    _send(user_group, {"type": "user.chat_settings"})


def chat_hidden(table_id: int, message_ids: list[int]) -> None:
    """Withdraw hidden chat lines (of either channel) from every open screen at the
    table; a screen that never showed a line ignores its id."""
    _send(table_group(table_id), {"type": "table.chat_hidden", "ids": message_ids})


def on_commit_notice(table_id: int, text: str, **params: object) -> None:
    """After commit, tell everyone at the table something happened (a bot took a seat).

    ``text`` is the English message, marked with ``gettext_noop`` so that it is in the
    catalogs: every connection translates it into its own language and fills in
    ``params`` ("%(name)s") itself (games/consumers.py, issue 16).
    """
    payload = {"type": "table.notice", "text": text, "params": params}
    transaction.on_commit(lambda: _send(table_group(table_id), payload))
