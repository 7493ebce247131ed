"""Views of clubs and tournaments: parse, authorize through a service, render.

Every POST calls one service; a ServiceError becomes a message on the page it came
from and changes nothing. Bad form input re-shows the form with its errors.
"""

from __future__ import annotations

import csv
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.http import AuthenticatedHttpRequest
from games import selectors as game_selectors
from games.errors import ServiceError
from games.models import Game
from games.tournaments import (
    console,
    duplicate_reads,
    event_reads,
    forms,
    permissions,
    season_points,
    selectors,
)
from games.tournaments.models import (
    AuditEntry,
    Club,
    Entry,
    Match,
    Membership,
    Round,
    Season,
    Tournament,
)
from games.tournaments.services import (
    announcements,
    codirectors,
    corrections,
    details,
    director,
    events,
    recurrence,
    rounds,
    seasons,
)
from games.tournaments.services import clubs as club_service
from games.tournaments.services import console as console_service
from games.tournaments.services.texts import EventDetails
from kozel_site import ids

# --- clubs ----------------------------------------------------------------------------


@require_GET
def club_list(request: HttpRequest) -> HttpResponse:
    """``/clubs/``: every club, biggest first, with a search box."""
    query = request.GET.get("q", "")
    found = list(selectors.clubs(query)[:selectors.PAGE])
    mine = (selectors.clubs_of(request.user) if request.user.is_authenticated else [])
    return render(request, "clubs.html", {"clubs": found, "q": query[:60], "mine": mine})


@login_required
@require_http_methods(["GET", "POST"])
def club_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = forms.ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = club_service.create_club(request.user, club_service.ClubSettings(
                **{**form.cleaned_data, "time_zone": form.cleaned_data["time_zone"] or "UTC"}))
        except ServiceError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("%(club)s is open. Invite your players.") % {
                "club": club.name})
            return redirect("tournaments:club", slug=club.slug)
    return render(request, "clubs/create.html", {"form": form}, status=400 if form.errors
                  else 200)


def _club(slug: str) -> Club:
    return get_object_or_404(Club, slug=slug)


@require_GET
def club_page(request: HttpRequest, slug: str) -> HttpResponse:
    """``/club/<slug>/``: members, tournaments, the club's leaderboard, join/leave."""
    club = _club(slug)
    me = permissions.membership(club, request.user)
    directing = permissions.can_direct(club, request.user)
    context: dict[str, Any] = {
        "club": club, "me": me, "role": permissions.role(club, request.user),
        "directing": directing, "appointing": permissions.can_appoint(club, request.user),
        "members": selectors.members(club), "events": selectors.tournaments_by_state(club),
        "leaderboard": selectors.club_leaderboard(club),
        "invite_token": request.GET.get("invite", "")[:40],
        "seasons": list(club.seasons.all()),
        # Announcements are the members' business: strangers do not read them.
        "announcements": (event_reads.club_announcements(club)
                          if me is not None and me.status == Membership.Status.ACTIVE
                          or directing else []),
    }
    if directing:
        context["requests"] = selectors.requests(club)
        context["banned"] = selectors.banned(club)
        context["audit"] = list(AuditEntry.objects.filter(club=club, tournament=None)
                                .select_related("actor")[:50])
        context["invite_url"] = request.build_absolute_uri(
            f"/club/{club.slug}/?invite={club.invite_token}")
    return render(request, "clubs/club.html", context)


def _club_action(run: Callable[[AuthenticatedHttpRequest, Club], str | None]
                 ) -> Callable[..., HttpResponse]:
    @login_required
    @require_POST
    def view(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
        club = _club(slug)
        try:
            done = run(request, club)
        except ServiceError as exc:
            messages.error(request, exc.message)
        except ValueError:
            messages.error(request, _("That request was not valid."))
        else:
            if done:
                messages.success(request, done)
        return redirect("tournaments:club", slug=club.slug)

    return view


def _int(value: object) -> int:
    try:
        number = int(str(value))
    except (TypeError, ValueError):
        raise ValueError("not a number") from None
    if number < 1:
        raise ValueError("not an id")
    return ids.checked(number)  # too large for a column: HTTP 400, not a driver error


def _join(request: AuthenticatedHttpRequest, club: Club) -> str:
    m = club_service.join(club.pk, request.user, str(request.POST.get("token", ""))[:40])
    if m.status == Membership.Status.REQUESTED:
        return _("Your request was sent; a director will answer it.")
    return _("Welcome to %(club)s.") % {"club": club.name}


def _leave(request: AuthenticatedHttpRequest, club: Club) -> str:
    club_service.leave(club.pk, request.user)
    return _("You left %(club)s.") % {"club": club.name}


def _decide(request: AuthenticatedHttpRequest, club: Club) -> str:
    approve = request.POST.get("decision") == "approve"
    club_service.decide_request(club.pk, request.user, _int(request.POST.get("user_id")),
                                approve)
    return _("Request approved.") if approve else _("Request declined.")


def _remove(request: AuthenticatedHttpRequest, club: Club) -> str:
    ban = request.POST.get("ban") == "1"
    club_service.remove_member(club.pk, request.user, _int(request.POST.get("user_id")),
                               request.POST.get("reason", ""), ban=ban)
    return "Banned." if ban else _("Removed from the club.")


def _unban(request: AuthenticatedHttpRequest, club: Club) -> str:
    club_service.unban(club.pk, request.user, _int(request.POST.get("user_id")),
                       request.POST.get("reason", ""))
    return _("The ban was lifted.")


def _role(request: AuthenticatedHttpRequest, club: Club) -> str:
    club_service.set_role(club.pk, request.user, _int(request.POST.get("user_id")),
                          str(request.POST.get("role", "")))
    return _("Role changed.")


club_join = _club_action(_join)
club_leave = _club_action(_leave)
club_decide = _club_action(_decide)
club_remove = _club_action(_remove)
club_unban = _club_action(_unban)
club_role = _club_action(_role)


def _announce(request: AuthenticatedHttpRequest, club: Club) -> str:
    sent = announcements.announce(request.user, request.POST.get("text", ""), club_id=club.pk)
    return ngettext("Announced to %(n)s member.", "Announced to %(n)s members.",
                    sent.recipients) % {"n": sent.recipients}


def _new_season(request: AuthenticatedHttpRequest, club: Club) -> str:
    season = seasons.create_season(club.pk, request.user, request.POST.get("name", ""))
    return _("Season %(name)s opened: put events in it from their pages.") % {
        "name": season.name}


club_announce = _club_action(_announce)
club_season_create = _club_action(_new_season)


@require_GET
def season_page(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    """``/club/<slug>/season/<id>/``: the season's events and its table."""
    club = _club(slug)
    season = get_object_or_404(Season, pk=season_id, club=club)
    return render(request, "clubs/season.html", {
        "club": club, "season": season, "rows": event_reads.season_table(season),
        "events": event_reads.season_events(season),
        "place_points": list(enumerate(season_points.PLACE_POINTS, start=1)),
        "played_points": season_points.PLAYED_POINTS,
        "played_from": len(season_points.PLACE_POINTS) + 1})


@login_required
@require_http_methods(["GET", "POST"])
def club_edit(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    club = _club(slug)
    if not permissions.can_appoint(club, request.user):
        raise Http404(_("No such page."))
    initial = {f: getattr(club, f) for f in ("name", "description", "country", "language",
                                             "join_policy", "time_zone")}
    form = forms.ClubEditForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            club_service.update_club(club.pk, request.user, club_service.ClubSettings(
                slug=club.slug, **{**form.cleaned_data,
                                   "time_zone": form.cleaned_data["time_zone"] or "UTC"}))
        except ServiceError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Saved."))
            return redirect("tournaments:club", slug=club.slug)
    return render(request, "clubs/edit.html", {"form": form, "club": club})


# --- tournaments ------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def tournament_create(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    club = _club(slug)
    if not permissions.can_direct(club, request.user):
        raise Http404(_("No such page."))
    form = forms.TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            tournament = events.create_tournament(club.pk, request.user, events.EventSettings(
                name=data["name"], format=data["format"], rounds=data["rounds"],
                target=data["target"],
                turn_seconds=int(data["turn_seconds"]) if data["turn_seconds"] else None,
                starts_at=data["starts_at"], checkin_seconds=data["checkin_minutes"] * 60,
                round_seconds=data["round_minutes"] * 60, rated=data["rated"],
                bots_allowed=data["bots_allowed"], games_limit=data["games_limit"],
                details=EventDetails(data["description"], data["rules_text"],
                                     data["prizes"]),
                break_seconds=data["break_minutes"] * 60,
                absent_policy=data["absent_policy"],
                absent_withdraw_after=data["absent_withdraw_after"],
                seed_by_rating=data["seed_by_rating"],
                boards_per_round=data["boards_per_round"],
                duplicate_scoring=data["duplicate_scoring"],
                duplicate_basis=data["duplicate_basis"]))
        except ServiceError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Tournament created: registration is open."))
            return redirect("tournaments:tournament", tournament_id=tournament.pk)
    return render(request, "tournaments/create.html", {"form": form, "club": club},
                  status=400 if form.errors else 200)


def _tournament(tournament_id: int) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("club"), pk=tournament_id)


def tournament_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    """Everything the tournament page and its live fragment show."""
    club = tournament.club
    # A duplicate event shows its board standings (duplicate_reads) instead of these.
    rows = [] if tournament.is_duplicate else selectors.standings_of(tournament)
    rounds = list(tournament.round_set.order_by("number"))
    by_round = [(r, selectors.matches_of_round(r)) for r in rounds]
    current = next((r for r in reversed(rounds) if r.status != Round.Status.FINISHED), None)
    directing = permissions.can_direct_event(tournament, request.user)
    entry = selectors.entry_of(tournament, request.user)
    context = {
        "tournament": tournament, "club": club, "rows": rows, "rounds": by_round,
        "current": current, "directing": directing, "entry": entry,
        # The correction form shows only when a result exists to correct: an empty
        # required <select> is invalid HTML and a form nobody can send. A duplicate
        # event's results are its boards' play (corrections.check refuses them).
        "correctable": [] if tournament.is_duplicate else [
            (r, m) for r, matches in by_round for m in matches
            if m.status == Match.Status.FINISHED and m.outcome != Match.Outcome.BYE
        ],
        "is_member": permissions.is_member(club, request.user),
        "cross": None if tournament.is_duplicate else selectors.cross_table(tournament, rows),
        "entries": list(tournament.entries.select_related("player1", "player2")),
        "pending_for_me": (list(tournament.entries.filter(
            player2=request.user, status=Entry.Status.PENDING))
            if request.user.is_authenticated else []),
        "late_join_open": events.late_join_open(tournament),
    }
    if tournament.is_duplicate:
        context["dup"] = {"standings": duplicate_reads.standings(tournament),
                          "boards": duplicate_reads.board_views(tournament)}
        # A duplicate table is watched by its own players and the directors only: the
        # same boards are being played at the other tables (R19 across tables).
        context["my_matches"] = ({m.pk for _r, ms in by_round for m in ms
                                  if entry is not None
                                  and any(s.entry_id == entry.pk for s in m.sides.all())})
    context["announcements"] = event_reads.event_announcements(tournament)
    context["co_directors"] = list(tournament.co_directors.all())
    context["next_occurrence"] = Tournament.objects.filter(recurs_from=tournament).first()
    waiting = next((r for r, _m in by_round if r.status == Round.Status.PAIRED), None)
    context["waiting"] = waiting
    context["flagged"] = set().union(*(selectors.forbidden_matches(tournament, m)
                                       for r, m in by_round if r.status == Round.Status.PAIRED))
    if directing:
        context["audit"] = list(AuditEntry.objects.filter(tournament=tournament)
                                .select_related("actor")[:200])
        context["result_form"] = forms.ResultForm()
        context["seasons"] = list(club.seasons.all())
        context["details_form"] = forms.DetailsForm(initial={
            f: getattr(tournament, f) for f in ("description", "rules_text", "prizes")})
        context["names_co_directors"] = permissions.can_direct(club, request.user)
        context["forbidden"] = selectors.forbidden_pairs(tournament)
        context["next_to_pair"] = next_to_pair(tournament, rounds)
    return context


def next_to_pair(tournament: Tournament, rounds: list[Round]) -> int | None:
    """The round a director's "Pair round N" would pair now (None: none can be)."""
    if tournament.status in (Tournament.Status.REGISTRATION, Tournament.Status.CLOSED):
        return 1
    if tournament.status != Tournament.Status.RUNNING:
        return None
    if not rounds:
        return 1
    last = rounds[-1]
    if last.status == Round.Status.FINISHED and last.number < tournament.rounds:
        return last.number + 1
    return None


@require_GET
def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The tournament page: pairings, running tables, results, standings, cross-table;
    live over ``ws/tournament/<id>/`` (static/js/tournaments/live.js)."""
    tournament = _tournament(tournament_id)
    return render(request, "tournaments/tournament.html",
                  tournament_context(request, tournament))


@require_GET
def tournament_live(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The live part of the page, fetched again when the socket says it changed."""
    tournament = _tournament(tournament_id)
    return render(request, "tournaments/_live.html", tournament_context(request, tournament))


def _tournament_action(run: Callable[[AuthenticatedHttpRequest, Tournament],
                                     str | HttpResponse | None]
                       ) -> Callable[..., HttpResponse]:
    @login_required
    @require_POST
    def view(request: AuthenticatedHttpRequest, tournament_id: int) -> HttpResponse:
        tournament = _tournament(tournament_id)
        try:
            done = run(request, tournament)
        except ServiceError as exc:
            messages.error(request, exc.message)
        except ValueError:
            messages.error(request, _("That request was not valid."))
        else:
            if isinstance(done, HttpResponse):
                return done
            if done:
                messages.success(request, done)
        return redirect("tournaments:tournament", tournament_id=tournament.pk)

    return view


def _register(request: AuthenticatedHttpRequest, t: Tournament) -> str:
    form = forms.RegisterForm(request.POST)
    if not form.is_valid():
        raise ValueError("bad form")
    entry = events.register(t.pk, request.user, form.cleaned_data["partner"],
                            email_opt_in=form.cleaned_data["email_opt_in"])
    if entry.status == Entry.Status.PENDING:
        return _("Registered: your partner must confirm on this page.")
    return _("You are registered.")


def _confirm(request: AuthenticatedHttpRequest, t: Tournament) -> str:
    events.confirm_partner(t.pk, request.user, _int(request.POST.get("entry_id")),
                           accept=request.POST.get("decision") != "decline")
    return "Done."


def _withdraw(request: AuthenticatedHttpRequest, t: Tournament) -> str:
    rounds.withdraw(t.pk, request.user)
    return _("You withdrew; your results stand.")


def _checkin(request: AuthenticatedHttpRequest, t: Tournament) -> HttpResponse:
    table_id = rounds.check_in(_int(request.POST.get("match_id")), request.user)
    return redirect("games:table", table_id=table_id)


tournament_register = _tournament_action(_register)
tournament_confirm = _tournament_action(_confirm)
tournament_withdraw = _tournament_action(_withdraw)
tournament_checkin = _tournament_action(_checkin)


def _director(request: AuthenticatedHttpRequest, t: Tournament) -> str | HttpResponse:
    action = str(request.POST.get("action", ""))
    if action == "correct" and not request.POST.get("confirm"):
        return _correction_preview(request, t)
    return director.perform(t.pk, request.user, action, request.POST)


def result_text(outcome: str, loss_a: int, loss_b: int, forfeit: bool) -> str:
    """A result in words, saying that the figures are loss points."""
    won = {"A": _("Side A won"), "B": _("Side B won"), "tie": _("Tie"),
           "none": _("Both sides forfeited")}.get(outcome, outcome)
    if outcome == "none":
        return str(won)
    if forfeit:
        return _("%(result)s by forfeit") % {"result": won}
    return _("%(result)s · loss points A %(a)s, B %(b)s") % {"result": won, "a": loss_a,
                                                            "b": loss_b}


def _correction_preview(request: AuthenticatedHttpRequest, t: Tournament) -> HttpResponse:
    """The first step of a correction: what it changes in the standings, and the button
    that confirms it (the second POST, with the preview's token)."""
    preview = corrections.preview(t.pk, request.user, request.POST)
    match = preview.match
    sides = {"A": [], "B": []}  # type: dict[str, list[str]]
    for side in match.sides.select_related("entry").order_by("side", "slot"):
        sides[side.side].append(side.entry.name)
    outcome, loss_a, loss_b, forfeit = preview.figures
    return render(request, "tournaments/correct_confirm.html", {
        "tournament": t, "match": match, "reason": preview.reason,
        "side_a": " & ".join(sides["A"]), "side_b": " & ".join(sides["B"]),
        "now_text": result_text(match.outcome, match.loss_a, match.loss_b, match.forfeit),
        "after_text": result_text(*preview.figures),
        "outcome": outcome, "loss_a": loss_a, "loss_b": loss_b, "forfeit": forfeit,
        "restores_played": preview.restores_played, "token": preview.token,
        "tables": [(_("Standings now"), preview.before),
                   (_("Standings after the correction"), preview.after)]})


tournament_director = _tournament_action(_director)


def _event(request: AuthenticatedHttpRequest, t: Tournament) -> str:
    """The event's own settings on its page: texts, recurrence, season, co-directors and
    announcements to its players (each its own service, which checks the permission)."""
    op = str(request.POST.get("op", ""))
    if op == "details":
        form = forms.DetailsForm(request.POST)
        if not form.is_valid():
            raise ValueError("bad form")
        details.update_details(t.pk, request.user, EventDetails(**form.cleaned_data))
        return _("Saved.")
    if op == "recur":
        return recurrence.set_recurrence(t.pk, request.user, request.POST.get("weeks"))
    if op == "season":
        return seasons.set_season(t.pk, request.user, request.POST.get("season"))
    if op == "co_director_add":
        return codirectors.add_co_director(t.pk, request.user, request.POST.get("username"))
    if op == "co_director_remove":
        return codirectors.remove_co_director(t.pk, request.user,
                                              request.POST.get("username"))
    if op == "announce":
        sent = announcements.announce(request.user, request.POST.get("text", ""),
                                      tournament_id=t.pk)
        return ngettext("Announced to %(n)s player.", "Announced to %(n)s players.",
                        sent.recipients) % {"n": sent.recipients}
    raise ValueError("unknown operation")


tournament_event = _tournament_action(_event)


@require_GET
def standings_print(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """A standings sheet to print or pin up: no site chrome, print CSS."""
    tournament = _tournament(tournament_id)
    if tournament.is_duplicate:
        return render(request, "tournaments/print_duplicate.html", {
            "tournament": tournament, "club": tournament.club,
            "dup": {"standings": duplicate_reads.standings(tournament)},
            "completed": selectors.rounds_completed(tournament)})
    rows = selectors.standings_of(tournament)
    return render(request, "tournaments/print.html", {
        "tournament": tournament, "club": tournament.club, "rows": rows,
        "cross": selectors.cross_table(tournament, rows),
        "completed": selectors.rounds_completed(tournament)})


# --- duplicate boards ------------------------------------------------------------------


def _board(tournament_id: int, number: int) -> tuple[Tournament, duplicate_reads.BoardView]:
    tournament = _tournament(tournament_id)
    found = (duplicate_reads.board_views(tournament, number)
             if tournament.is_duplicate else [])
    if not found:
        raise Http404(_("No such board."))
    return tournament, found[0]


@require_GET
def board_page(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """``/tournament/<id>/board/<n>/``: the board's traveller (every table's pairs,
    figures and scores, with links to each table's replay) once every table has played
    it; until then only how many have (R19 across tables)."""
    tournament, board = _board(tournament_id, number)
    return render(request, "tournaments/board.html", {
        "tournament": tournament, "club": tournament.club, "b": board,
        "pairs": [(a, b) for i, a in enumerate(board.lines) for b in board.lines[i + 1:]
                  if a.game_id and b.game_id]})


@require_GET
def board_compare(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """``/tournament/<id>/board/<n>/compare/?tables=1,2``: two tables' replays of one
    public board side by side (the same cards, different play)."""
    tournament, board = _board(tournament_id, number)
    if not board.public:
        raise Http404(_("The replays open when every table has played this board."))
    lines = {line.table: line for line in board.lines if line.game_id}
    try:
        chosen = [int(t) for t in str(request.GET.get("tables", "")).split(",")[:2] if t]
    except ValueError:
        return HttpResponseBadRequest(_("Tables are named by their numbers, e.g. 1,2."))
    if not chosen:
        chosen = sorted(lines)[:2]
    if len(chosen) != 2 or len(set(chosen)) != 2 or not set(chosen) <= set(lines):
        return HttpResponseBadRequest(_("Name two different tables that played this board."))
    sides = []
    for prefix, table in zip(("t1-", "t2-"), chosen, strict=True):
        line = lines[table]
        game = get_object_or_404(Game.objects.select_related("series__table"),
                                 pk=line.game_id)
        # The one rule for a record (a duplicate board's hold and release included).
        viewer = request.user if request.user.is_authenticated else None
        if game_selectors.record_access(game, viewer, set()) \
                is not game_selectors.RecordAccess.OPEN:
            raise Http404(_("The replays open when every table has played this board."))
        record, frames = game_selectors.replay_frames(game)
        sides.append({"prefix": prefix, "line": line, "game": game, "record": record,
                      "frames": frames, "roster": list(game.series.roster.all()),
                      "record_id": f"{prefix}game-record", "frames_id": f"{prefix}replay-frames"})
    return render(request, "tournaments/board_compare.html", {
        "tournament": tournament, "club": tournament.club, "b": board, "sides": sides})


# --- the director's console ----------------------------------------------------------

CONSOLE_ACTIONS = ("bot_seat", "forfeit_match", "extend_round", "message_table")


def _directed(request: HttpRequest, tournament_id: int) -> Tournament:
    """The tournament, for its directors only: anyone else gets a 404 (as the other
    director-only pages: a stranger learns nothing)."""
    tournament = _tournament(tournament_id)
    if not permissions.can_direct_event(tournament, request.user):
        raise Http404(_("No such page."))
    return tournament


def _console_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    return {"tournament": tournament, "club": tournament.club,
            "console": console.console(tournament),
            "max_extension": console_service.MAX_EXTENSION_MINUTES}


@login_required
@require_GET
def tournament_console(request: AuthenticatedHttpRequest, tournament_id: int) -> HttpResponse:
    """``/tournament/<id>/console/``: every table of the round in play, by name, with
    the director's one-click actions; live over ``ws/tournament/<id>/``
    (static/js/tournaments/console.js)."""
    tournament = _directed(request, tournament_id)
    return render(request, "tournaments/console.html", _console_context(request, tournament))


@login_required
@require_GET
def tournament_console_live(request: AuthenticatedHttpRequest,
                            tournament_id: int) -> HttpResponse:
    """The console's tables alone, fetched again when the event changes (and every few
    seconds: presence and the clocks change without the event changing)."""
    tournament = _directed(request, tournament_id)
    return render(request, "tournaments/_console.html", _console_context(request, tournament))


@login_required
@require_POST
def tournament_console_act(request: AuthenticatedHttpRequest,
                           tournament_id: int) -> HttpResponse:
    """One console action (a director tool, services/console.py); back to the console
    with what it did or why it was refused."""
    tournament = _directed(request, tournament_id)
    action = str(request.POST.get("action", ""))
    if action not in CONSOLE_ACTIONS:
        messages.error(request, _("Unknown director action."))
    else:
        try:
            messages.success(request, director.perform(tournament.pk, request.user, action,
                                                       request.POST))
        except ServiceError as exc:
            messages.error(request, exc.message)
    return redirect("tournaments:console", tournament_id=tournament.pk)


def _csv_response(name: str) -> tuple[HttpResponse, Any]:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response, csv.writer(response)


@require_GET
def standings_csv(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    if tournament.is_duplicate:
        return _duplicate_standings_csv(tournament)
    response, out = _csv_response(f"tournament-{tournament.pk}-standings.csv")
    out.writerow(["rank", "place", "entry", "bot", "status", "points", "buchholz",
                  "head_to_head", "loss_point_diff", "sonneborn_berger", "wins",
                  "absent_rounds", "played_itself", "status_reason"])
    entries = {e.pk: e for e in tournament.entries.all()}
    for row in selectors.standings_of(tournament):
        entry = entries[row.entry.id]
        out.writerow([row.rank, row.place or "", _safe(row.entry.name), int(row.entry.is_bot),
                      entry.status, row.points, f"{float(row.buchholz):.2f}",
                      row.head_to_head, row.loss_point_diff,
                      f"{float(row.sonneborn_berger):.2f}", row.wins, row.absent,
                      int(row.present), entry.status_reason])
    return response


@require_GET
def results_csv(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    if tournament.is_duplicate:
        return _duplicate_results_csv(tournament)
    response, out = _csv_response(f"tournament-{tournament.pk}-results.csv")
    out.writerow(["round", "match", "side_a", "side_b", "outcome", "loss_a", "loss_b",
                  "forfeit", "termination", "corrected", "absent", "bot_played_for"])
    for r in tournament.round_set.order_by("number"):
        for m in selectors.matches_of_round(r):
            sides: dict[str, list[str]] = {"A": [], "B": []}
            for s in m.sides.all():
                sides[s.side].append(_safe(s.entry.name))
            out.writerow([r.number, m.number, " + ".join(sides["A"]), " + ".join(sides["B"]),
                          m.outcome, m.loss_a, m.loss_b, int(m.forfeit), m.termination,
                          int(m.corrected),
                          " + ".join(_safe(n) for n in m.absent_names),  # type: ignore[attr-defined]
                          " + ".join(_safe(n) for n in m.bot_for)])  # type: ignore[attr-defined]
    return response


def _duplicate_standings_csv(tournament: Tournament) -> HttpResponse:
    """A duplicate event's standings: percent, score and top over the public boards, and
    the pair's score on each of them (a column per board, the cross-table's)."""
    response, out = _csv_response(f"tournament-{tournament.pk}-standings.csv")
    table = duplicate_reads.standings(tournament)
    out.writerow(["place", "entry", "bot", "status", "percent", "score", "top", "boards",
                  *(f"board_{n}" for n in table.boards)])
    for row in table.rows:
        out.writerow([row.place or "", _safe(row.entry.name), int(row.entry.is_bot),
                      row.entry.status, row.percent_text if row.boards else "", row.score,
                      row.top, row.boards, *(row.by_board.get(n, "") for n in table.boards)])
    return response


def _duplicate_results_csv(tournament: Tournament) -> HttpResponse:
    """Every table's result on every public board, with each side's score: the
    travellers in one file. A board not yet played everywhere has no line (R19 across
    tables)."""
    response, out = _csv_response(f"tournament-{tournament.pk}-results.csv")
    out.writerow(["round", "board", "table", "side_a", "side_b", "points_a", "points_b",
                  "loss_a", "loss_b", "score_a", "score_b", "top"])
    for board in duplicate_reads.board_views(tournament):
        for line in board.lines:
            out.writerow([board.round_number, board.board.number, line.table,
                          _safe(line.a_name), _safe(line.b_name), line.points_a,
                          line.points_b, line.loss_a, line.loss_b, line.score_a,
                          line.score_b, line.top])
    return response


def _safe(text: str) -> str:
    """No spreadsheet formulas from user-chosen names (CSV injection)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


@require_GET
def banner(request: HttpRequest) -> HttpResponse:
    """The round-start banner alone (static/js/tournaments/banner.js fetches it live)."""
    return render(request, "tournaments/_banner.html")
