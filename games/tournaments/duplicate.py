"""Duplicate Kozel: boards, the movement and the scoring, as pure functions.

A **board** is one game dealt from a stored seed with its own dealer and first player
(R4–R6). Every table of a round plays the round's boards, so each board is played once
at every table, by a different pair in each direction: the pair in seats 0 and 2 plays
it as side **A**, the pair in seats 1 and 3 as side **B** (R1). A board stands alone: no
series to 12 (R18) is played across boards.

A board's **result** at a table is each side's card points and loss points (R16–R17).
Results are compared only with results of the same board in the same direction:

* **better**, on the event's basis. Basis ``"card"`` (the default) is exact: fewer
  loss points first, then more card points; as loss points follow card points (R16),
  this is the card-point order, with a side that made no card points better off if it
  took a trick. Basis ``"loss"`` counts loss points alone: 75 and 80 card points, both
  won, are equal.
* **matchpoints**: for every other table's result on the board in the same direction,
  2 for better, 1 for equal, 0 for worse. The top on a board played at *n* tables is
  ``2 × (n − 1)``.
* **difference** (a two-table match): a side's net at its table is the other side's
  loss points minus its own; its score on the board is its net minus the net of the
  same direction at the other table, from −12 to +12.

The standings sum each pair's board scores as a percentage of the most it could have
scored on the boards it played: matchpoints over the tops; a difference ``d`` over
``b`` boards as ``50 + 50 × d / (12 × b)`` (so 50 % is level). Bot pairs and pairs that
played no board are listed but take no place; equal percentages share a place.

The **movement** is a round robin (the circle method): with *N* pairs at *N/2* tables,
every pair meets every other once in *N − 1* rounds; a pair's direction alternates, so
over a cycle it plays about as many boards as A as it plays as B. A second cycle repeats
the meetings with the directions swapped.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

SIDES = ("A", "B")
MATCHPOINTS = "matchpoints"
DIFFERENCE = "difference"
BASIS_CARD = "card"
BASIS_LOSS = "loss"
#: The widest a difference on one board can be: 6 loss points against none, each way.
DIFFERENCE_TOP = 12


def board_dealer(number: int) -> tuple[int, int]:
    """The dealer and the first player of board ``number`` (1-based).

    The deal rotates round the table board by board, so no direction always holds the
    lead; the first player is the dealer's left-hand neighbour (R4).

    >>> [board_dealer(n) for n in (1, 2, 3, 4, 5)]
    [(0, 1), (1, 2), (2, 3), (3, 0), (0, 1)]
    """
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        raise ValueError(f"a board number is a positive integer, got {number!r}")
    dealer = (number - 1) % 4
    return dealer, (dealer + 1) % 4


@dataclass(frozen=True)
class Seating:
    """One table of one round: which pair plays side A (seats 0, 2) and which side B."""

    table: int
    a_pair: int
    b_pair: int


def movement(pairs: Sequence[int], rounds: int) -> list[list[Seating]]:
    """The tables of each round for ``pairs`` (an even number, at least four).

    The circle method: the first pair stays put at table 1, the others turn one place a
    round, so every pair meets every other once in ``N − 1`` rounds. At each table the
    pair that has played A less often plays A (then the one that played B last round):
    over a whole cycle every pair plays A in half its rounds, rounded up or down, and
    never more than one and a half rounds off half along the way. Rounds beyond
    ``N − 1`` start the cycle again with every direction swapped.
    """
    if len(pairs) < 4 or len(pairs) % 2:
        raise ValueError(f"duplicate needs an even number of pairs, at least 4; got {len(pairs)}")
    if len(set(pairs)) != len(pairs):
        raise ValueError("a pair can sit at only one table")
    if rounds < 1:
        raise ValueError(f"at least one round, got {rounds}")
    n = len(pairs)
    fixed, ring = pairs[0], list(pairs[1:])
    as_a: Counter[int] = Counter()
    last_a: set[int] = set()
    cycle: list[list[Seating]] = []
    for number in range(n - 1):
        turned = ring[number:] + ring[:number]
        upper, lower = [fixed, *turned[: n // 2 - 1]], list(reversed(turned[n // 2 - 1:]))
        tables = []
        for table, (x, y) in enumerate(zip(upper, lower, strict=True), start=1):
            # The pair that has played A less often plays A; then the one that played B
            # last round; then the upper row.
            a, b = min((x, y), (y, x), key=lambda ab: (as_a[ab[0]], ab[0] in last_a, ab != (x, y)))
            tables.append(Seating(table, a, b))
        as_a.update(s.a_pair for s in tables)
        last_a = {s.a_pair for s in tables}
        cycle.append(tables)
    out = []
    for number in range(rounds):
        tables = cycle[number % (n - 1)]
        if (number // (n - 1)) % 2:
            tables = [Seating(s.table, s.b_pair, s.a_pair) for s in tables]
        out.append(tables)
    return out


@dataclass(frozen=True)
class BoardResult:
    """What one table made of one board (R16–R17), with the pair in each direction."""

    board: int
    table: int
    a_pair: int
    b_pair: int
    points: Mapping[str, int]
    loss_points: Mapping[str, int]

    def __post_init__(self) -> None:
        for what in (self.points, self.loss_points):
            if set(what) != set(SIDES):
                raise ValueError(f"a result names sides A and B, got {sorted(what)}")
        if self.points["A"] + self.points["B"] != 120 or min(self.points.values()) < 0:
            raise ValueError(f"R3: the card points add up to 120, got {dict(self.points)}")
        expected = loss_points_of(self.points["A"], self.points["B"])
        if self.loss_points != expected and not _trickless(self.points, self.loss_points):
            raise ValueError(f"R16: card points {dict(self.points)} give loss points "
                             f"{expected}, not {dict(self.loss_points)}")

    def pair(self, side: str) -> int:
        return self.a_pair if side == "A" else self.b_pair


def loss_points_of(points_a: int, points_b: int) -> dict[str, int]:
    """R16–R17: the loss points card points give when the loser took a trick.

    A side with no card points may also have taken no trick at all (6 instead of 4);
    card points alone cannot tell, so results carry both figures.

    >>> loss_points_of(60, 60), loss_points_of(75, 45), loss_points_of(95, 25)
    ({'A': 0, 'B': 0}, {'A': 0, 'B': 2}, {'A': 0, 'B': 4})
    """
    if points_a == points_b:
        return {"A": 0, "B": 0}
    loser, lost_with = ("B", points_b) if points_a > points_b else ("A", points_a)
    out = {"A": 0, "B": 0}
    out[loser] = 2 if lost_with >= 31 else 4
    return out


def _trickless(points: Mapping[str, int], loss_points: Mapping[str, int]) -> bool:
    """R16: 6 loss points for a side with no card points, which may have taken no trick."""
    return any(points[s] == 0 and loss_points[s] == 6 and loss_points[o] == 0
               for s, o in (("A", "B"), ("B", "A")))


def _key(result: BoardResult, side: str, basis: str) -> tuple[int, ...]:
    """Smaller is better: the order of results in one direction on the event's basis."""
    loss, card = result.loss_points[side], result.points[side]
    return (loss,) if basis == BASIS_LOSS else (loss, -card)


def matchpoints(results: Sequence[BoardResult],
                basis: str = BASIS_CARD) -> dict[tuple[int, str], int]:
    """Each (table, side)'s matchpoints on one board: 2 per result beaten, 1 per equal."""
    _check_one_board(results)
    if basis not in (BASIS_LOSS, BASIS_CARD):
        raise ValueError(f"the basis is {BASIS_LOSS!r} or {BASIS_CARD!r}, got {basis!r}")
    scores: dict[tuple[int, str], int] = {}
    for side in SIDES:
        keys = {r.table: _key(r, side, basis) for r in results}
        for table, own in keys.items():
            scores[(table, side)] = sum(2 if own < other else 1 if own == other else 0
                                        for t, other in keys.items() if t != table)
    return scores


def difference(results: Sequence[BoardResult]) -> dict[tuple[int, str], int]:
    """Each (table, side)'s difference on a board played at exactly two tables."""
    _check_one_board(results)
    if len(results) != 2:
        raise ValueError(f"a difference compares two tables, got {len(results)}")

    def net(result: BoardResult, side: str) -> int:
        other = "B" if side == "A" else "A"
        return result.loss_points[other] - result.loss_points[side]

    first, second = results
    return {(r.table, side): net(r, side) - net(o, side)
            for r, o in ((first, second), (second, first)) for side in SIDES}


def _check_one_board(results: Sequence[BoardResult]) -> None:
    if len({r.board for r in results}) > 1:
        raise ValueError("results of one board only")
    tables = [r.table for r in results]
    if len(set(tables)) != len(tables):
        raise ValueError("one result per table")


@dataclass(frozen=True)
class PairInfo:
    """A pair as the standings see it."""

    id: int
    name: str = ""
    is_bot: bool = False


@dataclass
class Standing:
    """One line of the duplicate standings."""

    pair: PairInfo
    boards: int = 0
    score: int = 0
    top: int = 0
    place: int | None = None
    by_board: dict[int, int] = field(default_factory=dict)

    def percent(self, scoring: str) -> Fraction:
        if not self.boards:
            return Fraction(0)
        if scoring == DIFFERENCE:
            return 50 + Fraction(50 * self.score, DIFFERENCE_TOP * self.boards)
        return Fraction(100 * self.score, self.top) if self.top else Fraction(50)


def board_scores(results: Iterable[BoardResult], scoring: str = MATCHPOINTS,
                 basis: str = BASIS_CARD) -> dict[int, dict[tuple[int, str], tuple[int, int]]]:
    """Per board, each (table, side)'s ``(score, top)``."""
    by_board: dict[int, list[BoardResult]] = {}
    for result in results:
        by_board.setdefault(result.board, []).append(result)
    out: dict[int, dict[tuple[int, str], tuple[int, int]]] = {}
    for board, played in by_board.items():
        if scoring == DIFFERENCE:
            out[board] = {k: (v, DIFFERENCE_TOP) for k, v in difference(played).items()}
        elif scoring == MATCHPOINTS:
            top = 2 * (len(played) - 1)
            out[board] = {k: (v, top) for k, v in matchpoints(played, basis).items()}
        else:
            raise ValueError(f"scoring is {MATCHPOINTS!r} or {DIFFERENCE!r}, got {scoring!r}")
    return out


def standings(pairs: Sequence[PairInfo], results: Sequence[BoardResult],
              scoring: str = MATCHPOINTS, basis: str = BASIS_CARD) -> list[Standing]:
    """The pairs in order of their percentage; places for people's pairs that played."""
    rows = {p.id: Standing(p) for p in pairs}
    scores = board_scores(results, scoring, basis)
    for result in results:
        for side in SIDES:
            row = rows.get(result.pair(side))
            if row is None:
                raise ValueError(f"pair {result.pair(side)} is not in the event")
            score, top = scores[result.board][(result.table, side)]
            row.boards += 1
            row.score += score
            row.top += top
            row.by_board[result.board] = score
    ordered = sorted(rows.values(), key=lambda r: (-r.percent(scoring), r.pair.is_bot, r.pair.id))
    placed = [r for r in ordered if not r.pair.is_bot and r.boards]
    for index, row in enumerate(placed):
        previous = placed[index - 1] if index else None
        same = previous is not None and previous.percent(scoring) == row.percent(scoring)
        row.place = previous.place if same and previous is not None else index + 1
    return ordered


def unfinished_boards(seatings: Sequence[Seating], boards: Iterable[int],
                      results: Iterable[BoardResult]) -> set[int]:
    """The boards of a round not yet played at every one of its tables.

    Until a board is finished everywhere its seed, hands and results stay hidden from
    every player of the event (R19 across tables).
    """
    done = Counter(r.board for r in results if r.table in {s.table for s in seatings})
    return {b for b in boards if done[b] < len(seatings)}
