"""Lobby, table and replay pages. Views parse, authorize, call one service and render."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from allauth.account.adapter import get_adapter as get_account_adapter
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts import guests
from games import engine, selectors
from games.errors import PlayingElsewhereError, ServiceError
from games.first_hint import first_hint
from games.forms import AddBotForm, CreateTableForm, PositionForm
from games.models import BotLevel, Game, Table
from games.services import elsewhere
from games.services import series as series_service
from games.services import tables as table_service
from games.snapshot import table_snapshot


def _client_address(request: HttpRequest) -> str:
    """The visitor's address as allauth's rate limits see it (trusted proxies honoured)."""
    try:
        return str(get_account_adapter(request).get_client_ip(request))
    except PermissionDenied:  # no usable address: all such visitors share one limit
        return "unknown"


def _invited(request: HttpRequest) -> set[int]:
    return set(request.session.get("invited_tables", []))


class PrivateTableError(Exception):
    """A private table asked for without its invite link (nor a seat, nor ownership)."""


def _viewable_table(request: HttpRequest, table_id: int) -> Table:
    table = get_object_or_404(Table.objects.select_related("owner"), pk=table_id)
    if not selectors.may_view_table(table, request.user, _invited(request)):
        raise PrivateTableError
    return table


def explains_private_tables(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A private table's pages, asked for without the invite link, answer with a page that
    says so and how to get in (403), never a bare or a debug "not found"."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except PrivateTableError:
            return render(request, "games/private_table.html", status=403)

    return wrapped


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    """Open and running public tables; the list refreshes live (ws/lobby/ + htmx)."""
    template = "games/_lobby_list.html" if request.htmx else "games/lobby.html"
    return render(request, template, {"tables": selectors.lobby_tables()})


@login_required
@require_http_methods(["GET", "POST"])
def create_table(request: HttpRequest) -> HttpResponse:
    form = CreateTableForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            table = table_service.create_table(request.user, table_service.TableSettings(
                name=data["name"], kind=data["kind"], visibility=data["visibility"],
                turn_seconds=data["turn_seconds"], series_target=data["series_target"],
                start_when_full=data["start_when_full"]), owner_sits=data["sit"])
        except ServiceError as exc:
            form.add_error(None, exc.message)
        else:
            return redirect("games:table", table_id=table.pk)
    return render(request, "games/create_table.html", {"form": form})


def playing_elsewhere(request: HttpRequest, error: PlayingElsewhereError) -> HttpResponse:
    """The refusal of someone playing at another table, with both ways out: back to that
    game, or leave it (a bot plays on) and send this same request again, its fields
    posted back with ``leave_current`` (games/services/elsewhere.py)."""
    fields = [(name, value) for name in request.POST
              if name not in ("csrfmiddlewaretoken", "leave_current")
              for value in request.POST.getlist(name)]
    return render(request, "games/playing_elsewhere.html",
                  {"elsewhere": error, "action": request.path, "fields": fields}, status=409)



@require_POST
def quick_play(request: HttpRequest) -> HttpResponse:
    """"Play now": a private table with you at seat 0 and three bots, started at once.

    A visitor without an account plays as a guest, signed in on this session like an
    account (accounts/guests.py). Never a second table behind your back: while you play
    a live series, it asks whether to return to it or leave it (a bot plays your seat
    on) and start anew.
    """
    if not request.user.is_authenticated:
        try:
            guest = guests.create_guest(_client_address(request),
                                        getattr(request, "LANGUAGE_CODE", ""))
        except guests.GuestLimitError as exc:
            messages.error(request, exc.message)
            return redirect("home")
        login(request, guest, backend="django.contrib.auth.backends.ModelBackend")
    level = request.POST.get("level", "casual")
    try:
        table = elsewhere.play_with_bots(request.user, level,
                                         request.POST.get("leave_current"))
    except PlayingElsewhereError as exc:
        return playing_elsewhere(request, exc)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("home")
    return redirect("games:table", table_id=table.pk)


@explains_private_tables
@require_GET
def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _viewable_table(request, table_id)
    snapshot = table_snapshot(table, request.user)
    return render(request, "games/table.html", {
        "table": table,
        "initial_snapshot": snapshot,
        "first_hint": first_hint(snapshot),
        "ws_path": f"/ws/table/{table.pk}/",
        "bot_levels": BotLevel.choices,  # named in the page's language
    })


@require_GET
def invite(request: HttpRequest, token: str) -> HttpResponse:
    """A private table's invite link: remember it in the session, then show the table."""
    table = Table.objects.filter(invite_token=token).first()
    if table is None:
        return render(request, "games/private_table.html", {"invalid_link": True}, status=404)
    invited = request.session.get("invited_tables", [])
    if table.pk not in invited:
        request.session["invited_tables"] = [*invited, table.pk][-50:]
    return redirect("games:table", table_id=table.pk)


def _table_action(run: Callable[[HttpRequest, int, Any], object],
                  form_class: type[PositionForm] | None = None) -> Callable[..., HttpResponse]:
    """A POST endpoint that validates a form, calls one service and redirects back."""

    @login_required
    @require_POST
    @explains_private_tables
    def view(request: HttpRequest, table_id: int) -> HttpResponse:
        _viewable_table(request, table_id)
        data: Any = None
        if form_class is not None:
            form = form_class(request.POST)
            if not form.is_valid():
                errors = "; ".join(f"{k}: {' '.join(v)}" for k, v in form.errors.items())
                messages.error(request, _("That request was not valid: %(errors)s")
                               % {"errors": errors})
                return redirect("games:table", table_id=table_id)
            data = form.cleaned_data
        try:
            run(request, table_id, data)
        except PlayingElsewhereError as exc:
            return playing_elsewhere(request, exc)
        except ServiceError as exc:
            messages.error(request, exc.message)
        if request.headers.get("Accept", "").startswith("application/json"):
            return HttpResponse(status=204)
        return HttpResponseRedirect(reverse("games:table", args=[table_id]))

    return view


sit = _table_action(lambda r, t, d: elsewhere.sit(t, r.user, d["position"],
                                                  r.POST.get("leave_current")), PositionForm)
leave = _table_action(lambda r, t, d: table_service.leave_seat(t, r.user))
add_bot = _table_action(lambda r, t, d: table_service.add_bot(t, r.user, d["position"],
                                                              d["level"]), AddBotForm)
remove_bot = _table_action(lambda r, t, d: table_service.remove_bot(t, r.user, d["position"]),
                           PositionForm)
kick = _table_action(lambda r, t, d: table_service.kick(t, r.user, d["position"]), PositionForm)
start = _table_action(lambda r, t, d: series_service.start_series(t, r.user))
again = _table_action(lambda r, t, d: series_service.play_again(t, r.user))


def _record_of(request: HttpRequest, game_id: int, not_over: str) -> Game:
    """The game whose full record ``request`` may open (``selectors.record_access``, the
    same rule the API applies); a private table's is explained, one still being played
    (or stopped before its end) is not found, with ``not_over`` (R19)."""
    game = get_object_or_404(Game.objects.select_related("series__table"), pk=game_id)
    access = selectors.record_access(game, request.user, _invited(request))
    if access is selectors.RecordAccess.PRIVATE:
        raise PrivateTableError
    if access is selectors.RecordAccess.NOT_OVER:  # finished, or played out and voided
        raise Http404(not_over)
    if access is selectors.RecordAccess.HELD:
        raise Http404(_("This deal is a duplicate board: its record opens once every "
                        "table has played it."))
    return game


@explains_private_tables
@require_GET
def replay(request: HttpRequest, game_id: int) -> HttpResponse:
    """Step through a finished game with every hand open (R19 allows it after the end)."""
    game = _record_of(request, game_id, _("The replay opens when the game is over."))
    record, frames = selectors.replay_frames(game)
    # A player reads the result as yours–theirs, anybody else as A–B.
    position = selectors.series_position(game.series, request.user)
    if position is None:
        position = selectors.away_position(game.series, request.user)
    viewer_team = "" if position is None else engine.team_of(position)
    return render(request, "games/replay.html", {"game": game, "record": record,
                                                  "frames": frames,
                                                  "viewer_team": viewer_team})


@explains_private_tables
@require_GET
def game_record(request: HttpRequest, game_id: int) -> HttpResponse:
    """A played-out game's full record as JSON, in the engine's record format (R19 lets
    everyone see it once the game is over); a download. ``void`` says whether a
    moderator voided its series."""
    game = _record_of(request, game_id, _("The record opens when the game is over."))
    record, _frames = selectors.replay_frames(game)
    # A voided series' game still downloads, and says so: it counts for nothing.
    response = JsonResponse({"game": game.pk, "series": game.series_id, "number": game.number,
                             "status": game.status, "void": game.is_void,
                             "record": record}, json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="kozel-game-{game.pk}.json"'
    return response
