"""The ``snapshot`` frame of games/WEBSOCKET.md, in two steps: the table's facts, read
once, and each reader's frame made from them without a query.

The facts are what every reader of a table shares; a socket keeps its reader's own
choices (blocks, mutes, the spectators' chat) and builds its frame from the facts.

What differs per reader is only computed in :func:`snapshot_for`: the seat's view of the
game (R19: a seat sees its own hand, a spectator the public view), the chat it may read
(its blocks, its mute, the spectators' channel by choice), the owner's invite link and
the away notice. :class:`TableFacts` itself never leaves the server.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext

from games import engine, presence
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
from games.policy import policy, record_is_public, series_ratings, table_event
from games.selectors import (
    CHAT_BACKLOG,
    away_position,
    chat_dict,
    current_game,
    current_series,
    read_takeover,
    roster,
    roster_seat,
    series_dict,
    series_position,
    shown_chat,
    spectator_count,
)

# Chat lines read for everybody at once: enough that a reader who blocked a few chatty
# people or reads only the players' channel still finds CHAT_BACKLOG lines among them;
# when not, :func:`chat_from_facts` says so and the caller reads that reader's own.
CHAT_FETCH = 2 * CHAT_BACKLOG


def _connections(table_id: int) -> list[Any]:
    try:
        return presence.live(table_id)
    except Exception:  # noqa: BLE001 - presence is advisory: a snapshot still renders
        return []


def _live_name(people: dict[int, Seat], seat: SeriesSeat, gone: set[int]) -> str:
    """A person's current public name (a deleted account reads "deleted player"); a
    bot standing in for someone names them, unless they are ``gone`` for good (a
    suspended account: the seat is the bot's)."""
    if seat.user_id is not None and seat.user_id in people:
        return people[seat.user_id].occupant_label
    if seat.bot_level and seat.away_user_id in gone:
        return BOT_NAMES[seat.position]
    if seat.bot_level and seat.away_user_id:
        return f"{BOT_NAMES[seat.position]} (for {seat.name})"
    return seat.name


def _result_dict(result: GameResult) -> dict[str, Any]:
    return {
        "points": {"A": result.points_a, "B": result.points_b},
        "tricks": {"A": result.tricks_a, "B": result.tricks_b},
        "loss_points": {"A": result.loss_points_a, "B": result.loss_points_b},
        "eggs": result.eggs,
        "winner": result.winner or None,
    }


def _seat_dict(seat: Seat) -> dict[str, Any]:
    return {
        "position": seat.position,
        "team": seat.team,
        "name": None if seat.is_empty else seat.occupant_label,
        "user": seat.user.username if seat.user_id else None,
        "bot_level": seat.bot_level,
    }


def _username(people: dict[int, Seat], seat: SeriesSeat) -> str | None:
    person = seat.person_id
    if person is not None and person in people:
        return people[person].user.username
    return None


def game_view(game: Game, position: int | None, record_held: bool = False) -> dict[str, Any]:
    """The engine's view of ``game`` for ``position`` (None: the public view), R19;
    ``record_held``: the finished game's record is not shown yet (a duplicate board not
    yet played at every table, R19 across tables: ``games.policy.held_records``)."""
    state = engine.GameState.from_dict(game.state)
    view = engine.observe(state, position) if position is not None else engine.public_view(state)
    out = view.to_dict()
    if record_held:
        out["record"] = None
    return out


def shows_spectator_chat(user: AbstractBaseUser | None) -> bool:
    """Whether ``user`` chose to read the spectators' chat while seated (default: no)."""
    if user is None or not user.is_authenticated:
        return False
    return ChatPreference.objects.filter(user=user, show_spectators=True).exists()


@dataclass(frozen=True)
class TableFacts:
    """What every reader of one table's snapshot shares, read at one moment."""

    table: Table
    series: Series | None
    game: Game | None
    seats: list[Seat]
    connections: list[Any]
    games: list[dict[str, Any]]
    recent_chat: list[ChatMessage]  # newest first, at most CHAT_FETCH, none hidden
    away_reasons: dict[int, str]  # a substitute's person -> why (their last abandon)
    # A finished ranked series' rating changes as stored (None: not one): public, like
    # the leaderboard, so one answer serves every reader.
    ratings: dict[str, Any] | None = None
    # When a bot takes the seat on turn if its person stays away (selectors.takeover_frame).
    takeover: dict[str, Any] | None = None
    # The tournament match played at this table (games/policy.table_event), or None.
    event: dict[str, Any] | None = None
    # The finished game's record is held back (games/policy.held_records), read with
    # the facts: the views are made later, on the socket's event loop.
    record_held: bool = False
    # The game's views made so far from these facts, by seat (None: the public view).
    views: dict[int | None, dict[str, Any]] = field(default_factory=dict, compare=False,
                                                    repr=False)

    @property
    def playing(self) -> bool:
        return self.series is not None and self.series.status == Series.Status.PLAYING

    # What a table socket's handshake asks of the person opening it, answered from the
    # facts it reads anyway instead of a query each.
    def plays_here(self, user_id: int) -> bool:
        """Whether the person sits at the table, or plays (or is kept warm) in its live
        series: the facts' answer to games/services/absence.py's ``_plays_here``."""
        if any(seat.user_id == user_id for seat in self.seats):
            return True
        if not self.playing:
            return False
        assert self.series is not None
        return any(user_id in (row.user_id, row.away_user_id) for row in roster(self.series))

    def keeps_seat_for(self, user_id: int) -> bool:
        """Whether a substitute keeps a casual seat of the live series warm for the
        person: the facts' answer to games/services/clock.py's ``seat_kept_for``."""
        if not self.playing:
            return False
        assert self.series is not None
        return not self.series.ranked and any(
            row.away_user_id == user_id and not row.gave_up for row in roster(self.series))

    def with_connection(self, connection: Any) -> TableFacts:
        """These facts with one more open socket counted: a handshake reads the facts
        before it counts its own socket (it may be refused), then shows itself."""
        if connection in self.connections:
            return self
        takeover = self.takeover
        if (takeover is not None and self.series is not None and connection.user_id
                and roster_seat(self.series, takeover["seat"]).user_id == connection.user_id):
            takeover = None  # the person on turn is the one opening the table: here
        return replace(self, connections=[*self.connections, connection], takeover=takeover)

    def view_for(self, position: int | None) -> dict[str, Any] | None:
        """The game's view for ``position`` (None: the public view, R19), made once per
        facts and seat for every frame built from them. Never changed after it is made:
        frames only read it."""
        if self.game is None:
            return None
        if position not in self.views:
            self.views[position] = game_view(self.game, position, self.record_held)
        return self.views[position]


def table_facts(table: Table) -> TableFacts:
    """Read a table's shared facts (a handful of queries and one Redis read)."""
    series = current_series(table)
    game = current_game(series)
    if series is not None:
        series.table = table
        if game is not None:
            game.series = series
    seats = list(Seat.objects.filter(table=table).select_related("user__profile")
                 .order_by("position"))
    for seat in seats:
        seat.table = table
    games: list[dict[str, Any]] = []
    away_reasons: dict[int, str] = {}
    if series is not None:
        # Played-out games, those of a voided series too (marked ``void``).
        for played in (series.games.filter(status__in=[Game.Status.FINISHED,
                                                       Game.Status.VOIDED],
                                           result__isnull=False)
                       .select_related("result").order_by("number")):
            games.append({"id": played.pk, "number": played.number,
                          "void": played.status == Game.Status.VOIDED,
                          **_result_dict(played.result)})
        away = [r.away_user_id for r in roster(series) if r.away_user_id]
        if away:
            for user_id, reason in (Conduct.objects.filter(
                    series=series, user_id__in=away, kind=Conduct.Kind.ABANDON)
                    .order_by("created_at").values_list("user_id", "reason")):
                away_reasons[user_id] = reason  # the latest wins
    chat = list(ChatMessage.objects.filter(table=table, hidden=False)
                .select_related("user__profile").order_by("-created_at")[:CHAT_FETCH])
    for line in chat:
        line.table = table
    ratings = None
    if series is not None and series.ranked and series.status == Series.Status.FINISHED:
        ratings = series_ratings(series.pk)
    connections = _connections(table.pk)
    takeover = None
    if series is not None and game is not None:
        takeover = read_takeover(game, series, {c.user_id for c in connections if c.user_id})
    held = (game is not None and game.status != Game.Status.PLAYING
            and not record_is_public(game.pk))
    return TableFacts(table=table, series=series, game=game, seats=seats,
                      connections=connections, games=games, recent_chat=chat,
                      away_reasons=away_reasons, ratings=ratings, takeover=takeover,
                      event=table_event(table.pk), record_held=held)


def read_table_facts(table_id: int) -> TableFacts | None:
    """:func:`table_facts` of the table ``table_id``, read with its owner (None: no such
    table): what a live table's socket reads at a connect, a resync and a refresh
    notice."""
    table = Table.objects.select_related("owner").filter(pk=table_id).first()
    return None if table is None else table_facts(table)


def sent_since(facts: TableFacts) -> bool:
    """Whether the table's game moved on (a new version, a new game) or a chat line came
    after ``facts`` were read: what a socket that joined its groups after the read
    would have missed. A false alarm costs only a second read."""
    table_id = facts.table.pk
    game = (Game.objects.filter(series__table_id=table_id)
            .order_by("-series__number", "-number").values_list("pk", "version").first())
    if game != ((facts.game.pk, facts.game.version) if facts.game is not None else None):
        return True
    newest = max((line.pk for line in facts.recent_chat), default=0)
    return ChatMessage.objects.filter(table_id=table_id, hidden=False, pk__gt=newest).exists()


def position_in(facts: TableFacts, user: AbstractBaseUser | None) -> int | None:
    """Where ``user`` sits: in the series' roster while one is played, else at the table
    (selectors.seat_of_user, from the facts)."""
    if user is None or not user.is_authenticated:
        return None
    if facts.playing:
        assert facts.series is not None
        return series_position(facts.series, user)
    return next((s.position for s in facts.seats if s.user_id == user.pk), None)


def chat_from_facts(facts: TableFacts, hidden: set[int] | None,
                    with_spectators: bool) -> list[ChatMessage] | None:
    """The latest lines a reader sees, newest first, from the shared ones: none when they
    muted the table (``hidden`` None), never a line of someone they blocked, the
    spectators' channel only ``with_spectators``. None when the shared lines cannot tell
    (the reader filters out so much that older lines would count): read them with
    :func:`reader_chat` instead."""
    if hidden is None:
        return []
    shown = [m for m in facts.recent_chat if m.user_id not in hidden
             and (with_spectators or m.channel != ChatMessage.Channel.SPECTATORS)]
    if len(shown) >= CHAT_BACKLOG or len(facts.recent_chat) < CHAT_FETCH:
        return shown[:CHAT_BACKLOG]
    return None


def reader_chat(table: Table, hidden: set[int] | None,
                with_spectators: bool) -> list[ChatMessage]:
    """The same lines as :func:`chat_from_facts`, read for this reader alone."""
    if hidden is None:
        return []
    rows = ChatMessage.objects.filter(table=table, hidden=False)
    if not with_spectators:
        rows = rows.exclude(channel=ChatMessage.Channel.SPECTATORS)
    return list(rows.exclude(user_id__in=hidden)
                .select_related("user__profile").order_by("-created_at")[:CHAT_BACKLOG])


def sees_spectator_chat(position: int | None, show_spectators: bool) -> bool:
    """Every spectator reads the spectators' chat, a seated player only by choice."""
    return position is None or show_spectators


def _away_notice(facts: TableFacts, user: AbstractBaseUser) -> dict[str, Any] | None:
    """Why a substitute bot plays ``user``'s seat, in plain words (UX: never wonder)."""
    assert facts.series is not None
    series = facts.series
    position = away_position(series, user)
    if position is None:
        return None
    reason = facts.away_reasons.get(user.pk, "")
    why = {
        Conduct.Reason.TIMEOUTS: gettext("your time ran out twice in a row"),
        Conduct.Reason.DISCONNECT: gettext("you were away for 60 seconds on your turn"),
        Conduct.Reason.DIRECTOR: gettext("the tournament director gave your seat to a bot"),
    }.get(reason, gettext("you left the table"))
    gave_up = roster_seat(series, position).gave_up
    if gave_up:
        text = gettext("You left this series to play elsewhere; a bot plays your old seat.")
    elif series.ranked:
        text = gettext("A bot has played your seat since %(why)s. At a ranked table a seat "
                       "you leave cannot be taken back (the leaver rule): the bot plays it to "
                       "the end of the series, and the series counts as a loss for your "
                       "rating.") % {"why": why}
    else:
        text = gettext("A bot kept your seat warm because %(why)s.") % {"why": why}
    return {"position": position, "reason": reason, "ranked": series.ranked,
            "gave_up": gave_up, "text": text}


def _seat_list(facts: TableFacts) -> tuple[list[dict[str, Any]], set[int]]:
    """The seats as shown, and the ids of the people seated (not spectators)."""
    online = {c.user_id for c in facts.connections if c.user_id}
    if facts.playing:
        assert facts.series is not None
        names = {s.user_id: s for s in facts.seats if s.user_id}
        rows = roster(facts.series)
        gone = {r.away_user_id for r in rows if r.gave_up and r.away_user_id
                and facts.away_reasons.get(r.away_user_id) == Conduct.Reason.SUSPENDED}
        return ([{"position": r.position, "team": engine.team_of(r.position),
                  "name": _live_name(names, r, gone), "bot_level": r.bot_level,
                  "user": _username(names, r), "away": bool(r.away_user_id),
                  "connected": bool(r.bot_level) or r.user_id in online} for r in rows],
                {r.person_id for r in rows if r.person_id})
    return ([{**_seat_dict(s), "away": False,
              "connected": s.is_bot or (s.user_id is not None and s.user_id in online)}
             for s in facts.seats],
            {s.user_id for s in facts.seats if s.user_id})


def _share_url(table: Table, plays_or_owns: bool) -> str | None:
    """The link to hand a friend: a public table's own address; a private table's invite
    link to its owner and players only (whoever holds it may watch and sit)."""
    if not table.is_private:
        return f"/table/{table.pk}/"
    return f"/t/{table.invite_token}/" if plays_or_owns else None


def snapshot_for(facts: TableFacts, user: AbstractBaseUser | None, *,
                 show_spectators: bool, chat: list[ChatMessage]) -> dict[str, Any]:
    """One reader's snapshot frame from the shared facts: no query (R19: only this
    reader's seat view). ``chat`` is what :func:`chat_from_facts` or
    :func:`reader_chat` gave for this reader, newest first."""
    table, series, game = facts.table, facts.series, facts.game
    position = position_in(facts, user)
    seat_list, seated = _seat_list(facts)
    signed_in = user is not None and user.is_authenticated
    away = _away_notice(facts, user) if facts.playing and signed_in else None  # type: ignore[arg-type]
    is_owner = bool(signed_in and table.owner_id == user.pk)  # type: ignore[union-attr]
    view = facts.view_for(position)
    ranked = table.kind == Table.Kind.RANKED
    return {
        "type": "snapshot",
        "table": {
            "id": table.pk, "name": table.name, "kind": table.kind,
            "visibility": table.visibility, "status": table.status,
            "turn_seconds": table.turn_seconds, "series_target": table.series_target,
            "owner": table.owner.username, "start_when_full": table.start_when_full,
            "invite_url": _share_url(table, is_owner or position is not None),
            "spectators": spectator_count(facts.connections, seated),
        },
        "seats": seat_list,
        # A tournament match's table: the event's name, link, round, table number and
        # match format (the page speaks of the match, not of a casual series).
        "event": facts.event,
        "series": None if series is None else {**series_dict(series),
                                               "ratings": facts.ratings},
        "games": facts.games,
        "game": None if game is None else {
            "id": game.pk, "number": game.number, "version": game.version,
            "status": game.status, "view": view, "paused": game.paused,
            "turn_deadline": game.turn_deadline.isoformat() if game.turn_deadline else None,
            "takeover": facts.takeover,
        },
        "you": {
            "user": user.username if signed_in else None,  # type: ignore[union-attr]
            "position": position,
            "is_owner": is_owner,
            "can_act": bool(view and view.get("legal")),
            "can_reclaim": bool(away and not away["ranked"] and not away["gave_up"]),
            "away": away,
            "show_spectator_chat": show_spectators,
            "sees_spectator_chat": sees_spectator_chat(position, show_spectators),
        },
        "chat": [shown_chat(chat_dict(m, ranked=ranked)) for m in reversed(chat)],
    }


def table_snapshot(table: Table, user: AbstractBaseUser | None) -> dict[str, Any]:
    """The snapshot frame for one reader, read from scratch (the table page)."""
    facts = table_facts(table)
    show_spectators = shows_spectator_chat(user)
    with_spectators = sees_spectator_chat(position_in(facts, user), show_spectators)
    hidden = policy().hidden_chat_senders(user, table.pk)
    chat = chat_from_facts(facts, hidden, with_spectators)
    if chat is None:
        chat = reader_chat(table, hidden, with_spectators)
    return snapshot_for(facts, user, show_spectators=show_spectators, chat=chat)
