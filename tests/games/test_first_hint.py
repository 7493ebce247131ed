"""The table page's first hint (games/first_hint.py) says what the script will say: lead
on your turn (R8), reply with k cards to a set of k (R9), nothing otherwise."""

from __future__ import annotations

from django.utils import translation

from games.first_hint import first_hint


def _snap(seat, turn, k=0, table=None, game_over=False):  # type: ignore[no-untyped-def]
    view = {"seat": seat, "turn": turn, "k": k, "table": table or [None] * 4,
            "game_over": game_over}
    return {"you": {"position": seat}, "game": {"view": view}}


def test_r8_your_lead_asks_for_cards_of_one_suit():
    with translation.override("en"):
        assert first_hint(_snap(0, 0)) == (
            "Select cards of one suit to lead (double-click: lead one).")


def test_r9_a_reply_asks_for_k_cards():
    led = [None, None, None, {"cards": ["7C", "9C"]}]
    with translation.override("en"):
        assert first_hint(_snap(0, 0, k=1, table=led)) == "Select 1 card to beat or discard."
        assert first_hint(_snap(0, 0, k=2, table=led)) == "Select 2 cards to beat or discard."
    with translation.override("ru"):
        assert first_hint(_snap(0, 0, k=2, table=led)) == (
            "Выберите 2 карты, чтобы побить или сбросить.")


def test_nothing_to_say_off_turn_after_playing_to_the_trick_or_watching():
    played = [{"cards": ["7C"]}, None, None, None]
    assert first_hint(_snap(0, 1)) == ""
    assert first_hint(_snap(0, 0, k=1, table=played)) == ""
    assert first_hint(_snap(0, 0, game_over=True)) == ""
    assert first_hint({"you": {"position": None}, "game": {"view": {"turn": 0}}}) == ""
    assert first_hint({"you": {}, "game": None}) == ""
