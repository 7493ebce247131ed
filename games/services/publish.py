"""What is broadcast, and to whom: group names and messages (games/events.py sends them
after commit). The server routes hidden data (R19), consumers never filter.

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

from collections.abc import Callable
from typing import Any

from games import engine
from games.events import Message
from games.models import Table
from games.policy import record_is_public
from games.selectors import read_takeover

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


def table_changed(table_id: int, listed: bool | None = None) -> list[Message]:
    """Tell every connection at the table to refresh their snapshot (the sockets of one
    web process read the table's facts once between them: games/facts_reads.py), and
    the lobby too when the table is one it lists.

    The lobby socket is open to anyone and lists public tables only, so a private
    table's id never goes to it. ``listed``: whether the lobby lists (or listed, for a
    change of visibility) this table, when the caller knows; else it is read."""
    if listed is None:
        listed = Table.objects.filter(pk=table_id,
                                      visibility=Table.Visibility.PUBLIC).exists()
    refresh: list[Message] = [(table_group(table_id), {"type": "table.refresh"})]
    if not listed:
        return refresh
    return [(LOBBY_GROUP, {"type": "lobby.changed", "table_id": table_id}), *refresh]


def game_views(state: engine.GameState, history_from: int = 0,
               ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Each seat's view and the public view of ``state`` (the only exits of game data),
    their history from ``history_from`` on."""
    return [engine.observe(state, seat, history_from=history_from).to_dict()
            for seat in range(4)], \
        engine.public_view(state, history_from).to_dict()


def game_changed(game: Any, state: engine.GameState,
                 whole_history: bool = False) -> Callable[[], list[Message]]:
    """What makes each seat's and the spectators' view of ``state`` at the game's
    current version: call it after commit, where the turn's deadline is read as stored
    (it may be set after the move), with when a bot takes over the seat on turn if its
    person is away, and the views are made outside the table's locks.
    ``whole_history``: the new state does not extend the previous one by one action (a
    test position set in place of the game)."""
    table_id, game_id, version = game.series.table_id, game.pk, game.version

    def make() -> list[Message]:
        deadline = game.turn_deadline.isoformat() if game.turn_deadline else None
        # Whether the person now on turn is away, read after the commit like the deadline.
        takeover = read_takeover(game, game.series)
        start = 0 if whole_history else engine.last_action_history_start(state)
        seat_views, public = game_views(state, start)
        if public["game_over"] and not record_is_public(game_id):
            # A duplicate board not yet played at every table: its end shows no record
            # (seed, hands, discards) until then (R19 across tables); the tables are
            # told to refresh when it becomes public.
            for view in [*seat_views, public]:
                view["record"] = None
        made = [(seat_group(table_id, position),
                 _event(game_id, version, view, start, deadline, takeover))
                for position, view in enumerate(seat_views)]
        made.append((public_group(table_id),
                     _event(game_id, version, public, start, deadline, takeover)))
        if public["game_over"]:
            made += table_changed(table_id)
        return made

    return make


def _event(game_id: int, version: int, view: dict[str, Any], start: int,
           deadline: str | None, takeover: dict[str, Any] | None) -> dict[str, Any]:
    """A ``table.event`` carrying the view without its history, and the history's entries
    from ``start`` on (games/WEBSOCKET.md, "Versions"), which ``view`` holds (made with
    ``history_from=start``): an event's size does not grow with the game."""
    return {"type": "table.event", "game_id": game_id, "version": version, "view": view,
            "history_from": start, "history_added": view.pop("history"),
            "turn_deadline": deadline, "takeover": takeover}


def chat(table_id: int, message: dict[str, Any]) -> Message:
    """Relay a stored chat message: a player's line to everyone at the table, a
    spectator's line only to those who read the spectators' chat."""
    group = (spectators_chat_group(table_id) if message.get("channel") == "spectators"
             else table_group(table_id))
    return group, {"type": "table.chat", "message": message}


def chat_settings_changed(user_group: str) -> Message:
    """A person changed their chat choices: each of their table sockets reloads."""
    return user_group, {"type": "user.chat_settings"}


def chat_hidden(table_id: int, message_ids: list[int]) -> Message:
    """Withdraw hidden chat lines (of either channel) from every open screen at the
    table; a screen that never showed a line ignores its id."""
    return table_group(table_id), {"type": "table.chat_hidden", "ids": message_ids}


def notice(table_id: int, text: str, **params: object) -> Message:
    """Tell everyone at the table something happened (a bot took a seat).

    ``text`` is the English message, marked with ``gettext_noop`` so that it is in the
    catalogs: every connection translates it into its own language and fills in
    ``params`` ("%(name)s") itself (games/consumers.py).
    """
    return table_group(table_id), {"type": "table.notice", "text": text, "params": params}
