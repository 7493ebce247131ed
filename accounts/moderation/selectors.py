"""Reads of moderation: sanctions in force, the report queue and its context, a player's
moderation history, a reporter's own reports. No writes here."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db.models import CharField, Count, F, IntegerField, Max, Q, QuerySet, Value
from django.utils import timezone

from accounts.moderation.models import (
    Block,
    BlockedChat,
    ModerationLog,
    Report,
    Sanction,
    TableChatMute,
)
from games.models import ChatMessage, Conduct, Game, Series
from games.tournaments.models import Entry, Tournament

MODERATOR_GROUP = "Moderators"
# Sanctions that keep someone out of ranked play (a mark for cheating or boosting too).
RANKED_BARS = (Sanction.Kind.RANKED_BAN, Sanction.Kind.CHEATING, Sanction.Kind.BOOSTING,
               Sanction.Kind.SUSPEND)


def in_force(user_id: int | None, kinds: tuple[str, ...] | None = None,
             at: datetime | None = None) -> QuerySet[Sanction]:
    """The user's sanctions in force at ``at`` (now), longest-lasting first."""
    if user_id is None:  # nobody signed in
        return Sanction.objects.none()
    at = at or timezone.now()
    rows = Sanction.objects.filter(user_id=user_id, lifted_at__isnull=True, starts_at__lte=at)
    rows = rows.filter(Q(ends_at__isnull=True) | Q(ends_at__gt=at))
    if kinds is not None:
        rows = rows.filter(kind__in=kinds)
    # "For good" (no end) first, then the latest end.
    return rows.order_by(F("ends_at").desc(nulls_first=True), "-id")


def suspension_of(user: Any) -> Sanction | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return in_force(user.pk, (Sanction.Kind.SUSPEND,)).first()


def chat_mute_of(user: Any) -> Sanction | None:
    return in_force(user.pk, (Sanction.Kind.CHAT_MUTE, Sanction.Kind.SUSPEND)).first()


def ranked_bar_of(user: Any) -> Sanction | None:
    return in_force(user.pk, RANKED_BARS).first()


def notices_for(user: Any) -> list[Sanction]:
    """What a signed-in player is told on every page: each sanction in force."""
    if user is None or not getattr(user, "is_authenticated", False):
        return []
    return list(in_force(user.pk))


def is_moderator(user: Any) -> bool:
    return bool(getattr(user, "is_authenticated", False) and (
        user.is_superuser or user.groups.filter(name=MODERATOR_GROUP).exists()))


def blocks_between(a_id: int, b_id: int) -> bool:
    return Block.objects.filter(Q(blocker_id=a_id, blocked_id=b_id)
                                | Q(blocker_id=b_id, blocked_id=a_id)).exists()


def blocks_among(user_ids: Iterable[int]) -> set[frozenset[int]]:
    """Every pair of ``user_ids`` with a block either way, in one query (the matcher
    asks for a whole queue at once)."""
    ids = list(user_ids)
    return {frozenset(pair) for pair in Block.objects.filter(
        blocker_id__in=ids, blocked_id__in=ids).values_list("blocker_id", "blocked_id")}


def table_muted(user: Any, table_id: int) -> bool:
    return TableChatMute.objects.filter(user_id=user.pk, table_id=table_id).exists()


# The row that stands for "this table's chat is muted" among the blocks: no account has
# the id 0.
_MUTED_ROW = 0


def chat_filter_of(user: Any, table_id: int) -> dict[int, str] | None:
    """Whom ``user`` hides at ``table_id``: the people they blocked, by id with their
    usernames, or None when they muted the table's chat. One query (the blocks and the
    mute as one union), where the mute, the blocks and the usernames were three: a table
    socket asks it at every handshake."""
    blocks = (Block.objects.filter(blocker_id=user.pk)
              .values_list("blocked_id", "blocked__username"))
    mute = (TableChatMute.objects.filter(user_id=user.pk, table_id=table_id)
            .annotate(row=Value(_MUTED_ROW, output_field=IntegerField()),
                      name=Value("", output_field=CharField()))
            .values_list("row", "name"))
    rows = list(blocks.union(mute, all=True))
    if any(user_id == _MUTED_ROW for user_id, _ in rows):
        return None
    return dict(rows)


# --- context ---------------------------------------------------------------------------

def chat_line(message: ChatMessage) -> dict[str, Any]:
    profile = getattr(message.user, "profile", None)
    return {"id": message.pk, "user": message.user.username,
            "name": getattr(profile, "public_name", None) or message.user.username,
            "text": message.text, "hidden": message.hidden,
            "channel": message.channel,  # a spectator's line is marked for the moderator
            "at": message.created_at.isoformat()}


def chat_around(table_id: int, message_id: int | None, lines: int) -> list[dict[str, Any]]:
    """The chat around a line (``lines`` each side), or the table's latest lines."""
    rows = ChatMessage.objects.filter(table_id=table_id).select_related("user__profile")
    # Whether the stretch shown is bounded at its start and end (else the chat's own
    # beginning or latest line is in view, and blocked lines beyond it count too).
    start, end = True, False
    if message_id is None:
        picked = list(rows.order_by("-created_at", "-id")[:2 * lines])[::-1]
        if len(picked) < 2 * lines:
            start = False
    else:
        anchor = rows.filter(pk=message_id).first()
        if anchor is None:
            return []
        end = True
        earlier = list(rows.filter(Q(created_at__lt=anchor.created_at)
                                   | Q(created_at=anchor.created_at, pk__lt=anchor.pk))
                       .order_by("-created_at", "-id")[:lines])[::-1]
        later = list(rows.filter(Q(created_at__gt=anchor.created_at)
                                 | Q(created_at=anchor.created_at, pk__gt=anchor.pk))
                     .order_by("created_at", "id")[:lines])
        picked = [*earlier, anchor, *later]
        if len(earlier) < lines:
            start = False  # the chat's beginning is in view
        if len(later) < lines:
            end = False  # so is its end
    lines_out = [chat_line(m) for m in picked]
    return _with_blocked(table_id, lines_out, picked, start, end, lines)


def _with_blocked(table_id: int, out: list[dict[str, Any]], picked: list[ChatMessage],
                  start: bool, end: bool, lines: int) -> list[dict[str, Any]]:
    """Add the lines the chat filter blocked in the same stretch of time, marked
    ``blocked`` (never shown to anyone): the worst attempts are the evidence."""
    rows = BlockedChat.objects.filter(table_id=table_id).select_related("user__profile")
    if picked:
        if start:
            rows = rows.filter(created_at__gte=picked[0].created_at)
        if end:
            rows = rows.filter(created_at__lte=picked[-1].created_at)
    blocked = [_blocked_line(b) for b in rows.order_by("-created_at", "-id")[:2 * lines]]
    return sorted([*out, *blocked], key=lambda line: line["at"])


def _blocked_line(row: BlockedChat) -> dict[str, Any]:
    profile = getattr(row.user, "profile", None)
    return {"id": None, "user": row.user.username,
            "name": getattr(profile, "public_name", None) or row.user.username,
            "text": row.text, "hidden": False, "blocked": True, "channel": row.channel,
            "at": row.created_at.isoformat()}


@dataclass(frozen=True)
class ConductRecord:
    timeouts: int
    abandons: int
    recent: list[Conduct]


def conduct_record(user_id: int, days: int = 90) -> ConductRecord:
    since = timezone.now() - timedelta(days=days)
    rows = Conduct.objects.filter(user_id=user_id, created_at__gte=since)
    counts = dict(rows.values("kind").annotate(n=Count("id")).values_list("kind", "n"))
    return ConductRecord(counts.get(Conduct.Kind.TIMEOUT, 0), counts.get(Conduct.Kind.ABANDON, 0),
                         list(rows.select_related("series").order_by("-created_at")[:20]))


def replay_game_ids(series_id: int | None) -> list[int]:
    if series_id is None:
        return []
    # Played-out games, also once the series is void (their replays stay open).
    return list(Game.objects.filter(series_id=series_id, result__isnull=False,
                                    status__in=[Game.Status.FINISHED, Game.Status.VOIDED])
                .order_by("number").values_list("pk", flat=True))


# --- the queue ---------------------------------------------------------------------------

@dataclass(frozen=True)
class QueueRow:
    report: Report
    open_on_player: int


def report_queue(limit: int = 100) -> list[QueueRow]:
    """Open reports, most-reported players first, then newest (a fixed number of queries)."""
    per_player = dict(Report.objects.filter(status=Report.Status.OPEN)
                      .values("reported_id").annotate(n=Count("id"))
                      .values_list("reported_id", "n"))
    latest = dict(Report.objects.filter(status=Report.Status.OPEN)
                  .values("reported_id").annotate(t=Max("created_at"))
                  .values_list("reported_id", "t"))
    rows = list(Report.objects.filter(status=Report.Status.OPEN)
                .select_related("reporter__profile", "reported__profile")[:1000])
    rows.sort(key=lambda r: (-per_player.get(r.reported_id, 0),
                             -latest[r.reported_id].timestamp(), -r.created_at.timestamp(),
                             -r.pk))
    return [QueueRow(r, per_player.get(r.reported_id, 0)) for r in rows[:limit]]


@dataclass(frozen=True)
class History:
    user: Any
    sanctions: list[Sanction]
    reports: list[Report]
    filed: int
    log: list[ModerationLog]
    conduct: ConductRecord


def user_history(user: Any) -> History:
    """Everything a moderator reads about one player."""
    return History(
        user=user,
        sanctions=list(Sanction.objects.filter(user=user).select_related("created_by")),
        reports=list(Report.objects.filter(reported=user).select_related("reporter__profile")
                     [:50]),
        filed=Report.objects.filter(reporter=user).count(),
        log=list(ModerationLog.objects.filter(subject=user).select_related("actor")[:100]),
        conduct=conduct_record(user.pk),
    )


def reports_filed_by(user: Any) -> list[Report]:
    """The reporter's own reports; the page shows their status, never the outcome."""
    return list(Report.objects.filter(reporter=user).exclude(category=Report.Category.APPEAL)
                .select_related("reported__profile")[:100])


def appeals_by(user: Any) -> list[Report]:
    return list(Report.objects.filter(reporter=user, category=Report.Category.APPEAL)
                .select_related("sanction")[:20])


def user_by_name(username: Any) -> User | None:
    if not isinstance(username, str) or not username.strip():
        return None
    return (get_user_model().objects.select_related("profile")
            .filter(username__iexact=username.strip().lstrip("@")).first())


def series_people(series: Series) -> list[int]:
    return [s.person_id for s in series.roster.all() if s.person_id]


# --- second looks ------------------------------------------------------------------------

# A heavy sanction waits this long for a second moderator; past it, it is listed as
# overdue at the top of the queue for the administrators (it stays in force: lifting a
# sanction by the clock would reward waiting it out).
CONFIRM_WITHIN = timedelta(days=1)


@dataclass(frozen=True)
class Unconfirmed:
    sanction: Sanction
    overdue: bool


def unconfirmed_sanctions(now: datetime | None = None) -> list[Unconfirmed]:
    """Heavy sanctions waiting for a second moderator, overdue ones first."""
    now = now or timezone.now()
    rows = (Sanction.objects.filter(needs_confirmation=True, confirmed_at__isnull=True,
                                    lifted_at__isnull=True)
            .select_related("user__profile", "created_by").order_by("starts_at", "id"))
    return [Unconfirmed(s, s.starts_at <= now - CONFIRM_WITHIN) for s in rows[:100]]


def other_judges_exist(author_id: int | None) -> bool:
    """Whether a moderator other than ``author_id`` (and not an administrator) can
    decide an appeal; when not, an administrator decides it."""
    judges = get_user_model().objects.filter(groups__name=MODERATOR_GROUP, is_active=True,
                                             is_superuser=False)
    if author_id is not None:
        judges = judges.exclude(pk=author_id)
    return judges.exists()


# --- what a moderator can act on, from a player's page ----------------------------------

def voidable_series_of(user: Any, limit: int = 20) -> list[Series]:
    """The player's latest finished rated series (not void yet), newest first."""
    return list(Series.objects.filter(Q(roster__user=user) | Q(roster__away_user=user),
                                      ranked=True, status=Series.Status.FINISHED)
                .select_related("table").distinct().order_by("-finished_at", "-id")[:limit])


def live_entries_of(user: Any) -> list[Entry]:
    """The player's entries in club events not over yet (a moderator may disqualify)."""
    return list(Entry.objects.filter(Q(player1=user) | Q(player2=user))
                .exclude(status=Entry.Status.DISQUALIFIED)
                .exclude(tournament__status=Tournament.Status.FINISHED)
                .select_related("tournament__club").order_by("-id")[:20])
