"""Plain text directors write for players (event details, announcements): checked once
here, stored as typed, shown escaped with its line breaks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from games.errors import InvalidRequestError
from games.tournaments.models import DETAILS_MAX
from kozel_site import names


@dataclass(frozen=True)
class EventDetails:
    """An event's description, rules text and prizes."""

    description: str = ""
    rules_text: str = ""
    prizes: str = ""


def plain_text(value: Any, limit: int, what: str) -> str:
    """``value`` as stored plain text: line ends unified, outer blanks trimmed, at most
    ``limit`` characters, no invisible or text-direction characters (they could make
    one line read as another)."""
    text = str(value or "").replace("\r\n", "\n").replace("\r", "\n").strip()
    if len(text) > limit:
        raise InvalidRequestError(_("%(what)s has at most %(max)s characters.") % {
            "what": what, "max": limit})
    if names.hidden_characters(text.replace("\n", "")):
        raise InvalidRequestError(
            _("A text cannot contain invisible or text-direction characters."))
    return text


def clean_details(d: EventDetails) -> EventDetails:
    return EventDetails(plain_text(d.description, DETAILS_MAX, _("The description")),
                        plain_text(d.rules_text, DETAILS_MAX, _("The rules text")),
                        plain_text(d.prizes, DETAILS_MAX, _("The prizes")))
