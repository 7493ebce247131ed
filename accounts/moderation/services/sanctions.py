"""Sanctions: warn, mute in chat, ban from ranked, suspend, force a rename, hide a chat
line, lift. Each takes effect at once, on open connections too:

- a chat mute: the chat service asks moderation on every line (games/policy.py), so
  the very next chat frame is refused with the reason;
- a ranked ban: the player leaves the ranked queue now and cannot join it again;
- a suspension: every page but the notice and the appeal is closed to them
  (middleware), their open sockets are closed through their channel-layer group
  (``user.<id>``, joined by every table socket), their seats in live series go to
  bots under the normal rules (games.services.clock.hand_seats_to_bots) and they
  stand up from open tables;
- a hidden line disappears from every open screen (games.services.chat.set_hidden).

Every action writes one moderation-log entry in the same transaction.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.language import recipient_language
from accounts.models import Profile
from accounts.moderation import selectors
from accounts.moderation.conf import moderation_settings
from accounts.moderation.models import REASON_MAX, ModerationLog, Report, Sanction
from accounts.moderation.permissions import require_moderator
from accounts.moderation.services import log
from accounts.moderation.services.reports import resolve_locked
from games.errors import InvalidRequestError, NotFoundError, PermissionDeniedError
from games.events import send_event_on_commit
from games.models import ChatMessage, Seat, Table
from games.policy import user_group
from games.queue.services import leave_queue
from games.services import chat, clock, tables
from games.tournaments.models import Membership

ACTION_OF_KIND: dict[str, str] = {
    Sanction.Kind.WARN: ModerationLog.Action.WARN,
    Sanction.Kind.CHAT_MUTE: ModerationLog.Action.CHAT_MUTE,
    Sanction.Kind.RANKED_BAN: ModerationLog.Action.RANKED_BAN,
    Sanction.Kind.SUSPEND: ModerationLog.Action.SUSPEND,
    Sanction.Kind.RENAME: ModerationLog.Action.RENAME,
    Sanction.Kind.CHEATING: ModerationLog.Action.MARK,
    Sanction.Kind.BOOSTING: ModerationLog.Action.MARK,
}


# --- who may act, on whom ------------------------------------------------------------------

def _require_target(actor: User, user: Any) -> User:
    if user is None or not getattr(user, "pk", None):
        raise NotFoundError(_("There is no such player."))
    if user.pk == actor.pk:
        raise PermissionDeniedError(_("You cannot sanction yourself."))
    if (user.is_superuser or selectors.is_moderator(user)) and not actor.is_superuser:
        raise PermissionDeniedError(_("Only an administrator can sanction a moderator."))
    return user


def _user(value: Any) -> Any:
    if hasattr(value, "pk"):
        return value
    if isinstance(value, bool) or not isinstance(value, int):
        return selectors.user_by_name(value)
    return get_user_model().objects.filter(pk=value).first()


def _reason(value: Any) -> str:
    if not isinstance(value, str) or len(value.strip()) < 3:
        raise InvalidRequestError(_("Give a reason: the player is told it."))
    reason = " ".join(value.split())
    if len(reason) > REASON_MAX:
        raise InvalidRequestError(_("A reason has at most %(max)s characters.") % {
            "max": REASON_MAX})
    return reason


PERMANENT = "permanent"


class ConfirmationNeededError(InvalidRequestError):
    """A heavy sanction is applied only once the moderator confirmed it."""

    code = "confirm"


def _amount(value: Any, limit: int, unit: str, *, allow_forever: bool = False) -> int | None:
    """A duration the moderator chose explicitly: a whole number of ``unit`` from 1 to
    ``limit`` or, where ``allow_forever``, the word ``permanent``. An empty value never
    means "for good" (one forgotten field once banned someone for ever)."""
    if allow_forever and value == PERMANENT:
        return None
    if isinstance(value, str) and value.strip().isdigit() and len(value.strip()) < 10:
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= limit:
        if allow_forever:
            raise InvalidRequestError(_("Choose how long: from 1 to %(limit)s days, or "
                                        "permanent.") % {"limit": limit})
        raise InvalidRequestError((_("Give a number of hours from 1 to %(limit)s.")
                                   if unit == "hours" else
                                   _("Give a number of days from 1 to %(limit)s.")) % {
            "limit": limit})
    return value


def heavy_reasons(user: User, kind: str, ends_at: Any) -> list[str]:
    """Why a sanction needs a second moderator: it is a suspension for good, or its
    target runs a club or moderates. Empty when it does not."""
    why = []
    if kind == Sanction.Kind.SUSPEND and ends_at is None:
        why.append(_("a permanent suspension"))
    if selectors.is_moderator(user):
        why.append(_("a sanction of a moderator"))
    if Membership.objects.filter(user=user, status=Membership.Status.ACTIVE,
                                 role__in=[Membership.Role.OWNER,
                                           Membership.Role.DIRECTOR]).exists():
        why.append(_("a sanction of a club owner or director"))
    return why


def _check_confirmed(user: User, kind: str, ends_at: Any, confirm: Any) -> bool:
    """Refuse a heavy sanction the moderator did not confirm; True when it is heavy
    (it is then marked for a second moderator's confirmation)."""
    why = heavy_reasons(user, kind, ends_at)
    if why and confirm is not True:
        raise ConfirmationNeededError(
            _("This is %(what)s: tick “I confirm” and apply again. A second moderator "
              "must confirm it within a day.") % {"what": ", ".join(why)})
    return bool(why)


def _report_ids(values: Any) -> list[int]:
    if values in (None, ""):
        return []
    if isinstance(values, (int, str)):
        values = [values]
    out = []
    for v in values:
        if isinstance(v, str) and v.isdigit():
            v = int(v)
        if isinstance(v, bool) or not isinstance(v, int):
            raise InvalidRequestError(_("Unknown report."))
        out.append(v)
    return out


def summary(user_id: int) -> dict[str, Any]:
    """The player's sanctions in force, for the log's before/after."""
    return {"in_force": [{"id": s.pk, "kind": s.kind,
                          "ends_at": s.ends_at.isoformat() if s.ends_at else None}
                         for s in selectors.in_force(user_id)]}


# --- the one writer of sanctions -------------------------------------------------------------

def create_locked(actor: User | None, user: User, kind: str,
                  reason: str, ends_at: Any, *, report_ids: list[int] | None = None,
                  details: dict[str, Any] | None = None,
                  action: str | None = None, needs_confirmation: bool = False) -> Sanction:
    """Write a sanction, resolve the reports it answers, log it and start its effects.
    Caller is in a transaction and has validated everything (actor None: automatic)."""
    # One sanction of a user at a time: the before/after of the log stays exact.
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    before = summary(user.pk)
    now = timezone.now()
    sanction = Sanction.objects.create(user=user, kind=kind, reason=reason, starts_at=now,
                                       ends_at=ends_at, created_by=actor, details=details or {},
                                       needs_confirmation=needs_confirmation)
    if report_ids:
        reports = list(Report.objects.select_for_update().filter(pk__in=report_ids))
        if len(reports) != len(set(report_ids)):
            raise NotFoundError(_("That report does not exist."))
        # Acting on one report answers every open report about the same player.
        others = list(Report.objects.select_for_update()
                      .filter(reported=user, status=Report.Status.OPEN)
                      .exclude(category=Report.Category.APPEAL)
                      .exclude(pk__in=report_ids))  # each report resolved once
        sanction.report = reports[0]
        sanction.save(update_fields=["report"])
        assert actor is not None
        resolve_locked([*reports, *others], actor, Report.Status.ACTED)
    _start_effects_locked(sanction)
    log.record(actor, action or ACTION_OF_KIND[kind], user, reason,
               target=f"sanction:{sanction.pk}", before=before,
               after={**summary(user.pk), "sanction": {
                   "id": sanction.pk, "kind": kind,
                   "ends_at": ends_at.isoformat() if ends_at else None,
                   "needs_confirmation": needs_confirmation, **(details or {})}})
    return sanction


def _start_effects_locked(sanction: Sanction) -> None:
    user = sanction.user
    if sanction.kind in selectors.RANKED_BARS:
        leave_queue(user)
    if sanction.kind == Sanction.Kind.SUSPEND:
        clock.hand_seats_to_bots(user.pk)
        standing = list(Seat.objects.filter(
            user=user, table__status__in=[Table.Status.OPEN, Table.Status.FINISHED])
            .values_list("table_id", flat=True))
        for table_id in standing:
            tables.leave_seat(table_id, user)
        text = suspension_text(sanction)
        # Every open table socket of theirs closes (a closed socket cannot reconnect
        # past the middleware).
        send_event_on_commit(user_group(user.pk), {"type": "user.closed", "text": text})


def suspension_text(sanction: Sanction) -> str:
    """What the suspended person's open pages show, in that person's language."""
    with translation.override(recipient_language(sanction.user_id)):
        until = (_("until %(moment)s UTC") % {"moment": f"{sanction.ends_at:%Y-%m-%d %H:%M}"}
                 if sanction.ends_at else _("for good"))
        return _("Your account is suspended %(until)s: %(reason)s") % {
            "until": until, "reason": sanction.reason}


# --- moderators' actions ----------------------------------------------------------------------

def _act(actor: Any, user: Any, kind: str, reason: Any, ends_at: Any, report_ids: Any,
         details: dict[str, Any] | None = None, confirm: Any = False) -> Sanction:
    actor = require_moderator(actor)
    user = _require_target(actor, _user(user))
    clean = _reason(reason)
    ids = _report_ids(report_ids)
    heavy = _check_confirmed(user, kind, ends_at, confirm)
    with transaction.atomic():
        return create_locked(actor, user, kind, clean, ends_at, report_ids=ids,
                             details=details, needs_confirmation=heavy)


def warn(actor: Any, user: Any, reason: Any, report_ids: Any = None,
         confirm: Any = False) -> Sanction:
    """A warning, shown to the player on every page for a few days."""
    ends = timezone.now() + timedelta(days=moderation_settings.WARN_DAYS)
    return _act(actor, user, Sanction.Kind.WARN, reason, ends, report_ids, confirm=confirm)


def mute_chat(actor: Any, user: Any, hours: Any, reason: Any, report_ids: Any = None,
              confirm: Any = False) -> Sanction:
    """No chat for ``hours``: refused from the next chat frame on."""
    n = _amount(hours, moderation_settings.MAX_MUTE_HOURS, "hours")
    assert n is not None
    return _act(actor, user, Sanction.Kind.CHAT_MUTE, reason,
                timezone.now() + timedelta(hours=n), report_ids, confirm=confirm)


def ban_ranked(actor: Any, user: Any, days: Any, reason: Any, report_ids: Any = None,
               confirm: Any = False) -> Sanction:
    """No ranked play for ``days``; out of the ranked queue at once."""
    n = _amount(days, moderation_settings.MAX_BAN_DAYS, "days")
    assert n is not None
    return _act(actor, user, Sanction.Kind.RANKED_BAN, reason,
                timezone.now() + timedelta(days=n), report_ids, confirm=confirm)


def suspend(actor: Any, user: Any, days: Any, reason: Any, report_ids: Any = None,
            confirm: Any = False) -> Sanction:
    """Suspend the account for ``days``, or for good with ``days="permanent"`` (never by
    leaving the duration out). A permanent suspension, like any sanction of a club owner,
    director or moderator, needs ``confirm=True`` and a second moderator's confirmation."""
    n = _amount(days, moderation_settings.MAX_SUSPEND_DAYS, "days", allow_forever=True)
    ends = None if n is None else timezone.now() + timedelta(days=n)
    return _act(actor, user, Sanction.Kind.SUSPEND, reason, ends, report_ids, confirm=confirm)


def force_rename(actor: Any, user: Any, reason: Any, report_ids: Any = None,
                 confirm: Any = False) -> Sanction:
    """Replace an offensive name: the display name is cleared and the username becomes
    ``player-<id>`` (the player may choose a new display name in settings)."""
    actor = require_moderator(actor)
    user = _require_target(actor, _user(user))
    clean = _reason(reason)
    ids = _report_ids(report_ids)
    heavy = _check_confirmed(user, Sanction.Kind.RENAME, None, confirm)
    with transaction.atomic():
        locked = get_user_model().objects.select_for_update().get(pk=user.pk)
        profile = Profile.objects.select_for_update().filter(user=locked).first()
        old = {"username": locked.get_username(),
               "display_name": profile.display_name if profile else ""}
        new_username = f"player-{locked.pk}"
        setattr(locked, locked.USERNAME_FIELD, new_username)
        locked.save(update_fields=[locked.USERNAME_FIELD])
        if profile is not None and profile.display_name:
            profile.display_name = ""
            profile.save(update_fields=["display_name", "updated_at"])
        ends = timezone.now() + timedelta(days=moderation_settings.WARN_DAYS)
        sanction = create_locked(actor, locked, Sanction.Kind.RENAME, clean, ends,
                                 report_ids=ids, needs_confirmation=heavy,
                                 details={"old": old, "new": {"username": new_username,
                                                              "display_name": ""}})
    user.refresh_from_db()
    return sanction


def hide_message(actor: Any, message_id: Any, reason: Any, report_ids: Any = None) -> int:
    """Hide a chat line: it disappears from every open screen (after commit)."""
    actor = require_moderator(actor)
    if isinstance(message_id, str) and message_id.isdigit():
        message_id = int(message_id)
    if isinstance(message_id, bool) or not isinstance(message_id, int):
        raise NotFoundError(_("That chat line does not exist."))
    clean = _reason(reason)
    ids = _report_ids(report_ids)
    with transaction.atomic():
        message = (ChatMessage.objects.select_for_update().select_related("user")
                   .filter(pk=message_id).first())
        if message is None:
            raise NotFoundError(_("That chat line does not exist."))
        if message.hidden:
            raise InvalidRequestError(_("That chat line is already hidden."))
        changed = chat.set_hidden([message.pk], True)
        if ids:
            resolve_locked(list(Report.objects.select_for_update().filter(pk__in=ids)), actor,
                           Report.Status.ACTED)
        log.record(actor, ModerationLog.Action.HIDE_MESSAGE, message.user, clean,
                   target=f"chat:{message.pk}",
                   before={"hidden": False, "text": message.text, "table": message.table_id},
                   after={"hidden": True})
    return changed


def _locked_sanction(actor: Any, sanction_id: Any) -> Sanction:
    """The sanction ``sanction_id`` (an id from a form: digits, in range), locked, after
    checking the moderator may act on its player; NotFoundError for anything else."""
    if isinstance(sanction_id, str) and sanction_id.isdigit() and len(sanction_id) < 19:
        sanction_id = int(sanction_id)
    if isinstance(sanction_id, bool) or not isinstance(sanction_id, int) or not (
            0 < sanction_id < 2**63):
        raise NotFoundError(_("That sanction does not exist."))
    sanction = (Sanction.objects.select_for_update().select_related("user")
                .filter(pk=sanction_id).first())
    if sanction is None:
        raise NotFoundError(_("That sanction does not exist."))
    _require_target(actor, sanction.user)
    return sanction


def lift(actor: Any, sanction_id: Any, reason: Any) -> Sanction:
    """End a sanction early (an appeal granted, a mistake)."""
    actor = require_moderator(actor)
    clean = _reason(reason)
    with transaction.atomic():
        sanction = _locked_sanction(actor, sanction_id)
        if not sanction.in_force():
            raise InvalidRequestError(_("That sanction is not in force."))
        before = summary(sanction.user_id)
        sanction.lifted_at, sanction.lifted_by = timezone.now(), actor
        sanction.save(update_fields=["lifted_at", "lifted_by"])
        for appeal in Report.objects.select_for_update().filter(sanction=sanction,
                                                                  status=Report.Status.OPEN):
            # An open appeal is granted by the lift, with its reason for the player; the
            # sanction's author is refused here (reports.check_judge).
            resolve_locked([appeal], actor, Report.Status.ACTED, decision=clean, appeals=True)
        log.record(actor, ModerationLog.Action.LIFT, sanction.user, clean,
                   target=f"sanction:{sanction.pk}", before=before,
                   after=summary(sanction.user_id))
    return sanction


def confirm(actor: Any, sanction_id: Any, reason: Any) -> Sanction:
    """A second moderator confirms a heavy sanction (it held meanwhile). Its author
    cannot; to undo it, a moderator lifts it instead (``lift``)."""
    actor = require_moderator(actor)
    clean = _reason(reason)
    with transaction.atomic():
        sanction = _locked_sanction(actor, sanction_id)
        if not sanction.unconfirmed:
            raise InvalidRequestError(_("That sanction is not waiting for a confirmation."))
        if sanction.created_by_id == actor.pk:
            raise PermissionDeniedError(_("A second moderator confirms a sanction, not the "
                                          "one who imposed it."))
        sanction.confirmed_at, sanction.confirmed_by = timezone.now(), actor
        sanction.save(update_fields=["confirmed_at", "confirmed_by"])
        log.record(actor, ModerationLog.Action.CONFIRM, sanction.user, clean,
                   target=f"sanction:{sanction.pk}", before={"confirmed": False},
                   after={"confirmed": True})
    return sanction
