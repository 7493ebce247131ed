"""Email to players who opted in (Django's email; locmem in tests).

Each message speaks its recipient's language (their profile's, else the site's default),
not the language of whoever started the round or of the worker that sends it. Links are
absolute (kozel_site/site_url.py): an e-mail has no page to be relative to.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.core.mail import send_mass_mail
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.language import recipient_language
from kozel_site.site_url import absolute_url, email_subject


@dataclass(frozen=True)
class RoundMail:
    """What one player's round-start e-mail needs (plain values: sent after commit)."""

    name: str
    address: str
    user_id: int | None
    event_path: str
    table_path: str


def deadline_text(deadline: datetime) -> str:
    """The check-in deadline as every recipient reads it alike (the site keeps UTC)."""
    return deadline.strftime("%Y-%m-%d %H:%M:%S UTC")


def round_started_message(tournament_name: str, round_number: int, deadline: datetime,
                          mail: RoundMail
                          ) -> tuple[str, str, str | None, list[str]]:
    """(subject, body, from, [to]) of one round-start email, in the recipient's
    language; the subject begins with the site's name, never with the event's."""
    with translation.override(recipient_language(mail.user_id)):
        params = {"tournament": tournament_name, "round": round_number, "name": mail.name,
                  "event": absolute_url(mail.event_path),
                  "table": absolute_url(mail.table_path),
                  "deadline": deadline_text(deadline)}
        subject = email_subject(_("Round %(round)s of %(tournament)s has started") % params)
        body = _("Hello %(name)s,\n\nRound %(round)s of %(tournament)s has started and "
                 "your table is ready. Check in by %(deadline)s on the event's page:"
                 "\n\n%(event)s\n\nYour table:\n%(table)s\n\nGood luck!\n") % params
    return subject, body, settings.DEFAULT_FROM_EMAIL, [mail.address]


def send_round_started(tournament_name: str, round_number: int, deadline: datetime,
                       recipients: list[RoundMail]) -> None:
    """Email each recipient: their round has started (the banner and the notification
    tell them too, so a failure is only logged by the caller's after-commit hook)."""
    if recipients:
        send_mass_mail(tuple(round_started_message(tournament_name, round_number, deadline,
                                                   mail)
                             for mail in recipients),
                       fail_silently=False)


@dataclass(frozen=True)
class ReminderMail:
    """What one player's reminder e-mail needs (plain values: sent after commit)."""

    name: str
    address: str
    user_id: int | None
    event_path: str


def reminder_message(tournament_name: str, starts_at: datetime, mail: ReminderMail
                     ) -> tuple[str, str, str | None, list[str]]:
    """(subject, body, from, [to]) of one reminder, in the recipient's language; the
    subject begins with the site's name."""
    with translation.override(recipient_language(mail.user_id)):
        params = {"tournament": tournament_name, "name": mail.name,
                  "event": absolute_url(mail.event_path), "start": deadline_text(starts_at)}
        subject = email_subject(_("%(tournament)s starts soon") % params)
        body = _("Hello %(name)s,\n\n%(tournament)s starts at %(start)s. Round 1's "
                 "tables open then; check in on the event's page:\n\n%(event)s\n\n"
                 "See you there!\n") % params
    return subject, body, settings.DEFAULT_FROM_EMAIL, [mail.address]


def send_reminders(tournament_name: str, starts_at: datetime,
                   recipients: list[ReminderMail]) -> None:
    """E-mail the reminder to each player whose entry asked for e-mail."""
    if recipients:
        send_mass_mail(tuple(reminder_message(tournament_name, starts_at, mail)
                             for mail in recipients), fail_silently=False)
