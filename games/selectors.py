"""Reads for pages and snapshots. No writes here (services write)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Prefetch, Q
from django.utils.translation import gettext

from games import engine
from games.models import (
    BOT_NAMES,
    ChatMessage,
    ChatPreference,
    Conduct,
    Game,
    GameResult,
    Seat,
    Series,
    SeriesSeat,
    Table,
)

CHAT_BACKLOG = 50


def lobby_tables() -> list[Table]:
    """Open and running public tables for the lobby, busiest first, each with its
    ``spectators`` count (presence, one Redis round trip for the whole list)."""
    from games import presence

    tables = list(
        Table.objects.filter(visibility=Table.Visibility.PUBLIC,
                             status__in=[Table.Status.OPEN, Table.Status.PLAYING])
        .select_related("owner")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user__profile")
                                   .order_by("position")))
        .order_by("status", "-updated_at")[:100]
    )
    try:
        live = presence.live_counts(t.pk for t in tables)
    except Exception:  # noqa: BLE001 - presence is advisory
        live = {}
    for table in tables:
        seated = {s.user_id for s in table.seats.all() if s.user_id}
        table.spectators = spectator_count(live.get(table.pk, []), seated)  # type: ignore[attr-defined]
    return tables


def online_now(also_online: Iterable[int] = (),
               shown: Callable[[set[int]], set[int]] | None = None) -> dict[str, int]:
    """How many signed-in people are online, and how many of them play at a table they
    have open. Online is a table open (presence here) or ``also_online`` (people with a
    page of the site open, accounts/social). ``shown`` is the caller's privacy filter:
    games knows no privacy, so whoever renders the figure says who may be counted."""
    from games import presence

    try:
        at_tables = presence.online()
    except Exception:  # noqa: BLE001 - presence is advisory
        at_tables = {}
    people = set(at_tables) | set(also_online)
    if shown is not None:
        people = shown(people)
    playing = set(SeriesSeat.objects.filter(
        user_id__in=[uid for uid in people if uid in at_tables],
        series__status=Series.Status.PLAYING).values_list("user_id", "series__table_id"))
    at_their_table = {user for user, table in playing if table in at_tables.get(user, ())}
    return {"online": len(people), "playing": len(at_their_table)}


def current_series(table: Table) -> Series | None:
    """The table's latest series (playing or just finished), if any."""
    return table.series.order_by("-number").first()


def current_game(series: Series | None) -> Game | None:
    if series is None:
        return None
    return series.games.order_by("-number").first()


def roster(series: Series) -> list[SeriesSeat]:
    """The series' four SeriesSeat rows by position: the one roster (DESIGN).

    Read once per Series object and kept on it, so that a service that locked the
    series and then changes a seat works on the same row objects it saves.
    """
    cached = series.__dict__.get("_roster")
    if cached is None:
        prefetched = getattr(series, "_prefetched_objects_cache", {}).get("roster")
        cached = sorted(prefetched if prefetched is not None
                        else SeriesSeat.objects.filter(series=series),
                        key=lambda seat: seat.position)
        series.__dict__["_roster"] = cached
    return cached


def roster_seat(series: Series, position: int) -> SeriesSeat:
    """The roster row of ``position``."""
    for seat in roster(series):
        if seat.position == position:
            return seat
    raise LookupError(f"series {series.pk} has no seat {position}")


def bot_seats(series: Series) -> dict[int, str]:
    """Positions a bot plays in this series (a table's bot or a substitute), with levels."""
    return {seat.position: seat.bot_level for seat in roster(series) if seat.bot_level}


def person_positions(series: Series) -> set[int]:
    """Positions a person plays themselves right now."""
    return {seat.position for seat in roster(series) if seat.user_id}


def series_position(series: Series, user: AbstractBaseUser | None) -> int | None:
    """The position ``user`` plays in the series (not one a bot took over), or None."""
    if user is None or not user.is_authenticated:
        return None
    for seat in roster(series):
        if seat.user_id == user.pk:
            return seat.position
    return None


def away_position(series: Series, user: AbstractBaseUser | None) -> int | None:
    """The position a substitute bot plays for ``user`` while they are away, or None."""
    if user is None or not user.is_authenticated:
        return None
    for seat in roster(series):
        if seat.away_user_id == user.pk:
            return seat.position
    return None


def live_seat_of(user: AbstractBaseUser | None) -> SeriesSeat | None:
    """The roster seat of ``user`` in a series being played (theirs or kept warm by a
    substitute bot), newest first: "Your game is on" (UX)."""
    if user is None or not user.is_authenticated:
        return None
    # A seat left at a ranked table is not theirs any more (the leaver rule).
    return (SeriesSeat.objects.filter(Q(user=user) | Q(away_user=user, gave_up=False,
                                                       series__ranked=False),
                                      series__status=Series.Status.PLAYING)
            .select_related("series__table").order_by("-series_id").first())


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


def chat_dict(message: ChatMessage, ranked: bool | None = None) -> dict[str, Any]:
    """A chat line as it is sent. A ranked table's preset line ("Good luck") is marked
    ``preset``: it is stored in English and every screen shows it in its own language
    (:func:`shown_chat`). ``ranked`` saves a query when the caller knows the table."""
    from games.services.chat import RANKED_PRESETS

    profile = getattr(message.user, "profile", None)
    if ranked is None:
        ranked = message.table.kind == Table.Kind.RANKED
    return {
        "id": message.pk,
        "user": message.user.username,
        "name": getattr(profile, "public_name", None) or message.user.username,
        "text": message.text,
        "channel": message.channel,
        "preset": bool(ranked and message.text in RANKED_PRESETS.values()),
        "at": message.created_at.isoformat().replace("+00:00", "Z"),
    }


def shown_chat(line: dict[str, Any]) -> dict[str, Any]:
    """A chat line for this screen: a ranked preset in the active language."""
    return {**line, "text": gettext(line["text"])} if line.get("preset") else line


def game_view(game: Game, position: int | None) -> dict[str, Any]:
    """The engine's view of ``game`` for ``position`` (None: the public view), R19."""
    state = engine.GameState.from_dict(game.state)
    view = engine.observe(state, position) if position is not None else engine.public_view(state)
    return view.to_dict()


def _connections(table_id: int) -> list[Any]:
    from games import presence

    try:
        return presence.live(table_id)
    except Exception:  # noqa: BLE001 - presence is advisory: a snapshot still renders
        return []


def spectator_count(connections: list[Any], seated_user_ids: set[int]) -> int:
    """Open sockets that are not a seated player's."""
    return sum(1 for c in connections if c.user_id is None or c.user_id not in seated_user_ids)


def _away_notice(series: Series, user: AbstractBaseUser) -> dict[str, Any] | None:
    """Why a substitute bot plays ``user``'s seat, in plain words (UX: never wonder)."""
    position = away_position(series, user)
    if position is None:
        return None
    conduct = (Conduct.objects.filter(series=series, user=user, kind=Conduct.Kind.ABANDON)
               .order_by("-created_at").first())
    why = {
        Conduct.Reason.TIMEOUTS: gettext("your time ran out twice in a row"),
        Conduct.Reason.DISCONNECT: gettext("you were away for 60 seconds on your turn"),
    }.get(conduct.reason if conduct else "", gettext("you left the table"))
    if roster_seat(series, position).gave_up:
        text = gettext("You left this series to play elsewhere; a bot plays your old seat.")
    elif series.ranked:
        text = gettext("A bot has played your seat since %(why)s. At a ranked table a seat "
                       "you leave cannot be taken back (the leaver rule): the bot plays it to "
                       "the end of the series, and the series counts as a loss for your "
                       "rating.") % {"why": why}
    else:
        text = gettext("A bot kept your seat warm because %(why)s.") % {"why": why}
    return {"position": position, "reason": conduct.reason if conduct else "",
            "ranked": series.ranked, "gave_up": roster_seat(series, position).gave_up,
            "text": text}


def table_snapshot(table: Table, user: AbstractBaseUser | None) -> dict[str, Any]:
    """The ``snapshot`` frame of games/WEBSOCKET.md for ``user`` at ``table``."""
    series = current_series(table)
    game = current_game(series)
    position = position_of(table, series, user)
    seats = list(Seat.objects.filter(table=table).select_related("user__profile")
                 .order_by("position"))
    connections = _connections(table.pk)
    online = {c.user_id for c in connections if c.user_id}
    playing = series is not None and series.status == Series.Status.PLAYING
    if playing:
        assert series is not None
        names = {s.user_id: s for s in seats if s.user_id}
        seat_list = [{"position": r.position, "team": engine.team_of(r.position),
                      "name": _live_name(names, r), "bot_level": r.bot_level,
                      "user": _username(names, r), "away": bool(r.away_user_id),
                      "connected": bool(r.bot_level) or r.user_id in online}
                     for r in roster(series)]
        seated = {r.person_id for r in roster(series) if r.person_id}
    else:
        seat_list = [{**_seat_dict(s), "away": False,
                      "connected": s.is_bot or (s.user_id is not None and s.user_id in online)}
                     for s in seats]
        seated = {s.user_id for s in seats if s.user_id}
    signed_in = user is not None and user.is_authenticated
    away = _away_notice(series, user) if playing and signed_in else None  # type: ignore[arg-type]
    is_owner = bool(signed_in and table.owner_id == user.pk)  # type: ignore[union-attr]
    games: list[dict[str, Any]] = []
    if series is not None:
        # Played-out games, those of a voided series too (marked ``void``).
        for g in (series.games.filter(status__in=[Game.Status.FINISHED, Game.Status.VOIDED],
                                      result__isnull=False).select_related("result")):
            games.append({"id": g.pk, "number": g.number, "void": g.is_void,
                          **_result_dict(g.result)})
    # The spectators' chat: every spectator reads it, a seated player only by choice.
    show_spectators = shows_spectator_chat(user)
    sees_spectators = position is None or show_spectators
    chat = _visible_chat(table, user, sees_spectators)
    view = game_view(game, position) if game is not None else None
    return {
        "type": "snapshot",
        "table": {
            "id": table.pk, "name": table.name, "kind": table.kind,
            "visibility": table.visibility, "status": table.status,
            "turn_seconds": table.turn_seconds, "series_target": table.series_target,
            "owner": table.owner.username, "start_when_full": table.start_when_full,
            "invite_url": f"/t/{table.invite_token}/" if is_owner and table.is_private else None,
            "spectators": spectator_count(connections, seated),
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
            "user": user.username if signed_in else None,  # type: ignore[union-attr]
            "position": position,
            "is_owner": is_owner,
            "can_act": bool(view and view.get("legal")),
            "can_reclaim": bool(away and not away["ranked"] and not away["gave_up"]),
            "away": away,
            "show_spectator_chat": show_spectators,
            "sees_spectator_chat": sees_spectators,
        },
        "chat": [shown_chat(chat_dict(m, ranked=table.kind == Table.Kind.RANKED))
                 for m in reversed(chat)],
    }


def shows_spectator_chat(user: AbstractBaseUser | None) -> bool:
    """Whether ``user`` chose to read the spectators' chat while seated (default: no)."""
    if user is None or not user.is_authenticated:
        return False
    return ChatPreference.objects.filter(user=user, show_spectators=True).exists()


def _visible_chat(table: Table, user: AbstractBaseUser | None,
                  with_spectators: bool = True) -> list[ChatMessage]:
    """The latest chat lines ``user`` sees: not hidden by a moderator, and not from
    someone they blocked (none when they muted this table's chat; games/policy.py);
    the spectators' lines only when ``with_spectators``."""
    from games.policy import policy

    hidden = policy().hidden_chat_senders(user, table.pk)
    if hidden is None:
        return []
    rows = ChatMessage.objects.filter(table=table, hidden=False)
    if not with_spectators:
        rows = rows.filter(channel=ChatMessage.Channel.PLAYERS)
    return list(rows.exclude(user_id__in=hidden)
                .select_related("user__profile").order_by("-created_at")[:CHAT_BACKLOG])


def _live_name(people: dict[int, Seat], seat: SeriesSeat) -> str:
    """A person's current public name (a deleted account reads "deleted player")."""
    if seat.user_id is not None and seat.user_id in people:
        return people[seat.user_id].occupant_label
    if seat.bot_level and seat.away_user_id:
        return f"{BOT_NAMES[seat.position]} (for {seat.name})"
    return seat.name


def _username(people: dict[int, Seat], seat: SeriesSeat) -> str | None:
    person = seat.person_id
    if person is not None and person in people:
        return people[person].user.username
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

