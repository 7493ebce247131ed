"""Writes of the casual quick match: "Play with people".

The same queue as ranked (one QueueEntry per person, ``kind="casual"``), the same pair
invites, the same matcher task: :func:`match_casual_queue` runs in ``match_queue_task``
after the ranked matcher, never in a web request. No rating is at stake: four people
are seated as soon as their preferences agree (``matching.plan_casual``); after the
wait a player chose, bots of a level near the people's strength fill the missing seats,
for a lone person too (``CASUAL_MIN_PEOPLE``, conf.py): that is what the page promises.
Whoever is tired of waiting takes :func:`play_with_bots_now`.

Nobody is seated twice: a person has one entry, the matcher locks every waiting casual
entry before planning (a second matcher waits on those row locks, then finds them
matched), and an entry is marked matched only while it is still ``waiting`` (a count
that does not add up rolls the table back). Someone who is playing a live series is
asked at the door to return to it or leave it to a bot (games/services/elsewhere.py)
and dropped by the matcher if they sat down somewhere meanwhile. Two people of whom one
blocked the other are never seated at one table (the policy's ``blocked_pairs``); a pair
invite between them is refused.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.errors import (
    InvalidRequestError,
    NotFoundError,
    PermissionDeniedError,
    ServiceError,
    TableStateError,
)
from games.events import send_task_on_commit
from games.models import Series, SeriesSeat, Table
from games.policy import policy
from games.queue import matching
from games.queue.conf import queue_settings
from games.queue.models import BOT_WAITS, CASUAL_CLOCKS, CASUAL_TARGETS, PairInvite, QueueEntry
from games.queue.services import MATCH_TASK, _blocked_pairs, _mu, kick_matcher
from games.ratings.models import Rating
from games.ratings.selectors import BOT_WATCH_VALUE, rating_view
from games.services import elsewhere
from games.services import series as series_service
from games.services import tables as table_service

logger = logging.getLogger(__name__)
CASUAL = QueueEntry.Kind.CASUAL


@dataclass(frozen=True)
class Preferences:
    """A casual player's wishes: ``turn_seconds`` None any clock, 0 no clock;
    ``target`` None any; bots after ``bot_wait_seconds`` when ``allow_bots``."""

    turn_seconds: int | None = None
    target: int | None = None
    allow_bots: bool = False
    bot_wait_seconds: int = 30

    def fields(self) -> dict[str, Any]:
        return {"turn_seconds": self.turn_seconds, "target": self.target,
                "allow_bots": self.allow_bots, "bot_wait_seconds": self.bot_wait_seconds}


_TRUE = {"1", "on", "true", "yes"}
_FALSE = {"", "0", "off", "false", "no"}


def _choice(value: Any, allowed: tuple[int, ...], open_words: tuple[str, ...],
            message: str) -> int | None:
    if value is None or (isinstance(value, str) and value.strip().lower() in open_words):
        return None
    if isinstance(value, bool):
        raise InvalidRequestError(message)
    try:
        number = int(str(value).strip())
    except ValueError:
        raise InvalidRequestError(message) from None
    if number not in allowed:
        raise InvalidRequestError(message)
    return number


def parse_preferences(turn_seconds: Any = None, target: Any = None, allow_bots: Any = None,
                      bot_wait: Any = None) -> Preferences:
    """Preferences from a form (strings) or a caller (ints, bools); bad values raise
    InvalidRequestError naming the field."""
    clock: int | None
    if isinstance(turn_seconds, str) and turn_seconds.strip().lower() == "none":
        clock = 0
    else:
        clock = _choice(turn_seconds, CASUAL_CLOCKS, ("", "any"),
                        _("The turn clock is any, none, 15, 30 or 60 seconds."))
    goal = _choice(target, CASUAL_TARGETS, ("", "any"),
                   _("A casual series is played to 6, 12 or 18 (R18), or any of them."))
    if allow_bots is None or isinstance(allow_bots, bool):
        bots = bool(allow_bots)
    elif isinstance(allow_bots, str) and allow_bots.strip().lower() in _TRUE | _FALSE:
        bots = allow_bots.strip().lower() in _TRUE
    else:
        raise InvalidRequestError(_("Allow bots is yes or no."))
    wait = _choice(bot_wait, BOT_WAITS, ("",),
                   _("Bots may fill the table after 15, 30, 60 or 120 seconds."))
    return Preferences(clock, goal, bots, queue_settings.CASUAL_BOT_WAIT if wait is None else wait)


def _require_user(user: AbstractBaseUser | None) -> AbstractBaseUser:
    if user is None or not user.is_authenticated:
        raise PermissionDeniedError(_("Sign in to play with people."))
    return user


def _require_not_ranked(user: AbstractBaseUser) -> None:
    entry = QueueEntry.objects.select_for_update().filter(
        user=user, status=QueueEntry.Status.WAITING, kind=QueueEntry.Kind.RANKED).first()
    if entry is not None:
        raise TableStateError(_("You are in the ranked queue: leave it first."))


def _put(user_id: int, partner_id: int | None, prefs: Preferences) -> None:
    QueueEntry.objects.update_or_create(user_id=user_id, defaults={
        "kind": CASUAL, "mode": QueueEntry.Mode.PAIR if partner_id else QueueEntry.Mode.SOLO,
        "partner_id": partner_id, "mu": _mu(user_id), "status": QueueEntry.Status.WAITING,
        "joined_at": timezone.now(), "table": None, "matched_at": None, **prefs.fields()})


def _kick_after_wait(prefs: Preferences) -> None:
    """When bots are allowed, run the matcher again once the wait is over (the beat
    would within ~2 s anyway; this makes the moment exact)."""
    if not prefs.allow_bots:
        return
    delay = prefs.bot_wait_seconds + 0.5
    send_task_on_commit(MATCH_TASK, countdown=delay, expires=delay + 10)


def join_casual(user: AbstractBaseUser | None, prefs: Preferences | None = None,
                leave_current: Any = None) -> QueueEntry:
    """Join the casual queue alone (a no-op if already waiting there). Someone playing
    at a table is asked first; ``leave_current`` naming it leaves it to a bot and joins
    (games/services/elsewhere.py)."""
    user = _require_user(user)
    prefs = prefs or Preferences(bot_wait_seconds=queue_settings.CASUAL_BOT_WAIT)
    with transaction.atomic():
        entry = QueueEntry.objects.select_for_update().filter(user=user).first()
        if (entry is not None and entry.status == QueueEntry.Status.WAITING
                and entry.kind == CASUAL):
            return entry
        _require_not_ranked(user)
        elsewhere.require_free(user, leave_current)
        _put(user.pk, None, prefs)
        PairInvite.objects.filter(from_user=user).delete()
        kick_matcher()
        _kick_after_wait(prefs)
    return QueueEntry.objects.get(user=user)


def invite_casual_partner(user: AbstractBaseUser | None, username: Any,
                          prefs: Preferences | None = None,
                          leave_current: Any = None) -> PairInvite:
    """Invite a friend (by username) to quick match as partners; they must accept.
    Someone playing at a table is asked first (``leave_current``: as join_casual)."""
    user = _require_user(user)
    prefs = prefs or Preferences(bot_wait_seconds=queue_settings.CASUAL_BOT_WAIT)
    name = str(username or "").strip().lstrip("@")
    if not name or len(name) > 150:
        raise InvalidRequestError(_("Whom do you want to play with? Give their username."))
    friend = get_user_model().objects.filter(username__iexact=name).first()
    if friend is None or getattr(getattr(friend, "profile", None), "is_deleted", False):
        raise NotFoundError(_("There is no player called %(name)s.") % {"name": name})
    if friend.pk == user.pk:
        raise InvalidRequestError(_("Invite someone else: you cannot partner yourself."))
    policy().check_partner(user, friend)  # a block either way
    with transaction.atomic():
        elsewhere.require_free(user, leave_current)
        PairInvite.objects.filter(from_user=user).delete()
        return PairInvite.objects.create(from_user=user, to_user=friend, kind=CASUAL,
                                         **prefs.fields())


def accept_casual_invite(user: AbstractBaseUser | None, invite_id: Any,
                         leave_current: Any = None) -> QueueEntry:
    """Accept a casual pair invite: both of you join the casual queue as partners.
    You are asked first if you play at a table (``leave_current``: as join_casual); an
    inviter who plays at one is named, and only they can leave it."""
    user = _require_user(user)
    with transaction.atomic():
        invite = (PairInvite.objects.select_for_update()
                  .filter(pk=invite_id if isinstance(invite_id, int) else -1,
                          to_user=user, kind=CASUAL).first())
        if invite is None:
            raise NotFoundError(_("That invitation is no longer open."))
        inviter = invite.from_user
        policy().check_partner(user, inviter)
        elsewhere.require_free(user, leave_current)
        elsewhere.require_other_free(inviter)
        for person in (user, inviter):
            entry = QueueEntry.objects.select_for_update().filter(user=person).first()
            if entry is not None and entry.status == QueueEntry.Status.WAITING:
                if entry.kind != CASUAL:
                    raise TableStateError(_("%(name)s is in the ranked queue.")
                                          % {"name": person.get_username()})
                if entry.partner_id:
                    raise TableStateError(_("%(name)s already queues with a partner.")
                                          % {"name": person.get_username()})
        prefs = Preferences(invite.turn_seconds, invite.target, invite.allow_bots,
                            invite.bot_wait_seconds)
        _put(inviter.pk, user.pk, prefs)
        _put(user.pk, inviter.pk, prefs)
        PairInvite.objects.filter(from_user__in=[user, inviter]).delete()
        kick_matcher()
        _kick_after_wait(prefs)
    return QueueEntry.objects.get(user=user)


def _bot_level(user_ids: list[int]) -> str:
    """A ladder level near the people's mean displayed rating (what they see)."""
    ratings = {r.user_id: r for r in Rating.objects.filter(user_id__in=user_ids)}
    shown = [rating_view(ratings.get(uid)).display for uid in user_ids]
    ladder = {level: value for level, value in BOT_WATCH_VALUE.items() if level != "random"}
    return matching.bot_level_near(sum(shown) / len(shown), ladder)


def create_casual_table(positions: list[AbstractBaseUser | None], turn_seconds: int | None,
                        target: int, bot_level: str) -> Table:
    """A public casual table with the people at their positions, bots of ``bot_level``
    on the rest, and the series started: one transaction through the games services,
    which check their own rules again (a suspension, the clock, the target)."""
    people = [p for p in positions if p is not None]
    with transaction.atomic():
        owner = people[0]
        table = table_service.create_table(owner, table_service.TableSettings(
            name=queue_settings.CASUAL_TABLE_NAME, kind=Table.Kind.CASUAL,
            visibility=Table.Visibility.PUBLIC, turn_seconds=turn_seconds,
            series_target=target))
        for position, player in enumerate(positions):
            if player is not None:
                table_service.take_seat(table.pk, player, position)
        for position, player in enumerate(positions):
            if player is None:
                table_service.add_bot(table.pk, owner, position, bot_level)
        series_service.start_series(table.pk, owner)
    return table


def _playing(user_ids: list[int]) -> set[int]:
    """Who among ``user_ids`` holds a seat in a live series (as live_seat_of reads it)."""
    live = SeriesSeat.objects.filter(series__status=Series.Status.PLAYING)
    seated = live.filter(user_id__in=user_ids).values_list("user_id", flat=True)
    kept_warm = live.filter(away_user_id__in=user_ids, gave_up=False,
                            series__ranked=False).values_list("away_user_id", flat=True)
    return set(seated) | set(kept_warm)


def _seat_with_bots(entries: list[QueueEntry], match: matching.CasualMatch,
                    now: Any) -> Table:
    """Create the table ``match`` plans and mark ``entries`` matched to it (in the
    caller's transaction, which holds their row locks)."""
    by_id = get_user_model().objects.in_bulk(match.people)
    seats = [None if uid is None else by_id[uid] for uid in match.positions]
    level = _bot_level(match.people) if len(match.people) < 4 else ""
    table = create_casual_table(seats, match.turn_seconds, match.target, level)
    updated = QueueEntry.objects.filter(
        pk__in=[e.pk for e in entries], status=QueueEntry.Status.WAITING, kind=CASUAL,
    ).update(status=QueueEntry.Status.MATCHED, table=table, matched_at=now)
    if updated != len(match.people):
        raise TableStateError("someone left the queue meanwhile")
    return table


def play_with_bots_now(user: AbstractBaseUser | None) -> Table:
    """Waiting in "Play with people" and tired of it: you (and your partner) sit down at
    once with bots of about your level, at a table with the clock and target you asked
    for, as the matcher would seat you when your wait is over (bots allowed or not:
    this click is the consent)."""
    user = _require_user(user)
    with transaction.atomic():
        mine = QueueEntry.objects.filter(user=user, status=QueueEntry.Status.WAITING,
                                         kind=CASUAL).first()
        if mine is None:
            raise TableStateError(_("You are not waiting in the casual queue."))
        # Locked in the matcher's order (joined_at, id), so the two never wait on each
        # other in a cycle; the matcher may have seated you meanwhile: then nothing here.
        ids = [user.pk] + ([mine.partner_id] if mine.partner_id else [])
        entries = list(QueueEntry.objects.select_for_update()
                       .filter(user_id__in=ids, status=QueueEntry.Status.WAITING, kind=CASUAL)
                       .order_by("joined_at", "id"))
        if len(entries) != len(ids):
            raise TableStateError(_("You are not waiting in the casual queue."))
        if mine.partner_id:
            elsewhere.require_other_free(mine.partner)
        elsewhere.require_free(user)
        now = timezone.now()
        waiting = [matching.Waiting(e.user_id, e.mu, e.joined_at, e.turn_seconds, e.partner_id,
                                    e.target, True, 0.0) for e in entries]
        (match,) = matching.plan_casual(
            waiting, now, default_clock=queue_settings.CASUAL_TURN_SECONDS,
            default_target=queue_settings.CASUAL_TARGET, min_people=1)
        return _seat_with_bots(entries, match, now)


def match_casual_queue() -> list[int]:
    """Form every casual table the queue allows now; returns the new tables' ids."""
    created: list[int] = []
    with transaction.atomic():
        now = timezone.now()
        # The row locks keep a second matcher off these entries until we commit.
        entries = list(QueueEntry.objects.select_for_update()
                       .filter(status=QueueEntry.Status.WAITING, kind=CASUAL)
                       .order_by("joined_at", "id"))
        busy = _playing([e.user_id for e in entries])
        if busy:
            gone = busy | {e.partner_id for e in entries if e.user_id in busy and e.partner_id}
            QueueEntry.objects.filter(user_id__in=gone, status=QueueEntry.Status.WAITING,
                                      kind=CASUAL).delete()
            entries = [e for e in entries if e.user_id not in gone]
        waiting = [matching.Waiting(e.user_id, e.mu, e.joined_at, e.turn_seconds, e.partner_id,
                                    e.target, e.allow_bots, float(e.bot_wait_seconds))
                   for e in entries]
        plans = matching.plan_casual(
            waiting, now, default_clock=queue_settings.CASUAL_TURN_SECONDS,
            default_target=queue_settings.CASUAL_TARGET,
            min_people=queue_settings.CASUAL_MIN_PEOPLE,
            blocked=_blocked_pairs([e.user_id for e in entries]))
        by_user = {e.user_id: e for e in entries}
        for match in plans:
            try:
                with transaction.atomic():
                    table = _seat_with_bots([by_user[uid] for uid in match.people], match, now)
            except ServiceError as error:
                logger.warning("could not seat %s: %s", match.positions, error.message)
                continue
            created.append(table.pk)
    return created
