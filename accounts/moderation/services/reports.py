"""Reports: a player reports another (or appeals a sanction); moderators close them.

A report carries its context from the moment it is filed (the chat around the line,
the table, series and game, the reported player's conduct record), so the evidence a
moderator reads is what the reporter saw, whatever happens to the lines later.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.moderation import selectors
from accounts.moderation.conf import moderation_settings
from accounts.moderation.models import (
    REASON_MAX,
    REPORT_TEXT_MAX,
    BlockedChat,
    ModerationLog,
    Report,
    Sanction,
)
from accounts.moderation.permissions import require_moderator
from accounts.moderation.services import log
from games import selectors as game_selectors
from games.errors import (
    InvalidRequestError,
    NotFoundError,
    PermissionDeniedError,
    ServiceError,
)
from games.models import ChatMessage, Game, Series, Table
from games.services import chat as chat_service

# What a reporter may choose (appeals and filter flags are filed by the site).
PLAYER_CATEGORIES = (Report.Category.ABUSIVE_CHAT, Report.Category.STALLING,
                     Report.Category.CHEATING, Report.Category.OFFENSIVE_NAME,
                     Report.Category.OTHER)
PLAYER_SOURCES = (Report.Source.SEAT, Report.Source.CHAT, Report.Source.PROFILE,
                  Report.Source.SERIES)


class ReportLimitError(ServiceError):
    """Too many reports in a short time, or the same report twice."""

    code = "rate_limited"


def _id(value: Any, what: str) -> int | None:
    if value in (None, ""):
        return None
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidRequestError({
            "chat line": _("That chat line does not exist."),
            "table": _("That table does not exist."),
            "series": _("That series does not exist."), "game": _("That game does not exist."),
            "sanction": _("That sanction does not exist."),
            "report": _("That report does not exist.")}[what])
    return value


def _text(value: Any) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise InvalidRequestError(_("The description is text."))
    text = value.strip()
    if len(text) > REPORT_TEXT_MAX:
        raise InvalidRequestError(_("A description has at most %(max)s characters.") % {
            "max": REPORT_TEXT_MAX})
    return text


def _require_player(user: User | None) -> User:
    if user is None or not user.is_authenticated or not user.is_active:
        raise PermissionDeniedError(_("Sign in to report a player."))
    return user


def _resolve_where(reporter: User, reported: User,
                   table_id: int | None, series_id: int | None, game_id: int | None,
                   message_id: int | None, invited: set[int]) -> dict[str, Any]:
    """Check the named places fit together and the reporter may see them."""
    message = table = series = game = None
    if message_id is not None:
        message = ChatMessage.objects.select_related("table").filter(pk=message_id).first()
        if message is None:
            raise NotFoundError(_("That chat line does not exist."))
        if message.user_id != reported.pk:
            raise InvalidRequestError(_("That chat line is not theirs."))
        table = message.table
    if game_id is not None:
        game = Game.objects.select_related("series__table").filter(pk=game_id).first()
        if game is None:
            raise NotFoundError(_("That game does not exist."))
        series = game.series
    if series_id is not None:
        found = Series.objects.select_related("table").filter(pk=series_id).first()
        if found is None or (series is not None and found.pk != series.pk):
            raise NotFoundError(_("That series does not exist."))
        series = found
    if table_id is not None:
        found_table = Table.objects.filter(pk=table_id).first()
        if found_table is None or (table is not None and found_table.pk != table.pk):
            raise NotFoundError(_("That table does not exist."))
        table = found_table
    if series is not None:
        if table is not None and series.table_id != table.pk:
            raise InvalidRequestError(_("That series was not played at that table."))
        table = series.table
    if table is not None:
        if not game_selectors.may_view_table(table, reporter, invited):
            raise NotFoundError(_("That table does not exist."))
        if series is None:
            series = game_selectors.current_series(table)
    if series is not None:
        people = set(selectors.series_people(series))
        if reported.pk not in people and message is None:
            raise InvalidRequestError(_("That player did not play in this series."))
        if game is None:
            game = game_selectors.current_game(series)
    return {"message": message, "table": table, "series": series, "game": game}


def _context(reported: User, where: dict[str, Any]) -> dict[str, Any]:
    lines = moderation_settings.CONTEXT_CHAT_LINES
    table, series, game, message = where["table"], where["series"], where["game"], \
        where["message"]
    record = selectors.conduct_record(reported.pk)
    return {
        "chat": selectors.chat_around(table.pk, message.pk if message else None, lines)
        if table is not None else [],
        "table": {"id": table.pk, "name": table.name, "kind": table.kind} if table else None,
        "series": {"id": series.pk, "status": series.status, "ranked": series.ranked}
        if series else None,
        "game_id": game.pk if game else None,
        "replay_game_ids": selectors.replay_game_ids(series.pk if series else None),
        "conduct": {"timeouts_90d": record.timeouts, "abandons_90d": record.abandons},
        "name_then": getattr(getattr(reported, "profile", None), "public_name", None)
        or reported.get_username(),
    }


def file_report(reporter: User | None, reported: Any, category: Any, text: Any = "",
                *, source: Any = Report.Source.PROFILE, table_id: Any = None,
                series_id: Any = None, game_id: Any = None, message_id: Any = None,
                invited: set[int] | None = None) -> Report:
    """A player reports ``reported`` (a user or a username). Refused, changing nothing,
    for bad input, a place the reporter cannot see, themselves, too many reports in an
    hour, or the same open report twice."""
    reporter = _require_player(reporter)
    if reported in (None, "") and message_id not in (None, ""):
        # Reporting a chat line names its author.
        line_id = _id(message_id, "chat line")
        line = (ChatMessage.objects.select_related("user").filter(pk=line_id).first()
                if line_id else None)
        reported = line.user if line is not None else None
    elif not hasattr(reported, "pk"):
        reported = selectors.user_by_name(reported)
    if reported is None:
        raise NotFoundError(_("There is no such player."))
    if reported.pk == reporter.pk:
        raise InvalidRequestError(_("You cannot report yourself."))
    if category not in PLAYER_CATEGORIES:
        raise InvalidRequestError(_("Choose what the report is about."))
    if source not in PLAYER_SOURCES:
        raise InvalidRequestError(_("Unknown place to report from."))
    clean = _text(text)
    if category == Report.Category.OTHER and not clean:
        raise InvalidRequestError(_("Say briefly what happened."))
    ids = (_id(table_id, "table"), _id(series_id, "series"), _id(game_id, "game"),
           _id(message_id, "chat line"))
    where = _resolve_where(reporter, reported, *ids, invited or set())
    with transaction.atomic():
        # Serialise one reporter's reports: the limits below count committed rows.
        get_user_model().objects.select_for_update().filter(pk=reporter.pk).first()
        since = timezone.now() - timedelta(hours=1)
        if (Report.objects.filter(reporter=reporter, created_at__gte=since).count()
                >= moderation_settings.REPORTS_PER_HOUR):
            raise ReportLimitError(_("You have sent many reports in the last hour; "
                                   "please wait before sending another."))
        if Report.objects.filter(reporter=reporter, reported=reported, category=category,
                                 status=Report.Status.OPEN).exists():
            raise ReportLimitError(_("You already reported this player for this; moderators "
                                   "will look at it."))
        return Report.objects.create(
            reporter=reporter, reported=reported, category=category, source=source,
            text=clean, table=where["table"], series=where["series"], game=where["game"],
            chat_message=where["message"], context=_context(reported, where))


def file_filter_report(message: ChatMessage, matched: tuple[str, ...]) -> Report:
    """The chat filter flagged ``message``: file it for review (the site is the reporter).
    Called inside the chat service's transaction (games/policy.py ``after_chat``)."""
    where: dict[str, Any] = {"message": message, "table": message.table, "series": None,
                             "game": None}
    where["series"] = game_selectors.current_series(message.table)
    where["game"] = game_selectors.current_game(where["series"])
    context = _context(message.user, where)
    context["filter"] = list(matched)
    return Report.objects.create(
        reporter=None, reported=message.user, category=Report.Category.FILTER,
        source=Report.Source.FILTER, text="", table=message.table, series=where["series"],
        game=where["game"], chat_message=message, context=context)


def record_blocked_chat(user: User, table_id: int, text: str) -> BlockedChat | None:
    """Keep a line the chat filter blocked (nobody saw it) for the moderators' "chat
    around it". Called after the refused line's transaction rolled back."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None or not getattr(user, "pk", None):
        return None
    return BlockedChat.objects.create(user=user, table=table, text=text[:2000],
                                      channel=chat_service.channel_of(table, user))


def appeal(user: User | None, sanction_id: Any, text: Any) -> Report:
    """The sanctioned player appeals: it becomes a report for moderators to read."""
    user = _require_player(user)
    pk = _id(sanction_id, "sanction")
    sanction = Sanction.objects.filter(pk=pk, user=user).first() if pk else None
    if sanction is None:
        raise NotFoundError(_("That sanction does not exist."))
    clean = _text(text)
    if len(clean) < 10:
        raise InvalidRequestError(_("Tell the moderators in a sentence or two why."))
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        if Report.objects.filter(sanction=sanction, status=Report.Status.OPEN).exists():
            raise ReportLimitError(_("Your appeal is with the moderators already."))
        return Report.objects.create(
            reporter=user, reported=user, category=Report.Category.APPEAL,
            source=Report.Source.APPEAL, text=clean, sanction=sanction,
            context={"sanction": {"id": sanction.pk, "kind": sanction.kind,
                                  "reason": sanction.reason,
                                  "ends_at": sanction.ends_at.isoformat()
                                  if sanction.ends_at else None}})


class AppealJudgeError(PermissionDeniedError):
    """The moderator who imposed a sanction never decides its appeal."""


def check_judge(actor: User, sanction: Sanction | None) -> None:
    """An appeal is decided by a moderator other than the one who imposed the sanction
    (an administrator when there is no other): the promise on *Your standing*."""
    if sanction is not None and sanction.created_by_id == actor.pk:
        raise AppealJudgeError(_("You imposed this sanction, so another moderator decides "
                                 "the appeal against it (an administrator when there is "
                                 "no other)."))


def resolve_locked(reports: list[Report], actor: User, status: str, *,
                   decision: str = "", appeals: bool = False) -> None:
    """Mark open reports acted on or closed. Caller is in a transaction. An appeal is
    resolved only by its own decision (``appeals``: ``decide_appeal`` or a lift by
    another moderator), never as a side effect of another action on its report."""
    now = timezone.now()
    for report in reports:
        if report.status != Report.Status.OPEN:
            continue
        if report.category == Report.Category.APPEAL:
            if not appeals:
                raise InvalidRequestError(_("An appeal is decided on its own: grant it or "
                                            "refuse it, with a reason the player reads."))
            check_judge(actor, report.sanction)
        report.status, report.resolved_at, report.resolved_by = status, now, actor
        report.decision = decision
        report.save(update_fields=["status", "resolved_at", "resolved_by", "decision"])


def decide_appeal(actor: User | None, report_id: Any, grant: Any, reason: Any) -> Report:
    """A moderator other than the sanction's author grants (the sanction is lifted) or
    refuses an appeal; ``reason`` is shown to the player. The imposing moderator is
    refused, whatever page or request they use."""
    actor = require_moderator(actor, "moderation.change_report")
    pk = _id(report_id, "report")
    if not isinstance(grant, bool):
        raise InvalidRequestError(_("Grant the appeal or refuse it."))
    decision = _decision(reason)
    with transaction.atomic():
        report = (Report.objects.select_for_update(of=("self",))
                  .select_related("sanction", "reported")
                  .filter(pk=pk, category=Report.Category.APPEAL).first() if pk else None)
        if report is None:
            raise NotFoundError(_("That report does not exist."))
        if report.status != Report.Status.OPEN:
            raise InvalidRequestError(_("That report is already resolved."))
        check_judge(actor, report.sanction)
        appellant = report.reported
        if ((appellant.is_superuser or selectors.is_moderator(appellant))
                and not actor.is_superuser):
            raise PermissionDeniedError(_("Only an administrator can sanction a moderator."))
        sanction = (Sanction.objects.select_for_update().filter(pk=report.sanction_id).first()
                    if report.sanction_id else None)
        lifted = False
        if grant and sanction is not None and sanction.in_force():
            sanction.lifted_at, sanction.lifted_by = timezone.now(), actor
            sanction.save(update_fields=["lifted_at", "lifted_by"])
            lifted = True
        resolve_locked([report], actor, Report.Status.ACTED if grant else Report.Status.CLOSED,
                       decision=decision, appeals=True)
        log.record(actor, ModerationLog.Action.APPEAL_DECIDED, report.reported, decision,
                   target=f"report:{report.pk}", before={"status": Report.Status.OPEN},
                   after={"status": report.status, "granted": grant,
                          "sanction": report.sanction_id, "lifted": lifted})
    return report


def _decision(value: Any) -> str:
    if not isinstance(value, str) or len(value.strip()) < 3:
        raise InvalidRequestError(_("Give a reason: the player reads it."))
    text = " ".join(value.split())
    if len(text) > REASON_MAX:
        raise InvalidRequestError(_("A reason has at most %(max)s characters.") % {
            "max": REASON_MAX})
    return text


def close_report(actor: User | None, report_id: Any, reason: Any = "") -> Report:
    """A moderator closes a report without a sanction (it showed nothing to act on)."""
    actor = require_moderator(actor, "moderation.change_report")
    pk = _id(report_id, "report")
    note = _text(reason)
    with transaction.atomic():
        report = Report.objects.select_for_update().filter(pk=pk).first() if pk else None
        if report is None:
            raise NotFoundError(_("That report does not exist."))
        if report.status != Report.Status.OPEN:
            raise InvalidRequestError(_("That report is already resolved."))
        if report.category == Report.Category.APPEAL:
            raise InvalidRequestError(_("An appeal is decided on its own: grant it or "
                                        "refuse it, with a reason the player reads."))
        before = {"status": report.status}
        resolve_locked([report], actor, Report.Status.CLOSED)
        log.record(actor, ModerationLog.Action.REPORT_CLOSED, report.reported, note,
                   target=f"report:{report.pk}", before=before, after={"status": report.status})
    return report
