"""Duplicate events' writes: a round's boards, each table's results, the boards' reveal.

A duplicate round is paired by the movement (pairings.py, ``duplicate.movement``) and
started like any pairs round (rounds.py); its boards are created here at its start, and
each match's series deals game k from board k (a ``games.policy`` deal plan,
board_reads.planned_deal) and ends after the last board (the event's ``games_limit``,
equal to ``boards_per_round``; the table's target is out of reach,
``games.models.FIXED_DEALS_TARGET``).

When a game of a duplicate match ends its result is stored as a :class:`BoardPlay`
(:func:`record_plays_locked`, from the game's own GameResult, so it is what was
played); a board becomes public when no table of its round can still play it
(:func:`refresh_public_locked`): from then on its seed, hands, results, traveller and
its effect on the standings may be shown (R19 across tables).

Callers hold the tournament's lock order: Tournament → Round → Match.
"""

from __future__ import annotations

import secrets
from functools import partial

from django.db.models import Count
from django.utils import timezone

from games.events import Message, send_event_on_commit, send_events_on_commit
from games.models import Game, GameResult
from games.services import publish as game_publish
from games.tournaments import duplicate, publish
from games.tournaments.models import Board, BoardPlay, Match, Round, Tournament


def _tables_changed(table_ids: list[int]) -> list[Message]:
    """Every table of the round refreshes its snapshot (the held record appears)."""
    return [message for table in table_ids for message in game_publish.table_changed(table)]


def create_boards_locked(t: Tournament, round_: Round) -> list[Board]:
    """The round's boards, numbered on from the previous rounds': a seed each from the
    OS's cryptographic source (R5), the dealer and first player by the board's place in
    the round (``duplicate.board_dealer``). Idempotent: a round keeps its boards."""
    existing = list(round_.boards.order_by("position"))
    if existing:
        return existing
    per_round = t.boards_per_round or 0
    first = (round_.number - 1) * per_round
    boards = []
    for position in range(1, per_round + 1):
        dealer, first_player = duplicate.board_dealer(position)
        boards.append(Board(tournament=t, round=round_, number=first + position,
                            position=position, seed=secrets.randbits(63), dealer=dealer,
                            first_player=first_player))
    return Board.objects.bulk_create(boards)


def settle_round_locked(t: Tournament, round_: Round) -> int:
    """Store every table's new board results, then reveal the boards now played
    everywhere (idempotent: the game's end, the match's end and the beat all call it).
    Returns how many results were new. Caller holds the tournament and the round."""
    if not t.is_duplicate:
        return 0
    made = sum(record_plays_locked(t, round_, match)
               for match in round_.matches.filter(series__isnull=False))
    refresh_public_locked(t, round_)
    return made


def record_plays_locked(t: Tournament, round_: Round, match: Match) -> int:
    """Store what ``match``'s table made of each board it has finished (idempotent).
    Returns how many results were new. Caller holds the tournament and the round (every
    writer of a match holds them first)."""
    if not t.is_duplicate or match.series_id is None:
        return 0
    boards = {b.position: b for b in round_.boards.all()}
    done = set(match.board_plays.values_list("board__position", flat=True))
    sides = dict(match.sides.values_list("side", "entry_id"))
    made = 0
    for game in (Game.objects.filter(series_id=match.series_id, status=Game.Status.FINISHED,
                                     number__in=set(boards) - done)
                 .order_by("number")):
        result = GameResult.objects.filter(game=game).first()
        if result is None:
            continue
        BoardPlay.objects.create(
            board=boards[game.number], match=match, game=game,
            a_entry_id=sides["A"], b_entry_id=sides["B"],
            points_a=result.points_a, points_b=result.points_b,
            loss_a=result.loss_points_a, loss_b=result.loss_points_b)
        made += 1
    return made


def refresh_public_locked(t: Tournament, round_: Round) -> list[Board]:
    """Make public every board of the round that no table can still play: each match
    has either played it or is over (a forfeit, the time limit). Returns the boards
    revealed now; their tables are told on commit, so the held end-of-game record and
    the traveller appear. Caller holds the tournament and the round."""
    if not t.is_duplicate:
        return []
    matches = list(round_.matches.values_list("pk", "status", "table_id"))
    open_matches = {pk for pk, status, _table in matches if status != Match.Status.FINISHED}
    played = dict(BoardPlay.objects.filter(board__round=round_, match_id__in=open_matches)
                  .values("board_id").annotate(n=Count("match_id", distinct=True))
                  .values_list("board_id", "n"))
    now = timezone.now()
    revealed = [b for b in round_.boards.filter(public_at__isnull=True)
                if played.get(b.pk, 0) >= len(open_matches)]
    if revealed:
        Board.objects.filter(pk__in=[b.pk for b in revealed]).update(public_at=now)
        tables = [table for _pk, _status, table in matches if table is not None]
        send_events_on_commit(partial(_tables_changed, tables))
        send_event_on_commit(*publish.changed(t.pk))
    return revealed
