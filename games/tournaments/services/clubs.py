"""Clubs: create, join (by the join policy), leave, approve, remove, ban, roles.

Every function validates its untrusted input first and raises a typed ServiceError
naming the problem, changing nothing. Membership changes lock the club row
(``select_for_update``) so that two directors acting at once serialise; removals, bans
and role changes are written to the audit log in the same transaction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from zoneinfo import available_timezones

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from accounts import guests
from accounts.countries import COUNTRY_CHOICES
from accounts.permissions import has_verified_email
from games.errors import InvalidRequestError, NotFoundError, PermissionDeniedError
from games.tournaments import permissions
from games.tournaments.models import REASON_MAX, Club, Membership
from games.tournaments.services import audit
from kozel_site import names

SLUG_RE = re.compile(r"^[a-z0-9](?:[a-z0-9-]{1,38}[a-z0-9])$")
RESERVED_SLUGS = {"new", "search", "admin"}
COUNTRIES = {code for code, _ in COUNTRY_CHOICES}


@dataclass(frozen=True)
class ClubSettings:
    name: str
    slug: str
    description: str = ""
    country: str = ""
    language: str = "en"
    join_policy: str = Club.JoinPolicy.OPEN
    time_zone: str = "UTC"


def _verify_messages(doing: str) -> tuple[str, str]:
    """(sign in to …, verify your address to …) for what the caller is ``doing``: whole
    sentences, so that each language can build its own."""
    return {
        "create a club": (_("Sign in to create a club."),
                          _("Verify your email address to create a club.")),
        "join a club": (_("Sign in to join a club."),
                        _("Verify your email address to join a club.")),
        "create a tournament": (_("Sign in to create a tournament."),
                                _("Verify your email address to create a tournament.")),
        "register": (_("Sign in to register."), _("Verify your email address to register.")),
        "confirm": (_("Sign in to confirm."), _("Verify your email address to confirm.")),
        "play": (_("Sign in to play."), _("Verify your email address to play.")),
    }.get(doing, (_("Sign in first."), _("Verify your email address first.")))


def require_verified(user: User | None, doing: str) -> User:
    if user is None or not user.is_authenticated:
        raise PermissionDeniedError(_verify_messages(doing)[0])
    if guests.is_guest(user):
        raise PermissionDeniedError(guests.refusal(
            "club" if doing in ("create a club", "join a club") else "tournament"))
    if not has_verified_email(user):
        raise PermissionDeniedError(_verify_messages(doing)[1])
    return user


def validate(s: ClubSettings) -> ClubSettings:
    name = " ".join(str(s.name or "").split())
    if not 2 <= len(name) <= 60:
        raise InvalidRequestError(_("A club's name has 2 to 60 characters."))
    if names.hidden_characters(name):
        raise InvalidRequestError(
            _("A name cannot contain invisible or text-direction characters."))
    slug = str(s.slug or "").strip().lower()
    if not SLUG_RE.match(slug) or slug in RESERVED_SLUGS:
        raise InvalidRequestError(_("The address is 3 to 40 lower-case letters, digits or "
                                  "hyphens, not starting or ending with a hyphen."))
    description = str(s.description or "").strip()
    if len(description) > 2000:
        raise InvalidRequestError(_("A description has at most 2000 characters."))
    if s.country and s.country not in COUNTRIES:
        raise InvalidRequestError(_("Choose a country from the list (or none)."))
    if s.language not in {code for code, _ in settings.LANGUAGES}:
        raise InvalidRequestError(_("Choose a language from the list."))
    if s.join_policy not in Club.JoinPolicy.values:
        raise InvalidRequestError(_("Choose how people join: open, by request or by invite."))
    if s.time_zone not in available_timezones():
        raise InvalidRequestError(_("Choose a time zone from the list."))
    return ClubSettings(name, slug, description, s.country or "", s.language, s.join_policy,
                        s.time_zone)


def create_club(user: User | None, s: ClubSettings) -> Club:
    """Any verified user creates a club and becomes its owner."""
    user = require_verified(user, "create a club")
    clean = validate(s)
    with transaction.atomic():
        if Club.objects.filter(slug=clean.slug).exists():
            raise InvalidRequestError(_("The address /club/%(slug)s/ is taken.") % {
                "slug": clean.slug})
        try:
            with transaction.atomic():
                club = Club.objects.create(owner=user, name=clean.name, slug=clean.slug,
                                           description=clean.description,
                                           country=clean.country, language=clean.language,
                                           join_policy=clean.join_policy,
                                           time_zone=clean.time_zone)
        except IntegrityError:
            raise InvalidRequestError(_("The address /club/%(slug)s/ is taken.") % {
                "slug": clean.slug}) from None
        Membership.objects.create(club=club, user=user, role=Membership.Role.OWNER)
        audit.record(club, user, "club.create", name=club.name)
    return club


def update_club(club_id: int, user: User | None, s: ClubSettings) -> Club:
    """The owner (or a moderator) edits the club; the slug never changes."""
    with transaction.atomic():
        club = _lock(club_id)
        if not permissions.can_appoint(club, user):
            raise PermissionDeniedError(_("Only the club's owner can change its settings."))
        clean = validate(ClubSettings(s.name, club.slug, s.description, s.country,
                                      s.language, s.join_policy, s.time_zone))
        for field in ("name", "description", "country", "language", "join_policy",
                      "time_zone"):
            setattr(club, field, getattr(clean, field))
        club.save()
        audit.record(club, user, "club.update")
    return club


def _lock(club_id: object) -> Club:
    if isinstance(club_id, bool) or not isinstance(club_id, int):
        raise NotFoundError(_("No such club."))
    club = Club.objects.select_for_update().filter(pk=club_id).first()
    if club is None:
        raise NotFoundError(_("No such club."))
    return club


def join(club_id: int, user: User | None, token: str = "") -> Membership:
    """Join an open club, ask to join a by-request one, or join with the invite token."""
    user = require_verified(user, "join a club")
    with transaction.atomic():
        club = _lock(club_id)
        existing = Membership.objects.filter(club=club, user=user).first()
        if existing is not None:
            if existing.status == Membership.Status.BANNED:
                raise PermissionDeniedError(_("You were banned from this club."))
            return existing  # already a member, or already asked
        invited = bool(token) and token == club.invite_token
        if club.join_policy == Club.JoinPolicy.INVITE and not invited:
            raise PermissionDeniedError(_("This club takes members by invite link only."))
        status = (Membership.Status.REQUESTED
                  if club.join_policy == Club.JoinPolicy.REQUEST and not invited
                  else Membership.Status.ACTIVE)
        return Membership.objects.create(club=club, user=user, status=status)


def leave(club_id: int, user: User | None) -> None:
    """Leave a club (or withdraw a request); the owner cannot leave their own club."""
    if user is None or not user.is_authenticated:
        raise PermissionDeniedError(_("Sign in first."))
    with transaction.atomic():
        club = _lock(club_id)
        m = Membership.objects.filter(club=club, user=user).first()
        if m is None or m.status == Membership.Status.BANNED:
            raise InvalidRequestError(_("You are not a member of this club."))
        if m.role == Membership.Role.OWNER:
            raise PermissionDeniedError(_("The owner cannot leave the club they own."))
        m.delete()


def _target(club: Club, user_id: object) -> Membership:
    if isinstance(user_id, bool) or not isinstance(user_id, int):
        raise NotFoundError(_("No such member."))
    m = Membership.objects.select_related("user").filter(club=club, user_id=user_id).first()
    if m is None:
        raise NotFoundError(_("No such member."))
    return m


def _reason(reason: object) -> str:
    text = " ".join(str(reason or "").split())
    if not text:
        raise InvalidRequestError(_("Give a reason: it goes into the club's audit log."))
    if len(text) > REASON_MAX:
        raise InvalidRequestError(_("A reason has at most %(max)s characters.") % {
            "max": REASON_MAX})
    return text


def decide_request(club_id: int, actor: User | None, user_id: int,
                   approve: bool) -> None:
    """A director approves or declines a request to join."""
    with transaction.atomic():
        club = _lock(club_id)
        if not permissions.can_direct(club, actor):
            raise PermissionDeniedError(_("Only the club's owner and directors can do that."))
        m = _target(club, user_id)
        if m.status != Membership.Status.REQUESTED:
            raise InvalidRequestError(_("That person has not asked to join."))
        if approve:
            m.status = Membership.Status.ACTIVE
            m.save(update_fields=["status", "updated_at"])
        else:
            m.delete()
        audit.record(club, actor, "member.approve" if approve else "member.decline",
                     user_id=user_id, username=m.user.get_username())


def remove_member(club_id: int, actor: User | None, user_id: int, reason: str,
                  *, ban: bool = False) -> None:
    """Remove (or ban) a member, with a reason for the audit log.

    Directors cannot remove the owner or other directors (the owner demotes first)."""
    text = _reason(reason)
    with transaction.atomic():
        club = _lock(club_id)
        if not permissions.can_direct(club, actor):
            raise PermissionDeniedError(_("Only the club's owner and directors can do that."))
        m = _target(club, user_id)
        if m.role == Membership.Role.OWNER:
            raise PermissionDeniedError(_("The owner cannot be removed from their club."))
        if (m.role == Membership.Role.DIRECTOR and m.status == Membership.Status.ACTIVE
                and not permissions.can_appoint(club, actor)):
            raise PermissionDeniedError(_("Only the owner can remove a director."))
        if ban:
            m.status, m.role, m.reason = Membership.Status.BANNED, Membership.Role.MEMBER, text
            m.save(update_fields=["status", "role", "reason", "updated_at"])
        else:
            if m.status == Membership.Status.BANNED:
                raise InvalidRequestError(_("That person is banned, not a member."))
            m.delete()
        audit.record(club, actor, "member.ban" if ban else "member.remove", reason=text,
                     user_id=user_id, username=m.user.get_username())


def unban(club_id: int, actor: User | None, user_id: int, reason: str) -> None:
    """Lift a ban (the person may then join again)."""
    text = _reason(reason)
    with transaction.atomic():
        club = _lock(club_id)
        if not permissions.can_direct(club, actor):
            raise PermissionDeniedError(_("Only the club's owner and directors can do that."))
        m = _target(club, user_id)
        if m.status != Membership.Status.BANNED:
            raise InvalidRequestError(_("That person is not banned."))
        m.delete()
        audit.record(club, actor, "member.unban", reason=text, user_id=user_id)


def set_role(club_id: int, actor: User | None, user_id: int, role: str) -> None:
    """The owner appoints a member director, or makes a director a member again."""
    if role not in (Membership.Role.DIRECTOR, Membership.Role.MEMBER):
        raise InvalidRequestError(_("A role is director or member."))
    with transaction.atomic():
        club = _lock(club_id)
        if not permissions.can_appoint(club, actor):
            raise PermissionDeniedError(_("Only the club's owner appoints directors."))
        m = _target(club, user_id)
        if m.role == Membership.Role.OWNER:
            raise InvalidRequestError(_("The owner's role does not change."))
        if m.status != Membership.Status.ACTIVE:
            raise InvalidRequestError(_("Only a member can be appointed."))
        if m.role == role:
            return
        m.role = role
        m.save(update_fields=["role", "updated_at"])
        audit.record(club, actor, "member.role", user_id=user_id, role=role,
                     username=m.user.get_username())


def user_by_name(name: object) -> User:
    text = str(name or "").strip().lstrip("@")
    if not text:
        raise InvalidRequestError(_("Give a username."))
    user = get_user_model().objects.filter(username__iexact=text).first()
    if user is None:
        raise NotFoundError(_("There is no player called %(name)s.") % {"name": text})
    return user
