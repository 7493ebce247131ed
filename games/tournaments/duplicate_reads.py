"""Reads of a duplicate event for its pages, its exports and the API: the boards with
their travellers, the standings in percent and the cross-table per board.

Secrecy is decided here, once, for every reader (R19 across tables): a board counts
only when it is **public** (``Board.public_at`` set: played at every table of its round,
or its round is over). Until then no reader gets its seed, a hand or any table's
result: the traveller lists nothing, the standings and the cross-table leave the board
out, and the record of every game that played it stays closed (``board_reads.held_games``,
a ``games.policy`` record hold registered in apps.py). What a board not yet public does
show is how far it is: how many of its round's tables finished it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction

from games.tournaments import board_reads, duplicate
from games.tournaments.models import Board, BoardPlay, Entry, Match, Tournament


def is_public(board: Board) -> bool:
    """Whether every table of the board's round has played it (or the round is over):
    only then may anything of it be shown (R19 across tables)."""
    return board.public_at is not None


@dataclass
class TravellerLine:
    """One table's result on a public board, with the score of each side."""

    table: int
    match_id: int
    a_entry: int
    b_entry: int
    a_name: str
    b_name: str
    a_bot: bool
    b_bot: bool
    points_a: int
    points_b: int
    loss_a: int
    loss_b: int
    score_a: int
    score_b: int
    top: int
    game_id: int | None


@dataclass
class BoardView:
    """A board as its traveller shows it: its lines only when it is public."""

    board: Board
    round_number: int
    public: bool
    finished: int
    tables: int
    lines: list[TravellerLine] = field(default_factory=list)


def _board_results(plays: Iterable[BoardPlay], table_of: dict[int, int]
                   ) -> list[duplicate.BoardResult]:
    return [duplicate.BoardResult(
        board=p.board.number, table=table_of[p.match_id], a_pair=p.a_entry_id,
        b_pair=p.b_entry_id, points={"A": p.points_a, "B": p.points_b},
        loss_points={"A": p.loss_a, "B": p.loss_b}) for p in plays]


def board_views(tournament: Tournament, number: int | None = None) -> list[BoardView]:
    """Every board of the event (or board ``number`` alone), oldest first, each with its
    traveller when public and the count of tables that finished it."""
    boards = list(Board.objects.filter(tournament=tournament).select_related("round")
                  .order_by("number"))
    if number is not None:
        boards = [b for b in boards if b.number == number]
    if not boards:
        return []
    tables: dict[int, int] = defaultdict(int)
    for round_id in Match.objects.filter(round__tournament=tournament).values_list(
            "round_id", flat=True):
        tables[round_id] += 1
    plays: dict[int, list[BoardPlay]] = defaultdict(list)
    for play in (BoardPlay.objects.filter(board__in=boards)
                 .select_related("board", "match", "a_entry", "b_entry")):
        plays[play.board_id].append(play)
    out = []
    for board in boards:
        view = BoardView(board, board.round.number, is_public(board), len(plays[board.pk]),
                         tables[board.round_id])
        if view.public:
            view.lines = _traveller(tournament, plays[board.pk])
        out.append(view)
    return out


def _traveller(tournament: Tournament, plays: list[BoardPlay]) -> list[TravellerLine]:
    table_of = {p.match_id: p.match.number for p in plays}
    scores = duplicate.board_scores(_board_results(plays, table_of),
                                    tournament.duplicate_scoring, tournament.duplicate_basis)
    lines = []
    for p in sorted(plays, key=lambda p: table_of[p.match_id]):
        table = table_of[p.match_id]
        (score_a, top), (score_b, _top) = (scores[p.board.number][(table, "A")],
                                           scores[p.board.number][(table, "B")])
        lines.append(TravellerLine(
            table=table, match_id=p.match_id, a_entry=p.a_entry_id, b_entry=p.b_entry_id,
            a_name=p.a_entry.name, b_name=p.b_entry.name, a_bot=p.a_entry.is_bot,
            b_bot=p.b_entry.is_bot, points_a=p.points_a, points_b=p.points_b,
            loss_a=p.loss_a, loss_b=p.loss_b, score_a=score_a, score_b=score_b, top=top,
            game_id=p.game_id))
    return lines


@dataclass
class StandingRow:
    """One pair in the duplicate standings: its percentage over the public boards."""

    entry: Entry
    place: int | None
    boards: int
    score: int
    top: int
    percent: Fraction
    by_board: dict[int, int]

    @property
    def percent_text(self) -> str:
        return f"{float(self.percent):.1f}"


@dataclass
class DuplicateStandings:
    rows: list[StandingRow]
    boards: list[int]  # the public boards, the cross-table's columns

    def cells(self, row: StandingRow) -> list[str]:
        """The pair's score on each public board ("·": it did not play the board)."""
        return [str(row.by_board[b]) if b in row.by_board else "·" for b in self.boards]

    @property
    def cross(self) -> list[tuple[StandingRow, list[str]]]:
        return [(row, self.cells(row)) for row in self.rows]


def standings(tournament: Tournament) -> DuplicateStandings:
    """The pairs by their percentage over the public boards only: a board still being
    played somewhere changes nobody's score yet (R19 across tables). Bot pairs are
    listed, never placed (duplicate.standings)."""
    entries = {e.pk: e for e in tournament.entries.exclude(status=Entry.Status.PENDING)}
    results = board_reads.results(tournament)  # the public boards' results only
    pairs = [duplicate.PairInfo(e.pk, e.name, e.is_bot) for e in entries.values()]
    rows = duplicate.standings(pairs, results, tournament.duplicate_scoring,
                               tournament.duplicate_basis)
    out = []
    for row in rows:
        entry = entries[row.pair.id]
        unplaced = entry.status in (Entry.Status.WITHDRAWN, Entry.Status.DISQUALIFIED)
        out.append(StandingRow(entry, None if unplaced else row.place, row.boards, row.score,
                               row.top, row.percent(tournament.duplicate_scoring),
                               dict(row.by_board)))
    return DuplicateStandings(out, sorted({r.board for r in results}))


def released_games(game_ids: list[int]) -> set[int]:
    """The games of ``game_ids`` that played a duplicate board now public: their records
    are open to everyone, like the traveller that links to them (a ``games.policy``
    record release), although their tables are the event's private ones."""
    return set(BoardPlay.objects.filter(game_id__in=game_ids, board__public_at__isnull=False)
               .values_list("game_id", flat=True))
