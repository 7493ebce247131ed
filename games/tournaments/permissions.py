"""Who may do what in a club and its tournaments (the permission matrix).

| action                                   | stranger | member | director | owner | moderator |
| ---------------------------------------- | -------- | ------ | -------- | ----- | --------- |
| see a club, its tournaments, standings   | yes      | yes    | yes      | yes   | yes       |
| join / request / leave                   | yes*     | leave  | leave    | no**  | yes*      |
| register for a tournament                | no       | yes    | yes      | yes   | no***     |
| approve requests, remove or ban members  | no       | no     | yes      | yes   | yes       |
| appoint or demote directors              | no       | no     | no       | yes   | yes       |
| create and run tournaments (director)    | no       | no     | yes      | yes   | yes       |
| see the audit log                        | no       | no     | yes      | yes   | yes       |
| direct one event (co-director, below)    | no       | co-dir | yes      | yes   | yes       |
| announce to the club, manage seasons     | no       | no     | yes      | yes   | yes       |

\\* by the club's join policy; \\*\\* the owner cannot leave the club they own;
\\*\\*\\* a moderator registers like anyone else only after joining. A *site moderator*
is a staff account (``is_staff``) or one with the ``tournaments.moderate_clubs``
permission. A banned person can do nothing in the club, not even ask to join again.
A *co-director* is an active member a director named on one event: they have the
director's powers for that event only (``can_direct_event``), and cannot name others.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User

from games.tournaments.models import Club, Membership, Tournament

DIRECTING = (Membership.Role.OWNER, Membership.Role.DIRECTOR)


def is_club_moderator(user: User | AnonymousUser | None) -> bool:
    """A site moderator: staff, or granted ``tournaments.moderate_clubs``."""
    if user is None or not user.is_authenticated:
        return False
    return bool(user.is_staff or user.has_perm("tournaments.moderate_clubs"))


def membership(club: Club, user: User | AnonymousUser | None) -> Membership | None:
    if user is None or not user.is_authenticated:
        return None
    return Membership.objects.filter(club=club, user_id=user.pk).first()


def role(club: Club, user: User | AnonymousUser | None) -> str:
    """``owner`` / ``director`` / ``member`` for an active member, else ``""``."""
    m = membership(club, user)
    if m is None or m.status != Membership.Status.ACTIVE:
        return ""
    return m.role


def is_member(club: Club, user: User | AnonymousUser | None) -> bool:
    return bool(role(club, user))


def can_direct(club: Club, user: User | AnonymousUser | None) -> bool:
    """Run the club's tournaments, manage members, read the audit log."""
    return role(club, user) in DIRECTING or is_club_moderator(user)


def can_appoint(club: Club, user: User | AnonymousUser | None) -> bool:
    """Appoint or demote directors: the owner (and a site moderator)."""
    return role(club, user) == Membership.Role.OWNER or is_club_moderator(user)


def can_direct_event(tournament: Tournament, user: User | AnonymousUser | None) -> bool:
    """Run this one event: the club's directors, or a co-director of it who is still an
    active member of the club."""
    if can_direct(tournament.club, user):
        return True
    if user is None or not user.is_authenticated:
        return False
    return (is_member(tournament.club, user)
            and tournament.co_directors.filter(pk=user.pk).exists())
