"""What the Swiss pairer is fed from stored matches: a forfeit is no meeting, its winner
is barred from the bye like an entry that had one, and floats follow the scores."""

from __future__ import annotations

from collections import Counter

import pytest
from django.utils import timezone

from games.tournaments.models import Match, MatchSide, Round
from games.tournaments.pairing import pair_key
from games.tournaments.services import rounds
from tests.tournaments.helpers import enter_pairs, event

pytestmark = pytest.mark.django_db


def finished(round_, number, a, b=None, outcome="A", forfeit=False):
    match = Match.objects.create(round=round_, number=number, outcome=outcome,
                                 forfeit=forfeit, status=Match.Status.FINISHED,
                                 finished_at=timezone.now())
    MatchSide.objects.create(match=match, side="A", slot=0, entry=a)
    if b is not None:
        MatchSide.objects.create(match=match, side="B", slot=0, entry=b)


def test_forfeits_are_no_meeting_and_bar_the_winner_from_the_bye(club_cast):
    t = event(club_cast)
    e1, e2, e3, e4, e5 = enter_pairs(t, club_cast.players[:10])
    r1 = Round.objects.create(tournament=t, number=1, status=Round.Status.FINISHED)
    finished(r1, 1, e1, e2)  # played: 1 beats 2
    finished(r1, 2, e3, e4, outcome="B", forfeit=True)  # 3 did not come: 4 wins
    finished(r1, 3, e5, outcome="bye")
    history = rounds.swiss_history(t)
    assert history.meetings == Counter({pair_key(e1.pk, e2.pk): 1})
    assert history.forfeit_wins == Counter({e4.pk: 1})
    assert history.byes == Counter({e5.pk: 1})
    # Round 1 was paired with everybody on 0: no floats but the unplayed ones.
    assert history.floats == {e1.pk: ("",), e2.pk: ("",), e3.pk: ("down",),
                              e4.pk: ("down",), e5.pk: ("down",)}
    # The service pairs round 2 from it: the bye goes to an entry on 0 points.
    round_ = rounds.pair_round_locked(t, 2)
    bye = round_.matches.get(outcome="bye").sides.get().entry_id
    assert bye in (e2.pk, e3.pk)
