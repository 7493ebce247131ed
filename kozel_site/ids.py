"""Every integer that comes from a URL or a form is range-checked here, once.

A number too large for the database's integer columns (a 20-digit ``user_id``) made
the database driver raise ``OverflowError`` deep inside a service: a 500. An id is
a positive integer that fits a signed 64-bit column (the site's keys are
``BigAutoField``); anything else is a bad request, answered with HTTP 400 (Django turns
``BadRequest`` into its 400 page), before any query.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import BadRequest

ID_MAX = 2**63 - 1  # the largest value of a signed 64-bit column (PostgreSQL's bigint)
_MAX_DIGITS = len(str(ID_MAX))


def is_id(number: int) -> bool:
    """Whether ``number`` can be a row's id (1 … :data:`ID_MAX`)."""
    return 1 <= number <= ID_MAX


def checked(number: int) -> int:
    """``number`` itself if it can be an id, else :class:`BadRequest` (HTTP 400)."""
    if not is_id(number):
        raise BadRequest("That number is out of range.")
    return number


def parse_id(value: Any) -> int:
    """An id from untrusted text (a form field, a query string): digits only, in
    range, else :class:`BadRequest`."""
    text = str(value if value is not None else "").strip()
    if not text.isdecimal() or not text.isascii() or len(text) > _MAX_DIGITS:
        raise BadRequest("Expected an id: a positive whole number.")
    return checked(int(text))


class IdConverter:
    """The ``<id:name>`` URL converter: an id in range, else HTTP 400."""

    regex = "[0-9]+"

    def to_python(self, value: str) -> int:
        if len(value) > _MAX_DIGITS:
            raise BadRequest("That number is out of range.")
        return checked(int(value))

    def to_url(self, value: int) -> str:
        return str(int(value))


class SocketIdConverter(IdConverter):
    """``<wsid:name>`` for WebSocket routes: an id out of range matches no route, so the
    last route refuses the handshake (a socket has no 400 page)."""

    def to_python(self, value: str) -> int:
        if len(value) > _MAX_DIGITS or not is_id(int(value)):
            raise ValueError("out of range")
        return int(value)


class IdField(forms.IntegerField):
    """A form field for an id: bounded like every integer field of a form."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", ID_MAX)
        super().__init__(**kwargs)


def register() -> None:
    """Register the converters (``SiteConfig.ready``, before any URL conf is read)."""
    from django.urls import register_converter
    from django.urls.converters import get_converters

    if "id" not in get_converters():
        register_converter(IdConverter, "id")
        register_converter(SocketIdConverter, "wsid")
