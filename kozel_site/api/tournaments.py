"""``/api/tournaments/<id>…``: a club's event, its pairings and its standings, as on the
tournament page ``/tournament/<id>/`` (public to everyone, like the page)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Router
from ninja.errors import HttpError

from games.tournaments import board_reads, duplicate_reads, selectors
from games.tournaments.models import Tournament
from kozel_site.api import params, schemas

router = Router(tags=["tournaments"])

_RESPONSES = schemas.NOT_FOUND


def _tournament(tournament_id: int) -> Tournament:
    row = Tournament.objects.select_related("club").filter(pk=tournament_id).first()
    if row is None:
        raise HttpError(404, "No tournament with that id.")
    return row


@router.get("/{tournament_id}", response={200: schemas.Tournament, **_RESPONSES},
            summary="A tournament and its entries")
def tournament(request: HttpRequest, tournament_id: params.TournamentId) -> dict[str, Any]:
    row = _tournament(tournament_id)
    entries = row.entries.select_related("player1", "player2").order_by("pk")
    return {
        "id": row.pk, "name": row.name, "club": row.club.slug, "kind": row.kind,
        "format": row.format, "status": row.status, "target": row.target,
        "games_limit": row.games_limit, "rounds": row.rounds, "rated": row.rated,
        "starts_at": row.starts_at, "finished_at": row.finished_at,
        "entries": [{"id": e.pk, "name": e.name, "status": e.status, "bot": e.bot_level or None,
                     "players": [p.get_username() for p in (e.player1, e.player2) if p]}
                    for e in entries],
    }


@router.get("/{tournament_id}/pairings", response={200: schemas.Pairings, **_RESPONSES},
            summary="Every round's matches and results")
def pairings(request: HttpRequest, tournament_id: params.TournamentId) -> dict[str, Any]:
    """Sides name entry ids; side A plays seats 0 and 2 (team A, R1). A duplicate
    round's results (outcome and loss points) stay empty until every board of the round
    has been played at every table (R19 across tables)."""
    row = _tournament(tournament_id)
    secret = board_reads.secret_rounds(row)
    rounds = []
    for round_ in row.round_set.order_by("number"):
        matches = []
        for match in selectors.matches_of_round(round_):
            sides: dict[str, list[int]] = {"A": [], "B": []}
            for side in sorted(match.sides.all(), key=lambda s: (s.side, s.slot)):
                sides[side.side].append(side.entry_id)
            matches.append({
                "number": match.number, "status": match.status, "table": match.table_id,
                "series": match.series_id, "side_a": sides["A"], "side_b": sides["B"],
                **({"outcome": "", "loss_a": 0, "loss_b": 0} if round_.pk in secret else
                   {"outcome": match.outcome, "loss_a": match.loss_a, "loss_b": match.loss_b}),
                "forfeit": match.forfeit, "corrected": match.corrected})
        rounds.append({"number": round_.number, "status": round_.status, "matches": matches})
    return {"rounds": rounds}


@router.get("/{tournament_id}/standings", response={200: schemas.Standings, **_RESPONSES},
            summary="The standings, with their tie-breaks")
def standings(request: HttpRequest, tournament_id: params.TournamentId) -> dict[str, Any]:
    """A duplicate event's rows are its board standings from the public boards only:
    ``points`` the pair's matchpoints (or its difference), ``played`` its boards, no
    tie-breaks (equal percentages share a place); ``duplicate`` the same in percent with
    each pair's score per board."""
    row = _tournament(tournament_id)
    if row.is_duplicate:
        lines = duplicate_reads.standings(row).rows
        return {"rounds_completed": selectors.rounds_completed(row),
                "rows": [{"rank": rank, "place": r.place, "entry": r.entry.pk,
                          "name": r.entry.name, "bot": r.entry.is_bot, "points": r.score,
                          "buchholz": 0.0, "head_to_head": 0, "loss_point_diff": 0,
                          "sonneborn_berger": 0.0, "wins": 0, "played": r.boards}
                         for rank, r in enumerate(lines, start=1)],
                "duplicate": _duplicate_standings(row)}
    return {"rounds_completed": selectors.rounds_completed(row),
            "rows": [{"rank": r.rank, "place": r.place, "entry": r.entry.id,
                      "name": r.entry.name, "bot": r.entry.is_bot, "points": r.points,
                      "buchholz": float(r.buchholz), "head_to_head": r.head_to_head,
                      "loss_point_diff": r.loss_point_diff,
                      "sonneborn_berger": float(r.sonneborn_berger), "wins": r.wins,
                      "played": r.played} for r in selectors.standings_of(row)]}


def _duplicate_standings(row: Tournament) -> dict[str, Any]:
    table = duplicate_reads.standings(row)
    return {"scoring": row.duplicate_scoring, "basis": row.duplicate_basis,
            "boards": table.boards,
            "rows": [{"place": r.place, "entry": r.entry.pk, "name": r.entry.name,
                      "bot": r.entry.is_bot,
                      "percent": round(float(r.percent), 2) if r.boards else None,
                      "score": r.score, "top": r.top, "boards": r.boards,
                      "by_board": {str(n): v for n, v in r.by_board.items()}}
                     for r in table.rows]}


@router.get("/{tournament_id}/boards", response={200: schemas.Boards, **_RESPONSES},
            summary="A duplicate event's boards and their travellers")
def boards(request: HttpRequest, tournament_id: params.TournamentId) -> dict[str, Any]:
    """Every board with how many of its round's tables finished it; its results (the
    traveller: each table's pairs, card and loss points and scores, and the game to
    replay) only once every table has played it (R19 across tables). Not a duplicate
    event: 404."""
    row = _tournament(tournament_id)
    if not row.is_duplicate:
        raise HttpError(404, "This tournament is not a duplicate event.")
    return {"boards": [
        {"number": b.board.number, "round": b.round_number, "public": b.public,
         "tables": b.tables, "finished": b.finished,
         "results": [{"table": line.table, "side_a": line.a_entry, "side_b": line.b_entry,
                      "points_a": line.points_a, "points_b": line.points_b,
                      "loss_a": line.loss_a, "loss_b": line.loss_b,
                      "score_a": line.score_a, "score_b": line.score_b, "top": line.top,
                      "game": line.game_id} for line in b.lines]}
        for b in duplicate_reads.board_views(row)]}
