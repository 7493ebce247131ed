"""Tables and seats: create a table, sit down, move, leave, add and remove bots, kick.

Every public function validates its untrusted input, then takes the table's row lock
(``select_for_update``; on SQLite the IMMEDIATE transaction serialises writers instead)
so that two people racing for the last seat cannot both get it. Lobby broadcasts are
sent after commit (games/events.py) and so never announce a rolled-back change.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import guests
from games import events
from games.errors import (
    InvalidRequestError,
    PermissionDeniedError,
    SeatTakenError,
    TableStateError,
)
from games.models import (
    CASUAL_TARGETS,
    CLOCKS,
    FIXED_DEALS_TARGET,
    RANKED_CLOCKS,
    BotLevel,
    Seat,
    Table,
)
from games.policy import policy, table_event
from games.services import publish
from games.services import series as series_service
from games.services.locks import lock_table
from kozel_site import names

NAME_MAX_LENGTH = 60


@dataclass(frozen=True)
class TableSettings:
    """What the creator chooses; validated by :func:`validate_settings`."""

    name: str
    kind: str = Table.Kind.CASUAL
    visibility: str = Table.Visibility.PUBLIC
    turn_seconds: int | None = None
    series_target: int = 12
    start_when_full: bool = False


def validate_settings(s: TableSettings) -> TableSettings:
    """Return cleaned settings or raise InvalidRequestError naming the bad field."""
    name = " ".join(str(s.name or "").split())
    if not name:
        raise InvalidRequestError(_("Give the table a name."))
    if names.hidden_characters(name):
        raise InvalidRequestError(
            _("A name cannot contain invisible or text-direction characters."))
    if len(name) > NAME_MAX_LENGTH:
        raise InvalidRequestError(_("A table name has at most %(n)d characters.")
                                  % {"n": NAME_MAX_LENGTH})
    if s.kind not in Table.Kind.values:
        raise InvalidRequestError(_("Choose casual or ranked."))
    if s.visibility not in Table.Visibility.values:
        raise InvalidRequestError(_("Choose public or private."))
    if s.kind == Table.Kind.RANKED:
        if s.turn_seconds not in RANKED_CLOCKS:
            raise InvalidRequestError(_("A ranked table has a 15 or 30 second clock."))
        if s.series_target != 12:
            raise InvalidRequestError(_("A ranked series is played to 12 (R18)."))
    else:
        if s.turn_seconds not in CLOCKS:
            raise InvalidRequestError(_("The turn clock is none, 15, 30 or 60 seconds."))
        fixed_deals = (s.series_target == FIXED_DEALS_TARGET
                       and s.visibility == Table.Visibility.PRIVATE)
        if s.series_target not in CASUAL_TARGETS and not fixed_deals:
            raise InvalidRequestError(_("A casual series is played to 6, 12 or 18 (R18)."))
    return TableSettings(name=name, kind=s.kind, visibility=s.visibility,
                         turn_seconds=s.turn_seconds, series_target=s.series_target,
                         start_when_full=bool(s.start_when_full))


def _require_user(user: User | None) -> User:
    if user is None or not user.is_authenticated:
        raise PermissionDeniedError(_("Sign in to do that."))
    return user


def _require_may_play_ranked(user: User) -> None:
    """Ranked play needs an account with a verified address; a guest is told to sign up."""
    if guests.is_guest(user):
        raise PermissionDeniedError(guests.refusal("ranked"))
    if not _has_verified_email(user):
        raise PermissionDeniedError(_("Verify your email address to play ranked."))


def _has_verified_email(user: User) -> bool:
    from allauth.account.models import EmailAddress

    return EmailAddress.objects.filter(user=user, verified=True).exists()


def create_table(owner: User, settings: TableSettings, *, owner_sits: bool = False) -> Table:
    """Create a table with four empty seats; ``owner_sits``: the owner takes seat 0 in
    the same transaction (the create page's default), so that a refusal to seat them
    (a suspension) creates nothing either."""
    owner = _require_user(owner)
    clean = validate_settings(settings)
    if clean.kind == Table.Kind.RANKED:
        _require_may_play_ranked(owner)
    with transaction.atomic():
        table = Table.objects.create(
            owner=owner, name=clean.name, kind=clean.kind, visibility=clean.visibility,
            turn_seconds=clean.turn_seconds, series_target=clean.series_target,
            start_when_full=clean.start_when_full,
            bots_allowed=clean.kind != Table.Kind.RANKED,
        )
        Seat.objects.bulk_create(Seat(table=table, position=p) for p in range(4))
        events.send_events_on_commit(partial(publish.table_changed, table.pk))
        if owner_sits:
            take_seat(table.pk, owner, 0)
    return table


def _seats(table: Table) -> list[Seat]:
    return list(Seat.objects.select_for_update().filter(table=table).order_by("position"))


def _position(position: object) -> int:
    if isinstance(position, bool) or not isinstance(position, int) or not 0 <= position <= 3:
        raise InvalidRequestError(_("A seat is a number from 0 to 3."))
    return position


def _require_open(table: Table) -> None:
    """Seats change only between series: before the first, or after one has ended."""
    if table.status == Table.Status.PLAYING:
        raise TableStateError(_("The series has started: seats can no longer change."))
    if table.status == Table.Status.ABANDONED:
        raise TableStateError(_("This table was closed."))


def _require_owner(table: Table, user: User) -> None:
    if table.owner_id != user.pk:
        raise PermissionDeniedError(_("Only the table's owner can do that."))


def take_seat(table_id: int, user: User, position: int) -> Seat:
    """Sit at ``position``; a player already seated at this table moves there (R1)."""
    user = _require_user(user)
    position = _position(position)
    with transaction.atomic():
        table = lock_table(table_id)
        _require_open(table)
        if table.kind == Table.Kind.RANKED:
            _require_may_play_ranked(user)
        policy().check_seat(user, table)  # a suspension, a private table's owner's block
        seats = _seats(table)
        target = seats[position]
        if target.user_id == user.pk:
            return target
        if not target.is_empty:
            raise SeatTakenError(_("That seat is taken."))
        for seat in seats:
            if seat.user_id == user.pk:
                seat.user = None
                seat.joined_at = None
                seat.save(update_fields=["user", "joined_at"])
        target.user = user
        target.joined_at = timezone.now()
        try:
            with transaction.atomic():
                target.save(update_fields=["user", "joined_at"])
        except IntegrityError:
            raise SeatTakenError(_("You already sit at this table.")) from None
        _after_seat_change(table)
    return target


def leave_seat(table_id: int, user: User) -> None:
    """Stand up before the series starts."""
    user = _require_user(user)
    with transaction.atomic():
        table = lock_table(table_id)
        _require_open(table)
        if table_event(table.pk) is not None:
            # The event assigned this seat: standing up would only empty it (the round
            # seats the match again at its start). Withdrawing is the event's business.
            raise InvalidRequestError(_("This seat belongs to a tournament match: to stop "
                                        "playing, withdraw on the tournament's page."))
        updated = Seat.objects.filter(table=table, user=user).update(user=None, joined_at=None)
        if not updated:
            raise InvalidRequestError(_("You are not seated at this table."))
        _touch(table)


def add_bot(table_id: int, owner: User, position: int, level: str) -> Seat:
    """The owner puts a bot of ``level`` on a free seat (never at a ranked table)."""
    owner = _require_user(owner)
    position = _position(position)
    if level not in BotLevel.values:
        raise InvalidRequestError(_("Unknown bot level; choose one of %(levels)s.")
                                  % {"levels": ", ".join(BotLevel.values)})
    with transaction.atomic():
        table = lock_table(table_id)
        _require_owner(table, owner)
        _require_open(table)
        if not table.bots_allowed:
            raise PermissionDeniedError(_("Bots cannot sit at a ranked table."))
        seats = _seats(table)
        seat = seats[position]
        if not seat.is_empty:
            raise SeatTakenError(_("That seat is taken."))
        seat.bot_level = level
        seat.joined_at = timezone.now()
        seat.save(update_fields=["bot_level", "joined_at"])
        _after_seat_change(table)
    return seat


def remove_bot(table_id: int, owner: User, position: int) -> None:
    """The owner takes a bot off its seat before the start."""
    _owner_clears_seat(table_id, owner, position, bots_only=True)


def kick(table_id: int, owner: User, position: int) -> None:
    """The owner removes a player (or bot) from a seat before the start."""
    _owner_clears_seat(table_id, owner, position, bots_only=False)


def _owner_clears_seat(table_id: int, owner: User, position: int, *,
                       bots_only: bool) -> None:
    owner = _require_user(owner)
    position = _position(position)
    with transaction.atomic():
        table = lock_table(table_id)
        _require_owner(table, owner)
        _require_open(table)
        seat = _seats(table)[position]
        if bots_only and not seat.is_bot:
            raise InvalidRequestError(_("There is no bot on that seat."))
        if seat.is_empty:
            raise InvalidRequestError(_("That seat is already empty."))
        seat.user = None
        seat.bot_level = ""
        seat.joined_at = None
        seat.save(update_fields=["user", "bot_level", "joined_at"])
        _touch(table)


def update_settings(table_id: int, owner: User, settings: TableSettings) -> Table:
    """The owner changes the table's settings before the start."""
    owner = _require_user(owner)
    clean = validate_settings(settings)
    with transaction.atomic():
        table = lock_table(table_id)
        _require_owner(table, owner)
        _require_open(table)
        if clean.kind != table.kind:
            raise InvalidRequestError(_("A table cannot switch between casual and ranked."))
        # Listed before or after: the lobby must add or drop it.
        listed = Table.Visibility.PUBLIC in (table.visibility, clean.visibility)
        for field in ("name", "visibility", "turn_seconds", "series_target", "start_when_full"):
            setattr(table, field, getattr(clean, field))
        table.save()
        events.send_events_on_commit(partial(publish.table_changed, table.pk, listed))
    return table


def _touch(table: Table) -> None:
    # A seat change after a finished series reopens the table in the lobby.
    table.status = Table.Status.OPEN if table.status == Table.Status.FINISHED else table.status
    table.save(update_fields=["status", "updated_at"])
    events.send_events_on_commit(partial(publish.table_changed, table.pk))


def _after_seat_change(table: Table) -> None:
    """Broadcast the change; start the series when the table fills and the owner asked."""
    _touch(table)
    full = all(not s.is_empty for s in Seat.objects.filter(table=table))
    if full and table.start_when_full:
        series_service.start_series_locked(table)


def start_with_bots(user: User, level: str = "casual") -> Table:
    """One click to play: a private table, the player at seat 0, bots at 1–3, started."""
    with transaction.atomic():
        # The public name: a guest's username is random hex ("Guest 4821" reads better).
        shown = getattr(getattr(user, "profile", None), "public_name", None) \
            or user.get_username()
        table = create_table(user, TableSettings(
            name=f"{shown} vs bots", visibility=Table.Visibility.PRIVATE))
        take_seat(table.pk, user, 0)
        for position in (1, 2, 3):
            add_bot(table.pk, user, position, level)
        series_service.start_series(table.pk, user)
    return table
