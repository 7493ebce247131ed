"""Account pages: the public profile, the settings page and account deletion.

Each view parses and authorizes, calls one service or selector, and renders.
"""

from __future__ import annotations

import copy
from typing import Any

from allauth.account.mixins import RedirectAuthenticatedUserMixin
from allauth.account.views import LoginView, SignupView
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.exceptions import BadRequest, ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from accounts import guests, history, language, selectors, services, tokens
from accounts.forms import AccessTokenForm, DeleteAccountForm, ProfileForm
from accounts.http import AuthenticatedHttpRequest
from accounts.social import selectors as social_selectors
from games.ratings import selectors as rating_selectors
from kozel_site import ids


@require_GET
def profile(request: HttpRequest, username: str) -> HttpResponse:
    """``/@/<username>``: anyone may look; unknown names are a plain 404."""
    user = selectors.user_by_username(username)
    if user is None:
        raise Http404(gettext("No player with that name."))
    if user.get_username() != username:
        return redirect("accounts:profile", username=user.get_username(), permanent=True)
    context = {
        "player": user,
        "profile": selectors.profile_for(user),
        "stats": selectors.profile_stats(user),
        "ratings": rating_selectors.profile_panel(user),
        "is_self": request.user.is_authenticated and request.user.pk == user.pk,
        "follow_button": social_selectors.follow_button(request.user, user),
    }
    return render(request, "accounts/profile.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def account_settings(request: AuthenticatedHttpRequest) -> HttpResponse:
    """``/account/settings/``: edit the profile; bad input re-shows the form, unchanged."""
    profile = selectors.profile_for(request.user)
    if request.method == "POST":
        # Bind to a copy: ModelForm writes the submitted values onto its instance while
        # validating, and a failed form must not show them as if saved.
        form = ProfileForm(request.POST, instance=copy.copy(profile))
        if form.is_valid():
            changes = {f: form.cleaned_data[f] for f in ProfileForm.Meta.fields}
            try:
                saved = services.update_profile(request.user, **changes)
            except ValidationError as error:
                form.add_error(None, error)
            else:
                # The language takes effect at once (this session, accounts/language.py;
                # this very message too) and stays for signed-out visits (the cookie).
                translation.activate(saved.preferred_language)
                language.remember(request.session, saved.preferred_language)
                messages.success(request, gettext("Your settings are saved."))
                response = redirect("accounts:settings")
                response.set_cookie(
                    settings.LANGUAGE_COOKIE_NAME,
                    saved.preferred_language,
                    max_age=settings.LANGUAGE_COOKIE_AGE,
                    samesite="Lax",  # LANGUAGE_COOKIE_SAMESITE
                    secure=settings.LANGUAGE_COOKIE_SECURE,  # Secure under production
                    httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
                )
                return response
    else:
        form = ProfileForm(instance=profile)
    return render(request, "accounts/settings.html", {"form": form, "profile": profile})


@login_required
@require_http_methods(["GET", "POST"])
def delete_account(request: AuthenticatedHttpRequest) -> HttpResponse:
    """``/account/delete/``: explain, ask for the username, then anonymise and sign out."""
    if request.method == "POST":
        form = DeleteAccountForm(request.POST, user=request.user)
        if form.is_valid():
            services.delete_account(request.user)
            logout(request)
            messages.success(request, gettext(
                "Your account is deleted. Your past games stay in the records as "
                "“deleted player”."))
            return redirect("home")
    else:
        form = DeleteAccountForm(user=request.user)
    return render(request, "accounts/delete.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def api_tokens(request: AuthenticatedHttpRequest) -> HttpResponse:
    """``/account/tokens/``: personal access tokens for the public API (docs/api.md).

    A new token is shown on the answer to the POST that made it and never again (only
    its hash is kept), so it is rendered there, not carried over a redirect. Bad input
    re-shows the page with the reason and stores nothing.
    """
    form = AccessTokenForm()
    new_token = ""
    status = 200
    if request.method == "POST":
        action = request.POST.get("action", "")
        if action == "create":
            form = AccessTokenForm(request.POST)
            if form.is_valid():
                try:
                    _row, new_token = tokens.create_token(request.user, form.cleaned_data["name"])
                except tokens.TokenError as error:
                    form.add_error(None, error.message)
                else:
                    form = AccessTokenForm()
            status = 200 if new_token else 400
        elif action == "revoke":
            try:
                token_id = ids.parse_id(request.POST.get("token"))
            except BadRequest:
                token_id = None
            if token_id is not None and tokens.revoke_token(request.user, token_id):
                messages.success(request, gettext("The token is revoked: it no longer works."))
                return redirect("accounts:tokens")
            messages.error(request, gettext("You have no such token."))
            status = 400
        else:
            messages.error(request, gettext("Unknown action."))
            status = 400
    return render(request, "accounts/tokens.html", {
        "form": form, "tokens": tokens.tokens_of(request.user), "new_token": new_token,
        "is_guest": guests.is_guest(request.user)}, status=status)


HISTORY_PAGE_SIZE = 30


@require_GET
def game_history(request: HttpRequest, username: str) -> HttpResponse:
    """``/@/<username>/games``: every series and game the player took part in, filtered
    by ?kind=ranked|casual|tournament, ?partner=<name>, ?against=<name>."""
    player = selectors.user_by_username(username)
    if player is None:
        raise Http404("No player with that name.")
    kind = request.GET.get("kind", "")
    errors = []
    if kind and kind not in history.KINDS:
        errors.append(f"Unknown kind {kind[:20]!r}: choose ranked, casual or tournament.")
        kind = ""
    names = {}
    for field in ("partner", "against"):
        name = request.GET.get(field, "").strip()[:150]
        names[field] = selectors.user_by_username(name) if name else None
        if name and names[field] is None:
            errors.append(f"No player named {name!r}.")
    wanted = history.HistoryFilter(kind=kind, **names)
    rows = history.series_of(player, request.user, wanted)
    page = Paginator(rows, HISTORY_PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "accounts/games.html", {
        "player": player, "page": page, "lines": [history.line_for(s, request.user) for s in page],
        "kind": kind, "partner": request.GET.get("partner", ""),
        "against": request.GET.get("against", ""), "errors": errors,
        "kinds": history.KINDS,
    }, status=400 if errors else 200)


class _GuestMaySignUpOrIn:
    """allauth sends anyone signed in away from its sign-up and sign-in pages; a guest is
    signed in, yet these pages are exactly where it should go (to keep its games, or to
    switch to the account it already has)."""

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if guests.is_guest(request.user):
            # Past RedirectAuthenticatedUserMixin only; the rest of the view as usual.
            parent: Any = super(RedirectAuthenticatedUserMixin, self)
            response: HttpResponseBase = never_cache(parent.dispatch)(request, *args, **kwargs)
            return response
        own: Any = super()
        answer: HttpResponseBase = own.dispatch(request, *args, **kwargs)
        return answer


class GuestAwareSignupView(_GuestMaySignUpOrIn, SignupView):
    """allauth's sign-up; from a guest session it saves onto the guest (the adapter)."""


class GuestAwareLoginView(_GuestMaySignUpOrIn, LoginView):
    """allauth's sign-in, open to guests too."""


guest_aware_signup = GuestAwareSignupView.as_view()
guest_aware_login = GuestAwareLoginView.as_view()
