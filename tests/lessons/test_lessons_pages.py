"""The lessons' pages: the list, a lesson, a move judged, progress kept in the session,
bad input refused with a message, and the links from the home and rules pages."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def _post(client, slug, kind, *cards):
    return client.post(f"/learn/{slug}/", {"kind": kind, "cards": list(cards)})


def test_the_list_shows_every_lesson_and_no_progress_yet(client):
    page = client.get("/learn/").content.decode()
    assert page.count('data-lesson="') == 9
    assert "Finished: 0 of 9" in page and "is-done" not in page


def test_a_lesson_page_shows_the_trick_the_hand_and_the_actions(client):
    page = client.get("/learn/card-order/").content.decode()
    assert "Card order and trumps" in page and "K♥" in page  # the task names the lead
    assert page.count('name="cards"') == 4
    for kind in ("lead", "beat", "discard", "molodka"):
        assert f'value="{kind}"' in page
    assert 'class="lesson-seat place-right team-B is-top"' in page  # the set to beat


def test_r9_a_refused_move_shows_the_rule_and_the_hint_and_a_retry_form(client):
    page = _post(client, "card-order", "beat", "AC").content.decode()
    assert 'id="lesson-refusal"' in page and "R9" in page and "(R7)" in page
    assert "Look for a higher heart, or for a trump." in page
    assert 'id="lesson-form"' in page  # nothing changed: the same hand, ready again
    assert "0 of 9" in client.get("/learn/").content.decode()


def test_a_second_miss_gets_the_plain_hint(client):
    _post(client, "card-order", "beat", "AC")
    page = _post(client, "card-order", "discard", "7D").content.decode()
    assert "That move is allowed" in page and "10♥" in page and 'id="lesson-retry"' in page


def test_completing_a_lesson_is_remembered_in_the_session(client):
    page = _post(client, "card-order", "beat", "TH").content.decode()
    assert 'id="lesson-success"' in page and 'href="/learn/leading/"' in page
    listing = client.get("/learn/").content.decode()
    assert "Finished: 1 of 9" in listing
    assert 'class="is-done" data-lesson="card-order"' in listing


def test_r17_r18_the_series_lesson_shows_the_score_before_and_after(client):
    page = _post(client, "eggs-and-series", "beat", "AH").content.decode()
    assert "Series now: your team 10 loss points, theirs 8." in page
    missed = _post(client, "eggs-and-series", "discard", "AH").content.decode()
    assert "you are the goat" in missed


@pytest.mark.parametrize("data", [
    {"kind": "beat"}, {"kind": "fly", "cards": ["TH"]}, {"kind": "beat", "cards": ["XX"]},
    {"kind": "beat", "cards": ["TH", "TH"]}, {"cards": ["TH"]},
])
def test_bad_input_gets_a_message_and_changes_nothing(client, data):
    response = client.post("/learn/card-order/", data)
    assert response.status_code == 400
    assert 'id="lesson-error"' in response.content.decode()
    assert "0 of 9" in client.get("/learn/").content.decode()


def test_an_unknown_lesson_is_404(client):
    assert client.get("/learn/no-such-lesson/").status_code == 404
    response = client.post("/learn/no-such-lesson/", {"kind": "beat", "cards": ["TH"]})
    assert response.status_code == 404


def test_home_and_rules_link_to_the_lessons(client):
    assert 'href="/learn/"' in client.get("/").content.decode()
    assert 'href="/learn/"' in client.get("/rules/").content.decode()


def test_bad_input_does_not_count_as_a_miss(client):
    client.post("/learn/beating/", {"kind": "beat", "cards": ["XX"]})
    page = _post(client, "beating", "beat", "KD", "8H").content.decode()
    assert "Pair your cards with theirs" in page  # still the first, gentle hint
