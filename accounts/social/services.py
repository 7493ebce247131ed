"""Writes of the social layer: follow and unfollow, privacy and email settings, and the
notifications other apps' events lead to (a friend's table, a round start, a
moderator's message). Table invitations are in invites.py.

Privacy, in every writer here: a blocked pair (either way, accounts/moderation) never
follow each other anew, never see each other online and never get each other's
"started a table"; a person who hides their online status is announced to nobody.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils.translation import gettext as _

from accounts.social import notify
from accounts.social.models import Follow, Notification, SocialSettings
from accounts.social.selectors import blocked_either_way, blocks_between, settings_of
from games.errors import InvalidRequestError, NotFoundError, PermissionDeniedError
from games.events import send_events
from games.models import Seat, Table

logger = logging.getLogger(__name__)
USERNAME_MAX = 150
SETTINGS_FIELDS = ("hide_online", "invites_from_friends_only", "email_invite",
                   "email_friend_table", "email_moderator", "email_announcement")


def require_user(user: User | None) -> User:
    if user is None or not user.is_authenticated:
        raise PermissionDeniedError(_("Sign in to do that."))
    return user


def person_named(username: Any) -> Any:
    """The live account called ``username`` (case-insensitive, a leading @ allowed)."""
    name = str(username or "").strip().lstrip("@") if isinstance(username, str) else ""
    if not name:
        raise InvalidRequestError(_("Give a username."))
    if len(name) > USERNAME_MAX:
        raise InvalidRequestError(_("A username has at most 150 characters."))
    person = (get_user_model().objects.select_related("profile")
              .filter(username__iexact=name).first())
    if person is None or getattr(getattr(person, "profile", None), "is_deleted", False):
        raise NotFoundError(_("There is no player called %(name)s.") % {"name": name})
    return person


def follow(user: User | None, username: Any) -> Follow:
    """Follow someone (one-way); following twice is one follow."""
    user = require_user(user)
    other = person_named(username)
    if other.pk == user.pk:
        raise InvalidRequestError(_("You cannot follow yourself."))
    if blocks_between(user.pk, other.pk):
        raise PermissionDeniedError(_("You cannot follow this player."))
    try:
        with transaction.atomic():
            found, created = Follow.objects.get_or_create(follower=user, followed=other)
            if created:
                _tell_followed(user, other)
    except IntegrityError:  # a double click raced us to it
        found = Follow.objects.get(follower=user, followed=other)
    return found


def _tell_followed(follower: User, followed: User) -> None:
    """Tell a person someone follows them now, with a way to their profile (and to follow
    back). Once while it is unread: following, unfollowing and following again does not
    fill their notification centre."""
    name = getattr(getattr(follower, "profile", None), "public_name", None) \
        or follower.get_username()
    if Notification.objects.filter(user=followed, kind=Notification.Kind.FOLLOW,
                                   read_at__isnull=True,
                                   params__username=follower.get_username()).exists():
        return
    notify.notify(followed, Notification.Kind.FOLLOW,
                  {"name": name, "username": follower.get_username()},
                  reverse("accounts:profile", args=[follower.get_username()]))


def unfollow(user: User | None, username: Any) -> bool:
    """Stop following; False if you did not follow them."""
    user = require_user(user)
    other = person_named(username)
    deleted, _rows = Follow.objects.filter(follower=user, followed=other).delete()
    return bool(deleted)


def _flag(value: Any, field: str) -> bool:
    if isinstance(value, bool):
        return value
    if value is None:
        return False
    if isinstance(value, str) and value.strip().lower() in {"on", "1", "true", "yes"}:
        return True
    if isinstance(value, str) and value.strip().lower() in {"", "off", "0", "false", "no"}:
        return False
    raise InvalidRequestError(_("%(field)s is yes or no.") % {"field": field})


def update_settings(user: User | None, values: dict[str, Any]) -> SocialSettings:
    """Set every privacy and email choice at once (a missing one is off, like an
    unticked box); unknown names are refused."""
    user = require_user(user)
    unknown = set(values) - set(SETTINGS_FIELDS)
    if unknown:
        raise InvalidRequestError(_("Unknown setting."))
    clean = {field: _flag(values.get(field), field) for field in SETTINGS_FIELDS}
    found, _created = SocialSettings.objects.update_or_create(user=user, defaults=clean)
    return found


def announce_presence(user_id: int, online: bool) -> int:
    """Tell the open pages of the people following ``user_id`` that they came online or
    went offline; nobody is told about someone hidden, nor across a block. Returns how
    many people were told."""
    user = get_user_model().objects.filter(pk=user_id).first()
    if user is None or settings_of(user).hide_online:
        return 0
    blocked = blocked_either_way(user_id)
    followers = [uid for uid in Follow.objects.filter(followed_id=user_id)
                 .values_list("follower_id", flat=True) if uid not in blocked]
    frame = {"type": "presence", "username": user.get_username(), "online": online}
    send_events(notify.page_frame(follower, frame) for follower in followers)
    return len(followers)


def notify_friend_table(table_id: int) -> int:
    """A person opened a public table with free seats: tell the people who follow them
    (not across a block, not when they hide their online status)."""
    table = Table.objects.select_related("owner__profile").filter(pk=table_id).first()
    if (table is None or table.visibility != Table.Visibility.PUBLIC
            or table.status != Table.Status.OPEN
            or not Seat.objects.filter(table=table, user=None, bot_level="").exists()):
        return 0  # a quick-match or tournament table is full or private: nothing to join
    owner = table.owner
    if settings_of(owner).hide_online:
        return 0
    blocked = blocked_either_way(owner.pk)
    followers = [uid for uid in Follow.objects.filter(followed=owner)
                 .values_list("follower_id", flat=True) if uid not in blocked]
    name = getattr(getattr(owner, "profile", None), "public_name", None) or owner.get_username()
    return notify.notify_many(followers, Notification.Kind.FRIEND_TABLE,
                              {"name": name, "table": table.name},
                              reverse("games:table", args=[table.pk]))


def notify_round_started(tournament_id: int, tournament_name: str, round_number: int,
                         user_ids: list[int], checkin_deadline: datetime | None = None
                         ) -> int:
    """Your tournament round starts: a notification for each player seated in it, with
    the check-in deadline; it leads to the event page, where they check in."""
    params: dict[str, Any] = {"tournament": tournament_name, "round": round_number}
    if checkin_deadline is not None:
        params["deadline"] = checkin_deadline.strftime("%H:%M:%S UTC")
    return notify.notify_many(user_ids, Notification.Kind.ROUND, params,
                              f"/tournament/{tournament_id}/")


def notify_result_corrected(tournament_id: int, tournament_name: str, round_number: int,
                            user_ids: list[int]) -> int:
    """A director corrected a match's result: each of its players is told, with the
    event's page (the standings) as the link."""
    return notify.notify_many(user_ids, Notification.Kind.RESULT,
                              {"tournament": tournament_name, "round": round_number},
                              f"/tournament/{tournament_id}/")


def notify_partner_invited(tournament_id: int, tournament_name: str, inviter_name: str,
                           user_id: int) -> int:
    """Someone entered a pairs event with this person as partner: a notification and an
    e-mail whose link opens the event page at the confirm button."""
    return notify.notify_many([user_id], Notification.Kind.PARTNER,
                              {"tournament": tournament_name, "name": inviter_name},
                              f"/tournament/{tournament_id}/#registration")


def notify_announcement(club_name: str, tournament_name: str, author_name: str, text: str,
                        url: str, user_ids: list[int]) -> int:
    """A director's announcement: in every recipient's centre, and e-mailed to those who
    opted into announcements (with an unsubscribe link)."""
    return notify.notify_many(user_ids, Notification.Kind.ANNOUNCEMENT,
                              {"club": club_name, "tournament": tournament_name,
                               "name": author_name, "text": text[:1000]}, url)


def notify_event_reminder(tournament_id: int, tournament_name: str, starts_at: datetime,
                          user_ids: list[int]) -> int:
    """An event they entered starts soon (its e-mail goes out from tournaments, to the
    entries that asked for e-mail)."""
    return notify.notify_many(user_ids, Notification.Kind.REMINDER,
                              {"tournament": tournament_name,
                               "start": starts_at.strftime("%H:%M UTC")},
                              f"/tournament/{tournament_id}/")


def notify_sanction(user_id: int, kind: str, reason: str) -> int:
    """A moderator's message (a warning or another sanction) in the centre. The sanction's
    kind is stored, not its label, so that the line is shown in the reader's language."""
    return notify.notify_many([user_id], Notification.Kind.MODERATOR,
                              {"sanction": kind, "reason": reason[:300]},
                              reverse("moderation:standing"))


def notify_report_acted(reporter_id: int, reported_name: str) -> int:
    """The reporter learns that their report led to action, never which action (that
    stays between the moderators and the player)."""
    return notify.notify_many([reporter_id], Notification.Kind.REPORT_ACTED,
                              {"name": reported_name}, reverse("moderation:my_reports"))


def notify_appeal_decided(user_id: int, granted: bool, reason: str) -> int:
    """The appellant reads the decision and its reason."""
    return notify.notify_many([user_id], Notification.Kind.APPEAL,
                              {"granted": granted, "reason": reason[:300]},
                              reverse("moderation:standing"))
