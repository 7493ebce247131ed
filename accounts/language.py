"""Which language the site speaks to whom.

- A visitor: the language cookie that the footer's switcher sets, else the browser's
  ``Accept-Language`` (Django's ``LocaleMiddleware``).
- A signed-in user: the profile's ``preferred_language``. It is read once per session
  (at sign-in, ``accounts.hooks``; or on the first request of an older session) and kept
  in the session, so that a page costs no extra query.
- A table socket: the same rules, read from the socket's scope (``games/consumers.py``
  activates the result around every frame it handles).

The switcher (``set_language``) posts to ``/i18n/setlang/``: it saves the choice on the
profile of a signed-in user and sets the cookie for everyone, then returns to the same
URL. URLs never carry a language prefix.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from accounts.models import Profile
from accounts.services import update_profile

SESSION_KEY = "kozel_language"


def supported(code: object) -> str | None:
    """The language of settings.LANGUAGES that ``code`` names ("ru-RU" -> "ru"), or None."""
    if not isinstance(code, str) or not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


def profile_language(user: User | int) -> str | None:
    """The preferred language of ``user`` (a user or an id) from its profile, or None."""
    code = (Profile.objects.filter(user=user)
            .values_list("preferred_language", flat=True).first())
    return supported(code)


def recipient_language(user: User | int | None) -> str:
    """The language to write to ``user`` (a user or a user id) in: their profile's, else
    the site's default. Mail and notifications use it, never the language of the person
    or worker who caused them."""
    return (profile_language(user) if user is not None else None) or settings.LANGUAGE_CODE


def remember(session: Any, code: str | None) -> None:
    """Keep a signed-in user's language in the session ("" means: none chosen)."""
    session[SESSION_KEY] = code or ""


def session_language(session: Any, user: User) -> str | None:
    """A signed-in user's language: the session's copy, else the profile (then kept)."""
    code = session.get(SESSION_KEY)
    if code is None:
        code = profile_language(user)
        remember(session, code)
    return supported(code)


def scope_language(scope: Mapping[str, Any]) -> str:
    """The language of a WebSocket connection: the same rules as for a page.

    Reads the session (a query), so call it through ``database_sync_to_async``.
    """
    user = scope.get("user")
    session = scope.get("session")
    if user is not None and user.is_authenticated and session is not None:
        code = session_language(session, user)
        if code:
            return code
    request = HttpRequest()
    request.COOKIES = dict(scope.get("cookies") or {})
    for name, value in scope.get("headers") or []:
        if name.lower() == b"accept-language":
            request.META["HTTP_ACCEPT_LANGUAGE"] = value.decode("latin-1")
    return translation.get_language_from_request(request)


SCOPE_KEY = "language"


def read_scope_language(scope: dict[str, Any]) -> None:
    """(On the reading thread, with the handshake's user: kozel_site/ws.py.) The
    socket's language, kept in the scope: a socket's first frame then needs no hop of
    its own to learn it."""
    scope[SCOPE_KEY] = scope_language(scope)


class PreferredLanguageMiddleware:
    """After ``AuthenticationMiddleware``: a signed-in user's pages speak the profile's
    language, whatever the cookie or the browser says."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            code = session_language(request.session, user)
            if code and code != translation.get_language():
                translation.activate(code)
                request.LANGUAGE_CODE = code
        return self.get_response(request)


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """``POST /i18n/setlang/`` (language, next): the footer's switcher.

    A signed-in user's choice is saved on the profile, the one place it lives; everyone
    gets the language cookie (Django's ``set_language``, which also checks ``next``).
    """
    code = supported(request.POST.get("language"))
    if code and request.user.is_authenticated:
        try:
            update_profile(request.user, preferred_language=code)
        except ValidationError:
            pass  # a deleted account keeps a blank profile; the cookie still switches
        else:
            remember(request.session, code)
    return django_set_language(request)


def on_login(sender: type, request: HttpRequest | None, user: User,
             **kwargs: Any) -> None:
    """``user_logged_in``: read the profile's language into the new session."""
    if request is not None and hasattr(request, "session"):
        remember(request.session, profile_language(user))
