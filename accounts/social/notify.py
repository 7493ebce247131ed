"""Writes of the notification centre: store a notification, push it live to the user's
open pages, email it when they opted in; mark notifications read.

Live: after commit, one ``user.frame`` message to the user's page group
(:func:`games.services.publish.user_pages_group`), which every page socket of theirs
joins (consumers.py). The channel layer delivers at most once; the badge is also
rendered with every page, and the notification centre reads the database.

Email: only for a kind the user opted into (SocialSettings ``email_<kind>``); every
email carries an unsubscribe link, a signed token naming the user and the kind
(:func:`unsubscribe_token`), good until used.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from functools import partial
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.mail import EmailMessage
from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.language import profile_language
from accounts.moderation.models import Sanction
from accounts.social.models import Notification, SocialSettings, TableInvite
from accounts.social.selectors import settings_of, unread_count
from games.errors import InvalidRequestError, PermissionDeniedError
from games.events import Message, after_commit, send_events_on_commit
from games.services.publish import user_pages_group
from kozel_site.site_url import absolute_url, email_subject

logger = logging.getLogger(__name__)
Kind = Notification.Kind
UNSUBSCRIBE_SALT = "social.unsubscribe"
# The kinds one can get by email, and the SocialSettings field that opts in.
# (A round start is emailed by tournaments to whoever opted in on their entry.)
EMAIL_FIELDS: dict[str, str] = {
    Kind.INVITE: "email_invite", Kind.FRIEND_TABLE: "email_friend_table",
    Kind.MODERATOR: "email_moderator", Kind.ANNOUNCEMENT: "email_announcement"}
# The kinds emailed whatever the settings: a request only the recipient can answer.
ALWAYS_EMAILED = frozenset({Kind.PARTNER})


def text_of(notification: Notification) -> str:
    """The notification's line in the active language."""
    p = notification.params or {}
    name = p.get("name", "")
    if notification.kind == Kind.INVITE:
        return _("%(name)s invites you to their table %(table)s.") % {
            "name": name, "table": p.get("table", "")}
    if notification.kind == Kind.FRIEND_TABLE:
        return _("%(name)s started a table: %(table)s.") % {"name": name,
                                                             "table": p.get("table", "")}
    if notification.kind == Kind.ROUND:
        if p.get("deadline"):
            return _("Round %(round)s of %(tournament)s starts: your table is ready. Check "
                     "in by %(deadline)s.") % {"round": p.get("round", ""),
                                               "tournament": p.get("tournament", ""),
                                               "deadline": p["deadline"]}
        return _("Round %(round)s of %(tournament)s starts: your table is ready.") % {
            "round": p.get("round", ""), "tournament": p.get("tournament", "")}
    if notification.kind == Kind.MODERATOR:
        return _("A moderator's message: %(text)s") % {"text": _sanction_text(p)}
    if notification.kind == Kind.RESULT:
        return _("A director corrected the result of your match in round %(round)s of "
                 "%(tournament)s.") % {"round": p.get("round", ""),
                                      "tournament": p.get("tournament", "")}
    if notification.kind == Kind.PARTNER:
        return _("%(name)s entered %(tournament)s with you as partner: confirm to play.") % {
            "name": name, "tournament": p.get("tournament", "")}
    if notification.kind == Kind.DECLINED:
        return _("%(name)s declined your invitation.") % {"name": name}
    if notification.kind == Kind.ANNOUNCEMENT:
        if p.get("tournament"):
            return _("Announcement for %(tournament)s (%(club)s): %(text)s") % {
                "tournament": p["tournament"], "club": p.get("club", ""),
                "text": p.get("text", "")}
        return _("Announcement from %(club)s: %(text)s") % {"club": p.get("club", ""),
                                                            "text": p.get("text", "")}
    if notification.kind == Kind.REMINDER:
        return _("%(tournament)s starts at %(start)s.") % {
            "tournament": p.get("tournament", ""), "start": p.get("start", "")}
    if notification.kind == Kind.FOLLOW:
        return _("%(name)s started following you.") % {"name": name}
    if notification.kind == Kind.REPORT_ACTED:
        return _("Moderators acted on a report you sent about %(name)s. Thank you.") % {
            "name": name}
    if notification.kind == Kind.APPEAL:
        if p.get("granted"):
            return _("Your appeal was granted: %(reason)s") % {"reason": p.get("reason", "")}
        return _("Your appeal was refused: %(reason)s") % {"reason": p.get("reason", "")}
    return ""


def subject_of(notification: Notification) -> str:
    """An e-mail's subject after the site's name: the notification's line, except for an
    announcement, whose subject names only the club (its text may be long)."""
    p = notification.params or {}
    if notification.kind == Kind.ANNOUNCEMENT:
        return _("An announcement from %(club)s") % {"club": p.get("club", "")}
    return text_of(notification)


def _sanction_text(params: dict[str, Any]) -> str:
    """A moderator's message: "<the sanction's label>: <reason>" in the active language
    (older rows stored the text, in their sender's language)."""
    if params.get("sanction") in Sanction.Kind.values:
        return _("%(sanction)s: %(reason)s") % {
            "sanction": Sanction.Kind(params["sanction"]).label,
            "reason": params.get("reason", "")}
    return str(params.get("text", ""))


def frame_of(notification: Notification, unread: int) -> dict[str, Any]:
    """What a page socket receives for a new notification (JSON, no HTML)."""
    return {"type": "notification", "id": notification.pk, "kind": notification.kind,
            "text": text_of(notification), "url": notification.url, "unread": unread,
            "invite": notification.invite_id}


def page_frame(user_id: int, frame: dict[str, Any]) -> Message:
    """The message that shows ``frame`` on every open page of the user (sent with
    games/events.py; a lost one is made good by the badge rendered with every page)."""
    return user_pages_group(user_id), {"type": "user.frame", "frame": frame}


def _language_of(user: Any) -> str:
    return profile_language(user) or settings.LANGUAGE_CODE


def unsubscribe_token(user_id: int, kind: str) -> str:
    return signing.dumps({"u": user_id, "k": kind}, salt=UNSUBSCRIBE_SALT)


def read_unsubscribe_token(token: Any) -> tuple[int, str]:
    """The (user id, kind) a token names; InvalidRequestError if it was tampered with."""
    try:
        data = signing.loads(str(token or ""), salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        raise InvalidRequestError(_("This unsubscribe link is not valid.")) from None
    if (not isinstance(data, dict) or not isinstance(data.get("u"), int)
            or data.get("k") not in EMAIL_FIELDS):
        raise InvalidRequestError(_("This unsubscribe link is not valid."))
    return data["u"], data["k"]


def _email(notification: Notification) -> None:
    """Email one notification (after commit; a failure logs, the centre has it)."""
    user = notification.user
    if not user.email:
        return
    with translation.override(_language_of(user)):
        params = {"name": user.get_username(), "text": text_of(notification),
                  "url": absolute_url(notification.url) if notification.url else ""}
        headers: dict[str, str] = {}
        if notification.kind in EMAIL_FIELDS:
            token = unsubscribe_token(user.pk, notification.kind)
            unsubscribe = absolute_url(reverse("social:unsubscribe", args=[token]))
            body = _("Hello %(name)s,\n\n%(text)s\n\n%(url)s\n\n"
                     "You get this email because you asked for it in your settings. "
                     "To stop these emails, unsubscribe here:\n%(unsubscribe)s\n") % {
                **params, "unsubscribe": unsubscribe}
            headers = {"List-Unsubscribe": f"<{unsubscribe}>",
                       "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}
        else:
            body = _("Hello %(name)s,\n\n%(text)s\n\n%(url)s\n") % params
        message = EmailMessage(
            subject=email_subject(subject_of(notification)), body=body,
            from_email=settings.DEFAULT_FROM_EMAIL, to=[user.email], headers=headers)
    try:
        message.send(fail_silently=False)
    except Exception:  # noqa: BLE001 - the notification centre shows it anyway
        logger.exception("notification email to %s failed", user.pk)


def notify(user: Any, kind: str, params: dict[str, Any], url: str = "",
           invite: TableInvite | None = None) -> Notification:
    """Store a notification for ``user``; after commit push it live and, when they
    opted in for this kind, email it."""
    if kind not in Kind.values:
        raise InvalidRequestError(_("unknown notification kind"))
    with transaction.atomic():
        notification = Notification.objects.create(user=user, kind=kind, params=params,
                                                   url=url[:200], invite=invite)
        wants_email = kind in ALWAYS_EMAILED or bool(
            getattr(settings_of(user), EMAIL_FIELDS.get(kind, ""), False))

        def live_frame() -> list[Message]:
            with translation.override(_language_of(user)):
                return [page_frame(user.pk, frame_of(notification, unread_count(user)))]

        send_events_on_commit(live_frame)
        if wants_email:
            after_commit(partial(_email, notification))
    return notification


def notify_many(user_ids: Iterable[int], kind: str, params: dict[str, Any],
                url: str = "") -> int:
    """The same notification for several people (each their own row and push)."""
    users = get_user_model().objects.filter(pk__in=set(user_ids))
    count = 0
    for user in users:
        notify(user, kind, params, url)
        count += 1
    return count


def mark_read(user: Any, notification_id: Any = None) -> int:
    """Mark one notification (by id) or all of the user's as read; push the new count."""
    if user is None or not user.is_authenticated:
        raise PermissionDeniedError(_("Sign in to do that."))
    rows = Notification.objects.filter(user_id=user.pk, read_at__isnull=True)
    if notification_id is not None:
        if isinstance(notification_id, bool) or not isinstance(notification_id, int):
            raise InvalidRequestError(_("No such notification."))
        rows = rows.filter(pk=notification_id)
    with transaction.atomic():
        changed = rows.update(read_at=timezone.now())
        send_events_on_commit(lambda: [page_frame(user.pk, {"type": "notifications.read",
                                                            "unread": unread_count(user)})])
    return changed


def unsubscribe(token: Any) -> tuple[Any, str]:
    """Turn off the email a signed token names; returns (user, kind)."""
    user_id, kind = read_unsubscribe_token(token)
    user = get_user_model().objects.filter(pk=user_id).first()
    if user is None:
        raise InvalidRequestError(_("This unsubscribe link is not valid."))
    SocialSettings.objects.update_or_create(user=user, defaults={EMAIL_FIELDS[kind]: False})
    return user, kind
