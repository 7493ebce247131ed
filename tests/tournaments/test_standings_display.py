"""How the standings are shown: no places before a round is finished, none for a
withdrawn or bot entry, head-to-head only where it separated a tie, cross-table numbers
that are the places (a letter for an entry without one), results in loss points.

The first tests are pure (standings.compute), worked by hand; the last ones read the
tournament page of a real event with a bot pair."""

from __future__ import annotations

import re

import pytest

from games.tournaments.models import Match
from games.tournaments.standings import compute
from tests.tournaments.helpers import act, enter_pairs, event, play_round
from tests.tournaments.test_standings import E, R, by_id


def test_no_places_before_a_round_is_finished():
    rows = compute(E(1, 2, 3, 4), [], rounds_completed=0)
    assert [r.place for r in rows] == [None] * 4
    assert sorted(r.number for r in rows) == ["a", "b", "c", "d"]


def test_a_withdrawn_entry_and_a_bot_keep_no_place_and_the_places_run_on():
    # R1: 1 beats 2 (4 v 12), 3 beats 4 (0 v 12). 1 and 3 have 2 points, Buchholz 0
    # each (their opponents have 0), head-to-head 0 each; loss-point difference 1: +8,
    # 3: +12, so 3 then 1. 2 and 4: 0 points, Buchholz 2 each; LPD 2: −8, 4: −12.
    # Order 3, 1, 2, 4. Entry 4 is a bot and entry 1 withdrew: places 3 → 1, 2 → 2.
    results = [R(1, 1, 2, "A", 4, 12), R(1, 3, 4, "A", 0, 12)]
    rows = by_id(compute(E(1, 2, 3, 4, bots=(4,), withdrawn=(1,)), results, 1))
    assert {i: rows[i].place for i in rows} == {3: 1, 1: None, 2: 2, 4: None}
    # The cross-table's numbers: the places, then letters in standings order (1, then 4).
    assert {i: rows[i].number for i in rows} == {3: "1", 1: "a", 2: "2", 4: "b"}


def test_head_to_head_is_not_shown_where_the_tied_entries_never_met():
    # Six entries, two rounds, every win 4 v 12.
    # R1: 1 beats 2, 3 beats 4, 5 beats 6. R2: 4 beats 1, 6 beats 2, 3 beats 5.
    # Points: 1:2 2:0 3:4 4:2 5:2 6:2.
    # Buchholz: 1: 2(0)+4(2) = 2; 6: 5(2)+2(0) = 2; 4: 3(4)+1(2) = 6; 5: 6(2)+3(4) = 6.
    # Tied groups {1, 6} (2 points, Buchholz 2) and {4, 5} (2 points, Buchholz 6): in
    # neither did the two meet, head-to-head 0 each: it decided nothing.
    results = [R(1, 1, 2, "A", 4, 12), R(1, 3, 4, "A", 4, 12), R(1, 5, 6, "A", 4, 12),
               R(2, 4, 1, "A", 4, 12), R(2, 6, 2, "A", 4, 12), R(2, 3, 5, "A", 4, 12)]
    rows = by_id(compute(E(1, 2, 3, 4, 5, 6), results, 2))
    assert {i: rows[i].points for i in rows} == {1: 2, 2: 0, 3: 4, 4: 2, 5: 2, 6: 2}
    assert {i: rows[i].buchholz for i in (1, 6, 4, 5)} == {1: 2, 6: 2, 4: 6, 5: 6}
    assert not any(r.head_to_head_decides for r in rows.values())


def test_head_to_head_is_not_shown_when_everyone_in_the_group_scores_the_same():
    # R1: 1 beats 2 by forfeit, 3 beats 4 (4 v 12). R2: 2 beats 3, 4 beats 1 (4 v 12).
    # Points 2 each. Buchholz (a forfeit round counts the virtual opponent, 2 completed
    # rounds = 2): 1: 2 + 4(2) = 4; 2: 2 + 3(2) = 4; 3: 4(2) + 2(2) = 4; 4: 3(2) + 1(2)
    # = 4. One group of four; head-to-head (forfeits included): 1: 2 + 0; 2: 0 + 2;
    # 3: 2 + 0; 4: 0 + 2: 2 each, so it decided nothing.
    results = [R(1, 1, 2, "A", forfeit=True), R(1, 3, 4, "A", 4, 12),
               R(2, 2, 3, "A", 4, 12), R(2, 4, 1, "A", 4, 12)]
    rows = by_id(compute(E(1, 2, 3, 4), results, 2))
    assert {i: rows[i].head_to_head for i in rows} == {1: 2, 2: 2, 3: 2, 4: 2}
    assert not any(r.head_to_head_decides for r in rows.values())


def test_head_to_head_is_shown_when_it_separates_the_tied_entries():
    # R1: 1 beats 2, 3 beats 4. R2: 2 beats 3, 4 beats 1. R3: 1 beats 3, 2 beats 4
    # (every win 4 v 12). Points 1:4 2:4 3:2 4:2. Buchholz (sum of the opponents'
    # points): 1: 2(4)+4(2)+3(2) = 8; 2: 1(4)+3(2)+4(2) = 8; 3: 4(2)+2(4)+1(4) = 10;
    # 4: 3(2)+1(4)+2(4) = 10. Group {1, 2} (4 points, Buchholz 8): 1 beat 2, so 1: 2 and
    # 2: 0, separated. Group {3, 4} (2 points, Buchholz 10): 3 beat 4, 3: 2 and 4: 0.
    results = [R(1, 1, 2, "A", 4, 12), R(1, 3, 4, "A", 4, 12),
               R(2, 2, 3, "A", 4, 12), R(2, 4, 1, "A", 4, 12),
               R(3, 1, 3, "A", 4, 12), R(3, 2, 4, "A", 4, 12)]
    rows = by_id(compute(E(1, 2, 3, 4), results, 3))
    assert {i: (rows[i].points, rows[i].buchholz) for i in rows} == {
        1: (4, 8), 2: (4, 8), 3: (2, 10), 4: (2, 10)}
    assert {i: rows[i].head_to_head for i in rows} == {1: 2, 2: 0, 3: 2, 4: 0}
    assert all(r.head_to_head_decides for r in rows.values())


# --- the page -----------------------------------------------------------------------------


def cells(html: str, section: str) -> dict[int, list[str]]:
    """Each row's cells of one table on the page, by entry id (tags stripped)."""
    block = html.split(f'id="{section}"', 1)[1].split("</table>", 1)[0]
    rows = {}
    for entry, row in re.findall(r'<tr data-entry="(\d+)"(.*?)</tr>', block, re.S):
        rows[int(entry)] = [re.sub(r"<[^>]+>", "", c).strip()
                            for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
    return rows


@pytest.mark.django_db
def test_the_page_before_round_1_has_no_places_and_no_cross_table(client, club_cast):
    t = event(club_cast)
    enter_pairs(t, club_cast.players[:6])
    act(t, club_cast.director, "start")
    html = client.get(f"/tournament/{t.pk}/").content.decode()
    standings = cells(html, "standings")
    assert len(standings) == 3 and all(row[0] == "–" for row in standings.values())
    assert 'id="cross-table"' not in html


@pytest.mark.django_db
def test_cross_table_numbers_are_the_places_with_a_bot_pair(client, club_cast):
    t = event(club_cast, bots_allowed=True)
    people = enter_pairs(t, club_cast.players[:6])
    act(t, club_cast.director, "add_bot", level="casual")
    act(t, club_cast.director, "start")
    play_round(t.round_set.get(number=1), goat="B", loss=(4, 12))
    act(t, club_cast.director, "withdraw_entry", entry_id=people[0].pk, reason="went home")
    html = client.get(f"/tournament/{t.pk}/").content.decode()
    standings, cross = cells(html, "standings"), cells(html, "cross-table")
    place = {entry: row[0] for entry, row in standings.items()}
    number = {entry: row[0] for entry, row in cross.items()}
    # Four entries: the withdrawn pair and the bot pair take no place; the two other
    # pairs are 1 and 2, and the cross-table numbers them so.
    assert sorted(p for p in place.values()) == ["1", "2", "–", "–"]
    for entry, p in place.items():
        if p != "–":
            assert number[entry] == p
        else:
            assert number[entry] in ("a", "b")
    # Each round-1 cell names the opponent by that number: W or L then the number.
    for match in Match.objects.filter(round__number=1, round__tournament=t):
        a, b = (match.sides.get(side=s).entry_id for s in "AB")
        assert cross[a][2] == "W" + number[b] and cross[b][2] == "L" + number[a]
    # Results say loss points.
    assert "A won · 4–12 loss points" in " ".join(html.split())
