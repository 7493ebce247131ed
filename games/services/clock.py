"""Clocks, timeouts and abandonment: no table ever hangs.

- The seat to act gets ``turn_started_at`` and, at a table with a clock, a
  ``turn_deadline`` stored in the Game row; a ``turn_timeout_task(game_id, version)`` is
  scheduled on commit and the beat sweep finds any deadline a lost task missed.
- When time runs out the server plays for the player with the Casual bot and records a
  timeout (Conduct). Two timeouts in a row, a timeout while they have no socket open at
  the table, or 60 s disconnected on one's own turn, and a Casual bot takes the seat for
  the rest of the series; the player may reclaim it at a casual table. The others are
  shown that instant in advance (selectors.takeover_deadline).
- The molodka has no clock (R11 is optional): only the seat on turn is timed.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from functools import partial

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games import engine, events
from games import presence as presence_store
from games.conf import game_settings
from games.errors import (
    InvalidRequestError,
    NotYourSeatError,
    PermissionDeniedError,
    ServiceError,
)
from games.models import Conduct, Game, Seat, Series, SeriesSeat, Table, Termination
from games.selectors import (
    away_position,
    person_positions,
    roster,
    roster_seat,
    series_position,
)
from games.services import finish, locks, publish, schedule
from games.services.locks import Locked

logger = logging.getLogger(__name__)

TIMEOUTS_BEFORE_ABANDON = 2
TAKEOVER_LEVEL = "casual"


def arm_turn_clock_locked(game: Game, state: engine.GameState, table: Table) -> None:
    """Start the turn of ``state.turn``. The caller holds the locks and saves the game.

    A bot's turn has no deadline (the bot task drives it); a person's has one when the
    table has a clock. ``turn_started_at`` and ``turn_seat`` are kept either way: the
    absence countdown runs from them.
    """
    now = timezone.now()
    seat = state.turn
    game.turn_started_at = now if seat is not None else None
    game.turn_seat = seat
    game.turn_deadline = None
    seconds = game_settings.turn_seconds(table.turn_seconds)
    if (seat is None or game.paused or seconds is None
            or seat not in person_positions(game.series)):
        return
    game.turn_deadline = now + timedelta(seconds=seconds)
    schedule.turn_timeout(game.pk, game.version, game.turn_deadline)


def note_player_acted_locked(seat: SeriesSeat) -> None:
    """A person acted themselves: their run of timeouts is over. Caller holds the locks."""
    if seat.timeouts_in_row:
        seat.timeouts_in_row = 0
        seat.save(update_fields=["timeouts_in_row"])


def take_over_locked(locked: Locked, position: int, reason: str) -> None:
    """A Casual bot keeps ``position`` warm while its person is away (casual: until they
    come back, services.clock.reclaim_seat; ranked: for the rest of the series, the
    leaver rule). Caller holds the locks."""
    game, series = locked.game, locked.series
    seat = roster_seat(series, position)
    if not seat.user_id:
        return
    user_id = seat.user_id
    seat.away_user_id, seat.user, seat.bot_level = user_id, None, TAKEOVER_LEVEL
    seat.timeouts_in_row = 0
    seat.save(update_fields=["away_user", "user", "bot_level", "timeouts_in_row"])
    Conduct.objects.create(user_id=user_id, series=series, game=game, position=position,
                           kind=Conduct.Kind.ABANDON, reason=reason)
    events.send_events_on_commit(partial(publish.table_changed, series.table_id))
    if series.ranked:
        notice = (gettext_noop("%(name)s left the table; a Casual bot plays their seat for the "
                               "rest of this ranked series.") if seat.name else
                  gettext_noop("A player left the table; a Casual bot plays their seat for the "
                               "rest of this ranked series."))
    else:
        notice = (gettext_noop("%(name)s left the table; a Casual bot plays their seat until "
                               "they come back.") if seat.name else
                  gettext_noop("A player left the table; a Casual bot plays their seat until "
                               "they come back."))
    params = {"name": seat.name} if seat.name else {}
    events.send_event_on_commit(*publish.notice(series.table_id, notice, **params))
    if game.status == Game.Status.PLAYING:
        if game.turn_seat == position:
            game.turn_deadline = None  # a bot's turn has no clock
            game.save(update_fields=["turn_deadline"])
        schedule.bot_turn(game.pk, game.version, force=True)


def hand_seats_to_bots(user_id: int, reason: str = Conduct.Reason.SUSPENDED) -> list[int]:
    """Every seat ``user_id`` plays themselves in a live series goes to a substitute bot
    under the normal rules (a casual seat waits for them, a ranked one is left for good),
    e.g. when a moderator suspends the account. Returns the tables concerned.

    One transaction per table, each locked in the order of services/locks.py.
    """
    table_ids = list(SeriesSeat.objects.filter(user_id=user_id,
                                               series__status=Series.Status.PLAYING)
                     .values_list("series__table_id", flat=True).distinct())
    done = []
    for table_id in table_ids:
        with transaction.atomic():
            try:
                table, series, game = locks.lock_playing(table_id)
            except ServiceError:
                continue  # the series ended meanwhile
            position = next((s.position for s in roster(series) if s.user_id == user_id), None)
            if position is None or game is None:
                continue
            take_over_locked(Locked(table, series, game), position, reason)
            if reason == Conduct.Reason.SUSPENDED:
                _seat_bot_for_good_locked(table, series, position)
            done.append(table_id)
    return done


def _seat_bot_for_good_locked(table: Table, series: Series, position: int) -> None:
    """A suspended person does not come back: the seat is no longer theirs to reclaim,
    and the table's own seat (what the lobby lists) shows the bot, not their name.
    Caller holds the locks."""
    seat = roster_seat(series, position)
    seat.gave_up = True
    seat.save(update_fields=["gave_up"])
    Seat.objects.filter(table=table, position=position).update(user=None,
                                                               bot_level=TAKEOVER_LEVEL)


def is_away(table_id: int, user_id: int) -> bool:
    """Whether the person has no socket open at the table (presence). False when presence
    does not answer: an unreadable Redis never costs anyone their seat."""
    try:
        return presence_store.absent_since(table_id, user_id) is not None
    except Exception:  # noqa: BLE001 - presence is advisory
        logger.exception("presence: could not read who is away at table %s", table_id)
        return False


def abandon_if_disconnected(game_id: int, expected_version: int,
                            now: datetime | None = None) -> bool:
    """60 s away on one's own turn: a bot takes the seat (no-op otherwise).

    "Away" is presence's word (games/presence.py): no socket of theirs has sent a
    heartbeat, whether it closed cleanly or died.
    """
    now = now or timezone.now()
    with transaction.atomic():
        locked = schedule.lock_for_task(game_id, expected_version)
        if locked is None:
            return False
        game, series = locked.game, locked.series
        position = game.turn_seat
        if game.paused or position is None or position not in person_positions(series):
            return False
        user_id = roster_seat(series, position).user_id
        assert user_id is not None
        since = presence_store.absent_since(series.table_id, user_id, now.timestamp())
        if since is None:
            return False
        started = game.turn_started_at.timestamp() if game.turn_started_at else since
        if now.timestamp() - max(since, started) < game_settings.DISCONNECT_GRACE_SECONDS:
            return False
        take_over_locked(locked, position, Conduct.Reason.DISCONNECT)
        return True


def reclaim_seat(table_id: int, user: User | None) -> int:
    """A person whose seat a substitute bot keeps warm comes back to a casual table and
    plays it again (the consumer calls this when they open the table). Returns the
    position."""
    _check_signed_in_to_reclaim(user)
    assert user is not None  # refused above when not signed in
    with transaction.atomic():
        table, series, game = locks.lock_playing(table_id)
        seat = _reclaimable_seat(series, user)
        position = seat.position
        seat.user, seat.away_user, seat.bot_level = user, None, ""
        seat.save(update_fields=["user", "away_user", "bot_level"])
        live = game if game is not None and game.status == Game.Status.PLAYING else None
        Conduct.objects.create(user=user, series=series, game=live, position=position,
                               kind=Conduct.Kind.RECLAIM, reason=Conduct.Reason.RETURNED)
        if live is not None and live.turn_seat == position and not live.paused:
            arm_turn_clock_locked(live, engine.GameState.from_dict(live.state), table)
            live.save(update_fields=["turn_started_at", "turn_deadline", "turn_seat"])
        events.send_events_on_commit(partial(publish.table_changed, table_id))
        if seat.name:
            events.send_event_on_commit(*publish.notice(table_id, gettext_noop(
                "%(name)s is back and plays their seat again."), name=seat.name))
        else:
            events.send_event_on_commit(*publish.notice(table_id, gettext_noop(
                "A player is back and plays their seat again.")))
        return position


def _check_signed_in_to_reclaim(user: User | None) -> None:
    """Only a signed-in person has a seat to reclaim (no database needed to say so)."""
    if user is None or not user.is_authenticated:
        raise PermissionDeniedError(_("Sign in to reclaim your seat."))


def _reclaimable_seat(series: Series, user: User | None) -> SeriesSeat:
    """The roster seat a substitute keeps for ``user`` in ``series``, or the refusal."""
    if series.ranked:
        raise PermissionDeniedError(_("A seat left at a ranked table cannot be reclaimed."))
    position = away_position(series, user)
    if position is None:
        raise InvalidRequestError(_("You have no seat to reclaim at this table."))
    seat = roster_seat(series, position)
    if seat.gave_up:
        raise InvalidRequestError(_("You left this series: the seat is no longer yours."))
    return seat


def seat_kept_for(table_id: int, user: User | None) -> bool:
    """Whether a substitute keeps a casual seat of ``table_id``'s live series warm for
    ``user`` (:func:`return_to_seat` gives it back). A read only: the live table asks it
    on its reading thread at every connect, and calls :func:`return_to_seat` on a
    writing thread only when it is true (a crowd of connects must not queue there,
    beside the moves)."""
    if user is None or not user.is_authenticated:
        return False
    return SeriesSeat.objects.filter(away_user=user, gave_up=False,
                                     series__table_id=table_id,
                                     series__status=Series.Status.PLAYING,
                                     series__ranked=False).exists()


def return_to_seat(table_id: int, user: User | None) -> int | None:
    """Give a returning person their casual seat back, if a substitute keeps it warm.

    Called when they open the table (the consumer's connect): no click needed. At a
    ranked table nothing changes (the leaver rule); the snapshot tells them why.
    Returns the position reclaimed, or None.
    """
    if not seat_kept_for(table_id, user):
        return None
    try:
        return reclaim_seat(table_id, user)
    except ServiceError:
        return None  # the series ended or the seat was given back meanwhile


def leave_series(table_id: int, user: User | None) -> None:
    """A person leaves the series they play at ``table_id`` for good (to start another
    game). With nobody else at the table the series ends (the bots agree, as in a
    vote); otherwise a bot plays their seat on and it is no longer theirs to reclaim.
    At a ranked table that is an abandonment under the leaver rule."""
    if user is None or not user.is_authenticated:
        raise PermissionDeniedError(_("Sign in first."))
    with transaction.atomic():
        table, series, game = locks.lock_playing(table_id)
        position = series_position(series, user)
        if position is None:
            position = away_position(series, user)
        if position is None:
            raise NotYourSeatError(_("You do not play at this table."))
        others = [s for s in roster(series) if s.position != position and s.person_id]
        if not others:
            finish.end_series_locked(table, series, Termination.VOTED_END)
            events.send_events_on_commit(partial(publish.table_changed, table_id))
            return
        if game is not None and roster_seat(series, position).user_id:
            take_over_locked(Locked(table, series, game), position, Conduct.Reason.LEFT)
        seat = roster_seat(series, position)
        seat.gave_up = True
        seat.save(update_fields=["gave_up"])
