"""A director's correction of a result: checked against the match's format (R16–R18),
shown as the standings before and after and saved only when confirmed, told to the
match's players; going back to the played result removes the "corrected" mark."""

from __future__ import annotations

import pytest

from accounts.social import notify
from accounts.social.models import Notification
from games.errors import InvalidRequestError, ServiceError, TableStateError
from games.tournaments import selectors
from games.tournaments.models import AuditEntry, Match
from games.tournaments.services import corrections, director
from games.tournaments.services.corrections import MatchFormat, result_error
from tests.tournaments.helpers import act, correct, enter_pairs, event, play_round

pytestmark = pytest.mark.django_db

TO_12 = MatchFormat(limit=12)
TO_6 = MatchFormat(limit=6)
TWO_GAMES = MatchFormat(limit=18, games=2)

# (format, outcome, loss A, loss B, forfeit, possible), each worked out by hand from the
# rules: a game gives one side 2, 4 or 6 loss points or nobody any (R16, R17); reaching
# the limit makes that side the goat, the loser (R18); the last game starts below it.
MATRIX = [
    # The reproduction: "A won" with A 6 / B 0 has the winner with more loss points.
    (TO_12, "A", 6, 0, False, False),
    (TO_12, "A", 0, 12, False, True),       # B reached 12: the goat
    (TO_12, "B", 12, 4, False, True),
    (TO_12, "A", 10, 16, False, True),      # 10 + 6 = 16: the most a loser ends with
    (TO_12, "A", 10, 18, False, False),     # 18 cannot follow a total below 12
    (TO_12, "A", 12, 14, False, False),     # the winner cannot be a goat
    (TO_12, "A", 4, 8, False, True),        # ended early (time): fewer loss points win
    (TO_12, "A", 4, 4, False, False),       # equal: a tie, not a win
    (TO_12, "A", 3, 12, False, False),      # odd: no game gives 1 or 3
    (TO_12, "tie", 6, 6, False, True),
    (TO_12, "tie", 0, 0, False, True),
    (TO_12, "tie", 4, 6, False, False),
    (TO_12, "tie", 12, 12, False, False),   # both goats: no such series
    (TO_12, "none", 0, 0, True, True),      # a double forfeit
    (TO_12, "none", 2, 0, True, False),
    (TO_12, "A", 0, 0, True, True),         # a forfeit win: not played, no loss points
    (TO_12, "A", 0, 12, True, False),
    (TO_12, "C", 0, 12, False, False),
    (TO_6, "A", 4, 6, False, True),
    (TO_6, "B", 10, 2, False, True),        # 4 + 6
    (TO_6, "B", 12, 2, False, False),
    (TO_6, "A", 6, 8, False, False),
    (TWO_GAMES, "A", 0, 12, False, True),   # two games, 6 each
    (TWO_GAMES, "A", 2, 12, False, False),  # needs a third game
    (TWO_GAMES, "tie", 6, 6, False, True),
    (TWO_GAMES, "A", 0, 14, False, False),
    (TWO_GAMES, "B", 4, 2, False, True),
]


@pytest.mark.parametrize(("fmt", "outcome", "loss_a", "loss_b", "forfeit", "possible"),
                         MATRIX)
def test_r16_r18_a_correction_must_be_a_possible_result(fmt, outcome, loss_a, loss_b,
                                                       forfeit, possible):
    error = result_error(fmt, outcome, loss_a, loss_b, forfeit)
    assert (error is None) == possible, error


def _finished_event(club_cast, **kw):
    t = event(club_cast, rounds=2, **kw)
    enter_pairs(t, club_cast.players[:8])
    act(t, club_cast.director, "start")
    play_round(t.round_set.get(number=1), goat="B", loss=(4, 12))
    return t, Match.objects.get(round__tournament=t, round__number=1, number=1)


def _data(match, **kw):
    return {"match_id": str(match.pk), "reason": "score sheet",
            **{k: str(v) for k, v in kw.items()}}


def _stored(match):
    match.refresh_from_db()
    return (match.outcome, match.loss_a, match.loss_b, match.forfeit, match.corrected)


def test_r18_the_issues_impossible_result_is_refused_and_changes_nothing(club_cast):
    t, match = _finished_event(club_cast)
    before = _stored(match)
    with pytest.raises(InvalidRequestError, match="fewer loss points"):
        correct(t, club_cast.director, **_data(match, outcome="A", loss_a=6, loss_b=0))
    with pytest.raises(InvalidRequestError, match="even"):
        correct(t, club_cast.director, **_data(match, outcome="B", loss_a=13, loss_b=4))
    with pytest.raises(InvalidRequestError, match="already"):
        correct(t, club_cast.director, **_data(match, outcome="A", loss_a=4, loss_b=12))
    assert _stored(match) == before
    assert not AuditEntry.objects.filter(tournament=t, action="result.correct").exists()


def test_fixed_games_are_checked_against_their_number_of_games(club_cast):
    t, match = _finished_event(club_cast, games_limit=1)
    with pytest.raises(InvalidRequestError, match="1 games"):
        corrections.preview(t.pk, club_cast.director,
                            _data(match, outcome="A", loss_a=2, loss_b=6))
    preview = corrections.preview(t.pk, club_cast.director,
                                  _data(match, outcome="B", loss_a=6, loss_b=0))
    assert preview.figures == ("B", 6, 0, False)


def test_a_correction_needs_the_confirmation_of_this_very_change(club_cast):
    t, match = _finished_event(club_cast)
    tie = _data(match, outcome="tie", loss_a=8, loss_b=8)
    preview = corrections.preview(t.pk, club_cast.director, tie)
    assert _stored(match)[4] is False, "a preview writes nothing"
    with pytest.raises(InvalidRequestError, match="Confirm"):
        director.perform(t.pk, club_cast.director, "correct", tie)
    with pytest.raises(InvalidRequestError, match="another correction"):
        director.perform(t.pk, club_cast.director, "correct",
                         {**_data(match, outcome="B", loss_a=12, loss_b=8),
                          "confirm": preview.token})
    with pytest.raises(InvalidRequestError, match="Confirm"):
        director.perform(t.pk, club_cast.director, "correct",
                         {**tie, "confirm": preview.token[:-2] + "xx"})
    assert _stored(match) == ("A", 4, 12, False, False)
    # Somebody else corrected the match since: the old preview is stale.
    correct(t, club_cast.director, **_data(match, outcome="B", loss_a=12, loss_b=8))
    with pytest.raises(TableStateError, match="changed"):
        director.perform(t.pk, club_cast.director, "correct",
                         {**tie, "confirm": preview.token})
    assert _stored(match) == ("B", 12, 8, False, True)


def test_the_preview_shows_the_standings_before_and_after(club_cast):
    t, match = _finished_event(club_cast)
    a = match.sides.get(side="A").entry_id
    b = match.sides.get(side="B").entry_id
    preview = corrections.preview(t.pk, club_cast.director,
                                  _data(match, outcome="B", loss_a=12, loss_b=4))
    points = {r.entry.id: r.points for r in preview.before}
    after = {r.entry.id: r.points for r in preview.after}
    assert (points[a], points[b]) == (2, 0)   # by hand: a win is 2 match points
    assert (after[a], after[b]) == (0, 2)
    assert {r.entry.id: r.points for r in selectors.standings_of(t)} == points


def test_the_players_of_the_match_are_told(club_cast, django_capture_on_commit_callbacks):
    t, match = _finished_event(club_cast)
    people = {p for side in match.sides.all() for p in side.entry.people_ids}
    assert len(people) == 4
    with django_capture_on_commit_callbacks(execute=True):
        correct(t, club_cast.director, **_data(match, outcome="tie", loss_a=8, loss_b=8))
    notes = Notification.objects.filter(kind=Notification.Kind.RESULT)
    assert sorted(n.user_id for n in notes) == sorted(people)
    assert all(n.url == f"/tournament/{t.pk}/" for n in notes)
    assert notify.text_of(notes[0]) == ("A director corrected the result of your match in "
                                        "round 1 of Friday Cup.")


def test_returning_to_the_played_result_removes_the_corrected_mark(club_cast, client):
    t, match = _finished_event(club_cast)
    correct(t, club_cast.director, **_data(match, outcome="tie", loss_a=8, loss_b=8))
    assert _stored(match) == ("tie", 8, 8, False, True)
    correct(t, club_cast.director, **_data(match, outcome="B", loss_a=12, loss_b=4))
    assert _stored(match)[4] is True
    preview = corrections.preview(t.pk, club_cast.director,
                                  _data(match, outcome="A", loss_a=4, loss_b=12))
    assert preview.restores_played
    message = correct(t, club_cast.director, **_data(match, outcome="A", loss_a=4,
                                                     loss_b=12))
    assert "no longer marked corrected" in message
    assert _stored(match) == ("A", 4, 12, False, False)
    assert AuditEntry.objects.filter(tournament=t, action="result.correct").count() == 3
    client.force_login(club_cast.member)
    page = client.get(f"/tournament/{t.pk}/").content.decode()
    assert "corrected" not in page


def test_a_stranger_cannot_preview_or_correct(club_cast):
    t, match = _finished_event(club_cast)
    for user in (club_cast.member, club_cast.stranger, None):
        with pytest.raises(ServiceError):
            corrections.preview(t.pk, user, _data(match, outcome="tie", loss_a=8, loss_b=8))


def test_the_director_page_asks_to_confirm_with_the_standings(client, club_cast):
    t, match = _finished_event(club_cast)
    client.force_login(club_cast.director)
    form = {"action": "correct", "match_id": str(match.pk), "outcome": "B", "loss_a": "12",
            "loss_b": "4", "reason": "score sheet"}
    page = client.post(f"/tournament/{t.pk}/director/", form)
    assert page.status_code == 200
    html = page.content.decode()
    assert "Confirm the correction" in html
    assert "Side A won · loss points A 4, B 12" in html
    assert "Side B won · loss points A 12, B 4" in html
    assert html.count("<table class=\"standings\"") == 2
    assert _stored(match) == ("A", 4, 12, False, False), "nothing saved before the confirm"
    bad = client.post(f"/tournament/{t.pk}/director/",
                      {**form, "outcome": "A", "loss_a": "6", "loss_b": "0"}, follow=True)
    assert "fewer loss points" in bad.content.decode()
    done = client.post(f"/tournament/{t.pk}/director/",
                       {**form, "forfeit": "0", "confirm": page.context["token"]})
    assert done.status_code == 302
    assert _stored(match) == ("B", 12, 4, False, True)
