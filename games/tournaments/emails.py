"""Email to players who opted in (Django's email; locmem in tests).

Each message speaks its recipient's language (their profile's, else the site's default),
not the language of whoever started the round or of the worker that sends it.
"""

from __future__ import annotations

from django.conf import settings
from django.core.mail import send_mass_mail
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.language import recipient_language


def round_started_message(tournament_name: str, round_number: int, url: str, name: str,
                          address: str, user_id: int | None
                          ) -> tuple[str, str, str | None, list[str]]:
    """(subject, body, from, [to]) of one round-start email, in the recipient's
    language; no sender means the site's default."""
    with translation.override(recipient_language(user_id)):
        params = {"tournament": tournament_name, "round": round_number, "name": name,
                  "url": url}
        subject = _("%(tournament)s: round %(round)s has started") % params
        body = _("Hello %(name)s,\n\nRound %(round)s of %(tournament)s has started and "
                 "your table is ready. Check in here within the check-in time:\n\n"
                 "%(url)s\n\nGood luck!\n") % params
    return subject, body, settings.DEFAULT_FROM_EMAIL, [address]


def send_round_started(tournament_name: str, round_number: int, url: str,
                       recipients: list[tuple[str, str, int]]) -> None:
    """Email each (name, address, user id): their round has started (the banner tells
    them too, so a failure is only logged by the caller's after-commit hook)."""
    if recipients:
        send_mass_mail(tuple(round_started_message(tournament_name, round_number, url,
                                                   name, address, user_id)
                             for name, address, user_id in recipients),
                       fail_silently=False)
