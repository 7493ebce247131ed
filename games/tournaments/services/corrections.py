"""A director's correction of a match result: checked against the match's format, shown
as the standings before and after, saved only when confirmed, told to the match's players.

Two steps, like any change a club has to trust: :func:`preview` validates the request and
returns the standings it would give with a signed confirm token naming exactly this
change to this stored result; :func:`correct_locked` (the director's ``correct`` tool)
saves only with that token, so a stale preview (somebody corrected the match meanwhile)
or an edited form is refused and changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.contrib.auth.models import User
from django.core import signing
from django.utils.translation import gettext as _

from games import signals
from games.errors import (
    InvalidRequestError,
    NotFoundError,
    PermissionDeniedError,
    TableStateError,
)
from games.events import after_commit
from games.models import Series
from games.tournaments import permissions, selectors, standings
from games.tournaments.models import REASON_MAX, AuditEntry, Match, Tournament
from games.tournaments.selectors import ResultFigures
from games.tournaments.services import audit, rounds

CONFIRM_SALT = "tournaments.correct"
CONFIRM_MAX_AGE = 60 * 60  # a preview left open for an hour is read again
OUTCOMES = ("A", "B", "tie", "none")
# The most loss points one game gives (R16: no trick taken).
MOST_PER_GAME = 6


@dataclass(frozen=True)
class MatchFormat:
    """What ends a match: ``limit`` loss points make a goat (R18: the event's target, or
    with a fixed number of ``games`` the table's target, which still ends a lopsided
    match early)."""

    limit: int
    games: int | None = None


def format_of(t: Tournament) -> MatchFormat:
    return MatchFormat(limit=rounds.table_target(t), games=t.games_limit)


def result_error(fmt: MatchFormat, outcome: str, loss_a: int, loss_b: int,
                 forfeit: bool) -> str | None:
    """Why this result cannot have happened in a match of format ``fmt``, or None.

    A game gives 2, 4 or 6 loss points to one team or none (R16–R17), so totals are
    even; the team that reached the limit is the goat and lost (R18), the other stayed
    below it; a match ended early (time, vote) is won by fewer loss points, a tie has
    equal ones; the last game adds at most 6 to a total below the limit; a fixed number
    of games gives at most 6 per game. A forfeit was not played: it has no loss points.
    """
    if outcome not in OUTCOMES:
        return _("The result is side A, side B, a tie, or both forfeit.")
    if outcome == "none" or forfeit:
        if loss_a or loss_b:
            return _("A forfeit was not played: its loss points are 0 and 0.")
        return None
    if loss_a % 2 or loss_b % 2:
        return _("Loss points come in 2, 4 or 6 a game (R16): give even numbers.")
    most = fmt.limit - 2 + MOST_PER_GAME
    if max(loss_a, loss_b) > most:
        return _("In a match to %(limit)s loss points a side ends with at most "
                 "%(most)s (R18).") % {"limit": fmt.limit, "most": most}
    if fmt.games is not None:
        needed = -(-loss_a // MOST_PER_GAME) - (-loss_b // MOST_PER_GAME)
        if needed > fmt.games:
            return _("%(games)s games give at most 6 loss points each to one side (R16): "
                     "%(a)s and %(b)s need more games.") % {
                "games": fmt.games, "a": loss_a, "b": loss_b}
    if outcome == "tie":
        if loss_a != loss_b:
            return _("A tie has equal loss points.")
        if loss_a >= fmt.limit:
            return _("A side with %(limit)s or more loss points is the goat (R18): it "
                     "lost, so this is no tie.") % {"limit": fmt.limit}
        return None
    winner, loser = (loss_a, loss_b) if outcome == "A" else (loss_b, loss_a)
    if winner >= loser:
        return _("The winning side has fewer loss points than the losing side (R18).")
    if winner >= fmt.limit:
        return _("The winning side cannot have reached %(limit)s loss points: that side "
                 "is the goat (R18).") % {"limit": fmt.limit}
    return None


@dataclass(frozen=True)
class Request:
    match: Match
    figures: ResultFigures
    reason: str


@dataclass(frozen=True)
class Preview:
    """What the confirm page shows and posts back."""

    tournament: Tournament
    match: Match
    figures: ResultFigures
    reason: str
    before: list[standings.Row]
    after: list[standings.Row]
    restores_played: bool
    token: str


def _number(data: Mapping[str, Any], key: str, what: str) -> int:
    try:
        value = int(str(data.get(key)))
    except (TypeError, ValueError):
        raise InvalidRequestError(_("Give %(what)s as a number.") % {"what": what}) from None
    if value < 0 or value > 60:
        raise InvalidRequestError(_("Loss points are 0 to 60."))
    return value


def _reason(data: Mapping[str, Any]) -> str:
    text = " ".join(str(data.get("reason", "") or "").split())
    if not text:
        raise InvalidRequestError(_("Give a reason: it goes into the audit log."))
    if len(text) > REASON_MAX:
        raise InvalidRequestError(_("A reason has at most %(max)s characters.") % {
            "max": REASON_MAX})
    return text


def _figures(match: Match) -> ResultFigures:
    return (match.outcome, match.loss_a, match.loss_b, match.forfeit)


def check(t: Tournament, data: Mapping[str, Any], *, lock: bool) -> Request:
    """Validate a correction of one of ``t``'s matches; raises a ServiceError naming
    what is wrong, before anything is written."""
    if t.is_duplicate:
        # A duplicate event is scored board by board from the play (board_reads), not
        # from a match's outcome: a corrected outcome would change nothing it shows.
        raise TableStateError(_("A duplicate event's results are its boards as played: "
                                "they cannot be corrected here."))
    reason = _reason(data)
    try:
        match_id = int(str(data.get("match_id")))
    except (TypeError, ValueError):
        raise InvalidRequestError(_("Give %(what)s as a number.") % {
            "what": _("the match")}) from None
    rows = Match.objects.filter(pk=match_id, round__tournament=t).select_related("round")
    match = (rows.select_for_update(of=("self",)) if lock else rows).first()
    if match is None:
        raise NotFoundError(_("No such match in this tournament."))
    if match.status != Match.Status.FINISHED or match.outcome == "bye":
        raise TableStateError(_("Only a finished match (not a bye) can be corrected."))
    outcome = str(data.get("outcome", ""))
    if outcome not in OUTCOMES:
        raise InvalidRequestError(_("The result is side A, side B, a tie, or both forfeit."))
    loss_a = _number(data, "loss_a", _("side A's loss points"))
    loss_b = _number(data, "loss_b", _("side B's loss points"))
    # A forfeit stays one unless the director says it was played after all.
    forfeit = outcome == "none" or (match.forfeit and str(data.get("forfeit", "")) != "0")
    error = result_error(format_of(t), outcome, loss_a, loss_b, forfeit)
    if error:
        raise InvalidRequestError(error)
    figures: ResultFigures = (outcome, loss_a, loss_b, forfeit)
    if figures == _figures(match):
        raise InvalidRequestError(_("That is already the match's result."))
    return Request(match, figures, reason)


def _token(match: Match, figures: ResultFigures) -> str:
    return signing.dumps({"m": match.pk, "to": list(figures), "from": list(_figures(match))},
                         salt=CONFIRM_SALT)


def _check_token(token: Any, match: Match, figures: ResultFigures) -> None:
    try:
        data = signing.loads(str(token or ""), salt=CONFIRM_SALT, max_age=CONFIRM_MAX_AGE)
    except signing.SignatureExpired:
        raise InvalidRequestError(_("This confirmation is more than an hour old: look at "
                                    "the correction again.")) from None
    except signing.BadSignature:
        raise InvalidRequestError(_("Confirm the correction after looking at the standings "
                                    "it gives.")) from None
    if (not isinstance(data, dict) or data.get("m") != match.pk
            or data.get("to") != list(figures)):
        raise InvalidRequestError(_("The confirmation is for another correction: look at "
                                    "this one again."))
    if data.get("from") != list(_figures(match)):
        raise TableStateError(_("The result changed since you looked at it: look at the "
                                "correction again."))


def played_result(match: Match) -> ResultFigures:
    """The result as it was played and scored: the one the first correction replaced
    (the audit log keeps it), else the stored one."""
    first = (AuditEntry.objects.filter(
        tournament_id=match.round.tournament_id, action="result.correct",
        details__round=match.round.number, details__match=match.number)
        .order_by("created_at", "id").first())
    if first is None:
        return _figures(match)
    before = first.details.get("before", {})
    return (str(before.get("outcome", "")), int(before.get("loss_a", 0)),
            int(before.get("loss_b", 0)), bool(before.get("forfeit", False)))


def preview(tournament_id: int, user: User | None, data: Mapping[str, Any]) -> Preview:
    """Validate a correction and show what it gives; writes nothing."""
    if user is None or not user.is_authenticated:
        raise PermissionDeniedError(_("Sign in first."))
    t = Tournament.objects.select_related("club").filter(pk=tournament_id).first()
    if t is None:
        raise NotFoundError(_("No such tournament."))
    if not permissions.can_direct_event(t, user):
        raise PermissionDeniedError(_("Only the club's owner and directors run tournaments."))
    request = check(t, data, lock=False)
    return Preview(
        tournament=t, match=request.match, figures=request.figures, reason=request.reason,
        before=selectors.standings_of(t),
        after=selectors.standings_of(t, {request.match.pk: request.figures}),
        restores_played=request.figures == played_result(request.match),
        token=_token(request.match, request.figures))


def correct_locked(t: Tournament, user: User, data: Mapping[str, Any]) -> str:
    """Save a confirmed correction (the caller holds the tournament's lock): the match's
    result, the "corrected" mark (gone when it goes back to what was played), the audit
    entry; after commit the ratings and the match's players hear of it."""
    request = check(t, data, lock=True)
    match = request.match
    _check_token(data.get("confirm"), match, request.figures)
    played = played_result(match)
    before = {"outcome": match.outcome, "loss_a": match.loss_a, "loss_b": match.loss_b,
              "forfeit": match.forfeit}
    outcome, loss_a, loss_b, forfeit = request.figures
    match.outcome, match.loss_a, match.loss_b, match.forfeit = request.figures
    match.corrected = request.figures != played
    match.save(update_fields=["outcome", "loss_a", "loss_b", "forfeit", "corrected"])
    _announce(t, match)
    audit.record(t.club, user, "result.correct", tournament=t, reason=request.reason,
                 round=match.round.number, match=match.number, before=before,
                 after={"outcome": outcome, "loss_a": loss_a, "loss_b": loss_b})
    if not match.corrected:
        return _("The result is back to what was played; it is no longer marked "
                 "corrected.")
    return _("Result corrected; the players of the match are told.")


def _announce(t: Tournament, match: Match) -> None:
    """After commit: the ratings rate the series again with the corrected result
    (``series_corrected``, read through ``selectors.corrected_results``; a forfeit has
    no series to rate), and every person of the match is told (``result_corrected``)."""
    people = sorted({p for _e, p in rounds.people_by_position(match).values()
                     if p is not None})
    after_commit(partial(signals.result_corrected.send, sender=Match, tournament_id=t.pk,
                         tournament_name=t.name, round_number=match.round.number,
                         match_number=match.number, user_ids=people))
    if match.series_id is None:
        return
    winner = match.outcome if match.outcome in ("A", "B") else ""
    after_commit(partial(signals.series_corrected.send, sender=Series,
                         series_id=match.series_id, winner=winner))

