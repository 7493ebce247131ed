"""Reads for pages and snapshots. No writes here (services write)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Prefetch, QuerySet

from games import engine
from games.models import ChatMessage, Game, GameResult, Seat, Series, Table

CHAT_BACKLOG = 50


def lobby_tables() -> QuerySet[Table]:
    """Open and running public tables for the lobby, busiest first."""
    return (
        Table.objects.filter(visibility=Table.Visibility.PUBLIC,
                             status__in=[Table.Status.OPEN, Table.Status.PLAYING])
        .select_related("owner")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user__profile")
                                   .order_by("position")))
        .order_by("status", "-updated_at")[:100]
    )


def current_series(table: Table) -> Series | None:
    """The table's latest series (playing or just finished), if any."""
    return table.series.order_by("-number").first()


def current_game(series: Series | None) -> Game | None:
    if series is None:
        return None
    return series.games.order_by("-number").first()


def series_position(series: Series, user: AbstractBaseUser | None) -> int | None:
    """The position ``user`` holds in the series (not one a bot took over), or None."""
    if user is None or not user.is_authenticated:
        return None
    for entry in series.seats:
        if entry.get("user_id") == user.pk:
            return int(entry["position"])
    return None


def position_of(table: Table, series: Series | None, user: AbstractBaseUser | None) -> int | None:
    """Where ``user`` sits: in the series' seat snapshot while one exists, else at the table."""
    if user is None or not user.is_authenticated:
        return None
    if series is not None and series.status == Series.Status.PLAYING:
        return series_position(series, user)
    seat = Seat.objects.filter(table=table, user=user).first()
    return seat.position if seat else None


def may_view_table(table: Table, user: AbstractBaseUser | None, invited: set[int]) -> bool:
    """Public tables are open to all; a private one to its owner, its players and invitees."""
    if not table.is_private:
        return True
    if table.pk in invited:
        return True
    if user is None or not user.is_authenticated:
        return False
    return table.owner_id == user.pk or Seat.objects.filter(table=table, user=user).exists()


def _seat_dict(seat: Seat) -> dict[str, Any]:
    return {
        "position": seat.position,
        "team": seat.team,
        "name": None if seat.is_empty else seat.occupant_label,
        "user": seat.user.username if seat.user_id else None,
        "bot_level": seat.bot_level,
    }


def _result_dict(result: GameResult) -> dict[str, Any]:
    return {
        "points": {"A": result.points_a, "B": result.points_b},
        "tricks": {"A": result.tricks_a, "B": result.tricks_b},
        "loss_points": {"A": result.loss_points_a, "B": result.loss_points_b},
        "eggs": result.eggs,
        "winner": result.winner or None,
    }


def series_dict(series: Series) -> dict[str, Any]:
    return {
        "id": series.pk,
        "number": series.number,
        "target": series.target,
        "status": series.status,
        "loss_points": {"A": series.loss_points_a, "B": series.loss_points_b},
        "eggs": series.eggs,
        "winner": series.winner or None,
        "goat": series.goat or None,
        "goats_with_eggs": series.goats_with_eggs,
    }


def chat_dict(message: ChatMessage) -> dict[str, Any]:
    profile = getattr(message.user, "profile", None)
    return {
        "id": message.pk,
        "user": message.user.username,
        "name": getattr(profile, "public_name", None) or message.user.username,
        "text": message.text,
        "at": message.created_at.isoformat().replace("+00:00", "Z"),
    }


def game_view(game: Game, position: int | None) -> dict[str, Any]:
    """The engine's view of ``game`` for ``position`` (None: the public view), R19."""
    state = engine.GameState.from_dict(game.state)
    view = engine.observe(state, position) if position is not None else engine.public_view(state)
    return view.to_dict()


def table_snapshot(table: Table, user: AbstractBaseUser | None) -> dict[str, Any]:
    """The ``snapshot`` frame of games/WEBSOCKET.md for ``user`` at ``table``."""
    series = current_series(table)
    game = current_game(series)
    position = position_of(table, series, user)
    seats = list(Seat.objects.filter(table=table).select_related("user__profile")
                 .order_by("position"))
    connected = {s.position for s in seats if s.connections > 0}
    if series is not None and series.status == Series.Status.PLAYING:
        seat_list = [{"position": e["position"], "team": "A" if e["position"] % 2 == 0 else "B",
                      "name": _live_name(seats, e), "bot_level": e["bot_level"],
                      "user": _username(seats, e), "away": bool(e.get("away_user_id")),
                      "connected": bool(e["bot_level"]) or e["position"] in connected}
                     for e in series.seats]
    else:
        seat_list = [{**_seat_dict(s), "away": False,
                      "connected": s.is_bot or s.position in connected} for s in seats]
    can_reclaim = bool(
        series is not None and series.status == Series.Status.PLAYING and not series.ranked
        and user is not None and user.is_authenticated
        and any(e.get("away_user_id") == user.pk for e in series.seats))
    is_owner = bool(user is not None and user.is_authenticated and table.owner_id == user.pk)
    games: list[dict[str, Any]] = []
    if series is not None:
        for g in series.games.filter(status=Game.Status.FINISHED).select_related("result"):
            games.append({"id": g.pk, "number": g.number, **_result_dict(g.result)})
    chat = list(ChatMessage.objects.filter(table=table, hidden=False)
                .select_related("user__profile").order_by("-created_at")[:CHAT_BACKLOG])
    view = game_view(game, position) if game is not None else None
    return {
        "type": "snapshot",
        "table": {
            "id": table.pk, "name": table.name, "kind": table.kind,
            "visibility": table.visibility, "status": table.status,
            "turn_seconds": table.turn_seconds, "series_target": table.series_target,
            "owner": table.owner.username, "start_when_full": table.start_when_full,
            "invite_url": f"/t/{table.invite_token}/" if is_owner and table.is_private else None,
            "spectators": table.spectator_count,
        },
        "seats": seat_list,
        "series": series_dict(series) if series is not None else None,
        "games": games,
        "game": None if game is None else {
            "id": game.pk, "number": game.number, "version": game.version,
            "status": game.status, "view": view, "paused": game.paused,
            "turn_deadline": game.turn_deadline.isoformat() if game.turn_deadline else None,
        },
        "you": {
            "user": user.username if user is not None and user.is_authenticated else None,
            "position": position,
            "is_owner": is_owner,
            "can_act": bool(view and view.get("legal")),
            "can_reclaim": can_reclaim,
        },
        "chat": [chat_dict(m) for m in reversed(chat)],
    }


def _live_name(seats: list[Seat], entry: dict[str, Any]) -> str:
    """A person's current public name (a deleted account reads "deleted player")."""
    user_id = entry.get("user_id")
    for seat in seats:
        if user_id is not None and seat.user_id == user_id:
            return seat.occupant_label
    return str(entry.get("name", ""))


def _username(seats: list[Seat], entry: dict[str, Any]) -> str | None:
    user_id = entry.get("user_id") or entry.get("away_user_id")
    for seat in seats:
        if seat.user_id == user_id and seat.user_id is not None:
            return seat.user.username
    return None


def replay_frames(game: Game) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The full record and a full-information frame per step of a finished game."""
    moves = list(game.moves.order_by("seq"))
    actions = [(m.seat, engine.action_from_dict({"kind": m.kind, "cards": m.cards}))
               for m in moves]
    state = engine.new_game(game.seed, game.dealer, game.first_leader, algorithm=game.algorithm)
    frames = [_full_frame(state, 0, None)]
    for step, (seat, action) in enumerate(actions, start=1):
        state = engine.apply(state, seat, action)
        frames.append(_full_frame(state, step, {"seat": seat, **action.to_dict()}))
    return engine.game_record(state), frames


def _full_frame(state: engine.GameState, step: int, move: dict[str, Any] | None) -> dict[str, Any]:
    """Everything at one step, for the replay of a finished game (R19 allows it then)."""
    views = [engine.observe(state, seat).to_dict() for seat in range(4)]
    public = views[0]
    return {
        "step": step,
        "move": move,
        "hands": [v["hand"] for v in views],
        # Each seat's own entry: its discards are face up in its own view.
        "table": [views[s]["table"][s] for s in range(4)],
        "stock_size": public["stock_size"],
        "tricks": public["tricks"],
        "trump_card": public["trump_card"],
        "turn": public["turn"],
        "top_seat": public["top_seat"],
        "leader": public["leader"],
        "history_tail": public["history"][-6:],
    }

