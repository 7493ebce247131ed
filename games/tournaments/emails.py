"""Email to players who opted in (Django's email; locmem in tests)."""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.mail import send_mass_mail
from django.db import transaction

logger = logging.getLogger(__name__)


def on_commit_round_started(tournament_name: str, round_number: int, url: str,
                            recipients: list[tuple[str, str]]) -> None:
    """After commit, email each (name, address): their round has started."""
    if not recipients:
        return
    subject = f"{tournament_name}: round {round_number} has started"
    messages = tuple(
        (subject, f"Hello {name},\n\nRound {round_number} of {tournament_name} has started "
                  f"and your table is ready. Check in here within the check-in time:\n\n"
                  f"{url}\n\nGood luck!\n", settings.DEFAULT_FROM_EMAIL, [address])
        for name, address in recipients)

    def send() -> None:
        try:
            send_mass_mail(messages, fail_silently=False)
        except Exception:  # noqa: BLE001 - the banner tells them anyway
            logger.exception("round-start email for %s failed", tournament_name)

    transaction.on_commit(send)
