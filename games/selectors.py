"""Reads for pages and snapshots. No writes here (services write)."""

from __future__ import annotations

import enum
import logging
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Prefetch, Q
from django.utils.translation import gettext

from games import engine, policy, presence
from games.conf import game_settings
from games.models import (
    RANKED_PRESETS,
    ChatMessage,
    Game,
    Seat,
    Series,
    SeriesSeat,
    Table,
)
from games.policy import record_is_public

CHAT_BACKLOG = 50

logger = logging.getLogger(__name__)


def lobby_tables() -> list[Table]:
    """Open and running public tables for the lobby, busiest first, each with its
    ``spectators`` count (presence, one Redis round trip for the whole list)."""
    tables = list(
        Table.objects.filter(visibility=Table.Visibility.PUBLIC,
                             status__in=[Table.Status.OPEN, Table.Status.PLAYING])
        .select_related("owner__profile")
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
    """The series' four SeriesSeat rows by position: the one roster."""
    return series.seats_in_order


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


def _person_on_turn(game: Game, series: Series) -> int | None:
    """The person whose turn a live, unpaused game waits for (None: a bot's turn, or
    the game waits for nobody)."""
    if (game.status != Game.Status.PLAYING or game.paused or game.turn_seat is None
            or series.status != Series.Status.PLAYING):
        return None
    return roster_seat(series, game.turn_seat).user_id


def takeover_deadline(game: Game, series: Series,
                      away_since: Mapping[int, float]) -> datetime | None:
    """When a bot takes over the seat on turn if its person stays away, or None (they
    are here, a bot plays it already, the game waits for nobody).

    ``away_since``: person id -> since when they have had no socket at the table
    (presence). The server acts on the same instant: a clocked turn's first timeout
    (services/play.py ``play_timeout``) or ``DISCONNECT_GRACE_SECONDS`` away on one's own
    turn (services/clock.py ``abandon_if_disconnected``), whichever comes first.
    """
    user_id = _person_on_turn(game, series)
    if user_id is None or user_id not in away_since:
        return None
    since = away_since[user_id]
    started = game.turn_started_at.timestamp() if game.turn_started_at else since
    at = datetime.fromtimestamp(max(since, started), tz=UTC) + timedelta(
        seconds=game_settings.DISCONNECT_GRACE_SECONDS)
    return min(at, game.turn_deadline) if game.turn_deadline is not None else at


def takeover_frame(game: Game, series: Series,
                   away_since: Mapping[int, float]) -> dict[str, Any] | None:
    """:func:`takeover_deadline` as snapshots and events carry it: the seat and the
    instant (public facts only, R19)."""
    at = takeover_deadline(game, series, away_since)
    if at is None:
        return None
    assert game.turn_seat is not None
    return {"seat": game.turn_seat, "at": at.isoformat()}


def read_takeover(game: Game, series: Series,
                  live_user_ids: set[int] | None = None) -> dict[str, Any] | None:
    """:func:`takeover_frame`, reading presence only when a person is on turn (and is
    not among ``live_user_ids``, the sockets the caller has read). None when presence
    does not answer: it is advisory, and the server's own check reads it again."""
    user_id = _person_on_turn(game, series)
    if user_id is None or (live_user_ids is not None and user_id in live_user_ids):
        return None
    try:
        away = presence.away_since_many(series.table_id, [user_id])
    except Exception:  # noqa: BLE001 - presence is advisory
        logger.exception("presence: could not read who is away at table %s", series.table_id)
        return None
    return takeover_frame(game, series, away)


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


def seat_of_user(table: Table, series: Series | None, user: AbstractBaseUser | None) -> int | None:
    """Where ``user`` sits: in the series' seat snapshot while one exists, else at the table."""
    if user is None or not user.is_authenticated:
        return None
    if series is not None and series.status == Series.Status.PLAYING:
        return series_position(series, user)
    seat = Seat.objects.filter(table=table, user=user).first()
    return seat.position if seat else None


def may_view_table(table: Table, user: AbstractBaseUser | None, invited: set[int],
                   seats: Iterable[Seat] | None = None) -> bool:
    """Public tables are open to all; a private one to its owner, its players and invitees.
    ``seats``: the table's seats when the caller has read them (a table socket's
    handshake has, with the table's other facts), so that no query asks again."""
    if not table.is_private:
        return True
    if table.pk in invited:
        return True
    if user is None or not user.is_authenticated:
        return False
    if table.owner_id == user.pk:
        return True
    if seats is not None:
        return any(seat.user_id == user.pk for seat in seats)
    return Seat.objects.filter(table=table, user=user).exists()


class RecordAccess(enum.Enum):
    """Whether a reader may open a game's full record (replay, download, the API)."""

    OPEN = "open"
    PRIVATE = "private"  # a private table's game, and the reader is not let in
    NOT_OVER = "not_over"  # R19: nothing hidden leaves a game before it is over
    # R19 across tables: a duplicate board's record waits until every table played it.
    HELD = "held"


def record_access(game: Game, user: AbstractBaseUser | None,
                  invited: set[int]) -> RecordAccess:
    """The one rule for a game's full record (every hand, every discard, the seed): its
    table must be viewable by ``user`` (:func:`may_view_table`), the game played out
    (R19) and its record not held by an app (a duplicate board until every table has
    played it, ``games.policy.held_records``). The table is checked first, so a
    stranger learns nothing of a private table's games, not even whether one is over;
    a private table's game that an app published to all (a policy record release: a
    public duplicate board's, linked from its traveller) is open to everyone."""
    if not may_view_table(game.series.table, user, invited) \
            and not policy.released_records([game.pk]):
        return RecordAccess.PRIVATE
    if not game.played_out:
        return RecordAccess.NOT_OVER
    if not record_is_public(game.pk):
        return RecordAccess.HELD
    return RecordAccess.OPEN


def game_record(game: Game) -> dict[str, Any]:
    """The engine's record of a played-out game (``engine.game_record``), rebuilt from
    its seed and moves; call only after :func:`record_access` said OPEN."""
    moves = game.moves.order_by("seq").values_list("seat", "kind", "cards")
    state = engine.replay(game.seed, game.dealer, game.first_leader,
                          ((seat, engine.action_from_dict({"kind": kind, "cards": cards}))
                           for seat, kind, cards in moves), algorithm=game.algorithm)
    return engine.game_record(state)


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


def spectator_count(connections: list[Any], seated_user_ids: set[int]) -> int:
    """Open sockets that are not a seated player's."""
    return sum(1 for c in connections if c.user_id is None or c.user_id not in seated_user_ids)


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

