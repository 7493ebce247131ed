"""Reads of the social layer: settings, blocks either way, friends with their presence,
notifications. Privacy is applied here, in one place: a user who hides their online
status, or who blocked the reader (or was blocked by them), is never shown online."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Q
from django.utils.translation import gettext

from accounts.moderation.models import Block
from accounts.social.models import Follow, Notification, SocialSettings, TableInvite
from games import presence
from games.models import Series, SeriesSeat, Table
from games.selectors import online_now


def settings_of(user: Any) -> SocialSettings:
    """The user's settings (the defaults, unsaved, when they never changed any)."""
    found = SocialSettings.objects.filter(user_id=user.pk).first()
    return found or SocialSettings(user_id=user.pk)


def blocked_either_way(user_id: int) -> set[int]:
    """People ``user_id`` blocked or who blocked ``user_id`` (accounts/moderation)."""
    pairs = Block.objects.filter(Q(blocker_id=user_id) | Q(blocked_id=user_id)) \
        .values_list("blocker_id", "blocked_id")
    return {uid for pair in pairs for uid in pair} - {user_id}


def blocks_between(a_id: int, b_id: int) -> bool:
    return Block.objects.filter(Q(blocker_id=a_id, blocked_id=b_id)
                                | Q(blocker_id=b_id, blocked_id=a_id)).exists()


def follows(follower_id: int, followed_id: int) -> bool:
    return Follow.objects.filter(follower_id=follower_id, followed_id=followed_id).exists()


def hidden_from(viewer: Any, user_ids: Iterable[int]) -> set[int]:
    """Which of ``user_ids`` ``viewer`` (anyone, signed in or not) may never see online:
    those who hide their online status, and, for a signed-in viewer, a block either way."""
    wanted = set(user_ids)
    if not wanted:
        return set()
    hidden = set(SocialSettings.objects.filter(user_id__in=wanted, hide_online=True)
                 .values_list("user_id", flat=True))
    if viewer is not None and getattr(viewer, "is_authenticated", False):
        hidden |= blocked_either_way(viewer.pk) & wanted
    return hidden


def follow_button(viewer: Any, person: Any) -> str:
    """Which button the profile of ``person`` shows ``viewer``: ``"unfollow"`` when they
    follow them, ``"follow"`` when they may (services.follow would accept it), else
    ``""``: themselves, a deleted account, a signed-out viewer (who is offered a
    sign-in link instead), and a block either way, which no new follow crosses. An old
    follow across a block may still be undone, as on /friends/."""
    if viewer is None or not getattr(viewer, "is_authenticated", False) \
            or viewer.pk == person.pk \
            or getattr(getattr(person, "profile", None), "is_deleted", False):
        return ""
    if follows(viewer.pk, person.pk):
        return "unfollow"
    return "" if blocks_between(viewer.pk, person.pk) else "follow"


def visible_online(viewer: Any, user_ids: list[int]) -> set[int]:
    """Which of ``user_ids`` ``viewer`` may see online right now (privacy applied)."""
    if not user_ids:
        return set()
    shown = set(user_ids) - hidden_from(viewer, user_ids) - {viewer.pk}
    return presence.online_among(shown)


def online_now_for(viewer: Any) -> dict[str, int]:
    """The home page's "Online now" figures as ``viewer`` may see them: people with a
    page or a table of the site open, without those hidden from the viewer. A signed-in
    viewer is online (they are reading this page) and counts, whatever they hide from
    others, even before their own page socket has opened."""
    me = {viewer.pk} if viewer is not None and getattr(viewer, "is_authenticated", False) \
        else set()
    return online_now(also_online=presence.on_pages() | me,
                      shown=lambda people: people - (hidden_from(viewer, people) - me))


def watch_list_for(viewer: Any, watched: list[Any]) -> list[Any]:
    """Tables worth watching (games.ratings.selectors) with the names of people hidden
    from ``viewer`` replaced by "a player": being named there would show them online.
    Each name keeps its seat, so the page can still pair partners (R1)."""
    hidden = hidden_from(viewer, {uid for w in watched for uid in w.people if uid})
    if not hidden:
        return watched
    unnamed = gettext("a player")
    return [replace(w, names=[unnamed if uid is not None and uid in hidden else name
                              for name, uid in zip(w.names, w.people, strict=False)])
            for w in watched]


@dataclass(frozen=True)
class Friend:
    """A person in the friends list, as the viewer may see them."""

    user: Any
    online: bool
    table: Table | None  # where they play a live series (only when shown online)
    follows_back: bool

    @property
    def watchable(self) -> bool:
        return self.table is not None and not self.table.is_private


def _playing_at(user_ids: set[int]) -> dict[int, Table]:
    seats = (SeriesSeat.objects.filter(Q(user_id__in=user_ids) | Q(away_user_id__in=user_ids),
                                       series__status=Series.Status.PLAYING)
             .select_related("series__table").order_by("series_id"))
    found: dict[int, Table] = {}
    for seat in seats:  # newest last: it wins
        for uid in (seat.user_id, seat.away_user_id):
            if uid in user_ids:
                found[uid] = seat.series.table
    return found


def friends_of(viewer: User) -> list[Friend]:
    """The people ``viewer`` follows, online ones first, then by name."""
    rows = list(Follow.objects.filter(follower=viewer)
                .select_related("followed__profile").order_by("followed__username"))
    people = [row.followed for row in rows
              if not getattr(getattr(row.followed, "profile", None), "is_deleted", False)]
    ids = [p.pk for p in people]
    online = visible_online(viewer, ids)
    tables = _playing_at(online)
    back = set(Follow.objects.filter(follower_id__in=ids, followed=viewer)
               .values_list("follower_id", flat=True))
    friends = [Friend(p, p.pk in online, tables.get(p.pk), p.pk in back) for p in people]
    friends.sort(key=lambda f: (not f.online, f.user.get_username().lower()))
    return friends


def followers_of(user: User) -> list[Any]:
    """People who follow ``user`` (newest first)."""
    return [row.follower for row in Follow.objects.filter(followed=user)
            .select_related("follower__profile").order_by("-created_at")[:200]]


def unread_count(user: Any) -> int:
    return Notification.objects.filter(user_id=user.pk, read_at__isnull=True).count()


def notifications_of(user: Any, limit: int = 50) -> list[Notification]:
    return list(Notification.objects.filter(user_id=user.pk)
                .select_related("invite__table", "invite__from_user__profile")[:limit])


def pending_invites_sent(user: Any) -> list[TableInvite]:
    return list(TableInvite.objects.filter(from_user=user, status=TableInvite.Status.PENDING)
                .select_related("to_user__profile", "table").order_by("-created_at")[:20])


def open_table_of(user: Any) -> Table | None:
    """The table ``user`` would invite friends to: the newest one they own and sit at,
    whose series has not started, with a free seat."""
    tables = (Table.objects.filter(owner=user, status__in=[Table.Status.OPEN,
                                                           Table.Status.FINISHED],
                                   seats__user=user)
              .order_by("-updated_at").prefetch_related("seats"))
    for table in tables[:5]:
        if any(seat.is_empty for seat in table.seats.all()):
            return table
    return None
