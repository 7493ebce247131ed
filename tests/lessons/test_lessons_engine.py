"""Every lesson is a legal engine position and can be completed; a wrong move is refused
by the engine with its rule, plus the lesson's hint, and changes nothing.

The solutions and the expected results below are worked out by hand from the rules
(templates/rules.html), not taken from the lessons' own data."""

from __future__ import annotations

import pytest

from games import engine
from games.errors import InvalidRequestError, NotFoundError
from games.lessons import services
from games.lessons.catalog import LEARNER, LESSONS

# slug -> the move that completes it (by hand, from R7-R18).
SOLUTIONS = {
    "card-order": ("beat", ["TH"]),
    "leading": ("lead", ["AC", "TC", "KC"]),
    "beating": ("beat", ["KD", "7C"]),
    "discarding": ("discard", ["6C"]),
    "drawing": ("beat", ["QS"]),
    "molodka": ("molodka", ["6H", "8H", "JH", "AH"]),
    "counting": ("beat", ["AC"]),
    "loss-points": ("beat", ["AD"]),
    "eggs-and-series": ("beat", ["AH"]),
}

# slug -> an illegal move and the rule the engine must name in its refusal.
ILLEGAL = {
    "card-order": (("beat", ["AC"]), "R7"),
    "leading": (("lead", ["AC", "7H"]), "R8"),
    "beating": (("beat", ["KD", "8H"]), "R7"),
    "discarding": (("beat", ["6C"]), "R7"),
    "drawing": (("beat", ["KD"]), "R7"),
    "molodka": (("beat", ["AH"]), "R9"),
    "counting": (("lead", ["AC"]), "R8"),
    "loss-points": (("beat", ["7D"]), "R9"),
    "eggs-and-series": (("molodka", ["AH"]), "R11"),
}

# slug -> a legal move that misses the lesson's goal.
MISSES = {
    "card-order": ("discard", ["7D"]),
    "leading": ("lead", ["AC"]),
    "discarding": ("discard", ["TS"]),
    "drawing": ("discard", ["7C"]),
    "counting": ("discard", ["AC"]),
    "loss-points": ("discard", ["AD"]),
    "eggs-and-series": ("discard", ["AH"]),
}


def _move(kind, cards):
    return {"kind": kind, "cards": cards}


def test_the_tables_above_cover_every_lesson():
    slugs = {lesson.slug for lesson in LESSONS}
    assert set(SOLUTIONS) == slugs == set(ILLEGAL)
    assert set(MISSES) <= slugs and len(slugs) == 9


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_r1_r14_every_lesson_position_is_a_legal_engine_state(lesson):
    position = lesson.position
    state = engine.game_from_position(position)  # raises for an impossible position
    exported = engine.position_of(state)
    assert exported.stock == position.stock and exported.tricks == position.tricks
    assert [set(h) for h in exported.hands] == [set(h) for h in position.hands]
    assert [set(p) for p in exported.piles] == [set(p) for p in position.piles]
    assert len(position.stock) % 4 == 0  # R12: the stock comes out four cards a round
    for team in (0, 1):
        assert len(position.piles[team]) == 4 * position.tricks[team]
    if position.stock:
        assert position.trump_card in position.stock  # R6: shown, then put back
        assert all(len(hand) == 4 for hand in position.hands)
    start = lesson.start()  # every play before the learner's turn goes through apply
    assert LEARNER in engine.seats_to_act(start)
    assert engine.legal_actions(start, LEARNER)
    assert len(lesson.hints) >= 2


@pytest.mark.parametrize("slug", SOLUTIONS)
def test_each_lesson_is_completed_in_the_engine(slug):
    step = services.try_move(slug, _move(*SOLUTIONS[slug]))
    assert step.refusal is None and step.hint is None
    assert step.done, slug
    assert step.action in engine.legal_actions(step.start, LEARNER)


def test_r2_r7_card_order_the_trump_also_completes_it():
    assert services.try_move("card-order", _move("beat", ["6S"])).done


def test_r10_r12_the_taker_draws_first_and_leads_next():
    step = services.try_move("drawing", _move("beat", ["QS"]))
    assert step.state.last_trick.taker == LEARNER
    assert len(step.state.stock) == 16 and step.state.turn == LEARNER
    # R12: the taker draws first: the top card of the stock is the learner's now.
    assert step.start.stock[0] in step.state.hands[LEARNER]


def test_r11_molodka_restarts_the_trick_with_the_learner_on_lead():
    lesson = services.lesson("molodka")
    after = engine.apply(lesson.start(), LEARNER, engine.Molodka(["6H", "8H", "JH", "AH"]))
    assert after.leader == LEARNER and after.k == 4
    assert engine.Card("9C") in after.hands[1]  # the lead went back to its owner


@pytest.mark.parametrize(("slug", "points_a", "loss_a", "eggs"), [
    ("counting", 40 + 10 + 11, 0, False),       # R3, R16: 61 wins
    ("loss-points", 20 + 10 + 11, 2, False),    # R16: 31-59 -> 2
    ("eggs-and-series", 49 + 11, 0, True),      # R17: 60-60
])
def test_r16_r17_the_endgame_lessons_end_as_counted_by_hand(slug, points_a, loss_a, eggs):
    step = services.try_move(slug, _move(*SOLUTIONS[slug]))
    result = engine.outcome(step.state)
    assert result.points["A"] == points_a and result.points["B"] == 120 - points_a
    assert result.loss_points["A"] == loss_a and result.eggs is eggs


@pytest.mark.parametrize("slug", ILLEGAL)
def test_an_illegal_move_is_refused_with_the_rule_and_the_hint_and_changes_nothing(slug):
    (kind, cards), rule = ILLEGAL[slug]
    step = services.try_move(slug, _move(kind, cards))
    assert not step.done
    assert step.refusal and rule in step.refusal
    assert step.hint == services.say(step.lesson, step.lesson.hints[0])
    assert step.state == step.start == step.lesson.start()


@pytest.mark.parametrize("slug", MISSES)
def test_a_legal_move_that_misses_the_goal_gets_the_hint(slug):
    step = services.try_move(slug, _move(*MISSES[slug]))
    assert step.refusal is None and not step.done
    assert step.hint


def test_r18_losing_the_eggs_lesson_makes_the_learners_team_the_goat():
    step = services.try_move("eggs-and-series", _move("discard", ["AH"]))
    assert engine.outcome(step.state).loss_points["A"] == 2  # 10 + 2 = 12: the goat


def test_hints_get_plainer_with_each_miss():
    first = services.try_move("beating", _move("beat", ["KD", "8H"]), tries=1).hint
    second = services.try_move("beating", _move("beat", ["KD", "8H"]), tries=2).hint
    later = services.try_move("beating", _move("beat", ["KD", "8H"]), tries=7).hint
    assert first != second == later
    assert "K♦" in second and "7♣" in second


@pytest.mark.parametrize("raw", [
    None, "beat TH", {"kind": "beat"}, {"kind": "beat", "cards": []},
    {"kind": "beat", "cards": ["ZZ"]}, {"kind": "play", "cards": ["TH"]},
    {"kind": "beat", "cards": ["TH", "TH"]}, {"kind": "beat", "cards": ["TH"] * 5},
])
def test_a_malformed_move_is_refused_before_it_is_judged(raw):
    with pytest.raises(InvalidRequestError):
        services.try_move("card-order", raw)


@pytest.mark.parametrize("slug", ["nope", "", None, 3, "../rules"])
def test_an_unknown_lesson_is_not_found(slug):
    with pytest.raises(NotFoundError):
        services.try_move(slug, _move("beat", ["TH"]))
