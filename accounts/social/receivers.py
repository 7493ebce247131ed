"""Receivers that turn other apps' events into notifications. They only register
on-commit work; the services write.

- ``post_save(Table, created=True)``: a person opened a table; after commit,
  ``friend_table_task`` tells their followers when it is public with free seats
  (services.notify_friend_table). Games never calls us.
- ``games.signals.round_started``: a tournament round's tables are ready (sent after
  commit): a notification for each player seated.
- ``games.signals.result_corrected``: a director corrected a match: its players are told.
- ``games.signals.partner_invited``: a pairs entry waits for its partner: a notification
  and an e-mail with the accept link.
- ``games.signals.announcement_made``: a club director's announcement: each recipient
  is told, and e-mailed when they opted into announcements.
- ``games.signals.event_reminder``: an event they entered starts soon.
- ``post_save(Sanction, created=True)`` by a moderator (accounts/moderation): the
  moderator's message in the sanctioned person's centre.
- ``post_save(Report)`` when its status is resolved: a reporter whose report led to
  action is told so (not what was done); an appellant reads the decision's reason.
"""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

from django.db.models.signals import post_save
from django.dispatch import receiver

from accounts.moderation.models import Report, Sanction
from accounts.social import services
from accounts.social.tasks import friend_table_task
from games.events import after_commit
from games.models import Table
from games.signals import (
    announcement_made,
    event_reminder,
    partner_invited,
    result_corrected,
    round_started,
)

logger = logging.getLogger(__name__)


@receiver(post_save, sender=Table, dispatch_uid="social.friend_table")
def on_table_created(sender: Any, instance: Table, created: bool = False,
                     **kwargs: Any) -> None:
    if not created or instance.visibility != Table.Visibility.PUBLIC:
        return
    after_commit(partial(friend_table_task.delay, instance.pk))


@receiver(round_started, dispatch_uid="social.round_started")
def on_round_started(sender: Any, tournament_id: int, tournament_name: str,
                     round_number: int, user_ids: list[int], **kwargs: Any) -> None:
    try:
        services.notify_round_started(tournament_id, tournament_name, round_number, user_ids,
                                      kwargs.get("checkin_deadline"))
    except Exception:  # noqa: BLE001 - the banner shows the round anyway
        logger.exception("round-start notifications for %s failed", tournament_id)


@receiver(result_corrected, dispatch_uid="social.result_corrected")
def on_result_corrected(sender: Any, tournament_id: int, tournament_name: str,
                        round_number: int, user_ids: list[int], **kwargs: Any) -> None:
    try:
        services.notify_result_corrected(tournament_id, tournament_name, round_number,
                                         user_ids)
    except Exception:  # noqa: BLE001 - the correction stands; the page shows it
        logger.exception("correction notifications for %s failed", tournament_id)


@receiver(partner_invited, dispatch_uid="social.partner_invited")
def on_partner_invited(sender: Any, tournament_id: int, tournament_name: str,
                       inviter_name: str, user_id: int, **kwargs: Any) -> None:
    try:
        services.notify_partner_invited(tournament_id, tournament_name, inviter_name,
                                        user_id)
    except Exception:  # noqa: BLE001 - the banner and the event page still ask them
        logger.exception("partner invitation notification for %s failed", tournament_id)


@receiver(announcement_made, dispatch_uid="social.announcement_made")
def on_announcement(sender: Any, club_name: str, tournament_name: str, author_name: str,
                    text: str, url: str, user_ids: list[int], **kwargs: Any) -> None:
    try:
        services.notify_announcement(club_name, tournament_name, author_name, text, url,
                                     user_ids)
    except Exception:  # noqa: BLE001 - the club's or event's page shows it anyway
        logger.exception("announcement notifications for %s failed", club_name)


@receiver(event_reminder, dispatch_uid="social.event_reminder")
def on_event_reminder(sender: Any, tournament_id: int, tournament_name: str,
                      starts_at: Any, user_ids: list[int], **kwargs: Any) -> None:
    try:
        services.notify_event_reminder(tournament_id, tournament_name, starts_at, user_ids)
    except Exception:  # noqa: BLE001 - the event page and the e-mail still say it
        logger.exception("reminder notifications for %s failed", tournament_id)


@receiver(post_save, sender=Sanction, dispatch_uid="social.moderator_message")
def on_sanction(sender: Any, instance: Sanction, created: bool = False, **kwargs: Any) -> None:
    if not created or instance.created_by_id is None:
        return  # the automatic escalation has its own notice
    after_commit(partial(services.notify_sanction, instance.user_id, instance.kind,
                         instance.reason))


@receiver(post_save, sender=Report, dispatch_uid="social.report_resolved")
def on_report_resolved(sender: Any, instance: Report, created: bool = False,
                       update_fields: Any = None, **kwargs: Any) -> None:
    if created or not update_fields or "status" not in update_fields:
        return
    if instance.reporter_id is None or instance.status == Report.Status.OPEN:
        return  # filed by the chat filter: nobody to tell
    if instance.category == Report.Category.APPEAL:
        after_commit(partial(services.notify_appeal_decided, instance.reporter_id,
                             instance.status == Report.Status.ACTED, instance.decision))
    elif instance.status == Report.Status.ACTED:
        name = instance.context.get("name_then") or instance.reported.get_username()
        after_commit(partial(services.notify_report_acted, instance.reporter_id, name))
