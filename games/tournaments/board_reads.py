"""Reads of duplicate events for the play: a table's planned deals, which finished games
and rounds are still secret, and the stored results as the pure scoring
(games/tournaments/duplicate.py) takes them. What the pages, exports and API show is
read in games/tournaments/duplicate_reads.py. Only **public** boards
count anywhere a player can look (R19 across tables): a board is public once it has
been played at every table of its round, or the round is over
(services/duplicate.refresh_public_locked sets ``Board.public_at``); until then its
seed, its hands and every table's result on it stay on the server, and so does any
standing they would move.
"""

from __future__ import annotations

from games import policy
from games.models import Game
from games.tournaments import duplicate
from games.tournaments.models import Board, BoardPlay, Match, Tournament


def planned_deal(table_id: int, number: int) -> tuple[int, int, int] | tuple[()] | None:
    """Game ``number`` at a duplicate match's table is board ``number`` of its round:
    its (seed, dealer, first player). A match of a fixed number of games (a duplicate
    one plays exactly its round's boards) deals no game beyond them
    (``policy.NO_MORE_GAMES``): the series is ended by services/rounds.game_finished,
    and a next-game task that runs first must not deal meanwhile. A ``games.policy``
    deal plan (apps.py)."""
    match = (Match.objects.filter(table_id=table_id).order_by("-pk")
             .values_list("round_id", "round__tournament__format",
                          "round__tournament__games_limit").first())
    if match is None:
        return None
    round_id, fmt, games_limit = match
    if games_limit is not None and number > games_limit:
        return policy.NO_MORE_GAMES
    if fmt != Tournament.Format.DUPLICATE:
        return None
    row = (Board.objects.filter(round_id=round_id, position=number)
           .values_list("seed", "dealer", "first_player").first())
    return None if row is None else (int(row[0]), int(row[1]), int(row[2]))


def held_games(game_ids: list[int]) -> set[int]:
    """Those of ``game_ids`` that played a duplicate board not yet public: their record
    (seed, hands, result) stays hidden from everyone. A ``games.policy`` record hold."""
    games = list(Game.objects.filter(pk__in=game_ids).values_list("pk", "number",
                                                                  "series__table_id"))
    if not games:
        return set()
    rounds = dict(Match.objects.filter(
        table_id__in={t for _g, _n, t in games},
        round__tournament__format=Tournament.Format.DUPLICATE).values_list("table_id",
                                                                           "round_id"))
    if not rounds:
        return set()
    public = set(Board.objects.filter(round_id__in=set(rounds.values()),
                                      public_at__isnull=False)
                 .values_list("round_id", "position"))
    return {g for g, number, table in games
            if table in rounds and (rounds[table], number) not in public}


def secret_rounds(t: Tournament) -> set[int]:
    """The ids of the event's rounds with a board not yet public: their matches' results
    (loss points summed over the boards) would tell of those boards, so nothing shows
    them until then. Empty for any other format."""
    if not t.is_duplicate:
        return set()
    return set(Board.objects.filter(tournament=t, public_at__isnull=True)
               .values_list("round_id", flat=True))


def results(t: Tournament, *, public_only: bool = True) -> list[duplicate.BoardResult]:
    """Every stored table result of the event's boards (public boards only, unless a
    caller on the server side asks for all), as the pure scoring takes them: the board's
    event-wide number, the table (the match's number in its round), the pairs."""
    rows = BoardPlay.objects.filter(board__tournament=t)
    if public_only:
        rows = rows.filter(board__public_at__isnull=False)
    return [duplicate.BoardResult(
        board=board, table=table, a_pair=a, b_pair=b,
        points={"A": pa, "B": pb}, loss_points={"A": la, "B": lb})
        for board, table, a, b, pa, pb, la, lb in rows.order_by(
            "board__number", "match__number").values_list(
            "board__number", "match__number", "a_entry_id", "b_entry_id",
            "points_a", "points_b", "loss_a", "loss_b")]
