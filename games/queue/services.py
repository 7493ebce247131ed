"""Writes of the ranked queue: join, leave, pair invites, and the matcher.

(The casual quick match shares the queue's models and task: games/queue/casual.py.)

Joining and leaving happen in the web request (leaving is instant); matching never
does: :func:`match_queue` runs in ``match_queue_task`` (beat every ~2 s, plus a kick on
each join). It locks every waiting entry, plans the tables (``matching.py``), and for
each table, in a savepoint, creates a ranked table, seats the four and starts the
series through the games services, then marks the entries matched. Two matchers at once
serialise on the entry row locks (on SQLite the IMMEDIATE transaction does it), and an
entry is matched only while ``waiting``, so nobody is ever seated twice.
"""

from __future__ import annotations

import logging
from typing import Any

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import guests
from games.errors import (
    InvalidRequestError,
    NotFoundError,
    PermissionDeniedError,
    ServiceError,
    TableStateError,
)
from games.events import send_task_on_commit
from games.models import RANKED_CLOCKS, Seat, Table
from games.policy import policy
from games.queue import matching
from games.queue.conf import queue_settings
from games.queue.models import PairInvite, QueueEntry
from games.ratings.conf import rating_settings
from games.ratings.models import Rating
from games.services import elsewhere
from games.services import series as series_service
from games.services import tables as table_service

logger = logging.getLogger(__name__)

#: The matcher's task name (games/queue/tasks.py): the services send it by name.
MATCH_TASK = "queue.match"


def _require_verified(user: AbstractBaseUser | None) -> AbstractBaseUser:
    if user is None or not user.is_authenticated:
        raise PermissionDeniedError(_("Sign in to play ranked."))
    if guests.is_guest(user):
        raise PermissionDeniedError(guests.refusal("ranked"))
    if not EmailAddress.objects.filter(user=user, verified=True).exists():
        raise PermissionDeniedError(_("Verify your email address to play ranked."))
    return user


def _clock(turn_seconds: Any) -> int:
    if turn_seconds in (None, ""):
        return queue_settings.TURN_SECONDS
    try:
        value = int(turn_seconds)
    except (TypeError, ValueError):
        value = -1
    if value not in RANKED_CLOCKS:
        raise InvalidRequestError(_("A ranked table has a 15 or 30 second clock."))
    return value


def _require_free(user: AbstractBaseUser) -> None:
    """Refuse someone who is already playing a ranked series."""
    busy = Seat.objects.filter(user=user, table__kind=Table.Kind.RANKED,
                               table__status__in=[Table.Status.OPEN, Table.Status.PLAYING])
    if busy.exists():
        raise TableStateError(_("You are already playing a ranked series."))


def _mu(user_id: int) -> float:
    mu = Rating.objects.filter(user_id=user_id).values_list("mu", flat=True).first()
    return rating_settings.MU if mu is None else float(mu)


def _blocked_pairs(user_ids: list[int]) -> set[frozenset[int]]:
    """Pairs among the waiting who may not share a table (a block either way), asked
    of the policy (games/policy.py): games never reads moderation's tables itself."""
    if len(user_ids) < 2:
        return set()
    people = get_user_model().objects.in_bulk(user_ids)
    return policy().blocked_pairs([people[uid] for uid in user_ids if uid in people])


def kick_matcher() -> None:
    """Run the matcher once this commit lands (the beat runs it every ~2 s anyway).
    Sent by task name: the task calls this module, so it does not import it."""
    send_task_on_commit(MATCH_TASK, expires=10)


def _put_in_queue(user_id: int, mode: str, partner_id: int | None, turn_seconds: int) -> None:
    # The row may have been a casual entry before: its casual preferences are cleared.
    QueueEntry.objects.update_or_create(user_id=user_id, defaults={
        "kind": QueueEntry.Kind.RANKED, "target": None, "allow_bots": False,
        "bot_wait_seconds": 30,
        "mode": mode, "partner_id": partner_id, "turn_seconds": turn_seconds,
        "mu": _mu(user_id), "status": QueueEntry.Status.WAITING,
        "joined_at": timezone.now(), "table": None, "matched_at": None})


def join_queue(user: AbstractBaseUser | None, turn_seconds: Any = None,
               leave_current: Any = None) -> QueueEntry:
    """Join the solo queue (a no-op if already waiting). Someone playing at a table is
    asked first; ``leave_current`` naming it leaves it to a bot and joins
    (games/services/elsewhere.py)."""
    user = _require_verified(user)
    policy().check_ranked(user)  # a ranked ban (games/policy.py)
    clock = _clock(turn_seconds)
    with transaction.atomic():
        entry = QueueEntry.objects.select_for_update().filter(user=user).first()
        if entry is not None and entry.status == QueueEntry.Status.WAITING:
            if entry.kind != QueueEntry.Kind.RANKED:
                raise TableStateError(_("You are in the casual queue: leave it first."))
            return entry
        _require_free(user)
        elsewhere.require_free(user, leave_current)
        _put_in_queue(user.pk, QueueEntry.Mode.SOLO, None, clock)
        PairInvite.objects.filter(from_user=user).delete()
        kick_matcher()
    return QueueEntry.objects.get(user=user)


def leave_queue(user: AbstractBaseUser | None) -> bool:
    """Leave at once; a pair leaves together. False if you were not waiting."""
    if user is None or not user.is_authenticated:
        return False
    with transaction.atomic():
        entry = (QueueEntry.objects.select_for_update()
                 .filter(user=user, status=QueueEntry.Status.WAITING).first())
        if entry is None:
            return False
        ids = [user.pk] + ([entry.partner_id] if entry.partner_id else [])
        QueueEntry.objects.filter(user_id__in=ids, status=QueueEntry.Status.WAITING).delete()
    return True


def invite_partner(user: AbstractBaseUser | None, username: Any,
                   turn_seconds: Any = None, leave_current: Any = None) -> PairInvite:
    """Invite a friend (by username) to the pair queue; they must accept. Someone
    playing at a table is asked first (``leave_current``: as join_queue)."""
    user = _require_verified(user)
    clock = _clock(turn_seconds)
    name = str(username or "").strip().lstrip("@")
    if not name:
        raise InvalidRequestError(_("Whom do you want to play with? Give their username."))
    friend = get_user_model().objects.filter(username__iexact=name).first()
    if friend is None or getattr(getattr(friend, "profile", None), "is_deleted", False):
        raise NotFoundError(_("There is no player called %(name)s.") % {"name": name})
    if friend.pk == user.pk:
        raise InvalidRequestError(_("Invite someone else: you cannot partner yourself."))
    policy().check_ranked(user)
    policy().check_partner(user, friend)  # a block either way
    try:
        _require_verified(friend)
    except PermissionDeniedError:
        raise PermissionDeniedError(
            _("%(name)s cannot play ranked yet (their email address is not verified).")
            % {"name": friend.get_username()}) from None
    with transaction.atomic():
        _require_free(user)
        elsewhere.require_free(user, leave_current)
        PairInvite.objects.filter(from_user=user).delete()
        return PairInvite.objects.create(from_user=user, to_user=friend, turn_seconds=clock)


def accept_invite(user: AbstractBaseUser | None, invite_id: Any,
                  leave_current: Any = None) -> QueueEntry:
    """Accept a pair invite: both of you join the pair queue together. You are asked
    first if you play at a table (``leave_current``: as join_queue); an inviter who
    plays at one is named, and only they can leave it."""
    user = _require_verified(user)
    with transaction.atomic():
        invite = (PairInvite.objects.select_for_update()
                  .filter(pk=invite_id if isinstance(invite_id, int) else -1,
                          to_user=user, kind=QueueEntry.Kind.RANKED).first())
        if invite is None:
            raise NotFoundError(_("That invitation is no longer open."))
        inviter = invite.from_user
        _require_verified(inviter)
        policy().check_ranked(user)
        policy().check_ranked(inviter)
        policy().check_partner(user, inviter)
        _require_free(user)
        _require_free(inviter)
        elsewhere.require_free(user, leave_current)
        elsewhere.require_other_free(inviter)
        for person in (user, inviter):
            entry = QueueEntry.objects.select_for_update().filter(user=person).first()
            if entry is not None and entry.status == QueueEntry.Status.WAITING and entry.partner_id:
                raise TableStateError(_("%(name)s is already in the pair queue.")
                                      % {"name": person.get_username()})
        # Accepting takes both of you out of the solo queue and into the pair queue.
        _put_in_queue(inviter.pk, QueueEntry.Mode.PAIR, user.pk, invite.turn_seconds)
        _put_in_queue(user.pk, QueueEntry.Mode.PAIR, inviter.pk, invite.turn_seconds)
        PairInvite.objects.filter(from_user__in=[user, inviter]).delete()
        kick_matcher()
    return QueueEntry.objects.get(user=user)


def decline_invite(user: AbstractBaseUser | None, invite_id: Any) -> bool:
    """Decline an invite sent to you, or withdraw your own."""
    if user is None or not user.is_authenticated or not isinstance(invite_id, int):
        return False
    deleted, _ = (PairInvite.objects.filter(pk=invite_id, to_user=user).delete())
    if not deleted:
        deleted, _ = PairInvite.objects.filter(pk=invite_id, from_user=user).delete()
    return bool(deleted)


def create_ranked_table(players: list[AbstractBaseUser], turn_seconds: int) -> Table:
    """A ranked table with ``players`` seated at positions 0–3 and the series started.

    One transaction through the games services (create_table, take_seat, start_series),
    so either all four sit and the first game is dealt, or nothing happened. Each
    service checks its own rules again (verified email, no bots, the clock).
    """
    with transaction.atomic():
        owner = players[0]
        table = table_service.create_table(owner, table_service.TableSettings(
            name=queue_settings.TABLE_NAME, kind=Table.Kind.RANKED,
            turn_seconds=turn_seconds, series_target=12))
        for position, player in enumerate(players):
            table_service.take_seat(table.pk, player, position)
        series_service.start_series(table.pk, owner)
    return table


def match_queue() -> list[int]:
    """Form every table the queue allows now; returns the new tables' ids."""
    created: list[int] = []
    users = get_user_model().objects
    with transaction.atomic():
        now = timezone.now()
        # The row locks keep a second matcher (another worker) off these entries until
        # we commit; it then sees them matched and skips them.
        entries = list(QueueEntry.objects.select_for_update()
                       .filter(status=QueueEntry.Status.WAITING, kind=QueueEntry.Kind.RANKED)
                       .order_by("joined_at", "id"))
        # Someone who sat down at another ranked table meanwhile leaves the queue (with
        # their partner): seating them here would put one person at two tables.
        busy = set(Seat.objects.filter(
            user_id__in=[e.user_id for e in entries], table__kind=Table.Kind.RANKED,
            table__status__in=[Table.Status.OPEN, Table.Status.PLAYING],
        ).values_list("user_id", flat=True))
        if busy:
            gone = busy | {e.partner_id for e in entries if e.user_id in busy and e.partner_id}
            QueueEntry.objects.filter(user_id__in=gone, status=QueueEntry.Status.WAITING,
                                      kind=QueueEntry.Kind.RANKED).delete()
            entries = [e for e in entries if e.user_id not in gone]
        waiting = [matching.Waiting(e.user_id, e.mu, e.joined_at, e.turn_seconds, e.partner_id)
                   for e in entries]
        blocked = _blocked_pairs([e.user_id for e in entries])
        for match in matching.plan_matches(waiting, now, blocked=blocked):
            by_id = users.in_bulk(list(match.positions))
            players = [by_id[uid] for uid in match.positions]
            try:
                with transaction.atomic():
                    table = create_ranked_table(players, match.turn_seconds)
                    updated = QueueEntry.objects.filter(
                        user_id__in=match.positions, status=QueueEntry.Status.WAITING,
                        kind=QueueEntry.Kind.RANKED,
                    ).update(status=QueueEntry.Status.MATCHED, table=table, matched_at=now)
                    if updated != 4:
                        raise TableStateError(_("someone left the queue meanwhile"))
            except ServiceError as error:
                logger.warning("could not seat %s: %s", match.positions, error.message)
                continue
            created.append(table.pk)
    return created
