"""The API's response shapes (pydantic, through Django Ninja): what the OpenAPI schema at
``/api/docs`` documents and every answer is validated against before it leaves."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, Literal

from ninja import Schema

Team = Literal["A", "B"]


class Error(Schema):
    """Every refusal: 400 (bad parameters), 401, 403, 404, 429."""

    detail: Any


# The refusals any operation may answer: bad parameters, an unknown token, a suspended
# account, over a rate limit.
REFUSALS: dict[int, type[Schema]] = {400: Error, 401: Error, 403: Error, 429: Error}
# …and those that read one thing by its id or name.
NOT_FOUND: dict[int, type[Schema]] = {**REFUSALS, 404: Error}


class PlayerRef(Schema):
    """A person as every list names them; ``username`` is null for a bot's seat."""

    username: str | None
    name: str


class Rating(Schema):
    display: int
    provisional: bool
    series_rated: int
    series_won: int


class Totals(Schema):
    games_played: int
    games_won: int
    games_lost: int
    series_won: int
    series_lost: int
    goats: int
    eggs: int
    goats_with_eggs: int


class RatingPoint(Schema):
    at: datetime
    rating: int
    change: int


class Player(Schema):
    username: str
    name: str
    deleted: bool
    country: str
    bio: str
    joined: datetime
    rating: Rating
    totals: Totals
    rating_history: list[RatingPoint]


class GameLine(Schema):
    id: int
    number: int
    status: str
    loss_points: dict[str, int] | None
    record: str | None  # the URL of its record once played out


class SeriesLine(Schema):
    id: int
    table: int
    ranked: bool
    tournament: bool
    status: str
    started_at: datetime
    position: int
    team: Team
    partner: str
    opponents: list[str]
    result: str
    loss_points: dict[str, int]
    games: list[GameLine]


class SeriesPage(Schema):
    count: int
    page: int
    pages: int
    items: list[SeriesLine]


class Seat(Schema):
    position: int
    username: str | None
    name: str
    bot: str | None


class GameRecord(Schema):
    """A played-out game: who sat where, and the engine's record (docs/api.md)."""

    id: int
    series: int
    table: int
    number: int
    status: str
    void: bool
    finished_at: datetime | None
    seats: list[Seat]
    record: dict[str, Any]


class GameReview(Schema):
    """One seat's review (docs/api.md): ``decisions`` and ``summary`` once ``status`` is
    ``done``."""

    game: int
    seat: int
    status: str
    status_text: str
    decisions: list[dict[str, Any]]
    summary: dict[str, Any]


class LeaderRow(Schema):
    rank: int
    username: str
    name: str
    rating: int
    series_rated: int
    win_percent: int
    trend: int


class Leaderboard(Schema):
    page: int
    pages: int
    total: int
    your_rank: int | None
    rows: list[LeaderRow]


class BoardRow(Schema):
    rank: int
    username: str
    name: str
    count: int


class MonthlyBoards(Schema):
    """This month's boards: ranked series won, games won without losing a trick, goats."""

    month: date
    series_won: list[BoardRow]
    clean_games_won: list[BoardRow]
    goats: list[BoardRow]


class ClubLine(Schema):
    slug: str
    name: str
    country: str
    members: int


class Member(Schema):
    username: str
    name: str
    role: str


class TournamentLine(Schema):
    id: int
    name: str
    status: str


class ClubPoints(Schema):
    username: str
    points: int
    events: int


class Club(Schema):
    slug: str
    name: str
    description: str
    country: str
    language: str
    join_policy: str
    owner: str
    created_at: datetime
    members: list[Member]
    tournaments: dict[str, list[TournamentLine]]
    leaderboard: list[ClubPoints]


class Entry(Schema):
    id: int
    name: str
    players: list[str]
    bot: str | None
    status: str


class Tournament(Schema):
    id: int
    name: str
    club: str
    kind: str
    format: str
    status: str
    target: int
    games_limit: int | None
    rounds: int
    rated: bool
    starts_at: datetime | None
    finished_at: datetime | None
    entries: list[Entry]


class Match(Schema):
    number: int
    status: str
    table: int | None
    series: int | None
    side_a: list[int]
    side_b: list[int]
    outcome: str
    loss_a: int
    loss_b: int
    forfeit: bool
    corrected: bool


class Round(Schema):
    number: int
    status: str
    matches: list[Match]


class Pairings(Schema):
    rounds: list[Round]


class StandingRow(Schema):
    rank: int
    place: int | None
    entry: int
    name: str
    bot: bool
    points: int
    buchholz: float
    head_to_head: int
    loss_point_diff: int
    sonneborn_berger: float
    wins: int
    played: int


class DuplicateRow(Schema):
    place: int | None
    entry: int
    name: str
    bot: bool
    percent: float | None
    score: int
    top: int
    boards: int
    by_board: dict[str, int]


class DuplicateStandings(Schema):
    scoring: str
    basis: str
    boards: list[int]
    rows: list[DuplicateRow]


class Standings(Schema):
    rounds_completed: int
    rows: list[StandingRow]
    # A duplicate event's standings in percent over the boards every table has played,
    # with each pair's score per board; None for the other formats.
    duplicate: DuplicateStandings | None = None


class TravellerLine(Schema):
    table: int
    side_a: int
    side_b: int
    points_a: int
    points_b: int
    loss_a: int
    loss_b: int
    score_a: int
    score_b: int
    top: int
    game: int | None


class Board(Schema):
    number: int
    round: int
    public: bool
    tables: int
    finished: int
    results: list[TravellerLine]


class Boards(Schema):
    boards: list[Board]
