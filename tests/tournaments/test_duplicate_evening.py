"""A whole duplicate evening on a real Celery worker (issue 41): 3 rounds, 4 pairs (three
pairs of people and a bot pair), 2 boards a round, matchpoints on card points.

The people play through the services as their browsers would (games/tournaments/
evening.py: check in, a legal action on their turn); bot turns, the next game, the
match's end after its last board, the next round and the boards' reveal are the
worker's. At the end the standings are checked against matchpoints computed here by
hand from the stored results (R16–R17: fewer loss points is better, then more card
points), and every board against its stored seed at every table (R4–R6).

Run alone (about a minute):
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/kozel REDIS_URL=redis://127.0.0.1:6379/0 \\
    .venv/bin/python -m pytest tests/tournaments/test_duplicate_evening.py -p no:cacheprovider -s
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from fractions import Fraction

import pytest

from games import engine
from games.models import Game, GameResult, Series, Termination
from games.selectors import game_record
from games.tournaments import duplicate_reads, evening
from games.tournaments.models import Board, BoardPlay, Match, Tournament
from tests.games.helpers import assert_games_verified
from tests.tournaments.helpers import act, enter_pairs, event
from tests.waiting import wait_for

pytestmark = [pytest.mark.worker, pytest.mark.slow]

BOARDS, ROUNDS = 2, 3


def _idle(check, seconds):
    wait_for(check, seconds, "a person's turn, a check-in or the end of the evening")


def _hand_matchpoints(plays: list[BoardPlay]) -> dict[int, tuple[int, int]]:
    """Each pair's (matchpoints, top) over the event, worked out from the stored results
    without the scoring code: on each board, each side's result is compared with the
    same direction's result at every other table; fewer loss points is better, then
    more card points; 2 for better, 1 for equal, 0 for worse; the top is 2 per other
    table."""
    by_board = defaultdict(list)
    for p in plays:
        by_board[p.board_id].append(p)
    total: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for tables in by_board.values():
        for p in tables:
            for side in "AB":
                mine = ((p.loss_a, -p.points_a) if side == "A" else (p.loss_b, -p.points_b))
                pair = p.a_entry_id if side == "A" else p.b_entry_id
                for other in tables:
                    if other.pk == p.pk:
                        continue
                    theirs = ((other.loss_a, -other.points_a) if side == "A"
                              else (other.loss_b, -other.points_b))
                    total[pair][0] += 2 if mine < theirs else 1 if mine == theirs else 0
                    total[pair][1] += 2
    return {pair: (score, top) for pair, (score, top) in total.items()}


def test_a_duplicate_evening_of_three_rounds_and_four_pairs_on_a_real_worker(
        club_cast, celery_worker):
    t = event(club_cast, fmt="duplicate", rounds=ROUNDS, boards_per_round=BOARDS,
              bots_allowed=True, checkin_seconds=120)
    people = enter_pairs(t, club_cast.players[:6])
    act(t, club_cast.director, "add_bot", level="random")
    act(t, club_cast.director, "start")
    took = evening.run(t, random.Random(41), timeout=600, idle=_idle)
    print(f"\nduplicate evening, 4 pairs (1 bot), {ROUNDS} rounds x {BOARDS} boards: "
          f"{took:.1f} s on the worker")

    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    matches = list(Match.objects.filter(round__tournament=t).prefetch_related("sides"))
    assert len(matches) == ROUNDS * 2 and not [m for m in matches if m.forfeit]
    # The movement: every pair meets every other pair exactly once in three rounds, and
    # plays one round more in one direction than the other at most.
    met, as_a = Counter(), Counter()
    for m in matches:
        sides = {s.side: s.entry_id for s in m.sides.all()}
        met[frozenset(sides.values())] += 1
        as_a[sides["A"]] += 1
    assert len(met) == 6 and set(met.values()) == {1}
    assert all(1 <= as_a[e] <= 2 for e in t.entries.values_list("pk", flat=True))

    # Each match is a series of exactly the round's boards: no series to 12 (R18).
    series = Series.objects.filter(tournament_match__round__tournament=t)
    assert all(s.termination == Termination.GAME_LIMIT for s in series)
    assert all(s.games.filter(status=Game.Status.FINISHED).count() == BOARDS for s in series)
    unfinished = list(Game.objects.filter(series__in=series).exclude(
        status=Game.Status.FINISHED).values_list("series_id", "number", "status",
                                                 "termination"))
    assert not unfinished

    # R4–R6: every board dealt from its stored seed, dealer and first player at both
    # tables of its round: the same hands everywhere.
    boards = list(Board.objects.filter(tournament=t).order_by("number"))
    assert [b.number for b in boards] == list(range(1, ROUNDS * BOARDS + 1))
    assert len({b.seed for b in boards}) == len(boards)
    for board in boards:
        assert board.public_at is not None
        games = list(Game.objects.filter(series__tournament_match__round=board.round,
                                         number=board.position))
        assert len(games) == 2
        for game in games:
            assert (game.seed, game.dealer, game.first_leader) == (
                board.seed, board.dealer, board.first_player)
        dealt = engine.new_game(board.seed, board.dealer, board.first_player)
        for game in games:
            assert game_record(game)["hands"] == dealt.start.to_dict()["hands"]

    # The stored results are the games' own (R16–R17).
    plays = list(BoardPlay.objects.filter(board__tournament=t).select_related("board"))
    assert len(plays) == ROUNDS * BOARDS * 2
    for p in plays:
        result = GameResult.objects.get(game=p.game)
        assert (p.points_a, p.points_b, p.loss_a, p.loss_b) == (
            result.points_a, result.points_b, result.loss_points_a, result.loss_points_b)
        assert p.game.number == p.board.position

    # The standings, against the matchpoints worked out by hand.
    hand = _hand_matchpoints(plays)
    rows = duplicate_reads.standings(t).rows
    assert {r.entry.pk: (r.score, r.top) for r in rows} == hand
    for row in rows:
        score, top = hand[row.entry.pk]
        assert row.percent == Fraction(100 * score, top)
        assert row.boards == ROUNDS * BOARDS
    bot = t.entries.exclude(bot_level="").get()
    assert next(r for r in rows if r.entry.pk == bot.pk).place is None
    placed = sorted((r for r in rows if r.place is not None), key=lambda r: r.place)
    assert {r.entry.pk for r in placed} == {e.pk for e in people}
    assert placed[0].place == 1
    percents = [Fraction(100 * hand[r.entry.pk][0], hand[r.entry.pk][1]) for r in placed]
    assert percents == sorted(percents, reverse=True)

    # The traveller of each board shows both tables' results and their scores.
    for board in boards:
        (view,) = duplicate_reads.board_views(t, board.number)
        assert view.public and len(view.lines) == 2
        assert all(line.score_a + line.score_b == 2 for line in view.lines)
    assert_games_verified()
