"""Individual rounds whose players are not a multiple of 4: with bots
allowed the last table is filled with labelled Casual bot entries (no byes, no prize
place for a bot); without bots the lowest-ranked eligible players sit out with a bye,
rotated, scored as a win (2 points, games/tournaments/standings.py)."""

from __future__ import annotations

from collections import Counter

import pytest

from games.models import Seat
from games.tournaments import selectors
from games.tournaments.models import AuditEntry, Entry, Match
from tests.tournaments.helpers import act, enter_players, event, play_round

pytestmark = pytest.mark.django_db


def _start(club_cast, bots_allowed: bool, players: int = 6, rounds: int = 2):
    t = event(club_cast, fmt="rotation", rounds=rounds, bots_allowed=bots_allowed)
    enter_players(t, club_cast.players[:players])
    act(t, club_cast.director, "start")
    return t


def test_six_players_with_bots_allowed_play_two_whole_tables_with_two_bots(club_cast):
    t = _start(club_cast, bots_allowed=True)
    bots = list(Entry.objects.filter(tournament=t).exclude(bot_level=""))
    assert [b.name for b in bots] == ["Bot Casual #1", "Bot Casual #2"]
    assert all(b.bot_level == "casual" and b.first_round == 1 for b in bots)
    assert AuditEntry.objects.filter(tournament=t, action="entry.bot", actor=None).count() == 2
    round_ = t.round_set.get(number=1)
    assert not round_.matches.filter(outcome="bye").exists()
    assert round_.matches.count() == 2
    # Every seat of both tables is taken: six people and the two bots' seats.
    tables = [m.table_id for m in round_.matches.all()]
    seats = Seat.objects.filter(table_id__in=tables)
    assert seats.filter(user__isnull=False).count() == 6
    assert seats.exclude(bot_level="").count() == 2
    play_round(round_)
    t.refresh_from_db()
    second = t.round_set.get(number=2)
    assert not second.matches.filter(outcome="bye").exists() and second.matches.count() == 2
    assert Entry.objects.filter(tournament=t).exclude(bot_level="").count() == 2, \
        "the same two bots again"
    act(t, club_cast.director, "start_round")
    play_round(t.round_set.get(number=2))
    t.refresh_from_db()
    assert t.status == "finished"
    rows = selectors.standings_of(t)
    people = [r for r in rows if not r.entry.is_bot]
    assert sorted(r.place for r in people) == [1, 2, 3, 4, 5, 6]
    assert all(r.place is None for r in rows if r.entry.is_bot)
    assert all(r.played == 2 for r in people)


def test_a_withdrawal_is_filled_by_one_more_bot(club_cast):
    t = _start(club_cast, bots_allowed=True, players=7, rounds=2)
    assert Entry.objects.filter(tournament=t).exclude(bot_level="").count() == 1
    leaver = Entry.objects.get(tournament=t, player1=club_cast.players[0])
    act(t, club_cast.director, "withdraw_entry", entry_id=leaver.pk)
    play_round(t.round_set.get(number=1))
    second = t.round_set.get(number=2)
    assert Entry.objects.filter(tournament=t).exclude(bot_level="").count() == 2
    assert not second.matches.filter(outcome="bye").exists() and second.matches.count() == 2


def test_six_players_without_bots_give_two_byes_to_the_lowest_ranked_rotated(club_cast):
    t = _start(club_cast, bots_allowed=False, rounds=3)
    assert not Entry.objects.filter(tournament=t).exclude(bot_level="").exists()
    byes = Counter()
    for number in (1, 2, 3):
        round_ = t.round_set.get(number=number)
        bye_matches = round_.matches.filter(outcome="bye")
        assert bye_matches.count() == 2 and round_.matches.count() == 3
        got = [m.sides.get().entry_id for m in bye_matches]
        assert all(byes[e] == 0 for e in got), "only to players without a bye yet"
        # The lowest-ranked of those: no one left out of the byes had fewer points
        # before this round (the standings already count this round's byes as wins).
        before = {r.entry.id: r.points - 2 * (r.entry.id in got)
                  for r in selectors.standings_of(t)}
        others = [e for e in before if byes[e] == 0 and e not in got]
        assert max(before[e] for e in got) <= min((before[e] for e in others), default=99)
        byes.update(got)
        if number > 1:
            act(t, club_cast.director, "start_round")
        play_round(t.round_set.get(number=number))
    assert sorted(byes.values()) == [1] * 6, "three rounds of two byes: each player once"
    rows = {r.entry.id: r for r in selectors.standings_of(t)}
    for entry_id in byes:
        bye = Match.objects.get(round__tournament=t, outcome="bye", sides__entry_id=entry_id)
        assert bye.status == "finished"
        assert rows[entry_id].points >= 2, "a bye is scored as a win"
